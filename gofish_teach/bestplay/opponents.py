"""Who am I playing? A posterior over the strategy each other seat plays, learned from its asks.

Every ask a seat makes is evidence about how it chooses. :class:`OpponentModel` keeps, for each
other seat, a probability for each of :data:`~.likelihood.HYPOTHESES` (the built-ins ``random``,
``memory``, ``most_held``, ``greedy``, and ``other``: every legal ask alike, for a person or
unknown code) and updates it by Bayes' rule at each of the seat's asks::

    posterior(strategy)  is proportional to  prior(strategy) x product over its asks of P(ask | strategy)

The likelihood of an ask depends on what the asking seat could see: the public record, which the
observer sees too, and its own hand, which the observer does not see. So, for each seat and each
hypothesis, the model keeps ``particles`` hands the seat may hold, weighted (a particle filter):

- they start as hands drawn from the observer's posterior once the deal is done (the Gibbs
  sampler of :mod:`gofish_teach.probability.montecarlo`, the possible-worlds model of lesson 4);
- every public event moves them as it moves the real hand (cards given and received, books, a
  lucky draw) and keeps only those that fit it (a seat that says "Go Fish!" to 7s holds none, one
  that gives two 7s held exactly two, one that asks for 7s holds one, one that has laid its books
  holds no four of a kind); a card drawn unseen is drawn for each particle from the cards the
  observer cannot place;
- at each ask, the hypothesis's likelihood of it is the weighted mean over its particles of
  :func:`~.likelihood.ask_likelihoods`, and the particles are then weighted by it: under
  ``most_held`` an ask for Kings says the seat holds more Kings than anything else, and a second
  ask for Kings is then likely, where under ``random`` it is not.

What is approximate, and why it is safe enough:

- each seat's particles ignore the other hidden hands (a card one seat may hold is not taken
  from another's), and the unseen cards drawn are drawn from what the observer cannot place;
- the events that say what a hand holds (a "Go Fish!", a give, the asked rank being held) weigh
  the particles but not the hypotheses: they are about the cards, and counting them as evidence
  would let a hypothesis whose particles happened to miss a hand lose for that alone. When no
  particle fits, the hypothesis's particles are drawn afresh from the posterior of that moment;
- ``greedy``'s likelihood is a model of it (:func:`~.likelihood.ask_likelihoods` says how good),
  so each built-in's likelihood is mixed with a little of ``other``'s (``tremble``): an ask a
  strategy could not have made, as far as its particles say, costs it a factor of about
  ``tremble``, not everything.

``tests/test_bestplay_opponents.py`` measures how many asks the posterior needs to put 0.95 on
the right built-in.

>>> from gofish_teach import Game
>>> from gofish_teach.strategies import play_out, seat_rng
>>> game = play_out(Game("pond", 3, seed=4), ["memory", "random", "most_held"], [seat_rng(s) for s in range(3)])
>>> beliefs = OpponentModel().posterior(game.view(0))
>>> {q: max(b, key=b.get) for q, b in beliefs.items()}   # seat 0's best guess at the others
{1: 'random', 2: 'most_held'}
"""
from __future__ import annotations

from dataclasses import dataclass
from numbers import Real

import numpy as np

from ..cards import SUITS
from ..events import Ask, Book, Deal, Draw, Give, GoFish
from ..probability import NoStart, draw_hidden_hands, whole
from ..record import fished_for
from .likelihood import HYPOTHESES, Public, any_ask, ask_likelihoods

#: How many games' readings a model keeps (a tournament plays one game at a time; the Table one).
GAMES_KEPT = 8
_H = len(HYPOTHESES)
_OTHER = HYPOTHESES.index("other")


@dataclass(frozen=True)
class Step:
    """One ask read by the model: the event's index, who asked whom for what, the likelihood of that
    ask under each hypothesis (tremble mixed in) and the asker's posterior after it."""

    index: int
    seat: int
    target: int
    rank: str
    likelihood: dict
    posterior: dict


class OpponentModel:
    """A posterior over the strategies of the other seats, read from a view's events.

    Args:
        prior: the probability of each hypothesis before any ask (a dict over some of
            :data:`~.likelihood.HYPOTHESES`, the rest 0, normalised); default: all five alike.
        particles: hands kept per seat and hypothesis (whole number, at least 1).
        tremble: the weight of ``other``'s likelihood mixed into each built-in's (0 to 1).
        seed: seeds the draws, with the index of each event (never a counter), so the same view
            gives the same posterior in any game and any order.

    It reads each game once: a view of a game it has read before is read on from where it stopped
    (it keeps the last :data:`GAMES_KEPT` games).
    """

    def __init__(self, prior: dict | None = None, *, particles: int = 48, fresh: float = 0.2, fresh_hands: int = 16,
                 tremble: float = 0.05, seed: int = 0):
        self.particles = whole(particles, "particles")
        self.fresh_hands = whole(fresh_hands, "fresh_hands", least=0)
        if isinstance(fresh, bool) or not isinstance(fresh, Real) or not 0 <= fresh <= 1:
            raise ValueError(f"fresh must be a number from 0 to 1, not {fresh!r}")
        self.fresh = float(fresh)
        self.seed = whole(seed, "seed", least=0)
        if isinstance(tremble, bool) or not isinstance(tremble, Real) or not 0 <= tremble <= 1:
            raise ValueError(f"tremble must be a number from 0 to 1, not {tremble!r}")
        self.tremble = float(tremble)
        self.prior = _prior(prior)
        with np.errstate(divide="ignore"):
            self._logprior = np.log(np.array([self.prior[h] for h in HYPOTHESES]))
        self._readings: list[_Reading] = []

    def __repr__(self) -> str:
        return f"OpponentModel(particles={self.particles}, tremble={self.tremble:g}, seed={self.seed})"

    def posterior(self, view) -> dict[int, dict[str, float]]:
        """``{seat: {hypothesis: probability}}`` for every other seat, after every ask in ``view``."""
        reading = self._read(view)
        return {q: _normalised(reading.logpost[q]) for q in range(view.n_players) if q != view.player}

    def steps(self, view) -> list[Step]:
        """Every ask of another seat in ``view``, in order, with its likelihoods and the posterior after it."""
        return list(self._read(view).steps)

    # ------------------------------------------------------------------ reading a game
    def _read(self, view) -> "_Reading":
        if view.rules.specific_card:
            raise ValueError("rules: the opponent model reads rank asks; specific_card asks are about single cards")
        events = view.events
        reading = self._resume(view, events)
        for i in range(len(reading.events), len(events)):
            reading.read(events, i)
        reading.events = events
        return reading

    def _resume(self, view, events) -> "_Reading":
        """The reading of this game, by this seat, that went furthest without passing ``events`` (a fresh
        one if none): the most recent first, and at most :data:`GAMES_KEPT` kept."""
        best = None
        for reading in self._readings:
            k = len(reading.events)
            if (reading.view_key == (view.player, view.n_players, view.rules) and k <= len(events)
                    and (best is None or k > len(best.events)) and events[:k] == reading.events):
                best = reading
        if best is None:
            best = _Reading(self, view)
        else:
            self._readings.remove(best)
        self._readings.insert(0, best)
        del self._readings[GAMES_KEPT:]
        return best


class _Reading:
    """One game read by one seat as far as ``events``: the public record after them, the observer's own
    hand, every other seat's particles and their weights per hypothesis, each seat's log-posterior (the
    prior's logarithm plus the log-likelihoods of its asks), and the steps."""

    def __init__(self, model: OpponentModel, view):
        self.model, self.view = model, view
        self.view_key = (view.player, view.n_players, view.rules)
        self.events: tuple = ()
        n, R = view.n_players, len(view.ranks)
        self.public = Public(n, view.rules)
        self.mine = np.zeros(R, np.int64)  # the observer's own hand, by rank
        self.hands: np.ndarray | None = None  # (seats, hypotheses, particles, ranks), once the deal is done
        self.weights = np.ones((n, _H, model.particles))
        self.logpost = np.tile(model._logprior, (n, 1))
        self.steps: list[Step] = []
        self.index = {r: i for i, r in enumerate(view.ranks)}
        self.unsettled: set = set()  # seats that received cards since the last event that was not a book
        self.by_rank = np.zeros((n, R))  # each seat's asks so far, for each rank and of each seat (for other)
        self.by_seat = np.zeros((n, n))

    # ---------------------------------------------------------------- one event
    def read(self, events, i: int) -> None:
        event, kind = events[i], type(events[i])
        public, me = self.public, self.view.player
        if self.hands is None and kind is not Deal and kind is not Book:
            self._restart(events, i, range(self.view.n_players))  # the deal is done: the first particles
        if self.hands is not None and kind is not Deal and kind is not Book:
            self._settle(events, i)
        if kind is Ask and event.player != me and self.hands is not None:
            self._ask(events, i)
        elif self.hands is not None:
            self._move(events, i, event, kind)
        self._mine(event, kind)
        public.advance(event)

    def _mine(self, event, kind) -> None:
        """The observer's own hand: its dealt and drawn cards are in its view's events."""
        me, mine, index = self.view.player, self.mine, self.index
        if kind is Deal and event.player == me or kind is Draw and event.player == me:
            for card in event.cards or ():
                mine[index[card.rank]] += 1
        elif kind is Give and me in (event.player, event.to):
            mine[index[event.rank]] = 0 if event.player == me else mine[index[event.rank]] + event.count
        elif kind is Book and event.player == me:
            mine[index[event.rank]] -= self.view.rules.book_size

    def _move(self, events, i, event, kind) -> None:
        """What a public event does to the particles of the seats it is about."""
        me, r = self.view.player, self.index.get(getattr(event, "rank", None))
        if kind is Ask:  # the observer's own ask: nothing about the others' hands yet
            return
        if kind is GoFish and event.player != me:
            self._keep(events, i, event.player, self.hands[event.player][..., r] == 0)
        elif kind is Give:
            if event.player != me:
                q = event.player
                self._keep(events, i, q, self.hands[q][..., r] == event.count, after=lambda h: _zero(h, r))
            if event.to != me:
                self.hands[event.to][..., r] += event.count
                self.unsettled.add(event.to)
        elif kind is Draw and event.player != me:
            q = event.player
            if event.lucky:
                self.hands[q][..., self.index[event.cards[0].rank]] += 1
            else:
                self._draw(q, event.count, fished_for(event, self.public.record.last_ask), i)
            self.unsettled.add(q)
        elif kind is Book and event.player != me:
            q, b = event.player, self.view.rules.book_size
            self._keep(events, i, q, self.hands[q][..., r] >= b, after=lambda h: _take(h, r, b))

    def _settle(self, events, i) -> None:
        """Books are laid at once: a seat that received cards and laid no book holds no full book."""
        b = self.view.rules.book_size
        for q in sorted(self.unsettled):
            self._keep(events, i, q, self.hands[q].max(axis=-1) < b, stop=i)
        self.unsettled.clear()

    def _ask(self, events, i) -> None:
        """An ask by another seat. The particles must hold the rank. Beside them, ``fresh`` hands drawn from the
        observer's posterior of this moment (a defensive mixture: they keep hands the particles may have lost,
        at weight ``fresh`` in all); each hypothesis's likelihood of the ask is the weighted mean over both;
        then both are weighted by it and the hypothesis's particles drawn again from them."""
        ask, model = events[i], self.model
        q, r = ask.player, self.index[ask.rank]
        if not self.view.rules.bluff:
            self._keep(events, i, q, self.hands[q][..., r] > 0, stop=i + 1)
        P = model.particles
        seats, drawn = self._gibbs(events, i + 1, model.fresh_hands)
        fresh = drawn[:, seats.index(q)] if drawn is not None else self.hands[q, 0, :0]
        F = len(fresh)
        hands = np.concatenate([self.hands[q], np.broadcast_to(fresh, (_H, F, fresh.shape[-1]))], axis=1)
        share = model.fresh if F else 0.0
        base = np.concatenate([(1 - share) * self.weights[q] / self.weights[q].sum(axis=1, keepdims=True),
                               np.full((_H, F), share / max(F, 1))], axis=1)  # (hypotheses, P + F), rows add to 1
        flat = hands.reshape(-1, hands.shape[-1])
        lik = ask_likelihoods(self.public, q, flat, ask.target, ask.rank, (self.by_rank[q], self.by_seat[q]))
        own = lik.reshape(_H, _H, P + F)[np.arange(_H), np.arange(_H)]  # each hypothesis on its own hands
        partner = self.view.rules.partner(q, self.view.n_players)
        opponents = sum(t != q and t != partner for t in range(self.view.n_players))
        mixed = (1 - model.tremble) * own + model.tremble * any_ask(flat, opponents).reshape(_H, P + F)
        mixed[_OTHER] = own[_OTHER]
        self.by_rank[q, r] += 1
        self.by_seat[q, ask.target] += 1
        mean = (base * mixed).sum(axis=1)
        if mean.max() > 0:  # else no hypothesis could have made it (a bluff): no evidence either way
            with np.errstate(divide="ignore"):
                self.logpost[q] += np.log(mean)
            weights = np.where(mean[:, None] > 0, base * mixed, base)
            rng = np.random.default_rng([model.seed, self.view.player, i, 3])
            for h in range(_H):  # systematic resampling of the particles from both sets
                cum = np.cumsum(weights[h])
                picks = np.searchsorted(cum, (rng.random() + np.arange(P)) / P * cum[-1], side="right")
                self.hands[q, h] = hands[h][np.minimum(picks, P + F - 1)]
            self.weights[q] = 1.0
        self.steps.append(Step(i, q, ask.target, ask.rank, dict(zip(HYPOTHESES, mean.tolist(), strict=True)),
                               _normalised(self.logpost[q])))

    # ---------------------------------------------------------------- the particles
    def _keep(self, events, i, q, fits, after=None, stop=None) -> None:
        """Weigh seat ``q``'s particles by ``fits`` (hypotheses x particles, true where a particle fits what
        event ``i`` says), apply ``after`` to them, and draw afresh the hypotheses none of whose particles
        fits, from the posterior given ``events[:stop]`` (default: up to event ``i`` and with it)."""
        self.weights[q] *= fits
        if after is not None:
            after(self.hands[q])
        empty = self.weights[q].sum(axis=1) == 0
        if empty.any():
            self._restart(events, i + 1 if stop is None else stop, [q], np.flatnonzero(empty))

    def _restart(self, events, stop, seats, hypotheses=range(_H)) -> None:
        """New particles for ``seats`` (and ``hypotheses``), drawn from the observer's posterior given
        ``events[:stop]``, all of one weight."""
        view, P = self.view, self.model.particles
        if self.hands is None:
            self.hands = np.zeros((view.n_players, _H, P, len(view.ranks)), np.int64)
        seats_drawn, drawn = self._gibbs(events, stop, P)
        for q in seats:
            if q == view.player:
                continue
            for h in hypotheses:
                if drawn is not None:  # (None: nothing fits, which cannot happen in a real game: kept as they are)
                    self.hands[q, h] = drawn[:, seats_drawn.index(q), :]
                self.weights[q, h] = 1.0

    def _gibbs(self, events, stop, chains):
        """Hidden hands drawn from the observer's posterior given ``events[:stop]``: the hidden seats and
        the hands ``(chains, hidden seats, ranks)``, or ``((), None)`` if none fits."""
        view = self.view
        seed = int(np.random.SeedSequence([self.model.seed, view.player, stop, 1]).generate_state(1, np.uint32)[0])
        try:
            drawn = draw_hidden_hands(_Moment(view, events[:stop]), chains, seed, burn=4)
        except NoStart:
            return (), None
        return drawn.seats, drawn.hands

    def _draw(self, q, count, not_rank, i) -> None:
        """Each particle of seat ``q`` draws ``count`` unseen cards: each of a rank in proportion to the cards
        of it the observer cannot place, less the particle's own (never ``not_rank``: it would be shown)."""
        public, hands = self.public, self.hands[q]
        rng = np.random.default_rng([self.model.seed, self.view.player, i, 2])
        placed = np.array([public.booked.get(r, 0) + sum(public.known[s].get(r, 0) for s in range(len(public.known))
                                                         if s not in (q, self.view.player))
                           for r in self.view.ranks])
        left = np.maximum(len(SUITS) - self.mine - placed, 0)
        for _ in range(count):
            weights = np.maximum(left - hands, 0).astype(float)  # (hypotheses, particles, ranks)
            if not_rank is not None:
                weights[..., self.index[not_rank]] = 0
            total = weights.sum(axis=-1, keepdims=True)
            cum = np.cumsum(weights, axis=-1)
            u = rng.random(total.shape) * total
            rank = np.minimum((cum <= u).sum(axis=-1), hands.shape[-1] - 1)
            np.put_along_axis(hands, rank[..., None], np.take_along_axis(hands, rank[..., None], -1) + 1, -1)


class _Moment:
    """A view cut back to its first events: what :func:`~gofish_teach.probability.history.read` reads."""

    __slots__ = ("rules", "ranks", "player", "n_players", "events")

    def __init__(self, view, events):
        self.rules, self.ranks, self.player, self.n_players = view.rules, view.ranks, view.player, view.n_players
        self.events = events


def _zero(hands, r) -> None:
    hands[..., r] = 0


def _take(hands, r, b) -> None:
    hands[..., r] = np.maximum(hands[..., r] - b, 0)


def _prior(prior) -> dict[str, float]:
    if prior is None:
        return dict.fromkeys(HYPOTHESES, 1 / len(HYPOTHESES))
    if not isinstance(prior, dict) or not prior:
        raise ValueError(f"prior must be a dict {{hypothesis: weight}} over {', '.join(HYPOTHESES)}, not {prior!r}")
    unknown = [h for h in prior if h not in HYPOTHESES]
    if unknown:
        raise ValueError(f"prior: unknown hypothesis {unknown[0]!r}: choose among {', '.join(HYPOTHESES)}")
    bad = [h for h, w in prior.items() if isinstance(w, bool) or not isinstance(w, Real) or not 0 <= w < float("inf")]
    if bad:
        raise ValueError(f"prior: the weight of {bad[0]!r} must be a number, at least 0, not {prior[bad[0]]!r}")
    total = sum(prior.values())
    if not total > 0:
        raise ValueError("prior: the weights add up to 0; give some hypothesis a positive weight")
    return {h: float(prior.get(h, 0)) / total for h in HYPOTHESES}


def _normalised(logpost: np.ndarray) -> dict[str, float]:
    top = logpost.max()
    weights = np.exp(logpost - top)
    return dict(zip(HYPOTHESES, (weights / weights.sum()).tolist(), strict=True))
