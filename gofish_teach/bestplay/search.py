"""A search bot for the full deck: determinised Monte Carlo search over the posterior.

At each decision :class:`SearchBot` does what a careful player would do with a pencil: it
imagines ``samples`` ways the hidden cards could lie, each drawn from what its own view
says about them (the posterior's Gibbs sampler, :func:`~gofish_teach.probability.draw_hidden_hands`,
so that a seat that asked for 7s holds a 7 and one that said "Go Fish!" to 9s holds none),
with the ocean shuffled at random; then, for every legal ask, it plays each imagined world
to the end with ``memory`` in its own seat and ``others`` (``memory`` unless told) in every
other seat, compiled, and
takes the ask with the best mean win share (ties shared). Every ask is scored on the same
imagined worlds and the same random numbers (common random numbers), so the comparison
between asks is not drowned by the luck of the worlds. It leaves ``memory``'s own ask only
when another one is better by more than ``margin`` standard errors of the paired
difference: with a few dozen worlds per ask, the best-looking of twenty asks is often
best only by chance, and a bot that followed the noise would play worse than ``memory``.

It reads its :class:`~gofish_teach.view.View` alone: the sampler draws hands from the
view's events, and the rollouts start from the view's public record (hand sizes, books,
who showed which rank, which asks are dead). Its random numbers come from ``seed`` and the
view, never from a counter, so the same view gives the same ask in any game, any order.

>>> from gofish_teach import Game
>>> import numpy as np
>>> game = Game("pond", 4, seed=3)
>>> bot = SearchBot(samples=8, seed=1)
>>> ask = bot.choose(game.view(0), np.random.default_rng(0))
>>> ask in game.view(0).legal_asks()
True

What it assumes: that after this ask it plays ``memory`` and everyone else plays ``others``.
Against ``memory`` bots the default model is right, which is where it is measured (``make
bench``: ``benchmarks/bench_search.py``, paired on common decks). Against other players the
model is a guess, and a wrong one costs its edge: against three ``random`` bots, on 200 common
decks, the default did no better than ``memory`` would have (win share -0.04, 95% interval
-0.13 to +0.04), and ``others="random"`` beat it (+0.11, interval +0.05 to +0.18).

Only rank asks: under ``specific_card`` rules it raises ``ValueError`` (the posterior is
about ranks). If no world fitting the view can be drawn, it plays ``memory``'s ask.
"""
from __future__ import annotations

import time
from numbers import Real

import numpy as np
from numba import njit

from ..fast import (
    CARDS_PER_RANK,
    FAST_STRATEGIES,
    MAX_ASKS,
    STATE_SIZE,
    TOO_LONG,
    WORK_SIZE,
    play_on,
    rule_codes,
    seed_state,
    shares,
    strategy_codes,
)
from ..probability import NoStart, draw_hidden_hands, whole
from ..strategies import memory


# --------------------------------------------------------------------------- rollouts, compiled
@njit(cache=True, error_model="numpy")
def _rollouts(asks, worlds, oceans, seeds, me, sizes0, books0, known0, last0, dead0, clock0, codes, deal,
              empty_rule, end_rule, draw_again, book_size, total_books, teams, bluff, max_asks, won):
    """``won[a, k]``: ``me``'s win share (ties shared; partners pool books) when it makes ask
    ``asks[a]`` in world ``k`` (hands ``worlds[k]``, ocean ``oceans[k]``, seat generators from
    ``seeds[k]``) and everyone plays on as ``codes[k]`` says (a strategy code per seat). Returns how
    many rollouts reached ``max_asks`` (scored as an equal share)."""
    n, n_ranks = worlds.shape[1], worlds.shape[2]
    hands = np.empty((n, n_ranks), np.int16)
    sizes = np.empty(n, np.int64)
    books = np.empty(n, np.int64)
    known = np.empty(n, np.int64)  # bit r of known[p]: as in fast.engine._play
    last = np.empty((n, n_ranks), np.int64)
    dead = np.empty(n, np.int64)
    rngs = np.empty((n, STATE_SIZE), np.uint64)
    start = np.empty((worlds.shape[0], n, STATE_SIZE), np.uint64)
    work = np.empty(WORK_SIZE, np.uint64)
    buf = np.empty(max(n, n_ranks), np.int64)
    no_trace = np.empty((0, 3), np.int16)  # the rollouts keep no record of their asks
    for k in range(worlds.shape[0]):  # each world's generators seeded once, copied for every ask
        for p in range(n):
            seed_state(rngs, p, seeds[k, p], work)
        start[k] = rngs
    n_books0 = books0.sum()
    stuck = 0
    for a in range(asks.shape[0]):
        for k in range(worlds.shape[0]):
            hands[:, :] = worlds[k]
            sizes[:] = sizes0
            books[:] = books0
            known[:] = known0
            last[:, :] = last0
            dead[:] = dead0
            rngs[:, :] = start[k]
            # the engine's compiled loop, from this position: the ocean is the deck, me's first ask forced
            played = play_on(oceans[k], 0, me, asks[a, 0], asks[a, 1], codes[k], deal, empty_rule, end_rule,
                             draw_again, book_size, total_books, teams, bluff, max_asks, hands, sizes, books, known,
                             last, dead, rngs, buf, no_trace, clock0, n_books0)[0]
            if played == TOO_LONG:
                stuck += 1
                won[a, k] = 1.0 / n
                continue
            won[a, k] = shares(books, teams)[me]
    return stuck


# --------------------------------------------------------------------------- the strategy
class SearchBot:
    """Determinised Monte Carlo search: the legal ask with the best mean win share over
    ``samples`` worlds drawn from the view's posterior, each played out by ``memory`` bots.

    Args:
        samples: worlds drawn per decision (whole number, at least 1); every legal ask is
            played out in each. More is stronger and slower, about linearly.
        seed: the search's seed (whole number, at least 0); with the view it fixes every
            random number of a decision.
        margin: standard errors of the paired difference by which an ask must beat
            ``memory``'s own ask to be chosen instead (a number, at least 0; 0 takes the
            best-looking ask whatever the noise).
        burn: Gibbs sweeps before a chain's world is taken (whole number, at least 1).
        others: how the rollouts play the other seats: ``"memory"``, ``"random"`` or
            ``"most_held"`` (the built-ins the compiled engine plays).

    ``last_ms`` is the time its latest decision took, in milliseconds (for the benchmark).
    A :class:`~gofish_teach.strategies.Strategy`.
    """

    name = "SearchBot"  # what results and tables call it (lesson 08's saved outputs say so)

    def __init__(self, samples: int = 192, seed: int = 0, *, margin: float = 1.0, burn: int = 8,
                 others: str = "memory"):
        self.samples = whole(samples, "samples")
        self.seed = whole(seed, "seed", least=0)
        self.burn = whole(burn, "burn")
        if not isinstance(margin, Real) or isinstance(margin, bool) or not margin >= 0 or margin == float("inf"):
            raise ValueError(f"margin must be a finite number, at least 0, not {margin!r}")
        self.margin = float(margin)
        if others not in FAST_STRATEGIES:
            raise ValueError(f"others must be one of {', '.join(map(repr, FAST_STRATEGIES))}, not {others!r}")
        self.others = others
        self.last_ms = 0.0
        # how the Table names its seat
        self.label = "search bot" if others == "memory" else f"search bot (the others played as {others})"

    def __repr__(self) -> str:
        return (f"SearchBot(samples={self.samples}, seed={self.seed}, margin={self.margin:g}, burn={self.burn}, "
                f"others={self.others!r})")

    def choose(self, view, rng=None) -> tuple:
        """The ask for ``view`` (its player's turn): ``(target, rank)``. ``rng`` is not used."""
        start = time.perf_counter()
        try:
            return self._choose(view)
        finally:
            self.last_ms = (time.perf_counter() - start) * 1000

    __call__ = choose

    def estimates(self, view) -> dict:
        """``{legal ask: its mean win share}`` over the worlds this bot draws at ``view`` (the
        numbers it decides on; the same view and seed give the same numbers).

        >>> from gofish_teach import Game, Rules
        >>> view = Game(Rules.preset("pond"), 4, seed=7).view(0)
        >>> shares = SearchBot(samples=8).estimates(view)
        >>> sorted(shares) == sorted(view.legal_asks()), all(0 <= s <= 1 for s in shares.values())
        (True, True)
        """
        legal = self._legal(view)
        shares = self._shares(view, legal)
        if shares is None:
            raise ValueError("view: no deal fits what this player has seen (the posterior sampler found none)")
        return dict(zip(legal, shares.mean(axis=1).tolist(), strict=True))

    @staticmethod
    def _legal(view) -> list:
        if view.rules.specific_card:
            raise ValueError("rules: SearchBot asks for ranks; specific_card asks are about single cards")
        legal = view.legal_asks()
        if not legal:
            raise ValueError(f"view: it is not player {view.player}'s turn to ask (no legal ask)")
        return legal

    def _shares(self, view, legal):
        """Each legal ask's win share in each drawn world (asks x worlds), or None if none could be drawn."""
        entropy = self._entropy(view)
        try:
            worlds, oceans = self._worlds(view, entropy)
        except NoStart:
            return None
        index = {r: i for i, r in enumerate(view.ranks)}
        asks = np.array([(t, index[r]) for t, r in legal], np.int64)
        return self._play(view, asks, worlds, oceans, entropy)

    def _choose(self, view) -> tuple:
        legal = self._legal(view)
        fallback = memory(view, _NoRandom())  # memory's ask, the one to beat (it draws no random number here)
        if len(legal) == 1:
            return legal[0]
        shares = self._shares(view, legal)
        if shares is None:
            return fallback if fallback in legal else legal[0]
        means = shares.mean(axis=1)
        best = int(np.argmax(means))  # the first of equals: legal_asks' order
        if fallback not in legal or self.margin == 0:
            return legal[best]
        base = legal.index(fallback)
        diff = shares[best] - shares[base]
        spread = diff.std(ddof=1) if len(diff) > 1 else 0.0
        if best != base and diff.mean() > self.margin * spread / np.sqrt(len(diff)):
            return legal[best]
        return fallback

    def _entropy(self, view) -> list[int]:
        """What seeds a decision: the bot's seed and a digest of the view (never a counter)."""
        counts = view.counts
        return [self.seed, view.player, view.record.n_events, view.ocean_size, *view.hand_sizes,
                *(counts.get(r, 0) for r in view.ranks), *(len(b) for b in view.books)]

    def _worlds(self, view, entropy):
        """``samples`` worlds: every seat's hand by rank (``(samples, seats, ranks)``, the viewer's
        own hand in its row) and the ocean as card codes, top first (``(samples, ocean)``)."""
        R, n = len(view.ranks), view.n_players
        seed = int(np.random.SeedSequence(entropy).generate_state(1, np.uint32)[0])
        drawn = draw_hidden_hands(view, self.samples, seed, self.burn)
        hidden = drawn.hands  # (K, k, R)
        K = hidden.shape[0]
        worlds = np.zeros((K, n, R), np.int16)
        worlds[:, list(drawn.seats), :] = hidden
        mine = view.counts
        worlds[:, view.player, :] = [mine.get(r, 0) for r in view.ranks]
        left = np.asarray(drawn.unseen, np.int64)[None, :] - hidden.sum(axis=1)  # (K, R): the ocean by rank
        rng = np.random.default_rng(np.random.SeedSequence(entropy + [1]))
        size = view.ocean_size
        oceans = np.zeros((K, size), np.int16)
        for k in range(K):
            cards = np.repeat(np.arange(R, dtype=np.int16) * CARDS_PER_RANK, left[k])
            if len(cards) != size:  # the sampler and the view disagree: a bug, not bad luck
                raise RuntimeError(f"sampled ocean of {len(cards)} cards, but the view's ocean holds {size}")
            oceans[k] = rng.permutation(cards)
        return worlds, oceans

    def _play(self, view, asks, worlds, oceans, entropy):
        rules, n, record = view.rules, view.n_players, view.record
        index = {r: i for i, r in enumerate(view.ranks)}
        R = len(view.ranks)
        known = np.zeros(n, np.int64)
        last = np.zeros((n, R), np.int64)
        dead = np.zeros(n, np.int64)
        for q in range(n):
            for r, t in record.shown[q].items():
                known[q] |= 1 << index[r]
                last[q, index[r]] = t + 1
            for r in record.dead[q]:
                dead[q] |= 1 << index[r]
        seeds = np.random.SeedSequence(entropy + [2]).generate_state(len(worlds) * n, np.uint64).reshape(-1, n)
        won = np.zeros((len(asks), len(worlds)))
        codes = self._codes(view, len(worlds), entropy)
        _rollouts(asks, worlds, oceans, seeds, view.player, np.array(view.hand_sizes, np.int64),
                  np.array([len(b) for b in view.books], np.int64), known, last, dead, record.n_events + 1,
                  codes, *rule_codes(rules, n), MAX_ASKS, won)
        return won

    def _codes(self, view, n_worlds: int, entropy) -> np.ndarray:
        """How each world's rollouts play each seat: a strategy code (an index of ``FAST_STRATEGIES``)
        per world and seat, ``memory`` in the bot's own seat and ``others`` elsewhere. A subclass with
        a model of the others (:class:`~gofish_teach.bestplay.modelbot.OpponentModelBot`) draws them."""
        lineup = strategy_codes(["memory" if p == view.player else self.others for p in range(view.n_players)])
        return np.tile(lineup, (n_worlds, 1))


class _NoRandom:
    """Stands in for a generator when asking ``memory`` for its ask: the search must not draw
    from the seat's generator, and ``memory`` draws only in its ``most_held`` fallback, where a
    fixed 0.5 picks the middle live opponent."""

    def random(self):
        return 0.5


def warm() -> None:
    """Compile the rollouts now, by one small decision, so that no lesson's first search waits for numba
    (lesson 08's waited 18.8 s; once cached, loading takes about a second). ``make`` runs this right
    after installing, beside :func:`gofish_teach.probability.warm`, whose sampler the search also uses."""
    from ..game import Game

    SearchBot(samples=2, seed=0).choose(Game("pond", 4, seed=0).view(0))
