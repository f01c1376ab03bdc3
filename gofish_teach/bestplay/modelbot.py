"""The search bot with a model of its opponents learned at the table: :class:`OpponentModelBot`.

:class:`~.search.SearchBot` plays every legal ask out in worlds drawn from its view, with the other
seats played by one strategy it is told (``others="memory"`` unless told otherwise); a wrong
guess costs it its edge. This bot is told nothing: at each decision it asks its
:class:`~.opponents.OpponentModel` for the posterior over each other seat's strategy, and in each
world it draws every other seat's strategy from that seat's posterior, so that the rollouts play a
seat as ``random`` as often as the bot believes it is ``random``.

The rollouts are compiled, and the compiled engine plays ``random``, ``memory`` and ``most_held``.
The other hypotheses are rolled out by a stand-in (:data:`STAND_INS`): ``other`` by ``random``, the
closest (before ``other`` has learned a seat's preferences, every legal ask is alike to it);
``greedy`` by ``memory``, which, like greedy, asks a seat known to hold the rank whenever it can
(greedy's exact probabilities are far too slow for rollouts: tens of milliseconds an ask). The
stand-in was chosen for that likeness, not by measuring the alternatives; ``make bench``
(``benchmarks/bench_opponents.py``) measures the bot against three ``greedy`` bots with it.

>>> from gofish_teach import Game
>>> import numpy as np
>>> game = Game("pond", 4, seed=3)
>>> bot = OpponentModelBot(samples=8, seed=1)
>>> bot.choose(game.view(0), np.random.default_rng(0)) in game.view(0).legal_asks()
True
"""
from __future__ import annotations

import numpy as np

from ..fast import FAST_STRATEGIES
from .likelihood import HYPOTHESES
from .opponents import OpponentModel
from .search import SearchBot

#: How the rollouts play each hypothesis: itself where the compiled engine plays it, else a stand-in.
STAND_INS: dict[str, str] = {"random": "random", "memory": "memory", "most_held": "most_held", "greedy": "memory",
                             "other": "random"}


class OpponentModelBot(SearchBot):
    """:class:`~.search.SearchBot` whose rollouts play each other seat by a strategy drawn, world by world,
    from the posterior of its :class:`~.opponents.OpponentModel` (``model``; a fresh one seeded by ``seed``
    unless given). ``samples``, ``seed``, ``margin`` and ``burn`` are the search's (see
    :class:`~.search.SearchBot`); ``stand_ins`` overrides :data:`STAND_INS`.

    ``beliefs(view)`` is the posterior it searches with.
    """

    name = "OpponentModelBot"  # what results and tables call it (the Strategy protocol's name)

    def __init__(self, samples: int = 192, seed: int = 0, *, margin: float = 1.0, burn: int = 8,
                 model: OpponentModel | None = None, stand_ins: dict | None = None):
        super().__init__(samples, seed, margin=margin, burn=burn)
        if model is not None and not isinstance(model, OpponentModel):
            raise ValueError(f"model must be an OpponentModel, not {model!r}")
        self.model = model if model is not None else OpponentModel(seed=self.seed)
        chosen = {**STAND_INS, **(stand_ins or {})}
        wrong = {h: s for h, s in chosen.items() if h not in HYPOTHESES or s not in FAST_STRATEGIES}
        if wrong:
            raise ValueError(f"stand_ins: each of {', '.join(HYPOTHESES)} is played by one of "
                             f"{', '.join(FAST_STRATEGIES)}, not {wrong}")
        self.stand_ins = chosen
        self.others = "learned"
        self._code = np.array([FAST_STRATEGIES.index(chosen[h]) for h in HYPOTHESES], np.int64)

    def __repr__(self) -> str:
        return (f"OpponentModelBot(samples={self.samples}, seed={self.seed}, margin={self.margin:g}, "
                f"burn={self.burn}, model={self.model!r})")

    def beliefs(self, view) -> dict[int, dict[str, float]]:
        """The posterior over each other seat's strategy at ``view`` (:meth:`OpponentModel.posterior`)."""
        return self.model.posterior(view)

    def _codes(self, view, n_worlds: int, entropy) -> np.ndarray:
        codes = np.full((n_worlds, view.n_players), FAST_STRATEGIES.index("memory"), np.int64)  # memory: its own seat
        rng = np.random.default_rng(np.random.SeedSequence(list(entropy) + [3]))
        for seat, posterior in self.model.posterior(view).items():
            p = np.array([posterior[h] for h in HYPOTHESES])
            codes[:, seat] = self._code[rng.choice(len(HYPOTHESES), size=n_worlds, p=p / p.sum())]
        return codes
