"""``gofish-teach course DIR``: a learner's own copy of the lessons and the exercises.

The notebooks come from the installed package (a wheel carries the repository's
``notebooks/*.ipynb`` and ``exercises/*.ipynb``, copied in at build time by ``setup.py``; an
editable install reads those folders directly). Never the solutions, nor the teacher's
material (``notebooks/README.md``, anything in a subfolder of ``notebooks/``). The kit's own
lessons are the teacher's edition, with every result and its discussion; a lesson is copied as
a learner should meet it (:func:`learner_notebook`): without the cells that discuss a
predict-first question's result, with no output saved below the first question, each result
cell waiting until its question is answered, and a note at the top saying it is the learner's
edition.

``DIR`` gets ``lessons/`` and ``exercises/``, ready for ``jupyter lab DIR``, and a small
manifest, ``.gofish-course.json``, with the hash of every notebook written. The manifest tells
a notebook the learner changed (or ran: outputs count) from an older version of ours:

- a notebook the learner changed is never overwritten without ``--force``: the command names
  it and writes nothing;
- ``--update`` writes new and updated notebooks and keeps the learner's changed ones as they are;
- a notebook that left the course (a lesson renamed) is removed if the learner never changed it.

>>> import shutil, tempfile
>>> tmp = Path(tempfile.mkdtemp())
>>> first = copy_course(tmp)
>>> len(first.written) > 10, copy_course(tmp).written              # a second copy writes nothing
(True, [])
>>> lesson = sorted((tmp / "lessons").glob("*.ipynb"))[0]
>>> _ = lesson.write_text(lesson.read_text() + " ")                 # the learner works on it
>>> copy_course(tmp)                                                # doctest: +ELLIPSIS
Traceback (most recent call last):
...
gofish_teach.teacher.course.CourseConflict: 1 notebook(s) in ... differ from the course's and were changed or run by you, ...
>>> copy_course(tmp, update=True).kept == [f"lessons/{lesson.name}"]
True
>>> shutil.rmtree(tmp)
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

#: Where each folder of the course comes from (a folder of the repository, or of the wheel's
#: ``gofish_teach/teacher/_course/``) and where it goes in the learner's copy. Only the ``*.ipynb``
#: directly inside a folder are taken.
FOLDERS = {"notebooks": "lessons", "exercises": "exercises"}
PACKAGED = Path(__file__).resolve().parent / "_course"
REPOSITORY = Path(__file__).resolve().parents[2]
MANIFEST = ".gofish-course.json"


class CourseConflict(ValueError):
    """The copy would overwrite notebooks the learner changed; nothing was written."""


def source() -> Path:
    """The folder holding ``notebooks/`` and ``exercises/``: the installed package's, else the repository's."""
    for root in (PACKAGED, REPOSITORY):
        if all((root / folder).is_dir() for folder in FOLDERS):
            return root
    raise FileNotFoundError(f"the course's notebooks are missing: neither {PACKAGED} nor {REPOSITORY} holds "
                            f"{' and '.join(FOLDERS)}; reinstall gofish-teach")


def notebooks(root: Path | None = None) -> dict[str, Path]:
    """``{path in the learner's copy: source file}`` for every lesson and exercise notebook, in order."""
    root = root or source()
    return {f"{target}/{nb.name}": nb for folder, target in FOLDERS.items()
            for nb in sorted((root / folder).glob("*.ipynb"))}


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


#: The line a learner's copy puts at the top of a cell that shows a question's result.
REVEAL_LINE = "from gofish_teach.widgets import reveal\nreveal({ids})  # answer the question above first: this cell waits for it\n"
#: The tag of a cell that discusses a question's result (``answers:L03-top-seven``): the teacher's edition only.
ANSWERS_TAG = "answers:"
#: The tag of a lesson's first cell, which opens with a note (a quote) saying which edition it is.
EDITION_TAG = "edition"
LEARNER_EDITION = (
    "> **Learner's edition.** Each *Predict first* question comes before its result: answer it, then run the\n"
    "> cell under it to see the result and what it means. Below the first question no output is saved: run\n"
    "> the cells (**Run ▸ Run All Cells** runs up to the first question you have not answered yet).\n")
TEACHER_EDITION = (
    "> **Teacher's edition, with the answers.** Under each *Predict first* question stand its result and the\n"
    "> discussion of it, for you to read ahead. Give learners their own copy instead (`gofish-teach course DIR`):\n"
    "> it holds each result back until its question is answered. The answer keys are in `teacher/`.\n")


def _tags(cell: dict) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def _placeholder(output: dict) -> bool:
    """A widget's saved output (its view, or the kit's note that it appears once the cell runs): no result in it."""
    data = output.get("data", {})
    html = data.get("text/html", "")
    return "application/vnd.jupyter.widget-view+json" in data or "gf-placeheld" in "".join(html)


def learner_cells(notebook: dict) -> dict:
    """A lesson (as parsed JSON) as a learner meets it; changed in place and returned. See :func:`learner_notebook`."""
    cells, asked = [], False
    for cell in notebook.get("cells", []):
        tags = _tags(cell)
        if any(tag.startswith(ANSWERS_TAG) for tag in tags):
            continue                                  # a question's result prose: the teacher's edition only
        if EDITION_TAG in tags:  # the note (a quote) that opens the lesson's first cell
            text = "".join(cell.get("source", []))
            cell["source"] = re.sub(r"\A(?:>.*(?:\n|\Z))+\n*", LEARNER_EDITION + "\n", text).splitlines(True)
        cells.append(cell)
        if cell.get("cell_type") != "code":
            continue
        if "predict" in tags:
            asked = True                              # the question itself stays as saved: its text is its output
            continue
        ids = (cell.get("metadata", {}).get("gofish_teach") or {}).get("reveals")
        if ids:
            text = "".join(cell.get("source", []))
            cell["source"] = (REVEAL_LINE.format(ids=", ".join(json.dumps(i) for i in ids)) + text).splitlines(True)
        if asked or ids:  # not run yet, as far as the copy shows
            kept = [] if ids else [o for o in cell.get("outputs", []) if _placeholder(o)]
            cell["outputs"], cell["execution_count"] = kept, None
    notebook["cells"] = cells
    return notebook


def learner_notebook(data: bytes) -> bytes:
    """A lesson as a learner gets it: nothing that answers a question before the question is answered.

    - a cell tagged ``answers:ID`` (it states, explains or hints at the result of question ID)
      is left out: the teacher's edition (the kit's own lessons) keeps it, and :func:`reveal`
      shows its text once the learner has answered;
    - below the first question (a code cell tagged ``predict``) no output is saved but the
      questions' own (their text) and a widget's placeholder: an output there may show a result;
    - a cell that shows a question's result (tagged ``reveal``, its metadata naming the
      questions: ``{"gofish_teach": {"reveals": [id, ...]}}``) starts with ``reveal(id)``, which
      stops the cell until the question is answered, then saves the learner's first answer in its
      output (:func:`gofish_teach.widgets.question.reveal`);
    - the note that opens the lesson (a quote at the start of the first cell, tagged ``edition``)
      says that this is the learner's edition.

    >>> cell = {"cell_type": "code", "metadata": {"gofish_teach": {"reveals": ["L0-x"]}}, "source": ["2 / 47"],
    ...         "outputs": [{"output_type": "execute_result"}], "execution_count": 3}
    >>> said = {"cell_type": "markdown", "metadata": {"tags": ["answers:L0-x"]}, "source": ["It is 2/47."]}
    >>> out = json.loads(learner_notebook(json.dumps({"cells": [cell, said]}).encode()))["cells"]
    >>> len(out), out[0]["outputs"], out[0]["execution_count"], "".join(out[0]["source"]).splitlines()[1]
    (1, [], None, 'reveal("L0-x")  # answer the question above first: this cell waits for it')
    """
    notebook = learner_cells(json.loads(data))
    return (json.dumps(notebook, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode()


def rendered(rel: str, src: Path) -> bytes:
    """The bytes of ``rel`` in a learner's copy: a lesson through :func:`learner_notebook`, the rest as it is."""
    data = src.read_bytes()
    return learner_notebook(data) if rel.startswith(FOLDERS["notebooks"] + "/") else data


def jupyter_command() -> str:
    """How to start JupyterLab from here: the ``jupyter`` next to this Python (e.g. ``.venv/bin/jupyter``)."""
    import shutil
    import sys

    beside = Path(sys.executable).parent / "jupyter"
    on_path = shutil.which("jupyter")
    if beside.exists() and (not on_path or Path(on_path).resolve() != beside.resolve()):
        try:
            return str(beside.relative_to(Path.cwd()))
        except ValueError:
            return str(beside)
    return "jupyter"


def lab_command(folder: Path) -> str:
    """The command that opens ``folder`` in JupyterLab from here; as root, with ``--allow-root``
    (Jupyter refuses to start as root without it, as ``make lab`` knows too).

    >>> lab_command(Path("my-course")).endswith(" lab my-course" + (" --allow-root" if os.geteuid() == 0 else ""))
    True
    """
    root = " --allow-root" if hasattr(os, "geteuid") and os.geteuid() == 0 else ""
    return f"{jupyter_command()} lab {folder}{root}"


@dataclass
class CourseReport:
    """What :func:`copy_course` did, by path in the learner's copy."""

    folder: Path
    written: list[str] = field(default_factory=list)      # new, or our newer version of a file the learner left alone
    unchanged: list[str] = field(default_factory=list)    # already the current version
    kept: list[str] = field(default_factory=list)         # changed by the learner: left as it is (--update)
    overwritten: list[str] = field(default_factory=list)  # changed by the learner, replaced (--force)
    removed: list[str] = field(default_factory=list)      # no longer in the course, never changed by the learner

    def lines(self) -> list[str]:
        said = [f"{len(self.written) + len(self.overwritten)} notebooks written to {self.folder}, "
                f"{len(self.unchanged)} already up to date."]
        said += [f"  kept your version of {p} (yours differs from ours; --force replaces it)" for p in self.kept]
        said += [f"  replaced your version of {p} (--force)" for p in self.overwritten]
        said += [f"  removed {p}: no longer part of the course, and you had not changed it" for p in self.removed]
        said.append(f"Open them with:  {lab_command(self.folder)}")
        return said


def _read_manifest(folder: Path) -> dict[str, str]:
    try:
        files = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))["files"]
    except FileNotFoundError:
        return {}
    except (ValueError, KeyError, TypeError, OSError) as e:
        raise ValueError(f"{folder / MANIFEST} is damaged ({e}); delete it to treat every existing notebook "
                         "as your own work") from None
    return {str(k): str(v) for k, v in files.items()}


def _write(path: Path, data: bytes) -> None:
    """Write through a temporary file and a rename, so an interrupted copy leaves no half notebook."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".part")
    part.write_bytes(data)
    os.replace(part, path)


def copy_course(folder: Path, *, update: bool = False, force: bool = False,
                root: Path | None = None) -> CourseReport:
    """Write the lessons and exercises into ``folder``; see the module's docstring for the rules.

    Raises :class:`CourseConflict` (and writes nothing) when a notebook the learner changed
    would be overwritten, unless ``update`` (keep theirs) or ``force`` (replace theirs).
    """
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{folder} is a file, not a folder")
    ours, recorded = notebooks(root), _read_manifest(folder)
    data = {rel: rendered(rel, src) for rel, src in ours.items()}
    report = CourseReport(folder)
    plan: dict[str, Path] = {}          # path -> source to write
    theirs: list[str] = []              # changed by the learner, would be overwritten
    for rel, src in ours.items():
        target = folder / rel
        if not target.exists():
            plan[rel] = src
            continue
        now = digest(target)
        if now == hashlib.sha256(data[rel]).hexdigest():
            report.unchanged.append(rel)
        elif recorded.get(rel) == now:  # our older version, untouched
            plan[rel] = src
        else:
            theirs.append(rel)
    if theirs and not (update or force):
        listed = "\n".join(f"  {folder / rel}" for rel in theirs)
        raise CourseConflict(
            f"{len(theirs)} notebook(s) in {folder} differ from the course's and were changed or run by you, "
            f"so nothing was written:\n{listed}\n"
            f"Run again with --update to keep your versions and bring everything else up to date, "
            f"or with --force to replace them with the course's (your changes to them are lost).")
    if force:
        plan.update({rel: ours[rel] for rel in theirs})
        report.overwritten = theirs
    else:
        report.kept = theirs

    manifest = {rel: h for rel, h in recorded.items() if rel in ours}
    for rel in plan:
        _write(folder / rel, data[rel])
        manifest[rel] = hashlib.sha256(data[rel]).hexdigest()
        if rel not in report.overwritten:
            report.written.append(rel)
    for rel in report.unchanged:
        manifest[rel] = digest(folder / rel)
    for rel, h in recorded.items():     # notebooks that left the course
        if rel in ours:
            continue
        target = folder / rel
        if target.exists() and digest(target) == h:
            target.unlink()
            report.removed.append(rel)
        elif target.exists():
            manifest[rel] = h           # still the learner's; remembered so a later run still knows
    _write(folder / MANIFEST, (json.dumps({"about": "gofish-teach course: the notebooks as written, "
                                                    "to tell your changes from our updates",
                                           "files": manifest}, indent=1, sort_keys=True) + "\n").encode())
    return report


def add_command(commands) -> None:
    """The ``course`` command."""
    course = commands.add_parser(
        "course", help="copy the lessons and exercises into a folder of your own, for jupyter lab",
        description="Copy the lesson notebooks (into DIR/lessons) and the exercise notebooks (into "
                    "DIR/exercises), without solutions, ready for 'jupyter lab DIR'. A notebook you changed "
                    "is never overwritten unless you say so.",
        epilog="Example:\n  gofish-teach course my-course && jupyter lab my-course",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    course.add_argument("folder", type=Path, metavar="DIR", help="where to put the course (created if missing)")
    mode = course.add_mutually_exclusive_group()
    mode.add_argument("--update", action="store_true",
                      help="bring new and updated notebooks, keeping every notebook you changed as it is")
    mode.add_argument("--force", action="store_true",
                      help="also replace notebooks you changed with the course's (your changes are lost)")
    course.set_defaults(run=run_course)


def run_course(args, out) -> None:
    report = copy_course(args.folder, update=args.update, force=args.force)
    print("\n".join(report.lines()), file=out)
