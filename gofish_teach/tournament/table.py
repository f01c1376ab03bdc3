"""One table of the class tournament: its games, dealt from decks of its own, with its entries sandboxed.

:func:`play_table` is what a thread of the tournament's process, or a worker of a Dask cluster,
plays: plain data in (the job from :func:`~gofish_teach.tournament.round_robin.plan_tournament`,
the entries' texts included) and plain data out.

**Every table deals its own decks.** Game ``g`` at table ``t`` is dealt from a seed made of the
tournament's secret seed, ``t`` and ``g`` (:func:`deck_seed`). No two tables share a deck, so
nothing an entry could carry from one table to another tells it anything about the cards at
the next: not a file (the sandbox has none to keep), and not a channel the sandbox cannot
close either (which pages of the kit's files are in the page cache, locks on files that every
sandbox reads). An earlier version dealt game ``g`` the same deck at every table; an entry
that wrote each deck into the page cache at its first table won 0.81-0.84 of its games at the
next ones, where the same code without that channel won 0.55.

It stays fair: every deck is a shuffled deck drawn without regard to who sits at the table,
the seats rotate from game to game (with a number of games that is a multiple of the players,
each entrant plays each seat equally often), and each entrant plays many tables, so the luck
of the deal is the same for every entrant on average and its spread is in the leaderboard's
intervals. What common decks added was less spread between tables, not fairness.
"""
from __future__ import annotations

import shutil
import socket
import tempfile
import threading

import numpy as np

from .. import trust
from ..game import Game, IllegalMove
from .seat import Forfeit, LearnerPlayer, one_line

#: A game that passes this many asks is stopped and won by no one.
MAX_ASKS = 5000
#: A game in which this many asks in a row move no card (the ocean is empty and every ask
#: fails: a strategy going round in circles) is stopped and won by no one. Bots never do it.
IDLE_ASKS = 200
#: Set on Ctrl-C: every table of this process stops at its next ask.
STOP = threading.Event()


class Interrupted(Exception):
    """The tournament was stopped (Ctrl-C) while this table played."""


def deck_seed(seed: int, table: int, game: int) -> int:
    """The seed of game ``game``'s deck at table ``table``: every table deals its own decks.

    >>> deck_seed(1, 0, 0) == deck_seed(1, 0, 0), deck_seed(1, 0, 0) == deck_seed(1, 1, 0)
    (True, False)
    """
    # (seed, table, game, 1): apart from the seats' seeds, drawn from (seed, table, game).
    return int(np.random.SeedSequence([seed, table, game, 1]).generate_state(1, np.uint64)[0])


def play_table(job: dict) -> dict:
    """One table of a tournament, played here: in a thread of the tournament's process, or as a task
    on a cluster's worker. ``job`` is plain data (from :func:`plan_tournament`: the entries' texts
    travel with it), and so is the record it returns: ``wins`` by position at the table (a k-way
    tie counts 1/k), ``forfeits`` as ``(position, kind, reason, (table, game, ask))`` for each entry
    that broke a rule here, and ``stopped`` games.

    A table depends on nothing but its job: an entry that forfeits at another table still plays
    here until it breaks a rule here, so the record is the same wherever and whenever it is played.
    Each entry runs in a fresh sandbox, closed when the table ends (on a worker, the worker's own
    bubblewrap): nothing of it reaches another table.

    >>> from gofish_teach import Rules
    >>> job = dict(rules=Rules.preset("pond"), seed=1, table=0, games=2, seats=[("builtin", "random")] * 2,
    ...            time_limit=1.0, memory_mb=None, sandbox="off")
    >>> record = play_table(job)
    >>> sum(record["wins"]), record["forfeits"], record["stopped"]
    (2.0, [], 0)
    """
    sandboxed = _sandbox_here(job["sandbox"])
    state = _Table(job)
    scratch = None if sandboxed else tempfile.mkdtemp(prefix="gofish-table-")
    try:
        try:
            for i, seat in enumerate(job["seats"]):
                if seat[0] == "learner":
                    state.playing[i] = LearnerPlayer(seat[1], seat[2], job["time_limit"], job["memory_mb"],
                                                     sandboxed, scratch)
            for g in range(job["games"]):
                _play_game(state, g)
        except trust.Stopped:
            raise Interrupted from None
        finally:
            for p in state.playing.values():
                p.close()
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    return {"wins": state.wins, "forfeits": state.forfeits, "stopped": state.stopped}


def _sandbox_here(mode: str) -> bool:
    """Whether to sandbox on this machine (``mode`` is require or off); on one without bwrap, say which."""
    try:
        return trust.resolve_sandbox(mode)
    except trust.SandboxUnavailable as e:
        raise trust.SandboxUnavailable(f"on {socket.gethostname()}, where a table was to be played: {e}") from None


class _Table:
    """What a table keeps while it plays: its entries' processes and its record so far."""

    def __init__(self, job: dict):
        from ..strategies import get_strategy

        self.job, self.t = job, job["table"]
        self.strategies = {i: get_strategy(seat[1]) for i, seat in enumerate(job["seats"]) if seat[0] == "builtin"}
        self.stand_in = get_strategy("random")
        self.playing: dict[int, LearnerPlayer] = {}
        self.wins = [0.0] * len(job["seats"])
        self.forfeits: list[tuple] = []
        self.stopped = 0


def _play_game(state: _Table, g: int) -> None:
    """Game ``g`` of a table: its deck and its seats' generators depend only on the seed, the table and ``g``."""
    job, t = state.job, state.t
    k = len(job["seats"])
    seat_of = [(i + g) % k for i in range(k)]  # seats rotate from game to game
    at_seat = {s: i for i, s in enumerate(seat_of)}
    game = Game(job["rules"], k, seed=deck_seed(job["seed"], t, g))
    seat_seeds = [int(x) for x in np.random.SeedSequence([job["seed"], t, g]).generate_state(k, np.uint64)]
    from .entry import hidden_rng

    rngs = [hidden_rng(s) for s in seat_seeds]
    idle, last = 0, None
    while not game.is_over:
        if STOP.is_set():
            raise Interrupted
        p = game.current_player
        i = at_seat[p]
        view = game.view(p)
        # Each request carries the whole record, so a game going round in circles would get slower
        # and slower: stop it once nothing has moved for IDLE_ASKS asks.
        now = (view.hand_sizes, view.ocean_size)
        idle = idle + 1 if now == last else 0
        last = now
        if game.n_asks >= MAX_ASKS or idle >= IDLE_ASKS:
            state.stopped += 1
            break
        if i in state.strategies:
            move = state.strategies[i](view, rngs[p])
        elif state.playing[i].closed:  # it forfeited at this table: its seat plays on as random
            move = state.stand_in(view, rngs[p])
        else:
            try:
                # Its view and its seat's seed only: neither the table, nor the game number, nor the deck's seed.
                move = state.playing[i].choose(view, seat_seeds[p])
                move = tuple(move) if isinstance(move, list) else move
                if (not isinstance(move, tuple) or len(move) not in (2, 3)
                        or not all(type(x) in (int, str) for x in move)):
                    raise Forfeit("illegal", f"it returned {one_line(repr(move), 80)}, not (target, rank)")
                game.check_ask(*move)
            except (IllegalMove, TypeError, ValueError) as e:
                _disqualify(state, i, Forfeit("illegal", f"illegal ask {move!r}: {e}"), g, game)
                move = state.stand_in(view, rngs[p])
            except Forfeit as f:
                if STOP.is_set():  # its sandbox was killed by Ctrl-C, not by its own doing
                    raise Interrupted from None
                _disqualify(state, i, f, g, game)
                move = state.stand_in(view, rngs[p])
        game.ask(*move)
    if game.is_over:  # (a forfeited entry's wins are struck off once every table is in)
        for w in game.winners:
            state.wins[at_seat[w]] += 1 / len(game.winners)


def _disqualify(state: _Table, i: int, failure: Forfeit, g: int, game: Game) -> None:
    state.playing[i].close()
    where = (state.t, g, game.n_asks + 1)
    state.forfeits.append((i, failure.kind, f"{failure} (table {state.t}, game {g}, ask {game.n_asks + 1})", where))
