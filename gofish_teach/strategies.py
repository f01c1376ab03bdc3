"""Strategies: who to ask for what, decided from one player's :class:`~gofish_teach.view.View`.

A strategy is a plain function ``f(view, rng) -> (target, rank)``, or an object with a
``choose(view, rng)`` method and a ``name`` (:class:`Strategy`). It receives only the view, the
player's information state, and a ``numpy.random.Generator``; learners write their own the same
way. Under ``specific_card`` rules it returns ``(target, rank, suit)``.

Built in (:data:`STRATEGIES`): ``random``, ``memory``, ``most_held`` and ``greedy``, each
defined exactly in its docstring so that results are comparable between runs and engines.

Randomness protocol: every random choice a built-in strategy makes is one call of
``rng.random()``, turned into an index by :func:`pick` as
``options[int(rng.random() * len(options))]``, with the options in a fixed order (ranks
in deck order, seats ascending). The compiled simulator in :mod:`gofish_teach.fast`
draws the same doubles in the same order, which is how both engines play identical games.
Every seat has its own generator (:func:`seat_rng`, and ``rngs`` in :func:`play_out`), so
no strategy can learn or change another seat's random numbers.

Bots never stall. An ask (target ``q``, rank ``r``) is *dead* when the public record proves
it must fail: ``q`` answered "Go Fish!" to an ask for ``r`` (by anyone) and since then has
drawn no card (any draw: fishing, lucky or not, the empty-hand rule, a new hand) and been
given no card of ``r``. ``q`` is *live* for ``r`` when it holds at least one card (public
hand size) and the ask is not dead (:meth:`~gofish_teach.record.Record.live`). ``random``,
``most_held`` and ``memory`` ask live opponents whenever some held rank has one, so that,
under teams, they do not keep asking an opponent for a rank only a partner holds.

>>> import numpy as np
>>> from gofish_teach import Game, Rules
>>> game = Game(Rules.preset("pond"), n_players=3, seed=1)
>>> game.view(0).counts
{'4': 1, '6': 1, '7': 2, '10': 1}
>>> memory(game.view(0), np.random.default_rng(0))   # nothing known yet: its most held rank
(2, '7')
>>> play_out(game, ["memory", "random", most_held], [seat_rng(s) for s in (10, 11, 12)])
<Game pond, 3 players, 57 asks, ocean 0, books [4, 6, 3], over>
"""
from __future__ import annotations

from typing import Callable, Protocol, Sequence, runtime_checkable

import numpy as np

from .asks import IllegalMove, as_move
from .cards import SUITS

#: What a seat's decisions call: ``f(view, rng) -> (target, rank)`` (:func:`get_strategy` gives it).
Choose = Callable[..., tuple]


@runtime_checkable
class Strategy(Protocol):
    """A strategy as an object, as the exact and search bots are written: :meth:`choose` makes the
    ask, ``name`` is what results, tables and messages call it (:func:`strategy_name`).

    Optional, read where present: ``probabilities(view) -> {rank: probability}``, the asks of a
    strategy that mixes (:class:`~gofish_teach.bestplay.EquilibriumPolicy`), and ``label``, how
    the Table names its seat ("search bot"). A plain function ``f(view, rng)`` is a strategy as
    well, named by its ``__name__``, and so is a built-in's name: :func:`get_strategy` takes all three.

    >>> class Lowest:
    ...     name = "lowest"
    ...     def choose(self, view, rng):
    ...         return view.legal_asks()[0]
    >>> isinstance(Lowest(), Strategy), strategy_name(Lowest()), isinstance(memory, Strategy)
    (True, 'lowest', False)
    """

    name: str

    def choose(self, view, rng) -> tuple:
        """The ask for ``view`` (its player's turn), drawing any randomness from ``rng``."""
        ...


class GameTooLong(RuntimeError):
    """A game passed its cap on asks without ending: almost surely a strategy that never makes progress.

    Both engines raise this one class (:mod:`~gofish_teach.simulate` and :mod:`~gofish_teach.fast`).

    Attributes:
        row: which of the decks given to :func:`gofish_teach.fast.play_games` was stuck (so that
            ``simulate`` can name the tournament's game), or ``None``.
        idle_asks: how many of the game's last asks moved no card, or ``None`` where not counted.

    >>> error = GameTooLong("decks[3] passed max_asks=10 asks without ending", row=3, idle_asks=8)
    >>> error.row, error.idle_asks, str(error)
    (3, 8, 'decks[3] passed max_asks=10 asks without ending')
    """

    row: int | None
    idle_asks: int | None

    def __init__(self, message: str, *, row: int | None = None, idle_asks: int | None = None):
        super().__init__(message)
        self.row, self.idle_asks = row, idle_asks


def pick(options: Sequence, rng):
    """One uniformly random element of ``options``, using exactly one ``rng.random()``.

    >>> import numpy as np
    >>> pick(["a", "b", "c"], np.random.default_rng(0))   # 0.636... * 3 -> index 1
    'b'
    """
    return options[int(rng.random() * len(options))]


def seat_rng(seed: int) -> np.random.Generator:
    """The generator a seat plays with: the same doubles as ``numpy.random.default_rng(seed)``,
    but nothing in it tells ``seed`` (its ``bit_generator.seed_seq`` is a fixed stand-in), so
    a strategy cannot learn the tournament's seed or game number, and so the deck, from it.

    >>> import numpy as np
    >>> rng = seat_rng(2024)
    >>> bool(rng.random() == np.random.default_rng(2024).random())
    True
    >>> rng.bit_generator.seed_seq.entropy   # the same for every seed
    [0]
    """
    words = np.random.SeedSequence(seed).generate_state(4, np.uint64)  # what PCG64(seed) seeds itself from
    return np.random.Generator(np.random.PCG64(_StandIn(words)))  # type: ignore[arg-type]  # see _StandIn


def seat_rngs(seeds) -> list[np.random.Generator]:
    """``[seat_rng(s) for s in seeds]`` for an array of non-negative seeds below 2**64, made
    faster for many: NumPy's hash of each seed into its generator's first state (most of
    what making a generator costs) is done for all the seeds at once, by :func:`_seed_words`.

    >>> [bool(a.random() == b.random()) for a, b in zip(seat_rngs([3, 2**40]), [seat_rng(3), seat_rng(2**40)])]
    [True, True]
    """
    return [np.random.Generator(np.random.PCG64(_StandIn(words)))  # type: ignore[arg-type]  # see _StandIn
            for words in _seed_words(seeds)]


# NumPy's SeedSequence hash (numpy/random/bit_generator.pyx), and the 32-bit mask it works under.
_M32 = np.uint64(0xFFFFFFFF)
_INIT_A, _MULT_A, _INIT_B, _MULT_B = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = np.uint64(0xCA01F9DD), np.uint64(0x4973F715)


def _hash_constants(start: int, multiplier: int, count: int) -> list:
    """The hash constant's values, one per step: they do not depend on the seed."""
    out = []
    for _ in range(count):
        out.append(np.uint64(start))
        start = (start * multiplier) & 0xFFFFFFFF
    return out


# A step xors with one value and multiplies by the next: the pool's 4 words and 12 mixing steps,
# then the 8 words of generate_state(4, uint64).
_HASH_A = _hash_constants(_INIT_A, _MULT_A, 4 + 12 + 1)
_HASH_B = _hash_constants(_INIT_B, _MULT_B, 8 + 1)


def _seed_words(seeds) -> np.ndarray:
    """``np.random.SeedSequence(s).generate_state(4, np.uint64)`` for every seed ``s``, as rows
    (what ``PCG64(s)`` seeds itself from), for all the seeds at once in uint64 arrays (every
    product is of two 32-bit values, so none overflows). A seed's entropy is its 32-bit words,
    low first, and the pool's missing words hash as zeros, so every seed takes two words.

    >>> seeds = [0, 1, 2**32, 2**64 - 1]
    >>> bool((_seed_words(seeds) == [np.random.SeedSequence(s).generate_state(4, np.uint64) for s in seeds]).all())
    True
    """
    seeds = np.asarray(seeds, dtype=np.uint64).ravel()
    zero = np.zeros_like(seeds)
    steps = zip(_HASH_A, _HASH_A[1:], strict=False)

    def hashmix(value):  # the value xor the constant, times the constant's next value, in 32 bits
        h, h_next = next(steps)
        value = ((value ^ h) * h_next) & _M32
        return value ^ (value >> np.uint64(16))

    pool = [hashmix(word) for word in (seeds & _M32, seeds >> np.uint64(32), zero, zero)]
    for i_src in range(4):
        for i_dst in range(4):
            if i_src != i_dst:
                mixed = (_MIX_L * pool[i_dst] - _MIX_R * hashmix(pool[i_src])) & _M32
                pool[i_dst] = mixed ^ (mixed >> np.uint64(16))
    words = []
    for i, (h, h_next) in enumerate(zip(_HASH_B, _HASH_B[1:], strict=False)):
        value = ((pool[i % 4] ^ h) * h_next) & _M32
        words.append(value ^ (value >> np.uint64(16)))
    return np.stack([words[2 * k] | words[2 * k + 1] << np.uint64(32) for k in range(4)], axis=1)


class _StandIn(np.random.bit_generator.ISpawnableSeedSequence):
    """What a seat's bit generator says it was seeded from: ``SeedSequence([0])`` for every
    seat (its own, made when first asked for: nothing shared between seats), never the seed.

    It hands the generator seeding itself the state words of the real seed once, then forgets
    them, so ``PCG64(_StandIn(words))`` draws as ``PCG64(seed)`` and is made without seeding a
    second generator or a second sequence. (NumPy takes any ``ISeedSequence`` here; its type stubs
    name only ``SeedSequence``, hence the ``type: ignore`` where it is passed.)
    """

    def __init__(self, words):
        self._words = words
        self._sequence = None

    @property
    def _real(self) -> np.random.SeedSequence:
        if self._sequence is None:
            self._sequence = np.random.SeedSequence([0])
        return self._sequence

    entropy = property(lambda self: self._real.entropy)
    spawn_key = property(lambda self: self._real.spawn_key)
    pool_size = property(lambda self: self._real.pool_size)
    n_children_spawned = property(lambda self: self._real.n_children_spawned)

    def generate_state(self, n_words, dtype=np.uint32):
        words, self._words = self._words, None
        if words is not None and n_words == len(words) and np.dtype(dtype) == words.dtype:
            return words
        return self._real.generate_state(n_words, dtype)

    def spawn(self, n_children):
        return self._real.spawn(n_children)

    def __repr__(self) -> str:
        return repr(self._real)


_PCG64_MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645
_MASK128 = 2**128 - 1


def _pcg64_state(seed: int) -> dict:
    """``np.random.PCG64(seed).state``, without making a second bit generator: PCG64 seeds
    itself from ``SeedSequence(seed).generate_state(4, uint64)`` as (initstate, initseq), each
    high word first; inc = 2 * initseq + 1; state = (inc + initstate) * multiplier + inc.

    >>> _pcg64_state(2024) == np.random.PCG64(2024).state
    True
    """
    words = [int(w) for w in np.random.SeedSequence(seed).generate_state(4, np.uint64)]
    initstate, initseq = words[0] << 64 | words[1], words[2] << 64 | words[3]
    inc = (initseq << 1 | 1) & _MASK128
    state = ((inc + initstate) * _PCG64_MULTIPLIER + inc) & _MASK128
    return {"bit_generator": "PCG64", "state": {"state": state, "inc": inc}, "has_uint32": 0, "uinteger": 0}


def _with_cards(view) -> list[int]:
    """The opponents holding cards, or every opponent when none does (seats ascending)."""
    return [q for q in view.opponents if view.hand_sizes[q]] or list(view.opponents)


def _live_opponents(view, rank: str) -> list[int]:
    """The opponents an ask for ``rank`` is live for (seats ascending): see the module docstring."""
    sizes, dead = view.record.sizes, view.record.dead
    return [q for q in view.opponents if sizes[q] and rank not in dead[q]]


def _ranks_to_ask(view) -> list[str]:
    """The held ranks (deck order) that some opponent is live for, or every held rank if none is."""
    record = view.record
    sizes, dead = record.sizes, record.dead
    held = view.held_ranks
    holding = [dead[q] for q in view.opponents if sizes[q]]  # the dead ranks of each opponent holding cards
    if not holding or not all(holding):  # some opponent holding cards has no dead ask: every rank is live
        return held
    blocked = frozenset.intersection(*holding)  # dead for every opponent holding cards: no live opponent
    return [r for r in held if r not in blocked] or held


def _target(view, rank: str, rng) -> int:
    """One :func:`pick` among the opponents live for ``rank``; if there are none, among the
    opponents holding cards, or every opponent when none does."""
    return pick(_live_opponents(view, rank) or _with_cards(view), rng)


def _finish(view, target: int, rank: str, rng) -> tuple:
    """Under specific-card rules, add a suit of ``rank`` the player lacks (one more :func:`pick`)."""
    if not view.rules.specific_card:
        return target, rank
    held = {card.suit for card in view.hand if card.rank == rank}
    return target, rank, pick([s for s in SUITS if s not in held], rng)


def random(view, rng) -> tuple:
    """A uniformly random rank, then a uniformly random opponent, never stalling.

    Two picks, in that order. The rank: among the held ranks (deck order) that some opponent
    is live for, or among all held ranks if none is. The seat: among the opponents live for
    that rank (seats ascending); if there are none, among the opponents holding cards, or
    every opponent when none does.

    >>> import numpy as np
    >>> from gofish_teach import Game, Rules
    >>> view = Game(Rules.preset("pond"), 3, seed=1).view(0)
    >>> list(view.counts), view.opponents
    (['4', '6', '7', '10'], (1, 2))
    >>> random(view, np.random.default_rng(0))   # doubles 0.636..., 0.269...: '7', then seat 1
    (1, '7')
    """
    # _ranks_to_ask, then _target, each inlined with its pick: this runs at every decision of most games.
    record, opponents = view.record, view.opponents
    sizes, dead = record.sizes, record.dead
    ranks = view.held_ranks
    holding = [dead[q] for q in opponents if sizes[q]]
    if holding and all(holding):  # every opponent holding cards has dead asks: a rank may have no live opponent
        blocked = frozenset.intersection(*holding)
        ranks = [r for r in ranks if r not in blocked] or ranks
    rank = ranks[int(rng.random() * len(ranks))]
    seats = [q for q in opponents if sizes[q] and rank not in dead[q]] or _with_cards(view)
    target = seats[int(rng.random() * len(seats))]
    if view.rules.specific_card:
        return _finish(view, target, rank, rng)
    return target, rank


def most_held(view, rng) -> tuple:
    """The naive "build on your pairs", never stalling.

    The rank: the one it holds most of (ties: lowest rank) among the held ranks that some
    opponent is live for, or among all held ranks if none is. The seat: one pick, as for
    :func:`random`.

    >>> import numpy as np
    >>> from gofish_teach import Game, Rules
    >>> view = Game(Rules.preset("pond"), 3, seed=1).view(0)
    >>> view.counts
    {'4': 1, '6': 1, '7': 2, '10': 1}
    >>> most_held(view, np.random.default_rng(0))   # double 0.636...: seat 2
    (2, '7')
    """
    counts = view.counts
    rank = max(_ranks_to_ask(view), key=counts.get)  # max keeps the first of equals: the lowest rank
    return _finish(view, _target(view, rank, rng), rank, rng)


def known_holdings(view) -> list[dict[str, int]]:
    """For every seat, the ranks public events show it holds now, each with the index in
    ``view.events`` of the event where it last showed that rank (read by
    :class:`~gofish_teach.record.Record`: :attr:`~gofish_teach.record.Record.shown`).

    The rules of :func:`memory`: asking for r, receiving r, or a shown lucky draw of r shows
    the player holds r; giving r away, answering "Go Fish" to r, or any book of r removes it;
    a player whose hand becomes empty holds nothing (and cards it draws later are unknown).

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
    return view.record.known_holdings()


def memory(view, rng) -> tuple:
    """"Ask who asked before", from public events only (see :func:`known_holdings`), never stalling.

    A *live known holder* of a rank is an opponent known to hold it and live for it (see the
    module docstring). Among the held ranks that have a live known holder, take the one it
    holds most of (ties: lowest rank), and ask the live known holder who showed that rank most
    recently (ties: lowest seat); no random choice. If no held rank has one, play
    :func:`most_held`.

    Its choice depends on the view alone (the view's :class:`~gofish_teach.record.Record`).

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
    counts, record = view.counts, view.record
    shown, live = record.shown, record.live

    def holders(rank):  # the live known holders of rank, seats ascending
        return [q for q in view.opponents if rank in shown[q] and live(q, rank)]

    wanted = [r for r in counts if holders(r)]
    if not wanted:
        return most_held(view, rng)
    rank = max(wanted, key=counts.get)
    # Seats ascending, and max keeps the first of equals: ties go to the lowest seat.
    target = max(holders(rank), key=lambda q: shown[q][rank])
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
    if best is None:
        raise ValueError("strategy 'greedy': this view has no legal ask (not its player's turn, or the game is over)")
    return best


#: The built-in strategies by name.
STRATEGIES: dict[str, Choose] = {"random": random, "memory": memory, "most_held": most_held, "greedy": greedy}


def get_strategy(strategy) -> Choose:
    """The function ``f(view, rng)`` for a built-in name, a function, or a :class:`Strategy` (an
    object with ``choose``; its ``name`` is optional here).

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
    """A short name for messages and tables: the built-in name, a :class:`Strategy`'s ``name`` (its
    class name if it has none), or a function's name.

    >>> strategy_name("memory"), strategy_name(most_held), strategy_name(lambda v, r: (1, "A"))
    ('memory', 'most_held', '<lambda>')
    """
    if isinstance(strategy, str):
        return strategy
    if callable(getattr(strategy, "choose", None)):
        name = getattr(strategy, "name", None)
        return name if isinstance(name, str) else type(strategy).__name__
    return getattr(strategy, "__name__", type(strategy).__name__)


def play_out(game, strategies: Sequence, rngs, *, max_asks: int = 0):
    """Play ``game`` to its end, seat ``p`` asking as ``strategies[p]`` decides; returns ``game``.

    ``rngs`` has one ``numpy.random.Generator`` per seat: seat ``p`` uses ``rngs[p]`` only
    (see :func:`seat_rng`). A single generator is still accepted, and then shared by every
    seat in decision order: the old form, in which one seat's draws shift another's.
    An illegal ask raises :class:`~gofish_teach.game.IllegalMove` naming the strategy and seat.
    With ``max_asks`` (unless 0), a game that has made that many asks without ending raises
    :class:`GameTooLong` instead of asking for another decision.

    >>> import numpy as np
    >>> from gofish_teach import Game, Rules
    >>> cheat = lambda view, rng: (view.player, "A")
    >>> play_out(Game(Rules.preset("pond"), 2, seed=0), [cheat, "random"], [seat_rng(0), seat_rng(1)])
    Traceback (most recent call last):
    ...
    gofish_teach.asks.IllegalMove: strategy '<lambda>' (seat 0) asked (0, 'A'): player 0 cannot ask themself: ask an opponent
    >>> play_out(Game(Rules.preset("pond"), 2, seed=0), ["random"] * 2, [seat_rng(0), seat_rng(1)], max_asks=3)
    Traceback (most recent call last):
    ...
    gofish_teach.strategies.GameTooLong: the game made 3 asks (max_asks=3) without ending
    """
    n = game.n_players
    if len(strategies) != n:
        raise ValueError(f"strategies: expected one per seat ({n}), got {len(strategies)}")
    if isinstance(rngs, (list, tuple)):
        if len(rngs) != n:
            raise ValueError(f"rngs: expected one generator per seat ({n}), got {len(rngs)}")
        by_seat = list(rngs)
    else:
        by_seat = [rngs] * n  # one generator shared by every seat
    chosen = [get_strategy(s) for s in strategies]
    view, ask = game.view, game.ask  # looked up once: this loop runs at every decision
    while not game.is_over:
        if max_asks and game.n_asks >= max_asks:
            raise GameTooLong(f"the game made {game.n_asks} asks (max_asks={max_asks}) without ending")
        p = game.current_player
        move = chosen[p](view(p), by_seat[p])
        try:
            ask(*(move if type(move) is tuple and 2 <= len(move) <= 3 else as_move(move)))
        except IllegalMove as e:
            raise IllegalMove(f"strategy {strategy_name(strategies[p])!r} (seat {p}) asked {move!r}: {e}") from None
    return game
