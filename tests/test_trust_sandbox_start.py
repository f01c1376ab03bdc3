"""Issue 42, N2: a bubblewrap that is installed but cannot make its sandbox is the teacher's problem, said plainly.

On main at 457bed9, under a bwrap that could not make namespaces (Ubuntu 23.10+'s AppArmor rule, a
container's seccomp filter, ``user.max_user_namespaces=0``), ``grade`` exited 0 with every row 0/6
"error" and a note asking whether the notebook called ``os._exit()``, and ``tournament`` exited 0
with every learner "forfeited (crash)"; bwrap's own message was shown nowhere. Now both try bwrap
once, with the options a learner's sandbox gets, before any learner's code runs, and on failure stop
with exit status 2, bwrap's words quoted, the likely causes and their fixes, and no row or forfeit.

Each case runs once under a stand-in for bwrap that fails exactly as bwrap does (it also logs each
call, so the test knows the try really ran, and ran once), and once for real: bwrap in a user
namespace whose namespace limits are 0 (``unshare``, as root: CI's machines).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOKEN = uuid.uuid4().hex[:10]

#: What bwrap prints for each cause (bubblewrap 0.8; the AppArmor one is Ubuntu 24.04's), and the fix it needs.
FAILURES = {
    "apparmor": ("bwrap: setting up uid map: Permission denied", "apparmor_parser -r /etc/apparmor.d/bwrap"),
    "seccomp": ("bwrap: Creating new namespace failed: Operation not permitted", "--security-opt seccomp=unconfined"),
    "namespaces": ("bwrap: Creating new namespace failed: nesting depth or /proc/sys/user/max_*_namespaces exceeded "
                   "(ENOSPC)", "sudo sysctl -w user.max_user_namespaces=15000"),
}


def stand_in(folder: Path, words: str) -> tuple[Path, Path]:
    """A program that fails as bwrap does (``words`` on stderr, exit 1) and logs every call; its path and log."""
    log = folder / "calls.log"
    program = folder / "bwrap"
    program.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$*\" >> {log}\necho {json.dumps(words)} >&2\nexit 1\n")
    program.chmod(0o755)
    return program, log


def submissions(folder: Path) -> Path:
    """Two learners, each with exercise 01 as the solution has it (full marks with a working sandbox)."""
    for name in (f"ana_{TOKEN}", f"ben_{TOKEN}"):
        (folder / name).mkdir(parents=True)
        shutil.copy(ROOT / "solutions" / "01-deal.ipynb", folder / name / "01-deal.ipynb")
    return folder


def entries(folder: Path) -> Path:
    folder.mkdir(parents=True)
    for name in (f"ana_{TOKEN}", f"ben_{TOKEN}"):
        (folder / f"{name}.py").write_text("def strategy(view, rng):\n    return view.legal_asks()[0]\n")
    return folder


def command(kind: str, tmp_path: Path) -> list[str]:
    if kind == "grade":
        return [sys.executable, "-m", "gofish_teach", "grade", str(submissions(tmp_path / "subs"))]
    return [sys.executable, "-m", "gofish_teach", "tournament", str(entries(tmp_path / "ents")), "--players", "2",
            "--games", "2", "--plot", str(tmp_path / "board.png"), "--seed-file", str(tmp_path / "seed.txt")]


def assert_refused_blaming_nobody(run: subprocess.CompletedProcess, said: str, fix: str) -> None:
    assert run.returncode == 2, (run.returncode, run.stdout, run.stderr)
    err = " ".join(run.stderr.split())
    assert f"bwrap said: {said}" in err, err
    assert "is installed but could not make the sandbox on this machine" in err
    assert "no learner's code was run and nobody was graded or scored" in err
    assert "not any learner's doing" in err and fix in err, err
    assert "Traceback" not in run.stderr
    # No row, no leaderboard, no forfeit: nothing that reads as a learner's doing.
    assert TOKEN not in run.stdout + run.stderr, run.stdout + run.stderr
    for blame in ("error", "forfeit", "os._exit", "submission,exercise"):
        assert blame not in run.stdout, run.stdout
    assert "forfeit" not in run.stderr and "os._exit" not in run.stderr


@pytest.mark.parametrize("cause", sorted(FAILURES))
@pytest.mark.parametrize("kind", ["grade", "tournament"])
def test_a_bwrap_that_cannot_start_stops_the_run_quoting_it_and_blaming_nobody(tmp_path, kind, cause):
    said, fix = FAILURES[cause]
    program, log = stand_in(tmp_path, said)
    run = subprocess.run(command(kind, tmp_path), capture_output=True, text=True, timeout=300, cwd=tmp_path,
                         env=dict(os.environ, GOFISH_BWRAP=str(program)))
    assert_refused_blaming_nobody(run, said, fix)
    # The try ran, once, before anything else: with the options of a learner's sandbox, running this Python.
    calls = log.read_text().splitlines()
    assert len(calls) == 1, calls
    for option in ("--unshare-all", "--die-with-parent", "--new-session", "--cap-drop ALL", "--size", "--clearenv",
                   "gofish-sandbox-works"):
        assert option in calls[0], (option, calls[0])


def can_limit_namespaces() -> bool:
    if shutil.which("unshare") is None or shutil.which("bwrap") is None:
        return False
    probe = subprocess.run(["unshare", "--user", "--map-root-user", "sh", "-c",
                            "echo 0 > /proc/sys/user/max_pid_namespaces"], capture_output=True)
    return probe.returncode == 0


@pytest.mark.skipif(not can_limit_namespaces(), reason="needs unshare and a writable user namespace (root on CI)")
@pytest.mark.parametrize("kind", ["grade", "tournament"])
def test_for_real_in_a_user_namespace_whose_namespace_limits_are_0(tmp_path, kind):
    """The findings' reproduction: the real bwrap, where no namespace can be made."""
    argv = command(kind, tmp_path)
    script = textwrap.dedent("""
        for f in /proc/sys/user/max_*_namespaces; do echo 0 > "$f"; done
        exec "$@"
    """)
    run = subprocess.run(["unshare", "--user", "--map-root-user", "sh", "-c", script, "sh", *argv],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path,
                         env={k: v for k, v in os.environ.items() if k != "GOFISH_BWRAP"})
    said = "bwrap: Creating new namespace failed"
    assert_refused_blaming_nobody(run, said, "sudo sysctl -w user.max_user_namespaces=15000")
    assert "(LIKELY: here user.max_" in run.stderr, run.stderr


def test_a_bwrap_that_works_is_tried_once_per_process(monkeypatch):
    """The try costs one start of Python in bwrap; the grader and the tournament make it once, not per learner."""
    from gofish_teach.trust import jail

    calls = []
    real = jail.subprocess.run
    monkeypatch.setattr(jail, "_PROBED", set())
    monkeypatch.setattr(jail.subprocess, "run", lambda *a, **k: calls.append(a) or real(*a, **k))
    for _ in range(3):
        assert jail.resolve("require") is True
        jail.command(["python3", "-c", "print(1)"], mode="require")
    assert len(calls) == 1
