"""The game's value by the sequence-form linear program: an exact check on CFR for small decks.

In sequence form (Koller, Megiddo and von Stengel, 1994) a strategy of seat 0 is a *realization
plan* ``x``: for each of its sequences (an information set and an ask there, or the empty
sequence) the probability its own choices give that sequence. The plans are the nonnegative
``x`` with ``E x = e``: the empty sequence has 1, and at each information set the asks' entries
add up to the entry of the sequence that leads there. Seat 0's expected share against seat 1's
plan ``y`` is ``x^T A y``, where ``A`` adds up each terminal node's chance probability times seat
0's share, at that node's pair of sequences. The value ``max_x min_y x^T A y`` is, by duality of
the inner minimum, one linear program in ``x`` and the dual ``q``::

    maximise q_root  subject to  F^T q - A^T x <= 0,  E x = e,  x >= 0

solved by HiGHS (``scipy.optimize.linprog``). Its size grows with the tree's (a variable per
sequence), where CFR's memory is a few arrays over the tree: so it is the check on the smallest
decks, and CFR the solver.

>>> from fractions import Fraction
>>> from gofish_teach import Rules
>>> from gofish_teach.bestplay.tree import Tree
>>> tree = Tree(Rules.preset("pond").replace(n_ranks=2, hand_size=2))
>>> found = sequence_form(tree)
>>> Fraction(found.value).limit_denominator(1000)     # the tiny game's value, seat 0 moving first
Fraction(41, 70)
>>> gain0 = tree.best_response(found.sigma, 0) - found.value          # its equilibrium: nothing to gain
>>> gain1 = tree.best_response(found.sigma, 1) - (1 - found.value)
>>> abs(gain0) < 1e-12, abs(gain1) < 1e-12
(True, True)
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from . import kernels
from .kernels import DECISION, TERMINAL


@dataclass(frozen=True, eq=False)
class Solution:
    """The linear program's value for seat 0, an equilibrium (a flat profile, see
    :class:`~gofish_teach.bestplay.tree.Tree`: seat 0's from ``x``, seat 1's from the dual), sizes, cost."""

    value: float
    sigma: np.ndarray
    variables: int
    constraints: int
    seconds: float = 0.0
    cpu: float = 0.0


@njit(cache=True)
def _sequences(kind, first, count, iset, iset_player, offset, seq):
    """``seq[i, p]``: seat ``p``'s sequence at node ``i`` (0 the empty one, else 1 + its ask's index)."""
    seq[0, 0] = 0
    seq[0, 1] = 0
    for i in range(len(kind)):
        if kind[i] == TERMINAL:
            continue
        for a in range(count[i]):
            c = first[i] + a
            seq[c, 0] = seq[i, 0]
            seq[c, 1] = seq[i, 1]
            if kind[i] == DECISION:
                seq[c, iset_player[iset[i]]] = 1 + offset[iset[i]] + a


def sequence_form(tree) -> Solution:
    """Solve ``tree``'s game by the sequence-form linear program (HiGHS); ``ValueError`` if it fails."""
    from scipy import sparse  # here: importing the kit's strategies need not wait for scipy.optimize
    from scipy.optimize import linprog

    start, cpu = time.perf_counter(), time.process_time()
    seq = np.zeros((tree.nodes, 2), np.int64)
    _sequences(tree.kind, tree.first, tree.count, tree.iset, tree.iset_player, tree.offset, seq)
    chance, _ = np.empty(tree.nodes), np.empty(tree.nodes)
    kernels.reach(tree.kind, tree.first, tree.count, tree.prob, tree.iset, tree.iset_player, tree.offset,
                  np.ones(len(tree.ranks)), 0, chance, _)
    # each seat's sequences numbered from 0 (the empty one): number[p][1 + ask's index], number[p][0] = 0
    owner = np.repeat(tree.iset_player, tree.nact)
    number, sets, matrices = [], [], []
    for p in (0, 1):
        mine = np.flatnonzero(owner == p)
        number.append(np.full(len(tree.ranks) + 1, -1, np.int64))
        number[p][0] = 0
        number[p][1 + mine] = np.arange(1, len(mine) + 1)
        sets.append(np.flatnonzero(tree.iset_player == p))
    for p in (0, 1):
        # row 0: the empty sequence is 1; row r: set r's asks add up to the sequence leading there
        mine = sets[p]
        rows = np.repeat(np.arange(1, len(mine) + 1), tree.nact[mine])
        asks = np.concatenate([np.arange(tree.offset[I], tree.offset[I] + tree.nact[I]) for I in mine])
        parent = number[p][seq[tree.iset_node[mine], p]]
        n = len(number[p]) - int((number[p] < 0).sum())
        matrices.append(sparse.csr_matrix(
            (np.concatenate(([1.0], np.ones(len(asks)), -np.ones(len(mine)))),
             (np.concatenate(([0], rows, np.arange(1, len(mine) + 1))),
              np.concatenate(([0], number[p][1 + asks], parent)))),
            shape=(len(mine) + 1, n)))
    E, F = matrices
    (m0, n0), (m1, n1) = E.shape, F.shape
    ends = np.flatnonzero(tree.kind == TERMINAL)
    A = sparse.csr_matrix((chance[ends] * tree.halves[ends] / 2.0,
                           (number[0][seq[ends, 0]], number[1][seq[ends, 1]])), shape=(n0, n1))
    c = np.zeros(n0 + m1)
    c[n0] = -1.0                                # maximise q_root
    upper = sparse.hstack([-A.T, F.T]).tocsr()  # F^T q - A^T x <= 0
    equal = sparse.hstack([E, sparse.csr_matrix((m0, m1))]).tocsr()
    e = np.zeros(m0)
    e[0] = 1.0
    bounds = [(0, None)] * n0 + [(None, None)] * m1
    res = linprog(c, A_ub=upper, b_ub=np.zeros(n1), A_eq=equal, b_eq=e, bounds=bounds, method="highs")
    if res.status != 0:
        raise ValueError(f"bestplay: the sequence-form linear program failed: {res.message}")
    # seat 0's plan is x; seat 1's is the dual of the constraints F^T q - A^T x <= 0 (one per seat-1 sequence)
    plans = (res.x[:n0], -res.ineqlin.marginals)
    sigma = tree.uniform()
    for p in (0, 1):
        for I in sets[p]:
            o, k = tree.offset[I], tree.nact[I]
            here = plans[p][number[p][1 + o:1 + o + k]]
            if here.sum() > 1e-12:  # a set the seat's own plan never reaches keeps the uniform asks
                sigma[o:o + k] = here / here.sum()
    return Solution(float(-res.fun), sigma, n0 + m1, m0 + n1, time.perf_counter() - start, time.process_time() - cpu)
