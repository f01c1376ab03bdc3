"""What travels over the websockets: every message a client may send, checked field by field, and
the JSON the host sends back.

A message is a JSON object with a ``type`` and exactly the fields its type allows
(:data:`LEARNER`, :data:`TEACHER`). Anything else is a :class:`Problem` whose text names what is
wrong (the message is too long, not JSON, of an unknown type, missing a field, has a field of
the wrong type or one it may not carry); the host answers it with an error frame and changes
nothing. A field a learner may not send is named as such: a learner's seat comes from their
connection, so ``{"type": "ask", "player": 2, ...}`` is refused, not obeyed.

>>> parse('{"type": "ask", "target": 1, "rank": "7"}', LEARNER)
{'type': 'ask', 'target': 1, 'rank': '7'}
>>> parse('{"type": "ask", "target": 1, "rank": "7", "player": 2}', LEARNER)
Traceback (most recent call last):
...
gofish_teach.classroom.protocol.Problem: ask: field 'player' is not allowed here (your seat is known from your connection)
>>> parse('{"type": "ask", "target": "West", "rank": "7"}', LEARNER)
Traceback (most recent call last):
...
gofish_teach.classroom.protocol.Problem: ask: field 'target' must be a whole number (a seat), not 'West'
>>> parse("x" * 5000, LEARNER)
Traceback (most recent call last):
...
gofish_teach.classroom.protocol.Problem: message too long: 5,000 bytes, at most 2,048

Cards go out as text, ``"7♥"`` (:func:`event_data`), and only in what a seat's
:class:`~gofish_teach.view.View` holds (:mod:`.table` builds each frame from one).
"""
from __future__ import annotations

import json

from .. import Card
from ..game import SaveRefused, unique_keys  # the saved game's JSON hook: a key given twice is refused there too

#: The longest message a client may send, in bytes (the longest real one, a teacher's set-up, is ~400).
MAX_MESSAGE = 2048


class Problem(ValueError):
    """A message the host refuses; ``str()`` names what is wrong with it."""


def _whole(low: int, high: int, what: str):
    def check(value):
        if isinstance(value, bool) or not isinstance(value, int):
            raise Problem(f"must be a whole number ({what}), not {_short(value)}")
        if not low <= value <= high:
            raise Problem(f"must be {what}, {low} to {high}, not {value}")
        return value
    return check


def _text(longest: int, what: str):
    def check(value):
        if not isinstance(value, str):
            raise Problem(f"must be text ({what}), not {_short(value)}")
        if len(value) > longest:
            raise Problem(f"is too long ({len(value)} characters; {what}: at most {longest})")
        return value
    return check


def _maybe(check):
    def maybe(value):
        return None if value is None else check(value)
    return maybe


def _flag(value):
    if not isinstance(value, bool):
        raise Problem(f"must be true or false, not {_short(value)}")
    return value


def _number(low: float, high: float, what: str):
    def check(value):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise Problem(f"must be a number of {what}, {low:g} to {high:g}, not {_short(value)}")
        return value
    return check


def _list(check, shortest: int, longest: int, what: str):
    def checked(value):
        if not isinstance(value, list) or not shortest <= len(value) <= longest:
            raise Problem(f"must be a list of {shortest} to {longest} {what}, not {_short(value)}")
        return [check(item) for item in value]
    return checked


def _short(value) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


_CODE = _text(40, "a table code")
_SEAT = _whole(0, 5, "a seat")
_RANK = _text(2, "a rank such as 7 or Q")

#: What a learner's page (or a notebook's table) may send: type -> (required fields, optional fields).
LEARNER = {
    "join": ({"code": _CODE, "name": _text(200, "your name")}, {}),
    "resume": ({"code": _CODE, "token": _text(64, "the seat's token")}, {}),
    "ask": ({"target": _whole(0, 5, "a seat"), "rank": _RANK},
            {"suit": _maybe(_text(1, "a suit: ♣ ♦ ♥ ♠")), "at": _whole(0, 1_000_000, "the asks made so far")}),
    "chances": ({"on": _flag}, {}),
    "ping": ({}, {}),
}
#: Fields a learner might try to send to act for someone else: named as such when refused.
_NOT_YOURS = {"player", "seat", "asker", "from", "as"}

_SEAT_KIND = _text(20, "'learner' or a bot's strategy")
#: What the teacher's page may send (after ``hello`` with the teacher's token).
TEACHER = {
    "hello": ({"token": _text(64, "the teacher's token")}, {}),
    "open": ({"rules": _text(20, "a rule set"), "seats": _list(_SEAT_KIND, 2, 6, "seats")},
             {"book_size": _whole(2, 4, "cards in a book"), "bluff": _flag, "specific_card": _flag, "teams": _flag,
              "n_ranks": _whole(2, 13, "ranks in the deck"), "hand_size": _maybe(_whole(1, 13, "cards each")),
              "chances": _flag, "clock": _whole(0, 600, "seconds a learner has to ask, 0 for no clock"),
              "pause": _number(0, 5, "seconds between bot asks"), "tables": _whole(1, 40, "tables to open"),
              "label": _text(40, "a label for the tables")}),
    "start": ({"code": _CODE}, {}),
    "seat": ({"code": _CODE, "seat": _SEAT, "kind": _SEAT_KIND}, {}),
    "settings": ({"code": _CODE}, {"chances": _flag, "clock": _whole(0, 600, "seconds a learner has to ask"),
                                  "pause": _number(0, 5, "seconds between bot asks")}),
    "deal": ({"code": _CODE}, {}),
    "log": ({"code": _CODE}, {}),
    "ping": ({}, {}),
}


def _no_constant(name):
    raise Problem(f"{name} is not a number JSON allows")


def parse(message, kinds: dict) -> dict:
    """The message as a checked dict (``type`` and the fields its type allows), or :class:`Problem`."""
    size = len(message.encode("utf-8", "replace")) if isinstance(message, str) else len(message)
    if size > MAX_MESSAGE:
        raise Problem(f"message too long: {size:,} bytes, at most {MAX_MESSAGE:,}")
    try:
        data = json.loads(message, object_pairs_hook=unique_keys, parse_constant=_no_constant)
    except SaveRefused as e:
        raise Problem(f"not a message: {e}") from None
    except RecursionError:
        raise Problem("not a message: JSON nested too deeply") from None
    except UnicodeDecodeError:
        raise Problem("not a message: not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise Problem(f"not a message: not JSON ({e.msg} at character {e.pos})") from None
    if not isinstance(data, dict):
        raise Problem(f"not a message: expected a JSON object with a 'type', not {_short(data)}")
    kind = data.get("type")
    if kind not in kinds:
        known = ", ".join(sorted(kinds))
        raise Problem(f"unknown message type {_short(kind)}: the host understands {known}")
    required, optional = kinds[kind]
    for field in data:
        if field != "type" and field not in required and field not in optional:
            why = " (your seat is known from your connection)" if field in _NOT_YOURS and kinds is LEARNER else ""
            raise Problem(f"{kind}: field {_short(field)} is not allowed here{why}")
    checked = {"type": kind}
    for field, check in list(required.items()) + list(optional.items()):
        if field not in data:
            if field in required:
                raise Problem(f"{kind}: field {field!r} is missing")
            continue
        try:
            checked[field] = check(data[field])
        except Problem as e:
            raise Problem(f"{kind}: field {field!r} {e}") from None
    return checked


def frame(kind: str, **fields) -> str:
    """A message from the host: ``{"type": kind, ...}`` as compact JSON (cards and names as text)."""
    return json.dumps({"type": kind, **fields}, ensure_ascii=False, separators=(",", ":"))


def _plain(value):
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def event_data(event, names) -> dict:
    """One event as sent: its kind, its sentence with the seats' names, and its fields (cards as text).

    >>> from gofish_teach import Draw
    >>> event_data(Draw(1, 1, (Card("7", "♥"),), "fish", lucky=True), ["Ann", "Bo"])
    {'kind': 'draw', 'text': 'Bo draws 7♥, the rank asked for, and shows it: lucky draw!', 'player': 1, 'count': 1, 'cards': ['7♥'], 'source': 'fish', 'lucky': True}
    """
    data = {"kind": type(event).__name__.lower(), "text": event.describe(names)}
    for field in event._fields:
        data[field] = _plain(getattr(event, field))
    return data
