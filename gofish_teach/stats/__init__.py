"""Statistics of a tournament: win shares with intervals, paired comparisons, game length, and their plots.

:mod:`.measures` holds the numbers (each function takes :class:`~gofish_teach.simulate.Results`
and returns a small object that prints as a table), :mod:`.plots` draws them (matplotlib, loaded
when a plot is first asked for). Lessons, keys and the rest of the package import from here:

>>> from gofish_teach.stats import win_share
>>> from gofish_teach.simulate import simulate
>>> [row.label for row in win_share(simulate(["memory", "random"], "family", games=50, seed=3)).rows]
['memory', 'random']
"""
from __future__ import annotations

from ..faces import lazy_face
from .measures import (
                       GameLength,
                       PairedTest,
                       ShareRow,
                       Verdict,
                       WinShare,
                       cluster_bootstrap_ratio,
                       game_length,
                       paired_test,
                       text_table,
                       verdict,
                       wilson_interval,
                       win_share,
)

# The plots of these results (matplotlib) are part of this face, loaded when first asked for.
__all__, __getattr__, __dir__ = lazy_face(globals(), {"plots": ("plot_win_share", "plot_game_length")})
__all__ = ["wilson_interval", "win_share", "WinShare", "ShareRow", "verdict", "Verdict", "cluster_bootstrap_ratio",
           "paired_test", "PairedTest", "game_length", "GameLength", *__all__,
           "text_table"]  # for the tournament's leaderboard: columns lined up as these tables line them up
