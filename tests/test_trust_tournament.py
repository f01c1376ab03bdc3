"""The class tournament attacked again (issue 32): channels no sandbox closes, blocked pipes, odd files, hogs.

Each attack is a real entry, written as the findings describe it, and each test fails on the
tournament of ca11cf4:

- D1: an entry that writes every deck it sees into the host's page cache (which pages of a file
  of the kit's own virtual environment are cached: read with ``mincore``, set with ``pread`` and
  ``posix_fadvise``, no write access needed) and reads them back at its next tables. Game ``g``
  was dealt the same deck at every table, so it knew its opponents' cards there. Now every table
  deals its own decks: it plays exactly as the honest code does.
- D2: an entry that fills its own input pipe and stops reading stalled the whole tournament for
  ever; now it forfeits (timeout) and the tournament finishes. Ctrl-C stops a run at once.
- D5: a named pipe called ``bob.py`` hung the tournament, a folder called ``bob.py`` crashed it,
  a link called ``bob.py`` was followed; now each is skipped with a note naming it.
- D6: an entry that keeps 240 MB in its private ``/tmp`` under a 256 MB limit played on; now what
  it holds counts, and it forfeits (memory).

Every run uses the sandbox (``require``): CI installs bubblewrap.
"""
from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import sysconfig
import textwrap
import time
import uuid
from pathlib import Path

import pytest

from gofish_teach.tournament import run_tournament, table

ROOT = Path(__file__).resolve().parent.parent
TOKEN = uuid.uuid4().hex[:10]

HONEST = '''
def honest(view, rng):
    counts = view.counts
    targets = [q for q in view.opponents if view.hand_sizes[q]] or list(view.opponents)
    return targets[int(rng.integers(len(targets)))], max(counts, key=counts.get)
'''

#: D1. Remembers where each card it saw lay in the deck (its dealt cards by seat and order, its
#: draws by how many cards had left the ocean), game by game, in the page cache of CHANNEL: five
#: pages per deck position (one says "known", four the rank). It trusts what earlier tables left
#: for a game only once three positions it has seen itself agree with it and none disagrees; then
#: it asks opponents for ranks it remembers them being dealt or drawing. Untrusted, it plays honestly.
PAGECACHE = HONEST + '''
import ctypes, mmap, os
from collections import Counter

CHANNEL = "CHANNEL_PATH"
PAGE, BASE, GAMES = mmap.PAGESIZE, 4096, 12
SLOTS = GAMES * 52 * 5
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]

def bits():
    fd = os.open(CHANNEL, os.O_RDONLY)
    try:
        size = (BASE + SLOTS) * PAGE
        addr = libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
        vec = (ctypes.c_ubyte * (BASE + SLOTS))()
        libc.mincore(ctypes.c_void_p(addr), size, vec)
        libc.munmap(ctypes.c_void_p(addr), size)
        return [v & 1 for v in vec[BASE:]]
    finally:
        os.close(fd)

def recall(game, ranks):
    b, deck = bits(), {}
    for pos in range(52):
        s = (game * 52 + pos) * 5
        if b[s]:
            deck[pos] = ranks[(b[s + 1] | b[s + 2] << 1 | b[s + 3] << 2 | b[s + 4] << 3) % len(ranks)]
    return deck

def remember(game, seen, ranks):
    b, pages = bits(), []
    for pos, rank in seen.items():
        s = (game * 52 + pos) * 5
        if not b[s]:
            r = ranks.index(rank)
            pages += [s + 1 + j for j in range(4) if r >> j & 1] + [s]  # "known" last
    fd = os.open(CHANNEL, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)  # one page per read, no read-ahead
        for k in pages:
            os.pread(fd, 1, (BASE + k) * PAGE)
    finally:
        os.close(fd)

def trusted():  # says so, for the test to see, through the same channel: the page before it
    fd = os.open(CHANNEL, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)
        os.pread(fd, 1, (BASE - 1) * PAGE)
    finally:
        os.close(fd)

def name(e):
    return type(e).__name__

def seen_by_me(view):
    n, pos, seen = view.n_players, 0, {}
    for e in view.events:
        if name(e) == "Deal":
            for i, card in enumerate(e.cards or ()):
                seen[i * n + e.player] = card.rank
            pos += e.count
        elif name(e) == "Draw":
            if e.player == view.player:
                for i, card in enumerate(e.cards or ()):
                    seen[pos + i] = card.rank
            pos += e.count
    return seen

def holdings(view, deck, q):
    held, pos = Counter(), 0
    for e in view.events:
        kind = name(e)
        if kind in ("Deal", "Draw"):
            if e.player == q:
                places = [i * view.n_players + q for i in range(e.count)] if kind == "Deal" else \\
                         [pos + i for i in range(e.count)]
                held.update(deck[p] for p in places if p in deck)
            pos += e.count
        elif kind in ("Give", "Book", "GoFish") and e.player == q:
            held.pop(e.rank, None)
    return held

STATE = {"dealt": None, "game": -1, "memo": {}}

def strategy(view, rng):
    first = [e for e in view.events if name(e) == "Deal" and e.cards][:1]
    game, ranks = STATE["game"], list(view.ranks)
    if first != STATE["dealt"]:  # a new game: the k-th at this table is game k at every table
        game = STATE["game"] = STATE["game"] + 1
        STATE["dealt"] = first
        STATE["memo"] = recall(game, ranks) if game < GAMES else {}  # what earlier tables left
    if game < GAMES:
        seen, deck = seen_by_me(view), dict(STATE["memo"])
        agree = sum(deck[p] == r for p, r in seen.items() if p in deck)
        if not any(deck[p] != r for p, r in seen.items() if p in deck):
            remember(game, seen, ranks)
            if agree >= 3:
                trusted()
                deck.update(seen)
                for target in view.opponents:
                    held = holdings(view, deck, target)
                    for rank in view.counts:
                        if held[rank] > 0 and view.hand_sizes[target]:
                            return target, rank
    return honest(view, rng)
'''

#: D2. Answers its first decision through the worker's own ``send``, after filling its own input
#: pipe (reopened for writing through /proc/self/fd), and never reads again.
STALLER = HONEST + '''
import os, sys, time

def strategy(view, rng):
    move = honest(view, rng)
    frame = sys._getframe(1)
    while frame is not None and "send" not in frame.f_locals:
        frame = frame.f_back
    try:
        fds = os.listdir("/proc/self/fd")
    except OSError:
        fds = []  # no /proc (a forked sandbox): it cannot reopen its pipe, and only stops reading
    for fd in fds:
        try:
            if not os.readlink(f"/proc/self/fd/{fd}").startswith("pipe:"):
                continue
            flags = int(open(f"/proc/self/fdinfo/{fd}").read().split("flags:")[1].split()[0], 8)
            if flags & 3 != os.O_RDONLY:  # its input (the tournament's requests), not its answers
                continue
            w = os.open(f"/proc/self/fd/{fd}", os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            while True:
                os.write(w, b"x" * 4096)
        except OSError:
            pass
    frame.f_locals["send"]({"move": [int(move[0]), move[1]]})
    while True:
        time.sleep(60)
'''

#: D6. Keeps 240 MB in its private /tmp (under a limit of 256 MB for all it holds), then plays honestly.
TMP_HOG = HONEST + '''
chunk = b"x" * 2**20
try:
    with open("/tmp/hoard", "wb") as f:
        for _ in range(240):
            f.write(chunk)
except OSError:
    pass
strategy = honest
'''

#: A slow entry, for Ctrl-C: a tenth of a second per decision.
SLOW = HONEST + '''
import time

def strategy(view, rng):
    time.sleep(0.1)
    return honest(view, rng)
'''


def write_entries(folder: Path, entries: dict) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, source in entries.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(source))
    return folder


def ca11cf4_decks(seed: int, table: int, game: int) -> int:
    """How ca11cf4 seeded game ``game``'s deck: the same at every table."""
    import numpy as np

    return int(np.random.SeedSequence([seed, game]).generate_state(1, np.uint64)[0])


def within_noise(wins: float, honest_wins: float, games: int) -> bool:
    """Whether two win counts over ``games`` games differ by at most 4 binomial standard errors (and one game)."""
    p = max(honest_wins / games, 1 / games)
    return abs(wins - honest_wins) <= 4 * math.sqrt(games * p * (1 - p)) + 1


def run_cli(folder: Path, *options: str, timeout: float, env=None):
    """The tournament's command line, in a process of its own (a hang is a failed test, not a stuck run)."""
    argv = [sys.executable, "-m", "gofish_teach", "tournament", str(folder), "--sandbox", "require",
            "--plot", str(folder.parent / "board.png"), *options]
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, cwd=folder.parent, env=env)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"the tournament did not finish within {timeout} s: {e.stderr!r}")


def leaderboard_names(text: str) -> dict:
    """``{name: "ok" or "forfeited"}`` from the leaderboard's table, as the command line prints it."""
    rows = {}
    for line in text.splitlines()[2:]:
        words = line.split()
        if not words or not (words[0].isdigit() or words[0] == "-"):
            break
        rows[words[1]] = "ok" if words[0].isdigit() else "forfeited"
    return rows


def processes_with(text: str) -> list[int]:
    """Processes whose command line holds ``text``, or whose name (an entry's process is named after its
    file, 15 bytes of it) holds its first 6 characters."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            named = text.encode() in open(f"/proc/{pid}/cmdline", "rb").read() or \
                text[:6].encode() in open(f"/proc/{pid}/comm", "rb").read()
        except OSError:
            continue
        if named and int(pid) != os.getpid():
            found.append(int(pid))
    return found


# --------------------------------------------------------------------------- D1: the page cache
def channel_file() -> Path:
    """A file of the virtual environment (which every sandbox reads) that no process maps or reads.

    Written here for the test, not one of the venv's own: any of those may be mapped by a process that
    outlives a test (the largest was Playwright's ``node``, running for the browser tests), and a page a
    process maps stays in the page cache whatever a test asks, which read as a message on CI."""
    path = Path(sysconfig.get_paths()["purelib"], "gofish-teach-test-channel.bin")  # inside what a sandbox reads
    path.parent.mkdir(parents=True, exist_ok=True)
    size = (4096 + 12 * 52 * 5) * os.sysconf("SC_PAGE_SIZE")
    with open(path, "wb") as f:
        f.truncate(size)
        f.write(b"\0" * size)  # real blocks: a hole is no page to cache
    return path


def clear(path: Path) -> None:
    """Empty the channel: none of the file's pages in the page cache (the run before leaves none behind)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        # A venv just installed (as on CI) may still hold the file's pages dirty, and the kernel drops
        # only clean pages: write them back first, so "cached" means read by a tournament's process.
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)
    assert not _mincore(path, TRUSTED), f"the page cache kept page {TRUSTED} of {path}: no channel to test"


#: The page of the channel's file the memo reads in when it trusts what an earlier table left.
TRUSTED = 4095


def _mincore(path: Path, page: int) -> bool:
    """Whether page ``page`` of ``path`` is in the page cache, as the entry itself reads it."""
    import ctypes
    import mmap

    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
    libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    fd = os.open(path, os.O_RDONLY)
    try:
        size = (page + 1) * mmap.PAGESIZE
        address = libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
        vec = (ctypes.c_ubyte * (page + 1))()
        assert libc.mincore(ctypes.c_void_p(address), size, vec) == 0
        libc.munmap(ctypes.c_void_p(address), size)
        return bool(vec[page] & 1)
    finally:
        os.close(fd)


@pytest.fixture(scope="module")
def memo(tmp_path_factory):
    """One seed, one table at a time: the honest code under the memo's name, the page-cache memo, and the
    memo with the decks shared between tables as they were on ca11cf4 (game g the same deck at every table)."""
    path = channel_file()
    attack = PAGECACHE.replace("CHANNEL_PATH", str(path))
    base = tmp_path_factory.mktemp("memo")
    honest = write_entries(base / "honest", {"alice": HONEST + "strategy = honest\n",
                                             "memo": HONEST + "strategy = honest\n"})
    attacks = write_entries(base / "attacks", {"alice": HONEST + "strategy = honest\n", "memo": attack})
    options = dict(players=2, games=8, builtins=["random"], time_limit=10, seed=5, jobs=1, sandbox="require")
    runs = {}
    common = table.deck_seed
    try:
        for key, folder, decks in (("honest", honest, common), ("attack", attacks, common),
                                   ("attack, common decks", attacks, ca11cf4_decks)):
            clear(path)
            table.deck_seed = decks
            runs[key] = {e.name: e for e in run_tournament(folder, "pond", **options).entrants}
            runs[key + ": trusted"] = _mincore(path, TRUSTED)
    finally:
        table.deck_seed = common
        path.unlink()
    return runs


def test_the_page_cache_memo_earns_its_honest_share(memo):
    """Fails on ca11cf4: the memo recognised game g's deck at its next table, and played on what it
    remembered. Here it never does, and every record is the honest one."""
    honest, attack = memo["honest"], memo["attack"]
    assert not memo["attack: trusted"], "a deck of another table agreed with what the entry saw here"
    assert {n: (e.status, e.games, e.wins) for n, e in attack.items()} == \
        {n: (e.status, e.games, e.wins) for n, e in honest.items()}
    mine, fair = attack["memo"], honest["memo"]
    assert within_noise(mine.wins, fair.wins, fair.games), (mine.wins, fair.wins, fair.games)


def test_the_page_cache_carries_decks_through_the_sandbox_when_tables_share_them(memo):
    """So the test above means something: with common decks the same entry, in the same sandbox,
    recognises a deck it wrote at an earlier table (it says so through the channel) and plays on it."""
    assert memo["attack, common decks: trusted"]
    records = {n: (e.status, e.games, e.wins) for n, e in memo["attack, common decks"].items()}
    assert records["memo"][0] == "ok"


def test_no_two_tables_share_a_deck():
    decks = {table.deck_seed(7, t, g) for t in range(50) for g in range(20)}
    assert len(decks) == 50 * 20


# --------------------------------------------------------------------------- D2: a blocked pipe, and Ctrl-C
@pytest.mark.parametrize("forked", [True, False], ids=["forked", "one bubblewrap each"])
def test_an_entry_that_stops_reading_forfeits_and_the_tournament_finishes(tmp_path, forked):
    """On ca11cf4 the tournament waited for ever on a blocking write to the entry's full pipe. Forked
    (the default), the entry has no /proc to reopen its pipe through: it is stopped for not answering."""
    folder = write_entries(tmp_path / "entries", {"alice": HONEST + "strategy = honest\n",
                                                  f"stall_{TOKEN}": STALLER})
    env = dict(os.environ, GOFISH_FORKSERVER="1" if forked else "0")
    run = run_cli(folder, "--players", "2", "--games", "2", "--builtins", "random", "--seed", "1",
                  "--time-limit", "2", timeout=180, env=env)
    assert run.returncode == 0, run.stderr
    words = ("no answer within the time limit of 2 s for one decision" if forked else
             "it did not take the tournament's request within the time limit of 2 s")
    assert f"stall_{TOKEN} forfeits its 4 games: {words}" in run.stdout, run.stdout
    assert leaderboard_names(run.stdout) == {"alice": "ok", "random": "ok", f"stall_{TOKEN}": "forfeited"}
    assert processes_with(f"stall_{TOKEN}") == []


def test_a_write_to_a_pipe_nobody_reads_stops_at_its_deadline():
    """The kit's write: a reader that stops reading cannot block the writer past its deadline."""
    import time as clock

    from gofish_teach.trust import child

    read, write = os.pipe()
    os.set_blocking(write, False)
    start = clock.monotonic()
    with pytest.raises(child.Deadline):
        child.write_all(write, b"x" * (1 << 20), start + 0.3)
    assert clock.monotonic() - start < 5
    os.close(read)
    with pytest.raises(child.Closed):
        child.write_all(write, b"x" * (1 << 20), clock.monotonic() + 1)
    os.close(write)


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL], ids=["Ctrl-C", "killed"])
def test_ctrl_c_stops_the_run_at_once_with_a_clear_message(tmp_path, how):
    """On ca11cf4 Ctrl-C printed a traceback and waited for every running table to end. Killed outright,
    the tournament leaves no entry running either (every sandbox dies with it)."""
    folder = write_entries(tmp_path / "slow", {f"{name}_{TOKEN}": SLOW for name in ("ana", "ben", "cy")})
    proc = subprocess.Popen([sys.executable, "-m", "gofish_teach", "tournament", str(folder), "--players", "2",
                             "--games", "200", "--sandbox", "require", "--time-limit", "5", "--plot",
                             str(tmp_path / "board.png")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 120
        while len(processes_with(TOKEN)) < 3 and time.monotonic() < deadline:
            time.sleep(0.2)  # until the entries' sandboxes run
        assert proc.poll() is None and processes_with(TOKEN), "the tournament did not start"
        time.sleep(1)
        proc.send_signal(how)
        sent = time.monotonic()
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    if how == signal.SIGINT:
        assert proc.returncode == 130, (proc.returncode, err)
        assert "tournament: stopped (Ctrl-C) after " in err and "no leaderboard" in err, err
        assert "Traceback" not in err, err
        assert took < 15, took  # at once: not after the tables in play have ended (no timing is measured finer)
    deadline = time.monotonic() + 10
    while processes_with(TOKEN) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_with(TOKEN) == []


# --------------------------------------------------------------------------- D5 and D6: odd files, a /tmp hog
def test_pipes_folders_and_links_named_like_entries_are_skipped_with_a_note(tmp_path):
    """On ca11cf4 the pipe hung the tournament, the folder crashed it, and the links were followed."""
    folder = write_entries(tmp_path / "entries", {"alice": HONEST + "strategy = honest\n"})
    elsewhere = write_entries(tmp_path / "elsewhere", {"strong": HONEST + "strategy = honest\n"})
    secret = tmp_path / "secret.txt"
    secret.write_text(f"SECRET-{TOKEN}\n")
    os.mkfifo(folder / "fifo.py")
    (folder / "folder.py").mkdir()
    (folder / "linked.py").symlink_to(elsewhere / "strong.py")
    (folder / "peek.py").symlink_to(secret)
    run = run_cli(folder, "--players", "2", "--games", "1", "--builtins", "random", "--seed", "1", timeout=120)
    assert run.returncode == 0, run.stderr
    for note in ("Not an entry: skipped fifo.py: a named pipe (FIFO), not a plain file.",
                 "Not an entry: skipped folder.py: a folder, not a plain file.",
                 "Not an entry: skipped linked.py: a symbolic link, not a plain file.",
                 "Not an entry: skipped peek.py: a symbolic link, not a plain file."):
        assert note in run.stdout, run.stdout
    assert leaderboard_names(run.stdout) == {"alice": "ok", "random": "ok"}, run.stdout
    assert "SECRET" not in run.stdout + run.stderr


def test_an_entry_that_hoards_its_tmp_forfeits_for_memory(tmp_path):
    """On ca11cf4 /tmp counted against no limit: an entry held 2.7 GB there under --memory-mb 1024."""
    folder = write_entries(tmp_path, {"alice": HONEST + "strategy = honest\n", "hog": TMP_HOG})
    result = run_tournament(folder, "pond", players=2, games=1, builtins=["random"], memory_mb=256, time_limit=10,
                            seed=2, sandbox="require")
    by_name = {e.name: e for e in result.entrants}
    assert by_name["hog"].status == "memory", by_name["hog"]
    assert "held more than its memory limit of 256 MB" in by_name["hog"].reason
    assert by_name["alice"].status == by_name["random"].status == "ok"
