"""The teacher's readable copy of the bank, ``notebooks/teacher/quiz-bank.ipynb``, written from the
items themselves, so the notebook and the ``quiz`` command cannot disagree.

Each lesson gets a markdown cell with every item (its goals, what changes between versions, one
version's text, and its key) and a code cell that builds every version of every item of the
lesson, which computes each key and checks it a second way (:func:`check_lesson`).

``python -m gofish_teach.quiz.notebook notebooks/teacher/quiz-bank.ipynb`` rewrites it (then run it,
as ``make notebooks`` does); ``tests/test_teacher_kit.py`` checks that the committed notebook is
the one this module writes.
"""
from __future__ import annotations

import sys

from .model import LETTERS

#: The lessons' titles, as their first headings give them (the tests check they still match).
TITLES = {"00": "Welcome to gofish-teach", "01": "Play, and the rules", "02": "Counting the deal", "03": "Fishing from the ocean",
          "04": "What asks reveal", "05": "Models and calibration", "06": "Testing a strategy",
          "07": "Variants and game length", "08": "How good can a strategy be?", "09": "Who am I playing?",
          "10": "The class at the table"}
#: The version the notebook shows of each item.
SEED, VERSION = 0, 1

INTRO = """# Quiz bank with keys

**Teacher's kit: not for learners.** Every item of the course's quiz bank, lesson by lesson, with
its key. The bank lives in the package (`gofish_teach/quiz/`), and this notebook is written from it
(`python -m gofish_teach.quiz.notebook notebooks/teacher/quiz-bank.ipynb`), so it always shows what
the `quiz` command prints.

**What the bank covers.** Every learning goal of every lesson has at least one item (goals are
numbered as listed at the top of each lesson; lesson 0 has one goal), and every lesson has at
least two multi-step problems (items `QLL.M1`, `QLL.M2`, ...), built like Stat 110's strategic
practice: each part leads to the next. None of the items repeats a question the lessons, the
*Try it* prompts or the guide already answer.

**Versions.** Most items are templates: their numbers (hand sizes, copies held, counts, seeds of
a game) change from version to version, and the kit computes each version's key exactly
(`Fraction`s, with `Facts`, the engine, `scipy.stats` or a count) and checks it a second way
(every code cell below builds every version of its lesson's items, so a wrong key stops this
notebook). What shows here is version 1 of seed 0; the line "changes" says what differs between
versions. In every version the right answers of the multiple-choice parts are spread evenly over
A, B, C and D (a seeded shuffle of a balanced list of letters).

**Making a quiz.**

```sh
gofish-teach quiz my-quiz --versions 3 --seed 2026                 # the whole bank
gofish-teach quiz my-quiz --versions 2 --seed 7 --lessons 02,03    # only some lessons
```

writes `version-01.pdf` (for learners: questions only), `version-01-key.pdf` (keys, why, and a
grading table), and so on for each version; `keys.csv` (every key of every version); and the
bank of the chosen lessons, every distinct version made (`--all-versions`: every version of every
item), as `quiz-bank-moodle.xml` (Moodle: Question bank > Import > Moodle XML; one category per
item, so a quiz can draw a random version; multi-part problems are Cloze questions) and
`quiz-bank-canvas-qti.zip` (Canvas: Settings > Import course content > QTI .zip file; one
question group per item, drawing one version; a multi-part problem is a fill-in-multiple-blanks
question, and since Canvas grades a blank by its text, a number's blank lists every text within
the key's tolerance, with up to one decimal place more than asked, a sign or none; a choice's
blank takes its letter). Numbers entered on a platform are graded within the tolerance the key
states.

Item header: **QLL.n** · lesson *LL* · goal(s) · the parts' kinds. Kinds: *choice* (four options,
one right), *number* (an exact key, graded within the stated tolerance), *written* (a rubric says
what a full answer contains)."""

KIND = {"choice": "choice", "number": "number", "short": "written"}


def _key(part) -> str:
    if part.kind == "choice":
        return f"**Key: ({LETTERS[part.right]}).** {part.explain}"
    if part.kind == "number":
        shown = part.exact() if part.answer.denominator == 1 or not part.exact_key else \
            f"{part.exact()} ≈ {part.decimal()}"
        tol = f" (accept ± {float(part.tolerance):g})" if part.tolerance else ""
        return f"**Key: {shown}{tol}.** {part.explain}"
    return f"**Key (a full answer):** {part.rubric}"


def item_markdown(question) -> str:
    """One item as the notebook shows it: header, what changes, the text, the key."""
    item = question.item
    kinds = " + ".join(KIND[p.kind] for p in question.parts)
    goals = ", ".join(map(str, item.goals))
    lines = [f"### {item.id} · lesson {item.lesson} · goal{'s' if len(item.goals) > 1 else ''} {goals} · {kinds}",
             f"*{item.title}*" + (f"; changes: {item.varies}" if item.varies else "; the same in every version"), "",
             question.stem, ""]
    for part in question.parts:
        lines.append(part.prompt)
        if part.kind == "choice":
            lines.append("")
            lines.extend(f"- ({LETTERS[i]}) {c.text}" for i, c in enumerate(part.choices))
        lines += ["", _key(part), ""]
    return "\n".join(lines).rstrip()


def cells() -> list[tuple[str, str]]:
    """``[(cell_type, source)]`` of the notebook."""
    from .catalog import ITEMS
    from .model import make_version

    version = make_version(ITEMS, SEED, VERSION)
    out = [("markdown", INTRO),
           ("code", "from gofish_teach.quiz import check_lesson  # builds and checks every version")]
    for lesson, title in TITLES.items():
        shown = [q for q in version.questions if q.item.lesson == lesson]
        out.append(("markdown", f"## Lesson {lesson}: {title}\n\n" + "\n\n".join(item_markdown(q) for q in shown)))
        out.append(("code", f'check_lesson("{lesson}")'))
    return out


def check_lesson(lesson: str) -> None:
    """Build every version of every item of ``lesson`` (each builder computes its keys and checks
    them a second way, raising if they disagree), and print what was checked."""
    from .catalog import items_for

    for item in items_for([lesson]):
        parts = 0
        for params in item.space:
            parts += len(item.make(tuple(params)).parts)
        print(f"{item.id}: {len(item.space)} version{'s' if len(item.space) > 1 else ''}, {parts} keys checked")


def write(path) -> None:
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                   "language_info": {"name": "python"}}
    for kind, source in cells():
        nb.cells.append(nbformat.v4.new_markdown_cell(source) if kind == "markdown" else nbformat.v4.new_code_cell(source))
    for i, cell in enumerate(nb.cells):
        cell.id = f"quiz-{i:02d}"
    nbformat.write(nb, path)


if __name__ == "__main__":
    write(sys.argv[1])
