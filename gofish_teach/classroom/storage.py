"""Nothing lost: every table and everything that happens at it, in SQLite before anyone hears of it.

One file (``class.sqlite3`` in the host's data folder) in write-ahead-log mode, from the
standard library's ``sqlite3``. Each table is a row of ``tables`` (its code and set-up) and an
append-only list of entries in ``log``: a deal, a learner taking a seat, an ask with the public
events it made, a seat handed to a bot, a setting changed. The host appends an entry (and
commits) before it sends anything about it; a restarted host reads every table's entries back
in order and replays them (:mod:`.table`), which puts each table at the same position with the
same log. An ask's stored events are compared with the replayed ones, so a store that does not
replay to what was sent is named rather than served.

``synchronous=NORMAL``: in WAL mode a commit is in the operating system's hands once it
returns, so a killed host (SIGKILL, a crash) loses nothing; a power cut may lose the last few
asks (``FULL`` would fsync each one, several milliseconds on a busy disk, for a case the class
notices anyway).

>>> import tempfile, os
>>> store = Store(os.path.join(tempfile.mkdtemp(), "class.sqlite3"))
>>> store.add_table("K7QM-3XPA", {"players": 4})
>>> store.append("K7QM-3XPA", "game", {"seed": 12})
1
>>> [(code, config) for code, _, config in store.tables()], store.entries("K7QM-3XPA")
([('K7QM-3XPA', {'players': 4})], [('game', {'seed': 12})])
>>> store.setting("port"), store.set_setting("port", "8044"), store.setting("port")
(None, None, '8044')
>>> store.close()
"""
from __future__ import annotations

import json
import os
import sqlite3
import time

SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (code TEXT PRIMARY KEY, opened REAL NOT NULL, config TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    code TEXT NOT NULL REFERENCES tables(code),
    at REAL NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS log_by_table ON log (code, id);
"""
#: The file's format; a store written by another format is refused, not misread.
FORMAT = "gofish-teach/class-store/1"


class Store:
    """The host's SQLite file: tables, their entries in order, and a few settings."""

    def __init__(self, path):
        self.path = os.fspath(path)
        # isolation_level=None: each statement commits by itself unless inside an explicit BEGIN.
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        found = self.setting("format")
        if found is None:
            self.set_setting("format", FORMAT)
        elif found != FORMAT:
            raise ValueError(f"{self.path}: a store of format {found!r}, not {FORMAT!r}: use another --data folder")

    def setting(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_setting(self, key: str, value: str) -> None:
        self._db.execute("INSERT INTO settings (key, value) VALUES (?, ?) "
                         "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))

    def add_table(self, code: str, config: dict) -> None:
        self._db.execute("INSERT INTO tables (code, opened, config) VALUES (?, ?, ?)",
                         (code, time.time(), json.dumps(config, ensure_ascii=False)))

    def append(self, code: str, kind: str, data: dict) -> int:
        """Store one entry of ``code``'s log (committed when this returns); its id."""
        cursor = self._db.execute("INSERT INTO log (code, at, kind, data) VALUES (?, ?, ?, ?)",
                                  (code, time.time(), kind, json.dumps(data, ensure_ascii=False)))
        return cursor.lastrowid

    def tables(self) -> list[tuple[str, float, dict]]:
        """Every table: ``(code, opened, config)``, oldest first."""
        rows = self._db.execute("SELECT code, opened, config FROM tables ORDER BY opened, code").fetchall()
        return [(code, opened, json.loads(config)) for code, opened, config in rows]

    def entries(self, code: str) -> list[tuple[str, dict]]:
        """``code``'s log, oldest first, as ``(kind, data)``."""
        rows = self._db.execute("SELECT kind, data FROM log WHERE code = ? ORDER BY id", (code,)).fetchall()
        return [(kind, json.loads(data)) for kind, data in rows]

    def close(self) -> None:
        self._db.close()
