"""Equilibria by CFR on the whole game tree, checked three ways: against the sequence-form linear
program (HiGHS), the tree's best responses against the belief solver's (solve.py) and against the
best response written apart in Fractions (exact.py), and the built-ins' exploitability."""
from fractions import Fraction

import numpy as np
import pytest

from gofish_teach import Rules
from gofish_teach.__main__ import main
from gofish_teach.bestplay import exact
from gofish_teach.bestplay.cfr import assess, exploitability_of
from gofish_teach.bestplay.lp import sequence_form
from gofish_teach.bestplay.solve import Solver
from gofish_teach.bestplay.tree import Tree

TINY = Rules.preset("pond").replace(n_ranks=2, hand_size=2)
SMALL = Rules.preset("pond").replace(n_ranks=3, hand_size=2)


@pytest.fixture(scope="module")
def small_tree():
    return Tree(SMALL)  # 3.3 million nodes, built once (seconds)


@pytest.mark.parametrize("method", ["dcfr", "cfr+"])
@pytest.mark.parametrize("preset,hand", [("pond", 2), ("family", 2), ("classic", 3)])
def test_equilibrium_exploitability_below_1e4(preset, hand, method):
    rules = Rules.preset(preset).replace(n_ranks=2, hand_size=hand)
    eq = Tree(rules).solve(iterations=1000, target=1e-4, method=method)
    assert eq.exploitability < 1e-4 and min(eq.gains) > -1e-12
    # the best response to a built-in can never do worse than the game's value
    for name in ("random", "memory", "most_held"):
        assert exploitability_of(rules, name, eq.value) > -1e-4


def test_the_tiny_games_value_is_41_70_by_the_linear_program_and_cfr_agrees():
    tree = Tree(TINY)
    lp = sequence_form(tree)
    assert Fraction(lp.value).limit_denominator(1000) == Fraction(41, 70)
    assert abs(lp.value - 41 / 70) < 1e-12
    eq = tree.solve(iterations=2000, target=1e-6)
    # the game's value lies between seat 0's share less seat 1's gain and plus seat 0's gain
    assert eq.value - eq.gains[1] - 1e-12 <= 41 / 70 <= eq.value + eq.gains[0] + 1e-12, (eq.value, eq.gains)
    assert abs(eq.value - 41 / 70) < 2e-6


@pytest.mark.parametrize("preset,ranks,hand", [("classic", 2, 3), ("family", 2, 2), ("pond", 3, 4), ("classic", 3, 4),
                                               ("family", 3, 4)])
def test_cfr_brackets_the_linear_programs_value(preset, ranks, hand):
    """CFR's interval holds the LP's value; the LP's own profile is an equilibrium by the tree's best
    responses; and the check can fail: the uniform profile is far from one."""
    tree = Tree(Rules.preset(preset).replace(n_ranks=ranks, hand_size=hand))
    lp = sequence_form(tree)
    eq = tree.solve(iterations=3000, target=1e-5, check_every=10)
    assert eq.exploitability < 1e-5
    assert eq.value - eq.gains[1] - 1e-9 <= lp.value <= eq.value + eq.gains[0] + 1e-9, (lp.value, eq.value, eq.gains)
    value, exploit, gains = assess(tree, lp.sigma)
    assert abs(value - lp.value) < 1e-9 and max(abs(g) for g in gains) < 1e-9, (value, lp.value, gains)
    assert assess(tree, tree.uniform())[1] > 0.01


def test_the_trees_best_response_equals_the_belief_solvers_on_two_ranks():
    """Against every built-in, in both seats, the tree's best response and the belief solver's agree to
    rounding (the solver in Fractions); and both seats playing the built-in give the solver's own share."""
    tree = Tree(TINY)
    for name in ("random", "memory", "most_held"):
        sigma = tree.profile(name)
        for seat in (0, 1):
            solver = Solver(TINY, name, 1 - seat, exact=True)
            assert tree.best_response(sigma, 1 - seat) == pytest.approx(float(solver.solve()), abs=1e-12)
        assert tree.expected(sigma) == pytest.approx(float(Solver(TINY, name, 0, exact=True).builtin_share()),
                                                     abs=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["random", "memory", "most_held"])
def test_the_trees_best_response_equals_the_belief_solvers_on_three_ranks(small_tree, name):
    """The same on pond with 3 ranks and 2 cards each, the game whose equilibrium the README quotes."""
    sigma = small_tree.profile(name)
    for seat in (0, 1):
        assert small_tree.best_response(sigma, seat) == pytest.approx(float(Solver(SMALL, name, seat).solve()),
                                                                      abs=1e-10)


@pytest.mark.parametrize("rules", [TINY, Rules.preset("family").replace(n_ranks=2, hand_size=2),
                                   Rules.preset("classic").replace(n_ranks=2, hand_size=3)])
def test_exploitability_is_exact(rules):
    """Short of convergence (5 iterations, so the best responses gain something), the compiled best
    responses equal the ones in Fractions (bestplay/exact.py, written apart) to rounding: the
    exploitability is exact."""
    tree = Tree(rules)
    eq = tree.solve(iterations=5)
    for player in (0, 1):
        fractional = exact.best_response(tree, eq.sigma, player)
        assert tree.best_response(eq.sigma, player) == pytest.approx(float(fractional), abs=1e-12)
    assert eq.exploitability > 1e-6  # a check that could fail: there is a gain to find


@pytest.mark.parametrize("preset,ranks,hand,value", [("pond", 2, 2, Fraction(41, 70)),
                                                     ("pond", 3, 4, Fraction(3529, 5775))])
def test_the_value_is_proved_exactly(preset, ranks, hand, value):
    """The LP's equilibrium rounded to fractions: its two exact best responses meet, so the value is exact;
    a profile short of equilibrium gets an interval that holds it, and is not a point."""
    tree = Tree(Rules.preset(preset).replace(n_ranks=ranks, hand_size=hand))
    assert exact.bounds(tree, exact.rational(tree, sequence_form(tree).sigma)) == (value, value)
    low, high = exact.bounds(tree, tree.solve(iterations=5).sigma)
    assert low <= value <= high and low < high, (low, high)


def test_too_big_is_refused():
    with pytest.raises(ValueError, match="3,312,799 nodes, more than 10,000"):
        Tree(SMALL, max_nodes=10_000)


def test_built_in_exploitability_on_two_ranks():
    eq = Tree(TINY).solve(iterations=500, target=1e-5)
    assert eq.value == pytest.approx(float(Fraction(41, 70)), abs=1e-4)
    assert exploitability_of(TINY, "memory", eq.value) == pytest.approx(0.05, abs=1e-4)


def test_an_information_set_is_found_from_a_seats_observations():
    tree = Tree(TINY)
    eq = tree.solve(iterations=200, target=1e-5)
    strategy = eq.strategy
    assert len(strategy) == tree.infosets == 341
    for (player, chunks), mix in list(strategy.items())[::37]:
        assert eq.probabilities(player, chunks) == mix and sum(mix.values()) == pytest.approx(1)
        with pytest.raises(KeyError):
            eq.probabilities(1 - player, chunks)
    with pytest.raises(KeyError):
        eq.probabilities(0, [("not", "an", "observation")])


@pytest.mark.parametrize("method", ["dcfr", "lp"])
def test_the_equilibrium_command_on_two_ranks(method, capsys):
    """The README's command, on the 2-rank game: its interval holds the value 41/70."""
    import io
    import re

    out = io.StringIO()
    assert main(["solve", "--rules", "pond", "--players", "2", "--ranks", "2", "--hand-size", "2", "--equilibrium",
                 "--method", method], out=out) == 0
    text = out.getvalue()
    low, high = map(float, re.search(r"value is between ([\d.]+) and ([\d.]+)", text).groups())
    assert low <= 41 / 70 <= high and high - low < 2e-5, text
    assert "596 nodes, 341 information sets" in text and "peak memory" in text, text
    if method == "lp":
        out = io.StringIO()
        main(["solve", "--ranks", "2", "--hand-size", "2", "--equilibrium", "--method", "lp", "--exact"], out=out)
        assert "the game's value is exactly 41/70 = 0.5857142857" in out.getvalue(), out.getvalue()


def test_the_equilibrium_command_refuses_a_best_responses_options(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["solve", "--ranks", "2", "--hand-size", "2", "--equilibrium", "--against", "random"])
    assert stop.value.code == 2 and "--equilibrium" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["solve", "--ranks", "2", "--hand-size", "2", "--equilibrium", "--target", "0"])
    with pytest.raises(SystemExit) as stop:
        main(["solve", "--ranks", "4", "--hand-size", "5", "--equilibrium"])
    assert "nodes, more than" in capsys.readouterr().err


def test_a_strategy_of_another_size_is_refused():
    tree = Tree(TINY)
    with pytest.raises(ValueError, match="probabilities"):
        tree.expected(np.ones(3))
    assert np.allclose(np.add.reduceat(tree.uniform(), tree.offset), 1)
