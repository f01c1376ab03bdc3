"""The lessons' "Check your understanding" questions: short coding checks inside the lessons.

They are checked exactly as the exercises are (:func:`~.checking.check`, one child process per
case, a per-case report). A lesson has a stub cell the learner fills in and a check cell::

    from gofish_teach.exercises import check
    check("L02-expected-pairs", expected_pairs)

:data:`INLINE` is the registry, in lesson order; :func:`~gofish_teach.exercises.get_exercise`
finds these ids too. This package holds each check's inputs and how it judges, never its
answers: each check's reference function, ``<function>_reference``, is in the teacher's key
(``solutions/key/``, :mod:`.key`), and what a check cell needs is shipped as data made from it
(:mod:`.casedata`): the public cases with their answers, and a pool of hidden cases whose answers
are sealed (salted hashes). The checks live in one module per group of lessons, imported at the
bottom of this one in lesson order (:mod:`.inline_counting`, lessons 00-03; :mod:`.inline_inference`,
04-05; :mod:`.inline_testing`, 06-07; :mod:`.inline_bestplay`, 08;
:mod:`.inline_opponents`, 09; :mod:`.inline_class`, 10).

To add one: call :func:`inline` in its lesson's module (the function's name, the public inputs,
a ``hidden`` maker of one random input, and how answers compare), write ``<function>_reference``
in a module of ``solutions/key/``, and rebuild the data (``python -m gofish_teach.exercises.casedata``).
Arguments and answers are plain values (ints, strings, lists, dicts, ``Fraction``). The check
cell then runs 5 hidden cases drawn from the pool each run, whose answers it cannot print, so a
table of the printed answers does not pass.

In the lesson notebooks the stub cell and the check cell carry the cell tag
``check-understanding``; tests/test_course.py finds the ids in the check cells' ``check("...")``
calls and wants at least two per lesson.

>>> [ex.id for ex in INLINE][:2]
['L00-p-at-least-one', 'L00-count-asks']
>>> from gofish_teach.exercises import get_exercise
>>> [case.shown for case in get_exercise("L02-expected-pairs").cases()][:2]
['expected_pairs(6)', 'expected_pairs(7)']
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable

from .chances import ExactNumber
from .checking import Case, Exercise, run_check

#: Every inline check, in lesson order.
INLINE: list[Exercise] = []
#: How many hidden cases a lesson's check cell runs, drawn from its pool each run.
N_HIDDEN = 5


class ExactList(ExactNumber):
    """A list of exact answers, compared item by item as :class:`~.chances.ExactNumber` does."""

    def compare(self, expected, returned):
        if not isinstance(returned, list):
            return False, f"return a list of {len(expected)} Fractions, not a {type(returned).__name__}"
        if len(returned) != len(expected):
            return False, f"return a list of {len(expected)} values, not {len(returned)}"
        for k, (want, got) in enumerate(zip(expected, returned, strict=True)):
            right, hint = super().compare(want, got)
            if not right:
                return False, f"item {k} is wrong" + (f": {hint}" if hint else "")
        return True, ""

    def canonical(self, value, case):
        if not isinstance(value, list):
            return None
        items = [ExactNumber.canonical(self, v, case) for v in value]
        return None if None in items else "[" + ", ".join(items) + "]"

    def shape_hint(self, value, case):
        if not isinstance(value, list):
            return f"return a list of Fractions, not a {type(value).__name__}"
        for k, v in enumerate(value):
            hint = ExactNumber.shape_hint(self, v, case)
            if hint:
                return f"item {k} is wrong: {hint}"
        return ""

    def near_misses(self, value, case):
        if isinstance(value, list) and any(isinstance(v, float) for v in value):
            exact = [_fraction_of(v) if isinstance(v, float) else v for v in value]
            return [(exact, "right values, but floats are rounded: return fractions.Fraction values")]
        return []

    def show(self, value):
        return Exercise.show(self, value)


def or_none(kind: type[Exercise], *, none: str, some: str) -> type[Exercise]:
    """``kind``'s comparison, where ``None`` is also an answer: ``none`` says why to return it, ``some`` why not."""
    class OrNone(kind):
        def compare(self, expected, returned):
            if expected is None or returned is None:
                return returned is expected, "" if returned is expected else (none if expected is None else some)
            return super().compare(expected, returned)

        def canonical(self, value, case):
            return "None" if value is None else super().canonical(value, case)

        def shape_hint(self, value, case):
            return "" if value is None else super().shape_hint(value, case)

    OrNone.__name__ = f"{kind.__name__}OrNone"
    return OrNone


def _fraction_of(x: float):
    """The simplest Fraction a float stands for (a near miss to try: the float may be a right answer, rounded)."""
    return Fraction(x).limit_denominator(10**7) if math.isfinite(x) else x


def _call_text(function: str, args, kwargs) -> str:
    return f"{function}(" + ", ".join([repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]) + ")"


def inline(id: str, function: str, calls, *, title: str, lesson: str, goal: str,
           kind: type[Exercise] = Exercise, hidden: Callable | None = None, n_hidden: int = N_HIDDEN) -> Exercise:
    """Register an inline check of ``function``: ``calls`` is a list of ``(args, note)`` (or ``(args, kwargs, note)``).

    Each public case's answer is the key's ``<function>_reference(*args, **kwargs)``; ``kind``
    chooses how answers are compared (:class:`Exercise`: equal and of the same type;
    :class:`~.chances.ExactNumber`, :class:`ExactList` or :class:`~.chances.ExactProbability`:
    exact, with a hint for a float). ``hidden(rng)`` makes one random call, ``(args, kwargs)``:
    the pool the check cell draws its ``n_hidden`` hidden cases from is made of such calls, none
    of them a public case (so a table of the printed answers fails every one), and the grader
    would make its own from its secret seed.
    """
    def make_case(args, kwargs, note):
        return Case(tuple(args), None, _call_text(function, args, kwargs), kwargs=dict(kwargs), note=note)

    def make_inputs():
        return [make_case(*(call if len(call) == 3 else (call[0], {}, call[1]))) for call in calls]

    def draw(rng):
        args, kwargs = hidden(rng)
        return make_case(args, kwargs, "")

    def make_hidden(rng):
        return unique_draws(ex, rng, n_hidden)

    if any(ex.id == id for ex in INLINE):
        raise ValueError(f"inline check {id!r} is registered twice")
    ex = kind(id, function, title, lesson, goal, make_inputs=make_inputs, make_hidden=make_hidden if hidden else None,
              hidden_in_check=n_hidden if hidden else 0, draw=draw if hidden else None)
    INLINE.append(ex)
    return ex


def unique_draws(ex: Exercise, rng, n: int, tries_each: int = 200) -> list[Case]:
    """Up to ``n`` inputs of ``ex.draw(rng)``, no two alike and none a public case (few inputs may exist)."""
    seen = {c.shown for c in ex.make_inputs()}
    cases: list[Case] = []
    for _ in range(tries_each * n):
        if len(cases) == n:
            break
        case = ex.draw(rng)
        if case.shown not in seen:
            seen.add(case.shown)
            cases.append(case)
    return cases


def whole(rng, low, high) -> int:
    """A whole number from low to high, both included."""
    return int(rng.integers(low, high + 1))


def fraction_between(rng, most=20, low=0, high=1) -> Fraction:
    """A random fraction from low to high (both included), denominator at most ``most``."""
    d = whole(rng, 1, most)
    return Fraction(whole(rng, math.ceil(low * d), math.floor(high * d)), d)


RANK_NAMES = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


class ExactFractions(Exercise):
    """A list of exact numbers (``Fraction`` or ``int``), compared item by item."""

    def compare(self, expected, returned):
        if not isinstance(returned, (list, tuple)):
            return False, f"return a list of Fractions, not a {type(returned).__name__}"
        if len(returned) != len(expected):
            return False, f"return one value per hypothesis: {len(expected)}, not {len(returned)}"
        hint = self.shape_hint(returned, None)
        if hint:
            return False, hint
        return list(returned) == list(expected), ""

    def shape_hint(self, value, case):
        if not isinstance(value, (list, tuple)):
            return f"return a list of Fractions, not a {type(value).__name__}"
        if any(isinstance(x, float) for x in value):
            return "return exact fractions.Fraction values, not floats"
        if any(isinstance(x, bool) or not isinstance(x, (Fraction, int)) for x in value):
            return "every value should be a fractions.Fraction"
        return ""

    def canonical(self, value, case):
        if self.shape_hint(value, case):
            return None
        return "[" + ", ".join(str(Fraction(x)) for x in value) + "]"

    def show(self, value):
        if isinstance(value, (list, tuple)) and all(isinstance(x, Fraction) for x in value):
            return "[" + ", ".join(str(x) for x in value) + "]"
        return super().show(value)


# Each lesson group's checks live in a module of its own (this file would pass 600 lines); importing
# them here, after the registry and its helpers exist, registers them in lesson order. They import
# ``inline`` and the helpers from this module, so these imports must stay at the bottom, in this order.
# isort: off
from . import inline_counting, inline_inference, inline_testing, inline_bestplay  # noqa: E402,F401  (00-08)
from . import inline_opponents, inline_class  # noqa: E402,F401  (09, 10)
# isort: on

__all__ = ["INLINE", "ExactFractions", "ExactList", "ExactNumber", "inline", "or_none", "unique_draws", "run_check"]
