"""Level 1, stated facts: the textbook answers where the facts are a textbook case, clear errors
otherwise, and the same answers as the live posterior right after the deal."""
from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pytest
from scipy.stats import hypergeom, multivariate_hypergeom

from gofish_teach import Game, Rules
from gofish_teach.probability import Facts, posterior


def close(exact: Fraction, value: float) -> bool:
    return float(exact) == pytest.approx(float(value), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("hand, size", [("7 7 Q K", 5), ("A 2 3", 7), ("K", 3), ("9 9 9 J J", 6)])
def test_one_opponent_is_hypergeometric(hand, size):
    facts = Facts(hand=hand, hand_sizes={1: size}, books_laid=False)
    held = Facts(hand=hand, hand_sizes={1: size})  # books laid: the same while no hand can hold a book
    N = 52 - len(hand.split())
    for rank in ("7", "Q", "9", "A", "2"):
        K = 4 - hand.split().count(rank)
        for k in range(0, 5):
            assert close(facts.count_distribution(1, rank).get(k, Fraction(0)), hypergeom.pmf(k, N, K, size))
            assert close(facts.p_holds(1, rank, at_least=k), hypergeom.sf(k - 1, N, K, size))
        # the ocean holds the rest: P(top card) = its share, exactly K/N
        assert facts.p_top(rank) == Fraction(K, N)
        assert facts.expected_count(1, rank) == Fraction(K * size, N)
        if size < 4:  # no rank can be a whole book in the hand
            assert held.count_distribution(1, rank) == facts.count_distribution(1, rank)


def test_exact_fractions_are_the_counting_ones():
    facts = Facts(hand="7 7 Q K", hand_sizes={1: 5}, books_laid=False)
    assert facts.p_holds(1, "7") == 1 - Fraction(comb(46, 5), comb(48, 5))
    assert facts.p_holds(1, "A", at_least=2) == 1 - Fraction(comb(44, 5) + 4 * comb(44, 4), comb(48, 5))


def test_a_hand_is_multivariate_hypergeometric():
    facts = Facts(hand="7 Q Q K", hand_sizes={1: 6, 2: 6}, books_laid=False)
    m = [3, 2, 43]  # unseen 7s, Queens, and the rest
    for sevens in range(4):
        for queens in range(3):
            want = multivariate_hypergeom.pmf([sevens, queens, 6 - sevens - queens], m=m, n=6)
            assert close(facts.p_hand(2, {"7": sevens, "Q": queens}), want)


def test_several_opponents_each_see_the_same_hypergeometric():
    facts = Facts(hand="5 5 J", hand_sizes={1: 5, 2: 4, 3: 2}, books_laid=False)
    for seat, size in ((1, 5), (2, 4), (3, 2)):
        for k in range(3):
            assert close(facts.count_distribution(seat, "5").get(k, Fraction(0)), hypergeom.pmf(k, 49, 2, size))
    assert facts.ocean_size == 52 - 3 - 11


def test_known_cards_and_lacks_are_facts():
    facts = Facts(hand="7 Q", hand_sizes={1: 4, 2: 4}, known={1: ["7", "7"]}, lacks={2: ["Q"]}, books_laid=False)
    # seat 1's two open slots and seat 2's four, and the ocean, share the other unseen cards
    assert facts.p_holds(1, "7", at_least=2) == 1
    assert facts.count_distribution(2, "Q") == {0: 1}
    # 48 free cards in 48 places: seat 1's 2 open slots, seat 2's 4, the ocean's 42. The 3 Queens
    # are uniformly among the 44 places outside seat 2; then the last 7 among the 45 left.
    assert facts.expected_count("ocean", "Q") == 3 * Fraction(42, 44)
    assert facts.expected_count(1, "7") == 2 + (2 - Fraction(3 * 2, 44)) / 45


def test_at_most_is_the_hypergeometric_cut_off():
    """"At most one 7" in a hand of five: the hypergeometric for 0 and 1, renormalised."""
    facts = Facts(hand="7 Q", hand_sizes={1: 5}, at_most={1: {"7": 1}}, books_laid=False)
    N, K = 50, 3
    kept = hypergeom.pmf(0, N, K, 5) + hypergeom.pmf(1, N, K, 5)
    assert close(facts.count_distribution(1, "7")[1], hypergeom.pmf(1, N, K, 5) / kept)
    assert Facts(hand="7 Q", hand_sizes={1: 5}, at_most={1: {"7": 0}}).count_distribution(1, "7") == {0: 1}


def test_books_laid_rules_out_a_held_book():
    facts = Facts(hand="2", hand_sizes={1: 5})  # four Aces unseen
    assert facts.p_holds(1, "A", at_least=4) == 0
    assert Facts(hand="2", hand_sizes={1: 5}, books_laid=False).p_holds(1, "A", at_least=4) > 0


@pytest.mark.parametrize("preset", ["family", "pond", "bicycle", "classic"])
@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_the_posterior_right_after_the_deal_is_the_stated_facts(preset, n_players):
    rules = Rules.preset(preset)
    for seed in range(3):
        game = Game(rules, n_players, seed=seed)
        if any(type(e).__name__ == "Draw" for e in game.events):
            continue  # someone's hand emptied at once: more than a deal has happened
        for p in range(n_players):
            view = game.view(p)
            post = posterior(view, fallback=False)
            facts = Facts(hand=view.hand, hand_sizes={q: view.hand_sizes[q] for q in range(n_players) if q != p},
                          books=[r for books in view.books for r in books], rules=rules, me=p)
            for q in list(post.seats) + ["ocean"]:
                for r in rules.ranks:
                    assert post.count_distribution(q, r) == facts.count_distribution(q, r)


def test_small_deck_and_pairs():
    facts = Facts(hand="A 2", hand_sizes={1: 3}, n_ranks=3, book_size=2)
    # pairs: nobody holds two of a rank; 2 Aces, 2 Twos, 4 Threes unseen... but at most one each
    for r in ("A", "2", "3"):
        assert set(facts.count_distribution(1, r)) <= {0, 1}
    assert sum(facts.expected_count(1, r) for r in ("A", "2", "3")) == 3


@pytest.mark.parametrize("kwargs, field", [
    ({"hand": "7 X", "hand_sizes": {1: 5}}, "hand"),
    ({"hand": "7 7 7 7", "hand_sizes": {1: 5}}, "hand"),
    ({"hand": "7", "hand_sizes": {1: -1}}, "hand_sizes"),
    ({"hand": "7", "hand_sizes": {0: 5}}, "hand_sizes"),
    ({"hand": "7", "hand_sizes": {1: 60}}, "hand_sizes"),
    ({"hand": "7", "hand_sizes": {1: 5}, "known": {2: ["Q"]}}, "known"),
    ({"hand": "7", "hand_sizes": {1: 1}, "known": {1: ["Q", "K"]}}, "known[1]"),
    ({"hand": "7 7", "hand_sizes": {1: 5}, "known": {1: ["7", "7", "7"]}}, "known"),
    ({"hand": "7", "hand_sizes": {1: 5}, "known": {1: ["Q"]}, "lacks": {1: ["Q"]}}, "lacks[1]"),
    ({"hand": "7", "hand_sizes": {1: 5}, "lacks": {1: ["Z"]}}, "lacks[1]"),
    ({"hand": "7", "hand_sizes": {1: 5}, "ocean": 10}, "ocean"),
    ({"hand": "7", "hand_sizes": {1: 5}, "books": ["7"]}, "books"),
    ({"hand": "A", "hand_sizes": {1: 5}, "n_ranks": 3, "known": {1: ["K"]}}, "known[1]"),
    ({"hand": "7", "hand_sizes": {1: 5}, "at_most": {1: ["Q"]}}, "at_most[1]"),
    ({"hand": "7", "hand_sizes": {1: 5}, "at_most": {1: {"Q": -1}}}, "at_most[1]"),
    ({"hand": "7", "hand_sizes": {1: 5}, "at_most": {2: {"Q": 1}}}, "at_most"),
    ({"hand": "7", "hand_sizes": {1: 5}, "known": {1: ["Q", "Q"]}, "at_most": {1: {"Q": 1}}}, "at_most[1]"),
    ({"hand": "7", "hand_sizes": {1: 5}, "at_least": {1: ["Q"]}}, "at_least[1]: give {rank: fewest"),
    ({"hand": "7", "hand_sizes": {1: 5}, "at_least": {1: {"Q": -1}}}, "at_least[1]: 'Q' needs a whole number"),
    ({"hand": "7", "hand_sizes": {1: 5}, "at_least": {1: {"Z": 1}}}, "at_least[1]"),
    ({"hand": "7", "hand_sizes": {1: 5}, "at_least": {2: {"Q": 1}}}, "at_least: seat 2"),
    ({"hand": "7 7", "hand_sizes": {1: 5}, "at_least": {1: {"7": 3}}}, "at_least[1]: seat 1 cannot hold 3 7s"),
    ({"hand": "7", "hand_sizes": {1: 5}, "at_least": {1: {"Q": 4}}}, "at_least[1]: seat 1 cannot hold 4 Queens"),
    ({"hand": "7", "hand_sizes": {1: 1}, "at_least": {1: {"Q": 2}}}, "at_least[1]: seat 1 cannot hold 2 Queens"),
    ({"hand": "7", "hand_sizes": {1: 2}, "at_least": {1: {"Q": 2, "K": 1}}}, "at_least[1]: at least 3 cards with its known ones"),
    ({"hand": "7", "hand_sizes": {1: 5}, "at_least": {1: {"Q": 2}}, "at_most": {1: {"Q": 1}}},
     "at_least[1]: at least 2 Queens, more than at most 1"),
    ({"hand": "7", "hand_sizes": {1: 5}, "at_least": {1: {"Q": 1}}, "lacks": {1: ["Q"]}}, "at_least[1]: seat 1 lacks"),
    ({"hand": "A A A A A", "hand_sizes": {1: 3}}, "hand: five Aces, but a rank has only four cards"),
    ({"hand": "A A A A A", "hand_sizes": {1: 3}, "books_laid": False}, "hand: five Aces"),
    ({"hand": "7", "hand_sizes": {1: 5}, "known": {1: "Q Q Q Q Q"}}, "known[1]: five Queens"),
    ({"hand": 7, "hand_sizes": {1: 5}}, "hand"),
    ({"hand": "7", "hand_sizes": {1: 5}, "me": -1}, "me"),
    ({"hand": "7", "hand_sizes": {1: 5}, "me": True}, "me"),
    ({"hand": "7", "hand_sizes": {1: 5}, "me": "0"}, "me"),
    ({"hand": "7", "hand_sizes": [3, 4], "me": -1}, "me"),
    ({"hand": "7", "hand_sizes": {-1: 5}}, "hand_sizes"),
    ({"hand": "7", "hand_sizes": {1.0: 5}}, "hand_sizes"),
    ({"hand": "7", "hand_sizes": 5}, "hand_sizes"),
    ({"hand": "7", "hand_sizes": {1: 5}, "known": {True: ["Q"]}}, "known"),
    ({"hand": "7", "hand_sizes": {1: 5}, "lacks": {-1: ["Q"]}}, "lacks"),
    ({"hand": "7", "hand_sizes": {1: 5}, "books": {"x": ["Q"]}}, "books"),
    ({"hand": "7", "hand_sizes": {1: 5}, "books": {4: ["Q"]}}, "books"),
])
def test_bad_facts_name_the_field(kwargs, field):
    with pytest.raises(ValueError, match=r"^" + field.replace("[", r"\[").replace("]", r"\]")):
        Facts(**kwargs)


def test_bad_questions_name_the_field():
    facts = Facts(hand="7 Q", hand_sizes={1: 5})
    with pytest.raises(ValueError, match="rank"):
        facts.p_holds(1, "Z")
    with pytest.raises(ValueError, match="player"):
        facts.p_holds(7, "Q")
    with pytest.raises(ValueError, match="at_least"):
        facts.p_holds(1, "Q", at_least=-1)
    with pytest.raises(ValueError, match="player"):
        facts.p_hand(0, {"Q": 1})
    with pytest.raises(ValueError, match="counts"):
        facts.p_hand(1, {"Q": 1.5})
    assert facts.p_holds(0, "Q") == 1 and facts.count_distribution(0, "7") == {1: 1}


def test_contradictory_facts_are_an_error():
    # three Aces in hand and the 2s booked: seat 1's two cards can only be the last Ace or 3s, and it lacks 3s
    with pytest.raises(ValueError, match="contradict"):
        Facts(hand="A A A", hand_sizes={1: 2}, lacks={1: ["3"]}, n_ranks=3, books=["2"])


def _truth_fits(game, facts, viewer) -> bool:
    for q in range(game.n_players):
        if q == viewer:
            continue
        held = game.view(q).counts
        for r, n in facts.known_cards.get(q, {}).items():
            if held.get(r, 0) < n:
                return False
        for r in facts.lacks.get(q, ()):
            if held.get(r, 0):
                return False
        for r, n in facts.at_most.get(q, {}).items():
            if held.get(r, 0) > n:
                return False
    return True


@pytest.mark.parametrize("preset", ["family", "pond", "bicycle", "classic"])
def test_facts_from_a_view_are_true_of_the_hidden_hands(preset):
    """Every fact read off a view holds in the real game, at every ask of random games, and the
    real hands are possible under the facts."""
    rng = np.random.default_rng(7)
    stated = 0
    for seed in range(6):
        n = 2 + seed % 3
        game = Game(Rules.preset(preset), n, seed=seed)
        while not game.is_over:
            viewer = int(rng.integers(n))
            facts = Facts.from_view(game.view(viewer))
            assert _truth_fits(game, facts, viewer), (preset, seed, facts.known_cards, facts.lacks, facts.at_most)
            for q in facts.seats:
                for r, c in game.view(q).counts.items():
                    assert facts.count_distribution(q, r).get(c, 0) > 0
            stated += bool(facts.known_cards or facts.lacks or facts.at_most)
            asks = game.view(game.current_player).legal_asks()
            game.ask(*asks[int(rng.integers(len(asks)))])
    assert stated > 100


def test_facts_from_a_view_right_after_the_deal_are_the_posterior():
    game = Game(Rules.preset("pond"), 3, seed=4)
    view = game.view(1)
    facts, post = Facts.from_view(view), posterior(view)
    assert not (facts.known_cards or facts.lacks or facts.at_most)
    for q in (0, 2, "ocean"):
        for r in view.ranks:
            assert facts.count_distribution(q, r) == post.count_distribution(q, r)


# ---------------------------------------------------------------- at_least: "holds one or more"
def _brute(hand, sizes, n_ranks, known=None, lacks=None, at_most=None, at_least=None, cap=3):
    """Every placement of the labelled unseen cards (known cards fixed in their hand first), kept
    when it fits the facts: {place: {rank: Counter(count: placements)}}, and the total."""
    from collections import Counter
    from itertools import combinations

    from gofish_teach.cards import ranks_for
    ranks = ranks_for(n_ranks)
    mine = hand.split()
    cards = [r for r in ranks for _ in range(4 - mine.count(r))]
    known = known or {}
    for ks in known.values():
        for r in ks:
            cards.remove(r)
    seats = sorted(sizes)
    out = {p: {r: Counter() for r in ranks} for p in seats + ["ocean"]}
    total = 0

    def deal(i, left, held):
        nonlocal total
        if i == len(seats):
            placed = {**held, "ocean": [cards[j] for j in left]}
            for q in seats:
                c = Counter(placed[q])
                if any(n > cap for n in c.values()):
                    return
                if any(c[r] for r in (lacks or {}).get(q, ())):
                    return
                if any(c[r] > n for r, n in (at_most or {}).get(q, {}).items()):
                    return
                if any(c[r] < n for r, n in (at_least or {}).get(q, {}).items()):
                    return
            total += 1
            for p, got in placed.items():
                c = Counter(got)
                for r in ranks:
                    out[p][r][c[r]] += 1
            return
        q = seats[i]
        open_slots = sizes[q] - len(known.get(q, ()))
        for pick in combinations(left, open_slots):
            rest = [j for j in left if j not in pick]
            deal(i + 1, rest, {**held, q: [cards[j] for j in pick] + list(known.get(q, ()))})

    deal(0, list(range(len(cards))), {})
    return out, total


@pytest.mark.parametrize("kwargs", [
    dict(hand="A 2", hand_sizes={1: 3, 2: 3}, at_least={1: {"A": 1}}),
    dict(hand="A 2", hand_sizes={1: 3, 2: 3}, at_least={1: {"A": 2}}),
    dict(hand="A 2", hand_sizes={1: 3, 2: 3}, at_least={1: {"A": 1, "3": 1}, 2: {"3": 2}}),
    dict(hand="A 2", hand_sizes={1: 4, 2: 2}, at_least={1: {"3": 1}}, at_most={1: {"3": 2}}, lacks={2: ["A"]}),
    dict(hand="A 2", hand_sizes={1: 3, 2: 3}, at_least={1: {"2": 2}}, known={1: ["2"]}),
    dict(hand="A 3 3", hand_sizes={1: 3, 2: 2}, at_least={1: {"3": 1}, 2: {"A": 1}}, at_most={2: {"A": 1}}),
])
def test_at_least_is_brute_force_enumeration(kwargs):
    facts = Facts(**kwargs, n_ranks=3)
    seen, total = _brute(kwargs["hand"], kwargs["hand_sizes"], 3, kwargs.get("known"), kwargs.get("lacks"),
                         kwargs.get("at_most"), kwargs.get("at_least"))
    assert total
    for place, by_rank in seen.items():
        for r, counts in by_rank.items():
            want = {k: Fraction(n, total) for k, n in counts.items() if n}
            assert facts.count_distribution(place, r) == want, (place, r)
    for r in ("A", "2", "3"):  # the ocean's cards are in random order: its top card is its share
        assert facts.p_top(r) == sum(k * n for k, n in seen["ocean"][r].items()) / Fraction(total * facts.ocean_size)
    assert facts.at_least == {q: m for q, m in kwargs["at_least"].items()}


def _events(f: Facts, rank: str):
    """The answers compared below: every count of ``rank`` at every place, and every top card."""
    yield from ((q, k, f.count_distribution(q, rank).get(k, Fraction(0))) for q in sorted(f.seats, key=str)
                for k in range(4))
    yield from ((OCEAN_TOP, r, f.p_top(r)) for r in f.ranks)


OCEAN_TOP = "top"


@pytest.mark.parametrize("base, drawn", [
    (dict(hand="7 7 A 2 3", hand_sizes={1: 5}), None),
    (dict(hand="7 Q Q K", hand_sizes={1: 6, 2: 4}), None),
    (dict(hand="7 Q Q K", hand_sizes={1: 6, 2: 4}), 2),     # "Go Fish!", then two cards drawn
    (dict(hand="7 A", hand_sizes={1: 5}, books_laid=False), 1),
])
def test_at_least_one_is_the_conditioning_formula(base, drawn):
    """P(A | x >= 1) = (P(A) - P(A | x = 0) P(x = 0)) / (1 - P(x = 0)), x: their 7s."""
    most = {} if drawn is None else {"at_most": {1: {"7": drawn}}}
    prior, lacking = Facts(**base, **most), Facts(**base, lacks={1: ["7"]})
    got = Facts(**base, **most, at_least={1: {"7": 1}})
    none = prior.count_distribution(1, "7").get(0, Fraction(0))
    for (place, k, p), (_, _, p0), (_, _, want) in zip(_events(prior, "7"), _events(lacking, "7"), _events(got, "7"), strict=True):
        assert want == (p - p0 * none) / (1 - none), (place, k)
    assert got.p_holds(1, "7") == 1


def test_at_least_one_is_not_a_known_card():
    """Hand 7 7 A 2 3, theirs of five, they asked for 7s: two 7s is about half as likely as the
    known-card reading says (that reading puts one 7 among their cards, then deals four more)."""
    asked = Facts(hand="7 7 A 2 3", hand_sizes={1: 5}, at_least={1: {"7": 1}})
    card = Facts(hand="7 7 A 2 3", hand_sizes={1: 5}, known={1: ["7"]})
    assert asked.count_distribution(1, "7") == {1: Fraction(49662, 52027), 2: Fraction(2365, 52027)}
    assert card.count_distribution(1, "7")[2] == Fraction(2365, 27196)
    assert Facts(hand="7 Q", hand_sizes={1: 5}, at_least={1: {"7": 0}}).at_least == {}
