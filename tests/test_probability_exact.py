"""posterior(view) equals brute force, as fractions, at every stage of many small random games.

The brute force (tests/enumerate_worlds.py) replays every deck through the real engine and
keeps those that reproduce the viewer's events; these tests compare every hidden seat's and
the ocean's count distribution for every rank, for every player, after every ask.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from enumerate_worlds import stage_counts
from gofish_teach import Game, Rules
from gofish_teach.probability import NotExact, posterior

PRESETS = ["family", "pond", "bicycle", "classic"]


def random_game(rules: Rules, n_players: int, rng) -> Game:
    game = Game(rules, n_players, seed=int(rng.integers(1 << 30)))
    while not game.is_over:
        asks = game.view(game.current_player).legal_asks()
        game.ask(*asks[int(rng.integers(len(asks)))])
    return game


def stage_view(game: Game, stage: int, player: int):
    again = Game(game.rules, game.n_players, deck=game.deck)
    for move in game.moves[:stage]:
        again.ask(*move)
    return again.view(player)


def mismatches(game: Game) -> tuple[int, list[str]]:
    """(points checked, descriptions of the points where posterior and brute force differ)."""
    checked, wrong = 0, []
    for p in range(game.n_players):
        stages = stage_counts(game, p)
        for k in range(len(game.moves) + 1):
            try:
                post = posterior(stage_view(game, k, p), fallback=False)
            except NotExact:
                continue  # beyond the exact limits (not in these small games)
            total, seats, ocean = stages[k]
            places = [(q, seats[q]) for q in seats] + [("ocean", ocean)]
            for place, by_rank in places:
                for rank, counts in by_rank.items():
                    want = {c: Fraction(n, total) for c, n in sorted(counts.items()) if n}
                    if post.count_distribution(place, rank) != want:
                        wrong.append(f"viewer {p} after {k} asks {game.moves[:k]}, {place} {rank}: "
                                     f"{post.count_distribution(place, rank)} != {want}; deck {' '.join(map(str, game.deck))}")
            checked += 1
    return checked, wrong


def run_games(preset: str, seed: int, games: int, players=(2, 3), **options) -> int:
    rng = np.random.default_rng(seed)
    checked = 0
    for _ in range(games):
        rules = Rules.preset(preset).replace(n_ranks=int(rng.integers(3, 5)), hand_size=int(rng.integers(2, 4)), **options)
        n = int(rng.choice(players))
        try:
            game = random_game(rules, n, rng)
        except ValueError:  # the deal does not fit this small deck
            continue
        points, wrong = mismatches(game)
        assert not wrong, f"{preset} {options}: " + "\n".join(wrong[:3])
        checked += points
    return checked


@pytest.mark.parametrize("preset", PRESETS)
def test_every_stage_of_small_games_matches_brute_force(preset):
    assert run_games(preset, seed=PRESETS.index(preset), games=30) > 300


@pytest.mark.parametrize("options", [{"book_size": 2}, {"bluff": True}, {"bluff": True, "book_size": 2}],
                         ids=["pairs", "bluff", "bluff-pairs"])
def test_variants_match_brute_force(options):
    for k, preset in enumerate(PRESETS):
        run_games(preset, seed=10 + k, games=6, **options)


def test_four_players_match_brute_force():
    """Three hidden hands: the joint over the ocean (the matrix-product path)."""
    for k, preset in enumerate(PRESETS):
        run_games(preset, seed=20 + k, games=3, players=(4,))


@pytest.mark.parametrize("bluff", [False, True], ids=["asks-tell", "bluff"])
def test_teams_match_brute_force_to_the_end(bluff):
    """Teams, the endgame included: with the ocean empty, play going on says some ask can still
    succeed (some rank is held on both teams), and a stalemate end says none can. (With
    bluffing, whether an ask can succeed depends only on hand sizes, which are public.)"""
    endgame = 0
    for k, preset in enumerate(PRESETS):
        rng = np.random.default_rng(30 + k + 10 * bluff)
        for _ in range(4):
            rules = Rules.preset(preset).replace(n_ranks=int(rng.integers(3, 5)), hand_size=int(rng.integers(2, 4)),
                                                 teams=True, bluff=bluff)
            game = random_game(rules, 4, rng)
            points, wrong = mismatches(game)
            assert not wrong, f"{preset} teams: " + "\n".join(wrong[:3])
            endgame += game.ocean_size == 0
    assert endgame >= 8  # most of these small games reach the endgame


def test_a_teams_stalemate_is_exact():
    """A game that ended because no ask could succeed: every rank's holders are on one team."""
    rng = np.random.default_rng(5)
    rules = Rules.preset("pond").replace(n_ranks=4, hand_size=3, teams=True)
    for _ in range(200):
        game = random_game(rules, 4, rng)
        if "ask can succeed" in game.events[-1].reason:
            break
    else:
        pytest.fail("no stalemate in 200 small team games")
    points, wrong = mismatches(game)
    assert points and not wrong, "\n".join(wrong[:3])
    post = posterior(game.view(0), fallback=False)
    assert post.exact


@pytest.mark.parametrize("n, options", [(5, {"hand_size": 2}), (6, {"hand_size": 1, "teams": True})],
                         ids=["five-players", "six-players-three-teams"])
def test_five_and_six_players_match_brute_force(n, options):
    """Four and five hidden hands; with six players in teams there are three teams."""
    rng = np.random.default_rng(40 + n)
    game = random_game(Rules.preset("pond").replace(n_ranks=4, **options), n, rng)
    if options.get("teams"):
        assert "ask can succeed" in game.events[-1].reason  # the three-team endgame is in it
    points, wrong = mismatches(game)
    assert points > 100 and not wrong, "\n".join(wrong[:3])


def test_enough_primes_even_where_the_oceans_share_shrinks_the_bound(monkeypatch):
    """Early in a big game the ocean's factor ``prod unseen!/ocean!`` is below 1, so the bound
    on the counts' bits is below the deck orders' (one prime fewer). Counted again with 64 bits
    to spare, every count is the same: the bound was not too small (CRT would have wrapped)."""
    from gofish_teach.probability import exact
    from gofish_teach.probability.history import read
    from gofish_teach.strategies import random as random_ask

    seen = 0
    for n, seed in ((6, 0), (5, 1), (4, 2)):
        game, rng = Game(Rules.preset("pond"), n, seed=seed), np.random.default_rng(seed)
        for _ in range(3):
            view = game.view(game.current_player)
            story = read(view)
            if exact.bits_needed(story) < story.log2_worlds:
                seen += 1
            tight = exact.world_counts(story, len(view.ranks), view.rules.book_size)
            with monkeypatch.context() as m:
                m.setattr(exact, "bits_needed", lambda s, bound=exact.bits_needed: bound(s) + 64)
                exact.forget()
                spare = exact.world_counts(story, len(view.ranks), view.rules.book_size)
            exact.forget()
            assert (tight.total, tight.seats, tight.ocean) == (spare.total, spare.seats, spare.ocean)
            game.ask(*random_ask(view, rng))
    assert seen >= 3  # the case this is about did come up


@pytest.mark.parametrize("n, options, seed", [(4, {"hand_size": 3, "teams": True}, 30), (5, {"hand_size": 2}, 45),
                                              (6, {"hand_size": 1, "teams": True}, 46)],
                         ids=["four-players-teams", "five-players", "six-players-three-teams"])
def test_hands_joined_in_another_order_match_brute_force(monkeypatch, n, options, seed):
    """A costly count weighs a second order of the ranks and every order of the hands
    (``exact.COMPARE_ABOVE``), then joins the hands in the order that costs least. Here every
    count does, and joins them last seat first: still the brute force's counts at every point,
    the teams' endgame (whose rule knows each hand's team) included."""
    from gofish_teach.probability import exact

    seatings = []

    def last_first(hands, unseen, ocean=None):
        seatings.append(len(hands))
        return 0, tuple(range(len(hands)))[::-1]

    monkeypatch.setattr(exact, "COMPARE_ABOVE", -1)
    monkeypatch.setattr(exact, "_cheapest", last_first)
    exact.forget()
    rng = np.random.default_rng(seed)
    game = random_game(Rules.preset("pond").replace(n_ranks=4, **options), n, rng)
    points, wrong = mismatches(game)
    exact.forget()
    assert points > 50 and not wrong, "\n".join(wrong[:3])
    assert max(seatings) == n - 1  # every other seat's hand was joined, last first
    if options.get("teams"):
        assert game.ocean_size == 0


@pytest.mark.parametrize("n, options, seed", [(3, {"hand_size": 3}, 31), (4, {"hand_size": 2}, 32),
                                              (5, {"hand_size": 2}, 45), (6, {"hand_size": 1}, 47)],
                         ids=["three-players", "four-players", "five-players", "six-players"])
def test_graded_counts_match_brute_force(monkeypatch, n, options, seed):
    """Every count that joins hands made by the graded sweep (``graded.py``: only the joined
    states whose grades fit what the ocean leaves), at every point of small games: the brute
    force's counts."""
    from gofish_teach.probability import exact

    counted = []
    real = exact.count_worlds_graded

    def graded(*args, **kwargs):
        counted.append(len(args[0]))
        return real(*args, **kwargs)

    monkeypatch.setattr(exact, "COMPARE_ABOVE", -1)  # every count is weighed,
    monkeypatch.setattr(exact, "GRADED_COST", 0)     # and the graded sweep reckoned the cheaper
    monkeypatch.setattr(exact, "GRADED_BELOW", 1.0)
    monkeypatch.setattr(exact, "count_worlds_graded", graded)
    exact.forget()
    rng = np.random.default_rng(seed)
    game = random_game(Rules.preset("pond").replace(n_ranks=4, **options), n, rng)
    points, wrong = mismatches(game)
    exact.forget()
    assert points > 30 and not wrong, "\n".join(wrong[:3])
    assert len(counted) > 10 and max(counted) == n - 1
