"""``make bench``: the speed figures we quote, measured in one run on this machine.

It lives outside the installed package (a user's ``gofish_teach`` has no bench in it); run it
from the repository's root as ``make bench`` or ``python -m benchmarks.bench``.

The machine is shared and noisy, so the figures that count are ratios within one run: this
code against the code at commit 55d70c6 (from before views held copies, seats had their own
generators and bots skipped dead asks), the two run by turns in fresh processes, so that other
work on the machine shifts both alike. Each side runs in an isolated process (``python -I``)
started in its own checkout with only that checkout on ``sys.path``, and reports the file of
the package it imported, which is checked: a comparison of the code with itself cannot pass
for one. Give the baseline as ``--baseline PATH`` or ``GOFISH_BENCH_BASELINE=PATH`` (``PATH``
holds ``gofish_teach/``, e.g. ``git worktree add /tmp/old 55d70c6``); without it the table
says the comparison is not available. Games per second are per core of CPU time
(``time.process_time``), the best of a few runs.

Usage: ``python -m benchmarks.bench [--quick] [--baseline PATH] [--rounds N] [--table-games N] [--workers N] [--all]``.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import functools
import json
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import gofish_teach
from gofish_teach.game import Game
from gofish_teach.rules import Rules

#: The repository's root (this file is benchmarks/bench.py in it): ``python -m benchmarks.bench`` runs from here.
REPOSITORY = str(Path(__file__).resolve().parents[1])


def baseline_ops_per_second(seconds: float = 0.5) -> float:
    """Plain-Python work per second (a loop of dict and list operations): the yardstick."""
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        d, xs = {}, []
        for i in range(1000):
            d[i % 13] = d.get(i % 13, 0) + 1
            xs.append(i)
        n += 1000
    return n / (time.perf_counter() - start)


def engine_games_per_second(n_players: int, games: int, rules_name: str = "pond") -> tuple[float, float]:
    """Games per second of the readable engine with every seat playing the built-in ``random``, and mean asks per game."""
    from gofish_teach.strategies import play_out

    rules = Rules.preset(rules_name)
    rng = np.random.default_rng(0)
    asks, start = 0, time.perf_counter()
    for seed in range(games):
        asks += play_out(Game(rules, n_players, seed=seed), ["random"] * n_players, rng).n_asks
    return games / (time.perf_counter() - start), asks / games


def bench_engine(quick: bool) -> list[str]:
    games = 300 if quick else 2000
    lines = ["Readable engine, strategy 'random' in every seat, pond (one core):"]
    for n in (2, 4):
        rate, asks = engine_games_per_second(n, games)
        lines.append(f"  {n} players: {rate:8.0f} games/s  ({asks:.1f} asks per game, {games} games)")
    return lines


def _fast_chunk(start: int, stop: int, lineup=("memory", "random", "random", "random")) -> int:
    """Make the decks of games ``start .. stop-1`` and play them on the fast path; returns seat 0's wins.

    A top-level function so that a process pool can run it (bench_fast's helper).
    """
    from gofish_teach.fast import play_games
    from gofish_teach.simulate import game_inputs

    decks, seeds = game_inputs(0, "pond", np.arange(start, stop))  # as a tournament makes them
    return int(play_games(lineup, Rules.preset("pond"), decks, seeds)["winners"][:, 0].sum())


def bench_fast(quick: bool) -> list[str]:
    """The compiled fast path against the readable engine: pond, 4 players, memory vs three random."""
    from concurrent.futures import ProcessPoolExecutor

    from gofish_teach.strategies import play_out, seat_rng

    lines = ["Fast path (numba), pond, 4 players, memory vs three random:"]
    # Compile time, apart from the speed figures: a fresh process with an empty numba cache
    # compiles everything; this process then only loads the cached machine code.
    with tempfile.TemporaryDirectory() as cache:
        probe = ("import time; import gofish_teach.fast; from benchmarks.bench import _fast_chunk; "
                 "t = time.perf_counter(); _fast_chunk(0, 10); print(time.perf_counter() - t)")
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                              env=dict(os.environ, NUMBA_CACHE_DIR=cache), check=True, cwd=REPOSITORY)
    start = time.perf_counter()
    _fast_chunk(0, 10)
    lines.append(f"  compiling: {float(done.stdout):.1f} s from scratch (fresh process, empty cache); "
                 f"{time.perf_counter() - start:.2f} s to load the cached code")

    games, chunks = (40_000, 4) if quick else (400_000, 8)
    bounds = [(k * games // chunks, (k + 1) * games // chunks) for k in range(chunks)]
    start = time.perf_counter()
    wins = sum(_fast_chunk(a, b) for a, b in bounds)
    one = games / (time.perf_counter() - start)
    with ProcessPoolExecutor(2) as pool:
        list(pool.map(_fast_chunk, [0, 0], [10, 10]))  # both workers load the compiled code first
        start = time.perf_counter()
        wins_two = sum(pool.map(_fast_chunk, *zip(*bounds)))
        two = games / (time.perf_counter() - start)
    assert wins_two == wins, "the same games must give the same results on any number of workers"
    lines.append(f"  one core:  {one:9,.0f} games/s  ({games:,} games, making the decks included)")
    lines.append(f"  two cores: {two:9,.0f} games/s  (ProcessPoolExecutor(2), {chunks} chunks; load average "
                 f"{os.getloadavg()[0]:.1f}: other work on the machine takes cores from this figure first)")

    rules, readable = Rules.preset("pond"), 100 if quick else 600
    start = time.perf_counter()
    for g in range(readable):
        rngs = [seat_rng(seed) for seed in range(4 * g, 4 * g + 4)]  # one generator per seat, as tournaments do
        play_out(Game(rules, 4, seed=g), ["memory", "random", "random", "random"], rngs)
    slow = readable / (time.perf_counter() - start)
    lines.append(f"  readable engine, same lineup, one core: {slow:,.0f} games/s ({readable} games); "
                 f"the fast path is {one / slow:,.0f}x faster per core")
    lines.append(f"  (memory won {wins / games:.3f} of the games, ties counted as wins)")
    return lines


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


def bench_cluster(quick: bool) -> list[str]:
    """``simulate`` in one local process against a two-worker Dask cluster on this machine,
    started with Dask's own commands (``dask scheduler``, ``dask worker``), as the README says."""
    try:
        from distributed import Client
    except ImportError:
        return ["Dask cluster: not measured (Dask's distributed package is not installed)"]
    from gofish_teach.simulate import simulate

    lineup, games = ["memory", "random", "random", "random"], 10_000 if quick else 400_000
    simulate(lineup, "pond", 100, workers=1)  # load the compiled code first
    here = simulate(lineup, "pond", games, seed=0, workers=1)
    with dask_on_this_machine(workers=2) as address, Client(address, timeout=240) as client:
        client.wait_for_workers(2, timeout=240)
        simulate(lineup, "pond", 10_000, seed=1, executor=client)  # both workers load the compiled code
        there = simulate(lineup, "pond", games, seed=0, executor=client)
        contest = _tournament_here_and_there(client, quick)
    assert np.array_equal(there.winners, here.winners), "a cluster must play the very same games"
    one, two = games / here.seconds, games / there.seconds
    return ["simulate on a Dask cluster, pond, 4 players, memory vs three random (fast path):",
            f"  one local process:          {one:9,.0f} games/s  ({games:,} games)",
            f"  two dask workers (1 thread): {two:9,.0f} games/s  ({two / one:.2f}x; scheduler, workers and this "
            f"process share this machine's {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f})"] + contest


def _tournament_here_and_there(client, quick: bool) -> list[str]:
    """The class tournament (four learners' entries, each sandboxed at every table, and the
    built-ins) played here (its default threads) and on the cluster: seconds, same leaderboard."""
    from gofish_teach import jail
    from gofish_teach.tournament import run_tournament

    entry = "def strategy(view, rng):\n    asks = view.legal_asks()\n    return asks[int(rng.integers(len(asks)))]\n"
    sandbox = "require" if jail.bwrap_path() else "off"
    options = dict(players=2, games=1, max_tables=6) if quick else dict(players=4, games=5)
    with tempfile.TemporaryDirectory() as folder:
        for name in ("ana", "ben", "cy", "dee"):
            Path(folder, f"{name}.py").write_text(entry)
        here = run_tournament(folder, "pond", seed=3, sandbox=sandbox, **options)
        there = run_tournament(folder, "pond", seed=3, sandbox=sandbox, executor=client, **options)
    assert there.leaderboard() == here.leaderboard(), "a cluster must give the very same leaderboard"
    return [f"class tournament on the cluster, {len(here.tables)} tables x {options['games']} games, sandbox {sandbox}:",
            f"  here {here.seconds:.1f} s, two dask workers {there.seconds:.1f} s ({here.seconds / there.seconds:.2f}x; "
            "the same leaderboard)"]


@contextlib.contextmanager
def dask_on_this_machine(workers: int = 2):
    """A Dask scheduler and ``workers`` one-thread workers on 127.0.0.1, started with Dask's
    commands and killed on leaving; yields the scheduler's address."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    dask = [str(Path(sys.executable).parent / "dask")]
    commands = [dask + ["scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"]]
    commands += [dask + ["worker", address, "--nthreads", "1", "--no-dashboard", "--host", "127.0.0.1"]] * workers
    processes = []
    with tempfile.TemporaryDirectory() as folder:
        try:
            for command in commands:
                processes.append(subprocess.Popen(command, cwd=folder, stdout=subprocess.DEVNULL,
                                                  stderr=subprocess.DEVNULL, start_new_session=True))
            yield address
        finally:
            for process in processes:  # each in a session of its own, with its nanny's worker
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def bench_probability(quick: bool, workers: int = 1) -> list[str]:
    """A full probability table (posterior + table(): every hidden seat x rank, and the ocean's
    top) at every decision point of seeded games under random play, as a player following the
    game gets it (each call reuses what the previous ones worked out); every tenth point is
    also timed from scratch. Median and 99th percentile of CPU time, and the share answered exactly."""
    games = 5 if quick else 200
    lines = [f"Probability tables, exact where possible, strategy 'random' in every seat, {games} seeded games each:"]
    for name, n in (("family", 2), ("pond", 4)):
        warm, cold, exact_points, _ = table_times(name, n, games, cold_every=10, workers=workers)
        w, c = np.array(warm) * 1e3, np.array(cold) * 1e3
        lines.append(f"  {name} {n} players: median {np.median(w):6.1f} ms, p99 {np.percentile(w, 99):7.1f} ms, "
                     f"exact at {exact_points:,} of {len(w):,} points ({exact_points / len(w):.2%}) "
                     f"(from scratch: median {np.median(c):.1f} ms, p99 {np.percentile(c, 99):.1f} ms)")
    return lines


def bench_facts(quick: bool) -> list[str]:
    """A full table from stated facts (:class:`~gofish_teach.probability.Facts`): median time."""
    from gofish_teach.probability import Facts

    cases = [("1 opponent, hand only", dict(hand="7 7 Q K", hand_sizes={1: 5})),
             ("3 opponents, known cards, lacks, at most", dict(
                 hand="7 7 Q K 2", hand_sizes={1: 5, 2: 6, 3: 4}, known={1: ["Q"], 2: ["3", "3"]},
                 lacks={3: ["K", "7"]}, at_most={2: {"A": 1}}))]
    lines = ["Probability tables from stated facts (Facts(...).table(), every seat x rank and the ocean):"]
    for label, facts in cases:
        Facts(**facts).table()  # compiled code loaded once, not timed
        times = []
        for _ in range(5 if quick else 50):
            start = time.perf_counter()
            Facts(**facts).table()
            times.append(time.perf_counter() - start)
        lines.append(f"  {label}: median {np.median(times) * 1e3:.1f} ms")
    return lines


def bench_table(quick: bool) -> list[str]:
    """The playable table's learner actions (see :mod:`gofish_teach.widgets._bench`)."""
    from gofish_teach.widgets._bench import bench_table as section

    return section(quick)


# ---------------------------------------------------------------------- against the baseline commit
#: The commit the speed goals are measured against (see the module docstring).
BASELINE_COMMIT = "55d70c6"
#: Environment variable naming a checkout of BASELINE_COMMIT (``--baseline`` overrides it).
BASELINE_ENV = "GOFISH_BENCH_BASELINE"
#: The lineups of the speed goals: pond rules, 4 players.
LINEUPS = {"random x4": ["random"] * 4, "memory + 3 random": ["memory"] + ["random"] * 3,
           "memory x4": ["memory"] * 4}
#: Goals, as this code's speed over the baseline's: at least as fast on the fast path,
#: at least 0.9x on the readable engine (issue 34).
FAST_GOAL, READABLE_GOAL = 1.0, 0.9

# Run in a fresh, isolated process (``python -I``: no PYTHONPATH, no current folder on
# sys.path) from the checkout's own folder, with only that checkout put first on sys.path:
# simulate() is the one call both versions share. Prints the file of the package it imported
# (the parent checks it is the checkout's) and games per CPU second, the best of ``reps`` runs.
_MEASURE = """
import json, sys, time
lineup, games, fast, reps, checkout = json.loads(sys.argv[1])
sys.path.insert(0, checkout)
import gofish_teach
from gofish_teach.simulate import simulate
simulate(lineup, "pond", games=min(games, 100), seed=1, workers=1, fast=fast)  # loading compiled code: not timed
best = 0.0
for _ in range(reps):
    start = time.process_time()
    simulate(lineup, "pond", games=games, seed=0, workers=1, fast=fast)
    best = max(best, games / (time.process_time() - start))
print(json.dumps({"package": gofish_teach.__file__, "games_per_second": best}))
"""


class WrongPackage(RuntimeError):
    """A measuring process imported another ``gofish_teach`` than the checkout it was to time."""


def this_checkout() -> str:
    """The folder holding the ``gofish_teach`` package this process imported."""
    return str(Path(gofish_teach.__file__).resolve().parents[1])


def find_baseline(path: str | None) -> tuple[str | None, str]:
    """``(checkout, note)``: the baseline checkout to compare with, or ``None`` and why not."""
    path = path or os.environ.get(BASELINE_ENV)
    if not path:
        return None, (f"baseline {BASELINE_COMMIT}: not available (give --baseline PATH or {BASELINE_ENV}=PATH, "
                      f"a checkout of it, e.g. `git worktree add /tmp/old {BASELINE_COMMIT}`)")
    if not (Path(path) / "gofish_teach" / "simulate.py").is_file():
        return None, f"baseline {BASELINE_COMMIT}: not available ({path} holds no gofish_teach/simulate.py)"
    return str(Path(path).resolve()), f"baseline {BASELINE_COMMIT}: {Path(path).resolve()}"


def measure(checkout: str, lineup, games: int, fast: bool, reps: int = 2) -> tuple[float, str]:
    """Games per CPU second of ``simulate(lineup, "pond", games, workers=1, fast=fast)`` with the
    package of ``checkout`` (the best of ``reps`` runs), in a fresh isolated process started in
    ``checkout``, and the ``gofish_teach/__init__.py`` that process imported. Raises
    :class:`WrongPackage` unless that file is the checkout's own."""
    checkout = str(Path(checkout).resolve())
    done = subprocess.run([sys.executable, "-I", "-c", _MEASURE, json.dumps([list(lineup), games, fast, reps, checkout])],
                          cwd=checkout, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"measuring {checkout} failed:\n{done.stderr[-2000:]}")
    report = json.loads(done.stdout.splitlines()[-1])
    package = Path(report["package"]).resolve()
    if package != Path(checkout, "gofish_teach", "__init__.py"):
        raise WrongPackage(f"the process timing {checkout} imported {package}, not that checkout's package")
    return float(report["games_per_second"]), str(package)


def games_per_second(checkout: str, lineup, games: int, fast: bool, reps: int = 2) -> float:
    """:func:`measure`'s games per CPU second (the package imported checked)."""
    return measure(checkout, lineup, games, fast, reps)[0]


def speed_verdict(new: list[float], old: list[float], goal: float) -> str:
    """Whether this code's best run over the baseline's meets ``goal``, and, when it does not, how
    far off it is next to the spread of the rounds' own ratios (the two versions run by turns, so
    round i's runs ``new[i]`` and ``old[i]`` met the same spell of the machine).

    >>> speed_verdict([103, 99, 100], [100, 100, 102], 1.0)
    'goal met'
    >>> print(speed_verdict([98, 99, 97], [100, 98, 101], 1.0))
    goal (1.00x) not met by 2.0%; the rounds' ratios span 0.96-1.01x: within this machine's noise
    >>> print(speed_verdict([90, 91, 90], [100, 99, 100], 1.0))
    goal (1.00x) not met by 9.0%; the rounds' ratios span 0.90-0.92x: beyond this machine's noise
    """
    ratio = max(new) / max(old)
    if ratio >= goal:
        return "goal met"
    rounds = [a / b for a, b in zip(new, old)]
    noise = "within" if max(rounds) >= goal else "beyond"
    return (f"goal ({goal:.2f}x) not met by {1 - ratio / goal:.1%}; the rounds' ratios span "
            f"{min(rounds):.2f}-{max(rounds):.2f}x: {noise} this machine's noise")


def versus_cases(quick: bool) -> list[tuple]:
    """``(label, lineup, games, fast, goal)`` of the side-by-side table."""
    fast_games, slow_games = (5_000, 100) if quick else (50_000, 600)
    cases = [(f"readable, {name}", LINEUPS[name], slow_games, False, READABLE_GOAL)
             for name in ("random x4", "memory + 3 random")]
    cases += [(f"fast path, {name}", lineup, fast_games, True, FAST_GOAL) for name, lineup in LINEUPS.items()]
    return cases


def bench_versus(quick: bool, baseline: str | None = None, rounds: int | None = None) -> list[str]:
    """The speed goals: this code against the baseline commit, side by side in one run, as one table."""
    checkout, note = find_baseline(baseline)
    rounds = rounds or (1 if quick else 3)
    here = this_checkout()
    lines = [f"This code ({here}) against {note}",
             f"simulate(lineup, 'pond', workers=1), 4 players, games per CPU second, best of {2 * rounds} runs "
             f"({rounds} round(s) of two, the versions by turns, each in a fresh `python -I` process started in "
             "its checkout; the package each imported checked)",
             f"| {'engine, lineup':<30} | {'games':>6} | {'now':>9} | {BASELINE_COMMIT:>9} | {'ratio':>6} | goal |",
             f"|{'-' * 32}|{'-' * 8}|{'-' * 11}|{'-' * 11}|{'-' * 8}|------|"]
    for label, lineup, games, fast, goal in versus_cases(quick):
        new, old = [], []
        for _ in range(rounds):  # by turns, so that a busy spell slows both
            new.append(games_per_second(here, lineup, games, fast))
            if checkout:
                old.append(games_per_second(checkout, lineup, games, fast))
        if checkout:
            verdict = speed_verdict(new, old, goal)
            lines.append(f"| {label:<30} | {games:>6,} | {max(new):>9,.0f} | {max(old):>9,.0f} | "
                         f"{max(new) / max(old):>5.2f}x | {goal:.2f}x: {verdict} |")
        else:
            lines.append(f"| {label:<30} | {games:>6,} | {max(new):>9,.0f} | {'-':>9} | {'-':>6} | {goal:.2f}x |")
    return lines


def bench_openspiel(quick: bool) -> list[str]:
    """OpenSpiel's ``go_fish``, random play, 4 players, per core, when ``open_spiel`` is installed
    (it is not a dependency), next to this fast path in the same run."""
    try:
        import pyspiel
    except ImportError:
        return ["OpenSpiel: not installed here (`pip install open_spiel` to compare its go_fish per core); skipped"]
    try:
        game = pyspiel.load_game("go_fish", {"players": 4})
    except Exception as e:  # a build without go_fish, or other parameter names
        return [f"OpenSpiel: installed, but go_fish with 4 players did not load ({e}); skipped"]
    rng, games = np.random.default_rng(0), 200 if quick else 3000
    start = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(outcomes[rng.choice(len(outcomes), p=probs)])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[int(rng.random() * len(actions))])
    theirs = games / (time.process_time() - start)
    ours = games_per_second(this_checkout(), LINEUPS["random x4"], 5_000 if quick else 50_000, True)
    return [f"OpenSpiel go_fish, random play, 4 players: {theirs:,.0f} games per CPU second; this fast path "
            f"(random x4, pond): {ours:,.0f}, {ours / theirs:,.1f}x per core"]


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
    slow = [(s, work) for s, (work, exact) in zip(times, costs) if s > TABLE_WAIT and exact]
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


def bench_table_six(quick: bool) -> list[str]:
    """The Table at 6 players (you and five bots, greedy among them) with the knowledge panel on, as a
    kernel plays it after a click (one bot ask per event, the panel's count an event of its own): the
    kernel CPU time of each kind of action, the exact counts made within the events (before) and in the
    counting thread (now, the same games alternately), and the worst single action of each. With the
    thread, the kernel's events make no count; what the counts still cost is the wait for the panel to
    fill in and for a greedy bot to ask, reported as the thread's jobs."""
    from gofish_teach.widgets._bench import _lines, learner_actions

    games = 1 if quick else 3
    opponents = ("memory", "random", "greedy", "random", "greedy")
    times: dict[bool, dict[str, list[float]]] = {False: {}, True: {}}
    for g in range(games):
        for background in (False, True):
            for action, t in learner_actions(games=1, seed=g, opponents=opponents, knowledge=True,
                                             max_actions=30 if quick else 10_000, clock=time.process_time,
                                             background=background).items():
                times[background].setdefault(action, []).extend(t)
    lines = [f"The table, pond, 6 players (you, {', '.join(opponents)}), knowledge panel on, {games} game(s): "
             "CPU time of each action"]
    worst = {}
    for background, label in ((False, "counts within the kernel's events (before)"),
                              (True, "counts in the counting thread (now)")):
        mine = {action: t for action, t in times[background].items() if t}
        kernel = {a: t for a, t in mine.items() if not a.startswith("counting thread")}
        thread = {a: t for a, t in mine.items() if a.startswith("counting thread")}
        lines += [f"  {label}:"] + _lines(mine, "  ")
        worst[background] = max(((max(t), a) for a, t in kernel.items()), default=(0.0, "none"))
        lines.append(f"  6 players, {label}: worst kernel action {worst[background][0] * 1e3:,.0f} ms "
                     f"({worst[background][1]}; goal: under 500 ms)")
        if thread:
            slow = max((max(t), a) for a, t in thread.items())
            lines.append(f"  6 players, {label}: longest job of the counting thread {slow[0] * 1e3:,.0f} ms "
                         f"({slow[1][len('counting thread: '):]}): the panel says \"Counting…\" (or the bot is "
                         "to ask) that long, the kernel free for clicks meanwhile")
    return lines


#: The sections ``--all`` adds after the table (each a function ``f(quick) -> lines``).
SECTIONS = [bench_engine, bench_fast, bench_cluster, bench_facts, bench_probability, bench_table, bench_table_six]


def machine() -> str:
    """Date, machine and load, for the head of the report."""
    import platform

    return (f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()}, {os.cpu_count()} cores, "
            f"load average {os.getloadavg()[0]:.1f}, Python {platform.python_version()}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer games, for a smoke test")
    parser.add_argument("--baseline", metavar="PATH",
                        help=f"a checkout of commit {BASELINE_COMMIT} to compare with (default: ${BASELINE_ENV})")
    parser.add_argument("--rounds", type=int, metavar="N", help="rounds of the side-by-side table (default 3; 1 with --quick)")
    parser.add_argument("--table-games", type=int, metavar="N",
                        help="seeded games per case of the exact-table goals (default 200; 2 with --quick; 0 skips them)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, metavar="N",
                        help="processes that share the games of the probability sections (default: one per core)")
    parser.add_argument("--all", action="store_true",
                        help="also the older sections (compile time, two cores, Dask, facts, the table's actions)")
    args = parser.parse_args(argv)
    print(f"make bench: {machine()}", flush=True)
    for line in bench_versus(args.quick, args.baseline, args.rounds):
        print(line, flush=True)
    for line in bench_openspiel(args.quick):
        print(line, flush=True)
    if args.table_games != 0:
        for line in bench_exact_tables(args.quick, args.table_games, args.workers):
            print(line, flush=True)
    for line in bench_tournament(args.quick):
        print(line, flush=True)
    for line in bench_bestplay(args.quick):
        print(line, flush=True)
    print(*__import__("benchmarks.bench_search").bench_search.bench_search(args.quick), sep="\n", flush=True)
    if args.all:
        for section in SECTIONS:
            if section is bench_probability:
                section = functools.partial(bench_probability, workers=args.workers)
            for line in section(args.quick):
                print(line, flush=True)
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


def bench_tournament(quick: bool) -> list[str]:
    """The class tournament of issue 34: 30 honest entries, 200 tables x 5 games at 4 players, sandboxed
    (a fresh sandbox per entry per table). Goal: under 40 s on a 2-core machine. Needs bubblewrap."""
    from gofish_teach import jail
    from gofish_teach.tournament.speed import describe, tournament_bench

    if jail.bwrap_path() is None:
        return ["class tournament: not timed (no bubblewrap: apt-get install bubblewrap)"]
    figures = tournament_bench(entries=4 if quick else 30, max_tables=10 if quick else 200)
    goal = "" if quick else f"; goal 40 s: {'met' if figures['seconds'] < 40 else 'not met'}"
    return [describe(figures) + goal]


def bench_bestplay(quick: bool) -> list[str]:
    """The exact best response's sizes and times (issue 37), one seat at a time. Goals: 4 ranks, 3 cards
    each, under 10 s a seat; 5 ranks (the largest hands it takes) under 2 minutes. Wall-clock and processor
    time both: the processor time is what the load of other programs does not inflate."""
    from gofish_teach.bestplay import bench

    sizes = ((3, 2),) if quick else ((3, 2), (4, 3), (5, 7))
    rows = bench(sizes=sizes, out=False)
    goals = {4: 10, 5: 120}
    lines = [f"best response, pond, {r['ranks']} ranks, {r['hand']} cards each, seat {r['seat']} vs memory: "
             f"{r['value']:.4f} (memory itself {r['builtin']:.4f}), {r['states']:,} states, {r['seconds']:.1f} s "
             f"({r['cpu']:.1f} s processor)"
             + (f"; goal {goals[r['ranks']]} s: {'met' if r['seconds'] < goals[r['ranks']] else 'not met'}"
                if r["ranks"] in goals else "")
             for r in rows]
    return lines


if __name__ == "__main__":
    main()
