"""The opponent-model bot of issue 45 against every lineup, on common decks (a section of ``make bench``).

For each lineup of three opponents, tournaments with the same seed (so the same decks and seat
rotation): the opponent-model bot (:class:`~gofish_teach.bestplay.modelbot.OpponentModelBot`, told
nothing about who sits where) with the lineup, and ``memory`` with the lineup. Lineup entry 0 is the
bot in one and ``memory`` in the other, in the same seats of the same deals, so the per-deal
difference of their win shares is a paired comparison (:func:`gofish_teach.stats.paired_test`). The
lineups: three ``memory``, three ``random``, three ``most_held``, three ``greedy``, two mixed ones, and
three search bots with a fixed model of the others (``SearchBot(others="memory")``, with 64 deals a
decision rather than 192: three of them at every table make the run three times longer). Then, on the
mixed lineup ``memory, random, most_held``, where no fixed model is right for every seat, the bot
against ``SearchBot(others=X)`` for each fixed ``X``, paired the same way: does learning the others
beat being told one answer for all of them?

The processor time of every decision of the bot is kept (``workers=1``: in this process); the goal
is 200 ms at the median. A verdict can go either way: "beats" only when the paired interval lies
above zero.

Run alone: ``python -m benchmarks.bench_opponents [--games N] [--lineups NAME ...]`` (``--list`` names them).
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np

from benchmarks.bench_search import Timed

GOAL_MS = 200
GAMES, QUICK_GAMES = 400, 3
SEED = 45


def lineups() -> dict:
    """The lineups of three opponents, by name (the search bots made here: they are objects)."""
    from gofish_teach.bestplay.search import SearchBot

    fixed = SearchBot(seed=7, samples=64)  # three of them at every table: 64 deals a decision keeps the run to hours
    return {"memory x3": ["memory"] * 3, "random x3": ["random"] * 3, "most_held x3": ["most_held"] * 3,
            "greedy x3": ["greedy"] * 3, "memory, random, most_held": ["memory", "random", "most_held"],
            "greedy, most_held, random": ["greedy", "most_held", "random"],
            "SearchBot(others='memory', samples=64) x3": [fixed] * 3}


#: The baselines of the second table, on the mixed lineup: the search bot told one model for all the others.
FIXED = ("memory", "random", "most_held")
MIXED = "memory, random, most_held"


def play_bot(lineup, games: int, seed: int = SEED, rules: str = "pond") -> dict:
    """The bot in lineup entry 0 with ``lineup`` on ``games`` decks: the results, and its processor time per decision."""
    from gofish_teach import Game
    from gofish_teach.bestplay.modelbot import OpponentModelBot
    from gofish_teach.simulate import simulate

    timed = Timed(OpponentModelBot(seed=seed))
    timed.choose(Game(rules, 4, seed=seed).view(0), None)  # numba loads the compiled rollouts: not a decision
    timed.wall.clear(), timed.cpu.clear()
    start, load = time.perf_counter(), os.getloadavg()[0]
    results = simulate([timed] + list(lineup), rules, games, seed=seed, workers=1)
    cpu = np.array(timed.cpu)
    return dict(results=results, decisions=len(cpu), median_ms=float(np.median(cpu)),
                p99_ms=float(np.percentile(cpu, 99)), seconds=time.perf_counter() - start,
                load=max(load, os.getloadavg()[0]))


def compare(name: str, lineup, ours: dict, baseline="memory", label: str = "memory", seed: int = SEED,
            rules: str = "pond") -> dict:
    """The bot's run ``ours`` against ``baseline`` in the same lineup entry, seats and decks: the paired test."""
    from gofish_teach.simulate import simulate
    from gofish_teach.stats import paired_test

    games = ours["results"].games
    test = paired_test(ours["results"], simulate([baseline] + list(lineup), rules, games, seed=seed, workers=1))
    return dict(ours, name=name, games=games, baseline=label, test=test, bot=test.share_a, other=test.share_b,
                diff=test.difference, low=test.low, high=test.high, p=test.pvalue)


def compare_fixed(lineup, games: int, others: str, seed: int = SEED, rules: str = "pond") -> dict:
    """``SearchBot(others=...)`` against ``memory`` in lineup entry 0 with ``lineup``, paired; its time per decision."""
    from gofish_teach import Game
    from gofish_teach.bestplay.search import SearchBot
    from gofish_teach.simulate import simulate

    timed = Timed(SearchBot(seed=seed, others=others))
    timed.choose(Game(rules, 4, seed=seed).view(0), None)
    timed.wall.clear(), timed.cpu.clear()
    start, load = time.perf_counter(), os.getloadavg()[0]
    results = simulate([timed] + list(lineup), rules, games, seed=seed, workers=1)
    cpu = np.array(timed.cpu)
    run = dict(results=results, decisions=len(cpu), median_ms=float(np.median(cpu)),
               p99_ms=float(np.percentile(cpu, 99)), seconds=time.perf_counter() - start,
               load=max(load, os.getloadavg()[0]))
    return dict(compare(f"SearchBot(others='{others}')", lineup, run, seed=seed, rules=rules), name=f"SearchBot(others='{others}')")


def verdict(r: dict, quick: bool) -> str:
    if quick:
        return "(quick run, too few deals to tell)"
    if r["low"] > 0:
        return "beats it (the paired interval lies above 0)"
    if r["high"] < 0:
        return "loses (the paired interval lies below 0)"
    return "no clear difference (the paired interval holds 0): NOT beaten"


def describe(r: dict, quick: bool = False) -> str:
    return (f"  {r['name']:<32} vs {r['baseline']:<28} win share {r['bot']:.3f} vs {r['other']:.3f}, paired "
            f"difference {r['diff']:+.3f} (95% interval [{r['low']:+.3f}, {r['high']:+.3f}], p = {r['p']:.2g}): "
            f"{verdict(r, quick)}; {r['median_ms']:.0f} ms a decision (median; 99th percentile "
            f"{r['p99_ms']:.0f} ms), {r['seconds']:.0f} s, load {r['load']:.1f}")


class _Lines(list):
    """The section's lines, each also printed as it comes when ``echo`` (a run takes hours: see them arrive)."""

    def __init__(self, echo):
        super().__init__()
        self.echo = echo

    def append(self, line: str) -> None:
        super().append(line)
        if self.echo:
            print(line, flush=True)


def bench_opponents(quick: bool, games: int | None = None, names=None, echo: bool = False) -> list[str]:
    """Both tables: the bot against every lineup (baseline memory), and against the fixed-model search bots."""
    from gofish_teach.bestplay.search import SearchBot

    games = games or (QUICK_GAMES if quick else GAMES)
    every = lineups()
    chosen = [n for n in every if names is None or n in names]
    lines = _Lines(echo)
    lines.append(f"The opponent-model bot (OpponentModelBot(), told nothing of the others) in one seat of pond with 4 "
                 f"players, {games} common decks per lineup, seats rotated; paired against memory in that seat:")
    rows, runs = [], {}
    for name in chosen:
        runs[name] = play_bot(every[name], games)
        rows.append(compare(name, every[name], runs[name]))
        lines.append(describe(rows[-1], quick))
    if MIXED in runs:
        lines.append(f"The same bot against the search bot told one model for all three others, on '{MIXED}':")
        for others in FIXED:
            rows.append(compare(MIXED, every[MIXED], runs[MIXED], SearchBot(seed=SEED, others=others),
                                f"SearchBot(others='{others}')"))
            lines.append(describe(rows[-1], quick))
    wrong = []
    if "random x3" in chosen:
        lines.append("What a model costs: the search bot told one model, on 'random x3', paired against memory:")
        for others in ("memory", "random"):
            wrong.append(compare_fixed(every["random x3"], games, others))
            lines.append(describe(wrong[-1], quick))
    cpu = [r["median_ms"] for r in rows]
    beaten = sum(r["low"] > 0 for r in rows)
    goal = "met" if max(cpu) < GOAL_MS else "not met"
    lines.append(f"  paired lower bounds above 0: {beaten} of {len(rows)}; processor time per decision, median, "
                 f"{min(cpu):.0f}-{max(cpu):.0f} ms across the runs (goal {GOAL_MS} ms: {goal}); {os.cpu_count()} cores")
    return list(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_opponents", description=__doc__)
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--lineups", nargs="*", metavar="NAME", help="only these lineups (default: all)")
    parser.add_argument("--list", action="store_true", help="name the lineups and stop")
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(lineups()))
        return
    bench_opponents(False, args.games, args.lineups, echo=True)


if __name__ == "__main__":
    main()
