"""The class's games as data: the teacher's download read back into the tables ``simulate`` gives.

The bundled sample is what its module writes (the same bytes) and says everywhere that it is
simulated play; a real host's export loads as the class's games; the seat and ask tables agree
with the engine (a ``memory`` bot asks who asked before whenever it can); a damaged line is set
aside with its reason and the rest still load; mixed groups are refused by ``results`` with a way
out named. The command's ``--export`` writes the same lines the teacher's page downloads.
"""
from __future__ import annotations

import gzip
import json
from importlib import resources

import numpy as np
import pytest

from classroom_serving import FAST, run, serving
from gofish_teach.__main__ import main
from gofish_teach.classroom import load_games
from gofish_teach.classroom.client import SeatClient, autoplay
from gofish_teach.classroom.games import SAMPLE
from gofish_teach.classroom.sample import sample_lines
from gofish_teach.simulate import Results
from gofish_teach.stats import game_length, win_share


def test_the_bundled_sample_is_what_its_module_writes_and_says_it_is_simulated():
    bundled = resources.files("gofish_teach.classroom").joinpath(SAMPLE).read_bytes()
    assert gzip.decompress(bundled).decode().splitlines() == sample_lines()
    sample = load_games()
    assert sample.simulated and len(sample) == 120 and not sample.problems
    assert "SIMULATED PLAY" in repr(sample) and "SIMULATED PLAY" in sample.label()
    assert all(g.game.is_over and g.simulated for g in sample)
    names = {s["name"] for g in sample for s in g.seats if s["kind"] == "learner"}
    assert len(names) == 24 and all(n.startswith("simulated learner") for n in names)


def test_the_sample_reads_into_simulates_tables_and_the_seat_and_ask_tables_agree():
    sample = load_games()
    res = sample.results()
    assert isinstance(res, Results) and res.lineup == ("learner", "learner", "memory", "random")
    assert res.winners.shape == (120, 4) and (res.shares().sum(axis=1) == 1).all()
    table = win_share(res, by="strategy")
    assert [r.label for r in table.rows] == ["learner", "memory", "random"]
    assert game_length(res).games == 120
    seats = sample.seats()
    assert len(seats) == 480 and np.isclose(seats["share"].sum(), 120)
    for role, row in zip(["learner", "memory", "random"], table.rows, strict=True):  # the same wins, read two ways
        assert np.isclose(seats["share"][seats["role"] == role].sum(), row.wins)
    asks = sample.asks()
    assert len(asks) == res.asks.sum()
    memory, rnd = asks.where(asks["role"] == "memory"), asks.where(asks["role"] == "random")
    assert memory["remembered"][memory["could"]].all()  # memory asks who asked before whenever it can
    assert 0 < rnd["remembered"][rnd["could"]].mean() < 0.6
    learners = seats.where(seats["role"] == "learner")
    assert (learners["remembered"] <= learners["could"]).all() and (learners["could"] <= learners["asks"]).all()
    assert learners["asks"].sum() == (asks["role"] == "learner").sum()


def test_a_hosts_export_loads_as_the_class_games(tmp_path):
    async def scenario():
        async with serving(tmp_path / "class") as (host, address):
            codes = host.open_tables({"rules": "family", "seats": ["learner", "memory", "random"], "tables": 2, **FAST})
            for k, code in enumerate(codes):
                client = await SeatClient(address).connect()
                await client.join(code, f"Learner {k}")
                await autoplay(client, np.random.default_rng(k))
            return "".join(line + "\n" for line in host.game_lines())
    text = run(scenario())
    path = tmp_path / "class-games.jsonl"
    path.write_text(text)
    games = load_games(path)
    assert not games.simulated and len(games) == 2 and "class's games from" in games.label()
    assert win_share(games.results(), by="strategy").rows[0].label == "learner"
    (tmp_path / "games.jsonl.gz").write_bytes(gzip.compress(text.encode()))
    assert len(load_games(tmp_path / "games.jsonl.gz")) == 2
    assert main(["host", "--data", str(tmp_path / "class"), "--export", str(tmp_path / "again.jsonl")]) == 0
    assert (tmp_path / "again.jsonl").read_text() == text


def test_a_damaged_line_is_set_aside_with_its_reason_and_the_rest_load(tmp_path):
    good = sample_lines()[:3]
    illegal = json.loads(good[0])
    illegal["saved"]["asks"][3] = [illegal["saved"]["asks"][3][0], "Z"]
    short = json.loads(good[1])
    short["by"] = short["by"][:-1]
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join([good[0], "not json", json.dumps(illegal), json.dumps(short), good[2], "[1]"]) + "\n")
    games = load_games(path)
    assert len(games) == 2 and len(games.problems) == 4, games.problems
    assert games.problems[0].startswith("line 2:") and "ask 3" in games.problems[1]
    assert "'by' must name who made each" in games.problems[2] and "4 line(s) set aside" in games.label()


def test_results_refuses_mixed_groups_and_where_picks_one():
    lines = sample_lines()[:4]
    other = json.loads(lines[0])
    other["seats"][0] = {"kind": "bot", "name": "greedy bot", "strategy": "greedy"}
    other["table"] = "OTHER"
    games = load_games()
    mixed = type(games)(list(games)[:4] + [type(games[0])(**{**games[0].__dict__, "seats": tuple(other["seats"])})])
    with pytest.raises(ValueError, match=r"pick a group with \.where"):
        mixed.results()
    assert len(games.where(rules="pond", players=4)) == 120 and not len(games.where(rules="family"))


def test_export_without_a_class_is_a_clear_error(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["host", "--data", str(tmp_path / "nothing"), "--export", "-"])
    assert "holds no class" in capsys.readouterr().err
