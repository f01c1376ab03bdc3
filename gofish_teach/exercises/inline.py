"""The lessons' "Check your understanding" questions: short coding checks inside the lessons.

They are checked exactly as the exercises are (:func:`~.checking.check`, one child process per
case, a per-case report). A lesson has a stub cell the learner fills in and a check cell::

    from gofish_teach.exercises import check
    check("L02-expected-pairs", expected_pairs)

:data:`INLINE` is the registry, in lesson order; :func:`~gofish_teach.exercises.get_exercise`
finds these ids too. Each entry's expected answers come from a reference function, kept in
:data:`REFERENCES` (the answer key, and what tests/test_course.py runs to show every check
passes). The checks themselves live in one module per group of lessons, imported at the bottom
of this one in lesson order (:mod:`.inline_counting`, lessons 00-03; :mod:`.inline_inference`,
04-05; :mod:`.inline_testing`, 06-07; :mod:`.inline_bestplay`, 08; :mod:`.inline_opponents`, 09). To add one, write the
reference in its lesson's module and call :func:`inline` below the others; arguments and
answers are plain values (ints, strings, lists, dicts, ``Fraction``). Give each a ``hidden``
maker too: the check cell then runs 5 hidden cases, new random inputs each run whose answers it
never prints (:mod:`.checking`), so a table of the printed answers does not pass.

In the lesson notebooks the stub cell and the check cell carry the cell tag
``check-understanding``; tests/test_course.py finds the ids in the check cells' ``check("...")``
calls and wants at least two per lesson.

>>> [ex.id for ex in INLINE][:2]
['L00-p-at-least-one', 'L00-count-asks']
>>> report = run_check("L02-expected-pairs", REFERENCES["L02-expected-pairs"])
>>> report.passed == report.total
True
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable

from .chances import ExactNumber
from .checking import Case, Exercise, run_check

#: Every inline check, in lesson order.
INLINE: list[Exercise] = []
#: The reference solution of each inline check, by id.
REFERENCES: dict[str, Callable] = {}


class ExactList(ExactNumber):
    """A list of exact answers, compared item by item as :class:`~.chances.ExactNumber` does."""

    def compare(self, expected, returned):
        if not isinstance(returned, list):
            return False, f"return a list of {len(expected)} Fractions, not a {type(returned).__name__}"
        if len(returned) != len(expected):
            return False, f"return a list of {len(expected)} values, not {len(returned)}"
        for k, (want, got) in enumerate(zip(expected, returned)):
            right, hint = super().compare(want, got)
            if not right:
                return False, f"item {k} is wrong" + (f": {hint}" if hint else "")
        return True, ""

    def show(self, value):
        return Exercise.show(self, value)


def inline(id: str, reference: Callable, calls, *, title: str, lesson: str, goal: str,
           kind: type[Exercise] = Exercise, hidden: Callable | None = None, n_hidden: int = 5) -> Exercise:
    """Register an inline check: ``calls`` is a list of ``(args, note)`` (or ``(args, kwargs, note)``).

    The expected answer of each case is ``reference(*args, **kwargs)``; ``kind`` chooses how
    answers are compared (:class:`Exercise`: equal and of the same type; :class:`~.chances.ExactNumber`,
    :class:`ExactList` or :class:`~.chances.ExactProbability`: exact, with a hint for a float).
    ``hidden(rng)`` makes one random call, ``(args, kwargs)``: the check cell runs ``n_hidden``
    of them, new each run, none of them a public case (so a table of the printed answers fails
    every one), and the grader makes its own from its secret seed.
    """
    function = reference.__name__.removesuffix("_reference")

    def make_case(args, kwargs, note):
        shown = ", ".join([repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()])
        return Case(tuple(args), reference(*args, **kwargs), f"{function}({shown})", kwargs=dict(kwargs), note=note)

    def make_cases():
        return [make_case(*(call if len(call) == 3 else (call[0], {}, call[1]))) for call in calls]

    def make_hidden(rng):
        seen = {c.shown for c in make_cases()}
        cases = []
        for _ in range(200 * n_hidden):
            if len(cases) == n_hidden:
                break
            args, kwargs = hidden(rng)
            case = make_case(args, kwargs, "")
            if case.shown not in seen:
                seen.add(case.shown)
                cases.append(case)
        return cases

    if any(ex.id == id for ex in INLINE):
        raise ValueError(f"inline check {id!r} is registered twice")
    ex = kind(id, function, title, lesson, goal, make_cases=make_cases,
              make_hidden=make_hidden if hidden else None, hidden_in_check=n_hidden if hidden else 0)
    INLINE.append(ex)
    REFERENCES[id] = reference
    return ex


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
        if any(isinstance(x, float) for x in returned):
            return False, "return exact fractions.Fraction values, not floats"
        if any(isinstance(x, bool) or not isinstance(x, (Fraction, int)) for x in returned):
            return False, "every value should be a fractions.Fraction"
        return list(returned) == list(expected), ""

    def show(self, value):
        if isinstance(value, (list, tuple)) and all(isinstance(x, Fraction) for x in value):
            return "[" + ", ".join(str(x) for x in value) + "]"
        return super().show(value)


# Each lesson group's checks live in a module of its own (this file would pass 600 lines); importing
# them here, after the registry and its helpers exist, registers them in lesson order. They import
# ``inline`` and the helpers from this module, so these imports must stay at the bottom.
from . import inline_counting, inline_inference, inline_testing, inline_bestplay  # noqa: E402,F401  (00-08)
from . import inline_opponents  # noqa: E402,F401  (09)

__all__ = ["INLINE", "REFERENCES", "ExactFractions", "ExactList", "ExactNumber", "inline", "run_check"]
