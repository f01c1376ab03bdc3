"""The exact best response equals a brute-force search written here independently: over every
deck order, played by the engine itself, with information sets read from the engine's views."""
from fractions import Fraction
from functools import lru_cache
from itertools import permutations

import numpy as np
import pytest

from gofish_teach import Game, Rules
from gofish_teach.bestplay.solve import Solver, best_response, check_size
from gofish_teach.strategies import STRATEGIES, _ranks_to_ask


def opponent(name, view):
    """The built-in's asks with their probabilities, from the engine's own strategy code."""
    if name == "random":
        ranks = _ranks_to_ask(view)
        return [((view.opponents[0], r), Fraction(1, len(ranks))) for r in ranks]
    return [(STRATEGIES[name](view, np.random.default_rng(0)), Fraction(1))]


def brute_force(rules, against, seat):
    cards = [r for r in rules.ranks for _ in range(4)]
    decks = sorted(set(permutations(cards)))
    infosets = {}

    def replay(deck, moves):
        game = Game(rules, 2, deck=list(deck))
        for move in moves:
            game.ask(*move)
        return game

    def key(game):  # the seat's view, suits left out (a rank-only deck gives suits by order of arrival)
        return tuple(e._replace(cards=tuple(sorted(c.rank for c in e.cards))) if getattr(e, "cards", None) else e
                     for e in game.view(seat).events)

    def forward(deck, moves, weight):
        game = replay(deck, moves)
        if game.is_over:
            return
        if game.current_player == seat:
            infosets.setdefault(key(game), []).append((weight, deck, moves))
            for move in game.legal_asks():
                forward(deck, moves + (move,), weight)
        else:
            for move, p in opponent(against, game.view(game.current_player)):
                forward(deck, moves + (tuple(move),), weight * p)

    @lru_cache(maxsize=None)
    def choice(k):
        histories = infosets[k]
        game = replay(histories[0][1], histories[0][2])
        return max(game.legal_asks(), key=lambda a: sum(w * value(d, m + (a,)) for w, d, m in histories))

    @lru_cache(maxsize=None)
    def value(deck, moves):
        game = replay(deck, moves)
        if game.is_over:
            return Fraction(1, len(game.winners)) if seat in game.winners else Fraction(0)
        if game.current_player == seat:
            return value(deck, moves + (choice(key(game)),))
        return sum(p * value(deck, moves + (tuple(move),))
                   for move, p in opponent(against, game.view(game.current_player)))

    for deck in decks:
        forward(deck, (), Fraction(1))
    return sum(value(deck, ()) for deck in decks) / len(decks)


@pytest.mark.parametrize("preset,hand,against,seat", [
    ("pond", 2, "memory", 0), ("pond", 2, "memory", 1), ("pond", 3, "random", 0), ("family", 2, "most_held", 1),
    ("classic", 2, "memory", 0), ("bicycle", 3, "memory", 1), ("pond", 1, "random", 1),
])
def test_best_response_equals_brute_force(preset, hand, against, seat):
    rules = Rules.preset(preset).replace(n_ranks=2, hand_size=hand)
    solver = Solver(rules, against, seat, exact=True)
    assert solver.solve() == brute_force(rules, against, seat)


def test_pairs_rules_equal_brute_force():
    rules = Rules.preset("pond").replace(n_ranks=2, hand_size=2, book_size=2)
    assert Solver(rules, "memory", 0, exact=True).solve() == brute_force(rules, "memory", 0)


def test_best_response_beats_or_ties_the_builtin():
    rules = Rules.preset("pond").replace(n_ranks=3, hand_size=2)
    for seat in (0, 1):
        result = best_response(rules, "memory", seat, exact=True)
        assert result.value >= result.builtin
        assert isinstance(result.value, Fraction) and result.states > 0


def test_size_limit_is_named():
    with pytest.raises(ValueError, match="at most 5 ranks"):
        check_size(Rules.preset("pond").replace(n_ranks=6, hand_size=6))
    with pytest.raises(ValueError, match="at most 10 cards left in the ocean"):
        check_size(Rules.preset("pond").replace(n_ranks=4, hand_size=2))
    with pytest.raises(ValueError, match=r"\(6 on 5 ranks\); 5 ranks with 6 cards each leave 8"):
        check_size(Rules.preset("pond").replace(n_ranks=5, hand_size=6))
    check_size(Rules.preset("pond").replace(n_ranks=5, hand_size=7))
    with pytest.raises(ValueError, match="against random the exact solver takes at most 8 cards"):
        best_response(Rules.preset("pond").replace(n_ranks=4, hand_size=3), "random")
    with pytest.raises(ValueError, match="takes 2 players"):
        check_size(Rules.preset("pond").replace(n_ranks=3, hand_size=2), 3)
    with pytest.raises(ValueError, match="random, memory and most_held"):
        Solver(Rules.preset("pond").replace(n_ranks=3, hand_size=2), "greedy", 0)
