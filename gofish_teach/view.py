"""A player's information state: everything one seat has seen, and nothing it has not.

Strategies and the probability code receive only a :class:`View`. It is a snapshot taken
when ``game.view(p)`` is called; later play does not change it, and nothing done to it
changes the game: it holds copies (the public events so far, this seat's own cards), never
the game's own lists, and everything it hands out is immutable or a fresh copy. (``rules``
is the game's own :class:`~gofish_teach.rules.Rules`, which is immutable.)

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

from .cards import SUITS, Card
from .events import Event
from .record import Record


def _public_record(game) -> Record:
    """The game's public log, read so far. It is kept on the game and read on from where it
    stopped, so each event is read once per game however many views are made; every view
    takes its own copy."""
    record = game.__dict__.get("_public_record")
    if record is None or record.n_events > len(game._events):
        record = game._public_record = Record(game.n_players, game.rules)
    events = game._events
    for t in range(record.n_events, len(events)):
        record.advance(events[t])
    return record


#: Public events are shared with views in frozen blocks of this many: a view then holds a
#: tuple of blocks and the events after the last full block, never a copy of the whole log.
BLOCK = 64


def _public_events(game) -> tuple[tuple, tuple]:
    """The game's public log so far, as (full blocks, the rest): tuples, so a view can share
    them with the game and with other views without any of them being able to change them.
    The tuple of blocks is kept on the game and grows by one block every ``BLOCK`` events."""
    blocks = game.__dict__.get("_public_blocks", ())
    events = game._events
    done = len(blocks) * BLOCK
    if done + BLOCK <= len(events):
        blocks = game._public_blocks = blocks + tuple(
            tuple(events[start:start + BLOCK]) for start in range(done, len(events) - BLOCK + 1, BLOCK))
        done = len(blocks) * BLOCK
    return blocks, tuple(events[done:])


def _own_events(game, player: int) -> tuple:
    """``player``'s own events (its dealt and drawn cards) as ``(index, event)`` pairs, a tuple
    kept on the game and rebuilt only when the player has a new one (they are only ever added)."""
    cache = game.__dict__.setdefault("_own_events", {})
    mine = game._private[player]
    items = cache.get(player)
    if items is None or len(items) != len(mine):
        items = cache[player] = tuple(mine.items())
    return items


class View:
    """What ``player`` knows: own hand, the public log with its own draws revealed, and table counts.

    Attributes:
        player: whose view this is.
        n_players, rules, ranks: the game's set-up (public).
        hand: own cards, sorted by rank then suit.
        counts: own cards by rank label (held ranks only).
        hand_sizes: cards each seat holds (public: everyone can count cards).
        books: ranks each seat has laid down.
        ocean_size: cards left in the ocean.
        opponents: the seats this player may ask (not itself, nor a partner).
        current_player, is_over, winners: whose turn it is, and whether the game has ended.
        record: the public events read by :class:`~gofish_teach.record.Record` (hand sizes,
            shown ranks, dead asks, ...), this view's own copy.
    """

    __slots__ = ("player", "n_players", "rules", "ranks", "hand_sizes", "books", "opponents",
                 "ocean_size", "current_player", "is_over", "winners", "record", "_held", "_public", "_mine", "_events")

    def __init__(self, game, player: int):
        self.player = player
        self.n_players = game.n_players
        self.rules = game.rules
        self.ranks = game.ranks
        # Copies, so that the snapshot does not change as play goes on.
        self._held = {r: tuple(suits) for r, suits in zip(game.ranks, game._hands[player]) if suits}
        self.hand_sizes = tuple(game._sizes)
        self.books = game.books
        self.opponents = game._opponents[player]
        self.ocean_size = game.ocean_size
        self.current_player = game.current_player
        self.is_over = game.is_over
        self.winners = game.winners
        self.record = _public_record(game).copy()
        # Copies of the public events and of this player's own events (its dealt and drawn
        # cards), never the game's lists: what a strategy does to its view stays in the view.
        self._public = _public_events(game)  # immutable blocks, shared: nothing to copy
        self._mine = _own_events(game, player)
        self._events = None

    @property
    def hand(self) -> tuple[Card, ...]:
        """Own cards, sorted by rank then suit."""
        return tuple(Card(r, s) for r, suits in self._held.items() for s in sorted(suits, key=SUITS.index))

    @property
    def counts(self) -> dict[str, int]:
        """Own cards by rank label, held ranks only, in rank order."""
        return {r: len(suits) for r, suits in self._held.items()}

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event this player saw, in order; its own dealt and drawn cards are filled in."""
        if self._events is None:
            blocks, rest = self._public
            events = [event for block in blocks for event in block]
            events.extend(rest)
            for i, event in self._mine:
                events[i] = event
            self._events = tuple(events)
        return self._events

    def legal_asks(self) -> list[tuple]:
        """The asks this player may make now (the same list ``game.legal_asks()`` gives on its turn)."""
        if self.is_over or self.current_player != self.player:
            return []
        if self.rules.bluff:
            booked = [r for b in self.books for r in b]
            ranks = [r for r in self.ranks if booked.count(r) * self.rules.book_size < len(SUITS)]
        else:
            ranks = list(self._held)
        if not self.rules.specific_card:
            return [(t, r) for t in self.opponents for r in ranks]
        mine = set(self.hand)
        return [(t, r, s) for t in self.opponents for r in ranks for s in SUITS if Card(r, s) not in mine]

    def __repr__(self) -> str:
        hand = " ".join(map(str, self.hand)) or "empty"
        return (f"<View of player {self.player}: hand {hand}, hand sizes {list(self.hand_sizes)}, "
                f"ocean {self.ocean_size}, books {[len(b) for b in self.books]}, {self._n_public()} events>")

    def _n_public(self) -> int:
        blocks, rest = self._public
        return len(blocks) * BLOCK + len(rest)
