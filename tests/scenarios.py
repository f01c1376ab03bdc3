"""Helpers for exact rule scenarios: stack a deck from readable hands, and snapshot a game.

A scenario names each seat's dealt hand and the top of the ocean; ``stacked`` turns that into
the deck order the engine deals from (index 0 is the top; one card at a time, round robin,
from seat 0), with every card the scenario does not name at the bottom of the ocean.

>>> show(stacked(["A♣ 2♣", "A♦ 2♦"], ocean="3♣", n_ranks=3)[:6])
'A♣ A♦ 2♣ 2♦ 3♣ A♥'
"""
from __future__ import annotations

import pytest

from gofish_teach import Card, Game, IllegalMove, Rules
from gofish_teach.cards import make_deck, ranks_for

#: A 5-rank game (hands, ocean) that ends 1, 2, 2 under ``pond`` or ``bicycle`` after ``TIED_ASKS``: seat 0
#: fishes 5♥ for 2s; seat 1 takes it, fishes 5♠ (lucky: a book of 5s), sits out with no cards; seat 2 takes
#: seat 0's 2s for the last book.
TIED = (["A♣ A♦ A♥ A♠ 2♣ 2♦", "3♣ 3♦ 3♥ 3♠ 5♣ 5♦", "4♣ 4♦ 4♥ 4♠ 2♥ 2♠"], "5♥ 5♠")
TIED_ASKS = [(1, "2"), (0, "5"), (2, "5"), (0, "2")]
TIED_OPTIONS = {"n_ranks": 5, "hand_size": 6}
#: 4 ranks, 3 x 5 cards: one card, 4♠, is left in the ocean.
LAST_CARD = ["A♣ A♦ 3♣ 2♣ 4♣", "A♥ 3♦ 2♦ 2♥ A♠", "3♥ 3♠ 4♦ 4♥ 2♠"]


def cards(spec: str) -> list[Card]:
    """``"7♣ 7d Q♠"`` -> the cards, in that order."""
    return [Card.parse(word) for word in spec.split()]


def show(some_cards) -> str:
    """Cards as the text a scenario writes them in: ``'7♣ 7♦ Q♠'``."""
    return " ".join(map(str, some_cards))


def stacked(hands: list[str], ocean: str = "", n_ranks: int = 13) -> list[Card]:
    """The deck order that deals ``hands`` (seat 0 first) and then has ``ocean`` on top of the rest."""
    dealt = [cards(h) for h in hands]
    size = len(dealt[0])
    assert all(len(h) == size for h in dealt), "every seat is dealt the same number of cards"
    order = [hand[k] for k in range(size) for hand in dealt] + cards(ocean)
    assert len(set(order)) == len(order), "a card is named twice"
    rest = [c for c in make_deck(ranks_for(n_ranks)) if c not in set(order)]
    return order + rest


def new_game(rules: Rules | str, hands: list[str], ocean: str = "", **options) -> Game:
    """A game under ``rules`` (a preset name or ``Rules``, with ``options`` replaced) dealt exactly ``hands``."""
    rules = Rules.preset(rules) if isinstance(rules, str) else rules
    if options:
        rules = rules.replace(**options)
    deal = rules.deal_size(len(hands))
    assert all(len(cards(h)) == deal for h in hands), f"the {rules.name} rules deal {deal} cards here"
    return Game(rules, len(hands), deck=stacked(hands, ocean, rules.n_ranks))


def play(game: Game, *asks) -> list:
    """Make several asks in a row; all their events."""
    events = []
    for ask in asks:
        events += game.ask(*ask)
    return events


def snapshot(game: Game) -> dict:
    """Everything observable about a game, to compare before and after a rejected ask."""
    n = game.n_players
    return {
        "events": game.events,
        "views": [game.view(p).events for p in range(n)],
        "hands": [game.hand(p) for p in range(n)],
        "hand_sizes": game.hand_sizes,
        "ocean": game.ocean(),
        "ocean_size": game.ocean_size,
        "books": game.books,
        "current_player": game.current_player,
        "is_over": game.is_over,
        "winners": game.winners,
        "moves": game.moves,
        "n_asks": game.n_asks,
        "legal_asks": game.legal_asks(),
        "json": game.to_json(),
    }


def assert_illegal(game: Game, *ask, match: str | None, **options) -> None:
    """``game.ask(*ask, **options)`` raises ``IllegalMove`` (with a message matching ``match``), and changes nothing."""
    before = snapshot(game)
    with pytest.raises(IllegalMove, match=match):
        game.ask(*ask, **options)
    assert snapshot(game) == before
