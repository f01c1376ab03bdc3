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
                continue  # the teams endgame: checked in test_teams_endgame_is_not_exact
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


def test_teams_match_brute_force_until_the_ocean_is_empty():
    for k, preset in enumerate(PRESETS):
        run_games(preset, seed=30 + k, games=3, players=(4,), teams=True)


def test_teams_endgame_is_not_exact():
    """With teams and an empty ocean, play going on says some ask can still succeed: a fact
    about several hands at once, which the exact model does not follow. It says so."""
    rng = np.random.default_rng(5)
    game = random_game(Rules.preset("pond").replace(n_ranks=3, hand_size=2, teams=True), 4, rng)
    assert game.ocean_size == 0
    with pytest.raises(NotExact, match="teams"):
        posterior(game.view(0), fallback=False)
    estimate = posterior(game.view(0), samples=2000)
    assert estimate.exact is False
