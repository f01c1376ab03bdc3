"""Shared by the classroom tests: a host served over loopback on a free port, in this process's loop."""
from __future__ import annotations

import asyncio
import contextlib
import threading

from tornado.httpserver import HTTPServer
from tornado.netutil import bind_sockets

from gofish_teach.classroom.host import Host
from gofish_teach.classroom.server import application

#: Bots ask at once in tests (a class's tables pause between bot asks so that learners can follow).
FAST = {"pause": 0}


@contextlib.asynccontextmanager
async def serving(data, **kwargs):
    """A :class:`Host` on ``data``, served on 127.0.0.1 (a free port); yields ``(host, address)``."""
    host = Host(data, **kwargs)
    sockets = bind_sockets(0, "127.0.0.1")
    address = f"http://127.0.0.1:{sockets[0].getsockname()[1]}/"
    host.join_url = address
    server = HTTPServer(application(host))
    server.add_sockets(sockets)
    host.start()
    try:
        yield host, address
    finally:
        server.stop()
        await server.close_all_connections()
        host.close()


class Loop:
    """An event loop of its own in a thread of its own: coroutines run on it one after another, and what one
    leaves (clients, connections) the next finds. A thread, because the session's browser (Playwright's sync
    API) keeps a loop running in the main thread once a browser test has run."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine, timeout: float = 300):
        """``coroutine`` to its end on this loop, bounded generously (the machine is shared)."""
        return asyncio.run_coroutine_threadsafe(asyncio.wait_for(coroutine, timeout), self.loop).result()

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)
        self.loop.close()


def run(coroutine, timeout: float = 300):
    """Run one test's scenario on a loop of its own (:class:`Loop`)."""
    loop = Loop()
    try:
        return loop.run(coroutine, timeout)
    finally:
        loop.close()
