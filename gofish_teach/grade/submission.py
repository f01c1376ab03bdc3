"""The submission's side of the grader: what runs in a notebook's own process, in the sandbox.

``python -m gofish_teach.grade.submission`` reads one request (JSON, from the trusted grader, on
stdin), applies the limits (:func:`gofish_teach.trust.limit_self`) before any learner's code,
copies the submission from its read-only folder into its own (memory, counted in its limit),
runs the notebook's code cells (the check cells skipped), calls the learner's function on each
case and writes back one JSON line per case with only what it returned, as a plain value
(:mod:`gofish_teach.exercises.plain`). Whatever the learner's code prints goes nowhere. The
grader (:mod:`gofish_teach.grade.grader`) judges the values; nothing here decides a mark.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import sys
from pathlib import Path

from .. import trust

TIME_LIMIT = 300.0


class CellTimeout(Exception):
    """A notebook cell ran past its time limit."""


def _worker(request: dict, emit) -> None:
    """Run the notebook, then call its function on every case; ``emit`` what happened, as plain data."""
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    from ..exercises import call_in_child, encode_plain, get_exercise

    config = Config()
    config.HistoryManager.enabled = False  # no history: no file, and no thread saving it (threads may be refused)
    shell = InteractiveShell.instance(config=config)
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
        outcome = call_in_child(ex.call, (func, wire), time_limit=limit)
        reply = {"case": k, "status": outcome.status, "error": outcome.error[:300]}
        if outcome.status == "ok":
            reply["value"] = encode_plain(outcome.value)
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
    except (OSError, ValueError, AttributeError, RecursionError) as e:
        return "error", f"the notebook cannot be read: {type(e).__name__}"
    status, first = "ok", ""
    for cell in cells:
        if "check" in cell.get("metadata", {}).get("tags", []):
            continue
        source = cell.get("source", "")
        source = "".join(map(str, source)) if isinstance(source, list) else str(source)

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


def main() -> int:
    """What each notebook's process runs: the request on stdin, the replies on stdout."""
    request = json.loads(sys.stdin.buffer.read())
    sys.stdin.close()
    # Without a cgroup: few open files, and no memfd, shared memory or thread (trust.seccomp); forks are counted.
    trust.limit_self(request.get("memory_mb"), request.get("time_limit", TIME_LIMIT),
                     refuse="threads" if request.get("fallback") else None)
    if request.get("inputs"):  # in the sandbox: the submission, read-only, copied into its own folder
        shutil.copytree(request["inputs"], ".", dirs_exist_ok=True, symlinks=True)
    # The learner's folder last on the path (PYTHONSAFEPATH kept it off the front): their helper
    # modules import, but a file of theirs named like a module of Python's cannot replace it.
    sys.path.append(os.getcwd())
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
    sys.exit(main())
