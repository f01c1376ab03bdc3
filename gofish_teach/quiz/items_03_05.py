"""Quiz items for lessons 03 (fishing from the ocean), 04 (what asks reveal) and 05 (models and calibration)."""
from __future__ import annotations

import random
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import comb

from scipy.stats import hypergeom

from ..cards import ALL_RANKS
from ..probability import Facts
from .common import dec, ranks_word, tex_frac, words
from .model import Item, agree, choice, number, short


def _hand(rank: str, held: int, size: int, avoid=()) -> str:
    """``size`` ranks: ``held`` of ``rank``, the rest single cards of other ranks."""
    others = [r for r in ALL_RANKS if r != rank and r not in avoid][:size - held]
    return " ".join([rank] * held + others)


def _known(unseen: int, rank: str, held: int) -> dict:
    """``Facts`` arguments for a position with ``unseen`` cards you cannot see and ``held`` of
    ``rank`` in your hand: a hand of 7, 5 or 3 cards, and books of other ranks for the rest."""
    for size in (7, 5, 3):
        books, extra = divmod(52 - unseen - size, 4)
        if books >= 0 and not extra and size >= held:
            booked = [r for r in reversed(ALL_RANKS) if r != rank][:books]
            return dict(hand=_hand(rank, held, size, avoid=booked), books=booked)
    raise ValueError(f"no position with {unseen} unseen cards")


def _setting(players: int) -> tuple[str, int]:
    return ("family", 7) if players <= 3 else ("pond", 5)


# ---------------------------------------------------------------------------------- lesson 03

PLACES = ("the bottom card of the ocean", "the fifth card from the top of the ocean",
          "the last card East was dealt")


def q03_1(players: int, held: int, rank: str, place: str):
    preset, k = _setting(players)
    unseen, copies = 52 - k, 4 - held
    p = Fraction(copies, unseen)
    facts = Facts(hand=_hand(rank, held, k), hand_sizes={1: k}, books_laid=False)
    agree(facts.p_top(rank), p, "Q03.1")  # the top card; every unseen place is alike
    east = "East" if players >= 4 else "West"
    place = place.replace("East", east)
    return (f"{words(players).capitalize()} players, `{preset}` rules, right after the deal. You hold "
            f"{'none' if held == 0 else words(held)} of the {ranks_word(rank)}, and you know nothing else about "
            "the other cards.", [number(
                f"What is the probability that {place} is one of the {ranks_word(rank)}?", p,
                f"Exchangeability: the {unseen} unseen cards are equally likely to be in any order, so every unseen "
                f"place, {place} included, holds one of the {copies} unseen {ranks_word(rank)} with chance "
                f"${copies}/{unseen}$. (Not ${copies}/$ the ocean's size: the copies need not be in the ocean.)")])


def q03_2():
    return ("Four players, `pond` rules, right after the deal; you hold no Ace and know nothing else.", [choice(
        "Which is more likely: that the ocean's top card is an Ace, or that the first card East was dealt is an Ace?",
        "They are equally likely.",
        {"The ocean's top card: the ocean holds 32 cards, East only 5.":
             "The ocean's size matters for how many Aces it holds, not for one given place.",
         "East's card: a hand is dealt before the ocean is formed.": "Dealing order does not favour any place.",
         "It depends on the order in which the cards were dealt.": "Any fixed order gives the same chances."},
        "Exchangeability: every one of the 47 unseen places holds an Ace with chance 4/47, a place in a hand "
        "or in the ocean alike.")])


def q03_3(held: int, books: int, sizes: tuple, north_too: bool):
    rank = "9"
    booked = ["3", "J", "5"][:books]
    mine = _hand(rank, held, 3, avoid=booked)
    unseen = 52 - 3 - 4 * books
    west, north, east = sizes
    gone = west + (north if north_too else 0)
    p = Fraction(4 - held, unseen - gone)
    facts = Facts(hand=mine, hand_sizes={1: west, 2: north, 3: east}, books=booked,
                  lacks={1: [rank], **({2: [rank]} if north_too else {})}, books_laid=False)
    agree(facts.p_top(rank), p, "Q03.3")
    ocean = unseen - west - north - east
    stem = (f"Four players, `pond` rules, later in a game. You hold {mine}; books of "
            + " and ".join(ranks_word(b) for b in booked) + f" are on the table. West holds {west} cards, North "
            f"{north} and East {east}; the ocean holds {ocean}."
            + (" Earlier North said \"Go Fish!\" to an ask for 9s, and has drawn no card and been given no 9 since."
               if north_too else "")
            + " You ask West for 9s: \"Go Fish!\"")
    return stem, [number(
        "What is the probability that your draw is a 9 (a lucky draw)? Exact fraction.", p,
        f"You cannot see $52 - 3 - {4 * books} = {unseen}$ cards, {4 - held} of them 9s. West's {west} places"
        + (f" and North's {north}" if north_too else "") + f" hold none, and the other {unseen - gone} places are "
        f"all alike: $P = {4 - held}/{unseen - gone} = {tex_frac(p)}$.")]


def q03_5(unseen: int, copies: int, size: int, exactly: int):
    p = Fraction(comb(copies, exactly) * comb(unseen - copies, size - exactly), comb(unseen, size))
    rank = "Q"
    facts = Facts(**_known(unseen, rank, 4 - copies), hand_sizes={1: size}, books_laid=False)
    agree(facts.count_distribution(1, rank).get(exactly, Fraction(0)), p, "Q03.5")
    agree(float(p), float(hypergeom(unseen, copies, size).pmf(exactly)), "Q03.5 scipy")
    return (f"You cannot see {unseen} cards, {copies} of them Queens. West holds {size} of those {unseen} cards, "
            "and you know nothing else about them.", [number(
                f"What is the exact probability that West holds exactly {words(exactly)} "
                f"Queen{'s' if exactly != 1 else ''}?",
                p, f"Hypergeometric: $\\binom{{{copies}}}{{{exactly}}}\\binom{{{unseen - copies}}}{{{size - exactly}}}"
                   f"/\\binom{{{unseen}}}{{{size}}} = {tex_frac(p)} \\approx {dec(p)}$ (`hypergeom({unseen}, {copies}, "
                   f"{size}).pmf({exactly})`).")])


@lru_cache(maxsize=None)
def _laid_effect() -> tuple[float, float]:
    four = [Facts(hand="7 8 9 10 J", hand_sizes={1: 5, 2: 5, 3: 5}, books_laid=laid).p_top("K") for laid in (True, False)]
    two = [Facts(hand="7 8 9 10 J Q 2", hand_sizes={1: 7}, books_laid=laid).p_top("K") for laid in (True, False)]
    return float(four[0] - four[1]), float(two[0] - two[1])


def q03_4():
    four, two = _laid_effect()
    if not abs(two) > abs(four) > 0:
        raise AssertionError(f"Q03.4: the effect should be larger for 7-card hands ({two}) than 5-card ({four})")
    return ("In play, books are laid down at once, so no hand ever holds all four cards of a rank; the ocean may. "
            "You hold no King.", [choice(
                "In which game does that rule move P(the ocean's top card is a King) the most?",
                "Two players with 7 cards each (`family`).",
                {"Four players with 5 cards each (`pond`).": "A 5-card hand holds four of a kind less often than a "
                                                             "7-card one, so fewer worlds are removed.",
                 "Neither: by exchangeability every unseen place is alike.": "Exchangeability bends here: hands "
                     "cannot hold a whole book, the ocean can.",
                 "Both the same: only the number of Kings matters.": "The number of cards per hand matters."},
                f"The rule removes the worlds where a hand held all four Kings, rarer with small hands. Counted "
                f"exactly (`Facts`, `books_laid` on and off), it moves the chance by {two:.1e} with 7-card hands "
                f"and {four:.1e} with 5-card hands.")])


def q03_m1(unseen: int, copies: int, size: int, where: str):
    n, K, N = size, copies, unseen
    mean = n * Fraction(K, N)
    var = n * Fraction(K, N) * Fraction(N - K, N) * Fraction(N - n, N - 1)
    pmf = {k: Fraction(comb(K, k) * comb(N - K, n - k), comb(N, n)) for k in range(K + 1)}
    agree(mean, sum(k * p for k, p in pmf.items()), "Q03.M1 mean")
    agree(var, sum(k * k * p for k, p in pmf.items()) - mean ** 2, "Q03.M1 variance")
    m, v = hypergeom(N, K, n).stats()
    agree(float(v), float(var), "Q03.M1 scipy")
    fpc = Fraction(N - n, N - 1)
    right = f"`hypergeom(M={N}, n={K}, N={n})`"
    return (f"You cannot see {N} cards, {K} of them sevens. {where.capitalize()} holds {n} of them. Let $X$ be the "
            f"number of sevens there.", [
                number("(a) What is $E[X]$? Exact value.", mean, f"$n K/N = {n} \\cdot {K}/{N} = {tex_frac(mean)}$."),
                number("(b) What is $\\mathrm{Var}(X)$? Exact value.", var,
                       f"$n p (1-p) \\frac{{N-n}}{{N-1}} = {n} \\cdot \\frac{{{K}}}{{{N}}} \\cdot \\frac{{{N - K}}}{{{N}}}"
                       f" \\cdot \\frac{{{N - n}}}{{{N - 1}}} = {tex_frac(var)} \\approx {dec(var)}$."),
                number("(c) By what factor is (b) smaller than the binomial variance $np(1-p)$? Exact value.", fpc,
                       f"The finite-population correction $\\frac{{N-n}}{{N-1}} = {tex_frac(fpc)}$: drawing without "
                       "replacement is less variable."),
                choice("(d) Which `scipy.stats` call gives the distribution of $X$?", right,
                       {f"`hypergeom(M={N}, n={n}, N={K})`": "scipy's `n` is the number of successes, `N` the draws.",
                        f"`hypergeom(M={n}, n={K}, N={N})`": "`M` is the whole population.",
                        f"`binom(n={n}, p={K}/{N})`": "The binomial draws with replacement; the cards are not put back."},
                       "scipy names them `M` (population), `n` (successes in it), `N` (draws): not the textbook order."),
            ])


def q03_m2(unseen: int, copies: int, size: int):
    U, u, n = unseen, copies, size
    p0 = Fraction(comb(U - u, n), comb(U, n))
    top0 = Fraction(u, U - n)
    top1 = Fraction(u - 1, U - n)
    total = sum(Fraction(comb(u, x) * comb(U - u, n - x), comb(U, n)) * Fraction(u - x, U - n) for x in range(u + 1))
    agree(total, Fraction(u, U), "Q03.M2 law of total probability")
    rank = "7"
    facts = Facts(**_known(U, rank, 4 - u), hand_sizes={1: n}, lacks={1: [rank]}, books_laid=False)
    agree(facts.p_top(rank), top0, "Q03.M2 (b)")
    return (f"You cannot see {U} cards, {u} of them sevens; West holds {n} of them. You are about to ask West for "
            "sevens. Split the possibilities by $x$, the number of sevens West holds.", [
                number("(a) What is $P(x = 0)$? Exact fraction.", p0,
                       f"$\\binom{{{U - u}}}{{{n}}}/\\binom{{{U}}}{{{n}}} = {tex_frac(p0)}$."),
                number("(b) Given $x = 0$, what is P(the ocean's top card is a seven)?", top0,
                       f"All {u} sevens are in the other {U - n} places, all alike: ${u}/{U - n} = {tex_frac(top0)}$."),
                number("(c) Given $x = 1$, what is P(the ocean's top card is a seven)?", top1,
                       f"${u - 1}/{U - n} = {tex_frac(top1)}$."),
                number("(d) Averaging over every $x$ with the law of total probability, what is P(the top card is a "
                       "seven) before West answers?", Fraction(u, U),
                       f"$\\sum_x P(x)\\,\\frac{{{u} - x}}{{{U - n}}} = \\frac{{{u}}}{{{U}}}$: the \"before\" chance is "
                       "the average of the \"after\" chances, weighted by how likely each is."),
            ])


# ---------------------------------------------------------------------------------- lesson 04

def q04_m1(n_ranks: int, size: int, held: int):
    deck = [f"{r}{s}" for r in ALL_RANKS[:n_ranks] for s in "cdhs"]
    rank = ALL_RANKS[n_ranks - 1]
    others = [c for c in deck if c[:-1] != rank]
    mine = [f"{rank}c"] * 0 + [f"{rank}{s}" for s in "cdhs"[:held]] + others[:size - held]
    unseen = [c for c in deck if c not in mine]
    worlds = list(combinations(unseen, size))
    with_one = [w for w in worlds if any(c[:-1] == rank for c in w)]
    with_two = [w for w in with_one if sum(c[:-1] == rank for c in w) >= 2]
    U, u = len(unseen), 4 - held
    agree(len(worlds), comb(U, size), "Q04.M1 (a)")
    agree(len(with_one), comb(U, size) - comb(U - u, size), "Q04.M1 (b)")
    p = Fraction(len(with_two), len(with_one))
    hand = " ".join(c[:-1] for c in mine)
    return (f"Two players, a small deck of {4 * n_ranks} cards (ranks {', '.join(ALL_RANKS[:n_ranks])}), {size} cards "
            f"each, nothing drawn yet. You hold {hand}. Every hand your opponent could hold is a possible world, all "
            "equally likely.", [
                number("(a) How many possible worlds are there?", len(worlds),
                       f"Your opponent's {size} cards come from the {U} you cannot see: "
                       f"$\\binom{{{U}}}{{{size}}} = {len(worlds)}$."),
                number(f"(b) In how many of them does your opponent hold at least one {rank}?", len(with_one),
                       f"All minus those with none: ${len(worlds)} - \\binom{{{U - u}}}{{{size}}} = {len(with_one)}$."),
                number(f"(c) Your opponent now asks you for {ranks_word(rank)}. Crossing out the worlds this rules "
                       f"out, what is the probability that they hold two or more?", p,
                       f"The ask leaves the {len(with_one)} worlds with at least one {rank}; {len(with_two)} of them "
                       f"hold two or more: ${tex_frac(p)}$."),
            ])


def q04_2(m1: int, m2: int, prior_num: int, prior_den: int):
    prior = Fraction(prior_num, prior_den)  # P(H1)
    odds = prior / (1 - prior)
    ratio = Fraction(1, m1) / Fraction(1, m2)
    post_odds = odds * ratio
    post = post_odds / (1 + post_odds)
    direct = prior * Fraction(1, m1) / (prior * Fraction(1, m1) + (1 - prior) * Fraction(1, m2))
    agree(post, direct, "Q04.2")
    return (f"A bot asks for a rank chosen uniformly among the ranks it holds. You think it holds {words(m1)} "
            f"different ranks (hypothesis $H_1$) with probability {frac_text(prior)}, "
            f"otherwise {words(m2)} ($H_2$). It asks for 7s, a rank it holds under both.", [number(
                "Use Bayes' rule in odds form: what is $P(H_1 \\mid \\text{the ask})$? Exact fraction.", post,
                f"Prior odds ${tex_frac(odds)}$; likelihood ratio $\\frac{{1/{m1}}}{{1/{m2}}} = {tex_frac(ratio)}$; "
                f"posterior odds ${tex_frac(post_odds)}$, so $P = {tex_frac(post)}$.")])


def frac_text(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def _facts_ab(held: int, rank: str = "8"):
    return _hand(rank, held, 5)


def q04_m2(players: int, held: int):
    rank = "8"
    U, u, n = 47, 4 - held, 5
    sizes = {q: 5 for q in range(1, players)}
    prior = Facts(hand=_hand(rank, held, 5), hand_sizes=sizes, books_laid=False)
    after = Facts(hand=_hand(rank, held, 5), hand_sizes=sizes, lacks={1: [rank]}, books_laid=False)
    p_h = prior.p_holds(2, rank)
    p_e = 1 - prior.p_holds(1, rank)
    p_h_e = after.p_holds(2, rank)
    agree(p_h, 1 - Fraction(comb(U - u, n), comb(U, n)), "Q04.M2 prior")
    agree(p_h_e, 1 - Fraction(comb(U - n - u, n), comb(U - n, n)), "Q04.M2 posterior")
    lr = (p_h_e * p_e / p_h) / ((1 - p_h_e) * p_e / (1 - p_h))
    agree(p_h_e / (1 - p_h_e), p_h / (1 - p_h) * lr, "Q04.M2 odds form")
    return (f"{words(players).capitalize()} players, `pond` rules, right after the deal; you hold "
            f"{words(held)} of the 8s. $H$: North holds at least one 8. $E$: West answers \"Go Fish!\" when you ask "
            "for 8s.", [
                number("(a) What is $P(H)$ before you ask? Exact fraction.", p_h,
                       f"$1 - \\binom{{{U - u}}}{{5}}/\\binom{{{U}}}{{5}} = {tex_frac(p_h)}$."),
                number("(b) What is $P(E)$, the chance West says \"Go Fish!\"?", p_e,
                       f"$\\binom{{{U - u}}}{{5}}/\\binom{{{U}}}{{5}} = {tex_frac(p_e)}$."),
                number("(c) What is $P(H \\mid E)$? Exact fraction.", p_h_e,
                       f"Given $E$, North's 5 cards come from the {U - 5} places outside West's hand, with all {u} "
                       f"8s among them: $1 - \\binom{{{U - 5 - u}}}{{5}}/\\binom{{{U - 5}}}{{5}} = {tex_frac(p_h_e)}$."),
                number("(d) What is the likelihood ratio $P(E \\mid H)/P(E \\mid \\text{not } H)$? Exact fraction.", lr,
                       f"From Bayes' rule, $P(E \\mid H) = P(H \\mid E)P(E)/P(H)$ and likewise for not $H$; the ratio is "
                       f"${tex_frac(lr)} \\approx {dec(lr)}$, above 1: \"Go Fish!\" from West makes North's 8s more likely, "
                       "and posterior odds = prior odds × this ratio."),
            ])


def q04_3(unseen: int, aces: int, dealt: int, drawn: int):
    U, a, n0, d = unseen, aces, dealt, drawn
    n = n0 + d
    history = 1 - Fraction(comb(U - n0 - a, d), comb(U - n0, d))
    top = sum(comb(a, j) * comb(U - a, n - j) for j in range(1, d + 1))
    bottom = sum(comb(a, j) * comb(U - a, n - j) for j in range(0, d + 1))
    notes = Fraction(top, bottom)
    facts = Facts(**_known(U, "A", 4 - a), hand_sizes={1: n}, at_most={1: {"A": d}}, books_laid=False)
    agree(facts.p_holds(1, "A"), notes, "Q04.M3 note-taker")
    if not notes > history:
        raise AssertionError("Q04.M3: the note-taker should be too high here")
    return (f"You cannot see {U} cards, {a} of them Aces. West was dealt {n0} cards and said \"Go Fish!\" to your "
            f"Aces right away; since then West has drawn {words(d)} card{'s' if d > 1 else ''}, unseen by you. Assume "
            "nothing else you saw tells you about West's cards.", [
                number("(a) From the history: what is P(West now holds an Ace)? Exact fraction.", history,
                       f"West's {n0} dealt cards hold no Ace; only the {d} drawn can, and they are {d} of the other "
                       f"{U - n0} unseen cards: $1 - \\binom{{{U - n0 - a}}}{{{d}}}/\\binom{{{U - n0}}}{{{d}}} = "
                       f"{tex_frac(history)} \\approx {dec(history)}$."),
                number(f"(b) A note-taker writes only \"West holds {n} cards, at most {words(d)} of them "
                       f"Ace{'s' if d > 1 else ''}\" and counts every such hand as equally likely. What does it get?",
                       notes, f"$\\sum_{{j=1}}^{{{d}}}\\binom{{{a}}}{{j}}\\binom{{{U - a}}}{{{n} - j}} / "
                              f"\\sum_{{j=0}}^{{{d}}}\\binom{{{a}}}{{j}}\\binom{{{U - a}}}{{{n} - j}} = {tex_frac(notes)} "
                              f"\\approx {dec(notes)}$ (`Facts(..., at_most=...)`)."),
                choice("(c) Which answer is right, and why do they differ?",
                       "(a): the notes forget when the cards arrived, so they weigh hands with an Ace among the dealt "
                       "cards as if they could happen.",
                       {"(b): every fact it uses is true.": "True facts, wrong weights: it counts hands the history "
                                                           "rules out as likely as any other.",
                        "Both: they are two exact answers to one question.": "Only one matches what happened; the "
                            "other drops evidence.",
                        "Neither: without seeing West's hand no probability is right.": "A probability is about what "
                            "you know; the history gives it exactly."},
                       "Every hand on the note-taker's list can happen, but not equally often given the history: an "
                       "Ace can only be one of the drawn cards. A summary that forgets *when* cards arrived loses "
                       "evidence, here making the answer too high."),
            ])


def q04_m3(held: int, size: int):
    rank = "6"
    U, u = 52 - size, 4 - held
    mine = _hand(rank, held, size)
    plain = Facts(hand=mine, hand_sizes={1: size}, books_laid=False)
    asked = Facts(hand=mine, hand_sizes={1: size}, at_least={1: {rank: 1}}, books_laid=False)
    seen = Facts(hand=mine, hand_sizes={1: size}, known={1: [rank]}, books_laid=False)
    pmf = {k: Fraction(comb(u, k) * comb(U - u, size - k), comb(U, size)) for k in range(u + 1)}
    prior2 = 1 - pmf[0] - pmf[1]
    asked2 = prior2 / (1 - pmf[0])
    asked1 = pmf[1] / (1 - pmf[0])
    seen2 = 1 - Fraction(comb(U - u, size - 1), comb(U - 1, size - 1))
    agree(plain.p_holds(1, rank, at_least=2), prior2, "Q04.M4 prior")
    agree(asked.p_holds(1, rank, at_least=2), asked2, "Q04.M4 asked")
    agree(seen.p_holds(1, rank, at_least=2), seen2, "Q04.M4 seen")
    return (f"Two players, right after the deal, {size} cards each; you hold {'none' if held == 0 else words(held)} of "
            f"the 6s, so {u} are "
            "among the cards you cannot see. A Bayes table for $X$, the number of 6s in West's hand.", [
                number("(a) Before anything happens, what is $P(X \\ge 2)$? Exact fraction.", prior2,
                       f"Hypergeometric: $1 - P(X=0) - P(X=1) = {tex_frac(prior2)} \\approx {dec(prior2)}$."),
                number("(b) West asks you for 6s. With the likelihood \"1 if West holds a 6, else 0\", what is the "
                       "posterior $P(X = 1)$?", asked1,
                       f"The ask crosses out $X = 0$: $P(X=1)/(1 - P(X=0)) = {tex_frac(asked1)} \\approx {dec(asked1)}$."),
                number("(c) And the posterior $P(X \\ge 2)$?", asked2,
                       f"${tex_frac(prior2)}/(1 - P(X=0)) = {tex_frac(asked2)} \\approx {dec(asked2)}$."),
                number("(d) Instead, you saw one particular 6 go into West's hand (and nothing else). What is "
                       "$P(X \\ge 2)$ then?", seen2,
                       f"One place is fixed; West's other {size - 1} cards come from {U - 1}, with {u - 1} 6s among "
                       f"them: $1 - \\binom{{{U - u}}}{{{size - 1}}}/\\binom{{{U - 1}}}{{{size - 1}}} = {tex_frac(seen2)}"
                       f" \\approx {dec(seen2)}$, more than (c): seeing a card says more than \"at least one\"."),
            ])


# ---------------------------------------------------------------------------------- lesson 05

def _likelihood(hand: str, rank: str, model: str) -> Fraction:
    ranks = sorted(set(hand.split()), key=ALL_RANKS.index)
    if rank not in ranks:
        return Fraction(0)
    if model == "holds":
        return Fraction(1)
    if model == "random":
        return Fraction(1, len(ranks))
    counts = {r: hand.split().count(r) for r in ranks}
    best = max(ranks, key=lambda r: counts[r])  # max keeps the first of equals: the lowest rank
    return Fraction(best == rank)


def q05_m1(a: str, b: str, prior_a: Fraction):
    prior_a = Fraction(prior_a)
    out = {}
    for model in ("holds", "random", "most"):
        la, lb = _likelihood(a, "3", model), _likelihood(b, "3", model)
        out[model] = prior_a * la / (prior_a * la + (1 - prior_a) * lb)
    return (f"From what you have seen, Ann's three cards are either **{a}** (probability {frac_text(prior_a)}) or "
            f"**{b}**. She asks for 3s. Each model of why she chose that rank gives its own exact answer.", [
                number(f"(a) Model 1, an ask tells only that she holds the rank: P(her hand is {a})?", out["holds"],
                       f"Both hands hold a 3, so both likelihoods are 1 and nothing changes: {frac_text(out['holds'])}."),
                number(f"(b) Model 2, she picks uniformly among the ranks she holds: P(her hand is {a})?", out["random"],
                       f"Likelihoods $1/m$ for $m$ ranks held: "
                       f"{_likelihood(a, '3', 'random')} and {_likelihood(b, '3', 'random')}; Bayes gives "
                       f"${tex_frac(out['random'])}$."),
                number(f"(c) Model 3, she asks for the rank she holds most of (ties: the lowest rank): P(her hand is "
                       f"{a})?", out["most"],
                       f"Likelihoods {_likelihood(a, '3', 'most')} and {_likelihood(b, '3', 'most')} (1 if 3 is her "
                       f"most-held rank, else 0): ${tex_frac(out['most'])}$."),
                choice("(d) Which of the three is \"the\" probability that her hand is " + a + "?",
                       "Each is exact under its own assumption about how she chooses; data decide which fits her.",
                       {"(a): it assumes nothing about her.": "It assumes something too: that her choice of rank "
                                                             "carries no information beyond holding it.",
                        "(b): it uses the most information.": "Extra information helps only if the assumption behind "
                                                              "it is true of the real player.",
                        "(c): a real player asks for what she holds most of.": "Some players do, some do not: that is "
                                                                               "an assumption to test, not a fact."},
                       "Each model gives an exact answer under its assumption; which fits a real player is a question "
                       "for data (a calibration test), and the certain answers (0 or 1, from the rules alone) hold "
                       "under all three."),
            ])


def q05_m2(held: int, north: int, east: int):
    rank = "10"
    mine = _hand(rank, held, 5)
    U, u = 47, 4 - held
    facts = Facts(hand=mine, hand_sizes={1: north, 2: east}, at_least={1: {rank: 1}}, lacks={2: [rank]},
                  books_laid=False)
    two = facts.p_holds(1, rank, at_least=2)
    top = facts.p_top(rank)
    ocean = U - north - east
    weights = {x: comb(u, x) * comb(U - u, north - x) * comb(U - north - (u - x), east) for x in range(1, u + 1)}
    total = sum(weights.values())
    agree(two, Fraction(sum(w for x, w in weights.items() if x >= 2), total), "Q05.M2 (a)")
    agree(top, sum(Fraction(w, total) * Fraction(u - x, ocean) for x, w in weights.items()), "Q05.M2 (b)")
    return (f"Three players, `pond` rules. You hold {mine}. North holds {north} cards, East {east}; the ocean "
            f"{ocean}. North asks East for 10s and East says \"Go Fish!\" (North has not drawn yet). Your live "
            "posterior moves.", [
                number("(a) What is P(North holds two or more 10s) now? Exact fraction.", two,
                       f"North holds at least one (the ask) and East none (\"Go Fish!\"): weigh each $x \\ge 1$ 10s in "
                       f"North's hand by its count of placements; $P = {tex_frac(two)} \\approx {dec(two)}$."),
                number("(b) What is P(the ocean's top card is a 10) now? Exact fraction.", top,
                       f"Average $({u} - x)/{ocean}$ over the same weights: ${tex_frac(top)} \\approx {dec(top)}$. It "
                       f"fell from ${u}/{U} \\approx {dec(Fraction(u, U))}$ because some 10s are now known to be in "
                       "North's hand."),
            ])


def q05_3():
    return ("A teacher gives 30 learners a quiz of 10 questions and pools the 300 answers to estimate the fraction "
            "answered right, with a 95% Wilson interval that treats them as 300 independent answers.", [choice(
                "How does that interval compare with one that resamples whole learners (a cluster bootstrap)?",
                "It is too narrow: one learner's answers tend to be right or wrong together.",
                {"It is too wide: answers from one learner pull against each other.":
                     "That happens when answers compete for a fixed total (as in one Go Fish hand); strong and weak "
                     "learners make them go together.",
                 "It is just right: each answer is a yes or a no.": "Yes/no answers can still be dependent.",
                 "No interval is possible from dependent answers.": "Resampling whole learners gives one."},
                "Answers are clustered by learner. When a cluster's answers move together, the Wilson interval "
                "counts 300 pieces of evidence where there are fewer, and is too narrow. (In lesson 5's calibration "
                "the answers about one hand mostly pull against each other, and there it came out too wide: the "
                "direction depends on the dependence, which is why one resamples the clusters.)")])


def q05_m3(seed: int):
    rng = random.Random(seed)
    stated = [Fraction(rng.randrange(20, 40), 100) for _ in range(10)]
    happened = [rng.random() < (float(s) - 0.08 if seed % 2 else float(s) + 0.08) for s in stated]
    mean = sum(stated) / len(stated)
    frac_happened = Fraction(sum(happened), len(happened))
    table = "\n".join(f"- stated {float(s):.2f}: {'there' if h else 'not there'}" for s, h in zip(stated, happened, strict=True))
    over = frac_happened < mean
    return ("Ten answers of a forecaster that fall in the calibration bin from 0.2 to 0.4 (the stated probability "
            "that a card is in a hand, and whether it was):\n\n" + table, [
                number("(a) What is the mean stated probability in this bin? Exact value.", mean,
                       f"The sum of the ten, divided by 10: ${tex_frac(mean)} = {float(mean):.3f}$."),
                number("(b) What fraction of them happened?", frac_happened,
                       f"{sum(happened)} of 10: ${tex_frac(frac_happened)}$."),
                choice("(c) What does this bin, alone, show?",
                       "Nothing firm: ten answers, several maybe from one position, cannot separate the gap from chance.",
                       {"The forecaster over-forecasts: the card was there less often than stated." if over else
                        "The forecaster under-forecasts: the card was there more often than stated.":
                            "That is the direction of the gap, but one bin of ten answers is far too few to call it.",
                        "The forecaster is calibrated: the two numbers are close.": "Close or not, ten answers give an "
                            "interval tens of points wide.",
                        "Nothing: calibration needs answers of exactly 30%.": "Bins group answers near a value; "
                            "exact values are not needed."},
                       "With ten answers the observed fraction has a standard error near 0.15 even if they were "
                       "independent, and answers about one position are not; collect many positions, resample them, "
                       "then read the bin."),
            ])


def q05_m4(forecasts_a: tuple, forecasts_b: tuple, outcomes: tuple, truth: str, said: str):
    fa = [Fraction(x) for x in forecasts_a]
    fb = [Fraction(x) for x in forecasts_b]
    o = list(outcomes)
    brier_a = sum((f - y) ** 2 for f, y in zip(fa, o, strict=True)) / len(o)
    brier_b = sum((f - y) ** 2 for f, y in zip(fb, o, strict=True)) / len(o)
    diffs = [(b - y) ** 2 - (a - y) ** 2 for a, b, y in zip(fa, fb, o, strict=True)]
    agree(sum(diffs) / len(diffs), brier_b - brier_a, "Q05.M4 paired")
    p, q = Fraction(truth), Fraction(said)
    expected = p * (1 - q) ** 2 + (1 - p) * q ** 2
    best = p * (1 - p) ** 2 + (1 - p) * p ** 2
    agree(min(p * (1 - Fraction(k, 100)) ** 2 + (1 - p) * Fraction(k, 100) ** 2 for k in range(101)), best, "proper")
    rows = "\n".join(f"- question {i + 1}: A says {float(a):.1f}, B says {float(b):.1f}; it "
                     f"{'happened' if y else 'did not happen'}" for i, (a, b, y) in enumerate(zip(fa, fb, o, strict=True)))
    return ("Two forecasters answer the same questions:\n\n" + rows, [
        number("(a) What is A's Brier score? Exact value.", brier_a,
               f"The mean of $(p - o)^2$: ${tex_frac(brier_a)} = {float(brier_a):.4f}$. Lower is better."),
        number("(b) What is B's Brier score?", brier_b, f"${tex_frac(brier_b)} = {float(brier_b):.4f}$."),
        number("(c) Paired question by question, what is the mean of (B's squared error minus A's)?", brier_b - brier_a,
               f"The mean of the differences is the difference of the means: ${tex_frac(brier_b - brier_a)}$; with "
               "many questions, resample the questions' positions for an interval on it."),
        number(f"(d) An event has true probability {truth}. What is the expected Brier score of always saying {said}?",
               expected, f"${truth}(1-{said})^2 + (1-{truth})\\,{said}^2 = {tex_frac(expected)}$, more than "
                         f"${tex_frac(best)}$ for saying {truth}: the Brier score is proper, the truth scores best."),
    ])


def q05_6():
    return ("The live posterior reads an ask only as \"the asker holds that rank\".", [short(
        "What more do the asks of a `random` bot and of a `memory` bot reveal, and what does that mean for the "
        "posterior's probabilities against each?",
        "A `random` bot picks uniformly among the ranks it holds, so an ask for a given rank is "
        "likelier when it holds few ranks; `memory` asks for the rank it holds most of (among those it can usefully "
        "ask for), hinting at how many it holds, and asks a known holder. The posterior ignores both, so it is exact "
        "only under its own assumption; against either bot its uncertain answers can drift off the diagonal (a "
        "calibration test shows where), while its certain answers (0 or 1) stay right, since they follow from the "
        "rules alone.")])


ITEMS = [
    Item("Q03.1", "03", (1,), "any unseen place", q03_1,
         tuple((pl, h, r, pl_) for pl, r in ((2, "K"), (5, "J")) for h in (0, 1, 3) for pl_ in PLACES),
         "the number of players, the copies you hold, the place asked about"),
    Item("Q03.2", "03", (1,), "the top card against a card in a hand", q03_2),
    Item("Q03.3", "03", (3,), "a lucky draw, with books out", q03_3,
         tuple((h, b, s, nt) for h in (1, 2) for b in (1, 2, 3) for s in ((4, 6, 3), (6, 3, 4)) for nt in (False, True)),
         "your 9s, the books out, the hand sizes, an earlier \"Go Fish!\""),
    Item("Q03.4", "03", (6,), "where a hand never holds a whole book", q03_4),
    Item("Q03.5", "03", (2,), "the hypergeometric distribution", q03_5,
         tuple((U, u, n, j) for U, n in ((47, 5), (45, 7), (41, 6)) for u in (3, 4) for j in (1, 2)),
         "the unseen cards, the copies, the hand size and the count asked about"),
    Item("Q03.M1", "03", (4, 2), "the hypergeometric mean and variance", q03_m1,
         ((45, 2, 38, "the ocean"), (45, 3, 7, "West's hand"), (47, 3, 32, "the ocean"), (45, 4, 31, "the ocean"),
          (47, 4, 5, "West's hand"), (41, 3, 28, "the ocean"), (45, 2, 7, "West's hand")),
         "the unseen cards, the copies and the place"),
    Item("Q03.M2", "03", (5, 3), "the law of total probability", q03_m2,
         ((47, 2, 5), (47, 3, 5), (45, 3, 7), (41, 2, 4), (41, 3, 6), (37, 2, 6)),
         "the unseen cards, the copies and West's hand size"),
    Item("Q04.M1", "04", (1,), "possible worlds on a small deck", q04_m1,
         ((3, 3, 0), (3, 3, 1), (4, 2, 1), (4, 3, 0), (5, 3, 1), (5, 2, 0)),
         "the deck, the hand size and what you hold"),
    Item("Q04.2", "04", (2,), "Bayes' rule in odds form", q04_2,
         ((2, 4, 1, 4), (3, 5, 1, 2), (2, 3, 2, 3), (3, 4, 1, 3), (2, 5, 3, 4), (4, 5, 1, 2)),
         "the two hypotheses and the prior"),
    Item("Q04.M2", "04", (2,), "\"Go Fish!\" as evidence about another hand", q04_m2,
         tuple((pl, h) for pl in (3, 4) for h in (1, 2, 3)), "the players and the copies you hold"),
    Item("Q04.M3", "04", (3,), "true notes, wrong weights", q04_3,
         ((41, 3, 5, 1), (41, 4, 5, 2), (43, 3, 4, 2), (39, 4, 6, 1), (45, 3, 5, 2), (37, 2, 6, 2)),
         "the unseen cards, the Aces, West's dealt and drawn cards"),
    Item("Q04.M4", "04", (4,), "a Bayes table on a full deck", q04_m3,
         tuple((h, s) for h in (0, 1, 2) for s in (5, 7)), "the copies you hold and the hand size"),
    Item("Q05.M1", "05", (1,), "three models of one ask", q05_m1,
         (("3 3 5", "2 3 5", Fraction(1, 2)), ("3 3 9", "2 3 9", Fraction(1, 3)), ("3 K K", "3 5 K", Fraction(2, 5)),
          ("2 3 3", "3 4 5", Fraction(1, 4)), ("3 3 Q", "A 3 Q", Fraction(1, 2))),
         "the two hands and the prior"),
    Item("Q05.M2", "05", (2,), "the live posterior after an ask", q05_m2,
         tuple((h, n, e) for h in (1, 2) for n, e in ((5, 6), (7, 4), (4, 3))), "your 10s and the hand sizes"),
    Item("Q05.3", "05", (3,), "clustered answers", q05_3),
    Item("Q05.M3", "05", (3,), "one calibration bin, by hand", q05_m3, tuple((s,) for s in range(12)),
         "the ten answers"),
    Item("Q05.M4", "05", (4,), "Brier scores, paired", q05_m4,
         ((("0.8", "0.3", "0.5", "0.6"), ("0.6", "0.5", "0.5", "0.9"), (1, 0, 1, 1), "0.3", "0.5"),
          (("0.9", "0.2", "0.4", "0.7"), ("0.7", "0.4", "0.5", "0.5"), (1, 0, 0, 1), "0.2", "0.4"),
          (("0.6", "0.1", "0.8", "0.3"), ("0.5", "0.3", "0.9", "0.5"), (0, 0, 1, 1), "0.4", "0.6"),
          (("0.7", "0.4", "0.2", "0.9"), ("0.9", "0.5", "0.1", "0.6"), (1, 1, 0, 1), "0.6", "0.8")),
         "the forecasts and outcomes, the true probability"),
    Item("Q05.6", "05", (1,), "what an ask reveals", q05_6),
]
