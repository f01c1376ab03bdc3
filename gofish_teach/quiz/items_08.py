"""Quiz items for lesson 08 (how good can a strategy be?): beliefs and the value of information,
backward induction, the gap to best play with its interval, equilibrium and exploitability, search."""
from __future__ import annotations

from fractions import Fraction
from math import comb, sqrt

from .common import dec, tex_frac, words
from .model import Item, agree, choice, number, short

# ---------------------------------------------------------------------------------- lesson 08


def _hands(held_aces: int, held_twos: int, size: int) -> dict[int, Fraction]:
    """{Aces in the opponent's hand: probability} on the 2-rank deck, from the cards seat 0 cannot see."""
    aces, twos = 4 - held_aces, 4 - held_twos
    total = comb(aces + twos, size)
    return {k: Fraction(comb(aces, k) * comb(twos, size - k), total) for k in range(size + 1)
            if k <= aces and size - k <= twos}


def q08_1(held_aces: int, held_twos: int, size: int):
    """Value of information for the first ask, on a deck of Aces and 2s."""
    hands = _hands(held_aces, held_twos, size)
    ranks = [r for r, held in (("A", held_aces), ("2", held_twos)) if held]
    succeeds = {"A": lambda k: k > 0, "2": lambda k: size - k > 0}
    blind = max(sum(p for k, p in hands.items() if succeeds[r](k)) for r in ranks)
    seeing = sum(p for k, p in hands.items() if any(succeeds[r](k) for r in ranks))
    # a second way: seeing helps exactly on the hands where the blind choice fails but another ask would not
    best = max(ranks, key=lambda r: sum(p for k, p in hands.items() if succeeds[r](k)))
    agree(seeing - blind, sum(p for k, p in hands.items() if not succeeds[best](k) and
                              any(succeeds[r](k) for r in ranks)), "Q08.1")
    if seeing == blind:
        raise AssertionError(f"Q08.1 {(held_aces, held_twos, size)}: seeing the hand is worth nothing here; "
                             "a version should make the value of information positive")
    mine = " ".join(["A"] * held_aces + ["2"] * held_twos)
    unseen = 8 - held_aces - held_twos
    return (f"A deck of four Aces and four 2s, two players. You hold {mine}; the opponent holds {words(size)} of "
            f"the {unseen} cards you cannot see (each set of {size} equally likely), the rest are in the ocean. "
            "Your first ask succeeds if the opponent holds the rank you name (you may name only ranks you hold).", [
                number("If you could see the opponent's hand before asking, by how much would the probability "
                       "that your first ask succeeds go up (the value of this information)?", seeing - blind,
                       f"Count the opponent's hands by how many Aces they hold (hypergeometric). Choosing blind, the "
                       f"best ask succeeds with probability ${tex_frac(blind)}$; seeing, you name a rank the opponent "
                       f"holds whenever you hold one: ${tex_frac(seeing)}$. The value of information is "
                       f"${tex_frac(seeing)} - {tex_frac(blind)} = {tex_frac(seeing - blind)}$.", decimals=4),
            ])


def _tree_value(tree):
    if not isinstance(tree, tuple):
        return Fraction(tree)
    kind, branches = tree
    if kind == "max":
        return max(_tree_value(t) for t in branches)
    return sum((p * _tree_value(t) for p, t in branches), Fraction(0))


def q08_m1(p_give: str, v_give: str, p_lucky: str, v_lucky: str, v_other: str, v_safe: str):
    """Backward induction on a two-level tree: an ask with three outcomes, against a safe ask."""
    pg, pl = Fraction(p_give), Fraction(p_lucky)
    pf = 1 - pg - pl
    vg, vl, vo, vs = Fraction(v_give), Fraction(v_lucky), Fraction(v_other), Fraction(v_safe)
    risky = pg * vg + pl * vl + pf * vo
    tree = ("max", [("avg", [(pg, vg), (pl, vl), (pf, vo)]), vs])
    value = _tree_value(tree)
    agree(value, max(risky, vs), "Q08.M1")
    better = "the ask for Queens" if risky > vs else ("the ask for 7s" if vs > risky else "either: they are equal")
    return (f"Your turn. If you ask for Queens, the opponent hands one over with probability {p_give} (your win "
            f"share from there: {v_give}); otherwise you draw a Queen (lucky, probability {p_lucky}; then worth "
            f"{v_lucky}) or another card (then worth {v_other}). If you ask for 7s, your win share from there is "
            f"{v_safe}, whatever happens. All these values already assume best play later.", [
                number("(a) What is the ask for Queens worth?", risky,
                       f"Average the branches: ${p_give} \\cdot {v_give} + {p_lucky} \\cdot {v_lucky} + "
                       f"{tex_frac(pf)} \\cdot {v_other} = {tex_frac(risky)} \\approx {dec(risky)}$.", decimals=4),
                number("(b) What is your position worth, playing your best?", value,
                       f"Your turn: take the better ask, $\\max({tex_frac(risky)}, {v_safe}) = {tex_frac(value)}$.",
                       decimals=4),
                choice("(c) Which ask does backward induction choose?", better,
                       {t: why for t, why in (
                           ("the ask for Queens", f"The ask for Queens is worth ${tex_frac(risky)}$, less than the "
                                                  f"7s' ${v_safe}$: backward induction takes the larger."),
                           ("the ask for 7s", f"The ask for 7s is worth ${v_safe}$, less than the Queens' "
                                              f"${tex_frac(risky)}$: backward induction takes the larger."),
                           ("either: they are equal", f"They are not equal: ${tex_frac(risky)}$ against ${v_safe}$."),
                           ("neither: it depends on the opponent's next ask",
                            "The values already average over everything that may follow, the opponent's asks "
                            "included: the choice can be made now.")) if t != better},
                       f"The ask for Queens is worth ${tex_frac(risky)}$, the ask for 7s ${v_safe}$."),
            ])


def q08_m2(gap: str, sd: str, games: int):
    """A paired interval for the gap to best play, and what it shows."""
    g, s = float(gap), float(sd)
    half = 2.576 * s / sqrt(games)
    low, high = g - half, g + half
    covers = low <= 0
    texts = {"covers": "The experiment cannot tell the gap from 0; a gap as large as the upper end is still "
                       "possible.",
             "above": "The best response wins more than memory: the whole interval lies above 0.",
             "equal": "The two strategies play equally well: the interval includes 0.",
             "proof": "The gap is exactly the simulated mean: the interval only adds decimals."}
    right = texts["covers"] if covers else texts["above"]
    wrong = {t: ("An interval that includes 0 is absence of evidence, not evidence of absence." if t == texts["equal"]
                 else "A simulated mean is an estimate; the interval is how far it may be from the truth."
                 if t == texts["proof"] else
                 "The interval includes 0, so these games cannot rule out no gap." if t == texts["above"] else
                 "The whole interval lies above 0: these games do rule out no gap.")
             for t in texts.values() if t != right}
    return (f"The best response and `memory` each play the same {games:,} decks against `memory`. The per-deck "
            f"difference in win share has mean {gap} and standard deviation {sd}.", [
                number("(a) What is the half-width of the 99% interval for the mean difference, "
                       "$2.576\\,s/\\sqrt{n}$? (3 decimal places)", half,
                       f"$2.576 \\times {sd}/\\sqrt{{{games}}} \\approx {half:.3f}$.", decimals=3,
                       tolerance=Fraction(1, 1000)),
                choice("(b) What do these games justify?", right, wrong,
                       f"The interval is {low:+.3f} to {high:+.3f}; it {'includes' if covers else 'lies above'} 0."),
            ])


def q08_3(value_first: str, best_first: str, best_second: str):
    """Exploitability from the game's value and the two best responses' values."""
    v, b0, b1 = Fraction(value_first), Fraction(best_first), Fraction(best_second)
    gain = ((b0 - v) + (b1 - (1 - v))) / 2
    agree(gain, (b0 + b1 - 1) / 2, "Q08.3")
    return (f"A two-player game whose win shares add up to 1 has value {value_first} for the seat moving first. A "
            f"best response to strategy S wins {best_first} against it moving first and {best_second} moving "
            "second.", [
                number("What is the exploitability of S: what the best response gains beyond the game's value, "
                       "averaged over the two seats?", gain,
                       f"Moving first the value is {value_first}, moving second $1 - {value_first}$: the gains are "
                       f"${tex_frac(b0 - v)}$ and ${tex_frac(b1 - (1 - v))}$, on average ${tex_frac(gain)}$.",
                       decimals=4),
            ])


#: The 2-rank deck's value for the seat moving first, as CFR finds it (0.5857; a test checks it).
TINY_VALUE = Fraction(41, 70)


def q08_4():
    """Exploitability seat by seat, from the exact best responses to memory on the 2-rank deck."""
    from ..bestplay import best_response
    from ..rules import Rules

    tiny = Rules.preset("pond").replace(n_ranks=2, hand_size=2)
    first = best_response(tiny, "memory", seat=0, exact=True).value    # the best response moves first
    second = best_response(tiny, "memory", seat=1, exact=True).value   # the best response moves second
    v = TINY_VALUE
    concede_second, concede_first = first - v, second - (1 - v)
    mean = (concede_first + concede_second) / 2
    agree(mean, (first + second - 1) / 2, "Q08.4")
    agree(concede_second, Fraction(0), "Q08.4: memory moving second concedes nothing")
    return (f"On the 2-rank deck the game's value for the seat moving first is {v}. A best response to `memory` "
            f"wins {first} against it when `memory` moves second, and {second} when `memory` moves first.", [short(
                "How much does `memory` concede in each seat, and what is its exploitability? What would it be for "
                "an equilibrium strategy? A classmate says `memory` is exploitable because it makes no random "
                "choices: what do these numbers say to that?",
                f"Moving second, `memory` concedes {first} - {v} = 0: no strategy gains anything from it there. "
                f"Moving first it concedes {second} - {1 - v} = {concede_first} (the seat moving second is worth "
                f"1 - {v} = {1 - v} at equilibrium), about {float(concede_first):.1f}. Its exploitability, the mean "
                f"of the two, is {mean} = {float(mean):.2f}. An equilibrium strategy, a best response to the other "
                "seat's equilibrium strategy, concedes 0 in both seats: it guarantees the game's value. Making no "
                "random choices is not the reason `memory` concedes something: it "
                "makes none moving second either, and concedes nothing there; and a best response plans against a "
                "mixed strategy's known probabilities just as well as against a fixed rule. What a best response "
                "exploits is a choice that costs something against its reply, and `memory` makes such choices only "
                "moving first.")])


def q08_5():
    return ("A search bot decides each ask on the full deck by drawing 192 deals of the hidden cards from its "
            "posterior, playing every legal ask out to the end in each deal with `memory` bots in every seat, and "
            "taking the ask with the best average win share. Against three `memory` bots it wins clearly more "
            "than `memory` does (paired difference +0.160, 95% interval +0.104 to +0.216, on 400 decks). Against "
            "three `random` bots no gain over `memory` was detected (difference -0.04, interval -0.13 to +0.04, on "
            "200 decks).", [short(
                "Why can the same search be strong against one table and show no gain against another? Name the "
                "assumption, say what the second interval does and does not show, and say how you would change "
                "the bot for the second table.",
                "The play-outs assume the other players play `memory`: the average win share of an ask is its "
                "value only if the others really play that way (and the posterior, too, reads their asks as "
                "evidence). Against `random` bots the simulated futures are wrong, so the asks are ranked by the "
                "wrong values. The second interval includes 0: no gain was detected, which is not the same as no "
                "gain; the decks are consistent with anything from a loss of 0.13 to a gain of 0.04. Model the "
                "others as they play (here `random`: `SearchBot(others=\"random\")`), or learn their strategy "
                "from their asks; best play is always best play against someone.")])


ITEMS = [
    Item("Q08.1", "08", (1,), "the value of seeing a hand", q08_1,
         ((1, 1, 2), (1, 1, 3), (2, 1, 2), (1, 2, 2), (1, 1, 1), (2, 2, 2)),
         "your cards and the opponent's number of cards"),
    Item("Q08.M1", "08", (2,), "backward induction on two asks", q08_m1,
         (("1/2", "3/4", "1/8", "2/3", "1/5", "1/2"), ("1/3", "2/3", "1/6", "3/5", "1/4", "1/2"),
          ("2/5", "5/8", "1/10", "1/2", "1/4", "1/2"), ("1/4", "4/5", "1/4", "3/4", "1/3", "2/3"),
          ("3/5", "1/2", "1/10", "3/5", "0", "2/5")),
         "the probabilities and the values of the branches"),
    Item("Q08.M2", "08", (3,), "a paired interval for the gap to best play", q08_m2,
         (("0.02", "0.33", 300), ("0.02", "0.33", 10_000), ("0.03", "0.4", 1_000), ("0.01", "0.3", 2_000),
          ("0.025", "0.35", 5_000), ("0.015", "0.3", 500)),
         "the mean and sd of the per-deck differences, and the number of decks"),
    Item("Q08.3", "08", (4,), "exploitability from best responses", q08_3,
         (("41/70", "41/70", "1/2"), ("3/5", "13/20", "9/20"), ("1/2", "3/5", "11/20"), ("4/7", "5/8", "1/2"),
          ("11/20", "3/5", "1/2")),
         "the game's value and the best responses' shares"),
    Item("Q08.4", "08", (4,), "exploitability seat by seat", q08_4),
    Item("Q08.5", "08", (5,), "a search and its model of the others", q08_5),
]
