"""The table in a real browser: JupyterLab on a free local port, headless Chromium driven by Playwright.

Opens a copy of ``notebooks/01-play-and-rules.ipynb`` (the committed file is never touched),
runs every cell, asks through the rendered controls, draws from the ocean, and checks that
the hand, the log and the heatmap change; a screenshot goes to the test's ``tmp_path``.
It also checks that JupyterLab 4 saves the notebook as committed (no metadata churn).

Needs a Chromium: ``/usr/bin/chromium`` (``apt-get install -y chromium``) or Playwright's own
(``.venv/bin/playwright install chromium``). Skips, saying so, when neither exists.
"""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "01-play-and-rules.ipynb"
SYSTEM_CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
HOW_TO_GET_ONE = ("no Chromium for the browser test: install one with `apt-get install -y chromium` "
                  "(as root; .ci/run does this) or `.venv/bin/playwright install chromium`")
#: Generous limits: the machine is shared, and the notebook runs whole games.
START_SECONDS, RUN_SECONDS, ACTION_MS = 120, 240, 60_000


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


@contextlib.contextmanager
def jupyterlab(root: Path, home: Path):
    """JupyterLab serving ``root`` on a free local port, with no token and its settings kept in ``home``."""
    port = _free_port()
    env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"), JUPYTER_RUNTIME_DIR=str(home / "runtime"),
               JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_DATA_DIR=str(home / "data"))
    env["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(Path(sys.prefix) / "share" / "jupyter"),
                                                        os.environ.get("JUPYTER_PATH")]))
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
               f"--ServerApp.root_dir={root}", "--IdentityProvider.token=", "--ServerApp.password=",
               "--ServerApp.disable_check_xsrf=True", "--LabApp.expose_app_in_browser=True", "--LabApp.check_for_updates_class="
               "jupyterlab.NeverCheckForUpdate"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    # No "would you like news?" prompt: nothing to click away, and nothing fetched.
    notification = home / "settings" / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    notification.parent.mkdir(parents=True, exist_ok=True)
    notification.write_text('{"fetchNews": "false", "checkForUpdates": false}')
    log = open(home / "jupyterlab.log", "w")
    server = subprocess.Popen(command, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/status", timeout=2)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"JupyterLab did not start; see {home / 'jupyterlab.log'}") from None
                time.sleep(0.5)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


@contextlib.contextmanager
def chromium_page(executable: str):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 2300})
            page.set_default_timeout(ACTION_MS)
            yield page
        finally:
            browser.close()


def open_notebook(page, url: str, name: str) -> None:
    page.goto(f"{url}/lab/tree/{name}")
    page.wait_for_selector(".jp-Notebook", timeout=START_SECONDS * 1000)
    wait_idle(page, START_SECONDS)


def wait_idle(page, seconds: float) -> None:
    """Wait until the status bar says the kernel is idle ("... | Idle")."""
    page.wait_for_function(
        """() => [...document.querySelectorAll('.jp-StatusBar-TextItem, .jp-StatusBar-Item')]
                 .some(e => /\\|\\s*Idle/.test(e.textContent))""", timeout=seconds * 1000)


def run_command(page, command: str) -> None:
    """Run a JupyterLab command by id (``runmenu:run-all``), as the menus do."""
    page.evaluate("""async (id) => {
        const app = window.jupyterapp || window.jupyterlab;
        await app.commands.execute(id);
    }""", command)


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


def _html(page, selector: str) -> str:
    return page.locator(selector).first.inner_html()


def _has_jupyter_app(page) -> bool:
    return page.evaluate("() => !!(window.jupyterapp || window.jupyterlab)")


def _strip_outputs(nb: dict) -> dict:
    """The notebook without what running it changes (outputs, execution counts)."""
    nb = json.loads(json.dumps(nb))
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    return nb


@pytest.mark.parametrize("path", [NOTEBOOK], ids=lambda p: p.name)
def test_the_notebook_is_saved_as_jupyterlab_saves_it(path):
    """Without a browser: what JupyterLab 4 would change on its first save is not in the file.

    It writes the kernel's display name into the metadata, drops cells' timing metadata
    (``execution``) when they run, and keeps the JSON in nbformat's layout.
    """
    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager

    text = path.read_text(encoding="utf-8")
    nb = json.loads(text)
    spec = nb["metadata"]["kernelspec"]
    assert spec["display_name"] == KernelSpecManager().get_kernel_spec(spec["name"]).display_name
    assert not [c["id"] for c in nb["cells"] if "execution" in c["metadata"]], "run nbconvert with record_timing=False"
    assert "widgets" not in nb["metadata"], "run nbconvert with store_widget_state=False"
    assert text == nbformat.writes(nbformat.reads(text, as_version=4)) + "\n"


@pytest.mark.slow
def test_play_the_table_in_jupyterlab(tmp_path):
    executable = _browser_path()
    if executable is None:
        pytest.skip(HOW_TO_GET_ONE)
    pytest.importorskip("playwright", reason="pip install playwright (it is in the test extras)")
    work = tmp_path / "lab"
    work.mkdir()
    shutil.copy(NOTEBOOK, work / NOTEBOOK.name)
    committed = NOTEBOOK.read_bytes()
    with jupyterlab(work, tmp_path) as url, chromium_page(executable) as page:
        open_notebook(page, url, NOTEBOOK.name)
        if not _has_jupyter_app(page):
            pytest.fail("JupyterLab's page has no window.jupyterapp to run commands with")

        # Saving what was opened, unchanged, must give back the committed bytes: no metadata churn.
        save(page, work / NOTEBOOK.name)
        assert (work / NOTEBOOK.name).read_bytes() == committed, "JupyterLab re-saved the notebook differently"

        run_command(page, "runmenu:run-all")
        page.wait_for_selector(".gf-table .gf-rank", timeout=RUN_SECONDS * 1000)
        wait_idle(page, RUN_SECONDS)
        table = page.locator(".gf-table").first
        table.scroll_into_view_if_needed()

        # Open the knowledge panel if the notebook did not, and read the table as it stands.
        if not page.locator(".gf-table .gf-heatmap").count():
            table.locator(".gf-knowledge").click()
            page.wait_for_selector(".gf-table .gf-heatmap")
        hand, log, heat = (_html(page, f".gf-table {s}") for s in (".gf-hand", ".gf-log", ".gf-heatmap"))

        # Ask: a rank from the hand, then the first opponent who can be asked.
        table.locator("button.gf-rank:not([disabled])").first.click()
        ask = table.locator("button.gf-ask:not([disabled])").first
        ask.wait_for()
        ask.click()
        page.wait_for_function("(old) => document.querySelector('.gf-table .gf-log').innerHTML !== old", arg=log)
        # Ask until an opponent says "Go Fish!" (a successful ask lets you go again), then draw.
        for _ in range(20):
            ocean = table.locator("button.gf-ocean")
            page.wait_for_timeout(300)
            wait_idle(page, 60)
            if ocean.is_enabled():
                break
            table.locator("button.gf-rank:not([disabled])").first.click()
            table.locator("button.gf-ask:not([disabled])").first.click()
        assert ocean.is_enabled(), "no \"Go Fish!\" in 20 asks"
        before_draw_hand = _html(page, ".gf-table .gf-hand")
        ocean.click()
        page.wait_for_function("(old) => document.querySelector('.gf-table .gf-hand').innerHTML !== old",
                               arg=before_draw_hand)
        wait_idle(page, 60)

        assert _html(page, ".gf-table .gf-hand") != hand
        assert _html(page, ".gf-table .gf-log") != log
        assert _html(page, ".gf-table .gf-heatmap") != heat
        assert "You ask" in page.locator(".gf-table .gf-log").inner_text()
        assert not page.locator(".gf-table .gf-oops").count(), page.locator(".gf-table .gf-oops").inner_text()
        table.screenshot(path=str(tmp_path / "table.png"))
        page.screenshot(path=str(tmp_path / "page.png"), full_page=False)

        # Saving after a run changes outputs only: no cell or notebook metadata churn.
        save(page, work / NOTEBOOK.name)
    saved = json.loads((work / NOTEBOOK.name).read_text(encoding="utf-8"))
    assert _strip_outputs(saved) == _strip_outputs(json.loads(committed))
    assert NOTEBOOK.read_bytes() == committed, "the committed notebook was modified"
    print(f"screenshot: {tmp_path / 'table.png'}")
