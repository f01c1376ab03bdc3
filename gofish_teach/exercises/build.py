"""Make the learners' notebooks from the solution notebooks: ``python -m gofish_teach.exercises.build``.

The notebooks in ``solutions/`` are the source (like an Otter Assign master notebook). A
cell tagged ``solution`` holds the completed function, and its metadata
``gofish_teach.stub`` the stub that learners get instead. Building copies every notebook,
puts the stub in place of each solution (tagged ``answer`` from then on), drops the
solution's outputs and runs the notebook top to bottom in its unfinished state: it is saved
with what its check says about the stub, which is what JupyterLab shows after Run All, so
opening, running and saving a handed-out notebook changes nothing.

>>> solution = {"cell_type": "code", "source": "def f():\\n    return 1",
...             "metadata": {"tags": ["solution"], "gofish_teach": {"stub": "def f():\\n    raise NotImplementedError"}},
...             "outputs": [], "execution_count": 3}
>>> strip({"cells": [solution], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})["cells"][0]["source"]
'def f():\\n    raise NotImplementedError'
"""
from __future__ import annotations

import argparse
import copy
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def strip(notebook: dict) -> dict:
    """The exercise version of a solution notebook (a new dict; ``notebook`` is unchanged)."""
    out = copy.deepcopy(notebook)
    for cell in out["cells"]:
        meta = cell.setdefault("metadata", {})
        tags = meta.get("tags", [])
        if "solution" in tags:
            stub = meta.get("gofish_teach", {}).get("stub")
            if stub is None:
                raise ValueError(f"cell {cell.get('id', '?')}: a solution cell needs metadata gofish_teach.stub")
            cell["source"] = stub
            meta["tags"] = ["answer" if t == "solution" else t for t in tags]
            del meta["gofish_teach"]
        meta.pop("execution", None)
        if cell["cell_type"] == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    return out


def dumps(notebook: dict) -> str:
    """A notebook as Jupyter writes it (nbformat's layout), for stable diffs."""
    import nbformat

    return nbformat.writes(nbformat.from_dict(notebook)) + "\n"


def run(notebook: dict, folder: Path) -> dict:
    """``notebook`` run top to bottom in a fresh kernel in ``folder``, as ``make notebooks`` runs one:
    no timing metadata and no widget state (JupyterLab keeps neither)."""
    import nbformat
    from nbclient import NotebookClient

    from ..teacher import tidy

    nb = nbformat.reads(json.dumps(notebook), as_version=4)  # sources joined, as nbclient reads them
    NotebookClient(nb, timeout=300, record_timing=False, store_widget_state=False,
                   resources={"metadata": {"path": str(folder)}}).execute()
    return tidy(json.loads(nbformat.writes(nb)))


def build(solutions: Path = ROOT / "solutions", exercises: Path = ROOT / "exercises", execute: bool = True) -> list[Path]:
    """Write ``exercises/NAME.ipynb`` for every ``solutions/NAME.ipynb``, run in its unfinished
    state unless ``execute`` is false; returns the paths written."""
    written = []
    for path in sorted(Path(solutions).glob("*.ipynb")):
        notebook = json.loads(path.read_text(encoding="utf-8"))  # plain dicts: strip() deep-copies them
        target = Path(exercises) / path.name
        exercise = strip(notebook)
        target.write_text(dumps(run(exercise, Path(exercises)) if execute else exercise), encoding="utf-8")
        written.append(target)
    return written


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gofish_teach.exercises.build", description=__doc__.split("\n\n")[0])
    parser.add_argument("--solutions", type=Path, default=ROOT / "solutions")
    parser.add_argument("--exercises", type=Path, default=ROOT / "exercises")
    args = parser.parse_args(argv)
    for path in build(args.solutions, args.exercises):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
