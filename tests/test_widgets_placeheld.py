"""What a widget leaves in a saved notebook, before its cell runs (widgets._panes.Placeheld).

A widget's own output is a model id, which only a kernel holding that model draws: JupyterLab shows
"Error displaying widget: model not found" for it in a trusted notebook whose cells have not run
(tests/test_browser.py checks the page). So each widget displays as a note, then its model id alone.
"""
import nbformat
import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from gofish_teach.teacher.handouts import for_paper
from gofish_teach.widgets._panes import WIDGET_VIEW

CELLS = {
    "Table": "from gofish_teach.widgets import Table\nTable('pond', seed=3)",
    "Explorer": "from gofish_teach.widgets import Explorer\nExplorer()",
    "Lab": "from gofish_teach.widgets import Lab\nLab(players=2, games=10)",
    "Question": "from gofish_teach.widgets import Question\nQuestion('2 + 2?', answer=4, explain='Count.')",
}


@pytest.fixture(scope="module")
def shown():
    """Each widget's outputs, as a notebook's cell displays it (the last line of the cell)."""
    shell = InteractiveShell.instance()
    outputs = {}
    for name, source in CELLS.items():
        with capture_output() as out:
            shell.run_cell(source)
        outputs[name] = [(o.data, o.metadata) for o in out.outputs]
    return outputs


@pytest.mark.parametrize("name", list(CELLS))
def test_a_widget_is_a_note_then_its_model_id_alone(shown, name):
    *before, (note, _), (view, metadata) = shown[name]
    assert [data for data, _ in before] == ([] if name != "Question" else [before[0][0]])  # the question's text
    assert "appears here once this cell has run" in note["text/html"] and "<style>" in note["text/html"]
    assert "appears here once this cell has run" in note["text/plain"]
    assert list(view) == [WIDGET_VIEW]  # nothing to show in its place where it cannot be drawn
    assert metadata == {"gofish_teach": {"widget": "QuestionWidget" if name == "Question" else name}}


def test_a_closed_widget_shows_only_what_it_was():
    from gofish_teach.widgets import Table

    table = Table("pond", seed=3)
    table.close()
    from IPython.display import display

    with capture_output() as out:
        display(table)
    assert [list(o.data) for o in out.outputs] == [["text/plain"]]


def test_on_paper_a_widget_is_one_sentence_naming_it(shown):
    """A handout has no kernel: the note (for the screen) goes, the widget is said in a sentence."""
    outputs = [nbformat.v4.new_output("display_data", data, metadata=meta) for data, meta in shown["Table"]]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(CELLS["Table"], outputs=outputs)])
    (printed,) = for_paper(nb).cells[0].outputs
    assert printed["data"]["text/plain"].startswith("On screen, the interactive Table appears here: a game of Go Fish")
