"""The inline checks of lessons 00 to 03: counting hands, deals and asks (registered by :mod:`.inline`)."""
from __future__ import annotations

import math
from fractions import Fraction

from .chances import ExactNumber, ExactProbability
from .inline import RANK_NAMES, ExactList, inline, whole


# --------------------------------------------------------------------------- lesson 00
class ProbabilityOrFloat(ExactProbability):
    """An exact probability, or a float within 1e-9 of it: lesson 0 computes it both ways (scipy's hypergeom too).

    A sealed case compares a float in steps of 1e-9, two steps either way (so within 2e-9)."""

    def compare(self, expected, returned):
        if isinstance(returned, float) and math.isfinite(returned) and abs(returned - expected) <= 1e-9:
            return True, "a float, as scipy.stats.hypergeom gives, within 1e-9; a Fraction would be exact"
        return super().compare(expected, returned)

    def canonical(self, value, case):
        if isinstance(value, float) and math.isfinite(value):  # as compare: near the answer, even past 1
            return f"about {round(value * 1e9)}"
        return super().canonical(value, case)

    def forms(self, case):
        step = round(float(case.expected) * 1e9)
        return [str(Fraction(case.expected))] + [f"about {step + k}" for k in range(-2, 3)]

    def near_misses(self, value, case):
        return []  # a float is judged as a float: it is right or wrong, not "rounded"


def _p_at_least_one_hidden(rng):
    unseen = whole(rng, 4, 52)
    copies = whole(rng, 0, min(4, unseen))
    return (unseen, copies, whole(rng, 1, min(unseen, 13))), {}


inline("L00-p-at-least-one", "p_at_least_one",
       [((45, 4, 7), "two players, seven cards each: four copies among 45 unseen cards"),
        ((47, 3, 5), "you hold one King: three are unseen"),
        ((41, 2, 4), "later: two sevens among 41 unseen cards, a hand of 4"),
        ((20, 0, 6), "no copy is unseen: it cannot be there"),
        ((6, 1, 6), "their hand is every unseen card")],
       hidden=_p_at_least_one_hidden,
       title="P(a hand holds at least one of a rank)", lesson="00", kind=ProbabilityOrFloat,
       goal="Count the hands with none of the rank, and take the complement.")


def _count_asks_hidden(rng):
    hand = [RANK_NAMES[whole(rng, 0, 12)] for _ in range(whole(rng, 0, 9))]
    return (hand, whole(rng, 1, 5)), {}


inline("L00-count-asks", "count_asks",
       [((["2", "6", "9", "Q"], 3), "four ranks, three opponents"),
        ((["7", "7", "Q"], 2), "two 7s are one rank to ask for"),
        ((["A", "A", "A"], 1), "three of one rank, one opponent"),
        (([], 3), "an empty hand has nothing to ask for"),
        ((["2", "9", "2", "9", "K", "K", "4"], 5), "four ranks, five opponents")],
       hidden=_count_asks_hidden,
       title="How many asks a hand allows", lesson="00",
       goal="An ask is a pair (opponent, rank you hold): count the ranks, not the cards.")


# --------------------------------------------------------------------------- lesson 01
_PRESETS = ["bicycle", "classic", "family", "pond"]


def _deal_size_hidden(rng):
    return (_PRESETS[whole(rng, 0, 3)], whole(rng, 2, 7)), {}


inline("L01-deal-size", "deal_size",
       [(("family", 2), "two or three players get seven"), (("family", 4), "four or more get five"),
        (("pond", 3), "the online table deals five to everyone"), (("bicycle", 3), ""),
        (("bicycle", 6), "Bicycle's rules stop at five players: return 0"), (("classic", 2), ""),
        (("classic", 3), "three or more get five"), (("pond", 7), "no preset seats seven: return 0")],
       hidden=_deal_size_hidden,
       title="How many cards each preset deals", lesson="01",
       goal="Turn the rule comparison table into a function: a dict of dicts is enough.")


_LOG = ["Ann asks Ben for 4s.", "Ben gives Ann one 4.", "Ann asks Ben for Aces.", 'Ben says "Go Fish!"',
        "Ann draws a card from the ocean.", "It is Ben's turn.", "Ben asks Ann for 6s.", 'Ann says "Go Fish!"',
        "Ben draws 6♣, the rank asked for, and shows it: lucky draw!", "Ben asks Cat for 6s.",
        "Cat gives Ben one 6.", "Ben lays down a book of 6s."]
_NAMES = ["Ann", "Ben", "Cat", "Dan"]


def _ask_success_share_hidden(rng):
    """A log in the lesson's words: asks answered with cards or with "Go Fish!" (and a draw, lucky or not)."""
    log = []
    for _ in range(whole(rng, 0, 6)):
        asker, asked = (_NAMES[k] for k in rng.choice(len(_NAMES), 2, replace=False))
        r = RANK_NAMES[whole(rng, 1, 9)]
        log.append(f"{asker} asks {asked} for {r}s.")
        if rng.random() < 0.5:
            given = whole(rng, 1, 3)
            log.append(f"{asked} gives {asker} {['one', 'two', 'three'][given - 1]} {r}{'s' if given > 1 else ''}.")
        else:
            log.append(f'{asked} says "Go Fish!"')
            log.append(f"{asker} draws {r}♠, the rank asked for, and shows it: lucky draw!" if rng.random() < 0.3
                       else f"{asker} draws a card from the ocean.")
        if rng.random() < 0.2:
            log.append(f"{asker} lays down a book of {r}s.")
    return (log,), {}


inline("L01-ask-success-share", "ask_success_share",
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
def _expected_pairs_hidden(rng):
    n_ranks = [whole(rng, 2, 12), 13][whole(rng, 0, 1)]
    k = whole(rng, 0, min(4 * n_ranks, 13))
    return ((k,), {} if n_ranks == 13 else {"n_ranks": n_ranks})


inline("L02-expected-pairs", "expected_pairs",
       [((6,), "a 6-card hand"),
        ((7,), "a 7-card hand"), ((3,), "three cards"), ((1,), "one card makes no pair"),
        ((5,), {"n_ranks": 4}, "a 16-card deck"), ((8,), {"n_ranks": 2}, "the whole 8-card deck: 2 ranks x 6 pairs")],
       hidden=_expected_pairs_hidden,
       title="The expected number of same-rank pairs in a hand", lesson="02", kind=ExactNumber,
       goal="Linearity again: one indicator per pair of cards, each with the same chance.")


def _full_house_hidden(rng):
    return (whole(rng, 2, 13),), {}


inline("L02-full-house", "p_full_house",
       [((), "the full deck"), ((4,), "a 16-card deck"), ((8,), "a 32-card deck"),
        ((2,), "an 8-card deck: most hands are three of one and two of the other")],
       hidden=_full_house_hidden,
       title="P(three of one rank and two of another in 5 cards)", lesson="02", kind=ExactProbability,
       goal="Choose the rank of the three, its suits, the rank of the two, their suits; divide by all hands.")


# --------------------------------------------------------------------------- lesson 03
def _hypergeom_mean_var_hidden(rng):
    N = whole(rng, 2, 60)
    return (N, whole(rng, 0, N), whole(rng, 1, N)), {}


inline("L03-hypergeom-mean-var", "hypergeom_mean_var",
       [((47, 2, 5), "sevens in West's 5 cards"), ((47, 2, 32), "sevens in the 32-card ocean"),
        ((52, 4, 52), "Aces in the whole deck: no randomness left"), ((52, 13, 5), "hearts in 5 cards"),
        ((10, 3, 1), "one draw: the finite-population correction is 1")],
       hidden=_hypergeom_mean_var_hidden,
       title="The hypergeometric mean and variance", lesson="03", kind=ExactList,
       goal="Mean n K/N; variance as the binomial's, times (N - n)/(N - 1). Return a list of two Fractions.")


def _top_card_terms_hidden(rng):
    unseen = whole(rng, 3, 47)
    copies = whole(rng, 0, min(4, unseen - 1))  # a hand of at least `copies` cards, and a card left on top
    return (unseen, copies, whole(rng, max(1, copies), min(unseen - 1, 13))), {}


inline("L03-top-card-terms", "top_card_terms",
       [((41, 2, 4), "section 4: two sevens, West holds 4 of the 41 unseen cards"),
        ((47, 3, 5), "three unseen, a hand of 5"),
        ((10, 1, 3), "one copy unseen"),
        ((8, 4, 4), "four copies, half the unseen cards in their hand")],
       hidden=_top_card_terms_hidden,
       title="P(the top card is the rank), case by case", lesson="03", kind=ExactList,
       goal="Split by how many copies they hold: weight each case's chance of the top card by its probability.")
