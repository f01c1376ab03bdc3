"""What an ask is: the one place that says which asks the rules allow, and why one is not allowed.

The only decision in Go Fish is an ask: whom to ask for what. Everything here works from
values alone (seats, the asker's held suits, the cards in books, its opponents), so that a
:class:`~gofish_teach.game.Game` and a :class:`~gofish_teach.view.View` answer with the same body:

- :func:`as_move`: the shape of what a strategy returned (every place that takes one uses it);
- :func:`parse_ask`: its parts as a seat, a rank of the deck and a suit, or :class:`InvalidAsk`;
- :func:`why_illegal`: the rule a well-formed ask breaks, as the sentence the game raises;
- :func:`legal_asks`: every ask a seat may make.

:class:`IllegalMove` is any ask refused (still importable from :mod:`gofish_teach.game`);
:class:`InvalidAsk`, its subclass, one that is not a move at all.
"""
from __future__ import annotations

import numbers
import reprlib
from typing import Sequence

from .cards import SUITS, normalize_rank, parse_suit, plural

_repr = reprlib.Repr()
_repr.maxstring = _repr.maxother = 60


class IllegalMove(ValueError):
    """An ask the rules do not allow. The message names the rule; the game is unchanged."""


def legal_asks(rules, ranks: Sequence[str], held: Sequence, booked: Sequence[int], opponents: Sequence[int]) -> list[tuple]:
    """Every ask a seat may make: ``(target, rank)``, or ``(target, rank, suit)`` for card asks.

    ``held[i]``: the suits of ``ranks[i]`` the seat holds; ``booked[i]``: cards of ``ranks[i]``
    laid in books (read only under bluffing, where any rank not wholly in books may be asked
    for); ``opponents``: the seats it may ask. Seats ascending outermost, then ranks in deck
    order, then suits in :data:`~gofish_teach.cards.SUITS` order.

    >>> from gofish_teach import Rules
    >>> legal_asks(Rules.preset("pond"), ("A", "2", "3"), ((), ("♣",), ("♦", "♥")), (0, 0, 0), (1, 2))
    [(1, '2'), (1, '3'), (2, '2'), (2, '3')]
    """
    if rules.bluff:
        wanted = [i for i, b in enumerate(booked) if b < len(SUITS)]
    else:
        wanted = [i for i, suits in enumerate(held) if suits]
    if not rules.specific_card:
        labels = [ranks[i] for i in wanted]
        return [(t, r) for t in opponents for r in labels]
    return [(t, ranks[i], s) for t in opponents for i in wanted for s in SUITS if s not in held[i]]


class InvalidAsk(IllegalMove):
    """Not a move at all: not ``(target, rank)`` or ``(target, rank, suit)`` with a seat, a rank
    of this deck and (only under ``specific_card`` rules) a suit. An :class:`IllegalMove` too,
    so code that catches that catches this."""


def shown_value(value) -> str:
    """A value for an error message: whole numbers (numpy ones too) as plain ints, anything else a short repr."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return str(int(value))
    return _repr.repr(value)


def is_whole(value) -> bool:
    """A whole number (``int`` or a numpy integer), but not ``True``/``False``."""
    if type(value) is int:  # the usual case, without the slower check against the abstract class
        return True
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def as_move(move) -> tuple:
    """What a strategy returned, as a tuple ``(target, rank)`` or ``(target, rank, suit)``:
    the one check of a move's shape, for every place that takes a strategy's move (a list is
    taken as a tuple: JSON carries tuples as lists).

    >>> as_move([1, "7"])
    (1, '7')
    >>> as_move("7")
    Traceback (most recent call last):
    ...
    gofish_teach.asks.InvalidAsk: a strategy must return (target, rank), not '7'
    """
    if type(move) is tuple and 2 <= len(move) <= 3:
        return move
    if not isinstance(move, (tuple, list)) or len(move) not in (2, 3):
        raise InvalidAsk(f"a strategy must return (target, rank), not {move!r}")
    return tuple(move)


def parse_ask(target, rank, suit, *, n_players: int, ranks: Sequence[str], rank_index: dict,
              specific_card: bool, player=None) -> tuple[int, int, str | None, int | None]:
    """An ask's parts as ``(target, rank index, suit, player)``, or :class:`InvalidAsk` naming
    the part that is not a seat, a rank of the deck or a suit (or a suit given or missing
    against the rules). Nothing about whose turn it is or what anyone holds: see :func:`why_illegal`.

    >>> from gofish_teach import Rules
    >>> ranks = Rules.preset("pond").ranks
    >>> parse_ask(1, "q", None, n_players=3, ranks=ranks, rank_index={r: i for i, r in enumerate(ranks)}, specific_card=False)
    (1, 11, None, None)
    """
    if player is not None:
        if not is_whole(player) or not 0 <= player < n_players:
            raise InvalidAsk(f"player {shown_value(player)} is not a seat: seats are 0 to {n_players - 1}")
        player = int(player)
    if not is_whole(target) or not 0 <= target < n_players:
        raise InvalidAsk(f"target {shown_value(target)} is not a seat: seats are 0 to {n_players - 1}")
    r = rank_index.get(rank) if isinstance(rank, str) else None  # a list or dict is not hashable
    if r is None:
        try:
            r = rank_index[normalize_rank(rank)]
        except (ValueError, KeyError):
            raise InvalidAsk(f"rank {shown_value(rank)} is not in this deck: ranks are {', '.join(ranks)}") from None
    if specific_card:
        if suit is None:
            raise InvalidAsk("suit: these rules ask for a specific card, so name its suit too")
        try:
            suit = parse_suit(suit)  # the suit alone: "ce♥" after "A" must not read as "Ace♥"
        except ValueError:
            raise InvalidAsk(f"suit {shown_value(suit)} is not one of {' '.join(SUITS)}") from None
    elif suit is not None:
        raise InvalidAsk("suit: these rules ask for a whole rank, not a specific card")
    return int(target), r, suit, player


def why_illegal(asker: int, target: int, r: int, suit: str | None, *, ranks: Sequence[str], held: Sequence,
                booked: Sequence[int], opponents: Sequence[int], bluff: bool, player: int | None = None) -> str | None:
    """The rule a parsed ask (:func:`parse_ask`) breaks, as the sentence the game raises, or
    ``None`` if the rules allow it. ``asker`` is the seat whose turn it is; ``held``, ``booked``
    and ``opponents`` as for :func:`legal_asks` (the asker's).

    >>> why_illegal(0, 0, 6, None, ranks="A 2 3 4 5 6 7".split(), held=[()] * 7, booked=[0] * 7,
    ...             opponents=(1, 2), bluff=False)
    'player 0 cannot ask themself: ask an opponent'
    """
    if player is not None and player != asker:
        return f"it is player {asker}'s turn, not player {player}'s"
    if target == asker:
        return f"player {asker} cannot ask themself: ask an opponent"
    if target not in opponents:
        return f"player {target} is player {asker}'s partner, and partners may not ask each other"
    label = ranks[r]
    if booked[r] == len(SUITS):
        return f"all the {plural(label)} are in books on the table, so cannot be asked for"
    if not bluff and not held[r]:
        return f"player {asker} holds no {plural(label)}, so cannot ask for {plural(label)}"
    if suit is not None and suit in held[r]:
        return f"player {asker} already holds the {label}{suit}, so cannot ask for it"
    return None
