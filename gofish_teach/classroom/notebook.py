"""A class table in a notebook cell: the Table's look, played with classmates through the teacher's host.

``join("http://192.168.1.20:8044/", "K7QM-3XPA", "Ann")`` takes a seat at the class table whose code
the teacher gave, from JupyterLab: the kernel holds one websocket to the host (a
:class:`~.client.SeatClient` on the kernel's own event loop), and the widget shows what that seat
is sent, drawn as the kit's :class:`~gofish_teach.widgets.Table` draws a game (its cards, seats and
log); a rank button and an ask button make each ask. The seat's token is kept on the widget
(``table.token``): ``join(address, code, token=table.token)`` takes the same seat back from another
cell, a restarted kernel, or after the host restarted. A lost connection is tried again by itself.

Every name and line of the log is put in the page as text (escaped), and a refusal from the host is a
short message in the table, never a traceback.
"""
from __future__ import annotations

import asyncio
from html import escape

import ipywidgets as widgets

from .. import Card, plural
from ..widgets import cards as _cards
from .client import HostError, SeatClient

#: Seconds between tries to take the seat back after the connection was lost.
RETRY_SECONDS = 3.0
_KINDS = {"turn": "turn", "book": "book", "gofish": "fish", "gameover": "over"}


def join(address: str, code: str, name: str | None = None, *, token: str | None = None) -> "RemoteTable":
    """Sit at the class table ``code`` on the host at ``address`` as ``name`` (or take back the seat ``token`` holds)."""
    return RemoteTable(address, code, name, token=token)


class RemoteTable(widgets.VBox):
    """A seat at a class table, played in a notebook (see the module's docstring).

    Attributes:
        client: the connection (:attr:`~.client.SeatClient.state` is the seat's last frame).
        rank_buttons, ask_buttons, chances_toggle: the controls (by rank, and by the opponent's seat).
        message: the last refusal or connection problem, as shown.
    """

    def __init__(self, address: str, code: str, name: str | None = None, *, token: str | None = None):
        if name is None and token is None:
            raise ValueError("name: give your name to join the table (or token= to take your seat back)")
        self.address, self.code, self.name = address, code, name
        self.client = SeatClient(address, on_frame=lambda message: self._render())
        self.client.token = token
        self._rank: str | None = None
        self.message = "Connecting to the host…"
        self._style = widgets.HTML(_cards.STYLE, layout=widgets.Layout(height="0px", margin="0"))
        self.header, self.status, self.seats_html, self.hand_html, self.log_html = (widgets.HTML() for _ in range(5))
        self.status.add_class("gf-statusbox")
        self.rank_buttons: dict[str, widgets.Button] = {}
        self.ask_buttons: dict[int, widgets.Button] = {}
        self.rank_row = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.ask_row = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap", margin="6px 0"))
        self.chances_toggle = widgets.ToggleButton(description="My chances", tooltip="exact, from what you have seen")
        self.chances_toggle.observe(lambda change: self._tell_host({"type": "chances", "on": change["new"]}), names="value")
        self.chances_html = widgets.HTML()
        super().__init__([self._style, self.header, self.status, self.seats_html, self.hand_html, self.rank_row,
                          self.ask_row, widgets.HBox([self.chances_toggle]), self.chances_html, self.log_html])
        self.add_class("gf-table")
        self._task = asyncio.ensure_future(self._run())
        self._render()

    @property
    def token(self) -> str | None:
        """The seat's token: ``join(address, code, token=...)`` takes this seat back."""
        return self.client.token

    # ------------------------------------------------------------------ the connection
    async def _run(self) -> None:
        first = True
        while True:
            try:
                await self.client.connect()
                if self.client.token is None and first:
                    await self.client.join(self.code, self.name)
                else:
                    await self.client.resume(self.code, self.client.token)
                self.message = ""
                self._render()
                self.client.listen()
                while not self.client.closed:
                    await asyncio.sleep(0.2)
                self.message = "The connection to the host was lost: trying again…"
            except HostError as e:
                self.message = str(e)
                if self.client.unseated or self.client.seat is None and first:
                    self._render()
                    return  # refused (a wrong code, a full table, a seat given away): nothing to retry
            except (OSError, asyncio.TimeoutError) as e:
                self.message = f"Cannot reach the host at {self.address} ({type(e).__name__}): trying again…"
            first = False
            self._render()
            await asyncio.sleep(RETRY_SECONDS)

    def _tell_host(self, message: dict) -> None:
        async def send():
            try:
                await self.client.send(message)
            except Exception as e:  # never a traceback in the table
                self.message = f"Could not reach the host: {type(e).__name__}"
                self._render()
        asyncio.ensure_future(send())

    def close(self) -> None:
        self._task.cancel()
        asyncio.ensure_future(self.client.close())
        super().close()

    # ------------------------------------------------------------------ clicks
    def _pick(self, rank: str) -> None:
        self._rank = rank
        self._render()

    def _ask(self, target: int) -> None:
        state = self.client.state
        if state is None or self._rank is None:
            return
        self.message = ""
        self._tell_host({"type": "ask", "target": target, "rank": self._rank, "at": state["asks"]})

    # ------------------------------------------------------------------ drawing
    def _render(self) -> None:
        state, client = self.client.state, self.client
        problem = client.errors[-1] if client.errors and client.errors[-1] != getattr(self, "_shown", None) else ""
        self._shown = client.errors[-1] if client.errors else None
        text = problem or self.message or (f"Your seat was given to someone else: {client.unseated}" if client.unseated else "")
        note = f'<br><span class="gf-oops">⚠ {escape(text)}</span>' if text else ""
        if state is None:
            self.status.value = f'<div class="gf-status">Table {escape(self.code)}{note}</div>'
            return
        names, me = state["names"], state["seat"]
        legal = state["legal"]
        ranks = list(dict.fromkeys(a[1] for a in legal))
        if self._rank not in ranks:
            self._rank = ranks[0] if len(ranks) == 1 else None
        variants = "".join(f'<span class="gf-tag">{escape(v)}</span>' for v in state["rules"]["variants"])
        self.header.value = (f'<div class="gf-header"><b>Go Fish</b><span>table {escape(state["code"])} · '
                             f'{escape(state["rules"]["name"])} rules · you are {escape(names[me])}</span>{variants}</div>')
        self.status.value = f'<div class="gf-status">{escape(self._status_text(state))}{note}</div>'
        boxes = []
        for q, seat in enumerate(state["seats"]):
            if q != me:
                boxes.append(_cards.seat_box(names[q] + ("" if seat["kind"] == "bot" or seat["connected"] else " (away)"),
                                             seat["strategy"], state["hand_sizes"][q], state["books"][q],
                                             turn=not state["over"] and state["turn"] == q, partner=q == state["partner"],
                                             won=state["over"] and q in state["winners"]))
        self.seats_html.value = '<div style="display:flex;flex-wrap:wrap;gap:8px">' + "".join(boxes) + "</div>"
        hand = [Card.parse(c) for c in state["hand"]]
        by_rank: dict[str, list] = {}
        for card in hand:
            by_rank.setdefault(card.rank, []).append(card)
        self.hand_html.value = (f'<div class="gf-header"><b>Your hand</b><span>{len(hand)} cards · books: '
                                f'{escape(", ".join(map(plural, state["books"][me])) or "none")}</span></div>'
                                + "".join(f'<span class="gf-group">{_cards.hand_group(cards)}</span>'
                                          for cards in by_rank.values()))
        for r in list(by_rank) + [r for r in ranks if r not in by_rank]:
            if r not in self.rank_buttons:
                button = widgets.Button(description=plural(r), layout=widgets.Layout(width="auto"))
                button.add_class(f"gf-rank-{r}")
                button.on_click(lambda _, r=r: self._pick(r))
                self.rank_buttons[r] = button
        for r, button in self.rank_buttons.items():
            button.disabled = r not in ranks
            button.button_style = "primary" if r == self._rank else ""
        self.rank_row.children = [self.rank_buttons[r] for r in self.rank_buttons if r in by_rank or r in ranks]
        for q in range(len(names)):
            if q == me or q == state["partner"]:
                continue
            if q not in self.ask_buttons:
                button = widgets.Button(layout=widgets.Layout(width="auto"))
                button.add_class(f"gf-ask-{q}")
                button.on_click(lambda _, q=q: self._ask(q))
                self.ask_buttons[q] = button
            ok = self._rank is not None and any(a[0] == q and a[1] == self._rank for a in legal)
            self.ask_buttons[q].description = f"Ask {names[q]} for {plural(self._rank)}" if self._rank else f"Ask {names[q]}"
            self.ask_buttons[q].disabled = not ok
            self.ask_buttons[q].button_style = "warning" if ok else ""
        self.ask_row.children = list(self.ask_buttons.values())
        self.chances_toggle.disabled = not state["chances"]
        self.chances_html.value = self._chances_html(state)
        lines = [(e["text"], "lucky" if e["kind"] == "draw" and e.get("lucky") else _KINDS.get(e["kind"], ""),
                  me in (e.get("player"), e.get("target"), e.get("to"))) for e in client.log]
        self.log_html.value = _cards.log_html(lines, len(lines))

    @staticmethod
    def _status_text(state: dict) -> str:
        names = state["names"]
        if state["over"]:
            return "The game is over: " + ", ".join(names[w] for w in state["winners"]) + " won."
        if not state["started"]:
            return "Waiting for the others to join (or for the teacher to start the game)."
        if state["legal"]:
            return "Your turn: pick a rank from your hand, then the player to ask."
        return f"{names[state['turn']]}'s turn." + (f" ({state['clock']:.0f} s left)" if state["clock"] else "")

    def _chances_html(self, state: dict) -> str:
        chances = self.client.chances
        if not self.chances_toggle.value or not state["chances"]:
            return ""
        if chances is None:
            return '<div class="gf-panel">Counting…</div>'
        rows = [(state["names"][int(q)], row) for q, row in chances["holds"].items()]
        rows += [("ocean's top card", chances["top"])] if chances["top"] else []
        head = "".join(f"<th>{escape(r)}</th>" for r in chances["ranks"])
        body = "".join(f"<tr><th>{escape(label)}</th>" + "".join(
            f'<td title="{escape(row[r][1] or "")}">{row[r][0]:.1%}</td>' for r in chances["ranks"]) + "</tr>"
            for label, row in rows)
        return (f'<div class="gf-panel"><h4>My chances: P(holds at least one), from what I have seen'
                f'{"" if chances["exact"] else " (estimated)"}</h4><table class="gf-heat"><tr><th></th>{head}</tr>'
                f"{body}</table></div>")
