"""10 tables of 4 websocket clients played to the end at once, against a host in its own process.

The load of ``make bench``'s class section (``benchmarks/bench_classroom.py``, which this test
runs): every learner a client over loopback, asking at once whenever it is its turn. Every game
must end, and be the same game for every seat and in the host's export: the same events in the
same order (each seat's own cards filled in only in its own log), the same winners, and the
export's saved game replaying to exactly those events. The timings are printed, not asserted.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from gofish_teach import Game

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the bench lives outside the package, in benchmarks/
from benchmarks.bench_classroom import class_load, describe  # noqa: E402


def without_cards(event: dict) -> dict:
    """An event as every seat sees it: no sentence, no cards (a seat's own are filled in only for it)."""
    return {k: v for k, v in event.items() if k not in ("text", "cards")}


def test_ten_tables_of_four_clients_play_to_the_end_and_agree(tmp_path):
    data = tmp_path / "class"
    figures = class_load(data, tables=10, seats=4, seed=7)
    print("\n".join(describe(figures)))
    clients = figures["clients"]
    assert len(clients) == 10 and all(len(table) == 4 for table in clients.values())
    exported = subprocess.run([sys.executable, "-m", "gofish_teach", "host", "--data", str(data), "--export", "-"],
                              capture_output=True, text=True, check=True, cwd=ROOT).stdout.splitlines()
    records = {json.loads(line)["table"]: json.loads(line) for line in exported}
    assert set(records) == set(clients)
    for code, table in clients.items():
        record = records[code]
        assert record["finished"] and record["by"] == ["learner"] * len(record["saved"]["asks"])
        game = Game.from_json(json.dumps(record["saved"]))
        assert game.is_over
        logs = [[without_cards(e) for e in client.log] for client in table]
        assert all(log == logs[0] for log in logs), code
        assert len(logs[0]) == len(game.events)
        assert [e["kind"] for e in table[0].log] == [type(e).__name__.lower() for e in game.events]
        for client in table:
            assert client.over and client.state["winners"] == list(game.winners)
            assert client.state["asks"] == game.n_asks and client.state["hand"] == []
            own = [e for e in client.log if e.get("cards") and e.get("player") == client.seat]
            assert own and all(e["kind"] in ("deal", "draw") for e in own)
    assert len(figures["latencies"]) == sum(len(r["saved"]["asks"]) for r in records.values())
