"""The inline checks of lessons 06 and 07: testing a strategy, and game length (registered by :mod:`.inline`)."""
from __future__ import annotations

import math

from .chances import ExactProbability
from .checking import Exercise
from .inline import ExactFractions, inline, whole


# --------------------------------------------------------------------------- lesson 06
class WholeNumber(Exercise):
    """A number of games: either z (1.96 + 0.84, or scipy's norm.ppf) is right, rounded up.

    A case's ``expected`` is every right answer by the way z was found, from the key (its ``_accepted``
    function for this check): ``{"1.96 + 0.84": [n, ...], "norm.ppf": [m, ...]}`` (a float step
    taken in another order may round the other way, so each way may allow two).
    """

    def compare_case(self, case, returned):
        hint = self.shape_hint(returned, case)
        if hint:
            return False, hint
        accepted = {n for ns in case.expected.values() for n in ns}
        if returned in accepted:
            return True, ""
        if returned + 1 in accepted:
            return False, "one game short: round up, never down (math.ceil)"
        return False, ""

    def shape_hint(self, value, case):
        if isinstance(value, float) and value.is_integer():
            return "right size, but return an int (math.ceil gives one)"
        if isinstance(value, bool) or not isinstance(value, int):
            return f"return a whole number of games (an int), not a {type(value).__name__}"
        return ""

    def canonical(self, value, case):
        return None if self.shape_hint(value, case) else str(value)

    def forms(self, case):
        return sorted({str(n) for ns in case.expected.values() for n in ns})

    def near_misses(self, value, case):
        return [(value + 1, "one game short: round up, never down (math.ceil)")] if self.canonical(value, case) else []

    def show_expected(self, case):
        ways = {how: " or ".join(map(str, sorted(ns))) for how, ns in case.expected.items()}
        if len(set(ways.values())) == 1:
            return next(iter(ways.values()))
        return (f"{ways['1.96 + 0.84']} with 1.96 + 0.84; {ways['norm.ppf']} with z from scipy.stats.norm.ppf "
                "(either is right)")


def _games_needed_hidden(rng):
    return (whole(rng, 5, 100) / 1000, whole(rng, 150, 700) / 1000), {}


inline("L06-games-needed", "games_needed",
       [((0.02, 0.439), "lesson 6's first design with sigma rounded to 0.439; lesson 6's 3,776 uses the unrounded "
                         "sigma, 0.43863..., and norm.ppf's z"),
        ((0.02, 0.62), "two strategies on different decks"),
        ((0.01, 0.439), "half the edge: about four times the games"),
        ((0.05, 0.45), "a 5-point edge, a game share with sd 0.45"),
        ((0.1, 0.3), "a big edge, little noise")],
       hidden=_games_needed_hidden,
       title="How many games to detect an edge?", lesson="06", kind=WholeNumber,
       goal="Solve for n where the edge clears both z's in standard errors; round up.")


class CloseFloat(Exercise):
    """A p-value as a float, within a millionth of the answer (relatively; 1e-12 absolutely).

    A sealed case compares on grids instead: below a millionth, in steps of 1e-12, two either way
    (the absolute part rules there); above, the float's natural logarithm in steps of 1/2,000,000,
    three either way (so within about 1.5 millionths, relatively)."""

    #: Steps of the log scale per unit, how many either way a sealed case accepts; where the grids meet.
    STEPS, SPREAD, SMALL = 2_000_000, 3, 1e-6

    def compare(self, expected, returned):
        hint = self.shape_hint(returned, None)
        if hint:
            return False, hint
        if abs(returned - expected) <= 1e-12 + 1e-6 * expected:
            return True, ""
        if expected < 1 and abs(returned - expected / 2) <= 1e-12 + 1e-6 * expected:
            return False, "that is half the answer: the test is two-sided (alternative='two-sided')"
        return False, ""

    def shape_hint(self, value, case):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return f"return the p-value as a float, not a {type(value).__name__}"
        if not 0 <= value <= 1:
            return "a p-value lies between 0 and 1"
        return ""

    def canonical(self, value, case):
        if self.shape_hint(value, case):
            return None
        if value < self.SMALL:
            return f"abs {round(value * 1e12)}"
        return f"log {round(math.log(value) * self.STEPS)}"

    def forms(self, case):
        e, found = case.expected, set()
        if e <= self.SMALL + 3e-12:
            found |= {f"abs {round(e * 1e12) + k}" for k in range(-2, 3)}
        if e >= self.SMALL * (1 - 3e-6):
            step = round(math.log(e) * self.STEPS)
            found |= {f"log {step + k}" for k in range(-self.SPREAD, self.SPREAD + 1)}
        return sorted(found)

    def near_misses(self, value, case):
        if self.canonical(value, case) is None or value == 0:
            return []
        return [(2 * value, "that is half the answer: the test is two-sided (alternative='two-sided')")]

    def show(self, value):
        return f"{value:.6g}" if isinstance(value, float) else super().show(value)


def _exact_p_value_hidden(rng):
    games = whole(rng, 1, 300)
    fair = [0.5, 0.25, 0.2, 1 / 3, 0.3][whole(rng, 0, 4)]
    return (whole(rng, 0, games), games, fair), {}


inline("L06-exact-p-value", "exact_p_value",
       [((6, 6, 0.5), "lesson 6: greedy won 6 of 6"),
        ((40, 60, 0.5), "40 of 60 against a fair 1/2"),
        ((30, 100, 0.25), "30 of 100 against 1/4"),
        ((25, 100, 0.25), "exactly the fair share"),
        ((1, 20, 0.25), "far below the fair share")],
       hidden=_exact_p_value_hidden,
       title="The exact binomial test", lesson="06", kind=CloseFloat,
       goal="The chance, if the share is fair, of a result at least this far from it, on either side.")



# --------------------------------------------------------------------------- lesson 07
def _first_ask_success_hidden(rng):
    held = whole(rng, 1, 4)
    unseen = whole(rng, max(4 - held, 2), 47)
    return (held, unseen, whole(rng, 1, min(unseen, 13))), {}


inline("L07-first-ask-success", "first_ask_success",
       [((1, 47, 5), "q(1) of lesson 7: you hold one, 3 copies unseen"),
        ((3, 47, 5), "you hold three: one copy left"),
        ((2, 45, 7), "family, 2 players: 7 cards each, so 45 unseen"),
        ((4, 47, 5), "you hold all four: none can be out there"),
        ((1, 8, 8), "the opponent holds every unseen card")],
       hidden=_first_ask_success_hidden,
       title="P(the first ask succeeds), for a rank you hold", lesson="07", kind=ExactProbability,
       goal="1 - P(none of the 4 - held copies among the opponent's cards): the hypergeometric count again.")


def _mean_and_median_hidden(rng):
    lengths = sorted({whole(rng, 30, 120) for _ in range(whole(rng, 1, 6))})
    table = [[length, whole(rng, 1, 6)] for length in lengths]
    order = rng.permutation(len(table))
    return ([table[k] for k in order],), {}


inline("L07-mean-and-median", "mean_and_median",
       [(([[60, 1], [62, 2], [70, 1]],), "four games: an even number, so two middle ones"),
        (([[48, 3], [50, 1], [81, 1]],), "one long game pulls the mean up, not the median"),
        (([[64, 5]],), "every game the same length"),
        (([[70, 1], [50, 2], [60, 2]],), "the table need not be sorted"),
        (([[40, 1], [63, 4], [64, 4]],), "one short game: the mean falls below the median")],
       hidden=_mean_and_median_hidden,
       title="Mean and median from a table of game lengths", lesson="07", kind=ExactFractions,
       goal="Expand the table into games (or count through it), then average, and find the middle.")
