"""The Gibbs sampler over the hidden hands: its public surface, its compiled loops, and the
hidden hands packed for them.

What the rest of the package uses:

- :func:`gibbs_chains`: the hidden hands of a view's :class:`~.history.Story` in every chain
  after each sweep (:func:`.montecarlo.sample_hands` turns them into a posterior, the fallback
  when the exact joint of several hands is too big);
- :func:`draw_hidden_hands`: one draw of every hidden hand per chain, from a view (the search
  bot's imagined worlds, :class:`~gofish_teach.bestplay.SearchBot`), as :class:`HiddenHands`;
- :class:`NoStart`: no chain found a deal that fits the view to start from.

:func:`gibbs_chains` packs the hands' cases (:class:`_Hands`), starts the chains
(:func:`_start`) and sweeps them (:func:`_sweeps`); this module changes when the sampler's
inner loops do.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import comb, factorial

import numpy as np
from numba import njit

from .pools import BITS

# ---------------------------------------------------------------------- Gibbs over hands
# The Gibbs sampler's inner loops (every chain, every hand, every sweep: thousands of small
# steps with data-dependent branches) are compiled with numba. Its randomness is drawn up
# front with the seeded NumPy generator, a fixed number of doubles per chain and sweep
# (:class:`_Hands` and :func:`_cycle` say how many), so an answer depends on the seed alone.
_FALLING = np.array([[float(np.prod(np.arange(u, u - x, -1))) if x <= u else 0.0 for x in range(8)]
                     for u in range(5)])  # u!/(u-x)!: the ocean's share of x cards when u are unseen
_BINOM = np.array([[comb(a, y) for y in range(8)] for a in range(64)], dtype=np.float64)
_FACT = np.array([float(factorial(n)) for n in range(64)])


class _Hands:
    """The hidden hands' cases (:func:`.exact.hand_cases`, float weights), packed into flat
    arrays for the compiled sampler: hand h's cases are rows ``off[h]:off[h + 1]``, sorted by
    ``code`` (their counts on the resolved ranks, :data:`.pools.BITS` bits each), so that the
    cases fitting a hand are found by bisection. ``nz_rank``/``nz_count`` list each case's
    nonzero resolved counts (rows ``nz_off[c]:nz_off[c + 1]``): most are zero.

    Hand h's weight ``G(x)`` is the sum over its cases that fit ``x``: known counts equal on
    resolved ranks, and the pooled ranks' extra cards ``y`` summing to the pool size m, in
    ``m!/prod(y!)`` labellings. Its cases are grouped by their known counts on pooled ranks
    (all 0 unless bluffing): one backward table per group serves every pool size.

    A draw of hand h takes ``1 + npool[h]`` doubles (the case, then each pooled rank's count).
    """

    def __init__(self, all_cases, cap):
        H, R = len(all_cases), all_cases[0].R
        self.cap = cap
        self.pooled = np.zeros((H, R), dtype=np.bool_)
        self.pidx = np.zeros((H, R), dtype=np.int64)  # hand h's pooled ranks, in order
        self.npool = np.zeros(H, dtype=np.int64)
        self.tops = np.zeros(H, dtype=np.int64)  # hand h's largest pool
        self.off = np.zeros(H + 1, dtype=np.int64)  # hand h's cases
        self.goff = np.zeros(H + 1, dtype=np.int64)  # hand h's groups
        known, sizes, weights, codes, groups, keys = [], [], [], [], [], []
        for h, cases in enumerate(all_cases):
            pooled = [s for s in range(R) if cases.pool_mask >> s & 1]
            self.pooled[h, pooled] = True
            self.pidx[h, :len(pooled)] = pooled
            self.npool[h] = len(pooled)
            k, m = cases.known_counts().astype(np.int64), cases.pool_sizes().astype(np.int64)
            code = (np.where(self.pooled[h], 0, k) << (BITS * np.arange(R))).sum(axis=1)
            order = np.argsort(code, kind="stable")
            known.append(k[order]), sizes.append(m[order]), codes.append(code[order])
            weights.append(cases.weights[0][order].astype(np.float64))
            uniq, group = np.unique(k[order][:, pooled], axis=0, return_inverse=True)
            groups.append(group.reshape(-1) + self.goff[h])
            keys.append(np.pad(uniq, ((0, 0), (0, R - len(pooled)))))  # a group's known counts, by pooled rank
            self.tops[h] = m.max(initial=0)
            self.off[h + 1] = self.off[h] + len(m)
            self.goff[h + 1] = self.goff[h] + len(uniq)
        self.known, self.m, self.w = np.concatenate(known), np.concatenate(sizes), np.concatenate(weights)
        self.code, self.group, self.gkeys = np.concatenate(codes), np.concatenate(groups), np.concatenate(keys)
        hand_of = np.repeat(np.arange(H), np.diff(self.off))
        nz = (self.known > 0) & ~self.pooled[hand_of]
        self.nz_off = np.concatenate([[0], np.cumsum(nz.sum(axis=1))]).astype(np.int64)
        self.nz_rank = np.nonzero(nz)[1].astype(np.int64)  # case by case, as nz_off counts them
        self.nz_count = self.known[nz]
        self.draw_doubles = int((1 + self.npool).sum())

    def args(self):
        """The packed arrays, in the order the compiled functions take them."""
        return (self.known, self.m, self.w, self.group, self.code, self.nz_off, self.nz_rank, self.nz_count,
                self.pooled, self.pidx, self.npool, self.gkeys, self.goff, self.off, self.tops, self.cap,
                _FALLING, _BINOM, _FACT)

    def weight(self, h, x) -> float:
        """``G(x)`` of hand ``h`` (float), for tests and examples.

        >>> from gofish_teach.probability.pools import Cases
        >>> hand = Cases(n_ranks=2, book_size=4, primes=())   # float weights
        >>> hand.apply(("deal", 3, (True, True))); hand.apply(("cap", (3, 3)))   # 3 unseen cards, 2 ranks
        >>> [_Hands([hand], cap=3).weight(0, [a, 3 - a]) for a in range(4)]   # 3!/(a!(3-a)!)
        [1.0, 3.0, 3.0, 1.0]
        """
        x = np.asarray(x, dtype=np.int64)
        return _weight(self.known, self.m, self.w, self.code, self.pooled[h], self.off[h], self.off[h + 1],
                       self.cap, _FACT, x)


@njit(cache=True)
def _weight(K, m, w, code, pooled, lo, hi, cap, fact, x):
    """``G(x)``: the hand of cases ``lo:hi`` holding counts ``x`` (a hand never holds a whole book)."""
    R = x.shape[0]
    mine = 0
    for r in range(R):
        if x[r] > cap or x[r] < 0:
            return 0.0
        if not pooled[r]:
            mine += x[r] << (BITS * r)
    total = 0.0
    c = lo + np.searchsorted(code[lo:hi], mine)
    while c < hi and code[c] == mine:
        left = m[c]
        ways = fact[left]
        fits = True
        for r in range(R):
            y = x[r] - K[c, r]
            if pooled[r]:
                if y < 0:
                    fits = False
                    break
                left -= y
                ways /= fact[y]
            elif y != 0:
                fits = False
                break
        if fits and left == 0:
            total += w[c] * ways
        c += 1
    return total


@njit(cache=True)
def _pick(cum, n, v):
    """The first of ``cum[:n]`` (cumulative weights) past ``v``; the last if none is."""
    for i in range(n):
        if cum[i] > v:
            return i
    return n - 1


@njit(cache=True)
def _draw(K, m, w, group, nz_off, nz_rank, nz_count, pidx, npool, gkeys, glo, ghi, lo, hi, top, cap,
          falling, binom, unseen, u, out, B, cum, F):
    """Draw the hand of cases ``lo:hi`` from ``G(x) * prod_r u_r!/(u_r - x_r)!`` given the
    unseen totals ``u_r`` (its conditional given the other hands) into ``out``, with the
    doubles ``u`` (``1 + npool``). False, and ``out`` untouched, when no hand fits.

    ``B[g, i, a]``: the weight of ``a`` pooled cards spread over pooled ranks i, i+1, ...
    for group g (cards ``y`` of a rank, ``C(a, y)`` labellings, the ocean's share ``F``)."""
    R = unseen.shape[0]
    F[:, :] = 0.0
    for r in range(R):
        v = min(max(unseen[r], 0), 4)
        for x in range(cap + 1):
            F[r, x] = falling[v, x]
    for g in range(glo, ghi):
        b = B[g - glo]
        b[:, :] = 0.0
        b[npool, 0] = 1.0
        for i in range(npool - 1, -1, -1):
            s, k = pidx[i], gkeys[g, i]
            for y in range(min(top, 7 - k) + 1):
                f = F[s, k + y]
                if f == 0.0:
                    continue
                for a in range(y, top + 1):
                    b[i, a] += binom[a, y] * f * b[i + 1, a - y]
    total = 0.0
    for c in range(lo, hi):
        v = w[c] * B[group[c] - glo, 0, m[c]]
        if v != 0.0:
            for j in range(nz_off[c], nz_off[c + 1]):
                v *= F[nz_rank[j], nz_count[j]]
        total += v
        cum[c - lo] = total
    if not total > 0.0:
        return False
    c = lo + _pick(cum, hi - lo, u[0] * total)
    for r in range(R):
        out[r] = K[c, r]
    rem, b = m[c], B[group[c] - glo]
    g = group[c]
    for i in range(npool):
        s, k = pidx[i], gkeys[g, i]
        n = min(top, 7 - k) + 1
        t = 0.0
        for y in range(n):
            if y <= rem:
                t += binom[rem, y] * F[s, k + y] * b[i + 1, rem - y]
            cum[y] = t
        y = _pick(cum, n, u[1 + i] * t)
        out[s] += y
        rem -= y
    return True


@njit(cache=True)
def _fits_rule(hands, bits, flags, mode):
    """The teams endgame's rule on one chain's hidden hands (k, R): ``mode`` 0 none,
    1 a stalemate (every rank's holders on one team), 2 no stalemate."""
    if mode == 0:
        return True
    k, R = hands.shape
    stalemate = True
    for r in range(R):
        held = flags[r]
        for q in range(k):
            if hands[q, r] > 0:
                held |= bits[q]
        if held & (held - 1) != 0:
            stalemate = False
            break
    return stalemate if mode == 1 else not stalemate


@njit(cache=True)
def _redraw(hands, q, unseen, u, K, m, w, group, code, nz_off, nz_rank, nz_count, pooled, pidx, npool, gkeys, goff, off, tops, cap,
            falling, binom, left, h, B, cum, F):
    """Hand q of one chain drawn given the others (or given ``unseen`` only, when ``left`` is
    False: a chain's start, hands before q already drawn and later ones still zero) into ``h``."""
    k, R = hands.shape
    for r in range(R):
        rest = 0
        for p in range(k):
            if p != q:
                rest += hands[p, r]
        left[r] = unseen[r] - rest
    return _draw(K, m, w, group, nz_off, nz_rank, nz_count, pidx[q], npool[q], gkeys, goff[q], goff[q + 1],
                 off[q], off[q + 1], tops[q], cap, falling, binom, left, u, h, B, cum, F)


@njit(cache=True)
def _work(k, R, npool, goff, tops, off):
    """Scratch arrays sized for the largest hand."""
    G = P = T = N = 1
    for q in range(k):
        G = max(G, goff[q + 1] - goff[q])
        P = max(P, npool[q] + 1)
        T = max(T, tops[q] + 1)
        N = max(N, off[q + 1] - off[q])
    return (np.zeros(R, np.int64), np.zeros(R, np.int64), np.zeros((G, P, T)), np.zeros(max(N, 8)),
            np.zeros((R, 8)), np.zeros((k, R), np.int64))


@njit(cache=True)
def _start(unseen, U, fresh, K, m, w, group, code, nz_off, nz_rank, nz_count, pooled, pidx, npool, gkeys, goff, off, tops, cap,
           falling, binom, fact, bits, flags, mode):
    """Each chain's hands drawn one after another, each given the ones before; which fit."""
    C, k, R = fresh.shape
    left, h, B, cum, F, _ = _work(k, R, npool, goff, tops, off)
    ok = np.zeros(C, dtype=np.bool_)
    for c in range(C):
        fresh[c] = 0
        pos, good = 0, True
        for q in range(k):
            good = _redraw(fresh[c], q, unseen, U[c, pos:pos + 1 + npool[q]], K, m, w, group, code, nz_off,
                           nz_rank, nz_count, pooled, pidx, npool, gkeys, goff, off, tops, cap, falling, binom, left, h, B, cum, F)
            pos += 1 + npool[q]
            if not good:
                break
            fresh[c, q] = h
        ok[c] = good and _fits_rule(fresh[c], bits, flags, mode)
    return ok


@njit(cache=True)
def _sweeps(hands, unseen, U, burn, record, K, m, w, group, code, nz_off, nz_rank, nz_count, pooled, pidx, npool, gkeys, goff, off, tops, cap,
            falling, binom, fact, bits, flags, mode):
    """``U.shape[0]`` sweeps of every chain; after ``burn`` of them each sweep's hands go to ``record``.

    A sweep redraws every hand from its conditional given the others (kept only if the hands
    still fit the teams endgame's rule), then tries ``k`` cycles of cards (:func:`_cycle`)."""
    T, C, _ = U.shape
    k, R = hands.shape[1], hands.shape[2]
    left, h, B, cum, F, proposed = _work(k, R, npool, goff, tops, off)
    seq, cards, new = np.zeros(k, np.int64), np.zeros(k, np.int64), np.zeros((k, R), np.int64)
    for t in range(T):
        for c in range(C):
            u, mine = U[t, c], hands[c]
            pos = 0
            for q in range(k):
                good = _redraw(mine, q, unseen, u[pos:pos + 1 + npool[q]], K, m, w, group, code, nz_off,
                               nz_rank, nz_count, pooled, pidx, npool, gkeys, goff, off, tops, cap, falling, binom, left, h, B, cum, F)
                pos += 1 + npool[q]
                if good and mode != 0:
                    proposed[:, :] = mine
                    proposed[q] = h
                    good = _fits_rule(proposed, bits, flags, mode)
                if good:
                    mine[q] = h
            if k > 1:  # passing cards needs two hidden hands
                for _ in range(k):
                    _cycle(mine, u[pos:pos + 2 + 2 * k], K, m, w, code, pooled, off, cap, fact, bits, flags, mode,
                           seq, cards, new, proposed)
                    pos += 2 + 2 * k
            if t >= burn:
                record[t - burn, c] = mine
    return record


@njit(cache=True)
def _cycle(hands, u, K, m, w, code, pooled, off, cap, fact, bits, flags, mode, seq, cards, new, proposed):
    """A Metropolis move that passes cards round a cycle of hidden hands, in one chain.

    Redrawing one hand given the others cannot move cards between hands that the ocean does
    not reach (when the ocean is empty, each hand is fixed by the others); passing cards can.
    Two to k hands are picked in random order, each picks a card at random and passes it to
    the next (the last to the first); the move is accepted with probability
    ``min(1, prod G(x') / prod G(x) * q(back) / q(forth))``, where going back is the same
    cycle the other way round. Two hands make a trade, but some positions need three or
    more: A's 3 for B's 2, B's 2 for C's... can leave every pairwise trade impossible.
    Takes ``2 + 2k`` doubles: the cycle's length, its hands, their cards, the acceptance.
    """
    k, R = hands.shape
    L = 2 + min(int(u[0] * (k - 1)), k - 2)
    for i in range(k):
        seq[i] = i
    for i in range(L):  # an ordered choice of L hands: a partial Fisher-Yates shuffle
        j = i + min(int(u[1 + i] * (k - i)), k - i - 1)
        seq[i], seq[j] = seq[j], seq[i]
    forth = 1.0
    for i in range(L):
        h = hands[seq[i]]
        n = h.sum()
        if n == 0:
            return
        cards[i] = _pick(np.cumsum(h), R, u[1 + k + i] * n)
        forth *= h[cards[i]]
    before, after, back = 1.0, 1.0, 1.0
    for i in range(L):
        q, given = seq[i], cards[i - 1 if i else L - 1]
        new[i] = hands[q]
        new[i, cards[i]] -= 1
        new[i, given] += 1
        back *= new[i, given]  # going back, hand q passes on the card it was given
        before *= _weight(K, m, w, code, pooled[q], off[q], off[q + 1], cap, fact, hands[q])
        after *= _weight(K, m, w, code, pooled[q], off[q], off[q + 1], cap, fact, new[i])
    ratio = after * back / (before * forth) if before > 0 else 1.0
    if not u[1 + 2 * k] < ratio:
        return
    if mode != 0:
        proposed[:, :] = hands
        for i in range(L):
            proposed[seq[i]] = new[i]
        if not _fits_rule(proposed, bits, flags, mode):
            return
    for i in range(L):
        hands[seq[i]] = new[i]


def _team_rule(teams):
    """``(bits, flags, mode)`` for :func:`_fits_rule`: which sets of hidden hands fit the teams endgame.

    ``teams`` is :attr:`.history.Story.teams`; a rank is stuck when its holders are all on one
    team, and a stalemate is every rank stuck. Without an endgame every set fits (mode 0).
    """
    if teams is None:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), 0
    bits, flags, mode = teams
    return np.array(bits, dtype=np.int64), np.array(flags, dtype=np.int64), 1 if mode == "stalemate" else 2


# ---------------------------------------------------------------------- the sampler's public surface
class NoStart(ValueError):
    """No chain found a deal of the unseen cards that fits every hand to start from."""


def gibbs_chains(story, n_ranks: int, book_size: int, sweeps: int, seed: int, chains: int, burn: int) -> np.ndarray:
    """The hidden hands (``story.seats``' order) in every chain after each sweep past burn-in:
    an int array (sweeps, chains, hands, ranks). Chains start from hands drawn one after
    another, each given the ones before; a chain whose start leaves some hand no way to fit
    (drawn again, up to 50 times) starts from another chain's hands.
    """
    from .exact import hand_cases

    rng = np.random.default_rng(seed)
    R, k = n_ranks, len(story.seats)
    unseen = np.array(story.unseen, dtype=np.int64)
    packed = _Hands([hand_cases(story, q, R, book_size) for q in story.seats], book_size - 1)
    rule = _team_rule(story.teams)
    hands = np.zeros((chains, k, R), dtype=np.int64)
    alive = np.zeros(chains, dtype=bool)
    for _ in range(50):  # start every chain from a consistent deal
        todo = np.flatnonzero(~alive)
        if not len(todo):
            break
        fresh = np.zeros((len(todo), k, R), dtype=np.int64)
        ok = _start(unseen, rng.random((len(todo), packed.draw_doubles)), fresh, *packed.args(), *rule)
        hands[todo] = fresh
        alive[todo] = ok
    if not alive.any():
        raise NoStart("Monte Carlo found no consistent deal of the unseen cards")
    hands[~alive] = hands[np.flatnonzero(alive)[np.arange((~alive).sum()) % alive.sum()]]
    doubles = packed.draw_doubles + (k * (2 + 2 * k) if k > 1 else 0)
    record = np.zeros((sweeps, chains, k, R), dtype=np.int64)
    return _sweeps(hands, unseen, rng.random((burn + sweeps, chains, doubles)), burn, record, *packed.args(), *rule)


@dataclass(frozen=True, eq=False)
class HiddenHands:
    """What :func:`draw_hidden_hands` drew: the hidden ``seats`` (ascending), the ``unseen`` cards
    of each rank (neither in the viewer's hand nor in books: in the hidden hands or the ocean),
    and ``hands``, an int array (draws, hidden seats, ranks)."""

    seats: tuple[int, ...]
    unseen: tuple[int, ...]
    hands: np.ndarray


def draw_hidden_hands(view, samples: int, seed: int, burn: int) -> HiddenHands:
    """``samples`` draws of every hidden hand from what ``view`` says about them: one chain
    each, started from a deal that fits and taken after ``burn`` sweeps (so the draws are
    independent of each other, each close to the posterior). Raises :class:`NoStart` when no
    chain can start, ``ValueError`` (:class:`~.history.NotExact`) under ``specific_card`` rules.

    >>> from gofish_teach import Game
    >>> view = Game("pond", 3, seed=0).view(0)
    >>> drawn = draw_hidden_hands(view, samples=4, seed=1, burn=2)
    >>> drawn.seats, drawn.hands.shape, drawn.hands.sum(axis=2).tolist()[0]   # every draw holds the hand sizes
    ((1, 2), (4, 2, 13), [5, 5])
    """
    from .history import read

    story = read(view)
    hands = gibbs_chains(story, len(view.ranks), view.rules.book_size, 1, seed, samples, burn)[0]
    return HiddenHands(tuple(story.seats), tuple(story.unseen), hands)
