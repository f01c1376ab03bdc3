"""A sandbox for learners' code: bubblewrap (``bwrap``), the tool Flatpak uses.

The grader and the class tournament run code that learners wrote, and a learner may try to
read the answers, forge a result, or harm another learner's work. :func:`command` wraps the
command line of a learner's process so that it runs:

- in its own user, PID, network, IPC, UTS and cgroup namespaces (``--unshare-all``): it sees
  and can signal no process but its own, and has no network;
- with a root file system that holds only what Python needs, read-only: the interpreter and
  its standard library, the virtual environment's ``site-packages``, and this package with
  the module of reference answers (:data:`HIDDEN`) masked and its compiled ``__pycache__``
  hidden; nothing else of the host (no home folder, no ``solutions/``, no other learner);
- with a fresh private ``/tmp``, a private ``/proc`` and a minimal ``/dev``;
- in the one folder it may write to, its own copy of the submission (``work``);
- with every capability dropped, a clean environment, and ``--die-with-parent``: when the
  trusted parent kills the sandbox (or dies), every process inside dies with it, a child
  started with ``setsid`` included.

What it does not do: limit CPU time or memory (the parent keeps a wall-clock deadline and
the child sets ``RLIMIT_AS`` on itself), or stop a fork bomb run as root (``RLIMIT_NPROC`` does
not bind the root user; the time limit ends it). The teacher's guide (``exercises/README.md``)
says so too.

``mode`` is ``"auto"`` (use bwrap when it is installed, else warn once and run unprotected),
``"require"`` (refuse to run without it: :class:`SandboxUnavailable`) or ``"off"``.

>>> resolve("off")
False
>>> argv = command(["python3", "-c", "print(1)"], work="/tmp/x", mode="off")
>>> argv
['python3', '-c', 'print(1)']
"""
from __future__ import annotations

import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path

MODES = ("auto", "require", "off")
#: The modules of this package that hold reference answers: masked inside the sandbox.
HIDDEN = ("exercises/answers.py",)
#: How to get bwrap, for the messages.
INSTALL_HINT = "install bubblewrap (Debian/Ubuntu: `apt-get install bubblewrap`; Fedora: `dnf install bubblewrap`)"
#: Read-only system paths a Python process needs (those that exist are bound).
SYSTEM_PATHS = ("/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/etc/ld.so.cache", "/etc/ld.so.conf",
                "/etc/ld.so.conf.d", "/etc/localtime", "/etc/nsswitch.conf", "/etc/fonts", "/etc/alternatives",
                "/etc/mime.types", "/etc/matplotlibrc")
#: Where the learner's own folder appears inside.
WORK = "/sandbox"

_warned = False


class SandboxUnavailable(RuntimeError):
    """``--sandbox require`` and no bwrap on this machine."""


def bwrap_path() -> str | None:
    """The ``bwrap`` program, if installed (``GOFISH_BWRAP`` names another, for tests)."""
    return os.environ.get("GOFISH_BWRAP") or shutil.which("bwrap")


def resolve(mode: str = "auto", *, log=None) -> bool:
    """Whether to sandbox, for ``mode``; warns once (``auto``) or raises (``require``) without bwrap."""
    global _warned
    if mode not in MODES:
        raise ValueError(f"--sandbox must be one of {', '.join(MODES)}, not {mode!r}")
    if mode == "off":
        return False
    if bwrap_path():
        return True
    if mode == "require":
        raise SandboxUnavailable(f"--sandbox require: bwrap (bubblewrap) is not installed; {INSTALL_HINT}, "
                                 "or use --sandbox off on a machine of its own")
    if not _warned:
        _warned = True
        print("WARNING: bwrap (bubblewrap) is not installed, so learners' code runs unprotected: it can read any "
              "file this account can (the solutions included), use the network, and signal or read other "
              f"processes of this account. Only the time and memory limits apply. To protect the run, {INSTALL_HINT}.",
              file=log or sys.stderr)
    return False


def package_dir() -> Path:
    return Path(__file__).resolve().parent


def _readable() -> list[str]:
    """Host paths the sandboxed Python needs, read-only, deepest last (bwrap binds in order)."""
    paths = {p for p in SYSTEM_PATHS if os.path.lexists(p)}
    for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
              os.path.dirname(os.path.realpath(sys.executable)),
              sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]):
        if p and os.path.isdir(p):
            paths.add(os.path.realpath(p))
    # Only what is under a prefix that is already bound needs no bind of its own.
    kept = sorted(paths, key=len)
    return [p for i, p in enumerate(kept) if not any(p.startswith(q.rstrip("/") + "/") for q in kept[:i])]


def _masks(tmp: Path) -> list[str]:
    """Binds that hide the reference answers: an empty stand-in for each hidden module, no ``__pycache__``."""
    stand_in = tmp / "hidden.py"
    stand_in.write_text('raise ImportError("the reference answers are not available inside the sandbox")\n')
    args = []
    pkg = package_dir()
    for rel in HIDDEN:
        target = pkg / rel
        if target.exists():
            args += ["--ro-bind", str(stand_in), str(target)]
    for cache in sorted(pkg.rglob("__pycache__")):
        args += ["--tmpfs", str(cache), "--remount-ro", str(cache)]
    return args


def command(argv: list[str], *, work, mode: str = "auto", env: dict | None = None, log=None,
            scratch: str | None = None) -> list[str]:
    """``argv`` wrapped in bwrap (or as it is when not sandboxing), to run with ``work`` as its folder.

    Inside, ``work`` appears at ``/sandbox`` (writable: it must be a copy made for this run)
    and is the current folder. ``env`` is the whole environment inside (``PATH`` and ``HOME``
    are added). ``scratch`` is a host folder for the stand-in files (default: a new temporary one).
    """
    if not resolve(mode, log=log):
        return list(argv)
    scratch = Path(scratch or tempfile.mkdtemp(prefix="gofish-jail-"))
    inside = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": WORK, "LANG": "C.UTF-8", "PYTHONNOUSERSITE": "1"}
    inside.update(env or {})
    args = [bwrap_path(), "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
            "--hostname", "sandbox"]
    # /tmp first: the host's Python may live under /tmp (a CI checkout), bound over the fresh one.
    args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    for p in _readable():
        args += ["--ro-bind", p, p]
    pkg = package_dir()
    args += ["--ro-bind", str(pkg), str(pkg)]
    args += _masks(scratch)
    args += ["--bind", str(Path(work).resolve()), WORK, "--chdir", WORK, "--clearenv"]
    for key, value in inside.items():
        args += ["--setenv", key, str(value)]
    return args + ["--"] + [_bound(a) for a in argv]


def _bound(arg: str) -> str:
    """``arg`` as a path that exists inside: the virtual environment is bound at its real path."""
    prefix = sys.prefix.rstrip("/") + "/"
    if isinstance(arg, str) and arg.startswith(prefix):
        return os.path.join(os.path.realpath(sys.prefix), arg[len(prefix):])
    return arg
