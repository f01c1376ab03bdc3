"""``Table``: play Go Fish inline against bots, as at a card table.

>>> from gofish_teach.widgets import Table
>>> table = Table("pond", opponents=["memory", "random", "greedy"], seed=7)
>>> table
Table('pond', opponents=['memory', 'random', 'greedy'], seed=7)
>>> [r for r, b in table.rank_buttons.items() if not b.disabled]     # the ranks you may ask for
['3', '7', '10', 'J', 'K']
>>> table.rank_buttons["3"].click()                                   # pick a rank from your hand ...
>>> table.ask_buttons[1].description
'Ask West for 3s'
>>> table.ask_buttons[1].click()                                      # ... and ask an opponent
>>> table.log_lines[-2:]
['You ask West for 3s.', 'West says "Go Fish!"']
>>> table.waiting_for_you, table.ocean.disabled                       # "Go Fish!": click the ocean
('draw', False)
>>> table.ocean.click()
>>> table.log_lines[-1], table.waiting_for_you
('You draw 3♦, the rank you asked for: lucky draw!', 'ask')

Your hand is shown as cards grouped by rank; each opponent's name, strategy, hand size and
books sit across the table; the ocean shows its count and is clicked to draw after "Go Fish!".
Bots then play, each ask a line in the log: after a click in the page they ask one at a time,
a moment apart (:attr:`Table.bot_pause`), while your buttons wait (``step`` mode lets a teacher
advance one bot ask per click). ``Undo`` takes back your last ask; ``New game`` deals again;
the seed is shown so a class can replay the same deal. The knowledge panel (``knowledge=True`` or its toggle)
shows, from your view only and exactly, P(each opponent holds at least one of each rank) and
the ocean's top card, with the stated-facts answer beside it on demand; ``Hint`` shows what
the ``memory`` and ``greedy`` strategies would ask and why. After a click in the page the panel's
exact count is an event of its own: the table is drawn at once, the panel keeping the chances it
showed, dimmed under a "Counting…" note, until the count has run (before the next bot ask); a
state shown before (``Undo``) is remembered and shown at once. In a kernel the count itself runs
in a thread of its own (one for every table), so the kernel answers clicks while it runs (a
six-player count can take seconds), and so does a ``greedy`` bot's count, made there just before
its ask.

Only legal choices can be clicked; anything that still goes wrong is a short message in the
table, never a traceback, and the game is unchanged.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
from collections import OrderedDict
from html import escape
from typing import Sequence

import ipywidgets as widgets

from ..cards import SUITS, name, plural
from ..events import Book, Draw, GameOver, GoFish, Give
from ..game import IllegalMove
from ..match import Match, Rebuilt
from ..rules import PRESETS, Rules
from ..strategies import strategy_name
from . import _cards, _knowledge
from ._panes import Placeheld, one_blas_thread, settle_libraries, stable_model_id
from ._words import books as _books
from ._words import count_of, say

#: The knowledge panel's answers a table remembers, the least recently shown dropped first: ``Undo`` and
#: "Deal this seed" come back to states shown before, whose exact count need not be made again.
REMEMBERED = 8

#: Opponents' names by table size, clockwise from your left (play passes to the left).
SEAT_NAMES = {
    2: ("North",),
    3: ("West", "East"),
    4: ("West", "North", "East"),
    5: ("West", "Northwest", "Northeast", "East"),
    6: ("West", "Northwest", "North", "Northeast", "East"),
}


#: What the knowledge panel and the hint show while their count waits for its own event.
COUNTING_NOTE = ('<div class="gf-note gf-counting" role="status">Counting… the exact chances after the last move '
                 'appear here shortly (dimmed: the chances before it).</div>')
COUNTING = ('<div class="gf-heatmap"><h4>Who holds what? P(holds at least one), from your view</h4>'
            '<div class="gf-note gf-counting">Counting… the exact chances for this moment of the game appear here shortly.</div></div>')
COUNTING_HINT = ('<div class="gf-hintbox"><h4>Hint: what would a bot ask?</h4>'
                 '<div class="gf-note gf-counting">Counting… the hint follows the knowledge panel\'s count.</div></div>')


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


def _while_counting(heatmap: str, bars: str) -> tuple[str, str]:
    """The panel while its count waits: the chances shown before, dimmed, under a "Counting…" note laid
    over their heading, so the panel keeps its size and nothing jumps at each bot ask; the note alone
    when no chances were shown.

    >>> _while_counting("", "")[0] == COUNTING
    True
    >>> heat, bars = _while_counting('<table class="gf-heat"></table>', '<div class="gf-bars-box"></div>')
    >>> "gf-counting" in heat and 'class="gf-stale"' in heat and bars.startswith('<div class="gf-stale"')
    True
    >>> _while_counting(heat, bars) == (heat, bars)   # counting again: dimmed once, not twice
    True
    """
    if 'class="gf-heat"' not in heatmap:
        return COUNTING, ""
    if not heatmap.startswith('<div class="gf-stale-box">'):
        heatmap = f'<div class="gf-stale-box">{COUNTING_NOTE}<div class="gf-stale" aria-hidden="true">{heatmap}</div></div>'
    if bars and not bars.startswith('<div class="gf-stale"'):
        bars = f'<div class="gf-stale" aria-hidden="true">{bars}</div>'
    return heatmap, bars


class _Before:
    """The person's view just before a "Go Fish!" draw: their view before the ask, plus the ask and the answer.

    The game has already resolved the draw; the table shows it only once the ocean is clicked,
    so the table (and the knowledge panel) read this view until then.
    """

    def __init__(self, view, extra):
        self._view = view
        self.events = tuple(view.events) + tuple(extra)
        self.asked = extra[0]

    def __getattr__(self, attr):
        return getattr(self._view, attr)

    def legal_asks(self):
        return []


def a_card(rank: str) -> str:
    """``'an Ace'``, ``'a 7'``, ``'an 8'``, ``'a King'``: one card of ``rank``, as said aloud.

    >>> a_card("A"), a_card("8"), a_card("10")
    ('an Ace', 'an 8', 'a 10')
    """
    spoken = name(rank)
    return f"{'an' if spoken[0] in 'A8' else 'a'} {spoken}"


def read_seed(text) -> int:
    """The seed typed in the seed box: a whole number, 0 or more, of any length.

    >>> read_seed(" 12345678901234567890123 ")
    12345678901234567890123
    >>> read_seed("-4")
    Traceback (most recent call last):
    ...
    ValueError: seed: a seed is a whole number, 0 or more, not -4; the game is unchanged
    """
    text = str(text).strip().replace("_", "").replace(",", "")
    if not text.isdigit():
        raise ValueError(f"seed: a seed is a whole number, 0 or more, not {text or 'an empty box'}; "
                          "the game is unchanged")
    return int(text)


def _cards_word(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _nothing() -> None:
    """A control whose change only needs the table redrawn."""


def _rules_code(rules: Rules) -> str:
    """How to write ``rules``: ``'pond'`` for a preset, else the preset and what was changed.

    >>> _rules_code(Rules.preset("pond")), _rules_code(Rules.preset("pond").replace(teams=True))
    ("'pond'", "Rules.preset('pond').replace(teams=True)")
    """
    preset = PRESETS.get(rules.name)
    if preset is None:
        return repr(rules)
    changed = {f: getattr(rules, f) for f in rules.to_dict() if getattr(rules, f) != getattr(preset, f)}
    if not changed:
        return repr(rules.name)
    return f"Rules.preset({rules.name!r}).replace({', '.join(f'{k}={v!r}' for k, v in changed.items())})"


def _default_names(n: int, me: int) -> list[str]:
    names = [""] * n
    names[me] = "You"
    for k, label in enumerate(SEAT_NAMES[n], start=1):
        names[(me + k) % n] = label
    return names


def _button(description: str, cls: str, *, tooltip: str = "", width: str | None = None, style: str = ""):
    button = widgets.Button(description=description, tooltip=tooltip, button_style=style,
                            layout=widgets.Layout(width=width) if width else widgets.Layout())
    button.add_class(cls)
    return button


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


def _in_kernel() -> bool:
    """True inside a Jupyter kernel (whose event loop runs between cells)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    return getattr(get_ipython(), "kernel", None) is not None


class Table(Placeheld, widgets.VBox):
    """A game of Go Fish against bots, played by clicking.

    Args:
        rules: a :class:`~gofish_teach.rules.Rules` or preset name (any preset, any variant).
        opponents: one strategy per opponent (built-in names, functions, or objects with
            ``choose``): 1 to 5 of them, as many as the rules allow.
        seed: deals the deck and seeds the bots (``None``: a fresh seed, shown on the table).
        seat: your seat (0 moves first).
        names: every seat's name, yours included (default: "You", then West, North, East ...).
        knowledge: open the knowledge panel at once.
        step: start in step mode (a teacher advances the bots one ask at a time).
        hints: show the hints at once.

    Attributes:
        match: the :class:`~gofish_teach.match.Match` being played (``match.game`` is the game).
        me: your seat.
        rank_buttons, ask_buttons: the controls, by rank label and by opponent's seat.
        ocean, undo_button, step_toggle, next_button, play_button, knowledge_toggle,
        facts_toggle, hint_toggle, new_button, seed_box, deal_button: the other controls.
        log_lines: the log as plain text, oldest first.
        bot_pause, loop: how the bots play after a click in the page (see below); ``bots_playing``
            is true while their next ask is scheduled. On the same loop the knowledge panel's count
            is an event of its own; ``panel_counting`` is true while it is scheduled.
    """

    _what = "The Go Fish table"

    #: Seconds between the bots' asks when they play one ask per event, time to read each in the log.
    #: ``None``: the bots play all their asks at once, within the click.
    bot_pause: float | None = 0.45
    #: The event loop the bots play on, one ask per event, and the knowledge panel counts on, an event
    #: of its own: ``None`` for the kernel's own, after a click in the page. Code in a cell, plain
    #: Python and tests play the bots and count the panel at once, so the next line sees your turn
    #: and the filled panel; a loop set here (any object with ``call_later``) is used for every action.
    loop = None

    def __init__(self, rules="pond", opponents: Sequence = ("memory", "random", "greedy"), seed=None, *,
                 seat: int = 0, names: Sequence[str] | None = None, knowledge: bool = False,
                 step: bool = False, hints: bool = False):
        if isinstance(rules, str):
            rules = Rules.preset(rules)
        if isinstance(opponents, (str, bytes)) or not isinstance(opponents, Sequence) or not opponents:
            raise ValueError(f"opponents: expected a list of strategies, one per opponent, not {opponents!r}")
        if any(o is None for o in opponents):
            raise ValueError("opponents: every opponent needs a strategy (None is your own seat)")
        n = len(opponents) + 1
        if not 2 <= n <= 6:
            raise ValueError(f"opponents: a table seats 2 to 6 players, so give 1 to 5 opponents, not {len(opponents)}")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat: expected your seat, 0 to {n - 1}, not {seat!r}")
        lineup = list(opponents[:seat]) + [None] + list(opponents[seat:])
        names = list(names) if names is not None else _default_names(n, seat)
        self.match = Match(rules, lineup, seed=seed, names=names)
        self.me = seat
        self._opponents = [strategy_name(o) for o in opponents]
        self._rank: str | None = None
        self._pending: _Before | None = None
        self._fresh: set = set()
        self._hand_before: set = set()
        self._mark = 0
        self._message = ""
        self._busy = False
        self._render_due = False
        self._chain = 0             # the bots' chain of asks: bumped whenever it stops (see _stop_bots)
        self._chain_handle = None   # the bots' next ask, scheduled on _chain_loop
        self._chain_loop = None
        self._chain_asks = 0
        self._count_handle = None   # the panel's count, scheduled on a loop after a click in the page (see _render_knowledge)
        self._count_job = None      # ... and running in the counting thread (see _count)
        self._think_job = None      # a greedy bot's count running in the counting thread before its ask
        self._thought = None        # the state and seat that count was for
        self._bot_turn = 0          # only the latest scheduled bot ask may play (see _schedule_bot)
        self._running_on = None     # the chain's loop while one of its bot asks runs (see _event_loop)
        self._beliefs: OrderedDict = OrderedDict()  # the panel's answers by state shown (see _remembered)
        self._facts: OrderedDict = OrderedDict()
        self.log_lines: list[str] = []
        super().__init__(model_id=stable_model_id("table"))
        self._build(knowledge, step, hints)
        self.add_class("gf-table")
        self.match.observe(self._heard)
        self._start()
        settle_libraries()  # after the first deal and panel: their code is loaded

    # ------------------------------------------------------------------ building the controls
    def _build(self, knowledge: bool, step: bool, hints: bool) -> None:
        game, me = self.match.game, self.me
        n = game.n_players
        self._style = widgets.HTML(_cards.STYLE, layout=widgets.Layout(height="0px", margin="0"))
        self.header = widgets.HTML()
        partner = self.match.rules.partner(me, n)
        self._seat_html, self.ask_buttons, seat_boxes = {}, {}, []
        for k in range(1, n):
            q = (me + k) % n
            self._seat_html[q] = widgets.HTML()
            if q == partner:
                button = _button(f"{game.names[q]} (partner)", "gf-ask", tooltip="partners may not ask each other")
                button.disabled = True
            else:
                button = _button(f"Ask {game.names[q]}", "gf-ask")
                button.add_class(f"gf-ask-{q}")
                button.on_click(self._handler(self._ask, q))
            self.ask_buttons[q] = button
            seat_boxes.append(widgets.Box([self._seat_html[q]], layout=widgets.Layout(margin="0 8px 0 0")))
        seats_row = widgets.HBox(seat_boxes, layout=widgets.Layout(flex_flow="row wrap", justify_content="center",
                                                                   align_items="stretch"))

        # The ocean sits right after the ask buttons, and they right after your hand, so that the
        # keyboard's order is the turn's: Tab to a rank, Enter; Tab to an opponent, Enter; Tab, Enter to draw.
        self.ocean = _button("", "gf-ocean", tooltip="the ocean: click it to draw after \"Go Fish!\"")
        self.ocean.layout = widgets.Layout(width="150px", height="64px")
        self.ocean.on_click(self._handler(self._draw))
        self._ocean_label = widgets.HTML()
        ocean_box = widgets.VBox([self.ocean, self._ocean_label], layout=widgets.Layout(align_items="center",
                                                                                        margin="0 0 0 18px"))
        self.status = widgets.HTML()
        self.status.add_class("gf-statusbox")
        self.message = widgets.HTML()
        self.score = widgets.HTML()
        middle = widgets.HBox([widgets.VBox([self.status, self.message], layout=widgets.Layout(flex="1")),
                               self.score], layout=widgets.Layout(margin="10px 0", align_items="center"))
        ask_row = widgets.HBox([self.ask_buttons[q] for q in sorted(self.ask_buttons, key=lambda q: (q - me) % n)]
                               + [ocean_box], layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start",
                                                                    margin="6px 0 0 0"))
        ask_row.add_class("gf-askrow")

        self._you = widgets.HTML()
        self.rank_buttons, self._rank_html, self._groups = {}, {}, {}
        for r in game.ranks:
            self._rank_html[r] = widgets.HTML()
            button = _button(plural(r), "gf-rank", width="auto")
            button.add_class(f"gf-rank-{r}")
            button.on_click(self._handler(self._pick, r))
            self.rank_buttons[r] = button
            group = widgets.VBox([self._rank_html[r], button], layout=widgets.Layout(align_items="center"))
            group.add_class("gf-group")
            self._groups[r] = group
        self.hand_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap", min_height="100px"))
        self.hand_box.add_class("gf-hand")
        self._bluff_label = widgets.HTML("<i>Bluff: ask for a rank you do not hold</i>")
        self.bluff_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.suit_choice = widgets.ToggleButtons(options=[], description="Suit:",
                                                 style={"button_width": "42px"})
        self.suit_choice.observe(self._handler(_nothing, quiet=True), names="value")

        self.undo_button = _button("↶ Undo my last ask", "gf-undo")
        self.undo_button.on_click(self._handler(self._undo))
        self.step_toggle = widgets.ToggleButton(value=step, description="Step mode",
                                                tooltip="a teacher's mode: the bots wait, one ask per click")
        self.step_toggle.observe(self._handler(self._step_mode, quiet=True), names="value")
        self.next_button = _button("Next bot ask ▸", "gf-next")
        self.next_button.on_click(self._handler(self._next))
        self.play_button = _button("Play to my turn »", "gf-play")
        self.play_button.on_click(self._handler(self._play))
        self.knowledge_toggle = widgets.ToggleButton(value=knowledge, description="Knowledge panel",
                                                     tooltip="exact probabilities from your view alone")
        self.knowledge_toggle.add_class("gf-knowledge")
        self.facts_toggle = widgets.ToggleButton(value=False, description="Stated facts beside",
                                                 tooltip="the same question answered from stated facts only")
        self.hint_toggle = widgets.ToggleButton(value=hints, description="Hint",
                                                tooltip="what the memory and greedy bots would ask here, and why")
        for toggle in (self.knowledge_toggle, self.facts_toggle, self.hint_toggle):
            toggle.observe(self._handler(_nothing, quiet=True), names="value")
        self.new_button = _button("New game", "gf-new", style="success")
        self.new_button.on_click(self._handler(self._new_game))
        # Text, not IntText: a browser's number box rounds a long seed to 17 digits and turns
        # "abc" into nothing; the kernel reads what was typed and says what is wrong with it.
        self.seed_box = widgets.Text(value=str(self.match.seed), description="Seed:", continuous_update=True,
                                     layout=widgets.Layout(width="230px"), style={"description_width": "40px"},
                                     tooltip="a whole number, 0 or more: the same seed deals the same game")
        self.deal_button = _button("Deal this seed", "gf-deal")
        self.deal_button.on_click(self._handler(self._deal_seed))
        controls = widgets.HBox([self.undo_button, self.step_toggle, self.next_button, self.play_button,
                                 self.knowledge_toggle, self.facts_toggle, self.hint_toggle],
                                layout=widgets.Layout(flex_flow="row wrap", margin="8px 0 0 0"))
        dealing = widgets.HBox([self.new_button, self.seed_box, self.deal_button],
                               layout=widgets.Layout(flex_flow="row wrap"))

        self.log_view = widgets.HTML(layout=widgets.Layout(width="430px"))
        self.heatmap = widgets.HTML()
        self.heatmap.add_class("gf-heatmapbox")
        self.bars = widgets.HTML()
        self.hint = widgets.HTML()
        self.knowledge_box = widgets.VBox([self.heatmap, self.bars], layout=widgets.Layout(margin="0 0 0 12px"))
        self.knowledge_box.add_class("gf-panel")
        self.hint_box = widgets.VBox([self.hint], layout=widgets.Layout(margin="0 0 0 12px"))
        self.hint_box.add_class("gf-panel")
        self.knowledge_box.layout.flex = "1 1 560px"
        self.hint_box.layout.margin = "8px 0 0 0"
        bottom = widgets.HBox([self.log_view, self.knowledge_box],
                              layout=widgets.Layout(flex_flow="row wrap", margin="10px 0 0 0", align_items="flex-start"))

        self.children = [self._style, widgets.HBox([self.header, dealing],
                                                   layout=widgets.Layout(justify_content="space-between",
                                                                         flex_flow="row wrap")),
                         seats_row, middle, self._you, self.hand_box,
                         widgets.HBox([self._bluff_label, self.bluff_box]), self.suit_choice, ask_row, controls,
                         self.hint_box, bottom]
        self._bluff_row = self.children[6]

    # ------------------------------------------------------------------ event plumbing
    def _handler(self, action, *args, quiet: bool = False):
        """A callback for a control: runs ``action``, turns any failure into a short message, re-renders."""
        def callback(*_):
            if self._busy:
                return
            self._busy = True
            if not quiet:
                self._message = ""
            with one_blas_thread():  # the bots' and the panel's exact counts
                try:
                    action(*args)
                except ValueError as e:  # IllegalMove and BotError too: the message names the rule, the seat or the box
                    self._message = str(e)
                except Exception as e:  # never a traceback in the table
                    self._message = f"Something went wrong: {type(e).__name__}: {e}"
                finally:
                    self._busy = False
                self._safe_render()
        return callback

    def _safe_render(self) -> None:
        try:
            with one_blas_thread():
                self._render()
        except Exception as e:
            self.message.value = f'<span class="gf-oops">Could not draw the table: {type(e).__name__}: {e}</span>'

    def _heard(self, item) -> None:
        """The match changed from outside the table's controls (a cell called ``table.match...``)."""
        if self._busy:
            return
        if isinstance(item, Rebuilt):
            self._reset()
        if self.bots_playing:  # the bots' next ask was for the game before: they start again from this one
            self._bots_play(self._chain_loop)
        if not self._render_later():
            self._safe_render()

    def _render_later(self) -> bool:
        """In a kernel, draw the table once the running cell is done rather than at every event
        (``match.advance()`` from code makes dozens); False outside a kernel (plain Python, tests).

        Only a kernel's loop is trusted to run the callback after the cell: another library's loop
        (Playwright's sync API keeps one running) may never get to it.
        """
        if self._render_due:
            return True
        if not _in_kernel():
            return False
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False

        def render():
            self._render_due = False
            self._safe_render()

        self._render_due = True
        loop.call_soon(render)
        return True

    # ------------------------------------------------------------------ actions
    def _start(self) -> None:
        """After a deal: let the bots play up to your first turn (unless in step mode), then draw the table."""
        self._busy = True
        try:
            if not self.step_toggle.value:
                with one_blas_thread():
                    self._bots_play()
        except IllegalMove as e:
            self._message = str(e)
        finally:
            self._busy = False
        self._safe_render()

    def _reset(self) -> None:
        self._pending, self._rank = None, None
        self._fresh, self._hand_before = set(), set()
        self._mark = len(self.match.game.view(self.me).events)

    def _begin(self) -> None:
        """Before one of your actions: remember the hand and where the log stood, to highlight what is new."""
        shown = self._shown_view()
        self._hand_before = set(shown.hand)
        self._mark = len(shown.events)

    def _pick(self, rank: str) -> None:
        self._rank = rank

    def _ask(self, target: int) -> None:
        if self._pending is not None:
            raise IllegalMove("first draw from the ocean: click it")
        if self._rank is None:
            raise IllegalMove("pick a rank from your hand first, then the opponent to ask")
        suit = self.suit_choice.value if self.match.rules.specific_card else None
        if self.match.rules.specific_card and not suit:
            raise IllegalMove("pick a suit too: these rules ask for a specific card")
        self._begin()
        before = self.match.game.view(self.me)
        events = self.match.ask(target, self._rank, suit, player=self.me)
        if len(events) > 2 and type(events[1]) is GoFish and type(events[2]) is Draw and events[2].source == "fish":
            self._pending = _Before(before, events[:2])  # you draw by clicking the ocean
            return
        self._after_my_ask()

    def _draw(self) -> None:
        if self._pending is None:
            raise IllegalMove('the ocean is for drawing after "Go Fish!"')
        self._mark = len(self._pending.events)
        self._pending = None
        self._after_my_ask()

    def _after_my_ask(self) -> None:
        self._fresh = set(self.match.game.hand(self.me)) - self._hand_before
        if self._rank not in self.match.game.view(self.me).counts and not self.match.rules.bluff:
            self._rank = None
        if not self.step_toggle.value:
            self._bots_play()

    def _next(self) -> None:
        self._stop_bots()  # a teacher's "Next" pauses the bots again after this one ask
        self._begin()
        self.match.step()

    def _play(self) -> None:
        self._begin()
        self._bots_play()

    def _step_mode(self) -> None:
        if self.step_toggle.value:
            self._stop_bots()
        elif self._pending is None and self.match.bot_to_move is not None:
            self._begin()
            self._bots_play()

    def _undo(self) -> None:
        self.match.undo()
        self._stop_bots()
        self._reset()

    def _new_game(self, seed=None) -> None:
        self.match.new_game(seed)
        self._stop_bots()
        self.seed_box.value = str(self.match.seed)
        self._reset()
        if not self.step_toggle.value:
            self._bots_play()

    def _deal_seed(self) -> None:
        self._new_game(read_seed(self.seed_box.value))

    # ------------------------------------------------------------------ the bots' turns
    @property
    def bots_playing(self) -> bool:
        """True while the bots play one ask per event up to your turn (their next ask is scheduled)."""
        return self._chain_handle is not None

    def _bots_loop(self):
        """The loop to play the bots on, one ask per event; ``None``: they play at once (see :attr:`loop`)."""
        if self.bot_pause is None:
            return None
        return self._event_loop()

    def _event_loop(self):
        """:attr:`loop`, or the kernel's own while it handles a click in the page; else ``None``."""
        if self.loop is not None:
            return self.loop
        if self._running_on is not None:  # a bot ask of the chain: on its loop, whatever the kernel handles now
            return self._running_on
        if not _clicked_in_the_page():
            return None
        try:
            return asyncio.get_running_loop()
        except RuntimeError:
            return None

    def _stop_bots(self) -> None:
        """The game changed, or step mode stopped the bots: their scheduled ask, if any, never plays."""
        self._chain += 1  # an ask already on its way sees a newer chain and does nothing
        if self._chain_handle is not None:
            self._chain_handle.cancel()
            self._chain_handle = None

    def _bots_play(self, loop=None) -> None:
        """The bots play up to your turn (or the game's end): on ``loop`` (or :meth:`_bots_loop`'s) one ask
        per event, the table drawn after each, :attr:`bot_pause` apart; without a loop all at once."""
        self._stop_bots()
        if self._pending is not None or self.match.bot_to_move is None:
            return
        loop = loop or self._bots_loop()
        if loop is None:
            self.match.advance()
            return
        self._chain_loop, self._chain_asks = loop, 0
        self._schedule_bot()

    def _schedule_bot(self, pause: float | None = None) -> None:
        self._bot_turn += 1
        chain, turn, ask = self._chain, self._bot_turn, self._handler(self._bot_ask, quiet=True)

        def later():
            if chain != self._chain or turn != self._bot_turn:  # stopped since, or scheduled again since
                return
            if self._think_job is not None:  # a bot's count in the thread: when done it schedules the ask
                return
            if self._busy:  # never in one thread; should it happen, the ask waits its turn
                self._schedule_bot()
                return
            if self.panel_counting:  # the panel's count for the table shown comes first (it then
                self._schedule_bot()  # schedules this ask again, a pause after the filled panel)
                return
            if self._think_first():
                return
            self._chain_handle = None
            self._running_on = self._chain_loop
            try:
                ask()
            finally:
                self._running_on = None

        self._chain_handle = self._chain_loop.call_later(self.bot_pause or 0 if pause is None else pause, later)

    def _think_first(self) -> bool:
        """Before a ``greedy`` bot's ask: its exact count in the counting thread, remembered there
        (:data:`~gofish_teach.probability.exact.MEMORY`), so that the ask, an event on the kernel's loop,
        finds it and takes no time; True while that count runs (the ask is scheduled when it is done)."""
        seat = self.match.bot_to_move
        if seat is None or self.match.strategy_of(seat) != "greedy" or self.match.rules.specific_card:
            return False
        state = self._key() + (seat,)
        if self._thought == state:
            return False
        from ..probability import posterior

        view, chain = self.match.game.view(seat), self._chain

        def done(_future):  # a failure shows when the bot asks, as it would without the thread
            self._think_job = None
            if chain == self._chain:
                self._thought = state
            if self._chain_handle is not None:  # this chain, or one started since, which waited for this
                self._schedule_bot(pause=0)

        self._think_job = _off_the_loop(self._chain_loop, lambda: posterior(view), done, "a greedy bot's count")
        return self._think_job is not None

    def _bot_ask(self) -> None:
        """One bot ask of the chain; the next is scheduled while a bot is still to ask."""
        if self._chain_asks == self.match.max_bot_asks:
            raise self.match.stalled(self._chain_asks)
        self._chain_asks += 1
        self.match.step()
        if self.match.bot_to_move is not None:
            self._schedule_bot()

    # ------------------------------------------------------------------ the panel's count
    @property
    def panel_counting(self) -> bool:
        """True while the knowledge panel shows "Counting…": its count is scheduled, an event of its own,
        or running in the counting thread."""
        return self._count_handle is not None or self._count_job is not None

    def _schedule_count(self, loop) -> None:
        """The panel's count as the next event on ``loop``. When it runs it counts the state the table then
        shows (the game may have moved on since), so one scheduled count is enough; while one runs in the
        counting thread, that count looks again when it is done."""
        if self.panel_counting:
            return

        def later():
            self._count_handle = None
            if self._busy:  # never in one thread; should it happen, the count waits its turn
                self._schedule_count(loop)
                return
            self._count(loop)

        self._count_handle = loop.call_later(0, later)

    def _count(self, loop=None) -> None:
        """The panel's event: count and fill in the heatmap, the bars and the hint; a failure is the panel's note.
        On a kernel's loop the count runs in the counting thread and :meth:`_counted` fills the panel in."""
        key, view = self._key(), self._shown_view()
        belief, facts = self._counts_needed()
        belief, facts = belief and key not in self._beliefs, facts and key not in self._facts

        def work():
            return (_belief_of(view) if belief else None), (_facts_of(view) if facts else None)

        if loop is not None and (belief or facts):
            self._count_job = _off_the_loop(loop, work, lambda future: self._counted(loop, key, future),
                                            "the knowledge panel's count")
            if self._count_job is not None:
                return
        self._busy = True
        try:
            with one_blas_thread():
                self._render_knowledge(view, self._my_turn(), count=True)
        except Exception as e:  # never a traceback in the panel
            self._cannot_count(e)
        finally:
            self._busy = False
        self._bots_after_the_panel()

    def _counted(self, loop, key, future) -> None:
        """The counting thread is done with the panel's count for state ``key``: remember it, and fill in
        the panel if the table still shows that state, else count the state it shows now."""
        self._count_job = None
        self._busy = True
        try:
            belief, facts = future.result()
            if belief is not None:
                self._remember(self._beliefs, key, belief)
            if facts is not None:
                self._remember(self._facts, key, facts)
            if self._counts_to_make(*self._counts_needed()):  # the game moved on (Undo, a new game) meanwhile
                self._schedule_count(loop)
            else:
                with one_blas_thread():
                    self._render_knowledge(self._shown_view(), self._my_turn(), count=True)
        except Exception as e:  # never a traceback in the panel
            if key == self._key():
                self._cannot_count(e)
            elif self._counts_to_make(*self._counts_needed()):
                self._schedule_count(loop)
        finally:
            self._busy = False
        if not self.panel_counting:
            self._bots_after_the_panel()

    def _cannot_count(self, error: Exception) -> None:
        note = ('<div class="gf-note">The knowledge panel could not count this moment: '
                f'{escape(f"{type(error).__name__}: {error}", quote=False)}</div>')
        self.heatmap.value, self.bars.value = note, ""
        self.hint.value = note

    def _bots_after_the_panel(self) -> None:
        if self._chain_handle is not None:  # the bots' next ask: a pause after the filled panel, time to read both
            self._chain_handle.cancel()
            self._schedule_bot()

    # ------------------------------------------------------------------ reading the state
    def _shown_view(self):
        """What the table shows: your view, or just before the draw while the ocean waits for your click."""
        return self._pending if self._pending is not None else self.match.game.view(self.me)

    def _my_turn(self) -> bool:
        """True when you are to ask (not to draw, not a bot's turn, not over)."""
        return self._pending is None and self.match.waiting_for(self.me)

    @property
    def waiting_for_you(self) -> str | None:
        """``"ask"`` when you must ask, ``"draw"`` when you must click the ocean, else ``None``."""
        if self._pending is not None:
            return "draw"
        return "ask" if self.match.waiting_for(self.me) else None

    # ------------------------------------------------------------------ drawing the table
    def _render(self) -> None:
        match, game, me = self.match, self.match.game, self.me
        view = self._shown_view()
        names = game.names
        over = game.is_over and self._pending is None
        my_turn = self._my_turn()
        legal = view.legal_asks() if my_turn else []
        askable = {a[1] for a in legal}
        if self._rank not in askable:
            self._rank = next(iter(askable)) if len(askable) == 1 else None
        n = game.n_players
        partner = match.rules.partner(me, n)

        tags = [t for flag, t in [(match.rules.book_size == 2, "pairs"), (match.rules.bluff, "bluffing"),
                                  (match.rules.specific_card, "specific cards"), (match.rules.teams, "teams")] if flag]
        self.header.value = (f'<div class="gf-header"><b>Go Fish</b><span>{match.rules.name} rules · {n} players</span>'
                             + "".join(f'<span class="gf-tag">{t}</span>' for t in tags)
                             + f'<span class="gf-tag" title="the same seed deals the same game">seed {match.seed}</span></div>')

        for q, html in self._seat_html.items():
            html.value = _cards.seat_box(
                names[q], match.strategy_of(q), view.hand_sizes[q], view.books[q],
                turn=not over and view.current_player == q, partner=q == partner,
                won=over and q in game.winners, revealed=game.hand(q) if over else None)
        for q, button in self.ask_buttons.items():
            if q == partner:
                continue
            ok = my_turn and self._rank is not None and any(a[0] == q and a[1] == self._rank for a in legal)
            button.description = f"Ask {names[q]} for {plural(self._rank)}" if self._rank else f"Ask {names[q]}"
            button.disabled = not ok
            button.button_style = "warning" if ok else ""

        pending = self._pending is not None
        size = view.ocean_size
        self.ocean.description = (f"Draw from the ocean ({_cards_word(size)})" if pending
                                  else f"Ocean: {_cards_word(size)}" if size else "Ocean: empty")
        self.ocean.disabled = not pending
        (self.ocean.add_class if pending else self.ocean.remove_class)("gf-pulse")
        (self.ocean.remove_class if size else self.ocean.add_class)("gf-empty")
        self._ocean_label.value = '<div class="gf-oceanlabel"><b>click to draw!</b></div>' if pending else ""

        self.status.value = f'<div class="gf-status">{self._status_text(view, over, my_turn)}</div>'
        self.message.value = f'<span class="gf-oops">⚠ {escape(self._message, quote=False)}</span>' if self._message else ""
        self.score.value = self._score_html(view, over)

        counts = view.counts
        my_books = view.books[me]
        self._you.value = (f'<div class="gf-header" style="margin-top:6px"><b>Your hand</b>'
                           f'<span>{_cards_word(sum(counts.values()))} · {_books(len(my_books))}</span>'
                           f'<span class="gf-books">{_cards.book_chips(my_books)}</span>'
                           + ('<span class="gf-partner">your partner: ' + names[partner] + "</span>"
                              if partner is not None else "") + "</div>")
        by_rank: dict[str, list] = {}
        for card in view.hand:
            by_rank.setdefault(card.rank, []).append(card)
        held, bluffs = [], []
        for r in game.ranks:
            button = self.rank_buttons[r]
            button.disabled = r not in askable
            button.button_style = "primary" if r == self._rank else ""
            if r in by_rank:
                self._rank_html[r].value = _cards.hand_group(by_rank[r], self._fresh if not pending else ())
                held.append(self._groups[r])
            elif r in askable:
                self._rank_html[r].value = ""
                bluffs.append(self._groups[r])
        self.hand_box.children = held
        self.bluff_box.children = bluffs
        self._bluff_row.layout.display = "" if bluffs else "none"

        if match.rules.specific_card and self._rank is not None and my_turn:
            suits = [s for s in SUITS if any(a[1] == self._rank and a[2] == s for a in legal)]
            if list(self.suit_choice.options) != suits:
                self.suit_choice.options = suits
            self.suit_choice.layout.display = ""
        else:
            self.suit_choice.layout.display = "none"

        self.undo_button.disabled = not match.can_undo
        stepping = self.step_toggle.value
        bots_wait = not pending and match.bot_to_move is not None
        for button in (self.next_button, self.play_button):
            button.layout.display = "" if stepping else "none"
            button.disabled = not bots_wait
        self.facts_toggle.layout.display = "" if self.knowledge_toggle.value else "none"

        self.log_lines = [say(e, names, me) for e in view.events]
        self.log_view.value = _cards.log_html([(line, self._kind(e), self._mine(e))
                                          for line, e in zip(self.log_lines, view.events)], self._mark)
        self._render_knowledge(view, my_turn)

    def _kind(self, event) -> str:
        kind = type(event).__name__
        if kind == "Draw" and event.lucky:
            return "lucky"
        return {"Turn": "turn", "Book": "book", "GoFish": "fish", "GameOver": "over"}.get(kind, "")

    def _mine(self, event) -> bool:
        return self.me in {getattr(event, "player", None), getattr(event, "target", None), getattr(event, "to", None)}

    def _status_text(self, view, over: bool, my_turn: bool) -> str:
        names, me = self.match.game.names, self.me
        if self._pending is not None:
            asked = self._pending.asked
            wanted = f"the {asked.rank}{asked.suit}" if asked.suit else a_card(asked.rank)
            return (f'<span class="gf-big">{names[asked.target]} says "Go Fish!"</span><br>'
                    f"Click the ocean to draw a card. Draw {wanted} and you go again.")
        if over:
            event = self.match.game.events[-1]
            return (f'<span class="gf-big">{say(event, names, me)}</span><br>Every hand is shown. '
                    f'"New game" deals again; "Deal this seed" replays deal {self.match.seed}.')
        news = []
        for event in view.events[self._mark:]:
            if type(event) is Draw and event.player == me and event.lucky:
                news.append(f'<span class="gf-lucky">Lucky draw: {event.cards[0]}!</span>')
            elif type(event) is Give and event.to == me:
                news.append(f"{names[event.player]} gives you {count_of(event.count, event.rank)}!")
            elif type(event) is Give and event.player == me:
                news.append(f"{names[event.to]} takes your {plural(event.rank) if event.count > 1 else name(event.rank)}.")
            elif type(event) is Book and event.player == me:
                news.append(f'<span class="gf-lucky">You make a book of {plural(event.rank)}!</span>')
        lead = ("<span class='gf-big'>" + " ".join(news) + "</span><br>") if news else ""
        if my_turn:
            pick = ("pick a rank (and a suit)" if self.match.rules.specific_card else "pick a rank")
            return lead + f"<b>Your turn:</b> {pick} from your hand, then the opponent to ask."
        seat = self.match.bot_to_move
        if seat is not None:
            if self.bots_playing:
                return lead + (f"<b>{names[seat]}'s turn</b> ({self.match.strategy_of(seat)} bot). "
                               "The bots are playing, one ask at a time: read them in the log.")
            if self.step_toggle.value:
                return lead + (f"<b>{names[seat]}'s turn</b> ({self.match.strategy_of(seat)} bot). Step mode: "
                               "click “Next bot ask” or “Play to my turn”.")
            return lead + f"<b>{names[seat]}'s turn</b> ({self.match.strategy_of(seat)} bot)."
        return lead

    def _score_html(self, view, over: bool) -> str:
        names, me, n = self.match.game.names, self.me, view.n_players
        counts = [len(b) for b in view.books]
        if self.match.rules.teams:
            teams = sorted({tuple(sorted((p, (p + n // 2) % n))) for p in range(n)})
            rows = [(" + ".join(names[p] for p in team), sum(counts[p] for p in team)) for team in teams]
        else:
            rows = [(names[p], counts[p]) for p in range(n)]
        best = max(c for _, c in rows)
        body = "".join(f'<tr class="{"gf-lead" if c == best and best else ""}"><td>{"★ " if over and c == best else ""}'
                       f'{who}</td><td>{c}</td></tr>' for who, c in rows)
        return f'<div class="gf-score"><table><tr><th>{"Teams" if self.match.rules.teams else "Score"}</th><th>books</th></tr>{body}</table></div>'

    def _render_knowledge(self, view, my_turn: bool, count: bool = False) -> None:
        """The knowledge panel and the hint for ``view``. On a loop (after a click in the page) a count not
        remembered is not made here: the panel says "Counting…" and the count is scheduled, an event of its
        own (:meth:`_count`, which passes ``count=True``); without a loop it is made here, within the drawing."""
        show, hints = self.knowledge_toggle.value, self.hint_toggle.value
        self.knowledge_box.layout.display = "" if show else "none"
        self.hint_box.layout.display = "" if hints else "none"
        if not show and not hints:
            return
        names = self.match.game.names
        needs_belief = show or (hints and my_turn)
        if not count and self._counts_to_make(needs_belief, show and self.facts_toggle.value):
            loop = self._event_loop()
            if loop is not None:
                if show:
                    self.heatmap.value, self.bars.value = _while_counting(self.heatmap.value, self.bars.value)
                if hints:
                    self.hint.value = (COUNTING_HINT if my_turn else self._hint_not_now())
                self._schedule_count(loop)
                return
        belief, problem = self._belief_for(view) if needs_belief else (None, None)
        if show:
            if belief is None:
                self.heatmap.value = f'<div class="gf-note">{problem}</div>'
                self.bars.value = ""
            else:
                facts, facts_problem = self._facts_for(view) if self.facts_toggle.value else (None, None)
                self.heatmap.value = _knowledge.heatmap(belief, view, names, facts, facts_problem)
                asked = self._pending.asked.rank if self._pending is not None else None
                self.bars.value = _knowledge.top_bars(belief, view, asked)
        if hints:
            if not my_turn:
                self.hint.value = self._hint_not_now()
            else:
                try:
                    self.hint.value = _knowledge.hint(view, names, belief)
                except Exception as e:
                    self.hint.value = f'<div class="gf-note">No hint here: {type(e).__name__}: {e}</div>'

    def _hint_not_now(self) -> str:
        when = "The game is over." if self.match.game.is_over else "Hints appear when it is your turn to ask."
        return f'<div class="gf-hintbox"><h4>Hint</h4>{when}</div>'

    def _counts_needed(self) -> tuple[bool, bool]:
        """Whether the panel and the hint, as they are set now, need the posterior and the stated facts."""
        show, hints = self.knowledge_toggle.value, self.hint_toggle.value
        return show or (hints and self._my_turn()), show and self.facts_toggle.value

    def _counts_to_make(self, belief: bool, facts: bool) -> bool:
        """True when the state shown needs a count (the posterior, the stated facts) not remembered."""
        key = self._key()
        return (belief and key not in self._beliefs) or (facts and key not in self._facts)

    def _key(self) -> tuple:
        """The state the table shows: the deal, every ask since, and whether the ocean waits for your
        click. The same key is the same view (the rules and the seats are the table's own)."""
        return (self.match.seed, self.match.game.moves, self._pending is not None)

    def _remembered(self, answers: OrderedDict, compute):
        """``compute()`` for the state shown, or its answer from when that state was shown before."""
        key = self._key()
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

    def _belief_for(self, view):
        """The exact posterior for what the table shows, or ``None`` and why not."""
        return self._remembered(self._beliefs, lambda: _belief_of(view))

    def _facts_for(self, view):
        return self._remembered(self._facts, lambda: _facts_of(view))

    def __repr__(self) -> str:
        return f"Table({_rules_code(self.match.rules)}, opponents={self._opponents!r}, seed={self.match.seed})"


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
