"""The teacher's command line: ``python -m gofish_teach simulate ...`` (or ``gofish-teach simulate ...``).

>>> main(["simulate", "--rules", "family", "--lineup", "memory,random", "--games", "20", "--seed", "1"])
... # doctest: +ELLIPSIS
memory vs random: family rules, 2 players, 20 games, seed 1 (seats rotate every game)
#  strategy  win share  95% interval
0  memory    ...
1  random    ...
A k-way tie counts 1/k. Mean game length: ... asks (sd ...).
...
"""
from __future__ import annotations

import argparse
import sys

from .rules import PRESETS
from .simulate import simulate
from .stats import game_length, win_share
from .strategies import STRATEGIES

EXAMPLE = "python -m gofish_teach simulate --rules pond --players 4 --lineup memory,random,random,random --games 100000"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m gofish_teach",
        description="Go Fish for the classroom: play many games between strategies and report who wins.",
        epilog=f"Example:\n  {EXAMPLE}\n\nRun 'python -m gofish_teach simulate --help' for every option.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    sim = commands.add_parser(
        "simulate", help="play a tournament and print each strategy's win share",
        description="Play many games and print one row per lineup entry: its win share (a k-way tie counts 1/k) "
                    "with a 95% Wilson interval, plus the mean game length. Seats rotate from game to game, and "
                    "the same seed deals the same decks to any lineup, so runs can be compared fairly.",
        epilog=f"Strategies: {', '.join(STRATEGIES)}.\nRule sets: {', '.join(PRESETS)}.\n\n"
               f"Example:\n  {EXAMPLE}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sim.add_argument("--rules", default="pond", choices=list(PRESETS), metavar="NAME",
                     help=f"rule set: {', '.join(PRESETS)} (default: pond)")
    sim.add_argument("--lineup", default=None, metavar="S,S,...",
                     help="comma-separated strategies, one per seat, e.g. memory,random,random,random "
                          "(default: random in every seat)")
    sim.add_argument("--players", type=int, default=None, metavar="N",
                     help="number of players (default: the length of --lineup, or 4)")
    sim.add_argument("--games", type=int, default=10_000, metavar="N", help="games to play (default: 10000)")
    sim.add_argument("--seed", type=int, default=0, metavar="N",
                     help="the same seed deals the same decks, whatever the lineup (default: 0)")
    sim.add_argument("--workers", type=int, default=None, metavar="N",
                     help="processes to use (default: one per core; 1 plays in this process)")
    sim.add_argument("--by-seat", action="store_true", help="also print the win share of each seat")
    return parser


def run_simulate(args, out) -> None:
    lineup = args.lineup.split(",") if args.lineup else ["random"] * (args.players or 4)
    lineup = [s.strip() for s in lineup]
    res = simulate(lineup, args.rules, args.games, args.seed, n_players=args.players, workers=args.workers,
                   progress=sys.stderr.isatty())
    length = game_length(res)
    versus = " vs ".join(dict.fromkeys(res.lineup)) if len(set(res.lineup)) > 1 else f"all {res.lineup[0]}"
    print(f"{versus}: {res.rules.name} rules, {res.n_players} players, {res.games:,} games, seed {res.seed} "
          f"(seats rotate every game)", file=out)
    for table in [win_share(res)] + ([win_share(res, by="seat")] if args.by_seat else []):
        print(table.table(), file=out)
    print(f"A k-way tie counts 1/k. Mean game length: {length.mean:.1f} asks (sd {length.sd:.1f}).", file=out)
    print(f"Took {res.seconds:.1f} s ({res.engine} engine).", file=out)


def main(argv=None, out=None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    out = out or sys.stdout
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(out)
        return 0
    try:
        run_simulate(args, out)
    except ValueError as e:
        parser.exit(2, f"{parser.prog} simulate: error: {e}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
