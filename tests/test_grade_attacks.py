"""Learners who cheat or break things, graded in one run: each earns nothing it did not solve.

Every trick here was reproduced against an earlier grader (issue 14). They run with
``sandbox="require"``: CI installs bubblewrap.
"""
from __future__ import annotations

import io
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gofish_teach import trust
from gofish_teach.exercises import EXERCISES, get_exercise, load_key
from gofish_teach.grade import grade
from pasted_install import PASTED_INSTALL

ROOT = Path(__file__).resolve().parents[1]
KEY = ROOT / "solutions" / "key"
STUB_DEAL = "def deal(deck, n_players, hand_size):\n    raise NotImplementedError"
GOOD_GIVE = ("def give(asker_hand, target_hand, rank):\n"
             "    given = [c for c in target_hand if c[:-1] == rank]\n"
             "    return asker_hand + given, [c for c in target_hand if c[:-1] != rank]\n")


def notebook(path: Path, exercise: str, *cells: str) -> Path:
    items = [{"cell_type": "code", "metadata": {}, "source": c, "outputs": [], "execution_count": None} for c in cells]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"cells": items, "metadata": {"gofish_teach": {"exercise": exercise}},
                                "nbformat": 4, "nbformat_minor": 5}))
    return path


def _public_table(exercise: str) -> str:
    """A lookup table of the public cases, as a learner could copy it from the notebook's check output."""
    ex = get_exercise(exercise)
    table = {repr(c.args): c.expected for c in ex.cases()}
    return f"TABLE = {table!r}\n"


#: The hidden cases' seed, fixed so that a lookup table cannot match a hidden case by luck: a
#: random hand may be empty, and an empty hand's answer, no ask, is in the public table too.
HIDDEN_SEED = 20261201


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    folder = tmp_path_factory.mktemp("class")
    sub = folder / "submissions"
    # Cheats
    notebook(sub / "patcher" / "01-deal.ipynb", "01-deal", STUB_DEAL, """
import gofish_teach.exercises.checking as checking, gofish_teach.exercises.game_logic as gl
import gofish_teach.exercises.plain as plain
checking.Exercise.judge = lambda self, case, value: (True, "")
checking.Report.passed = property(lambda self: self.total)
gl.Deal.compare = lambda self, expected, returned: (True, "")
plain.decode = lambda data: data
""")
    notebook(sub / "liar" / "03-give.ipynb", "03-give", """
class Liar(tuple):
    def __eq__(self, other):
        return True
    __hash__ = tuple.__hash__
def give(asker_hand, target_hand, rank):
    return Liar((asker_hand, target_hand))
""")
    notebook(sub / "liar2" / "01-deal.ipynb", "01-deal", """
class Anything:
    def __eq__(self, other):
        return True
def deal(deck, n_players, hand_size):
    return Anything()
""")
    notebook(sub / "nan" / "10-experiment.ipynb", "10-experiment",
             "def experiment(strategy, opponent, games, seed):\n    return float('nan'), float('nan'), float('nan')")
    notebook(sub / "npnan" / "10-experiment.ipynb", "10-experiment",
             "import numpy as np\ndef experiment(strategy, opponent, games, seed):\n    return (np.nan,) * 3")
    notebook(sub / "importer" / "01-deal.ipynb", "01-deal", f"""
import sys
try:
    from gofish_teach.exercises.answers import deal_reference as deal   # where the answers were on 457bed9
except ImportError:
    sys.path.insert(0, {str(KEY.parent)!r})
    from key.exercises import deal_reference as deal                    # the teacher's key
""")
    notebook(sub / "pyc" / "01-deal.ipynb", "01-deal", f"""
import glob, importlib.util, marshal
for p in glob.glob({str(ROOT / 'gofish_teach' / 'exercises' / '__pycache__' / 'answers*.pyc')!r}) + \
        glob.glob({str(KEY / '__pycache__' / 'exercises*.pyc')!r}):
    code = marshal.loads(open(p, 'rb').read()[16:])
    ns = {{'__name__': 'key.exercises'}}
    exec(code, ns)
    deal = ns['deal_reference']
""")
    notebook(sub / "reader" / "01-deal.ipynb", "01-deal", STUB_DEAL, f"""
import json
for path in [{str(ROOT / 'solutions' / '01-deal.ipynb')!r}, {str(ROOT / 'gofish_teach' / 'exercises' / 'answers.py')!r},
             {str(KEY / 'exercises.py')!r}]:
    try:
        source = open(path).read()
    except OSError:
        continue
    if path.endswith('.ipynb'):
        source = next(''.join(c['source']) for c in json.loads(source)['cells'] if 'solution' in c['metadata'].get('tags', []))
        exec(source)
    else:
        ns = {{}}
        exec(source.split('def deal_reference')[0].split('from ')[0] + 'def deal_reference' +
             source.split('def deal_reference')[1].split('def legal_asks_reference')[0], ns)
        deal = ns['deal_reference']
""")
    # N1 (issue 42): answers looked up in everything the installed package ships.
    notebook(sub / "pasted" / "01-deal.ipynb", "01-deal", PASTED_INSTALL +
             "def deal(deck, n_players, hand_size):\n    return pasted_install_answer('deal', (deck, n_players, hand_size), {})")
    notebook(sub / "lookup" / "01-deal.ipynb", "01-deal", _public_table("01-deal") +
             "def deal(deck, n_players, hand_size):\n    return TABLE[repr((deck, n_players, hand_size))]")
    public_02 = [c.expected for c in get_exercise("02").cases()]
    # Forged result lines, on every descriptor, for this notebook's cases and for the stub beside it.
    forge = f"""
import json, os
answers = {public_02!r}
for fd in range(1, 64):
    for case in range(40):
        value = [list(a) for a in answers[case % len(answers)]]
        for line in [{{"case": case, "status": "ok", "value": value}}, {{"n": 1, "case": case, "status": "ok", "value": value}}]:
            try:
                os.write(fd, (json.dumps(line) + "\\n").encode())
            except OSError:
                pass
"""
    notebook(sub / "forger" / "02-legal-asks.ipynb", "02-legal-asks",
             "def legal_asks(hand, me, n_players):\n    raise NotImplementedError", forge)
    notebook(sub / "forger" / "01-deal.ipynb", "01-deal", STUB_DEAL, forge)
    # Harm to others
    victim = sub / "victim" / "03-give.ipynb"
    notebook(sub / "overwriter" / "03-give.ipynb", "03-give", f"""
import json, os, glob
for path in [{str(victim)!r}] + glob.glob({str(sub)!r} + '/*/*.ipynb') + glob.glob('../*/*.ipynb'):
    try:
        open(path, 'w').write('{{}}')
    except OSError:
        pass
""" + GOOD_GIVE.replace("return asker_hand", "return []  # wrong\n    return asker_hand"))
    notebook(victim, "03-give", GOOD_GIVE)
    notebook(sub / "killer" / "03-give.ipynb", "03-give", """
import os, signal
signalled = 0
for pid in range(1, 5000):
    if pid != os.getpid():
        try:
            os.kill(pid, signal.SIGKILL)
            signalled += 1
        except OSError:
            pass
try:
    os.kill(-1, signal.SIGKILL)
except OSError:
    pass
""", GOOD_GIVE + """
_give = give
def give(asker_hand, target_hand, rank):
    if not signalled:  # the attack must have run for this notebook to pass
        raise RuntimeError("the killer signalled no process")
    return _give(asker_hand, target_hand, rank)
""")
    notebook(sub / "lingerer" / "03-give.ipynb", "03-give",
             "import subprocess\nsubprocess.Popen(['setsid', 'sleep', '600'])", GOOD_GIVE)
    notebook(sub / "exiter" / "03-give.ipynb", "03-give", "import os\nos._exit(0)", GOOD_GIVE)
    (sub / "empty").mkdir()
    (sub / "notes").mkdir()
    (sub / "notes" / "thoughts.txt").write_text("I did not do the work")
    out, log = io.StringIO(), io.StringIO()
    start = time.monotonic()
    rows = grade(sub, out=out, log=log, time_limit=120, cell_time_limit=30, sandbox="require", workers=2,
                 exercises=["01", "02", "03", "10"], hidden_seed=HIDDEN_SEED)
    seconds = time.monotonic() - start
    return {(r.submission, r.exercise): r for r in rows}, log.getvalue(), seconds, sub


def earned(rows, who, exercise):
    r = rows[who, exercise]
    return r.passed, r.hidden_passed


@pytest.mark.parametrize("who, exercise", [("patcher", "01-deal"), ("liar", "03-give"), ("liar2", "01-deal"),
                                           ("nan", "10-experiment"), ("npnan", "10-experiment"),
                                           ("importer", "01-deal"), ("pyc", "01-deal"), ("reader", "01-deal")])
def test_a_cheat_earns_nothing(attacked, who, exercise):
    rows = attacked[0]
    assert earned(rows, who, exercise) == (0, 0), rows[who, exercise]


def test_the_pasted_install_finds_the_public_answers_and_earns_no_hidden_case(attacked):
    """N1: on 457bed9 a learner pasted the answers.py of their own install into the notebook and earned
    every hidden case. Now what an install ships (read here inside the sandbox, as a learner would copy
    it) holds the public answers only: the attack finds each (6 of 6, from nothing else) and no hidden one."""
    row = attacked[0]["pasted", "01-deal"]
    assert (row.passed, row.total, row.status) == (6, 6, "ok"), row
    assert row.hidden_passed == 0 and row.hidden_total == 6, row


def test_a_lookup_table_of_the_public_cases_earns_only_the_public_marks(attacked):
    row = attacked[0]["lookup", "01-deal"]
    assert (row.passed, row.total) == (6, 6)
    assert row.hidden_passed == 0 and row.hidden_total == 6


def test_forged_lines_earn_nothing_for_the_stub_beside_them_or_the_hidden_cases(attacked):
    rows = attacked[0]
    assert earned(rows, "forger", "01-deal") == (0, 0)
    forged = rows["forger", "02-legal-asks"]
    # Its own public answers were printed in the notebook for all to see; a forged line for them
    # is a lookup table. The hidden cases' answers are unknown to it (and, with this seed, no
    # hidden answer happens to be the public one its line for that case repeats).
    public = [c.expected for c in get_exercise("02").cases()]
    hidden = load_key().hidden_cases(get_exercise("02"), HIDDEN_SEED)
    assert all(case.expected != public[k % len(public)] for k, case in enumerate(hidden))
    assert forged.hidden_passed == 0


def test_no_submission_harms_another(attacked):
    rows, log, seconds, sub = attacked
    assert (rows["victim", "03-give"].passed, rows["victim", "03-give"].status) == (6, "ok")
    assert json.loads((sub / "victim" / "03-give.ipynb").read_text())["cells"], "the victim's file was changed"
    # The killer could see and kill only its own sandbox's processes, and everyone graded alongside it
    # (two at a time) went on. Where a cgroup holds each notebook, its grader watches from outside the
    # sandbox: the killer signalled what it could see (its give raises otherwise) and was graded all
    # the same. Without one, it killed its own grading: its own row is an error.
    killer = rows["killer", "03-give"]
    if trust.cgroups_available():
        assert (killer.status, killer.passed) == ("ok", 6), killer
    else:
        assert killer.status == "error", killer
    assert rows["lingerer", "03-give"].status == "ok" and rows["lookup", "01-deal"].passed == 6
    assert rows["lingerer", "03-give"].passed == 6
    assert seconds < 600, "a lingering child stalled the run"


def test_every_submission_gets_a_row_per_expected_exercise_with_a_reason(attacked):
    rows, log, _, _ = attacked
    names = {who for who, _ in rows}
    assert {"empty", "notes"} <= names
    for who in names:
        assert {ex for w, ex in rows if w == who} == {"01-deal", "02-legal-asks", "03-give", "10-experiment"}
    assert rows["empty", "01-deal"].status == "missing"
    assert "empty: no exercise notebook found" in log and "notes: no exercise notebook found" in log
    assert rows["exiter", "03-give"].status == "error"
    assert "exiter: 03-give: error: the grading process ended (exit status 0)" in log


def test_the_solutions_graded_from_the_root_get_full_marks(tmp_path):
    """`grade solutions` from the repository root gave all eleven solutions (there were eleven) 0 once."""
    done = subprocess.run([sys.executable, "-m", "gofish_teach", "grade", "solutions", "--sandbox", "require",
                           "--workers", "2"], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    rows = [line.split(",") for line in done.stdout.splitlines()[1:]]
    assert len(rows) == len(EXERCISES) == 12
    assert all(r[2] == r[3] and r[4] == "ok" and r[5] == r[6] for r in rows), done.stdout


@pytest.mark.parametrize("option, value, message", [
    ("--time-limit", "inf", "--time-limit must be a positive, finite number"),
    ("--time-limit", "nan", "--time-limit must be a positive, finite number"),
    ("--memory-mb", "-5", "--memory-mb must be a positive, finite number"),
    ("--workers", "0", "--workers must be a positive, finite number"),
    ("--cell-time-limit", "-1", "--cell-time-limit must be a positive, finite number"),
])
def test_bad_options_are_refused_with_a_message_naming_them(tmp_path, option, value, message):
    done = subprocess.run([sys.executable, "-m", "gofish_teach", "grade", str(tmp_path), option, value],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr, done.stderr


#: Looks for the answer key in every place it could be, inside the sandbox, and says what it found.
KEY_PROBE = """
import glob, importlib.util, os
found, imported, folders = [], [], {folders!r}
for folder in folders:
    for path in glob.glob(folder + '/**', recursive=True):
        if os.path.isfile(path):
            found.append(path)
    try:
        spec = importlib.util.spec_from_file_location('k', folder + '/exercises.py')
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        imported.append(module.deal_reference.__name__)
    except Exception:
        pass
raise RuntimeError(f'key probe: looked in {{len(folders)}} folders, found {{len(found)}} files, imported {{imported}}')
"""


def test_the_key_is_masked_in_the_sandbox_even_where_a_bind_would_show_it(tmp_path):
    """A key kept where the sandbox shows the host's files (here inside the virtual environment, which every
    sandbox binds read-only) is an empty folder inside: a notebook that looks for it during grading finds
    nothing, and the same look outside finds it (so the attack is real)."""
    import shutil

    hideout = Path(sys.prefix).resolve() / f"gofish-test-key-{tmp_path.name}"
    shutil.copytree(KEY, hideout / "key", ignore=shutil.ignore_patterns("__pycache__"))
    try:
        folders = [str(hideout / "key"), str(KEY)]
        probe = KEY_PROBE.format(folders=folders)
        outside = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
        assert "found 0 files" not in outside.stderr and "imported ['deal_reference', 'deal_reference']" in \
            outside.stderr, outside.stderr[-2000:]
        notebook(tmp_path / "class" / "prober" / "01-deal.ipynb", "01-deal", probe)
        out, log = io.StringIO(), io.StringIO()
        rows = grade(tmp_path / "class", out=out, log=log, sandbox="require", key=hideout / "key", exercises=["01"],
                     time_limit=120, cell_time_limit=60)
    finally:
        shutil.rmtree(hideout)
    assert [(r.submission, r.status) for r in rows] == [("prober", "error")], out.getvalue()
    assert "key probe: looked in 2 folders, found 0 files, imported []" in log.getvalue(), log.getvalue()


def test_without_a_key_the_grader_refuses_naming_the_option(tmp_path):
    """A learner's install has no key: the grader says so, and how to name one, before running anything."""
    notebook(tmp_path / "class" / "ana" / "01-deal.ipynb", "01-deal", STUB_DEAL)
    done = subprocess.run([sys.executable, "-m", "gofish_teach", "grade", str(tmp_path / "class"), "--key",
                           str(tmp_path / "nowhere")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "--key" in done.stderr and "no answer key" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
