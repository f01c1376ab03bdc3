"""Grade a folder of learners' exercise notebooks: ``python -m gofish_teach grade SUBMISSIONS_DIR``.

Layout: every folder in ``SUBMISSIONS_DIR`` is one submission (a learner), holding their
exercise notebooks; a notebook lying directly in ``SUBMISSIONS_DIR`` is a submission of its
own. A notebook is recognised by the exercise id in its metadata (the handed-out notebooks
carry it) or else by its file name (``03-give.ipynb``, ``03 my work.ipynb``).

**How a submission is graded, and what it cannot do.** The grader (this process, trusted)
makes every case and its answer from the teacher's answer key (``--key DIR``; by default the
``solutions/key/`` of the kit it runs from, :func:`gofish_teach.exercises.load_key`; a learner's
install has none, and the grader then refuses, naming ``--key``): the exercise's public cases,
shown in its notebook, and hidden cases made at grading time from a seed only the grader knows
(``--hidden-seed`` to repeat a run). Each notebook then runs in a child process of its own, on a fresh copy of its
submission, inside a sandbox (:mod:`gofish_teach.trust`: bubblewrap; ``--sandbox require``,
the default, refuses to run without it or where it cannot start, ``--sandbox off`` runs
unprotected) with a time and a memory limit (:mod:`gofish_teach.trust`: the memory limit counts
every process of the submission and what it writes to its folder and ``/tmp``, which are memory
too) and a limit of :data:`~gofish_teach.trust.TASKS` processes and threads; where a cgroup can be
made, the kernel counts both, memory no process maps and zombies included, and elsewhere the
fallback refuses what nothing would count (:mod:`gofish_teach.trust.seccomp`). The child runs the notebook's cells (the
check cells skipped), calls the learner's function on each case's inputs, and sends back only
what it returned, as plain JSON (:mod:`gofish_teach.exercises.plain`). The grader reads that
back, type-checks it, and compares it with the key's answer, which never enters the child: the
key's folder is masked in every sandbox (:func:`gofish_teach.trust.hide_answers`). So a learner's code cannot patch the checker (it is not in its process), forge a
result (a forged line can only claim a value for its own notebook's cases, and a value is
judged), reach another notebook's results or files (each has its own process and copy),
return an object that
equals everything, read the answers (not in the package; the key masked), another learner's
work or ``solutions/`` (not in the sandbox), or outlive its time limit (the sandbox dies with it).

**What is read before any sandbox, and how** (:mod:`.folders`). The submissions folder is the
learners' too, so it is read as :mod:`gofish_teach.trust` reads: plain files only, never through
a link, and at most :data:`~.folders.MAX_FILES` names of a learner's folder. A link, a named
pipe, a device or a folder where a notebook belongs is skipped with a note that names it; links
inside a learner's folder are not followed and not copied. A submission is copied once for all
its notebooks. A notebook that is not valid JSON, is nested too deeply or is larger than
:data:`~.folders.MAX_NOTEBOOK_MB` is an ``error`` row with a note saying so, and whatever a
notebook's process writes back is read with a deadline and a cap (:data:`MAX_REPLY_MB`: "too
much output"). Whatever goes wrong with one learner's bytes stays in that learner's rows: every
classmate is still graded.

**Learners' text is shown as text.** A learner's name is normalised (NFKC, no invisible
characters or spaces at its edges), and one that then prints like another submission's is
refused with a note; a CSV cell that starts like a spreadsheet formula (``=``, ``+``, ``-``,
``@``, a tab, a carriage return) starts with ``'``; control characters in a note (a name, an
exception a learner's code raised) are shown as ``\\x1b``, never obeyed by the terminal
(:mod:`gofish_teach.trust`).

The output is CSV, one row per submission and exercise::

    submission,exercise,passed,total,status,hidden_passed,hidden_total

``passed`` of ``total`` public cases were right, ``hidden_passed`` of ``hidden_total`` hidden
ones. ``status`` is ``ok`` (every case returned an answer, right or wrong), ``error`` (a case
raised, the stub included, the notebook does not define the function, or the process ended
before its checks), ``timeout`` (a case, a cell or the whole submission ran out of time),
``memory`` (it ran out of memory), ``processes`` (it tried to hold more processes and threads
than its limit) or ``missing`` (no notebook for that exercise). Every
submission folder gets one row for every expected exercise: the teacher's (``--exercises``),
by default all the kit's, never what the folders happen to hold (a notebook for another
exercise is skipped with a note naming its folder; a loose notebook is a submission of its own
exercise only, unless ``--exercises`` is given). Of two notebooks for one exercise one is
graded, and a note says which and why. Every row that is not ``ok`` has a note on stderr
saying why.

>>> import io, json, tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> (folder / "ana").mkdir()
>>> cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
...         "source": "def deal(deck, n, size):\\n    return [deck[p:n * size:n] for p in range(n)]"}
>>> notebook = {"cells": [cell], "metadata": {"gofish_teach": {"exercise": "01-deal"}}, "nbformat": 4, "nbformat_minor": 5}
>>> _ = (folder / "ana" / "01-deal.ipynb").write_text(json.dumps(notebook))
>>> out = io.StringIO()
>>> _ = grade(folder, out=out, log=io.StringIO(), sandbox="off", exercises=["01"])
>>> print(out.getvalue().strip())
submission,exercise,passed,total,status,hidden_passed,hidden_total
ana,01-deal,6,6,ok,6,6
"""
from __future__ import annotations

import csv
import itertools
import json
import math
import os
import secrets
import signal
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from .. import trust
from .folders import exercise_of, expected_exercises, find_submissions, one_each, read_notebook, stage

#: Default limits for one submission (all its notebooks together) and for one cell.
TIME_LIMIT = 300.0
CELL_TIME_LIMIT = 60.0
MEMORY_MB = 2048
STATUSES = ("ok", "error", "timeout", "memory", "processes", "missing")
#: The most a notebook's process may write back: its answers to the cases need far less.
MAX_REPLY_MB = 8
#: The most lines of a reply read (its answers take one per case); the rest are counted, not read.
MAX_LINES = 100_000
HEADER = ["submission", "exercise", "passed", "total", "status", "hidden_passed", "hidden_total"]


class Stopped(Exception):
    """The run was stopped (Ctrl-C): the rows written so far are complete, the rest were not graded."""


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


# --------------------------------------------------------------------------- the teacher's side
def grade(folder, *, out=None, log=None, time_limit: float = TIME_LIMIT, cell_time_limit: float = CELL_TIME_LIMIT,
          memory_mb: int = MEMORY_MB, workers: int = 1, case_time_limit: float | None = None,
          sandbox: str = "require", hidden_seed: int | None = None, exercises=None, key=None) -> list[Row]:
    """Grade every submission in ``folder``; write the CSV to ``out`` (default stdout), notes to ``log``.

    ``key`` is the answer key's folder (default: the kit's ``solutions/key/``); without one,
    :class:`~gofish_teach.exercises.KeyMissing` (a ``ValueError`` naming ``--key``). Without
    bubblewrap and without ``sandbox="off"``, :class:`~gofish_teach.trust.SandboxUnavailable`. Both
    before any learner's code runs. Ctrl-C kills every notebook's process at once and raises
    :class:`Stopped` (the rows already written are complete).
    """
    from ..exercises import get_exercise, load_key

    out = out or sys.stdout
    log = log or sys.stderr
    _check_limits(time_limit=time_limit, cell_time_limit=cell_time_limit, memory_mb=memory_mb, workers=workers,
                  case_time_limit=case_time_limit)
    key = load_key(key)
    trust.hide_answers(key.folder)  # masked in every sandbox from now on, wherever it is kept
    use_jail = trust.resolve_sandbox(sandbox, log=log)
    folder = Path(folder).absolute()  # the children run elsewhere: a relative path would point nowhere
    notes: list[str] = []
    submissions = find_submissions(folder, notes)
    for name, submission in list(submissions.items()):
        # The answer key kept beside the notebooks (the repository's solutions/key/) is nobody's work.
        if submission.home is not None and submission.home.resolve() == key.folder.resolve():
            del submissions[name]
            notes.append(f"skipped {name}/: it is the answer key (--key), not a submission")
    for note in notes:
        _say(log, note)
    if not submissions:
        _say(log, f"{folder} holds no submission (no folder and no notebook)")
    seed = secrets.randbits(62) if hidden_seed is None else int(hidden_seed)
    # The teacher's list, or the kit's: never what the folders hold (one learner's extra work is no
    # classmate's "missing" row).
    expected = expected_exercises(exercises)
    jobs = []
    for name, submission in submissions.items():
        known = []
        for path in submission.notebooks:
            notebook, problem = read_notebook(path)
            ex = exercise_of(path, notebook) if notebook is not None else exercise_of(path, {})
            if ex is None:
                _say(log, f"{name}: skipped {path.name}: not an exercise notebook (no exercise id in its metadata or "
                          "name)" + (f"; {problem}" if problem else ""))
            elif ex not in expected:
                _say(log, f"{name}: skipped {path.name}: it is exercise {ex}, which is not expected (--exercises "
                          f"{','.join(e[:2] for e in expected)}): not graded, and no one gets a row for it")
            else:
                known.append((path, ex, problem))
        known, chosen = one_each(known, submission.home)
        for ex_id, note in chosen.items():
            _say(log, f"{name}: {ex_id}: {note}")
        if not known:
            _say(log, f"{name}: no exercise notebook found: every expected exercise is 'missing'")
        jobs.append((name, submission.home, known, chosen))
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([trust.csv_cell(c) for c in HEADER])
    rows: list[Row] = []
    options = dict(seed=seed, key=key, use_jail=use_jail, time_limit=time_limit, cell_time_limit=cell_time_limit,
                   memory_mb=memory_mb, case_time_limit=case_time_limit, log=log)

    def run(job):
        name, home, known, chosen = job
        graded = [replace(r, note="; ".join(filter(None, (r.note, chosen.get(r.exercise)))))
                  for r in _grade_safely(name, known, home, options)]
        done = {r.exercise for r in graded}
        # A loose notebook is a submission of one exercise, unless --exercises says otherwise.
        for ex_id in (expected if home is not None or exercises is not None else []):
            if ex_id not in done:
                ex = get_exercise(ex_id)
                graded.append(Row(name, ex_id, 0, len(key.public_cases(ex)), "missing", 0,
                                  len(key.hidden_cases(ex, seed)), note=f"no notebook for exercise {ex_id}"))
                if known:
                    _say(log, f"{name}: {ex_id}: missing (no notebook for it)")
        return graded

    trust.resume()
    pool = ThreadPoolExecutor(max_workers=max(1, workers))
    try:
        for result in pool.map(run, jobs):  # in submission order, whatever finishes first
            for row in result:  # a name or a note that starts like a formula is text in a spreadsheet
                writer.writerow([trust.csv_cell(c) for c in row.cells()])
            out.flush()
            rows += result
    except KeyboardInterrupt:
        killed = trust.interrupt()
        pool.shutdown(wait=False, cancel_futures=True)
        graded = len({r.submission for r in rows})
        raise Stopped(f"stopped ({trust.stop_word()}): {graded} of {len(jobs)} submissions were graded (their rows "
                      f"above are complete); {killed} notebook process(es) were killed") from None
    pool.shutdown()
    return rows


def _grade_safely(name: str, known: list, home, options: dict) -> list[Row]:
    """One submission's rows, whatever its bytes do: a failure of the grader on them is that learner's
    ``error`` rows, with a note naming it, never a stop for the class."""
    from ..exercises import get_exercise

    try:
        return grade_submission(name, known, home=home, **options) if known else []
    except trust.Stopped:
        raise KeyboardInterrupt from None
    except Exception as e:  # noqa: BLE001 - confined to this learner's rows
        note = f"the grader could not grade this submission: {type(e).__name__}: {str(e)[:200]}"
        rows = []
        for item in known:
            ex = get_exercise(item[1])
            key = options["key"]
            rows.append(Row(name, ex.id, 0, len(key.public_cases(ex)), "error", 0,
                            len(key.hidden_cases(ex, options["seed"])), note))
            print(f"grade: {name}: {ex.id}: error: {note}", file=options["log"])
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


def grade_submission(name: str, notebooks: list[tuple], *, home=None, seed: int = 0, key=None, use_jail: bool = False,
                     time_limit: float = TIME_LIMIT, cell_time_limit: float = CELL_TIME_LIMIT,
                     memory_mb: int = MEMORY_MB, case_time_limit: float | None = None, log=None) -> list[Row]:
    """Grade one submission's ``(notebook path, exercise id[, problem])`` items, each notebook in a
    sandboxed process of its own; a notebook with a ``problem`` (unreadable) is an error row, not run.
    The cases and their answers are the answer key's (``key``: a loaded key or its folder; default the kit's)."""
    from ..exercises import get_exercise, load_key

    log = log or sys.stderr
    key = load_key(key)
    trust.hide_answers(key.folder)
    plan = []  # (notebook, exercise, public cases, hidden cases, problem)
    for path, ex_id, *problem in notebooks:
        ex = get_exercise(ex_id)
        plan.append((Path(path), ex, key.public_cases(ex), key.hidden_cases(ex, seed), problem[0] if problem else ""))
    deadline = time.monotonic() + time_limit
    rows = []
    with tempfile.TemporaryDirectory(prefix="gofish-grade-") as staged:
        # The submission copied once, whatever the number of its notebooks; each notebook's process
        # copies it again into a folder of its own, in memory in the sandbox.
        inputs = Path(staged) / "in"
        where = stage(Path(home) if home is not None else None, [p for p, *_, problem in plan if not problem], inputs)
        deadline = time.monotonic() + time_limit
        for path, ex, public, hidden, problem in plan:
            if problem:
                rows.append(Row(name, ex.id, 0, len(public), "error", 0, len(hidden), problem))
                _say(log, f"{name}: {ex.id}: error: {problem}")
                continue
            # One sandbox per notebook, on a fresh copy: nothing one notebook does can reach another's results.
            left = deadline - time.monotonic()
            request = {"cases": [ex.wire(c) for c in public + hidden], "exercise": ex.id, "path": where[path],
                       "cell_time_limit": cell_time_limit, "case_time_limit": case_time_limit,
                       "memory_mb": memory_mb, "time_limit": max(left, 0.0)}
            reply, returncode, reached = _run_one(inputs, request, left, use_jail, memory_mb) if left > 0 \
                else (trust.Reply(b"", "deadline"), None, None)
            rows.append(_judge(name, ex, public, hidden, reply, returncode, time_limit, memory_mb, log, reached))
    return rows


def _run_one(copy: Path, request: dict, seconds: float, use_jail: bool, memory_mb: int):
    """Run one notebook's process on a fresh copy of the submission (``copy``): ``(its reply, exit status, the
    limit it reached: None, "memory" or "processes")``.

    The process copies it into a folder of its own first. In the sandbox the copy is shown to it
    read-only, and its folder is memory (tmpfs) counted in its memory limit: nothing it writes
    reaches this disk.
    """
    with tempfile.TemporaryDirectory(prefix="gofish-grade-") as tmp:
        env = {"MPLBACKEND": "Agg", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
               "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0", "PYTHONSAFEPATH": "1"}
        argv = [sys.executable, "-m", "gofish_teach.grade.submission"]
        # A cgroup counts every byte and process of it; where none can be made, the fallback (trust.seccomp).
        group = trust.Group.make(memory_mb, trust.TASKS)
        request["fallback"] = group is None
        try:
            if use_jail:
                request["inputs"] = trust.INPUTS
                argv = trust.sandbox_command(argv, mode="require", env=env, memory_mb=memory_mb, inputs=copy)
                env, cwd = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}, tmp
            else:  # a folder of its own all the same, the copy copied in by the process
                request["inputs"] = str(copy)
                env, cwd = dict(os.environ, **env), tmp
            start = time.monotonic()
            proc = trust.start(group.wrap(argv) if group else argv, env=env, cwd=cwd)
        except BaseException:
            if group is not None:
                group.close()
            raise
        budget = trust.Budget(proc.pid, memory_mb, trust.PRIVATE, sandboxed=use_jail, group=group, tasks=trust.TASKS)
        try:
            deadline = start + seconds
            try:
                trust.write_all(proc.stdin.fileno(), json.dumps(request).encode(), deadline)
            except (trust.Deadline, trust.Closed):
                pass  # it stopped reading or ended: what it said (nothing) is judged
            proc.stdin.close()
            reply = trust.read_all(proc.stdout.fileno(), deadline, MAX_REPLY_MB * 2**20, check=budget.over)
        finally:
            returncode = trust.finish(proc)
            reached = budget.verdict()
            if group is not None:
                group.close()
    return reply, returncode, reached


def _judge(name, ex, public, hidden, reply, returncode, time_limit, memory_mb, log, reached=None) -> Row:
    """The row of one notebook, from its process's reply: each returned value judged here."""
    from ..exercises import decode_plain

    got, malformed = _parse(itertools.islice(_lines(reply.data), MAX_LINES))
    malformed += max(0, reply.data.count(b"\n") + (not reply.data.endswith(b"\n")) - MAX_LINES)
    results = []
    for k, case in enumerate(public + hidden):
        reply_k = got.get(k)
        if reply_k is None or reply_k.get("status") != "ok":
            results.append((False, (reply_k or {}).get("status")))
            continue
        try:
            value = decode_plain(reply_k.get("value"))
            right, _ = ex.judge(case, value)
        except (ValueError, TypeError, RecursionError):
            right = False
        except Exception:  # noqa: BLE001 - a value that breaks a comparison is a wrong answer
            right = False
        results.append((bool(right), "ok"))
    status, note = _status(got, results, reply.ended, returncode, ex, time_limit, memory_mb, reached)
    if note and malformed:
        note += f" ({malformed} line(s) it wrote to the grader's channel were not replies, and were ignored)"
    if note:
        _say(log, f"{name}: {ex.id}: {status}: {note}")
    return Row(name, ex.id, sum(r for r, _ in results[:len(public)]), len(public), status,
               sum(r for r, _ in results[len(public):]), len(hidden), note)


def _say(log, text: str) -> None:
    """One line of the grader's notes on the teacher's screen: learners' text in it shown, never obeyed."""
    print("grade: " + trust.terminal(text), file=log)


def _lines(data: bytes):
    """The lines of a reply, one at a time (a flood of tiny lines never becomes a list of them all)."""
    start = 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        yield data[start:end].decode("utf-8", "replace")
        start = end + 1


def _parse(lines) -> tuple[dict, int]:
    """``({case: reply, "cells": reply, "missing": reply}, lines that were not replies)``; the first
    reply for each wins. A line that is not a reply (malformed, nested too deeply) is counted, not fatal."""
    got: dict = {}
    malformed = 0
    for line in lines:
        try:
            message = json.loads(line, parse_constant=lambda c: None)
            key = message["case"] if "case" in message else message["kind"]
        except (ValueError, KeyError, TypeError, RecursionError):
            malformed += bool(line.strip())
            continue
        if type(key) is int or key in ("cells", "missing"):
            got.setdefault(key, message)
        else:
            malformed += 1
    return got, malformed


def _status(got, results, ended, returncode, ex, time_limit, memory_mb, reached=None) -> tuple[str, str]:
    """The row's status and, unless all went well, a note that says why."""
    if ended == "cap":
        return "error", (f"too much output: the notebook's process wrote more than {MAX_REPLY_MB} MB to the "
                         "grader's channel (only the answers to the cases may come back), and was stopped")
    if reached == "processes":
        return "processes", (f"it tried to hold more than {trust.TASKS} processes and threads at once (zombies "
                             "included), its limit, and was stopped")
    if reached == "memory" or ended == "check":
        return "memory", (f"its processes and its files (its folder and /tmp are memory) held more than its memory "
                          f"limit of {memory_mb} MB (memfd files and pipe buffers count too), and it was stopped")
    finished = ended == "eof"
    cells = got.get("cells", {})
    if not isinstance(cells, dict):
        cells = {}
    seen = [s for _, s in results if s]
    if cells.get("status") in ("timeout", "memory"):
        return cells["status"], f"a notebook cell ran out of {'time' if cells['status'] == 'timeout' else 'memory'}"
    if "missing" in got:
        return "error", f"the notebook does not define {ex.function}()" + (
            f" (a cell raised {str(cells['error'])[:200]})" if cells.get("error") else "")
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
                        help=f"memory for one notebook's processes and the files it writes (default: {MEMORY_MB})")
    parser.add_argument("--case-time-limit", type=float, default=None, metavar="SECONDS",
                        help="time for one case of a check (default: the exercise's own, 5 s for most)")
    parser.add_argument("--workers", type=int, default=1, metavar="N", help="submissions graded at once (default: 1)")
    parser.add_argument("--sandbox", choices=trust.MODES, default="require",
                        help="run learners' code in bubblewrap: require (the default: refuse to run without it), "
                             "off (unprotected: only on a machine that holds nothing else); auto means require")
    parser.add_argument("--hidden-seed", type=int, default=None, metavar="N",
                        help="the seed of the hidden cases (default: a fresh secret one each run)")
    parser.add_argument("--key", default=None, metavar="DIR",
                        help="the answer key, the exercises' reference answers: a folder such as the repository's "
                             "solutions/key/ (default: the solutions/key/ of the kit this grader runs from; a "
                             "learner's install has none)")
    parser.add_argument("--exercises", default=None, metavar="IDS",
                        help="the exercises every submission should have, e.g. 01,02,03 (default: all the kit's "
                             "exercises); a notebook for another is skipped with a note")
    parser.set_defaults(run=lambda args, out: _run_from_args(args, out))


def _run_from_args(args, out) -> None:
    """Grade as the options say; Ctrl-C, SIGTERM or SIGHUP stops it the same way: every notebook's process
    killed, every copy and cgroup removed, one line on stderr, the exit status a shell gives that signal."""
    exercises = None if args.exercises is None else [e for e in args.exercises.split(",") if e.strip()]
    try:
        with trust.stopping_signals():
            grade(args.folder, out=out, time_limit=args.time_limit, cell_time_limit=args.cell_time_limit,
                  memory_mb=args.memory_mb, workers=args.workers, case_time_limit=args.case_time_limit,
                  sandbox=args.sandbox, hidden_seed=args.hidden_seed, exercises=exercises, key=args.key)
    except Stopped as e:
        print(f"grade: {e}", file=sys.stderr)
        raise SystemExit(trust.stop_status()) from None
    except KeyboardInterrupt:  # before any notebook's process started
        trust.interrupt()
        print(f"grade: stopped ({trust.stop_word()}) before any notebook was graded", file=sys.stderr)
        raise SystemExit(trust.stop_status()) from None
