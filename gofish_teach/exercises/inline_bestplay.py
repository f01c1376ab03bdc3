"""The inline checks of lesson 08: backward induction and the value of information (registered by :mod:`.inline`).

A game tree is written as plain lists, as the lesson draws it: a number is a finished game (its
win share), ``["max", [subtree, ...]]`` is the seat's own turn (it picks the best), and
``["avg", [[p, subtree], ...]]`` is chance or the opponent (the outcomes weighted by their
probabilities, which add up to 1).
"""
from __future__ import annotations

from fractions import Fraction

from .chances import ExactNumber, ExactProbability
from .inline import inline, whole

# --------------------------------------------------------------------------- lesson 08
_SHARES = [Fraction(0), Fraction(1, 2), Fraction(1), Fraction(1, 3), Fraction(2, 3), Fraction(1, 4), Fraction(3, 4)]


def _probabilities(rng, n):
    """n probabilities with a small common denominator, each above 0, adding up to 1."""
    d = whole(rng, n, 8)
    cuts = sorted(int(c) for c in rng.choice(range(1, d), size=n - 1, replace=False))
    return [Fraction(b - a, d) for a, b in zip([0] + cuts, cuts + [d], strict=True)]


def _tree(rng, depth):
    if depth == 0 or rng.random() < 0.25:
        return _SHARES[whole(rng, 0, len(_SHARES) - 1)]
    n = whole(rng, 2, 3)
    if rng.random() < 0.5:
        return ["max", [_tree(rng, depth - 1) for _ in range(n)]]
    return ["avg", [[p, _tree(rng, depth - 1)] for p in _probabilities(rng, n)]]


def _tree_value_hidden(rng):
    tree = _tree(rng, 3)
    while not isinstance(tree, list):
        tree = _tree(rng, 3)
    return (tree,), {}


_HALF, _THIRD = Fraction(1, 2), Fraction(1, 3)
inline("L08-tree-value", "tree_value",
       [((Fraction(2, 3),), "a finished game: its win share"),
        ((["max", [Fraction(1, 2), Fraction(5, 8)]],), "your turn: the better of two asks"),
        ((["avg", [[Fraction(3, 4), 1], [Fraction(1, 4), 0]]],), "a draw: win if it is the card you need"),
        ((["max", [["avg", [[Fraction(2, 3), 1], [_THIRD, 0]]], _HALF]],),
         "an ask that succeeds 2 times in 3, or a sure half"),
        ((["avg", [[_HALF, ["max", [_THIRD, Fraction(2, 3)]]], [_HALF, ["max", [0, _HALF]]]]],),
         "chance first, then your choice: best in each branch, then average"),
        ((["max", [["avg", [[_THIRD, 1], [Fraction(2, 3), _THIRD]]], ["avg", [[_HALF, 1], [_HALF, 0]]]]],),
         "two gambles: 5/9 against 1/2")],
       hidden=_tree_value_hidden,
       title="Backward induction on a small game tree", lesson="08", kind=ExactProbability,
       goal="Work from the leaves up: the best branch where you choose, the probability-weighted average elsewhere.")


def _value_of_information_hidden(rng):
    n_states = whole(rng, 2, 4)
    prior = _probabilities(rng, n_states)
    payoff = [[_SHARES[whole(rng, 0, len(_SHARES) - 1)] for _ in range(n_states)] for _ in range(whole(rng, 1, 3))]
    return (prior, payoff), {}


inline("L08-value-of-information", "value_of_information",
       [(([_THIRD, _THIRD, _THIRD], [[0, 1, 1], [1, 1, 0]]),
         "three states, equally likely: each action fails in one of them"),
        (([_HALF, _HALF], [[1, 0], [0, 1]]), "a coin you could see: from 1/2 to certain"),
        (([_THIRD, Fraction(2, 3)], [[1, 1], [0, 0]]), "one action is best whatever happens: knowing is worth nothing"),
        (([Fraction(1, 4), Fraction(3, 4)], [[1, 0]]), "a single action: nothing to choose, nothing to gain"),
        (([Fraction(1, 10), Fraction(9, 10)], [[1, _HALF], [0, Fraction(3, 4)]]),
         "seeing the rare state is worth 1/10 of a win")],
       hidden=_value_of_information_hidden,
       title="The value of information", lesson="08", kind=ExactNumber,
       goal="Best expected payoff if you choose after seeing the state, minus the best if you must choose before.")
