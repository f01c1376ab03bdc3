"""Learners' files, taken as plain files only: what the grader and the tournament read before any sandbox.

A learner hands in files, and a file name can hide something else: a symbolic link (to the
solutions, to ``/etc/shadow``, to a classmate's work), a named pipe that never ends, a device,
a folder. These are read on the teacher's side, outside any sandbox, so every path is looked
at with ``lstat`` first and opened with ``O_NOFOLLOW`` (and ``O_NONBLOCK``: a pipe swapped in
meanwhile cannot block the open), then checked to be a regular file on the open descriptor
itself; nothing is resolved and then read or copied. What is not a plain file is skipped, and
:func:`kind` names what it is for the note that says so.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "a.py").write_text("x = 1\\n")
>>> (folder / "b.py").symlink_to("/etc/passwd")
>>> kind(folder / "a.py"), kind(folder / "b.py"), kind(folder)
(None, 'a symbolic link', 'a folder')
>>> read_plain(folder / "a.py", 100)
b'x = 1\\n'
>>> read_plain(folder / "b.py", 100)
Traceback (most recent call last):
...
gofish_teach.trust.files.NotPlain: a symbolic link, not a plain file
"""
from __future__ import annotations

import itertools
import os
import stat
from pathlib import Path


class NotPlain(OSError):
    """A learner's path is not a plain file (or it is too large): the message says what it is."""


def kind_of(mode: int) -> str | None:
    """What a file's mode says it is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def kind(path) -> str | None:
    """What ``path`` is, without following a link: None for a plain file, else its kind in words."""
    try:
        return kind_of(os.lstat(path).st_mode)
    except OSError as e:
        return f"unreadable ({e.strerror or type(e).__name__})"


def open_plain(path) -> int:
    """A descriptor open for reading on ``path``, which must be a plain file (:class:`NotPlain` if not)."""
    what = kind(path)
    if what:
        raise NotPlain(f"{what}, not a plain file")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:  # a link or something else swapped in since the lstat
        raise NotPlain(f"it could not be opened as a plain file ({e.strerror or type(e).__name__})") from None
    what = kind_of(os.fstat(fd).st_mode)
    if what:
        os.close(fd)
        raise NotPlain(f"{what}, not a plain file")
    return fd


def read_plain(path, cap: int) -> bytes:
    """The bytes of the plain file ``path``, at most ``cap`` of them (:class:`NotPlain` if larger or not plain)."""
    fd = open_plain(path)
    try:
        size = os.fstat(fd).st_size
        if size > cap:
            raise NotPlain(f"too large ({size / 2**20:.1f} MB; at most {cap / 2**20:g} MB)")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            total += len(chunk)
            if total > cap:  # it grew while being read
                raise NotPlain(f"too large (more than {cap / 2**20:g} MB)")
            chunks.append(chunk)
    finally:
        os.close(fd)


def walk_plain(folder, file_suffix: str | None = None,
               limit: int | None = None) -> tuple[list[Path], list[tuple[Path, str]]]:
    """Every plain file under ``folder`` (links never followed), and what was skipped: ``(path, kind)``.

    Folders are walked (never through a link), except one named like a file (ending in
    ``file_suffix``, e.g. a folder ``01-deal.ipynb``), which is skipped; links, pipes, sockets and
    devices are skipped. ``.ipynb_checkpoints`` folders and hidden names are left out without a note.

    ``limit``: at most that many names (files, folders and the rest) are looked at, so that a folder
    of a hundred thousand empty files costs no more than one of ``limit``; past it, the walk stops
    and ``(folder, "more than ... files and folders: ...")`` is added to what was skipped (which
    names were looked at then depends on the order the file system lists them in).

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> for i in range(5):
    ...     _ = (folder / f"{i}.txt").write_text("")
    >>> files, skipped = walk_plain(folder, limit=3)
    >>> len(files), [why for _, why in skipped]
    (3, ['more than 3 files and folders: the rest were not looked at'])
    """
    files, skipped = [], []
    todo = [Path(folder)]
    left = limit if limit is not None else -1
    while todo:
        here = todo.pop()
        try:
            with os.scandir(here) as listing:
                # At most one name past the limit is read: a huge folder is not listed to the end.
                entries = sorted(listing if left < 0 else itertools.islice(listing, left + 1), key=lambda e: e.name)
        except OSError as e:
            skipped.append((here, f"unreadable ({e.strerror or type(e).__name__})"))
            continue
        for entry in entries:
            if left == 0:  # hidden names count too: they cost as much to list
                skipped.append((Path(folder), f"more than {limit:,} files and folders: the rest were not looked at"))
                return sorted(files), sorted(skipped)
            left -= 1
            if entry.name.startswith(".") or entry.name == ".ipynb_checkpoints":
                continue
            path = Path(entry.path)
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError as e:
                skipped.append((path, f"unreadable ({e.strerror or type(e).__name__})"))
                continue
            if stat.S_ISDIR(mode) and file_suffix and entry.name.endswith(file_suffix):
                skipped.append((path, "a folder"))
            elif stat.S_ISDIR(mode):
                todo.append(path)
            elif stat.S_ISREG(mode):
                files.append(path)
            else:
                skipped.append((path, kind_of(mode)))
    return sorted(files), sorted(skipped)


def copy_plain(source, target) -> None:
    """Copy the plain file ``source`` to ``target`` (a new file), refusing anything else (:class:`NotPlain`)."""
    fd = open_plain(source)
    try:
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        with open(target, "xb") as out, os.fdopen(os.dup(fd), "rb") as src:
            while chunk := src.read(1 << 20):
                out.write(chunk)
    finally:
        os.close(fd)
