"""Small pieces the widgets share: a figure as an image, a message line, a short error, a stable id,
one BLAS thread while a control is handled, short pauses for the garbage collector.

>>> short_error(ValueError("players: 7 players, but pond rules allow 2 to 6"))
'players: 7 players, but pond rules allow 2 to 6'
>>> message_html("ocean: too big")
'<span style="color: #b00020">ocean: too big</span>'
"""
from __future__ import annotations

import gc
import itertools
import sys
import uuid
from html import escape
from io import BytesIO

#: An error message longer than this is cut (a message, not a traceback).
MESSAGE_CHARS = 400


def png(figure, tight: bool = True) -> bytes:
    """A matplotlib ``Figure`` as PNG bytes, for an ``ipywidgets.Image``.

    Figures are made with ``matplotlib.figure.Figure`` (not pyplot), so none piles up in
    pyplot's list of open figures however often a slider moves. ``tight`` crops the margins
    to what is drawn, which draws the figure twice; a figure laid out with fixed margins
    (``tight=False``) is drawn once, in about half the time.
    """
    buffer = BytesIO()
    figure.savefig(buffer, format="png", dpi=90, bbox_inches="tight" if tight else None)
    return buffer.getvalue()


def one_blas_thread():
    """A context in which numpy's BLAS uses one thread, around everything a control does.

    The exact counts behind a click are many small matrix products: on a machine shared by
    several kernels (a class on one server, two cores), BLAS threads that wait on each other made
    one click take seconds (a posterior at 4 players: 4 s with OpenBLAS's threads, 0.4 s with
    one, in the same run). The counts limit themselves too; this also covers the rest of a click
    (the sampler's fallback, the bots). A learner's own numpy code keeps every thread.
    """
    from ..probability import one_blas_thread as limit

    return limit()


_settled = False


def settle_libraries() -> None:
    """Once per process, when a widget has been built: take every object alive then out of the garbage
    collector's full passes (``gc.collect()``, then ``gc.freeze()``).

    By then the libraries a click uses are loaded: numpy, scipy, matplotlib, ipywidgets, IPython, the
    compiled exact counts (numba), the kit itself: some 230,000 objects in a kernel, that live as long
    as it does. Python's full collection walks every object it tracks, and one comes every hundred or
    so clicks that make objects (figures, exact counts), added to whichever click it falls on: in a
    kernel on a busy 2-core machine it took 0.4 s, and 1 ms with those objects frozen (it walks only
    what was made since). Only garbage in reference cycles among the frozen objects is never
    reclaimed; reference counting still frees the rest.
    """
    global _settled
    if not _settled:
        _settled = True
        gc.collect()  # garbage frozen would be kept for good
        gc.freeze()


def short_error(error: BaseException) -> str:
    """One readable line for an error: its message (and the game it happened in), no traceback.

    Library errors (``ValueError``, ``IllegalMove``) already name the field or rule; anything
    else, say a learner's strategy that divides by zero, gets its type named too.
    """
    text = str(error) if isinstance(error, ValueError) else f"{type(error).__name__}: {error}"
    notes = getattr(error, "__notes__", [])
    text = " ".join([text.strip().splitlines()[0] if text.strip() else type(error).__name__] + list(notes[:1]))
    return text if len(text) <= MESSAGE_CHARS else text[:MESSAGE_CHARS - 1] + "…"


def read_whole(text, field: str, least: int, too_small: str, kind: str, most: int | None = None,
               too_big: str = "") -> int:
    """A whole number typed in a box, from ``least`` to ``most``; otherwise a ``ValueError`` naming the box.

    The widgets' number boxes are text boxes read here, not the browser's number inputs, which
    misread what was typed without a word ("5000.5" became 50005, "1e6" 100, "1.5" 15) or round
    a long seed; digits may be grouped with ``,`` or ``_``.

    >>> read_whole(" 1_000 ", "games", 1, "play at least 1 game", "a whole number")
    1000
    >>> read_whole("-10", "games", 1, "play at least 1 game", "a whole number")
    Traceback (most recent call last):
    ...
    ValueError: games: play at least 1 game, not -10
    >>> read_whole("5000.5", "deals", 100, "deal at least 100", "a whole number of deals")
    Traceback (most recent call last):
    ...
    ValueError: deals: type a whole number of deals, not '5000.5'
    """
    text = str(text).strip()
    try:
        value = int(text.replace(",", ""))
    except ValueError:
        raise ValueError(f"{field}: type {kind}, not {text!r}") from None
    if value < least:
        raise ValueError(f"{field}: {too_small}, not {value}")
    if most is not None and value > most:
        raise ValueError(f"{field}: {too_big}, not {value}")
    return value


def message_html(text: str, error: bool = True) -> str:
    """A one-line message: red for an error, grey for a note; empty text shows nothing."""
    if not text:
        return ""
    colour = "#b00020" if error else "#555"
    return f'<span style="color: {colour}">{escape(text, quote=False)}</span>'


def show_png(image, figure) -> None:
    """Put ``figure`` in the ``ipywidgets.Image`` (``None``: empty it), and show the image only with a
    picture in it: an empty ``Image`` draws the browser's broken-image icon."""
    image.value = png(figure) if figure is not None else b""
    image.layout.display = None if figure is not None else "none"


#: Model ids are drawn from this namespace and what is being run, never at random (see :func:`stable_model_id`).
_IDS = uuid.UUID("5d0b7a4e-3c57-4f6e-9a51-0f15ee6c0a17")


def stable_model_id(kind: str) -> str | None:
    """The widget model id for a widget made in a kernel: the same each time a fresh kernel runs the
    same notebook, so that a notebook run and saved in JupyterLab comes back byte for byte.

    A shown widget's id is saved in the cell's output. A random id (ipywidgets' default) changes on
    every run; this one is made from ``kind``, the cell's execution count (saved beside it, and the
    same in every top-to-bottom run) and the widget's number in the cell, skipping ids still in use.
    Outside a kernel: ``None`` (ipywidgets picks one).

    >>> stable_model_id("table") is None    # no kernel here
    True
    """
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython else None
    if getattr(shell, "kernel", None) is None:
        return None
    from ipywidgets.widgets.widget import _instances

    for k in itertools.count():
        model_id = uuid.uuid5(_IDS, f"{kind}/{shell.execution_count}/{k}").hex
        if model_id not in _instances:
            return model_id


#: The MIME type of a widget's output: a model id, which only a kernel holding that model can draw.
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

#: The style that goes with a widget's note (see :class:`Placeheld`). JupyterLab (and Voila) apply it
#: where the note's output is trusted: outputs the kernel sent this session, and a notebook trusted
#: since it was saved. Where it is not applied, JupyterLab shows neither the style nor the widget's
#: output (an untrusted notebook draws no widget), and the note shows alone.
PLACEHELD_STYLE = (
    "<style>"
    # the widget after the note is drawn (a widget's view inside the next output): the note goes
    ".jp-OutputArea-child:has(.gf-placeheld):has(+ .jp-OutputArea-child > .jp-OutputArea-output > .lm-Widget)"
    " { display: none; }"
    # the widget's output while no kernel draws it ("Loading widget...", then "Error displaying widget:
    # model not found", text alone): nothing, since the note above it says what goes there
    ".jp-OutputArea-child:has(.gf-placeheld) + .jp-OutputArea-child:not(:has(> .jp-OutputArea-output > .lm-Widget))"
    " { display: none; }"
    "</style>")


class Placeheld:
    """Mixin for a widget shown in a lesson: before its cell has run, a note says what goes there.

    A widget's output is only a model id (:data:`WIDGET_VIEW`), which a kernel must hold to draw
    it. Saved in a notebook and opened before its cell runs, JupyterLab draws nothing for it in a
    notebook not yet trusted, and in a trusted one (any notebook saved in JupyterLab since it last
    ran it, the lessons included) first "Loading widget..." and then, once the kernel has said which
    widgets it holds, "Error displaying widget: model not found". So a widget displays as two
    outputs, always the same ones (a notebook run and saved comes back byte for byte):

    1. a note, "The Go Fish table appears here once this cell has run. Run it ...", with a style
       (:data:`PLACEHELD_STYLE`) that hides the note once the widget after it is drawn, and hides
       the widget's output while no kernel draws it;
    2. the widget's model id alone (no text to show instead of it, where it cannot be drawn), and
       its class in the output's metadata (``{"gofish_teach": {"widget": "Table"}}``) for handouts.

    Handouts and any page without a kernel show the note. Nothing here depends on the widget, so
    every widget the lessons show gets it by this mixin (the :class:`~.question.Question`'s answer
    area too).

    >>> note = Placeheld().placeholder()
    >>> print(note["text/plain"])
    This widget appears here once this cell has run: run it (Shift-Enter), or all cells (Run > Run All Cells).
    """

    #: What the widget is, for the note ("The table", "The probability explorer", ...).
    _what = "This widget"

    def placeholder(self) -> dict:
        """The note's output (a MIME bundle): what stands where the widget goes until its cell has run."""
        what = escape(self._what)
        box = "border: 1px dashed #8c8c8c; border-radius: 4px; padding: 8px 12px; background: #f5f7fa; color: #333"
        return {"text/html": (f'<div class="gf-placeheld" style="{box}">&#9654; <b>{what} appears here once this '
                              "cell has run.</b> Run it (Shift-Enter), or all cells (Run &#9656; Run All Cells).</div>"
                              + PLACEHELD_STYLE),
                "text/plain": f"{self._what} appears here once this cell has run: run it (Shift-Enter), "
                              "or all cells (Run > Run All Cells)."}

    def _ipython_display_(self):
        from IPython.display import display

        bundle = self._repr_mimebundle_() if callable(getattr(self, "_repr_mimebundle_", None)) else None
        if not bundle or WIDGET_VIEW not in bundle:  # closed: no view to show, only what it was
            display({"text/plain": repr(self)}, raw=True)
            return
        display(self.placeholder(), raw=True)
        # The model id alone: a text beside it would show, in place of the widget, where it cannot be drawn.
        # What widget it is goes in the output's metadata, for a handout's sentence about it.
        display({WIDGET_VIEW: bundle[WIDGET_VIEW]}, metadata={"gofish_teach": {"widget": type(self).__name__}},
                raw=True)
