"""What the fast path plays and takes, in plain Python: which lineups and rules, the card
codes of its decks, and the cap on asks (with what :class:`~gofish_teach.strategies.GameTooLong`
says when a game reaches it).

Why a module of its own: both :mod:`gofish_teach.simulate` (which calls the fast path) and
:mod:`gofish_teach.fast` (the compiled fast path) need these, and neither may import the other
for them. simulate must answer "can the fast path play this?" without loading numba (which
takes a moment), and fast, imported by simulate, must not import simulate back.

>>> from gofish_teach import Rules
>>> fast_path_plays(["memory", "random"], Rules.preset("family"))
True
>>> divmod(51, CARDS_PER_RANK)      # card code 51: rank index 12, suit index 3 (the King of spades)
(12, 3)
"""
from __future__ import annotations

from typing import Sequence

from .cards import SUITS
from .rules import Rules
from .strategies import strategy_name

# CARDS_PER_RANK and the order of FAST_STRATEGIES are compiled into fast.py's cached code, and
# numba's cache does not notice a change made in another file: after changing either, delete
# that cache (gofish_teach/__pycache__/fast.*.nbi and .nbc).
#: Cards of each rank, one per suit. A deck is passed around as card codes
#: ``rank_index * CARDS_PER_RANK + suit_index`` (see :func:`gofish_teach.simulate.deck_cards`).
CARDS_PER_RANK = len(SUITS)
#: The built-in strategies the compiled fast path (:mod:`gofish_teach.fast`) plays; a strategy's
#: index here is its code in the compiled loop.
FAST_STRATEGIES: tuple[str, ...] = ("random", "memory", "most_held")
#: Default safety cap on asks in one game; built-in strategies need a few hundred at most.
MAX_ASKS = 10_000


def fast_path_plays(lineup: Sequence, rules: Rules) -> bool:
    """Whether the compiled fast path can play this lineup (strategies by seat) under ``rules``.

    Answered here, without loading numba (which takes a moment), so that a run the fast path
    cannot play never loads it.

    >>> fast_path_plays(["memory", "random"], Rules.preset("family"))
    True
    >>> fast_path_plays(["greedy", "random"], Rules.preset("pond")), fast_path_plays(["random"] * 2, Rules(specific_card=True))
    (False, False)
    """
    if rules.specific_card:
        return False
    if not all(isinstance(name, str) and name in FAST_STRATEGIES for name in lineup):
        return False
    try:
        rules.check_players(len(lineup))
    except ValueError:
        return False
    return True


def too_long_message(where: str, max_asks: int, idle: int, lineup: Sequence, rules: Rules,
                     by_seat: Sequence | None = None) -> str:
    """What :class:`~gofish_teach.strategies.GameTooLong` says, from either engine: which game,
    whether a higher cap could help, the lineup as given and, when they differ, by seat, and
    whether the rules have teams.

    ``idle`` is how many of the last asks moved no card. With the ocean empty a failed ask
    changes nothing, so a game that spent half its asks that way is going round in circles.

    >>> print(too_long_message("game 7 of the tournament", 300, 200, ["mine", "random"] * 2,
    ...                        Rules.preset("pond").replace(teams=True)))
    game 7 of the tournament passed max_asks=300 asks without ending: no card has changed hands in its last 200 asks (the ocean is empty and every ask failed), so a strategy keeps asking for cards it cannot get, and a higher max_asks would not help. Lineup as given: mine, random, mine, random. Rules: pond with teams (partners may not ask each other, so a rank only a partner holds cannot be won).
    """
    text = f"{where} passed max_asks={max_asks:,} asks without ending: "
    if 2 * idle >= max_asks:
        text += (f"no card has changed hands in its last {idle:,} asks (the ocean is empty and every ask failed), "
                 "so a strategy keeps asking for cards it cannot get, and a higher max_asks would not help.")
    else:
        text += "cards were still changing hands, so if games really are this long, raise max_asks."
    given = [strategy_name(entry) for entry in lineup]
    text += f" Lineup as given: {', '.join(given)}."
    if by_seat is not None and [strategy_name(entry) for entry in by_seat] != given:
        text += f" By seat in this game: {', '.join(strategy_name(entry) for entry in by_seat)}."
    text += f" Rules: {rules.name}"
    if rules.teams:
        text += " with teams (partners may not ask each other, so a rank only a partner holds cannot be won)"
    return text + "."
