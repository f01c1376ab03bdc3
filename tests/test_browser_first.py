"""Predict first in JupyterLab (real Chromium, the session's one ``make lab``): where Run All stops, and first
answers that last (issue 43; browser-3 N1-N3).

On a learner's copy of lesson 00 made by ``gofish-teach course``:

- Run All on the unanswered lesson stops at the first question: the question is in view (JupyterLab
  had left the view at the end of the notebook, about 3,000 px below), its answer box has the
  keyboard focus (so its cell is the one *Run Selected Cell and All Below* starts from), the
  message says what to do, and every cell below shows what it showed before (JupyterLab had
  emptied them all). In JupyterLab's own default windowing mode, on a laptop-sized window.
- A learner answers (then changes their mind), goes on, answers the next question, saves;
  restarts the kernel, closes the lesson and opens it again with a new kernel, runs all again and
  tries to answer again: the first answers stand, in the notebook, beside it and in
  ``gofish-teach answers``.
"""
from __future__ import annotations

import csv
import io
import json
import time

import pytest

from test_browser import RUN_SECONDS, _shut_down_kernels, open_notebook, run_command, save, wait_idle
from test_first_kept import ran_before

pytestmark = pytest.mark.slow

#: Each cell's outputs, from the notebook's model (JupyterLab's windowing draws only some cells' outputs).
CELL_OUTPUTS = """() => { const app = window.jupyterapp || window.jupyterlab;
    const cells = app.shell.currentWidget.content.model.cells, all = [];
    for (let i = 0; i < cells.length; i++) { const c = cells.get(i); all.push(c.type === 'code' ? c.outputs.toJSON() : []); }
    return all; }"""
#: Where the stop and its question are, and what has the focus.
WHERE = """() => {
    const app = window.jupyterapp || window.jupyterlab;
    const notebook = app.shell.currentWidget.content;
    const stop = [...document.querySelectorAll('.jp-OutputArea-output')]
        .find(e => e.textContent.includes('Predict first: answer the question above'));
    const cell = stop && stop.closest('.jp-Cell');
    const question = cell && cell.previousElementSibling.querySelector('.gf-question');
    const box = (e) => e ? e.getBoundingClientRect() : null;
    const view = document.querySelector('.jp-WindowedPanel-outer') || document.documentElement;
    return {stop: box(stop), question: box(question), view: box(view), height: window.innerHeight,
            active: notebook.activeCellIndex, stopCell: [...notebook.widgets].findIndex(w => w.node === cell),
            focusInQuestion: !!(question && question.contains(document.activeElement)), message: stop && stop.textContent};
}"""


def _lesson(kit, name: str) -> str:
    from gofish_teach.teacher import copy_course

    copy_course(kit / "class" / name)
    return f"class/{name}/lessons/00-welcome.ipynb"


def _windowing(kit, mode: str | None) -> str:
    """Set the session's JupyterLab windowing mode (None: JupyterLab's default); the old setting."""
    tracker = kit.parent / "settings" / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings"
    old = tracker.read_text()
    tracker.write_text(json.dumps({} if mode is None else {"windowingMode": mode}))
    return old


def _run_all_to_the_stop(page) -> float:
    started = time.perf_counter()
    run_command(page, "runmenu:run-all")
    page.wait_for_timeout(500)
    wait_idle(page, RUN_SECONDS)
    page.wait_for_function("() => [...document.querySelectorAll('.jp-OutputArea-output')]"
                           ".some(e => e.textContent.includes('Predict first: answer the question above'))")
    return time.perf_counter() - started


def _shown(outputs: list) -> str:
    """What a reader is shown of a cell's outputs: their kind and content, but a widget's id (no model holds it)."""
    from gofish_teach.widgets._panes import WIDGET_VIEW

    kept = []
    for o in outputs:
        data = {k: "".join(v) if isinstance(v, list) else v for k, v in o.get("data", {}).items() if k != WIDGET_VIEW}
        text = o.get("text", "") or f"{o.get('ename', '')}: {o.get('evalue', '')}"
        kept.append((o["output_type"], o.get("name"), "".join(text) if isinstance(text, list) else text, data))
    return json.dumps([k for k in kept if k[2] or k[3] or k[0] == "error"], sort_keys=True)


def _in_view(where) -> bool:
    top, bottom = max(0, where["view"]["top"]), min(where["height"], where["view"]["bottom"])
    return all(top <= where[k]["top"] and where[k]["bottom"] <= bottom for k in ("stop", "question"))


def test_run_all_stops_with_the_question_in_view_and_the_cells_below_as_they_were(page, lab, kit, tmp_path):
    old = _windowing(kit, None)  # JupyterLab's default (the tests' own setting draws every cell)
    try:
        page.set_viewport_size({"width": 1280, "height": 760})
        rel = _lesson(kit, "ann")
        ran_before(kit / rel)  # cells below the stop with outputs to keep (a fresh copy may save none there)
        open_notebook(page, lab, rel)
        before = [_shown(o) for o in page.evaluate(CELL_OUTPUTS)]
        took = _run_all_to_the_stop(page)
        page.wait_for_timeout(3500)  # the page places the question again for 3 s as cells are drawn
        where = page.evaluate(WHERE)
        after = [_shown(o) for o in page.evaluate(CELL_OUTPUTS)]
        page.screenshot(path=str(tmp_path / "stop.png"))
    finally:
        (kit.parent / "settings" / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings").write_text(old)
    print(f"\nRun All to the stop: {took:.1f} s; stop at {where['stop']['top']:.0f}-{where['stop']['bottom']:.0f} px, "
          f"question from {where['question']['top']:.0f} px, in a view of {where['height']} px")
    assert _in_view(where), where
    assert where["focusInQuestion"] and where["active"] == where["stopCell"] - 1, where  # the question's cell
    assert "then choose Run > Run Selected Cell and All Below to go on." in where["message"]
    assert where["message"].isascii(), "a symbol a machine's fonts may lack"
    stop = where["stopCell"]
    assert before[stop] == "[]" and "NotAnsweredYet: Predict first: answer the question above" in after[stop]
    changed = [i for i in range(stop + 1, len(before)) if before[i] != after[i]]
    asks = [i for i in changed if "Predict first." in before[i] and "Predict first." in after[i]]  # questions: now live
    assert changed == asks, {i: (before[i][:200], after[i][:200]) for i in changed if i not in asks}
    kept = sum(1 for i in range(stop + 1, len(before)) if before[i] != "[]" and i not in asks)
    print(f"{kept} cells below the stop show their outputs as before")
    assert kept >= 8, "too few outputs below the stop to tell"
    assert not page.get_by_text("Error displaying widget").count()


def _answer(page, cell: int, typed: str, says: str) -> None:
    """Type ``typed`` in the answer box of notebook cell ``cell`` and press Check; wait for its feedback."""
    question = page.locator(".jp-Notebook .jp-Cell").nth(cell)
    question.locator(".widget-text input").fill(typed)
    question.locator("button", has_text="Check").click()
    question.locator(".gofish-feedback", has_text=says).wait_for()


def _choose(page, cell: int, letter: str, status: str) -> None:
    question = page.locator(".jp-Notebook .jp-Cell").nth(cell)
    question.locator(".widget-toggle-button", has_text=letter).first.click()
    question.locator(f".gofish-feedback.gofish-{status}").wait_for()


def _records(path) -> dict:
    from gofish_teach.widgets import ANSWER_MIME

    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return {r["id"]: r["answer"] for c in cells for o in c.get("outputs", [])
            for r in o.get("data", {}).get(ANSWER_MIME, {}).get("first_answers", [])}


def test_first_answers_outlive_a_restart_a_reopened_lesson_and_a_second_run_all(page, lab, kit):
    from gofish_teach.__main__ import main

    rel = _lesson(kit, "ben")
    path = kit / rel
    open_notebook(page, lab, rel)
    _run_all_to_the_stop(page)
    count_asks = page.evaluate(WHERE)["stopCell"] - 1
    _answer(page, count_asks, "8", "Not quite.")
    _answer(page, count_asks, "15", "Right.")  # a change of mind: its feedback, not a first answer
    run_command(page, "notebook:run-all-below")  # from the question, which the page had made the active cell
    page.wait_for_timeout(500)
    wait_idle(page, RUN_SECONDS)
    queen = page.evaluate(WHERE)["stopCell"] - 1
    assert queen > count_asks
    _choose(page, queen, "A", "wrong")
    _choose(page, queen, "B", "right")
    save(page, path)
    assert _records(path) == {"L00-count-asks": "8"}  # the reveal after the queen question has not run yet
    kept = json.loads((path.parent / "first-answers.json").read_text())["first_answers"]
    assert {q: r["answer"] for q, r in kept.items()} == {"L00-count-asks": "8", "L00-queen-chance": "A"}

    page.evaluate("""() => { const app = window.jupyterapp || window.jupyterlab;
                              app.commands.execute('kernelmenu:restart'); }""")  # not awaited: it waits for the dialog
    page.get_by_role("button", name="Confirm Kernel Restart").click()  # a restart: the kernel forgets
    wait_idle(page, RUN_SECONDS)
    _shut_down_kernels(lab)  # and the lesson closed, then opened again with a new kernel
    open_notebook(page, lab, rel)
    _run_all_to_the_stop(page)  # the two answered questions' results show; the third question waits
    shown = page.locator(".jp-Notebook").inner_text()
    assert "Your first answer, kept for the class discussion: 8." in shown
    assert 'Your first answer, kept for the class discussion: A ("less than 1/4").' in shown
    _answer(page, count_asks, "15", "Right.")  # a "first" answer again, in the new kernel: not kept
    _choose(page, queen, "B", "right")
    save(page, path)
    assert _records(path) == {"L00-count-asks": "8", "L00-queen-chance": "A"}

    out = io.StringIO()
    assert main(["answers", str(kit / "class"), "--out", str(kit.parent / "answers")], out=out) == 0
    with open(kit.parent / "answers" / "first-answers.csv", newline="") as f:
        rows = {(r["learner"], r["question"]): (r["answer"], r["status"]) for r in csv.DictReader(f) if r["question"]}
    assert rows[("ben", "L00-count-asks")] == ("8", "wrong") and rows[("ben", "L00-queen-chance")] == ("A", "wrong")


PROSE = "Three opponents times five ranks: $3 \\times 5 = 15$ asks, **every** one of them legal."


def test_the_result_shows_once_answered_with_the_lessons_words_as_markdown_and_math(page, lab, kit):
    """What the lessons tag ``answers:<id>`` comes from the packed bank; here one question's prose is put in
    the kernel's bank by hand (the lessons' tags are another branch's), and shown, typeset, behind the answer."""
    import nbformat

    folder = kit / "class" / "prose"
    folder.mkdir(parents=True)
    cells = [
        "from gofish_teach.widgets import question_bank\n"
        f"question_bank.load()['L00-count-asks']['prose'] = [{PROSE!r}]",
        'from gofish_teach.widgets import Question\nQuestion("How many asks?", id="L00-count-asks")',
        'from gofish_teach.widgets import reveal\nreveal("L00-count-asks")',
    ]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells], metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}})
    nbformat.write(nb, folder / "prose.ipynb")
    open_notebook(page, lab, "class/prose/prose.ipynb")
    _run_all_to_the_stop(page)
    result = page.locator(".jp-Notebook .jp-Cell").nth(2)
    assert "15" not in result.locator(".jp-OutputArea").inner_text() and not result.locator("mjx-container").count()
    _answer(page, 1, "15", "Right.")
    run_command(page, "notebook:run-all-below")
    page.wait_for_timeout(500)
    wait_idle(page, RUN_SECONDS)
    result.locator(".jp-RenderedMarkdown mjx-container").first.wait_for()  # the math, typeset
    shown = result.locator(".jp-OutputArea").inner_text()
    assert "Your first answer, kept for the class discussion: 15." in shown and "Right." in shown
    assert result.locator(".jp-RenderedMarkdown strong", has_text="every").count() == 1
    assert "$" not in result.locator(".jp-RenderedMarkdown").inner_text()
    page.screenshot(path=str(kit.parent / "revealed.png"))
