"""Issue 43's "Done when": a learner's copy and the learner's handouts answer no question before it is asked.

For each of the bank's questions, the needles of :mod:`answer_leaks` (its answer in its usual
forms, its explanation's sentences and numbers, the sentences and numbers of the kit's cells
tagged ``answers:ID``) must appear nowhere in the learner's copy of its lesson, nor of an
earlier lesson, but in the question's own cell; and nowhere in the learner's handout of the
lesson but in the question itself (the PDF's half is in ``test_handouts.py``, which prints them).
The tests also show the check can fail: a result sentence left untagged is caught, in the
notebook and on paper.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from answer_leaks import ANSWERS_TAG, LESSONS, leaks, leaks_in_text, needles, plain, question_cell, sentences
from gofish_teach.teacher.course import EDITION_TAG, copy_course, learner_notebook
from gofish_teach.widgets.question_bank import read_source

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wanted():
    return needles()


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("course")
    copy_course(folder)
    return folder


def _cells(path: Path) -> list[dict]:
    return json.loads(Path(path).read_text(encoding="utf-8"))["cells"]


def _tags(cell: dict) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def test_every_question_of_the_bank_is_asked_and_has_needles(wanted):
    bank = read_source()
    assert sorted(wanted) == sorted(bank) and len(bank) >= 39
    for qid, n in wanted.items():
        assert n.words or n.forms, qid
        assert any(len(w.split()) >= 6 for w in n.words), f"{qid}: no sentence to look for"


def test_result_prose_is_tagged_and_stands_after_its_reveal():
    """The convention shared with the reveal: ``answers:ID`` on a markdown cell after ID's ``reveal`` cell."""
    bank = read_source()
    tagged: dict[str, int] = {}
    for path in LESSONS:
        revealed: set[str] = set()
        asked: set[str] = set()
        for i, cell in enumerate(_cells(path)):
            source = "".join(cell["source"])
            found = re.search(r'id="(L\d\d-[a-z0-9-]+)"', source) if "Question(" in source else None
            if found:
                asked.add(found.group(1))
            revealed |= set(cell.get("metadata", {}).get("gofish_teach", {}).get("reveals", []))
            for tag in _tags(cell):
                if tag.startswith(ANSWERS_TAG):
                    qid = tag[len(ANSWERS_TAG):]
                    where = f"{path.name} cell {i} ({tag})"
                    assert qid in bank, f"{where}: no such question in the bank"
                    assert qid in revealed, f"{where} stands before the cell that reveals {qid}"
                    assert cell["cell_type"] == "markdown", f"{where}: the reveal shows markdown"
                    tagged[qid] = tagged.get(qid, 0) + 1
        unrevealed = asked - revealed
        for qid in unrevealed:  # a question answered by its feedback alone has nothing to move
            assert qid not in tagged, qid
    revealed_anywhere = {q for p in LESSONS for c in _cells(p) for q in c["metadata"].get("gofish_teach", {}).get("reveals", [])}
    print(f"{len(tagged)} questions with result prose tagged, {sum(tagged.values())} cells; revealed by their "
          f"result cell and feedback alone: {sorted(revealed_anywhere - set(tagged))}")
    assert len(tagged) >= 25


def test_the_kits_lessons_are_the_teachers_edition_and_the_copy_the_learners(course):
    for path in LESSONS:
        first = _cells(path)[0]
        assert EDITION_TAG in _tags(first) and "".join(first["source"]).startswith("> **Teacher's edition, with the answers")
        copied = "".join(_cells(course / "lessons" / path.name)[0]["source"])
        assert copied.startswith("> **Learner's edition.**") and "Teacher's edition" not in copied
        assert copied.split("\n\n", 1)[1] == "".join(first["source"]).split("\n\n", 1)[1]  # the rest as it was


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_a_learners_copy_answers_no_question_before_it_is_asked(course, wanted, path):
    """In the file: no tagged cell, no output below the first question, no needle but in the question's cell."""
    cells = _cells(course / "lessons" / path.name)
    assert not [c for c in cells if any(t.startswith(ANSWERS_TAG) for t in _tags(c))]
    first = min(i for i, c in enumerate(cells) if "predict" in _tags(c))
    for i, cell in enumerate(cells[first:], first):
        if cell["cell_type"] == "code" and "predict" not in _tags(cell):
            shown = [o for o in cell["outputs"] if "application/vnd.jupyter.widget-view+json" not in o.get("data", {})
                     and "gf-placeheld" not in "".join(o.get("data", {}).get("text/html", ""))]
            assert shown == [], f"{path.name} cell {i} keeps an output below the first question"
    for i, cell in enumerate(cells):  # a widget's saved view keeps its note, so no "Error displaying widget"
        data = [o.get("data", {}) for o in cell.get("outputs", [])]
        if any("application/vnd.jupyter.widget-view+json" in d for d in data):
            assert any("gf-placeheld" in "".join(d.get("text/html", "")) for d in data), f"{path.name} cell {i}"
    # this lesson's questions, and every later lesson's (a later lesson may quote an earlier answer: its
    # learner has met it; an earlier lesson must not give away a later one's)
    order = [p.name for p in LESSONS]
    mine = {q: n for q, n in wanted.items() if order.index(n.lesson) >= order.index(path.name)}
    found = leaks({"cells": cells}, mine)
    assert found == [], "\n".join(f"{where}: {qid}: {needle!r} ({wanted[qid].why[needle]})" for qid, needle, where in found)


def _sabotaged(tmp_path: Path, name: str, qid: str) -> tuple[Path, str]:
    """A copy of lesson ``name`` whose first cell tagged for ``qid`` lost its tag: (the copy, a sentence of it)."""
    nb = json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))
    cell = next(c for c in nb["cells"] if f"{ANSWERS_TAG}{qid}" in _tags(c))
    cell["metadata"]["tags"].remove(f"{ANSWERS_TAG}{qid}")
    copy = tmp_path / name
    copy.write_text(json.dumps(nb), encoding="utf-8")
    return copy, [s for s in sentences("".join(cell["source"])) if "$" not in s][0]


@pytest.mark.parametrize("name, qid", [("03-fishing-from-the-ocean.ipynb", "L03-top-seven"),
                                       ("07-variants-and-game-length.ipynb", "L07-bluff"),
                                       ("05-models-and-calibration.ipynb", "L05-which-model"),
                                       ("09-who-am-i-playing.ipynb", "L09-asks-to-tell"),
                                       ("10-the-class-at-the-table.ipynb", "L10-observational")])
def test_the_check_catches_a_result_sentence_left_untagged(tmp_path, wanted, name, qid):
    """The same check fails on a lesson whose result prose lost its tag: in the learner's file and on paper."""
    from gofish_teach.teacher.handouts import handout_html

    copy, sentence = _sabotaged(tmp_path, name, qid)  # a sentence without a formula: on paper, formulas are MathML
    learner = json.loads(learner_notebook(copy.read_bytes()))
    assert any(plain(sentence) in plain("".join(c["source"])) for c in learner["cells"])  # the sabotage ran
    found = leaks(learner, {qid: wanted[qid]})
    assert (qid, sentence) in [(q, needle) for q, needle, _ in found], found

    page = plain(re.sub(r"<[^>]+>", " ", handout_html(copy)).replace("&quot;", '"').replace("&#39;", "'"))
    assert (qid, sentence) in leaks_in_text(page, {qid: wanted[qid]})


def test_the_check_catches_a_number_said_anywhere(wanted):
    """An untagged cell that quotes the explanation's number is caught, wherever it stands in the lesson."""
    nb = json.loads(learner_notebook((ROOT / "notebooks" / "00-welcome.ipynb").read_bytes()))
    nb["cells"].insert(2, {"cell_type": "markdown", "metadata": {}, "source": ["Memory wins 0.727 of the games."]})
    found = leaks(nb, {"L00-memory-share": wanted["L00-memory-share"]})
    assert ("L00-memory-share", "0.727", "cell 2") in found, found
    own = question_cell(nb["cells"], "L00-memory-share")
    assert own is not None and not [f for f in found if f[2] == f"cell {own}"]
