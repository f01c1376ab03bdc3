"""Shared by the classroom tests: a host served over loopback on a free port, in this process's loop."""
from __future__ import annotations

import asyncio
import contextlib

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


def run(coroutine, timeout: float = 300):
    """Run one test's scenario in a fresh loop, bounded generously (the machine is shared)."""
    return asyncio.run(asyncio.wait_for(coroutine, timeout))
