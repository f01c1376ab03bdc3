"""The class tournament: ``python -m gofish_teach tournament STRATEGIES_DIR --rules pond --players 4 --games N``.

Every ``.py`` file in ``STRATEGIES_DIR`` is one learner's entry (the capstone exercise, 11):
it defines ``strategy(view, rng) -> (target, rank)`` (or ``my_strategy``). The entries and
some built-in strategies meet in a round robin: every group of ``--players`` entrants sits
at one table (when there are too many groups, a balanced selection of them, each entrant
seated about equally often) and plays ``--games`` games there, seats rotating from game to
game. Game ``g`` is dealt the same deck at every table.

**This runs the learners' code.** Each entry runs in a process of its own, started fresh
(it cannot see the game, only the ``View`` it is sent), with a memory limit and a time
limit on every decision. The answers come back as JSON, never pickle, so an entry cannot
run code in the tournament's process. Still, an entry runs with your account's rights:
run the tournament under an account or in a container of its own (``exercises/README.md``).

An entry that raises an error, asks illegally (a cheat or a bug: the rules decide) or runs
out of time or memory is disqualified: it forfeits every game it plays (0 wins), and it is
reported with the reason and where it happened. Its seat plays on as the built-in
``random`` strategy, so the other players' games still count; a game won by a forfeited
seat is won by no one.

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "ana.py").write_text("def strategy(view, rng):\\n    return view.legal_asks()[0]\\n")
>>> result = run_tournament(folder, "pond", players=2, games=2, builtins=["random"], seed=1)
>>> [(e.name, e.games, e.status) for e in result.entrants]
[('ana', 2, 'ok'), ('random', 2, 'ok')]
"""
from __future__ import annotations

import inspect
import itertools
import json
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .game import Game, IllegalMove
from .rules import Rules

#: Defaults: seconds per decision, memory per entry, the tables played at most.
TIME_LIMIT = 1.0
MEMORY_MB = 1024
MAX_TABLES = 200
#: A game that passes this many asks is stopped and won by no one.
MAX_ASKS = 5000
#: The built-in strategies that join the tournament by default (greedy is strong but slow).
BUILTINS = ("random", "memory", "most_held")
#: Seconds an entry may take to load (import its file) before its first decision.
START_TIME = 30.0


class Forfeit(Exception):
    """An entry broke a rule of the tournament: ``kind`` is crash, illegal, timeout or memory."""

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

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        from .stats import wilson_interval

        return wilson_interval(self.wins, self.games, confidence) if self.games else (0.0, 1.0)


class LearnerPlayer:
    """A learner's entry, running in its own process; ``choose`` asks it for one decision."""

    def __init__(self, entrant: Entrant, time_limit: float, memory_mb: int | None):
        self.entrant = entrant
        self.time_limit = time_limit
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
                   MPLBACKEND="Agg", PYTHONDONTWRITEBYTECODE="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gofish_teach.tournament", "--worker", str(entrant.path), str(memory_mb or 0)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
            cwd=str(entrant.path.parent), start_new_session=True)
        self._buffer = b""
        self.started = False

    def start(self) -> None:
        """Wait for the entry to load; a :class:`Forfeit` if it cannot."""
        if not self.started:
            self._answer(START_TIME, "loading the file")
            self.started = True

    def choose(self, view, rng_key, rng_seed: int) -> tuple:
        self.start()
        message = pickle.dumps(("choose", view, rng_key, rng_seed))
        try:
            self.proc.stdin.write(struct.pack(">I", len(message)) + message)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise Forfeit("crash", "its process had ended") from None
        return self._answer(self.time_limit, "one decision")

    def _answer(self, limit: float, what: str):
        deadline = time.monotonic() + limit
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self.close()
                raise Forfeit("timeout", f"no answer within the time limit of {limit:g} s for {what}")
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
        except ValueError:
            raise Forfeit("crash", "it answered something that is not a move") from None
        if "error" in reply:
            raise Forfeit(reply.get("kind", "crash"), reply["error"])
        return reply.get("move")

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass


def _limit_memory(memory_mb: int) -> None:
    """Cap this process's memory: the worker's first step, before the entry's code is loaded."""
    if memory_mb:
        import resource

        limit = memory_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


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
    stopped: int = 0  # games stopped at MAX_ASKS
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
            lines.append(f"{self.stopped} game(s) passed {MAX_ASKS} asks and were stopped, won by no one.")
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
                   max_tables: int = MAX_TABLES, log=None) -> TournamentResult:
    """Play the round robin; returns every entrant's record (see the module's docstring)."""
    from .strategies import get_strategy

    rules = rules if isinstance(rules, Rules) else Rules.preset(rules)
    rules.check_players(players)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be at least 1, not {games!r}")
    if time_limit <= 0:
        raise ValueError(f"time_limit must be positive, not {time_limit!r}")
    builtins = list(builtins)
    for name in builtins:
        get_strategy(name)  # a ValueError naming the choices if unknown
    entrants = find_entries(folder)
    if not entrants:
        raise ValueError(f"STRATEGIES_DIR: {folder} holds no .py files (one per learner, each defining "
                         "strategy(view, rng))")
    names = {e.name for e in entrants}
    entrants += [Entrant(name if name not in names else f"{name} (built-in)", "builtin") for name in builtins]
    # A secret seed by default: an entry that could guess it could work out the decks.
    seed = int(np.random.SeedSequence().entropy % 2**63) if seed is None else int(seed)
    tables = schedule(len(entrants), players, max_tables, seed)
    result = TournamentResult(rules, players, games, seed, entrants, tables)
    stand_in = get_strategy("random")
    procs: dict[int, LearnerPlayer] = {}
    start = time.monotonic()
    try:
        for i, e in enumerate(entrants):
            if e.kind == "learner":
                procs[i] = LearnerPlayer(e, time_limit, memory_mb)  # all load at once, in parallel
        for t, table in enumerate(tables):
            for g in range(games):
                _play_game(result, t, table, g, procs, stand_in)
    finally:
        for p in procs.values():
            p.close()
    result.seconds = time.monotonic() - start
    return result


def _play_game(result: TournamentResult, t: int, table, g: int, procs, stand_in) -> None:
    from .strategies import get_strategy

    k = len(table)
    seat_of = {table[i]: (i + g) % k for i in range(k)}  # seats rotate from game to game
    at_seat = {s: e for e, s in seat_of.items()}
    deck_seed = int(np.random.SeedSequence([result.seed, g]).generate_state(1, np.uint64)[0])
    game = Game(result.rules, k, seed=deck_seed)
    seat_seeds = [int(x) for x in np.random.SeedSequence([result.seed, t, g]).generate_state(k, np.uint64)]
    rngs = [hidden_rng(s) for s in seat_seeds]
    while not game.is_over:
        if game.n_asks >= MAX_ASKS:
            result.stopped += 1
            break
        p = game.current_player
        index = at_seat[p]
        entrant = result.entrants[index]
        view = game.view(p)
        if entrant.status != "ok":
            move = stand_in(view, rngs[p])
        elif entrant.kind == "builtin":
            move = get_strategy(entrant.name.removesuffix(" (built-in)"))(view, rngs[p])
        else:
            try:
                move = procs[index].choose(view, (t, g, p), seat_seeds[p])
                move = tuple(move) if isinstance(move, list) else move
                if not isinstance(move, tuple) or len(move) not in (2, 3):
                    raise Forfeit("illegal", f"it returned {move!r}, not (target, rank)")
                game.check_ask(*move)
            except IllegalMove as e:
                _disqualify(entrant, procs[index], Forfeit("illegal", f"illegal ask {move!r}: {e}"), t, g, game)
                move = stand_in(view, rngs[p])
            except Forfeit as f:
                _disqualify(entrant, procs[index], f, t, g, game)
                move = stand_in(view, rngs[p])
        game.ask(*move)
    winners = [w for w in game.winners if result.entrants[at_seat[w]].status == "ok"] if game.is_over else []
    for index in table:
        entrant = result.entrants[index]
        entrant.games += 1
        if seat_of[index] in winners:
            entrant.wins += 1 / len(game.winners)


def _disqualify(entrant: Entrant, proc: LearnerPlayer, failure: Forfeit, t: int, g: int, game: Game) -> None:
    entrant.status = failure.kind
    entrant.reason = f"{failure} (table {t}, game {g}, ask {game.n_asks + 1})"
    entrant.wins = 0.0
    proc.close()


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
    """``python -m gofish_teach.tournament --worker FILE MEMORY_MB``: one entry's process."""
    if len(argv) != 3 or argv[0] != "--worker":
        print("usage: python -m gofish_teach tournament STRATEGIES_DIR (this module's own entry is internal)",
              file=sys.stderr)
        return 2
    _limit_memory(int(argv[2]))
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
    rng_key, rng = None, None
    while True:
        header = requests.read(4)
        if len(header) < 4:
            return 0
        _, view, key, seed = pickle.loads(requests.read(struct.unpack(">I", header)[0]))
        if key != rng_key:  # a new game: a fresh generator for this seat
            rng_key, rng = key, hidden_rng(seed)
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
        "tournament", help="a class tournament of the learners' strategies (runs their code)",
        description="Every .py file in STRATEGIES_DIR (one per learner, defining strategy(view, rng)) plays a "
                    "round robin against the others and some built-in strategies. Each runs in its own process "
                    "with a time limit per decision and a memory limit; one that crashes, asks illegally or runs "
                    "out of time forfeits its games. Prints a leaderboard with 95% intervals and writes a plot. "
                    "This runs the learners' code: use an account or a container of its own.",
        epilog="Example:\n  python -m gofish_teach tournament strategies/ --rules pond --players 4 --games 20",
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
                        help="repeat a tournament (default: a fresh secret seed, printed; keep a chosen one secret)")
    parser.add_argument("--plot", default="tournament.png", metavar="PATH",
                        help="where to write the plot (default: tournament.png)")


def run_from_args(args, out) -> None:
    builtins = [s.strip() for s in args.builtins.split(",") if s.strip()]
    result = run_tournament(args.folder, args.rules, players=args.players, games=args.games, builtins=builtins,
                            time_limit=args.time_limit, memory_mb=args.memory_mb, seed=args.seed,
                            max_tables=args.max_tables)
    print(result.leaderboard(), file=out)
    result.plot(args.plot)
    print(f"Plot: {args.plot}. Took {result.seconds:.1f} s.", file=out)


if __name__ == "__main__":
    sys.exit(_worker_main(sys.argv[1:]))
