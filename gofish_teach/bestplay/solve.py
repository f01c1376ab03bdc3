"""Exact best response to a built-in on a small deck, by backward induction over information states.

A seat's information state is what it has observed (its own cards, every public event); what
it does not know is the opponent's hand, the rest being the ocean. So a state is a *belief*:
the positions (:class:`~gofish_teach.bestplay.model.World`) that fit what the seat saw, each
weighted by its probability, where the opponent's asks count with the probability its
policy gives them. That weighting is what makes this a Bayesian decision problem: an ask by
``memory`` says more than the possible worlds alone do. The value of a belief is

- at the end, the seat's win share (ties shared),
- on the seat's turn, the best over its asks of the expected value of what it will observe next,
- on the opponent's turn, the expected value over its asks (by its policy) and the draws.

Beliefs that recur are computed once (memoised on the normalised belief).

>>> from gofish_teach import Rules
>>> rules = Rules.preset("pond").replace(n_ranks=2, hand_size=2)
>>> result = best_response(rules, "memory", seat=0)
>>> result.value, result.builtin, result.states   # best response, memory's own share (moving first), beliefs
(Fraction(41, 70), Fraction(17, 35), 112)
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from fractions import Fraction

from .model import Model, World

#: The largest games the exact solver takes, for 2 players: at most MAX_RANKS ranks, and at most
#: MAX_OCEAN cards left in the ocean after the deal (the work grows steeply with the ocean: pond
#: with 4 ranks and 3 cards each leaves 10 and takes about half a minute of processor time on a
#: 2-core machine; 3 ranks and 2 cards leave 8 and take a second).
MAX_RANKS = 5
MAX_OCEAN = 10


def check_size(rules, n_players: int = 2) -> None:
    """Raise ``ValueError`` naming the size limit when the game is too big for the exact solver.

    >>> from gofish_teach import Rules
    >>> check_size(Rules.preset("pond").replace(n_ranks=4, hand_size=3))    # fine: 10 cards in the ocean
    >>> check_size(Rules.preset("pond").replace(n_ranks=5, hand_size=3))
    Traceback (most recent call last):
    ...
    ValueError: bestplay: the exact solver takes 2 players, at most 5 ranks and at most 10 cards left in the ocean after the deal; 5 ranks with 3 cards each leave 14 (deal more cards or use fewer ranks)
    """
    if n_players != 2:
        raise ValueError(f"bestplay: the exact solver takes 2 players, not {n_players}")
    n, hand = rules.n_ranks, rules.deal_size(2)
    ocean = 4 * n - 2 * hand
    if n > MAX_RANKS or ocean > MAX_OCEAN:
        raise ValueError(f"bestplay: the exact solver takes 2 players, at most {MAX_RANKS} ranks and at most "
                         f"{MAX_OCEAN} cards left in the ocean after the deal; {n} ranks with {hand} cards each "
                         f"leave {ocean} (deal more cards or use fewer ranks)")


@dataclass
class Result:
    """What :func:`best_response` found: the value, the built-in's own share, states, time."""

    rules: object
    against: str
    seat: int
    value: object                 # the best response's expected win share
    builtin: object               # the built-in's own share in this seat against itself
    states: int                   # information states evaluated
    seconds: float
    solver: "Solver" = field(repr=False, default=None)


class Solver:
    """The best response of ``seat`` to the built-in ``against`` under ``rules`` (2 players).

    ``exact=True`` computes in Fractions; otherwise floats (faster), memoised on beliefs rounded
    to 12 digits.
    """

    def __init__(self, rules, against: str, seat: int, *, exact: bool = False, check: bool = True):
        if check:
            check_size(rules)
        self.model = Model(rules, exact=exact)
        self.model.policy(against, _probe(self.model))  # an unknown name fails here, before any work
        self.rules, self.against, self.seat, self.exact = rules, against, seat, exact
        self.values: dict = {}
        self.choices: dict = {}
        self._steps: dict = {}
        self._policies: dict = {}
        # What the opponent's policy reads of the record: the seat's shown ranks (memory) and its
        # dead asks; nothing in the rules reads either, so the rest is cleared from every world.
        self._keep_shown = against == "memory"
        self._ids: dict = {}      # every world met, as a small number (beliefs are {number: probability})
        self.worlds: list = []
        self._roots = None

    def intern(self, world: World) -> int:
        """The number of ``world`` (cleared by :meth:`canon`) in this solver's beliefs."""
        world = self.canon(world)
        wid = self._ids.get(world)
        if wid is None:
            wid = self._ids[world] = len(self.worlds)
            self.worlds.append(world)
        return wid

    # ------------------------------------------------------------------ beliefs
    def _key(self, belief: dict):
        if self.exact:
            return frozenset(belief.items())
        return frozenset((w, round(p, 12)) for w, p in belief.items())

    @staticmethod
    def _normalised(weights: dict):
        total = sum(weights.values())
        return total, {w: p / total for w, p in weights.items()}

    def canon(self, world: World) -> World:
        """``world`` with the parts of the record no one's future choices read cleared."""
        seat = self.seat
        shown = world.shown[seat] if self._keep_shown else 0
        if seat == 0:
            shown, dead = (shown, 0), (world.dead[0], 0)
        else:
            shown, dead = (0, shown), (0, world.dead[1])
        if shown == world.shown and dead == world.dead:
            return world
        return World(world.hands, world.booked, world.books, world.turn, shown, dead, world.over)

    def _step(self, wid: int, rank: int) -> list:
        key = (wid, rank)
        out = self._steps.get(key)
        if out is None:
            seat, intern = self.seat, self.intern
            out = self._steps[key] = [(q, intern(child), obs)
                                      for q, child, obs in self.model.step(self.worlds[wid], rank, seat)]
        return out

    def children(self, belief: dict, rank: int | None = None) -> dict:
        """What the seat may observe next from ``belief``: ``{observation: weights of worlds}``.

        ``rank`` is the seat's own ask on its turn; on the opponent's turn, its policy asks.
        """
        out, step = {}, self._step
        for world, p in belief.items():
            if rank is not None:
                asks = ((rank, 1),)
            else:
                asks = self._policies.get(world)
                if asks is None:
                    asks = self._policies[world] = self.model.policy(self.against, self.worlds[world])
            for r, pr in asks:
                for q, child, obs in step(world, r):
                    group = out.get(obs)
                    if group is None:
                        group = out[obs] = {}
                    group[child] = group.get(child, 0) + p * pr * q
        return out

    def value(self, belief: dict):
        """The value of a normalised ``belief`` (``{world number: probability}``) to the seat."""
        key = self._key(belief)
        known = self.values.get(key)
        if known is not None:
            return known
        world = self.worlds[next(iter(belief))]
        if world.over:
            v = sum(p * self._share(self.worlds[w]) for w, p in belief.items())
        elif world.turn == self.seat:
            v, best = None, None
            for r in self.model.asks(world):
                total = self._expect(self.children(belief, r))
                if v is None or total > v:
                    v, best = total, r
            self.choices[key] = best
        else:
            v = self._expect(self.children(belief))
        self.values[key] = v
        return v

    def _expect(self, groups: dict):
        total = 0
        for weights in groups.values():
            mass, child = self._normalised(weights)
            total += mass * self.value(child)
        return total

    def best_ask(self, belief: dict) -> int:
        """The rank index the best response asks for at ``belief`` (its turn)."""
        self.value(belief)
        return self.choices[self._key(belief)]

    def _share(self, world: World):
        books = world.books
        best = max(books)
        if books[self.seat] != best:
            return 0
        winners = sum(1 for b in books if b == best)
        return Fraction(1, winners) if self.exact else 1 / winners

    # ------------------------------------------------------------------ the root
    def roots(self) -> dict:
        """The seat's beliefs after the deal: ``{observation: (probability, belief)}``."""
        if self._roots is not None:
            return self._roots
        groups: dict = {}
        for p, world, obs in self.model.deals():
            world = self.intern(world)
            group = groups.setdefault(obs[self.seat], {})
            group[world] = group.get(world, 0) + p
        self._roots = {obs: self._normalised(weights) for obs, weights in groups.items()}
        return self._roots

    def solve(self):
        """The best response's expected win share over the deal."""
        return sum(mass * self.value(belief) for mass, belief in self.roots().values())

    def builtin_share(self, own: str | None = None):
        """The share the built-in ``own`` (default: ``against``) gets in this seat against ``against``."""
        own = own or self.against
        model, memo = self.model, {}

        def value(world):
            if world in memo:
                return memo[world]
            if world.over:
                v = self._share(world)
            else:
                name = own if world.turn == self.seat else self.against
                v = sum(pr * q * value(child) for r, pr in model.policy(name, world)
                        for q, child, obs in model.step(world, r))
            memo[world] = v
            return v
        return sum(p * value(world) for p, world, obs in model.deals())


def _probe(model: Model) -> World:
    hand = (1,) + (0,) * (model.n_ranks - 1)
    return World((hand, hand), (0,) * model.n_ranks, (0, 0), 0, (0, 0), (0, 0), False)


def best_response(rules, against: str, seat: int = 0, *, exact: bool | None = None) -> Result:
    """Solve the best response of ``seat`` (0 moves first) to ``against``; see :class:`Result`.

    ``exact`` defaults to Fractions on decks of at most 3 ranks, floats beyond.
    """
    if exact is None:
        exact = rules.n_ranks <= 3
    start = time.perf_counter()
    solver = Solver(rules, against, seat, exact=exact)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        value = solver.solve()
    finally:
        sys.setrecursionlimit(limit)
    seconds = time.perf_counter() - start
    builtin = solver.builtin_share()
    return Result(rules, against, seat, value, builtin, len(solver.values), seconds, solver)
