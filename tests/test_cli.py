"""The teacher's command line, run in-process through main()."""
import re
import subprocess
import sys

import pytest

from gofish_teach.__main__ import main

ROW = re.compile(r"^(\d)\s+(\w+)\s+(0\.\d{3}|1\.000)\s+\[(\d\.\d{3}), (\d\.\d{3})\]$")


def test_simulate_prints_one_row_per_lineup_entry(capsys):
    status = main(["simulate", "--rules", "pond", "--players", "4", "--lineup", "memory,random,random,random",
                   "--games", "400", "--seed", "3", "--workers", "1"])
    out = capsys.readouterr().out
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "memory vs random: pond rules, 4 players, 400 games, seed 3 (seats rotate every game)"
    assert lines[1].split() == ["#", "strategy", "win", "share", "95%", "interval"]
    rows = [ROW.match(line).groups() for line in lines[2:6]]
    assert [(r[0], r[1]) for r in rows] == [("0", "memory"), ("1", "random"), ("2", "random"), ("3", "random")]
    assert sum(float(r[2]) for r in rows) == pytest.approx(1, abs=0.003)  # rounded to three places
    assert all(float(r[3]) <= float(r[2]) <= float(r[4]) for r in rows)
    assert re.search(r"Mean game length: \d+\.\d asks \(sd \d+\.\d\)", out)


def test_the_same_seed_prints_the_same_table(capsys):
    args = ["simulate", "--lineup", "most_held,random", "--games", "50", "--seed", "9"]
    main(args)
    first = capsys.readouterr().out
    main(args + ["--workers", "2"])
    assert capsys.readouterr().out.splitlines()[:5] == first.splitlines()[:5]


def test_defaults_and_seat_table(capsys):
    main(["simulate", "--players", "3", "--games", "30", "--by-seat"])
    out = capsys.readouterr().out
    assert out.startswith("all random: pond rules, 3 players, 30 games, seed 0")
    assert "seat  strategy" in out


@pytest.mark.parametrize("args, message", [
    (["--lineup", "memory,clever"], "lineup[1]: strategy 'clever' is unknown"),
    (["--lineup", "memory,random", "--players", "3"], "lineup: 2 strategies given for n_players=3"),
    (["--games", "0"], "games must be at least 1"),
    (["--rules", "poker"], "invalid choice: 'poker'"),
    (["--players", "0"], "--players: the pond rules are for 2 to 6 players, not 0"),
    (["--players", "-3", "--lineup", "memory,random"], "--players: the pond rules are for 2 to 6 players, not -3"),
    (["--rules", "bicycle", "--players", "6"], "--players: the bicycle rules are for 2 to 5 players, not 6"),
    (["--lineup", ""], "--lineup is empty: give one strategy per seat"),
    (["--lineup", " , "], "--lineup is empty"),
    (["--lineup", "memory,,random"], "--lineup: entry 2 of 'memory,,random' is empty"),
    (["--workers", "0"], "workers must be a positive int"),
    (["--games", str(10**30)], "games: at most 10,000,000 in one run"),
])
def test_bad_input_exits_with_a_message(capsys, args, message):
    with pytest.raises(SystemExit) as exit_:
        main(["simulate"] + args)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and message in err and "Traceback" not in err


def test_help_is_helpful(capsys):
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = capsys.readouterr().out
    for word in ("--lineup", "--games", "--seed", "--workers", "memory", "most_held", "family", "classic", "Example"):
        assert word in text
    assert main([]) == 0 and "simulate" in capsys.readouterr().out


def test_the_docstring_examples_run():
    # pytest --doctest-modules skips files named __main__.py, so run them here.
    import doctest

    import gofish_teach.__main__ as cli

    result = doctest.testmod(cli, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 4 and result.failed == 0


def test_python_dash_m_runs():
    done = subprocess.run([sys.executable, "-m", "gofish_teach", "--help"], capture_output=True, text=True, check=True)
    assert "python -m gofish_teach simulate --rules pond" in done.stdout
