"""``gofish-teach answers DIR``: a class's first answers, from the notebooks the learners saved and the
``first-answers.json`` kept beside them.

Each learner's notebook is made the way a learner makes it: the course's copy of a lesson, the
question answered (twice: the first answer counts), the waiting cell run, the notebook saved.
Learners' files and text are hostile (trust-3 N6-N9, browser-3 N6), and each attack below is
written as the learner's file and checked to have reached the command: links, pipes, folders
named like notebooks, bad or huge JSON each spoil only their own row; a forged "right" is not
believed; mathtext in an answer is drawn as typed; invented questions make no chart and take no
time; spreadsheet formulas stay text, and empty cells stay empty.
"""
from __future__ import annotations

import csv
import io
import json
import os
import time
from pathlib import Path

import nbformat
import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from gofish_teach.__main__ import main
from gofish_teach.teacher import copy_course, first_answers
from gofish_teach.widgets import _first
from gofish_teach.widgets import question as qmod
from gofish_teach.widgets.question import Question
from gofish_teach.widgets.question_bank import load

BANK = load()


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("course")
    copy_course(folder)
    return folder / "lessons" / "00-welcome.ipynb"


def learner_saves(course: Path, folder: Path, answers: dict[str, list[str]]) -> Path:
    """A learner's lesson 00: each question answered in turn (``answers[id]``), its waiting cell run, saved."""
    nb = nbformat.read(course, as_version=4)
    qmod.FIRST.clear()
    folder.mkdir(parents=True, exist_ok=True)
    _first.FOLDER = folder  # as in a kernel: kept beside the notebook
    shell = InteractiveShell.instance()
    try:
        for cell in nb.cells:
            ids = cell.metadata.get("gofish_teach", {}).get("reveals")
            if not ids or not all(qid in answers for qid in ids):
                continue
            for qid in ids:
                q = Question("?", choices=BANK[qid].get("choices"), id=qid)
                for given in answers[qid]:
                    q.widget.respond(given)
            with capture_output() as shown:
                shell.run_cell("from gofish_teach.widgets import reveal\n" + f"reveal({', '.join(map(repr, ids))})")
            cell.outputs = [nbformat.v4.new_output("display_data", o.data) for o in shown.outputs]
    finally:
        InteractiveShell.clear_instance()
        qmod.FIRST.clear()
        _first.FOLDER = None
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
    kept = json.loads((root / "ann" / "lessons" / "first-answers.json").read_text())["first_answers"]
    assert kept["L00-count-asks"]["answer"] == "8"  # also beside the notebook: both read, one row


def notebook_with(records: list) -> str:
    """A notebook whose one output holds ``records`` as first answers (what a learner can write by hand)."""
    cell = {"cell_type": "code", "id": "c", "metadata": {}, "source": "", "execution_count": 1,
            "outputs": [{"output_type": "display_data", "metadata": {},
                         "data": {qmod.ANSWER_MIME: {"first_answers": records}, "text/plain": "..."}}]}
    return json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def read_csv(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_hostile_files_spoil_only_their_own_row(course, tmp_path, monkeypatch):
    root = tmp_path / "class"
    learner_saves(course, root / "ann", {"L00-count-asks": ["15"]})
    (root / "bad").mkdir()
    (root / "bad" / "00-welcome.ipynb").write_text("{not json")
    (root / "bad" / "first-answers.json").write_text("[" * 5_000)  # deeper than JSON reads, smaller than the cap
    (root / "deep").mkdir()
    (root / "deep" / "00-welcome.ipynb").write_text("[" * 100_000 + "]" * 100_000)
    (root / "odd").mkdir()
    (root / "odd" / "00-welcome.ipynb").write_text(json.dumps({"cells": [{"outputs": [{"data": {
        qmod.ANSWER_MIME: {"first_answers": [{"id": "L00-count-asks", "answer": ["15"]}, "junk", {"id": 5}]}}},
        "junk"]}, 7]}))
    (root / "link").mkdir()
    (root / "link" / "00-welcome.ipynb").symlink_to(root / "ann" / "00-welcome.ipynb")
    (root / "pipe").mkdir()
    os.mkfifo(root / "pipe" / "00-welcome.ipynb")
    (root / "dir" / "00-welcome.ipynb").mkdir(parents=True)
    (root / "huge").mkdir()
    (root / "huge" / "00-welcome.ipynb").write_bytes(b" " * (1001 + (root / "ann" / "00-welcome.ipynb").stat().st_size))
    monkeypatch.setattr(first_answers, "MAX_BYTES", 1000 + (root / "ann" / "00-welcome.ipynb").stat().st_size)
    rows = first_answers.gather(root)
    answered = [(r.learner, r.question, r.answer, r.status) for r in rows if r.question]
    assert answered == [("ann", "L00-count-asks", "15", "right"), ("odd", "L00-count-asks", "", "invalid")]
    notes = {(r.learner, Path(r.notebook).name): r.note for r in rows if r.status == "unreadable"}
    assert {learner for learner, _ in notes} == {"bad", "deep", "link", "pipe", "dir", "huge"}
    assert "too large" in notes["huge", "00-welcome.ipynb"] and "bad JSON" in notes["bad", "00-welcome.ipynb"]
    assert "symbolic link" in notes["link", "00-welcome.ipynb"] and "pipe" in notes["pipe", "00-welcome.ipynb"]
    assert "nested too deeply" in notes["bad", "first-answers.json"]
    ignored = [r for r in rows if r.status == "ignored"]
    assert [(r.learner, r.note) for r in ignored] == [("odd", "left out: 2 record(s) for questions not in the question bank")]


def test_a_forged_right_is_not_believed(tmp_path):
    """N6: ann hand-edits her wrong first answer A to "right"; ben gives the same A. Both are wrong, by the bank."""
    root = tmp_path / "class"
    forged = {"id": "L00-queen-chance", "kind": "choice", "answer": "A", "text": "between 1/4 and 1/2", "status": "right"}
    write(root / "ann" / "lessons" / "00-welcome.ipynb", notebook_with([forged]))
    write(root / "ben" / "lessons" / "first-answers.json", json.dumps({"first_answers": {
        "L00-queen-chance": {**forged, "text": "less than 1/4", "status": "wrong"}}}))
    write(root / "cat" / "lessons" / "first-answers.json", json.dumps({"first_answers": {
        "L00-count-asks": {"id": "L00-count-asks", "kind": "number", "answer": "8", "text": "8", "status": "right"}}}))
    assert main(["answers", str(root), "--out", str(tmp_path / "out")], out=io.StringIO()) == 0
    rows = {(r["learner"], r["question"]): r for r in read_csv(tmp_path / "out" / "first-answers.csv")}
    assert rows["ann", "L00-queen-chance"]["answer"] == "A"  # the forged record reached the command
    assert [rows[k]["status"] for k in (("ann", "L00-queen-chance"), ("ben", "L00-queen-chance"), ("cat", "L00-count-asks"))] \
        == ["wrong", "wrong", "wrong"]
    # the choice's text is the bank's, not the record's
    assert rows["ann", "L00-queen-chance"]["text"] == BANK["L00-queen-chance"]["choices"][0] == "less than 1/4"
    assert first_answers.histograms([first_answers.Row("ann", "", "L00-queen-chance", "A", "", "wrong")], tmp_path)


def test_mathtext_in_an_answer_is_drawn_as_typed(tmp_path, monkeypatch):
    """N7: ``$\\fishy{$`` stopped every chart (matplotlib read it as mathematics). Now it is text, and every chart is made."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    hostile = "$\\fishy{$"
    fig, ax = plt.subplots()  # the attack is real: drawn the ordinary way, it fails
    ax.set_title(hostile)
    with pytest.raises(ValueError):
        fig.savefig(io.BytesIO())
    plt.close(fig)

    root = tmp_path / "class"
    write(root / "ann" / "lessons" / "first-answers.json", json.dumps({"first_answers": {
        "L00-count-asks": {"id": "L00-count-asks", "answer": hostile, "text": hostile},
        "L00-queen-chance": {"id": "L00-queen-chance", "answer": "B"}}}))
    write(root / "ben" / "lessons" / "00-welcome.ipynb", notebook_with([{"id": "L00-count-asks", "answer": "15"}]))
    out = io.StringIO()
    assert main(["answers", str(root), "--out", str(tmp_path / "out")], out=out) == 0
    rows = {(r["learner"], r["question"]): r for r in read_csv(tmp_path / "out" / "first-answers.csv")}
    assert rows["ann", "L00-count-asks"]["answer"] == hostile and rows["ann", "L00-count-asks"]["status"] == "invalid"
    assert sorted(p.name for p in (tmp_path / "out").glob("*.png")) == ["L00-count-asks.png", "L00-queen-chance.png"]

    # A label reaches the chart as typed, even one that matplotlib would read as mathematics.
    drawn = []
    original = matplotlib.axes.Axes.set_xticks
    monkeypatch.setattr(matplotlib.axes.Axes, "set_xticks",
                        lambda self, ticks, labels=None, **kw: drawn.extend(labels or []) or original(self, ticks, labels, **kw))
    (chart,) = first_answers.histograms([first_answers.Row("ann", "", "L07-first-ask", hostile, hostile, "wrong")],
                                        tmp_path)
    assert hostile in drawn and chart.read_bytes()[:4] == b"\x89PNG"


def test_invented_questions_make_no_charts_and_take_no_time(tmp_path, capsys):
    """N8: 3,000 made-up question ids took 324 s and wrote 3,001 charts. Only the bank's questions count."""
    root = tmp_path / "class"
    invented = [{"id": f"X{k:04d}", "kind": "number", "answer": str(k), "status": "right"} for k in range(3000)]
    write(root / "ann" / "lessons" / "00-welcome.ipynb",
          notebook_with([{"id": "L00-count-asks", "answer": "15"}] + invented))
    write(root / "ann" / "lessons" / "first-answers.json",
          json.dumps({"first_answers": {r["id"]: r for r in invented[:500]}}))
    write(root / "ben" / "lessons" / "00-welcome.ipynb", notebook_with([{"id": "L00-queen-chance", "answer": "C"}]))
    out = io.StringIO()
    started = time.perf_counter()
    assert main(["answers", str(root), "--out", str(tmp_path / "out")], out=out) == 0
    took = time.perf_counter() - started
    charts = sorted(p.name for p in (tmp_path / "out").glob("*.png"))
    assert charts == ["L00-count-asks.png", "L00-queen-chance.png"]
    rows = read_csv(tmp_path / "out" / "first-answers.csv")
    assert [(r["learner"], r["question"]) for r in rows if r["question"]] == [("ann", "L00-count-asks"),
                                                                              ("ben", "L00-queen-chance")]
    (ignored,) = [r for r in rows if r["status"] == "ignored"]
    # the attack reached the command: every invented record read up to the learner's cap, the rest counted
    assert ignored["note"] == (f"left out: {first_answers.MAX_RECORDS - 1} record(s) for questions not in the question "
                               f"bank; {3500 + 1 - first_answers.MAX_RECORDS} record(s) past the first "
                               f"{first_answers.MAX_RECORDS}")
    assert "ann: left out:" in out.getvalue()
    with capsys.disabled():
        print(f"\n3,500 invented first answers: {took:.2f} s, {len(charts)} charts")


def test_csv_cells_are_never_formulas_and_empty_cells_are_empty(tmp_path):
    """N9 and browser-3 N6: a cell starting = + - @, a tab or a carriage return is quoted; an empty one stays empty."""
    root = tmp_path / "class"
    attacks = ["=HYPERLINK(\"http://x\")", "@SUM(1+9)", "+1+1", "\t=1+2", "\r=1+2", "-2+3"]
    for k, typed in enumerate(attacks):
        write(root / f"l{k}" / "first-answers.json", json.dumps({"first_answers": {
            "L00-count-asks": {"id": "L00-count-asks", "answer": typed, "text": typed}}}))
    write(root / "=HYPERLINK(\"x\")" / "first-answers.json", json.dumps({"first_answers": {
        "L00-count-asks": {"id": "L00-count-asks", "answer": "15"}}}))
    assert main(["answers", str(root), "--out", str(tmp_path / "out")], out=io.StringIO()) == 0
    text = (tmp_path / "out" / "first-answers.csv").read_text(encoding="utf-8")
    rows = read_csv(tmp_path / "out" / "first-answers.csv")
    cells = {r["learner"]: r for r in rows}
    for k, typed in enumerate(attacks):  # each attack reached the CSV, as text
        assert cells[f"l{k}"]["text"] == "'" + typed and cells[f"l{k}"]["status"] == "invalid", typed
    assert "'=HYPERLINK(\"\"x\"\")" in text and cells["'=HYPERLINK(\"x\")"]["status"] == "right"  # a learner's folder
    assert all(not v.startswith(("=", "+", "-", "@", "\t", "\r")) for r in rows for v in r.values())
    assert all(r["note"] == "" for r in rows) and "'" not in {v for r in rows for v in r.values()}


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
