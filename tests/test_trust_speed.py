"""The tournament made faster without changing what it decides (issue 34).

- What an entry is sent is sent once and referred to after (:mod:`gofish_teach.tournament.wire`):
  every view it rebuilds must be the view it was sent, in every game, seat and rule set.
- Entries forked by the fork server play exactly as entries started one bubblewrap each: the same
  seed gives the same leaderboard either way.
- The bench's case runs (on a tiny scale here) and gives the same leaderboard twice.
"""
from __future__ import annotations

import io
import pickle
import textwrap

import numpy as np
import pytest

from gofish_teach import Game, Rules
from gofish_teach.rules import PRESETS
from gofish_teach.strategies import get_strategy
from gofish_teach.tournament import run_tournament, speed, wire


def same(got, view) -> bool:
    ref = pickle.loads(pickle.dumps(view))
    return (got.events == ref.events and got.hand == ref.hand and got.counts == ref.counts
            and got.hand_sizes == ref.hand_sizes and got.books == ref.books and got.ocean_size == ref.ocean_size
            and got.opponents == ref.opponents and got.current_player == ref.current_player
            and got.is_over == ref.is_over and got.winners == ref.winners and got.legal_asks() == ref.legal_asks()
            and got.record.__getstate__() == ref.record.__getstate__() and got.rules == ref.rules
            and got.ranks == ref.ranks and repr(got) == repr(ref))


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_view_an_entry_rebuilds_is_the_view_it_was_sent(preset):
    rules = Rules.preset(preset)
    rng = np.random.default_rng(7)
    strategy = get_strategy("random")
    checked = 0
    for n in range(max(2, rules.min_players), min(rules.max_players, 5) + 1):
        senders = [wire.Sender() for _ in range(n)]
        streams = [io.BytesIO() for _ in range(n)]
        receivers = [wire.Receiver(s) for s in streams]
        for g in range(3):  # games in a row: a new game starts a new stream on both sides
            game = Game(rules, n, seed=100 * n + g)
            while not game.is_over and game.n_asks < 400:
                p = game.current_player
                view = game.view(p)
                message = senders[p].request(view, 1000 * n + g)
                at = streams[p].tell()
                streams[p].write(message)
                streams[p].seek(at)
                got, seed = receivers[p].next()
                assert seed == 1000 * n + g and same(got, view), (preset, n, g, game.n_asks)
                checked += 1
                game.ask(*strategy(view, rng))
    assert checked > 100


def test_a_view_changed_by_its_strategy_changes_nothing_sent_after():
    """The entry's copy is its own: what a strategy does to a view it was sent stays in that view."""
    game = Game(Rules.preset("pond"), 2, seed=3)
    sender, stream = wire.Sender(), io.BytesIO()
    receiver = wire.Receiver(stream)
    for _ in range(6):
        view = game.view(game.current_player)
        at = stream.tell()
        stream.write(sender.request(view, 1))
        stream.seek(at)
        got, _ = receiver.next()
        assert same(got, view)
        got.record.sizes.append(99)  # a strategy scribbling on what it got
        game.ask(*game.legal_asks()[0])


ENTRY = textwrap.dedent("""
    def strategy(view, rng):
        asks = view.legal_asks()
        return asks[int(rng.integers(len(asks)))]
""")
BROKEN = textwrap.dedent("""
    def strategy(view, rng):
        if len(view.events) > 30:
            raise KeyError("oops")
        return view.legal_asks()[0]
""")


def test_forked_entries_play_exactly_as_entries_in_a_bubblewrap_each(tmp_path, monkeypatch):
    for name, source in (("ana", ENTRY), ("ben", ENTRY), ("cy", BROKEN)):
        (tmp_path / f"{name}.py").write_text(source)
    options = dict(players=3, games=2, builtins=["random", "memory"], seed=8, sandbox="require")
    forked = run_tournament(tmp_path, "pond", **options)
    monkeypatch.setenv("GOFISH_FORKSERVER", "0")
    plain = run_tournament(tmp_path, "pond", **options)
    assert forked.leaderboard() == plain.leaderboard()
    assert {e.name: e.status for e in forked.entrants}["cy"] == "crash"


def test_the_bench_runs_and_gives_the_same_leaderboard_twice():
    first = speed.tournament_bench(entries=3, players=2, games=1, max_tables=4)
    second = speed.tournament_bench(entries=3, players=2, games=1, max_tables=4)
    assert first["tables"] == 4 and first["forfeits"] == 0
    assert first["leaderboard_digest"] == second["leaderboard_digest"]
    assert "class tournament: 6 entrants, 4 tables x 1 games (4 games), sandbox require: " in speed.describe(first)


#: A slow opponent (50 ms a decision): the other entry's turns leave it time out of turn.
SLOW = textwrap.dedent("""
    import time

    def strategy(view, rng):
        time.sleep(0.05)
        return view.legal_asks()[0]
""")
#: Thinks ahead while the others decide: a thread that keeps working, in turn and out of it.
THINKER = textwrap.dedent("""
    import threading

    def think():
        x = 0
        while True:
            x += 1

    def strategy(view, rng):
        if threading.active_count() == 1:
            threading.Thread(target=think, daemon=True).start()
        return view.legal_asks()[0]
""")
#: Answers, then starts a process a moment later, out of its turn, that ends at once (never waited for).
LATE_FORKER = textwrap.dedent("""
    import os, threading, time

    def later():
        time.sleep(0.01)
        if os.fork() == 0:
            os._exit(0)

    def strategy(view, rng):
        threading.Thread(target=later, daemon=True).start()
        return view.legal_asks()[0]
""")


@pytest.mark.parametrize("name, source, kind, words", [
    ("thinker", THINKER, "timeout", "s of processor time out of its turn"),
    ("forker", LATE_FORKER, "process", "process(es) out of its turn"),
])
def test_what_an_entry_does_out_of_its_turn_is_counted(tmp_path, name, source, kind, words):
    """Entries are not stopped between their decisions: what they use and start then is counted instead."""
    (tmp_path / f"{name}.py").write_text(source)
    (tmp_path / "slow.py").write_text(SLOW)
    result = run_tournament(tmp_path, "pond", players=2, games=4, builtins=[], seed=2, time_limit=0.5,
                            sandbox="require")
    by_name = {e.name: e for e in result.entrants}
    assert by_name[name].status == kind and words in by_name[name].reason, by_name[name].reason
    assert by_name["slow"].status == "ok"


def test_an_honest_entry_uses_next_to_nothing_out_of_its_turn(tmp_path, monkeypatch):
    from gofish_teach.tournament import seat

    used = []
    close = seat.LearnerPlayer.close

    def noting(self):
        if not self.closed and self.started:
            used.append(self.out_of_turn)
        close(self)

    monkeypatch.setattr(seat.LearnerPlayer, "close", noting)
    (tmp_path / "ana.py").write_text(ENTRY)
    (tmp_path / "slow.py").write_text(SLOW)
    run_tournament(tmp_path, "pond", players=2, games=2, builtins=[], seed=2, sandbox="require", jobs=1)
    assert len(used) == 2 and max(used) < 0.05, used  # a budget of 1 s: far from it
