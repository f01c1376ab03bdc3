"""First answers that last: kept in ``first-answers.json`` beside the notebook, keyed by question id.

A kernel forgets everything when it restarts, and a lesson reopened next week starts a new
one: a first answer kept only in the kernel could be given again, and a "first" answer
replaced (the finding behind issue 43). So the first readable answer to each of the lessons'
questions is written, the moment it is given, to a small JSON file in the kernel's working
folder, which JupyterLab (and nbconvert, and VS Code) make the notebook's own folder:
``lessons/first-answers.json`` in a learner's copy of the course. Before keeping an answer the
file is read again, under a lock, so an answer already there (from an earlier kernel, or from
another lesson open at the same time) stays the first.

Why a file beside the notebook and not only the notebook's outputs: a kernel cannot read or write
the notebook it runs in (the page holds it, and saves it when it likes), while a file beside it
is read back by a new kernel before the learner answers anything. One file per folder, keyed by
question id (the ids are unique across the lessons), needs no notebook's name, which a kernel does
not reliably know, and survives a lesson renamed or duplicated: predicting first is per question.
``reveal`` still writes each first answer into the notebook's output too, so a teacher who collects
only the notebooks gets them; ``gofish-teach answers`` reads both.

Nothing here is protected from the learner, whose kernel and files these are: first answers are for
the class discussion, never for marks (the teacher's guide says so).

Outside a kernel (tests, a plain Python session) answers are kept in memory only, unless
:data:`FOLDER` names a folder.

>>> import tempfile
>>> here = Path(tempfile.mkdtemp())
>>> keep({"id": "L00-count-asks", "answer": "8"}, here)["answer"]
'8'
>>> keep({"id": "L00-count-asks", "answer": "15"}, here)["answer"]   # the first stays
'8'
>>> sorted(read(here)), (here / FILE).exists()
(['L00-count-asks'], True)
"""
from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from pathlib import Path

#: The file's name, in the notebook's folder.
FILE = "first-answers.json"
#: The largest file read back (39 questions' records are a few kilobytes).
MAX_BYTES = 2**20
#: Where to keep the file outside a kernel (tests); ``None``: in a kernel, its working folder; else nowhere.
FOLDER: Path | None = None


def folder() -> Path | None:
    """The folder the file is kept in: :data:`FOLDER`, else a kernel's working folder, else ``None``."""
    if FOLDER is not None:
        return Path(FOLDER)
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython else None
    if getattr(shell, "kernel", None) is None:
        return None
    try:
        return Path.cwd()
    except OSError:  # the folder was removed under the kernel
        return None


def read(where: Path | None = None) -> dict[str, dict]:
    """The first answers kept in ``where`` (default :func:`folder`), by question id; ``{}`` if none can be read.

    Anything malformed is passed over: the file is the learner's, and a damaged one must not stop a lesson.
    """
    where = folder() if where is None else where
    if where is None:
        return {}
    try:
        with open(where / FILE, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
        data = json.loads(raw.decode("utf-8")) if len(raw) <= MAX_BYTES else None
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return {}
    kept = data.get("first_answers") if isinstance(data, dict) else None
    if not isinstance(kept, dict):
        return {}
    return {qid: r for qid, r in kept.items() if isinstance(r, dict) and r.get("id") == qid}


def keep(record: dict, where: Path | None = None) -> dict:
    """Keep ``record`` as its question's first answer unless the file holds one already; return the first.

    If the file cannot be written (a read-only folder, a full disk), ``record`` is returned all the
    same: the kernel and the notebook's output keep it, and the lesson goes on.
    """
    where = folder() if where is None else where
    if where is None:
        return record
    with _locked(where):
        kept = read(where)
        if record["id"] in kept:
            return kept[record["id"]]
        kept[record["id"]] = record
        text = json.dumps({"about": "gofish-teach: your first answer to each question, for the class discussion",
                           "first_answers": kept}, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
        try:
            _write(where / FILE, text)
        except OSError:
            pass
    return record


def _write(path: Path, text: str) -> None:
    """Through a temporary file and a rename: a kernel stopped mid-write leaves the old file whole."""
    fd, part = tempfile.mkstemp(prefix=".first-answers.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(part, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(part)
        raise


@contextlib.contextmanager
def _locked(where: Path):
    """An exclusive lock on the folder (two lessons open at once share the file); none where there is no flock."""
    try:
        import fcntl
        fd = os.open(where, os.O_RDONLY)
    except (ImportError, OSError):
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
