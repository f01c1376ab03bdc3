"""The compiled loops of :mod:`~gofish_teach.bestplay.tree` and :mod:`~gofish_teach.bestplay.cfr`.

Why numba: the game tree of pond with 3 ranks and 2 cards each has 3.3 million nodes, and an
equilibrium takes hundreds of passes over it; in Python one pass takes seconds, compiled it
takes tens of milliseconds (the same reason as :mod:`gofish_teach.fast`).

The tree is stored breadth first: a node's children are the ``count[i]`` nodes from
``first[i]`` on, so a loop over the nodes in order meets every parent before its children (a
*forward* pass: reach probabilities), and in reverse order every child before its parent (a
*backward* pass: values). ``kind`` is ``TERMINAL``, ``CHANCE`` or ``DECISION``; ``prob[i]`` is
the chance of node ``i`` given its parent when the parent is a chance node (1 otherwise);
``halves[i]`` is seat 0's win share at a terminal node in halves (2 win, 1 tie, 0 loss);
``iset[i]`` is the information set of a decision node, whose actions are the
``nact[I]`` entries from ``offset[I]`` of every array indexed by action (strategies, regrets).
"""
from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.typed import Dict

TERMINAL, CHANCE, DECISION = 0, 1, 2


# ---------------------------------------------------------------------- building the tree
@njit(cache=True)
def count_nodes(w_over, w_act_start, w_act_count, a_out_start, a_out_count, out_child, deal_world):
    """The number of nodes of the tree: a world's subtree has the same size wherever it occurs."""
    n_worlds = len(w_over)
    size = np.zeros(n_worlds, np.int64)
    done = np.zeros(n_worlds, np.bool_)
    stack = np.empty(n_worlds + 1, np.int64)
    for root in deal_world:
        top = 0
        stack[0] = root
        while top >= 0:  # depth first, a world's size once all its children's are known
            w = stack[top]
            if done[w]:
                top -= 1
                continue
            ready = True
            for k in range(w_act_start[w], w_act_start[w] + w_act_count[w]):
                for j in range(a_out_start[k], a_out_start[k] + a_out_count[k]):
                    c = out_child[j]
                    if not done[c]:
                        top += 1
                        stack[top] = c
                        ready = False
            if ready:
                n = 1
                for k in range(w_act_start[w], w_act_start[w] + w_act_count[w]):
                    if a_out_count[k] > 1:
                        n += 1
                    for j in range(a_out_start[k], a_out_start[k] + a_out_count[k]):
                        n += size[out_child[j]]
                size[w] = n
                done[w] = True
                top -= 1
    total = 1
    for w in deal_world:
        total += size[w]
    return total


@njit(cache=True)
def _history(trie, h, chunk, n_chunks, hist_parent, hist_chunk, n_hist):
    """The history ``h`` followed by ``chunk``, as a number (``h = -1``: the empty history)."""
    key = (h + 1) * n_chunks + chunk
    got = trie.get(key, -1)
    if got >= 0:
        return got, n_hist
    trie[key] = n_hist
    hist_parent[n_hist] = h
    hist_chunk[n_hist] = chunk
    return n_hist, n_hist + 1


@njit(cache=True)
def expand(n_nodes, w_over, w_turn, w_halves, w_act_start, w_act_count, a_out_start, a_out_count,
           out_prob, out_child, out_obs0, out_obs1, deal_prob, deal_world, deal_obs0, deal_obs1, n_chunks):
    """Lay out the whole tree breadth first from the graph of worlds (see :class:`Tree`).

    Each node carries its world and the two seats' observation histories, numbered in one trie
    (``hist_parent``, ``hist_chunk``); a decision node's information set is the mover's history,
    and ``depth`` counts the mover's own earlier decisions (the same at every node of the set).
    """
    kind = np.zeros(n_nodes, np.int8)
    first = np.zeros(n_nodes, np.int64)
    count = np.zeros(n_nodes, np.int16)
    prob = np.ones(n_nodes, np.float64)
    halves = np.zeros(n_nodes, np.int8)
    world = np.full(n_nodes, -1, np.int32)
    hist = np.full(n_nodes, -1, np.int64)       # the mover's history at a decision node
    action = np.full(n_nodes, -1, np.int64)     # the world's action a chance node follows
    h0 = np.full(n_nodes, -1, np.int64)
    h1 = np.full(n_nodes, -1, np.int64)
    own = np.zeros((n_nodes, 2), np.int16)      # each seat's decisions so far
    hist_parent = np.empty(2 * n_nodes, np.int64)
    hist_chunk = np.empty(2 * n_nodes, np.int64)
    trie = Dict.empty(key_type=types.int64, value_type=types.int64)
    n_hist = 0
    kind[0] = CHANCE
    first[0] = 1
    count[0] = len(deal_world)
    nxt = 1
    for j in range(len(deal_world)):
        c = nxt
        nxt += 1
        world[c] = deal_world[j]
        prob[c] = deal_prob[j]
        h0[c], n_hist = _history(trie, -1, deal_obs0[j], n_chunks, hist_parent, hist_chunk, n_hist)
        h1[c], n_hist = _history(trie, -1, deal_obs1[j], n_chunks, hist_parent, hist_chunk, n_hist)
    for i in range(1, n_nodes):
        w = world[i]
        if action[i] < 0:  # a position: terminal or a decision
            if w_over[w]:
                kind[i] = TERMINAL
                halves[i] = w_halves[w]
                continue
            kind[i] = DECISION
            p = w_turn[w]
            hist[i] = h0[i] if p == 0 else h1[i]
            first[i] = nxt
            count[i] = w_act_count[w]
            nxt += w_act_count[w]
            for a in range(w_act_count[w]):
                k = w_act_start[w] + a
                c = first[i] + a
                own[c, 0] = own[i, 0] + (p == 0)
                own[c, 1] = own[i, 1] + (p == 1)
                if a_out_count[k] > 1:  # a draw follows: a chance node over its outcomes
                    world[c], action[c], h0[c], h1[c] = w, k, h0[i], h1[i]
                else:
                    j = a_out_start[k]
                    world[c] = out_child[j]
                    h0[c], n_hist = _history(trie, h0[i], out_obs0[j], n_chunks, hist_parent, hist_chunk, n_hist)
                    h1[c], n_hist = _history(trie, h1[i], out_obs1[j], n_chunks, hist_parent, hist_chunk, n_hist)
        else:  # a chance node after an ask
            k = action[i]
            kind[i] = CHANCE
            first[i] = nxt
            count[i] = a_out_count[k]
            for j in range(a_out_start[k], a_out_start[k] + a_out_count[k]):
                c = nxt
                nxt += 1
                world[c] = out_child[j]
                prob[c] = out_prob[j]
                own[c, 0], own[c, 1] = own[i, 0], own[i, 1]
                h0[c], n_hist = _history(trie, h0[i], out_obs0[j], n_chunks, hist_parent, hist_chunk, n_hist)
                h1[c], n_hist = _history(trie, h1[i], out_obs1[j], n_chunks, hist_parent, hist_chunk, n_hist)
    depth = np.full(n_nodes, -1, np.int16)
    for i in range(n_nodes):
        if kind[i] == DECISION:
            depth[i] = own[i, w_turn[world[i]]]
    return kind, first, count, prob, halves, world, hist, depth, hist_parent[:n_hist].copy(), hist_chunk[:n_hist].copy()


# ---------------------------------------------------------------------- passes over the tree
@njit(cache=True)
def reach(kind, first, count, prob, iset, iset_player, offset, sigma, player, cf, own):
    """Forward pass: ``cf[i]``, the chance and the other seat's probability of reaching node ``i``
    (its counterfactual weight for ``player``), and ``own[i]``, ``player``'s own."""
    cf[0] = 1.0
    own[0] = 1.0
    for i in range(len(kind)):
        k = kind[i]
        if k == TERMINAL:
            continue
        for a in range(count[i]):
            c = first[i] + a
            if k == CHANCE:
                cf[c] = cf[i] * prob[c]
                own[c] = own[i]
            else:
                I = iset[i]
                x = sigma[offset[I] + a]
                if iset_player[I] == player:
                    cf[c] = cf[i]
                    own[c] = own[i] * x
                else:
                    cf[c] = cf[i] * x
                    own[c] = own[i]


@njit(cache=True, inline="always")
def _value(i, kind, first, count, prob, halves, iset, offset, sigma, player, v):
    """Node ``i``'s value to ``player`` from its children's (a terminal's share; chance and decisions
    by their probabilities, ``sigma`` at decisions)."""
    k = kind[i]
    if k == TERMINAL:
        return halves[i] / 2.0 if player == 0 else 1.0 - halves[i] / 2.0
    s = 0.0
    if k == CHANCE:
        for a in range(count[i]):
            c = first[i] + a
            s += prob[c] * v[c]
    else:
        o = offset[iset[i]]
        for a in range(count[i]):
            s += sigma[o + a] * v[first[i] + a]
    return s


@njit(cache=True)
def values(kind, first, count, prob, halves, iset, offset, sigma, player, v):
    """Backward pass: ``v[i]``, ``player``'s expected win share from node ``i`` when both play ``sigma``."""
    for i in range(len(kind) - 1, -1, -1):
        v[i] = _value(i, kind, first, count, prob, halves, iset, offset, sigma, player, v)


@njit(cache=True)
def regret_matching(regret, offset, nact, sigma):
    """The current strategy: each information set's positive regrets, normalised (uniform if none)."""
    for I in range(len(nact)):
        o, n = offset[I], nact[I]
        total = 0.0
        for a in range(n):
            if regret[o + a] > 0:
                total += regret[o + a]
        for a in range(n):
            sigma[o + a] = (regret[o + a] if regret[o + a] > 0 else 0.0) / total if total > 0 else 1.0 / n


@njit(cache=True)
def cfr_update(kind, first, count, prob, halves, iset, iset_player, iset_node, offset, nact, player,
               regret, total, sigma, cf, own, v, gain, t, alpha, beta, gamma, plus):
    """One update of ``player``'s regrets and average strategy against ``sigma`` (its current strategy).

    ``plus``: CFR+ (regrets floored at 0, the average weighted by ``t``); otherwise discounted CFR
    (positive regrets scaled by t^alpha / (t^alpha + 1), negative by t^beta / (t^beta + 1), the
    average by (t / (t + 1))^gamma).
    """
    reach(kind, first, count, prob, iset, iset_player, offset, sigma, player, cf, own)
    values(kind, first, count, prob, halves, iset, offset, sigma, player, v)
    gain[:] = 0.0
    for i in range(len(kind)):
        if kind[i] == DECISION:
            I = iset[i]
            if iset_player[I] == player:
                o = offset[I]
                for a in range(count[i]):
                    gain[o + a] += cf[i] * (v[first[i] + a] - v[i])
    pos = t ** alpha / (t ** alpha + 1.0)
    neg = t ** beta / (t ** beta + 1.0)
    keep = (t / (t + 1.0)) ** gamma
    for I in range(len(nact)):
        if iset_player[I] != player:
            continue
        o = offset[I]
        w = own[iset_node[I]]
        for a in range(nact[I]):
            r = regret[o + a]
            if plus:
                regret[o + a] = max(r + gain[o + a], 0.0)
                total[o + a] += t * w * sigma[o + a]
            else:
                regret[o + a] = r * (pos if r > 0 else neg) + gain[o + a]
                total[o + a] = total[o + a] * keep + w * sigma[o + a]


@njit(cache=True)
def best_response(kind, first, count, prob, halves, iset, iset_player, iset_depth, offset, nact, sigma,
                  player, cf, own, v, score, choice):
    """The exact value of ``player``'s best response to the other seat playing ``sigma``.

    A best response picks, at each of its information sets, the action with the highest sum over
    the set's nodes of (counterfactual weight x value); a node's value below needs the choices at
    ``player``'s later sets. So the sets are decided from the deepest (most own decisions before
    them) up: one backward pass per depth, then one for the value. ``choice`` receives the picks.
    """
    reach(kind, first, count, prob, iset, iset_player, offset, sigma, player, cf, own)
    deepest = 0
    for I in range(len(nact)):
        if iset_player[I] == player and iset_depth[I] > deepest:
            deepest = iset_depth[I]
    for I in range(len(nact)):
        choice[I] = -1
    for d in range(deepest, -2, -1):  # d = -1: every set decided, the value
        score[:] = 0.0
        for i in range(len(kind) - 1, -1, -1):
            I = iset[i]
            if kind[i] != DECISION or iset_player[I] != player:
                v[i] = _value(i, kind, first, count, prob, halves, iset, offset, sigma, player, v)
            elif choice[I] >= 0:
                v[i] = v[first[i] + choice[I]]
            else:  # undecided (this depth or shallower): score this depth's, value nothing yet
                if iset_depth[I] == d:
                    o = offset[I]
                    for a in range(count[i]):
                        score[o + a] += cf[i] * v[first[i] + a]
                v[i] = 0.0
        for I in range(len(nact)):
            if iset_player[I] == player and iset_depth[I] == d:
                o = offset[I]
                best = 0
                for a in range(1, nact[I]):
                    if score[o + a] > score[o + best]:
                        best = a
                choice[I] = best
    return v[0]
