"""The teacher's command line: ``python -m gofish_teach simulate ...`` (or ``gofish-teach simulate ...``).

Each command is a subparser added by one ``add_*`` function in :data:`COMMANDS`, which also
sets the function that runs it (``run``); :func:`main` is the one place that dispatches, and
turns a ``ValueError`` into a one-line message and exit status 2.

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

from . import bestplay, classroom, grade, quiz, tournament
from .rules import PRESETS
from .simulate import NoWorkers, dask_client, simulate
from .stats import game_length, win_share
from .strategies import STRATEGIES
from .teacher import add_answers_command, add_course_command, add_handouts_command, add_play_command

EXAMPLE = "python -m gofish_teach simulate --rules pond --players 4 --lineup memory,random,random,random --games 100000"


def add_simulate(commands) -> None:
    """The ``simulate`` command: a tournament, and each strategy's win share."""
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
    sim.add_argument("--scheduler", default=None, metavar="ADDRESS",
                     help="play on a Dask cluster: the address of its scheduler, e.g. tcp://HOST:8786 "
                          "(its workers need this kit installed, the same version)")
    sim.add_argument("--by-seat", action="store_true", help="also print the win share of each seat")
    sim.set_defaults(run=run_simulate)


#: The commands, each added to the parser by its function (which sets ``run``).
COMMANDS = [add_simulate, grade.add_command, tournament.add_command, add_course_command, add_play_command,
            add_handouts_command, quiz.add_command, add_answers_command, bestplay.add_command,
            classroom.add_command]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m gofish_teach",
        description="Go Fish for the classroom: play many games between strategies and report who wins.",
        epilog=f"Example:\n  {EXAMPLE}\n\nRun 'python -m gofish_teach COMMAND --help' for every option of a command.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add in COMMANDS:
        add(commands)
    return parser


def lineup_option(text: str | None, players: int | None, rules: str) -> list[str]:
    """``--lineup`` and ``--players`` read together: one strategy name per seat.

    >>> lineup_option("memory, random", None, "pond"), lineup_option(None, 3, "pond")
    (['memory', 'random'], ['random', 'random', 'random'])
    >>> lineup_option("", None, "pond")
    Traceback (most recent call last):
    ...
    ValueError: --lineup is empty: give one strategy per seat, separated by commas, e.g. memory,random,random,random
    >>> lineup_option(None, 0, "family")
    Traceback (most recent call last):
    ...
    ValueError: --players: the family rules are for 2 to 6 players, not 0
    """
    if players is not None:
        low, high = PRESETS[rules].min_players, PRESETS[rules].max_players
        if not low <= players <= high:
            raise ValueError(f"--players: the {rules} rules are for {low} to {high} players, not {players}")
    if text is None:
        return ["random"] * (players or 4)
    lineup = [name.strip() for name in text.split(",")]
    if not any(lineup):
        raise ValueError("--lineup is empty: give one strategy per seat, separated by commas, "
                         "e.g. memory,random,random,random")
    if not all(lineup):
        raise ValueError(f"--lineup: entry {lineup.index('') + 1} of {text!r} is empty: "
                         "give one strategy per seat, separated by commas")
    return lineup


def run_simulate(args, out) -> None:
    lineup = lineup_option(args.lineup, args.players, args.rules)
    if args.scheduler is not None and args.workers is not None:
        raise ValueError("--workers and --scheduler: give one (a cluster's workers are its own)")
    with dask_client(args.scheduler) as client:
        res = simulate(lineup, args.rules, args.games, args.seed, n_players=args.players, workers=args.workers,
                       executor=client, progress=sys.stderr.isatty())
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
    from .trust import SandboxUnavailable

    try:
        args.run(args, out)
    except (ValueError, SandboxUnavailable) as e:
        parser.exit(2, f"{parser.prog} {args.command}: error: {e}\n")
    except NoWorkers as e:
        parser.exit(1, f"{parser.prog} {args.command}: stopped: {e}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
