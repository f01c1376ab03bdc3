"""Issue 42, N16: SIGTERM and SIGHUP stop the grader and the tournament as Ctrl-C does.

On main at 457bed9 a grader stopped by SIGTERM (``timeout``, ``kill``) or SIGHUP (a closed
terminal or SSH session) died at once: the copy of the learner's notebook it was grading stayed in
the system's temporary folder (``gofish-grade-*``). Now each of the three signals stops a run the same
way: every learner's process killed, every copy, temporary folder and cgroup removed, one line
saying what stopped it, and the exit status a shell gives that signal (128 and its number).

Each run here keeps its temporary files in a folder of its own (``TMPDIR``), so the test sees all
it leaves; each learner's process names itself, so the test knows it ran, and that it ended.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

TOKEN = uuid.uuid4().hex[:8]
SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
WORDS = {signal.SIGINT: "Ctrl-C", signal.SIGTERM: "SIGTERM", signal.SIGHUP: "SIGHUP"}


def named() -> list[int]:
    """The learners' processes of this test (each names itself after the token, or is named after its file)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if TOKEN[:6] in open(f"/proc/{pid}/comm").read():
                found.append(int(pid))
        except OSError:
            pass
    return found


def leftovers(pid: int) -> list[str]:
    found = []
    for folder, dirs, _ in os.walk("/sys/fs/cgroup"):
        found += [os.path.join(folder, d) for d in dirs if re.fullmatch(rf"gofish-\d+-{pid}-\d+", d)]
        dirs[:] = [d for d in dirs if not d.startswith("gofish-")]
    return found


def stop_with(how: int, argv: list[str], tmp: Path) -> tuple[subprocess.CompletedProcess, int]:
    """Start ``argv``, wait until a learner's process runs, send ``how``; the run, once it has ended."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp.parent,
                            env=dict(os.environ, TMPDIR=str(tmp)))
    try:
        deadline = time.monotonic() + 300
        while not named() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        assert named() and proc.poll() is None, "no learner's process started: this test tests nothing"
        copies = [p.name for p in tmp.iterdir()]
        time.sleep(0.5)
        proc.send_signal(how)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    print(copies, err)
    return subprocess.CompletedProcess(argv, proc.returncode, out, err), proc.pid


def assert_all_gone(run, pid: int, tmp: Path) -> None:
    deadline = time.monotonic() + 10
    while named() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert named() == [], "a learner's process outlived the run"
    assert list(tmp.iterdir()) == [], list(tmp.iterdir())  # no copy of a notebook, no scratch folder
    assert leftovers(pid) == []
    assert "Traceback" not in run.stderr, run.stderr


@pytest.mark.parametrize("how", SIGNALS, ids=[WORDS[s] for s in SIGNALS])
def test_the_grader_stopped_by_a_signal_leaves_nothing(tmp_path, how):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    subs = tmp_path / "subs"
    (subs / "ana").mkdir(parents=True)
    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
            "source": f"import ctypes, time\nctypes.CDLL(None).prctl(15, b'nb{TOKEN}', 0, 0, 0)\ntime.sleep(600)\n"}
    notebook = {"cells": [cell], "metadata": {"gofish_teach": {"exercise": "01-deal"}}, "nbformat": 4,
                "nbformat_minor": 5}
    (subs / "ana" / "01-deal.ipynb").write_text(json.dumps(notebook))
    run, pid = stop_with(how, [sys.executable, "-m", "gofish_teach", "grade", str(subs)], tmp)
    assert run.returncode == 128 + how, (run.returncode, run.stderr)
    assert f"grade: stopped ({WORDS[how]}): 0 of 1 submissions were graded" in run.stderr, run.stderr
    assert_all_gone(run, pid, tmp)


@pytest.mark.parametrize("how", SIGNALS, ids=[WORDS[s] for s in SIGNALS])
def test_the_tournament_stopped_by_a_signal_leaves_nothing(tmp_path, how):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    entries = tmp_path / "entries"
    entries.mkdir()
    for name in ("a", "b"):
        (entries / f"{name}{TOKEN}.py").write_text(
            "import time\n\ndef strategy(view, rng):\n    time.sleep(0.1)\n    return view.legal_asks()[0]\n")
    run, pid = stop_with(how, [sys.executable, "-m", "gofish_teach", "tournament", str(entries), "--players", "2",
                               "--games", "100", "--builtins", "random", "--plot", str(tmp_path / "board.png")], tmp)
    assert run.returncode == 128 + how, (run.returncode, run.stderr)
    assert f"tournament: stopped ({WORDS[how]}) after 0 of 3 tables" in run.stderr, run.stderr
    assert_all_gone(run, pid, tmp)


def test_a_run_started_with_ctrl_c_ignored_or_blocked_still_stops_on_it(tmp_path):
    """A command started as a background job of a script (SIGINT ignored), or by a process that blocks it,
    used to be deaf to Ctrl-C; the run says Ctrl-C stops it, so it listens for it whatever it inherits."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    entries = tmp_path / "entries"
    entries.mkdir()
    (entries / f"a{TOKEN}.py").write_text(
        "import time\n\ndef strategy(view, rng):\n    time.sleep(0.1)\n    return view.legal_asks()[0]\n")
    argv = [sys.executable, "-m", "gofish_teach", "tournament", str(entries), "--players", "2", "--games", "100",
            "--builtins", "random", "--plot", str(tmp_path / "board.png")]

    def deaf():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGINT])

    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                            env=dict(os.environ, TMPDIR=str(tmp)), preexec_fn=deaf)
    try:
        deadline = time.monotonic() + 300
        while not named() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        assert named(), "no entry started"
        status = open(f"/proc/{proc.pid}/status").read()
        inherited = {k: int(v, 16) for k, v in re.findall(r"(SigIgn|SigBlk):\s*([0-9a-f]+)", status)}
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, (proc.returncode, err)
    assert "tournament: stopped (Ctrl-C) after" in err
    assert inherited["SigBlk"] & (1 << (signal.SIGINT - 1)) == 0  # unblocked in its main thread, ignored no more
