"""``gofish-teach play``: the Table and the Explorer as a web page of their own, served by Voilà.

No notebook interface: the page shows the card table and the probability explorer, and
nothing else (no code), for a projector or for learners who have never opened JupyterLab.
The page is a small notebook written into a temporary folder and rendered by Voilà, which
runs it in a fresh kernel for each visitor:

>>> nb = notebook(rules="family", seed=3)
>>> [cell.cell_type for cell in nb.cells]
['markdown', 'code', 'markdown', 'code']
>>> print(nb.cells[1].source)
from gofish_teach.widgets import Table
Table('family', opponents=['memory', 'random', 'greedy'], seed=3)
>>> voila_command(Path("play.ipynb"), port=8866, browser=False)[-5:]
['--template=gofish', '--port=8866', '--Voila.ip=localhost', '--show_tracebacks=False', '--no-browser']

The page needs nothing from the network: its template (``_voila/voila/templates/gofish``, found
through ``JUPYTER_PATH``, see :func:`voila_env`) is Voila's lab template without the stylesheets
that template loads from a CDN, so a class behind a firewall, or offline, gets the whole page.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from ..rules import PRESETS

#: The opponents at the table: one of each kind a class meets in the lessons.
OPPONENTS = ["memory", "random", "greedy"]
DEFAULT_PORT = 8866
#: Where Voila finds the page's template (``voila/templates/gofish`` under it): in the package.
TEMPLATES = Path(__file__).resolve().parent / "_voila"


def notebook(rules: str = "pond", seed: int | None = None):
    """The page as a notebook: a sentence and a widget, twice (Voilà shows outputs and markdown only)."""
    import nbformat  # here, not above: importing it takes seconds, and the command line imports this module

    if rules not in PRESETS:
        raise ValueError(f"--rules: {rules!r} is not a rule set; choose one of {', '.join(PRESETS)}")
    v4 = nbformat.v4
    page = v4.new_notebook(cells=[
        v4.new_markdown_cell("Pick a rank from your hand, then the opponent to ask. "
                             "After \"Go Fish!\", click the ocean to draw."),
        v4.new_code_cell(f"from gofish_teach.widgets import Table\n"
                         f"Table({rules!r}, opponents={OPPONENTS!r}, seed={seed!r})"),
        v4.new_markdown_cell("Below, the probability explorer: state what you know about one rank, read the "
                             "exact chance, and check it with a simulation."),
        v4.new_code_cell(f"from gofish_teach.widgets import Explorer\nExplorer({rules!r})"),
    ], metadata={"kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}})
    for i, cell in enumerate(page.cells):
        cell.id = f"play-{i}"   # the same page every time, not random ids
    return page


def voila_command(page: Path, port: int, browser: bool, ip: str = "localhost") -> list[str]:
    """The ``voila`` command line: the page, with no tracebacks sent to the browser.

    Unlike JupyterLab, Voilà starts as root without being told; without a browser it must not
    try to open one (the address is in its log, "Voilà is running at").
    """
    command = [sys.executable, "-m", "voila", str(page), "--template=gofish", f"--port={port}", f"--Voila.ip={ip}",
               "--show_tracebacks=False"]
    if not browser:
        command.append("--no-browser")
    return command


def voila_env(environ=None) -> dict:
    """The environment Voila runs in: ``environ`` (``os.environ``) with the page's template first on
    ``JUPYTER_PATH``, where Voila looks for templates.

    >>> voila_env({"JUPYTER_PATH": "/srv/jupyter"})["JUPYTER_PATH"] == os.pathsep.join([str(TEMPLATES), "/srv/jupyter"])
    True
    """
    env = dict(os.environ if environ is None else environ)
    env["JUPYTER_PATH"] = os.pathsep.join(p for p in (str(TEMPLATES), env.get("JUPYTER_PATH", "")) if p)
    return env


def have_browser() -> bool:
    """Whether Python's ``webbrowser`` module can open a page here (not on a headless server)."""
    import webbrowser

    try:
        webbrowser.get()
    except webbrowser.Error:
        return False
    return True


def add_command(commands) -> None:
    """The ``play`` command."""
    play = commands.add_parser(
        "play", help="serve the card table and the probability explorer as a web page (Voila)",
        description="Serve the Table (play Go Fish against bots) and the Explorer (exact probabilities from "
                    "stated facts) as one web page, with no notebook interface. Prints the address to open; "
                    "stop it with Ctrl-C.")
    play.add_argument("--port", type=int, default=DEFAULT_PORT, metavar="N",
                      help=f"the port to serve on (default: {DEFAULT_PORT}; the next free one if taken)")
    play.add_argument("--ip", default="localhost", metavar="ADDRESS",
                      help="the address to listen on (default: localhost; 0.0.0.0 lets a class connect)")
    play.add_argument("--rules", default="pond", choices=list(PRESETS), metavar="NAME",
                      help=f"rule set: {', '.join(PRESETS)} (default: pond)")
    play.add_argument("--seed", type=int, default=None, metavar="N",
                      help="deal the same cards on every page load (default: a new deal each time)")
    play.add_argument("--save", type=Path, default=None, metavar="FILE",
                      help="write the page as a notebook to FILE and stop, for a Jupyter server that has Voila "
                           "(JupyterHub, Binder): open it at /voila/render/FILE")
    play.set_defaults(run=run_play)


def run_play(args, out) -> None:
    if not 0 < args.port < 65536:
        raise ValueError(f"--port: {args.port} is not a port (1 to 65535)")
    page = notebook(args.rules, args.seed)
    if args.save:
        args.save.write_text(json.dumps(page, indent=1) + "\n", encoding="utf-8")
        print(f"Wrote {args.save}: with Voila's server extension, open /voila/render/{args.save.name} "
              f"on the server that holds it.", file=out)
        return
    with tempfile.TemporaryDirectory(prefix="gofish-play-") as folder:
        path = Path(folder) / "go-fish.ipynb"
        path.write_text(json.dumps(page, indent=1), encoding="utf-8")
        browser = have_browser()
        if not browser:
            print("No web browser found: open the http://... address Voila prints below "
                  "(\"Voila is running at\").", file=out, flush=True)
        serve(voila_command(path, args.port, browser, args.ip), cwd=folder)


def _stop(signum, frame):
    raise SystemExit(0)


def serve(command: list[str], cwd: str) -> None:
    """Run Voilà until Ctrl-C or a ``kill``, and never leave it behind: stopping us stops it (and its kernels)."""
    server = subprocess.Popen(command, cwd=cwd, env=voila_env())
    previous = signal.signal(signal.SIGTERM, _stop) if threading.current_thread() is threading.main_thread() else None
    try:
        server.wait()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        if server.poll() is None:
            server.terminate()
            try:
                server.wait(timeout=30)     # Voila shuts its kernels down first
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
