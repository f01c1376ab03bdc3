"""A player's information state: everything one seat has seen, and nothing it has not.

Strategies and the probability code receive only a :class:`View`. It is a snapshot taken
when ``game.view(p)`` is called, built from values the game hands over (this module never
touches a game): later play does not change it, and nothing done to it changes the game.
Everything it holds is immutable (the public events as a chain of tuples shared with the
game and other views, this seat's own cards, the counts) or its own copy (its
:class:`~gofish_teach.record.Record`), and everything it hands out is immutable or a fresh
copy. (``rules`` is the game's own :class:`~gofish_teach.rules.Rules`, which is immutable.)

>>> from gofish_teach import Game, Rules
>>> game = Game(Rules.preset("pond"), n_players=3, seed=1)
>>> view = game.view(1)
>>> view
<View of player 1: hand A♠ 2♥ 3♦ 6♥ 9♠, hand sizes [5, 5, 5], ocean 37, books [0, 0, 0], 3 events>
>>> print(view.events[0]), print(view.events[1])
Player 0 is dealt 5 cards.
Player 1 is dealt 5 cards: 2♥ 9♠ 6♥ A♠ 3♦.
(None, None)
"""
from __future__ import annotations

from itertools import compress

from .asks import legal_asks
from .cards import SUITS, Card
from .events import Event
from .record import Record

#: Public events are shared with views in frozen blocks of this many, and the events after the
#: last full block as a chain of pairs ``(..., ((None, e0), e1), ..., e_last)``: a view takes
#: the whole log so far by holding the tuple of blocks and the last pair, both immutable and
#: free to take, and what two views share is sent once by the tournament's pickler.
BLOCK = 64


def chain_events(chain) -> list:
    """The events of a chain of pairs, oldest first."""
    events = []
    while chain is not None:
        chain, event = chain
        events.append(event)
    events.reverse()
    return events


def public_events(public) -> list:
    """The events of ``(blocks, chain)``, as a game hands them to its views, in order."""
    blocks, chain = public
    events = [event for block in blocks for event in block]
    events.extend(chain_events(chain))
    return events


class View:
    """What ``player`` knows: own hand, the public log with its own draws revealed, and table counts.

    Attributes:
        player: whose view this is.
        n_players, rules, ranks: the game's set-up (public).
        hand: own cards, sorted by rank then suit.
        counts: own cards by rank label (held ranks only).
        held_ranks: the ranks it holds, in deck order (the keys of ``counts``).
        hand_sizes: cards each seat holds (public: everyone can count cards).
        books: ranks each seat has laid down.
        ocean_size: cards left in the ocean.
        opponents: the seats this player may ask (not itself, nor a partner).
        current_player, is_over, winners: whose turn it is, and whether the game has ended.
        record: the public events read by :class:`~gofish_teach.record.Record` (hand sizes,
            shown ranks, dead asks, ...), this view's own copy.

    A game makes its views (``game.view(p)``); the constructor takes values only: ``hand``
    is this seat's suits of each rank, a tuple of tuples in deck order (``()`` for a rank it
    does not hold; the game's own tuples, which it replaces rather than changes, so a view
    takes a hand without copying a card), ``public`` the public events as ``(blocks, chain)``
    (:data:`BLOCK`), ``n_events`` of them, and ``mine`` this seat's own events as
    ``(index, event)`` pairs.
    """

    __slots__ = ("player", "n_players", "rules", "ranks", "hand_sizes", "books", "opponents", "ocean_size",
                 "current_player", "is_over", "winners", "record", "_hand", "_public", "_n", "_mine", "_events", "_drawing")

    def __init__(self, player: int, n_players: int, rules, ranks: tuple, hand: tuple, hand_sizes: tuple,
                 books: tuple, opponents: tuple, ocean_size: int, current_player: int, is_over: bool,
                 winners: tuple, record: Record, public, n_events: int, mine: tuple):
        self.player = player
        self.n_players = n_players
        self.rules = rules
        self.ranks = ranks
        self._hand = hand
        self.hand_sizes = hand_sizes
        self.books = books
        self.opponents = opponents
        self.ocean_size = ocean_size
        self.current_player = current_player
        self.is_over = is_over
        self.winners = winners
        self.record = record
        self._public = public
        self._n = n_events
        self._mine = mine
        self._events: tuple[Event, ...] | None = None
        self._drawing = False

    @property
    def hand(self) -> tuple[Card, ...]:
        """Own cards, sorted by rank then suit."""
        return tuple(Card(r, s) for r, suits in zip(self.ranks, self._hand, strict=True) for s in sorted(suits, key=SUITS.index))

    @property
    def counts(self) -> dict[str, int]:
        """Own cards by rank label, held ranks only, in rank order."""
        # {r: len(suits) for r, suits in zip(ranks, hand) if suits}, built in C: strategies read it at every decision
        return dict(zip(compress(self.ranks, self._hand), map(len, filter(None, self._hand)), strict=True))

    @property
    def held_ranks(self) -> list[str]:
        """The ranks this player holds, in deck order (a fresh list)."""
        return list(compress(self.ranks, self._hand))

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event this player saw, in order; its own dealt and drawn cards are filled in."""
        if self._events is None:
            events = public_events(self._public)
            for i, event in self._mine:
                events[i] = event
            self._events = tuple(events)
        return self._events

    def legal_asks(self) -> list[tuple]:
        """The asks this player may make now (the same list ``game.legal_asks()`` gives on its turn)."""
        if self.is_over or self.current_player != self.player or self._drawing:
            return []
        booked = [0] * len(self.ranks)
        if self.rules.bluff:
            index = {r: i for i, r in enumerate(self.ranks)}
            for seat_books in self.books:
                for rank in seat_books:
                    booked[index[rank]] += self.rules.book_size
        return legal_asks(self.rules, self.ranks, self._hand, booked, self.opponents)

    def before_draw(self, ask: Event, answer: Event) -> "View":
        """This view (taken before an ask) with the ask and its "Go Fish!" answer added: what
        the player knows in the moment before drawing from the ocean, with no ask to make
        (its ``legal_asks()`` is empty). The table shows this moment until the ocean is clicked.

        >>> from gofish_teach import Game
        >>> game = Game("pond", 2, seed=3)
        >>> view = game.view(0)
        >>> target, rank = next(a for a in view.legal_asks() if game.count(1, a[1]) == 0)   # an ask that fails
        >>> ask, answer = game.ask(target, rank)[:2]
        >>> print(answer)
        Player 1 says "Go Fish!"
        >>> before = view.before_draw(ask, answer)
        >>> before.events[-2:] == (ask, answer), before.legal_asks(), before.record.n_events == len(before.events)
        (True, [], True)
        """
        record = self.record.copy()
        record.advance(ask)
        record.advance(answer)
        other = View(self.player, self.n_players, self.rules, self.ranks, self._hand, self.hand_sizes, self.books,
                     self.opponents, self.ocean_size, self.current_player, self.is_over, self.winners, record,
                     (self._public[0], ((self._public[1], ask), answer)), self._n + 2, self._mine)
        other._drawing = True  # no ask to make: the draw comes first
        return other

    def __repr__(self) -> str:
        hand = " ".join(map(str, self.hand)) or "empty"
        return (f"<View of player {self.player}: hand {hand}, hand sizes {list(self.hand_sizes)}, "
                f"ocean {self.ocean_size}, books {[len(b) for b in self.books]}, {self._n} events>")
