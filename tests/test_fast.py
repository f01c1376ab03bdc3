"""The compiled fast path plays exactly the readable engine's games, ask by ask.

For the same deck orders and per-seat strategy seeds, ``fast.play_games`` must make the same
asks (player, target, rank), in the same order, and reach the same books and winners as
``simulate.play_game_readable`` (``Game`` driven by ``strategies``): at least 15,000 games
over every preset, 2-6 players, and the variants it supports (see ``PLAN``).
"""
from __future__ import annotations

import importlib
import subprocess
import sys

import numpy as np
import pytest

from gofish_teach import Game, Rules, fast
from gofish_teach.fast import engine, pcg64
from gofish_teach.fast import spec as fast_spec

simulate = importlib.import_module("gofish_teach.simulate")  # the module (the package's `simulate` is the function)
from gofish_teach.events import Draw, Give, GoFish
from gofish_teach.fast import play_games, supports
from gofish_teach.simulate import SEATS, deck_cards, play_game_readable
from gofish_teach.strategies import GameTooLong

LINEUPS = (  # by seat; cut to the player count
    ("memory", "random", "random", "random", "random", "random"),
    ("random", "memory", "most_held", "random", "memory", "most_held"),
    ("most_held", "random", "memory", "memory", "random", "random"),
    ("random",) * 6,
    ("most_held",) * 6,
    ("memory",) * 6,
)

# (preset, changes, player counts, games per player count and lineup). With teams, partners
# may end up holding the ranks the others want; the "bots never stall" rule is what lets
# the deterministic strategies (memory, most_held) finish those games.
PLAN = [
    ("family", {}, (2, 3, 4, 5, 6), 64),
    ("pond", {}, (2, 3, 4, 5, 6), 64),
    ("bicycle", {}, (2, 3, 4, 5), 72),
    ("classic", {}, (2, 3, 4, 5, 6), 64),
    ("pond", dict(bluff=True), (2, 4, 6), 40),
    ("family", dict(book_size=2), (2, 3, 5), 40),
    ("bicycle", dict(book_size=2), (4,), 60),
    ("pond", dict(teams=True), (4, 6), 100),
    ("family", dict(teams=True), (4, 6), 100),
    ("classic", dict(teams=True), (4, 6), 50),
    ("bicycle", dict(teams=True, book_size=2), (4,), 60),
    ("classic", dict(teams=True, bluff=True), (4,), 50),
    ("family", dict(n_ranks=4, hand_size=3), (2, 3, 4, 5), 40),
    ("pond", dict(n_ranks=5, hand_size=2), (2, 3, 6), 40),
    ("pond", dict(n_ranks=3, hand_size=2, teams=True), (4, 6), 40),
    ("bicycle", dict(n_ranks=2, hand_size=1), (2, 3), 40),
    ("classic", dict(hand_size=9), (2, 5), 40),
]


def inputs(rules: Rules, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    decks = rng.permuted(np.broadcast_to(np.arange(rules.deck_size, dtype=np.int8), (games, rules.deck_size)), axis=1)
    return decks, rng.integers(0, 2**64, size=(games, SEATS), dtype=np.uint64)


def assert_agree(lineup, rules, decks, seeds) -> None:
    out = play_games(lineup, rules, decks, seeds, moves=True)
    for g in range(len(decks)):
        ref = play_game_readable(lineup, rules, decks[g], seeds[g], moves=True)
        mine, theirs = out["moves"][g], ref["moves"]
        same = min(len(mine), len(theirs))
        differ = np.flatnonzero((mine[:same] != theirs[:same]).any(axis=1))
        first = int(differ[0]) if len(differ) else same
        assert len(mine) == len(theirs) and not len(differ), (
            f"game {g} ({rules.name} {rules}, lineup {lineup}, seeds {seeds[g][:len(lineup)]}): ask {first} differs: "
            f"fast {mine[first:first + 1].tolist()} vs readable {theirs[first:first + 1].tolist()}")
        assert (out["books"][g] == ref["books"]).all() and out["asks"][g] == ref["asks"] \
            and (out["winners"][g] == ref["winners"]).all()


def test_the_plan_covers_at_least_15000_games():
    games = sum(len(counts) * len(LINEUPS) * per for _, _, counts, per in PLAN)
    assert games >= 15_000, games


# --------------------------------------------------------------------------- no import circle
def test_fast_loads_without_simulate_which_calls_it():
    # simulate imports fast to play games, so fast (and what it imports) must not import
    # simulate back: what both need is in fast.spec. A fresh interpreter, simulate blocked.
    # The package's face imports simulate, so the package is stood in for by a bare one (its folder only).
    code = ("import importlib.util, sys, types\n"
            "package = types.ModuleType('gofish_teach')\n"
            "package.__path__ = list(importlib.util.find_spec('gofish_teach').submodule_search_locations)\n"
            "sys.modules['gofish_teach'] = package; sys.modules['gofish_teach.simulate'] = None\n"
            "import gofish_teach.fast as fast\n"
            "print(fast.play_games.__name__)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["play_games"]


def test_the_shared_names_still_import_from_simulate_and_fast():
    for name in ("CARDS_PER_RANK", "FAST_STRATEGIES", "MAX_ASKS", "fast_path_plays", "too_long_message"):
        assert getattr(simulate, name) is getattr(fast_spec, name)
    assert fast.MAX_ASKS is simulate.MAX_ASKS is fast_spec.MAX_ASKS


# --------------------------------------------------------------------------- NumPy's generator, compiled
def test_the_compiled_generator_draws_numpys_doubles():
    seeds = np.concatenate([
        np.array([0, 1, 2, 42, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**63, 2**64 - 2, 2**64 - 1], dtype=np.uint64),
        np.random.default_rng(0).integers(0, 2**64, size=300, dtype=np.uint64),
        np.arange(100, dtype=np.uint64),
    ])
    expected = np.stack([np.random.default_rng(int(s)).random(12) for s in seeds])
    assert (pcg64.random_doubles(seeds, 12) == expected).all()  # bit for bit, not approximately


# --------------------------------------------------------------------------- exact agreement, ask by ask
@pytest.mark.parametrize("preset, changes, counts, per", PLAN,
                         ids=[f"{p}-{'-'.join(f'{k}={v}' for k, v in c.items()) or 'as-is'}" for p, c, *_ in PLAN])
def test_fast_and_readable_make_the_same_asks(preset, changes, counts, per):
    rules = Rules.preset(preset).replace(**changes)
    for n in counts:
        for k, lineup in enumerate(LINEUPS):
            decks, seeds = inputs(rules, per, seed=100 * n + k)
            assert_agree(lineup[:n], rules, decks, seeds)


def follow_dead_asks(dead: set, events) -> None:
    """Update ``dead``, the (seat, rank) asks the public record proves must fail, with new
    ``events``: straight from the rule's wording."""
    for event in events:
        if isinstance(event, GoFish):
            dead.add((event.player, event.rank))
        elif isinstance(event, Draw):
            dead -= {(q, r) for q, r in dead if q == event.player}
        elif isinstance(event, Give):
            dead.discard((event.to, event.rank))


@pytest.mark.parametrize("preset", ["pond", "family"])
def test_the_fast_path_makes_a_dead_ask_only_when_every_ask_is_dead(preset):
    # Replay the fast path's asks on a Game and check each against the rule itself.
    rules = Rules.preset(preset).replace(teams=True)
    asks = dead_ones = 0
    for lineup in LINEUPS[:3] + LINEUPS[4:]:
        decks, seeds = inputs(rules, 30, seed=7)
        out = play_games(lineup[:4], rules, decks, seeds, moves=True)
        for g in range(len(decks)):
            game, dead, seen = Game(rules, 4, deck=deck_cards(rules, decks[g])), set(), 0
            for p, target, r in out["moves"][g]:
                events = game.events
                follow_dead_asks(dead, events[seen:])
                seen = len(events)
                assert game.current_player == p
                if (target, rules.ranks[r]) in dead:
                    sizes, held = game.hand_sizes, {card.rank for card in game.hand(p)}
                    assert all(sizes[q] == 0 or (q, rank) in dead for q in game.view(p).opponents for rank in held)
                    dead_ones += 1
                game.ask(int(target), rules.ranks[r])
                asks += 1
            assert game.is_over
    assert dead_ones < asks / 20  # rare: only when nothing else is left


def test_teams_games_that_stalled_now_end():
    # These lineups kept asking opponents for ranks only a partner held, for ever (before
    # the "bots never stall" rule); now every game ends, well within the cap.
    rules = Rules.preset("pond").replace(teams=True)
    decks, seeds = inputs(rules, 2000, seed=5)
    for lineup in (("random", "memory", "most_held", "random"), ("most_held",) * 4, ("memory",) * 4):
        out = play_games(lineup, rules, decks, seeds, max_asks=1000)
        assert out["asks"].max() < 300


def test_a_game_that_reaches_max_asks_stops_in_both_engines():
    rules, lineup = Rules.preset("pond"), ("memory", "random", "most_held")
    decks, seeds = inputs(rules, 5, seed=5)
    asks = play_games(lineup, rules, decks, seeds)["asks"]
    cap = int(asks[3])  # game 3 needs exactly this many asks; game 4 may need fewer
    with pytest.raises(GameTooLong, match=rf"^decks\[\d\] passed max_asks={cap - 1} asks without ending: cards were "
                                          "still changing hands") as info:
        play_games(lineup, rules, decks, seeds, max_asks=cap - 1)
    assert "Lineup as given: memory, random, most_held. Rules: pond." in str(info.value)
    assert (play_games(lineup, rules, decks[3:4], seeds[3:4], max_asks=cap)["asks"] == cap).all()
    with pytest.raises(GameTooLong, match=f"^the game passed max_asks={cap - 1} asks"):
        play_game_readable(lineup, rules, decks[3], seeds[3], max_asks=cap - 1)
    assert play_game_readable(lineup, rules, decks[3], seeds[3], max_asks=cap)["asks"] == cap


# --------------------------------------------------------------------------- one generator per seat
def test_each_seat_draws_from_its_own_seed_only():
    rules, lineup = Rules.preset("pond"), ("random", "random", "random")
    decks, seeds = inputs(rules, 200, seed=6)
    base = play_games(lineup, rules, decks, seeds, moves=True)
    other = seeds.copy()
    other[:, 3:] = 12345  # columns past the player count are never read
    assert all((a == b).all() for a, b in zip(base["moves"], play_games(lineup, rules, decks, other, moves=True)["moves"], strict=True))
    swapped = seeds[:, [1, 0, 2, 3, 4, 5]]
    moved = play_games(lineup, rules, decks, swapped, moves=True)["moves"]
    # Seat 0's first ask is drawn from seats[0] alone: swapping seeds changes it somewhere.
    assert any((a[0] != b[0]).any() for a, b in zip(base["moves"], moved, strict=True))
    for g in range(5):  # and the readable engine agrees with the swapped seeds too
        ref = play_game_readable(lineup, rules, decks[g], swapped[g], moves=True)
        assert (ref["moves"] == moved[g]).all()


# --------------------------------------------------------------------------- batches
def test_results_do_not_depend_on_batching_or_dtypes():
    rules, lineup = Rules.preset("bicycle"), ("memory", "random", "most_held")
    decks, seeds = inputs(rules, 300, seed=1)
    seeds >>= np.uint64(1)  # below 2**63, so that they fit int64 too
    whole = play_games(lineup, rules, decks, seeds)
    parts = [play_games(lineup, rules, decks[a:b], seeds[a:b]) for a, b in [(0, 1), (1, 170), (170, 300)]]
    again = play_games(lineup, rules, decks.astype(np.int64), seeds.astype(np.int64))
    for key in whole:
        assert (np.concatenate([p[key] for p in parts]) == whole[key]).all()
        assert (again[key] == whole[key]).all()
    assert whole["books"].dtype.kind == "i" and whole["asks"].shape == (300,) and whole["winners"].dtype == bool


def test_asks_are_recorded_however_long_the_games(monkeypatch):
    # The record of asks starts with room for MOVES_ROOM asks a game and the batch is played
    # again when that is short: the result is the same.
    rules = Rules.preset("pond")
    decks, seeds = inputs(rules, 50, seed=3)
    roomy = play_games(("random", "memory", "random"), rules, decks, seeds, moves=True)
    monkeypatch.setattr(engine, "MOVES_ROOM", 2)
    tight = play_games(("random", "memory", "random"), rules, decks, seeds, moves=True)
    assert [len(m) for m in tight["moves"]] == roomy["asks"].tolist()
    assert all((a == b).all() for a, b in zip(roomy["moves"], tight["moves"], strict=True))


def test_results_are_consistent():
    rules = Rules.preset("pond")
    decks, seeds = inputs(rules, 500, seed=2)
    out = play_games(("memory", "random", "random", "random", "random"), rules, decks, seeds)
    assert (out["books"].sum(axis=1) == 13).all()  # pond plays to the last book
    assert (out["winners"] == (out["books"] == out["books"].max(axis=1, keepdims=True))).all()
    assert (out["asks"] > 0).all()


def test_small_integer_seeds_work_like_default_rng():
    rules = Rules.preset("classic")
    decks, _ = inputs(rules, 20, seed=3)
    seeds = np.arange(40).reshape(20, 2)
    out = play_games(("random", "memory"), rules, decks, seeds)
    ref = play_game_readable(("random", "memory"), rules, decks[7], [14, 15])
    assert (out["books"][7] == ref["books"]).all() and out["asks"][7] == ref["asks"]


def test_deck_codes_read_as_cards():
    rules = Rules.preset("pond")
    decks, _ = inputs(rules, 1, seed=4)
    game = Game(rules, 2, deck=deck_cards(rules, decks[0]))
    assert [rules.ranks.index(c.rank) * 4 + "♣♦♥♠".index(c.suit) for c in game.deck] == list(decks[0])


# --------------------------------------------------------------------------- what it plays, and bad input
def test_supports():
    pond = Rules.preset("pond")
    assert supports(["memory", "random", "most_held"], pond)
    assert supports(["random"] * 4, pond.replace(teams=True, bluff=True, book_size=2))
    assert not supports(["greedy", "random"], pond)
    assert not supports([lambda view, rng: (1, "A"), "random"], pond)
    assert not supports(["random", "random"], pond.replace(specific_card=True))
    assert not supports(["random"] * 6, Rules.preset("bicycle"))  # bicycle is for 2-5 players
    assert not supports(["random"], pond)


@pytest.mark.parametrize("lineup, rules, message", [
    (["memory", "greedy"], Rules.preset("pond"), "lineup: the fast path plays only random, memory, most_held, not 'greedy'"),
    (["memory", "random"], Rules.preset("pond").replace(specific_card=True), "rules: the fast path does not play specific_card"),
    (["random"] * 6, Rules.preset("bicycle"), "n_players: the bicycle rules are for 2 to 5 players, not 6"),
])
def test_unsupported_input_is_named(lineup, rules, message):
    decks, seeds = inputs(rules, 2, seed=0)
    with pytest.raises(ValueError, match=message):
        play_games(lineup, rules, decks, seeds)


def test_bad_decks_and_seeds_are_named():
    rules, lineup = Rules.preset("pond"), ("memory", "random")
    decks, seeds = inputs(rules, 3, seed=0)
    with pytest.raises(ValueError, match=r"decks: expected integer card codes of shape \(games, 52\)"):
        play_games(lineup, rules, decks[:, :40], seeds)
    broken = decks.copy()
    broken[2, 5] = broken[2, 6]
    with pytest.raises(ValueError, match=r"decks\[2\]: each row must hold every card code 0..51 exactly once"):
        play_games(lineup, rules, broken, seeds)
    broken[2, 5] = 52
    with pytest.raises(ValueError, match="decks: card codes must be 0..51"):
        play_games(lineup, rules, broken, seeds)
    with pytest.raises(ValueError, match=r"seeds: expected \(3, n\) integer seeds, one per seat"):
        play_games(lineup, rules, decks, seeds[:2])
    with pytest.raises(ValueError, match=r"seeds: expected \(3, n\)"):
        play_games(lineup, rules, decks, seeds[:, 0])  # the old form, one seed a game
    with pytest.raises(ValueError, match="seeds: 1 per game, but 2 seats each need their own"):
        play_games(lineup, rules, decks, seeds[:, :1])
    with pytest.raises(ValueError, match="seeds: must be non-negative"):
        play_games(lineup, rules, decks, np.array([[1, 2], [-1, 2], [2, 3]]))
    with pytest.raises(ValueError, match="max_asks must be a positive int"):
        play_games(lineup, rules, decks, seeds, max_asks=0)
