"""Monte Carlo: sample worlds consistent with a view, for when the exact count is too big.

:func:`sample_hands` (the fallback when the exact joint of several hands is too big) is
blocked Gibbs sampling over the hidden hands. A hand's conditional distribution given the
others is exact and cheap: it is that hand's own posterior (:mod:`.pools`, float weights)
with the other hands' cards taken out of the unseen totals. Each sweep redraws every hand.
In the teams endgame a redrawn hand is kept only if the hands still fit the endgame's rule.
Its compiled loops are in :mod:`.gibbs`.

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

from numbers import Integral

import numpy as np

from ..cards import SUITS
from ..events import Reason
from ..record import Asked, Booked, Dealt, Drew, Gave, Got, Lacks, Record, Settled
from ..rules import End
from .answers import Belief
from .gibbs import gibbs_chains

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
    endgame = rules.teams and rules.end != End.OCEAN_EMPTY  # with the ocean empty, some ask can succeed
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
            if rules.teams and over == Reason.STALEMATE:
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


# ---------------------------------------------------------------------- Gibbs over hands (the sampler: gibbs.py)
def sample_hands(view, story, samples: int = 20_000, seed: int = 0, reason: str = "",
                 chains: int = 100, burn: int = 20) -> Belief:
    """Blocked Gibbs sampling of every hidden hand at once; ``samples`` hand-sets after burn-in.

    Each sweep redraws every hand from its exact conditional given the others. Chains start
    from hands drawn one after another (each given the ones before), and the spread between
    groups of chains gives the standard errors.
    """
    samples, seed = whole(samples, "samples"), whole(seed, "seed", least=0)
    chains, burn = whole(chains, "chains", least=RUNS), whole(burn, "burn", least=0)  # a run per group of chains
    record = gibbs_chains(story, len(view.ranks), view.rules.book_size, max(samples // chains, 10), seed, chains, burn)
    _, _, k, R = record.shape
    unseen = np.array(story.unseen, dtype=np.int64)
    runs = []
    for part in np.array_split(np.arange(chains), RUNS):
        got = record[:, part].reshape(-1, k, R)
        held, sea = _shares(got), _shares(unseen - got.sum(axis=1))  # (k, R, counts), (R, counts)
        seats = {q: {r: _as_dict(held[i, s]) for s, r in enumerate(view.ranks)} for i, q in enumerate(story.seats)}
        ocean = {r: _as_dict(sea[s]) for s, r in enumerate(view.ranks)}
        runs.append(Belief(view.ranks, seats, ocean, view.ocean_size, {view.player: view.counts}, exact=False))
    return _average(view, runs, reason)


def warm() -> None:
    """Compile the sampler's loops now, on a small position, so that no learner's first sampled
    answer waits for it: about 20 s once, after which numba loads the machine code from its
    cache on disk (``__pycache__``). ``make`` runs this right after installing."""
    from .. import Game, Rules
    from .history import read

    game = Game(Rules.preset("pond"), 3, seed=0)
    view = game.view(0)
    gibbs_chains(read(view), len(view.ranks), view.rules.book_size, sweeps=2, seed=0, chains=2, burn=1)


def _shares(values):
    """For samples ``values`` (N, ...) of counts 0-4: each count's share, on a last axis."""
    return (values[..., None] == np.arange(_DECK + 1)).mean(axis=0)


def _as_dict(shares):
    return {c: float(p) for c, p in enumerate(shares.tolist()) if p > 0}
