"""How likely each strategy was to make an ask: the likelihoods of "which bot is West?".

An ask ``(target, rank)`` by seat ``q`` is evidence about the strategy ``q`` plays. Each
strategy's choice depends on two things: the public record (who has shown which rank, which
asks are dead, the hand sizes, the books), which every seat sees alike, and ``q``'s own hand,
which only ``q`` sees. Given both, :func:`ask_likelihoods` says how likely each hypothesis of
:data:`HYPOTHESES` was to make the ask, for many possible hands at once (the observer does not
know the hand: :mod:`.opponents` keeps hands it may be, and averages):

- ``random``, ``memory`` and ``most_held``: exactly, following the rules of
  :mod:`gofish_teach.strategies` (the ranks some opponent is live for, the live targets, ties to
  the lowest rank and seat), each random pick uniform. ``tests/test_bestplay_opponents.py``
  checks them against the strategies' own asks, drawn thousands of times in real games.
- ``greedy``: approximately. The real one asks the legal ask with the highest exact chance of
  success from ``q``'s own view (:func:`gofish_teach.probability.posterior`), which needs what
  ``q`` saw of its own draws, not only its hand now, and costs tens of milliseconds. Here each
  hidden hand is taken as a uniform sample of the cards ``q`` cannot place (the hypergeometric of
  lesson 3), a seat known to hold a rank holds it for certain, a seat known to hold none of it
  holds it only among the cards drawn since (:class:`Public`), and greedy's tie rules are kept.
  That picks the real greedy's ask about three times in four; :data:`GREEDY_SURE` says how the
  likelihood allows for the rest.
- ``other``: a player none of these describe (a person, a learner's code), taken to prefer some
  ranks and some seats, by weights it does not tell: each weight starts at :data:`OTHER_START`
  (so every legal ask is alike at first) and grows by 1 with each ask for that rank or of that seat
  (the Dirichlet-categorical model). So a learner's code that always asks for its lowest rank soon fits
  it better than any built-in, and a player who asks at random is in the end better described by
  ``random``, which needs no weights to learn (a model that can fit more pays for it: Bayes'
  Occam's razor).

>>> from gofish_teach import Game
>>> view = Game("pond", 3, seed=1).view(0)
>>> view.counts
{'4': 1, '6': 1, '7': 2, '10': 1}
>>> p = likelihoods(Public.of(view), 0, view.counts, 2, "7")   # seat 0 asking seat 2 for 7s
>>> {h: round(x, 3) for h, x in p.items()}
{'random': 0.125, 'memory': 0.5, 'most_held': 0.5, 'greedy': 0.015, 'other': 0.125}

``most_held`` asks for its pair of 7s and picks seat 1 or 2 at random (so does ``memory``, with
nothing known yet), ``random`` picks one of four ranks and then a seat, ``other`` one of eight asks,
and ``greedy`` would rather ask for a rank of which more cards are unseen.
"""
from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np

from ..cards import SUITS
from ..events import Ask, Book, Draw, Give, GoFish
from ..record import Record

_DECK = len(SUITS)  # cards of each rank

#: The strategies a seat may be playing: the built-ins, and ``other`` (every legal ask alike).
HYPOTHESES: tuple[str, ...] = ("random", "memory", "most_held", "greedy", "other")

#: How the likelihood of an ask under ``greedy`` is spread (fitted by maximum likelihood to 1,197 asks of
#: the real greedy, pond, 4 players, the asker's hand known): GREEDY_SURE on the ask the model rates best,
#: the rest over every legal ask in proportion to exp(GREEDY_SHARPNESS x (chance of success + GREEDY_CARDS
#: x cards expected)), since the model's chances of the asks the real greedy weighs are often close.
GREEDY_SURE, GREEDY_SHARPNESS, GREEDY_CARDS = 0.5, 15.0, 0.2
#: The weight ``other`` gives each rank and each seat before it has seen an ask (each ask adds 1 to its rank's
#: and its target's): the Dirichlet prior of a categorical choice. Below 1, it expects a player to have strong
#: preferences; 0.3 told random from other soonest on games of other seeds than the tests' (0.2-0.5 tried).
OTHER_START = 0.3


def ask_likelihoods(public: "Public", seat: int, hands: np.ndarray, target: int, rank: str,
                    asked=None) -> np.ndarray:
    """The probability of seat ``seat`` asking ``(target, rank)`` under each of :data:`HYPOTHESES` (rows),
    for each of ``hands`` (columns; ``hands[k, r]``: cards of the ``r``-th rank held), given ``public``,
    the public record just before the ask, and ``asked``, the seat's earlier asks (``(asks for each
    rank, asks of each seat)``, two arrays of counts; default none) that ``other`` learns from."""
    record, rules = public.record, public.rules
    n, ranks = record.n_players, rules.ranks
    hands = np.asarray(hands)
    out = np.zeros((len(HYPOTHESES), len(hands)))
    partner = rules.partner(seat, n)
    opponents = [t for t in range(n) if t != seat and t != partner]
    if rank not in ranks or target not in opponents:
        return out
    r = ranks.index(rank)
    sizes, dead, shown = record.sizes, record.dead, record.shown
    live = np.array([[sizes[t] > 0 and x not in dead[t] for x in ranks] for t in opponents])  # (opponents, ranks)
    held = hands > 0
    to_ask = held & live.any(axis=0)  # the held ranks some opponent is live for, or every held rank if none is
    none = ~to_ask.any(axis=1)
    to_ask[none] = held[none]
    aim = _aim(live[:, r], opponents, sizes, target)  # a uniform pick of the target, once the rank is chosen
    p_random = np.where(to_ask[:, r], aim / np.maximum(to_ask.sum(axis=1), 1), 0.0)
    favourite = np.argmax(np.where(to_ask, hands, -1), axis=1)  # most_held's rank: the first of the most held
    p_most_held = np.where(favourite == r, aim, 0.0)
    # memory: a held rank with a live known holder, the most held of them, from who showed it last
    known = np.array([[x in shown[t] and sizes[t] > 0 and x not in dead[t] for x in ranks] for t in opponents])
    wanted = held & known.any(axis=0)
    choice = np.argmax(np.where(wanted, hands, -1), axis=1)
    holders = [t for t, k in zip(opponents, known[:, r], strict=True) if k]
    last = max(holders, key=lambda t: shown[t][rank]) if holders else None  # max keeps the lowest seat of equals
    p_memory = np.where(wanted.any(axis=1), (choice == r) & (target == last), p_most_held)
    p_greedy = _greedy(public, seat, opponents, hands, held, opponents.index(target), r)
    by_rank, by_seat = asked if asked is not None else (np.zeros(len(ranks)), np.zeros(n))
    rank_weights = OTHER_START + np.asarray(by_rank, float)
    seat_weights = OTHER_START + np.asarray(by_seat, float)[opponents]
    p_other = (rank_weights[r] / np.maximum(held @ rank_weights, 1e-300)
               * seat_weights[opponents.index(target)] / seat_weights.sum())
    out[:] = p_random, p_memory, p_most_held, p_greedy, p_other
    out[:, ~held[:, r]] = 0.0  # no built-in asks for a rank it does not hold, and without bluffing nobody may
    return out


def likelihoods(public: "Public", seat: int, counts: dict, target: int, rank: str, asked=None) -> dict[str, float]:
    """:func:`ask_likelihoods` for one hand, given as ``{rank: cards}``: ``{hypothesis: probability}``."""
    hand = np.array([[counts.get(x, 0) for x in public.rules.ranks]])
    return dict(zip(HYPOTHESES, ask_likelihoods(public, seat, hand, target, rank, asked)[:, 0].tolist(), strict=True))


def exact_likelihoods(view, target: int, rank: str) -> dict[str, Fraction]:
    """What a spectator, who sees the asker's hand, knows: the probability that ``random``, ``memory`` and
    ``most_held`` make the ask ``(target, rank)`` from ``view`` (the asker's own view), as fractions.

    Each is 0, 1, 1/b or 1/(a b), with a the ranks it may pick from (at most 13) and b the seats (at most 5),
    so the closest fraction with a denominator up to 1,000 to the float :func:`likelihoods` gives is the value
    itself (a float is that close to it, and any other such fraction is 1/65,000 or more away).

    >>> from gofish_teach import Game
    >>> view = Game("pond", 3, seed=1).view(0)
    >>> exact_likelihoods(view, 2, "7")
    {'random': Fraction(1, 8), 'memory': Fraction(1, 2), 'most_held': Fraction(1, 2)}
    """
    found = likelihoods(Public.of(view), view.player, view.counts, target, rank)
    out = {h: Fraction(found[h]).limit_denominator(1000) for h in ("random", "memory", "most_held")}
    assert all(abs(float(out[h]) - found[h]) < 1e-12 for h in out), (found, out)
    return out


def any_ask(hands: np.ndarray, opponents: int) -> np.ndarray:
    """The probability of any one legal ask when all are alike, for each of ``hands`` (``opponents``: the
    seats the asker may ask): what a built-in's likelihood is mixed with, for asks its model cannot explain."""
    return 1.0 / (np.maximum((np.asarray(hands) > 0).sum(axis=1), 1) * opponents)


def _aim(live_for_rank, opponents, sizes, target) -> float:
    """The chance that a uniform pick among the opponents live for the rank (if none, those holding
    cards; if none, all) is ``target``."""
    seats = [t for t, ok in zip(opponents, live_for_rank, strict=True) if ok] or [t for t in opponents if sizes[t]] or opponents
    return 1.0 / len(seats) if target in seats else 0.0


def greedy_table(public: "Public", seat: int, opponents) -> np.ndarray:
    """``greedy``'s view of every ask, as the model takes it: ``table[t, r, c]`` = (chance of success,
    cards expected) of asking ``opponents[t]`` for the ``r``-th rank when holding ``c`` of it (see the
    module docstring: each hidden hand a uniform sample of the cards the seat cannot place; a seat known
    to hold the rank holds it, a dead ask fails, a seat known to hold none of it holds it only among the
    cards drawn since)."""
    record, rules = public.record, public.rules
    sizes, dead = record.sizes, record.dead
    known, since = public.known, public.since
    others = [s for s in range(record.n_players) if s != seat]
    free = {s: max(sizes[s] - sum(known[s].values()), 0) for s in others}
    pool = sum(free.values()) + record.ocean  # the cards the seat cannot place
    table = np.zeros((len(opponents), len(rules.ranks), _DECK + 1, 2))
    for r, rank in enumerate(rules.ranks):
        placed = public.booked.get(rank, 0) + sum(known[s].get(rank, 0) for s in others)
        for c in range(1, _DECK + 1):
            unseen = min(_DECK - c - placed, pool)  # (a count c the seat cannot hold gives nonsense, never read)
            share = unseen / pool if pool and unseen > 0 else 0.0
            for i, t in enumerate(opponents):
                held = known[t].get(rank, 0)
                if not sizes[t] or rank in dead[t]:
                    continue
                if held:
                    table[i, r, c] = 1.0, held + free[t] * share
                elif unseen > 0:
                    hidden = min(since[t].get(rank, free[t]), free[t])  # the cards that may be of rank
                    miss = comb(pool - unseen, hidden) / comb(pool, hidden) if pool >= hidden else 1.0
                    table[i, r, c] = 1.0 - miss, hidden * share
    return table


def _greedy(public, seat, opponents, hands, held, t, r) -> np.ndarray:
    """The likelihood of asking ``opponents[t]`` for the ``r``-th rank under ``greedy``, for each hand."""
    table = greedy_table(public, seat, opponents)  # (T, R, c, 2)
    T, R = table.shape[:2]
    counts = np.minimum(hands, _DECK)
    keys = table[np.arange(T)[None, :, None], np.arange(R)[None, None, :], counts[:, None, :]]  # (K, T, R, 2)
    keys = keys.transpose(0, 2, 1, 3).reshape(len(hands), R * T, 2)  # asks in greedy's order: ranks, then seats
    legal = np.repeat(held, T, axis=1)
    order = np.where(legal, keys[..., 0] + 1e-6 * keys[..., 1], -np.inf)  # the chance first, the cards on ties
    best = np.argmax(order, axis=1)  # the first of equals: the lowest rank, then the lowest seat
    soft = keys[..., 0] + GREEDY_CARDS * keys[..., 1]
    soft = np.where(legal, np.exp(GREEDY_SHARPNESS * (soft - soft.max(axis=1, keepdims=True))), 0.0)
    j = r * T + t
    return GREEDY_SURE * (best == j) + (1 - GREEDY_SURE) * soft[:, j] / np.maximum(soft.sum(axis=1), 1e-300)


class Public:
    """The public record, read one event at a time: the :class:`~gofish_teach.record.Record` the built-ins
    read (``record``) and, for ``greedy``'s chances, per seat the cards of each rank it is known to hold
    (``known``) and, for each rank it is known to have held none of, how many unseen cards it has drawn
    since (``since``); the cards of each rank laid in books (``booked``).

    >>> from gofish_teach import Game
    >>> game = Game("pond", 2, seed=3)
    >>> for event in game.ask(1, "A") + game.ask(0, "6"): print(event)
    Player 0 asks Player 1 for Aces.
    Player 1 says "Go Fish!"
    Player 0 draws a card from the ocean.
    It is Player 1's turn.
    Player 1 asks Player 0 for 6s.
    Player 0 gives Player 1 one 6.
    >>> public = Public.of(game.view(0))
    >>> public.known, public.since     # seat 1 holds two 6s and no Ace; seat 0 no 6
    ([{'A': 1}, {'6': 2}], [{'6': 0}, {'A': 0}])
    """

    __slots__ = ("rules", "record", "known", "since", "booked")

    def __init__(self, n_players: int, rules):
        self.rules, self.record = rules, Record(n_players, rules)
        self.known: list[dict] = [{} for _ in range(n_players)]
        self.since: list[dict] = [{} for _ in range(n_players)]
        self.booked: dict = {}

    @classmethod
    def of(cls, view) -> "Public":
        public = cls(view.n_players, view.rules)
        for event in view.events:
            public.advance(event)
        return public

    def advance(self, event) -> None:
        self.record.advance(event)
        kind, known, since = type(event), self.known, self.since
        if kind is Ask:
            known[event.player].setdefault(event.rank, 1)
        elif kind is GoFish:
            known[event.player].pop(event.rank, None)
            since[event.player][event.rank] = 0
        elif kind is Give:
            known[event.player].pop(event.rank, None)
            since[event.player][event.rank] = 0
            known[event.to][event.rank] = known[event.to].get(event.rank, 0) + event.count
            since[event.to].pop(event.rank, None)
            self._if_empty(event.player)
        elif kind is Draw:
            q = event.player
            if event.lucky:  # shown to all: one more of that rank, nothing unseen drawn
                rank = event.cards[0].rank
                known[q][rank] = known[q].get(rank, 0) + 1
                since[q].pop(rank, None)
            else:
                for rank in since[q]:
                    since[q][rank] += event.count
        elif kind is Book:
            self.booked[event.rank] = self.booked.get(event.rank, 0) + self.rules.book_size
            for q in range(len(known)):
                known[q].pop(event.rank, None)
                since[q].pop(event.rank, None)
            self._if_empty(event.player)

    def _if_empty(self, q: int) -> None:
        """A seat left with no card holds none of any rank, with nothing drawn since."""
        if not self.record.sizes[q]:
            self.known[q] = {}
            self.since[q] = dict.fromkeys(self.rules.ranks, 0)
