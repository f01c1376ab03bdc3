"""Brute force for the probability tests: every deck the real engine could have dealt.

For a finished (or stopped) game and a viewer, walk over deck orders as a tree, one deck
position at a time in the order the engine uses them. At each node, build a real ``Game``
from the prefix (the rest of the deck in any fixed order) and replay the game's asks; stop
the replay where the viewer's events stop matching (a world that cannot be, with its whole
subtree), or where the engine needs a card the prefix does not fix (then branch on it). A
stage (the view after k asks) is recorded at the first node that completes it; its weight is
the number of orders of the cards the prefix leaves out, which the view cannot tell apart.

Ranks only: suits follow the order cards appear in, which no rule looks at when asks name a
rank; so a world is a sequence of ranks, and the events are compared with cards as ranks.
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement
from math import factorial

from gofish_teach import Card, Game, IllegalMove
from gofish_teach.cards import SUITS


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


def _deck(prefix, ranks):
    """Cards for a rank sequence (suits in order of appearance), then the rest in a fixed order."""
    used = Counter()
    cards = []
    for r in prefix:
        cards.append(Card(r, SUITS[used[r]]))
        used[r] += 1
    for r in ranks:
        for k in range(used[r], len(SUITS)):
            cards.append(Card(r, SUITS[k]))
    return cards


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
    out = {}

    def record(stage, g, weight):
        total, seats, ocean = out.setdefault(stage, [0, {q: {r: Counter() for r in ranks} for q in others},
                                                     {r: Counter() for r in ranks}])
        out[stage][0] += weight
        for q in others:
            for r in ranks:
                seats[q][r][g.count(q, r)] += weight
        left = Counter(c.rank for c in g.ocean())
        for r in ranks:
            ocean[r][left[r]] += weight

    def node(prefix, done_before, weight):
        """Replay as far as the prefix allows; returns nothing, recurses for more positions."""
        L = len(prefix)
        g = Game(rules, n, deck=_deck(prefix, ranks))
        used = len(g.deck) - g.ocean_size
        stage = 0
        if used > L:
            return branch(prefix, done_before, weight)
        while True:
            seen = g.view(viewer).events
            if len(seen) != lengths[stage] or [_plain(e) for e in seen] != final[:len(seen)]:
                return
            if stage > done_before:
                record(stage, g, weight * _orders(list((full - Counter(prefix)).values())))
            if stage == len(moves):
                return
            try:
                g.ask(*moves[stage])
            except IllegalMove:
                return
            stage += 1
            if len(g.deck) - g.ocean_size > L:
                # this ask needed a card the prefix leaves open; the stages so far are recorded
                return branch(prefix, max(done_before, stage - 1), weight)

    def branch(prefix, done_before, weight):
        left = full - Counter(prefix)
        for r in ranks:
            if left[r]:
                node(prefix + [r], done_before, weight)

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
            for q, combo in zip(others, chosen):
                prefix[q + n * k] = combo[k]
        node(prefix, -1, weight)
    return {k: tuple(v) for k, v in out.items()}
