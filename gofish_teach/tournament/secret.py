"""The tournament's secret: what its tables' decks and seats are drawn from, which no entry can know or guess.

Every deck and every seat's generator of a tournament is drawn from one number (:mod:`.table`).
An entry that knew it could work out every deck from its own seat's generator and win nearly
every game (0.986 of them, measured, with ``--seed 777``; 0.988 with the seed the leaderboard
used to print). So that number is a secret of 128 bits, never printed where learners look:

- without ``--seed``, a fresh one each run;
- with ``--seed N``, ``N`` mixed with this account's key (:func:`key`, made on first use, readable
  by this account only): the same ``N`` plays the same tournament again on this account, and a
  small ``N`` tells an entry nothing, since it cannot read the key;
- kept in a file readable by the teacher only (:func:`write_seed`, the command's ``--seed-file``);
  ``--replay FILE`` plays that tournament again, anywhere.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> with_key = dict(key_file=folder / "key")
>>> tournament_secret(777, **with_key) == tournament_secret(777, **with_key) != tournament_secret(778, **with_key)
True
>>> tournament_secret(None, **with_key) != tournament_secret(None, **with_key)   # fresh each time
True
>>> write_seed(folder / "seed.txt", 12345) and oct((folder / "seed.txt").stat().st_mode & 0o777)
'0o600'
>>> read_seed(folder / "seed.txt")
12345
"""
from __future__ import annotations

import hashlib
import os
import secrets
from pathlib import Path

#: The bits of a tournament's secret.
BITS = 128
#: Names the key file instead of the default (tests use a fixed one, so that their runs repeat everywhere).
KEY_ENV = "GOFISH_TOURNAMENT_KEY"


def key_path() -> Path:
    """Where this account's key is kept: ``$GOFISH_TOURNAMENT_KEY``, else ``~/.config/gofish-teach/tournament.key``."""
    named = os.environ.get(KEY_ENV)
    if named:
        return Path(named)
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(config) / "gofish-teach" / "tournament.key"


def key(path=None) -> bytes:
    """This account's key (32 random bytes, written as hex), made on first use, readable by the account only."""
    path = Path(path) if path is not None else key_path()
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        text = secrets.token_hex(32)
        try:
            _write_private(path, text + "\n", exclusive=True)
        except FileExistsError:  # made meanwhile by another run: that one is the key
            text = path.read_text().strip()
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise ValueError(f"{path} is not a tournament key (64 hexadecimal digits): remove it, and a new one is "
                         "made") from None


def tournament_secret(seed: int | None, key_file=None) -> int:
    """The tournament's secret: fresh without ``seed``; else ``seed`` mixed with the account's key."""
    if seed is None:
        return secrets.randbits(BITS)
    digest = hashlib.blake2b(str(int(seed)).encode(), key=key(key_file), digest_size=BITS // 8, person=b"gofish-seed")
    return int.from_bytes(digest.digest(), "big")


def write_seed(path, secret: int) -> Path:
    """Keep ``secret`` in ``path``, readable and writable by this account only; the path."""
    path = Path(path)
    _write_private(path, f"{int(secret)}\n")
    return path


def read_seed(path) -> int:
    """The secret a run kept in ``path`` (:func:`write_seed`), or a ``ValueError`` naming the file."""
    try:
        text = Path(path).read_text().strip()
    except OSError as e:
        raise ValueError(f"--replay: {path} cannot be read ({e.strerror or type(e).__name__})") from None
    if not text.isdigit() or int(text) >= 2**BITS:
        raise ValueError(f"--replay: {path} does not hold a tournament's seed (the file --seed-file wrote)")
    return int(text)


def _write_private(path: Path, text: str, exclusive: bool = False) -> None:
    """Write ``text`` to ``path`` with mode 600 (also if it existed), never through a link."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | (os.O_EXCL if exclusive else os.O_TRUNC)
    fd = os.open(path, flags, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, text.encode())
    finally:
        os.close(fd)
