"""What one player's view says about every hidden hand, read event by event.

The possible-worlds model: every deck order that would have produced exactly this view,
given the asks that were made, is equally likely. Count such worlds by what they put in
each hidden hand, with every card *labelled* (the k-th card dealt to a seat, the card of
its j-th draw): a world is then one labelled card per position, and the number of worlds
behind a final state is a product of one factor per hidden hand and one for the ocean.

Each event about a hidden hand constrains one rank of it, so it acts on that hand alone:

==================================  =========================================
event                               effect on the hand's weights ``G(x)``
==================================  =========================================
dealt n unseen cards (or a new     every way to label them: ``n!/prod(x!)``
hand after an empty one)
asks for rank r                     keep ``x[r] >= 1``
says "Go Fish!" to r                keep ``x[r] == 0``
gives k of r away                   keep ``x[r] == k``, then ``x[r] = 0``
is given k of r, or a lucky draw    ``x[r] += k``
lays a book of r                    ``x[r] -= book_size``
draws an unseen card                ``sum over ranks r of G(x - e_r)`` (not the rank it
                                    just asked for, which would have been shown)
the dust settles (books laid)       ``x[r] <= book_size - 1``, and no more than the
                                    cards of r the viewer does not hold or see booked
==================================  =========================================

>>> from gofish_teach import Game, Rules
>>> game = Game(Rules.preset("pond").replace(n_ranks=3, hand_size=2), 2,
...             deck=["A", "A", "2", "A", "3", "3", "2", "A", "2", "3", "2", "3"])
>>> _ = game.ask(1, "2")
>>> story = read(game.view(0))
>>> story.ops[1]
[('deal', 2, (True, True, True)), ('cap', (3, 3, 3)), ('none', 1)]
>>> story.unseen, story.ocean
([3, 3, 3], 7)
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..events import Ask, Book, Deal, Draw, GameOver, GoFish, Give
from ..cards import SUITS
from .modular import log2_multinomial

_DECK = len(SUITS)  # cards of each rank


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


def fished_for(draw, last_ask) -> str | None:
    """The rank a hidden draw after "Go Fish!" cannot be: the one just asked for (drawing it
    would have been shown as a lucky draw). ``None`` for any other draw."""
    if draw.source == "fish" and last_ask is not None and last_ask.player == draw.player:
        return last_ask.rank
    return None


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
    mine, booked, sizes = [0] * R, [0] * R, [0] * view.n_players
    seen = [0] * R  # cards of each rank at deck positions the viewer saw turned over
    unsettled: set[int] = set()
    ocean, last_ask, over = _DECK * R, None, None

    def caps():
        return tuple(min(b - 1, _DECK - mine[s] - booked[s]) for s in range(R))

    def allowed(excluded=None):
        return tuple(booked[s] < _DECK and s != excluded for s in range(R))

    for event in view.events:
        kind = type(event)
        if kind is not Deal and kind is not Book and unsettled:
            for q in sorted(unsettled):
                ops[q].append(("cap", caps()))
            unsettled.clear()
        if kind is Deal:
            q = event.player
            sizes[q] += event.count
            ocean -= event.count
            if q == me:
                for card in event.cards:
                    mine[index[card.rank]] += 1
                    seen[index[card.rank]] += 1
            else:
                ops[q].append(("deal", event.count, allowed()))
                unsettled.add(q)
        elif kind is Ask:
            last_ask = event
            if event.player != me and not rules.bluff:
                ops[event.player].append(("ask", index[event.rank]))
        elif kind is GoFish:
            if event.player != me:
                ops[event.player].append(("none", index[event.rank]))
        elif kind is Give:
            s, k = index[event.rank], event.count
            sizes[event.player] -= k
            sizes[event.to] += k
            if event.player == me:
                mine[s] -= k
            else:
                ops[event.player].append(("give", s, k))
            if event.to == me:
                mine[s] += k
            else:
                ops[event.to].append(("receive", s, k))
                unsettled.add(event.to)
        elif kind is Draw:
            q, count = event.player, event.count
            ocean -= count
            if event.lucky or q == me:
                for card in event.cards:
                    seen[index[card.rank]] += 1
                    if q == me:
                        mine[index[card.rank]] += 1
                if q != me:
                    ops[q].append(("receive", index[event.cards[0].rank], 1))
            elif sizes[q] == 0 and count > 1:
                ops[q].append(("deal", count, allowed()))  # a new hand: nothing was left to remember
            else:
                asked = fished_for(event, last_ask)
                mask = allowed(index[asked] if asked else None)
                ops[q].extend(("draw", mask) for _ in range(count))
            sizes[q] += count
            if q != me:
                unsettled.add(q)
        elif kind is Book:
            s = index[event.rank]
            sizes[event.player] -= b
            booked[s] += b
            if event.player == me:
                mine[s] -= b
            else:
                ops[event.player].append(("book", s))
            if booked[s] == _DECK:
                for q in seats:
                    if q != event.player:
                        ops[q].append(("none", s))
        elif kind is GameOver:
            over = event.reason
    for q in sorted(unsettled):
        ops[q].append(("cap", caps()))
    if rules.teams and not rules.bluff and ocean == 0 and rules.end != "ocean_empty":
        # Only a successful ask changes anything now, so a world stuck earlier would be stuck
        # still: what the view says is all about the hands as they are.
        mode = "going_on" if over is None else "stalemate" if "ask can succeed" in over else None
        if mode:
            team = [1 << min(q, rules.partner(q, view.n_players)) for q in range(view.n_players)]
            story.teams = ([team[q] for q in seats], [team[me] if c else 0 for c in mine], mode)
    story.unseen = [_DECK - mine[s] - booked[s] for s in range(R)]
    story.ocean = ocean
    story.log2_worlds = log2_multinomial([_DECK - c for c in seen])
    return story
