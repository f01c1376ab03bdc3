"""The host sends each seat only what its View holds: every byte sent to every seat, scanned for cards.

Many games (every preset, the variants, learners and bots, the chances panel on) are played
through the host with stand-in learners that ask at random. Each frame a seat's connection is
sent is scanned, when it is sent, for any card (``7♥``); each card found must be one the seat
has seen by then: in its hand now or before, or named in its log (its own deals and draws, a
lucky draw shown to all, a named card under specific-card rules). The check is shown to fail:
a serializer that also sends the ocean's next card, or one opponent's hand, is caught.

A few games are also played over real websockets, and every frame a client received is
checked against the game as it stood at that frame's ask.
"""
from __future__ import annotations

import asyncio
import json
import random
import re

import numpy as np
import pytest

from classroom_serving import FAST, run, serving
from gofish_teach import Ask, Card, Game
from gofish_teach.classroom.client import SeatClient, autoplay
from gofish_teach.classroom.host import Host
from gofish_teach.classroom.table import ClassTable

#: A card as the host writes it: rank then suit.
CARD = re.compile(r"(?:10|[2-9AJQK])[♣♦♥♠]")

SETUPS = [  # (rules message, seats): presets and variants, learners and bots
    ({"rules": "pond"}, ["learner", "learner", "memory", "random"]),
    ({"rules": "family"}, ["learner", "most_held", "learner"]),
    ({"rules": "bicycle"}, ["learner", "learner", "learner", "learner", "random"]),
    ({"rules": "classic"}, ["learner", "memory"]),
    ({"rules": "pond", "bluff": True}, ["learner", "random", "learner"]),
    ({"rules": "family", "book_size": 2}, ["learner", "learner", "memory", "random", "most_held", "learner"]),
    ({"rules": "pond", "teams": True}, ["learner", "memory", "learner", "random"]),
    ({"rules": "pond", "specific_card": True, "chances": False}, ["learner", "learner", "random"]),
    ({"rules": "pond", "n_ranks": 5, "hand_size": 3}, ["learner", "learner", "memory"]),
    ({"rules": "family", "n_ranks": 6, "hand_size": 3}, ["learner", "greedy", "learner"]),
]


def cards_in(value) -> set:
    """Every card an event (or a tuple of them) names, including an ask for one card."""
    found = set()
    if isinstance(value, Card):
        found.add(value)
    elif isinstance(value, Ask) and value.suit is not None:
        found.add(Card(value.rank, value.suit))
    elif isinstance(value, tuple):
        for item in value:
            found |= cards_in(item)
    return found


def seen_now(game: Game, seat: int) -> set[str]:
    """The cards ``seat``'s view holds: its hand and every card its log names."""
    view = game.view(seat)
    return {str(c) for c in view.hand} | {str(c) for c in cards_in(tuple(view.events))}


def leaks(text: str, seen: set[str]) -> set[str]:
    assert "\\u26" not in text, "a suit escaped as \\u26..: the scan would not see it"
    return set(CARD.findall(text)) - seen


class StandIn:
    """A learner's connection inside the host's process: checks each frame as it is sent, then asks at random."""

    def __init__(self, host: Host, rng: random.Random, found: list, seen: dict):
        self.host, self.rng, self.found, self.seen = host, rng, found, seen
        self.ip, self.frames, self.place, self.chances_frames = "stand-in", 0, None, 0

    def send(self, text: str) -> None:
        self.frames += 1
        if self.place is not None:
            code, seat = self.place
            table = self.host.tables[code]
            key = (code, table.played.number, seat)
            self.seen[key] = self.seen.get(key, set()) | seen_now(table.game, seat)  # ever seen, up to now
            bad = leaks(text, self.seen[key])
            if bad:
                self.found.append((code, seat, sorted(bad), text[:200]))
        message = json.loads(text)
        self.chances_frames += message["type"] == "chances"
        if message["type"] == "update" and message["legal"]:
            move = self.rng.choice(message["legal"])
            asyncio.get_running_loop().call_soon(self.ask, move, message["asks"])

    def ask(self, move, at) -> None:
        try:
            self.host.learner(self, {"type": "ask", "target": move[0], "rank": move[1], "at": at,
                                     **({"suit": move[2]} if len(move) > 2 else {})})
        except ValueError:
            pass  # a stale frame: a later one asks again


async def play_through_the_host(data, setups, games_each: int, seed: int):
    """Play ``games_each`` games of each set-up with stand-ins; ``(leaks found, frames scanned, games, chances frames)``."""
    host = Host(data)
    rng, found, seen, stand_ins = random.Random(seed), [], {}, []
    try:
        codes = []
        for message, seats in setups:
            [code] = host.open_tables({**message, "seats": seats, **FAST})
            codes.append(code)
            for _ in range(seats.count("learner")):
                stand_in = StandIn(host, random.Random(rng.random()), found, seen)
                stand_ins.append(stand_in)
                host.learner(stand_in, {"type": "join", "code": code, "name": f"L{len(stand_ins)}"})
                if host.tables[code].chances and len(stand_ins) % 2:
                    host.learner(stand_in, {"type": "chances", "on": True})
        played = 0
        for round_ in range(games_each):
            while not all(host.tables[code].over for code in codes):
                await asyncio.sleep(0.01)
            played += len(codes)
            if round_ + 1 < games_each:
                for code in codes:
                    table = host.tables[code]
                    host.commit(table, table.deal_entry(rng.randrange(2**62)))
        while any(value is None for value in host._chances.values()):  # the last counts arrive
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)
        return found, sum(s.frames for s in stand_ins), played, sum(s.chances_frames for s in stand_ins)
    finally:
        host.close()


def test_no_seat_is_ever_sent_a_card_it_has_not_seen(tmp_path):
    found, frames, games, chances = run(play_through_the_host(tmp_path, SETUPS, games_each=8, seed=44), timeout=900)
    print(f"{games} games, {frames:,} frames scanned ({chances:,} of them chances)")
    assert games == 80 and frames > 8_000 and chances > 100
    assert not found, found[:5]


@pytest.mark.parametrize("leak", ["the ocean's next card", "an opponent's hand"])
def test_the_scan_catches_a_leaky_serializer(tmp_path, monkeypatch, leak):
    """The same check fails when a frame carries one card too many (so it can fail above)."""
    honest = ClassTable.seat_frame

    def leaky(self, seat, since, connected=(), clock=None, public=None):
        frame = honest(self, seat, since, connected, clock, public)
        game = self.game
        if leak == "an opponent's hand":
            frame["debug"] = [str(c) for c in game.hand((seat + 1) % game.n_players)]
        elif game.ocean():
            frame["debug"] = str(game.ocean()[0])
        return frame

    monkeypatch.setattr(ClassTable, "seat_frame", leaky)
    found, frames, games, _ = run(play_through_the_host(tmp_path, SETUPS[:2], games_each=1, seed=1))
    assert games == 2 and frames > 100
    assert found and all(bad for _, _, bad, _ in found)


def test_every_frame_received_over_a_websocket_holds_only_cards_seen(tmp_path):
    async def scenario():
        async with serving(tmp_path) as (host, address):
            checked = 0
            for message, seats in SETUPS[:4]:
                [code] = host.open_tables({**message, "seats": seats, **FAST})
                clients = [await SeatClient(address, keep_frames=True).connect() for _ in range(seats.count("learner"))]
                for k, client in enumerate(clients):
                    await client.join(code, f"P{k}")
                    await client.send({"type": "chances", "on": True})
                await asyncio.gather(*(autoplay(c, np.random.default_rng(k)) for k, c in enumerate(clients)))
                game = host.tables[code].game
                # What each seat had seen by each ask of the game (ever), rebuilt from the deck and the asks.
                replay = Game(game.rules, game.n_players, deck=game.deck)
                seen = {s: [seen_now(replay, s)] for s in range(game.n_players)}
                for move in game.moves:
                    replay.ask(*move)
                    for s in seen:
                        seen[s].append(seen[s][-1] | seen_now(replay, s))
                for client in clients:
                    at = 0
                    for text in client.frames:
                        message = json.loads(text)
                        at = message.get("asks", at)  # a chances frame is about the latest update's position
                        assert not leaks(text, seen[client.seat][at]), (message["type"], at)
                        checked += 1
            return checked
    assert run(scenario()) > 500
