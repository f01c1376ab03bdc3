"""Hostile messages: malformed, forged, out of turn, oversized, flooding, and a few hundred at random.

One table is the target; two others are played to the end by their learners at the same time.
Every bad message must get an error frame naming its problem, change nothing at the target (its
stored entries, its log, its learners' views), raise nothing unexpected in the host (no logged
exception), and stop no other table; afterwards the host serves a new client and the target
table plays on. Guessing table codes is cut off after ten wrong tries from one address.
"""
from __future__ import annotations

import asyncio
import json
import logging
import random

import numpy as np
import pytest

from classroom_serving import FAST, run, serving
from gofish_teach.classroom.client import HostError, SeatClient, autoplay, socket_url
from gofish_teach.classroom.host import TRIES
from gofish_teach.classroom.server import BURST, FLOOD, HARD_LIMIT

#: (message as sent, words its error frame must hold); ``{code}`` is the target table's code.
HOSTILE = [
    ("not json", "not JSON"),
    ("[1, 2]", "expected a JSON object"),
    ("{}", "unknown message type"),
    ('{"type": "ask"}', "field 'target' is missing"),
    ('{"type": "ask", "target": 1, "rank": "7", "rank": "8"}', "appears twice"),
    ('{"type": "ask", "target": NaN, "rank": "7"}', "NaN is not a number JSON allows"),
    ('{"type": "ask", "target": 1e999, "rank": "7"}', "must be a whole number"),
    ('{"type": "ask", "target": true, "rank": "7"}', "must be a whole number"),
    ('{"type": "ask", "target": 123456789012345678901234567890, "rank": "7"}', "must be a seat, 0 to 5"),
    ('{"type": "ask", "target": 1, "rank": ["7"]}', "field 'rank' must be text"),
    ("[" * 1000 + "]" * 1000, "nested too deeply"),
    (b"\xff\xfe\x00{", "not a message"),
    ('{"type": "ask", "target": 1, "rank": "7", "player": 1}', "your seat is known from your connection"),
    ('{"type": "seat", "code": "{code}", "seat": 1, "kind": "memory"}', "unknown message type 'seat'"),
    ('{"type": "open", "rules": "pond", "seats": ["learner"]}', "unknown message type 'open'"),
    ('{"type": "join", "code": "{code}", "name": "Eve"}', "you are seated already"),
    ('{"type": "resume", "code": "{code}", "token": "x"}', "you are seated already"),
    ('{"type": "ask", "target": {me}, "rank": "7"}', "cannot ask themself"),
    ('{"type": "ask", "target": 9, "rank": "7"}', "must be a seat, 0 to 5"),
    ('{"type": "ask", "target": 1, "rank": "Z"}', "not in this deck"),
    ('{"type": "ask", "target": 1, "rank": "7", "at": 40}', "the game has moved on"),
    ("x" * 3000, "message too long: 3,000 bytes"),
]
KEYS = ["type", "target", "rank", "suit", "at", "code", "name", "token", "on", "player", "seat", "kind", "rules"]
TYPES = ["join", "resume", "ask", "chances", "ping", "seat", "open", "hello", "deal", "", None, 7, "ASK", "ask "]


def random_value(rng: random.Random, depth: int = 0):
    pick = rng.randrange(9 if depth < 3 else 6)
    if pick == 0:
        return None
    if pick == 1:
        return rng.random() < 0.5
    if pick == 2:
        return rng.choice([0, 1, -1, 5, 6, 2**31, -(2**63), 10**20])
    if pick == 3:
        return rng.choice([0.5, -1e308, 1e-300, float("nan"), float("inf")])
    if pick in (4, 5):
        alphabet = "A2345678910JQK♣♦♥♠<>&\"'\\/\u0000\u202e\U0001F41F abc-"
        return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 30)))
    if pick in (6, 7):
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(KEYS): random_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def random_message(rng: random.Random) -> str:
    message = {"type": rng.choice(TYPES)}
    for key in rng.sample(KEYS[1:], rng.randrange(5)):
        message[key] = random_value(rng)
    text = json.dumps(message)
    if rng.random() < 0.2:  # and some not even JSON: a byte or two changed
        chars = list(text)
        for _ in range(rng.randrange(1, 3)):
            chars[rng.randrange(len(chars))] = rng.choice('{}[]":,\\x')
        text = "".join(chars)
    return text


async def drain(client: SeatClient, quiet: float = 0.5) -> None:
    """Read what the host had queued for ``client`` (seats taken, connections), until it is quiet."""
    while True:
        try:
            await client.receive(quiet)
        except asyncio.TimeoutError:
            return


async def paced(client: SeatClient, text) -> dict:
    """Send one message and read its answer, slower than the per-connection limit (20 a second)."""
    await client.send(text)
    answer = await client.receive(30)
    await asyncio.sleep(0.055)
    return answer


def test_hostile_messages_change_nothing_and_stop_no_table(tmp_path, caplog):
    caplog.set_level(logging.ERROR, logger="gofish_teach.classroom")

    async def scenario():
        async with serving(tmp_path) as (host, address):
            [target] = host.open_tables({"rules": "pond", "seats": ["learner", "learner"], **FAST})
            others = host.open_tables({"rules": "pond", "seats": ["learner"] * 4, "tables": 2, **FAST})
            ann, bo = SeatClient(address), SeatClient(address)
            for client, name in ((ann, "Ann"), (bo, "Bo")):
                await client.connect()
                await client.join(target, name)
            await ann.until(lambda m: m["type"] == "update" and m["started"])
            players = []
            for code in others:
                for k in range(4):
                    client = await SeatClient(address).connect()
                    await client.join(code, f"P{k}")
                    players.append(client)
            table = host.tables[target]
            entries, log, view = host.store.entries(target), table.public_log(), table.game.view(1).events
            mover, other = (ann, bo) if table.to_move() == ann.seat else (bo, ann)
            await drain(ann)
            await drain(bo)
            playing = asyncio.gather(*(autoplay(c, np.random.default_rng(k), timeout=240)
                                       for k, c in enumerate(players)))

            answered = []
            for text, words in HOSTILE:  # from the learner whose turn it is: the worst placed to misbehave
                text = text.replace("{code}", target).replace("{me}", str(mover.seat)) if isinstance(text, str) else text
                answer = await paced(mover, text)
                answered.append(answer)
                assert answer["type"] == "error" and words in answer["problem"], (text[:60], answer)
            out_of_turn = await paced(other, {"type": "ask", "target": mover.seat, "rank": "7"})
            assert "turn, not" in out_of_turn["problem"]

            rng = random.Random(44)
            kinds = {}
            for _ in range(300):  # from the seat whose turn it is not
                answer = await paced(other, random_message(rng))
                kinds[answer["type"]] = kinds.get(answer["type"], 0) + 1
            assert kinds.get("error", 0) > 200 and set(kinds) <= {"error", "pong", "update"}, kinds

            stranger = await SeatClient(address).connect()  # forged: someone else's seat, without its token
            with pytest.raises(HostError, match="holds that token"):
                await stranger.resume(target, "A" * 32)
            teacher = await SeatClient(socket_url(address, "/ws/teacher")).connect()
            await teacher.send({"type": "seat", "code": target, "seat": 0, "kind": "memory"})
            assert "hello with the teacher's token first" in (await teacher.receive())["problem"]

            huge = await SeatClient(address).connect()  # past tornado's limit: the connection is closed
            await huge.send("x" * (HARD_LIMIT + 10))
            with pytest.raises(HostError, match="1009"):
                await huge.receive()

            flood = await SeatClient(address).connect()
            for _ in range(FLOOD + BURST + 50):
                await flood.send({"type": "ping"})
            frames = []
            with pytest.raises(HostError, match="1008"):
                while True:
                    frames.append(await flood.receive())
            pongs = sum(f["type"] == "pong" for f in frames)
            refusals = [f["problem"] for f in frames if f["type"] == "error"]
            assert BURST <= pongs <= BURST + 10 and refusals and "too many messages" in refusals[0], (pongs, refusals)

            await playing  # the other tables played to the end all along
            assert all(host.tables[code].over for code in others)
            assert host.store.entries(target) == entries and table.public_log() == log  # the target: untouched
            assert table.game.view(1).events == view
            fresh = await SeatClient(address).connect()  # the host still serves ...
            await fresh.send({"type": "ping"})
            assert (await fresh.receive())["type"] == "pong"
            made = table.game.n_asks  # ... and the target table plays on
            await mover.ask(*mover.state["legal"][0])
            await mover.until(lambda m: m["type"] == "update" and m["asks"] > made)
            return answered
    run(scenario())
    unexpected = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not unexpected, [r.getMessage() for r in unexpected]


def test_guessing_table_codes_is_cut_off_after_ten_tries(tmp_path):
    async def scenario():
        async with serving(tmp_path) as (host, address):
            [code] = host.open_tables({"rules": "pond", "seats": ["learner", "memory"], **FAST})
            guesser = await SeatClient(address).connect()
            problems = []
            for k in range(TRIES + 2):
                await guesser.send({"type": "join", "code": f"ZZZZ-ZZ{k:02d}", "name": "Eve"})
                problems.append((await guesser.receive())["problem"])
                await asyncio.sleep(0.06)
            assert all("no table has the code" in p for p in problems[:TRIES]), problems
            assert all("too many wrong codes" in p for p in problems[TRIES:]), problems
            await guesser.send({"type": "join", "code": code, "name": "Eve"})  # even the right one, for a while
            assert "too many wrong codes" in (await guesser.receive())["problem"]
            assert not host.tables[code].seats[0].name
    run(scenario())
