"""The predict-first questions' answers, kept where a learner reading a lesson does not meet them.

A lesson's question cell holds only the question and its choices, and an id::

    Question("P(West holds at least one Queen) is ...", choices=[...], id="L00-queen-chance")

The answer, the tolerance (for a number), the feedback for the usual wrong answers and the
explanation come from this bank, keyed by the id. Its source is ``solutions/question-bank.json``
(the teacher's, never copied to learners) together with the kit's lessons (the teacher's edition):

- each question's choices, from its ``Question(...)`` cell, so that ``gofish-teach answers``
  can judge a first answer by the bank alone;
- the prose that discusses its result: every markdown cell tagged ``answers:<id>``, which stands
  after the question's reveal cell in the lesson and is left out of a learner's copy. A learner's
  :func:`~gofish_teach.widgets.reveal` shows it once the question is answered, never before.

The package carries the two packed together, ``gofish_teach/widgets/_bank.py``: compressed and
scrambled, so no answer is in plain text in the package, a learner's copy or a learner's handout.
(It is not a secret from a learner who sets out to decode it: the kernel needs it to give
feedback.)

After editing the source or a lesson's question or tagged prose, pack again (a test checks
that the packed copy matches both)::

    python -m gofish_teach.widgets.question_bank          # rewrite _bank.py from the source and the lessons
    python -m gofish_teach.widgets.question_bank --check  # exit 1 if _bank.py is out of date

>>> entry("L00-count-asks")["answer"], entry("L00-count-asks")["lesson"]
('15', '00-welcome.ipynb')
>>> entry("L00-queen-chance")["choices"][1]
'between 1/4 and 1/2'
>>> unpack(pack({"a": {"answer": "1/4"}})) == {"a": {"answer": "1/4"}}
True
"""
from __future__ import annotations

import argparse
import ast
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
#: The kit's lessons, the teacher's edition: each question's choices and its tagged prose.
LESSONS = HERE.parent.parent / "notebooks"
#: The tag of a cell that answers or discusses question ``<id>``'s result: ``answers:<id>``.
ANSWERS_TAG = "answers:"
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


def _question_call(source: str):
    """The ``Question(...)`` call a cell ends with, or None."""
    if "Question(" not in source:
        return None
    try:
        last = ast.parse(source).body[-1]
    except (SyntaxError, IndexError):
        return None
    call = getattr(last, "value", None)
    if isinstance(call, ast.Call) and getattr(call.func, "id", "") == "Question":
        return call
    return None


def _literal(node, where: str):
    try:
        return ast.literal_eval(node)
    except ValueError:
        raise ValueError(f"{where}: a lesson's question is written out in the cell (its prompt, id and choices "
                         f"as plain text), not computed: {ast.unparse(node)[:80]}") from None


def read_lessons(folder: Path = LESSONS, bank: dict | None = None) -> dict:
    """What the lessons in ``folder`` say of each question: ``{id: {"lesson", "prompt", ["choices"], "prose"}}``.

    ``prose`` is the text of the markdown cells tagged ``answers:<id>``, in order. Refused, with
    the notebook and cell named (a ``ValueError``): a question asked twice, a tag naming a question
    that is not in ``bank`` or not asked in that lesson, and a tagged cell that stands before the
    question's reveal cell (it would show the result before the learner answers).
    """
    found: dict[str, dict] = {}
    for path in sorted(Path(folder).glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        revealed: set[str] = set()
        for i, cell in enumerate(cells):
            source = "".join(cell.get("source", []))
            where = f"{path.name} cell {i}"
            call = _question_call(source) if cell.get("cell_type") == "code" else None
            if call is not None:
                given = {k.arg: k.value for k in call.keywords}
                if "id" in given:
                    qid = _literal(given["id"], where)
                    if qid in found:
                        raise ValueError(f"{where}: question {qid} is asked twice (also in {found[qid]['lesson']})")
                    found[qid] = {"lesson": path.name, "prompt": _literal(call.args[0], where), "prose": []}
                    if "choices" in given:
                        found[qid]["choices"] = list(_literal(given["choices"], where))
            metadata = cell.get("metadata", {})
            revealed.update((metadata.get("gofish_teach") or {}).get("reveals", []))
            for tag in metadata.get("tags", []):
                if not tag.startswith(ANSWERS_TAG):
                    continue
                qid = tag[len(ANSWERS_TAG):]
                if bank is not None and qid not in bank:
                    raise ValueError(f"{where}: tag {tag!r} names no question of the question bank")
                if found.get(qid, {}).get("lesson") != path.name:
                    raise ValueError(f"{where}: tag {tag!r} names a question this lesson does not ask before it")
                if qid not in revealed:
                    raise ValueError(f"{where}: tag {tag!r} stands before the cell that reveals {qid} "
                                     "(a learner would read the result before answering)")
                if cell.get("cell_type") == "markdown":
                    if "attachment:" in source:
                        raise ValueError(f"{where}: the answer's prose refers to an attachment, which the "
                                         "question bank cannot carry; link the picture from a file instead")
                    found[qid]["prose"].append(source.strip())
    return found


def combined(questions: dict, lessons: dict) -> dict:
    """The bank as packed: each question of the source with what its lesson says of it.

    >>> combined({"q": {"answer": "1", "explain": "."}}, {"q": {"lesson": "00.ipynb", "prompt": "?", "prose": []}})
    {'q': {'answer': '1', 'explain': '.', 'lesson': '00.ipynb', 'prompt': '?', 'prose': []}}
    """
    unknown = sorted(set(lessons) - set(questions))
    if unknown:
        raise ValueError(f"the lessons ask {', '.join(unknown)}, which the question bank does not hold")
    return {qid: {**q, **lessons.get(qid, {"prose": []})} for qid, q in questions.items()}


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
                                     description="Pack solutions/question-bank.json, with each question's choices and "
                                                 "the prose tagged answers:<id> in the lessons, into "
                                                 "gofish_teach/widgets/_bank.py.")
    parser.add_argument("--check", action="store_true",
                        help="only check that the packed bank matches the source and the lessons")
    parser.add_argument("--source", type=Path, default=SOURCE)
    parser.add_argument("--lessons", type=Path, default=LESSONS)
    args = parser.parse_args(argv)
    try:
        questions = read_source(args.source)
        bank = combined(questions, read_lessons(args.lessons, questions))
    except (OSError, ValueError, KeyError) as e:
        print(f"the question bank was not packed: {e}", file=sys.stderr)
        return 2
    text = module_text(bank)
    if args.check:
        now = PACKED_MODULE.read_text(encoding="utf-8") if PACKED_MODULE.exists() else ""
        if now != text:
            print(f"{PACKED_MODULE} is out of date against {args.source.name} or the lessons: "
                  "run python -m gofish_teach.widgets.question_bank", file=sys.stderr)
            return 1
        print("the packed question bank matches its source and the lessons")
        return 0
    PACKED_MODULE.write_text(text, encoding="utf-8")
    load.cache_clear()
    prose = sum(len(q["prose"]) for q in bank.values())
    print(f"packed {len(bank)} questions and {prose} cells of their prose into {PACKED_MODULE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
