"""Widgets to play and explore inline in JupyterLab (ipywidgets 8).

- :class:`Table`: a game of Go Fish against bots, with a knowledge panel and hints.
- :class:`Explorer`: sliders for stated facts; the exact probability, its distribution, a simulation.
- :class:`Lab`: tournaments of strategies, win shares, a paired comparison, game lengths.
- :class:`Question`: a predict-first question (multiple choice, or a number with a tolerance)
  whose :meth:`~Question.answer` gives the :class:`Feedback` the widget shows; :func:`reveal`
  holds back a question's result until it is answered, and saves the first answer.
"""
from . import _cards as cards
from .explorer import Explorer
from .lab import Lab
from .question import ANSWER_MIME, LETTERS, Feedback, Question, parse_number, reveal, show_number
from .table import Table

__all__ = ["Table", "Explorer", "Lab", "Question", "Feedback", "reveal",
           # for the teacher's tools: how a question's answers are read, written and saved
           "ANSWER_MIME", "LETTERS", "parse_number", "show_number", "load_bank",
           # for the class table's seat in a notebook (gofish_teach.classroom): how the Table draws cards
           "cards"]


def load_bank() -> dict:
    """The packed question bank, every question's answer included (for the teacher's tools: ``gofish-teach
    answers`` judges first answers with it). Imported on use, so that ``python -m
    gofish_teach.widgets.question_bank`` runs that module once."""
    from .question_bank import load

    return load()
