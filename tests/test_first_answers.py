"""``gofish-teach answers DIR``: a class's first answers, from the notebooks the learners saved.

Each learner's notebook is made the way a learner makes it: the course's copy of a lesson, the
question answered (twice: the first answer counts), the waiting cell run, the notebook saved.
Learners' files are hostile: links, pipes, folders named like notebooks, bad or huge JSON each
spoil only their own row.
"""
from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import nbformat
import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from gofish_teach.teacher import first_answers
from gofish_teach.__main__ import main
from gofish_teach.teacher import copy_course
from gofish_teach.widgets import question as qmod
from gofish_teach.widgets.question import Question

CHOICES = ["less than 1/4", "between 1/4 and 1/2", "between 1/2 and 3/4", "more than 3/4"]


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("course")
    copy_course(folder)
    return folder / "lessons" / "00-welcome.ipynb"


def learner_saves(course: Path, folder: Path, answers: dict[str, list[str]]) -> Path:
    """A learner's lesson 00: each question answered in turn (``answers[id]``), its waiting cell run, saved."""
    nb = nbformat.read(course, as_version=4)
    qmod.FIRST.clear()
    shell = InteractiveShell.instance()
    try:
        for cell in nb.cells:
            ids = cell.metadata.get("gofish_teach", {}).get("reveals")
            if not ids or not all(qid in answers for qid in ids):
                continue
            for qid in ids:
                choices = CHOICES if qid == "L00-queen-chance" else None
                q = Question("?", choices=choices, id=qid)
                for given in answers[qid]:
                    q.widget.respond(given)
            with capture_output() as shown:
                shell.run_cell("from gofish_teach.widgets import reveal\n" + f"reveal({', '.join(map(repr, ids))})")
            cell.outputs = [nbformat.v4.new_output("display_data", o.data) for o in shown.outputs]
    finally:
        InteractiveShell.clear_instance()
        qmod.FIRST.clear()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "00-welcome.ipynb"
    nbformat.write(nb, path)
    return path


def test_a_class_first_answers_into_a_csv_and_a_chart_per_question(course, tmp_path):
    root = tmp_path / "class"
    learner_saves(course, root / "ann" / "lessons", {"L00-count-asks": ["8", "15"], "L00-queen-chance": ["B"]})
    learner_saves(course, root / "ben" / "lessons", {"L00-count-asks": ["15"], "L00-queen-chance": ["D", "B"]})
    learner_saves(course, root / "cat" / "lessons", {"L00-count-asks": ["fifteen", "5"]})
    out = io.StringIO()
    assert main(["answers", str(root), "--out", str(tmp_path / "out")], out=out) == 0
    with open(tmp_path / "out" / "first-answers.csv", newline="") as f:
        rows = [(r["learner"], r["question"], r["answer"], r["status"]) for r in csv.DictReader(f)]
    assert rows == [("ann", "L00-count-asks", "8", "wrong"), ("ben", "L00-count-asks", "15", "right"),
                    ("cat", "L00-count-asks", "5", "wrong"),
                    ("ann", "L00-queen-chance", "B", "right"), ("ben", "L00-queen-chance", "D", "wrong")]
    assert sorted(p.name for p in (tmp_path / "out").glob("*.png")) == ["L00-count-asks.png", "L00-queen-chance.png"]
    assert (tmp_path / "out" / "L00-count-asks.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "5 first answers from 3 learners to 2 questions" in out.getvalue()


def test_hostile_files_spoil_only_their_own_row(course, tmp_path, monkeypatch):
    root = tmp_path / "class"
    learner_saves(course, root / "ann", {"L00-count-asks": ["15"]})
    (root / "bad").mkdir()
    (root / "bad" / "00-welcome.ipynb").write_text("{not json")
    (root / "deep").mkdir()
    (root / "deep" / "00-welcome.ipynb").write_text("[" * 100_000 + "]" * 100_000)
    (root / "odd").mkdir()
    (root / "odd" / "00-welcome.ipynb").write_text(json.dumps({"cells": [{"outputs": [{"data": {
        qmod.ANSWER_MIME: {"first_answers": [{"id": "=HYPERLINK(\"http://x\")", "answer": "+1", "status": "right"},
                                             "junk", {"id": 5}]}}}, "junk"]}, 7]}))
    (root / "link").mkdir()
    (root / "link" / "00-welcome.ipynb").symlink_to(root / "ann" / "00-welcome.ipynb")
    (root / "pipe").mkdir()
    os.mkfifo(root / "pipe" / "00-welcome.ipynb")
    (root / "dir" / "00-welcome.ipynb").mkdir(parents=True)
    (root / "huge").mkdir()
    (root / "huge" / "00-welcome.ipynb").write_bytes(b" " * (1001 + (root / "ann" / "00-welcome.ipynb").stat().st_size))
    monkeypatch.setattr(first_answers, "MAX_BYTES", 1000 + (root / "ann" / "00-welcome.ipynb").stat().st_size)
    rows = first_answers.gather(root)
    answered = [(r.learner, r.question, r.answer) for r in rows if r.status != "unreadable"]
    assert answered == [("odd", '=HYPERLINK("http://x")', "+1"), ("ann", "L00-count-asks", "15")]
    notes = {r.learner: r.note for r in rows if r.status == "unreadable"}
    assert set(notes) == {"bad", "deep", "link", "pipe", "dir", "huge"}
    assert "too large" in notes["huge"] and "bad JSON" in notes["bad"] and "symbolic link" in notes["link"] and "pipe" in notes["pipe"]
    first_answers.write_csv(rows, tmp_path / "a.csv")
    text = (tmp_path / "a.csv").read_text()
    assert "'=HYPERLINK" in text and ",'+1," in text  # a spreadsheet reads them as text, not formulas


def test_huge_notebooks_are_not_read(tmp_path, monkeypatch):
    (tmp_path / "ann").mkdir()
    (tmp_path / "ann" / "x.ipynb").write_bytes(b" " * 5000)
    monkeypatch.setattr(first_answers, "MAX_BYTES", 1000)
    (row,) = first_answers.gather(tmp_path)
    assert row.status == "unreadable" and "too large" in row.note


def test_answers_of_a_missing_folder_is_a_message(tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["answers", str(tmp_path / "nobody")])
    assert stopped.value.code == 2 and "is not a folder" in capsys.readouterr().err
