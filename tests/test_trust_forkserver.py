"""The fork server's sandboxes, probed from inside: what an entry forked into one can see, reach and keep.

Each probe is an entry file whose code runs at load and reports what it found by raising: the
tournament's end reads the message in the entry's forfeit (``the file could not be loaded:
RuntimeError: ...``). Every sandbox here is forked by the fork server (the default), inside
bubblewrap (``require``: CI installs it).
"""
from __future__ import annotations

import textwrap

import pytest

from gofish_teach.tournament import forkserver, seat
from gofish_teach.tournament.seat import Forfeit, LearnerPlayer

PROBE = '''
import ctypes, os, socket
libc = ctypes.CDLL(None, use_errno=True)
found = {}
found["pid"] = os.getpid()
try:
    found["proc"] = sorted(os.listdir("/proc"))
except OSError as e:
    found["proc"] = e.errno
header = (ctypes.c_uint32 * 2)(0x20080522, 0)
data = (ctypes.c_uint32 * 6)()
libc.capget(header, data)
found["caps"] = list(data)
found["no_new_privs"] = libc.prctl(39, 0, 0, 0, 0)
found["mount"] = libc.mount(b"tmpfs", b"/sandbox", b"tmpfs", 0, None) == 0
try:
    socket.create_connection(("127.0.0.1", 22), timeout=1)
    found["network"] = True
except OSError:
    found["network"] = False
writable = []
for folder in ("/", "/etc", "/dev", "/tmp", "/sandbox", "/dev/shm", "/usr", os.path.dirname(os.__file__)):
    try:
        with open(os.path.join(folder, "probe-TOKEN"), "w") as f:
            f.write("x")
        writable.append(folder)
    except OSError:
        pass
found["writable"] = writable
found["left"] = sorted(p for p in ("/tmp/left", "/sandbox/left", "/dev/shm/left") if os.path.exists(p))
for p in ("/tmp/left", "/sandbox/left", "/dev/shm/left"):
    open(p, "w").write("from an earlier entry")
found["files"] = sorted(os.listdir("/sandbox"))
raise RuntimeError("FOUND " + repr(found))
'''


def probe(name: str = "probe.py") -> dict:
    player = LearnerPlayer(name, textwrap.dedent(PROBE).encode(), 5.0, 256, True, None)
    try:
        assert player.forked is not None, "not forked: the fork server was not used"
        with pytest.raises(Forfeit) as failed:
            player.start()
    finally:
        player.close()
    message = str(failed.value)
    assert "FOUND " in message, message
    return eval(message.split("FOUND ", 1)[1].rsplit("}", 1)[0] + "}")


@pytest.fixture(scope="module")
def probed():
    first, second = probe("first.py"), probe("second.py")
    yield first, second
    forkserver.close_server()


def test_an_entry_is_process_1_of_its_own_namespace_and_sees_no_process(probed):
    first, _ = probed
    assert first["pid"] == 1 and first["proc"] == []


def test_an_entry_has_no_capability_no_new_privileges_and_no_network(probed):
    first, _ = probed
    assert first["caps"] == [0] * 6 and first["no_new_privs"] == 1
    assert first["mount"] is False and first["network"] is False


def test_an_entry_writes_only_its_own_fresh_folders(probed):
    first, second = probed
    assert first["writable"] == ["/tmp", "/sandbox", "/dev/shm"]
    assert first["files"] == ["first.py", "left", "probe-TOKEN"]
    assert second["left"] == [], "a file left by an earlier entry was seen by the next"
    assert second["files"] == ["left", "probe-TOKEN", "second.py"]


def test_without_the_fork_server_an_entry_gets_a_bubblewrap_of_its_own(monkeypatch):
    """Where the system allows no namespaces inside bubblewrap, the fork fails and the entry is started
    the plain way: the tournament plays on."""
    def unavailable(*args, **kwargs):
        raise forkserver.Unavailable("no namespaces here")

    monkeypatch.setattr(forkserver, "server", unavailable)
    monkeypatch.setattr(seat, "_FORKS_FAIL", [])
    player = LearnerPlayer("plain.py", b"def strategy(view, rng):\n    return view.legal_asks()[0]\n", 5.0, 256,
                           True, None)
    try:
        assert player.forked is None and player.proc is not None
        player.start()
        from gofish_teach import Game, Rules

        game = Game(Rules.preset("pond"), 2, seed=1)
        assert tuple(player.choose(game.view(0), 1)) == game.legal_asks()[0]
    finally:
        player.close()
    assert seat._FORKS_FAIL == [1]


#: Run from a copy of this package in a folder under /tmp (a checkout or venv there, as on CI): an
#: entry that imports a module the fork server did not, and reads a file of the package, loads and plays.
UNDER_TMP = '''
import os, sys
import gofish_teach
from gofish_teach.tournament import forkserver
from gofish_teach.tournament.seat import Forfeit, LearnerPlayer

assert gofish_teach.__file__.startswith(sys.argv[1]), gofish_teach.__file__
entry = b"""
import os
import gofish_teach, gofish_teach.trust.files
package = os.path.dirname(gofish_teach.__file__)
with open(os.path.join(package, "__init__.py")) as f:
    f.read()
# The host's /tmp stays hidden: only the folders that lead to what the sandbox binds (the package,
# and the venv if it lives there), which are read-only.
assert package.split("/")[2] in os.listdir("/tmp") and "MARKER" not in os.listdir("/tmp"), os.listdir("/tmp")
assert os.listdir(os.path.dirname(package)) == ["gofish_teach"], os.listdir(os.path.dirname(package))
try:
    open(os.path.join(package, "mine.py"), "w")
    raise RuntimeError("the package was writable")
except OSError:
    pass
open("/tmp/mine", "w").write("x")
def strategy(view, rng):
    return view.legal_asks()[0]
"""
player = LearnerPlayer("under_tmp.py", entry, 5.0, 256, True, None)
try:
    assert player.forked is not None, "not forked"
    player.start()
    print("LOADED")
except Forfeit as e:
    print("FORFEIT", e)
finally:
    player.close()
    forkserver.close_server()
'''


def test_an_entry_loads_when_the_package_lives_under_tmp():
    """Each entry's fresh /tmp used to hide every host path under /tmp: the package there, the entry's
    imports failed (FileNotFoundError) unless the fork server had imported them first."""
    import os
    import shutil
    import subprocess
    import sys
    import tempfile

    from gofish_teach.trust import jail

    folder = tempfile.mkdtemp(prefix="gofish-undertmp-", dir="/tmp")
    fd, marker = tempfile.mkstemp(prefix="gofish-host-", dir="/tmp")  # a file of the host's /tmp: not seen inside
    os.close(fd)
    try:
        shutil.copytree(jail.package_dir(), os.path.join(folder, "gofish_teach"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "GOFISH"))}
        done = subprocess.run([sys.executable, "-c", UNDER_TMP.replace("MARKER", os.path.basename(marker)), folder],
                              cwd=folder, env=env, capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        os.unlink(marker)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "LOADED", done.stdout + done.stderr[-2000:]


def test_an_entry_is_made_by_one_clone_the_fork_servers_own_child():
    """Two forks per entry (a keeper, then process 1 of the new PID namespace) cost a third of a start:
    where the kit calls clone, the fork server's child is the entry itself, process 1 of its namespace."""
    if forkserver._CLONE_NUMBER is None:
        pytest.skip("no clone here: two forks")
    player = LearnerPlayer("one.py", b"def strategy(view, rng):\n    return view.legal_asks()[0]\n", 5.0, 256,
                           True, None)
    try:
        assert player.forked is not None and player.forked.worker == player.forked.keeper
        with open(f"/proc/{player.forked.worker}/status") as f:
            status = dict(line.split(":", 1) for line in f)
        assert int(status["PPid"]) == forkserver._SERVER[0].server
        assert status["NSpid"].split()[-1] == "1"
        player.start()
        from gofish_teach import Game, Rules

        game = Game(Rules.preset("pond"), 2, seed=1)
        assert tuple(player.choose(game.view(0), 1)) == game.legal_asks()[0]
    finally:
        player.close()
        forkserver.close_server()
