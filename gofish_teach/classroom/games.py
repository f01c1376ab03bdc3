"""The class's games as data: the file a teacher downloads from the host, read back for a lesson.

Each line of the file is one game (:data:`~.table.GAME_FORMAT`): the saved game as
:meth:`Game.to_json <gofish_teach.game.Game.to_json>` writes it (rules, deck, every ask), who sat
at each seat (a learner's name, or a bot's strategy), who made each ask ("learner", "clock" or
the bot's strategy), and whether it finished. :func:`load_games` replays every game through the
engine (a line that does not replay is set aside with its reason, never half-read) and gives:

- :meth:`ClassGames.results`: the games as the :class:`~gofish_teach.simulate.Results` that
  ``simulate`` gives, one lineup entry per seat's role ("learner" or a strategy), so
  ``win_share``, ``game_length`` and their plots read them as they read a tournament;
- :meth:`ClassGames.seats`: one row per seat of each game (who, books, win share, and how often
  it asked who asked before when it could);
- :meth:`ClassGames.asks`: one row per ask, from the asker's view just before it.

Without a path, the bundled sample (:mod:`.sample`): simulated learners, not a real class, and
everything made from it says so.

>>> sample = load_games()
>>> sample.simulated, len(sample) > 100
(True, True)
>>> from gofish_teach.stats import win_share
>>> [row.label for row in win_share(sample.results(), by="strategy").rows]
['learner', 'memory', 'random']
"""
from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from .. import Game, Give
from ..simulate import Results
from .table import GAME_FORMAT

#: The bundled sample of simulated play (package data, made by ``python -m gofish_teach.classroom.sample``).
SAMPLE = "sample-class.jsonl.gz"
#: The longest line read (a game of 10,000 asks saves in under 200,000 characters) and the most lines.
MAX_LINE, MAX_GAMES = 1_000_000, 100_000
LABEL = "SIMULATED PLAY: the bundled sample (simulated learners), not a real class's games"


@dataclass(frozen=True)
class ClassGame:
    """One game of the class: where and when it was played, who sat where and who asked, and the game itself."""

    table: str
    number: int
    label: str
    game: Game
    seats: tuple
    by: tuple
    simulated: bool

    @property
    def roles(self) -> tuple[str, ...]:
        """Each seat's role: "learner", or the bot's strategy."""
        return tuple("learner" if s["kind"] == "learner" else s["strategy"] for s in self.seats)


def read_line(text: str) -> ClassGame:
    """One line of the file as a :class:`ClassGame`; ``ValueError`` naming what is wrong."""
    if len(text) > MAX_LINE:
        raise ValueError(f"longer than {MAX_LINE:,} characters")
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("format") != GAME_FORMAT:
        raise ValueError(f"not a game of the class (format {GAME_FORMAT!r})")
    game = Game.from_json(json.dumps(data["saved"]))  # every ask replayed, checked by the rules
    seats, by = data["seats"], data["by"]
    if not isinstance(seats, list) or len(seats) != game.n_players:
        raise ValueError(f"'seats' must list the game's {game.n_players} seats")
    for seat in seats:
        if not isinstance(seat, dict) or seat.get("kind") not in ("learner", "bot") or (
                seat["kind"] == "bot" and not isinstance(seat.get("strategy"), str)):
            raise ValueError(f"a seat must be a learner or a bot with its strategy, not {str(seat)[:60]}")
    if not isinstance(by, list) or len(by) != game.n_asks or not all(isinstance(b, str) for b in by):
        raise ValueError(f"'by' must name who made each of the game's {game.n_asks} asks")
    return ClassGame(str(data["table"]), int(data["game"]), str(data.get("label", "")), game, tuple(seats),
                     tuple(by), bool(data.get("simulated", False)))


def load_games(path=None, *, unfinished: bool = False) -> "ClassGames":
    """The class's games from ``path`` (the file the teacher downloaded; ``.gz`` too), or the bundled sample
    of simulated play when ``path`` is None. Unfinished games are left out unless ``unfinished=True``."""
    if path is None:
        source, opener = "the bundled sample", resources.files(__package__).joinpath(SAMPLE).open
        with opener("rb") as raw:
            lines = gzip.decompress(raw.read()).decode("utf-8").splitlines()
    else:
        source = str(path)
        data = Path(path).read_bytes()
        lines = (gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data).decode("utf-8").splitlines()
    if len(lines) > MAX_GAMES:
        raise ValueError(f"{source}: more than {MAX_GAMES:,} games")
    games, problems = [], []
    for k, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            played = read_line(line)
        except (ValueError, KeyError, TypeError) as e:
            problems.append(f"line {k}: {e}")
            continue
        if played.game.is_over or unfinished:
            games.append(played)
    return ClassGames(games, source, problems)


class ClassGames:
    """The games of a class (a list of :class:`ClassGame`), with the tables the lessons read."""

    def __init__(self, games, source: str = "", problems=()):
        self.games, self.source, self.problems = list(games), source, list(problems)
        self.simulated = bool(self.games) and all(g.simulated for g in self.games)

    def __len__(self) -> int:
        return len(self.games)

    def __iter__(self):
        return iter(self.games)

    def __getitem__(self, k):
        return self.games[k]

    def where(self, *, rules: str | None = None, players: int | None = None) -> "ClassGames":
        """The games under the rule set named ``rules`` and/or with ``players`` seats."""
        kept = [g for g in self.games if (rules is None or g.game.rules.name == rules)
                and (players is None or g.game.n_players == players)]
        return ClassGames(kept, self.source, self.problems)

    def groups(self) -> list["ClassGames"]:
        """The games split by set-up (rules, seats and who sat at them), the largest group first: each
        group reads into one :meth:`results` (a class's file may mix tables of several set-ups)."""
        kinds: dict[tuple, list] = {}
        for g in self.games:
            kinds.setdefault((g.game.rules, g.game.n_players, tuple(sorted(g.roles))), []).append(g)
        return [ClassGames(found, self.source, self.problems)
                for found in sorted(kinds.values(), key=len, reverse=True)]

    def label(self) -> str:
        """What these games are: said first whenever they are shown."""
        what = LABEL if self.simulated else f"the class's games from {self.source}"
        set_aside = f"; {len(self.problems)} line(s) set aside" if self.problems else ""
        return f"{len(self):,} games, {what}{set_aside}"

    def __repr__(self) -> str:
        return f"<ClassGames: {self.label()}>"

    def results(self) -> Results:
        """The games as ``simulate`` gives a tournament: one lineup entry per role at the table.

        Every game must have the same rules, number of seats and roles (e.g. two learners, a memory
        bot and a random bot, in any seats); :meth:`where` picks such a group. ``seat_entry`` says which
        entry sat in each seat of each game (equal roles in seat order); ``seed`` is 0 (the decks were
        dealt by the host, not from one seed), so a paired test against a simulated run means nothing.
        """
        if not self.games:
            raise ValueError("no games to read")
        first = self.games[0]
        lineup = tuple(sorted(first.roles))
        for g in self.games:
            if (g.game.rules, g.game.n_players, tuple(sorted(g.roles))) != (first.game.rules, first.game.n_players, lineup):
                raise ValueError(f"results: the games differ in rules, seats or who sat at them (table {g.table}, game "
                                 f"{g.number}: {', '.join(g.roles)}); pick a group with .where(rules=..., players=...)")
        n, count = first.game.n_players, len(self.games)
        seat_entry = np.zeros((count, n), np.int64)
        for k, g in enumerate(self.games):
            free = list(range(n))
            for seat, role in enumerate(g.roles):
                entry = next(e for e in free if lineup[e] == role)
                free.remove(entry)
                seat_entry[k, seat] = entry
        winners = np.zeros((count, n), bool)
        for k, g in enumerate(self.games):
            winners[k, list(g.game.winners)] = True
        return Results(lineup=lineup, rules=first.game.rules, n_players=n, seed=0, winners=winners,
                       books=np.array([g.game.book_counts for g in self.games], np.int16),
                       asks=np.array([g.game.n_asks for g in self.games], np.int32),
                       first=np.zeros(count, np.int8), offset=np.zeros(count, np.int64), seat_entry=seat_entry,
                       engine="class")

    def asks(self) -> "Columns":
        """One row per ask, read from the asker's view just before it: ``game`` (index), ``seat``, ``role``,
        ``who`` (a learner's name or a strategy), ``by`` ("learner", "clock" or a strategy), ``could``
        (some opponent had shown a rank the asker held, and could still hold it: "ask who asked before"
        was possible), ``remembered`` (the ask went to an opponent who had shown that rank), ``biggest``
        (the rank asked for was one the asker held most of: "build on your pairs") and ``got`` (cards
        were handed over)."""
        rows = {k: [] for k in ("game", "seat", "role", "who", "by", "could", "remembered", "biggest", "got")}
        for index, played in enumerate(self.games):
            game = played.game
            replay = Game(game.rules, game.n_players, deck=game.deck)
            for move, by in zip(game.moves, played.by, strict=True):
                seat = replay.current_player
                view = replay.view(seat)
                shown, live = view.record.shown, view.record.live
                held = view.counts
                could = any(r in held and live(q, r) for q in view.opponents for r in shown[q])
                target, rank = move[0], move[1]
                answer = replay.ask(*move)[1]  # the Give or the "Go Fish!" after the Ask
                seat_info = played.seats[seat]
                for key, value in (("game", index), ("seat", seat), ("role", played.roles[seat]),
                                   ("who", seat_info.get("name") or seat_info.get("strategy")), ("by", by),
                                   ("could", could), ("remembered", rank in shown[target]),
                                   ("biggest", held.get(rank, 0) == max(held.values(), default=0)),
                                   ("got", isinstance(answer, Give))):
                    rows[key].append(value)
        return Columns(rows)

    def seats(self) -> "Columns":
        """One row per seat of each game: ``game``, ``table``, ``seat``, ``role``, ``who``, ``books``, ``share``
        (1 for a win, 1/k for a k-way tie, else 0), ``asks`` made, and of them ``could`` (asks where
        "ask who asked before" was possible), ``remembered`` (of those, asks that did), ``other`` (asks
        where it was not possible) and ``biggest`` (of those, asks for a rank it held most of): a
        seat's own asks only (an ask the turn clock made for a learner is not theirs)."""
        asks = self.asks()
        key = list(zip(asks["game"].tolist(), asks["seat"].tolist(), strict=True))
        own = asks["by"] == np.where(asks["role"] == "learner", "learner", asks["role"])
        names = ("game", "table", "seat", "role", "who", "books", "share", "asks", "could", "remembered", "other",
                 "biggest")
        rows = {k: [] for k in names}
        counts: dict[tuple, list] = {}
        for (g, s), mine, could, remembered, biggest in zip(key, own, asks["could"], asks["remembered"],
                                                            asks["biggest"], strict=True):
            tally = counts.setdefault((g, s), [0, 0, 0, 0, 0])
            if mine:
                tally[0] += 1
                tally[1] += bool(could)
                tally[2] += bool(could and remembered)
                tally[3] += not could
                tally[4] += bool(not could and biggest)
        for index, played in enumerate(self.games):
            game = played.game
            for seat in range(game.n_players):
                made, could, remembered, other, biggest = counts.get((index, seat), (0, 0, 0, 0, 0))
                values = (index, played.table, seat, played.roles[seat],
                          played.seats[seat].get("name") or played.seats[seat].get("strategy"),
                          game.book_counts[seat], (seat in game.winners) / len(game.winners), made, could, remembered,
                          other, biggest)
                for k, value in zip(rows, values, strict=True):
                    rows[k].append(value)
        return Columns(rows)


class Columns:
    """A small table: named columns of equal length as numpy arrays (``t["share"]``), rows picked with ``t.where(mask)``.

    >>> t = Columns({"who": ["Ann", "memory"], "share": [1.0, 0.0]})
    >>> float(t["share"].sum()), len(t.where(t["who"] == "Ann"))
    (1.0, 1)
    """

    def __init__(self, columns: dict):
        self.columns = {k: np.asarray(v) for k, v in columns.items()}

    def __getitem__(self, name: str) -> np.ndarray:
        return self.columns[name]

    def __len__(self) -> int:
        return len(next(iter(self.columns.values()))) if self.columns else 0

    def where(self, mask) -> "Columns":
        return Columns({k: v[np.asarray(mask)] for k, v in self.columns.items()})

    def __repr__(self) -> str:
        head = list(self.columns)
        rows = [[str(self.columns[k][i]) for k in head] for i in range(min(len(self), 8))]
        widths = [max(len(h), *(len(r[j]) for r in rows)) if rows else len(h) for j, h in enumerate(head)]
        lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True))]
        lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
        more = f"\n... {len(self) - 8:,} more rows" if len(self) > 8 else ""
        return "\n".join(lines) + more

