"""The kit in a real browser: ``make lab`` on a free local port, headless Chromium driven by Playwright.

One JupyterLab (started by ``make lab``, over a copy of the kit, so no committed file is touched)
and one Chromium serve every test here. They check what only a browser shows:

- ``make lab`` serves the whole kit (lessons, exercises, solutions) and asks nothing about news;
- every committed notebook, opened (trusted, as after a first save), run top to bottom and saved,
  comes back byte for byte, and shows a note where each widget goes before it runs, never a widget error;
- the Table played with the keyboard alone; its knowledge panel's bars drawn to scale; its seed
  box, its controls' accessible names, its look at game over; its bots' asks arriving one by one;
- the Explorer and the Lab: no broken images, no labels cut off, messages instead of tracebacks.

Needs a Chromium: ``/usr/bin/chromium`` (``apt-get install -y chromium``) or Playwright's own
(``.venv/bin/playwright install chromium``), and the ``.venv`` that ``make`` builds. Skips,
saying so, when either is missing. Screenshots go to the session's temporary folder.
"""
from __future__ import annotations

import json
import socket
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SYSTEM_CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
HOW_TO_GET_ONE = ("no Chromium for the browser test: install one with `apt-get install -y chromium` "
                  "(as root; .ci/run does this) or `.venv/bin/playwright install chromium`")
#: Generous limits: the machine is shared, and the lessons run whole games.
START_SECONDS, RUN_SECONDS, ACTION_MS = 120, 240, 60_000
#: Every committed notebook (globbed: lessons come and go).
NOTEBOOKS = sorted(p.relative_to(ROOT) for folder in ("notebooks", "exercises", "solutions")
                   for p in (ROOT / folder).glob("*.ipynb"))
#: What `make lab` serves, copied: the kit's folders and what `make` reads.
KIT = ("Makefile", "pyproject.toml", "jupyterlab-overrides.json", "notebooks", "exercises", "solutions")

def _browser_path() -> str | None:
    """``/usr/bin/chromium``, else Playwright's own Chromium if it was installed, else ``None``."""
    if SYSTEM_CHROMIUM.exists():
        return str(SYSTEM_CHROMIUM)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    with sync_playwright() as p:
        path = Path(p.chromium.executable_path)
    return str(path) if path.exists() else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _api(url: str, path: str, method: str = "GET"):
    request = urllib.request.Request(f"{url}/api/{path}", method=method)
    with urllib.request.urlopen(request, timeout=30) as answer:
        body = answer.read()
    return json.loads(body) if body else None


def _shut_down_kernels(url: str) -> None:
    """Each test's kernels end with it: the machine is small."""
    for session in _api(url, "sessions"):
        _api(url, f"sessions/{session['id']}", "DELETE")


# ---------------------------------------------------------------------- driving JupyterLab
def open_notebook(page, url: str, path: str) -> None:
    page.goto(f"{url}/lab/tree/{path}?reset")  # ?reset: no notebooks reopened from the last page
    page.wait_for_selector(".jp-Notebook", timeout=START_SECONDS * 1000)
    wait_idle(page, START_SECONDS)


def wait_idle(page, seconds: float) -> None:
    """Wait until the status bar says the kernel is idle and no cell is waiting to run ("[*]")."""
    page.wait_for_function(
        """() => [...document.querySelectorAll('.jp-StatusBar-TextItem, .jp-StatusBar-Item')]
                     .some(e => /\\|\\s*Idle/.test(e.textContent))
                 && ![...document.querySelectorAll('.jp-InputPrompt')].some(e => e.textContent.includes('*'))""",
        timeout=seconds * 1000)


def run_command(page, command: str) -> None:
    """Run a JupyterLab command by id (``runmenu:run-all``), as the menus do."""
    page.evaluate("""async (id) => {
        const app = window.jupyterapp || window.jupyterlab;
        await app.commands.execute(id);
    }""", command)


def run_all(page) -> None:
    run_command(page, "runmenu:run-all")
    page.wait_for_timeout(500)
    wait_idle(page, RUN_SECONDS)


def save(page, path: Path) -> None:
    """Save the open notebook (``docmanager:save``) and wait until the file on disk is rewritten."""
    before = path.stat().st_mtime_ns
    run_command(page, "docmanager:save")
    deadline = time.monotonic() + 60
    while path.stat().st_mtime_ns == before:
        if time.monotonic() > deadline:
            raise AssertionError(f"JupyterLab did not save {path.name}")
        time.sleep(0.2)
    time.sleep(0.5)  # the rename may land a moment after the first write


def scratch(kit: Path, name: str, *sources: str) -> str:
    """A notebook of code cells in the kit's copy (never committed), for a widget test."""
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources],
                                  metadata={"kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                                           "language": "python"}})
    (kit / name).write_text(nbformat.writes(nb), encoding="utf-8")
    return name


def outputs_text(page) -> str:
    """The text of every cell output (all drawn: the server's settings turn JupyterLab's windowing off)."""
    return "\n".join(page.locator(".jp-OutputArea-output").all_text_contents())


def visible_text(page) -> str:
    """The cells' outputs as a reader sees them (what a style hides is left out; the lessons' own words,
    which may name JupyterLab's messages, are not outputs)."""
    return "\n".join(page.locator(".jp-Notebook .jp-OutputArea").all_inner_texts())


def wait_widgets_settled(page, seconds: float = 60) -> None:
    """Wait until every widget output shows its widget or JupyterLab's last word on it ("Error displaying
    widget"), not "Loading widget...": once the widget manager has asked the kernel which widgets it holds."""
    page.wait_for_function("""() => [...document.querySelectorAll('.jp-OutputArea-output.lm-Panel')]
                                  .every(e => e.classList.contains('jupyter-widgets') || e.children.length)""",
                           timeout=seconds * 1000)


def wait_kernel(page) -> None:
    page.wait_for_timeout(300)
    wait_idle(page, 60)


def broken_images(page, selector: str) -> list[str]:
    """Images shown in ``selector`` that draw the browser's broken-image icon (no picture in them)."""
    return page.evaluate("""(sel) => [...document.querySelectorAll(sel + ' img')]
        .filter(i => i.offsetParent !== null && !(i.complete && i.naturalWidth > 0))
        .map(i => i.outerHTML.slice(0, 80))""", selector)


def cut_off(page, selector: str) -> list[str]:
    """Texts in ``selector`` cut off by their box (drawn wider than it), such as "the ocean's top …"."""
    return page.evaluate("""(sel) => [...document.querySelectorAll(sel)]
        .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
        .map(e => e.textContent.trim())""", selector)


def unnamed_controls(page, selector: str) -> list[str]:
    """Controls in ``selector`` with no accessible name (no text, label, aria-label or title).

    Sliders included: the widgets' sliders are ``<input type="range">`` with a ``<label for>``.
    """
    return page.evaluate("""(sel) => [...document.querySelectorAll(
            sel + ' button, ' + sel + ' input, ' + sel + ' select, ' + sel + ' textarea')]
        .filter(e => e.offsetParent !== null)
        .filter(e => {
            const byId = e.id && document.querySelector('label[for="' + e.id + '"]');
            const labelled = (e.getAttribute('aria-labelledby') || '').split(' ')
                .map(i => document.getElementById(i)).filter(Boolean);
            const names = [e.getAttribute('aria-label'), byId && byId.textContent, e.closest('label') && e.closest('label').textContent,
                           ...labelled.map(l => l.textContent), e.tagName === 'BUTTON' ? e.textContent : '', e.title];
            return !names.some(n => n && n.trim());
        })
        .map(e => e.outerHTML.slice(0, 120))""", selector)


#: True while a Table's bots still play their asks, one per event (its status says so).
BOTS_PLAYING = ("() => [...document.querySelectorAll('.gf-table .gf-status')]"
                ".some(s => s.textContent.includes('The bots are playing'))")


#: True while a Table's knowledge panel says "Counting…": after a click its count is an event of its own.
PANEL_COUNTING = "() => !!document.querySelector('.gf-table .gf-counting')"


def wait_bots(page, seconds: float = RUN_SECONDS) -> None:
    """Wait until no Table's bots are playing (after a click they ask one at a time, a moment apart)
    and no knowledge panel is counting."""
    page.wait_for_function(f"() => !({BOTS_PLAYING})() && !({PANEL_COUNTING})()", timeout=seconds * 1000)
    wait_idle(page, seconds)


def no_traceback(page) -> None:
    text = page.locator(".jp-OutputArea").all_inner_texts()
    assert not page.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]').count(), text
    assert not any("Traceback" in t or "UnboundLocalError" in t for t in text), text


# ---------------------------------------------------------------------- without a browser
@pytest.mark.parametrize("path", NOTEBOOKS, ids=str)
def test_the_notebook_is_saved_as_jupyterlab_saves_it(path):
    """What JupyterLab 4 would change on its first save is not in the file.

    It writes the kernel's display name into the metadata, drops cells' timing metadata
    (``execution``) when they run, and keeps the JSON in nbformat's layout.
    """
    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager

    text = (ROOT / path).read_text(encoding="utf-8")
    nb = json.loads(text)
    spec = nb["metadata"]["kernelspec"]
    assert spec["display_name"] == KernelSpecManager().get_kernel_spec(spec["name"]).display_name
    assert not [c["id"] for c in nb["cells"] if "execution" in c["metadata"]], "run nbconvert with record_timing=False"
    assert "widgets" not in nb["metadata"], "run nbconvert with store_widget_state=False"
    assert text == nbformat.writes(nbformat.reads(text, as_version=4)) + "\n"


# ---------------------------------------------------------------------- make lab
@pytest.mark.slow
def test_make_lab_serves_the_whole_kit_and_asks_nothing_about_news(page, lab, kit, tmp_path):
    root = {item["name"] for item in _api(lab, "contents")["content"]}
    assert {"notebooks", "exercises", "solutions"} <= root, root
    for folder in ("notebooks", "exercises", "solutions"):
        names = {item["name"] for item in _api(lab, f"contents/{folder}")["content"]}
        assert names >= {p.name for p in NOTEBOOKS if p.parts[0] == folder}
    page.goto(lab)  # where `make lab` sends a browser: the first lesson
    page.wait_for_selector(".jp-Notebook", timeout=START_SECONDS * 1000)
    assert "/lab/tree/notebooks/00-welcome.ipynb" in page.url
    assert page.locator(".jp-DirListing-item", has_text="00-welcome.ipynb").count()
    page.wait_for_timeout(4000)  # the news question comes a moment after the page
    assert not page.get_by_text("official Jupyter news").count(), "JupyterLab asked about news"
    assert not page.locator(".jp-Notification-Toast, .Toastify__toast").count()
    page.screenshot(path=str(kit.parent / "make-lab.png"))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "exercises/" in readme and "solutions/" in readme and "make lab" in readme


# ---------------------------------------------------------------------- notebooks, saved as committed
@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=str)
def test_open_run_all_and_save_gives_back_the_committed_bytes(page, lab, kit, path):
    committed = (ROOT / path).read_bytes()
    copy = kit / path
    # Trusted, as JupyterLab trusts a notebook it has saved (a learner's second visit): it then draws the
    # saved widget outputs, which have no model before their cells run (untrusted, it draws none).
    _api(lab, f"contents/{path}/trust", "POST")
    open_notebook(page, lab, str(path))
    # Before running: in place of each widget a note to run the cell, and no widget error.
    wait_widgets_settled(page)
    shown = visible_text(page)
    assert "Error displaying widget" not in shown and "model not found" not in shown and "Loading widget" not in shown
    widgets = committed.count(b"application/vnd.jupyter.widget-view+json")
    assert shown.count("appears here once this cell has run") == widgets
    run_all(page)
    no_traceback(page)
    wait_widgets_settled(page)
    shown = visible_text(page)
    assert "Error displaying widget" not in shown and "appears here once this cell has run" not in shown
    if path.name.startswith("00-"):
        # The win-share table's caption sits over the table in at most two lines.
        caption = page.locator(".jp-OutputArea-output caption").first
        lines = caption.evaluate("c => c.getBoundingClientRect().height / parseFloat(getComputedStyle(c).lineHeight)")
        assert lines < 2.5, f"the caption wraps over {lines:.1f} lines"
    save(page, copy)
    saved = copy.read_bytes()
    if saved != committed:
        import difflib

        diff = "".join(difflib.unified_diff(committed.decode().splitlines(True), saved.decode().splitlines(True), n=1))
        raise AssertionError(f"{path} changed on open, Run All and save:\n{diff[:3000]}")


# ---------------------------------------------------------------------- the Table
TABLE_CELLS = (
    "from gofish_teach.widgets import Table\n"
    "table = Table('pond', opponents=['memory', 'random', 'greedy'], seed=7, knowledge=True)\ntable",
    # A whole game played through the controls, to see the table at game over.
    "import numpy as np\n"
    "over = Table('pond', opponents=['random', 'memory', 'greedy'], seed=3)\n"
    "rng = np.random.default_rng(0)\n"
    "while not over.match.game.is_over:\n"
    "    if over.waiting_for_you == 'draw':\n"
    "        over.ocean.click()\n"
    "    else:\n"
    "        ranks = [r for r, b in over.rank_buttons.items() if not b.disabled]\n"
    "        over.rank_buttons[ranks[rng.integers(len(ranks))]].click()\n"
    "        asks = [q for q, b in over.ask_buttons.items() if not b.disabled]\n"
    "        over.ask_buttons[asks[rng.integers(len(asks))]].click()\n"
    "over",
    # Two players: North, asked for Queens (the longest ask a pond table words).
    "north = Table('pond', opponents=['random'], seed=10)\nnorth.rank_buttons['Q'].click()\nnorth",
)

#: Where the keyboard's focus is: in a table (its classes), or "body" when the page dropped it.
FOCUS = "() => document.activeElement.closest('.gf-table') ? document.activeElement.className : document.activeElement.tagName"


def _luminance(rgb: str) -> float:
    """WCAG's relative luminance of a CSS ``rgb(r, g, b)`` colour."""
    import re

    channels = [int(c) / 255 for c in re.findall(r"\d+", rgb)[:3]]
    r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG's contrast ratio of two CSS colours.

    >>> round(contrast("rgb(255, 255, 255)", "rgb(0, 0, 0)"), 1)
    21.0
    """
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def focus_ring(page) -> dict:
    """The focused element's ring: outline width and colour, the box shadow, the animation."""
    return page.evaluate("""() => { const s = getComputedStyle(document.activeElement);
        return {width: parseFloat(s.outlineWidth), style: s.outlineStyle, color: s.outlineColor,
                shadow: s.boxShadow, animation: s.animationName}; }""")


def _tab_to(page, selector: str, limit: int = 80) -> int:
    """Press Tab until the focus is on an element matching ``selector``; how many Tabs that took."""
    for pressed in range(limit):
        if page.evaluate("(sel) => !!document.activeElement && document.activeElement.matches(sel)", selector):
            return pressed
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


@pytest.mark.slow
def test_the_table_with_the_keyboard_to_scale_named_and_at_game_over(page, lab, kit):
    open_notebook(page, lab, scratch(kit, "table.ipynb", *TABLE_CELLS))
    run_all(page)
    no_traceback(page)
    table = page.locator(".gf-table").first
    table.scroll_into_view_if_needed()

    # Keyboard alone: Tab to a rank, Enter; Tab to an opponent, Enter; after "Go Fish!", Tab to the ocean, Enter.
    log = table.locator(".gf-log")
    drew, focused = False, []
    for _ in range(12):
        table.locator(".gf-header").first.click()  # start the Tab order at the top of the table
        _tab_to(page, ".gf-table button.gf-rank:not([disabled])")
        if len(focused) == 0:  # the hand is one Tab stop: the arrow keys move along its ranks
            first = page.evaluate("() => document.activeElement.textContent")
            page.keyboard.press("ArrowRight")
            moved = page.evaluate("() => document.activeElement.matches('.gf-rank') && document.activeElement.textContent")
            assert moved and moved != first, (first, moved)
        page.keyboard.press("Enter")
        wait_kernel(page)
        # the rank picked, one Tab reaches the Ask buttons (not the rest of the hand first)
        tabs = _tab_to(page, ".gf-table button.gf-ask:not([disabled])")
        assert tabs == 1, f"{tabs} Tabs from the rank picked to an Ask button"
        before = log.inner_html()
        page.keyboard.press("Enter")
        page.wait_for_function("(old) => document.querySelector('.gf-table .gf-log').innerHTML !== old", arg=before)
        wait_kernel(page)
        wait_bots(page)
        # The Ask button pressed is disabled now (or the game waits for the ocean): the focus stays in the
        # table, on what the game waits for, never dropped to the page's body.
        page.wait_for_function(f"() => ({FOCUS})() !== 'BODY' && ({FOCUS})() !== 'gf-statusbox'")
        focused.append(page.evaluate(FOCUS))
        if table.locator("button.gf-ocean:not([disabled])").count():
            assert "gf-ocean" in focused[-1], focused  # after "Go Fish!": on the ocean, Enter draws
            ring = focus_ring(page)
            # A ring of at least 2 px in two tones, seen on the felt and on the ocean's pulse (which stops under it)
            assert ring["width"] >= 2 and ring["style"] == "solid" and ring["animation"] == "none", ring
            felt, pulse = "rgb(47, 138, 87)", "rgb(255, 213, 79)"  # the felt's lightest green, the pulse's yellow
            dark = ring["shadow"].split(")")[0] + ")"
            assert "2px" in ring["shadow"] and contrast(ring["color"], felt) >= 3 and contrast(dark, pulse) >= 3, ring
            hand = table.locator(".gf-hand").inner_html()
            _tab_to(page, ".gf-table button.gf-ocean")
            page.keyboard.press("Enter")
            page.wait_for_function("(old) => document.querySelector('.gf-table .gf-hand').innerHTML !== old",
                                   arg=hand)
            wait_kernel(page)
            wait_bots(page)
            page.wait_for_function(f"() => ({FOCUS})() !== 'BODY'")  # the ocean, disabled: the focus stays
            focused.append(page.evaluate(FOCUS))
            drew = True
            break
    assert drew, "no \"Go Fish!\" in 12 keyboard asks"
    print("the focus after each ask and the draw:", focused)
    assert "You ask" in log.inner_text() and "You draw" in log.inner_text()
    assert not table.locator(".gf-oops").count(), table.locator(".gf-oops").inner_text()

    # The ocean's top-card bars: each fill as tall as its share of the tallest, to a pixel or two.
    bars = table.locator(".gf-bars .gf-bar").evaluate_all("""bars => bars.map(b => {
        const fill = b.querySelector('.gf-fill'), track = b.querySelector('.gf-track');
        return {pct: parseFloat(fill.style.height), fill: fill.getBoundingClientRect().height,
                track: track.getBoundingClientRect().height, label: b.textContent}; })""")
    assert len(bars) == 13
    for bar in bars:
        assert abs(bar["fill"] - max(1.0, bar["track"] * bar["pct"] / 100)) <= 1.5, bar
    heights = sorted({round(b["fill"]) for b in bars})
    assert len(heights) > 2, bars  # different chances, different bars
    print("bars (percent of the tallest -> px):", [(b["pct"], round(b["fill"], 1)) for b in bars])

    # The heatmap prints its values and says in words what its marks mean.
    cells = table.locator(".gf-heat td").all_inner_texts()
    assert cells and all(c.strip() for c in cells), cells
    assert "A dot after a rank is one card of it in your hand" in table.locator(".gf-legend").inner_text()

    # Every control can be named by a screen reader; no label cut off.
    assert unnamed_controls(page, ".gf-table") == []
    assert cut_off(page, ".gf-table button") == []

    # The seed box: a negative seed is a message at once; a 23-digit seed deals on the same click.
    seed = table.locator("input[type=text]").first
    seed.fill("-5")
    table.locator("button.gf-deal").click()
    wait_kernel(page)
    assert "seed: a seed is a whole number, 0 or more, not -5" in table.locator(".gf-oops").inner_text()
    assert "Something went wrong" not in table.inner_text()
    big = "12345678901234567890123"
    seed.fill(big)
    table.locator("button.gf-deal").click()
    wait_kernel(page)
    wait_bots(page)
    assert f"seed {big}" in table.locator(".gf-header").first.inner_text()
    assert not table.locator(".gf-oops").count()
    table.screenshot(path=str(kit.parent / "table.png"))

    # At game over: the Ask buttons in one line, no card back on the empty ocean, no broken image.
    over = page.locator(".gf-table").nth(1)
    over.scroll_into_view_if_needed()
    assert "wins" in over.locator(".gf-status").inner_text() or "tie" in over.locator(".gf-status").inner_text()
    tops = {round(y) for y in over.locator("button.gf-ask").evaluate_all(
        "bs => bs.map(b => b.getBoundingClientRect().top)")}
    assert len(tops) == 1, tops
    ocean = over.locator("button.gf-ocean")
    if "empty" in ocean.inner_text():
        assert ocean.evaluate("b => getComputedStyle(b).backgroundImage") == "none"
    assert cut_off(page, ".gf-table button") == []
    assert broken_images(page, ".jp-Notebook") == []
    over.screenshot(path=str(kit.parent / "game-over.png"))


BOTS_CELL = ("from gofish_teach.widgets import Table\n"
             "# Seat 2: the bots ask first, nine asks before your first turn in this deal.\n"
             "table = Table('pond', opponents=['memory', 'random', 'greedy'], seed=4, seat=2, step=True)\ntable")


@pytest.mark.slow
def test_the_bots_ask_one_at_a_time_after_a_click(page, lab, kit):
    """Leaving step mode by a click: the bots' asks reach the page one by one, each drawn, up to your turn."""
    open_notebook(page, lab, scratch(kit, "bots.ipynb", BOTS_CELL))
    run_all(page)
    no_traceback(page)
    table = page.locator(".gf-table").first
    table.scroll_into_view_if_needed()
    assert "Step mode" in table.locator(".gf-status").inner_text()
    # Every change the page draws: how many log lines, and whether an ask button could be clicked then.
    page.evaluate("""() => {
        const table = document.querySelector('.gf-table');
        window.gfSeen = [];
        const look = () => {
            const lines = table.querySelectorAll('.gf-log .gf-line').length;
            const last = window.gfSeen[window.gfSeen.length - 1];
            if (!last || last.lines !== lines)
                window.gfSeen.push({lines, askable: table.querySelectorAll('button.gf-ask:not([disabled])').length,
                                    status: table.querySelector('.gf-status').textContent});
        };
        look();
        new MutationObserver(look).observe(table, {childList: true, subtree: true, characterData: true});
    }""")
    table.locator("button", has_text="Step mode").click()
    page.wait_for_function(BOTS_PLAYING, timeout=60_000)
    page.wait_for_selector(".gf-table .gf-status:has-text('Your turn')", timeout=RUN_SECONDS * 1000)
    wait_idle(page, 60)
    seen = page.evaluate("() => window.gfSeen")
    growth = [b["lines"] - a["lines"] for a, b in zip(seen, seen[1:], strict=False)]
    assert len(growth) >= 2 and all(g > 0 for g in growth), seen  # at least two renders, each with more lines
    assert all(s["askable"] == 0 and "Your turn" not in s["status"] for s in seen[:-1]), seen
    assert any("The bots are playing" in s["status"] for s in seen), seen
    assert table.locator("button.gf-ask:not([disabled]), button.gf-rank:not([disabled])").count()
    assert not table.locator(".gf-oops").count(), table.locator(".gf-oops").inner_text()
    no_traceback(page)
    print("log lines at each render:", [s["lines"] for s in seen])


PANEL_CELL = ("from gofish_teach.widgets import Table\n"
              "table = Table('pond', opponents=['memory', 'random', 'greedy'], seed=7, knowledge=True, hints=True)\n"
              "table")


@pytest.mark.slow
def test_after_a_click_the_knowledge_panel_says_counting_then_fills_in(page, lab, kit):
    """The table is drawn at once after your ask, the panel with a "Counting…" note over the chances it
    showed, dimmed; its exact count, an event of its own, then fills in the heatmap and the bars."""
    open_notebook(page, lab, scratch(kit, "panel.ipynb", PANEL_CELL))
    run_all(page)
    no_traceback(page)
    table = page.locator(".gf-table").first
    table.scroll_into_view_if_needed()
    assert table.locator(".gf-heat td").count() and not table.locator(".gf-counting").count()
    # What the panel shows at each change the page draws: "counting", "heatmap" or anything else.
    page.evaluate("""() => {
        const box = document.querySelector('.gf-table .gf-heatmapbox');
        window.gfPanel = [];
        const look = () => {
            const now = box.querySelector('.gf-counting')
                ? (box.querySelector('.gf-stale .gf-heat') ? 'counting over the old chances' : 'counting')
                : box.querySelector('.gf-heat') ? 'heatmap' : 'other';
            if (window.gfPanel[window.gfPanel.length - 1] !== now) window.gfPanel.push(now);
        };
        new MutationObserver(look).observe(box, {childList: true, subtree: true, characterData: true});
    }""")
    heat = table.locator(".gf-heatmapbox").inner_html()
    table.locator("button.gf-rank-3").click()
    wait_kernel(page)
    table.locator("button.gf-ask-1").click()  # this deal: West says "Go Fish!" to 3s
    page.wait_for_selector(".gf-table .gf-status:has-text('Go Fish')")
    page.wait_for_function(f"() => !({PANEL_COUNTING})() && document.querySelector('.gf-table .gf-heat')")
    wait_idle(page, 60)
    seen = page.evaluate("() => window.gfPanel")
    # the note over the chances before the ask (dimmed: the panel keeps its size), then the count filled in
    assert seen == ["counting over the old chances", "heatmap"], seen
    assert table.locator(".gf-heatmapbox").inner_html() != heat  # the count for the state after the ask
    assert table.locator(".gf-bars .gf-bar").count() == 13 and "gf-asked" in table.locator(".gf-bars").inner_html()
    assert not table.locator(".gf-oops").count() and "could not count" not in table.inner_text()
    no_traceback(page)
    table.screenshot(path=str(kit.parent / "panel-filled.png"))


HELD_COUNT_CELL = (
    "import threading\n"
    "from gofish_teach.probability import exact\n"
    "from gofish_teach.widgets import Table\n"
    "table = Table('pond', opponents=['memory', 'random', 'greedy'], seed=7, knowledge=True)\n"
    "gate, real = threading.Event(), exact._world_counts\n"
    "def held(*args):  # every count from now on waits until the kernel has handled the Hint click\n"
    "    assert gate.wait(120)\n"
    "    return real(*args)\n"
    "exact._world_counts = held\n"
    "table.hint_toggle.observe(lambda change: gate.set(), 'value')\n"
    "table")


@pytest.mark.slow
def test_while_the_panel_counts_the_kernel_answers_clicks(page, lab, kit):
    """The panel's exact count runs in a thread of its own: a click made while it runs is handled at once.
    The cell holds every count until the kernel has handled a click on "Hint"; were the count on the
    kernel's own loop, that click would wait behind it and the panel would never fill in."""
    open_notebook(page, lab, scratch(kit, "held.ipynb", HELD_COUNT_CELL))
    run_all(page)
    no_traceback(page)
    table = page.locator(".gf-table").first
    table.scroll_into_view_if_needed()
    table.locator("button.gf-rank-3").click()
    wait_kernel(page)
    table.locator("button.gf-ask-1").click()  # this deal: West says "Go Fish!" to 3s
    page.wait_for_selector(".gf-table .gf-status:has-text('Go Fish')")
    page.wait_for_function(PANEL_COUNTING)
    table.get_by_role("button", name="Hint", exact=True).click()
    page.wait_for_selector(".gf-table .gf-hintbox", timeout=30_000)  # the click answered while counting
    page.wait_for_function(f"() => !({PANEL_COUNTING})() && document.querySelector('.gf-table .gf-heat')",
                           timeout=60_000)
    wait_idle(page, 60)
    assert not table.locator(".gf-oops").count() and "could not count" not in table.inner_text()
    no_traceback(page)


# ---------------------------------------------------------------------- the Explorer and the Lab
EXPLORER_CELL = ("from gofish_teach.widgets import Explorer\n"
                 "impossible = Explorer()\nimpossible.asked.value = True\nimpossible.go_fish.value = True\nimpossible")
#: Lesson 03's explorer: every deal that fits has the same count of 7s on the ocean's top (a share of 1).
EDGE_CELL = ("ocean = Explorer(rank='7')\n"
             "ocean.held.value, ocean.other_cards.value, ocean.books.value = 2, 1, 2\n"
             "ocean.their_hand.value, ocean.go_fish.value = 4, True\n"
             "ocean.textbook.value, ocean.about.value = True, 'ocean'\nocean")
LAB_CELLS = (
    "from gofish_teach.widgets import Lab\n"
    "def oops(view, rng):\n    return 1 // 0\n"
    "lab = Lab(strategies={'oops': oops}, rules='family', players=2, games=300, seed=1)\nlab",
    "print('the cell after the lab runs')",
    # A strategy that wins none of these 100 games: a win share of 0, its interval from 0.
    "def fewest(view, rng):\n"
    "    counts = view.counts\n"
    "    return min(q for q in range(view.n_players) if q != view.player), min(counts, key=lambda r: (counts[r], r))\n"
    "never = Lab(strategies={'fewest': fewest}, rules='pond', players=3, games=100, seed=2)\n"
    "never.lineup[0].value, never.lineup[1].value, never.lineup[2].value = 'fewest', 'memory', 'memory'\nnever",
)


@pytest.mark.slow
def test_the_explorer_and_the_lab_say_what_is_wrong_without_traceback_or_broken_image(page, lab, kit):
    open_notebook(page, lab, scratch(kit, "explorer-lab.ipynb", EXPLORER_CELL, EDGE_CELL, *LAB_CELLS))
    run_all(page)
    no_traceback(page)
    explorer = page.locator(".gf-explorer").first
    message = explorer.locator(".gf-message").inner_text()
    assert message.startswith("They asked for 7s, so they hold at least one"), message
    assert "at_least" not in message and "seat 1" not in message
    assert cut_off(page, ".gf-explorer button, .gf-explorer .widget-label, .gf-explorer label") == []
    assert unnamed_controls(page, ".gf-explorer") == []
    # The Lab before its first run: no picture, so no image at all.
    assert broken_images(page, ".jp-Notebook") == []

    the_lab = page.locator(".gf-lab").first
    the_lab.scroll_into_view_if_needed()
    hidden = ":not(.gf-sr-label *)"  # the lineup menus' labels: for a screen reader, clipped from view
    assert cut_off(page, f".gf-lab .widget-label{hidden}, .gf-lab label{hidden}, .gf-lab .widget-label-basic") == []
    assert unnamed_controls(page, ".gf-lab") == []
    games = the_lab.locator(".gf-games input")
    for typed, words in (("0", "games: play at least 1 game, not 0"), ("-10", "games: play at least 1 game, not -10"),
                         ("abc", "games: type a whole number of games")):
        games.fill(typed)
        the_lab.locator("button.gf-run").click()
        wait_kernel(page)
        assert words in the_lab.locator(".gf-message").inner_text()
        no_traceback(page)
        assert broken_images(page, ".jp-Notebook") == []
    games.fill("300")
    the_lab.locator(".gf-lineup-0 select").select_option("oops")
    the_lab.locator("button.gf-run").click()
    wait_kernel(page)
    assert "ZeroDivisionError" in the_lab.locator(".gf-message").inner_text()
    no_traceback(page)
    assert broken_images(page, ".jp-Notebook") == []
    # A good run: two progress bars, labelled apart; the plot shown.
    the_lab.locator(".gf-lineup-0 select").select_option("memory")
    the_lab.locator("button.gf-run").click()
    wait_kernel(page)
    page.wait_for_function("() => document.querySelector('.gf-lab img') && document.querySelector('.gf-lab img').naturalWidth > 0")
    progress = the_lab.locator(".gf-progress").inner_text().replace("\u2007", " ")  # tqdm pads with figure spaces
    assert "lineup games" in progress and "baseline games" in progress, progress
    assert the_lab.locator(".gf-message").inner_text() == ""
    no_traceback(page)
    assert broken_images(page, ".jp-Notebook") == []
    assert page.get_by_text("the cell after the lab runs").count()
    the_lab.screenshot(path=str(kit.parent / "lab.png"))

    # A win share of 0: the plot, no message ("'xerr' must not contain negative values" before).
    never = page.locator(".gf-lab").nth(1)
    never.scroll_into_view_if_needed()
    never.locator("button.gf-run").click()
    wait_kernel(page)
    never.locator("img").wait_for(state="visible")
    assert never.locator("img").evaluate("i => i.naturalWidth") > 0 and never.locator(".gf-message").inner_text() == ""
    no_traceback(page)

    # Lesson 03's explorer: a share of 1 is plotted with its estimate (seed 15 left the last plot, no message).
    edge = page.locator(".gf-explorer").nth(1)
    edge.scroll_into_view_if_needed()
    estimate, image = edge.locator(".gf-estimate"), edge.locator("img")

    def simulate(deals: str, seed: str) -> str:
        before = image.get_attribute("src")
        edge.locator(".gf-samples input").fill(deals)
        edge.locator(".gf-seed input").fill(seed)
        edge.locator("button.gf-simulate").click()
        wait_kernel(page)
        return before

    before = simulate("20000", "15")
    page.wait_for_function("(e) => e.textContent.includes('seed 15')", arg=estimate.element_handle())
    assert "Monte Carlo" in estimate.inner_text() and "could not" not in estimate.inner_text()
    assert image.get_attribute("src") != before and image.evaluate("i => i.naturalWidth") > 0  # the new plot

    # The number boxes take a whole number or say what is wrong (a browser's number box read "5000.5" as 50005).
    for deals, seed, words in (("5000.5", "1", "deals: type a whole number of deals, such as 20000, not '5000.5'"),
                               ("1e6", "1", "deals: type a whole number of deals, such as 20000, not '1e6'"),
                               ("20000", "1.5", "seed: type a whole number, 0 or more, not '1.5'")):
        simulate(deals, seed)
        page.wait_for_function("([e, w]) => e.textContent.includes(w)", arg=[estimate.element_handle(), words])
    # A million deals take seconds: the explorer says it is dealing, its button disabled, until the answer.
    page.evaluate("""(root) => { window.gfSaid = [];
        const said = root.querySelector('.gf-estimate'), button = root.querySelector('button.gf-simulate');
        new MutationObserver(() => window.gfSaid.push([said.textContent, button.disabled]))
            .observe(root, {subtree: true, childList: true, characterData: true, attributes: true}); }""",
                  edge.element_handle())
    simulate("1,000,000", "3")
    page.wait_for_function("(e) => e.textContent.includes('Monte Carlo') && e.textContent.includes('1,000,000')",
                           arg=estimate.element_handle(), timeout=RUN_SECONDS * 1000)
    said = page.evaluate("() => window.gfSaid")
    assert any("Dealing 1,000,000 random deals" in s and disabled for s, disabled in said), said
    assert not edge.locator("button.gf-simulate").is_disabled()
    no_traceback(page)
    edge.screenshot(path=str(kit.parent / "explorer-edge.png"))
