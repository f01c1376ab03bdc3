"""Quiz items for lesson 09 (who am I playing?): Bayes' rule over strategies, averaging over the hand you
cannot see, how many asks tell two strategies apart, and what a wrong model of the others costs."""
from __future__ import annotations

from fractions import Fraction
from math import sqrt

from .common import tex_frac, words
from .model import Item, agree, choice, number, short

# ---------------------------------------------------------------------------------- lesson 09


def q09_1(ranks: int, opponents: int, prior: str):
    """The posterior of memory after one ask that memory makes for sure and random rarely."""
    p = Fraction(prior)
    random_ask = Fraction(1, ranks * opponents)
    post = p / (p + (1 - p) * random_ask)
    odds = p / (1 - p) * (1 / random_ask)  # a second way: the odds form, times the likelihood ratio
    agree(post, odds / (1 + odds), "Q09.1")
    return (f"West holds {words(ranks)} different ranks and may ask any of {words(opponents)} opponents. One of them "
            "has just asked for a rank West holds, and West now asks that player for that rank. If West plays "
            "`memory` it makes exactly this ask; if it plays `random` it picks a rank it holds and then an opponent, "
            f"each uniformly. Before this ask you gave `memory` probability {prior} and `random` the rest.", [
                number("What is the probability that West plays `memory` after this ask?", post,
                       f"The likelihoods are $1$ for `memory` and $1/({ranks} \\cdot {opponents}) = "
                       f"{tex_frac(random_ask)}$ for `random`. Bayes' rule: ${tex_frac(p)} \\cdot 1 / "
                       f"({tex_frac(p)} \\cdot 1 + {tex_frac(1 - p)} \\cdot {tex_frac(random_ask)}) = "
                       f"{tex_frac(post)}$.", decimals=4),
            ])


def q09_m1(prior: str, first: tuple, second: tuple):
    """Two asks, three strategies: the posterior after each."""
    p = [Fraction(x) for x in prior.split()]
    l1, l2 = [Fraction(x) for x in first], [Fraction(x) for x in second]
    after1 = [a * b for a, b in zip(p, l1, strict=True)]
    after1 = [x / sum(after1) for x in after1]
    after2 = [a * b for a, b in zip(after1, l2, strict=True)]
    after2 = [x / sum(after2) for x in after2]
    both = [a * b * c for a, b, c in zip(p, l1, l2, strict=True)]  # a second way: both likelihoods at once
    agree(after2[1], both[1] / sum(both), "Q09.M1")
    names = ["random", "memory", "most_held"]
    table = "; ".join(f"`{n}` {x}" for n, x in zip(names, prior.split(), strict=True))
    return (f"Your prior over West's strategy: {table}. The probability that each strategy makes West's first ask "
            f"is {', '.join(f'{n} {x}' for n, x in zip(names, first, strict=True))}; its second ask, "
            f"{', '.join(f'{n} {x}' for n, x in zip(names, second, strict=True))}.", [
                number("(a) What is the probability that West plays `memory` after the first ask?", after1[1],
                       f"Prior times likelihood, scaled to add up to 1: "
                       f"${tex_frac(p[1] * l1[1])} / ({' + '.join(tex_frac(a * b) for a, b in zip(p, l1, strict=True))}) "
                       f"= {tex_frac(after1[1])}$.", decimals=4),
                number("(b) And after the second ask?", after2[1],
                       f"The posterior after the first ask is the prior of the second: "
                       f"${tex_frac(after1[1] * l2[1])} / ({' + '.join(tex_frac(a * b) for a, b in zip(after1, l2, strict=True))}) "
                       f"= {tex_frac(after2[1])}$ (the same as multiplying both likelihoods into the first prior).",
                       decimals=4),
                choice("(c) Which strategy is now the most likely?", names[max(range(3), key=lambda k: after2[k])],
                       {n: (f"`{n}`'s posterior after the second ask is {tex_frac(after2[names.index(n)])}, not the "
                            f"largest of the three" if n in names else
                            "The question asks which is most likely, not whether we are sure: one posterior is "
                            "the largest after any number of asks")
                        for n in names + ["none: two asks are not enough to say"]
                        if n != names[max(range(3), key=lambda k: after2[k])]},
                       "Posteriors after two asks: " + ", ".join(f"`{n}` ${tex_frac(x)}$" for n, x in zip(names, after2, strict=True))
                       + "."),
            ])


def q09_2():
    return ("From your own seat you cannot see West's hand, yet the probability that `most_held` makes an ask "
            "depends on it: `most_held` asks for Kings only if Kings are its most held rank.", [short(
                "How do you find the likelihood of West's ask under `most_held` from your seat? Say why the answer "
                "also depends on West's earlier asks, and why it depends on the strategy.",
                "Average over the hands West may hold (the law of total probability): the sum over hands h of "
                "P(h | what you saw) times P(ask | most_held, h). What you saw includes West's earlier asks, and "
                "they say different things about West's hand under each strategy: under `most_held` an earlier ask "
                "for Kings said Kings were its most held rank, under `random` only that it held a King. So each "
                "strategy needs its own distribution of hands (the lesson's model keeps a weighted set of hands "
                "per strategy, a particle filter), and from your seat each likelihood is an average, which makes "
                "the evidence of each ask weaker than a spectator's.")])


def q09_m2(prior: str, ratio: int, sure: str):
    """Odds times likelihood ratios: how many asks make you sure."""
    p, s = Fraction(prior), Fraction(sure)
    odds, wanted, n = p / (1 - p), s / (1 - s), 0
    while odds < wanted:
        odds *= ratio
        n += 1
    after_two = p / (1 - p) * ratio ** 2
    k = 0
    while p / (1 - p) * Fraction(ratio) ** k < wanted:  # a second way: the first power of the ratio that is enough
        k += 1
    agree(n, k, "Q09.M2")
    return (f"You give `memory` probability {prior} for West. Each ask West makes is {ratio} times as likely if West "
            "plays `memory` as if it plays `random` (the only other possibility).", [
                number("(a) What are the odds for `memory` (to 1) after two such asks?", after_two,
                       f"Odds {tex_frac(p / (1 - p))} times the likelihood ratio {ratio}, twice: "
                       f"${tex_frac(after_two)}$.", decimals=2),
                number(f"(b) How many such asks does it take until `memory` has probability at least {sure}?", n,
                       f"Probability {sure} is odds ${tex_frac(wanted)}$; the odds ${tex_frac(p / (1 - p))} \\cdot "
                       f"{ratio}^n$ reach it first at $n = {n}$."),
            ])


def q09_m3(diff: str, sd: str, games: int):
    """A paired interval for a search bot with a wrong model of the others."""
    d, s = float(diff), float(sd)
    half = 1.96 * s / sqrt(games)
    low, high = d - half, d + half
    covers = low <= 0 <= high
    texts = {"none": "No clear difference from memory: the interval holds 0.",
             "better": "The search bot wins more than memory: the whole interval lies above 0.",
             "worse": "The search bot wins less than memory: the whole interval lies below 0.",
             "equal": "The search bot and memory play equally well here."}
    right = texts["none"] if covers else (texts["better"] if low > 0 else texts["worse"])
    why = {"none": "The interval lies wholly on one side of 0: the decks do show a difference.",
           "better": ("The mean is above 0, but the interval holds 0: a mean's sign says nothing without its interval."
                      if covers else "The interval lies wholly below 0: the search bot wins less, not more."),
           "worse": ("The mean is below 0, but the interval holds 0: a mean's sign says nothing without its interval."
                     if covers else "The interval lies wholly above 0: the search bot wins more, not less."),
           "equal": "An interval that holds 0 is absence of evidence, not evidence that the two are equal."}
    if covers:  # above 0 or below: whichever side the mean is not on gets its own reason
        why["better" if d <= 0 else "worse"] = ("The mean is not even on that side of 0, and the interval holds 0: "
                                                "no difference is shown either way.")
    wrong = {texts[k]: why[k] for k in texts if texts[k] != right}
    return (f"`SearchBot()` assumes every other seat plays `memory`. Against three `random` bots it plays {games:,} "
            f"decks, and `memory` plays the same decks in the same seat. The per-deck difference of their win shares "
            f"has mean {diff} and standard deviation {sd}.", [
                number("(a) What is the half-width of the 95% interval for the mean difference, $1.96\\,s/\\sqrt{n}$? "
                       "(3 decimal places)", half, f"$1.96 \\times {sd} / \\sqrt{{{games}}} \\approx {half:.3f}$.",
                       decimals=3, tolerance=Fraction(1, 1000)),
                choice("(b) What do these decks show?", right, wrong,
                       f"The interval is {low:+.3f} to {high:+.3f}."),
            ])


def q09_4():
    return ("A search bot that plays every ask out with `memory` bots in the other seats beats `memory` against "
            "`memory` bots, and does no better than `memory` against `random` bots. A second search bot learns "
            "each seat's strategy from its asks (a posterior over the built-ins) and, in each imagined game, plays "
            "each seat by a strategy drawn from that seat's posterior.", [short(
                "Why does the first bot lose its edge against `random` bots, and why can the second keep it against "
                "any of the built-ins, even at a table where every seat plays differently?",
                "The search values an ask by the games that follow it, and those games are played by its model of "
                "the others: with the wrong model (memory bots where there are random ones) it ranks the asks by "
                "the values they would have at another table. Fixing one model for all (others=...) is right only "
                "where every seat plays that way. The second bot's model is learned: after a few asks its posterior "
                "puts most weight on each seat's true strategy, so its imagined games are drawn from the right "
                "strategies, seat by seat, and early on it averages over what it does not yet know.")])


ITEMS = [
    Item("Q09.1", "09", (1,), "which bot is West, after one ask", q09_1,
         ((3, 3, "1/2"), (4, 3, "1/2"), (5, 3, "1/3"), (2, 3, "1/2"), (4, 2, "1/4"), (3, 5, "1/3")),
         "the ranks, the opponents and the prior"),
    Item("Q09.M1", "09", (1,), "Bayes' rule over strategies, two asks", q09_m1,
         (("1/3 1/3 1/3", ("1/9", "1", "0"), ("1/12", "1/3", "1/3")),
          ("1/2 1/4 1/4", ("1/8", "1/2", "1/2"), ("1/8", "1", "0")),
          ("1/4 1/2 1/4", ("1/6", "0", "1/3"), ("1/6", "1/3", "1/3")),
          ("1/3 1/3 1/3", ("1/12", "1/4", "1/4"), ("1/10", "1", "0")),
          ("2/5 2/5 1/5", ("1/15", "1", "0"), ("1/9", "1/3", "1/3"))),
         "the prior and the likelihoods of the two asks"),
    Item("Q09.2", "09", (2,), "a likelihood from your own seat", q09_2),
    Item("Q09.M2", "09", (3,), "odds and likelihood ratios: asks until sure", q09_m2,
         (("1/2", 15, "19/20"), ("1/2", 3, "19/20"), ("1/5", 4, "19/20"), ("1/3", 5, "99/100"), ("1/2", 2, "9/10"),
          ("1/4", 10, "19/20")),
         "the prior, the likelihood ratio and how sure"),
    Item("Q09.M3", "09", (4,), "a paired interval for a wrong model", q09_m3,
         (("-0.04", "0.85", 400), ("-0.04", "0.85", 200), ("0.11", "0.8", 400), ("0.06", "0.9", 400),
          ("-0.02", "0.7", 2_000), ("0.16", "0.6", 400)),
         "the mean and sd of the per-deck differences, and the number of decks"),
    Item("Q09.4", "09", (4,), "a wrong model, and a learned one", q09_4),
]
