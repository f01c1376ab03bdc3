"""gofish-teach: a Go Fish rules engine, probability explorer and teaching kit for Jupyter.

>>> from gofish_teach import Game, Rules
>>> game = Game(Rules.preset("pond"), n_players=4, seed=7)
>>> game.current_player, game.ocean_size
(0, 32)
"""
from .cards import ALL_RANKS, SUITS, Card
from .events import Ask, Book, Deal, Draw, Event, GameOver, GoFish, Give, Skip, Turn
from .game import Game, IllegalMove
from .rules import PRESETS, Rules
from .view import View

__all__ = [
    "ALL_RANKS", "SUITS", "Card", "Rules", "PRESETS", "Game", "IllegalMove", "View",
    "Event", "Deal", "Ask", "Give", "GoFish", "Draw", "Book", "Turn", "Skip", "GameOver",
]
__version__ = "0.1.0"
