"""Cards, seats and the log as HTML with inline styles: the table's look, kept apart from its logic.

Everything here returns a string; :mod:`.table` puts the strings into ``ipywidgets.HTML``.
One style sheet (:data:`STYLE`), scoped to the ``gf-`` classes, is put on the page once per table.

>>> from gofish_teach import Card
>>> 'gf-red' in card(Card("7", "♥")) and 'gf-black' in card(Card("7", "♠"))
True
>>> hand_group([Card("7", "♣"), Card("7", "♥")]).count('class="gf-card')
2
"""
from __future__ import annotations

from html import escape

from ..cards import plural

RED_SUITS = ("♦", "♥")

#: The table's style sheet: green felt, white cards with red and black suits, blue card backs. The keyboard's
#: focus is a ring in two tones, 2 px dark then 3 px white (WCAG 2.2's focus appearance: at least 2 px, and
#: 3:1 against what is around it, the felt, the cards or the ocean's yellow pulse, which stops under it);
#: JupyterLab's own is 1 px, and outranked a plain ``:focus-visible`` rule.
STYLE = """<style>
.gf-table { background: radial-gradient(ellipse at center, #2f8a57 0%, #1b5e3a 70%, #154a2e 100%);
  border-radius: 14px; padding: 10px 14px 14px 14px; color: #f4f1e8; border: 6px solid #6b4424;
  box-shadow: inset 0 0 30px rgba(0,0,0,.45); font-family: "Segoe UI", Helvetica, Arial, sans-serif; }
.gf-header, .gf-seat, .gf-status, .gf-score, .gf-oceanlabel, .gf-you { color: #f4f1e8; }
.gf-panel, .gf-heatmap, .gf-bars-box, .gf-hintbox { color: #222; }
.gf-table .widget-label, .gf-table .widget-label-basic { color: #f4f1e8; }
.gf-header { font-size: 15px; display: flex; gap: 14px; align-items: baseline; flex-wrap: wrap; }
.gf-header b { font-size: 19px; letter-spacing: .5px; }
.gf-tag { background: rgba(255,255,255,.16); border-radius: 9px; padding: 1px 8px; font-size: 12px; }
.gf-seat { background: rgba(0,0,0,.22); border-radius: 10px; padding: 6px 9px; min-width: 150px;
  border: 2px solid transparent; line-height: 1.25; }
.gf-seat.gf-turn { border-color: #ffd54f; box-shadow: 0 0 12px rgba(255,213,79,.7); }
.gf-seat.gf-won { background: rgba(255,213,79,.25); }
.gf-name { font-weight: 700; font-size: 15px; }
.gf-strat { font-weight: 400; font-size: 11px; opacity: .8; margin-left: 4px; }
.gf-partner { font-size: 11px; background: #7e57c2; border-radius: 8px; padding: 0 6px; margin-left: 4px; }
.gf-meta { font-size: 12px; opacity: .9; margin-top: 3px; }
.gf-backs { min-height: 34px; margin-top: 4px; white-space: nowrap; }
.gf-backs .gf-small { display: inline-block; white-space: normal; max-width: 230px; line-height: 46px; }
.gf-mini { display: inline-block; width: 20px; height: 30px; border-radius: 3px; margin-right: -11px;
  border: 1.5px solid #fff; background: repeating-linear-gradient(45deg, #1e3a8a 0 3px, #3056b8 3px 6px);
  box-shadow: 1px 1px 2px rgba(0,0,0,.4); vertical-align: top; }
.gf-card { display: inline-block; position: relative; width: 44px; height: 64px; background: #fffdf8;
  border-radius: 6px; border: 1px solid #9a9a9a; box-shadow: 1px 2px 4px rgba(0,0,0,.45);
  margin-right: -20px; font-family: Georgia, "Times New Roman", serif; vertical-align: top; }
.gf-card:last-child { margin-right: 0; }
.gf-card .gf-corner { position: absolute; top: 3px; left: 5px; font-size: 14px; font-weight: 700; line-height: 1.0;
  text-align: center; }
.gf-card .gf-pip { position: absolute; bottom: 4px; right: 6px; font-size: 24px; line-height: 1; }
.gf-red { color: #c62828; }
.gf-black { color: #1b1b1b; }
.gf-card.gf-fresh { box-shadow: 0 0 0 3px #ffd54f, 1px 2px 6px rgba(0,0,0,.6); top: -6px; }
.gf-small .gf-card { width: 30px; height: 42px; margin-right: -12px; }
.gf-small .gf-card .gf-corner { font-size: 11px; top: 2px; left: 3px; }
.gf-small .gf-card .gf-pip { font-size: 15px; bottom: 2px; right: 3px; }
.gf-group { padding: 6px 6px 2px 6px; border-radius: 8px; }
.gf-books { margin-top: 3px; }
.gf-book { display: inline-block; background: #fffdf8; color: #1b1b1b; font: 700 11px Georgia, serif;
  border-radius: 3px; padding: 1px 4px; margin: 0 5px 3px 0;
  box-shadow: 1px 1px 0 #ccc, 2px 2px 0 #aaa, 3px 3px 0 #888; }
.gf-oceanlabel { text-align: center; font-size: 12px; }
.gf-status { font-size: 16px; line-height: 1.4; padding: 6px 12px; border-radius: 10px; background: rgba(0,0,0,.25);
  min-height: 52px; }
.gf-status .gf-big { font-size: 19px; font-weight: 700; }
.gf-status .gf-lucky { color: #ffd54f; }
.gf-oops { background: #fde7e7; color: #8b1a1a; border-radius: 8px; padding: 4px 10px; font-size: 14px;
  margin-top: 4px; display: inline-block; }
.gf-score table { border-collapse: collapse; font-size: 13px; }
.gf-score td, .gf-score th { padding: 1px 8px; text-align: left; }
.gf-score .gf-lead { color: #ffd54f; font-weight: 700; }
.gf-panel { background: #fffdf6; color: #222; border-radius: 10px; padding: 8px 10px; }
.gf-panel h4 { margin: 0 0 4px 0; font-size: 14px; }
.gf-logbox { height: 250px; overflow-y: auto; display: flex; flex-direction: column-reverse; }
.gf-line { padding: 0 6px; font-size: 13px; line-height: 1.45; border-radius: 4px; }
.gf-line.gf-new { background: #fff3c4; }
.gf-line.gf-mine { font-weight: 600; }
.gf-line.gf-turnline { color: #777; font-size: 11px; border-top: 1px solid #e5e0d0; margin-top: 2px; }
.gf-line.gf-luckyline { color: #8a5a00; }
.gf-line.gf-bookline { color: #1b5e20; font-weight: 700; }
.gf-line.gf-fishline { color: #1565c0; font-style: italic; }
.gf-line.gf-overline { color: #6a1b9a; font-weight: 700; }
.gf-heat { border-collapse: separate; border-spacing: 2px; font-size: 12px; }
.gf-heat th { font-weight: 600; padding: 1px 3px; text-align: center; }
.gf-heat td { width: 34px; height: 24px; text-align: center; border-radius: 4px; }
.gf-heat td.gf-diff { outline: 2px solid #e65100; }
.gf-heat th.gf-held { color: #1565c0; }
.gf-heat td.gf-gone { background: #eee; color: #bbb; }
.gf-bars { display: flex; align-items: flex-end; gap: 3px; padding-top: 4px; }
.gf-bar { display: flex; flex-direction: column; align-items: center; width: 34px; font-size: 10px; }
.gf-bar .gf-track { height: 90px; width: 26px; display: flex; flex-direction: column; justify-content: flex-end; }
.gf-bar .gf-fill { width: 26px; background: #3f7fbf; border-radius: 3px 3px 0 0; min-height: 1px; }
.gf-bar.gf-asked .gf-fill { background: #f5a623; }
.gf-bar .gf-rk { font-size: 12px; font-weight: 700; }
.gf-note { font-size: 12px; color: #555; margin-top: 3px; }
.gf-stale-box { position: relative; }
.gf-stale-box > .gf-counting { position: absolute; top: 0; left: 0; right: 0; z-index: 1; margin: 0; padding: 3px 4px;
  background: rgba(255,255,255,.9); color: #333; }
.gf-stale { opacity: .4; }
.gf-hint td { padding: 0 6px; font-size: 13px; line-height: 1.3; }
.gf-pulse button, button.gf-pulse { animation: gf-pulse 1.1s ease-in-out infinite; }
@keyframes gf-pulse { 0%, 100% { box-shadow: 0 0 0 0 rgba(255,213,79,.9); } 50% { box-shadow: 0 0 0 10px rgba(255,213,79,0); } }
.gf-table .widget-button.gf-ocean { font-size: 15px; font-weight: 700; border-radius: 10px; border: 3px solid #fff;
  background: repeating-linear-gradient(45deg, #1e3a8a 0 6px, #3056b8 6px 12px); color: #fff;
  white-space: normal; line-height: 1.2; text-shadow: 0 0 3px #000; }
.gf-table .widget-button.gf-ocean:disabled { opacity: .8; }
.gf-table .widget-button.gf-ocean.gf-empty { background: rgba(0,0,0,.25); border-style: dashed; }
.gf-table .gf-askrow .widget-button { margin-right: 8px; }
.gf-table .gf-askrow .widget-button.gf-ask { min-width: 150px; }
.gf-table :focus-visible, .gf-table .jupyter-button:focus-visible:enabled, .gf-table input:focus-visible {
  outline: 3px solid #fff !important; outline-offset: 2px !important; box-shadow: 0 0 0 2px #111 !important;
  animation: none !important; }
.gf-table .gf-statusbox:focus { outline: none !important; }
.gf-table .gf-statusbox:focus .gf-status { box-shadow: 0 0 0 2px #111, 0 0 0 5px #fff; }
</style>"""



def card(c, fresh: bool = False) -> str:
    """One card face: rank and suit in the corner, the suit large, red or black."""
    color = "gf-red" if c.suit in RED_SUITS else "gf-black"
    extra = " gf-fresh" if fresh else ""
    return (f'<span class="gf-card {color}{extra}" title="{c.rank}{c.suit}">'
            f'<span class="gf-corner">{c.rank}<br>{c.suit}</span><span class="gf-pip">{c.suit}</span></span>')


def hand_group(cards, fresh=()) -> str:
    """Cards of one rank side by side, overlapping like a fanned hand."""
    return "".join(card(c, c in fresh) for c in cards)


def backs(n: int, limit: int = 14) -> str:
    """``n`` small card backs (at most ``limit`` drawn; more are counted in words beside)."""
    return "".join('<span class="gf-mini"></span>' for _ in range(min(n, limit)))


def book_chips(ranks) -> str:
    return "".join(f'<span class="gf-book" title="a book of {plural(r)}">{r}</span>' for r in ranks)


def seat_box(name: str, bot: str | None, size: int, ranks_booked, *, turn: bool, partner: bool,
             won: bool = False, revealed=None) -> str:
    """An opponent's place at the table: name, what bot plays it ("memory bot"; ``None`` for a person),
    hand (backs, or faces once revealed), books."""
    classes = "gf-seat" + (" gf-turn" if turn else "") + (" gf-won" if won else "")
    tag = '<span class="gf-partner">partner</span>' if partner else ""
    strat = f'<span class="gf-strat">{escape(bot)}</span>' if bot else ""
    n_books = len(ranks_booked)
    hand = (f'<span class="gf-small">{hand_group(revealed)}</span>' if revealed is not None else backs(size))
    return (f'<div class="{classes}"><div class="gf-name">{"★ " if won else ""}{escape(name)}{strat}{tag}</div>'
            f'<div class="gf-backs">{hand}</div>'
            f'<div class="gf-meta">{size} card{"s" * (size != 1)} · {n_books} book{"s" * (n_books != 1)}</div>'
            f'<div class="gf-books">{book_chips(ranks_booked)}</div></div>')


def log_html(lines, first_new: int) -> str:
    """The log, oldest first, scrolled to the newest; lines from ``first_new`` on are highlighted.

    ``lines`` are ``(text, kind, mine)``; ``kind`` picks a style (``turn``, ``lucky``, ``book``,
    ``fish``, ``over`` or ``""``).
    """
    out = []
    for k, (text, kind, mine) in enumerate(lines):
        classes = "gf-line" + (f" gf-{kind}line" if kind else "") + (" gf-mine" if mine else "") + (
            " gf-new" if k >= first_new else "")
        out.append(f'<div class="{classes}">{escape(text)}</div>')
    return ('<div class="gf-panel"><h4>Game log</h4><div class="gf-logbox gf-log"><div>'
            + "".join(out) + "</div></div></div>")


def kind(event) -> str:
    """The log line's class for ``event``: ``"lucky"``, ``"turn"``, ``"book"``, ``"fish"``, ``"over"`` or ``""``."""
    name = type(event).__name__
    if name == "Draw" and event.lucky:
        return "lucky"
    return {"Turn": "turn", "Book": "book", "GoFish": "fish", "GameOver": "over"}.get(name, "")


def involves(event, seat: int) -> bool:
    """Whether ``seat`` asks, is asked, or gets cards in ``event`` (its log line is marked)."""
    return seat in {getattr(event, "player", None), getattr(event, "target", None), getattr(event, "to", None)}


def score_box(names, books: list[int], teams: bool, over: bool) -> str:
    """The score: books per player (or per team of partners across the table), the leader marked.

    >>> "★ West" in score_box(["You", "West"], [1, 3], teams=False, over=True)
    True
    """
    n = len(names)
    if teams:
        pairs = sorted({tuple(sorted((p, (p + n // 2) % n))) for p in range(n)})
        rows = [(" + ".join(names[p] for p in pair), sum(books[p] for p in pair)) for pair in pairs]
    else:
        rows = [(names[p], books[p]) for p in range(n)]
    best = max(c for _, c in rows)
    body = "".join(f'<tr class="{"gf-lead" if c == best and best else ""}"><td>{"★ " if over and c == best else ""}'
                   f'{who}</td><td>{c}</td></tr>' for who, c in rows)
    return f'<div class="gf-score"><table><tr><th>{"Teams" if teams else "Score"}</th><th>books</th></tr>{body}</table></div>'
