"""The entry's side of the tournament: what runs in a learner's process, in its sandbox, at one table.

``python -m gofish_teach.tournament.entry FILE MEMORY_MB [FALLBACK]`` (in a bubblewrap sandbox of its
own), or :func:`serve` (forked by :mod:`.forkserver` into a fresh sandbox), applies
the limits (:func:`gofish_teach.trust.limit_self`) before the entry's file is loaded, says it is
ready, then answers one request after another: each is the entry's view and its seat's seed
(:mod:`.wire`), each answer one line of JSON. Its command line holds the file's name and the
memory limit, nothing secret. Nothing here is trusted by the tournament (:mod:`.seat` checks
every answer); this is only the learner's code's way to talk.

Also here, for learners: :func:`save_strategy` writes a strategy from a notebook to an entry
file, and :func:`load_entry` loads one as the tournament does.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path


def hidden_rng(seed: int):
    """A Generator drawing like ``default_rng(seed)`` but whose ``seed_seq`` does not reveal ``seed``."""
    from ..strategies import seat_rng

    return seat_rng(seed)


def save_strategy(func, path) -> Path:
    """Write ``func`` (a strategy defined in a notebook) to ``path`` as a tournament entry.

    The file gets the usual imports, the function's source, and ``strategy = <name>``. Helper
    functions it calls are not copied: paste them into the file yourself.
    """
    import inspect
    import textwrap

    source = textwrap.dedent(inspect.getsource(func))
    header = ("# A Go Fish strategy for the class tournament (python -m gofish_teach tournament).\n"
              "import math\n\nimport numpy as np\n\n"
              "from gofish_teach import Ask, Book, Card, Deal, Draw, GameOver, GoFish, Give, Skip, Turn\n\n\n")
    footer = "" if func.__name__ == "strategy" else f"\n\nstrategy = {func.__name__}\n"
    path = Path(path)
    text = header + source.rstrip() + "\n" + footer
    compile(text, str(path), "exec")
    path.write_text(text, encoding="utf-8")
    return path


def load_entry(path):
    """The strategy function a tournament file defines (``strategy``, else ``my_strategy``)."""
    import runpy

    namespace = runpy.run_path(str(path), run_name="gofish_entry")
    for name in ("strategy", "my_strategy"):
        if callable(namespace.get(name)):
            return namespace[name]
    raise ValueError(f"{Path(path).name} defines no function strategy(view, rng)")


def plain_move(move):
    """A move as JSON can carry it (numpy ints become ints); anything else as its text."""
    import numpy as np

    if isinstance(move, (tuple, list)):
        return [int(x) if isinstance(x, np.integer) else x if isinstance(x, (int, str)) else repr(x) for x in move]
    return repr(move)


def main(argv) -> int:
    """One entry's process at one table, started in a bubblewrap sandbox of its own (its file copied in)."""
    from .. import trust

    if len(argv) not in (2, 3):
        print("usage: python -m gofish_teach tournament STRATEGIES_DIR (this module's own entry is internal)",
              file=sys.stderr)
        return 2
    fallback = len(argv) == 3 and argv[2] == "1"  # no cgroup: no memfd, thread or process (trust.seccomp)
    trust.limit_self(int(argv[1]) or None, refuse="processes" if fallback else None)
    return _play(argv[0], os.dup(0), os.dup(1))


def serve(name: str, memory_mb: int | None, requests: int, answers: int, fallback: bool = False) -> int:
    """One entry's process at one table, forked by the fork server (:mod:`.forkserver`) into a
    fresh sandbox: its file is the first message on its request pipe, written into its own folder."""
    from .. import trust

    trust.limit_self(memory_mb, refuse="processes" if fallback else None)
    stream = os.fdopen(requests, "rb")
    header = stream.read(4)
    source = stream.read(int.from_bytes(header, "big")) if len(header) == 4 else b""
    with open(name, "wb") as f:
        f.write(source)
    del source
    return _play(name, stream, answers)


def _play(name: str, requests, answers: int) -> int:
    """Load the entry's file, say so, then answer every request until the tournament closes the pipe."""
    from .wire import Receiver

    answers = os.fdopen(answers, "w", encoding="utf-8")
    requests = Receiver(requests if not isinstance(requests, int) else os.fdopen(requests, "rb"))
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # the entry's own prints (and reads) go nowhere
        os.dup2(devnull, fd)

    def send(message):
        answers.write(json.dumps(message) + "\n")
        answers.flush()

    try:
        choose = load_entry(name)
    except MemoryError:
        send({"error": "it ran out of memory while loading", "kind": "memory"})
        return 1
    except BaseException as e:  # noqa: BLE001
        send({"error": f"the file could not be loaded: {type(e).__name__}: {e}", "kind": "crash"})
        return 1
    send({"ready": True})
    seat_seed, rng = None, None
    while True:
        request = requests.next()
        if request is None:
            return 0
        view, seed = request
        if seed != seat_seed:  # a new game: a fresh generator for this seat
            seat_seed, rng = seed, hidden_rng(seed)
        try:
            move = choose(view, rng)
            send({"move": plain_move(move)})
        except MemoryError:
            send({"error": "it ran out of memory", "kind": "memory"})
        except BaseException as e:  # noqa: BLE001
            send({"error": f"it raised {type(e).__name__}: {e}", "kind": "crash"})


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
