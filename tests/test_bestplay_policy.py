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
