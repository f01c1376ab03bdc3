"""The class tournament: ``python -m gofish_teach tournament STRATEGIES_DIR --rules pond --players 4 --games N``.

Every ``.py`` file in ``STRATEGIES_DIR`` is one learner's entry (the capstone exercise, 11):
it defines ``strategy(view, rng) -> (target, rank)`` (or ``my_strategy``). The entries and
some built-in strategies meet in a round robin: every group of ``--players`` entrants sits
at one table (when there are too many groups, a balanced selection of them, each entrant
seated about equally often) and plays ``--games`` games there, seats rotating from game to
game. Game ``g`` is dealt the same deck at every table (common decks: a fairer comparison).

**This runs the learners' code**, so each entry runs, at each table, in a fresh sandbox of
its own (:mod:`gofish_teach.jail`, bubblewrap; ``sandbox="auto"`` uses it when installed,
``"require"`` refuses to run without it): a new process with a new copy of its file, that
sees no other process and no file of the host but what Python needs, and is killed when
the table ends, so nothing it learns at one table reaches the next. It receives only its
``View`` and its seat's random generator (whose seed says nothing of the deck or the game
number), never the tournament's seed (on no command line, in no environment). It is
stopped (``SIGSTOP``) whenever it is not deciding, with a memory limit and a time limit on
every decision, and a process it leaves running after a decision forfeits it. Its answers
come back as JSON on its own pipe, never pickle: an entry cannot run code in the
tournament's process or answer for another entry.

An entry that raises an error, asks illegally (a cheat or a bug: the rules decide), runs
out of time or memory, or leaves a process running is disqualified: it forfeits every game
it plays (0 wins), and it is reported with the reason and where it happened (the earliest
table, game and ask). At each table its seat plays on as the built-in ``random`` strategy
once it breaks a rule there, so the other players' games still count; a game won by a
forfeited seat is won by no one. It still plays as itself at its other tables until it breaks
a rule there too: a table depends only on the seed and its entrants, never on when the other
tables are played, so the same seed gives the same leaderboard however the tables are shared
out, in this process's threads or on a Dask cluster (``executor=``, ``--scheduler``:
:func:`play_table` is what a worker plays).

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "ana.py").write_text("def strategy(view, rng):\\n    return view.legal_asks()[0]\\n")
>>> result = run_tournament(folder, "pond", players=2, games=2, builtins=["random"], seed=1)
>>> [(e.name, e.games, e.status) for e in result.entrants]
[('ana', 2, 'ok'), ('random', 2, 'ok')]
"""
from __future__ import annotations

import contextlib
import inspect
import itertools
import json
import math
import numbers
import os
import pickle
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import jail
from .game import Game, IllegalMove
from .rules import Rules

#: Defaults: seconds per decision, memory per entry, the tables played at most.
TIME_LIMIT = 1.0
MEMORY_MB = 1024
MAX_TABLES = 200
#: A game that passes this many asks is stopped and won by no one.
MAX_ASKS = 5000
#: A game in which this many asks in a row move no card (the ocean is empty and every ask
#: fails: a strategy going round in circles) is stopped and won by no one. Bots never do it.
IDLE_ASKS = 200
#: The built-in strategies that join the tournament by default (greedy is strong but slow).
BUILTINS = ("random", "memory", "most_held")
#: Seconds an entry may take to load (import its file) before its first decision.
START_TIME = 30.0
#: The bounds of the options (checked, with a message naming the option).
MAX_TIME_LIMIT = 600.0
MIN_MEMORY_MB, MAX_MEMORY_MB = 256, 1 << 20
MAX_GAMES = 100_000
#: Longest wait, in seconds, for what ran in a sandbox to end once the sandbox is killed.
CLOSE_WAIT = 5.0
#: The most bytes one answer may take (a move is a few); more is a forfeit, not a full memory.
MAX_ANSWER = 1 << 16
#: How a forfeit is reported: the kinds an entry's own process may claim.
KINDS = ("crash", "illegal", "timeout", "memory", "process")


class Forfeit(Exception):
    """An entry broke a rule of the tournament: ``kind`` is crash, illegal, timeout, memory or process."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


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

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        from .stats import wilson_interval

        return wilson_interval(self.wins, self.games, confidence) if self.games else (0.0, 1.0)


class LearnerPlayer:
    """A learner's entry at one table: a fresh process (in a fresh sandbox) with a fresh copy of its file.

    ``filename`` and ``source`` are the entry's file name and text (sent with the table, so a
    worker of a cluster needs no shared folder); the copy is written in a new folder under
    ``scratch``. ``choose`` asks it for one decision. Between decisions its process is stopped
    (``SIGSTOP``), so it cannot use the processors while others think; after each decision
    no other process may be left running in its sandbox. :meth:`close` kills the sandbox
    and deletes its copy: nothing of it is left for the next table.
    """

    def __init__(self, filename: str, source: bytes, time_limit: float, memory_mb: int | None, sandboxed: bool,
                 scratch):
        self.time_limit = time_limit
        self.sandboxed = sandboxed
        self.work = Path(tempfile.mkdtemp(prefix="table-", dir=scratch))
        # A copy, not the file itself: what the entry writes stays in this table's folder.
        (self.work / filename).write_bytes(source)
        env = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
               "NUMBA_NUM_THREADS": "1", "MPLBACKEND": "Agg", "PYTHONDONTWRITEBYTECODE": "1"}
        argv = [_python(), "-m", "gofish_teach.tournament", "--worker", filename, str(memory_mb or 0)]
        if sandboxed:
            argv = jail.command(argv, work=self.work, mode="require", env=env, scratch=str(scratch))
        else:  # a clean environment all the same: nothing of the teacher's session leaks in
            env.update(PATH=os.environ.get("PATH", "/usr/bin:/bin"), HOME=str(self.work), LANG="C.UTF-8")
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env, cwd=str(self.work),
                                     start_new_session=True)
        self._buffer = b""
        self.started = False
        self.closed = False
        self.worker = None  # the pid of the entry's Python process, as this process sees it
        self.init = None    # bwrap's init inside the sandbox (orphans become its children)

    def start(self) -> None:
        """Wait for the entry to load; a :class:`Forfeit` if it cannot."""
        if not self.started:
            self._answer(START_TIME, "loading the file")
            self.started = True
            self._find_worker()
            self._pause("loading its file")

    def choose(self, view, seat_seed: int) -> tuple:
        """One decision: the entry gets its view and its seat's seed (a new seed: a new game), nothing else."""
        self.start()
        if self._buffer or select.select([self.proc.stdout], [], [], 0)[0]:
            self.close()
            raise Forfeit("crash", "it wrote to the tournament's channel out of turn (only the answer to the "
                                   "question asked may come back)")
        message = pickle.dumps((view, seat_seed))
        self._signal(signal.SIGCONT)
        try:
            self.proc.stdin.write(struct.pack(">I", len(message)) + message)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self.close()
            raise Forfeit("crash", "its process had ended") from None
        move = self._answer(self.time_limit, "one decision")
        self._pause("its decision")
        return move

    def _answer(self, limit: float, what: str):
        deadline = time.monotonic() + limit
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self.close()
                raise Forfeit("timeout", f"no answer within the time limit of {limit:g} s for {what}")
            if len(self._buffer) > MAX_ANSWER:
                self.close()
                raise Forfeit("crash", f"it answered more than {MAX_ANSWER:,} bytes for {what}, not a move")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    self.close()
                    raise Forfeit("crash", "its process ended without answering (it may have run out of memory)")
                self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        try:
            reply = json.loads(line)
            if not isinstance(reply, dict):
                raise ValueError
        except (ValueError, RecursionError):
            self.close()
            raise Forfeit("crash", "it answered something that is not a move") from None
        if "error" in reply:
            self.close()
            kind = reply.get("kind")
            raise Forfeit(kind if kind in KINDS else "crash", _one_line(reply["error"]))
        return reply.get("move")

    # ------------------------------------------------------------------ its processes
    def _find_worker(self) -> None:
        if not self.sandboxed:
            self.worker = self.proc.pid
            return
        # bwrap (our child) -> bwrap's init, pid 1 inside -> the worker, pid 2 inside.
        outer = _children(self.proc.pid)
        inner = _children(outer[0]) if len(outer) == 1 else []
        if len(inner) != 1:
            self.close()
            raise Forfeit("process", f"it started {max(len(inner) - 1, 0)} other process(es) while loading; "
                                     "an entry must decide in its own process")
        self.init, self.worker = outer[0], inner[0]

    def _others(self) -> list[int]:
        """Processes still running in this entry's sandbox other than the worker (zombies aside)."""
        found = [p for p in _children(self.worker) if _running(p)]
        if self.init is not None:
            found += [p for p in _children(self.init) if p != self.worker and _running(p)]
        return found

    def _pause(self, after: str) -> None:
        """Stop the entry until its next decision; a :class:`Forfeit` if it left a process running."""
        self._signal(signal.SIGSTOP)
        others = self._others()
        if others:
            self.close()
            raise Forfeit("process", f"it left {len(others)} process(es) running after {after} (a fork, or a "
                                     "child started with setsid); an entry must decide in its own process")

    def _signal(self, sig) -> None:
        try:
            os.kill(self.worker, sig)
        except (ProcessLookupError, PermissionError, TypeError):
            pass  # it has ended: the next read says so

    def close(self) -> None:
        """Kill the entry's sandbox (everything inside dies with it), wait until what ran inside has
        ended, and delete its copy."""
        self.closed = True
        inside = [self.init, self.worker] + self._others() if self.sandboxed and self.init is not None else []
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
        self.proc.wait()
        # The kernel kills the rest of the sandbox once its init has died, but not before bwrap's own
        # exit is reported: a child the entry started with setsid could be seen for a moment after
        # (a fresh clone's test did). Wait for it, bounded (a pid may be reused meanwhile).
        deadline = time.monotonic() + CLOSE_WAIT
        while any(_running(p) for p in inside) and time.monotonic() < deadline:
            time.sleep(0.005)
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        shutil.rmtree(self.work, ignore_errors=True)


def _python() -> str:
    """This Python, by a path that works inside the sandbox: the virtual environment's folder
    resolved (``.venv`` may be a link, to a place the sandbox does not show), its program not
    (a venv's ``python`` links to the base interpreter, which would not see the venv)."""
    folder, name = os.path.split(sys.executable)
    return os.path.join(os.path.realpath(folder), name)


def _children(pid) -> list[int]:
    """The child processes of ``pid`` (of any of its threads); none if it has ended."""
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found += [int(c) for c in f.read().split()]
    except OSError:
        pass
    return found


def _running(pid) -> bool:
    """Whether ``pid`` exists and is not a zombie (an ended child not yet waited for)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0] not in ("Z", "X")
    except OSError:
        return False


def _one_line(text, limit: int = 300) -> str:
    """An entry's own words (an error message), on one line and not too long, for the leaderboard."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _limit_resources(memory_mb: int) -> None:
    """Cap this process's memory and file sizes: the worker's first step, before the entry's code is loaded."""
    if memory_mb:
        import resource

        limit = memory_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def hidden_rng(seed: int) -> np.random.Generator:
    """A Generator drawing like ``default_rng(seed)`` but whose ``seed_seq`` does not reveal ``seed``."""
    from . import strategies

    make = getattr(strategies, "seat_rng", None)
    if make is not None:
        return make(seed)
    visible = np.random.PCG64(seed)
    hidden = np.random.PCG64(0)
    hidden.state = visible.state
    return np.random.Generator(hidden)


# --------------------------------------------------------------------------- the round robin
def find_entries(folder) -> list[Entrant]:
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"STRATEGIES_DIR: {folder} is not a folder")
    return [Entrant(p.stem, "learner", p.resolve()) for p in sorted(folder.glob("*.py")) if not p.name.startswith((".", "_"))]


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
    seed: int
    entrants: list[Entrant]
    tables: list[tuple[int, ...]]
    stopped: int = 0  # games stopped at MAX_ASKS, or after IDLE_ASKS asks in a row that moved no card
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def ranking(self) -> list[Entrant]:
        """Entrants by win share, best first; disqualified ones last."""
        return sorted(self.entrants, key=lambda e: (e.status != "ok", -e.share, e.name))

    def leaderboard(self) -> str:
        from .stats import _text_table

        rows = []
        rank = 0
        for e in self.ranking():
            low, high = e.interval()
            if e.status == "ok":
                rank += 1
                rows.append([rank, e.name, e.kind, e.games, f"{e.share:.3f}", f"[{low:.3f}, {high:.3f}]", ""])
            else:
                rows.append(["-", e.name, e.kind, e.games, f"{0:.3f}", "", f"forfeited ({e.status})"])
        table = _text_table(["rank", "strategy", "kind", "games", "win share", "95% interval", "note"], rows,
                            right=(3, 4))
        games = len(self.tables) * self.games_per_table
        lines = [f"Class tournament: {self.rules.name} rules, {self.players} players, {len(self.tables)} tables x "
                 f"{self.games_per_table} games ({games:,} games), seed {self.seed}", table,
                 f"Fair share (1/{self.players}): {1 / self.players:.3f}. A k-way tie counts 1/k; intervals are "
                 "Wilson 95%."]
        for e in self.ranking():
            if e.status != "ok":
                lines.append(f"{e.name} forfeits its {e.games} games: {e.reason}")
        if self.stopped:
            lines.append(f"{self.stopped} game(s) passed {MAX_ASKS:,} asks, or {IDLE_ASKS} asks in a row that moved "
                         "no card, and were stopped, won by no one.")
        return "\n".join(lines)

    def plot(self, path=None, ax=None):
        """Win share of every entrant with its interval, and the fair share; saved to ``path`` if given."""
        import matplotlib

        if path is not None and ax is None:
            matplotlib.use("Agg", force=False)
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
                   max_tables: int = MAX_TABLES, sandbox: str = "auto", jobs: int | None = None,
                   executor=None, progress: bool | str = False, log=None) -> TournamentResult:
    """Play the round robin; returns every entrant's record (see the module's docstring).

    ``sandbox`` is ``"auto"`` (bubblewrap when installed, else one warning on ``log``),
    ``"require"`` or ``"off"`` (:mod:`gofish_teach.jail`). ``memory_mb=None`` sets no memory limit.
    ``jobs`` tables play at once (default: two per core; an entry mostly waits for its turn).
    ``executor`` plays the tables elsewhere instead: a Dask ``distributed.Client`` (each table
    is a task on its cluster, and its entries run sandboxed on the worker that plays it) or any
    ``concurrent.futures.Executor``. There ``"auto"`` means ``"require"``: a warning in a
    worker's log would go unseen, so a worker without bubblewrap stops the tournament with
    :class:`~gofish_teach.jail.SandboxUnavailable`. A table depends only on the seed and its
    entrants, so the records are the same wherever the tables play; a lost worker's tables are
    played again on another, and with no worker left the run stops with
    :class:`~gofish_teach.simulate.NoWorkers`. ``progress`` shows a progress bar (a string labels it).
    Every argument is checked first, with a ``ValueError`` naming it (and its option).
    """
    plan = plan_tournament(folder, rules, players=players, games=games, builtins=builtins, time_limit=time_limit,
                           memory_mb=memory_mb, seed=seed, max_tables=max_tables, sandbox=sandbox, jobs=jobs,
                           elsewhere=executor is not None, log=log)
    return play_tournament(plan, executor, progress)


@dataclass
class Plan:
    """A tournament checked and drawn up, not played yet: its result to fill, and one job per table."""

    result: TournamentResult
    jobs: list[dict]  # one per table, what play_table takes
    threads: int  # tables played at once in this process (--jobs), when not on a cluster


def plan_tournament(folder, rules="pond", *, players: int = 4, games: int = 10, builtins=BUILTINS,
                    time_limit: float = TIME_LIMIT, memory_mb: int | None = MEMORY_MB, seed: int | None = None,
                    max_tables: int = MAX_TABLES, sandbox: str = "auto", jobs: int | None = None,
                    elsewhere: bool = False, log=None) -> Plan:
    """Check every argument of :func:`run_tournament` (a ``ValueError`` naming it), read the entries and
    draw up the tables, each a job :func:`play_table` plays (``elsewhere``: not in this process)."""
    from .strategies import get_strategy

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
    if jobs is not None and elsewhere:
        raise ValueError("--jobs (jobs) and --scheduler (executor): give one (a cluster plays as many tables at "
                         "once as its workers have threads)")
    jobs = _whole("jobs", jobs, 1, 64) if jobs is not None else min(8, 2 * (os.cpu_count() or 1))
    if sandbox not in jail.MODES:
        raise ValueError(f"--sandbox (sandbox) must be one of {', '.join(jail.MODES)}, not {sandbox!r}")
    if isinstance(builtins, str):
        raise ValueError(f"builtins must be a list of strategy names, not the string {builtins!r}")
    builtins = list(builtins)
    for name in builtins:
        get_strategy(name)  # a ValueError naming the choices if unknown
    entrants = find_entries(folder)
    if not entrants:
        raise ValueError(f"STRATEGIES_DIR: {folder} holds no .py files (one per learner, each defining "
                         "strategy(view, rng))")
    # Before any entry runs: require refuses here. Elsewhere, each worker decides for itself.
    if elsewhere:
        sandbox = "off" if sandbox == "off" else "require"
    else:
        sandbox = "require" if jail.resolve(sandbox, log=log) else "off"
    names = {e.name for e in entrants}
    builtin = {name if name not in names else f"{name} (built-in)": name for name in builtins}
    # Read once: every table gets the same text, wherever it is played (no shared folder needed).
    seats = [("learner", e.path.name, e.path.read_bytes()) for e in entrants] + [("builtin", s) for s in builtin.values()]
    entrants += [Entrant(name, "builtin") for name in builtin]
    # A secret seed by default: an entry that could guess it could work out the decks.
    seed = int(np.random.SeedSequence().entropy % 2**63) if seed is None else seed
    tables = schedule(len(entrants), players, max_tables, seed)
    result = TournamentResult(rules, players, games, seed, entrants, tables)
    table_jobs = [dict(rules=rules, seed=seed, table=t, games=games, seats=[seats[i] for i in table],
                       time_limit=time_limit, memory_mb=memory_mb, sandbox=sandbox)
                  for t, table in enumerate(tables)]
    return Plan(result, table_jobs, jobs)


def play_tournament(plan: Plan, executor=None, progress: bool | str = False) -> TournamentResult:
    """Play every table of ``plan`` (in this process's threads, or on ``executor``) and fill in its result.

    The tables' records are added up in table order once all are in, so the result is the same
    however the tables were shared out and whichever finished first.
    """
    from . import simulate

    result = plan.result
    executor = simulate._executor(executor)
    label = progress if isinstance(progress, str) else "tournament"
    bar = simulate._progress_bar(len(plan.jobs) * result.games_per_table, label) if progress else simulate._NoBar()
    calls = ((t, play_table, (job,)) for t, job in enumerate(plan.jobs))
    records = [None] * len(plan.jobs)
    # Here: a pool of threads (bwrap dies with the thread that started it, and these outlive every table).
    here = ThreadPoolExecutor(max_workers=plan.threads) if executor is None else contextlib.nullcontext(executor)
    start = time.monotonic()
    try:
        with here as pool:
            for t, record in simulate.as_finished(pool, calls, plan.threads if executor is None else 0):
                records[t] = record
                bar.update(result.games_per_table)  # a table at a time, as each comes back
    finally:
        bar.close()
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


def play_table(job: dict) -> dict:
    """One table of a tournament, played here: in a thread of the tournament's process, or as a task
    on a cluster's worker. ``job`` is plain data (from :func:`plan_tournament`: the entries' texts
    travel with it), and so is the record it returns: ``wins`` by position at the table (a k-way
    tie counts 1/k), ``forfeits`` as ``(position, kind, reason, (table, game, ask))`` for each entry
    that broke a rule here, and ``stopped`` games.

    A table depends on nothing but its job: an entry that forfeits at another table still plays
    here until it breaks a rule here, so the record is the same wherever and whenever it is played.
    Each entry runs in a fresh sandbox, closed when the table ends (on a worker, the worker's own
    bubblewrap and scratch folder): nothing of it reaches another table.

    >>> job = dict(rules=Rules.preset("pond"), seed=1, table=0, games=2, seats=[("builtin", "random")] * 2,
    ...            time_limit=1.0, memory_mb=None, sandbox="off")
    >>> record = play_table(job)
    >>> sum(record["wins"]), record["forfeits"], record["stopped"]
    (2.0, [], 0)
    """
    sandboxed = _sandbox_here(job["sandbox"])
    state = _Table(job)
    scratch = tempfile.mkdtemp(prefix="gofish-table-")
    try:
        try:
            for i, seat in enumerate(job["seats"]):
                if seat[0] == "learner":
                    state.playing[i] = LearnerPlayer(seat[1], seat[2], job["time_limit"], job["memory_mb"],
                                                     sandboxed, scratch)
            for g in range(job["games"]):
                _play_game(state, g)
        finally:
            _close(state.playing)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return {"wins": state.wins, "forfeits": state.forfeits, "stopped": state.stopped}


def _sandbox_here(mode: str) -> bool:
    """Whether to sandbox on this machine (``mode`` is require or off); on one without bwrap, say which."""
    try:
        return jail.resolve(mode)
    except jail.SandboxUnavailable as e:
        raise jail.SandboxUnavailable(f"on {socket.gethostname()}, where a table was to be played: {e}") from None


class _Table:
    """What a table keeps while it plays: its entries' processes and its record so far."""

    def __init__(self, job: dict):
        from .strategies import get_strategy

        self.job, self.t = job, job["table"]
        self.strategies = {i: get_strategy(seat[1]) for i, seat in enumerate(job["seats"]) if seat[0] == "builtin"}
        self.stand_in = get_strategy("random")
        self.playing: dict[int, LearnerPlayer] = {}
        self.wins = [0.0] * len(job["seats"])
        self.forfeits: list[tuple] = []
        self.stopped = 0


def _close(players: dict) -> None:
    for p in players.values():
        p.close()


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


def _play_game(state: _Table, g: int) -> None:
    """Game ``g`` of a table: its deck depends only on the seed and ``g``, its seats' generators on the table too."""
    job, t = state.job, state.t
    k = len(job["seats"])
    seat_of = [(i + g) % k for i in range(k)]  # seats rotate from game to game
    at_seat = {s: i for i, s in enumerate(seat_of)}
    deck_seed = int(np.random.SeedSequence([job["seed"], g]).generate_state(1, np.uint64)[0])
    game = Game(job["rules"], k, seed=deck_seed)
    seat_seeds = [int(x) for x in np.random.SeedSequence([job["seed"], t, g]).generate_state(k, np.uint64)]
    rngs = [hidden_rng(s) for s in seat_seeds]
    idle, last = 0, None
    while not game.is_over:
        p = game.current_player
        i = at_seat[p]
        view = game.view(p)
        # Each request carries the whole record, so a game going round in circles would get slower
        # and slower: stop it once nothing has moved for IDLE_ASKS asks.
        now = (view.hand_sizes, view.ocean_size)
        idle = idle + 1 if now == last else 0
        last = now
        if game.n_asks >= MAX_ASKS or idle >= IDLE_ASKS:
            state.stopped += 1
            break
        if i in state.strategies:
            move = state.strategies[i](view, rngs[p])
        elif state.playing[i].closed:  # it forfeited at this table: its seat plays on as random
            move = state.stand_in(view, rngs[p])
        else:
            try:
                # Its view and its seat's seed only: neither the table, nor the game number, nor the deck's seed.
                move = state.playing[i].choose(view, seat_seeds[p])
                move = tuple(move) if isinstance(move, list) else move
                if (not isinstance(move, tuple) or len(move) not in (2, 3)
                        or not all(type(x) in (int, str) for x in move)):
                    raise Forfeit("illegal", f"it returned {_one_line(repr(move), 80)}, not (target, rank)")
                game.check_ask(*move)
            except (IllegalMove, TypeError, ValueError) as e:
                _disqualify(state, i, Forfeit("illegal", f"illegal ask {move!r}: {e}"), g, game)
                move = state.stand_in(view, rngs[p])
            except Forfeit as f:
                _disqualify(state, i, f, g, game)
                move = state.stand_in(view, rngs[p])
        game.ask(*move)
    if game.is_over:  # (a forfeited entry's wins are struck off once every table is in)
        for w in game.winners:
            state.wins[at_seat[w]] += 1 / len(game.winners)


def _disqualify(state: _Table, i: int, failure: Forfeit, g: int, game: Game) -> None:
    state.playing[i].close()
    where = (state.t, g, game.n_asks + 1)
    state.forfeits.append((i, failure.kind, f"{failure} (table {state.t}, game {g}, ask {game.n_asks + 1})", where))


# --------------------------------------------------------------------------- the learner's side
def save_strategy(func, path) -> Path:
    """Write ``func`` (a strategy defined in a notebook) to ``path`` as a tournament entry.

    The file gets the usual imports, the function's source, and ``strategy = <name>``. Helper
    functions it calls are not copied: paste them into the file yourself.
    """
    source = textwrap.dedent(inspect.getsource(func))
    header = ("# A Go Fish strategy for the class tournament (python -m gofish_teach tournament).\n"
              "import math\n\nimport numpy as np\n\n"
              "from gofish_teach import Ask, Book, Card, Deal, Draw, GameOver, GoFish, Give, Skip, Turn\n\n\n")
    footer = "" if func.__name__ == "strategy" else f"\n\nstrategy = {func.__name__}\n"
    path = Path(path)
    text = header + source.rstrip() + "\n" + footer
    compile(text, str(path), "exec")
    path.write_text(text, encoding="utf-8")
    return path


def load_entry(path):
    """The strategy function a tournament file defines (``strategy``, else ``my_strategy``)."""
    import runpy

    namespace = runpy.run_path(str(path), run_name="gofish_entry")
    for name in ("strategy", "my_strategy"):
        if callable(namespace.get(name)):
            return namespace[name]
    raise ValueError(f"{Path(path).name} defines no function strategy(view, rng)")


def _worker_main(argv) -> int:
    """``python -m gofish_teach.tournament --worker FILE MEMORY_MB``: one entry's process at one table.

    Its command line holds the file's name and the memory limit, nothing secret. Each request
    is a pickled ``(view, seat_seed)`` from the trusted parent; each answer one line of JSON.
    """
    if len(argv) != 3 or argv[0] != "--worker":
        print("usage: python -m gofish_teach tournament STRATEGIES_DIR (this module's own entry is internal)",
              file=sys.stderr)
        return 2
    _limit_resources(int(argv[2]))
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    requests = os.fdopen(os.dup(0), "rb")
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # the entry's own prints (and reads) go nowhere
        os.dup2(devnull, fd)

    def send(message):
        answers.write(json.dumps(message) + "\n")
        answers.flush()

    try:
        choose = load_entry(argv[1])
    except MemoryError:
        send({"error": "it ran out of memory while loading", "kind": "memory"})
        return 1
    except BaseException as e:  # noqa: BLE001
        send({"error": f"the file could not be loaded: {type(e).__name__}: {e}", "kind": "crash"})
        return 1
    send({"ready": True})
    seat_seed, rng = None, None
    while True:
        header = requests.read(4)
        if len(header) < 4:
            return 0
        view, seed = pickle.loads(requests.read(struct.unpack(">I", header)[0]))
        if seed != seat_seed:  # a new game: a fresh generator for this seat
            seat_seed, rng = seed, hidden_rng(seed)
        try:
            move = choose(view, rng)
            send({"move": _plain(move)})
        except MemoryError:
            send({"error": "it ran out of memory", "kind": "memory"})
        except BaseException as e:  # noqa: BLE001
            send({"error": f"it raised {type(e).__name__}: {e}", "kind": "crash"})


def _plain(move):
    """A move as JSON can carry it (numpy ints become ints); anything else as its text."""
    if isinstance(move, (tuple, list)):
        return [int(x) if isinstance(x, np.integer) else x if isinstance(x, (int, str)) else repr(x) for x in move]
    return repr(move)


# --------------------------------------------------------------------------- the command line
def add_command(commands) -> None:
    """The ``tournament`` subcommand of ``python -m gofish_teach``."""
    import argparse

    parser = commands.add_parser(
        "tournament", help="a class tournament of the learners' strategies (runs their code, sandboxed)",
        description="Every .py file in STRATEGIES_DIR (one per learner, defining strategy(view, rng)) plays a "
                    "round robin against the others and some built-in strategies. At every table each entry "
                    "runs in a fresh sandbox of its own (bubblewrap: no network, no other process, no file of "
                    "yours) with a time limit per decision and a memory limit; one that crashes, asks "
                    "illegally, runs out of time or leaves a process running forfeits its games. Prints a "
                    "leaderboard with 95% intervals and writes a plot.",
        epilog="Example:\n  python -m gofish_teach tournament strategies/ --rules pond --players 4 --games 20\n"
               "On a Dask cluster (each entry runs sandboxed on the worker that plays its table):\n"
               "  python -m gofish_teach tournament strategies/ --games 20 --scheduler tcp://HOST:8786",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    parser.set_defaults(run=run_from_args)


def add_arguments(parser) -> None:
    """The ``tournament`` subcommand's options."""
    from .rules import PRESETS

    parser.add_argument("folder", metavar="STRATEGIES_DIR", help="a folder of .py files, one per learner, each "
                        "defining strategy(view, rng)")
    parser.add_argument("--rules", default="pond", choices=list(PRESETS), metavar="NAME",
                        help=f"rule set: {', '.join(PRESETS)} (default: pond)")
    parser.add_argument("--players", type=int, default=4, metavar="N", help="players per table (default: 4)")
    parser.add_argument("--games", type=int, default=10, metavar="N", help="games per table (default: 10)")
    parser.add_argument("--builtins", default=",".join(BUILTINS), metavar="S,S,...",
                        help=f"built-in strategies that join (default: {','.join(BUILTINS)}; '' for none)")
    parser.add_argument("--time-limit", type=float, default=TIME_LIMIT, metavar="SECONDS",
                        help=f"time per decision (default: {TIME_LIMIT:g})")
    parser.add_argument("--memory-mb", type=int, default=MEMORY_MB, metavar="MB",
                        help=f"memory per entry (default: {MEMORY_MB})")
    parser.add_argument("--max-tables", type=int, default=MAX_TABLES, metavar="N",
                        help=f"at most this many tables (default: {MAX_TABLES})")
    parser.add_argument("--seed", type=int, default=None, metavar="N",
                        help="repeat a tournament (default: a fresh secret seed, printed at the end; reuse "
                             "that one and keep it secret: a small seed can be found by trying them all)")
    parser.add_argument("--sandbox", default="auto", choices=list(jail.MODES),
                        help="auto: bubblewrap when installed, else a warning; require: refuse without it; "
                             "off: no sandbox (default: auto)")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="tables played at once (default: two per core)")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="play the tables on a Dask cluster: the address of its scheduler, e.g. "
                             "tcp://HOST:8786 (every worker needs this kit installed, the same version, and "
                             "bubblewrap: there --sandbox auto means require)")
    parser.add_argument("--plot", default="tournament.png", metavar="PATH",
                        help="where to write the plot (default: tournament.png)")


def run_from_args(args, out) -> None:
    from .simulate import dask_client

    builtins = [s.strip() for s in args.builtins.split(",") if s.strip()]
    # Every option checked before connecting to a cluster: a mistake is said at once.
    plan = plan_tournament(args.folder, args.rules, players=args.players, games=args.games, builtins=builtins,
                           time_limit=args.time_limit, memory_mb=args.memory_mb, seed=args.seed,
                           max_tables=args.max_tables, sandbox=args.sandbox, jobs=args.jobs,
                           elsewhere=args.scheduler is not None)
    try:
        with dask_client(args.scheduler) as client:
            result = play_tournament(plan, client, progress=sys.stderr.isatty())
    except jail.SandboxUnavailable as e:
        raise ValueError(str(e)) from None
    print(result.leaderboard(), file=out)
    result.plot(args.plot)
    print(f"Plot: {args.plot}. Took {result.seconds:.1f} s.", file=out)


if __name__ == "__main__":
    sys.exit(_worker_main(sys.argv[1:]))
