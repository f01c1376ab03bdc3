"""Pictures of a tournament (matplotlib). Each function draws on ``ax`` (a new figure if none)
and returns the Axes; nothing is shown until you ask (a notebook shows the figure itself).

>>> from gofish_teach.simulate import simulate
>>> res = simulate(["memory", "random", "random"], "pond", games=60, seed=4)
>>> ax = plot_win_share(res)
>>> ax.get_xlabel()
'win share (95% interval)'
>>> ax = plot_game_length(res)
>>> ax.get_xlabel()
'asks per game'
"""
from __future__ import annotations

from typing import Mapping

import matplotlib.pyplot as plt
import numpy as np

from .measures import WinShare, win_share

#: Line styles for several runs in one picture: solid, dashed, dotted, dash-dot, then dash patterns.
LINESTYLES = ("-", "--", ":", "-.", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 3)))


def _axes(ax):
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3))
    return ax


def plot_win_share(results, *, by: str = "entry", confidence: float = 0.95, ax=None):
    """Win share of each lineup entry (or seat) as a dot with its interval bar.

    ``results`` is a :class:`~gofish_teach.simulate.Results` or a :class:`~gofish_teach.stats.WinShare`.
    The dashed line is the fair share 1/n: where every entry would be if none were better.
    """
    table = results if isinstance(results, WinShare) else win_share(results, by=by, confidence=confidence)
    ax = _axes(ax)
    rows = table.rows
    y = np.arange(len(rows))[::-1]  # first entry on top, as in the printed table
    share = np.array([r.share for r in rows])
    err = np.array([[r.share - r.low for r in rows], [r.high - r.share for r in rows]])
    ax.errorbar(share, y, xerr=err, fmt="o", capsize=4)
    if table.by in ("entry", "seat"):
        ax.axvline(1 / len(rows), linestyle="--", color="grey", label="fair share")
        ax.legend(loc="best")
    name = {"entry": "", "seat": "seat ", "strategy": ""}[table.by]
    ax.set_yticks(y, [f"{name}{r.index}: {r.label}" if table.by != "strategy" else r.label for r in rows])
    ax.set_xlabel(f"win share ({table.confidence:.0%} interval)")
    ax.set_title(f"Win share by {table.by}, {table.games:,} games")
    return ax


def plot_game_length(results, *, ax=None, density: bool = False):
    """Histogram of asks per game, one bar per length.

    ``results``: one :class:`~gofish_teach.simulate.Results`, or a mapping of labels to
    results to compare (say two rule sets); several are drawn as outlines in different line
    styles (:data:`LINESTYLES`), as fractions of games so that runs of different sizes compare.
    """
    ax = _axes(ax)
    runs = results if isinstance(results, Mapping) else {None: results}
    density = density or len(runs) > 1
    for k, (label, res) in enumerate(runs.items()):
        counts = np.bincount(res.asks)
        heights = counts / counts.sum() if density else counts
        # Several runs differ in line style as well as colour, so that no reader depends on colour alone.
        kind = (dict(histtype="step", linewidth=1.5, linestyle=LINESTYLES[k % len(LINESTYLES)]) if len(runs) > 1
                else dict(histtype="stepfilled", alpha=0.7))
        ax.hist(np.arange(len(counts)), bins=np.arange(len(counts) + 1) - 0.5, weights=heights, label=label, **kind)
    if len(runs) > 1:
        ax.legend(loc="best")
    ax.set_xlabel("asks per game")
    ax.set_ylabel("fraction of games" if density else "games")
    ax.set_title("Game length")
    return ax
