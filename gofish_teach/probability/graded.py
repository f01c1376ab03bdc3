"""The exact count once more, carrying only the joined states that can still become a world.

A hidden hand's inner index between two places stands for what its cases still need from the
places after it, so each index has a *grade*: how many of the hand's cards the ranks before
that place hold (:func:`grades`; the row reductions of :mod:`.hands` keep indices of one grade
apart, since a need's column only touches rows of its own grade). Between two places, the
hands' grades add up to the unseen cards of the ranks placed so far less those of them in the
ocean, which holds ``ocean`` cards in all: so the sum lies in a window :func:`window` at most
``ocean + 1`` wide. Late in a game the ocean is small, and most of the joined states that
:func:`.contract.count_worlds` carries (every combination of the hands' indices) can never
become a world: at one six-player count with two cards in the ocean, 1-30% of them are left at
each place, 3,468 of 229,824 at the widest. (In tensor-network terms the grade is a conserved
charge, and the joined states are block-sparse.)

This sweep carries only those, as sparse lists of states: one int64 key per state (each hand's
index, and the tally of the rank being taken, in bit fields) and its residues modulo each prime
(float64, exact as in :mod:`.modular`), in compiled loops. Otherwise it goes as :mod:`.contract`
does: rank by rank, hands taken one at a time with a tally of the rank's cards (the states alike
but for the hand's index and the tally are grouped by a radix sort, and each group is taken
into a small dense block), the ocean's share weighed by that tally (a hash table merges what
the tally told apart), the counts at one rank by joining the states from the left with those
from the right around each hand. Same counts (tests compare them); where the ocean is small, a
fraction of the dense sweep's time (:data:`.exact.GRADED_COST`); with a big ocean the window is
wide, nothing is saved, and :func:`.exact._world_counts` keeps the dense sweep.

>>> from gofish_teach.probability.hands import Hand
>>> from gofish_teach.probability.contract import count_worlds
>>> from gofish_teach.probability.modular import PRIMES
>>> hands = [Hand.dealt(2, [True] * 3, primes=PRIMES[:2]), Hand.dealt(3, [True] * 3, primes=PRIMES[:2])]
>>> grades(hands[0])                          # before rank 0, between the ranks, after the last
[[0], [0, 1, 2], [0, 1, 2], [2]]
>>> count_worlds_graded(hands, [2, 2, 2], PRIMES[:2], ocean=1) == count_worlds(hands, [2, 2, 2], PRIMES[:2], ocean=1)
True
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .modular import crt, enough, falling

#: Most states a partial step may hold (with their residues, 8 bytes each per prime): past it the
#: count raises :class:`TooManyStates` and :func:`.exact._world_counts` counts densely instead.
MAX_STATES = 4_000_000


class TooManyStates(Exception):
    """A partial step of the graded sweep would pass :data:`MAX_STATES`."""


def grades(hand) -> list[list[int]] | None:
    """Each inner index's grade, place by place (before rank 0, between the ranks, after the last):
    the hand's cards of the ranks before it. None if an index would have two grades (a prime
    whose row reduction chose other pivots, which is rare): then the graded sweep does not apply.
    """
    out = [np.zeros(1, np.int64)]
    for A in hand.tensors:
        x, a, b = np.nonzero((A != 0).any(axis=0))  # (count, index before, index after)
        new = out[-1][a] + x
        low, high = np.full(A.shape[3], 2 ** 62, np.int64), np.full(A.shape[3], -1, np.int64)
        np.minimum.at(low, b, new)
        np.maximum.at(high, b, new)
        if (low[high >= 0] != high[high >= 0]).any() or (out[-1][a] < 0).any():
            return None
        out.append(high)  # -1: an index no count reaches (it adds nothing)
    return [g.tolist() for g in out]


def window(placed: int, unseen_total: int, ocean: int) -> tuple[int, int]:
    """The hands' total grade where the ranks placed hold ``placed`` unseen cards (of
    ``unseen_total``): at least the placed cards less all of the ocean, at most less what of the
    ocean the other ranks cannot hold.

    >>> window(10, 30, 2), window(29, 30, 2)     # the ocean's 2 cards may be among the 10; one must be among the 29
    ((8, 10), (27, 28))
    """
    return placed - min(ocean, placed), placed - max(0, ocean - (unseen_total - placed))


# ------------------------------------------------------------------ compiled loops

@njit(cache=True)
def _find(table, key):
    # open addressing, linear probing; table[:, 0] keys (-1 empty), table[:, 1] slots
    mask = table.shape[0] - 1
    h = (key * 0x9E3779B97F4A7C15) & mask
    while table[h, 0] != -1 and table[h, 0] != key:
        h = (h + 1) & mask
    return h


@njit(cache=True)
def _table(n):
    size = 1 << 12
    while size < 2 * n:
        size <<= 1
    return np.full((size, 2), -1, np.int64)


@njit(cache=True)
def _order(keys, bound):
    """The order that sorts ``keys`` (non-negative, below ``bound``), with equal keys in their
    order: a radix sort, 11 bits a pass (a few passes here, against a comparison sort's log n)."""
    n = len(keys)
    order, spare = np.arange(n), np.empty(n, np.int64)
    held, spare_keys = keys.copy(), np.empty(n, np.int64)
    count = np.empty(2049, np.int64)
    shift = 0
    while shift == 0 or (bound - 1) >> shift > 0:
        count[:] = 0
        for i in range(n):
            count[((held[i] >> shift) & 2047) + 1] += 1
        for c in range(2048):
            count[c + 1] += count[c]
        for i in range(n):
            digit = (held[i] >> shift) & 2047
            spare[count[digit]], spare_keys[count[digit]] = order[i], held[i]
            count[digit] += 1
        order, spare = spare, order
        held, spare_keys = spare_keys, held
        shift += 11
    return order


@njit(cache=True)
def _take(keys, msum, vals, p, shift, radix, tshift, sign, ptr, tgt, xs, coef, mlo, mhi, tlo, tmax, limit):
    """Take one hand into every state: its index moves along the hand's matrices (``ptr``/``tgt``:
    where each index leads, with count ``xs`` and residues ``coef``), the tally and the hands'
    grade sum ``msum`` (by ``sign * x``) with it; states whose sum or tally falls outside
    [mlo, mhi] or [tlo, tmax] are dropped. ``vals`` is (states, primes). Returns the new keys,
    sums and residues, and False instead of them past ``limit`` states.

    States alike but for this hand's index and the tally (a group) lead to states alike in the
    same way, so the states are taken group by group, each into a small dense block (this
    hand's index by tally) that is then read off: no hashing."""
    N, P = vals.shape
    group = np.empty(N, np.int64)
    for i in range(N):
        group[i] = keys[i] & ~((radix - 1) << shift) & ((1 << tshift) - 1)
    order = _order(group, 1 << tshift)
    block = np.zeros((radix, tmax + 1, P))
    slot = np.full((radix, tmax + 1), -1, np.int64)
    touched_b = np.empty(radix * (tmax + 1), np.int64)
    touched_t = np.empty(radix * (tmax + 1), np.int64)
    touched_m = np.empty(radix * (tmax + 1), np.int64)
    cap = max(N, 16)
    out_keys = np.empty(cap, np.int64)
    out_msum = np.empty(cap, np.int64)
    acc = np.empty((cap, P))
    n, i0 = 0, 0
    while i0 < N:
        g = group[order[i0]]
        i1 = i0
        touched = 0
        while i1 < N and group[order[i1]] == g:
            i = order[i1]
            b = (keys[i] >> shift) & (radix - 1)
            t = keys[i] >> tshift
            for e in range(ptr[b], ptr[b + 1]):
                x = xs[e]
                t2 = t + x
                m2 = msum[i] + sign * x
                if t2 < tlo or t2 > tmax or m2 < mlo or m2 > mhi:
                    continue
                b2 = tgt[e]
                if slot[b2, t2] < 0:
                    slot[b2, t2] = touched
                    touched_b[touched], touched_t[touched], touched_m[touched] = b2, t2, m2
                    touched += 1
                cell, v, c = block[b2, t2], vals[i], coef[e]
                for k in range(P):  # exact in float64: each below 2**44, at most the hand's indices (< 2**9)
                    cell[k] += v[k] * c[k]
            i1 += 1
        if n + touched > cap:
            if n + touched > limit:
                return out_keys[:0], out_msum[:0], acc[:0], False
            while n + touched > cap:
                cap *= 2
            k2, m3, a2 = np.empty(cap, np.int64), np.empty(cap, np.int64), np.empty((cap, P))
            k2[:n], m3[:n], a2[:n] = out_keys[:n], out_msum[:n], acc[:n]
            out_keys, out_msum, acc = k2, m3, a2
        for j in range(touched):
            b2, t2 = touched_b[j], touched_t[j]
            out_keys[n] = g | (b2 << shift) | (t2 << tshift)
            out_msum[n] = touched_m[j]
            for k in range(P):
                acc[n, k] = block[b2, t2, k] % p[k]
                block[b2, t2, k] = 0
            slot[b2, t2] = -1
            n += 1
        i0 = i1
    return out_keys[:n], out_msum[:n], acc[:n], True


@njit(cache=True)
def _close(keys, msum, vals, p, tshift, factor, mlo, mhi):
    """Weigh each state by the ocean's share for its tally (``factor[t, k]``) and drop the tally,
    merging the states it told apart; states whose grade sum lies outside [mlo, mhi] go."""
    N, P = vals.shape
    table = _table(N)
    out_keys = np.empty(N, np.int64)
    out_msum = np.empty(N, np.int64)
    acc = np.zeros((N, P))
    n = 0
    for i in range(N):
        if msum[i] < mlo or msum[i] > mhi:
            continue
        t = keys[i] >> tshift
        key2 = keys[i] & ((1 << tshift) - 1)
        h = _find(table, key2)
        if table[h, 0] == -1:
            table[h, 0], table[h, 1] = key2, n
            out_keys[n], out_msum[n] = key2, msum[i]
            n += 1
        s = table[h, 1]
        for k in range(P):
            acc[s, k] += vals[i, k] * factor[t, k]
    for s in range(n):
        for k in range(P):
            acc[s, k] %= p[k]
    return out_keys[:n], out_msum[:n], acc[:n]


@njit(cache=True)
def _rests(keys, shift, radix, tshift):
    # each key without one hand's index and without the tally
    rest = np.empty(len(keys), np.int64)
    for j in range(len(keys)):
        rest[j] = keys[j] & ~((radix - 1) << shift) & ((1 << tshift) - 1)
    return rest


@njit(cache=True)
def _join(fkeys, fvals, bkeys, bvals, p, shift, radix, tshift, ptr, tgt, xs, coef, d, tmax):
    """The counts of one hand at one rank, before the ocean's share: the states from the left
    (the hand at its index before the rank, tally t1) are taken through the hand's moves
    (``ptr``, ``tgt``, ``xs``, ``coef``, as :func:`_take`) keeping its count x apart, and meet
    the states from the right (at its index after the rank, tally t2) that agree on every index.
    Returns ``out[x, t, k]``: the hand holds x, the hands t in all, for prime k."""
    N, P = fvals.shape
    out = np.zeros((d, tmax + 1, P))
    frest, brest = _rests(fkeys, shift, radix, tshift), _rests(bkeys, shift, radix, tshift)
    forder, border = _order(frest, 1 << tshift), _order(brest, 1 << tshift)
    W = np.zeros((radix, tmax + 1, d, P))  # one group's left states, taken through the hand
    seen = np.zeros((radix, tmax + 1, d), np.bool_)
    size = radix * (tmax + 1) * d
    cells_b, cells_t, cells_x = np.empty(size, np.int64), np.empty(size, np.int64), np.empty(size, np.int64)
    on_b = np.zeros(radix, np.int64)  # how many cells each index after the rank has, and where
    first_b = np.zeros(radix, np.int64)
    by_b = np.empty(size, np.int64)  # the cells in order of that index
    i, j, Nb = 0, 0, len(bkeys)
    while i < N and j < Nb:
        g = frest[forder[i]]
        gb = brest[border[j]]
        if gb < g:
            j += 1
            continue
        if g < gb:
            i += 1
            continue
        cells = 0
        while i < N and frest[forder[i]] == g:
            f = forder[i]
            b = (fkeys[f] >> shift) & (radix - 1)
            t1 = fkeys[f] >> tshift
            for e in range(ptr[b], ptr[b + 1]):
                b2, x = tgt[e], xs[e]
                t = t1 + x
                if t > tmax:
                    continue
                if not seen[b2, t, x]:
                    seen[b2, t, x] = True
                    cells_b[cells], cells_t[cells], cells_x[cells] = b2, t, x
                    cells += 1
                cell, v, c = W[b2, t, x], fvals[f], coef[e]
                for k in range(P):  # exact in float64: each below 2**44, at most the hand's indices (< 2**9)
                    cell[k] += v[k] * c[k]
            i += 1
        for c in range(cells):
            b2, t, x = cells_b[c], cells_t[c], cells_x[c]
            on_b[b2] += 1
            for k in range(P):
                W[b2, t, x, k] %= p[k]
        # the cells by index after the rank, so that each right state reads only its own
        total = 0
        for b2 in range(radix):
            first_b[b2] = total
            total += on_b[b2]
            on_b[b2] = 0
        for c in range(cells):
            b2 = cells_b[c]
            slot = first_b[b2] + on_b[b2]
            on_b[b2] += 1
            by_b[slot] = c
        while j < Nb and brest[border[j]] == g:
            r = border[j]
            b2 = (bkeys[r] >> shift) & (radix - 1)
            t2 = bkeys[r] >> tshift
            for slot in range(first_b[b2], first_b[b2] + on_b[b2]):
                c = by_b[slot]
                t, x = cells_t[c], cells_x[c]
                if t + t2 > tmax:
                    continue
                for k in range(P):
                    out[x, t + t2, k] += W[b2, t, x, k] * bvals[r, k] % p[k]
            j += 1
        for c in range(cells):
            b2, t, x = cells_b[c], cells_t[c], cells_x[c]
            seen[b2, t, x] = False
            on_b[b2] = 0
            for k in range(P):
                W[b2, t, x, k] = 0
    for x in range(d):
        for t in range(tmax + 1):
            for k in range(P):
                out[x, t, k] %= p[k]
    return out


# ------------------------------------------------------------------ the sweep

def count_worlds_graded(hands, unseen, primes, ocean: int, same=None, limit: int | None = None):
    """:func:`.contract.count_worlds` (no teams) for ``ocean`` unseen cards in the ocean, through
    the graded states: the same ``(total, seat_counts, ocean_counts)``. Raises
    :class:`TooManyStates` past ``limit`` states in a partial step (:data:`MAX_STATES` by
    default), and ``ValueError`` if a hand's indices have no grade (see :func:`grades`)."""
    k, R, P = len(hands), len(unseen), len(primes)
    limit = MAX_STATES if limit is None else limit
    if any(h.is_zero() for h in hands):
        return 0, [[{} for _ in range(R)] for _ in hands], [{} for _ in range(R)]
    g = [grades(h) for h in hands]
    if any(x is None for x in g):
        raise ValueError("a hand's inner index has no single grade")
    p = np.array(primes, dtype=np.float64)
    total_unseen = int(sum(unseen))
    placed = np.concatenate([[0], np.cumsum(unseen)]).astype(int)
    windows = [window(int(placed[s]), total_unseen, ocean) for s in range(R + 1)]
    # a state's key: hand q's index at bits shifts[q] on, the tally at bit tshift on (bit fields: no division)
    bits = [max(1, (max(len(gr) for gr in g[q]) - 1).bit_length()) for q in range(k)]
    radix = [1 << b for b in bits]
    shifts = [sum(bits[:q]) for q in range(k)]
    tshift = sum(bits)
    if max(radix) > 256:  # a sum would pass 2**53 (2**9 products below 2**44 each)
        raise TooManyStates("a hand's inner index is too wide for the graded sweep's sums")
    if tshift + (2 * max(unseen) + 8).bit_length() >= 62:
        raise TooManyStates("the hands' indices do not fit one key")
    same = same or list(range(R))
    moves = [[_hand_moves(hands[q].tensors[s][:P]) for q in range(k)] for s in range(R)]
    factors = [np.array([[falling(u, t) % q for q in primes] for t in range(u + 1)], dtype=np.float64) for u in unseen]
    least = [max(0, u - ocean) for u in unseen]
    room = [[h.tensors[s].shape[1] - 1 for h in hands] for s in range(R)]

    def chain(keys, msum, vals, s, right):
        """The partial steps of rank s: hands taken first to last (from the left) or last to first."""
        lo, hi = windows[s] if right else windows[s + 1]
        steps = [(keys, msum, vals)]
        after = sum(room[s])  # what the hands still to take can add to the tally
        for q in (range(k - 1, -1, -1) if right else range(k)):
            after -= room[s][q]
            # the grade sum, once every hand is taken, must lie in the window on the far side
            mlo, mhi = (lo, hi + after) if right else (lo - after, hi)
            keys, msum, vals, ok = _take(keys, msum, vals, p, shifts[q], radix[q], tshift, -1 if right else 1,
                                         *moves[s][q][1 if right else 0], mlo, mhi, least[s] - after, unseen[s], limit)
            if not ok:
                raise TooManyStates(f"a partial step of the graded count past {limit} states")
            steps.append((keys, msum, vals))
        return steps

    left = (np.zeros(1, np.int64), np.zeros(1, np.int64), np.ones((1, P)))
    kept = {}
    for s in range(R):
        steps = chain(*left, s, right=False)
        if same[s] == s:
            kept[s] = steps[:-1]  # the counts at rank s join these with the right's
        left = _close(*steps[-1], p, tshift, factors[s], *windows[s + 1])
    keys, _, vals = left
    total = [int(v) for v in vals[0]] if len(keys) else [0] * P
    # as in contract.count_worlds: the counts need no more primes than the total does
    used = enough(tuple(primes), crt(total, primes))
    p = p[:len(used)]
    moves = [[tuple(_fewer(lists, len(p)) for lists in hand[:2]) + hand[2:] for hand in row] for row in moves]
    counts = [None] * R
    right = (np.zeros(1, np.int64), np.array([sum(g[q][R][0] for q in range(k))], np.int64),
             np.ones((1, len(p))))
    for s in range(R - 1, -1, -1):
        back = chain(*right, s, right=True)
        if same[s] == s:
            fwd = kept.pop(s)
            by_seat, by_total = [], {}
            factor = factors[s][:, :len(p)]
            for q in range(k):
                (fk, _, fv), (bk, _, bv) = fwd[q], back[k - 1 - q]
                fwd_moves, _, d = moves[s][q]
                out = _join(fk, np.ascontiguousarray(fv[:, :len(p)]), bk, bv, p, shifts[q], radix[q], tshift,
                            *fwd_moves, d, unseen[s])
                seat = {}
                for t in range(least[s], min(unseen[s], out.shape[1] - 1) + 1):
                    part = out[:, t] * factor[t] % p  # (x, primes)
                    for x in range(out.shape[0]):
                        seat[x] = (seat.get(x, 0) + part[x]) % p
                    if q == 0:
                        by_total[t] = part.sum(axis=0) % p
                by_seat.append(seat)
            counts[s] = (by_seat, by_total)
        right = _close(*back[-1], p, tshift, factors[s][:, :len(p)], *windows[s])
    seat_counts = [[{} for _ in range(R)] for _ in hands]
    ocean_counts = [{} for _ in range(R)]
    for s in range(R):
        by_seat, by_total = counts[same[s]]
        for q in range(k):
            for x, residues in sorted(by_seat[q].items()):
                n = crt([int(v) for v in residues], used)
                if n:
                    seat_counts[q][s][x] = n
        for t, residues in sorted(by_total.items()):
            n = crt([int(v) for v in residues], used)
            if n:
                ocean_counts[s][unseen[s] - t] = n
    return crt(total[:len(used)], used), seat_counts, ocean_counts


def _hand_moves(A: np.ndarray):
    """A hand's matrices at one rank (``A``: primes, count, index before, index after) as lists of
    moves: from each index before the rank (``(ptr, to, count, residues)``, residues by move and
    prime), and from each index after it back to before; then the counts the rank can have."""
    A = np.ascontiguousarray(np.moveaxis(A, 0, -1))  # (d, Din, Dout, P), float64 residues
    d, Din, Dout, P = A.shape
    x, a, b = np.nonzero((A != 0).any(axis=-1))

    def lists(src, dst, n):
        order = np.lexsort((dst, src))
        ptr = np.searchsorted(src[order], np.arange(n + 1)).astype(np.int64)
        residues = np.ascontiguousarray(A[x[order], a[order], b[order]])
        return ptr, dst[order].astype(np.int64), x[order].astype(np.int64), residues

    return lists(a, b, Din), lists(b, a, Dout), d


def _fewer(lists, P: int):
    """Move lists (:func:`_hand_moves`) with the residues of the first ``P`` primes only."""
    ptr, to, count, residues = lists
    return ptr, to, count, np.ascontiguousarray(residues[:, :P])


def feasible_share(hands, unseen, ocean: int, g=None) -> float:
    """The share of the joined states, summed over the places between ranks, whose grades add up
    within the window (:func:`window`): about what the graded sweep carries of the dense one's.

    >>> from gofish_teach.probability.hands import Hand
    >>> from gofish_teach.probability.modular import PRIMES
    >>> hands = [Hand.dealt(2, [True] * 3, primes=PRIMES[:1]), Hand.dealt(3, [True] * 3, primes=PRIMES[:1])]
    >>> round(feasible_share(hands, [2, 2, 2], ocean=1), 4)   # 5 of the 3 x 4 pairs of indices at each place
    0.4167
    """
    g = g or [grades(h) for h in hands]
    total_unseen = int(sum(unseen))
    placed = np.cumsum(unseen)
    dense, kept = 0, 0
    for s in range(1, len(unseen)):
        sums = np.ones(1)
        for q in range(len(hands)):
            grade = np.array(g[q][s])
            sums = np.convolve(sums, np.bincount(grade[grade >= 0]).astype(float))
        lo, hi = window(int(placed[s - 1]), total_unseen, ocean)
        dense += sums.sum()
        kept += sums[lo:hi + 1].sum()
    return float(kept / dense) if dense else 1.0
