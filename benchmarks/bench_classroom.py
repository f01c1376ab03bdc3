"""The class at the table under load (issue 44), a section of ``make bench``.

The same load as ``tests/test_classroom_load.py``: a host started as a teacher starts it
(``python -m gofish_teach host``, its own process, on loopback), 10 tables of 4 learners, each
learner a websocket client that asks at random among its legal asks whenever it is its turn;
every table played to the end at the same time. Measured: the time from an ask being sent to the
moment every seat at that table has received the update holding it (the 99th percentile over
every ask; goal 100 ms on a 2-core machine), and the host's peak memory (goal under 300 MB).
The clients run in this process, the host in its own, so the host's figure is its own.

Two paces: learners who think 0.1 to 0.5 s before each ask (quicker than a class, about 70 asks a
second over the 40 seats), and clients that ask the instant their turn comes (some 700 asks a
second: far past any class, the host and the 40 clients then share the two cores flat out, and
the figure is mostly time spent queueing).
"""
from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

#: How long the host may take to start (imports, numba's cache) on a loaded machine.
START_SECONDS = 120


def start_host(data, port: int | None = 0, extra=()) -> tuple[subprocess.Popen, str]:
    """``python -m gofish_teach host`` on 127.0.0.1 (its own process group); ``(process, address)``.
    ``port=None`` gives no ``--port`` (the host takes the port its data folder used last)."""
    ports = [] if port is None else ["--port", str(port)]
    process = subprocess.Popen([sys.executable, "-m", "gofish_teach", "host", "--data", str(data), "--ip", "127.0.0.1",
                                *ports, "--no-qr", *extra], stdout=subprocess.PIPE,
                               stderr=open(Path(data).parent / f"{Path(data).name}-host.log", "a"), text=True,
                               start_new_session=True, cwd=Path(__file__).resolve().parents[1])
    deadline, lines = time.monotonic() + START_SECONDS, []
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line)
        found = re.search(r"Listening on 127\.0\.0\.1:(\d+)", line)
        if found:
            return process, f"http://127.0.0.1:{found.group(1)}/"
    process.kill()
    raise RuntimeError("the host did not start: " + "".join(lines)[-2000:])


def peak_memory_mb(pid: int) -> tuple[float, float]:
    """``(now, peak)`` resident memory of process ``pid`` in MB (/proc: VmRSS, VmHWM)."""
    status = Path(f"/proc/{pid}/status").read_text()
    rss, hwm = (int(re.search(rf"{field}:\s+(\d+) kB", status).group(1)) / 1024 for field in ("VmRSS", "VmHWM"))
    return rss, hwm


async def play_tables(address: str, token: str, tables: int = 10, seats: int = 4, seed: int = 0, think=None) -> dict:
    """Open ``tables`` tables of ``seats`` learners and play them all to the end at once, a client per seat.
    Returns the clients by table, every ask's latency to every seat (seconds) and the wall time."""
    from gofish_teach.classroom.client import SeatClient, autoplay, open_tables

    codes = await open_tables(address, token, rules="pond", seats=["learner"] * seats, tables=tables, pause=0,
                              clock=0, chances=False)
    clients = {code: [await SeatClient(address).connect() for _ in range(seats)] for code in codes}
    for code, table in clients.items():
        for k, client in enumerate(table):
            await client.join(code, f"L{k}")
    sent: dict[str, list] = {code: [] for code in codes}
    rng = np.random.default_rng(seed)
    start = time.monotonic()
    await asyncio.gather(*(autoplay(client, np.random.default_rng(rng.integers(2**32)), timeout=900, think=think,
                                    sent=lambda t, k, code=code: sent[code].append((t, k)))
                           for code, table in clients.items() for client in table))
    wall = time.monotonic() - start
    latencies = []
    for code, table in clients.items():
        arrivals = [[(t, m["asks"]) for t, m in client.times] for client in table]
        for t0, k in sent[code]:
            # When each seat first held the update of ask k (one that counts more than k asks).
            reached = [next(t for t, asks in seat if asks > k and t >= t0) for seat in arrivals]
            latencies.append(max(reached) - t0)
    for table in clients.values():
        for client in table:
            await client.close()
    return {"clients": clients, "latencies": np.array(latencies), "wall": wall}


def class_load(data, tables: int = 10, seats: int = 4, seed: int = 0, think=None) -> dict:
    """The whole measurement: a host of its own on ``data``, the tables played, its memory read, it stopped."""
    process, address = start_host(data)
    try:
        token = (Path(data) / "teacher-token").read_text().strip()
        _, before = peak_memory_mb(process.pid)
        # In a thread of its own: asyncio.run refuses to start where a loop runs already (a test session's browser).
        with ThreadPoolExecutor(1) as pool:
            figures = pool.submit(asyncio.run, play_tables(address, token, tables, seats, seed, think)).result()
        figures["think"] = think
        figures["memory_mb"], figures["peak_mb"] = peak_memory_mb(process.pid)
        figures["start_mb"] = before
        figures["address"] = address
        return figures
    finally:
        os.killpg(process.pid, 15)
        process.wait(30)


def describe(figures: dict) -> list[str]:
    lat = figures["latencies"] * 1000
    asks = len(lat)
    p50, p99 = np.percentile(lat, [50, 99])
    tables, think = len(figures["clients"]), figures.get("think")
    pace = f"thinking {think[0]:g} to {think[1]:g} s" if think else "asking at once"
    return [f"class at the table, {tables} tables x {len(next(iter(figures['clients'].values())))} learners {pace}, over "
            f"loopback, {asks:,} asks in {figures['wall']:.1f} s: from an ask to every seat's update "
            f"median {p50:.1f} ms, p99 {p99:.1f} ms, max {lat.max():.1f} ms (goal p99 100 ms: "
            f"{'met' if p99 <= 100 else 'not met'}); the host's memory {figures['memory_mb']:.0f} MB, "
            f"peak {figures['peak_mb']:.0f} MB (goal under 300 MB: {'met' if figures['peak_mb'] < 300 else 'not met'})"]


def bench_classroom(quick: bool) -> list[str]:
    import tempfile

    lines = []
    for think in ((0.1, 0.5), None):
        with tempfile.TemporaryDirectory() as folder:
            lines += describe(class_load(Path(folder) / "class", tables=3 if quick else 10, think=think))
    return lines


if __name__ == "__main__":
    print("\n".join(bench_classroom("--quick" in sys.argv)))
