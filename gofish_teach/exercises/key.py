"""The teacher's answer key, loaded from outside the package: what the grader and the data's build use.

This package holds no reference answer: a learner's install (the wheel, ``gofish-teach course``)
has the checks' inputs and judges, and the shipped case data (:mod:`.casedata`), never the
functions that make the answers. Those are the key, a folder of Python modules the teacher keeps:
``solutions/key/`` in the repository, outside every package (``pyproject.toml`` packages
``gofish_teach*`` only). :func:`load` reads it: the folder given (the grader's ``--key DIR``, the
folder itself or one holding ``key/``), else the ``solutions/key/`` of the kit this package runs
from; in a learner's install there is none, and :class:`KeyMissing` says so, naming ``--key``.

Every module of the folder is loaded. For an exercise or check whose function is ``f`` the key
has ``f_reference`` (the answer to one call; every check has one but the capstone, which needs
none), and optionally ``f_accepted`` (every right answer, where a check accepts several),
``f_public()`` and ``f_hidden(rng)`` (the inputs, where choosing them takes the answer: exercise 09).

>>> from gofish_teach.exercises import get_exercise
>>> key = load()                                  # the repository's solutions/key/
>>> key.folder.parts[-2:]
('solutions', 'key')
>>> [case.expected for case in key.public_cases(get_exercise("L02-expected-pairs"))][:2]
[Fraction(15, 17), Fraction(21, 17)]
>>> load("/nowhere")   # doctest: +ELLIPSIS
Traceback (most recent call last):
...
gofish_teach.exercises.key.KeyMissing: --key /nowhere: no answer key there (a folder of Python modules ...)
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
import zlib
from dataclasses import replace
from pathlib import Path

import numpy as np

from .checking import SEALED, Case, Exercise, seal

#: Where the kit keeps its key: ``solutions/key/`` beside this package (in the repository only).
DEFAULT = Path(__file__).resolve().parents[2] / "solutions" / "key"
#: The names a key's functions end with, and what each gives (see the module's text).
KINDS = ("_reference", "_accepted", "_public", "_hidden")


class KeyMissing(ValueError):
    """No answer key where one was looked for (a learner's install never has one), or a key without a reference."""


def locate(folder=None) -> Path:
    """The key's folder: ``folder`` (or its ``key/``), else the kit's own; :class:`KeyMissing` if there is none."""
    if folder is None:
        if (DEFAULT / "__init__.py").is_file():
            return DEFAULT
        raise KeyMissing("no answer key: the exercises' reference answers are the teacher's, kept in the "
                         "repository's solutions/key/, and this installation of gofish_teach has none (a learner's "
                         "install never does). Run from a clone of the repository, or say where the key is: --key DIR")
    path = Path(folder).expanduser()
    for candidate in (path, path / "key"):
        if (candidate / "__init__.py").is_file():
            return candidate.resolve()
    raise KeyMissing(f"--key {folder}: no answer key there (a folder of Python modules with an __init__.py, such "
                     "as the repository's solutions/key/)")


_LOADED: dict[Path, "Key"] = {}


def load(folder=None) -> "Key":
    """The key in ``folder`` (see :func:`locate`), loaded once per process; a :class:`Key` is returned as it is."""
    if isinstance(folder, Key):
        return folder
    path = locate(folder)
    if path not in _LOADED:
        _LOADED[path] = Key(path)
    return _LOADED[path]


class Key:
    """A loaded key: its reference functions, and the cases they answer.

    The key's functions are also its attributes (``key.f_reference``, for a function ``f``), for the tests.
    """

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        name = f"gofish_teach_key_{zlib.crc32(str(self.folder).encode()):08x}"
        spec = importlib.util.spec_from_file_location(name, self.folder / "__init__.py",
                                                      submodule_search_locations=[str(self.folder)])
        package = importlib.util.module_from_spec(spec)
        sys.modules[name] = package  # before it runs: the key's modules may import each other relatively
        spec.loader.exec_module(package)
        self.functions: dict = {}
        for path in sorted(self.folder.glob("*.py")):
            if path.name.startswith("_"):
                continue
            module = importlib.import_module(f"{name}.{path.stem}")
            for attr, value in vars(module).items():
                if callable(value) and getattr(value, "__module__", None) == module.__name__ and attr.endswith(KINDS):
                    if attr in self.functions:
                        raise KeyMissing(f"the key in {self.folder} defines {attr} twice ({path.name} and another)")
                    self.functions[attr] = value
        self._public: dict[str, list[Case]] = {}
        self._hidden: dict[tuple[str, int], list[Case]] = {}

    def __getattr__(self, name):
        functions = self.__dict__.get("functions", {})
        if name in functions:
            return functions[name]
        raise AttributeError(f"the key in {self.__dict__.get('folder')} has no {name}")

    def __repr__(self) -> str:
        return f"<Key {self.folder}: {len(self.functions)} functions>"

    # ---------------------------------------------------------------- answers
    def reference(self, ex: Exercise):
        """``ex``'s reference function (None for a check that needs no answer); :class:`KeyMissing` if absent."""
        found = self.functions.get(f"{ex.function}_reference")
        if found is None and ex.keyed:
            raise KeyMissing(f"the key in {self.folder} has no {ex.function}_reference, the answer of {ex.id}")
        return found

    def expected(self, ex: Exercise, case: Case):
        """The answer of one case, as the check compares it: ``f_accepted`` where the key has one, else ``f_reference``."""
        accepted = self.functions.get(f"{ex.function}_accepted")
        if accepted is not None:
            return accepted(*case.args, **case.kwargs)
        reference = self.reference(ex)
        return None if reference is None else reference(*case.args, **case.kwargs)

    def answered(self, ex: Exercise, cases: list[Case]) -> list[Case]:
        return [replace(case, expected=self.expected(ex, case)) for case in cases]

    # ---------------------------------------------------------------- cases
    def public_cases(self, ex: Exercise) -> list[Case]:
        """``ex``'s public cases with their answers (made once per process)."""
        if ex.id not in self._public:
            make = self.functions.get(f"{ex.function}_public") or ex.make_inputs
            if make is None:
                raise KeyMissing(f"{ex.id}: neither the exercise nor the key in {self.folder} makes its public cases "
                                 f"(the key's {ex.function}_public)")
            self._public[ex.id] = self.answered(ex, make())
        return self._public[ex.id]

    def hidden_cases(self, ex: Exercise, seed: int) -> list[Case]:
        """The grader's hidden cases of ``ex``, made from ``seed`` (which only the grader knows), with their answers."""
        if (ex.id, int(seed)) not in self._hidden:
            make = self.functions.get(f"{ex.function}_hidden") or ex.make_hidden
            rng = np.random.default_rng([int(seed), ex.seed_key()])
            self._hidden[ex.id, int(seed)] = self.answered(ex, make(rng)) if make is not None else []
        return self._hidden[ex.id, int(seed)]

    def pool(self, ex: Exercise, size: int, seed: int) -> list[Case]:
        """``size`` sealed hidden cases of a lesson check (fewer where fewer inputs exist), for the shipped data:
        each holds its input and :func:`~.checking.seal` of every form of its answer the check accepts."""
        from .inline import unique_draws

        if ex.draw is None:
            return []
        inputs = unique_draws(ex, np.random.default_rng([int(seed), ex.seed_key()]), size)
        sealed = []
        for k, case in enumerate(self.answered(ex, inputs)):
            salt = hashlib.sha256(f"{seed}:{ex.id}:{k}".encode()).hexdigest()[:16]
            hashes = tuple(sorted({seal(salt, form) for form in ex.forms(case)}))
            sealed.append(replace(case, expected=SEALED, salt=salt, hashes=hashes))
        return sealed


__all__ = ["DEFAULT", "Key", "KeyMissing", "load", "locate"]
