"""Win shares (ties count 1/k), Wilson intervals, the paired test, game length, plots."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from scipy import stats as sps  # noqa: E402

from gofish_teach import Rules  # noqa: E402
from gofish_teach.simulate import Results, simulate  # noqa: E402
from gofish_teach.stats import (  # noqa: E402
    game_length,
    paired_test,
    plot_game_length,
    plot_win_share,
    wilson_interval,
    win_share,
)


def made_up(winners, lineup=("memory", "random", "random"), seed=0, asks=None, rotate=False) -> Results:
    """Results with the given winners by seat, without playing (seats rotate only if asked)."""
    winners = np.asarray(winners, bool)
    games, n = winners.shape
    offset = np.arange(games) % n if rotate else np.zeros(games, int)
    return Results(lineup=tuple(lineup), rules=Rules.preset("pond"), n_players=n, seed=seed,
                   winners=winners, books=winners * 13 // winners.sum(axis=1, keepdims=True),
                   asks=np.asarray(asks if asks is not None else [50] * games), first=np.zeros(games, int),
                   offset=offset, seat_entry=(np.arange(n) + offset[:, None]) % n)


# --------------------------------------------------------------------------- win share
def test_a_k_way_tie_counts_one_kth_to_each_winner():
    res = made_up([[1, 0, 0],    # seat 0 alone
                   [1, 1, 0],    # two-way tie: 1/2 each
                   [1, 1, 1],    # three-way tie: 1/3 each
                   [0, 0, 1]])
    rows = win_share(res).rows
    assert [r.wins for r in rows] == pytest.approx([1 + 1 / 2 + 1 / 3, 1 / 2 + 1 / 3, 1 / 3 + 1])
    assert [r.share for r in rows] == pytest.approx([r.wins / 4 for r in rows])
    assert sum(r.share for r in rows) == pytest.approx(1)


def test_shares_by_entry_follow_the_rotation():
    res = made_up([[1, 0], [1, 0], [1, 0], [1, 0]], lineup=("memory", "random"), rotate=True)
    assert [r.share for r in win_share(res, by="seat").rows] == [1, 0]     # seat 0 always won
    assert [r.share for r in win_share(res, by="entry").rows] == [0.5, 0.5]  # each entry sat there half the time
    assert win_share(res, by="seat").rows[0].label == "(rotating)"


def test_entries_with_one_strategy_pool_by_strategy():
    res = made_up([[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 1, 1]])
    by_strategy = win_share(res, by="strategy").rows
    assert [(r.label, r.wins) for r in by_strategy] == [("memory", 1), ("random", 3)]


def test_wilson_interval_equals_scipys():
    for successes, n in [(0, 10), (1, 10), (30, 100), (512, 1000), (999, 1000), (20_000, 20_000)]:
        ci = sps.binomtest(successes, n).proportion_ci(confidence_level=0.95, method="wilson")
        assert wilson_interval(successes, n) == pytest.approx((ci.low, ci.high), abs=1e-12)
    ci = sps.binomtest(7, 40).proportion_ci(confidence_level=0.9, method="wilson")
    assert wilson_interval(7, 40, confidence=0.9) == pytest.approx((ci.low, ci.high), abs=1e-12)


@settings(max_examples=400, deadline=None)
@given(n=st.integers(1, 10**9), edge=st.sampled_from(["none", "all", "one", "all but one", "any", "half"]),
       fraction=st.floats(0, 1), confidence=st.sampled_from([0.5, 0.9, 0.95, 0.99, 0.999]))
def test_every_interval_contains_its_estimate_and_stays_within_0_and_1(n, edge, fraction, confidence):
    """At the edges too: every game won (n of n), none won, and fractional counts (ties)."""
    successes = {"none": 0, "all": n, "one": min(1, n), "all but one": n - 1, "any": round(fraction * n),
                 "half": fraction * n}[edge]
    low, high = wilson_interval(successes, n, confidence)
    p = successes / n
    assert 0.0 <= low <= p <= high <= 1.0, (successes, n, low, high)
    assert (successes > 0 or low == 0.0) and (successes < n or high == 1.0)


def test_all_or_nothing_has_the_exact_ends():
    assert wilson_interval(20, 20)[1] == 1.0 and wilson_interval(0, 20)[0] == 0.0
    assert wilson_interval(20, 20)[0] == pytest.approx(sps.binomtest(20, 20).proportion_ci(method="wilson").low)


def test_a_fractional_count_gets_an_interval_between_its_neighbours():
    low, high = wilson_interval(30.5, 100)
    assert wilson_interval(30, 100)[0] < low < wilson_interval(31, 100)[0]
    assert wilson_interval(30, 100)[1] < high < wilson_interval(31, 100)[1]


def test_win_share_table_prints_and_shows_in_a_notebook():
    table = win_share(made_up([[1, 0, 0], [0, 1, 1]]))
    text, html = repr(table), table._repr_html_()
    assert "0  memory        0.500" in text and "95% interval" in text
    assert html.startswith("<table>") and "<td>memory</td>" in html


# --------------------------------------------------------------------------- paired test
def test_paired_test_on_a_constructed_case():
    # Entry 0 wins games 0-5 in run a; in run b it wins games 0-1 and ties game 2.
    a = made_up([[1, 0, 0]] * 6 + [[0, 1, 0]] * 4)
    b = made_up([[1, 0, 0]] * 2 + [[1, 1, 0]] + [[0, 0, 1]] * 7)
    diff = np.array([0, 0, 0.5, 1, 1, 1, 0, 0, 0, 0])
    test = paired_test(a, b)
    assert (test.share_a, test.share_b, test.difference) == pytest.approx((0.6, 0.25, 0.35))
    t = diff.mean() / (diff.std(ddof=1) / np.sqrt(10))
    assert test.statistic == pytest.approx(t) and test.pvalue == pytest.approx(2 * sps.t.sf(t, 9))
    half = sps.t.ppf(0.975, 9) * diff.std(ddof=1) / np.sqrt(10)
    assert (test.low, test.high) == pytest.approx((0.35 - half, 0.35 + half))
    assert test.differing == 4
    wilcoxon = paired_test(a, b, method="wilcoxon")
    assert wilcoxon.pvalue == pytest.approx(sps.wilcoxon(diff).pvalue)
    assert "paired t-test" in repr(test) and "Wilcoxon" in repr(wilcoxon)


def test_paired_test_of_two_entries_in_one_run():
    res = made_up([[1, 0, 0], [1, 0, 0], [0, 1, 0], [1, 0, 0]])
    test = paired_test(res, entry=0, other=1)
    assert test.difference == pytest.approx(0.5) and test.label_a == "memory (entry 0)"


def test_identical_runs_show_no_difference():
    res = simulate(["random", "random"], "pond", 20, seed=1)
    test = paired_test(res, simulate(["random", "random"], "pond", 20, seed=1))
    assert (test.difference, test.pvalue, test.differing) == (0, 1, 0)


@pytest.mark.parametrize("b, kwargs, message", [
    (made_up([[1, 0, 0]] * 3, seed=1), {}, "b: the runs differ in seed"),
    (made_up([[1, 0, 0]] * 4), {}, "b: the runs differ in games"),
    (made_up([[1, 0, 0]] * 3), dict(entry=3), "entry must be a lineup entry"),
    (made_up([[1, 0, 0]] * 3), dict(method="z"), "method must be"),
    (None, {}, "other: to compare two entries"),
])
def test_paired_test_refuses_runs_that_do_not_pair(b, kwargs, message):
    with pytest.raises(ValueError, match=message):
        paired_test(made_up([[1, 0, 0]] * 3), b, **kwargs)


def test_memory_beats_random_on_common_decks():
    mem = simulate(["memory", "random"], "pond", 3000, seed=5, workers=1)
    rnd = simulate(["random", "random"], "pond", 3000, seed=5, workers=1)
    test = paired_test(mem, rnd)
    assert test.difference > 0 and test.pvalue < 0.01


# --------------------------------------------------------------------------- game length
def test_game_length_summary():
    length = game_length(made_up([[1, 0, 0]] * 5, asks=[40, 50, 50, 60, 100]))
    assert (length.games, length.mean, length.median, length.shortest, length.longest) == (5, 60, 50, 40, 100)
    assert length.counts[50] == 2 and length.counts.sum() == 5
    assert length.low < 60 < length.high
    assert "mean asks" in repr(length) and "<table>" in length._repr_html_()


# --------------------------------------------------------------------------- plots
def test_a_strategy_that_never_wins_is_plotted():
    """Every game won by seat 0: shares of exactly 1 and 0, intervals touching the ends."""
    ax = plot_win_share(made_up([[1, 0, 0]] * 100))
    assert ax.get_xlabel() == "win share (95% interval)"
    plt.close("all")


def test_plots_return_their_axes():
    res = simulate(["memory", "random", "random"], "pond", 30, seed=0)
    ax = plot_win_share(res)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["0: memory", "1: random", "2: random"]
    other = simulate(["random"] * 3, "pond", 30, seed=0)
    ax = plot_game_length({"memory": res, "random": other})
    assert ax.get_ylabel() == "fraction of games" and len(ax.get_legend().get_texts()) == 2
    plt.close("all")


# --------------------------------------------------------------------------- verdict
from gofish_teach.stats import ShareRow, cluster_bootstrap_ratio, verdict  # noqa: E402
from gofish_teach.stats.measures import MIN_GAMES  # noqa: E402


def _row(wins, games):
    return ShareRow(0, "x", wins, games, wins / games, *wilson_interval(wins, games))


def test_verdict_uses_the_exact_binomial_test_without_ties():
    v = verdict(_row(40, 60), 1 / 2, ties=0)
    assert v.method == "exact binomial test"
    assert v.pvalue == pytest.approx(sps.binomtest(40, 60, 0.5).pvalue)
    assert v.text == "more than its fair share"
    assert verdict(_row(10, 60), 1 / 4).text == "not distinguishable from its fair share"
    assert verdict(_row(3, 60), 1 / 4).text == "less than its fair share"


def test_the_exact_test_gives_a_verdict_at_any_number_of_games():
    """An exact binomial test is valid at any n: few games show as a large p-value, not as a refusal."""
    six = verdict(_row(6, 6), 1 / 2, ties=0)
    assert six.method == "exact binomial test" and six.pvalue == pytest.approx(1 / 32)
    assert six.text == "more than its fair share" and "p = 0.031" in str(six)
    assert verdict(_row(6, 6), 1 / 2, ties=0, alpha=0.05 / 7).text == "not distinguishable from its fair share"
    assert verdict(_row(6, 6), 1 / 2).text == "more than its fair share"  # ties unknown: the binomial p-value


def test_the_score_test_refuses_a_verdict_below_the_minimum_number_of_games():
    few = verdict(_row(5.5, 6), 1 / 2, ties=1)
    assert few.method.startswith("score test") and few.pvalue < 0.05
    assert few.text == "too few games for a verdict"
    assert verdict(_row(5.5, 6), 1 / 2, ties=1, min_games=5).text == "more than its fair share"
    assert MIN_GAMES == 30


def test_verdict_with_ties_uses_a_conservative_score_test():
    v = verdict(_row(280.5, 1000), 1 / 4)
    z = (0.2805 - 0.25) / np.sqrt(0.25 * 0.75 / 1000)
    assert v.method.startswith("score test") and v.pvalue == pytest.approx(2 * sps.norm.sf(z))


def test_verdict_never_calls_a_run_with_ties_exact_even_when_its_shares_add_up_to_whole_wins():
    """Lesson 6's run: 2,777 of 20,000 games tied, yet the shares add up to 14,432.0 wins. The
    binomial test is exact only for untied games: with ties it is the conservative score test,
    and with the ties unknown the label says what the p-value rests on."""
    row = _row(14_432.0, 20_000)
    tied = verdict(row, 1 / 4, ties=2_777)
    z = (14_432 / 20_000 - 0.25) / np.sqrt(0.25 * 0.75 / 20_000)
    assert tied.method == "score test (2,777 tied games: conservative)"
    assert tied.pvalue == pytest.approx(2 * sps.norm.sf(z)) and tied.text == "more than its fair share"
    unknown = verdict(_row(40, 60), 1 / 2)
    assert "exact" not in unknown.method.replace("exact only if", "")
    assert unknown.method == "binomial test (exact only if no game was tied)"
    assert unknown.pvalue == pytest.approx(sps.binomtest(40, 60, 0.5).pvalue)
    assert verdict(_row(40.5, 60), 1 / 2).method.startswith("score test")  # fractional wins: ties for sure


@pytest.mark.parametrize("ties, message", [(-1, "ties"), (61, "ties"), (2.5, "ties"), (True, "ties")])
def test_verdict_names_a_bad_count_of_ties(ties, message):
    with pytest.raises(ValueError, match=message):
        verdict(_row(40, 60), 1 / 2, ties=ties)


def test_verdict_refuses_fractional_wins_said_to_have_no_ties():
    with pytest.raises(ValueError, match="ties=0"):
        verdict(_row(40.5, 60), 1 / 2, ties=0)


def test_verdict_with_a_bonferroni_alpha_is_harder_to_pass():
    row = _row(37, 60)  # p about 0.09 against 1/2: fails at 0.05 too; 40/60 passes 0.05 but not 0.05/100
    assert verdict(_row(40, 60), 1 / 2).text == "more than its fair share"
    assert verdict(_row(40, 60), 1 / 2, alpha=0.05 / 100).text == "not distinguishable from its fair share"
    assert verdict(row, 1 / 2).text == "not distinguishable from its fair share"


@pytest.mark.parametrize("kwargs, field", [({"fair": 0}, "fair"), ({"fair": 1.5}, "fair"),
                                           ({"fair": 0.5, "alpha": 1}, "alpha")])
def test_verdict_names_a_bad_argument(kwargs, field):
    with pytest.raises(ValueError, match=field):
        verdict(_row(5, 50), **kwargs)


# --------------------------------------------------------------------------- cluster bootstrap
def test_cluster_bootstrap_with_one_answer_per_cluster_matches_the_binomial_spread():
    rng = np.random.default_rng(0)
    hits = (rng.random(400) < 0.3).astype(float)
    est, low, high = cluster_bootstrap_ratio(hits, np.ones(400), resamples=4000)
    se = np.sqrt(est[0] * (1 - est[0]) / 400)
    assert est[0] == pytest.approx(hits.mean())
    assert high[0] - low[0] == pytest.approx(2 * 1.96 * se, rel=0.15)


def test_cluster_bootstrap_widens_when_the_answers_in_a_cluster_move_together():
    rng = np.random.default_rng(1)
    per_cluster = (rng.random(100) < 0.5).astype(float)
    together = cluster_bootstrap_ratio(per_cluster * 10, np.full(100, 10.0))  # 10 identical answers each
    apart = cluster_bootstrap_ratio((rng.random(1000) < 0.5).astype(float), np.ones(1000))
    assert (together[2] - together[1])[0] > 2.5 * (apart[2] - apart[1])[0]


def test_cluster_bootstrap_is_seeded_and_leaves_out_empty_resamples():
    hits, answers = [[1, 0], [0, 0], [2, 1]], [[2, 0], [1, 0], [2, 1]]  # bin 2 has answers in one cluster only
    first, second = cluster_bootstrap_ratio(hits, answers, seed=5), cluster_bootstrap_ratio(hits, answers, seed=5)
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))
    assert first[1][1] == first[2][1] == 1.0


def test_cluster_bootstrap_names_a_shape_mismatch():
    with pytest.raises(ValueError, match="numerators and denominators"):
        cluster_bootstrap_ratio([[1, 2]], [[1, 2]])
    with pytest.raises(ValueError, match="numerators and denominators"):
        cluster_bootstrap_ratio([1, 2, 3], [[1], [2], [3]])


def test_cluster_bootstrap_gives_nan_for_a_column_without_answers_and_no_warning():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est, low, high = cluster_bootstrap_ratio([[1, 0], [0, 0]], [[1, 0], [2, 0]])
    assert est[0] == pytest.approx(1 / 3) and np.isnan([est[1], low[1], high[1]]).all()


def test_verdict_shows_a_p_value_that_underflows_as_a_bound():
    v = verdict(_row(7200, 10_000), 1 / 4)
    assert v.pvalue == 0 and "p < 1e-300" in str(v)


def test_several_game_length_outlines_differ_in_line_style_not_colour_alone():
    runs = {name: made_up([[1, 0, 0]] * 5, asks=[40, 41, 41, 42, 45]) for name in ("a", "b", "c")}
    ax = plot_game_length(runs)
    styles = [patch.get_linestyle() for patch in ax.patches]
    assert len(set(styles)) == 3
    plt.close("all")
