"""Properties of random games, checked with hypothesis over thousands of games.

Each example draws a preset (often with variants: bluff, Pairs, specific-card asks, teams, a
small deck, another hand size), a player count the rules allow and a seed, then plays
``GAMES`` games with uniformly random legal asks and checks one property after every ask.
"""
from __future__ import annotations

import dataclasses
import inspect
import random
import re
from collections.abc import Mapping
from types import MappingProxyType

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from gofish_teach import PRESETS, SUITS, Ask, Book, Card, Deal, Draw, Game, GameOver, Give, Rules, View
from scenarios import assert_illegal, snapshot

GAMES = 4  # games per example
# No shrinking: an example is already small (rules, a player count, a seed), and shrinking replays whole games.
SETTINGS = settings(max_examples=200, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow])

VARIANTS = st.fixed_dictionaries({}, optional={
    "bluff": st.just(True), "book_size": st.just(2), "specific_card": st.just(True), "teams": st.just(True),
    "n_ranks": st.integers(1, 13), "hand_size": st.integers(1, 9),
})


def _can_seat(rules: Rules, n_players: int) -> bool:
    try:
        rules.check_players(n_players)
    except ValueError:
        return False
    return True


@st.composite
def setups(draw) -> tuple[Rules, int, int]:
    """(rules, n_players, seed): a preset, half the time with some variants, and a player count it allows."""
    rules = Rules.preset(draw(st.sampled_from(sorted(PRESETS))))
    if draw(st.booleans()):
        varied = rules.replace(**draw(VARIANTS))
        if any(_can_seat(varied, n) for n in range(2, 7)):
            rules = varied
    n_players = draw(st.sampled_from([n for n in range(2, 7) if _can_seat(rules, n)]))
    return rules, n_players, draw(st.integers(0, 2**32 - 1))


def random_ask(game: Game, rng: random.Random) -> tuple:
    """A random legal ask; three times in four one that will succeed, if there is one (so that long games of
    bluffing or specific-card asks with an empty ocean still end in a few hundred asks)."""
    asks = game.legal_asks()
    if rng.random() < 0.75:
        held = {target: game.hand(target) for target in {a[0] for a in asks}}
        hits = [a for a in asks if any(c.rank == a[1] and a[2:] in ((), (c.suit,)) for c in held[a[0]])]
        asks = hits or asks
    return rng.choice(asks)


def play_games(setup, on_start=None, on_ask=None, choose=random_ask):
    """Play ``GAMES`` games of ``setup`` with random legal asks, calling the checks along the way."""
    rules, n_players, seed = setup
    rng = random.Random(seed)
    for _ in range(GAMES):
        game = Game(rules, n_players, seed=rng.randrange(2**32))
        state = on_start(game) if on_start else None
        limit = 100 * rules.deck_size
        while not game.is_over:
            assert game.n_asks < limit, f"the game has not ended after {limit} asks"
            ask = choose(game, rng)
            events = game.ask(*ask)
            if on_ask:
                on_ask(game, events, state, rng)


# ---------------------------------------------------------------- where every card is
class Shadow:
    """Every card's place, replayed event by event from the public log and the true deck order.

    Each event is checked as it is replayed (a Give moves cards the giver holds, a Book lays cards
    the player holds, a Draw takes the top of the ocean). ``seen[p]`` is every card player ``p``
    has held; ``shown`` every card shown to all (lucky draws, books, cards named and given in
    specific-card asks) or named by an ask (which tells nothing about where it is). With Pairs, which two of three cards make a pair is not public: all three
    count as shown, and the one left is read back from the game when the ask is over.
    """

    def __init__(self, game: Game):
        self.game = game
        self.hands = [set() for _ in range(game.n_players)]
        self.seen = [set() for _ in range(game.n_players)]
        self.shown: set[Card] = set()
        self.booked: set[Card] = set()
        self.unsure: list[dict[str, set]] = [{} for _ in range(game.n_players)]
        self.top = 0
        self.done = 0
        self.asked = None
        self.catch_up()

    def catch_up(self) -> None:
        for event in self.game.events[self.done:]:
            self.apply(event)
        self.done = len(self.game.events)
        for p, ranks in enumerate(self.unsure):
            for rank, laid in ranks.items():
                left = {c for c in self.game.hand(p) if c.rank == rank}
                assert left <= laid and len(laid - left) % self.game.rules.book_size == 0
                self.hands[p] |= left
                self.booked |= laid - left
            ranks.clear()

    def _take(self, player: int, cards) -> None:
        self.hands[player] |= set(cards)
        self.seen[player] |= set(cards)

    def apply(self, event) -> None:
        game, size = self.game, self.game.rules.book_size
        if isinstance(event, Deal):
            assert event.cards is None, "the public log hides every deal"
            n = game.n_players
            self._take(event.player, game.deck[event.player:event.count * n:n])
            self.top = max(self.top, event.count * n)
        elif isinstance(event, Draw):
            cards = game.deck[self.top:self.top + event.count]
            assert len(cards) == event.count, "a draw takes cards the ocean has"
            self.top += event.count
            if event.lucky:
                assert event.cards == tuple(cards) and event.count == 1 and cards[0].rank == self.asked.rank
                self.shown |= set(cards)
            else:
                assert event.cards is None, "the public log hides a card drawn unless it is shown"
            self._take(event.player, cards)
        elif isinstance(event, Ask):
            self.asked = event
            if event.suit:
                self.shown.add(Card(event.rank, event.suit))
        elif isinstance(event, Give):
            ask = self.asked
            assert (ask.player, ask.target, ask.rank) == (event.to, event.player, event.rank)
            moved = {c for c in self.hands[event.player] if c.rank == event.rank and ask.suit in (None, c.suit)}
            assert len(moved) == event.count > 0, "the asked player gives every card asked for"
            self.hands[event.player] -= moved
            self._take(event.to, moved)
            if ask.suit:
                self.shown |= moved
        elif isinstance(event, Book):
            p, held = event.player, {c for c in self.hands[event.player] if c.rank == event.rank}
            if event.rank in self.unsure[p]:
                return  # the second pair of four held
            assert len(held) >= size, "a book is laid from cards held"
            self.shown |= held
            self.hands[p] -= held
            if len(held) == size:
                self.booked |= held
            else:
                self.unsure[p][event.rank] = held

    def check_against(self, game: Game) -> None:
        """Hands, ocean and books agree with the game, and every card of the deck is in exactly one place."""
        assert [set(game.hand(p)) for p in range(game.n_players)] == self.hands
        assert game.ocean() == game.deck[self.top:]
        assert game.hand_sizes == tuple(len(h) for h in self.hands)
        assert sum(game.book_counts) * game.rules.book_size == len(self.booked)
        places = [c for h in self.hands for c in h] + list(game.ocean()) + list(self.booked)
        assert sorted(places) == sorted(game.deck) and len(game.deck) == game.rules.deck_size


@given(setups())
@SETTINGS
def test_cards_are_conserved_after_every_event(setup):
    def after(game, events, shadow, rng):
        shadow.catch_up()
        shadow.check_against(game)

    def start(game):
        shadow = Shadow(game)
        shadow.check_against(game)
        return shadow

    play_games(setup, on_start=start, on_ask=after)


# ---------------------------------------------------------------- the end
def _some_ask_can_succeed(game: Game) -> bool:
    """With the ocean empty: could any player take a card from an opponent?"""
    hands = [{c.rank for c in game.hand(p)} for p in range(game.n_players)]
    for p in range(game.n_players):
        for q in game.view(p).opponents:
            if (game.rules.bluff and hands[p] and hands[q]) or hands[p] & hands[q]:
                return True
    return False


def _end_reason(game: Game) -> str | None:
    """Which end rule (if any) says the game is over now."""
    rules = game.rules
    if sum(game.book_counts) == rules.total_books:
        return "every book is made"
    if game.ocean_size == 0:
        if rules.end == "ocean_empty":
            return "the ocean is empty"
        if rules.end == "empty_hand_and_ocean" and 0 in game.hand_sizes:
            return "the ocean is empty and a player has no cards"
        if rules.teams and not _some_ask_can_succeed(game):
            return "no ask can succeed any more"
    return None


def _check_end(game, events=None, state=None, rng=None) -> None:
    reason = _end_reason(game)
    over = [e for e in game.events if isinstance(e, GameOver)]
    if reason is None:
        assert not game.is_over and not over
        assert game.hand_sizes[game.current_player] > 0, "the player to ask holds cards"
        assert game.legal_asks()
        return
    assert game.is_over and over == [game.events[-1]], "the game ends as soon as its end rule says so"
    assert over[0].reason == reason
    scores = [sum(game.book_counts[q] for q in game.team_of(p)) for p in range(game.n_players)]
    assert game.winners == over[0].winners == tuple(p for p, s in enumerate(scores) if s == max(scores))
    assert game.legal_asks() == []


@given(setups())
@SETTINGS
def test_every_game_ends_under_its_end_rule(setup):
    play_games(setup, on_start=_check_end, on_ask=_check_end)


@given(setups())
@SETTINGS
def test_books_total_the_ranks_when_play_runs_to_the_last_book(setup):
    def after(game, events, state, rng):
        if game.is_over and game.rules.end == "all_books" and not game.rules.teams:
            assert sum(game.book_counts) == game.rules.total_books
            assert sorted(r for b in game.books for r in b) == sorted(game.rules.ranks * (4 // game.rules.book_size))

    play_games(setup, on_ask=after)


# ---------------------------------------------------------------- illegal asks
def _loose_ask(game: Game, rng: random.Random) -> tuple:
    """A request written as a user might: any seat or non-seat, any rank label in any case, or nonsense."""
    n, ranks = game.n_players, game.rules.ranks
    target = rng.choice([*range(-1, n + 1), *range(n), "1", None, True, 1.5])
    rank = rng.choice([*ranks, *ranks, *(r.lower() for r in ranks), "Z", "", None, 0, 14, ["A"], "K", "10"])
    suit = rng.choice([None, None, *SUITS, "h", "x"])
    return (target, rank) if suit is None else (target, rank, suit)


def _meaning(game: Game, ask: tuple) -> tuple | None:
    """The legal ask ``ask`` stands for, or None when it is not one."""
    target, rank, *suit = ask
    if type(target) is not int or not isinstance(rank, str) or rank.strip().upper() not in game.rules.ranks:
        return None
    suit = [{"h": "♥"}.get(s, s) for s in suit]
    meant = (target, rank.strip().upper(), *suit)
    return meant if meant in game.legal_asks() else None


@given(setups())
@SETTINGS
def test_illegal_asks_are_rejected_and_change_nothing(setup):
    def choose(game, rng):
        if rng.random() < 0.05:
            other = rng.choice([p for p in range(game.n_players) if p != game.current_player])
            assert_illegal(game, *rng.choice(game.legal_asks()), player=other, match="turn")
        if rng.random() < 0.15:
            ask = _loose_ask(game, rng)
            if _meaning(game, ask) is not None:
                return ask  # a legal ask written loosely is played
            assert_illegal(game, *ask, match=None)  # any message: which rule depends on the request
        return random_ask(game, rng)

    def after(game, events, seen_asks, rng):
        if game.is_over:
            assert_illegal(game, *rng.choice(sorted(seen_asks)), match="the game is over")
        else:
            seen_asks.update(game.legal_asks())

    play_games(setup, on_start=lambda game: set(game.legal_asks()), on_ask=after, choose=choose)


# ---------------------------------------------------------------- saving
@given(setups())
@SETTINGS
def test_a_saved_game_replays_to_the_same_log_and_state(setup):
    def after(game, events, state, rng):
        if game.is_over or rng.random() < 0.05:
            assert snapshot(Game.from_json(game.to_json())) == snapshot(game)

    play_games(setup, on_ask=after)


# ---------------------------------------------------------------- views
CARD_TEXT = re.compile(r"(10|[A2-9JQK])([♣♦♥♠])")
_NUMBERS = (type(None), int, float, complex)  # bool is an int
_ATOMS = frozenset({type(None), bool, int, float, complex})


class CardFinder:
    """Every card reachable from a value (as a Card, or written in a string); refuses a Game.

    Walks everything: the items of containers (a read-only mapping's too), a dataclass's fields,
    an array's values, the object a method is bound to, and any other object's public attributes
    (methods included; they are not called). One finder serves one example, every view of its games, and
    it only spares re-reading what cannot have changed: the cards in a tuple or frozenset made of
    immutable values alone (strings, numbers, cards, events, such tuples) are kept by identity
    (with the object, so that its id is not reused) and added again wherever a walk reaches it;
    a string's cards are kept by value. ``dir`` of an object whose type gives its names is read
    once per type (plus the object's own ``__dict__``), and whether a method takes no argument
    once per function.
    """

    def __init__(self):
        self._frozen: dict[int, tuple[object, frozenset]] = {}
        self._text: dict[str, frozenset] = {}
        self._names: dict[type, list[str]] = {}
        self._no_args: dict[int, tuple[object, bool]] = {}

    def cards_in(self, value, found: set, checked: set = frozenset(), visited: set | None = None) -> set:
        """Add the cards reachable from ``value`` to ``found`` and return it. Items of a container
        that are in ``checked`` (events already checked for this viewer) are passed over."""
        self._walk(value, found, checked, set() if visited is None else visited)
        return found

    def _walk(self, value, found: set, checked, visited: set) -> bool:
        """Add the cards reachable from ``value`` to ``found``; True if nothing in it can change."""
        kind = type(value)
        if kind in _ATOMS:  # the commonest values first, by exact type
            return True
        if kind is Card:
            found.add(value)
            return True
        if kind is str:
            found |= self._text_cards(value)
            return True
        assert not isinstance(value, Game), "a view exposes the game itself"
        if isinstance(value, Card):
            found.add(value)
            return True
        if isinstance(value, str):
            found |= self._text_cards(value)
            return True
        if isinstance(value, _NUMBERS):
            return True
        kept = self._frozen.get(id(value))
        if kept is not None:
            found |= kept[1]
            return True
        if id(value) in visited:
            return False
        visited.add(id(value))
        if isinstance(value, (tuple, frozenset)) and not hasattr(value, "__dict__"):
            items = [x for x in value if not (x.__hash__ and x in checked)]
            if hasattr(value, "describe"):
                items.append(str(value))  # an event: its sentence too
            mine = set()
            frozen = len(items) == len(value) + hasattr(value, "describe")
            for item in items:
                if type(item) not in _ATOMS:  # (saves a call)
                    frozen &= self._walk(item, mine, checked, visited)
            found |= mine
            if frozen:
                self._frozen[id(value)] = (value, frozenset(mine))
            return frozen
        if isinstance(value, (dict, Mapping)):
            items = [*value.keys(), *value.values()]
        elif isinstance(value, (tuple, list, set, frozenset)):
            items = [x for x in value if not (x.__hash__ and x in checked)]
            if hasattr(value, "describe"):
                items.append(str(value))
        elif dataclasses.is_dataclass(value):
            items = [getattr(value, f.name) for f in dataclasses.fields(value)]
        elif hasattr(value, "tolist"):
            items = [value.tolist()]
        elif inspect.ismethod(value):
            # the object it is bound to; not a class (a class method's), which is code, not a game's state
            owner = [] if isinstance(value.__self__, type) else [value.__self__]
            items = [*owner, *(getattr(value, name) for name in self._public_names(value))]
        else:
            items = [getattr(value, name) for name in self._public_names(value)]
        for item in items:
            if type(item) not in _ATOMS:
                self._walk(item, found, checked, visited)
        return False

    def _text_cards(self, text: str) -> frozenset:
        cards = self._text.get(text)
        if cards is None:
            cards = self._text[text] = frozenset(Card(r, s) for r, s in CARD_TEXT.findall(text))
        return cards

    def _public_names(self, value) -> list[str]:
        """``dir(value)`` without the names starting with ``_``."""
        cls = type(value)
        if value.__class__ is not cls or cls.__dir__ is not object.__dir__ or type(cls).__dir__ is not type.__dir__:
            return [name for name in dir(value) if not name.startswith("_")]
        # object.__dir__ is the names of the object's __dict__ and of its class (as dir(cls) lists them)
        names = self._names.get(cls)
        if names is None:
            names = self._names[cls] = [name for name in dir(cls) if not name.startswith("_")]
        own = getattr(value, "__dict__", None)
        if isinstance(own, dict) and own:
            names = sorted({*names, *(n for n in own if isinstance(n, str) and not n.startswith("_"))})
        return names

    def takes_no_args(self, method) -> bool:
        """True if the bound ``method`` can be called with no argument."""
        func = method.__func__
        kept = self._no_args.get(id(func))
        if kept is None:
            params = inspect.signature(method).parameters.values()
            needs = any(p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
            kept = self._no_args[id(func)] = (func, not needs)
        return kept[1]


def _public_surface(view, finder: CardFinder) -> dict:
    """Every public attribute of a view; methods that need no argument are called (the others
    are kept as they are: the walk reaches the object they are bound to)."""
    surface = {}
    for name in finder._public_names(view):
        value = getattr(view, name)
        if inspect.ismethod(value) and finder.takes_no_args(value):
            value = value()
        surface[name] = value
    return surface


def _start_checking_views(game: Game, finder: CardFinder) -> tuple:
    """The state :func:`_check_views` keeps for one game (and the check of its deal)."""
    state = (Shadow(game), [set() for _ in range(game.n_players)], finder)
    _check_views(game, None, state)
    return state


def _check_views(game: Game, events, state: tuple, rng=None) -> None:
    """Every card each player's view shows, it has seen (or it was shown to all)."""
    shadow, checked, finder = state
    shadow.catch_up()
    for p in range(game.n_players):
        surface = _public_surface(game.view(p), finder)
        found = finder.cards_in(surface, set(), checked[p])
        hidden = found - shadow.seen[p] - shadow.shown
        assert not hidden, f"player {p}'s view shows {hidden}, which it has not seen"
        checked[p].update(surface["events"])


@given(setups())
@SETTINGS
def test_no_view_shows_a_card_its_player_has_not_seen(setup):
    finder = CardFinder()  # one per example: what it keeps is only ever read again within this example
    play_games(setup, on_start=lambda game: _start_checking_views(game, finder), on_ask=_check_views)


# ------------------------------------------- the leak check itself: it finds a card planted anywhere
class _Box:
    def __init__(self, inside):
        self.inside = inside


class _Slotted:
    __slots__ = ("inside",)

    def __init__(self, inside):
        self.inside = inside


@dataclasses.dataclass
class _Fields:
    inside: object


#: Ways a view could hold a card, each wrapping ``card``.
LEAKS = {
    "a card": lambda card: card,
    "its name in a sentence": lambda card: f"the bottom card is {card}.",
    "in a list in a dict": lambda card: {"cards": [card]},
    "as a dict key": lambda card: {card: 1},
    "in a read-only mapping": lambda card: MappingProxyType({"x": (card,)}),
    "in a set": lambda card: {card},
    "deep in tuples": lambda card: ((1, ("a", (card,))),),
    "in an event": lambda card: Draw(0, 1, (card,), "fish", lucky=True),
    "an attribute": lambda card: _Box([card]),
    "a slot": lambda card: _Slotted(card),
    "a dataclass field": lambda card: _Fields((card,)),
    "an array": lambda card: np.array([str(card), 1], dtype=object),
    "a method's object": lambda card: _Box(card).__init__,
}


@pytest.mark.parametrize("leak", LEAKS.values(), ids=LEAKS)
def test_the_card_finder_finds_a_card_wherever_it_is(leak):
    card = Card("7", "♥")
    assert card in CardFinder().cards_in(leak(card), set())
    finder = CardFinder()
    assert finder.cards_in([leak(Card("8", "♣"))], set()) >= {Card("8", "♣")}
    assert card in finder.cards_in(("x", leak(card)), set()), "found again by a finder that has walked before"


@pytest.mark.parametrize("leak", LEAKS.values(), ids=LEAKS)
def test_a_view_that_shows_another_players_card_fails_the_check(leak, monkeypatch):
    game = Game(Rules.preset("pond"), 3, seed=5)
    monkeypatch.setattr(View, "peek", property(lambda view: leak(game.hand((view.player + 1) % 3)[0])),
                        raising=False)
    with pytest.raises(AssertionError, match="player 0's view shows"):
        _start_checking_views(game, CardFinder())


def test_a_method_that_shows_a_card_fails_the_check(monkeypatch):
    game = Game(Rules.preset("pond"), 3, seed=5)
    monkeypatch.setattr(View, "peek", lambda view: [game.ocean()[-1]], raising=False)
    with pytest.raises(AssertionError, match="player 0's view shows"):
        _start_checking_views(game, CardFinder())


def test_a_card_in_a_tuple_shared_by_every_view_is_found_for_each(monkeypatch):
    """Player 0 holds the card: its view passes, and the finder keeps the tuple; player 1's fails."""
    game = Game(Rules.preset("pond"), 3, seed=5)
    shared = (("held by player 0",), game.hand(0)[0])
    monkeypatch.setattr(View, "peek", property(lambda view: shared), raising=False)
    with pytest.raises(AssertionError, match="player 1's view shows"):
        _start_checking_views(game, CardFinder())


def test_a_card_put_later_into_something_already_walked_is_found(monkeypatch):
    """What can change is walked again at every check, also inside a tuple (which then is not kept)."""
    game = Game(Rules.preset("pond"), 3, seed=5)
    box = []
    for shape in (lambda: box, lambda: ("fixed", box), lambda: _Box(box), lambda: MappingProxyType({"x": box})):
        monkeypatch.setattr(View, "peek", property(lambda view, shape=shape: shape()), raising=False)
        state = _start_checking_views(game, CardFinder())
        for _ in range(3):
            game.ask(*game.legal_asks()[0])
            _check_views(game, None, state)
        box.append(game.ocean()[-1])  # the bottom of the ocean: nobody has seen it
        with pytest.raises(AssertionError, match="view shows"):
            _check_views(game, None, state)
        box.clear()


@given(setups())
@SETTINGS
def test_a_view_agrees_with_the_game(setup):
    def check(game, events=None, state=None, rng=None):
        for p in range(game.n_players):
            view = game.view(p)
            assert view.hand == game.hand(p) and sum(view.counts.values()) == len(view.hand)
            assert (view.hand_sizes, view.books, view.ocean_size) == (game.hand_sizes, game.books, game.ocean_size)
            assert (view.current_player, view.is_over, view.winners) == (game.current_player, game.is_over, game.winners)
            assert len(view.events) == len(game.events)
            assert view.legal_asks() == (game.legal_asks() if p == game.current_player else [])

    play_games(setup, on_start=check, on_ask=check)


# ---------------------------------------------------------------- a view cannot change the game
_LEAVE_ALONE = (type, type(random), type(len), type(inspect), type(_check_views), type(print), property)


def _vandalize(value, visited: set) -> None:
    """Do every harm a strategy could do to ``value`` and what it reaches: empty and fill every list,
    dict and set, and overwrite every attribute of every object (instances only: classes, modules
    and functions are shared by every game in the process, so changing them is out of scope)."""
    if value is None or isinstance(value, (str, bytes, int, float, complex, _LEAVE_ALONE)) or id(value) in visited:
        return
    visited.add(id(value))
    if isinstance(value, dict):
        for item in [*value.keys(), *value.values()]:
            _vandalize(item, visited)
        value.clear()
        value["A"] = 99
    elif isinstance(value, (list, set)):
        for item in list(value):
            _vandalize(item, visited)
        value.clear()
        value.add(-1) if isinstance(value, set) else value.extend([-1, None])
    elif isinstance(value, (tuple, frozenset)):
        for item in value:
            _vandalize(item, visited)
    names = [n for cls in type(value).__mro__ for n in getattr(cls, "__slots__", ()) if n != "__weakref__"]
    names += list(getattr(value, "__dict__", {}))
    for name in names:
        try:
            _vandalize(object.__getattribute__(value, name), visited)
        except AttributeError:
            continue
        for setter in (setattr, object.__setattr__):
            try:
                setter(value, name, None)
            except (AttributeError, TypeError):
                pass


def _record_state(record) -> tuple:
    return (record.n_events, record.sizes, record.ocean, record.last_ask, record.shown, record.dead,
            record.unsettled, record.over)


@given(setups())
@settings(SETTINGS, max_examples=60)
def test_a_strategy_harming_its_view_cannot_change_the_game(setup):
    rules, n_players, seed = setup
    rng = random.Random(seed)
    for _ in range(2):
        deal = rng.randrange(2**32)
        game, twin = Game(rules, n_players, seed=deal), Game(rules, n_players, seed=deal)  # twin: never harmed
        while not twin.is_over:
            assert twin.n_asks < 100 * rules.deck_size
            p = game.current_player
            before = snapshot(game)
            view = game.view(p)
            view.events, view.hand, view.counts, view.legal_asks()  # what is made on demand, made
            _vandalize(view, set())
            _vandalize(game.view((p + 1) % n_players), set())
            assert snapshot(game) == before, "harming a view changed the game"
            for q in range(n_players):
                assert _record_state(game.view(q).record) == _record_state(twin.view(q).record)
            ask = random_ask(twin, rng)
            assert game.ask(*ask) == twin.ask(*ask)
        assert game.events == twin.events and game.is_over
