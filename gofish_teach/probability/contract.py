"""Put the hidden hands and the ocean together: exact counts of worlds, rank by rank.

A world puts ``x[q][r]`` cards of rank r in hidden hand q and the rest of the unseen cards
of r, ``o[r] = unseen[r] - sum_q x[q][r]``, in the ocean. Its weight is the product of the
hands' weights ``G_q(x[q])`` and of the ocean's ``ocean! / prod(o[r]!)`` (every order of the
ocean is a different deck), which up to a constant is ``prod_r unseen[r]! / o[r]!``.

Each hand is a product of per-rank matrices (:class:`~.hands.Hand`), so the sum over all
worlds is a product of per-rank steps too: sweep the ranks left to right carrying one
index per hand (an "environment"), and right to left likewise; the counts at one rank are
then its step between the two environments, with one hand's count kept apart. Within a
rank, the hands are taken one at a time, carrying how many cards of the rank they hold so
far (never more than there are), since the ocean's share depends on that sum. Everything is
done modulo each prime (:mod:`.modular`) and put together by CRT at the end.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .modular import crt, falling


@njit(cache=True)
def _seat_step(X, A, pre, post, opened, smax, primes):
    """Take one hand into a partial step.

    ``X`` is (P, O, S, pre*Din*post): prime, the kept-apart count (O=1 if none yet), the
    cards of this rank held so far, and the flattened inner indices with this hand's in the
    middle. ``A`` is (P, d, Din, Dout). Returns the same with this hand's index now Dout and
    its count added to the sum (kept apart too when ``opened``).
    """
    P, O, S, _ = X.shape
    d, Din, Dout = A.shape[1], A.shape[2], A.shape[3]
    S2 = min(S + d - 1, smax)
    O2 = d if opened else O
    Y = np.zeros((P, O2, S2, pre * Dout * post))
    # Each sum over b stays below Din * 2**42 and each Y entry adds at most d of them: with
    # Din * d < 2**11 everything is an exact float64 integer until the one reduction at the end.
    for k in range(P):
        for o in range(O):
            for s in range(S):
                for x in range(d):
                    s2 = s + x
                    if s2 >= S2:
                        break
                    o2 = x if opened else o
                    for i in range(pre):
                        for a in range(Dout):
                            for j in range(post):
                                acc = 0.0
                                for b in range(Din):
                                    acc += X[k, o, s, (i * Din + b) * post + j] * A[k, x, b, a]
                                Y[k, o2, s2, (i * Dout + a) * post + j] += acc
    for k in range(P):
        p = primes[k]
        for o in range(O2):
            for s in range(S2):
                for c in range(Y.shape[3]):
                    Y[k, o, s, c] = Y[k, o, s, c] % p
    return Y


def _rank_step(E, tensors, factor, p, open_seat=None, right=False):
    """One rank between environments: sum over the hands' counts x, weighted by factor[sum x].

    ``E`` is (P, D1, ..., Dk). Returns the new environment (P, D1', ..., Dk'); or with
    ``open_seat`` = q, the array (P, count of q, total count, D1', ..., Dk') unweighted.
    """
    P, dims = E.shape[0], list(E.shape[1:])
    X = E.reshape(P, 1, 1, -1)
    smax = factor.shape[1]  # counts beyond the unseen cards of this rank have no world
    for q, A in enumerate(tensors):
        M = np.ascontiguousarray(A.transpose(0, 1, 3, 2)) if right else A
        assert M.shape[1] * M.shape[2] < 2 ** 11, "inner dimension too large for exact float64 sums"
        pre, post = int(np.prod(dims[:q])), int(np.prod(dims[q + 1:]))
        X = _seat_step(X, M, pre, post, open_seat == q, smax, p)
        dims[q] = M.shape[3]
    if open_seat is not None:
        return X.reshape([P, X.shape[1], X.shape[2]] + dims)
    S = X.shape[2]
    out = (X[:, 0] * factor[:, :S, None] % p[:, None, None]).sum(axis=1) % p[:, None]
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
        site = [h.tensors[s] for h in hands]
        for q in range(k):
            X = _rank_step(left[s], site, factors[s], p, open_seat=q)  # (P, x_q, sum, D'...)
            closed = X.reshape(P, X.shape[1], X.shape[2], -1) * right[s + 1].reshape(P, 1, 1, -1) % p[:, None, None, None]
            by_sum = closed.sum(axis=3) % p[:, None, None] * factors[s][:, None, :X.shape[2]] % p[:, None, None]
            for x in range(by_sum.shape[1]):
                n = crt(by_sum[:, x].sum(axis=1) % p, primes)
                if n:
                    seat_counts[q][s][x] = n
            if q == 0:  # the sum over all hands gives the ocean's count
                for total_x in range(by_sum.shape[2]):
                    n = crt(by_sum[:, :, total_x].sum(axis=1) % p, primes)
                    if n:
                        ocean_counts[s][unseen[s] - total_x] = n
    return total, seat_counts, ocean_counts
