"""``make handouts``: one PDF per lesson and exercise sheet, printed by headless Chromium.

The PDFs are written once per test run (``gofish-teach handouts DIR``, the command the
Makefile runs) and read back with poppler's ``pdftotext``, ``pdfimages`` and ``pdfinfo``
(Debian's ``poppler-utils``, which ``.ci/run`` installs beside Chromium).
"""
from __future__ import annotations

import html
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from gofish_teach.teacher.course import notebooks
from gofish_teach.teacher.handouts import (
    HIDE_INPUT,
    WIDGET,
    _exporter,
    for_paper,
    handout_html,
    lesson_question,
    pdf_name,
    title,
)
from gofish_teach.widgets.question_bank import read_source

ROOT = Path(__file__).resolve().parent.parent
POPPLER = ("pdftotext", "pdfimages", "pdfinfo")
#: Pages a printed notebook may take: a lesson is a few pages of prose, code and figures.
PAGES = {"lesson": (2, 30), "exercise": (1, 6)}
COURSE = notebooks()


def _tool(name: str) -> str:
    found = shutil.which(name)
    if not found:
        pytest.skip(f"no {name}: install Debian's poppler-utils (`apt-get install -y poppler-utils`; .ci/run does)")
    return found


@pytest.fixture(scope="session")
def handouts(tmp_path_factory) -> Path:
    for name in POPPLER:
        _tool(name)
    if not Path("/usr/bin/chromium").exists() and not shutil.which("chromium"):
        pytest.skip("no Chromium: `apt-get install -y chromium` (as root; .ci/run does this)")
    out = tmp_path_factory.mktemp("handouts") / "handouts"
    result = subprocess.run([sys.executable, "-m", "gofish_teach", "handouts", str(out)], cwd=ROOT,
                            capture_output=True, text=True, timeout=1800)
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"{len(COURSE)} PDFs in {out}/" in result.stdout
    return out


def _text(pdf: Path) -> str:
    return subprocess.run([_tool("pdftotext"), "-layout", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout


def _images(pdf: Path) -> int:
    listing = subprocess.run([_tool("pdfimages"), "-list", str(pdf)], capture_output=True, text=True,
                             check=True).stdout.splitlines()[2:]
    return sum(1 for row in listing if row.split()[2] == "image")   # not "smask" (an image's alpha)


def _pages(pdf: Path) -> int:
    info = subprocess.run([_tool("pdfinfo"), str(pdf)], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))


def _words(text: str) -> str:
    return " ".join(text.split())


def test_one_pdf_per_lesson_and_exercise_and_nothing_else(handouts):
    assert sorted(p.name for p in handouts.iterdir()) == sorted(pdf_name(rel) for rel in COURSE)
    assert len([rel for rel in COURSE if rel.startswith("lessons/")]) == len(list(ROOT.glob("notebooks/*.ipynb")))


@pytest.mark.parametrize("rel", list(COURSE), ids=list(COURSE))
def test_each_handout_has_its_title_figures_and_a_sensible_length(handouts, rel):
    pdf, nb = handouts / pdf_name(rel), nbformat.read(COURSE[rel], as_version=4)
    text = _words(_text(pdf))
    assert _words(title(nb)) in text
    paper = for_paper(nb)
    figures = sum(1 for cell in paper.cells for o in cell.get("outputs", []) if "image/png" in o.get("data", {}))
    assert _images(pdf) == figures
    low, high = PAGES[rel.split("/")[0].rstrip("s")]
    assert low <= _pages(pdf) <= high, f"{pdf.name}: {_pages(pdf)} pages"
    assert "Traceback" not in text and "NBVAL" not in text
    assert "raised NotImplementedError" not in text and "cases right" not in text

    widgets = sum(1 for cell in nb.cells for o in cell.get("outputs", []) if WIDGET in o.get("data", {})
                  and not (lesson_question(cell.source) if "Question(" in cell.source else None))
    assert text.count("Run the notebook in Jupyter to use it.") == widgets
    for qid, secret in _secrets():
        assert _words(secret) not in text, f"{pdf.name} prints the answer of {qid}"
    # The code that only draws a figure is folded away: its last line (plt.show(), a plot call) is not printed,
    # unless the same line also belongs to a cell that is printed.
    hidden = {c.source.strip().splitlines()[-1] for c in paper.cells if HIDE_INPUT in c.metadata.get("tags", [])}
    shown = "\n".join(c.source for c in paper.cells if c.cell_type == "code" and HIDE_INPUT not in c.metadata.get("tags", []))
    for line in hidden - {ln for ln in shown.splitlines()}:
        assert _words(line) not in text, f"{pdf.name} prints the figure code {line!r}"


def test_the_makefile_prints_with_the_same_command():
    dry = subprocess.run(["make", "-n", "handouts"], cwd=ROOT, capture_output=True, text=True)
    assert ".venv/bin/gofish-teach handouts handouts" in dry.stdout
    assert "/handouts/" in (ROOT / ".gitignore").read_text().splitlines()


# ---------------------------------------------------------------- the two editions, as HTML (no Chromium needed)
def _secrets():
    for qid, q in read_source().items():
        yield qid, q["explain"]
        yield from ((qid, why) for why in q.get("wrong", {}).values())


def _plain(page: str) -> str:
    return _words(html.unescape(re.sub(r"<[^>]+>", " ", page)))


@pytest.fixture(scope="module")
def editions():
    exporter = _exporter()
    return {rel: (handout_html(src, exporter), handout_html(src, exporter, key=True) if rel.startswith("lessons/") else "")
            for rel, src in COURSE.items()}


def test_the_learners_handouts_hold_no_answer_and_the_keys_hold_every_one(editions):
    learner = {rel: _plain(page) for rel, (page, _) in editions.items()}
    keys = " ".join(_plain(key) for _, key in editions.values())
    for qid, secret in _secrets():
        for rel, text in learner.items():
            assert _words(secret) not in text, f"the learner's handout of {rel} prints the answer of {qid}"
        assert _words(secret) in keys, f"no teacher's key prints {qid}'s {secret[:40]!r}"
    questions = sum(page.count("Your answer: ___") for page, _ in editions.values())
    assert questions == len(read_source())
    assert all("Teacher's key" in _plain(key) for rel, (_, key) in editions.items() if key)


def test_results_wait_in_the_learners_handout_and_are_printed_in_the_key(editions):
    page, key = editions["lessons/00-welcome.ipynb"]
    assert page.count("the result appears here once you have answered") >= 4
    assert "(15, [(1, " not in _plain(page) and "(15, [(1, " in _plain(key)  # lesson 00's count of asks
    assert "this cell waits for it" not in _plain(page)  # the learner's copy's reveal line: the sentence says it


def test_the_key_prints_each_results_discussion_marked_and_the_learners_edition_none(editions):
    """The cells tagged ``answers:ID``: in the teacher's edition, each marked as a result's discussion; in the
    learner's, none of them, and the note at the top says which edition it is."""
    for rel, (page, key) in editions.items():
        if not rel.startswith("lessons/"):
            continue
        cells = nbformat.read(COURSE[rel], as_version=4).cells
        tagged = [c for c in cells if any(t.startswith("answers:") for t in c.metadata.get("tags", []))]
        assert tagged, rel
        assert len(re.findall(r'class="[^"]*celltag_answers:', key)) == len(tagged), rel
        assert not re.search(r'class="[^"]*celltag_answers:', page), rel
        assert "Learner's edition" in _plain(page) and "Teacher's edition" not in _plain(page), rel
        assert "Teacher's edition, with the answers" in _plain(key), rel
        assert 'content: "Result and discussion (teacher\'s edition)"' in key
        assert page.count("Your answer: " + "_" * 30) == page.count("<p>Why:</p>") > 0, rel


def test_a_stubs_check_is_a_sentence_not_pages_of_failures(editions):
    for rel, (page, _) in editions.items():
        text = _plain(page)
        assert "raised NotImplementedError" not in text and "cases right" not in text, rel
    assert "checks your function on several cases" in _plain(editions["exercises/01-deal.ipynb"][0])


@pytest.mark.parametrize("rel", ["lessons/01-play-and-rules.ipynb", "lessons/03-fishing-from-the-ocean.ipynb"])
def test_wide_tables_keep_their_columns(editions, rel):
    """Lesson 01's preset table and lesson 03's variance table: smaller type, one line per row, never wrapped."""
    from gofish_teach.teacher.handouts import FIT_COLUMNS

    page = "".join(editions[rel])  # lesson 03's table is a result: in the key only
    wide = re.findall(r'<pre class="handout-wide" style="font-size: ([\d.]+)pt">(.*?)</pre>', page, re.S)
    assert wide
    for size, text in wide:
        widest = max(len(line) for line in html.unescape(re.sub(r"<[^>]+>", "", text)).splitlines())
        assert widest > FIT_COLUMNS and float(size) * widest <= 8.5 * FIT_COLUMNS + 1
    assert "pre.handout-wide { white-space: pre !important" in page


def test_long_code_lines_are_printed_smaller_or_hang_under_their_start(editions):
    """browser-3 N10: a code line wider than the page is never broken at the margin to read as a line of its own."""
    from gofish_teach.teacher.handouts import FIT_COLUMNS, SMALLEST_CODE_PT

    seen = {"fit": 0, "smaller": 0, "hanging": 0}
    for rel, pages in editions.items():
        for page in filter(None, pages):
            for css, text in re.findall(r'<div class="highlight[^"]*">\s*<pre([^>]*)>(.*?)</pre>', page, re.S):
                lines = html.unescape(re.sub(r"<[^>]+>", "", text.replace('</span><span class="handout-line">', "\n"))).splitlines()
                widest = max(map(len, lines))
                if widest <= FIT_COLUMNS:
                    assert css == "", rel
                    seen["fit"] += 1
                    continue
                size = float(re.search(r"font-size: ([\d.]+)pt", css).group(1))
                if 'class="handout-wide"' in css:
                    assert size * widest <= 8.5 * FIT_COLUMNS + 1, (rel, lines)
                    seen["smaller"] += 1
                else:  # too long even at the smallest size: each line a block, wrapped under its own start
                    assert 'class="handout-wrapped"' in css and size == SMALLEST_CODE_PT, (rel, css)
                    assert text.count('<span class="handout-line">') == len(lines), rel
                    seen["hanging"] += 1
    print("code cells:", seen)
    assert seen["smaller"] > 10 and seen["hanging"] >= 1
    assert ".handout-line { display: block; white-space: pre-wrap; padding-left: 4ch; text-indent: -4ch; }" in page


def test_the_learners_handouts_answer_no_question_before_it_is_asked(handouts):
    """Issue 43's "Done when", on paper: in a learner's PDF, no needle of its lesson's questions (nor of a later
    lesson's) but in the question itself (see ``answer_leaks``; ``test_predict_first_leaks`` for the notebooks)."""
    from answer_leaks import LESSONS, leaks_in_text, needles, question_cell

    wanted = needles()
    asked = {}
    for path in LESSONS:
        cells = nbformat.read(path, as_version=4).cells
        for qid, n in wanted.items():
            if n.lesson == path.name:
                asked[qid] = lesson_question(cells[question_cell(cells, qid)].source).text()
    order = [p.name for p in LESSONS]
    checked = 0
    for path in LESSONS:
        text = _words(_text(handouts / pdf_name(f"lessons/{path.name}")))
        mine = {q: n for q, n in wanted.items() if order.index(n.lesson) >= order.index(path.name)}
        found = leaks_in_text(text, mine, allowed=asked)
        assert found == [], f"lesson-{path.stem}.pdf: " + "; ".join(f"{q}: {needle!r}" for q, needle in found)
        checked += sum(len(n.words) + len(n.forms) for q, n in mine.items() if n.lesson == path.name)
    print(f"{checked} needles of {len(wanted)} questions, none in a learner's handout")


def test_long_code_lines_print_on_one_line(handouts):
    """In the PDF, each code line that fits at the smaller size is one line of text, as in the notebook."""
    from gofish_teach.teacher.handouts import FIT_COLUMNS, NORMAL_PT, SMALLEST_CODE_PT

    checked = 0
    for rel, src in COURSE.items():
        paper = for_paper(nbformat.read(src, as_version=4))
        long = [line for c in paper.cells if c.cell_type == "code" and HIDE_INPUT not in c.metadata.get("tags", [])
                for line in c.source.splitlines() if FIT_COLUMNS < len(line) <= FIT_COLUMNS * NORMAL_PT / SMALLEST_CODE_PT]
        printed = {_words(line) for line in _text(handouts / pdf_name(rel)).splitlines()}
        for line in long:
            assert _words(line) in printed, f"{pdf_name(rel)} breaks the line {line!r}"
            checked += 1
    print(f"{checked} long code lines, each printed on one line")
    assert checked > 20
