"""Every lesson asks before it tells: predict-first questions and checked coding questions.

How they are found (the convention for every lesson, notebooks/[0-9]*.ipynb):

- a **predict-first** question is a code cell tagged ``predict`` that builds a
  :class:`~gofish_teach.widgets.Question` by itself (its own imports, no variable from the
  lesson), placed before the cell that reveals the answer;
- a **check your understanding** question is a stub cell and a check cell, both tagged
  ``check-understanding``; the check cell calls ``check("ID", function)`` with the id of an
  entry of :data:`gofish_teach.exercises.inline.INLINE`.

Each lesson needs at least three of the first and two of the second. The questions' callbacks
are driven here: the right answer gets "right", every usual wrong answer gets its own
explanation, malformed input a message; each check's reference solution passes it, and the
committed check cell shows the stub's honest report (the learner's copy has the stub).
"""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from gofish_teach.exercises import get_exercise, load_key, run_check
from gofish_teach.exercises.inline import INLINE
from gofish_teach.widgets import Question

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
CHECK_CALL = re.compile(r"""\bcheck\(\s*["']([^"']+)["']\s*,\s*(\w+)""")
#: The teacher's answer key (solutions/key/, never shipped): each check's reference, by id.
KEY = load_key(ROOT / "solutions" / "key")
REFERENCES = {ex.id: KEY.reference(ex) for ex in INLINE}


def cells(path: Path, tag: str):
    """(index, source, cell) of each code cell carrying ``tag``."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "code" and tag in cell.get("metadata", {}).get("tags", []):
            source = cell["source"]
            yield i, "".join(source) if isinstance(source, list) else source, cell


def questions_in(source: str) -> list[Question]:
    """Run a predict cell on its own and return the Questions it builds (the last line's value too)."""
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    namespace: dict = {}
    exec(compile(tree, "<predict cell>", "exec"), namespace)
    found = [v for v in namespace.values() if isinstance(v, Question)]
    if last is not None:
        value = eval(compile(ast.Expression(last.value), "<predict cell>", "eval"), namespace)
        if isinstance(value, Question) and all(value is not q for q in found):
            found.append(value)
    return found


def lesson_questions(path: Path) -> list[tuple[int, Question]]:
    return [(i, q) for i, source, _ in cells(path, "predict") for q in questions_in(source)]


def test_there_are_lessons():
    assert len(LESSONS) >= 7


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_three_predict_first_questions(path):
    found = lesson_questions(path)
    assert len(found) >= 3, f"{path.name}: {len(found)} predict-first questions (cells tagged 'predict'), want 3"
    for i, source, _ in cells(path, "predict"):
        assert questions_in(source), f"{path.name} cell {i} is tagged 'predict' but builds no Question"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_predict_first_feedback(path):
    for i, q in lesson_questions(path):
        where = f"{path.name} cell {i}: {q.prompt[:50]!r}"
        assert q.explain.strip(), where
        if q.kind == "choice":
            right = q.answer(q.choices[q.correct])
            assert right.right and q.explain in right.text, where
            assert q.wrong, f"{where}: say why the usual wrong choice is wrong (wrong={{...}})"
            for k, why in q.wrong.items():
                fb = q.answer(q.choices[k])
                assert fb.status == "wrong" and why in fb.text and q.explain in fb.text, where
            assert q.answer("no such choice").status == "invalid", where
        else:
            assert q.answer(str(q.correct)).right, where
            if q.tolerance:
                assert q.answer(f"{float(q.correct)!r}").right, where
            for value, why in q.wrong.items():
                fb = q.answer(str(value))
                assert fb.status == "wrong" and why in fb.text, where
            far = q.correct + 10 * (q.tolerance + abs(q.correct) + 1)
            assert q.answer(str(far)).status == "wrong", where
            for bad in ("", "about a half", "1/0"):
                assert q.answer(bad).status == "invalid", where


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_predict_cells_come_with_their_question_as_text(path):
    """A saved, unrun notebook shows the question: its HTML output is committed."""
    for i, _source, cell in cells(path, "predict"):
        html = [o["data"]["text/html"] for o in cell.get("outputs", []) if "text/html" in o.get("data", {})]
        assert any("Predict first." in "".join(h) for h in html), f"{path.name} cell {i}: run it and save"


def check_calls(path: Path) -> list[tuple[int, str, str]]:
    return [(i, ex_id, fn) for i, source, _ in cells(path, "check-understanding")
            for ex_id, fn in CHECK_CALL.findall(source)]


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_two_checked_coding_questions(path):
    ids = {ex_id for _, ex_id, _ in check_calls(path)}
    assert len(ids) >= 2, f"{path.name}: {sorted(ids)} (check(...) calls in cells tagged 'check-understanding'), want 2"
    for ex_id in ids:
        assert ex_id in REFERENCES and get_exercise(ex_id).id == ex_id


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_each_check_has_a_stub_cell_and_its_saved_report(path):
    sources = {i: s for i, s, _ in cells(path, "check-understanding")}
    outputs = {i: c.get("outputs", []) for i, _, c in cells(path, "check-understanding")}
    for i, ex_id, fn in check_calls(path):
        stubs = [s for j, s in sources.items() if j < i and re.search(rf"def {fn}\(", s)]
        assert stubs, f"{path.name} cell {i}: no stub cell defining {fn}() above the check"
        assert "raise NotImplementedError" in stubs[-1], f"{path.name}: the learner's copy keeps the stub of {fn}()"
        printed = "".join("".join(o.get("text", "")) for o in outputs[i])
        assert f"for exercise {ex_id}" in printed and "still raises NotImplementedError" in printed, \
            f"{path.name} cell {i}: commit the check's report on the stub"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_stubs_state_the_task_not_the_formula(path):
    """A stub's docstring says what to compute, not how: no formula (``**``, 1.96, "times", "divided by")."""
    for i, source, _ in cells(path, "check-understanding"):
        for doc in re.findall(r'"""(.*?)"""', source, re.S):
            assert not re.search(r"\*\*|1\.96|\btimes\b|divided by|binomtest", doc), f"{path.name} cell {i}: {doc}"


@pytest.mark.parametrize("ex", INLINE, ids=lambda ex: ex.id)
def test_reference_passes_its_check(ex):
    report = run_check(ex, REFERENCES[ex.id])
    assert report.total >= 3 and report.passed == report.total, report.text()
    assert report.hidden_total == ex.hidden_in_check >= 3 and report.hidden_passed == report.hidden_total, report.text()
    assert "Well done!" in report.text()


def printed_answer(case):
    """A public case's answer as its check prints it: one of them where several are right (the games needed)."""
    if isinstance(case.expected, dict):
        return min(n for ns in case.expected.values() for n in ns)
    return case.expected


@pytest.mark.parametrize("ex", INLINE, ids=lambda ex: ex.id)
def test_a_table_of_the_printed_answers_fails_the_hidden_cases(ex):
    """A function that looks up every public case's printed answer passes those, and fails every hidden case."""
    answers = {repr((case.args, sorted(case.kwargs.items()))): printed_answer(case) for case in ex.cases()}

    def table(*args, **kwargs):
        return answers[repr((args, sorted(kwargs.items())))]

    report = run_check(ex, table)
    text = report.text()
    assert report.passed == report.total, text
    assert report.hidden_total == ex.hidden_in_check and report.hidden_passed == 0, text
    assert "Well done!" not in text and text.count("Hidden case ") == report.hidden_total
    for r in report.hidden_results:  # a hidden case shows its input and what came back, never its answer
        assert r.case.shown in text and "KeyError" in text
        assert "expected" not in text.split(r.case.shown, 1)[1].split("Hidden case")[0]


@pytest.mark.parametrize("ex", INLINE, ids=lambda ex: ex.id)
def test_hidden_cases_are_new_each_run_and_the_graders_are_seeded(ex):
    public = {case.shown for case in ex.cases()}
    runs = [[case.shown for case in ex.check_hidden_cases()] for _ in range(3)]
    assert all(len(run) == ex.hidden_in_check and not public & set(run) for run in runs)
    if ex.id not in ("L02-full-house", "L01-deal-size"):  # few inputs exist: runs may repeat
        assert runs[0] != runs[1] or runs[1] != runs[2]
    graders = [c.shown for c in KEY.hidden_cases(ex, 7)]
    again = type(KEY)(KEY.folder)  # made again from the same seed: the same cases (the grader's --hidden-seed)
    assert len(graders) == ex.hidden_in_check and [c.shown for c in again.hidden_cases(ex, 7)] == graders


def test_the_lessons_own_methods_pass():
    """scipy's norm.ppf for z (lesson 6, section 7) and hypergeom.sf (lesson 0) are right answers."""
    def games_needed(delta, sigma):
        import math

        from scipy.stats import norm

        return math.ceil(((norm.ppf(0.975) + norm.ppf(0.80)) * sigma / delta) ** 2)

    def p_at_least_one(unseen, copies, hand_size):
        from scipy.stats import hypergeom

        return hypergeom.sf(0, unseen, copies, hand_size)

    for ex_id, func in [("L06-games-needed", games_needed), ("L00-p-at-least-one", p_at_least_one)]:
        report = run_check(ex_id, func)
        assert report.passed == report.total and report.hidden_passed == report.hidden_total > 0, report.text()


def test_games_needed_still_catches_rounding_down():
    def games_needed(delta, sigma):
        return int(((1.96 + 0.84) * sigma / delta) ** 2)

    report = run_check("L06-games-needed", games_needed)
    assert report.passed < report.total and "one game short" in report.text()


@pytest.mark.parametrize("ex", INLINE, ids=lambda ex: ex.id)
def test_stub_gets_the_stub_note(ex):
    def stub(*args, **kwargs):
        raise NotImplementedError("write it")

    report = run_check(ex, stub)
    assert report.stub and report.passed == 0 and "still raises NotImplementedError" in report.text()
    # the committed report on the stub shows no answer, and is the same every run (strict nbval)
    assert "expected:" not in report.text() and report.hidden_total == 0 and "hidden cases" in report.text()
    assert report.text() == run_check(ex, stub).text()


def test_inline_ids_are_unique_and_name_their_lesson():
    ids = [ex.id for ex in INLINE]
    assert len(ids) == len(set(ids))
    for ex in INLINE:
        assert re.fullmatch(r"L\d\d-[a-z0-9-]+", ex.id) and ex.id[1:3] == ex.lesson, ex.id


def test_inline_hints_for_inexact_answers():
    def floats(N, K, n):
        return [n * K / N, 0.0]

    def stringy(k, n_ranks=13):
        return "10/17"

    text = run_check("L03-hypergeom-mean-var", floats).text()
    assert "item 0 is wrong: right value, but a float is rounded: return a fractions.Fraction" in text
    assert "return a fractions.Fraction, not a str" in run_check("L02-expected-pairs", stringy).text()


def test_an_error_names_the_learners_line_not_pythons():
    """Issue 35, item 9: Fraction(1, 0) in the learner's code named "line 157, in __new__" of fractions.py."""
    from fractions import Fraction

    def posterior_probability(prior, likelihood_ratio):
        odds = Fraction(prior, 1 - prior)  # a prior of 1 divides by zero inside Fraction
        return odds * likelihood_ratio / (1 + odds * likelihood_ratio)

    def own_error(prior, likelihood_ratio):
        return 1 / 0

    line = posterior_probability.__code__.co_firstlineno + 1
    text = run_check("L04-posterior-probability", posterior_probability).text()
    assert f"ZeroDivisionError: Fraction(1, 0) (line {line}, in posterior_probability, in a call into Python's " \
           "fractions.py)" in text, text
    assert "__new__" not in text
    line = own_error.__code__.co_firstlineno + 1
    assert f"ZeroDivisionError: division by zero (line {line}, in own_error)" in \
        run_check("L04-posterior-probability", own_error).text()


def test_a_hidden_case_that_runs_out_of_time_stops_the_rest():
    public = [list(case.args) for case in get_exercise("L05-brier-score").cases()]
    reference = REFERENCES["L05-brier-score"]

    def brier_score(probs, outcomes):
        while [probs, outcomes] not in public:  # any hidden case: an endless loop
            pass
        return reference(probs, outcomes)

    report = run_check("L05-brier-score", brier_score, time_limit=0.5)
    text = report.text()
    assert report.passed == report.total and report.status == "timeout" and len(report.hidden_results) == 1
    assert f"The other {report.hidden_total - 1} hidden case(s) were not run" in text and "Well done!" not in text
