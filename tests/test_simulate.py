"""Tournaments: seat rotation, common decks, reproducibility on any executor, bad input."""
import importlib
import os
import re
import subprocess
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
import pytest

import gofish_teach.fast as fast
from gofish_teach.fast import engine as fast_engine

simulate_module = importlib.import_module("gofish_teach.simulate")  # the module (the package's `simulate` is the function)
from gofish_teach import Game, IllegalMove, Rules
from gofish_teach.simulate import (
    BLOCK,
    MAX_GAMES,
    SEATS,
    DecisionTimeout,
    GameTooLong,
    game_inputs,
    play_game_readable,
    simulate,
)

FIELDS = ("winners", "books", "asks", "first", "offset", "seat_entry")


def same_results(a, b) -> bool:
    return all(np.array_equal(getattr(a, f), getattr(b, f)) for f in FIELDS) and a.lineup == b.lineup


def learner(view, rng):
    """A strategy as a learner would write it: not built in, so the readable engine plays it."""
    return view.opponents[-1], list(view.counts)[-1]


def stubborn(view, rng):
    """Always the first opponent, for the lowest rank held: with three players and the ocean
    empty, it can keep asking for a rank only the third player holds, for ever."""
    return view.opponents[0], list(view.counts)[0]


def stuck(view, rng):
    """A strategy that never returns."""
    while True:
        pass


def impatient(view, rng):
    """Catches every Exception, as careless code does: the time limit must still stop it."""
    while True:
        try:
            while True:
                pass
        except Exception:
            pass


# --------------------------------------------------------------------------- inputs
def test_game_inputs_depend_only_on_seed_and_game_index():
    decks, seeds = game_inputs(5, "pond", 2 * BLOCK + 10)
    picked = [3, BLOCK - 1, BLOCK, 2 * BLOCK + 9]
    some_decks, some_seeds = game_inputs(5, Rules.preset("pond"), picked)
    assert np.array_equal(some_decks, decks[picked]) and np.array_equal(some_seeds, seeds[picked])
    assert (np.sort(decks, axis=1) == np.arange(52)).all()  # every row is a whole deck
    assert seeds.shape == (len(decks), SEATS) and len(np.unique(seeds)) == seeds.size  # one seed per seat
    assert len({d.tobytes() for d in decks}) == len(decks)
    other_decks, other_seeds = game_inputs(6, "pond", 10)
    assert not np.array_equal(other_decks, decks[:10]) and not np.array_equal(other_seeds, seeds[:10])


def test_small_decks_use_the_first_ranks():
    decks, _ = game_inputs(0, Rules.preset("pond").replace(n_ranks=4, hand_size=3), 5)
    assert decks.shape == (5, 16) and (np.sort(decks, axis=1) == np.arange(16)).all()


def test_each_game_is_the_readable_engine_on_its_common_deck_and_seed():
    rules, lineup = Rules.preset("pond"), ["memory", "random", "most_held"]
    res = simulate(lineup, rules, 12, seed=9, workers=1)
    decks, seeds = game_inputs(9, rules, 12)
    for g in range(12):
        by_seat = [lineup[e] for e in res.seat_entry[g]]
        ref = play_game_readable(by_seat, rules, decks[g], seeds[g])
        assert res.books[g].tolist() == ref["books"].tolist() and res.asks[g] == ref["asks"]
        assert res.winners[g].tolist() == ref["winners"].tolist()


def test_two_lineups_on_one_seed_are_dealt_the_same_decks(monkeypatch):
    dealt = []

    class RecordingGame(Game):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            dealt.append(self.deck)

    monkeypatch.setattr(simulate_module, "Game", RecordingGame)
    simulate(["memory", "random", "random"], "pond", 20, seed=4, workers=1, fast=False)
    first, dealt[:] = list(dealt), []
    simulate([learner, "most_held", "random"], "pond", 20, seed=4, workers=1, fast=False)
    assert dealt == first and len(first) == 20


def test_the_fast_path_gets_the_same_decks(monkeypatch):
    seen = {}

    def recording(by_seat, rules, decks, seeds, **options):
        seen[tuple(by_seat)] = (decks.copy(), seeds.copy())
        return play_games(by_seat, rules, decks, seeds, **options)

    play_games = fast.play_games
    monkeypatch.setattr(fast, "play_games", recording)
    res = simulate(["memory", "random"], "family", 10, seed=2, workers=1)
    assert res.engine == "fast"
    decks, seeds = game_inputs(2, "family", 10)
    # Even games put entry 0 (memory) in seat 0, odd games rotate it to seat 1.
    assert np.array_equal(seen[("memory", "random")][0], decks[0::2])
    assert np.array_equal(seen[("random", "memory")][1], seeds[1::2])


# --------------------------------------------------------------------------- rotation
def test_seats_rotate_so_each_entry_moves_first_equally_often():
    res = simulate(["memory", "random", "random", "most_held"], "pond", 40, seed=1, workers=1)
    g = np.arange(40)
    assert np.array_equal(res.offset, g % 4)
    assert np.array_equal(res.seat_entry, (np.arange(4) + (g % 4)[:, None]) % 4)
    assert np.array_equal(res.first, np.zeros(40)) and np.array_equal(res.first_entry, g % 4)
    assert (np.bincount(res.first_entry) == 10).all()
    for entry in range(4):  # every entry sits in every seat 10 times
        assert (np.bincount(res.entry_seat[:, entry], minlength=4) == 10).all()
    assert res.seat_strategy[1].tolist() == ["random", "random", "most_held", "memory"]


def test_results_by_entry_are_the_results_by_seat_reordered():
    res = simulate(["memory", "random", "most_held"], "pond", 30, seed=3, workers=1)
    rows = np.arange(30)[:, None]
    assert np.array_equal(res.entry_winners[rows, res.seat_entry], res.winners)
    assert np.array_equal(res.entry_books[rows, res.seat_entry], res.books)
    assert (res.books.sum(axis=1) == 13).all() and res.winners.any(axis=1).all()
    assert np.allclose(res.shares("entry").sum(axis=1), 1) and np.allclose(res.shares("seat").sum(axis=1), 1)


# --------------------------------------------------------------------------- reproducibility
@pytest.mark.parametrize("lineup, games", [
    (["memory", "random", "random", "random"], 12000),  # the fast path, chunks of 5000
    ([learner, "random", "memory"], 250),                # the readable engine, chunks of 100
], ids=["fast", "readable"])
def test_same_seed_same_results_on_any_executor(lineup, games):
    one = simulate(lineup, "pond", games, seed=12, workers=1)
    assert one.engine == ("fast" if games > 1000 else "readable")
    runs = [simulate(lineup, "pond", games, seed=12, workers=2)]
    with ThreadPoolExecutor(2) as threads:
        runs.append(simulate(lineup, "pond", games, seed=12, executor=threads))
    with ProcessPoolExecutor(2) as processes:
        runs.append(simulate(lineup, "pond", games, seed=12, executor=processes))
    assert all(same_results(one, run) for run in runs)


def test_fast_and_readable_engines_agree_in_simulate():
    lineup = ["memory", "random", "most_held", "random"]
    a = simulate(lineup, "bicycle", 150, seed=8, workers=1)
    b = simulate(lineup, "bicycle", 150, seed=8, workers=1, fast=False)
    assert (a.engine, b.engine) == ("fast", "readable") and same_results(a, b)


def test_a_lineup_the_fast_path_cannot_play_uses_the_readable_engine():
    res = simulate([learner, "memory"], Rules.preset("pond").replace(n_ranks=5, hand_size=3), 6, seed=0)
    assert res.engine == "readable" and res.games == 6
    mixed = simulate(["random", "random"], Rules.preset("pond").replace(specific_card=True), 6, seed=0)
    assert mixed.engine == "readable" and mixed.winners.any(axis=1).all()


def test_numba_is_loaded_only_when_the_fast_path_plays():
    # Loading numba takes a moment: importing simulate, or a run the fast path cannot play
    # (a learner's function, specific_card rules), must not load it. (greedy does: the exact
    # probabilities it reads are compiled too.)
    code = "\n".join([
        "import sys",
        "from gofish_teach.simulate import simulate",
        "from gofish_teach import Rules",
        "print('numba' in sys.modules)",
        "def mine(view, rng): return view.opponents[0], list(view.counts)[0]",
        "simulate([mine, 'random'], 'pond', 2, seed=0, workers=1)",
        "simulate(['random', 'random'], Rules.preset('pond').replace(specific_card=True), 2, seed=0, workers=1)",
        "print('numba' in sys.modules)",
        "simulate(['memory', 'random'], 'pond', 2, seed=0, workers=1)",
        "print('numba' in sys.modules)"])
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False", "True"]


def test_no_seed_picks_one_and_keeps_it():
    res = simulate(["random", "random"], "pond", 5, seed=None)
    assert same_results(res, simulate(["random", "random"], "pond", 5, seed=res.seed))


# --------------------------------------------------------------------------- safety and bad input
def test_a_game_that_will_not_end_stops_with_a_clear_error():
    with pytest.raises(GameTooLong, match=r"^game 0 of the tournament passed max_asks=5 asks without ending: "
                                          "cards were still changing hands, so if games really are this long, "
                                          r"raise max_asks\. Lineup as given: random, random\. Rules: pond\.$"):
        simulate(["random", "random"], "pond", 3, seed=0, max_asks=5, fast=False)


def test_a_game_going_round_in_circles_says_a_higher_cap_would_not_help():
    # Game 1 rotates the lineup, so the message gives the lineup as given and by seat.
    with pytest.raises(GameTooLong) as info:
        simulate([stubborn, "random", stubborn], "pond", 30, seed=1, max_asks=400, workers=1)
    text = str(info.value)
    assert re.match(r"game \d+ of the tournament passed max_asks=400 asks without ending: no card has changed hands "
                    r"in its last \d+ asks \(the ocean is empty and every ask failed\), so a strategy keeps asking "
                    "for cards it cannot get, and a higher max_asks would not help. "
                    "Lineup as given: stubborn, random, stubborn.", text), text
    assert "raise max_asks" not in text and "teams" not in text


def test_an_illegal_ask_names_the_strategy_and_the_game():
    def cheat(view, rng):
        return view.player, "A"

    with pytest.raises(IllegalMove, match="strategy 'cheat'") as info:
        simulate([cheat, "random"], "pond", 3, seed=0)
    assert "in game 0 of the tournament" in "\n".join(info.value.__notes__)


@pytest.mark.parametrize("kwargs, field", [
    (dict(lineup=["memory", "clever"]), r"lineup\[1\]: strategy 'clever' is unknown"),
    (dict(lineup=["memory", "random"], n_players=3), "lineup: 2 strategies given for n_players=3"),
    (dict(lineup=["random"] * 7), "n_players"),
    (dict(games=0), "games must be at least 1"),
    (dict(games=2.5), "games must be at least 1"),
    (dict(seed=-1), "seed must be a non-negative int"),
    (dict(rules="poker"), "rules: unknown preset 'poker'"),
    (dict(workers=0), "workers must be a positive int"),
    (dict(max_asks=0), "max_asks must be a positive int"),
    (dict(games=10**30), "games: at most 10,000,000 in one run"),
    (dict(time_limit=0), "time_limit must be a positive number of seconds or None"),
    (dict(time_limit="1"), "time_limit must be"),
    (dict(lineup=["random"] * 8, rules=Rules.preset("pond").replace(max_players=8)),
     "n_players: tournaments seat at most 6 players"),
])
def test_bad_input_is_a_value_error_naming_the_field(kwargs, field):
    args = dict(lineup=["memory", "random"], rules="pond", games=5, seed=0) | kwargs
    with pytest.raises(ValueError, match=field):
        simulate(**args)


def test_no_progress_bar_unless_asked(capsys):
    simulate(["random", "random"], "pond", 300, seed=0, workers=1)
    assert capsys.readouterr().err == ""
    simulate(["random", "random"], "pond", 300, seed=0, workers=1, progress=True)
    assert "300/300" in capsys.readouterr().err


def test_the_ask_cap_reaches_the_fast_path_and_raises_the_one_error_class():
    from gofish_teach import strategies

    assert GameTooLong is fast_engine.GameTooLong is strategies.GameTooLong
    teams = Rules.preset("pond").replace(teams=True)
    lineup = ["most_held", "memory", "random", "random"]
    with pytest.raises(GameTooLong) as info:
        simulate(lineup, teams, 40, seed=0, workers=1, max_asks=20)
    assert str(info.value).startswith("game 0 of the tournament passed max_asks=20 asks without ending: cards were "
                                      "still changing hands")
    assert str(info.value).endswith("Lineup as given: most_held, memory, random, random. Rules: pond with teams "
                                    "(partners may not ask each other, so a rank only a partner holds cannot be won).")
    # The fast path names the tournament's game too, and the lineup by seat when rotated.
    asks = simulate(lineup, teams, 40, seed=0, workers=1).asks
    g = int(np.argmax(asks))
    with pytest.raises(GameTooLong, match=rf"^game {g} of the tournament passed max_asks={asks[g] - 1} asks") as info:
        simulate(lineup, teams, 40, seed=0, workers=1, max_asks=int(asks[g]) - 1)
    if g % 4:
        assert "By seat in this game: " in str(info.value)


def test_built_in_lineups_never_stall_under_teams():
    # The "bots never stall" rule: deterministic lineups that used to ask opponents for
    # ranks only a partner held now finish every game, in both engines alike.
    for preset in ("pond", "family"):
        teams = Rules.preset(preset).replace(teams=True)
        for lineup in (["most_held"] * 4, ["memory", "most_held"] * 3, ["memory"] * 4):
            res = simulate(lineup, teams, 2000, seed=3, workers=1, max_asks=500)
            assert res.engine == "fast" and res.asks.max() < 500
        slow = simulate(["memory", "most_held"] * 2, teams, 40, seed=3, workers=1, fast=False)
        assert same_results(slow, simulate(["memory", "most_held"] * 2, teams, 40, seed=3, workers=1))


# --------------------------------------------------------------------------- hardening
def test_a_huge_number_of_games_is_refused_at_once():
    with pytest.raises(ValueError, match=f"games: at most {MAX_GAMES:,} in one run"):
        simulate(["random", "random"], "pond", 10**30, seed=0)
    with pytest.raises(ValueError, match="games: at most"):
        simulate(["random", "random"], "pond", MAX_GAMES + 1, seed=0)


def test_chunks_are_submitted_a_few_at_a_time(monkeypatch):
    # A long run neither makes every chunk first nor queues them all on the executor.
    in_flight, most = [0], [0]
    lock = threading.Lock()

    def fake_chunk(lineup, rules, n, seed, start, stop, *rest):
        with lock:
            in_flight[0] += 1
            most[0] = max(most[0], in_flight[0])
        time.sleep(0.001)
        with lock:
            in_flight[0] -= 1
        return {"books": np.zeros((stop - start, n), np.int16), "asks": np.ones(stop - start, np.int32),
                "winners": np.ones((stop - start, n), bool), "fast": stop - start}

    submitted = []

    class CountingPool(ThreadPoolExecutor):
        def submit(self, fn, *args, **kwargs):
            submitted.append(len(submitted) - sum(f.done() for f in futures))
            future = super().submit(fn, *args, **kwargs)
            futures.append(future)
            return future

    futures = []
    monkeypatch.setattr(simulate_module, "play_chunk", fake_chunk)
    with CountingPool(2) as pool:
        res = simulate(["random", "random"], "pond", 1_000_000, seed=0, executor=pool)
    assert res.games == 1_000_000 and res.asks.sum() == 1_000_000 and len(submitted) == 200
    assert max(submitted) <= 2 * (os.cpu_count() or 1)


def test_a_strategy_that_never_returns_is_stopped_in_a_worker_process():
    with ProcessPoolExecutor(1) as pool:
        with pytest.raises(DecisionTimeout, match=r"strategy 'stuck' \(seat 0\) took more than time_limit=0\.5 s over "
                                                  r"one decision, in game 0 of the tournament \(lineup as given: "
                                                  r"stuck, random\)"):
            simulate([stuck, "random"], "pond", 2, seed=0, executor=pool, time_limit=0.5)
    with pytest.raises(DecisionTimeout, match=r"strategy 'impatient' \(seat 1\)"):
        simulate(["random", impatient], "pond", 300, seed=0, workers=2, time_limit=0.5)


def test_a_lambda_cannot_go_to_a_process_pool_and_the_message_says_what_to_do():
    fix = "Define it with def at the top level of a module .* or pass workers=1"
    with pytest.raises(ValueError, match=rf"lineup\[1\]: strategy '<lambda>' cannot be sent to another process.*{fix}"):
        simulate(["random", lambda view, rng: (view.opponents[0], list(view.counts)[0])], "pond", 300, workers=2)

    def nested(view, rng):
        return view.opponents[0], list(view.counts)[0]

    with ProcessPoolExecutor(1) as pool:
        with pytest.raises(ValueError, match=rf"lineup\[0\]: strategy 'nested' cannot be sent.*{fix}"):
            simulate([nested, "random"], "pond", 2, executor=pool)
    # In this process, or on threads, nothing needs sending.
    assert simulate([nested, "random"], "pond", 2, workers=1).games == 2
    with ThreadPoolExecutor(2) as threads:
        assert simulate([nested, "random"], "pond", 250, executor=threads).games == 250


# --------------------------------------------------------------------------- the parent's deadline
def deaf(view, rng):
    """Ignores the alarm signal, then never returns: only the parent can stop it."""
    import signal

    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    while True:
        pass


def test_the_time_limit_holds_with_workers_however_few_the_games():
    # Two games used to be played in this process, where no time limit applies.
    with pytest.raises(DecisionTimeout, match=r"strategy 'stuck' \(seat \d\) took more than time_limit=0\.5 s"):
        simulate([stuck, "random"], "pond", 2, seed=0, workers=2, time_limit=0.5)
    res = simulate([learner, "random"], "pond", 3, seed=0, workers=2, time_limit=5)
    assert same_results(res, simulate([learner, "random"], "pond", 3, seed=0, workers=1))


def test_a_strategy_that_ignores_the_alarm_is_killed_by_the_parent_and_named():
    import multiprocessing

    with pytest.raises(DecisionTimeout) as info:
        simulate(["random", deaf], "pond", 4, seed=0, workers=2, time_limit=0.5)
    text = str(info.value)
    assert re.match(r"strategy 'deaf' \(seat \d\) took more than time_limit=0\.5 s over one decision, in game \d of "
                    r"the tournament \(lineup as given: random, deaf\), and went on after the alarm: its worker "
                    r"process was killed", text), text
    assert multiprocessing.active_children() == []  # no worker left spinning


def test_pool_workers_die_with_their_parent():
    code = "\n".join([
        "import multiprocessing, os, signal, threading, time",
        "from gofish_teach.simulate import simulate",
        "def stuck(view, rng):",
        "    while True: pass",
        "def report():",
        "    while len(multiprocessing.active_children()) < 2: time.sleep(0.05)",
        "    print(*[p.pid for p in multiprocessing.active_children()], flush=True)",
        "    os.kill(os.getpid(), signal.SIGKILL)",
        "threading.Thread(target=report, daemon=True).start()",
        "simulate([stuck, 'random'], 'pond', 10, seed=0, workers=2, time_limit=None)"])
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    pids = [int(p) for p in done.stdout.split()]
    assert len(pids) == 2, done.stdout + done.stderr

    def alive(pid):
        try:
            with open(f"/proc/{pid}/stat") as f:
                return f.read().rpartition(")")[2].split()[0] != "Z"
        except OSError:
            return False

    deadline = time.monotonic() + 30
    while any(map(alive, pids)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(map(alive, pids)), "a pool worker outlived its parent"
