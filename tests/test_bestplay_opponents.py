"""Who am I playing? The likelihoods of an ask under each strategy (gofish_teach.bestplay.likelihood),
the posterior over strategies (.opponents) and the bot that searches with it (.modelbot).

The likelihoods are checked against the strategies' own behaviour: at positions of real games each
built-in is asked for its ask hundreds of times with fresh generators, and the frequencies must fit
the probabilities (a wrong likelihood, the negative control, does not). The posterior is measured:
how often it puts 0.95 on the right built-in after a stated number of that seat's asks. How strong the
bot is is measured by `make bench` (benchmarks/bench_opponents.py), not here."""
from __future__ import annotations

import numpy as np
import pytest

from gofish_teach import Game, Rules
from gofish_teach.bestplay.likelihood import HYPOTHESES, Public, greedy_table, likelihoods
from gofish_teach.bestplay.modelbot import STAND_INS, OpponentModelBot
from gofish_teach.bestplay.opponents import OpponentModel
from gofish_teach.exercises.strategy import lowest_rank
from gofish_teach.fast import FAST_STRATEGIES
from gofish_teach.strategies import STRATEGIES, play_out, seat_rng

POND = Rules.preset("pond")
#: The lineups the posterior is measured on (seat 0 watches; every other seat is a built-in).
MIXED = ["memory", "random", "most_held", "memory"]
GREEDY = ["memory", "greedy", "greedy", "greedy"]
#: The asks of a seat after which the posterior is read, and the games of each lineup.
ASKS, GAMES_MIXED, GAMES_GREEDY = 10, 40, 12


def positions(lineup, games, seed=0, finals=None):
    """(view, seat, strategy, its ask) at every decision of ``games`` games of ``lineup`` (and each game's
    last view of seat 0 appended to ``finals``)."""
    out = []
    for g in range(seed, seed + games):
        game = Game(POND, len(lineup), seed=g)
        rngs = [seat_rng(1000 * g + s) for s in range(len(lineup))]
        while not game.is_over:
            p = game.current_player
            view = game.view(p)
            ask = STRATEGIES[lineup[p]](view, rngs[p])
            out.append((view, p, lineup[p], ask))
            game.ask(*ask)
        if finals is not None:
            finals.append(game.view(0))
    return out


@pytest.fixture(scope="module")
def mixed_games():
    return [play_out(Game(POND, 4, seed=g), MIXED, [seat_rng(1000 * g + s) for s in range(4)])
            for g in range(GAMES_MIXED)]


@pytest.fixture(scope="module")
def greedy_games():
    """Every decision of GAMES_GREEDY games of GREEDY, and each game's last view of seat 0."""
    finals = []
    return positions(GREEDY, GAMES_GREEDY, finals=finals), finals


@pytest.fixture(scope="module")
def greedy_positions(greedy_games):
    return greedy_games[0]


# ---------------------------------------------------------------------------- the likelihoods
def _frequencies_fit(strategy: str, model: str, view, seat, draws: int) -> bool:
    """Do ``draws`` asks of ``strategy`` at ``view`` fit the likelihoods ``model`` gives (every legal ask's
    frequency within 5 standard errors of its probability, the probabilities adding up to 1)?"""
    public = Public.of(view)
    legal = view.legal_asks()
    p = np.array([likelihoods(public, seat, view.counts, t, r)[model] for t, r in legal])
    seen = {}
    for k in range(draws):
        ask = STRATEGIES[strategy](view, np.random.default_rng(k))
        seen[ask] = seen.get(ask, 0) + 1
    f = np.array([seen.get(a, 0) / draws for a in legal])
    return abs(p.sum() - 1) < 1e-9 and bool(np.all(np.abs(f - p) <= 5 * np.sqrt(p * (1 - p) / draws) + 1e-12))


@pytest.mark.parametrize("strategy", ["random", "most_held", "memory"])
def test_the_likelihoods_are_the_strategies_own_frequencies(strategy):
    picked = [(v, s) for v, s, name, _ in positions(MIXED, 6, seed=100) if name == strategy][::3][:25]
    assert len(picked) >= 20
    assert all(_frequencies_fit(strategy, strategy, view, seat, 300) for view, seat in picked)
    # The negative control: the same check, with the likelihood of another strategy, fails (the check can fail).
    wrong = {"random": "most_held", "most_held": "random", "memory": "random"}[strategy]
    misfits = sum(not _frequencies_fit(strategy, wrong, view, seat, 300) for view, seat in picked)
    print(f"{strategy}: {len(picked)} positions fit; with {wrong}'s likelihood {misfits} of them do not")
    assert misfits >= len(picked) // 2


def test_every_hypothesis_is_a_distribution_over_the_legal_asks(greedy_positions):
    asked = (np.arange(13) % 3, np.array([0, 2, 1, 5]))  # some earlier asks, for other's weights
    for view, seat, _, _ in greedy_positions[::25]:
        public = Public.of(view)
        total = dict.fromkeys(HYPOTHESES, 0.0)
        for t, r in view.legal_asks():
            for h, p in likelihoods(public, seat, view.counts, t, r, asked).items():
                total[h] += p
        assert all(abs(s - 1) < 1e-9 for s in total.values()), total
        assert set(likelihoods(public, seat, view.counts, seat, view.held_ranks[0]).values()) == {0.0}  # itself


def test_the_greedy_model_picks_the_real_greedys_ask_most_of_the_time(greedy_positions):
    """greedy's likelihood is a model: the ask it rates best is the real greedy's about 3 times in 4."""
    hits = n = 0
    for view, seat, name, ask in greedy_positions:
        if name != "greedy":
            continue
        public = Public.of(view)
        opponents = [t for t in range(4) if t != seat]
        table = greedy_table(public, seat, opponents)
        keys = {(t, r): tuple(table[opponents.index(t), view.ranks.index(r), view.counts[r]])
                for r in view.ranks if r in view.counts for t in opponents}  # greedy's order: ranks, then seats
        best = max(keys, key=lambda a: (keys[a], -view.ranks.index(a[1]), -a[0]))
        hits += best == ask
        n += 1
    print(f"the greedy model's best ask is greedy's own at {hits} of {n} decisions ({hits / n:.0%})")
    assert n > 300 and hits / n > 0.6


# ---------------------------------------------------------------------------- the posterior
def _shares_after(views_and_lineups, asks: int) -> dict:
    """For each built-in: (seats whose posterior put at least 0.95 on it after ``asks`` of their asks,
    seats that made that many asks)."""
    out = {}
    for view, lineup in views_and_lineups:
        for step_seat in range(1, len(lineup)):
            steps = [s for s in OpponentModel().steps(view) if s.seat == step_seat]
            if len(steps) >= asks:
                right, n = out.get(lineup[step_seat], (0, 0))
                out[lineup[step_seat]] = (right + (steps[asks - 1].posterior[lineup[step_seat]] >= 0.95), n + 1)
    return out


def test_the_posterior_finds_the_built_in_after_ten_asks_in_most_games(mixed_games, greedy_games):
    """After ten of its asks, the posterior puts at least 0.95 on a seat's true strategy in most games, for
    every built-in (seat 0 watching: it sees its own hand and every public event, nothing else)."""
    views = [(game.view(0), MIXED) for game in mixed_games] + [(view, GREEDY) for view in greedy_games[1]]
    shares = _shares_after(views, ASKS)
    print({h: f"{right}/{n} = {right / n:.0%}" for h, (right, n) in shares.items()})
    assert set(shares) == {"random", "memory", "most_held", "greedy"}
    assert all(n >= 10 and right / n > 0.5 for right, n in shares.values()), shares


def test_code_none_of_the_built_ins_plays_is_other():
    """A learner's strategy (always the lowest rank, from the first opponent holding cards) is best described by
    other, which learns a seat's preferences, after a game."""
    found = []
    for g in range(6):
        game = play_out(Game(POND, 3, seed=g), ["memory", lowest_rank, "random"], [seat_rng(10 * g + s) for s in range(3)])
        found.append(OpponentModel().posterior(game.view(0))[1]["other"])
    print("P(other) for lowest_rank after a game:", [round(p, 3) for p in found])
    assert sum(p > 0.95 for p in found) >= 5


def test_the_same_view_gives_the_same_posterior_however_it_was_read(mixed_games):
    game = mixed_games[0]
    whole = OpponentModel(seed=3).posterior(game.view(0))
    model = OpponentModel(seed=3)
    view = game.view(0)

    class Prefix:  # the first half of the view's events: what the seat saw halfway through
        def __init__(self, view, k):
            self.player, self.n_players, self.rules, self.ranks = view.player, view.n_players, view.rules, view.ranks
            self.events = view.events[:k]

    model.posterior(Prefix(view, len(view.events) // 2))
    assert model.posterior(view) == whole  # read on from where it stopped: the same numbers
    assert OpponentModel(seed=4).posterior(view) != whole  # another seed draws other hands


@pytest.mark.parametrize("rules, n", [(Rules.preset("pond").replace(teams=True), 4), (Rules.preset("pond").replace(bluff=True), 3),
                                     (Rules.preset("classic").replace(book_size=2), 3), (Rules.preset("family"), 6)])
def test_it_reads_whole_games_under_other_rules(rules, n):
    """Every ask of another seat is a step, and every posterior is a distribution, under teams, bluffing,
    pairs and six players."""
    lineup = (["memory", "random"] * 3)[:n]
    game = play_out(Game(rules, n, seed=2), lineup, [seat_rng(20 + s) for s in range(n)])
    view = game.view(0)
    steps = OpponentModel().steps(view)
    asks = [e for e in view.events if type(e).__name__ == "Ask" and e.player != 0]
    assert [(s.seat, s.target, s.rank) for s in steps] == [(e.player, e.target, e.rank) for e in asks]
    for posterior in [s.posterior for s in steps] + list(OpponentModel().posterior(view).values()):
        assert abs(sum(posterior.values()) - 1) < 1e-9 and min(posterior.values()) >= 0


def test_bad_settings_are_named():
    with pytest.raises(ValueError, match="prior: unknown hypothesis 'smart'"):
        OpponentModel(prior={"smart": 1})
    with pytest.raises(ValueError, match="prior: the weights add up to 0"):
        OpponentModel(prior={"random": 0})
    with pytest.raises(ValueError, match="tremble must be a number from 0 to 1"):
        OpponentModel(tremble=2)
    with pytest.raises(ValueError, match="particles must be"):
        OpponentModel(particles=0)
    view = Game(Rules.preset("pond").replace(specific_card=True), 3, seed=1).view(0)
    with pytest.raises(ValueError, match="specific_card"):
        OpponentModel().posterior(view)
    assert OpponentModel(prior={"memory": 3, "random": 1}).prior == {
        "random": 0.25, "memory": 0.75, "most_held": 0.0, "greedy": 0.0, "other": 0.0}


# ---------------------------------------------------------------------------- the bot
def test_the_bot_plays_legal_asks_to_the_end_under_several_rules():
    for name, n in (("pond", 4), ("family", 2), ("classic", 3)):
        bot = OpponentModelBot(samples=6, seed=1)
        asks = []

        def choose(view, rng, bot=bot, asks=asks):  # bound now, though played out within this iteration
            ask = bot.choose(view, rng)
            assert ask in view.legal_asks()
            asks.append(ask)
            return ask

        game = play_out(Game(Rules.preset(name), n, seed=5), [choose] + ["random"] * (n - 1),
                        [seat_rng(s) for s in range(n)])
        assert game.is_over and asks


def test_the_rollouts_play_each_seat_as_its_posterior_says():
    """A model sure that seat 1 plays random, seat 2 most_held and seat 3 greedy: every world's rollout plays
    them so (greedy by its stand-in), and memory in the bot's own seat."""
    game = Game(POND, 4, seed=3)
    view = game.view(0)
    model = OpponentModel(prior={"random": 1})
    bot = OpponentModelBot(samples=8, seed=1, model=model)
    sure = {1: "random", 2: "most_held", 3: "greedy"}
    model.posterior = lambda v: {q: {h: float(h == sure[q]) for h in HYPOTHESES} for q in sure}
    codes = bot._codes(view, 50, [1, 2])
    expected = [FAST_STRATEGIES.index(s) for s in ("memory", "random", "most_held", STAND_INS["greedy"])]
    assert (codes == expected).all()


def test_the_bot_names_bad_settings():
    with pytest.raises(ValueError, match="stand_ins"):
        OpponentModelBot(stand_ins={"greedy": "greedy"})
    with pytest.raises(ValueError, match="model must be an OpponentModel"):
        OpponentModelBot(model="memory")


# ---------------------------------------------------------------------------- the bench section (quick mode)
def _bench_opponents():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the bench lives outside the package
    from benchmarks import bench_opponents

    return bench_opponents


def test_the_bench_section_reports_each_lineup_with_a_paired_interval_and_the_time_per_decision():
    bench = _bench_opponents()
    lines = bench.bench_opponents(quick=True, games=2, names=["random x3", bench.MIXED])
    rows = [line for line in lines if "paired difference" in line]
    assert len(rows) == 2 + len(bench.FIXED) + 2, lines  # two lineups, the fixed models on the mixed one, two costs
    assert all("95% interval [" in row and "ms a decision (median" in row for row in rows)
    assert sum("vs SearchBot(others=" in row for row in rows) == len(bench.FIXED)
    assert "paired lower bounds above 0:" in lines[-1] and "goal 200 ms:" in lines[-1]
    assert set(bench.lineups()) >= {"memory x3", "random x3", "most_held x3", "greedy x3", bench.MIXED}


def test_the_bench_verdict_follows_the_interval_either_way():
    verdict = _bench_opponents().verdict
    assert verdict(dict(low=0.01, high=0.09), False).startswith("beats it")
    assert verdict(dict(low=-0.09, high=-0.01), False).startswith("loses")
    assert "NOT beaten" in verdict(dict(low=-0.01, high=0.09), False)
    assert "too few deals" in verdict(dict(low=0.01, high=0.09), True)
