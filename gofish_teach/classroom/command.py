"""``gofish-teach host``: the one process a teacher starts for a class at the table.

It prints the address learners open (and a QR code of it), the teacher's own link, and where
it keeps its data; then serves until stopped (Ctrl+C). Started again with the same ``--data``
folder it resumes every table where it was. ``--export FILE`` writes the class's games, one
JSON line each, and exits.
"""
from __future__ import annotations

import argparse
import asyncio
import io
import logging
import signal
import socket
import sys
from pathlib import Path

#: The port a new data folder starts on (a restart reuses the folder's last port).
DEFAULT_PORT = 8044
#: Ports tried after the default one when it is taken (only when --port is not given).
PORT_TRIES = 20


def add_command(commands) -> None:
    host = commands.add_parser(
        "host", help="host a class at the table: learners play each other from their own browsers",
        description="Serve the class's tables: learners open the address printed (or scan the QR code), type "
                    "their table's code and a name, and play with each other and the bots; the teacher's link "
                    "opens tables and watches them all. Every ask is stored in the data folder before anyone "
                    "sees it: started again with the same --data, the host resumes every table where it was.",
        epilog="Example:\n  gofish-teach host --data gofish-class\n  "
               "gofish-teach host --data gofish-class --export class-games.jsonl",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    host.add_argument("--data", type=Path, default=Path("gofish-class"), metavar="DIR",
                      help="the folder for the tables, the log and the teacher's token (default: gofish-class)")
    host.add_argument("--port", type=int, default=None, metavar="N",
                      help=f"the port to serve on (default: the one this --data used last, else {DEFAULT_PORT}; "
                           "0 picks a free one)")
    host.add_argument("--ip", default="0.0.0.0", metavar="ADDRESS",
                      help="the address to listen on (default 0.0.0.0: every network this machine is on, so the "
                           "class can connect; 127.0.0.1 for this machine only)")
    host.add_argument("--url", default=None, metavar="URL",
                      help="the address to print and put in the QR code (default: http://THIS-MACHINE:PORT/)")
    host.add_argument("--origin", action="append", default=[], metavar="URL",
                      help="another web origin whose pages may connect (e.g. behind a proxy); repeat for more")
    host.add_argument("--export", type=Path, default=None, metavar="FILE",
                      help="write the class's games (one JSON line each, '-' for the screen) and exit")
    host.add_argument("--no-qr", action="store_true", help="do not print the QR code in the terminal")
    host.set_defaults(run=run_host)


def run_host(args, out) -> None:
    from .host import STORE_FILE, Host

    if args.port is not None and not 0 <= args.port <= 65535:
        raise ValueError(f"--port: {args.port} is not a port (0 to 65535)")
    if args.export is not None:
        if not (args.data / STORE_FILE).exists():
            raise ValueError(f"--data: {args.data} holds no class (no {STORE_FILE}): give the folder the host used")
        host = Host(args.data)
        lines = "".join(line + "\n" for line in host.game_lines())
        host.close()
        if str(args.export) == "-":
            out.write(lines)
        else:
            args.export.write_text(lines, encoding="utf-8")
            games = lines.count("\n")
            print(f"{games} game{'s' * (games != 1)} written to {args.export}", file=out)
        return
    host = Host(args.data, origins=[o.rstrip("/").lower() for o in args.origin])
    try:
        sockets = bind(host, args.ip, args.port)  # before the loop: a port in use is a plain error
    except ValueError:
        host.close()
        raise
    asyncio.run(serve(args, out, host, sockets))


def bind(host, ip: str, port: int | None) -> list:
    """Listening sockets on ``ip``: ``port``, or the store's last port, else the default and the few after it."""
    from tornado.netutil import bind_sockets

    if port is not None:
        try:
            return bind_sockets(port, ip)
        except OSError as e:
            raise ValueError(f"--port: cannot listen on {ip}:{port} ({e.strerror}): is another host running?") from None
    first = int(host.store.setting("port") or DEFAULT_PORT)
    for candidate in [first] + [p for p in range(DEFAULT_PORT, DEFAULT_PORT + PORT_TRIES) if p != first]:
        try:
            return bind_sockets(candidate, ip)
        except OSError:
            continue
    raise ValueError(f"--port: ports {DEFAULT_PORT} to {DEFAULT_PORT + PORT_TRIES - 1} are all taken: give one with --port")


def this_machine(ip: str) -> str:
    """The address learners reach this machine at: ``ip`` itself, or for 0.0.0.0 the address of the
    network the machine would route through (a UDP socket's connect sends no packet), else 127.0.0.1."""
    if ip not in ("0.0.0.0", "", "::"):
        return ip
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere, only used to pick an interface
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def terminal_qr(text: str) -> str:
    import segno

    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


async def serve(args, out, host, sockets) -> None:
    """Serve ``host`` on the bound ``sockets`` until SIGINT or SIGTERM; print where, first."""
    from tornado.httpserver import HTTPServer

    from .server import application

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S", stream=sys.stderr)
    logging.getLogger("tornado.access").setLevel(logging.WARNING)
    port = sockets[0].getsockname()[1]
    host.store.set_setting("port", str(port))
    url = args.url or f"http://{this_machine(args.ip)}:{port}/"
    host.join_url = url
    server = HTTPServer(application(host), xheaders=False, max_body_size=64 * 1024)
    server.add_sockets(sockets)
    print(f"gofish-teach host: the class joins at {url}", file=out)
    print(f"  Learners: open {url} (or scan the QR code) and type their table's code and a name.", file=out)
    print(f"  Teacher:  {url}teacher#{host.token}  (your link: it opens tables; keep it to yourself)", file=out)
    print(f"  Data:     {(args.data / 'class.sqlite3').resolve()} (every table and ask; start again with "
          f"--data {args.data} to resume)", file=out)
    print(f"  Listening on {args.ip}:{port}. Stop with Ctrl+C.", file=out)
    if not args.no_qr:
        out.write(terminal_qr(url))
    out.flush()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    host.start()
    try:
        await stop.wait()
    finally:
        server.stop()
        host.close()
        print("gofish-teach host: stopped; every table is kept in the data folder.", file=out)
