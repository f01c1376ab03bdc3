"""The child-process kit: how this package runs code it does not trust, in a process of its own.

Three places run a learner's code: the grader (:mod:`gofish_teach.grade`), the class tournament
(:mod:`gofish_teach.tournament`) and the checks in the exercise notebooks
(:mod:`gofish_teach.exercises.sandbox`). They all start, feed, read, measure and kill that
process with this module, and wrap its command in bubblewrap with :mod:`.jail`,
so a fix made here reaches all three.

**The policy, one for all three.** A child's ``memory_mb`` is the budget of everything it holds:

- every process of it may map at most ``memory_mb`` (``RLIMIT_AS``) and write no file larger
  than ``memory_mb`` (``RLIMIT_FSIZE``; a write past it fails with ``EFBIG`` instead of killing
  the process), and dumps no core;
- in the sandbox its private folders (``/tmp`` and its own work folder) are memory too
  (tmpfs), each at most ``memory_mb`` (:func:`.jail.command`), so nothing it writes
  reaches the teacher's disk;
- its parent adds up what it holds, the resident memory of every process it started (forked
  children included) plus what its private folders hold (:func:`held`), and kills it past
  ``memory_mb``: the grader every :data:`WATCH_SECONDS` while it waits, the tournament after
  every decision (and while it waits, as the grader does);
- a CPU-time limit backs up the wall-clock deadline that the parent keeps.

A check in a notebook forks the learner's own kernel, which already holds the kernel's memory
(shared, copy-on-write): there the address-space limit is what the kernel holds plus
``memory_mb`` (:func:`limit_memory` with ``relative=True``), never above a limit set from
outside, and no sandbox is used (the learner checks their own code in their own kernel).

**Pipes against a deadline.** Every write to a child and every read from it has a deadline
and a cap: :func:`write_all` never blocks (a child that stops reading cannot stall its
parent), :func:`read_all` and :func:`read_line` stop at the deadline, at the cap, or when a
``check`` (the memory budget) says so, reading in chunks (never ``bytes +=`` on a growing
buffer). :func:`kill_group` kills a child and everything it started (its session; in the
sandbox, everything inside dies with bwrap).

>>> read, write = os.pipe()
>>> write_all(write, b"one\\ntwo\\n", time.monotonic() + 1)
>>> os.close(write)
>>> read_all(read, time.monotonic() + 1, cap=100)
Reply(data=b'one\\ntwo\\n', ended='eof')
>>> os.close(read)
"""
from __future__ import annotations

import os
import select
import signal
import subprocess
import threading
import time
from typing import Callable, NamedTuple

#: How often a parent checks a running child's memory while it waits for it.
WATCH_SECONDS = 0.1
#: The processes and threads (zombies included) a learner's sandbox may hold at once: a notebook or an
#: entry needs a few (bwrap and its init are two); a cgroup enforces it (``pids.max``), else the parent counts.
TASKS = 64
#: Bytes read from a pipe at a time.
CHUNK = 1 << 16
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

#: The children alive now, so that Ctrl-C can kill them all at once (:func:`interrupt`).
_LIVE: set = set()
_LIVE_LOCK = threading.Lock()
#: Set by :func:`interrupt`: no child starts until :func:`resume`.
_STOPPED = threading.Event()


class Stopped(Exception):
    """The run was interrupted (Ctrl-C): no new child is started."""


# --------------------------------------------------------------------------- limits (in the child)
def limit_self(memory_mb: int | None, cpu_seconds: float | None = None, *, relative: bool = False,
               refuse: str | None = None) -> None:
    """The policy, applied by a child to itself before any learner's code runs (see the module's docstring).

    ``memory_mb`` bounds the address space (``relative``: on top of what this process holds now,
    for a fork of a kernel) and the size of any file written (``None``: no bound); ``cpu_seconds``
    the CPU time (a backstop: the parent's wall-clock deadline comes first). Where no cgroup counts
    the child (:mod:`.cgroup`), ``refuse`` is ``"threads"`` (a grader's notebook) or ``"processes"``
    (a tournament's entry): few open files (:data:`.seccomp.FALLBACK_FILES`), and the seccomp filter
    that refuses memory nothing would count and new threads (and processes), :func:`.seccomp.install`.
    Where a limit cannot be set (no ``resource`` module: Windows), it is left out.
    """
    try:
        import resource
    except ImportError:
        return
    limit_memory(memory_mb, relative=relative)
    if memory_mb:
        _lower(resource.RLIMIT_FSIZE, int(memory_mb) * 2**20)
        # A write past the file-size limit fails (EFBIG, an OSError the learner sees) rather than
        # killing the process with SIGXFSZ, which would read as a crash.
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    _lower(resource.RLIMIT_CORE, 0)
    if cpu_seconds:
        _lower(resource.RLIMIT_CPU, int(cpu_seconds) + 5, int(cpu_seconds) + 10)
    if refuse:
        from . import seccomp

        _lower(resource.RLIMIT_NOFILE, seccomp.FALLBACK_FILES)
        seccomp.install(processes=refuse == "processes")


def _lower(which: int, soft: int, hard: int | None = None) -> None:
    """Set a limit, never above one already set from outside (a child of a child keeps its parent's)."""
    import resource

    hard = soft if hard is None else hard
    _, current = resource.getrlimit(which)
    if current != resource.RLIM_INFINITY:
        soft, hard = min(soft, current), min(hard, current)
    try:
        resource.setrlimit(which, (soft, hard))
    except (ValueError, OSError):
        pass


def limit_memory(memory_mb: int | None, *, relative: bool = False) -> None:
    """Cap this process's address space at ``memory_mb`` (``relative``: on top of what it holds now).

    Never above a limit set from outside (the grader's, when a check runs inside it).
    Does nothing where ``resource`` or ``/proc`` is missing (macOS, Windows).
    """
    if memory_mb is None:
        return
    try:
        import resource

        limit = int(memory_mb) * 2**20
        if relative:
            with open("/proc/self/statm") as f:
                limit += int(f.read().split()[0]) * PAGE
        _lower(resource.RLIMIT_AS, limit)
    except (ImportError, OSError, ValueError):
        pass


# --------------------------------------------------------------------------- starting and killing
def start(argv: list[str], *, env: dict, cwd=None, pass_fds=(), stdin: bool = True) -> subprocess.Popen:
    """Start ``argv`` in a session of its own, with pipes to its stdin (unless not ``stdin``) and stdout,
    its stderr to nowhere, and both pipes non-blocking on this side. It is registered for
    :func:`interrupt` until :func:`finish`; once the run is interrupted, :class:`Stopped`."""
    if _STOPPED.is_set():
        raise Stopped("the run was interrupted")
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd=cwd, env=env, start_new_session=True,
                            pass_fds=tuple(pass_fds))
    for stream in (proc.stdin, proc.stdout):
        if stream is not None:
            os.set_blocking(stream.fileno(), False)
    with _LIVE_LOCK:
        _LIVE.add(proc)
    if _STOPPED.is_set():  # interrupted while it started: it must not outlive the run
        kill_group(proc)
    return proc


def kill_group(proc: subprocess.Popen) -> None:
    """Kill ``proc`` and every process in its session (in the sandbox, everything inside dies with bwrap)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        try:
            proc.kill()
        except OSError:
            pass


def finish(proc: subprocess.Popen) -> int:
    """Kill ``proc``'s group if it still runs, reap it, close its pipes; its exit status."""
    if proc.poll() is None:
        kill_group(proc)
    proc.wait()
    for stream in (proc.stdin, proc.stdout):
        if stream is not None:
            try:
                stream.close()
            except OSError:
                pass
    with _LIVE_LOCK:
        _LIVE.discard(proc)
    return proc.returncode


def interrupt() -> int:
    """On Ctrl-C: kill every child started by :func:`start` and not yet finished, and start no
    more until :func:`resume`; how many were killed. Whatever waited on them returns at once."""
    _STOPPED.set()
    with _LIVE_LOCK:
        live = list(_LIVE)
    for proc in live:
        kill_group(proc)
    return len(live)


def interrupted() -> bool:
    return _STOPPED.is_set()


def resume() -> None:
    """A new run may start children again (after an :func:`interrupt`)."""
    _STOPPED.clear()


# --------------------------------------------------------------------------- pipes against a deadline
class Deadline(Exception):
    """The deadline passed before a pipe could be written or read."""


class Closed(Exception):
    """The other end of the pipe is closed (the child ended)."""


class Reply(NamedTuple):
    """What :func:`read_all` read, and why it stopped: ``eof`` (the child closed its end),
    ``deadline``, ``cap`` (it sent more than the cap: the rest is not read) or ``check``
    (the check said stop, e.g. its memory passed the budget)."""

    data: bytes
    ended: str


def write_all(fd: int, data: bytes, deadline: float) -> None:
    """Write all of ``data`` to the non-blocking pipe ``fd`` by ``deadline``.

    Raises :class:`Deadline` if the reader does not take it in time (a child that fills its own
    pipe and stops reading stalls nothing), :class:`Closed` if the reader has gone.
    """
    view = memoryview(data)
    while view:
        try:
            written = os.write(fd, view)
            view = view[written:]
            continue
        except BlockingIOError:
            pass
        except (BrokenPipeError, ConnectionResetError):
            raise Closed from None
        left = deadline - time.monotonic()
        if left <= 0:
            raise Deadline
        select.select([], [fd], [], left)


def _wait_readable(fd: int, deadline: float, check: Callable[[], bool] | None) -> str | None:
    """Wait until ``fd`` can be read: None when it can, else ``deadline`` or ``check``."""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return "deadline"
        ready, _, _ = select.select([fd], [], [], min(left, WATCH_SECONDS) if check else left)
        if ready:
            return None
        if check is not None and check():
            return "check"


def _read_chunk(fd: int) -> bytes | None:
    try:
        return os.read(fd, CHUNK)
    except BlockingIOError:
        return None


def read_all(fd: int, deadline: float, cap: int, check: Callable[[], bool] | None = None) -> Reply:
    """Everything the child writes to ``fd`` until it closes it, by ``deadline``, at most ``cap`` bytes.

    ``check`` is called every :data:`WATCH_SECONDS`, whether the child is writing or not; when
    it returns true the read stops (``ended="check"``).
    """
    buffer = bytearray()  # grown in place; one copy of it returned (a flood at the cap: twice the cap held)
    checked = time.monotonic()
    while True:
        why = _wait_readable(fd, deadline, check)
        if why:
            return Reply(bytes(buffer), why)
        if check is not None and time.monotonic() - checked >= WATCH_SECONDS:
            checked = time.monotonic()
            if check():
                return Reply(bytes(buffer), "check")
        chunk = _read_chunk(fd)
        if chunk is None:
            continue
        if not chunk:
            return Reply(bytes(buffer), "eof")
        buffer += chunk
        if len(buffer) > cap:
            del buffer[cap:]
            return Reply(bytes(buffer), "cap")


class LineReader:
    """Reads one line at a time from a child's non-blocking pipe, each against a deadline and a cap."""

    def __init__(self, fd: int, cap: int):
        self.fd, self.cap = fd, cap
        self.buffer = bytearray()

    def pending(self) -> bool:
        """Whether the child has written anything not read yet (without waiting)."""
        if self.buffer:
            return True
        ready, _, _ = select.select([self.fd], [], [], 0)
        return bool(ready)

    def line(self, deadline: float, check: Callable[[], bool] | None = None) -> bytes:
        """The next line (without its newline). Raises :class:`Deadline` (also when ``check`` says
        stop), :class:`Closed` when the child closes its end first, ``ValueError`` past the cap."""
        while True:
            end = self.buffer.find(b"\n")
            if end >= 0:
                line = bytes(self.buffer[:end])
                del self.buffer[:end + 1]
                return line
            if len(self.buffer) > self.cap:
                raise ValueError(f"more than {self.cap:,} bytes without a line's end")
            why = _wait_readable(self.fd, deadline, check)
            if why == "deadline":
                raise Deadline
            if why == "check":
                raise Deadline("check")
            chunk = _read_chunk(self.fd)
            if chunk is None:
                continue
            if not chunk:
                raise Closed
            self.buffer += chunk


# --------------------------------------------------------------------------- a child's processes and memory
def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (of any of its threads); none if it has ended."""
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found += [int(c) for c in f.read().split()]
    except OSError:
        pass
    return found


def children_of_task(pid: int) -> list[int]:
    """The children of ``pid``'s main thread only (enough for a process with one thread)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(c) for c in f.read().split()]
    except OSError:
        return []


def threads_and_resident(pid: int) -> tuple[int, int]:
    """``(threads, resident bytes)`` of ``pid`` from one read of its ``stat``; ``(0, 0)`` if it has ended."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rpartition(")")[2].split()
        return int(fields[17]), int(fields[21]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0, 0


class Watch:
    """One process looked at after every decision, through descriptors opened once (a read of each
    is one system call, and a descriptor on ``/proc/PID`` can never reach another process that
    takes the same pid later): its ``stat`` (threads, resident memory), its main thread's children,
    and its private folders (each a file system of ``size`` bytes, :func:`folder_used`).

    What it reads is what :func:`threads_and_resident`, :func:`children_of_task` and
    :func:`folder_used` read; once the process has ended, it reads nothing (0, and no children).
    """

    def __init__(self, pid: int, folders=(), size: int | None = None):
        self.pid, self.size = pid, size
        self.stat = _open(f"/proc/{pid}/stat")
        self.kids = _open(f"/proc/{pid}/task/{pid}/children")
        self.folders = [fd for fd in (_open(f, os.O_DIRECTORY) for f in folders) if fd is not None]
        self.clock = (~pid << 3) | 2  # Linux's CPU clock of process pid (CPUCLOCK_SCHED, the whole process)

    def threads_and_resident(self) -> tuple[int, int]:
        return self.state()[:2]

    def state(self) -> tuple[int, int, float]:
        """``(threads, resident bytes, processor seconds of the children it has waited for)``, from one
        read; ``(0, 0, 0.0)`` once it has ended."""
        try:
            fields = os.pread(self.stat, 4096, 0).rpartition(b")")[2].split()
            return int(fields[17]), int(fields[21]) * PAGE, (int(fields[13]) + int(fields[14])) / TICKS
        except (OSError, TypeError, IndexError, ValueError):
            return 0, 0, 0.0

    def cpu_seconds(self) -> float:
        """Processor time its threads have used so far (to the nanosecond, not to the clock tick: the
        process's own CPU clock, which Linux lets any process read); 0.0 once it has ended."""
        try:
            return time.clock_gettime_ns(self.clock) / 1e9
        except (OSError, TypeError):
            return 0.0

    def children(self) -> list[int]:
        """The children of its main thread (all of them, for a process with one thread)."""
        try:
            return [int(c) for c in os.pread(self.kids, 1 << 16, 0).split()]
        except (OSError, TypeError, ValueError):
            return []

    def folders_used(self) -> int:
        used = 0
        for fd in self.folders:
            try:
                st = os.fstatvfs(fd)
            except OSError:
                continue
            if self.size is None or st.f_blocks * st.f_frsize == self.size:
                used += (st.f_blocks - st.f_bfree) * st.f_frsize
        return used

    def close(self) -> None:
        for fd in [self.stat, self.kids, *self.folders]:
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.stat = self.kids = None
        self.folders = []


def _open(path: str, flags: int = 0) -> int | None:
    try:
        return os.open(path, os.O_RDONLY | os.O_CLOEXEC | flags)
    except OSError:
        return None


def descendants(pid: int) -> list[int]:
    """Every process under ``pid``, children first (orphans in a sandbox are its init's children)."""
    found, todo = [], [pid]
    while todo and len(found) < 100_000:
        kids = children(todo.pop())
        found += kids
        todo += kids
    return found


def running(pid: int) -> bool:
    """Whether ``pid`` exists and is not a zombie (an ended child not yet waited for)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0] not in ("Z", "X")
    except OSError:
        return False


def resident(pid: int) -> int:
    """Bytes of memory ``pid`` holds now (its resident set); 0 once it has ended."""
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0


def folder_used(path: str, size: int | None = None) -> int:
    """Bytes used in the file system that holds ``path`` (a sandbox's tmpfs); 0 if it cannot be read,
    or if ``size`` is given and the file system is not of that size (not the tmpfs yet: while bwrap
    sets the sandbox up, its root is still the host's)."""
    try:
        st = os.statvfs(path)
    except OSError:
        return 0
    if size is not None and st.f_blocks * st.f_frsize != size:
        return 0
    return (st.f_blocks - st.f_bfree) * st.f_frsize


def held(pids, folders=(), size: int | None = None) -> int:
    """What a child holds, in bytes: the resident memory of ``pids`` plus what ``folders`` hold.

    A sandbox's private folders are seen from here through ``/proc/PID/root`` of a process
    inside it (``folders`` are such paths, each a file system of ``size`` bytes).
    """
    return sum(resident(p) for p in pids) + sum(folder_used(f, size) for f in folders)


class Budget:
    """The budget of a running child: :meth:`over` says whether it holds more than ``memory_mb``, or more
    than ``tasks`` processes and threads, and :attr:`reason` which (``"memory"`` or ``"processes"``).

    ``root`` is the child's pid (bwrap's, in the sandbox); ``folders`` its private folders as
    seen from inside (``/tmp``, the work folder), read through the first process inside. With a
    cgroup (``group``, :class:`gofish_teach.trust.cgroup.Group`) the kernel counts and enforces
    both, and says when a limit was reached; without one they are added up here.
    """

    def __init__(self, root: int, memory_mb: int | None, folders=(), *, sandboxed: bool = False, group=None,
                 tasks: int | None = None):
        self.root, self.limit = root, (memory_mb or 0) * 2**20
        self.inside = folders if sandboxed else ()
        self.sandboxed = sandboxed
        self.group, self.tasks = group, tasks
        self.peak = self.tasks_peak = 0
        self.reason: str | None = None

    def used(self) -> int:
        return self._count()[0]

    def _count(self) -> tuple[int, int]:
        """``(bytes, processes and threads)`` held now, zombies counted as one each."""
        pids = [self.root] + descendants(self.root)
        folders = []
        if self.inside and len(pids) > 1:
            folders = [f"/proc/{pids[1]}/root{f}" for f in self.inside]
        used = sum(folder_used(f, self.limit) for f in folders)
        tasks = 0
        for pid in pids:
            threads, memory = threads_and_resident(pid)
            used += memory
            tasks += max(threads, 1)
        self.peak, self.tasks_peak = max(self.peak, used), max(self.tasks_peak, tasks)
        return used, tasks

    def over(self) -> bool:
        if self.group is not None:
            self.reason = self.group.verdict()
            return self.reason is not None
        used, tasks = self._count()
        if self.limit and used > self.limit:
            self.reason = "memory"
        elif self.tasks and tasks > self.tasks:
            self.reason = "processes"
        return self.reason is not None

    def verdict(self) -> str | None:
        """The limit it reached, if any, by what was seen while it ran (and, with a cgroup, now)."""
        if self.group is not None and self.reason is None:
            self.reason = self.group.verdict()
        return self.reason
