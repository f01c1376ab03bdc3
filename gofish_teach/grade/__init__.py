"""The grader: ``python -m gofish_teach grade SUBMISSIONS_DIR`` marks a folder of learners' exercise notebooks.

Two sides, by trust: :mod:`.grader` is the teacher's (it makes the cases, judges what comes back
and writes the CSV, from what :mod:`.folders` finds in the submissions folder), and
:mod:`.submission` is what runs in each notebook's own sandboxed process
(``python -m gofish_teach.grade.submission``), which decides nothing. The grader's public names
are all importable from here, loaded when first used (the sandboxed side does not load the
grader's).
"""
from __future__ import annotations

from ..faces import lazy_face

__all__, __getattr__, __dir__ = lazy_face(globals(), {
    "grader": ("grade", "grade_submission", "Row", "Stopped", "add_command", "HEADER", "STATUSES", "TIME_LIMIT",
               "CELL_TIME_LIMIT", "MEMORY_MB", "MAX_REPLY_MB", "MAX_LINES"),
    "folders": ("find_submissions", "read_notebook", "exercise_of", "expected_exercises", "Submission",
                "MAX_COPY_MB", "MAX_FILES", "MAX_NOTEBOOK_MB"),
})
