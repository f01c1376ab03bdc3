"""The table's knowledge panel and hints: what the person can know, exactly, from their view alone.

- :func:`heatmap`: P(opponent holds at least one card of the rank), every opponent x rank,
  as a colored grid (the exact fraction in each cell's tooltip); beside it, optionally, the
  same from stated facts only (:meth:`~gofish_teach.probability.Facts.from_view`), cells
  where the two differ outlined.
- :func:`top_bars`: P(the ocean's top card is each rank), as bars.
- :func:`hint`: what the ``memory`` and ``greedy`` strategies would ask here, and why.

>>> from gofish_teach import Game, Rules
>>> from gofish_teach.probability import posterior
>>> game = Game(Rules.preset("pond"), 3, seed=1)
>>> view = game.view(0)
>>> html = heatmap(posterior(view), view, ["You", "West", "East"])
>>> html.count("<td") == 2 * 13
True
"""
from __future__ import annotations

from fractions import Fraction
from html import escape

import numpy as np

from ..cards import SUITS, name, plural
from ..events import Ask, Draw, Give
from ._words import count_of

#: The heatmap's color scale (GnBu): light for unlikely, deep blue for sure.
_STOPS = ((0.0, (247, 252, 240)), (0.25, (204, 235, 197)), (0.5, (123, 204, 196)),
          (0.75, (43, 140, 190)), (1.0, (8, 64, 129)))


def color(p: float) -> str:
    """The heatmap color of probability ``p``, as ``rgb(...)``.

    >>> color(0.0), color(1.0)
    ('rgb(247,252,240)', 'rgb(8,64,129)')
    """
    p = min(max(p, 0.0), 1.0)
    for (a, ca), (b, cb) in zip(_STOPS, _STOPS[1:], strict=False):
        if p <= b:
            t = (p - a) / (b - a)
            return "rgb(" + ",".join(str(round(x + t * (y - x))) for x, y in zip(ca, cb, strict=True)) + ")"
    return "rgb(8,64,129)"


def percent(p) -> str:
    """A probability for a cell: exactly 0 and exactly 1 are said plainly, tiny ones are not rounded to 0.

    >>> percent(Fraction(0)), percent(Fraction(1)), percent(Fraction(1, 1000)), percent(0.4166)
    ('0', '100%', '<1%', '42%')
    """
    if p == 0:
        return "0"
    if p == 1:
        return "100%"
    f = float(p)
    if f < 0.005:
        return "<1%"
    if f > 0.995:
        return ">99%"
    return f"{f:.0%}"


def _tip(p) -> str:
    if isinstance(p, Fraction) and p.denominator != 1:
        return f"exactly {p.numerator}/{p.denominator} ≈ {float(p):.4f}"
    return f"{float(p):.4f}"


def _grid(belief, view, names, seats, compare=None) -> str:
    booked = [r for b in view.books for r in b]
    gone = {r for r in view.ranks if booked.count(r) * view.rules.book_size >= len(SUITS)}
    counts = view.counts
    head = "".join(
        f'<th class="{"gf-held" if counts.get(r) else ""}" title="you hold {counts.get(r, 0)}">'
        f'{r}{"•" * counts.get(r, 0)}</th>' for r in view.ranks)
    rows = []
    for q in seats:
        cells = []
        for r in view.ranks:
            if r in gone:
                cells.append('<td class="gf-gone" title="all in books">·</td>')
                continue
            p = belief.p_holds(q, r)
            f = float(p)
            diff = compare is not None and abs(f - float(compare.p_holds(q, r))) >= 0.005
            ink = "#fff" if f > 0.55 else "#1b1b1b"
            tip = f"P({names[q]} holds at least one {name(r)}): {_tip(p)}"
            if diff:
                tip += f"; from stated facts only: {_tip(compare.p_holds(q, r))}"
            cells.append(f'<td class="{"gf-diff" if diff else ""}" style="background:{color(f)};color:{ink}" '
                         f'title="{escape(tip)}">{percent(p)}{"*" if diff else ""}</td>')
        rows.append(f'<tr><th style="text-align:right">{escape(names[q])}</th>{"".join(cells)}</tr>')
    return f'<table class="gf-heat"><tr><th></th>{head}</tr>{"".join(rows)}</table>'


def heatmap(belief, view, names, facts=None, facts_error: str | None = None) -> str:
    """The heatmap of P(holds >= 1) for every other seat x rank, and the stated-facts one beside it."""
    seats = [(view.player + k) % view.n_players for k in range(1, view.n_players)]
    kind = "exact" if belief.exact else "Monte Carlo estimate (beyond exact counting here)"
    left = (f'<div><h4>Who holds what? P(holds at least one), from your view ({kind})</h4>'
            f'{_grid(belief, view, names, seats, compare=facts)}</div>')
    legend = ('<div class="gf-note gf-legend">Each cell is the chance that the player holds at least one card '
              'of the rank (darker: more likely). A dot after a rank is one card of it in your hand; '
              '· marks a rank all in books.</div>')
    if facts is None and facts_error is None:
        return f'<div class="gf-heatmap">{left}{legend}</div>'
    if facts_error is not None:
        right = f'<div><h4>From stated facts only</h4><div class="gf-note">{escape(facts_error)}</div></div>'
        note = ""
    else:
        right = (f'<div><h4>From stated facts only (Facts.from_view)</h4>'
                 f'{_grid(facts, view, names, seats, compare=belief)}</div>')
        note = ('<div class="gf-note">Cells marked * (and outlined) differ by at least half a point: there the '
                'history (<i>when</i> a card was drawn, from an ocean you know something about) matters, and '
                'stated facts alone lose it.</div>')
    return (f'<div class="gf-heatmap"><div style="display:flex;gap:14px;flex-wrap:wrap">{left}{right}</div>'
            f'{legend}{note}</div>')


def top_bars(belief, view, asked: str | None = None) -> str:
    """Bars of P(the ocean's top card is each rank); the rank just asked for (a lucky draw) in gold."""
    if not view.ocean_size:
        return '<div class="gf-bars-box"><h4>The ocean is empty</h4></div>'
    probs = {r: belief.p_top(r) for r in view.ranks}
    top = max(float(p) for p in probs.values()) or 1.0
    bars = []
    for r, p in probs.items():
        height = 100 * float(p) / top
        cls = "gf-bar gf-asked" if r == asked else "gf-bar"
        mark = "★" if r == asked else ""
        bars.append(f'<div class="{cls}" title="P(top card is {name(r) if r in "AJQK" else r}): {escape(_tip(p))}">'
                    f'<span>{percent(p)}</span><div class="gf-track"><div class="gf-fill" style="height:{height:.1f}%">'
                    f'</div></div><span class="gf-rk">{r}{mark}</span></div>')
    lucky = (f'<div class="gf-note">The gold bar (★) is your chance of a lucky draw: '
             f'{float(probs[asked]):.1%} that the top card is one of the {plural(asked)} you asked for.</div>'
             if asked in probs else "")
    return (f'<div class="gf-bars-box"><h4>The ocean\'s top card ({view.ocean_size} cards in the ocean)</h4>'
            f'<div class="gf-bars">{"".join(bars)}</div>{lucky}</div>')


# ---------------------------------------------------------------------- hints
def _shown(event, seat: int) -> str:
    """How ``event`` showed that ``seat`` holds its rank, in words."""
    if isinstance(event, Ask):
        return f"asked for {plural(event.rank)}"
    if isinstance(event, Give):
        return f"was given {plural(event.rank)}"
    if isinstance(event, Draw) and event.lucky:
        return f"showed {event.cards[0]} from a lucky draw"
    return f"showed {plural(getattr(event, 'rank', '?'))}"


def _wanted(move) -> str:
    return f"the {move[1]}{move[2]}" if len(move) == 3 else plural(move[1])


def memory_hint(view, names) -> str:
    """What ``memory`` would ask, and the public event behind it."""
    from ..strategies import known_holdings, memory

    move = memory(view, np.random.default_rng(0))
    target, rank = move[0], move[1]
    known = known_holdings(view)
    t = known[target].get(rank)
    held = view.counts.get(rank, 0)
    if t is not None:
        why = (f"{names[target]} {_shown(view.events[t], target)} and has not been seen to lose them since; "
               f"you hold {count_of(held, rank)}.")
    else:
        why = (f"no opponent is known (from what they asked for, were given or showed) to hold a rank you hold, "
               f"so it asks for the rank you hold most of ({count_of(held, rank)}) from an opponent "
               f"picked at random.")
    return f"<b>memory</b> would ask <b>{escape(names[target])} for {_wanted(move)}</b>: {escape(why)}"


def greedy_ranking(belief, view) -> list[tuple]:
    """Legal asks best first as ``greedy`` ranks them: chance of success, then cards expected,
    then lowest rank, then lowest seat. Each entry is ``(target, rank, p, expected)``."""
    order = {r: i for i, r in enumerate(view.ranks)}
    scored = [(t, r, belief.p_holds(t, r), belief.expected_count(t, r)) for t, r in view.legal_asks()]
    return sorted(scored, key=lambda a: (-a[2], -a[3], order[a[1]], a[0]))


def greedy_hint(belief, view, names, show: int = 3) -> str:
    """What ``greedy`` would ask (the exact best chance of success), with the runners-up."""
    ranking = greedy_ranking(belief, view)
    if not ranking:
        return ""
    t, r, p, e = ranking[0]
    rows = "".join(f"<tr><td>{escape(names[q])} for {plural(k)}</td><td>P = {float(pk):.1%}</td>"
                   f"<td>expects {float(ek):.2f} cards</td></tr>" for q, k, pk, ek in ranking[:show])
    exact = "exact " if belief.exact else "estimated "
    return (f"<b>greedy</b> would ask <b>{escape(names[t])} for {plural(r)}</b>: the {exact}chance that "
            f"{escape(names[t])} holds at least one {name(r)} is {float(p):.1%}, the best of your "
            f"{len(ranking)} possible asks.<table class='gf-hint'>{rows}</table>")


def hint(view, names, belief=None) -> str:
    """Both hints as one HTML block (greedy needs the ``belief``; it is left out without one)."""
    parts = [memory_hint(view, names)]
    if belief is not None:
        parts.append(greedy_hint(belief, view, names))
    elif view.rules.specific_card:
        parts.append("<b>greedy</b> scores ranks, not single cards, so it has no hint under specific-card rules.")
    return '<div class="gf-hintbox"><h4>Hint: what would a bot ask?</h4>' + "<br>".join(parts) + "</div>"


#: What the knowledge panel and the hint show while their count waits for its own event.
COUNTING_NOTE = ('<div class="gf-note gf-counting" role="status">Counting… the exact chances after the last move '
                 'appear here shortly (dimmed: the chances before it).</div>')
COUNTING = ('<div class="gf-heatmap"><h4>Who holds what? P(holds at least one), from your view</h4>'
            '<div class="gf-note gf-counting">Counting… the exact chances for this moment of the game appear here shortly.</div></div>')
COUNTING_HINT = ('<div class="gf-hintbox"><h4>Hint: what would a bot ask?</h4>'
                 '<div class="gf-note gf-counting">Counting… the hint follows the knowledge panel\'s count.</div></div>')


def while_counting(heatmap: str, bars: str) -> tuple[str, str]:
    """The panel while its count waits: the chances shown before, dimmed, under a "Counting…" note laid
    over their heading, so the panel keeps its size and nothing jumps at each bot ask; the note alone
    when no chances were shown.

    >>> while_counting("", "")[0] == COUNTING
    True
    >>> heat, bars = while_counting('<table class="gf-heat"></table>', '<div class="gf-bars-box"></div>')
    >>> "gf-counting" in heat and 'class="gf-stale"' in heat and bars.startswith('<div class="gf-stale"')
    True
    >>> while_counting(heat, bars) == (heat, bars)   # counting again: dimmed once, not twice
    True
    """
    if 'class="gf-heat"' not in heatmap:
        return COUNTING, ""
    if not heatmap.startswith('<div class="gf-stale-box">'):
        heatmap = f'<div class="gf-stale-box">{COUNTING_NOTE}<div class="gf-stale" aria-hidden="true">{heatmap}</div></div>'
    if bars and not bars.startswith('<div class="gf-stale"'):
        bars = f'<div class="gf-stale" aria-hidden="true">{bars}</div>'
    return heatmap, bars
