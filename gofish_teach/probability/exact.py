"""Exact world counts for a view: choose enough primes, follow each hidden hand, combine.

Every hidden hand is followed as weighted cases (:mod:`.pools`), which stay few even when
the hand's history is long. One hidden hand (two players) is counted from its cases
directly; several are first turned into matrix products over ranks (:mod:`.hands`) so that
:mod:`.contract` can join them through the ocean. Both are exact. Following a hand is
incremental: the state after a run of operations is remembered, so a player asking at
every turn pays only for what is new.

A state beyond :data:`LIMITS` raises :class:`TooBig`; :func:`gofish_teach.probability.posterior`
then falls back to a flagged Monte Carlo estimate.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from math import lgamma, log

from .contract import count_worlds
from .hands import Hand
from .history import Story
from .modular import primes_for_bits
from .pools import Cases, count_worlds_one

#: Sizes beyond which the exact path gives up (deterministic, so results are reproducible):
#: cases of a single hidden hand; cases of a hand that must be joined with others; inner
#: dimension of a hand's matrices; and the product of the hands' inner dimensions at one
#: rank, which the joint sweep carries.
LIMITS = {"cases": 400_000, "join_cases": 20_000, "hand_dim": 128, "joint": 150_000}


class TooBig(Exception):
    """The exact computation would exceed :data:`LIMITS`."""


@dataclass
class Counts:
    """Integer world counts: ``total``, ``seats[i][r] = {count: worlds}`` per hidden seat, ``ocean[r]``."""

    total: int
    seats: list
    ocean: list


def _log2_factorial(n: int) -> float:
    return lgamma(n + 1) / log(2)


def bits_needed(story: Story) -> float:
    """An upper bound on the bits of any count we reconstruct (the total is the largest).

    The total is the number of deck orders behind the view times ``prod unseen! / ocean!``
    (the ocean's share is counted as ``unseen!/o!`` per rank instead of ``ocean!/prod o!``).
    """
    extra = sum(_log2_factorial(u) for u in story.unseen) - _log2_factorial(story.ocean)
    return story.log2_worlds + max(0.0, extra) + 2


# ---------------------------------------------------------------------- following hands
_MEMO: "OrderedDict[tuple, tuple]" = OrderedDict()
_MEMO_SIZE = 48


def _follow(kind: str, ops: list, n_ranks: int, book_size: int, primes=()):
    """The state of one hand after ``ops``, resuming from the longest remembered prefix.

    ``kind`` is ``"cases"`` or ``"hand"`` (exact, mod ``primes``), or ``"floats"``: cases with
    plain float weights, for sampling (:mod:`.montecarlo`).
    """
    ops = tuple(ops)
    best, start = None, 0
    for key, (state, done) in reversed(_MEMO.items()):
        if key[:3] != (kind, n_ranks, book_size) or len(done) > len(ops) or len(state.primes) < len(primes):
            continue
        if len(done) > start and ops[:len(done)] == done:
            best, start = state, len(done)
    if best is None:
        state = Hand.empty(n_ranks, primes) if kind == "hand" else Cases(n_ranks, book_size, primes)
    elif kind == "floats":
        state = best.copy()
    else:
        state = best.first_primes(len(primes))
    for op in ops[start:]:
        if kind == "hand":
            if op[0] == "deal":
                state = Hand.dealt(op[1], op[2], primes)
            else:
                state.apply(op, book_size)
            if op[0] == "cap" and max(state.dims() or [1]) > LIMITS["hand_dim"]:
                raise TooBig(f"a hand's matrices grew past {LIMITS['hand_dim']}")
        else:
            state.apply(op)
            if len(state.keys) > LIMITS["cases"]:
                raise TooBig(f"a hand has more than {LIMITS['cases']} cases")
    if kind == "hand" or len(state.keys) <= 50_000:  # a huge state is not worth its memory
        key = (kind, n_ranks, book_size, ops)
        _MEMO[key] = (state, ops)
        _MEMO.move_to_end(key)
    while len(_MEMO) > _MEMO_SIZE:
        _MEMO.popitem(last=False)
    return state


_HANDS: "OrderedDict[tuple, Hand]" = OrderedDict()  # matrix forms of recent hands (most hands do not change between two asks)


def _as_hand(seat, ops, caps, n_ranks, book_size, primes) -> Hand:
    """A hand followed as cases, then as a matrix product ready to be joined with others."""
    key = (tuple(ops), caps, n_ranks, book_size, primes)
    if key not in _HANDS:
        cases = _follow("cases", ops, n_ranks, book_size, primes)
        if len(cases.keys) > LIMITS["join_cases"]:
            _HANDS[key] = TooBig(f"seat {seat} has {len(cases.keys)} cases, more than {LIMITS['join_cases']} to join")
        else:
            try:
                _HANDS[key] = Hand.from_cases(cases, caps, limit=LIMITS["hand_dim"])
            except OverflowError as why:
                _HANDS[key] = TooBig(f"seat {seat}: {why}")  # remembered too: the next ask would fail alike
        while len(_HANDS) > _MEMO_SIZE:
            _HANDS.popitem(last=False)
    _HANDS.move_to_end(key)
    if isinstance(_HANDS[key], TooBig):
        raise _HANDS[key]
    return _HANDS[key]


def forget() -> None:
    """Drop everything remembered between calls (for timing from scratch)."""
    _MEMO.clear()
    _HANDS.clear()


def hand_cases(story: Story, seat: int, n_ranks: int, book_size: int) -> Cases:
    """One hidden hand's cases with float weights: its own history only (for sampling)."""
    return _follow("floats", story.ops[seat], n_ranks, book_size)


def world_counts(story: Story, n_ranks: int, book_size: int) -> Counts:
    """Exact counts of the worlds behind ``story``, by place, rank and count."""
    primes = primes_for_bits(bits_needed(story))
    seats = story.seats
    if len(seats) == 1:
        cases = _follow("cases", story.ops[seats[0]], n_ranks, book_size, primes)
        total, seat, ocean = count_worlds_one(cases, story.unseen, book_size - 1)
        return Counts(total, seat, ocean)
    caps = tuple(min(book_size - 1, u) for u in story.unseen)
    hands = [_as_hand(q, story.ops[q], caps, n_ranks, book_size, primes) for q in seats]
    joint = 1
    for r in range(n_ranks - 1):
        size = 1
        for hand in hands:
            size *= hand.dims()[r]
        joint = max(joint, size)
    if joint > LIMITS["joint"]:
        raise TooBig(f"the hands together need {joint} states at one rank (limit {LIMITS['joint']})")
    total, seat, ocean = count_worlds(hands, story.unseen, primes, story.teams)
    return Counts(total, seat, ocean)
