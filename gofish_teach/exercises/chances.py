"""Checks for exercises 07-08: exact probabilities, as ``fractions.Fraction``.

Both are about a two-player game, where every card you cannot see is either in your
opponent's hand or in the ocean, and every way of placing them that fits what you know is
equally likely (the textbook model; tests/test_exercises.py checks both references against
:class:`gofish_teach.probability.Facts`).

>>> p_lucky_reference(["7♥", "7♣", "Q♦", "K♠"], "7", opponent_size=5)
Fraction(2, 43)
>>> p_holds_reference(["7♥", "7♣", "Q♦", "K♠"], "7", opponent_size=3)
Fraction(23, 188)
"""
from __future__ import annotations

from fractions import Fraction
from math import comb

from .checking import Case, Exercise
from .game_logic import rank, show_cards

SUITS_PER_RANK = 4


def _unseen(hand, books, n_ranks):
    """Cards you cannot see, by rank, and in all."""
    ranks = [rank(c) for c in hand]
    def of(r):
        return SUITS_PER_RANK - ranks.count(r) - SUITS_PER_RANK * list(books).count(r)
    total = SUITS_PER_RANK * n_ranks - len(hand) - SUITS_PER_RANK * len(books)
    return of, total


# --------------------------------------------------------------------------- 07 P(lucky draw)
def p_lucky_reference(hand, wanted, opponent_size, books=(), n_ranks=13):
    of, unseen = _unseen(hand, books, n_ranks)
    ocean = unseen - opponent_size  # "Go Fish!": none of the wanted rank is in the opponent's hand
    return Fraction(of(wanted), ocean)


def _p_lucky_cases() -> list[Case]:
    specs = [(["7♥", "7♣", "Q♦", "K♠"], "7", 5, (), 13, "two 7s unseen; the opponent holds none of them"),
             (["7♥", "Q♦", "K♠", "3♣", "3♦"], "3", 7, (), 13, "you asked for 3s"),
             (["9♠", "2♣", "2♦", "2♥"], "2", 4, ("5", "J"), 13, "two books on the table are cards you can see"),
             (["10♣", "10♦", "A♠"], "10", 6, ("K",), 13, "tens"),
             (["A♣", "2♦", "2♠"], "A", 3, ("3",), 4, "a 4-rank deck (A, 2, 3, 4) with a book of 3s"),
             (["4♣", "4♦", "4♥", "A♠", "2♠"], "4", 2, (), 4, "you hold three 4s: one is left")]
    cases = []
    for hand, r, opp, books, n_ranks, note in specs:
        extra = (f", books={list(books)}" if books else "") + (f", n_ranks={n_ranks}" if n_ranks != 13 else "")
        cases.append(Case((list(hand), r, opp), p_lucky_reference(hand, r, opp, books, n_ranks),
                          f"p_lucky({show_cards(hand)}, {r!r}, opponent_size={opp}{extra})",
                          kwargs={"books": list(books), "n_ranks": n_ranks}, note=note))
    return cases


class ExactNumber(Exercise):
    """An exact answer: a ``Fraction`` (or an ``int``) of the expected value; a float gets a hint."""

    def compare(self, expected, returned):
        if isinstance(returned, float):
            close = abs(returned - float(expected)) < 1e-9
            return False, ("right value, but a float is rounded: return a fractions.Fraction" if close else
                           "return an exact fractions.Fraction, not a float")
        if isinstance(returned, bool) or not isinstance(returned, (Fraction, int)):
            return False, f"return a fractions.Fraction, not a {type(returned).__name__}"
        return returned == expected, ""

    def show(self, value):
        if isinstance(value, Fraction):
            return f"Fraction({value.numerator}, {value.denominator})  (= {float(value):.4f})"
        return super().show(value)


class ExactProbability(ExactNumber):
    """An exact probability: as :class:`ExactNumber`, and a value outside [0, 1] is named as such."""

    def compare(self, expected, returned):
        if isinstance(returned, (Fraction, int)) and not isinstance(returned, bool) and not 0 <= returned <= 1:
            return False, "a probability lies between 0 and 1"
        return super().compare(expected, returned)


P_LUCKY = ExactProbability("07-p-lucky", "p_lucky", "P(lucky draw), exactly, from a hand", "03",
                           "Count the unseen cards, and use what \"Go Fish!\" just told you about where they are.",
                           make_cases=_p_lucky_cases)


# --------------------------------------------------------------------------- 08 P(opponent holds)
def p_holds_reference(hand, wanted, opponent_size, books=(), lacks=(), n_ranks=13):
    of, unseen = _unseen(hand, books, n_ranks)
    pool = unseen - sum(of(r) for r in set(lacks))  # the opponent's cards come from these
    here = 0 if wanted in lacks else of(wanted)
    return 1 - Fraction(comb(pool - here, opponent_size), comb(pool, opponent_size))


def _p_holds_cases() -> list[Case]:
    specs = [(["7♥", "7♣", "Q♦", "K♠"], "7", 3, (), (), 13, "the textbook case: 1 - C(46,3)/C(48,3)"),
             (["7♥", "Q♦", "K♠", "3♣", "3♦"], "3", 7, (), (), 13, "a bigger hand to look into"),
             (["7♥", "Q♦", "K♠", "3♣", "3♦"], "3", 7, (), ("Q",), 13,
              "it said \"Go Fish!\" to Queens: its 7 cards are among the non-Queens"),
             (["A♣", "2♦"], "2", 5, ("3",), ("4",), 4, "a 4-rank deck, a book of 3s, and no 4s in its hand"),
             (["9♠", "J♣"], "J", 6, (), ("J",), 13, "it said \"Go Fish!\" to Jacks"),
             (["10♣", "10♦", "A♠"], "10", 20, ("K", "5"), ("A", "6"), 13, "tens, two books, two ranks it lacks")]
    cases = []
    for hand, r, opp, books, lacks, n_ranks, note in specs:
        extra = ((f", books={list(books)}" if books else "") + (f", lacks={list(lacks)}" if lacks else "")
                 + (f", n_ranks={n_ranks}" if n_ranks != 13 else ""))
        cases.append(Case((list(hand), r, opp), p_holds_reference(hand, r, opp, books, lacks, n_ranks),
                          f"p_holds({show_cards(hand)}, {r!r}, opponent_size={opp}{extra})",
                          kwargs={"books": list(books), "lacks": list(lacks), "n_ranks": n_ranks}, note=note))
    return cases


P_HOLDS = ExactProbability("08-p-holds", "p_holds", "P(an opponent holds a rank), exactly, from stated facts", "02",
                           "Count hands with the hypergeometric law: 1 - P(none), and a stated fact shrinks the pool.",
                           make_cases=_p_holds_cases)
