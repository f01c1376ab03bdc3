"""A package's public face, loaded when first used: its ``__all__``, ``__getattr__`` and ``__dir__``.

A folder of this package (a wing: ``fast/``, ``grade/``, ``teacher/``, ``tournament/``...) names in
its ``__init__`` what the rest of the package may use, and takes each name from the module that
holds it only when it is first asked for: importing the face costs nothing (no numba, no
widgets), and a process in a sandbox that imports one module of the folder does not load the
others. A name can be given as ``(public, inside)`` when the module's own name says less out of
its module (``("add_course_command", "add_command")``).

>>> face = {"__name__": "json"}                  # a package's globals(): here, a stand-in for json's
>>> names, getattr_, dir_ = lazy_face(face, {"decoder": ("JSONDecoder", ("Error", "JSONDecodeError"))})
>>> names
['Error', 'JSONDecoder']
>>> getattr_("Error").__name__, "Error" in face     # looked up in json.decoder once, then kept
('JSONDecodeError', True)
"""
from __future__ import annotations

import importlib


def lazy_face(namespace: dict, where: dict):
    """``(__all__, __getattr__, __dir__)`` for the package whose ``globals()`` is ``namespace``; ``where``
    maps its names by module: ``{"module": ("name", ("public", "inside"), ...)}``."""
    package = namespace["__name__"]
    found = {}
    for module, names in where.items():
        for name in names:
            public, inside = (name, name) if isinstance(name, str) else name
            found[public] = (module, inside)

    def __getattr__(name: str):
        if name not in found:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, inside = found[name]
        value = namespace[name] = getattr(importlib.import_module(f".{module}", package), inside)
        return value

    def __dir__():
        return sorted(set(namespace) | set(found))

    return sorted(found), __getattr__, __dir__
