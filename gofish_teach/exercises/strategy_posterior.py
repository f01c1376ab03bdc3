"""The check of exercise 12: which bot is West? Bayes' rule over strategies after one ask.

A seat asked ``ask = (target, rank)``. Knowing its hand (a spectator's view, or a teaching scenario),
the probability that each built-in strategy makes that ask can be counted, and Bayes' rule turns a
prior over the strategies into a posterior. The exercise's rules are the built-ins' with every
opponent holding cards and no ask dead (lesson 09 says what changes otherwise):

- ``random``: a rank it holds, uniformly, then an opponent, uniformly;
- ``most_held``: the rank it holds most of (ties: the lowest rank, in the deck's order A, 2, ..., 10,
  J, Q, K), then an opponent, uniformly;
- ``memory``: among the ranks it holds that some opponent has shown (``shown[rank]``: the opponents
  that showed it and hold it still, the latest last), the one it holds most of (ties: the lowest),
  asked of the latest to show it; if there is none, as ``most_held``.

Its reference answers are the teacher's (in ``solutions/key/``, which never ships); the
package ships the public cases' answers only (:mod:`.casedata`).

>>> from fractions import Fraction
>>> third = Fraction(1, 3)
>>> case = POSTERIOR_AFTER_ASK.cases()[0]
>>> case.expected == {"random": Fraction(1, 10), "memory": Fraction(9, 10), "most_held": Fraction(0)}
True
"""
from __future__ import annotations

from fractions import Fraction

from ..cards import ALL_RANKS
from .checking import Case, Exercise

_THIRD, _HALF = Fraction(1, 3), Fraction(1, 2)
_EVEN = {"random": _THIRD, "memory": _THIRD, "most_held": _THIRD}


def _case(prior, hand, opponents, shown, ask, note="") -> Case:
    args = (dict(prior), dict(hand), list(opponents), {r: list(s) for r, s in shown.items()}, tuple(ask))
    shown_text = ", ".join(f"{k}={v!r}" for k, v in zip(("prior", "hand", "opponents", "shown", "ask"), args, strict=True))
    return Case(args, None, f"posterior_after_ask({shown_text})", note=note)


def _cases() -> list[Case]:
    return [
        _case(_EVEN, {"7": 2, "Q": 1, "K": 1}, [1, 2, 3], {"Q": [3]}, (3, "Q"),
              "player 3 showed Queens: memory asks it for sure, random 1 time in 9, most_held would ask for 7s"),
        _case(_EVEN, {"3": 1, "9": 2}, [1, 2, 3], {}, (2, "9"),
              "nothing shown: memory plays most_held, and both ask for the pair of 9s"),
        _case(_EVEN, {"5": 1, "J": 1}, [1, 2, 3], {}, (2, "J"),
              "a tie of singles goes to the lowest rank, 5: only random asks for Jacks"),
        _case({"random": _HALF, "memory": _HALF}, {"4": 1, "8": 2}, [0, 2], {"4": [2]}, (0, "8"),
              "player 2 showed 4s, yet it asks for 8s: not memory"),
        _case({"random": Fraction(1, 4), "memory": Fraction(1, 2), "most_held": Fraction(1, 4)},
              {"8": 1, "10": 1, "K": 3}, [1, 3], {"8": [3, 1]}, (1, "8"),
              "two players showed 8s, player 1 last: memory asks player 1"),
        _case(_EVEN, {"2": 2, "6": 1}, [1, 2, 3], {"A": [1]}, (1, "6"),
              "player 1 showed Aces, which it does not hold: memory plays most_held, which asks for 2s"),
    ]


def _hidden(rng) -> list[Case]:
    cases = []
    while len(cases) < 6:
        ranks = sorted(rng.choice(len(ALL_RANKS), size=int(rng.integers(1, 6)), replace=False))
        hand = {ALL_RANKS[r]: int(rng.integers(1, 4)) for r in ranks}
        players = int(rng.integers(3, 6))
        seat = int(rng.integers(players))
        opponents = [q for q in range(players) if q != seat]
        shown = {}
        for r in rng.choice(len(ALL_RANKS), size=int(rng.integers(0, 4)), replace=False):
            k = int(rng.integers(1, min(2, len(opponents)) + 1))
            shown[ALL_RANKS[r]] = [int(q) for q in rng.choice(opponents, size=k, replace=False)]
        d = int(rng.integers(3, 9))
        cuts = sorted(int(c) for c in rng.choice(range(1, d), size=2, replace=False))
        prior = {name: Fraction(b - a, d) for name, a, b in zip(("random", "memory", "most_held"), [0] + cuts, cuts + [d], strict=True)}
        kind = rng.random()
        rank = list(hand)[int(rng.integers(len(hand)))]
        target = opponents[int(rng.integers(len(opponents)))]
        wanted = [r for r in hand if shown.get(r)]
        if kind < 0.4 and wanted:  # often memory's own ask, which memory makes for sure
            rank = max(sorted(wanted, key=ALL_RANKS.index), key=hand.get)
            target = shown[rank][-1]
        cases.append(_case(prior, hand, opponents, shown, (target, rank), "a hidden case"))
    return cases


class PosteriorAfterAsk(Exercise):
    """A posterior: a dict of the prior's strategies, each an exact ``Fraction``, adding up to 1."""

    def compare(self, expected, returned):
        if not isinstance(returned, dict):
            return False, f"return a dict {{strategy: Fraction}}, not a {type(returned).__name__}"
        if set(returned) != set(expected):
            return False, f"return one probability for each strategy of the prior: {', '.join(expected)}"
        values = list(returned.values())
        if any(isinstance(v, float) for v in values):
            close = all(isinstance(v, float) and abs(v - float(expected[k])) < 1e-9 for k, v in returned.items())
            return False, ("right values, but floats are rounded: return fractions.Fraction values" if close else
                           "return exact fractions.Fraction values, not floats")
        if any(isinstance(v, bool) or not isinstance(v, (Fraction, int)) for v in values):
            return False, "every probability should be a fractions.Fraction"
        if sum(values) != 1:
            return False, "the probabilities should add up to 1: divide by their total"
        return all(returned[k] == v for k, v in expected.items()), ""


POSTERIOR_AFTER_ASK = PosteriorAfterAsk(
    "12-who-is-west", "posterior_after_ask", "which bot is West? Bayes' rule after one ask", "09",
    "Count how likely each strategy was to make the ask, multiply by the prior, and scale to add up to 1.",
    make_inputs=_cases, make_hidden=_hidden)
