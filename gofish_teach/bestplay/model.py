"""A compact model of a two-player game on a small deck: counts of ranks, for exact solving.

Suits play no part in rank asks, so a position is the rank counts of each hand, the cards of
each rank laid in books, the books each seat made, whose turn it is, and the two public facts
the built-in strategies read from the record: which ranks each seat has *shown* (asked for,
received, drawn lucky) and which asks are *dead* (see :mod:`gofish_teach.record`). The ocean
is what is left; its order does not matter, since every draw is uniform among its cards.

The transitions follow :meth:`gofish_teach.game.Game.ask` and its automatic steps step by
step (the empty-hand rules, the end rules, ``book_draw_again``, ``book_size``); the tests
replay engine games through this model and compare every position and every built-in's
choice (``tests/test_bestplay_model.py``). Each transition also says what a seat observes,
as a tuple of public events with that seat's own draws filled in (:func:`observe`
turns engine events into the same tuples).

>>> from gofish_teach import Rules
>>> model = Model(Rules.preset("pond").replace(n_ranks=3, hand_size=2))
>>> deal = model.start((2, 0, 0), (0, 1, 1))
>>> deal
World(hands=((2, 0, 0), (0, 1, 1)), booked=(0, 0, 0), books=(0, 0), turn=0, shown=(0, 0), dead=(0, 0), over=False)
>>> for prob, world, obs in model.step(deal, 0):   # seat 0 asks for Aces: "Go Fish!", it draws
...     print(prob, world.hands, obs[0][-1])
1/4 ((3, 0, 0), (0, 1, 1)) ('D', 0, 1, (1, 0, 0))
3/8 ((2, 1, 0), (0, 1, 1)) ('D', 0, 1, (0, 1, 0))
3/8 ((2, 0, 1), (0, 1, 1)) ('D', 0, 1, (0, 0, 1))
"""
from __future__ import annotations

from fractions import Fraction
from math import lcm
from operator import mul, truediv
from typing import NamedTuple

from ..rules import EmptyHand, End

SUITS_PER_RANK = 4


class World(NamedTuple):
    """One full position between decisions (every field hashable; ``shown``/``dead`` are bitmasks by rank)."""

    hands: tuple
    booked: tuple
    books: tuple
    turn: int
    shown: tuple
    dead: tuple
    over: bool


_new_world = tuple.__new__


class _W:
    """A mutable copy of a :class:`World` while a transition runs."""

    __slots__ = ("hands", "booked", "books", "turn", "shown", "dead", "over")

    def __init__(self, w: World):
        self.hands = [list(h) for h in w.hands]
        self.booked, self.books = list(w.booked), list(w.books)
        self.turn, self.shown, self.dead, self.over = w.turn, list(w.shown), list(w.dead), w.over

    def copy(self) -> "_W":
        other = _W.__new__(_W)
        other.hands = [list(h) for h in self.hands]
        other.booked, other.books = list(self.booked), list(self.books)
        other.turn, other.shown, other.dead, other.over = self.turn, list(self.shown), list(self.dead), self.over
        return other

    def freeze(self) -> World:
        h0, h1 = self.hands  # tuple.__new__: World(...) costs a Python-level call per position
        return _new_world(World, ((tuple(h0), tuple(h1)), tuple(self.booked), tuple(self.books), self.turn,
                                  tuple(self.shown), tuple(self.dead), self.over))


def ocean_of(world: World) -> tuple:
    """Cards of each rank left in the ocean."""
    h0, h1 = world.hands
    return tuple(SUITS_PER_RANK - a - b - k for a, b, k in zip(h0, h1, world.booked, strict=True))


class Model:
    """The rules of ``rules`` for 2 players, on counts. ``exact=True`` gives probabilities as Fractions,
    ``exact=False`` as floats, and ``exact="ratio"`` as ``(numerator, denominator)`` pairs of whole
    numbers (what the solver's integer beliefs are made of: no Fraction arithmetic on the way).

    Raises ``ValueError`` for rules it does not model (bluffing, specific-card asks, teams).
    """

    def __init__(self, rules, *, exact=True):
        for option in ("bluff", "specific_card", "teams"):
            if getattr(rules, option):
                raise ValueError(f"bestplay: rules with {option}=True are not modelled; use the preset's own rules")
        rules.check_players(2)
        self.rules, self.exact = rules, exact
        self.n_ranks, self.book_size = rules.n_ranks, rules.book_size
        self.deal_size = rules.deal_size(2)
        self.total_books = rules.total_books
        self.deck_size = SUITS_PER_RANK * rules.n_ranks
        self._draw_cache: dict = {}
        self._again_on_book = rules.book_draw_again
        # the end and empty-hand rules, read once (every transition asks them)
        self._ends_when_ocean_empty = rules.end == End.OCEAN_EMPTY
        self._ends_when_a_hand_and_ocean_empty = rules.end == End.EMPTY_HAND_AND_OCEAN
        self._new_hand = rules.empty_hand == EmptyHand.NEW_HAND
        self._pass_after_draw = rules.empty_hand == EmptyHand.DRAW_ONE_PASS
        # one card of each rank, as a draw's counts (built once: every fishing draw uses one)
        self._units = [tuple(int(r == card) for r in range(self.n_ranks)) for card in range(self.n_ranks)]
        if exact == "ratio":
            common = lcm(*range(1, self.n_ranks + 1))
            # a uniform choice among n ranks as common/n out of common: every world's policy shares one denominator
            self._p, self._mul, self._one = _pair, _mul_pairs, (1, 1)
            self._uniform = lambda n: (common // n, common)
        elif exact:
            self._p, self._mul, self._one, self._uniform = Fraction, mul, 1, lambda n: Fraction(1, n)
        else:
            self._p, self._mul, self._one, self._uniform = truediv, mul, 1, lambda n: 1 / n

    # ------------------------------------------------------------------ the deal
    def start(self, hand0, hand1) -> World:
        """The position after dealing ``hand0`` and ``hand1`` (rank counts), books laid, settled.

        Only for deals that need no draws to settle (see :meth:`dealt` for the general case).
        """
        (prob, world, obs), = self.dealt(hand0, hand1)
        return world

    def dealt(self, hand0, hand1) -> list:
        """Every outcome of dealing ``hand0`` and ``hand1`` (rank counts): books laid, and, if a hand
        is then empty, what the empty-hand rule draws, as ``(probability, world, (obs0, obs1))``
        (the probability given this deal; one outcome with probability 1 when nothing is drawn)."""
        w = _W(World((tuple(hand0), tuple(hand1)), (0,) * self.n_ranks, (0, 0), 0, (0, 0), (0, 0), False))
        obs = [("D", 0, self.deal_size, tuple(hand0), False), ("D", 1, self.deal_size, tuple(hand1), False)]
        for p in (0, 1):
            for r in range(self.n_ranks):
                self._lay(w, p, r, obs)
        out: list = []
        self._settle(w, self._one, obs, None, out)
        return out

    def deals(self):
        """Every deal as ``(probability, world, public observations)``, after the automatic steps.

        >>> from gofish_teach import Rules
        >>> deals = list(Model(Rules.preset("pond").replace(n_ranks=3, hand_size=2)).deals())
        >>> len(deals), sum(p for p, w, o in deals)
        (36, Fraction(1, 1))
        """
        n, size, mul = self.n_ranks, self.deal_size, self._mul
        for h0, p0 in _draws([SUITS_PER_RANK] * n, size, self._p):
            rest = [SUITS_PER_RANK - a for a in h0]
            for h1, p1 in _draws(rest, size, self._p):
                for prob, world, obs in self.dealt(h0, h1):
                    yield mul(mul(p0, p1), prob), world, obs

    # ------------------------------------------------------------------ the built-ins, as seen by ``seat``
    def asks(self, world: World) -> list[int]:
        """The ranks the player to move may ask for (held ranks, in deck order)."""
        return [r for r, c in enumerate(world.hands[world.turn]) if c]

    def policy(self, name: str, world: World) -> list[tuple[int, object]]:
        """The built-in ``name``'s asks at ``world`` for the player to move, as ``(rank, probability)``.

        Follows :mod:`gofish_teach.strategies` for two players (the target is the one opponent).
        """
        p = world.turn
        q = 1 - p
        hand = world.hands[p]
        held = [r for r, c in enumerate(hand) if c]
        live_q = sum(world.hands[q]) > 0
        dead = world.dead[q]
        if live_q:
            ranks = [r for r in held if not dead >> r & 1] or held
        else:
            ranks = held
        if name == "random":
            share = self._uniform(len(ranks))
            return [(r, share) for r in ranks]
        if name == "memory" and live_q:
            wanted = [r for r in held if world.shown[q] >> r & 1 and not dead >> r & 1]
            if wanted:
                return [(max(wanted, key=hand.__getitem__), self._one)]
        if name in ("most_held", "memory"):
            return [(max(ranks, key=hand.__getitem__), self._one)]
        raise ValueError(f"bestplay: the exact solver models the built-ins random, memory and most_held, "
                         f"not {name!r}")

    # ------------------------------------------------------------------ what a player knows
    def information_key(self, view) -> tuple:
        """``(seat, observations)`` of ``view``: its events as this model's observation chunks
        (:func:`observe`), the key the algorithms file a player's information state under
        (:class:`~gofish_teach.bestplay.contract.GameModel`).

        >>> from gofish_teach import Game, Rules
        >>> rules = Rules.preset("pond").replace(n_ranks=3, hand_size=2)
        >>> game = Game(rules, 2, deck=["A", "A", "2", "A", "3", "3", "2", "A", "2", "3", "2", "3"])
        >>> model = Model(rules)
        >>> seat, (dealt,) = model.information_key(game.view(1))
        >>> seat, dealt, any(obs[1] == dealt for p, world, obs in model.deals())
        (1, (('D', 0, 2, None), ('D', 1, 2, (2, 0, 0))), True)
        """
        return view.player, tuple(observe(view.events, self.rules))

    # ------------------------------------------------------------------ one ask and what follows
    def step(self, world: World, rank: int, seat: int | None = None) -> list:
        """Every outcome of the player to move asking the opponent for ``rank``, up to the next decision.

        A list of ``(probability, world, (obs0, obs1))``: what each seat observes, as event tuples
        (with ``seat`` given, only what that seat observes).
        """
        out: list = []
        self._step(world, rank, seat, out)
        return out

    # The transitions append to one list (no generators) and build a seat's observation as they go:
    # the solver asks for a million of them on 4 ranks, so each allocation counts.
    def _step(self, world: World, rank: int, seat, out: list) -> None:
        w = _W(world)
        p = w.turn
        q = 1 - p
        obs = [("A", p, rank)]
        w.shown[p] |= 1 << rank
        k = w.hands[q][rank]
        if k:
            w.hands[q][rank] = 0
            w.hands[p][rank] += k
            obs.append(("G", k))
            w.shown[q] &= ~(1 << rank)
            w.shown[p] |= 1 << rank
            w.dead[p] &= ~(1 << rank)
            if not sum(w.hands[q]):
                w.shown[q] = 0
            self._lay(w, p, rank, obs)
            self._after_ask(w, self._one, obs, True, seat, out)
            return
        obs.append(("F",))
        w.shown[q] &= ~(1 << rank)
        w.dead[q] |= 1 << rank
        ocean = self._ocean(w)
        left = sum(ocean)
        if not left:
            self._after_ask(w, self._one, obs, False, seat, out)
            return
        for card, n in enumerate(ocean):
            if not n:
                continue
            v = w.copy()
            v.hands[p][card] += 1
            v.dead[p] = 0
            lucky = card == rank
            if lucky:
                v.shown[p] |= 1 << rank
            o = obs + [_draw(p, 1, self._units[card], lucky, seat)]
            made = self._lay(v, p, card, o)
            self._after_ask(v, self._p(n, left), o, lucky or (made and self._again_on_book), seat, out)

    def _after_ask(self, w: _W, prob, obs, again: bool, seat, out: list) -> None:
        if not self._over(w) and not again:
            w.turn = 1 - w.turn
        self._settle(w, prob, obs, seat, out)

    # ------------------------------------------------------------------ the automatic steps
    def _ocean(self, w: _W) -> list[int]:
        return [SUITS_PER_RANK - a - b - k for a, b, k in zip(w.hands[0], w.hands[1], w.booked, strict=True)]

    def _lay(self, w: _W, p: int, r: int, obs: list) -> bool:
        made = False
        while w.hands[p][r] >= self.book_size:
            w.hands[p][r] -= self.book_size
            w.booked[r] += self.book_size
            w.books[p] += 1
            obs.append(("B", p, r))
            for s in (0, 1):
                w.shown[s] &= ~(1 << r)
            if not sum(w.hands[p]):
                w.shown[p] = 0
            made = True
        return made

    def _over(self, w: _W) -> bool:
        if w.over:
            return True
        if sum(w.books) == self.total_books:
            w.over = True
        elif sum(w.hands[0]) + sum(w.hands[1]) + sum(w.booked) == self.deck_size:
            if self._ends_when_ocean_empty or (self._ends_when_a_hand_and_ocean_empty
                                               and not (sum(w.hands[0]) and sum(w.hands[1]))):
                w.over = True
        return w.over

    def _settle(self, w: _W, prob, obs, seat, out: list) -> None:
        """Append ``(prob, world, obs)`` once the player to move holds cards or the game is over."""
        while not self._over(w):
            p = w.turn
            if sum(w.hands[p]):
                break
            ocean = self._ocean(w)
            left = sum(ocean)
            if not left:
                obs = obs + [("S", p)]
                w.turn = 1 - p
                continue
            count = min(self.deal_size, left) if self._new_hand else 1
            key = (tuple(ocean), count)
            draws = self._draw_cache.get(key)
            if draws is None:
                draws = self._draw_cache[key] = _draws(ocean, count, self._p)
            for cards, pr in draws:
                v = w.copy()
                o = obs + [_draw(p, count, cards, False, seat)]  # the drawer's cards: hidden from the other seat
                v.dead[p] = 0
                for r, c in enumerate(cards):
                    v.hands[p][r] += c
                if self._new_hand:
                    for r, c in enumerate(cards):
                        if c:
                            self._lay(v, p, r, o)
                    if not self._over(v):
                        v.turn = 1 - p
                elif self._pass_after_draw or self._over(v):
                    if not self._over(v):
                        v.turn = 1 - p
                self._settle(v, self._mul(prob, pr), o, seat, out)
            return
        out.append((prob, w.freeze(), _split(obs) if seat is None else tuple(obs)))


def _draw(p: int, count: int, cards: tuple, lucky: bool, seat):
    """A draw event: in full (``seat`` None, split later) or as ``seat`` sees it (the cards shown to the
    drawer, or to all when lucky)."""
    if seat is None:
        return ("D", p, count, cards, lucky)
    return ("D", p, count, cards if lucky or p == seat else None)


def _pair(k: int, n: int) -> tuple:
    return (k, n)


def _mul_pairs(a: tuple, b: tuple) -> tuple:
    return (a[0] * b[0], a[1] * b[1])


def _split(obs: list) -> tuple:
    """The events as each seat sees them: a draw's cards are shown to the drawer, or to all when lucky."""
    return tuple(tuple(e if e[0] != "D" else e[:3] + (e[3] if e[4] or e[1] == seat else None,) for e in obs)
                 for seat in (0, 1))


def _draws(pool, count: int, frac):
    """Every multiset of ``count`` cards drawn from ``pool`` (counts by rank), with its probability."""
    total = sum(pool)
    denominator = _comb(total, count)
    out = []

    def rec(r, left, cards, ways):
        if r == len(pool):
            if not left:
                out.append((tuple(cards), frac(ways, denominator)))
            return
        for c in range(min(pool[r], left) + 1):
            cards.append(c)
            rec(r + 1, left - c, cards, ways * _comb(pool[r], c))
            cards.pop()
    rec(0, count, [], 1)
    return out


def _comb(n: int, k: int) -> int:
    from math import comb
    return comb(n, k)


def observe(events, rules) -> list[tuple]:
    """Engine events (a view's, or the public log) as the model's observation tuples, in chunks:
    the deal and what settles it, then one chunk from each ask up to the next.

    >>> from gofish_teach import Game, Rules
    >>> game = Game(Rules.preset("pond").replace(n_ranks=3, hand_size=2), 2,
    ...             deck=["A", "A", "2", "A", "3", "3", "2", "A", "2", "3", "2", "3"])
    >>> _ = game.ask(1, "A")
    >>> observe(game.view(1).events, game.rules)
    [(('D', 0, 2, None), ('D', 1, 2, (2, 0, 0))), (('A', 0, 0), ('G', 2))]
    """
    from ..events import Ask, Book, Deal, Draw, Give, GoFish, Skip

    index = {r: i for i, r in enumerate(rules.ranks)}
    n = len(index)

    def counts(cards):
        if cards is None:
            return None
        out = [0] * n
        for card in cards:
            out[index[card.rank]] += 1
        return tuple(out)

    chunks = [[]]
    for e in events:
        kind = type(e)
        if kind is Ask:
            chunks.append([("A", e.player, index[e.rank])])
        elif kind is Give:
            chunks[-1].append(("G", e.count))
        elif kind is GoFish:
            chunks[-1].append(("F",))
        elif kind is Draw or kind is Deal:
            chunks[-1].append(("D", e.player, e.count, counts(e.cards)))
        elif kind is Book:
            chunks[-1].append(("B", e.player, index[e.rank]))
        elif kind is Skip:
            chunks[-1].append(("S", e.player))
    return [tuple(c) for c in chunks]


def world_of(game) -> World:
    """The model's position for an engine game between decisions (for tests and the strategies)."""
    from ..record import Record

    record = Record.of(game)
    index = {r: i for i, r in enumerate(game.ranks)}
    hands = tuple(tuple(game.count(p, r) for r in game.ranks) for p in (0, 1))
    books = tuple(len(b) for b in game.books)
    booked = [0] * len(index)
    for b in game.books:
        for r in b:
            booked[index[r]] += game.rules.book_size
    shown = tuple(sum(1 << index[r] for r in record.shown[p]) for p in (0, 1))
    dead = tuple(sum(1 << index[r] for r in record.dead[p]) for p in (0, 1))
    return World(hands, tuple(booked), books, game.current_player, shown, dead, bool(game.is_over))
