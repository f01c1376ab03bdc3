"""The questions' API: consistency of the answers, errors that name the field, the table,
the greedy strategy on top, and history mattering (where stated facts and the live posterior part)."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from gofish_teach import Game, Rules
from gofish_teach.probability import Facts, NotExact, Table, exact, posterior
from gofish_teach.strategies import play_out
from gofish_teach.strategies import random as random_ask


def some_views(preset="pond", n_players=3, seed=0, every=4):
    game, rng = Game(Rules.preset(preset), n_players, seed=seed), np.random.default_rng(seed)
    while not game.is_over:
        view = game.view(game.current_player)
        if game.n_asks % every == 0:
            yield view
        game.ask(*random_ask(view, rng))


@pytest.mark.parametrize("preset, n", [("family", 2), ("pond", 3), ("classic", 4)])
def test_answers_add_up(preset, n):
    for view in some_views(preset, n):
        try:
            post = posterior(view, fallback=False)
        except NotExact:
            continue  # beyond the exact limits (test_probability_mc checks those estimates)
        assert post.exact
        for q in post.seats:
            # a hand's expected counts add up to its size; probabilities are fractions in [0, 1]
            assert sum(post.expected_count(q, r) for r in view.ranks) == view.hand_sizes[q]
            for r in view.ranks:
                dist = post.count_distribution(q, r)
                assert sum(dist.values()) == 1 and all(isinstance(p, Fraction) and 0 < p <= 1 for p in dist.values())
                assert post.p_holds(q, r, at_least=0) == 1
                assert post.p_holds(q, r) == 1 - dist.get(0, 0)
        for r in view.ranks:  # every unseen card of r is somewhere
            unseen = 4 - view.counts.get(r, 0) - 4 * sum(b.count(r) for b in view.books)
            assert sum(post.expected_count(q, r) for q in post.seats) + post.expected_count("ocean", r) == unseen
        if view.ocean_size:
            assert sum(post.p_top(r) for r in view.ranks) == 1


def test_the_table_is_every_seat_by_rank_and_the_top():
    view = list(some_views("pond", 3, seed=1))[3]
    post = posterior(view)
    table = post.table()
    assert isinstance(table, Table) and table.exact
    assert table.seats == tuple(post.seats)
    for q in table.seats:
        for r in table.ranks:
            assert table.holds[q][r] == post.p_holds(q, r)
            assert table.expected[q][r] == post.expected_count(q, r)
    assert sum(table.top.values()) == 1
    text = str(table)
    assert "ocean top" in text and all(f"seat {q}" in text for q in table.seats)


def test_an_empty_ocean_has_no_top():
    view = [v for v in some_views("pond", 2, seed=3, every=1) if v.ocean_size == 0][0]
    post = posterior(view)
    with pytest.raises(ValueError, match="ocean is empty"):
        post.p_top(view.ranks[0])
    assert post.table().top == {}


def test_bad_questions_name_the_field():
    post = posterior(next(some_views()))
    with pytest.raises(ValueError, match="rank"):
        post.p_holds(1, "Z")
    with pytest.raises(ValueError, match="player"):
        post.p_holds(5, "A")
    with pytest.raises(ValueError, match="player"):
        post.p_holds("ocean", "A")
    with pytest.raises(ValueError, match="at_least"):
        post.p_holds(1, "A", at_least=-2)
    with pytest.raises(ValueError, match="player"):
        post.count_distribution(True, "A")
    assert post.count_distribution("ocean", "a") == post.count_distribution("ocean", "A")  # ranks written loosely


def test_specific_card_asks_are_refused():
    game = Game(Rules.preset("pond").replace(specific_card=True), 2, seed=1)
    with pytest.raises(ValueError, match="specific_card"):
        posterior(game.view(0))


def test_remembering_earlier_work_does_not_change_answers():
    views = list(some_views("family", 2, seed=4, every=3))
    followed = [posterior(v).table() for v in views]
    exact.forget()
    fresh = [posterior(v).table() for v in reversed(views)][::-1]
    assert followed == fresh


def test_greedy_plays_on_the_posterior():
    game = Game(Rules.preset("pond"), 3, seed=2)
    play_out(game, ["greedy", "random", "greedy"], np.random.default_rng(0))
    assert game.is_over


def test_history_matters_where_stated_facts_cannot_say_it():
    """Seat 1 says "Go Fish!" to Aces, then draws one unseen card. Stated facts cannot say
    "no Ace, except perhaps the card it drew", so they drop the lack; the possible worlds keep
    it: only the drawn card can be an Ace, and it came from an ocean holding 3 of the 17 unseen."""
    rules = Rules.preset("pond").replace(n_ranks=6, hand_size=3)
    # dealt one at a time: seat 0 gets A 2 3, seat 1 gets 4 5 6; then the ocean: 2, A, ...
    deck = ["A", "4", "2", "5", "3", "6", "2", "A"] + "A A 2 2 3 3 3 4 4 4 5 5 5 6 6 6".split()
    game = Game(rules, 2, deck=deck)
    game.ask(1, "A")  # Go Fish: seat 0 draws the 2
    game.ask(0, "4")  # Go Fish: seat 1 draws the Ace, unseen by seat 0
    view = game.view(0)
    assert [type(e).__name__ for e in view.events[-3:]] == ["GoFish", "Draw", "Turn"]
    post = posterior(view)
    naive = Facts(hand=view.hand, hand_sizes={1: view.hand_sizes[1]}, n_ranks=6)
    assert post.p_holds(1, "A", at_least=2) == 0 < naive.p_holds(1, "A", at_least=2)
    assert post.p_holds(1, "A") < naive.p_holds(1, "A")


def test_a_table_shows_as_an_html_grid_in_a_notebook():
    table = posterior(Game(Rules.preset("pond"), 2, seed=3).view(0)).table()
    html = table._repr_html_()
    assert html.count("<tr>") == len(table.seats) + 2        # header, each seat, the ocean's top
    assert f"{float(table.holds[1]['K']):.1%}" in html
