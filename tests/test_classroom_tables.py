"""A class table's rules, without a network: entries, the store, and what a refusal leaves.

Every change is stored before anyone is told (a store that fails changes nothing and tells nobody);
a replay of the stored entries is the same table; a seat handed to a bot and back; names made unique
and kept as text; a deal refused while a game is being played; the turn clock's and the bots' asks
drawn the same whenever they are computed.
"""
from __future__ import annotations

import json

import pytest

from gofish_teach.classroom.host import Host
from gofish_teach.classroom.table import ClassTable, bot_choice, table_config


class Conn:
    ip = "test"

    def __init__(self):
        self.frames = []

    def send(self, text):
        self.frames.append(json.loads(text))


def seated(host, code, name):
    conn = Conn()
    host.learner(conn, {"type": "join", "code": code, "name": name})
    return conn


def test_a_change_is_stored_before_anyone_is_told_and_a_failed_store_changes_nothing(tmp_path, monkeypatch):
    host = Host(tmp_path)
    [code] = host.open_tables({"rules": "pond", "seats": ["learner", "learner"], "pause": 0})
    ann, bo = seated(host, code, "Ann"), seated(host, code, "Bo")
    table = host.tables[code]
    order = []
    append = host.store.append
    monkeypatch.setattr(host.store, "append", lambda *a: order.append("stored") or append(*a))
    for conn in (ann, bo):
        monkeypatch.setattr(conn, "send", lambda text, conn=conn: order.append("sent") or conn.frames.append(text))
    mover = ann if table.to_move() == 0 else bo
    move = table.game.legal_asks()[0]
    host.learner(mover, {"type": "ask", "target": move[0], "rank": move[1]})
    assert order[0] == "stored" and order.count("stored") == 1 and order.count("sent") == 2

    before, entries, told = table.game.to_json(), host.store.entries(code), len(ann.frames) + len(bo.frames)

    def broken(*args):
        raise OSError("disk full")

    monkeypatch.setattr(host.store, "append", broken)
    mover = ann if host.tables[code].to_move() == 0 else bo
    move = host.tables[code].game.legal_asks()[0]
    with pytest.raises(RuntimeError, match="could not store that, so nothing changed"):
        host.learner(mover, {"type": "ask", "target": move[0], "rank": move[1]})
    assert host.tables[code].game.to_json() == before and host.store.entries(code) == entries
    assert len(ann.frames) + len(bo.frames) == told  # nobody heard of the ask that was not stored
    host.close()


def test_replaying_the_store_gives_the_same_table_and_names_stay_text(tmp_path):
    host = Host(tmp_path)
    [code] = host.open_tables({"rules": "family", "seats": ["learner", "learner", "memory"], "pause": 0,
                               "label": "period 3"})
    seated(host, code, "<b>Ann</b>")
    seated(host, code, "<b>Ann</b>")  # the same name twice: made unique
    table = host.tables[code]
    assert table.names()[:2] == ["<b>Ann</b>", "<b>Ann</b> 2"]
    while not table.over:
        seat = table.to_move()
        strategy = table.seats[seat].strategy or "random"
        host.commit(table, table.bot_ask_entry(seat, bot_choice(*table.bot_job(seat, strategy)), strategy))
    again = ClassTable.replay(code, table.opened, table.config, host.store.entries(code))
    assert again.game.to_json() == table.game.to_json() and again.names() == table.names()
    assert again.game_lines() == table.game_lines() and json.loads(again.game_lines()[0])["label"] == "period 3"
    host.close()


def test_seats_change_hands_and_a_game_in_play_is_not_dealt_again(tmp_path):
    table = ClassTable("K7QM-3XPA", table_config({"rules": "pond", "seats": ["learner", "learner", "random"]}))
    table.apply(*table.deal_entry(3))
    table.apply(*table.join_entry("Ann", "a"))
    assert not table.started and table.open_seats() == [1]
    with pytest.raises(ValueError, match="the game has not started: waiting for 1 more learner"):
        table.ask_entry(0, 1, "A", None)
    table.apply(*table.seat_entry(1, "memory"))  # the teacher hands the empty seat to a bot
    table.apply(*table.start_entry())
    assert table.names() == ["Ann", "memory bot", "random bot"] and table.started
    move = table.game.legal_asks()[0] if table.to_move() == 0 else None
    if move is not None:
        table.apply(*table.ask_entry(0, move[0], move[1], None))
        with pytest.raises(ValueError, match="still being played"):
            table.deal_entry(4)
    table.apply(*table.seat_entry(0, "learner"))  # and Ann's seat opened again: her token no longer holds it
    assert table.seat_of("a") is None and table.open_seats() == [0]
    with pytest.raises(ValueError, match="is neither 'learner' nor a bot"):
        table.seat_entry(2, "alphago")


def test_a_bots_ask_is_the_same_whenever_it_is_computed():
    table = ClassTable("K7QM-3XPA", table_config({"rules": "pond", "seats": ["learner", "random", "random"]}))
    table.apply(*table.deal_entry(11))
    table.apply(*table.join_entry("Ann", "a"))
    first = [bot_choice(*table.bot_job(seat, "random")) for seat in (1, 2) for _ in range(3)]
    assert first[:3] == [first[0]] * 3 and first[3:] == [first[3]] * 3
