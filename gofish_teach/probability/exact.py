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

import ctypes
import platform
from dataclasses import dataclass
from math import lgamma, log

import numpy as np
from threadpoolctl import ThreadpoolController

from .caches import COUNTING, MEMORY, Memory, Recent  # noqa: F401  (importable from here too)
from .contract import cheapest_seating as _cheapest
from .contract import count_worlds, work
from .graded import TooManyStates, count_worlds_graded, feasible_share, grades
from .hands import Hand
from .history import Story, read  # noqa: F401  (read: for the examples)
from .modular import primes_for_bits
from .orders import Plan
from .pools import Cases, count_worlds_one

#: Sizes beyond which the exact path gives up (deterministic, so results are reproducible):
#: cases of a single hidden hand; cases of a hand that must be joined with others; inner
#: dimension of a hand's matrices; the product of the hands' inner dimensions at one
#: rank, which the joint sweep carries; and, for a count past that (up to :data:`WIDER` times
#: as many states), its :func:`~.contract.work`.
LIMITS = {"cases": 400_000, "join_cases": 20_000, "hand_dim": 128, "joint": 150_000, "work": 850_000_000}

#: A count joining more than ``LIMITS["joint"]`` states, up to this many times as many, is still
#: made when it costs at most ``LIMITS["work"]`` multiply-adds: the joined states bound what a
#: count holds, its work what it takes, and late in a six-player game some wide counts are cheap
#: (few counts per hand at each rank, an empty ocean) where some narrower ones are not. The work
#: limit is that of the costliest count the joined states' limit let through in 200 seeded
#: six-player pond games (851 million), so no count takes longer than those did; there it made
#: 42 of the 65 decisions that were sampled exact.
WIDER = 3

#: The same for a count the graded sweep makes (:mod:`.graded`), which carries only the joined states
#: the ocean leaves (at most :data:`.graded.MAX_STATES` in any partial step): the hands are built in
#: up to this many times ``LIMITS["joint"]`` joined states when they may be counted graded.
GRADED_WIDER = 8

#: The joined states a count may carry when sampling cannot start (:func:`~gofish_teach.probability.posterior`):
#: with the ocean empty, hands drawn one after another must split the unseen cards exactly, which
#: can fail at every try; counting exactly past ``LIMITS["joint"]`` is then slower but answers.
LAST_RESORT_JOINT = 8 * LIMITS["joint"]

#: Above this much work (:func:`~.contract.work`: multiply-adds per prime of two sweeps) in the
#: usual order of the ranks, a count also builds its hands in :func:`narrow_order` and in
#: :func:`~.orders.planned_order`, weighs every order in which the hands can be joined, and keeps
#: the orders that cost least. Below it (about 30 ms of counting), building the other orders'
#: hands would cost about as much as it saves.
COMPARE_ABOVE = 20_000_000

#: What the graded sweep (:mod:`.graded`) costs, in the dense sweep's multiply-adds (:func:`~.contract.work`),
#: per unit of the share of the joined states it carries (:func:`~.graded.feasible_share`): at 43
#: six-player pond positions (counts of 31 million to 2.5 billion multiply-adds, oceans of 22 cards
#: to none), its time was 1.5-5.0 times the share times the dense sweep's (90% of them below 3.6).
GRADED_COST = 4

#: The graded sweep counts where the share is at most this (where it is reckoned cheaper: ``1 /
#: GRADED_COST``). At those 43 positions it took 0.05-1.08 of the dense sweep's time at the 16
#: with a share up to 0.25 (median 0.28), and 0.40-1.86 at the 27 above (median 1.45).
GRADED_BELOW = 1 / GRADED_COST

#: Another order's hands are built only where the plan (:class:`~.orders.Plan`) expects it to cost
#: at most this share of the order in hand (early in a game the orders cost about the same).
WORTH_BUILDING = 0.8


#: BLAS's own threads: the products here are many and small, so on a busy machine (or two cores
#: shared with the kernel) threads fighting over them cost far more than they give (5-10x).
_THREADS = ThreadpoolController()


class TooBig(Exception):
    """The exact computation would exceed :data:`LIMITS`. ``work`` is what the count would cost
    (:func:`~.contract.work`) in the cheapest order of the ranks found, when its hands were built
    within the joined states weighed (``WIDER``, or ``GRADED_WIDER``, times ``LIMITS["joint"]``);
    None otherwise.

    >>> why = TooBig("too costly", work=2 * LIMITS["work"])
    >>> str(why), why.work
    ('too costly', 1700000000)
    """

    def __init__(self, message: str = "", work: int | None = None):
        super().__init__(message)
        self.work = work


@dataclass
class Counts:
    """Integer world counts: ``total``, ``seats[i][r] = {count: worlds}`` per hidden seat, ``ocean[r]``."""

    total: int
    seats: list
    ocean: list
    #: What the count cost (:func:`~.contract.work`, multiply-adds per prime), where hands were joined;
    #: a :class:`Graded` int where the graded sweep counted (what it was reckoned to cost).
    work: int | None = None


def _log2_factorial(n: int) -> float:
    return lgamma(n + 1) / log(2)


def bits_needed(story: Story) -> float:
    """An upper bound on the bits of any count we reconstruct (the total is the largest).

    The total is the number of deck orders behind the view times ``prod unseen! / ocean!``
    (the ocean's share is counted as ``unseen!/o!`` per rank instead of ``ocean!/prod o!``).
    That factor is below 1 early in a game, when the ocean is large: the bound is then below
    :attr:`~.history.Story.log2_worlds`, and one prime fewer may do.
    """
    extra = sum(_log2_factorial(u) for u in story.unseen) - _log2_factorial(story.ocean)
    return max(1.0, story.log2_worlds + extra + 2)


# ---------------------------------------------------------------------- remembering work
# (Recent, Memory, MEMORY and COUNTING are in caches; importable from here too)
def forget() -> None:
    """Drop everything remembered between calls (for timing from scratch), and give the freed
    memory a costly count kept (:func:`keep_freed_memory`) back to the system."""
    MEMORY.clear()
    if _KEEPING and _KEEPING[0]:
        _glibc().malloc_trim(0)


# ---------------------------------------------------------------------- following hands
def _follow(ops: list, n_ranks: int, book_size: int, primes=()) -> Cases:
    """One hand's cases after ``ops``, resuming from the longest remembered prefix.

    Weights are residues mod ``primes`` (exact), or plain floats when ``primes`` is empty
    (for sampling, :mod:`.montecarlo`).
    """
    ops = tuple(ops)
    kind = "cases" if primes else "floats"
    best, start = None, 0
    for key, (state, done) in MEMORY.followed.newest_first():
        if key[:3] != (kind, n_ranks, book_size) or len(done) > len(ops) or len(state.primes) < len(primes):
            continue
        if len(done) > start and ops[:len(done)] == done:
            best, start = state, len(done)
    if best is None:
        state = Cases(n_ranks, book_size, primes)
    elif primes:
        state = best.first_primes(len(primes))  # a copy: what is remembered is never changed
    else:
        state = best.copy()
    for op in ops[start:]:
        state.apply(op)
        if len(state.keys) > LIMITS["cases"]:
            raise TooBig(f"a hand has more than {LIMITS['cases']} cases")
    if len(state.keys) <= MEMORY.keep_cases:
        MEMORY.followed.put((kind, n_ranks, book_size, ops), (state, ops))
    return state


def _hand_key(ops, caps, n_ranks, book_size, primes, order) -> tuple:
    """Where :data:`MEMORY` keeps a hand's matrix form."""
    return tuple(ops), caps, n_ranks, book_size, primes, tuple(order)


def _as_hand(seat, ops, cases, caps, n_ranks, book_size, primes, order) -> Hand:
    """A hand's ``cases`` (followed through ``ops``) as a matrix product ready to be joined with
    others, its ranks in ``order`` (see :func:`rank_order`)."""
    key = _hand_key(ops, caps, n_ranks, book_size, primes, order)
    hand = MEMORY.hands.get(key)
    if hand is None:
        if len(cases.keys) > LIMITS["join_cases"]:
            hand = TooBig(f"seat {seat} has {len(cases.keys)} cases, more than {LIMITS['join_cases']} to join")
        else:
            try:
                hand = Hand.from_cases(cases, caps, limit=LIMITS["hand_dim"], order=order)
            except OverflowError as why:
                hand = TooBig(f"seat {seat}: {why}")  # remembered too: the next ask would fail alike
        MEMORY.hands.put(key, hand)
    if isinstance(hand, TooBig):
        raise hand
    return hand


def hand_cases(story: Story, seat: int, n_ranks: int, book_size: int) -> Cases:
    """One hidden hand's cases with float weights: its own history only (for sampling)."""
    with COUNTING:
        return _follow(story.ops[seat], n_ranks, book_size)


def exchangeable(story: Story) -> list[int]:
    """For each rank, the first rank that plays exactly the same part in ``story`` (itself if none).

    Two ranks are exchangeable when swapping them everywhere leaves the story as it is: then
    every count is the same for both, and only one of them needs its counts worked out. An
    operation about one rank (an ask, a gift, a book...) names it, so a rank that appears in
    one is exchangeable with no other; the rest are compared by what they are in the
    operations about every rank (a deal's or a draw's allowed ranks, the caps), in order.

    >>> from gofish_teach import Game, Rules
    >>> game = Game(Rules.preset("pond").replace(n_ranks=4, hand_size=2), 3, seed=1)
    >>> [card.rank for card in game.view(0).hand]
    ['A', '3']
    >>> exchangeable(read(game.view(0)))       # three A and three 3s unseen; four 2s and four 4s
    [0, 1, 0, 1]
    """
    R = len(story.unseen)
    named = set()
    columns = []
    for q in story.seats:
        rows = []
        for op in story.ops[q]:
            if op[0] in ("deal", "draw", "cap"):
                rows.append(op[-1])
            else:
                named.add(op[1])
        columns.append(list(zip(*rows, strict=True)) if rows else [()] * R)
    flags = story.teams[1] if story.teams else (0,) * R
    first: dict = {}
    same = []
    for r in range(R):
        if r in named:
            same.append(r)
            continue
        key = (story.unseen[r], flags[r], tuple(column[r] for column in columns))
        same.append(first.setdefault(key, r))
    return same


def one_blas_thread():
    """A context in which BLAS runs on one thread (see :data:`_THREADS`)."""
    return _THREADS.limit(limits=1, user_api="blas")


#: Whether a costly count (past :data:`COMPARE_ABOVE`) asks the C library to keep the memory
#: freed by big arrays for the next ones (:func:`keep_freed_memory`).
KEEP_FREED_MEMORY = True


def _glibc():
    """The C library, if it is glibc (whose ``mallopt`` this module tunes); else None."""
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return None
    try:
        return ctypes.CDLL("libc.so.6")
    except OSError:
        return None


_KEEPING = []


def keep_freed_memory() -> bool:
    """Have glibc's ``malloc`` keep big freed blocks for reuse (once per process; a no-op elsewhere,
    or when :data:`KEEP_FREED_MEMORY` is false). Returns whether it does.

    By default glibc gives every block of over 32 MB (less at first) straight back to the
    system when it is freed, and the next one is mapped afresh, a page fault per page touched.
    A six-player count makes and drops hundreds of megabytes of such arrays, and the faults
    took up to half of the slowest counts' time here (system time). Kept, the memory is
    reused by the next arrays: the process holds about its peak (0.5-0.7 GB following a
    six-player game) between counts, which it needed anyway for the counts themselves.
    :func:`forget` gives what is free back to the system. Three settings: blocks up to 1 GB
    come from the heap rather than being mapped on their own, the heap's free top is never
    trimmed, and a thread's heaps (at most 64 MB each; the Table counts in a thread) are kept
    once free, which a top pad of 128 MB does (it is only reserved, never touched).
    """
    if not _KEEPING:
        libc = _glibc() if KEEP_FREED_MEMORY else None
        M_TRIM_THRESHOLD, M_TOP_PAD, M_MMAP_THRESHOLD = -1, -2, -3
        _KEEPING.append(bool(libc) and libc.mallopt(M_MMAP_THRESHOLD, 2 ** 30) == 1
                        and libc.mallopt(M_TRIM_THRESHOLD, 2 ** 31 - 1) == 1
                        and libc.mallopt(M_TOP_PAD, 2 ** 27) == 1)
    return _KEEPING[0]


def world_counts(story: Story, n_ranks: int, book_size: int, joint: int | None = None) -> Counts:
    """Exact counts of the worlds behind ``story``, by place, rank and count; a story counted
    lately (under the same :data:`LIMITS`) is answered from :data:`MEMORY`: the same answer, since
    the count depends on nothing else. ``joint`` replaces ``LIMITS["joint"]`` (for
    :data:`LAST_RESORT_JOINT`)."""
    key = story_key(story, n_ranks, book_size) + (joint,)
    with COUNTING:
        known = MEMORY.counts.get(key)
        if known is None:
            try:
                with one_blas_thread():
                    known = _world_counts(story, n_ranks, book_size, joint or LIMITS["joint"])
            except TooBig as why:
                known = why
            MEMORY.counts.put(key, known)
    if isinstance(known, TooBig):
        raise TooBig(str(known), known.work)
    return known


def story_key(story: Story, n_ranks: int, book_size: int) -> tuple:
    """Everything a count of ``story`` depends on (:data:`LIMITS` too), as a key for :data:`MEMORY`."""
    return _frozen((LIMITS, n_ranks, book_size, story.seats, [story.ops[q] for q in story.seats], story.unseen,
                    story.ocean, story.log2_worlds, story.teams))


def _frozen(value):
    """``value`` with its lists (and dicts) made tuples, to serve as a key.

    >>> _frozen([1, [2, (3, [4])], {"a": [5]}])
    (1, (2, (3, (4,))), (('a', (5,)),))
    """
    if isinstance(value, dict):
        return tuple((k, _frozen(v)) for k, v in sorted(value.items()))
    if type(value) in (list, tuple):  # not a named tuple (an operation): that one is kept, and hashable
        return tuple(_frozen(v) for v in value)
    return value


def _world_counts(story: Story, n_ranks: int, book_size: int, joint: int) -> Counts:
    primes = primes_for_bits(bits_needed(story))
    seats = story.seats
    if len(seats) == 1:
        cases = _follow(story.ops[seats[0]], n_ranks, book_size, primes)
        total, seat, ocean = count_worlds_one(cases, story.unseen, book_size - 1)
        return Counts(total, seat, ocean)
    caps = tuple(min(book_size - 1, u) for u in story.unseen)
    followed = [_follow(story.ops[q], n_ranks, book_size, primes) for q in seats]

    # A hand's inner dimensions are at least 1 (0 only where no deal fits its history; a hand
    # left without a case is built first), so the product over the hands built so far bounds
    # the joined states from below: an order is given up as soon as that passes the limit,
    # without building the other hands. Remembered hands cost nothing and come first, then
    # those with the most cases.
    def remembered(q, order):
        return _hand_key(story.ops[q], caps, n_ranks, book_size, primes, order) in MEMORY.hands.keys()

    # hands are built in up to ``wide`` joined states: a dense count may join WIDER times the limit,
    # a graded one more (it carries only the states the ocean leaves, and the teams rule counts densely)
    dense_wide = max(joint, WIDER * LIMITS["joint"])
    wide = dense_wide if story.teams else max(joint, GRADED_WIDER * LIMITS["joint"])

    def joined(order):
        """The hands (in seat order) with their ranks in ``order``, and None; or None and the
        :class:`TooBig` that says why they do not fit (in ``wide`` joined states)."""
        for q, cases in zip(seats, followed, strict=True):
            if len(cases.keys) > LIMITS["join_cases"]:
                return None, TooBig(f"seat {q} has {len(cases.keys)} cases, more than {LIMITS['join_cases']} to join")
        hands, widest = {}, [1] * (n_ranks - 1)
        for q, cases in sorted(zip(seats, followed, strict=True),
                               key=lambda qc: (len(qc[1].keys) > 0, not remembered(qc[0], order), -len(qc[1].keys))):
            try:
                hands[q] = _as_hand(q, story.ops[q], cases, caps, n_ranks, book_size, primes, order)
            except TooBig as why:
                return None, why
            widest = [w * d for w, d in zip(widest, hands[q].dims(), strict=True)]
            if max(widest, default=1) > wide:
                more = "at least " if len(hands) < len(seats) else ""
                return None, TooBig(f"the hands together need {more}{max(widest)} states at one rank "
                                    f"(limit {joint}, or {wide} for a count of at most {LIMITS['work']} multiply-adds)")
        return [hands[q] for q in seats], None

    def weighed(hands, unseen, ocean):
        """The least cost of counting ``hands`` (see :func:`_weigh`) and the seating for it."""
        cost, seating = _cheapest(hands, unseen, ocean)
        return _weigh(hands, unseen, ocean, cost, story.teams), seating

    def fits(hands, cost) -> bool:
        """Whether the count of ``hands`` (built in ``wide`` states), at ``cost``, is made: a graded
        count (:class:`Graded` cost) or a dense one within ``dense_wide`` states, at most
        ``LIMITS["work"]``; any count within ``joint`` states."""
        states = joined_states(hands)
        if states <= joint:
            return True
        return cost <= LIMITS["work"] and (isinstance(cost, Graded) or states <= dense_wide)

    def unseen(order):
        return [story.unseen[r] for r in order]

    order = rank_order(followed)
    hands, why = joined(order)
    seating = tuple(range(len(seats)))
    cost = work(hands, unseen(order), ocean=story.ocean) if hands else None
    # Too wide for the exact path, or costly: another order of the ranks may fit, which beats
    # sampling, or cost less; and the hands may be joined in any order. Building another order's
    # hands and weighing the hands' orders cost a few percent of such a count.
    if hands is None or not fits(hands, cost) or cost > COMPARE_ABOVE:
        keep_freed_memory()
        cost, seating = weighed(hands, unseen(order), story.ocean) if hands else (None, seating)
        plan = Plan(followed, caps, story.unseen)
        tried = [order]
        for other in [narrow_order(followed)] + ([plan.best()] if plan.usable else []):
            # worth building only where the plan expects it to cost clearly less than an order that fits
            if other in tried or (hands is not None and fits(hands, cost) and plan.usable
                                  and plan.cost(other) > WORTH_BUILDING * plan.cost(order)):
                continue
            tried.append(other)
            more, why_more = joined(other)
            if more is not None:
                cost_more, seating_more = weighed(more, unseen(other), story.ocean)
                # an order whose count is made beats one whose count is not, then the cheaper one
                if hands is None or (fits(more, cost_more), -cost_more) > (fits(hands, cost), -cost):
                    order, hands, cost, seating = other, more, cost_more, seating_more
            elif hands is None:
                why = why_more
        if hands is None:
            raise why
    if not fits(hands, cost):
        raise TooBig(f"the hands together need {joined_states(hands)} states at one rank (limit {joint}), "
                     f"and their count {cost} multiply-adds (limit {LIMITS['work']} past {joint} states)", cost)
    # the sweep sees the ranks in ``order`` (place j is rank order[j]) and the hands in ``seating``
    place = {r: j for j, r in enumerate(order)}
    same = exchangeable(story)
    first = {}
    for r in order:
        first.setdefault(same[r], place[r])  # a class's counts are worked out at its first place
    teams = story.teams and ([story.teams[0][i] for i in seating], [story.teams[1][r] for r in order], story.teams[2])
    seated, firsts = [hands[i] for i in seating], [first[same[r]] for r in order]
    counted = None
    if isinstance(cost, Graded):
        try:
            counted = count_worlds_graded(seated, unseen(order), primes, story.ocean, firsts)
        except TooManyStates as why:
            cost = work(seated, unseen(order), ocean=story.ocean)  # the dense count instead, if it may be made
            if not fits(hands, cost):
                raise TooBig(f"{why}, and the dense count would join {joined_states(hands)} states at one rank "
                             f"at {cost} multiply-adds (limits {joint} and {LIMITS['work']})", cost) from None
    if counted is None:
        counted = count_worlds(seated, unseen(order), primes, teams, firsts, story.ocean)
    total, by_place, ocean_by_place = counted
    by_place = [by_place[seating.index(i)] for i in range(len(seats))]
    seat = [[by_seat[place[r]] for r in range(n_ranks)] for by_seat in by_place]
    ocean = [ocean_by_place[place[r]] for r in range(n_ranks)]
    return Counts(total, seat, ocean, cost)


class Graded(int):
    """What a graded count is reckoned to cost, in the dense sweep's multiply-adds (an int that
    says which sweep it is for)."""


def _weigh(hands, unseen, ocean, cost: int, teams=None) -> int:
    """What counting ``hands`` costs, in the dense sweep's multiply-adds: its ``cost``, or, where the
    graded sweep (:mod:`.graded`) is reckoned cheaper, a :class:`Graded` cost of
    ``GRADED_COST * share * cost`` (the share of the joined states within the grade window, at most
    :data:`GRADED_BELOW`). Teams (a rule about which hands hold a rank) count densely."""
    if teams or ocean is None:
        return cost
    g = [grades(hand) for hand in hands]
    if any(x is None for x in g):
        return cost
    share = feasible_share(hands, unseen, ocean, g)
    if share > GRADED_BELOW:
        return cost
    return min(cost, Graded(int(GRADED_COST * share * cost) + 1))


def joined_states(hands) -> int:
    """The most states ``hands`` join at one place between two ranks: the product of their inner
    dimensions there, which the sweep carries."""
    return int(max(np.prod([hand.dims() for hand in hands], axis=0), default=1))


def rank_order(hands) -> list[int]:
    """The order in which the sweep over ranks takes them: first the ranks whose counts the
    hands' cases disagree on most, then the rest in deck order.

    A hand's inner dimension between two places is the number of different things its cases
    still need from the ranks after it: its pooled cards left, and its known counts of the
    ranks still to come. With the uncertain ranks first, what is left after them is little
    more than each hand's pooled cards. The joined hands' states multiply, so this matters:
    at a six-player position after ten asks, 50k states at the widest place instead of 104k,
    and about 6k instead of 80-100k at most others.
    """
    R = hands[0].R
    spread = [0] * R
    for cases in hands:
        known = cases.known_counts()
        for r in range(R):
            spread[r] += len(np.unique(known[:, r])) - 1
    return sorted(range(R), key=lambda r: -spread[r])


def _distinct(codes: np.ndarray) -> np.ndarray:
    """For each row of ``codes``, how many different values it holds."""
    if codes.shape[1] == 0:
        return np.ones(len(codes), dtype=np.int64)
    ordered = np.sort(codes, axis=1)
    return 1 + (np.diff(ordered, axis=1) != 0).sum(axis=1)


def narrow_order(hands) -> list[int]:
    """A rank order built one rank at a time to keep the hands' joined states few.

    A hand's inner dimension between two places is at most the number of different count
    vectors its cases hold on the smaller side, times its pooled cards left. The joined
    states are the product over hands, so each step takes the rank that keeps the product of
    those bounds smallest at the new place (a greedy choice; ties go to deck order). On the
    widest six-player positions it joins a half to a quarter as many states as
    :func:`rank_order`; on easier ones it can do worse, so :func:`world_counts` tries it only
    where :func:`rank_order` joins more states than :data:`LIMITS` allows.

    >>> from gofish_teach import Game, Rules
    >>> game = Game(Rules.preset("pond").replace(n_ranks=4, hand_size=2), 3, seed=1)
    >>> _ = game.ask(1, "3")
    >>> story = read(game.view(1))
    >>> narrow_order([_follow(story.ops[q], 4, 4) for q in story.seats])  # one uncertain rank: no order is better
    [0, 1, 2, 3]
    """
    R = hands[0].R
    known = [cases.known_counts() for cases in hands]
    shift = [3 * r for r in range(R)]  # counts are below 8: three bits each, 39 bits for 13 ranks
    head = [np.zeros(len(k), dtype=np.int64) for k in known]
    tail = [sum(k[:, r] << shift[r] for r in range(R)) for k in known]
    order, left = [], list(range(R))
    while left:
        bound = np.ones(len(left))
        for k, h, t in zip(known, head, tail, strict=True):
            part = np.stack([k[:, r] << shift[r] for r in left])  # (candidates, cases)
            bound *= np.minimum(_distinct(h[None] + part), _distinct(t[None] - part))
        best = left[int(np.argmin(bound))]
        for i, k in enumerate(known):
            head[i] = head[i] + (k[:, best] << shift[best])
            tail[i] = tail[i] - (k[:, best] << shift[best])
        order.append(best)
        left.remove(best)
    return order
