"""Cards, ranks and suits: the small value types everything else is built from.

>>> Card("Q", "♥")
Card('Q', '♥')
>>> print(Card.parse("10s"))
10♠
>>> plural("K"), plural("7"), plural("A")
('Kings', '7s', 'Aces')
>>> ranks_for(4)
('A', '2', '3', '4')
"""
from __future__ import annotations

import enum
import functools
from typing import NamedTuple

#: Every rank label of a full deck, in deck order (Ace low).
ALL_RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
#: The four suits, in the order cards of one rank are numbered when a deck is given by rank.
SUITS: tuple[str, ...] = ("♣", "♦", "♥", "♠")

_SUIT_ALIASES = {"c": "♣", "d": "♦", "h": "♥", "s": "♠", "♣": "♣", "♦": "♦", "♥": "♥", "♠": "♠"}
_RANK_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}


class Card(NamedTuple):
    """One playing card. ``rank`` is a label such as ``'7'`` or ``'Q'``; ``suit`` one of ``SUITS``.

    >>> Card.parse("7h") == Card("7", "♥")
    True
    >>> sorted([Card("K", "♣"), Card("2", "♠"), Card("A", "♦")])  # sorts by label; see rank_key
    [Card('2', '♠'), Card('A', '♦'), Card('K', '♣')]
    """

    rank: str
    suit: str

    def __repr__(self) -> str:
        return f"Card({self.rank!r}, {self.suit!r})"

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Read ``'Q♥'``, ``'qh'``, ``'10S'`` and the like."""
        text = str(text).strip()
        if len(text) < 2:
            raise ValueError(f"card {text!r}: expected a rank and a suit, like 'Q♥' or '10s'")
        rank, suit = normalize_rank(text[:-1]), _SUIT_ALIASES.get(text[-1].lower())
        if suit is None:
            raise ValueError(f"card {text!r}: unknown suit {text[-1]!r} (use one of ♣♦♥♠ or c d h s)")
        return cls(rank, suit)


def parse_suit(text: object) -> str:
    """One suit, written as its symbol or its letter: ``'h'`` -> ``'♥'``; anything longer is an error.

    >>> parse_suit("h"), parse_suit(" ♠ ")
    ('♥', '♠')
    >>> parse_suit("ce♥")
    Traceback (most recent call last):
    ...
    ValueError: suit 'ce♥' is not one of ♣ ♦ ♥ ♠ (or c d h s)
    """
    suit = _SUIT_ALIASES.get(text.strip().lower()) if isinstance(text, str) else None
    if suit is None:
        raise ValueError(f"suit {text!r} is not one of {' '.join(SUITS)} (or c d h s)")
    return suit


def normalize_rank(label: object) -> str:
    """The canonical label for a rank written loosely: ``'q'`` -> ``'Q'``, ``'1'`` -> ``'A'``, ``10`` -> ``'10'``.

    >>> normalize_rank("q"), normalize_rank(10), normalize_rank("ace")
    ('Q', '10', 'A')
    """
    text = str(label).strip().upper()
    words = {"ACE": "A", "JACK": "J", "QUEEN": "Q", "KING": "K", "1": "A", "T": "10"}
    text = words.get(text, text)
    if text not in ALL_RANKS:
        raise ValueError(f"unknown rank {label!r}: ranks are {', '.join(ALL_RANKS)}")
    return text


def ranks_for(n_ranks: int) -> tuple[str, ...]:
    """The first ``n_ranks`` ranks, the ones a deck of that size uses."""
    if not 1 <= n_ranks <= len(ALL_RANKS):
        raise ValueError(f"n_ranks must be between 1 and {len(ALL_RANKS)}, not {n_ranks}")
    return ALL_RANKS[:n_ranks]


def name(rank: str) -> str:
    """The spoken name of one card of a rank: ``'Q'`` -> ``'Queen'``, ``'7'`` -> ``'7'``."""
    return _RANK_NAMES.get(rank, rank)


def plural(rank: str) -> str:
    """How players ask for a rank: ``'K'`` -> ``'Kings'``, ``'6'`` -> ``'6s'``."""
    return name(rank) + "s"


def make_deck(ranks: tuple[str, ...]) -> list[Card]:
    """A fresh, ordered deck: every suit of every rank."""
    return list(ordered_deck(tuple(ranks)))


@functools.lru_cache(maxsize=64)
def ordered_deck(ranks: tuple[str, ...]) -> tuple[Card, ...]:
    """The ordered deck of ``ranks``, made once (cards are immutable, so every game may share them)."""
    return tuple(Card(rank, suit) for rank in ranks for suit in SUITS)


@functools.lru_cache(maxsize=64)
def deck_set(ranks: tuple[str, ...]) -> frozenset[Card]:
    """Every card of ``ranks``, as a set (to check a deck holds each exactly once)."""
    return frozenset(ordered_deck(ranks))


class Word(str, enum.Enum):
    """A member of a closed set of words (a rule's options, a draw's source, why a game ended).

    Str-valued: it compares, hashes, prints, formats and shows (``repr``) as its text, so code
    comparing with strings, saved games and printed outputs are as with plain strings.

    >>> class Colour(Word):
    ...     RED = "red"
    >>> Colour.RED == "red", f"{Colour.RED}", [Colour("red")], Colour.RED is Colour("red")
    (True, 'red', ['red'], True)
    """

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    def __repr__(self) -> str:
        return repr(self.value)
