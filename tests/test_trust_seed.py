"""Issue 42, N5: no secret on the leaderboard.

On main at 457bed9 the leaderboard printed the tournament's seed and the README said to rerun with
it; an entry that knew it (the last run's printed seed, or a small one such as ``--seed 777``)
recognised its table and game from its seat's generator, rebuilt the deck and won 0.986-0.988 of
its games. Now the decks are drawn from a 128-bit secret (:mod:`gofish_teach.tournament.secret`): a
fresh one, or the teacher's ``--seed`` mixed with a key only the teacher's account can read; it is
kept in a file readable by the teacher only, never printed, and ``--replay FILE`` plays the same
tournament again.

The attack is a real entry, the seer: at load it works out, for every seed it knows (777, the small
ones, and in the control run the real secret), every table and game it could be at, the first state
of its seat's generator; at each game it looks its own generator's state up, and when it finds it,
rebuilds the deck (the kit's own ``deck_seed``), replays the game so far and asks each opponent for a
rank it holds. With the real secret it wins nearly every game (so the attack works, and knowing the
secret is all it needs); with 777 and the small seeds it never finds its game and plays at random:
its share is within noise of the ``random`` built-in it faces (the 99% Wilson interval of its share
holds 1/2).
"""
from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

from gofish_teach.stats import wilson_interval

GAMES = 200

SEER = '''
import numpy as np
from gofish_teach import Ask, Game
from gofish_teach.strategies import seat_rngs
from gofish_teach.tournament.table import deck_seed

CANDIDATES = CANDIDATES_HERE
TABLES, GAMES, SEATS = 1, GAMES_HERE, 2
KNOWN = {}
for s in CANDIDATES:
    for t in range(TABLES):
        seeds = [int(x) for g in range(GAMES) for x in np.random.SeedSequence([s, t, g]).generate_state(SEATS, np.uint64)]
        for i, rng in enumerate(seat_rngs(seeds)):
            KNOWN[rng.bit_generator.state["state"]["state"]] = (s, t, i // SEATS, i % SEATS)
FOUND = {}

def strategy(view, rng):
    key = id(rng)
    if key not in FOUND:  # a new game: a fresh generator, not drawn from yet
        FOUND.clear()
        FOUND[key] = KNOWN.get(rng.bit_generator.state["state"]["state"])
    found = FOUND[key]
    if found is not None and found[3] == view.player:
        s, t, g, _ = found
        game = Game(view.rules, view.n_players, seed=deck_seed(s, t, g))
        for e in view.events:
            if isinstance(e, Ask):
                game.ask(e.target, e.rank)
        for target, rank in view.legal_asks():
            if game.count(target, rank):
                return target, rank
    asks = view.legal_asks()
    return asks[int(rng.integers(len(asks)))]
'''


def run(folder: Path, *options: str, env: dict) -> subprocess.CompletedProcess:
    argv = [sys.executable, "-m", "gofish_teach", "tournament", str(folder), "--players", "2", "--games",
            str(GAMES), "--builtins", "random", "--time-limit", "5", "--plot", str(folder.parent / "board.png"),
            *options]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=900, cwd=folder.parent, env=env)
    assert done.returncode == 0, done.stderr
    return done


def share(stdout: str, name: str) -> float:
    row = next(line for line in stdout.splitlines() if re.match(rf"\d+\s+{name}\s", line))
    return float(row.split()[4])


def seer(folder: Path, candidates: list[int]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    source = SEER.replace("CANDIDATES_HERE", repr(candidates)).replace("GAMES_HERE", str(GAMES))
    (folder / "seer.py").write_text(textwrap.dedent(source))
    return folder


def test_an_entry_that_knows_a_small_or_printed_seed_scores_as_random_does(tmp_path):
    import os

    key = tmp_path / "key"
    key.write_text("ab" * 32 + "\n")  # a fixed key: this test's decks are the same on every machine
    env = dict(os.environ, GOFISH_TOURNAMENT_KEY=str(key))
    small = [777, *range(50)]
    guessed = run(seer(tmp_path / "guess", small), "--seed", "777", "--seed-file", str(tmp_path / "seed.txt"), env=env)
    secret = int((tmp_path / "seed.txt").read_text())
    assert oct((tmp_path / "seed.txt").stat().st_mode & 0o777) == "0o600"
    # Nothing on the leaderboard tells the seed: not the secret, not 777, not the word.
    assert str(secret) not in guessed.stdout + guessed.stderr and "777" not in guessed.stdout + guessed.stderr
    assert "seed" not in guessed.stdout.splitlines()[0].lower(), guessed.stdout
    # The control: the same entry, told the real secret, on the same decks (--replay), wins nearly every game.
    knowing = run(seer(tmp_path / "know", [secret]), "--replay", str(tmp_path / "seed.txt"), "--seed-file",
                  str(tmp_path / "seed2.txt"), env=env)
    assert (tmp_path / "seed2.txt").read_text() == (tmp_path / "seed.txt").read_text()
    guessing, knows = share(guessed.stdout, "seer"), share(knowing.stdout, "seer")
    low, high = wilson_interval(guessing * GAMES, GAMES, 0.99)
    print(f"seer's share: {guessing:.3f} (99% interval [{low:.3f}, {high:.3f}]) knowing 777 and 0-49; "
          f"{knows:.3f} knowing the secret")
    assert knows > max(0.8, high), knowing.stdout  # far beyond the noise of a guess
    assert low <= 0.5 <= high, guessed.stdout


def test_the_same_seed_plays_the_same_tournament_and_replay_plays_it_anywhere(tmp_path):
    """--seed N repeats on this account (its key); --replay FILE repeats with no key at all."""
    import os

    folder = tmp_path / "entries"
    folder.mkdir()
    (folder / "ana.py").write_text("def strategy(view, rng):\n    asks = view.legal_asks()\n"
                                   "    return asks[int(rng.integers(len(asks)))]\n")
    env = dict(os.environ, GOFISH_TOURNAMENT_KEY=str(tmp_path / "key"))
    board = lambda done: done.stdout.split("Plot:")[0]  # noqa: E731
    first = run(folder, "--seed", "5", "--seed-file", str(tmp_path / "one.txt"), env=env)
    again = run(folder, "--seed", "5", "--seed-file", str(tmp_path / "two.txt"), env=env)
    assert board(first) == board(again) and (tmp_path / "one.txt").read_text() == (tmp_path / "two.txt").read_text()
    other_account = dict(env, GOFISH_TOURNAMENT_KEY=str(tmp_path / "another-key"))
    elsewhere = run(folder, "--replay", str(tmp_path / "one.txt"), "--seed-file", str(tmp_path / "three.txt"),
                    env=other_account)
    assert board(elsewhere) == board(first)
    fresh = run(folder, "--seed-file", str(tmp_path / "four.txt"), env=env)
    assert (tmp_path / "four.txt").read_text() != (tmp_path / "one.txt").read_text()
    assert int((tmp_path / "four.txt").read_text()) < 2**128 and oct((tmp_path / "key").stat().st_mode & 0o777) \
        == "0o600"
    assert "Plot:" in fresh.stdout
