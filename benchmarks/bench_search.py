"""The search bot of issue 37 against ``memory``, on common decks (a section of ``make bench``).

Two tournaments with the same seed, so the same decks and seat rotation: the search bot with
three ``memory`` bots, and ``memory`` with three ``memory`` bots. Lineup entry 0 is the bot
in one and ``memory`` in the other, in the same seats of the same deals, so the per-deal
difference of their win shares is a paired comparison (:func:`gofish_teach.stats.paired_test`),
with the luck of the deal taken out. The time of every search decision is kept (in this
process: ``workers=1``), as CPU time and on the clock; the goal of 200 ms is judged on the
99th percentile of CPU time (the clock on a shared machine says more about the load). The verdict can go either way: "beats memory" only when the paired interval lies
above zero.

Run alone: ``python -m benchmarks.bench_search [--games N] [--samples K]``.
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np

GOAL_MS = 200
GAMES, QUICK_GAMES = 400, 4
SAMPLES = 192


class Timed:
    """A search bot that keeps the time of each of its decisions (milliseconds): on the clock
    (``wall``) and the CPU time of its thread (``cpu``), which other work on a shared machine
    barely changes, so that the goal is judged on what a decision costs, not on the load."""

    def __init__(self, bot):
        self.bot, self.wall, self.cpu = bot, [], []

    def choose(self, view, rng):
        wall, cpu = time.perf_counter(), time.thread_time()
        ask = self.bot.choose(view, rng)
        self.cpu.append((time.thread_time() - cpu) * 1000)
        self.wall.append((time.perf_counter() - wall) * 1000)
        return ask


def measure(games: int, samples: int = SAMPLES, seed: int = 37, rules: str = "pond", players: int = 4) -> dict:
    """Both tournaments of ``games`` deals; the paired test and the decision times."""
    from gofish_teach import Game
    from gofish_teach.bestplay.search import SearchBot
    from gofish_teach.simulate import simulate
    from gofish_teach.stats import paired_test

    timed = Timed(SearchBot(samples=samples, seed=seed))
    timed.choose(Game(rules, players, seed=seed).view(0), None)  # numba loads the compiled rollouts: not a decision
    timed.wall.clear(), timed.cpu.clear()
    start, load = time.perf_counter(), os.getloadavg()[0]
    searched = simulate([timed] + ["memory"] * (players - 1), rules, games, seed=seed, workers=1)
    seconds = time.perf_counter() - start
    base = simulate(["memory"] * players, rules, games, seed=seed, workers=1)
    test = paired_test(searched, base)
    cpu, wall = np.array(timed.cpu), np.array(timed.wall)
    load = max(load, os.getloadavg()[0])
    return dict(games=games, samples=samples, players=players, rules=rules, test=test,
                bot=test.share_a, memory=test.share_b, diff=test.difference, low=test.low, high=test.high,
                p=test.pvalue, decisions=len(cpu), median_ms=float(np.median(cpu)),
                p99_ms=float(np.percentile(cpu, 99)), max_ms=float(cpu.max()), wall_median_ms=float(np.median(wall)),
                wall_p99_ms=float(np.percentile(wall, 99)), load=load, seconds=seconds)


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
        f"search bot CPU time per decision: median {r['median_ms']:.0f} ms, 99th percentile {r['p99_ms']:.0f} ms, "
        f"longest {r['max_ms']:.0f} ms over {r['decisions']:,} decisions{goal}; on the clock median "
        f"{r['wall_median_ms']:.0f} ms, 99th percentile {r['wall_p99_ms']:.0f} ms at load average {r['load']:.1f} "
        f"on {os.cpu_count()} cores ({r['seconds']:.0f} s for its games, one process)",
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
