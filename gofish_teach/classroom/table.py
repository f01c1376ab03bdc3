"""One class table: seats for learners and bots around the kit's :class:`~gofish_teach.match.Match`,
the entries that change it, and what each seat is sent.

Everything that happens at a table is an entry (:mod:`.storage` keeps them): ``game`` (a deal,
from its seed), ``start``, ``join`` (a learner takes a seat), ``seat`` (the teacher hands a seat
to a bot, or opens it for a learner), ``settings`` and ``ask``. :meth:`ClassTable.apply` is the
one place an entry changes a table, live and when a restarted host replays the store, so the
two cannot drift apart. The methods that check a request (:meth:`~ClassTable.join_entry`,
:meth:`~ClassTable.ask_entry`, ...) raise ``ValueError`` naming the problem, or return the
entry to store and apply; they change nothing.

Every seat is a person's to the ``Match`` (its lineup is all ``None``): who sits there is this
table's business, so a seat can pass from a learner to a bot in mid-game without a new match.
A bot's ask is drawn from a generator seeded by (the deal's seed, its seat, the asks made), so
it is the same whenever it is computed and nothing about generators needs storing.

>>> table = ClassTable("K7QM-3XPA", table_config({"rules": "pond", "seats": ["learner", "memory"]}))
>>> table.apply(*table.deal_entry(seed=7)); table.apply(*table.join_entry("Ann", "digest-of-token"))
[]
[]
>>> table.started, table.names()
(True, ['Ann', 'memory bot'])
>>> frame = table.seat_frame(0, 0)
>>> frame["hand"], frame["legal"][:2]
(['3♥', '5♣', '7♣', '7♥', 'K♦'], [[1, '3'], [1, '5']])
>>> table.ask_entry(1, 1, "2", None)
Traceback (most recent call last):
...
ValueError: it is Ann's turn, not memory bot's
>>> events = table.apply(*table.ask_entry(0, 1, "3", None))
>>> [e.describe(table.names()) for e in events][:2]
['Ann asks memory bot for 3s.', 'memory bot says "Go Fish!"']
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from .. import PRESETS, Rules, get_strategy
from ..match import Match
from .codes import clean_name
from .protocol import event_data

#: The bots a teacher can seat (the kit's built-in strategies).
BOT_STRATEGIES = ("random", "memory", "most_held", "greedy")
#: Bots whose decision takes long enough to run away from the host's loop (an exact count).
SLOW_STRATEGIES = ("greedy",)
#: Who asks for a learner whose turn clock ran out: an ask at random, so the clock helps nobody.
CLOCK_STRATEGY = "random"
#: The format of a line of the class's games (:meth:`ClassTable.game_lines`).
GAME_FORMAT = "gofish-teach/class-game/1"
#: Recent public log lines in the teacher's summary of a table.
RECENT = 8


class StoreMismatch(RuntimeError):
    """A stored ask does not replay to the events that were sent: the store and the code disagree."""


@dataclass
class Seat:
    """Who sits at a seat: ``kind`` "learner" (``name`` and ``token`` once taken) or "bot" (``strategy``)."""

    kind: str
    strategy: str | None = None
    name: str | None = None
    token: str | None = None

    @property
    def open(self) -> bool:
        return self.kind == "learner" and self.token is None


@dataclass
class Played:
    """One game at a table: its number, seed, the live game, who made each ask, and the seats at its end."""

    number: int
    seed: int
    match: Match
    by: list
    seats: list | None = None


def seat_kind(kind: str) -> Seat:
    if kind == "learner":
        return Seat("learner")
    if kind in BOT_STRATEGIES:
        return Seat("bot", kind)
    raise ValueError(f"seat: {kind!r} is neither 'learner' nor a bot ({', '.join(BOT_STRATEGIES)})")


def table_config(message: dict) -> dict:
    """A table's set-up from the teacher's ``open`` message, checked: a ``ValueError`` names what is wrong.

    >>> table_config({"rules": "family", "seats": ["learner", "learner", "random"], "bluff": True})["rules"]["bluff"]
    True
    >>> table_config({"rules": "pond", "seats": ["memory", "random"]})
    Traceback (most recent call last):
    ...
    ValueError: seats: a class table needs at least one learner's seat
    """
    if message.get("rules") not in PRESETS:
        raise ValueError(f"rules: {message.get('rules')!r} is not a rule set: choose one of {', '.join(PRESETS)}")
    changes = {k: message[k] for k in ("book_size", "bluff", "specific_card", "teams", "n_ranks", "hand_size")
               if k in message}
    rules = Rules.preset(message["rules"]).replace(**changes)
    seats = list(message["seats"])
    for kind in seats:
        seat_kind(kind)
    rules.check_players(len(seats))
    if "learner" not in seats:
        raise ValueError("seats: a class table needs at least one learner's seat")
    chances = bool(message.get("chances", True))
    if chances and rules.specific_card:
        raise ValueError("chances: the chances panel is about ranks, and specific-card asks are about single cards: "
                         "turn it off for this variant")
    return {"rules": rules.to_dict(), "seats": seats, "chances": chances, "clock": int(message.get("clock", 0)),
            "pause": float(message.get("pause", 1.0)), "label": message.get("label", "")}


def bot_seed(seed: int, seat: int, asks: int) -> list[int]:
    """The seed of a bot's generator for one decision: the deal, the seat and the asks made so far."""
    return [seed, seat, asks]


def bot_choice(strategy: str, view, seed) -> tuple:
    """What ``strategy`` asks from ``view``: ``(target, rank)`` or ``(target, rank, suit)``.
    A top-level function, so a slow strategy's decision can run in a worker process."""
    move = get_strategy(strategy)(view, np.random.default_rng(seed))
    return tuple(move)


class ClassTable:
    """A table of the class: its set-up, its seats, the games played there and the one being played."""

    def __init__(self, code: str, config: dict, opened: float = 0.0):
        self.code, self.config, self.opened = code, config, opened
        self.rules = Rules.from_dict(config["rules"])
        self.seats = [seat_kind(kind) for kind in config["seats"]]
        self.chances, self.clock, self.pause = config["chances"], config["clock"], config["pause"]
        self.label = config.get("label", "")
        self.started = False
        self.games: list[Played] = []
        self._summary = None  # rules_summary, made once (the rules cannot change)

    # ------------------------------------------------------------------ reading
    @property
    def n(self) -> int:
        return len(self.seats)

    @property
    def played(self) -> Played | None:
        return self.games[-1] if self.games else None

    @property
    def game(self):
        return self.games[-1].match.game

    def names(self) -> list[str]:
        """Each seat's name as shown: a learner's, "Seat k (open)", or the bot's strategy."""
        names, bots = [], {}
        for s, seat in enumerate(self.seats):
            if seat.kind == "bot":
                bots[seat.strategy] = bots.get(seat.strategy, 0) + 1
                count = bots[seat.strategy]
                names.append(f"{seat.strategy} bot" + (f" {count}" if count > 1 else ""))
            else:
                names.append(seat.name if seat.name else f"Seat {s + 1} (open)")
        return names

    def open_seats(self) -> list[int]:
        return [s for s, seat in enumerate(self.seats) if seat.open]

    @property
    def over(self) -> bool:
        return bool(self.games) and self.game.is_over

    def to_move(self) -> int | None:
        """The seat that must ask now, or ``None`` (not started, or over)."""
        if not self.started or not self.games or self.game.is_over:
            return None
        return self.game.current_player

    def bot_to_move(self) -> int | None:
        seat = self.to_move()
        return seat if seat is not None and self.seats[seat].kind == "bot" else None

    def learner_to_move(self) -> int | None:
        seat = self.to_move()
        return seat if seat is not None and self.seats[seat].kind == "learner" else None

    def seat_of(self, token_digest: str) -> int | None:
        for s, seat in enumerate(self.seats):
            if seat.token is not None and seat.token == token_digest:
                return s
        return None

    # ------------------------------------------------------------------ checking requests (nothing changes)
    def deal_entry(self, seed: int) -> tuple[str, dict]:
        if self.games and not self.game.is_over and self.game.n_asks:
            raise ValueError(f"deal: the game at {self.code} is still being played ({self.game.n_asks} asks made)")
        return "game", {"seed": int(seed)}

    def start_entry(self) -> tuple[str, dict]:
        if self.started:
            raise ValueError(f"start: the game at {self.code} has started already")
        return "start", {}

    def join_entry(self, name, token_digest: str) -> tuple[str, dict]:
        name = clean_name(name)
        free = self.open_seats()
        if not free:
            raise ValueError(f"table {self.code} is full: every learner's seat is taken (ask your teacher to open one)")
        taken = {seat.name for seat in self.seats if seat.name} | set(self.names())
        unique, k = name, 2
        while unique in taken:
            unique, k = f"{name} {k}", k + 1
        return "join", {"seat": free[0], "name": unique, "token": token_digest}

    def seat_entry(self, seat: int, kind: str) -> tuple[str, dict]:
        if not 0 <= seat < self.n:
            raise ValueError(f"seat: table {self.code} has seats 0 to {self.n - 1}, not {seat}")
        seat_kind(kind)
        return "seat", {"seat": seat, "kind": kind}

    def settings_entry(self, **settings) -> tuple[str, dict]:
        if settings.get("chances") and self.rules.specific_card:
            raise ValueError("chances: the chances panel is about ranks, and specific-card asks are about single cards")
        return "settings", {k: v for k, v in settings.items() if v is not None}

    def ask_entry(self, seat: int, target: int, rank: str, suit, at: int | None = None, by: str = "learner") -> tuple[str, dict]:
        if not self.games:
            raise ValueError("no game has been dealt at this table yet")
        game = self.game
        if game.is_over:
            raise ValueError("the game is over: wait for your teacher to deal again")
        if not self.started:
            waiting = len(self.open_seats())
            raise ValueError(f"the game has not started: waiting for {waiting} more learner{'s' * (waiting != 1)} "
                             "(or the teacher's Start)")
        if at is not None and at != game.n_asks:
            raise ValueError(f"that ask was made at ask {at}, but the game has moved on to ask {game.n_asks}: look again")
        names = self.names()
        if seat != game.current_player:
            raise ValueError(f"it is {names[game.current_player]}'s turn, not {names[seat]}'s")
        game.check_ask(target, rank, suit, player=seat)  # IllegalMove (a ValueError) names the rule
        return "ask", {"player": seat, "target": target, "rank": rank, "suit": suit, "by": by}

    def bot_ask_entry(self, seat: int, move: tuple, by: str) -> tuple[str, dict]:
        target, rank, *rest = move
        return self.ask_entry(seat, int(target), str(rank), rest[0] if rest else None, by=by)

    def bot_job(self, seat: int, strategy: str) -> tuple:
        """``(strategy, view, seed)`` for :func:`bot_choice`, for the decision due at ``seat``."""
        played = self.played
        return strategy, played.match.game.view(seat), bot_seed(played.seed, seat, played.match.game.n_asks)

    # ------------------------------------------------------------------ the one place a table changes
    def apply(self, kind: str, data: dict) -> list:
        """Apply one entry (live, or replayed from the store); the public events an ask made."""
        if kind == "game":
            match = Match(self.rules, [None] * self.n, seed=data["seed"], names=self.names())
            if self.played is not None and self.played.seats is None:
                self.played.seats = self._seats_now()
            self.games.append(Played(len(self.games) + 1, data["seed"], match, []))
            return []
        if kind == "start":
            self.started = True
            return []
        if kind == "join":
            seat = self.seats[data["seat"]]
            seat.name, seat.token = data["name"], data["token"]
            if not self.started and not self.open_seats():
                self.started = True  # the last learner's seat is taken: play begins
            return []
        if kind == "seat":
            self.seats[data["seat"]] = seat_kind(data["kind"])
            return []
        if kind == "settings":
            for key in ("chances", "clock", "pause"):
                if key in data:
                    setattr(self, key, data[key])
            return []
        if kind == "ask":
            played = self.played
            events = played.match.ask(data["target"], data["rank"], data.get("suit"), player=data["player"])
            played.by.append(data["by"])
            if played.match.game.is_over:
                played.seats = self._seats_now()
            if "events" in data:  # replaying the store: what was sent then must come out again
                again = [_fields(event_data(e, ())) for e in events]
                if again != [_fields(e) for e in data["events"]]:
                    raise StoreMismatch(f"table {self.code}: the stored ask {data['player']} -> {data['target']} for "
                                        f"{data['rank']} replays to other events than the ones sent")
            return events
        raise ValueError(f"unknown entry {kind!r}")

    def stored(self, kind: str, data: dict, events: list) -> dict:
        """The entry as the store keeps it: an ask with the public events it made."""
        if kind != "ask":
            return data
        names = self.names()
        return {**data, "events": [event_data(e, names) for e in events]}

    @classmethod
    def replay(cls, code: str, opened: float, config: dict, entries) -> "ClassTable":
        """The table as its stored entries leave it."""
        table = cls(code, config, opened)
        for kind, data in entries:
            table.apply(kind, data)
        return table

    def _seats_now(self) -> list[dict]:
        names = self.names()
        return [{"kind": seat.kind, "name": names[s], **({"strategy": seat.strategy} if seat.kind == "bot" else {})}
                for s, seat in enumerate(self.seats)]

    # ------------------------------------------------------------------ what is sent
    def rules_summary(self) -> dict:
        if self._summary is not None:
            return self._summary
        rules = self.rules
        variants = [label for flag, label in [(rules.book_size == 2, "pairs"), (rules.bluff, "bluffing"),
                                              (rules.specific_card, "specific cards"), (rules.teams, "teams")] if flag]
        self._summary = {"name": rules.name, "variants": variants, "ranks": list(rules.ranks),
                         "specific_card": rules.specific_card, "teams": rules.teams}
        return self._summary

    def seats_info(self, connected=()) -> list[dict]:
        names = self.names()
        return [{"name": names[s], "kind": seat.kind, "strategy": seat.strategy, "open": seat.open,
                 "connected": s in connected} for s, seat in enumerate(self.seats)]

    def public_frame(self, connected=(), clock=None) -> dict:
        """What every seat's frame shares after a change (made once for all of them): the set-up, the seats."""
        return {"code": self.code, "game": self.played.number, "names": self.names(),
                "seats": self.seats_info(connected), "rules": self.rules_summary(), "started": self.started,
                "asks": self.game.n_asks, "chances": self.chances, "clock": clock}

    def seat_frame(self, seat: int, since: int, connected=(), clock=None, public: dict | None = None) -> dict:
        """Everything ``seat`` is sent after a change: built from its :class:`~gofish_teach.view.View` alone
        (hand, counts, books, the log with only its own cards filled in), plus the table's public set-up
        (:meth:`public_frame`, or ``public`` when the caller made it once for every seat)."""
        public = public or self.public_frame(connected, clock)
        view = self.game.view(seat)
        events = view.events
        since = since if 0 <= since <= len(events) else 0
        names = public["names"]
        my_turn = self.started and not view.is_over and view.current_player == seat
        return {**public, "seat": seat, "from": since, "n": len(events),
                "events": [event_data(e, names) for e in events[since:]],
                "hand": [str(card) for card in view.hand], "hand_sizes": list(view.hand_sizes),
                "books": [list(b) for b in view.books], "ocean": view.ocean_size, "turn": view.current_player,
                "over": view.is_over, "winners": list(view.winners),
                "legal": [list(a) for a in view.legal_asks()] if my_turn else [],
                "partner": self.rules.partner(seat, self.n)}

    def summary(self, connected=(), clock=None) -> dict:
        """The table as the teacher sees it: set-up, seats, the public position and the latest log lines."""
        game, names = self.game, self.names()
        status = ("over" if game.is_over else "playing" if self.started
                  else f"waiting for {len(self.open_seats())} learner(s)")
        return {"code": self.code, "label": self.label, "rules": self.rules_summary(), "game": self.played.number,
                "seats": self.seats_info(connected), "status": status, "started": self.started,
                "hand_sizes": list(game.hand_sizes), "books": [len(b) for b in game.books],
                "ocean": game.ocean_size, "turn": None if game.is_over else game.current_player,
                "asks": game.n_asks, "winners": list(game.winners), "chances": self.chances,
                "clock": self.clock, "pause": self.pause, "deadline": clock,
                "recent": [e.describe(names) for e in game.events[-RECENT:]]}

    def public_log(self) -> list[str]:
        names = self.names()
        return [e.describe(names) for e in self.game.events]

    def game_lines(self) -> list[str]:
        """Each game played here as one line of JSON: the saved game (``Game.to_json``), who sat at each
        seat, who made each ask ("learner", "clock" or the bot's strategy) and whether it finished."""
        lines = []
        for played in self.games:
            game = played.match.game
            record = {"format": GAME_FORMAT, "table": self.code, "label": self.label, "game": played.number,
                      "finished": game.is_over, "simulated": False, "seats": played.seats or self._seats_now(),
                      "by": list(played.by), "saved": json.loads(game.to_json())}
            lines.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
        return lines


def _fields(data: dict) -> dict:
    """An event as sent, less its sentence (names can differ; the facts cannot)."""
    return {k: v for k, v in data.items() if k != "text"}
