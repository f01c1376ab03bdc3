"""Run one call of a learner's function with a time limit and a memory limit, and survive it.

A check must never hang or kill the notebook's kernel, whatever the learner wrote: an
endless loop, an exception, a function that eats all the memory. So each call runs in a
forked child process (it inherits the learner's function, however it was defined), which
sends back what it returned as a plain value (:mod:`.plain`: JSON, so an object of the
learner's never reaches the caller), or what it raised, and everything it printed. If the
child is not done in time it is killed, with every process it started: a thread cannot
stop a ``while True: pass``, a process can. The limits, the reading against a deadline and
the killing are :mod:`gofish_teach.trust`'s, shared with the grader and the tournament (one
policy: its memory limit is what the kernel holds plus ``memory_mb``, since a fork shares the
kernel's memory; a file it writes is at most ``memory_mb``; what it sends back is capped).

>>> outcome = call(sorted, ([3, 1, 2],))
>>> outcome.status, outcome.value
('ok', [1, 2, 3])
>>> call(lambda: object()).value
<a object, which is not a plain value>
>>> call(int, ("seven",)).error
"ValueError: invalid literal for int() with base 10: 'seven'"
>>> def forever():
...     while True:
...         pass
>>> call(forever, time_limit=0.2).status
'timeout'

Where ``fork`` does not exist (Windows), the call runs in a thread instead: an endless loop
is still reported after the time limit, but keeps running until the kernel is restarted.
"""
from __future__ import annotations

import io
import json
import os
import signal
import sys
import threading
import time
import traceback
import warnings
from dataclasses import dataclass, field

from .. import trust
from . import plain

#: Seconds a single call may take by default.
TIME_LIMIT = 5.0
#: Memory a single call may allocate by default, on top of what the process already uses.
MEMORY_MB = 1024
#: The most printed text kept from one call (the rest is cut).
MAX_OUTPUT = 2000
#: The most one call may send back (its value, plain, and what it printed): more is "too much output".
MAX_REPLY = 32 * 2**20


@dataclass
class Outcome:
    """What one call did.

    ``status``: ``"ok"`` (it returned ``value``), ``"error"`` (it raised: ``error`` is
    ``"Type: message"``, ``exception`` the type's name, ``traceback`` the learner's frames),
    ``"timeout"`` (it ran past the time limit and was stopped) or ``"memory"`` (it ran out of
    its memory allowance). ``output`` is what it printed.
    """

    status: str
    value: object = None
    error: str = ""
    exception: str = ""
    traceback: str = ""
    output: str = ""
    seconds: float = field(default=0.0, compare=False)


def call(func, args=(), kwargs=None, *, time_limit: float = TIME_LIMIT, memory_mb: int | None = MEMORY_MB) -> Outcome:
    """Call ``func(*args, **kwargs)`` in a child process; return its :class:`Outcome`.

    The child gets ``time_limit`` seconds and ``memory_mb`` megabytes beyond what this
    process already holds (``None``: no memory limit). The arguments reach the child as
    they are (they are not copied); the value comes back as a plain value
    (:func:`.plain.loads`): anything else comes back as a :class:`.plain.Unsupported` naming its type.
    """
    kwargs = kwargs or {}
    if not hasattr(os, "fork"):
        return _call_in_thread(func, args, kwargs, time_limit)
    read, write = os.pipe()
    start = time.monotonic()
    with warnings.catch_warnings():
        # Python 3.12+ warns that forking a threaded process (a Jupyter kernel) may deadlock
        # the child. The child only runs the learner's function and exits; if it does
        # deadlock, the time limit ends it like any endless loop.
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read)
        _child(func, args, kwargs, memory_mb, write)
    os.close(write)
    try:
        os.setpgid(pid, pid)  # a group of its own (the child says so too): killed with all it started
    except OSError:
        pass
    try:
        reply = trust.read_all(read, start + time_limit, MAX_REPLY)
    except BaseException:  # the kernel was interrupted while waiting: do not leave the child running
        _kill(pid)
        raise
    finally:
        os.close(read)
    if reply.ended == "deadline":
        _kill(pid)
        return Outcome("timeout", error=f"no answer within the time limit of {time_limit:g} s: is there an endless loop?",
                       seconds=time.monotonic() - start)
    if reply.ended == "cap":
        _kill(pid)
        return Outcome("error", error=f"too much output: the function's process sent back more than "
                                      f"{MAX_REPLY // 2**20} MB", seconds=time.monotonic() - start)
    data = reply.data
    _, wait_status = os.waitpid(pid, 0)
    seconds = time.monotonic() - start
    try:
        message = json.loads(data.decode("utf-8"), parse_constant=plain.reject_constant)
        kind, payload, output = message["kind"], message["payload"], str(message["output"])
        if kind == "ok":
            payload = plain.decode(payload)
    except Exception:
        # The child died without a word: killed by the kernel, usually for memory.
        died = -os.WTERMSIG(wait_status) if os.WIFSIGNALED(wait_status) else os.WEXITSTATUS(wait_status)
        return Outcome("memory" if died in (-signal.SIGKILL, -signal.SIGABRT) else "error",
                       error=f"the function's process ended without answering (exit status {died})", seconds=seconds)
    return _outcome(kind, payload, output, seconds)


def _child(func, args, kwargs, memory_mb, write) -> None:
    """Run in the forked child: call, send ``(kind, payload, printed)``, and exit at once."""
    try:
        try:
            os.setpgid(0, 0)
        except OSError:
            pass
        buffer = io.StringIO()
        sys.stdout = sys.stderr = buffer  # the kernel's own streams must not be touched from here
        _mute_display()
        trust.limit_self(memory_mb, relative=True)
        _leave_network()
        try:
            result = ("ok", func(*args, **kwargs))
        except MemoryError:
            result = ("memory", "MemoryError: ran out of its memory allowance")
        except BaseException as e:  # noqa: BLE001 - the learner may raise anything, even SystemExit
            result = ("error", (type(e).__name__, _message(e), _learner_traceback(e)))
        output = buffer.getvalue()[:MAX_OUTPUT + 100]
        kind, payload = result
        if kind == "ok":
            try:
                payload = plain.encode(payload)
            except Exception as e:  # noqa: BLE001 - a value whose type misbehaves: say which
                payload = {"unsupported": f"{type(payload).__name__} (it broke while being read: {_message(e)})"}
        data = json.dumps({"kind": kind, "payload": payload, "output": output}, allow_nan=False)
        with os.fdopen(write, "wb") as pipe:
            pipe.write(data.encode("utf-8"))
    finally:
        os._exit(0)  # skip atexit handlers and buffer flushes that belong to the parent


def _mute_display() -> None:
    """In a forked kernel, ``display()`` would write to the parent's sockets: make it do nothing."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None and hasattr(ipython, "get_ipython") else None
    if shell is not None:
        shell.display_pub.publish = lambda *args, **kwargs: None


def _outcome(kind, payload, output, seconds) -> Outcome:
    output = output if len(output) <= MAX_OUTPUT else output[:MAX_OUTPUT] + "\n... (output cut)"
    if kind == "ok":
        return Outcome("ok", value=payload, output=output, seconds=seconds)
    if kind == "memory":
        return Outcome("memory", error=payload, exception="MemoryError", output=output, seconds=seconds)
    name, message, trace = payload
    return Outcome("error", error=f"{name}: {message}" if message else name, exception=name,
                   traceback=trace, output=output, seconds=seconds)


def _kill(pid: int) -> None:
    """Kill the call's process and every process it started (its group), and reap it."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    os.waitpid(pid, 0)


#: Linux's flags for unshare(2): a new user namespace (needed to make the others unprivileged) and network.
_CLONE_NEWUSER, _CLONE_NEWNET = 0x10000000, 0x40000000


def _leave_network() -> None:
    """Where Linux allows it, give the child a network of its own, with nothing in it.

    A forked child is single-threaded, so it may enter new namespaces without privileges
    (where the system allows unprivileged user namespaces). Where it cannot, it keeps the
    kernel's network: the notebook's check is the learner's own feedback, not a proctor.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNET)
    except (OSError, AttributeError):
        pass


def _message(e: BaseException) -> str:
    try:
        return str(e)
    except Exception:
        return "(the exception's message could not be shown)"


def _learner_traceback(e: BaseException) -> str:
    """The traceback without this module's own frames: where the learner's code failed."""
    tb = e.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    try:
        return "".join(traceback.format_exception(type(e), e, tb))
    except Exception:
        return ""


def safe_repr(value) -> str:
    try:
        return repr(value)
    except Exception:
        return f"<a {type(value).__name__} that cannot be shown>"


def _call_in_thread(func, args, kwargs, time_limit) -> Outcome:
    """The fallback without ``fork``: a daemon thread, abandoned (still running) past the limit."""
    box: dict = {}

    def run():
        buffer = io.StringIO()
        try:
            box["result"] = ("ok", plain.decode(plain.encode(func(*args, **kwargs))))
        except MemoryError:
            box["result"] = ("memory", "MemoryError: ran out of memory")
        except BaseException as e:  # noqa: BLE001
            box["result"] = ("error", (type(e).__name__, _message(e), _learner_traceback(e)))
        box["output"] = buffer.getvalue()

    start = time.monotonic()
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(time_limit)
    seconds = time.monotonic() - start
    if thread.is_alive():
        return Outcome("timeout", error=f"no answer within the time limit of {time_limit:g} s: is there an endless "
                                        "loop? (It keeps running in the background until you restart the kernel.)",
                       seconds=seconds)
    kind, payload = box["result"]
    return _outcome(kind, payload, box.get("output", ""), seconds)
