"""Every shell command the READMEs show runs exactly as written, from the repository root.

A command is read from each ```sh block (``\\`` continuations joined, ``# comments`` cut) and
run with ``bash -c`` in a folder laid out like the repository root: the real ``.venv`` (a
link), and whatever the command reads, made by its set-up below. A command that cannot run
in a test must be listed in ``NOT_RUN`` with the reason, so a new command without a test
fails here instead of going untested.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ["README.md", "exercises/README.md", "notebooks/README.md", "notebooks/running-a-class.md",
        "gofish_teach/probability/README.md"]

#: Commands a test cannot run as written, and where what they do is tested instead.
NOT_RUN = {
    "make lab": "starts JupyterLab until stopped; tests/test_browser.py serves and drives the same notebooks",
    "make test": "this test suite is what it runs",
    "make play": "serves until stopped; tests/test_play.py starts the command it runs (gofish-teach play) "
                 "and plays a turn in Chromium, and checks the target with make -n",
    "make handouts": "tests/test_handouts.py runs the command it runs (gofish-teach handouts DIR) once per test run "
                     "and reads every PDF back, and checks the target with make -n",
    'pip install "gofish-teach @ git+https://github.com/OWNER/gofish-teach" nbgitpuller':
        "a hub administrator's install from the course's own repository (OWNER is a placeholder); "
        "tests/test_learner_copy.py installs a wheel built from this repository instead",
    ".venv/bin/dask scheduler": "runs until stopped; tests/test_dask_cluster.py starts it on a free port",
    ".venv/bin/dask worker tcp://HOST:8786": "HOST is a placeholder and it runs until stopped; "
                                             "tests/test_dask_cluster.py starts two",
    ".venv/bin/python -m gofish_teach simulate --rules pond --lineup memory,random,random,random --games 100000 "
    "--scheduler tcp://HOST:8786": "needs a cluster at HOST; tests/test_dask_cluster.py runs it with --scheduler "
                                   "against a real one",
    ".venv/bin/python -m gofish_teach tournament strategies/ --rules pond --players 4 --games 20 "
    "--scheduler tcp://HOST:8786": "needs a cluster at HOST; tests/test_dask_cluster.py runs a tournament with "
                                   "--scheduler against a real one and compares its leaderboard with a local run",
    ".venv/bin/gofish-teach host": "serves until stopped; tests/test_classroom_cli.py runs it exactly as written (in a "
                                   "network namespace of its own, bubblewrap's), fetches the page and stops it with Ctrl+C",
    ".venv/bin/python -m gofish_teach.exercises.casedata":
        "rewrites the package's own data in place; tests/test_answer_key.py rebuilds it in memory from the key and "
        "compares it byte for byte, and the --check form shown beside it runs here as written",
    'cd ../gofish-course && git init && git add -A && git commit -m "The course"':
        "plain git on the folder the command before it writes; pushing it is the teacher's",
}


def shown_commands() -> list[tuple[str, str]]:
    found = []
    for doc in DOCS:
        path = ROOT / doc
        if not path.exists():
            continue
        for block in re.findall(r"^```(?:sh|bash|console)\n(.*?)^```", path.read_text(encoding="utf-8"), re.S | re.M):
            text = re.sub(r"\\\n\s*", " ", block)
            for line in text.splitlines():
                command = re.sub(r"\s+#.*$", "", line).strip()
                if command and not command.startswith("#"):
                    found.append((doc, command))
    return found


def _entries(root: Path) -> None:
    (root / "strategies").mkdir()
    (root / "strategies" / "ana.py").write_text("def strategy(view, rng):\n    return view.legal_asks()[0]\n")
    (root / "strategies" / "ben.py").write_text(
        "def strategy(view, rng):\n    asks = view.legal_asks()\n    return asks[int(rng.integers(len(asks)))]\n")


def _submissions(root: Path) -> None:
    shutil.copytree(ROOT / "solutions", root / "submissions" / "ana", ignore=shutil.ignore_patterns("0[3-9]*", "1*"))
    shutil.copytree(ROOT / "exercises", root / "submissions" / "ben", ignore=shutil.ignore_patterns("0[3-9]*", "1*", "*.md"))


def _sources(root: Path) -> None:
    shutil.copytree(ROOT / "solutions", root / "solutions")
    shutil.copytree(ROOT / "exercises", root / "exercises")


def _check_build(root: Path, out: str) -> None:
    for path in sorted((ROOT / "exercises").glob("*.ipynb")):
        assert (root / "exercises" / path.name).read_bytes() == path.read_bytes(), path.name


def _check_grades(root: Path, out: str) -> None:
    lines = (root / "grades.csv").read_text().splitlines()
    assert lines[0] == "submission,exercise,passed,total,status,hidden_passed,hidden_total"
    assert "ana,01-deal,6,6,ok,6,6" in lines and "ben,01-deal,0,6,error,0,6" in lines, lines


def _check_tournament(root: Path, out: str) -> None:
    assert "ana" in out and "ben" in out and "memory" in out, out


def _check_counting(root: Path, out: str) -> None:
    assert out.startswith(("cgroup v1: ", "cgroup v2: ", "no cgroup can be made here")), out


def _check_simulate(root: Path, out: str) -> None:
    assert "100,000 games" in out and "memory" in out, out


def _check_course(root: Path, out: str) -> None:
    folder = Path(re.search(r"notebooks written to (\S+), ", out).group(1))
    folder = folder if folder.is_absolute() else root / folder
    expected = sorted([f"lessons/{p.name}" for p in (ROOT / "notebooks").glob("*.ipynb")]
                      + [f"exercises/{p.name}" for p in (ROOT / "exercises").glob("*.ipynb")])
    assert sorted(str(p.relative_to(folder)) for p in folder.rglob("*.ipynb")) == expected, out


def _check_solve(root: Path, out: str) -> None:
    # The README quotes these values (3 ranks, 2 cards each, against memory).
    assert "0.5154" in out and "0.5244" in out and "0.4921" in out and "0.5079" in out, out


def _check_equilibrium(root: Path, out: str) -> None:
    # The README quotes the value 953/1925 = 0.4951 (3 ranks, 2 cards each) and the tree's size; the
    # interval printed must hold the value.
    low, high = map(float, re.search(r"value is between ([\d.]+) and ([\d.]+)", out).groups())
    assert "0.4951" in out and low <= 953 / 1925 <= high and "1,801,650 information sets" in out, out


def _class_store(root: Path) -> None:
    """A host's data folder, as the README's first line leaves it: one finished game at one table."""
    from gofish_teach.classroom.host import Host
    from gofish_teach.classroom.table import bot_choice

    host = Host(root / "gofish-class")
    [code] = host.open_tables({"rules": "pond", "seats": ["learner", "memory"], "pause": 0})
    table = host.tables[code]
    host.commit(table, table.start_entry())
    while not table.over:
        seat = table.to_move()
        strategy = table.seats[seat].strategy  # the empty learner's seat: the turn clock asks for it
        move = bot_choice(*table.bot_job(seat, strategy or "random"))
        host.commit(table, table.bot_ask_entry(seat, move, strategy or "clock"))
    host.close()


def _check_export(root: Path, out: str) -> None:
    from gofish_teach.classroom import load_games

    assert "1 game written to class-games.jsonl" in out, out
    games = load_games(root / "class-games.jsonl")
    assert len(games) == 1 and games[0].game.is_over and not games.simulated


#: How to prepare for and check each command, by the words it starts with (the first that matches).
RUNS = {
    ".venv/bin/python -m gofish_teach.exercises.build": (_sources, _check_build),
    ".venv/bin/python -m gofish_teach.exercises.casedata --check": (lambda root: None, lambda root, out: None),
    ".venv/bin/python -m gofish_teach grade": (_submissions, _check_grades),
    ".venv/bin/python -m gofish_teach tournament": (_entries, _check_tournament),
    ".venv/bin/python -m gofish_teach simulate": (lambda root: None, _check_simulate),
    ".venv/bin/python -m gofish_teach.trust": (lambda root: None, _check_counting),
    ".venv/bin/gofish-teach course": (lambda root: None, _check_course),
    ".venv/bin/gofish-teach solve --rules pond --players 2 --ranks 3 --hand-size 2 --equilibrium":
        (lambda root: None, _check_equilibrium),
    ".venv/bin/gofish-teach solve": (lambda root: None, _check_solve),
    ".venv/bin/gofish-teach host --export": (_class_store, _check_export),
}


def _how(command: str):
    for start, how in RUNS.items():
        if command.startswith(start):
            return how
    return None


def test_every_command_shown_is_run_here_or_says_why_not():
    unknown = [(doc, c) for doc, c in shown_commands() if c not in NOT_RUN and _how(c) is None]
    assert not unknown, f"commands shown in a README with no test: {unknown}"


@pytest.mark.parametrize("doc, command", [dc for dc in shown_commands() if _how(dc[1]) and dc[1] not in NOT_RUN],
                         ids=lambda v: v[:60] if isinstance(v, str) else v)
def test_the_command_runs_as_written_from_the_root(tmp_path, doc, command):
    prepare, check = _how(command)
    (tmp_path / ".venv").symlink_to(Path(sys.prefix))
    prepare(tmp_path)
    done = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True, text=True, timeout=900,
                          env=dict(os.environ, MPLBACKEND="Agg"))
    assert done.returncode == 0, f"{doc}: {command}\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    check(tmp_path, done.stdout)
