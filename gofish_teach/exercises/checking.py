"""The check cell's engine: run a learner's function on every case of an exercise, compare, report.

Each case is one call. It runs in its own child process (see :mod:`.sandbox`) with a time
and a memory limit, so an exception, an endless loop or a memory hog is reported as such
and the notebook carries on. The child sends back only a plain value (:mod:`.plain`: JSON,
never an object of the learner's), and this side type-checks and compares it, so an object
that claims to equal everything, or a NaN, fails. The report prints, for every case, what
was tried, what was expected and what came back.

**No answer on the learner's side.** This package holds no reference answer. An exercise here
knows its inputs (:attr:`Exercise.make_inputs`, and :attr:`Exercise.make_hidden` for random
ones) and how to judge an answer; the answers themselves are the teacher's key
(``solutions/key/``, loaded by :mod:`.key`), which never ships. What a check cell needs is
shipped as data (:mod:`.casedata`): the public cases with their expected answers (the report
prints them anyway), and for the lessons' checks a pool of hidden cases that hold, instead of
an answer, salted hashes of every form of it the check accepts (:func:`seal`).

The grader uses the same pieces across a sandbox (:mod:`gofish_teach.grade`): its child
process calls :meth:`Exercise.call` on each case's :meth:`Exercise.wire` and prints the plain
value; the grader judges it with :meth:`Exercise.judge`. Its cases come from the key: the
public ones, and hidden ones made from a seed only the grader knows (:meth:`.key.Key.hidden_cases`).

The lessons' checks (:mod:`.inline`, ``hidden_in_check`` > 0) run hidden cases in the check cell
too: a few drawn at random from the shipped pool each run (:mod:`secrets`), so nothing in the
notebook can predict which. Their answers are not in the pool to print: a hidden case shows its
input and what came back only when it is wrong, so a table of the printed answers fails them.
While the function is still the stub, the report shows no expected answer at all.

>>> from gofish_teach.exercises import run_check
>>> def deal(deck, n_players, hand_size):
...     raise NotImplementedError("write deal")
>>> report = run_check("01-deal", deal)
>>> report.passed, report.total, report.status, report.stub
(0, 6, 'error', True)
"""
from __future__ import annotations

import hashlib
import json
import re
import secrets
import zlib
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from . import plain, sandbox

#: How a report's status is chosen: the worst thing any case did.
STATUS_ORDER = ("ok", "error", "memory", "timeout")


class _Sealed:
    """The ``expected`` of a sealed case: its answer is not here, only hashes of it."""

    def __repr__(self) -> str:
        return "<sealed>"


#: The ``expected`` of a case whose answer is sealed (:attr:`Case.hashes`).
SEALED = _Sealed()


def seal(salt: str, form: str) -> str:
    """The salted hash of one accepted form of an answer (:meth:`Exercise.forms`), as the pool stores it.

    >>> seal("a1", "10/17") == seal("a1", "10/17") != seal("a2", "10/17")
    True
    """
    return hashlib.sha256(f"{salt}\n{form}".encode()).hexdigest()[:32]


@dataclass
class Case:
    """One call to try: ``args``/``kwargs``, the ``expected`` answer, and ``shown``, the call as text.

    ``note`` (optional) is printed under the call: what the case is about. ``wire`` (optional)
    is how the call travels to the learner's process as plain data, when its arguments are
    not plain (a position, a strategy): :meth:`Exercise.call` turns it back into arguments.
    An input made by this package has ``expected`` None until the key fills it in; a hidden
    case of the shipped pool is sealed: ``expected`` is :data:`SEALED`, and ``hashes`` holds
    :func:`seal` of each form of the answer the check accepts, with the case's own ``salt``.
    """

    args: tuple
    expected: object
    shown: str
    kwargs: dict = field(default_factory=dict)
    note: str = ""
    wire: object = None
    salt: str = ""
    hashes: tuple = ()

    @property
    def sealed(self) -> bool:
        return self.expected is SEALED


@dataclass
class Exercise:
    """An exercise's check: its inputs, how answers are compared and shown; never its answers.

    ``make_inputs()`` makes the public cases' inputs (``expected`` None; the key fills it in,
    :mod:`.key`), ``make_hidden(rng)`` the inputs of hidden cases; ``draw(rng)`` (the lessons'
    checks) one random input, from which the shipped pool of sealed hidden cases is made.
    :meth:`cases` are the public cases as shipped (:mod:`.casedata`). Subclasses (or instances)
    may override :meth:`compare` (``-> (right, hint)``), :meth:`show`, :meth:`call` and
    :meth:`unwire`, and for sealed cases :meth:`canonical` (and :meth:`forms`, :meth:`near_misses`).
    ``keyed`` is False for a check that needs no answer (the capstone replays its game).
    """

    id: str
    function: str
    title: str
    lesson: str
    goal: str
    time_limit: float = sandbox.TIME_LIMIT
    make_inputs: Callable[[], list[Case]] | None = None
    make_hidden: Callable[[np.random.Generator], list[Case]] | None = None
    #: How many hidden cases the check cell runs (drawn from the shipped pool each run); 0: only the grader's.
    hidden_in_check: int = 0
    draw: Callable[[np.random.Generator], Case] | None = None
    keyed: bool = True

    def cases(self) -> list[Case]:
        """The public cases with their answers, as shipped (:mod:`.casedata`), read once per process."""
        made = self.__dict__.get("_cases")
        if made is None:
            from . import casedata

            made = self.__dict__["_cases"] = casedata.public(self)
        return made

    def seed_key(self) -> int:
        """The exercise's part of a hidden seed: its number (``"07-p-lucky"``), or a hash of a lesson check's id."""
        head = self.id[:2]
        return int(head) if head.isdigit() else zlib.crc32(self.id.encode())

    def check_hidden_cases(self) -> list[Case]:
        """The hidden cases a check cell runs: ``hidden_in_check`` sealed cases of the shipped pool, drawn
        afresh each call from a source no notebook can predict (:mod:`secrets`)."""
        if self.hidden_in_check <= 0:
            return []
        from . import casedata

        pool = casedata.pool(self)
        return secrets.SystemRandom().sample(pool, min(self.hidden_in_check, len(pool)))

    def wire(self, case: Case):
        """The call as plain data, for the learner's process."""
        if case.wire is not None:
            return case.wire
        return {"args": plain.encode(list(case.args)), "kwargs": plain.encode(dict(case.kwargs))}

    def unwire(self, wire) -> tuple[tuple, dict]:
        """``(args, kwargs)`` from :meth:`wire`'s data: what the learner's process calls the function with."""
        return tuple(plain.decode(wire["args"])), plain.decode(wire["kwargs"])

    def call(self, func, wire):
        """Run in the learner's process: call ``func`` on the case; what it returns is sent back as plain data."""
        args, kwargs = self.unwire(wire)
        return func(*args, **kwargs)

    def judge(self, case: Case, returned) -> tuple[bool, str]:
        """``(right, hint)`` for a plain value that came back; a value that is not plain always fails."""
        if isinstance(returned, plain.Unsupported):
            return False, (f"it returned {plain.describe(returned)}, which the check cannot accept: return plain "
                           f"values (lists, tuples, strings, numbers{', Fractions' if self.exact else ''})")
        try:
            right, hint = self.judge_sealed(case, returned) if case.sealed else self.compare_case(case, returned)
        except Exception as e:  # a strange returned value must not break the check
            return False, f"could not compare it: {type(e).__name__}: {e}"
        return bool(right) is True and right is not NotImplemented, hint

    # ---------------------------------------------------------------- sealed cases: answers as hashes
    def canonical(self, value, case: Case) -> str | None:
        """The one text that every answer this check counts as the same has; None for a value it can
        never accept (then :meth:`shape_hint` says why). By default: the type and the plain value,
        as :meth:`compare` wants the same type and an equal value."""
        return f"{type(value).__name__}:{json.dumps(plain.encode(value), sort_keys=True)}"

    def forms(self, case: Case) -> list[str]:
        """Every canonical form :meth:`compare` accepts for ``case.expected``: hashed into the pool by the
        teacher's build (:mod:`.casedata`). One, unless the check allows a tolerance or several answers."""
        return [self.canonical(case.expected, case)]

    def shape_hint(self, value, case: Case) -> str:
        """Why a value of this type or shape cannot be right (a sealed case's hint, which needs no answer)."""
        return ""

    def near_misses(self, value, case: Case) -> list[tuple[object, str]]:
        """``(another value, hint)``: if that value is right, the hint says what ``value`` got wrong."""
        return []

    def judge_sealed(self, case: Case, returned) -> tuple[bool, str]:
        """``(right, hint)`` for a sealed case: right when the returned value's canonical form is one of
        those hashed; the hints are those that need no answer (a type, a shape, a near miss)."""
        form = self.canonical(returned, case)
        if form is not None and seal(case.salt, form) in case.hashes:
            return True, ""
        for value, hint in self.near_misses(returned, case):
            try:
                other = self.canonical(value, case)
            except Exception:  # noqa: BLE001 - a near miss that cannot be formed is no near miss
                continue
            if other is not None and seal(case.salt, other) in case.hashes:
                return False, hint
        return False, self.shape_hint(returned, case)

    #: Whether answers are exact Fractions (for the messages).
    exact = False

    def compare_case(self, case: Case, returned) -> tuple[bool, str]:
        """:meth:`compare` with the whole case at hand (for checks that need its arguments)."""
        return self.compare(case.expected, returned)

    def compare(self, expected, returned) -> tuple[bool, str]:
        """``(right, hint)``: whether ``returned`` counts as ``expected``; the hint says why not."""
        if type(returned) is not type(expected):
            return False, f"expected {plain.describe(expected)}, and it returned {plain.describe(returned)}"
        return returned == expected, ""

    def show(self, value) -> str:
        return _short(repr(value))

    def show_expected(self, case: Case) -> str:
        return self.show(case.expected)

    def run_case(self, func, case: Case) -> sandbox.Outcome:
        """Call the learner's ``func`` on ``case`` in a child process; its value comes back plain."""
        return sandbox.call(self.call, (func, self.wire(case)), time_limit=self.time_limit)


@dataclass
class CaseResult:
    case: Case
    outcome: sandbox.Outcome
    right: bool
    hint: str = ""


@dataclass
class Report:
    """The result of checking one function against one exercise.

    ``passed`` of ``total`` cases were right; ``status`` is ``ok`` (every case returned an
    answer, right or wrong), ``error`` (some case raised, the stub included), ``memory`` or
    ``timeout``; ``stub`` is True while the function still raises ``NotImplementedError``.
    """

    exercise: Exercise
    results: list[CaseResult]
    total: int
    missing: str = ""
    stale: str = ""
    #: The hidden cases run (lesson checks): ``hidden_total`` of them, none while the function is the stub.
    hidden_results: list[CaseResult] = field(default_factory=list)
    hidden_total: int = 0

    @property
    def passed(self) -> int:
        return sum(r.right for r in self.results)

    @property
    def hidden_passed(self) -> int:
        return sum(r.right for r in self.hidden_results)

    @property
    def status(self) -> str:
        if self.missing:
            return "error"
        seen = [r.outcome.status for r in self.results + self.hidden_results] or ["ok"]
        return max(seen, key=STATUS_ORDER.index)

    @property
    def stub(self) -> bool:
        return any(r.outcome.exception == "NotImplementedError" for r in self.results)

    def text(self) -> str:
        """The report as the check cell prints it."""
        ex = self.exercise
        lines = [f"Checking {ex.function}() for exercise {ex.id}: {ex.title}."]
        if self.missing:
            return "\n".join(lines + [self.missing])
        if self.stale:
            lines.append(f"NOTE: {self.stale}")
        if self.stub:
            lines.append(f"NOTE: {ex.function}() still raises NotImplementedError: that is the stub. Replace the "
                         "line `raise NotImplementedError(...)` with your code, run that cell, then run this one again.")
            if ex.hidden_in_check:
                lines.append("The cases it is checked on (each answer is shown once your function returns one):")
        for k, r in enumerate(self.results, 1):
            lines.append(f"Case {k}: {r.case.shown}")
            if r.case.note:
                lines.append(f"  ({r.case.note})")
            if ex.hidden_in_check and r.outcome.exception == "NotImplementedError":
                continue  # the stub: the case, its answer kept back until the function returns one (see NOTE)
            lines.append(f"  expected: {ex.show_expected(r.case)}")
            lines += _what_came_back(ex, r)
        skipped = self.total - len(self.results)
        if skipped:
            lines.append(f"The other {skipped} case(s) were not run: the last one ran out of time, and each would "
                         "wait as long again. Fix the endless loop first.")
        lines += self._hidden_text()
        everything = self.passed == self.total and self.hidden_passed == self.hidden_total
        hidden = f", and {self.hidden_passed} of {self.hidden_total} hidden cases" if self.hidden_total else ""
        lines.append(f"Result: {self.passed} of {self.total} cases right{hidden}." +
                     (" Well done!" if everything and not self.stale else ""))
        return "\n".join(lines)

    def _hidden_text(self) -> list[str]:
        ex = self.exercise
        if not ex.hidden_in_check:
            return []
        if not self.hidden_total:
            return [f"Then {ex.hidden_in_check} hidden cases, drawn at random each run: their answers are not in your "
                    "copy (only hashes of them) and are never shown. They run once your function returns answers."]
        lines = []
        for k, r in enumerate(self.hidden_results, 1):
            if not r.right:
                lines.append(f"Hidden case {k}: {r.case.shown}")
                lines += _what_came_back(ex, r)
        if len(self.hidden_results) < self.hidden_total:
            lines.append(f"The other {self.hidden_total - len(self.hidden_results)} hidden case(s) were not run: the "
                         "last one ran out of time. Fix the endless loop first.")
        lines.append(f"Hidden cases (drawn at random each run, answers never shown): {self.hidden_passed} of "
                     f"{self.hidden_total} right" + ("." if self.hidden_passed == self.hidden_total else
                                                     ": each wrong one is shown above with what came back."))
        return lines

    def __repr__(self) -> str:
        return f"<Report {self.exercise.id}: {self.passed} of {self.total} right, status {self.status}>"


def run_check(exercise, func, *, time_limit: float | None = None) -> Report:
    """Check ``func`` against every case of ``exercise`` (an :class:`Exercise` or its id).

    After a case runs out of time the rest are not run (each would wait as long again).
    """
    from . import get_exercise

    ex = get_exercise(exercise)
    if time_limit is not None:
        ex = _with_time_limit(ex, time_limit)
    cases = ex.cases()
    if not callable(func):
        return Report(ex, [], len(cases), missing=f"There is no function to check: got {func!r}. Define "
                                                  f"{ex.function}(...) in a cell above and run that cell first.")
    results = _run_cases(ex, func, cases)
    report = Report(ex, results, len(cases))
    if ex.hidden_in_check and len(results) == len(cases) and not report.stub:
        hidden = ex.check_hidden_cases()
        report.hidden_results, report.hidden_total = _run_cases(ex, func, hidden), len(hidden)
    return report


def _run_cases(ex: Exercise, func, cases: list[Case]) -> list[CaseResult]:
    results = []
    for case in cases:
        outcome = ex.run_case(func, case)
        right, hint = ex.judge(case, outcome.value) if outcome.status == "ok" else (False, "")
        results.append(CaseResult(case, outcome, right, hint))
        if outcome.status == "timeout":
            break
    return results


def _what_came_back(ex: Exercise, r: CaseResult) -> list[str]:
    lines = [f"  returned: {_returned(ex, r.outcome)}"]
    if r.outcome.output.strip():
        lines.append("  printed:  " + _short(r.outcome.output.strip()).replace("\n", "\n            "))
    verdict = ("right" + (f" ({r.hint})" if r.hint else "")) if r.right else "WRONG" + (f": {r.hint}" if r.hint else "")
    lines.append(f"  -> {verdict}")
    return lines


def check(exercise, func, *, time_limit: float | None = None) -> None:
    """Check ``func`` against ``exercise`` and print the report: what the check cell calls."""
    report = run_check(exercise, func, time_limit=time_limit)
    report.stale = _stale(report.exercise.function)
    print(report.text())


# In a notebook, the function in the kernel may be older than the cell that defines it: a cell
# whose new version raised (a SyntaxError, say) leaves the last good version defined. So note,
# after every cell, which functions it meant to define and whether it ran through.
_DEFINED: dict[str, str] = {}


def _remember(result) -> None:
    import re

    source = getattr(getattr(result, "info", None), "raw_cell", "") or ""
    error = result.error_before_exec or result.error_in_exec
    for name in re.findall(r"^\s*def\s+([A-Za-z_]\w*)\s*\(", source, re.M):
        _DEFINED[name] = f"{type(error).__name__}: {error}" if error is not None else ""


def _stale(function: str) -> str:
    error = _DEFINED.get(function)
    if not error:
        return ""
    return (f"the cell that defines {function}() raised {error[:200]} when it last ran, so the {function}() "
            "checked here is an older version still in memory. Fix that cell, run it, then run this one again.")


def _watch_cells() -> None:
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is not None and _remember not in shell.events.callbacks.get("post_run_cell", []):
        shell.events.register("post_run_cell", _remember)


_watch_cells()


def _with_time_limit(ex: Exercise, seconds: float) -> Exercise:
    import copy

    ex = copy.copy(ex)
    ex.time_limit = seconds
    return ex


def _returned(ex: Exercise, outcome: sandbox.Outcome) -> str:
    if outcome.status == "ok":
        try:
            return ex.show(outcome.value)
        except Exception:  # a value the exercise's display does not expect: show it plainly
            return _short(sandbox.safe_repr(outcome.value))
    if outcome.exception == "NotImplementedError":
        return "raised NotImplementedError (the stub is still there)"
    if outcome.status == "error":
        where = _last_line_of_learner(outcome.traceback)
        return f"raised {outcome.error}" + (f" ({where})" if where else "")
    if outcome.status == "memory":
        return f"nothing: it ran out of memory ({outcome.error})"
    return f"nothing: stopped, {outcome.error}"


def _last_line_of_learner(trace: str) -> str:
    """``line 3, in deal``: the deepest frame of the traceback in the learner's own code.

    An error raised inside Python or a library the learner called (``Fraction(1, 0)`` raises in
    fractions.py) names the learner's line that called it, and the module it came from.
    """
    frames = re.findall(r'^\s*File "([^"]*)", (line \d+, in .+)$', trace, re.M)
    if not frames:
        return ""
    theirs = [(path, where) for path, where in frames if not _not_theirs(path)]
    if not theirs:
        return frames[-1][1]
    path, where = theirs[-1]
    inner = frames[-1][0]
    if inner != path:
        return f"{where}, in a call into {_module_name(inner)}"
    return where


def _not_theirs(path: str) -> bool:
    """Whether a traceback's file is Python's own, an installed library's or this kit's, not the learner's."""
    import os
    import sysconfig

    if path.startswith("<frozen "):
        return True
    real = os.path.realpath(path)
    roots = {os.path.realpath(sysconfig.get_path(name)) for name in ("stdlib", "platstdlib", "purelib", "platlib")}
    roots.add(os.path.realpath(os.path.dirname(os.path.dirname(__file__))))  # gofish_teach itself
    return any(real == root or real.startswith(root + os.sep) for root in roots)


def _module_name(path: str) -> str:
    import os
    import sysconfig

    real = os.path.realpath(path)
    stdlib = os.path.realpath(sysconfig.get_path("stdlib"))
    name = os.path.basename(path)
    return f"Python's {name}" if real.startswith(stdlib + os.sep) and "site-packages" not in real else name


def _short(text: str, limit: int = 400) -> str:
    return text if len(text) <= limit else text[:limit] + " ..."
