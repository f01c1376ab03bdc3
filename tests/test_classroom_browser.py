"""The class at the table in a real Chromium: four learners, each in a browser context of their own.

A host of its own process (``python -m gofish_teach host``, on loopback); the session's one
Chromium (tests/conftest.py). Four contexts (four separate browsers, as far as storage goes) join
one table by typing its code and a name, and play a whole game by clicks (one turn by the keyboard
alone); every few asks each page's hand is checked against the game the host exported: it shows
that seat's cards and no other. A name written as markup is shown as text on the others' pages and
runs nothing. A reloaded page takes its seat back (the token is in the browser's storage). The
teacher's page opens tables with its form and shows them, with their QR codes.
"""
from __future__ import annotations

import json
import os
import random
import re
import signal
import sys
import urllib.request
from pathlib import Path

import pytest

from classroom_serving import run
from gofish_teach import Game
from gofish_teach.classroom.client import open_tables
from test_browser import broken_images, unnamed_controls

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from benchmarks.bench_classroom import start_host  # noqa: E402

CARD = re.compile(r"(?:10|[2-9AJQK])[♣♦♥♠]")
NAMES = ["Ann", "Bo", "<svg onload=pwned=1>", "Di"]  # a name as markup: at most 24 characters
WAIT_MS = 60_000


@pytest.fixture
def class_host(tmp_path):
    process, address = start_host(tmp_path / "class")
    token = (tmp_path / "class" / "teacher-token").read_text().strip()
    try:
        yield address, token
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(30)


def exported(address: str, token: str) -> dict:
    request = urllib.request.Request(address + "teacher/games.jsonl", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return {json.loads(line)["table"]: json.loads(line) for line in answer.read().decode().splitlines()}


def hand_on(page) -> list[str]:
    return page.locator("#hand .card").all_inner_texts()


def join(page, address: str, code: str, name: str) -> None:
    page.goto(address)
    page.fill("#code", code.lower().replace("-", " "))  # as a learner might type it
    page.fill("#name", name)
    page.click("#join-button")
    page.wait_for_selector("#table:not([hidden])", timeout=WAIT_MS)


def test_four_browsers_play_a_whole_game_by_clicks_each_seeing_only_its_own_hand(browser, class_host):
    address, token = class_host
    [code] = run(open_tables(address, token, rules="pond", seats=["learner"] * 4, n_ranks=6, hand_size=4,
                                   pause=0, chances=True))
    contexts = [browser.new_context(viewport={"width": 1100, "height": 1400}) for _ in NAMES]
    pages = [context.new_page() for context in contexts]
    try:
        for page, name in zip(pages, NAMES, strict=True):
            page.set_default_timeout(WAIT_MS)
            join(page, address, code, name)
        for page in pages:
            page.wait_for_function("() => !document.querySelector('#status').textContent.includes('Waiting for the others')")
        assert not unnamed_controls(pages[0], "main")
        for k, page in enumerate(pages):  # the markup name is text on the others' pages, and ran nothing
            if k != 2:
                assert NAMES[2] in page.locator("#seats").inner_text()
                assert page.locator("#seats svg").count() == 0
            assert page.evaluate("window.pwned") is None and page.evaluate("document.querySelectorAll('main svg').length") == 0
            assert page.locator("#where").inner_text().endswith("you are " + NAMES[k])
        pages[0].click("#chances-toggle")
        pages[0].wait_for_selector("table.chances", timeout=WAIT_MS)
        assert "From what you have seen" in pages[0].locator("#chances").inner_text()

        clicks, keyboard_turn, rng = 0, False, random.Random(44)  # at random: always the first choice can loop for ever
        while True:
            if all("Game over" in page.locator("#status").inner_text() for page in pages):
                break
            mover = next((p for p in pages if p.locator("button.ask:not([disabled]), button.rank:not([disabled])").count()),
                         None)
            if mover is None:
                pages[0].wait_for_timeout(50)
                continue
            before = mover.locator("#log li").count()
            ranks = mover.locator("button.rank:not([disabled])")
            rank = ranks.nth(rng.randrange(ranks.count()))
            if not keyboard_turn:  # one turn by the keyboard alone: focus, Enter; Tab to the ask, Enter
                rank.focus()
                mover.keyboard.press("Enter")
                mover.locator("button.ask:not([disabled])").first.focus()
                mover.keyboard.press("Enter")
                keyboard_turn = True
            else:
                rank.click()
                asks = mover.locator("button.ask:not([disabled])")
                asks.nth(rng.randrange(asks.count())).click()
            mover.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}")
            clicks += 1
            if clicks % 5 == 1:  # every page shows its seat's hand, and only that
                game = Game.from_json(json.dumps(exported(address, token)[code]["saved"]))
                for k, page in enumerate(pages):
                    page.wait_for_function(f"() => document.querySelectorAll('#log li').length >= {len(game.events)}")
                    assert sorted(hand_on(page)) == sorted(str(c) for c in game.hand(k)), (k, clicks)
        record = exported(address, token)[code]
        game = Game.from_json(json.dumps(record["saved"]))
        assert record["finished"] and game.is_over and record["by"] == ["learner"] * game.n_asks
        assert clicks == game.n_asks and keyboard_turn
        for k, page in enumerate(pages):
            assert page.locator("#log li").count() == len(game.events)
            mine = {str(c) for c in game.view(k).hand} | {str(c) for e in game.view(k).events
                                                         for c in (getattr(e, "cards", None) or ())}
            assert set(CARD.findall(page.locator("main").inner_text())) <= mine, k
        assert not broken_images(pages[0], "main")

        # A reloaded page (the tab closed and opened again) takes its seat back with the stored token.
        log = pages[1].locator("#log").inner_text()
        pages[1].reload()
        pages[1].wait_for_selector("#table:not([hidden])")
        pages[1].wait_for_function(f"() => document.querySelectorAll('#log li').length === {len(game.events)}")
        assert pages[1].locator("#log").inner_text() == log and NAMES[1] in pages[1].locator("#where").inner_text()
    finally:
        for context in contexts:
            context.close()


def test_the_teachers_page_opens_tables_and_shows_them_with_their_qr_codes(browser, class_host):
    address, token = class_host
    context = browser.new_context(viewport={"width": 1100, "height": 1400})
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    try:
        page.goto(f"{address}teacher#{token}")
        page.wait_for_function("() => document.querySelector('#join-url').textContent.startsWith('http')")
        page.select_option("#players", "3")
        page.select_option("#seat-2", "greedy")
        page.fill("#tables", "2")
        page.fill("#label", "<b>period 3</b>")
        page.click("#open-button")
        page.wait_for_function("() => document.querySelectorAll('.table-box').length === 2")
        text = page.locator("#tables-list").inner_text()
        assert text.count("bot: greedy") >= 2 and "<b>period 3</b>" in text and page.locator("#tables-list b").count() == 0
        page.wait_for_function("() => [...document.images].every(i => i.complete)")  # the QR codes, loaded
        assert not broken_images(page, "main") and not unnamed_controls(page, "main")
        wrong = context.new_page()
        wrong.goto(f"{address}teacher#not-the-token")
        wrong.wait_for_function("() => !document.querySelector('#problem').hidden")
        assert "not this host's teacher token" in wrong.locator("#problem").inner_text()
    finally:
        context.close()
