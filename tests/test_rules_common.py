"""Rules every source shares, checked under every preset, and the variants of the "argument-proof" instructions (the family preset's source).

Common rules (README, "Common to all"): ask only for a rank you hold, every card of it is given,
a successful ask or a lucky draw asks again, books are laid at once (also after the deal), the
last book ends the game, tied leaders share the win. Variants: bluff, Pairs (``book_size=2``),
specific-card asks, teams, small decks (``n_ranks``) and ``hand_size``; bad options are rejected.
"""
import numpy as np
import pytest

from gofish_teach import PRESETS, Ask, Book, Card, Draw, Game, GameOver, Give, GoFish, Rules, Turn
from gofish_teach.cards import ALL_RANKS, make_deck
from scenarios import LAST_CARD, assert_illegal, new_game, play, stacked

ALL_PRESETS = pytest.mark.parametrize("preset", list(PRESETS))


# ---------------------------------------------------------------- common to every preset
@ALL_PRESETS
def test_the_last_book_ends_the_game(preset):
    """000: "When the last book is made ..., the game is instantly over." 002: "continues until all 13 books have
    been completed." 003: "Stop when all 13 books are on the table." (here the last card drawn makes the last book)"""
    game = new_game(preset, LAST_CARD, ocean="4♠", n_ranks=4, hand_size=5)
    events = play(game, (1, "3"), (2, "3"), (1, "A"), (1, "2"), (2, "2"), (2, "4"), (1, "4"))
    assert events[-3:] == [Draw(0, 1, (Card("4", "♠"),), "fish", lucky=True), Book(0, "4"),
                           GameOver((0,), (4, 0, 0), "every book is made")]


@ALL_PRESETS
def test_players_tied_for_most_books_share_the_win(preset):
    """002: "players tied for the highest count share the win." 003: "use a shared win for the tied leaders." """
    game = new_game(preset, ["A♣ A♦ A♥ A♠", "2♣ 2♦ 2♥ 2♠"], n_ranks=2, hand_size=4)
    assert game.events[2:] == (Book(0, "A"), Book(1, "2"), GameOver((0, 1), (1, 1), "every book is made"))
    assert game.winners == (0, 1)


@ALL_PRESETS
def test_every_book_dealt_is_laid_down_before_the_first_ask(preset):
    """000: "a book must be declared immediately"; 002: "As soon as a player collects all four cards of a rank, they
    form a book"; 003: "Whenever you complete a book ... place them face up"; 004: "he places it down on the table." """
    game = new_game(preset, ["A♣ A♦ A♥ A♠ 2♣ 2♦ 2♥ 2♠ 3♣", "4♣ 4♦ 4♥ 4♠ 3♦ 5♣ 5♦ 6♣ 6♦"], hand_size=9)
    assert game.events[2:] == (Book(0, "A"), Book(0, "2"), Book(1, "4"))
    assert game.books == (("A", "2"), ("4",)) and game.hand_sizes == (1, 5)


@ALL_PRESETS
def test_asking_an_opponent_with_no_cards_is_legal_and_answered_go_fish(preset):
    """Issue 2: "Asking an opponent who holds no cards is legal (the answer is always "Go Fish")". """
    game = new_game(preset, ["A♣ 2♣ 3♣", "A♦ 2♦ 3♦", "4♦ 5♦ 6♦"], ocean="K♠", hand_size=3)
    play(game, (1, "A"), (1, "2"), (1, "3"))
    assert game.hand_sizes[1] == 0 and (1, "A") in game.legal_asks()
    assert game.ask(1, "A")[:3] == [Ask(0, 1, "A"), GoFish(1, 0, "A"), Draw(0, 1, None, "fish")]


@ALL_PRESETS
def test_the_turn_passes_to_the_next_seat_and_back_to_seat_0(preset):
    """000: "Play then passes to the player on your left." 004: "The next player then takes his turn." """
    game = new_game(preset, ["A♣ 2♣ 3♣ 4♣ 5♣", "6♣ 7♣ 8♣ 9♣ 10♣", "J♣ Q♣ K♣ A♦ 2♦"], ocean="3♦ 4♦ 5♦", hand_size=5)
    assert [game.ask(1, "A")[-1], game.ask(2, "6")[-1], game.ask(0, "J")[-1]] == [Turn(1), Turn(2), Turn(0)]


# ---------------------------------------------------------------- bluff (000's house rule)
BLUFF = ["7♣ 2♣ 3♣ 4♣ 5♣", "K♦ 2♦ 3♦ 4♦ 5♦"]


def test_bluff_allows_asking_for_a_rank_you_do_not_hold():
    """000: "One player insists you can ask for any card you want (a "bluff")" ... "allowing bluffing is a very popular one." """
    game = new_game("pond", BLUFF, bluff=True)
    assert game.ask(1, "K") == [Ask(0, 1, "K"), Give(1, 0, "K", 1)]


def test_bluff_lists_every_rank_not_yet_in_books():
    """000 (house rule): "you can ask for any card you want" (but "Once on the table, these cards are safe") """
    game = new_game("pond", ["7♣ 7♦ 7♥ 7♠ 2♣", "K♦ 2♦ 3♦ 4♦ 5♦"], bluff=True)
    assert sorted(r for _, r in game.legal_asks()) == sorted(r for r in Rules().ranks if r != "7")


def test_bluff_drawing_the_rank_asked_for_is_lucky():
    """000: "If the card you draw from the Ocean happens to be the exact rank you just asked for, you've hit a
    "Lucky Draw!"" (also for a bluffed rank) """
    game = new_game("pond", BLUFF, ocean="Q♥", bluff=True)
    assert game.ask(1, "Q")[2:] == [Draw(0, 1, (Card("Q", "♥"),), "fish", lucky=True)]
    assert game.current_player == 0


def test_without_bluff_a_rank_not_held_is_not_a_legal_ask():
    """000: "if you are playing by the standard, official rules, you can't ask for a card you don't possess." """
    game = new_game("pond", BLUFF)
    assert {r for _, r in game.legal_asks()} == {"7", "2", "3", "4", "5"}


# ---------------------------------------------------------------- Pairs Go Fish (book_size=2)
def test_pairs_a_dealt_pair_is_laid_at_once():
    """000: "Pairs Go Fish: ... Instead of needing all four cards to make a book, you only need a pair of two matching cards." """
    game = new_game("pond", ["7♣ 7♦ 2♣ 3♣ 4♣", "8♦ 9♦ 10♦ J♦ Q♦"], book_size=2)
    assert game.events[2:] == (Book(0, "7"),) and game.hand_sizes == (3, 5)


def test_pairs_three_of_a_rank_make_one_pair_and_one_card_is_left():
    """000: "you only need a pair of two matching cards." """
    game = new_game("pond", ["7♣ 7♦ 7♥ 3♣ 4♣", "8♦ 9♦ 10♦ J♦ Q♦"], book_size=2)
    assert game.events[2:] == (Book(0, "7"),) and game.count(0, "7") == 1


def test_pairs_four_of_a_rank_make_two_pairs():
    """000: "you only need a pair of two matching cards." """
    game = new_game("pond", ["7♣ 7♦ 7♥ 7♠ 4♣", "8♦ 9♦ 10♦ J♦ Q♦"], book_size=2)
    assert game.events[2:] == (Book(0, "7"), Book(0, "7")) and game.books == (("7", "7"), ())


def test_pairs_a_pair_made_by_an_ask_is_laid_at_once():
    """000: "you only need a pair of two matching cards." """
    game = new_game("pond", ["7♣ 3♣ 4♣ 5♣ 6♣", "7♦ 9♦ 10♦ J♦ Q♦"], book_size=2)
    assert game.ask(1, "7") == [Ask(0, 1, "7"), Give(1, 0, "7", 1), Book(0, "7")]


def test_pairs_the_game_ends_with_the_last_pair():
    """000 "Pairs Go Fish" with "When the last book is made ..., the game is instantly over." (two pairs a rank) """
    rules = Rules.preset("pond").replace(book_size=2, n_ranks=2, hand_size=2)
    assert rules.total_books == 4
    game = Game(rules, 2, deck=stacked(["A♣ 2♣", "A♦ 2♦"], "A♥ A♠ 2♥ 2♠", n_ranks=2))
    events = play(game, (1, "A"), (1, "2"), (1, "A"), (1, "2"))
    assert events[-3:] == [Draw(0, 1, (Card("2", "♠"),), "fish", lucky=True), Book(0, "2"),
                           GameOver((0,), (4, 0), "every book is made")]


# ---------------------------------------------------------------- specific-card asks
SUITED = ["K♣ K♦ 2♣ 3♣ 4♣", "K♥ 9♦ 10♦ J♦ Q♦", "K♠ 9♥ 10♥ J♥ Q♥"]


def test_specific_card_asks_must_name_a_suit():
    """000: "players must ask for a specific card, including its suit (e.g., "Do you have the King of Hearts?")." """
    assert_illegal(new_game("pond", SUITED, specific_card=True), 1, "K", match="name its suit")


def test_specific_card_other_cards_of_the_rank_still_get_go_fish():
    """000: "If the opponent has other Kings but not the King of Hearts, the answer is still "Go Fish!"" """
    game = new_game("pond", SUITED, ocean="A♣", specific_card=True)
    assert game.ask(2, "K", "♥")[:3] == [Ask(0, 2, "K", "♥"), GoFish(2, 0, "K"), Draw(0, 1, None, "fish")]
    assert game.count(2, "K") == 1


def test_specific_card_only_the_named_card_is_given():
    """000: "players must ask for a specific card, including its suit" """
    game = new_game("pond", ["K♣ 2♣ 3♣ 4♣ 5♣", "K♦ K♥ K♠ J♦ Q♦"], specific_card=True)
    assert game.ask(1, "K", "h") == [Ask(0, 1, "K", "♥"), Give(1, 0, "K", 1)]
    assert game.count(1, "K") == 2 and game.current_player == 0


def test_specific_card_only_drawing_that_card_is_lucky():
    """000: "Specific Suit Go Fish" with the "Lucky Draw" rule: drawing the King of Hearts after asking for it. """
    hands = ["K♣ 2♣ 3♣ 4♣ 5♣", "8♦ 9♦ 10♦ J♦ Q♦"]
    game = new_game("pond", hands, ocean="K♥", specific_card=True)
    assert game.ask(1, "K", "♠")[2:] == [Draw(0, 1, None, "fish"), Turn(1)]  # a King, but not the K♠
    game = new_game("pond", hands, ocean="K♠", specific_card=True)
    assert game.ask(1, "K", "♠")[2:] == [Draw(0, 1, (Card("K", "♠"),), "fish", lucky=True)]


def test_specific_card_cannot_ask_for_a_card_you_hold():
    """000: ask for "a specific card" (one you need: a card you hold is not one an opponent can give) """
    assert_illegal(new_game("pond", SUITED, specific_card=True), 1, "K", "♦", match="already holds the K♦")


def test_specific_card_still_needs_the_rank_in_hand():
    """000: "you must have at least one card of a rank to ask for it" (also for a specific card) """
    assert_illegal(new_game("pond", SUITED, specific_card=True), 1, "Q", "♦", match="holds no Queens")


def test_specific_card_legal_asks_name_the_cards_not_held():
    """000: "players must ask for a specific card, including its suit" """
    game = new_game("pond", SUITED, specific_card=True)
    kings = {a for a in game.legal_asks() if a[1] == "K"}
    assert kings == {(1, "K", "♥"), (1, "K", "♠"), (2, "K", "♥"), (2, "K", "♠")}


# ---------------------------------------------------------------- teams
TEAMS = ["A♣ 2♣ 3♣ 4♣ 5♣", "A♦ 2♦ 3♦ 4♦ 5♦", "A♥ 2♥ 3♥ 4♥ 5♥", "A♠ 2♠ 3♠ 4♠ 5♠"]


def test_teams_partners_may_not_ask_each_other():
    """000: "Team Go Fish: ... Split into teams of two. You play as individuals but cannot ask your partner for cards." """
    assert_illegal(new_game("pond", TEAMS, teams=True), 2, "A", match="partner")


def test_teams_legal_asks_leave_out_the_partner():
    """000: "cannot ask your partner for cards." (partners sit opposite: seats 0 and 2, 1 and 3) """
    game = new_game("pond", TEAMS, teams=True)
    assert {t for t, _ in game.legal_asks()} == {1, 3}
    assert game.view(1).opponents == (0, 2)


@pytest.mark.parametrize("n_players", [2, 3, 5])
def test_teams_need_four_or_six_players(n_players):
    """000: "Team Go Fish: Playing with four or six people? Split into teams of two." """
    with pytest.raises(ValueError, match="n_players: teams of two"):
        Game(Rules.preset("pond").replace(teams=True), n_players, seed=0)


#: 6 ranks, 4 x 6 cards, the ocean empty; books A, 2, 4 are dealt. Seat 0 takes seat 3's 5s and 6s; then
#: every rank left is held by partners only (3s by seats 1 and 3; 5s and 6s by seats 0 and 2).
TEAM_HANDS = ["A♣ A♦ A♥ A♠ 5♣ 6♣", "2♣ 2♦ 2♥ 2♠ 3♣ 3♦", "4♣ 4♦ 4♥ 4♠ 5♦ 6♦", "3♥ 3♠ 5♥ 5♠ 6♥ 6♠"]


def test_teams_pool_their_books_for_the_win():
    """000: "When the game ends, partners combine their collected books, and the team with the most wins." """
    game = new_game("pond", TEAM_HANDS, n_ranks=6, hand_size=6, teams=True)
    play(game, (3, "5"), (3, "6"))
    assert game.is_over and game.book_counts == (1, 1, 1, 0)
    assert game.winners == (0, 2)  # 1 + 1 books against 1 + 0, though seat 1 has as many as seat 0


def test_teams_a_game_where_no_ask_can_succeed_ends():
    """README convention (teams): "once the ocean is empty and no ask can succeed any more (no rank is held by two
    opponents), the game ends, since nothing can change." """
    game = new_game("pond", TEAM_HANDS, n_ranks=6, hand_size=6, teams=True)
    assert game.ask(3, "5")[-1] == Give(3, 0, "5", 2)
    assert game.ask(3, "6")[-2:] == [Give(3, 0, "6", 2), GameOver((0, 2), (1, 1, 1, 0), "no ask can succeed any more", 2)]


def test_teams_with_pairs_mix_two_variants():
    """000: "Feel free to mix and match these ideas—like playing Team Go Fish with the Pairs rule" """
    game = new_game("pond", TEAMS, teams=True, book_size=2)
    assert game.ask(1, "A") == [Ask(0, 1, "A"), Give(1, 0, "A", 1), Book(0, "A")]
    assert_illegal(game, 2, "2", match="partner")


# ---------------------------------------------------------------- small decks and hand sizes
def test_n_ranks_builds_a_deck_of_the_first_ranks():
    """Issue 2: "n_ranks ... builds a smaller deck of the first ranks (n_ranks=4 -> A, 2, 3, 4)" """
    rules = Rules.preset("pond").replace(n_ranks=4)
    assert rules.ranks == ("A", "2", "3", "4") and rules.deck_size == 16 and rules.total_books == 4
    assert sorted(Game(rules, 2, seed=0).deck) == sorted(Card(r, s) for r in "A234" for s in "♣♦♥♠")


def test_a_rank_outside_a_small_deck_cannot_be_asked_for():
    """Issue 2: IllegalMove for an "unknown ... rank" """
    game = new_game("pond", ["A♣ 2♣", "A♦ 2♦"], n_ranks=4, hand_size=2, bluff=True)
    assert_illegal(game, 1, "K", match="rank 'K' is not in this deck: ranks are A, 2, 3, 4")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_hand_size_overrides_the_deal_for_every_player_count(preset):
    """Issue 2: "rules.replace(**changes) overrides any option (including hand_size)" """
    rules = Rules.preset(preset).replace(hand_size=3)
    for n_players in range(2, rules.max_players + 1):
        assert Game(rules, n_players, deck=make_deck(ALL_RANKS)).hand_sizes == (3,) * n_players


def test_a_hand_size_too_big_for_the_deck_is_rejected():
    """Issue 2: a clear error naming the problem """
    with pytest.raises(ValueError, match="hand_size: dealing 5 cards to 4 players needs 20 cards"):
        Game(Rules.preset("pond").replace(n_ranks=4), 4, seed=0)


# ---------------------------------------------------------------- bad options
@pytest.mark.parametrize("option, value", [
    ("n_ranks", 0), ("n_ranks", 14), ("n_ranks", "4"), ("n_ranks", 2.5), ("n_ranks", True),
    ("hand_size", 0), ("hand_size", "3"), ("hand_size", 2.5), ("hand_size", False),
    ("min_players", 1), ("min_players", "2"), ("max_players", 1), ("max_players", 3.0),
    ("empty_hand", "skip"), ("empty_hand", None), ("end", "never"),
    ("book_size", 3), ("book_size", 2.0), ("book_size", "4"),
    ("bluff", "yes"), ("specific_card", 1), ("teams", None), ("book_draw_again", "no"),
    ("deal", ()), ("deal", 5), ("deal", "7"), ("deal", ((3, 7),)), ("deal", ((2, 0),)), ("deal", ((2, 7, 1),)),
    ("deal", ((4, 5), (2, 7))), ("deal", ((2, "7"),)),
    ("name", 5),
])
def test_a_bad_rules_option_is_rejected_naming_it(option, value):
    """Issue 2: "bad Rules options rejected with a message naming the field" """
    with pytest.raises(ValueError, match=option):
        Rules.preset("pond").replace(**{option: value})


def test_an_unknown_rules_option_is_rejected_naming_it():
    with pytest.raises(ValueError, match="Rules has no option colour"):
        Rules.preset("pond").replace(colour="red")


def test_an_integer_option_may_be_a_numpy_integer():
    """Lessons compute sizes with numpy; such a value is stored as a plain int (so a game still saves as JSON)."""
    rules = Rules.preset("pond").replace(n_ranks=np.int64(4), hand_size=np.int64(3))
    assert type(rules.n_ranks) is int and type(rules.hand_size) is int
    assert Game.from_json(Game(rules, 2, seed=0).to_json()).rules == rules
