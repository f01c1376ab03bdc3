"""The quiz bank and the ``quiz`` command (issue 33): every learning goal of every lesson assessed,
two or more multi-step problems per lesson, numbers that change from version to version with keys
the kit computes (each builder checks its key a second way), right answers spread evenly over the
letters, no item that repeats a question a lesson already answers, no key in a learner's page or
PDF, and a Moodle XML file and a Canvas QTI package that parse back to the same questions and keys.
"""
from __future__ import annotations

import csv
import difflib
import io
import re
import shutil
import subprocess
import zipfile
from fractions import Fraction
from xml.etree import ElementTree as ET

import pytest

from gofish_teach.__main__ import main
from gofish_teach.quiz import ITEMS, items_for, make_version, make_versions
from gofish_teach.quiz.bank import bank_variants
from gofish_teach.quiz.markup import plain, span
from gofish_teach.quiz.model import LETTERS
from gofish_teach.quiz.moodle import moodle_xml
from gofish_teach.quiz.paper import key_html, learner_html
from gofish_teach.quiz.qti import QTI_NS, accepted, qti_zip
from test_teacher_kit import cells, guide_questions, lesson_files, needs_course_numbering, source, try_it_prompts

SEED, VERSIONS = 11, 3


@pytest.fixture(scope="module")
def versions():
    return make_versions(list(ITEMS), SEED, VERSIONS)


@pytest.fixture(scope="module")
def every_version():
    """Every item built with every one of its parameter sets: each builder computes its keys
    exactly and checks them a second way (``agree`` raises on a mismatch)."""
    return [(item, item.make(tuple(params))) for item in ITEMS for params in item.space]


@pytest.fixture(scope="module")
def variants():
    return bank_variants(list(ITEMS), SEED, VERSIONS)


def lesson_goals() -> dict[str, int]:
    """{"03": 6, ...}: how many learning goals each lesson lists (lesson 0 states one)."""
    counts = {}
    for number, path in lesson_files().items():
        first = source(cells(path)[0])
        goals = first[first.find("**Learning goal"):]
        numbered = re.findall(r"^\d+\.\s", goals, re.M)
        # a numbered list, or the first run of "- " bullets (later bullets list other things)
        bullets = re.search(r"(?:^- .*\n(?:^  .*\n)*)+", goals + "\n", re.M)
        counts[number] = len(numbered) or (len(re.findall(r"^- ", bullets.group(0), re.M)) if bullets else 1)
    return counts


# ---------------------------------------------------------------------------------- coverage

def test_every_learning_goal_of_every_lesson_has_an_item():
    needs_course_numbering()
    goals = lesson_goals()
    assessed = {(item.lesson, g) for item in ITEMS for g in item.goals}
    wanted = {(lesson, g) for lesson, n in goals.items() for g in range(1, n + 1)}
    assert not wanted - assessed, f"goals with no quiz item: {sorted(wanted - assessed)}"
    assert not assessed - wanted, f"items name goals their lesson does not list: {sorted(assessed - wanted)}"


def test_every_lesson_has_two_multistep_problems_and_ids_say_which():
    per_lesson = {}
    for item in ITEMS:
        multi = item.multistep
        assert multi == (".M" in item.id), f"{item.id}: multi-step problems are numbered QLL.Mn, and only they"
        per_lesson[item.lesson] = per_lesson.get(item.lesson, 0) + multi
    assert per_lesson and min(per_lesson.values()) >= 2, f"multi-step problems per lesson: {per_lesson}"
    assert len({item.id for item in ITEMS}) == len(ITEMS)


def test_every_version_of_every_item_builds_and_its_keys_check_out(every_version):
    """Building them ran every key's second check; here, each part's shape."""
    built = 0
    for item, q in every_version:
        assert q.stem.strip() and q.parts, item.id
        for part in q.parts:
            built += 1
            if part.kind == "choice":
                assert len(part.choices) == 4 and sum(c.correct for c in part.choices) == 1
                assert all(c.why.strip() for c in part.choices), f"{item.id}: every choice says why"
            elif part.kind == "number":
                assert isinstance(part.answer, Fraction) and part.tolerance >= 0
                assert abs(Fraction(part.decimal()) - part.answer) <= max(part.tolerance, Fraction(1, 10 ** 6)), item.id
            else:
                assert len(part.rubric) > 80, f"{item.id}: a written part needs a rubric"
    assert built > 400


def test_each_wrong_choice_says_its_own_reason(every_version):
    """A wrong choice's feedback says why *that* choice is wrong: three wrong choices sharing one
    sentence (as Q08.M1 and Q07.3 did) tell a learner nothing about the one they picked."""
    shared = []
    for item, q in every_version:
        for i, part in enumerate(q.parts):
            whys = [c.why for c in part.choices if not c.correct]
            if len(set(whys)) < len(whys):
                shared.append((item.id, q.params, i))
    assert not shared, f"choice parts whose wrong choices share one reason: {shared}"


def test_a_two_player_item_names_no_third_player(every_version):
    """Q07.3's fourth choice spoke of three players in its two-player versions."""
    named = [(item.id, q.params) for item, q in every_version if q.stem.startswith("Two players")
             for part in q.parts for c in part.choices if "three players" in c.text]
    assert not named and any(q.stem.startswith("Two players") for _, q in every_version), named


def test_the_teachers_readme_counts_the_bank():
    """The teacher's README says how many items the bank holds and how many are templates."""
    from test_teacher_kit import KIT

    text = " ".join((KIT / "README.md").read_text(encoding="utf-8").split())
    templates = sum(len(item.space) > 1 for item in ITEMS)
    assert f"{len(ITEMS)} items," in text, f"the bank holds {len(ITEMS)} items"
    assert f"{templates} of the {len(ITEMS)} items are templates" in text, f"{templates} templates"


def test_every_formula_of_every_version_renders(every_version):
    from test_notebooks import formulas, render_problem

    problems, seen = set(), set()
    for item, q in every_version:
        texts = [q.stem] + [t for p in q.parts for t in (p.prompt, p.explain, p.rubric)]
        texts += [t for p in q.parts for c in p.choices for t in (c.text, c.why)]
        for tex in formulas("\n".join(texts)):
            shape = re.sub(r"\d+", "0", tex)  # versions differ in numbers: render each shape once
            if shape not in seen:
                seen.add(shape)
                problem = render_problem(tex)
                if problem:
                    problems.add(f"{item.id}: ${tex}$: {problem}")
    assert not problems, "formulas that do not render:\n" + "\n".join(sorted(problems))


def test_numbers_change_between_versions_and_a_seed_makes_the_same_quiz(versions):
    first, second = versions[0], versions[1]
    for a, b in zip(first.questions, second.questions, strict=True):
        text_a = a.stem + "".join(p.prompt for p in a.parts)
        text_b = b.stem + "".join(p.prompt for p in b.parts)
        if len(a.item.space) > 1:
            assert text_a != text_b, f"{a.item.id}: versions 1 and 2 show the same numbers"
            assert a.item.varies, f"{a.item.id}: say what changes between versions"
        else:
            assert text_a == text_b and not a.item.varies
    parameterised = [i for i in ITEMS if len(i.space) > 1]
    assert len(parameterised) >= 0.6 * len(ITEMS)
    again = make_version(list(ITEMS), SEED, 1)
    assert [(q.params, [c.text for p in q.parts for c in p.choices]) for q in again.questions] == \
           [(q.params, [c.text for p in q.parts for c in p.choices]) for q in first.questions]
    other = make_version(list(ITEMS), SEED + 1, 1)
    assert [q.params for q in other.questions] != [q.params for q in first.questions]


@pytest.mark.parametrize("seed", [0, SEED, 2026])
def test_right_answers_are_spread_over_the_letters(seed):
    for version in make_versions(list(ITEMS), seed, 4):
        letters = version.choice_letters()
        shares = {x: letters.count(x) / len(letters) for x in LETTERS}
        assert max(shares.values()) <= 0.35, f"seed {seed}, version {version.number}: {shares}"
        assert min(shares.values()) >= 0.15, f"seed {seed}, version {version.number}: {shares}"
    small = make_version(items_for(["02", "03", "06"]), seed, 1).choice_letters()
    assert max(small.count(x) for x in LETTERS) - min(small.count(x) for x in LETTERS) <= 1


# ---------------------------------------------------------------------------------- no repeats

def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9/'.]+", plain(text).lower().replace("’", "'")))


def lesson_questions() -> list[tuple[str, str]]:
    """Every question a lesson already asks and answers: its predict-first questions (the whole
    cell), the questions its prose asks, its Try-it prompts, and the teacher's guide's questions."""
    found = []
    for number, path in lesson_files().items():
        found += [(f"{number} Try it", p) for p in try_it_prompts(path)]
        for c in cells(path):
            text = source(c)
            if "predict" in c.get("metadata", {}).get("tags", []) or "Question(" in text:
                found.append((f"{number} predict", text))
            elif c["cell_type"] == "markdown":
                found += [(f"{number} prose", q) for q in re.findall(r"[^.?!\n]*(?:\n[^.?!\n#]*)*\?", text)
                          if len(q.split()) >= 5]
    found += [("guide", q) for q in guide_questions()]
    return found


def test_no_item_repeats_a_question_the_lessons_answer():
    """No item (its setting and question together) is mostly found, word for word and in order,
    in a question a lesson already asks: at most 55% of its words (difflib's matching blocks).
    Five of the six items the review found repeating a lesson score 0.60 to 0.91 by this measure."""
    needs_course_numbering()
    asked = [(where, _norm(text).split()) for where, text in lesson_questions()]
    assert len(asked) > 120
    mine = [(item.id, part.prompt, (_norm(q.stem) + " " + _norm(part.prompt)).split())
            for item in ITEMS for q in [item.sample()] for part in q.parts]
    close = []
    for where, words in asked:
        match = difflib.SequenceMatcher(None, autojunk=False)
        match.set_seq2(words)  # the lesson's side once, each item against it
        for item_id, prompt, item_words in mine:
            match.set_seq1(item_words)
            found = sum(block.size for block in match.get_matching_blocks()) / len(item_words)
            if found > 0.55:
                close.append((item_id, where, round(found, 2), prompt[:50]))
    assert not close, f"items that repeat a question a lesson answers: {close}"


# ---------------------------------------------------------------------------------- paper

def _secrets(question) -> list[str]:
    """What only a key may show: explanations, reasons, rubrics, and exact answers not in the text."""
    shown = question.stem + " ".join(p.prompt for p in question.parts)
    out = []
    for part in question.parts:
        out += [part.explain, part.rubric] + [c.why for c in part.choices]
        if part.kind == "number" and part.answer.denominator > 1 and part.exact() not in shown:
            out.append(part.exact())
    return [s for s in out if s]


def _blocks(page: str) -> list[str]:
    """A page's questions, one HTML block each, in order."""
    return page.split("<div class='q'>")[1:]


def _shows(block: str, secret: str) -> bool:
    if re.fullmatch(r"\d+/\d+", secret):  # an exact fraction: as a whole number pair, not inside another
        return re.search(rf"(?<![\d/]){re.escape(secret)}(?![\d/])", block) is not None
    return span(secret) in block


def test_a_learners_page_holds_every_question_and_no_key(versions):
    for version in versions:
        page, key = learner_html(version), key_html(version)
        assert "Key" not in page and "Key" in key
        blocks, key_blocks = _blocks(page), _blocks(key)
        assert len(blocks) == len(key_blocks) == len(version.questions)
        for q, block, key_block in zip(version.questions, blocks, key_blocks, strict=True):
            assert span(q.parts[0].prompt) in block, q.item.id
            for secret in _secrets(q):
                assert not _shows(block, secret), f"{q.item.id}: the learner's page shows {secret[:60]!r}"
                assert _shows(key_block, secret), f"{q.item.id}: the key lacks {secret[:60]!r}"


def _pdftotext(pdf) -> str:
    tool = shutil.which("pdftotext")
    if not tool:
        pytest.skip("poppler's pdftotext is not installed")
    return subprocess.run([tool, "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


def _flat(text: str) -> str:
    return " ".join(plain(text).split())


def test_the_quiz_command_prints_a_learners_pdf_without_keys_and_a_key_pdf(tmp_path):
    from gofish_teach.teacher import find_chromium

    try:
        find_chromium()
    except ValueError as e:
        pytest.skip(str(e))
    folder = tmp_path / "quiz"
    assert main(["quiz", str(folder), "--versions", "1", "--seed", "5", "--lessons", "02"], out=io.StringIO()) == 0
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["keys.csv", "quiz-bank-canvas-qti.zip", "quiz-bank-moodle.xml", "version-01-key.pdf",
                     "version-01.pdf"]
    learner = " ".join(_pdftotext(folder / "version-01.pdf").split())
    key = " ".join(_pdftotext(folder / "version-01-key.pdf").split())
    version = make_version(items_for(["02"]), 5, 1)
    assert "Key" not in learner and key.count("Key") >= len(version.questions)
    for i, q in enumerate(version.questions, 1):
        assert f"Question {i}" in learner
        if "$" not in q.parts[0].prompt:  # formulas print as MathML, whose text differs
            assert _flat(q.parts[0].prompt)[:40] in learner, q.item.id
        for secret in _secrets(q):
            words = _flat(secret)
            probe = words if "/" in words and " " not in words else words[:45]
            if "$" in secret or "\\" in probe:
                continue  # formulas print as MathML; the HTML test above covers them
            assert probe not in learner, f"{q.item.id}: the learner's PDF shows {probe!r}"
    for row in csv.DictReader((folder / "keys.csv").open(encoding="utf-8")):
        assert row["key"].split(" ")[0] in key, row


# ---------------------------------------------------------------------------------- Moodle

def _cloze_fields(text: str) -> list[tuple[str, str]]:
    """The ``{1:TYPE:...}`` fields of a Cloze question text, their escapes undone."""
    fields, i = [], 0
    while (start := text.find("{1:", i)) >= 0:
        j, body = start + 3, []
        while text[j] != "}":
            if text[j] == "\\":
                j += 1
            body.append(text[j])
            j += 1
        kind, _, rest = "".join(body).partition(":")
        fields.append((kind, rest))
        i = j + 1
    return fields


def test_the_moodle_xml_parses_back_to_the_same_questions_and_keys(variants):
    xml = moodle_xml(list(ITEMS), SEED, VERSIONS)
    root = ET.fromstring(xml.encode("utf-8"))
    assert root.tag == "quiz"
    questions = list(root)
    categories = [q for q in questions if q.get("type") == "category"]
    assert len(categories) == len(ITEMS)
    expected = [q for _, qs in variants for q in qs]
    real = [q for q in questions if q.get("type") != "category"]
    assert len(real) == len(expected)
    assert len({q.findtext("idnumber") for q in real}) == len(real), "idnumbers are unique"
    for el, q in zip(real, expected, strict=True):
        assert el.findtext("name/text").startswith(q.item.id)
        assert el.find("questiontext").get("format") == "html" and el.findtext("questiontext/text").strip()
        tags = [t.text for t in el.findall("tags/tag/text")]
        assert f"lesson-{q.item.lesson}" in tags
        if len(q.parts) > 1:
            assert el.get("type") == "cloze"
            fields = _cloze_fields(el.findtext("questiontext/text"))
            assert len(fields) == len(q.parts)
            for (kind, body), part in zip(fields, q.parts, strict=True):
                if part.kind == "number":
                    assert kind == "NUMERICAL"
                    value, tol = body[1:].split("#")[0].split(":")
                    assert abs(Fraction(value) - part.answer) <= Fraction(1, 10 ** (part.decimals + 3))
                    assert Fraction(tol) == part.tolerance
                else:
                    assert kind == "MULTICHOICE_V"
                    options = re.split(r"(?<!\\)~", body)
                    assert len(options) == 4 and [o.startswith("=") for o in options].count(True) == 1
                    right = next(k for k, o in enumerate(options) if o.startswith("="))
                    assert right == part.right
        else:
            part = q.parts[0]
            kind = {"choice": "multichoice", "number": "numerical", "short": "essay"}[part.kind]
            assert el.get("type") == kind, q.item.id
            if part.kind == "choice":
                answers = el.findall("answer")
                assert [a.get("fraction") for a in answers].count("100") == 1 and len(answers) == 4
                assert [a.get("fraction") == "100" for a in answers].index(True) == part.right
                assert answers[part.right].findtext("text") == span(part.choices[part.right].text, "mathjax")
                assert el.findtext("shuffleanswers") == "false" and el.findtext("single") == "true"
            elif part.kind == "number":
                answer = el.find("answer")
                assert answer.get("fraction") == "100"
                assert abs(Fraction(answer.findtext("text")) - part.answer) <= Fraction(1, 10 ** (part.decimals + 3))
                assert Fraction(answer.findtext("tolerance")) == part.tolerance
            else:
                assert el.findtext("graderinfo/text").strip() and el.findtext("responseformat") == "editor"


def _per_category(xml: str) -> dict[str, set[str]]:
    """{category: the question texts filed under it} of a Moodle XML file."""
    out, here = {}, None
    for q in ET.fromstring(xml.encode("utf-8")):
        if q.get("type") == "category":
            here = out.setdefault(q.findtext("category/text"), set())
        else:
            here.add(q.findtext("questiontext/text"))
    return out


def test_the_moodle_file_can_carry_every_version_of_each_item(tmp_path):
    """With ``every`` (``--all-versions``) each item's category holds one question per parameter
    set, so a random question from it draws across all of them; without, only the versions made."""
    some = items_for(["06", "08"])
    made = _per_category(moodle_xml(some, SEED, 1))
    every = _per_category(moodle_xml(some, SEED, 1, every=True))
    assert list(made) == list(every) and len(every) == len(some)
    for item, (category, texts) in zip(some, every.items(), strict=True):
        assert len(texts) == len(set(item.space)), item.id  # one question (its own text) per parameter set
        assert made[category] <= texts and len(made[category]) == 1
    assert sum(map(len, every.values())) > 3 * len(some)
    folder = tmp_path / "q"
    assert main(["quiz", str(folder), "--versions", "1", "--lessons", "08", "--no-pdf", "--all-versions"],
                out=io.StringIO()) == 0
    written = _per_category((folder / "quiz-bank-moodle.xml").read_text(encoding="utf-8"))
    assert [len(t) for t in written.values()] == [len(item.space) for item in items_for(["08"])]
    package = zipfile.ZipFile(folder / "quiz-bank-canvas-qti.zip")
    root = ET.fromstring(package.read("gofish_quiz_bank/gofish_quiz_bank.xml"))
    groups = root.findall(_q("assessment/section/section"))
    assert [len(g.findall(_q("item"))) for g in groups] == [len(item.space) for item in items_for(["08"])]


# ---------------------------------------------------------------------------------- Canvas QTI

def _q(tag: str) -> str:
    return "/".join(f"{{{QTI_NS}}}{t}" for t in tag.split("/"))


def test_the_qti_package_has_its_manifest_and_parses_back_to_the_same_keys(variants):
    data = qti_zip(list(ITEMS), SEED, VERSIONS)
    z = zipfile.ZipFile(io.BytesIO(data))
    names = set(z.namelist())
    manifest = ET.fromstring(z.read("imsmanifest.xml"))
    cp = "{http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1}"
    assert manifest.tag == f"{cp}manifest"
    resources = manifest.findall(f"{cp}resources/{cp}resource")
    assert {r.get("type") for r in resources} == {"imsqti_xmlv1p2",
                                                  "associatedcontent/imscc_xmlv1p1/learning-application-resource"}
    for r in resources:
        for f in r.findall(f"{cp}file"):
            assert f.get("href") in names, f"the manifest names {f.get('href')}, not in the zip"
    qti_file = next(f.get("href") for r in resources if r.get("type") == "imsqti_xmlv1p2" for f in r.findall(f"{cp}file"))
    root = ET.fromstring(z.read(qti_file))
    assert root.tag == _q("questestinterop")
    groups = root.findall(_q("assessment/section/section"))
    assert len(groups) == len(ITEMS)
    idents = [el.get("ident") for el in root.iter() if el.tag in (_q("item"), _q("section"))]
    assert len(idents) == len(set(idents)), "QTI item and section idents are unique"
    for group, (_item, questions) in zip(groups, variants, strict=True):
        assert group.findtext(_q("selection_ordering/selection/selection_number")) == "1"
        items = group.findall(_q("item"))
        assert len(items) == len(questions)
        for el, q in zip(items, questions, strict=True):
            meta = {f.findtext(_q("fieldlabel")): f.findtext(_q("fieldentry"))
                    for f in el.findall(_q("itemmetadata/qtimetadata/qtimetadatafield"))}
            labels = {lab.get("ident"): lab.findtext(_q("material/mattext"))
                      for lab in el.iter(_q("response_label"))}
            assert len(labels) == len(list(el.iter(_q("response_label")))), "labels are unique within an item"
            if len(q.parts) > 1:
                assert meta["question_type"] == "fill_in_multiple_blanks_question"
                lids = el.findall(_q("presentation/response_lid"))
                assert len(lids) == len(q.parts)
                for lid, part in zip(lids, q.parts, strict=True):
                    forms = [lab.findtext(_q("material/mattext")) for lab in lid.iter(_q("response_label"))]
                    assert forms == accepted(part)
                    if part.kind == "number":
                        assert all(abs(Fraction(f) - part.answer) <= part.tolerance + Fraction(1, 10 ** part.decimals)
                                   for f in forms)
                    else:
                        assert forms[0] == LETTERS[part.right]
                    blank = lid.get("ident").split("_")[1]
                    assert f"[{blank}]" in el.findtext(_q("presentation/material/mattext"))
                assert set(meta["original_answer_ids"].split(",")) == set(labels)
                continue
            part = q.parts[0]
            kind = {"choice": "multiple_choice_question", "number": "numerical_question", "short": "essay_question"}
            assert meta["question_type"] == kind[part.kind], q.item.id
            scored = [c for c in el.iter(_q("respcondition")) if c.findtext(_q("setvar")) == "100"]
            if part.kind == "choice":
                assert len(labels) == 4
                (cond,) = scored
                right = cond.findtext(_q("conditionvar/varequal"))
                assert labels[right] == span(part.choices[part.right].text, "mathjax")
                assert list(labels).index(right) == part.right
            elif part.kind == "number":
                (cond,) = scored
                value = float(cond.findtext(_q("conditionvar/or/varequal")))
                low = float(cond.findtext(_q("conditionvar/or/and/vargte")))
                high = float(cond.findtext(_q("conditionvar/or/and/varlte")))
                assert abs(value - float(part.answer)) < 1e-9
                assert low == pytest.approx(value - float(part.tolerance)) and high == pytest.approx(value + float(part.tolerance))
            else:
                assert not scored and "general_fb" in {f.get("ident") for f in el.findall(_q("itemfeedback"))}
    meta = ET.fromstring(z.read(next(n for n in names if n.endswith("assessment_meta.xml"))))
    assert meta.tag.endswith("quiz") and meta.findtext("{http://canvas.instructure.com/xsd/cccv1p0}title")


def canvas_score(item, typed: dict[str, str]) -> float:
    """What Canvas gives ``typed`` (``{response ident: the text a learner typed}``) on a parsed QTI
    ``<item>``: a blank's text picks the response label it equals (trimmed, any case: Canvas compares
    blanks as text), a numerical answer is read as a number; then the response processing runs,
    condition by condition, as QTI 1.2 says (``setvar`` Set or Add, stop unless ``continue="Yes"``)."""
    chosen = {}
    for lid in item.iter(_q("response_lid")):
        text = typed.get(lid.get("ident"), "").strip().casefold()
        chosen[lid.get("ident")] = next((lab.get("ident") for lab in lid.iter(_q("response_label"))
                                         if lab.findtext(_q("material/mattext")).strip().casefold() == text), None)

    def number(ident):
        try:
            return float(typed.get(ident, ""))
        except ValueError:
            return None

    def holds(node) -> bool:
        tag = node.tag.split("}")[1]
        if tag in ("conditionvar", "and"):
            return all(holds(n) for n in node)
        if tag == "or":
            return any(holds(n) for n in node)
        if tag == "other":
            return False
        ident = node.get("respident")
        if ident in chosen:  # a choice among labels
            return tag == "varequal" and chosen[ident] == node.text
        value = number(ident)
        compare = {"varequal": value == float(node.text) if value is not None else False,
                   "vargte": value is not None and value >= float(node.text),
                   "varlte": value is not None and value <= float(node.text)}
        return compare[tag]

    score = 0.0
    for cond in item.iter(_q("respcondition")):
        if holds(cond.find(_q("conditionvar"))):
            setvar = cond.find(_q("setvar"))
            if setvar is not None:
                score = score + float(setvar.text) if setvar.get("action") == "Add" else float(setvar.text)
            if cond.get("continue") != "Yes":
                break
    return score


def _canvas_items(items=ITEMS, versions=VERSIONS):
    root = ET.fromstring(zipfile.ZipFile(io.BytesIO(qti_zip(list(items), SEED, versions))).read(
        "gofish_quiz_bank/gofish_quiz_bank.xml"))
    return {el.get("ident"): el for el in root.iter(_q("item"))}


def test_canvas_grades_a_number_within_the_keys_tolerance(variants):
    """Q00.M1(b) asks for one decimal "with its sign" (key 151/250 = 0.604, within 0.15): Canvas took
    only the text 0.6, so +0.6 scored 0. Parsed back and graded as Canvas grades: the key's forms,
    a value just inside the tolerance and not one just outside, for every numeric blank."""
    m1 = [i for i in ITEMS if i.id == "Q00.M1"]
    (item, questions), = bank_variants(m1, SEED, len(m1[0].space))  # every version of it
    q = next(q for q in questions if q.parts[1].answer == Fraction(151, 250))
    el = _canvas_items(m1, len(m1[0].space))[f"Q00_M1_v{questions.index(q) + 1}"]
    items = _canvas_items()
    share = round(100 / len(q.parts), 2)  # each blank's share of the points, as the package writes it

    def graded(text):
        return canvas_score(el, {"response_b": text})
    assert [graded(t) for t in ("0.6", "+0.6", " +0.6 ", ".6", "0.60", "0.75", "0.46")] == [share] * 7
    assert [graded(t) for t in ("0.76", "0.45", "0.7541", "", "six")] == [0] * 5
    checked = 0
    for item, questions in variants:
        for v, q in enumerate(questions, 1):
            if len(q.parts) < 2:
                continue
            el = items[f"{item.id.replace('.', '_')}_v{v}"]
            share = round(100 / len(q.parts), 2)
            for b, part in zip("abcdefgh", q.parts, strict=False):
                if part.kind != "number":
                    continue
                fine = Fraction(1, 10 ** (part.decimals + 1))
                inside = (part.answer + part.tolerance) // fine * fine  # the largest value within, one place more
                outside = inside + fine if inside + fine > part.answer + part.tolerance else inside + 2 * fine
                key = part.decimal()
                forms = [key, part.exact()] + (["+" + key] if float(key) > 0 else [])
                for text in forms + [f"{float(inside):.{part.decimals + 1}f}"]:
                    assert canvas_score(el, {f"response_{b}": text}) == pytest.approx(share), (item.id, b, text)
                assert canvas_score(el, {f"response_{b}": f"{float(outside):.{part.decimals + 1}f}"}) == 0, (item.id, b)
                checked += 1
    assert checked > 100, checked


def test_canvas_grades_a_one_part_number_within_its_tolerance(variants):
    items = _canvas_items()
    checked = 0
    for item, questions in variants:
        for v, q in enumerate(questions, 1):
            part = q.parts[0]
            if len(q.parts) > 1 or part.kind != "number":
                continue
            el = items[f"{item.id.replace('.', '_')}_v{v}"]
            fine = Fraction(1, 10 ** (part.decimals + 3))
            inside = (part.answer + part.tolerance) // fine * fine
            for text in (part.decimal(), "+" + part.decimal(), f"{float(inside):.{part.decimals + 3}f}"):
                assert canvas_score(el, {"response1": text}) == 100, (item.id, text)
            outside = inside + 2 * fine
            assert canvas_score(el, {"response1": f"{float(outside):.{part.decimals + 3}f}"}) == 0, item.id
            checked += 1
    assert checked > 20, checked


# ---------------------------------------------------------------------------------- the command

def test_the_quiz_command_writes_the_bank_and_keys_without_chromium(tmp_path):
    folder = tmp_path / "q"
    out = io.StringIO()
    assert main(["quiz", str(folder), "--versions", "2", "--seed", "3", "--lessons", "04,05", "--no-pdf"], out=out) == 0
    rows = list(csv.DictReader((folder / "keys.csv").open(encoding="utf-8")))
    made = make_versions(items_for(["04", "05"]), 3, 2)
    assert len(rows) == sum(len(q.parts) for v in made for q in v.questions)
    assert {r["item"] for r in rows} == {i.id for i in items_for(["04", "05"])}
    assert "quiz-bank-moodle.xml" in out.getvalue()


@pytest.mark.parametrize("argv, field", [(["--versions", "0"], "versions"), (["--versions", "101"], "versions"),
                                         (["--seed", "-1"], "seed"), (["--lessons", "99"], "lessons")])
def test_the_quiz_command_names_bad_input_and_writes_nothing(tmp_path, capsys, argv, field):
    folder = tmp_path / "q"
    with pytest.raises(SystemExit) as stop:
        main(["quiz", str(folder), "--no-pdf", *argv])
    assert stop.value.code == 2 and field in capsys.readouterr().err
    assert not folder.exists()


def test_the_quiz_command_refuses_a_file_where_its_folder_goes(tmp_path, capsys):
    target = tmp_path / "taken"
    target.write_text("not a folder")
    with pytest.raises(SystemExit):
        main(["quiz", str(target), "--no-pdf"])
    assert "DIR" in capsys.readouterr().err and target.read_text() == "not a folder"
