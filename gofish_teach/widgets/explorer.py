"""The probability explorer: state a few facts with sliders, see the exact chance and its distribution.

Show ``Explorer()`` in a cell. The sliders and boxes on the left are stated facts about one
rank (how many you hold, the books, their hand, what they did, the ocean); on the right are
the exact answer as a fraction and a decimal (from :class:`~gofish_teach.probability.Facts`),
the textbook hypergeometric answer when the facts are the textbook case, the whole
distribution as a plot, and the same facts as a line of Python. "Simulate" deals the unseen
cards at random many times and overlays the share of deals that fit, with 95% intervals.
Everything runs without a browser, so it can be driven from code:

>>> ex = Explorer()
>>> ex.rank.value, ex.held.value, ex.their_hand.value
('7', 1, 5)
>>> ex.answer                                    # P(they hold at least one 7)
Fraction(447907, 1533595)
>>> ex.about.value = "ocean"; ex.answer          # P(the ocean's top card is a 7)
Fraction(97887, 1533595)
>>> ex.held.value = 4; ex.message                # a bad combination is a message, not a traceback
'copies you hold: 4 7s would be a whole book, laid down at once'
>>> ex.held.value = 2; ex.samples.value = "2000"; ex.simulate.click()
>>> ex.estimate.fit, ex.estimate.low < float(ex.answer) < ex.estimate.high
(1999, True)
"""
from __future__ import annotations

import re
from collections import OrderedDict
from fractions import Fraction
from typing import NamedTuple

import ipywidgets as w
import numpy as np
from matplotlib.figure import Figure

from ..cards import name, plural
from ..rules import Rules
from ..stats import wilson_interval
from ._panes import (
    Placeheld,
    message_html,
    one_blas_thread,
    png,
    read_whole,
    settle_libraries,
    short_error,
    show_png,
    stable_model_id,
)
from ._slider import Slider
from .scenario import Scenario

_SLIDER = dict(continuous_update=False, style={"description_width": "9em"}, layout=w.Layout(width="22em"))
#: The simulation's deals: at first, and the fewest and most a learner may ask for (a million take a
#: few seconds and some hundreds of megabytes).
SAMPLES, FEWEST, MOST = 20_000, 100, 1_000_000
#: Plots remembered per explorer (a class moves a slider back and forth over a few values). Not more:
#: a drawn figure is some 2,700 objects that each of Python's full garbage collections walks.
_PLOTS = 12


class Estimate(NamedTuple):
    """A Monte Carlo answer: the share of fitting deals with its Wilson interval, and per count."""

    p: float
    low: float
    high: float
    fit: int
    samples: int
    counts: dict   # {count: (share, low, high)} for the plot


class Explorer(Placeheld, w.VBox):
    """Sliders for stated facts about one rank; the exact answer, its distribution, a simulation.

    Args:
        rules: a preset name or :class:`Rules`; only the deck matters (ranks and book size).
        rank: the rank to start with.
    """

    _what = "The probability explorer"

    def __init__(self, rules: str | Rules = "pond", rank: str = "7"):
        rules = Rules.preset(rules) if isinstance(rules, str) else rules
        self._deck = dict(n_ranks=rules.n_ranks, book_size=rules.book_size)
        ranks = Scenario(**self._deck).ranks
        self.rank = w.Dropdown(options=ranks, value=rank if rank in ranks else ranks[0], description="rank",
                               style=_SLIDER["style"])
        self.held = Slider(1, 0, 4, description="copies you hold", **_SLIDER)
        self.other_cards = Slider(4, 0, 20, description="your other cards", **_SLIDER)
        self.books = Slider(0, 0, len(ranks) - 1, description="books out", **_SLIDER)
        self.players = Slider(2, 2, 4, description="players", **_SLIDER)
        self.their_hand = Slider(5, 0, 30, description="their hand", **_SLIDER)
        self.ocean = Slider(0, 0, 4 * len(ranks), description="ocean", **_SLIDER)
        self.asked = w.Checkbox(False, description="they asked for it (they hold at least one)", indent=False, layout=w.Layout(width="auto"))
        self.go_fish = w.Checkbox(False, description='they said "Go Fish!" to it', indent=False, layout=w.Layout(width="auto"))
        self.drawn_since = Slider(0, 0, 10, description="drawn since", **_SLIDER)
        self.textbook = w.Checkbox(False, description="textbook: a hand may hold a whole book", indent=False, layout=w.Layout(width="auto"))
        self.about = w.ToggleButtons(options=[("their hand", "hand"), ("the ocean's top card", "ocean")],
                                     value="hand", description="question",
                                     style={"button_width": "auto"}, tooltips=["P(they hold it)", "P(the ocean's top card is it)"])
        self.about.add_class("gf-about")  # "auto": each button as wide as its words (a width cut them off)
        self.at_least = Slider(1, 1, 3, description="at least", **_SLIDER)
        # Text boxes, read by the kernel: a browser's number box misread what was typed without a word
        # ("5000.5" deals became 50005, "1e6" 100, seed "1.5" 15); here a bad value is a message.
        self.samples = w.Text(f"{SAMPLES:,}", description="deals", layout=w.Layout(width="14em"),
                              tooltip=f"how many random deals: a whole number from {FEWEST} to {MOST:,}")
        self.seed = w.Text("0", description="seed", layout=w.Layout(width="12em"),
                           tooltip="a whole number, 0 or more: the same seed deals the same cards")
        # No icon: the play page (Voila, offline) has no icon font; the word says it.
        self.simulate = w.Button(description="simulate", button_style="info")

        self.answer_html, self.textbook_html, self.code_html = w.HTML(), w.HTML(), w.HTML()
        self.message_html, self.estimate_html = w.HTML(), w.HTML()
        self.image = w.Image(format="png", layout=w.Layout(max_width="34em", display="none"))
        self.scenario: Scenario | None = None
        self.answer: Fraction | None = None
        self.distribution: dict = {}
        self.estimate: Estimate | None = None
        self.figure: Figure | None = None
        self._plots: OrderedDict = OrderedDict()  # what a plot shows -> (figure, PNG bytes)
        self._shown = None                         # what the image shows now
        self._syncing = False
        self._estimate_text = ""

        facts = [self.rank, self.held, self.other_cards, self.books, self.players, self.their_hand, self.ocean,
                 self.asked, self.go_fish, self.drawn_since, self.textbook, self.about, self.at_least]
        for control in facts:
            control.observe(self._changed, names="value")
        self.simulate.on_click(self._simulate)
        left = w.VBox(facts[:-2], layout=w.Layout(min_width="24em"))
        right = w.VBox([self.about, self.at_least, self.answer_html, self.textbook_html, self.message_html,
                        self.image, w.HBox([self.samples, self.seed, self.simulate]), self.estimate_html,
                        self.code_html])
        super().__init__([w.HTML("<b>Probability explorer</b>: what stated facts say about one rank"),
                          w.HBox([left, right])], model_id=stable_model_id("explorer"))
        self.add_class("gf-explorer")
        for control, cls in ((self.message_html, "gf-message"), (self.estimate_html, "gf-estimate"),
                             (self.samples, "gf-samples"), (self.seed, "gf-seed"), (self.simulate, "gf-simulate")):
            control.add_class(cls)
        self.refresh()
        settle_libraries()  # after the first count: its compiled code is loaded

    @property
    def message(self) -> str:
        """The message shown (an invalid combination of facts), or ``""``."""
        return self._message

    # ------------------------------------------------------------------ reading the controls
    def _changed(self, change):
        if not self._syncing:
            self.refresh()

    def _scenario(self) -> Scenario:
        return Scenario(rank=self.rank.value, held=self.held.value, other_cards=self.other_cards.value,
                        books=self.books.value, players=self.players.value, their_hand=self.their_hand.value,
                        ocean=None if self.players.value == 2 else self.ocean.value, asked=self.asked.value,
                        go_fish=self.go_fish.value, drawn_since=self.drawn_since.value,
                        textbook=self.textbook.value, **self._deck)

    def refresh(self):
        """Recompute everything from the controls (called whenever one changes)."""
        with one_blas_thread():  # the exact count is many small matrix products
            self._refresh()

    def _refresh(self):
        self.drawn_since.disabled = not self.go_fish.value
        self.at_least.disabled = self.about.value != "hand"
        # with two players the ocean is simply what is left: shown, not set
        self.ocean.disabled = self.players.value == 2
        self.estimate = None
        self.estimate_html.value = ""
        self.scenario = self._scenario()
        try:
            facts, rank = self.scenario.counted()  # counted once for every rank in question
            if self.players.value == 2:
                self._set_quietly(self.ocean, facts.ocean_size)
            place = self.scenario.place(self.about.value)
            self.answer = facts.p_holds(1, rank, self.at_least.value) if place == 1 else facts.p_top(rank)
            self.distribution = facts.count_distribution(place, rank)
        except Exception as error:  # noqa: BLE001 - a learner sees a message, never a traceback
            self._fail(self._in_words(short_error(error)))
            return
        self._message = ""
        self.message_html.value = ""
        self.simulate.disabled = False
        self.answer_html.value = f"<p style='font-size: 1.2em'>{self._question()} = <b>{self.answer}</b> " \
                                 f"≈ <b>{float(self.answer):.5f}</b></p>"
        self.textbook_html.value = self._textbook_line()
        self.code_html.value = f"<code>{self.scenario.code()}</code>"
        self.message_html.value = message_html(self._draw_or_say() or "")

    def _in_words(self, text: str) -> str:
        """A contradiction that :class:`Facts` found, said with the explorer's boxes, not Facts' arguments.

        >>> ex = Explorer(); ex.asked.value = True; ex.go_fish.value = True; ex.message
        'They asked for 7s, so they hold at least one; but they said "Go Fish!" to 7s and have drawn no card since, so they hold none. Both cannot be true: untick one, or move "drawn since" up.'
        >>> ex.go_fish.value = False; ex.their_hand.value = 0; ex.message
        'They asked for 7s, so they hold at least one 7; but their hand is empty (0 cards).'
        """
        them = plural(self.rank.value)
        why = f"They asked for {them}, so they hold" if self.asked.value else "The question is whether they hold"
        if re.match(r"at_least\[1\]: seat 1 lacks", text):
            return (f'They asked for {them}, so they hold at least one; but they said "Go Fish!" to {them} and have '
                    'drawn no card since, so they hold none. Both cannot be true: untick one, or move "drawn since" up.')
        room = re.match(r"at_least\[1\]: seat 1 cannot hold (\d+) .*?: at most (\d+) could be there "
                        r"\(its (\d+) cards, (\d+) neither yours nor in books, (\d+) before a whole book\)", text)
        if room:
            n, most, size, unseen, cap = map(int, room.groups())
            least = f"at least one {name(self.rank.value)}" if n == 1 else f"at least {n} {them}"
            if most == size:
                return f"{why} {least}; but their hand is {'empty' if not size else 'only'} ({size} card{'s' * (size != 1)})."
            if most == unseen:
                return f"{why} {least}; but {f'only {unseen}' if unseen else 'no'} {them} are outside your hand and the books."
            return f"{why} {least}; but {cap} of them would already be a whole book, laid down at once."
        sizes = re.match(r"hand_sizes: the other hands hold (\d+) cards, but only (\d+)", text)
        if sizes:
            return (f"Their hand and the other players' hold {sizes[1]} cards, but only {sizes[2]} cards are neither "
                    "yours nor in books: make a hand or the ocean smaller.")
        if not re.match(r"^\w+\[\d+\]: ", text):
            return text  # the explorer's own checks already name the box
        text = re.sub(r"^\w+\[\d+\]: ", "", text).replace("seat 1", "they").replace("its ", "their ")
        return "These facts cannot all be true: " + text

    def _set_quietly(self, control, value):
        self._syncing = True
        try:
            control.value = value
        finally:
            self._syncing = False

    def _fail(self, text: str):
        self._message = text
        self.message_html.value = message_html(text)
        self.answer, self.distribution = None, {}
        self.answer_html.value = self.textbook_html.value = self.code_html.value = ""
        self.simulate.disabled = True
        show_png(self.image, None)
        self.figure, self._shown = None, None

    def _question(self) -> str:
        rank = self.rank.value
        if self.about.value == "hand":
            k = self.at_least.value
            return f"P(they hold at least {'one ' + name(rank) if k == 1 else f'{k} {plural(rank)}'})"
        article = "an" if name(rank)[0] in "AEIOU8" else "a"
        return f"P(the ocean's top card is {article} {name(rank)})"

    def _textbook_line(self) -> str:
        about = self.about.value
        dist = self.scenario.hypergeom(about)
        if dist is None:
            return "<small>Not the textbook case (the whole-book rule, or what they did, conditions the deal): " \
                   "no hypergeometric formula, but the count above is exact.</small>"
        p = dist.sf(self.at_least.value - 1) if about == "hand" else dist.mean() / max(dist.args[2], 1)
        kw = ", ".join(f"{k}={v}" for k, v in zip("MnN", dist.args, strict=True))
        return f"<small>Textbook case: <code>scipy.stats.hypergeom({kw})</code> gives {p:.5f}.</small>"

    # ------------------------------------------------------------------ the plot and the simulation
    def _draw_or_say(self) -> str:
        """Show the plot; if it cannot be drawn, no picture (not the last one, which would mislead) and
        what went wrong, for a message line."""
        try:
            self._draw()
        except Exception as error:  # noqa: BLE001 - a learner sees a message, never a traceback
            show_png(self.image, None)
            self.figure, self._shown = None, None
            return f"The explorer could not draw the plot: {short_error(error)}"
        return ""

    def _draw(self):
        """Show the distribution's plot: drawn only when what it shows changed, and remembered, since
        drawing is most of a control's time (the answer for "at least 2" has the same plot as for 1)."""
        estimate = self.estimate and (self.estimate.fit, tuple(sorted(self.estimate.counts.items())))
        key = (self.rank.value, self.about.value, tuple(self.distribution.items()), estimate)
        if key == self._shown:
            return
        if key not in self._plots:
            figure = self._plot()
            self._plots[key] = (figure, png(figure, tight=False))
            if len(self._plots) > _PLOTS:
                self._plots.popitem(last=False)
        self._plots.move_to_end(key)
        self.figure, data = self._plots[key]
        self.image.value = data
        self.image.layout.display = None
        self._shown = key

    def _plot(self) -> Figure:
        rank, about = self.rank.value, self.about.value
        where = "their hand" if about == "hand" else "the ocean"
        figure = Figure(figsize=(5.2, 3.2))
        # fixed margins that fit the labels: drawn once (a tight crop would draw it twice)
        figure.subplots_adjust(left=0.13, right=0.98, bottom=0.15, top=0.91)
        ax = figure.subplots()
        counts = list(self.distribution)
        ax.bar(counts, [float(p) for p in self.distribution.values()], color="#7aa6d6", label="exact (Facts)")
        if self.estimate is not None:
            ks = sorted(self.estimate.counts)
            share = np.array([self.estimate.counts[k][0] for k in ks])
            err = np.array([[share[i] - self.estimate.counts[k][1] for i, k in enumerate(ks)],
                            [self.estimate.counts[k][2] - share[i] for i, k in enumerate(ks)]])
            ax.errorbar(ks, share, yerr=err, fmt="o", color="black", capsize=4,
                        label=f"Monte Carlo, {self.estimate.fit:,} deals (95%)")
        ax.set_xticks(range(0, max(counts + [1]) + 1))
        ax.set_xlabel(f"{plural(rank)} in {where}")
        ax.set_ylabel("probability")
        ax.set_title(f"How many {plural(rank)} are in {where}", y=1.0)  # placed: not fitted around the ticks at each draw
        ax.legend(loc="best", fontsize="small")
        return figure

    def _simulate(self, _button=None):
        with one_blas_thread():
            self._simulate_now()

    def _simulate_now(self):
        try:
            samples = read_whole(self.samples.value, "deals", FEWEST, f"deal at least {FEWEST}",
                                 f"a whole number of deals, such as {SAMPLES}", MOST,
                                 f"deal at most {MOST:,} (a few seconds)")
            seed = read_whole(self.seed.value, "seed", 0, "a seed is 0 or more", "a whole number, 0 or more")
        except ValueError as error:  # a box misread: said, and nothing else changes
            self.estimate_html.value = message_html(str(error)) + (f"<br>{self._estimate_text}" if self.estimate else "")
            return
        # Shown at once (ipywidgets sends each change as it is made): a million deals take seconds.
        self.simulate.disabled = True
        self.estimate_html.value = f"<i>Dealing {samples:,} random deals…</i>"
        try:
            self._deal(samples, seed)
        finally:
            self.simulate.disabled = self.answer is None

    def _deal(self, samples: int, seed: int):
        try:
            sample = self.scenario.sample(samples, seed)
        except Exception as error:  # noqa: BLE001 - a learner sees a message, never a traceback
            self._fail(short_error(error))
            return
        if not sample.fit:
            self.estimate_html.value = message_html(f"None of the {sample.samples:,} deals fit the facts: "
                                                    "try more deals.")
            return
        about = self.about.value
        values = sample.hand if about == "hand" else sample.ocean
        hits = int((sample.hand >= self.at_least.value).sum()) if about == "hand" else int(sample.top.sum())
        low, high = wilson_interval(hits, sample.fit)
        per_count = {}
        for k in np.unique(values):
            n = int((values == k).sum())
            per_count[int(k)] = (n / sample.fit, *wilson_interval(n, sample.fit))
        self.estimate = Estimate(hits / sample.fit, low, high, sample.fit, sample.samples, per_count)
        inside = "inside" if low <= self.answer <= high else "outside"
        self._estimate_text = (
            f"Monte Carlo: <b>{self.estimate.p:.5f}</b> (95% interval {low:.5f} to {high:.5f}) from "
            f"{sample.fit:,} of {sample.samples:,} random deals that fit the facts (seed {seed}); "
            f"the exact {float(self.answer):.5f} is {inside} it.")
        problem = self._draw_or_say()
        self.estimate_html.value = self._estimate_text + (f"<br>{message_html(problem)}" if problem else "")
