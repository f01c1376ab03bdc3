"""The signals that stop a run: Ctrl-C, SIGTERM and SIGHUP, each the same way, whatever the run inherited.

The grader and the tournament say that Ctrl-C stops them at once, every learner's process killed
and every copy and cgroup removed (:func:`.child.interrupt`, which they call on a
``KeyboardInterrupt``). A closed terminal (SIGHUP) or ``timeout`` and ``kill`` (SIGTERM) once ended
the grader at once instead, leaving a learner's notebook copy in the system's temporary folder; and
a run started with SIGINT ignored (a background job of a script) or blocked (the child of a process
that blocked it: Python's threads do not unblock it) did not stop on Ctrl-C at all. While
:func:`stopping_signals` is in force, all three reach the run's main thread as a ``KeyboardInterrupt``.

>>> with stopping_signals():
...     try:
...         signal.raise_signal(signal.SIGTERM)
...     except KeyboardInterrupt:
...         print("stopped by", stop_word(), "exit status", stop_status())
stopped by SIGTERM exit status 143
>>> signal.getsignal(signal.SIGTERM) == signal.SIG_DFL     # as it was before
True
"""
from __future__ import annotations

import contextlib
import signal
import threading

#: The signal that stopped the run (:func:`stopping_signals`): Ctrl-C unless another said so.
_STOP_SIGNAL = [signal.SIGINT]
#: Ctrl-C, and the signals a closed terminal, ``timeout`` or ``kill`` send: each stops a run the same way.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextlib.contextmanager
def stopping_signals():
    """While a command runs: Ctrl-C, SIGTERM and SIGHUP each stop it the same way (a ``KeyboardInterrupt``
    in the main thread, so that every child is killed and every temporary folder and cgroup removed), once;
    a second one acts as the signal always does. Each is received even if the command was started with it
    ignored or blocked (as a background job of a script starts, or a child of a process that blocked it):
    a run that says Ctrl-C stops it must not be deaf to it. Outside the main thread it changes nothing.

    :func:`stop_word` and :func:`stop_status` then say which signal it was.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        _STOP_SIGNAL[0] = signum
        for each in STOP_SIGNALS:  # once: a second signal ends the process as it always would
            signal.signal(each, signal.default_int_handler if each == signal.SIGINT else signal.SIG_DFL)
        raise KeyboardInterrupt

    _STOP_SIGNAL[0] = signal.SIGINT
    previous = {each: signal.signal(each, stop) for each in STOP_SIGNALS}
    blocked = signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        for each, handler in previous.items():
            signal.signal(each, handler)


def stop_word() -> str:
    """How a message names what stopped the run: ``Ctrl-C``, ``SIGTERM`` or ``SIGHUP``."""
    return "Ctrl-C" if _STOP_SIGNAL[0] == signal.SIGINT else signal.Signals(_STOP_SIGNAL[0]).name


def stop_status() -> int:
    """The exit status of a run stopped by that signal (as a shell reports it: 128 and its number)."""
    return 128 + _STOP_SIGNAL[0]
