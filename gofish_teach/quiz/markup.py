"""The bank's text: paragraphs (a blank line between), lists (lines starting ``- ``), `code`,
**bold**, *italics* and $TeX$. Turned into HTML for paper (formulas as MathML, drawn by Chromium
without MathJax) or for a learning platform (formulas as MathJax's ``\\( \\)``, which Moodle and
Canvas render), into Markdown for the teacher's notebook (unchanged), or into plain text.

>>> html("P(hit) is $\\\\frac{2}{47}$, by `Facts`.", math="mathjax")
'<p>P(hit) is \\\\(\\\\frac{2}{47}\\\\), by <code>Facts</code>.</p>'
>>> plain("**Two** lines\\n- one $x$\\n- two")
'Two lines\\n- one x\\n- two'
"""
from __future__ import annotations

import re
from html import escape

TOKEN = re.compile(r"(\$[^$\n]+\$|`[^`\n]+`|\*\*[^*\n]+\*\*|\*[^*\s][^*\n]*\*)")


def _tex(tex: str, math: str) -> str:
    if math == "mathml":
        from ..teacher import mathml  # the handouts' converter: one way to draw formulas on paper

        return mathml(tex)
    return escape(f"\\({tex}\\)", quote=False)


def inline(text: str, math: str = "mathml") -> str:
    """One line of the markup as HTML."""
    out = []
    for piece in TOKEN.split(text):
        if len(piece) > 2 and piece[0] == piece[-1] == "$":
            out.append(_tex(piece[1:-1], math))
        elif len(piece) > 2 and piece[0] == piece[-1] == "`":
            out.append(f"<code>{escape(piece[1:-1], quote=False)}</code>")
        elif len(piece) > 4 and piece.startswith("**") and piece.endswith("**"):
            out.append(f"<b>{escape(piece[2:-2], quote=False)}</b>")
        elif len(piece) > 2 and piece[0] == piece[-1] == "*":
            out.append(f"<i>{escape(piece[1:-1], quote=False)}</i>")
        else:
            out.append(escape(piece, quote=False))
    return "".join(out)


def html(text: str, math: str = "mathml") -> str:
    """The markup as HTML paragraphs and lists."""
    blocks = []
    for para in re.split(r"\n\s*\n", text.strip()):
        lines = para.split("\n")
        if all(line.startswith("- ") for line in lines):
            blocks.append("<ul>" + "".join(f"<li>{inline(line[2:], math)}</li>" for line in lines) + "</ul>")
        else:
            blocks.append("<p>" + inline(" ".join(line.strip() for line in lines), math) + "</p>")
    return "".join(blocks)


def plain(text: str) -> str:
    """The markup as plain text."""
    def strip(match):
        piece = match.group(0)
        return piece[2:-2] if piece.startswith("**") else piece[1:-1]
    return TOKEN.sub(strip, text)


def span(text: str, math: str = "mathml") -> str:
    """One paragraph's markup as inline HTML (no ``<p>``), or blocks if the text has several."""
    if re.search(r"\n\s*\n", text.strip()) or any(line.startswith("- ") for line in text.split("\n")):
        return html(text, math)
    return inline(" ".join(line.strip() for line in text.split("\n")), math)
