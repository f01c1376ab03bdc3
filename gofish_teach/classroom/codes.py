"""Who may sit where: table codes, seat and teacher tokens, names, and a limit on tries.

A table code is what a learner types: eight characters of Crockford's base 32 (no I, L, O or
U, so nothing is misread), 40 random bits, shown as two groups of four. With a few dozen
tables open and :class:`Tries` allowing ten wrong codes a minute from one address, guessing
one takes on the order of 10^9 minutes.

>>> code = new_code()
>>> len(code), code[4], normal_code(code.lower().replace("-", " ")) == code
(9, '-', True)
>>> normal_code("iol0-abcd")                  # I and L read as 1, O as 0, as Crockford says
'1010-ABCD'
>>> normal_code("ABCD-EFG")
Traceback (most recent call last):
...
ValueError: code: a table code is 8 letters and digits, like K7QM-3XPA, not 'ABCD-EFG'
>>> clean_name("  Ann\\u202e  <b>Lee</b>\\n ")   # controls and direction overrides go; the rest is kept as text
'Ann <b>Lee</b>'
"""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
import unicodedata

#: Crockford's base 32: digits and letters a reader cannot confuse.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#: Characters in a table code, 5 bits each: 40 bits, the issue's floor.
CODE_LENGTH = 8
#: What a learner may mistype for what it means.
_MISREAD = str.maketrans({"I": "1", "L": "1", "O": "0"})
#: The longest name shown at a table, in characters.
MAX_NAME = 24


def new_code() -> str:
    """A fresh table code of :data:`CODE_LENGTH` random characters (``secrets``), as ``XXXX-XXXX``."""
    raw = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
    return f"{raw[:4]}-{raw[4:]}"


def normal_code(text) -> str:
    """The code a learner meant: case, spaces, hyphens and Crockford's misreadings forgiven."""
    if not isinstance(text, str) or len(text) > 40:
        raise ValueError(f"code: a table code is {CODE_LENGTH} letters and digits, like K7QM-3XPA")
    raw = re.sub(r"[\s-]", "", text).upper().translate(_MISREAD)
    if len(raw) != CODE_LENGTH or any(c not in ALPHABET for c in raw):
        raise ValueError(f"code: a table code is {CODE_LENGTH} letters and digits, like K7QM-3XPA, not {text!r}")
    return f"{raw[:4]}-{raw[4:]}"


def new_token() -> str:
    """A secret for a seat or the teacher: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def digest(token: str) -> str:
    """What the store keeps of a seat's token: its SHA-256 (a copied database seats nobody)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def same_secret(given, expected: str) -> bool:
    """``given == expected`` in constant time (``hmac.compare_digest``), False for a non-string."""
    return isinstance(given, str) and hmac.compare_digest(given.encode("utf-8", "replace"), expected.encode())


def clean_name(text) -> str:
    """A learner's name as it will be shown (always as text, never as markup): control, format and
    direction-override characters dropped, runs of spaces made one, at most :data:`MAX_NAME` characters.

    >>> clean_name("x" * 40) == "x" * MAX_NAME
    True
    >>> clean_name("\\u200b \\t")
    Traceback (most recent call last):
    ...
    ValueError: name: type a name to show at the table (letters, digits or signs)
    """
    if not isinstance(text, str):
        raise ValueError("name: type a name to show at the table (letters, digits or signs)")
    kept = "".join(" " if ch.isspace() else ch for ch in text[:200]
                   if ch.isspace() or unicodedata.category(ch)[0] not in "CZ")
    name = " ".join(kept.split())[:MAX_NAME].strip()
    if not name:
        raise ValueError("name: type a name to show at the table (letters, digits or signs)")
    return name


class Tries:
    """A token bucket per key (a client's address): ``capacity`` tries at once, then one every
    ``per`` seconds. :meth:`take` is False when the key has none left (the try is refused).

    >>> tries = Tries(capacity=2, per=60, clock=lambda: 0.0)
    >>> [tries.take("10.0.0.7") for _ in range(3)], tries.take("10.0.0.8")
    ([True, True, False], True)
    >>> tries.wait("10.0.0.7")
    60
    """

    def __init__(self, capacity: float, per: float, clock=time.monotonic, keys: int = 10_000):
        self.capacity, self.per, self.clock, self.keys = capacity, per, clock, keys
        self._buckets: dict[str, tuple[float, float]] = {}

    def _level(self, key: str) -> float:
        level, then = self._buckets.get(key, (self.capacity, self.clock()))
        return min(self.capacity, level + (self.clock() - then) / self.per)

    def take(self, key: str) -> bool:
        level = self._level(key)
        if len(self._buckets) >= self.keys and key not in self._buckets:
            # Many addresses: forget the full buckets (they would be full again anyway).
            self._buckets = {k: v for k, v in self._buckets.items() if self._level(k) < self.capacity}
        ok = level >= 1
        self._buckets[key] = (level - 1 if ok else level, self.clock())
        return ok

    def wait(self, key: str) -> int:
        """Whole seconds until ``key`` may try again (0 if it may now)."""
        return max(0, int(-(-(1 - self._level(key)) * self.per // 1)))
