"""The check cell's engine: run a learner's function on every case of an exercise, compare, report.

Each case is one call. It runs in its own child process (see :mod:`.sandbox`) with a time
and a memory limit, so an exception, an endless loop or a memory hog is reported as such
and the notebook carries on. The report prints, for every case, what was tried, what was
expected and what came back.

>>> from gofish_teach.exercises import run_check
>>> def deal(deck, n_players, hand_size):
...     raise NotImplementedError("write deal")
>>> report = run_check("01-deal", deal)
>>> report.passed, report.total, report.status, report.stub
(0, 6, 'error', True)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from . import sandbox

#: How a report's status is chosen: the worst thing any case did.
STATUS_ORDER = ("ok", "error", "memory", "timeout")


@dataclass
class Case:
    """One call to try: ``args``/``kwargs``, the ``expected`` answer, and ``shown``, the call as text.

    ``note`` (optional) is printed under the call: what the case is about.
    """

    args: tuple
    expected: object
    shown: str
    kwargs: dict = field(default_factory=dict)
    note: str = ""


@dataclass
class Exercise:
    """An exercise's check: its cases, how answers are compared and shown.

    Subclasses (or instances) provide :meth:`cases` and may override :meth:`compare`
    (``-> (right, hint)``), :meth:`show` and :meth:`run_case`.
    """

    id: str
    function: str
    title: str
    lesson: str
    goal: str
    time_limit: float = sandbox.TIME_LIMIT
    make_cases: Callable[[], list[Case]] | None = None

    def cases(self) -> list[Case]:
        """The cases, made once per process (some take a moment: they play games)."""
        made = self.__dict__.get("_cases")
        if made is None:
            made = self.__dict__["_cases"] = self.make_cases()
        return made

    def compare(self, expected, returned) -> tuple[bool, str]:
        """``(right, hint)``: whether ``returned`` counts as ``expected``; the hint says why not."""
        return returned == expected and type(returned) is type(expected), ""

    def show(self, value) -> str:
        return _short(repr(value))

    def show_expected(self, case: Case) -> str:
        return self.show(case.expected)

    def run_case(self, func, case: Case) -> sandbox.Outcome:
        """Call the learner's ``func`` on ``case`` in a child process."""
        return sandbox.call(func, case.args, case.kwargs, time_limit=self.time_limit)


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

    @property
    def passed(self) -> int:
        return sum(r.right for r in self.results)

    @property
    def status(self) -> str:
        if self.missing:
            return "error"
        seen = [r.outcome.status for r in self.results] or ["ok"]
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
        if self.stub:
            lines.append(f"NOTE: {ex.function}() still raises NotImplementedError: that is the stub. Replace the "
                         "line `raise NotImplementedError(...)` with your code, run that cell, then run this one again.")
        for k, r in enumerate(self.results, 1):
            lines.append(f"Case {k}: {r.case.shown}")
            if r.case.note:
                lines.append(f"  ({r.case.note})")
            lines.append(f"  expected: {ex.show_expected(r.case)}")
            lines.append(f"  returned: {_returned(ex, r.outcome)}")
            if r.outcome.output.strip():
                lines.append("  printed:  " + _short(r.outcome.output.strip()).replace("\n", "\n            "))
            verdict = "right" if r.right else "WRONG" + (f": {r.hint}" if r.hint else "")
            lines.append(f"  -> {verdict}")
        skipped = self.total - len(self.results)
        if skipped:
            lines.append(f"The other {skipped} case(s) were not run: the last one ran out of time, and each would "
                         "wait as long again. Fix the endless loop first.")
        lines.append(f"Result: {self.passed} of {self.total} cases right." +
                     (" Well done!" if self.passed == self.total else ""))
        return "\n".join(lines)

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
    results = []
    for case in cases:
        outcome = ex.run_case(func, case)
        right, hint = False, ""
        if outcome.status == "ok":
            try:
                right, hint = ex.compare(case.expected, outcome.value)
            except Exception as e:  # a strange returned value must not break the check
                right, hint = False, f"could not compare it: {type(e).__name__}: {e}"
        results.append(CaseResult(case, outcome, bool(right), hint))
        if outcome.status == "timeout":
            break
    return Report(ex, results, len(cases))


def check(exercise, func, *, time_limit: float | None = None) -> None:
    """Check ``func`` against ``exercise`` and print the report: what the check cell calls."""
    print(run_check(exercise, func, time_limit=time_limit).text())


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
            return _short(sandbox._safe_repr(outcome.value))
    if outcome.exception == "NotImplementedError":
        return "raised NotImplementedError (the stub is still there)"
    if outcome.status == "error":
        where = _last_line_of_learner(outcome.traceback)
        return f"raised {outcome.error}" + (f" ({where})" if where else "")
    if outcome.status == "memory":
        return f"nothing: it ran out of memory ({outcome.error})"
    return f"nothing: stopped, {outcome.error}"


def _last_line_of_learner(trace: str) -> str:
    """``line 3, in deal`` from the deepest frame of the traceback, if any."""
    frames = [line.strip() for line in trace.splitlines() if line.strip().startswith("File ")]
    if not frames:
        return ""
    last = frames[-1]
    return last.split(", ", 1)[1] if ", " in last else last


def _short(text: str, limit: int = 400) -> str:
    return text if len(text) <= limit else text[:limit] + " ..."
