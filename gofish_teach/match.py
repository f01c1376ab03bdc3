"""A match: one :class:`~gofish_teach.game.Game` with people at some seats and bots at the others.

``Game`` knows the rules; ``Match`` knows who sits where. A person asks through
:meth:`Match.ask`; bots ask when told to, one at a time (:meth:`Match.step`, a teacher's
step mode) or until a person must decide (:meth:`Match.advance`). :meth:`Match.undo` takes
back the last person's ask and every bot ask after it, and observers hear of every new
event. The playable table (:class:`gofish_teach.widgets.Table`) sits on it.

One seed makes the whole match reproducible: the deck is shuffled as
``Game(..., seed=seed)`` shuffles it, and each bot draws its random choices from its own
generator, derived from the seed for that seat alone (a bot cannot read the seed back).

>>> match = Match("pond", [None, "memory", "random"], seed=7, names=["Ann", "West", "East"])
>>> match.people, match.person_to_move
((0,), 0)
>>> [str(c) for c in match.game.hand(0)]
['2♥', '3♥', '5♣', '10♣', '10♦']
>>> for event in match.ask(1, "3", player=0): print(event.describe(match.names))
Ann asks West for 3s.
West says "Go Fish!"
Ann draws a card from the ocean.
It is West's turn.
>>> events = match.advance()          # the bots play until it is your turn again
>>> match.person_to_move, len(events) > 0
(0, True)
>>> match.undo()                      # your ask and the bot asks after it are taken back
>>> match.game.n_asks, match.person_to_move
(0, 0)
>>> match.ask(2, "K", player=1)
Traceback (most recent call last):
...
gofish_teach.asks.IllegalMove: seat 1 is a bot (strategy 'memory'): only a person's seat asks through Match.ask
"""
from __future__ import annotations

import secrets
from typing import Callable, NamedTuple, Sequence

import numpy as np

from . import strategies as _strategies
from .asks import as_move
from .events import Event
from .game import Game, IllegalMove
from .rules import Rules
from .strategies import GameTooLong, get_strategy, strategy_name

#: The spawn key that separates the bots' streams from the deck's (both come from one seed).
_BOT_STREAM = 1
#: A seed drawn for a match started without one stays below this, so a class can type it in.
FRESH_SEED_LIMIT = 1_000_000
#: One call of advance() stops with GameTooLong after this many bot asks (a bot that never progresses).
MAX_BOT_ASKS = 10_000


class BotError(IllegalMove):
    """A bot asked illegally, returned nonsense, or raised. The message names its seat and strategy;
    the game and the bot's random generator are as they were before it was asked."""

    def __init__(self, message: str, *, seat: int, strategy: str):
        super().__init__(message)
        self.seat = seat
        self.strategy = strategy


class Rebuilt(NamedTuple):
    """Told to observers in place of an event when the game is rebuilt: read ``match.game`` afresh.

    ``reason`` is ``"undo"`` or ``"new game"``; ``n_events`` is how many public events the
    rebuilt game holds.
    """

    reason: str
    n_events: int

    def describe(self, names=None) -> str:
        return f"The game is rebuilt ({self.reason})."


def _bot_rng(seed: int) -> np.random.Generator:
    """A bot's generator: ``strategies.seat_rng`` (which hides its seed) once it exists, else numpy's."""
    make = getattr(_strategies, "seat_rng", None) or np.random.default_rng
    return make(seed)


def seat_seeds(seed: int, n_players: int) -> list[int]:
    """One seed per seat for the bots' generators, drawn from ``seed`` apart from the deck's stream.

    >>> seat_seeds(7, 3) == seat_seeds(7, 3), len(set(seat_seeds(7, 3)))
    (True, 3)
    """
    words = np.random.SeedSequence(seed, spawn_key=(_BOT_STREAM,)).generate_state(n_players, np.uint64)
    return [int(w) for w in words]


def _check_seed(seed) -> int:
    if seed is None:
        return secrets.randbelow(FRESH_SEED_LIMIT)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed: expected a whole number >= 0 (or None for a fresh one), not {seed!r}")
    return int(seed)


class Match:
    """A game of Go Fish between people and bots.

    Args:
        rules: a :class:`~gofish_teach.rules.Rules` or a preset name (``"pond"``).
        lineup: one entry per seat: ``None`` for a person, or a strategy (a built-in name,
            a function ``f(view, rng)``, or an object with ``choose(view, rng)``).
        seed: deals the deck and seeds the bots; ``None`` draws a fresh one (see :attr:`seed`).
        names: seat names for the event sentences.
        max_bot_asks: one :meth:`advance` stops with ``GameTooLong`` after this many bot asks.

    Attributes:
        game: the live :class:`~gofish_teach.game.Game` (a new object after :meth:`undo` or
            :meth:`new_game`).
        seed: the seed of the current deal; the same seed and lineup replay the same match.
        people: the seats where a person sits, ascending.
        lineup: the lineup as given.
    """

    def __init__(self, rules, lineup: Sequence, *, seed=None, names: Sequence[str] | None = None,
                 max_bot_asks: int = MAX_BOT_ASKS):
        if isinstance(rules, str):
            rules = Rules.preset(rules)
        if not isinstance(rules, Rules):
            raise ValueError(f"rules: expected a Rules object or a preset name, not {rules!r}")
        if isinstance(lineup, (str, bytes)) or not isinstance(lineup, Sequence):
            raise ValueError(f"lineup: expected a list with one entry per seat (None for a person), not {lineup!r}")
        rules.check_players(len(lineup))
        self.rules = rules
        self.lineup = tuple(lineup)
        self.people = tuple(p for p, who in enumerate(self.lineup) if who is None)
        self._bots = {p: get_strategy(who) for p, who in enumerate(self.lineup) if who is not None}
        self._bot_names = {p: strategy_name(who) for p, who in enumerate(self.lineup) if who is not None}
        # what the table shows at a bot's seat: a strategy object's own ``label`` ("search bot"), not its class name
        self._bot_labels = {p: getattr(who, "label", None) or f"{self._bot_names[p]} bot"
                            for p, who in enumerate(self.lineup) if who is not None}
        self.names = tuple(names) if names is not None else None
        if isinstance(max_bot_asks, bool) or not isinstance(max_bot_asks, int) or max_bot_asks < 1:
            raise ValueError(f"max_bot_asks: expected a whole number >= 1, not {max_bot_asks!r}")
        self.max_bot_asks = max_bot_asks
        self._observers: list[Callable] = []
        self._deal(_check_seed(seed))

    # ------------------------------------------------------------------ set-up
    def _deal(self, seed: int) -> None:
        self.game = Game(self.rules, len(self.lineup), seed=seed, names=self.names)
        self.names = self.game.names
        self.seed = seed
        seeds = seat_seeds(seed, len(self.lineup))
        self._rngs = {p: _bot_rng(seeds[p]) for p in self._bots}
        # Before each person's ask: how many asks had been made, and every bot's generator state.
        self._checkpoints: list[tuple[int, dict]] = []

    def new_game(self, seed=None) -> None:
        """Deal again with the same rules and lineup: ``seed`` (or a fresh one). Observers are told."""
        self._deal(_check_seed(seed))
        self._tell(Rebuilt("new game", len(self.game.events)))

    # ------------------------------------------------------------------ whose turn
    @property
    def person_to_move(self) -> int | None:
        """The person's seat that must ask now, or ``None`` (a bot's turn, or the game is over)."""
        game = self.game
        if game.is_over or game.current_player in self._bots:
            return None
        return game.current_player

    def waiting_for(self, seat: int) -> bool:
        """True when the game waits for ``seat`` (a person) to ask."""
        return self.person_to_move == seat

    @property
    def bot_to_move(self) -> int | None:
        """The bot's seat that asks next, or ``None`` (a person's turn, or the game is over)."""
        game = self.game
        if game.is_over or game.current_player not in self._bots:
            return None
        return game.current_player

    def strategy_of(self, seat: int) -> str | None:
        """The name of the strategy at ``seat``, or ``None`` for a person."""
        return self._bot_names.get(seat)

    def label_of(self, seat: int) -> str | None:
        """How a table names the bot at ``seat`` ("memory bot", "search bot"), or ``None`` for a person.

        >>> from gofish_teach.bestplay import SearchBot
        >>> match = Match("pond", [None, "memory", SearchBot()])
        >>> match.label_of(0), match.label_of(1), match.label_of(2)
        (None, 'memory bot', 'search bot')
        """
        return self._bot_labels.get(seat)

    # ------------------------------------------------------------------ playing
    def ask(self, target, rank, suit=None, *, player: int) -> list[Event]:
        """``player`` (a person's seat) asks ``target`` for ``rank``; returns the new events.

        Raises :class:`IllegalMove` (and changes nothing) when ``player`` is not a person,
        it is not their turn, or the rules forbid the ask.
        """
        if player not in self.people:
            if player in self._bots:
                raise IllegalMove(f"seat {player} is a bot (strategy {self._bot_names[player]!r}): "
                                  "only a person's seat asks through Match.ask")
            raise IllegalMove(f"player {player!r} is not a person's seat: people sit at {list(self.people)}")
        game = self.game
        game.check_ask(target, rank, suit, player=player)  # before the checkpoint: an illegal ask leaves no trace
        checkpoint = (game.n_asks, {p: rng.bit_generator.state for p, rng in self._rngs.items()})
        start = len(game.events)
        game.ask(target, rank, suit, player=player)
        self._checkpoints.append(checkpoint)
        return self._new_events(start)

    def step(self) -> list[Event]:
        """Exactly one bot ask; returns its events. :class:`IllegalMove` if no bot is to ask."""
        seat = self.bot_to_move
        if seat is None:
            why = "the game is over" if self.game.is_over else f"it is {self.game.names[self.game.current_player]}'s turn (a person)"
            raise IllegalMove(f"no bot is to ask: {why}")
        start = len(self.game.events)
        self._bot_ask(seat)
        return self._new_events(start)

    def advance(self) -> list[Event]:
        """Bots ask until a person must ask or the game ends; returns the new events."""
        start, asks = len(self.game.events), 0
        try:
            while (seat := self.bot_to_move) is not None:
                if asks == self.max_bot_asks:
                    raise self.stalled(asks)
                self._bot_ask(seat)
                asks += 1
        finally:
            # Observers hear of every ask that was made, even when a later bot failed.
            events = self._new_events(start)
        return events

    def stalled(self, asks: int) -> GameTooLong:
        """The error for ``asks`` bot asks in a row with no person's turn and no end (see ``max_bot_asks``);
        whoever plays the bots one :meth:`step` at a time raises it too."""
        lineup = ", ".join("person" if who is None else strategy_name(who) for who in self.lineup)
        return GameTooLong(f"the bots made {asks} asks in a row without the game ending or a person's "
                           f"turn coming (lineup: {lineup}; rules: {self.rules.name}"
                           f"{', teams' if self.rules.teams else ''}): is a bot asking for cards it can never get?")

    def _bot_ask(self, seat: int) -> None:
        game, rng = self.game, self._rngs[seat]
        saved = rng.bit_generator.state
        name = self._bot_names[seat]
        who = f"seat {seat} ({game.names[seat]}, strategy {name!r})"
        try:
            move = self._bots[seat](game.view(seat), rng)
        except Exception as e:  # any failure of a learner's code becomes one clear message
            rng.bit_generator.state = saved
            raise BotError(f"{who} raised {type(e).__name__}: {e}", seat=seat, strategy=name) from e
        try:
            game.ask(*as_move(move), player=seat)
        except (IllegalMove, TypeError, ValueError) as e:
            rng.bit_generator.state = saved
            raise BotError(f"{who} asked {move!r}: {e}", seat=seat, strategy=name) from None

    # ------------------------------------------------------------------ taking back
    @property
    def can_undo(self) -> bool:
        """True when some person has asked in this game (so :meth:`undo` has something to take back)."""
        return bool(self._checkpoints)

    def undo(self) -> None:
        """Take back the last person's ask and every bot ask after it, bots' generators included.

        The game is rebuilt by replaying its asks up to that point (``match.game`` is then a
        new object), and observers are told with :class:`Rebuilt`.
        """
        if not self._checkpoints:
            raise IllegalMove("nothing to undo: no person has asked in this game")
        n_asks, states = self._checkpoints.pop()
        moves = self.game.moves[:n_asks]
        game = Game(self.rules, len(self.lineup), seed=self.seed, names=self.names)
        for move in moves:
            game.ask(*move)
        self.game = game
        for p, state in states.items():
            self._rngs[p].bit_generator.state = state
        self._tell(Rebuilt("undo", len(game.events)))

    # ------------------------------------------------------------------ observers
    def observe(self, callback: Callable) -> Callable:
        """Call ``callback(event)`` with each new public event, and with a :class:`Rebuilt` when the
        game is rebuilt. Returns ``callback`` (so it can be used as a decorator).

        An exception in a callback propagates to whoever made the move; the move stands.
        """
        if not callable(callback):
            raise ValueError(f"callback: expected a function of one event, not {callback!r}")
        self._observers.append(callback)
        return callback

    def unobserve(self, callback: Callable) -> None:
        """Stop calling ``callback``."""
        self._observers.remove(callback)

    def _tell(self, item) -> None:
        for callback in list(self._observers):
            callback(item)

    def _new_events(self, start: int) -> list[Event]:
        events = list(self.game.events[start:])
        for event in events:
            self._tell(event)
        return events

    def __repr__(self) -> str:
        seats = ", ".join("person" if who is None else self._bot_names[p] for p, who in enumerate(self.lineup))
        return f"<Match {self.rules.name}, seed {self.seed}: {seats}; {self.game!r}>"
