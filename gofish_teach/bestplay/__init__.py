"""How good can a strategy be? Exact best play on small decks.

- :mod:`~gofish_teach.bestplay.model`: a two-player game on rank counts, checked move by move
  against the engine under every preset, and the golden playthroughs (``tests/playthroughs/``);
- :mod:`~gofish_teach.bestplay.contract`: :class:`GameModel`, that game as the algorithms below
  walk it (deals, legal asks, a step's outcomes with their probabilities, the information key);
- :mod:`~gofish_teach.bestplay.solve`: the exact best response to a built-in (``random``,
  ``memory``, ``most_held``) by backward induction over a seat's beliefs, its value moving
  first and second, and the built-in's own share (the ``solve`` command prints them);
- :mod:`~gofish_teach.bestplay.policy`: :class:`BestResponse`, that best response, and
  :class:`EquilibriumPolicy`, an equilibrium of a small game (2 ranks, or 3 ranks and 2 cards
  each), as strategies for ``simulate``, the ``Lab`` and the Table;
- :mod:`~gofish_teach.bestplay.tree`: :class:`Tree`, the whole game tree as arrays, its
  information sets, and exact best responses to any strategy profile;
- :mod:`~gofish_teach.bestplay.cfr`: an equilibrium by counterfactual regret minimisation
  (discounted CFR, or CFR+), the game's value, and each built-in's exploitability;
- :mod:`~gofish_teach.bestplay.lp`: the same by the sequence-form linear program, the check;
- :mod:`~gofish_teach.bestplay.search`: :class:`SearchBot`, determinised Monte Carlo search for the
  full deck;
- :mod:`~gofish_teach.bestplay.likelihood`, :mod:`~gofish_teach.bestplay.opponents` and
  :mod:`~gofish_teach.bestplay.modelbot`: who am I playing? The likelihood of an ask under each
  strategy, :class:`OpponentModel`, a posterior over each other seat's strategy learned from its
  asks, and :class:`OpponentModelBot`, the search with that model of the others.

>>> from gofish_teach import Rules
>>> result = best_response(Rules.preset("pond").replace(n_ranks=2, hand_size=2), "memory", seat=1)
>>> result.value, result.builtin                    # moving second: memory is already best here
(Fraction(18, 35), Fraction(18, 35))
"""
from __future__ import annotations

from .cfr import Equilibrium, exploitability_of
from .command import add_command
from .contract import GameModel
from .likelihood import HYPOTHESES, exact_likelihoods, likelihoods
from .lp import sequence_form
from .modelbot import OpponentModelBot
from .opponents import OpponentModel
from .policy import BestResponse, EquilibriumPolicy
from .search import SearchBot
from .solve import MAX_OCEAN, MAX_OCEAN_5, MAX_RANKS, Result, Solver, best_response, both_seats, check_size
from .tree import Tree

__all__ = ["BestResponse", "Solver", "Result", "best_response", "both_seats", "check_size", "MAX_RANKS", "MAX_OCEAN",
           "MAX_OCEAN_5", "bench",
           "Tree", "Equilibrium", "EquilibriumPolicy", "exploitability_of", "sequence_form", "SearchBot", "GameModel",
           "HYPOTHESES", "likelihoods", "exact_likelihoods", "OpponentModel", "OpponentModelBot",
           "add_command"]  # the command line's ``solve``


def bench(sizes=((3, 2), (4, 3)), against: str = "memory", out=None) -> list[dict]:
    """Time the exact solver (for ``make bench``): one line per deck size and seat; returns the rows.

    >>> rows = bench(sizes=((2, 2),), out=False)
    >>> [(r["ranks"], r["seat"], r["states"]) for r in rows]
    [(2, 0, 112), (2, 1, 79)]
    """
    from ..rules import Rules

    rows = []
    for ranks, hand in sizes:
        rules = Rules.preset("pond").replace(n_ranks=ranks, hand_size=hand)
        for seat in (0, 1):
            r = best_response(rules, against, seat, exact=False)
            row = dict(ranks=ranks, hand=hand, seat=seat, value=float(r.value), builtin=float(r.builtin),
                       states=r.states, seconds=r.seconds, cpu=r.cpu)
            rows.append(row)
            if out is not False:
                print(f"bestplay: pond, {ranks} ranks, {hand} cards, seat {seat} vs {against}: best response "
                      f"{row['value']:.4f} ({against} itself {row['builtin']:.4f}), {row['states']:,} states, "
                      f"{row['seconds']:.1f} s", file=out)
    return rows
