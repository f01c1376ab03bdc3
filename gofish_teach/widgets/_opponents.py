"""The table's "Who is who?" panel: which bot is each opponent, by Bayes' rule over its asks.

From your view alone, :class:`~gofish_teach.bestplay.opponents.OpponentModel` keeps a posterior
over the strategy each opponent plays (``random``, ``memory``, ``most_held``, ``greedy``, or
``other``, every ask alike) and updates it at each of the opponent's asks. The panel shows it as
bars, one row per opponent, and under each row the opponent's last ask with how likely each
strategy was to make it: the likelihoods Bayes' rule multiplies in. In a ``mystery`` table the
bots' strategies are hidden until the game ends, so the class can guess first.

>>> from gofish_teach import Game
>>> from gofish_teach.strategies import play_out, seat_rng
>>> game = play_out(Game("pond", 3, seed=4), ["memory", "random", "most_held"], [seat_rng(s) for s in range(3)])
>>> html = OpponentsPanel().html(game.view(0), ["You", "West", "East"])
>>> "West" in html and html.count('class="gf-who-row"') == 2
True
"""
from __future__ import annotations

from html import escape

import ipywidgets as widgets

from ..cards import plural

#: What each hypothesis is called in the panel.
LABELS = {"random": "random", "memory": "memory", "most_held": "most_held", "greedy": "greedy",
          "other": "other (any ask)"}

STYLE = """<style>
.gf-who td { padding: 1px 4px; font-size: 12px; vertical-align: middle; }
.gf-who .gf-who-name { font-weight: 700; padding-right: 8px; }
.gf-who .gf-who-track { display: inline-block; width: 70px; height: 10px; background: #eee; border-radius: 3px;
  vertical-align: middle; }
.gf-who .gf-who-fill { display: block; height: 10px; background: #3f7fbf; border-radius: 3px; }
.gf-who .gf-who-best .gf-who-fill { background: #2e7d32; }
.gf-who .gf-who-why { color: #555; font-size: 11px; padding-bottom: 5px; }
</style>"""


class OpponentsPanel:
    """The panel's widgets (``toggle``, ``box``) and its drawing; the model is made at its first use."""

    def __init__(self, show: bool = False, seed: int = 0):
        self.seed = seed
        self.toggle = widgets.ToggleButton(value=show, description="Who is who?",
                                           tooltip="each bot's strategy, guessed from its asks by Bayes' rule")
        self.view_html = widgets.HTML()
        self.box = widgets.VBox([self.view_html], layout=widgets.Layout(margin="8px 0 0 0"))
        self.box.add_class("gf-panel")
        self._model = None

    @property
    def model(self):
        if self._model is None:
            from ..bestplay import OpponentModel  # lazy: it loads the sampler's compiled code

            self._model = OpponentModel(seed=self.seed)
        return self._model

    def render(self, view, names) -> None:
        """Show or hide the panel as its toggle says, drawn for ``view``; a failure is a note, never a traceback."""
        self.box.layout.display = "" if self.toggle.value else "none"
        if not self.toggle.value:
            return
        try:
            self.view_html.value = self.html(view, names)
        except Exception as e:  # a rule the model does not read (specific cards), or a bug: say so in the panel
            self.view_html.value = (f'<div class="gf-note">The "Who is who?" panel cannot read this game: '
                                    f'{escape(f"{type(e).__name__}: {e}", quote=False)}</div>')

    def html(self, view, names) -> str:
        """The panel for ``view``: a row of bars per opponent and the likelihoods of its last ask."""
        posterior = self.model.posterior(view)
        last = {}
        for step in self.model.steps(view):
            last[step.seat] = step
        rows = []
        for seat, probs in posterior.items():
            best = max(probs, key=probs.get)
            cells = "".join(
                f'<td class="{"gf-who-best" if h == best else ""}" title="P({escape(names[seat])} plays {LABELS[h]})">'
                f'{LABELS[h]}<br><span class="gf-who-track"><span class="gf-who-fill" style="width:{100 * p:.0f}%">'
                f'</span></span> {p:.0%}</td>' for h, p in probs.items())
            rows.append(f'<tr class="gf-who-row"><td class="gf-who-name">{escape(names[seat])}</td>{cells}</tr>')
            step = last.get(seat)
            why = ("no ask yet: every strategy as likely as before the game" if step is None else
                   f"last ask: {escape(names[seat])} asked {escape(names[step.target])} for {plural(step.rank)}; "
                   "how likely each strategy was to ask that: "
                   + ", ".join(f"{LABELS[h].split()[0]} {p:.2f}" for h, p in step.likelihood.items()))
            rows.append(f'<tr><td></td><td class="gf-who-why" colspan="{len(probs)}">{why}</td></tr>')
        return (STYLE + '<div class="gf-who"><h4>Who is who? The chance of each strategy, from its asks</h4>'
                f'<table>{"".join(rows)}</table><div class="gf-note">Bayes\' rule: at each ask, every strategy\'s '
                "chance is multiplied by how likely it was to make that ask, then all are scaled to add up to 1."
                "</div></div>")
