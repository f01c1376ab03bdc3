"""The answer key: every exercise's and lesson check's reference function. The teacher's; never shipped.

This folder is not a part of the package (``pyproject.toml`` packages ``gofish_teach*`` only),
so neither the wheel nor ``gofish-teach course`` carries it. It is read by:

- the grader, which makes every case's answer here, public and hidden (``grade --key DIR``,
  by default this folder of the kit it runs from), and masks this folder in every sandbox;
- the build of the shipped case data, ``python -m gofish_teach.exercises.casedata``, which
  writes the public cases' answers and the sealed pools of hidden cases that a learner's check
  cell uses (``gofish_teach/exercises/data/``); a test fails when that data drifts from here;
- the repository's tests.

:mod:`gofish_teach.exercises.key` loads every module of this folder and finds, for an exercise
or check whose function is ``f``: ``f_reference`` (the answer to a call, required unless the
check needs none), and optionally ``f_accepted`` (every right answer, where a check accepts
several), ``f_public()`` and ``f_hidden(rng)`` (the cases' inputs, where choosing them takes the
answer). Adding a check to the key is one function here, then the rebuild.
"""
