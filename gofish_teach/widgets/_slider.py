"""A whole-number slider that a screen reader can name and a keyboard can move.

ipywidgets 8 draws ``IntSlider`` with noUiSlider: its handle (``role="slider"``) gets no
``aria-label`` and its ``description`` is a ``<label>`` tied to nothing, so a screen reader says
"slider, 4" and never what it sets. :class:`Slider` is drawn by a small front-end module
(``_slider.js``, through anywidget) as the browser's own ``<input type="range">`` with a ``<label
for>``: named by its description, moved by the arrow keys, Page Up/Down, Home and End.

It takes what the widgets give ``IntSlider`` (value, min, max, step, ``description``, ``disabled``,
``continuous_update``, ``layout``, and ``style={"description_width": ...}``) and keeps its value
inside the range as ``IntSlider`` does:

>>> s = Slider(1, 0, 4, description="copies you hold", style={"description_width": "9em"})
>>> s
Slider(value=1, min=0, max=4, description='copies you hold')
>>> s.value = 9; s.value            # clamped, never an error
4
>>> s.max = 2; s.value              # a smaller range pulls the value in
2
>>> s.min = 3
Traceback (most recent call last):
...
traitlets.traitlets.TraitError: copies you hold: min 3 is above max 2
"""
from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets as t

_HERE = Path(__file__).parent


class Slider(anywidget.AnyWidget):
    """A labelled range input for a whole number from ``min`` to ``max``, in ``step`` steps.

    Args:
        value, min, max, step: as ``ipywidgets.IntSlider`` (defaults 0, 0, 100, 1).
        style: ``{"description_width": "9em"}``, the width of the label, as ipywidgets takes it.
        continuous_update: send the value while it is dragged (``True``), or only when let go.
    """

    _esm = _HERE / "_slider.js"
    _css = _HERE / "_slider.css"

    value = t.CInt(0).tag(sync=True)
    min = t.CInt(0).tag(sync=True)
    max = t.CInt(100).tag(sync=True)
    step = t.CInt(1).tag(sync=True)
    description = t.Unicode("").tag(sync=True)
    description_width = t.Unicode("").tag(sync=True)
    disabled = t.Bool(False).tag(sync=True)
    continuous_update = t.Bool(True).tag(sync=True)

    def __init__(self, value=0, min=0, max=100, step=1, *, style: dict | None = None, **kwargs):
        style = dict(style or {})
        width = style.pop("description_width", "")
        if style:
            raise ValueError(f"style: a Slider takes only description_width, not {', '.join(style)}")
        # the range first, so that the value is clamped to it and not to the default 0..100
        super().__init__(min=min, max=max, step=step, description_width=width, **kwargs)
        self.value = value

    @t.validate("value")
    def _clamp(self, proposal):
        return min(max(proposal.value, self.min), self.max)

    @t.validate("min", "max")
    def _ordered(self, proposal):
        low, high = ((proposal.value, self.max) if proposal.trait.name == "min" else (self.min, proposal.value))
        if low > high:
            raise t.TraitError(f"{self.description or 'slider'}: min {low} is above max {high}")
        return proposal.value

    @t.validate("step")
    def _positive(self, proposal):
        if proposal.value < 1:
            raise t.TraitError(f"{self.description or 'slider'}: step must be at least 1, not {proposal.value}")
        return proposal.value

    @t.observe("min", "max")
    def _keep_inside(self, change):
        self.value = self.value  # validated again: clamped to the new range

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(value={self.value}, min={self.min}, max={self.max}, "
                f"description={self.description!r})")
