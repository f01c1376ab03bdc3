"""Equilibrium and exploitability on the smallest decks, by counterfactual regret minimisation.

The whole game tree of a 2-player game on a tiny deck is built from the model (every deal,
every ask, every draw), each decision filed under the information set of the player to move
(what that player has observed). CFR+ (regret matching with regrets floored at zero, and a
linearly weighted average strategy) then converges to a Nash equilibrium. The game is
constant-sum (the two win shares add up to 1), so the equilibrium value is the game's value.

*Exploitability* of a strategy profile: what best responses gain against it, on average
over the two seats (half of the sum of both best responses' values minus 1, i.e. half the
"NashConv"); 0 exactly at an equilibrium. A built-in's exploitability is what the best
response gains against it beyond the game's value, averaged over the two seats.

>>> from gofish_teach import Rules
>>> game = Tree(Rules.preset("pond").replace(n_ranks=2, hand_size=1))
>>> eq = game.solve(iterations=200)
>>> round(eq.value, 4), eq.exploitability < 1e-3      # the seat moving first wins 17/35 of the time
(0.4857, True)
"""
from __future__ import annotations

import sys
from dataclasses import dataclass

from .model import Model

TERMINAL, CHANCE, DECISION = 0, 1, 2


@dataclass
class Equilibrium:
    """What :meth:`Tree.solve` found: the value for the seat moving first, exploitability, sizes."""

    value: float            # seat 0's win share when both play the average strategy
    exploitability: float   # half of what the two best responses gain against it
    iterations: int
    infosets: int
    nodes: int
    strategy: dict          # {(player, observations): {rank: probability}}


class Tree:
    """The full game tree of ``rules`` for 2 players (only small decks: it lists every history)."""

    def __init__(self, rules, max_nodes: int = 2_000_000):
        self.model = Model(rules, exact=False)
        self.kind, self.data, self.children = [], [], []
        self.infosets: dict = {}     # (player, observations) -> index
        self.actions: list = []      # per infoset: its ranks
        self.worlds: dict = {}       # decision node -> its position
        self.max_nodes = max_nodes
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20_000))
        try:
            deals = [(p, self._build(w, ((o[0],), (o[1],)))) for p, w, o in self.model.deals()]
        finally:
            sys.setrecursionlimit(limit)
        self.root = self._node(CHANCE, [p for p, _ in deals], [c for _, c in deals])

    def _node(self, kind, data, children) -> int:
        if len(self.kind) >= self.max_nodes:
            raise ValueError(f"bestplay.cfr: the game tree has more than {self.max_nodes:,} nodes; "
                             "equilibria are computed on the smallest decks only (2 ranks; 3 ranks are already too many)")
        self.kind.append(kind)
        self.data.append(data)
        self.children.append(children)
        return len(self.kind) - 1

    def _build(self, world, hist) -> int:
        if world.over:
            books = world.books
            share = 0.0 if books[0] < books[1] else (0.5 if books[0] == books[1] else 1.0)
            return self._node(TERMINAL, share, ())
        p = world.turn
        key = (p, hist[p])
        actions = self.model.asks(world)
        index = self.infosets.setdefault(key, len(self.infosets))
        if index == len(self.actions):
            self.actions.append(actions)
        kids = []
        for r in actions:
            outcomes = list(self.model.step(world, r))
            built = [self._build(w, (hist[0] + (o[0],), hist[1] + (o[1],))) for q, w, o in outcomes]
            kids.append(built[0] if len(built) == 1 else self._node(CHANCE, [q for q, w, o in outcomes], built))
        node = self._node(DECISION, (p, index), kids)
        self.worlds[node] = world
        return node

    # ------------------------------------------------------------------ CFR+
    def solve(self, iterations: int = 1000, target: float | None = None) -> Equilibrium:
        """Run CFR+ for ``iterations`` (stopping early once exploitability is below ``target``)."""
        regret = [[0.0] * len(a) for a in self.actions]
        total = [[0.0] * len(a) for a in self.actions]
        kind, data, children = self.kind, self.data, self.children

        def current(i):
            r = regret[i]
            s = sum(r)
            return [x / s for x in r] if s > 0 else [1.0 / len(r)] * len(r)

        def cfr(node, player, reach_me, reach_other, weight):
            k = kind[node]
            if k == TERMINAL:
                u = data[node]
                return u if player == 0 else 1.0 - u
            if k == CHANCE:
                return sum(p * cfr(c, player, reach_me, reach_other * p, weight)
                           for p, c in zip(data[node], children[node]))
            p, i = data[node]
            sigma = current(i)
            if p != player:
                s = total[i]
                for a, x in enumerate(sigma):
                    s[a] += weight * reach_other * x
                return sum(x * cfr(c, player, reach_me, reach_other * x, weight)
                           for x, c in zip(sigma, children[node]))
            values = [cfr(c, player, reach_me * x, reach_other, weight) for x, c in zip(sigma, children[node])]
            v = sum(x * u for x, u in zip(sigma, values))
            r = regret[i]
            for a, u in enumerate(values):
                r[a] = max(0.0, r[a] + reach_other * (u - v))
            return v

        done = 0
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20_000))
        try:
            for t in range(1, iterations + 1):
                for player in (0, 1):
                    cfr(self.root, player, 1.0, 1.0, t)
                done = t
                if target is not None and t % 50 == 0 and self._evaluate(total)[1] < target:
                    break
            value, exploit, strategy = self._evaluate(total)
        finally:
            sys.setrecursionlimit(limit)
        return Equilibrium(value, exploit, done, len(self.actions), len(self.kind), strategy)

    def _average(self, total) -> list:
        out = []
        for s in total:
            z = sum(s)
            out.append([x / z for x in s] if z > 0 else [1.0 / len(s)] * len(s))
        return out

    def _evaluate(self, total):
        avg = self._average(total)
        value = self.expected(avg)
        best0 = self.best_response(avg, 0)
        best1 = self.best_response(avg, 1)
        exploit = (best0 + best1 - 1.0) / 2
        keys = {i: key for key, i in self.infosets.items()}
        strategy = {keys[i]: dict(zip(self.actions[i], avg[i])) for i in range(len(avg))}
        return value, exploit, strategy

    def expected(self, sigma) -> float:
        """Seat 0's expected win share when both play ``sigma`` (per infoset, action probabilities)."""
        kind, data, children = self.kind, self.data, self.children

        def ev(node):
            k = kind[node]
            if k == TERMINAL:
                return data[node]
            if k == CHANCE:
                return sum(p * ev(c) for p, c in zip(data[node], children[node]))
            return sum(x * ev(c) for x, c in zip(sigma[data[node][1]], children[node]))
        return ev(self.root)

    def best_response(self, sigma, player: int) -> float:
        """The value to ``player`` of its best response to the other player playing ``sigma``."""
        kind, data, children = self.kind, self.data, self.children
        members: dict = {}

        def forward(node, w):
            k = kind[node]
            if k == CHANCE:
                for p, c in zip(data[node], children[node]):
                    forward(c, w * p)
            elif k == DECISION:
                p, i = data[node]
                if p == player:
                    members.setdefault(i, []).append((node, w))
                    for c in children[node]:
                        forward(c, w)
                else:
                    for x, c in zip(sigma[i], children[node]):
                        if x > 0:
                            forward(c, w * x)
        forward(self.root, 1.0)
        memo, choice = {}, {}

        def value(node):
            if node in memo:
                return memo[node]
            k = kind[node]
            if k == TERMINAL:
                v = data[node] if player == 0 else 1.0 - data[node]
            elif k == CHANCE:
                v = sum(p * value(c) for p, c in zip(data[node], children[node]))
            else:
                p, i = data[node]
                if p == player:
                    if i not in choice:
                        group = members.get(i, [(node, 1.0)])
                        n_actions = len(children[node])
                        scores = [sum(w * value(children[h][a]) for h, w in group) for a in range(n_actions)]
                        choice[i] = max(range(n_actions), key=scores.__getitem__)
                    v = value(children[node][choice[i]])
                else:
                    v = sum(x * value(c) for x, c in zip(sigma[i], children[node]) if x > 0)
            memo[node] = v
            return v
        return value(self.root)


def exploitability_of(rules, name: str, value: float) -> float:
    """What the exact best response gains against the built-in ``name`` beyond the game's ``value``
    (seat 0's equilibrium share), averaged over the two seats."""
    from .solve import Solver

    best0 = float(Solver(rules, name, 0).solve())
    best1 = float(Solver(rules, name, 1).solve())
    return ((best0 - value) + (best1 - (1 - value))) / 2
