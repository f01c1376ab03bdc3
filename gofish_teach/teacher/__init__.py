"""The teacher's tools: the learner's copy of the course, the PDFs, the first answers, the Voilà page.

- :mod:`.course`: ``gofish-teach course DIR`` copies the lessons and exercises for a learner;
- :mod:`.handouts`: ``gofish-teach handouts DIR``, one PDF per lesson and exercise sheet (headless Chromium);
- :mod:`.first_answers`: ``gofish-teach answers DIR`` gathers the class's first answers to the lessons' questions;
- :mod:`.voila_page`: ``gofish-teach play``, the Table and the Explorer as a web page of their own;
- :mod:`.notebooks`: a run notebook kept as JupyterLab saves it (``python -m gofish_teach.teacher.notebooks``).

What the rest of the package uses is named here, loaded when first used (the command line
imports this face, and a command should load only what it runs).
"""
from __future__ import annotations

from ..faces import lazy_face

__all__, __getattr__, __dir__ = lazy_face(globals(), {
    "course": ("copy_course", "CourseConflict", "CourseReport", "learner_notebook",
               ("add_course_command", "add_command")),
    "handouts": ("make_handouts", "find_chromium", "print_pdf", "mathml", ("add_handouts_command", "add_command")),
    "first_answers": ("gather", ("add_answers_command", "add_command")),
    "voila_page": (("add_play_command", "add_command"),),
    "notebooks": ("tidy", "tidy_file"),
})
