"""The public record (gofish_teach.record): operations event by event, hand sizes, shown ranks
and dead asks, checked on hand-built games and against the true hands of played games."""
from __future__ import annotations

import copy
import pickle
from collections import Counter

import numpy as np

from gofish_teach import Game, Rules
from gofish_teach.events import Draw, Turn
from gofish_teach.probability import history
from gofish_teach.record import Asked, Booked, Dealt, Drew, Gave, Got, Lacks, Record, Settled, fished_for
from gofish_teach.strategies import random as random_ask

POND = Rules.preset("pond")


def scenario(hands: list[str], ocean: str = "", rules: Rules = POND, **changes) -> Game:
    """Deal ``hands`` (rank labels by seat), put ``ocean`` on top of the rest, the rest in rank order."""
    hands = [h.split() for h in hands]
    n, size = len(hands), len(hands[0])
    rules = rules.replace(hand_size=size, **changes)
    deck = [hands[k % n][k // n] for k in range(size * n)] + ocean.split()
    rest = Counter({r: 4 for r in rules.ranks}) - Counter(deck)
    deck += sorted(rest.elements(), key=rules.ranks.index)
    return Game(rules, n, deck=deck)


# --------------------------------------------------------------------------- operations
def test_every_event_becomes_operations_about_one_seat_each():
    game = scenario(["2 5", "3 6", "2 7"], "Q 3 K")
    game.ask(2, "5"), game.ask(2, "3")  # Go Fish, seat 0 draws Q; Go Fish, seat 1 draws a 3: lucky
    record = Record(game.n_players, game.rules)
    said = [ops for _, ops in record.follow(game.events)]
    assert said[:3] == [(Dealt(0, 2, None),), (Dealt(1, 2, None),), (Dealt(2, 2, None),)]
    assert said[3:7] == [(Settled(0), Settled(1), Settled(2), Asked(0, "5")), (Lacks(2, "5"),),
                         (Drew(0, 1, None, False, False, "5"),), (Settled(0),)]
    lucky = game.events[9]
    assert said[9] == (Drew(1, 1, lucky.cards, True, False, None),)
    assert record.settle() == (Settled(1),) and record.settle() == ()


def test_a_players_own_cards_are_in_its_operations():
    game = scenario(["2 5", "3 6"], "Q")
    game.ask(1, "5")
    ops = [op for event in game.view(0).events for op in Record(2, game.rules).read(event)]
    dealt = next(op for op in ops if type(op) is Dealt)
    assert [str(c) for c in dealt.cards] == ["2♣", "5♣"]
    assert game.view(0).events[4].cards is not None
    assert Record.of(game.view(0)).sizes == Record.of(game).sizes == [3, 2]


def test_gifts_and_books():
    game = scenario(["2 2 2 9", "2 5 6 A", "7 8 10 J"], "K")
    record = Record(3, game.rules)
    ops = [op for event in game.events + tuple(game.ask(1, "2")) for op in record.read(event)]
    assert ops[-3:] == [Gave(1, "2", 1), Got(0, "2", 1), Booked(0, "2")]
    assert record.sizes == [1, 3, 4] and record.shown[0] == {} and record.shown[1] == {}


def test_fished_for_is_the_rank_just_asked_for_only_after_go_fish():
    game = scenario(["2 5", "3 6"], "Q")
    game.ask(1, "5")
    draw = game.events[4]
    assert isinstance(draw, Draw) and fished_for(draw, game.events[2]) == "5"
    assert fished_for(draw, None) is None
    assert fished_for(Draw(1, 1, None, "empty hand"), game.events[2]) is None


def test_the_record_follows_the_game():
    for seed in range(30):
        rules = [POND, Rules.preset("family"), Rules.preset("bicycle"), Rules.preset("classic"),
                 POND.replace(book_size=2), POND.replace(bluff=True)][seed % 6]
        n = 2 + seed % 4
        game = Game(rules, n, seed=seed)
        rng = np.random.default_rng(seed)
        record = Record(n, rules)
        while True:
            for event in game.events[record.n_events:]:
                record.read(event)
            assert record.sizes == list(game.hand_sizes) and record.ocean == game.ocean_size
            for q in range(n):
                assert all(game.count(q, r) == 0 for r in record.dead[q]), "a dead ask would succeed"
                if not rules.bluff:
                    assert all(game.count(q, r) for r in record.shown[q]), "a shown rank is not held"
            if game.is_over:
                break
            game.ask(*random_ask(game.view(game.current_player), rng))
        assert record.over is not None and record.over in str(game.events[-1])


# --------------------------------------------------------------------------- dead asks
def test_go_fish_with_no_draw_makes_an_ask_dead():
    game = scenario(["A A 2 3", "2 2 3 3", "A A 2 3"], n_ranks=3)  # no ocean
    assert game.ocean_size == 0
    game.ask(1, "A")  # "Go Fish!", and no card to draw
    record = Record.of(game.view(2))
    assert record.dead == [set(), {"A"}, set()]
    assert not record.live(1, "A") and record.live(1, "2") and record.live(0, "A")
    game.ask(2, "2")  # seat 1 is given a 2: that says nothing about its Aces
    assert not Record.of(game).live(1, "A")


def test_a_draw_makes_it_live_again():
    game = scenario(["A 2", "3 4", "5 6"], "7 8 9 10")
    game.ask(1, "A")  # "Go Fish!", seat 0 draws
    assert not Record.of(game).live(1, "A")
    game.ask(2, "3")  # seat 1: "Go Fish!", and seat 1 draws a card
    assert Record.of(game).live(1, "A") and not Record.of(game).live(2, "3")


def test_being_given_the_rank_makes_it_live_again():
    game = scenario(["A 2 3", "4 5 6", "A 7 8"], "9 10 J Q", bluff=True)
    game.ask(1, "A")              # seat 1: "Go Fish!"; seat 0 draws 9
    game.ask(2, "A")              # seat 1 bluffs for Aces: seat 2 gives it one
    record = Record.of(game)
    assert record.dead[1] == set() and record.live(1, "A")
    assert record.dead[2] == set()  # seat 2 gave its Ace away: that is not a "Go Fish!"


def test_a_player_with_no_cards_is_never_live():
    game = scenario(["2 9", "2 9", "5 6"], "K Q J")
    game.ask(1, "2"), game.ask(1, "9")
    record = Record.of(game.view(0))
    assert record.sizes[1] == 0 and record.dead[1] == set() and not record.live(1, "5")


# --------------------------------------------------------------------------- history's typed operations
def test_history_operations_are_named_tuples_whose_first_item_is_their_kind():
    op = history.DrawOp((True, False))
    assert op == ("draw", (True, False)) and op[0] == op.kind == "draw" and op.allowed == (True, False)
    assert repr(op) == "DrawOp(allowed=(True, False))"
    assert history.GiveOp(3, 2)[1:] == (3, 2)
    for made in (copy.copy(op), copy.deepcopy(op), pickle.loads(pickle.dumps(op))):
        assert made == op and type(made) is history.DrawOp
    assert op._replace(allowed=(False,)) == ("draw", (False,))


def test_history_reads_through_the_record():
    game = scenario(["A 2", "3 4"], "5 6 7")
    game.ask(1, "A")
    story = history.read(game.view(0))
    assert story.ops[1] == [history.DealOp(2, (True,) * 13), history.CapOp((3,) * 13),
                            history.NoneOp(0)]
    assert [type(op) for op in story.ops[1]] == [history.DealOp, history.CapOp, history.NoneOp]


def test_repr_names_what_a_reader_needs():
    game = scenario(["A A 2 3", "2 2 3 3", "A A 2 3"], n_ranks=3)
    game.ask(1, "A")
    assert repr(Record.of(game)) == ("<Record of 6 events: hand sizes [4, 4, 4], ocean 0, "
                                     "shown [{'A': 3}, {}, {}], dead asks [none, {A}, none]>")
    assert isinstance(game.events[-1], Turn)


def test_a_copy_reads_on_alone():
    game = scenario(["A 2", "3 4"], "5 6 7")
    game.ask(1, "A")
    record = Record.of(game)
    other = record.copy()
    other.read(game.events[0])
    assert other.n_events == record.n_events + 1 and other.sizes != record.sizes
    assert record.dead == [set(), {"A"}] and other.dead is not record.dead



def test_a_go_fish_to_one_card_proves_nothing_about_the_rank():
    # Under specific_card rules "Go Fish!" to the 7 of hearts says nothing of the 7 of spades,
    # so no ask becomes dead (the dead-ask rule is for what the record *proves*).
    from gofish_teach import Game, Rules
    from gofish_teach.record import Record

    game = Game(Rules.preset("classic").replace(specific_card=True), 2, seed=3)
    while not game.is_over and not any(type(e).__name__ == "GoFish" for e in game.events):
        game.ask(*game.legal_asks()[0])
    record = Record.of(game)
    assert any(type(e).__name__ == "GoFish" for e in game.events)
    assert record.dead == [frozenset(), frozenset()]
    assert record.copy().card_asks is True
