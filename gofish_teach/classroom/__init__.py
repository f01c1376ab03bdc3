"""The class at the table: learners play each other from their own browsers, and their games become data.

``gofish-teach host`` (:mod:`.command`) starts the one process a teacher runs; :mod:`.host` keeps the
tables (:mod:`.table`, around the kit's ``Match``) and their log (:mod:`.storage`), :mod:`.server`
serves the pages and websockets (tornado), :mod:`.protocol` checks every message and
:mod:`.codes` makes the codes and tokens. What a lesson or a learner imports from here:

- :func:`load_games`: the class's games (the teacher's download, or the bundled sample of simulated
  play) as :class:`ClassGames`, which give the tables ``simulate`` gives, one row per seat, one per ask;
- :func:`join`: a seat at a class table from a notebook cell (a :class:`RemoteTable`).

>>> from gofish_teach.classroom import load_games
>>> load_games().simulated
True
"""
from ..faces import lazy_face

# Loaded when first asked for: the command line imports this package and needs none of the games' or
# the notebook's modules until a command runs.
__all__, __getattr__, __dir__ = lazy_face(globals(), {
    "games": ("load_games", "ClassGames", "ClassGame"),
    "notebook": ("join", "RemoteTable"),
    "command": ("add_command",),  # the command line's ``host``
})
