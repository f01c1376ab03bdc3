"""A real Dask cluster, started as a user would: ``dask scheduler`` and two ``dask worker``
processes on this machine (Dask's own command-line tools, not an in-process LocalCluster).

Every result is checked against a local run with the same seed, game for game (simulate) or
line for line of the leaderboard (the class tournament, whose entries run sandboxed on the
workers). A worker is killed in the middle of a run, and the run still gives the same result.
No timing is asserted: the waits are minutes long so that a loaded machine only makes the
tests slower.
"""
from __future__ import annotations

import importlib
import io
import os
import re
import signal
import socket
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import numpy as np
import pytest
from distributed import Client

from gofish_teach import __main__ as cli
from gofish_teach import executors

simulate_module = importlib.import_module("gofish_teach.simulate")  # the module (the package's `simulate` is the function)
from gofish_teach.simulate import NoWorkers, simulate
from gofish_teach.tournament import run_tournament

ROOT = Path(__file__).resolve().parents[1]
DASK = Path(sys.executable).parent / "dask"
#: Generous: starting a Dask process imports a lot, and the machine may be busy.
START_SECONDS = 240


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """Dask processes started with its command-line tools, each in a session of its own so that
    killing one kills its nanny's worker too."""

    def __init__(self, folder: Path):
        self.folder, self.processes, self.workers = folder, [], {}
        self.port = free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"

    def _start(self, name: str, *args) -> subprocess.Popen:
        log = open(self.folder / f"{name}.log", "wb")
        process = subprocess.Popen([str(DASK), *args], cwd=self.folder, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        log.close()
        self.processes.append(process)
        return process

    def scheduler(self) -> None:
        self._start("scheduler", "scheduler", "--host", "127.0.0.1", "--port", str(self.port), "--no-dashboard")

    def worker(self, name: str) -> None:
        self.workers[name] = self._start(name, "worker", self.address, "--name", name, "--nthreads", "1",
                                         "--no-dashboard", "--host", "127.0.0.1")

    def kill(self, name: str) -> None:
        process = self.workers.pop(name)
        os.killpg(process.pid, signal.SIGKILL)  # a machine lost: no goodbye to the scheduler
        process.wait()

    def stop(self) -> None:
        for process in self.processes:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait()

    def logs(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}" for p in self.folder.glob("*.log"))


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    cluster = Cluster(tmp_path_factory.mktemp("dask"))
    try:
        cluster.scheduler()
        cluster.worker("w0")
        cluster.worker("w1")
        with Client(cluster.address, timeout=START_SECONDS) as client:
            client.wait_for_workers(2, timeout=START_SECONDS)
        yield cluster
    except Exception:
        print(cluster.logs())
        raise
    finally:
        cluster.stop()


@pytest.fixture
def client(cluster):
    with Client(cluster.address, timeout=START_SECONDS) as client:
        client.wait_for_workers(2, timeout=START_SECONDS)
        yield client


def same_games(a, b) -> bool:
    return (a.lineup, a.seed, a.games) == (b.lineup, b.seed, b.games) and all(
        np.array_equal(getattr(a, k), getattr(b, k)) for k in ("winners", "books", "asks", "seat_entry"))


def readme_snippet() -> str:
    """The Python block of the README's "Beyond one machine" section."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Beyond one machine", 1)[1].split("\n## ", 1)[0]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


class Bar:
    """A progress bar that keeps each update (and may act on it)."""

    def __init__(self, on_update=None):
        self.updates, self.on_update = [], on_update

    def update(self, n):
        self.updates.append(n)
        if self.on_update:
            self.on_update(self)

    def close(self):
        pass


def kill_a_busy_worker(cluster, client, killed: list):
    """A progress bar's callback: at the first step (a chunk or table back), kill a worker that is
    playing one, as a machine is lost, so that its work must be played again; its name goes in ``killed``."""

    def kill(bar):
        if killed:
            return
        names = {address: info["name"] for address, info in client.scheduler_info()["workers"].items()}
        busy = [names[address] for address, keys in client.processing().items() if keys and address in names]
        if busy:
            cluster.kill(busy[0])
            killed.append(busy[0])

    return kill


def test_the_readme_snippet_plays_the_same_games_on_the_cluster(cluster):
    code = readme_snippet()
    assert 'Client("tcp://HOST:8786")' in code and "executor=client" in code
    scope = {}
    exec(code.replace("tcp://HOST:8786", cluster.address), scope)
    try:
        on_cluster = scope["res"]
        call = re.search(r"simulate\((.*)executor=client\)", code).group(1)
        here = eval(f"simulate({call}workers=1)", scope)
    finally:
        scope["client"].close()
    assert on_cluster.games == here.games > 0 and same_games(on_cluster, here)


def test_the_command_line_plays_on_the_cluster(cluster):
    # The fast path plays chunks of 5,000 games: two chunks, so both workers may play.
    args = ["simulate", "--rules", "pond", "--lineup", "memory,random,random", "--games", "10000", "--seed", "3"]
    run = subprocess.run([sys.executable, "-m", "gofish_teach", *args, "--scheduler", cluster.address],
                         capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    here = io.StringIO()
    assert cli.main(args + ["--workers", "1"], out=here) == 0
    on_cluster, here = ([line for line in text.splitlines() if not line.startswith("Took")]
                        for text in (run.stdout, here.getvalue()))
    assert on_cluster == here and "10,000 games, seed 3" in on_cluster[0]


def test_a_client_or_any_executor_else_a_clear_error(client):
    # fast=False: the readable engine, in chunks of 100 games, so both workers play some.
    here = simulate(["memory", "random"], "family", 200, seed=8, workers=1, fast=False)
    for executor in (client, client.get_executor()):
        assert same_games(simulate(["memory", "random"], "family", 200, seed=8, executor=executor, fast=False), here)
    with pytest.raises(ValueError, match=r"^executor: give a Dask Client"):
        simulate(["memory", "random"], "family", 250, seed=8, executor=client.scheduler.address)


def test_the_progress_bar_advances_as_the_clusters_chunks_finish(client, monkeypatch):
    bar = Bar()
    monkeypatch.setattr(simulate_module, "progress_bar", lambda total, label="games": bar)
    res = simulate(["memory", "random"], "pond", 300, seed=2, executor=client, progress=True, fast=False)
    assert res.games == 300 and bar.updates == [100] * 3  # one step per chunk of the readable engine


def test_no_worker_left_stops_the_run_with_a_clear_message(tmp_path, entries, monkeypatch, capsys):
    empty = Cluster(tmp_path)  # a scheduler no worker ever joins
    monkeypatch.setattr(executors, "NO_WORKER_SECONDS", 2.0)
    try:
        empty.scheduler()
        with Client(empty.address, timeout=START_SECONDS) as client:
            with pytest.raises(NoWorkers, match=rf"no Dask worker has been connected to {empty.address} for 2 s"):
                simulate(["memory", "random"], "pond", 300, seed=0, executor=client)
        for command in (["simulate", "--lineup", "memory,random", "--games", "100"],
                        ["tournament", str(entries), *TOURNAMENT, "--plot", str(tmp_path / "t.png")]):
            with pytest.raises(SystemExit) as stopped:
                cli.main([*command, "--scheduler", empty.address])
            assert stopped.value.code == 1
            err = capsys.readouterr().err
            assert f"{command[0]}: stopped: no Dask worker has been connected to {empty.address}" in err, err
    finally:
        empty.stop()


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_an_address_where_no_scheduler_answers_is_a_clear_error(command, entries, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(executors, "SCHEDULER_SECONDS", 2)
    args = (["simulate", "--games", "100"] if command == "simulate"
            else ["tournament", str(entries), *TOURNAMENT, "--plot", str(tmp_path / "t.png")])
    address = f"tcp://127.0.0.1:{free_port()}"
    for given, words in ((address, f"--scheduler: no Dask scheduler answered at {address}"),
                         ("127.0.0.1", "--scheduler: '127.0.0.1' is not a scheduler's address like tcp://HOST:8786")):
        with pytest.raises(SystemExit) as stopped:
            cli.main([*args, "--scheduler", given])
        err = capsys.readouterr().err
        assert stopped.value.code == 2 and words in err and "Traceback" not in err, err
    assert not (tmp_path / "t.png").exists()


# --------------------------------------------------------------------------- the class tournament
TOKEN = uuid.uuid4().hex[:8]  # in the entries' file names: their processes can be looked for afterwards
#: Three learners: one plays fair, one crashes in the middle of a game, one stops answering.
ENTRIES = {
    "steady": """
        def strategy(view, rng):
            counts = view.counts
            targets = [q for q in view.opponents if view.hand_sizes[q]] or list(view.opponents)
            return targets[int(rng.integers(len(targets)))], max(counts, key=counts.get)
    """,
    "crashes": """
        def strategy(view, rng):
            if len(view.events) > 30:
                raise KeyError("oops")
            asks = view.legal_asks()
            return asks[int(rng.integers(len(asks)))]
    """,
    "hangs": """
        def strategy(view, rng):
            while len(view.events) > 20:
                pass
            return view.legal_asks()[-1]
    """,
}
#: The tournament, as run_tournament's arguments and as options (a time limit a busy machine keeps
#: for an honest entry): 3 learners and 2 built-ins, so 10 tables of two.
OPTIONS = dict(players=2, games=2, builtins=["random", "memory"], seed=21, time_limit=3, sandbox="require")
TOURNAMENT = ["--rules", "pond"] + [word for key, value in OPTIONS.items() for word in
                                    (f"--{key.replace('_', '-')}", ",".join(value) if key == "builtins" else str(value))]


@pytest.fixture(scope="module")
def entries(tmp_path_factory):
    folder = tmp_path_factory.mktemp("entries")
    for name, source in ENTRIES.items():
        (folder / f"{name}_{TOKEN}.py").write_text(textwrap.dedent(source))
    return folder


@pytest.fixture(scope="module")
def local_board(entries, tmp_path_factory):
    """The tournament played on this machine: its leaderboard, as the command line prints it."""
    out = io.StringIO()
    plot = tmp_path_factory.mktemp("plot") / "local.png"
    assert cli.main(["tournament", str(entries), *TOURNAMENT, "--plot", str(plot)], out=out) == 0
    return board(out.getvalue())


def board(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.startswith("Plot: ")]


def entry_processes() -> list[int]:
    """Processes of this test's entries still running (bwrap and the entries inside, on any worker): by
    their command line, or by their name (an entry forked by a worker's fork server is named after its
    file, 15 bytes of it)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if TOKEN.encode() in open(f"/proc/{pid}/cmdline", "rb").read() or \
                    TOKEN[:6].encode() in open(f"/proc/{pid}/comm", "rb").read():
                found.append(int(pid))
        except OSError:
            pass
    return found


def test_the_tournament_on_the_cluster_gives_the_local_leaderboard(cluster, entries, local_board, tmp_path):
    plot = tmp_path / "cluster.png"
    run = subprocess.run([sys.executable, "-m", "gofish_teach", "tournament", str(entries), *TOURNAMENT,
                          "--scheduler", cluster.address, "--plot", str(plot)],
                         capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert run.returncode == 0, run.stderr + cluster.logs()
    assert board(run.stdout) == local_board and plot.exists()
    # The same --seed 21 dealt the same decks; the leaderboard no longer shows the seed (issue 42, N5).
    assert local_board[0] == "Class tournament: pond rules, 2 players, 10 tables x 2 games (20 games)"
    text = "\n".join(local_board)
    assert f"crashes_{TOKEN} forfeits its 8 games: it raised KeyError: 'oops' (table " in text
    assert f"hangs_{TOKEN} forfeits its 8 games: no answer within the time limit of 3 s for one decision (table " in text
    assert [row for row in local_board if f"steady_{TOKEN}" in row and "forfeited" not in row], text
    # Both workers are still there: an entry that hangs or crashes is handled on the worker.
    with Client(cluster.address, timeout=START_SECONDS) as client:
        assert len(client.nthreads()) == 2
    assert entry_processes() == []


def test_a_worker_lost_mid_tournament_changes_no_record(cluster, client, entries, local_board, monkeypatch):
    # One more worker first, so that as many are left for the test after this one.
    workers = len(client.nthreads())
    cluster.worker("w2")
    client.wait_for_workers(workers + 1, timeout=START_SECONDS)
    killed = []
    bar = Bar(kill_a_busy_worker(cluster, client, killed))
    monkeypatch.setattr(simulate_module, "progress_bar", lambda total, label="games": bar)
    result = run_tournament(entries, "pond", **OPTIONS, executor=client, progress=True)
    assert killed, "no worker was busy when the first table came back"
    assert bar.updates == [2] * len(result.tables)  # the bar advances a table (2 games) at a time
    assert result.leaderboard().splitlines() == local_board
    assert len(client.nthreads()) == workers
    assert entry_processes() == []  # the killed worker's sandboxes died with it


def test_a_worker_lost_mid_run_changes_no_game(cluster, client, monkeypatch):
    # Last in the file: the cluster keeps one worker after it (starting another takes long).
    lineup = ["memory", "random", "random"]
    here = simulate(lineup, "pond", 600, seed=5, workers=1, fast=False)
    killed = []
    bar = Bar(kill_a_busy_worker(cluster, client, killed))
    monkeypatch.setattr(simulate_module, "progress_bar", lambda total, label="games": bar)
    res = simulate(lineup, "pond", 600, seed=5, executor=client, progress=True, fast=False)
    assert killed and sum(bar.updates) == 600
    assert same_games(res, here)
    assert len(client.nthreads()) == 1
