"""A seat at a class table from Python: the host's websocket, the seat's state as the host sends it.

The notebook's table (:mod:`.notebook`), the tests and ``make bench`` all sit at tables through
:class:`SeatClient`, so they play exactly as a browser does: one websocket to ``/ws/play``, a
``join`` (or a ``resume`` with the seat's token), then ``update`` frames, each folded into
:attr:`SeatClient.state` and :attr:`SeatClient.log`.

:func:`autoplay` plays a seat to the end of its game with legal asks drawn at random, the way
the load test and the benchmark fill a table with clients.
"""
from __future__ import annotations

import asyncio
import json
import time
from urllib.parse import urlsplit

from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect


def socket_url(address: str, path: str = "/ws/play") -> str:
    """``http://HOST:PORT/`` (the address the host prints) as its websocket's URL.

    >>> socket_url("http://192.168.1.20:8044/")
    'ws://192.168.1.20:8044/ws/play'
    """
    parts = urlsplit(address if "//" in address else "http://" + address)
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.netloc:
        raise ValueError(f"address: expected the host's address, like http://192.168.1.20:8044/, not {address!r}")
    scheme = "wss" if parts.scheme in ("https", "wss") else "ws"
    return f"{scheme}://{parts.netloc}{path}"


class HostError(RuntimeError):
    """The host refused something (its error frame's text), or went away."""


class SeatClient:
    """One connection to a host's ``/ws/play``.

    Attributes:
        state: the last ``update`` frame (``None`` before the first): hand, counts, whose turn, legal asks...
        log: every event of the current game this seat has been sent, oldest first.
        seat, code, token: where it sits, and the token that takes it back after a lost connection.
        frames: every frame received, as text (the tests scan them for cards the seat has not seen).
        times: ``(monotonic time, frame)`` of each ``update``, for the benchmark.
        errors: the text of each error frame.
        chances: the last ``chances`` frame for the current position, or ``None``.
    """

    def __init__(self, address: str, *, origin: str | None = None, keep_frames: bool = False, on_frame=None):
        self.url = socket_url(address) if not address.startswith(("ws://", "wss://")) else address
        self.origin = origin
        self.keep_frames = keep_frames
        self.on_frame = on_frame
        self.ws = None
        self.state: dict | None = None
        self.log: list[dict] = []
        self.seat = self.code = self.token = None
        self.frames: list[str] = []
        self.times: list[tuple[float, dict]] = []
        self.errors: list[str] = []
        self.chances: dict | None = None
        self.unseated: str | None = None
        self.closed = False
        self._reader = None
        self._news = None

    async def connect(self) -> "SeatClient":
        headers = {"Origin": self.origin} if self.origin else {}
        self.ws = await websocket_connect(HTTPRequest(self.url, headers=headers, connect_timeout=20))
        return self

    async def send(self, message) -> None:
        await self.ws.write_message(message if isinstance(message, (str, bytes)) else json.dumps(message),
                                    binary=isinstance(message, bytes))

    async def receive(self, timeout: float | None = 30) -> dict:
        """The next frame, folded into the seat's state; :class:`HostError` if the connection closes."""
        text = await asyncio.wait_for(self.ws.read_message(), timeout)
        if text is None:
            self.closed = True
            raise HostError(f"the host closed the connection ({self.ws.close_code}: {self.ws.close_reason})")
        now = time.monotonic()
        if self.keep_frames:
            self.frames.append(text)
        message = json.loads(text)
        self.fold(message, now)
        if self.on_frame is not None:
            self.on_frame(message)
        return message

    def fold(self, message: dict, now: float = 0.0) -> None:
        kind = message["type"]
        if kind == "seated":
            self.seat, self.code = message["seat"], message["code"]
            self.token = message["token"] or self.token
            self.unseated = None
        elif kind == "update":
            if message["from"] == 0:
                self.log = []
            self.log.extend(message["events"])
            if self.state is None or (self.state["game"], self.state["n"]) != (message["game"], message["n"]):
                self.chances = None
            self.state = message
            self.times.append((now, message))
        elif kind == "chances":
            if self.state and (message["game"], message["n"]) == (self.state["game"], self.state["n"]):
                self.chances = message
        elif kind == "error":
            self.errors.append(message["problem"])
        elif kind == "unseated":
            self.unseated = message["reason"]
            self.seat = None

    def listen(self) -> None:
        """Read every frame in the background from now on (a task on the running loop), so that several
        seats can be followed at once: :meth:`news` waits for the next frame, whoever reads it."""
        self._news = asyncio.Event()

        async def read_all():
            try:
                while True:
                    await self.receive(None)
                    self._news.set()
                    self._news = asyncio.Event()
            except (HostError, asyncio.CancelledError):
                pass
            finally:
                self.closed = True
                self._news.set()

        self._reader = asyncio.ensure_future(read_all())

    async def news(self, timeout: float = 30) -> None:
        """Until the next frame has been folded in (read here, or by :meth:`listen`'s reader)."""
        if self._reader is None:
            await self.receive(timeout)
            return
        if self.closed:
            raise HostError("the connection to the host is closed")
        await asyncio.wait_for(self._news.wait(), timeout)

    async def until(self, done, timeout: float = 60) -> dict:
        """Read frames until ``done(frame)`` is true; that frame."""
        deadline = time.monotonic() + timeout
        while True:
            message = await self.receive(max(0.01, deadline - time.monotonic()))
            if done(message):
                return message

    async def join(self, code: str, name: str, timeout: float = 30) -> "SeatClient":
        """Take a seat at table ``code`` under ``name``; waits for the first update."""
        await self.send({"type": "join", "code": code, "name": name})
        await self._seated(timeout)
        return self

    async def resume(self, code: str, token: str, timeout: float = 30) -> "SeatClient":
        """Take back the seat ``token`` holds at ``code`` (after a lost connection or a restarted host)."""
        self.token = token
        await self.send({"type": "resume", "code": code, "token": token})
        await self._seated(timeout)
        return self

    async def _seated(self, timeout: float) -> None:
        errors = len(self.errors)
        message = await self.until(lambda m: m["type"] in ("update", "error", "unseated"), timeout)
        if message["type"] == "error":
            raise HostError(self.errors[errors])
        if message["type"] == "unseated":
            raise HostError(message["reason"])

    async def ask(self, target: int, rank: str, suit: str | None = None) -> None:
        """Ask ``target`` for ``rank`` (at the position last seen: a stale click is refused, not misapplied)."""
        message = {"type": "ask", "target": target, "rank": rank, "at": self.state["asks"]}
        if suit is not None:
            message["suit"] = suit
        await self.send(message)

    @property
    def my_turn(self) -> bool:
        return bool(self.state and self.state["legal"])

    @property
    def over(self) -> bool:
        return bool(self.state and self.state["over"])

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            self._reader = None
        if self.ws is not None:
            self.ws.close()
            self.ws = None


async def autoplay(client: SeatClient, rng, *, timeout: float = 120, sent=None, think=None) -> None:
    """Play ``client``'s seat to the end of its game: on each turn, a legal ask drawn with ``rng``
    (a numpy generator). ``sent``, if given, is called with ``(time, asks)`` as each ask is sent;
    ``think=(low, high)`` waits a time drawn between them (seconds) before each ask, as a person would."""
    deadline = time.monotonic() + timeout
    asked_at, errors = None, len(client.errors)
    while not client.over:
        if len(client.errors) > errors:
            raise HostError(f"the host refused an ask: {client.errors[errors]}")
        state = client.state
        if client.my_turn and state["asks"] != asked_at:
            legal = state["legal"]
            move = legal[int(rng.integers(len(legal)))]
            asked_at = state["asks"]
            if think is not None:
                await asyncio.sleep(rng.uniform(*think))
            if sent is not None:
                sent(time.monotonic(), asked_at)
            await client.ask(*move)
        await client.news(max(0.01, deadline - time.monotonic()))


async def open_tables(address: str, token: str, **setup) -> list[str]:
    """As the teacher's page does: say hello with ``token`` and open tables (``setup`` as the page sends it:
    ``rules``, ``seats``, ``tables``, ``clock``, ``pause``, ...); their codes."""
    ws = await websocket_connect(HTTPRequest(socket_url(address, "/ws/teacher"), connect_timeout=20))
    try:
        for message in ({"type": "hello", "token": token}, {"type": "open", **setup}):
            await ws.write_message(json.dumps(message))
        while True:
            text = await asyncio.wait_for(ws.read_message(), 60)
            if text is None:
                raise HostError("the host closed the teacher's connection")
            answer = json.loads(text)
            if answer["type"] == "error":
                raise HostError(answer["problem"])
            if answer["type"] == "opened":
                return answer["codes"]
    finally:
        ws.close()
