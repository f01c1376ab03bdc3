"""The predict-first questions' answers, kept where a learner reading a lesson does not meet them.

A lesson's question cell holds only the question and its choices, and an id::

    Question("P(West holds at least one Queen) is ...", choices=[...], id="L00-queen-chance")

The answer, the tolerance (for a number), the feedback for the usual wrong answers and the
explanation come from this bank, keyed by the id. Its source is ``solutions/question-bank.json``
(the teacher's, never copied to learners); the package carries a packed copy of it,
``gofish_teach/widgets/_bank.py``: compressed and scrambled, so no answer is in plain text in the
package, the lessons, their outputs, a learner's copy or a learner's handout. (It is not a secret
from a learner who sets out to decode it: the kernel needs it to give feedback.)

After editing the source, pack it again (a test checks that the packed copy matches)::

    python -m gofish_teach.widgets.question_bank          # rewrite _bank.py from the source
    python -m gofish_teach.widgets.question_bank --check  # exit 1 if _bank.py is out of date

>>> entry("L00-count-asks")["answer"]
'15'
>>> unpack(pack({"a": {"answer": "1/4"}})) == {"a": {"answer": "1/4"}}
True
"""
from __future__ import annotations

import argparse
import base64
import functools
import hashlib
import json
import sys
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: The teacher's source of the bank (in the repository, not in the wheel).
SOURCE = HERE.parent.parent / "solutions" / "question-bank.json"
PACKED_MODULE = HERE / "_bank.py"
_KEY = hashlib.sha256(b"gofish-teach: predict first, then look").digest()


def _scramble(data: bytes) -> bytes:
    return bytes(b ^ _KEY[i % len(_KEY)] for i, b in enumerate(data))


def pack(questions: dict) -> str:
    """The bank as text that reads as nothing: JSON, compressed, scrambled, in base 64."""
    raw = json.dumps(questions, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()
    return base64.b64encode(_scramble(zlib.compress(raw, 9))).decode("ascii")


def unpack(text: str) -> dict:
    """The inverse of :func:`pack`."""
    return json.loads(zlib.decompress(_scramble(base64.b64decode(text))).decode())


def read_source(path: Path = SOURCE) -> dict:
    """The questions of the source file: ``{id: {"answer", "explain", "wrong", ["tolerance"]}}``."""
    questions = json.loads(Path(path).read_text(encoding="utf-8"))["questions"]
    for qid, q in questions.items():
        missing = {"answer", "explain"} - set(q)
        if missing:
            raise ValueError(f"{path}: question {qid} has no {', '.join(sorted(missing))}")
    return questions


def module_text(questions: dict) -> str:
    """The text of ``_bank.py`` for ``questions``."""
    packed = pack(questions)
    lines = "\n".join(f'    "{packed[i:i + 96]}"' for i in range(0, len(packed), 96))
    return ('"""The predict-first questions\' answers, packed: generated from solutions/question-bank.json by\n'
            '``python -m gofish_teach.widgets.question_bank``. Do not edit; edit the source and pack again."""\n'
            f"PACKED = (\n{lines}\n)\n")


@functools.lru_cache(maxsize=1)
def load() -> dict:
    """Every question of the packed bank, by id."""
    from ._bank import PACKED

    return unpack(PACKED)


def entry(qid: str) -> dict:
    """The bank's entry for the question ``qid`` (a ``KeyError`` that says so if there is none)."""
    try:
        return load()[qid]
    except KeyError:
        raise KeyError(f"no question {qid!r} in the question bank (solutions/question-bank.json, packed into "
                       f"gofish_teach/widgets/_bank.py)") from None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gofish_teach.widgets.question_bank",
                                     description="Pack solutions/question-bank.json into gofish_teach/widgets/_bank.py.")
    parser.add_argument("--check", action="store_true", help="only check that the packed bank matches the source")
    parser.add_argument("--source", type=Path, default=SOURCE)
    args = parser.parse_args(argv)
    text = module_text(read_source(args.source))
    if args.check:
        now = PACKED_MODULE.read_text(encoding="utf-8") if PACKED_MODULE.exists() else ""
        if now != text:
            print(f"{PACKED_MODULE} is out of date: run python -m gofish_teach.widgets.question_bank", file=sys.stderr)
            return 1
        print("the packed question bank matches its source")
        return 0
    PACKED_MODULE.write_text(text, encoding="utf-8")
    load.cache_clear()
    print(f"packed {len(read_source(args.source))} questions into {PACKED_MODULE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
