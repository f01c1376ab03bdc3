"""The ``tournament`` command of ``python -m gofish_teach``: its options, and the run they ask for."""
from __future__ import annotations

import os
import sys

from .. import trust
from .round_robin import BUILTINS, MAX_TABLES, MEMORY_MB, TIME_LIMIT, Stopped, plan_tournament, play_tournament
from .secret import read_seed, write_seed

#: Where the run's secret seed is kept unless ``--seed-file`` says: beside the plot.
SEED_FILE = "tournament-seed.txt"


def add_command(commands) -> None:
    """The ``tournament`` subcommand of ``python -m gofish_teach``."""
    import argparse

    parser = commands.add_parser(
        "tournament", help="a class tournament of the learners' strategies (runs their code, sandboxed)",
        description="Every .py file in STRATEGIES_DIR (one per learner, defining strategy(view, rng)) plays a "
                    "round robin against the others and some built-in strategies. At every table each entry "
                    "runs in a fresh sandbox of its own (bubblewrap: no network, no other process, no file of "
                    "yours) with a time limit per decision and a memory limit; one that crashes, asks "
                    "illegally, runs out of time or leaves a process running forfeits its games. Prints a "
                    "leaderboard with 95% intervals and writes a plot.",
        epilog="Example:\n  python -m gofish_teach tournament strategies/ --rules pond --players 4 --games 20\n"
               "On a Dask cluster (each entry runs sandboxed on the worker that plays its table):\n"
               "  python -m gofish_teach tournament strategies/ --games 20 --scheduler tcp://HOST:8786",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    parser.set_defaults(run=run_from_args)


def add_arguments(parser) -> None:
    """The ``tournament`` subcommand's options."""
    from ..rules import PRESETS

    parser.add_argument("folder", metavar="STRATEGIES_DIR", help="a folder of .py files, one per learner, each "
                        "defining strategy(view, rng)")
    parser.add_argument("--rules", default="pond", choices=list(PRESETS), metavar="NAME",
                        help=f"rule set: {', '.join(PRESETS)} (default: pond)")
    parser.add_argument("--players", type=int, default=4, metavar="N", help="players per table (default: 4)")
    parser.add_argument("--games", type=int, default=10, metavar="N", help="games per table (default: 10)")
    parser.add_argument("--builtins", default=",".join(BUILTINS), metavar="S,S,...",
                        help=f"built-in strategies that join (default: {','.join(BUILTINS)}; '' for none)")
    parser.add_argument("--time-limit", type=float, default=TIME_LIMIT, metavar="SECONDS",
                        help=f"time per decision (default: {TIME_LIMIT:g})")
    parser.add_argument("--memory-mb", type=int, default=MEMORY_MB, metavar="MB",
                        help=f"memory per entry (default: {MEMORY_MB})")
    parser.add_argument("--max-tables", type=int, default=MAX_TABLES, metavar="N",
                        help=f"at most this many tables (default: {MAX_TABLES})")
    parser.add_argument("--seed", type=int, default=None, metavar="N",
                        help="the same N plays the same tournament again on this account (N is mixed with a key "
                             "readable by this account only, so no entry can work out the decks even from a small "
                             "N; default: a fresh secret each run)")
    parser.add_argument("--seed-file", default=None, metavar="PATH",
                        help="where the run's secret seed is kept, readable by you only (default: "
                             f"{SEED_FILE} beside the plot); it is never printed")
    parser.add_argument("--replay", default=None, metavar="PATH",
                        help="play again the tournament whose seed PATH holds (the --seed-file of an earlier run)")
    parser.add_argument("--sandbox", default="require", choices=list(trust.MODES),
                        help="require (the default): every entry in bubblewrap, and refuse to run without it; "
                             "off: no sandbox (only on a machine that holds nothing else); auto means require")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="tables played at once (default: two per core)")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="play the tables on a Dask cluster: the address of its scheduler, e.g. "
                             "tcp://HOST:8786 (every worker needs this kit installed, the same version, and "
                             "bubblewrap, unless --sandbox off)")
    parser.add_argument("--plot", default="tournament.png", metavar="PATH",
                        help="where to write the plot (default: tournament.png)")


def run_from_args(args, out) -> None:
    """Run the tournament the options ask for; Ctrl-C stops it at once, with a one-line message
    (exit status 130) and no traceback, and so do SIGTERM and SIGHUP (143, 129): every sandbox, cgroup
    and temporary folder goes with it."""
    try:
        with trust.stopping_signals():
            _run(args, out)
    except KeyboardInterrupt:  # before the tables (planning, connecting): nothing ran yet
        trust.interrupt()
        print(f"tournament: stopped ({trust.stop_word()}) before any table was played", file=sys.stderr)
        raise SystemExit(trust.stop_status()) from None


def _run(args, out) -> None:
    from ..simulate import dask_client

    builtins = [s.strip() for s in args.builtins.split(",") if s.strip()]
    if args.replay is not None and args.seed is not None:
        raise ValueError("--seed and --replay: give one (--replay plays again the tournament its file's seed made)")
    # Every option checked before connecting to a cluster: a mistake is said at once.
    plan = plan_tournament(args.folder, args.rules, players=args.players, games=args.games, builtins=builtins,
                           time_limit=args.time_limit, memory_mb=args.memory_mb, seed=args.seed,
                           max_tables=args.max_tables, sandbox=args.sandbox, jobs=args.jobs,
                           elsewhere=args.scheduler is not None,
                           secret=read_seed(args.replay) if args.replay is not None else None)
    seed_file = args.seed_file if args.seed_file is not None else os.path.join(os.path.dirname(args.plot), SEED_FILE)
    try:
        kept = write_seed(seed_file, plan.result.seed)
    except OSError as e:
        raise ValueError(f"--seed-file: {seed_file} cannot be written ({e.strerror or type(e).__name__})") from None
    try:
        with dask_client(args.scheduler) as client:
            result = play_tournament(plan, client, progress=sys.stderr.isatty())
    except trust.SandboxUnavailable as e:
        raise ValueError(str(e)) from None
    except Stopped as e:
        print(f"tournament: {e}", file=sys.stderr)
        raise SystemExit(trust.stop_status()) from None
    print(result.leaderboard(), file=out)
    result.plot(args.plot)
    print(f"Plot: {args.plot}. Took {result.seconds:.1f} s. The seed is in {kept} (readable by you only; keep it "
          f"from the class): --replay {kept} plays this tournament again.", file=out)
