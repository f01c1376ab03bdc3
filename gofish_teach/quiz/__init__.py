"""The course's quiz bank: items for every learning goal of every lesson, in versions whose numbers
change, with exact keys the kit computes (and checks a second way), printable and importable.

``gofish-teach quiz DIR --versions N --seed S`` writes, per version, a learner's PDF and a key
PDF, and the whole bank as Moodle XML and as a QTI 1.2 package that Canvas imports
(:mod:`.paper`, :mod:`.moodle`, :mod:`.qti`, :mod:`.command`). The teacher's readable copy of the
bank, ``notebooks/teacher/quiz-bank.ipynb``, is written from the same items (:mod:`.notebook`).

>>> from gofish_teach.quiz import ITEMS, make_version, items_for
>>> len({item.lesson for item in ITEMS})     # lessons 00 to 10
11
>>> version = make_version(items_for(["03"]), seed=1, number=2)
>>> [q.item.id for q in version.questions][:3]
['Q03.1', 'Q03.2', 'Q03.3']
>>> sorted(set(version.choice_letters())) <= ["A", "B", "C", "D"]
True
"""
from __future__ import annotations

from ..faces import lazy_face

# The items import the exact probability code; load them only when asked, so that the command
# line (which lists this package's command) starts as fast without them.
__all__, __getattr__, __dir__ = lazy_face(globals(), {
    "catalog": ("ITEMS", "items_for", "make_versions"),
    "model": ("make_version", "Item", "Part", "Choice", "Question", "Version"),
    "notebook": ("check_lesson",),
    "command": ("add_command",),
})
