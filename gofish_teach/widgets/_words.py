"""The table's log, in the words of the person sitting at it: "You ask West for 7s."

The events describe themselves in the third person ("Player 0 asks ..."); at a table the
person's own doings read better in the second person, so those are written here.

>>> from gofish_teach import Ask, Draw, Give, GoFish, Card
>>> names = ("You", "West", "North")
>>> say(Ask(0, 1, "7"), names, 0)
'You ask West for 7s.'
>>> say(Give(1, 0, "7", 2), names, 0)
'West gives you two 7s.'
>>> say(GoFish(0, 2, "Q"), names, 0)
'You say "Go Fish!"'
>>> say(Draw(0, 1, (Card("7", "♥"),), "fish", True), names, 0)
'You draw 7♥, the rank you asked for: lucky draw!'
>>> say(Ask(2, 1, "K"), names, 0)        # the bots' doings, as the events tell them
'North asks West for Kings.'
"""
from __future__ import annotations

from ..cards import name, plural
from ..events import Ask, Book, Deal, Draw, GameOver, Give, GoFish, Skip, Source, Turn
from ..rules import PRESETS, Rules

_NUMBERS = ("no", "one", "two", "three", "four")


def count_of(n: int, rank: str) -> str:
    """``count_of(2, "7")`` -> ``'two 7s'``."""
    word = _NUMBERS[n] if n < len(_NUMBERS) else str(n)
    return f"{word} {name(rank) if n == 1 else plural(rank)}"


def books(n: int) -> str:
    return f"{n} book" if n == 1 else f"{n} books"


def join(parts) -> str:
    """``['A', 'B', 'C']`` -> ``'A, B and C'``."""
    parts = list(parts)
    return " and ".join(parts) if len(parts) < 3 else ", ".join(parts[:-1]) + " and " + parts[-1]


def say(event, names, me: int) -> str:
    """One log line for the person at seat ``me`` (``names[me]`` is how they are called, e.g. "You")."""
    def who(seat, start=True):
        if seat == me:
            return "You" if start else "you"
        return names[seat]

    kind = type(event)
    if kind is GameOver:
        return game_over(event, names, me)
    involved = {getattr(event, "player", None), getattr(event, "target", None), getattr(event, "to", None)}
    if me not in involved:
        return event.describe(names)
    if kind is Deal:
        shown = f": {' '.join(map(str, event.cards))}" if event.cards else ""
        return f"You are dealt {event.count} card{'s' * (event.count != 1)}{shown}."
    if kind is Ask:
        wanted = f"the {event.rank}{event.suit}" if event.suit else plural(event.rank)
        return f"{who(event.player)} {'ask' if event.player == me else 'asks'} {who(event.target, False)} for {wanted}."
    if kind is Give:
        verb = "give" if event.player == me else "gives"
        return f"{who(event.player)} {verb} {who(event.to, False)} {count_of(event.count, event.rank)}."
    if kind is GoFish:
        return 'You say "Go Fish!"'
    if kind is Draw:
        if event.lucky:
            return f"You draw {event.cards[0]}, the rank you asked for: lucky draw!"
        what = "a card" if event.count == 1 else f"{event.count} cards"
        shown = f" ({' '.join(map(str, event.cards))})" if event.cards else ""
        why = " because your hand is empty" if event.source == Source.EMPTY_HAND else ""
        return f"You draw {what}{shown} from the ocean{why}."
    if kind is Book:
        return f"You lay down a book of {plural(event.rank)}."
    if kind is Turn:
        return "It is your turn."
    if kind is Skip:
        return "You have no cards and the ocean is empty, so you sit out."
    return event.describe(names)


def game_over(event: GameOver, names, me: int) -> str:
    """'Game over (every book is made). You win with 6 books.' and the like, teams included."""
    def who(seat):
        return "you" if seat == me else names[seat]

    said = f"Game over ({event.reason})."
    winners = list(event.winners)
    if event.team_books is not None:
        n = len(event.books)
        teams = sorted({tuple(sorted((w, (w + n // 2) % n))) for w in winners})
        pairs = [join(who(p) for p in team) for team in teams]
        pairs = [p[0].upper() + p[1:] for p in pairs]
        if len(teams) == 1:
            return f"{said} {pairs[0]} win as a team with {books(event.team_books)}."
        return f"{said} The teams of {', and of '.join(pairs)} share the win with {books(event.team_books)} each."
    text = join(who(w) for w in winners)
    text = text[0].upper() + text[1:]
    best = books(max(event.books))
    if len(winners) == 1:
        return f"{said} {text} win{'s' * (winners[0] != me)} with {best}."
    return f"{said} {text} share the win with {best} each."


def a_card(rank: str) -> str:
    """``'an Ace'``, ``'a 7'``, ``'an 8'``, ``'a King'``: one card of ``rank``, as said aloud.

    >>> a_card("A"), a_card("8"), a_card("10")
    ('an Ace', 'an 8', 'a 10')
    """
    spoken = name(rank)
    return f"{'an' if spoken[0] in 'A8' else 'a'} {spoken}"


def read_seed(text) -> int:
    """The seed typed in the seed box: a whole number, 0 or more, of any length.

    >>> read_seed(" 12345678901234567890123 ")
    12345678901234567890123
    >>> read_seed("-4")
    Traceback (most recent call last):
    ...
    ValueError: seed: a seed is a whole number, 0 or more, not -4; the game is unchanged
    """
    text = str(text).strip().replace("_", "").replace(",", "")
    if not text.isdigit():
        raise ValueError(f"seed: a seed is a whole number, 0 or more, not {text or 'an empty box'}; "
                          "the game is unchanged")
    return int(text)


def cards_word(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


#: Opponents' names by table size, clockwise from your left (play passes to the left).
SEAT_NAMES = {
    2: ("North",),
    3: ("West", "East"),
    4: ("West", "North", "East"),
    5: ("West", "Northwest", "Northeast", "East"),
    6: ("West", "Northwest", "North", "Northeast", "East"),
}


def rules_code(rules: Rules) -> str:
    """How to write ``rules``: ``'pond'`` for a preset, else the preset and what was changed.

    >>> rules_code(Rules.preset("pond")), rules_code(Rules.preset("pond").replace(teams=True))
    ("'pond'", "Rules.preset('pond').replace(teams=True)")
    """
    preset = PRESETS.get(rules.name)
    if preset is None:
        return repr(rules)
    changed = {f: getattr(rules, f) for f in rules.to_dict() if getattr(rules, f) != getattr(preset, f)}
    if not changed:
        return repr(rules.name)
    return f"Rules.preset({rules.name!r}).replace({', '.join(f'{k}={v!r}' for k, v in changed.items())})"


def default_names(n: int, me: int) -> list[str]:
    names = [""] * n
    names[me] = "You"
    for k, label in enumerate(SEAT_NAMES[n], start=1):
        names[(me + k) % n] = label
    return names
