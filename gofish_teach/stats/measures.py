"""Statistics of a tournament: win shares with intervals, paired comparisons, game length.

Every function takes :class:`~gofish_teach.simulate.Results` and returns a small object that
prints as a table (and shows as one in a notebook).

>>> from gofish_teach.simulate import simulate
>>> res = simulate(["memory", "random"], "family", games=200, seed=3)
>>> table = win_share(res)
>>> [row.label for row in table.rows]
['memory', 'random']
>>> round(sum(row.share for row in table.rows), 6)     # the shares of all entries add up to 1
1.0

**Ties.** Players tied for most books share the win; a k-way tie counts 1/k to each, so a
strategy's "wins" can be fractional and are not a binomial count. We still use the Wilson
interval, with the fractional total in place of the count. That is conservative: a game's
share lies in [0, 1], and any such variable with mean p has variance at most p(1 - p), the
variance of a plain win/lose game that Wilson assumes. Without ties it is exactly Wilson.
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

import numpy as np
from scipy import stats as sps


def wilson_interval(successes, n, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``successes / n`` (no continuity correction).

    ``successes`` may be fractional (see the module notes on ties).

    >>> low, high = wilson_interval(30, 100)
    >>> round(low, 4), round(high, 4)
    (0.2189, 0.3958)
    >>> ci = sps.binomtest(30, 100).proportion_ci(method="wilson")   # the same as scipy's
    >>> round(float(ci.low), 4), round(float(ci.high), 4)
    (0.2189, 0.3958)
    >>> wilson_interval(20, 20)[1], wilson_interval(0, 20)[0]         # every game won, none won
    (1.0, 0.0)
    """
    if n <= 0:
        raise ValueError(f"n must be positive, not {n!r}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence!r}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and n = {n!r}, not {successes!r}")
    z = sps.norm.ppf(0.5 + confidence / 2)
    p = successes / n
    centre = p + z * z / (2 * n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    # At the ends the formula's two terms cancel exactly on paper but not in floating point (20 of 20
    # gave 0.9999999999999998, below the estimate 1): the ends are set, and each side kept on its side
    # of the estimate, so that every interval holds its estimate and stays within [0, 1].
    low = 0.0 if successes == 0 else min(p, max(0.0, (centre - half) / scale))
    high = 1.0 if successes == n else max(p, min(1.0, (centre + half) / scale))
    return float(low), float(high)


# --------------------------------------------------------------------------- tables
def _html_table(header, rows, caption) -> str:
    head = "".join(f"<th>{escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    # A caption is as wide as its table: left to itself it would wrap, a word a line, over a narrow one.
    return (f'<table><caption style="caption-side: top; text-align: left; white-space: nowrap">'
            f"{escape(caption)}</caption><tr>{head}</tr>{body}</table>")


def text_table(header, rows, right=()) -> str:
    """Columns padded to line up; those in ``right`` (numbers) aligned right."""
    cells = [list(map(str, header))] + [list(map(str, r)) for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    return "\n".join("  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))).rstrip()
                     for row in cells)


# --------------------------------------------------------------------------- win share
@dataclass(frozen=True)
class ShareRow:
    """One strategy's (or seat's) record: ``wins`` counts a k-way tie as 1/k."""

    index: int
    label: str
    wins: float
    games: int
    share: float
    low: float
    high: float


@dataclass(frozen=True)
class WinShare:
    """Win share per lineup entry (or seat, or strategy name) with its interval."""

    by: str
    rows: tuple[ShareRow, ...]
    confidence: float
    games: int

    def header(self) -> list[str]:
        pct = f"{self.confidence:.0%}"
        return [{"entry": "#", "seat": "seat", "strategy": "#"}[self.by], "strategy", "win share", f"{pct} interval"]

    def cells(self) -> list[list[str]]:
        return [[r.index, r.label, f"{r.share:.3f}", f"[{r.low:.3f}, {r.high:.3f}]"] for r in self.rows]

    def caption(self) -> str:
        return f"Win share by {self.by} over {self.games:,} games (a k-way tie counts 1/k)"

    def table(self) -> str:
        """The rows as plain text, without the caption."""
        return text_table(self.header(), self.cells(), right=(2,))

    def __repr__(self) -> str:
        return self.caption() + "\n" + self.table()

    def _repr_html_(self) -> str:
        return _html_table(self.header(), self.cells(), self.caption())


def win_share(results, by: str = "entry", confidence: float = 0.95) -> WinShare:
    """Each lineup entry's share of the wins, with a Wilson interval.

    ``by="entry"``: one row per lineup entry (the usual view: seats rotate, so this is the
    strategy's record from every seat); ``"seat"``: one row per seat, whoever sat there
    (shows the first-mover advantage); ``"strategy"``: entries with the same strategy name
    pooled, the share of games won by any of them.

    >>> from gofish_teach.simulate import simulate
    >>> win_share(simulate(["random"] * 4, "pond", games=10_000, seed=0), by="seat")
    Win share by seat over 10,000 games (a k-way tie counts 1/k)
    seat  strategy  win share  95% interval
    0     random        0.261  [0.253, 0.270]
    1     random        0.251  [0.243, 0.260]
    2     random        0.249  [0.240, 0.257]
    3     random        0.239  [0.231, 0.247]
    """
    if by == "strategy":
        names = list(dict.fromkeys(results.lineup))
        entry_shares = results.shares("entry")
        shares = np.stack([entry_shares[:, [i for i, s in enumerate(results.lineup) if s == name]].sum(axis=1)
                           for name in names], axis=1)
        labels = names
    elif by in ("entry", "seat"):
        shares = results.shares(by)
        # A seat is played by every entry in turn; name the strategy only when all are the same.
        seat_label = results.lineup[0] if len(set(results.lineup)) == 1 else "(rotating)"
        labels = list(results.lineup) if by == "entry" else [seat_label] * results.n_players
    else:
        raise ValueError(f"by must be 'entry', 'seat' or 'strategy', not {by!r}")
    games = results.games
    rows = []
    for i, label in enumerate(labels):
        wins = float(shares[:, i].sum())
        low, high = wilson_interval(wins, games, confidence)
        rows.append(ShareRow(i, label, wins, games, wins / games, low, high))
    return WinShare(by, tuple(rows), confidence, games)


# --------------------------------------------------------------------------- verdict
#: Below this many games :func:`verdict` gives no verdict from its score test, only the p-value:
#: the score test leans on the normal approximation, which a handful of games does not support.
#: The exact binomial test needs no such floor: its p-value is right at any number of games.
MIN_GAMES = 30


@dataclass(frozen=True)
class Verdict:
    """A win share read against a fair share: the words, the test's p-value and how it was made.

    ``text`` is "more than its fair share", "less than its fair share", "not distinguishable
    from its fair share" or (a score test on too few games) "too few games for a verdict";
    ``pvalue`` is two-sided.
    """

    text: str
    pvalue: float
    method: str
    games: int
    alpha: float

    @property
    def p_text(self) -> str:
        """``"p = 0.031"``; a p-value too small for a float to hold shows as ``"p < 1e-300"``."""
        return f"p = {self.pvalue:.2g}" if self.pvalue > 0 else "p < 1e-300"

    def __str__(self) -> str:
        return f"{self.text} ({self.p_text}, {self.method})"


def verdict(row: ShareRow, fair: float, *, ties: int | None = None, alpha: float = 0.05,
            min_games: int = MIN_GAMES) -> Verdict:
    """Is a win share (a :class:`ShareRow` of :func:`win_share`) above or below ``fair``?

    The test is two-sided at level ``alpha``, and its name says what the p-value rests on.
    ``ties`` is how many of the row's games were tied (shared: a share between 0 and 1); a
    row does not carry it, so pass it when you know it (``ties=0`` when no game can tie).

    - No tied games (``ties=0``): the wins are a binomial count, and the p-value is the
      **exact binomial test**'s (``scipy.stats.binomtest``).
    - Tied games (``ties > 0``, or fractional wins): a **score test** with the null variance
      ``fair * (1 - fair)``, an upper bound on the variance of a share in [0, 1] (see the
      module notes), so it errs on the side of no verdict. Shares of tied games can add up to
      whole wins (three halves and a half make two): whole wins alone do not make the test exact.
    - Ties unknown and whole wins: the binomial test's p-value, named "binomial test (exact
      only if no game was tied)".

    The binomial test is exact at any number of games, so it gives a verdict from six games as
    from six thousand: few games show as a large p-value. The score test is a normal
    approximation: below ``min_games`` games its text is "too few games for a verdict", whatever
    the p-value. To read several verdicts at once, divide ``alpha`` by their number
    (Bonferroni), so that all of them together raise a false alarm at most ``alpha`` of the time.

    >>> from gofish_teach.simulate import simulate
    >>> six = win_share(simulate(["greedy", "random"], "family", games=6, seed=2)).rows[0]
    >>> six.wins, six.games
    (6.0, 6)
    >>> v = verdict(six, 1 / 2, ties=0)     # two players under family rules never tie
    >>> v.text, round(v.pvalue, 4), v.method
    ('more than its fair share', 0.0312, 'exact binomial test')
    >>> verdict(six, 1 / 2, ties=0, alpha=0.05 / 7).text    # one of seven read together: 0.0312 > 0.0071
    'not distinguishable from its fair share'
    >>> verdict(ShareRow(0, "x", 5.5, 6, 5.5 / 6, *wilson_interval(5.5, 6)), 1 / 2, ties=1).text
    'too few games for a verdict'
    >>> row = ShareRow(0, "memory", 560, 1000, 0.56, *wilson_interval(560, 1000))
    >>> print(verdict(row, 1 / 2, ties=0))
    more than its fair share (p = 0.00017, exact binomial test)
    >>> print(verdict(row, 1 / 2, ties=40))
    more than its fair share (p = 0.00015, score test (40 tied games: conservative))
    >>> verdict(row, 1 / 2).method
    'binomial test (exact only if no game was tied)'
    >>> verdict(row, 1 / 2, ties=0, alpha=0.05 / 7).text    # one of seven verdicts read together
    'more than its fair share'
    """
    if not 0 < fair < 1:
        raise ValueError(f"fair must be a share between 0 and 1, not {fair!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, not {alpha!r}")
    n, wins = row.games, row.wins
    whole = float(wins).is_integer()
    if ties is not None:
        if isinstance(ties, bool) or not float(ties).is_integer() or not 0 <= ties <= n:
            raise ValueError(f"ties must be a whole number of games from 0 to {n}, not {ties!r}")
        ties = int(ties)
        if ties == 0 and not whole:
            raise ValueError(f"ties=0, but the wins {wins!r} are fractional: some game was tied")
    if whole and ties == 0:
        pvalue, method = float(sps.binomtest(int(wins), n, fair).pvalue), "exact binomial test"
    elif whole and ties is None:
        pvalue = float(sps.binomtest(int(wins), n, fair).pvalue)
        method = "binomial test (exact only if no game was tied)"
    else:
        z = (wins / n - fair) / np.sqrt(fair * (1 - fair) / n)
        pvalue = float(2 * sps.norm.sf(abs(z)))
        method = f"score test ({ties:,} tied games: conservative)" if ties else "score test (tied games: conservative)"
    if n < min_games and method.startswith("score test"):
        text = "too few games for a verdict"
    elif pvalue >= alpha:
        text = "not distinguishable from its fair share"
    else:
        text = "more than its fair share" if wins / n > fair else "less than its fair share"
    return Verdict(text, pvalue, method, n, alpha)


# --------------------------------------------------------------------------- cluster bootstrap
def cluster_bootstrap_ratio(numerators, denominators, *, resamples: int = 2000, confidence: float = 0.95,
                            seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A ratio of totals, ``sum(numerators) / sum(denominators)``, with a cluster-bootstrap interval.

    Row ``i`` holds cluster ``i``'s totals (say, one game position: its hits and its answers in
    each calibration bin, one column per bin). Answers from one cluster are not independent,
    so the clusters, not the answers, are resampled with replacement; the interval is the
    percentile interval of the resampled ratios (a column with no answers in a resample is
    left out of that column's interval; a column with no answers at all gets ``nan``).
    Returns ``(estimate, low, high)``, one value per column.

    >>> hits = [[1, 0], [2, 1], [0, 1], [3, 0]]         # 4 clusters, 2 bins
    >>> answers = [[2, 1], [3, 1], [1, 2], [3, 1]]
    >>> est, low, high = cluster_bootstrap_ratio(hits, answers, resamples=500)
    >>> est.tolist()                                     # 6/9 and 2/5
    [0.6666666666666666, 0.4]
    >>> bool(((low <= est) & (est <= high)).all())
    True
    """
    num = np.asarray(numerators, float)
    den = np.asarray(denominators, float)
    if num.ndim == 1:
        num, den = num[:, None], den[:, None]
    if num.shape != den.shape or len(num) < 2:
        raise ValueError("numerators and denominators: one row per cluster, the same shape, two clusters or more")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence!r}")
    k = len(num)
    weights = np.random.default_rng(seed).multinomial(k, np.full(k, 1 / k), size=resamples)  # times each cluster is drawn
    top, bottom = weights @ num, weights @ den
    with np.errstate(invalid="ignore", divide="ignore"):
        ratios = np.where(bottom > 0, top / np.where(bottom > 0, bottom, 1), np.nan)
    tail = (1 - confidence) / 2 * 100
    low, high = np.full(num.shape[1], np.nan), np.full(num.shape[1], np.nan)
    some = ~np.isnan(ratios).all(axis=0)  # a column without answers anywhere has no interval (nan)
    low[some], high[some] = np.nanpercentile(ratios[:, some], [tail, 100 - tail], axis=0)
    total = den.sum(axis=0)
    estimate = np.divide(num.sum(axis=0), total, out=np.full(num.shape[1], np.nan), where=total > 0)
    return estimate, low, high


# --------------------------------------------------------------------------- paired test
@dataclass(frozen=True)
class PairedTest:
    """A game-by-game comparison of two win shares on the same decks."""

    label_a: str
    label_b: str
    games: int
    share_a: float
    share_b: float
    difference: float
    low: float
    high: float
    confidence: float
    method: str
    statistic: float
    pvalue: float
    differing: int

    def __repr__(self) -> str:
        return (f"{self.label_a} vs {self.label_b} on {self.games:,} common decks: win share "
                f"{self.share_a:.3f} vs {self.share_b:.3f}, difference {self.difference:+.3f} "
                f"({self.confidence:.0%} interval {self.low:+.3f} to {self.high:+.3f}); "
                f"{self.method}: p = {self.pvalue:.3g} ({self.differing:,} games differ)")

    def _repr_html_(self) -> str:
        return f"<p>{escape(repr(self))}</p>"


def paired_test(a, b=None, *, entry: int = 0, other: int | None = None, method: str = "t",
                confidence: float = 0.95) -> PairedTest:
    """Is lineup entry ``entry`` of ``a`` better than entry ``other`` of ``b``, deck for deck?

    Two runs with the same seed, games, players and deck size were dealt the same decks, so
    their games pair up: the test looks at the per-game difference of win shares, which
    removes the luck of the deal that both sides shared. With ``b=None`` two entries of the
    one run ``a`` are compared (``other`` is then required).

    ``method``: ``"t"`` (paired t-test, ``scipy.stats.ttest_rel``) or ``"wilcoxon"``
    (signed-rank test, ``scipy.stats.wilcoxon``; games with no difference are dropped).
    The interval is always the t interval of the mean difference.

    >>> from gofish_teach.simulate import simulate
    >>> mem = simulate(["memory", "random"], "family", games=300, seed=2)
    >>> rnd = simulate(["random", "random"], "family", games=300, seed=2)
    >>> test = paired_test(mem, rnd)    # memory in entry 0, against random in the same seats
    >>> test.games, test.label_a, test.label_b
    (300, 'memory (a, entry 0)', 'random (b, entry 0)')
    """
    if method not in ("t", "wilcoxon"):
        raise ValueError(f"method must be 't' or 'wilcoxon', not {method!r}")
    if b is None:
        if other is None:
            raise ValueError("other: to compare two entries of one run, say which: paired_test(res, entry=0, other=1)")
        b = a
    other = entry if other is None else other
    if b is not a:
        # What makes the decks (and the seat rotation) common; the rules themselves may differ.
        for field, get in (("seed", lambda r: r.seed), ("games", lambda r: r.games),
                           ("n_players", lambda r: r.n_players), ("deck size", lambda r: r.rules.deck_size)):
            if get(a) != get(b):
                raise ValueError(f"b: the runs differ in {field} ({get(a)!r} vs {get(b)!r}), so they were not "
                                 "dealt the same decks; run both with the same seed, games, players and deck")
    for name, res, k in (("entry", a, entry), ("other", b, other)):
        if not 0 <= k < res.n_players:
            raise ValueError(f"{name} must be a lineup entry, 0 to {res.n_players - 1}, not {k!r}")
    xa, xb = a.shares("entry")[:, entry], b.shares("entry")[:, other]
    diff = xa - xb
    if not diff.any():  # identical outcomes in every game: no evidence of a difference
        statistic, pvalue, low, high = 0.0, 1.0, 0.0, 0.0
    else:
        ttest = sps.ttest_rel(xa, xb)
        ci = ttest.confidence_interval(confidence)
        statistic, pvalue, low, high = ttest.statistic, ttest.pvalue, ci.low, ci.high
        if method == "wilcoxon":
            statistic, pvalue = sps.wilcoxon(diff)
    names = ("a", "b") if b is not a else ("", "")
    label_a = f"{a.lineup[entry]} ({names[0] + ', ' if names[0] else ''}entry {entry})"
    label_b = f"{b.lineup[other]} ({names[1] + ', ' if names[1] else ''}entry {other})"
    return PairedTest(label_a, label_b, a.games, float(xa.mean()), float(xb.mean()), float(diff.mean()),
                      float(low), float(high), confidence, "paired t-test" if method == "t" else "Wilcoxon signed-rank",
                      float(statistic), float(pvalue), int(np.count_nonzero(diff)))


# --------------------------------------------------------------------------- game length
@dataclass(frozen=True)
class GameLength:
    """The distribution of asks per game; ``counts[k]`` is how many games took ``k`` asks."""

    games: int
    mean: float
    sd: float
    low: float
    high: float
    median: float
    q05: float
    q95: float
    shortest: int
    longest: int
    counts: np.ndarray
    confidence: float = 0.95

    def cells(self) -> list[tuple[str, str]]:
        pct = f"{self.confidence:.0%}"
        return [("games", f"{self.games:,}"), ("mean asks", f"{self.mean:.1f}"),
                (f"{pct} interval of the mean", f"[{self.low:.1f}, {self.high:.1f}]"),
                ("sd", f"{self.sd:.1f}"), ("median", f"{self.median:g}"),
                ("5% to 95%", f"{self.q05:g} to {self.q95:g}"), ("shortest, longest", f"{self.shortest}, {self.longest}")]

    def __repr__(self) -> str:
        return "Game length (asks per game)\n" + text_table(["", "value"], self.cells(), right=(1,))

    def _repr_html_(self) -> str:
        return _html_table(["", "value"], self.cells(), "Game length (asks per game)")


def game_length(results, confidence: float = 0.95) -> GameLength:
    """Summary of the asks per game, with a t interval for the mean.

    >>> from gofish_teach.simulate import simulate
    >>> length = game_length(simulate(["random"] * 2, "pond", games=50, seed=0))
    >>> length.games, int(length.counts.sum()), length.shortest <= length.median <= length.longest
    (50, 50, True)
    """
    asks = np.asarray(results.asks if hasattr(results, "asks") else results)
    n = len(asks)
    mean = float(asks.mean())
    sd = float(asks.std(ddof=1)) if n > 1 else 0.0
    if n > 1 and sd > 0:
        low, high = sps.t.interval(confidence, n - 1, loc=mean, scale=sd / np.sqrt(n))
    else:
        low = high = mean
    q05, median, q95 = np.quantile(asks, [0.05, 0.5, 0.95])
    return GameLength(n, mean, sd, float(low), float(high), float(median), float(q05), float(q95),
                      int(asks.min()), int(asks.max()), np.bincount(asks), confidence)
