"""The notebooks' prose: formulas that render, no stray control characters, and lessons that
open with learning goals and end with "try it" prompts.

The notebooks' code and outputs are checked by ``pytest --nbval`` (``make test``); this file
checks what nbval cannot see. A formula typed into a Python string as ``"\\binom"`` is stored
with a backspace (``\\b``) instead of a backslash and shows as "Math input error" in
JupyterLab, while the notebook still runs. So every formula in every notebook's markdown is
rendered here, with matplotlib's mathtext (already a dependency; it reads the TeX subset the
lessons use), after a few spellings that only MathJax knows are mapped to mathtext's (see
:data:`MATHJAX_ONLY`).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from matplotlib.mathtext import MathTextParser

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted((ROOT / "notebooks").glob("*.ipynb"))
NOTEBOOKS = LESSONS + sorted((ROOT / "exercises").glob("*.ipynb")) + sorted((ROOT / "solutions").glob("*.ipynb"))

#: MathJax spellings mathtext lacks, and what to render instead (the check is that the formula
#: is well formed, not that it looks the same). Size and style commands are dropped.
MATHJAX_ONLY = [
    (r"\\(?:big|Big|bigg|Bigg)[lrm]?(?![a-zA-Z])", ""),
    (r"\\(?:displaystyle|textstyle|scriptstyle|limits|nolimits|nonumber)(?![a-zA-Z])", ""),
    (r"\\(?:tag|label)\{[^{}]*\}", ""),
    (r"\\le(?![a-zA-Z])", r"\\leq"),
    (r"\\ge(?![a-zA-Z])", r"\\geq"),
    (r"\\[td]frac(?![a-zA-Z])", r"\\frac"),
    (r"\\textbf(?![a-zA-Z])", r"\\mathbf"),
    (r"\\operatorname\*", r"\\operatorname"),
    (r"\\[lr]Vert(?![a-zA-Z])", r"\\|"),
    (r"\\[lr]vert(?![a-zA-Z])", "|"),
    (r"\\land(?![a-zA-Z])", r"\\wedge"),
    (r"\\lor(?![a-zA-Z])", r"\\vee"),
    (r"\\implies(?![a-zA-Z])", r"\\Rightarrow"),
    (r"\\iff(?![a-zA-Z])", r"\\Leftrightarrow"),
    (r"\\bmod(?![a-zA-Z])", r"\\mathrm{mod}"),
    (r"\\pmod\{", r"\\mathrm{mod}\\,{"),
    (r"\\(?:boxed|overbrace|underbrace)\{", "{"),
    (r"\\hspace\{[^{}]*\}", r"\\ "),
    (r"\\&", r"\\mathrm{and}"),
]
#: Environments are rendered row by row: ``\\`` separates rows and ``&`` aligns columns.
ENVIRONMENT = re.compile(r"\\(?:begin|end)\{[a-zA-Z*]+\}(?:\{[a-z|]*\})?")

# Code is not math: fenced blocks and inline code spans are blanked out before searching.
CODE = re.compile(r"```.*?```|~~~.*?~~~|`[^`\n]*`", re.S)
# $$...$$ and \[...\] (display, may span lines); $...$ and \(...\) inline, Pandoc's rule for
# single dollars: no space just inside them and no digit just after (so "$5 and $6" is text).
MATH = re.compile(
    r"\$\$(?P<display>.+?)\$\$"
    r"|\\\[(?P<bracket>.+?)\\\]"
    r"|\\\((?P<paren>.+?)\\\)"
    r"|(?<![\\$])\$(?![\s$])(?P<inline>[^$\n]+?)(?<![\s\\])\$(?!\d)",
    re.S,
)
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # C0 controls and DEL, but tab and newline

_parser = MathTextParser("path")


def markdown_cells(path: Path):
    """(index, source) of each markdown cell of a notebook."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    for i, cell in enumerate(cells):
        if cell["cell_type"] == "markdown":
            source = cell["source"]
            yield i, "".join(source) if isinstance(source, list) else source


def formulas(markdown: str) -> list[str]:
    r"""The TeX of every formula in a markdown text, without its delimiters.

    >>> formulas("Count $\\binom{52}{5}$ hands, not `$x$`, for $5 or $6:\n$$P(A) = 1$$")
    ['\\binom{52}{5}', 'P(A) = 1']
    """
    text = CODE.sub(lambda m: " " * len(m.group()), markdown)
    return [next(g for g in m.groups() if g is not None) for m in MATH.finditer(text)]


def render_problem(tex: str) -> str | None:
    r"""Why ``tex`` does not render (a message), or None if it does.

    >>> render_problem(r"1 - \binom{43}{5} / \binom{47}{5}") is None
    True
    >>> render_problem("1 - \binom{43}{5}")   # typed in a plain string: "\b" is a backspace
    "control character '\\x08' in the formula (was a backslash lost to a Python string escape, like \\b or \\f?)"
    """
    bad = CONTROL.search(tex) or re.search("\t", tex)
    if bad:
        return (f"control character {bad.group()!r} in the formula "
                "(was a backslash lost to a Python string escape, like \\b or \\f?)")
    for pattern, replacement in MATHJAX_ONLY:
        tex = re.sub(pattern, replacement, tex)
    rows = re.split(r"\\\\", ENVIRONMENT.sub(" ", tex)) if ENVIRONMENT.search(tex) else [tex]
    for row in rows:
        row = " ".join(row.replace("&", " ").split())
        if not row:
            continue
        try:
            _parser.parse(f"${row}$")
        except ValueError as e:
            return str(e).strip().splitlines()[-1]
    return None


def _label(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_label)
def test_markdown_has_no_control_characters(path):
    for i, source in markdown_cells(path):
        bad = CONTROL.search(source)
        assert not bad, (f"{_label(path)}, markdown cell {i}: control character {bad.group()!r} near "
                         f"{source[max(0, bad.start() - 30):bad.end() + 30]!r}; a backslash lost to a Python "
                         "string escape (\\b, \\f, \\a, \\v) leaves one of these")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_label)
def test_every_formula_renders(path):
    problems = []
    for i, source in markdown_cells(path):
        for tex in formulas(source):
            problem = render_problem(tex)
            if problem:
                problems.append(f"markdown cell {i}: ${tex}$: {problem}")
    assert not problems, f"{_label(path)}: formulas that do not render:\n" + "\n".join(problems)


@pytest.mark.parametrize("path", LESSONS, ids=_label)
def test_lesson_opens_with_learning_goals(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    first = "".join(cells[0]["source"]) if cells else ""
    assert cells and cells[0]["cell_type"] == "markdown" and re.search(r"learning goals?", first, re.I), (
        f"{_label(path)}: the first cell should be markdown stating the learning goals "
        "(e.g. '**Learning goals.** By the end of this lesson you can ...')")


@pytest.mark.parametrize("path", LESSONS, ids=_label)
def test_lesson_ends_with_try_it(path):
    last = [source for _, source in markdown_cells(path)][-1:]
    assert last and re.search(r"^#+\s*try it\b", last[0], re.I | re.M), (
        f"{_label(path)}: the last markdown cell should hold a '## Try it' section of prompts for the class")


@pytest.mark.parametrize("path", LESSONS, ids=_label)
def test_lesson_is_saved_without_churn(path):
    """Opening and saving a lesson in JupyterLab must not change it for git: no run timings,
    no widget state (its model ids are random), the kernel's own display name, and
    nbformat's JSON layout. ``make notebooks`` executes them that way."""
    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager

    text = path.read_text(encoding="utf-8")
    nb = json.loads(text)
    spec = nb["metadata"]["kernelspec"]
    assert spec["display_name"] == KernelSpecManager().get_kernel_spec(spec["name"]).display_name, (
        f"{_label(path)}: kernelspec display_name {spec['display_name']!r} is not the kernel's own")
    timed = [i for i, cell in enumerate(nb["cells"]) if "execution" in cell["metadata"]]
    assert not timed, f"{_label(path)}: cells {timed} hold run timings; execute with record_timing=False (make notebooks)"
    assert "widgets" not in nb["metadata"], f"{_label(path)}: widget state saved; execute with store_widget_state=False"
    assert text == nbformat.writes(nbformat.reads(text, as_version=4)) + "\n", f"{_label(path)}: not in nbformat's layout"


def test_the_guide_lists_every_lesson():
    guide = (ROOT / "notebooks" / "README.md").read_text(encoding="utf-8")
    missing = [path.name for path in LESSONS if path.name not in guide]
    assert not missing, f"notebooks/README.md (the teacher's guide) does not mention {', '.join(missing)}"


def test_the_check_catches_the_backspace_bug():
    # The welcome notebook once stored "\binom" as a backspace and "inom"; it must fail here.
    assert render_problem("1 - \binom{43}{5}")  # not a raw string on purpose: "\b" is a backspace
    assert render_problem(r"\frac{1}{2") is not None  # an unclosed brace is caught by the renderer
    assert formulas("no math, just $5 and $6, and `a $b$ c`") == []
