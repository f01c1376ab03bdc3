"""Printable handouts: one PDF per lesson and per exercise sheet, from the saved notebooks.

``make handouts`` (or ``gofish-teach handouts DIR``) exports each notebook of the course (the
lessons and the exercise sheets, never the solutions: see :mod:`gofish_teach.teacher.course`) to HTML
with nbconvert and prints it to PDF with headless Chromium; no LaTeX. For paper:

- a code cell whose only output is a figure shows the figure, not the code that draws it;
- a widget (nothing to click on paper) becomes a sentence saying what it does on screen;
- formulas are MathML (``latex2mathml``), which Chromium draws without fetching MathJax;
- no prompts, no test markers (``# NBVAL_...``), A4 pages;
- a text table wider than the page is printed smaller, never wrapped (:func:`fit_tables`); so is a
  code cell with a long line, and a line too long even for that wraps under itself, indented
  (:func:`fit_code`);
- a check's saved report of the unfinished stub is a sentence, not pages of "NotImplementedError";
- the learner's edition is the learner's copy (:func:`~gofish_teach.teacher.course.learner_cells`):
  no answer, no result and no discussion of one, room to answer each question; ``--key`` prints
  the teacher's edition, with them all, each result's discussion marked as such (:func:`for_paper`).

>>> import nbformat
>>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("plt.plot(x);", outputs=[
...     nbformat.v4.new_output("display_data", {"image/png": "iVBORw0KGgo=", "text/plain": "<Figure>"})])])
>>> for_paper(nb).cells[0].metadata.tags
['handout-hide-input']
>>> widget = {"application/vnd.jupyter.widget-view+json": {"model_id": "1"}, "text/plain": "Table('pond')"}
>>> nb.cells[0].outputs = [nbformat.v4.new_output("execute_result", widget, execution_count=1)]
>>> print(widget_sentence(nb.cells[0].outputs[0]))
On screen, the interactive Table appears here: a game of Go Fish against bots, played by clicking. Run the notebook in Jupyter to use it.
>>> "<mfrac" in mathml("\\\\frac{2}{47}"), mathml("\\\\frac{2}{47}", display=True).count('display="block"')
(True, 1)
"""
from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from .course import REVEAL_LINE, learner_cells, notebooks

HIDE_INPUT = "handout-hide-input"
WIDGET = "application/vnd.jupyter.widget-view+json"
#: Lines that only tell the tests something (nbval's markers), not the reader.
TEST_MARKER = re.compile(r"^\s*# NBVAL_[A-Z_]+\s*\n?", re.M)
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--no-pdf-header-footer"]
PRINT_CSS = """
@page { size: A4; margin: 15mm 14mm 16mm 14mm; }
body { font-size: 11pt; }
.jp-Notebook { padding: 0 !important; }
.jp-Cell { break-inside: auto; padding: 2px 0 !important; }
.jp-OutputArea-output img, .jp-RenderedImage img { max-width: 100% !important; height: auto; break-inside: avoid; }
.jp-OutputArea-child, .jp-RenderedImage { break-inside: avoid; }
h1, h2, h3 { break-after: avoid; }
pre { white-space: pre-wrap !important; word-break: break-word; }
.jp-InputArea-editor pre, .jp-OutputArea-output pre { font-size: 8.5pt; }
pre.handout-wide { white-space: pre !important; word-break: normal; overflow: visible; }
.handout-line { display: block; white-space: pre-wrap; padding-left: 4ch; text-indent: -4ch; }
.handout-answer { font-size: 11pt; margin: 0.8em 0; }
.handout-rule { border-bottom: 1px solid #999; height: 1.9em; }
.jp-Cell:has(.handout-answer), .jp-Cell:has(.handout-key) { break-inside: avoid; }
.jp-MarkdownOutput[class*="celltag_answers:"] { border-left: 4px solid #555; background: #f7f7f7; padding: 2px 8px; }
.jp-MarkdownOutput[class*="celltag_answers:"]::before { content: "Result and discussion (teacher's edition)";
    display: block; font-weight: bold; font-size: 9pt; color: #333; }
.handout-key { border-left: 4px solid #555; padding: 2px 8px; background: #f7f7f7; }
.jp-InputArea-editor { border: 1px solid #ddd; }
math[display="block"] { margin: 0.6em 0; }
.handout-widget { border: 1px dashed #888; border-radius: 4px; padding: 0.5em 0.8em; font-style: italic;
                  background: #f7f7f7; }
"""


def mathml(tex: str, display: bool = False) -> str:
    """A formula as MathML, or its TeX in a code span if the converter does not know a command."""
    from latex2mathml.converter import convert

    try:
        return convert(tex, display="block" if display else "inline")
    except Exception:  # noqa: BLE001 - an unknown command prints as TeX rather than stopping the handout
        return f"<code>{html.escape(tex)}</code>"


def _widget_doc(name: str) -> str | None:
    from .. import widgets

    cls = getattr(widgets, name, None)
    doc = (getattr(cls, "__doc__", None) or "").strip()
    return doc.splitlines()[0] if isinstance(cls, type) and doc else None


def widget_sentence(output) -> str:
    """What a widget output does on screen, in one sentence (its class's docstring summary)."""
    shown = output.get("data", {}).get("text/plain", "")
    shown = "".join(shown) if isinstance(shown, list) else shown
    named = output.get("metadata", {}).get("gofish_teach", {}).get("widget")  # the kit's widgets say their class
    name = re.match(r"\s*([A-Za-z_]\w*)\(", shown if named is None else f"{named}(")
    summary = _widget_doc(name.group(1)) if name else None
    if summary:
        summary = summary[0].lower() + summary[1:]
        return (f"On screen, the interactive {name.group(1)} appears here: {summary.rstrip('.')}. "
                f"Run the notebook in Jupyter to use it.")
    return "On screen, an interactive control appears here. Run the notebook in Jupyter to use it."


def _only_figures(cell) -> bool:
    outputs = cell.get("outputs", [])
    return bool(outputs) and all(o.get("output_type") in ("display_data", "execute_result")
                                 and any(k.startswith("image/") for k in o.get("data", {})) for o in outputs)


def _note(text: str, css: str = "handout-widget"):
    import nbformat

    return nbformat.v4.new_output("display_data", {"text/html": f'<p class="{css}">{text}</p>',
                                                   "text/plain": html.unescape(re.sub("<[^>]+>", "", text))})


def lesson_question(source: str):
    """The :class:`~gofish_teach.widgets.Question` a lesson's question cell builds (None if it is not one)."""
    import ast

    from ..widgets import Question

    try:
        call = ast.parse(source).body[-1].value
        if not (isinstance(call, ast.Call) and getattr(call.func, "id", "") == "Question"):
            return None
        return Question(ast.literal_eval(call.args[0]), **{k.arg: ast.literal_eval(k.value) for k in call.keywords})
    except Exception:  # noqa: BLE001 - not a lesson's question cell: printed as it is
        return None


def _key_html(q) -> str:
    """The teacher's key under a question: the answer, the explanation, and what each usual wrong answer hears."""
    from ..widgets import LETTERS, show_number

    parts = [f"<b>Key.</b> The answer is {html.escape(q.shown_answer())}. {html.escape(q.explain)}"]
    for k, why in q.wrong.items():
        said = f"{LETTERS[k]}" if q.kind == "choice" else show_number(k)
        parts.append(f"<i>If {html.escape(said)}:</i> {html.escape(why)}")
    return "<br>".join(parts)


#: What a learner's handout prints where the screen shows an output once the cell has run.
WAITS = {"result": "On screen, the result appears here once you have answered the question above and run this cell.",
         "figure": "On screen, a figure appears here once you have answered the questions above it and run this cell.",
         "output": "On screen, this cell's output appears here once you have answered the questions above it and "
                   "run this cell.",
         "check": "On screen, running this cell checks your function on several cases and says which are right."}
_SAVED = "gofish_teach_saved_output"
#: The lines a learner's copy puts at the top of a result cell (:data:`~gofish_teach.teacher.course.REVEAL_LINE`).
_REVEALED = re.compile(r"\A" + re.escape(REVEAL_LINE.split("{ids}")[0]) + r".*\n")
#: The learner's room to answer a question on paper.
ANSWER_ROOM = ('<div class="handout-answer"><p>Your answer: ' + "_" * 30 + '</p><p>Why:</p>'
               '<div class="handout-rule"></div><div class="handout-rule"></div></div>')


def for_paper(nb, key: bool = False):
    """A copy of the notebook ready to print: figures without their code, widgets as sentences.

    The learner's edition (``key=False``) is the learner's copy of the lesson
    (:func:`~gofish_teach.teacher.course.learner_cells`): no cell that discusses a result (tagged
    ``answers:ID``), no saved output below the first question; a question has room for the answer
    and the reason, and where the screen shows an output once the cell has run, a sentence says so.
    The teacher's edition (``key=True``) prints every result and its discussion, and under each
    question its answer, explanation and the feedback for the usual wrong answers. In both, a
    check whose saved output is the stub's report ("raised NotImplementedError ... 0 of 6 cases
    right") is a sentence.
    """
    import nbformat

    nb = nbformat.from_dict(nb)
    nb = nbformat.reads(nbformat.writes(nb), as_version=4)
    if not key:  # each code cell remembers what its saved output was, which the learner's copy leaves out
        for cell in nb.cells:
            if cell.cell_type == "code" and cell.get("outputs"):
                cell.metadata[_SAVED] = ("figure" if _only_figures(cell) else
                                         "check" if "NotImplementedError" in str(cell.outputs) else "output")
        nb = nbformat.reads(json.dumps(learner_cells(nb)), as_version=4)
    holding = False  # inside a question's result cells
    for cell in nb.cells:
        if cell.cell_type != "code":
            holding = False
            continue
        reveals = cell.metadata.get("gofish_teach", {}).get("reveals")
        if reveals:
            holding = True
            cell.source = _REVEALED.sub("", cell.source)  # on paper the sentence below says it waits
        cell.source = TEST_MARKER.sub("", cell.source)
        was = cell.metadata.pop(_SAVED, None)
        if _only_figures(cell) or was == "figure":
            cell.metadata.setdefault("tags", []).append(HIDE_INPUT)
        if was and not cell.get("outputs"):  # left out of the learner's copy
            cell.outputs = [_note(WAITS["result" if holding else was])]
            continue
        if any("NotImplementedError" in str(o) for o in cell.get("outputs", [])):
            cell.outputs = [_note(WAITS["check"])]
            continue
        # the kit's note before a widget ("... appears here once this cell has run") is for the screen
        cell.outputs = [o for o in cell.get("outputs", []) if "gf-placeheld" not in str(o.get("data", {}).get("text/html"))]
        question = lesson_question(cell.source) if "Question(" in cell.source else None
        if question is not None:  # on paper the code is the question again: print the question once
            cell.metadata.setdefault("tags", []).append(HIDE_INPUT)
        for i, output in enumerate(cell.get("outputs", [])):
            if WIDGET in output.get("data", {}):
                if question is not None:
                    cell.outputs[i] = (_note(_key_html(question), "handout-key") if key else
                                       nbformat.v4.new_output("display_data", {
                                           "text/html": ANSWER_ROOM,
                                           "text/plain": "Your answer: " + "_" * 30 + "\nWhy:"}))
                    continue
                sentence = html.escape(widget_sentence(output))
                cell.outputs[i] = nbformat.v4.new_output(
                    "display_data", {"text/html": f'<p class="handout-widget">{sentence}</p>', "text/plain": sentence})
    return nb


def _exporter():
    from jinja2 import pass_context
    from nbconvert import HTMLExporter
    from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath
    from traitlets.config import Config

    class PaperRenderer(IPythonRenderer):
        def inline_math(self, body):
            return mathml(body)

        def block_math(self, body):
            return mathml(body, display=True)

        def multiline_math(self, text):
            return mathml(text.strip().strip("$"), display=True)

        def latex_environment(self, name, body):
            return mathml(f"\\begin{{{name}}}{body}\\end{{{name}}}", display=True)

    class PaperExporter(HTMLExporter):
        @pass_context
        def markdown2html(self, context, source):
            cell = context.get("cell", {})
            renderer = PaperRenderer(escape=False, attachments=cell.get("attachments", {}), embed_images=True,
                                     exclude_anchor_links=True, **self.lexer_options)
            return MarkdownWithMath(renderer=renderer).render(source)

    config = Config()
    config.TagRemovePreprocessor.enabled = True
    config.TagRemovePreprocessor.remove_input_tags = {HIDE_INPUT}
    config.HTMLExporter.exclude_input_prompt = True
    config.HTMLExporter.exclude_output_prompt = True
    config.HTMLExporter.embed_images = True
    return PaperExporter(config=config, template_name="lab")


#: Scripts the template loads from the network (MathJax, require.js, widgets): the handout needs none.
_REMOTE_SCRIPT = re.compile(r"<script[^>]*\bsrc=\"https?://[^\"]*\"[^>]*>\s*</script>", re.S)
_MATHJAX_CONFIG = re.compile(r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", re.S)


def title(nb) -> str:
    """The notebook's first heading, as text."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            found = re.search(r"^#+\s+(.+)$", cell.source, re.M)
            if found:
                return found.group(1).strip()
    return "Go Fish"


#: The widest text line that prints at the normal size on an A4 page, and the smallest size a wide one gets.
FIT_COLUMNS, SMALLEST_PT, NORMAL_PT = 92, 5.5, 8.5
_TEXT_OUTPUT = re.compile(r'(<div class="jp-RenderedText[^"]*"[^>]*>\s*)<pre>(.*?)</pre>', re.S)


def fit_tables(body: str) -> str:
    """Give a text output wider than the page a smaller font, so a table keeps its columns instead of wrapping.

    >>> wide = '<div class="jp-RenderedText jp-OutputArea-output" data-mime-type="text/plain"><pre>' + "x" * 184 + '</pre>'
    >>> fit_tables(wide).split("<pre")[1][:58]
    ' class="handout-wide" style="font-size: 5.5pt">xxxxxxxxxxx'
    >>> fit_tables(wide.replace("x" * 184, "x" * 60)) == wide.replace("x" * 184, "x" * 60)
    True
    """
    def fit(match):
        text = html.unescape(re.sub(r"<[^>]+>", "", match.group(2)))
        widest = max((len(line) for line in text.splitlines()), default=0)
        if widest <= FIT_COLUMNS:
            return match.group(0)
        size = max(SMALLEST_PT, int(NORMAL_PT * FIT_COLUMNS / widest * 10) / 10)
        return f'{match.group(1)}<pre class="handout-wide" style="font-size: {size}pt">{match.group(2)}</pre>'
    return _TEXT_OUTPUT.sub(fit, body)


#: The smallest size a code cell with long lines is printed at; a line longer still wraps, indented.
SMALLEST_CODE_PT = 6.0
_CODE = re.compile(r'(<div class="highlight[^"]*">\s*)<pre>(.*?)</pre>', re.S)


def fit_code(body: str) -> str:
    """Print a code cell with a line wider than the page smaller, so its lines are not broken.

    A line too long even at :data:`SMALLEST_CODE_PT` wraps, and its continuation is indented
    under it (each line a block with a hanging indent), so it cannot be read as a line of its own.

    >>> code = '<div class="highlight hl-ipython3"><pre><span class="n">x</span> = 1\\n' + "y" * 110 + '</pre></div>'
    >>> fit_code(code).split("<pre")[1][:47]
    ' class="handout-wide" style="font-size: 7.1pt">'
    >>> "handout-line" in fit_code(code.replace("y" * 110, "y" * 160))
    True
    >>> fit_code(code.replace("y" * 110, "y" * 80)) == code.replace("y" * 110, "y" * 80)
    True
    """
    def fit(match):
        lines = match.group(2).split("\n")
        widest = max(len(html.unescape(re.sub(r"<[^>]+>", "", line))) for line in lines)
        if widest <= FIT_COLUMNS:
            return match.group(0)
        size = max(SMALLEST_CODE_PT, int(NORMAL_PT * FIT_COLUMNS / widest * 10) / 10)
        inner = match.group(2)
        fits = widest * size <= FIT_COLUMNS * NORMAL_PT
        balanced = all(line.count("<span") == line.count("</span>") for line in lines)
        if not fits and balanced:  # one block per line: a wrapped line hangs under its start
            inner = "".join(f'<span class="handout-line">{line or " "}</span>' for line in lines)
        css = "handout-wide" if fits else "handout-wrapped"
        return f'{match.group(1)}<pre class="{css}" style="font-size: {size}pt">{inner}</pre>'
    return _CODE.sub(fit, body)


def handout_html(path: Path, exporter=None, key: bool = False) -> str:
    """The printable HTML of one notebook: the learner's edition, or with ``key`` the teacher's."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    name = title(nb) + (" (teacher's key)" if key else "")
    body, _ = (exporter or _exporter()).from_notebook_node(for_paper(nb, key=key), resources={"metadata": {"name": name}})
    body = fit_code(fit_tables(_MATHJAX_CONFIG.sub("", _REMOTE_SCRIPT.sub("", body))))
    if key:
        banner = ('<p class="handout-key"><b>Teacher&#39;s key</b>: the answers and the results the learners\' '
                  "handouts hold back. Not for learners.</p>")
        body = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + banner, body, count=1)
    return body.replace("</head>", f"<style>{PRINT_CSS}</style>\n</head>", 1)


def find_chromium() -> str:
    """``/usr/bin/chromium`` (Debian's ``chromium`` package), another Chromium on the PATH, or Playwright's."""
    for candidate in ("/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser"),
                      shutil.which("google-chrome")):
        if candidate and Path(candidate).exists():
            return candidate
    try:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            path = Path(p.chromium.executable_path)
        if path.exists():
            return str(path)
    except Exception:  # noqa: BLE001 - no Playwright, or its browser not installed: say how below
        pass
    raise ValueError("no Chromium to print with: install one with `apt-get install -y chromium` "
                     "or `.venv/bin/playwright install chromium`")


def print_pdf(page: Path, pdf: Path, chromium: str) -> None:
    """Print an HTML file to PDF with headless Chromium (its own profile, so it runs beside others)."""
    with tempfile.TemporaryDirectory(prefix="gofish-chromium-") as profile:
        result = subprocess.run([chromium, *CHROMIUM_ARGS, f"--user-data-dir={profile}", f"--print-to-pdf={pdf}",
                                 page.resolve().as_uri()], capture_output=True, text=True, timeout=300)
    if result.returncode != 0 or not pdf.exists() or pdf.stat().st_size == 0:
        raise RuntimeError(f"Chromium could not print {page.name}: {result.stderr[-1500:]}")


def pdf_name(rel: str, key: bool = False) -> str:
    """``lessons/00-welcome.ipynb`` -> ``lesson-00-welcome.pdf`` (``-key.pdf``: the teacher's); exercises likewise.

    >>> pdf_name("lessons/03-fishing-from-the-ocean.ipynb"), pdf_name("exercises/01-deal.ipynb", key=True)
    ('lesson-03-fishing-from-the-ocean.pdf', 'exercise-01-deal-key.pdf')
    """
    folder, name = rel.split("/")
    return f"{folder.rstrip('s')}-{Path(name).stem}{'-key' if key else ''}.pdf"


def make_handouts(out: Path, chromium: str | None = None, log=None, key: bool = False) -> list[Path]:
    """Write one PDF per lesson and exercise sheet into ``out`` (``key``: the teacher's edition); their paths."""
    chromium = chromium or find_chromium()
    out.mkdir(parents=True, exist_ok=True)
    exporter, written = _exporter(), []
    with tempfile.TemporaryDirectory(prefix="gofish-handouts-") as tmp:
        for rel, source in notebooks().items():
            page = Path(tmp, pdf_name(rel, key)).with_suffix(".html")
            page.write_text(handout_html(source, exporter, key=key), encoding="utf-8")
            pdf = out / pdf_name(rel, key)
            print_pdf(page, pdf, chromium)
            written.append(pdf)
            if log:
                print(f"  {pdf}", file=log, flush=True)
    return written


def add_command(commands) -> None:
    """The ``handouts`` command."""
    cmd = commands.add_parser(
        "handouts", help="print the lessons and exercise sheets to PDF, for paper",
        description="Write one PDF per lesson and per exercise sheet (no solutions) into DIR, from the saved "
                    "notebooks, with headless Chromium (no LaTeX).")
    cmd.add_argument("folder", type=Path, metavar="DIR", nargs="?", default=Path("handouts"),
                     help="where to write the PDFs (default: handouts)")
    cmd.add_argument("--chromium", metavar="PATH", default=None,
                     help="the Chromium to print with (default: /usr/bin/chromium, or one on the PATH)")
    cmd.add_argument("--key", action="store_true",
                     help="the teacher's edition (NAME-key.pdf): every question's answer and explanation, and "
                          "the results the learner's edition holds back; not for learners")
    cmd.set_defaults(run=run_handouts)


def run_handouts(args, out) -> None:
    edition = "teacher's keys" if args.key else "handouts"
    print(f"Writing {edition} to {args.folder}/ ...", file=out, flush=True)
    written = make_handouts(args.folder, args.chromium, log=out, key=args.key)
    print(f"{len(written)} PDFs in {args.folder}/", file=out)

