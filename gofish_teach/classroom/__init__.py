"""The class at the table: learners play each other from their own browsers, and their games become data.

``gofish-teach host`` (:mod:`.command`) starts one process a teacher runs; :mod:`.host` keeps the
tables (:mod:`.table`, around the kit's ``Match``) and their log (:mod:`.storage`), :mod:`.server`
serves the pages and websockets (tornado), :mod:`.protocol` checks every message. What a lesson
imports from here: :func:`load_games` (the games a teacher downloaded, or the bundled sample of
simulated play) and :func:`join` (a notebook's seat at a class table).
"""
