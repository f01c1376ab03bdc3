"""The bundled sample of the class's games: SIMULATED play, for a lesson run without a class's own file.

Twenty-four simulated learners play ten rounds at twelve tables, two learners with a ``memory`` bot
and a ``random`` bot each (seats shuffled every round), through the same tables the host runs
(:class:`~.table.ClassTable`), written in the same format as the teacher's download, every line
marked ``"simulated": true`` and every learner named "simulated learner k".

A simulated learner has an *attention*, drawn once (Beta(2, 2): most in the middle, a few very
attentive or very careless). At each ask, with that probability it plays as ``memory`` does (ask
who asked before when it can, else build on its biggest group of a rank), otherwise as ``random``.
So the attentive learners both remember more *and* build on their pairs more: remembering comes
with something else that wins games, as attention, experience or interest would in a real class.
The lesson uses that: "those who remembered won more" is true of this sample, and still says
little about what remembering itself does.

``python -m gofish_teach.classroom.sample`` writes the file again (the same bytes, from its seed);
a test checks the bundled one is what it writes.
"""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np

from .. import memory, random
from .games import SAMPLE
from .table import ClassTable, bot_choice, table_config

LEARNERS, ROUNDS, SEED = 24, 10, 2026


class SimulatedLearner:
    """Plays ``memory`` with probability ``attention`` at each ask, else ``random``."""

    def __init__(self, attention: float):
        self.attention = float(attention)

    def __call__(self, view, rng):
        return memory(view, rng) if rng.random() < self.attention else random(view, rng)


def sample_lines(learners: int = LEARNERS, rounds: int = ROUNDS, seed: int = SEED) -> list[str]:
    """The sample's lines (one game each), the same for the same arguments."""
    rng = np.random.default_rng(seed)
    attention = rng.beta(2, 2, size=learners)
    people = [SimulatedLearner(a) for a in attention]
    lines = []
    for round_ in range(rounds):
        order = rng.permutation(learners)
        for t in range(learners // 2):
            pair = order[2 * t:2 * t + 2]
            roles = ["learner", "learner", "memory", "random"]
            rng.shuffle(roles)
            table = ClassTable(f"SIM{round_:02d}-{t:02d}", table_config(
                {"rules": "pond", "seats": roles, "label": "simulated class", "pause": 0}))
            table.apply(*table.deal_entry(int(rng.integers(2**62))))
            sitting = {}
            for k in pair:
                kind, data = table.join_entry(f"simulated learner {k + 1}", f"sim-{k}")
                table.apply(kind, data)
                sitting[data["seat"]] = people[k]
            while not table.over:
                seat = table.to_move()
                game = table.game
                if seat in sitting:
                    move = sitting[seat](game.view(seat), np.random.default_rng([seed, round_, t, seat, game.n_asks]))
                    entry = table.bot_ask_entry(seat, tuple(move), "learner")
                else:
                    strategy = table.seats[seat].strategy
                    entry = table.bot_ask_entry(seat, bot_choice(*table.bot_job(seat, strategy)), strategy)
                table.apply(*entry)
            for line in table.game_lines():
                record = json.loads(line)
                record["simulated"] = True
                lines.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
    return lines


def write_sample(path: Path | None = None) -> Path:
    path = path or Path(__file__).with_name(SAMPLE)
    text = "".join(line + "\n" for line in sample_lines())
    path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    return path


if __name__ == "__main__":
    print(f"written: {write_sample()}")
