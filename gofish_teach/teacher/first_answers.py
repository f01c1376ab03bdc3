"""``gofish-teach answers DIR``: a class's first answers to the predict-first questions, for the discussion.

A learner's lesson keeps each first answer, the moment it is given, in ``first-answers.json``
beside the notebook (a second answer, a new kernel or a reopened lesson never replaces it), and
the cell under each question saves it in its output too. This command reads both, in every
folder under ``DIR`` (one folder per learner, e.g. ``DIR/ann/lessons/...``), and writes:

- ``first-answers.csv``: one row per learner and question (learner, where it was found, question,
  answer, the choice's text or the number as typed, right or wrong), a row for each notebook that
  could not be read, with why, and a row for what was left out;
- ``<question>.png``: a bar chart per question of how many gave each answer, the right one hatched.

Where a learner's files hold two first answers to one question (a copy of a lesson, an older
version of the course), the earliest counts, and one without a time (saved by an older version)
before any with one.

Learners' files and text are taken as hostile (:mod:`gofish_teach.trust`): no link is followed,
nothing larger than :data:`MAX_BYTES` is read, and a file that is not JSON spoils only its own
row. A record is the learner's to write, so only its question and its answer are believed:

- right or wrong is worked out again from the question bank (a record's own "right" is ignored);
- only the bank's questions count, and at most :data:`MAX_RECORDS` records a learner (so a
  notebook of invented questions makes neither thousands of charts nor minutes of work);
- every CSV cell is safe in a spreadsheet, every chart draws text as typed, every line printed
  shows control characters instead of obeying them.

>>> import tempfile, json
>>> from pathlib import Path
>>> from gofish_teach.widgets import ANSWER_MIME
>>> root = Path(tempfile.mkdtemp())
>>> first = {"id": "L00-queen-chance", "kind": "choice", "answer": "B", "status": "wrong"}   # a forged "wrong"
>>> cell = {"cell_type": "code", "outputs": [{"output_type": "display_data",
...         "data": {ANSWER_MIME: {"first_answers": [first]}, "text/plain": "..."}}]}
>>> (root / "ann").mkdir(); _ = (root / "ann" / "00-welcome.ipynb").write_text(json.dumps({"cells": [cell]}))
>>> (root / "ben").mkdir(); _ = (root / "ben" / "00-welcome.ipynb").write_text("{not json")
>>> rows = gather(root)
>>> [(r.learner, r.question, r.answer, r.text, r.status) for r in rows]
[('ann', 'L00-queen-chance', 'B', 'between 1/4 and 1/2', 'right'), ('ben', '', '', '', 'unreadable')]
"""
from __future__ import annotations

import csv
import json
from collections import Counter, defaultdict
from dataclasses import astuple, dataclass, fields
from datetime import datetime
from pathlib import Path

from ..trust import NotPlain, csv_cell, literal_charts, read_plain, terminal, walk_plain
from ..widgets import ANSWER_MIME, LETTERS, Question, parse_number

#: The largest notebook read (a lesson with its outputs is well under this).
MAX_BYTES = 20 * 2**20
#: The name of the file a lesson keeps first answers in, beside the notebook.
KEPT = "first-answers.json"
#: The most first-answer records read for one learner: 39 questions, in a few copies of a lesson each,
#: is far fewer. Past it, the rest are left out (and a row says so).
MAX_RECORDS = 1000


@dataclass
class Row:
    learner: str
    notebook: str
    question: str
    answer: str
    text: str
    status: str
    note: str = ""


def _learner(rel: Path) -> str:
    """The learner a file belongs to: the first folder under DIR (or the file's name)."""
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def _records_in_notebook(notebook) -> list:
    """Every first-answer record in a notebook's outputs (anything malformed is passed over)."""
    found = []
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    for cell in cells if isinstance(cells, list) else []:
        outputs = cell.get("outputs") if isinstance(cell, dict) else None
        for output in outputs if isinstance(outputs, list) else []:
            data = output.get("data") if isinstance(output, dict) else None
            record = data.get(ANSWER_MIME) if isinstance(data, dict) else None
            answers = record.get("first_answers") if isinstance(record, dict) else None
            found.extend(answers if isinstance(answers, list) else [])
    return found


def _records_kept(data) -> list:
    """The records of a ``first-answers.json``: ``{"first_answers": {id: record}}``."""
    kept = data.get("first_answers") if isinstance(data, dict) else None
    return list(kept.values()) if isinstance(kept, dict) else []


class _Judge:
    """Works out each record's answer and whether it is right from the question bank, never from the record."""

    def __init__(self):
        from ..widgets import load_bank

        self.bank = load_bank()
        self.questions: dict[str, Question] = {}

    def question(self, qid) -> Question | None:
        if not isinstance(qid, str) or qid not in self.bank:
            return None
        if qid not in self.questions:
            q = self.bank[qid]
            self.questions[qid] = Question(q.get("prompt", qid), choices=q.get("choices"), id=qid)
        return self.questions[qid]

    def __call__(self, question: Question, record: dict) -> tuple[str, str, str]:
        """``(answer, text, status)``: a letter and its choice, or a number and what was typed; right, wrong or invalid."""
        given = record.get("answer")
        given = given if isinstance(given, str) else ""
        if question.kind == "choice":
            k = LETTERS.index(given) if len(given) == 1 and given in LETTERS[: len(question.choices)] else None
            if k is None:
                return given[:100], "", "invalid"
            return given, question.choices[k], question.answer(k).status
        typed = record.get("text")
        typed = typed[:100] if isinstance(typed, str) else given[:100]
        value, _ = parse_number(given[:100])
        if value is None:
            return given[:100], typed, "invalid"
        return str(value), typed, question.answer(value).status


def _when(record: dict) -> tuple:
    """How early a record is: one without a time (an older version's) first, then by time."""
    try:
        return (1, datetime.fromisoformat(str(record["at"]).replace("Z", "+00:00")).timestamp())
    except (KeyError, ValueError, TypeError, OverflowError):
        return (0, 0.0)


def _read(path: Path):
    """A learner's JSON file, or a row's note saying why it cannot be read."""
    try:
        return json.loads(read_plain(path, MAX_BYTES).decode("utf-8")), ""
    except (NotPlain, OSError) as e:
        return None, f"skipped: {e}"
    except (ValueError, UnicodeDecodeError) as e:
        return None, f"not {'a notebook' if path.suffix == '.ipynb' else 'JSON'} (bad JSON: {e})"[:200]
    except RecursionError:
        return None, "not a notebook (nested too deeply)"


def gather(folder) -> list[Row]:
    """The first answer of each learner to each question of the bank, from every file under ``folder``.

    Unreadable files give a row with ``status="unreadable"``; records left out (a question not in
    the bank, a learner past :data:`MAX_RECORDS`), one ``status="ignored"`` row per learner.
    """
    folder = Path(folder)
    judge = _Judge()
    files, skipped = walk_plain(folder, file_suffix=".ipynb")
    rows: list[Row] = []
    for path, what in skipped:
        if path.name.endswith(".ipynb") or path.name == KEPT:
            rel = path.relative_to(folder)
            rows.append(Row(_learner(rel), str(rel), "", "", "", "unreadable", f"skipped: {what}"))
    read = Counter()                                    # records read, by learner
    unknown, over = Counter(), Counter()                # records left out, by learner
    found: dict[tuple[str, str], list] = defaultdict(list)
    for path in files:
        if not (path.name.endswith(".ipynb") or path.name == KEPT):
            continue
        rel = path.relative_to(folder)
        learner = _learner(rel)
        data, why = _read(path)
        if why:
            rows.append(Row(learner, str(rel), "", "", "", "unreadable", why))
            continue
        records = _records_in_notebook(data) if path.name.endswith(".ipynb") else _records_kept(data)
        for record in records:
            if read[learner] >= MAX_RECORDS:
                over[learner] += 1
                continue
            read[learner] += 1
            question = judge.question(record.get("id")) if isinstance(record, dict) else None
            if question is None:
                unknown[learner] += 1
                continue
            found[learner, question.id].append((_when(record), len(found[learner, question.id]), str(rel), record))
    for (learner, qid), candidates in found.items():
        _, _, where, record = min(candidates, key=lambda c: c[:2])
        rows.append(Row(learner, where, qid, *judge(judge.question(qid), record)))
    for learner in sorted(set(unknown) | set(over)):
        said = [f"{unknown[learner]} record(s) for questions not in the question bank"] if unknown[learner] else []
        said += [f"{over[learner]} record(s) past the first {MAX_RECORDS}"] if over[learner] else []
        rows.append(Row(learner, "", "", "", "", "ignored", "left out: " + "; ".join(said)))
    rows.sort(key=lambda r: (r.status in ("unreadable", "ignored"), r.question, r.learner, r.notebook))
    return rows


def write_csv(rows: list[Row], path: Path) -> None:
    """The rows as CSV, every cell as text a spreadsheet shows and never runs (:func:`~gofish_teach.trust.csv_cell`)."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow([f.name for f in fields(Row)])
        for row in rows:
            out.writerow([csv_cell(v) for v in astuple(row)])


def histograms(rows: list[Row], folder: Path) -> list[Path]:
    """One bar chart per question: how many learners gave each first answer; the right one hatched.

    Only answers that could be read (right or wrong) are drawn, and every text as typed
    (:func:`~gofish_teach.trust.literal_charts`: a ``$`` is a dollar, not mathematics).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    judge = _Judge()
    written = []
    by_question: dict[str, list[Row]] = {}
    for row in rows:
        if row.question and row.status in ("right", "wrong"):
            by_question.setdefault(row.question, []).append(row)
    for qid, answers in sorted(by_question.items()):
        counts = Counter(r.answer for r in answers)
        right = {r.answer for r in answers if r.status == "right"}
        question = judge.question(qid)
        if question is not None and question.kind == "choice":  # every choice, the right one marked even if unpicked
            labels = list(LETTERS[: len(question.choices)])
            right = {LETTERS[question.correct]}
        else:  # numbers, smallest first; at most 20 bars (the most frequent)
            common = [a for a, _ in counts.most_common(20)]
            labels = sorted(common, key=lambda a: (parse_number(a)[0] is None, parse_number(a)[0] or 0, a))
        heights = [counts.get(a, 0) for a in labels]
        safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in qid)
        path = folder / f"{safe}.png"
        with literal_charts():
            fig, ax = plt.subplots(figsize=(max(4, 0.6 * len(labels) + 2), 3))
            bars = ax.bar(range(len(labels)), heights, color="#0072B2", edgecolor="black")
            for bar, label in zip(bars, labels, strict=True):
                if label in right:
                    bar.set_hatch("//")
                    bar.set_color("#E69F00")
                    bar.set_edgecolor("black")
            ax.set_xticks(range(len(labels)), labels, rotation=0 if len(labels) < 8 else 45)
            ax.set_ylabel("learners")
            ax.set_title(f"{qid}: first answers ({len(answers)} learners; right answer hatched)", fontsize=9)
            ax.yaxis.get_major_locator().set_params(integer=True)
            fig.tight_layout()
            fig.savefig(path, dpi=100)
            plt.close(fig)
        written.append(path)
    return written


def add_command(commands) -> None:
    """The ``answers`` command."""
    answers = commands.add_parser(
        "answers", help="gather a class's first answers to the lessons' questions into a CSV and charts",
        description="Read every notebook and first-answers.json under DIR (one folder per learner) and gather "
                    "each learner's first answer to each predict-first question into OUT/first-answers.csv, "
                    "with a bar chart per question (OUT/<question>.png) for the class discussion. Right or "
                    "wrong is worked out from the question bank. First answers are for discussion, not marks: "
                    "they live in the learners' own kernels and files.")
    answers.add_argument("folder", type=Path, metavar="DIR", help="the learners' notebooks, one folder each")
    answers.add_argument("--out", type=Path, default=Path("first-answers"), metavar="OUT",
                         help="where to write the CSV and the charts (default: ./first-answers)")
    answers.set_defaults(run=run_answers)


def run_answers(args, out) -> None:
    if not args.folder.is_dir():
        raise ValueError(f"{args.folder} is not a folder")
    rows = gather(args.folder)
    args.out.mkdir(parents=True, exist_ok=True)
    write_csv(rows, args.out / "first-answers.csv")
    charts = histograms(rows, args.out)
    answered = [r for r in rows if r.question]
    learners = {r.learner for r in answered}
    print(f"{len(answered)} first answers from {len(learners)} learners to {len(charts)} questions: "
          f"{args.out / 'first-answers.csv'}, and a chart per question in {args.out}", file=out)
    for r in rows:
        if r.status == "unreadable":
            print(terminal(f"  {r.notebook}: {r.note}"), file=out)
        elif r.status == "ignored":
            print(terminal(f"  {r.learner}: {r.note}"), file=out)
