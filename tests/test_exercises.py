"""The exercises: every check fails on the stub and on plausible wrong solutions, and passes on the solution.

Also: the key's reference answers (``solutions/key/``) agree with the game engine and the probability code; a
learner's exception, endless loop or memory hog is reported without harming the caller;
the exercise notebooks are the solution notebooks with the stubs put back, and they run
top to bottom in a real kernel, unfinished, without an error.
"""
from __future__ import annotations

import json
import math
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from gofish_teach import Ask, Game, Give, GoFish, IllegalMove, Rules
from gofish_teach.exercises import EXERCISES, build, check, get_exercise, load_key, run_check, sandbox
from gofish_teach.exercises.strategy import SMALL_POND, play_capstone_game, random_asker
from gofish_teach.probability import Facts

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = ROOT / "solutions"
EXERCISE_DIR = ROOT / "exercises"
#: The teacher's answer key, outside the package.
KEY = load_key(SOLUTIONS / "key")
deal_reference, give_reference, lay_books_reference = KEY.deal_reference, KEY.give_reference, KEY.lay_books_reference
next_asker_reference, game_over_reference = KEY.next_asker_reference, KEY.game_over_reference
p_lucky_reference, p_holds_reference = KEY.p_lucky_reference, KEY.p_holds_reference


def _cells(path, tag):
    notebook = json.loads(Path(path).read_text(encoding="utf-8"))
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in notebook["cells"] if tag in c.get("metadata", {}).get("tags", [])]


def _define(path, tag):
    """Run a notebook's set-up cell and its ``tag`` cell; return the namespace."""
    notebook = json.loads(Path(path).read_text(encoding="utf-8"))
    code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    namespace: dict = {}
    exec("".join(code[0]["source"]), namespace)  # the set-up cell: imports
    for source in _cells(path, tag):
        exec(source, namespace)
    return namespace


def _solution(ex):
    return _define(SOLUTIONS / f"{ex.id}.ipynb", "solution")[ex.function]


def _stub(ex):
    return _define(EXERCISE_DIR / f"{ex.id}.ipynb", "answer")[ex.function]


# --------------------------------------------------------------------------- wrong solutions
# Each is a mistake a learner could make; every one must fail its exercise's check.
def deal_in_blocks(deck, n_players, hand_size):
    return [list(deck[p * hand_size:(p + 1) * hand_size]) for p in range(n_players)]


def deal_whole_deck(deck, n_players, hand_size):
    hands = [[] for _ in range(n_players)]
    for k, card in enumerate(deck):
        hands[k % n_players].append(card)
    return hands


def deal_from_last_seat(deck, n_players, hand_size):
    hands = [[] for _ in range(n_players)]
    for k in range(n_players * hand_size):
        hands[(n_players - 1 - k) % n_players].append(deck[k])
    return hands


def asks_with_self(hand, me, n_players):
    ranks = list(dict.fromkeys(c[:-1] for c in hand))
    return [(t, r) for t in range(n_players) for r in ranks]


def asks_per_card(hand, me, n_players):
    return [(t, c[:-1]) for t in range(n_players) if t != me for c in hand]


def asks_first_character(hand, me, n_players):
    ranks = list(dict.fromkeys(c[0] for c in hand))
    return [(t, r) for t in range(n_players) if t != me for r in ranks]


def give_one(asker, target, rank):
    for card in target:
        if card[:-1] == rank:
            return asker + [card], [c for c in target if c != card]
    return asker, target


def give_first_character(asker, target, rank):
    given = [c for c in target if c[0] == rank]
    return asker + given, [c for c in target if c[0] != rank]


def give_loses_cards(asker, target, rank):
    return list(asker), [c for c in target if c[:-1] != rank]


def books_exact_count(hand, book_size=4):
    ranks = [c[:-1] for c in hand]
    books = [r for r in dict.fromkeys(ranks) if ranks.count(r) == book_size]
    return [c for c in hand if c[:-1] not in books], books


def books_drop_whole_rank(hand, book_size=4):
    ranks = [c[:-1] for c in hand]
    books = [r for r in dict.fromkeys(ranks) if ranks.count(r) >= book_size]
    return [c for c in hand if c[:-1] not in books], books


def books_one_per_rank(hand, book_size=4):
    ranks = [c[:-1] for c in hand]
    books, left = [], list(hand)
    for r in dict.fromkeys(ranks):
        if ranks.count(r) >= book_size:
            books.append(r)
            for c in [c for c in left if c[:-1] == r][:book_size]:
                left.remove(c)
    return left, books


def next_ignores_lucky(rules, current, outcome, hand_sizes, ocean):
    outcome = "go fish" if outcome == "lucky draw" else outcome
    return next_asker_reference(rules, current, outcome, hand_sizes, ocean)


def next_ignores_empty_hands(rules, current, outcome, hand_sizes, ocean):
    if rules == "classic" and ocean == 0:
        return None
    if ocean == 0 and not any(hand_sizes):
        return None
    return current if outcome in ("got cards", "lucky draw") else (current + 1) % len(hand_sizes)


def next_classic_as_pond(rules, current, outcome, hand_sizes, ocean):
    return next_asker_reference("pond", current, outcome, hand_sizes, ocean)


def over_one_winner(end, ocean, hand_sizes, books, total_books=13):
    result = game_over_reference(end, ocean, hand_sizes, books, total_books)
    return None if result is None else [int(np.argmax(books))]


def over_all_hands_empty(end, ocean, hand_sizes, books, total_books=13):
    end = "all_books" if end == "empty_hand_and_ocean" and any(hand_sizes) else end
    return game_over_reference(end, ocean, hand_sizes, books, total_books)


def over_forgets_last_book(end, ocean, hand_sizes, books, total_books=13):
    if end == "all_books":
        return game_over_reference(end, ocean, hand_sizes, books, total_books)
    return game_over_reference(end, ocean, hand_sizes, books, total_books=10**6)


def lucky_ignores_go_fish(hand, rank, opponent_size, books=(), n_ranks=13):
    held = [c[:-1] for c in hand]
    unseen = 4 * n_ranks - len(hand) - 4 * len(books)
    return Fraction(4 - held.count(rank) - 4 * list(books).count(rank), unseen)


def lucky_ignores_books(hand, rank, opponent_size, books=(), n_ranks=13):
    return p_lucky_reference(hand, rank, opponent_size, (), n_ranks)


def lucky_as_float(hand, rank, opponent_size, books=(), n_ranks=13):
    return float(p_lucky_reference(hand, rank, opponent_size, books, n_ranks))


def holds_expected_count(hand, rank, opponent_size, books=(), lacks=(), n_ranks=13):
    held = [c[:-1] for c in hand]
    unseen = 4 * n_ranks - len(hand) - 4 * len(books)
    return Fraction(opponent_size * (4 - held.count(rank) - 4 * list(books).count(rank)), unseen)


def holds_with_replacement(hand, rank, opponent_size, books=(), lacks=(), n_ranks=13):
    held = [c[:-1] for c in hand]
    unseen = 4 * n_ranks - len(hand) - 4 * len(books)
    mine = 0 if rank in lacks else 4 - held.count(rank) - 4 * list(books).count(rank)
    return 1 - Fraction(unseen - mine, unseen) ** opponent_size


def holds_ignores_lacks(hand, rank, opponent_size, books=(), lacks=(), n_ranks=13):
    return p_holds_reference(hand, rank, opponent_size, books, (), n_ranks)


def _fallback(view):
    target = next((q for q in view.opponents if view.hand_sizes[q]), view.opponents[0])
    return target, max(view.counts, key=view.counts.get)


def _fresh(events, t, e):
    return not any(type(f) in (Give, GoFish) and f.player == e.player and f.rank == e.rank for f in events[t + 1:])


def who_asked_oldest_first(view, rng):
    events = view.events
    for t, e in enumerate(events):
        if type(e) is Ask and e.player in view.opponents and e.rank in view.counts and _fresh(events, t, e):
            return e.player, e.rank
    return _fallback(view)


def who_asked_never_stale(view, rng):
    for e in reversed(view.events):
        if type(e) is Ask and e.player in view.opponents and e.rank in view.counts:
            return e.player, e.rank
    return _fallback(view)


def who_asked_counts_own_asks(view, rng):
    events = view.events
    for t in range(len(events) - 1, -1, -1):
        e = events[t]
        if type(e) is Ask and e.rank in view.counts and _fresh(events, t, e):
            return e.player, e.rank
    return _fallback(view)


def who_asked_any_rank(view, rng):
    events = view.events
    for t in range(len(events) - 1, -1, -1):
        e = events[t]
        if type(e) is Ask and e.player in view.opponents and _fresh(events, t, e):
            return e.player, e.rank
    return _fallback(view)


def _play_two(strategy, opponent, games, seed, rotate=True, tie=0.5):
    from gofish_teach.strategies import play_out

    total = 0.0
    for g in range(games):
        game = Game(SMALL_POND, 2, seed=seed + g)
        me = g % 2 if rotate else 0
        play_out(game, [strategy, opponent] if me == 0 else [opponent, strategy], np.random.default_rng(seed + g))
        if me in game.winners:
            total += 1 if len(game.winners) == 1 else tie
    return total


def experiment_no_rotation(strategy, opponent, games, seed):
    from gofish_teach.stats import wilson_interval

    total = _play_two(strategy, opponent, games, seed, rotate=False)
    return (total / games, *wilson_interval(total, games))


def experiment_ties_as_wins(strategy, opponent, games, seed):
    from gofish_teach.stats import wilson_interval

    total = _play_two(strategy, opponent, games, seed, tie=1.0)
    return (total / games, *wilson_interval(total, games))


def experiment_wald(strategy, opponent, games, seed):
    total = _play_two(strategy, opponent, games, seed)
    p = total / games
    half = 1.959963984540054 * math.sqrt(p * (1 - p) / games)
    return p, p - half, p + half


def strategy_asks_itself(view, rng):
    return view.player, next(iter(view.counts))


def strategy_asks_aces(view, rng):
    return view.opponents[0], "A"


def strategy_endless(view, rng):
    while True:
        pass


_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def _posterior(prior, likelihood):
    weights = {s: Fraction(prior[s]) * likelihood[s] for s in prior}
    total = sum(weights.values())
    return {s: w / total for s, w in weights.items()} if total else dict(prior)


def _likelihoods(hand, opponents, shown, ask, latest=-1, per_card=False, highest=False):
    """The three strategies' likelihoods of ``ask``, with a learner's mistakes switched on."""
    target, rank = ask
    held = sorted(hand, key=_ORDER.index, reverse=highest)
    most = max(held, key=hand.get)
    p_most = Fraction(rank == most, len(opponents))
    known = [r for r in held if any(q in opponents for q in shown.get(r, []))]
    if known:
        wanted = max(known, key=hand.get)
        p_memory = Fraction((target, rank) == ([q for q in shown[wanted] if q in opponents][latest], wanted))
    else:
        p_memory = p_most
    p_random = Fraction(hand[rank], sum(hand.values()) * len(opponents)) if per_card else \
        Fraction(1, len(held) * len(opponents))
    return {"random": p_random, "memory": p_memory, "most_held": p_most}


def posterior_memory_asks_the_first_to_show(prior, hand, opponents, shown, ask):
    return _posterior(prior, _likelihoods(hand, opponents, shown, ask, latest=0))


def posterior_random_picks_a_card(prior, hand, opponents, shown, ask):
    return _posterior(prior, _likelihoods(hand, opponents, shown, ask, per_card=True))


def posterior_ties_to_the_highest_rank(prior, hand, opponents, shown, ask):
    return _posterior(prior, _likelihoods(hand, opponents, shown, ask, highest=True))


def posterior_not_scaled(prior, hand, opponents, shown, ask):
    likelihood = _likelihoods(hand, opponents, shown, ask)
    return {s: Fraction(prior[s]) * likelihood[s] for s in prior}


WRONG = {
    "01-deal": [deal_in_blocks, deal_whole_deck, deal_from_last_seat],
    "02-legal-asks": [asks_with_self, asks_per_card, asks_first_character],
    "03-give": [give_one, give_first_character, give_loses_cards],
    "04-books": [books_exact_count, books_drop_whole_rank, books_one_per_rank],
    "05-next-asker": [next_ignores_lucky, next_ignores_empty_hands, next_classic_as_pond],
    "06-game-over": [over_one_winner, over_all_hands_empty, over_forgets_last_book],
    "07-p-lucky": [lucky_ignores_go_fish, lucky_ignores_books, lucky_as_float],
    "08-p-holds": [holds_expected_count, holds_with_replacement, holds_ignores_lacks],
    "09-ask-who-asked": [who_asked_oldest_first, who_asked_never_stale, who_asked_counts_own_asks,
                         who_asked_any_rank],
    "10-experiment": [experiment_no_rotation, experiment_ties_as_wins, experiment_wald],
    "11-my-strategy": [strategy_asks_itself, strategy_asks_aces],
    "12-who-is-west": [posterior_memory_asks_the_first_to_show, posterior_random_picks_a_card,
                       posterior_ties_to_the_highest_rank, posterior_not_scaled],
}


# --------------------------------------------------------------------------- the checks catch mistakes
def test_every_exercise_has_wrong_solutions_a_notebook_pair_and_rising_numbers():
    assert len(EXERCISES) >= 10
    assert [ex.id for ex in EXERCISES] == sorted(ex.id for ex in EXERCISES)
    for ex in EXERCISES:
        assert len(WRONG[ex.id]) >= 2, ex.id
        assert (SOLUTIONS / f"{ex.id}.ipynb").exists() and (EXERCISE_DIR / f"{ex.id}.ipynb").exists()


@pytest.mark.parametrize("ex", EXERCISES, ids=lambda ex: ex.id)
def test_check_passes_the_solution_and_fails_the_stub_and_wrong_solutions(ex):
    solved = run_check(ex, _solution(ex))
    assert (solved.passed, solved.status, solved.stub) == (solved.total, "ok", False), solved.text()
    stub = run_check(ex, _stub(ex))
    assert (stub.passed, stub.status, stub.stub) == (0, "error", True)
    assert "still raises NotImplementedError" in stub.text()
    for wrong in WRONG[ex.id]:
        report = run_check(ex, wrong, time_limit=2)
        assert report.passed < report.total, f"{wrong.__name__} passes the check of {ex.id}"


def test_the_report_shows_each_case_tried_expected_and_returned(capsys):
    check("03-give", give_one)
    text = capsys.readouterr().out
    assert text.count("Case ") == 6 and text.count("expected: ") == 6 and text.count("returned: ") == 6
    assert "give(['7♥', 'Q♣'], ['7♠', '2♦', '7♣'], '7')" in text
    assert "expected: (['7♣', '7♥', '7♠', 'Q♣'], ['2♦'])" in text  # cards shown in deck order
    assert "returned: (['7♥', '7♠', 'Q♣'], ['2♦', '7♣'])" in text
    assert "WRONG" in text and "Result: 2 of 6 cases right." in text
    check("07-p-lucky", lucky_as_float)
    assert "a float is rounded: return a fractions.Fraction" in capsys.readouterr().out


def test_an_exception_is_reported_with_where_it_happened(capsys):
    def deal(deck, n_players, hand_size):
        print("dealing...")
        return {}[deck[0]]

    report = run_check("01-deal", deal)
    assert (report.passed, report.status, report.stub) == (0, "error", False)
    text = report.text()
    assert "returned: raised KeyError: 'A♣' (line " in text and ", in deal)" in text
    assert "printed:  dealing..." in text


def test_an_endless_loop_is_stopped_and_the_rest_skipped_and_the_caller_survives():
    def give(asker, target, rank):
        while True:
            pass

    start = time.monotonic()
    report = run_check("03-give", give, time_limit=0.5)
    assert time.monotonic() - start < 30  # not the six cases' worth of waiting, nor forever
    assert (report.status, report.passed, len(report.results)) == ("timeout", 0, 1)
    assert "is there an endless loop?" in report.text() and "The other 5 case(s) were not run" in report.text()
    assert run_check("03-give", give_reference).passed == 6  # and everything still works


def test_a_memory_hog_is_reported():
    def lay_books(hand, book_size=4):
        return [0] * 10**10

    report = run_check("04-books", lay_books)
    assert report.status == "memory" and "ran out of memory" in report.text()


def test_the_sandbox_reports_what_it_could_not_carry_back():
    outcome = sandbox.call(lambda: (x for x in ()))
    assert outcome.status == "ok" and "generator" in repr(outcome.value)
    exit_early = sandbox.call(lambda: __import__("os")._exit(3))
    assert exit_early.status == "error" and "exit status 3" in exit_early.error


def test_a_missing_function_is_explained():
    report = run_check("02", None)
    assert report.status == "error" and "Define legal_asks(...)" in report.text()
    with pytest.raises(ValueError, match="exercise '99' is unknown"):
        get_exercise("99")


def test_a_capstone_that_stalls_or_cheats_is_told_why():
    assert "illegal" in play_capstone_game(strategy_asks_aces, seed=0, seat=1)
    finished = play_capstone_game(random_asker, seed=2, seat=3)
    assert finished["finished"] and sum(finished["books"]) == 13


# --------------------------------------------------------------------------- the references are right
def test_deal_reference_is_how_the_engine_deals():
    for n, seed in [(2, 1), (4, 2), (6, 3)]:
        game = Game(Rules.preset("pond"), n, seed=seed)
        hands = deal_reference([str(c) for c in game.deck], n, 5)
        for p in range(n):
            dealt = next(e for e in game.view(p).events if type(e).__name__ == "Deal" and e.player == p)
            assert hands[p] == [str(c) for c in dealt.cards]


def test_give_books_and_legal_asks_references_match_the_engine():
    rules = Rules.preset("pond").replace(n_ranks=3, hand_size=2)
    game = Game(rules, 2, deck=["A", "A", "2", "A", "3", "3", "2", "A", "2", "3", "2", "3"])
    mine, theirs = [str(c) for c in game.hand(0)], [str(c) for c in game.hand(1)]
    assert KEY.legal_asks_reference(mine, 0, 2) == game.legal_asks()
    asker, target = give_reference(mine, theirs, "A")
    game.ask(1, "A")
    assert sorted(asker) == sorted(str(c) for c in game.hand(0)) and target == [str(c) for c in game.hand(1)]
    left, books = lay_books_reference(["7♥", "7♣", "7♠", "7♦", "2♣", "2♦", "2♥"], 2)
    assert books == ["2", "7", "7"] and len(left) == 1


@pytest.mark.parametrize("preset", ["pond", "classic"])
def test_next_asker_and_game_over_references_follow_the_engine(preset):
    """Replay random games; after every ask the references say what the engine did."""
    rules = Rules.preset(preset)
    checked = 0
    for seed in range(40):
        n = 2 + seed % 4
        game = Game(rules, n, seed=seed)
        rng = np.random.default_rng(seed)
        while not game.is_over:
            current = game.current_player
            events = game.ask(*random_asker(game.view(current), rng))
            kinds = [type(e).__name__ for e in events]
            if "Give" in kinds:
                outcome = "got cards"
            elif any(type(e).__name__ == "Draw" and e.lucky for e in events):
                outcome = "lucky draw"
            else:
                outcome = "go fish"
            # the counts right after the ask, its draw and its books: before the turn moves on
            cut = next((i for i, e in enumerate(events) if type(e).__name__ in ("Turn", "Skip", "GameOver")
                        or (type(e).__name__ == "Draw" and e.source == "empty hand")), len(events))
            sizes, ocean = _sizes_after(game, events, cut)
            expected = None if game.is_over else game.current_player
            assert next_asker_reference(preset, current, outcome, sizes, ocean) == expected, (seed, events)
            checked += 1
            if not game.is_over:
                assert game_over_reference(rules.end, game.ocean_size, list(game.hand_sizes),
                                           list(game.book_counts)) is None
        books = list(game.book_counts)
        assert game_over_reference(rules.end, game.ocean_size, list(game.hand_sizes), books) == list(game.winners)
    assert checked > 1000


def _sizes_after(game, events, cut):
    """Hand sizes and ocean just after ``events[:cut]``: undo the later draws (the only later changes)."""
    sizes, ocean = list(game.hand_sizes), game.ocean_size
    for e in events[cut:]:
        if type(e).__name__ == "Draw":
            sizes[e.player] -= e.count
            ocean += e.count
        elif type(e).__name__ == "Book":
            sizes[e.player] += game.rules.book_size
    return sizes, ocean


def test_probability_references_agree_with_facts():
    for hand, rank, opp, books, lacks, n_ranks in [
            ("7♥ 7♣ Q♦ K♠", "7", 5, (), (), 13), ("9♠ 2♣ 2♦ 2♥", "2", 4, ("5", "J"), ("3",), 13),
            ("A♣ 2♦ 2♠", "A", 3, ("3",), (), 4), ("10♣ 10♦ A♠", "10", 20, ("K", "5"), ("A", "6"), 13)]:
        cards = hand.split()
        facts = Facts(hand=[c[:-1] for c in cards], hand_sizes={1: opp}, books=list(books),
                      lacks={1: list(lacks)}, n_ranks=n_ranks, books_laid=False)
        assert p_holds_reference(cards, rank, opp, books, lacks, n_ranks) == facts.p_holds(1, rank)
        told = Facts(hand=[c[:-1] for c in cards], hand_sizes={1: opp}, books=list(books),
                     lacks={1: sorted(set(lacks) | {rank})}, n_ranks=n_ranks, books_laid=False)
        assert p_lucky_reference(cards, rank, opp, books, n_ranks) == told.p_top(rank)


def test_the_capstone_strategy_of_the_solution_always_asks_legally():
    mine = _solution(get_exercise("11"))
    for seed in range(10):
        game = Game(Rules.preset("pond"), 3, seed=seed)
        rng = np.random.default_rng(seed)
        while not game.is_over:
            view = game.view(game.current_player)
            move = mine(view, rng) if game.current_player == 0 else random_asker(view, rng)
            try:
                game.ask(*move)
            except IllegalMove as e:  # pragma: no cover - the failure message is the point
                pytest.fail(f"seed {seed}: {move}: {e}")


# --------------------------------------------------------------------------- the notebooks
def test_exercise_notebooks_are_the_solutions_with_the_stubs_back():
    for path in sorted(SOLUTIONS.glob("*.ipynb")):
        solution = json.loads(path.read_text(encoding="utf-8"))
        exercise = (EXERCISE_DIR / path.name).read_text(encoding="utf-8")
        outputs_dropped = build.dumps(build.strip(json.loads(exercise)))
        assert build.dumps(build.strip(solution)) == outputs_dropped, f"run python -m gofish_teach.exercises.build ({path.name})"
        assert solution["metadata"]["gofish_teach"]["exercise"] == path.stem
        assert len(_cells(path, "check")) == 1 and len(_cells(path, "solution")) == 1
        stub = _cells(EXERCISE_DIR / path.name, "answer")
        assert len(stub) == 1 and "raise NotImplementedError" in stub[0]
        # saved as run in its unfinished state: the check's note about the stub, no timing metadata
        check = _cells(EXERCISE_DIR / path.name, "check")
        cells = json.loads(exercise)["cells"]
        texts = ["".join(o.get("text", "")) for c in cells if c["cell_type"] == "code" for o in c["outputs"]]
        assert any("still raises NotImplementedError" in t for t in texts), path.name
        assert not any("execution" in c["metadata"] for c in cells) and check


def test_the_readme_maps_every_exercise_to_its_lesson_and_goal():
    readme = (EXERCISE_DIR / "README.md").read_text(encoding="utf-8")
    for ex in EXERCISES:
        line = next((ln for ln in readme.splitlines() if f"{ex.id}.ipynb" in ln), "")
        assert line and f"| {ex.lesson}" in line, ex.id
    assert "otter" in readme.lower()


def test_unfinished_exercise_notebooks_run_top_to_bottom_in_a_kernel_and_it_survives_a_loop():
    """All exercise notebooks in one kernel (one start-up), then an endless loop checked in that kernel."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    cells = []
    for path in sorted(EXERCISE_DIR.glob("*.ipynb")):
        cells += [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
    loop = ("def give(asker_hand, target_hand, rank):\n    while True:\n        pass\n"
            "check('03-give', give, time_limit=1)")
    shows = ("from IPython.display import display\n"
             "def deal(deck, n_players, hand_size):\n    display('a picture')\n    return []\n"
             "check('01-deal', deal)")
    cells += [nbformat.v4.new_code_cell(shows), nbformat.v4.new_code_cell(loop),
              nbformat.v4.new_code_cell("print('still alive')")]
    notebook = nbformat.v4.new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3"}})
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(EXERCISE_DIR)}}).execute()
    texts = ["".join(o.get("text", "") for o in c.outputs) for c in notebook.cells]
    assert sum("NOTE: " in t and "still raises NotImplementedError" in t for t in texts) == len(EXERCISES)
    assert "Result: 0 of 6 cases right." in texts[-3]  # display() in the child went nowhere, harmlessly
    # only printed text, nothing shown and nothing on stderr (a busy kernel may send the text in two parts)
    outputs = [(o.output_type, o.get("name")) for o in notebook.cells[-3].outputs]
    assert set(outputs) == {("stream", "stdout")}, outputs
    assert "is there an endless loop?" in texts[-2] and texts[-1] == "still alive\n"


def test_a_check_after_a_broken_answer_cell_does_not_praise_the_old_function():
    """In a kernel: a SyntaxError in the answer cell leaves the last good deal() defined; no "Well done"."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    good = "def deal(deck, n_players, hand_size):\n    return [deck[p:n_players * hand_size:n_players] for p in range(n_players)]"
    broken = "def deal(deck, n_players, hand_size)\n    return []"
    cells = [nbformat.v4.new_code_cell("from gofish_teach.exercises import check"),
             nbformat.v4.new_code_cell(good), nbformat.v4.new_code_cell("check('01-deal', deal)"),
             nbformat.v4.new_code_cell(broken), nbformat.v4.new_code_cell("check('01-deal', deal)"),
             nbformat.v4.new_code_cell(good), nbformat.v4.new_code_cell("check('01-deal', deal)")]
    notebook = nbformat.v4.new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3"}})
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3", allow_errors=True).execute()
    texts = ["".join(o.get("text", "") for o in c.outputs) for c in notebook.cells]
    assert "Well done!" in texts[2]
    assert "Well done!" not in texts[4] and "raised SyntaxError" in texts[4] and "older version" in texts[4]
    assert "Well done!" in texts[6] and "older version" not in texts[6]
