"""Equilibrium and exploitability on small decks, by counterfactual regret minimisation.

The whole game tree (:class:`~gofish_teach.bestplay.tree.Tree`: every deal, every ask, every
draw, each decision filed under the mover's information set) is solved by regret matching: at
each information set the current strategy plays each ask in proportion to its accumulated
positive regret, the two seats updated in turn, and the *average* strategy converges to an
equilibrium. The game is constant-sum (the two win shares add up to 1), so the equilibrium's
value is the game's value.

Two variants: CFR+ (``method="cfr+"``: regrets floored at zero, the average weighted by the
iteration's number; Tammelin et al., 2015) and discounted CFR (``method="dcfr"``, the default:
positive regrets scaled by t^1.5 / (t^1.5 + 1) each iteration, negative ones halved, the average
by (t / (t + 1))^2; Brown and Sandholm, 2019). Why DCFR: on pond with 3 ranks and 2 cards each it
reaches an exploitability of 4.0e-5 in 50 iterations and 1.2e-5 in 100, where CFR+ has 1.3e-4 and
4.1e-5; on 2 ranks, 1e-6 in 80 iterations against 260. Where it fits, the sequence-form linear
program (:mod:`~gofish_teach.bestplay.lp`) is exact and, with HiGHS, as fast on 3 ranks, but it
takes 4.5 times the memory; it is the check, CFR the solver that scales.

*Exploitability* of a strategy profile: what best responses gain against it, on average over
the two seats (half of the sum of both best responses' values minus 1, half the "NashConv");
0 exactly at an equilibrium. Each best response is exact: a full pass over the tree per depth
(:meth:`Tree.best_response`), the same values as the belief solver
(:mod:`~gofish_teach.bestplay.solve`) against the built-ins, a test. The game's value lies
between seat 0's equilibrium share less seat 1's gain and plus seat 0's gain. A built-in's
exploitability is what the best response gains against it beyond the game's value, averaged
over the two seats.

>>> from gofish_teach import Rules
>>> from gofish_teach.bestplay import Tree
>>> game = Tree(Rules.preset("pond").replace(n_ranks=2, hand_size=1))
>>> eq = game.solve(iterations=200)
>>> round(eq.value, 4), eq.exploitability < 1e-3      # the seat moving first wins 17/35 of the time
(0.4857, True)
"""
from __future__ import annotations

import resource
import time
from dataclasses import dataclass, field

import numpy as np

from . import kernels

# A tree is a :class:`~.tree.Tree`; it is not imported here because Tree.solve calls this module's
# solve (the annotations name it in words, so the two modules make no circle).

#: The regret-matching variants (see above), and "lp": the sequence-form linear program.
CFR_METHODS = {"cfr+": dict(plus=True, alpha=0.0, beta=0.0, gamma=0.0),
               "dcfr": dict(plus=False, alpha=1.5, beta=0.0, gamma=2.0)}
METHODS = (*CFR_METHODS, "lp")


@dataclass(frozen=True, eq=False)
class Equilibrium:
    """What :meth:`Tree.solve` found: the value for the seat moving first, exploitability, sizes, cost."""

    value: float            # seat 0's win share when both play the average strategy
    exploitability: float   # half of what the two best responses gain against it
    iterations: int         # of CFR (0: the linear program)
    infosets: int
    nodes: int
    sigma: np.ndarray = field(repr=False)   # the average strategy, flat (see Tree)
    tree: object = field(repr=False)  # the Tree it solves
    gains: tuple = (0.0, 0.0)               # what each seat's best response gains beyond its equilibrium share
    seconds: float = 0.0                    # wall-clock time of the solve (the tree built before)
    cpu: float = 0.0                        # its processor time
    peak_bytes: int = 0                     # the process's peak resident memory when done

    def probabilities(self, player: int, chunks) -> dict:
        """``{rank index: probability}`` at ``player``'s information set after the observation ``chunks``."""
        return self.tree.strategy(self.sigma, player, chunks)

    @property
    def strategy(self) -> dict:
        """``{(player, observations): {rank index: probability}}`` for every information set (small trees)."""
        tree, out = self.tree, {}
        for I in range(tree.infosets):
            player, chunks = tree.observations(I)
            out[(player, chunks)] = tree.strategy(self.sigma, player, chunks)
        return out


def solve(tree, iterations: int = 1000, target: float | None = None, *, method: str = "dcfr",
          check_every: int = 50, progress=None) -> Equilibrium:
    """Run ``method`` (``"dcfr"``, ``"cfr+"``) for ``iterations``, stopping early once the exploitability
    is below ``target`` (checked every ``check_every`` iterations; each check costs two exact best responses).
    ``progress(t, exploitability)`` is called at each check. ``method="lp"`` solves the sequence-form
    linear program instead (:func:`~gofish_teach.bestplay.lp.sequence_form`; ``iterations`` unused)."""
    if method not in METHODS:
        raise ValueError(f"bestplay: method {method!r} is not one of {', '.join(METHODS)}")
    start, cpu = time.perf_counter(), time.process_time()
    if method == "lp":
        from .lp import sequence_form

        return _found(tree, sequence_form(tree).sigma, 0, start, cpu)
    options = CFR_METHODS[method]
    n, m = tree.nodes, len(tree.ranks)
    regret, total, sigma, gain = np.zeros(m), np.zeros(m), np.empty(m), np.empty(m)
    cf, own, v = np.empty(n), np.empty(n), np.empty(n)
    args = (tree.kind, tree.first, tree.count, tree.prob, tree.halves, tree.iset, tree.iset_player, tree.iset_node,
            tree.offset, tree.nact)
    done = 0
    for t in range(1, iterations + 1):
        for player in (0, 1):
            kernels.regret_matching(regret, tree.offset, tree.nact, sigma)
            kernels.cfr_update(*args, player, regret, total, sigma, cf, own, v, gain, float(t), options["alpha"],
                               options["beta"], options["gamma"], options["plus"])
        done = t
        if target is not None and t % check_every == 0:
            exploit = assess(tree, average(tree, total))[1]
            if progress is not None:
                progress(t, exploit)
            if exploit < target:
                break
    return _found(tree, average(tree, total), done, start, cpu)


def _found(tree, sigma: np.ndarray, iterations: int, start: float, cpu: float) -> Equilibrium:
    value, exploit, gains = assess(tree, sigma)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # kilobytes on Linux
    return Equilibrium(value, exploit, iterations, tree.infosets, tree.nodes, sigma, tree, gains, seconds, cpu, peak)


def average(tree, total: np.ndarray) -> np.ndarray:
    """The average strategy from its accumulated weights (uniform where a set was never reached)."""
    sums = np.repeat(np.add.reduceat(total, tree.offset), tree.nact)
    return np.where(sums > 0, total / np.where(sums > 0, sums, 1.0), np.repeat(1.0 / tree.nact, tree.nact))


def assess(tree, sigma: np.ndarray) -> tuple:
    """``(value, exploitability, gains)`` of the profile ``sigma``: seat 0's share, and what each seat's
    exact best response gains beyond its share (half their sum is the exploitability)."""
    value = tree.expected(sigma)
    gains = (tree.best_response(sigma, 0) - value, tree.best_response(sigma, 1) - (1.0 - value))
    return value, (gains[0] + gains[1]) / 2, gains


def exploitability_of(rules, name: str, value: float) -> float:
    """What the exact best response gains against the built-in ``name`` beyond the game's ``value``
    (seat 0's equilibrium share), averaged over the two seats."""
    from .solve import Solver

    best0 = float(Solver(rules, name, 0).solve())
    best1 = float(Solver(rules, name, 1).solve())
    return ((best0 - value) + (best1 - (1 - value))) / 2
