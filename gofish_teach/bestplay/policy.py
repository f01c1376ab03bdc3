"""The exact best response as a strategy: it plays in ``simulate``, the ``Lab`` and the Table.

A :class:`BestResponse` reads the view's events back through the model (its information key,
:meth:`~gofish_teach.bestplay.contract.GameModel.information_key`), updating its belief about
the opponent's hand one ask at a time (the opponent's asks weighted by the built-in's policy),
and asks what the solver's backward induction says is best there. It plays either seat, so
seats may rotate. :class:`EquilibriumPolicy` looks its information set up by the same key.

>>> from gofish_teach import Rules
>>> from gofish_teach.simulate import simulate
>>> rules = Rules.preset("pond").replace(n_ranks=2, hand_size=2)
>>> best = BestResponse(rules, "memory")
>>> res = simulate([best, "memory"], rules, games=40, seed=1, workers=1)
>>> res.games
40
>>> best.value(0), best.value(1)     # the exact win shares it plays for, moving first and second
(Fraction(41, 70), Fraction(18, 35))
"""
from __future__ import annotations

from .solve import Impossible, Solver


class BestResponse:
    """The best response to the built-in ``against`` under ``rules`` (2 players, a small deck).

    Against any other opponent it still plays, treating asks the built-in would not make as
    equally likely among the opponent's legal asks (its belief can then no longer be exact).
    A :class:`~gofish_teach.strategies.Strategy`.
    """

    name = "BestResponse"  # what results and tables call it (lesson 08's saved outputs say so)

    def __init__(self, rules, against: str = "memory", *, exact: bool | None = None):
        self.rules, self.against = rules, against
        self.exact = rules.n_ranks <= 3 if exact is None else exact
        self.solvers: dict = {}
        self._beliefs: dict = {}
        self.label = f"best-response bot (against {against})"  # how the Table names its seat

    def solver(self, seat: int) -> Solver:
        if seat not in self.solvers:
            self.solvers[seat] = Solver(self.rules, self.against, seat, exact=self.exact)
        return self.solvers[seat]

    def value(self, seat: int):
        """The exact expected win share of this strategy in ``seat`` against ``against``."""
        return self.solver(seat).solve()

    def belief(self, view):
        """The belief the seat holds at ``view`` (see :class:`~gofish_teach.bestplay.solve.Solver`)."""
        if view.rules != self.rules:
            raise ValueError(f"BestResponse: solved for {self.rules!r}, not for these rules")
        seat, chunks = self.solver(view.player).model.information_key(view)
        try:
            return self.belief_of(seat, chunks, True)
        except Impossible:  # the opponent is not the built-in: the possible worlds alone
            return self.belief_of(seat, chunks, False)

    def belief_of(self, seat: int, chunks: tuple, weighted: bool = True):
        """The belief after the observation ``chunks``; ``weighted``: the opponent's asks by its policy."""
        key = (seat, tuple(chunks), weighted)
        known = self._beliefs.get(key)
        if known is None:
            solver = self.solver(seat)
            if len(chunks) == 1:
                known = solver.roots()[chunks[0]][1]
            else:
                known = solver.next_belief(self.belief_of(seat, chunks[:-1], weighted), chunks[-1], weighted)
            self._beliefs[key] = known
        return known

    def choose(self, view, rng=None) -> tuple:
        belief = self.belief(view)
        rank = self.solver(view.player).best_ask(belief)
        return view.opponents[0], self.rules.ranks[rank]

    __call__ = choose


class EquilibriumPolicy:
    """The equilibrium CFR finds on a small deck (:class:`~gofish_teach.bestplay.tree.Tree`), as a
    strategy: at each information state it draws its ask from the equilibrium's probabilities with
    the seat's own generator (an equilibrium may need random choices). Either seat, any opponent.
    The game tree is built and solved here, once: under a second on 2 ranks, about a minute on 3
    ranks and 2 cards each (see the README). A :class:`~gofish_teach.strategies.Strategy` that
    mixes: :meth:`probabilities` gives its asks' chances.

    >>> from gofish_teach import Rules
    >>> from gofish_teach.simulate import simulate
    >>> tiny = Rules.preset("pond").replace(n_ranks=2, hand_size=2)
    >>> eq = EquilibriumPolicy(tiny)
    >>> round(eq.value, 4), eq.exploitability < 1e-4     # the seat moving first, both playing it
    (0.5857, True)
    >>> simulate([eq, "memory"], tiny, games=20, seed=1, workers=1).games
    20
    """

    name = "EquilibriumPolicy"  # what results and tables call it

    def __init__(self, rules, *, iterations: int = 2000, target: float = 1e-5, method: str = "dcfr"):
        from .tree import Tree  # the tree is built here, once: the class is cheap to import

        self.rules = rules
        self.equilibrium = Tree(rules).solve(iterations=iterations, target=target, method=method)
        self.value, self.exploitability = self.equilibrium.value, self.equilibrium.exploitability
        self.label = "equilibrium bot"  # how the Table names its seat

    def probabilities(self, view) -> dict:
        """``{rank label: probability}`` of this strategy's asks at ``view``."""
        if view.rules != self.rules:
            raise ValueError(f"EquilibriumPolicy: solved for {self.rules!r}, not for these rules")
        mix = self.equilibrium.probabilities(*self.equilibrium.tree.model.information_key(view))
        return {self.rules.ranks[r]: p for r, p in mix.items()}

    def choose(self, view, rng) -> tuple:
        ranks, weights = zip(*self.probabilities(view).items(), strict=True)
        total = sum(weights)  # floats from CFR: renormalised so that they sum to 1 exactly enough for numpy
        rank = ranks[rng.choice(len(ranks), p=[w / total for w in weights])]
        return view.opponents[0], rank

    __call__ = choose
