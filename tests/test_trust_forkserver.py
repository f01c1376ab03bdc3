"""The fork server's sandboxes, probed from inside: what an entry forked into one can see, reach and keep.

Each probe is an entry file whose code runs at load and reports what it found by raising: the
tournament's end reads the message in the entry's forfeit (``the file could not be loaded:
RuntimeError: ...``). Every sandbox here is forked by the fork server (the default), inside
bubblewrap (``require``: CI installs it).
"""
from __future__ import annotations

import textwrap

import pytest

from gofish_teach import forkserver
from gofish_teach.tournament import seat
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
