"""What travels from the tournament to an entry's process: one request per decision.

A request is the entry's :class:`~gofish_teach.view.View` and its seat's seed, pickled, behind
a 4-byte length. Pickle goes one way only, from the trusted tournament to the entry (which
unpickles what the tournament made); an entry's answers come back as JSON (:mod:`.seat`).

>>> import io
>>> from gofish_teach import Game, Rules
>>> view = Game(Rules.preset("pond"), 2, seed=1).view(0)
>>> sender, stream = Sender(), io.BytesIO()
>>> _ = stream.write(sender.request(view, 7))
>>> _ = stream.seek(0)
>>> got, seed = Receiver(stream).next()
>>> seed, got.hand == view.hand, got.events == view.events
(7, True, True)
"""
from __future__ import annotations

import pickle
import struct

HEADER = struct.Struct(">I")


class Sender:
    """The tournament's side: each request as bytes to write to the entry's pipe."""

    def request(self, view, seat_seed: int) -> bytes:
        message = pickle.dumps((view, seat_seed), protocol=pickle.HIGHEST_PROTOCOL)
        return HEADER.pack(len(message)) + message


class Receiver:
    """The entry's side: reads the requests from ``stream`` (its stdin), one at a time."""

    def __init__(self, stream):
        self.stream = stream

    def next(self):
        """The next ``(view, seat_seed)``, or None when the tournament has closed the pipe."""
        header = self.stream.read(HEADER.size)
        if len(header) < HEADER.size:
            return None
        (size,) = HEADER.unpack(header)
        return pickle.loads(self.stream.read(size))
