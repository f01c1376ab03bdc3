"""The predict-first question in a real browser: JupyterLab and headless Chromium, as tests/test_browser.py.

A small notebook with one multiple-choice and one number question is executed and saved (as the
lessons are), opened in JupyterLab: before any cell runs, the saved question text shows; after
**Run All**, clicking a letter and typing answers show the feedback the callbacks give, and a
press of Check right after typing (no Tab, no wait) checks what the box shows, even while the
kernel is busy and the page's messages wait in line.
A screenshot goes to the test's ``tmp_path``.
"""
from __future__ import annotations

import subprocess
import sys

import pytest

from test_browser import open_notebook, run_command, scratch, wait_idle

CELLS = [
    '''from fractions import Fraction
from gofish_teach.widgets import Question

Question("P(West holds a Queen) is ...", choices=["more than 1/2", "about 1/2", "less than 1/2"],
         answer="less than 1/2", explain="It is 0.37.", wrong={"more than 1/2": "Most Queens are elsewhere."})''',
    '''Question("P(the top card is a seven)?", answer=Fraction(2, 47), tolerance=0.005,
         explain="Every unseen place is alike.", wrong={Fraction(2, 32): "The sevens need not be in the ocean."})''',
]


@pytest.mark.slow
def test_question_in_jupyterlab(page, lab, kit, tmp_path):
    import nbformat

    path = kit / "questions.ipynb"  # in the folder the session's make lab serves
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nbformat.write(nb, path)
    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute", "--inplace",
                    "--ExecutePreprocessor.store_widget_state=False", str(path)], check=True, capture_output=True)

    open_notebook(page, lab, path.name)
    # Saved, not run: the question's text is there, without a kernel's widget state.
    page.wait_for_selector("text=Predict first.")
    assert "C. less than 1/2" in page.locator(".jp-OutputArea-output").first.inner_text()
    page.screenshot(path=str(tmp_path / "question-saved.png"), full_page=True)

    run_command(page, "runmenu:run-all")
    wait_idle(page, 120)
    page.wait_for_selector(".widget-toggle-buttons")

    page.locator(".widget-toggle-button", has_text="A").first.click()
    page.wait_for_selector(".gofish-feedback.gofish-wrong")
    assert "Most Queens are elsewhere." in page.locator(".gofish-feedback").first.inner_text()
    page.locator(".widget-toggle-button", has_text="C").first.click()
    page.wait_for_selector(".gofish-feedback.gofish-right")
    assert page.locator(".gofish-feedback").first.inner_text().startswith("Right. It is 0.37.")

    box = page.locator(".widget-text input").first
    check = page.locator("button", has_text="Check").first
    for typed, kind, says in (("1/0", "invalid", "divides by zero"), ("2/32", "wrong", "need not be in the ocean"),
                              ("4.26%", "right", "Right.")):
        box.fill(typed)
        check.click()  # at once: no Tab, no waiting for the kernel (test_check_while_the_kernel_is_busy)
        # the number question's own feedback (the first question's is already "right")
        page.wait_for_function("""([kind, says]) => { const f = document.querySelectorAll('.gofish-feedback')[1];
                                  return f && f.classList.contains('gofish-' + kind) && f.textContent.includes(says); }""",
                               arg=[kind, says])
        assert says in page.locator(".gofish-feedback").nth(1).inner_text(), typed
    # Keys typed in the box are the box's (not the notebook's shortcuts: "a", "b" add cells), and Enter checks.
    cells = page.locator(".jp-Notebook .jp-Cell").count()
    box.fill("")
    box.press_sequentially("about a half")
    box.press("Enter")
    page.wait_for_function("() => document.querySelectorAll('.gofish-feedback')[1].classList.contains('gofish-invalid')")
    assert "'about a half' is not a number" in page.locator(".gofish-feedback").nth(1).inner_text()
    assert page.locator(".jp-Notebook .jp-Cell").count() == cells and box.input_value() == "about a half"
    page.screenshot(path=str(tmp_path / "question.png"), full_page=True)


#: Code the kernel runs while the learner answers: it is busy until the test writes the file ``go``.
BUSY = "import pathlib, time\nwhile not pathlib.Path('go').exists():\n    time.sleep(0.05)"
#: Each round: a first answer, then the learner changes their mind; the kind and words the second one gets.
ROUNDS = (("2/32", "4.26%", "right", "Right."), ("4.26%", "1/0", "invalid", "divides by zero"),
          ("1/0", "2/32", "wrong", "need not be in the ocean"), ("seven", "0.0426", "right", "Right."))


@pytest.mark.slow
def test_check_while_the_kernel_is_busy(page, lab, kit):
    """Type, press Check, type again, press Check, with no pause, while the kernel is busy: the feedback is
    for what the box showed at the last press, and stays so.

    While the kernel runs other code (a long cell), what the page sends waits in line. An ipywidgets
    ``Text`` holds back its changed value until its previous message is answered, but a ``Button``'s
    click is never held back: so the kernel got the first answer, both clicks, and only then the
    second answer, and showed the feedback for the first one under the second. The kernel is kept
    busy here until the test says (a file), not for a time, so the clicks always queue.
    """
    name = scratch(kit, "busy-question.ipynb", CELLS[0].split("\n\n")[0], CELLS[1])  # the imports, the number question
    go = kit / "go"
    open_notebook(page, lab, name)
    run_command(page, "runmenu:run-all")
    wait_idle(page, 120)
    box = page.locator(".widget-text input").first
    check = page.locator("button", has_text="Check").first
    for first, second, kind, says in ROUNDS:
        go.unlink(missing_ok=True)
        page.evaluate("""async (code) => {
            const app = window.jupyterapp || window.jupyterlab;
            app.shell.currentWidget.sessionContext.session.kernel.requestExecute({code});
        }""", BUSY)
        for typed in (first, second):
            box.fill(typed)
            check.click()
        go.write_text("")  # the kernel is free: what waited in line arrives
        try:
            page.wait_for_function("""([kind, says]) => { const f = document.querySelector('.gofish-feedback');
                                      return f && f.classList.contains('gofish-' + kind) && f.textContent.includes(says); }""",
                                   arg=[kind, says], timeout=30_000)
        finally:
            wait_idle(page, 60)  # nothing still in line changes it afterwards
            shown = page.locator(".gofish-feedback").first.inner_text()
            assert says in shown, f"the box shows {box.input_value()!r}, the feedback is for another answer: {shown!r}"
        assert box.input_value() == second


@pytest.mark.slow
def test_a_learners_first_answer_waits_for_the_result_and_is_saved_in_the_notebook(page, lab, kit, tmp_path):
    """A learner's copy of a question and its result cell, in JupyterLab: Run All stops at the result until the
    question is answered; the first answer (A), not the second (B), is what the saved notebook keeps, and
    ``gofish-teach answers`` reads it back."""
    import json
    import shutil

    import nbformat

    from gofish_teach.teacher import gather, learner_notebook
    from gofish_teach.widgets.question import ANSWER_MIME
    from test_browser import run_all, save

    question = ('from gofish_teach.widgets import Question\n\n'
                'Question("P(West holds at least one Queen) is ...", choices=["less than 1/4", "between 1/4 and 1/2", '
                '"between 1/2 and 3/4", "more than 3/4"], id="L00-queen-chance")')
    result = nbformat.v4.new_code_cell("1 - 43 * 42 * 41 * 40 * 39 / (47 * 46 * 45 * 44 * 43)",
                                       metadata={"tags": ["reveal"], "gofish_teach": {"reveals": ["L00-queen-chance"]}})
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(question), result],
                                  metadata={"kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                                           "language": "python"}})
    path = kit / "first-answer.ipynb"
    path.write_bytes(learner_notebook(nbformat.writes(nb).encode()))

    open_notebook(page, lab, path.name)
    run_all(page)
    page.wait_for_selector("text=Predict first: answer the question above")
    assert "0.372" not in page.locator(".jp-Notebook").inner_text()
    page.locator(".widget-toggle-button", has_text="A").first.click()
    page.wait_for_selector(".gofish-feedback.gofish-wrong")
    page.locator(".widget-toggle-button", has_text="B").first.click()
    page.wait_for_selector(".gofish-feedback.gofish-right")
    run_all(page)  # the question is built anew, and the result cell runs now
    page.wait_for_selector("text=Your first answer")
    assert "0.372" in page.locator(".jp-Notebook").inner_text()
    save(page, path)

    saved = json.loads(path.read_text(encoding="utf-8"))
    records = [o["data"][ANSWER_MIME] for c in saved["cells"] for o in c.get("outputs", []) if ANSWER_MIME in o.get("data", {})]
    assert [r["first_answers"][0]["answer"] for r in records] == ["A"]
    (tmp_path / "class" / "ann").mkdir(parents=True)
    shutil.copy(path, tmp_path / "class" / "ann" / path.name)
    (row,) = gather(tmp_path / "class")
    assert (row.learner, row.question, row.answer, row.status) == ("ann", "L00-queen-chance", "A", "wrong")
