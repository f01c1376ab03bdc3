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
the ``memory`` and ``greedy`` strategies would ask and why; "Who is who?" (``who=True``) shows, for each
bot, the chance of each strategy given its asks so far (Bayes' rule; ``mystery=True`` hides the bots'
strategies until the game ends, so a class can guess first). After a click in the page the panel's
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
from html import escape
from typing import Sequence

import ipywidgets as widgets

from ..cards import SUITS, name, plural
from ..events import Book, Draw, Give
from ..game import IllegalMove
from ..match import Match, Rebuilt
from ..rules import Rules
from ..strategies import strategy_name
from . import _cards, _knowledge, _table_play
from ._focus import FocusKeeper
from ._knowledge import COUNTING_HINT, while_counting
from ._opponents import OpponentsPanel
from ._panes import Placeheld, one_blas_thread, settle_libraries, stable_model_id
from ._table_play import TablePlay
from ._words import a_card, cards_word, count_of, default_names, read_seed, rules_code, say
from ._words import books as _books


def _deck_words(rules) -> str:
    """The deck, for the table's header, when it is not the full 52: `` · a deck of 12 cards (A, 2, 3)``.

    >>> from gofish_teach import Rules
    >>> _deck_words(Rules.preset("pond")), _deck_words(Rules.preset("pond").replace(n_ranks=3, hand_size=2))
    ('', ' · a deck of 12 cards (A, 2, 3)')
    """
    if rules.n_ranks == 13:
        return ""
    ranks = ", ".join(rules.ranks) if rules.n_ranks <= 6 else f"{rules.ranks[0]} to {rules.ranks[-1]}"
    return f" · a deck of {rules.deck_size} cards ({ranks})"


def _nothing() -> None:
    """A control whose change only needs the table redrawn."""


def _button(description: str, cls: str, *, tooltip: str = "", width: str | None = None, style: str = ""):
    button = widgets.Button(description=description, tooltip=tooltip, button_style=style,
                            layout=widgets.Layout(width=width) if width else widgets.Layout())
    button.add_class(cls)
    return button


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
        who: open the "Who is who?" panel at once (:mod:`._opponents`).
        mystery: hide the bots' strategies until the game ends.

    Attributes:
        match: the :class:`~gofish_teach.match.Match` being played (``match.game`` is the game).
        me: your seat.
        rank_buttons, ask_buttons: the controls, by rank label and by opponent's seat.
        ocean, undo_button, step_toggle, next_button, play_button, knowledge_toggle,
        facts_toggle, hint_toggle, new_button, seed_box, deal_button: the other controls.
        log_lines: the log as plain text, oldest first.
        play: the game at the table (:class:`~._table_play.TablePlay`): your actions, the bots' asks
            and the knowledge panel's counts, with no widget.
        bot_pause, loop: how the bots play after a click in the page (:attr:`TablePlay.bot_pause
            <._table_play.TablePlay.bot_pause>`, :attr:`TablePlay.loop <._table_play.TablePlay.loop>`);
            ``bots_playing`` is true while their next ask is scheduled. On the same loop the knowledge
            panel's count is an event of its own; ``panel_counting`` is true while it is scheduled.
    """

    _what = "The Go Fish table"

    def __init__(self, rules="pond", opponents: Sequence = ("memory", "random", "greedy"), seed=None, *,
                 seat: int = 0, names: Sequence[str] | None = None, knowledge: bool = False,
                 step: bool = False, hints: bool = False, who: bool = False, mystery: bool = False):
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
        names = list(names) if names is not None else default_names(n, seat)
        self.match = Match(rules, lineup, seed=seed, names=names)
        self.me = seat
        self._opponents = [strategy_name(o) for o in opponents]
        self.mystery = bool(mystery)
        self.who = OpponentsPanel(who, seed=0)  # the "Who is who?" panel: its toggle, its box
        self.play = TablePlay(self.match, seat, self, stepping=step)  # the turns, the bots' asks, the panel's counts
        self._rank: str | None = None    # the rank picked, for your next ask
        self._fresh: set = set()         # cards new in your hand since your last action (highlighted)
        self._hand_before: set = set()
        self._mark = 0                   # where the log stood before your last action (what follows is new)
        self._message = ""
        self._render_due = False
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
                button = _button(f"{game.names[q]} (partner)", "gf-ask", tooltip="partners may not ask each other",
                                 width="auto")
                button.disabled = True
            else:
                button = _button(f"Ask {game.names[q]}", "gf-ask", width="auto")  # "Ask Northwest for Queens" in full
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
        for toggle in (self.knowledge_toggle, self.facts_toggle, self.hint_toggle, self.who.toggle):
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
                                 self.knowledge_toggle, self.facts_toggle, self.hint_toggle, self.who.toggle],
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

        self._bluff_row = widgets.HBox([self._bluff_label, self.bluff_box])
        top = widgets.HBox([self.header, dealing], layout=widgets.Layout(justify_content="space-between",
                                                                          flex_flow="row wrap"))
        self.children = [self._style, FocusKeeper(), top, seats_row, middle, self._you, self.hand_box,
                         self._bluff_row, self.suit_choice, ask_row, controls, self.hint_box, self.who.box, bottom]

    # ------------------------------------------------------------------ the game played (TablePlay)
    @property
    def bot_pause(self) -> float | None:
        """Seconds between the bots' asks when they play one ask per event (:attr:`TablePlay.bot_pause`)."""
        return self.play.bot_pause

    @bot_pause.setter
    def bot_pause(self, seconds: float | None) -> None:
        self.play.bot_pause = seconds

    @property
    def loop(self):
        """The event loop the bots play on and the panel counts on (:attr:`TablePlay.loop`)."""
        return self.play.loop

    @loop.setter
    def loop(self, loop) -> None:
        self.play.loop = loop

    @property
    def bots_playing(self) -> bool:
        """True while the bots play one ask per event up to your turn (their next ask is scheduled)."""
        return self.play.bots_playing

    @property
    def panel_counting(self) -> bool:
        """True while the knowledge panel shows "Counting…" (its count scheduled, or in the counting thread)."""
        return self.play.panel_counting

    @property
    def waiting_for_you(self) -> str | None:
        """``"ask"`` when you must ask, ``"draw"`` when you must click the ocean, else ``None``."""
        return self.play.waiting_for_you

    # What the play tells its screen (TablePlay's Screen).
    def act(self, action) -> None:
        self._handler(action, quiet=True)()

    def fill_panel(self) -> None:
        self._render_knowledge(self.play.shown_view(), self.play.my_turn(), count=True)

    def cannot_count(self, error: Exception) -> None:
        note = ('<div class="gf-note">The knowledge panel could not count this moment: '
                f'{escape(f"{type(error).__name__}: {error}", quote=False)}</div>')
        self.heatmap.value, self.bars.value = note, ""
        self.hint.value = note

    def counts_needed(self) -> tuple[bool, bool]:
        """Whether the panel and the hint, as they are set now, need the posterior and the stated facts."""
        show, hints = self.knowledge_toggle.value, self.hint_toggle.value
        return show or (hints and self.play.my_turn()), show and self.facts_toggle.value

    # ------------------------------------------------------------------ event plumbing
    def _handler(self, action, *args, quiet: bool = False):
        """A callback for a control: runs ``action``, turns any failure into a short message, re-renders."""
        def callback(*_):
            if self.play.busy:
                return
            self.play.busy = True
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
                    self.play.busy = False
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
        if self.play.busy:
            return
        if isinstance(item, Rebuilt):
            self._reset()
        if self.play.bots_playing:  # the bots' next ask was for the game before: they start again from this one
            self.play.bots_play(self.play.chain_loop)
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
        if not _table_play.in_kernel():
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
        try:
            self.play.start()
        except IllegalMove as e:
            self._message = str(e)
        self._safe_render()

    def _reset(self) -> None:
        self.play.pending, self._rank = None, None
        self._fresh, self._hand_before = set(), set()
        self._mark = len(self.match.game.view(self.me).events)

    def _begin(self) -> None:
        """Before one of your actions: remember the hand and where the log stood, to highlight what is new."""
        shown = self.play.shown_view()
        self._hand_before = set(shown.hand)
        self._mark = len(shown.events)

    def _pick(self, rank: str) -> None:
        self._rank = rank

    def _ask(self, target: int) -> None:
        suit = self.suit_choice.value if self.match.rules.specific_card else None
        self.play.check_ask(self._rank, suit)
        self._begin()
        if not self.play.ask(target, self._rank, suit):  # else "Go Fish!": you draw by clicking the ocean
            self._after_my_ask()

    def _draw(self) -> None:
        self._mark = len(self.play.draw().events)
        self._after_my_ask()

    def _after_my_ask(self) -> None:
        self._fresh = set(self.match.game.hand(self.me)) - self._hand_before
        if self._rank not in self.match.game.view(self.me).counts and not self.match.rules.bluff:
            self._rank = None
        self.play.after_you()

    def _next(self) -> None:
        self.play.stop_bots()  # a teacher's "Next" pauses the bots again after this one ask
        self._begin()
        self.match.step()

    def _play(self) -> None:
        self._begin()
        self.play.bots_play()

    def _step_mode(self) -> None:
        self.play.stepping = self.step_toggle.value
        if self.play.stepping:
            self.play.stop_bots()
        elif self.play.pending is None and self.match.bot_to_move is not None:
            self._begin()
            self.play.bots_play()

    def _undo(self) -> None:
        self.play.undo()
        self._reset()

    def _new_game(self, seed=None) -> None:
        self.play.new_game(seed)
        self.seed_box.value = str(self.match.seed)
        self._reset()
        self.play.after_you()

    def _deal_seed(self) -> None:
        self._new_game(read_seed(self.seed_box.value))

    # ------------------------------------------------------------------ drawing the table
    def _render(self) -> None:
        match, game, me = self.match, self.match.game, self.me
        view = self.play.shown_view()
        names = game.names
        over = game.is_over and self.play.pending is None
        my_turn = self.play.my_turn()
        legal = view.legal_asks() if my_turn else []
        askable = {a[1] for a in legal}
        if self._rank not in askable:
            self._rank = next(iter(askable)) if len(askable) == 1 else None
        n = game.n_players
        partner = match.rules.partner(me, n)

        tags = [t for flag, t in [(match.rules.book_size == 2, "pairs"), (match.rules.bluff, "bluffing"),
                                  (match.rules.specific_card, "specific cards"), (match.rules.teams, "teams")] if flag]
        self.header.value = (f'<div class="gf-header"><b>Go Fish</b><span>{match.rules.name} rules · {n} players'
                             f'{_deck_words(match.rules)}</span>'
                             + "".join(f'<span class="gf-tag">{t}</span>' for t in tags)
                             + f'<span class="gf-tag" title="the same seed deals the same game">seed {match.seed}</span></div>')

        for q, html in self._seat_html.items():
            html.value = _cards.seat_box(
                names[q], self._label(q, over), view.hand_sizes[q], view.books[q],
                turn=not over and view.current_player == q, partner=q == partner,
                won=over and q in game.winners, revealed=game.hand(q) if over else None)
        for q, button in self.ask_buttons.items():
            if q == partner:
                continue
            ok = my_turn and self._rank is not None and any(a[0] == q and a[1] == self._rank for a in legal)
            button.description = f"Ask {names[q]} for {plural(self._rank)}" if self._rank else f"Ask {names[q]}"
            button.disabled = not ok
            button.button_style = "warning" if ok else ""

        pending = self.play.pending is not None
        size = view.ocean_size
        self.ocean.description = (f"Draw from the ocean ({cards_word(size)})" if pending
                                  else f"Ocean: {cards_word(size)}" if size else "Ocean: empty")
        self.ocean.disabled = not pending
        (self.ocean.add_class if pending else self.ocean.remove_class)("gf-pulse")
        (self.ocean.remove_class if size else self.ocean.add_class)("gf-empty")
        self._ocean_label.value = '<div class="gf-oceanlabel"><b>click to draw!</b></div>' if pending else ""

        self.status.value = f'<div class="gf-status">{self._status_text(view, over, my_turn)}</div>'
        self.message.value = f'<span class="gf-oops">⚠ {escape(self._message, quote=False)}</span>' if self._message else ""
        self.score.value = _cards.score_box(self.match.game.names, [len(b) for b in view.books], self.match.rules.teams, over)

        counts = view.counts
        my_books = view.books[me]
        self._you.value = (f'<div class="gf-header" style="margin-top:6px"><b>Your hand</b>'
                           f'<span>{cards_word(sum(counts.values()))} · {_books(len(my_books))}</span>'
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
        self.log_view.value = _cards.log_html([(line, _cards.kind(e), _cards.involves(e, me))
                                          for line, e in zip(self.log_lines, view.events, strict=True)], self._mark)
        self._render_knowledge(view, my_turn)
        self.who.render(view, names)

    def _strategy(self, seat: int, over: bool) -> str | None:
        """A bot's strategy as the table shows it: hidden in a mystery table until the game is over."""
        return None if self.mystery and not over else self.match.strategy_of(seat)

    def _label(self, seat: int, over: bool) -> str | None:
        """How the seat's box names its bot ("memory bot"): hidden in a mystery table until the game is over."""
        return None if self.mystery and not over else self.match.label_of(seat)

    def _status_text(self, view, over: bool, my_turn: bool) -> str:
        names, me = self.match.game.names, self.me
        if self.play.pending is not None:
            asked = self.play.asked
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
                return lead + (f"<b>{names[seat]}'s turn</b> ({self._strategy(seat, False) or 'mystery'} bot). "
                               "The bots are playing, one ask at a time: read them in the log.")
            if self.step_toggle.value:
                return lead + (f"<b>{names[seat]}'s turn</b> ({self._strategy(seat, False) or 'mystery'} bot). Step mode: "
                               "click “Next bot ask” or “Play to my turn”.")
            return lead + f"<b>{names[seat]}'s turn</b> ({self._strategy(seat, False) or 'mystery'} bot)."
        return lead

    def _render_knowledge(self, view, my_turn: bool, count: bool = False) -> None:
        """The knowledge panel and the hint for ``view``. On a loop (after a click in the page) a count not
        remembered is not made here: the panel says "Counting…" and the count is scheduled, an event of its
        own (:meth:`TablePlay._count <._table_play.TablePlay._count>`, then :meth:`fill_panel`, which passes
        ``count=True``); without a loop it is made here, within the drawing."""
        show, hints = self.knowledge_toggle.value, self.hint_toggle.value
        self.knowledge_box.layout.display = "" if show else "none"
        self.hint_box.layout.display = "" if hints else "none"
        if not show and not hints:
            return
        names = self.match.game.names
        needs_belief = show or (hints and my_turn)
        if not count and self.play.counts_to_make(needs_belief, show and self.facts_toggle.value):
            loop = self.play.event_loop()
            if loop is not None:
                if show:
                    self.heatmap.value, self.bars.value = while_counting(self.heatmap.value, self.bars.value)
                if hints:
                    self.hint.value = (COUNTING_HINT if my_turn else self._hint_not_now())
                self.play.schedule_count(loop)
                return
        belief, problem = self.play.belief_for(view) if needs_belief else (None, None)
        if show:
            if belief is None:
                self.heatmap.value = f'<div class="gf-note">{problem}</div>'
                self.bars.value = ""
            else:
                facts, facts_problem = self.play.facts_for(view) if self.facts_toggle.value else (None, None)
                self.heatmap.value = _knowledge.heatmap(belief, view, names, facts, facts_problem)
                asked = self.play.asked.rank if self.play.asked is not None else None
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

    def __repr__(self) -> str:
        return f"Table({rules_code(self.match.rules)}, opponents={self._opponents!r}, seed={self.match.seed})"
