"""The teacher's kit (``notebooks/teacher/``): a quiz bank with at least five items per lesson,
an answer key for every lesson that covers its "Try it" prompts and the guide's questions, a
glossary whose terms the lessons really use, and no pointer at a path outside the repository.

The kit's notebooks themselves are run by ``pytest --nbval`` (``make test`` passes
``notebooks``, and pytest recurses into ``notebooks/teacher``); this file checks what nbval
cannot see. Where a check compares the kit with the lessons it needs the course's numbering
(00-07, lesson 04 split into ``04-what-asks-reveal`` and ``05-models-and-calibration``); on a
tree with the old numbering it is skipped, and says so.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from test_notebooks import formulas, render_problem

ROOT = Path(__file__).resolve().parent.parent
LESSON_DIR = ROOT / "notebooks"
KIT = LESSON_DIR / "teacher"
#: Every lesson's two-digit number, from the lessons themselves (00-10 today).
LESSONS = sorted(p.name[:2] for p in LESSON_DIR.glob("[0-9][0-9]-*.ipynb"))
KIT_NOTEBOOKS = sorted(KIT.glob("*.ipynb"))
KIT_FILES = sorted(p for p in KIT.iterdir() if p.suffix in (".md", ".ipynb"))


def renumbered(lesson_dir: Path | None = None) -> bool:
    """Does the tree have the course's numbering (lesson 04 split, 05 = models and calibration)?"""
    return ((lesson_dir or LESSON_DIR) / "05-models-and-calibration.ipynb").exists()


def needs_course_numbering():
    if not renumbered():
        pytest.skip("the lessons are not yet renumbered 00-07 (lesson 04 split into 04 and 05)")


def cells(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def source(cell) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def markdown(path: Path) -> str:
    return "\n".join(source(c) for c in cells(path) if c["cell_type"] == "markdown")


def lesson_files(lesson_dir: Path | None = None) -> dict[str, Path]:
    """{"00": path, ...}: the lessons by their two-digit number."""
    return {p.name[:2]: p for p in sorted((lesson_dir or LESSON_DIR).glob("[0-9][0-9]-*.ipynb"))}


def lesson_texts(lesson_dir: Path | None = None) -> dict[str, str]:
    """Each lesson's text: its markdown and its code (the predict-first questions are code); the
    welcome's list of coming lessons ("Where next") left out, since naming a lesson's topic
    there is not using the term."""
    texts = {}
    for number, path in lesson_files(lesson_dir).items():
        text = "\n".join(source(c) for c in cells(path))
        if number == "00":
            text = text.split("## Where next")[0]
        texts[number] = text
    return texts


def normalise(text: str) -> str:
    """Markdown prose reduced for comparison: no quote marks, emphasis or code ticks, one space."""
    text = re.sub(r"^\s*>\s?", "", text, flags=re.M)
    text = re.sub(r"[*_`>]", "", text)
    text = text.replace("“", '"').replace("”", '"').replace("’", "'")
    return " ".join(text.split()).lower()


# ---------------------------------------------------------------------------- the quiz bank

QUIZ = KIT / "quiz-bank.ipynb"
ITEM = re.compile(r"^### (Q(\d\d)\.(M?\d+)) · lesson (\d\d) · goals? ([\d, ]+) · (.+)$", re.M)


def quiz_items(path: Path = QUIZ):
    """[(id, lesson, goals, kinds, markdown of the item)] in order, from the bank notebook."""
    items = []
    for cell in cells(path):
        if cell["cell_type"] != "markdown":
            continue
        text = source(cell)
        starts = list(ITEM.finditer(text))
        for k, m in enumerate(starts):
            end = starts[k + 1].start() if k + 1 < len(starts) else len(text)
            heading = re.compile(r"^## ", re.M).search(text, m.end(), end)  # the next lesson's heading
            end = heading.start() if heading else end
            assert m.group(2) == m.group(4), f"{m.group(1)} is tagged lesson {m.group(4)}"
            goals = tuple(int(g) for g in m.group(5).replace(" ", "").split(",") if g)
            items.append((m.group(1), m.group(2), goals, m.group(6), text[m.start():end]))
    return items


def lesson_goal_counts(lesson_dir: Path | None = None) -> dict[str, int]:
    """{"03": 6, ...}: the learning goals each lesson lists (a numbered list, or its first run of
    "- " bullets; lesson 0 states one goal in a sentence)."""
    counts = {}
    for number, path in lesson_files(lesson_dir).items():
        first = source(cells(path)[0])
        goals = first[first.find("**Learning goal"):]
        numbered = re.findall(r"^\d+\.\s", goals, re.M)
        bullets = re.search(r"(?:^- .*\n(?:^  .*\n)*)+", goals + "\n", re.M)
        counts[number] = len(numbered) or (len(re.findall(r"^- ", bullets.group(0), re.M)) if bullets else 1)
    return counts


def test_quiz_bank_has_five_items_per_lesson():
    per_lesson = {n: 0 for n in LESSONS}
    for _, lesson, *_ in quiz_items():
        per_lesson[lesson] += 1
    short = {n: c for n, c in per_lesson.items() if c < 5}
    assert not short, f"quiz-bank.ipynb: fewer than 5 items for lessons {short}"


def test_quiz_bank_assesses_every_learning_goal_of_every_lesson():
    """Fails on ca11cf4's bank: no item for L03 goal 5, L05 goal 2, L06 goal 6, L07 goal 3."""
    needs_course_numbering()
    assessed = {(lesson, g) for _, lesson, goals, *_ in quiz_items() for g in goals}
    wanted = {(lesson, g) for lesson, n in lesson_goal_counts().items() for g in range(1, n + 1)}
    assert not wanted - assessed, f"quiz-bank.ipynb: no item for goals {sorted(wanted - assessed)}"
    assert not assessed - wanted, f"quiz-bank.ipynb: items name goals their lesson does not list: {sorted(assessed - wanted)}"


def test_every_quiz_item_has_a_key_for_each_part():
    items = quiz_items()
    names = [name for name, *_ in items]
    assert len(names) == len(set(names)), "quiz-bank.ipynb: an item number is used twice"
    for name, _lesson, _goals, kinds, text in items:
        parts = len(kinds.split(" + "))
        assert text.count("**Key") == parts, f"{name}: {parts} part(s), {text.count('**Key')} keys"


def test_quiz_bank_is_written_from_the_package_bank():
    """The notebook is what ``python -m gofish_teach.quiz.notebook`` writes: the same cells, so it
    shows exactly the items and keys of the ``quiz`` command; each lesson's code cell builds and
    checks every version of its items (nbval runs it)."""
    from gofish_teach.quiz.notebook import cells as bank_cells

    saved = [(c["cell_type"], source(c)) for c in cells(QUIZ)]
    assert saved == bank_cells(), ("quiz-bank.ipynb differs from the bank: run "
                                   "`python -m gofish_teach.quiz.notebook notebooks/teacher/quiz-bank.ipynb`, then "
                                   "execute it (make notebooks)")


def test_quiz_bank_lesson_titles_are_the_lessons():
    needs_course_numbering()
    from gofish_teach.quiz.notebook import TITLES

    for number, path in lesson_files().items():
        heading = re.search(r"^# (.+)$", source(cells(path)[0]), re.M).group(1)
        assert heading.endswith(TITLES[number]), f"lesson {number} is titled {heading!r}, the bank says {TITLES[number]!r}"


# ---------------------------------------------------------------------------- the answer keys

def key_notebooks() -> dict[str, Path]:
    return {p.name[4:6]: p for p in KIT.glob("key-[0-9][0-9]-*.ipynb")}


def test_every_lesson_has_an_answer_key():
    keys = key_notebooks()
    missing = [n for n in LESSONS if n not in keys]
    assert not missing, f"notebooks/teacher: no answer key (key-NN-*.ipynb) for lessons {missing}"
    for n, path in keys.items():
        text = markdown(path)
        assert re.search(r"^## Try it", text, re.M), f"{path.name}: no '## Try it' section"
        assert re.search(rf"^# Answer key, lesson {n}\b", text, re.M), f"{path.name}: title should be 'Answer key, lesson {n}: ...'"


def try_it_prompts(path: Path) -> list[str]:
    """The numbered prompts of a lesson's last "Try it" section, each as one line of prose."""
    sections = [source(c) for c in cells(path) if c["cell_type"] == "markdown" and re.search(r"^#+\s*try it", source(c), re.I | re.M)]
    if not sections:
        return []  # test_notebooks.py requires every lesson to end with one
    text = sections[-1]
    text = re.split(r"^#+\s*try it.*$", text, flags=re.I | re.M)[-1]
    text = re.split(r"^#+\s", text, flags=re.M)[0]  # up to the next heading ("Where next")
    return [" ".join(p.split()) for p in re.split(r"^\d+\.\s", text, flags=re.M)[1:]]


def guide_questions() -> list[str]:
    """The quoted questions of the guide's "Lesson by lesson" part: *"..."*."""
    guide = (LESSON_DIR / "README.md").read_text(encoding="utf-8")
    part = guide.split("## Lesson by lesson")[-1].split("\n## ")[0]
    return [" ".join(q.split()) for q in re.findall(r'\*"(.+?)"\*', part, re.S)]


def test_keys_answer_every_try_it_prompt():
    needs_course_numbering()
    keys = normalise("\n".join(markdown(p) for p in key_notebooks().values()))
    missing = [f"{n}: {prompt[:70]}..." for n, path in lesson_files().items()
               for prompt in try_it_prompts(path) if normalise(prompt) not in keys]
    assert not missing, "no answer key quotes these Try-it prompts (quote each one as it stands in the lesson):\n" + "\n".join(missing)


def test_keys_answer_every_guide_question():
    needs_course_numbering()
    keys = normalise("\n".join(markdown(p) for p in key_notebooks().values()))
    missing = [q for q in guide_questions() if normalise(q) not in keys]
    assert guide_questions(), "found no questions in notebooks/README.md"
    assert not missing, "no answer key quotes these guide questions:\n" + "\n".join(missing)


# ---------------------------------------------------------------------------- the glossary

GLOSSARY = KIT / "glossary.md"


def glossary_entries() -> list[tuple[list[str], str]]:
    """[(forms of the term, lesson it first appears in, or "—")] from the glossary's table rows."""
    entries = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cols = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]  # "\|" is a pipe inside a cell
        if len(cols) == 3 and cols[0] not in ("term", "") and not set(cols[0]) <= set("-: "):
            forms = [f.strip().strip("*") for f in cols[0].split(",")]
            entries.append((forms, cols[2].split()[0] if cols[2] else ""))
    return entries


def term_pattern(forms: list[str]) -> re.Pattern:
    """Any of the forms, as a whole word or phrase, in any case, with an optional plural."""
    alternatives = "|".join(re.escape(f).replace(r"\ ", r"[\s-]+") for f in forms)
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?:s|es)?(?![\w-])", re.I)


def first_lessons(texts: dict[str, str]) -> dict[str, str]:
    """{headword: first lesson using any of its forms, or "—"} for every glossary entry."""
    out = {}
    for forms, _ in glossary_entries():
        pattern = term_pattern(forms)
        out[forms[0]] = next((n for n in sorted(texts) if pattern.search(texts[n])), "—")
    return out


def test_glossary_has_the_issue_terms():
    heads = {forms[0].lower() for forms, _ in glossary_entries()}
    wanted = ["sample space", "exchangeable", "hypergeometric", "likelihood", "posterior", "calibration",
              "brier score", "power", "common random numbers", "wilson interval", "cluster bootstrap",
              "multiple comparisons"]
    assert not [w for w in wanted if w not in heads], f"glossary.md lacks {[w for w in wanted if w not in heads]}"


def test_glossary_says_where_each_term_first_appears():
    """Every term is used in some lesson, and the glossary names the first; "—" flags a term only
    the kit uses (it must then appear in no lesson)."""
    needs_course_numbering()
    found = first_lessons(lesson_texts())
    wrong = [f"{forms[0]!r}: glossary says {stated}, the lessons say {found[forms[0]]}"
             for forms, stated in glossary_entries() if stated != found[forms[0]]]
    assert not wrong, "glossary.md, column 'first appears', is out of date:\n" + "\n".join(wrong)


def test_glossary_terms_are_flagged_or_used():
    needs_course_numbering()
    texts = "\n".join(lesson_texts().values()) + "\n".join(markdown(p) for p in KIT_NOTEBOOKS)
    unused = [forms[0] for forms, _ in glossary_entries() if not term_pattern(forms).search(texts)]
    assert not unused, f"glossary.md defines terms used neither in the lessons nor in the kit: {unused}"


# ---------------------------------------------------------------------------- the kit's files

def test_the_index_lists_every_file_of_the_kit():
    index = (KIT / "README.md").read_text(encoding="utf-8")
    missing = [p.name for p in KIT_FILES if p.name != "README.md" and p.name not in index]
    assert not missing, f"notebooks/teacher/README.md does not list {missing}"


LINK = re.compile(r"\]\(([^)\s]+)\)")
CODE_PATH = re.compile(r"`([\w.-]*/[\w./-]*)`")  # a path in code ticks: it has a slash (a bare file name points nowhere)
OUTSIDE = re.compile(r"(?<![\w.])(?:/work/|/tmp/|/home/|~/|[A-Z]:\\\\)|shared/rules-sources")


def prose_and_all(path: Path) -> tuple[str, str]:
    """(the prose a reader follows, every line of the file): markdown only, and everything."""
    if path.suffix == ".md":
        text = path.read_text(encoding="utf-8")
        return text, text
    return markdown(path), "\n".join(source(c) for c in cells(path))


@pytest.mark.parametrize("path", KIT_FILES, ids=lambda p: p.name)
def test_no_pointer_outside_the_repository(path):
    text, everything = prose_and_all(path)
    bad = OUTSIDE.findall(everything)
    assert not bad, f"{path.name} points outside the repository: {bad}"
    problems = []
    targets = [t for t in LINK.findall(text) if not re.match(r"[a-z]+://|#|mailto:", t)]
    targets += [t for t in CODE_PATH.findall(text) if re.search(r"\w", t) and not t.startswith("gofish_teach.")]
    for target in targets:
        target = target.split("#")[0]
        candidates = [(path.parent / target).resolve(), (ROOT / target).resolve()]
        inside = [c for c in candidates if c == ROOT or ROOT in c.parents]
        if not inside or not any(c.exists() for c in inside):
            problems.append(target)
    assert not problems, f"{path.name} names paths that are not in the repository: {problems}"


# The quiz bank's formulas are the bank items' own: tests/test_quiz.py renders every formula of
# every version of every item (the notebook shows one version), so it is not rendered twice here.
@pytest.mark.parametrize("path", [p for p in KIT_NOTEBOOKS if p.name != "quiz-bank.ipynb"], ids=lambda p: p.name)
def test_kit_formulas_render(path):
    problems = [f"${tex}$: {problem}" for tex in formulas(markdown(path)) for problem in [render_problem(tex)] if problem]
    assert not problems, f"{path.name}: formulas that do not render:\n" + "\n".join(problems)


@pytest.mark.parametrize("path", KIT_NOTEBOOKS, ids=lambda p: p.name)
def test_kit_notebook_is_saved_without_churn(path):
    """As the lessons: no run timings, no widget state, nbformat's layout (``make notebooks``)."""
    import nbformat

    text = path.read_text(encoding="utf-8")
    nb = json.loads(text)
    assert not [i for i, c in enumerate(nb["cells"]) if "execution" in c["metadata"]], f"{path.name}: run timings saved"
    assert "widgets" not in nb["metadata"], f"{path.name}: widget state saved"
    assert text == nbformat.writes(nbformat.reads(text, as_version=4)) + "\n", f"{path.name}: not in nbformat's layout"
    unrun = [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code" and c.get("execution_count") is None]
    assert not unrun, f"{path.name}: cells {unrun} were never run; execute it (make notebooks) and commit the outputs"
