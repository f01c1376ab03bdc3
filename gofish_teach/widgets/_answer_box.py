"""A text box and its Check button as one widget, so that a press of Check carries the text the box shows.

ipywidgets' ``Text`` and ``Button`` are two models, and their messages to the kernel are not kept
in order: a model holds back a changed value while an earlier message of its own is unanswered,
but a button's click is never held back. On a busy kernel (a long cell running) the learner could
type an answer, press Check, and get the feedback for the answer before: the click arrived first.
:class:`AnswerBox` is drawn by a small front-end module (``_answer_box.js``, through anywidget): a
press of Check sets ``checks`` (how many presses so far) and ``checked`` (the text the box showed
then) on the same model as ``value``, in one message: the kernel checks the text that was pressed
for, even when that message waited behind others and later typing came with it. Leaving the box
(Tab, or a click elsewhere) sends the value alone, and checks nothing; Enter in the box is a press
of Check.

>>> box = AnswerBox(description="Your answer:")
>>> heard = []
>>> box.on_check(heard.append)
>>> box.set_state({"value": "1/4"}); heard      # the learner types 1/4 and leaves the box: no check
[]
>>> box.set_state({"value": "25%", "checked": "25%", "checks": 1}); heard   # types 25%, presses Check
['25%']
>>> box.value = "0.3"; box.click(); heard      # Check pressed from Python
['25%', '0.3']
"""
from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets as t

_HERE = Path(__file__).parent


class AnswerBox(anywidget.AnyWidget):
    """A labelled text box and a button beside it; :meth:`on_check` hears each press with the box's text.

    Args (all optional, as traits): ``description`` (the label), ``placeholder``, ``button`` (its
    text, "Check"), ``tooltip`` (the button's), ``disabled``.
    """

    _esm = _HERE / "_answer_box.js"
    _css = _HERE / "_answer_box.css"

    #: The text in the box, as the kernel last heard it: with a press of Check, or when the box was left.
    value = t.Unicode("").tag(sync=True)
    #: How many times Check was pressed, and the text the box showed at the last press: the browser
    #: sets both in one message, after any earlier change of ``value``.
    checks = t.Int(0).tag(sync=True)
    checked = t.Unicode("").tag(sync=True)
    description = t.Unicode("").tag(sync=True)
    placeholder = t.Unicode("").tag(sync=True)
    button = t.Unicode("Check").tag(sync=True)
    tooltip = t.Unicode("").tag(sync=True)
    disabled = t.Bool(False).tag(sync=True)

    def on_check(self, callback) -> None:
        """Call ``callback(text)`` on each press of Check, with the text the box showed then."""
        # A message that sets both sets both before any observer runs (ipywidgets holds the
        # notifications), so checked is already the pressed text here.
        self.observe(lambda change: callback(self.checked), names="checks")

    def click(self) -> None:
        """Press Check from Python, as the browser does: for the text in :attr:`value`."""
        with self.hold_trait_notifications():
            self.checked = self.value
            self.checks += 1

    def __repr__(self) -> str:
        return f"{type(self).__name__}(value={self.value!r}, checks={self.checks}, description={self.description!r})"
