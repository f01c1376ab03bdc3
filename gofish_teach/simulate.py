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
* **Chunks.** Games are played in chunks of consecutive indices, on any
  ``concurrent.futures.Executor``. A game's result depends only on its inputs, so the
  results are the same whatever the executor and however many workers.
"""
from __future__ import annotations

import os
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from .cards import SUITS, Card
from .game import Game
from .rules import Rules
from .strategies import GameTooLong, play_out

#: Decks are made this many games at a time, from one generator per block (much faster than
#: one generator per game); game g is row g % BLOCK of block g // BLOCK.
BLOCK = 1000
#: Default safety cap on asks in one game; built-in strategies need a few hundred at most.
MAX_ASKS = 10_000
#: A progress bar is shown (in a notebook) when a run is expected to take longer than this.
LONG_RUN_SECONDS = 3.0
#: Cards of each rank, one per suit. A deck is passed around as card codes
#: ``rank_index * CARDS_PER_RANK + suit_index`` (see :func:`deck_cards`).
CARDS_PER_RANK = len(SUITS)
#: The built-in strategies the compiled fast path (:mod:`gofish_teach.fast`) plays.
FAST_STRATEGIES: tuple[str, ...] = ("random", "memory", "most_held")
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
        suits in the order of ``cards.SUITS`` (see :func:`deck_cards`); and ``seeds``, ``uint64`` ``(G,)``: game ``g``'s strategies
        share one generator, ``numpy.random.default_rng(int(seeds[g]))``.

    Game ``g`` depends only on ``(seed, g)``: its deck is row ``g % BLOCK`` of the block
    ``numpy.random.default_rng([seed, g // BLOCK]).permuted(..., axis=1)``, and its strategy
    seed comes from the same generator just after that block's decks. So any chunk of games
    can be made on its own and every lineup sees the same decks.

    >>> decks, seeds = game_inputs(7, "pond", [0, 1, 1234])
    >>> decks.shape, decks.dtype, seeds.dtype
    ((3, 52), dtype('int8'), dtype('uint64'))
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
    seeds = np.empty(len(index), np.uint64)
    fresh = np.broadcast_to(np.arange(size, dtype=np.int8), (BLOCK, size))
    for block in np.unique(index // BLOCK):
        rng = np.random.default_rng([seed, int(block)])
        block_decks = rng.permuted(fresh, axis=1)
        block_seeds = rng.integers(0, 2**64, size=BLOCK, dtype=np.uint64, endpoint=False)
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
    return [Card(ranks[int(c) // CARDS_PER_RANK], SUITS[int(c) % CARDS_PER_RANK]) for c in codes]


def fast_path_plays(lineup: Sequence, rules: Rules) -> bool:
    """Whether the compiled fast path can play this lineup (strategies by seat) under ``rules``.

    Answered here, without loading numba (which takes a moment), so that a run the fast path
    cannot play never loads it.

    >>> fast_path_plays(["memory", "random"], Rules.preset("family"))
    True
    >>> fast_path_plays(["greedy", "random"], Rules.preset("pond")), fast_path_plays(["random"] * 2, Rules(specific_card=True))
    (False, False)
    """
    if rules.specific_card:
        return False
    if not all(isinstance(name, str) and name in FAST_STRATEGIES for name in lineup):
        return False
    try:
        rules.check_players(len(lineup))
    except ValueError:
        return False
    return True


# --------------------------------------------------------------------------- the readable engine
def play_game_readable(lineup: Sequence, rules: Rules, deck_codes, seed: int, *,
                       max_asks: int | None = None) -> dict[str, np.ndarray]:
    """One game with the readable engine (:class:`Game` driven by :mod:`~gofish_teach.strategies`):
    the reference :func:`gofish_teach.fast.play_games` is checked against.

    ``lineup`` may hold any strategies (names, functions or objects), not only the fast ones.
    With ``max_asks``, a game that reaches that many asks raises :class:`GameTooLong`.

    >>> decks, seeds = game_inputs(7, "pond", 1)
    >>> out = play_game_readable(["memory", "random"], Rules.preset("pond"), decks[0], seeds[0])
    >>> sorted(out), int(out["books"].sum())
    (['asks', 'books', 'winners'], 13)
    """
    game = Game(rules, len(lineup), deck=deck_cards(rules, deck_codes))
    strategies = list(lineup) if max_asks is None else [_capped(s, game, 0, max_asks) for s in lineup]
    play_out(game, strategies, np.random.default_rng(int(seed)))
    winners = np.zeros(len(lineup), np.bool_)
    winners[list(game.winners)] = True
    return {"books": np.array(game.book_counts, np.int64), "asks": game.n_asks, "winners": winners}


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
               fast: bool = True, max_asks: int = MAX_ASKS) -> dict:
    """Play games ``start .. stop-1`` of a tournament; what each worker runs.

    Returns plain arrays (``books``, ``asks``, ``winners``) and ``fast``, how many of the
    games the fast path played. A top-level function of plain arguments, so any executor
    (processes, threads, Dask) can run it.
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

            out = play_games(by_seat, rules, decks[here], seeds[here], max_asks=max_asks)
            n_fast += int(here.sum())
        else:
            out = _play_readable(by_seat, rules, decks[here], seeds[here], index[here], max_asks)
        books[here], asks[here], winners[here] = out["books"], out["asks"], out["winners"]
    return {"books": books, "asks": asks, "winners": winners, "fast": n_fast}


def _play_readable(by_seat, rules, decks, seeds, index, max_asks) -> dict:
    n = len(by_seat)
    out = {"books": np.zeros((len(index), n), np.int16), "asks": np.zeros(len(index), np.int32),
           "winners": np.zeros((len(index), n), bool)}
    for k, (deck, seed, g) in enumerate(zip(decks, seeds, index)):
        game = Game(rules, n, deck=deck_cards(rules, deck))
        try:
            play_out(game, [_capped(s, game, g, max_asks) for s in by_seat], np.random.default_rng(int(seed)))
        except Exception as e:
            e.add_note(f"(in game {g} of the tournament; lineup by seat: {', '.join(map(_label, by_seat))})")
            raise
        out["books"][k] = game.book_counts
        out["asks"][k] = game.n_asks
        out["winners"][k, list(game.winners)] = True
    return out


def _capped(strategy, game: Game, g: int, max_asks: int) -> Callable:
    """``strategy``, stopping the game with :class:`GameTooLong` once it reaches ``max_asks`` asks."""
    from .strategies import get_strategy

    choose = get_strategy(strategy)

    def capped(view, rng):
        if game.n_asks >= max_asks:
            raise GameTooLong(
                f"game {g} passed max_asks={max_asks} asks without ending: is a strategy asking for cards "
                "it can never get? Raise max_asks= if games really are this long.")
        return choose(view, rng)

    capped.__name__ = _label(strategy)  # so play_out's messages name the real strategy
    return capped


# --------------------------------------------------------------------------- the tournament
def simulate(lineup: Sequence, rules, games: int, seed: int | None = 0, *, n_players: int | None = None,
             executor: Executor | None = None, workers: int | None = None, progress: bool | None = None,
             fast: bool = True, max_asks: int = MAX_ASKS) -> Results:
    """Play ``games`` games of ``lineup`` under ``rules`` and return every game's result.

    Args:
        lineup: one strategy per seat: a built-in name (``"memory"``, ``"random"``, ...), a
            function ``f(view, rng) -> (target, rank)``, or an object with ``.choose(view, rng)``.
            Results are reported per lineup entry; seats rotate from game to game.
        rules: a :class:`Rules` or a preset name (``"pond"``, ``"family"``, ...).
        games: how many games (at least 1).
        seed: a non-negative int; the same seed deals the same decks to any lineup. ``None``
            picks one at random (it is kept in ``Results.seed`` so the run can be repeated).
        n_players: defaults to ``len(lineup)``; if given, it must match.
        executor: any ``concurrent.futures.Executor`` to run chunks of games on (a process
            pool, a thread pool, Dask's ``client.get_executor()``); it is not shut down.
        workers: processes for the default pool; ``1`` plays everything in this process.
            By default a long run of built-in strategies uses one process per core, and a
            lineup with your own functions runs here (pass ``workers=`` to use a pool).
        progress: show a progress bar; by default only for long runs in a notebook.
        fast: use the fast path for lineups it supports (``False`` forces the readable engine).
        max_asks: stop with :class:`GameTooLong` if a game takes more asks than this.

    >>> res = simulate(["random"] * 3, "pond", games=30, seed=5)
    >>> res.lineup, res.games, res.n_players
    (('random', 'random', 'random'), 30, 3)
    >>> int(res.winners.any(axis=1).sum())   # every game has a winner
    30
    >>> simulate(["random"] * 3, "pond", games=0)
    Traceback (most recent call last):
    ...
    ValueError: games must be at least 1, not 0
    """
    rules, lineup, n, seed = _checked(lineup, rules, games, seed, n_players, workers, max_asks)
    games = int(games)
    # Rough speeds (games per second per core) only size the chunks and decide on a progress
    # bar: chunks of a fraction of a second keep the bar moving and the workers evenly busy.
    speed = 50_000 if fast and _fast_everywhere(lineup, rules, n) else 1000
    size = speed // 10
    chunks = [(a, min(a + size, games)) for a in range(0, games, size)]
    if progress is None:
        progress = games / speed > LONG_RUN_SECONDS and _in_notebook()
    bar = _progress_bar(games) if progress else _NoBar()
    task = (lineup, rules, n, seed)
    start = time.perf_counter()
    try:
        if executor is not None:
            parts = _run_on(executor, chunks, task, fast, max_asks, bar)
        elif workers == 1 or len(chunks) == 1 or (workers is None and not _all_names(lineup)):
            parts = _run_here(chunks, task, fast, max_asks, bar)
        else:
            with ProcessPoolExecutor(max_workers=min(workers or os.cpu_count() or 1, len(chunks))) as pool:
                parts = _run_on(pool, chunks, task, fast, max_asks, bar)
    finally:
        bar.close()
    seconds = time.perf_counter() - start

    offset = np.arange(games) % n
    n_fast = sum(p["fast"] for p in parts)
    return Results(
        lineup=tuple(map(_label, lineup)), rules=rules, n_players=n, seed=seed,
        winners=np.concatenate([p["winners"] for p in parts]),
        books=np.concatenate([p["books"] for p in parts]),
        asks=np.concatenate([p["asks"] for p in parts]),
        first=np.zeros(games, np.int8),  # the engine always starts with seat 0
        offset=offset,
        seat_entry=(np.arange(n)[None, :] + offset[:, None]) % n,
        engine="fast" if n_fast == games else "readable" if n_fast == 0 else "fast+readable",
        seconds=seconds,
    )


def _checked(lineup, rules, games, seed, n_players, workers, max_asks):
    """The arguments of :func:`simulate`, checked: a ``ValueError`` naming the field if one is wrong."""
    from .strategies import get_strategy

    rules = _rules(rules)
    lineup = (lineup,) if isinstance(lineup, str) else tuple(lineup)
    n = len(lineup) if n_players is None else n_players
    if not isinstance(n, int) or len(lineup) != n:
        raise ValueError(f"lineup: {len(lineup)} strategies given for n_players={n_players!r}; give one per seat")
    rules.check_players(n)
    for i, entry in enumerate(lineup):
        try:
            get_strategy(entry)
        except ValueError as e:
            raise ValueError(f"lineup[{i}]: {e}") from None
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise ValueError(f"games must be at least 1, not {games!r}")
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise ValueError(f"workers must be a positive int, not {workers!r}")
    if not isinstance(max_asks, int) or max_asks < 1:
        raise ValueError(f"max_asks must be a positive int, not {max_asks!r}")
    seed = int(np.random.SeedSequence().entropy % 2**63) if seed is None else _seed(seed)
    return rules, lineup, n, seed


def _run_here(chunks, task, fast, max_asks, bar) -> list[dict]:
    parts = []
    for a, b in chunks:
        parts.append(play_chunk(*task, a, b, fast, max_asks))
        bar.update(b - a)
    return parts


def _run_on(executor, chunks, task, fast, max_asks, bar) -> list[dict]:
    futures = {executor.submit(play_chunk, *task, a, b, fast, max_asks): k for k, (a, b) in enumerate(chunks)}
    parts: list = [None] * len(chunks)
    try:
        for future in as_completed(futures):
            k = futures[future]
            parts[k] = future.result()
            bar.update(chunks[k][1] - chunks[k][0])
    finally:
        for future in futures:  # on an error or Ctrl-C, do not leave the rest running
            future.cancel()
    return parts


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
    from .strategies import strategy_name

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


def _progress_bar(total):
    # tqdm.auto: a widget bar in a notebook, a text bar on a terminal.
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="game", desc="games")


class _NoBar:
    def update(self, n):
        pass

    def close(self):
        pass
