"""A sandbox for learners' code: bubblewrap (``bwrap``), the tool Flatpak uses.

The grader and the class tournament run code that learners wrote, and a learner may try to
read the answers, forge a result, or harm another learner's work. :func:`command` wraps the
command line of a learner's process so that it runs:

- in its own user, PID, network, IPC, UTS and cgroup namespaces (``--unshare-all``): it sees
  and can signal no process but its own, and has no network;
- with a root file system that holds only what Python needs, read-only: the interpreter and
  its standard library, the virtual environment's ``site-packages``, and this package (which
  holds no reference answer); nothing else of the host (no home folder, no ``solutions/``, no
  other learner). The teacher's answers (:data:`HIDDEN`: the kit's ``solutions/`` with its key,
  and any key :func:`hide` names, such as the grader's ``--key``) are masked by an empty
  read-only folder wherever one of those folders would show them (a kit kept under ``/usr``, a
  key kept in the virtual environment);
- with a fresh private ``/tmp``, a private ``/proc`` and a minimal ``/dev``; ``/tmp`` and
  ``/dev/shm`` are memory (tmpfs) of at most ``memory_mb``, and so is its work folder unless
  ``work`` names a host folder; nothing else can be written (bubblewrap's own root and ``/dev``
  are made read-only): what it writes never reaches the teacher's disk, and its parent counts it
  in the child's memory (:mod:`gofish_teach.trust.child`, which holds the one policy of limits);
- in the one folder it may write to, ``/sandbox`` (:data:`WORK`): its own copy of the submission;
- with every capability dropped, a clean environment, and ``--die-with-parent``: when the
  trusted parent kills the sandbox (or dies), every process inside dies with it, a child
  started with ``setsid`` included.

What it cannot do: hide what every process on a machine shares, such as which pages of the
kit's own files are in the page cache, or locks on files that every sandbox can read. Two
sandboxes could signal each other that way; so the tournament keeps no secret that two
tables share (:mod:`gofish_teach.tournament`).

``mode`` is ``"require"`` (the default: refuse to run without bwrap,
:class:`SandboxUnavailable`, with how to install it; and, bwrap being tried once per process
before any learner's code runs, :func:`probe`, refuse where it is installed but cannot make its
sandbox, quoting it, with the likely causes and their fixes, :mod:`.causes`) or ``"off"`` (run unprotected: only on a
machine or account that holds nothing else). ``"auto"`` is kept for old scripts and means
``"require"``: learners' code never runs unprotected unless the teacher says so.

>>> resolve("off")
False
>>> argv = command(["python3", "-c", "print(1)"], work="/tmp/x", mode="off")
>>> argv
['python3', '-c', 'print(1)']
"""
from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import sysconfig
import threading
from pathlib import Path

MODES = ("require", "off", "auto")
#: The kit's folders (beside this package) that hold the teacher's answers: masked inside the sandbox.
HIDDEN = ("solutions",)
#: The module of answers this package held before the key left it: a compiled copy may linger in an
#: updated checkout's ``__pycache__``, so that folder is masked too.
RETIRED = ("exercises/answers.py",)
#: How to get bwrap, for the messages: every system a teacher is likely to have.
INSTALL_HINT = ("Install it: on Debian or Ubuntu, and on Ubuntu in WSL 2 on Windows, `sudo apt-get install "
                "bubblewrap`; on Fedora, `sudo dnf install bubblewrap`. macOS has no bubblewrap: run the kit in a "
                "Linux virtual machine (for example Multipass, UTM or Lima with Ubuntu) and install it there. Or, "
                "on a machine or account that holds nothing else, say --sandbox off to run the learners' code "
                "unprotected (it can then read and change every file of this account)")
#: Read-only system paths a Python process needs (those that exist are bound).
SYSTEM_PATHS = ("/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/etc/ld.so.cache", "/etc/ld.so.conf",
                "/etc/ld.so.conf.d", "/etc/localtime", "/etc/nsswitch.conf", "/etc/fonts", "/etc/alternatives",
                "/etc/mime.types", "/etc/matplotlibrc")
#: Where the learner's own folder appears inside, and a read-only folder of inputs (``inputs=``).
WORK = "/sandbox"
INPUTS = "/submission"
#: Private folders that are memory (tmpfs) inside, sized by ``memory_mb``: the parent counts them.
#: Nothing else inside can be written: the root bubblewrap makes and its ``/dev`` are read-only.
PRIVATE = ("/tmp", WORK, "/dev/shm")


class SandboxUnavailable(RuntimeError):
    """bwrap is not installed (or cannot be run) and the teacher did not say ``--sandbox off``."""


def bwrap_path() -> str | None:
    """The ``bwrap`` program, if installed (``GOFISH_BWRAP`` names another, for tests); None if
    there is none, or if ``GOFISH_BWRAP`` names a program that does not exist."""
    named = os.environ.get("GOFISH_BWRAP")
    if named:
        return named if os.path.isfile(named) and os.access(named, os.X_OK) else None
    return shutil.which("bwrap")


def resolve(mode: str = "require", *, log=None, ids: tuple[int, int] | None = None) -> bool:
    """Whether to sandbox, for ``mode``: True, or False for ``off``; :class:`SandboxUnavailable`
    (with how to install bubblewrap) when bwrap is missing and the mode is not ``off``, and
    (with bwrap's own words, the likely causes and their fixes) when it is installed but cannot
    make its sandbox here: bwrap is tried once, with the options a learner's sandbox gets
    (``ids``: the user and group inside, as the caller will ask), before any learner's code runs."""
    if mode not in MODES:
        raise ValueError(f"--sandbox must be one of {', '.join(MODES)}, not {mode!r}")
    if mode == "off":
        return False
    if not bwrap_path():
        raise SandboxUnavailable(f"--sandbox {mode}: bwrap (bubblewrap) is not installed, and it is what keeps "
                                 "learners' code away from your files, the reference answers, the network and "
                                 f"your other processes, so their code was not run. {INSTALL_HINT}.")
    probe(ids)
    return True


#: How long the one try of bwrap may take (a loaded machine starts Python slowly).
PROBE_SECONDS = 60.0
#: What the try prints from inside when the sandbox works.
PROBE_WORD = "gofish-sandbox-works"
#: The tries that worked, by bwrap program and options: each is made once per process.
_PROBED: set = set()
_PROBE_LOCK = threading.Lock()


def probe(ids: tuple[int, int] | None = None) -> None:
    """Run this Python in bwrap once, with the options of a learner's sandbox; :class:`SandboxUnavailable`
    quoting bwrap if it fails."""
    from . import causes

    key = (bwrap_path(), ids)
    with _PROBE_LOCK:
        if key in _PROBED:
            return
        try:
            argv = _wrap([sys.executable, "-S", "-c", f"print({PROBE_WORD!r})"], memory_mb=64, ids=ids)
            run = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=PROBE_SECONDS,
                                 env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")})
            said, works = run.stderr, run.returncode == 0 and run.stdout.split() == [PROBE_WORD.encode()]
        except subprocess.TimeoutExpired as e:
            said, works = (e.stderr or b"") + f"(no answer within {PROBE_SECONDS:g} s)".encode(), False
        except OSError as e:
            said, works = f"it could not be started: {e}".encode(), False
        if works:
            _PROBED.add(key)
            return
    quoted = " ".join(said.decode("utf-8", "replace").split())[:600] or "(nothing)"
    raise SandboxUnavailable(
        f"bwrap (bubblewrap, {key[0]}) is installed but could not make the sandbox on this machine, so no "
        f"learner's code was run and nobody was graded or scored: this is this machine's setup, not any "
        f"learner's doing. bwrap said: {quoted}\n{causes.explain(quoted)}\nOr, on a machine or account that "
        "holds nothing else, say --sandbox off to run the learners' code unprotected.")


def package_dir() -> Path:
    """The folder of this package (``gofish_teach``), which the sandbox shows read-only."""
    return Path(__file__).resolve().parents[1]


@functools.lru_cache(maxsize=1)
def _readable() -> tuple[str, ...]:
    """Host paths the sandboxed Python needs, read-only, deepest last (bwrap binds in order)."""
    paths = {p for p in SYSTEM_PATHS if os.path.lexists(p)}
    for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
              os.path.dirname(os.path.realpath(sys.executable)),
              sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]):
        if p and os.path.isdir(p):
            paths.add(os.path.realpath(p))
    # Only what is under a prefix that is already bound needs no bind of its own.
    kept = sorted(paths, key=len)
    return tuple(p for i, p in enumerate(kept) if not any(p.startswith(q.rstrip("/") + "/") for q in kept[:i]))


_HIDDEN_ELSEWHERE: set[str] = set()


def hide(folder) -> None:
    """Mask ``folder`` (an answer key) in every sandbox made from now on, wherever a bound folder holds it.

    >>> hide("/nonexistent/key") is None and "/nonexistent/key" in hidden_folders()
    True
    """
    _HIDDEN_ELSEWHERE.add(os.path.realpath(folder))


def hidden_folders() -> list[str]:
    """The folders of answers kept out of every sandbox: the kit's (:data:`HIDDEN`) and those :func:`hide` named."""
    root = package_dir().parent
    return sorted({os.path.realpath(root / rel) for rel in HIDDEN} | _HIDDEN_ELSEWHERE)


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _masks() -> list[str]:
    """Binds that hide the answers: an empty read-only folder over each folder of answers that a bound
    folder would show (one that no bind shows is not there to hide), and over the ``__pycache__`` of
    a retired answers module (made first if missing, so that nothing written there later shows)."""
    args = []
    shown = [*_readable(), str(package_dir())]
    for folder in hidden_folders():
        if not os.path.isdir(folder) or not any(_inside(folder, b) for b in shown):
            continue
        holds = [b for b in shown if _inside(b, folder)]
        if holds:
            raise SandboxUnavailable(f"the answers in {folder} cannot be hidden from learners' code: that folder "
                                     f"holds {holds[0]}, which the sandbox must show. Keep the key in a folder "
                                     "of its own.")
        args += ["--tmpfs", folder, "--remount-ro", folder]
    for rel in RETIRED:
        cache = package_dir() / rel
        cache = cache.parent / "__pycache__"
        try:
            cache.mkdir(exist_ok=True)
        except OSError:
            pass  # a read-only install: no compiled copy can be written there either
        if cache.is_dir():
            args += ["--tmpfs", str(cache), "--remount-ro", str(cache)]
    return args


def command(argv: list[str], *, work=None, mode: str = "require", env: dict | None = None, log=None,
            scratch: str | None = None, memory_mb: int | None = None, files: dict | None = None,
            inputs=None, ids: tuple[int, int] | None = None) -> list[str]:
    """``argv`` wrapped in bwrap (or as it is when not sandboxing), to run in ``/sandbox``.

    ``work`` is a host folder that appears at ``/sandbox``, writable (it must be a copy made for
    this run); without it ``/sandbox`` is a fresh tmpfs. ``memory_mb`` sizes each private tmpfs
    (``/tmp``, and ``/sandbox`` without ``work``). ``files`` copies ``{name: fd}`` into
    ``/sandbox`` (the caller passes those descriptors to the child). ``inputs`` is a host folder
    shown read-only at ``/submission``. ``env`` is the whole environment inside (``PATH`` and
    ``HOME`` are added). ``ids`` are the user and group ids inside (default: this process's).
    ``scratch`` is no longer used (kept for old callers).
    """
    if not resolve(mode, log=log, ids=ids):
        return list(argv)
    return _wrap(argv, work=work, env=env, memory_mb=memory_mb, files=files, inputs=inputs, ids=ids)


def _wrap(argv: list[str], *, work=None, env: dict | None = None, memory_mb: int | None = None,
          files: dict | None = None, inputs=None, ids: tuple[int, int] | None = None) -> list[str]:
    """The bwrap command line of :func:`command`, bwrap taken as working."""
    inside = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": WORK, "LANG": "C.UTF-8", "PYTHONNOUSERSITE": "1"}
    inside.update(env or {})
    size = ["--size", str(int(memory_mb) * 2**20)] if memory_mb else []
    args = [bwrap_path(), "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
            "--hostname", "sandbox"]
    if ids is not None:
        args += ["--uid", str(ids[0]), "--gid", str(ids[1])]
    # /tmp first: the host's Python may live under /tmp (a CI checkout), bound over the fresh one.
    args += ["--proc", "/proc", "--dev", "/dev", *size, "--tmpfs", "/tmp"]
    for p in _readable():
        args += ["--ro-bind", p, p]
    pkg = package_dir()
    args += ["--ro-bind", str(pkg), str(pkg)]
    args += _masks()
    if inputs is not None:
        args += ["--ro-bind", str(Path(inputs).absolute()), INPUTS]
    if work is not None:
        args += ["--bind", str(Path(work).absolute()), WORK]
    else:
        args += [*size, "--tmpfs", WORK]
    for name, fd in (files or {}).items():
        if "/" in name or name in ("", ".", ".."):
            raise ValueError(f"files: {name!r} is not a plain file name")
        args += ["--file", str(fd), f"{WORK}/{name}"]
    # bwrap's own root and /dev are tmpfs too, writable and unbounded: a fresh /dev/shm, and both read-only.
    args += [*size, "--tmpfs", "/dev/shm", "--remount-ro", "/dev", "--remount-ro", "/"]
    args += ["--chdir", WORK, "--clearenv"]
    for key, value in inside.items():
        args += ["--setenv", key, str(value)]
    return args + ["--"] + [_bound(a) for a in argv]


def _bound(arg: str) -> str:
    """``arg`` as a path that exists inside: the virtual environment is bound at its real path."""
    prefix = sys.prefix.rstrip("/") + "/"
    if isinstance(arg, str) and arg.startswith(prefix):
        return os.path.join(os.path.realpath(sys.prefix), arg[len(prefix):])
    return arg
