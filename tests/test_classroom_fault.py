"""SIGKILL in mid-game: the host restarted on its data resumes every table where it was.

A host of its own process (``python -m gofish_teach host``) with three tables mid-game: four
learners; two learners and two bots; a learner, a bot and the turn clock. It is killed with
SIGKILL (no chance to tidy up), once while every table waits for a learner and once while bots
are asking, and started again on the same folder and port. Every learner's client then comes back
with its seat's token, and must find the same seat, the same hand and the very same log it had
(when the kill came while bots were asking: its log goes on from exactly where it stopped); then
every table is played to the end.
"""
from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import numpy as np

from classroom_serving import Loop, run
from gofish_teach.classroom.client import HostError, SeatClient, autoplay, open_tables

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from benchmarks.bench_classroom import start_host  # noqa: E402

SETUPS = [dict(rules="pond", seats=["learner"] * 4, pause=0),
          dict(rules="family", seats=["learner", "memory", "learner", "random"], pause=0.2),
          dict(rules="bicycle", seats=["learner", "most_held"], pause=0.2, clock=30)]


async def until(predicate, timeout: float = 60) -> None:
    """Poll ``predicate()`` while the clients' readers (``listen``) fold in what the host sends."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "the host did not send what was expected in time"
        await asyncio.sleep(0.01)


async def play_some(clients, asks: int, rng) -> None:
    """Make ``asks`` learners' asks at one table, whoever's turn it is."""
    for _ in range(asks):
        await until(lambda: clients[0].over or any(c.my_turn for c in clients))
        if clients[0].over:
            return
        mover = next(c for c in clients if c.my_turn)
        before = mover.state["asks"]
        await mover.ask(*mover.state["legal"][int(rng.integers(len(mover.state["legal"])))])
        await until(lambda mover=mover, before=before: mover.state["asks"] > before)


async def quiet(clients) -> None:
    """Until the table waits for a learner and every client holds all of it."""
    await until(lambda: any(c.my_turn for c in clients))
    mover = next(c for c in clients if c.my_turn)
    await until(lambda: all(c.state["n"] == len(c.log) and c.state["asks"] == mover.state["asks"]
                            and len(c.log) == len(mover.log) for c in clients))


def snapshot(client: SeatClient):
    return client.seat, [e["text"] for e in client.log], client.state["hand"], client.state["asks"]


async def comeback(address: str, clients) -> list[SeatClient]:
    back = []
    for client in clients:
        await client.close()
        again = await SeatClient(address).connect()
        await again.resume(client.code, client.token)
        again.listen()
        back.append(again)
    return back


def kill(process) -> None:
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(30)


def test_a_killed_host_resumes_every_table_with_the_same_logs_and_seats(tmp_path):
    data = tmp_path / "class"
    process, address = start_host(data)
    port = address.rsplit(":", 1)[1].strip("/")
    token = (data / "teacher-token").read_text().strip()
    rng = np.random.default_rng(44)

    async def first_life():
        tables = []
        for setup in SETUPS:
            [code] = await open_tables(address, token, **setup)
            clients = [await SeatClient(address).connect() for _ in range(setup["seats"].count("learner"))]
            for k, client in enumerate(clients):
                await client.join(code, f"{code[:2]}-{k}")
                client.listen()
            await play_some(clients, 5, rng)
            await quiet(clients)
            tables.append(clients)
        return tables

    loop = Loop()
    try:
        tables = loop.run(first_life())
        before = [[snapshot(c) for c in clients] for clients in tables]
        kill(process)                                              # 1. every table waiting for a learner
        process, again = start_host(data, port=int(port))
        assert again == address

        async def second_life():
            back = [await comeback(address, clients) for clients in tables]
            assert [[snapshot(c) for c in clients] for clients in back] == before
            # 2. killed while the bots ask: a learner asks at each table with bots, then the kill comes at once.
            for clients in back[1:]:  # each learner after whom a bot sits asks until the turn passes
                mover = next(c for c in clients if c.my_turn)
                while mover.my_turn:
                    made = mover.state["asks"]
                    await mover.ask(*mover.state["legal"][0])
                    await until(lambda mover=mover, made=made: mover.state["asks"] > made)
            await asyncio.sleep(0.1)  # the bots' pause is 0.2 s: a bot is to ask when the kill comes
            return back
        back = loop.run(second_life())
        seen = [[(len(c.log), [e["text"] for e in c.log]) for c in clients] for clients in back]
        bots_asking = [clients[0].state["seats"][clients[0].state["turn"]]["kind"] == "bot" for clients in back[1:]]
        kill(process)
        process, _ = start_host(data, port=int(port))

        async def third_life():
            final = [await comeback(address, clients) for clients in back]
            for clients, was in zip(final, seen, strict=True):
                for client, (n, log) in zip(clients, was, strict=True):
                    assert [e["text"] for e in client.log][:n] == log  # nothing a seat was sent is lost or changed
            await asyncio.gather(*(autoplay(c, np.random.default_rng(k), timeout=300)
                                   for k, c in enumerate(c for clients in final for c in clients)))
            return final
        final = loop.run(third_life())
        assert any(bots_asking)  # the second kill did come while a bot was to ask (if not, the test proved less)
        assert all(c.over for clients in final for c in clients)
        for clients in final:  # every seat of a table holds the same game to its end
            assert len({len(c.log) for c in clients}) == 1 and len({str(c.state["winners"]) for c in clients}) == 1
    finally:
        loop.close()
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(30)


def test_a_restarted_host_keeps_its_port_and_teacher_token_without_being_told(tmp_path):
    data = tmp_path / "class"
    process, address = start_host(data)
    token = (data / "teacher-token").read_text()
    kill(process)
    process, again = start_host(data, port=None)  # no --port: the port this data folder used last
    try:
        assert again == address and (data / "teacher-token").read_text() == token
        assert oct((data / "teacher-token").stat().st_mode & 0o777) == "0o600"

        async def refused():
            client = await SeatClient(address).connect()
            try:
                await client.join("AAAA-AAAA", "Ann")
            except HostError as e:
                return str(e)
        assert "no table has the code AAAA-AAAA" in run(refused())
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(30)
