"""Quiz items for lessons 00 (welcome), 01 (play and the rules) and 02 (counting the deal)."""
from __future__ import annotations

from fractions import Fraction
from math import ceil, comb, sqrt

import numpy as np

from ..cards import ALL_RANKS
from ..game import Game
from ..probability import Facts
from ..rules import Rules
from ..stats import wilson_interval
from ..strategies import greedy
from ..strategies import random as random_strategy
from .common import dec, deck_dealing, hands_of_shape, poly_count, ranks_word, shapes, tex_frac, words
from .model import Item, agree, choice, number, short

# ---------------------------------------------------------------------------------- lesson 00


def _seen_hand(rank: str, held: int, size: int) -> str:
    """A hand of ``size`` ranks with ``held`` of ``rank`` and single cards of other ranks."""
    others = [r for r in ALL_RANKS if r != rank][:size - held]
    return " ".join([rank] * held + others)


def q00_1(players: int, held: int, rank: str):
    rules = Rules.preset("family" if players <= 3 else "pond")
    k = rules.deal_size(players)
    unseen, copies = 52 - k, 4 - held
    p = 1 - Fraction(comb(unseen - copies, k), comb(unseen, k))
    facts = Facts(hand=_seen_hand(rank, held, k), hand_sizes={1: k}, books_laid=False)  # the other hands: in "the rest"
    agree(facts.p_holds(1, rank), p, "Q00.1")
    stem = (f"{words(players).capitalize()} players, `{rules.name}` rules: each is dealt {k} cards. Right after "
            f"the deal you hold {'none' if held == 0 else words(held)} of the {ranks_word(rank)}. West holds {k} "
            f"of the {unseen} cards "
            "you cannot see.")
    explain = (f"{copies} {ranks_word(rank)} are among the {unseen} unseen cards; West's {k} cards miss all of "
               f"them in $\\binom{{{unseen - copies}}}{{{k}}}$ of the $\\binom{{{unseen}}}{{{k}}}$ equally likely "
               f"hands, so $P = 1 - \\binom{{{unseen - copies}}}{{{k}}}/\\binom{{{unseen}}}{{{k}}} = {tex_frac(p)} "
               f"\\approx {dec(p)}$. (Usual slip: $k \\cdot {copies}/{unseen}$, the expected number, which "
               "counts hands with two of the rank twice.)")
    return stem, [number(f"What is the exact probability that West holds at least one of the "
                         f"{ranks_word(rank)}?", p, explain)]


def q00_2(games: int, wins: int):
    low, high = wilson_interval(wins, games)
    from scipy.stats import binomtest

    ci = binomtest(wins, games).proportion_ci(method="wilson")
    agree(round(low, 9), round(float(ci.low), 9), "Q00.2 low")
    share = wins / games
    stem = (f"A learner's strategy plays three `random` players under `pond` rules (fair share 1/4). Over "
            f"{games:,} games it wins {wins:,}, a share of {share:.3f}, with a 95% Wilson interval "
            f"[{low:.3f}, {high:.3f}]. (Suppose no game was tied.)")
    above, below = "It wins more than its fair share, against these opponents under these rules.", \
        "It wins less than its fair share, against these opponents under these rules."
    cannot = "These games cannot tell it from a strategy with no edge."
    same = "It is exactly as good as a strategy with no edge."
    if low > 0.25:
        right, why = above, "The whole interval lies above 1/4."
    elif high < 0.25:
        right, why = below, "The whole interval lies below 1/4."
    else:
        right, why = cannot, "The interval contains 1/4: the data fit an edge either way, or none."
    why_not = {above: "That needs the whole interval above 1/4.", below: "That needs the whole interval below 1/4.",
               cannot: "The interval leaves 1/4 out, so the data do tell.",
               same: "No experiment shows an edge of exactly zero: an interval that contains 1/4 contains small "
                     "edges too. Absence of evidence is not evidence of absence."}
    wrong = {text: why for text, why in why_not.items() if text != right}
    return stem, [choice("Which conclusion do these numbers justify?", right, wrong,
                         why + " And it says nothing about other opponents or other rules.")]


def q00_3():
    stem = ("Four entries play under `pond` rules: `memory`, `random`, `memory`, `random` (entries 0 to 3, "
            "in that order around the table). The lineup rotates one seat from game to game, so every entry "
            "sits in every seat equally often.")
    return stem, [choice(
        "Which entries must come out with equal win shares, up to chance?",
        "Entries 1 and 3 (the two `random` ones), and entries 0 and 2 (the two `memory` ones).",
        {"None: each entry keeps its own place around the table.":
             "Turning the table by two seats maps entry 0 onto 2 and 1 onto 3 with the same neighbours: those "
             "pairs are exchangeable.",
         "All four: the rotation gives every entry every seat.":
             "Rotation equalises the seats, not the strategies: `memory` and `random` differ.",
         "Only entries 0 and 2: the two `random` entries sit next to different players.":
             "Each `random` entry sits just after one `memory` and just before the other: the same place."},
        "Turning the table by two seats maps the lineup onto itself (entry 0 to 2, 1 to 3), with the same "
        "neighbours on each side: the two `memory` entries are exchangeable, and so are the two `random` ones. "
        "In a `memory, random, random, random` lineup no such turn exists, which is why lesson 0's three random "
        "entries differ.")]


def q00_4():
    stem = ("A classmate writes a bot for seat 0 that, before each ask, reads `game.hand(1)`, `game.hand(2)` and "
            "`game.hand(3)`, and asks whoever holds the most cards of one of its ranks.")
    return stem, [short(
        "What is wrong with this bot, and what may a strategy read instead? Why does the kit's probability code "
        "read the same thing?",
        "It cheats: it reads hidden cards, the other players' hands. A strategy may read only its own view: its "
        "own hand, every public event (asks, answers, books, lucky draws shown to all, hand sizes) and the cards it "
        "drew itself; that is what the kit hands a strategy, never the game. The probability code reads the view "
        "too, because a probability is conditional on what that player knows: the same question (\"does West hold "
        "a Queen?\") has different answers for different players, and 0 or 1 for someone who can see the cards.")]


def q00_m1(samples: int, p, z: float):
    p = Fraction(p)
    se = sqrt(float(p) * (1 - float(p)) / samples)
    seen = round(float(p) + z * se, 4)
    gap = (seen - float(p)) / se
    stem = (f"An exact count gives a probability of ${tex_frac(p)} \\approx {dec(p)}$. A simulation of "
            f"{samples:,} independent samples gives the frequency {seen:.4f}.")
    ok, bug = ("Nothing alarming: a gap this size is ordinary chance.",
               "A gap this size is far beyond chance: look for a mistake in the count or the simulation.")
    right, other = (ok, bug) if abs(gap) < 3 else (bug, ok)
    why = {ok: "Beyond four standard errors, chance almost never reaches.",
           bug: "Within two or three standard errors, chance produces such gaps all the time."}
    return stem, [
        number("(a) What is the standard error of the simulated frequency? (4 decimal places)",
               se, f"$\\sqrt{{p(1-p)/N}} = \\sqrt{{{dec(p)} \\cdot {dec(1 - p)}/{samples}}} "
               f"\\approx {se:.4f}$.", tolerance=Fraction(1, 10_000)),
        number("(b) How many standard errors is the simulation from the exact value? (one decimal, with its sign)",
               gap, f"$({seen:.4f} - {dec(p)})/{se:.4f} \\approx {gap:+.1f}$.",
               decimals=1, tolerance=Fraction(15, 100)),
        choice("(c) What follows?", right,
               {other: why[other],
                "Run the simulation until it gives the exact value.":
                    "More samples shrink the error like $1/\\sqrt{N}$; they never hit the exact value on demand.",
                "Round the exact value to the simulation's digits and compare again.":
                    "Rounding the exact answer changes nothing about how far the estimate is."},
               f"The gap is {gap:+.1f} standard errors: " + ("gaps of one or two are what chance produces."
                                                             if abs(gap) < 3 else
                                                             "chance gives that less than once in ten thousand runs.")),
    ]


def q00_m2(shape: tuple, players: int):
    ranks = [r for r in ("7", "Q", "K", "4", "9")][:len(shape)]
    hand = " ".join(r for r, c in zip(ranks, shape, strict=True) for _ in range(c))
    opponents = players - 1
    asks = len(shape) * opponents
    most = ranks[0]
    p_most = 1 - Fraction(comb(47 - (4 - shape[0]), 5), comb(47, 5))
    facts = Facts(hand=hand, hand_sizes={1: 5}, books_laid=False)
    agree(facts.p_holds(1, most), p_most, "Q00.M2 (b)")
    same = "Every rank you hold gives the same chance."
    fewest = "A rank you hold the fewest of."
    options = {fewest: "Here you hold the same number of every rank, so no rank is held fewest.",
               "The rank you hold the most of.": "Fewer of its copies are unseen, so an opponent is less likely "
                                                 "to hold one.",
               same: "The chance falls with the copies you hold: fewer are left to find.",
               "A rank you hold none of: all four of its cards are unseen.": "You may only ask for a rank you hold."}
    all_single = len(set(shape)) == 1
    right = same if all_single else fewest
    wrong = {text: why for text, why in options.items() if text != right}
    return (f"{words(players).capitalize()} players, `pond` rules, right after the deal. You hold {hand}.", [
        number("(a) How many different asks can you make?", asks,
               f"An ask names one of {opponents} opponents and one of the {len(shape)} ranks you hold: "
               f"{len(shape)} × {opponents} = {asks}."),
        number(f"(b) What is the exact probability that West holds at least one of the {ranks_word(most)}?",
               p_most, f"{4 - shape[0]} {'is' if shape[0] == 3 else 'are'} unseen among 47: "
                       f"$1 - \\binom{{{43 + shape[0]}}}{{5}}/\\binom{{47}}{{5}} = "
                       f"{tex_frac(p_most)} \\approx {dec(p_most)}$."),
        choice("(c) Which rank gives your ask the best chance of success?", right, wrong,
               "The chance an opponent holds a rank grows with its unseen copies, $4 - c$ when you hold $c$."
               + (" Here every rank is held once." if all_single else "")),
    ])


# ---------------------------------------------------------------------------------- lesson 01

EMPTY = {"new_hand": "They draw a whole new hand, as many cards as they were dealt, and that is their turn.",
         "draw_one_play": "They draw one card and go on with their turn.",
         "draw_one_pass": "They draw one card, and must wait for their next turn to ask.",
         "out": "They are out of the game for good."}


def q01_1(preset: str):
    rules = Rules.preset(preset)
    right = EMPTY[rules.empty_hand]
    says = {key: [name for name in ("family", "pond", "bicycle", "classic") if Rules.preset(name).empty_hand == key]
            for key in EMPTY}
    wrong = {text: f"That is the rule of `{'` and `'.join(says[key])}` (`empty_hand = \"{key}\"`), not of `{preset}`."
             for key, text in EMPTY.items() if text != right}
    wrong[EMPTY["out"]] = "None of the four rule sets puts a player out while the ocean has cards."
    return (f"Under the `{preset}` rules, a player's turn comes round while their hand is empty and the "
            "ocean still has cards.", [choice(
                "What happens?", right, wrong,
                f"`Rules.preset(\"{preset}\").empty_hand` is `{rules.empty_hand}`: "
                f"{rules.describe().splitlines()[2].split(': ', 1)[1]}. The four rule texts disagree exactly here.")])


def q01_2(preset: str, players: int):
    rules = Rules.preset(preset)
    k = rules.deal_size(players)
    ocean = Game(rules, players, seed=1).ocean_size
    agree(ocean, 52 - k * players, "Q01.2")
    return (f"{words(players).capitalize()} players deal a game under the `{preset}` rules.", [number(
        "How many cards are in the ocean right after the deal?", ocean,
        f"`{preset}` deals {k} cards each to {players} players: 52 - {players} × {k} = {ocean}.")])


def q01_3():
    return ("The four rule texts behind the presets disagree in several places.", [choice(
        "Which rule do all four texts share?", "You may ask only for a rank you already hold.",
        {"The game goes on until all 13 books are made.":
             "Two texts (`family`, `classic`) end the game earlier, with books unmade.",
         "A player whose hand runs out draws one card.": "Under `family` they draw a whole new hand.",
         "Completing a book with a card from the ocean earns another ask.": "Only the `bicycle` text says so."},
        "All four require holding the rank you ask for; the deal, the empty-hand rule, the end and the "
        "extra ask for a book are where they differ.")])


def _q01_m1_ok(seed: int):
    game = Game("pond", 3, seed=seed)
    held = [dict(game.view(p).counts) for p in range(3)]
    first = [r for r in held[0] if r in held[1]]
    if not first:
        return None
    r1 = first[0]
    game.ask(1, r1)
    after = game.view(0).counts
    second = [r for r in after if r not in held[2]]
    return (r1, second[0]) if second and not game.is_over and game.current_player == 0 else None


Q01_M1_SEEDS = tuple(s for s in range(60) if _q01_m1_ok(s))


def q01_m1(seed: int):
    r1, r2 = _q01_m1_ok(seed)
    game = Game("pond", 3, seed=seed, names=["Ann", "Ben", "Cat"])
    hands = [" ".join(str(c) for c in game.hand(p)) for p in range(3)]
    top = game.ocean()[0]
    had, gets = game.count(0, r1), game.count(1, r1)
    game.ask(1, r1)
    size_after = len(game.hand(0))
    book = had + gets == 4
    agree(size_after, 5 + gets - (4 if book else 0), "Q01.M1 (a)")
    game.ask(2, r2)
    lucky = top.rank == r2
    turn = ["Ann", "Ben", "Cat"][game.current_player]
    agree(turn, "Ann" if lucky else "Ben", "Q01.M1 (b)")
    ocean = game.ocean_size
    stem = (f"Three players, `pond` rules; the guide's view, every hand face up. Ann holds {hands[0]}; Ben "
            f"{hands[1]}; Cat {hands[2]}. The top card of the ocean is {top}. Ann moves first.")
    right = f"{turn}'s."
    options = {"Ann's.": "Only a lucky draw, the rank she asked for, keeps her turn.",
               "Ben's.": "She drew the rank she asked for: a lucky draw, so she asks again.",
               "Cat's.": "Play passes to the left of the player whose turn ends: from Ann to Ben.",
               "Nobody's until Cat draws a card.": "The player who says \"Go Fish!\" does not draw."}
    wrong = {text: why for text, why in options.items() if text != right}
    return stem, [
        number(f"(a) Ann asks Ben for {ranks_word(r1)}. How many cards does Ann hold after this ask?", size_after,
               f"Ben hands over every {r1} he holds ({gets}); Ann then holds {words(had + gets)} {ranks_word(r1)}"
               + (", a book, laid down at once: " if book else ": ") + f"5 + {gets}"
               + (" - 4" if book else "") + f" = {size_after} cards. Her ask succeeded, so she asks again."),
        choice(f"(b) Ann now asks Cat for {ranks_word(r2)}; Cat holds none. Whose turn is it after that?", right, wrong,
               f"Cat says \"Go Fish!\" and Ann draws the top card, {top}: "
               + ("the rank she asked for, a lucky draw, so she asks again." if lucky
                  else "not the rank she asked for, so her turn ends and play passes to her left, to Ben.")),
        number("(c) How many cards are left in the ocean then?", ocean,
               f"The deal left 52 - 15 = 37; Ann's draw took one: {ocean}."),
    ]


def _log_window(seed: int):
    names = ["South", "West", "North", "East"]
    game = Game("pond", 4, seed=seed, names=names)
    rngs = [np.random.default_rng([seed, s]) for s in range(4)]
    start = None
    while not game.is_over and game.n_asks < 14:
        if game.n_asks == 8 and start is None:
            start = len(game.events)
        seat = game.current_player
        game.ask(*random_strategy(game.view(seat), rngs[seat]))
    events = list(game.events[start:])
    last = max((i for i, e in enumerate(events) if type(e).__name__ == "GoFish"), default=None)
    if last is None or last < 4:
        return None
    window = events[:last + 1]
    ask = window[last - 1]
    if type(ask).__name__ != "Ask":
        return None
    return game, window, ask


Q01_M2_SEEDS = tuple(s for s in range(40) if _log_window(s))


def q01_m2(seed: int):
    game, window, ask = _log_window(seed)
    names = game.names
    lines = [e.describe(names) for e in window]
    kinds = [type(e).__name__ for e in window]
    gives, draws = kinds.count("Give"), kinds.count("Draw")
    agree(gives, sum(" gives " in line for line in lines), "Q01.M2 (a)")
    asker, target, rank = names[ask.player], names[ask.target], ask.rank
    stem = "An excerpt of a game's log (four players, `pond`):\n\n" + "\n".join(f"- {line}" for line in lines)
    return stem, [
        number("(a) How many of the asks in the excerpt were answered with cards?", gives,
               f"Count the lines \"... gives ...\": {gives}."),
        number("(b) How many cards left the ocean during the excerpt?", draws,
               f"Every draw, lucky or not, takes one card: {draws} lines say a card was drawn."),
        choice("(c) After the last line, what does every player know?",
               f"{asker} holds at least one of the {ranks_word(rank)}, and {target} held none at that moment.",
               {f"{asker} holds none of the {ranks_word(rank)}.": "You may only ask for a rank you hold.",
                f"{target} holds at least one of the {ranks_word(rank)}.": "\"Go Fish!\" says the opposite.",
                f"The ocean's top card is one of the {ranks_word(rank)}.":
                    "Nobody has seen it; the unseen copies can be in any unseen place."},
               f"An ask proves the asker holds the rank; \"Go Fish!\" proves the target held none at that moment "
               f"(until {target} draws or is given a card)."),
    ]


def q01_4(shape: tuple, players: int):
    ranks = ["5", "9", "J", "K"][:len(shape)]
    hand = " ".join(r for r, c in zip(ranks, shape, strict=True) for _ in range(c))
    rules = Rules.preset("family" if players == 2 else "pond")
    size = rules.deal_size(players)
    assert len(hand.split()) == size
    game = Game(rules, players, deck=deck_dealing(hand, players, size))
    target, rank = greedy(game.view(0), None)
    fewest_rank = ranks[shape.index(min(shape))]
    agree(rank, fewest_rank, "Q01.4")
    most_rank = ranks[0]
    return (f"{words(players).capitalize()} players, `{rules.name}` rules, right after the deal. You hold {hand}, "
            "and your opponents have said nothing yet.", [choice(
                "For which rank will the `greedy` bot ask in your place (the knowledge panel's hint)?",
                f"{ranks_word(fewest_rank)}.",
                {f"{ranks_word(most_rank)}.": "That is `most_held`'s choice; fewer of its copies are unseen.",
                 "Any rank you hold: the chances are equal.": "They are not: the more you hold, the fewer are unseen.",
                 "A rank you hold none of, with all four copies unseen.": "You may only ask for a rank you hold."},
                "`greedy` asks where the exact chance of success is highest: the rank with the most unseen copies, "
                "the one you hold fewest of.")])


# ---------------------------------------------------------------------------------- lesson 02


def q02_1(n_ranks: int):
    count = n_ranks * comb(4, 2) * comb(n_ranks - 1, 3) * 4 ** 3
    agree(count, hands_of_shape((2, 1, 1, 1), n_ranks), "Q02.1")
    total = comb(4 * n_ranks, 5)
    return (f"A smaller deck: the first {n_ranks} ranks, four suits each ({4 * n_ranks} cards). Deal 5.", [
        number("How many 5-card hands hold exactly one pair (one rank twice, three other ranks once each)?", count,
               f"Choose the pair's rank ({n_ranks}) and its two suits ($\\binom{{4}}{{2}} = 6$), then three other ranks "
               f"($\\binom{{{n_ranks - 1}}}{{3}}$) and a suit for each ($4^3$): {count:,} of the {total:,} hands."),
    ])


def q02_2(n_ranks: int, k: int):
    total = comb(4 * n_ranks, k)
    at_most_two = poly_count(n_ranks, k, {0, 1, 2})
    by_shapes = sum(hands_of_shape(s, n_ranks) for s in shapes(k) if max(s) >= 3)
    agree(total - at_most_two, by_shapes, "Q02.2")
    p = Fraction(by_shapes, total)
    return (f"A deck of the first {n_ranks} ranks ({4 * n_ranks} cards); deal {k} cards.", [number(
        "What is the exact probability that the hand holds at least three cards of some rank?", p,
        f"Count the complement, hands with every rank at most twice: the coefficient of $x^{{{k}}}$ in "
        f"$(1 + 4x + 6x^2)^{{{n_ranks}}}$, {at_most_two:,} of {total:,}; so $P = 1 - {at_most_two}/{total} = "
        f"{tex_frac(p)} \\approx {dec(p)}$.")])


def q02_3(n_ranks: int, k: int):
    e = n_ranks * (1 - Fraction(comb(4 * n_ranks - 4, k), comb(4 * n_ranks, k)))
    by_shapes = sum(Fraction(hands_of_shape(s, n_ranks) * len(s), comb(4 * n_ranks, k)) for s in shapes(k))
    agree(e, by_shapes, "Q02.3")
    return (f"A deck of the first {n_ranks} ranks ({4 * n_ranks} cards); deal {k} cards.", [number(
        "What is the expected number of different ranks in the hand? Exact value.", e,
        f"One indicator per rank: P(the hand holds some of it) $= 1 - \\binom{{{4 * n_ranks - 4}}}{{{k}}}/"
        f"\\binom{{{4 * n_ranks}}}{{{k}}}$; by linearity $E = {n_ranks}$ times that $= {tex_frac(e)} \\approx "
        f"{dec(e)}$ (no independence needed).")])


def q02_4():
    return ("A shuffled deck is dealt round robin to four players, one card at a time.", [choice(
        "Why is every 5-card hand equally likely for seat 0?",
        "Every deck order is equally likely, and each set of 5 cards fills seat 0's five places in the same "
        "number of orders.",
        {"Round robin gives each seat every fourth card, and that mixes the deck.":
             "The deal's pattern does not matter: any five fixed places would do.",
         "It is only roughly true: round robin favours some hands.": "It is exactly true, by counting deck orders.",
         "Each card goes to seat 0 with probability 5/52, independently of the others.":
             "The chance is 5/52, but not independently: seat 0 gets exactly five cards."},
        "All $52!$ orders are equally likely, and every 5-card set lands in seat 0's five positions in "
        "$5!\\,47!$ of them: so the hands are equally likely, and a probability is a count of hands.")])


def q02_5():
    return ("Right after a deal, $X$ is the number of sevens in West's hand and $Y$ the number in North's.", [choice(
        "When does $E[X + Y] = E[X] + E[Y]$ hold?", "Always.",
        {"Only if $X$ and $Y$ are independent.": "Linearity of expectation needs no independence (and these two "
                                                 "are dependent: sevens in one hand are not in the other).",
         "Only if $X$ and $Y$ are never both positive.": "That is a condition for adding probabilities of events, "
                                                          "not expectations.",
         "Only if the two hands have the same size.": "Sizes change each expectation, not the rule."},
        "Expectation is linear whatever the dependence: $E[X+Y] = \\sum_{x,y}(x+y)P(x,y) = E[X] + E[Y]$.")])


def q02_m1(n_ranks: int, k: int):
    total = comb(4 * n_ranks, k)
    p_book = Fraction(n_ranks * comb(4 * n_ranks - 4, k - 4), total)
    agree(p_book, Fraction(sum(hands_of_shape(s, n_ranks) for s in shapes(k) if max(s) == 4), total), "Q02.M1 (a)")
    pairs = n_ranks * Fraction(comb(4, 2) * comb(4 * n_ranks - 4, k - 2), total)
    agree(pairs, sum(Fraction(hands_of_shape(s, n_ranks) * s.count(2), total) for s in shapes(k)), "Q02.M1 (b)")
    return (f"A deck of the first {n_ranks} ranks ({4 * n_ranks} cards); deal {k} cards.", [
        number("(a) What is the exact probability that the hand holds a book (all four cards of one rank)?", p_book,
               f"With {k} cards at most one book fits: choose its rank ({n_ranks}) and the other {k - 4} "
               f"card{'s' if k > 5 else ''} from "
               f"{4 * n_ranks - 4}: ${n_ranks}\\binom{{{4 * n_ranks - 4}}}{{{k - 4}}}/\\binom{{{4 * n_ranks}}}{{{k}}} = "
               f"{tex_frac(p_book)}$."),
        number("(b) What is the expected number of ranks held exactly twice?", pairs,
               f"One indicator per rank, P(exactly two) $= \\binom{{4}}{{2}}\\binom{{{4 * n_ranks - 4}}}{{{k - 2}}}/"
               f"\\binom{{{4 * n_ranks}}}{{{k}}}$; times {n_ranks}: ${tex_frac(pairs)} \\approx {dec(pairs)}$."),
        choice("(c) Is (b) the probability that the hand holds at least one rank exactly twice?",
               "No: a hand with two such ranks counts twice in (b), so (b) is larger.",
               {"Yes: linearity makes the two equal.": "Linearity gives the expected count, not a probability.",
                "No: (b) is smaller, because it leaves out three of a kind.":
                    "An expected count of indicators is at least the chance that one of them is 1.",
                "Only if the ranks are independent.": "Independence would not make them equal either."},
               "$E[N] = \\sum_j P(N \\ge j) \\ge P(N \\ge 1)$, equal only when $N$ is never 2 or more."),
    ])


Q02_M2_EVENTS = {
    "at least a pair in 5 cards": 1 - Fraction(comb(13, 5) * 4 ** 5, comb(52, 5)),
    "a book in 7 cards": Fraction(13 * comb(48, 3), comb(52, 7)),
    "at least three of a kind in 5 cards": Fraction(sum(hands_of_shape(s, 13) for s in shapes(5) if max(s) >= 3),
                                                    comb(52, 5)),
    "at least a pair in 7 cards": 1 - Fraction(comb(13, 7) * 4 ** 7, comb(52, 7)),
}


def q02_m2(event: str, deals: int, target: str):
    p = Q02_M2_EVENTS[event]
    se = sqrt(float(p) * (1 - float(p)) / deals)
    want = Fraction(target)
    needed = ceil(p * (1 - p) / want ** 2)
    agree(needed, int(np.ceil(float(p * (1 - p) / want ** 2))), "Q02.M2 (c)")
    return (f"P({event}) is exactly ${tex_frac(p)} \\approx {dec(p, 5)}$. A simulation deals {deals:,} hands.", [
        number("(a) What is the standard error of the simulated frequency? (5 decimal places)", se,
               f"$\\sqrt{{p(1-p)/N}} \\approx {se:.5f}$.", decimals=5, tolerance=Fraction(1, 100_000)),
        number("(b) How many hands with this event do you expect among them? Exact value.", deals * p,
               f"$N p = {deals} \\cdot {tex_frac(p)} = {tex_frac(deals * p)} \\approx {float(deals * p):.1f}$.",
               decimals=1, tolerance=Fraction(1, 10)),
        number(f"(c) How many deals would make the standard error at most {target}?", needed,
               f"$N \\ge p(1-p)/{target}^2 = {float(p * (1 - p) / want ** 2):.2f}$, so {needed:,} deals."),
    ])


ITEMS = [
    Item("Q00.1", "00", (1,), "an exact chance, counted", q00_1,
         tuple((pl, h, r) for pl, r in ((2, "J"), (3, "8"), (5, "Q"), (6, "K")) for h in (0, 1, 2, 3)),
         "the number of players (and so the rules and hand size), the copies you hold, the rank"),
    Item("Q00.2", "00", (1,), "reading a win share's interval", q00_2,
         ((1000, 281), (2000, 468), (1000, 226), (3000, 712), (2000, 540), (1500, 352), (1000, 262), (4000, 948)),
         "the number of games and wins (the interval may lie above, below or around 1/4)"),
    Item("Q00.3", "00", (1,), "which entries are exchangeable", q00_3),
    Item("Q00.4", "00", (1,), "what a strategy may read", q00_4),
    Item("Q00.M1", "00", (1,), "a simulation against an exact count", q00_m1,
         tuple((n, p, z) for n, p in ((2000, Fraction(4429, 11891)), (5000, Fraction(947, 3243)),
                                      (20000, Fraction(220, 1081)), (10000, Fraction(5, 47)))
               for z in (0.6, -1.4, 1.7, -5.2, 6.3)),
         "the exact value, the number of samples and the simulated frequency (ordinary or far off)"),
    Item("Q00.M2", "00", (1,), "asks and their chances", q00_m2,
         tuple((s, pl) for s in ((2, 1, 1, 1), (3, 1, 1), (2, 2, 1), (3, 2), (1, 1, 1, 1, 1)) for pl in (3, 4, 5)),
         "the hand's shape and the number of players"),
    Item("Q01.1", "01", (2,), "the empty-hand rule", q01_1, (("family",), ("pond",), ("classic",), ("bicycle",)),
         "the preset"),
    Item("Q01.2", "01", (2,), "the ocean after the deal", q01_2,
         (("family", 2), ("family", 3), ("family", 6), ("pond", 2), ("pond", 6), ("bicycle", 3), ("bicycle", 5),
          ("classic", 2), ("classic", 3), ("classic", 5)), "the preset and the number of players"),
    Item("Q01.3", "01", (2,), "what every source agrees on", q01_3),
    Item("Q01.4", "01", (4,), "what the greedy bot would ask", q01_4,
         (((2, 2, 1), 4), ((3, 2), 4), ((2, 2, 1), 3), ((3, 2), 5), ((3, 3, 1), 2), ((2, 2, 2, 1), 2)),
         "your hand and the number of players"),
    Item("Q01.M1", "01", (3, 2), "a game step by step", q01_m1, tuple((s,) for s in Q01_M1_SEEDS), "the deal"),
    Item("Q01.M2", "01", (1,), "reading a log", q01_m2, tuple((s,) for s in Q01_M2_SEEDS), "the game and its log"),
    Item("Q02.1", "02", (2,), "counting one-pair hands", q02_1, tuple((r,) for r in (6, 7, 8, 9, 10, 11, 12)),
         "the deck's number of ranks"),
    Item("Q02.2", "02", (3,), "at least three of a kind", q02_2,
         tuple((r, k) for r in (6, 7, 9, 10, 11, 12) for k in (5, 6)), "the deck and the hand size"),
    Item("Q02.3", "02", (4,), "expected number of ranks", q02_3,
         tuple((r, k) for r in (6, 7, 9, 10, 11, 12) for k in (5, 6, 7)), "the deck and the hand size"),
    Item("Q02.4", "02", (1,), "why hands are equally likely", q02_4),
    Item("Q02.5", "02", (4,), "linearity without independence", q02_5),
    Item("Q02.M1", "02", (3, 4), "books and pairs in one hand", q02_m1,
         tuple((r, k) for r in (6, 8, 10, 12, 13) for k in (5, 6, 7) if (r, k) not in ((13, 5), (13, 7))),
         "the deck and the hand size"),
    Item("Q02.M2", "02", (5,), "how precise a simulation is", q02_m2,
         tuple((e, n, t) for e in Q02_M2_EVENTS for n, t in ((1000, "0.005"), (20000, "0.001"), (50000, "0.0005"))),
         "the event, the number of deals and the precision wanted"),
]
