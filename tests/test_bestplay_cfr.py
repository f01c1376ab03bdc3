"""Equilibria of the smallest games by CFR+, and the built-ins' exploitability."""
from fractions import Fraction

import pytest

from gofish_teach import Rules
from gofish_teach.bestplay.cfr import Tree, exploitability_of
from gofish_teach.bestplay.solve import Solver


@pytest.mark.parametrize("preset,hand", [("pond", 2), ("family", 2), ("classic", 3)])
def test_equilibrium_exploitability_below_1e3(preset, hand):
    rules = Rules.preset(preset).replace(n_ranks=2, hand_size=hand)
    tree = Tree(rules)
    eq = tree.solve(iterations=1000, target=1e-4)
    assert eq.exploitability < 1e-3
    # the best response to a built-in can never do worse than the game's value
    for name in ("random", "memory", "most_held"):
        assert exploitability_of(rules, name, eq.value) > -1e-3


def test_tree_best_response_agrees_with_the_solver():
    """The tree's best response to memory's policy equals the exact solver's value."""
    rules = Rules.preset("pond").replace(n_ranks=2, hand_size=2)
    tree = Tree(rules)
    solver = Solver(rules, "memory", 1, exact=True)
    sigma = []
    keys = {i: key for key, i in tree.infosets.items()}
    for i, actions in enumerate(tree.actions):
        sigma.append([1.0 / len(actions)] * len(actions))
    # seat 0 plays memory: find its choice at each of its infosets from one node of the set
    for node, kind in enumerate(tree.kind):
        if kind == 2 and tree.data[node][0] == 0:
            i = tree.data[node][1]
            world = _world_at(tree, node)
            if world is not None:
                (rank, _), = tree.model.policy("memory", world)
                sigma[i] = [1.0 if a == rank else 0.0 for a in tree.actions[i]]
    del keys
    assert tree.best_response(sigma, 1) == pytest.approx(float(solver.solve()), abs=1e-12)


def _world_at(tree, node):
    return tree.worlds.get(node)


def test_too_big_is_refused():
    with pytest.raises(ValueError, match="smallest decks"):
        Tree(Rules.preset("pond").replace(n_ranks=3, hand_size=2), max_nodes=10_000)


def test_built_in_exploitability_on_two_ranks():
    rules = Rules.preset("pond").replace(n_ranks=2, hand_size=2)
    eq = Tree(rules).solve(iterations=500, target=1e-5)
    assert eq.value == pytest.approx(float(Fraction(41, 70)), abs=1e-3)
    assert exploitability_of(rules, "memory", eq.value) == pytest.approx(0.05, abs=2e-3)
