"""What happens in a game, one small record per happening, each readable as a sentence.

Events are the public log (``game.events``) and, with a player's own cards filled in, that
player's information state (``game.view(p).events``). A card another player drew is ``None``
in every log but that player's own.

>>> print(Ask(0, 2, "K"))
Player 0 asks Player 2 for Kings.
>>> print(Give(2, 0, "K", 2))
Player 2 gives Player 0 two Kings.
>>> print(Draw(1, 1, None, "fish"))
Player 1 draws a card from the ocean.
>>> print(Draw(1, 1, (Card("7", "♥"),), "fish", lucky=True).describe(["You", "West"]))
West draws 7♥, the rank asked for, and shows it: lucky draw!
"""
from __future__ import annotations

from typing import NamedTuple, Sequence

from .cards import Card, Word, name, plural

_NUMBERS = ("no", "one", "two", "three", "four")


def _who(seat: int, names: Sequence[str] | None) -> str:
    return names[seat] if names else f"Player {seat}"


def _join(parts: Sequence[str]) -> str:
    """``['A', 'B', 'C']`` -> ``'A, B and C'``."""
    return " and ".join(parts) if len(parts) < 3 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _books(n: int) -> str:
    return f"{n} book" if n == 1 else f"{n} books"


def _count(n: int, rank: str) -> str:
    word = _NUMBERS[n] if n < len(_NUMBERS) else str(n)
    return f"{word} {name(rank) if n == 1 else plural(rank)}"


class Source(Word):
    """Where a :class:`Draw` comes from: fishing after "Go Fish!", or the empty-hand rule."""

    FISH = "fish"
    EMPTY_HAND = "empty hand"


class Reason(Word):
    """Why a game ended (:attr:`GameOver.reason`)."""

    EVERY_BOOK = "every book is made"
    OCEAN_EMPTY = "the ocean is empty"
    OCEAN_AND_HAND_EMPTY = "the ocean is empty and a player has no cards"
    STALEMATE = "no ask can succeed any more"


class Deal(NamedTuple):
    """``player`` is dealt ``count`` cards; ``cards`` only in that player's own log."""

    player: int
    count: int  # type: ignore[assignment]  # a field named as the rules name it; shadows tuple.count
    cards: tuple[Card, ...] | None

    def describe(self, names=None) -> str:
        shown = f": {' '.join(map(str, self.cards))}" if self.cards is not None else ""
        cards = "card" if self.count == 1 else "cards"
        return f"{_who(self.player, names)} is dealt {self.count} {cards}{shown}."


class Ask(NamedTuple):
    """``player`` asks ``target`` for ``rank`` (and ``suit``, when asks name a card)."""

    player: int
    target: int
    rank: str
    suit: str | None = None

    def describe(self, names=None) -> str:
        wanted = f"the {self.rank}{self.suit}" if self.suit else plural(self.rank)
        return f"{_who(self.player, names)} asks {_who(self.target, names)} for {wanted}."


class Give(NamedTuple):
    """``player`` hands ``to`` every asked card it held: ``count`` cards of ``rank``."""

    player: int
    to: int
    rank: str
    count: int  # type: ignore[assignment]  # a field named as the rules name it; shadows tuple.count

    def describe(self, names=None) -> str:
        return f"{_who(self.player, names)} gives {_who(self.to, names)} {_count(self.count, self.rank)}."


class GoFish(NamedTuple):
    """``player`` holds none of what ``asker`` asked for."""

    player: int
    asker: int
    rank: str

    def describe(self, names=None) -> str:
        return f"{_who(self.player, names)} says \"Go Fish!\""


class Draw(NamedTuple):
    """``player`` takes ``count`` cards from the ocean.

    ``source`` is ``"fish"`` (after "Go Fish"), or ``"empty hand"`` (the empty-hand rule).
    ``lucky`` draws are shown to everyone, so their card is in every log.
    """

    player: int
    count: int  # type: ignore[assignment]  # a field named as the rules name it; shadows tuple.count
    cards: tuple[Card, ...] | None
    source: Source
    lucky: bool = False

    def describe(self, names=None) -> str:
        who = _who(self.player, names)
        if self.lucky and self.cards is not None:  # (a lucky draw's card is in every log)
            return f"{who} draws {self.cards[0]}, the rank asked for, and shows it: lucky draw!"
        what = "a card" if self.count == 1 else f"{self.count} cards"
        shown = f" ({' '.join(map(str, self.cards))})" if self.cards is not None else ""
        why = " because their hand is empty" if self.source == Source.EMPTY_HAND else ""
        return f"{who} draws {what}{shown} from the ocean{why}."


class Book(NamedTuple):
    """``player`` lays down a book of ``rank``."""

    player: int
    rank: str

    def describe(self, names=None) -> str:
        return f"{_who(self.player, names)} lays down a book of {plural(self.rank)}."


class Turn(NamedTuple):
    """The turn passes to ``player``."""

    player: int

    def describe(self, names=None) -> str:
        return f"It is {_who(self.player, names)}'s turn."


class Skip(NamedTuple):
    """``player`` has no cards and the ocean is empty, so sits out this turn."""

    player: int

    def describe(self, names=None) -> str:
        return f"{_who(self.player, names)} has no cards and the ocean is empty, so sits out."


class GameOver(NamedTuple):
    """The game has ended; ``winners`` share the win, ``reason`` says which end rule fired.

    ``books`` counts each seat's books. With teams, ``team_books`` is the winning team's pooled
    count (partners sit opposite: ``p`` and ``p + n/2``); without teams it is ``None``.

    >>> print(GameOver((0, 2), (1, 0, 2, 1), "every book is made", 3))
    Game over (every book is made). Player 0 and Player 2 win as a team with 3 books.
    """

    winners: tuple[int, ...]
    books: tuple[int, ...]
    reason: Reason
    team_books: int | None = None

    def describe(self, names=None) -> str:
        said = f"Game over ({self.reason})."
        if self.team_books is not None:
            n = len(self.books)
            teams = sorted({tuple(sorted((w, (w + n // 2) % n))) for w in self.winners})
            pairs = [" and ".join(_who(p, names) for p in team) for team in teams]
            if len(teams) == 1:
                return f"{said} {pairs[0]} win as a team with {_books(self.team_books)}."
            return (f"{said} The teams of {', and of '.join(pairs)} share the win "
                    f"with {_books(self.team_books)} each.")
        who = _join([_who(w, names) for w in self.winners])
        best = _books(max(self.books))
        if len(self.winners) == 1:
            return f"{said} {who} wins with {best}."
        return f"{said} {who} share the win with {best} each."


EVENT_TYPES = (Deal, Ask, Give, GoFish, Draw, Book, Turn, Skip, GameOver)
Event = Deal | Ask | Give | GoFish | Draw | Book | Turn | Skip | GameOver

def _sentence(event) -> str:
    return event.describe()


for _type in EVENT_TYPES:
    # str(event) is its sentence with default seat names ("Player 0").
    _type.__str__ = _sentence  # type: ignore[method-assign]  # one method for all nine NamedTuples
