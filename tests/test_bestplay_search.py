"""The search bot (gofish_teach.bestplay.search): legal asks only, its view alone, seeded,
and bad parameters named. How strong it is is measured by `make bench` (benchmarks/bench_search.py),
not here: a strength test would need hundreds of searched games."""
import numpy as np
import pytest

from gofish_teach import Game, Rules
from gofish_teach.bestplay.search import SearchBot
from gofish_teach.simulate import deck_cards, game_inputs, simulate
from gofish_teach.strategies import play_out, seat_rng

POND = Rules.preset("pond")


class Checked:
    """A SearchBot that checks each ask against the view's legal asks, and keeps them."""

    def __init__(self, bot):
        self.bot, self.asks = bot, []

    def choose(self, view, rng):
        ask = self.bot.choose(view, rng)
        assert ask in view.legal_asks(), (ask, view)
        self.asks.append(ask)
        return ask


def test_it_only_ever_makes_legal_asks_to_the_end_of_games():
    for seed in (1, 2):
        bot = Checked(SearchBot(samples=6, seed=seed))
        game = play_out(Game(POND, 4, seed=seed), [bot, "memory", "memory", "memory"],
                        [seat_rng(s) for s in range(4)])
        assert game.is_over and len(bot.asks) > 3


def test_it_plays_under_other_rules_too():
    for name, n in (("family", 2), ("classic", 3)):
        bot = Checked(SearchBot(samples=4, seed=0))
        game = play_out(Game(Rules.preset(name), n, seed=5), [bot] + ["memory"] * (n - 1),
                        [seat_rng(s) for s in range(n)])
        assert game.is_over and bot.asks


def _decks_alike_for_seat_0(seed: int, n: int = 4):
    """Three decks that deal seat 0 the same cards and shuffle every other card differently:
    at its first decision seat 0's view is the same in all three games."""
    codes = game_inputs(seed, POND, 1)[0][0]
    deal = POND.deal_size(n) * n
    mine = [k for k in range(deal) if k % n == 0]
    others = [k for k in range(len(codes)) if k not in mine]
    decks = []
    for shuffle in (0, 1, 2):
        order = np.array(codes)
        if shuffle:
            order[others] = np.random.default_rng(shuffle).permutation(order[others])
        decks.append(order)
    return decks


def test_two_games_alike_in_its_view_get_the_same_ask():
    for seed in (0, 3):
        games = [Game(POND, 4, deck=deck_cards(POND, deck)) for deck in _decks_alike_for_seat_0(seed)]
        views = [game.view(0) for game in games]
        assert len({tuple(str(e) for e in v.events) for v in views}) == 1  # the same view...
        hidden = {tuple(tuple(sorted(g.view(q).counts.items())) for q in (1, 2, 3)) for g in games}
        assert len(hidden) == 3  # ...over different hidden hands
        asks = {SearchBot(samples=8, seed=4).choose(v, np.random.default_rng(k)) for k, v in enumerate(views)}
        assert len(asks) == 1


def test_the_same_view_gets_the_same_ask_whatever_came_before():
    game = Game(POND, 4, seed=9)
    view = game.view(0)
    bot = SearchBot(samples=8, seed=2)
    first = bot.choose(view, None)
    other = Game(POND, 4, seed=10)  # decide elsewhere in between: no counter, no memory of earlier decisions
    bot.choose(other.view(0), None)
    assert bot.choose(view, None) == first == SearchBot(samples=8, seed=2).choose(view, None)


def test_the_other_seats_model_is_a_parameter_and_its_own_turns_stay_memory():
    bot = Checked(SearchBot(samples=6, seed=1, others="random"))
    game = play_out(Game(POND, 4, seed=6), [bot, "random", "random", "random"], [seat_rng(s) for s in range(4)])
    assert game.is_over and "others='random'" in repr(bot.bot)


def test_a_copy_sent_to_a_worker_process_decides_alike():
    import pickle

    bot, view = SearchBot(samples=8, seed=5, margin=0.5), Game(POND, 4, seed=4).view(0)
    copy = pickle.loads(pickle.dumps(bot))
    assert repr(copy) == repr(bot) and copy.choose(view, None) == bot.choose(view, None)


def test_a_seed_repeats_a_whole_run():
    def run(seed):
        res = simulate([SearchBot(samples=4, seed=seed), "memory", "memory", "memory"], POND, 2, seed=1, workers=1)
        return res.winners.tolist(), res.books.tolist(), res.asks.tolist()

    assert run(3) == run(3)


def test_it_decides_from_a_mid_game_view():
    game = Game(POND, 4, seed=2)
    play_until = 12
    rngs = [seat_rng(s) for s in range(4)]
    from gofish_teach.strategies import memory

    while game.n_asks < play_until and not game.is_over:
        p = game.current_player
        game.ask(*memory(game.view(p), rngs[p]))
    view = game.view(game.current_player)
    assert view.record.n_events > 20
    assert SearchBot(samples=8, seed=0).choose(view, None) in view.legal_asks()


@pytest.mark.parametrize("kwargs, field", [
    (dict(samples=0), "samples"), (dict(samples=2.5), "samples"), (dict(samples="8"), "samples"),
    (dict(seed=-1), "seed"), (dict(seed=1.0), "seed"),
    (dict(margin=-0.5), "margin"), (dict(margin="1"), "margin"), (dict(margin=float("nan")), "margin"),
    (dict(burn=0), "burn"),
    (dict(others="greedy"), "others"), (dict(others=None), "others"),
])
def test_bad_parameters_name_the_parameter(kwargs, field):
    with pytest.raises(ValueError, match=rf"^{field} must be"):
        SearchBot(**kwargs)


def test_specific_card_rules_and_a_view_with_no_ask_are_refused_by_name():
    bot = SearchBot(samples=2)
    game = Game(POND.replace(specific_card=True), 3, seed=0)
    with pytest.raises(ValueError, match="^rules: "):
        bot.choose(game.view(0), None)
    with pytest.raises(ValueError, match="^view: it is not player 1's turn"):
        bot.choose(Game(POND, 3, seed=0).view(1), None)


# --------------------------------------------------------------------------- the bench section (quick mode)
def _bench_search():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the bench lives outside the package
    from benchmarks import bench_search

    return bench_search


def test_the_bench_section_reports_a_paired_interval_and_decision_times():
    lines = _bench_search().bench_search(quick=True)
    assert len(lines) == 2
    assert "paired difference" in lines[0] and "95% interval [" in lines[0] and "4 common decks" in lines[0]
    assert "CPU time per decision: median" in lines[1] and "on the clock median" in lines[1]


def test_the_bench_verdict_follows_the_interval_either_way():
    describe = _bench_search().describe
    base = dict(samples=8, players=4, rules="pond", games=400, bot=0.3, memory=0.25, diff=0.05, p=0.01,
                median_ms=50.0, p99_ms=150.0, max_ms=190.0, wall_median_ms=60.0, wall_p99_ms=300.0, load=3.0,
                decisions=9000, seconds=600.0)
    assert "beats memory" in describe(dict(base, low=0.01, high=0.09))[0]
    assert "loses to memory" in describe(dict(base, low=-0.09, high=-0.01))[0]
    assert "no clear difference" in describe(dict(base, low=-0.01, high=0.09))[0]
    assert "goal 200 ms: met" in describe(dict(base, low=0, high=0))[1]
    assert "goal 200 ms: not met" in describe(dict(base, low=0, high=0, p99_ms=250.0))[1]
