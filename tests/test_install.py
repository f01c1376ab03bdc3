"""What ``make`` leaves installed: an editable install that pip makes without a warning, and every
compiled loop a lesson runs already compiled, so that no lesson waits for numba.

These check the ``.venv`` that ``make`` built (``make test`` runs them there); elsewhere they skip.
"""
from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
STAMP = VENV / ".installed"


@pytest.fixture
def made() -> float:
    """When ``make`` finished installing (its stamp's time)."""
    if not STAMP.exists() or Path(sys.prefix).resolve() != VENV.resolve():
        pytest.skip("this checks what `make` installed: run it with make's .venv (make test)")
    return STAMP.stat().st_mtime


def test_the_editable_install_is_a_path_not_an_import_hook(made):
    """The cause of setuptools' multi-line "Editable installation ... Please be careful with folders in
    your working directory" warning on make's first run: with the packages' root left implicit, it
    installs an import hook (a finder module) and warns about it. With ``package-dir`` said, the
    install is one path in a .pth file, which it makes without a word."""
    site = Path(sysconfig.get_paths()["purelib"])
    (pth,) = site.glob("__editable__.gofish_teach-*.pth")
    lines = pth.read_text().split()
    assert not any(line.startswith("import") for line in lines), lines  # a finder is installed by an import line
    assert [Path(line).resolve() for line in lines] == [ROOT.resolve()]
    assert not list(site.glob("__editable___gofish_teach_*finder.py"))


#: Run in a fresh process: what a lesson runs (``{run}``, with the modules it imports); then, for every compiled
#: function of ``{modules}`` that ran, what numba loaded from its disk cache, what it had to compile, and the
#: cache's index.
_PROBE = """
import json, os
import numpy as np
from numba.core.registry import CPUDispatcher
{imports}

{run}
ran = {{}}
for module in ({modules},):
    for name, f in vars(module).items():
        if isinstance(f, CPUDispatcher) and f.signatures:
            index = f._cache._cache_file._index_path
            ran[f"{{module.__name__}}.{{name}}"] = {{
                "hits": sum(f.stats.cache_hits.values()), "misses": sum(f.stats.cache_misses.values()),
                "index": os.path.getmtime(index) if os.path.exists(index) else None}}
print(json.dumps(ran))
"""

#: Lesson 00's tournament (the fast path) for a few games, and a hand's gather loop in both layouts of its
#: moves (lesson 05 met the second).
_LESSON_00 = dict(imports="from gofish_teach.fast import engine, pcg64\nfrom gofish_teach.probability import hands\n"
                          "from gofish_teach.simulate import simulate",
                  run="""simulate(["memory"] + ["random"] * 3, "pond", 20, seed=2024, workers=1)
for need in (np.zeros(4, np.int64)[::2], np.zeros(2, np.int64)):
    hands._gather(np.zeros((1, 1, 1, 1)), np.zeros((1, 1, 1)), need, np.zeros(2, np.int64), np.zeros(2, np.int64),
                  np.zeros(2))""",
                  modules="engine, pcg64, hands")
#: Lesson 08's first search decision (SearchBot.estimates, a position a few asks into a game) and a decision of
#: the opponent-model bot of lesson 09: the rollouts, the sampler and the generator.
_LESSON_08 = dict(imports="from gofish_teach import Game\nfrom gofish_teach.fast import pcg64\nfrom gofish_teach.bestplay import search\n"
                          "from gofish_teach.bestplay.modelbot import OpponentModelBot\nfrom gofish_teach.probability import gibbs",
                  run="""game = Game("pond", 4, seed=3)
search.SearchBot(seed=0).estimates(game.view(0))
OpponentModelBot(samples=8, seed=1).choose(game.view(0))""",
                  modules="search, gibbs, pcg64")


def _compiled_in_a_fresh_process(lesson: dict, made: float) -> dict:
    """Run ``lesson`` in a fresh process: {compiled function: what numba did}; asserts nothing was compiled
    there, and that every cache it loaded was written by make (no later than its stamp)."""
    probe = subprocess.run([sys.executable, "-c", _PROBE.format(**lesson)], capture_output=True, text=True,
                           timeout=600, cwd=VENV)
    assert probe.returncode == 0, probe.stderr[-3000:]
    ran = json.loads(probe.stdout.splitlines()[-1])
    compiled = {name: r for name, r in ran.items() if r["misses"] or not r["hits"]}
    assert compiled == {}, f"compiled in the lesson, not by make: {sorted(compiled)}"
    late = {name: r["index"] - made for name, r in ran.items() if r["index"] is None or r["index"] > made + 1}
    assert late == {}, f"compiled after make's install step (seconds after its stamp): {late}"
    return ran


def test_make_compiles_the_fast_path_so_no_lesson_waits(made):
    """Lesson 00's first Run All waited 27 s in its 100,000-game cell: make's warm-up compiled the exact
    count and the sampler, not the fast path (fast/engine.py, fast/pcg64.py), so numba compiled it in the lesson.
    Now a fresh process playing that tournament loads every compiled function from the disk cache and
    compiles none, and the cache was written by make (no later than its stamp), not by a test or a lesson."""
    ran = _compiled_in_a_fresh_process(_LESSON_00, made)
    assert "gofish_teach.fast.engine._play_many" in ran and "gofish_teach.probability.hands._gather" in ran, sorted(ran)


def test_make_compiles_the_search_bot_so_lesson_08_does_not_wait(made):
    """Lesson 08's first SearchBot decision waited 18.8 s for numba to compile the rollouts (1.0 s once
    cached): make compiled the fast path's tournament, not the search's own loop. Now make runs one small
    decision (``bestplay.search.warm``), and a fresh process making lesson 08's decision and one of the
    opponent-model bot's (lesson 09) loads the rollouts, the sampler and the generator from make's cache."""
    ran = _compiled_in_a_fresh_process(_LESSON_08, made)
    assert "gofish_teach.bestplay.search._rollouts" in ran and "gofish_teach.probability.gibbs._sweeps" in ran, \
        sorted(ran)
