"""The grader attacked again (issue 32): links, pipes, nested files, hogs and floods; and the safe default.

One class is graded in one run of the command line, in a process of its own (on ca11cf4 the named
pipe hung that run for ever, so it has a time limit). Each learner below is one attack from the
findings, written as a learner would hand it in; two honest classmates are graded beside them.
On ca11cf4 the run never finished (D5); without the pipe, the nested line and file and the link
in a folder each stopped it before any classmate got a row (D4), the links earned full marks
(D3), the hogs kept what they took (D6) and the flood made the teacher's process 1.87 GB (D7).

Then: without bubblewrap, ``grade`` and ``tournament`` refuse to run a learner's code unless the
teacher says ``--sandbox off``, and say how to install it (D9).
"""
from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOKEN = uuid.uuid4().hex[:10]
MEMORY_MB = 1024
GOOD_GIVE = ("def give(asker_hand, target_hand, rank):\n"
             "    given = [c for c in target_hand if c[:-1] == rank]\n"
             "    return asker_hand + given, [c for c in target_hand if c[:-1] != rank]\n")
GOOD_LEGAL = ("def legal_asks(hand, me, n_players):\n"
              "    ranks = sorted({c[:-1] for c in hand})\n"
              "    return [(t, r) for t in range(n_players) if t != me for r in ranks]\n")
STUB_LEGAL = "def legal_asks(hand, me, n_players):\n    raise NotImplementedError\n"

#: D4 (a): a line nested 100,000 deep, written to every descriptor (the grader's channel among them).
NESTED_LINE = """
import os
line = ("[" * 100_000 + "]" * 100_000 + "\\n").encode()
for fd in range(3, 64):
    try:
        os.write(fd, line)
    except OSError:
        pass
"""
#: D6: /tmp (or another folder) filled until the tmpfs says no, or 1.5 GB.
TMP_HOG = """
chunk = b"x" * 2**20
try:
    with open("FOLDER/hoard", "wb") as f:
        for _ in range(1536):
            f.write(chunk)
except OSError:
    pass
"""
#: D6: 200 MB in bubblewrap's own root (a tmpfs of its own, counted nowhere); its answers say whether it could.
ROOT_WRITER = """
WROTE = 0
try:
    with open("/hoard", "wb") as f:
        for _ in range(200):
            f.write(b"x" * 2**20)
            WROTE += 1
except OSError:
    pass
"""
#: D6: two big files in its own folder (on ca11cf4: the teacher's disk).
DISK_HOG = """
chunk = b"x" * 2**20
for name in ("one.bin", "two.bin"):
    try:
        with open(name, "wb") as f:
            for _ in range(600):
                f.write(chunk)
    except OSError:
        pass
"""
#: D6: three children, each holding 500 MB at once (each under its own address-space limit).
FORKS = """
import os, time
children = []
for _ in range(3):
    pid = os.fork()
    if pid == 0:
        hoard = b"x" * (500 * 2**20)
        time.sleep(4)
        os._exit(0)
    children.append(pid)
for pid in children:
    os.waitpid(pid, 0)
"""
#: D7: "{}" lines on every descriptor, for ever.
FLOOD = """
import os
lines = b"{}\\n" * 65536
while True:
    for fd in range(3, 64):
        try:
            os.write(fd, lines)
        except OSError:
            pass
"""


def notebook(path: Path, exercise: str | None, *cells: str) -> Path:
    items = [{"cell_type": "code", "metadata": {}, "source": c, "outputs": [], "execution_count": None} for c in cells]
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = {"gofish_teach": {"exercise": exercise}} if exercise else {}
    path.write_text(json.dumps({"cells": items, "metadata": meta, "nbformat": 4, "nbformat_minor": 5}))
    return path


def grade_cli(folder: Path, *options: str, env=None, timeout: float = 600) -> subprocess.CompletedProcess:
    """``python -m gofish_teach grade``, in a process of its own that reports its own peak memory.

    Its peak is the high-water mark of its own memory (``VmHWM``), not ``ru_maxrss``: Linux counts
    in a process's ``ru_maxrss`` the memory of the process it was started from (the one that ran
    ``exec``), so under a test run that holds 1 GB the grader's ``ru_maxrss`` is 1 GB however
    little it uses itself (as on CI: 1,002 MB, against 133 MB of its own).
    """
    code = ("import sys\nfrom gofish_teach.__main__ import main\ncode = 0\ntry:\n    main(sys.argv[1:])\n"
            "except SystemExit as e:\n    code = e.code\nfinally:\n    print('PEAK-KB', [line.split()[1] for line in "
            "open('/proc/self/status') if line.startswith('VmHWM:')][0], file=sys.stderr)\nsys.exit(code)\n")
    try:
        return subprocess.run([sys.executable, "-c", code, "grade", str(folder), *options], capture_output=True,
                              text=True, timeout=timeout, cwd=folder.parent, env=env)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"the grader did not finish within {timeout} s: {e.stderr!r}")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    base = tmp_path_factory.mktemp("class")
    sub = base / "submissions"
    solutions = ROOT / "solutions"
    # Honest classmates
    notebook(sub / "ann" / "03-give.ipynb", "03-give", GOOD_GIVE)
    notebook(sub / "ann" / "02-legal-asks.ipynb", "02-legal-asks", GOOD_LEGAL)
    notebook(sub / "bob" / "02-legal-asks.ipynb", "02-legal-asks", GOOD_LEGAL)
    # D3: a loose link to a solution; links beside a file over the copy limit
    (sub / "eve.ipynb").symlink_to(solutions / "01-deal.ipynb")
    (sub / "big").mkdir()
    with open(sub / "big" / "data.bin", "wb") as f:
        f.truncate(51 * 2**20)  # sparse: 51 MB to the size check, nothing on the disk
    (sub / "big" / "03-give.ipynb").symlink_to(solutions / "03-give.ipynb")
    (sub / "big" / "02-legal-asks.ipynb").symlink_to(solutions / "02-legal-asks.ipynb")
    # D4: a nested line on the channel, a nested notebook file, a link inside a folder
    notebook(sub / "liner" / "02-legal-asks.ipynb", "02-legal-asks", STUB_LEGAL, NESTED_LINE)
    (sub / "nester").mkdir()
    (sub / "nester" / "03-give.ipynb").write_text('{"cells": ' + "[" * 100_000 + "]" * 100_000 + "}")
    (sub / "bulky").mkdir()
    with open(sub / "bulky" / "03-give.ipynb", "wb") as f:
        f.truncate(21 * 2**20)  # sparse: 21 MB to the size check, nothing on the disk
    notebook(sub / "linker" / "03-give.ipynb", "03-give", GOOD_GIVE)
    (sub / "linker" / "02-legal-asks.ipynb").symlink_to(solutions / "02-legal-asks.ipynb")
    # D5: a named pipe and a folder where notebooks belong
    notebook(sub / "piper" / "03-give.ipynb", "03-give", GOOD_GIVE)
    os.mkfifo(sub / "piper" / "02-legal-asks.ipynb")
    notebook(sub / "folder" / "02-legal-asks.ipynb", "02-legal-asks", GOOD_LEGAL)
    (sub / "folder" / "03-give.ipynb").mkdir()
    # D6 and D7: hogs and a flood, each with a right answer beside it
    notebook(sub / "tmphog" / "03-give.ipynb", "03-give", TMP_HOG.replace("FOLDER", "/tmp"), GOOD_GIVE)
    notebook(sub / "shmhog" / "03-give.ipynb", "03-give", TMP_HOG.replace("FOLDER", "/dev/shm"), GOOD_GIVE)
    notebook(sub / "roothog" / "03-give.ipynb", "03-give", ROOT_WRITER, GOOD_GIVE.replace(
        "    given =", "    if WROTE:\n        return 'it wrote to the root', WROTE\n    given ="))
    notebook(sub / "diskhog" / "03-give.ipynb", "03-give", DISK_HOG, GOOD_GIVE)
    notebook(sub / "forker" / "03-give.ipynb", "03-give", FORKS, GOOD_GIVE)
    notebook(sub / "flooder" / "03-give.ipynb", "03-give", FLOOD, GOOD_GIVE)
    run = grade_cli(sub, "--sandbox", "require", "--workers", "2", "--memory-mb", str(MEMORY_MB), "--time-limit",
                    "120", "--cell-time-limit", "60", "--exercises", "02,03", "--hidden-seed", "1")
    rows = {(r["submission"], r["exercise"]): r for r in csv.DictReader(io.StringIO(run.stdout))}
    return run, rows


def marks(rows, who, exercise):
    r = rows[who, exercise]
    return int(r["passed"]), int(r["hidden_passed"]), r["status"]


def test_the_run_finishes_and_honest_classmates_are_graded(graded):
    run, rows = graded
    assert run.returncode == 0, run.stderr[-3000:]
    assert marks(rows, "ann", "03-give") == (6, 6, "ok")
    assert marks(rows, "ann", "02-legal-asks") == (6, 6, "ok")
    assert marks(rows, "bob", "02-legal-asks") == (6, 6, "ok")


def test_links_to_the_solutions_earn_nothing_and_are_named(graded):
    run, rows = graded
    assert not [key for key in rows if key[0] == "eve"]
    assert "grade: skipped eve.ipynb: a symbolic link, not a plain notebook or a folder" in run.stderr
    assert marks(rows, "big", "03-give") == (0, 0, "missing")
    assert marks(rows, "big", "02-legal-asks") == (0, 0, "missing")
    assert "grade: big: skipped 03-give.ipynb: a symbolic link, not a plain file" in run.stderr
    assert marks(rows, "linker", "02-legal-asks") == (0, 0, "missing")
    assert marks(rows, "linker", "03-give") == (6, 6, "ok")
    assert "grade: linker: skipped 02-legal-asks.ipynb: a symbolic link" in run.stderr


def test_a_nested_line_or_a_nested_or_huge_file_stays_in_its_own_row_with_the_real_cause(graded):
    run, rows = graded
    assert marks(rows, "liner", "02-legal-asks") == (0, 0, "error")
    assert "liner: 02-legal-asks: error: 12 case(s) ended with error (the stub, or an exception)" in run.stderr
    assert "line(s) it wrote to the grader's channel were not replies, and were ignored" in run.stderr
    assert marks(rows, "bulky", "03-give") == (0, 0, "error")
    assert "bulky: 03-give: error: the notebook is too large (21.0 MB; at most 20 MB)" in run.stderr
    assert marks(rows, "nester", "03-give") == (0, 0, "error")
    assert "nester: 03-give: error: the notebook is not a notebook: its JSON is nested too deeply" in run.stderr
    assert "Traceback" not in run.stderr


def test_pipes_and_folders_where_notebooks_belong_are_skipped_and_named(graded):
    run, rows = graded
    assert marks(rows, "piper", "02-legal-asks") == (0, 0, "missing")
    assert marks(rows, "piper", "03-give") == (6, 6, "ok")
    assert "grade: piper: skipped 02-legal-asks.ipynb: a named pipe (FIFO), not a plain file" in run.stderr
    assert marks(rows, "folder", "03-give") == (0, 0, "missing")
    assert marks(rows, "folder", "02-legal-asks") == (6, 6, "ok")
    assert "grade: folder: skipped 03-give.ipynb: a folder, not a plain file" in run.stderr


@pytest.mark.parametrize("who", ["tmphog", "shmhog", "diskhog", "forker"])
def test_what_a_submission_holds_counts_against_its_memory_limit(graded, who):
    run, rows = graded
    assert marks(rows, who, "03-give")[2] == "memory", rows[who, "03-give"]
    assert (f"{who}: 03-give: memory: its processes and its files (its folder and /tmp are memory) held more "
            f"than its memory limit of {MEMORY_MB} MB") in run.stderr


def test_the_sandboxs_own_root_cannot_be_written(graded):
    """bubblewrap's root is a tmpfs of its own, once writable and unbounded (on ca11cf4 this notebook wrote
    200 MB there and its answers said so): now read-only, so its answers are right."""
    run, rows = graded
    assert marks(rows, "roothog", "03-give") == (6, 6, "ok"), rows["roothog", "03-give"]


def test_a_flood_is_too_much_output_and_the_teacher_stays_small(graded):
    run, rows = graded
    assert marks(rows, "flooder", "03-give") == (0, 0, "error")
    assert "flooder: 03-give: error: too much output" in run.stderr
    assert "time limit" not in [line for line in run.stderr.splitlines() if "flooder" in line][0]
    peak_mb = int(run.stderr.split("PEAK-KB ")[1].split()[0]) / 1024
    assert peak_mb < 300, peak_mb  # the grader itself: a flood of 64 MB once made it 1.87 GB


def test_the_peak_measured_is_the_graders_own_not_its_parents():
    """Why the grader's peak is read as VmHWM: a process started by one that holds 300 MB has a
    ``ru_maxrss`` of 300 MB before it does anything (on CI the test run held 1 GB)."""
    held = bytearray(300 * 2**20)
    held[::4096] = b"x" * len(held[::4096])  # in memory, page by page
    code = ("import resource\nprint(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, [line.split()[1] for line in "
            "open('/proc/self/status') if line.startswith('VmHWM:')][0])")
    maxrss, own = map(int, subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                          check=True).stdout.split())
    del held
    assert maxrss > 300 * 1024 > 10 * own, (maxrss, own)


# --------------------------------------------------------------------------- D9: a safe default
DAEMON = f"""
import os, subprocess
open({{marker!r}}, "w").write("{TOKEN}")
"""


@pytest.mark.parametrize("how", ["GOFISH_BWRAP names a missing program", "no bwrap on the PATH"])
def test_without_bwrap_grade_refuses_unless_told_off(tmp_path, how):
    marker = tmp_path / "ran.txt"
    sub = tmp_path / "submissions"
    notebook(sub / "mallory" / "03-give.ipynb", "03-give", DAEMON.format(marker=str(marker)), GOOD_GIVE)
    env = dict(os.environ)
    if how.startswith("GOFISH"):
        env["GOFISH_BWRAP"] = str(tmp_path / "no-such-bwrap")
    else:
        env.pop("GOFISH_BWRAP", None)
        env["PATH"] = str(tmp_path / "empty")
    run = grade_cli(sub, env=env, timeout=120)  # the default --sandbox
    assert run.returncode == 2, run.stderr
    for words in ("bwrap (bubblewrap) is not installed", "sudo apt-get install bubblewrap", "sudo dnf install "
                  "bubblewrap", "WSL 2", "macOS has no bubblewrap", "Linux virtual machine", "--sandbox off"):
        assert words in run.stderr, words
    assert "Traceback" not in run.stderr and run.stdout == "" and not marker.exists()
    if how.startswith("GOFISH"):
        off = grade_cli(sub, "--sandbox", "off", env=env, timeout=300)
        assert off.returncode == 0 and marker.exists(), off.stderr  # said, and done


def test_without_bwrap_the_tournament_refuses_unless_told_off(tmp_path):
    marker = tmp_path / "ran.txt"
    folder = tmp_path / "entries"
    folder.mkdir()
    (folder / "mallory.py").write_text(textwrap.dedent(f"""
        open({str(marker)!r}, "w").write("{TOKEN}")
        def strategy(view, rng):
            return view.legal_asks()[0]
    """))
    env = dict(os.environ, GOFISH_BWRAP=str(tmp_path / "no-such-bwrap"))
    argv = [sys.executable, "-m", "gofish_teach", "tournament", str(folder), "--players", "2", "--games", "1",
            "--builtins", "random", "--plot", str(tmp_path / "board.png")]
    run = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert run.returncode == 2, run.stderr
    assert "bwrap (bubblewrap) is not installed" in run.stderr and "--sandbox off" in run.stderr
    assert "Traceback" not in run.stderr and not marker.exists()
