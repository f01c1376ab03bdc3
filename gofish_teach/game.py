"""The game: a state you drive with ``ask``, and the log of what happened.

The only decision in Go Fish is whom to ask for what; everything else (handing over cards,
fishing, laying books, the empty-hand rule, passing the turn) follows from the rules. So
``Game.ask`` resolves a whole ask and every automatic step after it, and returns when the
next decision is due.

>>> from gofish_teach import Game, Rules
>>> rules = Rules.preset("pond").replace(n_ranks=3, hand_size=2)
>>> game = Game(rules, n_players=2, deck=["A", "A", "2", "A", "3", "3", "2", "A", "2", "3", "2", "3"])
>>> game.hand(0), game.hand(1)
((Card('A', '♣'), Card('2', '♣')), (Card('A', '♦'), Card('A', '♥')))
>>> game.legal_asks()
[(1, 'A'), (1, '2')]
>>> for event in game.ask(1, "A"): print(event)
Player 0 asks Player 1 for Aces.
Player 1 gives Player 0 two Aces.
>>> game
<Game pond, 2 players, 1 asks, ocean 8, books [0, 0], player 0 to ask>
>>> game.ask(1, "3")
Traceback (most recent call last):
...
gofish_teach.asks.IllegalMove: player 0 holds no 3s, so cannot ask for 3s
"""
from __future__ import annotations

import json
import os
import secrets
from typing import Iterable, Sequence

import numpy as np

# InvalidAsk is imported to be importable from here too.
from .asks import IllegalMove, InvalidAsk, legal_asks, parse_ask, shown_value, why_illegal  # noqa: F401
from .asks import is_whole as _is_whole
from .cards import SUITS, Card, deck_set, make_deck, normalize_rank
from .events import Ask, Book, Deal, Draw, Event, GameOver, Give, GoFish, Reason, Skip, Source, Turn
from .record import Record
from .rules import PRESETS, EmptyHand, End, Rules
from .view import BLOCK, View

SAVE_FORMAT = "gofish-teach/1"
#: The longest saved game :meth:`Game.from_json` reads, in characters. A game stopped at
#: ``simulate.MAX_ASKS`` (10,000 asks) saves in under 200,000; this leaves room and refuses a huge file.
MAX_SAVE_CHARS = 10_000_000
#: How deeply a saved game's lists and objects may nest (the format itself nests 4 deep: rules -> deal -> pair).
MAX_SAVE_DEPTH = 8
#: Digits a number in a saved game may have (every number in the format is a seat, a count or a size).
MAX_SAVE_DIGITS = 9

class Game:
    """One game of Go Fish under some :class:`Rules`.

    Args:
        rules: the rules to play by, or a preset name (``"pond"``, ``"family"``, ...).
        n_players: seats 0 .. n_players-1; seat 0 is dealt first and moves first.
        seed: shuffle the deck with ``numpy.random.default_rng(seed)``: ``None`` (fresh entropy)
            or a non-negative whole number.
        deck: instead of a seed, the deck order (index 0 is the top, dealt first), as cards
            (``Card`` or ``'Q♥'``) or as rank labels (suits are then given in order of appearance).
        names: seat names for the event sentences (default "Player 0", "Player 1", ...).
    """

    def __init__(self, rules: Rules | str, n_players: int, *, seed=None, deck: Iterable | None = None,
                 names: Sequence[str] | None = None):
        if isinstance(rules, str):
            try:
                rules = Rules.preset(rules)
            except ValueError as e:
                raise ValueError(f"rules: {e}") from None
        elif not isinstance(rules, Rules):
            raise ValueError(f"rules: expected a Rules or a preset name ({', '.join(PRESETS)}), not {shown_value(rules)}")
        rules.check_players(n_players)
        if seed is not None and (not _is_whole(seed) or seed < 0):
            raise ValueError(f"seed: expected None or a non-negative whole number, not {shown_value(seed)}")
        self.rules = rules  # immutable, so sharing it with every view is safe
        n_players = self.n_players = int(n_players)
        if names is not None and (isinstance(names, str) or not all(isinstance(name, str) for name in names)):
            raise ValueError(f"names: expected a list of {n_players} strings, not {names!r}")
        self.names = tuple(names) if names is not None else tuple(f"Player {p}" for p in range(n_players))
        if len(self.names) != n_players:
            raise ValueError(f"names: expected {n_players} names, got {len(self.names)}")
        self.ranks = rules.ranks
        self._rank_index = {r: i for i, r in enumerate(self.ranks)}
        self.deck: tuple[Card, ...] = tuple(self._make_deck(seed, deck))

        # Each seat's suits of each rank (in order of arrival), as tuples replaced rather than
        # changed: a view takes a seat's hand as one tuple of them, without copying any.
        self._hands: list[list[tuple[str, ...]]] = [[()] * len(self.ranks) for _ in range(n_players)]
        self._sizes = [0] * n_players
        self._books: list[list[str]] = [[] for _ in range(n_players)]
        self._books_snapshot: tuple[tuple[str, ...], ...] = ((),) * n_players
        self._n_books = 0
        self._booked = [0] * len(self.ranks)  # cards of each rank laid down in books
        self._total_books = rules.total_books
        self._opponents = [tuple(q for q in range(n_players) if q != p and q != rules.partner(p, n_players))
                           for p in range(n_players)]
        self._top = 0  # deck[self._top:] is the ocean
        self._left = len(self.deck)  # cards in the ocean, kept as a number because every step reads it
        # The log. Public events in order; each seat's own versions of some of them (its dealt
        # and drawn cards shown) by index, and the same as a tuple of (index, event) pairs that
        # views share; the public events as frozen blocks and a chain of pairs (view.BLOCK) and as
        # read by a Record, brought up to date when a view is made (each event read once per
        # game, however many views), so that a view takes them without copying the log.
        self._events: list[Event] = []
        self._private: list[dict[int, Event]] = [{} for _ in range(n_players)]
        self._own: list[tuple] = [()] * n_players
        self._blocks: tuple[tuple[Event, ...], ...] = ()
        self._chain: tuple | None = None  # the public events after the last block
        self._record = Record(n_players, rules)
        self._moves: list[tuple[int, str, str | None]] = []
        self.current_player = 0
        self.is_over = False
        self.winners: tuple[int, ...] = ()
        self._deal()

    # ------------------------------------------------------------------ set-up
    def _make_deck(self, seed, deck) -> list[Card]:
        fresh = make_deck(self.ranks)
        if deck is None:
            order = np.random.default_rng(None if seed is None else int(seed)).permutation(len(fresh))
            return [fresh[i] for i in order]
        if seed is not None:
            raise ValueError("give either seed= or deck=, not both")
        cards: list[Card] = []
        next_suit: dict[str, int] = {}
        for k, item in enumerate(deck):
            try:
                if isinstance(item, Card):
                    card = item
                elif isinstance(item, str) and len(item.strip()) >= 2 and item.strip()[-1].lower() in "♣♦♥♠cdhs":
                    card = Card.parse(item)  # a rank label never ends in a suit letter
                else:
                    rank = normalize_rank(item)
                    n = next_suit.get(rank, 0)
                    next_suit[rank] = n + 1
                    card = Card(rank, SUITS[n % len(SUITS)])
            except ValueError as e:
                raise ValueError(f"deck: entry {k} ({item!r}) is not a card or rank: {e}") from None
            cards.append(card)
        if len(cards) != len(fresh) or not deck_set(self.ranks).issuperset(cards) or len(set(cards)) != len(fresh):
            missing = sorted(set(fresh) - set(cards))
            extra = sorted(set(cards) - set(fresh)) or sorted(c for c in set(cards) if cards.count(c) > 1)
            raise ValueError(
                f"deck: must hold each of the {len(fresh)} cards of ranks {', '.join(self.ranks)} exactly once"
                + (f"; missing {' '.join(map(str, missing[:6]))}" if missing else "")
                + (f"; unexpected or repeated {' '.join(map(str, extra[:6]))}" if extra else "")
            )
        return cards

    def _deal(self) -> None:
        size, n = self.rules.deal_size(self.n_players), self.n_players
        for k in range(size * n):  # one card at a time, round robin from seat 0
            card = self.deck[k]
            self._hands[k % n][self._rank_index[card.rank]] += (card.suit,)
        self._top = size * n
        self._left = len(self.deck) - self._top
        for p in range(n):
            self._sizes[p] = size
            cards = tuple(self.deck[p:size * n:n])
            self._log(Deal(p, size, None), p, Deal(p, size, cards))
        book_size = self.rules.book_size
        for p in range(n):  # books are laid at once, straight after the deal too
            for r, suits in enumerate(self._hands[p]):
                if len(suits) >= book_size:
                    self._lay_books(p, r)
        self._settle()

    # ------------------------------------------------------------------ reading the state
    @property
    def ocean_size(self) -> int:
        return self._left

    @property
    def events(self) -> tuple[Event, ...]:
        """The public log: everything every player saw (drawn cards hidden unless shown)."""
        return tuple(self._events)

    @property
    def books(self) -> tuple[tuple[str, ...], ...]:
        """The ranks each seat has laid down as books, in the order they were made."""
        return self._books_snapshot

    @property
    def book_counts(self) -> tuple[int, ...]:
        return tuple(len(b) for b in self._books)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(self._sizes)

    @property
    def n_asks(self) -> int:
        return len(self._moves)

    @property
    def moves(self) -> tuple[tuple, ...]:
        """Every ask made so far, as ``(target, rank)`` (``(target, rank, suit)`` for card asks)."""
        return tuple(m if m[2] else m[:2] for m in self._moves)

    def hand(self, player: int) -> tuple[Card, ...]:
        """The cards ``player`` holds, sorted by rank then suit. (The truth: use ``view`` for what a player knows.)"""
        self._check_seat(player, "player")
        return tuple(Card(r, s) for r, suits in zip(self.ranks, self._hands[player], strict=True) for s in sorted(suits, key=SUITS.index))

    def count(self, player: int, rank: str) -> int:
        """How many cards of ``rank`` ``player`` holds."""
        self._check_seat(player, "player")
        return len(self._hands[player][self._index(rank)])

    def ocean(self) -> tuple[Card, ...]:
        """The ocean from the top down. (The truth: no player sees this.)"""
        return self.deck[self._top:]

    def view(self, player: int) -> View:
        """What ``player`` has seen, and nothing more: its information state, built from values."""
        if not (type(player) is int and 0 <= player < self.n_players):
            self._check_seat(player, "player")
            player = int(player)
        events, record = self._events, self._record
        n = len(events)
        start = record.n_events
        if start < n:  # read on from where the last view stopped
            advance, chain = record.advance, self._chain
            for event in events[start:n]:
                advance(event)
                chain = (chain, event)
            full = n // BLOCK * BLOCK
            if full > start // BLOCK * BLOCK:  # a block filled up: frozen, and the chain starts again after it
                for b in range(len(self._blocks) * BLOCK, full, BLOCK):
                    self._blocks += (tuple(events[b:b + BLOCK]),)
                chain = None
                for event in events[full:n]:
                    chain = (chain, event)
            self._chain = chain
        return View(player, self.n_players, self.rules, self.ranks, tuple(self._hands[player]),
                    tuple(self._sizes), self._books_snapshot, self._opponents[player], self._left,
                    self.current_player, self.is_over, self.winners, record.copy(), (self._blocks, self._chain), n, self._own[player])

    def team_of(self, player: int) -> tuple[int, ...]:
        """``player`` and its partner when playing in teams, else ``player`` alone."""
        self._check_seat(player, "player")
        player = int(player)
        partner = self.rules.partner(player, self.n_players)
        return (player,) if partner is None else tuple(sorted((player, partner)))

    # ------------------------------------------------------------------ the one decision
    def legal_asks(self) -> list[tuple]:
        """Every ask the current player may make: ``(target, rank)``, or ``(target, rank, suit)`` for card asks."""
        if self.is_over:
            return []
        p = self.current_player
        return legal_asks(self.rules, self.ranks, self._hands[p], self._booked, self._opponents[p])

    def check_ask(self, target, rank, suit=None, *, player=None) -> tuple[int, int, str | None]:
        """Raise :class:`IllegalMove` naming the rule if the current player (or ``player``) may not make
        this ask (:class:`~gofish_teach.asks.InvalidAsk` if it is not a move at all); else
        ``(target, rank index, suit)``. Parse, then explain: :func:`~gofish_teach.asks.parse_ask`,
        :func:`~gofish_teach.asks.why_illegal`."""
        if self.is_over:
            raise IllegalMove("the game is over, so no more asks")
        target, r, suit, player = parse_ask(target, rank, suit, n_players=self.n_players, ranks=self.ranks,
                                            rank_index=self._rank_index, specific_card=self.rules.specific_card,
                                            player=player)
        p = self.current_player
        why = why_illegal(p, target, r, suit, ranks=self.ranks, held=self._hands[p], booked=self._booked,
                          opponents=self._opponents[p], bluff=self.rules.bluff, player=player)
        if why is not None:
            raise IllegalMove(why)
        return target, r, suit

    def ask(self, target: int, rank: str, suit: str | None = None, *, player: int | None = None) -> list[Event]:
        """The current player asks ``target`` for ``rank``; returns the events until the next decision.

        ``player``, when given, is who means to ask (a widget's seat): an ask out of turn is illegal.
        Raises :class:`IllegalMove` (and changes nothing) if the ask breaks a rule.
        """
        p = self.current_player
        r = self._rank_index.get(rank) if type(rank) is str else None
        # The usual ask (a seat as an int, a rank label of this deck, no suit, no player, and
        # allowed) is taken at once; anything else goes through check_ask, which accepts the
        # same asks with the same parts, and explains the others.
        if (r is None or suit is not None or player is not None or type(target) is not int or self.is_over
                or target not in self._opponents[p] or self.rules.specific_card or self._booked[r] == len(SUITS)
                or not (self._hands[p][r] or self.rules.bluff)):
            target, r, suit = self.check_ask(target, rank, suit, player=player)
        start = len(self._events)
        label = self.ranks[r]
        self._moves.append((target, label, suit))
        events = self._events
        events.append(Ask(p, target, label, suit))
        held = self._hands[target][r]
        wanted = tuple(s for s in held if s == suit) if suit else held
        again = False
        if wanted:
            self._hands[target][r] = tuple(s for s in held if s != suit) if suit else ()
            self._hands[p][r] += wanted
            self._sizes[target] -= len(wanted)
            self._sizes[p] += len(wanted)
            events.append(Give(target, p, label, len(wanted)))
            if len(self._hands[p][r]) >= self.rules.book_size:
                self._lay_books(p, r)
            again = True
        else:
            events.append(GoFish(target, p, label))
            if self._left:
                card = self._draw(p)
                lucky = card.rank == label and (suit is None or card.suit == suit)
                if lucky:
                    events.append(Draw(p, 1, (card,), Source.FISH, True))
                else:
                    self._log(Draw(p, 1, None, Source.FISH), p, Draw(p, 1, (card,), Source.FISH))
                drawn = self._rank_index[card.rank]
                made_book = len(self._hands[p][drawn]) >= self.rules.book_size and self._lay_books(p, drawn)
                again = lucky or (made_book and self.rules.book_draw_again)
        if not self._end_if_over() and not again:
            self._pass_turn()
        if not self.is_over and not self._sizes[self.current_player]:
            self._settle()  # (nothing to do when the player to ask holds cards: the game did not end since)
        return events[start:]

    # ------------------------------------------------------------------ the automatic steps
    def _log(self, public: Event, player: int | None = None, private: Event | None = None) -> None:
        if private is not None:
            assert player is not None, "a private event names its player"
            t = len(self._events)
            self._private[player][t] = private
            self._own[player] += ((t, private),)
        self._events.append(public)

    def _draw(self, player: int) -> Card:
        card = self.deck[self._top]
        self._top += 1
        self._left -= 1
        self._hands[player][self._rank_index[card.rank]] += (card.suit,)
        self._sizes[player] += 1
        return card

    def _lay_books(self, player: int, r: int) -> bool:
        """Lay down every book of rank index ``r`` that ``player`` now holds; True if one was made."""
        hand, size = self._hands[player], self.rules.book_size
        made = False
        while len(hand[r]) >= size:
            hand[r] = hand[r][size:]
            self._sizes[player] -= size
            self._booked[r] += size
            self._books[player].append(self.ranks[r])
            self._books_snapshot = tuple(tuple(b) for b in self._books)
            self._n_books += 1
            self._log(Book(player, self.ranks[r]))
            made = True
        return made

    def _pass_turn(self) -> None:
        self.current_player = (self.current_player + 1) % self.n_players
        self._events.append(Turn(self.current_player))

    def _settle(self) -> None:
        """Apply the empty-hand rule until the player to act holds cards or the game ends."""
        while not self._end_if_over():
            p = self.current_player
            if self._sizes[p]:
                return
            if not self._left:
                self._log(Skip(p))
            elif self.rules.empty_hand == EmptyHand.NEW_HAND:
                count = min(self.rules.deal_size(self.n_players), self._left)
                cards = tuple(self._draw(p) for _ in range(count))
                self._log(Draw(p, count, None, Source.EMPTY_HAND), p, Draw(p, count, cards, Source.EMPTY_HAND))
                for r in sorted({self._rank_index[c.rank] for c in cards}):
                    self._lay_books(p, r)
            else:
                card = self._draw(p)
                self._log(Draw(p, 1, None, Source.EMPTY_HAND), p, Draw(p, 1, (card,), Source.EMPTY_HAND))
                if self.rules.empty_hand == EmptyHand.DRAW_ONE_PLAY and not self._end_if_over():
                    continue  # plays on with the card just drawn
            if not self._end_if_over():
                self._pass_turn()

    def _over_reason(self) -> Reason | None:
        """Why the game has ended by now, or ``None`` while it goes on. A question only: nothing changes."""
        if self._n_books == self._total_books:
            return Reason.EVERY_BOOK
        if self._left == 0:
            if self.rules.end == End.OCEAN_EMPTY:
                return Reason.OCEAN_EMPTY
            if self.rules.end == End.EMPTY_HAND_AND_OCEAN and 0 in self._sizes:
                return Reason.OCEAN_AND_HAND_EMPTY
            if self.rules.teams and self._stalemate():
                return Reason.STALEMATE
        return None

    def _end_if_over(self) -> bool:
        """End the game (winners, the ``GameOver`` event) if an end rule now holds; True once it is over."""
        if self.is_over:
            return True
        if self._left and self._n_books != self._total_books:  # the usual case, said at once
            return False
        reason = self._over_reason()
        if reason is None:
            return False
        self.is_over = True
        scores = self._team_books()
        best = max(scores)
        self.winners = tuple(p for p in range(self.n_players) if scores[p] == best)
        self._log(GameOver(self.winners, self.book_counts, reason, best if self.rules.teams else None))
        return True

    def _stalemate(self) -> bool:
        """With the ocean empty, only a successful ask changes anything. True when none can ever succeed.

        An ask succeeds only if an opponent of the asker holds the rank (and, without bluffing,
        the asker holds it too). Without teams this cannot happen before the last book: the
        cards left of a rank would all sit in one hand and be a book. With teams, partners
        can end up holding every rank between them.
        """
        n = self.n_players
        for p in range(n):
            for q in self._opponents[p]:
                if self.rules.bluff:
                    if self._sizes[p] and self._sizes[q]:
                        return False
                elif any(mine and theirs for mine, theirs in zip(self._hands[p], self._hands[q], strict=True)):
                    return False
        return True

    def _team_books(self) -> list[int]:
        counts = self.book_counts
        return [sum(counts[q] for q in self.team_of(p)) for p in range(self.n_players)]

    # ------------------------------------------------------------------ helpers
    def _index(self, rank) -> int:
        try:
            return self._rank_index[normalize_rank(rank)]
        except (ValueError, KeyError):
            raise ValueError(f"rank {shown_value(rank)} is not in this deck: ranks are {', '.join(self.ranks)}") from None

    def _check_seat(self, seat, what: str) -> None:
        if not _is_whole(seat) or not 0 <= seat < self.n_players:
            raise ValueError(f"{what} {shown_value(seat)} is not a seat: seats are 0 to {self.n_players - 1}")

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"player {self.current_player} to ask"
        return (f"<Game {self.rules.name}, {self.n_players} players, {self.n_asks} asks, "
                f"ocean {self.ocean_size}, books {list(self.book_counts)}, {state}>")

    # ------------------------------------------------------------------ saving and loading
    def to_json(self) -> str:
        """The game as JSON: rules, deck order and asks, enough to rebuild this exact state."""
        return json.dumps({
            "format": SAVE_FORMAT,
            "rules": self.rules.to_dict(),
            "n_players": self.n_players,
            "names": list(self.names),
            "deck": [str(c) for c in self.deck],
            "asks": [list(m) if m[2] else list(m[:2]) for m in self._moves],
        }, ensure_ascii=False)

    def save(self, path) -> None:
        """Write :meth:`to_json` to ``path``, safely: a failed save leaves any file already there untouched.

        The text goes to a temporary file in the same folder, which then replaces ``path`` in one
        step (``os.replace``), so ``path`` always holds either the old save or the whole new one.
        """
        text = self.to_json()  # before touching any file: an error here must change nothing
        path = os.path.realpath(os.fspath(path))  # through a symlink, update the file it points to
        folder, base = os.path.split(path)
        temporary = os.path.join(folder, f".{base}.{secrets.token_hex(4)}.tmp")
        # 0o666 as for any new file (the umask applies); an existing file's mode is kept below.
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            with open(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())  # on disk before the rename, so a crash cannot leave an empty file
            if os.path.exists(path):
                os.chmod(temporary, os.stat(path).st_mode & 0o7777)
            os.replace(temporary, path)
        except BaseException:
            try:
                os.unlink(temporary)
            except FileNotFoundError:
                pass
            raise

    @classmethod
    def from_json(cls, text: str) -> "Game":
        """Rebuild a game saved with :meth:`to_json`, replaying its asks; a bad file raises ``ValueError``.

        Every problem is reported as ``saved game: ...``: text that is not JSON, a repeated key,
        values nested deeper than :data:`MAX_SAVE_DEPTH` or numbers longer than
        :data:`MAX_SAVE_DIGITS` digits, more than :data:`MAX_SAVE_CHARS` characters, an incomplete
        rules object, a deck or an ask the rules do not allow.
        """
        data = _parse_save(text)
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise ValueError(f"saved game: 'format' must be {SAVE_FORMAT!r}")
        missing = {"rules", "n_players", "deck", "asks"} - set(data)
        if missing:
            raise ValueError(f"saved game: missing field(s) {', '.join(sorted(missing))}")
        unknown = set(data) - {"format", "rules", "n_players", "names", "deck", "asks"}
        if unknown:
            raise ValueError(f"saved game: unknown field(s) {', '.join(sorted(key[:40] for key in unknown))}")
        try:
            rules = Rules.from_dict(data["rules"])
        except (TypeError, ValueError) as e:
            raise ValueError(f"saved game: field 'rules': {e}") from None
        if not isinstance(data["deck"], list) or not isinstance(data["asks"], list):
            raise ValueError("saved game: fields 'deck' and 'asks' must be lists")
        try:
            game = cls(rules, data["n_players"], deck=data["deck"], names=data.get("names"))
        except (TypeError, ValueError) as e:
            raise ValueError(f"saved game: {e}") from None
        for k, move in enumerate(data["asks"]):
            if not isinstance(move, list) or len(move) not in (2, 3):
                raise ValueError(f"saved game: ask {k} must be [target, rank] or [target, rank, suit]")
            try:
                game.ask(*move)
            except IllegalMove as e:
                raise ValueError(f"saved game: ask {k} {shown_value(move)} is illegal: {e}") from None
        return game

    @classmethod
    def load(cls, path) -> "Game":
        """The game saved at ``path`` (see :meth:`from_json`); a file too long to be a save is refused unread."""
        with open(path, encoding="utf-8") as f:
            return cls.from_json(f.read(MAX_SAVE_CHARS + 1))


class SaveRefused(ValueError):
    """A saved game's JSON is well formed but breaks a limit of the format (said as it is found)."""


def unique_keys(pairs: list) -> dict:
    """``json.loads``' object hook: a key given twice is an error, not "the last one wins"."""
    data = {}
    for key, value in pairs:
        if key in data:
            raise SaveRefused(f"key {shown_value(key)} appears twice in one object")
        data[key] = value
    return data


def _short_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_SAVE_DIGITS:
        raise SaveRefused(f"a number of {len(digits.lstrip('-'))} digits; numbers here have at most {MAX_SAVE_DIGITS}")
    return int(digits)


def _parse_save(text) -> object:
    """The JSON value of a save, within the format's limits; anything else is a ``saved game:`` error."""
    if isinstance(text, (str, bytes, bytearray)) and len(text) > MAX_SAVE_CHARS:
        raise ValueError(f"saved game: more than {MAX_SAVE_CHARS:,} characters, far longer than any game")
    try:
        data = json.loads(text, object_pairs_hook=unique_keys, parse_int=_short_int)
    except SaveRefused as e:
        raise ValueError(f"saved game: {e}") from None
    except RecursionError:
        raise ValueError(f"saved game: values nested more than {MAX_SAVE_DEPTH} deep") from None
    except (ValueError, TypeError) as e:  # json.JSONDecodeError is a ValueError
        raise ValueError(f"saved game: not valid JSON ({e})") from None
    # Walk without recursion, so the check itself cannot overflow the stack.
    level = [data]
    for _ in range(MAX_SAVE_DEPTH):
        level = [item for value in level if isinstance(value, (list, dict))
                 for item in (value.values() if isinstance(value, dict) else value)]
    if any(isinstance(value, (list, dict)) for value in level):
        raise ValueError(f"saved game: values nested more than {MAX_SAVE_DEPTH} deep")
    return data
