"""gofish-teach: a Go Fish rules engine, probability explorer and teaching kit for Jupyter.

>>> from gofish_teach import Game, Rules
>>> game = Game(Rules.preset("pond"), n_players=4, seed=7)
>>> game.current_player, game.ocean_size
(0, 32)
"""
from .cards import ALL_RANKS, SUITS, Card, make_deck, plural, ranks_for
from .events import Ask, Book, Deal, Draw, Event, GameOver, Give, GoFish, Skip, Turn
from .game import Game, IllegalMove
from .rules import PRESETS, Rules

# Eager, not lazy: once ``gofish_teach.simulate`` (the module) is imported anywhere, Python sets it
# as this package's attribute, and a lazy ``simulate`` would then be the module, not the function.
from .simulate import simulate
from .strategies import get_strategy, greedy, known_holdings, memory, most_held, pick, play_out, random, seat_rng
from .view import View

#: The public face for lessons, keys and users: what a notebook imports comes from here, or from
#: ``gofish_teach.widgets``, ``gofish_teach.probability``, ``gofish_teach.stats`` (and, for the
#: exercise notebooks, ``gofish_teach.exercises``; for the teacher's quiz, ``gofish_teach.quiz``).
#: ``tests/test_public_face.py`` holds every notebook to that.
__all__ = [
    "ALL_RANKS", "SUITS", "Card", "make_deck", "ranks_for", "plural", "Rules", "PRESETS", "Game", "IllegalMove",
    "View", "Event", "Deal", "Ask", "Give", "GoFish", "Draw", "Book", "Turn", "Skip", "GameOver",
    "simulate", "play_out", "random", "memory", "most_held", "greedy", "pick", "known_holdings", "get_strategy",
    "seat_rng",  # a seat's generator, as simulate gives it (lesson 09 plays games seat by seat)
]
__version__ = "0.1.0"

