"""The rules of a game of Go Fish, as one frozen object, and the presets the sources describe.

Four published rule texts disagree on the deal, on what a player with an empty hand does, and
on when the game ends. Each preset follows one of them, and its docstring (``Rules.preset(
"pond").__doc__``, the same text as its ``source``) names that text (title, author or
publisher, date, as far as the text gives them) and states its rules in our own words; the
texts themselves are not part of this repository. Every option can be overridden with
:meth:`Rules.replace`.

>>> pond = Rules.preset("pond")
>>> pond.deal_size(4), pond.empty_hand, pond.end
(5, 'draw_one_play', 'all_books')
>>> small = pond.replace(n_ranks=4, hand_size=3)
>>> small.ranks, small.deal_size(3), small.total_books
(('A', '2', '3', '4'), 3, 4)
"""
from __future__ import annotations

import numbers
from typing import Any, Iterable, NamedTuple

from .cards import SUITS, Word, ranks_for


class EmptyHand(Word):
    """:attr:`Rules.empty_hand`'s options (see :data:`EMPTY_HAND_RULES`)."""

    NEW_HAND = "new_hand"
    DRAW_ONE_PLAY = "draw_one_play"
    DRAW_ONE_PASS = "draw_one_pass"


class End(Word):
    """:attr:`Rules.end`'s options (see :data:`END_RULES`)."""

    ALL_BOOKS = "all_books"
    EMPTY_HAND_AND_OCEAN = "empty_hand_and_ocean"
    OCEAN_EMPTY = "ocean_empty"


#: What a player whose turn comes (or continues) with an empty hand does while the ocean has cards.
EMPTY_HAND_RULES = {
    EmptyHand.NEW_HAND: "draws a new hand of the starting size (or what remains), and the turn ends",
    EmptyHand.DRAW_ONE_PLAY: "draws one card and plays on",
    EmptyHand.DRAW_ONE_PASS: "draws one card, and the turn passes",
}
#: When the game ends, besides the moment the last book is made (which always ends it).
END_RULES = {
    End.ALL_BOOKS: "play runs until every book is made",
    End.EMPTY_HAND_AND_OCEAN: "the game also ends as soon as the ocean is empty and some player has no cards",
    End.OCEAN_EMPTY: "the game ends as soon as the ocean (the pack) is exhausted",
}


#: The player counts a game in teams of two allows (the "argument-proof" instructions that the
#: ``family`` preset follows suggest partners for four or six players).
TEAM_PLAYER_COUNTS = (4, 6)


class _Options(NamedTuple):
    """The stored options of :class:`Rules`, in order (see there)."""

    name: str = "custom"
    n_ranks: int = 13
    deal: tuple[tuple[int, int], ...] = ((2, 7), (4, 5))
    hand_size: int | None = None
    min_players: int = 2
    max_players: int = 6
    empty_hand: str = "draw_one_play"
    end: str = "all_books"
    book_draw_again: bool = False
    book_size: int = 4
    bluff: bool = False
    specific_card: bool = False
    teams: bool = False
    source: str = ""


class Rules(_Options):
    """Every choice that differs between the sources or the common variants.

    Attributes:
        name: the preset this came from, for display.
        n_ranks: ranks in the deck, the first ones of A, 2, ..., K (4 cards each).
        deal: hand size by player count, as ``((min_players, cards), ...)`` ascending.
        hand_size: when set, overrides ``deal`` for every player count.
        min_players, max_players: the player counts the rules allow.
        empty_hand: one of :data:`EMPTY_HAND_RULES`.
        end: one of :data:`END_RULES`.
        book_draw_again: a draw that completes a book gives another ask (Bicycle).
        book_size: cards of one rank that make a book: 4, or 2 for Pairs Go Fish.
        bluff: the house rule of asking for ranks you do not hold.
        specific_card: asks name a rank and a suit; only that exact card answers.
        teams: partners (seats ``p`` and ``p + n/2``) pool books and may not ask each other.
        source: the rules of the published text a preset follows, named and stated in our own
            words (also the preset's ``__doc__``); not compared, shown or saved.

    A ``Rules`` is truly immutable: its options live in a tuple, so not even
    ``object.__setattr__`` can change one that a game, a view or a strategy holds.

    >>> rules = Rules.preset("pond")
    >>> object.__setattr__(rules, "bluff", True)  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    AttributeError: can't set attribute
    >>> rules.replace(bluff=True).bluff, rules.bluff
    (True, False)
    """

    __slots__ = ()

    def __new__(cls, *args, **options) -> "Rules":
        self = tuple.__new__(cls, _checked(_Options(*args, **options)))
        self._check_teams()
        return self

    # The tuple underneath is an implementation detail: compare, hash and show like a record
    # of options, leaving out the source text (two presets differ in rules, not in prose).
    def __eq__(self, other) -> bool:
        if type(other) is not type(self):
            # Not NotImplemented for a tuple: Python would then ask tuple.__eq__, which compares items.
            return False if isinstance(other, tuple) else NotImplemented
        return self[:-1] == other[:-1]

    def __ne__(self, other) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self[:-1])

    def __repr__(self) -> str:
        shown = ", ".join(f"{field}={value!r}" for field, value in zip(self._fields[:-1], self, strict=False))
        return f"{type(self).__name__}({shown})"

    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> "Rules":  # type: ignore[override]  # Rules, not a generic _NT
        return cls(*iterable)  # checked, unlike the namedtuple default

    def _replace(self, **changes) -> "Rules":
        return self.replace(**changes)

    def _check_teams(self) -> None:
        """Teams of two need 4 or 6 players: rules for teams must allow one of those counts.

        (Whether the deck is big enough for the deal is checked per player count, by
        :meth:`check_players`, as for rules without teams.)
        """
        if self.teams and not any(self.min_players <= n <= self.max_players for n in TEAM_PLAYER_COUNTS):
            raise ValueError(f"Rules.teams: teams of two need 4 or 6 players, but these rules are for "
                             f"{self.min_players} to {self.max_players} players")

    # ----------------------------------------------------------------- derived values
    @property
    def ranks(self) -> tuple[str, ...]:
        """The rank labels in use, in order."""
        return ranks_for(self.n_ranks)

    @property
    def deck_size(self) -> int:
        return self.n_ranks * len(SUITS)

    @property
    def total_books(self) -> int:
        """Books made when play runs to the last one."""
        return self.n_ranks * (len(SUITS) // self.book_size)

    def deal_size(self, n_players: int) -> int:
        """Cards dealt to each player."""
        if self.hand_size is not None:
            return self.hand_size
        size = self.deal[0][1]
        for at_least, cards in self.deal:
            if n_players >= at_least:
                size = cards
        return size

    def check_players(self, n_players: int) -> None:
        """Raise ``ValueError`` naming the rule when ``n_players`` cannot play (numpy integers are fine)."""
        if (isinstance(n_players, bool) or not isinstance(n_players, numbers.Integral)
                or not self.min_players <= n_players <= self.max_players):
            shown = int(n_players) if isinstance(n_players, numbers.Integral) and not isinstance(n_players, bool) \
                else repr(n_players)
            raise ValueError(
                f"n_players: the {self.name} rules are for {self.min_players} to {self.max_players} players, not {shown}"
            )
        n_players = int(n_players)
        if self.teams and n_players not in TEAM_PLAYER_COUNTS:
            raise ValueError(f"n_players: teams of two need 4 or 6 players, not {n_players}")
        dealt = self.deal_size(n_players) * n_players
        if dealt > self.deck_size:
            raise ValueError(
                f"hand_size: dealing {self.deal_size(n_players)} cards to {n_players} players needs {dealt} cards, "
                f"but n_ranks={self.n_ranks} gives a deck of {self.deck_size}"
            )

    def partner(self, seat: int, n_players: int) -> int | None:
        """The partner of ``seat`` when playing in teams (the seat opposite), else ``None``."""
        return (seat + n_players // 2) % n_players if self.teams else None

    # ----------------------------------------------------------------- construction
    def replace(self, **changes) -> "Rules":
        """A copy with some options changed: ``Rules.preset('pond').replace(n_ranks=4, hand_size=3)``."""
        unknown = set(changes) - set(self._fields)
        if unknown:
            raise ValueError(f"Rules has no option {', '.join(sorted(unknown))}")
        return type(self)(**{**self._asdict(), **changes})

    def to_dict(self) -> dict:
        """Every option but ``source``, as JSON-ready values; :meth:`from_dict` reads it back."""
        data = self._asdict()
        del data["source"]
        data["deal"] = [list(pair) for pair in self.deal]
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "Rules":
        """The rules :meth:`to_dict` wrote: every option must be there (``source`` may be left out).

        A partial object is an error rather than a silent mix with the defaults: ``{"name": "pond"}``
        would otherwise deal 7 cards where the pond preset deals 5.
        """
        if not isinstance(data, dict):
            raise ValueError("rules: expected an object of rule options")
        unknown = set(data) - set(cls._fields)
        if unknown:
            raise ValueError(f"Rules has no option {', '.join(sorted(map(str, unknown)))}")
        missing = [field for field in cls._fields if field not in data and field != "source"]
        if missing:
            raise ValueError(f"rules: missing option(s) {', '.join(missing)}: a saved Rules names every option")
        return cls(**data)  # checks every option (and reads a JSON list as ``deal``)

    @classmethod
    def preset(cls, name: str) -> "Rules":
        """One of the presets in :data:`PRESETS` (``family``, ``pond``, ``bicycle``, ``classic``)."""
        try:
            return PRESETS[name]
        except KeyError:
            raise ValueError(f"unknown preset {name!r}: choose one of {', '.join(PRESETS)}") from None

    def describe(self) -> str:
        """A few lines a teacher can read aloud."""
        lines = [
            f"{self.name}: {self.n_ranks} ranks, {self.min_players}-{self.max_players} players",
            "deal: " + (f"{self.hand_size} cards each" if self.hand_size else
                        ", ".join(f"{c} cards for {p}+ players" for p, c in self.deal)),
            f"empty hand: {EMPTY_HAND_RULES[EmptyHand(self.empty_hand)]}",
            f"end: {END_RULES[End(self.end)]}",
        ]
        if self.book_draw_again:
            lines.append("a draw that completes a book gives another ask")
        extras = [label for flag, label in [(self.book_size == 2, "pairs"), (self.bluff, "bluffing"),
                                            (self.specific_card, "specific-card asks"), (self.teams, "teams")] if flag]
        if extras:
            lines.append("variants: " + ", ".join(extras))
        return "\n".join(lines)


def _checked(options: _Options) -> _Options:
    """The options, each checked (a bad one is named in a ``ValueError``), whole numbers stored as ``int``."""
    def whole(option: str, value) -> int:
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise ValueError(f"Rules.{option} must be a whole number, not {value!r}")
        return int(value)

    o = options
    for option in ("name", "source"):
        if not isinstance(getattr(o, option), str):
            raise ValueError(f"Rules.{option} must be a string, not {getattr(o, option)!r}")
    n_ranks, min_players, max_players, book_size = (
        whole(option, getattr(o, option)) for option in ("n_ranks", "min_players", "max_players", "book_size"))
    hand_size = None if o.hand_size is None else whole("hand_size", o.hand_size)
    for option in ("book_draw_again", "bluff", "specific_card", "teams"):
        if not isinstance(getattr(o, option), bool):
            raise ValueError(f"Rules.{option} must be True or False, not {getattr(o, option)!r}")
    try:
        deal = tuple((whole("deal", players), whole("deal", cards)) for players, cards in o.deal)
    except (TypeError, ValueError):
        raise ValueError(f"Rules.deal must be (players, cards) pairs like ((2, 7), (4, 5)), not {o.deal!r}") from None
    ranks_for(n_ranks)  # validates n_ranks
    if o.empty_hand not in EMPTY_HAND_RULES:
        raise ValueError(f"Rules.empty_hand must be one of {sorted(EMPTY_HAND_RULES)}, not {o.empty_hand!r}")
    if o.end not in END_RULES:
        raise ValueError(f"Rules.end must be one of {sorted(END_RULES)}, not {o.end!r}")
    if book_size not in (2, 4):
        raise ValueError(f"Rules.book_size must be 4 (books) or 2 (Pairs Go Fish), not {book_size!r}")
    if hand_size is not None and hand_size < 1:
        raise ValueError(f"Rules.hand_size must be at least 1, not {hand_size!r}")
    if not 2 <= min_players <= max_players:
        raise ValueError("Rules.min_players must be at least 2 and at most max_players")
    if (not deal or deal[0][0] > min_players or any(cards < 1 for _, cards in deal)
            or any(a >= b for (a, _), (b, _) in zip(deal, deal[1:], strict=False))):
        raise ValueError("Rules.deal must be (players, cards) pairs, players ascending from at most "
                         f"min_players, each dealing at least 1 card: not {o.deal!r}")
    return o._replace(n_ranks=n_ranks, deal=deal, hand_size=hand_size, min_players=min_players,
                      max_players=max_players, book_size=book_size, empty_hand=EmptyHand(o.empty_hand), end=End(o.end))


class _SourceDoc:
    """``Rules.__doc__``: the class docstring, but on a preset the rules it follows (so ``preset?`` states them)."""

    def __init__(self, text: str):
        self.text = text

    def __get__(self, rules, owner=None) -> str:
        return rules.source if rules is not None and rules.source else self.text


Rules.__doc__ = _SourceDoc(Rules.__doc__ or "")  # type: ignore[assignment]  # a descriptor in __doc__'s place


FAMILY = Rules(
    name="family", deal=((2, 7), (4, 5)), max_players=6,
    empty_hand="new_hand", end="empty_hand_and_ocean",
    source="""Source A: the "argument-proof" Go Fish instructions, an unsigned web article with no
title, publisher or date in the copy we hold (it ends with a summary headed "A 60-Second Go
Fish Rulebook"). Its rules, in our words:

- Two to six players; two or three players get seven cards each, four or more get five.
- A player who starts a turn with no cards, while the ocean has cards, draws a fresh hand of
  the size they were dealt, and drawing it is their whole turn.
- The game stops when the last book is made, and also at once when the ocean is empty and a
  player has just lost the last card from their hand.
- Its variants are this kit's options: bluffing as a house rule (``bluff``), Pairs Go Fish
  (``book_size=2``), asking for one card by rank and suit (``specific_card``), and teams of
  two at four or six players who may not ask each other and pool their books (``teams``).

It does not say what happens to a tie for the most books; here tied players share the win.
""",
)

POND = Rules(
    name="pond", deal=((2, 5),), max_players=6,
    empty_hand="draw_one_play", end="all_books",
    source="""Source B: "Go Fish", the rules page of an online card-game site that plays a live
four-player table (you against West, North and East) and calls its draw pile the "pond"; no
author or date is given. Its rules, in our words:

- Two to six players. Its table deals five cards to each of four players; this preset deals
  five at every player count (the page gives seven for two players only as a common
  table custom).
- A player whose hand is empty at the start of their turn takes one card from the pond and
  plays on; once the pond is empty too, that player is passed over. With the pond empty, a
  failed ask just passes the turn.
- Play goes on until all thirteen books are made; players tied for the most books share
  the win.
""",
)

BICYCLE = Rules(
    name="bicycle", deal=((2, 7), (4, 5)), max_players=5,
    empty_hand="draw_one_play", end="all_books", book_draw_again=True,
    source="""Source C: "How to play Go Fish", an unsigned, undated web page that follows the Go Fish
rules of Bicycle (the playing-card brand) for two to five players, and adds its own tie
rule. Its rules, in our words:

- Two or three players get seven cards each; four or five get five.
- Completing a book earns another ask, even when the card that completed it came from the
  stock and was not the rank asked for.
- A player with an empty hand draws one card at their turn and asks for that card's rank; if
  the stock is empty as well they sit out, and the books they made still count. With the
  stock empty, a failed ask ends the turn without a draw.
- Play goes on until every book is made; the page's own convention (Bicycle gives none) is
  that players tied for the most books share the win.
""",
)

CLASSIC = Rules(
    name="classic", deal=((2, 7), (3, 5)), max_players=6,
    empty_hand="draw_one_pass", end="ocean_empty",
    source="""Source D: "Go Fish", a blog post of 22 June 2009 in a blog's card-games category,
posted by Jenny and signed by Andrew. Its rules, in our words:

- Two to six players; two players get seven cards each, three or more get five.
- The game ends when the draw pile runs out; the most books wins.
- A player who runs out of cards may draw the top card, but must wait for their next turn
  to ask.

It does not say what happens to a tie for the most books; here tied players share the win.
""",
)

#: The presets by name, each following one published rule text.
PRESETS: dict[str, Rules] = {r.name: r for r in (FAMILY, POND, BICYCLE, CLASSIC)}
