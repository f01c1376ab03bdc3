"""What would answer a predict-first question, and where a learner's file or handout shows it.

For each question of the bank (``solutions/question-bank.json``) the *needles* are:

- its answer in its usual forms: a number as a fraction (``2/47``, also as ``\\frac{2}{47}``), as a decimal
  and a percentage at 2 to 4 significant digits; a choice by its text when that is three words or
  more (shorter ones, "memory", "higher", would match everywhere: their numbers and sentences are
  needles instead);
- its explanation: every sentence of it, and every number it quotes;
- its result prose: every sentence of the kit's cells tagged ``answers:ID``, and every number
  they quote.

A number is only a needle when the lesson did not give it before it asked: a number in the
question itself, or anywhere above the question in the teacher's edition, is what the learner
reasons from (lesson 03 gives 2/41 and asks what the "Go Fish!" does to it). The answer's own
forms are always needles: where the lesson states the same number above the question (lesson 08's
A A has probability 1/5, and a peek is worth 1/5), it may stand that often and no more. Integers
below 100 (and years), round numbers and a test's levels (0.5, 20%, 95%) are too common to be
needles: the sentences around them are.

:func:`leaks` looks for them in a learner's notebook (every string in the file but the question's
own cell) or in a handout's text; both read whitespace as one space and drop markdown's ``*`` and
backticks, so a sentence rewrapped or unbolded is still found.

>>> sorted(number_forms(Fraction(2, 47)))[:4]
['0.04255', '0.0426', '0.043', '2/47']
>>> found = leaks_in_text("Each place holds a seven with probability 2/47.", {"L03-top-seven": {"2/47"}})
>>> found
[('L03-top-seven', '2/47')]
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
ANSWERS_TAG = "answers:"
#: A sentence shorter than this many words is too common to be a needle ("It is 0.372.").
SENTENCE_WORDS = 6

_NUMBER = re.compile(r"(?<![\w.,/])(\d+(?:,\d{3})+|\d*\.\d+|\d+)(?:\s*/\s*(\d+(?:,\d{3})*))?(\s*%)?(?![\w/]|\.\d)")
_TEX_FRAC = re.compile(r"\\[dt]?frac\{\s*(\d+)\s*\}\{\s*(\d+)\s*\}")


def plain(text: str) -> str:
    """Whitespace as one space, without markdown's emphasis and code marks: what a reader reads."""
    return " ".join(re.sub(r"[*`]", "", text).split())


def number_forms(x: Fraction, fraction: bool = True, digits=(2, 3, 4)) -> set[str]:
    """How a number is written in a lesson: ``a/b``, ``\\frac{a}{b}``, decimals and percentages.

    ``fraction=False``: a number the text wrote as a decimal, so not as a fraction.

    >>> sorted(number_forms(Fraction(727, 1000), fraction=False))
    ['0.727', '0.73', '72.7%', '73%']
    >>> number_forms(Fraction(15)), sorted(number_forms(Fraction(4165)))
    (set(), ['4,165', '4165'])
    """
    forms: set[str] = set()
    if x.denominator == 1:
        n = abs(x.numerator)
        if n >= 100 and not 1900 <= n <= 2100:
            forms |= {str(x.numerator), f"{x.numerator:,}"}
        return forms
    if fraction:
        forms.add(f"{x.numerator}/{x.denominator}")  # \\frac{a}{b} too: texts are read with it as a/b
    value = float(x)
    for d in digits:
        shown = f"{value:.{d}g}"
        if "e" not in shown and Fraction(shown) != 0 and _significant(shown) >= min(d, 2):
            forms.add(shown)
        pct = f"{100 * value:.{d}g}"
        if "e" not in pct and _significant(pct) >= 2:
            forms.add(pct + "%")
    # a round number (0.5, 20%, 75%) or a test's level (95%, 0.05) is said of many things
    return {f for f in forms if not re.fullmatch(r"-?(?:\d|[1-9]0|25|75|95|99|100)%|-?\d|-?0\.(?:\d|[0-9]0|25|75|05|95|99|01)", f)}


def _significant(shown: str) -> int:
    return len(shown.lstrip("-").replace(".", "").lstrip("0"))


def numbers_in(text: str) -> set[tuple[Fraction, bool]]:
    """The numbers a text quotes, each with whether it was written as a fraction: fractions (``2/37``,
    ``\\frac{2}{37}``), decimals, percentages, integers from 100 up (years aside).

    >>> sorted(v for v, _ in numbers_in("2/37, up from 2/41; 0.39 against 0.15; 49.3%; 4,165 hands; 22 June"))
    [Fraction(2, 41), Fraction(2, 37), Fraction(3, 20), Fraction(39, 100), Fraction(493, 1000), Fraction(4165, 1)]
    """
    text = _TEX_FRAC.sub(r"\1/\2", text)
    found = set()
    for top, bottom, pct in ((m.group(1), m.group(2), m.group(3)) for m in _NUMBER.finditer(text)):
        top = top.replace(",", "")
        value = Fraction(top)
        if bottom:
            if int(bottom.replace(",", "")) == 0:
                continue
            value /= int(bottom.replace(",", ""))
        elif pct:
            value /= 100
        elif "." not in top and (value < 100 or 1900 <= value <= 2100):
            continue  # small integers and years: everywhere
        if value == 0 or value == 1:
            continue
        found.add((value, bool(bottom)))
    return found


def sentences(markdown: str) -> list[str]:
    """The sentences of a text, as :func:`plain` text, that are long enough to be a needle."""
    text = plain(re.sub(r"\$\$.*?\$\$", " ", markdown, flags=re.S))
    parts = re.split(r"(?<=[.!?:;])\s+(?=[A-Z(\"'*])|\s+[-–]\s+", text)
    return [s.strip() for s in parts if len(s.split()) >= SENTENCE_WORDS]


def cell_text(cell: dict) -> str:
    """Every string of a cell (its source, its outputs' text, HTML and metadata), images left out."""
    out: list[str] = []

    def walk(value, key=""):
        if isinstance(value, str):
            if not key.startswith("image/"):
                out.append(value)
        elif isinstance(value, list):
            if all(isinstance(v, str) for v in value):
                out.append("".join(value))
            else:
                for v in value:
                    walk(v, key)
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)

    walk(cell)
    return "\n".join(out)


def question_cell(cells: list[dict], qid: str) -> int | None:
    for i, cell in enumerate(cells):
        source = "".join(cell.get("source", []))
        if cell.get("cell_type") == "code" and "Question(" in source and f'id="{qid}"' in source:
            return i
    return None


@dataclass
class Needles:
    """What would answer one question: exact strings (``words``) and numbers (``forms``)."""

    qid: str
    lesson: str
    words: set[str] = field(default_factory=set)     # the choice's text, sentences: matched as plain text
    forms: set[str] = field(default_factory=set)     # number forms: matched with number boundaries
    why: dict[str, str] = field(default_factory=dict)  # needle -> where it comes from
    given: dict[str, int] = field(default_factory=dict)  # an answer's form the lesson states before asking: how often

    def add(self, needle: str, why: str, number: bool = False):
        (self.forms if number else self.words).add(needle)
        self.why.setdefault(needle, why)


def _given(cells: list[dict], upto: int) -> str:
    """What the teacher's edition says up to and including the question cell: the learner's givens."""
    return "\n".join(plain(_TEX_FRAC.sub(r"\1/\2", cell_text(c))) for c in cells[: upto + 1])


def needles(bank: dict | None = None, lessons=LESSONS) -> dict[str, Needles]:
    """The needles of every question of ``bank`` (default: the teacher's source), from the kit's lessons."""
    from gofish_teach.widgets.question_bank import read_source

    bank = bank if bank is not None else read_source()
    found: dict[str, Needles] = {}
    for path in lessons:
        cells = json.loads(Path(path).read_text(encoding="utf-8"))["cells"]
        for qid, q in bank.items():
            at = question_cell(cells, qid)
            if at is None:
                continue
            n = found[qid] = Needles(qid, Path(path).name)
            given = _given(cells, at)
            source = "".join(cells[at]["source"])
            choices = re.search(r"choices=\[(.*?)\]", source, re.S)
            if choices:  # a choice question: the answer is one of its choices
                answer = q["answer"]
                if len(answer.split()) >= 3:
                    n.add(plain(answer), "the right choice's text")
                if re.fullmatch(r"(about )?[\d.,/%]+", answer):  # a choice that is a number: its forms too
                    for value, fraction in numbers_in(answer):
                        for form in number_forms(value, fraction):
                            n.add(form, f"the right choice, {answer!r}", number=True)
            else:
                for form in number_forms(Fraction(q["answer"])):
                    n.add(form, "the answer", number=True)
            # The answer's own forms are needles even where the lesson states the same number before it
            # asks (lesson 08's opponent holds A A with probability 1/5, and a peek is worth 1/5): that
            # many times, in the cells above the question, it may stand; once more is a leak.
            above = _given(cells, at - 1) if at else ""
            n.given = {form: len(re.findall(_number_pattern(form), above)) for form in n.forms}
            n.given = {form: k for form, k in n.given.items() if k}
            prose = [("the explanation", q["explain"])]
            prose += [(f"cell {i} (tagged {ANSWERS_TAG}{qid})", "".join(c["source"]))
                      for i, c in enumerate(cells) if f"{ANSWERS_TAG}{qid}" in c.get("metadata", {}).get("tags", [])]
            for why, text in prose:
                for sentence in sentences(text):
                    n.add(sentence, why)
                for value, fraction in numbers_in(text):
                    for form in number_forms(value, fraction):
                        if not _contains_number(given, form):
                            n.add(form, f"a number of {why}", number=True)
    return found


def _number_pattern(form: str) -> str:
    """A number written as ``form``, not inside a longer number (``0.43`` is not in ``0.437``)."""
    return rf"(?<![\w.,/]){re.escape(form)}(?![\w/]|\.\d|,\d)"


def _contains_number(text: str, form: str) -> bool:
    return re.search(_number_pattern(form), text) is not None


def leaks_in_text(text: str, wanted: dict[str, set[str]] | dict[str, Needles],
                  allowed: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """``(question id, needle)`` for every needle found in ``text`` (plain text; see :func:`plain`).

    ``allowed``: for a question, a text in which its needles may stand (the question itself, as a
    handout prints it): a needle is only found when ``text`` holds it more often than that.

    >>> leaks_in_text("A. 2/32  B. 2/47  C. 2/15", {"q": {"2/47"}}, allowed={"q": "B. 2/47"})
    []
    """
    def count(where: str, needle: str, number: bool) -> int:
        if number:
            return len(re.findall(_number_pattern(needle), where))
        return where.lower().count(needle.lower())

    text = plain(_TEX_FRAC.sub(r"\1/\2", text))
    found = []
    for qid, n in wanted.items():
        words, forms = (n.words, n.forms) if isinstance(n, Needles) else (set(), n)
        own = plain(_TEX_FRAC.sub(r"\1/\2", (allowed or {}).get(qid, "")))
        found += [(qid, w) for w in sorted(words) if count(text, w, False) > count(own, w, False)]
        given = n.given if isinstance(n, Needles) else {}
        found += [(qid, f) for f in sorted(forms) if count(text, f, True) > count(own, f, True) + given.get(f, 0)]
    return found


def leaks(notebook: dict, wanted: dict[str, Needles]) -> list[tuple[str, str, str]]:
    """``(question id, needle, where)`` for every needle in a learner's notebook, the question's own cell aside
    (and an answer's form no more often than the lesson states it above the question: :attr:`Needles.given`)."""
    cells = notebook["cells"]
    found = []
    for qid, n in wanted.items():
        own = question_cell(cells, qid)
        where: dict[str, list[int]] = {}
        for i, cell in enumerate(cells):
            if i != own:
                for _, needle in leaks_in_text(cell_text(cell), {qid: Needles(qid, n.lesson, n.words, n.forms)}):
                    where.setdefault(needle, []).append(i)
        for needle, at in where.items():
            text = "\n".join(cell_text(cells[i]) for i in at)
            seen = len(re.findall(_number_pattern(needle), plain(_TEX_FRAC.sub(r"\1/\2", text)))) if needle in n.forms else 1
            if seen > n.given.get(needle, 0):
                found.append((qid, needle, ("cell " if len(at) == 1 else "cells ") + ", ".join(map(str, at))))
    return found
