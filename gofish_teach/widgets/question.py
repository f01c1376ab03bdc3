"""Predict first: a question the learner answers in the notebook before the reveal.

A :class:`Question` is multiple choice (``choices``, the right one, and why each usual wrong
one is wrong) or a number (the answer and a tolerance; "0.25", "1/4" and "25%" all work).
Its feedback comes from one pure method, :meth:`Question.answer`, so it can be tested
without a browser; the widget only calls it and shows the result.

>>> q = Question("Is P(West holds a Queen) more or less than 1/2?",
...              choices=["more than 1/2", "about 1/2", "less than 1/2"], answer="less than 1/2",
...              explain="It is 0.37: West holds only 5 of the 47 cards you cannot see.",
...              wrong={"more than 1/2": "Four Queens feel like a lot, but most of them are elsewhere."})
>>> q.answer("C").right, q.answer("less than 1/2").right, q.answer(2).right
(True, True, True)
>>> print(q.answer("more than 1/2").text)
Not quite. Four Queens feel like a lot, but most of them are elsewhere.
The answer is C, "less than 1/2". It is 0.37: West holds only 5 of the 47 cards you cannot see.
>>> q.answer("E").status
'invalid'

>>> n = Question("P(the ocean's top card is a 7)?", answer=Fraction(2, 47), tolerance=0.005,
...              explain="Each of the 47 unseen places holds a 7 with the same chance, 2/47.",
...              wrong={Fraction(2, 32): "The sevens need not be in the ocean at all."})
>>> [n.answer(text).status for text in ("2/47", "0.0426", "4.26%", "2/32", "seven", "")]
['right', 'right', 'right', 'wrong', 'invalid', 'invalid']
>>> print(n.answer("1/0").text)
Check how the answer is written: 1/0 divides by zero. Type a number such as 0.25, 1/4 or 25%.

In a notebook, a cell that ends with the question shows it twice over: its text as plain
HTML (readable in a saved notebook that has not run), then the answer buttons or box, with
the feedback under them once the learner answers.

A lesson's question keeps the learner's first answer for good (:mod:`._first`: in
``first-answers.json`` beside the notebook), and :func:`reveal` holds back the cell that shows its
result until there is one, then shows the feedback and the lesson's prose about the result.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from fractions import Fraction
from numbers import Real

import ipywidgets as w

from . import _first, _stop
from ._answer_box import AnswerBox
from ._panes import Placeheld, stable_model_id
from ._stop import NotAnsweredYet

LETTERS = "ABCDEFGHIJ"
#: How a number may be written: "0.25", ".25", "1/4", "25%", "2.5e-1", "-3", "1,234".
_NUMBER_FORMS = "a number such as 0.25, 1/4 or 25%"
_MARKS = {"right": "Right.", "wrong": "Not quite.", "invalid": "Check how the answer is written:"}


@dataclass(frozen=True)
class Feedback:
    """What an answer gets: ``status`` is ``"right"``, ``"wrong"`` or ``"invalid"`` (malformed).

    ``text`` is the whole message, starting with a word that says which ("Right.", "Not
    quite.", "Check how the answer is written:"), so no colour or icon is needed to read it.
    """

    status: str
    text: str

    @property
    def right(self) -> bool:
        return self.status == "right"

    def html(self) -> str:
        """The feedback as HTML: the verdict word in bold, a border solid, dashed or dotted.

        No icon: a tick or a cross needs a symbol font that a machine may lack (it then shows an
        empty box), and the word already says it.
        """
        mark = _MARKS[self.status]
        rest = self.text[len(mark):] if self.text.startswith(mark) else " " + self.text
        border = {"right": "solid", "wrong": "dashed", "invalid": "dotted"}[self.status]
        body = f"<b>{html.escape(mark)}</b>" + html.escape(rest).replace("\n", "<br>")
        return (f'<div class="gofish-feedback gofish-{self.status}" role="status" '
                f'style="border-left: 4px {border} #555; padding: 2px 8px; margin-top: 4px">{body}</div>')


class Question:
    """A predict-first question: multiple choice, or a number with a tolerance.

    Args:
        prompt: the question, as plain text.
        answer: the right choice (its text, letter or index) when ``choices`` is given;
            otherwise the right number (a ``Fraction``, ``int`` or ``float``).
        explain: why the right answer is right; every feedback ends with it.
        choices: the options, as text (at most ten). Without them the question asks for a number.
        wrong: the usual wrong answers and why each is wrong: ``{choice: why}``, or for a
            number ``{value: why}`` (an answer within the tolerance of ``value`` gets ``why``).
        tolerance: for a number, how far an answer may be from ``answer`` and still count
            as right (absolute; ``0`` asks for the exact value).
        id: an optional name for the question (answer keys and tests refer to it).

    Without ``answer``, the question is a lesson's: ``id`` names it in the question bank
    (:mod:`gofish_teach.widgets.question_bank`), which holds its answer, tolerance, ``wrong`` and
    ``explain``, so that the lesson shows only the question and its choices.

    :meth:`answer` gives the :class:`Feedback` for an answer without any widget;
    :attr:`widget` is the interactive part (built on first use). The learner's first readable
    answer is kept (:attr:`first`; for a lesson's question by id, in :data:`FIRST` and in
    ``first-answers.json`` beside the notebook, :mod:`._first`): predict *first*, so a second
    click changes the feedback but not the record, nor does a new kernel (:func:`reveal` saves
    it into the notebook's output too).
    """

    def __init__(self, prompt: str, *, answer=None, explain: str | None = None, choices=None, wrong=None,
                 tolerance: float = 0.01, id: str = ""):
        if answer is None:  # a lesson's question: the answer and the feedback come from the bank
            if not id:
                raise ValueError("answer: give the answer, or the id of a question in the question bank")
            answer, explain, wrong, tolerance = _from_bank(id, choices)
        if explain is None:
            raise ValueError("explain: say why the answer is right")
        self.prompt, self.explain, self.id = prompt, explain, id
        self.choices = list(choices) if choices is not None else None
        wrong = dict(wrong or {})
        if self.choices is not None:
            if not 2 <= len(self.choices) <= len(LETTERS):
                raise ValueError(f"choices: give 2 to {len(LETTERS)} options, not {len(self.choices)}")
            self.correct = self._index(answer)
            if self.correct is None:
                raise ValueError(f"answer: {answer!r} is not one of the choices {self.choices}")
            self.wrong = {}
            for choice, why in wrong.items():
                k = self._index(choice)
                if k is None or k == self.correct:
                    raise ValueError(f"wrong: {choice!r} is not one of the wrong choices")
                self.wrong[k] = why
        else:
            if isinstance(answer, bool) or not isinstance(answer, Real):
                raise ValueError(f"answer: a number question needs a number, not {answer!r}")
            if tolerance < 0:
                raise ValueError("tolerance: it cannot be negative")
            self.correct, self.tolerance = _exact(answer), _exact(tolerance)
            self.wrong = {_exact(value): why for value, why in wrong.items()}
            for value in self.wrong:
                if abs(value - self.correct) <= self.tolerance:
                    raise ValueError(f"wrong: {value} is within the tolerance of the answer, so it would count as right")
        self._widget = None
        self._first = None

    @property
    def first(self) -> dict | None:
        """The first answer given: ``{"id", "kind", "answer", "status", "at", ...}``, or None."""
        return first_answer(self.id) if self.id else self._first

    def record(self, given, feedback: "Feedback") -> dict | None:
        """Keep ``given`` as the first answer unless there is one already (or it could not be read)."""
        if feedback.status == "invalid" or self.first is not None:
            return self.first
        if self.kind == "choice":
            k = self._index(given)
            shown = {"answer": LETTERS[k], "text": self.choices[k], "choices": list(self.choices)}
        else:
            value, _ = parse_number(given)
            shown = {"answer": str(value), "text": str(given).strip()[:100]}
        first = {"id": self.id, "kind": self.kind, **shown, "status": feedback.status,
                 "at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        if self.id:  # the file's first answer wins over this one if another kernel wrote it meanwhile
            first = FIRST[self.id] = _first.keep(first)
        else:
            self._first = first
        return first

    @property
    def kind(self) -> str:
        """``"choice"`` or ``"number"``."""
        return "number" if self.choices is None else "choice"

    # ------------------------------------------------------------------ feedback, no widget
    def answer(self, given) -> Feedback:
        """The feedback for ``given``: a choice (its text, letter or index) or a number as text.

        Never raises: an answer that cannot be read gets ``status == "invalid"`` and says why.
        """
        if self.kind == "choice":
            return self._answer_choice(given)
        return self._answer_number(given)

    def _answer_choice(self, given) -> Feedback:
        k = self._index(given)
        if k is None:
            letters = ", ".join(LETTERS[: len(self.choices)])
            return Feedback("invalid", f"{_MARKS['invalid']} {str(given)!r} is not one of the choices; "
                                       f"pick one of {letters}.")
        if k == self.correct:
            return Feedback("right", f"{_MARKS['right']} {self.explain}")
        why = self.wrong.get(k, "")
        return Feedback("wrong", f"{_MARKS['wrong']} {why}".rstrip() + "\n" +
                        f"The answer is {LETTERS[self.correct]}, \"{self.choices[self.correct]}\". {self.explain}")

    def _answer_number(self, given) -> Feedback:
        value, problem = parse_number(given)
        if problem:
            return Feedback("invalid", f"{_MARKS['invalid']} {problem}")
        right = self.shown_answer()
        if abs(value - self.correct) <= self.tolerance:
            near = "" if value == self.correct else f" You said {_show_apart(value, self.correct)}; the exact answer is {right}."
            return Feedback("right", f"{_MARKS['right']}{near} {self.explain}")
        for wrong_value, why in self.wrong.items():
            if abs(value - wrong_value) <= self.tolerance:
                return Feedback("wrong", f"{_MARKS['wrong']} {why}\nThe answer is {right}. {self.explain}")
        side = "too high" if value > self.correct else "too low"
        shown = _show_apart(value, self.correct)
        gap = abs(value - self.correct)
        if not self.tolerance and gap <= Fraction(1, 1000) * max(1, abs(self.correct)):
            # a rounded or mistyped exact answer: "too high" alone would read as a slip of ours
            side = (("a little above" if value > self.correct else "a little below") +
                    " the answer, and only the exact value counts here (a fraction such as 1/3 is exact)")
        return Feedback("wrong", f"{_MARKS['wrong']} {shown} is {side}.\nThe answer is {right}. {self.explain}")

    def shown_answer(self) -> str:
        """The right answer as the feedback writes it: ``"C, \\"less than 1/2\\""`` or ``"2/47 (0.0426)"``."""
        if self.kind == "choice":
            return f"{LETTERS[self.correct]}, \"{self.choices[self.correct]}\""
        return show_number(self.correct)

    def _index(self, given) -> int | None:
        """The index of a choice given as its index, its letter or its text; None if it is none of them."""
        if isinstance(given, bool):
            return None
        if isinstance(given, int):
            return given if 0 <= given < len(self.choices) else None
        text = str(given).strip()
        if text in self.choices:
            return self.choices.index(text)
        if len(text) == 1 and text.upper() in LETTERS[: len(self.choices)]:
            return LETTERS.index(text.upper())
        return None

    # ------------------------------------------------------------------ display
    def text(self) -> str:
        """The question as plain text: the prompt, the lettered choices or how to write a number."""
        if self.kind == "choice":
            return "\n".join([self.prompt] + [f"  {LETTERS[k]}. {c}" for k, c in enumerate(self.choices)])
        return f"{self.prompt}\n  (Answer with {_NUMBER_FORMS}{self._within()}.)"

    def _within(self) -> str:
        return f"; within {float(self.tolerance):g} counts as right" if self.tolerance else "; only the exact value counts"

    def _repr_html_(self) -> str:
        head = f'<div class="gofish-question"><p><b>Predict first.</b> {html.escape(self.prompt)}</p>'
        if self.kind == "choice":
            # Letters written out: JupyterLab's sanitizer drops <ol type="A">, and the buttons say A, B, C.
            body = "<p>" + "<br>".join(f"{LETTERS[k]}. {html.escape(c)}" for k, c in enumerate(self.choices)) + "</p>"
        else:
            body = f"<p><i>Answer with {_NUMBER_FORMS}{self._within()}.</i></p>"
        return head + body + "</div>"

    def __repr__(self) -> str:
        return "Predict first. " + self.text()

    def _ipython_display_(self):
        # Two outputs: the question as HTML/text (what a saved, unrun notebook shows), then the
        # answer widget, whose saved form is only a model id (and is ignored by nbval).
        from IPython.display import display

        display({"text/html": self._repr_html_(), "text/plain": repr(self)}, raw=True)
        display(self.widget)

    @property
    def widget(self) -> "QuestionWidget":
        """The answer buttons (a choice) or box (a number), and the feedback; built once."""
        if self._widget is None:
            self._widget = QuestionWidget(self)
        return self._widget


class QuestionWidget(Placeheld, w.VBox):
    """The interactive part of a :class:`Question`: it calls :meth:`Question.answer` and shows the feedback.

    >>> q = Question("2 + 2?", answer=4, explain="Count.", tolerance=0)
    >>> box = q.widget
    >>> box.entry.value = "4"; box.check.click(); box.feedback.right
    True
    >>> box.entry.value = "four"; box.check.click(); box.feedback.status
    'invalid'
    """

    def __init__(self, question: Question):
        self.question = question
        self.feedback: Feedback | None = None
        self.out = w.HTML("")
        if question.kind == "choice":
            n = len(question.choices)
            self.entry = w.ToggleButtons(options=[(LETTERS[k], k) for k in range(n)], value=None,
                                         tooltips=list(question.choices), description="Your answer:",
                                         style={"description_width": "initial", "button_width": "3.5em"})
            self.entry.observe(self._on_choice, names="value")
            self.check = None
            row = [self.entry]
        else:
            # The box and its Check button are one widget (so ``entry`` and ``check`` are the same):
            # a press of Check carries the text the box shows, however busy the kernel (AnswerBox).
            self.entry = self.check = AnswerBox(placeholder="e.g. 0.25, 1/4 or 25%", description="Your answer:",
                                                tooltip="Check your answer")
            self.entry.on_check(self.respond)
            row = [self.entry]
        #: Takes the page to this question when Run All stops for it (see :mod:`._stop`).
        self.mark = _stop.StopMark()
        super().__init__([w.HBox(row), self.out, self.mark], model_id=stable_model_id("question"))
        self.add_class("gf-question")
        if question.id:
            SHOWN[question.id] = self
        try:
            kept = question.first
            if kept is not None:  # answered before (an earlier run, or kernel): say so; its feedback is under the result
                self.out.value = (f'<p class="gofish-kept">{html.escape(_kept_line(kept))} Another answer gets its '
                                  "feedback, and is not kept.</p>")
        except Exception:  # a damaged record must not stop the question from being asked
            self.out.value = ""

    def _on_choice(self, change):
        if change["new"] is not None:
            self.respond(change["new"])

    def respond(self, given) -> Feedback:
        """Answer ``given``, show the feedback, and return it. Nothing raised reaches the learner."""
        try:
            feedback = self.question.answer(given)
            self.question.record(given, feedback)
        except Exception as e:  # a bug here must not show a learner a traceback
            feedback = Feedback("invalid", f"{_MARKS['invalid']} that answer could not be checked ({type(e).__name__}).")
        self.feedback = feedback
        self.out.value = feedback.html()
        return feedback

    _what = "The answer area"

    def __repr__(self) -> str:
        # A saved notebook shows this where the widget would be: no model id, nothing that changes.
        return "(The answer buttons appear here when the cell runs.)"


#: The first answer to each question (by id) known to this kernel: predict first, so never replaced.
#: The file beside the notebook (:mod:`._first`) is the record that outlives the kernel.
FIRST: dict[str, dict] = {}
#: The latest widget shown for each question (by id) in this kernel: where a stop sends the page.
SHOWN: dict[str, "QuestionWidget"] = {}
#: The media type of a first answer saved in a notebook's output (what ``gofish-teach answers`` reads).
ANSWER_MIME = "application/vnd.gofish-teach.first-answer+json"


def first_answer(qid: str) -> dict | None:
    """The first answer to the lesson's question ``qid``: this kernel's, else the one kept beside the notebook."""
    if qid in FIRST:
        return FIRST[qid]
    kept = _first.read().get(qid)
    if kept is not None:
        FIRST[qid] = kept
    return kept


def _said(first: dict) -> str:
    """A first answer as the learner gave it: ``B ("between 1/4 and 1/2")`` or ``0.0426``."""
    if first.get("kind") == "choice":
        return f'{first.get("answer", "")} ("{first.get("text", "")}")'
    return str(first.get("text") or first.get("answer", ""))


def _question(qid: str) -> Question | None:
    """The question ``qid``: the one shown in this kernel, else the bank's (None if neither has it)."""
    if qid in SHOWN:
        return SHOWN[qid].question
    from .question_bank import load

    q = load().get(qid)
    try:
        return Question(q.get("prompt", qid), choices=q.get("choices"), id=qid) if q else None
    except (ValueError, KeyError):
        return None


def _feedback(question: Question, first: dict) -> Feedback:
    """The feedback for a kept first answer, worked out again from the question (not from the record)."""
    given = first.get("answer") if question.kind == "choice" else first.get("text") or first.get("answer")
    return question.answer(given)


def _kept_line(first: dict) -> str:
    return f"Your first answer, kept for the class discussion: {_said(first)}."


def _from_bank(qid: str, choices) -> tuple:
    from .question_bank import entry

    q = entry(qid)
    if choices is None:
        return (Fraction(q["answer"]), q["explain"], {Fraction(k): v for k, v in q.get("wrong", {}).items()},
                Fraction(q.get("tolerance", "0.01")))
    return q["answer"], q["explain"], dict(q.get("wrong", {})), 0


#: What to do where Run All stops: plain words (no emoji, no symbol a machine's fonts may lack), on two
#: short lines, since JupyterLab shows the message as fixed-width text that breaks words at its edge.
GO_ON = "then choose Run > Run Selected Cell and All Below to go on."


def reveal(*ids: str) -> dict:
    """Stop the cell unless the questions ``ids`` were answered; then show the result's feedback and prose.

    A learner's copy of a lesson (``gofish-teach course``) starts each cell that shows a
    question's result with ``reveal(id)``. Before the learner has answered, the cell stops with a
    short message saying what to do, so Run All stops there too: the page goes to the question, and
    the cells below keep what they showed (:mod:`._stop`). After, its output holds the learner's
    first answer (which the notebook saves and ``gofish-teach answers`` gathers), its feedback, and
    the lesson's prose about the result (the cells tagged ``answers:<id>`` in the teacher's edition,
    which a learner's copy leaves out), from the packed question bank.
    """
    firsts = {qid: first_answer(qid) for qid in ids}
    missing = [qid for qid, f in firsts.items() if f is None]
    if missing:
        which = "the question above" if len(missing) == 1 else "the questions above"
        live = [SHOWN[qid] for qid in missing if qid in SHOWN]
        todo = f"answer {which}," if len(live) == len(missing) else f"run the cell of {which} and answer it,"
        todo += "\n"
        _stop.arm(missing, lambda: any(first_answer(qid) is None for qid in missing))
        for widget in live:
            widget.mark.ask()
        raise NotAnsweredYet(f"Predict first: {todo}{GO_ON}")
    try:
        from IPython.display import display
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return firsts
    from .question_bank import load

    html_parts, text_parts = [], []
    for qid, first in firsts.items():
        question = _question(qid)
        feedback = _feedback(question, first) if question else None
        html_parts.append(f'<p class="gofish-kept">{html.escape(_kept_line(first))}</p>' +
                          (feedback.html() if feedback else ""))
        text_parts.append(_kept_line(first) + (f"\n{feedback.text}" if feedback else ""))
    display({ANSWER_MIME: {"first_answers": list(firsts.values())}, "text/html": "".join(html_parts),
             "text/plain": "\n".join(text_parts)}, raw=True)
    for qid in ids:  # the lesson's own words about the result, as markdown (its math typeset)
        prose = "\n\n".join(load().get(qid, {}).get("prose", []))
        if prose:
            display({"text/markdown": prose, "text/plain": prose}, raw=True)
    return firsts


def parse_number(text) -> tuple[Fraction | None, str]:
    """``(value, "")`` for a number written as text, or ``(None, why)``; exact, as a ``Fraction``.

    >>> parse_number("1/4"), parse_number(" 25 % "), parse_number(".25")
    ((Fraction(1, 4), ''), (Fraction(1, 4), ''), (Fraction(1, 4), ''))
    >>> parse_number("2,598,960")[0], parse_number("−0.5")[0]
    (Fraction(2598960, 1), Fraction(-1, 2))
    >>> parse_number("0,25")[1]
    'write decimals with a point, 0.25, not a comma.'
    >>> parse_number("about 0.3")[1]
    "'about 0.3' is not a number. Type a number such as 0.25, 1/4 or 25%."
    """
    if isinstance(text, bool):
        return None, f"{text!r} is not a number. Type {_NUMBER_FORMS}."
    if isinstance(text, Real):
        return _exact(text), ""
    raw = str(text).strip()
    if not raw:
        return None, f"there is no answer yet. Type {_NUMBER_FORMS}."
    s = raw.replace("−", "-").replace(" ", "")
    percent = s.endswith("%")
    if percent:
        s = s[:-1]
    if re.fullmatch(r"[-+]?\d{1,3}(,\d{3})+(\.\d*)?", s):
        s = s.replace(",", "")
    elif re.fullmatch(r"[-+]?\d*,\d+", s):
        return None, "write decimals with a point, 0.25, not a comma."
    if s.count("/") == 1:
        top, bottom = s.split("/")
        if _is_decimal(top) and _is_decimal(bottom):
            if Fraction(bottom) == 0:
                return None, f"{raw} divides by zero. Type {_NUMBER_FORMS}."
            value = Fraction(top) / Fraction(bottom)
        else:
            value = None
    else:
        value = Fraction(s) if _is_decimal(s) else None
    if value is None:
        return None, f"{raw!r} is not a number. Type {_NUMBER_FORMS}."
    return (value / 100 if percent else value), ""


def _is_decimal(s: str) -> bool:
    return re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d{1,2})?", s) is not None


def _exact(x) -> Fraction:
    return x if isinstance(x, Fraction) else Fraction(x) if isinstance(x, int) else Fraction(str(x))


def _show_apart(value: Fraction, correct: Fraction) -> str:
    """``value`` as :func:`show_number` writes it, with more digits when its short form would read as ``correct``.

    >>> _show_apart(Fraction("15.0000001"), Fraction(15))
    '15.0000001'
    >>> _show_apart(Fraction(1, 3) + Fraction(1, 10**9), Fraction(1, 3))
    '0.333333334...'
    """
    shown = show_number(value)
    if value == correct or (show_number(correct) not in shown and f"({_decimal(correct)})" not in shown):
        return shown
    for digits in range(5, 18):
        decimal = f"{float(value):.{digits}g}"
        if Fraction(decimal) == value:
            return decimal
        if float(decimal) != float(correct) and Fraction(decimal) != correct and _apart(decimal, correct, digits):
            return f"{decimal}..."
    return str(value)


def _decimal(x: Fraction) -> str:
    try:
        return f"{float(x):.4g}"
    except OverflowError:
        return str(x)


def _apart(decimal: str, correct: Fraction, digits: int) -> bool:
    try:
        return f"{float(correct):.{digits}g}" != decimal
    except OverflowError:
        return True


def show_number(x: Fraction) -> str:
    """``2/47 (0.0426)``, ``4``, ``0.25``: exact, with a decimal beside a fraction."""
    if x.denominator == 1:
        return str(x.numerator)
    try:
        decimal = f"{float(x):.4g}"
    except OverflowError:  # a fraction too big for a float: exact is all there is
        return str(x)
    if Fraction(decimal) == x:
        return decimal
    return f"{x} ({decimal})"
