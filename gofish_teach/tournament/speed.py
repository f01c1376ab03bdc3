"""How long a class tournament takes: :func:`tournament_bench`, for ``make bench`` and the README's figure.

The issue's case (34): 30 learners' entries, each an honest strategy that asks at random among
its legal asks, with the three default built-ins, 4 players a table, 200 tables x 5 games
(1,000 games), the sandbox on (``require``). It reports the wall-clock time with the machine's
load before and after (a busy machine is slower: say so with the figure), the processor time
of this process and of the entries' processes (each waited for, so the system counts it), and a digest of the leaderboard, which must be the same for the same seed
however the run is shared out.

``python -m gofish_teach.tournament.speed`` prints one line; ``--entries``, ``--games``,
``--max-tables``, ``--players``, ``--sandbox`` and ``--jobs`` change the case.
"""
from __future__ import annotations

import hashlib
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

#: The honest entry of the measurement: a random legal ask.
RANDOM_ENTRY = ("def strategy(view, rng):\n"
                "    asks = view.legal_asks()\n"
                "    return asks[int(rng.integers(len(asks)))]\n")


def tournament_bench(entries: int = 30, players: int = 4, games: int = 5, max_tables: int = 200, seed: int = 3,
                     sandbox: str = "require", jobs: int | None = None) -> dict:
    """Play the measured tournament once; its figures as a dict (see the module's docstring)."""
    from . import forkserver, run_tournament

    with tempfile.TemporaryDirectory(prefix="gofish-bench-") as folder:
        for k in range(entries):
            Path(folder, f"l{k + 1:02d}.py").write_text(RANDOM_ENTRY)
        load = os.getloadavg()[0]
        before = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
        forked_before = forkserver.CPU_SECONDS
        start = time.monotonic()
        result = run_tournament(folder, "pond", players=players, games=games, max_tables=max_tables, seed=seed,
                                sandbox=sandbox, jobs=jobs)
        seconds = time.monotonic() - start
        after = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    used = [(a.ru_utime + a.ru_stime) - (b.ru_utime + b.ru_stime) for a, b in zip(after, before, strict=True)]
    used[1] += forkserver.CPU_SECONDS - forked_before  # the fork server and the entries it forked
    board = result.leaderboard()
    return {"seconds": seconds, "tables": len(result.tables), "games": len(result.tables) * games,
            "entrants": len(result.entrants), "sandbox": sandbox, "load_before": load, "load_after": os.getloadavg()[0],
            "cpu_seconds_here": used[0], "cpu_seconds_children": used[1],
            "forfeits": sum(e.status != "ok" for e in result.entrants),
            "leaderboard_digest": hashlib.sha256(board.encode()).hexdigest()[:16], "cores": os.cpu_count()}


def describe(figures: dict) -> str:
    """One line: what was played, how long it took, and on what load."""
    return (f"class tournament: {figures['entrants']} entrants, {figures['tables']} tables x "
            f"{figures['games'] // max(figures['tables'], 1)} games ({figures['games']:,} games), sandbox "
            f"{figures['sandbox']}: {figures['seconds']:.1f} s on {figures['cores']} cores (load average "
            f"{figures['load_before']:.1f} before, {figures['load_after']:.1f} after; processor time "
            f"{figures['cpu_seconds_here']:.1f} s here, {figures['cpu_seconds_children']:.1f} s in the entries' processes "
            f"and sandboxes counted by the system), {figures['forfeits']} forfeits, leaderboard "
            f"{figures['leaderboard_digest']}")


def main(argv=None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m gofish_teach.tournament.speed", description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=30)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--max-tables", type=int, default=200)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--sandbox", default="require")
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args(argv)
    print(describe(tournament_bench(args.entries, args.players, args.games, args.max_tables, args.seed, args.sandbox,
                                    args.jobs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
