"""Exercise 05 catches a pond game that ends whenever every hand is empty, cards left in the ocean or not
(issue 32, D8: that wrong answer got 14 of 14 public cases and every hidden case on ca11cf4).

The pond rules (in our words): a player whose hand is empty draws a card from the ocean and plays
on; the game ends only when every card is in a book, that is, when the ocean is empty too. So an
empty table with cards left in the ocean is not the end: the next asker draws and goes on.
"""
from __future__ import annotations

import pytest

from gofish_teach.exercises import get_exercise, load_key, run_check

KEY = load_key()
next_asker_reference = KEY.next_asker_reference


def over_when_hands_are_empty(rules, current, outcome, hand_sizes, ocean):
    """The mutant: the reference answer but for its end of a pond game, which ignores the ocean."""
    n, sizes = len(hand_sizes), list(hand_sizes)

    def over():
        if rules == "classic":
            return ocean == 0
        return not any(sizes)  # wrong: cards may be left in the ocean

    p = current if outcome in ("got cards", "lucky draw") else (current + 1) % n
    while not over():
        if sizes[p]:
            return p
        if ocean == 0:
            p = (p + 1) % n
        elif rules == "pond":
            return p
        else:
            sizes[p] += 1
            ocean -= 1
            p = (p + 1) % n
    return None


def test_the_public_cases_catch_the_mutant_and_pass_the_reference():
    caught = run_check("05", over_when_hands_are_empty)
    assert caught.passed < caught.total, caught.text()
    assert "every hand is empty but the ocean is not" in caught.text()
    right = run_check("05", next_asker_reference)
    assert right.passed == right.total


@pytest.mark.parametrize("seed", [0, 1, 2, 20261201, 2**61 + 7])
def test_every_set_of_hidden_cases_catches_the_mutant(seed):
    ex = get_exercise("05")
    hidden = KEY.hidden_cases(ex, seed)
    wrong = [case for case in hidden if not ex.judge(case, over_when_hands_are_empty(*case.args))[0]]
    assert wrong, "no hidden case tells a pond game with an empty table but cards in the ocean from its end"
    assert all(ex.judge(case, next_asker_reference(*case.args))[0] for case in hidden)
