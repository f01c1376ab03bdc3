"""An order of the ranks planned for the exact count: the cheapest under a bound on each hand's
inner dimensions, by dynamic programming over the sets of ranks placed so far.

The count's sweep (:mod:`.contract`) costs, at each rank, about the product of the hands'
inner dimensions either side of it times the tallies it carries (:func:`.contract.work`). A
hand's inner dimension between two places depends only on *which* ranks come before it, not
on their order: it carries what the hand's cases still need from the ranks after it. So the
cheapest order is a shortest path through the sets of placed ranks (2**13 of them), each step
placing one more rank at the cost of its sweep step; the textbook technique is the
Held-Karp dynamic program over subsets.

The dimensions themselves are only known once a hand is built (a row reduction per rank), so
the plan uses a bound computed from the cases: on either side of the place, the different
count vectors the cases hold there, each with the range of pooled cards it can leave to the
other side, and the smaller side's total. The bound is often exact and sometimes several
times too high; :func:`.exact.world_counts` therefore builds the hands in the planned order
and compares what they really cost with the other orders' (never trusting the plan alone).

>>> from gofish_teach import Game, Rules
>>> from gofish_teach.probability.exact import _follow, read
>>> game = Game(Rules.preset("pond").replace(n_ranks=4, hand_size=2), 3, seed=1)
>>> _ = game.ask(1, "3")
>>> story = read(game.view(1))
>>> followed = [_follow(story.ops[q], 4, 4) for q in story.seats]
>>> plan = Plan(followed, caps=(3, 3, 3, 3), unseen=story.unseen)
>>> sorted(plan.best())                                  # a permutation of the ranks
[0, 1, 2, 3]
>>> plan.cost(plan.best()) <= min(plan.cost(order) for order in ([0, 1, 2, 3], [3, 2, 1, 0], [1, 3, 0, 2]))
True
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .contract import step_work


@njit(cache=True)
def _hulls(codes, by_code, lo, hi):
    # Over the distinct codes (by_code sorts them): the size of the hull of [lo, hi] over the cases
    # with that code, summed.
    total, i, n = 0, 0, len(codes)
    while i < n:
        c = codes[by_code[i]]
        a, b = lo[by_code[i]], hi[by_code[i]]
        j = i + 1
        while j < n and codes[by_code[j]] == c:
            a = min(a, lo[by_code[j]])
            b = max(b, hi[by_code[j]])
            j += 1
        total += b - a + 1
        i = j
    return total


@njit(cache=True)
def _bounds(known, pool, room, uncertain):
    """``bound[u, c]``: a hand's inner dimension once the ``uncertain`` ranks in bit set ``u`` and
    ``c`` places of pooled room are placed. ``known`` (cases, ranks) and ``pool`` (cases) are the
    cases' known counts and pooled cards, ``room[r]`` the pooled cards rank r can hold."""
    n, U = known.shape[0], len(uncertain)
    total_room = room.sum()
    bound = np.ones((1 << U, total_room + 1), dtype=np.int64)
    full = np.zeros(n, dtype=np.int64)
    for c in range(n):
        for i in range(U):
            full[c] += known[c, uncertain[i]] << (3 * i)
    head, tail = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    lo, hi = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    left_lo, left_hi = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    for u in range(1 << U):
        for c in range(n):
            h = 0
            for i in range(U):
                if u >> i & 1:
                    h += known[c, uncertain[i]] << (3 * i)
            head[c], tail[c] = h, full[c] - h
        by_head, by_tail = np.argsort(head), np.argsort(tail)
        for placed in range(total_room + 1):
            for c in range(n):
                # pooled cards on the placed side: as many as fit there, the rest fitting after
                lo[c] = max(0, pool[c] - (total_room - placed))
                hi[c] = min(pool[c], placed)
                left_lo[c], left_hi[c] = pool[c] - hi[c], pool[c] - lo[c]
            bound[u, placed] = min(_hulls(head, by_head, lo, hi), _hulls(tail, by_tail, left_lo, left_hi))
    return bound


@njit(cache=True)
def _dims(bound, room, uncertain, R):
    """A hand's bound for every set of placed ranks (bit r: rank r), 1 for none and for all."""
    dims = np.ones(1 << R, dtype=np.int64)
    for S in range(1, (1 << R) - 1):
        placed, u = 0, 0
        for r in range(R):
            if S >> r & 1:
                placed += room[r]
        for i in range(len(uncertain)):
            if S >> uncertain[i] & 1:
                u |= 1 << i
        dims[S] = bound[u, placed]
    return dims


@njit(cache=True)
def _cheapest_path(dims, d, unseen):
    """The order of the ranks with the least sum of step costs: ``dims`` (hands, 2**R), ``d``
    (hands, R) each hand's counts of each rank."""
    H, N = dims.shape
    R = d.shape[1]
    cost = np.full(N, np.inf)
    last = np.full(N, -1, dtype=np.int64)
    cost[0] = 0.0
    din, dout, dr = np.empty(H, dtype=np.int64), np.empty(H, dtype=np.int64), np.empty(H, dtype=np.int64)
    for S in range(N):  # every subset comes after all of its own subsets
        for r in range(R):
            if S >> r & 1:
                continue
            T = S | (1 << r)
            for h in range(H):
                din[h], dout[h], dr[h] = dims[h, S], dims[h, T], d[h, r]
            c = cost[S] + step_work(dr, din, dout, unseen[r])
            if c < cost[T]:
                cost[T], last[T] = c, r
    order, S = np.empty(R, dtype=np.int64), N - 1
    for j in range(R - 1, -1, -1):
        order[j] = last[S]
        S ^= 1 << last[S]
    return order


@njit(cache=True)
def _path_cost(dims, d, unseen, order):
    H = dims.shape[0]
    din, dout, dr = np.empty(H, dtype=np.int64), np.empty(H, dtype=np.int64), np.empty(H, dtype=np.int64)
    S, total = 0, 0.0
    for r in order:
        T = S | (1 << r)
        for h in range(H):
            din[h], dout[h], dr[h] = dims[h, S], dims[h, T], d[h, r]
        total += step_work(dr, din, dout, unseen[r])
        S = T
    return total


class Plan:
    """The hidden hands' bounds at every set of placed ranks (see above), and what an order of the
    ranks costs under them: ``followed`` are the hands' :class:`~.pools.Cases`, ``caps[r]`` the
    most cards of rank r a hand can hold, ``unseen[r]`` the cards of rank r the viewer has not seen.
    """

    #: Most work (cases' rows times sets of their uncertain ranks times pooled room) a plan may take:
    #: about a second. A hand with many cases and many uncertain ranks makes :attr:`usable` False.
    MAX_EFFORT = 10 ** 8

    def __init__(self, followed, caps, unseen):
        R = len(unseen)
        hands, effort = [], 0
        for cases in followed:
            known, pool = cases.known_counts().astype(np.int64), cases.pool_sizes().astype(np.int64)
            pooled = [bool(cases.pool_mask >> r & 1) for r in range(R)]
            room = np.array([caps[r] if pooled[r] else 0 for r in range(R)], dtype=np.int64)
            rows = np.unique(np.column_stack([known, pool]), axis=0)  # cases alike here count once
            uncertain = np.array([r for r in range(R) if (rows[:, r] != rows[0, r]).any()], dtype=np.int64)
            effort += (1 << len(uncertain)) * len(rows) * (int(room.sum()) + 10)
            hands.append((pooled, room, rows[:, :R], rows[:, R], uncertain))
        #: Whether the plan was made (see :attr:`MAX_EFFORT`); :meth:`cost` and :meth:`best` need it.
        self.usable = effort <= self.MAX_EFFORT
        if not self.usable:
            return
        dims, counts = [], []
        for pooled, room, known, pool, uncertain in hands:
            bound = _bounds(np.ascontiguousarray(known), np.ascontiguousarray(pool), room, uncertain)
            dims.append(_dims(bound, room, uncertain, R))
            most = known + np.where(pooled, np.minimum(pool[:, None], np.array(caps)), 0)
            counts.append(np.minimum(np.array(caps), most.max(axis=0, initial=0)) + 1)
        self._dims = np.array(dims)
        self._counts = np.array(counts, dtype=np.int64)
        self._unseen = np.array(unseen, dtype=np.int64)

    def cost(self, order) -> float:
        """What ``order`` costs under the bounds (an estimate of :func:`.contract.work`, often too high)."""
        return float(_path_cost(self._dims, self._counts, self._unseen, np.array(order, dtype=np.int64)))

    def best(self) -> list[int]:
        """The order of the ranks that costs least under the bounds."""
        return [int(r) for r in _cheapest_path(self._dims, self._counts, self._unseen)]


def planned_order(followed, caps, unseen) -> list[int]:
    """The order of the ranks that costs the count least under the hands' bounds: :meth:`Plan.best`."""
    return Plan(followed, caps, unseen).best()
