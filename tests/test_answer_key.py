"""No answer on a learner's side (issue 42, N1), and no check that answers a predict question (issue 43).

The reference answers are the teacher's key (``solutions/key/``); the package ships only what a
check cell prints anyway (the public answers) and sealed hidden cases (salted hashes). Each attack
here also asserts that it ran: the lookup found the shipped data, the stub's report was made.
(The wheel's own file list and contents: tests/test_learner_copy.py.)
"""
from __future__ import annotations

import inspect
import json
import math
import re
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest

from gofish_teach.exercises import EXERCISES, INLINE, casedata, load_key, run_check
from pasted_install import PASTED_INSTALL

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "gofish_teach"
KEY = load_key(ROOT / "solutions" / "key")


# --------------------------------------------------------------------------- the key and the shipped data
def test_every_check_has_its_answer_in_the_key_and_nowhere_else():
    for ex in [*EXERCISES, *INLINE]:
        assert ex.keyed is False or callable(KEY.reference(ex)), ex.id
    assert not (PACKAGE / "exercises" / "answers.py").exists()


def test_the_shipped_data_is_what_the_key_makes():
    """No drift: the data a learner's check cell reads is rebuilt from the key, byte for byte
    (``python -m gofish_teach.exercises.casedata`` rewrites it)."""
    assert casedata.drift() == []
    assert sorted(p.stem for p in casedata.DATA.glob("*.json")) == sorted(ex.id for ex in [*EXERCISES, *INLINE])


def _key_functions():
    return {name: f for name, f in KEY.functions.items()}


def _body_lines(function) -> list[str]:
    """The lines of a function's body that say something of its own (not a blank, a bracket or a bare return)."""
    source = textwrap.dedent(inspect.getsource(function))
    body = source.split(":\n", 1)[1]
    doc = re.match(r'\s*(""".*?""")', body, re.S)
    if doc:
        body = body[doc.end():]
    lines = [line.strip() for line in body.splitlines()]
    return [line for line in lines if len(line) >= 20 and not line.startswith(("#", "from ", "import "))]


def shipped_text_holds_no_key(texts: dict[str, str]) -> list[str]:
    """What of the key's functions the texts hold: a name, or half of a body's lines or more (one line alone,
    such as "the first opponent who holds cards", is shared with the package's own small strategies)."""
    finds = []
    for name, function in _key_functions().items():
        lines = _body_lines(function)
        for where, text in texts.items():
            if re.search(rf"\b{name}\b", text):
                finds.append(f"{where}: the name {name}")
            held = [line for line in lines if line in text]
            if lines and len(held) >= max(1, math.ceil(len(lines) / 2)):
                finds.append(f"{where}: {len(held)} of the {len(lines)} lines of {name}'s body")
    return finds


def test_the_package_holds_no_reference_function():
    """Every file of the package, the shipped data included, is searched for each key function's name and
    for the lines of its body (``return len(set(hand)) * n_opponents`` was in inline_counting.py)."""
    texts = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in sorted(PACKAGE.rglob("*"))
             if p.is_file() and p.suffix in (".py", ".json", ".js", ".css", ".html", ".txt")}
    assert len(texts) > 100 and len(_key_functions()) >= 29
    assert shipped_text_holds_no_key(texts) == []
    assert sum(len(_body_lines(f)) for f in _key_functions().values()) > 50  # the search has lines to look for


# --------------------------------------------------------------------------- sealed cases judge as the check does
#: How far a float may be from the answer, by check: the lessons' checks that take floats say so.
TOLERANCE = {"L00-p-at-least-one": lambda e: 1e-9, "L06-exact-p-value": lambda e: 1e-12 + 1e-6 * abs(e)}


def _variants(value, tolerance=None):
    """Right and wrong answers near ``value``, of its type and others: what a sealed case must judge as the
    check does. A float is tried well inside the check's tolerance and well outside it (a sealed case
    compares floats on a grid: within a factor 2 of the tolerance's edge the two may differ)."""
    if isinstance(value, bool) or value is None:
        return [value, 0, [Fraction(0)]]
    near = []
    if tolerance is not None and isinstance(value, (float, Fraction)):
        e, tol = float(value), tolerance(float(value))
        near = [e + tol / 2, max(e - tol / 2, 0.0), e + 3 * tol, e - 3 * tol]
    if isinstance(value, Fraction):
        return [value, value + Fraction(1, 1000), 2 * value, float(value), int(value), str(value), -value, *near]
    if isinstance(value, int):
        return [value, value + 1, value - 1, float(value), True, str(value)]
    if isinstance(value, float):
        return [value, value * (1 + 1e-12), value / 2, 2 * value, 0.0, 1.0, math.nan, -value, *near]
    if isinstance(value, dict):  # the games needed: every accepted number
        numbers = sorted(n for ns in value.values() for n in ns)
        return [*numbers, numbers[0] - 1, numbers[-1] + 1, float(numbers[0]), numbers[0] * 2]
    if isinstance(value, (list, tuple)):
        items = list(value)
        return [value, items, tuple(items), items[::-1], items + items[:1], items[:-1],
                [float(x) if isinstance(x, (int, Fraction)) else x for x in items],
                [x + 1 if isinstance(x, (int, Fraction)) and not isinstance(x, bool) else x for x in items]]
    return [value, str(value)]


@pytest.mark.parametrize("ex", INLINE, ids=lambda ex: ex.id)
def test_a_sealed_hidden_case_judges_as_the_open_one(ex):
    """For every case of the pool, the hashes judge the key's answer, and answers near it, as the check
    judges them with the answer in hand (floats within the check's tolerance on the hashes' grid)."""
    sealed = casedata.pool(ex)
    assert len(sealed) >= min(8, casedata.POOL_SIZE) and all(c.expected is not None and c.hashes for c in sealed)
    assert not {c.shown for c in sealed} & {c.shown for c in ex.cases()}
    tried = 0
    for case in sealed:
        opened = KEY.answered(ex, [case])[0]
        answer = opened.expected
        assert ex.judge(case, KEY.reference(ex)(*case.args, **case.kwargs))[0], case.shown
        for value in _variants(answer, TOLERANCE.get(ex.id)):
            assert ex.judge(case, value)[0] == ex.judge(opened, value)[0], (case.shown, answer, value)
            tried += 1
    assert tried >= 4 * len(sealed)


def test_the_hints_that_need_no_answer_still_come_for_sealed_cases():
    pool = {ex.id: casedata.pool(ex)[0] for ex in INLINE}
    by_id = {ex.id: ex for ex in INLINE}

    def hint(ex_id, value):
        return by_id[ex_id].judge(pool[ex_id], value)

    case = pool["L06-games-needed"]
    short = min(n for ns in KEY.answered(by_id["L06-games-needed"], [case])[0].expected.values() for n in ns) - 1
    assert hint("L06-games-needed", short) == (False, "one game short: round up, never down (math.ceil)")
    p = KEY.answered(by_id["L06-exact-p-value"], [pool["L06-exact-p-value"]])[0].expected
    assert "half the answer" in hint("L06-exact-p-value", p / 2)[1] or p == 0
    x = KEY.answered(by_id["L02-expected-pairs"], [pool["L02-expected-pairs"]])[0].expected
    assert hint("L02-expected-pairs", float(x))[1].startswith("right value, but a float is rounded") or x == int(x)
    assert hint("L04-bayes-table", "1/2") == (False, "return a list of Fractions, not a str")


# --------------------------------------------------------------------------- N1: the pasted install, in a check cell
def _pasted(ex):
    namespace: dict = {}
    exec(PASTED_INSTALL, namespace)
    look = namespace["pasted_install_answer"]

    def answer(*args, **kwargs):
        return look(ex.function, args, kwargs)

    answer.__name__ = ex.function
    return answer


@pytest.mark.parametrize("ex", INLINE, ids=lambda ex: ex.id)
def test_the_pasted_install_finds_the_shipped_data_and_earns_no_hidden_case(ex):
    """On 457bed9 the package's own reference functions passed every check, hidden cases included
    (18 of 18). Now what the installed package ships gives the public answers (printed anyway) and,
    for each hidden case, its sealed record, which the attack does find, and which answers nothing."""
    report = run_check(ex, _pasted(ex))
    text = report.text()
    assert report.passed == report.total, text                     # it found every public answer
    assert report.hidden_total == ex.hidden_in_check > 0, text
    assert report.hidden_passed == 0, text                         # and no hidden one
    assert text.count("found in the pool: ") == report.hidden_total, text  # each hidden case's record was found
    assert "Well done!" not in text


# --------------------------------------------------------------------------- issue 43: no check answers a question
NUMBER = r"\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?"
STATED = re.compile(rf"(?<![\w.,])({NUMBER})(?:\s*(?:/|in)\s*({NUMBER})|(%))?")


def _stated(text: str, everything: bool):
    """``(value, how close counts)`` of each number ``text`` states: a fraction, "1 in 4,000", a decimal or
    a percent (rounded as written); whole numbers only when ``everything`` (a question's own answer)."""
    for m in STATED.finditer(text):
        whole, over, percent = m.groups()
        whole = whole.replace(",", "")
        decimals = len(whole.split(".")[1]) if "." in whole else 0
        significant = len(whole.replace(".", "").lstrip("0"))
        if not everything and not (over or ((percent or decimals) and significant >= 2)):
            continue
        value = Fraction(whole) / Fraction((over or "1").replace(",", "")) / (100 if percent else 1)
        close = 0 if over else 0.5 * 10 ** -decimals / (100 if percent else 1) if (decimals or percent) else 0
        yield float(value), close


def predicted(lesson: str) -> dict[str, list[tuple[float, float]]]:
    """The lesson's predict-first questions' answers, as numbers: the answer itself, and the numbers its
    explanation states (a fraction, a decimal, a percent), from the bank a learner never gets."""
    bank = json.loads((ROOT / "solutions" / "question-bank.json").read_text(encoding="utf-8"))["questions"]
    return {qid: [*_stated(q["answer"], True), *_stated(q["explain"], False)]
            for qid, q in bank.items() if qid.startswith(f"L{lesson}-")}


def _printed_values(text: str) -> list[float]:
    """Every number a report states as an expected answer (its ``expected:`` lines)."""
    values = []
    for line in text.splitlines():
        if line.strip().startswith("expected:"):
            said = line.split("expected:", 1)[1]
            for pattern in (r"Fraction\((-?\d+), (\d+)\)", r"(-?\d+)/(\d+)"):
                values += [int(a) / int(b) for a, b in re.findall(pattern, said)]
                said = re.sub(pattern, " ", said)
            values += [float(v) for v in re.findall(r"(?<![\w.])-?\d+(?:\.\d+)?(?:e-?\d+)?", said)]
    return values


def _stub(*args, **kwargs):
    raise NotImplementedError("write it")


def _returns_none(*args, **kwargs):
    pass


def _raises(*args, **kwargs):
    raise ValueError("not yet")


def _zero(*args, **kwargs):
    return 0


def _empty(*args, **kwargs):
    return []


def _words(*args, **kwargs):
    return "I predict 1/2"


ANY_STUB = [_stub, _returns_none, _raises]
WRONG = [_zero, _empty, _words]


@pytest.mark.parametrize("ex", INLINE, ids=lambda ex: ex.id)
def test_no_check_prints_a_predict_answer_or_a_hidden_value(ex):
    """In 5 lesson checks the first visible case was the lesson's predict question, and any stub made the
    check print its answer (L00 count-asks and queen-chance, L02 mean-pairs, L04 odds-double, L08 peek).
    Now, with any stub and with wrong answers, no number a report gives as expected is the answer (or a
    number the explanation states) of a predict question of its lesson, and no hidden case's answer is printed."""
    questions = predicted(ex.lesson)
    assert questions, f"lesson {ex.lesson} has predict questions in the bank"
    bank = json.loads((ROOT / "solutions" / "question-bank.json").read_text(encoding="utf-8"))["questions"]
    for function in ANY_STUB + WRONG:
        function.__name__ = ex.function
        report = run_check(ex, function)
        text = report.text()
        assert f"for exercise {ex.id}" in text and len(report.results) == report.total  # the check really ran
        printed = _printed_values(text)
        if function is _stub:
            assert printed == [] and "expected:" not in text, text
        else:
            assert len(printed) >= report.total or ex.id == "L05-calibration-bin", text  # the answers were shown
        for qid, values in questions.items():
            assert bank[qid]["answer"] not in text or not re.search(r"[a-z]", bank[qid]["answer"]), (qid, text)
            for value in printed:
                for answer, close in values:
                    assert abs(value - answer) > close + 1e-12, f"{ex.id} prints {value}, the answer of {qid}:\n{text}"
        for result in [r for r in report.hidden_results if not r.right]:  # shown: input, what came back, no answer
            answer = KEY.answered(ex, [result.case])[0].expected
            tail = text.split(result.case.shown, 1)[1].split("Hidden case")[0]
            said = [line for line in tail.splitlines()[1:] if not line.strip().startswith("returned:")]
            assert "expected" not in tail and result.case.sealed, tail
            assert len(ex.show(answer)) < 3 or not any(ex.show(answer) in line for line in said), tail
