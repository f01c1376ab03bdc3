"""The inline checks of lesson 10: the class's games as data (registered by :mod:`.inline`).

A remembering rate counts only the asks where remembering was possible; a comparison adjusted for
a measured confounder compares like with like within each stratum, then weighs the strata.
"""
from __future__ import annotations

from fractions import Fraction

from .chances import ExactNumber
from .inline import inline, or_none, whole

# --------------------------------------------------------------------------- lesson 10
MaybeExact = or_none(ExactNumber, none="there is no answer here: return None", some="return a Fraction, not None")


def _asks_hidden(rng):
    return ([[bool(rng.random() < 0.6), bool(rng.random() < 0.5)] for _ in range(whole(rng, 1, 12))],), {}


inline("L10-remembered-share", "remembered_share",
       [(([[True, True], [True, False], [False, False], [True, True]],), "three could, two did"),
        (([[False, False], [False, True]],), "nobody could: there is no rate"),
        (([[True, True]] * 3 + [[True, False]],), "four could, three did"),
        (([[False, True], [True, False], [True, False]],), "an ask to a shown holder that could not be live does not count"),
        (([],), "no asks at all")],
       hidden=_asks_hidden, kind=MaybeExact,
       title="How often did they ask who asked before, when they could?", lesson="10",
       goal="Count only the asks where remembering was possible; say 'no rate' when there were none.")


_SHARES = [Fraction(0), Fraction(1), Fraction(1, 2), Fraction(1, 3), Fraction(1, 4), Fraction(1, 5), Fraction(3, 10)]


def _rows_hidden(rng):
    rows = [[["high", "low"][whole(rng, 0, 1)], ["A", "B", "C"][whole(rng, 0, 2)], _SHARES[whole(rng, 0, 6)]]
            for _ in range(whole(rng, 3, 10))]
    return (rows,), {}


_H, _Q = Fraction(1, 2), Fraction(1, 4)
inline("L10-stratified-difference", "stratified_difference",
       [(([["high", "A", Fraction(1, 2)], ["low", "A", 0]],), "one stratum: the plain difference"),
        (([["high", "A", _H], ["low", "A", _Q], ["high", "B", _H], ["low", "B", 1], ["low", "B", _H]],),
         "two strata, weighed by their rows (2 and 3)"),
        (([["high", "A", 1], ["high", "A", 0], ["low", "A", _H], ["high", "B", 1]],),
         "stratum B has no low row: it cannot compare, so it is left out"),
        (([["high", "A", 1], ["low", "B", 0]],), "no stratum holds both groups: no comparison (None)"),
        (([["low", "A", _Q], ["high", "A", Fraction(1, 3)], ["low", "B", 0], ["low", "B", 1], ["high", "B", _H],
           ["high", "B", 0]],), "rows in any order")],
       hidden=_rows_hidden, kind=MaybeExact,
       title="Compare like with like: a difference within strata", lesson="10",
       goal="Within each stratum that holds both groups, the difference of the means; then weigh the strata by their rows.")
