"""Source 002 (the online table with a "pond"), followed by the ``pond`` preset.

One scenario per rule line of the text; each test quotes the line it follows. Decks are
stacked with ``scenarios.new_game``: each seat's dealt hand, then the top of the pond.
"""
import pytest

from gofish_teach import Ask, Book, Card, Draw, Game, GameOver, Give, GoFish, Rules, Skip, Turn
from gofish_teach.cards import ALL_RANKS, make_deck
from scenarios import TIED, TIED_ASKS, TIED_OPTIONS, assert_illegal, new_game, play

POND = Rules.preset("pond")


# ---------------------------------------------------------------- setting up
def test_four_players_get_five_cards_and_32_go_to_the_pond():
    """ "four players each receive five cards and the remaining 32 cards are placed face down in the centre as the pond." """
    game = Game(POND, 4, deck=make_deck(ALL_RANKS))
    assert game.hand_sizes == (5, 5, 5, 5) and game.ocean_size == 32


@pytest.mark.parametrize("n_players", [2, 3, 5, 6])
def test_every_player_count_gets_the_tables_five_cards(n_players):
    """ "two to six people can play ... agree the opening hand size before play." The preset keeps the
    table's five cards for every count (``hand_size`` changes it)."""
    game = Game(POND, n_players, deck=make_deck(ALL_RANKS))
    assert game.hand_sizes == (5,) * n_players and game.ocean_size == 52 - 5 * n_players


def test_a_standard_deck_makes_13_books():
    """ "A standard deck contains 13 possible books." """
    assert POND.total_books == 13 and len(POND.ranks) == 13


def test_the_first_player_asks_first():
    """ "The first player asks a chosen opponent for a rank." (seat 0) """
    game = Game(POND, 4, seed=5)
    assert game.current_player == 0 and {t for t, _ in game.legal_asks()} == {1, 2, 3}


# ---------------------------------------------------------------- asking
FOURS = ["4♣ 5♣ 6♣ 7♣ 8♣", "4♦ 4♥ 9♦ 10♦ J♦", "2♦ 3♦ 5♦ 6♦ 7♦", "2♥ 3♥ 5♥ 6♥ 7♥"]


def test_you_may_ask_for_a_rank_you_hold():
    """ "name a rank of which you already hold at least one card. For example, if you hold a Four, you may ask West for Fours." """
    game = new_game(POND, FOURS)
    assert sorted(game.legal_asks()) == sorted((t, r) for t in (1, 2, 3) for r in ("4", "5", "6", "7", "8"))


def test_you_may_not_ask_for_a_rank_you_do_not_hold():
    """ "name a rank of which you already hold at least one card" """
    assert_illegal(new_game(POND, FOURS), 1, "9", match="holds no 9s")


def test_the_opponent_gives_every_card_of_the_rank():
    """ "If West has any, West must give you every Four they hold." """
    game = new_game(POND, FOURS)
    assert game.ask(1, "4") == [Ask(0, 1, "4"), Give(1, 0, "4", 2)]
    assert game.count(0, "4") == 3 and game.count(1, "4") == 0


def test_after_a_successful_ask_you_keep_the_turn_and_may_ask_anyone_for_any_rank_you_now_hold():
    """ "You keep the turn and may ask any opponent for any rank you now hold." """
    game = new_game(POND, FOURS)
    game.ask(1, "4")
    assert game.current_player == 0
    assert sorted(game.legal_asks()) == sorted((t, r) for t in (1, 2, 3) for r in ("4", "5", "6", "7", "8"))


# ---------------------------------------------------------------- fishing
FISHING = ["7♣ 7♦ 7♥ 2♣ 3♣", "2♦ 9♦ 10♦ 4♦ 5♦"]


def test_go_fish_draws_the_top_card_of_the_pond():
    """ "If the chosen opponent has none, they say "Go fish." Draw the top card of the pond." """
    game = new_game(POND, FISHING, ocean="K♥ K♠")
    assert game.ask(1, "3")[:3] == [Ask(0, 1, "3"), GoFish(1, 0, "3"), Draw(0, 1, None, "fish")]
    assert Card("K", "♥") in game.hand(0) and game.ocean()[0] == Card("K", "♠")


def test_drawing_the_asked_rank_is_shown_and_gives_another_turn():
    """ "If you draw the rank you just asked for, show it and take another turn." """
    game = new_game(POND, FISHING, ocean="3♥")
    assert game.ask(1, "3") == [Ask(0, 1, "3"), GoFish(1, 0, "3"), Draw(0, 1, (Card("3", "♥"),), "fish", lucky=True)]
    assert game.current_player == 0


def test_a_lucky_draw_that_makes_a_book_is_laid_down():
    """ "If you draw the rank you just asked for, show it and take another turn." / "As soon as a player collects all
    four cards of a rank, they form a book" """
    game = new_game(POND, FISHING, ocean="7♠")
    assert game.ask(1, "7")[2:] == [Draw(0, 1, (Card("7", "♠"),), "fish", lucky=True), Book(0, "7")]
    assert game.current_player == 0


def test_drawing_another_rank_is_kept_and_passes_play_on():
    """ "If it is a different rank, keep it and pass play to the next player on the left." """
    game = new_game(POND, FISHING, ocean="K♥")
    assert game.ask(1, "3")[2:] == [Draw(0, 1, None, "fish"), Turn(1)]
    assert game.current_player == 1 and Card("K", "♥") in game.hand(0)


EMPTY_POND = ["A♣ A♦ 2♣ 3♣", "A♥ A♠ 2♦ 3♦", "2♥ 2♠ 3♥ 3♠"]  # 3 ranks, 3 x 4 cards: the pond is empty


def test_with_the_pond_empty_an_unsuccessful_request_passes_the_turn():
    """ "When the pond is empty, an unsuccessful request simply passes the turn." """
    game = new_game(POND, ["A♣ 2♣ 3♣", "A♦ 2♦ 3♦", "A♥ 2♥ 3♥", "A♠ 2♠ 3♠"], n_ranks=3, hand_size=3)
    game.ask(1, "A")
    assert game.ask(1, "A") == [Ask(0, 1, "A"), GoFish(1, 0, "A"), Turn(1)]
    assert game.ocean_size == 0 and game.hand_sizes == (4, 2, 3, 3)


# ---------------------------------------------------------------- books
def test_four_of_a_rank_from_an_ask_form_a_book():
    """ "As soon as a player collects all four cards of a rank, they form a book and put those cards aside." """
    game = new_game(POND, FISHING + ["7♠ 8♠ 9♠ 10♠ J♠"])
    assert game.ask(2, "7") == [Ask(0, 2, "7"), Give(2, 0, "7", 1), Book(0, "7")]
    assert game.books == (("7",), (), ()) and game.hand_sizes == (2, 5, 4)


def test_four_of_a_rank_from_an_unlucky_draw_form_a_book_and_play_passes():
    """ "As soon as a player collects all four cards of a rank, they form a book" / "If it is a different rank,
    keep it and pass play to the next player on the left." (no extra ask for the book, unlike Bicycle) """
    game = new_game(POND, ["3♣ 3♦ 3♥ 7♣ 4♣", "2♦ 9♦ 10♦ 4♦ 5♦"], ocean="3♠")
    assert game.ask(1, "7")[2:] == [Draw(0, 1, None, "fish"), Book(0, "3"), Turn(1)]


def test_four_of_a_rank_dealt_form_a_book_at_once():
    """ "As soon as a player collects all four cards of a rank, they form a book" (also as dealt) """
    game = new_game(POND, ["2♣ 9♣ 9♦ 9♥ 9♠", "2♦ 3♦ 4♦ 5♦ 6♦"])
    assert game.events[2:] == (Book(0, "9"),) and game.hand(0) == (Card("2", "♣"),)


# ---------------------------------------------------------------- empty hands
EMPTIED = ["A♣ 2♣ 3♣ 4♣ 5♣", "A♦ A♥ 2♦ 2♥ 3♦", "6♦ 7♦ 8♦ 9♦ 10♦"]


def test_an_empty_hand_at_the_start_of_a_turn_gets_one_pond_card_and_plays_on():
    """ "If a player has no cards at the start of their turn while the pond still has cards, this version gives
    them one pond card so they can continue." """
    game = new_game(POND, EMPTIED, ocean="K♣ Q♥")
    play(game, (1, "A"), (1, "2"), (1, "3"))
    assert game.hand_sizes[1] == 0
    assert game.ask(2, "4")[2:] == [Draw(0, 1, None, "fish"), Turn(1), Draw(1, 1, None, "empty hand")]
    assert game.current_player == 1 and game.hand(1) == (Card("Q", "♥"),)
    assert game.legal_asks() == [(0, "Q"), (2, "Q")]


def test_a_turn_that_continues_with_an_empty_hand_gets_one_pond_card_and_plays_on():
    """ "this version gives them one pond card so they can continue." (issue 2: a turn that comes *or continues*
    with an empty hand) """
    game = new_game(POND, ["7♣ 7♦ 7♥ 8♣ 8♦", "7♠ 8♥ 8♠ 2♦ 3♦"], ocean="K♣")
    events = play(game, (1, "7"), (1, "8"))
    assert events[-3:] == [Give(1, 0, "8", 2), Book(0, "8"), Draw(0, 1, None, "empty hand")]
    assert game.current_player == 0 and game.hand(0) == (Card("K", "♣"),)


def test_an_empty_handed_player_is_skipped_once_the_pond_is_empty():
    """ "An empty-handed player is skipped once the pond is empty." """
    game = new_game(POND, EMPTY_POND, n_ranks=3, hand_size=4)
    play(game, (1, "A"), (1, "2"), (1, "3"))
    assert game.hand_sizes == (4, 0, 4)
    assert game.ask(1, "2") == [Ask(0, 1, "2"), GoFish(1, 0, "2"), Turn(1), Skip(1), Turn(2)]
    assert game.current_player == 2 and not game.is_over


# ---------------------------------------------------------------- the end
def test_play_continues_until_all_books_are_made():
    """ "The digital game continues until all 13 books have been completed." (not when a hand and the pond are empty) """
    game = new_game(POND, EMPTY_POND, n_ranks=3, hand_size=4)
    play(game, (1, "A"), (1, "2"), (1, "3"), (1, "2"))  # seat 1 is out of cards, the pond is empty: play goes on
    events = play(game, (0, "2"), (0, "3"))
    assert events[-2:] == [Book(2, "3"), GameOver((2,), (1, 0, 2), "every book is made")]


def test_the_highest_book_count_wins():
    """ "Count each player's books. The player with the highest count wins" """
    game = new_game(POND, EMPTY_POND, n_ranks=3, hand_size=4)
    play(game, (1, "A"), (1, "2"), (1, "3"), (1, "2"), (0, "2"), (0, "3"))
    assert game.book_counts == (1, 0, 2) and game.winners == (2,)


def test_players_tied_for_the_highest_count_share_the_win():
    """ "players tied for the highest count share the win." """
    game = new_game(POND, *TIED, **TIED_OPTIONS)
    events = play(game, *TIED_ASKS)
    assert events[-1] == GameOver((1, 2), (1, 2, 2), "every book is made")
    assert game.winners == (1, 2)
