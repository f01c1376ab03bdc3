"""Checks for exercises 01-06: the game's logic (dealing, asks, books, turns, the end).

Cards are plain strings such as ``'7♥'`` and ``'10♠'``: the rank is everything but the
last character (the suit). This module makes each exercise's inputs: public cases (shown in
its notebook) and hidden ones made from the grader's seed. Their expected answers come from
the teacher's key (``solutions/key/``, :mod:`.key`), which is not part of this package;
tests/test_exercises.py checks the key's references against the game engine.

>>> import numpy as np
>>> [(case.shown, case.expected) for case in DEAL.make_hidden(np.random.default_rng(1))][:1]   # doctest: +ELLIPSIS
[('deal([...], n_players=..., hand_size=...)', None)]
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from ..cards import ALL_RANKS, SUITS, make_deck
from .checking import Case, Exercise


# --------------------------------------------------------------------------- helpers
def rank(card: str) -> str:
    """``'10♠'`` -> ``'10'``: everything but the suit."""
    return card[:-1]


def card_key(card: str) -> tuple[int, int]:
    """Deck order: by rank (A low), then suit (♣ ♦ ♥ ♠)."""
    return ALL_RANKS.index(rank(card)), SUITS.index(card[-1])


def deck_strings(n_ranks: int = 13, seed: int | None = None) -> list[str]:
    """A deck as strings, shuffled by ``seed`` (or in order)."""
    deck = [str(c) for c in make_deck(ALL_RANKS[:n_ranks])]
    if seed is not None:
        deck = [deck[i] for i in np.random.default_rng(seed).permutation(len(deck))]
    return deck


def show_cards(cards) -> str:
    return "[" + ", ".join(repr(c) for c in cards) + "]"


def _is_card_list(value) -> bool:
    return isinstance(value, (list, tuple)) and all(isinstance(c, str) for c in value)


def _same_cards(expected, returned) -> bool:
    """The same cards, in any order."""
    return _is_card_list(returned) and Counter(returned) == Counter(expected)


# --------------------------------------------------------------------------- 01 dealing


def _deal_cases() -> list[Case]:
    small = deck_strings(2)
    full = deck_strings(13, seed=7)
    specs = [(["A♣", "2♣", "3♣", "4♣", "5♣", "6♣"], 2, 3, "two players, three cards each"),
             (small, 3, 2, "three players: card 4 goes back to player 0"),
             (small, 2, 4, "the whole deck is dealt"),
             (full, 4, 5, "the pond deal: 4 players, 5 cards each, from a shuffled deck"),
             (full, 2, 7, "two players, seven each: most of the deck stays in the ocean"),
             (full, 6, 1, "one card each")]
    cases = []
    for deck, n, size, note in specs:
        shown_deck = show_cards(deck) if len(deck) <= 8 else show_cards(deck[:8])[:-1] + f", ... ({len(deck)} cards)]"
        cases.append(Case((list(deck), n, size), None,
                          f"deal({shown_deck}, n_players={n}, hand_size={size})", note=note))
    return cases


def _deal_hidden(rng) -> list[Case]:
    cases = []
    for _ in range(6):
        n_ranks = int(rng.integers(2, 14))
        deck = deck_strings(n_ranks, seed=int(rng.integers(2**31)))
        n = int(rng.integers(2, 7))
        size = int(rng.integers(1, len(deck) // n + 1))
        cases.append(Case((deck, n, size), None,
                          f"deal([...], n_players={n}, hand_size={size})", note="a hidden case"))
    return cases


class Deal(Exercise):
    def compare(self, expected, returned):
        if not isinstance(returned, (list, tuple)) or not all(isinstance(h, (list, tuple)) for h in returned):
            return False, "return a list with one list of cards per player"
        returned = [list(h) for h in returned]
        if len(returned) != len(expected):
            return False, f"expected {len(expected)} hands, got {len(returned)}"
        for p, (want, got) in enumerate(zip(expected, returned, strict=True)):
            if len(got) != len(want):
                return False, f"player {p} should get {len(want)} cards, not {len(got)}"
            if got != want:
                if Counter(got) == Counter(want):
                    return False, f"player {p} has the right cards but not in the order they were dealt"
                return False, f"player {p} should get {want}: card k goes to player k % n_players"
        return True, ""


DEAL = Deal("01-deal", "deal", "dealing round robin", "01",
            "Deal one card at a time around the table, and see why that is not the same as dealing in blocks.",
            make_inputs=_deal_cases, make_hidden=_deal_hidden)


# --------------------------------------------------------------------------- 02 legal asks


def _ask_key(ask):
    return ask[0], ALL_RANKS.index(ask[1]) if ask[1] in ALL_RANKS else 99, str(ask[1])


def _legal_asks_cases() -> list[Case]:
    specs = [(["7♥", "Q♣", "7♠"], 0, 2, "two sevens are one rank: one ask per opponent"),
             (["A♦", "K♠", "2♣"], 1, 3, "you sit at seat 1: you cannot ask yourself"),
             (["10♥", "10♣", "J♦", "4♠"], 3, 4, "a 10: its rank has two characters"),
             (["5♣"], 2, 5, "one card, four opponents"),
             ([], 0, 3, "an empty hand: no ask is legal"),
             (["3♠", "3♥", "3♦", "9♣", "9♦"], 0, 6, "six players")]
    return [_legal_asks_case(h, me, n, note) for h, me, n, note in specs]


def _legal_asks_case(h, me, n, note):
    return Case((list(h), me, n), None,
                f"legal_asks({show_cards(h)}, me={me}, n_players={n})", note=note)


def _legal_asks_hidden(rng) -> list[Case]:
    cases = []
    for _ in range(6):
        n = int(rng.integers(2, 7))
        hand = deck_strings(13, seed=int(rng.integers(2**31)))[:int(rng.integers(0, 9))]
        cases.append(_legal_asks_case(hand, int(rng.integers(n)), n, "a hidden case"))
    return cases


class LegalAsks(Exercise):
    def compare(self, expected, returned):
        if not isinstance(returned, (list, tuple)) or not all(isinstance(a, (list, tuple)) and len(a) == 2
                                                               for a in returned):
            return False, "return a list of (target, rank) pairs"
        got = sorted((tuple(a) for a in returned), key=_ask_key)
        if got == expected:
            return True, ""
        if len(set(got)) < len(got):
            return False, "some asks appear twice: one ask per opponent and rank, however many cards you hold"
        extra = [a for a in got if a not in expected]
        missing = [a for a in expected if a not in got]
        return False, "; ".join(part for part in (f"not legal: {extra}" if extra else "",
                                                  f"missing: {missing}" if missing else "") if part)

    def show(self, value):
        if isinstance(value, (list, tuple)):
            try:
                value = sorted((tuple(a) for a in value), key=_ask_key)
            except Exception:
                pass
        return super().show(value)


LEGAL_ASKS = LegalAsks("02-legal-asks", "legal_asks", "the legal asks of a hand", "01",
                       "Turn the rule 'ask an opponent for a rank you hold' into a list of every legal ask.",
                       make_inputs=_legal_asks_cases, make_hidden=_legal_asks_hidden)


# --------------------------------------------------------------------------- 03 resolving an ask


def _give_cases() -> list[Case]:
    specs = [(["7♥", "Q♣"], ["7♠", "2♦", "7♣"], "7", "the target gives every 7, not just one"),
             (["K♦"], ["K♠", "3♣"], "K", "one King to give"),
             (["Q♥", "4♠"], ["2♦", "9♣"], "Q", "no Queens: \"Go Fish!\", nothing moves"),
             (["10♣", "A♠"], ["10♦", "10♥", "A♣", "J♠"], "10", "tens: the rank is '10', two characters"),
             (["A♥", "2♥"], ["A♦", "A♣", "A♠"], "A", "the target gives all three Aces and has none left"),
             (["5♣", "6♣"], ["6♦", "5♦", "6♠", "5♥"], "5", "only the asked rank moves")]
    return [_give_case(mine, theirs, r, note) for mine, theirs, r, note in specs]


def _give_case(mine, theirs, r, note):
    return Case((list(mine), list(theirs), r), None,
                f"give({show_cards(mine)}, {show_cards(theirs)}, {r!r})", note=note)


def _give_hidden(rng) -> list[Case]:
    cases = []
    for _ in range(6):
        deck = deck_strings(int(rng.integers(3, 14)), seed=int(rng.integers(2**31)))
        a, b = int(rng.integers(1, 8)), int(rng.integers(0, 9))
        mine, theirs = deck[:a], deck[a:a + b]
        cases.append(_give_case(mine, theirs, rank(mine[int(rng.integers(a))]), "a hidden case"))
    return cases


class Give(Exercise):
    def compare(self, expected, returned):
        if not isinstance(returned, (list, tuple)) or len(returned) != 2:
            return False, "return two hands: (asker_hand, target_hand)"
        asker, target = returned
        if not _is_card_list(asker) or not _is_card_list(target):
            return False, "each hand must be a list of cards like '7♥'"
        if _same_cards(expected[0], asker) and _same_cards(expected[1], target):
            return True, ""
        if len(asker) + len(target) != len(expected[0]) + len(expected[1]):
            return False, "cards were lost or made up: every card given must arrive in the asker's hand"
        if not _same_cards(expected[1], target):
            return False, f"the target should be left with {sorted(expected[1], key=card_key)}"
        return False, f"the asker should end with {sorted(expected[0], key=card_key)}"

    def show(self, value):
        if isinstance(value, (list, tuple)) and len(value) == 2 and all(_is_card_list(h) for h in value):
            return f"({show_cards(sorted(value[0], key=card_key))}, {show_cards(sorted(value[1], key=card_key))})"
        return super().show(value)


GIVE = Give("03-give", "give", "resolving an ask: give every card of the rank", "01",
            "An ask moves every card of the rank, and only that rank; a 10 has a two-character rank.",
            make_inputs=_give_cases, make_hidden=_give_hidden)


# --------------------------------------------------------------------------- 04 books


def _books_cases() -> list[Case]:
    specs = [(["7♥", "7♣", "Q♦", "7♠", "7♦"], 4, "four 7s make a book"),
             (["A♣", "2♦", "2♥", "K♠"], 4, "no book yet"),
             (["10♣", "10♦", "10♥", "10♠", "3♣", "3♦", "3♥", "3♠", "9♣"], 4, "two books at once, one of tens"),
             (["5♣", "5♦", "5♥", "8♠"], 2, "Pairs Go Fish: three 5s make one pair, one 5 stays"),
             (["J♣", "J♦", "J♥", "J♠", "2♣"], 2, "Pairs Go Fish: four Jacks are two books"),
             (["6♣", "6♦", "K♥", "K♣"], 2, "Pairs Go Fish: two pairs")]
    return [_books_case(hand, size, note) for hand, size, note in specs]


def _books_case(hand, size, note):
    return Case((list(hand),), None,
                f"lay_books({show_cards(hand)}" + (f", book_size={size})" if size != 4 else ")"),
                kwargs={"book_size": size}, note=note)


def _books_hidden(rng) -> list[Case]:
    cases = []
    for _ in range(6):
        size = int(rng.choice([2, 4]))
        deck = deck_strings(int(rng.integers(2, 6)), seed=int(rng.integers(2**31)))  # few ranks: books happen
        cases.append(_books_case(deck[:int(rng.integers(1, min(len(deck), 12) + 1))], size, "a hidden case"))
    return cases


class Books(Exercise):
    def compare_case(self, case, returned):
        expected, (hand,) = case.expected, case.args
        if not isinstance(returned, (list, tuple)) or len(returned) != 2:
            return False, "return (hand_left, books)"
        left, books = returned
        if not _is_card_list(left) or not isinstance(books, (list, tuple)):
            return False, "hand_left is a list of cards, books a list of ranks"
        if Counter(map(str, books)) != Counter(expected[1]):
            return False, f"the books should be {expected[1]}: one entry per book"
        if Counter(left) - Counter(hand):
            return False, "hand_left holds cards that were not in the hand"
        if Counter(map(rank, left)) != Counter(map(rank, expected[0])):
            return False, f"{len(expected[0])} cards should stay in hand, those not laid down"
        return True, ""  # which cards of a rank stay is the learner's choice

    def show(self, value):
        if isinstance(value, (list, tuple)) and len(value) == 2 and _is_card_list(value[0]):
            books = value[1]
            try:
                books = sorted(books, key=ALL_RANKS.index)
            except Exception:
                pass
            return f"({show_cards(sorted(value[0], key=card_key))}, {books!r})"
        return super().show(value)


BOOKS = Books("04-books", "lay_books", "finding and laying books", "01",
              "Count cards by rank and lay down whole books, including Pairs Go Fish where a book is two cards.",
              make_inputs=_books_cases, make_hidden=_books_hidden)


# --------------------------------------------------------------------------- 05 whose turn


def _next_asker_cases() -> list[Case]:
    specs = [("pond", 0, "go fish", [4, 5, 5, 5], 31, "a plain \"Go Fish!\": the turn passes"),
             ("pond", 1, "got cards", [5, 7, 3, 5], 32, "a successful ask: ask again"),
             ("pond", 2, "lucky draw", [5, 5, 6, 5], 30, "a lucky draw: ask again"),
             ("pond", 3, "go fish", [2, 4, 1, 6], 12, "seat 3 is the last: next is seat 0"),
             ("pond", 0, "go fish", [3, 0, 2], 8, "pond: seat 1 has no cards, draws one and plays on"),
             ("pond", 0, "go fish", [3, 0, 2], 0, "pond: no cards and an empty ocean: seat 1 is skipped"),
             ("pond", 1, "got cards", [2, 0, 3, 1], 5, "pond: a book emptied seat 1's hand: it draws and goes on"),
             ("pond", 0, "got cards", [0, 0, 0], 0, "pond: every card is in a book: game over"),
             ("pond", 1, "got cards", [0, 0, 0], 6, "pond: every hand is empty but the ocean is not: "
                                                    "seat 1 draws and goes on"),
             ("classic", 0, "go fish", [3, 0, 4], 10, "classic: seat 1 draws one card and the turn passes"),
             ("classic", 2, "go fish", [2, 5, 6, 0], 9, "classic: seats 3 and 0 each draw one and pass"),
             ("classic", 1, "got cards", [2, 0, 3, 1], 5, "classic: a book emptied seat 1's hand: it draws, then passes"),
             ("classic", 0, "go fish", [4, 5, 5], 0, "classic: the pack is exhausted: game over"),
             ("classic", 1, "lucky draw", [2, 0, 3], 1, "classic: seat 1 drew the last card: game over"),
             ("classic", 3, "go fish", [0, 0, 6, 4], 1, "classic: seat 0 draws the last card: game over")]
    return [_next_asker_case(*spec) for spec in specs]


def _next_asker_case(rules, cur, outcome, sizes, ocean, note):
    return Case((rules, cur, outcome, list(sizes), ocean), None,
                f"next_asker({rules!r}, current={cur}, outcome={outcome!r}, hand_sizes={sizes}, ocean={ocean})",
                note=note)


def _next_asker_hidden(rng) -> list[Case]:
    cases = []
    for k in range(8):
        n = int(rng.integers(2, 7))
        sizes = [int(x) * int(rng.random() < 0.7) for x in rng.integers(0, 8, n)]  # some hands empty
        ocean = int(rng.choice([0, 0, 1, int(rng.integers(2, 30))]))
        cases.append(_next_asker_case(("pond", "classic")[k % 2], int(rng.integers(n)),
                                      str(rng.choice(["go fish", "got cards", "lucky draw"])), sizes, ocean,
                                      "a hidden case"))
    # Always one pond case with every hand empty and cards left in the ocean: the game goes on (a
    # solution that ends the pond game whenever the hands are empty passed every case without it).
    n = int(rng.integers(2, 7))
    cases.append(_next_asker_case("pond", int(rng.integers(n)), str(rng.choice(["go fish", "got cards"])), [0] * n,
                                  int(rng.integers(1, 30)), "a hidden case"))
    return cases


class NextAsker(Exercise):
    def compare(self, expected, returned):
        if returned is None or expected is None:
            return returned is expected, "" if returned is expected else (
                "the game is over: return None" if expected is None else "the game goes on: return a seat")
        if isinstance(returned, bool) or not isinstance(returned, (int, np.integer)):
            return False, "return a seat number (an int) or None"
        return int(returned) == expected, ""


NEXT_ASKER = NextAsker("05-next-asker", "next_asker", "whose turn is next, under two presets", "07",
                       "Follow the turn through lucky draws, empty hands and an empty ocean, and see two rule "
                       "sets disagree.", make_inputs=_next_asker_cases,
                       make_hidden=_next_asker_hidden)


# --------------------------------------------------------------------------- 06 the end


def _game_over_cases() -> list[Case]:
    specs = [("all_books", 0, [0, 0, 0], [5, 4, 4], 13, "every book is made: one winner"),
             ("all_books", 0, [0, 0, 0, 0], [4, 2, 4, 3], 13, "a tie: both seats with 4 books win"),
             ("all_books", 0, [3, 2, 0], [3, 3, 2], 13, "pond: books are left to make, so play goes on"),
             ("ocean_empty", 0, [5, 4, 2], [2, 1, 1], 13, "classic: the pack is exhausted"),
             ("ocean_empty", 6, [5, 4, 2], [2, 3, 1], 13, "classic: cards left in the pack"),
             ("empty_hand_and_ocean", 0, [3, 0, 4], [2, 3, 3], 13, "family: ocean empty and a hand empty; a tie"),
             ("empty_hand_and_ocean", 0, [3, 1, 4], [2, 1, 2], 13, "family: the ocean is empty but no hand is"),
             ("empty_hand_and_ocean", 4, [0, 5, 2], [1, 2, 3], 13, "family: a hand is empty but the ocean is not"),
             ("ocean_empty", 3, [0, 0], [2, 2], 4, "a 4-rank deck: all 4 books made, a 2-2 tie")]
    return [_game_over_case(*spec) for spec in specs]


def _game_over_case(end, ocean, sizes, books, total, note):
    shown_total = f", total_books={total}" if total != 13 else ""
    return Case((end, ocean, list(sizes), list(books)), None,
                f"game_over({end!r}, ocean={ocean}, hand_sizes={sizes}, books={books}{shown_total})",
                kwargs={"total_books": total}, note=note)


def _game_over_hidden(rng) -> list[Case]:
    cases = []
    for k in range(8):
        n = int(rng.integers(2, 7))
        total = int(rng.choice([4, 13]))
        made = total if rng.random() < 0.5 else int(rng.integers(0, total))
        books = list(np.bincount(rng.integers(0, n, made), minlength=n).astype(int).tolist())
        if rng.random() < 0.4:  # ties for the most books are where answers go wrong
            books[int(rng.integers(n))] = max(books)
        sizes = [int(x) * int(rng.random() < 0.6) for x in rng.integers(0, 8, n)]
        ocean = int(rng.choice([0, 0, int(rng.integers(1, 20))]))
        end = ("all_books", "ocean_empty", "empty_hand_and_ocean")[k % 3]
        cases.append(_game_over_case(end, ocean, sizes, books, max(total, sum(books)), "a hidden case"))
    return cases


class GameOver(Exercise):
    def compare(self, expected, returned):
        if expected is None:
            return returned is None, "" if returned is None else "the game goes on: return None"
        if not isinstance(returned, (list, tuple)):
            return False, "the game is over: return the list of winners"
        if not all(type(p) is int for p in returned):
            return False, "the winners are seat numbers (ints)"
        got = list(returned)
        if got == expected:
            return True, ""
        if sorted(got) == expected:
            return False, "the right winners, but list them with the seats ascending"
        if len(expected) > 1 and len(got) == 1:
            return False, "players tied for most books share the win: list them all"
        return False, ""


GAME_OVER = GameOver("06-game-over", "game_over", "the end of the game and the winners, ties included", "07",
                     "Three end rules, one always-true rule (the last book ends it), and ties that share the win.",
                     make_hidden=_game_over_hidden,
                     make_inputs=_game_over_cases)
