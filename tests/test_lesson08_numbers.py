"""Every number lesson 08's text quotes, recomputed from the solver (issue 43).

The text is the lesson's markdown, its key's, the guide's part for lesson 8, the question bank's
explanations and feedback for lesson 8 and the written quiz items Q08.4 and Q08.5. Each number it
quotes is listed once below (:data:`CLAIMS`: the words around it, with the number left as a slot
the solver fills in); a test fills every slot from the solver and finds the words in the text,
and another finds no number in the text that no claim and no named exception accounts for. So a
number that goes stale fails the first test, and a new number with no check fails the second.

Numbers that are not the solver's are named as such: the search bot's, measured by ``make bench``
and quoted in the README as well (checked against it), and the small experiments' interval width,
a simulation whose saved output nbval checks (the text is checked against that output).
"""
from __future__ import annotations

import json
import re
from fractions import Fraction
from math import sqrt
from pathlib import Path

import numpy as np
import pytest

from gofish_teach import Game, Rules, memory
from gofish_teach.bestplay import BestResponse, Solver, Tree, best_response
from gofish_teach.quiz.items_08 import TINY_VALUE, q08_4, q08_5
from gofish_teach.widgets.question_bank import read_source

ROOT = Path(__file__).resolve().parent.parent
LESSON = ROOT / "notebooks" / "08-best-play.ipynb"
KEY = ROOT / "notebooks" / "teacher" / "key-08-best-play.ipynb"
GUIDE = ROOT / "notebooks" / "README.md"
TINY = Rules.preset("pond").replace(n_ranks=2, hand_size=2)
SMALL = Rules.preset("pond").replace(n_ranks=3, hand_size=2)
#: The value of SMALL for the seat moving first, proved by ``solve --equilibrium --exact`` (the README's
#: command; tests/test_readme_commands.py checks that its interval holds this value).
THREE_RANK_VALUE = Fraction(953, 1925)


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _markdown(path: Path) -> str:
    return "\n\n".join("".join(c["source"]) for c in _cells(path) if c["cell_type"] == "markdown")


def _outputs(path: Path) -> str:
    return "\n".join("".join(o.get("text", "")) for c in _cells(path) if c["cell_type"] == "code"
                     for o in c.get("outputs", []))


def _flat(text: str) -> str:
    return " ".join(text.replace("\u2212", "-").split())


def texts() -> dict[str, str]:
    """Each source of lesson 08's text, its whitespace joined (markdown wraps lines anywhere)."""
    guide = GUIDE.read_text(encoding="utf-8").split("### 8. ")[1].split("\n## ")[0].split("\n### ")[0]
    bank = [q for qid, q in read_source().items() if qid.startswith("L08-")]
    quiz = [q for build in (q08_4, q08_5) for stem, parts in [build()] for q in [stem] + [p.rubric for p in parts]]
    return {"lesson": _flat(_markdown(LESSON)), "key": _flat(_markdown(KEY)), "guide": _flat(guide),
            "bank": _flat("\n".join(q["explain"] + "\n" + "\n".join(q.get("wrong", {}).values()) for q in bank)),
            "quiz": _flat("\n".join(quiz))}


# ------------------------------------------------------------------------------ the solver's numbers

def _section_4() -> dict:
    """Section 4's 300 games, replayed as the lesson plays them: exact ask values, memory's ask
    wherever it ties for the best, and the decisions where it is worth strictly less."""
    exact = BestResponse(SMALL, "memory", exact=True)
    solver = exact.solver(0)

    def branches(view, rank):  # (probability, seat 0 asks next, value, a book of the rank asked for)
        found = solver.outcomes(exact.belief(view), SMALL.ranks.index(rank))
        return [(p, solver.worlds[next(iter(solver.distribution(after)))].turn == 0, solver.value(after),
                 ("B", 0, SMALL.ranks.index(rank)) in observation, observation)
                for observation, (p, after) in found.items()]

    rng = np.random.default_rng(0)
    decisions, worse = 0, []
    for seed in range(300):
        game = Game(SMALL, 2, seed=seed)
        while not game.is_over:
            view = game.view(game.current_player)
            if game.current_player == 1:
                game.ask(*memory(view, rng))
                continue
            theirs = memory(view, rng)[1]
            values = {rank: sum(p * v for p, _, v, _, _ in branches(view, rank))
                      for rank in sorted(view.counts, key=SMALL.ranks.index)}
            top = max(values.values())
            decisions += 1
            mine = theirs if values[theirs] == top else next(r for r, v in values.items() if v == top)
            if mine != theirs:
                worse.append((top - values[theirs], seed, view, mine, theirs, values))
            game.ask(1, mine)
    gain, seed, view, mine, theirs, values = max(worse, key=lambda w: (w[0], -w[1]))
    catch, fish = branches(view, theirs), branches(view, mine)
    opponent = {solver.worlds[w].hands[1]: p for w, p in solver.distribution(exact.belief(view)).items()}
    big = [w for w in worse if w[0] >= Fraction(1, 6)]
    lucky = [b for b in fish if b[3]]
    return dict(
        decisions=decisions, worse=len(worse), in_nine=round(decisions / len(worse)), game=seed,
        opponent=" ".join(r for hand, p in opponent.items() if p == 1 for r, n in zip(SMALL.ranks, hand, strict=True)
                          for _ in range(n)),
        gain=gain, best_value=values[mine], memory_value=values[theirs], catch=catch[0][2],
        caught_sure=len(catch) == 1 and catch[0][4][1][0] == "G", fished_sure=all(b[4][1][0] == "F" for b in fish),
        kept={v for _, again, v, _, _ in fish + catch if again}, passed={v for _, again, v, _, _ in fish if not again},
        passes=sum(p for p, again, _, _, _ in fish if not again), lucky=lucky[0][2],
        big=len(big), big_sure=sum(all(b[4][1][0] == "G" for b in branches(w[2], w[4])) and
                                   all(b[4][1][0] == "F" for b in branches(w[2], w[3])) for w in big))


@pytest.fixture(scope="module")
def facts() -> dict:
    f = {}
    # section 1: the belief after the deal holding A 2, and the value of a peek
    solver = Solver(TINY, "memory", seat=0, exact=True)
    start = next(b for _, b in solver.roots().values()
                 if solver.worlds[next(iter(solver.distribution(b)))].hands[0] == (1, 1))
    hands = {solver.worlds[w].hands[1]: p for w, p in solver.distribution(start).items()}
    f["p_AA"], f["p_22"] = hands[(2, 0)], hands[(0, 2)]
    f["blind"] = max(1 - hands[(0, 2)], 1 - hands[(2, 0)])   # an ask fails only against the hand without its rank
    f["voi"] = sum(hands.values()) - f["blind"]               # seeing, an ask always succeeds: every hand holds one
    # section 3: the gap to best play, seat by seat; key Try it 1 and 2
    for against in ("memory", "random"):
        rows = [best_response(SMALL, against, seat, exact=False) for seat in (0, 1)]
        f[f"gaps_{against}"] = [float(r.value - r.builtin) for r in rows]
        f[f"gap_{against}"] = sum(f[f"gaps_{against}"]) / 2
        if against == "memory":
            mean = float(rows[0].value + rows[1].value) / 2
            f["two_se_4000"] = 2 * sqrt(mean * (1 - mean) / 4000)
    f["points"] = round(100 * f["gap_memory"])
    f["twice"] = round(f["gap_random"] / f["gap_memory"])
    f.update(_section_4())
    # section 5: the game's value and what each built-in concedes, seat by seat
    f["value"] = Tree(TINY).solve(iterations=1000, target=1e-5).value
    for name in ("random", "memory", "most_held"):
        f[f"first_{name}"] = float(best_response(TINY, name, seat=1, exact=True).value) - (1 - f["value"])
        f[f"second_{name}"] = float(best_response(TINY, name, seat=0, exact=True).value) - f["value"]
        f[f"mean_{name}"] = (f[f"first_{name}"] + f[f"second_{name}"]) / 2
    # section 5's 3-rank paragraph: what each built-in concedes there, exactly, against the value the
    # README's command proves (its test checks that CFR's interval holds THREE_RANK_VALUE)
    for name in ("random", "memory", "most_held"):
        first = best_response(SMALL, name, seat=1, exact=True).value - (1 - THREE_RANK_VALUE)
        second = best_response(SMALL, name, seat=0, exact=True).value - THREE_RANK_VALUE
        f[f"three_{name}"] = (first + second) / 2
        f[f"three_{name}_both"] = first > 0 and second > 0
    family = Rules.preset("family").replace(n_ranks=2, hand_size=2)
    f["family_value"] = Tree(family).solve(iterations=1000, target=1e-5).value
    f["memory_vs_random"] = sum(Solver(TINY, "random", seat, exact=True).builtin_share("memory") for seat in (0, 1)) / 2
    return f


# ------------------------------------------------------------------------------ what the text says

#: Each number the text quotes, in the words around it; ``{...}`` slots are filled from the facts.
CLAIMS = {
    "lesson": [
        "a gap of a couple of points, the experiment needs thousands of decks",             # {points} == 2
        "seat 0 the opponent's hand for certain: {opponent}.",
        "that is worth {gain} of a win ({best_value} against {memory_value})",
        "branch, {lucky} against {passed_one} for the others",
        "every branch in which seat 0 asks again is worth {kept_one}",
        "every branch in which the turn passes is worth {passed_one}",
        "Is game {game} one of a kind? Look at every disagreement worth 1/6 of a win or more. Game {game} is the rule",
        "parts from best play at about one decision in {in_nine_word}",
        "(2 2 for Aces, A A for 2s), which has probability {p_AA}: blind, the best ask succeeds with probability "
        "{blind}.",                                                                          # L08-peek's answer
        "the ask succeeds for certain, up by {voi}.",
        "but by about {points} points on average over the two seats: less than 5.",           # L08-gap's answer
        "(0.0000 beyond it, to CFR's precision)",                                           # second seats
        "where `memory` concedes {first_memory:.4f} and `random` {first_random:.4f}",
        "the seat moving first wins {three_value} = {three_value_float:.4f}, so on this deck",
        "where on two ranks it wins 41/70 = {value:.4f}",
        "the exploitability of `random` is {three_random} = {three_random_float:.4f}, of `memory` {three_memory} = "
        "{three_memory_float:.4f} and of `most_held` {three_most_held} = {three_most_held_float:.4f}",
    ],
    "key": [
        "the gap is {gap_memory:+.4f} against `memory` and {gap_random:+.4f} against `random`, about twice as much",
        "section 4's 300 games `memory`'s ask is worth strictly less than the best at {worse} of {decisions:,} "
        "decisions",
        "the best response wins about {points} points more",
        "(about {two_se_4000:.3f} for 4,000 games)",
        "the game's value, {family_value:.4f} (under `pond`, {value:.4f})",
        "the same kind of position as game {game}.",
        "Here we know the gap exactly (about {points} points)",
        "The value of information is {voi}.",
        "either ask succeeds with probability {blind} (it fails only against the one hand without its rank, "
        "probability {p_AA})",
        "In section 4's game {game} `memory`'s sure catch takes the opponent's last 3",
        "with nothing left to catch, worth {catch}",
        "and {passes_in_four} times in 4 its draw passes the turn: worth {passed_one}",
        "is its worst branch, {lucky}.",
        "In all {big} disagreements worth 1/6 of a win or more",
        "moving first `memory` concedes {first_memory:.4f} and `random` {first_random:.4f} (section 5)",
        "its exact share against it is {memory_vs_random} = {memory_vs_random_float:.4f}",
    ],
    "guide": [
        "from {blind} to certain: {voi}.",
        "read game {game}'s branches aloud",
        "(In game {game} `memory`'s sure catch",
        "with nothing to catch: {catch}.",
        "passes the turn {passes_in_four} times in 4: {passed_one}.",
        "is its worst branch: {lucky}.",
        "moving first `memory` concedes {first_memory:.4f}, `random` {first_random:.4f}.",
    ],
    "bank": [
        "By {voi}: from {blind} to certain.",
        "(2 2 for Aces, A A for 2s), which has probability {p_AA};",
        "{blind} is the chance the ask succeeds without a peek",
        "By about {points} points on average over the two seats (the next cell: {gaps_memory[0]:.4f} moving first, "
        "{gaps_memory[1]:.4f} moving second)",
        "at only about one decision in {in_nine_word} (section 4)",
        "A gap of about {points} points is small",
        "a best response gains {mean_memory:.2f} against it and {mean_random:.4f} against random",
        "moving first memory concedes {first_memory:.1f} and random {first_random:.4f}",
    ],
    "quiz": [  # Q08.4, whose numbers its builder takes from the solver (and TINY_VALUE, CFR's value)
        "is {tiny_value}. A best response to `memory` wins {br_first} against it when `memory` moves second, and "
        "{br_second} when `memory` moves first.",
        "concedes {br_first} - {tiny_value} = 0:",
        "concedes {br_second} - {tiny_second} = {concede_first} (the seat moving second is worth 1 - {tiny_value} = "
        "{tiny_second} at equilibrium), about {first_memory:.1f}. Its exploitability, the mean of the two, is "
        "{concede_mean} = {mean_memory:.2f}.",
    ],
}

#: The search bot's numbers (``make bench``, 400 decks) and the 3-rank equilibrium's size and
#: cost (the README's ``solve --equilibrium``): not the lesson's solver, quoted in the
#: README as well; each must stand there too.
BENCH = ["3.3 million", "1,801,650", "24 s of processor time", "0.8 GiB",
         "0.421", "0.261", "+0.160", "+0.104", "+0.216"]
#: The search bot against three ``random`` bots (200 decks): the README's, quoted by lesson 09, whose question
#: (L09-wrong-model) they answer; lesson 08 must not say them (tests/test_predict_first_leaks.py).
WRONG_MODEL = ["-0.04", "-0.13", "+0.04", "+0.11", "+0.05", "+0.18"]
LESSON_09 = ROOT / "notebooks" / "09-who-am-i-playing.ipynb"

#: Numbers that are not results: the course's structure, cards, definitions and the experiments'
#: chosen sizes (each checked where it has a source).
STRUCTURE = [
    r"`[^`]*`",                                                        # code
    r"#+ (?:Try it \d*|Answer key, lesson \d+|Lesson \d+|\d+\.)",     # headings
    r"\b(?:[Ll]essons? \d+(?: and \d+)?|[Ss]ections? \d+|seat [01]|Try it \d)(?:'s)?",
    r"\b\d-rank\b", r"\bwith \d cards each\b", r"\b\d+s\b", r"\b(?:[A23] )+[A23]\b", r"\b(?:a|one|last|four|an Ace or a) [23]\b",
    r"a tie counts 1/2", r"1 for a successful ask and 0 for a failed one", r"\b(?:includes?|above|below|from|is) 0\b",
    r"\b0 for an equilibrium strategy", r"concedes 0 in both seats", r"worth 1 minus the value", r"add up to 1\b",
    r"99 times in 100",
    r"95% interval", r"about 15 digits", r"192 deals", r"\(50-55 min\)", r"4 December 2026", r"0\.25 is an equal share",
    r"wins two games in five", r"on (?:400|200) decks", r"\b300 (?:decks|games)\b", r"worth 1/6 of a win",
    r"a loss of 0\.13 to a gain of 0\.04",
    r"(?<!\S)\d\.(?=\s)",                                               # list items (after the cards: "2 2. Nothing")
]


def _filled(facts: dict) -> dict:
    words = {9: "nine", 8: "eight", 10: "ten"}
    br_first = best_response(TINY, "memory", seat=0, exact=True).value    # the best response moves first
    br_second = best_response(TINY, "memory", seat=1, exact=True).value   # the best response moves second
    three = {f"{k}_float": float(v) for k, v in facts.items() if k.startswith("three_") and not k.endswith("_both")}
    return dict(facts, **three, three_value=THREE_RANK_VALUE, three_value_float=float(THREE_RANK_VALUE), kept_one=_one(facts["kept"]), passed_one=_one(facts["passed"]),
                passes_in_four=facts["passes"] * 4, in_nine_word=words.get(facts["in_nine"], str(facts["in_nine"])),
                memory_vs_random_float=float(facts["memory_vs_random"]), tiny_value=TINY_VALUE,
                tiny_second=1 - TINY_VALUE, br_first=br_first, br_second=br_second,
                concede_first=br_second - (1 - TINY_VALUE),
                concede_mean=(br_first - TINY_VALUE + br_second - (1 - TINY_VALUE)) / 2)


def _simulated() -> list[str]:
    """What the key says of the small experiments' interval width: the lesson's printed output."""
    width = float(re.search(r"mean half-width of the intervals: ([\d.]+)", _outputs(LESSON)).group(1))
    return [f"With 300 decks an interval is about {width:.2f} wide on each side, more than twice the gap",
            f"the interval is about {round(100 * width)} points wide on each side"]


def _one(values: set):
    """The one value a set of branches shares (the text says 'every branch ... is worth')."""
    assert len(values) == 1, f"the branches are not all worth the same: {values}"
    return next(iter(values))


def test_every_number_lesson_08_quotes_is_the_solvers(facts):
    f = _filled(facts)
    # what the claims take for granted, checked first
    assert f["points"] == 2 and f["twice"] == 2 and f["caught_sure"] and f["fished_sure"]
    assert f["big_sure"] == f["big"], "every disagreement worth 1/6 or more: a sure catch declined"
    assert f["lucky"] < f["passed_one"] and f["catch"] == f["kept_one"]
    assert abs(f["second_memory"]) < 1e-4 and abs(f["second_random"]) < 1e-4, "moving second: 0.0000"
    assert f["first_most_held"] == f["first_memory"] and f["second_most_held"] == f["second_memory"]
    assert abs(float(TINY_VALUE) - f["value"]) < 1e-4, "Q08.4's value of the tiny game is CFR's"
    assert all(f[f"three_{name}_both"] for name in ("random", "memory", "most_held")), "3 ranks: both seats concede"
    assert f["three_random"] > f["three_memory"] > f["three_most_held"], "3 ranks: the order the text gives"
    text = texts()
    wrong = []
    for source, claims in CLAIMS.items():
        for claim in claims:
            said = claim.format(**f)
            if said not in text[source]:
                wrong.append(f"{source}: the solver says {said!r}")
    assert not wrong, "lesson 08's text disagrees with the solver:\n" + "\n".join(wrong)


def test_the_small_experiments_width_is_the_one_the_lesson_printed(facts):
    """A simulation, not the solver: the key quotes the width nbval checks in the lesson's output."""
    width = float(re.search(r"mean half-width of the intervals: ([\d.]+)", _outputs(LESSON)).group(1))
    key = texts()["key"]
    assert all(said in key for said in _simulated()), _simulated()
    assert width > 2 * facts["gap_memory"]


def test_the_search_bots_numbers_are_the_readmes():
    readme = _flat((ROOT / "README.md").read_text(encoding="utf-8"))
    text = texts()
    for number in BENCH:
        assert number in text["lesson"] and number in readme, number
    lesson_09 = _flat(_markdown(LESSON_09))
    for number in WRONG_MODEL:
        assert number in lesson_09 and number in readme and number not in text["lesson"], number
    # the equilibrium's size and cost (3 ranks): the README's command prints them, and its test checks
    assert "1,801,650 information sets" in readme and "953/1925" in readme
    assert "+0.160" in text["quiz"] and "-0.13" in text["quiz"]
    assert "SearchBot" in readme and "192 deals" in readme


def test_lesson_08_quotes_no_number_no_claim_accounts_for(facts):
    """Whatever is left of the text once every claim, bench number and structural number is
    taken out holds no digit: a new number needs a claim (or a reason to be an exception)."""
    f = _filled(facts)
    left = []
    for source, text in texts().items():
        for said in [claim.format(**f) for claim in CLAIMS.get(source, [])] + _simulated():
            text = text.replace(said, " ")
        for pattern in STRUCTURE:
            text = re.sub(pattern, " ", text)
        for number in BENCH + WRONG_MODEL:  # the quiz (teacher only) quotes both
            text = text.replace(number, " ")
        left += [f"{source}: {m.group()!r} in ...{text[max(0, m.start() - 60):m.end() + 20]}..."
                 for m in re.finditer(r"[-+]?\d[\d,./]*", text)]
    assert not left, "numbers in lesson 08's text that no test checks:\n" + "\n".join(left)
