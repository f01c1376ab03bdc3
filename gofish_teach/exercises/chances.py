"""Checks for exercises 07-08: exact probabilities, as ``fractions.Fraction``.

Both are about a two-player game, where every card you cannot see is either in your
opponent's hand or in the ocean, and every way of placing them that fits what you know is
equally likely (the textbook model). Their answers are the teacher's key's (:mod:`.key`);
tests/test_exercises.py checks its references against :class:`gofish_teach.probability.Facts`.

>>> import numpy as np
>>> hidden = P_HOLDS.make_hidden(np.random.default_rng(1))
>>> len(hidden), hidden[0].expected is None
(6, True)
"""
from __future__ import annotations

import math
from fractions import Fraction

from ..cards import ALL_RANKS
from .checking import Case, Exercise
from .game_logic import deck_strings, rank, show_cards

# --------------------------------------------------------------------------- 07 P(lucky draw)


def _p_lucky_cases() -> list[Case]:
    specs = [(["7♥", "7♣", "Q♦", "K♠"], "7", 5, (), 13, "two 7s unseen; the opponent holds none of them"),
             (["7♥", "Q♦", "K♠", "3♣", "3♦"], "3", 7, (), 13, "you asked for 3s"),
             (["9♠", "2♣", "2♦", "2♥"], "2", 4, ("5", "J"), 13, "two books on the table are cards you can see"),
             (["10♣", "10♦", "A♠"], "10", 6, ("K",), 13, "tens"),
             (["A♣", "2♦", "2♠"], "A", 3, ("3",), 4, "a 4-rank deck (A, 2, 3, 4) with a book of 3s"),
             (["4♣", "4♦", "4♥", "A♠", "2♠"], "4", 2, (), 4, "you hold three 4s: one is left")]
    return [_p_lucky_case(*spec) for spec in specs]


def _p_lucky_case(hand, r, opp, books, n_ranks, note):
    extra = (f", books={list(books)}" if books else "") + (f", n_ranks={n_ranks}" if n_ranks != 13 else "")
    return Case((list(hand), r, opp), None,
                f"p_lucky({show_cards(hand)}, {r!r}, opponent_size={opp}{extra})",
                kwargs={"books": list(books), "n_ranks": n_ranks}, note=note)


def _random_position(rng):
    """A two-player position from a real deal: a hand, the books laid, an opponent's hand size, a rank."""
    n_ranks = int(rng.choice([4, 6, 13]))
    deck = deck_strings(n_ranks, seed=int(rng.integers(2**31)))
    n_books = int(rng.integers(0, max(1, n_ranks // 3)))
    books = sorted({rank(c) for c in deck[:n_books * 3]}, key=ALL_RANKS.index)[:n_books]
    rest = [c for c in deck if rank(c) not in books]
    hand = rest[:int(rng.integers(1, min(8, len(rest) - 1) + 1))]
    unseen = len(rest) - len(hand)
    return hand, books, n_ranks, unseen


def _p_lucky_hidden(rng) -> list[Case]:
    cases = []
    while len(cases) < 6:
        hand, books, n_ranks, unseen = _random_position(rng)
        wanted = rank(hand[int(rng.integers(len(hand)))])
        most = min(unseen - (4 - [rank(c) for c in hand].count(wanted)), unseen - 1)  # it holds none of them
        if most < 0:
            continue
        cases.append(_p_lucky_case(hand, wanted, int(rng.integers(0, most + 1)), tuple(books), n_ranks,
                                   "a hidden case"))
    return cases


class ExactNumber(Exercise):
    """An exact answer: a ``Fraction`` (or an ``int``) of the expected value; a float gets a hint."""

    exact = True
    #: What the answer is, in the message for a NaN or an infinity.
    kind = "a number"

    def compare(self, expected, returned):
        if isinstance(returned, float) and math.isfinite(returned):
            close = abs(returned - float(expected)) < 1e-9
            return False, ("right value, but a float is rounded: return a fractions.Fraction" if close else
                           "return an exact fractions.Fraction, not a float")
        hint = ExactNumber.shape_hint(self, returned, None)
        if hint:
            return False, hint
        return returned == expected, ""

    def shape_hint(self, value, case):
        if isinstance(value, float) and not math.isfinite(value):
            return f"it returned {value!r}, not {self.kind}: return a fractions.Fraction"
        if isinstance(value, float):
            return "return an exact fractions.Fraction, not a float"
        if isinstance(value, bool) or not isinstance(value, (Fraction, int)):
            return f"return a fractions.Fraction, not a {type(value).__name__}"
        return ""

    def canonical(self, value, case):
        """An exact number as its lowest terms (``int`` 2 and ``Fraction(4, 2)`` alike); None for anything else."""
        if isinstance(value, bool) or not isinstance(value, (Fraction, int)):
            return None
        return str(Fraction(value))

    def near_misses(self, value, case):
        if isinstance(value, float) and math.isfinite(value):
            return [(Fraction(value).limit_denominator(10**7), "right value, but a float is rounded: return a "
                                                               "fractions.Fraction")]
        return []

    def show(self, value):
        if isinstance(value, Fraction):
            return f"Fraction({value.numerator}, {value.denominator})  (= {float(value):.4f})"
        return super().show(value)


class ExactProbability(ExactNumber):
    """An exact probability: as :class:`ExactNumber`, and a value outside [0, 1] is named as such."""

    kind = "a probability"

    def compare(self, expected, returned):
        if isinstance(returned, (Fraction, int)) and not isinstance(returned, bool) and not 0 <= returned <= 1:
            return False, "a probability lies between 0 and 1"
        return super().compare(expected, returned)

    def shape_hint(self, value, case):
        if isinstance(value, (Fraction, int)) and not isinstance(value, bool) and not 0 <= value <= 1:
            return "a probability lies between 0 and 1"
        return super().shape_hint(value, case)

    def canonical(self, value, case):
        form = super().canonical(value, case)
        return form if form is not None and 0 <= value <= 1 else None


P_LUCKY = ExactProbability("07-p-lucky", "p_lucky", "P(lucky draw), exactly, from a hand", "03",
                           "Count the unseen cards, and use what \"Go Fish!\" just told you about where they are.",
                           make_inputs=_p_lucky_cases, make_hidden=_p_lucky_hidden)


# --------------------------------------------------------------------------- 08 P(opponent holds)


def _p_holds_cases() -> list[Case]:
    specs = [(["7♥", "7♣", "Q♦", "K♠"], "7", 3, (), (), 13, "the textbook case: 1 - C(46,3)/C(48,3)"),
             (["7♥", "Q♦", "K♠", "3♣", "3♦"], "3", 7, (), (), 13, "a bigger hand to look into"),
             (["7♥", "Q♦", "K♠", "3♣", "3♦"], "3", 7, (), ("Q",), 13,
              "it said \"Go Fish!\" to Queens: its 7 cards are among the non-Queens"),
             (["A♣", "2♦"], "2", 5, ("3",), ("4",), 4, "a 4-rank deck, a book of 3s, and no 4s in its hand"),
             (["9♠", "J♣"], "J", 6, (), ("J",), 13, "it said \"Go Fish!\" to Jacks"),
             (["10♣", "10♦", "A♠"], "10", 20, ("K", "5"), ("A", "6"), 13, "tens, two books, two ranks it lacks")]
    return [_p_holds_case(*spec) for spec in specs]


def _p_holds_case(hand, r, opp, books, lacks, n_ranks, note):
    extra = ((f", books={list(books)}" if books else "") + (f", lacks={list(lacks)}" if lacks else "")
             + (f", n_ranks={n_ranks}" if n_ranks != 13 else ""))
    return Case((list(hand), r, opp), None,
                f"p_holds({show_cards(hand)}, {r!r}, opponent_size={opp}{extra})",
                kwargs={"books": list(books), "lacks": list(lacks), "n_ranks": n_ranks}, note=note)


def _p_holds_hidden(rng) -> list[Case]:
    cases = []
    while len(cases) < 6:
        hand, books, n_ranks, unseen = _random_position(rng)
        held = sorted({rank(c) for c in hand}, key=ALL_RANKS.index)
        others = [r for r in ALL_RANKS[:n_ranks] if r not in books and r not in held]
        lacks = [r for r in others if rng.random() < 0.3]
        pool = unseen - sum(4 for _ in lacks)  # ranks in no hand of mine: all four unseen
        if pool < 1:
            continue
        wanted = held[int(rng.integers(len(held)))]
        cases.append(_p_holds_case(hand, wanted, int(rng.integers(1, pool + 1)), tuple(books), tuple(lacks), n_ranks,
                                   "a hidden case"))
    return cases


P_HOLDS = ExactProbability("08-p-holds", "p_holds", "P(an opponent holds a rank), exactly, from stated facts", "02",
                           "Count hands with the hypergeometric law: 1 - P(none), and a stated fact shrinks the pool.",
                           make_inputs=_p_holds_cases, make_hidden=_p_holds_hidden)
