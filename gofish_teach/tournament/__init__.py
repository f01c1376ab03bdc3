"""The class tournament: ``python -m gofish_teach tournament STRATEGIES_DIR --rules pond --players 4 --games N``.

Every ``.py`` file in ``STRATEGIES_DIR`` is one learner's entry (the capstone exercise, 11):
it defines ``strategy(view, rng) -> (target, rank)`` (or ``my_strategy``). The entries and
some built-in strategies meet in a round robin: every group of ``--players`` entrants sits
at one table (when there are too many groups, a balanced selection of them, each entrant
seated about equally often) and plays ``--games`` games there, seats rotating from game to
game. Every table deals its own decks, from the tournament's secret (:mod:`.table` says
why, and why it is fair; :mod:`.secret` why it is 128 bits that no leaderboard shows).

**This runs the learners' code**, so each entry runs, at each table, in a fresh sandbox of
its own (bubblewrap, :mod:`gofish_teach.trust`; without it the tournament refuses to run unless
``sandbox="off"``): a new process with a new copy of its file, that sees no other process and
no file of the host but what Python needs, and is killed when the table ends. To start these
quickly, one bubblewrap sandbox per process holds a Python with what entries import already
imported, and forks each entry from it into new namespaces and fresh private folders of its own
(:mod:`.forkserver`, which says what that sandbox holds; where the system allows no
namespaces inside bubblewrap, each entry gets a bubblewrap of its own instead, the same way). It receives only
its ``View`` and its seat's random generator (whose seed says nothing of the deck or the game
number), never the tournament's seed (on no command line, in no environment). No two tables
share a deck, so nothing it could carry from one table to the next, even through a channel
no sandbox closes (the host's page cache, file locks), tells it anything there. It has a time
limit on every decision (writing the request to it and reading its answer both count: an entry
that stops reading forfeits) and a memory limit that counts its memory and the files it writes,
and a limit of processes and threads (:mod:`gofish_teach.trust`: a cgroup for each entry, where one
can be made, counts memory no process maps and zombies too); a process it leaves running after a decision, or starts between two
of its decisions, forfeits it, and so does using more than one time limit of processor time over
a table while the others decide (it is not stopped then: what it uses is counted, :mod:`.seat`). Its answers come back as JSON on its
own pipe, never pickle: an entry cannot run code in the tournament's process or answer for
another entry. Entry files are read as plain files only (a link, a named pipe or a folder
named ``bob.py`` is skipped, with a note on the leaderboard). Ctrl-C stops a run at once, and so do
SIGTERM and SIGHUP.

An entry that raises an error, asks illegally (a cheat or a bug: the rules decide), runs
out of time or memory, or leaves a process running is disqualified: it forfeits every game
it plays (0 wins), and it is reported with the reason and where it happened (the earliest
table, game and ask). At each table its seat plays on as the built-in ``random`` strategy
once it breaks a rule there, so the other players' games still count; a game won by a
forfeited seat is won by no one. It still plays as itself at its other tables until it breaks
a rule there too: a table depends only on the seed and its entrants, never on when the other
tables are played, so the same seed gives the same leaderboard however the tables are shared
out, in this process's threads or on a Dask cluster (``executor=``, ``--scheduler``:
:func:`play_table` is what a worker plays).

The modules, by reason to change: :mod:`.round_robin` (who plays whom, the leaderboard),
:mod:`.table` (one table's games), :mod:`.seat` (the tournament's end of an entry's pipe),
:mod:`.wire` (what a request holds, each shared object sent once per game), :mod:`.entry` (what
runs in the entry's process), :mod:`.cli` (the command's options) and :mod:`.speed` (how long
the issue's case takes: ``python -m gofish_teach.tournament.speed``). Their public names are all
importable from here.

>>> import pathlib, tempfile
>>> from gofish_teach.tournament import run_tournament
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "ana.py").write_text("def strategy(view, rng):\\n    return view.legal_asks()[0]\\n")
>>> result = run_tournament(folder, "pond", players=2, games=2, builtins=["random"], seed=1)
>>> [(e.name, e.games, e.status) for e in result.entrants]
[('ana', 2, 'ok'), ('random', 2, 'ok')]
"""
from __future__ import annotations

from ..faces import lazy_face

# Loaded when first used: an entry's process imports this package too (to reach .entry), and
# should not pay for the host's side.
__all__, __getattr__, __dir__ = lazy_face(globals(), {
    "round_robin": ("BUILTINS", "MAX_TABLES", "MEMORY_MB", "TIME_LIMIT", "MAX_TIME_LIMIT", "MIN_MEMORY_MB",
                    "MAX_MEMORY_MB", "MAX_GAMES", "MAX_ENTRY_BYTES", "Entrant", "Plan", "Stopped",
                    "TournamentResult", "find_entries", "plan_tournament", "play_tournament", "run_tournament",
                    "schedule"),
    "table": ("IDLE_ASKS", "MAX_ASKS", "deck_seed", "play_table"),
    "seat": ("CLOSE_WAIT", "KINDS", "MAX_ANSWER", "START_TIME", "Forfeit", "LearnerPlayer"),
    "entry": ("hidden_rng", "load_entry", "save_strategy"),
    "cli": ("add_arguments", "add_command", "run_from_args"),
    "speed": ("tournament_bench",),
})
