"""``make handouts``: one PDF per lesson and exercise sheet, printed by headless Chromium.

The PDFs are written once per test run (``gofish-teach handouts DIR``, the command the
Makefile runs) and read back with poppler's ``pdftotext``, ``pdfimages`` and ``pdfinfo``
(Debian's ``poppler-utils``, which ``.ci/run`` installs beside Chromium).
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from gofish_teach.course import notebooks
from gofish_teach.handouts import HIDE_INPUT, WIDGET, for_paper, pdf_name, title

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
    figures = sum(1 for cell in nb.cells for o in cell.get("outputs", []) if "image/png" in o.get("data", {}))
    assert _images(pdf) == figures
    low, high = PAGES[rel.split("/")[0].rstrip("s")]
    assert low <= _pages(pdf) <= high, f"{pdf.name}: {_pages(pdf)} pages"
    assert "Traceback" not in text and "NBVAL" not in text

    paper = for_paper(nb)
    widgets = sum(1 for cell in nb.cells for o in cell.get("outputs", []) if WIDGET in o.get("data", {}))
    assert text.count("Run the notebook in Jupyter to use it.") == widgets
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
