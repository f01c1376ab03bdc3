"""Shared by the browser tests (test_browser, test_browser_question, test_play): one ``make lab``
serving a copy of the kit, and one Chromium, for the whole session."""
from __future__ import annotations

import contextlib
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

from test_browser import (
    ACTION_MS,
    CHROMIUM_ARGS,
    HOW_TO_GET_ONE,
    KIT,
    ROOT,
    START_SECONDS,
    _browser_path,
    _free_port,
    _shut_down_kernels,
)


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




# ---------------------------------------------------------------------- nothing a test leaves behind
# Issue 42: the Ctrl-C test of the tournament failed in the whole suite only. What a test leaves in
# pytest's process reaches every later test's subprocess: the signals it ignores or blocks (SIG_IGN and
# the mask survive exec, and a Python started with SIGINT ignored never raises KeyboardInterrupt), its
# environment and working folder; and what it leaves running (a sandbox, the fork server play_table
# keeps in this process) shares the machine with every later test. Each test must leave them as it found
# them: one that does not is named at the end and the run fails; what it changed is put back (its
# processes killed) so that the tests after it run as they would alone.
WATCHED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGALRM, signal.SIGCHLD, signal.SIGPIPE,
           signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2)


def _kernel_signals() -> dict[str, str]:
    """What the kernel holds for the main thread (set by Python or by any library's C): ignored, blocked."""
    found = {}
    with open(f"/proc/self/task/{os.getpid()}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("SigIgn", "SigBlk"):
                found[key] = value.strip()
    return found


def _signal_state() -> tuple[dict, dict, frozenset]:
    handlers = {signal.Signals(s).name: signal.getsignal(s) for s in WATCHED}
    return handlers, _kernel_signals(), frozenset(signal.pthread_sigmask(signal.SIG_BLOCK, []))


def _children() -> dict[int, str]:
    """This process's living descendants, from /proc (zombies are only ids waiting to be collected)."""
    parents, names = {}, {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        name, fields = stat[stat.index("(") + 1:stat.rindex(")")], stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z":
            parents[int(pid)], names[int(pid)] = int(fields[1]), name
    found, mine = {}, {os.getpid()}
    while grown := {p for p, parent in parents.items() if parent in mine and p not in mine}:
        mine |= grown
        found.update({p: names[p] for p in grown})
    return found


def _kill(pid: int) -> None:
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)


#: Set by a library the first time it is used in a process, whichever test that is (threadpoolctl, for OpenMP).
LIBRARIES_SET = {"KMP_DUPLICATE_LIB_OK"}

_KNOWN_CHILDREN: set[int] = set()  # those of session and module fixtures: they outlive a test by design


def _is_lasting_helper(pid: int) -> bool:
    """multiprocessing's resource tracker: started once, on first use, for the life of this process."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
    except OSError:
        return False
    return b"from multiprocessing.resource_tracker import main" in command


_TESTS = Path(__file__).resolve().parent


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if not Path(str(item.path)).resolve().is_relative_to(_TESTS):
        # Only this folder's tests: a notebook's cells (nbval) share the kernel its first cell starts, and the
        # package's doctests run in this process as the tests do but start nothing.
        yield
        return
    before, environ, cwd = _signal_state(), dict(os.environ), os.getcwd()
    children = set(_children())
    yield
    problems = []
    forkserver = sys.modules.get("gofish_teach.tournament.forkserver")
    if forkserver is not None:
        # play_table in this process keeps its fork server for the next table (a cluster's worker does);
        # a test's next table would get a server started with an earlier test's environment.
        forkserver.close_server()
    changed = sorted(k for k in environ.keys() | os.environ.keys()
                     if environ.get(k) != os.environ.get(k) and k not in LIBRARIES_SET)
    if changed:  # a subprocess inherits the environment too
        problems.append(f"it changed the environment: {changed}")
        os.environ.clear()
        os.environ.update(environ)
    if os.getcwd() != cwd:
        problems.append(f"it left the working folder at {os.getcwd()}")
        os.chdir(cwd)
    after = _signal_state()
    if after != before:
        problems.append(f"it changed this process's signals: before {before}, after {after}")
        signal.pthread_sigmask(signal.SIG_SETMASK, before[2])
        for name, handler in before[0].items():
            if handler is not None:
                signal.signal(signal.Signals[name], handler)
    # A wider fixture of this project's (pytest's own start no process) may start a server for the session.
    fixtures = getattr(item, "_fixtureinfo", None)  # a notebook's cell (nbval) has none
    wide = fixtures is not None and any(d.scope != "function" and d.baseid
                                        for defs in fixtures.name2fixturedefs.values() for d in defs)
    deadline = time.monotonic() + 10
    while (left := {p: c for p, c in _children().items() if p not in children | _KNOWN_CHILDREN}) \
            and time.monotonic() < deadline:
        time.sleep(0.2)  # a child being killed needs a moment
    for pid in [p for p in left if _is_lasting_helper(p)]:
        _KNOWN_CHILDREN.add(pid)  # multiprocessing's one resource tracker lives as long as this process, by design
        del left[pid]
    if left and wide:
        _KNOWN_CHILDREN.update(left)  # a wider fixture's server or browser, started by this test's setup
    elif left:
        problems.append(f"it left processes running: {left}")
        for pid in left:
            _kill(pid)
    if problems:
        item.warn(pytest.PytestWarning(f"{item.nodeid}: " + "; ".join(problems)))
        _LEAKS.append(f"{item.nodeid}: " + "; ".join(problems))


_LEAKS: list[str] = []


def pytest_sessionfinish(session, exitstatus):
    """A test that leaves its process changed fails the run, named (it was put right for the tests after it)."""
    if _LEAKS:
        session.config.pluginmanager.get_plugin("terminalreporter").write_line(
            "Tests that left this process changed:\n  " + "\n  ".join(_LEAKS), red=True)
        if exitstatus == 0:
            session.exitstatus = 1
