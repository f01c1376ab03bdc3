"""Quiz items for lesson 10 (the class at the table): the class's games as data, how often the class
asked who asked before, how it fared against the bots, and observational against randomized."""
from __future__ import annotations

from fractions import Fraction
from math import sqrt

from .common import dec, tex_frac
from .model import Item, agree, choice, number, short

# ---------------------------------------------------------------------------------- lesson 10


def q10_1(games: int, seats: int, learners: int):
    """Why the seat rows of a class file are not independent observations."""
    rows = games * seats
    right = "the rows of one game are tied (its shares add up to 1), and one learner's rows share that learner"
    wrong = {"nothing: every row is a different seat of a different deal, so the rows are independent":
             "The seats of one game share its deal and its outcome: one seat's win is the others' loss.",
             "the rows are fine, but a Wilson interval needs at least 1,000 of them":
             "The number of rows is not the problem; treating tied rows as separate evidence is.",
             "bots' rows must be left out, because bots are not random":
             "A bot's play is part of the game the learners played; leaving it out does not untie the rows."}
    return (f"A class file holds {games} games of {seats} seats: {rows} seat rows, {learners} learners playing "
            "several games each. A learner's row says their win share in that game.", [
                number("How many seat rows does the file give?", rows, f"${games} \\times {seats} = {rows}$."),
                choice("What is wrong with a 95% interval that treats every learner's row as an independent "
                       "observation?", right, wrong,
                       "Resample whole units (games, or learners) instead: a cluster bootstrap, or one summary per "
                       "learner."),
            ])


def q10_2(could: int, did: int, learners: int):
    """A remembering rate counts only the asks where remembering was possible."""
    rate = Fraction(did, could)
    agree(rate, 1 - Fraction(could - did, could), "Q10.M2")
    return (f"Over the class's games the learners made many asks; on {could} of them some opponent had shown a rank "
            f"the asker held (asking who asked before was possible), and on {did} of those the learner did ask "
            f"that opponent. The asks come from {learners} learners.", [
                number("What share of the asks where it was possible asked who asked before?", rate,
                       f"${did}/{could} = {tex_frac(rate)} \\approx {dec(rate)}$: asks where it was not possible do "
                       "not count, either way.", decimals=4),
                choice("How should the 95% interval of that share be made?",
                       "resample learners (a cluster bootstrap): one learner's asks are alike",
                       {"a Wilson interval over the asks, each ask an independent trial":
                        "One learner's asks share their habits: far fewer independent pieces of evidence than asks.",
                        "no interval is needed: every ask of the class was counted":
                        "The class is one draw of the learners who might have played; the share could have come out "
                        "otherwise.",
                        "resample asks with replacement, ignoring who made them":
                        "That is the independent-asks assumption again, and gives an interval too narrow."},
                       "The learners are the independent units, so the resampling takes them whole."),
            ])


def q10_3(games: int, share: str, sd: str):
    """Learners against the fair share, game by game, with a t interval."""
    s, d = float(share), float(sd)
    half = 1.96 * d / sqrt(games)
    low, high = s - half, s + half
    fair = 0.25
    covers = low <= fair <= high
    right = ("these games cannot tell the learners' share from the fair share" if covers else
             "the learners won less than a fair share" if high < fair else "the learners won more than a fair share")
    options = ["these games cannot tell the learners' share from the fair share", "the learners won less than a fair share",
               "the learners won more than a fair share", "the learners played exactly as well as the bots"]
    why = {options[0]: f"The interval, {low:.3f} to {high:.3f}, does not include 0.25: these games do tell them apart.",
           options[1]: f"The interval, {low:.3f} to {high:.3f}, does not lie below 0.25.",
           options[2]: f"The interval, {low:.3f} to {high:.3f}, does not lie above 0.25.",
           options[3]: "No interval shows equality: one that includes the fair share is absence of evidence, not "
                       "evidence of equal play."}
    wrong = {t: why[t] for t in options if t != right}
    return (f"At {games} tables of 4 (two learners, a `memory` bot and a `random` bot), the learners' average win "
            f"share per game is {share}, with a standard deviation of {sd} across games.", [
                number("What is the half-width of the 95% interval for the learners' mean share, $1.96\\,s/\\sqrt{n}$? "
                       "(3 decimal places)", half, f"$1.96 \\times {sd}/\\sqrt{{{games}}} \\approx {half:.3f}$.",
                       decimals=3, tolerance=Fraction(1, 1000)),
                choice("Against the fair share of a seat (0.25), what do these games show?", right, wrong,
                       f"The interval is {low:.3f} to {high:.3f}."),
            ])


def q10_4():
    return ("In the class's games, the learners who asked who asked before most often won more games than the "
            "others, and the difference's interval lies above 0. In lesson 6, `memory` and `most_held` bots played "
            "the same decks from the same seats, assigned by us, and `memory` won more.", [short(
                "Which of the two shows that remembering makes a player win more, and why does the other not? Name "
                "one thing that could explain the class's difference without remembering doing anything.",
                "The randomized comparison: we chose who played which strategy, on the same decks and seats, so the "
                "only difference between the two is the strategy (remembering, since `memory` falls back to "
                "`most_held`). The class's comparison is observational: the learners chose how to play, and those "
                "who remember may differ in other ways that also win games (attention, experience, building on "
                "pairs, the tables they sat at): confounding. Its difference is real but does not isolate "
                "remembering, nor its size.")])


def q10_m1(high_a: str, low_a: str, n_a: int, high_b: str, low_b: str, n_b: int):
    """A difference adjusted for a measured confounder: within strata, weighed by their size."""
    ha, la, hb, lb = (Fraction(x) for x in (high_a, low_a, high_b, low_b))
    adjusted = (n_a * (ha - la) + n_b * (hb - lb)) / (n_a + n_b)
    agree(adjusted, Fraction(n_a, n_a + n_b) * (ha - la) + Fraction(n_b, n_a + n_b) * (hb - lb), "Q10.M4")
    return (f"Learners are split by how often they asked who asked before (high or low) and, separately, by how "
            f"often they built on their pairs. Among the {n_a} learners who seldom built on pairs, the mean win "
            f"share is {high_a} for the high rememberers and {low_a} for the low; among the {n_b} who often did, "
            f"{high_b} and {low_b}.", [
                number("(a) What is the difference high minus low within each stratum, weighed by the strata's sizes?",
                       adjusted, f"$\\frac{{{n_a}}}{{{n_a + n_b}}}({high_a} - {low_a}) + \\frac{{{n_b}}}{{{n_a + n_b}}}"
                       f"({high_b} - {low_b}) = {tex_frac(adjusted)} \\approx {dec(adjusted)}$.", decimals=4),
                choice("(b) What can such an adjustment not do?",
                       "remove confounding by what was not measured, such as attention",
                       {"remove the effect of building on pairs from the comparison":
                        "That is what it does do: within a stratum the two groups built on pairs alike.",
                        "give a difference at all when a stratum holds only one group":
                        "It leaves such a stratum out; the others still compare.",
                        "make the comparison use every learner":
                        "It uses every learner in a stratum that holds both groups."},
                       "Only a randomized assignment balances what nobody measured."),
            ])


ITEMS = [
    Item("Q10.M1", "10", (1,), "what a row of the class's games is", q10_1,
         ((120, 4, 24), (60, 4, 16), (90, 3, 18), (150, 4, 30), (80, 5, 20)),
         "the games, the seats and the learners"),
    Item("Q10.M2", "10", (2,), "how often the class asked who asked before", q10_2,
         ((351, 211, 24), (200, 90, 16), (420, 301, 30), (150, 51, 12), (288, 160, 20)),
         "the asks that could remember, those that did, and the learners"),
    Item("Q10.M3", "10", (3,), "the learners against the fair share", q10_3,
         ((120, "0.242", "0.31"), (60, "0.19", "0.30"), (200, "0.28", "0.32"), (40, "0.21", "0.29"),
          (300, "0.215", "0.30")),
         "the games, the learners' mean share and its sd"),
    Item("Q10.4", "10", (4,), "observational against randomized", q10_4),
    Item("Q10.M4", "10", (4,), "adjusting for a measured confounder", q10_m1,
         (("1/10", "9/50", 12, "69/200", "7/40", 12), ("1/5", "1/4", 10, "3/10", "1/5", 14),
          ("1/4", "1/5", 8, "2/5", "1/4", 16), ("3/20", "1/5", 15, "7/20", "1/4", 9)),
         "the strata's sizes and the groups' mean shares in each"),
]
