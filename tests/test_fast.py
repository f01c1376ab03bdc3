"""The compiled fast path plays exactly the readable engine's games.

For the same deck orders and strategy seeds, ``fast.play_games`` must give the same books per
seat, asks and winners as ``simulate.play_game_readable`` (``Game`` driven by ``strategies``) in
every game: thousands of games per preset, 2-6 players, and the variants it supports.
"""
from __future__ import annotations

import numpy as np
import pytest

from gofish_teach import Game, Rules, fast
from gofish_teach.fast import GameTooLong, play_games, supports
from gofish_teach.simulate import deck_cards, play_game_readable

PRESETS = ("family", "pond", "bicycle", "classic")
LINEUPS = (  # by seat; cut to the player count
    ("memory", "random", "random", "random", "random", "random"),
    ("random", "memory", "most_held", "random", "memory", "most_held"),
    ("most_held", "random", "memory", "memory", "random", "random"),
    ("random",) * 6,
    ("memory",) * 6,
)


def inputs(rules: Rules, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    decks = rng.permuted(np.broadcast_to(np.arange(rules.deck_size, dtype=np.int8), (games, rules.deck_size)), axis=1)
    return decks, rng.integers(0, 2**64, size=games, dtype=np.uint64)


def assert_agree(lineup, rules, decks, seeds) -> None:
    out = play_games(lineup, rules, decks, seeds)
    for g in range(len(decks)):
        ref = play_game_readable(lineup, rules, decks[g], int(seeds[g]))
        got = {key: out[key][g] for key in ref}
        assert (got["books"] == ref["books"]).all() and got["asks"] == ref["asks"] \
            and (got["winners"] == ref["winners"]).all(), \
            f"game {g} ({rules.name}, lineup {lineup}, seed {seeds[g]}): fast {got} != readable {ref}"


# --------------------------------------------------------------------------- NumPy's generator, compiled
def test_the_compiled_generator_draws_numpys_doubles():
    seeds = np.concatenate([
        np.array([0, 1, 2, 42, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**63, 2**64 - 2, 2**64 - 1], dtype=np.uint64),
        np.random.default_rng(0).integers(0, 2**64, size=300, dtype=np.uint64),
        np.arange(100, dtype=np.uint64),
    ])
    expected = np.stack([np.random.default_rng(int(s)).random(12) for s in seeds])
    assert (fast.random_doubles(seeds, 12) == expected).all()  # bit for bit, not approximately


# --------------------------------------------------------------------------- exact agreement
@pytest.mark.parametrize("preset", PRESETS)
def test_fast_and_readable_play_the_same_games(preset):
    rules = Rules.preset(preset)
    counts = range(2, rules.max_players + 1)
    per_count = 3000 // len(counts)  # 3000 games per preset
    for n in counts:
        for k, lineup in enumerate(LINEUPS):
            decks, seeds = inputs(rules, per_count // len(LINEUPS), seed=100 * n + k)
            assert_agree(lineup[:n], rules, decks, seeds)


# With teams, partners may end up holding all that is left of the ranks the deterministic
# choices (memory's fallback, most_held) keep asking for, and such games never end (see
# test_games_without_end_stall_in_both_engines); those variants use seats that ask at random.
RANDOMISH = (("memory", "random", "random", "random", "random", "random"), ("random",) * 6)
VARIANTS = [
    ("pond", dict(bluff=True), (2, 4, 6), LINEUPS[:3]),
    ("family", dict(book_size=2), (2, 3, 5), LINEUPS[:3]),
    ("bicycle", dict(book_size=2), (4,), LINEUPS[:3]),
    ("classic", dict(teams=True), (4, 6), LINEUPS[:3]),
    ("classic", dict(teams=True, bluff=True), (4,), LINEUPS[:3]),
    ("pond", dict(teams=True), (4, 6), RANDOMISH),
    ("bicycle", dict(teams=True, book_size=2), (4,), RANDOMISH),
    ("family", dict(teams=True), (4, 6), RANDOMISH),
    ("family", dict(n_ranks=4, hand_size=3), (2, 3, 4, 5), LINEUPS[:3]),
    ("pond", dict(n_ranks=5, hand_size=2), (2, 3, 6), LINEUPS[:3]),
    ("bicycle", dict(n_ranks=2, hand_size=1), (2, 3), LINEUPS[:3]),
    ("classic", dict(hand_size=9), (2, 5), LINEUPS[:3]),
]


@pytest.mark.parametrize("preset, changes, counts, lineups", VARIANTS)
def test_the_variants_it_supports_agree_too(preset, changes, counts, lineups):
    rules = Rules.preset(preset).replace(**changes)
    for n in counts:
        for k, lineup in enumerate(lineups):
            decks, seeds = inputs(rules, 40, seed=10 * n + k)
            assert_agree(lineup[:n], rules, decks, seeds)


def test_games_without_end_stall_in_both_engines():
    # Partners hold the rest of the ranks everyone keeps asking for: both engines must stop
    # these games at max_asks, and play the others to the same end.
    rules, lineup = Rules.preset("pond").replace(teams=True), ("random", "memory", "most_held", "random")
    decks, seeds = inputs(rules, 24, seed=5)
    stalled = 0
    for g in range(len(decks)):
        try:
            out = play_games(lineup, rules, decks[g:g + 1], seeds[g:g + 1], max_asks=300)
        except GameTooLong:
            stalled += 1
            with pytest.raises(GameTooLong):
                play_game_readable(lineup, rules, decks[g], int(seeds[g]), max_asks=300)
        else:
            ref = play_game_readable(lineup, rules, decks[g], int(seeds[g]))
            assert (out["books"][0] == ref["books"]).all() and out["asks"][0] == ref["asks"]
    assert 0 < stalled < len(decks)


def test_a_game_that_reaches_max_asks_stops_in_both_engines():
    rules, lineup = Rules.preset("pond"), ("memory", "random", "most_held")
    decks, seeds = inputs(rules, 5, seed=5)
    asks = play_games(lineup, rules, decks, seeds)["asks"]
    cap = int(asks[3])  # game 3 needs exactly this many asks; game 4 may need fewer
    with pytest.raises(GameTooLong, match=rf"^decks\[\d\]: the game passed max_asks={cap - 1} asks without ending"):
        play_games(lineup, rules, decks, seeds, max_asks=cap - 1)
    assert (play_games(lineup, rules, decks[3:4], seeds[3:4], max_asks=cap)["asks"] == cap).all()
    with pytest.raises(GameTooLong):
        play_game_readable(lineup, rules, decks[3], int(seeds[3]), max_asks=cap - 1)
    assert play_game_readable(lineup, rules, decks[3], int(seeds[3]), max_asks=cap)["asks"] == cap


# --------------------------------------------------------------------------- batches
def test_results_do_not_depend_on_batching_or_dtypes():
    rules, lineup = Rules.preset("bicycle"), ("memory", "random", "most_held")
    decks, seeds = inputs(rules, 300, seed=1)
    whole = play_games(lineup, rules, decks, seeds)
    parts = [play_games(lineup, rules, decks[a:b], seeds[a:b]) for a, b in [(0, 1), (1, 170), (170, 300)]]
    again = play_games(lineup, rules, decks.astype(np.int64), seeds)
    for key in whole:
        assert (np.concatenate([p[key] for p in parts]) == whole[key]).all()
        assert (again[key] == whole[key]).all()
    assert whole["books"].dtype.kind == "i" and whole["asks"].shape == (300,) and whole["winners"].dtype == bool


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
    seeds = np.arange(20)
    out = play_games(("random", "memory"), rules, decks, seeds)
    ref = play_game_readable(("random", "memory"), rules, decks[7], 7)
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
    with pytest.raises(ValueError, match="seeds: expected 3 integer seeds"):
        play_games(lineup, rules, decks, seeds[:2])
    with pytest.raises(ValueError, match="seeds: must be non-negative"):
        play_games(lineup, rules, decks, np.array([1, -1, 2]))
