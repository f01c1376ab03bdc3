"""Wings with faces (issue 46): each folder of ``gofish_teach/`` (a wing: ``fast/``, ``trust/``,
``teacher/``...) names in its ``__init__`` (``__all__``) what the rest of the package may use, and
every import from one wing into another takes only those names.

The flat modules of ``gofish_teach/`` itself (cards, rules, game, simulate, ...) are the trunk,
one wing of their own whose face is every module's public names: a wing may import a trunk
module's public name, never a private one (``_name``). Read from the source (``ast``), imports
inside functions and ``importlib.import_module("gofish_teach....")`` included, and names read off
an imported face (``trust.start``) too.
"""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "gofish_teach"
TRUNK = "trunk"

#: Imports between wings that break the rule for now, each with why: (importing module, "module:name").
KNOWN: dict = {}


def wing_of(module: str) -> str:
    """The wing of a module: its folder under ``gofish_teach/``, or the trunk for a flat module."""
    parts = module.split(".")
    if len(parts) >= 2 and (PACKAGE / parts[1]).is_dir():
        return parts[1]
    return TRUNK


def modules(root: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by its dotted name."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root.parent).with_suffix("")
        parts = list(rel.parts[:-1]) if rel.name == "__init__" else list(rel.parts)
        found[".".join(parts)] = path
    return found


def is_package(module: str) -> bool:
    return (PACKAGE.parent / module.replace(".", "/") / "__init__.py").exists()


def imports(module: str, source: str):
    """``(target module, name)`` for every import in ``source`` (name None: the module itself), and
    ``(target module, attribute)`` for every attribute read off a name bound to an imported module."""
    tree = ast.parse(source)
    here = module if is_package(module) else module.rpartition(".")[0]
    bound = {}  # local name -> the module it names
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = here.split(".")
            if node.level:
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "gofish_teach":
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                if exists(sub):
                    bound[alias.asname or alias.name] = sub
                    yield sub, None
                else:
                    yield target, alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "gofish_teach":
                    if alias.asname:
                        bound[alias.asname] = alias.name
                    yield alias.name, None
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and node.args[0].value.startswith("gofish_teach")):
            yield node.args[0].value, None
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound:
            yield bound[node.value.id], node.attr


def face(module: str) -> set[str]:
    return set(importlib.import_module(module).__all__)


def exists(module: str) -> bool:
    return is_package(module) or (PACKAGE.parent / (module.replace(".", "/") + ".py")).exists()


def verdict(importer: str, target: str, name: str | None) -> str | None:
    """Why ``importer`` may not take ``name`` from ``target`` (None: it may)."""
    if not exists(target):
        return "no such module (moved?)"
    wing = wing_of(target)
    if wing == wing_of(importer):
        return None
    if name is not None and name.startswith("_") and not name.startswith("__"):
        return "a private name"
    if wing == TRUNK:
        return None  # a trunk module's public name, or a trunk module itself
    front = f"gofish_teach.{wing}"
    if target != front:
        return f"a module inside {front}, not its face"
    if name is not None and name not in face(front):
        return f"not in {front}.__all__"
    return None


def cross_wing():
    """Every import from one wing into another: ``(importer, target, name, why not or None)``."""
    for module, path in modules().items():
        for target, name in imports(module, path.read_text()):
            if wing_of(target) != wing_of(module) or not exists(target):
                yield module, target, name, verdict(module, target, name)


def test_every_import_between_wings_takes_a_name_of_the_others_face():
    seen = list(cross_wing())
    wrong = sorted({f"{m} imports {t}{':' + n if n else ''} ({why})" for m, t, n, why in seen
                    if why and (m, f"{t}:{n}") not in KNOWN})
    assert not wrong, "\n".join(wrong)


def test_it_read_the_imports_between_wings():
    """So the test above cannot pass by reading nothing: it finds the imports between wings it should."""
    seen = list(cross_wing())
    assert len(seen) >= 150, len(seen)
    pairs = {(wing_of(m), wing_of(t)) for m, t, _, _ in seen}
    assert {("trunk", "fast"), ("tournament", "trust"), ("grade", "trust"), ("bestplay", "fast"),
            ("trunk", "teacher"), ("teacher", "widgets"), ("tournament", "stats")} <= pairs, sorted(pairs)
    print(f"{len(seen)} imports between wings, between {len(pairs)} pairs of wings")


def test_the_known_exceptions_are_still_needed():
    """An exception whose import has gone is removed from the list, so the list only shrinks."""
    seen = {(m, f"{t}:{n}") for m, t, n, why in cross_wing() if why}
    assert set(KNOWN) <= seen, sorted(set(KNOWN) - seen)


@pytest.mark.parametrize("source, why", [
    ("from ..trust.jail import command", "a module inside gofish_teach.trust, not its face"),
    ("from ..trust import jail", "a module inside gofish_teach.trust, not its face"),
    ("from .. import trust\ntrust.jail.command([])", "not in gofish_teach.trust.__all__"),
    ("from ..stats import _html_table", "a private name"),
    ("from ..cards import _deck", "a private name"),
    ("from ..handouts import mathml", "no such module"),
    ("import importlib\nimportlib.import_module('gofish_teach.fast.engine')", "a module inside gofish_teach.fast"),
])
def test_the_check_sees_an_import_past_a_face(source, why):
    """As a module of the grader would be caught doing it."""
    found = [verdict("gofish_teach.grade.grader", t, n) for t, n in imports("gofish_teach.grade.grader", source)]
    assert any(v and v.startswith(why) for v in found), found


def test_a_face_and_the_trunk_pass():
    source = "from .. import trust\ntrust.start\nfrom ..fast import play_games\nfrom ..rules import PRESETS\n"
    found = [verdict("gofish_teach.grade.grader", t, n) for t, n in imports("gofish_teach.grade.grader", source)]
    assert found and not any(found), found
