"""What travels from the tournament to an entry's process: one request per decision.

A request is the entry's :class:`~gofish_teach.view.View` and its seat's seed, pickled, behind
a 5-byte header (its length, and whether a new game starts). Pickle goes one way only, from the
trusted tournament to the entry (which unpickles what the tournament made); an entry's answers
come back as JSON (:mod:`.seat`).

**Sent once, referred to after.** The views of one game share most of what they hold with
each other: the game's public events (in frozen blocks), the cards, the rules, the ranks.
Pickled whole at every decision, these would be pickled again and again (most of a decision's
cost, and more as a game grows). So one pickler serves a whole game, and its memo (what it has
pickled, by identity) is kept from one request to the next: what the entry has already been
sent is referred to by number, and the entry's unpickler, kept for the game too, resolves the
number to the very object it built then. The strategy still gets a real ``View`` with the very
same information. This is safe because whatever two views of a game share is immutable (the
events, the cards, the rules, the tuples that hold them, the read-only mappings of the record):
a view is a snapshot, and everything it holds that can change is a fresh copy, sent afresh
(``tests/test_trust_speed.py`` checks every view of many games against a pickle of its own). A
new game starts a new pickler and unpickler, so neither side keeps more than one game.

>>> import io
>>> from gofish_teach import Game, Rules
>>> game = Game(Rules.preset("pond"), 2, seed=1)
>>> sender = Sender()
>>> first = sender.request(game.view(0), 7)
>>> _ = game.ask(*game.legal_asks()[0])
>>> second = sender.request(game.view(0), 7)
>>> len(second) < len(first)   # the rules and the deal are not sent again
True
>>> receiver = Receiver(io.BytesIO(first + second))
>>> _ = receiver.next()
>>> got, seed = receiver.next()
>>> seed, got.hand == game.view(0).hand, got.events == game.view(0).events
(7, True, True)
"""
from __future__ import annotations

import io
import pickle
import struct

#: A request's header: the length of what follows, and 1 when it starts a new game (else 0).
HEADER = struct.Struct(">IB")


class Sender:
    """The tournament's side: each request as bytes to write to the entry's pipe (one per entry and table)."""

    def __init__(self):
        self.seed = None
        self.buffer = io.BytesIO()
        self.pickler = None

    def request(self, view, seat_seed: int) -> bytes:
        new = seat_seed != self.seed or self.pickler is None
        if new:  # a new game: nothing of the last one is referred to again
            self.seed = seat_seed
            self.pickler = pickle.Pickler(self.buffer, protocol=pickle.HIGHEST_PROTOCOL)
        self.pickler.dump((view, seat_seed))
        message = self.buffer.getvalue()
        self.buffer.seek(0)
        self.buffer.truncate()
        return HEADER.pack(len(message), new) + message


class Receiver:
    """The entry's side: reads the requests from ``stream`` (its stdin), one at a time."""

    def __init__(self, stream):
        self.stream = stream
        self.feed = None
        self.unpickler = None

    def next(self):
        """The next ``(view, seat_seed)``, or None when the tournament has closed the pipe."""
        header = self.stream.read(HEADER.size)
        if len(header) < HEADER.size:
            return None
        size, new = HEADER.unpack(header)
        if new or self.unpickler is None:
            self.feed = io.BytesIO()
            self.unpickler = pickle.Unpickler(self.feed)
        start = self.feed.tell()
        self.feed.seek(0, io.SEEK_END)
        self.feed.write(self.stream.read(size))
        self.feed.seek(start)
        return self.unpickler.load()
