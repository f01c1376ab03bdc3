"""First answers that last, and where Run All stops, in a real kernel (issue 43; browser-3 N1-N3).

A learner's copy of lesson 00 (``gofish-teach course``) runs in an ipykernel started the way
JupyterLab starts one (in the notebook's folder, ``JPY_SESSION_NAME`` naming the notebook), and
the cells are sent the way JupyterLab sends them: a press of an answer button is the widget's
``respond``, and Run All is every cell's request sent at once, each with its cell's id, before
any is answered. tests/test_browser_first.py does the same in JupyterLab itself.
"""
from __future__ import annotations

import json
import os
import queue
import time
from pathlib import Path

import pytest

from gofish_teach.teacher import copy_course
from gofish_teach.widgets import ANSWER_MIME
from gofish_teach.widgets._panes import WIDGET_VIEW
from gofish_teach.widgets._stop import WINDOW

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


class Kernel:
    """An ipykernel for one notebook, driven as JupyterLab drives it."""

    def __init__(self, notebook: Path):
        from jupyter_client.manager import start_new_kernel

        self.notebook = notebook
        self._done: set[str] = set()  # requests whose kernel has gone idle again (all their outputs sent)
        self.manager, self.client = start_new_kernel(
            kernel_name="python3", cwd=str(notebook.parent), env={**os.environ, "JPY_SESSION_NAME": str(notebook)})

    def restart(self) -> None:
        self.manager.restart_kernel(now=True)
        self.client.wait_for_ready(timeout=60)

    def close(self) -> None:
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=True)

    def send(self, cells: list[dict]) -> list[str]:
        """Every cell's request at once, with its cell's id (JupyterLab's Run All); the requests' ids."""
        ids = []
        for cell in cells:
            msg = self.client.session.msg("execute_request", {
                "code": "".join(cell["source"]), "silent": False, "store_history": True, "user_expressions": {},
                "allow_stdin": False, "stop_on_error": True}, metadata={"cellId": cell["id"]})
            self.client.shell_channel.send(msg)
            ids.append(msg["header"]["msg_id"])
        return ids

    def collect(self, ids: list[str], seconds: float = 240) -> tuple[dict, dict]:
        """The replies' statuses and each request's outputs (as nbformat writes them), once all have replied."""
        status, outputs = {}, {i: [] for i in ids}
        deadline = time.monotonic() + seconds
        while not (set(ids) <= set(status) and self._idle(ids)):
            assert time.monotonic() < deadline, f"{len(status)} of {len(ids)} replies"
            try:
                reply = self.client.get_shell_msg(timeout=0.2)
                status[reply["parent_header"].get("msg_id")] = reply["content"]["status"]
            except queue.Empty:
                pass
            self._drain(outputs)
        self._drain(outputs)
        return status, outputs

    def _idle(self, ids) -> bool:
        return set(ids) <= self._done

    def _drain(self, outputs: dict) -> None:
        while True:
            try:
                msg = self.client.get_iopub_msg(timeout=0.05)
            except queue.Empty:
                return
            parent, kind = msg["parent_header"].get("msg_id"), msg["msg_type"]
            if kind == "status" and msg["content"]["execution_state"] == "idle":
                self._done.add(parent)
            if parent in outputs and kind in ("stream", "display_data", "execute_result", "error"):
                outputs[parent].append({"output_type": kind, **msg["content"]})

    def run(self, code: str) -> list[dict]:
        (i,) = self.send([{"source": code, "id": "test"}])
        status, outputs = self.collect([i])
        assert status[i] == "ok", outputs[i]
        return outputs[i]


def _shown(outputs: list[dict]) -> list:
    """What a reader sees of some outputs: streams' text, displays' data but a widget's id; no errors."""
    seen = []
    for o in outputs:
        if o["output_type"] == "stream":
            seen.append(("stream", o["name"], "".join(o["text"])))
        elif o["output_type"] in ("display_data", "execute_result"):
            data = {k: "".join(v) if isinstance(v, list) else v for k, v in o["data"].items() if k != WIDGET_VIEW}
            if data:
                seen.append(("data", json.dumps(data, sort_keys=True)))
    return seen


@pytest.fixture
def lesson(tmp_path) -> Path:
    copy_course(tmp_path / "ann")
    return tmp_path / "ann" / "lessons" / "00-welcome.ipynb"


@pytest.fixture
def kernel(lesson):
    k = Kernel(lesson)
    try:
        yield k
    finally:
        k.close()


def ran_before(lesson: Path) -> int:
    """Give a learner's copy the outputs its cells show once run (the kit's own, by cell id), as a learner's
    lesson has after running cells one by one past a question; a fresh copy may save none below its first
    question. Reveal cells and cells that have outputs are left alone. The number of cells given outputs."""
    kit = json.loads((ROOT / "notebooks" / lesson.name).read_text(encoding="utf-8"))
    saved = {c.get("id"): c.get("outputs") for c in kit["cells"] if c["cell_type"] == "code"}
    nb = json.loads(lesson.read_text(encoding="utf-8"))
    given = 0
    for cell in nb["cells"]:
        if (cell["cell_type"] == "code" and not cell.get("outputs") and saved.get(cell.get("id"))
                and not cell["metadata"].get("gofish_teach", {}).get("reveals")):
            cell["outputs"], given = saved[cell["id"]], given + 1
    lesson.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return given


def _cells(lesson: Path) -> list[dict]:
    return [c for c in json.loads(lesson.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "code"]


def _reveals(cells, qid) -> int:
    return next(i for i, c in enumerate(cells) if qid in c["metadata"].get("gofish_teach", {}).get("reveals", []))


def _press(kernel: Kernel, qid: str, answer: str) -> None:
    """What a press of an answer button does in the kernel: the question's widget responds."""
    kernel.run(f"from gofish_teach.widgets.question import SHOWN\nSHOWN[{qid!r}].respond({answer!r})")


def test_a_first_answer_outlives_a_second_answer_a_restart_and_a_second_run(lesson, kernel):
    cells = _cells(lesson)
    stop = _reveals(cells, "L00-count-asks")
    question = cells[stop - 1]
    status, _ = kernel.collect(kernel.send(cells[:stop]))
    assert set(status.values()) == {"ok"}
    _press(kernel, "L00-count-asks", "8")
    _press(kernel, "L00-count-asks", "15")  # a change of mind: shown, never recorded as first
    kept = lesson.parent / "first-answers.json"
    assert json.loads(kept.read_text())["first_answers"]["L00-count-asks"]["answer"] == "8"

    kernel.restart()  # a new kernel: nothing in memory
    status, outputs = kernel.collect(ids := kernel.send(cells[:stop + 1]))  # Run All up to the result
    assert set(status.values()) == {"ok"}
    record = [o for o in outputs[ids[-1]] if ANSWER_MIME in o.get("data", {})]
    assert record and record[0]["data"][ANSWER_MIME]["first_answers"][0]["answer"] == "8", outputs[ids[-1]]
    assert "Your first answer, kept for the class discussion: 8." in record[0]["data"]["text/plain"]
    _press(kernel, "L00-count-asks", "15")  # after the restart, a "first" answer again: not kept
    assert kernel.run("from gofish_teach.widgets.question import first_answer\n"
                      "print(first_answer('L00-count-asks')['answer'])")[0]["text"] == "8\n"
    assert json.loads(kept.read_text())["first_answers"]["L00-count-asks"]["answer"] == "8"
    assert question["source"] and "Question(" in "".join(question["source"])


def test_run_all_stops_at_the_question_and_the_cells_below_keep_their_outputs(lesson, kernel):
    """JupyterLab's Run All on an unanswered lesson: the stop, the question's page sent to it, and every
    cell below showing what it showed before (the kernel aborted them before, and their outputs were lost)."""
    ran_before(lesson)
    cells = _cells(lesson)
    stop = _reveals(cells, "L00-count-asks")
    started = time.perf_counter()
    ids = kernel.send(cells)
    status, outputs = kernel.collect(ids)
    took = time.perf_counter() - started
    assert [status[i] for i in ids] == ["ok"] * len(ids), "a request was aborted or failed"
    (error,) = outputs[ids[stop]]
    assert error["output_type"] == "error" and error["ename"] == "NotAnsweredYet"
    assert error["evalue"].startswith("Predict first: answer the question above,")
    asks = [i for i, c in enumerate(cells) if "Question(" in "".join(c["source"])]
    kept = 0
    for i in range(stop + 1, len(cells)):
        if i in asks:  # a question below still shows its buttons
            assert "Predict first." in json.dumps(outputs[ids[i]]), i
            continue
        assert _shown(outputs[ids[i]]) == _shown(cells[i]["outputs"]), f"cell {i} changed"
        assert not [o for o in outputs[ids[i]] if o["output_type"] == "error"], i
        kept += bool(cells[i]["outputs"])
    assert kept >= 5, "too few saved outputs below the stop to tell"
    # The question's widget was told to take the page to it (its browser side scrolls and focuses). A cell
    # run by hand after the stop (made later than the Run All's own requests, which all left at once) runs.
    time.sleep(WINDOW.total_seconds())
    asked = kernel.run("from gofish_teach.widgets.question import SHOWN\nprint(SHOWN['L00-count-asks'].mark.asked)")
    assert asked[0]["text"] == "1\n"
    print(f"\nRun All, stopped at cell {stop} of {len(cells)}: {took:.1f} s; {kept} cells below shown as saved")

    # Answered, then Run Selected Cell and All Below from the question: this time the cells run.
    _press(kernel, "L00-count-asks", "15")
    again = kernel.send(cells[stop - 1:])
    status, outputs = kernel.collect(again)
    assert status[again[0]] == status[again[1]] == "ok"
    assert "Your first answer" in json.dumps(outputs[again[1]]) and "15" in json.dumps(outputs[again[1]])
    next_stop = _reveals(cells, "L00-queen-chance") - (stop - 1)
    assert outputs[again[next_stop]][0]["ename"] == "NotAnsweredYet"  # the next question waits in turn
