"""The bank as Moodle XML: one question category per item (so a quiz can draw a random version of
it), one question per distinct version. One-part items become ``multichoice``, ``numerical`` or
``essay`` questions; a multi-part problem becomes one ``cloze`` question, so that its parts keep
the same numbers (``{1:NUMERICAL:=value:tolerance}`` and ``{1:MULTICHOICE_V:=right~wrong...}``).
Formulas are written ``\\( ... \\)`` for Moodle's MathJax filter.

>>> from gofish_teach.quiz import items_for
>>> xml = moodle_xml(items_for(["06"]), seed=1, versions=2)
>>> xml.count('<question type="category">'), xml.count('type="cloze"') > 0
(9, True)
"""
from __future__ import annotations

from xml.sax.saxutils import escape

from .bank import bank_variants
from .markup import html, span
from .model import Part, Question

ROOT = "$course$/top/Go Fish quiz bank"


def _text(value: str) -> str:
    return f"<text><![CDATA[{value.replace(']]>', ']]]]><![CDATA[>')}]]></text>"


def _html(markup: str) -> str:
    return html(markup, math="mathjax")


def number_text(part: Part) -> str:
    """The numeric key as Moodle reads it: enough digits that the tolerance is centred on the exact value."""
    return f"{float(part.answer):.{part.decimals + 4}f}".rstrip("0").rstrip(".") if part.answer.denominator != 1 \
        else str(part.answer.numerator)


def _cloze_escape(text: str) -> str:
    """Cloze answer and feedback text: its special characters escaped with a backslash."""
    for ch in "\\}#~/\"":
        text = text.replace(ch, "\\" + ch)
    return text


def _cloze(part: Part) -> str:
    if part.kind == "number":
        feedback = _cloze_escape(span(part.explain, "mathjax"))
        return f"{{1:NUMERICAL:={number_text(part)}:{float(part.tolerance):g}#{feedback}}}"
    if part.kind == "choice":
        options = [("=" if c.correct else "") + _cloze_escape(span(c.text, "mathjax")) + "#"
                   + _cloze_escape(span(c.why, "mathjax")) for c in part.choices]
        return "{1:MULTICHOICE_V:" + "~".join(options) + "}"
    raise ValueError("a cloze question holds number and choice parts only")


def _common(name: str, idnumber: str, text: str, feedback: str, penalty: str = "0.3333333") -> str:
    return (f"<name>{_text(name)}</name><questiontext format=\"html\">{_text(text)}</questiontext>"
            f"<generalfeedback format=\"html\">{_text(feedback)}</generalfeedback><defaultgrade>1</defaultgrade>"
            f"<penalty>{penalty}</penalty><hidden>0</hidden><idnumber>{escape(idnumber)}</idnumber>")


def _tags(question: Question) -> str:
    tags = [f"lesson-{question.item.lesson}"] + [f"goal-{question.item.lesson}-{g}" for g in question.item.goals]
    return "<tags>" + "".join(f"<tag>{_text(t)}</tag>" for t in tags) + "</tags>"


def question_xml(question: Question, index: int) -> str:
    """One Moodle ``<question>`` for one version of an item."""
    item = question.item
    name, idnumber = f"{item.id} {item.title}, version {index}", f"{item.id}-v{index}"
    parts = question.parts
    if len(parts) > 1:
        body = _html(question.stem) + "".join(f"<p>{span(p.prompt, 'mathjax')}</p><p>{_cloze(p)}</p>" for p in parts)
        feedback = "".join(f"<p>{span(p.prompt, 'mathjax')} {span(p.explain, 'mathjax')}</p>" for p in parts)
        return (f'<question type="cloze">{_common(name, idnumber, body, feedback)}{_tags(question)}</question>')
    part = parts[0]
    text = _html(question.stem) + _html(part.prompt)
    if part.kind == "choice":
        answers = "".join(f'<answer fraction="{100 if c.correct else 0}" format="html">{_text(span(c.text, "mathjax"))}'
                          f'<feedback format="html">{_text(span(c.why, "mathjax"))}</feedback></answer>'
                          for c in part.choices)
        return (f'<question type="multichoice">{_common(name, idnumber, text, _html(part.explain))}'
                f"<single>true</single><shuffleanswers>false</shuffleanswers><answernumbering>ABCD</answernumbering>"
                f"<showstandardinstruction>0</showstandardinstruction>"
                f'<correctfeedback format="html">{_text("")}</correctfeedback>'
                f'<partiallycorrectfeedback format="html">{_text("")}</partiallycorrectfeedback>'
                f'<incorrectfeedback format="html">{_text("")}</incorrectfeedback>{answers}{_tags(question)}</question>')
    if part.kind == "number":
        text += _html(f"Enter a decimal number (to {part.decimals} places where it is not whole).")
        return (f'<question type="numerical">{_common(name, idnumber, text, _html(part.explain))}'
                f'<answer fraction="100" format="moodle_auto_format">{_text(number_text(part))}'
                f"<tolerance>{float(part.tolerance):g}</tolerance>"
                f'<feedback format="html">{_text("")}</feedback></answer>'
                f"<unitgradingtype>0</unitgradingtype><unitpenalty>0.1000000</unitpenalty><showunits>3</showunits>"
                f"<unitsleft>0</unitsleft>{_tags(question)}</question>")
    return (f'<question type="essay">{_common(name, idnumber, text, "", penalty="0")}'
            f"<responseformat>editor</responseformat><responserequired>1</responserequired>"
            f"<responsefieldlines>10</responsefieldlines><attachments>0</attachments>"
            f"<attachmentsrequired>0</attachmentsrequired>"
            f'<graderinfo format="html">{_text(_html(part.rubric))}</graderinfo>'
            f'<responsetemplate format="html">{_text("")}</responsetemplate>{_tags(question)}</question>')


def moodle_xml(items, seed: int, versions: int, *, every: bool = False) -> str:
    """The whole bank of ``items`` as a Moodle XML question file (versions 1 .. ``versions`` of ``seed``;
    ``every``: every version of each item, so that a random question from its category draws from all)."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<quiz>']
    for item, questions in bank_variants(items, seed, versions, every=every):
        info = f"Lesson {item.lesson}, goal(s) {', '.join(map(str, item.goals))}: {item.title}." + (
            f" Numbers change between versions: {item.varies}." if item.varies else "")
        out.append(f'<question type="category"><category>{_text(f"{ROOT}/Lesson {item.lesson}/{item.id} {item.title}")}'
                   f'</category><info format="html">{_text(info)}</info></question>')
        out.extend(question_xml(q, i) for i, q in enumerate(questions, 1))
    out.append("</quiz>\n")
    return "\n".join(out)
