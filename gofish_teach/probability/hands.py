"""One hidden hand as a matrix product over ranks: the weight of every count vector at once.

``G(x)`` is the number of ways (labelled cards, see :mod:`gofish_teach.probability.history`)
that a seat's hidden history ends with it holding ``x[r]`` cards of each rank ``r``. It is
stored as one small matrix per rank and count, ``G(x) = A[0][x0] @ A[1][x1] @ ... @ A[R-1][xR-1]``,
every entry a residue modulo each of several primes (:mod:`.modular`).

Numerical analysts call this a tensor train (physicists: a matrix product state); the
inner indices between ranks are its bonds. A hand is built in one of two ways:

- :meth:`Hand.from_cases`: a hidden hand of a live view, first followed as weighted cases
  (:mod:`.pools`), then turned into matrices one rank at a time;
- :meth:`Hand.dealt`, then :meth:`Hand.receive`, :meth:`Hand.cap` and :meth:`Hand.relabel`:
  a hand described by stated facts (:mod:`.facts`).

Either way, :meth:`Hand.compress` keeps only linearly independent inner directions, exactly,
by row reduction modulo each prime. The dimensions stay small (a few to a few dozen)
because what a hand's history says is mostly about its size and a few ranks.
:mod:`.contract` then joins the hands through the ocean.

>>> from gofish_teach.probability.modular import PRIMES
>>> hand = Hand.dealt(3, allowed=[True, True], primes=PRIMES[:2])   # 3 unseen cards over 2 ranks
>>> [hand.weight([a, 3 - a]) for a in range(4)]                      # 3!/(a!(3-a)!) labellings
[1, 3, 3, 1]
>>> hand.receive(0, 1)                                               # shown one more of rank 0
>>> [hand.weight([a, 4 - a]) for a in range(5)]
[0, 1, 3, 3, 1]
>>> hand.cap([3, 3]); hand.compress(); hand.dims()   # no whole book: x0 = 1..3, which fixes x1
[3]
>>> [hand.weight([a, 4 - a]) for a in range(5)]
[0, 1, 3, 3, 0]
"""
from __future__ import annotations

from math import comb

import numpy as np
from numba import njit

from ..cards import SUITS
from .modular import crt, matmul_mod
from .pools import BITS
from .pools import COMB as _WAYS
from .pools import FIELD as _FIELD
from .pools import M_MASK as _LEFT_MASK

_DECK = len(SUITS)  # cards of each rank
_LEFT_BITS = _LEFT_MASK.bit_length()  # a need's pooled cards left, below its known counts


@njit(cache=True)
def _inverse(a, p):
    # Extended Euclid on integers: a * result == 1 (mod p), p prime and a not 0 mod p.
    t, new_t, r, new_r = 0, 1, p, a
    while new_r:
        q = r // new_r
        t, new_t = new_t, t - q * new_t
        r, new_r = new_r, r - q * new_r
    return t % p


@njit(cache=True)
def _column_basis(M, primes):
    """For each prime k: M[k] == B[k] @ T[k] (mod p_k), B = the pivot columns of M[k].

    Row reduction mod p: the nonzero rows of the reduced echelon form are T, the pivot columns
    of the original are B. Ranks may differ between primes (rarely); both are zero-padded to
    the largest rank, which keeps the identity exact for every prime.
    """
    P, n, m = M.shape
    R = M.copy()
    ranks = np.zeros(P, np.int64)
    pivots = np.full((P, min(n, m)), -1, np.int64)
    for k in range(P):
        p = primes[k]
        ip = np.int64(p)
        r = 0
        for j in range(m):
            if r == n:
                break
            i = r
            while i < n and R[k, i, j] == 0.0:
                i += 1
            if i == n:
                continue
            if i != r:
                for c in range(m):
                    R[k, i, c], R[k, r, c] = R[k, r, c], R[k, i, c]
            inv = float(_inverse(np.int64(R[k, r, j]), ip))
            for c in range(j, m):
                R[k, r, c] = (R[k, r, c] * inv) % p
            for i2 in range(n):
                if i2 != r:
                    f = R[k, i2, j]
                    if f != 0.0:
                        for c in range(j, m):
                            R[k, i2, c] = (R[k, i2, c] - f * R[k, r, c]) % p
            pivots[k, r] = j
            r += 1
        ranks[k] = r
    rmax = 0
    for k in range(P):
        rmax = max(rmax, ranks[k])
    B = np.zeros((P, n, rmax))
    T = np.zeros((P, rmax, m))
    for k in range(P):
        for a in range(ranks[k]):
            for i in range(n):
                B[k, i, a] = M[k, i, pivots[k, a]]
            for c in range(m):
                T[k, a, c] = R[k, a, c]
    return B, T


def _first_seen(keys):
    """Number the different ``keys`` in the order they first appear: each key's number, and
    the different keys in that order."""
    different, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    by_first = np.argsort(first)
    number = np.empty(len(different), np.int64)
    number[by_first] = np.arange(len(different))
    return number[inverse.ravel()], different[by_first]


@njit(cache=True)
def _gather(M, T, need, count, to, ways):
    # M[:, count, :, to] += T[:, :, need] * ways, move after move: the same float operations, in
    # the same order, as that line run once per move in NumPy, so the very same sums (no fastmath)
    P, r = T.shape[0], T.shape[1]
    for n in range(len(need)):
        i, x, k, w = need[n], count[n], to[n], ways[n]
        for q in range(P):
            for a in range(r):
                M[q, x, a, k] += T[q, a, i] * w


class Hand:
    """A seat's hidden hand: ``G(x)`` as a product of per-rank matrices, mod several primes.

    ``tensors[r]`` has shape ``(P, d, Dl, Dr)``: prime, count of rank r (0 .. d-1), and the
    inner indices on either side. The first left and last right dimensions are 1.
    """

    def __init__(self, tensors: list[np.ndarray], primes):
        self.tensors = tensors
        self.primes = tuple(primes)
        self._p = np.array(self.primes, dtype=np.float64)

    # ------------------------------------------------------------------ construction
    @classmethod
    def dealt(cls, n: int, allowed, primes) -> "Hand":
        """``n`` unseen cards, each of any allowed rank: weight ``n! / prod(x!)`` (labelled cards)."""
        P, R = len(primes), len(allowed)
        tensors = []
        for s, ok in enumerate(allowed):
            d = min(n, _DECK) + 1 if ok else 1
            left = 1 if s == 0 else n + 1
            right = 1 if s == R - 1 else n + 1
            A = np.zeros((P, d, left, right))
            for c in range(left):
                for x in range(d):
                    c2 = c + x
                    if s == R - 1:
                        if c2 == n:
                            A[:, x, c, 0] = comb(n - c, x)
                    elif c2 <= n:
                        A[:, x, c, c2] = comb(n - c, x)
            tensors.append(A)
        hand = cls(tensors, primes)
        hand._reduce()
        hand.compress()
        return hand

    @classmethod
    def from_cases(cls, cases, caps, limit: int | None = None, order=None) -> "Hand":
        """The same weights ``G(x)`` as a hand's :class:`~.pools.Cases`, as a compressed product.

        Built left to right: the inner index before rank j stands for what the cases still
        need from ranks j, j+1, ... (their known counts there, and the pooled cards left);
        each step keeps only independent directions (``T`` maps those needs onto them), so
        the many cases never make a big matrix. Raises ``OverflowError`` past ``limit``.
        ``order`` (a permutation of the ranks; ``caps`` stays by rank) puts rank ``order[j]``
        at place j of the product.
        """
        P, R = len(cases.primes), cases.R
        order = list(range(R)) if order is None else list(order)
        p = np.array(cases.primes, dtype=np.float64)
        pooled = [bool(cases.pool_mask >> s & 1) for s in order]
        caps = [caps[s] for s in order]
        # A need (what a case still needs from the places to come) is one int64: its known
        # counts, place j at bits BITS*j (placed ones cleared), then the pooled cards left.
        known = cases.known_counts()[:, order]
        codes = (known << (BITS * np.arange(R, dtype=np.int64))).sum(axis=1) if R else np.zeros(len(known), np.int64)
        ids, needs = _first_seen((codes << _LEFT_BITS) | cases.pool_sizes())
        T = np.stack([np.bincount(ids, weights=w, minlength=len(needs)) for w in cases.weights])[:, None] % p[:, None, None]
        tensors, reduced = [], True
        spread = np.arange(_DECK + 1)
        for j in range(R):
            code, left = needs >> _LEFT_BITS, needs & _LEFT_MASK
            shift = BITS * j
            x = ((code >> shift) & _FIELD)[:, None] + spread  # the count at place j, y pooled cards more
            y = np.broadcast_to(spread, x.shape)
            ok = (y <= np.minimum(left, _DECK)[:, None]) if pooled[j] else (y == 0)
            ok &= x <= caps[j]
            if j == R - 1:
                ok &= y == left[:, None]  # the one way to end: no pooled card left
            i, y = np.nonzero(ok)  # need by need, y rising: the order the moves were always taken in
            k, needs = _first_seen(((code[i] & ~(_FIELD << shift)) << _LEFT_BITS) | (left[i] - y))
            x = x[i, y]
            d = int(x.max()) + 1 if len(x) else 1
            M = np.zeros((P, d, T.shape[1], len(needs)))
            _gather(M, T, i, x, k, _WAYS[left[i], y])
            M %= p[:, None, None, None]
            r = T.shape[1]
            B, T = _column_basis(np.ascontiguousarray(M.reshape(P, d * r, len(needs))), p)
            if limit is not None and B.shape[2] > limit:
                raise OverflowError(f"inner dimension {B.shape[2]} past {limit}")
            tensors.append(B.reshape(P, d, r, B.shape[2]))
            # B's columns are independent unless a prime found fewer (then zero columns pad it)
            reduced &= j == R - 1 or B.shape[2] == 0 or bool((B[:, :, -1] != 0).any(axis=1).all())
        last = tensors[-1]  # the one way to end: nothing left
        tensors[-1] = matmul_mod(last.reshape(P, -1, last.shape[3]), T, p).reshape(last.shape[:3] + T.shape[2:])
        hand = cls(tensors, cases.primes)
        hand.compress(left_to_right=not reduced)
        return hand

    # ------------------------------------------------------------------ reading
    def dims(self) -> list[int]:
        """The inner dimensions between consecutive ranks (the cost of this representation)."""
        return [A.shape[3] for A in self.tensors[:-1]]

    def max_count(self, rank: int) -> int:
        return self.tensors[rank].shape[1] - 1

    def weight(self, counts) -> int:
        """``G(counts)`` as an integer (for tests and examples)."""
        v = np.ones((len(self.primes), 1, 1))
        for A, x in zip(self.tensors, counts, strict=True):
            if x >= A.shape[1]:
                return 0
            v = matmul_mod(v, np.ascontiguousarray(A[:, x]), self._p)
        return crt(v[:, 0, 0], self.primes)

    # ------------------------------------------------------------------ facts
    def relabel(self, rank: int, source) -> None:
        """Rank ``rank`` now holds count ``x`` where it held ``source[x]`` (None: impossible)."""
        A = self.tensors[rank]
        B = np.zeros((A.shape[0], len(source)) + A.shape[2:])
        for x, old in enumerate(source):
            if old is not None and 0 <= old < A.shape[1]:
                B[:, x] = A[:, old]
        self.tensors[rank] = B

    def receive(self, rank: int, count: int) -> None:
        """Shown ``count`` more cards of ``rank`` (a gift, or a lucky draw)."""
        self.relabel(rank, [None] * count + list(range(self.max_count(rank) + 1)))

    def cap(self, caps) -> None:
        """At most ``caps[r]`` cards of each rank (no book is held; cards elsewhere cannot be here)."""
        for s, c in enumerate(caps):
            if self.max_count(s) > c:
                self.relabel(s, list(range(c + 1)))

    # ------------------------------------------------------------------ exact compression
    def _reduce(self) -> None:
        """Residues in [0, p)."""
        p = self._p[:, None, None, None]
        self.tensors = [A % p for A in self.tensors]

    def compress(self, left_to_right: bool = True) -> None:
        """Drop linearly dependent inner directions (exactly, mod each prime): left to right, then back.

        ``left_to_right=False`` skips the first pass, for a product whose every place already
        has independent columns for every prime (as :meth:`from_cases` builds it, mostly):
        there the pass changes nothing.
        """
        t = self.tensors
        R = len(t)
        for s in range(R - 1 if left_to_right else 0):
            P, d, Dl, Dr = t[s].shape
            B, T = _column_basis(np.ascontiguousarray(t[s].reshape(P, d * Dl, Dr)), self._p)
            r = B.shape[2]
            t[s] = B.reshape(P, d, Dl, r)
            nxt = t[s + 1]
            _, d2, _, Dr2 = nxt.shape
            flat = nxt.transpose(0, 2, 1, 3).reshape(P, Dr, d2 * Dr2)
            t[s + 1] = matmul_mod(T, flat, self._p).reshape(P, r, d2, Dr2).transpose(0, 2, 1, 3)
        for s in range(R - 1, 0, -1):
            P, d, Dl, Dr = t[s].shape
            flat = np.ascontiguousarray(t[s].transpose(0, 1, 3, 2).reshape(P, d * Dr, Dl))
            B, T = _column_basis(flat, self._p)
            r = B.shape[2]
            t[s] = B.reshape(P, d, Dr, r).transpose(0, 1, 3, 2)
            prev = t[s - 1]
            _, d0, Dl0, _ = prev.shape
            t[s - 1] = matmul_mod(prev.reshape(P, d0 * Dl0, Dl), T.transpose(0, 2, 1), self._p).reshape(P, d0, Dl0, r)
        self.tensors = [np.ascontiguousarray(A) for A in t]

    def is_zero(self) -> bool:
        """True when no count vector has weight (the history is impossible)."""
        return any(0 in A.shape for A in self.tensors)


def warm() -> None:
    """Compile a hand's gather loop for every layout of its moves it meets: np.nonzero's strided
    arrays, and the contiguous one-move arrays some positions give (lesson 05 met one, and waited
    for it). :func:`gofish_teach.probability.warm` calls this."""
    for need in (np.zeros(4, np.int64)[::2], np.zeros(2, np.int64)):
        _gather(np.zeros((1, 1, 1, 1)), np.zeros((1, 1, 1)), need, np.zeros(2, np.int64), np.zeros(2, np.int64),
                np.zeros(2))
