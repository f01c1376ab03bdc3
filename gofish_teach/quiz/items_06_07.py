"""Quiz items for lessons 06 (testing a strategy) and 07 (variants and game length)."""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import ceil, comb, sqrt

from scipy import stats as sps

from ..probability import Facts
from ..rules import Rules
from ..stats import ShareRow, verdict, wilson_interval, win_share
from .common import dec, hands_of_shape, shapes, tex_frac, words
from .model import Item, agree, choice, number, short

Z_SUM = Fraction(28, 10)  # z_0.975 + z_0.80, rounded to 1.96 + 0.84 as the lesson's formula does

# ---------------------------------------------------------------------------------- lesson 06


def q06_m1(outright: int, two: int, three: int, lost: int):
    games = outright + two + three + lost
    wins = outright + Fraction(two, 2) + Fraction(three, 3)
    share = wins / games
    low, high = wilson_interval(float(wins), games)
    tied = two + three
    row = ShareRow(0, "memory", float(wins), games, float(share), low, high)
    v = verdict(row, 1 / 4, ties=tied)
    exact = tied == 0
    agree(v.method.startswith("exact"), exact, "Q06.M1 (c)")
    test_right = ("The exact binomial test: every game was a plain win or loss." if exact else
                  "A conservative score test: with ties the wins are not a binomial count.")
    test_wrong = {"The exact binomial test: every game was a plain win or loss.":
                      "Some games were tied: a share of 1/2 or 1/3 is not a win or a loss, even when the shares add "
                      "up to whole wins.",
                  "A conservative score test: with ties the wins are not a binomial count.":
                      "No game was tied, so the wins are a binomial count and the exact test applies.",
                  "A paired t-test on the games.": "A paired test compares two strategies on common decks, not one "
                                                   "share with a fixed fair value.",
                  "No test: the tied games must be dropped first.": "Dropping ties throws away games and biases the "
                                                                     "share; they count 1/k."}
    test_wrong.pop(test_right)
    shared = [f"{words(k)} win{'s' if k != 1 else ''} with {whom}"
              for k, whom in ((two, "one other player"), (three, "two others")) if k]
    return (f"Over {games} games of four players (fair share 1/4), `memory` wins {outright} outright, "
            f"{'shares ' + ' and '.join(shared) if shared else 'shares no win'}, and loses {lost}.", [
                number("(a) What is its win share (a win shared by $k$ players counts $1/k$)? Exact fraction.", share,
                       f"$({outright} + {two}/2 + {three}/3)/{games} = {tex_frac(share)} \\approx {dec(share)}$."),
                number("(b) What is the upper end of its 95% Wilson interval? (3 decimal places)", high,
                       f"`wilson_interval({float(wins):g}, {games})` gives [{low:.3f}, {high:.3f}] (conservative with "
                       "ties).", decimals=3, tolerance=Fraction(2, 1000)),
                choice("(c) To test \"more than its fair share\", which test can be named honestly?", test_right,
                       test_wrong, f"{'No' if exact else words(tied).capitalize()} game{'s were' if tied != 1 else ' was'}"
                       f" tied; `verdict(row, 1/4, ties={tied})` names it: {v.method}."),
            ])


def _binomial_two_sided(k: int, n: int) -> Fraction:
    pmf = [Fraction(comb(n, j), 2 ** n) for j in range(n + 1)]
    return sum(p for p in pmf if p <= pmf[k])


def q06_2(wins: int, games: int):
    p = _binomial_two_sided(wins, games)
    agree(float(p), float(sps.binomtest(wins, games, 0.5).pvalue), "Q06.M5 scipy")
    row = ShareRow(0, "x", float(wins), games, wins / games, *wilson_interval(wins, games))
    v = verdict(row, 1 / 2, ties=0)
    more = f"At the 5% level it wins more than half its games against `random`; the interval [{row.low:.2f}, " \
           f"{row.high:.2f}] says how roughly the share is known."
    less = more.replace("more than half", "less than half")
    none = "No difference from a fair share detected at the 5% level; that does not show there is none."
    few = "No verdict either way: an exact binomial test needs at least 30 games."
    equal = "The strategy plays exactly as well as `random`: it wins half its games in the long run."
    rejected = p < Fraction(1, 20)
    right = (more if 2 * wins > games else less) if rejected else none
    agree(v.text, {more: "more than its fair share", less: "less than its fair share",
                   none: "not distinguishable from its fair share"}[right], "Q06.M5 verdict")
    wrong = {few: "An exact test is valid at any number of games: few games show as a larger p-value (and a wider "
                  "interval), not as an invalid test.",
             equal: ("The exact test rejects a fair share at 5%." if rejected else
                     "A test that finds nothing does not show equality: absence of evidence is not evidence of "
                     "absence.")}
    if rejected:
        wrong[none] = f"p = {dec(p)} is below 0.05: at that level the test does detect a difference."
    else:
        wrong[more if 2 * wins > games else less] = f"p = {dec(p)} is not below 0.05: no difference is detected."
    return (f"In a two-player game with no ties (13 books, all made), a new strategy wins {wins} of {games} games "
            "against `random`. This is the only test you run on it.", [
                number("(a) What is the exact two-sided binomial p-value against a fair share of 1/2? Exact fraction.",
                       p, f"Add the probabilities of every count at most as likely as {wins} under Binomial({games}, "
                          f"1/2): ${tex_frac(p)} \\approx {dec(p)}$ (`scipy.stats.binomtest`)."),
                choice("(b) What should the report say, testing at the 5% level?", right, wrong,
                       f"p = {dec(p)} is {'below' if rejected else 'not below'} 0.05, and the exact test is valid "
                       f"however few the games: `verdict` says \"{v.text}\". Few games show in the p-value and the "
                       "width of the interval."),
            ])


def q06_m2(sigma: str, games: int, half: str):
    s, h = float(sigma), float(half)
    se = s / sqrt(games)
    width = 1.96 * se
    needed = ceil((Fraction(196, 100) * Fraction(sigma) / Fraction(half)) ** 2)
    agree(needed, ceil((1.96 * s / h) ** 2 - 1e-9), "Q06.M2 (c)")
    return (f"One game's contribution to a strategy's win share has standard deviation $\\sigma = {sigma}$. A "
            "running average of the share is drawn with a funnel $\\pm 1.96\\,\\sigma/\\sqrt{n}$ around an "
            "independent estimate.", [
                number(f"(a) What is the standard error of the share after {games:,} games? (4 decimal places)", se,
                       f"$\\sigma/\\sqrt{{n}} = {sigma}/\\sqrt{{{games}}} \\approx {se:.4f}$."),
                number(f"(b) What is the funnel's half-width at $n = {games:,}$? (4 decimal places)", width,
                       f"$1.96 \\times {se:.4f} \\approx {width:.4f}$."),
                number(f"(c) How many games make the half-width at most {half}?", needed,
                       f"$n \\ge (1.96\\,\\sigma/{half})^2 = {(1.96 * s / h) ** 2:.1f}$: {needed:,} games. Halving "
                       "the width takes four times the games."),
                choice("(d) What does the funnel promise?",
                       "At each fixed $n$, the running average falls inside it about 95% of the time.",
                       {"The whole path stays inside it with probability 95%.":
                            "A path has many chances to step out; a pointwise band does not cover the whole path.",
                        "95% of single games fall inside it.": "It is about the average of $n$ games, not single games.",
                        "At the last $n$, the true share is inside with probability 95%.":
                            "The band is centred on an estimate; it describes where the average falls."},
                       "It is pointwise: one $n$ at a time (a little less than 95% at large $n$, since its centre is "
                       "itself an estimate)."),
            ])


def q06_m3(tests: int, level: str):
    a = Fraction(level)
    expected = tests * a
    at_least_one = 1 - (1 - a) ** tests
    agree(float(at_least_one), float(sps.binom(tests, float(a)).sf(0)), "Q06.M3 (b)")
    bonferroni = a / tests
    return (f"{words(tests).capitalize() if tests < 9 else tests} strategies, none with any edge, are each tested at "
            f"level {level}, on independent runs.", [
                number("(a) What is the expected number of \"significant\" results? Exact value.", expected,
                       f"${tests} \\times {level} = {tex_frac(expected)}$."),
                number("(b) What is the probability of at least one? (4 decimal places)", float(at_least_one),
                       f"$1 - (1 - {level})^{{{tests}}} \\approx {dec(at_least_one)}$."),  # a decimal key: the fraction has 24 digits
                number("(c) At what level should each be tested (Bonferroni) so that all of them together raise a "
                       f"false alarm at most {level} of the time? Exact value.", bonferroni,
                       f"${level}/{tests} = {tex_frac(bonferroni)}$.", decimals=5, tolerance=Fraction(1, 100_000)),
            ])


def q06_m4(share: str, rho: str, delta: str, sd_d: str):
    p, r, d = Fraction(share), Fraction(rho), Fraction(delta)
    from_sd = ceil((Z_SUM * Fraction(sd_d) / d) ** 2)
    unpaired = ceil(Z_SUM ** 2 * 2 * p * (1 - p) / d ** 2)
    paired = ceil(Z_SUM ** 2 * 2 * p * (1 - p) * (1 - r) / d ** 2)
    agree(paired, ceil(float(Z_SUM) ** 2 * 2 * float(p * (1 - p)) * float(1 - r) / float(d) ** 2 - 1e-9), "Q06.M4")
    return (f"Two strategies each win about {share} of their games. You want to detect a difference of {delta} "
            "between them at the 5% level with 80% power. Use $n = ((1.96 + 0.84)\\,\\sigma/\\delta)^2$, rounded "
            f"up. Pilot runs on common decks show their results have correlation $\\rho = {rho}$.", [
                number("(a) How many games does each strategy need on different decks, $\\sigma^2 = 2p(1-p)$?", unpaired,
                       f"$2.8^2 \\times 2 \\cdot {share}(1-{share})/{delta}^2$, rounded up: {unpaired:,}."),
                number("(b) And on the same decks, $\\sigma^2 = 2p(1-p)(1-\\rho)$?", paired,
                       f"(a) times $1 - \\rho = {tex_frac(1 - r)}$, rounded up: {paired:,}."),
                number(f"(c) A pilot of paired games instead measures the standard deviation of the per-game "
                       f"difference directly: {sd_d}. How many paired games does the formula give, with that "
                       "sd as $\\sigma$?", from_sd,
                       f"$(2.8 \\times {sd_d}/{delta})^2$, rounded up: {from_sd:,}. Measuring the difference's own sd "
                       "needs no assumption about $p$ or $\\rho$; $\\rho$ belongs to the pair of strategies, not to "
                       "the game."),
            ])


def q06_5(share: str, delta: str):
    p, d = Fraction(share), Fraction(delta)
    n = ceil(Z_SUM ** 2 * p * (1 - p) / d ** 2)
    exact_z = sps.norm.ppf(0.975) + sps.norm.ppf(0.80)
    agree(n, ceil(2.8 ** 2 * float(p * (1 - p)) / float(d) ** 2 - 1e-9), "Q06.5")
    with_scipy = ceil((exact_z ** 2) * float(p * (1 - p)) / float(d) ** 2)
    return (f"A strategy would win {share} of four-player games if it had an edge of {delta} over the fair 1/4 "
            f"(so $\\sigma = \\sqrt{{p(1-p)}}$ with $p = {share}$).", [number(
                "How many games does a two-sided test at the 5% level need to detect that edge 80% of the time? Use "
                "$z_{0.975} = 1.96$ and $z_{0.80} = 0.84$, and round up.", n,
                f"$n = (2.8)^2 \\cdot {share}(1 - {share})/{delta}^2 = "
                f"{float(Z_SUM ** 2 * p * (1 - p) / d ** 2):.2f}$, rounded up: {n:,}. (With the unrounded quantiles "
                f"from `scipy.stats.norm.ppf` it is {with_scipy:,}: either is right if stated.)")])


def q06_6():
    return ("West said \"Go Fish!\" to an ask for 7s. A `random` bot never makes an ask the public record proves "
            "must fail: a *dead* ask.", [choice(
                "Which of these, had it happened to West since, would make an ask of West for 7s live again?",
                "West drew a card from the ocean.",
                {"West was given a Queen by North.": "A card of another rank cannot be a 7: the ask is still dead.",
                 "West gave away all its Kings.": "Losing cards cannot bring a 7 into West's hand.",
                 "A full round of asks went by.": "Time alone changes nothing; only a draw or a 7 received can."},
                "The ask is dead while West has drawn no card and been given no 7 since the \"Go Fish!\". Any draw "
                "(fishing, lucky or not, the empty-hand rule) could bring a 7; a card of another rank could not.")])


def q06_7():
    return ("In lesson 6, `memory` knew an opponent holding one of its ranks at 43% of its decisions under `pond` "
            "(4 players) and 18% under `family` (2 players).", [short(
                "Who makes the other decisions, and why can a change there move the win share as much as "
                "`memory`'s clever part?",
                "Its fallback (`most_held`) makes the rest, most of the decisions; one different "
                "decision changes the rest of the game, so a poor fallback drags the whole strategy down (with a "
                "random fallback `memory` did far better under 2-player `family`, paired interval well away from "
                "0) in one setting and not in another. Small rules count too: the dead-ask rule moved `memory`'s "
                "own share by about 12 points.")])


def q06_8(counts: tuple):
    result = sps.chisquare(counts)
    p = float(result.pvalue)
    n = sum(counts)
    if p < 0.05:
        right = "Evidence of a preference at the 5% level: the counts are too uneven for chance."
    else:
        right = "No clear evidence either way: counts this uneven are ordinary chance for a test this size."
    options = {"Evidence of a preference at the 5% level: the counts are too uneven for chance.":
                   f"p = {p:.2f} is not below 0.05.",
               "No clear evidence either way: counts this uneven are ordinary chance for a test this size.":
                   f"p = {p:.2g} is below 0.05: chance rarely gives counts this uneven.",
               "There is no preference: the test found none.":
                   "A test that finds nothing has not shown there is nothing: absence of evidence is not evidence "
                   "of absence, above all when the test has little power.",
               "The seat asked most is asked more often with probability 95%.":
                   "A test gives no probability that a hypothesis is true."}
    wrong = {t: w for t, w in options.items() if t != right}
    return (f"A bot's {n} informed asks went to seats 1, 2 and 3 in counts {counts[0]}, {counts[1]} and {counts[2]}. A "
            f"chi-square test of equal shares gives p = {p:.2g}.", [choice(
                "What follows?", right, wrong,
                f"p = {p:.2g}. " + ("Below 0.05: a real preference is the likelier explanation, though its size needs "
                                    "an interval." if p < 0.05 else
                                    "Not below 0.05: the data fit no preference and a moderate one alike. Report an "
                                    "interval for the share and the test's power, not \"no preference\"."))])


# ---------------------------------------------------------------------------------- lesson 07


def q07_m1(mean: str, sd: str, games: int, target: str):
    m, s, e = float(mean), float(sd), Fraction(target)
    se = s / sqrt(games)
    needed = ceil((Fraction(sd) / e) ** 2)
    return (f"{games:,} simulated games have mean length {mean} asks and standard deviation {sd} asks.", [
        number("(a) What is the standard error of the mean length? (3 decimal places)", se,
               f"$\\text{{sd}}/\\sqrt{{n}} = {sd}/\\sqrt{{{games}}} \\approx {se:.3f}$.", decimals=3,
               tolerance=Fraction(1, 1000)),
        number("(b) What is the lower end of a 95% interval for the expected length? (2 decimal places)",
               m - 1.96 * se, f"${mean} - 1.96 \\times {se:.3f} \\approx {m - 1.96 * se:.2f}$.", decimals=2,
               tolerance=Fraction(2, 100)),
        number("(c) Single games typically lie about one standard deviation from the mean. Were game lengths "
               "roughly normal, about 95% of games would lie within 1.96 standard deviations of it: how many asks "
               "is that? (1 decimal place)", 1.96 * s,
               f"$1.96 \\times {sd} \\approx {1.96 * s:.1f}$: single games spread over many asks (typically about "
               f"{sd}, one sd), though the mean is pinned to a fraction of one.", decimals=1,
               tolerance=Fraction(1, 10)),
        number(f"(d) How many games make the standard error at most {target} asks?", needed,
               f"$n \\ge (\\text{{sd}}/{target})^2 = {float((Fraction(sd) / e) ** 2):.1f}$: {needed:,}. The sd "
               "does not shrink with more games; the standard error does."),
    ])


def _first_ask(n_ranks: int, k: int) -> Fraction:
    unseen = 4 * n_ranks - k

    def q(c):
        return 1 - Fraction(comb(unseen - (4 - c), k), comb(unseen, k))

    total = comb(4 * n_ranks, k)
    agree(sum(hands_of_shape(s, n_ranks) for s in shapes(k)), total, "hands counted")
    p = Fraction(0)
    for shape in shapes(k):
        held = [c for c in shape if c < 4]
        if not held:
            raise ValueError("a hand of books only cannot ask")
        p += Fraction(hands_of_shape(shape, n_ranks), total) * sum(q(c) for c in held) / len(held)
    return p


def q07_2(n_ranks: int, k: int):
    p = _first_ask(n_ranks, k)
    rank = "2"
    facts = Facts(hand=" ".join([rank] + ["A", "3", "4", "5", "6", "7", "8"][:k - 1]), hand_sizes={1: k},
                  n_ranks=n_ranks, books_laid=False)
    agree(facts.p_holds(1, rank), 1 - Fraction(comb(4 * n_ranks - k - 3, k), comb(4 * n_ranks - k, k)), "Q07.2 q(1)")
    return (f"A deck of the first {n_ranks} ranks ({4 * n_ranks} cards); each player is dealt {k} cards; a dealt "
            "book is laid down at once. Right after the deal, seat 0 plays as a `random` bot: it picks one of the "
            "ranks it holds uniformly, and asks an opponent for it.", [number(
                "What is the exact probability that this first ask succeeds? (Ignore that the opponent might have been "
                "dealt a book.)", p,
                f"If it holds $c$ of the rank, the opponent's {k} cards come from the {4 * n_ranks - k} it cannot see, "
                f"$4 - c$ of them that rank: $q(c) = 1 - \\binom{{{4 * n_ranks - k - 4} + c}}{{{k}}}/"
                f"\\binom{{{4 * n_ranks - k}}}{{{k}}}$. Average $q$ over the ranks held, then over the hand's shape "
                f"(weighted by how many hands have it): ${tex_frac(p)} \\approx {dec(p, 5)}$.", decimals=5,
                tolerance=Fraction(1, 100_000))])


#: Settings the lesson does not discuss (it settles 13-rank pond, bicycle, family and classic, Pairs
#: Go Fish with 13 ranks, and three players): the same arguments, on other decks.
TIE_SETTINGS = {
    ("pond", 2, 9, 4): "impossible", ("family", 2, 11, 4): "impossible", ("bicycle", 2, 7, 4): "impossible",
    ("pond", 2, 10, 4): "even", ("family", 2, 8, 4): "even", ("bicycle", 2, 12, 4): "even",
    ("classic", 2, 9, 4): "unmade", ("pond", 2, 7, 2): "even", ("pond", 3, 9, 4): "three",
}


@lru_cache(maxsize=None)
def _ties_seen(preset: str, players: int, n_ranks: int, book: int) -> int:
    from ..simulate import simulate

    rules = Rules.preset(preset).replace(n_ranks=n_ranks, book_size=book)
    res = simulate(["random"] * players, rules, games=400, seed=3, progress=False, workers=1)
    return int((res.winners.sum(axis=1) > 1).sum())


def q07_3(preset: str, players: int, n_ranks: int, book: int):
    kind = TIE_SETTINGS[preset, players, n_ranks, book]
    seen = _ties_seen(preset, players, n_ranks, book)
    if (kind == "impossible") != (seen == 0):
        raise AssertionError(f"Q07.3: {kind}, yet {seen} ties in 400 games")
    total = n_ranks * 4 // book
    top = (total - 1) // 2  # three players: top, top and the rest, a tie for the most (4, 4, 1 of 9)
    texts = {"impossible": "Impossible: the books always add up to an odd number.",
             "unmade": "Possible: the game can end with books unmade.",
             "even": "Possible: the number of books is even."}
    if players == 3:
        texts["three"] = "Possible: with three players two scores can be equal and highest."
    else:  # a two-player item names two players only
        texts["last"] = "Impossible: whoever makes the last book wins any tie."
    why = {"impossible": f"Here all {total} books are always made" + (" (when one hand and the ocean are empty, the "
                                                                      "other hand holds every unbooked card)"
                                                                      if preset == "family" else "")
                         + f", and {total} is odd: two equal scores would add up to an even number.",
           "unmade": "The game stops when the pack is used up, books or no books; fewer books can split evenly.",
           "even": f"All {total} books are made, but {total} is even: {total // 2} each is a tie.",
           "three": f"Parity rules out only two equal scores adding up to the total; with three players, e.g. {top}, "
                    f"{top}, {total - 2 * top}."}
    # Why each wrong choice is wrong in this setting: one reason per choice, not one for all.
    against = {"impossible": {"even": f"{total} is even, not odd: {total // 2} books each is a tie.",
                              "unmade": "The books add up to the deck's total only when all are made; here the game "
                                        "can stop with fewer, and those can split evenly.",
                              "three": f"Parity rules out a tie between two players only; three can tie, e.g. "
                                       f"{top}, {top}, {total - 2 * top}."}.get(kind, ""),
               "unmade": f"Under `{preset}` rules every book is made by the time the game ends: none is left "
                         "unmade.",
               "even": f"Here there are {total} books, an odd number.",
               "three": "",
               "last": "No rule breaks a tie: players tied for the most books share the win."}
    variant = " with Pairs Go Fish (`book_size=2`)" if book == 2 else ""
    deck = f", a deck of the first {n_ranks} ranks" if n_ranks != 13 else ""
    wrong = {t: against[k] for k, t in texts.items() if k != kind}
    return (f"{words(players).capitalize()} players under `{preset}` rules{variant}{deck}.", [choice(
        "Can a game end in a tie for the most books?", texts[kind], wrong,
        why[kind] + f" (In 400 simulated games: {seen} ties.)")])


def q07_m2(m1: str, se1: str, m2: str, se2: str):
    a, b, sa, sb = float(m1), float(m2), float(se1), float(se2)
    z = (a - b) / sqrt(sa ** 2 + sb ** 2)
    p = 2 * sps.norm.sf(abs(z))
    overlap = abs(a - b) <= 1.96 * (sa + sb)
    significant = p < 0.05
    texts = {(True, True): "The intervals overlap, yet the difference is significant at the 5% level.",
             (False, True): "The intervals do not overlap: the difference is significant, beyond the 5% level.",
             (True, False): "The intervals overlap and the difference is not significant at 5%.",
             None: "Overlapping intervals prove the means are equal."}
    right = texts[overlap, significant]
    gap, reach, test_reach = abs(a - b), 1.96 * (sa + sb), 1.96 * sqrt(sa ** 2 + sb ** 2)

    def why_not(key):
        """Why the statement ``texts[key]`` is wrong here: the overlap, the test, or what overlap can show."""
        if key is None:
            return "Overlap never proves equality; absence of evidence is not evidence of absence."
        reasons = []
        if key[0] != overlap:
            reasons.append(f"the intervals {'do' if overlap else 'do not'} overlap: the gap {gap:.2f} is "
                           f"{'within' if overlap else 'beyond'} $1.96(se_1 + se_2) = {reach:.2f}$")
        if key[1] != significant:
            reasons.append(f"the test compares the gap {gap:.2f} with $1.96\\sqrt{{se_1^2 + se_2^2}} = "
                           f"{test_reach:.2f}$: the difference is {'' if significant else 'not '}significant at 5% "
                           f"(p = {p:.3f})")
        text = "; and ".join(reasons)
        return text[0].upper() + text[1:] + "."
    wrong = {t: why_not(key) for key, t in texts.items() if t != right}
    return (f"Two presets' mean game lengths: {m1} asks (standard error {se1}) and {m2} asks (standard error {se2}), "
            "from independent runs.", [
                number("(a) How many standard errors of the difference apart are the two means? (2 decimal places)",
                       abs(z), f"$|{m1} - {m2}|/\\sqrt{{{se1}^2 + {se2}^2}} \\approx {abs(z):.2f}$.", decimals=2,
                       tolerance=Fraction(2, 100)),
                number("(b) What is the two-sided p-value of the difference? (3 decimal places)", p,
                       f"$2(1 - \\Phi({abs(z):.2f})) \\approx {p:.3f}$.", decimals=3, tolerance=Fraction(2, 1000)),
                choice("(c) Which statement is right?", right, wrong,
                       f"The 95% intervals {'overlap' if overlap else 'do not overlap'} (gap "
                       f"{abs(a - b):.2f} against $1.96(se_1 + se_2) = {1.96 * (sa + sb):.2f}$); the test of the "
                       f"difference gives p = {p:.3f}. Non-overlap is a stricter test than 5%; overlap does not show "
                       "equality."),
            ])


def q07_4():
    return ("In lesson 7's table of variants (`pond`, four random players), the teams rows show games of 63.5 asks "
            "on average against 63.9 for plain `pond`, and seat 0 winning 0.248 against 0.265.", [short(
                "Why can these differences not be put down to partnership alone?",
                "Almost every teams game ends in a stalemate, not with all 13 books (in the lesson's "
                "10,000 games one made all 13; about 6.9 books are made on average): once the ocean is empty and no "
                "rank is held by two opponents, no ask can succeed and the engine stops the game. So the teams rows "
                "describe a game with a different end, and a difference from `pond` mixes the effect of partners "
                "with the effect of that end. (A good answer adds that the intervals must also be read before "
                "calling any difference real.)")])


@lru_cache(maxsize=None)
def _seat0(preset: str, players: int, games: int, seed: int):
    from ..simulate import simulate

    res = simulate(["random"] * players, preset, games=games, seed=seed, progress=False, workers=1)
    return win_share(res, by="seat").rows[0]


def q07_5(preset: str, players: int, games: int, seed: int):
    row = _seat0(preset, players, games, seed)
    fair = Fraction(1, players)
    above = row.low > fair
    texts = {"above": f"Under these rules seat 0 wins more than its fair share 1/{players}: the interval lies above it.",
             "cannot": f"These games cannot tell seat 0's share from the fair 1/{players}.",
             "none": "Seat 0 has no advantage: the estimate is close to the fair share.",
             "always": "Seat 0 wins every game it should: moving first decides the game."}
    right = texts["above"] if above else texts["cannot"]
    wrong = {t: ("The whole interval lies above the fair share." if t == texts["cannot"] else
                 "The interval reaches the fair share." if t == texts["above"] else
                 "Close is not the same as equal; read the interval." if t == texts["none"] else
                 "A share near the fair one is far from every game.") for t in texts.values() if t != right}
    return (f"{games:,} games of {words(players)} `random` players under `{preset}` rules, the lineup rotating: by "
            f"seat, seat 0 wins a share {row.share:.3f}, with 95% interval [{row.low:.3f}, {row.high:.3f}].", [choice(
                "What do these numbers justify?", right, wrong,
                f"The fair share is 1/{players} = {1 / players:.3f}; the interval "
                f"{'lies above it' if above else 'contains it'}. Moving first is an advantage only as large as the "
                "interval allows, and only under these rules and opponents.")])


ITEMS = [
    Item("Q06.M1", "06", (1,), "a win share with ties, and which test", q06_m1,
         ((30, 8, 4, 18), (24, 0, 0, 36), (27, 6, 3, 24), (35, 0, 0, 25), (20, 10, 6, 24), (33, 4, 0, 23)),
         "the games won, shared two and three ways, and lost"),
    Item("Q06.M5", "06", (1,), "an exact binomial test on a few games", q06_2,
         ((8, 9), (9, 10), (10, 12), (12, 15), (1, 9), (2, 11), (11, 13), (7, 9)), "the wins and the games"),
    Item("Q06.M2", "06", (2,), "the law of large numbers and the funnel", q06_m2,
         tuple((s, n, h) for s in ("0.44", "0.40", "0.48") for n, h in ((400, "0.02"), (2500, "0.01"), (10000, "0.005"))),
         "the sd of one game, the number of games, the half-width wanted"),
    Item("Q06.M3", "06", (3,), "many verdicts at once", q06_m3,
         ((7, "0.05"), (10, "0.05"), (12, "0.01"), (20, "0.05"), (5, "0.1"), (40, "0.01")),
         "the number of tests and their level"),
    Item("Q06.M4", "06", (4,), "how much pairing saves", q06_m4,
         (("0.5", "0.6", "0.02", "0.45"), ("0.26", "0.19", "0.02", "0.55"), ("0.4", "0.8", "0.03", "0.31"),
          ("0.3", "0.05", "0.02", "0.63"), ("0.5", "0.35", "0.01", "0.57")),
         "the share, the correlation, the difference and the pilot's sd"),
    Item("Q06.5", "06", (5,), "how many games an experiment needs", q06_5,
         (("0.27", "0.02"), ("0.28", "0.03"), ("0.26", "0.01"), ("0.3", "0.05"), ("0.29", "0.04")),
         "the share and the edge"),
    Item("Q06.6", "06", (6,), "when a dead ask comes back to life", q06_6),
    Item("Q06.7", "06", (6,), "why the fallback matters", q06_7),
    Item("Q06.8", "06", (1,), "a test that finds nothing", q06_8,
         tuple((c,) for c in ((160, 150, 181), (120, 165, 180), (40, 52, 58), (200, 210, 260), (75, 70, 85),
                              (30, 48, 52))),
         "the counts (the test may or may not find a preference)"),
    Item("Q07.M1", "07", (1, 2), "spread of games, precision of the mean", q07_m1,
         (("63.9", "4.4", 10_000, "0.02"), ("48.4", "3.4", 2_000, "0.05"), ("59.9", "4.9", 500, "0.1"),
          ("72.7", "5.1", 5_000, "0.05"), ("51.0", "4.4", 1_000, "0.1")), "the mean, sd and number of games"),
    Item("Q07.2", "07", (4,), "the first ask, exactly", q07_2, ((13, 3), (13, 6), (10, 5), (8, 5), (10, 6), (8, 6)),
         "the deck and the hand size"),
    Item("Q07.3", "07", (4,), "when a tie is impossible", q07_3, tuple(TIE_SETTINGS), "the rules, players and deck"),
    Item("Q07.M2", "07", (5,), "two intervals, one difference", q07_m2,
         (("63.9", "0.04", "63.8", "0.05"), ("59.9", "0.05", "60.2", "0.06"), ("51.0", "0.05", "51.1", "0.05"),
          ("30.9", "0.03", "31.1", "0.04"), ("55.70", "0.05", "55.53", "0.05"), ("60.00", "0.06", "59.80", "0.06")),
         "the two means and their standard errors"),
    Item("Q07.4", "07", (3,), "what the teams rows describe", q07_4),
    Item("Q07.5", "07", (3,), "the first-seat advantage", q07_5,
         (("pond", 4, 4000, 1), ("classic", 4, 4000, 2), ("family", 4, 4000, 3), ("pond", 3, 3000, 4),
          ("bicycle", 5, 3000, 5), ("pond", 6, 3000, 6)), "the rules, players and games"),
]
