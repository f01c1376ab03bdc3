"""Put the hidden hands and the ocean together: exact counts of worlds, rank by rank.

A world puts ``x[q][r]`` cards of rank r in hidden hand q and the rest of the unseen cards
of r, ``o[r] = unseen[r] - sum_q x[q][r]``, in the ocean. Its weight is the product of the
hands' weights ``G_q(x[q])`` and of the ocean's ``ocean! / prod(o[r]!)`` (every order of the
ocean is a different deck), which up to a constant is ``prod_r unseen[r]! / o[r]!``.

Each hand is a product of per-rank matrices (:class:`~.hands.Hand`), so the sum over all
worlds is a product of per-rank steps too: sweep the ranks left to right carrying one
index per hand (an "environment"), and right to left likewise. Within a rank the hands are
taken one at a time, carrying how many cards of the rank they hold so far (never more than
there are), since the ocean's share depends on that sum. The counts at one rank come from
leaving one hand out of its step: what is left, closed with both environments, is that
hand's own matrix's "environment", and one product with each of its count's matrices gives
the worlds by that count.

Everything is done modulo each prime (:mod:`.modular`), as float64 matrix products (BLAS)
whose sums stay below 2**53, and put together by CRT at the end.
"""
from __future__ import annotations

import numpy as np

from .modular import MAX_SUM_TERMS, crt, falling, reduce_into


def _dot_mod(a: np.ndarray, b: np.ndarray, p: float) -> np.ndarray:
    """``a @ b`` modulo ``p`` for residues below ``p`` < 2**21: inner sums cut into exact chunks."""
    n = a.shape[1]
    if n <= MAX_SUM_TERMS:
        return (a @ b) % p
    out = np.zeros((a.shape[0], b.shape[1]))
    for j in range(0, n, MAX_SUM_TERMS):
        out += (a[:, j:j + MAX_SUM_TERMS] @ b[j:j + MAX_SUM_TERMS]) % p
    return out % p


def _shifted(A: np.ndarray, S: int, smax: int) -> tuple[np.ndarray, int]:
    """Hand matrices as one block matrix per prime, from (sum so far, Din) to (new sum, Dout).

    Block (s, s + x) is ``A[x]``: taking the hand adds its count x to the sum. Sums past
    ``smax - 1`` are dropped (there are no such cards).
    """
    P, d, Din, Dout = A.shape
    S2 = min(S + d - 1, smax)
    M = np.zeros((P, S, Din, S2, Dout))
    for s in range(S):
        for x in range(min(d, S2 - s)):
            M[:, s, :, s + x] = A[:, x]
    return M, S2


def _take(X: np.ndarray, q: int, A: np.ndarray, smax: int, p: np.ndarray) -> np.ndarray:
    """Take hand ``q`` into a partial step: its index goes from ``Din`` to ``Dout``.

    ``X`` is (P, D_0, ..., D_k-1, S): prime, one index per hand, and the cards of this rank
    held by the hands taken so far. ``A`` is (P, d, Din, Dout). Returns the same with hand q's
    index now ``Dout`` and its count added to the sum.
    """
    P, S, Din, Dout = X.shape[0], X.shape[-1], A.shape[2], A.shape[3]
    M, S2 = _shifted(A, S, smax)
    # Each entry sums S * Din products under 2**42: exact in float64 below 2**53.
    assert S * Din <= MAX_SUM_TERMS, "inner dimension too large for exact float64 sums"
    rest = X.shape[1:1 + q] + X.shape[2 + q:-1]
    out = np.empty((P,) + rest + (S2, Dout))
    for k in range(P):
        Z = np.tensordot(X[k], M[k], axes=([q, X.ndim - 2], [1, 0]))  # (rest..., S2 * Dout)
        reduce_into(Z, out[k], p[k])
    return np.moveaxis(out, -1, 1 + q)


def _rank_step(E, tensors, factor, p, right=False):
    """One rank of the sweep: sum over the hands' counts x, weighted by ``factor[sum x]``.

    ``E`` is the environment (P, D1, ..., Dk) before the rank (after it, sweeping ``right``
    to left); returns the one on the other side.
    """
    X = E[..., None]
    for q, A in enumerate(tensors):
        X = _take(X, q, A.transpose(0, 1, 3, 2) if right else A, factor.shape[1], p)
    S = X.shape[-1]
    out = np.empty(X.shape[:-1])
    for k in range(len(p)):
        # S <= 5 products under 2**42 each: the sum is exact before the one reduction
        reduce_into(X[k] @ factor[k, :S], out[k], p[k])
    return out


def _rank_counts(E, F, tensors, factor, p):
    """The worlds at one rank by each hand's count, and by the hands' total count.

    ``E`` and ``F`` are the environments on either side of the rank. Returns
    ``(by_seat, by_total)``: ``by_seat[q] = {x: residues (P,)}``, ``by_total = {n: residues}``.
    """
    P, smax = len(p), factor.shape[1]
    by_seat, by_total = [], {}
    for q, A in enumerate(tensors):
        X = E[..., None]
        for q2, A2 in enumerate(tensors):
            if q2 != q:
                X = _take(X, q2, A2, smax, p)
        d, Din, Dout = A.shape[1:]
        S = X.shape[-1]
        val = np.zeros((P, S, d))  # val[s, x]: the others hold s, hand q holds x (ocean not yet weighed)
        for j in range(P):
            Xq = np.moveaxis(X[j], (X.ndim - 2, q), (0, 1)).reshape(S * Din, -1)
            Fq = np.moveaxis(F[j], q, 0).reshape(Dout, -1)
            env = _dot_mod(Xq, np.ascontiguousarray(Fq.T), p[j]).reshape(S, Din * Dout)
            val[j] = _dot_mod(env, np.ascontiguousarray(A[j].reshape(d, Din * Dout).T), p[j])
        seat = {}
        for x in range(d):
            for s in range(min(S, smax - x)):
                w = val[:, s, x] * factor[:, s + x] % p
                seat[x] = (seat.get(x, 0) + w) % p
                if q == 0:
                    by_total[s + x] = (by_total.get(s + x, 0) + w) % p
        by_seat.append(seat)
    return by_seat, by_total


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
        by_seat, by_total = _rank_counts(left[s], right[s + 1], [h.tensors[s] for h in hands], factors[s], p)
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
