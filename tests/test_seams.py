"""Seams on public names (issue 46): no module of the package imports another module's private
name (``_name``) or reads another module's private attribute; what one module offers another
has a public name.

Read from the source (``ast``), as ``tests/test_wings.py`` reads the imports:

- an import of a private name from another module of the package (``from .cards import _deck``),
  or of a private module from outside its own package (``from ..widgets._words import ...``);
- an attribute read off an imported module (``executors._watch``);
- an attribute read off anything else (``solver._obs_ids``) whose private name this module never
  defines (no ``def``, ``class``, assignment or ``__slots__`` entry of it here) while another
  module of the package does: the reader is using another module's internals. Reads through
  ``self``/``cls`` are a class's own (or its base's, which a subclass may use), and names like
  ``_repr_html_`` (IPython's display protocol) or a NamedTuple's ``_replace``, ``_asdict``,
  ``_fields`` and ``_make`` are public by their own conventions.

What is left is listed in :data:`KNOWN`, each with why; the list only shrinks (a test says so).
"""
from __future__ import annotations

import ast

import pytest

from test_wings import imports, modules

#: Uses of private names across modules that stay for now: (module, what it uses) -> why. (45 when
#: this test came; every one got a public name: gibbs' sampler, the solver's next belief, the tree's
#: observations, the executors' pool, the deck, the binomial table, a value in a message, the checks'
#: safe repr and constant rejection, simulate's progress bar.)
KNOWN: dict[tuple[str, str], str] = {}


#: Private-looking names that are public by a convention of their own.
CONVENTIONS = {"_replace", "_asdict", "_fields", "_make", "_field_defaults"}


def is_private(name: str) -> bool:
    """``_name``, but not ``__dunder__``, a sunder ``_name_`` (IPython's ``_repr_html_``, enum's
    ``_missing_``) or a NamedTuple's own API."""
    if not name.startswith("_") or name.startswith("__") or name in CONVENTIONS:
        return False
    return not (name.endswith("_") and len(name) > 2)


def defined_private(source: str) -> set[str]:
    """The private names a module defines: functions, classes, names and attributes it assigns,
    ``__slots__`` entries and names given as strings (``setattr``)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add(node.asname or node.name.split(".")[0])
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
            names.add(node.value)
    return {name for name in names if is_private(name)}


def private_uses(module: str, source: str, elsewhere: set[str]):
    """``(what, how)`` for every use in ``source`` (the module ``module``) of another module's
    private name: how is ``imports`` or ``reads``; ``elsewhere`` holds the private names other
    modules of the package define."""
    package = module.rpartition(".")[0]
    for target, name in imports(module, source):
        if target == module:
            continue
        if name is not None and is_private(name):
            yield f"{target}:{name}", "imports"
        home, _, last = target.rpartition(".")
        if is_private(last) and home not in (module, package):
            yield target, "imports a private module"
    own = defined_private(source)
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and is_private(node.attr)):
            continue
        if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            continue
        if node.attr not in own and node.attr in elsewhere:
            yield ast.unparse(node), "reads"


def found():
    """``{(module, what): how}`` over the whole package."""
    sources = {module: path.read_text() for module, path in modules().items()}
    defined = {module: defined_private(source) for module, source in sources.items()}
    out = {}
    for module, source in sources.items():
        elsewhere = set().union(*(names for other, names in defined.items() if other != module))
        for what, how in private_uses(module, source, elsewhere):
            out[(module, what)] = how
    return out


def test_no_module_uses_another_modules_private_names():
    uses = found()
    wrong = sorted(f"{module} {how} {what}" for (module, what), how in uses.items() if (module, what) not in KNOWN)
    assert not wrong, "\n".join(wrong)
    print(f"{len(uses)} uses of another module's private name, each listed with why")


def test_the_known_exceptions_are_still_needed():
    """An exception whose use has gone is removed from the list, so the list only shrinks."""
    gone = sorted(set(KNOWN) - set(found()))
    assert not gone, gone


@pytest.mark.parametrize("source, what", [
    ("from .cards import _deck", "gofish_teach.cards:_deck"),
    ("from . import executors\nexecutors._watch", "gofish_teach.executors:_watch"),
    ("from .bestplay.solve import Solver\nSolver(None, 'memory', 0)._obs_ids", "Solver(None, 'memory', 0)._obs_ids"),
    ("def f(solver):\n    return solver._normalised({})", "solver._normalised"),
    ("from .widgets._words import plural", "gofish_teach.widgets._words"),
])
def test_the_check_sees_a_private_use(source, what):
    """As a trunk module would be caught doing it (``_obs_ids``, ``_normalised``: the solver's)."""
    uses = dict(private_uses("gofish_teach.match", source, {"_obs_ids", "_normalised", "_watch"}))
    assert what in uses, uses


@pytest.mark.parametrize("source", [
    "class A:\n    def __init__(self):\n        self._x = 1\n    def f(self, other):\n        return other._x",
    "def f(table):\n    return table._repr_html_()",
    "def f(rules):\n    return rules._replace(bluff=True)",
    "from ._words import plural",
    "class B(Base):\n    def f(self):\n        return self._obs_ids",
])
def test_own_privates_and_conventions_pass(source):
    """A module's own private names (on another instance too), protocols, NamedTuple's API, a
    package's private module from inside it, and a subclass's use of its base's internals."""
    assert not list(private_uses("gofish_teach.widgets.table", source, {"_x", "_obs_ids"}))


# --------------------------------------------------------------------------- one record idiom
#: The core (the engine, its strategies and the exact solver), which keeps the README's rule for records.
CORE = ("gofish_teach.cards", "gofish_teach.rules", "gofish_teach.asks", "gofish_teach.events", "gofish_teach.game",
        "gofish_teach.view", "gofish_teach.record", "gofish_teach.strategies", "gofish_teach.bestplay")
#: The core's NamedTuples, each with why a tuple: the rule is a frozen dataclass, a NamedTuple where tuple speed matters.
TUPLES = {
    "gofish_teach.cards.Card": "every card of every deck, hashed, sorted and compared by the thousand",
    "gofish_teach.rules._Options": "Rules is a tuple underneath: no object.__setattr__ can change one, and it hashes fast",
    **{f"gofish_teach.events.{name}": "the log: made at every step, read and pickled by the thousand"
       for name in ("Deal", "Ask", "Give", "GoFish", "Draw", "Book", "Turn", "Skip", "GameOver")},
    **{f"gofish_teach.record.{name}": "an event's operations, made for every event a reader takes in"
       for name in ("Dealt", "Asked", "Lacks", "Gave", "Got", "Drew", "Booked", "Settled")},
    "gofish_teach.bestplay.model.World": "positions made by the million (tuple.__new__) and hashed as keys",
}


def records(module: str, source: str):
    """``(class, kind, frozen)`` of every record class in ``source``: kind ``dataclass`` or ``NamedTuple``."""
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ClassDef):
            continue
        for d in node.decorator_list:
            call = d if isinstance(d, ast.Call) else None
            name = ast.unparse(call.func if call else d)
            if name.split(".")[-1] == "dataclass":
                frozen = any(k.arg == "frozen" and getattr(k.value, "value", False) is True for k in (call.keywords if call else []))
                yield f"{module}.{node.name}", "dataclass", frozen
        if any(ast.unparse(b).split(".")[-1] == "NamedTuple" for b in node.bases):
            yield f"{module}.{node.name}", "NamedTuple", True


def core_records():
    return [r for module, path in modules().items() if module.startswith(CORE) for r in records(module, path.read_text())]


def test_the_cores_records_are_frozen_dataclasses_or_named_tuples_for_speed():
    found = core_records()
    thawed = [name for name, kind, frozen in found if kind == "dataclass" and not frozen]
    assert not thawed, thawed
    tuples = {name for name, kind, _ in found if kind == "NamedTuple"}
    assert tuples == set(TUPLES), (sorted(tuples - set(TUPLES)), sorted(set(TUPLES) - tuples))
    assert sum(kind == "dataclass" for _, kind, _ in found) >= 3  # the solver's Result, Equilibrium, Solution


def test_the_record_check_sees_a_mutable_dataclass():
    source = "from dataclasses import dataclass\n@dataclass\nclass A:\n    x: int\n@dataclass(frozen=True)\nclass B:\n    x: int\n"
    assert list(records("m", source)) == [("m.A", "dataclass", False), ("m.B", "dataclass", True)]


# --------------------------------------------------------------------------- enum members, not their words
def enum_values() -> set[str]:
    """Every value of the package's closed sets of words (:class:`~gofish_teach.cards.Word` enums)."""
    import gofish_teach.events  # noqa: F401  (their enums, defined on import)
    import gofish_teach.rules  # noqa: F401
    from gofish_teach.cards import Word

    return {member.value for enum in Word.__subclasses__() for member in enum}


def bare_words(source: str, values: set[str]):
    """Comparisons in ``source`` against a bare string that is (or, for ``in``, is part of) an enum's value."""
    def strings(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return [s for item in node.elts for s in strings(item)]
        return []

    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        for op, left, right in zip(node.ops, sides, sides[1:], strict=False):
            if isinstance(op, (ast.Eq, ast.NotEq)):
                hit = [s for s in strings(left) + strings(right) if s in values]
            elif isinstance(op, (ast.In, ast.NotIn)):
                hit = [s for s in strings(right) if s in values]
                if not strings(right):  # "ask can succeed" in reason: a word of a value, read off the enum's text
                    hit += [s for s in strings(left) if len(s) > 3 and any(s in value for value in values)]
            else:
                hit = []
            if hit:
                yield node.lineno, ast.unparse(node)


#: Comparisons with an enum's words that stay for now: (module, the comparison) -> why.
WORDS_LEFT = {
}


def test_comparisons_use_enum_members():
    """``rules.end == End.OCEAN_EMPTY``, never ``== "ocean_empty"``: a renamed option then fails at import."""
    values = enum_values()
    assert {"new_hand", "ocean_empty", "fish", "no ask can succeed any more"} <= values
    found = {(module, text) for module, path in modules().items() for _, text in bare_words(path.read_text(), values)}
    assert found - set(WORDS_LEFT) == set(), sorted(found - set(WORDS_LEFT))
    assert set(WORDS_LEFT) <= found, sorted(set(WORDS_LEFT) - found)  # the list only shrinks


@pytest.mark.parametrize("source", ['rules.end == "ocean_empty"', 'draw.source != "fish"',
                                    'rule in ("new_hand", "x")', '"ask can succeed" in over'])
def test_the_word_check_sees_a_bare_word(source):
    assert list(bare_words(source, enum_values()))
