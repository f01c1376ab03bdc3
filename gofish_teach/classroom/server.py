"""The web side of the host: tornado serves the pages and the two websockets.

Why tornado: JupyterLab already installs it (the kit needs no new web stack), and it has what
the host needs, well kept and tested: an HTTP server, websockets with a size limit and an
Origin check, and an event loop on which the bots' pauses and the turn clock are timers. No
HTTP or websocket framing is written here. Starlette with uvicorn would do as well, at the
cost of three more packages.

Routes: ``/`` the learner's page, ``/teacher`` the teacher's (its token travels in the
link's ``#fragment``, which browsers never send to a server or put in a Referer), ``/static/``
their scripts and style, ``/qr.svg`` the join address as a QR code, ``/teacher/games.jsonl``
the class's games (``Authorization: Bearer TOKEN``), and the websockets ``/ws/play`` and
``/ws/teacher``. Every response forbids inline scripts and framing (Content-Security-Policy),
so a name that slipped through as markup still could not run.

Each connection is held to :data:`RATE` messages a second (a burst of :data:`BURST`); a message
over :data:`protocol.MAX_MESSAGE <gofish_teach.classroom.protocol.MAX_MESSAGE>` bytes gets an
error frame, and one over :data:`HARD_LIMIT` ends the connection (tornado's limit, 1009). One
address may hold :data:`PER_ADDRESS` connections.
"""
from __future__ import annotations

import logging
import time
from importlib import resources
from urllib.parse import urlsplit

import tornado.web
import tornado.websocket

from .codes import Tries, normal_code, same_secret
from .host import Host
from .protocol import LEARNER, TEACHER, Problem, frame, parse

log = logging.getLogger("gofish_teach.classroom")

#: Messages a second one connection may send, and how many it may send at once.
RATE, BURST = 20, 40
#: Refused messages in a row after which a connection is closed (it is flooding, not playing).
FLOOD = 200
#: tornado closes a connection whose message is longer than this (bytes): past our own limit, far
#: enough that a message just over it gets an error frame naming the problem instead.
HARD_LIMIT = 64 * 1024
#: Connections one address may hold at once (a learner may have a few tabs; a class is many addresses).
PER_ADDRESS = 64
#: The pages' files (package data).
PAGES = resources.files(__package__) / "pages"
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


class _Secure:
    def set_default_headers(self) -> None:
        for name, value in SECURITY_HEADERS.items():
            self.set_header(name, value)


class Page(_Secure, tornado.web.RequestHandler):
    def initialize(self, name: str) -> None:
        self.name = name

    def get(self) -> None:
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.write((PAGES / self.name).read_bytes())


class Static(_Secure, tornado.web.StaticFileHandler):
    pass


class QrCode(_Secure, tornado.web.RequestHandler):
    """``/qr.svg`` (the join address) or ``/qr.svg?code=K7QM-3XPA`` (with a table's code filled in)."""

    def initialize(self, host: Host) -> None:
        self.host = host

    def get(self) -> None:
        code = self.get_query_argument("code", "")
        try:
            url = self.host.join_url + (f"?code={normal_code(code)}" if code else "")
        except ValueError as e:
            raise tornado.web.HTTPError(400, reason=str(e)[:80]) from None
        self.set_header("Content-Type", "image/svg+xml")
        self.write(qr_svg(url))


def qr_svg(text: str) -> str:
    import io

    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=6, border=2, xmldecl=False, svgns=True,
                                      title="QR code: " + text)
    return out.getvalue().decode()


class Games(_Secure, tornado.web.RequestHandler):
    """The class's games, one JSON line each, for the teacher's token (``Authorization: Bearer``)."""

    def initialize(self, host: Host) -> None:
        self.host = host

    def get(self) -> None:
        ip = self.request.remote_ip
        wait = self.host.tries.wait(ip)
        if wait:
            raise tornado.web.HTTPError(429, reason=f"too many wrong tokens: try again in {wait} s")
        scheme, _, token = self.request.headers.get("Authorization", "").partition(" ")
        if scheme != "Bearer" or not same_secret(token.strip(), self.host.token):
            self.host.tries.take(ip)
            raise tornado.web.HTTPError(401, reason="the teacher's token is needed")
        self.set_header("Content-Type", "application/x-ndjson; charset=utf-8")
        self.set_header("Content-Disposition", 'attachment; filename="class-games.jsonl"')
        self.write("".join(line + "\n" for line in self.host.game_lines()))


class _Socket(_Secure, tornado.websocket.WebSocketHandler):
    """What both websockets share: the Origin check, the limits, error frames and the host's calls."""

    kinds: dict = {}

    def initialize(self, host: Host) -> None:
        self.host = host
        self.ip = self.request.remote_ip or "?"
        self.bucket = Tries(BURST, 1 / RATE)
        self.refused = 0
        self.warned = 0.0
        self.counted = False

    def check_origin(self, origin: str) -> bool:
        # Called only for an Origin that is not this host's own address (tornado compares that first):
        # allowed if the teacher named it with --origin, else refused with 403.
        parts = urlsplit(origin)
        return f"{parts.scheme}://{parts.netloc}".lower() in self.host.origins

    def open(self) -> None:
        addresses = self.host.addresses
        if addresses.get(self.ip, 0) >= PER_ADDRESS:
            self.close(1008, "too many connections from your address")
            return
        addresses[self.ip] = addresses.get(self.ip, 0) + 1
        self.counted = True

    def on_close(self) -> None:
        if self.counted:
            addresses = self.host.addresses
            addresses[self.ip] -= 1
            if not addresses[self.ip]:
                del addresses[self.ip]
            self.counted = False
        try:
            self.host.forget(self)
        except Exception:
            log.exception("closing a connection")

    def send(self, text: str) -> None:
        try:
            self.write_message(text)
        except tornado.websocket.WebSocketClosedError:
            pass

    def error(self, problem: str) -> None:
        self.send(frame("error", problem=problem))

    def on_message(self, message) -> None:
        if not self.bucket.take(""):
            self.refused += 1
            if self.refused >= FLOOD:
                self.close(1008, "too many messages")
            elif time.monotonic() - self.warned > 1:
                self.warned = time.monotonic()
                self.error(f"too many messages: at most {RATE} a second; this one was ignored")
            return
        self.refused = 0
        try:
            self.handle(parse(message, self.kinds))
        except (Problem, ValueError) as e:  # IllegalMove is a ValueError: its text names the rule
            self.error(str(e))
        except Exception as e:  # never a traceback to a client, never another table stopped
            log.exception("a %s message from %s", type(self).__name__, self.ip)
            self.error(f"the host could not do that ({type(e).__name__}); nothing changed")


class PlaySocket(_Socket):
    kinds = LEARNER

    def handle(self, message: dict) -> None:
        self.host.learner(self, message)


class TeacherSocket(_Socket):
    kinds = TEACHER

    def handle(self, message: dict) -> None:
        self.host.teacher(self, message)


def application(host: Host) -> tornado.web.Application:
    """The tornado application serving ``host``."""
    return tornado.web.Application([
        (r"/", Page, {"name": "play.html"}),
        (r"/teacher", Page, {"name": "teacher.html"}),
        (r"/static/(.*)", Static, {"path": str(PAGES)}),
        (r"/qr\.svg", QrCode, {"host": host}),
        (r"/teacher/games\.jsonl", Games, {"host": host}),
        (r"/ws/play", PlaySocket, {"host": host}),
        (r"/ws/teacher", TeacherSocket, {"host": host}),
    ], websocket_max_message_size=HARD_LIMIT, websocket_ping_interval=20, websocket_ping_timeout=20,
        xsrf_cookies=False, compress_response=False)
