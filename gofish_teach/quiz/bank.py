"""The bank for a learning platform: every item with its distinct versions, as the platforms'
files want them (one category or question group per item, one variant per distinct version).

>>> from gofish_teach.quiz import items_for
>>> variants = bank_variants(items_for(["01"]), seed=2, versions=3)
>>> [(item.id, len(qs)) for item, qs in variants][:3]
[('Q01.1', 3), ('Q01.2', 3), ('Q01.3', 1)]
"""
from __future__ import annotations

from .model import Question, make_version


def bank_variants(items, seed: int, versions: int, *, every: bool = False) -> list[tuple]:
    """``[(item, [question, ...])]``: for each item, its questions in versions 1 .. ``versions``,
    each distinct set of numbers once (an item without parameters has one), choices in the order
    of the version it first appeared in. ``every``: every version of every item, as many versions
    as the largest item has parameter sets (version ``v`` of an item takes the ``v``-th of a
    shuffle of them, so that many versions meet each one).

    >>> from gofish_teach.quiz import items_for
    >>> [(item.id, len(qs), len(item.space)) for item, qs in bank_variants(items_for(["08"]), 2, 2, every=True)][:2]
    [('Q08.1', 6, 6), ('Q08.M1', 5, 5)]
    """
    if every:
        versions = max([versions] + [len(item.space) for item in items])
    made = [make_version(items, seed, v) for v in range(1, versions + 1)]
    out = []
    for k, item in enumerate(items):
        seen, questions = set(), []
        for version in made:
            q: Question = version.questions[k]
            if q.params not in seen:
                seen.add(q.params)
                questions.append(q)
        out.append((item, questions))
    return out
