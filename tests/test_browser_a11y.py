"""Every control of the Table, the Explorer, the Lab and a Question has a name a screen reader reads,
checked in the real browser's accessibility tree (JupyterLab and headless Chromium, as tests/test_browser.py).

Playwright's ARIA snapshot of a widget lists each control with its role and its accessible name
(``- button "Ask West"``), computed by Chromium as a screen reader gets it; a control with no
name is listed with its role alone.

Sliders included: the widgets' sliders are ``gofish_teach.widgets._slider.Slider``, a native
``<input type="range">`` with a ``<label for>`` (ipywidgets' own ``IntSlider`` draws a noUiSlider
handle that no Python setting can name). A slider is also moved with the keyboard here, and the
kernel's answer follows.
"""
from __future__ import annotations

import re

import pytest

from test_browser import no_traceback, open_notebook, run_all, scratch, wait_kernel

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


#: Each widget's sliders, by the name a screen reader reads, top to bottom.
SLIDERS = {"Explorer": ["copies you hold", "your other cards", "books out", "players", "their hand", "ocean",
                        "drawn since", "at least"],
           "Lab": ["players"]}


@pytest.mark.slow
def test_every_control_has_an_accessible_name(page, lab, kit):
    open_notebook(page, lab, scratch(kit, "a11y.ipynb", *CELLS))
    run_all(page)
    no_traceback(page)
    unnamed, sliders = {}, {}
    widgets = {"Table": ".gf-table", "Explorer": ".gf-explorer", "Lab": ".gf-lab",
               "Question": ".gf-question"}
    for widget, selector in widgets.items():
        assert page.locator(selector).count(), f"no {widget} drawn"
        for k in range(page.locator(selector).count()):
            found = page.locator(selector).nth(k)
            found.scroll_into_view_if_needed()
            listed = controls(found.aria_snapshot())
            assert listed, f"no control found in the {widget}"
            unnamed.setdefault(widget, []).extend(f"{role} in the {widget}" for role, name in listed if not name)
            sliders.setdefault(widget, []).extend(name for role, name in listed if role == "slider")
    assert unnamed == {widget: [] for widget in widgets}
    assert sliders == {"Table": [], "Question": [], **SLIDERS}
    # The same from Chromium's own accessibility tree (what a screen reader is given): the nine sliders, named.
    tree = page.context.new_cdp_session(page).send("Accessibility.getFullAXTree")["nodes"]
    named = [n.get("name", {}).get("value", "") for n in tree
             if n.get("role", {}).get("value") == "slider" and not n.get("ignored")]
    assert sorted(named) == sorted(SLIDERS["Explorer"] + SLIDERS["Lab"]), named


@pytest.mark.slow
def test_a_slider_moved_with_the_keyboard_reaches_the_kernel(page, lab, kit):
    """Tab from the rank menu to the first slider, ArrowRight: the Explorer's exact answer is the one for
    one more copy held; the Lab's players, ArrowLeft: one lineup menu fewer (each drawn by the kernel)."""
    from gofish_teach.widgets import Explorer

    open_notebook(page, lab, scratch(kit, "keys.ipynb", "from gofish_teach.widgets import Explorer, Lab\nExplorer()",
                                     CELLS[2]))
    run_all(page)
    no_traceback(page)
    explorer = page.locator(".gf-explorer").first
    expected = Explorer()
    assert f"<b>{expected.answer}</b>" in explorer.inner_html()
    expected.held.value = 2
    assert expected.message == "" and expected.answer is not None

    explorer.get_by_role("combobox", name="rank").focus()
    page.keyboard.press("Tab")
    held = explorer.get_by_role("slider", name="copies you hold")
    assert held.evaluate("e => e === document.activeElement")
    page.keyboard.press("ArrowRight")
    wait_kernel(page)
    page.wait_for_function("([root, text]) => document.querySelector(root).innerHTML.includes(text)",
                           arg=[".gf-explorer", f"<b>{expected.answer}</b>"])
    assert held.input_value() == "2" and explorer.locator(".gf-slider output").first.inner_text() == "2"
    explorer.screenshot(path=str(kit.parent / "explorer-keys.png"))

    the_lab = page.locator(".gf-lab").first
    the_lab.scroll_into_view_if_needed()
    assert the_lab.locator("[class*='gf-lineup-'] select").count() == 4
    the_lab.get_by_role("slider", name="players").focus()
    page.keyboard.press("ArrowLeft")
    wait_kernel(page)
    page.wait_for_function("() => document.querySelectorAll(\".gf-lab [class*='gf-lineup-'] select\").length === 3")
    no_traceback(page)
