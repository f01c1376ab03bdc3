"""The inline checks of lessons 06 and 07: testing a strategy, and game length (registered by :mod:`.inline`)."""
from __future__ import annotations

import math
from fractions import Fraction
from math import comb

from .chances import ExactProbability
from .checking import Exercise
from .inline import ExactFractions, inline, whole


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
    return (whole(rng, 5, 100) / 1000, whole(rng, 150, 700) / 1000), {}


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
    games = whole(rng, 1, 300)
    fair = [0.5, 0.25, 0.2, 1 / 3, 0.3][whole(rng, 0, 4)]
    return (whole(rng, 0, games), games, fair), {}


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
    held = whole(rng, 1, 4)
    unseen = whole(rng, max(4 - held, 2), 47)
    return (held, unseen, whole(rng, 1, min(unseen, 13))), {}


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
    lengths = sorted({whole(rng, 30, 120) for _ in range(whole(rng, 1, 6))})
    table = [[length, whole(rng, 1, 6)] for length in lengths]
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
