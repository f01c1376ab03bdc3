"""Keep a run notebook as JupyterLab would save it: ``python -m gofish_teach.teacher.notebooks NB.ipynb ...``.

``make notebooks`` runs each notebook with nbconvert and then tidies it here, so that opening
it in JupyterLab, running all cells and saving gives back the same bytes:

- no cell timing metadata (``execution``): JupyterLab drops it when a cell runs, and nbconvert
  run with ``record_timing=False`` does not write it but keeps what an older run wrote;
- consecutive outputs to the same stream as one: JupyterLab joins them as they arrive, while
  nbconvert keeps them apart whenever the kernel flushed in between (on a busy machine, often).

>>> nb = {"cells": [{"cell_type": "code", "metadata": {"execution": {"iopub.status.idle": "..."}}, "outputs": [
...     {"output_type": "stream", "name": "stdout", "text": "58 asks"},
...     {"output_type": "stream", "name": "stdout", "text": "\\nthe last ones"},
...     {"output_type": "stream", "name": "stderr", "text": "a warning"}]}]}
>>> cell = tidy(nb)["cells"][0]
>>> cell["metadata"], [o["text"] for o in cell["outputs"]]
({}, ['58 asks\\nthe last ones', 'a warning'])
"""
from __future__ import annotations

import sys
from pathlib import Path


def tidy(notebook: dict) -> dict:
    """``notebook`` (a dict, changed in place and returned) without timing metadata, its streams joined."""
    for cell in notebook["cells"]:
        cell.get("metadata", {}).pop("execution", None)
        outputs = []
        for output in cell.get("outputs", []):
            last = outputs[-1] if outputs else None
            if (output["output_type"] == "stream" and last is not None and last["output_type"] == "stream"
                    and last["name"] == output["name"]):
                last["text"] = _text(last["text"]) + _text(output["text"])
            else:
                outputs.append(output)
        if "outputs" in cell:
            cell["outputs"] = outputs
    return notebook


def _text(text) -> str:
    return "".join(text) if isinstance(text, list) else text


def tidy_file(path: Path) -> bool:
    """Tidy the notebook at ``path`` in place (in nbformat's layout); whether it changed."""
    import nbformat

    before = Path(path).read_text(encoding="utf-8")
    notebook = nbformat.reads(before, as_version=4)
    after = nbformat.writes(tidy(notebook)) + "\n"
    if after != before:
        Path(path).write_text(after, encoding="utf-8")
    return after != before


def main(argv=None) -> int:
    for path in (sys.argv[1:] if argv is None else argv):
        if tidy_file(Path(path)):
            print(f"tidied {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
