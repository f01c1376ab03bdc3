"""Checks for exercises 09-11: a strategy, a fair experiment, and your own strategy (the capstone).

The positions and games here are played by small strategies defined in this module, not
by the built-in ones, so that the checks (and the solutions' saved outputs) stay the same
when the built-in strategies are improved.

>>> import numpy as np
>>> from gofish_teach import Game, Rules
>>> view = Game(Rules.preset("pond"), 3, seed=1).view(0)
>>> ask_who_asked_reference(view, np.random.default_rng(0))   # no asks yet: most held rank, first opponent
(1, '7')
>>> share, low, high = experiment_reference(lowest_rank, biggest_pile, games=20, seed=1)
>>> share, round(low, 4), round(high, 4)       # ties count 1/2, so 10.5 wins of 20
(0.525, 0.3205, 0.7215)
"""
from __future__ import annotations

import math

import numpy as np

from ..cards import plural
from ..events import Ask, Draw, GoFish, Give
from ..game import Game, IllegalMove
from ..rules import Rules
from .checking import Case, Exercise
from .game_logic import show_cards
from . import sandbox

#: Two players, four ranks (A, 2, 3, 4), three cards each: a game takes a few dozen asks.
SMALL_POND = Rules.preset("pond").replace(n_ranks=4, hand_size=3)
#: The 95% point of the standard normal distribution, for Wilson intervals.
Z95 = 1.959963984540054
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
def ask_who_asked_reference(view, rng=None):
    events = view.events
    held = view.counts
    for t in range(len(events) - 1, -1, -1):  # the latest ask first
        e = events[t]
        if type(e) is Ask and e.player in view.opponents and e.rank in held:
            later = events[t + 1:]
            if not any(type(f) in (Give, GoFish) and f.player == e.player and f.rank == e.rank for f in later):
                return e.player, e.rank
    target = next((q for q in view.opponents if view.hand_sizes[q]), view.opponents[0])
    return target, max(held, key=held.get)  # counts are in rank order: ties go to the lowest rank


def _category(view) -> str:
    """Which part of the rule a position tests (to pick a varied set of cases)."""
    events, held, me = view.events, view.counts, view.player
    asks = [(t, e) for t, e in enumerate(events) if type(e) is Ask]
    if not any(e.player != me for _, e in asks):
        return "fallback"
    expected = ask_who_asked_reference(view)
    qualifying = [(t, e) for t, e in asks if e.player != me and e.rank in held]
    latest = asks[-1][1]
    if latest.player == me and latest.rank in held:
        return "own ask latest"
    if not qualifying or (expected not in [(e.player, e.rank) for _, e in qualifying]):
        return "fallback" if not qualifying else "all stale"
    first_fit = next(e for _, e in reversed(qualifying))
    if (first_fit.player, first_fit.rank) != expected:
        return "stale skipped"
    opp = [e for _, e in asks if e.player != me]
    if opp[-1].rank not in held:
        return "not held skipped"
    if len({(e.player, e.rank) for _, e in qualifying}) > 1:
        return "several"
    return "latest"


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


def _positions(per_category: int = 2, max_asks: int = 14) -> list:
    """Views from seeded games of random play, a few of each category, in a fixed order."""
    order = ["fallback", "latest", "several", "not held skipped", "stale skipped", "own ask latest"]
    found: dict[str, list] = {c: [] for c in order}
    for seed in range(200):
        n = 3 + seed % 2
        game = Game(Rules.preset("pond"), n, seed=seed)
        rng = np.random.default_rng(seed)
        while not game.is_over and game.n_asks <= max_asks:
            view = game.view(game.current_player)
            kind = _category(view)
            if kind in found and len(found[kind]) < per_category and not (kind == "fallback" and game.n_asks > 4):
                found[kind].append(view)
            game.ask(*random_asker(view, rng))
        if all(len(v) == per_category for v in found.values()):
            break
    return [v for c in order for v in found[c]]


def _ask_who_asked_cases() -> list[Case]:
    cases = []
    for view in _positions():
        cases.append(Case((view, np.random.default_rng(0)), ask_who_asked_reference(view),
                          f"ask_who_asked(view, rng) where\n   {describe_view(view)}"))
    return cases


class AskWhoAsked(Exercise):
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
                            make_cases=_ask_who_asked_cases)


# --------------------------------------------------------------------------- 10 a fair experiment
def wilson(share_total: float, games: int, z: float = Z95) -> tuple[float, float]:
    p = share_total / games
    centre = p + z * z / (2 * games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return (centre - half) / scale, (centre + half) / scale


def experiment_reference(strategy, opponent, games, seed):
    """``strategy``'s win share against ``opponent`` in ``games`` SMALL_POND games, and its Wilson 95% interval."""
    from ..strategies import play_out

    total = 0.0
    for g in range(games):
        game = Game(SMALL_POND, 2, seed=seed + g)
        me = g % 2  # seats alternate: each moves first in half the games
        lineup = [strategy, opponent] if me == 0 else [opponent, strategy]
        play_out(game, lineup, np.random.default_rng(seed + g))
        if me in game.winners:
            total += 1 / len(game.winners)  # a tie shares the win
    low, high = wilson(total, games)
    return total / games, low, high


def _experiment_cases() -> list[Case]:
    specs = [(lowest_rank, biggest_pile, 20, 1), (biggest_pile, lowest_rank, 31, 5),
             (lowest_rank, lowest_rank, 10, 0), (biggest_pile, lowest_rank, 1, 3), (lowest_rank, biggest_pile, 50, 100)]
    return [Case((s, o, g, seed), experiment_reference(s, o, g, seed),
                 f"experiment({s.__name__}, {o.__name__}, games={g}, seed={seed})") for s, o, g, seed in specs]


class Experiment(Exercise):
    def compare(self, expected, returned):
        if not isinstance(returned, (list, tuple)) or len(returned) != 3:
            return False, "return (share, low, high)"
        try:
            got = [float(x) for x in returned]
        except (TypeError, ValueError):
            return False, "share, low and high must be numbers"
        if abs(got[0] - expected[0]) > 1e-9:
            return False, "the win share differs: alternate the seats, and count a tie as half a win"
        if any(abs(a - b) > 1e-9 for a, b in zip(got[1:], expected[1:])):
            return False, "the share is right but the interval is not: use the Wilson interval at 95%"
        return True, ""

    def show(self, value):
        if isinstance(value, (list, tuple)) and len(value) == 3:
            try:
                return "(" + ", ".join(f"{float(x):.6f}" for x in value) + ")"
            except (TypeError, ValueError):
                pass
        return super().show(value)


EXPERIMENT = Experiment("10-experiment", "experiment", "running a fair experiment with a confidence interval", "06",
                        "Make a comparison fair (alternate who moves first), count ties honestly, and report a "
                        "Wilson 95% interval.", make_cases=_experiment_cases)


# --------------------------------------------------------------------------- 11 your own strategy
def play_capstone_game(strategy, seed: int, seat: int, n_players: int = 4) -> dict:
    """One pond game: ``strategy`` at ``seat``, :func:`random_asker` elsewhere. Returns what happened.

    The result says ``finished`` (with ``books``, ``asks``, ``winners``), or ``illegal``
    (the ask and the rule it broke), or ``stalled`` (past :data:`MAX_ASKS` asks).
    """
    game = Game(Rules.preset("pond"), n_players, seed=seed)
    rngs = [np.random.default_rng([seed, p]) for p in range(n_players)]
    while not game.is_over:
        if game.n_asks >= MAX_ASKS:
            return {"stalled": game.n_asks}
        p = game.current_player
        if p == seat:
            move = strategy(game.view(p), rngs[p])
            try:
                if not isinstance(move, (tuple, list)) or len(move) != 2:
                    raise IllegalMove(f"a strategy must return (target, rank), not {move!r}")
                game.ask(*move)
            except IllegalMove as e:
                return {"illegal": f"ask {game.n_asks + 1}: {move!r}: {e}"}
        else:
            game.ask(*random_asker(game.view(p), rngs[p]))
    return {"finished": True, "asks": game.n_asks, "books": list(game.book_counts), "winners": list(game.winners)}


class Capstone(Exercise):
    def run_case(self, func, case):
        seed, seat = case.args
        return sandbox.call(play_capstone_game, (func, seed, seat), time_limit=self.time_limit)

    def show_expected(self, case):
        return "legal asks all the way to the end of the game"

    def compare(self, expected, returned):
        if isinstance(returned, dict) and returned.get("finished"):
            return True, ""
        if isinstance(returned, dict) and "illegal" in returned:
            return False, "an illegal ask: choose from view.legal_asks() if in doubt"
        return False, "the game did not end: does your strategy keep asking for cards it cannot get?"

    def show(self, value):
        if isinstance(value, dict) and value.get("finished"):
            return f"finished after {value['asks']} asks; books by seat {value['books']}, winners {value['winners']}"
        if isinstance(value, dict) and "illegal" in value:
            return f"illegal {value['illegal']}"
        if isinstance(value, dict) and "stalled" in value:
            return f"still going after {value['stalled']} asks: stopped"
        return super().show(value)


def _capstone_cases() -> list[Case]:
    return [Case((seed, seed % 4), None, f"a 4-player pond game (seed {seed}), your strategy at seat {seed % 4}, "
                 "three random_asker opponents") for seed in range(6)]


CAPSTONE = Capstone("11-my-strategy", "my_strategy", "your own strategy, ready for the class tournament", "06",
                    "Write a strategy that always asks legally, test it, and enter it in the class tournament.",
                    time_limit=20.0, make_cases=_capstone_cases)
