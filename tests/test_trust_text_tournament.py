"""The tournament reads learners' text as data (issue 42: N7, N12, N13), each attack entered as a learner would.

One tournament, sandboxed: an entry named with mathtext (N7), an entry whose exception clears the
teacher's screen and writes a "champion" line, a link whose name carries an escape (N12), and
look-alike entries beside honest classmates and beside a built-in's label (N13). Each test also
checks that its attack ran: the name reached the leaderboard and the plot, the exception reached
the forfeit's reason, the look-alikes were found.

On 457bed9 the mathtext name stopped the command after the leaderboard (exit 2, no plot), the
escapes reached the terminal, and each look-alike was an entrant of its own, printed like the
classmate or the built-in it imitates.
"""
from __future__ import annotations

import io
import textwrap

import pytest

from gofish_teach.tournament import run_tournament

HONEST = "def strategy(view, rng):\n    return view.legal_asks()[0]\n"
IMPOSTOR = "def strategy(view, rng):\n    raise RuntimeError('the impostor played')\n"
MATHTEXT = "mm$\\fishy$"
#: N12: an exception that clears the screen, goes home and draws a leaderboard line of its own.
CHAMPION = "1 mallory learner 24 1.000 [0.862, 1.000] the class champion"  # one space apart: reasons are one line
ESCAPE = "\x1b[2J\x1b[H"
RAISER = f"raise RuntimeError({ESCAPE + CHAMPION!r})\n"
LINK = "\x1b[2Jlink.py"
#: N13: look-alikes of honest names and of a built-in's label, and what each prints as.
LOOK_ALIKES = {"ana\u200b": "ana", "zed ": "zed", "memory (built-in)": "memory (built-in)"}


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    folder = tmp_path_factory.mktemp("strategies")
    for name in ("ana", "zed", "memory", MATHTEXT):
        (folder / f"{name}.py").write_text(HONEST)
    for name in LOOK_ALIKES:
        (folder / f"{name}.py").write_text(IMPOSTOR)
    (folder / "mallory.py").write_text(RAISER)
    (folder / LINK).symlink_to(folder / "ana.py")
    result = run_tournament(folder, "pond", players=2, games=2, builtins=["random", "memory"], time_limit=2,
                            memory_mb=1024, sandbox="require")
    board = result.leaderboard()
    print(board)
    return result, board


def test_look_alike_entries_are_refused_and_every_row_prints_apart(played):
    """N13: ``ana`` + a zero-width space, ``zed `` and a learner's ``memory (built-in).py``: each skipped with a
    note; the honest ``ana``, ``zed`` and ``memory`` and the built-in ``memory`` keep one row each."""
    result, board = played
    names = [e.name for e in result.entrants]
    assert sorted(names) == sorted(["ana", "zed", "memory", MATHTEXT, "mallory", "random", "memory (built-in)"])
    kinds = {e.name: (e.kind, e.path.name if e.path else None, e.status) for e in result.entrants}
    assert kinds["ana"] == ("learner", "ana.py", "ok") and kinds["zed"] == ("learner", "zed.py", "ok")
    assert kinds["memory"] == ("learner", "memory.py", "ok") and kinds["memory (built-in)"][0] == "builtin"
    assert 'skipped "ana\\u200b.py": it prints as "ana", as another name does' in board  # the attack was found
    assert 'skipped "zed .py": it prints as "zed", as another name does' in board
    assert "skipped \"memory (built-in).py\": it is a built-in's label" in board
    assert "the impostor played" not in board


def test_escapes_in_a_forfeit_reason_and_a_file_name_are_shown_not_obeyed(played):
    """N12: the exception's escapes and its "champion" line are in the forfeit's reason, written out; the
    link's name in its note too; the leaderboard holds no control character."""
    result, board = played
    mallory = next(e for e in result.entrants if e.name == "mallory")
    assert mallory.status == "crash" and ESCAPE + CHAMPION in mallory.reason  # the attack reached the reason
    assert "\\x1b[2J\\x1b[H" + CHAMPION in board
    assert "skipped \\x1b[2Jlink.py: a symbolic link" in board
    assert not any(ch in board for ch in "\x1b\r\x07\x08")
    assert not any(line.startswith(CHAMPION) for line in board.splitlines())


def test_a_name_with_mathtext_is_drawn_as_typed(played, tmp_path):
    """N7: ``mm$\\fishy$`` is a tick label of the plot, as typed, and the plot is written."""
    result, board = played
    assert MATHTEXT in board
    ax = result.plot(tmp_path / "t.png")
    labels = [t for t in ax.get_yticklabels() if t.get_text() == MATHTEXT]
    assert len(labels) == 1 and not labels[0].get_parse_math()
    assert (tmp_path / "t.png").stat().st_size > 1000


def test_the_command_line_plots_a_mathtext_name_and_exits_0(tmp_path):
    """N7: on 457bed9 the leaderboard printed, then ``$\\fishy$`` stopped the plot: exit 2, no file."""
    from gofish_teach.__main__ import main

    folder = tmp_path / "entries"
    folder.mkdir()
    (folder / f"{MATHTEXT}.py").write_text(HONEST)
    (folder / "ana.py").write_text(textwrap.dedent(HONEST))
    out, plot = io.StringIO(), tmp_path / "t.png"
    assert main(["tournament", str(folder), "--players", "2", "--games", "2", "--builtins", "random",
                 "--sandbox", "require", "--plot", str(plot)], out=out) == 0
    assert MATHTEXT in out.getvalue() and f"Plot: {plot}" in out.getvalue()
    assert plot.stat().st_size > 1000
