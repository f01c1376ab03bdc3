"""The whole game tree of a two-player game on a small deck, as flat arrays, with its information sets.

Every deal, every ask and every draw is a node; each decision is filed under the *information
set* of the player to move: everything that player has observed (its own cards and draws, every
public event), as the model's observation tuples (:mod:`~gofish_teach.bestplay.model`). The
tree is built in two steps: the graph of positions (a few thousand
:class:`~gofish_teach.bestplay.model.World` s, each asked and stepped once in Python), then its
unfolding into histories, compiled (:func:`~gofish_teach.bestplay.kernels.expand`), each seat's
observations numbered in a trie as they grow. So the 3.3 million nodes of pond with 3 ranks and
2 cards each take seconds, not the minutes a Python node per history would.

A *strategy profile* ``sigma`` is one flat array: information set ``I``'s probabilities of its
asks are ``sigma[offset[I]:offset[I] + nact[I]]``, for the ranks ``ranks[offset[I]:...]``.

>>> from gofish_teach import Rules
>>> tree = Tree(Rules.preset("pond").replace(n_ranks=2, hand_size=2))
>>> tree.nodes, tree.infosets                 # decision, chance and terminal nodes; information sets
(596, 341)
>>> mem = tree.profile("memory")              # both seats playing memory
>>> round(tree.expected(mem), 4), round(tree.best_response(mem, 0), 4)   # memory's share, best response's
(0.4857, 0.5857)
"""
from __future__ import annotations

from functools import partial

import numpy as np

from . import kernels
from .contract import GameModel
from .kernels import DECISION
from .model import Model

#: The largest tree built by default: 60 million nodes need about 13 GiB (see BYTES_PER_NODE).
MAX_NODES = 60_000_000
#: Peak memory a node takes while the tree is built and solved, measured: the solve command's peak
#: resident set grows by 1.40 GiB from 0.55 million nodes (3 ranks, 3 cards each) to 7.1 million
#: (3 ranks, 1 card each), 229 bytes a node; the build's working arrays and its trie are most of it.
BYTES_PER_NODE = 230


class Tree:
    """The full game tree of ``rules`` for 2 players (small decks only: it lists every history).

    Raises ``ValueError`` naming the size when the tree has more than ``max_nodes`` nodes.
    """

    def __init__(self, rules, max_nodes: int = MAX_NODES):
        self.rules = rules
        self.model: GameModel = Model(rules, exact=False)
        model = self.model
        self.worlds, self.chunks = [], []
        world_ids, chunk_ids = {}, {}
        world_id = partial(_number, world_ids, self.worlds)
        chunk_id = partial(_number, chunk_ids, self.chunks)
        deals = [(p, world_id(w), chunk_id(o[0]), chunk_id(o[1])) for p, w, o in model.deals()]
        over, turn, halves, act_start, act_count = [], [], [], [], []
        a_rank, a_out_start, a_out_count = [], [], []
        o_prob, o_child, o_obs0, o_obs1 = [], [], [], []
        w = 0
        while w < len(self.worlds):  # every position reachable from a deal, each stepped once
            world = self.worlds[w]
            over.append(world.over)
            turn.append(world.turn)
            b0, b1 = world.books
            halves.append(2 if b0 > b1 else (1 if b0 == b1 else 0))
            act_start.append(len(a_rank))
            asks = [] if world.over else model.asks(world)
            act_count.append(len(asks))
            for r in asks:
                a_rank.append(r)
                a_out_start.append(len(o_prob))
                outcomes = model.step(world, r)
                a_out_count.append(len(outcomes))
                for q, child, (obs0, obs1) in outcomes:
                    o_prob.append(q)
                    o_child.append(world_id(child))
                    o_obs0.append(chunk_id(obs0))
                    o_obs1.append(chunk_id(obs1))
            w += 1
        self._chunk_ids = chunk_ids
        i64 = lambda xs: np.asarray(xs, np.int64)  # noqa: E731
        graph = (np.asarray(over, np.bool_), np.asarray(turn, np.int8), np.asarray(halves, np.int8), i64(act_start),
                 i64(act_count), i64(a_out_start), i64(a_out_count), np.asarray(o_prob, np.float64), i64(o_child),
                 i64(o_obs0), i64(o_obs1))
        deal_prob = np.asarray([d[0] for d in deals], np.float64)
        deal_world, deal_obs0, deal_obs1 = (i64([d[k] for d in deals]) for k in (1, 2, 3))
        self.nodes = int(kernels.count_nodes(graph[0], graph[3], graph[4], graph[5], graph[6], graph[8], deal_world))
        if self.nodes > max_nodes:
            raise ValueError(
                f"bestplay: the game tree of {_name(rules)} has {self.nodes:,} nodes, more than {max_nodes:,} "
                f"(it would take about {self.nodes * BYTES_PER_NODE / 2**30:.0f} GiB); deal more cards or use fewer ranks")
        (self.kind, self.first, self.count, self.prob, self.halves, world, hist, depth, self._hist_parent,
         self._hist_chunk) = kernels.expand(self.nodes, *graph, deal_prob, deal_world, deal_obs0, deal_obs1,
                                            len(self.chunks))
        self.world = world
        # information sets: the decision nodes by the mover's history
        decisions = np.flatnonzero(self.kind == DECISION)
        self._iset_hist, node_of, inverse = np.unique(hist[decisions], return_index=True, return_inverse=True)
        self.iset = np.full(self.nodes, -1, np.int32)
        self.iset[decisions] = inverse
        self.iset_node = decisions[node_of]
        self.infosets = len(self.iset_node)
        self.iset_player = graph[1][world[self.iset_node]]
        self.iset_depth = depth[self.iset_node].astype(np.int64)
        self.nact = self.count[self.iset_node].astype(np.int64)
        self.offset = np.concatenate(([0], np.cumsum(self.nact)[:-1])).astype(np.int64)
        self._act_start = act_start = graph[3]
        self.ranks = np.empty(int(self.nact.sum()), np.int64)
        self._a_rank = a_rank = i64(a_rank)
        for a in range(int(self.nact.max())):
            has = self.nact > a
            self.ranks[self.offset[has] + a] = a_rank[act_start[world[self.iset_node[has]]] + a]
            # perfect recall: every node of a set offers the asks of its first node (the mover's hand)
            at = decisions[self.count[decisions] > a]
            if not np.array_equal(a_rank[act_start[world[at]] + a], self.ranks[self.offset[self.iset[at]] + a]):
                raise AssertionError("bestplay: nodes of one information set offer different asks")
        self._lookup = None

    def __getstate__(self) -> dict:  # the model holds lambdas: rebuilt from the rules where the tree arrives
        return {k: v for k, v in self.__dict__.items() if k not in ("model", "_lookup")}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state, model=Model(state["rules"], exact=False), _lookup=None)

    # ------------------------------------------------------------------ strategies
    def uniform(self) -> np.ndarray:
        """Every information set's asks equally likely."""
        return np.repeat(1.0 / self.nact, self.nact)

    def profile(self, name: str) -> np.ndarray:
        """Both seats playing the built-in ``name`` (``random``, ``memory``, ``most_held``): what it
        reads (its hand, the public record) is the same at every node of a set, so any node tells."""
        by_world = np.zeros(len(self._a_rank))  # the built-in's asks at each position, once
        for w, world in enumerate(self.worlds):
            if not world.over:
                asks = self.model.asks(world)
                for rank, p in self.model.policy(name, world):
                    by_world[self._act_start[w] + asks.index(rank)] = p
        within = np.arange(len(self.ranks)) - np.repeat(self.offset, self.nact)
        return by_world[np.repeat(self._act_start[self.world[self.iset_node]], self.nact) + within]

    def strategy(self, sigma, player: int, chunks) -> dict:
        """``{rank index: probability}`` of ``sigma`` at ``player``'s information set after the observation
        ``chunks`` (:func:`~gofish_teach.bestplay.model.observe`'s); ``KeyError`` if the game has no such set."""
        I = self.infoset(player, chunks)
        o = self.offset[I]
        return {int(r): float(x) for r, x in zip(self.ranks[o:o + self.nact[I]], sigma[o:o + self.nact[I]], strict=True)}

    def observations(self, I: int) -> tuple:
        """``(player, chunks)``: whose information set ``I`` is, and the observation chunks that
        lead to it (what :meth:`infoset` reads back).

        >>> from gofish_teach import Rules
        >>> tree = Tree(Rules.preset("pond").replace(n_ranks=2, hand_size=1))
        >>> all(tree.infoset(*tree.observations(I)) == I for I in range(tree.infosets))
        True
        """
        chunks, h = [], int(self._iset_hist[I])
        while h >= 0:
            chunks.append(self.chunks[self._hist_chunk[h]])
            h = int(self._hist_parent[h])
        return int(self.iset_player[I]), tuple(reversed(chunks))

    def infoset(self, player: int, chunks) -> int:
        """The information set of ``player`` after the observation ``chunks``."""
        if self._lookup is None:  # (parent history, chunk) -> history, sorted for binary search
            keys = (self._hist_parent + 1) * len(self.chunks) + self._hist_chunk
            order = np.argsort(keys)
            self._lookup = keys[order], order
        keys, order = self._lookup
        h = -1
        for chunk in chunks:
            c = self._chunk_ids.get(chunk)
            if c is None:
                raise KeyError(chunk)
            key = (h + 1) * len(self.chunks) + c
            at = int(np.searchsorted(keys, key))
            if at == len(keys) or keys[at] != key:
                raise KeyError(chunk)
            h = int(order[at])
        at = int(np.searchsorted(self._iset_hist, h))
        if at == self.infosets or self._iset_hist[at] != h or self.iset_player[at] != player:
            raise KeyError(f"no decision of seat {player} after these observations")
        return at

    # ------------------------------------------------------------------ values
    def expected(self, sigma) -> float:
        """Seat 0's expected win share when both seats play ``sigma``."""
        v = np.empty(self.nodes)
        kernels.values(self.kind, self.first, self.count, self.prob, self.halves, self.iset, self.offset,
                       self.flat(sigma), 0, v)
        return float(v[0])

    def best_response(self, sigma, player: int, choice: np.ndarray | None = None) -> float:
        """The exact value to ``player`` of its best response to the other seat playing ``sigma``
        (``choice``, if given, receives the action it picks at each of ``player``'s sets)."""
        choice = np.empty(self.infosets, np.int64) if choice is None else choice
        n = self.nodes
        return float(kernels.best_response(
            self.kind, self.first, self.count, self.prob, self.halves, self.iset, self.iset_player, self.iset_depth,
            self.offset, self.nact, self.flat(sigma), player, np.empty(n), np.empty(n), np.empty(n),
            np.empty(len(self.ranks)), choice))

    def flat(self, sigma) -> np.ndarray:
        """``sigma`` as the flat array, from that or from one list of probabilities per information set."""
        if isinstance(sigma, np.ndarray) and sigma.ndim == 1:
            out = sigma.astype(np.float64, copy=False)
        else:
            out = np.concatenate([np.asarray(s, np.float64) for s in sigma])
        if len(out) != len(self.ranks):
            raise ValueError(f"bestplay: a strategy of this tree has {len(self.ranks)} probabilities, not {len(out)}")
        return out

    def solve(self, iterations: int = 1000, target: float | None = None, **options):
        """An equilibrium by CFR (see :func:`~gofish_teach.bestplay.cfr.solve`)."""
        from .cfr import solve

        return solve(self, iterations=iterations, target=target, **options)


def _number(numbers: dict, items: list, item) -> int:
    """``item``'s number, numbering it (and listing it in ``items``) when new."""
    i = numbers.get(item)
    if i is None:
        i = numbers[item] = len(items)
        items.append(item)
    return i


def _name(rules) -> str:
    return f"{rules.name} with {rules.n_ranks} ranks and {rules.hand_size} cards each"
