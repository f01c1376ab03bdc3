"""How long a learner waits: the kernel time of each action at the :class:`~.table.Table`.

Whole games are played through the table's controls (no browser: the time is the kernel's
share, which is what a slow computation would add to every click). The bots play as in a
kernel after a click in the page: one ask per event, each scheduled on a loop (here a
:class:`HandLoop`, run by hand) and timed on its own, its drawing of the table included; and
the knowledge panel's count, when the panel is open, is an event of its own after each action
that changed the game ("knowledge panel"). With ``one_by_one=False``, as before, the bots play
all at once within your click, whose time includes theirs and the panel's.

>>> times = learner_actions(games=1, seed=3, opponents=("random",), max_actions=6)
>>> sorted(times)
['ask', 'draw', 'one bot ask (random)', 'pick a rank']
>>> sorted(learner_actions(games=1, seed=3, opponents=("random",), knowledge=True, max_actions=12))
['ask', 'draw', 'knowledge panel', 'one bot ask (random)', 'pick a rank']
"""
from __future__ import annotations

import concurrent.futures
import time

import numpy as np

#: The actions timed, in the order a report lists them (one bot ask is timed by the bot's strategy;
#: the knowledge panel's count, an event of its own, only with the panel open).
ACTIONS = ("pick a rank", "ask", "draw", "one bot ask", "knowledge panel")


class HandLoop:
    """Stands for the kernel's event loop: ``call_later`` keeps each callback (the bots' next ask, the
    panel's count) until :meth:`run_one` runs it, so that each can be run, and timed, on its own. As
    in a real loop the first due runs first (the same time: the first scheduled); the loop's clock
    (:attr:`time`, seconds) moves on to each callback's time as it runs, without waiting.

    >>> loop = HandLoop()
    >>> ask = loop.call_later(0.5, lambda: print("ask"))
    >>> count = loop.call_later(0, lambda: print("count"))
    >>> loop.waiting == [count, ask], loop.run_one(), loop.run_one(), loop.run_one(), loop.time
    count
    ask
    (True, True, True, False, 0.5)

    With ``background=True`` it also stands for the table's counting thread: work sent there
    (:meth:`run_in_background`) is an item of its own, run and timed by :meth:`run_one` like the
    others (its handle's ``what`` says what it is), after which its result comes back as an event.

    >>> loop = HandLoop(background=True)
    >>> job = loop.run_in_background(lambda: 6 * 7, lambda f: print("back:", f.result()), "a count")
    >>> job.what, loop.run_one(), loop.run_one()
    back: 42
    ('a count', True, True)
    """

    class Handle:
        def __init__(self, when: float, delay: float, callback, what: str | None = None):
            self.when, self.delay, self.callback, self.cancelled = when, delay, callback, False
            self.what = what  # set for work of the counting thread
            self.back = None  # set for the event that brings that work's result back

        def cancel(self) -> None:
            self.cancelled = True

    def __init__(self, background: bool = False):
        self.queue: list[HandLoop.Handle] = []
        self.time = 0.0
        self.background = background

    def call_later(self, delay: float, callback) -> Handle:
        handle = HandLoop.Handle(self.time + delay, delay, callback)
        self.queue.append(handle)
        return handle

    def run_in_background(self, work, then, what: str):
        """``work()`` as an item of its own, then ``then(future)`` as the next event; ``None`` without
        ``background`` (the table then works within its own event, as on a plain loop)."""
        if not self.background:
            return None

        def run():
            future = concurrent.futures.Future()
            try:
                future.set_result(work())
            except Exception as e:
                future.set_exception(e)
            self.call_later(0, lambda: then(future)).back = what

        handle = HandLoop.Handle(self.time, 0, run, what)
        self.queue.append(handle)
        return handle

    @property
    def waiting(self) -> list[Handle]:
        """The callbacks still to run (not cancelled), first due first."""
        return sorted((h for h in self.queue if not h.cancelled), key=lambda h: h.when)  # stable: ties in order

    def run_one(self) -> bool:
        """Run the next callback due (not cancelled); ``False`` when none is left."""
        waiting = self.waiting
        self.queue = waiting[1:]
        if not waiting:
            return False
        handle = waiting[0]
        self.time = max(self.time, handle.when)
        handle.callback()
        return True


def learner_actions(games: int = 3, seed: int = 0, rules="pond", opponents=("memory", "random", "greedy"),
                    knowledge: bool = False, max_actions: int = 10_000, one_by_one: bool = True,
                    clock=time.perf_counter, background: bool = False) -> dict[str, list[float]]:
    """Seconds taken by each action at the table over ``games`` games, by kind (see :data:`ACTIONS`);
    one bot ask is listed by strategy, e.g. ``"one bot ask (greedy)"``. ``one_by_one=False``: the bots
    play all at once within your ask or draw (as outside a kernel), so none is listed on its own.
    ``background=True``: the exact counts run as jobs of the counting thread, as in a kernel, each
    listed as ``"counting thread: ..."`` (not the kernel's time: the wait for the panel to fill in,
    or for a greedy bot to ask), and the event that brings each back as ``"back from the thread: ..."``.
    ``clock``: wall clock by default; ``time.process_time`` leaves out the wait for a busy machine's cores.

    >>> times = learner_actions(games=1, seed=3, opponents=("greedy",), knowledge=True, max_actions=20, background=True)
    >>> sorted(a for a in times if "thread" in a)  # doctest: +NORMALIZE_WHITESPACE
    ["back from the thread: a greedy bot's count", "back from the thread: the knowledge panel's count",
     "counting thread: a greedy bot's count", "counting thread: the knowledge panel's count"]
    """
    from .table import Table

    times: dict[str, list[float]] = {action: [] for action in ACTIONS if action not in ("one bot ask", "knowledge panel")}

    def timed(action, click):
        start = clock()
        click()
        times.setdefault(action, []).append(clock() - start)

    for g in range(games):
        table = Table(rules, opponents=list(opponents), seed=seed + g, knowledge=knowledge)  # you ask first
        loop = table.loop = HandLoop(background=background) if one_by_one else None
        if not one_by_one:
            table.bot_pause = None
        rng = np.random.default_rng(seed + g)
        for _ in range(max_actions):
            waiting = table.waiting_for_you
            if loop is not None and loop.waiting:
                head = loop.waiting[0]
                if head.what is not None:
                    timed(f"counting thread: {head.what}", loop.run_one)
                elif head.back is not None:
                    timed(f"back from the thread: {head.back}", loop.run_one)
                elif head is table.play.count_handle:
                    timed("knowledge panel", loop.run_one)
                else:
                    strategy, asks, start = table.match.strategy_of(table.match.bot_to_move), table.match.game.n_asks, clock()
                    loop.run_one()
                    took = clock() - start
                    asked = table.match.game.n_asks != asks or table.match.game.is_over
                    # a bot's turn whose event only sent its count to the thread is not an ask
                    times.setdefault(f"one bot ask ({strategy})" if asked else f"a bot's count sent ({strategy})",
                                     []).append(took)
            elif waiting == "draw":
                timed("draw", table.ocean.click)
            elif waiting == "ask":
                ranks = [r for r, b in table.rank_buttons.items() if not b.disabled]
                timed("pick a rank", table.rank_buttons[ranks[int(rng.integers(len(ranks)))]].click)
                if table.match.rules.specific_card:
                    table.suit_choice.value = table.suit_choice.options[0]
                targets = [q for q, b in table.ask_buttons.items() if not b.disabled]
                timed("ask", table.ask_buttons[targets[int(rng.integers(len(targets)))]].click)
            else:
                break
            if table.message.value or "could not count" in table.heatmap.value:
                raise RuntimeError(f"the table reported a problem: {table.message.value or table.heatmap.value}")
    return times


def explorer_actions(rounds: int = 2, seed: int = 0) -> dict[str, list[float]]:
    """Seconds taken by each kind of control change in the :class:`~.explorer.Explorer` at 4 players
    (its largest table, the slowest exact count), moved at random over the values a class would try.

    >>> sorted(explorer_actions(rounds=1))[:3]
    ['about', 'asked', 'at_least']
    """
    from .explorer import Explorer

    ex = Explorer()
    ex.players.value, ex.ocean.value = 4, 14
    rng = np.random.default_rng(seed)
    moves = {"held": range(0, 4), "other_cards": range(0, 10), "books": range(0, 4), "their_hand": range(0, 12),
             "ocean": range(6, 22), "asked": (True, False), "go_fish": (True, False), "drawn_since": range(0, 4),
             "about": ("hand", "ocean"), "at_least": range(1, 4), "rank": ("7", "A", "K")}
    times: dict[str, list[float]] = {}
    for _ in range(rounds):
        for control, values in moves.items():
            values = list(values)
            widget = getattr(ex, control)
            start = time.perf_counter()
            widget.value = values[int(rng.integers(len(values)))]
            times.setdefault(control, []).append(time.perf_counter() - start)
    return times


def lab_actions(games: int = 200) -> dict[str, list[float]]:
    """Seconds taken by the :class:`~.lab.Lab`'s controls at 4 players, and by one run of ``games`` games
    (a tournament: its time grows with the games asked for)."""
    from .lab import Lab

    lab = Lab(players=4, games=games, seed=1)
    times: dict[str, list[float]] = {}

    def timed(action, change):
        start = time.perf_counter()
        change()
        times.setdefault(action, []).append(time.perf_counter() - start)

    for rules in ("family", "pond", "classic"):
        timed("rules", lambda rules=rules: setattr(lab.rules, "value", rules))
    for n in (3, 4, 2, 4):
        timed("players", lambda n=n: setattr(lab.players, "value", n))
    timed("compare", lambda: setattr(lab.compare, "value", False))
    timed("compare", lambda: setattr(lab.compare, "value", True))
    timed(f"run ({games} games, 2 lineups)", lab.run.click)
    if lab.message:
        raise RuntimeError(f"the lab reported a problem: {lab.message}")
    return times


def _lines(times: dict[str, list[float]], label: str) -> list[str]:
    lines = []
    for action in times:
        t = np.array(times[action]) * 1e3
        lines.append(f"  {label}{action:<26} median {np.median(t):7.1f} ms, worst {t.max():8.1f} ms  ({len(t)} actions)")
    return lines


def worst(times: dict[str, list[float]]) -> str:
    """The slowest single action and what it was, e.g. ``'worst action 120 ms (ask)'``.

    >>> worst({"ask": [0.01, 0.12], "draw": [0.05]})
    'worst action 120 ms (ask)'
    """
    seconds, action = max((max(t), action) for action, t in times.items() if t)
    return f"worst action {seconds * 1e3:,.0f} ms ({action})"


def bench_table(quick: bool) -> list[str]:
    """`make bench` section: median and worst kernel CPU time of each action at the table, panel off and on,
    the bots all at once (before) and one ask per event, the panel's count an event of its own (now); then the explorer's and the lab's controls
    at 4 players (aim: 300 ms each), wall clock: on a busy machine they include the wait for a core."""
    lines = _bench_table(quick)
    lines.append("The explorer at 4 players: kernel time of each control change (aim: 300 ms)")
    explorer = explorer_actions(rounds=1 if quick else 4)
    lines += _lines(explorer, "") + [f"  explorer: {worst(explorer)}; aim: 300 ms"]
    lines.append("The lab at 4 players: kernel time of each control change (aim: 300 ms), and of one run")
    lab = lab_actions(games=100 if quick else 400)
    controls = {action: t for action, t in lab.items() if not action.startswith("run")}
    lines += _lines(lab, "") + [f"  lab controls: {worst(controls)}; aim: 300 ms"]
    return lines


def _bench_table(quick: bool) -> list[str]:
    """The table's actions, panel off and on: the bots all at once within your click (as before) and one
    ask per event (as a kernel plays them now), the same games alternately, so the ratio is fair. CPU time:
    on a shared machine the wall clock adds the wait for a core, which varies from one action to the next."""
    games = 1 if quick else 6
    opponents = ("memory", "random", "greedy")
    learner_actions(games=1, seed=10_000, opponents=opponents, knowledge=True, max_actions=4)  # load compiled code
    lines = [f"The table, pond, 4 players (you, {', '.join(opponents)}), {games} game(s) played through the controls: "
             "kernel CPU time of each action (aims: 100 ms with the knowledge panel off, 300 ms on)"]
    order = {action: k for k, action in enumerate(ACTIONS)}
    modes = {False: "bots and panel all at once in your click (before)",
             True: "bots one ask per event, the panel's count its own (now)"}
    for knowledge in (False, True):
        aim, panel = 300 if knowledge else 100, "on " if knowledge else "off"
        times: dict[bool, dict[str, list[float]]] = {False: {}, True: {}}
        for g in range(games):
            for one_by_one in (False, True):
                for action, t in learner_actions(games=1, seed=g, opponents=opponents, knowledge=knowledge,
                                                 one_by_one=one_by_one, clock=time.process_time).items():
                    times[one_by_one].setdefault(action, []).extend(t)
        for one_by_one in modes:
            for action in sorted(times[one_by_one], key=lambda a: (order.get(a.split(" (")[0], 0), a)):
                t = np.array(times[one_by_one][action]) * 1e3
                if len(t):
                    lines.append(f"  panel {panel}  {'now' if one_by_one else 'before':<6}  {action:<22} median {np.median(t):7.1f} ms, "
                                 f"worst {t.max():8.1f} ms  ({len(t)} actions)")
        worst_before, worst_now = (max(max(t) for t in times[mode].values() if t) for mode in (False, True))
        for one_by_one, label in modes.items():
            lines.append(f"  table, panel {panel.strip()}, {label}: {worst(times[one_by_one])}; aim: {aim} ms")
        lines.append(f"  table, panel {panel.strip()}: worst action now / before = {worst_now / worst_before:.2f}")
    return lines
