"""gofish-teach: a Go Fish rules engine, probability explorer and teaching kit for Jupyter.

>>> from gofish_teach import Game, Rules
>>> game = Game(Rules.preset("pond"), n_players=4, seed=7)
>>> game.current_player, game.ocean_size
(0, 32)
"""
import importlib

from .cards import ALL_RANKS, SUITS, Card, make_deck, plural, ranks_for
from .events import Ask, Book, Deal, Draw, Event, GameOver, GoFish, Give, Skip, Turn
from .game import Game, IllegalMove
from .rules import PRESETS, Rules
from .view import View

# The strategies and the simulator pull in numpy and the compiled fast path: loaded when first
# asked for, so that ``import gofish_teach`` (and the command line) stays quick.
_LAZY = {"simulate": "simulate", "play_out": "strategies", "random": "strategies", "memory": "strategies",
         "most_held": "strategies", "greedy": "strategies", "pick": "strategies", "known_holdings": "strategies",
         "get_strategy": "strategies"}

#: The public face for lessons, keys and users: what a notebook imports comes from here, or from
#: ``gofish_teach.widgets``, ``gofish_teach.probability``, ``gofish_teach.stats`` (and, for the
#: exercise notebooks, ``gofish_teach.exercises``; for the teacher's quiz, ``gofish_teach.quiz``).
#: ``tests/test_public_face.py`` holds every notebook to that.
__all__ = [
    "ALL_RANKS", "SUITS", "Card", "make_deck", "ranks_for", "plural", "Rules", "PRESETS", "Game", "IllegalMove",
    "View", "Event", "Deal", "Ask", "Give", "GoFish", "Draw", "Book", "Turn", "Skip", "GameOver", *_LAZY,
]
__version__ = "0.1.0"


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
