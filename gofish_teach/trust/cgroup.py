"""A cgroup per learner's sandbox: the kernel counts every byte and every process it holds.

What the parent can count from outside (each process's resident memory, the files in its private
folders) misses memory that no process maps (a ``memfd_create`` file, full pipe buffers) and
processes that are not running (idle threads, zombies): a learner's code once held 1.8 GB beside
a row marked "ok", and 10,000 process ids for a whole table. A cgroup counts all of it, and its
limits bind a teacher who is root too (the process limit, ``RLIMIT_NPROC``, does not):

- its memory (``memory.max``, or v1's ``memory.limit_in_bytes``, swap included) counts anonymous
  memory, shared memory, tmpfs and ``memfd`` pages, and kernel memory such as pipe buffers; past
  it the kernel reclaims, then kills a process of the group (an "out of memory" kill, counted);
- its process count (``pids.max``) counts threads and zombies; past it ``fork`` and thread
  creation fail, and the refusal is counted.

:class:`Group` is one such cgroup, for one submission's notebook (the grader) or one entry at one
table (the tournament): a child joins it before anything of the learner's runs
(:meth:`Group.wrap` for a command, :meth:`Group.add` for a process forked elsewhere), and
:meth:`Group.verdict` says which limit it reached. A run makes its groups under a folder of its own,
``gofish-NS-PID-START`` beside the cgroup it runs in, removed when it ends; one left by a run that
was killed (``SIGKILL`` leaves no time to clean) is removed by the next run on the machine.

Where a cgroup can be made: cgroup v2 with the memory and pids controllers where this account may
make cgroups (root; a user's own systemd service on most desktops), or v1's memory and pids
hierarchies, writable (root). Elsewhere :func:`available` is false and the sandbox falls back on
a seccomp filter (:mod:`.seccomp`), a bound on open files and a count of every thread and zombie
by the parent; ``GOFISH_CGROUPS=0`` asks for that fallback (tests).

>>> group = Group.make(256, 32)
>>> group is None or sorted(group.verdict() for _ in range(1)) == [None]
True
>>> if group is not None:
...     group.close()
"""
from __future__ import annotations

import atexit
import itertools
import os
import re
import signal
import threading
import time

#: The cgroups of a run are in a folder named ``gofish-NS-PID-START``: its PID namespace (two containers may
#: share a cgroup file system, and then a number is another process there), its pid and start time.
PREFIX = "gofish-"
#: How the shell that starts a child joins the child's cgroup, then becomes the child's command
#: (``sh -c JOIN sh FILE... -- ARGV``): every process the child starts is born inside.
JOIN = ('for f do [ "$f" = -- ] && break; echo $$ > "$f" || exit 125; done; '
        'while [ "$1" != -- ]; do shift; done; shift; exec "$@"')
#: The exit status of the shell when it could not join (never a learner's doing).
JOIN_FAILED = 125
#: Seconds to wait for a cgroup's processes to end once killed, before it is left for the next run.
CLOSE_SECONDS = 5.0

_LOCK = threading.Lock()
_COUNTER = itertools.count()


class Tree:
    """Where this process makes its groups: ``v1`` (memory and pids hierarchies) or ``v2``, one run folder each."""

    def __init__(self, kind: str, parents: dict[str, str]):
        self.kind = kind
        self.run = {}
        name = f"{PREFIX}{_pid_namespace()}-{os.getpid()}-{_start_time(os.getpid())}"
        for controller, parent in parents.items():
            _clean_dead(parent)
            path = os.path.join(parent, name)
            os.makedirs(path, exist_ok=True)
            self.run[controller] = path
        if kind == "v2":
            _write(os.path.join(self.run["v2"], "cgroup.subtree_control"), "+memory +pids")
        atexit.register(self.close)

    def close(self) -> None:
        """Remove the run's folder (its groups are removed as each ends; any left are killed first)."""
        for path in self.run.values():
            _remove_tree(path)


_TREE: list = []


def tree() -> Tree | None:
    """This process's :class:`Tree`, made on first use; None where no cgroup can be made."""
    with _LOCK:
        if not _TREE:
            _TREE.append(_make_tree())
        return _TREE[0]


def available() -> bool:
    """Whether learners' sandboxes get a cgroup each here (``GOFISH_CGROUPS=0``: no, for tests)."""
    if os.environ.get("GOFISH_CGROUPS", "1") == "0":
        return False
    return tree() is not None


def _make_tree() -> Tree | None:
    mounts = _mounts()
    own = _own_cgroups()
    if "cgroup2" in mounts and "" in own:
        for parent in _ancestors(mounts["cgroup2"], own[""]):
            wanted = {"memory", "pids"}
            if not wanted <= set(_read(os.path.join(parent, "cgroup.controllers")).split()):
                continue
            try:
                if not wanted <= set(_read(os.path.join(parent, "cgroup.subtree_control")).split()):
                    _write(os.path.join(parent, "cgroup.subtree_control"), "+memory +pids")
                return Tree("v2", {"v2": parent})
            except OSError:
                continue
    parents = {c: os.path.join(mounts[c], own[c].lstrip("/")) for c in ("memory", "pids") if c in mounts and c in own}
    if len(parents) == 2 and all(os.access(p, os.W_OK) for p in parents.values()):
        try:
            return Tree("v1", parents)
        except OSError:
            return None
    return None


class Group:
    """One learner's cgroup: ``memory_mb`` of memory (swap included) and ``tasks`` processes and threads."""

    def __init__(self, tree_: Tree, memory_mb: int | None, tasks: int):
        self.kind, self.memory_mb, self.tasks = tree_.kind, memory_mb, tasks
        name = f"{next(_COUNTER)}"
        self.paths = {}
        self._open: dict[str, int] = {}  # the files read at every check, opened once
        try:
            for controller, run in tree_.run.items():
                path = os.path.join(run, name)
                os.mkdir(path)
                self.paths[controller] = path
            self._limit(memory_mb, tasks)
        except OSError:
            self.close()
            raise

    @classmethod
    def make(cls, memory_mb: int | None, tasks: int) -> Group | None:
        """A new group, or None where none can be made (the caller then falls back, :mod:`.seccomp`)."""
        found = tree() if available() else None
        if found is None:
            return None
        return cls(found, memory_mb, tasks)

    def _file(self, controller: str, name: str) -> str:
        return os.path.join(self.paths["v2" if self.kind == "v2" else controller], name)

    def _read(self, controller: str, name: str) -> str:
        """A file of the group, read again through a descriptor kept open (one system call a check)."""
        path = self._file(controller, name)
        try:
            fd = self._open.get(path)
            if fd is None:
                fd = self._open[path] = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
            return os.pread(fd, 4096, 0).decode()
        except (OSError, KeyError):
            return ""

    def _limit(self, memory_mb: int | None, tasks: int) -> None:
        size = str(int(memory_mb) * 2**20) if memory_mb else None
        if self.kind == "v2":
            if size:
                _write(self._file("memory", "memory.max"), size)
                _write(self._file("memory", "memory.swap.max"), "0", missing_ok=True)
            _write(self._file("memory", "memory.oom.group"), "1", missing_ok=True)
        elif size:
            _write(self._file("memory", "memory.limit_in_bytes"), size)
            _write(self._file("memory", "memory.memsw.limit_in_bytes"), size, missing_ok=True)
        _write(self._file("pids", "pids.max"), str(int(tasks)))

    def procs(self) -> list[str]:
        """The files a process's id is written to, to join the group (one per hierarchy)."""
        return [os.path.join(p, "cgroup.procs") for p in self.paths.values()]

    def wrap(self, argv: list[str]) -> list[str]:
        """``argv`` started by a shell that first joins this group (:data:`JOIN`)."""
        return ["/bin/sh", "-c", JOIN, "gofish-cgroup", *self.procs(), "--", *argv]

    def add(self, pid: int) -> None:
        """Move process ``pid`` into the group (before it runs anything of the learner's)."""
        for path in self.procs():
            _write(path, str(pid))

    # ------------------------------------------------------------------ what it reached
    def memory_used(self) -> int:
        """Bytes the group holds now (its memory, its files in memory, kernel memory)."""
        name = "memory.current" if self.kind == "v2" else "memory.usage_in_bytes"
        return _number(self._read("memory", name))

    def out_of_memory(self) -> bool:
        """Whether it reached its memory limit: the kernel killed a process of it, or refused it memory."""
        if not self.memory_mb:
            return False
        # v2 counts each time a charge would pass the limit, and the kills; v1 the kills, and the peak held
        # (its failcnt stays 0 on recent kernels: measured).
        if self.kind == "v2":
            events = _fields(self._read("memory", "memory.events"))
            return events.get("max", 0) > 0 or events.get("oom_kill", 0) > 0
        if _fields(self._read("memory", "memory.oom_control")).get("oom_kill", 0) > 0:
            return True
        return _number(self._read("memory", "memory.max_usage_in_bytes")) >= int(self.memory_mb) * 2**20

    def out_of_tasks(self) -> bool:
        """Whether it tried to hold more than its processes and threads (a fork or a thread was refused)."""
        return _fields(self._read("pids", "pids.events")).get("max", 0) > 0

    def tasks_peak(self) -> int:
        """The most processes and threads it held at once (0 where the kernel does not keep it)."""
        return _number(self._read("pids", "pids.peak"))

    def verdict(self) -> str | None:
        """``"memory"`` or ``"processes"`` if it reached that limit, else None."""
        if self.out_of_memory():
            return "memory"
        if self.out_of_tasks():
            return "processes"
        return None

    def close(self) -> None:
        """Kill whatever is still in the group and remove it."""
        for fd in self._open.values():
            os.close(fd)
        self._open = {}
        for path in self.paths.values():
            _remove_tree(path)
        self.paths = {}


# --------------------------------------------------------------------------- the file system of cgroups
def _mounts() -> dict[str, str]:
    """``{controller: mount point}`` for v1 hierarchies (memory, pids) and ``{"cgroup2": point}``."""
    found = {}
    try:
        with open("/proc/self/mountinfo") as f:
            lines = f.read().splitlines()
    except OSError:
        return found
    for line in lines:
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) < 5 or len(tail) < 3:
            continue
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[4])
        if tail[0] == "cgroup2":
            found.setdefault("cgroup2", point)
        elif tail[0] == "cgroup":
            for option in tail[2].split(","):
                if option in ("memory", "pids"):
                    found.setdefault(option, point)
    return found


def _own_cgroups() -> dict[str, str]:
    """``{controller: path}`` of this process's cgroups (``""`` for v2), from ``/proc/self/cgroup``."""
    found = {}
    for line in _read("/proc/self/cgroup").splitlines():
        number, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if number == "0" and controllers == "":
            found[""] = path
        for controller in controllers.split(","):
            if controller in ("memory", "pids"):
                found[controller] = path
    return found


def _ancestors(mount: str, own: str) -> list[str]:
    """Where a v2 run folder may go, nearest first: the parent of this process's cgroup and up (a cgroup
    with processes in it can hold no cgroup with controllers), or the root itself (which can)."""
    parts = [p for p in own.strip("/").split("/") if p]
    if not parts:
        return [mount]
    return [os.path.join(mount, *parts[:n]) for n in range(len(parts) - 1, -1, -1)]


def _start_time(pid: int) -> str:
    """A process's start time (clock ticks since boot): with its pid, names one process for ever."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[19]
    except (OSError, IndexError):
        return "0"


def _pid_namespace() -> str:
    """This process's PID namespace, by number (the runs of another namespace are not this one's to judge)."""
    try:
        return str(os.stat("/proc/self/ns/pid").st_ino)
    except OSError:
        return "0"


def _clean_dead(parent: str) -> None:
    """Remove the run folders under ``parent`` whose run has ended (killed before it could clean up)."""
    try:
        names = os.listdir(parent)
    except OSError:
        return
    for name in names:
        match = re.fullmatch(re.escape(PREFIX) + r"(\d+)-(\d+)-(\d+)", name)
        if match and match.group(1) == _pid_namespace() and _start_time(int(match.group(2))) != match.group(3):
            _remove_tree(os.path.join(parent, name))


def _remove_tree(path: str) -> None:
    """Kill every process in the cgroup ``path`` and its children, then remove them, deepest first."""
    try:
        inner = [os.path.join(path, n) for n in os.listdir(path) if os.path.isdir(os.path.join(path, n))]
    except OSError:
        return
    for child in inner:
        _remove_tree(child)
    deadline = time.monotonic() + CLOSE_SECONDS
    while True:
        pids = [int(p) for p in _read(os.path.join(path, "cgroup.procs")).split()]
        if pids and os.path.exists(os.path.join(path, "cgroup.kill")):
            _write(os.path.join(path, "cgroup.kill"), "1", missing_ok=True)
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            os.rmdir(path)
            return
        except FileNotFoundError:
            return
        except OSError:
            if time.monotonic() > deadline:
                return  # still busy: the next run removes it
            time.sleep(0.01)


def _read(path: str) -> str:
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def _write(path: str, text: str, missing_ok: bool = False) -> None:
    try:
        with open(path, "w") as f:
            f.write(text)
    except FileNotFoundError:
        if not missing_ok:
            raise


def _number(text: str) -> int:
    try:
        return int(text.split()[0])
    except (IndexError, ValueError):
        return 0


def _fields(text: str) -> dict[str, int]:
    """``{"name": number}`` of a cgroup file of ``name number`` lines."""
    found = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].isdigit():
            found[parts[0]] = int(parts[1])
    return found


def describe() -> str:
    """Which count this machine gives learners' sandboxes, in a sentence (``python -m gofish_teach.trust``)."""
    from . import seccomp

    found = tree() if os.environ.get("GOFISH_CGROUPS", "1") != "0" else None
    if found is not None:
        where = ", ".join(os.path.dirname(p) for p in found.run.values())
        return (f"cgroup {found.kind}: each learner's sandbox gets a cgroup of its own (under {where}), so the kernel "
                "counts every byte it holds (memfd files and pipe buffers too) against --memory-mb, and every "
                "process and thread against 64")
    if seccomp.available():
        return ("no cgroup can be made here: the fallback. A seccomp filter refuses memfd files, shared memory "
                "and new threads (and, for a tournament's entry, new processes), each process may open 64 files, "
                "and the grader counts a notebook's processes every 0.1 s")
    return ("no cgroup can be made here, and libseccomp is missing: memfd files and threads are not refused, "
            "so a learner's code can hold memory and process ids that nothing counts; install libseccomp2, or "
            "run as root where cgroups are mounted")
