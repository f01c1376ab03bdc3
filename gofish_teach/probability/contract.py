"""Put the hidden hands and the ocean together: exact counts of worlds, rank by rank.

A world puts ``x[q][r]`` cards of rank r in hidden hand q and the rest of the unseen cards
of r, ``o[r] = unseen[r] - sum_q x[q][r]``, in the ocean. Its weight is the product of the
hands' weights ``G_q(x[q])`` and of the ocean's ``ocean! / prod(o[r]!)`` (every order of the
ocean is a different deck), which up to a constant is ``prod_r unseen[r]! / o[r]!``.

Each hand is a product of per-rank matrices (:class:`~.hands.Hand`), so the sum over all
worlds is a product of per-rank steps too: sweep the ranks left to right carrying one
index per hand (an "environment"), and right to left likewise; the counts at one rank are
then its step between the two environments, with every hand's count kept apart. Within a
rank, the hands are taken one at a time, carrying how many cards of the rank they hold so
far (never more than there are), since the ocean's share depends on that sum. Everything is
done modulo each prime (:mod:`.modular`) and put together by CRT at the end.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .modular import crt, falling


@njit(cache=True)
def _middle(src, M, pre, post, dst):
    """``dst += src`` with its middle index contracted with ``M``: src is (pre, Din, post) flat,
    M (Din, Dout), dst (pre, Dout, post) flat. Sums of up to Din products below 2**42."""
    Din, Dout = M.shape
    for i in range(pre):
        for a in range(Dout):
            for j in range(post):
                acc = 0.0
                for b in range(Din):
                    acc += src[(i * Din + b) * post + j] * M[b, a]
                dst[(i * Dout + a) * post + j] += acc


@njit(cache=True)
def _seat_step(X, A, pre, post, smax, primes):
    """Take one hand into a partial step of the sweep.

    ``X`` is (P, S, pre*Din*post): prime, the cards of this rank held by the hands so far,
    and the flattened inner indices with this hand's in the middle. ``A`` is (P, d, Din, Dout).
    Returns the same with this hand's index now Dout and its count added to the sum.
    """
    P, S, _ = X.shape
    d, Dout = A.shape[1], A.shape[3]
    S2 = min(S + d - 1, smax)
    Y = np.zeros((P, S2, pre * Dout * post))
    # Each Y entry is a sum of at most d * Din products below 2**42: with Din * d < 2**11 it
    # stays an exact float64 integer until the one reduction at the end.
    for k in range(P):
        for s in range(S):
            for x in range(min(d, S2 - s)):
                _middle(X[k, s], A[k, x], pre, post, Y[k, s + x])
    for k in range(P):
        p = primes[k]
        for s in range(S2):
            for c in range(Y.shape[2]):
                Y[k, s, c] = Y[k, s, c] % p
    return Y


@njit(cache=True)
def _joint_step(X, sums, A, pre, post, smax, primes):
    """Take one hand into a step that keeps every hand's count apart.

    ``X`` is (P, C, pre*Din*post) with C combinations of the counts so far, whose totals are
    ``sums``; returns (P, C*d', ...) for the combinations extended by this hand's count, and
    their totals (combinations past ``smax`` - 1 cards of the rank are dropped).
    """
    P, C, _ = X.shape
    d, Dout = A.shape[1], A.shape[3]
    keep = []
    for c in range(C):
        for x in range(d):
            if sums[c] + x < smax:
                keep.append((c, x))
    Y = np.zeros((P, len(keep), pre * Dout * post))
    new_sums = np.empty(len(keep), np.int64)
    for n in range(len(keep)):
        c, x = keep[n]
        new_sums[n] = sums[c] + x
        for k in range(P):
            _middle(X[k, c], A[k, x], pre, post, Y[k, n])
            Y[k, n] %= primes[k]
    return Y, new_sums, keep


def _rank_counts(E, F, tensors, factor, p):
    """The worlds by every hand's count at one rank: ``{(x_1, ..., x_k): residues (P,)}``.

    ``E`` and ``F`` are the environments on either side of the rank.
    """
    P, dims = E.shape[0], list(E.shape[1:])
    X, sums, combos = E.reshape(P, 1, -1), np.zeros(1, np.int64), [()]
    for q, A in enumerate(tensors):
        pre, post = int(np.prod(dims[:q])), int(np.prod(dims[q + 1:]))
        X, sums, keep = _joint_step(X, sums, A, pre, post, factor.shape[1], p)
        combos = [combos[c] + (x,) for c, x in keep]
        dims[q] = A.shape[3]
    closed = (X * F.reshape(P, 1, -1) % p[:, None, None]).sum(axis=2) % p[:, None]
    weighted = closed * factor[:, sums] % p[:, None]
    return {combo: weighted[:, n] for n, combo in enumerate(combos)}


def _rank_step(E, tensors, factor, p, right=False):
    """One rank of the sweep: sum over the hands' counts x, weighted by ``factor[sum x]``.

    ``E`` is the environment (P, D1, ..., Dk) before the rank (after it, sweeping ``right``
    to left); returns the one on the other side.
    """
    P, dims = E.shape[0], list(E.shape[1:])
    X = E.reshape(P, 1, -1)
    for q, A in enumerate(tensors):
        M = np.ascontiguousarray(A.transpose(0, 1, 3, 2)) if right else A
        assert M.shape[1] * M.shape[2] < 2 ** 11, "inner dimension too large for exact float64 sums"
        pre, post = int(np.prod(dims[:q])), int(np.prod(dims[q + 1:]))
        X = _seat_step(X, M, pre, post, factor.shape[1], p)
        dims[q] = M.shape[3]
    S = X.shape[1]
    out = (X * factor[:, :S, None] % p[:, None, None]).sum(axis=1) % p[:, None]
    return out.reshape([P] + dims)


def count_worlds(hands, unseen, primes):
    """Exact world counts: the total, per hand and rank the counts by x, and per rank by ocean count.

    Returns ``(total, seat_counts, ocean_counts)`` with ``seat_counts[i][r] = {x: worlds}`` for
    ``hands[i]`` and ``ocean_counts[r] = {o: worlds}``, all Python ints (zero counts left out).
    """
    p = np.array(primes, dtype=np.float64)
    P, R, k = len(primes), len(unseen), len(hands)
    if any(h.is_zero() for h in hands):  # some hand's history is impossible: no world at all
        return 0, [[{} for _ in range(R)] for _ in hands], [{} for _ in range(R)]
    # factor[:, n] = unseen! / (unseen - n)!, the ocean's share when the hands hold n of the rank
    factors = [np.array([[falling(u, n) % q for n in range(u + 1)] for q in primes], dtype=np.float64)
               for u in unseen]
    ones = np.ones((P,) + (1,) * k)
    left = [ones]
    for s in range(R):
        left.append(_rank_step(left[-1], [h.tensors[s] for h in hands], factors[s], p))
    right = [ones] * (R + 1)
    for s in range(R - 1, -1, -1):
        right[s] = _rank_step(right[s + 1], [h.tensors[s] for h in hands], factors[s], p, right=True)
    total = crt(left[R].reshape(P), primes)
    seat_counts = [[{} for _ in range(R)] for _ in hands]
    ocean_counts = [{} for _ in range(R)]
    for s in range(R):
        by_seat = [{} for _ in hands]
        by_total = {}
        for combo, residues in _rank_counts(left[s], right[s + 1], [h.tensors[s] for h in hands], factors[s], p).items():
            for q, x in enumerate(combo):
                by_seat[q][x] = (by_seat[q].get(x, 0) + residues) % p
            by_total[sum(combo)] = (by_total.get(sum(combo), 0) + residues) % p
        for q in range(k):
            for x, residues in sorted(by_seat[q].items()):
                n = crt(residues, primes)
                if n:
                    seat_counts[q][s][x] = n
        for x, residues in sorted(by_total.items()):
            n = crt(residues, primes)
            if n:
                ocean_counts[s][unseen[s] - x] = n
    return total, seat_counts, ocean_counts
