"""The limits the exact code relies on: a case's bit-packed key, the memory kept between
calls, and the bad arguments that must be refused rather than answered wrongly."""
from __future__ import annotations

import numpy as np
import pytest

from gofish_teach import Game, Rules
from gofish_teach.probability import Facts, exact, posterior
from gofish_teach.probability.history import read
from gofish_teach.probability.modular import PRIMES
from gofish_teach.probability.montecarlo import estimate
from gofish_teach.probability.pools import F_MASK, FIELD, M_MASK, MAX_RANKS, Cases

ALL = (True,) * MAX_RANKS


def test_a_key_holds_thirteen_ranks_and_no_more():
    assert MAX_RANKS == 13  # a full deck fits
    Cases(MAX_RANKS, 4, PRIMES[:1])
    with pytest.raises(ValueError, match="^n_ranks: .* at most 13 ranks"):
        Cases(MAX_RANKS + 1, 4, PRIMES[:1])


def test_a_deal_fills_the_fresh_field_to_its_limit_and_no_further():
    hand = Cases(MAX_RANKS, 4, PRIMES[:1])
    hand.apply(("deal", F_MASK, ALL))
    hand.apply(("cap", (3,) * MAX_RANKS))  # the fresh cards become the pool: M_MASK holds them
    assert F_MASK <= M_MASK and hand.pool_sizes().tolist() == [F_MASK]
    with pytest.raises(ValueError, match=f"at most {F_MASK} cards dealt at once, not {F_MASK + 1}"):
        Cases(MAX_RANKS, 4, PRIMES[:1]).apply(("deal", F_MASK + 1, ALL))


def test_a_known_count_fills_its_field_to_its_limit_and_no_further():
    hand = Cases(2, 4, PRIMES[:1])
    hand.apply(("receive", 0, FIELD))  # no cap in between: the count is not yet cut to a book
    assert hand.known_counts().tolist() == [[FIELD, 0]]
    with pytest.raises(ValueError, match=f"at most {FIELD} cards of a rank, not {FIELD + 1}"):
        hand.apply(("receive", 0, 1))
    assert hand.known_counts().tolist() == [[FIELD, 0]]  # refused before anything changed


def test_an_unknown_operation_is_refused():
    with pytest.raises(ValueError, match="unknown operation"):
        Cases(2, 4, PRIMES[:1]).apply(("shuffle", 0))


@pytest.mark.parametrize("hand_size", [15, 16, 26])
def test_deals_past_fifteen_cards_are_counted(hand_size):
    """A deal of 16 cards once spilled out of a 4-bit field and left the hand empty; with two
    players a deal can be up to 26 cards. Right after the deal, the posterior is the stated facts."""
    rules = Rules.preset("pond").replace(hand_size=hand_size)
    view = Game(rules, 2, seed=1).view(0)
    post = posterior(view, fallback=False)
    facts = Facts(hand=view.hand, hand_sizes={1: view.hand_sizes[1]},
                  books=[r for books in view.books for r in books], rules=rules)
    assert sum(post.expected_count(1, r) for r in view.ranks) == view.hand_sizes[1]
    for place in (1, "ocean"):
        for r in view.ranks:
            assert post.count_distribution(place, r) == facts.count_distribution(place, r)


def test_memory_keeps_at_most_its_size_and_forgets_on_request():
    game, rng = Game(Rules.preset("pond"), 3, seed=0), np.random.default_rng(0)
    from gofish_teach.strategies import random as random_ask

    exact.forget()
    size = exact.MEMORY.followed.size
    for _ in range(size):  # more states than it keeps: each ask adds at least one per hidden seat
        if game.is_over:
            break
        posterior(game.view(game.current_player))
        game.ask(*random_ask(game.view(game.current_player), rng))
    assert 0 < len(exact.MEMORY.followed) <= size and len(exact.MEMORY.hands) <= exact.MEMORY.hands.size
    exact.forget()
    assert len(exact.MEMORY.followed) == len(exact.MEMORY.hands) == 0


def test_a_story_counted_lately_is_answered_from_memory_with_the_same_counts(monkeypatch):
    game, rng = Game(Rules.preset("pond"), 4, seed=2), np.random.default_rng(2)
    from gofish_teach.strategies import random as random_ask

    for _ in range(8):
        game.ask(*random_ask(game.view(game.current_player), rng))
    story = read(game.view(1))
    exact.forget()
    first = exact.world_counts(story, 13, 4)
    made = []
    monkeypatch.setattr(exact, "_world_counts", lambda *args: made.append(args))
    again = exact.world_counts(read(game.view(1)), 13, 4)  # the same story, read again
    assert made == [] and (again.total, again.seats, again.ocean) == (first.total, first.seats, first.ocean)
    with monkeypatch.context() as m:  # other limits: counted again (it might not fit them)
        m.setitem(exact.LIMITS, "joint", exact.LIMITS["joint"] - 1)
        exact.world_counts(story, 13, 4)
    exact.forget()
    exact.world_counts(story, 13, 4)  # forgotten: counted again
    assert len(made) == 2


def test_a_count_in_another_thread_waits_for_the_one_running_and_both_are_exact(monkeypatch):
    """The table counts in a thread of its own while a cell may count too, and the memory both use is
    not safe to change from two threads at once: the second count starts only once the first is done
    (were it not held back, it would start within the half second given), and each answer is the one
    counted alone."""
    import threading

    from gofish_teach.strategies import random as random_ask

    game, rng = Game(Rules.preset("pond"), 5, seed=1), np.random.default_rng(1)
    stories = []
    while len(stories) < 2:
        game.ask(*random_ask(game.view(game.current_player), rng))
        if game.n_asks in (6, 9):
            stories.append(read(game.view(game.current_player)))
    exact.forget()
    alone = [exact.world_counts(s, 13, 4) for s in stories]
    exact.forget()
    real, order, started, release = exact._world_counts, [], threading.Event(), threading.Event()

    def held(story, *args):
        me = threading.current_thread().name
        order.append(("start", me))
        if me == "first":
            started.set()
            assert release.wait(60)
        counts = real(story, *args)
        order.append(("end", me))
        return counts

    monkeypatch.setattr(exact, "_world_counts", held)
    answers = {}
    threads = [threading.Thread(target=lambda s=s, k=k: answers.__setitem__(k, exact.world_counts(s, 13, 4)), name=k)
               for s, k in zip(stories, ("first", "second"), strict=True)]
    threads[0].start()
    assert started.wait(60)
    threads[1].start()
    threads[1].join(timeout=0.5)
    assert threads[1].is_alive() and order == [("start", "first")]
    release.set()
    for t in threads:
        t.join(timeout=120)
    assert order == [("start", "first"), ("end", "first"), ("start", "second"), ("end", "second")]
    for k, a in zip(("first", "second"), alone, strict=True):
        assert (answers[k].total, answers[k].seats, answers[k].ocean) == (a.total, a.seats, a.ocean)
    exact.forget()


def test_a_hand_too_big_to_join_is_remembered_as_too_big(monkeypatch):
    view = Game(Rules.preset("pond"), 3, seed=0).view(0)
    exact.forget()
    monkeypatch.setitem(exact.LIMITS, "hand_dim", 1)
    with pytest.raises(exact.TooBig, match="inner dimension"):
        exact.world_counts(read(view), len(view.ranks), 4)
    assert any(isinstance(v, exact.TooBig) for _, v in exact.MEMORY.hands.newest_first())
    exact.forget()


@pytest.mark.parametrize("seed", [-1, 1.5, True, "abc"])
def test_monte_carlo_seeds_must_be_whole_numbers(seed):
    view = Game(Rules.preset("pond"), 2, seed=3).view(0)
    with pytest.raises(ValueError, match="^seed must be a whole number, at least 0"):
        posterior(view, seed=seed)
    with pytest.raises(ValueError, match="^seed must be a whole number"):
        estimate(view, samples=100, seed=seed)


def test_numpy_integers_are_whole_numbers():
    view = Game(Rules.preset("pond"), 2, seed=3).view(0)
    assert posterior(view, samples=np.int64(100), seed=np.uint8(1)).exact
    facts = Facts(hand="7 Q", hand_sizes={np.int64(1): np.int32(5)}, at_most={np.int64(1): {"7": np.int64(1)}},
                  me=np.int64(0))
    assert facts.me == 0 and type(facts.me) is int and list(facts.seats) == [1]


def _story_after_random_asks(n: int, asks: int):
    """The story of the player to ask after ``asks`` random asks in a seeded ``n``-player pond game."""
    from gofish_teach.strategies import random as random_ask

    game, rng = Game(Rules.preset("pond"), n, seed=n), np.random.default_rng(n)
    for _ in range(asks):
        game.ask(*random_ask(game.view(game.current_player), rng))
    return read(game.view(game.current_player))


def test_rank_order_and_exchangeable_ranks_do_not_change_counts(monkeypatch):
    """The sweep takes the ranks in the order rank_order picks and works out exchangeable ranks
    once; on full decks at five and six players, the counts equal those of a sweep in deck
    order with every rank worked out on its own."""

    reordered = shared = 0
    for n, asks in ((5, 6), (6, 3), (6, 12)):
        story = _story_after_random_asks(n, asks)
        exact.forget()
        fast = exact.world_counts(story, 13, 4)
        with monkeypatch.context() as m:
            m.setattr(exact, "COMPARE_ABOVE", float("inf"))  # deck order, not another that costs less
            m.setattr(exact, "rank_order", lambda hands: list(range(13)))
            m.setattr(exact, "exchangeable", lambda story: list(range(13)))
            exact.forget()
            plain = exact.world_counts(story, 13, 4)
        assert (fast.total, fast.seats, fast.ocean) == (plain.total, plain.seats, plain.ocean)
        reordered += exact.rank_order([exact._follow(story.ops[q], 13, 4, PRIMES[:1]) for q in story.seats]) != list(range(13))
        shared += exact.exchangeable(story) != list(range(13))
    assert reordered and shared  # both shortcuts were taken


def _widest(story, order):
    """The joined states at the widest place when the hands take their ranks in ``order``."""
    primes = PRIMES[:1]
    caps = tuple(min(3, u) for u in story.unseen)
    hands = [exact.Hand.from_cases(exact._follow(story.ops[q], 13, 4, primes), caps, order=order) for q in story.seats]
    return max(int(np.prod([hand.dims()[r] for hand in hands])) for r in range(12))


def test_a_position_too_wide_in_the_usual_order_is_counted_in_the_narrow_one(monkeypatch):
    """When rank_order joins more states than LIMITS allows and narrow_order fewer, the count is
    made in another order, exactly (the same counts as with no limit), and the narrow order's
    hands are built; without the narrow and the planned order the same position raises TooBig."""
    from gofish_teach.strategies import random as random_ask

    game, rng = Game(Rules.preset("pond"), 5, seed=5), np.random.default_rng(5)
    for _ in range(40):
        game.ask(*random_ask(game.view(game.current_player), rng))
        story = read(game.view(game.current_player))
        followed = [exact._follow(story.ops[q], 13, 4, PRIMES[:1]) for q in story.seats]
        usual, narrow = exact.rank_order(followed), exact.narrow_order(followed)
        wide, narrower = _widest(story, usual), _widest(story, narrow)
        if narrower < wide:
            break
    else:
        pytest.fail("no position in 40 asks where the narrow order joins fewer states")
    exact.forget()
    unlimited = exact.world_counts(story, 13, 4)
    built = _count_builds(monkeypatch)
    with monkeypatch.context() as m:
        m.setattr(exact, "COMPARE_ABOVE", float("inf"))  # the limit alone chooses the order here
        m.setitem(exact.LIMITS, "work", -1)  # no count past the joined states' limit, however cheap
        m.setitem(exact.LIMITS, "joint", wide)  # the usual order just fits: it is the one used
        exact.forget()
        counted = exact.world_counts(story, 13, 4)
        assert (counted.total, counted.seats, counted.ocean) == (unlimited.total, unlimited.seats, unlimited.ocean)
        assert built == [tuple(usual)] * len(story.seats)
        m.setitem(exact.LIMITS, "joint", narrower)
        exact.forget()
        counted = exact.world_counts(story, 13, 4)
        assert (counted.total, counted.seats, counted.ocean) == (unlimited.total, unlimited.seats, unlimited.ocean)
        assert built.count(tuple(narrow)) == len(story.seats)  # every narrow hand was built
        m.setattr(exact, "narrow_order", exact.rank_order)
        m.setattr(exact.Plan, "best", lambda plan: usual)
        exact.forget()
        with pytest.raises(exact.TooBig, match=r"need (at least )?\d+ states at one rank"):
            exact.world_counts(story, 13, 4)
    exact.forget()


def test_a_costly_count_joins_the_ranks_and_hands_in_the_order_that_costs_least(monkeypatch):
    """Past ``exact.COMPARE_ABOVE`` (multiply-adds, :func:`~.contract.work`) a count builds its
    hands in narrow_order and planned_order too, and joins them in whichever order of the ranks
    and of the hands costs least; the counts are those of the usual order. At this six-player
    position that is the planned order (a third of the usual one's work, less than half the
    narrow one's), with the hands in an order other than the seats'."""
    from gofish_teach.probability.modular import primes_for_bits
    from gofish_teach.probability.orders import planned_order

    story = _story_after_random_asks(6, 20)
    primes = primes_for_bits(exact.bits_needed(story))
    followed = [exact._follow(story.ops[q], 13, 4, primes) for q in story.seats]
    caps = tuple(min(3, u) for u in story.unseen)
    least = {}
    for order in (exact.rank_order(followed), exact.narrow_order(followed),
                  planned_order(followed, caps, story.unseen)):
        hands = [exact.Hand.from_cases(cases, caps, order=order) for cases in followed]
        least[tuple(order)] = exact._cheapest(hands, [story.unseen[r] for r in order])
    (cost, seating), order = min((v, k) for k, v in least.items())
    assert order == tuple(planned_order(followed, caps, story.unseen)) and seating != tuple(range(5))
    assert cost < exact.work([exact.Hand.from_cases(cases, caps, order=order) for cases in followed],
                             [story.unseen[r] for r in order])  # the seats' order costs more

    with monkeypatch.context() as m:
        m.setattr(exact, "COMPARE_ABOVE", float("inf"))
        exact.forget()
        usual = exact.world_counts(story, 13, 4)
    joined, count_worlds = [], exact.count_worlds

    def spy(hands, unseen, *args):
        joined.append(exact.work(hands, unseen))
        return count_worlds(hands, unseen, *args)
    monkeypatch.setattr(exact, "count_worlds", spy)
    exact.forget()
    cheap = exact.world_counts(story, 13, 4)
    exact.forget()
    assert joined == [cost]
    assert (cheap.total, cheap.seats, cheap.ocean) == (usual.total, usual.seats, usual.ocean)

    monkeypatch.setattr(exact.Plan, "MAX_EFFORT", 0)  # a plan too costly to make: the narrow order is left
    joined.clear()
    unplanned = exact.world_counts(story, 13, 4)
    exact.forget()
    assert joined == [least[tuple(exact.narrow_order(followed))][0]]
    assert (unplanned.total, unplanned.seats, unplanned.ocean) == (usual.total, usual.seats, usual.ocean)


@pytest.mark.parametrize("asks, with_ocean", [(12, False), (32, False), (32, True)])
def test_work_counts_the_multiply_adds_of_both_sweeps_in_any_seating(asks, with_ocean):
    """``contract.work`` (compiled) against the products both sweeps make, counted in plain Python
    from the hands' shapes, at six-player positions, for every order of the hands: sweeping
    left to right a hand taken already is at its index after the rank, right to left before it.
    Given the ocean's size (empty after 32 asks), the sums of a rank the hands still to take
    cannot bring up to what the ocean leaves are not made."""
    from itertools import permutations
    from math import prod

    from gofish_teach.probability.contract import cheapest_seating, work

    def products(hands, unseen, ocean):
        total = 0
        for s, u in enumerate(unseen):
            shapes = [hand.tensors[s].shape[1:] for hand in hands]  # (counts, index before, index after)
            least = 0 if ocean is None else max(0, u - ocean)
            for right in (False, True):
                dims = [after if right else before for _, before, after in shapes]
                sums = {0}
                for q in (range(len(shapes) - 1, -1, -1) if right else range(len(shapes))):
                    d, before, after = shapes[q]
                    later = sum(shapes[h][0] - 1 for h in (range(q) if right else range(q + 1, len(shapes))))
                    sums_after = {t + x for t in sums for x in range(d) if least <= t + x + later and t + x <= u}
                    total += prod(dims) // dims[q] * (len(sums) * before) * (len(sums_after) * after)
                    dims[q] = before if right else after
                    sums = sums_after
        return total

    story = _story_after_random_asks(6, asks)
    ocean = story.ocean if with_ocean else None
    assert (story.ocean == 0) == (asks == 32)
    caps = tuple(min(3, u) for u in story.unseen)
    hands = [exact.Hand.from_cases(exact._follow(story.ops[q], 13, 4, PRIMES[:1]), caps) for q in story.seats]
    costs = {seating: products([hands[i] for i in seating], story.unseen, ocean) for seating in permutations(range(5))}
    assert all(work(hands, story.unseen, seating, ocean) == cost for seating, cost in costs.items())
    assert len(set(costs.values())) > 1
    assert cheapest_seating(hands, story.unseen, ocean) == min((c, s) for s, c in costs.items())
    if with_ocean:  # what the empty ocean saves
        assert min(costs.values()) < 0.9 * cheapest_seating(hands, story.unseen)[0]


@pytest.mark.parametrize("asks", [30, 31, 32])
def test_the_sums_the_ocean_cannot_complete_are_left_out_without_changing_a_count(asks):
    """Hands' sizes are fixed, so the ocean holds at most its size of any rank; tallies below
    ``unseen - ocean`` that the hands still to take cannot make up are dropped as they are made
    (``count_worlds(..., ocean=...)``). At six-player positions with 2, 1 and 0 cards in the ocean,
    every count is what the sweep makes with all of them."""
    from gofish_teach.probability.contract import count_worlds

    story = _story_after_random_asks(6, asks)
    assert story.ocean == {30: 2, 31: 1, 32: 0}[asks]
    primes = PRIMES[:2]
    caps = tuple(min(3, u) for u in story.unseen)
    hands = [exact.Hand.from_cases(exact._follow(story.ops[q], 13, 4, primes), caps) for q in story.seats]
    all_sums = count_worlds(hands, story.unseen, primes)
    assert all_sums[0] > 0 and count_worlds(hands, story.unseen, primes, ocean=story.ocean) == all_sums
    if story.ocean:  # told the ocean is smaller than it is, the sweep leaves out worlds: it does prune
        assert count_worlds(hands, story.unseen, primes, ocean=story.ocean - 1)[0] < all_sums[0]


def _count_builds(monkeypatch) -> list:
    """Record the order of every hand ``Hand.from_cases`` builds from now on (for the test's duration)."""
    built, build = [], exact.Hand.from_cases.__func__

    def counting(cls, cases, caps, limit=None, order=None):
        built.append(tuple(order))
        return build(cls, cases, caps, limit, order)
    monkeypatch.setattr(exact.Hand, "from_cases", classmethod(counting))
    return built


def test_a_count_past_the_joined_states_limit_is_made_if_it_costs_at_most_the_work_limit(monkeypatch):
    """Past ``LIMITS["joint"]`` joined states (up to ``exact.WIDER`` times as many) a count is still
    made, exactly, when its work is at most ``LIMITS["work"]``; one multiply-add more and it is not
    (in the only order of the ranks it may use here), with both limits named."""
    from gofish_teach.probability import contract

    story = _story_after_random_asks(5, 12)
    exact.forget()
    unlimited = exact.world_counts(story, 13, 4)
    made, count_worlds = [], exact.count_worlds

    def counting(hands, unseen, *args):
        made.append((exact.joined_states(hands), contract.work(hands, unseen, ocean=args[-1])))
        return count_worlds(hands, unseen, *args)

    monkeypatch.setattr(exact, "count_worlds", counting)
    monkeypatch.setattr(exact, "COMPARE_ABOVE", -1)  # every count joins the hands in their cheapest order
    monkeypatch.setattr(exact, "narrow_order", exact.rank_order)
    usual = exact.rank_order([exact._follow(story.ops[q], 13, 4, PRIMES[:1]) for q in story.seats])
    monkeypatch.setattr(exact.Plan, "best", lambda plan: usual)
    exact.forget()
    exact.world_counts(story, 13, 4)
    [(states, cost)] = made
    monkeypatch.setitem(exact.LIMITS, "joint", states - 1)
    monkeypatch.setitem(exact.LIMITS, "work", cost)
    exact.forget()
    counted = exact.world_counts(story, 13, 4)
    assert (counted.total, counted.seats, counted.ocean) == (unlimited.total, unlimited.seats, unlimited.ocean)
    assert counted.work == cost  # what the count cost, as make bench reports it
    monkeypatch.setitem(exact.LIMITS, "work", cost - 1)
    exact.forget()
    for _ in range(2):  # counted, then answered from memory: the same error, with what the count would cost
        with pytest.raises(exact.TooBig, match=rf"need {states} states at one rank \(limit {states - 1}\), and their "
                                               rf"count {cost} multiply-adds \(limit {cost - 1} past {states - 1} states\)") as why:
            exact.world_counts(story, 13, 4)
        assert why.value.work == cost
    exact.forget()


def test_an_order_too_wide_is_given_up_before_every_hand_is_built(monkeypatch):
    """Each hand is at least one state wide at every place, so once the hands built so far join
    more states than LIMITS allows, the order is given up without building the others; what
    was built is remembered, and with room to spare the counts are still exact."""

    story = _story_after_random_asks(5, 12)
    exact.forget()
    unlimited = exact.world_counts(story, 13, 4)
    built = _count_builds(monkeypatch)
    exact.forget()
    with monkeypatch.context() as m:
        m.setitem(exact.LIMITS, "joint", 1)
        # no teams here: hands that may be counted graded are built in up to GRADED_WIDER times the limit
        with pytest.raises(exact.TooBig, match=rf"need at least \d+ states at one rank \(limit 1, or {exact.GRADED_WIDER} "
                                               r"for a count of at most \d+ multiply-adds\)"):
            exact.world_counts(story, 13, 4)
    assert len(story.seats) == 4 and 1 <= len(built) == len(set(built)) <= 3  # one hand in each order tried
    assert len(exact.MEMORY.hands) == len(built)
    counted = exact.world_counts(story, 13, 4)  # reusing what was remembered
    assert (counted.total, counted.seats, counted.ocean) == (unlimited.total, unlimited.seats, unlimited.ocean)
    exact.forget()


def test_a_sampled_answer_is_remembered_and_each_caller_gets_its_own_copy(monkeypatch):
    """Where the count is too big, ``posterior`` samples; the same view (and sampling arguments) asked
    again, e.g. by a greedy bot after the table's thread asked for it, gets the same answer unsampled."""
    import gofish_teach.probability as probability

    view = Game(Rules.preset("pond"), 4, seed=0).view(0)
    exact.forget()
    monkeypatch.setitem(exact.LIMITS, "joint", 1)
    real, runs = probability.sample_hands, []
    monkeypatch.setattr(probability, "sample_hands", lambda *a, **k: runs.append(a) or real(*a, **k))
    first = posterior(view, samples=400)
    first.seats[1]["A"] = {0: 1}  # what a caller does to its answer ...
    second = posterior(view, samples=400)
    assert len(runs) == 1 and not second.exact and second.seats[1]["A"] != {0: 1}  # ... stays with it
    assert posterior(view, samples=400).table() == second.table()
    posterior(view, samples=400, seed=1)  # other sampling arguments: sampled again
    assert len(runs) == 2
    exact.forget()


def test_the_counts_do_not_depend_on_the_primes_after_the_total_or_on_the_steps_kept(monkeypatch):
    """A count takes the total first, with the primes the story's bound asks for, and the rest
    with as few as the total needs; the left-to-right sweep keeps its partial steps for the
    counts while they fit in ``contract.KEPT_BYTES``. With every prime throughout, and with no
    step kept, some or all, the counts at five and six players are the same."""
    from gofish_teach.probability import contract

    cut_primes, kept = [], []
    enough, left_sweep = contract.enough, contract._left_sweep

    def fewer(primes, n):
        cut_primes.append(len(enough(primes, n)) < len(primes))
        return enough(primes, n)

    def keeping(*args):
        left, steps = left_sweep(*args)
        kept.append(len(steps))  # how many ranks' steps it kept (the counts pop them as they use them)
        return left, steps

    monkeypatch.setattr(contract, "_left_sweep", keeping)
    for n, asks in ((5, 6), (6, 12)):
        story = _story_after_random_asks(n, asks)
        answers = []
        for room, primes in ((contract.KEPT_BYTES, fewer), (0, fewer), (300_000, fewer),
                             (contract.KEPT_BYTES, lambda primes, n: tuple(primes))):
            monkeypatch.setattr(contract, "KEPT_BYTES", room)
            monkeypatch.setattr(contract, "enough", primes)
            exact.forget()
            counts = exact.world_counts(story, 13, 4)
            answers.append((counts.total, counts.seats, counts.ocean))
        assert answers[1:] == answers[:1] * 3
        every, none, some = kept[-4:-1]
        assert every > some > 0 == none  # every way of keeping was tried
    assert any(cut_primes)  # and the total did need fewer primes than the bound


def test_sums_cut_shorter_give_the_same_counts(monkeypatch):
    """Every contraction cuts its sums at ``MAX_SUM_TERMS`` products (so that float64 stays
    exact) and reduces each part; cut at 3 instead, every product of the sweep is cut, and a
    five-player count is the same."""
    from gofish_teach.probability import contract, modular

    story = _story_after_random_asks(5, 6)
    exact.forget()
    usual = exact.world_counts(story, 13, 4)
    cuts = []
    matmul = np.matmul
    monkeypatch.setattr(contract.np, "matmul", lambda a, b, **kw: cuts.append(a.shape[-1]) or matmul(a, b, **kw))
    for module in (contract, modular):
        monkeypatch.setattr(module, "MAX_SUM_TERMS", 3)
    exact.forget()
    cut = exact.world_counts(story, 13, 4)
    assert (cut.total, cut.seats, cut.ocean) == (usual.total, usual.seats, usual.ocean)
    assert cuts and max(cuts) <= 3


_REFILL = """
import resource, numpy as np
from numpy._core import multiarray
multiarray._set_madvise_hugepage(False)  # count the system's 4 KB pages, not the 2 MB ones numpy asks for
from gofish_teach.probability import exact

def faults(make):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    made = make()
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before, made

big = lambda: np.ones(2 ** 23)  # 64 MB
a = big(); del a
fresh, b = faults(big)  # freed, then mapped afresh: a fault per page
kept_it = exact.keep_freed_memory()
del b
e = big(); del e        # this one's pages are kept when it is freed...
kept, c = faults(big)   # ...and serve the next
del c
exact.forget()          # gives what is free back to the system
forgotten, d = faults(big)
del d

from concurrent.futures import ThreadPoolExecutor
def in_a_thread():          # a thread's arena is made of heaps of at most 64 MB, each given back once free
    three = lambda: [np.ones(2 ** 22) for _ in range(3)]  # 32 MB each: three heaps
    e = three(); del e
    return faults(three)[0]
threaded = ThreadPoolExecutor(1).submit(in_a_thread).result()
print(kept_it, fresh, kept, forgotten, threaded)
"""


@pytest.mark.skipif(not exact._glibc(), reason="only glibc's malloc is tuned")
def test_a_costly_count_keeps_freed_memory_for_the_next_arrays_and_forget_gives_it_back():
    """glibc maps every big array afresh and unmaps it when it is freed, a page fault per page
    touched, up to half of the slowest six-player counts' time. After
    :func:`~.exact.keep_freed_memory` a freed 64 MB array's pages serve the next one without a
    fault, in the main thread and in another; :func:`~.exact.forget` returns them. (In a process
    of its own: the setting is the whole process's.)"""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _REFILL], capture_output=True, text=True, check=True).stdout
    kept_it, fresh, kept, forgotten, threaded = out.split()
    assert kept_it == "True"
    assert int(fresh) > 8000 and int(forgotten) > 8000  # 16,384 pages of 4 KB
    assert int(kept) < 1000
    assert int(threaded) < 1000  # in a thread (the Table counts in one) too


def test_a_costly_count_asks_to_keep_freed_memory(monkeypatch):
    """Only a count past ``COMPARE_ABOVE`` asks (a small one does not need it)."""
    asked = []
    monkeypatch.setattr(exact, "keep_freed_memory", lambda: asked.append(True))
    exact.forget()
    exact.world_counts(_story_after_random_asks(4, 2), 13, 4)
    assert asked == []
    monkeypatch.setattr(exact, "COMPARE_ABOVE", -1)
    exact.forget()
    exact.world_counts(_story_after_random_asks(4, 2), 13, 4)
    assert asked == [True]


def test_a_view_the_sampler_cannot_start_from_is_counted_exactly_past_the_limit(monkeypatch):
    """Pond, six players, seed 150, after 31 random asks: the ocean is empty, the hands too wide
    for ``LIMITS["joint"]``, and hands drawn one after another never split the unseen cards
    exactly, so no chain can start (found by ``make bench``, 200 games). ``posterior`` then counts
    exactly with ``exact.LAST_RESORT_JOINT`` (it had raised ``ValueError``). (The count is cheap
    enough for ``LIMITS["work"]`` since wide counts are made; here that limit is taken away.)"""
    from gofish_teach.probability.gibbs import NoStart, gibbs_chains
    from gofish_teach.strategies import random as random_ask

    monkeypatch.setitem(exact.LIMITS, "work", -1)

    game, rng = Game(Rules.preset("pond"), 6, seed=150), np.random.default_rng(150)
    for _ in range(31):
        game.ask(*random_ask(game.view(game.current_player), rng))
    view = game.view(game.current_player)
    story = read(view)
    assert story.ocean == 0
    with pytest.raises(exact.TooBig):
        exact.world_counts(story, 13, 4)
    with pytest.raises(NoStart):
        gibbs_chains(story, 13, 4, sweeps=10, seed=0, chains=100, burn=20)
    belief = posterior(view, samples=2000)
    assert belief.exact
    for q in story.seats:  # every hidden card is in a hand: each seat holds its hand size
        assert sum(belief.expected_count(q, r) for r in view.ranks) == view.hand_sizes[q]
