"""Grade a folder of learners' exercise notebooks: ``python -m gofish_teach grade SUBMISSIONS_DIR``.

**This runs the learners' code**, with the rights of the account that runs it. The limits
below stop endless loops and memory hogs, not malice: run the grader under an account or in
a container of its own (``exercises/README.md`` says how).

Layout: every folder in ``SUBMISSIONS_DIR`` is one submission (a learner), holding their
exercise notebooks; a notebook lying directly in ``SUBMISSIONS_DIR`` is a submission of its
own. A notebook is recognised by the exercise id in its metadata (the handed-out notebooks
carry it) or else by its file name (``03-give.ipynb``, ``03 my work.ipynb``).

Each submission is graded in its own process, with a time limit (it is killed past it) and
a memory limit (``resource.setrlimit``), so a broken or endless one cannot stop the others.
Inside it, every notebook's cells run in order (the check cells are skipped), each cell
with a time limit, then the exercise's checks run on the learner's function, each case in a
child process with its own limits. The output is CSV, one row per submission and notebook::

    submission,exercise,passed,total,status

``status`` is ``ok`` (every case returned an answer, right or wrong), ``error`` (a case
raised, the stub included, or the notebook does not define the function), ``timeout`` (a
case, a cell or the whole submission ran out of time) or ``memory`` (it ran out of memory).

>>> import io, json, tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> (folder / "ana").mkdir()
>>> cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
...         "source": "def deal(deck, n, size):\\n    return [deck[p:n * size:n] for p in range(n)]"}
>>> notebook = {"cells": [cell], "metadata": {"gofish_teach": {"exercise": "01-deal"}}, "nbformat": 4, "nbformat_minor": 5}
>>> _ = (folder / "ana" / "01-deal.ipynb").write_text(json.dumps(notebook))
>>> out = io.StringIO()
>>> _ = grade(folder, out=out, log=io.StringIO())
>>> print(out.getvalue().strip())
submission,exercise,passed,total,status
ana,01-deal,6,6,ok
"""
from __future__ import annotations

import csv
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

#: Default limits for one submission (all its notebooks together) and for one cell.
TIME_LIMIT = 300.0
CELL_TIME_LIMIT = 60.0
MEMORY_MB = 2048
STATUSES = ("ok", "error", "timeout", "memory")


@dataclass(frozen=True)
class Row:
    submission: str
    exercise: str
    passed: int
    total: int
    status: str


# --------------------------------------------------------------------------- finding the work
def find_submissions(folder) -> dict[str, list[Path]]:
    """``{submission name: [notebooks]}``: one per sub-folder, and one per loose notebook."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"SUBMISSIONS_DIR: {folder} is not a folder")
    found: dict[str, list[Path]] = {}
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            notebooks = sorted(p for p in entry.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
            if notebooks:
                found[entry.name] = notebooks
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
          memory_mb: int = MEMORY_MB, workers: int = 1, case_time_limit: float | None = None) -> list[Row]:
    """Grade every submission in ``folder``; write the CSV to ``out`` (default stdout), notes to ``log``."""
    out = out or sys.stdout
    log = log or sys.stderr
    submissions = find_submissions(folder)
    jobs = []
    for name, notebooks in submissions.items():
        known = []
        for path in notebooks:
            ex = exercise_of(path)
            if ex is None:
                print(f"grade: {name}: skipped {path.name}: not an exercise notebook (no exercise id in its "
                      "metadata or name)", file=log)
            else:
                known.append((str(path), ex))
        if known:
            jobs.append((name, known))
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["submission", "exercise", "passed", "total", "status"])
    rows: list[Row] = []

    def run(job):
        name, known = job
        return grade_submission(name, known, time_limit=time_limit, cell_time_limit=cell_time_limit,
                                memory_mb=memory_mb, case_time_limit=case_time_limit, log=log)

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        for result in pool.map(run, jobs):  # in submission order, whatever finishes first
            for row in result:
                writer.writerow([row.submission, row.exercise, row.passed, row.total, row.status])
            out.flush()
            rows += result
    return rows


def grade_submission(name: str, notebooks: list[tuple[str, str]], *, time_limit: float = TIME_LIMIT,
                     cell_time_limit: float = CELL_TIME_LIMIT, memory_mb: int = MEMORY_MB,
                     case_time_limit: float | None = None, log=None) -> list[Row]:
    """Grade one submission's ``(notebook path, exercise id)`` pairs in a process of its own."""
    from .exercises import get_exercise

    log = log or sys.stderr
    request = json.dumps({"notebooks": notebooks, "cell_time_limit": cell_time_limit,
                          "case_time_limit": case_time_limit, "memory_mb": memory_mb, "time_limit": time_limit})
    env = dict(os.environ, MPLBACKEND="Agg", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
               PYTHONDONTWRITEBYTECODE="1")
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="gofish-grade-") as cwd:  # the learner's files land here
        proc = subprocess.Popen([sys.executable, "-m", "gofish_teach.grade", "--worker", request],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                cwd=cwd, env=env, start_new_session=True)
        lines, finished = _read_lines(proc.stdout.fileno(), start + time_limit)
        if not finished:
            _kill_group(proc)
        proc.stdout.close()
        proc.wait()
    results = {}
    fatal = None
    for line in lines:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if "fatal" in message:
            fatal = message["fatal"]
        elif message.get("notebook") is not None and message.get("status") in STATUSES:
            results[message["notebook"]] = message
    rows = []
    for path, ex_id in notebooks:
        got = results.get(path)
        if got is not None:
            rows.append(Row(name, ex_id, int(got["passed"]), int(got["total"]), got["status"]))
            continue
        status = "timeout" if not finished else fatal or ("memory" if proc.returncode == -signal.SIGKILL else "error")
        rows.append(Row(name, ex_id, 0, len(get_exercise(ex_id).cases()), status))
    if not finished:
        print(f"grade: {name}: stopped after the time limit of {time_limit:g} s", file=log)
    elif proc.returncode:
        print(f"grade: {name}: the grading process ended with status {proc.returncode}"
              + (f" ({fatal})" if fatal else ""), file=log)
    return rows


def _limit_self(memory_mb: int | None, time_limit: float) -> None:
    """Cap this process's memory and CPU time: the worker's first step, before any learner's code.

    (Done by the worker itself rather than by a ``preexec_fn``, which is unsafe with threads.)
    """
    import resource

    if memory_mb:
        limit = memory_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    cpu = int(time_limit) + 5  # a backstop: the wall-clock limit normally comes first
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))


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


def _kill_group(proc) -> None:
    """Kill the submission's process and every child it forked (they share its session)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()


def add_command(commands) -> None:
    """The ``grade`` subcommand of ``python -m gofish_teach``."""
    import argparse

    parser = commands.add_parser(
        "grade", help="grade a folder of exercise notebooks, CSV to stdout (runs the learners' code)",
        description="Run the exercises' checks on every learner's notebooks and write CSV to stdout, one row per "
                    "submission and exercise: submission,exercise,passed,total,status (ok, error, timeout, memory). "
                    "Each sub-folder of SUBMISSIONS_DIR is a submission (a loose notebook is one too), graded in "
                    "its own process with a time and a memory limit. This runs the learners' code: use an "
                    "account or a container of its own (see exercises/README.md).",
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
    parser.set_defaults(run=lambda args, out: _run_from_args(args, out))


def _run_from_args(args, out) -> None:
    for name in ("time_limit", "cell_time_limit", "memory_mb", "workers", "case_time_limit"):
        if getattr(args, name) is not None and getattr(args, name) <= 0:
            raise ValueError(f"--{name.replace('_', '-')} must be positive, not {getattr(args, name)}")
    grade(args.folder, out=out, time_limit=args.time_limit, cell_time_limit=args.cell_time_limit,
          memory_mb=args.memory_mb, workers=args.workers, case_time_limit=args.case_time_limit)


# --------------------------------------------------------------------------- the submission's side
class CellTimeout(Exception):
    """A notebook cell ran past its time limit."""


def _worker(request: dict, emit) -> None:
    """Run each notebook, then check its function; ``emit`` one result dict per notebook."""
    from IPython.core.interactiveshell import InteractiveShell

    from .exercises import get_exercise, run_check

    shell = InteractiveShell.instance()
    for path, ex_id in request["notebooks"]:
        ex = get_exercise(ex_id)
        shell.reset(new_session=False)
        status = run_notebook(shell, path, request["cell_time_limit"])
        func = shell.user_ns.get(ex.function)
        if status in ("timeout", "memory"):
            emit({"notebook": path, "passed": 0, "total": len(ex.cases()), "status": status})
            continue
        report = run_check(ex, func if callable(func) else None, time_limit=request.get("case_time_limit"))
        emit({"notebook": path, "passed": report.passed, "total": report.total, "status": report.status})


def run_notebook(shell, path, cell_time_limit: float) -> str:
    """Run a notebook's code cells in ``shell`` (check cells skipped); ``ok``, ``error``, ``timeout`` or ``memory``.

    A cell that raises does not stop the rest, as long as the function gets defined; the
    checks decide the grade. A cell that runs out of time or memory stops the notebook.
    """
    try:
        notebook = json.loads(Path(path).read_text(encoding="utf-8"))
        cells = [c for c in notebook.get("cells", []) if c.get("cell_type") == "code"]
    except (OSError, ValueError, AttributeError):
        return "error"
    status = "ok"
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
            return "timeout"
        if isinstance(error, MemoryError):
            return "memory"
        if error is not None:
            status = "error"
    return status


def _worker_main(argv) -> int:
    """``python -m gofish_teach.grade --worker REQUEST``: what each submission's process runs."""
    if len(argv) != 2 or argv[0] != "--worker":
        print("usage: python -m gofish_teach grade SUBMISSIONS_DIR (this module's own entry is internal)",
              file=sys.stderr)
        return 2
    request = json.loads(argv[1])
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
    except MemoryError:
        emit({"fatal": "memory"})
        return 1
    except BaseException as e:  # noqa: BLE001 - report anything, then stop
        emit({"fatal": "error", "message": f"{type(e).__name__}: {e}"})
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(_worker_main(sys.argv[1:]))
