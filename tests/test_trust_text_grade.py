"""The grader reads learners' text as data (issue 42: N9, N11-N15), each attack handed in as a learner would.

One class is graded once, sandboxed, on the teacher's list of exercises (01 and 02): learners
named like spreadsheet formulas (N9), a notebook whose exception and a file whose name carry
terminal escapes (N12), look-alike names beside honest classmates (N13), a learner who hands in
all eleven exercises (N11) and one who hands in two notebooks for one exercise (N14). Two more
runs: the default list of exercises (N11), and folders of many files (N15). Each test also
checks that its attack ran: the hostile name reached a row or a note, the notebook was found.

On 457bed9 the formulas were written unquoted, the escapes reached the terminal, each look-alike
made a row of its own, a learner's extra exercises became rows, two notebooks two rows, the
default list was the union of the folders', and every file was copied once per notebook.
"""
from __future__ import annotations

import csv
import io
import json
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import pytest

from gofish_teach.grade import grade
from test_grade_attacks import notebook

ROOT = Path(__file__).resolve().parents[1]
GOOD_LEGAL = ("def legal_asks(hand, me, n_players):\n"
              "    ranks = sorted({c[:-1] for c in hand})\n"
              "    return [(t, r) for t in range(n_players) if t != me for r in ranks]\n")
STUB_LEGAL = "def legal_asks(hand, me, n_players):\n    raise NotImplementedError\n"
#: Spreadsheet formulas as submission names (a folder's name cannot hold "/"). Normalised, the
#: tab and the carriage return at the start go (they are spaces at an edge); what follows is a formula.
FORMULAS = ['=HYPERLINK("evil.example","full marks")', "@SUM(1+9)", "+1+1", "-2+3", "\t=1+2", "\r=3+4"]
#: N12: an exception that clears the screen and writes a line of its own; a file named with an escape.
ESCAPE = "\x1b[2J\x1b[H"
FAKE_LINE = "grade: mallory: 02-legal-asks: ok (6 of 6, the class champion)"
RAISER = f"raise RuntimeError({ESCAPE + chr(10) + FAKE_LINE!r})"
ESCAPED_FILE = "\x1b[31mnotes.ipynb"
#: N13: honest names, and names that print like them.
LOOK_ALIKES = {"ana\u200b": "ana", "zed ": "zed"}


def table(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The class, graded once on exercises 01 and 02: ``(rows, CSV text, notes)``."""
    folder = tmp_path_factory.mktemp("class")
    for name in ("ana", "zed"):
        notebook(folder / name / "02-legal-asks.ipynb", "02-legal-asks", GOOD_LEGAL)
    for name in LOOK_ALIKES:  # the stub, beside the honest classmate it imitates
        notebook(folder / name / "02-legal-asks.ipynb", "02-legal-asks", STUB_LEGAL)
    for name in FORMULAS:
        notebook(folder / name / "02-legal-asks.ipynb", "02-legal-asks", GOOD_LEGAL)
    notebook(folder / "mallory" / "02-legal-asks.ipynb", "02-legal-asks", RAISER)
    notebook(folder / "mallory" / ESCAPED_FILE, "", "print('my notes')")
    # N14: the handed-out notebook (finished) and a copy of it (the stub), for one exercise.
    (folder / "dup").mkdir()
    shutil.copy(ROOT / "solutions" / "01-deal.ipynb", folder / "dup" / "01-deal.ipynb")
    shutil.copy(ROOT / "exercises" / "01-deal.ipynb", folder / "dup" / "01-deal copy.ipynb")
    # N11: every exercise handed in, where the teacher expects two.
    shutil.copytree(ROOT / "exercises", folder / "all11", ignore=shutil.ignore_patterns("*.md"))
    out, log = io.StringIO(), io.StringIO()
    rows = grade(folder, out=out, log=log, exercises=["01", "02"], time_limit=120, memory_mb=1024, workers=2,
                 sandbox="require")
    print(log.getvalue())
    return rows, out.getvalue(), log.getvalue()


def marks(rows, name, exercise):
    found = [(r.passed, r.total, r.status) for r in rows if r.submission == name and r.exercise.startswith(exercise)]
    assert len(found) == 1, (name, exercise, found)
    return found[0]


def test_formulas_are_quoted_in_the_csv_and_each_reached_its_row(graded):
    """N9: every cell that a spreadsheet would read as a formula starts with ', and the name is there."""
    rows, text, _ = graded
    cells = [row[0] for row in table(text)[1:]]
    for name in FORMULAS:
        shown = name.strip()
        assert marks(rows, shown, "02") == (6, 6, "ok")  # the attack reached its row, graded
        assert cells.count("'" + shown) == 2, (shown, cells)  # its rows for 01 and 02, quoted
    for row in table(text):
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), row
            assert cell != "'", row  # an empty cell stays empty


def test_terminal_escapes_in_exceptions_and_file_names_are_shown_not_obeyed(graded):
    """N12: the escape and the forged line come back in the note, written out; the terminal gets neither."""
    rows, _, log = graded
    assert marks(rows, "mallory", "02") == (0, 6, "error")
    assert "\x1b" not in log and "\r" not in log
    assert "\\x1b[2J\\x1b[H\\x0a" + FAKE_LINE in log  # the exception reached the note, as text
    assert "skipped \\x1b[31mnotes.ipynb" in log  # the file's name too
    assert not any(line.startswith(FAKE_LINE) for line in log.splitlines())


def test_look_alike_names_are_refused_and_the_honest_classmates_keep_one_row_each(graded):
    """N13: ``ana`` + a zero-width space and ``zed `` (a space at its end) beside ``ana`` and ``zed``."""
    rows, _, log = graded
    for typed, honest in LOOK_ALIKES.items():
        assert marks(rows, honest, "02") == (6, 6, "ok")  # the honest one's row, not the stub's
        shown = typed.replace("\u200b", "\\u200b")
        assert f'skipped "{shown}" (a folder): it prints as "{honest}", as another name does' in log
    names = [r.submission for r in rows]
    assert Counter(names)["ana"] == Counter(names)["zed"] == 2  # 01 and 02, once each
    assert all(name == name.strip() and "\u200b" not in name for name in names)


def test_the_teachers_list_is_graded_and_an_extra_exercise_adds_no_row(graded):
    """N11: a learner who hands in every exercise gets two rows (01 and 02), a note naming the folder for
    each other one, and no classmate gets a row for them."""
    rows, _, log = graded
    assert {r.exercise for r in rows} == {"01-deal", "02-legal-asks"}
    assert sorted(r.exercise for r in rows if r.submission == "all11") == ["01-deal", "02-legal-asks"]
    skipped = [line for line in log.splitlines() if line.startswith("grade: all11: skipped")
               and "which is not expected (--exercises 01,02): not graded" in line]
    from gofish_teach.exercises import EXERCISES

    assert len(skipped) == len(EXERCISES) - 2, log  # the attack ran: every exercise was found
    assert Counter(r.submission for r in rows) == {name: 2 for name in {r.submission for r in rows}}


def test_two_notebooks_for_one_exercise_are_one_row_saying_which_was_graded(graded):
    """N14: the handed-out name is graded; the row and the notes say so, and name the other."""
    rows, _, log = graded
    assert marks(rows, "dup", "01") == (6, 6, "ok")
    row = next(r for r in rows if r.submission == "dup" and r.exercise == "01-deal")
    said = ('2 notebooks for 01-deal: graded "01-deal.ipynb" (it has the handed-out notebook\'s name, '
            '01-deal.ipynb), not "01-deal copy.ipynb"')
    assert said in row.note and f"grade: dup: 01-deal: {said}" in log


def test_by_default_the_kits_exercises_are_expected_not_what_the_class_handed_in(tmp_path):
    """N11: with no --exercises, every learner gets one row per exercise of the kit, whatever a classmate
    handed in (on 457bed9, ana got a "missing" row for each exercise ben handed in, and only those)."""
    from gofish_teach.exercises import EXERCISES

    for name, handed_in in (("ana", "01-deal"), ("ben", "03-give")):
        (tmp_path / name).mkdir()
        shutil.copy(ROOT / "exercises" / f"{handed_in}.ipynb", tmp_path / name)
    rows = grade(tmp_path, out=io.StringIO(), log=io.StringIO(), time_limit=60, memory_mb=1024, sandbox="require")
    kit = sorted(ex.id for ex in EXERCISES)
    for name, handed_in in (("ana", "01-deal"), ("ben", "03-give")):
        assert sorted(r.exercise for r in rows if r.submission == name) == kit
        assert [r.status for r in rows if r.submission == name and r.exercise == handed_in] == ["error"]  # the stub ran


# --------------------------------------------------------------------------- N15: many files
_CREATED: list | None = None


def _count_created(event, args):
    """An audit hook: the files this process creates while a test counts them (the grader's copies)."""
    if _CREATED is not None and event == "open" and isinstance(args[0], (str, os.PathLike)) \
            and isinstance(args[2], int) and args[2] & os.O_CREAT:
        _CREATED.append(os.path.basename(os.fspath(args[0])))


sys.addaudithook(_count_created)


def graded_counting(folder, **options):
    """``(rows, notes, names of the files the teacher's process created, seconds)``."""
    global _CREATED
    _CREATED, log = [], io.StringIO()
    start = time.monotonic()
    try:
        rows = grade(folder, out=io.StringIO(), log=log, time_limit=300, memory_mb=1024, sandbox="require", **options)
        return rows, log.getvalue(), _CREATED, time.monotonic() - start
    finally:
        _CREATED = None


def test_a_submission_is_copied_once_however_many_notebooks_it_holds(tmp_path):
    """N15: three notebooks importing the learner's own modules, and 30 data files: each file created once on
    the teacher's side (on 457bed9, once per notebook), and each notebook's sandbox got them all."""
    home = tmp_path / "class" / "ana"
    functions = {"01-deal": "deal", "02-legal-asks": "legal_asks", "03-give": "give"}
    for ex, function in functions.items():
        solution = json.loads((ROOT / "solutions" / f"{ex}.ipynb").read_text())
        code = next("".join(c["source"]) for c in solution["cells"] if "solution" in c["metadata"].get("tags", []))
        (home / f"my_{function}.py").parent.mkdir(parents=True, exist_ok=True)
        (home / f"my_{function}.py").write_text(code)
        notebook(home / f"{ex}.ipynb", ex, f"from my_{function} import {function}")
    for i in range(30):
        (home / "data").mkdir(exist_ok=True)
        (home / "data" / f"d{i:02d}.txt").write_text(f"{i}\n")
    rows, log, created, seconds = graded_counting(tmp_path / "class", exercises=list(functions))
    print(f"{len(created)} files created by the grader in {seconds:.1f} s")
    assert [(r.exercise, r.passed, r.total, r.status) for r in rows] == [
        (ex, 6, 6, "ok") for ex in functions], log  # each notebook imported its module: the copy reached it
    files = [f"my_{f}.py" for f in functions.values()] + [f"d{i:02d}.txt" for i in range(30)] + [
        f"{ex}.ipynb" for ex in functions]
    counts = Counter(name for name in created if name in files)
    assert counts == {name: 1 for name in files}, counts


def test_a_folder_of_100000_empty_files_is_capped_and_said(tmp_path, request):
    """N15: 100,000 empty files beside two finished notebooks: the notebooks are graded, a note states the
    cap, and none of the files is copied (on 457bed9: every one, for each notebook, about 140 s)."""
    # On a tmpfs where there is one: making 100,000 files on a busy disk took 13 s.
    shm = Path("/dev/shm")
    place = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() and os.access(shm, os.W_OK) else tmp_path
    request.addfinalizer(lambda: shutil.rmtree(place, ignore_errors=True))
    home = place / "class" / "crowd"
    (home / "junk").mkdir(parents=True)
    for ex in ("01-deal", "02-legal-asks"):
        shutil.copy(ROOT / "solutions" / f"{ex}.ipynb", home)
    start = time.monotonic()
    for i in range(100_000):
        os.close(os.open(home / "junk" / f"{i:06d}", os.O_CREAT | os.O_WRONLY, 0o644))
    made = time.monotonic() - start
    assert len(os.listdir(home / "junk")) == 100_000  # the attack is in place
    rows, log, created, seconds = graded_counting(place / "class", exercises=["01", "02"])
    print(f"100,000 files made in {made:.1f} s; graded in {seconds:.1f} s, {len(created)} files created; {log}")
    assert [(r.exercise, r.passed, r.total, r.status) for r in rows] == [("01-deal", 6, 6, "ok"),
                                                                          ("02-legal-asks", 6, 6, "ok")]
    assert not any(name.isdigit() for name in created), Counter(name.isdigit() for name in created)
    assert "grade: crowd: its folder holds more than 1,000 files and folders" in log  # the cap the READMEs state
    assert "only its notebooks are copied into its sandbox" in log
    from gofish_teach.grade import MAX_FILES

    assert MAX_FILES == 1000
