"""A fork server in bubblewrap: each learner's entry forked, ready to play, into a fresh sandbox of its own.

Starting an entry's sandbox the plain way (bubblewrap, a new Python, importing numpy and this
kit) costs about 0.1-0.2 s of processor time, and a class tournament starts one per entry per
table (about 730 for 30 learners and 200 tables): most of its time. So a tournament starts
**one** bubblewrap sandbox (:func:`gofish_teach.trust.sandbox_command`, exactly as for an entry: the
read-only root, the answers masked, no network) holding a trusted Python that has imported all
that once and runs no learner's code. For each entry at each table it makes a copy of itself
(one ``clone`` into new namespaces, where the kit can call it; else two forks, the first a keeper
that waits for the second), which makes a fresh sandbox of its own inside it before the entry's
code exists in it:

- new user, mount, PID, network, IPC, UTS and cgroup namespaces: it sees no process but its own
  (it is process 1 of its own PID namespace, so whatever it starts dies with it), has no
  network, and shares no IPC with anyone;
- a fresh, private ``/tmp``, work folder ``/sandbox`` and ``/dev/shm``, memory (tmpfs) of at
  most ``memory_mb`` each; everything else read-only, ``/proc`` and ``/dev/pts`` hidden: no
  file it writes is seen by another entry or outlives it;
- every capability dropped (no new privileges either), a session of its own, and it dies with
  the fork server (which dies with the tournament, through bubblewrap).

The entry's file is not known to the fork server: it reaches the entry's own copy through the
entry's own pipe, after the fork. So the one thing the entries share is a pristine Python, the
same for every entry and every table: a fresh copy of it, not a process that any learner's code
ran in. What every process on the machine shares (the page cache, file locks) stays shared, as
it does between bubblewrap sandboxes; no secret of the tournament lives there
(:mod:`gofish_teach.tournament.table`).

:class:`ForkServer` is the tournament's end; :func:`serve` runs inside (``python -m
gofish_teach.tournament.forkserver FD``). Linux only, as bubblewrap is.
"""
from __future__ import annotations

import ctypes
import errno
import json
import os
import re
import signal
import socket
import sys
import threading
import time

# Linux's numbers, from <sched.h>, <sys/mount.h>, <sys/prctl.h> and <linux/capability.h>.
CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x02000000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = \
    1, 2, 4, 8, 32, 4096, 16384, 1 << 18
PR_SET_PDEATHSIG, PR_SET_NAME, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT = 1, 15, 24, 38, 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
LINUX_CAPABILITY_VERSION_3 = 0x20080522
#: What each entry's sandbox makes fresh: private, writable, memory.
FRESH = ("/tmp", "/sandbox", "/dev/shm")
#: What it hides: the PID numbers of the fork server's namespace, and the pseudo-terminals every
#: sandbox of the fork server would otherwise share.
HIDDEN = ("/proc", "/dev/pts")
#: The user and group inside for a teacher who is root (the usual "nobody").
NOBODY = 65534
#: Seconds to wait for the fork server to start and for a fork to be made.
START_SECONDS = 60.0
SPAWN_SECONDS = 30.0


class Unavailable(RuntimeError):
    """The fork server could not start (or died): entries are started one bubblewrap each instead."""


# --------------------------------------------------------------------------- the tournament's end
class Forked:
    """One entry forked by the server: its pipes (this side's ends) and its processes, as this process sees them.

    ``worker`` is the entry's process (process 1 of its own namespace), once :meth:`find_worker`
    has found it (it exists once the entry has said anything); ``keeper`` its parent, which made
    its sandbox and waits for it, or (made by one clone) the entry's process itself.
    """

    def __init__(self, requests: int, answers: int, keeper: int, worker: int | None = None):
        self.requests, self.answers, self.keeper, self.worker = requests, answers, keeper, worker

    def find_worker(self) -> int:
        """The entry's process: the keeper's one child (waited for, if the keeper has not made it yet)."""
        if self.worker is None:
            self.worker = ForkServer._only_child(self.keeper)
        return self.worker

    def kill(self) -> None:
        """Kill the entry (process 1 of its namespace: everything in it dies); its keeper then ends. Before
        the worker is known: the keeper's children, and the keeper."""
        from .. import trust

        for pid in [self.worker] if self.worker is not None else trust.children(self.keeper) + [self.keeper]:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


class ForkServer:
    """The tournament's end of the fork server: :meth:`fork` an entry; thread-safe."""

    def __init__(self, env: dict, python: str, import_path: str):
        from .. import trust

        self.lock = threading.Lock()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        # Not root inside (even for a teacher who is): Linux lets a namespace map user 0 of its parent
        # only with a capability that no process here has, and each entry's sandbox maps its parent's user.
        ids = (os.getuid() or NOBODY, os.getgid() or NOBODY)
        try:
            argv = trust.sandbox_command([python, "-S", "-m", "gofish_teach.tournament.forkserver",
                                          str(theirs.fileno())], mode="require", env=dict(env, PYTHONPATH=import_path),
                                         memory_mb=64, ids=ids)
        except trust.SandboxUnavailable as e:  # bwrap works (checked), but not with these ids: one bwrap each
            theirs.close()
            ours.close()
            raise Unavailable(f"the fork server's sandbox cannot be made here ({str(e)[:200]})") from None
        self.proc = None
        started = threading.Event()

        def start():  # bubblewrap dies with the thread that started it: this one lives as long as the process
            try:
                self.proc = trust.start(argv, env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
                                        pass_fds=[theirs.fileno()], stdin=False)
            finally:
                started.set()
            threading.Event().wait()

        threading.Thread(target=start, name="gofish-forkserver", daemon=True).start()
        started.wait()
        theirs.close()
        self.sock = ours
        if self.proc is None:
            raise Unavailable("the fork server could not be started")
        self.sock.settimeout(START_SECONDS)
        try:
            hello = self.sock.recv(4096)
        except OSError:
            hello = b""
        if hello != b"ready":
            self.close()
            raise Unavailable("the fork server did not start")
        self.server = self._inside()
        self.level = len(_nspid(self.server))  # how deep the server's PID namespace is, as seen from here

    def _inside(self) -> int:
        """The server's own pid (bwrap -> its init -> the server)."""
        from .. import trust

        outer = trust.children(self.proc.pid)
        inner = trust.children(outer[0]) if len(outer) == 1 else []
        if len(inner) != 1:
            self.close()
            raise Unavailable("the fork server's process could not be found")
        return inner[0]

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def fork(self, name: str, memory_mb: int | None, fallback: bool = False) -> Forked:
        """A fresh sandbox with the entry's process in it, waiting for its file on its request pipe."""
        requests_r, requests_w = os.pipe()
        answers_r, answers_w = os.pipe()
        try:
            with self.lock:
                self.sock.settimeout(SPAWN_SECONDS)
                socket.send_fds(self.sock, [json.dumps({"name": name, "memory_mb": memory_mb, "fallback": fallback}).encode()],
                                [requests_r, answers_w])
                reply = json.loads(self.sock.recv(4096) or b"{}")
            keeper = self._host_pid(reply.get("pid"))
            worker = keeper if reply.get("entry") else None  # made by one clone: no keeper, the entry itself
        except (OSError, ValueError) as e:
            for fd in (requests_w, answers_r):
                os.close(fd)
            raise Unavailable(f"the fork server did not fork ({e})") from None
        finally:
            os.close(requests_r)
            os.close(answers_w)
        return Forked(requests_w, answers_r, keeper, worker)  # else its worker is found once it has said something

    def _host_pid(self, pid) -> int:
        """The pid, as this process sees it, of the server's child numbered ``pid`` inside."""
        from .. import trust

        for candidate in trust.children(self.server):
            numbers = _nspid(candidate)
            # Its number in the server's namespace (an entry made by clone has one more, in its own).
            if len(numbers) >= self.level and self.level >= 2 and numbers[self.level - 1] == pid:
                return candidate
        raise OSError(f"no child {pid!r} of the fork server")

    @staticmethod
    def _only_child(keeper: int) -> int:
        """The entry's process: the keeper's one child, once it has made it."""
        from .. import trust

        deadline = time.monotonic() + SPAWN_SECONDS
        while time.monotonic() < deadline:
            found = trust.children(keeper)
            if found:
                return found[0]
            if not trust.running(keeper):
                break
            time.sleep(0.0005)
        raise Unavailable("the entry's sandbox was not made")

    def close(self, wait: float = 5.0) -> None:
        """End the server: it waits for the entries still running (each killed by its table), then ends;
        killed past ``wait`` seconds."""
        from .. import trust

        global CPU_SECONDS
        try:
            self.sock.settimeout(wait)
            self.sock.send(b"end")
            CPU_SECONDS += json.loads(self.sock.recv(4096))["cpu_seconds"]
        except (AttributeError, OSError, ValueError, KeyError):
            pass
        try:
            self.sock.close()
        except (AttributeError, OSError):
            pass
        if self.proc is not None:
            try:
                self.proc.wait(wait)
            except Exception:  # noqa: BLE001 - subprocess.TimeoutExpired: not ending, killed
                pass
            trust.finish(self.proc)


def _nspid(pid: int) -> list[int]:
    """``pid``'s numbers in each PID namespace it is in, outermost first (none if it has ended)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            return [int(n) for n in next(line for line in f if line.startswith("NSpid:")).split()[1:]]
    except (OSError, StopIteration, ValueError):
        return []


#: Processor time used by the fork servers of this process that have ended, entries included (for the bench).
CPU_SECONDS = 0.0
_SERVER: list = []
_SERVER_LOCK = threading.Lock()


def server(env: dict, python: str, import_path: str) -> ForkServer:
    """This process's fork server, started on first use (and again if it has died)."""
    with _SERVER_LOCK:
        if not _SERVER or not _SERVER[0].alive():
            _SERVER[:] = [ForkServer(env, python, import_path)]
        return _SERVER[0]


def close_server() -> None:
    """Stop this process's fork server (the end of a tournament); the next use starts a new one."""
    with _SERVER_LOCK:
        while _SERVER:
            _SERVER.pop().close()


# --------------------------------------------------------------------------- inside: the server
_libc = None


def _c():
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
        _libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
    return _libc


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def _mount(source: str, target: str, kind: str | None, flags: int, data: str | None = None) -> None:
    _check(_c().mount(source.encode(), target.encode(), kind.encode() if kind else None, flags,
                      data.encode() if data else None), f"mount {target}")


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


#: The namespaces each entry gets: all new (user first, which gives it the right to make the others).
SANDBOX_FLAGS = (CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS
                 | CLONE_NEWCGROUP)


def _make_sandbox(memory_mb: int | None, ids: tuple[int, int] | None = None) -> None:
    """In a fresh fork of the server: new namespaces (``ids``: already made by :func:`_clone`, and the
    server's user and group), fresh private folders, the rest read-only."""
    if ids is None:
        ids = (os.getuid(), os.getgid())
        _check(_c().unshare(SANDBOX_FLAGS), "unshare")
    uid, gid = ids
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{uid} {uid} 1")
    _write("/proc/self/gid_map", f"{gid} {gid} 1")
    _mount("none", "/", None, MS_REC | MS_PRIVATE)
    # What the server's sandbox binds under a folder made fresh here (the interpreter, the venv or this
    # package, from a checkout under /tmp) would be hidden by it: held by a descriptor now (in this mount
    # namespace, as a bind must be), bound again, read-only, over the fresh folder.
    kept = [(point, os.open(point, os.O_PATH | os.O_CLOEXEC)) for point in _BOUND_UNDER_FRESH]
    size = f"size={int(memory_mb)}m," if memory_mb else ""
    for folder in FRESH:
        if os.path.isdir(folder):
            _mount("tmpfs", folder, "tmpfs", MS_NOSUID | MS_NODEV, size + "mode=1777")
    for point, fd in kept:
        _bind_again(fd, point)
    for folder in HIDDEN:
        if os.path.isdir(folder):
            _mount("tmpfs", folder, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, "size=4k,mode=555")
    for folder in ("/", "/dev"):  # bubblewrap's own root and /dev are writable tmpfs: not here
        _mount("none", folder, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)


#: The mount points under a folder of :data:`FRESH` in the server's sandbox, outermost only (a bind
#: brings those under it along): found once, when the server starts (:func:`_bound_under`).
_BOUND_UNDER_FRESH: list[str] = []


def _bound_under(folders) -> list[str]:
    """The mount points strictly under any of ``folders``, outermost only, from ``/proc/self/mountinfo``."""
    points = []
    with open("/proc/self/mountinfo") as f:
        for line in f:
            # The fifth field, with space, tab, newline and backslash written as octal escapes.
            point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), line.split()[4])
            if any(point.startswith(folder.rstrip("/") + "/") for folder in folders):
                points.append(point)
    points = sorted(set(points), key=len)
    return [p for i, p in enumerate(points) if not any(p.startswith(q + "/") for q in points[:i])]


def _bind_again(fd: int, point: str) -> None:
    """Bind what ``fd`` holds (and every mount under it) at ``point``, in a fresh folder, read-only."""
    if os.path.isdir(f"/proc/self/fd/{fd}"):
        os.makedirs(point, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(point), exist_ok=True)
        os.close(os.open(point, os.O_WRONLY | os.O_CREAT, 0o444))
    _mount(f"/proc/self/fd/{fd}", point, None, MS_BIND | MS_REC)
    os.close(fd)
    try:
        _mount("none", point, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)
    except OSError:  # flags locked by the parent namespace: read-only already, if it was there
        pass
    if not os.statvfs(point).f_flag & os.ST_RDONLY:
        raise OSError(f"{point} would be writable in the entry's sandbox")


def _name(request: dict) -> None:
    """The process's name (``/proc/PID/comm``, 15 bytes) is the entry's file name: a fork shows the
    fork server's command line, and whoever looks for an entry's processes looks for its name."""
    _c().prctl(PR_SET_NAME, ctypes.c_char_p(str(request.get("name", "entry")).encode()[:15]), 0, 0, 0)


def _drop_capabilities() -> None:
    libc = _c()
    _check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no new privileges")
    for cap in range(64):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 and ctypes.get_errno() != 22:  # EINVAL: past the last
            _check(-1, "drop the bounding set")
    libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header = (ctypes.c_uint32 * 2)(LINUX_CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()
    _check(libc.capset(header, data), "drop the capabilities")


def _close_all_but(keep) -> None:
    keep = sorted(set(keep))
    low = 0
    for fd in keep + [1 << 20]:
        if fd > low:
            os.closerange(low, fd)
        low = fd + 1


#: ``clone``'s number on the machines where the kit calls it (the arguments after the flags are all 0);
#: elsewhere, or if it fails, an entry is started by two forks (:func:`_keeper`).
_CLONE_NUMBER = {"x86_64": 56, "aarch64": 220, "riscv64": 220}.get(os.uname().machine)


def _clone(flags: int, ids: tuple[int, int], request: dict, fds: list[int]) -> int:
    """One process, made in new namespaces (process 1 of its own PID namespace): the entry's. In the
    server, its pid; it never returns in the child (:func:`_cloned`).

    ``os.fork`` followed by ``unshare`` cannot make a process 1: a new PID namespace takes the
    caller's next child, so an entry cost two forks of this (large) process. ``clone`` makes it in
    one. Python has no ``clone``: it is called as ``os.fork`` calls ``fork``, between Python's own
    before- and after-fork steps (the server has one thread, so no lock is held elsewhere). The
    first time it fails (a kernel that refuses), every entry is started by two forks instead."""
    global _CLONE_NUMBER
    api = ctypes.pythonapi
    syscall = ctypes.PyDLL(None, use_errno=True).syscall  # the GIL held throughout, as os.fork holds it
    api.PyOS_BeforeFork()
    pid = syscall(ctypes.c_long(_CLONE_NUMBER), ctypes.c_ulong(flags | signal.SIGCHLD), None, None, None, None)
    failed = ctypes.get_errno()
    if pid == 0:
        api.PyOS_AfterFork_Child()
        _cloned(request, fds, ids)
    api.PyOS_AfterFork_Parent()
    if pid < 0:
        if failed in (errno.EINVAL, errno.ENOSYS):
            _CLONE_NUMBER = None
        raise OSError(failed, f"clone: {os.strerror(failed)}")
    return pid


def _cloned(request: dict, fds: list[int], ids: tuple[int, int]) -> None:
    """In the entry's process, made by :func:`_clone`: its sandbox, then the entry. Never returns."""
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        _c().prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        _name(request)
        requests, answers = fds
        _close_all_but([requests, answers])
        _make_sandbox(request.get("memory_mb"), ids)
        _entry(request, requests, answers)
    except BaseException:  # noqa: BLE001 - nothing to report to: the tournament sees the entry's pipe close
        code = 1
    finally:
        os._exit(code)


def _keeper(request: dict, fds: list[int]) -> None:
    """In the fork: make the sandbox, fork the entry's process into it, wait for it. Never returns."""
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        _c().prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        _name(request)
        requests, answers = fds
        _close_all_but([requests, answers])
        _make_sandbox(request.get("memory_mb"))
        pid = os.fork()
        if pid == 0:
            _entry(request, requests, answers)
        os.close(requests)
        os.close(answers)
        _drop_capabilities()
        _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status) & 0xFF
    except BaseException:  # noqa: BLE001 - nothing to report to: the tournament sees the entry's pipe close
        code = 1
    finally:
        os._exit(code)


def _entry(request: dict, requests: int, answers: int) -> None:
    """Process 1 of the new namespaces: no capabilities, a session of its own, then the entry. Never returns."""
    code = 1
    try:
        _c().prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        _drop_capabilities()
        os.setsid()
        os.chdir("/sandbox")
        os.environ.clear()
        os.environ.update({"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/sandbox", "LANG": "C.UTF-8"})
        from . import entry

        code = entry.serve(request["name"], request.get("memory_mb"), requests, answers, bool(request.get("fallback")))
    except BaseException:  # noqa: BLE001
        code = 1
    finally:
        os._exit(code)


def _reap(signum, frame) -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _warm() -> None:
    """Import here, once, all that every entry's process uses (numpy and its random generators, this
    kit, what loads the entry's file and limits it), so that no fork imports any of it again; then
    set every object made so far aside from the garbage collector (``gc.freeze``), so that a
    fork's collections do not touch, and so copy, the pages that hold them."""
    import gc
    import importlib.util  # noqa: F401
    import pkgutil  # noqa: F401
    import resource  # noqa: F401
    import runpy  # noqa: F401
    import zlib  # noqa: F401

    import numpy
    import numpy.random  # noqa: F401

    import gofish_teach  # noqa: F401

    from .. import strategies, trust  # noqa: F401
    from . import entry, wire  # noqa: F401

    entry.hidden_rng(0).integers(2)  # a generator made and used once: whatever that loads is loaded
    trust.seccomp_program(processes=True)  # the fallback's filter, made once (libseccomp loaded here, not per entry)
    numpy.int64(1) + 1
    gc.collect()
    gc.freeze()


def serve(control: int) -> int:
    """The fork server: import what entries use, then fork one sandboxed entry per request, for ever."""
    _warm()
    _BOUND_UNDER_FRESH[:] = _bound_under(FRESH)
    ids = (os.getuid(), os.getgid())  # as the server's namespace sees them: each entry's maps them to itself

    signal.signal(signal.SIGCHLD, _reap)  # waited for, so their processor time is counted (os.times)
    sock = socket.socket(fileno=control)
    sock.send(b"ready")
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(sock, 4096, 2)
        except OSError:
            return 1
        if not message:
            return 0
        if message == b"end":  # the tournament has ended: wait for the last entries, say what they used, end
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            while True:
                try:
                    os.wait()
                except ChildProcessError:
                    break
            used = os.times()
            sock.send(json.dumps({"cpu_seconds": used.user + used.system + used.children_user
                                  + used.children_system}).encode())
            return 0
        try:
            request = json.loads(message)
            if len(fds) != 2:
                raise ValueError
        except ValueError:
            for fd in fds:
                os.close(fd)
            sock.send(b"{}")
            continue
        cloned = _CLONE_NUMBER is not None
        try:
            try:
                pid = _clone(SANDBOX_FLAGS, ids, request, fds) if cloned else os.fork()
            except OSError as e:
                if not cloned or e.errno not in (errno.EINVAL, errno.ENOSYS):
                    raise
                cloned, pid = False, os.fork()  # a kernel without it: two forks, from now on
        except OSError as e:  # too many processes, no memory: this entry is not forked (the tournament says so)
            pid = None
            error = str(e)
        if pid == 0:
            sock.close()
            _keeper(request, fds)
        for fd in fds:
            os.close(fd)
        sock.send(json.dumps({"pid": pid, "entry": cloned} if pid else {"error": error}).encode())


if __name__ == "__main__":
    sys.exit(serve(int(sys.argv[1])))
