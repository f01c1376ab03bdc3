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

The teams endgame (the ocean is empty; see :class:`~.history.Story`) is a rule about one
rank at a time, so the same sweep follows it: the tally also carries which teams hold the
rank, and a stalemate (every rank held by one team at most) is counted with the mixed
tallies left out. "Play goes on" is then all worlds less the stalemates.

Everything is done modulo each prime (:mod:`.modular`), as float64 matrix products (BLAS)
whose sums stay below 2**53, and put together by CRT at the end.
"""
from __future__ import annotations

from itertools import permutations
from math import prod

import numpy as np
from numba import njit

from .modular import MAX_SUM_TERMS, crt, enough, falling, matmul_mod, reduce_each, reduce_into
from .modular import STACKED as _STACKED

#: Most bytes of the left-to-right sweep's partial steps a count keeps for the counts by rank
#: (:func:`_left_sweep`), which otherwise make them again: up to a sixth of a six-player count.
KEPT_BYTES = 256 * 2 ** 20

#: Largest stack of products (entries, per prime) that :func:`_rank_counts` makes to avoid a copy.
_BATCHED = 4_000_000


def _moves(tally: list, d: int, smax: int, bit: int, smin: int = 0):
    """Where a hand with x cards of the rank leads each tally (see :func:`_take`): the moves
    ``(i, x, j)`` from tally i to tally j, and the new tallies.

    A tally is ``(cards of this rank held by the hands taken so far, team flags)``; taking a
    hand with x cards adds x to the sum and, when x > 0, the hand's team ``bit`` to the flags.
    Sums past ``smax - 1`` are dropped (there are no such cards), and so are sums below ``smin``
    (the hands still to take cannot bring them up to what the ocean leaves: see :class:`_Rank`).

    >>> _moves([(0, 0), (1, 0)], d=3, smax=4, bit=0, smin=2)   # tallies 0 and 1, a hand of 0-2
    ([(0, 2, 0), (1, 1, 0), (1, 2, 1)], [(2, 0), (3, 0)])
    """
    index: dict = {}
    moves = []
    for i, (s, f) in enumerate(tally):
        for x in range(max(0, smin - s), min(d, smax - s)):
            moves.append((i, x, index.setdefault((s + x, f | bit if x else f), len(index))))
    return moves, list(index)


def _take(X: np.ndarray, tally: list, q: int, A: np.ndarray, smax: int, p: np.ndarray, bit: int = 0,
          right: bool = False, smin: int = 0):
    """Take hand ``q`` into a partial step: its index goes from ``Din`` to ``Dout``.

    ``X`` is (P, ..., T, ...): prime, one index per hand, and the tally (see :func:`_moves`)
    of the hands taken so far, kept next to the hand to take, so that taking it is one matrix
    product with no copy of ``X`` (``X`` is big, the hand's matrices are not). Sweeping left to
    right, the tally sits just before hand q and moves past it: ``(.., T, Dq, ..)`` becomes
    ``(.., Dq', T', ..)``; sweeping ``right`` to left it sits just after hand q:
    ``(.., Dq, T, ..)`` becomes ``(.., T', Dq', ..)``. ``A`` is (P, d, Din, Dout).
    Returns the new partial step and tally.
    """
    P, d, Din, Dout = A.shape
    T = len(tally)
    moves, tally2 = _moves(tally, d, smax, bit, smin)
    T2 = len(tally2)
    # M: the hand's matrices as one block matrix per prime, from (tally, Din) to (new tally, Dout),
    # its rows and columns in the order X's axes have before and after
    if right:
        M = np.zeros((P, T2, Dout, Din, T))
        for i, x, j in moves:
            M[:, j, :, :, i] = A[:, x].transpose(0, 2, 1)
        out_axes = (T2, Dout)
    else:
        M = np.zeros((P, Dout, T2, T, Din))
        for i, x, j in moves:
            M[:, :, j, i, :] = A[:, x].transpose(0, 2, 1)
        out_axes = (Dout, T2)
    M = M.reshape(P, T2 * Dout, T * Din)
    # X's axes: (P, hands before q, then T and Dq in either order, hands after q)
    before, after = X.shape[1:q + 1], X.shape[q + 3:]
    B, Rest = prod(before), prod(after)
    X4 = X.reshape(P, B, T * Din, Rest)
    Z = _contract(M, X4, p)
    return Z.reshape((P,) + before + out_axes + after), tally2


def _contract(M: np.ndarray, X: np.ndarray, p: np.ndarray) -> np.ndarray:
    """``M[k] @ X[k, b]`` modulo ``p[k]`` for every prime k and every b: (P, m, n) and (P, B, n, R)
    to (P, B, m, R), exactly (sums cut at :data:`~.modular.MAX_SUM_TERMS`, as :func:`~.modular.matmul_mod`)."""
    P, m, n = M.shape
    B, R = X.shape[1], X.shape[3]
    if n > MAX_SUM_TERMS:
        out = np.zeros((P, B, m, R))
        for j in range(0, n, MAX_SUM_TERMS):
            out += _contract(M[:, :, j:j + MAX_SUM_TERMS], X[:, :, j:j + MAX_SUM_TERMS], p)
        return reduce_each(out, p)
    out = np.empty((P, B, m, R))
    # one product per prime, and one per b too only when both B and R pass 1 (for R == 1 the
    # product is transposed: BLAS reads M transposed, where numpy would copy X)
    if B == 1:
        a, b, o = M, X[:, 0], out[:, 0]
    elif R == 1:
        a, b, o = X[..., 0], M.transpose(0, 2, 1), out[..., 0]
    else:
        a, b, o = M[:, None], X, out
    if m * n * B * R <= _STACKED:
        np.matmul(a, b, out=o)
        return reduce_each(out, p)
    for k in range(P):
        np.matmul(a[k], b[k], out=o[k])
        reduce_into(out[k], out[k], p[k])  # while this prime's product is still in cache
    return out


def _chain(E, tensors, rank: "_Rank", p, right=False, later: int = 0) -> list:
    """Take the hands into the environment ``E`` one at a time: the partial steps, first to last.

    Sweeping left to right the hands are taken in order (partial step j holds hands 0..j-1,
    its tally just before hand j); sweeping ``right`` to left, last first (partial step j
    holds hands k-j..k-1, its tally just after hand k-j-1), so that :func:`_rank_counts` can
    reuse them. Each partial step is ``(X, tally)`` (see :func:`_take`): a full step's tally is
    last sweeping left to right, first sweeping right to left. ``later`` is the most cards of
    the rank that hands taken after these (none, unless the chain stops short) can hold.
    """
    k = len(tensors)
    steps = [(E[..., None] if right else E[:, None], [(0, rank.flags)])]
    sweep = range(k - 1, -1, -1) if right else range(k)
    # the most cards of the rank the hands not yet taken can still add, after each hand
    room = later + sum(A.shape[1] - 1 for A in tensors)
    for q in sweep:
        A = tensors[q].transpose(0, 1, 3, 2) if right else tensors[q]
        room -= A.shape[1] - 1
        steps.append(_take(*steps[-1], q, A, rank.smax, p, rank.bits[q], right, rank.least - room))
    return steps


def _close(X, tally, rank: "_Rank", p, first=False):
    """Weigh a full step by the ocean's share: the environment on the rank's other side.
    The tally is ``X``'s last index, or its ``first`` after the prime's."""
    w = rank.weights(tally)
    out = np.empty(X.shape[:1] + X.shape[2:] if first else X.shape[:-1])
    for k in range(len(p)):
        # a few products under 2**44 each (one per tally): the sum is exact before the one reduction
        if first:
            reduce_into(w[k] @ X[k].reshape(len(tally), -1), out[k], p[k])
        else:
            reduce_into(X[k] @ w[k], out[k], p[k])
    return out


def _rank_counts(E, back, tensors, rank: "_Rank", p, fwd=None):
    """The worlds at one rank by each hand's count, and by the hands' total count.

    ``E`` is the environment before the rank, ``back`` the partial steps of the right-to-left
    sweep at this rank (:func:`_chain`), ``fwd`` those of the left-to-right sweep but the last
    when it kept them (:func:`_left_sweep`; made here otherwise). Returns ``(by_seat, by_total)``:
    ``by_seat[q] = {x: residues (P,)}``, ``by_total = {n: residues}``.

    Hand q's count needs everything at this rank but its own matrices: the hands before it
    taken from the left (``fwd[q]``) and those after it taken from the right (``bwd[q]``),
    each with its own tally; both chains serve all the hands (prefix and suffix products),
    and the right one is the sweep's own.
    """
    P, k = len(p), len(tensors)
    fwd = fwd or _chain(E, tensors[:-1], rank, p, later=tensors[-1].shape[1] - 1)
    bwd = [back[k - 1 - q] for q in range(k)]
    by_seat, by_total = [], {}
    for q, A in enumerate(tensors):
        (X, left), (Y, right) = fwd[q], bwd[q]
        d, Din, Dout = A.shape[1:]
        T1, T2 = len(left), len(right)
        # env[t1, t2, a, b]: the hands before q tally t1, those after it t2, hand q's own index
        # a on the left and b on the right, everything else (the hands before q, B, and after
        # it, R) closed. X is (P, B, T1, Din, R), Y (P, B, Dout, T2, R): see _chain.
        B, R = prod(X.shape[1:1 + q]), prod(X.shape[3 + q:])
        X, Y = X.reshape(P, B, T1 * Din, R), Y.reshape(P, B, Dout * T2, R)
        if B == 1:
            env = matmul_mod(X[:, 0], Y[:, 0].transpose(0, 2, 1), p)
        elif R == 1:  # BLAS reads the transposed operand as it is
            env = matmul_mod(X[..., 0].transpose(0, 2, 1), Y[..., 0], p)
        elif B <= R and B * T1 * Din * Dout * T2 <= _BATCHED:
            # one product per b (few, each long; sums cut at MAX_SUM_TERMS), reduced, then
            # summed over b and the cuts: no copy
            env = np.zeros((P, T1 * Din, Dout * T2))
            for i in range(P):
                for j in range(0, R, MAX_SUM_TERMS):
                    part = np.matmul(X[i, ..., j:j + MAX_SUM_TERMS], Y[i, ..., j:j + MAX_SUM_TERMS].transpose(0, 2, 1))
                    reduce_into(part, part, p[i])
                    env[i] += part.sum(axis=0)  # B residues per cut: far below 2**53
                reduce_into(env[i], env[i], p[i])
        else:  # B and R must come together: one copy of each
            env = matmul_mod(np.moveaxis(X, 2, 1).reshape(P, T1 * Din, B * R),
                              np.moveaxis(Y, 2, 1).reshape(P, Dout * T2, B * R).transpose(0, 2, 1), p)
        env = env.reshape(P, T1, Din, Dout, T2).transpose(0, 1, 4, 2, 3)
        # val[t1, t2, x]: hand q holds x (the ocean not yet weighed)
        val = matmul_mod(np.ascontiguousarray(env).reshape(P, T1 * T2, Din * Dout),
                          np.ascontiguousarray(A.reshape(P, d, Din * Dout).transpose(0, 2, 1)), p)
        # total[t1, t2, x]: the hands' count of the rank, -1 where there are no such cards or
        # the team rule rules it out; w: the ocean's share for it
        (s1, f1), (s2, f2), x = np.array(left).T, np.array(right).T, np.arange(d)
        total = s1[:, None, None] + s2[None, :, None] + x
        flags = f1[:, None, None] | f2[None, :, None] | np.where(x > 0, rank.bits[q], 0)
        total = np.where((total < rank.smax) & (total >= rank.least) & rank.allowed(flags), total, -1).reshape(T1 * T2, d)
        w = np.where(total >= 0, rank.factor[:, total], 0)
        part = val * w % p[:, None, None]  # (P, tallies, x)
        seat = {}
        for x in range(d):
            if (total[:, x] >= 0).any():
                seat[x] = part[:, :, x].sum(axis=1) % p
        by_seat.append(seat)
        if q == 0:
            for n in np.unique(total[total >= 0]).tolist():
                by_total[n] = part[:, total == n].sum(axis=1) % p
    return by_seat, by_total


class _Rank:
    """What one rank's step needs: the ocean's share by the hands' total, and the team rule.

    ``factor[:, n] = unseen! / (unseen - n)!`` is the ocean's share when the hands hold n of
    the rank. With teams, ``bits[q]`` is hand q's team (one bit), ``flags`` the viewer's own
    team bit when it holds the rank, and ``only_one_team`` keeps just the tallies where the
    rank's holders are all on one team (no ask for it can succeed).

    ``least`` is the fewest cards of the rank the hands can hold together: the ocean holds no
    more than its size, ``ocean``. (The hands' sizes are fixed, so in a world where the ocean
    would hold more of this rank it holds fewer than none of another: no such world is counted,
    and tallies that cannot reach ``least`` are dropped as soon as they are made. Late in a
    game, when counts are costliest, the ocean is small: with it empty, the costliest six-player
    counts measured made a quarter to two fifths fewer multiply-adds, in 0.79-0.93 of the time.)
    """

    def __init__(self, unseen: int, primes, bits, flags: int = 0, only_one_team: bool = False,
                 ocean: int | None = None):
        self.factor = np.array([[falling(unseen, n) % q for n in range(unseen + 1)] for q in primes], dtype=np.float64)
        self.smax = unseen + 1
        self.least = 0 if ocean is None else max(0, unseen - ocean)
        self.bits, self.flags, self.only_one_team = bits, flags, only_one_team

    def allowed(self, flags):
        """Whether the team rule allows these team flags (an int, or an array of them)."""
        return np.logical_not(self.only_one_team & ((flags & (flags - 1)) != 0))  # two teams or more hold it

    def weights(self, tally) -> np.ndarray:
        """(P, T): the ocean's share for each tally, 0 where the team rule rules it out."""
        w = np.zeros((self.factor.shape[0], len(tally)))
        for t, (s, f) in enumerate(tally):
            if self.allowed(f):
                w[:, t] = self.factor[:, s]
        return w


def work(hands, unseen, seating=None, ocean=None) -> int:
    """The multiply-adds (per prime) of one left-to-right and one right-to-left sweep of
    :func:`count_worlds` over ``hands`` (team flags aside), joined in the order ``seating`` (a
    permutation of their indices; their own by default): what an order of the ranks costs.
    With the ``ocean``'s size, partial sums that cannot be completed are left out, as the sweeps do.

    Taking hand q into a rank's partial step is one product of its block matrix, (new
    tallies x its index after) by (tallies x its index before), with every other hand's
    index: the hands taken so far at their index after the rank, the others at theirs
    before it. The counts by rank cost about as much as the two sweeps again, in the same
    proportion, so comparing two orders needs only this.

    >>> from gofish_teach.probability.hands import Hand
    >>> hand = Hand.dealt(2, [True, True], primes=(7,))       # 2 cards over 2 ranks
    >>> [A.shape[1:] for A in hand.tensors]                   # (counts, index before, index after)
    [(3, 1, 3), (3, 3, 1)]
    >>> work([hand, hand], unseen=[4, 4])   # rank 0: 9 + 135 left, 27 + 45 right; rank 1 its mirror
    432
    """
    seating = np.arange(len(hands)) if seating is None else np.asarray(seating, dtype=np.int64)
    return int(_work(shapes(hands), np.asarray(unseen, dtype=np.int64), seating, least_held(unseen, ocean)))


def least_held(unseen, ocean) -> np.ndarray:
    """The fewest cards of each rank the hands hold together (see :class:`_Rank`)."""
    unseen = np.asarray(unseen, dtype=np.int64)
    return np.zeros_like(unseen) if ocean is None else np.maximum(0, unseen - ocean)


def shapes(hands) -> np.ndarray:
    """(hands, ranks, 3): each hand's counts and inner dimensions before and after each rank."""
    return np.array([[A.shape[1:] for A in hand.tensors] for hand in hands], dtype=np.int64).reshape(len(hands), -1, 3)


def cheapest_seating(hands, unseen, ocean=None) -> tuple[int, tuple]:
    """The least :func:`work` over every order in which ``hands`` can be joined, and that order
    (a permutation of their indices): the joined states are the same in any order, but what a
    hand's step costs depends on the hands' indices either side of it. At most 5! orders.

    >>> from gofish_teach.probability.hands import Hand
    >>> small, big = Hand.dealt(2, [True] * 3, primes=(7,)), Hand.dealt(4, [True] * 3, primes=(7,))
    >>> work([big, small, small], unseen=[4, 4, 4])
    19734
    >>> cheapest_seating([big, small, small], unseen=[4, 4, 4])    # the big hand in the middle
    (17898, (1, 0, 2))
    """
    table, least, unseen = shapes(hands), least_held(unseen, ocean), np.asarray(unseen, dtype=np.int64)
    return min((int(_work(table, unseen, np.array(seating, dtype=np.int64), least)), seating)
               for seating in permutations(range(len(hands))))


@njit(cache=True)
def step_work(d, din, dout, unseen, least=0):
    """:func:`work` at one rank, for hands (in the order they are joined) with ``d`` counts of it
    and inner dimensions ``din`` before it and ``dout`` after it; together the hands hold at
    least ``least`` cards of it (see :class:`_Rank`)."""
    H, total = len(d), 0
    for right in range(2):
        low, high, room = 0, 0, 0  # the hands' sum of this rank so far, and what the others can add
        for q in range(H):
            room += d[q] - 1
        tally = 1
        for k in range(H):
            q = H - 1 - k if right else k
            room -= d[q] - 1
            high = min(unseen, high + d[q] - 1)
            low = max(low, least - room)
            after = max(0, high - low + 1)
            other = 1
            for h in range(H):  # a hand taken already has its index from the rank's other side
                if h != q:
                    if right:  # from after the rank to before it
                        other *= din[h] if h > q else dout[h]
                    else:
                        other *= dout[h] if h < q else din[h]
            total += other * tally * din[q] * after * dout[q]
            tally = after
    return total


@njit(cache=True)
def _work(table, unseen, seating, least):
    H, total = len(seating), 0
    d, din, dout = np.empty(H, dtype=np.int64), np.empty(H, dtype=np.int64), np.empty(H, dtype=np.int64)
    for s in range(table.shape[1]):
        for i in range(H):
            d[i], din[i], dout[i] = table[seating[i], s, 0], table[seating[i], s, 1], table[seating[i], s, 2]
        total += step_work(d, din, dout, unseen[s], least[s])
    return total


def _left_sweep(hands, ranks: list, p, same=None, room: int = 0) -> tuple[list, dict]:
    """The environments before each rank and after the last, left to right (``left[R]`` is the
    total, as residues of shape (P, 1, ..., 1)), and the partial steps kept for the counts.

    A rank's step takes the hands one at a time (:func:`_chain`); the counts at that rank need
    the same partial steps but the last (:func:`_rank_counts`). They are kept for the ranks
    whose counts are worked out (``same[s] == s``), first to last, while their bytes fit in
    ``room``; the counts make them again for the others.
    """
    left, kept = [np.ones((len(p),) + (1,) * len(hands))], {}
    same = same or range(len(ranks))
    for s in range(len(ranks)):
        steps = _chain(left[-1], [h.tensors[s] for h in hands], ranks[s], p)
        left.append(_close(*steps[-1], ranks[s], p))
        size = sum(X.nbytes for X, _ in steps[1:-1])
        if same[s] == s and size <= room:
            kept[s], room = steps[:-1], room - size
    return left, kept


def _counts_by_rank(hands, ranks: list, p, left: list, same=None, kept=None) -> list:
    """Every rank's counts (:func:`_rank_counts`), sweeping right to left with the environments
    ``left`` and the partial steps ``kept`` of :func:`_left_sweep`; a rank with
    ``same[r] != r`` takes the counts of rank ``same[r]`` (exchangeable with it).

    Only the first ``len(p)`` primes are used, which may be fewer than ``left`` and the hands
    hold: :func:`count_worlds` takes as many as the total needs, once it knows the total.
    """
    P, R = len(p), len(ranks)
    same, kept = same or range(R), kept or {}
    counts = [None] * R
    F = np.ones((P,) + (1,) * len(hands))
    for s in range(R - 1, -1, -1):  # right to left; a rank's counts use the sweep's partial steps
        tensors = [h.tensors[s][:P] for h in hands]
        back = _chain(F, tensors, ranks[s], p, right=True)
        if same[s] == s:
            fwd = kept.pop(s, None)  # dropped once used: the sweep holds less and less
            fwd = fwd and [(X[:P], tally) for X, tally in fwd]
            counts[s] = _rank_counts(left[s][:P], back, tensors, ranks[s], p, fwd)
        F = _close(*back[-1], ranks[s], p, first=True)
    return [counts[same[s]] for s in range(R)]


def _less(counts: dict, part: dict, p) -> dict:
    """``counts - part`` key by key, as residues (``part``'s keys are among ``counts``')."""
    return {x: (w - part.get(x, 0)) % p for x, w in counts.items()}


def count_worlds(hands, unseen, primes, teams=None, same=None, ocean=None):
    """Exact world counts: the total, per hand and rank the counts by x, and per rank by ocean count.

    Returns ``(total, seat_counts, ocean_counts)`` with ``seat_counts[i][r] = {x: worlds}`` for
    ``hands[i]`` and ``ocean_counts[r] = {o: worlds}``, all Python ints (zero counts left out).

    ``teams = (bits, flags, mode)`` adds the teams endgame (the ocean is empty): ``bits[i]``
    is hand i's team (one bit each), ``flags[r]`` the viewer's team bit if it holds rank r, else 0;
    mode ``"stalemate"`` keeps the worlds where no ask can succeed (every rank's holders on
    one team), ``"going_on"`` the others: all worlds less the stalemates.

    ``same[r]`` (optional) is a rank exchangeable with r, no later than r (see
    :func:`.exact.exchangeable`): its counts are r's too, and are worked out once.

    ``ocean`` (optional) is the ocean's size, the unseen cards the hands do not hold: with it,
    partial sums that cannot be completed into a world are dropped early (see :class:`_Rank`).
    """
    p = np.array(primes, dtype=np.float64)
    R, k = len(unseen), len(hands)
    room = [sum(h.tensors[s].shape[1] - 1 for h in hands) for s in range(R)]
    if any(h.is_zero() for h in hands) or (ocean is not None and any(r + ocean < u for r, u in zip(room, unseen, strict=True))):
        # some hand's history is impossible, or the hands and ocean cannot hold every unseen card of a rank
        return 0, [[{} for _ in range(R)] for _ in hands], [{} for _ in range(R)]
    bits, flags, mode = teams or ((0,) * k, [0] * R, None)

    def ranks(primes, stuck: bool) -> list:
        return [_Rank(u, primes, bits, f, True, ocean) if stuck else _Rank(u, primes, (0,) * k, ocean=ocean)
                for u, f in zip(unseen, flags, strict=True)]

    # "going_on" is all worlds less the stalemates: two sweeps, the stalemates first
    modes = [False] if mode is None else [True] if mode == "stalemate" else [True, False]
    sweeps = {stuck: _left_sweep(hands, ranks(primes, stuck), p, same, KEPT_BYTES // len(modes)) for stuck in modes}
    # Every count is at most the last sweep's total (all worlds, or all stalemates), which is often
    # tens of bits below the story's bound that chose ``primes``: the right-to-left sweep and the
    # counts, most of the work, take only as many primes as that total needs.
    last = modes[-1]
    primes = enough(primes, crt(sweeps[last][0][-1].reshape(-1), primes))
    p = p[:len(primes)]
    total, counts = {}, {}
    for stuck, (left, kept) in sweeps.items():
        total[stuck] = left[-1].reshape(-1)[:len(p)]
        counts[stuck] = _counts_by_rank(hands, ranks(primes, stuck), p, left, same, kept)
    if mode == "going_on":
        total = (total[False] - total[True]) % p
        counts = [([_less(seat, stuck_seat, p) for seat, stuck_seat in zip(by_seat, stuck_by_seat, strict=True)],
                   _less(by_total, stuck_total, p))
                  for (by_seat, by_total), (stuck_by_seat, stuck_total) in zip(counts[False], counts[True], strict=True)]
    else:
        total, counts = total[last], counts[last]
    seat_counts = [[{} for _ in range(R)] for _ in hands]
    ocean_counts = [{} for _ in range(R)]
    for s, (by_seat, by_total) in enumerate(counts):
        for q in range(k):
            for x, residues in sorted(by_seat[q].items()):
                n = crt(residues, primes)
                if n:
                    seat_counts[q][s][x] = n
        for x, residues in sorted(by_total.items()):
            n = crt(residues, primes)
            if n:
                ocean_counts[s][unseen[s] - x] = n
    return crt(total, primes), seat_counts, ocean_counts
