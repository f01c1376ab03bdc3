"""Trust: how this package runs and reads what learners wrote, which it does not trust.

Three places run a learner's code (the grader, :mod:`gofish_teach.grade`; the class tournament,
:mod:`gofish_teach.tournament`; the checks in the exercise notebooks,
:mod:`gofish_teach.exercises`), and all of them do it with this kit, so that a fix made here
reaches all three:

- :mod:`.child`: start a child process, feed and read it against a deadline and a cap, measure
  what it holds (:class:`Watch`, :class:`Budget`), kill it and all it started; the one policy of
  limits (:func:`limit_self`);
- :mod:`.jail`: the bubblewrap sandbox around it (:func:`sandbox_command`, with the teacher's
  answers masked, :data:`HIDDEN` and what :func:`hide_answers` names; :class:`SandboxUnavailable`
  when bubblewrap is missing, or is installed but cannot make its sandbox here, with bwrap's words
  and the likely causes, :mod:`.causes`);
- :mod:`.cgroup`: a cgroup per sandbox, where the kernel counts every byte and every process it
  holds (:class:`Group`); where none can be made, :mod:`.seccomp`'s filter and a count by the parent;
- :mod:`.signals`: Ctrl-C, SIGTERM and SIGHUP stop a run the same way (:func:`stopping_signals`);
- :mod:`.files`: learners' files read as plain files only, never through a link
  (:func:`read_plain`, :func:`walk_plain`, :func:`copy_plain`, :class:`NotPlain`);
- :mod:`.text`: learners' text shown as data, one rule per place it is shown (names, CSV cells,
  terminal lines, charts: :func:`normalise_name`, :func:`distinct_names`, :func:`csv_cell`,
  :func:`terminal`, :func:`literal_charts`).

Other parts of the package use the names below (``from gofish_teach import trust``, then
``trust.start(...)``), never a module of this folder: ``tests/test_wings.py`` holds them to that.

>>> resolve_sandbox("off")
False
>>> sandbox_command(["python3", "-c", "print(1)"], mode="off")
['python3', '-c', 'print(1)']
"""
from __future__ import annotations

from .cgroup import Group
from .cgroup import available as cgroups_available
from .child import (
                    TASKS,
                    WATCH_SECONDS,
                    Budget,
                    Closed,
                    Deadline,
                    LineReader,
                    Reply,
                    Stopped,
                    Watch,
                    children,
                    children_of_task,
                    finish,
                    folder_used,
                    held,
                    interrupt,
                    interrupted,
                    kill_group,
                    limit_memory,
                    limit_self,
                    read_all,
                    resume,
                    running,
                    start,
                    write_all,
)
from .files import NotPlain, copy_plain, read_plain, walk_plain
from .files import kind as file_kind
from .jail import HIDDEN, INPUTS, MODES, PRIVATE, WORK, SandboxUnavailable, bwrap_path, hidden_folders, package_dir
from .jail import command as sandbox_command
from .jail import hide as hide_answers
from .jail import resolve as resolve_sandbox
from .seccomp import FALLBACK_FILES
from .seccomp import program as seccomp_program
from .signals import stop_status, stop_word, stopping_signals
from .text import csv_cell, distinct_names, literal_charts, normalise_name, terminal

# The outcomes of a learner's code are still spelled by each caller (the exercises' checks:
# ok/error/timeout/memory; the grader's rows: those and missing; the tournament's forfeits:
# crash/illegal/timeout/memory/process), on the wire and in CSV as plain strings. One enum for
# them is left for later: it changes what three modules write, not only where this kit lives.

__all__ = [
    # processes: start, feed, read, measure, kill
    "start", "finish", "kill_group", "interrupt", "interrupted", "resume", "Stopped", "write_all", "read_all",
    "stopping_signals", "stop_word", "stop_status",
    "LineReader", "Reply", "Deadline", "Closed", "children", "children_of_task", "running", "held", "folder_used",
    "Watch", "Budget", "WATCH_SECONDS", "TASKS",
    # limits, applied by the child to itself, and counted by the kernel (a cgroup) or the fallback
    "limit_self", "limit_memory", "Group", "cgroups_available", "seccomp_program", "FALLBACK_FILES",
    # the sandbox
    "sandbox_command", "resolve_sandbox", "SandboxUnavailable", "bwrap_path", "package_dir", "MODES", "WORK",
    "INPUTS", "PRIVATE", "HIDDEN", "hide_answers", "hidden_folders",
    # learners' files, plain files only
    "NotPlain", "read_plain", "walk_plain", "copy_plain", "file_kind",
    # learners' text as data
    "normalise_name", "distinct_names", "csv_cell", "terminal", "literal_charts",
]
