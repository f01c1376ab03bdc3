"""Checks for exercises 01-06: the game's logic (dealing, asks, books, turns, the end).

Cards are plain strings such as ``'7♥'`` and ``'10♠'``: the rank is everything but the
last character (the suit). Each exercise's expected answers come from a reference
function here; tests/test_exercises.py checks those references against the game engine.

>>> deal_reference(["A♣", "2♣", "3♣", "4♣", "5♣", "6♣"], 2, 3)
[['A♣', '3♣', '5♣'], ['2♣', '4♣', '6♣']]
>>> next_asker_reference("classic", 0, "go fish", [3, 0, 4], 10)   # seat 1 draws one; the turn passes
2
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
def deal_reference(deck, n_players, hand_size):
    hands = [[] for _ in range(n_players)]
    for k in range(n_players * hand_size):  # one card at a time, round robin from seat 0
        hands[k % n_players].append(deck[k])
    return hands


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
        cases.append(Case((list(deck), n, size), deal_reference(deck, n, size),
                          f"deal({shown_deck}, n_players={n}, hand_size={size})", note=note))
    return cases


class Deal(Exercise):
    def compare(self, expected, returned):
        if not isinstance(returned, (list, tuple)) or not all(isinstance(h, (list, tuple)) for h in returned):
            return False, "return a list with one list of cards per player"
        returned = [list(h) for h in returned]
        if len(returned) != len(expected):
            return False, f"expected {len(expected)} hands, got {len(returned)}"
        for p, (want, got) in enumerate(zip(expected, returned)):
            if len(got) != len(want):
                return False, f"player {p} should get {len(want)} cards, not {len(got)}"
            if got != want:
                if Counter(got) == Counter(want):
                    return False, f"player {p} has the right cards but not in the order they were dealt"
                return False, f"player {p} should get {want}: card k goes to player k % n_players"
        return True, ""


DEAL = Deal("01-deal", "deal", "dealing round robin", "01",
            "Deal one card at a time around the table, and see why that is not the same as dealing in blocks.",
            make_cases=_deal_cases)


# --------------------------------------------------------------------------- 02 legal asks
def legal_asks_reference(hand, me, n_players):
    ranks = sorted({rank(c) for c in hand}, key=ALL_RANKS.index)
    return [(t, r) for t in range(n_players) if t != me for r in ranks]


def _ask_key(ask):
    return ask[0], ALL_RANKS.index(ask[1]) if ask[1] in ALL_RANKS else 99, str(ask[1])


def _legal_asks_cases() -> list[Case]:
    specs = [(["7♥", "Q♣", "7♠"], 0, 2, "two sevens are one rank: one ask per opponent"),
             (["A♦", "K♠", "2♣"], 1, 3, "you sit at seat 1: you cannot ask yourself"),
             (["10♥", "10♣", "J♦", "4♠"], 3, 4, "a 10: its rank has two characters"),
             (["5♣"], 2, 5, "one card, four opponents"),
             ([], 0, 3, "an empty hand: no ask is legal"),
             (["3♠", "3♥", "3♦", "9♣", "9♦"], 0, 6, "six players")]
    return [Case((list(h), me, n), legal_asks_reference(h, me, n),
                 f"legal_asks({show_cards(h)}, me={me}, n_players={n})", note=note) for h, me, n, note in specs]


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
                       make_cases=_legal_asks_cases)


# --------------------------------------------------------------------------- 03 resolving an ask
def give_reference(asker_hand, target_hand, wanted):
    moved = [c for c in target_hand if rank(c) == wanted]
    return list(asker_hand) + moved, [c for c in target_hand if rank(c) != wanted]


def _give_cases() -> list[Case]:
    specs = [(["7♥", "Q♣"], ["7♠", "2♦", "7♣"], "7", "the target gives every 7, not just one"),
             (["K♦"], ["K♠", "3♣"], "K", "one King to give"),
             (["Q♥", "4♠"], ["2♦", "9♣"], "Q", "no Queens: \"Go Fish!\", nothing moves"),
             (["10♣", "A♠"], ["10♦", "10♥", "A♣", "J♠"], "10", "tens: the rank is '10', two characters"),
             (["A♥", "2♥"], ["A♦", "A♣", "A♠"], "A", "the target gives all three Aces and has none left"),
             (["5♣", "6♣"], ["6♦", "5♦", "6♠", "5♥"], "5", "only the asked rank moves")]
    cases = []
    for mine, theirs, r, note in specs:
        cases.append(Case((list(mine), list(theirs), r), give_reference(mine, theirs, r),
                          f"give({show_cards(mine)}, {show_cards(theirs)}, {r!r})", note=note))
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
            make_cases=_give_cases)


# --------------------------------------------------------------------------- 04 books
def lay_books_reference(hand, book_size=4):
    counts = Counter(rank(c) for c in hand)
    books = [r for r in sorted(counts, key=ALL_RANKS.index) for _ in range(counts[r] // book_size)]
    left, kept = [], Counter()
    for c in hand:  # what stays of each rank: the cards short of a whole book
        if kept[rank(c)] < counts[rank(c)] % book_size:
            left.append(c)
            kept[rank(c)] += 1
    return left, books


def _books_cases() -> list[Case]:
    specs = [(["7♥", "7♣", "Q♦", "7♠", "7♦"], 4, "four 7s make a book"),
             (["A♣", "2♦", "2♥", "K♠"], 4, "no book yet"),
             (["10♣", "10♦", "10♥", "10♠", "3♣", "3♦", "3♥", "3♠", "9♣"], 4, "two books at once, one of tens"),
             (["5♣", "5♦", "5♥", "8♠"], 2, "Pairs Go Fish: three 5s make one pair, one 5 stays"),
             (["J♣", "J♦", "J♥", "J♠", "2♣"], 2, "Pairs Go Fish: four Jacks are two books"),
             (["6♣", "6♦", "K♥", "K♣"], 2, "Pairs Go Fish: two pairs")]
    cases = []
    for hand, size, note in specs:
        cases.append(Case((list(hand),), lay_books_reference(hand, size),
                          f"lay_books({show_cards(hand)}" + (f", book_size={size})" if size != 4 else ")"),
                          kwargs={"book_size": size}, note=note))
    return cases


class Books(Exercise):
    def compare(self, expected, returned):
        if not isinstance(returned, (list, tuple)) or len(returned) != 2:
            return False, "return (hand_left, books)"
        left, books = returned
        if not _is_card_list(left) or not isinstance(books, (list, tuple)):
            return False, "hand_left is a list of cards, books a list of ranks"
        if Counter(map(str, books)) != Counter(expected[1]):
            return False, f"the books should be {expected[1]}: one entry per book"
        if not _same_cards(expected[0], left):
            return False, f"{len(expected[0])} cards should stay in hand, those not laid down"
        return True, ""

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
              make_cases=_books_cases)


# --------------------------------------------------------------------------- 05 whose turn
def next_asker_reference(rules, current, outcome, hand_sizes, ocean):
    """Who asks next under ``rules`` ("pond" or "classic"), or None once the game is over."""
    n = len(hand_sizes)
    sizes = list(hand_sizes)

    def over():
        if rules == "classic":
            return ocean == 0  # the pack is exhausted
        return ocean == 0 and not any(sizes)  # pond: every card is in a book

    p = current if outcome in ("got cards", "lucky draw") else (current + 1) % n
    while not over():
        if sizes[p]:
            return p
        if ocean == 0:  # pond: an empty hand with an empty ocean is skipped
            p = (p + 1) % n
        elif rules == "pond":
            return p  # draws one card and plays on
        else:  # classic: draws one card, and the turn passes
            sizes[p] += 1
            ocean -= 1
            p = (p + 1) % n
    return None


def _next_asker_cases() -> list[Case]:
    specs = [("pond", 0, "go fish", [4, 5, 5, 5], 31, "a plain \"Go Fish!\": the turn passes"),
             ("pond", 1, "got cards", [5, 7, 3, 5], 32, "a successful ask: ask again"),
             ("pond", 2, "lucky draw", [5, 5, 6, 5], 30, "a lucky draw: ask again"),
             ("pond", 3, "go fish", [2, 4, 1, 6], 12, "seat 3 is the last: next is seat 0"),
             ("pond", 0, "go fish", [3, 0, 2], 8, "pond: seat 1 has no cards, draws one and plays on"),
             ("pond", 0, "go fish", [3, 0, 2], 0, "pond: no cards and an empty ocean: seat 1 is skipped"),
             ("pond", 1, "got cards", [2, 0, 3, 1], 5, "pond: a book emptied seat 1's hand: it draws and goes on"),
             ("pond", 0, "got cards", [0, 0, 0], 0, "pond: every card is in a book: game over"),
             ("classic", 0, "go fish", [3, 0, 4], 10, "classic: seat 1 draws one card and the turn passes"),
             ("classic", 2, "go fish", [2, 5, 6, 0], 9, "classic: seats 3 and 0 each draw one and pass"),
             ("classic", 1, "got cards", [2, 0, 3, 1], 5, "classic: a book emptied seat 1's hand: it draws, then passes"),
             ("classic", 0, "go fish", [4, 5, 5], 0, "classic: the pack is exhausted: game over"),
             ("classic", 1, "lucky draw", [2, 0, 3], 1, "classic: seat 1 drew the last card: game over"),
             ("classic", 3, "go fish", [0, 0, 6, 4], 1, "classic: seat 0 draws the last card: game over")]
    cases = []
    for rules, cur, outcome, sizes, ocean, note in specs:
        cases.append(Case((rules, cur, outcome, list(sizes), ocean),
                          next_asker_reference(rules, cur, outcome, sizes, ocean),
                          f"next_asker({rules!r}, current={cur}, outcome={outcome!r}, hand_sizes={sizes}, ocean={ocean})",
                          note=note))
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
                       "sets disagree.", make_cases=_next_asker_cases)


# --------------------------------------------------------------------------- 06 the end
def game_over_reference(end, ocean, hand_sizes, books, total_books=13):
    """None while the game goes on; else the winners, seats ascending (ties share the win)."""
    over = sum(books) == total_books  # the last book always ends the game
    if end == "ocean_empty":
        over = over or ocean == 0
    elif end == "empty_hand_and_ocean":
        over = over or (ocean == 0 and 0 in hand_sizes)
    if not over:
        return None
    best = max(books)
    return [p for p, b in enumerate(books) if b == best]


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
    cases = []
    for end, ocean, sizes, books, total, note in specs:
        shown_total = f", total_books={total}" if total != 13 else ""
        cases.append(Case((end, ocean, list(sizes), list(books)), game_over_reference(end, ocean, sizes, books, total),
                          f"game_over({end!r}, ocean={ocean}, hand_sizes={sizes}, books={books}{shown_total})",
                          kwargs={"total_books": total}, note=note))
    return cases


class GameOver(Exercise):
    def compare(self, expected, returned):
        if expected is None:
            return returned is None, "" if returned is None else "the game goes on: return None"
        if not isinstance(returned, (list, tuple)):
            return False, "the game is over: return the list of winners"
        got = sorted(int(p) for p in returned)
        if got == expected:
            return True, ""
        if len(expected) > 1 and len(got) == 1:
            return False, "players tied for most books share the win: list them all"
        return False, ""


GAME_OVER = GameOver("06-game-over", "game_over", "the end of the game and the winners, ties included", "07",
                     "Three end rules, one always-true rule (the last book ends it), and ties that share the win.",
                     make_cases=_game_over_cases)
