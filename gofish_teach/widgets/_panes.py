"""Small pieces the explorer and the lab share: a figure as an image, a message line, a short error.

>>> short_error(ValueError("players: 7 players, but pond rules allow 2 to 6"))
'players: 7 players, but pond rules allow 2 to 6'
>>> message_html("ocean: too big")
'<span style="color: #b00020">ocean: too big</span>'
"""
from __future__ import annotations

from html import escape
from io import BytesIO

#: An error message longer than this is cut (a message, not a traceback).
MESSAGE_CHARS = 400


def png(figure) -> bytes:
    """A matplotlib ``Figure`` as PNG bytes, for an ``ipywidgets.Image``.

    Figures are made with ``matplotlib.figure.Figure`` (not pyplot), so none piles up in
    pyplot's list of open figures however often a slider moves.
    """
    buffer = BytesIO()
    figure.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    return buffer.getvalue()


def short_error(error: BaseException) -> str:
    """One readable line for an error: its message (and the game it happened in), no traceback.

    Library errors (``ValueError``, ``IllegalMove``) already name the field or rule; anything
    else, say a learner's strategy that divides by zero, gets its type named too.
    """
    text = str(error) if isinstance(error, ValueError) else f"{type(error).__name__}: {error}"
    notes = getattr(error, "__notes__", [])
    text = " ".join([text.strip().splitlines()[0] if text.strip() else type(error).__name__] + list(notes[:1]))
    return text if len(text) <= MESSAGE_CHARS else text[:MESSAGE_CHARS - 1] + "…"


def message_html(text: str, error: bool = True) -> str:
    """A one-line message: red for an error, grey for a note; empty text shows nothing."""
    if not text:
        return ""
    colour = "#b00020" if error else "#555"
    return f'<span style="color: {colour}">{escape(text)}</span>'
