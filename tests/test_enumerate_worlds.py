"""The brute force behind test_probability_exact, checked on its own: counts worked out by hand
for a tiny game, and the game copies it branches from (which must share nothing that play changes)."""
from __future__ import annotations

import copy
from collections import Counter
from types import MappingProxyType

import numpy as np

from enumerate_worlds import _SET_UP, copy_game, stage_counts
from gofish_teach import Game, Rules
from gofish_teach.record import Record

TINY = Rules.preset("pond").replace(n_ranks=2, hand_size=1)  # four Aces and four 2s, one card each


def test_a_tiny_game_counted_by_hand_go_fish():
    """Player 0 holds an Ace, asks player 1 for Aces, is told to go fish and draws a 2.

    Before the ask player 0 has seen one Ace: the other seven cards (three Aces, four 2s) can
    lie in 7!/(3!4!) = 35 rank orders; player 1's card is an Ace in 6!/(2!4!) = 15 of them (the
    ocean then holds 2 Aces) and a 2 in 6!/(3!3!) = 20 (3 Aces in the ocean). After it, player
    1's card is a 2 (it had no Ace), player 0 holds one of each, and the five cards in the ocean
    (three Aces, two 2s) can lie in 5!/(3!2!) = 10 orders.
    """
    game = Game(TINY, 2, deck=["A", "2", "2", "A", "A", "2", "A", "2"])
    game.ask(1, "A")
    assert [c.rank for c in game.hand(0)] == ["A", "2"] and game.current_player == 1
    counts = stage_counts(game, 0)
    assert set(counts) == {0, 1}
    total, seats, ocean = counts[0]
    assert total == 35
    assert seats == {1: {"A": Counter({1: 15, 0: 20}), "2": Counter({0: 15, 1: 20})}}
    assert ocean == {"A": Counter({2: 15, 3: 20}), "2": Counter({4: 15, 3: 20})}
    total, seats, ocean = counts[1]
    assert total == 10
    assert seats == {1: {"A": Counter({0: 10}), "2": Counter({1: 10})}}
    assert ocean == {"A": Counter({3: 10}), "2": Counter({2: 10})}


def test_a_tiny_game_counted_by_hand_a_give():
    """Player 0 holds an Ace, asks player 1 for Aces and is given one. (The decks where player 1
    holds a 2 make it go fish and draw a card the walk leaves open: they are cut off there.)

    Stage 0 is counted as above. After the ask player 1 holds nothing, and the ocean's six
    cards (two Aces, four 2s) can lie in 6!/(2!4!) = 15 orders.
    """
    game = Game(TINY, 2, deck=["A", "A", "2", "A", "A", "2", "2", "2"])
    game.ask(1, "A")
    assert [c.rank for c in game.hand(0)] == ["A", "A"] and game.hand(1) == ()
    counts = stage_counts(game, 0)
    assert set(counts) == {0, 1}
    assert counts[0][0] == 35 and counts[0][1] == {1: {"A": Counter({1: 15, 0: 20}), "2": Counter({0: 15, 1: 20})}}
    total, seats, ocean = counts[1]
    assert total == 15
    assert seats == {1: {"A": Counter({0: 15}), "2": Counter({0: 15})}}
    assert ocean == {"A": Counter({2: 15}), "2": Counter({4: 15})}


def _mutable_parts(value, found: dict) -> dict:
    """``{id: object}`` for every list, dict, set and other changeable object reachable from ``value``."""
    if isinstance(value, (int, str, float, type(None), Rules, MappingProxyType)) or id(value) in found:
        return found
    if isinstance(value, (tuple, frozenset)):
        for v in value:
            _mutable_parts(v, found)
        return found
    found[id(value)] = value
    if isinstance(value, dict):
        for v in value.values():
            _mutable_parts(v, found)
    elif isinstance(value, (list, set)):
        for v in value:
            _mutable_parts(v, found)
    else:  # an object: its attributes, in a __dict__ or in __slots__
        slots = [name for kind in type(value).__mro__ for name in getattr(kind, "__slots__", ())]
        for v in [*getattr(value, "__dict__", {}).values(), *(getattr(value, name) for name in slots if hasattr(value, name))]:
            _mutable_parts(v, found)
    return found


def test_a_copied_game_shares_nothing_play_changes_and_plays_on_as_the_original():
    rng = np.random.default_rng(0)
    for preset in ("pond", "family", "bicycle", "classic"):
        for teams in (False, True):
            rules = Rules.preset(preset).replace(teams=teams)
            game = Game(rules, 4, seed=int(rng.integers(1 << 30)))
            moves = []
            while not game.is_over:
                asks = game.legal_asks()
                moves.append(asks[int(rng.integers(len(asks)))])
                game.ask(*moves[-1])
            half = Game(rules, 4, deck=game.deck)
            for move in moves[:len(moves) // 2]:
                half.ask(*move)
            for p in range(4):
                _ = half.view(p).events  # fills the view caches a copy must copy too
            before = (half.to_json(), half.events, [half.hand(p) for p in range(4)], half.ocean(),
                      [half.view(p).events for p in range(4)], [half.view(p).record.sizes for p in range(4)])
            other = copy_game(half)
            # the tables made in __init__ and only read afterwards are shared; all else is not
            set_up = {name: value for name, value in vars(half).items() if name in _SET_UP}
            set_up_before = copy.deepcopy(set_up)
            original_parts, copy_parts = ({name: value for name, value in vars(g).items() if name not in _SET_UP}
                                          for g in (half, other))
            original_parts, copy_parts = _mutable_parts(original_parts, {}), _mutable_parts(copy_parts, {})
            shared = original_parts.keys() & copy_parts.keys()
            assert not shared, [type(original_parts[i]).__name__ for i in shared]
            assert any(isinstance(v, Record) for v in copy_parts.values())  # the caches were copied, not dropped
            for move in moves[len(moves) // 2:]:
                other.ask(*move)
            after = (half.to_json(), half.events, [half.hand(p) for p in range(4)], half.ocean(),
                     [half.view(p).events for p in range(4)], [half.view(p).record.sizes for p in range(4)])
            assert after == before and set_up == set_up_before
            assert other.to_json() == game.to_json() and other.events == game.events
            assert [other.view(p).events for p in range(4)] == [game.view(p).events for p in range(4)]
            assert [other.view(p).record.sizes for p in range(4)] == [game.view(p).record.sizes for p in range(4)]
