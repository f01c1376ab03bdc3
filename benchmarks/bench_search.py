"""The search bot of issue 37 against ``memory``, on common decks (a section of ``make bench``).

Two tournaments with the same seed, so the same decks and seat rotation: the search bot with
three ``memory`` bots, and ``memory`` with three ``memory`` bots. Lineup entry 0 is the bot
in one and ``memory`` in the other, in the same seats of the same deals, so the per-deal
difference of their win shares is a paired comparison (:func:`gofish_teach.stats.paired_test`),
with the luck of the deal taken out. The time of every search decision is kept (in this
process: ``workers=1``), and reported as its median and 99th percentile against the goal of
200 ms. The verdict can go either way: "beats memory" only when the paired interval lies
above zero.

Run alone: ``python -m benchmarks.bench_search [--games N] [--samples K]``.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

GOAL_MS = 200
GAMES, QUICK_GAMES = 400, 4
SAMPLES = 48


class Timed:
    """A search bot that keeps the time of each of its decisions (milliseconds)."""

    def __init__(self, bot):
        self.bot, self.ms = bot, []

    def choose(self, view, rng):
        start = time.perf_counter()
        ask = self.bot.choose(view, rng)
        self.ms.append((time.perf_counter() - start) * 1000)
        return ask


def measure(games: int, samples: int = SAMPLES, seed: int = 37, rules: str = "pond", players: int = 4) -> dict:
    """Both tournaments of ``games`` deals; the paired test and the decision times."""
    from gofish_teach.bestplay.search import SearchBot
    from gofish_teach.simulate import simulate
    from gofish_teach.stats import paired_test

    timed = Timed(SearchBot(samples=samples, seed=seed))
    start = time.perf_counter()
    searched = simulate([timed] + ["memory"] * (players - 1), rules, games, seed=seed, workers=1)
    seconds = time.perf_counter() - start
    base = simulate(["memory"] * players, rules, games, seed=seed, workers=1)
    test = paired_test(searched, base)
    ms = np.array(timed.ms)
    return dict(games=games, samples=samples, players=players, rules=rules, test=test,
                bot=test.share_a, memory=test.share_b, diff=test.difference, low=test.low, high=test.high,
                p=test.pvalue, decisions=len(ms), median_ms=float(np.median(ms)),
                p99_ms=float(np.percentile(ms, 99)), max_ms=float(ms.max()), seconds=seconds)


def describe(r: dict, quick: bool = False) -> list[str]:
    if r["low"] > 0:
        verdict = "beats memory (the paired interval lies above 0)"
    elif r["high"] < 0:
        verdict = "loses to memory (the paired interval lies below 0)"
    else:
        verdict = "no clear difference from memory (the paired interval holds 0)"
    goal = "" if quick else f"; goal {GOAL_MS} ms: {'met' if r['p99_ms'] < GOAL_MS else 'not met'} at the 99th percentile"
    return [
        f"search bot ({r['samples']} worlds a decision) + {r['players'] - 1} memory vs memory + {r['players'] - 1} "
        f"memory, {r['rules']}, {r['games']} common decks, seats rotated: win share {r['bot']:.3f} vs "
        f"{r['memory']:.3f}, paired difference {r['diff']:+.3f} (95% interval [{r['low']:+.3f}, {r['high']:+.3f}], "
        f"p = {r['p']:.2g}): " + ("(quick run, too few deals to tell)" if quick else verdict),
        f"search bot decision time: median {r['median_ms']:.0f} ms, 99th percentile {r['p99_ms']:.0f} ms, "
        f"longest {r['max_ms']:.0f} ms over {r['decisions']:,} decisions ({r['seconds']:.0f} s for its games, "
        f"one process){goal}",
    ]


def bench_search(quick: bool) -> list[str]:
    """The search bot's win share against ``memory`` with a paired interval, and its ms per decision."""
    return describe(measure(QUICK_GAMES if quick else GAMES), quick)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_search", description=__doc__)
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--samples", type=int, default=SAMPLES)
    parser.add_argument("--seed", type=int, default=37)
    args = parser.parse_args(argv)
    for line in describe(measure(args.games, args.samples, args.seed)):
        print(line, flush=True)


if __name__ == "__main__":
    main()
