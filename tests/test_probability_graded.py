"""The graded sweep (gofish_teach/probability/graded.py) gives the dense sweep's counts, carrying
only the joined states whose grades fit the ocean; where it cannot (no single grade, too many
states) the exact path counts densely, and the answers never change."""
from __future__ import annotations

import numpy as np
import pytest

from gofish_teach import Game, Rules
from gofish_teach.probability import contract, exact, graded
from gofish_teach.probability.hands import Hand
from gofish_teach.probability.history import read
from gofish_teach.probability.modular import PRIMES
from gofish_teach.strategies import random as random_ask


def _counted(rules: Rules, n: int, seed: int, asks: int, monkeypatch):
    """The arguments of the dense count that the exact path makes for the player to ask after
    ``asks`` random asks of a seeded game (None where it makes none: one hidden hand)."""
    game, rng = Game(rules, n, seed=seed), np.random.default_rng(seed)
    for _ in range(asks):
        if game.is_over:
            return None
        game.ask(*random_ask(game.view(game.current_player), rng))
    made = []

    def dense(*args):
        made.append(args)
        return contract.count_worlds(*args)

    monkeypatch.setattr(exact, "count_worlds", dense)
    monkeypatch.setattr(exact, "GRADED_BELOW", -1.0)  # the dense sweep, always
    exact.forget()
    exact.world_counts(read(game.view(game.current_player)), rules.n_ranks, rules.book_size)
    exact.forget()
    return made[0] if made else None


@pytest.mark.parametrize("name,n,asks", [("pond", 4, 0), ("pond", 4, 20), ("pond", 5, 30), ("pond", 6, 28),
                                         ("pond", 6, 34), ("family", 6, 25), ("bicycle", 5, 30)])
def test_the_graded_sweep_gives_the_dense_sweeps_counts(name, n, asks, monkeypatch):
    """At positions from the deal to the last cards (oceans of 22 cards down to none), on three
    rule sets: the total, every hand's counts by rank and the ocean's, residue for residue."""
    compared = 0
    for seed in range(3):
        args = _counted(Rules.preset(name), n, seed, asks, monkeypatch)
        if args is None:
            continue
        hands, unseen, primes, teams, same, ocean = args
        if teams:
            continue  # the teams endgame counts densely
        assert graded.count_worlds_graded(hands, unseen, primes, ocean, same) == \
            contract.count_worlds(hands, unseen, primes, teams, same, ocean)
        compared += 1
    assert compared >= 2


def test_small_decks_agree_at_every_decision(monkeypatch):
    """Every decision of a few games on a six-rank deck, three and four players."""
    rules = Rules.preset("pond").replace(n_ranks=6, hand_size=4)
    compared = 0
    for n, seed in ((3, 1), (4, 2), (4, 3)):
        for asks in range(0, 40, 3):
            args = _counted(rules, n, seed, asks, monkeypatch)
            if args is None:
                continue
            hands, unseen, primes, teams, same, ocean = args
            assert graded.count_worlds_graded(hands, unseen, primes, ocean, same) == \
                contract.count_worlds(hands, unseen, primes, teams, same, ocean), (n, seed, asks)
            compared += 1
    assert compared >= 20


def test_the_window_of_grade_sums_is_what_the_ocean_leaves():
    assert graded.window(0, 30, 5) == (0, 0)     # nothing placed
    assert graded.window(30, 30, 5) == (25, 25)  # everything placed: the hands hold all but the ocean
    assert graded.window(12, 30, 0) == (12, 12)  # no ocean: the hands hold every placed card
    assert graded.window(12, 30, 20) == (0, 10)  # the other ranks hold 18: two of the ocean are among these 12


def test_an_index_with_two_grades_is_refused_and_counted_densely():
    hand = Hand.dealt(2, [True] * 3, primes=PRIMES[:2])
    assert graded.grades(hand) == [[0], [0, 1, 2], [0, 1, 2], [2]]
    mixed = Hand([A.copy() for A in hand.tensors], hand.primes)
    mixed.tensors[0][:, 1, 0, 0] = 5  # one card of rank 0 would lead to the index of none
    assert graded.grades(mixed) is None
    with pytest.raises(ValueError, match="no single grade"):
        graded.count_worlds_graded([mixed, hand], [3, 3, 3], PRIMES[:2], ocean=4)
    assert exact._weigh([mixed, hand], [3, 3, 3], 4, cost=10 ** 9) == 10 ** 9  # the dense sweep's cost


def test_too_many_states_raise_and_the_exact_path_counts_densely(monkeypatch):
    args = _counted(Rules.preset("pond"), 6, 0, 28, monkeypatch)
    hands, unseen, primes, teams, same, ocean = args
    with pytest.raises(graded.TooManyStates, match="past 10 states"):
        graded.count_worlds_graded(hands, unseen, primes, ocean, same, limit=10)
    game, rng = Game(Rules.preset("pond"), 6, seed=0), np.random.default_rng(0)
    for _ in range(28):
        game.ask(*random_ask(game.view(game.current_player), rng))
    story = read(game.view(game.current_player))
    monkeypatch.setattr(exact, "count_worlds", contract.count_worlds)
    monkeypatch.setattr(exact, "GRADED_BELOW", -1.0)
    exact.forget()
    dense = exact.world_counts(story, 13, 4)
    used = []
    monkeypatch.setattr(exact, "GRADED_BELOW", 1.0)   # graded wherever a count is weighed
    monkeypatch.setattr(exact, "COMPARE_ABOVE", -1)   # and every count is
    monkeypatch.setattr(graded, "MAX_STATES", 10)     # but it gives up at once

    def counting(*args):
        used.append("dense")
        return contract.count_worlds(*args)

    monkeypatch.setattr(exact, "count_worlds", counting)
    exact.forget()
    again = exact.world_counts(story, 13, 4)
    assert used == ["dense"] and (again.total, again.seats, again.ocean) == (dense.total, dense.seats, dense.ocean)
    exact.forget()


def test_a_late_count_weighed_cheaper_graded_is_counted_graded_with_the_same_answer(monkeypatch):
    """Late in a six-player game (ocean empty) the graded sweep is reckoned cheaper and counts;
    the answer is the dense sweep's."""
    game, rng = Game(Rules.preset("pond"), 6, seed=2), np.random.default_rng(2)
    for _ in range(30):
        game.ask(*random_ask(game.view(game.current_player), rng))
    story = read(game.view(game.current_player))
    monkeypatch.setattr(exact, "GRADED_BELOW", -1.0)
    exact.forget()
    dense = exact.world_counts(story, 13, 4)
    monkeypatch.setattr(exact, "GRADED_BELOW", 0.2)
    monkeypatch.setattr(exact, "COMPARE_ABOVE", -1)
    sweeps = []
    real = exact.count_worlds_graded

    def counting(*args, **kwargs):
        sweeps.append("graded")
        return real(*args, **kwargs)

    monkeypatch.setattr(exact, "count_worlds_graded", counting)
    exact.forget()
    counted = exact.world_counts(story, 13, 4)
    assert sweeps == ["graded"] and isinstance(counted.work, exact.Graded) and counted.work < dense.work
    assert not isinstance(dense.work, exact.Graded)
    assert (counted.total, counted.seats, counted.ocean) == (dense.total, dense.seats, dense.ocean)
    exact.forget()
