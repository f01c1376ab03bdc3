"""The bank's items, lesson by lesson, and the quiz versions made from them."""
from __future__ import annotations

from .items_00_02 import ITEMS as _EARLY
from .items_03_05 import ITEMS as _MIDDLE
from .items_06_07 import ITEMS as _LATE
from .items_08 import ITEMS as _BEST
from .items_09 import ITEMS as _WHO
from .items_10 import ITEMS as _CLASS
from .model import Item, Version, make_version

#: Every item of the bank, lesson by lesson.
ITEMS: tuple[Item, ...] = tuple(_EARLY + _MIDDLE + _LATE + _BEST + _WHO + _CLASS)

def items_for(lessons=None) -> list[Item]:
    """The items of the given lessons (two-digit strings such as ``"03"``), or every item."""
    if lessons is None:
        return list(ITEMS)
    known = sorted({item.lesson for item in ITEMS})
    wanted = [str(n).zfill(2) for n in lessons]
    bad = [n for n in wanted if n not in known]
    if bad:
        raise ValueError(f"lessons: no lesson {', '.join(bad)}; the bank has lessons {', '.join(known)}")
    return [item for item in ITEMS if item.lesson in wanted]


def make_versions(items, seed: int, versions: int) -> list[Version]:
    """Versions 1 .. ``versions`` of a quiz of ``items``, made with ``seed``."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a whole number, 0 or more, not {seed!r}")
    if isinstance(versions, bool) or not isinstance(versions, int) or not 1 <= versions <= 100:
        raise ValueError(f"versions must be a whole number from 1 to 100, not {versions!r}")
    return [make_version(items, seed, v) for v in range(1, versions + 1)]
