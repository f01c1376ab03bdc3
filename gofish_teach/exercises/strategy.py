"""Checks for exercises 09-11: a strategy, a fair experiment, and your own strategy (the capstone).

The positions and games here are played by small strategies defined in this module, not
by the built-in ones, so that the checks (and the solutions' saved outputs) stay the same
when the built-in strategies are improved.

Positions (exercise 09) travel to the learner's process as three numbers and are rebuilt
there (:func:`position`); strategies (exercise 10) travel by name; the capstone's game is
played there and replayed here, move by move, to judge it.

>>> [c.wire for c in EXPERIMENT.cases()][:1]
[{'strategy': 'lowest_rank', 'opponent': 'biggest_pile', 'games': 20, 'seed': 1}]
"""
from __future__ import annotations

import math

import numpy as np

from ..cards import plural
from ..events import Ask, Draw, Give
from ..game import Game, IllegalMove
from ..rules import Rules
from .checking import Case, Exercise
from .game_logic import show_cards

#: Two players, four ranks (A, 2, 3, 4), three cards each: a game takes a few dozen asks.
SMALL_POND = Rules.preset("pond").replace(n_ranks=4, hand_size=3)
#: A capstone game that passes this many asks is stopped: the strategy is not making progress.
MAX_ASKS = 2000


# --------------------------------------------------------------------------- small strategies
def lowest_rank(view, rng):
    """Ask the first opponent who holds cards for your lowest rank. (Deterministic.)"""
    target = next((q for q in view.opponents if view.hand_sizes[q]), view.opponents[0])
    return target, next(iter(view.counts))


def biggest_pile(view, rng):
    """Ask the first opponent who holds cards for the rank you hold most of (ties: the highest rank)."""
    counts = view.counts
    best = max(reversed(list(counts)), key=counts.get)
    target = next((q for q in view.opponents if view.hand_sizes[q]), view.opponents[0])
    return target, best


def random_asker(view, rng):
    """A uniformly random held rank, from a uniformly random opponent who holds cards."""
    ranks = list(view.counts)
    rank = ranks[int(rng.random() * len(ranks))]
    targets = [q for q in view.opponents if view.hand_sizes[q]] or list(view.opponents)
    return targets[int(rng.random() * len(targets))], rank


# --------------------------------------------------------------------------- 09 ask who asked before




def describe_view(view) -> str:
    """A position in words: the seat, its hand, and every ask so far with its answer."""
    lines = [f"you are seat {view.player} of {view.n_players} (pond rules), holding {show_cards(str(c) for c in view.hand)}"]
    events = view.events
    said = []
    for t, e in enumerate(events):
        if type(e) is not Ask:
            continue
        answer = events[t + 1] if t + 1 < len(events) else None
        if type(answer) is Give:
            what = f"got {answer.count}"
        else:
            nxt = events[t + 2] if t + 2 < len(events) else None
            what = "Go Fish, lucky draw" if type(nxt) is Draw and nxt.lucky else "Go Fish"
        said.append(f"P{e.player} asked P{e.target} for {plural(e.rank)} ({what})")
    lines.append("asks so far: " + ("; ".join(said) if said else "none"))
    return "\n   ".join(lines)


def position(n_players: int, seed: int, asks: int):
    """The view of the seat to play after ``asks`` asks of a seeded pond game of :func:`random_asker` play.

    Positions travel to the learner's process as these three numbers, and are rebuilt there.

    >>> position(3, 1, 0).player, position(3, 1, 2).player in (0, 1, 2)
    (0, True)
    """
    game = Game(Rules.preset("pond"), n_players, seed=seed)
    rng = np.random.default_rng(seed)
    while game.n_asks < asks:
        game.ask(*random_asker(game.view(game.current_player), rng))
    return game.view(game.current_player)


def position_case(spec) -> Case:
    """The case of the position ``spec`` = ``(n_players, seed, asks)`` (:func:`position`): its input, no answer.

    Which positions exercise 09 uses, public and hidden, the teacher's key chooses (it sorts
    positions by the part of the rule they test, which takes the answer to know).
    """
    view = position(*spec)
    return Case((view, np.random.default_rng(0)), None,
                f"ask_who_asked(view, rng) where\n   {describe_view(view)}", wire={"position": list(spec)})


class AskWhoAsked(Exercise):
    def unwire(self, wire):
        return (position(*wire["position"]), np.random.default_rng(0)), {}

    def compare(self, expected, returned):
        if not isinstance(returned, (list, tuple)) or len(returned) != 2:
            return False, "return (target, rank)"
        target, rank = returned
        return (target, rank) == expected, ""

    def show(self, value):
        if isinstance(value, list) and len(value) == 2:
            value = tuple(value)
        return super().show(value)


ASK_WHO_ASKED = AskWhoAsked("09-ask-who-asked", "ask_who_asked", "\"ask who asked before\" as a strategy", "04",
                            "Read the public record: an ask shows a card, and later events can take that knowledge back.",
                            make_inputs=None, make_hidden=None)  # the key chooses both (see position_case)


# --------------------------------------------------------------------------- 10 a fair experiment
#: The strategies an experiment case may name (they travel by name).
SMALL_STRATEGIES = {f.__name__: f for f in (lowest_rank, biggest_pile, random_asker)}
#: How far a returned share or interval end may be from the reference: z given to 6 decimals (1.959964) is fine.
TOLERANCE = 1e-6


def _experiment_case(s, o, g, seed) -> Case:
    return Case((s, o, g, seed), None, f"experiment({s.__name__}, {o.__name__}, games={g}, seed={seed})",
                wire={"strategy": s.__name__, "opponent": o.__name__, "games": g, "seed": seed})


def _experiment_cases() -> list[Case]:
    specs = [(lowest_rank, biggest_pile, 20, 1), (biggest_pile, lowest_rank, 31, 5),
             (lowest_rank, lowest_rank, 10, 0), (biggest_pile, lowest_rank, 1, 3), (lowest_rank, biggest_pile, 50, 100)]
    return [_experiment_case(*spec) for spec in specs]


def _experiment_hidden(rng) -> list[Case]:
    names = sorted(SMALL_STRATEGIES)
    return [_experiment_case(SMALL_STRATEGIES[names[int(rng.integers(3))]], SMALL_STRATEGIES[names[int(rng.integers(3))]],
                             int(rng.integers(2, 41)), int(rng.integers(10_000))) for _ in range(3)]


class Experiment(Exercise):
    def unwire(self, wire):
        return (SMALL_STRATEGIES[wire["strategy"]], SMALL_STRATEGIES[wire["opponent"]], int(wire["games"]),
                int(wire["seed"])), {}

    def compare(self, expected, returned):
        if not isinstance(returned, (list, tuple)) or len(returned) != 3:
            return False, "return (share, low, high)"
        if not all(type(x) in (int, float) for x in returned):
            return False, "share, low and high must be numbers"
        got = [float(x) for x in returned]
        if not all(math.isfinite(x) for x in got):
            return False, f"share, low and high must be numbers, not {', '.join(repr(x) for x in got)}"
        if abs(got[0] - expected[0]) > TOLERANCE:
            return False, "the win share differs: alternate the seats, and count a tie as half a win"
        off = max(abs(a - b) for a, b in zip(got[1:], expected[1:], strict=True))
        if off > TOLERANCE:
            return False, (f"the share is right but the interval is off by {off:.2g}: use the Wilson interval at 95% "
                           f"(z = 1.959964)")
        return True, ""

    def show(self, value):
        if isinstance(value, (list, tuple)) and len(value) == 3:
            try:
                return "(" + ", ".join(f"{float(x):.9f}" for x in value) + ")"
            except (TypeError, ValueError):
                pass
        return super().show(value)


EXPERIMENT = Experiment("10-experiment", "experiment", "running a fair experiment with a confidence interval", "06",
                        "Make a comparison fair (alternate who moves first), count ties honestly, and report a "
                        "Wilson 95% interval.", make_inputs=_experiment_cases, make_hidden=_experiment_hidden)


# --------------------------------------------------------------------------- 11 your own strategy
def play_capstone_game(strategy, seed: int, seat: int, n_players: int = 4, moves=None) -> dict:
    """One pond game: ``strategy`` at ``seat``, :func:`random_asker` elsewhere. Returns what happened.

    The result says ``finished`` (with ``books``, ``asks``, ``winners``), or ``illegal``
    (the ask and the rule it broke), or ``stalled`` (past :data:`MAX_ASKS` asks); ``moves``
    lists the strategy's asks in order. With ``moves`` given instead of a strategy, the game
    replays them: that is how the check judges a game played in the learner's process.

    >>> replayed = play_capstone_game(None, 2, 3, moves=play_capstone_game(random_asker, 2, 3)["moves"])
    >>> replayed["finished"], replayed == play_capstone_game(random_asker, 2, 3)
    (True, True)
    """
    game = Game(Rules.preset("pond"), n_players, seed=seed)
    rngs = [np.random.default_rng([seed, p]) for p in range(n_players)]
    made: list = []
    while not game.is_over:
        if game.n_asks >= MAX_ASKS:
            return {"stalled": game.n_asks, "moves": made}
        p = game.current_player
        if p == seat:
            if moves is None:
                move = strategy(game.view(p), rngs[p])
            elif len(made) < len(moves):
                move = moves[len(made)]
            else:
                return {"illegal": f"ask {game.n_asks + 1}: no move (the moves stop before the game ends)",
                        "moves": made}
            made.append(list(move) if isinstance(move, (tuple, list)) else move)
            try:
                if not isinstance(move, (tuple, list)) or len(move) != 2:
                    raise IllegalMove(f"a strategy must return (target, rank), not {move!r}")
                game.ask(*move)
            except IllegalMove as e:
                return {"illegal": f"ask {game.n_asks + 1}: {move!r}: {e}", "moves": made}
        else:
            game.ask(*random_asker(game.view(p), rngs[p]))
    return {"finished": True, "asks": game.n_asks, "books": list(game.book_counts), "winners": list(game.winners),
            "moves": made}


class Capstone(Exercise):
    """The learner's process plays the game and sends back its moves; this side replays them to judge."""

    def call(self, func, wire):
        return play_capstone_game(func, int(wire["seed"]), int(wire["seat"]))

    def wire(self, case):
        return {"seed": case.args[0], "seat": case.args[1]}

    def show_expected(self, case):
        return "legal asks all the way to the end of the game"

    def compare_case(self, case, returned):
        if not isinstance(returned, dict) or not isinstance(returned.get("moves"), list):
            return False, "no game came back"
        seed, seat = case.args
        moves = [tuple(m) if isinstance(m, (list, tuple)) else m for m in returned["moves"]]
        replayed = play_capstone_game(None, seed, seat, moves=moves)
        if replayed.get("finished"):
            return True, ""
        if "illegal" in replayed:
            return False, f"an illegal ask ({replayed['illegal']}): choose from view.legal_asks() if in doubt"
        return False, "the game did not end: does your strategy keep asking for cards it cannot get?"

    def show(self, value):
        if isinstance(value, dict) and value.get("finished"):
            return f"finished after {value['asks']} asks; books by seat {value['books']}, winners {value['winners']}"
        if isinstance(value, dict) and "illegal" in value:
            return f"illegal {value['illegal']}"
        if isinstance(value, dict) and "stalled" in value:
            return f"still going after {value['stalled']} asks: stopped"
        return super().show(value)


def _capstone_case(seed, seat) -> Case:
    return Case((seed, seat), None, f"a 4-player pond game (seed {seed}), your strategy at seat {seat}, "
                "three random_asker opponents")


def _capstone_cases() -> list[Case]:
    return [_capstone_case(seed, seed % 4) for seed in range(6)]


def _capstone_hidden(rng) -> list[Case]:
    return [_capstone_case(int(rng.integers(100, 2**30)), int(rng.integers(4))) for _ in range(4)]


CAPSTONE = Capstone("11-my-strategy", "my_strategy", "your own strategy, ready for the class tournament", "06",
                    "Write a strategy that always asks legally, test it, and enter it in the class tournament.",
                    time_limit=20.0, make_inputs=_capstone_cases, make_hidden=_capstone_hidden, keyed=False)
