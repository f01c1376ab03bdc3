"""The tournament's end of an entry's pipe: one learner's entry at one table, in a sandbox of its own.

This is the host's side of the trust boundary: everything here treats the entry's process as
hostile. Its other side, what runs in that process, is :mod:`.entry`.

A :class:`LearnerPlayer` starts a fresh process (in a fresh sandbox) holding a fresh copy of the
entry's file, in a folder that is memory of its own. Each decision is one request (its view
and its seat's seed) and one answer (a line of JSON), each against the decision's deadline: a
request it does not take in time (it stopped reading, or filled its own input) is a timeout,
as is an answer that does not come. After each decision no other process may be left running
in its sandbox, and what it holds (its memory and its files) must be within its memory limit.
Between decisions it is not stopped (stopping and continuing a process at every decision cost
more than the decision): what it does then is counted instead. Before each decision, the
processor time it used since its last one (its threads', to the nanosecond, and its children's)
is added up against a budget (:data:`OUT_OF_TURN`: one time limit over the whole table), and a
process it started since, running or ended, is a forfeit. Where a cgroup can be made, the entry's
process joins its own before its file reaches it, and the kernel counts and limits everything it
holds (memory no process maps, threads and zombies too): a limit it reached is its forfeit
(``memory``, ``process``); elsewhere its process refuses those (:mod:`gofish_teach.trust.seccomp`).
:meth:`LearnerPlayer.close` kills the sandbox and removes its cgroup: nothing of it is left for
the next table.
"""
from __future__ import annotations

import functools
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from .. import trust
from . import forkserver
from .wire import Sender

#: Seconds an entry may take to load (import its file) before its first decision.
START_TIME = 30.0
#: Longest wait, in seconds, for what ran in a sandbox to end once the sandbox is killed.
CLOSE_WAIT = 5.0
#: Processor time an entry may use out of its turn (while the others decide) over a whole table, in
#: time limits: about a thousandth of a second an answer is what an honest entry uses (it writes its
#: answer, then waits for the next request).
OUT_OF_TURN = 1.0
#: The most bytes one answer may take (a move is a few); more is a forfeit, not a full memory.
MAX_ANSWER = 1 << 16
#: How a forfeit is reported: the kinds an entry's own process may claim.
KINDS = ("crash", "illegal", "timeout", "memory", "process")


class Forfeit(Exception):
    """An entry broke a rule of the tournament: ``kind`` is crash, illegal, timeout, memory or process."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


class LearnerPlayer:
    """A learner's entry at one table: a fresh process (in a fresh sandbox) with a fresh copy of its file.

    ``filename`` and ``source`` are the entry's file name and text (sent with the table, so a
    worker of a cluster needs no shared folder). In the sandbox the copy is written into the
    sandbox's own folder, which is memory counted in its limit; without it, into a new folder
    under ``scratch``. ``choose`` asks it for one decision.
    """

    def __init__(self, filename: str, source: bytes, time_limit: float, memory_mb: int | None, sandboxed: bool,
                 scratch=None):
        self.time_limit = time_limit
        self.sandboxed = sandboxed
        self.memory_mb = memory_mb
        self.work = None
        self.started = False
        self.closed = False
        self.worker = None  # the pid of the entry's Python process, as this process sees it
        self.init = None    # bwrap's init inside the sandbox (orphans become its children)
        self.proc = self.forked = None
        self.watch = None  # the worker's /proc files and private folders, opened once it has loaded
        # What it had used and started when its last decision ended (see _before).
        self.cpu_at_end = self.reaped_at_end = self.out_of_turn = 0.0
        self.known: set = set()
        self.sender = Sender()
        # A cgroup counts every byte and process of it; where none can be made, the fallback (trust.seccomp):
        # a filter against memory no count sees, few open files, and its processes and threads counted here.
        self.group = trust.Group.make(memory_mb, trust.TASKS)
        self.fallback = self.group is None
        self.reached = None  # the limit it reached, once its sandbox is closed ("memory", "processes")
        try:
            self._start(filename, source, scratch)
        except BaseException:
            self.close()
            raise
        if self.proc is not None:
            self.requests, answers = self.proc.stdin.fileno(), self.proc.stdout.fileno()
        else:
            self.requests, answers = self.forked.requests, self.forked.answers
        self.reader = trust.LineReader(answers, MAX_ANSWER)

    def _start(self, filename: str, source: bytes, scratch) -> None:
        """Its process: forked by the fork server, else one bubblewrap of its own, else (off) a plain one."""
        memory_mb = self.memory_mb
        # -S: no site, so no .pth file or editable-install finder runs first (a fifth of a start's
        # time); the paths it would have added are given instead.
        env = dict(ENV, PYTHONPATH=_import_path())
        argv = [_python(), "-S", "-m", "gofish_teach.tournament.entry", filename, str(memory_mb or 0),
                str(int(self.fallback))]
        joined = self.group.wrap if self.group is not None else list
        if self.sandboxed and forkserver_usable():
            try:
                self._fork(filename, source)
            except forkserver.Unavailable:
                self.forked = None
                if trust.interrupted():
                    raise trust.Stopped("the run was interrupted") from None
                _FORKS_FAIL.append(1)  # this machine cannot: one bubblewrap per entry from now on
        if self.forked is not None:
            pass
        elif self.sandboxed:
            fd = _in_memory(source)
            try:
                argv = trust.sandbox_command(argv, mode="require", env=env, memory_mb=memory_mb, files={filename: fd})
                self.proc = trust.start(joined(argv), env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
                                        pass_fds=[fd])
            finally:
                os.close(fd)
        else:  # a clean environment all the same: nothing of the teacher's session leaks in
            self.work = Path(tempfile.mkdtemp(prefix="table-", dir=scratch))
            (self.work / filename).write_bytes(source)
            env.update(PATH=os.environ.get("PATH", "/usr/bin:/bin"), HOME=str(self.work), LANG="C.UTF-8")
            self.proc = trust.start(joined(argv), env=env, cwd=str(self.work))

    def _fork(self, filename: str, source: bytes) -> None:
        """The entry forked by this process's fork server into a fresh sandbox; its file sent on its pipe."""
        server = forkserver.server(ENV, _python(), _import_path())
        self.forked = server.fork(filename, self.memory_mb, self.fallback)
        for fd in (self.forked.requests, self.forked.answers):
            os.set_blocking(fd, False)
        self.init = self.forked.keeper  # its worker is found once it has answered (no waiting for it here)
        if self.group is not None:  # into its cgroup before its file reaches it: all it holds is counted
            self.group.add(self.forked.keeper)
            if self.forked.worker is None:  # two forks: the keeper's child too (it waits for its file)
                self.group.add(self.forked.find_worker())
        try:
            trust.write_all(self.forked.requests, len(source).to_bytes(4, "big") + source,
                            time.monotonic() + START_TIME)
        except (trust.Deadline, trust.Closed):
            pass  # it will not load: its answer says so

    def start(self) -> None:
        """Wait for the entry to load; a :class:`Forfeit` if it cannot."""
        try:
            self._load()
        except Forfeit as failure:
            raise self._reached(failure) from None

    def _load(self) -> None:
        if not self.started:
            self._answer(time.monotonic() + START_TIME, START_TIME, "loading the file")
            self.started = True
            self._find_worker()
            folders = [f"/proc/{self.worker}/root{f}" for f in trust.PRIVATE] if self.sandboxed else []
            self.watch = trust.Watch(self.worker, folders, (self.memory_mb or 0) * 2**20)
            self._after("loading its file")

    def choose(self, view, seat_seed: int) -> tuple:
        """One decision: the entry gets its view and its seat's seed (a new seed: a new game), nothing else.

        Writing the request and reading the answer share the decision's time limit.
        """
        try:
            return self._choose(view, seat_seed)
        except Forfeit as failure:
            raise self._reached(failure) from None

    def _reached(self, failure: Forfeit) -> Forfeit:
        """The forfeit, said as the limit its cgroup reached if it reached one (a process the kernel killed
        for memory ends without answering: that is "memory", not a crash)."""
        self.close()
        if self.reached == "memory" and failure.kind != "memory":
            return Forfeit("memory", f"it reached its memory limit of {self.memory_mb} MB (its memory and files, "
                                     f"memfd files and pipe buffers included, counted by the kernel): {failure}")
        if self.reached == "processes" and failure.kind != "process":
            return Forfeit("process", f"it tried to hold more than {trust.TASKS} processes and threads at once "
                                      f"(zombies included), its limit: {failure}")
        return failure

    def _choose(self, view, seat_seed: int) -> tuple:
        self._load()
        self._before()
        if self.reader.pending():
            self.close()
            raise Forfeit("crash", "it wrote to the tournament's channel out of turn (only the answer to the "
                                   "question asked may come back)")
        message = self.sender.request(view, seat_seed)
        deadline = time.monotonic() + self.time_limit
        try:
            trust.write_all(self.requests, message, deadline)
        except trust.Deadline:
            self.close()
            raise Forfeit("timeout", f"it did not take the tournament's request within the time limit of "
                                     f"{self.time_limit:g} s (it stopped reading, or filled its own input)") from None
        except trust.Closed:
            self.close()
            raise Forfeit("crash", "its process had ended") from None
        move = self._answer(deadline, self.time_limit, "one decision")
        if self.reader.buffer:  # more than one answer: whichever line is its own, it spoke out of turn
            self.close()
            raise Forfeit("crash", "it wrote to the tournament's channel out of turn (only the answer to the "
                                   "question asked may come back)")
        self._after("its decision")
        return move

    def _answer(self, deadline: float, limit: float, what: str):
        try:
            line = self.reader.line(deadline)
        except trust.Deadline:
            self.close()
            raise Forfeit("timeout", f"no answer within the time limit of {limit:g} s for {what}") from None
        except trust.Closed:
            self.close()
            raise Forfeit("crash", "its process ended without answering (it may have run out of memory)") from None
        except ValueError:
            self.close()
            raise Forfeit("crash", f"it answered more than {MAX_ANSWER:,} bytes for {what}, not a move") from None
        try:
            reply = _DECODE(line.decode("utf-8"))  # json.loads, without its checks of what it was given
            if not isinstance(reply, dict):
                raise ValueError
        except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
            self.close()
            raise Forfeit("crash", "it answered something that is not a move") from None
        if "error" in reply:
            self.close()
            kind = reply.get("kind")
            raise Forfeit(kind if kind in KINDS else "crash", one_line(reply["error"]))
        return reply.get("move")

    # ------------------------------------------------------------------ its processes
    def _find_worker(self) -> None:
        if self.forked is not None:
            try:
                self.worker = self.forked.find_worker()  # the keeper's one child: it has answered, so it exists
            except forkserver.Unavailable:
                self.close()
                raise Forfeit("crash", "its process ended after loading its file") from None
            return
        if not self.sandboxed:
            self.worker = self.proc.pid
            return
        # bwrap (our child) -> bwrap's init, pid 1 inside -> the worker, pid 2 inside.
        outer = trust.children(self.proc.pid)
        inner = trust.children(outer[0]) if len(outer) == 1 else []
        if len(inner) != 1:
            self.close()
            raise Forfeit("process", f"it started {max(len(inner) - 1, 0)} other process(es) while loading; "
                                     "an entry must decide in its own process")
        self.init, self.worker = outer[0], inner[0]

    def _others(self, threads: int = 0, every: bool = False) -> list[int]:
        """Processes still running in this entry's sandbox other than the worker (``every``: ended ones not
        waited for too). Forked, the worker is process 1 of its namespace, so every orphan is its child too."""
        if threads == 1:  # one thread: its children are that thread's (a listing of the threads saved)
            found = self.watch.children() if self.watch is not None else trust.children_of_task(self.worker)
        else:
            found = trust.children(self.worker)
        if self.init is not None and self.forked is None:
            found += [p for p in trust.children_of_task(self.init) if p != self.worker]
        return found if every else [p for p in found if trust.running(p)]

    def held(self, resident: int | None = None) -> int:
        """Bytes the entry holds: its process's memory and, in the sandbox, what its private folders hold."""
        if resident is not None and self.watch is not None:
            return resident + self.watch.folders_used()
        folders = [f"/proc/{self.worker}/root{f}" for f in trust.PRIVATE] if self.sandboxed else []
        size = (self.memory_mb or 0) * 2**20
        if resident is None:
            return trust.held([self.worker], folders, size)
        return resident + sum(trust.folder_used(f, size) for f in folders)

    def _after(self, after: str) -> None:
        """After a decision: a :class:`Forfeit` if it left a process running, or holds more than its memory
        limit (its memory and its files together); then what it has used and started so far is noted."""
        threads, resident, reaped = self.watch.state()  # one read for all three
        found = self._others(threads, every=True)
        self._within_limits(threads, found, after)
        others = [p for p in found if trust.running(p)]
        if others:
            self.close()
            raise Forfeit("process", f"it left {len(others)} process(es) running after {after} (a fork, or a "
                                     "child started with setsid); an entry must decide in its own process")
        if self.memory_mb and self.held(resident) > self.memory_mb * 2**20:
            self.close()
            raise Forfeit("memory", f"it held more than its memory limit of {self.memory_mb} MB after {after} "
                                    "(its memory and the files it wrote, which are memory too)")
        self.known = set(found)
        self.reaped_at_end = reaped
        self.cpu_at_end = self.watch.cpu_seconds()

    def _before(self) -> None:
        """Before a decision: what it did since its last one ended, while the others decided. Its
        processor time then (its threads', and its children's that it waited for) counts against a
        budget of :data:`OUT_OF_TURN` time limits over the table; and a process started since, running
        or ended, is a forfeit, as one left running after a decision is."""
        threads, _, reaped = self.watch.state()
        found = self._others(threads, every=True)
        self._within_limits(threads, found, "its last decision", kernel=False)  # the cgroup: after each decision
        self.out_of_turn += self.watch.cpu_seconds() - self.cpu_at_end + max(reaped - self.reaped_at_end, 0.0)
        if self.out_of_turn > OUT_OF_TURN * self.time_limit:
            self.close()
            raise Forfeit("timeout", f"it used more than {OUT_OF_TURN * self.time_limit:g} s of processor time out "
                                     "of its turn (while the others decided) at this table")
        started = [p for p in found if p not in self.known]
        if started:
            self.close()
            raise Forfeit("process", f"it started {len(started)} process(es) out of its turn (after its last "
                                     "decision); an entry must decide in its own process")

    def _within_limits(self, threads: int, found: list, after: str, kernel: bool = True) -> None:
        """A :class:`Forfeit` if its cgroup reached a limit (asked only if ``kernel``: the kernel enforces
        them anyway, and one look a decision is enough to say so); without one, if its threads and the
        processes it started (running or zombies) are more than :data:`gofish_teach.trust.TASKS`."""
        if self.group is not None:
            reached = self.group.verdict() if kernel else None
        else:
            reached = "processes" if threads + len(found) > trust.TASKS else None
        if reached == "memory":
            self.reached = reached
            self.close()
            raise Forfeit("memory", f"it reached its memory limit of {self.memory_mb} MB after {after} (its memory "
                                    "and files, memfd files and pipe buffers included, counted by the kernel)")
        if reached == "processes":
            self.reached = reached
            self.close()
            raise Forfeit("process", f"it held or tried to hold more than {trust.TASKS} processes and threads at "
                                     f"once (zombies included) after {after}, its limit")

    def close(self) -> None:
        """Kill the entry's sandbox (everything inside dies with it), wait until what ran inside has
        ended, and delete its copy."""
        if self.closed:
            return
        self.closed = True
        if self.watch is not None:
            self.watch.close()
        if self.group is not None:  # what it reached, read before its cgroup goes (with the sandbox, at the end)
            self.reached = self.reached or self.group.verdict()
        if self.forked is not None:  # process 1 of its namespace: once it has ended, so has all it started
            inside = [self.worker] if self.worker is not None else [self.forked.keeper]
        else:
            inside = [self.init, self.worker] + self._others() if self.sandboxed and self.init is not None else []
        if self.proc is not None:
            trust.finish(self.proc)
        elif self.forked is not None:
            self.forked.kill()
            for fd in (self.forked.requests, self.forked.answers):
                try:
                    os.close(fd)
                except OSError:
                    pass
        # The kernel kills the rest of the sandbox once its init has died, but not before bwrap's own
        # exit is reported: a child the entry started with setsid could be seen for a moment after
        # (a fresh clone's test did). Wait for it, bounded (a pid may be reused meanwhile).
        deadline = time.monotonic() + CLOSE_WAIT
        while any(trust.running(p) for p in inside) and time.monotonic() < deadline:
            time.sleep(0.005)
        if self.group is not None:
            self.group.close()
        if self.work is not None:
            import shutil

            shutil.rmtree(self.work, ignore_errors=True)


#: The environment of an entry's process.
ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1",
       "MPLBACKEND": "Agg", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONSAFEPATH": "1"}
_FORKS_FAIL: list = []
_DECODE = json.JSONDecoder().decode


def forkserver_usable() -> bool:
    """Whether sandboxed entries are forked by the fork server (else: one bubblewrap each, as a fallback
    where the system allows no namespaces inside bubblewrap, or ``GOFISH_FORKSERVER=0``)."""
    return not _FORKS_FAIL and os.environ.get("GOFISH_FORKSERVER", "1") != "0" and sys.platform.startswith("linux")


def _in_memory(data: bytes) -> int:
    """A descriptor on a file in memory holding ``data``, read from its start (bwrap copies it in)."""
    fd = os.memfd_create("entry", 0)
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


@functools.lru_cache(maxsize=1)
def _python() -> str:
    """This Python, by a path that works inside the sandbox: the virtual environment's folder
    resolved (``.venv`` may be a link, to a place the sandbox does not show), its program not
    (a venv's ``python`` links to the base interpreter, which would not see the venv)."""
    folder, name = os.path.split(sys.executable)
    return os.path.join(os.path.realpath(folder), name)


@functools.lru_cache(maxsize=1)
def _import_path() -> str:
    """Where the entry's Python finds this package and the installed ones, without ``site``."""
    import sysconfig

    folders = [os.path.dirname(trust.package_dir()), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    return os.pathsep.join(dict.fromkeys(os.path.realpath(f) for f in folders))


def one_line(text, limit: int = 300) -> str:
    """An entry's own words (an error message), on one line and not too long, for the leaderboard."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."
