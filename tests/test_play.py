"""``gofish-teach play`` in a real browser: Voilà serves the Table and the Explorer as a page of their own.

Starts the command as a learner would (it prints the address), opens the page in headless
Chromium through Playwright (the set-up of ``tests/test_browser.py``), plays one full turn by
clicking (ask until "Go Fish!", draw, and the bots play, one ask at a time, until it is our turn again), asks the
Explorer a question and moves one of its sliders with the keyboard, and checks that no Python
error reaches the page.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest

from gofish_teach.teacher.voila_page import notebook, voila_command
from test_browser import BOTS_PLAYING, RUN_SECONDS, START_SECONDS, _free_port

ROOT = Path(__file__).resolve().parent.parent
ADDRESS = re.compile(r"https?://\S+:\d+/\S*")
#: What Voilà or ipywidgets show when a cell or a callback fails.
ERRORS = ("Traceback", "There was an error when executing cell", "Error:", "Exception")
#: A log line of an opponent's ask (ours start with "You").
THEIR_ASK = re.compile(r"^(?!You\b)\S+ asks ", re.M)


def test_the_page_is_a_table_and_an_explorer_without_code():
    nb = notebook("classic", seed=5)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    assert [line.split("(")[0] for c in code for line in c.splitlines()[1:]] == ["Table", "Explorer"]
    assert "'classic'" in code[0] and "seed=5" in code[0]
    with pytest.raises(ValueError, match="--rules: 'poker' is not a rule set"):
        notebook("poker")
    assert "--show_tracebacks=False" in voila_command(Path("x.ipynb"), 9000, browser=False)


def test_save_writes_the_page_for_a_jupyter_server(tmp_path, capsys):
    from gofish_teach.__main__ import main

    assert main(["play", "--save", str(tmp_path / "play.ipynb"), "--rules", "family"]) == 0
    assert "/voila/render/play.ipynb" in capsys.readouterr().out
    saved = json.loads((tmp_path / "play.ipynb").read_text())
    assert saved == json.loads(json.dumps(notebook("family")))
    with pytest.raises(SystemExit):
        main(["play", "--port", "70000"])
    assert "--port: 70000 is not a port" in capsys.readouterr().err


def test_make_play_runs_the_command():
    dry = subprocess.run(["make", "-n", "play", "PLAY_ARGS=--port=9000"], cwd=ROOT, capture_output=True, text=True)
    assert ".venv/bin/gofish-teach play --port=9000" in dry.stdout


def test_binder_installs_the_package_and_saves_the_page():
    """What Binder runs (binder/postBuild): this package, then a command this command line accepts."""
    from gofish_teach.__main__ import build_parser

    post_build = ROOT / "binder" / "postBuild"
    assert os.access(post_build, os.X_OK)
    lines = [ln for ln in post_build.read_text().splitlines() if ln and not ln.startswith("#")]
    assert "python -m pip install --no-cache-dir ." in lines
    (command,) = [ln.split() for ln in lines if ln.startswith("gofish-teach ")]
    args = build_parser().parse_args(command[1:])
    assert args.run.__name__ == "run_play" and str(args.save) == "play.ipynb"


@pytest.fixture
def play_server(tmp_path):
    """``python -m gofish_teach play`` on a free port, from a folder outside the repository; yields the address it prints."""
    port = _free_port()
    log_path = tmp_path / "play.log"
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"), JUPYTER_CONFIG_DIR=str(tmp_path / "config"),
               BROWSER="")
    with open(log_path, "w") as log:
        server = subprocess.Popen([sys.executable, "-m", "gofish_teach", "play", "--port", str(port), "--seed", "11"],
                                  cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            deadline = time.monotonic() + START_SECONDS
            while not (found := ADDRESS.search(log_path.read_text())):
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"gofish-teach play did not print its address:\n{log_path.read_text()}")
                time.sleep(0.5)
            assert f":{port}/" in found.group(0)
            yield found.group(0)
        finally:
            server.terminate()              # as a kill would: the command stops Voila before it exits
            try:
                server.wait(timeout=60)
            except subprocess.TimeoutExpired:
                server.kill()
            left = _voila_processes(log_path)
            for pid in left:                # never leave a server behind, even if the test failed
                os.kill(pid, signal.SIGKILL)
    assert not left, f"gofish-teach play left Voila running: {left}"
    print(log_path.read_text()[-2000:])


def _voila_processes(log_path: Path) -> list[int]:
    """The Voila processes serving the page this test started (found by the port in its log)."""
    port = re.search(r":(\d+)/", log_path.read_text())
    if not port:
        return []
    found = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True).stdout.splitlines()
    return [int(line.split()[0]) for line in found if "voila" in line and f"--port={port.group(1)}" in line]


def _settle(page, selector: str, before: str, seconds: float = 120) -> str:
    """Wait until ``selector``'s HTML differs from ``before`` and then stays the same for a second."""
    page.wait_for_function("([s, old]) => document.querySelector(s).innerHTML !== old", arg=[selector, before],
                           timeout=seconds * 1000)
    last, still = None, 0
    while still < 4:
        now = page.locator(selector).first.inner_html()
        still, last = (still + 1, now) if now == last else (0, now)
        page.wait_for_timeout(250)
    return last


def only_this_machine(page) -> list[str]:
    """Let the page reach this machine alone, as offline or behind a classroom's firewall: every request to
    another host is refused; the list of their addresses (empty when the page needs none) is returned."""
    from urllib.parse import urlparse

    refused = []

    def route(route):
        if urlparse(route.request.url).hostname in ("localhost", "127.0.0.1", "::1"):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    page.route("**/*", route)
    return refused


@pytest.mark.slow
def test_play_a_turn_and_ask_the_explorer_in_a_browser(play_server, blank_page, tmp_path):
    """Offline too: every request to another host is refused, and the page works with none made."""
    page = blank_page
    refused = only_this_machine(page)
    page.goto(play_server)
    page.wait_for_selector(".gf-table .gf-rank", timeout=RUN_SECONDS * 1000)  # a kernel starts for the page
    page.wait_for_selector("text=Probability explorer")
    assert "import" not in page.locator("body").inner_text(), "the page shows code"
    table = page.locator(".gf-table").first

    # One full turn: ask (again after each success), draw after "Go Fish!", until an opponent has asked.
    log = page.locator(".gf-table .gf-log").first.inner_html()
    for _ in range(30):
        ocean = table.locator("button.gf-ocean")
        if ocean.is_enabled():
            ocean.click()
        else:
            table.locator("button.gf-rank:not([disabled])").first.click()
            table.locator("button.gf-ask:not([disabled])").first.click()
        log = _settle(page, ".gf-table .gf-log", log)
        page.wait_for_function(f"() => !({BOTS_PLAYING})()", timeout=RUN_SECONDS * 1000)  # one ask at a time
        log = page.locator(".gf-table .gf-log").first.inner_html()
        text = page.locator(".gf-table .gf-log").first.inner_text()
        if "You draw" in text and THEIR_ASK.search(text.split("You draw")[-1]):
            break
    else:
        pytest.fail(f"the turn never passed to an opponent in 30 clicks; the log says:\n{text}")
    assert "You ask" in text
    # Our turn again (or the game is over): something of ours can be clicked, or the log says so.
    assert table.locator("button.gf-rank:not([disabled]), button.gf-ocean:not([disabled])").count() \
        or "wins" in text or "Game over" in text

    # The Explorer answers a question: the ocean's top card, exactly as Explorer() does in Python.
    from gofish_teach.widgets import Explorer

    explorer = Explorer("pond")
    explorer.about.value = "ocean"
    answer = explorer.answer
    assert isinstance(answer, Fraction)
    page.get_by_role("button", name="the ocean's top card").click()
    page.wait_for_selector("text=P(the ocean's top card is", timeout=60_000)
    page.wait_for_selector(f"text={answer.numerator}/{answer.denominator}", timeout=60_000)
    # Its sliders (an anywidget front end, which Voila must load too): named, and moved by the keyboard.
    held = page.get_by_role("slider", name="copies you hold")
    held.focus()
    page.keyboard.press("ArrowRight")
    explorer.held.value = 2
    answer = explorer.answer
    page.wait_for_selector(f"text={answer.numerator}/{answer.denominator}", timeout=60_000)
    assert held.input_value() == "2"

    page.screenshot(path=str(tmp_path / "play.png"), full_page=True)
    assert refused == [], f"the page asked another host for {refused}"
    assert page.locator(".gf-placeheld").count() == 2 and not page.locator(".gf-placeheld:visible").count()
    body = page.locator("body").inner_text()
    assert not [e for e in ERRORS if e in body], body[-3000:]
    assert not page.locator(".gf-oops").count(), page.locator(".gf-oops").first.inner_text()
    print(f"screenshot: {tmp_path / 'play.png'}")

