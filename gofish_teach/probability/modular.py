"""Exact integer arithmetic done fast: residues modulo several small primes, then the
Chinese remainder theorem.

The counts behind a posterior are integers of up to ~200 bits. Numpy cannot hold them, but
it can hold their residues modulo primes below 2**22 in float64 *exactly*: a product of two
residues is below 2**44, and a sum of up to 2**9 such products stays below 2**53, the
float64 integer limit. So every contraction is an ordinary float64 matrix product
followed by ``% p``, and the true integer comes back by CRT once enough primes are used
(their product must exceed the largest integer we reconstruct).

>>> x = 3 ** 100
>>> crt([x % p for p in PRIMES[:8]], PRIMES[:8]) == x
True
>>> primes_for_bits(100) == PRIMES[:5]
True
"""
from __future__ import annotations

from math import lgamma, log, prod

import numpy as np
from numba import njit

#: Longest sum of products a float64 contraction may take before reducing (2**53 / 2**44).
MAX_SUM_TERMS = 2 ** 9

#: Below this many multiply-adds per prime, one stacked product over all primes beats a
#: product per prime (the per-call overhead dominates); above it, per-prime BLAS calls win.
STACKED = 100_000


def _is_prime(n: int) -> bool:
    if n < 2:
        return False
    f = 2
    while f * f <= n:
        if n % f == 0:
            return False
        f += 1
    return True


def _primes_below(limit: int, count: int) -> tuple[int, ...]:
    found, n = [], limit - 1
    while len(found) < count:
        if _is_prime(n):
            found.append(n)
        n -= 1
    return tuple(found)


#: The moduli, largest first: each below 2**22, so residues multiply exactly in float64.
PRIMES: tuple[int, ...] = _primes_below(2 ** 22, 24)


def primes_for_bits(bits: float) -> tuple[int, ...]:
    """The fewest of :data:`PRIMES` whose product exceeds ``2**bits``."""
    chosen, total = [], 0.0
    for p in PRIMES:
        chosen.append(p)
        total += log(p, 2)
        if total > bits:
            return tuple(chosen)
    raise ValueError(f"counts of {bits:.0f} bits are beyond the {len(PRIMES)} primes available")


def enough(primes, n: int) -> tuple[int, ...]:
    """The fewest of ``primes``, from the first, whose product exceeds ``n`` (all of them if none do).

    >>> enough((7, 5, 3), 30), enough((7, 5, 3), 35), enough((7, 5, 3), 0)
    ((7, 5), (7, 5, 3), (7,))
    """
    product = 1
    for i, p in enumerate(primes):
        product *= p
        if product > n:
            return tuple(primes[:i + 1])
    return tuple(primes)


def crt(residues, primes) -> int:
    """The integer in ``[0, prod(primes))`` with the given residues."""
    modulus = prod(primes)
    total = 0
    for r, p in zip(residues, primes, strict=True):
        q = modulus // p
        total += int(r) * q * pow(q, -1, p)
    return total % modulus


def falling(n: int, k: int) -> int:
    """``n (n-1) ... (n-k+1)`` = ``n!/(n-k)!``: ordered picks of k from n (0 when k > n).

    >>> falling(4, 2), falling(2, 3)
    (12, 0)
    """
    out = 1
    for i in range(k):
        out *= n - i
    return out


def log2_multinomial(counts) -> float:
    """log2 of ``sum(counts)! / prod(c!)``: how many ways to order a multiset."""
    n = sum(counts)
    return (lgamma(n + 1) - sum(lgamma(c + 1) for c in counts)) / log(2)


@njit(cache=True)
def _reduce_flat(a, out, p):
    inv = 1.0 / p
    for i in range(a.size):
        v = a[i]
        # floor(v / p) is at most one off for v < 2**53; q * p and v - q * p are exact
        r = v - np.floor(v * inv) * p
        if r < 0:
            r += p
        elif r >= p:
            r -= p
        out[i] = r


def reduce_into(a: np.ndarray, out: np.ndarray, p: float) -> np.ndarray:
    """``out[...] = a % p`` for float64 integers in [0, 2**53), a good deal faster than ``%``.

    >>> a = np.array([0.0, 6.0, 2.0 ** 52 + 1])
    >>> reduce_into(a, np.empty(3), 5.0).tolist() == [0.0, 1.0, float((2 ** 52 + 1) % 5)]
    True
    """
    _reduce_flat(np.ascontiguousarray(a).reshape(-1), out.reshape(-1), float(p))
    return out


@njit(cache=True)
def _reduce_rows(a, p):
    for k in range(a.shape[0]):
        _reduce_flat(a[k], a[k], p[k])


def reduce_each(a: np.ndarray, p: np.ndarray) -> np.ndarray:
    """``a[k] %= p[k]`` in place for each prime k (float64 integers in [0, 2**53)); returns ``a``.

    >>> reduce_each(np.array([[7.0, 12.0], [7.0, 12.0]]), np.array([5.0, 3.0])).tolist()
    [[2.0, 2.0], [1.0, 0.0]]
    """
    a = np.ascontiguousarray(a)
    _reduce_rows(a.reshape(a.shape[0], -1), np.asarray(p, dtype=np.float64))
    return a


def matmul_mod(a: np.ndarray, b: np.ndarray, p: np.ndarray) -> np.ndarray:
    """``a[k] @ b[k]`` modulo ``p[k]`` for every prime k, exactly: (P, m, n) and (P, n, l) to (P, m, l).

    Residues are below ``p`` < 2**22, so each product is below 2**44 and a sum of up to
    :data:`MAX_SUM_TERMS` of them is an exact float64; longer sums are cut there.

    >>> p = np.array([7.0, 5.0])
    >>> a, b = np.full((2, 1, 600), 6.0), np.full((2, 600, 1), 4.0)   # 600 * 24 = 14400
    >>> matmul_mod(a, b, p)[:, 0, 0].tolist() == [14400 % 7, 14400 % 5]
    True
    """
    P, m, n = a.shape
    l = b.shape[2]
    if n <= MAX_SUM_TERMS and m * n * l <= STACKED:
        return reduce_each(np.matmul(a, b), p)
    out = np.zeros((P, m, l))
    for k in range(P):
        for j in range(0, n, MAX_SUM_TERMS):
            part = a[k, :, j:j + MAX_SUM_TERMS] @ b[k, j:j + MAX_SUM_TERMS]
            out[k] += reduce_into(part, part, p[k])
    return reduce_each(out, p)
