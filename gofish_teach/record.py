"""The public record, read once: what every reader of a game's log needs, event by event.

Strategies, the probability code and the lessons all ask the same questions of the log: how
many cards each seat holds, which ask came last, which rank a fish draw cannot be, who has
shown which rank, which asks must fail. :class:`Record` answers them in one pass, and turns
each event into typed operations, each about one seat's hand (:data:`Operation`).

>>> from gofish_teach import Game, Rules
>>> game = Game(Rules.preset("pond").replace(n_ranks=3, hand_size=2), 2,
...             deck=["A", "A", "2", "A", "3", "3", "2", "A", "2", "3", "2", "3"])
>>> _ = game.ask(1, "A"); _ = game.ask(1, "2")
>>> record = Record(game.n_players, game.rules)
>>> events = game.view(0).events        # seat 0's view: its own cards are filled in
>>> for event, ops in record.follow(events[:6]):
...     print(f"{str(event):36} {ops}")
Player 0 is dealt 2 cards: A♣ 2♣.    (Dealt(seat=0, count=2, cards=(Card('A', '♣'), Card('2', '♣'))),)
Player 1 is dealt 2 cards.           (Dealt(seat=1, count=2, cards=None),)
Player 0 asks Player 1 for Aces.     (Settled(seat=0), Settled(seat=1), Asked(seat=0, rank='A'))
Player 1 gives Player 0 two Aces.    (Gave(seat=1, rank='A', count=2), Got(seat=0, rank='A', count=2))
Player 0 asks Player 1 for 2s.       (Settled(seat=0), Asked(seat=0, rank='2'))
Player 1 says "Go Fish!"             (Lacks(seat=1, rank='2'),)
>>> record.read(events[6])              # seat 0 fishes: its card cannot be a 2, or it would be shown
(Drew(seat=0, count=1, cards=(Card('3', '♣'),), lucky=False, fresh=False, not_rank='2'),)
>>> record.live(1, "2")                 # seat 1 said "Go Fish!" to 2s and has drawn nothing since
False
>>> for event in events[7:]: print(event, record.read(event))
It is Player 1's turn. (Settled(seat=0),)
Player 1 draws a card from the ocean because their hand is empty. (Drew(seat=1, count=1, cards=None, lucky=False, fresh=True, not_rank=None),)
>>> record.live(1, "2")                 # it has drawn a card: it may be a 2
True
>>> record
<Record of 9 events: hand sizes [5, 1], ocean 6, shown [{'A': 3, '2': 4}, {}], dead asks [none, none]>
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Iterable, Iterator, Mapping, NamedTuple

from .cards import Card
from .events import Ask, Book, Deal, Draw, GameOver, Give, GoFish, Source, Turn


# ---------------------------------------------------------------------- operations
class Dealt(NamedTuple):
    """``seat`` is dealt ``count`` cards; ``cards`` are filled in only where the reader saw them."""

    seat: int
    count: int  # type: ignore[assignment]  # a field named as the rules name it; shadows tuple.count
    cards: tuple[Card, ...] | None


class Asked(NamedTuple):
    """``seat`` asked for ``rank``, so holds one (unless the rules allow bluffing)."""

    seat: int
    rank: str


class Lacks(NamedTuple):
    """``seat`` said "Go Fish!" to an ask for ``rank``, so holds none (under ``specific_card``
    rules: none of the one card asked for)."""

    seat: int
    rank: str


class Gave(NamedTuple):
    """``seat`` held exactly ``count`` cards of ``rank`` and gave them all away."""

    seat: int
    rank: str
    count: int  # type: ignore[assignment]  # a field named as the rules name it; shadows tuple.count


class Got(NamedTuple):
    """``seat`` was given ``count`` cards of ``rank``, in view of everyone."""

    seat: int
    rank: str
    count: int  # type: ignore[assignment]  # a field named as the rules name it; shadows tuple.count


class Drew(NamedTuple):
    """``seat`` drew ``count`` cards from the ocean.

    ``cards`` are filled in where the reader saw them (a ``lucky`` draw is shown to all; a
    player sees its own). ``fresh``: the hand was empty before, so nothing known of it is left.
    ``not_rank``: the rank an unlucky fish draw cannot be (:func:`fished_for`), else ``None``.
    """

    seat: int
    count: int  # type: ignore[assignment]  # a field named as the rules name it; shadows tuple.count
    cards: tuple[Card, ...] | None
    lucky: bool
    fresh: bool
    not_rank: str | None


class Booked(NamedTuple):
    """``seat`` laid down a book of ``rank``."""

    seat: int
    rank: str


class Settled(NamedTuple):
    """The cards ``seat`` received have been laid in books where they could: it holds no book.

    Books are laid at once, so this comes before the first event after the arrival that is not
    a deal or a book (or from :meth:`Record.settle`, at the end of the log).
    """

    seat: int


Operation = Dealt | Asked | Lacks | Gave | Got | Drew | Booked | Settled


def fished_for(draw: Draw, last_ask: Ask | None) -> str | None:
    """The rank a draw after "Go Fish!" cannot be: the one just asked for (drawing it would
    have been shown as a lucky draw). ``None`` for any other draw.

    >>> fished_for(Draw(0, 1, None, "fish"), Ask(0, 1, "7")), fished_for(Draw(1, 1, None, "empty hand"), Ask(0, 1, "7"))
    ('7', None)
    """
    if draw.source == Source.FISH and last_ask is not None and last_ask.player == draw.player:
        return last_ask.rank
    return None


# ---------------------------------------------------------------------- the record
_new_record = object.__new__
_EMPTY: Mapping[str, int] = MappingProxyType({})
_NONE: frozenset = frozenset()

class Record:
    """What the events read so far say, kept up to date one event at a time: by :meth:`read`,
    which also returns what the event says about hands, or by :meth:`advance`, which does not.

    Attributes:
        n_events: events read so far.
        sizes: cards each seat holds.
        ocean: cards left in the ocean.
        last_ask: the latest :class:`~gofish_teach.events.Ask`, or ``None``.
        shown: per seat, ``{rank: index of the event where it last showed it holds rank}``, a
            read-only mapping that is replaced, never changed, so copies of the record share it.
            Asking for a rank, being given it, or a lucky draw of it shows it; giving it away,
            answering "Go Fish!" to it, or anyone's book of it takes it off; a seat whose
            hand becomes empty has nothing shown (cards it draws later are unknown).
        dead: per seat, a frozenset of the ranks an ask for which the record proves must
            fail: the seat answered "Go Fish!" to an ask for the rank (by anyone) and since
            then has drawn no card (any draw: fishing, a lucky draw, the empty-hand rule) and
            been given no card of that rank. Under ``specific_card`` rules a "Go Fish!" is
            about one card and proves nothing about the rank, so no ask is dead there.
        unsettled: seats that received cards whose books may not be laid yet (see :class:`Settled`).
        over: the reason the game ended, or ``None``.
    """

    __slots__ = ("n_players", "book_size", "card_asks", "n_events", "sizes", "ocean", "last_ask", "shown", "dead",
                 "unsettled", "over")

    def __init__(self, n_players: int, rules):
        self.n_players = n_players
        self.book_size = rules.book_size
        self.card_asks = rules.specific_card
        self.n_events = 0
        self.sizes = [0] * n_players
        self.ocean = rules.deck_size
        self.last_ask: Ask | None = None
        self.shown: list[Mapping[str, int]] = [_EMPTY] * n_players  # read-only: a copy shares them
        self.dead: list[frozenset[str]] = [_NONE] * n_players  # immutable: a copy shares them
        self.unsettled: set[int] = set()
        self.over: str | None = None

    @classmethod
    def of(cls, source) -> "Record":
        """The record of every event of ``source`` (a view, or a game's public log)."""
        record = cls(source.n_players, source.rules)
        for event in source.events:
            record.advance(event)
        return record

    def follow(self, events: Iterable) -> Iterator[tuple]:
        """Read ``events`` in order, yielding ``(event, operations)`` for each."""
        for event in events:
            yield event, self.read(event)

    def live(self, seat: int, rank: str) -> bool:
        """True unless the record proves an ask of ``seat`` for ``rank`` must fail: the seat
        holds cards and the ask is not :attr:`dead`."""
        return self.sizes[seat] > 0 and rank not in self.dead[seat]

    def known_holdings(self) -> list[dict[str, int]]:
        """A copy of :attr:`shown`: per seat, the ranks it has shown, with the event index."""
        return [dict(ranks) for ranks in self.shown]

    def settle(self) -> tuple[Settled, ...]:
        """Every seat waiting to settle is settled now (seats ascending)."""
        ops = tuple(Settled(q) for q in sorted(self.unsettled))
        self.unsettled.clear()
        return ops

    def read(self, event) -> tuple[Operation, ...]:
        """Take in the next event; return what it says about hands, as operations in order."""
        kind = type(event)
        settled = self.settle() if self.unsettled and kind is not Deal and kind is not Book else ()
        said = self._operations(event)  # before advancing: a draw's operation needs the state before it
        self.advance(event)
        return settled + said

    def _operations(self, event) -> tuple[Operation, ...]:
        """What ``event`` itself says about hands (the settling of earlier arrivals aside)."""
        kind = type(event)
        if kind is Deal:
            return (Dealt(event.player, event.count, event.cards),)
        if kind is Ask:
            return (Asked(event.player, event.rank),)
        if kind is GoFish:
            return (Lacks(event.player, event.rank),)
        if kind is Give:
            return (Gave(event.player, event.rank, event.count), Got(event.to, event.rank, event.count))
        if kind is Draw:
            not_rank = None if event.lucky else fished_for(event, self.last_ask)
            fresh = not self.sizes[event.player]
            return (Drew(event.player, event.count, event.cards, event.lucky, fresh, not_rank),)
        if kind is Book:
            return (Booked(event.player, event.rank),)
        return ()  # Turn, Skip, GameOver: nothing about any hand

    def advance(self, event) -> None:
        """Take in the next event without making operations (all a strategy needs).

        On the readable engine's hot path (a game reads each of its events once, as views are
        made), so written for speed: the commonest events first, the helpers inlined.
        """
        t, kind = self.n_events, type(event)
        self.n_events = t + 1
        if self.unsettled and kind is not Deal and kind is not Book:
            # Books are laid straight after cards arrive: any other event means they have been.
            self.unsettled.clear()
        if kind is Turn:
            return
        shown, sizes = self.shown, self.sizes
        if kind is Ask:
            q = event.player
            self.last_ask = event
            if sizes[q]:
                ranks = shown[q].copy()
                ranks[event.rank] = t
                shown[q] = MappingProxyType(ranks)
            else:
                shown[q] = _EMPTY
        elif kind is GoFish:
            q, rank = event.player, event.rank
            if rank in shown[q]:
                ranks = shown[q].copy()
                del ranks[rank]
                shown[q] = MappingProxyType(ranks)
            if not self.card_asks:
                self.dead[q] = self.dead[q].union((rank,))
        elif kind is Draw:
            q = event.player
            sizes[q] += event.count
            self.ocean -= event.count
            self.dead[q] = _NONE
            if event.lucky:
                self._show(q, event.cards[0].rank, t)
            self.unsettled.add(q)
        elif kind is Give:
            q, to, rank, k = event.player, event.to, event.rank, event.count
            sizes[q] -= k
            sizes[to] += k
            if not sizes[q]:  # its hand is empty: nothing shown is left
                shown[q] = _EMPTY
            elif rank in shown[q]:
                ranks = shown[q].copy()
                del ranks[rank]
                shown[q] = MappingProxyType(ranks)
            ranks = shown[to].copy()
            ranks[rank] = t
            shown[to] = MappingProxyType(ranks)
            if rank in self.dead[to]:
                self.dead[to] -= {rank}
            self.unsettled.add(to)
        elif kind is Book:
            q, rank = event.player, event.rank
            sizes[q] -= self.book_size
            for seat in range(self.n_players):
                if rank in shown[seat]:
                    self._unshow(seat, rank)
            self._forget_if_empty(q)
        elif kind is Deal:
            sizes[event.player] += event.count
            self.ocean -= event.count
            self.unsettled.add(event.player)
        elif kind is GameOver:
            self.over = event.reason

    def _show(self, seat: int, rank: str, t: int) -> None:
        ranks = dict(self.shown[seat])
        ranks[rank] = t
        self.shown[seat] = MappingProxyType(ranks)

    def _unshow(self, seat: int, rank: str) -> None:
        if rank in self.shown[seat]:
            ranks = dict(self.shown[seat])
            del ranks[rank]
            self.shown[seat] = MappingProxyType(ranks)

    def _forget_if_empty(self, seat: int) -> None:
        if not self.sizes[seat]:
            self.shown[seat] = _EMPTY

    def copy(self) -> "Record":
        """An independent copy (reading on from it leaves this record as it is)."""
        other = _new_record(Record)
        other.n_players, other.book_size, other.card_asks, other.n_events = (
            self.n_players, self.book_size, self.card_asks, self.n_events)
        other.sizes, other.ocean, other.last_ask = self.sizes[:], self.ocean, self.last_ask
        other.shown = self.shown[:]  # read-only mappings, replaced rather than changed: shared
        other.dead = self.dead[:]
        other.unsettled, other.over = set(self.unsettled) if self.unsettled else set(), self.over
        return other

    def __getstate__(self) -> dict:
        """For pickle (a tournament sends views to worker processes): read-only mappings as dicts.

        >>> import pickle
        >>> from gofish_teach import Rules
        >>> record = Record(2, Rules.preset("pond"))
        >>> for event in (Deal(0, 5, None), Deal(1, 5, None), Ask(0, 1, "7")): record.advance(event)
        >>> copy = pickle.loads(pickle.dumps(record))
        >>> copy.shown, copy.n_events, copy.shown[0] is not record.shown[0]
        ([mappingproxy({'7': 2}), mappingproxy({})], 3, True)
        """
        state = {name: getattr(self, name) for name in self.__slots__}
        state["shown"] = [dict(ranks) for ranks in self.shown]
        return state

    def __setstate__(self, state: dict) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        self.shown = [MappingProxyType(dict(ranks)) for ranks in self.shown]

    def __repr__(self) -> str:
        dead = ", ".join("{" + ", ".join(sorted(d, key=str)) + "}" if d else "none" for d in self.dead)
        return (f"<Record of {self.n_events} events: hand sizes {self.sizes}, ocean {self.ocean}, "
                f"shown {self.known_holdings()}, dead asks [{dead}]>")
