"""Brute force for the probability tests: every deck the real engine could have dealt.

For a finished (or stopped) game and a viewer, walk over deck orders as a tree, one deck
position at a time in the order the engine uses them. At each node, the real ``Game`` plays
the game's asks with the prefix as the top of its deck (the rest of the deck in any fixed
order); stop where the viewer's events stop matching (a world that cannot be, with its whole
subtree), or where the engine needs a card the prefix does not fix (then branch on it, unless
the events logged before that card was drawn already differ: the whole subtree cannot be). A
stage (the view after k asks) is recorded at the first node that completes it; its weight is
the number of orders of the cards the prefix leaves out, which the view cannot tell apart.

A child node does not replay the asks from the deal: everything before the ask that needed
the open card used only cards of the prefix, which the child shares, so the child starts from
a copy of the game as it stood before that ask (with the longer prefix as its deck) and plays
that ask again. Only the deal itself, when it already needs an open card (a book laid at the
deal empties a hand, which then draws), is redone from a new ``Game``.

Ranks only: suits follow the order cards appear in, which no rule looks at when asks name a
rank; so a world is a sequence of ranks, and the events are compared with cards as ranks.
"""
from __future__ import annotations

import copy
from collections import Counter
from itertools import combinations_with_replacement
from math import factorial

from gofish_teach import Card, Game, IllegalMove, Rules
from gofish_teach.cards import SUITS
from gofish_teach.events import Draw
from gofish_teach.record import Record


def _plain(event):
    fields = event._asdict()
    if fields.get("cards") is not None:
        fields["cards"] = tuple(c.rank for c in fields["cards"])
    return (type(event).__name__,) + tuple(fields.values())


def _orders(counts) -> int:
    n = factorial(sum(counts))
    for c in counts:
        n //= factorial(c)
    return n


class _Cards(dict):
    """``_CARDS[rank, k]``: the card of ``rank`` in the k-th suit, made once."""

    def __missing__(self, key):
        rank, k = key
        self[key] = card = Card(rank, SUITS[k])
        return card


_CARDS = _Cards()


def _deck(prefix, ranks):
    """Cards for a rank sequence (suits in order of appearance), then the rest in a fixed order."""
    used = dict.fromkeys(ranks, 0)
    cards = []
    for r in prefix:
        k = used[r]
        cards.append(_CARDS[r, k])
        used[r] = k + 1
    for r in ranks:
        cards.extend(_CARDS[r, k] for k in range(used[r], len(SUITS)))
    return cards


#: How a copy of a ``Game`` copies each part of its state that play changes in place (the
#: rest is immutable, or set up once in ``__init__`` and only read: those the copy shares).
#: Written out for speed, ~3 times quicker than walking the values by type; a part this
#: table does not name is copied by :func:`_copied`, and ``tests/test_enumerate_worlds.py``
#: checks that no list or dict of a copy is also the original's.
_COPY = {
    "_hands": lambda hands: [list(hand) for hand in hands],  # of tuples, replaced rather than changed
    "_books": lambda books: [list(b) for b in books],
    "_private": lambda private: [dict(seen) for seen in private],
    "_own": list,  # of tuples, replaced rather than changed
    "_sizes": list, "_booked": list, "_events": list, "_moves": list,
    "_record": Record.copy,  # the public log as read so far, read on in place
}
_SET_UP = {"_rank_index", "_opponents"}  # made in __init__, never changed
_KNOWN = _COPY.keys() | _SET_UP
#: Values that are never changed in place, so a copy may share them (a game's tuples hold
#: events, cards and names, which are immutable too).
_SHARED = (int, str, float, type(None), tuple, frozenset, Rules)


def _copied(value):
    """``value`` with every list and dict in it copied, and immutable values shared."""
    if isinstance(value, _SHARED):
        return value
    if type(value) is list:
        return [_copied(v) for v in value]
    if type(value) is dict:
        return {k: _copied(v) for k, v in value.items()}
    if type(value) is Record:
        return value.copy()
    return copy.deepcopy(value)  # anything else: slower, and just as independent


def copy_game(game: Game) -> Game:
    """An independent copy of ``game``: asks played on one leave the other as it was.

    ``copy.deepcopy`` would do, but is ~80 times slower: it also walks every event and card.

    >>> game, fresh = Game("pond", 2, seed=3), Game("pond", 2, seed=3)
    >>> other = copy_game(game)
    >>> other.ask(*other.legal_asks()[0]) == fresh.ask(*fresh.legal_asks()[0])
    True
    >>> other.hand(0) == fresh.hand(0), game.n_asks, game.hand(0) == Game("pond", 2, seed=3).hand(0)
    (True, 0, True)
    """
    state = dict(game.__dict__)
    for name, how in _COPY.items():
        if name in state:
            state[name] = how(state[name])
    for name in state.keys() - _KNOWN:
        if not isinstance(state[name], _SHARED):  # most are: shared without a call
            state[name] = _copied(state[name])
    other = Game.__new__(Game)
    other.__dict__ = state
    return other


def stage_counts(game: Game, viewer: int):
    """``{k: (total, seats, ocean)}``: integer world counts for the view after k asks.

    ``seats[q][rank] = Counter({count: worlds})`` for every seat but the viewer, and
    ``ocean[rank]`` likewise, over every deck consistent with the viewer's view at stage k.
    """
    rules, n, ranks = game.rules, game.n_players, game.ranks
    moves = game.moves
    final = [_plain(e) for e in game.view(viewer).events]
    real = Game(rules, n, deck=game.deck)
    lengths = [len(real.events)]  # the viewer's log at each stage, in the real game
    for move in moves:
        real.ask(*move)
        lengths.append(len(real.events))
    full = Counter({r: len(SUITS) for r in ranks})
    deal = rules.deal_size(n)
    mine = [c.rank for c in game.view(viewer).events[viewer].cards]
    others = [q for q in range(n) if q != viewer]
    worlds = Counter()  # (stage, each other seat's ranks, the ocean's ranks) -> worlds

    def record(stage, g, weight):
        hands = tuple(tuple(c.rank for c in g.hand(q)) for q in others)  # sorted by rank
        worlds[stage, hands, tuple(sorted(c.rank for c in g.ocean()))] += weight

    def impossible(g, stage, drawn, L):
        """After an ask (or the deal, ``stage`` 0) that needed an open card: True if the events
        logged before that card was drawn already differ from the viewer's. Those events are
        the same for every deck this prefix starts (a card shows in the log first in the
        ``Draw`` that takes it, and nothing is logged between taking it and that ``Draw``),
        so then no deck in this subtree plays as the viewer saw, and it need not be walked.
        ``drawn`` is how many cards were used before the ask (or by the deal's hands), ``L``
        how many the prefix fixes."""
        checked = lengths[stage - 1] if stage else 0
        events = g.events
        for fixed in range(checked, len(events)):
            if type(events[fixed]) is Draw:
                drawn += events[fixed].count
                if drawn > L:
                    break
        else:
            return False  # no Draw took the open card: nothing is known to be fixed; walk on
        seen = g.view(viewer).events
        return [_plain(e) for e in seen[checked:fixed]] != final[checked:fixed]

    def node(deck, L, unfixed, done_before, weight, before=None, stage=0):
        """Play on as far as the deck's first ``L`` cards (the prefix) allow; recurses for more.

        ``unfixed`` is the number of rank orders of the cards after the prefix. ``before`` is
        the game after ``stage`` asks, which used only cards of the prefix but its last, and
        whose next ask needed that last card; ``None`` deals a new game.
        """
        if before is None:
            g = Game(rules, n, deck=deck)
            if len(g.deck) - g.ocean_size > L:
                if impossible(g, 0, deal * n, L):
                    return
                return branch(deck, L, unfixed, done_before, weight)
        else:
            g = copy_game(before)
            g.deck = deck  # the same cards as before's deck where before has drawn
            g.ask(*moves[stage])  # legal: the parent made this very ask from this very state
            stage += 1
            if len(g.deck) - g.ocean_size > L:
                if impossible(g, stage, len(before.deck) - before.ocean_size, L):
                    return
                return branch(deck, L, unfixed, max(done_before, stage - 1), weight, before, stage - 1)
        while True:
            seen = g.view(viewer).events
            # the events up to the last stage are the ones already checked on the way here
            checked = lengths[stage - 1] if stage else 0
            if len(seen) != lengths[stage] or [_plain(e) for e in seen[checked:]] != final[checked:len(seen)]:
                return
            if stage > done_before:
                record(stage, g, weight * unfixed)
            if stage == len(moves):
                return
            before, g = g, copy_game(g)
            try:
                g.ask(*moves[stage])
            except IllegalMove:
                return
            stage += 1
            if len(g.deck) - g.ocean_size > L:
                # this ask needed a card the prefix leaves open; the stages so far are recorded
                if impossible(g, stage, len(before.deck) - before.ocean_size, L):
                    return
                return branch(deck, L, unfixed, max(done_before, stage - 1), weight, before, stage - 1)

    def branch(deck, L, unfixed, done_before, weight, before=None, stage=0):
        """Fix position ``L`` to each rank left: its next suit moves up from the rest of the deck
        (the rest stays in the fixed order ``_deck`` gives, as if the prefix had one card more)."""
        fixed, rest = deck[:L], deck[L:]
        left = Counter(c.rank for c in rest)
        for j, card in enumerate(rest):
            if j and rest[j - 1].rank == card.rank:
                continue  # the rest is in rank order: only the first card of each rank moves up
            node(fixed + (card,) + rest[:j] + rest[j + 1:], L + 1, unfixed * left[card.rank] // len(rest),
                 done_before, weight, before, stage)

    # the deal: the viewer's cards are known; each other hand as a multiset times its orders
    pool = full - Counter(mine)

    def hands(i, pool):
        if i == len(others):
            yield []
            return
        for combo in combinations_with_replacement(ranks, deal):
            c = Counter(combo)
            if all(c[r] <= pool[r] for r in c):
                for rest in hands(i + 1, pool - c):
                    yield [combo] + rest

    for chosen in hands(0, pool):
        weight = 1
        for combo in chosen:
            weight *= _orders(list(Counter(combo).values()))
        prefix = [None] * (deal * n)
        for k in range(deal):
            prefix[viewer + n * k] = mine[k]
            for q, combo in zip(others, chosen, strict=True):
                prefix[q + n * k] = combo[k]
        node(tuple(_deck(prefix, ranks)), len(prefix), _orders(list((full - Counter(prefix)).values())), -1, weight)
    out = {}
    for (stage, hands, sea), weight in worlds.items():
        if stage not in out:
            out[stage] = [0, {q: {r: Counter() for r in ranks} for q in others}, {r: Counter() for r in ranks}]
        out[stage][0] += weight
        for q, hand in zip(others, hands, strict=True):
            for r in ranks:
                out[stage][1][q][r][hand.count(r)] += weight
        for r in ranks:
            out[stage][2][r][sea.count(r)] += weight
    return {k: tuple(v) for k, v in sorted(out.items())}
