"""Where the games run, apart from what they are: simulate's own process pool, a Dask cluster, any executor.

:func:`gofish_teach.simulate.simulate` and the class tournament (:mod:`gofish_teach.tournament`)
play their games through this module, which changes when the way of running them elsewhere does:

* **Any executor.** :func:`as_executor` takes a Dask ``Client`` (its ``get_executor()``) or any
  ``concurrent.futures.Executor``; :func:`as_finished` runs calls on it a few at a time and yields
  each result as it finishes, cancelling the rest on an error or Ctrl-C.
* **A Dask cluster.** :func:`dask_client` connects to a scheduler (Dask is imported only there);
  :class:`_Cluster` stops a run that has had no worker for a while (Dask would wait for ever).
* **Simulate's own pool.** Its workers die with their parent (:func:`worker_start`,
  :func:`die_with_parent`); in a worker an alarm stops a slow decision (:class:`DecisionAlarm`), and
  the parent keeps a deadline of its own (:class:`Deadlines`, each worker's :class:`Watch`) and
  kills the pool of a strategy that ignores the alarm (:func:`kill_pool`); :func:`current_watch`
  is a worker's slot, for the decisions it times.

The settings and errors these use are this module's own (``NO_WORKER_SECONDS``,
``SCHEDULER_SECONDS``, ``DEADLINE_GRACE``, ``NoWorkers``, ``DecisionTimeout``): a user or a test
changes a setting here, where it is read. The public names here are importable from
:mod:`gofish_teach.simulate` too, as before it had a module of its own.
"""
from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Executor, ProcessPoolExecutor, wait

from .strategies import strategy_name

#: Seconds past ``time_limit`` the parent waits before it kills a worker whose decision goes on.
DEADLINE_GRACE = 1.0
#: Seconds a run on a Dask cluster waits with no worker connected to the scheduler before it
#: stops with :class:`NoWorkers` (instead of waiting for ever for a worker to come).
NO_WORKER_SECONDS = 60.0
#: Seconds ``--scheduler`` tries to reach the scheduler.
SCHEDULER_SECONDS = 30


class DecisionTimeout(TimeoutError):
    """A strategy took longer than ``time_limit`` seconds over one decision (in a worker process)."""


class NoWorkers(RuntimeError):
    """A run on a Dask cluster had no worker to play its games for :data:`NO_WORKER_SECONDS`."""


# --------------------------------------------------------------------------- any executor
def as_executor(executor) -> Executor | None:
    """``executor`` as a ``concurrent.futures.Executor``: a Dask Client gives its ``get_executor()``.

    ``pure=False`` makes each chunk its own task, never one merged with an identical task of an
    earlier run. No ``retries``: those replay a chunk that raised, and a chunk's error (a
    strategy's bug) comes back the same; a chunk whose worker died Dask plays again anyway.
    """
    if executor is None or isinstance(executor, Executor):
        return executor
    if callable(getattr(executor, "get_executor", None)):
        return executor.get_executor(pure=False)
    example = executor if isinstance(executor, str) else "tcp://HOST:8786"
    raise ValueError(f'executor: give a Dask Client (Client("{example}")) or a concurrent.futures.Executor, '
                     f"not {executor!r}")


def _dask_client(executor):
    """The Dask Client behind ``executor`` (a ``client.get_executor()``), else None."""
    return getattr(executor, "_client", None) if type(executor).__module__.startswith("distributed") else None


def as_finished(executor, calls, max_workers: int = 0, deadlines=None):
    """Run each call ``(key, function, args)`` on ``executor`` and yield ``(key, result)`` as it finishes.

    Only a few calls are submitted at a time (a long run never queues them all at once). On a
    Dask cluster (``executor`` from a Client), :class:`NoWorkers` once it
    has had no worker for :data:`NO_WORKER_SECONDS`. With ``deadlines``
    (simulate's own pool), raise the :class:`DecisionTimeout` of a
    decision past its deadline. On an error or Ctrl-C the calls still waiting are cancelled.

    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(2) as pool:
    ...     sorted(as_finished(pool, ((i, pow, (i, 2)) for i in range(4))))
    [(0, 0), (1, 1), (2, 4), (3, 9)]
    """
    client = _dask_client(executor)
    cluster = _Cluster(client) if client is not None else None
    window = 2 * (max_workers or (cluster.threads() if cluster else 0) or os.cpu_count() or 1)
    calls = iter(calls)
    running = {}
    try:
        while True:
            for key, function, args in itertools.islice(calls, window - len(running)):
                running[executor.submit(function, *args)] = key
            if not running:
                return
            timeout = (min(0.25, deadlines.time_limit / 2) if deadlines is not None
                       else cluster.poll if cluster is not None else None)
            done, _ = wait(running, timeout=timeout, return_when=FIRST_COMPLETED)
            late = deadlines.overdue() if deadlines is not None else None
            if late is not None:
                raise late
            if cluster is not None and not done:
                cluster.check()
            for future in done:
                yield running.pop(future), future.result()
    finally:
        for future in running:  # on an error or Ctrl-C, do not leave the rest running
            future.cancel()


# --------------------------------------------------------------------------- a Dask cluster
def dask_client(address: str | None):
    """A Dask ``Client`` connected to the scheduler at ``address`` (closed on leaving), or nothing
    if ``address`` is None. Dask is imported only here: the kit runs without it.

    >>> with dask_client(None) as client:
    ...     client is None
    True
    """
    if address is None:
        return contextlib.nullcontext()
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("--scheduler needs Dask's distributed package: pip install distributed") from None
    try:
        return Client(address, timeout=SCHEDULER_SECONDS)
    except ValueError as e:
        raise ValueError(f"--scheduler: {address!r} is not a scheduler's address like tcp://HOST:8786 ({e})") from None
    except (OSError, TimeoutError) as e:
        raise ValueError(f"--scheduler: no Dask scheduler answered at {address} ({e})") from None


class _Cluster:
    """How many threads a Dask cluster has, and :class:`NoWorkers` once it
    has had no worker for :data:`NO_WORKER_SECONDS` (Dask itself would
    wait for ever for a worker to come)."""

    poll = 1.0  # seconds between looks, while no chunk finishes

    def __init__(self, client):
        self.client, self.since = client, None

    def threads(self) -> int:
        return sum(self.client.nthreads().values())

    def check(self) -> None:
        if self.threads():
            self.since = None
            return
        now = time.monotonic()
        self.since = self.since or now
        if now - self.since >= NO_WORKER_SECONDS:
            address = getattr(self.client.scheduler, "address", "the scheduler")
            raise NoWorkers(f"no Dask worker has been connected to {address} for "
                            f"{NO_WORKER_SECONDS:g} s, so no game can be played: start one "
                            f"(dask worker {address}) and run again")


# --------------------------------------------------------------------------- simulate's own pool
class OutOfTime(BaseException):
    """Raised by the alarm inside a slow decision. A BaseException, so that a strategy's own
    ``except Exception`` cannot swallow it."""


class DecisionAlarm:
    """Within: the alarm signal interrupts a decision that takes too long, if ``time_limit``
    is set and this is the main thread of a worker process (the value is then the limit,
    else None). The previous handler is put back on the way out."""

    def __init__(self, time_limit):
        usable = (time_limit and hasattr(signal, "setitimer") and multiprocessing.parent_process() is not None
                  and threading.current_thread() is threading.main_thread())
        self.limit = time_limit if usable else None

    def __enter__(self):
        if self.limit:
            self.previous = signal.signal(signal.SIGALRM, self._raise)
        return self.limit

    def __exit__(self, *exc):
        if self.limit:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)

    @staticmethod
    def _raise(signum, frame):
        raise OutOfTime


class Deadlines:
    """When each worker of simulate's own pool began its current decision, in shared memory.

    Slot ``i`` holds (start, game, seat) of worker ``i``'s decision, start 0 when it is not in
    one. The parent reads them while it waits for chunks (:meth:`overdue`); a worker writes its
    own slot (:class:`Watch`). The clock is ``time.monotonic``, one clock for every process.
    """

    def __init__(self, workers: int, time_limit, lineup, n: int):
        ctx = multiprocessing.get_context()
        self.slots = ctx.Array("d", 3 * workers, lock=False)
        self.taken = ctx.Value("i", 0)
        self.time_limit, self.lineup, self.n = time_limit, lineup, n

    def overdue(self):
        """A :class:`DecisionTimeout` for the first worker past its deadline, else None."""
        if not self.time_limit:
            return None
        now = time.monotonic()
        for i in range(0, len(self.slots), 3):
            start, game, seat = self.slots[i:i + 3]
            if start and now - start > self.time_limit + DEADLINE_GRACE:
                game, seat = int(game), int(seat)
                name = strategy_name(self.lineup[(seat + game % self.n) % self.n])
                return DecisionTimeout(
                    f"strategy {name!r} (seat {seat}) took more than time_limit={self.time_limit:g} s over one "
                    f"decision, in game {game} of the tournament (lineup as given: "
                    f"{', '.join(map(strategy_name, self.lineup))}), and went on after the alarm: its worker process "
                    "was killed. Does it ever return?")
        return None


class Watch:
    """A worker's own slot of :class:`Deadlines`."""

    def __init__(self, slots, slot: int):
        self.slots, self.base, self.game = slots, 3 * slot, 0

    def begin(self, seat: int) -> None:
        self.slots[self.base + 1], self.slots[self.base + 2] = self.game, seat
        self.slots[self.base] = time.monotonic()

    def end(self) -> None:
        self.slots[self.base] = 0.0


#: In a worker of simulate's own pool, its :class:`Watch` (None elsewhere): see :func:`current_watch`.
_watch = None


def current_watch():
    """This worker's :class:`Watch` in simulate's own pool (set by :func:`worker_start`), else None."""
    return _watch


def worker_start(parent: int, deadlines) -> None:
    """The first thing a worker of simulate's own pool does: die with its parent, take a slot."""
    global _watch
    die_with_parent(parent)
    if deadlines is not None:
        with deadlines.taken.get_lock():
            slot = deadlines.taken.value
            deadlines.taken.value += 1
        if slot < len(deadlines.slots) // 3:
            _watch = Watch(deadlines.slots, slot)


def die_with_parent(parent: int) -> None:
    """End this process when ``parent`` ends: ``PR_SET_PDEATHSIG`` on Linux, else a watchdog thread."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(1, int(signal.SIGKILL), 0, 0, 0) != 0:  # 1 is PR_SET_PDEATHSIG
            raise OSError(ctypes.get_errno(), "prctl")
    except (OSError, AttributeError):
        def watchdog():
            while os.getppid() == parent:
                time.sleep(1)
            os._exit(1)

        threading.Thread(target=watchdog, daemon=True).start()
    if os.getppid() != parent:  # it ended before the signal was set
        os._exit(1)


def kill_pool(pool: ProcessPoolExecutor) -> None:
    """Kill a pool's workers (one may be stuck in a decision) so that shutting it down cannot hang."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.kill()
