"""The reference answers of the lessons' checks ("Check your understanding"), lessons 00-10.

The teacher's key (see ``__init__.py``): each ``f_reference`` is the answer to a call of the
check whose function is ``f`` (:mod:`gofish_teach.exercises.inline` holds the checks' inputs,
never these). ``games_needed_accepted`` lists every right answer where the check accepts more
than one.

>>> expected_pairs_reference(5)
Fraction(10, 17)
>>> games_needed_accepted(0.02, 0.439)
{'1.96 + 0.84': [3778], 'norm.ppf': [3782]}
"""
from __future__ import annotations

import math
from fractions import Fraction
from math import comb

#: Cards dealt to each player by each preset and number of players (lesson 01's table).
DEALS = {"family": {2: 7, 3: 7, 4: 5, 5: 5, 6: 5}, "pond": {2: 5, 3: 5, 4: 5, 5: 5, 6: 5},
         "bicycle": {2: 7, 3: 7, 4: 5, 5: 5}, "classic": {2: 7, 3: 5, 4: 5, 5: 5, 6: 5}}
#: z_0.975 + z_0.80 from the normal quantile function (scipy.stats.norm.ppf), as lesson 6 computes it: 2.8016.
Z_EXACT = 2.8015852181129683


def p_at_least_one_reference(unseen, copies, hand_size):
    """P(a hand of hand_size cards, from `unseen` cards of which `copies` are the rank, holds one or more)."""
    return 1 - Fraction(comb(unseen - copies, hand_size), comb(unseen, hand_size))


def count_asks_reference(hand, n_opponents):
    """How many different asks a hand allows: each rank held, of each opponent."""
    return len(set(hand)) * n_opponents


def deal_size_reference(rules, n_players):
    """Cards dealt to each player under a preset, or 0 if the preset does not allow that many players."""
    return DEALS[rules].get(n_players, 0)


def ask_success_share_reference(log):
    """The share of asks in a log answered with cards, as a Fraction (0 if nobody asked)."""
    asks = sum(" asks " in line for line in log)
    gives = sum(" gives " in line for line in log)
    return Fraction(gives, asks) if asks else Fraction(0)


def expected_pairs_reference(k, n_ranks=13):
    """E[pairs of cards of the same rank] in a k-card hand from 4 suits of n_ranks ranks."""
    return comb(k, 2) * Fraction(3, 4 * n_ranks - 1)


def p_full_house_reference(n_ranks=13):
    """P(a 5-card hand holds three of one rank and two of another), 4 suits of n_ranks ranks."""
    return Fraction(n_ranks * comb(4, 3) * (n_ranks - 1) * comb(4, 2), comb(4 * n_ranks, 5))


def hypergeom_mean_var_reference(N, K, n):
    """[mean, variance] of the number of successes in n draws without replacement from N, K successes."""
    p = Fraction(K, N)
    fpc = Fraction(N - n, N - 1) if N > 1 else Fraction(0)
    return [n * p, n * p * (1 - p) * fpc]


def top_card_terms_reference(unseen, copies, hand_size):
    """The law of total probability, term by term: P(they hold x) * P(top card is the rank | x), x = 0..copies."""
    rest = unseen - hand_size
    return [Fraction(comb(copies, x) * comb(unseen - copies, hand_size - x), comb(unseen, hand_size))
            * Fraction(copies - x, rest) for x in range(copies + 1)]


def posterior_probability_reference(prior, likelihood_ratio):
    """P(H | E) from P(H) and the likelihood ratio, by the odds form of Bayes' rule."""
    prior = Fraction(prior)
    if prior == 1:
        return Fraction(1)
    odds = prior / (1 - prior) * Fraction(likelihood_ratio)
    return odds / (1 + odds)


def bayes_table_reference(prior, likelihood):
    """Posterior of each hypothesis: prior * likelihood, normalised."""
    joint = [Fraction(p) * Fraction(lk) for p, lk in zip(prior, likelihood, strict=True)]
    total = sum(joint)
    return [j / total for j in joint]


def brier_score_reference(probs, outcomes):
    """Mean of (p - outcome)^2, outcomes counted as 1 or 0."""
    return sum((Fraction(p) - int(o)) ** 2 for p, o in zip(probs, outcomes, strict=True)) / len(probs)


def calibration_bin_reference(probs, outcomes, low, high):
    """[mean stated, observed fraction] of the answers with low <= p < high; None if there are none."""
    here = [(Fraction(p), int(o)) for p, o in zip(probs, outcomes, strict=True) if Fraction(low) <= Fraction(p) < Fraction(high)]
    if not here:
        return None
    return [sum(p for p, _ in here) / len(here), Fraction(sum(o for _, o in here), len(here))]


def games_needed_reference(delta, sigma):
    """Games for 80% power at the 5% level (two-sided), with z_0.975 = 1.96 and z_0.80 = 0.84, rounded up."""
    return math.ceil(((1.96 + 0.84) * sigma / delta) ** 2)


def games_needed_accepted(delta, sigma):
    """Every right answer, by how z was found: 1.96 + 0.84, or norm.ppf; each rounded up, whatever
    order the float steps take (so each way may allow two)."""
    accepted = {}
    for how, z in (("1.96 + 0.84", 1.96 + 0.84), ("norm.ppf", Z_EXACT)):
        n = (z * sigma / delta) ** 2
        accepted[how] = sorted({math.ceil(n * (1 - 1e-9)), math.ceil(n * (1 + 1e-9))})
    return accepted


def exact_p_value_reference(wins, games, fair):
    """The two-sided exact binomial test's p-value (scipy.stats.binomtest)."""
    from scipy import stats

    return float(stats.binomtest(wins, games, fair).pvalue)


def first_ask_success_reference(held, unseen, hand_size):
    """P(an opponent's hand_size cards, from `unseen`, hold one of the 4 - held unseen copies of the rank)."""
    return 1 - Fraction(comb(unseen - (4 - held), hand_size), comb(unseen, hand_size))


def mean_and_median_reference(table):
    """[mean, median] of a length table [[length, games], ...], as Fractions (median: the middle game, or the two middle ones' average)."""
    lengths = sorted(length for length, games in table for _ in range(games))
    n = len(lengths)
    middle = Fraction(lengths[n // 2]) if n % 2 else Fraction(lengths[n // 2 - 1] + lengths[n // 2], 2)
    return [Fraction(sum(lengths), n), middle]


def tree_value_reference(tree):
    """The value of a game tree by backward induction: best at "max", weighted average at "avg"."""
    if not isinstance(tree, list):
        return Fraction(tree)
    kind, branches = tree
    if kind == "max":
        return max(tree_value_reference(t) for t in branches)
    return sum((Fraction(p) * tree_value_reference(t) for p, t in branches), Fraction(0))


def value_of_information_reference(prior, payoff):
    """Expected payoff choosing after seeing the hidden state, minus choosing before (best action each way)."""
    states = range(len(prior))
    blind = max(sum(Fraction(prior[s]) * row[s] for s in states) for row in payoff)
    seeing = sum(Fraction(prior[s]) * max(row[s] for row in payoff) for s in states)
    return seeing - blind


# lesson 09
def posterior_over_strategies_reference(prior, likelihoods):
    """The posterior over the strategies after the asks: the prior times each ask's likelihood, scaled to add up to 1."""
    weights = [Fraction(p) for p in prior]
    for ask in likelihoods:
        weights = [w * Fraction(x) for w, x in zip(weights, ask, strict=True)]
    total = sum(weights)
    return [w / total for w in weights]


def asks_needed_reference(prior, ratio, sure):
    """The fewest asks, each ``ratio`` times likelier under the true strategy than under the other, that raise its
    probability from ``prior`` to at least ``sure``."""
    prior, ratio, sure = Fraction(prior), Fraction(ratio), Fraction(sure)
    odds, wanted, asks = prior / (1 - prior), sure / (1 - sure), 0
    while odds < wanted:
        odds *= ratio
        asks += 1
    return asks


# lesson 10
def remembered_share_reference(asks):
    """Of the asks where asking who asked before was possible, the share that did; None if none could."""
    could = [remembered for possible, remembered in asks if possible]
    return Fraction(sum(could), len(could)) if could else None


def stratified_difference_reference(rows):
    """The high group's mean share minus the low group's within each stratum, weighted by the stratum's rows."""
    strata = {}
    for group, stratum, share in rows:
        strata.setdefault(stratum, {"high": [], "low": []})[group].append(Fraction(share))
    usable = {s: g for s, g in strata.items() if g["high"] and g["low"]}
    if not usable:
        return None
    total = sum(len(g["high"]) + len(g["low"]) for g in usable.values())
    return sum(Fraction(len(g["high"]) + len(g["low"]), total)
               * (sum(g["high"]) / len(g["high"]) - sum(g["low"]) / len(g["low"])) for g in usable.values())
