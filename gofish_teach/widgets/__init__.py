"""Widgets to play and explore inline in JupyterLab (ipywidgets 8).

- :class:`Table`: a game of Go Fish against bots, with a knowledge panel and hints.
"""
from .table import Table

__all__ = ["Table"]
