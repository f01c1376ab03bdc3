"""The lessons' "Check your understanding" questions: short coding checks inside the lessons.

They are checked exactly as the exercises are (:func:`~.checking.check`, one child process per
case, a per-case report). A lesson has a stub cell the learner fills in and a check cell::

    from gofish_teach.exercises import check
    check("L02-expected-pairs", expected_pairs)

:data:`INLINE` is the registry, in lesson order; :func:`~gofish_teach.exercises.get_exercise`
finds these ids too. Each entry's expected answers come from a reference function here, kept in
:data:`REFERENCES` (the answer key, and what tests/test_course.py runs to show every check
passes). To add one, write the reference and call :func:`inline` below the others; arguments
and answers are plain values (ints, strings, lists, dicts, ``Fraction``). Give each a ``hidden``
maker too: the check cell then runs 5 hidden cases, new random inputs each run whose answers it
never prints (:mod:`.checking`), so a table of the printed answers does not pass.

In the lesson notebooks the stub cell and the check cell carry the cell tag
``check-understanding``; tests/test_course.py finds the ids in the check cells' ``check("...")``
calls and wants at least two per lesson.

>>> [ex.id for ex in INLINE][:2]
['L00-p-at-least-one', 'L00-count-asks']
>>> report = run_check("L02-expected-pairs", REFERENCES["L02-expected-pairs"])
>>> report.passed == report.total
True
"""
from __future__ import annotations

import math
from fractions import Fraction
from math import comb
from typing import Callable

from .chances import ExactNumber, ExactProbability
from .checking import Case, Exercise, run_check

#: Every inline check, in lesson order.
INLINE: list[Exercise] = []
#: The reference solution of each inline check, by id.
REFERENCES: dict[str, Callable] = {}


class ExactList(ExactNumber):
    """A list of exact answers, compared item by item as :class:`~.chances.ExactNumber` does."""

    def compare(self, expected, returned):
        if not isinstance(returned, list):
            return False, f"return a list of {len(expected)} Fractions, not a {type(returned).__name__}"
        if len(returned) != len(expected):
            return False, f"return a list of {len(expected)} values, not {len(returned)}"
        for k, (want, got) in enumerate(zip(expected, returned)):
            right, hint = super().compare(want, got)
            if not right:
                return False, f"item {k} is wrong" + (f": {hint}" if hint else "")
        return True, ""

    def show(self, value):
        return Exercise.show(self, value)


def inline(id: str, reference: Callable, calls, *, title: str, lesson: str, goal: str,
           kind: type[Exercise] = Exercise, hidden: Callable | None = None, n_hidden: int = 5) -> Exercise:
    """Register an inline check: ``calls`` is a list of ``(args, note)`` (or ``(args, kwargs, note)``).

    The expected answer of each case is ``reference(*args, **kwargs)``; ``kind`` chooses how
    answers are compared (:class:`Exercise`: equal and of the same type; :class:`~.chances.ExactNumber`,
    :class:`ExactList` or :class:`~.chances.ExactProbability`: exact, with a hint for a float).
    ``hidden(rng)`` makes one random call, ``(args, kwargs)``: the check cell runs ``n_hidden``
    of them, new each run, none of them a public case (so a table of the printed answers fails
    every one), and the grader makes its own from its secret seed.
    """
    function = reference.__name__.removesuffix("_reference")

    def make_case(args, kwargs, note):
        shown = ", ".join([repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()])
        return Case(tuple(args), reference(*args, **kwargs), f"{function}({shown})", kwargs=dict(kwargs), note=note)

    def make_cases():
        return [make_case(*(call if len(call) == 3 else (call[0], {}, call[1]))) for call in calls]

    def make_hidden(rng):
        seen = {c.shown for c in make_cases()}
        cases = []
        for _ in range(200 * n_hidden):
            if len(cases) == n_hidden:
                break
            args, kwargs = hidden(rng)
            case = make_case(args, kwargs, "")
            if case.shown not in seen:
                seen.add(case.shown)
                cases.append(case)
        return cases

    if any(ex.id == id for ex in INLINE):
        raise ValueError(f"inline check {id!r} is registered twice")
    ex = kind(id, function, title, lesson, goal, make_cases=make_cases,
              make_hidden=make_hidden if hidden else None, hidden_in_check=n_hidden if hidden else 0)
    INLINE.append(ex)
    REFERENCES[id] = reference
    return ex


def _int(rng, low, high) -> int:
    """A whole number from low to high, both included."""
    return int(rng.integers(low, high + 1))


def _fraction(rng, most=20, low=0, high=1) -> Fraction:
    """A random fraction from low to high (both included), denominator at most ``most``."""
    d = _int(rng, 1, most)
    return Fraction(_int(rng, math.ceil(low * d), math.floor(high * d)), d)


_RANK_NAMES = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


# --------------------------------------------------------------------------- lesson 00
class ProbabilityOrFloat(ExactProbability):
    """An exact probability, or a float within 1e-9 of it: lesson 0 computes it both ways (scipy's hypergeom too)."""

    def compare(self, expected, returned):
        if isinstance(returned, float) and math.isfinite(returned) and abs(returned - expected) <= 1e-9:
            return True, "a float, as scipy.stats.hypergeom gives, within 1e-9; a Fraction would be exact"
        return super().compare(expected, returned)


def p_at_least_one_reference(unseen, copies, hand_size):
    """P(a hand of hand_size cards, from `unseen` cards of which `copies` are the rank, holds one or more)."""
    return 1 - Fraction(comb(unseen - copies, hand_size), comb(unseen, hand_size))


def _p_at_least_one_hidden(rng):
    unseen = _int(rng, 4, 52)
    copies = _int(rng, 0, min(4, unseen))
    return (unseen, copies, _int(rng, 1, min(unseen, 13))), {}


inline("L00-p-at-least-one", p_at_least_one_reference,
       [((47, 4, 5), "West and the Queens, right after the deal"),
        ((47, 3, 5), "you hold one King: three are unseen"),
        ((41, 2, 4), "later: two sevens among 41 unseen cards, a hand of 4"),
        ((20, 0, 6), "no copy is unseen: it cannot be there"),
        ((6, 1, 6), "their hand is every unseen card")],
       hidden=_p_at_least_one_hidden,
       title="P(a hand holds at least one of a rank)", lesson="00", kind=ProbabilityOrFloat,
       goal="Count the hands with none of the rank, and take the complement.")


def count_asks_reference(hand, n_opponents):
    """How many different asks a hand allows: each rank held, of each opponent."""
    return len(set(hand)) * n_opponents


def _count_asks_hidden(rng):
    hand = [_RANK_NAMES[_int(rng, 0, 12)] for _ in range(_int(rng, 0, 9))]
    return (hand, _int(rng, 1, 5)), {}


inline("L00-count-asks", count_asks_reference,
       [((["3", "7", "10", "J", "K"], 3), "South's hand in section 2"),
        ((["7", "7", "Q"], 2), "two 7s are one rank to ask for"),
        ((["A", "A", "A"], 1), "three of one rank, one opponent"),
        (([], 3), "an empty hand has nothing to ask for"),
        ((["2", "9", "2", "9", "K", "K"], 5), "three ranks, five opponents")],
       hidden=_count_asks_hidden,
       title="How many asks a hand allows", lesson="00",
       goal="An ask is a pair (opponent, rank you hold): count the ranks, not the cards.")


# --------------------------------------------------------------------------- lesson 01
_DEALS = {"family": {2: 7, 3: 7, 4: 5, 5: 5, 6: 5}, "pond": {2: 5, 3: 5, 4: 5, 5: 5, 6: 5},
          "bicycle": {2: 7, 3: 7, 4: 5, 5: 5}, "classic": {2: 7, 3: 5, 4: 5, 5: 5, 6: 5}}


def deal_size_reference(rules, n_players):
    """Cards dealt to each player under a preset, or 0 if the preset does not allow that many players."""
    return _DEALS[rules].get(n_players, 0)


def _deal_size_hidden(rng):
    return (sorted(_DEALS)[_int(rng, 0, 3)], _int(rng, 2, 7)), {}


inline("L01-deal-size", deal_size_reference,
       [(("family", 2), "two or three players get seven"), (("family", 4), "four or more get five"),
        (("pond", 3), "the online table deals five to everyone"), (("bicycle", 3), ""),
        (("bicycle", 6), "Bicycle's rules stop at five players: return 0"), (("classic", 2), ""),
        (("classic", 3), "three or more get five"), (("pond", 7), "no preset seats seven: return 0")],
       hidden=_deal_size_hidden,
       title="How many cards each preset deals", lesson="01",
       goal="Turn the rule comparison table into a function: a dict of dicts is enough.")


def ask_success_share_reference(log):
    """The share of asks in a log answered with cards, as a Fraction (0 if nobody asked)."""
    asks = sum(" asks " in line for line in log)
    gives = sum(" gives " in line for line in log)
    return Fraction(gives, asks) if asks else Fraction(0)


_LOG = ["Ann asks Ben for 4s.", "Ben gives Ann one 4.", "Ann asks Ben for Aces.", 'Ben says "Go Fish!"',
        "Ann draws a card from the ocean.", "It is Ben's turn.", "Ben asks Ann for 6s.", 'Ann says "Go Fish!"',
        "Ben draws 6♣, the rank asked for, and shows it: lucky draw!", "Ben asks Cat for 6s.",
        "Cat gives Ben one 6.", "Ben lays down a book of 6s."]
_NAMES = ["Ann", "Ben", "Cat", "Dan"]


def _ask_success_share_hidden(rng):
    """A log in the lesson's words: asks answered with cards or with "Go Fish!" (and a draw, lucky or not)."""
    log = []
    for _ in range(_int(rng, 0, 6)):
        asker, asked = (_NAMES[k] for k in rng.choice(len(_NAMES), 2, replace=False))
        r = _RANK_NAMES[_int(rng, 1, 9)]
        log.append(f"{asker} asks {asked} for {r}s.")
        if rng.random() < 0.5:
            given = _int(rng, 1, 3)
            log.append(f"{asked} gives {asker} {['one', 'two', 'three'][given - 1]} {r}{'s' if given > 1 else ''}.")
        else:
            log.append(f'{asked} says "Go Fish!"')
            log.append(f"{asker} draws {r}♠, the rank asked for, and shows it: lucky draw!" if rng.random() < 0.3
                       else f"{asker} draws a card from the ocean.")
        if rng.random() < 0.2:
            log.append(f"{asker} lays down a book of {r}s.")
    return (log,), {}


inline("L01-ask-success-share", ask_success_share_reference,
       [((_LOG,), "the four steps of section 3: 4 asks, 2 answered with cards"),
        ((_LOG[:2],), "one ask, answered with cards"),
        ((_LOG[2:6],), "one ask, \"Go Fish!\""),
        (([],), "no asks yet: return Fraction(0)"),
        ((["South asks West for 3s.", 'West says "Go Fish!"', "South draws 3♦, the rank asked for, "
           "and shows it: lucky draw!", "South asks North for 3s.", "North gives South two 3s.",
           "South lays down a book of 3s.", "South asks East for Kings.", "East gives South one King."],),
         "a lucky draw is not an answer with cards")],
       hidden=_ask_success_share_hidden,
       title="The share of asks that succeed", lesson="01", kind=ExactProbability,
       goal="Every ask is answered either with cards (\"... gives ...\") or with \"Go Fish!\": count lines.")


# --------------------------------------------------------------------------- lesson 02
def expected_pairs_reference(k, n_ranks=13):
    """E[pairs of cards of the same rank] in a k-card hand from 4 suits of n_ranks ranks."""
    return comb(k, 2) * Fraction(3, 4 * n_ranks - 1)


def _expected_pairs_hidden(rng):
    n_ranks = [_int(rng, 2, 12), 13][_int(rng, 0, 1)]
    k = _int(rng, 0, min(4 * n_ranks, 13))
    return ((k,), {} if n_ranks == 13 else {"n_ranks": n_ranks})


inline("L02-expected-pairs", expected_pairs_reference,
       [((5,), "a 5-card hand: 10 pairs of cards, each the same rank with chance 3/51"),
        ((7,), "a 7-card hand"), ((2,), "two cards"), ((1,), "one card makes no pair"),
        ((5,), {"n_ranks": 4}, "a 16-card deck"), ((8,), {"n_ranks": 2}, "the whole 8-card deck: 2 ranks x 6 pairs")],
       hidden=_expected_pairs_hidden,
       title="The expected number of same-rank pairs in a hand", lesson="02", kind=ExactNumber,
       goal="Linearity again: one indicator per pair of cards, each with the same chance.")


def p_full_house_reference(n_ranks=13):
    """P(a 5-card hand holds three of one rank and two of another), 4 suits of n_ranks ranks."""
    return Fraction(n_ranks * comb(4, 3) * (n_ranks - 1) * comb(4, 2), comb(4 * n_ranks, 5))


def _full_house_hidden(rng):
    return (_int(rng, 2, 13),), {}


inline("L02-full-house", p_full_house_reference,
       [((), "the full deck"), ((4,), "a 16-card deck"), ((8,), "a 32-card deck"),
        ((2,), "an 8-card deck: most hands are three of one and two of the other")],
       hidden=_full_house_hidden,
       title="P(three of one rank and two of another in 5 cards)", lesson="02", kind=ExactProbability,
       goal="Choose the rank of the three, its suits, the rank of the two, their suits; divide by all hands.")


# --------------------------------------------------------------------------- lesson 03
def hypergeom_mean_var_reference(N, K, n):
    """[mean, variance] of the number of successes in n draws without replacement from N, K successes."""
    p = Fraction(K, N)
    fpc = Fraction(N - n, N - 1) if N > 1 else Fraction(0)
    return [n * p, n * p * (1 - p) * fpc]


def _hypergeom_mean_var_hidden(rng):
    N = _int(rng, 2, 60)
    return (N, _int(rng, 0, N), _int(rng, 1, N)), {}


inline("L03-hypergeom-mean-var", hypergeom_mean_var_reference,
       [((47, 2, 5), "sevens in West's 5 cards"), ((47, 2, 32), "sevens in the 32-card ocean"),
        ((52, 4, 52), "Aces in the whole deck: no randomness left"), ((52, 13, 5), "hearts in 5 cards"),
        ((10, 3, 1), "one draw: the finite-population correction is 1")],
       hidden=_hypergeom_mean_var_hidden,
       title="The hypergeometric mean and variance", lesson="03", kind=ExactList,
       goal="Mean n K/N; variance as the binomial's, times (N - n)/(N - 1). Return a list of two Fractions.")


def top_card_terms_reference(unseen, copies, hand_size):
    """The law of total probability, term by term: P(they hold x) * P(top card is the rank | x), x = 0..copies."""
    rest = unseen - hand_size
    return [Fraction(comb(copies, x) * comb(unseen - copies, hand_size - x), comb(unseen, hand_size))
            * Fraction(copies - x, rest) for x in range(copies + 1)]


def _top_card_terms_hidden(rng):
    unseen = _int(rng, 3, 47)
    copies = _int(rng, 0, min(4, unseen - 1))  # a hand of at least `copies` cards, and a card left on top
    return (unseen, copies, _int(rng, max(1, copies), min(unseen - 1, 13))), {}


inline("L03-top-card-terms", top_card_terms_reference,
       [((41, 2, 4), "section 4: two sevens, West holds 4 of the 41 unseen cards"),
        ((47, 3, 5), "three unseen, a hand of 5"),
        ((10, 1, 3), "one copy unseen"),
        ((8, 4, 4), "four copies, half the unseen cards in their hand")],
       hidden=_top_card_terms_hidden,
       title="P(the top card is the rank), case by case", lesson="03", kind=ExactList,
       goal="Split by how many copies they hold: weight each case's chance of the top card by its probability.")



# --------------------------------------------------------------------------- lesson 04
class ExactFractions(Exercise):
    """A list of exact numbers (``Fraction`` or ``int``), compared item by item."""

    def compare(self, expected, returned):
        if not isinstance(returned, (list, tuple)):
            return False, f"return a list of Fractions, not a {type(returned).__name__}"
        if len(returned) != len(expected):
            return False, f"return one value per hypothesis: {len(expected)}, not {len(returned)}"
        if any(isinstance(x, float) for x in returned):
            return False, "return exact fractions.Fraction values, not floats"
        if any(isinstance(x, bool) or not isinstance(x, (Fraction, int)) for x in returned):
            return False, "every value should be a fractions.Fraction"
        return list(returned) == list(expected), ""

    def show(self, value):
        if isinstance(value, (list, tuple)) and all(isinstance(x, Fraction) for x in value):
            return "[" + ", ".join(str(x) for x in value) + "]"
        return super().show(value)


def posterior_probability_reference(prior, likelihood_ratio):
    """P(H | E) from P(H) and the likelihood ratio, by the odds form of Bayes' rule."""
    prior = Fraction(prior)
    if prior == 1:
        return Fraction(1)
    odds = prior / (1 - prior) * Fraction(likelihood_ratio)
    return odds / (1 + odds)


def _posterior_probability_hidden(rng):
    d = _int(rng, 2, 20)
    prior = Fraction(_int(rng, 1, d - 1), d)
    ratio = _int(rng, 0, 6) if rng.random() < 0.3 else _fraction(rng, 12, 0, 5)
    return (prior, ratio), {}


inline("L04-posterior-probability", posterior_probability_reference,
       [((Fraction(3, 4), 2), "odds 3:1, doubled: 6:1"),
        ((Fraction(41, 55), Fraction(1204, 1517)), "lesson 4: H = Ann holds a 2, E = she asked for 3s"),
        ((Fraction(1, 2), Fraction(1, 3)), "evidence three times as likely without H"),
        ((Fraction(1, 10), 1), "a likelihood ratio of 1 changes nothing"),
        ((Fraction(1, 5), 0), "evidence impossible under H"),
        ((1, 5), "a certain hypothesis stays certain")],
       hidden=_posterior_probability_hidden,
       title="Bayes' rule in odds form", lesson="04", kind=ExactProbability,
       goal="Odds = p / (1 - p); multiply by the likelihood ratio; back to a probability, odds / (1 + odds).")


def bayes_table_reference(prior, likelihood):
    """Posterior of each hypothesis: prior * likelihood, normalised."""
    joint = [Fraction(p) * Fraction(lk) for p, lk in zip(prior, likelihood)]
    total = sum(joint)
    return [j / total for j in joint]


_WEST = [Fraction(comb(3, k) * comb(44, 5 - k), comb(47, 5)) for k in range(4)]
def _bayes_table_hidden(rng):
    k = _int(rng, 2, 5)
    weights = [_int(rng, 1, 9) for _ in range(k)]
    prior = [Fraction(w, sum(weights)) for w in weights]
    likelihood = [_fraction(rng, 10) for _ in range(k)]
    if not any(likelihood):
        likelihood[_int(rng, 0, k - 1)] = Fraction(1, 2)
    return (prior, likelihood), {}


inline("L04-bayes-table", bayes_table_reference,
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
def brier_score_reference(probs, outcomes):
    """Mean of (p - outcome)^2, outcomes counted as 1 or 0."""
    return sum((Fraction(p) - int(o)) ** 2 for p, o in zip(probs, outcomes)) / len(probs)


def _brier_score_hidden(rng):
    n = _int(rng, 1, 8)
    return ([_fraction(rng, 20) for _ in range(n)], [bool(rng.random() < 0.5) for _ in range(n)]), {}


inline("L05-brier-score", brier_score_reference,
       [(([Fraction(7, 10), Fraction(1, 5)], [True, False]), "two answers, both leaning the right way"),
        (([1, 0, 1], [True, False, True]), "certain and right every time: a perfect score"),
        (([Fraction(1, 2)] * 4, [True, False, False, True]), "always 1/2: 1/4, whatever happens"),
        (([1], [False]), "certain and wrong: the worst score"),
        (([Fraction(9, 10), Fraction(3, 10), Fraction(3, 5), Fraction(1, 20)], [False, True, True, False]), "")],
       hidden=_brier_score_hidden,
       title="The Brier score", lesson="05", kind=ExactNumber,
       goal="Square each gap between the stated probability and the outcome (1 or 0), and average.")


def calibration_bin_reference(probs, outcomes, low, high):
    """[mean stated, observed fraction] of the answers with low <= p < high; None if there are none."""
    here = [(Fraction(p), int(o)) for p, o in zip(probs, outcomes) if Fraction(low) <= Fraction(p) < Fraction(high)]
    if not here:
        return None
    return [sum(p for p, _ in here) / len(here), Fraction(sum(o for _, o in here), len(here))]


class FractionsOrNone(ExactFractions):
    def compare(self, expected, returned):
        if expected is None or returned is None:
            return returned is expected, "" if returned is expected else (
                "no answer falls in this bin: return None" if expected is None else "some answers fall in this bin")
        return super().compare(expected, returned)


_PROBS = [Fraction(1, 10), Fraction(1, 4), Fraction(3, 10), Fraction(1, 2), Fraction(3, 5), Fraction(7, 10), Fraction(9, 10)]
_HAPPENED = [False, True, False, True, True, False, True]
def _calibration_bin_hidden(rng):
    n = _int(rng, 1, 9)
    probs = [Fraction(_int(rng, 0, 20), 20) for _ in range(n)]
    low = Fraction(_int(rng, 0, 8), 10)
    return (probs, [bool(rng.random() < 0.5) for _ in range(n)], low, low + Fraction(_int(rng, 1, 3), 10)), {}


inline("L05-calibration-bin", calibration_bin_reference,
       [((_PROBS, _HAPPENED, Fraction(1, 5), Fraction(2, 5)), "two answers, 1/4 and 3/10"),
        ((_PROBS, _HAPPENED, Fraction(1, 2), Fraction(4, 5)), "low is in the bin, high is not: 1/2, 3/5, 7/10"),
        ((_PROBS, _HAPPENED, 0, 1), "every answer in one bin"),
        ((_PROBS, _HAPPENED, Fraction(4, 5), 1), "one answer"),
        ((_PROBS, _HAPPENED, Fraction(3, 10), Fraction(2, 5)), "3/10 belongs here, its low edge"),
        ((_PROBS, _HAPPENED, Fraction(11, 20), Fraction(3, 5)), "no answer here: None")],
       hidden=_calibration_bin_hidden,
       title="One bin of a calibration table", lesson="05", kind=FractionsOrNone,
       goal="Keep the answers in the bin; average what was stated, and the share that happened.")



# --------------------------------------------------------------------------- lesson 06
def games_needed_reference(delta, sigma):
    """Games for 80% power at the 5% level (two-sided), with z_0.975 = 1.96 and z_0.80 = 0.84, rounded up."""
    return math.ceil(((1.96 + 0.84) * sigma / delta) ** 2)


#: z_0.975 + z_0.80 from the normal quantile function (scipy.stats.norm.ppf), as lesson 6 computes it: 2.8016.
_Z_EXACT = 2.8015852181129683


def _games_accepted(delta, sigma, zs=(1.96 + 0.84, _Z_EXACT)) -> set[int]:
    """Every right answer: z as 1.96 + 0.84 or from norm.ppf, rounded up, whatever order the float steps take."""
    accepted = set()
    for z in zs:
        n = (z * sigma / delta) ** 2
        accepted |= {math.ceil(n * (1 - 1e-9)), math.ceil(n * (1 + 1e-9))}
    return accepted


class WholeNumber(Exercise):
    """A number of games: either z (1.96 + 0.84, or scipy's norm.ppf) is right, rounded up."""

    def compare_case(self, case, returned):
        if isinstance(returned, float) and returned.is_integer():
            return False, "right size, but return an int (math.ceil gives one)"
        if isinstance(returned, bool) or not isinstance(returned, int):
            return False, f"return a whole number of games (an int), not a {type(returned).__name__}"
        accepted = _games_accepted(*case.args)
        if returned in accepted:
            return True, ""
        if returned + 1 in accepted:
            return False, "one game short: round up, never down (math.ceil)"
        return False, ""

    def show_expected(self, case):
        rounded, exact = (sorted(_games_accepted(*case.args, zs=(z,))) for z in (1.96 + 0.84, _Z_EXACT))
        if rounded == exact:
            return " or ".join(map(str, rounded))
        return (f"{' or '.join(map(str, rounded))} with 1.96 + 0.84; {' or '.join(map(str, exact))} with z from "
                "scipy.stats.norm.ppf (either is right)")


def _games_needed_hidden(rng):
    return (_int(rng, 5, 100) / 1000, _int(rng, 150, 700) / 1000), {}


inline("L06-games-needed", games_needed_reference,
       [((0.02, 0.439), "lesson 6's first design with sigma rounded to 0.439; lesson 6's 3,776 uses the unrounded "
                         "sigma, 0.43863..., and norm.ppf's z"),
        ((0.02, 0.62), "two strategies on different decks"),
        ((0.01, 0.439), "half the edge: about four times the games"),
        ((0.05, 0.45), "a 5-point edge, a game share with sd 0.45"),
        ((0.1, 0.3), "a big edge, little noise")],
       hidden=_games_needed_hidden,
       title="How many games to detect an edge?", lesson="06", kind=WholeNumber,
       goal="Solve for n where the edge clears both z's in standard errors; round up.")


def exact_p_value_reference(wins, games, fair):
    """The two-sided exact binomial test's p-value (scipy.stats.binomtest)."""
    from scipy import stats

    return float(stats.binomtest(wins, games, fair).pvalue)


class CloseFloat(Exercise):
    def compare(self, expected, returned):
        if isinstance(returned, bool) or not isinstance(returned, (int, float)):
            return False, f"return the p-value as a float, not a {type(returned).__name__}"
        if not 0 <= returned <= 1:
            return False, "a p-value lies between 0 and 1"
        if abs(returned - expected) <= 1e-12 + 1e-6 * expected:
            return True, ""
        if expected < 1 and abs(returned - expected / 2) <= 1e-12 + 1e-6 * expected:
            return False, "that is half the answer: the test is two-sided (alternative='two-sided')"
        return False, ""

    def show(self, value):
        return f"{value:.6g}" if isinstance(value, float) else super().show(value)


def _exact_p_value_hidden(rng):
    games = _int(rng, 1, 300)
    fair = [0.5, 0.25, 0.2, 1 / 3, 0.3][_int(rng, 0, 4)]
    return (_int(rng, 0, games), games, fair), {}


inline("L06-exact-p-value", exact_p_value_reference,
       [((6, 6, 0.5), "lesson 6: greedy won 6 of 6"),
        ((40, 60, 0.5), "40 of 60 against a fair 1/2"),
        ((30, 100, 0.25), "30 of 100 against 1/4"),
        ((25, 100, 0.25), "exactly the fair share"),
        ((1, 20, 0.25), "far below the fair share")],
       hidden=_exact_p_value_hidden,
       title="The exact binomial test", lesson="06", kind=CloseFloat,
       goal="The chance, if the share is fair, of a result at least this far from it, on either side.")



# --------------------------------------------------------------------------- lesson 07
def first_ask_success_reference(held, unseen, hand_size):
    """P(an opponent's hand_size cards, from `unseen`, hold one of the 4 - held unseen copies of the rank)."""
    return 1 - Fraction(comb(unseen - (4 - held), hand_size), comb(unseen, hand_size))


def _first_ask_success_hidden(rng):
    held = _int(rng, 1, 4)
    unseen = _int(rng, max(4 - held, 2), 47)
    return (held, unseen, _int(rng, 1, min(unseen, 13))), {}


inline("L07-first-ask-success", first_ask_success_reference,
       [((1, 47, 5), "q(1) of lesson 7: you hold one, 3 copies unseen"),
        ((3, 47, 5), "you hold three: one copy left"),
        ((2, 45, 7), "family, 2 players: 7 cards each, so 45 unseen"),
        ((4, 47, 5), "you hold all four: none can be out there"),
        ((1, 8, 8), "the opponent holds every unseen card")],
       hidden=_first_ask_success_hidden,
       title="P(the first ask succeeds), for a rank you hold", lesson="07", kind=ExactProbability,
       goal="1 - P(none of the 4 - held copies among the opponent's cards): the hypergeometric count again.")


def mean_and_median_reference(table):
    """[mean, median] of a length table [[length, games], ...], as Fractions (median: the middle game, or the two middle ones' average)."""
    lengths = sorted(length for length, games in table for _ in range(games))
    n = len(lengths)
    middle = Fraction(lengths[n // 2]) if n % 2 else Fraction(lengths[n // 2 - 1] + lengths[n // 2], 2)
    return [Fraction(sum(lengths), n), middle]


def _mean_and_median_hidden(rng):
    lengths = sorted({_int(rng, 30, 120) for _ in range(_int(rng, 1, 6))})
    table = [[length, _int(rng, 1, 6)] for length in lengths]
    order = rng.permutation(len(table))
    return ([table[k] for k in order],), {}


inline("L07-mean-and-median", mean_and_median_reference,
       [(([[60, 1], [62, 2], [70, 1]],), "four games: an even number, so two middle ones"),
        (([[48, 3], [50, 1], [81, 1]],), "one long game pulls the mean up, not the median"),
        (([[64, 5]],), "every game the same length"),
        (([[70, 1], [50, 2], [60, 2]],), "the table need not be sorted"),
        (([[40, 1], [63, 4], [64, 4]],), "one short game: the mean falls below the median")],
       hidden=_mean_and_median_hidden,
       title="Mean and median from a table of game lengths", lesson="07", kind=ExactFractions,
       goal="Expand the table into games (or count through it), then average, and find the middle.")


__all__ = ["INLINE", "REFERENCES", "ExactFractions", "ExactList", "ExactNumber", "inline", "run_check"]
