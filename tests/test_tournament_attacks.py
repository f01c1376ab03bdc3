"""The class tournament, attacked by entries written to cheat or to harm others.

Each attack is a real entry. The silent ones (they look for a seed, remember decks across
tables, kill processes, read memory, leave files, print forged answers) play exactly like an
honest entry whenever their trick finds nothing, so the test plays the tournament twice on
one seed, once with the honest code under their names and once with the attacks, and asks
for the very same records: an attack that earned anything would change them. (A
statistical bound, from the binomial standard error, is checked too.) The noisy ones (a
child process that outlives its decision, answers written out of turn) forfeit, and the
honest entries play on, every one ranked with status ok.

These run with ``sandbox="require"``: CI installs bubblewrap (``.ci/run``). Only the deck
memory attack is ever run without the sandbox (to show that it works there), never the
process killer.
"""
from __future__ import annotations

import math
import os
import textwrap
import uuid
from pathlib import Path

import pytest

from gofish_teach.tournament import run_tournament, wire

ROOT = Path(__file__).resolve().parent.parent
TOKEN = uuid.uuid4().hex[:12]  # names this run's files and processes, to look for them afterwards

HONEST = '''
def honest(view, rng):
    counts = view.counts
    targets = [q for q in view.opponents if view.hand_sizes[q]] or list(view.opponents)
    return targets[int(rng.integers(len(targets)))], max(counts, key=counts.get)
'''

#: Reads every /proc/*/cmdline and environ it can for a seed; with one, rebuilds the deck
#: (trying every game number) and asks only for cards the target holds.
SEED_READER = HONEST + '''
import os, re
import numpy as np
from gofish_teach import Ask, Game

def find_seeds():
    seeds = []
    for pid in os.listdir("/proc"):
        if pid.isdigit() and int(pid) != os.getpid():
            for name in ("cmdline", "environ"):
                try:
                    text = open(f"/proc/{pid}/{name}", "rb").read().replace(b"\\0", b" ").decode("latin-1")
                except OSError:
                    continue
                seeds += [int(x) for x in re.findall(r"--seed[ =](\\d+)", text) + re.findall(r"SEED=(\\d+)", text)]
    return list(dict.fromkeys(seeds))

SEEDS = find_seeds()

def replay(view, seeds):
    for seed in seeds:
        for g in range(50):
            deck_seed = int(np.random.SeedSequence([seed, g]).generate_state(1, np.uint64)[0])
            game = Game(view.rules, view.n_players, seed=deck_seed)
            try:
                for e in view.events:
                    if isinstance(e, Ask):
                        game.ask(e.target, e.rank)
            except Exception:
                continue
            if game.hand(view.player) == view.hand:
                return game
    return None

def strategy(view, rng):
    game = replay(view, SEEDS) if SEEDS else None
    if game is not None:
        for target, rank in view.legal_asks():
            if game.count(target, rank):
                return target, rank
    return honest(view, rng)
'''

#: Remembers where each card it saw lay in the deck (its dealt cards by the round-robin deal,
#: its draws by the ocean's size) in the k-th game at a table, in a module, in its folder, in
#: /tmp and in its home. Where a later table deals game k the same deck (ca11cf4's common decks;
#: it checks: three cards it sees sit where it remembers them, none elsewhere), it works out what
#: its opponents hold from the public record and asks for what they have.
MEMORY = HONEST + '''
import json, os
from collections import Counter
PLACES = ["memory-TOKEN.json", "/tmp/memory-TOKEN.json", os.path.expanduser("~/memory-TOKEN.json")]
MEMORY = {}
for place in PLACES:
    try:
        for game, cards in json.load(open(place)).items():
            MEMORY.setdefault(game, {}).update(cards)
    except (OSError, ValueError):
        pass
STATE = {"dealt": None, "game": -1, "earlier": {}}

def name(e):
    return type(e).__name__

def learn(view, deck):
    n, pos = view.n_players, 0
    for e in view.events:
        if name(e) == "Deal":
            if e.cards:
                for i, card in enumerate(e.cards):
                    deck[str(i * n + e.player)] = card.rank
            pos += e.count
        elif name(e) == "Draw":
            if e.player == view.player:  # its own draws only (a lucky draw is shown to all)
                for i, card in enumerate(e.cards or ()):
                    deck[str(pos + i)] = card.rank
            pos += e.count

def holdings(view, deck, q):
    held, pos = Counter(), 0
    for e in view.events:
        kind = name(e)
        if kind == "Deal":
            if e.player == q:
                held.update(deck[str(i * view.n_players + q)] for i in range(e.count)
                            if str(i * view.n_players + q) in deck)
            pos += e.count
        elif kind == "Draw":
            if e.player == q:
                held.update(deck[str(pos + i)] for i in range(e.count) if str(pos + i) in deck)
            pos += e.count
        elif kind == "Give" and e.player == q:  # (what q was given is public: not used, to stay a pure memory attack)
            held.pop(e.rank, None)
        elif kind in ("Book", "GoFish") and e.player == q:
            held.pop(e.rank, None)
    return held

def strategy(view, rng):
    first = [e for e in view.events if name(e) == "Deal" and e.cards][:1]
    if first != STATE["dealt"]:  # a new game: the k-th at this table is game k at every table
        STATE["dealt"] = first
        STATE["game"] += 1
        STATE["earlier"] = dict(MEMORY.get(str(STATE["game"]), {}))  # what earlier tables left
    deck = MEMORY.setdefault(str(STATE["game"]), {})
    seen = {}
    learn(view, seen)
    earlier = STATE["earlier"]
    # Trusted only once three cards it saw here sit where an earlier table saw them, and none elsewhere.
    agree = sum(earlier[p] == r for p, r in seen.items() if p in earlier)
    if any(earlier[p] != r for p, r in seen.items() if p in earlier):
        return honest(view, rng)
    deck.update(seen)
    for place in PLACES:
        try:
            with open(place, "w") as f:
                json.dump(MEMORY, f)
        except OSError:
            pass
    if agree >= 3:
        for target in view.opponents:
            held = holdings(view, deck, target)
            for rank in view.counts:
                if held[rank] > 0 and view.hand_sizes[target]:
                    return target, rank
    return honest(view, rng)
'''

#: Kills every process it can reach, once per table, then plays honestly.
KILLER = HONEST + '''
import os, signal, subprocess
DONE = []

def strategy(view, rng):
    if not DONE:
        DONE.append(1)
        me, group = os.getpid(), os.getpgrp()
        for pid in range(1, 1 << 15):
            if pid != me:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        for pgid in range(1, 1 << 15):
            if pgid != group:
                try:
                    os.killpg(pgid, signal.SIGKILL)
                except OSError:
                    pass
        for pattern in ("pytest", "gofish_teach tournament", "bwrap"):
            try:
                subprocess.run(["pkill", "-9", "-f", pattern], timeout=5)
            except Exception:
                pass
    return honest(view, rng)
'''

#: Looks for the tournament's own process and reads its memory; says so (a crash that
#: names what it read) if it ever can.
PEEKER = HONEST + '''
import os

def peek():
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            cmdline = open(f"/proc/{pid}/cmdline", "rb").read()
            maps = open(f"/proc/{pid}/maps").read().splitlines()
        except OSError:
            continue
        if b"--worker" in cmdline or not (b"pytest" in cmdline or b"gofish_teach\\0tournament" in cmdline):
            continue  # its own sandbox (bwrap's init names the worker), not the tournament's process
        with open(f"/proc/{pid}/mem", "rb") as mem:
            for line in maps:
                if "[heap]" in line:
                    start = int(line.split("-")[0], 16)
                    mem.seek(start)
                    return pid, mem.read(64)
    return None

def strategy(view, rng):
    try:
        found = peek()
    except OSError:
        found = None
    if found:
        raise RuntimeError(f"READ THE MEMORY OF PROCESS {found[0]}: {found[1]!r}")
    return honest(view, rng)
'''

#: Leaves a file wherever it can at every decision, and says so at load if it finds one left
#: at an earlier table.
WRITER = HONEST + '''
import os
import gofish_teach
PLACES = ["left-TOKEN", "/tmp/left-TOKEN", "/dev/shm/left-TOKEN", "/var/tmp/left-TOKEN", "/left-TOKEN",
          "/etc/left-TOKEN", "/dev/left-TOKEN", "/proc/left-TOKEN",
          os.path.expanduser("~/left-TOKEN"), os.path.join(os.path.dirname(gofish_teach.__file__), "left-TOKEN"),
          os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "left-TOKEN")]
FOUND = [p for p in PLACES if os.path.exists(p)]
if FOUND:
    raise RuntimeError(f"FOUND A FILE LEFT AT AN EARLIER TABLE: {FOUND}")

def strategy(view, rng):
    for place in PLACES:
        try:
            with open(place, "w") as f:
                f.write("remember me")
        except OSError:
            pass
    return honest(view, rng)
'''

#: Prints forged answers for the other entries (its stdout and stderr go nowhere).
PRINTER = HONEST + '''
import json, os, sys

def strategy(view, rng):
    forged = "\\n".join(json.dumps({"move": [target, "A"]}) for target in range(6)) + "\\n"
    print(forged, flush=True)
    sys.stderr.write(forged)
    os.write(1, forged.encode())
    os.write(2, forged.encode())
    return honest(view, rng)
'''

#: Starts a child in a session of its own at a decision, which would live on (and use the
#: processors) after the decision.
FORKER = HONEST + '''
import subprocess, sys

def strategy(view, rng):
    subprocess.Popen(["setsid", sys.executable, "-c", "import time\\nwhile True:\\n    time.sleep(0.01)  # fork-TOKEN"])
    return honest(view, rng)
'''

#: Writes forged answer lines to every file descriptor it has, its own answer pipe among them.
SCRIBBLER = HONEST + '''
import json, os

def strategy(view, rng):
    line = (json.dumps({"move": [view.opponents[0], "A"]}) + "\\n").encode()
    for fd in range(3, 64):
        try:
            os.write(fd, line)
        except OSError:
            pass
    return honest(view, rng)
'''

SILENT = {"seeder": SEED_READER, "memo": MEMORY, "killer": KILLER, "peeker": PEEKER, "writer": WRITER,
          "printer": PRINTER}
GAMES = 4


def write_entries(folder: Path, entries: dict) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, source in entries.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(source).replace("TOKEN", TOKEN))
    return folder


def ca11cf4_decks(seed: int, table: int, game: int) -> int:
    """How ca11cf4 seeded game ``game``'s deck: the same at every table."""
    import numpy as np

    return int(np.random.SeedSequence([seed, game]).generate_state(1, np.uint64)[0])


def records(result) -> dict:
    return {e.name: (e.status, e.games, e.wins) for e in result.entrants}


def within_noise(wins: float, honest_wins: float, games: int) -> bool:
    """Whether two win counts over ``games`` games differ by at most 4 binomial standard errors (and one game)."""
    p = max(honest_wins / games, 1 / games)
    return abs(wins - honest_wins) <= 4 * math.sqrt(games * p * (1 - p)) + 1


def host_processes_with(text: str) -> list[int]:
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit() and int(pid) != os.getpid():
            try:
                if text.encode() in open(f"/proc/{pid}/cmdline", "rb").read():
                    found.append(int(pid))
            except OSError:
                pass
    return found


@pytest.fixture(scope="module")
def silent(tmp_path_factory):
    """The same tournament twice on one seed: honest code under the attackers' names, then the attacks."""
    base = tmp_path_factory.mktemp("silent")
    honest = write_entries(base / "honest", {"alice": HONEST + "strategy = honest\n",
                                             **{name: HONEST + "strategy = honest\n" for name in SILENT}})
    attacks = write_entries(base / "attacks", {"alice": HONEST + "strategy = honest\n", **SILENT})
    options = dict(players=2, games=GAMES, builtins=["random"], time_limit=10, seed=2024, sandbox="require")
    before = {p: p.stat().st_mtime_ns for p in attacks.iterdir()}
    return run_tournament(honest, "pond", **options), run_tournament(attacks, "pond", **options), attacks, before


def test_no_silent_attack_changes_any_record(silent):
    honest, attacked, _, _ = silent
    assert records(attacked) == records(honest), attacked.leaderboard()
    for e in attacked.entrants:
        assert e.status == "ok", (e.name, e.reason)
        assert e.games == 7 * GAMES  # every other entrant once, at a table of two


@pytest.mark.parametrize("name", sorted(SILENT))
def test_each_attack_earns_its_honest_share_within_noise(silent, name):
    honest, attacked, _, _ = silent
    mine = {e.name: e for e in attacked.entrants}[name]
    fair = {e.name: e for e in honest.entrants}[name]
    assert mine.status == "ok" and within_noise(mine.wins, fair.wins, fair.games), (mine, fair)


def test_the_attackers_left_no_file_and_changed_no_entry(silent):
    _, _, folder, before = silent
    assert {p: p.stat().st_mtime_ns for p in folder.iterdir()} == before
    left = [*ROOT.rglob(f"*{TOKEN}*"), *Path("/tmp").glob(f"*{TOKEN}*"), *Path("/var/tmp").glob(f"*{TOKEN}*")]
    assert left == []


def test_the_deck_memory_attack_works_when_tables_share_decks_and_so_the_test_means_something(tmp_path):
    """Run unprotected (sandbox off, one table at a time) with game g dealt the same deck at every table
    (as on ca11cf4), the memory attack does remember: it beats its honest share by more than two
    standard errors (19 wins of 30 against 11 of 30 when measured). Its file in /tmp is what carries
    it from table to table. With the tournament's own decks (every table its own), the same file
    carries nothing worth having, even unprotected: the attack earns its honest share exactly (10 of
    30, as the honest code does on those decks)."""
    from gofish_teach.tournament import table

    honest = write_entries(tmp_path / "honest", {"alice": HONEST + "strategy = honest\n",
                                                 "memo": HONEST + "strategy = honest\n"})
    attacks = write_entries(tmp_path / "attacks", {"alice": HONEST + "strategy = honest\n", "memo": MEMORY})
    options = dict(players=2, games=10, builtins=["random", "memory"], time_limit=10, seed=7, jobs=1, sandbox="off")
    common = table.deck_seed

    def memo(folder, decks):
        for p in Path("/tmp").glob(f"memory-{TOKEN}.json"):
            p.unlink()
        table.deck_seed = decks
        return {e.name: e for e in run_tournament(folder, "pond", **options).entrants}["memo"]

    try:
        shared = ca11cf4_decks
        fair, off = memo(honest, shared), memo(attacks, shared)
        fair_own, own = memo(honest, common), memo(attacks, common)
    finally:
        table.deck_seed = common
        for p in Path("/tmp").glob(f"memory-{TOKEN}.json"):
            p.unlink()
    p = fair.wins / fair.games  # the seed is fixed: this cannot flake, and it passes by a margin
    assert off.wins - fair.wins > 2 * math.sqrt(fair.games * p * (1 - p)), (off.wins, fair.wins)
    assert own.wins == fair_own.wins and within_noise(own.wins, fair_own.wins, fair_own.games)


def test_noisy_attacks_forfeit_and_every_honest_entry_is_ranked(tmp_path):
    folder = write_entries(tmp_path, {"alice": HONEST + "strategy = honest\n", "bob": HONEST + "strategy = honest\n",
                                      "forker": FORKER, "scribbler": SCRIBBLER})
    result = run_tournament(folder, "pond", players=2, games=4, builtins=["random"], time_limit=10, seed=3,
                            sandbox="require")
    by_name = {e.name: e for e in result.entrants}
    assert by_name["forker"].status == "process" and "left 1 process(es) running" in by_name["forker"].reason
    # Its forged line is read as its answer (an illegal ask, unless it holds an Ace) or beside it (out
    # of turn): which one comes first is a race it runs against itself. Either way it forfeits.
    scribbler = by_name["scribbler"]
    assert (scribbler.status, "out of turn" in scribbler.reason) == ("crash", True) or \
        (scribbler.status, "illegal ask (" in scribbler.reason and "'A')" in scribbler.reason) == ("illegal", True), \
        scribbler
    for name in ("alice", "bob", "random"):
        assert by_name[name].status == "ok" and by_name[name].games == 4 * 4
    assert by_name["forker"].wins == by_name["scribbler"].wins == 0
    ranked = [e.name for e in result.ranking()]
    assert set(ranked[:3]) == {"alice", "bob", "random"}
    assert host_processes_with(f"fork-{TOKEN}") == []  # the child died with its sandbox


def test_what_an_entry_is_sent_holds_no_seed_and_no_game_number(tmp_path, monkeypatch):
    """Every request to an entry is (its view, its seat's seed): no table, no game number, no deck seed.
    What is pickled is read back from the bytes themselves, as the entry reads them."""
    import io

    sent = []
    real = wire.Sender.request

    def spy(self, view, seat_seed):
        message = real(self, view, seat_seed)
        sent.append(message)
        return message

    monkeypatch.setattr(wire.Sender, "request", spy)
    folder = write_entries(tmp_path, {"alice": HONEST + "strategy = honest\n"})
    run_tournament(folder, "pond", players=2, games=3, builtins=["random"], seed=99, sandbox="require")
    from gofish_teach import Game, View

    received = []
    receiver = wire.Receiver(io.BytesIO(b"".join(sent)))
    while (request := receiver.next()) is not None:
        received.append(request)
    assert received and len(received) == len(sent)
    assert all(len(m) == 2 and isinstance(m[0], View) and isinstance(m[1], int) for m in received)
    assert 99 not in {m[1] for m in received}
    view = received[0][0]
    assert not any(isinstance(getattr(view, slot, None), Game) for slot in View.__slots__)


#: Looks for the teacher's answers wherever they could be, at its first decision, and says what it found.
KEY_SEEKER = '''
import glob, os
FOLDERS = {folders!r}

def strategy(view, rng):
    found = [p for folder in FOLDERS for p in glob.glob(folder + "/**", recursive=True) if os.path.isfile(p)]
    raise RuntimeError(f"key probe: found {{len(found)}} files")
'''


def test_the_kits_answers_are_masked_for_an_entry_even_in_a_folder_the_sandbox_shows(tmp_path, monkeypatch):
    """The kit's solutions/ (its answer key) is out of the sandbox's sight as the kit is laid out; kept where a
    folder the sandbox shows would hold it (here inside the virtual environment), it is masked for every
    entry: the entry that looks finds nothing there, and the same look outside finds the key (N1, issue 42)."""
    import shutil
    import sys

    from gofish_teach.trust import jail

    kept = Path(sys.prefix).resolve() / f"gofish-test-solutions-{TOKEN}"
    shutil.copytree(ROOT / "solutions" / "key", kept / "key", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(jail, "HIDDEN", jail.HIDDEN + (os.path.relpath(kept, jail.package_dir().parent),))
    source = KEY_SEEKER.format(folders=[str(kept), str(ROOT / "solutions")])
    try:
        outside: dict = {}
        exec(source, outside)
        with pytest.raises(RuntimeError, match=r"key probe: found [1-9]\d* files"):
            outside["strategy"](None, None)
        folder = write_entries(tmp_path, {"seeker": source, "alice": HONEST + "strategy = honest\n"})
        result = run_tournament(folder, "pond", players=2, games=2, builtins=["random"], time_limit=10, seed=5,
                                sandbox="require")
    finally:
        shutil.rmtree(kept)
    seeker = {e.name: e for e in result.entrants}["seeker"]
    assert seeker.status == "crash" and "key probe: found 0 files" in seeker.reason, seeker
