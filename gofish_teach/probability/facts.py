"""Level 1: probabilities from stated facts, every placement of the unseen cards equally likely.

State what you know — your hand, the books on the table, how many cards each other seat
holds, cards known to be in a hand, ranks a hand is known to lack, the ocean's size — and
ask. The unseen cards (all but yours, the books and the known ones) are placed into the
open slots of the hands and the ocean, every placement that fits the facts equally likely.
Because books are laid down at once, by default no hand holds a whole book
(``books_laid=False`` drops that, for the textbook hypergeometric answers).

>>> facts = Facts(hand="7 7 Q K", hand_sizes={1: 3})
>>> facts.ocean_size, facts.p_top("7")                    # 2 sevens among the 48 unseen cards
(45, Fraction(1, 24))
>>> facts.p_holds(1, "7")                                 # 1 - C(46,3)/C(48,3), hypergeometric
Fraction(23, 188)
>>> Facts(hand="7 7 Q K", hand_sizes={1: 3}, known={1: ["7"]}).p_top("7")
Fraction(1, 47)
>>> Facts(hand="7 Q", hand_sizes={1: 5}, lacks={1: ["Q"]}).expected_count(1, "Q")
Fraction(0, 1)
>>> Facts(hand="7 7 Q K", hand_sizes={1: 3}, at_least={1: {"7": 1}}).p_top("7")   # "they hold one or more"
Fraction(1, 46)
>>> Facts(hand="7 7 7 7", hand_sizes={1: 5})
Traceback (most recent call last):
...
ValueError: hand: it holds four 7s, a whole book, which is laid down at once (list it in books)
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import comb, lgamma, log
from numbers import Integral

from ..cards import SUITS, Card, name, normalize_rank, plural, ranks_for
from ..record import Asked, Booked, Drew, Gave, Got, Lacks, Record
from .answers import Belief, from_counts
from .contract import count_worlds
from .exact import Counts
from .hands import Hand
from .modular import primes_for_bits

_DECK = len(SUITS)
_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def _count_words(n: int) -> str:
    return _WORDS[n] if n < len(_WORDS) else str(n)


def _whole(value) -> bool:
    """A whole number (numpy integers too), not ``True``/``False``."""
    return isinstance(value, Integral) and not isinstance(value, bool)


def _seat(value, field: str) -> int:
    """A seat number as a plain int, or a ValueError naming ``field``."""
    if not _whole(value) or value < 0:
        raise ValueError(f"{field}: seats are whole numbers 0, 1, 2, ..., not {value!r}")
    return int(value)


def _ranks_of(cards, field: str, ranks, most: int | None = None) -> Counter:
    """Rank labels from ``"7 7 Qh"``, ``["7", Card("Q", "♥")]`` and the like, counted.

    ``most``: no rank may be listed more often (the cards of a rank, for cards in hands).
    """
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    elif isinstance(cards, (Card, dict)) or not hasattr(cards, "__iter__"):
        raise ValueError(f"{field}: give ranks or cards, e.g. \"7 7 Q\" or [\"7\", \"Q\"], not {cards!r}")
    out = Counter()
    for item in cards:
        if isinstance(item, Card):
            label = item.rank
        else:
            text = str(item).strip()
            try:
                label = normalize_rank(text)
            except ValueError:
                try:
                    label = Card.parse(text).rank
                except ValueError:
                    raise ValueError(f"{field}: {item!r} is neither a rank nor a card") from None
        if label not in ranks:
            raise ValueError(f"{field}: rank {label!r} is not in this deck: ranks are {', '.join(ranks)}")
        out[label] += 1
    for label, c in out.items():
        if most is not None and c > most:
            raise ValueError(f"{field}: {_count_words(c)} {plural(label)}, but a rank has only "
                             f"{_count_words(most)} cards")
    return out


class Facts(Belief):
    """What stated facts imply, exactly, under "every placement that fits is equally likely".

    Args:
        hand: your cards (ranks or cards), e.g. ``"7 7 Q K"``.
        hand_sizes: ``{seat: cards}`` for every other seat (your seat is ``me``).
        books: ranks laid down as books by anyone, one entry per book (or ``{seat: ranks}``).
        known: ``{seat: ranks}`` cards known to be in that seat's hand.
        lacks: ``{seat: ranks}`` ranks that seat holds none of.
        at_most: ``{seat: {rank: n}}`` that seat holds no more than n of the rank (its known
            cards included), e.g. it said "Go Fish!" to 7s and has drawn one card since.
        at_least: ``{seat: {rank: n}}`` that seat holds n or more of the rank (its known cards
            included), every such placement equally likely, e.g. it asked for 7s so holds one
            or more. Not ``known``: a known card is one particular card, the rest random.
        ocean: the ocean's size; computed from the rest when not given (and checked when given).
        n_ranks, book_size: the deck (or take both from ``rules``).
        books_laid: no hand holds a whole book (true in play); False for textbook counting.
        me: your seat number.
    """

    def __init__(self, hand, hand_sizes, books=(), known=None, lacks=None, ocean=None, at_most=None, at_least=None, *,
                 n_ranks: int = 13, book_size: int = 4, rules=None, books_laid: bool = True, me: int = 0):
        if rules is not None:
            n_ranks, book_size = rules.n_ranks, rules.book_size
        if book_size not in (2, 4):
            raise ValueError(f"book_size must be 4 or 2, not {book_size!r}")
        ranks = ranks_for(n_ranks)
        me = _seat(me, "me")
        cap = book_size - 1 if books_laid else _DECK
        mine = _ranks_of(hand, "hand", ranks, most=_DECK)
        for r, c in mine.items():
            if c > cap:
                raise ValueError(f"hand: it holds {_count_words(c)} {plural(r)}, a whole book, "
                                 "which is laid down at once (list it in books)")
        sizes = self._sizes(hand_sizes, me)
        if isinstance(books, dict):
            for q in books:
                if _seat(q, "books") != me and q not in sizes:
                    raise ValueError(f"books: seat {q!r} is neither yours (me={me}) nor in hand_sizes")
            books = [r for q, rs in books.items() for r in _ranks_of(rs, f"books[{q}]", ranks).elements()]
        booked = _ranks_of(books, "books", ranks)
        known_by = {_seat(q, "known"): _ranks_of(cards, f"known[{q}]", ranks, most=_DECK)
                    for q, cards in (known or {}).items()}
        lacks_by = {_seat(q, "lacks"): set(_ranks_of(rs, f"lacks[{q}]", ranks)) for q, rs in (lacks or {}).items()}
        most_by = {_seat(q, "at_most"): self._bounds(bounds, q, ranks) for q, bounds in (at_most or {}).items()}
        least_by = {_seat(q, "at_least"): self._bounds(bounds, q, ranks, "at_least")
                    for q, bounds in (at_least or {}).items()}
        for field, by in (("known", known_by), ("lacks", lacks_by), ("at_most", most_by), ("at_least", least_by)):
            for q in by:
                if q not in sizes:
                    raise ValueError(f"{field}: seat {q!r} is not one of the other seats {sorted(sizes)} in hand_sizes")
        unseen = []
        for r in ranks:
            left = _DECK - mine[r] - book_size * booked[r]
            if left < 0:
                raise ValueError(f"books: {booked[r]} book(s) of {plural(r)} and {mine[r]} in your hand are more than "
                                 f"the {_DECK} cards of a rank")
            if sum(k[r] for k in known_by.values()) > left:
                raise ValueError(f"known: more {plural(r)} than the {left} not in your hand or in books")
            unseen.append(left)
        for q, size in sizes.items():
            k = known_by.get(q, Counter())
            if sum(k.values()) > size:
                raise ValueError(f"known[{q}]: {sum(k.values())} known cards, but seat {q} holds {size}")
            for r in lacks_by.get(q, ()):
                if k[r]:
                    raise ValueError(f"lacks[{q}]: seat {q} is known to hold {name(r)}s, so cannot lack them")
            for r, c in k.items():
                if c > most_by.get(q, {}).get(r, c):
                    raise ValueError(f"at_most[{q}]: seat {q} is known to hold {c} {plural(r)}, more than "
                                     f"at most {most_by[q][r]}")
                if c > cap:
                    raise ValueError(f"known[{q}]: {c} {plural(r)} would be a whole book, laid down at once")
            least = least_by.get(q, {})
            for r, n in least.items():
                room = min(cap, unseen[ranks.index(r)], size)
                if r in lacks_by.get(q, ()) and n:
                    raise ValueError(f"at_least[{q}]: seat {q} lacks {plural(r)}, so cannot hold at least {n}")
                if n > most_by.get(q, {}).get(r, n):
                    raise ValueError(f"at_least[{q}]: at least {n} {plural(r)}, more than at most {most_by[q][r]}")
                if n > room:
                    what = name(r) if n == 1 else plural(r)
                    raise ValueError(f"at_least[{q}]: seat {q} cannot hold {n} {what}: at most {room} "
                                     f"could be there (its {size} cards, {unseen[ranks.index(r)]} neither yours "
                                     f"nor in books, {cap} before a whole book)")
            needed = sum(k.values()) + sum(max(0, n - k[r]) for r, n in least.items())
            if needed > size:
                raise ValueError(f"at_least[{q}]: at least {needed} cards with its known ones, but seat {q} "
                                 f"holds {size}")
        free = sum(unseen) - sum(sizes.values())
        if free < 0:
            raise ValueError(f"hand_sizes: the other hands hold {sum(sizes.values())} cards, but only "
                             f"{sum(unseen)} are neither yours nor in books")
        if ocean is not None and ocean != free:
            raise ValueError(f"ocean: {ocean} cards do not fit the rest of the facts, which leave {free}")
        self._setup = (ranks, unseen, sizes, known_by, lacks_by, most_by, least_by, cap, free)
        counts = _count(*self._setup)
        self._total = counts.total
        seats = sorted(sizes)
        built = from_counts(counts, ranks, seats, unseen, free, {me: dict(mine)})
        super().__init__(built.ranks, built.seats, built.ocean, built.ocean_size, built.known)
        self.me = me
        # the facts as stated, for reading back (``known`` is taken: it holds your own hand)
        self.known_cards = {q: dict(c) for q, c in known_by.items() if +c}
        self.lacks = {q: sorted(rs, key=ranks.index) for q, rs in lacks_by.items() if rs}
        self.at_most = {q: m for q, m in most_by.items() if m}
        self.at_least = {q: m for q, m in least_by.items() if any(m.values())}

    @classmethod
    def from_view(cls, view) -> "Facts":
        """The facts a careful note-taker at ``view.player``'s seat could state, read off its view.

        For each other seat: the cards known to be in its hand (it asked for a rank, so holds
        one; it was given cards, or showed a lucky draw), and how many of a rank it holds at
        most (none after "Go Fish!" or giving the rank away, one more for each card drawn
        unseen since). A fresh hand wipes what was known. What this leaves out is *where* a
        drawn card came from: an ocean you also know something about. That is where it and
        :func:`~gofish_teach.probability.posterior` part.

        >>> from gofish_teach import Game, Rules
        >>> from gofish_teach.probability import posterior
        >>> game = Game(Rules.preset("pond"), n_players=2, seed=3)
        >>> _ = game.ask(1, "A")  # "Go Fish!": player 1 has no Aces; player 0 draws
        >>> _ = game.ask(0, "Q")  # player 1 asks for Queens: player 0 has none, so player 1 draws
        >>> facts = Facts.from_view(game.view(0))
        >>> facts.at_most
        {1: {'A': 1}}
        >>> facts.p_holds(1, "Q"), facts.p_holds(1, "A")    # "at most one Ace", anywhere in the hand
        (Fraction(1, 1), Fraction(37295, 131706))
        >>> posterior(game.view(0)).p_holds(1, "A")          # only the one card drawn can be an Ace
        Fraction(193389, 2459137)

        That is 0.283 against 0.079: five of player 1's six cards were in its hand when it
        said "Go Fish!" to Aces, and only the card it drew since can be one.
        """
        if view.rules.specific_card:
            raise ValueError("rules: specific_card asks are about single cards; these facts are about ranks")
        b = view.rules.book_size
        others = [q for q in range(view.n_players) if q != view.player]
        known = {q: Counter() for q in others}
        most = {q: {} for q in others}  # rank -> most cards of it; no entry: no bound

        def add(q, rank, k):
            known[q][rank] += k
            if rank in most[q]:
                most[q][rank] += k

        record = Record(view.n_players, view.rules)
        for op in (op for event in view.events for op in record.read(event)):
            kind, q = type(op), op.seat
            if q not in known:  # the viewer's own hand: nothing to note
                continue
            if kind is Asked:
                if not view.rules.bluff:
                    known[q][op.rank] = max(known[q][op.rank], 1)
            elif kind is Lacks or kind is Gave:
                known[q][op.rank], most[q][op.rank] = 0, 0
            elif kind is Got:
                add(q, op.rank, op.count)
            elif kind is Drew:
                if op.lucky:
                    add(q, op.cards[0].rank, 1)
                elif op.fresh:  # a new hand: nothing known of the old one is left
                    known[q].clear()
                    most[q].clear()
                else:  # an unseen card may be any rank but the one just fished for
                    most[q] = {r: n + (r != op.not_rank) for r, n in most[q].items()}
            elif kind is Booked:
                known[q][op.rank] = max(0, known[q][op.rank] - b)
                if op.rank in most[q]:
                    most[q][op.rank] -= b
        return cls(hand=[c.rank for c in view.hand], hand_sizes={q: view.hand_sizes[q] for q in others},
                   books={q: list(view.books[q]) for q in range(view.n_players)},
                   known={q: list(c.elements()) for q, c in known.items()},
                   lacks={q: sorted(r for r, n in most[q].items() if n == 0) for q in others},
                   at_most={q: {r: n for r, n in most[q].items() if 0 < n < b - 1} for q in others},
                   rules=view.rules, me=view.player)

    def p_hand(self, player, counts: dict) -> Fraction:
        """P(``player`` holds exactly ``counts[rank]`` cards of each rank listed), e.g. ``{"Q": 2, "K": 0}``."""
        self._place(player)
        if player == self.me or player not in self.seats:
            raise ValueError(f"player: ask about another seat ({', '.join(map(str, sorted(self.seats)))})")
        fixed = {}
        for rank, c in counts.items():
            if isinstance(c, bool) or not isinstance(c, int) or c < 0:
                raise ValueError(f"counts: {rank!r} needs a whole number of cards, not {c!r}")
            fixed[self.ranks.index(self._rank(rank))] = c
        return Fraction(_count(*self._setup, fixed={player: fixed}).total, self._total)

    @staticmethod
    def _bounds(bounds, q, ranks, field: str = "at_most") -> dict:
        if not isinstance(bounds, dict):
            what = "most" if field == "at_most" else "fewest"
            raise ValueError(f"{field}[{q}]: give {{rank: {what} cards}}, e.g. {{'7': 1}}, not {bounds!r}")
        out = {}
        for rank, n in bounds.items():
            (label,) = _ranks_of([rank], f"{field}[{q}]", ranks)
            if not _whole(n) or n < 0:
                raise ValueError(f"{field}[{q}]: {label!r} needs a whole number of cards, not {n!r}")
            out[label] = int(n)
        return out

    @staticmethod
    def _sizes(hand_sizes, me) -> dict:
        if isinstance(hand_sizes, dict):
            given = hand_sizes.items()
        elif isinstance(hand_sizes, (list, tuple)):
            given = [(q, n) for q, n in enumerate(hand_sizes) if q != me]
        else:
            raise ValueError(f"hand_sizes: give {{seat: cards}} for the other seats, e.g. {{1: 5}}, not {hand_sizes!r}")
        sizes = {}
        for q, n in given:
            q = _seat(q, "hand_sizes")
            if q == me:
                raise ValueError(f"hand_sizes: seat {me} is yours (me={me}); give the other seats' sizes")
            if not _whole(n) or n < 0:
                raise ValueError(f"hand_sizes: seat {q} must hold a whole number of cards, not {n!r}")
            sizes[q] = int(n)
        if not sizes:
            raise ValueError("hand_sizes: name at least one other seat and its number of cards")
        return sizes

    def __repr__(self) -> str:
        return f"<Facts about seats {sorted(self.seats)} and the ocean ({self.ocean_size} cards)>"


def _count(ranks, unseen, sizes, known_by, lacks_by, most_by, least_by, cap, ocean, fixed=None) -> Counts:
    """Exact placement counts: each hand a pool of open slots (plus its known cards), then the ocean.

    ``fixed[seat][rank index] = count`` keeps only placements giving that seat exactly that count.
    """
    k = len(sizes)
    open_slots = {q: n - sum(known_by.get(q, Counter()).values()) for q, n in sizes.items()}
    # an upper bound on the total: terms (ways to split each rank) times the largest term
    bits = sum(log(comb(u + k, k), 2) + lgamma(u + 1) / log(2) for u in unseen)
    bits += sum(lgamma(m + 1) / log(2) for m in open_slots.values()) + 2
    primes = primes_for_bits(bits)
    hands = []
    for q in sorted(sizes):
        allowed = [r not in lacks_by.get(q, ()) for r in ranks]
        hand = Hand.dealt(open_slots[q], allowed, primes)
        for s, r in enumerate(ranks):
            if known_by.get(q, Counter())[r]:
                hand.receive(s, known_by[q][r])
        most = most_by.get(q, {})
        hand.cap([min(cap, u, most.get(r, cap)) for r, u in zip(ranks, unseen, strict=True)])
        for r, n in least_by.get(q, {}).items():  # n or more: the counts below n are dropped
            s = ranks.index(r)
            hand.relabel(s, [None] * n + list(range(n, hand.max_count(s) + 1)))
        for s, c in (fixed or {}).get(q, {}).items():
            hand.relabel(s, [None] * c + [c])
        hand.compress()
        hands.append(hand)
    total, seat, ocean_counts = count_worlds(hands, unseen, primes)
    return Counts(total, seat, ocean_counts)
