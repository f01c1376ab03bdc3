"""What an ask is: the one place that says which asks the rules allow, and why one is not allowed.

The only decision in Go Fish is an ask: whom to ask for what. :func:`legal_asks` lists the
asks a seat may make, from values alone (its held suits, the cards in books, its
opponents), so that a :class:`~gofish_teach.game.Game` and a :class:`~gofish_teach.view.View`
answer with the same body.
"""
from __future__ import annotations

from typing import Sequence

from .cards import SUITS


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
