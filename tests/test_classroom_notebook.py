"""A class table from a notebook: ``gofish_teach.classroom.join`` plays a seat through the host.

The widget is built on a running event loop, as in a kernel, against a host served over loopback;
its buttons are clicked as a learner clicks them. It shows its own hand and no other, escapes a
classmate's name written as markup, shows a refusal as a message (never a traceback), and a second
widget made with its token takes the same seat back.
"""
from __future__ import annotations

import asyncio
import re

import numpy as np

from classroom_serving import FAST, run, serving
from gofish_teach.classroom import RemoteTable, join
from gofish_teach.classroom.client import SeatClient, autoplay

CARD = re.compile(r"(?:10|[2-9AJQK])[♣♦♥♠]")


async def until(predicate, timeout: float = 60) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        assert loop.time() < deadline, "the widget did not get there in time"
        await asyncio.sleep(0.02)


def test_a_notebook_seat_plays_a_whole_game_against_a_browser_seat(tmp_path):
    async def scenario():
        async with serving(tmp_path) as (host, address):
            [code] = host.open_tables({"rules": "pond", "seats": ["learner", "learner", "memory"], **FAST})
            other = await SeatClient(address).connect()
            await other.join(code, "<b onmouseover=x>Bo</b>")
            table = join(address, code.lower(), "Ann")
            assert isinstance(table, RemoteTable)
            await until(lambda: table.client.state is not None and table.client.state["started"])
            other.listen()
            playing = asyncio.ensure_future(autoplay(other, np.random.default_rng(1), timeout=240))
            game = host.tables[code].game
            rng, clicks = np.random.default_rng(2), 0
            while not game.is_over:
                await until(lambda: game.is_over or (table.client.state["legal"] and
                                                     table.client.state["asks"] == game.n_asks))
                if game.is_over:
                    break
                hand = table.hand_html.value  # exactly this seat's cards, and only in its hand
                assert set(CARD.findall(hand)) == {str(c) for c in game.hand(table.client.seat)}
                ranks = [r for r, b in table.rank_buttons.items() if not b.disabled]
                table.rank_buttons[ranks[int(rng.integers(len(ranks)))]].click()
                asks = [b for b in table.ask_buttons.values() if not b.disabled]
                before = game.n_asks
                asks[int(rng.integers(len(asks)))].click()
                clicks += 1
                await until(lambda before=before: game.n_asks > before)
            await playing
            await until(lambda: table.client.state["over"])
            assert clicks > 3 and "won" in table.status.value
            for value in (table.seats_html.value, table.log_html.value, table.header.value):
                assert "<b onmouseover" not in value
            assert "&lt;b onmouseover=x&gt;Bo&lt;/b&gt;" in table.seats_html.value
            # The same seat from another cell, with the token: the same log.
            again = join(address, code, token=table.token)
            await until(lambda: again.client.state is not None and len(again.client.log) == len(table.client.log))
            assert again.client.seat == table.client.seat and again.log_html.value == table.log_html.value
            # A wrong code: a message in the table, not a traceback.
            wrong = join(address, "ZZZZ-ZZZZ", "Cy")
            await until(lambda: "no table has the code" in wrong.status.value)
            for widget in (table, again, wrong):
                widget.close()
            await other.close()
    run(scenario())
