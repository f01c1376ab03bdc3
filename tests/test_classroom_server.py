"""``gofish-teach host`` over loopback: real websocket clients (tornado's) at real tables.

Whole games by four learners and by learners with bots; a seat taken back with its token after a
lost connection and after a restarted host; the Origin check, the teacher's token, the download;
the turn clock; a seat handed to a bot in mid-game; the chances panel only where the teacher
allows it, and only the seat's own.
"""
from __future__ import annotations

import asyncio
import json

import numpy as np
import pytest
from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest

from classroom_serving import FAST, run, serving
from gofish_teach import Game
from gofish_teach.classroom.client import HostError, SeatClient, autoplay
from gofish_teach.classroom.table import ClassTable

FOUR = ["learner"] * 4


def public(log: list[dict]) -> list[str]:
    """A seat's log as the public sentences (its own cards are filled in only in its own lines)."""
    return [e["text"] for e in log]


async def seat_all(address: str, code: str, names, **kwargs) -> list[SeatClient]:
    clients = [await SeatClient(address, **kwargs).connect() for _ in names]
    for client, name in zip(clients, names, strict=True):
        await client.join(code, name)
    return clients


async def caught_up(host, code: str, clients) -> None:
    """Until the table waits for a learner (or is over) and every client has been sent all of it."""
    table = host.tables[code]
    while table.bot_to_move() is not None:
        await asyncio.sleep(0.01)
    await settle(clients, lambda c: c.state["n"] == len(table.game.events) and c.state["asks"] == table.game.n_asks)


async def settle(clients, predicate, timeout: float = 60) -> None:
    """Read every client's frames until ``predicate(client)`` holds for each."""
    async def one(client):
        while not predicate(client):
            await client.receive(timeout)
    await asyncio.gather(*(one(c) for c in clients))


def test_four_learners_play_a_whole_game_and_every_seat_sees_the_same_public_log(tmp_path):
    async def scenario():
        async with serving(tmp_path) as (host, address):
            [code] = host.open_tables({"rules": "pond", "seats": FOUR, **FAST})
            clients = await seat_all(address, code, ["Ann", "Bo", "Cy", "Di"])
            await settle(clients, lambda c: c.state["started"])
            await asyncio.gather(*(autoplay(c, np.random.default_rng(k)) for k, c in enumerate(clients)))
            await settle(clients, lambda c: c.state["n"] == len(host.tables[code].game.events))
            table = host.tables[code]
            game = table.game
            assert game.is_over and all(c.over for c in clients)
            for c in clients:
                assert [e["kind"] for e in c.log] == [type(e).__name__.lower() for e in game.events]
                mine = game.view(c.seat).events
                assert public(c.log) == [e.describe(table.names()) for e in mine]
                assert c.state["winners"] == list(game.winners) and c.state["hand"] == []
            assert {c.seat for c in clients} == {0, 1, 2, 3}
            assert table.played.by == ["learner"] * game.n_asks
            # The store replays to the very same game.
            again = ClassTable.replay(code, table.opened, table.config, host.store.entries(code))
            assert again.game.to_json() == game.to_json() and again.names() == table.names()
            [line] = host.game_lines()
            record = json.loads(line)
            assert record["finished"] and record["by"] == table.played.by
            assert Game.from_json(json.dumps(record["saved"])).to_json() == game.to_json()
            return game.n_asks
    assert run(scenario()) > 20


def test_bots_fill_seats_and_a_greedy_bot_thinks_in_a_worker(tmp_path):
    async def scenario():
        async with serving(tmp_path) as (host, address):
            [code] = host.open_tables({"rules": "pond", "seats": ["learner", "greedy", "memory", "most_held"], **FAST})
            [ann] = await seat_all(address, code, ["Ann"])
            await autoplay(ann, np.random.default_rng(3), timeout=240)
            table = host.tables[code]
            bots = {by for by in table.played.by if by != "learner"}
            assert table.game.is_over and bots == {"greedy", "memory", "most_held"}, bots
            assert host._pool is not None  # the greedy bot's exact counts ran in the worker process
            assert ann.state["seats"][1] == {"name": "greedy bot", "kind": "bot", "strategy": "greedy", "open": False,
                                             "connected": False}
    run(scenario())


def test_a_closed_tab_and_a_restarted_host_return_the_learner_to_the_same_seat(tmp_path):
    async def scenario():
        async with serving(tmp_path) as (host, address):
            [code] = host.open_tables({"rules": "family", "seats": ["learner", "learner", "random"], **FAST})
            ann, bo = await seat_all(address, code, ["Ann", "Bo"])
            await settle([ann, bo], lambda c: c.state["started"])
            for _ in range(6):  # a few asks, whoever's turn it is
                mover = next((c for c in (ann, bo) if c.my_turn), None)
                if mover is None:
                    await asyncio.gather(ann.receive(), bo.receive())
                    continue
                made = mover.state["asks"]
                await mover.ask(*mover.state["legal"][0])
                await settle([ann, bo], lambda c, made=made: c.state["asks"] > made or c.over)
            await caught_up(host, code, [ann, bo])
            before = (ann.seat, public(ann.log), ann.state["hand"])
            await ann.close()                                     # the tab is closed ...
            again = await SeatClient(address).connect()
            await again.resume(code, ann.token)                   # ... and opened again
            assert (again.seat, public(again.log), again.state["hand"]) == before
            with pytest.raises(HostError, match="no seat at table .* holds that token"):
                await (await SeatClient(address).connect()).resume(code, "not-a-token")
            await again.close()
            await bo.close()
            log_then = host.tables[code].public_log()
        async with serving(tmp_path) as (host, address):          # the host restarted on the same data
            assert host.tables[code].public_log() == log_then
            back = await SeatClient(address).connect()
            await back.resume(code.lower(), ann.token)
            assert (back.seat, public(back.log), back.state["hand"]) == before
    run(scenario())


def test_websockets_from_another_origin_are_refused(tmp_path):
    async def scenario():
        async with serving(tmp_path, origins=["http://proxy.school.example"]) as (host, address):
            with pytest.raises(HTTPClientError) as refused:
                await SeatClient(address, origin="http://evil.example").connect()
            assert refused.value.code == 403
            for origin in (address.rstrip("/"), "http://proxy.school.example", None):
                client = await SeatClient(address, origin=origin).connect()
                await client.send({"type": "ping"})
                assert (await client.receive())["type"] == "pong"
    run(scenario())


def test_the_teacher_needs_the_token_for_the_page_actions_and_the_download(tmp_path):
    async def scenario():
        async with serving(tmp_path) as (host, address):
            teacher = await SeatClient(address.replace("http", "ws") + "ws/teacher").connect()
            await teacher.send({"type": "open", "rules": "pond", "seats": FOUR})
            assert "say hello with the teacher's token first" in (await teacher.receive())["problem"]
            await teacher.send({"type": "hello", "token": "guess"})
            assert "not this host's teacher token" in (await teacher.receive())["problem"]
            assert not host.tables
            await teacher.send({"type": "hello", "token": host.token})
            assert (await teacher.receive())["type"] == "host"
            await teacher.send({"type": "open", "rules": "pond", "seats": ["learner", "memory"], "tables": 3})
            opened = await teacher.until(lambda m: m["type"] == "opened")
            assert sorted(opened["codes"]) == sorted(host.tables) and len(host.tables) == 3
            client = AsyncHTTPClient()
            url = address + "teacher/games.jsonl"
            with pytest.raises(HTTPClientError) as refused:
                await client.fetch(url)
            assert refused.value.code == 401
            answer = await client.fetch(HTTPRequest(url, headers={"Authorization": f"Bearer {host.token}"}))
            lines = answer.body.decode().splitlines()
            assert len(lines) == 3 and {json.loads(line)["table"] for line in lines} == set(host.tables)
    run(scenario())


def test_the_turn_clock_asks_for_an_absent_learner_and_the_teacher_hands_a_seat_to_a_bot(tmp_path):
    async def scenario():
        async with serving(tmp_path) as (host, address):
            [code] = host.open_tables({"rules": "pond", "seats": ["learner", "learner"], "clock": 1, **FAST})
            ann, bo = await seat_all(address, code, ["Ann", "Bo"])
            table = host.tables[code]
            await settle([ann, bo], lambda c: c.state["asks"] >= 2, timeout=30)   # nobody clicks: the clock asks
            assert table.played.by[:2] == ["clock", "clock"] and ann.state["clock"] is not None
            teacher_view = host.summary(code)
            assert teacher_view["deadline"] is not None and teacher_view["status"] == "playing"
            host.teacher(type("T", (), {"teacher": True, "send": lambda self, t: None, "ip": "t"})(),
                         {"type": "seat", "code": code, "seat": 1, "kind": "memory"})
            await bo.until(lambda m: m["type"] == "unseated")
            assert bo.unseated and table.seats[1].kind == "bot"
            with pytest.raises(HostError):  # Bo's old token no longer holds a seat
                await (await SeatClient(address).connect()).resume(code, bo.token)
            await autoplay(ann, np.random.default_rng(5))
            assert table.game.is_over and "memory" in table.played.by
    run(scenario())


def test_chances_are_the_seats_own_and_only_where_the_teacher_allows_them(tmp_path):
    async def scenario():
        async with serving(tmp_path) as (host, address):
            [on] = host.open_tables({"rules": "pond", "seats": ["learner", "random", "random"], **FAST})
            [off] = host.open_tables({"rules": "pond", "seats": ["learner", "random"], "chances": False, **FAST})
            [ann] = await seat_all(address, on, ["Ann"])
            [bo] = await seat_all(address, off, ["Bo"])
            await bo.send({"type": "chances", "on": True})
            assert "has not turned on the chances panel" in (await bo.until(lambda m: m["type"] == "error"))["problem"]
            await ann.send({"type": "chances", "on": True})
            chances = await ann.until(lambda m: m["type"] == "chances", timeout=120)
            assert set(chances["holds"]) == {"1", "2"} and chances["exact"]
            from gofish_teach.probability import posterior
            exact = posterior(host.tables[on].game.view(0)).table()
            for q in (1, 2):
                for rank, (p, fraction) in chances["holds"][str(q)].items():
                    assert fraction == str(exact.holds[q][rank]) or (fraction == "1/1" and exact.holds[q][rank] == 1)
                    assert p == pytest.approx(float(exact.holds[q][rank]))
    run(scenario())
