"""One hidden hand as a list of cases: counts known for some ranks, a pool of unseen cards.

Most of what a history says about a hand is about single ranks ("Go Fish!" to 7s, gave two
Kings). So a hand is kept as weighted *cases*: for every rank outside the pool mask ``A`` the
count is known exactly; the other ``m`` cards form a pool, each of any rank in ``A``, every
way of labelling them equally weighted. Only a question about a pooled rank splits a case
("asks for 7s": 1, 2 or 3 of the pool are 7s, in ``C(m, j)`` ways each), and a card drawn
unseen joins the pool or, when its rank may be one already resolved, adds one there.

A case is one int64 key with one weight per prime (:mod:`.modular`). The key packs, from the
low bits up: :data:`BITS` bits per rank for its known count, the pool size ``m`` at
:data:`M_SHIFT`, and the cards of a fresh arrival not yet settled at :data:`F_SHIFT`. The
limits they imply (:data:`MAX_RANKS` ranks, counts up to :data:`FIELD`, :data:`M_MASK`
pooled and :data:`F_MASK` fresh cards) are checked where a field grows: a value past them
raises ``ValueError`` rather than spill into the next field. A full deck stays well inside
them: 13 ranks, at most 3 + 3 of a rank before the books are laid, hands of at most 39
cards (26 at the deal).

>>> from gofish_teach.probability.modular import PRIMES
>>> hand = Cases(n_ranks=2, book_size=4, primes=PRIMES[:2])
>>> hand.apply(("deal", 3, (True, True))); hand.apply(("cap", (3, 3)))
>>> hand.apply(("ask", 0)); hand.apply(("cap", (3, 3)))
>>> sorted((int(k), int(w)) for k, w in zip(hand.known_counts()[:, 0], hand.weights[0]))  # 1-3 Aces
[(1, 3), (2, 3), (3, 1)]
"""
from __future__ import annotations

from math import comb

import numpy as np

from ..cards import SUITS

BITS = 3  #: bits per rank's known count
FIELD = (1 << BITS) - 1  #: the largest known count a key holds
M_SHIFT = 40  #: where the pool size starts
M_MASK = 63  #: the largest pool
F_SHIFT = 46  #: where the fresh (unsettled) cards start
F_MASK = 63  #: the most fresh cards at once (a deal)
MAX_RANKS = M_SHIFT // BITS  #: ranks whose counts fit below the pool size
assert M_MASK < 1 << (F_SHIFT - M_SHIFT) and F_SHIFT + F_MASK.bit_length() <= 63, "the key's fields overlap"
_DECK = len(SUITS)  # cards of each rank
# comb(x, y) for every pool or fresh size x and every y cards of one rank taken from it
COMB = np.array([[comb(x, y) for y in range(_DECK + 1)] for x in range(max(M_MASK, F_MASK) + 1)], dtype=np.float64)


def _fits(top, limit: int, what: str) -> None:
    """Raise before a key's field would overflow into the next one."""
    if top > limit:
        raise ValueError(f"a case's key holds at most {limit} {what}, not {int(top)}")


def _bits(mask: int):
    return [s for s in range(mask.bit_length()) if mask >> s & 1]


class Cases:
    """A hidden hand's weighted cases; feed it the operations of :mod:`.history` in order."""

    def __init__(self, n_ranks: int, book_size: int, primes):
        if n_ranks > MAX_RANKS:
            raise ValueError(f"n_ranks: a case's key holds the counts of at most {MAX_RANKS} ranks, not {n_ranks}")
        self.R, self.b = n_ranks, book_size
        self.primes = tuple(primes)
        # no primes: plain float64 weights (for sampling); ``% inf`` leaves them as they are
        self._p = np.array(self.primes or (np.inf,), dtype=np.float64)[:, None]
        self.keys = np.zeros(1, dtype=np.int64)
        self.weights = np.ones((len(self._p), 1))
        self.pool_mask = 0  # A: ranks the pooled cards may be
        self.fresh_mask = 0  # ranks the fresh (unsettled) cards may be
        self.fresh_known = None  # (rank, count) when the last arrival was shown cards
        self.fresh_pool = False  # the last arrival came into an empty hand: it starts the pool
        self.booked_now = set()  # ranks booked since the last arrival

    # ------------------------------------------------------------------ fields
    def _get(self, s):
        return (self.keys >> (BITS * s)) & FIELD

    def _m(self):
        return (self.keys >> M_SHIFT) & M_MASK

    def _fz(self):
        return (self.keys >> F_SHIFT) & F_MASK

    def known_counts(self) -> np.ndarray:
        """(cases, ranks) array of the known counts."""
        return np.stack([self._get(s) for s in range(self.R)], axis=1)

    def pool_sizes(self) -> np.ndarray:
        return self._m()

    # ------------------------------------------------------------------ bookkeeping
    def _set(self, keys, weights):
        """Merge equal cases, drop impossible ones (weight 0 mod every prime means 0)."""
        if len(keys) == 0:
            self.keys, self.weights = keys, weights
            return
        uniq, inv = np.unique(keys, return_inverse=True)
        w = np.stack([np.bincount(inv, weights=row, minlength=len(uniq)) for row in weights]) % self._p
        keep = w.any(axis=0)
        self.keys, self.weights = uniq[keep], w[:, keep]

    def _filter(self, keep):
        self.keys, self.weights = self.keys[keep], self.weights[:, keep]

    def _split(self, s):
        """Every case splits by how many pooled cards (j = 0, 1, ...) are of rank s."""
        m = self._m()
        keys, weights = [], []
        for j in range(self.b):  # a settled hand holds at most book_size - 1 of a rank
            ok = m >= j
            if not ok.any():
                break
            _fits(self._get(s)[ok].max() + j, FIELD, "cards of a rank")
            k = self.keys[ok] + (j << (BITS * s)) - (j << M_SHIFT)
            c = COMB[m[ok], j]
            keys.append(k)
            weights.append(self.weights[:, ok] * c % self._p)
        self._set(np.concatenate(keys), np.concatenate(weights, axis=1))

    def _resolve(self, s):
        """Rank s leaves the pool: every case says how many pooled cards were s."""
        if self.pool_mask >> s & 1:
            self._split(s)
            self.pool_mask &= ~(1 << s)

    # ------------------------------------------------------------------ operations
    def apply(self, op) -> None:
        """Apply one operation of :mod:`.history` (its first item names its kind)."""
        kind, *fields = op
        if kind not in _OPERATIONS:
            raise ValueError(f"unknown operation {op!r}: kinds are {', '.join(_OPERATIONS)}")
        _OPERATIONS[kind](self, *fields)

    def copy(self) -> "Cases":
        other = Cases.__new__(Cases)
        other.__dict__.update(self.__dict__)
        other.keys, other.weights, other.booked_now = self.keys.copy(), self.weights.copy(), set(self.booked_now)
        return other

    def first_primes(self, n: int) -> "Cases":
        """The same cases with only the first ``n`` primes."""
        other = self.copy()
        other.primes, other._p, other.weights = self.primes[:n], self._p[:n], self.weights[:n].copy()
        return other

    def _deal(self, count, allowed):
        """A new hand of ``count`` unseen cards (the hand was empty)."""
        _fits(count, F_MASK, "cards dealt at once")
        self.keys = np.array([count << F_SHIFT], dtype=np.int64)
        self.weights = np.ones((len(self._p), 1))
        self.pool_mask = 0
        self.fresh_mask = sum(1 << s for s, ok in enumerate(allowed) if ok)
        self.fresh_known = None
        self.fresh_pool = True
        self.booked_now = set()

    def _draw(self, allowed):
        self.fresh_pool = not self.keys.any()  # nothing held: every case is the empty hand
        _fits(self._fz().max(initial=0) + 1, F_MASK, "cards drawn before they settle")
        self.keys = self.keys + (1 << F_SHIFT)
        self.fresh_mask = sum(1 << s for s, ok in enumerate(allowed) if ok)
        self.fresh_known = None
        self.booked_now = set()

    def _receive(self, s, k):
        _fits(self._get(s).max(initial=0) + k, FIELD, "cards of a rank")
        self.keys = self.keys + (k << (BITS * s))
        self.fresh_known = (s, k)
        self.fresh_mask = 0
        self.fresh_pool = False
        self.booked_now = set()

    def _book(self, s):
        b, bit = self.b, 1 << s
        if s in self.booked_now:  # a second book of the same rank (pairs): the count is known
            have = self._get(s)
            self._filter(have >= b)
            self.keys = self.keys - (b << (BITS * s))
            return
        self.booked_now.add(s)
        have, m, fz = self._get(s), self._m(), self._fz()
        pooled = bool(self.pool_mask & bit)
        fresh = bool(self.fresh_mask & bit)
        keys, weights = [], []
        for jp in range(_DECK + 1 if pooled else 1):  # up to every card of the rank
            for jf in range(_DECK + 1 if fresh else 1):
                c = have + jp + jf
                if self.fresh_known is not None:
                    trigger = self.fresh_known[1] if self.fresh_known[0] == s else 0
                else:
                    trigger = jf
                # the count reached a book, and it was below one before this arrival
                ok = (m >= jp) & (fz >= jf) & (c >= b) & (c - trigger <= b - 1)
                if not ok.any():
                    continue
                cm, cf = COMB[m[ok], jp], COMB[fz[ok], jf]
                k = self.keys[ok] + ((c[ok] - b - have[ok]) << (BITS * s)) - (jp << M_SHIFT) - (jf << F_SHIFT)
                keys.append(k)
                weights.append(self.weights[:, ok] * cm % self._p * cf % self._p)
        self.pool_mask &= ~bit
        self.fresh_mask &= ~bit
        if keys:
            self._set(np.concatenate(keys), np.concatenate(weights, axis=1))
        else:
            self._set(self.keys[:0], self.weights[:, :0])

    def _cap(self, caps):
        """The arrival is settled: fresh cards join the pool or a resolved rank; no book is held."""
        self._settle()
        for s, c in enumerate(caps):
            self._filter(self._get(s) <= c)

    def _settle(self):
        fz = self._fz()
        if not fz.any():
            return
        F = self.fresh_mask
        if self.fresh_pool:
            # the hand held nothing before: the fresh cards are the pool
            _fits((self._m() + fz).max(), M_MASK, "pooled cards")
            self.keys = self.keys - (fz << F_SHIFT) + (fz << M_SHIFT)
            self.pool_mask = F
            self.fresh_pool = False
            self._set(self.keys, self.weights)
            return
        for s in _bits(self.pool_mask & ~F):
            self._resolve(s)  # pooled ranks the fresh card cannot be
        A = self.pool_mask
        fz = self._fz()
        if fz.max() > 1:
            raise AssertionError("several unseen cards arrived in a hand that was not empty")
        base = self.keys - (fz << F_SHIFT)
        stay = fz == 0
        keys = [base[stay]]
        weights = [self.weights[:, stay]]
        moved = ~stay
        if A:
            _fits(self._m()[moved].max(initial=0) + 1, M_MASK, "pooled cards")
            keys.append(base[moved] + (1 << M_SHIFT))
            weights.append(self.weights[:, moved])
        for t in _bits(F & ~A):
            _fits(self._get(t)[moved].max(initial=0) + 1, FIELD, "cards of a rank")
            keys.append(base[moved] + (1 << (BITS * t)))
            weights.append(self.weights[:, moved])
        self._set(np.concatenate(keys), np.concatenate(weights, axis=1))

    def _none(self, s):
        """No card of s (pooled and fresh cards included: no need to settle first)."""
        self._filter(self._get(s) == 0)
        self.pool_mask &= ~(1 << s)
        self.fresh_mask &= ~(1 << s)
        if not self.pool_mask:
            self._filter(self._m() == 0)
        if not self.fresh_mask:
            self._filter(self._fz() == 0)

    def _ask(self, s):
        self._settle()
        self._resolve(s)
        self._filter(self._get(s) >= 1)

    def _give(self, s, k):
        self._settle()
        if self.pool_mask >> s & 1:
            have, m = self._get(s), self._m()
            j = k - have
            ok = (j >= 0) & (m >= j)
            self._filter(ok)
            j, m = j[ok], m[ok]
            c = COMB[m, j]
            self.keys = self.keys - (have[ok] << (BITS * s)) - (j << M_SHIFT)
            self.weights = self.weights * c % self._p
            self.pool_mask &= ~(1 << s)
            self._set(self.keys, self.weights)
        else:
            self._filter(self._get(s) == k)
            self.keys = self.keys - (k << (BITS * s))


#: The operations of :mod:`.history`, by kind.
_OPERATIONS = {"deal": Cases._deal, "draw": Cases._draw, "receive": Cases._receive, "book": Cases._book,
               "cap": Cases._cap, "none": Cases._none, "ask": Cases._ask, "give": Cases._give}


def count_worlds_one(hand: Cases, unseen, cap: int):
    """Exact world counts for a single hidden hand (two players): like :func:`.contract.count_worlds`.

    A case's worlds: its weight, the ocean's share ``unseen! / (unseen - x)!`` at every rank,
    and the ways its pool of m labelled cards spreads over the pooled ranks.
    """
    from .modular import crt, falling

    P, R = len(hand.primes), hand.R
    p = hand._p
    falling = [np.array([[falling(u, x) % q for x in range(8)] for q in hand.primes], dtype=np.float64)
               for u in unseen]
    for f in falling:
        f[:, cap + 1:] = 0  # nobody holds a book
    known = hand.known_counts()
    pooled = _bits(hand.pool_mask)
    resolved = [s for s in range(R) if s not in pooled]
    base = hand.weights.copy()
    for s in resolved:
        base = base * falling[s][:, known[:, s]] % p
    groups = {}
    m = hand.pool_sizes()
    for i, key in enumerate(zip(m.tolist(), *(known[:, s].tolist() for s in pooled), strict=True)):
        groups.setdefault(key, []).append(i)
    total = np.zeros(P)
    counts = np.zeros((P, R, 8))
    for (size, *kA), rows in groups.items():
        rows = np.array(rows)
        w = base[:, rows]
        sums, margs = _pool(size, [falling[s][:, k:] for s, k in zip(pooled, kA, strict=True)], p)
        total = (total + w.sum(axis=1) % p[:, 0] * sums % p[:, 0]) % p[:, 0]
        ws = w.sum(axis=1) % p[:, 0]
        for s, k, marg in zip(pooled, kA, margs, strict=True):
            for y in range(marg.shape[1]):
                counts[:, s, k + y] = (counts[:, s, k + y] + ws * marg[:, y]) % p[:, 0]
        wsum = w * sums[:, None] % p
        for s in resolved:
            for v in np.unique(known[rows, s]):
                sel = known[rows, s] == v
                counts[:, s, v] = (counts[:, s, v] + wsum[:, sel].sum(axis=1)) % p[:, 0]
    total_int = crt(total, hand.primes)
    seat, ocean = [{} for _ in range(R)], [{} for _ in range(R)]
    for s in range(R):
        for v in range(8):
            n = crt(counts[:, s, v], hand.primes)
            if n:
                seat[s][v] = n
                ocean[s][unseen[s] - v] = n
    return total_int, [seat], ocean


def _pool(m, factors, p):
    """m labelled cards over ranks with per-rank factors (P, y): the total and each rank's split.

    Returns ``(sums, margs)``: ``sums`` (P,) the weight of all spreads, ``margs[i]`` (P, y) the
    weight of the spreads giving y cards to the i-th rank.
    """
    P, L = p.shape[0], len(factors)
    # m <= M_MASK (63), so every entry is below comb(63, 7) < 2**30 and its product with a
    # residue (< 2**22) is an exact float64
    binom = np.array([[comb(a, y) for y in range(8)] for a in range(m + 1)], dtype=np.float64)
    fwd = [np.zeros((P, m + 1))]
    fwd[0][:, 0] = 1
    for f in factors:
        nxt = np.zeros((P, m + 1))
        for y in range(min(m, f.shape[1] - 1) + 1):
            for u in range(m + 1 - y):
                nxt[:, u + y] += fwd[-1][:, u] * binom[m - u, y] % p[:, 0] * f[:, y] % p[:, 0]
        fwd.append(nxt % p)
    bwd = [None] * (L + 1)
    bwd[L] = np.zeros((P, m + 1))
    bwd[L][:, m] = 1
    for i in range(L - 1, -1, -1):
        f = factors[i]
        cur = np.zeros((P, m + 1))
        for y in range(min(m, f.shape[1] - 1) + 1):
            for u in range(m + 1 - y):
                cur[:, u] += binom[m - u, y] * f[:, y] % p[:, 0] * bwd[i + 1][:, u + y] % p[:, 0]
        bwd[i] = cur % p
    sums = fwd[L][:, m]
    margs = []
    for i, f in enumerate(factors):
        marg = np.zeros((P, min(m, f.shape[1] - 1) + 1))
        for y in range(marg.shape[1]):
            for u in range(m + 1 - y):
                marg[:, y] += fwd[i][:, u] * binom[m - u, y] % p[:, 0] * f[:, y] % p[:, 0] * bwd[i + 1][:, u + y] % p[:, 0]
        margs.append(marg % p)
    return sums, margs
