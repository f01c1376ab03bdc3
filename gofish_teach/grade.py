"""Grade a folder of learners' exercise notebooks: ``python -m gofish_teach grade SUBMISSIONS_DIR``.

Layout: every folder in ``SUBMISSIONS_DIR`` is one submission (a learner), holding their
exercise notebooks; a notebook lying directly in ``SUBMISSIONS_DIR`` is a submission of its
own. A notebook is recognised by the exercise id in its metadata (the handed-out notebooks
carry it) or else by its file name (``03-give.ipynb``, ``03 my work.ipynb``).

**How a submission is graded, and what it cannot do.** The grader (this process, trusted)
makes the inputs of every case: the exercise's public cases, shown in its notebook, and
hidden cases made at grading time from a seed only the grader knows (``--hidden-seed`` to
repeat a run). Each notebook then runs in a child process of its own, on a fresh copy of its
submission, inside a sandbox (:mod:`gofish_teach.jail`: bubblewrap, ``--sandbox
auto|require|off``) with a time and a memory limit. The child runs the notebook's cells (the
check cells skipped), calls the learner's function on each case's inputs, and sends back only
what it returned, as plain JSON (:mod:`gofish_teach.exercises.plain`). The grader reads that
back, type-checks it, and compares it with the reference answer, which never enters the
child. So a learner's code cannot patch the checker (it is not in its process), forge a
result (a forged line can only claim a value for its own notebook's cases, and a value is
judged), reach another notebook's results or files (each has its own process and copy),
return an object that
equals everything, read the answers (masked), another learner's work or ``solutions/`` (not
in the sandbox), or outlive its time limit (the sandbox dies with it).

The output is CSV, one row per submission and exercise::

    submission,exercise,passed,total,status,hidden_passed,hidden_total

``passed`` of ``total`` public cases were right, ``hidden_passed`` of ``hidden_total`` hidden
ones. ``status`` is ``ok`` (every case returned an answer, right or wrong), ``error`` (a case
raised, the stub included, the notebook does not define the function, or the process ended
before its checks), ``timeout`` (a case, a cell or the whole submission ran out of time),
``memory`` (it ran out of memory) or ``missing`` (no notebook for that exercise). Every
submission folder gets a row for every expected exercise (``--exercises``; by default, every
exercise some submission folder holds; a loose notebook is a submission of its own exercise
only), and every row that is not ``ok`` has a note on stderr saying why.

>>> import io, json, tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> (folder / "ana").mkdir()
>>> cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
...         "source": "def deal(deck, n, size):\\n    return [deck[p:n * size:n] for p in range(n)]"}
>>> notebook = {"cells": [cell], "metadata": {"gofish_teach": {"exercise": "01-deal"}}, "nbformat": 4, "nbformat_minor": 5}
>>> _ = (folder / "ana" / "01-deal.ipynb").write_text(json.dumps(notebook))
>>> out = io.StringIO()
>>> _ = grade(folder, out=out, log=io.StringIO(), sandbox="off")
>>> print(out.getvalue().strip())
submission,exercise,passed,total,status,hidden_passed,hidden_total
ana,01-deal,6,6,ok,6,6
"""
from __future__ import annotations

import csv
import json
import math
import os
import secrets
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from . import jail

#: Default limits for one submission (all its notebooks together) and for one cell.
TIME_LIMIT = 300.0
CELL_TIME_LIMIT = 60.0
MEMORY_MB = 2048
STATUSES = ("ok", "error", "timeout", "memory", "missing")
#: The most a submission's folder may hold to be copied into its sandbox.
MAX_COPY_MB = 50
HEADER = ["submission", "exercise", "passed", "total", "status", "hidden_passed", "hidden_total"]


@dataclass(frozen=True)
class Row:
    submission: str
    exercise: str
    passed: int
    total: int
    status: str
    hidden_passed: int = 0
    hidden_total: int = 0
    note: str = ""

    def cells(self) -> list:
        return [self.submission, self.exercise, self.passed, self.total, self.status, self.hidden_passed,
                self.hidden_total]


# --------------------------------------------------------------------------- finding the work
def find_submissions(folder) -> dict[str, list[Path]]:
    """``{submission name: [notebooks]}``: one per sub-folder (an empty one too), and one per loose notebook."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"SUBMISSIONS_DIR: {folder} is not a folder")
    found: dict[str, list[Path]] = {}
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            found[entry.name] = sorted(p for p in entry.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
        elif entry.suffix == ".ipynb":
            found[entry.stem] = [entry]
    return found


def exercise_of(path: Path) -> str | None:
    """The exercise id of a notebook: from its metadata, else from its file name; None if neither says."""
    from .exercises import EXERCISES, get_exercise

    try:
        meta = json.loads(Path(path).read_text(encoding="utf-8")).get("metadata", {})
        declared = meta.get("gofish_teach", {}).get("exercise")
        if declared:
            return get_exercise(declared).id
    except (OSError, ValueError, AttributeError):
        pass
    number = Path(path).name[:2]
    if number.isdigit():
        for ex in EXERCISES:
            if ex.id.startswith(number + "-"):
                return ex.id
    return None


# --------------------------------------------------------------------------- the teacher's side
def grade(folder, *, out=None, log=None, time_limit: float = TIME_LIMIT, cell_time_limit: float = CELL_TIME_LIMIT,
          memory_mb: int = MEMORY_MB, workers: int = 1, case_time_limit: float | None = None,
          sandbox: str = "auto", hidden_seed: int | None = None, exercises=None) -> list[Row]:
    """Grade every submission in ``folder``; write the CSV to ``out`` (default stdout), notes to ``log``."""
    from .exercises import get_exercise

    out = out or sys.stdout
    log = log or sys.stderr
    _check_limits(time_limit=time_limit, cell_time_limit=cell_time_limit, memory_mb=memory_mb, workers=workers,
                  case_time_limit=case_time_limit)
    use_jail = jail.resolve(sandbox, log=log)
    folder = Path(folder).resolve()  # the children run elsewhere: a relative path would point nowhere
    submissions = find_submissions(folder)
    if not submissions:
        print(f"grade: {folder} holds no submission (no folder and no notebook)", file=log)
    seed = secrets.randbits(62) if hidden_seed is None else int(hidden_seed)
    jobs, recognised = [], {}
    for name, notebooks in submissions.items():
        known = []
        for path in notebooks:
            ex = exercise_of(path)
            if ex is None:
                print(f"grade: {name}: skipped {path.name}: not an exercise notebook (no exercise id in its "
                      "metadata or name)", file=log)
            else:
                known.append((path, ex))
        recognised[name] = known
    folders = {name for name in recognised if (folder / name).is_dir()}
    expected = (sorted({get_exercise(e).id for e in exercises}) if exercises is not None
                else sorted({ex for name in folders for _, ex in recognised[name]}))
    for name, known in recognised.items():
        if not known:
            print(f"grade: {name}: no exercise notebook found: every expected exercise is 'missing'", file=log)
        jobs.append((name, folder / name if name in folders else None, known))
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    rows: list[Row] = []

    def run(job):
        name, home, known = job
        graded = grade_submission(name, known, home=home, seed=seed, use_jail=use_jail, time_limit=time_limit,
                                  cell_time_limit=cell_time_limit, memory_mb=memory_mb,
                                  case_time_limit=case_time_limit, log=log) if known else []
        done = {r.exercise for r in graded}
        # A loose notebook is a submission of one exercise, unless --exercises says otherwise.
        for ex_id in (expected if home is not None or exercises is not None else []):
            if ex_id not in done:
                ex = get_exercise(ex_id)
                graded.append(Row(name, ex_id, 0, len(ex.cases()), "missing", 0, len(ex.hidden_cases(seed)),
                                  note=f"no notebook for exercise {ex_id}"))
                if known:
                    print(f"grade: {name}: {ex_id}: missing (no notebook for it)", file=log)
        return graded

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        for result in pool.map(run, jobs):  # in submission order, whatever finishes first
            for row in result:
                writer.writerow(row.cells())
            out.flush()
            rows += result
    return rows


def _check_limits(**limits) -> None:
    for name, value in limits.items():
        option = "--" + name.replace("_", "-")
        if value is None and name == "case_time_limit":
            continue
        whole = name in ("memory_mb", "workers")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (whole and not isinstance(value, int)):
            raise ValueError(f"{option} must be a {'whole ' if whole else ''}number, not {value!r}")
        if not math.isfinite(value) or value <= 0:
            raise ValueError(f"{option} must be a positive, finite number, not {value!r}")
        if name.endswith("time_limit") and value > 86_400:
            raise ValueError(f"{option} must be at most a day (86400 s), not {value!r}")


def grade_submission(name: str, notebooks: list[tuple], *, home=None, seed: int = 0, use_jail: bool = False,
                     time_limit: float = TIME_LIMIT, cell_time_limit: float = CELL_TIME_LIMIT,
                     memory_mb: int = MEMORY_MB, case_time_limit: float | None = None, log=None) -> list[Row]:
    """Grade one submission's ``(notebook path, exercise id)`` pairs in a sandboxed process of its own."""
    from .exercises import get_exercise

    log = log or sys.stderr
    notebooks = [(Path(p).resolve(), ex) for p, ex in notebooks]
    home = Path(home).resolve() if home is not None else None
    plan = []  # (notebook, exercise, public cases, hidden cases)
    for path, ex_id in notebooks:
        ex = get_exercise(ex_id)
        plan.append((path, ex, ex.cases(), ex.hidden_cases(seed)))
    deadline = time.monotonic() + time_limit
    rows = []
    for path, ex, public, hidden in plan:
        # One sandbox per notebook, on a fresh copy: nothing one notebook does can reach another's results.
        left = deadline - time.monotonic()
        request = {"cases": [ex.wire(c) for c in public + hidden], "exercise": ex.id,
                   "cell_time_limit": cell_time_limit, "case_time_limit": case_time_limit, "memory_mb": memory_mb,
                   "time_limit": max(left, 0.0)}
        lines, finished, returncode = _run_one(home, path, request, left, use_jail) if left > 0 else ([], False, None)
        rows.append(_judge(name, ex, public, hidden, lines, finished, returncode, time_limit, log))
    return rows


def _run_one(home, path: Path, request: dict, seconds: float, use_jail: bool):
    """Run one notebook's worker on a fresh copy of the submission: ``(lines, finished, exit status)``."""
    with tempfile.TemporaryDirectory(prefix="gofish-grade-") as tmp:
        work = Path(tmp) / "work"
        request["path"] = _copy_submission(home, path, work)
        env = {"MPLBACKEND": "Agg", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
               "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}
        argv = [sys.executable, "-m", "gofish_teach.grade", "--worker"]
        if use_jail:
            argv = jail.command(argv, work=work, mode="require", env=env, scratch=tmp)
            env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
        else:
            env = dict(os.environ, **env)
        start = time.monotonic()
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                cwd=work, env=env, start_new_session=True)
        try:
            proc.stdin.write(json.dumps(request).encode())
            proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        lines, finished = _read_lines(proc.stdout.fileno(), start + seconds)
        if not finished:
            _kill_group(proc)
        proc.stdout.close()
        proc.wait()
    return lines, finished, proc.returncode


def _judge(name, ex, public, hidden, lines, finished, returncode, time_limit, log) -> Row:
    """The row of one notebook, from its worker's replies: each returned value judged here."""
    from .exercises import plain

    got = _parse(lines)
    results = []
    for k, case in enumerate(public + hidden):
        reply = got.get(k)
        if reply is None or reply.get("status") != "ok":
            results.append((False, (reply or {}).get("status")))
            continue
        try:
            value = plain.decode(reply.get("value"))
        except ValueError:
            results.append((False, "ok"))
            continue
        right, _ = ex.judge(case, value)
        results.append((right, "ok"))
    status, note = _status(got, results, finished, returncode, ex, time_limit)
    if note:
        print(f"grade: {name}: {ex.id}: {status}: {note}", file=log)
    return Row(name, ex.id, sum(r for r, _ in results[:len(public)]), len(public), status,
               sum(r for r, _ in results[len(public):]), len(hidden), note)


def _copy_submission(home: Path | None, notebook: Path, work: Path) -> str:
    """Copy the submission into ``work``: its folder ``home`` (its data files too), or just the notebook.

    Returns the notebook's path inside ``work``. Links are copied as links, never followed: a
    link to another learner's folder or to the solutions leads nowhere inside the sandbox.
    """
    work.mkdir()
    if home is not None and sum(f.stat().st_size for f in home.rglob("*") if f.is_file() and not f.is_symlink()) \
            <= MAX_COPY_MB * 2**20:
        shutil.copytree(home, work, symlinks=True, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        return str(notebook.relative_to(home))
    shutil.copy2(notebook, work / notebook.name)
    return notebook.name


def _parse(lines: list[str]) -> dict:
    """``{case: reply, "cells": reply, "missing": reply}``; the first reply for each wins."""
    got: dict = {}
    for line in lines:
        try:
            message = json.loads(line, parse_constant=lambda c: None)
            key = message["case"] if "case" in message else message["kind"]
        except (ValueError, KeyError, TypeError):
            continue
        if type(key) is int or key in ("cells", "missing"):
            got.setdefault(key, message)
    return got


def _status(got, results, finished, returncode, ex, time_limit) -> tuple[str, str]:
    """The row's status and, unless all went well, a note that says why."""
    cells = got.get("cells", {})
    seen = [s for _, s in results if s]
    if cells.get("status") in ("timeout", "memory"):
        return cells["status"], f"a notebook cell ran out of {'time' if cells['status'] == 'timeout' else 'memory'}"
    if "missing" in got:
        return "error", f"the notebook does not define {ex.function}()" + (
            f" (a cell raised {cells['error']})" if cells.get("error") else "")
    if not cells or len(seen) < len(results) and not any(s == "timeout" for s in seen):
        if not finished:
            return "timeout", f"the submission ran past its time limit of {time_limit:g} s"
        if returncode and returncode < 0 and -returncode == signal.SIGKILL:
            return "memory", "the grading process was killed (out of memory, most likely)"
        where = "before its notebook ran" if not cells else f"after {len(seen)} of {len(results)} cases"
        return "error", (f"the grading process ended (exit status {returncode}) {where}: does the notebook call "
                         "os._exit(), sys.exit() or kill its own process?")
    order = ("ok", "error", "memory", "timeout")
    worst = max((s if s in order else "error" for s in seen), key=order.index, default="ok")
    if worst == "ok":
        return "ok", ""
    count = sum(s == worst for s in seen)
    return worst, f"{count} case(s) ended with {worst}" + (
        " (the stub, or an exception)" if worst == "error" else "")


def _read_lines(fd: int, deadline: float) -> tuple[list[str], bool]:
    buffer = b""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return buffer.decode("utf-8", "replace").splitlines(), False
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            continue
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return buffer.decode("utf-8", "replace").splitlines(), True
        buffer += chunk
        if len(buffer) > 64 * 2**20:  # a flood of output: stop reading, the rest is lost
            return buffer.decode("utf-8", "replace").splitlines(), False


def _kill_group(proc) -> None:
    """Kill the submission's process and every child it forked (they share its session; the sandbox dies too)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()


def _limit_self(memory_mb: int | None, time_limit: float) -> None:
    """Cap this process's memory and CPU time: the worker's first step, before any learner's code."""
    import resource

    if memory_mb:
        limit = memory_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    cpu = int(time_limit) + 5  # a backstop: the wall-clock limit normally comes first
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))


def add_command(commands) -> None:
    """The ``grade`` subcommand of ``python -m gofish_teach``."""
    import argparse

    parser = commands.add_parser(
        "grade", help="grade a folder of exercise notebooks, CSV to stdout (runs the learners' code, sandboxed)",
        description="Run the exercises' checks on every learner's notebooks and write CSV to stdout, one row per "
                    "submission and exercise: submission,exercise,passed,total,status,hidden_passed,hidden_total "
                    "(status: ok, error, timeout, memory, missing). Each sub-folder of SUBMISSIONS_DIR is a "
                    "submission (a loose notebook is one too), graded in its own sandboxed process with a time and "
                    "a memory limit, on public cases and hidden ones made from a secret seed.",
        epilog="Example:\n  python -m gofish_teach grade submissions/ > grades.csv",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", metavar="SUBMISSIONS_DIR", help="one sub-folder of notebooks per learner")
    parser.add_argument("--time-limit", type=float, default=TIME_LIMIT, metavar="SECONDS",
                        help=f"time for one submission, all its notebooks (default: {TIME_LIMIT:g})")
    parser.add_argument("--cell-time-limit", type=float, default=CELL_TIME_LIMIT, metavar="SECONDS",
                        help=f"time for one notebook cell (default: {CELL_TIME_LIMIT:g})")
    parser.add_argument("--memory-mb", type=int, default=MEMORY_MB, metavar="MB",
                        help=f"memory for one submission's process (default: {MEMORY_MB})")
    parser.add_argument("--case-time-limit", type=float, default=None, metavar="SECONDS",
                        help="time for one case of a check (default: the exercise's own, 5 s for most)")
    parser.add_argument("--workers", type=int, default=1, metavar="N", help="submissions graded at once (default: 1)")
    parser.add_argument("--sandbox", choices=jail.MODES, default="auto",
                        help="run learners' code in bubblewrap: auto (when installed, else warn), require, off "
                             "(default: auto)")
    parser.add_argument("--hidden-seed", type=int, default=None, metavar="N",
                        help="the seed of the hidden cases (default: a fresh secret one each run)")
    parser.add_argument("--exercises", default=None, metavar="IDS",
                        help="the exercises every submission should have, e.g. 01,02,03 (default: every exercise "
                             "some submission handed in)")
    parser.set_defaults(run=lambda args, out: _run_from_args(args, out))


def _run_from_args(args, out) -> None:
    exercises = None if args.exercises is None else [e for e in args.exercises.split(",") if e.strip()]
    grade(args.folder, out=out, time_limit=args.time_limit, cell_time_limit=args.cell_time_limit,
          memory_mb=args.memory_mb, workers=args.workers, case_time_limit=args.case_time_limit,
          sandbox=args.sandbox, hidden_seed=args.hidden_seed, exercises=exercises)


# --------------------------------------------------------------------------- the submission's side
class CellTimeout(Exception):
    """A notebook cell ran past its time limit."""


def _worker(request: dict, emit) -> None:
    """Run the notebook, then call its function on every case; ``emit`` what happened, as plain data."""
    from IPython.core.interactiveshell import InteractiveShell

    from .exercises import get_exercise, plain, sandbox

    shell = InteractiveShell.instance()
    ex = get_exercise(request["exercise"])
    status, error = run_notebook(shell, request["path"], request["cell_time_limit"])
    emit({"kind": "cells", "status": status, "error": error})
    if status in ("timeout", "memory"):
        return
    func = shell.user_ns.get(ex.function)
    if not callable(func):
        emit({"kind": "missing"})
        return
    limit = request.get("case_time_limit") or ex.time_limit
    for k, wire in enumerate(request["cases"]):
        outcome = sandbox.call(ex.call, (func, wire), time_limit=limit)
        reply = {"case": k, "status": outcome.status, "error": outcome.error[:300]}
        if outcome.status == "ok":
            reply["value"] = plain.encode(outcome.value)
        emit(reply)
        if outcome.status == "timeout":
            break


def run_notebook(shell, path, cell_time_limit: float) -> tuple[str, str]:
    """Run a notebook's code cells in ``shell`` (check cells skipped): ``(status, first error)``.

    ``status`` is ``ok``, ``error``, ``timeout`` or ``memory``. A cell that raises does not
    stop the rest, as long as the function gets defined; the checks decide the grade. A cell
    that runs out of time or memory stops the notebook.
    """
    try:
        notebook = json.loads(Path(path).read_text(encoding="utf-8"))
        cells = [c for c in notebook.get("cells", []) if c.get("cell_type") == "code"]
    except (OSError, ValueError, AttributeError) as e:
        return "error", f"the notebook cannot be read: {type(e).__name__}"
    status, first = "ok", ""
    for cell in cells:
        if "check" in cell.get("metadata", {}).get("tags", []):
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)

        def on_alarm(signum, frame):
            raise CellTimeout(f"a cell ran past {cell_time_limit:g} s")

        previous = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, cell_time_limit)
        try:
            result = shell.run_cell(source, store_history=False, silent=True)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        error = result.error_before_exec or result.error_in_exec
        if isinstance(error, CellTimeout):
            return "timeout", str(error)
        if isinstance(error, MemoryError):
            return "memory", "MemoryError"
        if error is not None:
            status, first = "error", first or f"{type(error).__name__}: {str(error)[:200]}"
    return status, first


def _worker_main(argv) -> int:
    """``python -m gofish_teach.grade --worker`` (the request on stdin): what each submission's process runs."""
    if argv != ["--worker"]:
        print("usage: python -m gofish_teach grade SUBMISSIONS_DIR (this module's own entry is internal)",
              file=sys.stderr)
        return 2
    request = json.loads(sys.stdin.read())
    sys.stdin.close()
    _limit_self(request.get("memory_mb"), request.get("time_limit", TIME_LIMIT))
    # Answers go to the real stdout; whatever the learners' code prints goes nowhere.
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)

    def emit(message):
        answers.write(json.dumps(message) + "\n")
        answers.flush()

    try:
        _worker(request, emit)
    except BaseException:  # noqa: BLE001 - the notebooks without replies are reported by the grader
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(_worker_main(sys.argv[1:]))
