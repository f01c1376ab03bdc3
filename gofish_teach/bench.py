"""``make bench``: the speed figures we quote, measured in one run on this machine.

The machine is shared and noisy, so each figure is printed next to a baseline measured in
the same run (a fixed amount of plain-Python work), and the ratio is what to compare
between runs. Usage: ``python -m gofish_teach.bench [--quick]``.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from .game import Game
from .rules import Rules


def baseline_ops_per_second(seconds: float = 0.5) -> float:
    """Plain-Python work per second (a loop of dict and list operations): the yardstick."""
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        d, xs = {}, []
        for i in range(1000):
            d[i % 13] = d.get(i % 13, 0) + 1
            xs.append(i)
        n += 1000
    return n / (time.perf_counter() - start)


def _random_ask(view, rng):
    ranks = list(view.counts)
    with_cards = [q for q in view.opponents if view.hand_sizes[q]] or list(view.opponents)
    return with_cards[int(rng.integers(len(with_cards)))], ranks[int(rng.integers(len(ranks)))]


def engine_games_per_second(n_players: int, games: int, rules_name: str = "pond") -> tuple[float, float]:
    """Games per second of the readable engine under random play, and mean asks per game."""
    rules = Rules.preset(rules_name)
    rng = np.random.default_rng(0)
    asks, start = 0, time.perf_counter()
    for seed in range(games):
        game = Game(rules, n_players, seed=seed)
        while not game.is_over:
            game.ask(*_random_ask(game.view(game.current_player), rng))
        asks += game.n_asks
    return games / (time.perf_counter() - start), asks / games


def bench_engine(quick: bool) -> list[str]:
    games = 300 if quick else 2000
    lines = ["Readable engine, random play, pond (one core):"]
    for n in (2, 4):
        rate, asks = engine_games_per_second(n, games)
        lines.append(f"  {n} players: {rate:8.0f} games/s  ({asks:.1f} asks per game, {games} games)")
    return lines


SECTIONS = [bench_engine]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m gofish_teach.bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer games, for a smoke test")
    args = parser.parse_args(argv)
    base = baseline_ops_per_second()
    print(f"Baseline: {base / 1e6:.2f} M plain-Python ops/s (compare ratios between runs, not raw figures)")
    for section in SECTIONS:
        for line in section(args.quick):
            print(line)
    print(f"Baseline after: {baseline_ops_per_second() / 1e6:.2f} M ops/s")


if __name__ == "__main__":
    main()
