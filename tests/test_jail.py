"""The sandbox itself, attacked from inside: what a learner's code can see, reach and survive.

These run with ``mode="require"``: CI installs bubblewrap (``.ci/run``), so a machine without
it fails here rather than skipping.
"""
from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from gofish_teach.trust import jail

ROOT = Path(__file__).resolve().parent.parent


def run_inside(code: str, work: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    argv = jail.command([sys.executable, "-c", textwrap.dedent(code)], work=work, mode="require")
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout)


def test_require_refuses_without_bwrap(monkeypatch):
    monkeypatch.setenv("GOFISH_BWRAP", "")
    monkeypatch.setattr(jail.shutil, "which", lambda name: None)
    with pytest.raises(jail.SandboxUnavailable, match="apt-get install bubblewrap"):
        jail.resolve("require")


@pytest.mark.parametrize("mode", ["auto", "require"])
def test_without_bwrap_every_mode_but_off_refuses_with_how_to_install_it(monkeypatch, mode):
    """The default once ran learners' code unprotected after one warning line (issue 32, D9)."""
    monkeypatch.setenv("GOFISH_BWRAP", "/nonexistent/bwrap")  # named, but not there: missing
    with pytest.raises(jail.SandboxUnavailable) as refused:
        jail.resolve(mode)
    text = str(refused.value)
    for words in ("bwrap (bubblewrap) is not installed", "apt-get install bubblewrap", "dnf install bubblewrap",
                  "WSL", "macOS", "virtual machine", "--sandbox off"):
        assert words in text, words
    assert jail.resolve("off") is False


def test_bad_mode_names_the_option():
    with pytest.raises(ValueError, match="--sandbox must be one of require, off, auto"):
        jail.resolve("maybe")


def test_inside_the_package_imports_and_the_work_folder_is_writable(tmp_path):
    out = run_inside("""
        import os, gofish_teach, numpy
        open("note.txt", "w").write("mine")
        print(os.getcwd(), sorted(os.listdir(".")))
    """, tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [jail.WORK, "['note.txt']"]
    assert (tmp_path / "note.txt").read_text() == "mine"


def test_no_solutions_no_tests_no_home_no_answers(tmp_path):
    out = run_inside(f"""
        import os
        for p in [{str(ROOT / 'solutions')!r}, {str(ROOT / 'solutions' / 'key')!r}, {str(ROOT / 'tests')!r},
                  {str(ROOT / 'exercises')!r}, "/root/.bash_history", "/etc/shadow", "/etc/passwd",
                  {str(Path.home())!r} + "/.ssh"]:
            print(p, os.path.exists(p) and p != "/root")
        for module in ("gofish_teach.exercises.answers", "key.exercises"):
            try:
                __import__(module)
                print("ANSWERS IMPORTED")
            except ImportError as e:
                print("not there:", e)
    """, tmp_path)
    assert out.returncode == 0, out.stderr
    assert "True" not in out.stdout and "ANSWERS IMPORTED" not in out.stdout, out.stdout
    assert out.stdout.count("not there:") == 2, out.stdout


def test_no_other_process_no_network(tmp_path):
    out = run_inside("""
        import os, socket
        print(sorted(int(p) for p in os.listdir("/proc") if p.isdigit()))
        try:
            socket.create_connection(("127.0.0.1", 22), timeout=2)
            print("CONNECTED")
        except OSError as e:
            print("no network")
        try:
            os.kill(1, 9)
        except OSError:
            pass
    """, tmp_path)
    pids = eval(out.stdout.splitlines()[0])
    assert max(pids) < 10, pids  # only bwrap's init and this process, numbered from 1
    assert "no network" in out.stdout


def test_a_setsid_child_dies_with_the_sandbox(tmp_path):
    """Killing the sandbox from outside ends every process inside, even one in a new session."""
    marker = tmp_path / "alive"
    argv = jail.command([sys.executable, "-c", textwrap.dedent("""
        import os, subprocess, time
        subprocess.Popen(["setsid", "python3", "-c",
                          "import time\\nwhile True:\\n    open('alive', 'a').write('x')\\n    time.sleep(0.05)"])
        time.sleep(100)
    """)], work=tmp_path, mode="require")
    proc = subprocess.Popen(argv, start_new_session=True)
    deadline = time.monotonic() + 30
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert marker.exists()
    proc.kill()  # the trusted parent kills bwrap alone; --die-with-parent does the rest
    proc.wait()
    time.sleep(0.5)
    size = marker.stat().st_size
    time.sleep(0.5)
    assert marker.stat().st_size == size, "a process inside outlived the sandbox"


def test_sandbox_hides_compiled_answers(tmp_path):
    """A compiled copy of the answers module of earlier versions, left in an updated checkout's
    ``__pycache__``, cannot be read inside: that folder is empty there, even with the copy written
    just before the sandbox starts."""
    import importlib.util
    import py_compile

    pkg = jail.package_dir()
    retired = pkg / jail.RETIRED[0]
    source = tmp_path / "answers.py"
    source.write_text("def deal_reference(deck, n_players, hand_size):\n    return 'the answer'\n")
    compiled = Path(importlib.util.cache_from_source(str(retired)))
    py_compile.compile(str(source), cfile=str(compiled))
    try:
        out = run_inside(f"""
            import os
            print(os.listdir({str(compiled.parent)!r}), os.path.exists({str(compiled)!r}))
        """, tmp_path)
    finally:
        compiled.unlink()
    assert out.stdout.split() == ["[]", "False"], out.stdout + out.stderr


def test_a_key_kept_where_the_sandbox_looks_is_an_empty_folder_inside(tmp_path, monkeypatch):
    """The teacher's key is outside every folder the sandbox shows, as the kit keeps it; kept inside one
    (here the virtual environment, bound read-only), it is masked once named (the grader names its
    --key), and a key folder that holds what the sandbox must show is refused, not shown."""
    import shutil

    monkeypatch.setattr(jail, "_HIDDEN_ELSEWHERE", set())
    key = Path(sys.prefix).resolve() / f"gofish-test-key-{tmp_path.name}"
    shutil.copytree(ROOT / "solutions" / "key", key, ignore=shutil.ignore_patterns("__pycache__"))
    look = f"""
        import os
        print(sorted(os.listdir({str(key)!r})))
    """
    try:
        shown = run_inside(look, tmp_path)
        assert "exercises.py" in shown.stdout, shown.stdout + shown.stderr  # the attack finds it, unmasked
        jail.hide(key)
        masked = run_inside(look, tmp_path)
    finally:
        shutil.rmtree(key)
    assert masked.returncode == 0 and masked.stdout.split() == ["[]"], masked.stdout + masked.stderr
    jail.hide(sys.prefix)
    with pytest.raises(jail.SandboxUnavailable, match="cannot be hidden from learners' code"):
        jail.command(["python3"], mode="require")


def test_the_private_folders_are_memory_of_a_bounded_size(tmp_path):
    """/tmp and the work folder are tmpfs of memory_mb each: a learner's 3 GiB in /tmp once went uncounted
    (issue 32, D6); now a write past the size fails, and nothing reaches the host's disk."""
    argv = jail.command([sys.executable, "-c", textwrap.dedent("""
        import os
        for folder in ("/tmp", "/sandbox"):
            try:
                with open(folder + "/big", "wb") as f:
                    f.write(b"x" * (80 * 2**20))
                print(folder, "wrote")
            except OSError as e:
                print(folder, "refused", e.errno)
            st = os.statvfs(folder)
            print(folder, st.f_blocks * st.f_frsize // 2**20)
    """)], mode="require", memory_mb=64)
    out = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert out.stdout.split("\n")[:4] == ["/tmp refused 28", "/tmp 64", "/sandbox refused 28", "/sandbox 64"], out
