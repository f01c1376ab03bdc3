"""Strategies: who to ask for what, decided from one player's :class:`~gofish_teach.view.View`.

A strategy is a plain function ``f(view, rng) -> (target, rank)`` (or an object with a
``choose(view, rng)`` method). It receives only the view, the player's information state,
and a ``numpy.random.Generator``; learners write their own the same way. Under
``specific_card`` rules it returns ``(target, rank, suit)``.

Built in (:data:`STRATEGIES`): ``random``, ``memory``, ``most_held`` and ``greedy``, each
defined exactly in its docstring so that results are comparable between runs and engines.

Randomness protocol: every random choice a built-in strategy makes is one call of
``rng.random()``, turned into an index by :func:`pick` as
``options[int(rng.random() * len(options))]``, with the options in a fixed order (ranks
in deck order, seats ascending). The compiled simulator in :mod:`gofish_teach.fast`
draws the same doubles in the same order, which is how both engines play identical games.

>>> import numpy as np
>>> from gofish_teach import Game, Rules
>>> game = Game(Rules.preset("pond"), n_players=3, seed=1)
>>> game.view(0).counts
{'4': 1, '6': 1, '7': 2, '10': 1}
>>> memory(game.view(0), np.random.default_rng(0))   # nothing known yet: its most held rank
(2, '7')
>>> play_out(game, ["memory", "random", most_held], np.random.default_rng(0))
<Game pond, 3 players, 63 asks, ocean 0, books [6, 2, 5], over>
"""
from __future__ import annotations

from typing import Callable, Sequence

from .cards import SUITS
from .events import Ask, Book, Deal, Draw, Give, GoFish
from .game import IllegalMove

Strategy = Callable[..., tuple]


class GameTooLong(RuntimeError):
    """A game passed its cap on asks without ending: almost surely a strategy that never makes progress.

    Both engines raise this one class (:mod:`~gofish_teach.simulate` and :mod:`~gofish_teach.fast`).
    """


def pick(options: Sequence, rng):
    """One uniformly random element of ``options``, using exactly one ``rng.random()``.

    >>> import numpy as np
    >>> pick(["a", "b", "c"], np.random.default_rng(0))   # 0.636... * 3 -> index 1
    'b'
    """
    return options[int(rng.random() * len(options))]


def _with_cards(view) -> list[int]:
    """The opponents holding cards, or every opponent when none does (seats ascending)."""
    return [q for q in view.opponents if view.hand_sizes[q]] or list(view.opponents)


def _most_held(view) -> str:
    counts = view.counts
    return max(counts, key=counts.get)  # max keeps the first of equals: the lowest rank


def _finish(view, target: int, rank: str, rng) -> tuple:
    """Under specific-card rules, add a suit of ``rank`` the player lacks (one more :func:`pick`)."""
    if not view.rules.specific_card:
        return target, rank
    held = {card.suit for card in view.hand if card.rank == rank}
    return target, rank, pick([s for s in SUITS if s not in held], rng)


def random(view, rng) -> tuple:
    """A uniformly random held rank, then a uniformly random opponent who holds cards
    (any opponent if none does).

    Two picks, in that order: the rank among held ranks in deck order, then the seat.

    >>> import numpy as np
    >>> from gofish_teach import Game, Rules
    >>> view = Game(Rules.preset("pond"), 3, seed=1).view(0)
    >>> list(view.counts), view.opponents
    (['4', '6', '7', '10'], (1, 2))
    >>> random(view, np.random.default_rng(0))   # doubles 0.636..., 0.269...: '7', then seat 1
    (1, '7')
    """
    rank = pick(list(view.counts), rng)
    return _finish(view, pick(_with_cards(view), rng), rank, rng)


def most_held(view, rng) -> tuple:
    """The naive "build on your pairs": the rank it holds most of (ties: lowest rank),
    from a uniformly random opponent who holds cards (any opponent if none does).

    >>> import numpy as np
    >>> from gofish_teach import Game, Rules
    >>> view = Game(Rules.preset("pond"), 3, seed=1).view(0)
    >>> view.counts
    {'4': 1, '6': 1, '7': 2, '10': 1}
    >>> most_held(view, np.random.default_rng(0))   # double 0.636...: seat 2
    (2, '7')
    """
    rank = _most_held(view)
    return _finish(view, pick(_with_cards(view), rng), rank, rng)


def known_holdings(view) -> list[dict[str, int]]:
    """For every seat, the ranks public events show it holds now, each with the index in
    ``view.events`` of the event where it last showed that rank.

    The rules of :func:`memory`: asking for r, receiving r, or a shown lucky draw of r shows
    the player holds r; giving r away, answering "Go Fish" to r, or any book of r removes it;
    a player whose hand becomes empty holds nothing (and cards it draws later are unknown).
    Hand sizes are followed through the events (deals, gifts, draws, books) to see that.

    >>> from gofish_teach import Game, Rules
    >>> game = Game(Rules.preset("pond").replace(n_ranks=3, hand_size=2), 2,
    ...             deck=["A", "A", "2", "A", "3", "3", "2", "A", "2", "3", "2", "3"])
    >>> for event in game.ask(1, "A") + game.ask(1, "2"): print(event)
    Player 0 asks Player 1 for Aces.
    Player 1 gives Player 0 two Aces.
    Player 0 asks Player 1 for 2s.
    Player 1 says "Go Fish!"
    Player 0 draws a card from the ocean.
    It is Player 1's turn.
    Player 1 draws a card from the ocean because their hand is empty.
    >>> [str(e) for e in game.view(1).events[3:5]]
    ['Player 1 gives Player 0 two Aces.', 'Player 0 asks Player 1 for 2s.']
    >>> known_holdings(game.view(1))   # seat 1 gave its Aces away and then had no cards
    [{'A': 3, '2': 4}, {}]
    """
    n, book_size = view.n_players, view.rules.book_size
    sizes = [0] * n
    known: list[dict[str, int]] = [{} for _ in range(n)]
    for t, event in enumerate(view.events):
        if isinstance(event, Deal):
            sizes[event.player] += event.count
        elif isinstance(event, Ask):
            known[event.player][event.rank] = t
        elif isinstance(event, Give):
            sizes[event.player] -= event.count
            sizes[event.to] += event.count
            known[event.player].pop(event.rank, None)
            known[event.to][event.rank] = t
        elif isinstance(event, GoFish):
            known[event.player].pop(event.rank, None)
        elif isinstance(event, Draw):
            sizes[event.player] += event.count
            if event.lucky:
                known[event.player][event.cards[0].rank] = t
        elif isinstance(event, Book):
            sizes[event.player] -= book_size
            for ranks in known:
                ranks.pop(event.rank, None)
        else:
            continue
        for q in range(n):
            if not sizes[q]:
                known[q].clear()
    return known


def memory(view, rng) -> tuple:
    """"Ask who asked before", from public events only (see :func:`known_holdings`).

    Among the ranks it holds that some opponent is known to hold, take the one it holds most
    of (ties: lowest rank), and ask the opponent who showed that rank most recently (ties:
    lowest seat). Otherwise fall back to the rank it holds most of (ties: lowest rank) from a
    uniformly random opponent who holds cards (any opponent if none does).

    It is called afresh for every decision and recomputes everything from ``view.events``,
    so its choice depends on the view alone.

    >>> import numpy as np
    >>> from gofish_teach import Game, Rules
    >>> rules = Rules.preset("pond").replace(n_ranks=4, hand_size=3)
    >>> game = Game(rules, 3, deck="A 3 2 2 4 3 4 A 3 4 A 2 2 3 A 4".split())
    >>> _ = game.ask(1, "2"); _ = game.ask(0, "3")     # both answered "Go Fish!"
    >>> view = game.view(2)
    >>> view.counts, known_holdings(view)              # seat 0 asked for 2s, seat 1 for 3s
    ({'2': 1, '3': 2}, [{'2': 3}, {'3': 7}, {}])
    >>> memory(view, np.random.default_rng(0))         # both known; it holds more 3s
    (1, '3')
    """
    counts, known = view.counts, known_holdings(view)
    wanted = [r for r in counts if any(r in known[q] for q in view.opponents)]
    if not wanted:
        return _finish(view, pick(_with_cards(view), rng), _most_held(view), rng)
    rank = max(wanted, key=counts.get)
    # Seats ascending, and max keeps the first of equals: ties go to the lowest seat.
    target = max((q for q in view.opponents if rank in known[q]), key=lambda q: known[q][rank])
    return _finish(view, target, rank, rng)


def greedy(view, rng) -> tuple:
    """The legal ask with the highest exact probability of success given the view, from
    :func:`gofish_teach.probability.posterior` (ties: more cards gained in expectation, then
    lowest rank, then lowest seat). It makes no random choices.

    Not defined for specific-card rules (the posterior is about ranks, not single cards).

    >>> from gofish_teach import Game, Rules
    >>> view = Game(Rules.preset("pond"), 3, seed=1).view(0)
    >>> view.counts
    {'4': 1, '6': 1, '7': 2, '10': 1}
    >>> greedy(view, None)   # three 4s, 6s or 10s are unseen but only two 7s; ties: lowest rank, seat
    (1, '4')
    """
    from .probability import posterior  # lazy: the probability module is heavier to import

    if view.rules.specific_card:
        raise ValueError("strategy 'greedy' is not defined for specific_card rules: it scores ranks, not cards")
    post = posterior(view)
    best, best_key = None, None
    # Ranks in deck order outermost, seats ascending inside, and only a strictly better key
    # replaces the best: ties therefore go to the lowest rank, then the lowest seat.
    order = {r: i for i, r in enumerate(view.ranks)}
    for target, rank in sorted(view.legal_asks(), key=lambda a: (order[a[1]], a[0])):
        key = (post.p_holds(target, rank, at_least=1), post.expected_count(target, rank))
        if best_key is None or key > best_key:
            best, best_key = (target, rank), key
    return best


#: The built-in strategies by name.
STRATEGIES: dict[str, Strategy] = {"random": random, "memory": memory, "most_held": most_held, "greedy": greedy}


def get_strategy(strategy) -> Strategy:
    """The function ``f(view, rng)`` for a built-in name, a function, or an object with ``choose``.

    >>> get_strategy("memory") is memory
    True
    >>> get_strategy("smart")
    Traceback (most recent call last):
    ...
    ValueError: strategy 'smart' is unknown: choose one of random, memory, most_held, greedy, or pass a function f(view, rng) -> (target, rank)
    """
    if isinstance(strategy, str):
        try:
            return STRATEGIES[strategy]
        except KeyError:
            raise ValueError(f"strategy {strategy!r} is unknown: choose one of {', '.join(STRATEGIES)}, "
                             "or pass a function f(view, rng) -> (target, rank)") from None
    choose = getattr(strategy, "choose", None)
    if callable(choose):
        return choose
    if callable(strategy):
        return strategy
    raise ValueError(f"strategy {strategy!r} is neither a name, a function f(view, rng), nor an object with choose()")


def strategy_name(strategy) -> str:
    """A short name for messages and tables: the built-in name, function name or class name.

    >>> strategy_name("memory"), strategy_name(most_held), strategy_name(lambda v, r: (1, "A"))
    ('memory', 'most_held', '<lambda>')
    """
    if isinstance(strategy, str):
        return strategy
    if callable(getattr(strategy, "choose", None)):
        return type(strategy).__name__
    return getattr(strategy, "__name__", type(strategy).__name__)


def play_out(game, strategies: Sequence, rng):
    """Play ``game`` to its end, seat ``p`` asking as ``strategies[p]`` decides; returns ``game``.

    ``rng`` is one ``numpy.random.Generator`` shared by every seat, used in decision order.
    An illegal ask raises :class:`~gofish_teach.game.IllegalMove` naming the strategy and seat.

    >>> import numpy as np
    >>> from gofish_teach import Game, Rules
    >>> cheat = lambda view, rng: (view.player, "A")
    >>> play_out(Game(Rules.preset("pond"), 2, seed=0), [cheat, "random"], np.random.default_rng(0))
    Traceback (most recent call last):
    ...
    gofish_teach.game.IllegalMove: strategy '<lambda>' (seat 0) asked (0, 'A'): player 0 cannot ask themself: ask an opponent
    """
    if len(strategies) != game.n_players:
        raise ValueError(f"strategies: expected one per seat ({game.n_players}), got {len(strategies)}")
    chosen = [get_strategy(s) for s in strategies]
    while not game.is_over:
        p = game.current_player
        move = chosen[p](game.view(p), rng)
        try:
            if not isinstance(move, (tuple, list)) or len(move) not in (2, 3):
                raise IllegalMove(f"a strategy must return (target, rank), not {move!r}")
            game.ask(*move)
        except IllegalMove as e:
            raise IllegalMove(f"strategy {strategy_name(strategies[p])!r} (seat {p}) asked {move!r}: {e}") from None
    return game
