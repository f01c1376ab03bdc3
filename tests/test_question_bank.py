"""The lessons' predict-first questions: only the question in the notebook, the answer in the packed bank.

A learner reading a lesson, its saved outputs or the package must not meet a question's
answer, its feedback for wrong answers or its explanation before answering (issue 33); the
first answer is kept however often the learner clicks (and across kernels: tests/test_first_kept.py),
and a cell showing the result waits, then shows the feedback and the lesson's prose tagged
``answers:<id>`` from the packed bank (issue 43).
"""
from __future__ import annotations

import ast
import json
import re
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from gofish_teach.widgets import question as qmod
from gofish_teach.widgets import question_bank
from gofish_teach.widgets.question import NotAnsweredYet, Question, reveal

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
BANK = question_bank.read_source()
PACKED = question_bank.combined(BANK, question_bank.read_lessons(bank=BANK))


def question_cells():
    """(notebook, cell index, cell, the Question call) for every question cell of every lesson."""
    found = []
    for nb in LESSONS:
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        for i, cell in enumerate(cells):
            src = "".join(cell["source"])
            if cell["cell_type"] == "code" and "Question(" in src:
                call = ast.parse(src).body[-1].value
                assert isinstance(call, ast.Call) and getattr(call.func, "id", "") == "Question", (nb.name, i)
                found.append((nb, i, cells, call))
    return found


CELLS = question_cells()


def secrets():
    """Every explanation and every wrong answer's feedback in the bank: none may appear before answering."""
    for qid, q in BANK.items():
        yield qid, q["explain"]
        for why in q.get("wrong", {}).values():
            yield qid, why


def test_the_packed_bank_matches_its_source_and_the_lessons():
    assert question_bank.PACKED_MODULE.read_text(encoding="utf-8") == question_bank.module_text(PACKED), \
        "run: python -m gofish_teach.widgets.question_bank"
    assert question_bank.load() == PACKED
    assert question_bank.main(["--check"]) == 0
    for qid, q in PACKED.items():  # every question's own words and, for a choice, its choices
        assert q["lesson"].startswith(qid[1:3]) and q["prompt"] and all(isinstance(p, str) and p for p in q["prose"]), qid
    assert sum(bool(q["prose"]) for q in PACKED.values()) >= 40, "the lessons' answers:ID prose is packed"
    assert "choices" not in PACKED["L00-count-asks"] and len(PACKED["L00-queen-chance"]["choices"]) == 4


def _lessons_copy(tmp_path):
    folder = tmp_path / "notebooks"
    shutil.copytree(ROOT / "notebooks", folder, ignore=shutil.ignore_patterns("teacher", "*.md"))
    return folder


def _tag_after_reveal(folder, qid: str, text: str, before: bool = False) -> None:
    """Add a markdown cell tagged answers:<qid> right after (or before) the cell that reveals qid."""
    lesson = folder / PACKED[qid]["lesson"]
    nb = json.loads(lesson.read_text(encoding="utf-8"))
    at = next(i for i, c in enumerate(nb["cells"]) if qid in c["metadata"].get("gofish_teach", {}).get("reveals", []))
    cell = {"cell_type": "markdown", "id": "tagged", "metadata": {"tags": [f"answers:{qid}"]}, "source": [text]}
    nb["cells"].insert(at if before else at + 1, cell)
    lesson.write_text(json.dumps(nb), encoding="utf-8")


def test_the_check_fails_when_a_lessons_tagged_prose_or_the_json_bank_changes(tmp_path, capsys):
    lessons = _lessons_copy(tmp_path)
    assert question_bank.main(["--check", "--lessons", str(lessons)]) == 0
    _tag_after_reveal(lessons, "L03-top-seven", "Each place holds a seven with probability $2/47$.")
    assert question_bank.main(["--check", "--lessons", str(lessons)]) == 1
    assert "out of date" in capsys.readouterr().err
    found = question_bank.read_lessons(lessons, BANK)
    prose = found["L03-top-seven"]["prose"]  # the new cell stands first, right after the reveal
    assert prose[0] == "Each place holds a seven with probability $2/47$."
    assert prose[1:] == PACKED["L03-top-seven"]["prose"]

    source = tmp_path / "bank.json"
    edited = json.loads(question_bank.SOURCE.read_text(encoding="utf-8"))
    edited["questions"]["L00-count-asks"]["explain"] += " Count again."
    source.write_text(json.dumps(edited), encoding="utf-8")
    assert question_bank.main(["--check", "--source", str(source)]) == 1


@pytest.mark.parametrize("how, says", [
    ("before", "stands before the cell that reveals L03-top-seven"),
    ("unknown", "names no question of the question bank"),
    ("attachment", "refers to an attachment"),
])
def test_tagged_prose_that_would_show_early_or_cannot_travel_is_refused(tmp_path, capsys, how, says):
    lessons = _lessons_copy(tmp_path)
    if how == "unknown":
        _tag_after_reveal(lessons, "L03-top-seven", "x")
        path = lessons / PACKED["L03-top-seven"]["lesson"]
        path.write_text(path.read_text(encoding="utf-8").replace("answers:L03-top-seven", "answers:L03-top-eight"))
    else:
        _tag_after_reveal(lessons, "L03-top-seven", "![](attachment:p.png)" if how == "attachment" else "2/47",
                          before=how == "before")
    before = question_bank.PACKED_MODULE.read_bytes()
    assert question_bank.main(["--lessons", str(lessons)]) == 2
    err = capsys.readouterr().err
    assert says in err and PACKED["L03-top-seven"]["lesson"] in err
    assert question_bank.PACKED_MODULE.read_bytes() == before, "a refused pack changed the packed bank"


def test_the_packed_bank_is_not_plain_text():
    packed = question_bank.PACKED_MODULE.read_text(encoding="utf-8")
    for _, text in secrets():
        for piece in re.findall(r"\w{5,}(?:\W+\w{3,}){2}", text)[:3]:
            assert piece not in packed


def test_every_lesson_question_shows_only_its_question_choices_and_id():
    assert len(CELLS) >= 34
    ids = []
    for nb, i, _, call in CELLS:
        given = {k.arg for k in call.keywords}
        assert given <= {"choices", "id"}, f"{nb.name} cell {i} gives {given - {'choices', 'id'}} in the lesson"
        assert "id" in given, f"{nb.name} cell {i}: a lesson's question names its id in the bank"
        args = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
        prompt = ast.literal_eval(call.args[0])
        assert not prompt.lower().startswith("predict first"), f"{args['id']}: the widget already says 'Predict first.'"
        q = Question(prompt, **args)  # the bank's answer and wrong answers fit the choices
        assert q.explain == BANK[args["id"]]["explain"]
        ids.append(args["id"])
    assert sorted(ids) == sorted(BANK), "every question of the bank is asked once in the lessons"
    assert len(set(ids)) == len(ids)


def test_no_answer_or_explanation_in_any_lesson_json():
    texts = {nb.name: nb.read_text(encoding="utf-8") for nb in LESSONS}
    for qid, secret in secrets():
        for name, text in texts.items():
            assert json.dumps(secret)[1:-1] not in text and secret not in text, f"{qid}'s answer text is in {name}"


def test_every_reveal_cell_follows_its_questions():
    for nb in LESSONS:
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        asked = set()
        for cell in cells:
            src = "".join(cell["source"])
            found = re.search(r'id="(L\d\d-[a-z0-9-]+)"', src) if "Question(" in src else None
            if found:
                asked.add(found.group(1))
            for qid in cell["metadata"].get("gofish_teach", {}).get("reveals", []):
                assert qid in asked, f"{nb.name}: a cell reveals {qid} before it is asked"
                assert "reveal" in cell["metadata"]["tags"]


def test_a_lesson_question_without_an_id_or_an_answer_is_refused():
    with pytest.raises(ValueError, match="id of a question"):
        Question("?", choices=["a", "b"])
    with pytest.raises(KeyError, match="no question 'L99-nothing'"):
        Question("?", choices=["a", "b"], id="L99-nothing")


def test_a_number_question_from_the_bank():
    q = Question("How many different asks?", id="L00-count-asks")
    assert q.kind == "number" and q.tolerance == 0 and q.correct == 15
    assert q.answer("15").right and q.answer("5").text.startswith("Not quite. That counts the ranks only")


# ---------------------------------------------------------------- predict first: the first answer is kept
@pytest.fixture
def fresh(monkeypatch):
    monkeypatch.setattr(qmod, "FIRST", {})
    monkeypatch.setattr(qmod, "SHOWN", {})
    return Question("P(West holds a Queen)?", choices=["less than 1/4", "between 1/4 and 1/2",
                                                       "between 1/2 and 3/4", "more than 3/4"], id="L00-queen-chance")


def test_the_first_answer_is_kept_and_a_second_click_does_not_change_it(fresh):
    box = fresh.widget
    box.entry.value = 0  # A, wrong
    assert box.feedback.status == "wrong"
    box.entry.value = 1  # B, right: the feedback follows, the record does not
    assert box.feedback.right
    assert fresh.first == {"id": "L00-queen-chance", "kind": "choice", "answer": "A", "text": "less than 1/4",
                           "choices": fresh.choices, "status": "wrong", "at": fresh.first["at"]}
    again = Question(fresh.prompt, choices=fresh.choices, id="L00-queen-chance")  # the cell run again
    again.widget.respond("D")
    assert again.first["answer"] == "A"


def test_an_unreadable_answer_is_not_a_first_answer(monkeypatch):
    monkeypatch.setattr(qmod, "FIRST", {})
    q = Question("asks?", id="L00-count-asks")
    q.widget.respond("fifteen")
    assert q.first is None
    q.widget.respond("1/0")
    q.widget.respond("16")
    q.widget.respond("15")
    assert {k: v for k, v in q.first.items() if k != "at"} == {"id": "L00-count-asks", "kind": "number", "answer": "16",
                                                               "text": "16", "status": "wrong"}


def test_reveal_waits_for_the_answer_then_saves_it(fresh, capsys):
    with pytest.raises(NotAnsweredYet) as stopped:
        reveal("L00-queen-chance")
    assert stopped.value._render_traceback_() == [  # plain words: what to do now, and how to go on
        "Predict first: run the cell of the question above and answer it,\n"
        "then choose Run > Run Selected Cell and All Below to go on."]
    fresh.widget.respond("C")
    assert reveal("L00-queen-chance")["L00-queen-chance"]["answer"] == "C"
    with pytest.raises(NotAnsweredYet, match="run the cell of the question above and answer it,\nthen choose Run >"):
        reveal("L00-queen-chance", "L00-random-seats")  # only one of the two waits, and its widget is not shown
    assert Question("Same seats?", choices=PACKED["L00-random-seats"]["choices"], id="L00-random-seats").widget  # now it is
    with pytest.raises(NotAnsweredYet, match="^Predict first: answer the question above,\nthen choose Run >"):
        reveal("L00-queen-chance", "L00-random-seats")
    assert str(stopped.value).isascii(), "a symbol a machine's fonts may lack"
    assert max(map(len, str(stopped.value).splitlines())) <= 64, "a line JupyterLab would break mid-word"


def test_reveal_shows_nothing_of_the_result_before_the_answer_and_the_prose_after(fresh, monkeypatch):
    """The feedback and the lesson's prose tagged answers:<id> (from the packed bank) come with the answer, not before."""
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    prose = "Each Queen is in West's hand with chance $5/47$; **four** Queens make a little over a third."
    bank = {qid: dict(q) for qid, q in PACKED.items()}
    bank["L00-queen-chance"]["prose"] = [prose, "Most guesses are too high."]
    monkeypatch.setattr(question_bank, "load", lambda: bank)
    shell = InteractiveShell.instance()
    assert fresh.widget  # the question is shown
    try:
        with capture_output() as before:
            shell.run_cell('from gofish_teach.widgets import reveal\nreveal("L00-queen-chance")')
        assert "Predict first: answer the question above" in before.stdout + before.stderr
        assert not before.outputs and "5/47" not in before.stdout + before.stderr
        fresh.widget.respond("A")
        fresh.widget.respond("B")
        with capture_output() as after:
            shell.run_cell('reveal("L00-queen-chance")')
    finally:
        InteractiveShell.clear_instance()
    record, markdown = (o.data for o in after.outputs)
    assert record[qmod.ANSWER_MIME]["first_answers"][0]["answer"] == "A"
    assert 'Your first answer, kept for the class discussion: A ("less than 1/4")' in record["text/plain"]
    assert BANK["L00-queen-chance"]["wrong"]["less than 1/4"] in record["text/plain"]  # the first answer's feedback
    assert "<b>Not quite.</b>" in record["text/html"]
    assert markdown["text/markdown"] == prose + "\n\nMost guesses are too high."


def test_reveal_in_a_kernel_saves_the_first_answer_as_an_output():
    """Run the way Jupyter runs it: an IPython shell shows the short message, then the saved record."""
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    shell = InteractiveShell.instance()
    try:
        shell.run_cell("from gofish_teach.widgets import question as _q; _q.FIRST.clear(); _q.SHOWN.clear()")
        with capture_output() as before:
            result = shell.run_cell('from gofish_teach.widgets import reveal\nreveal("L00-count-asks")\nx = 1')
        assert not result.success and "Predict first: run the cell of the question" in before.stdout + before.stderr
        assert "Traceback" not in before.stdout + before.stderr
        shell.run_cell('from gofish_teach.widgets import Question\n'
                       'q = Question("asks?", id="L00-count-asks"); q.widget.respond("8"); q.widget.respond("15")')
        with capture_output() as after:
            result = shell.run_cell('reveal("L00-count-asks")\nx = 2')
        assert result.success and shell.user_ns["x"] == 2
        shown = [o.data for o in after.outputs]
        assert shown and shown[0][qmod.ANSWER_MIME]["first_answers"][0]["answer"] == "8"
        assert "Your first answer" in shown[0]["text/plain"]
    finally:
        shell.run_cell("_q.FIRST.clear()")
        InteractiveShell.clear_instance()


def test_fractions_in_the_bank_are_exact():
    q = Question("top card?", id="L03-top-seven")
    assert q.correct == Fraction(2, 47)
