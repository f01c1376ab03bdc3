"""Where Run All stops: at a question not yet answered, with the question in view and every cell below as it was.

A learner's copy starts each cell that shows a question's result with ``reveal(id)``, which stops
Run All there until the question is answered. JupyterLab's Run All sends every cell to the kernel
at once and empties each cell's outputs as it sends it (``CodeCell.execute`` clears a cell before
its request leaves); when a cell fails, the kernel answers the requests waiting behind it with
"aborted" and runs none of them. So a stop raised as a plain error left every output below it
empty (lesson 00's figure gone, its caption left) and the view at the end of the notebook, far
from the stop (browser-3 N2). Here the stop is still an exception (its message is the cell's
output, and a client that knows nothing of this stops there too), but in a kernel:

- :func:`arm` notes the request that stopped, and a ``post_run_cell`` hook tells the kernel that
  the stop was not an error, so it does not abort the requests queued behind it;
- those requests (the rest of the same Run All: sent by the same page, each within :data:`WINDOW`
  of the one before it, while its question is still unanswered) do not run: an input transformer
  turns each into :func:`skipped`, which shows again the outputs its cell has in the saved
  notebook (found by the cell's id in the notebook the kernel was started for, else in the
  notebooks of its working folder), so the page looks as it did. A cell that asks a question
  still runs (cheap, and it shows its buttons), so no learner is left without one;
- the question's widget scrolls itself into view and takes the keyboard focus (:class:`StopMark`),
  which also makes its cell JupyterLab's active cell, where *Run Selected Cell and All Below* starts.

Outside a kernel (a plain IPython shell, a test) nothing is armed and the stop is a plain error.

>>> saved_outputs([{"id": "a", "outputs": [{"output_type": "stream", "name": "stdout", "text": "1"}]}], "a")
[{'output_type': 'stream', 'name': 'stdout', 'text': '1'}]
>>> _shown({"output_type": "display_data", "data": {WIDGET_VIEW: {"model_id": "x"}, "text/plain": "T"}})
{'text/plain': 'T'}
"""
from __future__ import annotations

import json
import os
import sys
from datetime import datetime, timedelta
from pathlib import Path

import anywidget
import traitlets as t

from ._panes import WIDGET_VIEW


class NotAnsweredYet(Exception):
    """Raised by :func:`reveal` before the question is answered: a short message, no traceback."""

    def _render_traceback_(self):  # IPython shows these lines instead of a traceback
        return [str(self)]


#: How long after the last request of the stopped Run All the next request from the same page still counts as
#: part of it (dates as the page wrote them, so its clock need not agree with the kernel's). JupyterLab makes
#: all of a Run All's requests in one go, milliseconds apart, when Run All is chosen; a client that sends one
#: cell at a time (nbconvert) sends the next as soon as the last is answered, and skipped cells are quick. A
#: cell the learner runs after the stop was made later than that: it runs.
WINDOW = timedelta(seconds=2)
#: The largest notebook read for its saved outputs.
MAX_BYTES = 20 * 2**20
#: A cell that shows a question is never skipped: its buttons must be there to answer.
ASKS = "Question("

#: The stop in force: the stopped request's session, date and id, its questions and how to tell they are
#: answered, and the saved notebook's outputs by cell id (read once, when first needed).
_armed: dict | None = None
_hooked = False


class StopMark(anywidget.AnyWidget):
    """An invisible part of a question's widget: when Run All stops for the question, the page goes to it.

    :meth:`ask` counts a stop; the browser side (``_stop.js``) scrolls the question into view and
    puts the keyboard focus on its first answer control, once per stop (``seen`` remembers which),
    so a view drawn again later (a cell scrolled back into view) does not jump.
    """

    _esm = Path(__file__).parent / "_stop.js"
    asked = t.Int(0).tag(sync=True)
    seen = t.Int(0).tag(sync=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.layout.display = "none"

    def ask(self) -> None:
        self.asked += 1


def _kernel():
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython else None
    return shell, getattr(shell, "kernel", None)


def _request() -> dict:
    """The request the kernel is handling now (``{}`` outside a kernel)."""
    _, kernel = _kernel()
    try:
        parent = kernel.get_parent() if kernel is not None else {}
    except Exception:  # an older kernel without get_parent
        return {}
    return parent if isinstance(parent, dict) else {}


def _date(value) -> datetime | None:
    if isinstance(value, datetime):
        return value
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return None


def arm(ids, waiting) -> bool:
    """Called by ``reveal`` as it stops: let the rest of this Run All show its cells as saved. True if armed.

    ``waiting()`` says whether the questions ``ids`` are still unanswered.
    """
    global _armed
    shell, _ = _kernel()
    request = _request()
    header = request.get("header") or {}
    date = _date(header.get("date"))
    if shell is None or date is None or header.get("msg_type") != "execute_request":
        return False
    _hook(shell)
    _armed = {"session": header.get("session"), "date": date, "msg_id": header.get("msg_id"),
              "ids": list(ids), "waiting": waiting, "saved": None}
    return True


def _hook(shell) -> None:
    global _hooked
    if not _hooked:
        shell.events.register("post_run_cell", _not_an_error)
        shell.input_transformers_post.append(_skip_if_stopped)
        _hooked = True


def _not_an_error(result) -> None:
    """After the stopped cell: the stop is not an error, so the kernel runs (skips) the requests behind it."""
    if (_armed is not None and isinstance(getattr(result, "error_in_exec", None), NotAnsweredYet)
            and (_request().get("header") or {}).get("msg_id") == _armed["msg_id"]):
        result.error_in_exec = None


def _in_the_stopped_run() -> bool:
    """Whether the request being handled is part of the Run All that stopped (and its question still waits)."""
    global _armed
    if _armed is None:
        return False
    request = _request()
    header = request.get("header") or {}
    if (header.get("msg_type") != "execute_request" or header.get("msg_id") == _armed["msg_id"]
            or (request.get("content") or {}).get("silent")):  # a front end's own silent code is not a cell
        return False
    date = _date(header.get("date"))
    same = (header.get("session") == _armed["session"] and date is not None
            and _armed["date"] <= date <= _armed["date"] + WINDOW)
    if not same or not _armed["waiting"]():
        _armed = None  # a later run, or the question answered: nothing is skipped any more
        return False
    _armed["date"] = date  # the next request of this Run All follows this one
    return True


def _skip_if_stopped(lines: list[str]) -> list[str]:
    """An input transformer: a cell of the stopped Run All becomes a call that shows its saved outputs."""
    try:
        if ASKS in "".join(lines) or not _in_the_stopped_run():
            return lines
        cell_id = ((_request().get("metadata") or {}).get("cellId"))
        return [f"__import__('gofish_teach.widgets._stop', fromlist=['skipped']).skipped({str(cell_id)!r})\n"]
    except Exception:  # never stand between a learner and their cell
        return lines


def saved_outputs(cells: list, cell_id: str) -> list[dict]:
    """The outputs saved with the cell ``cell_id`` among ``cells`` (a notebook's), ``[]`` if none."""
    for cell in cells:
        if isinstance(cell, dict) and cell.get("id") == cell_id:
            outputs = cell.get("outputs")
            return [o for o in outputs if isinstance(o, dict)] if isinstance(outputs, list) else []
    return []


def _notebooks() -> list[Path]:
    """Where the kernel's notebook may be: the file it was started for, then the notebooks beside it."""
    shell, _ = _kernel()
    named = os.environ.get("JPY_SESSION_NAME") or (shell.user_ns.get("__vsc_ipynb_file__") if shell else None)
    found = [Path(named)] if named else []
    try:
        found += sorted(Path.cwd().glob("*.ipynb"))[:100]
    except OSError:
        pass
    return found


def _saved_cells(cell_id: str) -> list:
    """The cells of the saved notebook that holds ``cell_id`` (read once per stop)."""
    if _armed is not None and _armed["saved"] is not None and any(c.get("id") == cell_id for c in _armed["saved"]):
        return _armed["saved"]
    for path in _notebooks():
        try:
            if path.stat().st_size > MAX_BYTES:
                continue
            cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
        except (OSError, ValueError, AttributeError, RecursionError):
            continue
        if isinstance(cells, list) and any(isinstance(c, dict) and c.get("id") == cell_id for c in cells):
            if _armed is not None:
                _armed["saved"] = cells
            return cells
    return []


def _shown(output: dict) -> dict:
    """What of a saved display to show again: all but a widget's model id (no widget of that id lives now)."""
    data = output.get("data")
    return {k: v for k, v in data.items() if k != WIDGET_VIEW} if isinstance(data, dict) else {}


class _Saved:
    """A cell's saved result, shown again as its result."""

    def __init__(self, data: dict, metadata: dict):
        self.data, self.metadata = data, metadata

    def _repr_mimebundle_(self, include=None, exclude=None):
        return self.data, self.metadata

    def __repr__(self) -> str:
        text = self.data.get("text/plain", "")
        return "".join(text) if isinstance(text, list) else str(text)


def skipped(cell_id: str):
    """What a cell of the stopped Run All does instead of running: show its saved outputs again."""
    from IPython.display import display

    outputs = saved_outputs(_saved_cells(cell_id), cell_id)
    result = None
    for k, output in enumerate(outputs):
        kind = output.get("output_type")
        if kind == "stream":
            text = output.get("text", "")
            stream = sys.stderr if output.get("name") == "stderr" else sys.stdout
            stream.write("".join(text) if isinstance(text, list) else str(text))
        elif kind in ("display_data", "execute_result"):
            # nbformat keeps long texts (and base 64) as lists of lines; JSON data stays as it is
            data = {m: "".join(v) if isinstance(v, list) and not m.endswith("json") else v
                    for m, v in _shown(output).items()}
            metadata = output.get("metadata") if isinstance(output.get("metadata"), dict) else {}
            if not data:
                continue
            if kind == "execute_result" and k == len(outputs) - 1:
                result = _Saved(data, metadata)
            else:
                display(data, metadata=metadata, raw=True)
        # an error saved from an earlier run is not shown again: it was that run's
    return result
