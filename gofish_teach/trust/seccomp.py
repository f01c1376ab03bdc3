"""Where no cgroup counts a sandbox (:mod:`.cgroup`): a seccomp filter refuses what nothing else would count.

Where a cgroup can be made, the kernel counts every page and every process a learner's sandbox
holds. Where none can, the parent counts what it can see (each process's resident memory, the
files in its private folders, its processes and threads, every tenth of a second), and some of
it nobody sees: a ``memfd_create`` file written but not mapped, System V shared memory and
message queues, POSIX message queues; and threads are made faster (20,000 a second) than any
count from outside can stop them. So the child, before any learner's code runs, installs a
filter (:func:`install`, through :func:`gofish_teach.trust.limit_self`) under which:

- those memory calls fail (``EPERM``: an ``OSError`` for the learner's code);
- no thread can be started (``EAGAIN``: Python's "can't start new thread"), and, for a tournament's
  entry, which must decide in its own process anyway, no process either; a grader's notebook may
  fork (each case of its checks is a fork) and the grader counts those;
- pipes and sockets, which hold kernel memory too, are bounded by the number of open files
  (:data:`FALLBACK_FILES`: a pipe holds at most 1 MB without privilege).

A filter cannot be removed once installed, and every process the child starts inherits it. It
is made with libseccomp (installed with systemd on every mainstream distribution; loaded with
``ctypes``), so it is right on every architecture libseccomp knows; a system call made through
another architecture's entry (32-bit calls from a 64-bit process) kills the thread.

>>> program(processes=True) is None or len(program(processes=True)) % 8 == 0   # whole BPF instructions
True
"""
from __future__ import annotations

import ctypes
import ctypes.util
import errno
import functools

#: The system calls refused: each is a way to hold memory that neither the process's resident set nor
#: its private folders show.
REFUSED = ("memfd_create", "memfd_secret", "shmget", "msgget", "mq_open")
#: Open files allowed in each process of a sandbox without a cgroup (descriptors passed over a socket count too).
FALLBACK_FILES = 64

SCMP_ACT_ALLOW = 0x7FFF0000
SCMP_ACT_ERRNO = 0x00050000
SCMP_CMP_MASKED_EQ = 7
CLONE_THREAD = 0x00010000
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2


class _ArgCmp(ctypes.Structure):
    """libseccomp's ``struct scmp_arg_cmp``: argument ``arg`` compared by ``op`` with ``a`` (and mask ``b``)."""

    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int), ("a", ctypes.c_uint64), ("b", ctypes.c_uint64)]


class _Program(ctypes.Structure):
    """The kernel's ``struct sock_fprog``: a count of 8-byte BPF instructions and where they are."""

    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


@functools.lru_cache(maxsize=1)
def _library():
    name = ctypes.util.find_library("seccomp") or "libseccomp.so.2"
    try:
        lib = ctypes.CDLL(name, use_errno=True)
    except OSError:
        return None
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint,
                                           ctypes.POINTER(_ArgCmp)]
    lib.seccomp_export_bpf.argtypes = [ctypes.c_void_p, ctypes.c_int]
    lib.seccomp_release.argtypes = [ctypes.c_void_p]
    return lib


def available() -> bool:
    """Whether the filter can be made here (libseccomp is installed)."""
    return program(processes=False) is not None


@functools.lru_cache(maxsize=2)
def program(processes: bool) -> bytes | None:
    """The filter as BPF (made once): :data:`REFUSED` and new threads refused, and new processes too if
    ``processes``; the rest allowed. None without libseccomp."""
    import os

    lib = _library()
    ctx = lib.seccomp_init(SCMP_ACT_ALLOW) if lib is not None else None
    if not ctx:
        return None
    rules = [(name, SCMP_ACT_ERRNO | errno.EPERM, []) for name in REFUSED]
    # clone3 hides its flags from a filter: refused as if the kernel had none, so the C library uses clone.
    rules.append(("clone3", SCMP_ACT_ERRNO | errno.ENOSYS, []))
    if processes:
        rules += [(name, SCMP_ACT_ERRNO | errno.EAGAIN, []) for name in ("clone", "fork", "vfork")]
    else:
        rules.append(("clone", SCMP_ACT_ERRNO | errno.EAGAIN, [_ArgCmp(0, SCMP_CMP_MASKED_EQ, CLONE_THREAD,
                                                                       CLONE_THREAD)]))
    read, write = os.pipe()
    try:
        for name, action, compare in rules:
            number = lib.seccomp_syscall_resolve_name(name.encode())
            if number < 0:
                continue  # not a call of this architecture (fork on arm64, for one)
            array = (_ArgCmp * len(compare))(*compare) if compare else None
            if lib.seccomp_rule_add_array(ctx, action, number, len(compare), array) != 0:
                return None
        if lib.seccomp_export_bpf(ctx, write) != 0:
            return None
        os.close(write)
        write = -1
        chunks = []
        while chunk := os.read(read, 1 << 16):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        lib.seccomp_release(ctx)
        os.close(read)
        if write >= 0:
            os.close(write)


def install(processes: bool) -> bool:
    """Install the filter in this process (and every process it starts, for ever); whether it was
    (False without libseccomp: the parent's count is then all there is)."""
    code = program(processes)
    if code is None:
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    buffer = ctypes.create_string_buffer(code, len(code))
    prog = _Program(len(code) // 8, ctypes.addressof(buffer))
    if libc.prctl(PR_SET_NO_NEW_PRIVS, ctypes.c_ulong(1), ctypes.c_ulong(0), ctypes.c_ulong(0),
                  ctypes.c_ulong(0)) != 0:
        raise OSError(ctypes.get_errno(), "no new privileges")
    if libc.prctl(PR_SET_SECCOMP, ctypes.c_ulong(SECCOMP_MODE_FILTER), ctypes.byref(prog), ctypes.c_ulong(0),
                  ctypes.c_ulong(0)) != 0:
        raise OSError(ctypes.get_errno(), "install the seccomp filter")
    return True
