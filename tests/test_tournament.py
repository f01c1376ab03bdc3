"""The class tournament: isolated entries; crashes, cheats, endless loops and memory hogs forfeit and are reported."""
from __future__ import annotations

import io
import textwrap
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from gofish_teach import tournament
from gofish_teach.tournament import Forfeit, hidden_rng, load_entry, run_tournament, save_strategy, schedule

ENTRIES = {
    "good": """
        def strategy(view, rng):
            counts = view.counts
            targets = [q for q in view.opponents if view.hand_sizes[q]] or list(view.opponents)
            return targets[rng.integers(len(targets))], max(counts, key=counts.get)  # a numpy int target
    """,
    "broken": """
        def strategy(view, rng):
            if len(view.events) > 25:
                raise KeyError("oops")
            return view.legal_asks()[0]
    """,
    "endless": """
        def strategy(view, rng):
            while True:
                pass
    """,
    "cheat": """
        def strategy(view, rng):  # asks for Kings whether it holds one or not
            return view.opponents[0], "K"
    """,
    "hog": """
        def strategy(view, rng):
            hoard = bytearray(8 * 2**30)
            return view.legal_asks()[0]
    """,
    "nothing": "x = 1\n",
    "typo": "def strategy(view, rng)\n    return 1\n",
    "printer": """
        import sys
        def my_strategy(view, rng):  # prints a lot, reads stdin: neither may disturb the tournament
            print("thinking..." * 1000)
            sys.stdin.read()
            return view.legal_asks()[-1]
    """,
}


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    folder = tmp_path_factory.mktemp("strategies")
    for name, source in ENTRIES.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(source))
    (folder / "_helper.py").write_text("raise SystemExit('a private module, not an entry')\n")
    # 18 of the 126 groups of 4, each entrant at 8 of them and every two entrants at one at least:
    # each way of failing still shows at every table it sits at, several of them shared with other
    # failing entries, for a seventh of the sandboxes and of the endless entry's 2 s spins.
    result = run_tournament(folder, "pond", players=4, games=1, builtins=["random"], time_limit=2,
                            memory_mb=1024, seed=11, sandbox="require", max_tables=18)
    return result, {e.name: e for e in result.entrants}


def test_well_behaved_entries_play_every_table_they_sit_at(played):
    result, by_name = played
    assert len(by_name) == len(ENTRIES) + 1 and "_helper" not in by_name
    assert len(result.tables) == len(set(result.tables)) == 18  # a balanced selection of the 126 groups of 4
    assert {frozenset(pair) for table in result.tables for pair in combinations(table, 2)} == \
        {frozenset(pair) for pair in combinations(range(len(by_name)), 2)}  # every two entrants meet
    for name in ("good", "printer", "random"):
        assert by_name[name].status == "ok", by_name[name].reason
        assert by_name[name].games == 8  # 18 tables x 4 seats / 9 entrants, one game each
    assert 0 < by_name["random"].wins < by_name["random"].games


@pytest.mark.parametrize("name, kind, words", [
    ("broken", "crash", "it raised KeyError: 'oops'"),
    ("endless", "timeout", "no answer within the time limit of 2 s"),
    ("cheat", "illegal", "illegal ask (1, 'K'): player 0 holds no Kings"),
    ("hog", "memory", "ran out of memory"),
    ("nothing", "crash", "defines no function strategy(view, rng)"),
    ("typo", "crash", "could not be loaded: SyntaxError"),
])
def test_misbehaving_entries_forfeit_all_their_games_and_are_reported(played, name, kind, words):
    result, by_name = played
    entrant = by_name[name]
    assert (entrant.status, entrant.wins, entrant.games) == (kind, 0, 8)
    assert words in entrant.reason and "(table " in entrant.reason
    assert f"{name} forfeits its 8 games: " in result.leaderboard()


def test_the_leaderboard_ranks_by_win_share_with_intervals(played, tmp_path):
    result, _ = played
    text = result.leaderboard()
    assert text.startswith("Class tournament: pond rules, 4 players, 18 tables x 1 games (18 games)\n")
    assert "95% interval" in text and "Fair share (1/4): 0.250" in text
    ranked = [e for e in result.ranking() if e.status == "ok"]
    assert [e.share for e in ranked] == sorted((e.share for e in ranked), reverse=True)
    low, high = ranked[0].interval()
    assert low <= ranked[0].share <= high
    result.plot(tmp_path / "board.png")
    assert (tmp_path / "board.png").stat().st_size > 1000


def test_the_same_seed_plays_the_same_tournament(tmp_path):
    (tmp_path / "first.py").write_text("def strategy(view, rng):\n    return view.legal_asks()[0]\n")
    (tmp_path / "coin.py").write_text(textwrap.dedent(ENTRIES["good"]))
    runs = [run_tournament(tmp_path, "family", players=2, games=3, builtins=["memory"], seed=5, sandbox="require")
            for _ in range(2)]
    records = [[(e.name, e.games, e.wins) for e in r.entrants] for r in runs]
    assert records[0] == records[1] and len(runs[0].tables) == 3


def test_schedule_is_a_full_round_robin_or_a_balanced_selection():
    assert schedule(4, 4) == [(0, 1, 2, 3)]
    tables = schedule(30, 4, max_tables=60, seed=2)
    assert len(tables) == len(set(tables)) == 60
    assert set(np.bincount([e for t in tables for e in t]).tolist()) == {8}
    with pytest.raises(ValueError, match="needs at least 4 entrants"):
        schedule(3, 4)


def test_bad_arguments_are_named(tmp_path):
    with pytest.raises(ValueError, match="holds no .py files"):
        run_tournament(tmp_path, "pond", players=2, games=1)
    (tmp_path / "a.py").write_text("def strategy(view, rng):\n    return view.legal_asks()[0]\n")
    with pytest.raises(ValueError, match="strategy 'smart' is unknown"):
        run_tournament(tmp_path, "pond", players=2, builtins=["smart"])
    with pytest.raises(ValueError, match=r"--games \(games\) must be a whole number from 1"):
        run_tournament(tmp_path, "pond", players=2, games=0)
    with pytest.raises(ValueError, match="needs at least 3 entrants"):
        run_tournament(tmp_path, "pond", players=3, builtins=["random"])
    assert Forfeit("timeout", "slow").kind == "timeout"


def test_an_entry_cannot_read_the_seed_from_its_generator():
    rng = hidden_rng(12345)
    assert rng.bit_generator.seed_seq.entropy != 12345
    assert rng.random() == np.random.default_rng(12345).random()


def notebook_strategy(view, rng):
    """A strategy as a learner writes it in exercise 11."""
    held = view.counts
    return view.opponents[int(rng.integers(len(view.opponents)))], max(held, key=held.get)


def test_save_strategy_writes_an_entry_the_tournament_loads(tmp_path):
    path = save_strategy(notebook_strategy, tmp_path / "lena.py")
    text = path.read_text()
    assert "def notebook_strategy(view, rng):" in text and text.rstrip().endswith("strategy = notebook_strategy")
    assert load_entry(path).__name__ == "notebook_strategy"
    result = run_tournament(tmp_path, "pond", players=2, games=2, builtins=["random"], seed=3, sandbox="require")
    assert [e.status for e in result.entrants] == ["ok", "ok"]


def test_the_command_line_prints_the_leaderboard_and_writes_the_plot(tmp_path):
    from gofish_teach.__main__ import main

    folder = tmp_path / "entries"
    folder.mkdir()
    (folder / "cheat.py").write_text(textwrap.dedent(ENTRIES["cheat"]))
    (folder / "good.py").write_text(textwrap.dedent(ENTRIES["good"]))
    out = io.StringIO()
    plot = tmp_path / "t.png"
    assert main(["tournament", str(folder), "--rules", "pond", "--players", "2", "--games", "2",
                 "--builtins", "random", "--seed", "1", "--sandbox", "require", "--plot", str(plot)], out=out) == 0
    text = out.getvalue()
    assert "Class tournament: pond rules, 2 players, 3 tables x 2 games" in text
    assert "cheat forfeits its 4 games: illegal ask" in text and f"Plot: {plot}" in text
    assert Path(plot).exists()


def test_a_game_going_round_in_circles_is_stopped_and_said(tmp_path):
    # Always the first opponent, for the lowest rank held: with three players and the ocean empty,
    # two of these can keep asking for ranks only the other holds, for ever.
    stubborn = "def strategy(view, rng):\n    return view.opponents[0], list(view.counts)[0]\n"
    for name in ("sam", "tim"):
        (tmp_path / f"{name}.py").write_text(stubborn)
    result = run_tournament(tmp_path, "pond", players=3, games=6, builtins=["random"], seed=1, sandbox="require")
    assert result.stopped >= 1
    assert f"asks, or {tournament.IDLE_ASKS} asks in a row that moved no card, and were stopped" in result.leaderboard()
    assert all(e.status == "ok" for e in result.entrants)


@pytest.mark.parametrize("option, value, words", [
    ("--memory-mb", "-5", "--memory-mb (memory_mb) must be a whole number from 256 to"),
    ("--memory-mb", "0", "--memory-mb (memory_mb) must be a whole number from 256"),
    ("--time-limit", "inf", "--time-limit (time_limit) must be a number of seconds above 0 and at most 600, not inf"),
    ("--time-limit", "nan", "--time-limit (time_limit) must be a number of seconds above 0 and at most 600, not nan"),
    ("--time-limit", "0", "--time-limit (time_limit) must be a number of seconds above 0"),
    ("--games", "0", "--games (games) must be a whole number from 1 to 100000, not 0"),
    ("--max-tables", "-1", "--max-tables (max_tables) must be a whole number from 1"),
    ("--seed", "-1", "--seed (seed) must be a whole number from 0"),
    ("--jobs", "0", "--jobs (jobs) must be a whole number from 1 to 64, not 0"),
    ("--players", "1", "--players (players) must be a whole number from 2"),
    ("--players", "9", "the pond rules are for 2 to 6 players, not 9"),
    ("--sandbox", "maybe", "argument --sandbox: invalid choice: 'maybe'"),
    ("--memory-mb", "lots", "argument --memory-mb: invalid int value: 'lots'"),
])
def test_every_option_is_checked_and_named(tmp_path, capsys, option, value, words):
    from gofish_teach.__main__ import main

    (tmp_path / "a.py").write_text("def strategy(view, rng):\n    return view.legal_asks()[0]\n")
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", str(tmp_path), option, value, "--plot", str(tmp_path / "t.png")])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and words in err and "Traceback" not in err, err
    assert not (tmp_path / "t.png").exists()


@pytest.mark.parametrize("kwargs, words", [
    (dict(memory_mb=-5), r"--memory-mb \(memory_mb\)"), (dict(memory_mb=512.5), r"--memory-mb \(memory_mb\)"),
    (dict(time_limit=float("inf")), r"--time-limit \(time_limit\)"), (dict(time_limit=True), "time_limit"),
    (dict(time_limit="1"), "time_limit"), (dict(games=2.0), r"--games \(games\)"), (dict(seed=2**64), "seed"),
    (dict(max_tables=0), "max_tables"), (dict(jobs=0), "jobs"), (dict(sandbox="maybe"), "--sandbox"),
    (dict(builtins="random"), "builtins must be a list"),
])
def test_every_argument_of_the_python_api_is_checked_and_named(tmp_path, kwargs, words):
    (tmp_path / "a.py").write_text("def strategy(view, rng):\n    return view.legal_asks()[0]\n")
    with pytest.raises(ValueError, match=words):
        run_tournament(tmp_path, "pond", players=2, **kwargs)


def test_require_without_bwrap_is_a_one_line_message(tmp_path, capsys, monkeypatch):
    from gofish_teach.__main__ import main
    from gofish_teach.trust import jail

    monkeypatch.setenv("GOFISH_BWRAP", "")
    monkeypatch.setattr(jail.shutil, "which", lambda name: None)
    (tmp_path / "a.py").write_text("def strategy(view, rng):\n    return view.legal_asks()[0]\n")
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", str(tmp_path), "--sandbox", "require", "--plot", str(tmp_path / "t.png")])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "bwrap (bubblewrap) is not installed" in err and "Traceback" not in err


def test_jobs_and_a_scheduler_are_not_given_together(tmp_path, capsys):
    from gofish_teach.__main__ import main

    (tmp_path / "a.py").write_text("def strategy(view, rng):\n    return view.legal_asks()[0]\n")
    with pytest.raises(SystemExit) as exit_:  # said before any connection is tried
        main(["tournament", str(tmp_path), "--jobs", "2", "--scheduler", "tcp://127.0.0.1:1"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "--jobs (jobs) and --scheduler (executor): give one" in err, err


def test_a_table_sent_to_a_machine_without_bwrap_names_it(monkeypatch):
    import socket

    from gofish_teach.rules import Rules
    from gofish_teach.trust import jail

    monkeypatch.setenv("GOFISH_BWRAP", "")
    monkeypatch.setattr(jail.shutil, "which", lambda name: None)
    job = dict(rules=Rules.preset("pond"), seed=1, table=0, games=1, time_limit=1.0, memory_mb=None,
               seats=[("learner", "a.py", b"def strategy(view, rng):\n    return view.legal_asks()[0]\n"),
                      ("builtin", "random")], sandbox="require")
    with pytest.raises(jail.SandboxUnavailable, match=f"^on {socket.gethostname()}, where a table was to be played: "
                                                      r"--sandbox require: bwrap \(bubblewrap\) is not installed"):
        tournament.play_table(job)


def test_a_table_is_the_same_record_whenever_it_is_played(tmp_path):
    """Plain data in, plain data out: what a cluster's worker plays and sends back."""
    (tmp_path / "a.py").write_text(textwrap.dedent(ENTRIES["broken"]))
    (tmp_path / "b.py").write_text(textwrap.dedent(ENTRIES["good"]))
    plan = tournament.plan_tournament(tmp_path, "pond", players=3, games=2, builtins=["random"], seed=4,
                                      sandbox="require")
    assert len(plan.jobs) == 1 and plan.jobs[0]["seats"][0][:2] == ("learner", "a.py")
    first, second = (tournament.play_table(plan.jobs[0]) for _ in range(2))
    assert first == second and sorted(first) == ["forfeits", "stopped", "wins"]
    (where, kind, reason, at), = first["forfeits"]
    assert (where, kind, at[0]) == (0, "crash", 0) and "it raised KeyError: 'oops'" in reason
