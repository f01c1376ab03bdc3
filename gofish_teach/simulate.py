"""Tournaments: play many games between strategies and keep every game's result.

>>> from gofish_teach.simulate import simulate
>>> res = simulate(["memory", "random"], "family", games=40, seed=1)
>>> res
<Results: memory, random; family rules, 2 players, 40 games, seed 1>
>>> res.winners.shape, res.books.shape, res.asks.shape
((40, 2), (40, 2), (40,))
>>> res.seat_entry[:3]          # game g rotates the lineup by g % 2
array([[0, 1],
       [1, 0],
       [0, 1]])

Three ideas make the numbers fair and reproducible:

* **Seat rotation.** Seat 0 is dealt first and moves first, which is an advantage. In game
  ``g`` seat ``s`` is played by lineup entry ``(s + g % n) % n``, so every entry sits in
  every seat equally often (up to the last ``games % n`` games).
* **Common random numbers.** The deck order and the strategies' random seed of game ``g``
  depend only on ``(seed, g)`` (see :func:`game_inputs`), never on the lineup. Two lineups
  run with the same seed are dealt the very same hands, so a difference between them is the
  strategies', not the luck of the deal, and a paired test can use that.
* **One generator per seat.** Seat ``s`` of game ``g`` draws its random choices from its own
  generator, seeded from ``(seed, g, s)``: what one seat's strategy does with its randomness
  never shifts another seat's, and the seed reveals nothing about the deck.
* **Chunks.** Games are played in chunks of consecutive indices, on any
  ``concurrent.futures.Executor``. A game's result depends only on its inputs, so the
  results are the same whatever the executor and however many workers.

Safety: a run is at most :data:`MAX_GAMES` games; a game stops with :class:`GameTooLong` after
``max_asks`` asks; in worker processes a strategy gets ``time_limit`` seconds per decision
(:class:`DecisionTimeout`): an alarm stops it in its worker, and in the pool ``workers=``
starts, the parent also keeps a deadline and kills the worker of a strategy that ignores
the alarm. Those workers die with the parent. A strategy that cannot be sent to a worker
process is named before any game starts. The pool, the deadlines and the Dask cluster are in
:mod:`gofish_teach.executors`.
"""
from __future__ import annotations

import os
import pickle
import signal
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from . import executors
from .cards import SUITS, Card, ordered_deck
from .events import Ask, Draw, Give

# The executors (simulate's own pool, a Dask cluster, any executor) live in executors, with their
# settings and errors; every name stays importable from here too. A setting is changed there
# (executors.NO_WORKER_SECONDS), where it is read: the copy here is only its name.
from .executors import (  # noqa: F401 (importable from here too)
    DEADLINE_GRACE,
    NO_WORKER_SECONDS,
    SCHEDULER_SECONDS,
    Deadlines,
    DecisionAlarm,
    DecisionTimeout,
    NoWorkers,
    OutOfTime,
    as_finished,
    dask_client,
    kill_pool,
    worker_start,
)
from .executors import as_executor as _executor

# What this module shares with the compiled fast path is in its plain-Python part (fast.spec), so
# that the fast path need not import this module (which calls it), nor this one load numba to ask
# whether the fast path plays a run; every name stays importable from here too.
from .fast import CARDS_PER_RANK, FAST_STRATEGIES, MAX_ASKS, fast_path_plays, too_long_message  # noqa: F401
from .game import Game
from .rules import Rules
from .strategies import GameTooLong, get_strategy, play_out, seat_rng, seat_rngs, strategy_name

#: Decks are made this many games at a time, from one generator per block (much faster than
#: one generator per game); game g is row g % BLOCK of block g // BLOCK.
BLOCK = 1000
#: Strategy seeds per game: one for each seat, up to the most players any preset seats.
SEATS = 6
#: The most games one :func:`simulate` call plays. Every game's result is kept (about 100
#: bytes a game, so 1 GB at this limit); for more, run several seeds and pool the results.
MAX_GAMES = 10_000_000
#: Default seconds one decision may take when games run in worker processes.
DECISION_SECONDS = 30.0
#: A progress bar is shown (in a notebook) when a run is expected to take longer than this.
LONG_RUN_SECONDS = 3.0


# --------------------------------------------------------------------------- inputs
def game_inputs(seed: int, rules, games) -> tuple[np.ndarray, np.ndarray]:
    """The deck orders and strategy seeds of some games: the common random numbers.

    Args:
        seed: a non-negative int, the tournament's seed.
        rules: a :class:`Rules` or preset name (only the deck size matters).
        games: a number of games (indices ``0 .. games-1``) or an array of game indices.

    Returns:
        ``decks``, an ``int8`` array ``(G, deck_size)``: card codes from the top (index 0,
        dealt first) down, where code = ``rank_index * CARDS_PER_RANK + suit_index`` with
        suits in the order of ``cards.SUITS`` (see :func:`deck_cards`); and ``seeds``,
        ``uint64`` ``(G, SEATS)``: seat ``s`` of game ``g`` draws from its own generator,
        ``strategies.seat_rng(int(seeds[g, s]))``. Seeds go by seat, not by lineup entry, so
        two lineups run on one seed see the same random numbers at each seat.

    Game ``g`` depends only on ``(seed, g)``: its deck is row ``g % BLOCK`` of the block
    ``numpy.random.default_rng([seed, g // BLOCK]).permuted(..., axis=1)``, and its strategy
    seeds come from the same generator just after that block's decks. So any chunk of games
    can be made on its own and every lineup sees the same decks.

    >>> decks, seeds = game_inputs(7, "pond", [0, 1, 1234])
    >>> decks.shape, decks.dtype, seeds.shape, seeds.dtype
    ((3, 52), dtype('int8'), (3, 6), dtype('uint64'))
    >>> bool((game_inputs(7, "pond", 1235)[0][[0, 1, 1234]] == decks).all())
    True
    >>> deck_cards(Rules.preset("pond"), decks[0])[:3]
    [Card('3', '♥'), Card('Q', '♥'), Card('7', '♥')]
    """
    rules = _rules(rules)
    seed = _seed(seed)
    index = np.arange(games) if np.ndim(games) == 0 else np.asarray(games, dtype=np.int64)
    size = rules.deck_size
    decks = np.empty((len(index), size), np.int8)
    seeds = np.empty((len(index), SEATS), np.uint64)
    fresh = np.broadcast_to(np.arange(size, dtype=np.int8), (BLOCK, size))
    for block in np.unique(index // BLOCK):
        rng = np.random.default_rng([seed, int(block)])
        block_decks = rng.permuted(fresh, axis=1)
        block_seeds = rng.integers(0, 2**64, size=(BLOCK, SEATS), dtype=np.uint64, endpoint=False)
        here = index // BLOCK == block
        decks[here] = block_decks[index[here] % BLOCK]
        seeds[here] = block_seeds[index[here] % BLOCK]
    return decks, seeds


def deck_cards(rules: Rules, codes) -> list[Card]:
    """Card codes (``rank_index * CARDS_PER_RANK + suit_index``) as cards.

    >>> deck_cards(Rules.preset("pond"), [0, 5, 51])
    [Card('A', '♣'), Card('2', '♦'), Card('K', '♠')]
    """
    ranks = rules.ranks
    if CARDS_PER_RANK == len(SUITS):  # codes are then indices into the ordered deck (shared cards)
        deck = ordered_deck(tuple(ranks))
        return [deck[c] for c in np.asarray(codes).tolist()]
    return [Card(ranks[int(c) // CARDS_PER_RANK], SUITS[int(c) % CARDS_PER_RANK]) for c in codes]


# --------------------------------------------------------------------------- the readable engine
def play_game_readable(lineup: Sequence, rules: Rules, deck_codes, seeds, *, max_asks: int | None = None,
                       moves: bool = False) -> dict:
    """One game with the readable engine (:class:`Game` driven by :mod:`~gofish_teach.strategies`):
    the reference :func:`gofish_teach.fast.play_games` is checked against.

    ``lineup`` may hold any strategies (names, functions or objects), not only the fast ones.
    Seat ``s`` draws from ``strategies.seat_rng(int(seeds[s]))``. With ``max_asks``, a game
    that reaches that many asks raises :class:`GameTooLong`. With ``moves=True`` the result
    also has ``"moves"``: every ask as a row (player, target, rank index), as the fast path gives.

    >>> decks, seeds = game_inputs(7, "pond", 1)
    >>> out = play_game_readable(["memory", "random"], Rules.preset("pond"), decks[0], seeds[0], moves=True)
    >>> sorted(out), int(out["books"].sum()), out["moves"].shape == (out["asks"], 3)
    (['asks', 'books', 'moves', 'winners'], 13, True)
    """
    game = _play_one(lineup, rules, deck_codes, seeds, max_asks=max_asks or 0)
    winners = np.zeros(len(lineup), np.bool_)
    winners[list(game.winners)] = True
    out = {"books": np.array(game.book_counts, np.int64), "asks": game.n_asks, "winners": winners}
    if moves:
        index = {r: i for i, r in enumerate(rules.ranks)}
        asks = [(e.player, e.target, index[e.rank]) for e in game.events if isinstance(e, Ask)]
        out["moves"] = np.array(asks, np.int64).reshape(-1, 3)
    return out


def _play_one(by_seat: Sequence, rules: Rules, deck_codes, seeds, *, max_asks: int = 0, time_limit=None,
              where: str = "the game", lineup: Sequence | None = None, rngs: list | None = None) -> Game:
    """Play one game of the readable engine to its end (capped at ``max_asks`` asks unless 0);
    ``rngs``, when given, are the seats' generators already made from ``seeds`` (:func:`seat_rngs`)."""
    game = Game(rules, len(by_seat), deck=deck_cards(rules, deck_codes))
    strategies = [_Guarded(s, time_limit, where, lineup or by_seat) for s in by_seat] if time_limit else by_seat
    rngs = rngs or [seat_rng(int(seeds[s])) for s in range(len(by_seat))]
    try:  # the cap is play_out's own check, not a wrapper around every decision
        play_out(game, strategies, rngs, max_asks=max_asks)
    except GameTooLong:
        if not (max_asks and game.n_asks >= max_asks):
            raise  # a strategy's own, not the cap's
        idle = _idle_asks(game)
        raise GameTooLong(too_long_message(where, max_asks, idle, lineup or by_seat, game.rules, by_seat),
                          idle_asks=idle) from None
    return game


class _Guarded:
    """``strategy`` as a :class:`~gofish_teach.strategies.Strategy` of the same name, stopping a
    decision with :class:`DecisionTimeout` after ``time_limit`` seconds (needs the handler
    :class:`DecisionAlarm` installs)."""

    def __init__(self, strategy, time_limit, where: str, lineup):
        self.strategy, self.name = get_strategy(strategy), strategy_name(strategy)  # play_out's messages name it
        self.time_limit, self.where, self.lineup = time_limit, where, lineup

    def choose(self, view, rng):
        watch = executors.current_watch()
        try:
            if watch is not None:  # the parent's deadline, for a strategy that ignores the alarm
                watch.begin(view.player)
            signal.setitimer(signal.ITIMER_REAL, self.time_limit)
            try:
                return self.strategy(view, rng)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                if watch is not None:
                    watch.end()
        except OutOfTime:
            raise DecisionTimeout(f"strategy {self.name!r} (seat {view.player}) took more than "
                                  f"time_limit={self.time_limit:g} s over one decision, in {self.where} (lineup as "
                                  f"given: {', '.join(map(_label, self.lineup))}); does it ever return?") from None


def _idle_asks(game: Game) -> int:
    """How many of the last asks moved no card (no card given or drawn since)."""
    idle = 0
    for event in reversed(game.events):
        if isinstance(event, (Give, Draw)):
            break
        idle += isinstance(event, Ask)
    return idle


# --------------------------------------------------------------------------- results
@dataclass(frozen=True, eq=False)
class Results:
    """Every game of a tournament, as numpy arrays (``G`` games, ``n`` players).

    Arrays indexed by seat: ``winners`` ``(G, n)`` bool (a tie has several winners),
    ``books`` ``(G, n)`` books each seat laid down. Per game: ``asks`` ``(G,)``, ``first``
    the seat that moved first, ``offset`` the rotation ``g % n``. ``seat_entry`` ``(G, n)``
    says which lineup entry played each seat; ``seat_strategy`` gives its name.
    The ``entry_*`` properties give the same results indexed by lineup entry instead.
    """

    lineup: tuple[str, ...]
    rules: Rules
    n_players: int
    seed: int
    winners: np.ndarray
    books: np.ndarray
    asks: np.ndarray
    first: np.ndarray
    offset: np.ndarray
    seat_entry: np.ndarray
    engine: str = "readable"
    seconds: float = 0.0

    @property
    def games(self) -> int:
        return len(self.asks)

    @property
    def seat_strategy(self) -> np.ndarray:
        """``(G, n)``: the name of the strategy at each seat in each game."""
        return np.asarray(self.lineup)[self.seat_entry]

    @property
    def entry_seat(self) -> np.ndarray:
        """``(G, n)``: the seat each lineup entry sat in, game by game."""
        return np.argsort(self.seat_entry, axis=1)

    @property
    def first_entry(self) -> np.ndarray:
        """``(G,)``: the lineup entry that moved first in each game."""
        return self.seat_entry[np.arange(self.games), self.first]

    @property
    def entry_winners(self) -> np.ndarray:
        """``(G, n)``: whether each lineup entry won (or shared the win)."""
        return np.take_along_axis(self.winners, self.entry_seat, axis=1)

    @property
    def entry_books(self) -> np.ndarray:
        """``(G, n)``: the books each lineup entry laid down."""
        return np.take_along_axis(self.books, self.entry_seat, axis=1)

    def shares(self, by: str = "entry") -> np.ndarray:
        """``(G, n)`` win share per game: 1 for a win, 1/k for a k-way tie, else 0.

        ``by="entry"`` (lineup entry) or ``"seat"``.

        >>> res = simulate(["random", "random"], "pond", 4, seed=0)
        >>> bool((res.shares().sum(axis=1) == 1).all())
        True
        """
        winners = {"entry": self.entry_winners, "seat": self.winners}.get(by)
        if winners is None:
            raise ValueError(f"by must be 'entry' or 'seat', not {by!r}")
        return winners / winners.sum(axis=1, keepdims=True)

    def win_share(self, by: str = "entry", confidence: float = 0.95):
        """Win share with a Wilson interval: see :func:`gofish_teach.stats.win_share`."""
        from .stats import win_share

        return win_share(self, by=by, confidence=confidence)

    def game_length(self):
        """Asks per game: see :func:`gofish_teach.stats.game_length`."""
        from .stats import game_length

        return game_length(self)

    def __repr__(self) -> str:
        return (f"<Results: {', '.join(self.lineup)}; {self.rules.name} rules, {self.n_players} players, "
                f"{self.games} games, seed {self.seed}>")

    def _repr_html_(self) -> str:
        from html import escape

        return f"<p>{escape(repr(self))}</p>" + self.win_share()._repr_html_()


# --------------------------------------------------------------------------- one chunk
def play_chunk(lineup: tuple, rules: Rules, n_players: int, seed: int, start: int, stop: int,
               fast: bool = True, max_asks: int = MAX_ASKS, time_limit: float | None = None) -> dict:
    """Play games ``start .. stop-1`` of a tournament; what each worker runs.

    Returns plain arrays (``books``, ``asks``, ``winners``) and ``fast``, how many of the
    games the fast path played. A top-level function of plain arguments, so any executor
    (processes, threads, Dask) can run it. ``time_limit`` (seconds per decision of the
    readable engine) applies only in the main thread of a worker process, where an alarm
    signal can interrupt a strategy without disturbing anything else.
    """
    index = np.arange(start, stop)
    decks, seeds = game_inputs(seed, rules, index)
    books = np.zeros((len(index), n_players), np.int16)
    winners = np.zeros((len(index), n_players), bool)
    asks = np.zeros(len(index), np.int32)
    n_fast = 0
    for offset in range(n_players):
        here = index % n_players == offset
        if not here.any():
            continue
        by_seat = [lineup[(s + offset) % n_players] for s in range(n_players)]
        if fast and fast_path_plays(by_seat, rules):
            from .fast import play_games

            try:
                out = play_games(by_seat, rules, decks[here], seeds[here], max_asks=max_asks)
            except GameTooLong as e:
                where = f"game {index[here][e.row]} of the tournament"
                raise GameTooLong(too_long_message(where, max_asks, e.idle_asks, lineup, rules, by_seat),
                                  idle_asks=e.idle_asks) from None
            n_fast += int(here.sum())
        else:
            with DecisionAlarm(time_limit) as limit:
                out = _play_readable(lineup, by_seat, rules, decks[here], seeds[here], index[here], max_asks, limit)
        books[here], asks[here], winners[here] = out["books"], out["asks"], out["winners"]
    return {"books": books, "asks": asks, "winners": winners, "fast": n_fast}


def _play_readable(lineup, by_seat, rules, decks, seeds, index, max_asks, time_limit) -> dict:
    n = len(by_seat)
    out = {"books": np.zeros((len(index), n), np.int16), "asks": np.zeros(len(index), np.int32),
           "winners": np.zeros((len(index), n), bool)}
    every_rng = seat_rngs(seeds[:, :n])  # the seats' generators of every game, game by game, seat by seat
    for k, (deck, game_seeds, g) in enumerate(zip(decks, seeds, index, strict=True)):
        watch = executors.current_watch()
        if watch is not None:
            watch.game = int(g)
        try:
            game = _play_one(by_seat, rules, deck, game_seeds, max_asks=max_asks, time_limit=time_limit,
                             where=f"game {g} of the tournament", lineup=lineup, rngs=every_rng[k * n:(k + 1) * n])
        except (GameTooLong, DecisionTimeout):
            raise  # their messages name the game and the lineup already
        except Exception as e:
            e.add_note(f"(in game {g} of the tournament; lineup by seat: {', '.join(map(_label, by_seat))})")
            raise
        out["books"][k] = game.book_counts
        out["asks"][k] = game.n_asks
        out["winners"][k, list(game.winners)] = True
    return out



# --------------------------------------------------------------------------- the tournament
def simulate(lineup: Sequence, rules, games: int, seed: int | None = 0, *, n_players: int | None = None,
             executor: Executor | None = None, workers: int | None = None, progress: bool | str | None = None,
             fast: bool = True, max_asks: int = MAX_ASKS, time_limit: float | None = DECISION_SECONDS) -> Results:
    """Play ``games`` games of ``lineup`` under ``rules`` and return every game's result.

    Args:
        lineup: one strategy per seat: a built-in name (``"memory"``, ``"random"``, ...), a
            function ``f(view, rng) -> (target, rank)``, or an object with ``.choose(view, rng)``.
            Results are reported per lineup entry; seats rotate from game to game.
        rules: a :class:`Rules` or a preset name (``"pond"``, ``"family"``, ...).
        games: how many games, 1 to :data:`MAX_GAMES`.
        seed: a non-negative int; the same seed deals the same decks to any lineup. ``None``
            picks one at random (it is kept in ``Results.seed`` so the run can be repeated).
        n_players: defaults to ``len(lineup)``; if given, it must match.
        executor: a Dask ``distributed.Client`` (chunks of games become tasks on its cluster;
            a lost worker's chunks are played again on another, and with no worker left for
            :data:`~gofish_teach.executors.NO_WORKER_SECONDS` the run stops with :class:`NoWorkers`), or any
            ``concurrent.futures.Executor`` (a process pool, a thread pool...); it is not shut down.
        workers: processes for the default pool (they die with this process); ``1`` plays
            everything in this process.
            By default a long run of built-in strategies uses one process per core, and a
            lineup with your own functions runs here (pass ``workers=`` to use a pool; the
            functions must then be defined in a module, so that they can be sent to it).
        progress: show a progress bar; by default only for long runs in a notebook. A string
            shows one, labelled with it (``"games"`` otherwise).
        fast: use the fast path for lineups it supports (``False`` forces the readable engine).
        max_asks: stop with :class:`GameTooLong` if a game takes more asks than this.
        time_limit: seconds a strategy may take over one decision when games run in worker
            processes (then :class:`DecisionTimeout` names it); ``None`` for no limit. With
            ``workers=`` of 2 or more it holds whatever the number of games: an alarm stops the
            decision, and the parent kills the worker of a strategy that goes on regardless
            (:data:`~gofish_teach.executors.DEADLINE_GRACE` seconds later). In this process
            (``workers=1``) nothing can stop a strategy that never returns.

    >>> res = simulate(["random"] * 3, "pond", games=30, seed=5)
    >>> res.lineup, res.games, res.n_players
    (('random', 'random', 'random'), 30, 3)
    >>> int(res.winners.any(axis=1).sum())   # every game has a winner
    30
    >>> simulate(["random"] * 3, "pond", games=0)
    Traceback (most recent call last):
    ...
    ValueError: games must be at least 1, not 0
    >>> simulate(["random"] * 3, "pond", games=10, executor="tcp://127.0.0.1:8786")
    Traceback (most recent call last):
    ...
    ValueError: executor: give a Dask Client (Client("tcp://127.0.0.1:8786")) or a concurrent.futures.Executor, not 'tcp://127.0.0.1:8786'
    """
    rules, lineup, n, seed = _checked(lineup, rules, games, seed, n_players, workers, max_asks, time_limit)
    executor = _executor(executor)
    games = int(games)
    # Rough speeds (games per second per core) only size the chunks and decide on a progress
    # bar: chunks of a fraction of a second keep the bar moving and the workers evenly busy.
    speed = 50_000 if fast and _fast_everywhere(lineup, rules, n) else 1000
    size = speed // 10
    chunks = ((a, min(a + size, games)) for a in range(0, games, size))  # made as they are needed
    if progress is None:
        progress = games / speed > LONG_RUN_SECONDS and _in_notebook()
    # With workers= (two or more) the pool plays even a short run, so that its time limit holds.
    here = executor is None and (workers == 1 or workers is None and (games <= size or not _all_names(lineup)))
    if executor is None and workers and workers > 1:
        size = max(1, min(size, -(-games // workers)))  # every worker gets some; results do not depend on it
        chunks = ((a, min(a + size, games)) for a in range(0, games, size))
    if isinstance(executor, ProcessPoolExecutor) or not here and executor is None:
        _check_sendable(lineup)
    winners = np.zeros((games, n), bool)
    books = np.zeros((games, n), np.int16)
    asks = np.zeros(games, np.int32)
    n_fast = 0
    bar = progress_bar(games, progress if isinstance(progress, str) else "games") if progress else NoBar()
    start = time.perf_counter()
    try:
        if here:
            parts = ((a, b, play_chunk(lineup, rules, n, seed, a, b, fast, max_asks)) for a, b in chunks)
            n_fast = _collect(parts, winners, books, asks, bar)
        elif executor is not None:
            n_fast = _collect(_run_on(executor, chunks, (lineup, rules, n, seed, fast, max_asks, time_limit), 0),
                              winners, books, asks, bar)
        else:
            max_workers = min(workers or os.cpu_count() or 1, -(-games // size))
            deadlines = Deadlines(max_workers, time_limit, lineup, n) if time_limit else None
            pool = ProcessPoolExecutor(max_workers=max_workers, initializer=worker_start,
                                       initargs=(os.getpid(), deadlines))
            try:
                task = (lineup, rules, n, seed, fast, max_asks, time_limit)
                n_fast = _collect(_run_on(pool, chunks, task, max_workers, deadlines), winners, books, asks, bar)
            except BaseException:
                kill_pool(pool)  # a worker may be stuck in a decision: shutting down would wait for ever
                raise
            finally:
                pool.shutdown(wait=True, cancel_futures=True)
    finally:
        bar.close()
    seconds = time.perf_counter() - start

    offset = np.arange(games) % n
    return Results(
        lineup=tuple(map(_label, lineup)), rules=rules, n_players=n, seed=seed,
        winners=winners, books=books, asks=asks,
        first=np.zeros(games, np.int8),  # the engine always starts with seat 0
        offset=offset,
        seat_entry=(np.arange(n)[None, :] + offset[:, None]) % n,
        engine="fast" if n_fast == games else "readable" if n_fast == 0 else "fast+readable",
        seconds=seconds,
    )


def _checked(lineup, rules, games, seed, n_players, workers, max_asks, time_limit):
    """The arguments of :func:`simulate`, checked: a ``ValueError`` naming the field if one is wrong."""
    rules = _rules(rules)
    lineup = (lineup,) if isinstance(lineup, str) else tuple(lineup)
    n = len(lineup) if n_players is None else n_players
    if not isinstance(n, int) or len(lineup) != n:
        raise ValueError(f"lineup: {len(lineup)} strategies given for n_players={n_players!r}; give one per seat")
    rules.check_players(n)
    if n > SEATS:
        raise ValueError(f"n_players: tournaments seat at most {SEATS} players (one strategy seed per seat), not {n}")
    for i, entry in enumerate(lineup):
        try:
            get_strategy(entry)
        except ValueError as e:
            raise ValueError(f"lineup[{i}]: {e}") from None
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise ValueError(f"games must be at least 1, not {games!r}")
    if games > MAX_GAMES:
        raise ValueError(f"games: at most {MAX_GAMES:,} in one run (every game's result is kept in memory), "
                         f"not {games:,}; for more, run several seeds and pool the results")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise ValueError(f"workers must be a positive int, not {workers!r}")
    if isinstance(max_asks, bool) or not isinstance(max_asks, int) or max_asks < 1:
        raise ValueError(f"max_asks must be a positive int, not {max_asks!r}")
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
                                   or not time_limit > 0):
        raise ValueError(f"time_limit must be a positive number of seconds or None, not {time_limit!r}")
    seed = int(np.random.SeedSequence().entropy % 2**63) if seed is None else _seed(seed)
    return rules, lineup, n, seed


def _check_sendable(lineup) -> None:
    """Every strategy must travel to a worker process by pickling; name the first that cannot."""
    for i, entry in enumerate(lineup):
        try:
            pickle.dumps(entry)
        except Exception:
            raise ValueError(
                f"lineup[{i}]: strategy {_label(entry)!r} cannot be sent to another process (a lambda, or a "
                "function defined inside another function, cannot be pickled). Define it with def at the top "
                "level of a module (a .py file you import), or pass workers=1 to play every game in this "
                "process.") from None


def _collect(parts, winners, books, asks, bar) -> int:
    """Put each chunk's results in place as it arrives; returns how many games the fast path played."""
    n_fast = 0
    for a, b, part in parts:
        winners[a:b], books[a:b], asks[a:b] = part["winners"], part["books"], part["asks"]
        n_fast += part["fast"]
        bar.update(b - a)
    return n_fast


def _run_on(executor, chunks, task, max_workers: int, deadlines=None):
    """Yield ``(start, stop, result)`` of each chunk as it finishes (see :func:`as_finished`)."""
    lineup, rules, n, seed, fast, max_asks, time_limit = task
    calls = (((a, b), play_chunk, (lineup, rules, n, seed, a, b, fast, max_asks, time_limit)) for a, b in chunks)
    for (a, b), part in as_finished(executor, calls, max_workers, deadlines):
        yield a, b, part



# --------------------------------------------------------------------------- helpers
def _rules(rules) -> Rules:
    if isinstance(rules, Rules):
        return rules
    try:
        return Rules.preset(rules)
    except ValueError as e:
        raise ValueError(f"rules: {e}") from None


def _seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, not {seed!r}")
    return int(seed)


def _label(entry) -> str:
    return strategy_name(entry)


def _all_names(lineup) -> bool:
    # Built-in names travel to any process; a learner's function defined in a notebook may
    # not, so it runs in this process unless the caller asks for workers.
    return all(isinstance(e, str) for e in lineup)


def _fast_everywhere(lineup, rules, n) -> bool:
    return all(fast_path_plays([lineup[(s + r) % n] for s in range(n)], rules) for r in range(n))


def _in_notebook() -> bool:
    ipython = sys.modules.get("IPython")  # not imported means not in a notebook
    shell = ipython.get_ipython() if ipython else None
    return type(shell).__name__ == "ZMQInteractiveShell"


def progress_bar(total, label: str = "games"):
    # tqdm.auto: a widget bar in a notebook, a text bar on a terminal.
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="game", desc=label)


class NoBar:
    def update(self, n):
        pass

    def close(self):
        pass
