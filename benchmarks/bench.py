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
import contextlib
import functools
import json
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

# The goals of the later issues, each section in its own module (they print after the side-by-side table).
from benchmarks.bench_bestplay import bench_bestplay
from benchmarks.bench_classroom import bench_classroom
from benchmarks.bench_opponents import bench_opponents
from benchmarks.bench_search import bench_search
from benchmarks.bench_tables import bench_exact_tables, count_cost, table_goals, table_times  # noqa: F401
from benchmarks.bench_tournament import bench_tournament
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
        wins_two = sum(pool.map(_fast_chunk, *zip(*bounds, strict=True)))
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
    from gofish_teach import trust
    from gofish_teach.tournament import run_tournament

    entry = "def strategy(view, rng):\n    asks = view.legal_asks()\n    return asks[int(rng.integers(len(asks)))]\n"
    sandbox = "require" if trust.bwrap_path() else "off"
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
    rounds = [a / b for a, b in zip(new, old, strict=True)]
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
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(outcomes[rng.choice(len(outcomes), p=probs)])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[int(rng.random() * len(actions))])
    theirs = games / (time.process_time() - start)
    ours = games_per_second(this_checkout(), LINEUPS["random x4"], 5_000 if quick else 50_000, True)
    return [f"OpenSpiel go_fish, random play, 4 players: {theirs:,.0f} games per CPU second; this fast path "
            f"(random x4, pond): {ours:,.0f}, {ours / theirs:,.1f}x per core"]


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
    for line in bench_search(args.quick):
        print(line, flush=True)
    for line in bench_classroom(args.quick):
        print(line, flush=True)
    for line in bench_opponents(args.quick):
        print(line, flush=True)
    if args.all:
        for section in SECTIONS:
            if section is bench_probability:
                section = functools.partial(bench_probability, workers=args.workers)
            for line in section(args.quick):
                print(line, flush=True)
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
