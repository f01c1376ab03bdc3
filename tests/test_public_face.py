"""One public face per audience (issue 36): what a notebook imports comes from a few modules, each
with ``__all__``, never a private name or a deeper path, so the package can be rearranged inside
without breaking a lesson, a key or a learner's copy."""
import ast
import importlib
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The lessons check learners' code with ``gofish_teach.exercises`` too, lesson 08 solves small
#: games with ``gofish_teach.bestplay``, and lesson 10 reads the class's games with ``gofish_teach.classroom``.
LESSON_FACES = {"gofish_teach", "gofish_teach.widgets", "gofish_teach.probability", "gofish_teach.stats",
                "gofish_teach.exercises", "gofish_teach.bestplay", "gofish_teach.classroom"}
FACES = {
    "notebooks": LESSON_FACES,
    "notebooks/teacher": LESSON_FACES | {"gofish_teach.quiz"},
    "exercises": LESSON_FACES,
    "solutions": LESSON_FACES,
}
NOTEBOOKS = sorted(p for folder in FACES for p in (ROOT / folder).glob("*.ipynb"))


def imports(notebook: Path):
    """``(module, name)`` for every import of ``gofish_teach`` in the notebook's code cells (name None: ``import m``)."""
    for cell in json.loads(notebook.read_text())["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        lines = [line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))]
        for node in ast.walk(ast.parse("\n".join(lines))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "gofish_teach":
                yield from ((node.module, alias.name) for alias in node.names)
            elif isinstance(node, ast.Import):
                yield from ((alias.name, None) for alias in node.names if alias.name.split(".")[0] == "gofish_teach")


@pytest.mark.parametrize("face", sorted(set().union(*FACES.values())))
def test_each_face_declares_what_it_offers_and_offers_it(face):
    module = importlib.import_module(face)
    assert module.__all__, face
    for name in module.__all__:
        assert not name.startswith("_") and getattr(module, name) is not None, (face, name)


def test_the_notebooks_are_found():
    assert len(NOTEBOOKS) >= 20 and {p.parent.name for p in NOTEBOOKS} >= {"notebooks", "teacher", "exercises",
                                                                            "solutions"}


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_notebook_imports_only_from_its_public_faces(notebook):
    allowed = FACES[str(notebook.parent.relative_to(ROOT))]
    wrong = []
    for module, name in imports(notebook):
        if module not in allowed:
            wrong.append(f"{module} (not a public face: use one of {sorted(allowed)})")
        elif name is not None and name != "*" and name not in importlib.import_module(module).__all__:
            wrong.append(f"{name} from {module} (not in its __all__)")
    assert not wrong, wrong


def test_the_check_sees_a_deeper_path_and_a_private_name(tmp_path):
    """So the test above can fail: a notebook that imports as the keys once did is caught."""
    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
            "source": "%matplotlib inline\nfrom gofish_teach.widgets.table import _Before\nimport gofish_teach.simulate\n"}
    nb = tmp_path / "key.ipynb"
    nb.write_text(json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    assert list(imports(nb)) == [("gofish_teach.widgets.table", "_Before"), ("gofish_teach.simulate", None)]
