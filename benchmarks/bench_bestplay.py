"""The exact best response's sizes and times (issue 37), a section of ``make bench``."""
from __future__ import annotations


def bench_bestplay(quick: bool) -> list[str]:
    """The exact best response's sizes and times (issue 37), one seat at a time. Goals: 4 ranks, 3 cards
    each, under 10 s a seat; 5 ranks (the largest hands it takes) under 2 minutes. Wall-clock and processor
    time both: the processor time is what the load of other programs does not inflate."""
    from gofish_teach.bestplay import bench

    sizes = ((3, 2),) if quick else ((3, 2), (4, 3), (5, 7))
    rows = bench(sizes=sizes, out=False)
    goals = {4: 10, 5: 120}
    lines = [f"best response, pond, {r['ranks']} ranks, {r['hand']} cards each, seat {r['seat']} vs memory: "
             f"{r['value']:.4f} (memory itself {r['builtin']:.4f}), {r['states']:,} states, {r['seconds']:.1f} s "
             f"({r['cpu']:.1f} s processor)"
             + (f"; goal {goals[r['ranks']]} s: {'met' if r['seconds'] < goals[r['ranks']] else 'not met'}"
                if r["ranks"] in goals else "")
             for r in rows]
    return lines
