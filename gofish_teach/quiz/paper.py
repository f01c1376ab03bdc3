"""A quiz version on paper: the learner's HTML (questions only) and the key's (answers, why, and a
grading table), printed to PDF with the handouts' headless Chromium (:func:`gofish_teach.teacher.print_pdf`).

The learner's page is built from the questions alone: no key, explanation or rubric is passed to
the code that writes it, so none can leak into it.

>>> from gofish_teach.quiz import items_for, make_version
>>> v = make_version(items_for(["02"]), seed=3, number=1)
>>> page, key = learner_html(v), key_html(v)
>>> "Key" in page, "Key" in key
(False, True)
"""
from __future__ import annotations

import tempfile
from html import escape
from pathlib import Path

from .markup import html as md
from .markup import span
from .model import LETTERS, Part, Question, Version

CSS = """
@page { size: A4; margin: 16mm 15mm 16mm 15mm; }
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 10.5pt; line-height: 1.35; color: #111; }
h1 { font-size: 15pt; margin: 0 0 2mm 0; }
.meta { color: #444; margin: 0 0 4mm 0; }
.how { border: 1px solid #999; padding: 2mm 3mm; margin-bottom: 5mm; }
.q { break-inside: avoid; margin: 0 0 5mm 0; }
.q h2 { font-size: 11pt; margin: 0 0 1mm 0; }
.part { margin: 2mm 0 0 4mm; }
.choices { list-style: none; padding-left: 4mm; margin: 1mm 0; }
.choices li { margin: 0.6mm 0; }
.answer { margin: 1.5mm 0 0 4mm; color: #333; }
.lines { border-bottom: 1px solid #888; height: 7mm; margin-left: 4mm; }
.key { background: #eef5ee; border-left: 3px solid #3a7; padding: 1.5mm 3mm; margin: 1.5mm 0 0 4mm; }
.why { color: #333; font-size: 9.5pt; }
table.grid { border-collapse: collapse; margin-bottom: 5mm; }
table.grid td, table.grid th { border: 1px solid #aaa; padding: 0.8mm 2mm; font-size: 9.5pt; text-align: left; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 9.5pt; }
ul { margin: 1mm 0 1mm 4mm; }
"""

HOW = ("Answer every question. Where a number is asked, give it exactly (a fraction) when you can, or as a decimal "
       "to the places asked. Multi-part problems build step by step: show your working.")


def _page(title: str, body: str) -> str:
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            f"<style>{CSS}</style></head><body>{body}</body></html>")


def _header(version: Version, key: bool) -> str:
    lessons = sorted({q.item.lesson for q in version.questions})
    title = f"Go Fish probability quiz, version {version.number}" + (": key" if key else "")
    meta = (f"{len(version.questions)} questions, lessons {', '.join(lessons)} · seed {version.seed}"
            + ("" if key else " · Name: ______________________"))
    return title, f"<h1>{escape(title)}</h1><p class='meta'>{escape(meta)}</p>"


def _learner_part(part: Part) -> str:
    out = [f"<div class='part'>{md(part.prompt)}"]
    if part.kind == "choice":
        out.append("<ul class='choices'>" + "".join(
            f"<li><b>{LETTERS[i]}.</b> {span(c.text)}</li>" for i, c in enumerate(part.choices)) + "</ul>")
    elif part.kind == "number":
        out.append("<div class='answer'>Answer: ________________________</div>")
    else:
        out.append("<div class='lines'></div>" * 5)
    out.append("</div>")
    return "".join(out)


def _question(number: int, question: Question, part_html) -> str:
    return (f"<div class='q'><h2>Question {number}</h2>{md(question.stem)}"
            + "".join(part_html(p) for p in question.parts) + "</div>")


def learner_html(version: Version) -> str:
    """The learner's page: the questions and choices, nothing of the keys."""
    title, head = _header(version, key=False)
    body = head + f"<p class='how'>{escape(HOW)}</p>" + "".join(
        _question(i, q, _learner_part) for i, q in enumerate(version.questions, 1))
    return _page(title, body)


def key_text(part: Part) -> str:
    """The key of a part in one line: ``(C)``, ``947/3243 ≈ 0.2920 (accept ± 0.0001)`` or ``written answer``."""
    if part.kind == "choice":
        return f"({LETTERS[part.right]})"
    if part.kind == "number":
        shown = part.exact() if part.answer.denominator == 1 or not part.exact_key else \
            f"{part.exact()} ≈ {part.decimal()}"
        return shown + (f" (accept ± {float(part.tolerance):g})" if part.tolerance else "")
    return "written answer"


def _key_part(part: Part) -> str:
    out = [_learner_part(part)[:-6]]  # the part as the learner sees it, then its key
    if part.kind == "choice":
        wrong = "".join(f"<div class='why'>({LETTERS[i]}) {span(c.why)}</div>"
                        for i, c in enumerate(part.choices) if not c.correct)
        out.append(f"<div class='key'><b>Key: {escape(key_text(part))}</b> {span(part.explain)}{wrong}</div>")
    elif part.kind == "number":
        out.append(f"<div class='key'><b>Key: {escape(key_text(part))}</b>. {span(part.explain)}</div>")
    else:
        out.append(f"<div class='key'><b>Key (what a full answer contains):</b> {span(part.rubric)}</div>")
    out.append("</div>")
    return "".join(out)


def key_html(version: Version) -> str:
    """The teacher's key: a grading table, then every question with its key and why."""
    title, head = _header(version, key=True)
    rows = "".join(f"<tr><td>{i}</td><td>{escape(q.item.id)}</td><td>{escape(', '.join(map(str, q.item.goals)))}</td>"
                   f"<td>{escape(' · '.join(key_text(p) for p in q.parts))}</td></tr>"
                   for i, q in enumerate(version.questions, 1))
    grid = ("<table class='grid'><tr><th>question</th><th>item</th><th>goals</th><th>key</th></tr>"
            + rows + "</table>")
    return _page(title, head + grid + "".join(_question(i, q, _key_part) for i, q in enumerate(version.questions, 1)))


def print_version(version: Version, folder: Path, chromium: str, html_too: bool = False) -> tuple[Path, Path]:
    """Write ``version-NN.pdf`` and ``version-NN-key.pdf`` into ``folder`` (and the HTML, if asked)."""
    from ..teacher import print_pdf  # the handouts' Chromium call: one way to print, for every PDF of the kit

    folder.mkdir(parents=True, exist_ok=True)
    stem = f"version-{version.number:02d}"
    written = []
    with tempfile.TemporaryDirectory(prefix="gofish-quiz-") as tmp:
        for name, page in ((stem, learner_html(version)), (f"{stem}-key", key_html(version))):
            source = Path(tmp, f"{name}.html")
            source.write_text(page, encoding="utf-8")
            if html_too:
                (folder / f"{name}.html").write_text(page, encoding="utf-8")
            pdf = folder / f"{name}.pdf"
            print_pdf(source, pdf, chromium)
            written.append(pdf)
    return written[0], written[1]
