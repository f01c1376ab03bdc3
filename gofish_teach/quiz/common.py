"""Small helpers the items share: how numbers are written, and exact counts they use."""
from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from math import comb, factorial

from ..cards import ALL_RANKS, SUITS

RANK_WORDS = {"A": "Aces", "J": "Jacks", "Q": "Queens", "K": "Kings"}
NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def ranks_word(rank: str) -> str:
    """``"Q"`` -> ``"Queens"``, ``"7"`` -> ``"7s"``."""
    return RANK_WORDS.get(rank, f"{rank}s")


def words(n: int) -> str:
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def frac(x) -> str:
    """An exact value as text: ``947/3243``, or a whole number."""
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def dec(x, places: int = 4) -> str:
    return f"{float(x):.{places}f}"


def both(x, places: int = 4) -> str:
    """``947/3243 ≈ 0.2920`` (a whole number alone)."""
    x = Fraction(x)
    return frac(x) if x.denominator == 1 else f"{frac(x)} ≈ {dec(x, places)}"


def tex_frac(x) -> str:
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"\\frac{{{x.numerator}}}{{{x.denominator}}}"


def deck_dealing(mine: str, n_players: int, size: int, n_ranks: int = 13, seed: int = 0) -> list[str]:
    """A deck order that deals seat 0 the ranks in ``mine`` (suits in order), every other seat
    ``size`` cards from a seeded shuffle of the rest (no whole book in any hand), the rest the ocean."""
    taken, hand = Counter(), []
    for r in mine.split():
        hand.append(f"{r}{SUITS[taken[r]]}")
        taken[r] += 1
    assert len(hand) == size and max(taken.values()) < 4, mine
    rest = [f"{r}{s}" for r in ALL_RANKS[:n_ranks] for s in SUITS if f"{r}{s}" not in hand]
    rng = random.Random(seed)
    while True:
        rng.shuffle(rest)
        others = [rest[k * size:(k + 1) * size] for k in range(n_players - 1)]
        if all(max(Counter(c[:-1] for c in h).values()) < 4 for h in others):
            break
    seats = [hand] + others
    order = [seats[k % n_players][k // n_players] for k in range(size * n_players)]
    return order + rest[(n_players - 1) * size:]


def shapes(cards_: int, most: int = 4):
    """The ways to split ``cards_`` into counts per rank (each at most ``most``), largest first."""
    if cards_ == 0:
        yield ()
        return
    for first in range(min(cards_, most), 0, -1):
        for rest in shapes(cards_ - first, first):
            yield (first,) + rest


def hands_of_shape(shape: tuple, n_ranks: int) -> int:
    """How many hands have this shape (counts per rank) in a deck of ``n_ranks`` ranks of 4."""
    if len(shape) > n_ranks:
        return 0
    ways = factorial(n_ranks) // factorial(n_ranks - len(shape))
    for repeats in Counter(shape).values():
        ways //= factorial(repeats)
    for c in shape:
        ways *= comb(4, c)
    return ways


def poly_count(n_ranks: int, cards_: int, allowed) -> int:
    """Hands of ``cards_`` cards whose every rank count is in ``allowed``: the coefficient of
    x^cards in (sum over allowed c of C(4, c) x^c) ** n_ranks, a second way to count."""
    poly = [1]
    factor = [comb(4, c) if c in allowed else 0 for c in range(5)]
    for _ in range(n_ranks):
        out = [0] * (len(poly) + 4)
        for i, a in enumerate(poly):
            if a:
                for c, b in enumerate(factor):
                    out[i + c] += a * b
        poly = out
    return poly[cards_] if cards_ < len(poly) else 0
