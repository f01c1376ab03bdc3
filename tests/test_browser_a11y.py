"""Every control of the Table, the Explorer, the Lab and a Question has a name a screen reader reads,
checked in the real browser's accessibility tree (JupyterLab and headless Chromium, as tests/test_browser.py).

Playwright's ARIA snapshot of a widget lists each control with its role and its accessible name
(``- button "Ask West"``), computed by Chromium as a screen reader gets it; a control with no
name is listed with its role alone.

Except sliders, which no Python setting can name in ipywidgets 8: a slider's handle is drawn by
noUiSlider (``role="slider"``), and ipywidgets' slider view creates it without noUiSlider's
``handleAttributes`` (where an ``aria-label`` would go) and sets no ``aria-labelledby``; its
``description`` is a ``<label>`` beside it, tied to nothing, and its ``tooltip`` goes on the outer
box. Naming them takes front-end code (a patched slider view or a small JupyterLab extension).
The test pins that: the only unnamed controls are the sliders, each with its description shown.
"""
from __future__ import annotations

import re

import pytest

from test_browser import no_traceback, open_notebook, run_all, scratch

#: The roles a learner operates (ARIA's widget roles that ipywidgets draws).
CONTROLS = ("button", "checkbox", "combobox", "radio", "slider", "spinbutton", "switch", "textbox", "listbox")

CELLS = (
    "from gofish_teach.widgets import Table, Explorer, Lab, Question\n"
    "table = Table('pond', opponents=['memory', 'random', 'greedy'], seed=7, knowledge=True, step=True, hints=True)\n"
    "table",
    "explorer = Explorer()\nexplorer.players.value = 4\nexplorer.go_fish.value = True\nexplorer",
    "Lab(players=4, games=50, seed=1)",
    "Question('P(the top card is a seven)?', answer=0.04, explain='Every unseen place is alike.')",
    "Question('Which is likelier?', choices=['a 7', 'an Ace'], answer='a 7', explain='You hold an Ace.')",
)


def controls(snapshot: str) -> list[tuple[str, str]]:
    """``(role, name)`` of each control in an ARIA snapshot (name ``""`` when it has none).

    >>> controls('- slider "copies you hold": 1\\n- button "Ask West"\\n- slider: 4\\n- text: books')
    [('slider', 'copies you hold'), ('button', 'Ask West'), ('slider', '')]
    """
    found = []
    for line in snapshot.splitlines():
        m = re.match(r'\s*- \'?(\w+)(?: "((?:[^"\\]|\\.)*)")?', line)  # quoted YAML when a name holds ": "
        if m and m[1] in CONTROLS:
            found.append((m[1], (m[2] or "").strip()))
    return found


@pytest.mark.slow
def test_every_control_but_the_sliders_has_an_accessible_name(page, lab, kit):
    open_notebook(page, lab, scratch(kit, "a11y.ipynb", *CELLS))
    run_all(page)
    no_traceback(page)
    unnamed = {}
    widgets = {"Table": ".gf-table", "Explorer": ".gf-explorer", "Lab": ".gf-lab",
               "Question": ".gf-question"}
    for widget, selector in widgets.items():
        for k in range(page.locator(selector).count()):
            found = page.locator(selector).nth(k)
            found.scroll_into_view_if_needed()
            snapshot = found.aria_snapshot()
            listed = controls(snapshot)
            assert listed, f"no control found in the {widget}"
            unnamed.setdefault(widget, []).extend(role for role, name in listed if not name)
    assert set(unnamed) == set(widgets)
    sliders = {widget: page.locator(f"{selector} .widget-slider").count() for widget, selector in widgets.items()}
    assert unnamed == {widget: ["slider"] * sliders[widget] for widget in widgets}
    assert sliders["Explorer"] == 8 and sliders["Lab"] == 1
    described = page.locator(".gf-explorer .widget-slider .widget-label, .gf-lab .widget-slider .widget-label")
    assert [t.strip() for t in described.all_inner_texts()] == [
        "copies you hold", "your other cards", "books out", "players", "their hand", "ocean", "drawn since",
        "at least", "players"]
