"""How long a learner waits: the kernel time of each action at the :class:`~.table.Table`.

Whole games are played through the table's controls (no browser: the time is the kernel's
share, which is what a slow computation would add to every click), in step mode so that
each kind of action is timed on its own: picking a rank, asking, drawing from the ocean,
one bot ask (``Next``), and the bots playing up to your turn (``Play to my turn``).

>>> times = learner_actions(games=1, seed=3, opponents=("random",), max_actions=6)
>>> sorted(times)
['ask', 'bots to your turn', 'draw', 'one bot ask (random)', 'pick a rank']
"""
from __future__ import annotations

import time

import numpy as np

#: The actions timed, in the order a report lists them (one bot ask is timed by the bot's strategy).
ACTIONS = ("pick a rank", "ask", "draw", "one bot ask", "bots to your turn")


def learner_actions(games: int = 3, seed: int = 0, rules="pond", opponents=("memory", "random", "greedy"),
                    knowledge: bool = False, max_actions: int = 10_000) -> dict[str, list[float]]:
    """Seconds taken by each learner action over ``games`` games, by kind (see :data:`ACTIONS`);
    one bot ask is listed by strategy, e.g. ``"one bot ask (greedy)"``."""
    from .table import Table

    times: dict[str, list[float]] = {action: [] for action in ACTIONS if action != "one bot ask"}

    def timed(action, click):
        start = time.perf_counter()
        click()
        times.setdefault(action, []).append(time.perf_counter() - start)

    for g in range(games):
        table = Table(rules, opponents=list(opponents), seed=seed + g, step=True, knowledge=knowledge)
        rng = np.random.default_rng(seed + g)
        for _ in range(max_actions):
            waiting = table.waiting_for_you
            if waiting == "draw":
                timed("draw", table.ocean.click)
            elif waiting == "ask":
                ranks = [r for r, b in table.rank_buttons.items() if not b.disabled]
                timed("pick a rank", table.rank_buttons[ranks[int(rng.integers(len(ranks)))]].click)
                if table.match.rules.specific_card:
                    table.suit_choice.value = table.suit_choice.options[0]
                targets = [q for q, b in table.ask_buttons.items() if not b.disabled]
                timed("ask", table.ask_buttons[targets[int(rng.integers(len(targets)))]].click)
            elif table.match.bot_to_move is not None:
                if rng.random() < 0.5:
                    timed(f"one bot ask ({table.match.strategy_of(table.match.bot_to_move)})", table.next_button.click)
                else:
                    timed("bots to your turn", table.play_button.click)
            else:
                break
            if table.message.value:
                raise RuntimeError(f"the table reported a problem: {table.message.value}")
    return times


def bench_table(quick: bool) -> list[str]:
    """`make bench` section: median and worst kernel time of each learner action, panel off and on."""
    games = 1 if quick else 6
    opponents = ("memory", "random", "greedy")
    learner_actions(games=1, seed=10_000, opponents=opponents, knowledge=True, max_actions=4)  # load compiled code
    lines = [f"The table, pond, 4 players (you, {', '.join(opponents)}), {games} game(s) played through the controls: "
             "kernel time of each learner action (aims: 100 ms with the knowledge panel off, 300 ms on)"]
    for knowledge in (False, True):
        times = learner_actions(games=games, seed=0, opponents=opponents, knowledge=knowledge)
        order = {action: k for k, action in enumerate(ACTIONS)}
        for action in sorted(times, key=lambda a: (order.get(a.split(" (")[0], 0), a)):
            t = np.array(times[action]) * 1e3
            if len(t):
                lines.append(f"  panel {'on ' if knowledge else 'off'}  {action:<26} median {np.median(t):7.1f} ms, "
                             f"worst {t.max():8.1f} ms  ({len(t)} actions)")
    return lines
