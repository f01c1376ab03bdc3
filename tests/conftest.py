"""Shared by the browser tests (test_browser, test_browser_question, test_play): one ``make lab``
serving a copy of the kit, and one Chromium, for the whole session."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from test_browser import (ACTION_MS, CHROMIUM_ARGS, HOW_TO_GET_ONE, KIT, ROOT, START_SECONDS, _browser_path,
                          _free_port, _shut_down_kernels)


# ---------------------------------------------------------------------- the tournament's key
def pytest_configure(config):
    """The tournament mixes a seed with the account's key (gofish_teach.tournament.secret): the tests use a
    fixed one, so that a test's seed deals the same decks on every machine, and the account's own is untouched."""
    if "GOFISH_TOURNAMENT_KEY" not in os.environ:
        folder = Path(tempfile.mkdtemp(prefix="gofish-test-key-"))
        (folder / "tournament.key").write_text("5e" * 32 + "\n")
        os.environ["GOFISH_TOURNAMENT_KEY"] = str(folder / "tournament.key")
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


# ---------------------------------------------------------------------- one server, one browser
@pytest.fixture(scope="session")
def kit(tmp_path_factory) -> Path:
    """A copy of the kit beside the repository's own ``.venv`` (linked), for ``make lab`` to serve."""
    venv = ROOT / ".venv"
    if not (venv / ".installed").exists() or Path(sys.prefix).resolve() != venv.resolve():
        pytest.skip("the browser tests run `make lab`, so they need make's .venv: run them with `make test`")
    home = tmp_path_factory.mktemp("browser")
    kit = home / "kit"
    kit.mkdir()
    for name in KIT:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, kit / name)
        else:
            shutil.copy2(source, kit / name)  # keeps the times: make sees .venv as up to date
    (kit / ".venv").symlink_to(venv)
    return kit


@pytest.fixture(scope="session")
def lab(kit) -> str:
    """``make lab`` serving the kit's copy on a free port, with no token; its address."""
    home = kit.parent
    port = _free_port()
    env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"), JUPYTER_RUNTIME_DIR=str(home / "runtime"),
               JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_DATA_DIR=str(home / "data"))
    args = (f"--no-browser --port={port} --ServerApp.ip=127.0.0.1 --IdentityProvider.token= "
            "--ServerApp.password= --ServerApp.disable_check_xsrf=True --LabApp.expose_app_in_browser=True")
    # The test's own user setting: every cell drawn, so that a long notebook's outputs can be read
    # (JupyterLab 4 draws only the cells near the view by default).
    tracker = home / "settings" / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings"
    tracker.parent.mkdir(parents=True, exist_ok=True)
    tracker.write_text('{"windowingMode": "none"}')
    log = open(home / "jupyterlab.log", "w")
    # -o: never reinstall the shared venv from the copy (it has no package: an editable install
    # made there would leave the venv, and the repository's own tests, without gofish_teach).
    server = subprocess.Popen(["make", "-s", "-o", ".venv/.installed", "lab", f"LAB_ARGS={args}"], cwd=kit,
                              env=env, stdout=log,
                              stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/status", timeout=2)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"make lab did not start JupyterLab; see {home / 'jupyterlab.log'}") from None
                time.sleep(0.5)
        yield url
    finally:
        os.killpg(server.pid, signal.SIGTERM)  # make, and the JupyterLab it started
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        log.close()


@pytest.fixture(scope="session")
def browser():
    executable = _browser_path()
    if executable is None:
        pytest.skip(HOW_TO_GET_ONE)
    pytest.importorskip("playwright", reason="pip install playwright (it is in the test extras)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def blank_page(browser):
    """A page of the session's one Chromium, with the tests' size and time limit."""
    page = browser.new_page(viewport={"width": 1400, "height": 2300})
    page.set_default_timeout(ACTION_MS)
    try:
        yield page
    finally:
        page.close()


@pytest.fixture
def page(blank_page, lab):
    """A page for JupyterLab: the kernels it started end with the test (the machine is small)."""
    try:
        yield blank_page
    finally:
        _shut_down_kernels(lab)


