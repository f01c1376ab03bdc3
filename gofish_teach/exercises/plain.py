"""Plain values: what a learner's function may send back from its process, as JSON text.

A check never compares an object that the learner's code made: an object can claim to equal
anything (``__eq__`` that always says True), and a float can be NaN. So the learner's side
turns what the function returned into JSON (:func:`dumps`), and the checking side reads it
back (:func:`loads`) into a fresh value made only of ``None``, ``bool``, ``int``, ``float``,
``str``, ``list``, ``tuple``, ``dict`` (with ``str`` keys) and ``Fraction``, which it then
type-checks and compares. Whatever else came back becomes an :class:`Unsupported` that
names its type, and every check fails it with that message.

>>> from fractions import Fraction
>>> loads(dumps([Fraction(1, 3), ("7", 2), None, {"asks": 3}]))
[Fraction(1, 3), ('7', 2), None, {'asks': 3}]
>>> loads(dumps(float("nan")))
nan
>>> class Liar:
...     def __eq__(self, other):
...         return True
>>> value = loads(dumps(Liar()))
>>> value == [["A♣"]], value
(False, <a Liar, which is not a plain value>)
"""
from __future__ import annotations

import json
import math
import numbers
from fractions import Fraction

#: How deep a returned value may nest, and how many items it may hold in all.
MAX_DEPTH = 20
MAX_ITEMS = 100_000


class Unsupported:
    """Stands in for a returned value that is not plain: only its type's name came back."""

    def __init__(self, type_name: str):
        self.type_name = str(type_name)[:80]

    def __eq__(self, other):
        return False

    __hash__ = None

    def __repr__(self) -> str:
        return f"<a {self.type_name}, which is not a plain value>"


class _Budget:
    def __init__(self):
        self.items = 0


def encode(value, _depth: int = 0, _budget: _Budget | None = None):
    """``value`` as JSON-ready data, tagging what JSON cannot say (tuples, Fractions, non-finite floats)."""
    budget = _budget or _Budget()
    budget.items += 1
    if _depth > MAX_DEPTH or budget.items > MAX_ITEMS:
        return {"unsupported": "value too deep or too large"}
    kind = type(value)
    if value is None or kind in (bool, str):
        return value
    if kind is int:
        return value
    if kind is float:
        return value if math.isfinite(value) else {"float": repr(value)}
    if kind is Fraction:
        return {"fraction": [value.numerator, value.denominator]}
    if kind in (list, tuple):
        items = [encode(v, _depth + 1, budget) for v in value]
        return items if kind is list else {"tuple": items}
    if kind is dict and all(type(k) is str for k in value):
        return {"dict": {k: encode(v, _depth + 1, budget) for k, v in value.items()}}
    # numpy's scalars are plain numbers in all but type: say what they are worth.
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and type(value).__module__ == "numpy":
        return int(value)
    if isinstance(value, numbers.Real) and type(value).__module__ == "numpy":
        return encode(float(value), _depth, budget)
    if kind.__module__ == "numpy" and kind.__name__ == "bool_":
        return bool(value)
    return {"unsupported": kind.__qualname__}


def dumps(value) -> str:
    return json.dumps(encode(value), ensure_ascii=False, allow_nan=False)


def reject_constant(name):
    raise ValueError(f"{name} is not plain JSON")


def loads(text: str):
    """A fresh plain value from :func:`dumps`'s text; raises ``ValueError`` for anything malformed."""
    return decode(json.loads(text, parse_constant=reject_constant))


def decode(data, _depth: int = 0):
    if _depth > MAX_DEPTH + 1:
        raise ValueError("nested too deeply")
    kind = type(data)
    if data is None or kind in (bool, int, str, float):
        return data
    if kind is list:
        return [decode(v, _depth + 1) for v in data]
    if kind is dict and len(data) == 1:
        (tag, inner), = data.items()
        if tag == "tuple" and type(inner) is list:
            return tuple(decode(v, _depth + 1) for v in inner)
        if tag == "dict" and type(inner) is dict:
            return {str(k): decode(v, _depth + 1) for k, v in inner.items()}
        if tag == "fraction" and type(inner) is list and len(inner) == 2 and all(type(x) is int for x in inner) \
                and inner[1] != 0:
            return Fraction(inner[0], inner[1])
        if tag == "float" and inner in ("nan", "inf", "-inf"):
            return float(inner)
        if tag == "unsupported" and type(inner) is str:
            return Unsupported(inner)
    raise ValueError(f"not a plain value: {str(data)[:80]}")


def describe(value) -> str:
    """A type's name in words, for messages: ``'a list'``, ``'a Fraction'``, ``'nan (a float)'``."""
    if isinstance(value, Unsupported):
        return f"a {value.type_name}"
    if isinstance(value, float) and not math.isfinite(value):
        return f"{value!r} (a float that is not a number)"
    name = type(value).__name__
    return ("an " if name[0] in "aeiou" else "a ") + name
