"""The best response plays in the kit's own simulator, and wins what the solver says it wins."""
import math

import numpy as np
import pytest

from gofish_teach import Rules
from gofish_teach.bestplay.policy import BestResponse
from gofish_teach.simulate import simulate


def entry_shares(res, entry=0):
    """Per game, the win share of lineup entry ``entry`` (a k-way tie counts 1/k)."""
    seat = np.argmax(res.seat_entry == entry, axis=1)
    winners = res.winners.astype(float)
    return winners[np.arange(res.games), seat] / winners.sum(axis=1)


@pytest.mark.parametrize("against,games", [("memory", 1200), ("random", 600), ("most_held", 600)])
def test_simulated_share_within_99_interval_of_the_value(against, games):
    rules = Rules.preset("pond").replace(n_ranks=3, hand_size=2)
    best = BestResponse(rules, against)
    value = (best.value(0) + best.value(1)) / 2          # seats rotate: half the games in each
    res = simulate([best, against], rules, games=games, seed=7, workers=1)
    shares = entry_shares(res)
    half = 2.576 * shares.std(ddof=1) / math.sqrt(games)
    assert abs(shares.mean() - float(value)) <= half, (shares.mean(), float(value), half)


def test_plays_other_opponents_and_refuses_other_rules():
    rules = Rules.preset("pond").replace(n_ranks=2, hand_size=2)
    res = simulate([BestResponse(rules, "memory"), "random"], rules, games=30, seed=3, workers=1)
    assert res.games == 30
    other = Rules.preset("family").replace(n_ranks=2, hand_size=2)
    with pytest.raises(ValueError, match="solved for"):
        simulate([BestResponse(rules, "memory"), "random"], other, games=2, seed=3, workers=1)


# ---------------------------------------------------------------------- the equilibrium as a strategy
TINY = Rules.preset("pond").replace(n_ranks=2, hand_size=2)


@pytest.fixture(scope="module")
def equilibrium():
    from gofish_teach.bestplay import EquilibriumPolicy

    return EquilibriumPolicy(TINY)


def seat_shares(res, seat=0):
    """Per game, the win share of ``seat`` (seat 0 moves first; a tie counts 1/k)."""
    winners = res.winners.astype(float)
    return winners[:, seat] / winners.sum(axis=1)


def test_the_equilibrium_against_itself_wins_the_games_value_moving_first(equilibrium):
    """Both seats playing the equilibrium: the seat moving first wins the game's value (0.5857), within
    the 99% interval of 3,000 simulated games (its random choices drawn by each seat's own generator)."""
    assert equilibrium.exploitability < 1e-3
    games = 3000
    shares = seat_shares(simulate([equilibrium, equilibrium], TINY, games=games, seed=5, workers=1))
    half = 2.576 * shares.std(ddof=1) / math.sqrt(games)
    assert abs(shares.mean() - equilibrium.value) <= half, (shares.mean(), equilibrium.value, half)


@pytest.mark.parametrize("opponent", ["memory", "random", "most_held"])
def test_the_equilibrium_is_not_beaten_by_a_builtin(equilibrium, opponent):
    """An equilibrium guarantees its seat the game's value against any opponent (less its exploitability):
    the value moving first, 1 - value moving second, so at least 1/2 over rotating seats. The simulated
    share's 99% interval must reach that guarantee (a share clearly below it would refute the claim)."""
    games = 2000
    res = simulate([equilibrium, opponent], TINY, games=games, seed=9, workers=1)
    shares = entry_shares(res)
    guarantee = 0.5 - equilibrium.exploitability
    half = 2.576 * shares.std(ddof=1) / math.sqrt(games)
    assert shares.mean() + half >= guarantee, (shares.mean(), half, guarantee)


def test_the_equilibrium_plays_in_worker_processes(equilibrium):
    """It travels to simulate's workers (pickled without its model, rebuilt there) and plays the same games."""
    here = simulate([equilibrium, "memory"], TINY, games=200, seed=2, workers=1)
    there = simulate([equilibrium, "memory"], TINY, games=200, seed=2, workers=2)
    assert (here.winners == there.winners).all() and there.games == 200


def test_the_equilibrium_plays_at_the_table_and_refuses_other_rules(equilibrium):
    from gofish_teach.widgets import Table
    from test_widgets_table import play_through  # the Table's own whole-game driver, through its controls

    for seed in range(3):
        assert play_through(Table(TINY, opponents=[equilibrium], seed=seed), seed).match.game.is_over
    other = Rules.preset("family").replace(n_ranks=2, hand_size=2)
    with pytest.raises(ValueError, match="solved for"):
        simulate([equilibrium, "random"], other, games=2, seed=3, workers=1)


# ---------------------------------------------------------------------- the 3-rank equilibrium as a strategy
SMALL = Rules.preset("pond").replace(n_ranks=3, hand_size=2)


@pytest.fixture(scope="module")
def small_equilibrium():
    from gofish_teach.bestplay import EquilibriumPolicy

    return EquilibriumPolicy(SMALL, target=1e-4)  # 3.3 million nodes: about half a minute


def mixed(eq, seat_of_builtin: int, name: str) -> float:
    """Seat 0's exact share when ``name`` plays seat ``seat_of_builtin`` and the equilibrium the other."""
    tree = eq.equilibrium.tree
    theirs = np.repeat(tree.iset_player == seat_of_builtin, tree.nact)
    return tree.expected(np.where(theirs, tree.profile(name), eq.equilibrium.sigma))


@pytest.mark.slow
def test_the_three_rank_equilibrium_against_itself_wins_the_games_value_moving_first(small_equilibrium):
    """Pond with 3 ranks and 2 cards each: both seats playing the equilibrium, the seat moving first wins
    the game's value (0.4951), within the 99% interval of 10,000 simulated games."""
    eq = small_equilibrium
    assert eq.exploitability < 1e-4 and abs(eq.value - 0.49506) < 1e-4
    games = 10_000
    shares = seat_shares(simulate([eq, eq], SMALL, games=games, seed=5, workers=1))
    half = 2.576 * shares.std(ddof=1) / math.sqrt(games)
    print(f"moving first: simulated {shares.mean():.4f} +- {half:.4f}, exact {eq.value:.4f}")
    assert abs(shares.mean() - eq.value) <= half, (shares.mean(), eq.value, half)


@pytest.mark.slow
@pytest.mark.parametrize("opponent", ["random", "memory"])
def test_the_three_rank_equilibrium_against_a_builtin_wins_what_the_tree_says(small_equilibrium, opponent):
    """Against a built-in over rotating seats, the equilibrium's simulated share is within the 99% interval
    of its exact share (the tree's expected value with the built-in in the other seat), which is at least
    its guarantee 1/2 less its exploitability; and the exact share is far enough from 1/2 that the
    simulation tells them apart (the check could fail)."""
    eq = small_equilibrium
    exact = (mixed(eq, 1, opponent) + 1 - mixed(eq, 0, opponent)) / 2  # half the games in each seat
    assert exact >= 0.5 - eq.exploitability
    games = 10_000
    shares = entry_shares(simulate([eq, opponent], SMALL, games=games, seed=9, workers=1))
    half = 2.576 * shares.std(ddof=1) / math.sqrt(games)
    print(f"vs {opponent}: simulated {shares.mean():.4f} +- {half:.4f}, exact {exact:.4f}")
    assert abs(shares.mean() - exact) <= half, (shares.mean(), exact, half)
    assert abs(exact - 0.5) > half


@pytest.mark.slow
def test_the_three_rank_equilibrium_plays_at_the_table(small_equilibrium):
    from gofish_teach.widgets import Table
    from test_widgets_table import play_through

    assert play_through(Table(SMALL, opponents=[small_equilibrium], seed=4), 4).match.game.is_over
