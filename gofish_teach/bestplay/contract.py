"""The game as the algorithms walk it: one contract for the solver, the game tree and the policies.

OpenSpiel's algorithms (CFR, exact best responses, search) are written against one state
interface, so that any game implementing it can be solved and a change to a game cannot slip
past one algorithm while another follows it. Here the exact best response
(:mod:`~gofish_teach.bestplay.solve`), the game tree that CFR and the linear program solve
(:mod:`~gofish_teach.bestplay.tree`, :mod:`~gofish_teach.bestplay.cfr`) and the policies that
play their answers (:mod:`~gofish_teach.bestplay.policy`) walk the game through
:class:`GameModel` alone, which :class:`~gofish_teach.bestplay.model.Model` implements for two
players on rank counts (``tests/test_bestplay_model.py`` holds the algorithms to it):

- :meth:`GameModel.deals`: every deal, with its probability, the position after it and what
  each seat observed;
- :meth:`GameModel.asks`: the legal asks at a position;
- :meth:`GameModel.step`: every outcome of an ask, with its probability, up to the next decision;
- :meth:`GameModel.policy`: a built-in strategy's asks at a position (the opponent a best
  response answers, the profiles a tree evaluates);
- :meth:`GameModel.information_key`: a player's information state, read from its
  :class:`~gofish_teach.view.View`: what the solver's beliefs and the tree's information sets are
  filed under, built from the same observations that :meth:`~GameModel.deals` and
  :meth:`~GameModel.step` give.

A position (``world``) is a hashable value the model gives back, which says at least whether
the game has ended (``world.over``), who moves (``world.turn``) and each seat's books
(``world.books``). The tree and CFR read no more of it; the exact best response also reads the
rest of a :class:`~gofish_teach.bestplay.model.World` (the hands, and the record's shown ranks
and dead asks, to merge positions that differ only in what no one's later choices read).

Written against the contract alone, the value of a game in which both seats play a built-in:

>>> from fractions import Fraction
>>> from gofish_teach import Rules
>>> from gofish_teach.bestplay.model import Model
>>> def both_play(game: GameModel, name: str):
...     def value(world):   # seat 0's expected win share from here (a tie is half a win)
...         if world.over:
...             mine, theirs = world.books
...             return 1 if mine > theirs else Fraction(1, 2) if mine == theirs else 0
...         return sum(p * q * value(child) for rank, p in game.policy(name, world)
...                    for q, child, _ in game.step(world, rank))
...     return sum(p * value(world) for p, world, _ in game.deals())
>>> both_play(Model(Rules.preset("pond").replace(n_ranks=2, hand_size=2)), "memory")
Fraction(17, 35)
"""
from __future__ import annotations

from typing import Hashable, Iterable, Protocol, runtime_checkable

#: What a seat observes of one step (or of the deal): a tuple of event tuples (see
#: :func:`~gofish_teach.bestplay.model.observe`).
Observation = tuple
#: A player's information state: ``(seat, observations since the deal)``.
InformationKey = tuple


@runtime_checkable
class GameModel(Protocol):
    """The two-player game on a small deck as the algorithms use it (see the module docstring).

    Probabilities are whatever the model was made with: Fractions, floats, or ``(numerator,
    denominator)`` pairs of whole numbers (:class:`~gofish_teach.bestplay.model.Model`'s ``exact``).
    """

    rules: object
    n_ranks: int

    def deals(self) -> Iterable[tuple[object, Hashable, tuple[Observation, Observation]]]:
        """Every deal as ``(probability, world, (what seat 0 observed, what seat 1 observed))``,
        after the automatic steps (books laid, an empty hand's draws); the probabilities sum to 1."""
        ...

    def asks(self, world) -> list[int]:
        """The ranks (indices) the player to move may ask for at ``world``, in deck order."""
        ...

    def step(self, world, rank: int, seat: int | None = None) -> list:
        """Every outcome of the player to move asking for ``rank``, up to the next decision, as
        ``(probability, world, (obs0, obs1))`` (with ``seat`` given, only that seat's observation);
        the probabilities sum to 1."""
        ...

    def policy(self, name: str, world) -> list[tuple[int, object]]:
        """The built-in ``name``'s asks at ``world`` for the player to move, as ``(rank, probability)``."""
        ...

    def information_key(self, view) -> InformationKey:
        """``(seat, observations)`` of ``view``: the deal's observation, then one per ask, each as
        :meth:`deals` and :meth:`step` give that seat's. Two views with equal keys cannot be told
        apart by their player; the solver's beliefs and the tree's information sets are filed under them."""
        ...
