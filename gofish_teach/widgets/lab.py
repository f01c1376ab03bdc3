"""The strategy lab: a tournament in a cell, with win shares, a paired comparison and game lengths.

Pick the rules, the players, a lineup (built-in strategies or your own functions), the number
of games and a seed, and press "run". The lab plays the games with
:func:`gofish_teach.simulate.simulate` (seats rotate, every lineup is dealt the same decks),
shows each entry's win share with its 95% interval, compares the lineup with a baseline
lineup game by game on the same decks (:func:`gofish_teach.stats.paired_test`), and draws
the win shares and the game-length histogram. The same seed gives the same numbers.

>>> def cautious(view, rng):              # a learner's own strategy: ask the first opponent
...     return min(q for q in range(view.n_players) if q != view.player), view.hand[0].rank
>>> lab = Lab(strategies={"cautious": cautious}, rules="family", players=2, games=200, seed=3)
>>> lab.lineup[0].value = "cautious"; lab.run.click()
>>> lab.results.lineup, lab.results.games
(('cautious', 'random'), 200)
>>> lab.paired.games, lab.paired.label_b
(200, 'random (b, entry 0)')
>>> lab.games.value = "0"; lab.run.click(); lab.message    # a bad setting is a message, not a traceback
'games: play at least 1 game, not 0'
>>> lab.games.value = "abc"; lab.run.click(); lab.message
"games: type a whole number of games, such as 1000, not 'abc'"

``Lab(executor=client)`` (a Dask ``distributed.Client``, or any ``concurrent.futures.Executor``)
adds a "run on" choice that plays the games on that cluster: the same games, game for game.
"""
from __future__ import annotations

import os

import ipywidgets as w
from matplotlib.figure import Figure

from ..rules import PRESETS, Rules
from ..stats import paired_test, plot_game_length, plot_win_share, win_share
from ..strategies import STRATEGIES, get_strategy
from ._panes import Placeheld, message_html, read_whole, settle_libraries, short_error, show_png, stable_model_id
from ._slider import Slider

_WIDE = dict(style={"description_width": "8.5em"})
#: Wide enough for the longest label ("compare entry") at JupyterLab's font size.
_LABEL = w.Layout(width="8.5em", min_width="8.5em")
#: A description read by a screen reader but not shown (the row's label says it): a ``<select>``'s
#: title is not its accessible name once ipywidgets ties an (empty, hidden) ``<label>`` to it.
_SCREEN_READER_ONLY = ("<style>.gf-sr-label .widget-label { position: absolute !important; width: 1px !important; "
                       "height: 1px !important; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }</style>")
#: The "run on" choices: label and key (an executor passed to the lab adds one more).
RUN_ON = {"here": "this kernel (one process)", "cores": "all cores (process pool)"}
#: How the games were played, for the status line: ``SimulationResults.engine`` in plain words.
HOW_PLAYED = {"fast": "played at full speed (compiled)",
              "readable": "played ask by ask (slower: a strategy of your own plays this way)",
              "fast+readable": "some games at full speed, some ask by ask"}


class Named:
    """A learner's strategy under the name the lab shows (``Lab(strategies={"mine": f})`` shows "mine"):
    a :class:`~gofish_teach.strategies.Strategy` whose ``name`` is that name.

    A plain class of the module, so it pickles whenever the function does (for a process pool
    or a Dask cluster).
    """

    def __init__(self, strategy, name: str):
        self.strategy, self.name = get_strategy(strategy), name

    def choose(self, view, rng):
        return self.strategy(view, rng)

    __call__ = choose

    def __repr__(self) -> str:
        return f"<strategy {self.name}>"


class Lab(Placeheld, w.VBox):
    """A tournament runner for a notebook.

    Args:
        strategies: your own strategies by name, ``{"mine": f}``: each a function
            ``f(view, rng) -> (target, rank)`` or an object with ``choose``. They join the
            built-in ones in every seat's menu.
        rules, players, games, seed: starting values of those controls (``rules``: a preset name).
        executor: a Dask ``distributed.Client`` (its ``get_executor()`` is used) or any
            ``concurrent.futures.Executor``; adds it to the "run on" choices and selects it.
    """

    _what = "The strategy lab"

    def __init__(self, strategies: dict | None = None, *, rules: str = "pond", players: int = 4, games: int = 1000,
                 seed: int = 0, executor=None):
        self.own = self._own(strategies or {})
        self._names = list(STRATEGIES) + list(self.own)
        if rules not in PRESETS:
            raise ValueError(f"rules: choose a preset, one of {', '.join(PRESETS)}, not {rules!r}")
        self.rules = w.Dropdown(options=list(PRESETS), value=rules, description="rules", **_WIDE)
        self.players = Slider(players, 2, 6, description="players", continuous_update=False, **_WIDE)
        # Text boxes, read by the kernel: a browser's number box would quietly clamp, round or drop what
        # was typed ("abc", -10, a 20-digit seed); here a bad value is a message when "run" is pressed.
        self.games = w.Text(str(games), description="games", **_WIDE)
        self.seed = w.Text(str(seed), description="seed", **_WIDE)
        self.lineup_box, self.baseline_box = w.HBox(), w.HBox()
        self.compare = w.Checkbox(True, description="compare with a baseline lineup on the same decks", indent=False,
                                  layout=w.Layout(width="auto"))
        self.entry = w.Dropdown(description="compare entry", **_WIDE)
        self.executor = executor.get_executor() if hasattr(executor, "get_executor") else executor
        if self.executor is not None and not callable(getattr(self.executor, "submit", None)):
            raise ValueError(f"executor: give a Dask Client or a concurrent.futures.Executor, not {executor!r}")
        run_on = [(label, key) for key, label in RUN_ON.items()]
        if self.executor is not None:
            run_on.append((self._executor_label(), "executor"))
        self.run_on = w.Dropdown(options=run_on, value=run_on[-1][1] if executor is not None else "here",
                                 description="run on", **_WIDE)
        self.run = w.Button(description="run", icon="play", button_style="success")
        self.progress = w.Output()
        self.status_html, self.message_html = w.HTML(), w.HTML()
        self.share_html, self.paired_html = w.HTML(), w.HTML()
        self.image = w.Image(format="png", layout=w.Layout(max_width="52em", display="none"))
        self.results = self.baseline = self.paired = self.figure = None
        self._message = ""

        for control, cls in ((self.games, "gf-games"), (self.seed, "gf-seed"), (self.run, "gf-run"),
                             (self.message_html, "gf-message"), (self.progress, "gf-progress")):
            control.add_class(cls)
        self.rules.observe(self._rules_changed, names="value")
        self.players.observe(self._players_changed, names="value")
        self.compare.observe(self._players_changed, names="value")
        self.run.on_click(self._run)
        self._rules_changed()
        self._players_changed()
        super().__init__([
            w.HTML("<b>Strategy lab</b>: a tournament, seats rotating, every lineup dealt the same decks"
                   + _SCREEN_READER_ONLY),
            w.HBox([self.rules, self.players]), w.HBox([self.games, self.seed]),
            w.HBox([w.Label("lineup", layout=_LABEL), self.lineup_box]),
            self.compare, w.HBox([w.Label("baseline", layout=_LABEL), self.baseline_box]),
            self.entry, w.HBox([self.run_on, self.run]), self.progress, self.message_html, self.status_html,
            self.share_html, self.paired_html, self.image], model_id=stable_model_id("lab"))
        self.add_class("gf-lab")
        settle_libraries()

    # ------------------------------------------------------------------ controls
    @property
    def lineup(self) -> tuple:
        """The lineup's menus, one per entry (set ``.value`` to a strategy's name); seats rotate over games."""
        return self.lineup_box.children

    @property
    def baseline_lineup(self) -> tuple:
        return self.baseline_box.children

    @property
    def message(self) -> str:
        """The error shown after the last run, or ``""``."""
        return self._message

    @staticmethod
    def _own(strategies: dict) -> dict:
        if not isinstance(strategies, dict):
            raise ValueError(f"strategies: give {{name: function}}, e.g. {{'mine': my_strategy}}, not {strategies!r}")
        own = {}
        for name, strategy in strategies.items():
            if not isinstance(name, str) or not name:
                raise ValueError(f"strategies: each name must be a non-empty string, not {name!r}")
            if name in STRATEGIES:
                raise ValueError(f"strategies: {name!r} is a built-in strategy's name; call yours something else")
            own[name] = Named(strategy, name)  # get_strategy checks it is a function or has choose()
        return own

    def _executor_label(self) -> str:
        kind = type(self.executor)
        return "Dask cluster" if kind.__module__.startswith("distributed") else f"executor ({kind.__name__})"

    def _rules_changed(self, change=None):
        rules = Rules.preset(self.rules.value)
        self.players.min, self.players.max = rules.min_players, rules.max_players  # the slider clamps the value

    def _players_changed(self, change=None):
        n = self.players.value
        self.lineup_box.children = self._menus(self.lineup_box.children, n, ["memory"] + ["random"] * (n - 1), "lineup")
        self.baseline_box.children = self._menus(self.baseline_box.children, n, ["random"] * n, "baseline")
        for menu in self.baseline_box.children:
            menu.disabled = not self.compare.value
        keep = self.entry.value if self.entry.value is not None and self.entry.value < n else 0
        self.entry.options = [(f"entry {k}", k) for k in range(n)]
        self.entry.value = keep
        self.entry.disabled = not self.compare.value

    def _menus(self, old, n, default, which: str) -> tuple:
        """``n`` strategy menus, keeping the choices already made; each named for a screen reader."""
        values = [m.value for m in old[:n]] + default[len(old):n]
        menus = []
        for k, v in enumerate(values):
            menu = w.Dropdown(options=self._names, value=v, layout=w.Layout(width="9em"),
                              description=f"{which} entry {k}", tooltip=f"{which} entry {k}: its strategy")
            menu.add_class(f"gf-{which}-{k}")
            menu.add_class("gf-sr-label")
            menus.append(menu)
        return tuple(menus)

    def _strategy(self, name: str):
        return self.own.get(name, name)  # built-ins travel by name (and run on the fast path)

    # ------------------------------------------------------------------ running
    def _run(self, _button=None):
        self.run.disabled = True
        self._message = ""
        self.message_html.value = ""
        try:
            self._play()
        except Exception as error:  # noqa: BLE001 - a learner sees a message, never a traceback
            self._message = short_error(error)
            self.message_html.value = message_html(self._message)
            self.results = self.baseline = self.paired = self.figure = None
            self.status_html.value = self.share_html.value = self.paired_html.value = ""
            show_png(self.image, None)
        finally:
            self.run.disabled = False

    def _where(self) -> dict:
        return {"here": {"workers": 1}, "cores": {"workers": os.cpu_count() or 1},
                "executor": {"executor": self.executor}}[self.run_on.value]

    def _tournament(self, menus, games: int, seed: int, label: str):
        from ..simulate import simulate  # here, not at the top: opening a Table need not load the engines

        return simulate([self._strategy(m.value) for m in menus], self.rules.value, games, seed,
                        progress=label if _in_kernel() else False, **self._where())

    def _play(self):
        games = read_whole(self.games.value, "games", 1, "play at least 1 game", "a whole number of games, such as 1000")
        seed = read_whole(self.seed.value, "seed", 0, "a seed is 0 or more", "a whole number, 0 or more")
        self.status_html.value = "<small>running…</small>"
        show_png(self.image, None)
        failure = None
        with self.progress:  # tqdm.auto draws its bars (widgets) here
            self.progress.outputs = ()  # the last run's bars (clear_output() would print escapes off a kernel)
            # In a kernel, an Output widget shows an exception raised inside it as a traceback and
            # swallows it; so the exception is caught here and raised again outside.
            try:
                results = self._tournament(self.lineup, games, seed, "lineup games")
                baseline = (self._tournament(self.baseline_lineup, games, seed, "baseline games")
                            if self.compare.value else None)
            except Exception as error:  # noqa: BLE001 - raised again below, outside the Output
                failure = error
        if failure is not None:
            raise failure
        self.results, self.baseline = results, baseline
        entry = self.entry.value
        self.paired = paired_test(results, baseline, entry=entry) if baseline is not None else None
        self.status_html.value = (f"<small>{', '.join(results.lineup)}: {results.rules.name} rules, "
                                  f"{results.n_players} players, {results.games:,} games, seed {results.seed}; "
                                  f"{HOW_PLAYED.get(results.engine, results.engine)}, {results.seconds:.1f} s.</small>")
        self.share_html.value = win_share(results)._repr_html_()
        self.paired_html.value = self._paired_text(entry) if self.paired else ""
        self._draw()

    def _paired_text(self, entry: int) -> str:
        t = self.paired
        p = f"p = {t.pvalue:.3g}" if t.pvalue >= 0.001 else "p < 0.001"
        verdict = ("the difference is clear at the 95% level" if t.low > 0 or t.high < 0
                   else "the interval includes 0: no clear difference")
        return (f"<p><b>Paired comparison, entry {entry}</b> on the same {t.games:,} decks: "
                f"{t.label_a} won {t.share_a:.3f} of the games, {t.label_b} {t.share_b:.3f}; "
                f"difference {t.difference:+.3f} (95% interval {t.low:+.3f} to {t.high:+.3f}), "
                f"{t.method} {p}; {verdict}.</p>")

    def _draw(self):
        figure = Figure(figsize=(10, 3.4), layout="constrained")
        shares, lengths = figure.subplots(1, 2)
        plot_win_share(self.results, ax=shares)
        runs = {"lineup": self.results, "baseline": self.baseline} if self.baseline is not None else self.results
        plot_game_length(runs, ax=lengths)
        self.figure = figure
        show_png(self.image, figure)


def _in_kernel() -> bool:
    """Whether a Jupyter kernel runs this: only there is a progress bar drawn (as a widget)."""
    import sys

    ipython = sys.modules.get("IPython")  # not imported: no kernel
    shell = ipython.get_ipython() if ipython else None
    return getattr(shell, "kernel", None) is not None
