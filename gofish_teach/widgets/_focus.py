"""Keeps the keyboard's focus in the :class:`~.table.Table` when the control that has it is disabled.

At the table the kernel disables the button just pressed (your ask is done; the bots play) or takes
it away (a rank no longer in your hand); the browser then drops the focus to the page's body, and a
keyboard user has to Tab through the whole notebook to come back. :class:`FocusKeeper` is an
invisible widget in the table whose front end (``_focus.js``, through anywidget) moves the focus to
the control the game now waits for: the ocean after "Go Fish!", an Ask button once a rank is picked,
a rank on your turn; else to the status line (which says what happens), and from there on to that
control once the game waits for you again. A focus taken elsewhere (a click outside) is left alone.
Your hand is one Tab stop (the rank picked, else the first), its ranks reached with the arrow keys:
after picking a rank, one Tab reaches the Ask buttons, not the rest of the hand first.

It holds no state: everything it reads is in the page.

>>> FocusKeeper().layout.display
'none'
"""
from __future__ import annotations

from pathlib import Path

import anywidget


class FocusKeeper(anywidget.AnyWidget):
    """An invisible part of a table that keeps the keyboard's focus in it (see the module)."""

    _esm = Path(__file__).parent / "_focus.js"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.layout.display = "none"
