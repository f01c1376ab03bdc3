"""``make bench``: the speed figures we quote, measured in one run on this machine.

The machine is shared and noisy, so each figure is printed next to a baseline measured in
the same run (a fixed amount of plain-Python work), and the ratio is what to compare
between runs. Usage: ``python -m gofish_teach.bench [--quick]``.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from .game import Game
from .rules import Rules


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
    from .strategies import play_out

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
    from .fast import play_games
    from .simulate import game_inputs

    decks, seeds = game_inputs(0, "pond", np.arange(start, stop))  # as a tournament makes them
    return int(play_games(lineup, Rules.preset("pond"), decks, seeds)["winners"][:, 0].sum())


def bench_fast(quick: bool) -> list[str]:
    """The compiled fast path against the readable engine: pond, 4 players, memory vs three random."""
    from concurrent.futures import ProcessPoolExecutor

    from .strategies import play_out, seat_rng

    lines = ["Fast path (numba), pond, 4 players, memory vs three random:"]
    # Compile time, apart from the speed figures: a fresh process with an empty numba cache
    # compiles everything; this process then only loads the cached machine code.
    with tempfile.TemporaryDirectory() as cache:
        probe = ("import time; import gofish_teach.fast; from gofish_teach.bench import _fast_chunk; "
                 "t = time.perf_counter(); _fast_chunk(0, 10); print(time.perf_counter() - t)")
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                              env=dict(os.environ, NUMBA_CACHE_DIR=cache), check=True)
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


def bench_cluster(quick: bool) -> list[str]:
    """``simulate`` in one local process against a two-worker Dask cluster on this machine,
    started with Dask's own commands (``dask scheduler``, ``dask worker``), as the README says."""
    try:
        from distributed import Client
    except ImportError:
        return ["Dask cluster: not measured (Dask's distributed package is not installed)"]
    from .simulate import simulate

    lineup, games = ["memory", "random", "random", "random"], 10_000 if quick else 400_000
    simulate(lineup, "pond", 100, workers=1)  # load the compiled code first
    here = simulate(lineup, "pond", games, seed=0, workers=1)
    with dask_on_this_machine(workers=2) as address, Client(address, timeout=240) as client:
        client.wait_for_workers(2, timeout=240)
        simulate(lineup, "pond", 10_000, seed=1, executor=client)  # both workers load the compiled code
        there = simulate(lineup, "pond", games, seed=0, executor=client)
    assert np.array_equal(there.winners, here.winners), "a cluster must play the very same games"
    one, two = games / here.seconds, games / there.seconds
    return ["simulate on a Dask cluster, pond, 4 players, memory vs three random (fast path):",
            f"  one local process:          {one:9,.0f} games/s  ({games:,} games)",
            f"  two dask workers (1 thread): {two:9,.0f} games/s  ({two / one:.2f}x; scheduler, workers and this "
            f"process share this machine's {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f})"]


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


def bench_probability(quick: bool) -> list[str]:
    """A full probability table (posterior + table(): every hidden seat x rank, and the ocean's
    top) at every decision point of seeded games under random play, as a player following the
    game gets it (each call reuses what the previous ones worked out); every tenth point is
    also timed from scratch. Median and 99th percentile, and the share answered exactly."""
    from .probability import exact, posterior
    from .strategies import random as random_ask

    games = 5 if quick else 200
    lines = [f"Probability tables, exact where possible, strategy 'random' in every seat, {games} seeded games each:"]
    for name, n in (("family", 2), ("pond", 4)):
        warm, cold, exact_points = [], [], 0
        for seed in range(games):
            game, rng = Game(Rules.preset(name), n, seed=seed), np.random.default_rng(seed)
            while not game.is_over:
                view = game.view(game.current_player)
                start = time.perf_counter()
                post = posterior(view, samples=2000)
                post.table()
                warm.append(time.perf_counter() - start)
                exact_points += post.exact
                if len(warm) % 10 == 1:
                    exact.forget()
                    start = time.perf_counter()
                    posterior(view, samples=2000).table()
                    cold.append(time.perf_counter() - start)
                game.ask(*random_ask(view, rng))
        w, c = np.array(warm) * 1e3, np.array(cold) * 1e3
        lines.append(f"  {name} {n} players: median {np.median(w):6.1f} ms, p99 {np.percentile(w, 99):7.1f} ms, "
                     f"exact at {exact_points:,} of {len(w):,} points ({exact_points / len(w):.2%}) "
                     f"(from scratch: median {np.median(c):.1f} ms, p99 {np.percentile(c, 99):.1f} ms)")
    return lines


def bench_facts(quick: bool) -> list[str]:
    """A full table from stated facts (:class:`~gofish_teach.probability.Facts`): median time."""
    from .probability import Facts

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
    from .widgets._bench import bench_table as section

    return section(quick)


SECTIONS = [bench_engine, bench_fast, bench_cluster, bench_facts, bench_probability, bench_table]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m gofish_teach.bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer games, for a smoke test")
    args = parser.parse_args(argv)
    base = baseline_ops_per_second()
    print(f"Baseline: {base / 1e6:.2f} M plain-Python ops/s (compare ratios between runs, not raw figures)")
    for section in SECTIONS:
        for line in section(args.quick):
            print(line)
    print(f"Baseline after: {baseline_ops_per_second() / 1e6:.2f} M ops/s")


if __name__ == "__main__":
    main()
