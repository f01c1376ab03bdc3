"""The bank as a QTI 1.2 package that Canvas imports (Settings > Import course content > QTI .zip):
``imsmanifest.xml``, the assessment, and Canvas's ``assessment_meta.xml``.

Each item is a question group that draws one of its distinct versions, so a class gets different
numbers. One-part items are ``multiple_choice_question``, ``numerical_question`` (exact value
or within the tolerance) or ``essay_question``; a multi-part problem is one
``fill_in_multiple_blanks_question`` (blanks ``[a]``, ``[b]``...), so its parts keep the same
numbers. Canvas grades a blank by its text, so each numeric blank lists every text within the
key's tolerance (:func:`accepted`: the exact fraction, and each decimal in the tolerance with up
to one place more than asked, with or without a sign or a leading zero), and a choice blank its
letter.

>>> import io, zipfile
>>> from gofish_teach.quiz import items_for
>>> data = qti_zip(items_for(["02"]), seed=1, versions=2)
>>> sorted(zipfile.ZipFile(io.BytesIO(data)).namelist())[-1]
'imsmanifest.xml'
"""
from __future__ import annotations

import io
import zipfile
from fractions import Fraction
from math import ceil, floor
from xml.etree import ElementTree as ET

from .bank import bank_variants
from .markup import html, span
from .model import LETTERS, Part, Question

QTI_NS = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
CP_NS = "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1"
CANVAS_NS = "http://canvas.instructure.com/xsd/cccv1p0"
IDENT = "gofish_quiz_bank"
BLANKS = "abcdefgh"


def _sub(parent, tag, text=None, **attrs):
    el = ET.SubElement(parent, tag, {k.rstrip("_"): str(v) for k, v in attrs.items()})
    if text is not None:
        el.text = text
    return el


def _meta(item_el, fields: dict) -> None:
    qtimeta = _sub(_sub(item_el, "itemmetadata"), "qtimetadata")
    for label, entry in fields.items():
        field = _sub(qtimeta, "qtimetadatafield")
        _sub(field, "fieldlabel", label)
        _sub(field, "fieldentry", entry)


def _material(parent, markup_html: str):
    _sub(_sub(parent, "material"), "mattext", markup_html, texttype="text/html")


def _feedback(item_el, ident: str, markup_html: str) -> None:
    _material(_sub(_sub(item_el, "itemfeedback", ident=ident), "flow_mat"), markup_html)


def accepted(part: Part) -> list[str]:
    """What a blank of a multi-part problem accepts. Canvas grades a blank by its text (trimmed, any
    case), so a number's blank lists every text within the key's tolerance: the exact fraction,
    and each decimal in the tolerance written with up to one place more than the part asks for,
    with or without a sign and a leading zero (``0.6``, ``+0.6``, ``.6``, ``0.60``, ``0.58``...);
    a choice's blank, its letter.

    >>> from fractions import Fraction
    >>> from gofish_teach.quiz.model import number
    >>> accepted(number("Within 0.1?", Fraction(3, 5), "", decimals=1, tolerance=Fraction(1, 10)))[:8]
    ['3/5', '+3/5', '0.5', '+0.5', '.5', '+.5', '0.6', '+0.6']
    >>> "+0.6" in accepted(number("", Fraction(3, 5), "", decimals=1, tolerance=Fraction(1, 10)))
    True
    >>> accepted(number("A count.", 15, ""))[:4]
    ['15', '+15', '15.0', '+15.0']
    """
    if part.kind == "choice":
        letter = LETTERS[part.right]
        return [letter, letter.lower()]
    forms = [part.exact()] if part.exact_key else []
    if forms and not forms[0].startswith("-"):
        forms.append("+" + forms[0])
    low, high = part.answer - part.tolerance, part.answer + part.tolerance
    for places in range(part.decimals + 2):
        step = Fraction(1, 10 ** places)
        for k in range(ceil(low / step), floor(high / step) + 1):
            forms += _written(k, places)
    return list(dict.fromkeys(forms))


def _written(k: int, places: int) -> list[str]:
    """The ways to write ``k / 10**places`` with exactly ``places`` decimal places: ``0.5``, ``+0.5``, ``.5``..."""
    digits = str(abs(k)).rjust(places + 1, "0")
    whole, frac = (digits[:-places], digits[-places:]) if places else (digits, "")
    bare = [f"{whole}.{frac}" if places else whole] + ([f".{frac}"] if places and whole == "0" else [])
    if k < 0:
        return ["-" + b for b in bare]
    return [form for b in bare for form in (b, "+" + b)] if k else bare


def _score(resprocessing, condition, score: str, action: str = "Set", feedback: str | None = None,
           continue_: str = "No"):
    cond = _sub(resprocessing, "respcondition", continue_=continue_)
    cond.append(condition)
    _sub(cond, "setvar", score, action=action, varname="SCORE")
    if feedback:
        _sub(cond, "displayfeedback", feedbacktype="Response", linkrefid=feedback)


def _outcomes(item_el):
    proc = _sub(item_el, "resprocessing")
    _sub(_sub(proc, "outcomes"), "decvar", maxvalue="100", minvalue="0", varname="SCORE", vartype="Decimal")
    return proc


def item_xml(question: Question, index: int, ident: str) -> ET.Element:
    """One QTI ``<item>`` for one version of an item."""
    item = question.item
    el = ET.Element("item", ident=ident, title=f"{item.id} {item.title}, version {index}")
    parts = question.parts
    text = html(question.stem, "mathjax")
    if len(parts) > 1:
        body = [text]
        for b, part in zip(BLANKS, parts, strict=False):
            body.append(f"<p>{span(part.prompt, 'mathjax')}</p>")
            if part.kind == "choice":
                body.append("<ul>" + "".join(f"<li>{LETTERS[i]}. {span(c.text, 'mathjax')}</li>"
                                             for i, c in enumerate(part.choices)) + "</ul>")
            body.append(f"<p>Answer ({'a letter' if part.kind == 'choice' else 'a fraction or a decimal'}): [{b}]</p>")
        _meta(el, {"question_type": "fill_in_multiple_blanks_question", "points_possible": str(len(parts)),
                   "original_answer_ids": ",".join(f"{ident}_{b}{k}" for b, p in zip(BLANKS, parts, strict=False)
                                                   for k in range(len(accepted(p)))),
                   "assessment_question_identifierref": f"{ident}_ref"})
        presentation = _sub(el, "presentation")
        _material(presentation, "".join(body))
        for b, part in zip(BLANKS, parts, strict=False):
            lid = _sub(presentation, "response_lid", ident=f"response_{b}")
            _sub(_sub(lid, "material"), "mattext", b)
            choices = _sub(lid, "render_choice")
            for k, form in enumerate(accepted(part)):
                label = _sub(choices, "response_label", ident=f"{ident}_{b}{k}")
                _material(label, form)
        proc = _outcomes(el)
        share = f"{100 / len(parts):.2f}"
        for b, part in zip(BLANKS, parts, strict=False):
            for k in range(len(accepted(part))):
                cond = ET.Element("conditionvar")
                _sub(cond, "varequal", f"{ident}_{b}{k}", respident=f"response_{b}")
                _score(proc, cond, share, action="Add", continue_="Yes")
        _feedback(el, "general_fb", "".join(f"<p>{span(p.prompt, 'mathjax')} {span(p.explain, 'mathjax')}</p>"
                                            for p in parts))
        return el
    part = parts[0]
    text += html(part.prompt, "mathjax")
    if part.kind == "choice":
        ids = [f"{ident}_c{k}" for k in range(len(part.choices))]
        _meta(el, {"question_type": "multiple_choice_question", "points_possible": "1",
                   "original_answer_ids": ",".join(ids), "assessment_question_identifierref": f"{ident}_ref"})
        presentation = _sub(el, "presentation")
        _material(presentation, text)
        choices = _sub(_sub(presentation, "response_lid", ident="response1", rcardinality="Single"), "render_choice")
        for cid, c in zip(ids, part.choices, strict=True):
            _material(_sub(choices, "response_label", ident=cid), span(c.text, "mathjax"))
        proc = _outcomes(el)
        other = ET.Element("conditionvar")
        _sub(other, "other")
        cond = _sub(proc, "respcondition", continue_="Yes")
        cond.append(other)
        _sub(cond, "displayfeedback", feedbacktype="Response", linkrefid="general_fb")
        for cid, c in zip(ids, part.choices, strict=True):
            if not c.correct:
                fb = _sub(proc, "respcondition", continue_="Yes")
                _sub(_sub(fb, "conditionvar"), "varequal", cid, respident="response1")
                _sub(fb, "displayfeedback", feedbacktype="Response", linkrefid=f"{cid}_fb")
        right = ET.Element("conditionvar")
        _sub(right, "varequal", ids[part.right], respident="response1")
        _score(proc, right, "100")
        _feedback(el, "general_fb", html(part.explain, "mathjax"))
        for cid, c in zip(ids, part.choices, strict=True):
            if not c.correct:
                _feedback(el, f"{cid}_fb", html(c.why, "mathjax"))
        return el
    if part.kind == "number":
        _meta(el, {"question_type": "numerical_question", "points_possible": "1",
                   "original_answer_ids": f"{ident}_n", "assessment_question_identifierref": f"{ident}_ref"})
        presentation = _sub(el, "presentation")
        _material(presentation, text + html(f"Enter a decimal number (to {part.decimals} places where it is not whole)."))
        fib = _sub(_sub(presentation, "response_str", ident="response1", rcardinality="Single"), "render_fib",
                   fibtype="Decimal")
        _sub(fib, "response_label", ident=f"{ident}_n")
        proc = _outcomes(el)
        value, tol = float(part.answer), float(part.tolerance)
        cond = ET.Element("conditionvar")
        either = _sub(cond, "or")
        _sub(either, "varequal", repr(value), respident="response1")
        both = _sub(either, "and")
        _sub(both, "vargte", repr(value - tol), respident="response1")
        _sub(both, "varlte", repr(value + tol), respident="response1")
        _score(proc, cond, "100")
        _feedback(el, "general_fb", html(part.explain, "mathjax"))
        return el
    _meta(el, {"question_type": "essay_question", "points_possible": "1", "original_answer_ids": "",
               "assessment_question_identifierref": f"{ident}_ref"})
    presentation = _sub(el, "presentation")
    _material(presentation, text)
    _sub(_sub(_sub(presentation, "response_str", ident="response1", rcardinality="Single"), "render_fib"),
         "response_label", ident="answer1", rshuffle="No")
    proc = _outcomes(el)
    other = ET.Element("conditionvar")
    _sub(other, "other")
    _sub(proc, "respcondition", continue_="No").append(other)
    _feedback(el, "general_fb", html(part.rubric, "mathjax"))
    return el


def assessment_xml(items, seed: int, versions: int, *, every: bool = False) -> bytes:
    """The assessment: one question group per item, drawing one of its versions (``every``: of all)."""
    ET.register_namespace("", QTI_NS)
    root = ET.Element("questestinterop", xmlns=QTI_NS)
    assessment = _sub(root, "assessment", ident=IDENT, title="Go Fish quiz bank")
    meta = _sub(assessment, "qtimetadata")
    field = _sub(meta, "qtimetadatafield")
    _sub(field, "fieldlabel", "cc_maxattempts")
    _sub(field, "fieldentry", "1")
    top = _sub(assessment, "section", ident="root_section")
    for item, questions in bank_variants(items, seed, versions, every=every):
        group = _sub(top, "section", ident=f"group_{item.id.replace('.', '_')}", title=f"{item.id} {item.title}")
        selection = _sub(_sub(group, "selection_ordering"), "selection")
        _sub(selection, "selection_number", "1")
        _sub(_sub(selection, "selection_extension"), "points_per_item", str(len(questions[0].parts)))
        for i, q in enumerate(questions, 1):
            group.append(item_xml(q, i, f"{item.id.replace('.', '_')}_v{i}"))
    ET.indent(root)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="utf-8")


def manifest_xml() -> bytes:
    root = ET.Element("manifest", identifier=f"{IDENT}_manifest", xmlns=CP_NS)
    metadata = _sub(root, "metadata")
    _sub(metadata, "schema", "IMS Content")
    _sub(metadata, "schemaversion", "1.1.3")
    _sub(root, "organizations")
    resources = _sub(root, "resources")
    res = _sub(resources, "resource", identifier=IDENT, type="imsqti_xmlv1p2")
    _sub(res, "file", href=f"{IDENT}/{IDENT}.xml")
    _sub(res, "dependency", identifierref=f"{IDENT}_meta")
    meta = _sub(resources, "resource", identifier=f"{IDENT}_meta",
                type="associatedcontent/imscc_xmlv1p1/learning-application-resource", href=f"{IDENT}/assessment_meta.xml")
    _sub(meta, "file", href=f"{IDENT}/assessment_meta.xml")
    ET.indent(root)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="utf-8")


def meta_xml(points: int) -> bytes:
    root = ET.Element("quiz", identifier=IDENT, xmlns=CANVAS_NS)
    _sub(root, "title", "Go Fish quiz bank")
    _sub(root, "description", "<p>The gofish-teach quiz bank: one question group per item, each drawing one "
                              "version of it.</p>")
    _sub(root, "shuffle_answers", "false")
    _sub(root, "scoring_policy", "keep_highest")
    _sub(root, "quiz_type", "assignment")
    _sub(root, "points_possible", f"{points:.1f}")
    _sub(root, "show_correct_answers", "false")
    _sub(root, "allowed_attempts", "1")
    _sub(root, "available", "false")
    ET.indent(root)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="utf-8")


def qti_zip(items, seed: int, versions: int, *, every: bool = False) -> bytes:
    """The QTI 1.2 package, as the bytes of a zip file (``every``: every version of each item)."""
    points = sum(len(item.sample().parts) for item in items)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(f"{IDENT}/{IDENT}.xml", assessment_xml(items, seed, versions, every=every))
        z.writestr(f"{IDENT}/assessment_meta.xml", meta_xml(points))
        z.writestr("imsmanifest.xml", manifest_xml())
    return buffer.getvalue()
