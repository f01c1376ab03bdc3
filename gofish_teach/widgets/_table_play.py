"""The turn-taking and the counting behind a :class:`~.table.Table`, without any widget.

:class:`TablePlay` holds what changes while a game is played at the table and nothing that is
drawn: the match and your seat, the draw the ocean waits for after "Go Fish!" (the table shows
the moment before it, :meth:`View.before_draw <gofish_teach.view.View.before_draw>`), the bots' chain of asks (one per event on an event loop,
:attr:`TablePlay.bot_pause` apart, while your buttons wait), and the knowledge panel's exact counts
(an event of their own; in a kernel, run in the tables' one counting thread), remembered by the
state they were made for. What shows the table (a :class:`Screen`) is told when to draw.

It runs without a kernel, a browser or ipywidgets, so tests drive it as the table does; any
object with ``call_later`` is a loop (the tests' :class:`~._bench.HandLoop` runs its events one at
a time by hand):

>>> from gofish_teach.match import Match
>>> from gofish_teach.rules import Rules
>>> class Quiet:                              # a Screen that draws nothing
...     def act(self, action): action()
...     def fill_panel(self): pass
...     def cannot_count(self, error): raise error
...     def counts_needed(self): return False, False
>>> match = Match(Rules.preset("pond"), [None, "memory", "random"], seed=7, names=["You", "West", "East"])
>>> play = TablePlay(match, 0, Quiet())
>>> play.waiting_for_you
'ask'
>>> play.ask(1, "3", None)                    # West says "Go Fish!": the ocean waits for your click
True
>>> play.waiting_for_you, len(play.shown_view().events) < len(match.game.view(0).events)
('draw', True)
>>> before = play.draw(); play.after_you()    # drawn; the bots play up to your turn, at once (no loop)
>>> play.waiting_for_you
'ask'
"""
from __future__ import annotations

import asyncio
import concurrent.futures
from collections import OrderedDict
from typing import Protocol

from ..events import Draw, GoFish, Source
from ..game import IllegalMove
from ..view import View
from ._panes import one_blas_thread

#: The knowledge panel's answers a table remembers, the least recently shown dropped first: ``Undo`` and
#: "Deal this seed" come back to states shown before, whose exact count need not be made again.
REMEMBERED = 8

_THREAD: concurrent.futures.ThreadPoolExecutor | None = None


def _off_the_loop(loop, work, then, what: str):
    """Run ``work()`` off ``loop``'s thread, then ``then(future)`` on the loop as an event of its own.

    On a kernel's asyncio loop the work runs in the tables' one counting thread, so a multi-second
    exact count leaves the kernel free for clicks; a loop that runs background work its own way
    (``run_in_background``, e.g. :class:`~._bench.HandLoop` with ``background=True``) does so, with
    ``what`` saying what the work is. Returns a handle while the work runs, or ``None`` when the loop
    can do neither (the caller then works within its own event).
    """
    global _THREAD
    own = getattr(loop, "run_in_background", None)
    if own is not None:
        return own(work, then, what)
    if not isinstance(loop, asyncio.AbstractEventLoop):
        return None
    if _THREAD is None:
        _THREAD = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="gofish-count")

    def in_thread():
        with one_blas_thread():
            return work()

    future = _THREAD.submit(in_thread)
    future.add_done_callback(lambda f: loop.call_soon_threadsafe(then, f))
    return future


def _clicked_in_the_page() -> bool:
    """True while a kernel handles a message from the page (a click, a typed value), not a cell's code.

    A cell that clicks from code reads the table on its next line, so the bots then play at once.
    """
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    try:
        parent = get_ipython().kernel.get_parent("shell")
    except Exception:  # no kernel, or one without parents (ipykernel before 6)
        return False
    return (parent or {}).get("header", {}).get("msg_type") == "comm_msg"


def in_kernel() -> bool:
    """True inside a Jupyter kernel (whose event loop runs between cells)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    return getattr(get_ipython(), "kernel", None) is not None


def _belief_of(view):
    """The exact posterior for ``view`` and ``None``, or ``None`` and why there is none (a pure function of
    the view: the counting thread runs it)."""
    from ..probability import posterior

    try:
        return posterior(view), None
    except ValueError as e:  # specific-card rules: the panel is about ranks
        return None, f"The knowledge panel is about ranks: {e}"


def _facts_of(view):
    """The stated-facts answer for ``view`` and ``None``, or ``None`` and why there is none."""
    from ..probability import Facts

    try:
        return Facts.from_view(view), None
    except ValueError as e:
        return None, f"Stated facts cannot describe this view: {e}"


class Screen(Protocol):
    """What shows a :class:`TablePlay` (the :class:`~.table.Table`): told when to draw."""

    def act(self, action) -> None:
        """Run ``action()`` (a bot's ask) as a click is run: a failure becomes the table's message; then draw."""

    def fill_panel(self) -> None:
        """Draw the knowledge panel and the hint for the state shown, with their counts (now remembered)."""

    def cannot_count(self, error: Exception) -> None:
        """Say in the panel that its count for the state shown failed."""

    def counts_needed(self) -> tuple[bool, bool]:
        """Whether the panel and the hint, as they are set now, need the posterior and the stated facts."""


class TablePlay:
    """A game at the table: your actions, the bots' chain of asks, the panel's counts (see the module).

    Args:
        match: the :class:`~gofish_teach.match.Match` played.
        me: your seat.
        screen: what shows the table (:class:`Screen`).
        stepping: step mode (a teacher advances the bots one ask at a time).
    """

    #: Seconds between the bots' asks when they play one ask per event, time to read each in the log.
    #: ``None``: the bots play all their asks at once, within the click.
    bot_pause: float | None = 0.45
    #: The event loop the bots play on, one ask per event, and the knowledge panel counts on, an event
    #: of its own: ``None`` for the kernel's own, after a click in the page. Code in a cell, plain
    #: Python and tests play the bots and count the panel at once, so the next line sees your turn
    #: and the filled panel; a loop set here (any object with ``call_later``) is used for every action.
    loop = None

    def __init__(self, match, me: int, screen: Screen, *, stepping: bool = False):
        self.match, self.me, self.screen = match, me, screen
        self.stepping = stepping
        self.pending: View | None = None  # the moment before your draw, while the ocean waits for your click
        self.busy = False           # an action, a bot ask or the panel's filling in is running
        self.chain = 0              # the bots' chain of asks: bumped whenever it stops (see stop_bots)
        self.chain_handle = None    # the bots' next ask, scheduled on chain_loop
        self.chain_loop = None
        self.chain_asks = 0
        self.count_handle = None    # the panel's count, scheduled on a loop after a click in the page
        self.count_job = None       # ... and running in the counting thread (see _count)
        self.think_job = None       # a greedy bot's count running in the counting thread before its ask
        self.thought = None         # the state and seat that count was for
        self.bot_turn = 0           # only the latest scheduled bot ask may play (see _schedule_bot)
        self.running_on = None      # the chain's loop while one of its bot asks runs (see event_loop)
        self.beliefs: OrderedDict = OrderedDict()  # the panel's answers by state shown (see remembered)
        self.facts: OrderedDict = OrderedDict()

    # ------------------------------------------------------------------ reading the state
    def shown_view(self):
        """What the table shows: your view, or just before the draw while the ocean waits for your click."""
        return self.pending if self.pending is not None else self.match.game.view(self.me)

    def my_turn(self) -> bool:
        """True when you are to ask (not to draw, not a bot's turn, not over)."""
        return self.pending is None and self.match.waiting_for(self.me)

    @property
    def waiting_for_you(self) -> str | None:
        """``"ask"`` when you must ask, ``"draw"`` when you must click the ocean, else ``None``."""
        if self.pending is not None:
            return "draw"
        return "ask" if self.match.waiting_for(self.me) else None

    def key(self) -> tuple:
        """The state the table shows: the deal, every ask since, and whether the ocean waits for your
        click. The same key is the same view (the rules and the seats are the table's own)."""
        return (self.match.seed, self.match.game.moves, self.pending is not None)

    # ------------------------------------------------------------------ your actions
    def check_ask(self, rank: str | None, suit: str | None) -> None:
        """Raise ``IllegalMove`` if you cannot ask now: the ocean waits, or no rank (or suit) is picked."""
        if self.pending is not None:
            raise IllegalMove("first draw from the ocean: click it")
        if rank is None:
            raise IllegalMove("pick a rank from your hand first, then the opponent to ask")
        if self.match.rules.specific_card and not suit:
            raise IllegalMove("pick a suit too: these rules ask for a specific card")

    def ask(self, target: int, rank: str | None, suit: str | None) -> bool:
        """Ask ``target`` for ``rank`` (and ``suit``, under specific-card rules); True when they said
        "Go Fish!" and the ocean now waits for your click, False when your ask is done."""
        self.check_ask(rank, suit)
        before = self.match.game.view(self.me)
        events = self.match.ask(target, rank, suit if self.match.rules.specific_card else None, player=self.me)
        if len(events) > 2 and type(events[1]) is GoFish and type(events[2]) is Draw and events[2].source == Source.FISH:
            self.pending = before.before_draw(*events[:2])  # you draw by clicking the ocean
            return True
        return False

    @property
    def asked(self):
        """Your ask that was answered "Go Fish!" while the ocean waits for your click, else ``None``."""
        return self.pending.events[-2] if self.pending is not None else None

    def draw(self) -> View:
        """Your draw after "Go Fish!" (the game made it already; the table shows it now); the moment before it."""
        if self.pending is None:
            raise IllegalMove('the ocean is for drawing after "Go Fish!"')
        before, self.pending = self.pending, None
        return before

    def after_you(self) -> None:
        """Your turn is done: the bots play up to your next turn, unless in step mode."""
        if not self.stepping:
            self.bots_play()

    def next_ask(self) -> None:
        """A teacher's "Next": one bot ask, and the bots pause again after it."""
        self.stop_bots()
        self.match.step()

    def undo(self) -> None:
        self.match.undo()
        self.stop_bots()
        self.pending = None

    def new_game(self, seed=None) -> None:
        """A new deal (``seed``: ``None`` for a fresh one); the bots wait for :meth:`after_you`."""
        self.match.new_game(seed)
        self.stop_bots()
        self.pending = None

    # ------------------------------------------------------------------ the bots' turns
    @property
    def bots_playing(self) -> bool:
        """True while the bots play one ask per event up to your turn (their next ask is scheduled)."""
        return self.chain_handle is not None

    def _bots_loop(self):
        """The loop to play the bots on, one ask per event; ``None``: they play at once (see :attr:`loop`)."""
        if self.bot_pause is None:
            return None
        return self.event_loop()

    def event_loop(self):
        """:attr:`loop`, or the kernel's own while it handles a click in the page; else ``None``."""
        if self.loop is not None:
            return self.loop
        if self.running_on is not None:  # a bot ask of the chain: on its loop, whatever the kernel handles now
            return self.running_on
        if not _clicked_in_the_page():
            return None
        try:
            return asyncio.get_running_loop()
        except RuntimeError:
            return None

    def stop_bots(self) -> None:
        """The game changed, or step mode stopped the bots: their scheduled ask, if any, never plays."""
        self.chain += 1  # an ask already on its way sees a newer chain and does nothing
        if self.chain_handle is not None:
            self.chain_handle.cancel()
            self.chain_handle = None

    def bots_play(self, loop=None) -> None:
        """The bots play up to your turn (or the game's end): on ``loop`` (or :meth:`_bots_loop`'s) one ask
        per event, the table drawn after each, :attr:`bot_pause` apart; without a loop all at once."""
        self.stop_bots()
        if self.pending is not None or self.match.bot_to_move is None:
            return
        loop = loop or self._bots_loop()
        if loop is None:
            self.match.advance()
            return
        self.chain_loop, self.chain_asks = loop, 0
        self._schedule_bot()

    def start(self) -> None:
        """After a deal: the bots play up to your first turn, unless in step mode; a failure is an ``IllegalMove``."""
        self.busy = True
        try:
            if not self.stepping:
                with one_blas_thread():
                    self.bots_play()
        finally:
            self.busy = False

    def _schedule_bot(self, pause: float | None = None) -> None:
        self.bot_turn += 1
        chain, turn = self.chain, self.bot_turn

        def later():
            if chain != self.chain or turn != self.bot_turn:  # stopped since, or scheduled again since
                return
            if self.think_job is not None:  # a bot's count in the thread: when done it schedules the ask
                return
            if self.busy:  # never in one thread; should it happen, the ask waits its turn
                self._schedule_bot()
                return
            if self.panel_counting:  # the panel's count for the table shown comes first (it then
                self._schedule_bot()  # schedules this ask again, a pause after the filled panel)
                return
            if self._think_first():
                return
            self.chain_handle = None
            self.running_on = self.chain_loop
            try:
                self.screen.act(self._bot_ask)
            finally:
                self.running_on = None

        self.chain_handle = self.chain_loop.call_later(self.bot_pause or 0 if pause is None else pause, later)

    def _think_first(self) -> bool:
        """Before a ``greedy`` bot's ask: its exact count in the counting thread, remembered there
        (:data:`~gofish_teach.probability.exact.MEMORY`), so that the ask, an event on the kernel's loop,
        finds it and takes no time; True while that count runs (the ask is scheduled when it is done)."""
        seat = self.match.bot_to_move
        if seat is None or self.match.strategy_of(seat) != "greedy" or self.match.rules.specific_card:
            return False
        state = self.key() + (seat,)
        if self.thought == state:
            return False
        from ..probability import posterior

        view, chain = self.match.game.view(seat), self.chain

        def done(_future):  # a failure shows when the bot asks, as it would without the thread
            self.think_job = None
            if chain == self.chain:
                self.thought = state
            if self.chain_handle is not None:  # this chain, or one started since, which waited for this
                self._schedule_bot(pause=0)

        self.think_job = _off_the_loop(self.chain_loop, lambda: posterior(view), done, "a greedy bot's count")
        return self.think_job is not None

    def _bot_ask(self) -> None:
        """One bot ask of the chain; the next is scheduled while a bot is still to ask."""
        if self.chain_asks == self.match.max_bot_asks:
            raise self.match.stalled(self.chain_asks)
        self.chain_asks += 1
        self.match.step()
        if self.match.bot_to_move is not None:
            self._schedule_bot()

    # ------------------------------------------------------------------ the panel's count
    @property
    def panel_counting(self) -> bool:
        """True while the knowledge panel shows "Counting…": its count is scheduled, an event of its own,
        or running in the counting thread."""
        return self.count_handle is not None or self.count_job is not None

    def schedule_count(self, loop) -> None:
        """The panel's count as the next event on ``loop``. When it runs it counts the state the table then
        shows (the game may have moved on since), so one scheduled count is enough; while one runs in the
        counting thread, that count looks again when it is done."""
        if self.panel_counting:
            return

        def later():
            self.count_handle = None
            if self.busy:  # never in one thread; should it happen, the count waits its turn
                self.schedule_count(loop)
                return
            self._count(loop)

        self.count_handle = loop.call_later(0, later)

    def _count(self, loop=None) -> None:
        """The panel's event: count and fill in the heatmap, the bars and the hint; a failure is the panel's note.
        On a kernel's loop the count runs in the counting thread and :meth:`_counted` fills the panel in."""
        key, view = self.key(), self.shown_view()
        belief, facts = self.screen.counts_needed()
        belief, facts = belief and key not in self.beliefs, facts and key not in self.facts

        def work():
            return (_belief_of(view) if belief else None), (_facts_of(view) if facts else None)

        if loop is not None and (belief or facts):
            self.count_job = _off_the_loop(loop, work, lambda future: self._counted(loop, key, future),
                                           "the knowledge panel's count")
            if self.count_job is not None:
                return
        self.busy = True
        try:
            with one_blas_thread():
                self.screen.fill_panel()
        except Exception as e:  # never a traceback in the panel
            self.screen.cannot_count(e)
        finally:
            self.busy = False
        self._bots_after_the_panel()

    def _counted(self, loop, key, future) -> None:
        """The counting thread is done with the panel's count for state ``key``: remember it, and fill in
        the panel if the table still shows that state, else count the state it shows now."""
        self.count_job = None
        self.busy = True
        try:
            belief, facts = future.result()
            if belief is not None:
                self._remember(self.beliefs, key, belief)
            if facts is not None:
                self._remember(self.facts, key, facts)
            if self.counts_to_make(*self.screen.counts_needed()):  # the game moved on (Undo, a new game) meanwhile
                self.schedule_count(loop)
            else:
                with one_blas_thread():
                    self.screen.fill_panel()
        except Exception as e:  # never a traceback in the panel
            if key == self.key():
                self.screen.cannot_count(e)
            elif self.counts_to_make(*self.screen.counts_needed()):
                self.schedule_count(loop)
        finally:
            self.busy = False
        if not self.panel_counting:
            self._bots_after_the_panel()

    def _bots_after_the_panel(self) -> None:
        if self.chain_handle is not None:  # the bots' next ask: a pause after the filled panel, time to read both
            self.chain_handle.cancel()
            self._schedule_bot()

    def counts_to_make(self, belief: bool, facts: bool) -> bool:
        """True when the state shown needs a count (the posterior, the stated facts) not remembered."""
        key = self.key()
        return (belief and key not in self.beliefs) or (facts and key not in self.facts)

    def _remembered(self, answers: OrderedDict, compute):
        """``compute()`` for the state shown, or its answer from when that state was shown before."""
        key = self.key()
        if key in answers:
            answers.move_to_end(key)
        else:
            self._remember(answers, key, compute())
        return answers[key]

    @staticmethod
    def _remember(answers: OrderedDict, key, answer) -> None:
        answers[key] = answer
        answers.move_to_end(key)
        if len(answers) > REMEMBERED:
            answers.popitem(last=False)

    def belief_for(self, view):
        """The exact posterior for what the table shows, or ``None`` and why not."""
        return self._remembered(self.beliefs, lambda: _belief_of(view))

    def facts_for(self, view):
        return self._remembered(self.facts, lambda: _facts_of(view))
