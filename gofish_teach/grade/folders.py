"""What a submissions folder holds, read on the teacher's side before any sandbox: who handed in which notebook.

The folder is the learners' too, so it is read as :mod:`gofish_teach.trust` reads: plain files
only, never through a link, and at most :data:`MAX_FILES` names of a learner's folder looked at
(a folder of a hundred thousand empty files costs no more than one of a thousand; a notebook
past them is not found, and the note says so). A learner's name is text the class reads, in the
CSV and on the teacher's screen: it is normalised (NFKC, no invisible characters, no spaces at
its edges), and a name that then prints like another submission's is refused with a note, so
that no two rows look alike (:func:`gofish_teach.trust.distinct_names`). One notebook per
exercise is graded (:func:`one_each` says which, and why), and only the exercises the teacher
expects (:func:`expected_exercises`): a learner who hands in more adds no row to anyone.
A submission's files are copied once (:func:`stage`), however many notebooks it holds.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> for name in ("ana", "ana\\u200b", "zed "):
...     (folder / name).mkdir()
>>> notes = []
>>> sorted(find_submissions(folder, notes))
['ana', 'zed']
>>> print(notes[0])
skipped "ana\\u200b" (a folder): it prints as "ana", as another name does (invisible characters and spaces at the edges do not count); rename it to grade it
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from .. import trust

#: The most a submission's folder may hold to be copied into its sandbox (else only its notebooks are).
MAX_COPY_MB = 50
#: The most names (files and folders) of a learner's folder looked at, and so copied into its sandbox;
#: past them the folder's notebooks found so far are graded, and only they are copied.
MAX_FILES = 1000
#: The largest notebook file read.
MAX_NOTEBOOK_MB = 20


@dataclass
class Submission:
    """One learner's work: its folder (None for a notebook lying loose in the submissions folder) and notebooks."""

    home: Path | None
    notebooks: list[Path]


def find_submissions(folder, notes: list | None = None) -> dict[str, Submission]:
    """``{submission name: Submission}``: one per sub-folder (an empty one too), and one per loose notebook.

    Only plain files and folders count, never through a link: what is skipped (a link, a pipe, a
    device, a folder named like a notebook, a name that prints like another's, the names of a
    folder past :data:`MAX_FILES`) is added to ``notes`` as a sentence naming it. Names are as the
    class sees them (:func:`gofish_teach.trust.distinct_names`).
    """
    folder = Path(folder)
    notes = notes if notes is not None else []
    if not folder.is_dir():
        raise ValueError(f"SUBMISSIONS_DIR: {folder} is not a folder")
    found: list[tuple[str, Path, Submission]] = []  # (name as typed, its entry, what it holds)
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            continue
        what = trust.file_kind(entry)
        if what == "a folder":
            files, skipped = trust.walk_plain(entry, ".ipynb", limit=MAX_FILES)
            found.append((entry.name, entry, Submission(entry, [p for p in files if p.suffix == ".ipynb"])))
            for path, why in skipped:
                if path == entry:  # the walk stopped at MAX_FILES
                    notes.append(f"{entry.name}: its folder holds more than {MAX_FILES:,} files and folders: only "
                                 f"{MAX_FILES:,} were looked at (a notebook among the others is not found), and "
                                 "only its notebooks are copied into its sandbox")
                else:
                    notes.append(f"{entry.name}: skipped {path.relative_to(entry)}: {why}, not a plain file "
                                 "(links are not followed and not copied)")
        elif entry.suffix == ".ipynb" and what is None:
            found.append((entry.stem, entry, Submission(None, [entry])))
        elif entry.suffix == ".ipynb" or what not in (None, "a folder"):
            notes.append(f"skipped {entry.name}: {what}, not a plain notebook or a folder")
    submissions = {}
    for (_typed, entry, submission), (name, why) in zip(found, trust.distinct_names(t for t, _, _ in found), strict=True):
        if why:
            notes.append(f'skipped "{entry.name}" ({"a folder" if submission.home else "a notebook"}): {why}; '
                         "rename it to grade it")
        else:
            submissions[name] = submission
    return dict(sorted(submissions.items()))


def read_notebook(path) -> tuple[dict | None, str]:
    """A notebook file read as a plain file: ``(its JSON, "")``, or ``(None, why it cannot be read)``."""
    try:
        notebook = json.loads(trust.read_plain(path, MAX_NOTEBOOK_MB * 2**20))
    except trust.NotPlain as e:
        return None, f"the notebook is {e}" if not str(e).startswith("it ") else f"the notebook: {e}"
    except OSError as e:
        return None, f"the notebook cannot be read ({e.strerror or type(e).__name__})"
    except RecursionError:
        return None, "the notebook is not a notebook: its JSON is nested too deeply"
    except ValueError as e:  # UnicodeDecodeError too
        return None, f"the notebook is not valid JSON ({type(e).__name__})"
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells", []), list):
        return None, "the notebook is not a notebook (no list of cells)"
    return notebook, ""


def exercise_of(path: Path, notebook: dict | None = None) -> str | None:
    """The exercise id of a notebook: from its metadata, else from its file name; None if neither says."""
    from ..exercises import EXERCISES, get_exercise

    if notebook is None:
        notebook, _ = read_notebook(path)
    try:
        declared = notebook.get("metadata", {}).get("gofish_teach", {}).get("exercise")
        if declared:
            return get_exercise(declared).id
    except (AttributeError, TypeError, ValueError):
        pass
    number = Path(path).name[:2]
    if number.isdigit():
        for ex in EXERCISES:
            if ex.id.startswith(number + "-"):
                return ex.id
    return None


def expected_exercises(exercises=None) -> list[str]:
    """The exercises every submission is graded on: the teacher's (ids or numbers), else the kit's whole list.

    Never what the submissions happen to hold: a learner who hands in every exercise adds no
    "missing" row to a classmate.

    >>> expected_exercises(["3", "01"])
    ['01-deal', '03-give']
    >>> len(expected_exercises())
    12
    """
    from ..exercises import EXERCISES, get_exercise

    if exercises is None:
        return [ex.id for ex in EXERCISES]
    return sorted({get_exercise(str(e).strip()).id for e in exercises})


#: Why one notebook of an exercise is graded rather than another, by the first rule that tells them apart.
_WHY = ("the other could not be read", "it has the handed-out notebook's name", "it is nearer the top of the folder",
        "it was saved last", "its name comes first")


def one_each(known: list[tuple], home: Path | None = None) -> tuple[list[tuple], dict[str, str]]:
    """One notebook per exercise from ``(path, exercise, problem)`` items: ``(those kept, {exercise: note})``.

    A learner's folder may hold two notebooks for one exercise (a copy, a draft): one is graded,
    never both (two rows would say two things, and the best of many tries is not a mark). It is
    the first of: one that can be read, one with the handed-out name (``01-deal.ipynb``), the one
    nearest the top of the folder, the one saved last, the first by name. The note says which
    was graded, which were not, and why.
    """
    groups: dict[str, list[tuple]] = {}
    for item in known:
        groups.setdefault(item[1], []).append(item)
    kept, notes = [], {}
    for ex_id, items in groups.items():
        ranked = sorted(items, key=lambda item: _rank(item, home))
        kept.append(ranked[0])
        if len(ranked) > 1:
            first, second = _rank(ranked[0], home), _rank(ranked[1], home)
            why = _WHY[next((k for k in range(len(first)) if first[k] != second[k]), len(_WHY) - 1)]
            if why == _WHY[1]:
                why += f", {ex_id}.ipynb"
            others = ", ".join(f'"{_shown(item[0], home)}"' for item in ranked[1:])
            notes[ex_id] = (f'{len(ranked)} notebooks for {ex_id}: graded "{_shown(ranked[0][0], home)}" ({why}), '
                            f"not {others}: one notebook an exercise is graded")
    return sorted(kept, key=lambda item: str(item[0])), notes


def _rank(item: tuple, home: Path | None) -> tuple:
    path, ex_id, problem = item
    try:
        saved = os.lstat(path).st_mtime_ns
    except OSError:
        saved = 0
    shown = _shown(path, home)
    return bool(problem), Path(path).name != f"{ex_id}.ipynb", shown.count("/"), -saved, shown


def _shown(path, home: Path | None) -> str:
    return str(Path(path).relative_to(home)) if home is not None else Path(path).name


def stage(home: Path | None, notebooks: list[Path], work: Path) -> dict[Path, str]:
    """Copy a submission into ``work``, once for all its notebooks: ``{notebook: its path inside work}``.

    The plain files of its folder ``home`` (its data files too), or only ``notebooks`` when there
    is no folder or it holds more than :data:`MAX_COPY_MB` or :data:`MAX_FILES` names. Only plain
    files are copied, each opened without following links (:mod:`gofish_teach.trust`): a link
    leads nowhere, because it is not there. Each notebook's process copies ``work`` into a folder
    of its own (:mod:`.submission`), so what one notebook writes never reaches another.
    """
    work.mkdir()
    notebooks = [Path(p) for p in notebooks]
    where = {p: (str(p.relative_to(home)) if home is not None else p.name) for p in notebooks}
    files = []
    if home is not None:
        files, skipped = trust.walk_plain(home, limit=MAX_FILES)
        if any(path == home for path, _ in skipped) or sum(_size(f) for f in files) > MAX_COPY_MB * 2**20:
            files = []
    for f in files or notebooks:
        try:
            trust.copy_plain(f, work / (f.relative_to(home) if files else where[f]))
        except OSError:
            if f in where:
                raise
            # a data file changed since it was listed: left out
    return where


def _size(path: Path) -> int:
    try:
        return os.lstat(path).st_size
    except OSError:
        return 0
