"""``gofish-teach course DIR`` from a built wheel, installed into a fresh virtual environment.

Once per test run: copy the working tree (without ``.venv``, ``.git`` and build leftovers)
to a temporary folder, build a wheel there with pip (build isolation, as a user would), and
install it into a new venv outside the repository. The venv takes the dependencies from
this test run's own site-packages through a ``.pth`` line (quick, and nothing downloaded),
but not gofish-teach: that comes from the wheel, which the tests check. Then the learner's
commands run there, and the copied lessons run under strict nbval in that venv's kernel.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import site
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from gofish_teach.teacher.course import FOLDERS, MANIFEST, CourseConflict, copy_course, digest, rendered

ROOT = Path(__file__).resolve().parent.parent
LEAVE_OUT = shutil.ignore_patterns(".venv", ".git", "build", "dist", "*.egg-info", "handouts", "__pycache__",
                                   ".hypothesis", ".pytest_cache", ".ipynb_checkpoints")


def course_files() -> dict[str, Path]:
    """What a learner's copy must hold, from the repository's folders (globbed, never listed by name)."""
    return {f"{target}/{nb.name}": nb for folder, target in FOLDERS.items()
            for nb in sorted((ROOT / folder).glob("*.ipynb"))}


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("wheel")
    shutil.copytree(ROOT, tmp / "src", ignore=LEAVE_OUT)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp / "dist"),
                    str(tmp / "src")], check=True, cwd=tmp)
    (found,) = (tmp / "dist").glob("gofish_teach-*.whl")
    return found


@pytest.fixture(scope="session")
def venv(wheel, tmp_path_factory) -> dict:
    """A fresh venv with the wheel installed; ``run(*args)`` runs a command there, outside the repository."""
    home = tmp_path_factory.mktemp("learner")
    env_dir = home / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True)
    python = env_dir / "bin" / "python"
    purelib = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             check=True, capture_output=True, text=True).stdout.strip()
    # The dependencies: this run's site-packages, as a plain path (its own .pth files, such as
    # the editable install of gofish_teach, are not read from a path added this way).
    Path(purelib, "test-dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    env = dict(os.environ, JUPYTER_PATH=str(env_dir / "share" / "jupyter"), JUPYTER_DATA_DIR=str(home / "data"),
               JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_RUNTIME_DIR=str(home / "runtime"),
               PYTHONNOUSERSITE="1")
    env.pop("PYTHONPATH", None)

    def run(*args, check=True, cwd=home):
        return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, check=check)

    # --force-reinstall: this run's own (editable) gofish-teach is visible through the .pth line;
    # pip leaves that one alone ("outside environment") and installs the wheel into the new venv.
    run(python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--force-reinstall", wheel)
    run(python, "-m", "ipykernel", "install", "--sys-prefix", "--name", "python3")
    return {"python": python, "bin": env_dir / "bin", "home": home, "run": run}


def test_the_wheel_carries_the_course_and_nothing_else(wheel, venv):
    import zipfile

    names = zipfile.ZipFile(wheel).namelist()
    packed = sorted(n.split("_course/", 1)[1] for n in names if "/_course/" in n)
    assert packed == sorted(f"{folder}/{nb.name}" for folder in FOLDERS
                            for nb in (ROOT / folder).glob("*.ipynb"))
    assert not [n for n in names if "solutions" in n or n.endswith("README.md") or "notebooks/teacher/" in n]
    # gofish-teach play's page template (package data of gofish_teach.teacher) travels with the package
    template = ROOT / "gofish_teach" / "teacher" / "_voila" / "voila" / "templates" / "gofish"
    wanted = sorted(str(f.relative_to(ROOT)) for f in template.iterdir())
    assert len(wanted) >= 2 and [n for n in names if "/_voila/" in n] == wanted, names
    where = venv["run"](venv["python"], "-c", "import gofish_teach; print(gofish_teach.__file__)").stdout
    assert where.startswith(str(venv["home"])), f"gofish_teach imported from {where}, not from the wheel"


def test_the_wheel_holds_no_reference_answer(wheel):
    """N1 (issue 42): on 457bed9 the wheel held exercises/answers.py and the lessons' checks' references.
    Now its file list has no key, and no file of it holds a key function's name or body; the cases a
    check cell prints are there as data (what the pasted install below finds)."""
    import zipfile

    from test_answer_key import KEY, shipped_text_holds_no_key

    archive = zipfile.ZipFile(wheel)
    names = archive.namelist()
    assert not [n for n in names
                if n == "gofish_teach/exercises/answers.py" or "/key/" in n or n.startswith(("solutions", "key/"))]
    data = [n for n in names if n.startswith("gofish_teach/exercises/data/") and n.endswith(".json")]
    assert len(data) == len(list((ROOT / "gofish_teach" / "exercises" / "data").glob("*.json"))) >= 29, names
    texts = {}
    for name in names:
        raw = archive.read(name)
        try:
            texts[name] = raw.decode("utf-8")
        except UnicodeDecodeError:
            continue
    assert len(texts) > 100 and len(KEY.functions) >= 29
    assert shipped_text_holds_no_key(texts) == []


#: Run in the wheel's venv: every lesson check, answered by N1's attack (tests/pasted_install.py).
_PASTED_IN_THE_WHEEL = """
import json, sys
from gofish_teach.exercises import INLINE, run_check
namespace = {}
exec(sys.stdin.read(), namespace)
rows = []
for ex in INLINE:
    def answer(*args, _ex=ex, **kwargs):
        return namespace["pasted_install_answer"](_ex.function, args, kwargs)
    report = run_check(ex, answer)
    rows.append([ex.id, report.passed, report.total, report.hidden_passed, report.hidden_total,
                 report.text().count("found in the pool: ")])
print(json.dumps(rows))
"""


@pytest.mark.slow
def test_the_pasted_install_earns_no_hidden_case_from_the_wheel(venv):
    """The attack of N1 in a learner's own install: answers looked up in everything the installed wheel
    ships. It finds every public answer and every hidden case's sealed record, and passes no hidden case;
    the grader there refuses to run without a key, and names the option."""
    from pasted_install import PASTED_INSTALL

    python = venv["python"]
    done = subprocess.run([str(python), "-c", _PASTED_IN_THE_WHEEL], input=PASTED_INSTALL, capture_output=True,
                          text=True, cwd=venv["home"], timeout=1200)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = json.loads(done.stdout.splitlines()[-1])
    assert len(rows) >= 18
    for ex_id, passed, total, hidden_passed, hidden_total, found in rows:
        assert passed == total and hidden_total >= 3, (ex_id, passed, total)   # the public answers: found
        assert found == hidden_total and hidden_passed == 0, (ex_id, found, hidden_passed, hidden_total)
    graded = venv["run"](python, "-m", "gofish_teach", "grade", venv["home"], check=False)
    assert graded.returncode == 2 and "no answer key" in graded.stderr and "--key DIR" in graded.stderr, graded.stderr


def _lessons_from_the_wheel(venv) -> Path:
    folder = venv["home"] / "my-course"
    if not folder.exists():
        out = venv["run"](venv["bin"] / "gofish-teach", "course", folder).stdout
        assert f"jupyter lab {folder}" in out
    return folder


@pytest.mark.slow
def test_the_copied_lessons_run_as_saved_in_the_wheels_venv(venv):
    folder = _lessons_from_the_wheel(venv)
    expected = course_files()
    copied = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    assert copied == sorted([*expected, MANIFEST])
    assert all((folder / rel).read_bytes() == rendered(rel, src) for rel, src in expected.items())
    # The exercise sheets run as saved. The lessons' result cells wait for an answer (see below), so
    # they are run as the repository's lessons, which are the learner's but for those cells.
    report = venv["home"] / "nbval.xml"
    lessons = venv["home"] / "as-saved"
    shutil.copytree(ROOT / "notebooks", lessons, ignore=shutil.ignore_patterns("teacher", "*.md"))
    result = venv["run"](venv["python"], "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval",
                         "--nbval-sanitize-with", ROOT / "tests" / "nbval_sanitize.cfg", f"--junitxml={report}",
                         lessons, folder / "exercises", check=False, cwd=folder)
    assert result.returncode == 0, result.stdout[-5000:] + result.stderr[-2000:]
    suite = ElementTree.parse(report).getroot().find("testsuite")
    counts = {k: int(suite.get(k)) for k in ("tests", "failures", "errors", "skipped")}
    assert counts["tests"] >= len(expected) and counts["failures"] == counts["errors"] == counts["skipped"] == 0, counts


@pytest.mark.slow
def test_run_all_in_a_learners_lesson_stops_at_the_first_result_until_answered(venv):
    folder = _lessons_from_the_wheel(venv)
    lesson = folder / "lessons" / "00-welcome.ipynb"
    out = venv["home"] / "ran.ipynb"
    venv["run"](venv["python"], "-m", "nbconvert", "--to", "notebook", "--execute", "--allow-errors",
                "--output", out, lesson, cwd=folder / "lessons")
    cells = json.loads(out.read_text())["cells"]
    errors = [(c, o) for c in cells if c["cell_type"] == "code" for o in c["outputs"] if o["output_type"] == "error"]
    cell, error = errors[0]
    assert "reveal" in cell["metadata"]["tags"] and error["ename"] == "NotAnsweredYet"
    assert "Predict first: answer the question above" in "".join(error["traceback"])


def test_refusal_update_and_force_from_the_command_line(venv):
    run, folder = venv["run"], venv["home"] / "class"
    command = [venv["python"], "-m", "gofish_teach", "course", folder]
    run(*command)
    lessons = sorted((folder / "lessons").glob("*.ipynb"))
    mine, gone = lessons[0], lessons[1]
    mine.write_text(mine.read_text(encoding="utf-8").replace('"source": [', '"source": [\n    "my note ",', 1),
                    encoding="utf-8")
    my_work = mine.read_bytes()
    gone.unlink()

    refused = run(*command, check=False)
    assert refused.returncode == 2
    assert str(mine) in refused.stderr and "--force" in refused.stderr and "--update" in refused.stderr
    assert "Traceback" not in refused.stderr
    assert not gone.exists() and mine.read_bytes() == my_work, "a refusal wrote something"

    updated = run(*command, "--update")
    assert gone.exists() and mine.read_bytes() == my_work
    assert f"kept your version of lessons/{mine.name}" in updated.stdout

    forced = run(*command, "--force")
    assert mine.read_bytes() == rendered(f"lessons/{mine.name}", ROOT / "notebooks" / mine.name)
    assert f"replaced your version of lessons/{mine.name}" in forced.stdout
    assert run(*command).stdout.startswith(f"0 notebooks written to {folder}, {len(course_files())} already up to date")


def test_our_older_versions_are_updated_and_retired_lessons_removed(tmp_path):
    """In process: an older version of ours (its hash in the manifest) is not the learner's work."""
    copy_course(tmp_path)
    manifest = json.loads((tmp_path / MANIFEST).read_text())
    older = sorted((tmp_path / "exercises").glob("*.ipynb"))[0]
    older.write_text("{}")                            # as if we had shipped this before
    retired = tmp_path / "lessons" / "99-a-lesson-we-renamed.ipynb"
    retired.write_text("[]")
    kept = tmp_path / "lessons" / "98-renamed-but-yours.ipynb"
    kept.write_text("[1]")
    manifest["files"].update({f"exercises/{older.name}": digest(older), f"lessons/{retired.name}": digest(retired),
                              f"lessons/{kept.name}": "0" * 64})
    (tmp_path / MANIFEST).write_text(json.dumps(manifest))

    report = copy_course(tmp_path)                   # no --update needed: nothing of the learner's is touched
    assert report.written == [f"exercises/{older.name}"] and report.removed == [f"lessons/{retired.name}"]
    assert older.read_bytes() == (ROOT / "exercises" / older.name).read_bytes()
    assert not retired.exists() and kept.read_text() == "[1]"
    assert f"lessons/{kept.name}" in json.loads((tmp_path / MANIFEST).read_text())["files"]


def test_a_learners_own_notebook_with_a_course_name_is_theirs(tmp_path):
    """No manifest entry, different bytes: the learner's, so a refusal."""
    name = sorted((ROOT / "notebooks").glob("*.ipynb"))[0].name
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / name).write_text("{}")
    with pytest.raises(CourseConflict, match=name):
        copy_course(tmp_path)
    assert {p.name for p in tmp_path.rglob("*")} == {"lessons", name}
    (tmp_path / MANIFEST).write_text("not json")
    with pytest.raises(ValueError, match="is damaged"):
        copy_course(tmp_path, force=True)
    with pytest.raises(ValueError, match="is a file, not a folder"):
        copy_course(tmp_path / "lessons" / name)


def test_the_course_leaves_out_solutions_and_the_teachers_material(tmp_path):
    copy_course(tmp_path)
    answers = {p.read_bytes() for p in (ROOT / "solutions").glob("*.ipynb")}
    teacher = {p.read_bytes() for p in (ROOT / "notebooks").rglob("*") if p.is_file() and
               (p.parent != ROOT / "notebooks" or p.suffix != ".ipynb")}
    copied = [p for p in tmp_path.rglob("*.ipynb")]
    assert copied and not [p for p in copied if p.read_bytes() in answers | teacher]
    assert not list(tmp_path.rglob("*.md"))



# ---------------------------------------------------------------- a lesson as a learner meets it (issue 33)
def _secrets():
    from gofish_teach.widgets.question_bank import read_source

    for qid, q in read_source().items():
        yield qid, q["explain"]
        yield from ((qid, why) for why in q.get("wrong", {}).values())


def test_a_learners_copy_shows_no_answer_and_each_result_waits_for_its_question(tmp_path):
    copy_course(tmp_path)
    texts = {p.name: p.read_text(encoding="utf-8") for p in tmp_path.rglob("*.ipynb")}
    for qid, secret in _secrets():
        for name, text in texts.items():
            assert json.dumps(secret)[1:-1] not in text, f"{qid}'s answer text is in the learner's {name}"
    waiting = 0
    for lesson in sorted((tmp_path / "lessons").glob("*.ipynb")):
        cells = json.loads(lesson.read_text(encoding="utf-8"))["cells"]
        for i, cell in enumerate(cells):
            ids = cell["metadata"].get("gofish_teach", {}).get("reveals")
            if not ids:
                continue
            waiting += 1
            source = "".join(cell["source"])
            assert source.startswith("from gofish_teach.widgets import reveal\nreveal(" + json.dumps(ids[0]))
            j = i
            while j < len(cells) and cells[j]["cell_type"] == "code":  # the result, and the code cells after it
                assert cells[j]["outputs"] == [] and cells[j]["execution_count"] is None, f"{lesson.name} cell {j}"
                j += 1
    assert waiting >= 25


def test_the_learners_lesson_00_points_to_nothing_the_copy_lacks(tmp_path):
    copy_course(tmp_path)
    lesson = json.loads((tmp_path / "lessons" / "00-welcome.ipynb").read_text(encoding="utf-8"))
    prose = "\n".join("".join(c["source"]) for c in lesson["cells"] if c["cell_type"] == "markdown")
    for path in re.findall(r"`([\w./-]+\.(?:md|ipynb|py))`", prose):
        assert (tmp_path / path).exists() or (tmp_path / "lessons" / path).exists(), f"lesson 00 points to {path}"
    assert "make lab" not in prose


def test_the_course_command_names_a_jupyter_that_runs(tmp_path, monkeypatch):
    from gofish_teach.teacher.course import jupyter_command

    monkeypatch.setenv("PATH", "/nonexistent")  # as after `make`: the venv's bin is not on the PATH
    command = jupyter_command()
    assert command != "jupyter" and Path(command).name == "jupyter"
    assert subprocess.run([command, "--version"], capture_output=True).returncode == 0
    report = copy_course(tmp_path / "course")
    root = " --allow-root" if os.geteuid() == 0 else ""  # as `make lab`: Jupyter refuses root without it
    assert report.lines()[-1] == f"Open them with:  {command} lab {tmp_path / 'course'}{root}"
