"""The predict-first question in a real browser: JupyterLab and headless Chromium, as tests/test_browser.py.

A small notebook with one multiple-choice and one number question is executed and saved (as the
lessons are), opened in JupyterLab: before any cell runs, the saved question text shows; after
**Run All**, clicking a letter and typing answers show the feedback the callbacks give.
A screenshot goes to the test's ``tmp_path``.
"""
from __future__ import annotations

import subprocess
import sys

import pytest

from test_browser import open_notebook, run_command, wait_idle

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
    assert page.locator(".gofish-feedback").first.inner_text().startswith("✔ Right. It is 0.37.")

    box = page.locator(".widget-text input").first
    check = page.locator("button", has_text="Check").first
    for typed, kind, says in (("1/0", "invalid", "divides by zero"), ("2/32", "wrong", "need not be in the ocean"),
                              ("4.26%", "right", "Right.")):
        box.fill(typed)
        # The box sends its value when it loses focus; a widget model holds back a change while an
        # earlier one is unanswered, but not a click. So let the value reach the kernel first.
        box.press("Tab")
        wait_idle(page, 60)
        check.click()
        # the number question's own feedback (the first question's is already "right")
        page.wait_for_function("""([kind, says]) => { const f = document.querySelectorAll('.gofish-feedback')[1];
                                  return f && f.classList.contains('gofish-' + kind) && f.textContent.includes(says); }""",
                               arg=[kind, says])
        assert says in page.locator(".gofish-feedback").nth(1).inner_text(), typed
    page.screenshot(path=str(tmp_path / "question.png"), full_page=True)
