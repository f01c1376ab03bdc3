"""Monte Carlo: sample worlds consistent with a view, for when the exact count is too big.

:func:`sample_hands` (the fallback when the exact joint of several hands is too big) is
blocked Gibbs sampling over the hidden hands. A hand's conditional distribution given the
others is exact and cheap: it is that hand's own posterior (:mod:`.pools`, float weights)
with the other hands' cards taken out of the unseen totals. Each sweep redraws every hand.
In the teams endgame a redrawn hand is kept only if the hands still fit the endgame's rule.

:func:`estimate` (an independent check on :func:`~gofish_teach.probability.posterior`: it
samples deals and follows them, not hands) is sequential importance sampling with
resampling. Each sample is a whole hidden world — every other seat's hand and the ocean's
make-up — followed through the view's events: a deal of the unseen cards at random, then
every event either checks the sample (an ask says the asker holds the rank; "Go Fish!" says
the target holds none; a gift says exactly how many; no book means no four of a kind) or
moves cards (a hidden draw takes a card from the sample's ocean, among the ranks it may be,
with the importance weight that restriction costs). Samples that contradict the view get
weight 0; when few carry the weight, they are resampled.

The estimate averages several independent runs, and their spread gives standard errors
(``belief.stderr("p_holds", 1, "Q")``). It is flagged ``exact = False``.

>>> from gofish_teach import Game, Rules
>>> game = Game(Rules.preset("pond"), n_players=2, seed=3)
>>> belief = estimate(game.view(0), samples=4000, seed=1)
>>> belief.exact, round(belief.p_top("K"), 3)          # exact: 26104/306719 = 0.0851
(False, 0.085)
>>> belief.stderr("p_top", "K") < 0.001
True
"""
from __future__ import annotations

from math import comb, lgamma
from numbers import Integral

import numpy as np

from ..cards import SUITS
from ..record import Asked, Booked, Dealt, Drew, Gave, Got, Lacks, Record, Settled
from .answers import Belief

_DECK = len(SUITS)
RUNS = 25  # independent runs an estimate averages; their spread gives its standard error


def whole(value, field: str, least: int = 1) -> int:
    """``value`` as a plain int if it is a whole number (numpy integers too) of at least
    ``least``; otherwise a ValueError naming ``field``.

    >>> whole(4000, "samples"), whole(0, "seed", least=0)
    (4000, 0)
    >>> whole(2.5, "samples")
    Traceback (most recent call last):
    ...
    ValueError: samples must be a whole number, at least 1, not 2.5
    """
    if not isinstance(value, Integral) or isinstance(value, bool) or value < least:
        raise ValueError(f"{field} must be a whole number, at least {least}, not {value!r}")
    return int(value)


def estimate(view, samples: int = 20_000, seed: int = 0, reason: str = "") -> Belief:
    """A Monte Carlo :class:`Belief` from ``samples`` sampled worlds, in :data:`RUNS` independent runs."""
    samples, seed = whole(samples, "samples"), whole(seed, "seed", least=0)
    rng = np.random.default_rng(seed)
    for per_run in (max(samples // RUNS, 50), 4 * max(samples // RUNS, 50)):  # a second try, larger
        runs = [r for r in (_run(view, per_run, rng) for _ in range(RUNS)) if r is not None]
        if len(runs) >= RUNS // 2:
            return _average(view, runs, reason)
    raise ValueError(f"Monte Carlo found too few deals consistent with the view ({reason}); "
                     "the history is too long for sequential sampling")


def _average(view, runs, reason) -> Belief:
    """The mean of independent runs' beliefs, keeping the runs for standard errors."""
    if len(runs) < 2:
        raise ValueError("Monte Carlo found almost no deal consistent with the view; try more samples")

    def mean(dists):
        keys = sorted(set().union(*dists))
        return {c: sum(d.get(c, 0.0) for d in dists) / len(dists) for c in keys}

    seats = {q: {r: mean([run.seats[q][r] for run in runs]) for r in view.ranks} for q in runs[0].seats}
    ocean = {r: mean([run.ocean[r] for run in runs]) for r in view.ranks}
    belief = Belief(view.ranks, seats, ocean, view.ocean_size, {view.player: view.counts}, exact=False, runs=runs)
    belief.reason = reason
    return belief


def _sample(weights_by_rank, rng):
    """One rank per sample, with probability proportional to ``weights_by_rank`` (N, R)."""
    cum = np.cumsum(weights_by_rank, axis=1)
    u = rng.random(len(cum)) * cum[:, -1]
    return np.minimum((cum <= u[:, None]).sum(axis=1), weights_by_rank.shape[1] - 1)


class _Worlds:
    """N sampled worlds: hands (N, seats, ranks), ocean (N, ranks), weights (N,)."""

    def __init__(self, view, n, rng):
        self.rng, self.b, self.me = rng, view.rules.book_size, view.player
        self.index = {r: i for i, r in enumerate(view.ranks)}
        R, P = len(view.ranks), view.n_players
        self.hands = np.zeros((n, P, R), dtype=np.int64)
        self.ocean = np.full((n, R), _DECK, dtype=np.int64)
        self.w = np.ones(n)

    def take(self, q, count):
        """Deal ``count`` cards from each world's ocean to seat q (no constraint)."""
        rows = np.arange(len(self.w))
        for _ in range(count):
            t = _sample(self.ocean.astype(float), self.rng)
            self.ocean[rows, t] -= 1
            self.hands[rows, q, t] += 1

    def shown(self, q, rank):
        """Seat q takes a card of ``rank`` from the ocean, face up (its own draw, or a lucky one)."""
        s = self.index[rank]
        size = self.ocean.sum(axis=1)
        self.w *= np.where(size > 0, self.ocean[:, s] / np.maximum(size, 1), 0)
        self.ocean[:, s] = np.maximum(self.ocean[:, s] - 1, 0)
        if q != self.me:
            self.hands[:, q, s] += 1

    def hidden_draw(self, q, excluded, books):
        """Seat q draws an unseen card: not ``excluded``, and completing exactly the ``books`` that follow."""
        b, held = self.b, self.hands[:, q]
        ok = np.ones(held.shape, dtype=bool)
        if excluded is not None:
            ok[:, excluded] = False
        if books:
            target = np.zeros(held.shape[1], dtype=bool)
            target[books[0]] = True
            ok &= target[None, :] & (held == b - 1)
        else:
            ok &= held < b - 1
        mass = np.where(ok, self.ocean, 0)
        size = self.ocean.sum(axis=1)
        total = mass.sum(axis=1)
        self.w *= np.where(size > 0, total / np.maximum(size, 1), 0)
        alive = total > 0
        t = _sample(np.where(alive[:, None], mass, 1).astype(float), self.rng)
        rows = np.arange(len(self.w))[alive]
        self.ocean[rows, t[alive]] -= 1
        self.hands[rows, q, t[alive]] += 1

    def require(self, mask):
        self.w *= mask

    def resample(self):
        """Systematic resampling when the weight sits on fewer than half the samples."""
        w = self.w
        total = w.sum()
        if total <= 0:
            return
        w = self.w = w / (total / len(w))  # mean 1: no underflow over long games
        if len(w) ** 2 / (w ** 2).sum() < 0.5 * len(w):
            positions = (self.rng.random() + np.arange(len(w))) / len(w)
            idx = np.minimum(np.searchsorted(np.cumsum(w) / len(w), positions), len(w) - 1)
            self.hands, self.ocean = self.hands[idx], self.ocean[idx]
            self.w = np.ones(len(w))


def _can_ask(worlds, view):
    """Per world: could some ask still succeed (the teams stalemate check)?"""
    hands = worlds.hands.copy()
    for r, c in view.counts.items():
        hands[:, view.player, worlds.index[r]] = c
    rules, n = view.rules, view.n_players
    out = np.zeros(len(worlds.w), dtype=bool)
    for p in range(n):
        for q in range(n):
            if q == p or q == rules.partner(p, n):
                continue
            if rules.bluff:
                out |= (hands[:, p].sum(axis=1) > 0) & (hands[:, q].sum(axis=1) > 0)
            else:
                out |= ((hands[:, p] > 0) & (hands[:, q] > 0)).any(axis=1)
    return out


def _books_after(steps, k, seat) -> list:
    """The books ``seat`` lays straight after step k (its draw): the Book events that follow
    at once, each read as just ``(Booked(seat, rank),)``. Any other event ends the run."""
    books = []
    for ops, _, _ in steps[k + 1:]:
        if len(ops) != 1 or type(ops[0]) is not Booked or ops[0].seat != seat:
            break
        books.append(ops[0].rank)
    return books


def _run(view, n, rng):
    """One run: a Belief of float distributions, or None when every sample died."""
    me, rules, b = view.player, view.rules, view.rules.book_size
    worlds = _Worlds(view, n, rng)
    index = worlds.index
    record = Record(view.n_players, rules)
    # the record read once: each event's operations, and the ocean's size and the game's end after it
    steps = [(record.read(event), record.ocean, record.over) for event in view.events]
    dealt = [op for ops, _, _ in steps for op in ops if type(op) is Dealt]
    for op in dealt:  # the viewer's cards leave the ocean first, then the other hands are dealt
        if op.seat == me:
            for card in op.cards:
                worlds.ocean[:, index[card.rank]] -= 1
    for op in dealt:
        if op.seat != me:
            worlds.take(op.seat, op.count)
    endgame = rules.teams and rules.end != "ocean_empty"  # with the ocean empty, some ask can succeed
    ended = False
    for k, (ops, ocean, over) in enumerate(steps):
        for op in ops:
            kind, q = type(op), op.seat
            if kind is Settled:
                if q != me:
                    worlds.require((worlds.hands[:, q] < b).all(axis=1))
            elif kind is Asked:
                if endgame and ocean == 0:
                    worlds.require(_can_ask(worlds, view))
                if q != me and not rules.bluff:
                    worlds.require(worlds.hands[:, q, index[op.rank]] >= 1)
            elif kind is Lacks:
                if q != me:
                    worlds.require(worlds.hands[:, q, index[op.rank]] == 0)
            elif kind is Gave:
                if q != me:
                    s = index[op.rank]
                    worlds.require(worlds.hands[:, q, s] == op.count)
                    worlds.hands[:, q, s] = 0
            elif kind is Got:
                if q != me:
                    worlds.hands[:, q, index[op.rank]] += op.count
            elif kind is Drew:
                if op.cards is not None:  # seen: a lucky draw, or the viewer's own
                    for card in op.cards:
                        worlds.shown(q, card.rank)
                elif op.count > 1:  # a new hand
                    worlds.take(q, op.count)
                else:
                    excluded = index[op.not_rank] if op.not_rank else None
                    worlds.hidden_draw(q, excluded, [index[r] for r in _books_after(steps, k, q)])
            elif kind is Booked:
                if q != me:
                    s = index[op.rank]
                    worlds.require(worlds.hands[:, q, s] >= b)
                    worlds.hands[:, q, s] -= b
        if over is not None and not ended:
            ended = True
            if rules.teams and "ask can succeed" in over:
                worlds.require(~_can_ask(worlds, view))
        worlds.resample()
    for op in record.settle():
        if op.seat != me:
            worlds.require((worlds.hands[:, op.seat] < b).all(axis=1))
    w = worlds.w
    if w.sum() <= 0:
        return None
    w = w / w.sum()
    seats = {}
    for q in range(view.n_players):
        if q == me:
            continue
        seats[q] = {r: _distribution(worlds.hands[:, q, s], w) for r, s in index.items()}
    ocean = {r: _distribution(worlds.ocean[:, s], w) for r, s in index.items()}
    return Belief(view.ranks, seats, ocean, view.ocean_size, {me: view.counts}, exact=False)


def _distribution(values, w):
    live = w > 0  # a dead sample's hand may have gone below zero: it does not count
    counts = np.bincount(values[live], weights=w[live], minlength=5)
    return {c: float(p) for c, p in enumerate(counts) if p > 0}


# ---------------------------------------------------------------------- Gibbs over hands
_FALLING = np.array([[float(np.prod(np.arange(u, u - x, -1))) if x <= u else 0.0 for x in range(8)]
                     for u in range(5)])  # u!/(u-x)!: the ocean's share of x cards when u are unseen


class _HandSampler:
    """Draw one hand's counts from its exact posterior as if it were the only hidden hand, with
    the unseen totals given per chain: ``G(x) * prod_r u_r!/(u_r - x_r)!`` (cases, float weights).

    With the other hands' cards taken out of the unseen totals, that is exactly this hand's
    conditional distribution given the others: one step of blocked Gibbs sampling.
    """

    def __init__(self, cases, cap):
        self.cap = cap
        self.known = cases.known_counts()
        self.m = cases.pool_sizes()
        self.w = cases.weights[0]
        self.pooled = [s for s in range(cases.R) if cases.pool_mask >> s & 1]
        self.resolved = [s for s in range(cases.R) if s not in self.pooled]
        # cases by their known counts on pooled ranks (all 0 unless bluffing): one backward
        # table per group serves every pool size m
        keys = [tuple(row) for row in self.known[:, self.pooled].tolist()]
        self.groups = {}
        for i, key in enumerate(keys):
            self.groups.setdefault(key, []).append(i)
        self.groups = {k: np.array(v) for k, v in self.groups.items()}
        self.group_of = [keys[i] for i in range(len(keys))]
        self.binom = np.array([[comb(a, y) for y in range(8)] for a in range(64)], dtype=float)
        self.log_fact = np.array([lgamma(n + 1) for n in range(64)])

    def weight(self, counts) -> np.ndarray:
        """``G(x)`` (float) for each row of ``counts`` (C, R): the hand's own weight, no ocean."""
        counts = np.asarray(counts)
        out = np.zeros(len(counts))
        A, res = self.pooled, self.resolved
        for start in range(0, len(counts), 16):  # a few chains at a time: (chains, cases, ranks) arrays
            x = counts[start:start + 16]
            fits = (x[:, None, res] == self.known[None, :, res]).all(axis=2) if res else np.ones((len(x), len(self.w)), bool)
            y = x[:, None, A] - self.known[None, :, A]
            fits &= (y >= 0).all(axis=2) & (y.sum(axis=2) == self.m[None, :])
            ways = np.exp(self.log_fact[self.m][None, :] - self.log_fact[np.clip(y, 0, 63)].sum(axis=2))
            out[start:start + 16] = (np.where(fits, ways, 0.0) * self.w[None, :]).sum(axis=1)
        out[(counts > self.cap).any(axis=1)] = 0.0  # a hand never holds a whole book
        return out

    def draw(self, unseen, rng):
        """One hand per chain; ``unseen`` is (C, R). Returns (C, R) counts, and a (C,) mask of chains with a hand."""
        C, R = unseen.shape
        f = _FALLING[np.clip(unseen, 0, 4)]  # (C, R, 8)
        f[:, :, self.cap + 1:] = 0
        res = np.array(self.resolved, dtype=np.int64)
        base = self.w[None, :] * f[:, res[None, :], self.known[:, res]].prod(axis=2) if len(res) else \
            np.broadcast_to(self.w, (C, len(self.w))).copy()
        mass = np.zeros_like(base)
        back = {}
        top = int(self.m.max()) if len(self.m) else 0
        for kA, rows in self.groups.items():
            B = np.zeros((C, len(self.pooled) + 1, top + 1))  # B[:, i, r]: r cards left for ranks i, i+1, ...
            B[:, -1, 0] = 1
            for i in range(len(self.pooled) - 1, -1, -1):
                s, k = self.pooled[i], kA[i]
                for y in range(min(top, 7 - k) + 1):
                    B[:, i, y:] += self.binom[y:top + 1, y] * f[:, s, k + y, None] * B[:, i + 1, :top + 1 - y]
            back[kA] = B
            mass[:, rows] = base[:, rows] * B[:, 0, self.m[rows]]
        total = mass.sum(axis=1)
        ok = total > 0
        u = rng.random(C) * total
        chosen = np.minimum((np.cumsum(mass, axis=1) <= u[:, None]).sum(axis=1), mass.shape[1] - 1)
        hands = self.known[chosen].copy()
        left = self.m[chosen].copy()
        for kA, B in back.items():
            chains = np.flatnonzero([self.group_of[n] == kA for n in chosen])
            if not len(chains):
                continue
            B, fc, rem = B[chains], f[chains], left[chains]
            for i, s in enumerate(self.pooled):
                ys = np.arange(min(top, 7 - kA[i]) + 1)
                fits = ys[None] <= rem[:, None]
                after = np.where(fits, rem[:, None] - ys[None], 0)
                w = self.binom[rem[:, None], ys[None]] * fc[:, s, kA[i] + ys] * np.take_along_axis(B[:, i + 1], after, axis=1) * fits
                u = rng.random(len(chains)) * w.sum(axis=1)
                y = np.minimum((np.cumsum(w, axis=1) <= u[:, None]).sum(axis=1), len(ys) - 1)
                hands[chains, s] += y
                rem = rem - y
        return hands, ok


def _swap(hands, samplers, rule, rng) -> None:
    """A Metropolis move that trades one card between two hidden hands, in every chain.

    Redrawing one hand given the others cannot move cards between hands that the ocean does
    not reach (when the ocean is empty, each hand is fixed by the others); trades can. A card
    is picked at random from each hand and they change places; the move is accepted with
    probability ``min(1, G1(x')G2(y') / (G1(x)G2(y)) * q(back) / q(forth))``.
    """
    C, k, R = hands.shape
    q1, q2 = rng.choice(k, size=2, replace=False)
    x, y = hands[:, q1], hands[:, q2]
    n1, n2 = x.sum(axis=1), y.sum(axis=1)
    live = (n1 > 0) & (n2 > 0)
    a = np.minimum((np.cumsum(x, axis=1) <= (rng.random(C) * n1)[:, None]).sum(axis=1), R - 1)
    b = np.minimum((np.cumsum(y, axis=1) <= (rng.random(C) * n2)[:, None]).sum(axis=1), R - 1)
    live &= a != b
    if not live.any():
        return
    rows = np.flatnonzero(live)
    i = np.arange(len(rows))
    x2, y2 = x[rows].copy(), y[rows].copy()
    a, b = a[rows], b[rows]
    x2[i, a] -= 1
    x2[i, b] += 1
    y2[i, b] -= 1
    y2[i, a] += 1
    forth = x[rows, a] * y[rows, b]  # the picks' chances, up to the hand sizes, which do not change
    back = x2[i, b] * y2[i, a]
    before = samplers[q1].weight(x[rows]) * samplers[q2].weight(y[rows])
    after = samplers[q1].weight(x2) * samplers[q2].weight(y2)
    ratio = np.where(before > 0, after * back / np.where(before > 0, before * forth, 1), 1.0)
    proposed = hands[rows].copy()
    proposed[:, q1], proposed[:, q2] = x2, y2
    accept = (rng.random(len(rows)) < ratio) & rule(proposed)
    hands[rows[accept], q1] = x2[accept]
    hands[rows[accept], q2] = y2[accept]


def _team_rule(teams):
    """``rule(hands)`` -> (chains,) bool: which sets of hidden hands fit the teams endgame.

    ``teams`` is :attr:`.history.Story.teams`; a rank is stuck when its holders are all on one
    team, and a stalemate is every rank stuck. Without an endgame every set fits.
    """
    if teams is None:
        return lambda hands: np.ones(len(hands), dtype=bool)
    bits, flags, mode = teams
    bits = np.array(bits, dtype=np.int64)[None, :, None]
    flags = np.array(flags, dtype=np.int64)[None, :]

    def rule(hands):
        held = np.bitwise_or.reduce(np.where(hands > 0, bits, 0), axis=1) | flags  # (chains, R)
        stalemate = ((held & (held - 1)) == 0).all(axis=1)
        return stalemate if mode == "stalemate" else ~stalemate

    return rule


def sample_hands(view, story, samples: int = 20_000, seed: int = 0, reason: str = "",
                 chains: int = 100, burn: int = 20) -> Belief:
    """Blocked Gibbs sampling of every hidden hand at once; ``samples`` hand-sets after burn-in.

    Each sweep redraws every hand from its exact conditional given the others. Chains start
    from hands drawn one after another (each given the ones before), and the spread between
    groups of chains gives the standard errors.
    """
    from .exact import hand_cases

    samples, seed = whole(samples, "samples"), whole(seed, "seed", least=0)
    chains, burn = whole(chains, "chains", least=RUNS), whole(burn, "burn", least=0)  # a run per group of chains
    rng = np.random.default_rng(seed)
    R, b = len(view.ranks), view.rules.book_size
    unseen = np.array(story.unseen)
    samplers = [_HandSampler(hand_cases(story, q, R, b), b - 1) for q in story.seats]
    k = len(samplers)
    rule = _team_rule(story.teams)
    hands = np.zeros((chains, k, R), dtype=np.int64)
    alive = np.zeros(chains, dtype=bool)
    for _ in range(50):  # start every chain from a consistent deal
        todo = ~alive
        if not todo.any():
            break
        fresh = np.zeros((todo.sum(), k, R), dtype=np.int64)
        ok = np.ones(todo.sum(), dtype=bool)
        for q, sampler in enumerate(samplers):
            h, good = sampler.draw(unseen[None] - fresh.sum(axis=1), rng)
            fresh[:, q], ok = h, ok & good
        hands[todo] = fresh
        alive[todo] = ok & rule(fresh)
    if not alive.any():
        raise ValueError("Monte Carlo found no consistent deal of the unseen cards")
    hands[~alive] = hands[np.flatnonzero(alive)[np.arange((~alive).sum()) % alive.sum()]]
    sweeps = max(samples // chains, 10)
    record = np.zeros((sweeps, chains, k, R), dtype=np.int64)
    for t in range(burn + sweeps):
        for q, sampler in enumerate(samplers):
            others = hands.sum(axis=1) - hands[:, q]
            h, good = sampler.draw(unseen[None] - others, rng)
            proposed = hands.copy()
            proposed[:, q] = h
            # the teams endgame: keep a draw only if the hands still fit it (Metropolis with
            # the conditional without that rule as the proposal, which leaves it exact)
            good &= rule(proposed)
            hands[good, q] = h[good]
        for _ in range(k if k > 1 else 0):  # a trade needs two hidden hands
            _swap(hands, samplers, rule, rng)
        if t >= burn:
            record[t - burn] = hands
    runs = []
    for part in np.array_split(np.arange(chains), RUNS):
        got = record[:, part].reshape(-1, k, R)
        w = np.full(len(got), 1.0 / len(got))
        seats = {q: {r: _distribution(got[:, i, s], w) for s, r in enumerate(view.ranks)}
                 for i, q in enumerate(story.seats)}
        sea = {r: _distribution(unseen[s] - got[:, :, s].sum(axis=1), w) for s, r in enumerate(view.ranks)}
        runs.append(Belief(view.ranks, seats, sea, view.ocean_size, {view.player: view.counts}, exact=False))
    return _average(view, runs, reason)
