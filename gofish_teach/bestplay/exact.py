"""Best responses in Fractions, and the game's value certified exactly.

:meth:`Tree.best_response <gofish_teach.bestplay.tree.Tree.best_response>` computes in floats,
compiled. Here the same value is computed apart, in Python and in Fractions: recursively, each
of the player's information sets decided on demand from the weights of its nodes (chance times
the other seat's probabilities). It is the check on the compiled one (a test), and it makes
values exact: the game's value lies between ``1 - BR1(sigma)`` and ``BR0(sigma)`` for *any*
profile ``sigma``; when an equilibrium is rounded to fractions (the linear program's are
vertices, with small denominators) and the two bounds meet, the value is proved exactly.

>>> from gofish_teach import Rules
>>> from gofish_teach.bestplay.lp import sequence_form
>>> from gofish_teach.bestplay.tree import Tree
>>> tree = Tree(Rules.preset("pond").replace(n_ranks=2, hand_size=2))
>>> bounds(tree, rational(tree, sequence_form(tree).sigma))      # equal: the value, exactly
(Fraction(41, 70), Fraction(41, 70))
"""
from __future__ import annotations

import sys
from fractions import Fraction

from .kernels import CHANCE, TERMINAL


def rational(tree, sigma, limit: int = 10**5) -> list:
    """``sigma`` as Fractions: each probability the nearest fraction with a denominator up to ``limit``,
    each information set's then divided by their sum (so that they add up to 1 exactly)."""
    out = []
    for o, k in zip(tree.offset, tree.nact, strict=True):
        xs = [Fraction(float(x)).limit_denominator(limit) for x in sigma[o:o + k]]
        total = sum(xs)
        out += [x / total for x in xs]
    return out


def chances(tree) -> list:
    """Each node's chance given its parent, as the exact fraction (the tree keeps floats of small fractions)."""
    return [Fraction(float(p)).limit_denominator(10**6) for p in tree.prob]


def best_response(tree, sigma, player: int, prob: list | None = None) -> Fraction:
    """The exact value to ``player`` of its best response to the other seat playing ``sigma`` (Fractions,
    or floats taken exactly); ``prob``: :func:`chances`, if already computed."""
    sigma = [x if isinstance(x, Fraction) else Fraction(float(x)) for x in sigma]
    prob = chances(tree) if prob is None else prob
    kind, first, count, iset, owner, offset = tree.kind, tree.first, tree.count, tree.iset, tree.iset_player, tree.offset
    members: dict = {}  # each of player's sets: its nodes and their weights
    stack = [(0, Fraction(1))]
    while stack:
        node, w = stack.pop()
        kids = range(first[node], first[node] + count[node])
        if kind[node] == CHANCE:
            stack += [(c, w * prob[c]) for c in kids]
        elif kind[node] != TERMINAL:
            I = iset[node]
            if owner[I] == player:
                members.setdefault(I, []).append((node, w))
                stack += [(c, w) for c in kids]
            else:
                stack += [(c, w * sigma[offset[I] + a]) for a, c in enumerate(kids) if sigma[offset[I] + a]]
    memo, choice = {}, {}
    half = Fraction(1, 2)

    def value(node):
        v = memo.get(node)
        if v is not None:
            return v
        kids = range(first[node], first[node] + count[node])
        if kind[node] == TERMINAL:
            v = int(tree.halves[node]) * half
            v = v if player == 0 else 1 - v
        elif kind[node] == CHANCE:
            v = sum(prob[c] * value(c) for c in kids)
        elif owner[iset[node]] == player:
            I = iset[node]
            if I not in choice:
                scores = [sum(w * value(first[h] + a) for h, w in members[I]) for a in range(count[node])]
                choice[I] = max(range(len(scores)), key=scores.__getitem__)
            v = value(first[node] + choice[I])
        else:
            o = offset[iset[node]]
            v = sum(sigma[o + a] * value(c) for a, c in enumerate(kids) if sigma[o + a])
        memo[node] = v
        return v

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 100_000))  # a set's choice may wait on sets elsewhere in the tree
    try:
        return value(0)
    finally:
        sys.setrecursionlimit(limit)


def bounds(tree, sigma) -> tuple:
    """``(low, high)``: the game's value for seat 0 lies in between, exactly (``1 - BR1``, ``BR0``)."""
    prob = chances(tree)
    return 1 - best_response(tree, sigma, 1, prob), best_response(tree, sigma, 0, prob)
