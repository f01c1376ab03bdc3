"""The cases a learner's check cell uses, shipped as data: made from the teacher's key, read here.

A check cell prints each public case's expected answer, so those answers may ship; nothing else
of the key does. For each exercise and lesson check, ``data/ID.json`` holds:

- ``public``: its public cases, each with its input (or its ``wire``), the call as text, a note,
  and the expected answer, as plain data (:mod:`.plain`);
- ``pool`` (the lessons' checks): sealed hidden cases, each an input with a ``salt`` and the
  ``hashes`` of every form of its answer the check accepts (:func:`~.checking.seal`), never the
  answer. A check cell draws its hidden cases from the pool at random each run
  (:meth:`~.checking.Exercise.check_hidden_cases`) and judges them by hashing what came back.

The teacher's build writes the data from the key (:mod:`.key`)::

    .venv/bin/python -m gofish_teach.exercises.casedata            # rewrite data/ from solutions/key/
    .venv/bin/python -m gofish_teach.exercises.casedata --check    # exit 1 if data/ differs from the key's

The build is deterministic (the pools' inputs and salts come from :data:`POOL_SEED`), so a test
can rebuild it and find any drift. The grader never reads this data: it makes its cases, public
and hidden, from the key itself.

>>> from gofish_teach.exercises import get_exercise
>>> ex = get_exercise("L02-full-house")
>>> sealed = pool(ex)[0]
>>> sealed.expected, len(sealed.hashes) >= 1, sealed.salt != ""
(<sealed>, True, True)
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import plain
from .checking import SEALED, Case, Exercise

#: Where the data lives (package data: it ships).
DATA = Path(__file__).resolve().parent / "data"
#: The most sealed hidden cases a lesson check's pool holds, and the seed of the pool's inputs and salts.
POOL_SIZE = 100
POOL_SEED = 20260428
ABOUT = ("Made from the teacher's answer key by `python -m gofish_teach.exercises.casedata`; do not edit. The public "
         "cases' answers (a check cell prints them) and, for a lesson check, a pool of hidden cases whose answers are "
         "sealed: salted hashes of every form the check accepts.")

_READ: dict[str, dict] = {}


def _data(ex: Exercise) -> dict:
    if ex.id not in _READ:
        path = DATA / f"{ex.id}.json"
        try:
            _READ[ex.id] = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise FileNotFoundError(f"{ex.id}: its cases are missing ({path}): the teacher's build writes them "
                                    "from the key: python -m gofish_teach.exercises.casedata") from None
    return _READ[ex.id]


def public(ex: Exercise) -> list[Case]:
    """``ex``'s public cases with their answers, as shipped."""
    return [_case(ex, record) for record in _data(ex)["public"]]


def pool(ex: Exercise) -> list[Case]:
    """``ex``'s sealed hidden cases, as shipped (none for an exercise: its hidden cases are the grader's)."""
    return [_case(ex, record) for record in _data(ex).get("pool", [])]


def _case(ex: Exercise, record: dict) -> Case:
    if "wire" in record:
        args, kwargs = ex.unwire(record["wire"])
    else:
        args, kwargs = tuple(plain.decode(record["args"])), plain.decode(record.get("kwargs", {"dict": {}}))
    sealed = "hashes" in record
    return Case(tuple(args), SEALED if sealed else plain.decode(record["expected"]), record["shown"],
                kwargs=dict(kwargs), note=record.get("note", ""), wire=record.get("wire"),
                salt=record.get("salt", ""), hashes=tuple(record.get("hashes", ())))


def _record(case: Case) -> dict:
    record: dict = {"shown": case.shown}
    if case.note:
        record["note"] = case.note
    if case.wire is not None:
        record["wire"] = case.wire  # plain JSON already: the learner's process reads it as it is
    else:
        record["args"] = plain.encode(list(case.args))
        if case.kwargs:
            record["kwargs"] = plain.encode(dict(case.kwargs))
    if case.sealed:
        record["salt"], record["hashes"] = case.salt, list(case.hashes)
    else:
        record["expected"] = plain.encode(case.expected)
    return record


def build(key=None, exercises=None) -> dict[Path, str]:
    """``{path: text}`` of every data file, made from ``key`` (:func:`.key.load`'s argument)."""
    from . import EXERCISES, INLINE
    from .key import load

    key = load(key)
    made = {}
    for ex in exercises if exercises is not None else [*EXERCISES, *INLINE]:
        parts = {"public": [_record(c) for c in key.public_cases(ex)]}
        if ex.hidden_in_check:
            parts["pool"] = [_record(c) for c in key.pool(ex, POOL_SIZE, POOL_SEED)]
        made[DATA / f"{ex.id}.json"] = _dumps({"about": ABOUT, "exercise": ex.id}, parts)
    return made


def _dumps(head: dict, parts: dict) -> str:
    """JSON with one case a line: small, and a change to one case is one line of a diff."""
    def line(value):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    text = ["{" + ", ".join(f"{line(k)}: {line(v)}" for k, v in head.items())]
    for name, records in parts.items():
        text.append(f', {line(name)}: [\n' + ",\n".join(line(r) for r in records) + "\n]")
    return "".join(text) + "}\n"


def drift(key=None) -> list[str]:
    """The data files that differ from what ``key`` makes, or that the key would not make (empty: none)."""
    made = build(key)
    differ = [path.name for path, text in made.items()
              if not path.exists() or path.read_text(encoding="utf-8") != text]
    return sorted(differ + [p.name for p in DATA.glob("*.json") if p not in made])


def write(key=None) -> list[Path]:
    """Rewrite the data from ``key``; a file the key no longer makes is removed. Returns the paths written."""
    made = build(key)
    DATA.mkdir(exist_ok=True)
    for path in DATA.glob("*.json"):
        if path not in made:
            path.unlink()
    for path, text in made.items():
        path.write_text(text, encoding="utf-8")
    _READ.clear()
    return sorted(made)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gofish_teach.exercises.casedata",
                                     description="Write the checks' shipped cases (gofish_teach/exercises/data/) from "
                                                 "the answer key: public answers, and sealed pools of hidden cases.")
    parser.add_argument("--key", default=None, metavar="DIR",
                        help="the answer key (default: the repository's solutions/key/)")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 if the data differs from the key's")
    args = parser.parse_args(argv)
    if args.check:
        differ = drift(args.key)
        for name in differ:
            print(f"differs from the key: {DATA / name}", file=sys.stderr)
        return 1 if differ else 0
    for path in write(args.key):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
