"""The grader: one CSV row per submission and notebook; broken, endless and greedy submissions stop no one else."""
from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from gofish_teach import grade as grading
from gofish_teach.grade import exercise_of, find_submissions, grade, grade_submission

ROOT = Path(__file__).resolve().parents[1]

GOOD_GIVE = """
def give(asker_hand, target_hand, rank):
    given = [c for c in target_hand if c[:-1] == rank]
    return asker_hand + given, [c for c in target_hand if c[:-1] != rank]
"""
GOOD_LEGAL = """
def legal_asks(hand, me, n_players):
    ranks = sorted({c[:-1] for c in hand})
    return [(t, r) for t in range(n_players) if t != me for r in ranks]
"""


def notebook(path: Path, exercise: str | None, *cells: str, check: bool = True) -> Path:
    """Write a notebook of code cells (plus a check cell, as handed out) for ``exercise``."""
    items = [{"cell_type": "code", "metadata": {}, "source": c, "outputs": [], "execution_count": None}
             for c in cells]
    if check and exercise:
        function = {"01-deal": "deal", "02-legal-asks": "legal_asks", "03-give": "give"}[exercise]
        items.append({"cell_type": "code", "metadata": {"tags": ["check"]}, "outputs": [], "execution_count": None,
                      "source": f"from gofish_teach.exercises import check\ncheck('{exercise}', {function})"})
    meta = {"gofish_teach": {"exercise": exercise}} if exercise else {}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"cells": items, "metadata": meta, "nbformat": 4, "nbformat_minor": 5}))
    return path


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """One run over a class of good, unfinished, broken, endless and memory-hungry submissions."""
    folder = tmp_path_factory.mktemp("submissions")
    (folder / "ana").mkdir()
    shutil.copy(ROOT / "solutions" / "01-deal.ipynb", folder / "ana" / "01-deal.ipynb")
    shutil.copy(ROOT / "solutions" / "03-give.ipynb", folder / "ana" / "renamed.ipynb")  # known by its metadata
    (folder / "ben").mkdir()
    shutil.copy(ROOT / "exercises" / "01-deal.ipynb", folder / "ben" / "01-deal.ipynb")  # the stub
    notebook(folder / "cara" / "03-give.ipynb", "03-give", "def give(a, t, r):\n    while True:\n        pass")
    notebook(folder / "cara" / "02-legal-asks.ipynb", "02-legal-asks", GOOD_LEGAL)  # graded after the loop
    notebook(folder / "dan" / "03-give.ipynb", "03-give", GOOD_GIVE, "while True:\n    pass")  # a cell loops
    notebook(folder / "eve" / "03-give.ipynb", "03-give", "hoard = bytearray(64 * 2**30)", GOOD_GIVE)
    notebook(folder / "eve" / "01-deal.ipynb", "01-deal", "def deal(deck, n, size):\n    return [0] * 10**10")
    notebook(folder / "finn" / "03-give.ipynb", "03-give", "def give(a, t, r)\n    return a, t")  # syntax error
    notebook(folder / "finn" / "02-legal-asks.ipynb", "02-legal-asks",
             "raise RuntimeError('my own test cell failed')", GOOD_LEGAL)
    notebook(folder / "finn" / "notes.ipynb", None, "print('not an exercise')")
    notebook(folder / "gil.ipynb", "02-legal-asks", GOOD_LEGAL, "print(legal_asks(['7♥'], 0, 2))")
    out, log = io.StringIO(), io.StringIO()
    rows = grade(folder, out=out, log=log, time_limit=120, cell_time_limit=2, case_time_limit=1, memory_mb=2048,
                 sandbox="require", workers=2, exercises=["01", "02", "03"])
    return rows, out.getvalue(), log.getvalue()


def by_key(rows):
    return {(r.submission, r.exercise): (r.passed, r.total, r.status) for r in rows}


def test_the_csv_has_one_row_per_submission_and_expected_exercise(graded):
    rows, text, log = graded
    table = list(csv.reader(io.StringIO(text)))
    assert table[0] == ["submission", "exercise", "passed", "total", "status", "hidden_passed", "hidden_total"]
    assert len(table) - 1 == len(rows) == 6 * 3 + 3  # six folders and gil, a loose notebook, three exercises
    assert [r.submission for r in rows] == sorted(r.submission for r in rows)
    assert all(r.status in grading.STATUSES for r in rows)
    assert by_key(rows)["ben", "03-give"] == (0, 6, "missing") and "ben: 03-give: missing" in log
    for row in rows:  # every row that is not ok says why on stderr
        assert row.status == "ok" or f"{row.submission}: {row.exercise}: " in log, row


def test_finished_work_passes_and_the_stub_does_not(graded):
    got = by_key(graded[0])
    assert got["ana", "01-deal"] == (6, 6, "ok")
    assert got["ana", "03-give"] == (6, 6, "ok")
    assert got["ben", "01-deal"] == (0, 6, "error")
    assert got["gil", "02-legal-asks"] == (6, 6, "ok")  # a loose notebook is a submission of its own


def test_an_endless_function_times_out_and_the_next_notebook_is_still_graded(graded):
    got = by_key(graded[0])
    assert got["cara", "03-give"] == (0, 6, "timeout")
    assert got["cara", "02-legal-asks"] == (6, 6, "ok")
    assert got["dan", "03-give"] == (0, 6, "timeout")  # an endless cell of its own


def test_memory_hogs_are_reported_as_memory(graded):
    got = by_key(graded[0])
    assert got["eve", "03-give"] == (0, 6, "memory")
    assert got["eve", "01-deal"][2] == "memory"


def test_broken_notebooks_are_errors_and_other_notebooks_are_skipped(graded):
    rows, _, log = graded
    got = by_key(rows)
    assert got["finn", "03-give"] == (0, 6, "error")  # the function never got defined
    assert got["finn", "02-legal-asks"] == (6, 6, "ok")  # a failing cell of its own does not count
    assert "skipped notes.ipynb: not an exercise notebook" in log


def test_a_submission_that_defeats_the_cell_limit_is_killed_and_the_others_go_on(tmp_path):
    stubborn = ("import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\nwhile True:\n    pass")
    notebook(tmp_path / "aaron" / "03-give.ipynb", "03-give", stubborn)
    notebook(tmp_path / "aaron" / "02-legal-asks.ipynb", "02-legal-asks", GOOD_LEGAL)
    notebook(tmp_path / "bea" / "02-legal-asks.ipynb", "02-legal-asks", GOOD_LEGAL)
    log = io.StringIO()
    rows = grade(tmp_path, out=io.StringIO(), log=log, time_limit=10, cell_time_limit=1, sandbox="require",
                 exercises=["02", "03"])
    # 02 was graded (and reported) before 03 started: what was done is kept
    assert by_key(rows) == {("aaron", "02-legal-asks"): (6, 6, "ok"), ("aaron", "03-give"): (0, 6, "timeout"),
                            ("bea", "02-legal-asks"): (6, 6, "ok"), ("bea", "03-give"): (0, 6, "missing")}
    assert "aaron: 03-give: timeout: the submission ran past its time limit of 10 s" in log.getvalue()


def test_notebooks_are_known_by_metadata_or_by_name(tmp_path):
    assert exercise_of(notebook(tmp_path / "whatever.ipynb", "05-next-asker", check=False)) == "05-next-asker"
    assert exercise_of(notebook(tmp_path / "07 my try.ipynb", None)) == "07-p-lucky"
    assert exercise_of(notebook(tmp_path / "scratch.ipynb", None)) is None
    (tmp_path / "empty").mkdir()
    assert sorted(find_submissions(tmp_path)) == ["07 my try", "empty", "scratch", "whatever"]
    with pytest.raises(ValueError, match="is not a folder"):
        find_submissions(tmp_path / "missing")


def test_the_command_line_writes_csv_to_stdout(tmp_path):
    from gofish_teach.__main__ import main

    notebook(tmp_path / "ana" / "02-legal-asks.ipynb", "02-legal-asks", GOOD_LEGAL)
    out = io.StringIO()
    assert main(["grade", str(tmp_path), "--time-limit", "60", "--sandbox", "require", "--exercises", "02"],
                out=out) == 0
    assert out.getvalue() == ("submission,exercise,passed,total,status,hidden_passed,hidden_total\n"
                              "ana,02-legal-asks,6,6,ok,6,6\n")
    with pytest.raises(SystemExit):
        main(["grade", str(tmp_path), "--memory-mb", "0"], out=io.StringIO())


def test_a_worker_that_dies_silently_is_an_error(tmp_path):
    path = notebook(tmp_path / "x" / "02-legal-asks.ipynb", "02-legal-asks", "import os\nos._exit(7)")
    log = io.StringIO()
    rows = grade_submission("x", [(str(path), "02-legal-asks")], time_limit=60, log=log, use_jail=True)
    assert [r.cells()[:5] for r in rows] == [["x", "02-legal-asks", 0, 6, "error"]]
    assert "exit status 7" in log.getvalue() and "os._exit()" in log.getvalue()
    assert grading.STATUSES == ("ok", "error", "timeout", "memory", "processes", "missing")


def test_a_grader_failure_is_that_learners_error_rows(tmp_path, monkeypatch):
    """The grader's own failure on one submission (here forced) is that learner's ``error`` rows, one per exercise,
    with a note naming it, never a stop for the class."""
    from gofish_teach.grade import grader

    def broken(*args, **kwargs):
        raise RuntimeError("forced failure")

    monkeypatch.setattr(grader, "grade_submission", broken)
    notebook(tmp_path / "ana" / "02-legal-asks.ipynb", "02-legal-asks", GOOD_LEGAL)
    out, log = io.StringIO(), io.StringIO()
    grade(tmp_path, out=out, log=log, exercises=["02"], sandbox="off")
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows[1] == ["ana", "02-legal-asks", "0", "6", "error", "0", "6"]
    assert "could not grade this submission: RuntimeError: forced failure" in log.getvalue()
