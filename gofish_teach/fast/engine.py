"""The fast path: many games of the built-in strategies, compiled with numba.

It plays exactly the games the readable engine (:class:`~gofish_teach.game.Game` driven by
:mod:`gofish_teach.strategies`) plays: for the same deck order and seeds, the same asks in
the same order, and so the same books and winners. ``tests/test_fast.py`` compares the two
ask by ask on more than 15,000 games.

Why numba: a Go Fish game is a loop of small, data-dependent steps (who asks whom, is the
turn over), which does not vectorise across games in numpy without padding every game to
the longest; compiled, one core plays tens of thousands of games a second.

Randomness, and why both engines agree: seat ``s`` of game ``g`` draws from its own
generator, whose doubles are ``numpy.random.default_rng(int(seeds[g, s]))``'s (the readable
engine uses ``strategies.seat_rng``, the same stream), and each random choice is one
``random()`` double (see :func:`gofish_teach.strategies.pick`). Compiled code cannot make a
NumPy ``Generator``, so :mod:`.pcg64` re-implements ``default_rng`` bit for bit,
and this module keeps one such state per seat.

Playing a batch (card code = ``rank_index * CARDS_PER_RANK + suit_index``, row 0 of a deck is
its top; one seed per seat), and the same game played by the readable engine, ask by ask:

>>> from gofish_teach import Rules
>>> from gofish_teach.simulate import game_inputs, play_game_readable
>>> rules, lineup = Rules.preset("pond"), ["memory", "random", "random", "random"]
>>> decks, seeds = game_inputs(0, rules, 3)
>>> out = play_games(lineup, rules, decks, seeds, moves=True)
>>> sorted(out), out["books"].sum(axis=1)
(['asks', 'books', 'moves', 'winners'], array([13, 13, 13]))
>>> out["moves"][2][:2]        # (player, target, rank index) of its first two asks
array([[0, 2, 0],
       [1, 3, 2]], dtype=int16)
>>> ref = play_game_readable(lineup, rules, decks[2], seeds[2], moves=True)
>>> bool((ref["moves"] == out["moves"][2]).all()), bool((ref["books"] == out["books"][2]).all())
(True, True)

The built-in strategies never stall: an ask the public record proves must fail (the target
said "Go Fish!" to that rank and has drawn nothing and been given none of it since) is
"dead", and they make one only when every other ask is dead too (see
:mod:`gofish_teach.strategies`; here the ``dead`` array). Without that, under ``teams``,
memory and most_held could keep asking an opponent for a rank only a partner held, for ever.

Supported: the strategies ``random``, ``memory`` and ``most_held``; every preset, 2-6
players, any ``hand_size`` and ``n_ranks``, and the variants ``bluff`` (built-in strategies
never bluff, so play is unchanged), ``book_size=2`` and ``teams``. Not supported
(:func:`supports` says so and the caller uses the readable engine): ``specific_card``, and
any other strategy (``greedy``, or one a learner wrote). Those terms, the card codes and
the cap on asks are in :mod:`.spec`, which callers read without loading numba.

Compiled code cannot be interrupted, so a game that reaches ``max_asks`` asks stops with
:class:`GameTooLong`, saying whether cards were still moving (a longer cap would help) or
not (it would not).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
from numba import njit

from ..rules import Rules
from ..strategies import GameTooLong
from .pcg64 import STATE_SIZE, WORK_SIZE, as_seeds, next_double, seed_state
from .spec import (
    CARDS_PER_RANK,
    DRAW_ONE_PLAY,
    EMPTY_HAND_AND_OCEAN,
    FAST_STRATEGIES,
    MAX_ASKS,
    MEMORY,
    NEW_HAND,
    NO_PARTNER,
    OCEAN_EMPTY,
    RANDOM,
    TOO_LONG,
    fast_path_plays,
    rule_codes,
    strategy_codes,
    too_long_message,
)

#: Asks a game the record of asks (``moves=True``) first has room for: most games need fewer;
#: if they need more, the batch is played again with room for every ask.
MOVES_ROOM = 128

# Every compiled function uses error_model="numpy": no divisor here is ever zero (the seat
# counts and rank counts are checked first), and without the check Python's error model adds to
# each % and //, the inner loop is faster.
# The helpers of one ask are inline="always" (numba pastes them into _play): left to LLVM they
# stay calls (_is_over runs about three times an ask), each passing every array field by field
# with reference counting, and the calls cost more than the work they do. Inlining all of them
# (not some: _is_over alone made it slower) took memory x4 from about 0.8x to 1.2x of 55d70c6's
# games per second, side by side (issue 34). Cost: about 3 s more for the first compile, which
# the disk cache keeps.

# --------------------------------------------------------------------------- the game, compiled
# State of one game (n seats, R ranks), in arrays reused from game to game:
#   hands[p, r]  cards of rank r seat p holds         sizes[p]  cards seat p holds
#   books[p]     books seat p laid down                rngs[p]   seat p's PCG64 state
#   known[p]     bit r set: public events show p holds r (memory's known holdings); bits, so
#                that memory's wanted ranks are one OR per opponent, not a loop over ranks and
#                seats; last[p, r] since when
#   dead[p]      bit r set: p said "Go Fish!" to r and has since drawn nothing and been given
#                no r, so an ask of p for r must fail (the "bots never stall" rule); bits, so
#                that the ranks with a live opponent are one OR per opponent
@njit(cache=True, error_model="numpy", inline="always")
def _partner(p, n, teams):
    return (p + n // 2) % n if teams else NO_PARTNER


@njit(cache=True, error_model="numpy", inline="always")
def _forget_rank(known, r):
    """A book of ``r``: nobody is known to hold ``r`` any more."""
    for q in range(known.shape[0]):
        known[q] &= ~(1 << r)


@njit(cache=True, error_model="numpy")
def _lay_books(p, hands, sizes, books, known, book_size):
    """Lay down every book ``p`` holds; returns how many. Mirrors ``Game._lay_books``."""
    made = 0
    for r in range(hands.shape[1]):
        while hands[p, r] >= book_size:
            hands[p, r] -= book_size
            sizes[p] -= book_size
            books[p] += 1
            made += 1
            _forget_rank(known, r)
    if made and sizes[p] == 0:
        known[p] = 0
    return made


@njit(cache=True, error_model="numpy", inline="always")
def _lay_book(p, r, hands, sizes, books, known, book_size):
    """``_lay_books`` when only rank ``r`` of ``p`` changed (every other rank is below a book)."""
    if hands[p, r] < book_size:
        return 0
    hands[p, r] -= book_size
    sizes[p] -= book_size
    books[p] += 1
    _forget_rank(known, r)
    if sizes[p] == 0:
        known[p] = 0
    return 1


@njit(cache=True, error_model="numpy", inline="always")
def _draw(p, card, hands, sizes, dead):
    """``p`` takes ``card`` from the ocean; returns its rank. Any draw may bring any rank, so
    no ask of ``p`` is dead any more."""
    r = card // CARDS_PER_RANK
    hands[p, r] += 1
    sizes[p] += 1
    dead[p] = 0
    return r


@njit(cache=True, error_model="numpy", inline="always")
def _is_over(n_books, total_books, ocean, end_rule, hands, sizes, teams, bluff):
    """Whether the game has ended (``Game._over_reason`` as a yes/no; the game itself ends in ``Game._end_if_over``)."""
    if n_books == total_books:
        return True
    if ocean:
        return False
    if end_rule == OCEAN_EMPTY:
        return True
    n = sizes.shape[0]
    if end_rule == EMPTY_HAND_AND_OCEAN:
        for p in range(n):
            if sizes[p] == 0:
                return True
    if not teams:
        return False
    # Game._stalemate: no ask can succeed any more, because no two opponents both hold cards
    # (with bluffing) or both hold some rank.
    for p in range(n):
        for q in range(n):
            if q == p or q == _partner(p, n, teams):
                continue
            if bluff:
                if sizes[p] and sizes[q]:
                    return False
            else:
                for r in range(hands.shape[1]):
                    if hands[p, r] and hands[q, r]:
                        return False
    return True


@njit(cache=True, error_model="numpy", inline="always")
def _live(q, r, sizes, dead):
    """An ask of ``q`` for ``r`` the public record does not prove must fail."""
    return sizes[q] > 0 and not (dead[q] >> r) & 1


@njit(cache=True, error_model="numpy", inline="always")
def _live_ranks(p, partner, sizes, dead):
    """Bit r set: some opponent of ``p`` can be asked for r without the record proving it fails."""
    ranks = 0
    for q in range(sizes.shape[0]):
        if q != p and q != partner and sizes[q]:
            ranks |= ~dead[q]
    return ranks


@njit(cache=True, error_model="numpy", inline="always")
def _pick_target(p, partner, r, sizes, dead, rngs, buf):
    """A uniformly random live opponent for ``r``; if none, one holding cards; if none, any
    opponent (seats ascending, one double)."""
    n = sizes.shape[0]
    k = 0
    for q in range(n):
        if q != p and q != partner and _live(q, r, sizes, dead):
            buf[k] = q
            k += 1
    if k == 0:
        for q in range(n):
            if q != p and q != partner and sizes[q]:
                buf[k] = q
                k += 1
    if k == 0:
        for q in range(n):
            if q != p and q != partner:
                buf[k] = q
                k += 1
    return buf[int(next_double(rngs, p) * k)]


@njit(cache=True, error_model="numpy", inline="always")
def _most_held(p, hands, live):
    """The rank ``p`` holds most of (ties: lowest) among those with a live opponent (bits of
    ``live``), or among all it holds if none has one."""
    best, best_count = -1, 0
    for r in range(hands.shape[1]):
        if hands[p, r] > best_count and (live >> r) & 1:
            best, best_count = r, hands[p, r]  # strictly more: ties keep the lowest rank
    if best >= 0:
        return best
    for r in range(hands.shape[1]):
        if hands[p, r] > best_count:
            best, best_count = r, hands[p, r]
    return best


@njit(cache=True, error_model="numpy", inline="always")
def _count_ranks(ranks):
    """How many bits ``ranks`` has set."""
    k = 0
    while ranks:
        ranks &= ranks - 1
        k += 1
    return k


@njit(cache=True, error_model="numpy", inline="always")
def _nth_rank(ranks, j):
    """The ``j``-th (from 0, lowest first) bit set in ``ranks``: the j-th of those ranks in deck order."""
    for _ in range(j):
        ranks &= ranks - 1
    r = 0
    while not (ranks >> r) & 1:
        r += 1
    return r


@njit(cache=True, error_model="numpy", inline="always")
def _choose(code, p, hands, sizes, known, last, dead, teams, rngs, buf):
    """One decision of a built-in strategy (see :mod:`gofish_teach.strategies`): (target, rank index)."""
    n, n_ranks = hands.shape
    partner = _partner(p, n, teams)
    if code == MEMORY:  # the held rank with a live known holder it holds most of
        wanted = 0  # bit r: some opponent is a live known holder of r
        for q in range(n):
            if q != p and q != partner and sizes[q]:
                wanted |= known[q] & ~dead[q]
        rank, best_count, r = -1, 0, 0
        while wanted:  # ranks ascending; strictly more, so ties keep the lowest rank
            if wanted & 1 and hands[p, r] > best_count:
                rank, best_count = r, hands[p, r]
            wanted >>= 1
            r += 1
        if rank >= 0:  # from the live known holder who showed it most recently
            target, latest = -1, -1
            for q in range(n):
                if q != p and q != partner and sizes[q] and ((known[q] & ~dead[q]) >> rank) & 1 \
                        and last[q, rank] > latest:
                    target, latest = q, last[q, rank]
            return target, rank
    live = _live_ranks(p, partner, sizes, dead)
    if code == RANDOM:
        held = 0
        for r in range(n_ranks):
            if hands[p, r]:
                held |= 1 << r
        ranks = held & live
        if ranks == 0:
            ranks = held
        rank = _nth_rank(ranks, int(next_double(rngs, p) * _count_ranks(ranks)))
        return _pick_target(p, partner, rank, sizes, dead, rngs, buf), rank
    rank = _most_held(p, hands, live)  # most_held, and memory's fallback
    return _pick_target(p, partner, rank, sizes, dead, rngs, buf), rank


# Inlined into _play (a call per game would cost about as much as a short game's asks) and into the
# search bot's rollouts (gofish_teach.bestplay.search), which play on from a position: one copy of the rules.
@njit(cache=True, error_model="numpy", inline="always")
def play_on(deck, top, current, forced_target, forced_rank, codes, deal, empty_rule, end_rule, draw_again,
            book_size, total_books, teams, bluff, max_asks, hands, sizes, books, known, last, dead, rngs, buf,
            trace, clock, n_books):
    """Play on from ``current``'s turn, the ocean ``deck[top:]``, to the end, following ``Game`` step by
    step; ``current``'s first ask is ``(forced_target, forced_rank)`` when ``forced_rank >= 0`` (it must
    hold cards then). Fills ``books`` and, while it has room, ``trace`` with the asks (player, target,
    rank). Returns the number of asks (TOO_LONG if the game reached ``max_asks`` asks without ending)
    and how many asks ago a card last moved."""
    n = hands.shape[0]
    size = deck.shape[0]
    asks = 0  # clock (given) orders the moments players show ranks, for "showed it most recently"
    moved = 0  # the ask count when a card last moved (given or drawn)
    while True:
        # Game._settle: the empty-hand rule, until someone holding cards is to ask
        while not _is_over(n_books, total_books, size - top, end_rule, hands, sizes, teams, bluff):
            p = current
            if sizes[p]:
                break
            if top < size:
                moved = asks
                if empty_rule == NEW_HAND:
                    for _ in range(min(deal, size - top)):
                        _draw(p, deck[top], hands, sizes, dead)
                        top += 1
                    n_books += _lay_books(p, hands, sizes, books, known, book_size)
                else:
                    _draw(p, deck[top], hands, sizes, dead)
                    top += 1
                    if empty_rule == DRAW_ONE_PLAY and not _is_over(n_books, total_books, size - top, end_rule,
                                                                    hands, sizes, teams, bluff):
                        continue  # plays on with the card just drawn
            if not _is_over(n_books, total_books, size - top, end_rule, hands, sizes, teams, bluff):
                current = (current + 1) % n
        if _is_over(n_books, total_books, size - top, end_rule, hands, sizes, teams, bluff):
            return asks, asks - moved
        if asks == max_asks:
            return TOO_LONG, asks - moved
        p = current
        if forced_rank >= 0 and asks == 0:
            target, r = forced_target, forced_rank
        else:
            target, r = _choose(codes[p], p, hands, sizes, known, last, dead, teams, rngs, buf)
        if asks < trace.shape[0]:
            trace[asks, 0], trace[asks, 1], trace[asks, 2] = p, target, r
        asks += 1
        clock += 1
        known[p] |= 1 << r  # asking shows the asker holds r
        last[p, r] = clock
        again = False
        got = hands[target, r]
        if got:
            moved = asks
            hands[target, r] = 0
            sizes[target] -= got
            hands[p, r] += got
            sizes[p] += got
            dead[p] &= ~(1 << r)
            known[target] &= ~(1 << r)
            if sizes[target] == 0:
                known[target] = 0
            clock += 1
            last[p, r] = clock  # receiving shows it again
            n_books += _lay_book(p, r, hands, sizes, books, known, book_size)
            again = True
        else:
            known[target] &= ~(1 << r)  # "Go Fish!"
            dead[target] |= 1 << r
            if top < size:
                moved = asks
                drawn = _draw(p, deck[top], hands, sizes, dead)
                top += 1
                lucky = drawn == r
                if lucky:
                    clock += 1
                    known[p] |= 1 << r
                    last[p, r] = clock
                made = _lay_book(p, drawn, hands, sizes, books, known, book_size)
                n_books += made
                again = lucky or (made > 0 and draw_again)
        if not again and not _is_over(n_books, total_books, size - top, end_rule, hands, sizes, teams, bluff):
            current = (current + 1) % n




@njit(cache=True, error_model="numpy")
def _play(deck, seeds, codes, deal, empty_rule, end_rule, draw_again, book_size, total_books, teams, bluff,
          max_asks, hands, sizes, books, known, last, dead, rngs, work, buf, trace):
    """One game: the deal (round robin, books laid at once), then :func:`play_on` from seat 0's turn
    with the clock at 0. Returns what :func:`play_on` returns."""
    n = hands.shape[0]
    hands[:, :] = 0
    books[:] = 0
    known[:] = 0
    dead[:] = 0
    for p in range(n):
        seed_state(rngs, p, seeds[p], work)
    for k in range(deal * n):  # one card at a time, round robin from seat 0
        hands[k % n, deck[k] // CARDS_PER_RANK] += 1
    sizes[:] = deal
    n_books = 0
    for p in range(n):
        n_books += _lay_books(p, hands, sizes, books, known, book_size)
    return play_on(deck, deal * n, 0, -1, -1, codes, deal, empty_rule, end_rule, draw_again, book_size,
                   total_books, teams, bluff, max_asks, hands, sizes, books, known, last, dead, rngs, buf, trace,
                   0, n_books)


@njit(cache=True, error_model="numpy")
def _play_many(codes, deal, empty_rule, end_rule, draw_again, book_size, total_books, teams, bluff, n_ranks,
               max_asks, decks, seeds, books_out, asks_out, winners_out, trace):
    """Play every game; returns (the first game that reached max_asks or -1, its idle asks,
    the rows of ``trace`` every game's asks need)."""
    n = codes.shape[0]
    hands = np.zeros((n, n_ranks), np.int16)
    sizes = np.zeros(n, np.int64)
    known = np.zeros(n, np.int64)
    last = np.zeros((n, n_ranks), np.int64)
    dead = np.zeros(n, np.int64)
    rngs = np.empty((n, STATE_SIZE), np.uint64)
    work = np.empty(WORK_SIZE, np.uint64)
    buf = np.empty(max(n, n_ranks), np.int64)
    used = 0
    for g in range(decks.shape[0]):
        books = books_out[g]
        start = min(used, trace.shape[0])
        asks, idle = _play(decks[g], seeds[g], codes, deal, empty_rule, end_rule, draw_again, book_size,
                           total_books, teams, bluff, max_asks, hands, sizes, books, known, last, dead, rngs, work, buf,
                           trace[start:])
        if asks == TOO_LONG:
            return g, idle, used
        asks_out[g] = asks
        used += asks
        won = shares(books, teams)
        for p in range(n):
            winners_out[g, p] = won[p] > 0
    return -1, 0, used


@njit(cache=True, error_model="numpy", inline="always")
def shares(books, teams):
    """Each seat's win share of a finished game with ``books`` laid by seat: partners (``teams``)
    pool their books, and the seats with the most share the win equally (a k-way tie, 1/k each).

    >>> shares(np.array([4, 6, 3, 0]), False).tolist(), shares(np.array([4, 6, 3, 0]), True).tolist()
    ([0.0, 1.0, 0.0, 0.0], [0.5, 0.0, 0.5, 0.0])
    """
    n = books.shape[0]
    score = np.empty(n, np.int64)
    for p in range(n):
        partner = _partner(p, n, teams)
        score[p] = books[p] + (books[partner] if partner != NO_PARTNER else 0)
    best = score.max()
    tied = 0
    for p in range(n):
        if score[p] == best:
            tied += 1
    out = np.zeros(n)
    for p in range(n):
        if score[p] == best:
            out[p] = 1.0 / tied
    return out


@njit(cache=True, error_model="numpy")
def _first_bad_deck(decks):
    """The first row that is not a permutation of 0..size-1 (codes already in range), or -1."""
    seen = np.zeros(decks.shape[1], np.int64)
    for g in range(decks.shape[0]):
        for k in range(decks.shape[1]):
            if seen[decks[g, k]] == g + 1:
                return g
            seen[decks[g, k]] = g + 1
    return -1


# --------------------------------------------------------------------------- the Python interface
def supports(lineup: Sequence[str], rules: Rules) -> bool:
    """Whether :func:`play_games` can play this lineup (strategy names by seat) under ``rules``.

    The same test as :func:`gofish_teach.simulate.fast_path_plays`, which answers without
    loading numba.

    >>> supports(["memory", "random"], Rules.preset("family"))
    True
    >>> supports(["greedy", "random"], Rules.preset("pond")), supports(["random"] * 2, Rules(specific_card=True))
    (False, False)
    """
    return fast_path_plays(lineup, rules)


def _check(lineup: Sequence[str], rules: Rules, decks) -> np.ndarray:
    if not supports(lineup, rules):
        rules.check_players(len(lineup))  # raises naming the player count, if that is the problem
        others = [name for name in lineup if name not in FAST_STRATEGIES]
        if others:
            raise ValueError(f"lineup: the fast path plays only {', '.join(FAST_STRATEGIES)}, not {others[0]!r}; "
                             "use the readable engine (gofish_teach.strategies.play_out)")
        raise ValueError("rules: the fast path does not play specific_card rules; use the readable engine")
    decks = np.asarray(decks)
    if decks.ndim != 2 or decks.shape[1] != rules.deck_size or decks.dtype.kind not in "ui":
        raise ValueError(f"decks: expected integer card codes of shape (games, {rules.deck_size}), "
                         f"got {decks.dtype} of shape {decks.shape}")
    if decks.size and (decks.min() < 0 or decks.max() >= rules.deck_size):
        raise ValueError(f"decks: card codes must be 0..{rules.deck_size - 1}")
    decks = np.ascontiguousarray(decks, dtype=np.int16)
    bad = _first_bad_deck(decks)
    if bad >= 0:
        raise ValueError(f"decks[{bad}]: each row must hold every card code 0..{rules.deck_size - 1} exactly once")
    return decks


def play_games(lineup: Sequence[str], rules: Rules, decks: np.ndarray, seeds: np.ndarray, *,
               max_asks: int = MAX_ASKS, moves: bool = False) -> dict:
    """Play one game per row of ``decks``, seat ``p`` using strategy ``lineup[p]``.

    Args:
        lineup: strategy names by seat (``random``, ``memory``, ``most_held``).
        rules: the rules, for which :func:`supports` must hold.
        decks: ``(games, rules.deck_size)`` integer card codes, ``rank_index * CARDS_PER_RANK + suit_index``
            (suits in :data:`~gofish_teach.cards.SUITS` order); column 0 is the top of the deck.
        seeds: ``(games, k)`` non-negative integers, ``k`` at least the number of players
            (:func:`~gofish_teach.simulate.game_inputs` gives ``k = SEATS``): seat ``s`` of game
            ``g`` draws from its own generator, ``strategies.seat_rng(int(seeds[g, s]))``,
            whose doubles are ``np.random.default_rng(int(seeds[g, s]))``'s.
        max_asks: a safety cap. Compiled code cannot be interrupted, so a game that reaches
            this many asks raises :class:`GameTooLong` instead of running on.
        moves: also return every ask, for comparing the engines ask by ask.

    Returns:
        ``{"books": (games, n_players) int64, "asks": (games,) int64, "winners": (games, n_players) bool}``,
        the same as :func:`gofish_teach.simulate.play_game_readable` gives for each game; with
        ``moves=True`` also ``"moves"``, a list with each game's asks as an ``(asks, 3)`` array
        of rows (player, target, rank index).
    """
    decks = _check(lineup, rules, decks)
    games, n = decks.shape[0], len(lineup)
    seeds = as_seeds(seeds, (games, None), f"({games}, n) integer seeds, one per seat (n >= {n}) of each game")
    if seeds.shape[1] < n:
        raise ValueError(f"seeds: {seeds.shape[1]} per game, but {n} seats each need their own")
    if isinstance(max_asks, bool) or not isinstance(max_asks, (int, np.integer)) or max_asks < 1:
        raise ValueError(f"max_asks must be a positive int, not {max_asks!r}")
    codes = strategy_codes(lineup)
    trace = np.zeros((games * MOVES_ROOM if moves else 0, 3), np.int16)
    while True:
        books = np.zeros((games, n), np.int64)
        asks = np.zeros(games, np.int64)
        winners = np.zeros((games, n), np.bool_)
        stuck, idle, used = _play_many(codes, *rule_codes(rules, n), rules.n_ranks, int(max_asks), decks, seeds,
                                       books, asks, winners, trace)
        if stuck >= 0:
            raise GameTooLong(too_long_message(f"decks[{stuck}]", max_asks, idle, lineup, rules), row=int(stuck),
                              idle_asks=int(idle))  # the row: for simulate, to name the tournament's game
        if not moves or used <= len(trace):  # without moves, trace has no rows and needs none
            break
        trace = np.zeros((used, 3), np.int16)  # the same games again, with room for every ask
    out = {"books": books, "asks": asks, "winners": winners}
    if moves:
        out["moves"] = np.split(trace[:used], np.cumsum(asks)[:-1])
    return out
