"""The built-in strategies, pinned by hand-built games, and the strategy protocol.

Scenarios deal explicit decks: ``scenario(hands, ocean)`` deals ``hands`` (rank labels by
seat) round robin, puts ``ocean`` on top of the rest, and fills in the remaining cards
in rank order; each script of asks is followed by the events it must produce.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gofish_teach import Game, IllegalMove, Rules, View
from gofish_teach.probability import posterior
from gofish_teach.strategies import (
    STRATEGIES,
    get_strategy,
    greedy,
    known_holdings,
    memory,
    most_held,
    pick,
    play_out,
    random,
    seat_rng,
    seat_rngs,
    strategy_name,
)

POND = Rules.preset("pond")


def scenario(hands: list[str], ocean: str = "", rules: Rules = POND, **changes) -> Game:
    hands = [h.split() for h in hands]
    n, size = len(hands), len(hands[0])
    rules = rules.replace(hand_size=size, **changes)
    deck = [hands[k % n][k // n] for k in range(size * n)] + ocean.split()
    rest = Counter({r: 4 for r in rules.ranks}) - Counter(deck)
    deck += sorted(rest.elements(), key=rules.ranks.index)
    return Game(rules, n, deck=deck)


def script(game: Game, asks: list[tuple], expected: list[str]) -> None:
    """Make the asks, in order, and check the sentences they produce (turn changes left out)."""
    said = [str(e) for a in asks for e in game.ask(*a) if not str(e).startswith("It is")]
    assert said == expected


class CountingRng:
    """A Generator stand-in that counts ``random()`` calls and has no other method."""

    def __init__(self, seed=0):
        self._rng, self.calls = np.random.default_rng(seed), 0

    def random(self):
        self.calls += 1
        return self._rng.random()


# --------------------------------------------------------------------------- the protocol
def test_pick_uses_one_double_as_an_index():
    rng = CountingRng()
    assert [pick("abc", rng) for _ in range(3)] == ["b", "a", "a"]  # doubles 0.637, 0.270, 0.041
    assert rng.calls == 3


def test_random_makes_two_picks_and_most_held_one():
    view = Game(POND, 4, seed=3).view(0)
    for strategy, calls in [(random, 2), (most_held, 1), (memory, 1)]:  # memory: nothing known yet
        rng = CountingRng()
        strategy(view, rng)
        assert rng.calls == calls, strategy_name(strategy)


def test_random_picks_the_rank_first_then_the_seat():
    view = Game(POND, 4, seed=3).view(0)
    expected = np.random.default_rng(5).random(2)
    ranks, seats = list(view.counts), list(view.opponents)
    assert random(view, np.random.default_rng(5)) == (seats[int(expected[1] * 3)], ranks[int(expected[0] * len(ranks))])


def test_get_strategy_names_functions_and_objects():
    class Shy:
        def choose(self, view, rng):
            return view.opponents[0], next(iter(view.counts))

    assert set(STRATEGIES) == {"random", "memory", "most_held", "greedy"}
    assert get_strategy(random) is random
    shy = Shy()
    assert get_strategy(shy) == shy.choose and strategy_name(shy) == "Shy"
    with pytest.raises(ValueError, match="strategy 'Memory' is unknown: choose one of random, memory"):
        get_strategy("Memory")
    with pytest.raises(ValueError, match="neither a name"):
        get_strategy(42)


def test_an_illegal_ask_names_the_strategy_and_seat():
    def grabby(view, rng):  # asks for the first rank it does not hold
        return view.opponents[0], next(r for r in view.ranks if r not in view.counts)

    game = scenario(["2 3", "A 3", "2 4"])
    with pytest.raises(IllegalMove, match=r"^strategy 'grabby' \(seat 1\) asked \(0, '2'\): player 1 holds no 2s"):
        play_out(game, ["random", grabby, "random"], CountingRng(0))


def test_a_strategy_returning_nonsense_is_reported():
    game = Game(POND, 2, seed=0)
    with pytest.raises(IllegalMove, match=r"strategy '<lambda>' \(seat 0\) asked 'A': a strategy must return"):
        play_out(game, [lambda view, rng: "A", "random"], np.random.default_rng(0))
    with pytest.raises(ValueError, match="strategies: expected one per seat"):
        play_out(game, ["random"], np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"rngs: expected one generator per seat \(2\), got 3"):
        play_out(game, ["random", "random"], [seat_rng(s) for s in range(3)])


def test_each_seat_draws_from_its_own_generator():
    rngs = [CountingRng(s) for s in range(3)]
    game = play_out(Game(POND, 3, seed=4), ["random", "most_held", "random"], rngs)
    asks = Counter(e.player for e in game.events if type(e).__name__ == "Ask")
    assert [rng.calls for rng in rngs] == [2 * asks[0], asks[1], 2 * asks[2]]


def test_one_generator_may_still_be_shared():
    rng = CountingRng(0)
    game = play_out(Game(POND, 3, seed=4), ["random", "most_held", "random"], rng)
    asks = Counter(e.player for e in game.events if type(e).__name__ == "Ask")
    assert rng.calls == 2 * asks[0] + asks[1] + 2 * asks[2]


def test_a_seat_rng_plays_like_default_rng_with_the_same_seed():
    for seed in (0, 1, 2**63 + 5, 2**64 - 1):
        assert (seat_rng(seed).random(5) == np.random.default_rng(seed).random(5)).all()
    games = [play_out(Game(POND, 4, seed=8), ["memory", "random", "most_held", "random"],
                      [make(10 + p) for p in range(4)]) for make in (seat_rng, np.random.default_rng)]
    assert games[0].events == games[1].events


def test_seat_rngs_made_together_draw_as_default_rng_each():
    """The batch's own seed hash (uint64 arrays) against NumPy's SeedSequence: seeds of one and two
    32-bit words, the edges, and many random ones; and each generator hides its seed as seat_rng's."""
    rng = np.random.default_rng(2024)
    seeds = np.concatenate([np.array([0, 1, 2**32 - 1, 2**32, 2**63, 2**64 - 1], np.uint64),
                            rng.integers(0, 2**32, 300, dtype=np.uint64),
                            rng.integers(0, 2**64, 700, dtype=np.uint64, endpoint=False)])
    made = seat_rngs(seeds)
    assert len(made) == len(seeds)
    for seed, generator in zip(seeds.tolist(), made, strict=True):
        assert generator.random(3).tolist() == np.random.default_rng(seed).random(3).tolist(), seed
        assert generator.bit_generator.seed_seq.entropy == [0]  # the stand-in, never the seed
    assert seat_rngs(np.zeros((0, 4), np.uint64)) == []


# --------------------------------------------------------------------------- random and most_held
def test_random_asks_only_opponents_holding_cards():
    game = scenario(["2 9", "2 9", "5 6"], "K Q J")
    script(game, [(1, "2"), (1, "9")], [  # seat 0 empties seat 1's hand and asks again
        "Player 0 asks Player 1 for 2s.", "Player 1 gives Player 0 one 2.",
        "Player 0 asks Player 1 for 9s.", "Player 1 gives Player 0 one 9."])
    view = game.view(0)
    assert view.hand_sizes[1] == 0 and view.current_player == 0
    assert {random(view, np.random.default_rng(s))[0] for s in range(40)} == {2}
    assert {most_held(view, np.random.default_rng(s)) for s in range(40)} == {(2, "2")}


def test_with_no_opponent_holding_cards_any_opponent_is_asked():
    game = scenario(["2 3 9", "2 2 9", "3 3 3"], "K Q J")
    for ask in [(1, "2"), (1, "9"), (2, "3")]:  # seat 0 takes every card and books the 3s
        game.ask(*ask)
    view = game.view(0)
    assert view.hand_sizes == (5, 0, 0) and view.current_player == 0 and view.ocean_size
    assert {random(view, np.random.default_rng(s))[0] for s in range(40)} == {1, 2}
    assert {memory(view, np.random.default_rng(s))[0] for s in range(40)} == {1, 2}


def test_most_held_builds_on_pairs_lowest_rank_first():
    view = scenario(["4 7 7 2 2", "A A 3 3 5"]).view(0)
    assert view.counts == {"2": 2, "4": 1, "7": 2}
    assert most_held(view, np.random.default_rng(0)) == (1, "2")


# --------------------------------------------------------------------------- bots never stall
def test_an_ask_answered_go_fish_is_skipped_until_the_target_draws():
    game = scenario(["A A 2 3", "2 3 4 4", "A 2 3 4", "A 2 3 4"], n_ranks=4)  # no ocean
    game.ask(1, "A"), game.ask(0, "4")  # both "Go Fish!", and nothing to draw
    view = game.view(2)
    assert view.current_player == 2 and view.record.dead == [{"4"}, {"A"}, set(), set()]
    assert {most_held(view, np.random.default_rng(s)) for s in range(40)} == {(0, "A"), (3, "A")}
    asks = {random(view, np.random.default_rng(s)) for s in range(200)}
    assert (1, "A") not in asks and (0, "4") not in asks and len(asks) == 10  # 4 ranks x 3 seats, less 2
    assert memory(view, None) == (0, "A")  # seats 0 and 1 showed Aces and 4s; it holds one of each: the lower


def test_the_askers_own_draw_does_not_make_the_ask_live():
    game = scenario(["A 2", "3 4", "A 5"], "A 6 7 8")
    script(game, [(1, "A")], ["Player 0 asks Player 1 for Aces.", 'Player 1 says "Go Fish!"',
                              "Player 0 draws A♥, the rank asked for, and shows it: lucky draw!"])
    view = game.view(0)
    assert view.current_player == 0 and view.counts == {"A": 2, "2": 1}
    assert {most_held(view, np.random.default_rng(s)) for s in range(40)} == {(2, "A")}
    assert {random(view, np.random.default_rng(s)) for s in range(100)} == {(2, "A"), (1, "2"), (2, "2")}


def test_a_draw_makes_the_ask_live_again():
    game = scenario(["A 2", "3 4", "A 5"], "6 7 8 9")
    game.ask(1, "A"), game.ask(2, "3")  # seat 1 says "Go Fish!" to Aces, then draws on its own turn
    view = game.view(2)
    assert view.record.dead == [set(), set(), {"3"}] and view.current_player == 2
    assert {most_held(view, np.random.default_rng(s))[0] for s in range(40)} == {0, 1}


def test_being_given_the_rank_makes_the_ask_live_again():
    game = scenario(["A A 2 3", "2 2 3 4", "A A 2 4", "3 3 4 4"], n_ranks=4, bluff=True)  # no ocean
    game.ask(1, "A")                # seat 1: "Go Fish!"
    game.ask(2, "A"), game.ask(2, "A")  # seat 1 bluffs for Aces and is given two; then seat 2: "Go Fish!"
    game.ask(3, "2"), game.ask(0, "4")  # "Go Fish!" twice: back to seat 0
    view = game.view(0)
    assert view.current_player == 0 and view.record.dead == [{"4"}, set(), {"A"}, {"2"}]
    assert {most_held(view, np.random.default_rng(s)) for s in range(40)} == {(1, "A"), (3, "A")}
    assert memory(view, None) == (1, "A")  # seat 1 showed Aces, and is live for them


def test_with_no_live_opponent_the_old_rule_applies():
    # Teams, no ocean: seats 0 and 2 hold every A and 2, seats 1 and 3 none; seat 2 can still take 5s.
    game = scenario(["A A A 2 2", "3 3 4 4 5", "A 2 2 5 5", "3 3 4 4 5"], n_ranks=5, teams=True)
    for ask in [(1, "A"), (0, "3"), (3, "A"), (0, "4"), (1, "2"), (0, "4"), (3, "2"), (0, "3")]:
        assert 'Go Fish' in str(game.ask(*ask)[1])
    view = game.view(0)
    assert view.current_player == 0 and not any(view.record.live(q, r) for q in (1, 3) for r in ("A", "2"))
    assert {most_held(view, np.random.default_rng(s)) for s in range(40)} == {(1, "A"), (3, "A")}
    assert {random(view, np.random.default_rng(s)) for s in range(100)} == {(1, "A"), (3, "A"), (1, "2"), (3, "2")}
    assert memory(view, CountingRng()) in {(1, "A"), (3, "A")}


class TooLong(Exception):
    pass


@pytest.mark.parametrize("preset", ["pond", "family"])
@pytest.mark.parametrize("n_players", [4, 6])
def test_teams_games_of_memory_and_most_held_all_end(preset, n_players):
    rules = Rules.preset(preset).replace(teams=True)
    lineups = [["memory"] * 6, ["most_held"] * 6, ["memory", "most_held"] * 3, ["most_held", "random", "memory"] * 2]

    def capped(name, game):
        def strategy(view, rng):
            if game.n_asks >= 1000:  # these games take well under 200 asks
                raise TooLong(f"{preset}, {n_players} players, {name}: no end after 1000 asks")
            return STRATEGIES[name](view, rng)
        return strategy

    for seed in range(240):
        game = Game(rules, n_players, seed=seed)
        lineup = lineups[seed % len(lineups)][:n_players]
        play_out(game, [capped(name, game) for name in lineup], [seat_rng(1000 * seed + p) for p in range(n_players)])
        assert game.is_over


# --------------------------------------------------------------------------- memory
def four_players(rounds: list[list[tuple]], hands=("2 A 3", "2 4 5", "2 6 7", "8 9 10")) -> View:
    """Seat 0 is to decide after ``rounds`` of asks (each ask a "Go Fish!" and a blank draw)."""
    game = scenario(list(hands), "K Q J K Q J K Q")
    for asks in rounds:
        for ask in asks:
            events = game.ask(*ask)
            assert "Go Fish" in str(events[1]) and not events[2].lucky
    assert game.current_player == 0
    return game.view(0)


def test_memory_asks_the_opponent_who_showed_the_rank_most_recently():
    view = four_players([[(3, "A"), (3, "2"), (3, "2"), (1, "8")]])  # seat 1 then seat 2 ask for 2s
    assert known_holdings(view)[1:3] == [{"2": 8}, {"2": 12}]  # the indices of their asks
    assert memory(view, CountingRng()) == (2, "2")
    # Seat 2 asks for 2s in the first round, seat 1 only in the second: seat 1 is more recent.
    view = four_players([[(3, "A"), (3, "4"), (3, "2"), (1, "8")], [(3, "3"), (3, "2"), (3, "6"), (2, "9")]])
    assert set(known_holdings(view)[1]) == {"2", "4"} and set(known_holdings(view)[2]) == {"2", "6"}
    rng = CountingRng()
    assert memory(view, rng) == (1, "2") and rng.calls == 0


def test_memory_prefers_the_rank_it_holds_most_of_then_the_lowest():
    # Seat 1 shows 3s and seat 2 shows 2s; seat 0 holds one of each, then two 3s.
    rounds = [[(3, "A"), (3, "3"), (3, "2"), (1, "8")]]
    assert memory(four_players(rounds, ("2 A 3", "3 4 5", "2 6 7", "8 9 10")), None) == (2, "2")
    rounds = [[(3, "2"), (3, "3"), (3, "2"), (1, "8")]]
    assert memory(four_players(rounds, ("2 3 3", "3 4 5", "2 6 7", "8 9 10")), None) == (1, "3")


def test_memory_ignores_ranks_it_does_not_hold_and_falls_back_to_most_held():
    view = four_players([[(3, "A"), (3, "4"), (3, "6"), (1, "8")]], ("2 A 3", "2 4 5", "2 6 7", "8 9 10"))
    assert known_holdings(view)[1:4] == [{"4": 8}, {"6": 12}, {"8": 16}]
    for seed in range(10):
        assert memory(view, np.random.default_rng(seed)) == most_held(view, np.random.default_rng(seed))


def test_giving_a_rank_away_or_booking_it_removes_it():
    game = scenario(["2 5 6 A", "2 2 2 9", "7 8 10 J"], "K Q J")
    script(game, [(2, "2")], [
        "Player 0 asks Player 2 for 2s.", "Player 2 says \"Go Fish!\"", "Player 0 draws a card from the ocean."])
    assert known_holdings(game.view(2))[:2] == [{"2": 3}, {}]
    script(game, [(0, "2")], [
        "Player 1 asks Player 0 for 2s.", "Player 0 gives Player 1 one 2.", "Player 1 lays down a book of 2s."])
    # Seat 0 gave its 2 away; seat 1 booked its 2s, and still holds a card.
    assert game.view(2).hand_sizes[:2] == (4, 1)
    assert known_holdings(game.view(2))[:2] == [{}, {}]


def test_a_lucky_draw_shows_the_rank():
    game = scenario(["2 5", "3 6", "2 7"], "Q 3 K")
    script(game, [(2, "5"), (2, "3")], [
        "Player 0 asks Player 2 for 5s.", "Player 2 says \"Go Fish!\"", "Player 0 draws a card from the ocean.",
        "Player 1 asks Player 2 for 3s.", "Player 2 says \"Go Fish!\"",
        "Player 1 draws 3♦, the rank asked for, and shows it: lucky draw!"])
    assert str(game.view(0).events[9]).endswith("lucky draw!")
    assert known_holdings(game.view(0))[1] == {"3": 9}


def test_an_opponent_that_said_go_fish_to_a_rank_is_not_known_to_hold_it():
    # Only a bluff can make a known holder say "Go Fish!", so this uses the bluff house rule.
    game = scenario(["2 A", "5 6", "7 8"], "K Q J 10 9", bluff=True)
    game.ask(2, "A"), game.ask(2, "2"), game.ask(1, "7")  # seat 1 bluffs: asks for 2s it lacks
    view = game.view(0)
    assert known_holdings(view)[1] == {"2": 7}
    assert memory(view, None) == (1, "2")
    game.ask(1, "2")  # "Go Fish!"
    game.ask(2, "5"), game.ask(1, "8")
    view = game.view(0)
    assert "2" not in known_holdings(view)[1]
    assert memory(view, np.random.default_rng(1)) == most_held(view, np.random.default_rng(1))


def test_an_opponent_with_no_cards_holds_nothing_even_after_drawing_again():
    game = scenario(["2", "5", "7"], "K Q J 9 10 4 3", bluff=True)
    game.ask(1, "2"), game.ask(2, "2"), game.ask(0, "7")  # seat 1 bluffs for 2s; holds 5 Q
    assert known_holdings(game.view(0))[1] == {"2": 7}
    game.ask(1, "5"), game.ask(1, "Q")                    # seat 0 (bluffing) empties seat 1's hand
    assert game.view(0).hand_sizes[1] == 0 and known_holdings(game.view(0))[1] == {}
    game.ask(2, "4")                                      # Go Fish; seat 1 draws one and plays on
    assert game.current_player == 1 and game.view(0).hand_sizes[1] == 1
    assert known_holdings(game.view(0))[1] == {}
    game.ask(2, "10"), game.ask(0, "7")                   # both "Go Fish!"; back to seat 0
    view = game.view(0)
    assert view.current_player == 0 and "2" in view.counts and "2" not in known_holdings(view)[1]
    rng = CountingRng(4)
    assert memory(view, rng) == most_held(view, CountingRng(4)) and rng.calls == 1  # the fallback


def test_memory_never_asks_its_partner():
    game = scenario(["2 A", "3 4", "2 5", "6 7"], "K Q J 10 9", teams=True)
    game.ask(1, "A")                      # seat 0: Go Fish
    game.ask(2, "3")                      # seat 1 asks seat 2 for 3s: Go Fish
    game.ask(3, "2")                      # seat 2 (seat 0's partner) shows 2s
    game.ask(2, "6")                      # seat 3
    view = game.view(0)
    assert view.opponents == (1, 3) and known_holdings(view)[2] == {"2": 12}
    for seed in range(10):
        assert memory(view, np.random.default_rng(seed))[0] in (1, 3)


def test_memory_depends_only_on_the_view():
    game = Game(POND, 4, seed=21)
    rng = np.random.default_rng(0)
    while game.n_asks < 20:
        game.ask(*random(game.view(game.current_player), rng))
    view = game.view(game.current_player)
    first = memory(view, np.random.default_rng(9))
    game.ask(*random(game.view(game.current_player), rng))  # play on: the old view is a snapshot
    assert memory(view, np.random.default_rng(9)) == first


def test_without_bluffing_known_ranks_are_really_held():
    # A check on the bookkeeping (hand sizes followed through the events): without bluffs
    # every show is true, so at every decision each known rank is in that hand.
    for seed in range(12):
        rules = Rules.preset(["family", "pond", "bicycle", "classic"][seed % 4])
        game = Game(rules, 2 + seed % 4, seed=seed)

        def checked(view, rng, game=game):  # bound now, though played out within this iteration
            for q, ranks in enumerate(known_holdings(view)):
                assert all(game.count(q, r) for r in ranks)
            return memory(view, rng)

        play_out(game, [checked, "random", "most_held", "random", "memory"][:game.n_players],
                 np.random.default_rng(seed))


# --------------------------------------------------------------------------- every strategy, every preset
# Teams under pond too: since bots never stall, no lineup keeps asking for ranks only partners hold.
RULE_SETS = [Rules.preset(p) for p in ("family", "pond", "bicycle", "classic")] + [
    Rules.preset("pond").replace(bluff=True), Rules.preset("family").replace(book_size=2),
    Rules.preset("classic").replace(specific_card=True), Rules.preset("classic").replace(teams=True),
    Rules.preset("pond").replace(teams=True), Rules.preset("pond").replace(n_ranks=4, hand_size=3)]


@settings(max_examples=300, deadline=None)
@given(rules=st.sampled_from(RULE_SETS), n_players=st.integers(2, 6), seed=st.integers(0, 2**32),
       lineup=st.lists(st.sampled_from(["random", "memory", "most_held"]), min_size=6, max_size=6))
def test_strategies_see_only_a_view_and_always_ask_legally(rules, n_players, seed, lineup):
    if rules.teams:
        n_players = 4
    n_players = min(n_players, rules.max_players)
    if rules.n_ranks == 4:
        n_players = min(n_players, 5)
    seen = []

    def watched(name):
        def strategy(view, rng):
            assert type(view) is View and not any(isinstance(getattr(view, a, None), Game) for a in View.__slots__)
            move = STRATEGIES[name](view, rng)
            assert tuple(move) in view.legal_asks()
            seen.append(name)
            return move
        strategy.__name__ = name
        return strategy

    game = Game(rules, n_players, seed=seed)
    play_out(game, [watched(name) for name in lineup[:n_players]], np.random.default_rng(seed))
    assert game.is_over and len(seen) == game.n_asks



# --------------------------------------------------------------------------- greedy
def greedy_by_definition(view) -> tuple:
    """The ask greedy must make, straight from its definition: a key per legal ask, best first."""
    post = posterior(view)
    return min(view.legal_asks(), key=lambda ask: (-post.p_holds(ask[0], ask[1], at_least=1),
                                                   -post.expected_count(ask[0], ask[1]),
                                                   view.ranks.index(ask[1]), ask[0]))


def test_greedy_asks_an_opponent_certain_to_hold_the_rank():
    view = four_players([[(3, "A"), (3, "2"), (3, "2"), (1, "8")]])  # seats 1 and 2 ask for 2s
    post = posterior(view)
    assert post.p_holds(1, "2") == post.p_holds(2, "2") == 1
    # Seat 1 also said "Go Fish!" to 8s, so its unknown cards more likely hold the last 2.
    assert post.expected_count(1, "2") > post.expected_count(2, "2")
    rng = CountingRng()
    assert greedy(view, rng) == (1, "2") and rng.calls == 0
    view = four_players([[(3, "A"), (3, "2"), (3, "2"), (2, "8")]])  # now seat 2 said it to 8s
    assert greedy(view, None) == (2, "2")


def test_greedy_prefers_ranks_with_more_unseen_cards_then_the_lowest_rank_and_seat():
    view = Game(POND, 3, seed=1).view(0)
    assert view.counts == {"4": 1, "6": 1, "7": 2, "10": 1}
    post = posterior(view)
    p = {(q, r): post.p_holds(q, r) for q in (1, 2) for r in view.counts}
    assert len({p[q, r] for q in (1, 2) for r in ("4", "6", "10")}) == 1  # nothing known: all alike
    assert post.expected_count(1, "4") == post.expected_count(2, "4")
    assert p[1, "4"] > p[1, "7"]  # three 4s are unseen, only two 7s
    assert greedy(view, None) == (1, "4")


def test_greedy_follows_its_definition_through_whole_games():
    for seed, (rules, n) in enumerate([(POND.replace(n_ranks=5, hand_size=3), 3), (POND, 2),
                                       (Rules.preset("bicycle").replace(n_ranks=6), 3),
                                       (Rules.preset("classic").replace(n_ranks=5, hand_size=2, teams=True), 4)]):
        game = Game(rules, n, seed=seed)

        def checked(view, rng):
            move = greedy(view, rng)
            assert move == greedy_by_definition(view)
            return move

        play_out(game, [checked, "memory", "random", "greedy"][:n], np.random.default_rng(seed))
        assert game.is_over


def test_greedy_is_not_defined_for_specific_card_rules():
    view = Game(POND.replace(specific_card=True), 2, seed=0).view(0)
    with pytest.raises(ValueError, match="strategy 'greedy' is not defined for specific_card rules"):
        greedy(view, None)


@settings(max_examples=15, deadline=None)
@given(rules=st.sampled_from([r for r in RULE_SETS if not r.specific_card and not r.teams]),
       n_players=st.integers(2, 3), seed=st.integers(0, 2**32), seat=st.integers(0, 2))
def test_greedy_always_asks_legally(rules, n_players, seed, seat):
    lineup = ["random"] * n_players
    lineup[seat % n_players] = "greedy"
    game = play_out(Game(rules, n_players, seed=seed), lineup, np.random.default_rng(seed))  # play_out checks
    assert game.is_over


# --------------------------------------------------------------------------- no seed to read
class Spy:
    """A strategy that keeps the generator of every decision, then plays random."""

    def __init__(self):
        self.rngs = []

    def choose(self, view, rng):
        self.rngs.append(rng)
        return random(view, rng)


def test_a_strategys_rng_reveals_neither_the_tournament_seed_nor_the_game():
    from gofish_teach.simulate import game_inputs, simulate

    seed, games = 1234, 24
    spies = [Spy(), Spy()]
    simulate([spies[0], spies[1], "random", "random"], "pond", games=games, seed=seed, workers=1, progress=False)
    secrets = {seed, *range(games)} | {int(s) for s in game_inputs(seed, "pond", games)[1].ravel()}
    for spy in spies:
        assert spy.rngs
        for rng in spy.rngs:
            entropy = rng.bit_generator.seed_seq.entropy
            assert entropy == [0] and not any(entropy == secret for secret in secrets)
            assert rng.bit_generator.seed_seq.spawn_key == ()
    # One seat's generator is never another's, in any game.
    assert not {id(rng) for rng in spies[0].rngs} & {id(rng) for rng in spies[1].rngs}
    assert not {id(rng.bit_generator) for rng in spies[0].rngs} & {id(rng.bit_generator) for rng in spies[1].rngs}


def test_seat_rngs_share_nothing():
    spy = [Spy() for _ in range(3)]
    play_out(Game(POND, 3, seed=5), spy, [seat_rng(s) for s in (7, 8, 9)])
    seen = [{id(rng) for rng in s.rngs} for s in spy]
    assert all(len(ids) == 1 for ids in seen) and len(set.union(*seen)) == 3
    a, b = seat_rng(7), seat_rng(8)
    assert a.bit_generator.seed_seq is not b.bit_generator.seed_seq
    assert a.bit_generator.state != b.bit_generator.state
    a.bit_generator.seed_seq.spawn(1)  # a strategy spawning children changes nothing for another seat
    assert b.bit_generator.seed_seq.n_children_spawned == 0


def test_the_bots_are_strategies_and_plain_functions_still_are():
    """The bots are Strategy objects named by their ``name`` (no ``__name__`` set on them), and a
    plain function f(view, rng) still plays, named by its own name (the README's promise)."""
    from gofish_teach import simulate
    from gofish_teach.bestplay import BestResponse, SearchBot
    from gofish_teach.strategies import Strategy
    from gofish_teach.widgets.lab import Named

    tiny = Rules.preset("pond").replace(n_ranks=2, hand_size=2)
    bots = [BestResponse(tiny, "memory"), SearchBot(samples=4), Named(random, "mine")]
    assert all(isinstance(bot, Strategy) and "__name__" not in vars(bot) for bot in bots)
    assert [strategy_name(bot) for bot in bots] == ["BestResponse", "SearchBot", "mine"]

    def lowest(view, rng):
        return view.legal_asks()[0]

    assert not isinstance(lowest, Strategy)
    res = simulate([lowest, bots[0]], tiny, games=20, seed=3, workers=1, progress=False)
    assert res.games == 20 and res.lineup == ("lowest", "BestResponse")
