"""``gofish-teach answers DIR``: a class's first answers to the predict-first questions, for the discussion.

In a learner's copy of a lesson (``gofish-teach course``), the cell under each question waits
until the learner has answered, then saves their **first** answer in its output (a second click
changes the feedback, never that record), and the notebook keeps it when saved. This command
reads every ``*.ipynb`` under ``DIR`` (one folder per learner, e.g. ``DIR/ann/lessons/...``),
and writes:

- ``first-answers.csv``: one row per learner and question (learner, notebook, question, answer,
  the choice's text, right or wrong), and a row for each notebook that could not be read, with why;
- ``<question>.png``: a bar chart per question of how many gave each answer, the right one marked.

Learners' files are taken as hostile (:mod:`gofish_teach.trust`): no link is followed,
nothing larger than :data:`MAX_BYTES` is read, and a notebook that is not JSON spoils only its
own row.

>>> import tempfile, json
>>> from pathlib import Path
>>> from gofish_teach.widgets import ANSWER_MIME
>>> root = Path(tempfile.mkdtemp())
>>> first = {"id": "L00-queen-chance", "kind": "choice", "answer": "B", "text": "between 1/4 and 1/2",
...          "choices": ["less than 1/4", "between 1/4 and 1/2"], "status": "right"}
>>> cell = {"cell_type": "code", "outputs": [{"output_type": "display_data",
...         "data": {ANSWER_MIME: {"first_answers": [first]}, "text/plain": "..."}}]}
>>> (root / "ann").mkdir(); _ = (root / "ann" / "00-welcome.ipynb").write_text(json.dumps({"cells": [cell]}))
>>> (root / "ben").mkdir(); _ = (root / "ben" / "00-welcome.ipynb").write_text("{not json")
>>> rows = gather(root)
>>> [(r.learner, r.question, r.answer, r.status) for r in rows]
[('ann', 'L00-queen-chance', 'B', 'right'), ('ben', '', '', 'unreadable')]
"""
from __future__ import annotations

import csv
import json
from collections import Counter
from dataclasses import astuple, dataclass, fields
from pathlib import Path

from ..trust import NotPlain, read_plain, walk_plain
from ..widgets import ANSWER_MIME

#: The largest notebook read (a lesson with its outputs is well under this).
MAX_BYTES = 20 * 2**20


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
    """The learner a notebook belongs to: the first folder under DIR (or the file's name)."""
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def _firsts(notebook) -> list[dict]:
    """Every first-answer record in a notebook's outputs (anything malformed is passed over)."""
    found = []
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    for cell in cells if isinstance(cells, list) else []:
        outputs = cell.get("outputs") if isinstance(cell, dict) else None
        for output in outputs if isinstance(outputs, list) else []:
            data = output.get("data") if isinstance(output, dict) else None
            record = data.get(ANSWER_MIME) if isinstance(data, dict) else None
            answers = record.get("first_answers") if isinstance(record, dict) else None
            for first in answers if isinstance(answers, list) else []:
                if isinstance(first, dict) and isinstance(first.get("id"), str):
                    found.append(first)
    return found


def gather(folder) -> list[Row]:
    """The first answers in every notebook under ``folder``, by learner; one row per question answered.

    A learner who ran a reveal cell twice (or whose record is in two notebooks) counts once per
    question: the first record met. Unreadable notebooks give a row with ``status="unreadable"``.
    """
    folder = Path(folder)
    files, skipped = walk_plain(folder, file_suffix=".ipynb")
    rows: list[Row] = []
    seen: set[tuple[str, str]] = set()
    for path, what in skipped:
        if path.name.endswith(".ipynb"):
            rel = path.relative_to(folder)
            rows.append(Row(_learner(rel), str(rel), "", "", "", "unreadable", f"skipped: {what}"))
    for path in files:
        if not path.name.endswith(".ipynb"):
            continue
        rel = path.relative_to(folder)
        learner = _learner(rel)
        try:
            notebook = json.loads(read_plain(path, MAX_BYTES).decode("utf-8"))
        except (NotPlain, OSError) as e:
            rows.append(Row(learner, str(rel), "", "", "", "unreadable", f"skipped: {e}"))
            continue
        except (ValueError, UnicodeDecodeError) as e:
            rows.append(Row(learner, str(rel), "", "", "", "unreadable", f"not a notebook (bad JSON: {e})"[:200]))
            continue
        except RecursionError:
            rows.append(Row(learner, str(rel), "", "", "", "unreadable", "not a notebook (nested too deeply)"))
            continue
        for first in _firsts(notebook):
            key = (learner, first["id"])
            if key in seen:
                continue
            seen.add(key)
            rows.append(Row(learner, str(rel), first["id"][:100], str(first.get("answer", ""))[:100],
                            str(first.get("text", ""))[:200], str(first.get("status", ""))[:20]))
    rows.sort(key=lambda r: (r.status == "unreadable", r.question, r.learner, r.notebook))
    return rows


def write_csv(rows: list[Row], path: Path) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow([f.name for f in fields(Row)])
        for row in rows:
            # A cell starting with = + - @ would be a formula in a spreadsheet: quote it as text.
            out.writerow(["'" + v if v[:1] in "=+-@" else v for v in astuple(row)])


def histograms(rows: list[Row], folder: Path) -> list[Path]:
    """One bar chart per question: how many learners gave each first answer; the right one hatched."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..widgets import LETTERS, parse_number
    written = []
    by_question: dict[str, list[Row]] = {}
    for row in rows:
        if row.question:
            by_question.setdefault(row.question, []).append(row)
    for qid, answers in sorted(by_question.items()):
        counts = Counter(r.answer for r in answers)
        right = {r.answer for r in answers if r.status == "right"}
        if all(len(a) == 1 and a in LETTERS for a in counts):  # multiple choice: every letter up to the last used
            last = max(LETTERS.index(a) for a in counts)
            labels = list(LETTERS[: max(last + 1, 2)])
        else:  # numbers, smallest first; at most 20 bars (the most frequent)
            common = [a for a, _ in counts.most_common(20)]
            labels = sorted(common, key=lambda a: (parse_number(a)[0] is None, parse_number(a)[0] or 0, a))
        heights = [counts.get(a, 0) for a in labels]
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
        safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in qid)
        path = folder / f"{safe}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
    return written


def add_command(commands) -> None:
    """The ``answers`` command."""
    answers = commands.add_parser(
        "answers", help="gather a class's first answers to the lessons' questions into a CSV and charts",
        description="Read every notebook under DIR (one folder per learner) and gather each learner's first "
                    "answer to each predict-first question into OUT/first-answers.csv, with a bar chart per "
                    "question (OUT/<question>.png) for the class discussion.")
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
    learners = {r.learner for r in rows if r.question}
    bad = [r for r in rows if r.status == "unreadable"]
    print(f"{len(rows) - len(bad)} first answers from {len(learners)} learners to {len(charts)} questions: "
          f"{args.out / 'first-answers.csv'}, and a chart per question in {args.out}", file=out)
    for r in bad:
        print(f"  {r.notebook}: {r.note}", file=out)
