"""Source 000 ("argument-proof instructions"), followed by the ``family`` preset.

One scenario per rule line of the text; each test quotes the line it follows. Decks are
stacked with ``scenarios.new_game``: each seat's dealt hand, then the top of the ocean.
"""
import pytest

from gofish_teach import Ask, Book, Card, Deal, Draw, Game, GameOver, Give, GoFish, Rules, Turn
from gofish_teach.cards import ALL_RANKS, make_deck
from scenarios import assert_illegal, cards, new_game, play, show

FAMILY = Rules.preset("family")


# ---------------------------------------------------------------- setting up
@pytest.mark.parametrize("n_players, size", [(2, 7), (3, 7), (4, 5), (5, 5), (6, 5)])
def test_deal_size_depends_on_the_number_of_players(n_players, size):
    """ "For 2 to 3 players: Deal 7 cards each." / "For 4 or more players: Deal 5 cards each." """
    game = Game(FAMILY, n_players, deck=make_deck(ALL_RANKS))  # in rank order: no book is dealt
    assert game.hand_sizes == (size,) * n_players
    assert [e for e in game.events if isinstance(e, Deal)] == [Deal(p, size, None) for p in range(n_players)]


@pytest.mark.parametrize("n_players", [2, 4])
def test_the_rest_of_the_deck_is_the_ocean(n_players):
    """ "What about the leftover cards? Just stack them neatly in a face-down pile ... This stack is called the "Ocean," """
    game = Game(FAMILY, n_players, seed=1)
    dealt = FAMILY.deal_size(n_players) * n_players
    assert game.ocean() == game.deck[dealt:]


def test_cards_are_dealt_one_at_a_time():
    """ "the dealer passes out cards one at a time, face down" (round robin, seat 0 first) """
    deck = make_deck(ALL_RANKS)
    game = Game(FAMILY, 3, deck=deck)
    for p in range(3):
        assert sorted(game.hand(p)) == sorted(deck[p:21:3])
        assert game.view(p).events[p] == Deal(p, 7, tuple(deck[p:21:3]))


def test_the_player_after_the_dealer_moves_first():
    """ "Once the cards are dealt, the player to the left of the dealer takes the first turn." (seat 0) """
    game = Game(FAMILY, 4, seed=2)
    assert game.current_player == 0
    assert all(ask[0] != 0 for ask in game.legal_asks())


# ---------------------------------------------------------------- asking
TWO_SEVENS = ["7♣ 2♣ 3♣ 4♣ 5♣ 6♣ 8♣", "7♦ 7♥ 2♦ 3♦ 4♦ 5♦ 6♦"]


def test_may_only_ask_for_a_rank_you_hold():
    """ "you can only ask another player for Kings if you are already holding a King in your hand." """
    game = new_game(FAMILY, TWO_SEVENS)
    assert_illegal(game, 1, "K", match="holds no Kings, so cannot ask for Kings")


def test_a_general_question_is_not_an_ask():
    """ "You cannot ask a general question like, "Do you have any face cards?"" """
    assert_illegal(new_game(FAMILY, TWO_SEVENS), 1, "face cards", match="'face cards' is not in this deck")


def test_you_ask_an_opponent_not_yourself():
    """ "Pick one opponent and ask them clearly for a specific rank you hold." """
    assert_illegal(new_game(FAMILY, TWO_SEVENS), 0, "7", match="player 0 cannot ask themself: ask an opponent")


def test_a_successful_ask_takes_every_card_of_the_rank():
    """ "If Sarah has any 7s, she must give all of them to you." """
    game = new_game(FAMILY, TWO_SEVENS)
    assert game.ask(1, "7") == [Ask(0, 1, "7"), Give(1, 0, "7", 2)]
    assert game.count(0, "7") == 3 and game.count(1, "7") == 0
    assert game.hand_sizes == (9, 5)


def test_a_successful_ask_lets_you_ask_again():
    """ "Because your request was successful, you get to take another full turn and ask any player" """
    game = new_game(FAMILY, TWO_SEVENS)
    game.ask(1, "7")
    assert game.current_player == 0
    assert (1, "8") in game.legal_asks()


def test_three_successful_asks_to_three_players_in_one_turn():
    """ "You could successfully ask three different players for cards before your turn finally ends." """
    game = new_game(FAMILY, ["7♣ 8♣ 9♣ 10♣ J♣", "7♦ 2♦ 3♦ 4♦ 5♦", "8♦ 2♥ 3♥ 4♥ 5♥", "9♦ 2♠ 3♠ 4♠ 5♠"])
    events = play(game, (1, "7"), (2, "8"), (3, "9"))
    assert [e for e in events if isinstance(e, Give)] == [Give(1, 0, "7", 1), Give(2, 0, "8", 1), Give(3, 0, "9", 1)]
    assert not any(isinstance(e, Turn) for e in events)
    assert game.current_player == 0


# ---------------------------------------------------------------- fishing
FISHING = ["7♣ 2♣ 3♣ 4♣ 5♣ 6♣ 8♣", "9♦ 2♦ 3♦ 4♦ 5♦ 6♦ 8♦"]


def test_go_fish_draws_the_top_card_of_the_ocean():
    """ "If Sarah doesn't have any 7s, she'll say, "Go Fish!" You must then draw the top card from the Ocean pile." """
    game = new_game(FAMILY, FISHING, ocean="K♥ K♠")
    events = game.ask(1, "7")
    assert events[:3] == [Ask(0, 1, "7"), GoFish(1, 0, "7"), Draw(0, 1, None, "fish")]
    assert Card("K", "♥") in game.hand(0)
    assert game.ocean()[0] == Card("K", "♠") and game.ocean_size == 52 - 14 - 1


def test_an_unlucky_draw_ends_the_turn():
    """ "Your turn officially ends only when an opponent tells you to "Go Fish" and the card you draw
    from the Ocean is not the rank you just asked for. ... Play then passes to the player on your left." """
    game = new_game(FAMILY, FISHING, ocean="K♥")
    assert game.ask(1, "7")[-1] == Turn(1)
    assert game.current_player == 1


def test_an_unlucky_draw_is_kept_quietly():
    """ "if the card you draw from the Ocean is not the one you asked for, you simply add it to your hand quietly." """
    game = new_game(FAMILY, FISHING, ocean="K♥")
    game.ask(1, "7")
    assert game.events[-2] == Draw(0, 1, None, "fish")  # the public log hides it
    assert game.view(1).events[-2] == Draw(0, 1, None, "fish")
    assert game.view(0).events[-2] == Draw(0, 1, (Card("K", "♥"),), "fish")


def test_a_lucky_draw_is_shown_to_everyone():
    """ "If the card you draw ... happens to be the exact rank you just asked for ... You must immediately
    show this card to all the other players" """
    game = new_game(FAMILY, FISHING, ocean="7♥")
    lucky = Draw(0, 1, (Card("7", "♥"),), "fish", lucky=True)
    assert game.ask(1, "7") == [Ask(0, 1, "7"), GoFish(1, 0, "7"), lucky]
    assert game.view(1).events[-1] == lucky


def test_a_lucky_draw_lets_you_ask_again():
    """ "This special moment comes with a big reward: you get to take another full turn." """
    game = new_game(FAMILY, FISHING, ocean="7♥")
    game.ask(1, "7")
    assert game.current_player == 0


# ---------------------------------------------------------------- books
def test_a_book_made_by_an_ask_is_laid_down_at_once():
    """ "The instant you have a complete book in your hand, you must show it ... place the four cards face-up" """
    game = new_game(FAMILY, ["7♣ 7♠ 2♣ 3♣ 4♣ 5♣ 6♣", "7♦ 7♥ 2♦ 3♦ 4♦ 5♦ 6♦"])
    assert game.ask(1, "7") == [Ask(0, 1, "7"), Give(1, 0, "7", 2), Book(0, "7")]
    assert game.books == (("7",), ()) and game.count(0, "7") == 0
    assert game.hand_sizes == (5, 5)


def test_a_book_made_by_a_draw_is_laid_down_at_once():
    """ "It doesn't matter how you got that fourth card; a book must be declared immediately." """
    game = new_game(FAMILY, ["3♣ 3♦ 3♥ 7♣ 4♣ 5♣ 6♣", "2♦ 9♦ 10♦ 4♦ 5♦ 6♦ 8♦"], ocean="3♠")
    events = game.ask(1, "7")
    assert events[2:] == [Draw(0, 1, None, "fish"), Book(0, "3"), Turn(1)]  # family: no extra ask for it
    assert game.books == (("3",), ())


def test_a_book_dealt_is_laid_down_straight_after_the_deal():
    """ "The instant you have a complete book in your hand, you must show it" (also as dealt) """
    game = new_game(FAMILY, ["K♣ K♦ K♥ K♠ 2♣ 3♣ 4♣", "2♦ 3♦ 4♦ 5♦ 6♦ 8♦ 9♦"])
    assert game.events[2:] == (Book(0, "K"),)
    assert game.books == (("K",), ()) and game.hand_sizes == (3, 7)


def test_cards_in_a_book_can_no_longer_be_asked_for():
    """ "Once on the table, these cards are safe and can no longer be asked for by other players." """
    game = new_game(FAMILY, ["7♣ 7♠ 7♦ 2♣ 3♣ 4♣ 5♣", "7♥ 8♦ 9♦ 2♦ 3♦ 4♦ 5♦"], ocean="K♠", bluff=True)
    play(game, (1, "7"), (1, "6"))  # book of 7s, then a failed ask passes the turn
    assert_illegal(game, 0, "7", match="all the 7s are in books on the table")  # even where bluffing is allowed


# ---------------------------------------------------------------- the end
def test_the_last_book_ends_the_game_at_once():
    """ "When the last book is made (all four Aces, all four 2s, and so on, up to Kings), the game is instantly over." """
    first = "A♣ A♦ A♥ A♠ 2♣ 2♦ 2♥ 2♠ 3♣ 3♦ 3♥ 3♠ 4♣ 4♦ 4♥ 4♠ 5♣ 5♦ 5♥ 5♠ 6♣ 6♦ 6♥ 6♠ 7♣ 7♦"
    second = "8♣ 8♦ 8♥ 8♠ 9♣ 9♦ 9♥ 9♠ 10♣ 10♦ 10♥ 10♠ J♣ J♦ J♥ J♠ Q♣ Q♦ Q♥ Q♠ K♣ K♦ K♥ K♠ 7♥ 7♠"
    game = new_game(FAMILY, [first, second], hand_size=26)
    assert game.book_counts == (6, 6) and not game.is_over
    events = game.ask(1, "7")
    assert events[-2:] == [Book(0, "7"), GameOver((0,), (7, 6), "every book is made")]
    assert game.is_over and game.winners == (0,)


EMPTYING = ["A♣ A♦ 3♣ 2♣", "A♥ A♠ 3♦ 2♦", "2♥ 2♠ 3♥ 3♠"]  # 3 ranks, 3 x 4 cards: the ocean is empty


def test_the_game_ends_when_an_opponent_takes_your_last_card_and_the_ocean_is_empty():
    """ "If the draw pile (the "ocean") runs out of cards and a player gets rid of the last card in their hand,
    the game stops immediately. This can happen ... if an opponent asks for their last card." """
    game = new_game(FAMILY, EMPTYING, n_ranks=3, hand_size=4)
    assert game.ocean_size == 0
    events = play(game, (1, "A"), (1, "3"), (1, "2"))
    assert events[-2:] == [Give(1, 0, "2", 1), GameOver((0,), (1, 0, 0), "the ocean is empty and a player has no cards")]
    assert game.is_over and game.legal_asks() == []


def test_the_game_ends_when_your_own_book_empties_your_hand_and_the_ocean_is_empty():
    """ "If the draw pile ... runs out of cards and a player gets rid of the last card in their hand, the game
    stops immediately. This can happen if they make a book" """
    game = new_game(FAMILY, ["A♣ A♦ A♥ 2♣", "2♦ 2♥ 2♠ 3♣", "A♠ 3♦ 3♥ 3♠"], n_ranks=3, hand_size=4)
    events = play(game, (1, "2"), (2, "A"))
    assert events[-2:] == [Book(0, "A"), GameOver((0,), (2, 0, 0), "the ocean is empty and a player has no cards")]


def test_the_game_ends_when_the_ocean_runs_out_while_a_player_has_no_cards():
    """ "If the draw pile (the "ocean") runs out of cards and a player gets rid of the last card in their hand,
    the game stops immediately." (here the hand emptied first, then the last card was drawn) """
    game = new_game(FAMILY, ["A♣ 2♣ 3♣ 4♣ 4♦", "A♦ A♥ A♠ 2♦ 3♦", "2♥ 2♠ 3♥ 3♠ 4♥"], ocean="4♠", n_ranks=4, hand_size=5)
    play(game, (1, "A"), (1, "2"), (1, "3"))
    assert game.hand_sizes[1] == 0 and game.ocean_size == 1 and not game.is_over
    events = game.ask(1, "2")
    assert events == [Ask(0, 1, "2"), GoFish(1, 0, "2"), Draw(0, 1, None, "fish"),
                      GameOver((0,), (1, 0, 0), "the ocean is empty and a player has no cards")]


def test_cards_left_in_hands_do_not_count():
    """ "Any cards left over in players' hands don't matter at all for the final score." """
    game = new_game(FAMILY, EMPTYING, n_ranks=3, hand_size=4)
    play(game, (1, "A"), (1, "3"), (1, "2"))
    assert game.hand_sizes == (4, 0, 4)
    assert game.winners == (0,)


# ---------------------------------------------------------------- running out of cards
def test_an_empty_hand_at_the_start_of_a_turn_draws_a_full_new_hand_and_ends_the_turn():
    """ "if you start your turn with zero cards in your hand, you immediately draw a new hand. Simply take the
    same number of cards you started the game with (typically five or seven) from the top of the ocean. This
    action of drawing your new hand completes your turn; you don't get to ask for a card. Play then continues
    with the person to your left." """
    game = new_game(FAMILY, ["2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣", "2♦ 2♥ 3♦ 3♥ 4♦ 4♥ 5♦"],
                    ocean="K♣ Q♣ Q♦ Q♥ J♣ J♦ J♥ 10♣ 10♦")
    play(game, (1, "2"), (1, "3"), (1, "4"), (1, "5"))
    assert game.hand_sizes[1] == 0 and game.current_player == 0
    events = game.ask(1, "6")  # asking a player with no cards is legal: "Go Fish"
    assert events[1:] == [GoFish(1, 0, "6"), Draw(0, 1, None, "fish"), Turn(1), Draw(1, 7, None, "empty hand"), Turn(0)]
    assert show(game.hand(1)) == "10♣ J♣ J♦ J♥ Q♣ Q♦ Q♥"
    assert game.view(1).events[-2] == Draw(1, 7, tuple(cards("Q♣ Q♦ Q♥ J♣ J♦ J♥ 10♣")), "empty hand")


def test_a_new_hand_takes_what_remains_of_a_short_ocean():
    """ "Simply take the same number of cards you started the game with ... from the top of the ocean."
    (issue 2: "or what remains" when the ocean holds fewer) """
    game = new_game(FAMILY, ["A♣ 2♣ 3♣", "A♦ 2♦ 3♦", "A♥ 2♥ 3♥"], ocean="A♠ 2♠ 3♠", n_ranks=3, hand_size=3)
    play(game, (1, "A"), (1, "2"), (1, "3"))
    events = game.ask(1, "3")  # Go Fish: seat 0 draws A♠, two cards are left for seat 1
    assert events[2:] == [Draw(0, 1, None, "fish"), Turn(1), Draw(1, 2, None, "empty hand"), Turn(2)]
    assert show(game.hand(1)) == "2♠ 3♠" and game.ocean_size == 0
    assert not game.is_over  # nobody is out of cards


def test_a_turn_that_continues_with_an_empty_hand_draws_a_new_hand_and_ends():
    """README convention: a turn that *continues* with an empty hand is treated like one that starts with it
    ("if you start your turn with zero cards ... draw a new hand ... This action ... completes your turn")."""
    game = new_game(FAMILY, ["7♣ 7♦ 7♥", "7♠ 8♣ 9♣"], ocean="2♣ 3♣ 4♣ 5♣", hand_size=3)
    events = game.ask(1, "7")
    assert events == [Ask(0, 1, "7"), Give(1, 0, "7", 1), Book(0, "7"), Draw(0, 3, None, "empty hand"), Turn(1)]
    assert show(game.hand(0)) == "2♣ 3♣ 4♣"


def test_a_hand_emptied_by_the_deal_draws_a_new_hand_on_the_first_turn():
    """ "if you start your turn with zero cards in your hand, you immediately draw a new hand." (seat 0 was dealt a book) """
    game = new_game(FAMILY, ["K♣ K♦ K♥ K♠", "2♦ 3♦ 4♦ 5♦"], ocean="2♣ 3♣ 4♣ 5♣", hand_size=4)
    assert game.events[2:] == (Book(0, "K"), Draw(0, 4, None, "empty hand"), Turn(1))
    assert game.current_player == 1 and game.hand_sizes == (4, 4)


def test_out_of_cards_with_an_empty_ocean_is_the_end_of_the_game():
    """ "If you run out of cards and the ocean is also empty, the game is officially over." """
    game = new_game(FAMILY, ["3♣ 3♦ 3♥ 3♠", "A♣ A♦ 2♣ 2♦", "A♥ A♠ 2♥ 2♠"], n_ranks=3, hand_size=4)
    assert game.events[3:] == (Book(0, "3"), GameOver((0,), (1, 0, 0), "the ocean is empty and a player has no cards"))
    assert game.is_over


def test_an_empty_ocean_alone_does_not_end_the_game():
    """The 60-second rulebook says "Game ends when all books are made or the ocean is empty", but the full text
    ends it only when "the draw pile ... runs out of cards and a player gets rid of the last card in their hand";
    the preset follows the full text, so a failed ask with an empty ocean just passes the turn
    (common rule: "When the pond is empty, an unsuccessful request simply passes the turn.")."""
    game = new_game(FAMILY, ["A♣ 2♣ 3♣", "A♦ 2♦ 3♦", "A♥ 2♥ 3♥", "A♠ 2♠ 3♠"], n_ranks=3, hand_size=3)
    assert game.ocean_size == 0 and not game.is_over
    game.ask(1, "A")
    assert game.ask(1, "A") == [Ask(0, 1, "A"), GoFish(1, 0, "A"), Turn(1)]  # no draw: the turn passes
    assert not game.is_over
