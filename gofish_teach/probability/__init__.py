"""Exact draw probabilities from what a player knows.

Two levels, both exact fractions:

1. :class:`Facts` — stated facts (your hand, the books, hand sizes, cards known to be in a
   hand, ranks a hand is known to lack, the ocean's size), every placement of the unseen
   cards that fits them equally likely.
2. :func:`posterior` — a live game, from everything one player has seen: every deck order
   that would have produced exactly that player's view, given the asks that were made, is
   equally likely. History matters here (a player who drew after "Go Fish!" took a card
   from an ocean you know something about), which is where the two levels part.

Both answer the same questions (:class:`~.answers.Belief`): ``p_top(rank)``,
``p_holds(player, rank, at_least=1)``, ``count_distribution(place, rank)``,
``expected_count(place, rank)``, ``table()``, and ``exact``.

>>> from gofish_teach import Game, Rules
>>> game = Game(Rules.preset("pond"), n_players=2, seed=3)
>>> game.view(0).counts
{'A': 1, '6': 1, '7': 1, '8': 1, '10': 1}
>>> post = posterior(game.view(0))
>>> post.p_holds(1, "K"), post.exact
(Fraction(16322, 43817), True)

That is a shade under the textbook ``1 - C(43,5)/C(47,5) = 4429/11891`` (0.37247 against
0.37247...): a hand is never a whole book, since books are laid down at once.
"""
from __future__ import annotations

import copy
from fractions import Fraction

from .answers import OCEAN, Belief, Table, from_counts
from .exact import COUNTING, LAST_RESORT_JOINT, MEMORY, TooBig, one_blas_thread, story_key, world_counts
from .facts import Facts
from .gibbs import HiddenHands, NoStart, draw_hidden_hands
from .history import NotExact, read
from .montecarlo import estimate, sample_hands, whole

__all__ = ["posterior", "estimate", "Facts", "Belief", "Table", "OCEAN", "NotExact", "Fraction", "warm",
           "one_blas_thread",  # for the widgets: a click's numpy on one BLAS thread, as the exact counts are
           "draw_hidden_hands", "HiddenHands", "NoStart", "whole"]  # the sampler's, for the search bot


def posterior(view, *, fallback: bool = True, samples: int = 4_000, seed: int = 0) -> Belief:
    """What ``view.player`` can say about every hidden hand and the ocean, from its view alone.

    Exact (fractions) whenever the computation fits :data:`.exact.LIMITS` (the teams endgame
    included, where play going on says some ask can still succeed); otherwise a Monte Carlo
    estimate with ``exact == False`` and standard errors (``belief.stderr(...)``), from
    ``samples`` samples (seeded by ``seed``; whole numbers, at least 1 and 0, checked even
    when the answer turns out exact). With ``fallback=False`` such views raise
    :class:`NotExact` instead. ``specific_card`` rules raise ``ValueError``: a "Go Fish!"
    there is about one card, and these probabilities are about ranks.
    """
    samples, seed = whole(samples, "samples"), whole(seed, "seed", least=0)
    if view.rules.specific_card:
        raise ValueError("rules: specific_card asks are about single cards; these probabilities are about ranks")
    story = read(view)
    try:
        counts = world_counts(story, len(view.ranks), view.rules.book_size)
    except TooBig as why:
        if not fallback:
            raise NotExact(str(why)) from None
        # remembered like the counts: the table's thread samples a bot's view just before its ask
        key = (story_key(story, len(view.ranks), view.rules.book_size), view.rules, view.player,
               tuple(view.ranks), tuple(view.counts.items()), view.ocean_size, samples, seed)
        with COUNTING:
            answer = MEMORY.sampled.get(key)
        if answer is None:
            try:
                with one_blas_thread():  # many small products here too
                    answer = sample_hands(view, story, samples=samples, seed=seed, reason=str(why))
            except NoStart:
                # no chain could start (hands drawn one after another never split the unseen
                # cards exactly): count exactly with a wider limit, slower but an answer, and
                # remembered in the sampled answers' place, so the failed start is not tried again
                counts = world_counts(story, len(view.ranks), view.rules.book_size, joint=LAST_RESORT_JOINT)
                answer = from_counts(counts, view.ranks, story.seats, story.unseen, story.ocean,
                                     {view.player: view.counts})
            with COUNTING:
                MEMORY.sampled.put(key, answer)
        return copy.deepcopy(answer)  # a Belief holds dicts: what a caller does to its copy stays there
    known = {view.player: view.counts}
    return from_counts(counts, view.ranks, story.seats, story.unseen, story.ocean, known)


def warm() -> None:
    """Compile the package's compiled loops now (numba keeps them on disk, in ``__pycache__``), so that
    no learner's first answer waits for them: the exact count's (a hand's matrix form, the residues,
    the plan of an order of the ranks, the graded sweep) and the sampler's (:func:`.montecarlo.warm`),
    about half a minute once. ``make`` runs this right after installing."""
    from .. import Game, Rules
    from . import contract, exact, graded, hands, montecarlo, orders
    from .hands import Hand
    from .history import read

    view = Game(Rules.preset("pond"), 3, seed=0).view(0)  # two hidden hands: every step of the exact count
    posterior(view, fallback=False).table()
    story = read(view)  # and what a costly count weighs: the planned order of the ranks, the hands' orders
    plan = orders.Plan([exact.hand_cases(story, q, 13, 4) for q in story.seats], (3,) * 13, story.unseen)
    plan.cost(plan.best())
    contract.cheapest_seating([Hand.dealt(2, [True, True], primes=(7,))] * 2, unseen=[4, 4])
    graded.count_worlds_graded([Hand.dealt(2, [True, True], primes=(7,))] * 2, [3, 3], (7,), ocean=2)
    hands.warm()
    montecarlo.warm()
