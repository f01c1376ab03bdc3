"""Golden playthroughs: whole games written out as text, which every engine replays.

``tests/playthroughs/`` holds a file per preset (``family.txt``, ``pond.txt``, ...) and per
variant (``bluff.txt``, ``pairs.txt``, ``specific_card.txt``, ``teams.txt``), in the spirit of
python-chess's perft files and OpenSpiel's playthroughs. Each game in a file gives its rules,
its players, the built-in strategies that chose its asks and their seeds, the deck (top first),
then every ask with the events that followed it (every card shown, each player's own included)
and the position after it (hands, books, ocean, whose turn), and the result. Three engines
replay them:

- the readable engine (:class:`~gofish_teach.game.Game`) plays the asks on the deck and must
  write the same text, and the strategies, with their seeds, must choose the same asks;
- the compiled one (:func:`gofish_teach.fast.play_games`) plays the strategies on the deck and
  must make the same asks and reach the same books and winners (not under ``specific_card``
  rules, which it does not play);
- the exact solver's model (:class:`~gofish_teach.bestplay.model.Model`, two players, no bluffing,
  card asks or teams) takes the deal and each ask, following the deck's draws, and must reach
  every position in the file.

So a rule change shows as a diff of these files. After a deliberate one, regenerate them and read
the diff before committing it:

    .venv/bin/python tests/test_playthroughs.py --write

(``--check`` instead prints each file's diff without writing.) The games are fixed by
:data:`PLAYTHROUGHS`: rules, players, strategies, the deck's seed and the seats' seeds.
"""
from __future__ import annotations

import ast
import difflib
import re
import sys
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pytest

from gofish_teach import Game, IllegalMove, Rules
from gofish_teach.bestplay.model import Model
from gofish_teach.cards import Card
from gofish_teach.events import EVENT_TYPES, Reason, Source
from gofish_teach.strategies import play_out, seat_rng

FOLDER = Path(__file__).resolve().parent / "playthroughs"
FOUR = ("memory", "random", "most_held", "random")
THREE = ("memory", "most_held", "random")
TWO = ("memory", "random")


class Spec(NamedTuple):
    """One game of a playthrough file: the rules, as a preset and the options changed, the
    strategies by seat, the seed of the deck's shuffle and each seat's seed."""

    preset: str
    changes: dict
    lineup: tuple
    deck_seed: int

    @property
    def rules(self) -> Rules:
        return Rules.preset(self.preset).replace(**self.changes)

    @property
    def seeds(self) -> tuple:
        return tuple(100 * (self.deck_seed + 1) + p for p in range(len(self.lineup)))


SMALL = dict(n_ranks=4, hand_size=3)  # 16 cards, 10 in the ocean: two-player games the model replays
#: The games of each file: between them they show every kind of event, draw and end (a test checks
#: that they still do); bicycle's deck seeds were picked for books made by a draw, its own rule.
PLAYTHROUGHS = {
    "family": [Spec("family", {}, FOUR, 2), Spec("family", SMALL, TWO, 1),
               Spec("family", dict(n_ranks=3, hand_size=2), TWO, 4)],
    "pond": [Spec("pond", {}, FOUR, 1), Spec("pond", SMALL, TWO, 3),
             Spec("pond", dict(n_ranks=3, hand_size=1), TWO, 0)],
    "bicycle": [Spec("bicycle", {}, FOUR, 5), Spec("bicycle", SMALL, TWO, 8)],  # both with books drawn
    "classic": [Spec("classic", {}, FOUR, 4), Spec("classic", SMALL, TWO, 5)],
    "bluff": [Spec("family", dict(bluff=True), THREE, 6)],
    "pairs": [Spec("pond", dict(book_size=2), THREE, 7), Spec("pond", dict(book_size=2, **SMALL), TWO, 8)],
    "specific_card": [Spec("family", dict(specific_card=True), THREE, 9)],
    "teams": [Spec("family", dict(teams=True), FOUR, 10), Spec("pond", dict(teams=True, n_ranks=6), FOUR, 11)],
}


# --------------------------------------------------------------------------- writing
def header(name: str) -> str:
    return (f"# Golden playthroughs: {name}. Written by tests/test_playthroughs.py, which replays every game\n"
            "# with the readable engine, the compiled one and (two players) the exact solver's model.\n"
            "# After a deliberate rule change: .venv/bin/python tests/test_playthroughs.py --write\n")


def rules_line(preset: str, changes: dict) -> str:
    return ", ".join([preset, *(f"{k}={v!r}" for k, v in changes.items())])


def position(game: Game) -> str:
    """The position between asks, one line: every hand, every seat's books, the ocean, who asks."""
    hands = " / ".join(" ".join(map(str, game.hand(p))) or "-" for p in range(game.n_players))
    books = " / ".join(" ".join(b) or "-" for b in game.books)
    state = "over" if game.is_over else f"seat {game.current_player} to ask"
    return f"  position: hands {hands} ; books {books} ; ocean {game.ocean_size} ; {state}"


def full_log(game: Game) -> list:
    """Every event, with the cards each player saw of its own filled in (deals, draws)."""
    public = game.events
    events = list(public)
    for p in range(game.n_players):
        for i, event in enumerate(game.view(p).events):
            if event != public[i]:
                events[i] = event
    return events


def ask_line(k: int, seat: int, move: tuple) -> str:
    target, rank, *suit = move
    return f"ask {k}: seat {seat} asks seat {target} for {rank}{suit[0] if suit else ''}"


def result_line(game: Game) -> str:
    books = " ".join(str(len(b)) for b in game.books)
    winners = " ".join(map(str, game.winners))
    return f"result: books {books} ; winners {winners} ; {game.n_asks} asks"


def write_game(preset: str, changes: dict, lineup, seeds, deck, moves, rules: Rules | None = None) -> str:
    """The text of one game: the asks ``moves`` replayed on ``deck`` by the readable engine (under
    ``rules`` if given, as if the engine's rules had changed; the text names the rules as given)."""
    rules = rules or Rules.preset(preset).replace(**changes)
    game = Game(rules, len(lineup), deck=deck)
    marks = [(len(game.events), None, position(game))]  # (events up to here, the ask, the position after)
    refused = None
    for move in moves:
        seat = game.current_player
        try:
            game.ask(*move)
        except IllegalMove as e:  # the game has gone another way (replaying under changed rules)
            refused = f"{ask_line(len(marks), seat, move)}\n  refused: {e}"
            break
        marks.append((len(game.events), (seat, move), position(game)))
    events = full_log(game)
    lines = [f"== {len(lineup)} players: {', '.join(lineup)} ==",
             f"rules: {rules_line(preset, changes)}",
             f"players: {len(lineup)}",
             f"lineup: {' '.join(lineup)}",
             f"seeds: {' '.join(map(str, seeds))}",
             f"deck: {' '.join(map(str, deck))}"]
    start = 0
    for k, (stop, ask, after) in enumerate(marks):
        lines.append("deal:" if ask is None else ask_line(k, *ask))
        lines += [f"  {event}" for event in events[start:stop]]
        lines.append(after)
        start = stop
    lines.append(refused or result_line(game))
    return "\n".join(lines) + "\n"


def play(spec: Spec) -> str:
    """The text of a game of :data:`PLAYTHROUGHS`: its strategies play it, the engine writes it."""
    rules = spec.rules
    deck = Game(rules, len(spec.lineup), seed=spec.deck_seed).deck
    game = play_out(Game(rules, len(spec.lineup), deck=deck), list(spec.lineup), [seat_rng(s) for s in spec.seeds])
    return write_game(spec.preset, spec.changes, spec.lineup, spec.seeds, deck, game.moves)


def file_text(name: str) -> str:
    return header(name) + "".join("\n" + play(spec) for spec in PLAYTHROUGHS[name])


# --------------------------------------------------------------------------- reading
class Played(NamedTuple):
    """One game read back from a file."""

    preset: str
    changes: dict
    lineup: tuple
    seeds: tuple
    deck: tuple
    moves: list       # (seat, target, rank label, suit or None) of each ask
    positions: list   # after the deal, then after each ask: (hands by seat, books by seat, ocean, seat to ask or None)
    books: tuple
    winners: tuple
    text: str

    @property
    def rules(self) -> Rules:
        return Rules.preset(self.preset).replace(**self.changes)


POSITION = re.compile(r"  position: hands (.*) ; books (.*) ; ocean (\d+) ; (?:seat (\d+) to ask|over)$")
ASK = re.compile(r"ask \d+: seat (\d+) asks seat (\d+) for (\S+)$")
RESULT = re.compile(r"result: books ([\d ]+) ; winners ([\d ]+) ; \d+ asks$")


def read_file(path: Path) -> list[Played]:
    """The games of a playthrough file (``ValueError`` naming the line that does not read)."""
    blocks = path.read_text(encoding="utf-8").split("\n== ")[1:]
    return [read_game("== " + block.rstrip("\n") + "\n") for block in blocks]


def read_game(text: str) -> Played:
    lines = text.splitlines()
    field = {}
    for line in lines[1:6]:
        key, _, value = line.partition(": ")
        field[key] = value
    preset, *options = field["rules"].split(", ")
    changes = {k: ast.literal_eval(v) for k, _, v in (option.partition("=") for option in options)}
    specific = Rules.preset(preset).replace(**changes).specific_card
    moves, positions, books, winners = [], [], (), ()
    for line in lines[6:]:
        if m := ASK.match(line):
            card = Card.parse(m[3]) if specific else None
            moves.append((int(m[1]), int(m[2]), card.rank if card else m[3], card.suit if card else None))
        elif m := POSITION.match(line):
            hands = tuple(tuple(Card.parse(c) for c in h.split()) if h != "-" else () for h in m[1].split(" / "))
            booked = tuple(tuple(b.split()) if b != "-" else () for b in m[2].split(" / "))
            positions.append((hands, booked, int(m[3]), None if m[4] is None else int(m[4])))
        elif m := RESULT.match(line):
            books, winners = tuple(map(int, m[1].split())), tuple(map(int, m[2].split()))
        elif not (line.startswith("  ") or line in ("deal:",)):
            raise ValueError(f"playthrough: cannot read the line {line!r}")
    return Played(preset, changes, tuple(field["lineup"].split()), tuple(map(int, field["seeds"].split())),
                  tuple(Card.parse(c) for c in field["deck"].split()), moves, positions, books, winners, text)


def games():
    """``(file name, game number, game)`` of every playthrough file."""
    for name in PLAYTHROUGHS:
        path = FOLDER / f"{name}.txt"
        for k, game in enumerate(read_file(path) if path.exists() else []):  # a missing file: see the first test
            yield name, k, game


# --------------------------------------------------------------------------- the three engines
def readable_differences(played: Played, rules: Rules | None = None) -> str:
    """The unified diff between the game as written and as the readable engine writes it ('' if
    none); ``rules``: the engine's rules, if not the file's (a rule changed on purpose)."""
    move = [(t, r) if s is None else (t, r, s) for _, t, r, s in played.moves]
    again = write_game(played.preset, played.changes, played.lineup, played.seeds, played.deck, move, rules)
    return "".join(difflib.unified_diff(played.text.splitlines(True), again.splitlines(True), "as written",
                                        "as the readable engine plays it"))


def strategies_differences(played: Played, rules: Rules | None = None) -> list:
    """Where the strategies, with their seeds, ask otherwise than the file says (readable engine)."""
    game = play_out(Game(rules or played.rules, len(played.lineup), deck=played.deck), list(played.lineup),
                    [seat_rng(s) for s in played.seeds])
    written = [(t, r) if s is None else (t, r, s) for _, t, r, s in played.moves]
    return [(k, a, b) for k, (a, b) in enumerate(zip(written, game.moves, strict=False)) if a != b][:1] + \
        ([("asks", len(written), game.n_asks)] if len(written) != game.n_asks else [])


def compiled_differences(played: Played, rules: Rules | None = None) -> list:
    """Where the compiled engine, playing the strategies on the deck, differs from the file."""
    from gofish_teach.cards import SUITS
    from gofish_teach.fast import CARDS_PER_RANK, play_games

    rules = rules or played.rules
    index = {r: i for i, r in enumerate(rules.ranks)}
    deck = np.array([[index[c.rank] * CARDS_PER_RANK + SUITS.index(c.suit) for c in played.deck]])
    out = play_games(list(played.lineup), rules, deck, np.array([played.seeds]), moves=True)
    made = [tuple(map(int, row)) for row in out["moves"][0]]
    written = [(p, t, index[r]) for p, t, r, _ in played.moves]
    wrong = [(k, a, b) for k, (a, b) in enumerate(zip(written, made, strict=False)) if a != b][:1]
    if len(made) != len(written):
        wrong.append(("asks", len(written), len(made)))
    if tuple(out["books"][0].tolist()) != played.books:
        wrong.append(("books", played.books, tuple(out["books"][0].tolist())))
    if tuple(np.flatnonzero(out["winners"][0]).tolist()) != played.winners:
        wrong.append(("winners", played.winners, tuple(np.flatnonzero(out["winners"][0]).tolist())))
    return wrong


def modelled(played: Played) -> bool:
    rules = played.rules
    return len(played.lineup) == 2 and not (rules.bluff or rules.specific_card or rules.teams)


def model_differences(played: Played, rules: Rules | None = None) -> list:
    """Where the exact solver's model, dealt the deck and taking each ask (its draws from the deck),
    reaches another position than the file's."""
    rules = rules or played.rules
    model = Model(rules)
    index = {r: i for i, r in enumerate(rules.ranks)}
    size = rules.deal_size(2)

    def counts(cards):
        out = [0] * rules.n_ranks
        for card in cards:
            out[index[card.rank]] += 1
        return tuple(out)

    ocean = list(played.deck[2 * size:])

    def follow(outcomes, skip: int = 0):
        """The one outcome whose draws are the ocean's next cards (the ocean taken on past them);
        ``skip``: events before the draws (the deal's own two)."""
        fits = []
        for prob, world, (obs0, obs1) in outcomes:
            taken, ok = 0, True
            for e0, e1 in list(zip(obs0, obs1, strict=False))[skip:]:
                if e0[0] == "D":  # the drawer sees its cards: a seat's own events show them
                    ok = ok and (e0 if e0[1] == 0 else e1)[3] == counts(ocean[taken:taken + e0[2]])
                    taken += e0[2]
            if ok and prob:
                fits.append((world, taken))
        assert len(fits) == 1, f"{len(fits)} outcomes fit the deck"
        world, taken = fits[0]
        del ocean[:taken]
        return world

    def matches(world, at) -> tuple | None:
        hands, booked, left, seat = at
        theirs = (tuple(counts(h) for h in hands), tuple(len(b) for b in booked), left, seat)
        by_rank = [0] * rules.n_ranks
        for b in booked:
            for rank in b:
                by_rank[index[rank]] += rules.book_size
        ocean_size = 4 * rules.n_ranks - sum(map(sum, world.hands)) - sum(world.booked)
        mine = (world.hands, world.books, ocean_size, None if world.over else world.turn)
        if mine != theirs or tuple(by_rank) != world.booked:
            return (mine, theirs)
        return None

    world = follow(model.dealt(counts(played.deck[0:2 * size:2]), counts(played.deck[1:2 * size:2])), skip=2)
    wrong = [("deal", d) for d in [matches(world, played.positions[0])] if d]
    for k, ((seat, target, rank, _), at) in enumerate(zip(played.moves, played.positions[1:], strict=False), 1):
        if wrong:
            break
        if world.over or seat != world.turn or target != 1 - seat or index[rank] not in model.asks(world):
            wrong.append((f"ask {k}", "not an ask the model allows here"))
            break
        world = follow(model.step(world, index[rank]))
        wrong += [(f"ask {k}", d) for d in [matches(world, at)] if d]
    if not wrong and world.over:
        b0, b1 = world.books
        winners = (0,) if b0 > b1 else (1,) if b1 > b0 else (0, 1)
        if (world.books, winners) != (played.books, played.winners):
            wrong.append(("result", (world.books, winners), (played.books, played.winners)))
    elif not wrong:
        wrong.append(("result", "the model's game is not over"))
    return wrong


# --------------------------------------------------------------------------- the tests
PLAYED = list(games()) if __name__ != "__main__" else []
IDS = [f"{name}-{k}" for name, k, _ in PLAYED]


def test_every_file_is_written_from_its_games():
    """The files hold exactly the games of PLAYTHROUGHS, as this module writes them (a file edited
    by hand, or a game changed in the list without regenerating, shows here)."""
    assert sorted(p.stem for p in FOLDER.glob("*.txt")) == sorted(PLAYTHROUGHS)
    for name in PLAYTHROUGHS:
        written, now = (FOLDER / f"{name}.txt").read_text(encoding="utf-8"), file_text(name)
        assert written == now, "".join(difflib.unified_diff(written.splitlines(True), now.splitlines(True),
                                                            "as written", "as this module writes it"))


@pytest.mark.parametrize("name, k, played", PLAYED, ids=IDS)
def test_the_readable_engine_replays_it(name, k, played):
    diff = readable_differences(played)
    assert not diff, f"tests/playthroughs/{name}.txt, game {k}:\n{diff}"
    assert not strategies_differences(played), strategies_differences(played)


@pytest.mark.parametrize("name, k, played", [p for p in PLAYED if not p[2].rules.specific_card],
                         ids=[i for i, p in zip(IDS, PLAYED, strict=True) if not p[2].rules.specific_card])
def test_the_compiled_engine_replays_it(name, k, played):
    assert not compiled_differences(played), compiled_differences(played)


@pytest.mark.parametrize("name, k, played", [p for p in PLAYED if modelled(p[2])],
                         ids=[i for i, p in zip(IDS, PLAYED, strict=True) if modelled(p[2])])
def test_the_solvers_model_replays_it(name, k, played):
    assert not model_differences(played), model_differences(played)


def test_the_three_engines_replay_most_games():
    """So that the tests above cannot pass by replaying nothing."""
    assert len(PLAYED) == sum(map(len, PLAYTHROUGHS.values())) >= 16
    assert sum(not p.rules.specific_card for _, _, p in PLAYED) >= 15
    assert sum(modelled(p) for _, _, p in PLAYED) >= 7


def test_the_games_show_every_kind_of_event_draw_and_end():
    """Between them the games show every kind of event, a lucky draw, a draw of each source, a
    book made by a draw, every reason to end, and every empty-hand rule and end rule at work."""
    events = [line.strip() for _, _, p in PLAYED for line in p.text.splitlines()
              if line.startswith("  ") and not line.startswith("  position:")]
    kinds = {"Deal": " is dealt ", "Ask": " asks ", "Give": " gives ", "GoFish": "Go Fish", "Draw": " draws ",
             "Book": " lays down a book ", "Turn": "'s turn.", "Skip": " sits out.", "GameOver": "Game over ("}
    assert set(kinds) == {kind.__name__ for kind in EVENT_TYPES}
    shown = {"lucky draw": "lucky draw!", Source.FISH: ") from the ocean.", Source.EMPTY_HAND: "hand is empty.",
             **{reason: f"Game over ({reason})." for reason in Reason}, **kinds}
    missing = [what for what, words in shown.items() if not any(words in e for e in events)]
    assert not missing, missing
    assert any("from the ocean." in e and "lays down a book" in after for e, after in zip(events, events[1:], strict=False))
    rules = {p.rules for _, _, p in PLAYED}
    assert {r.empty_hand for r in rules} == {"new_hand", "draw_one_play", "draw_one_pass"}
    assert {r.end for r in rules} == {"all_books", "empty_hand_and_ocean", "ocean_empty"}


def first_change(diff: str) -> str:
    """The first line a unified diff removes."""
    return next(line for line in diff.splitlines() if line.startswith("-") and not line.startswith("---"))


def test_a_changed_rule_shows_in_every_engine():
    """Bicycle's rule that a book made by a draw gives another ask, switched off on purpose in the
    engines (the files as they are): the readable engine writes another game from the first book
    drawn on, the compiled engine makes other asks, the model reaches other positions."""
    bicycle = [p for name, _, p in PLAYED if name == "bicycle"]
    assert len(bicycle) == 2 and all(p.rules.book_draw_again for p in bicycle)
    for played in bicycle:
        off = played.rules.replace(book_draw_again=False)
        diff = readable_differences(played, off)
        assert diff.startswith("--- as written") and first_change(diff).startswith("-  position:"), diff[:3000]
        assert compiled_differences(played, off) or strategies_differences(played, off)
        print(diff[:1200])
    assert model_differences(bicycle[1], bicycle[1].rules.replace(book_draw_again=False))


def test_a_rule_broken_in_the_engine_shows(monkeypatch):
    """The teams endgame's rule broken in the readable engine's code (a stalemate never seen):
    the teams playthroughs, which both end in one, show it."""
    from gofish_teach.game import Game as Engine

    teams = [p for name, _, p in PLAYED if name == "teams"]
    assert teams and all(readable_differences(p) == "" for p in teams)
    monkeypatch.setattr(Engine, "_stalemate", lambda self: False)
    assert all(readable_differences(p) for p in teams)


# --------------------------------------------------------------------------- regenerating
def main(argv: list[str]) -> int:
    """``--write``: regenerate every file; ``--check``: print the diffs, write nothing."""
    if argv not in (["--write"], ["--check"]):
        print(__doc__)
        return 2
    FOLDER.mkdir(exist_ok=True)
    changed_files = 0
    for name in PLAYTHROUGHS:
        path = FOLDER / f"{name}.txt"
        new = file_text(name)
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        if new != old:
            changed_files += 1
            if argv == ["--check"]:
                sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                           f"{path.name} (as written)", f"{path.name} (now)"))
            else:
                path.write_text(new, encoding="utf-8")
                print(f"wrote {path} ({new.count(chr(10)):,} lines)")
    print(f"{changed_files} of {len(PLAYTHROUGHS)} files {'differ' if argv == ['--check'] else 'rewritten'}")
    return 1 if changed_files and argv == ["--check"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
