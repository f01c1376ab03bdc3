"""The class tournament's time (issue 34), a section of ``make bench``.

Run alone: ``python -m gofish_teach.tournament.speed`` prints the same figures.
"""
from __future__ import annotations


def bench_tournament(quick: bool) -> list[str]:
    """The class tournament of issue 34: 30 honest entries, 200 tables x 5 games at 4 players, sandboxed
    (a fresh sandbox per entry per table). Goal: under 40 s on a 2-core machine. Needs bubblewrap."""
    from gofish_teach import trust
    from gofish_teach.tournament.speed import describe, tournament_bench

    if trust.bwrap_path() is None:
        return ["class tournament: not timed (no bubblewrap: apt-get install bubblewrap)"]
    figures = tournament_bench(entries=4 if quick else 30, max_tables=10 if quick else 200)
    goal = "" if quick else f"; goal 40 s: {'met' if figures['seconds'] < 40 else 'not met'}"
    return [describe(figures) + goal]
