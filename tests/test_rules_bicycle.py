"""Source 003 (Bicycle's rules), followed by the ``bicycle`` preset, its worked example included.

One scenario per rule line of the text; each test quotes the line it follows. Decks are
stacked with ``scenarios.new_game``: each seat's dealt hand, then the top of the stock.
"""
import pytest

from gofish_teach import Ask, Book, Card, Draw, Game, GameOver, Give, GoFish, Rules, Skip, Turn
from gofish_teach.cards import ALL_RANKS, make_deck
from scenarios import TIED, TIED_ASKS, TIED_OPTIONS, assert_illegal, new_game, play

BICYCLE = Rules.preset("bicycle")


# ---------------------------------------------------------------- setting up
@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_two_to_five_players_may_play(n_players):
    """ "This page follows Bicycle's rules for 2–5 players." """
    assert Game(BICYCLE, n_players, seed=0).n_players == n_players


@pytest.mark.parametrize("n_players", [1, 6])
def test_other_player_counts_are_rejected(n_players):
    """ "This page follows Bicycle's rules for 2–5 players." """
    with pytest.raises(ValueError, match="n_players: the bicycle rules are for 2 to 5 players"):
        Game(BICYCLE, n_players, seed=0)


@pytest.mark.parametrize("n_players, size", [(2, 7), (3, 7), (4, 5), (5, 5)])
def test_deal_size_depends_on_the_number_of_players(n_players, size):
    """ "2 or 3 players: seven cards each." / "4 or 5 players: five cards each." """
    game = Game(BICYCLE, n_players, deck=make_deck(ALL_RANKS))
    assert game.hand_sizes == (size,) * n_players and game.ocean_size == 52 - size * n_players


def test_the_player_left_of_the_dealer_starts():
    """ "The player left of the dealer starts." (seat 0) """
    assert Game(BICYCLE, 3, seed=4).current_player == 0


# ---------------------------------------------------------------- turns
SEVENS = ["7♣ 7♦ Q♠ 2♣ 4♣ 5♣ 6♣", "7♥ 2♦ 4♦ 5♦ 6♦ 8♦ 9♦", "Q♦ 2♥ 4♥ 5♥ 6♥ 8♥ 9♥"]


def test_ask_only_for_a_rank_already_in_your_hand():
    """ "Ask one opponent for a rank already in your hand" """
    assert_illegal(new_game(BICYCLE, SEVENS), 1, "K", match="holds no Kings")


def test_the_opponent_gives_every_card_of_the_rank():
    """ "They must give you every card of that rank." """
    game = new_game(BICYCLE, ["7♣ 2♣ 3♣ 4♣ 5♣ 6♣ 8♣", "7♦ 7♥ 7♠ 2♦ 3♦ 4♦ 5♦"])
    assert game.ask(1, "7") == [Ask(0, 1, "7"), Give(1, 0, "7", 3), Book(0, "7")]


def test_after_receiving_cards_you_ask_again_and_may_change_opponent_and_rank():
    """ "If you receive cards, ask again; you may change opponent or rank." """
    game = new_game(BICYCLE, SEVENS)
    game.ask(1, "7")
    assert game.current_player == 0
    assert game.ask(2, "Q") == [Ask(0, 2, "Q"), Give(2, 0, "Q", 1)]


FISHING = ["7♣ 3♦ 3♥ 3♠ 2♣ 4♣ 5♣", "8♦ 2♦ 4♦ 5♦ 6♦ 9♦ 10♦"]


def test_go_fish_draws_one_card():
    """ "If they have none, they say "Go fish." Draw one card." """
    game = new_game(BICYCLE, FISHING, ocean="K♥ K♠")
    assert game.ask(1, "7")[:3] == [Ask(0, 1, "7"), GoFish(1, 0, "7"), Draw(0, 1, None, "fish")]
    assert Card("K", "♥") in game.hand(0) and game.ocean_size == 52 - 14 - 1


def test_a_drawn_card_of_the_asked_rank_is_shown_and_you_ask_again():
    """ "Show it and ask again if it matches your request" """
    game = new_game(BICYCLE, FISHING, ocean="7♥")
    assert game.ask(1, "7")[2:] == [Draw(0, 1, (Card("7", "♥"),), "fish", lucky=True)]
    assert game.current_player == 0


def test_any_other_drawn_card_passes_the_turn_left():
    """ "otherwise your turn passes left, unless you completed a book." """
    game = new_game(BICYCLE, FISHING, ocean="K♥")
    assert game.ask(1, "7")[2:] == [Draw(0, 1, None, "fish"), Turn(1)]


def test_a_drawn_card_that_completes_a_book_gives_another_ask():
    """ "Bicycle gives another ask for completing a book, even if the drawn card was not the requested rank." """
    game = new_game(BICYCLE, FISHING, ocean="3♣")
    assert game.ask(1, "7")[2:] == [Draw(0, 1, None, "fish"), Book(0, "3")]
    assert game.current_player == 0


# ---------------------------------------------------------------- books
def test_a_completed_book_is_placed_face_up():
    """ "Whenever you complete a book, show all four cards and place them face up beside you." """
    game = new_game(BICYCLE, ["7♣ 7♦ 7♥ 2♣ 4♣ 5♣ 6♣", "7♠ 2♦ 4♦ 5♦ 6♦ 8♦ 9♦"])
    assert game.ask(1, "7")[-1] == Book(0, "7")
    assert game.books == (("7",), ()) and game.count(0, "7") == 0


def test_pairs_are_not_laid_down_in_a_four_card_book_game():
    """Common mistakes: "Laying down pairs in a four-card-book game." """
    game = new_game(BICYCLE, ["7♣ 7♦ 2♣ 2♦ 4♣ 5♣ 6♣", "7♥ 8♦ 9♦ 10♦ J♦ Q♦ K♦"])
    game.ask(1, "7")
    assert game.books == ((), ()) and game.count(0, "7") == 3 and game.count(0, "2") == 2


def test_a_book_dealt_is_placed_at_once():
    """ "Whenever you complete a book, show all four cards and place them face up beside you." (also as dealt) """
    game = new_game(BICYCLE, ["2♣ 3♣ 4♣ 5♣ 6♣ 8♣ 9♣", "2♦ 3♦ J♣ J♦ J♥ J♠ 9♦"])
    assert game.events[2:] == (Book(1, "J"),) and game.hand_sizes == (7, 3)


# ---------------------------------------------------------------- empty hands and an empty stock
def test_an_empty_hand_draws_one_card_when_its_turn_comes_and_asks_for_its_rank():
    """ "If your hand is empty, draw one card when your turn comes and ask for its rank." """
    game = new_game(BICYCLE, ["A♣ 2♣ 3♣ 4♣ 5♣", "A♦ A♥ 2♦ 2♥ 3♦", "6♦ 7♦ 8♦ 9♦ 10♦", "6♥ 7♥ 8♥ 9♥ 10♥"],
                    ocean="K♣ Q♥")
    play(game, (1, "A"), (1, "2"), (1, "3"))
    assert game.ask(2, "4")[2:] == [Draw(0, 1, None, "fish"), Turn(1), Draw(1, 1, None, "empty hand")]
    assert game.current_player == 1 and game.legal_asks() == [(0, "Q"), (2, "Q"), (3, "Q")]


def test_a_turn_that_continues_with_an_empty_hand_draws_one_card_and_plays_on():
    """ "If your hand is empty, draw one card when your turn comes and ask for its rank." (README convention: a
    turn that *continues* with an empty hand is treated the same) """
    game = new_game(BICYCLE, ["7♣ 7♦ 7♥", "7♠ 8♣ 9♣"], ocean="K♣", hand_size=3)
    assert game.ask(1, "7")[-2:] == [Book(0, "7"), Draw(0, 1, None, "empty hand")]
    assert game.current_player == 0 and game.legal_asks() == [(1, "K")]


EMPTY_STOCK = ["A♣ A♦ 2♣ 3♣", "A♥ A♠ 2♦ 3♦", "2♥ 2♠ 3♥ 3♠"]  # 3 ranks, 3 x 4 cards: the stock is empty


def test_with_the_stock_empty_too_an_empty_hand_sits_out():
    """ "If the stock is empty too, sit out" """
    game = new_game(BICYCLE, EMPTY_STOCK, n_ranks=3, hand_size=4)
    play(game, (1, "A"), (1, "2"), (1, "3"))
    assert game.ask(1, "2")[2:] == [Turn(1), Skip(1), Turn(2)]


def test_books_of_a_player_sitting_out_still_count():
    """ "If the stock is empty too, sit out; your books still count." """
    game = new_game(BICYCLE, ["A♣ A♦ A♥ 2♣", "A♠ 2♦ 3♣ 3♦", "2♥ 2♠ 3♥ 3♠"], n_ranks=3, hand_size=4)
    events = play(game, (1, "A"), (1, "2"), (2, "2"))  # seat 0's second book empties its hand
    assert events[-3:] == [Book(0, "2"), Skip(0), Turn(1)]
    assert game.ask(2, "3")[-1] == GameOver((0,), (2, 1, 0), "every book is made")


def test_when_the_stock_runs_out_an_unsuccessful_request_ends_the_turn_without_a_draw():
    """ "When the stock runs out, keep asking. An unsuccessful request ends your turn without a draw." """
    game = new_game(BICYCLE, EMPTY_STOCK, n_ranks=3, hand_size=4)
    game.ask(1, "A")
    assert game.ask(2, "3") == [Ask(0, 2, "3"), Give(2, 0, "3", 2)]  # keep asking
    game.ask(2, "2")
    assert game.ask(2, "3") == [Ask(0, 2, "3"), GoFish(2, 0, "3"), Turn(1)]
    assert game.ocean_size == 0 and game.hand_sizes == (6, 2, 0)


def test_play_continues_until_every_book_is_complete():
    """ "Continue until every book is complete." / Common mistakes: "Ending play when the first player runs out of
    cards." / "Emptying your hand does not win." """
    game = new_game(BICYCLE, EMPTY_STOCK, n_ranks=3, hand_size=4)
    play(game, (1, "A"), (1, "2"), (1, "3"), (1, "2"))
    assert not game.is_over
    assert play(game, (0, "2"), (0, "3"))[-1] == GameOver((2,), (1, 0, 2), "every book is made")
    assert game.winners == (2,)  # not seat 1, which ran out of cards first


# ---------------------------------------------------------------- the worked example
EXAMPLE = ["7♣ 7♦ Q♠ 2♣ 4♣ 5♣ 6♣", "7♥ 7♠ 2♦ 4♦ 5♦ 6♦ 8♦", "Q♦ 2♥ 4♥ 5♥ 6♥ 8♥ 9♥"]  # You, Sam, another


def test_worked_example_sevens_from_sam_make_a_book_and_queens_can_be_asked_of_another():
    """ "You hold 7♣, 7♦ and Q♠. Sam holds 7♥ and 7♠. Ask Sam for sevens: both cards come to you. Put the four
    sevens beside you as a book. You can now ask another opponent for queens because Q♠ remains in your hand." """
    game = new_game(BICYCLE, EXAMPLE)
    assert game.ask(1, "7") == [Ask(0, 1, "7"), Give(1, 0, "7", 2), Book(0, "7")]
    assert game.ask(2, "Q") == [Ask(0, 2, "Q"), Give(2, 0, "Q", 1)]


def test_worked_example_drawing_the_queen_of_hearts_lets_you_ask_again():
    """ "Later, you ask for queens and hear "Go fish." Drawing Q♥ lets you ask again." """
    game = new_game(BICYCLE, EXAMPLE, ocean="Q♥")
    game.ask(1, "7")
    assert game.ask(1, "Q")[1:] == [GoFish(1, 0, "Q"), Draw(0, 1, (Card("Q", "♥"),), "fish", lucky=True)]
    assert game.current_player == 0


def test_worked_example_drawing_the_three_of_clubs_normally_ends_your_turn():
    """ "Drawing 3♣ normally ends your turn." """
    game = new_game(BICYCLE, EXAMPLE, ocean="3♣")
    game.ask(1, "7")
    assert game.ask(1, "Q")[2:] == [Draw(0, 1, None, "fish"), Turn(1)]


def test_worked_example_drawing_the_three_of_clubs_to_three_threes_gives_another_ask():
    """ "But if you already held the other three threes, that draw completes a book, so Bicycle's
    book-completion rule gives another ask." """
    game = new_game(BICYCLE, ["7♣ 7♦ Q♠ 3♦ 3♥ 3♠ 2♣", EXAMPLE[1], EXAMPLE[2]], ocean="3♣")
    game.ask(1, "7")
    assert game.ask(1, "Q")[2:] == [Draw(0, 1, None, "fish"), Book(0, "3")]
    assert game.current_player == 0


# ---------------------------------------------------------------- winning
def test_counts_of_6_4_and_3_the_player_with_6_wins():
    """ "Stop when all 13 books are on the table. The largest book count wins." / "For example, counts of 6, 4 and
    3 use all 13 books; the player with 6 wins." """
    full = "A♣ A♦ A♥ A♠ 2♣ 2♦ 2♥ 2♠ 3♣ 3♦ 3♥ 3♠ 4♣ 4♦ 4♥ 4♠"
    game = new_game(BICYCLE, [full, full.translate(str.maketrans("A234", "5678")),
                              "9♣ 9♦ 9♥ 9♠ 10♣ 10♦ 10♥ 10♠ J♣ J♦ J♥ J♠ Q♣ Q♦ K♣ K♦"],
                    ocean="Q♥ Q♠ K♥ K♠", hand_size=16)
    assert game.book_counts == (4, 4, 3) and game.hand(0) == (Card("Q", "♥"),)  # drew one for an empty hand
    events = play(game, (2, "Q"), (1, "Q"), (2, "K"), (1, "K"))
    assert events[-1] == GameOver((0,), (6, 4, 3), "every book is made")


def test_tied_leaders_share_the_win():
    """ "With counts of 5, 5 and 3, use a shared win for the tied leaders." (the same with 2, 2 and 1 of 5 books) """
    game = new_game(BICYCLE, *TIED, **TIED_OPTIONS)
    events = play(game, *TIED_ASKS)
    assert events[-1] == GameOver((1, 2), (1, 2, 2), "every book is made")
