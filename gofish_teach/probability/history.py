"""What one player's view says about every hidden hand, read event by event.

The possible-worlds model: every deck order that would have produced exactly this view,
given the asks that were made, is equally likely. Count such worlds by what they put in
each hidden hand, with every card *labelled* (the k-th card dealt to a seat, the card of
its j-th draw): a world is then one labelled card per position, and the number of worlds
behind a final state is a product of one factor per hidden hand and one for the ocean.

Each event about a hidden hand constrains one rank of it, so it acts on that hand alone.
The events are read by :class:`~gofish_teach.record.Record`, which says what each one
means for which seat; :func:`read` turns that into the operations below:

======================================  =========================================
event                                   operation: effect on the hand's weights ``G(x)``
======================================  =========================================
dealt n unseen cards (or a new hand     :class:`DealOp`: every way to label them:
after an empty one)                     ``n!/prod(x!)``
asks for rank r                         :class:`AskOp`: keep ``x[r] >= 1``
says "Go Fish!" to r                    :class:`NoneOp`: keep ``x[r] == 0``
gives k of r away                       :class:`GiveOp`: keep ``x[r] == k``, then ``x[r] = 0``
is given k of r, or a lucky draw        :class:`ReceiveOp`: ``x[r] += k``
lays a book of r                        :class:`BookOp`: ``x[r] -= book_size``
draws an unseen card                    :class:`DrawOp`: ``sum over ranks r of G(x - e_r)``
                                        (not the rank it just asked for, which would
                                        have been shown)
the dust settles (books laid)           :class:`CapOp`: ``x[r] <= book_size - 1``, and no
                                        more than the cards of r the viewer does not
                                        hold or see booked
======================================  =========================================

An operation is a named tuple whose first item is its kind (``op[0] == "draw"``), which is
what :mod:`.pools`, :mod:`.hands` and :mod:`.exact` dispatch on; ranks are indices.

>>> from gofish_teach import Game, Rules
>>> game = Game(Rules.preset("pond").replace(n_ranks=3, hand_size=2), 2,
...             deck=["A", "A", "2", "A", "3", "3", "2", "A", "2", "3", "2", "3"])
>>> _ = game.ask(1, "2")
>>> story = read(game.view(0))
>>> story.ops[1]
[DealOp(count=2, allowed=(True, True, True)), CapOp(caps=(3, 3, 3)), NoneOp(rank=1)]
>>> story.ops[1][2] == ("none", 1)
True
>>> story.unseen, story.ocean
([3, 3, 3], 7)
"""
from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass, field

from ..cards import SUITS
from ..events import Reason
from ..record import (
    Asked,
    Booked,
    Dealt,
    Drew,
    Gave,
    Got,
    Lacks,
    Record,
    Settled,
    fished_for,  # noqa: F401  (facts and montecarlo import it from here)
)
from ..rules import End
from .modular import log2_multinomial

_DECK = len(SUITS)  # cards of each rank


def _operation(name: str, kind: str, fields: str, doc: str):
    """A named tuple type ``name(fields...)`` whose first item is always ``kind``."""
    base = namedtuple(name, ("kind", *fields.split()))

    class Operation(base):
        __slots__ = ()
        __doc__ = doc

        def __new__(cls, *values):
            return base.__new__(cls, kind, *values)

        def __getnewargs__(self):  # copies and pickles rebuild from the fields after kind
            return tuple(self)[1:]

        def __repr__(self):
            return f"{name}(" + ", ".join(f"{f}={v!r}" for f, v in zip(self._fields[1:], self[1:], strict=True)) + ")"

    Operation.__name__ = Operation.__qualname__ = name
    return Operation


DealOp = _operation("DealOp", "deal", "count allowed", "A new hand of ``count`` unseen cards, each of a rank ``allowed[r]``.")
AskOp = _operation("AskOp", "ask", "rank", "The hand holds at least one of ``rank``.")
NoneOp = _operation("NoneOp", "none", "rank", "The hand holds none of ``rank``.")
GiveOp = _operation("GiveOp", "give", "rank count", "The hand held exactly ``count`` of ``rank``; now none.")
ReceiveOp = _operation("ReceiveOp", "receive", "rank count", "``count`` more of ``rank``, seen arriving.")
BookOp = _operation("BookOp", "book", "rank", "A book of ``rank`` laid down.")
DrawOp = _operation("DrawOp", "draw", "allowed", "One unseen card, of a rank ``allowed[r]``.")
CapOp = _operation("CapOp", "cap", "caps", "At most ``caps[r]`` of each rank: the books are laid.")


class NotExact(ValueError):
    """The view has information the exact model does not capture (the reason says which)."""


@dataclass
class Story:
    """A view read for probability: per hidden seat, its operations in order.

    Attributes:
        seats: the hidden seats (every seat but the viewer's), ascending.
        ops: per seat, the operations on its hand weights (see the module docstring).
        unseen: cards of each rank neither in the viewer's hand nor in books, now.
        ocean: cards left in the ocean.
        log2_worlds: an upper bound on log2 of the number of deck orders behind the view.
        teams: the teams endgame, ``(team bit of each hidden seat, the viewer's team bit
            for each rank it holds or 0, mode)``: with the ocean empty, play going on
            (mode ``"going_on"``) says some ask can still succeed, and an end for want of
            one (``"stalemate"``) says none can. That is about several hands at once, but
            one rank at a time: no ask for a rank can succeed when its holders are all on
            one team. ``None`` otherwise.
    """

    seats: list[int]
    ops: dict[int, list[tuple]] = field(default_factory=dict)
    unseen: list[int] = field(default_factory=list)
    ocean: int = 0
    log2_worlds: float = 0.0
    teams: tuple | None = None


def read(view) -> Story:
    """Turn ``view.events`` into per-seat operations; :class:`NotExact` for ``specific_card`` rules."""
    rules, me = view.rules, view.player
    if rules.specific_card:
        raise NotExact("specific_card asks: a Go Fish answer is about one card, not a rank")
    index = {r: i for i, r in enumerate(view.ranks)}
    R, b = len(view.ranks), rules.book_size
    seats = [q for q in range(view.n_players) if q != me]
    story = Story(seats, {q: [] for q in seats})
    ops = story.ops
    mine, booked = [0] * R, [0] * R
    seen = [0] * R  # cards of each rank at deck positions the viewer saw turned over
    record = Record(view.n_players, rules)

    def caps():
        return tuple(min(b - 1, _DECK - mine[s] - booked[s]) for s in range(R))

    def allowed(excluded=None):
        return tuple(booked[s] < _DECK and s != excluded for s in range(R))

    def show(cards):
        for card in cards:
            seen[index[card.rank]] += 1

    for fact in (fact for event in view.events for fact in record.read(event)):
        kind, q = type(fact), fact.seat
        if kind is Settled:
            if q != me:
                ops[q].append(CapOp(caps()))
        elif kind is Dealt:
            if q == me:
                show(fact.cards)
                for card in fact.cards:
                    mine[index[card.rank]] += 1
            else:
                ops[q].append(DealOp(fact.count, allowed()))
        elif kind is Asked:
            if q != me and not rules.bluff:
                ops[q].append(AskOp(index[fact.rank]))
        elif kind is Lacks:
            if q != me:
                ops[q].append(NoneOp(index[fact.rank]))
        elif kind is Gave or kind is Got:
            s, k = index[fact.rank], fact.count
            if q == me:
                mine[s] += k if kind is Got else -k
            else:
                ops[q].append((ReceiveOp if kind is Got else GiveOp)(s, k))
        elif kind is Drew:
            if fact.cards is not None:  # a lucky draw, shown to all, or the viewer's own
                show(fact.cards)
                if q == me:
                    for card in fact.cards:
                        mine[index[card.rank]] += 1
                else:
                    ops[q].append(ReceiveOp(index[fact.cards[0].rank], 1))
            elif fact.fresh and fact.count > 1:
                ops[q].append(DealOp(fact.count, allowed()))  # a new hand: nothing was left to remember
            else:
                mask = allowed(index[fact.not_rank] if fact.not_rank else None)
                ops[q].extend(DrawOp(mask) for _ in range(fact.count))
        elif kind is Booked:
            s = index[fact.rank]
            booked[s] += b
            if q == me:
                mine[s] -= b
            else:
                ops[q].append(BookOp(s))
            if booked[s] == _DECK:
                for other in seats:
                    if other != q:
                        ops[other].append(NoneOp(s))
    for fact in record.settle():
        if fact.seat != me:
            ops[fact.seat].append(CapOp(caps()))
    ocean, over = record.ocean, record.over
    if rules.teams and not rules.bluff and ocean == 0 and rules.end != End.OCEAN_EMPTY:
        # Only a successful ask changes anything now, so a world stuck earlier would be stuck
        # still: what the view says is all about the hands as they are.
        mode = "going_on" if over is None else "stalemate" if over == Reason.STALEMATE else None
        if mode:
            team = [1 << min(q, rules.partner(q, view.n_players)) for q in range(view.n_players)]
            story.teams = ([team[q] for q in seats], [team[me] if c else 0 for c in mine], mode)
    story.unseen = [_DECK - mine[s] - booked[s] for s in range(R)]
    story.ocean = ocean
    story.log2_worlds = log2_multinomial([_DECK - c for c in seen])
    return story
