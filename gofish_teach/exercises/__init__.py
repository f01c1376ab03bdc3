"""The exercises' checks: what a learner's check cell calls, and what the grader runs.

In an exercise notebook::

    from gofish_teach.exercises import check
    check("01-deal", deal)

prints, for every case, the call that was tried, the answer expected and what came back.
The lessons' inline "Check your understanding" questions (:mod:`.inline`, ids such as
``"L02-expected-pairs"``) are checked the same way; they are not in :data:`EXERCISES`
(the graded exercise notebooks), but :func:`get_exercise` finds them.
Each call runs in a child process with a time and a memory limit (:mod:`.sandbox`), so
an exception, an endless loop or a memory hog is reported, and the kernel carries on.

No reference answer is in this package (a learner installs it): the checks' answers are the
teacher's key (``solutions/key/``, :func:`load_key`), from which the teacher's build makes the
data a check cell needs (:mod:`.casedata`: the public answers, and sealed hidden cases).

>>> [ex.id for ex in EXERCISES][:3]
['01-deal', '02-legal-asks', '03-give']
>>> get_exercise("07-p-lucky").function
'p_lucky'
>>> get_exercise("L02-expected-pairs").function
'expected_pairs'
"""
from __future__ import annotations

from .chances import P_HOLDS, P_LUCKY
from .checking import SEALED, Case, Exercise, Report, check, run_check, seal
from .game_logic import BOOKS, DEAL, GAME_OVER, GIVE, LEGAL_ASKS, NEXT_ASKER
from .inline import INLINE
from .key import KeyMissing
from .key import load as load_key
from .plain import decode as decode_plain
from .plain import encode as encode_plain
from .sandbox import call as call_in_child
from .strategy import ASK_WHO_ASKED, CAPSTONE, EXPERIMENT, SMALL_POND, biggest_pile, lowest_rank, random_asker
from .strategy_posterior import POSTERIOR_AFTER_ASK

#: Every exercise, in the order of the notebooks (rising difficulty).
EXERCISES: tuple[Exercise, ...] = (DEAL, LEGAL_ASKS, GIVE, BOOKS, NEXT_ASKER, GAME_OVER, P_LUCKY, P_HOLDS,
                                   ASK_WHO_ASKED, EXPERIMENT, CAPSTONE, POSTERIOR_AFTER_ASK)
_BY_ID = {ex.id: ex for ex in EXERCISES}


def get_exercise(exercise) -> Exercise:
    """An :class:`Exercise` from itself, its id (``"01-deal"``, ``"L02-expected-pairs"``) or its number (``"01"`` or ``1``)."""
    if isinstance(exercise, Exercise):
        return exercise
    key = str(exercise).strip()
    if key in _BY_ID:
        return _BY_ID[key]
    for ex in INLINE:
        if ex.id == key:
            return ex
    for ex in EXERCISES:
        if key.isdigit() and ex.id.startswith(f"{int(key):02d}-"):
            return ex
    raise ValueError(f"exercise {exercise!r} is unknown: choose one of {', '.join(_BY_ID)}")


__all__ = ["EXERCISES", "INLINE", "Case", "Exercise", "Report", "check", "run_check", "get_exercise",
           "lowest_rank", "biggest_pile", "random_asker", "SMALL_POND",
           # for the grader: a function called in a child process of its own, its value as plain data
           "call_in_child", "encode_plain", "decode_plain",
           # the teacher's answer key (outside the package), and the sealed cases made from it
           "load_key", "KeyMissing", "SEALED", "seal"]
