"""The strategy lab, driven without a browser: set control values, click "run", and check that what
it shows is what simulate / stats compute for the same lineup and seed; errors are messages."""
from html import escape

import numpy as np
import pytest

from gofish_teach.simulate import simulate
from gofish_teach.stats import paired_test, win_share
from gofish_teach.strategies import most_held
from gofish_teach.widgets import Lab


# Learners' strategies, at the top of the module so a cluster can receive them.
def builder(view, rng):
    """Build on your pairs (the built-in most_held, under a learner's name)."""
    return most_held(view, rng)


def clumsy(view, rng):
    return 1 // 0


def asks_itself(view, rng):
    return view.player, view.hand[0].rank


def fewest(view, rng):
    """Ask the first opponent for the rank you hold fewest of: against two memory players, seldom a win."""
    counts = view.counts
    return min(q for q in range(view.n_players) if q != view.player), min(counts, key=lambda r: (counts[r], r))


def same_games(a, b) -> bool:
    return (a.lineup == b.lineup and a.seed == b.seed and np.array_equal(a.winners, b.winners)
            and np.array_equal(a.books, b.books) and np.array_equal(a.asks, b.asks))


def test_a_run_shows_what_simulate_and_stats_compute():
    lab = Lab(rules="family", players=3, games=150, seed=4)
    assert [m.value for m in lab.lineup] == ["memory", "random", "random"]
    assert [m.value for m in lab.baseline_lineup] == ["random"] * 3
    lab.run.click()
    assert lab.message == ""
    expected = simulate(["memory", "random", "random"], "family", 150, seed=4)
    base = simulate(["random"] * 3, "family", 150, seed=4)
    assert same_games(lab.results, expected) and same_games(lab.baseline, base)
    assert lab.share_html.value == win_share(expected)._repr_html_()
    test = paired_test(expected, base, entry=0)
    assert lab.paired == test
    assert f"difference {test.difference:+.3f} (95% interval {test.low:+.3f} to {test.high:+.3f})" in \
        lab.paired_html.value
    assert "family rules, 3 players, 150 games, seed 4" in lab.status_html.value
    assert "played at full speed" in lab.status_html.value and "engine" not in lab.status_html.value  # no jargon
    shares, lengths = lab.figure.axes
    assert shares.get_title() == "Win share by entry, 150 games" and shares.get_xlabel() == "win share (95% interval)"
    assert lengths.get_title() == "Game length" and lengths.get_xlabel() == "asks per game"
    assert lengths.get_legend_handles_labels()[1] == ["lineup", "baseline"]
    assert lab.image.value[:4] == b"\x89PNG"


def test_the_same_seed_gives_the_same_numbers_and_another_seed_others():
    lab = Lab(rules="pond", players=2, games=120, seed=9)
    lab.run.click()
    first, shown = lab.results, (lab.share_html.value, lab.paired_html.value)
    lab.run.click()
    assert same_games(lab.results, first) and (lab.share_html.value, lab.paired_html.value) == shown
    lab.seed.value = "10"
    lab.run.click()
    assert not np.array_equal(lab.results.asks, first.asks)


def test_controls_rules_players_lineups_baseline_and_entry():
    lab = Lab(strategies={"builder": builder}, players=6, games=60)
    assert "builder" in lab.lineup[0].options and "greedy" in lab.lineup[0].options
    lab.rules.value = "bicycle"                       # 2 to 5 players: the slider follows
    assert (lab.players.min, lab.players.max, lab.players.value) == (2, 5, 5)
    assert len(lab.lineup) == len(lab.baseline_lineup) == 5
    lab.lineup[1].value = "builder"
    lab.players.value = 3                             # choices already made are kept
    assert [m.value for m in lab.lineup] == ["memory", "builder", "random"]
    assert lab.entry.options == (("entry 0", 0), ("entry 1", 1), ("entry 2", 2))
    lab.entry.value = 1
    lab.baseline_lineup[0].value = "memory"
    lab.baseline_lineup[1].value = "most_held"
    lab.run.click()
    assert lab.message == "" and lab.results.lineup == ("memory", "builder", "random")
    assert lab.baseline.lineup == ("memory", "most_held", "random")
    # the learner's function under its own name plays exactly as the built-in it calls: a zero difference
    assert lab.paired == paired_test(lab.results, lab.baseline, entry=1)
    assert lab.paired.differing == 0 and "entry 1" in lab.paired_html.value
    lab.compare.value = False
    assert all(m.disabled for m in lab.baseline_lineup) and lab.entry.disabled
    lab.run.click()
    assert lab.baseline is None and lab.paired is None and lab.paired_html.value == ""
    assert lab.figure.axes[1].get_legend() is None    # one run: a plain histogram


@pytest.mark.parametrize("setup, words", [
    (lambda lab: setattr(lab.lineup[0], "value", "clumsy"), "ZeroDivisionError: integer division or modulo by zero"),
    (lambda lab: setattr(lab.lineup[0], "value", "asks_itself"), "cannot ask themself"),
    (lambda lab: setattr(lab.games, "value", "0"), "games: play at least 1 game, not 0"),
    (lambda lab: setattr(lab.games, "value", "abc"), "games: type a whole number"),
    (lambda lab: setattr(lab.seed, "value", "-3"), "seed: a seed is 0 or more, not -3"),
])
def test_errors_are_short_messages_and_clear_the_old_results(setup, words):
    lab = Lab(strategies={"clumsy": clumsy, "asks_itself": asks_itself}, rules="family", players=2, games=20)
    lab.run.click()
    assert lab.results is not None
    setup(lab)
    lab.run.click()
    assert words in lab.message, lab.message
    assert "Traceback" not in lab.message and len(lab.message) <= 400
    assert escape(lab.message, quote=False) in lab.message_html.value
    assert lab.results is None and lab.share_html.value == "" and lab.image.value == b""
    assert not lab.run.disabled


def test_a_strategy_that_never_wins_gets_its_plot():
    """A win share of exactly 0 (here over 100 games), its interval from 0: a plot, no message."""
    lab = Lab(strategies={"fewest": fewest}, rules="pond", players=3, games=100, seed=2)
    for menu, name in zip(lab.lineup, ["fewest", "memory", "memory"], strict=True):
        menu.value = name
    lab.run.click()
    assert lab.message == "", lab.message
    assert win_share(lab.results).rows[0].share == 0.0
    assert lab.figure is not None and lab.image.layout.display != "none" and lab.image.value


def test_bad_strategies_argument_is_refused_at_once():
    with pytest.raises(ValueError, match="'random' is a built-in strategy's name"):
        Lab(strategies={"random": builder})
    with pytest.raises(ValueError, match="strategies: give"):
        Lab(strategies=[builder])
    with pytest.raises(ValueError, match="neither a name, a function"):
        Lab(strategies={"x": 3})
    with pytest.raises(ValueError, match="rules: choose a preset"):
        Lab(rules="poker")
    with pytest.raises(ValueError, match="executor: give a Dask Client or a concurrent.futures.Executor"):
        Lab(executor="dask")


def test_a_dask_cluster_plays_the_same_games_game_for_game():
    distributed = pytest.importorskip("distributed")
    lineup = ["builder", "memory", "random"]
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        on_dask = Lab(strategies={"builder": builder}, rules="pond", players=3, games=250, seed=7, executor=client)
        assert on_dask.run_on.value == "executor" and dict(on_dask.run_on.options)["Dask cluster"] == "executor"
        for menu, name in zip(on_dask.lineup, lineup, strict=True):
            menu.value = name
        on_dask.run.click()
        assert on_dask.message == ""
    here = Lab(strategies={"builder": builder}, rules="pond", players=3, games=250, seed=7)
    assert here.run_on.value == "here"
    for menu, name in zip(here.lineup, lineup, strict=True):
        menu.value = name
    here.run.click()
    assert same_games(on_dask.results, here.results)       # 250 games in three chunks of the readable engine
    assert same_games(on_dask.baseline, here.baseline)     # built-ins: the fast path, on the cluster too
    assert on_dask.results.games == 250 and on_dask.paired == here.paired


def test_in_a_kernel_a_run_shows_simulates_progress_bar(monkeypatch, capsys):
    import gofish_teach.widgets.lab as lab_module

    lab = Lab(rules="family", players=2, games=30)
    lab.run.click()
    assert "games" not in capsys.readouterr().err     # no kernel: no bar
    monkeypatch.setattr(lab_module, "_in_kernel", lambda: True)
    lab.run.click()                                    # tqdm.auto: a widget in a notebook, text here
    err = capsys.readouterr().err
    assert err.count("games: 100%") >= 2 and "30/30" in err   # the lineup's run and the baseline's
