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

Beliefs that recur are computed once, memoised on the belief itself: whole-number weights with
no common factor (the chances of outcomes the seat cannot tell apart share one denominator, the
ocean's size being public), so equal beliefs have equal keys exactly, with no rounding; only the
values are Fractions (``exact``) or floats. Where the time goes (cProfile, 4 ranks, 3 cards each,
against memory, 207,851 beliefs): about a third in the model's moves, computed once per
*physical* position (hands, books, turn; 70,545 of them against 208,352 positions with the
record) since the moves do not read the record, and the rest in grouping outcomes by what the
seat observes and looking beliefs up.

>>> from gofish_teach import Rules
>>> rules = Rules.preset("pond").replace(n_ranks=2, hand_size=2)
>>> result = best_response(rules, "memory", seat=0)
>>> result.value, result.builtin, result.states   # best response, memory's own share (moving first), beliefs
(Fraction(41, 70), Fraction(17, 35), 112)
"""
from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import gcd, lcm
from operator import truediv

from .contract import GameModel
from .model import Model, World

#: The largest games the exact solver takes, for 2 players: at most MAX_RANKS ranks, and at most
#: MAX_OCEAN cards left in the ocean after the deal, or MAX_OCEAN_5 on 5 ranks. The work grows
#: steeply with the ocean and the ranks (against memory on this 2-core machine, shared): 4 ranks
#: and 3 cards each leave 10, 208 thousand beliefs, about 8 s a seat; 5 ranks and 7 cards leave 6,
#: 413 thousand beliefs, about 36 s; 5 ranks and 6 cards (8 left) did not finish in 150 s of
#: processor time and took 2.7 GB.
MAX_RANKS = 5
MAX_OCEAN = 10
MAX_OCEAN_5 = 6
#: Against ``random`` the beliefs merge far less (each world weighs its asks by its own number of
#: choices): 4 ranks and 4 cards each give 704 thousand beliefs (memory: 109 thousand), about 19 s;
#: 4 ranks and 3 cards did not finish in 60 s; 5 ranks and 7 cards give 1.9 million and 99 s, 5 and
#: 8 give 102 thousand and 14 s. So against random, at most 8 on 4 ranks and 4 on 5.
MAX_OCEAN_RANDOM = {4: 8, 5: 4}


def max_ocean(n_ranks: int, against: str | None = None) -> int:
    """The most cards the exact solver takes left in the ocean after the deal, on ``n_ranks`` ranks."""
    if against == "random" and n_ranks in MAX_OCEAN_RANDOM:
        return MAX_OCEAN_RANDOM[n_ranks]
    return MAX_OCEAN_5 if n_ranks == 5 else MAX_OCEAN


def check_size(rules, n_players: int = 2, against: str | None = None) -> None:
    """Raise ``ValueError`` naming the size limit when the game is too big for the exact solver
    (against the built-in ``against``, if given: ``random`` has its own limits).

    >>> from gofish_teach import Rules
    >>> check_size(Rules.preset("pond").replace(n_ranks=4, hand_size=3))    # fine: 10 cards in the ocean
    >>> check_size(Rules.preset("pond").replace(n_ranks=5, hand_size=7))    # fine: 6 cards in the ocean
    >>> check_size(Rules.preset("pond").replace(n_ranks=5, hand_size=3))
    Traceback (most recent call last):
    ...
    ValueError: bestplay: the exact solver takes 2 players, at most 5 ranks and at most 10 cards left in the ocean after the deal (6 on 5 ranks); 5 ranks with 3 cards each leave 14 (deal more cards or use fewer ranks)
    >>> check_size(Rules.preset("pond").replace(n_ranks=4, hand_size=3), against="random")
    Traceback (most recent call last):
    ...
    ValueError: bestplay: against random the exact solver takes at most 8 cards left in the ocean after the deal on 4 ranks; 4 ranks with 3 cards each leave 10 (deal more cards or use fewer ranks)
    """
    if n_players != 2:
        raise ValueError(f"bestplay: the exact solver takes 2 players, not {n_players}")
    n, hand = rules.n_ranks, rules.deal_size(2)
    ocean = 4 * n - 2 * hand
    if n > MAX_RANKS or ocean > max_ocean(n):
        raise ValueError(f"bestplay: the exact solver takes 2 players, at most {MAX_RANKS} ranks and at most "
                         f"{MAX_OCEAN} cards left in the ocean after the deal ({MAX_OCEAN_5} on 5 ranks); {n} ranks "
                         f"with {hand} cards each leave {ocean} (deal more cards or use fewer ranks)")
    if ocean > max_ocean(n, against):
        raise ValueError(f"bestplay: against {against} the exact solver takes at most {max_ocean(n, against)} cards "
                         f"left in the ocean after the deal on {n} ranks; {n} ranks with {hand} cards each leave "
                         f"{ocean} (deal more cards or use fewer ranks)")


@dataclass(frozen=True, eq=False)
class Result:
    """What :func:`best_response` found: the value, the built-in's own share, states, time."""

    rules: object
    against: str
    seat: int
    value: object                 # the best response's expected win share
    builtin: object               # the built-in's own share in this seat against itself
    states: int                   # information states evaluated
    seconds: float                # wall-clock time of the backward induction
    solver: "Solver" = field(repr=False, default=None)
    cpu: float = 0.0              # processor time of the backward induction (what load does not inflate)


class Solver:
    """The best response of ``seat`` to the built-in ``against`` under ``rules`` (2 players).

    A *belief* is a frozenset of ``(world number, weight)`` pairs: whole-number weights with no
    common factor, so that equal beliefs have equal keys exactly, in both modes (no rounding); a
    belief certain of one world is that world's number (cheaper to hash, and half of them).
    ``exact=True`` computes the values in Fractions; otherwise in floats (faster).
    """

    def __init__(self, rules, against: str, seat: int, *, exact: bool = False, check: bool = True):
        if check:
            check_size(rules, against=against)
        # Probabilities as (numerator, denominator) pairs: a belief's weights stay whole numbers, and
        # the outcomes a seat cannot tell apart share one denominator (the ocean's size is public).
        self.model: GameModel = Model(rules, exact="ratio")
        self.model.policy(against, _probe(self.model))  # an unknown name fails here, before any work
        self.rules, self.against, self.seat, self.exact = rules, against, seat, exact
        self._ratio = Fraction if exact else truediv
        self.values: dict = {}
        self.choices: dict = {}
        self._steps: dict = {}
        self._opponent: dict = {}  # world number -> the opponent's asks and their outcomes
        # What the opponent's policy reads of the record: the seat's shown ranks (memory) and its
        # dead asks; nothing in the rules reads either, so the rest is cleared from every world.
        self._keep_shown = against == "memory"
        # Every world met, as a small number. The moves of the cards (hands, books, turn) do not read
        # the record, so a world is a *physical* position (numbered apart: many worlds share one)
        # with the seat's shown ranks and dead asks, and a step is computed once per physical position.
        self._ids: dict = {}      # (physical number, shown, dead) -> world number
        self.worlds: list = []
        self._keys: list = []     # world number -> (physical number, shown, dead)
        self._phys_ids: dict = {}
        self._phys: list = []
        self._phys_steps: dict = {}
        self._obs_ids: dict = {}  # every observation met, as a small number (cheaper to group by)
        self.observations: list = []
        self._roots = None

    def intern(self, world: World) -> int:
        """The number of ``world`` (cleared by :meth:`canon`) in this solver's beliefs."""
        world = self.canon(world)
        phys = (world.hands, world.booked, world.books, world.turn, world.over)
        pid = self._phys_ids.get(phys)
        if pid is None:
            pid = self._phys_ids[phys] = len(self._phys)
            self._phys.append(world)
        return self._world((pid, world.shown[self.seat], world.dead[self.seat]))

    def _world(self, key: tuple) -> int:
        """The number of the world ``(physical number, seat's shown ranks, seat's dead asks)``."""
        wid = self._ids.get(key)
        if wid is None:
            pid, shown, dead = key
            w = self._phys[pid]
            pair_shown = (shown, 0) if self.seat == 0 else (0, shown)
            pair_dead = (dead, 0) if self.seat == 0 else (0, dead)
            wid = self._ids[key] = len(self.worlds)
            self.worlds.append(World(w.hands, w.booked, w.books, w.turn, pair_shown, pair_dead, w.over))
            self._keys.append(key)
        return wid

    # ------------------------------------------------------------------ beliefs
    @staticmethod
    def _normalised(weights: dict):
        """``(total weight, belief)`` for whole-number ``weights`` ``{world number: weight}``."""
        if len(weights) == 1:
            (wid, total), = weights.items()
            return total, wid
        values = weights.values()
        total = sum(values)
        g = gcd(*values)
        if g == 1:
            return total, frozenset(weights.items())
        return total, frozenset((w, x // g) for w, x in weights.items())

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
        """``[(numerator, denominator, child number, observation number)]`` of ``rank`` asked at ``wid``."""
        pid, shown, dead = self._keys[wid]
        moves = self._phys_steps.get((pid, rank)) or self._phys_step(pid, rank)
        ids, world = self._ids, self._world
        out = []
        for qn, qd, child, oid, shown_and, shown_or, dead_and, dead_or in moves:
            key = (child, shown & shown_and | shown_or, dead & dead_and | dead_or)
            cid = ids.get(key)
            out.append((qn, qd, world(key) if cid is None else cid, oid))
        self._steps[(wid, rank)] = out
        return out

    def _phys_step(self, pid: int, rank: int) -> list:
        """The outcomes of ``rank`` asked at the physical position ``pid``, with what they do to the
        seat's shown ranks and dead asks as masks: every update of the record is ``x & a | b``
        (set, clear or keep a rank, or clear all), and so is any sequence of them. One run of the
        model from a record that is all clear and all set at once (:class:`_Both`) gives ``b`` and
        ``a | b``, and ``x & (a | b) | b == x & a | b``."""
        w, seat, model = self._phys[pid], self.seat, self.model
        both = _Both(0, (1 << model.n_ranks) - 1)
        record = (both, 0) if seat == 0 else (0, both)
        keep = self._keep_shown
        obs_ids, observations, phys_ids, phys = self._obs_ids, self.observations, self._phys_ids, self._phys
        out = []
        for (qn, qd), a, obs in model.step(World(w.hands, w.booked, w.books, w.turn, record, record, w.over),
                                           rank, seat):
            oid = obs_ids.get(obs)
            if oid is None:
                oid = obs_ids[obs] = len(observations)
                observations.append(obs)
            key = (a.hands, a.booked, a.books, a.turn, a.over)
            child = phys_ids.get(key)
            if child is None:
                child = phys_ids[key] = len(phys)
                phys.append(a)
            shown, dead = a.shown[seat], a.dead[seat]
            shown_and, shown_or = (shown.ones, shown.zero) if type(shown) is _Both else (shown, shown)
            dead_and, dead_or = (dead.ones, dead.zero) if type(dead) is _Both else (dead, dead)
            out.append((qn, qd, child, oid, shown_and if keep else 0, shown_or if keep else 0, dead_and, dead_or))
        self._phys_steps[(pid, rank)] = out
        return out

    def _moves(self, wid: int) -> list:
        """The opponent's turn at ``wid``: its policy's asks and their outcomes in one list, as in :meth:`_step`."""
        out = []
        for r, (pn, pd) in self.model.policy(self.against, self.worlds[wid]):
            out += [(pn * qn, pd * qd, child, obs) for qn, qd, child, obs in
                    self._steps.get((wid, r)) or self._step(wid, r)]
        self._opponent[wid] = out
        return out

    def _children(self, belief, rank: int | None = None):
        """``({observation number: {world number: weight}}, {observation number: denominator})``.

        The outcomes a seat cannot tell apart share one denominator (the ocean's size and the
        opponent's choices are public), so the weights of a group stay whole numbers; the brute
        force of the tests would see any slip, as a wrong value.
        """
        out: dict = {}
        dens: dict = {}
        if rank is None:  # the opponent's turn: its policy's asks and their outcomes
            moves, more = self._opponent, self._moves
            outcomes = [(p, moves.get(world) or more(world)) for world, p in belief]
        else:
            steps, step = self._steps, self._step
            outcomes = [(p, steps.get((world, rank)) or step(world, rank)) for world, p in belief]
        for p, transitions in outcomes:
            for qn, qd, child, obs in transitions:
                group = out.get(obs)
                if group is None:
                    out[obs] = {child: p * qn}
                    dens[obs] = qd
                else:
                    group[child] = group.get(child, 0) + p * qn
        return out, dens

    def children(self, belief, rank: int | None = None) -> dict:
        """What the seat may observe next from ``belief``: ``{observation: {world number: weight}}``.

        ``rank`` is the seat's own ask on its turn; on the opponent's turn, its policy asks.
        """
        groups, _ = self._children(_items(_as_belief(belief)), rank)
        return {self.observations[o]: weights for o, weights in groups.items()}

    def outcomes(self, belief, rank: int | None = None) -> dict:
        """What the seat may observe next, as :meth:`roots` gives the deal: ``{observation: (probability, belief)}``.

        The probabilities (Fractions when ``exact``) sum to 1; ``rank`` as in :meth:`children`.
        On the seat's turn a belief's value is its best ask's probability-weighted average:

        >>> from gofish_teach import Rules
        >>> solver = Solver(Rules.preset("pond").replace(n_ranks=2, hand_size=2), "memory", seat=0, exact=True)
        >>> p, start = solver.roots()[max(solver.roots())]
        >>> after = solver.outcomes(start, solver.best_ask(start)).values()
        >>> sum(q for q, _ in after), sum(q * solver.value(b) for q, b in after) == solver.value(start)
        (Fraction(1, 1), True)
        """
        items = _items(_as_belief(belief))
        total = sum(p for _, p in items)
        groups, dens = self._children(items, rank)
        out = {}
        for o, weights in groups.items():
            mass, after = self._normalised(weights)
            p = Fraction(mass, dens[o] * total) if self.exact else mass / (dens[o] * total)
            out[self.observations[o]] = (p, after)
        return out

    def next_belief(self, belief, chunk: tuple, weighted: bool = True):
        """The seat's belief after the observation ``chunk`` (one ask and what followed it, as
        :func:`~gofish_teach.bestplay.model.observe` gives it) from ``belief`` (as this solver keys
        it: from :meth:`roots`, :meth:`outcomes` or this method). ``weighted``: the opponent's asks
        count by its policy, as in the solved game; otherwise each rank it holds is equally likely
        (for an opponent that is not the built-in: the possible worlds alone). Raises
        :class:`Impossible` when ``chunk`` cannot follow ``belief``.

        It is how a strategy follows a game: each outcome of an ask leads to its belief.

        >>> from gofish_teach import Rules
        >>> solver = Solver(Rules.preset("pond").replace(n_ranks=2, hand_size=2), "memory", seat=0)
        >>> p, start = solver.roots()[max(solver.roots())]
        >>> after = solver.outcomes(start, solver.best_ask(start))
        >>> all(solver.next_belief(start, chunk) == belief for chunk, (q, belief) in after.items())
        True
        """
        _, asker, rank = chunk[0]
        if asker == self.seat:
            weights = self.children(belief, rank).get(chunk)
        elif weighted:
            weights = self.children(belief).get(chunk)
        else:  # any held rank, equally likely: 1/len(held) as lcm/len(held) keeps the weights whole
            weights, common = {}, lcm(*range(1, self.model.n_ranks + 1))
            oid = self._obs_ids.get(chunk)
            for world, p in _items(belief):
                held = self.model.asks(self.worlds[world])
                if rank in held:
                    for qn, _qd, child, obs in self._step(world, rank):
                        if obs == oid:
                            weights[child] = weights.get(child, 0) + p * qn * (common // len(held))
        if not weights:
            if weighted:
                raise Impossible(f"bestplay: the opponent made an ask {self.against} would not make")
            raise Impossible("bestplay: these events cannot happen in the solved game")
        return self._normalised(weights)[1]

    def distribution(self, belief) -> dict:
        """``belief`` as ``{world number: probability}`` (Fractions when ``exact``), to read or print.

        >>> from gofish_teach import Rules
        >>> solver = Solver(Rules.preset("pond").replace(n_ranks=2, hand_size=2), "memory", seat=0, exact=True)
        >>> for p, belief in solver.roots().values():     # the opponent's (Aces, 2s), by what seat 0 holds
        ...     print(p, sorted((solver.worlds[w].hands[1], str(q)) for w, q in solver.distribution(belief).items()))
        3/14 [((0, 2), '1/15'), ((1, 1), '8/15'), ((2, 0), '2/5')]
        4/7 [((0, 2), '1/5'), ((1, 1), '3/5'), ((2, 0), '1/5')]
        3/14 [((0, 2), '2/5'), ((1, 1), '8/15'), ((2, 0), '1/15')]
        """
        items = _items(_as_belief(belief))
        total = sum(p for _, p in items)
        return {w: Fraction(p, total) if self.exact else p / total for w, p in items}

    def value(self, belief):
        """The value of ``belief`` to the seat (its expected win share from there)."""
        return self._value(_as_belief(belief))

    def _value(self, belief):
        known = self.values.get(belief)
        if known is not None:
            return known
        if type(belief) is int:
            items, total = ((belief, 1),), 1
        else:
            items, total = belief, sum(p for _, p in belief)
        world = self.worlds[next(iter(items))[0]]
        if world.over:
            seat, worlds = self.seat, self.worlds
            # win shares in halves: 2 for a win, 1 for a tie (2 players), 0 for a loss
            v = self._ratio(sum(p * _halves(worlds[w].books, seat) for w, p in items), 2 * total)
        elif world.turn == self.seat:
            v, best = None, None
            for r in self.model.asks(world):
                here = self._expect(items, total, r)
                if v is None or here > v:
                    v, best = here, r
            self.choices[belief] = best
        else:
            v = self._expect(items, total, None)
        self.values[belief] = v
        return v

    def _expect(self, items, total: int, rank):
        groups, dens = self._children(items, rank)
        ratio, value = self._ratio, self._value
        v = 0
        for obs, weights in groups.items():
            if len(weights) == 1:  # a single world, certain (about half the groups): its number
                (child, mass), = weights.items()
            else:
                values = weights.values()
                mass, g = sum(values), gcd(*values)
                child = frozenset(weights.items() if g == 1 else [(w, x // g) for w, x in weights.items()])
            v += ratio(mass, dens[obs]) * value(child)
        return v / total

    def best_ask(self, belief) -> int:
        """The rank index the best response asks for at ``belief`` (its turn)."""
        belief = _as_belief(belief)
        self._value(belief)
        return self.choices[belief]

    def _share(self, world: World):
        return self._ratio(_halves(world.books, self.seat), 2)

    # ------------------------------------------------------------------ the root
    def roots(self) -> dict:
        """The seat's beliefs after the deal: ``{observation: (probability, belief)}``."""
        if self._roots is not None:
            return self._roots
        groups: dict = {}
        dens: dict = {}
        for (pn, pd), world, obs in self.model.deals():
            world = self.intern(world)
            o = obs[self.seat]
            group = groups.setdefault(o, {})
            group[world] = group.get(world, 0) + pn
            if dens.setdefault(o, pd) != pd:
                raise AssertionError("bestplay: deals the seat cannot tell apart differ in denominator")
        self._roots = {}
        for obs, weights in groups.items():
            mass, belief = self._normalised(weights)
            self._roots[obs] = (Fraction(mass, dens[obs]) if self.exact else mass / dens[obs], belief)
        return self._roots

    def solve(self):
        """The best response's expected win share over the deal."""
        return sum(mass * self._value(belief) for mass, belief in self.roots().values())

    def builtin_share(self, own: str | None = None):
        """The share the built-in ``own`` (default: ``against``) gets in this seat against ``against``."""
        own = own or self.against
        model: GameModel = Model(self.rules, exact=self.exact)
        memo: dict = {}

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


class Impossible(ValueError):
    """Observations that cannot follow a belief in the solved game (:meth:`Solver.next_belief`)."""


class _Both:
    """A record's mask run from all clear (``zero``) and from all set (``ones``) at once: the model
    only ever ors and ands a mask with whole numbers, or sets it to 0 (after which both runs agree)."""

    __slots__ = ("zero", "ones")

    def __init__(self, zero: int, ones: int):
        self.zero, self.ones = zero, ones

    def __or__(self, mask: int) -> "_Both":
        return _Both(self.zero | mask, self.ones | mask)

    def __and__(self, mask: int) -> "_Both":
        return _Both(self.zero & mask, self.ones & mask)


def _halves(books: tuple, seat: int) -> int:
    mine, theirs = books[seat], books[1 - seat]
    return 2 if mine > theirs else (1 if mine == theirs else 0)


def _as_belief(belief):
    """A belief as the solver keys it (see :class:`Solver`), from that or from a frozenset of pairs or a
    dict ``{world number: whole-number weight}``."""
    if isinstance(belief, int):
        return belief
    return Solver._normalised(dict(belief))[1]


def _items(belief) -> tuple | frozenset:
    """A belief's ``(world number, weight)`` pairs."""
    return ((belief, 1),) if isinstance(belief, int) else belief


def _probe(model: Model) -> World:
    hand = (1,) + (0,) * (model.n_ranks - 1)
    return World((hand, hand), (0,) * model.n_ranks, (0, 0), 0, (0, 0), (0, 0), False)


def best_response(rules, against: str, seat: int = 0, *, exact: bool | None = None) -> Result:
    """Solve the best response of ``seat`` (0 moves first) to ``against``; see :class:`Result`.

    ``exact`` defaults to Fractions on decks of at most 3 ranks, floats beyond.
    """
    if exact is None:
        exact = rules.n_ranks <= 3
    start, cpu = time.perf_counter(), time.process_time()
    solver = Solver(rules, against, seat, exact=exact)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        value = solver.solve()
    finally:
        sys.setrecursionlimit(limit)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    builtin = solver.builtin_share()
    return Result(rules, against, seat, value, builtin, len(solver.values), seconds, solver, cpu)


def both_seats(rules, against: str, *, exact: bool | None = None, workers: int | None = None) -> list[Result]:
    """:func:`best_response` for the seat moving first and the seat moving second.

    The two are independent, so on 4 ranks and more (seconds each) they run side by side in two
    processes when there are two cores (``workers``: default the cores, at most 2); their results
    then come back without their solver (``solver=None``: the tables stay in the worker).
    """
    check_size(rules, against=against)
    Model(rules).policy(against, _probe(Model(rules)))  # bad input fails here, before any process starts
    workers = min(2, os.cpu_count() or 1) if workers is None else workers
    if workers < 2 or rules.n_ranks < 4:
        return [best_response(rules, against, seat, exact=exact) for seat in (0, 1)]
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(2) as pool:
        return pool.starmap(_seat_result, [(rules, against, seat, exact) for seat in (0, 1)])


def _seat_result(rules, against, seat, exact) -> Result:
    # the tables stay here: only the figures travel back
    return replace(best_response(rules, against, seat, exact=exact), solver=None)
