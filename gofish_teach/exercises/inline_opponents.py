"""The inline checks of lesson 09: Bayes' rule over strategies, and how many asks make you sure (registered by
:mod:`.inline`).

A hypothesis here is a strategy a seat may be playing; its likelihood of an ask is the probability that the
strategy makes that ask. Answers are exact (``Fraction``).
"""
from __future__ import annotations

from fractions import Fraction

from .inline import ExactFractions, inline, whole


# --------------------------------------------------------------------------- lesson 09
def _posterior_hidden(rng):
    n = whole(rng, 2, 4)
    d = whole(rng, n, 9)
    cuts = sorted(int(c) for c in rng.choice(range(1, d), size=n - 1, replace=False))
    prior = [Fraction(b - a, d) for a, b in zip([0] + cuts, cuts + [d], strict=True)]
    keep = whole(rng, 0, n - 1)  # a strategy that could make every ask, so the posterior exists
    asks = [[Fraction(whole(rng, 0 if k != keep else 1, 6), whole(rng, 6, 30)) for k in range(n)]
            for _ in range(whole(rng, 1, 4))]
    return (prior, asks), {}


_HALF, _THIRD = Fraction(1, 2), Fraction(1, 3)
inline("L09-posterior-over-strategies", "posterior_over_strategies",
       [(([_HALF, _HALF], [[1, Fraction(1, 15)]]),
         "two strategies at even odds; the ask is certain under the first, 1 in 15 under the second"),
        (([_HALF, _HALF], [[0, Fraction(1, 15)]]), "an ask the first strategy never makes: it is out"),
        (([Fraction(1, 4)] * 4, [[Fraction(1, 5), Fraction(1, 2), Fraction(1, 2), Fraction(1, 10)]]),
         "four strategies, one ask"),
        (([_THIRD] * 3, [[Fraction(1, 6), _HALF, _HALF], [Fraction(1, 6), 1, Fraction(1, 3)]]),
         "two asks: multiply both likelihoods in"),
        (([Fraction(9, 10), Fraction(1, 10)], [[Fraction(1, 12), 1]] * 3),
         "a strong prior against three asks that point the other way"),
        (([_HALF, _HALF], [[Fraction(1, 8), Fraction(1, 8)]] * 2), "asks both strategies make alike: no evidence")],
       hidden=_posterior_hidden,
       title="Bayes' rule over strategies", lesson="09", kind=ExactFractions,
       goal="Multiply the prior of each strategy by its likelihood of every ask, then scale so they add up to 1.")


def _asks_needed_hidden(rng):
    prior = Fraction(whole(rng, 1, 9), 10)
    ratio = Fraction(whole(rng, 11, 40), 10)
    sure = Fraction(whole(rng, 90, 99), 100)
    return (prior, ratio, sure), {}


inline("L09-asks-needed", "asks_needed",
       [((_HALF, 15, Fraction(9, 10)), "an ask 15 times likelier under the truth: from even odds to 90%"),
        ((_HALF, 2, Fraction(19, 20)), "asks only twice as likely under the truth"),
        ((_HALF, Fraction(11, 10), Fraction(19, 20)), "two strategies that ask alike: each ask says little"),
        ((Fraction(1, 5), 2, Fraction(19, 20)), "a prior of 1 in 5 (five strategies alike)"),
        ((Fraction(19, 20), 3, Fraction(19, 20)), "already sure: no ask needed"),
        ((_HALF, 3, Fraction(99, 100)), "sure to 99%")],
       hidden=_asks_needed_hidden,
       title="How many asks make you sure", lesson="09",
       goal="Work in odds: each ask multiplies them by the likelihood ratio; count the asks until the odds reach sure:(1 - sure).")
