"""The Game API of issue 2: bad requests, event sentences, player views, saving and loading."""
import json

import numpy as np
import pytest

from gofish_teach import Ask, Book, Card, Deal, Draw, Game, GameOver, Give, GoFish, IllegalMove, Rules, Skip, Turn, View
from scenarios import LAST_CARD, assert_illegal, new_game, play, snapshot

HANDS = ["7♣ 7♦ 2♣ 3♣ 4♣", "7♥ 8♦ 9♦ 10♦ J♦", "8♥ 9♥ 10♥ J♥ Q♥"]


@pytest.fixture
def game():
    """Pond, three players; seat 0 holds 7♣ 7♦ 2♣ 3♣ 4♣ and is to ask."""
    return new_game("pond", HANDS, ocean="K♣ K♦")


# ---------------------------------------------------------------- building a game
def test_a_deck_given_by_rank_gets_suits_in_order_of_appearance():
    """Issue 2: ``deck=[...]`` "ranks or cards, index 0 = top, dealt first" """
    game = Game(Rules.preset("pond").replace(n_ranks=2, hand_size=2), 2, deck=["A", "2", "A", "A", "2", "2", "A", "2"])
    assert game.deck[:4] == (Card("A", "♣"), Card("2", "♣"), Card("A", "♦"), Card("A", "♥"))
    assert game.hand(0) == (Card("A", "♣"), Card("A", "♦")) and game.hand(1) == (Card("A", "♥"), Card("2", "♣"))


def test_a_deck_and_a_seed_together_are_an_error():
    with pytest.raises(ValueError, match="give either seed= or deck=, not both"):
        Game(Rules.preset("pond"), 2, seed=1, deck=[str(c) for c in Game(Rules.preset("pond"), 2, seed=1).deck])


# ---------------------------------------------------------------- bad requests
def test_illegal_move_is_a_value_error():
    assert issubclass(IllegalMove, ValueError)


def test_asking_yourself_is_illegal(game):
    assert_illegal(game, 0, "7", match="player 0 cannot ask themself")


@pytest.mark.parametrize("target", [-1, 3, 99, "1", 1.0, None, True])
def test_an_unknown_seat_is_illegal(game, target):
    assert_illegal(game, target, "7", match="is not a seat: seats are 0 to 2")


@pytest.mark.parametrize("rank", ["Z", "11", "", None, 0, 14, ["7"], {"rank": "7"}, Card("7", "♥")])
def test_an_unknown_rank_is_illegal(game, rank):
    assert_illegal(game, 1, rank, match="is not in this deck: ranks are A, 2, 3")


def test_a_rank_you_do_not_hold_is_illegal(game):
    assert_illegal(game, 1, "K", match="player 0 holds no Kings, so cannot ask for Kings")


def test_a_suit_with_a_rank_ask_is_illegal(game):
    assert_illegal(game, 1, "7", "♥", match="these rules ask for a whole rank")


@pytest.mark.parametrize("suit", ["x", "", "♥♥", 3])
def test_an_unknown_suit_is_illegal(suit):
    game = new_game("pond", HANDS, specific_card=True)
    assert_illegal(game, 1, "7", suit, match="is not one of ♣ ♦ ♥ ♠")


def test_asking_when_the_game_is_over_is_illegal():
    game = new_game("pond", ["A♣ A♦ A♥ A♠", "2♣ 2♦ 2♥ 2♠"], n_ranks=2, hand_size=4)
    assert game.is_over
    assert_illegal(game, 1, "A", match="the game is over")


def test_asking_out_of_turn_is_illegal(game):
    """Issue 2: IllegalMove for "not your turn" (a widget says whose ask it is with ``player=``)."""
    assert_illegal(game, 0, "8", player=1, match="it is player 0's turn, not player 1's")


def test_asking_in_turn_with_player_named_is_legal(game):
    assert game.ask(1, "7", player=0) == [Ask(0, 1, "7"), Give(1, 0, "7", 1)]


@pytest.mark.parametrize("rank", ["7", 7, " 7 "])
def test_a_rank_may_be_given_loosely(game, rank):
    """Issue 2: "every API that takes a rank accepts the label string ('A', '7', '10', 'Q')" """
    assert game.ask(1, rank)[0] == Ask(0, 1, "7")


def test_rank_labels_ten_and_queen_are_accepted():
    game = new_game("pond", ["10♣ Q♣ 2♣ 3♣ 4♣", "10♦ Q♦ 9♦ 8♦ J♦"])
    assert play(game, (1, "10"), (1, "q"))[2:] == [Ask(0, 1, "Q"), Give(1, 0, "Q", 1)]


def test_a_numpy_integer_seat_is_accepted(game):
    assert game.ask(np.int64(1), "7")[0] == Ask(0, 1, "7")


def test_legal_asks_are_exactly_the_asks_that_are_accepted(game):
    legal = set(game.legal_asks())
    for target in range(3):
        for rank in game.rules.ranks:
            try:
                game.check_ask(target, rank)
            except IllegalMove:
                assert (target, rank) not in legal
            else:
                assert (target, rank) in legal


# ---------------------------------------------------------------- events as sentences
@pytest.mark.parametrize("event, sentence", [
    (Deal(1, 5, None), "Player 1 is dealt 5 cards."),
    (Deal(1, 2, (Card("7", "♥"), Card("Q", "♠"))), "Player 1 is dealt 2 cards: 7♥ Q♠."),
    (Deal(1, 1, None), "Player 1 is dealt 1 card."),
    (Ask(0, 2, "K"), "Player 0 asks Player 2 for Kings."),
    (Ask(0, 2, "6"), "Player 0 asks Player 2 for 6s."),
    (Ask(0, 2, "K", "♥"), "Player 0 asks Player 2 for the K♥."),
    (Give(2, 0, "A", 1), "Player 2 gives Player 0 one Ace."),
    (Give(2, 0, "10", 3), "Player 2 gives Player 0 three 10s."),
    (GoFish(2, 0, "K"), 'Player 2 says "Go Fish!"'),
    (Draw(0, 1, None, "fish"), "Player 0 draws a card from the ocean."),
    (Draw(0, 1, (Card("3", "♣"),), "fish"), "Player 0 draws a card (3♣) from the ocean."),
    (Draw(0, 1, (Card("K", "♠"),), "fish", True), "Player 0 draws K♠, the rank asked for, and shows it: lucky draw!"),
    (Draw(3, 5, None, "empty hand"), "Player 3 draws 5 cards from the ocean because their hand is empty."),
    (Book(1, "J"), "Player 1 lays down a book of Jacks."),
    (Turn(2), "It is Player 2's turn."),
    (Skip(2), "Player 2 has no cards and the ocean is empty, so sits out."),
    (GameOver((1,), (0, 3, 2), "every book is made"), "Game over (every book is made). Player 1 wins with 3 books."),
    (GameOver((0,), (1, 0, 0), "the ocean is empty"), "Game over (the ocean is empty). Player 0 wins with 1 book."),
    (GameOver((0, 1), (2, 2), "every book is made"),
     "Game over (every book is made). Player 0 and Player 1 share the win with 2 books each."),
    (GameOver((0, 1, 2), (1, 1, 1), "the ocean is empty"),
     "Game over (the ocean is empty). Player 0, Player 1 and Player 2 share the win with 1 book each."),
    (GameOver((0, 2), (1, 0, 2, 1), "every book is made", 3),
     "Game over (every book is made). Player 0 and Player 2 win as a team with 3 books."),
    (GameOver((0, 1, 2, 3), (1, 1, 1, 1), "every book is made", 2),
     "Game over (every book is made). The teams of Player 0 and Player 2, and of Player 1 and Player 3 "
     "share the win with 2 books each."),
])
def test_every_event_reads_as_a_sentence(event, sentence):
    assert str(event) == sentence


def test_events_use_the_seat_names_given():
    assert Ask(0, 1, "Q").describe(["Ann", "Bo"]) == "Ann asks Bo for Queens."
    game = Game(Rules.preset("pond"), 2, seed=3, names=["Ann", "Bo"])
    assert game.names == ("Ann", "Bo") and game.events[0].describe(game.names) == "Ann is dealt 5 cards."


def test_a_team_win_reads_with_the_pooled_books():
    hands = ["A♣ A♦ A♥ A♠ 5♣ 6♣", "2♣ 2♦ 2♥ 2♠ 3♣ 3♦", "4♣ 4♦ 4♥ 4♠ 5♦ 6♦", "3♥ 3♠ 5♥ 5♠ 6♥ 6♠"]
    game = new_game("pond", hands, n_ranks=6, hand_size=6, teams=True)
    play(game, (3, "5"), (3, "6"))
    assert str(game.events[-1]) == ("Game over (no ask can succeed any more). "
                                    "Player 0 and Player 2 win as a team with 2 books.")


def test_the_public_log_is_read_only(game):
    assert isinstance(game.events, tuple)


# ---------------------------------------------------------------- views
def test_a_view_holds_the_players_own_hand_and_the_public_counts(game):
    game.ask(1, "7")
    view = game.view(1)
    assert isinstance(view, View) and view.player == 1
    assert view.hand == game.hand(1) and view.counts == {"8": 1, "9": 1, "10": 1, "J": 1}
    assert view.hand_sizes == game.hand_sizes == (6, 4, 5)
    assert (view.books, view.ocean_size, view.current_player) == (game.books, game.ocean_size, 0)
    assert view.opponents == (0, 2) and view.n_players == 3 and view.ranks == game.rules.ranks


def test_a_view_shows_only_its_own_deal(game):
    events = game.view(1).events
    assert events[:3] == (Deal(0, 5, None), Deal(1, 5, tuple(Card.parse(c) for c in HANDS[1].split())), Deal(2, 5, None))


def test_a_view_shows_its_own_draws_and_hides_the_others(game):
    game.ask(2, "2")  # Go Fish: seat 0 draws K♣
    assert game.view(0).events[-2] == Draw(0, 1, (Card("K", "♣"),), "fish")
    assert game.view(1).events[-2] == game.events[-2] == Draw(0, 1, None, "fish")


def test_a_view_is_a_snapshot(game):
    view = game.view(0)
    before = (view.hand, view.hand_sizes, view.events, view.ocean_size, view.current_player)
    play(game, (1, "7"), (2, "2"))
    assert (view.hand, view.hand_sizes, view.events, view.ocean_size, view.current_player) == before


def test_a_view_lists_the_asks_only_on_its_turn(game):
    assert game.view(0).legal_asks() == game.legal_asks()
    assert game.view(1).legal_asks() == []


@pytest.mark.parametrize("seat", [-1, 3, "0", None])
def test_a_view_of_an_unknown_seat_is_an_error(game, seat):
    with pytest.raises(ValueError, match="is not a seat"):
        game.view(seat)


# ---------------------------------------------------------------- saving and loading
def test_a_saved_game_loads_to_the_same_state(game):
    play(game, (1, "7"), (2, "2"), (0, "8"))
    assert snapshot(Game.from_json(game.to_json())) == snapshot(game)


def test_a_loaded_game_plays_on_like_the_original(game):
    play(game, (1, "7"))
    copy = Game.from_json(game.to_json())
    assert copy.ask(2, "2") == game.ask(2, "2")
    assert snapshot(copy) == snapshot(game)


def test_save_and_load_through_a_file(game, tmp_path):
    play(game, (1, "7"), (2, "2"))
    game.save(tmp_path / "position.json")
    assert snapshot(Game.load(tmp_path / "position.json")) == snapshot(game)


def test_a_save_holds_rules_deck_order_and_asks(game):
    game.ask(1, "7")
    data = json.loads(game.to_json())
    assert data["rules"]["name"] == "pond" and data["n_players"] == 3
    assert data["deck"][:3] == ["7♣", "7♥", "8♥"] and data["asks"] == [[1, "7"]]


def test_a_save_keeps_names_and_variant_rules():
    rules = Rules.preset("classic").replace(specific_card=True, book_size=2, n_ranks=5, hand_size=3)
    game = Game(rules, 3, seed=11, names=["Ann", "Bo", "Cy"])
    game.ask(*game.legal_asks()[0])
    copy = Game.from_json(game.to_json())
    assert copy.rules == rules and copy.names == ("Ann", "Bo", "Cy") and snapshot(copy) == snapshot(game)


def _saved(**changes) -> str:
    """A valid save of a short game, with top-level fields changed (a value of ``...`` deletes the field)."""
    game = new_game("classic", LAST_CARD, ocean="4♠", n_ranks=4, hand_size=5)
    game.ask(1, "3")
    data = json.loads(game.to_json())
    for key, value in changes.items():
        if value is ...:
            del data[key]
        else:
            data[key] = value
    return json.dumps(data)


def _rules(**changes) -> dict:
    rules = json.loads(_saved())["rules"]
    return {**rules, **changes}


def _deck(edit) -> list:
    deck = json.loads(_saved())["deck"]
    edit(deck)
    return deck


@pytest.mark.parametrize("text, message", [
    ("not json at all", "not valid JSON"),
    (_saved()[:-20], "not valid JSON"),
    ("[1, 2]", "'format' must be 'gofish-teach/1'"),
    (_saved(format="gofish-teach/0"), "'format' must be 'gofish-teach/1'"),
    (_saved(deck=...), r"missing field\(s\) deck"),
    (_saved(asks=..., rules=...), r"missing field\(s\) asks, rules"),
    (_saved(score=3), r"unknown field\(s\) score"),
    (_saved(rules=[1]), "field 'rules'"),
    (_saved(rules=_rules(colour="red")), "field 'rules': Rules has no option colour"),
    (_saved(rules=_rules(n_ranks="4")), "field 'rules'.*n_ranks"),
    (_saved(rules=_rules(deal=5)), "field 'rules'.*deal"),
    (_saved(rules=_rules(book_size=3)), "field 'rules'.*book_size"),
    (_saved(n_players=7), "n_players"),
    (_saved(n_players="3"), "n_players"),
    (_saved(names=["Ann"]), "names: expected 3 names"),
    (_saved(names="ABC"), "names"),
    (_saved(deck="A♣ A♦"), "deck"),
    (_saved(deck=_deck(lambda d: d.pop())), "deck: must hold each of the 16 cards.*missing"),
    (_saved(deck=_deck(lambda d: d.__setitem__(0, d[1]))), "deck: .*repeated"),
    (_saved(deck=_deck(lambda d: d.__setitem__(0, "Z?"))), "deck"),
    (_saved(deck=_deck(lambda d: d.__setitem__(0, None))), "deck"),
    (_saved(asks="1 3"), "asks"),
    (_saved(asks=[[1, "3"], 7]), "ask 1 must be"),
    (_saved(asks=[[1, "3", "♥", 4]]), "ask 0 must be"),
    (_saved(asks=[[0, "3"]]), r"ask 0 \[0, '3'\] is illegal: player 0 cannot ask themself"),
    (_saved(asks=[[1, ["3"]]]), "ask 0 .* is illegal"),
    (_saved(asks=[[{"seat": 1}, "3"]]), "ask 0 .* is illegal"),
    (_saved(asks=[[1, "3"], [2, "3"], [2, "A"], [1, "A"]]), r"ask 3 .* is illegal: the game is over"),
])
def test_a_malformed_or_tampered_save_is_rejected_naming_the_problem(text, message):
    with pytest.raises(ValueError, match=message):
        Game.from_json(text)
