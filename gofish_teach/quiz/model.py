"""What a quiz item is: parts (multiple choice, a number, a short answer), the versions of an item,
and a version of the whole quiz, its multiple-choice keys balanced over the letters.

An :class:`Item` is a template: ``build(*params)`` returns its stem and parts for one parameter
set from ``space``. Version ``v`` of a quiz made with seed ``s`` takes, for each item, the
``v``-th parameter set of a shuffle of ``space`` seeded by ``s`` and the item's id, so versions
1, 2, ... of one seed differ in every item whose space has that many sets. The keys are computed
by the builder, exactly (``Fraction``), and each builder checks its key a second way.

>>> item = Item("Q99.1", "99", (1,), "sum", build=lambda a, b: (
...     f"What is {a} + {b}?", [number("The sum.", a + b, "Add them.")]), space=((1, 2), (2, 5), (3, 4)))
>>> [q.stem for q in (item.question(7, v) for v in (1, 2, 3, 4))]
['What is 3 + 4?', 'What is 1 + 2?', 'What is 2 + 5?', 'What is 3 + 4?']
>>> item.question(7, 1).parts[0].answer
Fraction(7, 1)
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import Callable

KINDS = ("choice", "number", "short")
LETTERS = "ABCD"


@dataclass(frozen=True)
class Choice:
    """One option of a multiple-choice part, and why it is right or wrong (for the key)."""

    text: str
    correct: bool = False
    why: str = ""


@dataclass(frozen=True)
class Part:
    """One answerable question: ``choice`` (four options, one right), ``number`` (an exact key,
    graded within ``tolerance``), or ``short`` (a written answer; ``rubric`` says what a full
    answer contains). ``explain`` is the worked answer, shown only in a key."""

    kind: str
    prompt: str
    choices: tuple[Choice, ...] = ()
    answer: Fraction | None = None
    tolerance: Fraction = Fraction(0)
    decimals: int = 4
    explain: str = ""
    rubric: str = ""
    exact_key: bool = True

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"Part.kind must be one of {KINDS}, not {self.kind!r}")
        if self.kind == "choice":
            if len(self.choices) != 4 or sum(c.correct for c in self.choices) != 1:
                raise ValueError(f"a choice part needs four choices, one of them right: {self.prompt!r}")
            if len({c.text for c in self.choices}) != 4:
                raise ValueError(f"a choice part needs four different choices: {self.prompt!r}")
        if self.kind == "number" and not isinstance(self.answer, Fraction):
            raise ValueError(f"a number part needs a Fraction answer: {self.prompt!r}")
        if self.kind == "short" and not self.rubric:
            raise ValueError(f"a short-answer part needs a rubric: {self.prompt!r}")

    @property
    def right(self) -> int:
        """The position of the right choice (choice parts)."""
        return next(i for i, c in enumerate(self.choices) if c.correct)

    def decimal(self) -> str:
        """The numeric key as a decimal with this part's number of places (no trailing zeros for whole numbers)."""
        if self.answer.denominator == 1:
            return str(self.answer.numerator)
        return f"{float(self.answer):.{self.decimals}f}"

    def exact(self) -> str:
        """The numeric key exactly: ``947/3243`` or ``15`` (its decimal when the key is itself rounded)."""
        if not self.exact_key:
            return self.decimal()
        a = self.answer
        return str(a.numerator) if a.denominator == 1 else f"{a.numerator}/{a.denominator}"


def choice(prompt: str, right: str, wrong: dict[str, str], explain: str) -> Part:
    """A multiple-choice part: the right option, three wrong ones (each with why it is wrong)."""
    return Part("choice", prompt, (Choice(right, True, explain),) + tuple(Choice(t, False, w) for t, w in wrong.items()),
                explain=explain)


def number(prompt: str, answer, explain: str, *, decimals: int = 4, tolerance=None) -> Part:
    """A numeric part with an exact key (a ``Fraction`` or whole number), graded within one unit of
    the last decimal place unless told. A ``float`` key (a square root, a z-score) is rounded to
    ``decimals + 2`` places and shown as a decimal only."""
    exact_key = not isinstance(answer, float)
    answer = Fraction(answer) if exact_key else Fraction(f"{answer:.{decimals + 2}f}")
    if tolerance is None:
        tolerance = Fraction(0) if answer.denominator == 1 else Fraction(1, 10 ** decimals)
    return Part("number", prompt, answer=answer, tolerance=Fraction(tolerance), decimals=decimals, explain=explain,
                exact_key=exact_key)


def short(prompt: str, rubric: str) -> Part:
    """A written answer, graded by hand against ``rubric`` (what a full answer contains)."""
    return Part("short", prompt, rubric=rubric, explain=rubric)


def agree(a, b, what: str) -> None:
    """A key computed two ways must agree exactly (``Fraction``) or to 1e-9 (floats)."""
    if isinstance(a, float) or isinstance(b, float):
        ok = abs(float(a) - float(b)) <= 1e-9 * max(1.0, abs(float(a)))
    else:
        ok = a == b
    if not ok:
        raise AssertionError(f"{what}: {a!r} computed one way, {b!r} the other")


@dataclass(frozen=True)
class Item:
    """A quiz item: its id (``Q03.2``), lesson, the learning goals it assesses (numbered as in
    the lesson), a title, and how to build it from one parameter set of ``space``."""

    id: str
    lesson: str
    goals: tuple[int, ...]
    title: str
    build: Callable = field(repr=False, compare=False)
    space: tuple = ((),)
    varies: str = ""

    def question(self, seed: int, version: int) -> "Question":
        """This item in version ``version`` (1, 2, ...) of a quiz made with ``seed``."""
        order = list(range(len(self.space)))
        random.Random(f"{seed}|{self.id}").shuffle(order)
        params = tuple(self.space[order[(version - 1) % len(self.space)]])
        return self.make(params, version)

    def make(self, params: tuple, version: int = 0) -> "Question":
        stem, parts = _built(self, tuple(params))
        return Question(self, version, params, stem, parts)

    def sample(self) -> "Question":
        """The item with its first parameter set (the teacher's bank shows this one)."""
        return self.make(tuple(self.space[0]))

    @property
    def multistep(self) -> bool:
        return len(self.sample().parts) > 1


@lru_cache(maxsize=8192)
def _built(item: Item, params: tuple) -> tuple[str, tuple[Part, ...]]:
    """An item's stem and parts for one parameter set, built once: parts are immutable, and some
    keys take a tenth of a second to count."""
    stem, parts = item.build(*params)
    return stem, tuple(parts)


@dataclass(frozen=True)
class Question:
    """An item as one version shows it: its parameters, stem and parts (choices in version order)."""

    item: Item
    version: int
    params: tuple
    stem: str
    parts: tuple[Part, ...]


@dataclass(frozen=True)
class Version:
    """One version of a quiz: the questions in bank order, choice parts' options in a seeded,
    balanced order (each letter is right for a quarter of the choice parts, give or take one)."""

    seed: int
    number: int
    questions: tuple[Question, ...]

    def choice_letters(self) -> list[str]:
        """The right letter of every choice part, in order."""
        return [LETTERS[p.right] for q in self.questions for p in q.parts if p.kind == "choice"]


def make_version(items, seed: int, number: int) -> Version:
    """Version ``number`` of a quiz of ``items`` made with ``seed``: each item's parameters for
    this version, and every choice part's options reordered so that the right answers fall on
    A, B, C and D equally often (a seeded shuffle of a balanced list of letters)."""
    questions = [item.question(seed, number) for item in items]
    slots = [(i, j) for i, q in enumerate(questions) for j, p in enumerate(q.parts) if p.kind == "choice"]
    letters = [k % len(LETTERS) for k in range(len(slots))]
    random.Random(f"{seed}|{number}|letters").shuffle(letters)
    where = dict(zip(slots, letters, strict=True))
    out = []
    for i, q in enumerate(questions):
        parts = []
        for j, p in enumerate(q.parts):
            if p.kind == "choice":
                wrong = [c for c in p.choices if not c.correct]
                random.Random(f"{seed}|{number}|{q.item.id}|{j}").shuffle(wrong)
                right = next(c for c in p.choices if c.correct)
                wrong.insert(where[i, j], right)
                p = replace(p, choices=tuple(wrong))
            parts.append(p)
        out.append(replace(q, parts=tuple(parts)))
    return Version(seed, number, tuple(out))
