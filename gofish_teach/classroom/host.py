"""The class's host: every table, its store, who is connected where, the bots' turns and the clock.

No web code here (that is :mod:`.server`): the host takes checked messages from connections,
turns them into entries (:mod:`.table`), stores each one (:mod:`.storage`) before it tells
anyone, and sends each seat a frame built from its own view. A connection is anything with
``send(text)`` and an ``ip``, so the tests can drive a host without a network.

>>> import json, tempfile
>>> host = Host(tempfile.mkdtemp())
>>> [code] = host.open_tables({"rules": "pond", "seats": ["learner", "memory"], "pause": 0})
>>> class Conn:                    # what the host needs of a connection
...     ip, frames = "127.0.0.1", []
...     def send(self, text): self.frames.append(text)
>>> ann = Conn()
>>> host.learner(ann, {"type": "join", "code": code.lower(), "name": "Ann"})
>>> [json.loads(text)["type"] for text in ann.frames]
['seated', 'update']
>>> host.close()
"""
from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from .codes import Tries, digest, new_code, new_token, normal_code, same_secret
from .protocol import frame
from .storage import Store
from .table import BOT_STRATEGIES, CLOCK_STRATEGY, SLOW_STRATEGIES, ClassTable, bot_choice, table_config

log = logging.getLogger("gofish_teach.classroom")

#: Wrong table codes or seat tokens one address may try at once, and then one every PER seconds.
TRIES, TRIES_PER = 10, 6.0
#: Tables one host keeps open (a class has a few dozen).
MAX_TABLES = 200
#: How often (seconds) the teacher's page hears of tables that changed: one frame per table per period.
TEACHER_PERIOD = 0.2
#: The host's files in its data folder.
STORE_FILE, TOKEN_FILE = "class.sqlite3", "teacher-token"


def chances_of(view) -> dict:
    """A seat's own chances from its view alone (run in a worker process): P(each opponent holds at
    least one of each rank) and P(the ocean's top card is each rank), as numbers and exact fractions."""
    from ..probability import posterior

    table = posterior(view).table()

    def both(p):
        return [float(p), f"{p.numerator}/{p.denominator}" if table.exact else None]

    return {"ranks": list(table.ranks), "exact": table.exact,
            "holds": {str(q): {r: both(table.holds[q][r]) for r in table.ranks} for q in table.seats},
            "top": {r: both(p) for r, p in table.top.items()}}


def _worker_start(parent: int) -> None:
    from ..executors import die_with_parent  # the kit's one way for a worker to end with its parent

    die_with_parent(parent)


class Host:
    """Every table of a class, from the store in ``data`` (made if missing); see the module's docstring."""

    def __init__(self, data, *, join_url: str = "", origins=()):
        self.data = Path(data)
        self.data.mkdir(parents=True, exist_ok=True)
        self.store = Store(self.data / STORE_FILE)
        self.token = self._teacher_token()
        self.join_url = join_url
        self.origins = set(origins)
        self.tables: dict[str, ClassTable] = {}
        for code, opened, config in self.store.tables():
            self.tables[code] = ClassTable.replay(code, opened, config, self.store.entries(code))
        self.seated: dict[str, dict[int, set]] = {code: {} for code in self.tables}
        self.teachers: set = set()
        self.addresses: dict[str, int] = {}  # open connections by address (the server's limit)
        self.tries = Tries(TRIES, TRIES_PER)
        self._timers: dict[str, object] = {}
        self._plans: dict[str, tuple] = {}  # what each table's timer was set for (see _schedule)
        self._deadline: dict[str, float] = {}
        self._dirty: set[str] = set()
        self._flush = None
        self._pool = None
        self._chances: dict[tuple, dict] = {}  # (code, game, seat, events) -> the counted chances (None: counting)
        self._counting: dict[tuple, tuple] = {}  # (code, seat) -> (its latest key, the future counting it)
        self.on_send = None  # tests: called with (connection, text) for every frame sent to a seat

    def _teacher_token(self) -> str:
        path = self.data / TOKEN_FILE
        if path.exists():
            return path.read_text().strip()
        token = new_token()
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # the teacher's alone
        with open(fd, "w") as f:
            f.write(token + "\n")
        return token

    def close(self) -> None:
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self.store.close()

    def start(self) -> None:
        """On the running loop: the bots and clocks of every table resume where the store left them."""
        for table in self.tables.values():
            self._schedule(table)

    # ------------------------------------------------------------------ changing a table
    def commit(self, table: ClassTable, entry: tuple) -> list:
        """Apply ``entry`` to ``table``, store it, and only then tell everyone; the public events it made."""
        kind, data = entry
        events = table.apply(kind, data)
        try:
            self.store.append(table.code, kind, table.stored(kind, data, events))
        except Exception:
            log.exception("table %s: could not store %s; the table goes back to what the store holds", table.code, kind)
            self.tables[table.code] = ClassTable.replay(table.code, table.opened, table.config,
                                                        self.store.entries(table.code))
            raise RuntimeError("the host could not store that, so nothing changed") from None
        self.changed(table)
        return events

    def changed(self, table: ClassTable) -> None:
        code = table.code
        self._schedule(table)
        public = table.public_frame(self.connected(code), self._clock_left(code))  # once for every seat
        for conns in self.seated.get(code, {}).values():
            for conn in list(conns):
                self.update(conn, public)
        self._dirty.add(code)
        if self._flush is None and self.teachers:
            self._flush = self._later(TEACHER_PERIOD, self._tell_teachers)

    def open_tables(self, message: dict) -> list[str]:
        config = table_config(message)
        count = int(message.get("tables", 1))
        if len(self.tables) + count > MAX_TABLES:
            raise ValueError(f"tables: this host keeps at most {MAX_TABLES} tables ({len(self.tables)} open)")
        codes = []
        for _ in range(count):
            code = new_code()
            while code in self.tables:
                code = new_code()
            self.store.add_table(code, config)
            table = self.tables[code] = ClassTable(code, config, time.time())
            self.seated[code] = {}
            self.commit(table, table.deal_entry(secrets.randbits(62)))
            codes.append(code)
        return codes

    # ------------------------------------------------------------------ learners
    def learner(self, conn, message: dict) -> None:
        """One checked message from a learner's connection (``conn.seat`` once seated). ``ValueError`` names a refusal."""
        kind = message["type"]
        place = getattr(conn, "place", None)
        if kind == "ping":
            conn.send(frame("pong"))
            return
        if kind in ("join", "resume"):
            if place is not None:
                raise ValueError(f"you are seated already (seat {place[1] + 1} at {place[0]})")
            table = self._table_for(conn, message["code"])
            if kind == "join":
                token = new_token()
                self.commit(table, table.join_entry(message["name"], digest(token)))
                seat = table.seat_of(digest(token))
            else:
                token, seat = None, table.seat_of(digest(message["token"]))
                if seat is None:  # the teacher gave the seat away, or the token is not this table's
                    self.tries.take(conn.ip)
                    conn.send(frame("unseated", reason=f"no seat at table {table.code} holds that token: "
                                                       "join again with your name"))
                    return
            self._sit(conn, table, seat, token)
            return
        if place is None:
            raise ValueError(f"{kind}: join a table first (send its code and your name)")
        table = self.tables[place[0]]
        if kind == "ask":
            self.commit(table, table.ask_entry(place[1], message["target"], message["rank"], message.get("suit"),
                                               message.get("at")))
        elif kind == "chances":
            if message["on"] and not table.chances:
                raise ValueError("chances: your teacher has not turned on the chances panel at this table")
            conn.chances = message["on"]
            self.update(conn)

    def _table_for(self, conn, text) -> ClassTable:
        wait = self.tries.wait(conn.ip)
        if wait:
            raise ValueError(f"too many wrong codes or tokens from your address: try again in {wait} s")
        try:
            code = normal_code(text)
        except ValueError:
            self.tries.take(conn.ip)
            raise
        table = self.tables.get(code)
        if table is None:
            self.tries.take(conn.ip)
            raise ValueError(f"no table has the code {code}: check it with your teacher")
        return table

    def _sit(self, conn, table: ClassTable, seat: int, token: str | None) -> None:
        conn.place, conn.told, conn.told_game = (table.code, seat), 0, None
        conn.chances = getattr(conn, "chances", False)
        self.seated[table.code].setdefault(seat, set()).add(conn)
        conn.send(frame("seated", code=table.code, seat=seat, name=table.names()[seat], token=token))
        self.changed(table)  # everyone sees the seat taken (and this connection its first frame)

    def leave(self, conn) -> None:
        place = getattr(conn, "place", None)
        if place is None:
            return
        conns = self.seated.get(place[0], {}).get(place[1], set())
        conns.discard(conn)
        conn.place = None
        if place[0] in self.tables:
            self.changed(self.tables[place[0]])

    def connected(self, code: str) -> set[int]:
        return {seat for seat, conns in self.seated.get(code, {}).items() if conns}

    def update(self, conn, public: dict | None = None) -> None:
        """Send ``conn`` what its seat is to see now: the events since its last frame, and its position."""
        code, seat = conn.place
        table = self.tables[code]
        public = public or table.public_frame(self.connected(code), self._clock_left(code))
        # The log again from the start after a new deal, or when a name changed (its sentences name the seats).
        told = (table.played.number, tuple(public["names"]))
        since = conn.told if conn.told_game == told else 0
        data = table.seat_frame(seat, since, public=public)
        conn.told, conn.told_game = data["n"], told
        self._send(conn, frame("update", **data))
        if getattr(conn, "chances", False) and table.chances:
            self._send_chances(table, seat, data["n"])

    def _send(self, conn, text: str) -> None:
        if self.on_send is not None:
            self.on_send(conn, text)
        conn.send(text)

    def _clock_left(self, code: str) -> float | None:
        """Seconds left on the turn clock of the learner to move at ``code`` (``None``: no clock running)."""
        if code in self._deadline and self.tables[code].learner_to_move() is not None:
            return max(0.0, round(self._deadline[code] - time.monotonic(), 1))
        return None

    # ------------------------------------------------------------------ chances (a worker process counts)
    def _send_chances(self, table: ClassTable, seat: int, n: int) -> None:
        """The seat's chances at its position ``n``: sent at once if counted, else counted in the worker.
        A seat has at most one count waiting: a newer position replaces it (nobody needs a stale one)."""
        key = (table.code, table.played.number, seat, n)
        if key in self._chances:
            self._deliver_chances(key)
            return
        view = table.game.view(seat)
        loop = self._loop()
        if loop is None:  # no loop (a doctest, a plain script): count here
            self._chances[key] = chances_of(view)
            self._deliver_chances(key)
            return
        waiting = self._counting.get(key[::2])
        if waiting is not None and waiting[1].cancel():
            self._chances.pop(waiting[0], None)
        future = self.work(chances_of, view)
        self._chances[key] = None  # being counted
        self._counting[key[::2]] = (key, future)
        future.add_done_callback(lambda f: f.cancelled() or loop.call_soon_threadsafe(self._counted, key, f))

    def _counted(self, key, future) -> None:
        if self._counting.get(key[::2], (None,))[0] == key:
            del self._counting[key[::2]]
        try:
            self._chances[key] = future.result()
        except Exception as e:
            log.warning("table %s: the chances of seat %d could not be counted: %s", key[0], key[2], e)
            self._chances.pop(key, None)
            return
        self._deliver_chances(key)

    def _deliver_chances(self, key) -> None:
        code, number, seat, n = key
        result = self._chances.get(key)
        if result is None or code not in self.tables:
            return
        for conn in list(self.seated[code].get(seat, ())):
            if getattr(conn, "chances", False) and conn.told_game[0] == number and conn.told == n:
                self._send(conn, frame("chances", game=number, n=n, **result))
        if len(self._chances) > 2000:  # old positions are never asked for again
            self._chances = {k: v for k, v in self._chances.items() if k[:2] == key[:2] or v is None}

    def work(self, function, *args):
        """``function(*args)`` in the worker process (started when first needed); a concurrent future.
        A worker that died (killed, out of memory) is replaced once, not left to fail every later call."""
        import multiprocessing
        from concurrent.futures.process import BrokenProcessPool

        for _attempt in (1, 2):
            if self._pool is None:
                # spawn, not fork: a fresh interpreter, whatever this process's threads hold.
                self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=_worker_start, initargs=(os.getpid(),))
            try:
                return self._pool.submit(function, *args)
            except BrokenProcessPool:
                log.warning("the worker process died: starting another")
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None
        raise RuntimeError("the worker process cannot be started")

    # ------------------------------------------------------------------ bots and the clock
    @staticmethod
    def _loop():
        try:
            return asyncio.get_running_loop()
        except RuntimeError:
            return None

    def _later(self, delay: float, callback):
        loop = self._loop()
        return loop.call_later(delay, callback) if loop is not None else None

    def _schedule(self, table: ClassTable) -> None:
        """After any change: the table's next bot ask after its pause, or its clock for the learner to move.
        A change that leaves the turn where it was (someone connects, a name) leaves its timer running: a
        learner's clock is not wound back by a classmate's reconnecting."""
        code = table.code
        position = (table.played.number, table.game.n_asks)
        plan = (position, table.to_move(), table.bot_to_move(), table.clock, table.pause)
        if code in self._timers and self._plans.get(code) == plan:
            return
        handle = self._timers.pop(code, None)
        if handle is not None:
            handle.cancel()
        self._deadline.pop(code, None)
        self._plans[code] = plan
        if self._loop() is None:
            return
        if table.bot_to_move() is not None:
            self._timers[code] = self._later(table.pause, lambda: self._fire(code, self._bot_turn(code, position)))
        elif table.learner_to_move() is not None and table.clock:
            self._deadline[code] = time.monotonic() + table.clock
            self._timers[code] = self._later(table.clock, lambda: self._fire(code, self._clock_turn(code, position)))

    def _fire(self, code: str, coroutine) -> None:
        """A table's timer fires: it is no longer pending (a cancelled one never fires), and its turn runs."""
        self._timers.pop(code, None)
        self._spawn(coroutine)

    def _spawn(self, coroutine) -> None:
        task = asyncio.ensure_future(coroutine)
        task.add_done_callback(lambda t: t.cancelled() or t.exception() is None
                               or log.error("a table's turn failed", exc_info=t.exception()))

    def _position(self, code: str):
        table = self.tables.get(code)
        return None if table is None or not table.games else (table.played.number, table.game.n_asks)

    async def _bot_turn(self, code: str, position) -> None:
        await self._machine_ask(code, position, "bot")

    async def _clock_turn(self, code: str, position) -> None:
        await self._machine_ask(code, position, "clock")

    async def _machine_ask(self, code: str, position, why: str) -> None:
        table = self.tables.get(code)
        seat = None if table is None else table.bot_to_move() if why == "bot" else table.learner_to_move()
        if seat is None or self._position(code) != position:
            return
        strategy = table.seats[seat].strategy if why == "bot" else CLOCK_STRATEGY
        job = table.bot_job(seat, strategy)
        try:
            if strategy in SLOW_STRATEGIES:
                move = await asyncio.wrap_future(self.work(bot_choice, *job))
            else:
                move = bot_choice(*job)
        except Exception as e:  # the worker died under it: try again in a moment, never stall the table
            log.warning("table %s: the %s at seat %d could not decide (%s: %s); trying again", code, strategy, seat,
                        type(e).__name__, e)
            if self._pool is not None and getattr(self._pool, "_broken", False):
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None
            self._timers[code] = self._later(1.0, lambda: self._fire(code, self._machine_ask(code, position, why)))
            return
        table = self.tables.get(code)
        still = table.bot_to_move() if why == "bot" else table.learner_to_move()
        if self._position(code) != position or still != seat:
            return  # the table moved on while the bot thought (the teacher changed the seat)
        try:
            self.commit(table, table.bot_ask_entry(seat, move, strategy if why == "bot" else "clock"))
        except ValueError as e:
            log.error("table %s: the %s at seat %d asked %r: %s; the table waits for the teacher", code,
                      strategy, seat, move, e)

    # ------------------------------------------------------------------ the teacher
    def teacher(self, conn, message: dict) -> None:
        """One checked message from the teacher's page. The first must be ``hello`` with the token."""
        kind = message["type"]
        if not getattr(conn, "teacher", False):
            if kind != "hello":
                raise ValueError(f"{kind}: say hello with the teacher's token first")
            wait = self.tries.wait(conn.ip)
            if wait:
                raise ValueError(f"too many wrong tokens from your address: try again in {wait} s")
            if not same_secret(message["token"], self.token):
                self.tries.take(conn.ip)
                raise ValueError("hello: that is not this host's teacher token (it is in the link the host printed)")
            conn.teacher = True
            self.teachers.add(conn)
            conn.send(frame("host", join=self.join_url, strategies=list(BOT_STRATEGIES),
                            tables=[self.summary(code) for code in self.tables]))
            return
        if kind == "ping":
            conn.send(frame("pong"))
            return
        if kind == "open":
            codes = self.open_tables(message)
            conn.send(frame("opened", codes=codes))
            return
        table = self.tables.get(normal_code(message["code"]))
        if table is None:
            raise ValueError(f"{kind}: no table has the code {message['code']!r}")
        if kind == "log":
            conn.send(frame("log", code=table.code, lines=table.public_log()))
        elif kind == "start":
            self.commit(table, table.start_entry())
        elif kind == "deal":
            self.commit(table, table.deal_entry(secrets.randbits(62)))
        elif kind == "settings":
            self.commit(table, table.settings_entry(chances=message.get("chances"), clock=message.get("clock"),
                                                    pause=message.get("pause")))
        elif kind == "seat":
            entry = table.seat_entry(message["seat"], message["kind"])
            self.commit(table, entry)
            for conn_there in list(self.seated[table.code].pop(message["seat"], ())):
                conn_there.place = None  # the seat's token is void: tell its screens so
                conn_there.send(frame("unseated", reason="your teacher gave your seat to someone else"))

    def summary(self, code: str) -> dict:
        return self.tables[code].summary(self.connected(code), self._clock_left(code))

    def _tell_teachers(self) -> None:
        self._flush = None
        dirty, self._dirty = self._dirty, set()
        for code in dirty:
            text = frame("table", table=self.summary(code))
            for conn in list(self.teachers):
                conn.send(text)

    def forget(self, conn) -> None:
        self.teachers.discard(conn)
        self.leave(conn)

    def game_lines(self) -> list[str]:
        """Every game played at every table, one JSON line each (:meth:`.table.ClassTable.game_lines`)."""
        return [line for table in self.tables.values() for line in table.game_lines()]

