"""Monte Carlo on full decks agrees with the exact posterior within 4 standard errors, and the
fallbacks are flagged as estimates."""
from __future__ import annotations

import numpy as np
import pytest

from gofish_teach import Game, Rules
from gofish_teach.probability import NotExact, exact, posterior
from gofish_teach.probability.gibbs import gibbs_chains
from gofish_teach.probability.history import read
from gofish_teach.probability.montecarlo import estimate, sample_hands
from gofish_teach.strategies import random as random_ask


def positions(preset: str, n_players: int, seed: int, every: int, until: int):
    """Views at every ``every``-th decision point of a seeded random game, up to ``until`` asks."""
    game, rng = Game(Rules.preset(preset), n_players, seed=seed), np.random.default_rng(seed)
    while not game.is_over and game.n_asks <= until:
        view = game.view(game.current_player)
        if game.n_asks % every == 0:
            yield view
        game.ask(*random_ask(view, rng))


def assert_agrees(post, mc, view):
    """Every hidden seat x rank's P(holds), and the ocean's top card: within 4 standard errors."""
    checked = 0
    questions = [("p_holds", q, r) for q in post.seats for r in view.ranks]
    if view.ocean_size:
        questions += [("p_top", r) for r in view.ranks]
    for name, *args in questions:
        want = float(getattr(post, name)(*args))
        got, se = getattr(mc, name)(*args), mc.stderr(name, *args)
        assert abs(got - want) <= 4 * se + 1e-9, f"{name}{tuple(args)}: exact {want:.4f}, Monte Carlo {got:.4f} +- {se:.4f}"
        checked += 1
    return checked


@pytest.mark.parametrize("preset, n_players, seed", [("family", 2, 1), ("pond", 2, 2), ("classic", 2, 6), ("bicycle", 2, 3)])
def test_sequential_sampling_agrees_with_exact(preset, n_players, seed):
    """Whole worlds sampled event by event, independent of the exact code. (With one hidden
    hand the dealt hands it draws at the start stay varied enough; with more they run out.)"""
    for view in positions(preset, n_players, seed, every=7, until=21):
        post = posterior(view, fallback=False)
        assert_agrees(post, estimate(view, samples=100_000, seed=seed), view)


@pytest.mark.parametrize("preset, n_players, seed", [("pond", 4, 2), ("pond", 4, 4), ("bicycle", 3, 3), ("family", 2, 5)])
def test_gibbs_over_hands_agrees_with_exact(preset, n_players, seed):
    """Several hidden hands joined through the ocean, against a sampler that never joins them exactly.
    (With one hidden hand, two players, there is no trade between hands to make.)"""
    checked = 0
    for view in positions(preset, n_players, seed, every=9, until=40):
        try:
            post = posterior(view, fallback=False)
        except NotExact:
            continue  # beyond the exact limits: nothing to compare with
        checked += assert_agrees(post, sample_hands(view, read(view), samples=8000, seed=1), view)
    assert checked


@pytest.mark.parametrize("samples", [0, -1, 2.5, True, "4000"])
def test_samples_must_be_a_positive_whole_number(samples):
    view = next(positions("pond", 3, 1, every=1, until=0))
    for call in (lambda: posterior(view, samples=samples), lambda: estimate(view, samples=samples),
                 lambda: sample_hands(view, read(view), samples=samples)):
        with pytest.raises(ValueError, match="^samples must be a whole number, at least 1"):
            call()


def test_a_position_too_big_for_the_limits_is_a_flagged_estimate(monkeypatch):
    view = next(positions("classic", 3, 7, every=12, until=12))
    monkeypatch.setitem(exact.LIMITS, "joint", 1)  # nothing fits
    post = posterior(view, samples=4000)
    assert post.exact is False and "states at one rank" in post.reason
    assert 0 < post.stderr("p_holds", 1, view.ranks[0]) < 0.05
    with pytest.raises(NotExact, match="states at one rank"):
        posterior(view, fallback=False)


def teams_endgame():
    """A teams game of four ranks, two cards dealt, with the ocean empty and play going on."""
    rng = np.random.default_rng(3)
    game = Game(Rules.preset("pond").replace(n_ranks=4, hand_size=2, teams=True), 4, seed=21)
    for _ in range(12):
        game.ask(*random_ask(game.view(game.current_player), rng))
    assert game.ocean_size == 0 and not game.is_over
    return game


def test_the_hand_sampler_keeps_to_the_teams_endgame(monkeypatch):
    """Past the limits in the teams endgame, the Gibbs sampler keeps to the endgame's rule and
    agrees with the exact answer. Here the rule matters: some probabilities move by 0.4."""
    game = teams_endgame()
    view = game.view(game.current_player)
    exact_post = posterior(view, fallback=False)
    monkeypatch.setitem(exact.LIMITS, "joint", 1)
    post = posterior(view, samples=8000)
    assert post.exact is False and "states at one rank" in post.reason
    for q in post.seats:
        assert sum(post.expected_count(q, r) for r in game.ranks) == pytest.approx(game.hand_sizes[q])
        for r in game.ranks:
            gap = abs(post.p_holds(q, r) - float(exact_post.p_holds(q, r)))
            assert gap <= 4 * post.stderr("p_holds", q, r) + 1e-9, (q, r)


def test_every_chain_reaches_both_deals_a_trade_between_two_hands_cannot_link():
    """In that endgame only two sets of hidden hands fit, and going from one to the other
    moves a card round three hands (each gives one rank and gets another). Every chain must
    still visit both: a sampler whose chains stay where they start answers with its start."""
    game = teams_endgame()
    story = read(game.view(game.current_player))
    record = gibbs_chains(story, len(game.ranks), game.rules.book_size, sweeps=200, seed=0, chains=30, burn=0)
    for chain in record.transpose(1, 0, 2, 3):
        assert len({hands.tobytes() for hands in chain}) == 2


def test_the_hand_sampler_gives_the_same_answer_for_the_same_seed():
    """Its randomness is all drawn from the seeded generator: a seed fixes the answer."""
    view = next(positions("pond", 4, 2, every=9, until=9))
    first, again, other = (sample_hands(view, read(view), samples=2000, seed=s) for s in (5, 5, 6))
    assert (first.seats, first.ocean) == (again.seats, again.ocean)
    assert (first.seats, first.ocean) != (other.seats, other.ocean)


def test_warm_compiles_the_exact_counts_loops_and_the_samplers():
    """`make` calls probability.warm() after installing. In a fresh process (here nothing else has
    compiled them), every compiled loop an answer runs is compiled by it alone."""
    import subprocess
    import sys

    code = ("from gofish_teach.probability import warm, gibbs, hands, modular\n"
            "warm()\n"
            "loops = [hands._column_basis, hands._gather, modular._reduce_flat, gibbs._start, gibbs._sweeps]\n"
            "print(' '.join(loop.__name__ for loop in loops if not loop.signatures))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", f"not compiled by warm(): {done.stdout}"


def test_warm_compiles_every_loop_the_sampler_runs():
    """`make` calls warm() after installing, so that no learner's first sampled answer waits ~20 s."""
    from gofish_teach.probability import gibbs, montecarlo

    montecarlo.warm()
    for loop in (gibbs._start, gibbs._sweeps):  # the two Python calls; the loops they call go with them
        assert loop.signatures, f"{loop.__name__} was not compiled"
