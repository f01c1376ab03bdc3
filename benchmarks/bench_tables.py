"""The exact tables' goals (``posterior(view).table()`` at every decision), a section of ``make bench``:
every decision exact, median under 50 ms and 99th percentile under 500 ms of CPU time."""
from __future__ import annotations

import concurrent.futures
import multiprocessing
import time

import numpy as np

from gofish_teach.game import Game
from gofish_teach.rules import Rules


def count_cost(view, answered_exactly: bool) -> int | None:
    """What the exact count at ``view`` cost, or would cost (:func:`~.probability.contract.work`,
    multiply-adds per prime, in the cheapest order of the ranks found), just after ``posterior(view)``
    answered (``answered_exactly`` or not): from :data:`~.probability.exact.MEMORY`, which holds the
    count or the :class:`~.probability.exact.TooBig` it raised. None where no hands were joined (one
    hidden hand) or they were too wide to weigh."""
    from gofish_teach.probability import exact
    from gofish_teach.probability.history import read

    story, ranks, book = read(view), len(view.ranks), view.rules.book_size
    try:
        return exact.world_counts(story, ranks, book).work
    except exact.TooBig as why:
        if answered_exactly:  # sampling could not start: counted past the joined-states limit
            return exact.world_counts(story, ranks, book, joint=exact.LAST_RESORT_JOINT).work
        return why.work


def _game_table_times(name: str, n: int, seed: int, cold_every: int = 0) -> tuple[list, list, int, list]:
    """:func:`table_times` for one seeded game (in whichever process runs it)."""
    from gofish_teach.probability import exact, posterior
    from gofish_teach.strategies import random as random_ask

    warm, cold, exact_points, costs = [], [], 0, []
    game, rng = Game(Rules.preset(name), n, seed=seed), np.random.default_rng(seed)
    while not game.is_over:
        view = game.view(game.current_player)
        start = time.process_time()
        post = posterior(view, samples=2000)
        post.table()
        warm.append(time.process_time() - start)
        exact_points += post.exact
        costs.append((count_cost(view, post.exact), post.exact))  # not timed: answered from memory
        if cold_every and len(warm) % cold_every == 1:
            exact.forget()
            start = time.process_time()
            posterior(view, samples=2000).table()
            cold.append(time.process_time() - start)
        game.ask(*random_ask(view, rng))
    return warm, cold, exact_points, costs


def table_times(name: str, n: int, games: int, cold_every: int = 0, workers: int = 1) -> tuple[list, list, int, list]:
    """CPU seconds for ``posterior(view, samples=2000).table()`` at every decision of ``games``
    seeded games of random play (warm: each call reuses what the previous ones in its game worked
    out), seconds from scratch at every ``cold_every``-th point of a game (none if 0), how many
    points were exact, and at each point ``(count_cost(view), exact)`` (see :func:`count_cost`).
    With ``workers > 1`` the games are shared among that many processes (each game stays in one,
    so it is followed as a player would); CPU time is each process's own.

    >>> warm, cold, exact_points, costs = table_times("family", 2, 1, cold_every=5)
    >>> exact_points == len(warm) == len(costs) and len(cold) == (len(warm) + 4) // 5
    True
    """
    from gofish_teach.probability import warm

    # Each process compiles, or loads from numba's cache, the compiled loops before anything is
    # timed: otherwise the first answer that needs them would carry seconds (20 s in a new checkout).
    if workers <= 1:
        warm()
        parts = [_game_table_times(name, n, seed, cold_every) for seed in range(games)]
    else:
        warm()  # once here first, so the workers load the compiled code from disk rather than all compile it
        # "spawn": a fresh interpreter per worker, never a fork of this one's BLAS and numba threads
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context, initializer=warm) as pool:
            parts = list(pool.map(_game_table_times, [name] * games, [n] * games, range(games),
                                  [cold_every] * games))
    warm = [t for part in parts for t in part[0]]
    cold = [t for part in parts for t in part[1]]
    return warm, cold, sum(part[2] for part in parts), [c for part in parts for c in part[3]]


#: The exact-table goals: every decision exact, median and p99 (seconds) under these.
TABLE_MEDIAN, TABLE_P99, TABLE_WAIT = 0.050, 0.500, 0.500


def table_goals(times, costs, work_limit: int) -> list[str]:
    """The exact-table goals for one case, met or not, and what limits the ones that are not.

    ``times`` are CPU seconds per decision and ``costs`` ``(work, exact)`` (see :func:`table_times`);
    ``work_limit`` is ``LIMITS["work"]``. The decisions not answered exactly are told apart by what
    their count would cost (past the work limit, or too wide to weigh); those that took longer than
    :data:`TABLE_WAIT` by what theirs cost, with the CPU time per multiply-add that links the two.

    >>> ms, M = 1e-3, 10 ** 6
    >>> times = [10 * ms, 20 * ms, 600 * ms, 30 * ms, 40 * ms]
    >>> costs = [(None, True), (M, True), (400 * M, True), (900 * M, False), (None, False)]
    >>> for line in table_goals(times, costs, 850 * M): print(line)
    median and p99 under 50 and 500 ms: median met, p99 not met
    not exact at 2 of 5 points: 1 would cost 0.90 billion multiply-adds in the cheapest order found, past LIMITS['work'] = 0.85 billion; 1 too wide to weigh
    over 500 ms at 1 point: exact counts of 0.40 billion multiply-adds (1.50 ns each, median); the work limit bounds the slowest
    """
    from gofish_teach.probability.exact import Graded

    def billions(works) -> str:
        low, high = f"{works[0] / 1e9:.2f}", f"{works[-1] / 1e9:.2f}"
        return f"{low} billion" if low == high else f"{low}-{high} billion"

    t = np.array(times)
    verdict = lambda ok: "met" if ok else "not met"
    lines = [f"median and p99 under {TABLE_MEDIAN * 1e3:.0f} and {TABLE_P99 * 1e3:.0f} ms: "
             f"median {verdict(np.median(t) < TABLE_MEDIAN)}, p99 {verdict(np.percentile(t, 99) < TABLE_P99)}"]
    sampled = [work for work, exact in costs if not exact]
    if sampled:
        weighed = sorted(w for w in sampled if w is not None)
        line = f"not exact at {len(sampled):,} of {len(costs):,} points: "
        if weighed:
            line += (f"{len(weighed):,} would cost {billions(weighed)} multiply-adds "
                     f"in the cheapest order found, past LIMITS['work'] = {work_limit / 1e9:.2f} billion; ")
        lines.append(line + f"{len(sampled) - len(weighed):,} too wide to weigh")
    else:
        lines.append(f"exact at every one of {len(costs):,} points: met")
    slow = [(s, work) for s, (work, exact) in zip(times, costs, strict=True) if s > TABLE_WAIT and exact]
    if slow:
        works = sorted(w for _, w in slow if w)
        per_add = np.median([s / w for s, w in slow if w]) * 1e9 if works else float("nan")
        line = f"over {TABLE_WAIT * 1e3:.0f} ms at {len(slow):,} point{'s' if len(slow) > 1 else ''}: "
        if works:
            line += (f"exact counts of {billions(works)} multiply-adds "
                     f"({per_add:.2f} ns each, median); the work limit bounds the slowest")
        graded = sum(isinstance(w, Graded) for _, w in slow)
        if graded:
            line += f"; {graded} counted graded (their multiply-adds as reckoned, GRADED_COST x share x dense)"
        lines.append(line)
    return lines


def bench_exact_tables(quick: bool, games: int | None = None, workers: int = 1) -> list[str]:
    """The exact-table goals: ``posterior(view).table()`` at every decision of seeded games under
    random play, warm (as a player following the game gets them): median, p99, worst (CPU time),
    and the share answered exactly, for pond at 5 and 6 players and family and bicycle at their
    largest; each goal met or not, and what limits those that are not (:func:`table_goals`).
    ``workers`` processes share the games."""
    from gofish_teach.probability.exact import LIMITS

    games = games or (2 if quick else 200)
    cases = [("pond", 5), ("pond", 6)]
    cases += [(name, Rules.preset(name).max_players) for name in ("family", "bicycle")]
    lines = [f"Exact tables, posterior(view).table() at every decision, random play, {games} seeded games each, "
             f"CPU time, {workers} process(es) "
             "(goals: exact at every decision; median under 50 ms and p99 under 500 ms):"]
    for name, n in cases:
        times, _, exact_points, costs = table_times(name, n, games, workers=workers)
        t = np.array(times) * 1e3
        lines.append(f"  {name} {n} players: median {np.median(t):6.1f} ms, p99 {np.percentile(t, 99):7.1f} ms, "
                     f"worst {t.max():7.1f} ms, exact at {exact_points:,} of {len(t):,} points "
                     f"({exact_points / len(t):.2%})")
        lines += ["    " + line for line in table_goals(times, costs, LIMITS["work"])]
    return lines
