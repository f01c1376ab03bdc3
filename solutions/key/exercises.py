"""The reference answers of exercises 01-11: what every exercise's check compares a learner's answer with.

The teacher's key (see ``__init__.py``): the grader and the build of the shipped case data
read it; the package and a learner's install never hold it. tests/test_exercises.py checks
every reference against the game engine and the probability code. Exercise 09's positions are
chosen here too (:func:`ask_who_asked_public`, :func:`ask_who_asked_hidden`): sorting positions
by the part of the rule they test takes the answer.

>>> deal_reference(["A♣", "2♣", "3♣", "4♣", "5♣", "6♣"], 2, 3)
[['A♣', '3♣', '5♣'], ['2♣', '4♣', '6♣']]
>>> next_asker_reference("classic", 0, "go fish", [3, 0, 4], 10)   # seat 1 draws one; the turn passes
2
>>> lay_books_reference(['5♣', '5♦', '5♥', '8♠'], book_size=2)   # the exercise's own example
(['5♥', '8♠'], ['5'])
>>> p_lucky_reference(["7♥", "7♣", "Q♦", "K♠"], "7", opponent_size=5)
Fraction(2, 43)
>>> p_holds_reference(["7♥", "7♣", "Q♦", "K♠"], "7", opponent_size=3)
Fraction(23, 188)
>>> import numpy as np
>>> from gofish_teach import Game, Rules
>>> view = Game(Rules.preset("pond"), 3, seed=1).view(0)
>>> ask_who_asked_reference(view, np.random.default_rng(0))   # no asks yet: most held rank, first opponent
(1, '7')
>>> from gofish_teach.exercises.strategy import lowest_rank, biggest_pile
>>> share, low, high = experiment_reference(lowest_rank, biggest_pile, games=20, seed=1)
>>> share, round(low, 4), round(high, 4)       # ties count 1/2, so 10.5 wins of 20
(0.525, 0.3205, 0.7215)
"""
from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from math import comb

import numpy as np

from gofish_teach.cards import ALL_RANKS
from gofish_teach.events import Ask, Give, GoFish
from gofish_teach.exercises.game_logic import rank
from gofish_teach.exercises.strategy import SMALL_POND, position_case
from gofish_teach.game import Game
from gofish_teach.rules import Rules

SUITS_PER_RANK = 4


def _unseen(hand, books, n_ranks):
    """Cards you cannot see, by rank, and in all."""
    ranks = [rank(c) for c in hand]

    def of(r):
        return SUITS_PER_RANK - ranks.count(r) - SUITS_PER_RANK * list(books).count(r)
    total = SUITS_PER_RANK * n_ranks - len(hand) - SUITS_PER_RANK * len(books)
    return of, total

#: The 95% point of the standard normal distribution, for Wilson intervals.
Z95 = 1.959963984540054


def deal_reference(deck, n_players, hand_size):
    hands = [[] for _ in range(n_players)]
    for k in range(n_players * hand_size):  # one card at a time, round robin from seat 0
        hands[k % n_players].append(deck[k])
    return hands


def legal_asks_reference(hand, me, n_players):
    ranks = sorted({rank(c) for c in hand}, key=ALL_RANKS.index)
    return [(t, r) for t in range(n_players) if t != me for r in ranks]


def give_reference(asker_hand, target_hand, wanted):
    moved = [c for c in target_hand if rank(c) == wanted]
    return list(asker_hand) + moved, [c for c in target_hand if rank(c) != wanted]


def lay_books_reference(hand, book_size=4):
    """Lay the first ``book_size`` cards of a rank, in hand order, as a book; the last ones stay.

    (The exercise's own example: three 5s with pairs lay 5♣ 5♦ and keep 5♥. The check accepts
    any choice of which cards of a rank stay.)
    """
    counts = Counter(rank(c) for c in hand)
    books = [r for r in sorted(counts, key=ALL_RANKS.index) for _ in range(counts[r] // book_size)]
    laid, seen = Counter(), Counter()
    left = []
    for c in hand:
        r = rank(c)
        seen[r] += 1
        if seen[r] <= counts[r] // book_size * book_size:
            laid[r] += 1
        else:
            left.append(c)
    return left, books


def next_asker_reference(rules, current, outcome, hand_sizes, ocean):
    """Who asks next under ``rules`` ("pond" or "classic"), or None once the game is over."""
    n = len(hand_sizes)
    sizes = list(hand_sizes)

    def over():
        if rules == "classic":
            return ocean == 0  # the pack is exhausted
        return ocean == 0 and not any(sizes)  # pond: every card is in a book

    p = current if outcome in ("got cards", "lucky draw") else (current + 1) % n
    while not over():
        if sizes[p]:
            return p
        if ocean == 0:  # pond: an empty hand with an empty ocean is skipped
            p = (p + 1) % n
        elif rules == "pond":
            return p  # draws one card and plays on
        else:  # classic: draws one card, and the turn passes
            sizes[p] += 1
            ocean -= 1
            p = (p + 1) % n
    return None


def game_over_reference(end, ocean, hand_sizes, books, total_books=13):
    """None while the game goes on; else the winners, seats ascending (ties share the win)."""
    over = sum(books) == total_books  # the last book always ends the game
    if end == "ocean_empty":
        over = over or ocean == 0
    elif end == "empty_hand_and_ocean":
        over = over or (ocean == 0 and 0 in hand_sizes)
    if not over:
        return None
    best = max(books)
    return [p for p, b in enumerate(books) if b == best]


def p_lucky_reference(hand, wanted, opponent_size, books=(), n_ranks=13):
    of, unseen = _unseen(hand, books, n_ranks)
    ocean = unseen - opponent_size  # "Go Fish!": none of the wanted rank is in the opponent's hand
    return Fraction(of(wanted), ocean)


def p_holds_reference(hand, wanted, opponent_size, books=(), lacks=(), n_ranks=13):
    of, unseen = _unseen(hand, books, n_ranks)
    pool = unseen - sum(of(r) for r in set(lacks))  # the opponent's cards come from these
    here = 0 if wanted in lacks else of(wanted)
    return 1 - Fraction(comb(pool - here, opponent_size), comb(pool, opponent_size))


def ask_who_asked_reference(view, rng=None):
    events = view.events
    held = view.counts
    for t in range(len(events) - 1, -1, -1):  # the latest ask first
        e = events[t]
        if type(e) is Ask and e.player in view.opponents and e.rank in held:
            later = events[t + 1:]
            if not any(type(f) in (Give, GoFish) and f.player == e.player and f.rank == e.rank for f in later):
                return e.player, e.rank
    target = next((q for q in view.opponents if view.hand_sizes[q]), view.opponents[0])
    return target, max(held, key=held.get)  # counts are in rank order: ties go to the lowest rank


def _category(view) -> str:
    """Which part of the rule a position tests (to pick a varied set of cases)."""
    events, held, me = view.events, view.counts, view.player
    asks = [(t, e) for t, e in enumerate(events) if type(e) is Ask]
    if not any(e.player != me for _, e in asks):
        return "fallback"
    expected = ask_who_asked_reference(view)
    qualifying = [(t, e) for t, e in asks if e.player != me and e.rank in held]
    latest = asks[-1][1]
    if latest.player == me and latest.rank in held:
        return "own ask latest"
    if not qualifying or (expected not in [(e.player, e.rank) for _, e in qualifying]):
        return "fallback" if not qualifying else "all stale"
    first_fit = next(e for _, e in reversed(qualifying))
    if (first_fit.player, first_fit.rank) != expected:
        return "stale skipped"
    opp = [e for _, e in asks if e.player != me]
    if opp[-1].rank not in held:
        return "not held skipped"
    if len({(e.player, e.rank) for _, e in qualifying}) > 1:
        return "several"
    return "latest"


def wilson(share_total: float, games: int, z: float = Z95) -> tuple[float, float]:
    p = share_total / games
    centre = p + z * z / (2 * games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return (centre - half) / scale, (centre + half) / scale


def experiment_reference(strategy, opponent, games, seed):
    """``strategy``'s win share against ``opponent`` in ``games`` SMALL_POND games, and its Wilson 95% interval."""
    from gofish_teach.strategies import play_out

    total = 0.0
    for g in range(games):
        game = Game(SMALL_POND, 2, seed=seed + g)
        me = g % 2  # seats alternate: each moves first in half the games
        lineup = [strategy, opponent] if me == 0 else [opponent, strategy]
        play_out(game, lineup, np.random.default_rng(seed + g))
        if me in game.winners:
            total += 1 / len(game.winners)  # a tie shares the win
    low, high = wilson(total, games)
    return total / games, low, high


#: The kinds of position exercise 09 checks, in the order its cases show them. The last two
#: catch reading "stale" events from before the ask, and a fallback to an opponent with no cards.
CATEGORIES = ("fallback", "latest", "several", "not held skipped", "stale skipped", "own ask latest")
EXTRA_CATEGORIES = ("stale before the ask", "fallback past an empty hand")


def _chosen_ask(view):
    """The index of the ask the reference follows, or None for the fallback."""
    events, held = view.events, view.counts
    for t in range(len(events) - 1, -1, -1):
        e = events[t]
        if type(e) is Ask and e.player in view.opponents and e.rank in held:
            if not any(type(f) in (Give, GoFish) and f.player == e.player and f.rank == e.rank for f in events[t + 1:]):
                return t
    return None


def _extra_category(view) -> str | None:
    t = _chosen_ask(view)
    if t is None:
        return "fallback past an empty hand" if view.hand_sizes[view.opponents[0]] == 0 else None
    e = view.events[t]
    if any(type(f) in (Give, GoFish) and f.player == e.player and f.rank == e.rank for f in view.events[:t]):
        return "stale before the ask"
    return None


def find_positions(seeds=range(200), per_category: int = 2, max_asks: int = 14) -> list[tuple[int, int, int]]:
    """``(n_players, seed, asks)`` of positions from seeded games of random play, a few of each category."""
    from gofish_teach.exercises.strategy import random_asker

    found: dict[str, list] = {c: [] for c in CATEGORIES + EXTRA_CATEGORIES}

    def play(extra: bool):
        for seed in seeds:
            n = 3 + seed % 2
            game = Game(Rules.preset("pond"), n, seed=seed)
            rng = np.random.default_rng(seed)
            while not game.is_over and (extra or game.n_asks <= max_asks):
                view = game.view(game.current_player)
                kind = _extra_category(view) if extra else _category(view)
                if kind in found and len(found[kind]) < per_category and not (kind == "fallback" and game.n_asks > 4):
                    found[kind].append((n, seed, game.n_asks))
                game.ask(*random_asker(view, rng))
            wanted = EXTRA_CATEGORIES if extra else CATEGORIES
            if all(len(found[c]) == per_category for c in wanted):
                return

    play(extra=False)
    play(extra=True)
    return [spec for c in CATEGORIES + EXTRA_CATEGORIES for spec in found[c]]


def ask_who_asked_public():
    """Exercise 09's public cases: two positions of each kind, from seeded games (the notebook shows them)."""
    return [position_case(spec) for spec in find_positions()]


def ask_who_asked_hidden(rng):
    """The grader's hidden positions: one of each kind, from games its secret seed chooses."""
    start = int(rng.integers(1000, 2**30))
    return [position_case(spec) for spec in find_positions(range(start, start + 400), per_category=1)]


def posterior_after_ask_reference(prior, hand, opponents, shown, ask):
    """Exercise 12: the posterior over the strategies ``prior`` names (``random``, ``memory``, ``most_held``)
    after the seat holding ``hand`` made ``ask``, every opponent holding cards and no ask dead (the
    exercise's rules; self-contained, so that the answers can move as one function)."""
    order = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    target, asked = ask
    held = sorted(hand, key=order.index)
    if asked not in hand or target not in opponents:
        return {name: Fraction(p) for name, p in prior.items()}
    most = max(held, key=hand.get)  # max keeps the first of equals: the lowest rank
    most_held = Fraction(asked == most, len(opponents))
    wanted = [r for r in held if any(q in opponents for q in shown.get(r, []))]
    if wanted:
        rank = max(wanted, key=hand.get)
        memory = Fraction((target, asked) == ([q for q in shown[rank] if q in opponents][-1], rank))
    else:
        memory = most_held
    likelihood = {"random": Fraction(1, len(held) * len(opponents)), "memory": memory, "most_held": most_held}
    weights = {name: Fraction(p) * likelihood[name] for name, p in prior.items()}
    total = sum(weights.values())
    if total == 0:
        return {name: Fraction(p) for name, p in prior.items()}
    return {name: w / total for name, w in weights.items()}
