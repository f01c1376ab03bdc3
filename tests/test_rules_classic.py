"""Source 004 (the 2009 post), followed by the ``classic`` preset.

One scenario per rule line of the text; each test quotes the line it follows. Decks are
stacked with ``scenarios.new_game``: each seat's dealt hand, then the top of the pack.
"""
import pytest

from gofish_teach import Ask, Book, Card, Draw, Game, GameOver, Give, GoFish, Rules, Turn
from gofish_teach.cards import ALL_RANKS, make_deck
from scenarios import LAST_CARD, assert_illegal, new_game, play

CLASSIC = Rules.preset("classic")


# ---------------------------------------------------------------- setting up
@pytest.mark.parametrize("n_players", [1, 7])
def test_other_player_counts_are_rejected(n_players):
    """ "No. of players: 2 – 6" """
    with pytest.raises(ValueError, match="n_players: the classic rules are for 2 to 6 players"):
        Game(CLASSIC, n_players, seed=0)


@pytest.mark.parametrize("n_players, size", [(2, 7), (3, 5), (4, 5), (5, 5), (6, 5)])
def test_deal_size_depends_on_the_number_of_players(n_players, size):
    """ "If there are two players, each is dealt 7 cards. If there are 3 or more players, each receives 5 cards.
    The rest of the pack is left face down in the centre." """
    game = Game(CLASSIC, n_players, deck=make_deck(ALL_RANKS))
    assert game.hand_sizes == (size,) * n_players and game.ocean_size == 52 - size * n_players


# ---------------------------------------------------------------- asking
KINGS = ["K♣ 2♣ 3♣ 4♣ 5♣", "K♦ K♥ 2♦ 3♦ 4♦", "6♦ 7♦ 8♦ 9♦ 10♦", "6♥ 7♥ 8♥ 9♥ 10♥", "6♠ 7♠ 8♠ 9♠ 10♠"]


def test_any_other_player_may_be_asked():
    """ "at Player A's turn, he may ask Player B (or C or D or E) if they have any Kings?" """
    game = new_game(CLASSIC, KINGS)
    assert {t for t, r in game.legal_asks() if r == "K"} == {1, 2, 3, 4}


def test_the_asking_player_must_hold_the_rank_already():
    """ "The player asking for a specific card HAS to hold that card already in one of the suits. For example, Player A
    has to hold a King in order to ask for another King from Player B." """
    assert_illegal(new_game(CLASSIC, KINGS), 1, "6", match="holds no 6s")


def test_every_card_of_the_rank_is_given_over():
    """ "If Player B has a King he HAS to give it over to Player A and if he has more than one, he has to give all of
    them over to Player A." """
    game = new_game(CLASSIC, KINGS)
    assert game.ask(1, "K") == [Ask(0, 1, "K"), Give(1, 0, "K", 2)]
    assert game.count(0, "K") == 3 and game.hand_sizes[:2] == (7, 3)


def test_a_successful_ask_gives_another_turn_even_of_the_same_person():
    """ "If Player A gets his King, he gets another turn and may ask the same person or any other for another card." """
    game = new_game(CLASSIC, KINGS)
    game.ask(1, "K")
    assert game.current_player == 0
    assert game.ask(1, "2") == [Ask(0, 1, "2"), Give(1, 0, "2", 1)]


# ---------------------------------------------------------------- fishing
FISHING = ["K♣ 2♣ 3♣ 4♣ 5♣", "6♦ 7♦ 8♦ 9♦ 10♦", "6♥ 7♥ 8♥ 9♥ 10♥"]


def test_go_fish_picks_up_a_card_and_the_next_player_takes_his_turn():
    """ "If Player B does NOT have any Kings, he says 'Go Fish' and the player asking him for the King (Player A) will
    pick up a card from the deck in the centre. The next player then takes his turn." """
    game = new_game(CLASSIC, FISHING, ocean="Q♠ J♠")
    assert game.ask(1, "K") == [Ask(0, 1, "K"), GoFish(1, 0, "K"), Draw(0, 1, None, "fish"), Turn(1)]
    assert Card("Q", "♠") in game.hand(0) and game.current_player == 1


def test_picking_up_the_card_asked_for_is_shown_and_gives_another_turn():
    """ "If the player is told to 'Go Fish' and then picks up the card that he asked for originally from the deck
    (eg. the King), then he has to show the card to the rest of the group and may have another turn" """
    game = new_game(CLASSIC, FISHING, ocean="K♠ J♠")
    assert game.ask(1, "K")[2:] == [Draw(0, 1, (Card("K", "♠"),), "fish", lucky=True)]
    assert game.view(2).events[-1] == Draw(0, 1, (Card("K", "♠"),), "fish", lucky=True)
    assert game.current_player == 0


# ---------------------------------------------------------------- sets
def test_a_set_of_four_is_placed_on_the_table():
    """ "When a player gets a set of four cards of the same number, he places it down on the table." """
    game = new_game(CLASSIC, ["K♣ K♠ 3♣ 4♣ 5♣", "K♦ K♥ 2♦ 3♦ 4♦", "6♥ 7♥ 8♥ 9♥ 10♥"])
    assert game.ask(1, "K") == [Ask(0, 1, "K"), Give(1, 0, "K", 2), Book(0, "K")]
    assert game.books == (("K",), (), ())


def test_a_set_dealt_is_placed_on_the_table_at_once():
    """ "When a player gets a set of four cards of the same number, he places it down on the table." (also as dealt) """
    game = new_game(CLASSIC, ["2♣ 3♣ 4♣ 5♣ 6♣", "2♦ 3♦ 4♦ 5♦ 6♦", "A♣ A♦ A♥ A♠ 6♥"])
    assert game.events[3:] == (Book(2, "A"),) and game.hand_sizes == (5, 5, 1)


# ---------------------------------------------------------------- the end
def test_the_game_is_finished_when_the_pack_is_exhausted():
    """ "The game is finished when the pack is exhausted" """
    game = new_game(CLASSIC, LAST_CARD, ocean="4♠", n_ranks=4, hand_size=5)
    play(game, (1, "3"), (2, "3"))  # a book of 3s
    assert game.ask(2, "A") == [Ask(0, 2, "A"), GoFish(2, 0, "A"), Draw(0, 1, None, "fish"),
                                GameOver((0,), (1, 0, 0), "the ocean is empty")]
    assert game.is_over and game.legal_asks() == []


def test_the_game_is_finished_on_the_last_card_even_after_a_lucky_draw():
    """ "The game is finished when the pack is exhausted" (no more asks, although the draw was lucky) """
    game = new_game(CLASSIC, LAST_CARD, ocean="4♠", n_ranks=4, hand_size=5)
    play(game, (1, "3"), (2, "3"))
    assert game.ask(1, "4")[2:] == [Draw(0, 1, (Card("4", "♠"),), "fish", lucky=True),
                                    GameOver((0,), (1, 0, 0), "the ocean is empty")]


def test_the_player_with_the_most_sets_wins():
    """ "the winner is the player with the most sets out of the 13 lying on the table." """
    game = new_game(CLASSIC, LAST_CARD, ocean="4♠", n_ranks=4, hand_size=5)
    play(game, (1, "3"), (2, "3"), (2, "A"))
    assert game.book_counts == (1, 0, 0) and game.winners == (0,)
    assert game.hand_sizes == (5, 4, 3)  # cards in hand do not count


# ---------------------------------------------------------------- running out of cards
def test_out_of_cards_draws_the_top_card_but_waits_for_the_next_go():
    """ "if a player runs out of cards during the game, he may draw the top card of the pack but has to wait until
    the next go until he can play his turn." """
    game = new_game(CLASSIC, ["A♣ 2♣ 3♣ 4♣ 5♣", "A♦ A♥ 2♦ 2♥ 3♦", "6♦ 7♦ 8♦ 9♦ 10♦"], ocean="K♣ Q♥")
    play(game, (1, "A"), (1, "2"), (1, "3"))
    events = game.ask(2, "4")
    assert events[2:] == [Draw(0, 1, None, "fish"), Turn(1), Draw(1, 1, None, "empty hand"), Turn(2)]
    assert game.hand(1) == (Card("Q", "♥"),) and game.current_player == 2


def test_a_turn_that_continues_with_an_empty_hand_draws_and_passes():
    """ "he may draw the top card of the pack but has to wait until the next go" (README convention: a turn that
    *continues* with an empty hand is treated like one that starts with it) """
    game = new_game(CLASSIC, ["7♣ 7♦ 7♥", "7♠ 8♣ 9♣", "8♦ 9♦ 10♦"], ocean="K♣", hand_size=3)
    assert game.ask(1, "7")[1:] == [Give(1, 0, "7", 1), Book(0, "7"), Draw(0, 1, None, "empty hand"), Turn(1)]
    assert game.hand(0) == (Card("K", "♣"),)


def test_an_empty_hand_drawing_the_last_card_ends_the_game():
    """ "he may draw the top card of the pack" / "The game is finished when the pack is exhausted" """
    game = new_game(CLASSIC, ["A♣ A♦ A♥ 2♣ 2♦", "A♠ 2♥ 3♣ 3♦ 4♣", "2♠ 3♥ 3♠ 4♦ 4♥"], ocean="4♠", n_ranks=4)
    events = play(game, (1, "A"), (1, "2"), (2, "2"))
    assert events[-3:] == [Book(0, "2"), Draw(0, 1, None, "empty hand"), GameOver((0,), (2, 0, 0), "the ocean is empty")]


def test_a_player_out_of_cards_can_be_bullied_out_of_the_card_he_draws():
    """ "This leads to a problem if a player runs out of cards early as (especially in 2 player games) the other
    player can continually bully him out of his cards!" """
    game = new_game(CLASSIC, ["A♣ 2♣", "A♦ 2♦"], ocean="K♣ A♥", hand_size=2)
    play(game, (1, "A"), (1, "2"))
    assert game.ask(1, "A")[-3:] == [Turn(1), Draw(1, 1, None, "empty hand"), Turn(0)]  # seat 1 drew A♥, and waits
    assert game.ask(1, "A") == [Ask(0, 1, "A"), Give(1, 0, "A", 1)]
    assert game.hand_sizes[1] == 0
