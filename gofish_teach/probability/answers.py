"""The questions a learner asks of what is known, answered from per-place count distributions.

:class:`Belief` holds, for every hidden place (each other seat, and the ocean) and rank, the
distribution of how many cards of that rank it holds. Every question is a short sum over
one of those distributions:

>>> from fractions import Fraction as F
>>> belief = Belief(ranks=("A", "7"), seats={1: {"A": {0: F(1, 4), 1: F(3, 4)}, "7": {2: F(1)}}},
...                 ocean={"A": {1: F(1, 4), 2: F(3, 4)}, "7": {0: F(1)}}, ocean_size=2, known={0: {"A": 1}})
>>> belief.p_holds(1, "A"), belief.expected_count(1, "7"), belief.p_top("A")
(Fraction(3, 4), Fraction(2, 1), Fraction(7, 8))
>>> belief.count_distribution("ocean", "A")
{1: Fraction(1, 4), 2: Fraction(3, 4)}
>>> belief.p_holds(0, "A")   # the asker's own hand is known
Fraction(1, 1)
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import sqrt

from ..cards import normalize_rank

OCEAN = "ocean"


@dataclass(frozen=True)
class Table:
    """Every hidden seat x rank, and the ocean's top: what a widget or a strategy scans.

    Attributes:
        ranks: the ranks in deck order (those still in play: not all in books).
        seats: the hidden seats, ascending.
        holds: ``holds[seat][rank]`` = P(seat holds at least one card of rank).
        expected: ``expected[seat][rank]`` = expected number of cards of rank in the seat's hand.
        top: ``top[rank]`` = P(the ocean's top card is rank); empty when the ocean is.
        exact: whether the numbers are exact fractions (else Monte Carlo floats).
    """

    ranks: tuple
    seats: tuple
    holds: dict
    expected: dict
    top: dict
    exact: bool

    def __str__(self) -> str:
        width = max([len("ocean top")] + [len(f"seat {q}") for q in self.seats])
        lines = [" " * width + "".join(f"{r:>7}" for r in self.ranks)]
        for q in self.seats:
            lines.append(f"{f'seat {q}':<{width}}" + "".join(f"{float(self.holds[q][r]):7.1%}" for r in self.ranks))
        if self.top:
            lines.append(f"{'ocean top':<{width}}" + "".join(f"{float(self.top[r]):7.1%}" for r in self.ranks))
        if not self.exact:
            lines.append("(Monte Carlo estimate)")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """The same grid as ``str(table)``, as an HTML table for notebooks."""
        head = "".join(f"<th>{r}</th>" for r in self.ranks)
        rows = [(f"seat {q}", self.holds[q]) for q in self.seats] + ([("ocean top", self.top)] if self.top else [])
        body = "".join(f"<tr><th>{label}</th>" + "".join(f"<td>{float(p[r]):.1%}</td>" for r in self.ranks) + "</tr>"
                       for label, p in rows)
        caption = "P(holds at least one), and the ocean's top card" + ("" if self.exact else " (Monte Carlo estimate)")
        return f"<table><caption>{caption}</caption><tr><th></th>{head}</tr>{body}</table>"


class Belief:
    """Count distributions for every hidden place and rank, and the questions they answer.

    Args:
        ranks: the deck's ranks, in order.
        seats: ``{seat: {rank: {count: probability}}}`` for each hidden seat.
        ocean: ``{rank: {count: probability}}`` for the ocean.
        ocean_size: cards in the ocean.
        known: ``{seat: {rank: count}}`` for seats whose hands are known (the viewer's own).
        exact: True for exact fractions; False for a Monte Carlo estimate.
        runs: for an estimate, the independent runs it averages (each itself a ``Belief``),
            from which :meth:`stderr` computes standard errors.
    """

    def __init__(self, ranks, seats, ocean, ocean_size, known=None, exact=True, runs=()):
        self.ranks = tuple(ranks)
        self.seats = dict(seats)
        self.ocean = dict(ocean)
        self.ocean_size = ocean_size
        self.known = {q: dict(c) for q, c in (known or {}).items()}
        self.exact = exact
        self.runs = tuple(runs)

    # ------------------------------------------------------------------ checking questions
    def _rank(self, rank) -> str:
        try:
            label = normalize_rank(rank)
        except ValueError:
            label = None
        if label is None or label not in self.ranks:
            raise ValueError(f"rank {rank!r} is not in this deck: ranks are {', '.join(self.ranks)}")
        return label

    def _place(self, place):
        if place == OCEAN:
            return OCEAN
        if isinstance(place, bool) or not isinstance(place, int) or (place not in self.seats and place not in self.known):
            seats = sorted(set(self.seats) | set(self.known))
            raise ValueError(f"player {place!r} is not a seat: seats are {', '.join(map(str, seats))} (or 'ocean')")
        return place

    # ------------------------------------------------------------------ the questions
    def count_distribution(self, place, rank) -> dict:
        """``{count: probability}`` for the cards of ``rank`` at ``place`` (a seat, or ``"ocean"``)."""
        place, rank = self._place(place), self._rank(rank)
        if place == OCEAN:
            return dict(sorted(self.ocean[rank].items()))
        if place in self.known:
            return {self.known[place].get(rank, 0): Fraction(1)}
        return dict(sorted(self.seats[place][rank].items()))

    def p_holds(self, player, rank, at_least: int = 1):
        """P(``player`` holds at least ``at_least`` cards of ``rank``)."""
        if isinstance(at_least, bool) or not isinstance(at_least, int) or at_least < 0:
            raise ValueError(f"at_least must be a whole number of cards, not {at_least!r}")
        if player == OCEAN:
            raise ValueError("player: ask about a seat here; for the ocean use count_distribution or expected_count")
        dist = self.count_distribution(player, rank)
        return sum((p for c, p in dist.items() if c >= at_least), Fraction(0) if self.exact else 0.0)

    def expected_count(self, place, rank):
        """The expected number of cards of ``rank`` at ``place`` (a seat, or ``"ocean"``)."""
        dist = self.count_distribution(place, rank)
        return sum((c * p for c, p in dist.items()), Fraction(0) if self.exact else 0.0)

    def p_top(self, rank):
        """P(the top card of the ocean is ``rank``): the ocean's expected share of that rank."""
        rank = self._rank(rank)
        if not self.ocean_size:
            raise ValueError("the ocean is empty: there is no top card")
        return self.expected_count(OCEAN, rank) / self.ocean_size

    def table(self) -> Table:
        """Every hidden seat x rank in play, and the ocean's top card."""
        ranks = tuple(r for r in self.ranks if any(self.seats[q][r] != {0: 1} for q in self.seats)
                      or self.ocean[r] != {0: 1} or any(c.get(r) for c in self.known.values()))
        seats = tuple(sorted(self.seats))
        holds = {q: {r: self.p_holds(q, r) for r in ranks} for q in seats}
        expected = {q: {r: self.expected_count(q, r) for r in ranks} for q in seats}
        top = {r: self.p_top(r) for r in ranks} if self.ocean_size else {}
        return Table(ranks, seats, holds, expected, top, self.exact)

    def stderr(self, question: str, *args, **kwargs) -> float:
        """The standard error of a Monte Carlo answer: ``stderr("p_holds", 1, "Q")``. 0 when exact."""
        if self.exact:
            return 0.0
        values = [float(getattr(run, question)(*args, **kwargs)) for run in self.runs]
        mean = sum(values) / len(values)
        return sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1) / len(values))

    def __repr__(self) -> str:
        kind = "exact" if self.exact else f"Monte Carlo, {len(self.runs)} runs"
        return f"<Belief about seats {sorted(self.seats)} and the ocean ({self.ocean_size} cards), {kind}>"


def from_counts(counts, ranks, seats, unseen, ocean_size, known) -> Belief:
    """A :class:`Belief` from exact integer world counts (see :mod:`.exact`)."""
    total = counts.total
    if not total:
        raise ValueError("no deal of the unseen cards fits what is known: the facts contradict each other")

    def dist(by_count):
        return {c: Fraction(n, total) for c, n in sorted(by_count.items())}

    seat_dists = {q: {r: dist(counts.seats[i][s]) for s, r in enumerate(ranks)} for i, q in enumerate(seats)}
    ocean = {r: dist(counts.ocean[s]) for s, r in enumerate(ranks)}
    return Belief(ranks, seat_dists, ocean, ocean_size, known)
