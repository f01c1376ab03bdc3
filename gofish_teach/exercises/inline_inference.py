"""The inline checks of lessons 04 and 05: Bayes' rule and calibration (registered by :mod:`.inline`)."""
from __future__ import annotations

from fractions import Fraction
from math import comb

from .chances import ExactNumber, ExactProbability
from .inline import ExactFractions, fraction_between, inline, or_none, whole


# --------------------------------------------------------------------------- lesson 04
def _posterior_probability_hidden(rng):
    d = whole(rng, 2, 20)
    prior = Fraction(whole(rng, 1, d - 1), d)
    ratio = whole(rng, 0, 6) if rng.random() < 0.3 else fraction_between(rng, 12, 0, 5)
    return (prior, ratio), {}


inline("L04-posterior-probability", "posterior_probability",
       [((Fraction(2, 5), 3), "odds 2:3, tripled: 2:1"),
        ((Fraction(41, 55), Fraction(1204, 1517)), "lesson 4: H = Ann holds a 2, E = she asked for 3s"),
        ((Fraction(1, 2), Fraction(1, 3)), "evidence three times as likely without H"),
        ((Fraction(1, 10), 1), "a likelihood ratio of 1 changes nothing"),
        ((Fraction(1, 5), 0), "evidence impossible under H"),
        ((1, 5), "a certain hypothesis stays certain")],
       hidden=_posterior_probability_hidden,
       title="Bayes' rule in odds form", lesson="04", kind=ExactProbability,
       goal="Odds = p / (1 - p); multiply by the likelihood ratio; back to a probability, odds / (1 + odds).")


_WEST = [Fraction(comb(3, k) * comb(44, 5 - k), comb(47, 5)) for k in range(4)]
def _bayes_table_hidden(rng):
    k = whole(rng, 2, 5)
    weights = [whole(rng, 1, 9) for _ in range(k)]
    prior = [Fraction(w, sum(weights)) for w in weights]
    likelihood = [fraction_between(rng, 10) for _ in range(k)]
    if not any(likelihood):
        likelihood[whole(rng, 0, k - 1)] = Fraction(1, 2)
    return (prior, likelihood), {}


inline("L04-bayes-table", "bayes_table",
       [(([Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 4), Fraction(3, 4)]), "two hypotheses, equally likely"),
        ((_WEST, [0, 1, 1, 1]), "lesson 4, section 6: West asked for 7s"),
        (([Fraction(1, 3)] * 3, [1, 1, 1]), "evidence equally likely everywhere: nothing changes"),
        (([Fraction(1, 10), Fraction(9, 10)], [Fraction(9, 10), Fraction(1, 10)]), "a rare hypothesis, strong evidence"),
        (([Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)], [0, Fraction(1, 2), Fraction(1, 3)]),
         "a likelihood of 0 crosses a hypothesis out")],
       hidden=_bayes_table_hidden,
       title="A Bayes table", lesson="04", kind=ExactFractions,
       goal="Multiply each prior by its likelihood, then divide by the sum: the posteriors add up to 1.")


# --------------------------------------------------------------------------- lesson 05
def _brier_score_hidden(rng):
    n = whole(rng, 1, 8)
    return ([fraction_between(rng, 20) for _ in range(n)], [bool(rng.random() < 0.5) for _ in range(n)]), {}


inline("L05-brier-score", "brier_score",
       [(([Fraction(7, 10), Fraction(1, 5)], [True, False]), "two answers, both leaning the right way"),
        (([1, 0, 1], [True, False, True]), "certain and right every time: a perfect score"),
        (([Fraction(1, 2)] * 4, [True, False, False, True]), "always 1/2: 1/4, whatever happens"),
        (([1], [False]), "certain and wrong: the worst score"),
        (([Fraction(9, 10), Fraction(3, 10), Fraction(3, 5), Fraction(1, 20)], [False, True, True, False]), "")],
       hidden=_brier_score_hidden,
       title="The Brier score", lesson="05", kind=ExactNumber,
       goal="Square each gap between the stated probability and the outcome (1 or 0), and average.")


FractionsOrNone = or_none(ExactFractions, none="no answer falls in this bin: return None",
                          some="some answers fall in this bin")


_PROBS = [Fraction(1, 10), Fraction(1, 4), Fraction(3, 10), Fraction(1, 2), Fraction(3, 5), Fraction(7, 10), Fraction(9, 10)]
_HAPPENED = [False, True, False, True, True, False, True]
def _calibration_bin_hidden(rng):
    n = whole(rng, 1, 9)
    probs = [Fraction(whole(rng, 0, 20), 20) for _ in range(n)]
    low = Fraction(whole(rng, 0, 8), 10)
    return (probs, [bool(rng.random() < 0.5) for _ in range(n)], low, low + Fraction(whole(rng, 1, 3), 10)), {}


inline("L05-calibration-bin", "calibration_bin",
       [((_PROBS, _HAPPENED, Fraction(1, 5), Fraction(2, 5)), "two answers, 1/4 and 3/10"),
        ((_PROBS, _HAPPENED, Fraction(1, 2), Fraction(4, 5)), "low is in the bin, high is not: 1/2, 3/5, 7/10"),
        ((_PROBS, _HAPPENED, 0, 1), "every answer in one bin"),
        ((_PROBS, _HAPPENED, Fraction(4, 5), 1), "one answer"),
        ((_PROBS, _HAPPENED, Fraction(3, 10), Fraction(2, 5)), "3/10 belongs here, its low edge"),
        ((_PROBS, _HAPPENED, Fraction(11, 20), Fraction(3, 5)), "no answer here: None")],
       hidden=_calibration_bin_hidden,
       title="One bin of a calibration table", lesson="05", kind=FractionsOrNone,
       goal="Keep the answers in the bin; average what was stated, and the share that happened.")
