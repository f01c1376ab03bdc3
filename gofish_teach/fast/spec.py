"""What the fast path plays and takes, in plain Python: which lineups and rules, the card
codes of its decks, the codes its compiled loop reads the rules and strategies as, and the cap
on asks (with what :class:`~gofish_teach.strategies.GameTooLong` says when a game reaches it).

Why a module of its own: both :mod:`gofish_teach.simulate` (which calls the fast path) and the
compiled fast path (:mod:`.engine`) need these, and neither may import the other for them.
simulate must answer "can the fast path play this?" without loading numba (which takes a
moment), and the engine, imported by simulate, must not import simulate back.

>>> from gofish_teach import Rules
>>> fast_path_plays(["memory", "random"], Rules.preset("family"))
True
>>> divmod(51, CARDS_PER_RANK)      # card code 51: rank index 12, suit index 3 (the King of spades)
(12, 3)
>>> rule_codes(Rules.preset("pond"), 4)
RuleCodes(deal=5, empty_rule=1, end_rule=0, draw_again=False, book_size=4, total_books=13, teams=False, bluff=False)
"""
from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np

from ..cards import SUITS
from ..rules import EMPTY_HAND_RULES, END_RULES, EmptyHand, End, Rules
from ..strategies import strategy_name

# CARDS_PER_RANK, the order of FAST_STRATEGIES and the codes below are compiled into the cached
# code of engine.py (and of bestplay/search.py), and numba's cache does not notice a change made
# in another file: after changing any, delete those caches (gofish_teach/fast/__pycache__/engine.*.nbi
# and .nbc, gofish_teach/bestplay/__pycache__/search.*).
#: Cards of each rank, one per suit. A deck is passed around as card codes
#: ``rank_index * CARDS_PER_RANK + suit_index`` (see :func:`gofish_teach.simulate.deck_cards`).
CARDS_PER_RANK = len(SUITS)
#: The built-in strategies the compiled fast path (:mod:`gofish_teach.fast`) plays; a strategy's
#: index here is its code in the compiled loop.
FAST_STRATEGIES: tuple[str, ...] = ("random", "memory", "most_held")
#: Default safety cap on asks in one game; built-in strategies need a few hundred at most.
MAX_ASKS = 10_000

# The compiled loop cannot take strings, so every choice the rules and the lineup make is
# passed as a small int; these names say which. (numba reads module-level ints as constants.)
#: Strategy codes: the index in FAST_STRATEGIES.
RANDOM, MEMORY, MOST_HELD = (FAST_STRATEGIES.index(name) for name in ("random", "memory", "most_held"))
#: Empty-hand rule codes (Rules.empty_hand).
NEW_HAND, DRAW_ONE_PLAY, DRAW_ONE_PASS = 0, 1, 2
EMPTY_HAND_CODES = {EmptyHand.NEW_HAND: NEW_HAND, EmptyHand.DRAW_ONE_PLAY: DRAW_ONE_PLAY,
                    EmptyHand.DRAW_ONE_PASS: DRAW_ONE_PASS}
#: End rule codes (Rules.end).
ALL_BOOKS, EMPTY_HAND_AND_OCEAN, OCEAN_EMPTY = 0, 1, 2
END_CODES = {End.ALL_BOOKS: ALL_BOOKS, End.EMPTY_HAND_AND_OCEAN: EMPTY_HAND_AND_OCEAN, End.OCEAN_EMPTY: OCEAN_EMPTY}
assert set(EMPTY_HAND_CODES) == set(EMPTY_HAND_RULES) and set(END_CODES) == set(END_RULES), \
    "a rule option was added: give it a code here and a branch in engine.play_on"
#: The partner of a seat when there are no teams.
NO_PARTNER = -1
#: play_games' result when a game reaches max_asks without ending.
TOO_LONG = -1


class RuleCodes(NamedTuple):
    """The rules as the compiled loop reads them, for ``n_players``: the arguments of
    :func:`~gofish_teach.fast.play_on` (and of the loops that call it) in their order."""
    deal: int
    empty_rule: int
    end_rule: int
    draw_again: bool
    book_size: int
    total_books: int
    teams: bool
    bluff: bool


def rule_codes(rules: Rules, n_players: int) -> RuleCodes:
    """``rules`` for ``n_players`` as :class:`RuleCodes`: the one place the rules become the compiled loop's codes."""
    return RuleCodes(rules.deal_size(n_players), EMPTY_HAND_CODES[rules.empty_hand], END_CODES[rules.end],
                     rules.book_draw_again, rules.book_size, rules.total_books, rules.teams, rules.bluff)


def strategy_codes(lineup: Sequence[str]) -> np.ndarray:
    """Strategy names by seat as the compiled loop's codes (their index in :data:`FAST_STRATEGIES`).

    >>> strategy_codes(["memory", "random", "most_held"]).tolist()
    [1, 0, 2]
    """
    return np.array([FAST_STRATEGIES.index(name) for name in lineup], np.int64)


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
