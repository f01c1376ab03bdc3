"""The round robin of the class tournament: who plays whom, the tables played, the leaderboard.

The tournament's host side (with :mod:`.table`, one table's games, and :mod:`.seat`, the host's
end of an entry's pipe); what runs in an entry's process is :mod:`.entry`. The guarantees are
in the package's docstring (:mod:`gofish_teach.tournament`).

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "ana.py").write_text("def strategy(view, rng):\\n    return view.legal_asks()[0]\\n")
>>> result = run_tournament(folder, "pond", players=2, games=2, builtins=["random"], seed=1, sandbox="off")
>>> [(e.name, e.games, e.status) for e in result.entrants]
[('ana', 2, 'ok'), ('random', 2, 'ok')]
"""
from __future__ import annotations

import importlib
import itertools
import math
import numbers
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .. import trust
from ..executors import as_executor, as_finished
from ..rules import Rules
from . import forkserver
from .secret import BITS, tournament_secret
from .table import IDLE_ASKS, MAX_ASKS, STOP, Interrupted, play_table

#: Defaults: seconds per decision, memory per entry, the tables played at most.
TIME_LIMIT = 1.0
MEMORY_MB = 1024
MAX_TABLES = 200
#: The built-in strategies that join the tournament by default (greedy is strong but slow).
BUILTINS = ("random", "memory", "most_held")
#: The bounds of the options (checked, with a message naming the option).
MAX_TIME_LIMIT = 600.0
MIN_MEMORY_MB, MAX_MEMORY_MB = 256, 1 << 20
MAX_GAMES = 100_000
#: The largest entry file read.
MAX_ENTRY_BYTES = 1 << 20


class Stopped(Exception):
    """The tournament was stopped (Ctrl-C) before every table was played: no leaderboard."""


# --------------------------------------------------------------------------- entrants
@dataclass
class Entrant:
    """One player of the tournament and its record (a k-way tie counts 1/k)."""

    name: str
    kind: str  # "learner" or "builtin"
    path: Path | None = None
    games: int = 0
    wins: float = 0.0
    status: str = "ok"  # or the Forfeit kind
    reason: str = ""
    failed_at: tuple = field(default=(), repr=False)  # (table, game, ask) of the first failure seen
    source: bytes = field(default=b"", repr=False)  # a learner's file, read once as a plain file

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        from ..stats import wilson_interval

        return wilson_interval(self.wins, self.games, confidence) if self.games else (0.0, 1.0)


# --------------------------------------------------------------------------- the round robin
def find_entries(folder, notes: list | None = None) -> list[Entrant]:
    """One :class:`Entrant` per ``.py`` file in ``folder``, each read once as a plain file.

    A ``.py`` name that is not a plain file (a link, a named pipe, a folder, a device) or is larger
    than :data:`MAX_ENTRY_BYTES` is skipped, never opened through a link, with a sentence naming
    it added to ``notes``. Names starting with ``.`` or ``_`` are helpers, not entries. An entry's
    name is its file's, as the class sees it (NFKC, no invisible characters or spaces at its
    edges); one that then prints like another entry's, or like a built-in's label (``... (built-in)``),
    is skipped with a note (:func:`gofish_teach.trust.distinct_names`), so no two rows look alike.
    """
    folder = Path(folder)
    notes = notes if notes is not None else []
    if not folder.is_dir():
        raise ValueError(f"STRATEGIES_DIR: {folder} is not a folder")
    entrants = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".py") or name.startswith((".", "_")):
            continue
        path = folder / name
        try:
            source = trust.read_plain(path, MAX_ENTRY_BYTES)
        except OSError as e:
            notes.append(f"skipped {name}: {e}" if isinstance(e, trust.NotPlain)
                         else f"skipped {name}: it cannot be read ({e.strerror or type(e).__name__})")
            continue
        entrants.append(Entrant(path.stem, "learner", path.absolute(), source=source))
    kept = []
    for e, (shown, why) in zip(entrants, trust.distinct_names([e.name for e in entrants], _builtin_label), strict=True):
        if why:
            notes.append(f'skipped "{e.path.name}": {why}; rename it to enter it')
        else:
            e.name = shown
            kept.append(e)
    return kept


def _builtin_label(shown: str) -> str:
    """Why a learner's name cannot be ``shown``: it looks like a built-in's label, ``memory (built-in)``."""
    if "".join(shown.casefold().split()).endswith("(built-in)"):
        return 'a built-in\'s label (a name ending in "(built-in)" is kept for the built-in strategies)'
    return ""


def schedule(n_entrants: int, players: int, max_tables: int = MAX_TABLES, seed: int = 0) -> list[tuple[int, ...]]:
    """The tables: every group of ``players`` entrants, or ``max_tables`` groups seating each about equally often.

    >>> schedule(5, 4)
    [(0, 1, 2, 3), (0, 1, 2, 4), (0, 1, 3, 4), (0, 2, 3, 4), (1, 2, 3, 4)]
    >>> tables = schedule(20, 4, max_tables=10, seed=0)
    >>> len(tables), sorted(set(np.bincount([e for t in tables for e in t]).tolist()))   # each seated twice
    (10, [2])
    """
    if n_entrants < players:
        raise ValueError(f"players: a table of {players} needs at least {players} entrants (learners' files plus "
                         f"built-ins), but there are {n_entrants}")
    if max_tables < 1:
        raise ValueError(f"max_tables must be at least 1, not {max_tables!r}")
    if _comb(n_entrants, players) <= max_tables:
        return list(itertools.combinations(range(n_entrants), players))
    rng = np.random.default_rng(seed)
    seated = np.zeros(n_entrants, int)
    tables, seen = [], set()
    while len(tables) < max_tables:
        # the least seated first, random among equals
        order = sorted(range(n_entrants), key=lambda e: (seated[e], rng.random()))
        table = tuple(sorted(order[:players]))
        if table in seen:
            table = tuple(sorted(rng.choice(n_entrants, players, replace=False).tolist()))
            if table in seen:
                continue
        seen.add(table)
        tables.append(table)
        seated[list(table)] += 1
    return tables


def _comb(n, k):
    from math import comb

    return comb(n, k)


@dataclass
class TournamentResult:
    rules: Rules
    players: int
    games_per_table: int
    seed: int  # the tournament's secret (:mod:`.secret`): the teacher's to keep, never on the leaderboard
    entrants: list[Entrant]
    tables: list[tuple[int, ...]]
    stopped: int = 0  # games stopped at MAX_ASKS, or after IDLE_ASKS asks in a row that moved no card
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def ranking(self) -> list[Entrant]:
        """Entrants by win share, best first; disqualified ones last."""
        return sorted(self.entrants, key=lambda e: (e.status != "ok", -e.share, e.name))

    def leaderboard(self) -> str:
        from ..stats import text_table

        # Learners' text (names, forfeit reasons quoting their exceptions, file names) is shown, never
        # obeyed by the terminal: each line and cell through trust.terminal.
        say = trust.terminal
        rows = []
        rank = 0
        for e in self.ranking():
            low, high = e.interval()
            if e.status == "ok":
                rank += 1
                rows.append([rank, say(e.name), e.kind, e.games, f"{e.share:.3f}", f"[{low:.3f}, {high:.3f}]", ""])
            else:
                rows.append(["-", say(e.name), e.kind, e.games, f"{0:.3f}", "", f"forfeited ({say(e.status)})"])
        table = text_table(["rank", "strategy", "kind", "games", "win share", "95% interval", "note"], rows,
                            right=(3, 4))
        games = len(self.tables) * self.games_per_table
        lines = [f"Class tournament: {self.rules.name} rules, {self.players} players, {len(self.tables)} tables x "
                 f"{self.games_per_table} games ({games:,} games)", table,
                 f"Fair share (1/{self.players}): {1 / self.players:.3f}. A k-way tie counts 1/k; intervals are "
                 "Wilson 95%."]
        for e in self.ranking():
            if e.status != "ok":
                lines.append(say(f"{e.name} forfeits its {e.games} games: {e.reason}"))
        for note in self.notes:
            lines.append(say(f"Not an entry: {note}."))
        if self.stopped:
            lines.append(f"{self.stopped} game(s) passed {MAX_ASKS:,} asks, or {IDLE_ASKS} asks in a row that moved "
                         "no card, and were stopped, won by no one.")
        return "\n".join(lines)

    def plot(self, path=None, ax=None):
        """Win share of every entrant with its interval, and the fair share; saved to ``path`` if given.

        Entrants' names are drawn as typed: ``$...$`` in a name is text, not mathtext.
        """
        import matplotlib

        if path is not None and ax is None:
            matplotlib.use("Agg", force=False)
        with trust.literal_charts():
            return self._plot(path, ax)

    def _plot(self, path, ax):
        import matplotlib.pyplot as plt

        ranking = self.ranking()
        if ax is None:
            _, ax = plt.subplots(figsize=(7, 0.4 * len(ranking) + 1.5))
        y = np.arange(len(ranking))[::-1]
        shares = np.array([e.share if e.status == "ok" else 0.0 for e in ranking])
        bounds = np.array([e.interval() if e.status == "ok" else (0.0, 0.0) for e in ranking])
        err = np.clip(np.array([shares - bounds[:, 0], bounds[:, 1] - shares]), 0, None)  # rounding at 0 and 1
        ok = np.array([e.status == "ok" for e in ranking])
        ax.errorbar(shares[ok], y[ok], xerr=err[:, ok], fmt="o", capsize=4)
        if not ok.all():
            ax.plot(shares[~ok], y[~ok], "x", color="tab:red", label="forfeited")
        ax.axvline(1 / self.players, linestyle="--", color="grey", label=f"fair share 1/{self.players}")
        labels = [e.name + ("" if e.status == "ok" else f" (forfeited: {e.status})") for e in ranking]
        ax.set_yticks(y, labels)
        ax.set_xlabel("win share (95% interval)")
        ax.set_title(f"Class tournament: {self.rules.name}, {self.players} players, "
                     f"{len(self.tables) * self.games_per_table:,} games")
        ax.legend(loc="best")
        if path is not None:
            ax.figure.tight_layout()
            ax.figure.savefig(path, dpi=120)
            plt.close(ax.figure)
        return ax


def run_tournament(folder, rules="pond", *, players: int = 4, games: int = 10, builtins=BUILTINS,
                   time_limit: float = TIME_LIMIT, memory_mb: int | None = MEMORY_MB, seed: int | None = None,
                   max_tables: int = MAX_TABLES, sandbox: str = "require", jobs: int | None = None,
                   executor=None, progress: bool | str = False, log=None, secret: int | None = None) -> TournamentResult:
    """Play the round robin; returns every entrant's record (see the module's docstring).

    Its decks and seats are drawn from a secret (:mod:`.secret`): a fresh one, or ``seed`` mixed with
    this account's key (the same ``seed`` repeats a tournament on this account), or ``secret``, a
    result's own (``result.seed``) to play it again anywhere. No entry can know or guess it.
    ``sandbox`` is ``"require"`` (bubblewrap, or :class:`~gofish_teach.trust.SandboxUnavailable`
    with how to install it, before any entry runs) or ``"off"`` (:mod:`gofish_teach.trust`;
    ``"auto"`` means ``"require"``). ``memory_mb=None`` sets no memory limit.
    ``jobs`` tables play at once (default: two per core; an entry mostly waits for its turn).
    ``executor`` plays the tables elsewhere instead: a Dask ``distributed.Client`` (each table
    is a task on its cluster, and its entries run sandboxed on the worker that plays it) or any
    ``concurrent.futures.Executor``. There too, a worker without bubblewrap stops the
    tournament with :class:`~gofish_teach.trust.SandboxUnavailable` (unless ``"off"``). A table depends only on the seed and its
    entrants, so the records are the same wherever the tables play; a lost worker's tables are
    played again on another, and with no worker left the run stops with
    :class:`~gofish_teach.simulate.NoWorkers`. ``progress`` shows a progress bar (a string labels it).
    Ctrl-C stops the run at once: every entry's sandbox is killed and :class:`Stopped` raised.
    Every argument is checked first, with a ``ValueError`` naming it (and its option).
    """
    plan = plan_tournament(folder, rules, players=players, games=games, builtins=builtins, time_limit=time_limit,
                           memory_mb=memory_mb, seed=seed, max_tables=max_tables, sandbox=sandbox, jobs=jobs,
                           elsewhere=executor is not None, log=log, secret=secret)
    return play_tournament(plan, executor, progress)


@dataclass
class Plan:
    """A tournament checked and drawn up, not played yet: its result to fill, and one job per table."""

    result: TournamentResult
    jobs: list[dict]  # one per table, what play_table takes
    threads: int  # tables played at once in this process (--jobs), when not on a cluster


def plan_tournament(folder, rules="pond", *, players: int = 4, games: int = 10, builtins=BUILTINS,
                    time_limit: float = TIME_LIMIT, memory_mb: int | None = MEMORY_MB, seed: int | None = None,
                    max_tables: int = MAX_TABLES, sandbox: str = "require", jobs: int | None = None,
                    elsewhere: bool = False, log=None, secret: int | None = None) -> Plan:
    """Check every argument of :func:`run_tournament` (a ``ValueError`` naming it), read the entries and
    draw up the tables, each a job :func:`play_table` plays (``elsewhere``: not in this process)."""
    from ..strategies import get_strategy

    rules = rules if isinstance(rules, Rules) else Rules.preset(rules)
    players = _whole("players", players, 2, 99)
    rules.check_players(players)
    games = _whole("games", games, 1, MAX_GAMES)
    max_tables = _whole("max_tables", max_tables, 1, 1_000_000)
    time_limit = _seconds("time_limit", time_limit)
    if memory_mb is not None:
        memory_mb = _whole("memory_mb", memory_mb, MIN_MEMORY_MB, MAX_MEMORY_MB)
    if seed is not None:
        seed = _whole("seed", seed, 0, 2**63 - 1)
    if secret is not None:
        secret = _whole("secret", secret, 0, 2**BITS - 1)
    if jobs is not None and elsewhere:
        raise ValueError("--jobs (jobs) and --scheduler (executor): give one (a cluster plays as many tables at "
                         "once as its workers have threads)")
    jobs = _whole("jobs", jobs, 1, 64) if jobs is not None else min(8, 2 * (os.cpu_count() or 1))
    if sandbox not in trust.MODES:
        raise ValueError(f"--sandbox (sandbox) must be one of {', '.join(trust.MODES)}, not {sandbox!r}")
    if isinstance(builtins, str):
        raise ValueError(f"builtins must be a list of strategy names, not the string {builtins!r}")
    builtins = list(builtins)
    for name in builtins:
        get_strategy(name)  # a ValueError naming the choices if unknown
    notes: list[str] = []
    entrants = find_entries(folder, notes)
    if not entrants:
        raise ValueError(f"STRATEGIES_DIR: {folder} holds no .py files (one per learner, each defining "
                         "strategy(view, rng))" + "".join(f"; {trust.terminal(note)}" for note in notes))
    # Before any entry runs: without bwrap, refused here (unless off). Elsewhere, each worker checks too.
    if elsewhere:
        sandbox = "off" if sandbox == "off" else "require"
    else:
        sandbox = "require" if trust.resolve_sandbox(sandbox, log=log) else "off"
    names = {e.name for e in entrants}
    builtin = {name if name not in names else f"{name} (built-in)": name for name in builtins}
    # Read once: every table gets the same text, wherever it is played (no shared folder needed).
    seats = [("learner", e.path.name, e.source) for e in entrants] + [("builtin", s) for s in builtin.values()]
    entrants += [Entrant(name, "builtin") for name in builtin]
    # An entry that could know or guess what the decks are drawn from could work them out: a secret (.secret).
    seed = tournament_secret(seed) if secret is None else secret
    tables = schedule(len(entrants), players, max_tables, seed)
    result = TournamentResult(rules, players, games, seed, entrants, tables, notes=notes)
    table_jobs = [dict(rules=rules, seed=seed, table=t, games=games, seats=[seats[i] for i in table],
                       time_limit=time_limit, memory_mb=memory_mb, sandbox=sandbox)
                  for t, table in enumerate(tables)]
    return Plan(result, table_jobs, jobs)


def play_tournament(plan: Plan, executor=None, progress: bool | str = False) -> TournamentResult:
    """Play every table of ``plan`` (in this process's threads, or on ``executor``) and fill in its result.

    The tables' records are added up in table order once all are in, so the result is the same
    however the tables were shared out and whichever finished first. Ctrl-C stops it at once:
    every entry's sandbox here is killed, every table here stops at its next ask, the tables not
    started are cancelled, and :class:`Stopped` says how far it got.
    """
    # The module, by its full name: the package's attribute ``simulate`` is the function (its public face).
    simulate = importlib.import_module("gofish_teach.simulate")

    result = plan.result
    executor = as_executor(executor)
    label = progress if isinstance(progress, str) else "tournament"
    bar = simulate.progress_bar(len(plan.jobs) * result.games_per_table, label) if progress else simulate.NoBar()
    calls = ((t, play_table, (job,)) for t, job in enumerate(plan.jobs))
    records = [None] * len(plan.jobs)
    # Here: a pool of threads (bwrap dies with the thread that started it, and these outlive every table).
    pool = ThreadPoolExecutor(max_workers=plan.threads) if executor is None else executor
    STOP.clear()
    trust.resume()
    start = time.monotonic()
    try:
        for t, record in as_finished(pool, calls, plan.threads if executor is None else 0):
            records[t] = record
            bar.update(result.games_per_table)  # a table at a time, as each comes back
    except (KeyboardInterrupt, Interrupted):
        STOP.set()
        killed = trust.interrupt()
        if executor is None:
            pool.shutdown(wait=False, cancel_futures=True)
            forkserver.close_server()
        done = sum(r is not None for r in records)
        raise Stopped(f"stopped ({trust.stop_word()}) after {done} of {len(records)} tables, in "
                      f"{time.monotonic() - start:.1f} s: no leaderboard; {killed} entry process(es) were killed") from None
    finally:
        bar.close()
    if executor is None:
        pool.shutdown()
        forkserver.close_server()  # the entries' fork server of this process (a worker keeps its own)
    for t, record in enumerate(records):
        _add_table(result, t, record)
    for e in result.entrants:
        if e.status != "ok":
            e.wins = 0.0
    result.seconds = time.monotonic() - start
    return result


def _add_table(result: TournamentResult, t: int, record: dict) -> None:
    """One table's record (from :func:`play_table`) added to the entrants' records."""
    table = result.tables[t]
    for i, index in enumerate(table):
        result.entrants[index].games += result.games_per_table
        result.entrants[index].wins += record["wins"][i]
    for i, kind, reason, where in record["forfeits"]:
        entrant = result.entrants[table[i]]
        if entrant.status == "ok" or where < entrant.failed_at:  # the earliest failure is the one reported
            entrant.status, entrant.failed_at, entrant.reason = kind, where, reason
    result.stopped += record["stopped"]


def _option(name: str) -> str:
    """How a message names an argument: its option, then the Python name."""
    return f"--{name.replace('_', '-')} ({name})"


def _whole(name: str, value, low: int, high: int) -> int:
    """``value`` as a whole number from ``low`` to ``high``, or a ``ValueError`` naming it.

    >>> _whole("memory_mb", -5, 256, 2**20)
    Traceback (most recent call last):
    ...
    ValueError: --memory-mb (memory_mb) must be a whole number from 256 to 1048576, not -5
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not low <= value <= high:
        raise ValueError(f"{_option(name)} must be a whole number from {low} to {high}, not {value!r}")
    return int(value)


def _seconds(name: str, value) -> float:
    """``value`` as a finite, positive number of seconds up to :data:`MAX_TIME_LIMIT`, or a ``ValueError``.

    >>> _seconds("time_limit", float("nan"))
    Traceback (most recent call last):
    ...
    ValueError: --time-limit (time_limit) must be a number of seconds above 0 and at most 600, not nan
    """
    if (isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value)
            or not 0 < value <= MAX_TIME_LIMIT):
        raise ValueError(f"{_option(name)} must be a number of seconds above 0 and at most {MAX_TIME_LIMIT:g}, "
                         f"not {value!r}")
    return float(value)


