"""The explorer's model: a handful of stated facts about one rank, their exact answer, a Monte Carlo check.

A :class:`Scenario` is what the explorer's sliders say: the rank in question, how many you
hold, the books on the table, one opponent ("they") and what they did, the ocean. It turns
into a :class:`~gofish_teach.probability.Facts` (the exact answer) and can be checked by
simulation: deal the unseen cards at random, keep the deals that fit the facts.

>>> s = Scenario(rank="7", held=2, other_cards=3, books=1, players=2, their_hand=5)
>>> s.hand, s.booked
('7 7 A 2 3', ('K',))
>>> facts = s.facts()
>>> facts.ocean_size, facts.p_holds(1, "7")
(38, Fraction(106592, 481143))
>>> s.code()
"Facts(hand='7 7 A 2 3', books=['K'], hand_sizes={1: 5}, n_ranks=13, book_size=4)"

"They asked for 7s" says they hold at least one: every deal with one or more equally likely
(not "one of their cards is a 7, the other four are random", which makes two nearly twice as likely):

>>> asked = s.replace(asked=True)
>>> asked.facts().count_distribution(1, "7")
{1: Fraction(50631, 53296), 2: Fraction(2665, 53296)}
>>> asked.code()
"Facts(hand='7 7 A 2 3', books=['K'], hand_sizes={1: 5}, at_least={1: {'7': 1}}, n_ranks=13, book_size=4)"

With ``textbook=True`` (a hand may hold a whole book) the answer is the hypergeometric one:

>>> t = s.replace(textbook=True)
>>> float(t.facts().p_holds(1, "7")), round(float(t.hypergeom("hand").sf(0)), 12)
(0.22148394241417496, 0.221483942414)

A Monte Carlo estimate from seeded random deals:

>>> mc = s.sample(4000, seed=1)
>>> mc.samples, mc.fit, round(float((mc.hand >= 1).mean()), 3)
(4000, 3998, 0.222)
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from scipy import stats as sps

from ..cards import SUITS, plural, ranks_for
from ..probability import OCEAN, Facts

_COPIES = len(SUITS)  # cards of each rank in the deck


class Sample(NamedTuple):
    """Random deals that fit the facts: per kept deal, the rank's count in their hand and the ocean."""

    samples: int          # deals made
    fit: int              # deals that fit every fact (the ones kept)
    hand: np.ndarray      # (fit,) cards of the rank in their hand
    ocean: np.ndarray     # (fit,) cards of the rank in the ocean
    top: np.ndarray       # (fit,) whether the ocean's top card is the rank


@dataclass(frozen=True)
class Scenario:
    """Stated facts about one rank, from seat 0's side of the table; "they" are seat 1.

    Args:
        rank: the rank in question.
        held: copies of it in your hand.
        other_cards: the rest of your hand, filled with other ranks in deck order (A, 2, ...),
            at most ``book_size - 1`` of each, skipping the rank and books.
        books: books on the table, of the highest ranks other than ``rank`` (K, Q, ...).
        players: 2 to 4 (more seats make the exact count slow for a slider).
        their_hand: cards in seat 1's hand.
        ocean: the ocean's size; ``None`` means "all the cards left", as with 2 players.
            With more players the rest are dealt evenly to the other opponents (seats 2, 3).
        asked: they asked for the rank, so they hold at least one (every placement with one
            or more in their hand equally likely; not "one particular card of theirs is one").
        go_fish: they said "Go Fish!" to it, so held none then...
        drawn_since: ...and have drawn this many cards since (each may be one).
        textbook: drop "no hand holds a whole book" (true in play), for the textbook answer.
        n_ranks, book_size: the deck.
    """

    rank: str = "7"
    held: int = 1
    other_cards: int = 4
    books: int = 0
    players: int = 2
    their_hand: int = 5
    ocean: int | None = None
    asked: bool = False
    go_fish: bool = False
    drawn_since: int = 0
    textbook: bool = False
    n_ranks: int = 13
    book_size: int = 4

    def replace(self, **changes) -> "Scenario":
        return replace(self, **changes)

    # ------------------------------------------------------------------ the facts
    @property
    def ranks(self) -> tuple:
        return tuple(ranks_for(self.n_ranks))

    @property
    def booked(self) -> tuple:
        """The ranks in books: the highest ones other than the rank in question."""
        if self.rank not in self.ranks:
            raise ValueError(f"rank: {self.rank!r} is not in this deck: ranks are {', '.join(self.ranks)}")
        others = [r for r in reversed(self.ranks) if r != self.rank]
        if not 0 <= self.books <= len(others):
            raise ValueError(f"books: {self.books} books, but only {len(others)} ranks besides {plural(self.rank)}")
        return tuple(others[:self.books])

    @property
    def hand(self) -> str:
        """Your hand: ``held`` of the rank, then other ranks one copy at a time in deck order."""
        cap = self.book_size - 1
        if self.held > cap and not self.textbook:
            raise ValueError(f"copies you hold: {self.held} {plural(self.rank)} would be a whole book, "
                             "laid down at once")
        if self.held > _COPIES:
            raise ValueError(f"copies you hold: there are only {_COPIES} {plural(self.rank)}")
        fill = [r for r in self.ranks if r != self.rank and r not in self.booked]
        per_rank = cap if not self.textbook else _COPIES
        if self.other_cards > per_rank * len(fill):
            raise ValueError(f"other cards in your hand: {self.other_cards} do not fit in the {len(fill)} ranks "
                             f"left ({per_rank} of each at most)")
        # one of each rank, then a second of each, ... so the hand stays as spread as it can
        others = [fill[i % len(fill)] for i in range(self.other_cards)] if fill else []
        others.sort(key=self.ranks.index)
        return " ".join([self.rank] * self.held + others)

    def hand_sizes(self) -> dict:
        """``{seat: cards}`` for the other seats: they are seat 1, the rest share what the ocean leaves."""
        if not 2 <= self.players <= 4:
            raise ValueError(f"players: 2 to 4 here, not {self.players}")
        if self.ocean is None or self.players == 2:
            return {1: self.their_hand} | {q: 0 for q in range(2, self.players)}
        left = self._unseen_total() - self.their_hand - self.ocean
        others = self.players - 2
        if left < 0:
            raise ValueError(f"ocean: {self.ocean} cards and their {self.their_hand} are more than the "
                             f"{self._unseen_total()} cards neither yours nor in books")
        return {1: self.their_hand} | {2 + i: left // others + (i < left % others) for i in range(others)}

    def _unseen_total(self) -> int:
        return self.n_ranks * _COPIES - len(self.hand.split()) - self.book_size * len(self.booked)

    def facts_kwargs(self) -> dict:
        """The keyword arguments of :class:`Facts` that state these facts."""
        kw = {"hand": self.hand, "books": list(self.booked), "hand_sizes": self.hand_sizes()}
        if self.go_fish and self.drawn_since == 0:
            kw["lacks"] = {1: [self.rank]}
        elif self.go_fish:
            kw["at_most"] = {1: {self.rank: self.drawn_since}}
        if self.asked:
            kw["at_least"] = {1: {self.rank: 1}}
        if self.ocean is not None and self.players > 2:
            kw["ocean"] = self.ocean
        kw |= {"n_ranks": self.n_ranks, "book_size": self.book_size}
        if self.textbook:
            kw["books_laid"] = False
        if not kw["books"]:
            del kw["books"]
        return kw

    def facts(self) -> Facts:
        """The exact answer to these facts (remembered: sliders often come back to a setting)."""
        return _facts(self)

    def counted(self) -> tuple[Facts, str]:
        """``(facts, rank)``: the exact answer to these facts and the rank to ask it about, shared by
        every rank in question.

        Ranks are alike to the count, and the scenario fills your hand and the books the same way
        whichever rank is in question (the rank's copies, the highest other ranks booked, the rest
        one at a time in deck order): the same facts with the first rank in question are these
        facts with the ranks relabelled, so they give the same numbers about the first rank as these
        give about :attr:`rank`. The explorer counts that scenario only, so that choosing another rank
        shows numbers already counted. Facts that cannot all be true raise the error of these
        facts, which names :attr:`rank`.

        >>> s = Scenario(rank="7", held=2, other_cards=3, books=1, players=2, their_hand=5)
        >>> facts, rank = s.counted()
        >>> rank, facts.p_holds(1, rank) == s.facts().p_holds(1, "7")
        ('A', True)
        >>> Scenario(rank="Q", held=2).counted()[0] is Scenario(rank="3", held=2).counted()[0]   # counted once
        True
        """
        first = self.replace(rank=self.ranks[0])
        try:
            return first.facts(), first.rank
        except Exception:  # noqa: BLE001 - the error again, worded for this rank (or, if none, its answer)
            return self.facts(), self.rank

    def code(self) -> str:
        """The same facts as a line of Python a learner can paste into a cell."""
        return "Facts(" + ", ".join(f"{k}={v!r}" for k, v in self.facts_kwargs().items()) + ")"

    def place(self, about: str):
        """The place a question is about: seat 1 for ``"hand"``, the ocean for ``"ocean"``."""
        return {"hand": 1, "ocean": OCEAN}[about]

    # ------------------------------------------------------------------ textbook and simulation
    def hypergeom(self, about: str):
        """``scipy.stats.hypergeom`` for the rank's count in their hand or the ocean, when that is
        the textbook case (no whole-book rule, nothing they did); else ``None``."""
        if not self.textbook or self.asked or self.go_fish:
            return None
        draws = self.their_hand if about == "hand" else self.counted()[0].ocean_size
        return sps.hypergeom(self._unseen_total(), _COPIES - self.held, draws)  # M, n, N

    def sample(self, samples: int, seed: int = 0) -> Sample:
        """Deal the unseen cards ``samples`` times at random (seeded) and keep the deals that fit.

        Every unseen card is shuffled into the open slots, their hand first, the other hands
        next, the ocean last; a deal is kept when no hand holds a whole book and their hand
        fits what they did (at least one if they asked; at most ``drawn_since`` after "Go
        Fish!"). Kept deals are then uniform over the placements that fit: :class:`Facts`'
        model, reached by a different road, so the simulation checks the exact answer.
        """
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise ValueError(f"samples must be a positive whole number, not {samples!r}")
        self.counted()  # checks the facts first
        ranks = self.ranks
        r = ranks.index(self.rank)
        mine = self.hand.split()
        unseen = np.array([_COPIES - mine.count(x) - self.book_size * self.booked.count(x) for x in ranks])
        cards = np.repeat(np.arange(len(ranks)), unseen)
        sizes = self.hand_sizes()
        slots = [sizes[1]] + [sizes[q] for q in sorted(sizes) if q != 1]
        deals = np.random.default_rng(seed).permuted(np.broadcast_to(cards, (samples, len(cards))), axis=1)
        cap = _COPIES if self.textbook else self.book_size - 1
        ok = np.ones(samples, bool)
        start = 0
        hand = None
        for k, size in enumerate(slots):
            block = deals[:, start:start + size]
            counts = np.stack([(block == x).sum(axis=1) for x in range(len(ranks))], axis=1)
            if k == 0:
                hand = counts[:, r]
            ok &= (counts <= cap).all(axis=1)
            start += size
        most = self.drawn_since if self.go_fish else _COPIES
        ok &= (hand >= int(self.asked)) & (hand <= most)
        ocean = deals[ok, start:]
        return Sample(samples, int(ok.sum()), hand[ok], (ocean == r).sum(axis=1),
                      ocean[:, 0] == r if ocean.shape[1] else np.zeros(int(ok.sum()), bool))


@lru_cache(maxsize=256)
def _facts(scenario: Scenario) -> Facts:
    return Facts(**scenario.facts_kwargs())
