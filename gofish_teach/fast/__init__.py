"""The fast path: many games of the built-in strategies, compiled with numba.

- :mod:`.engine`: the compiled games (:func:`play_games`), and what the search bot plays on
  from a position with (:func:`play_on`, :func:`shares`);
- :mod:`.spec`: in plain Python, what the fast path plays (:func:`fast_path_plays` answers
  without numba), its card codes, the codes the rules and strategies become (:func:`rule_codes`), the
  cap on asks;
- :mod:`.pcg64`: NumPy's generator, compiled, so that both engines draw the same numbers.

What the rest of the package uses is named here. The compiled names are loaded when first used:
``simulate`` asks :func:`fast_path_plays` of every run, and a run the fast path cannot play never
loads numba.

>>> from gofish_teach import Rules
>>> fast_path_plays(["memory", "random"], Rules.preset("family")), fast_path_plays(["greedy"], Rules.preset("pond"))
(True, False)
"""
from __future__ import annotations

from ..faces import lazy_face
from .spec import (
                   CARDS_PER_RANK,
                   FAST_STRATEGIES,
                   MAX_ASKS,
                   TOO_LONG,
                   RuleCodes,
                   fast_path_plays,
                   rule_codes,
                   strategy_codes,
                   too_long_message,
)

__all__, __getattr__, __dir__ = lazy_face(globals(), {
    "engine": ("play_games", "supports", "play_on", "shares"),
    "pcg64": ("STATE_SIZE", "WORK_SIZE", "seed_state"),
})
__all__ += ["rule_codes", "RuleCodes", "strategy_codes", "fast_path_plays", "too_long_message",
            "CARDS_PER_RANK", "FAST_STRATEGIES", "MAX_ASKS", "TOO_LONG"]
