"""The ``quiz`` command: ``gofish-teach quiz DIR --versions N --seed S``.

Writes into DIR, for each version, ``version-NN.pdf`` (the learner's: questions only) and
``version-NN-key.pdf`` (answers, why, and a grading table); ``keys.csv`` (every version's keys,
one row per part, for grading); and the whole bank of the chosen lessons as
``quiz-bank-moodle.xml`` and ``quiz-bank-canvas-qti.zip``, each question in every distinct version
made (``--all-versions``: every version of each item there is).

>>> import argparse, io, tempfile, pathlib
>>> commands = argparse.ArgumentParser().add_subparsers()
>>> add_command(commands)
>>> out, tmp = io.StringIO(), tempfile.TemporaryDirectory()
>>> folder = pathlib.Path(tmp.name)
>>> args = commands.choices["quiz"].parse_args([str(folder), "--versions", "2", "--lessons", "02", "--no-pdf"])
>>> args.run(args, out)
>>> sorted(p.name for p in folder.iterdir())
['keys.csv', 'quiz-bank-canvas-qti.zip', 'quiz-bank-moodle.xml']
>>> tmp.cleanup()
"""
from __future__ import annotations

import argparse
import csv
from pathlib import Path


def _lessons(text: str | None):
    if text is None:
        return None
    return [part.strip() for part in text.split(",") if part.strip()]


def write_quiz(folder: Path, versions: int, seed: int, lessons=None, pdf: bool = True, html: bool = False,
               chromium: str | None = None, log=None, every: bool = False) -> list[Path]:
    """Write the quiz files into ``folder``; returns their paths. ``every``: the Moodle and Canvas
    banks carry every version of each item, not only those of the ``versions`` made."""
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"DIR: {folder} exists and is not a folder")
    from .catalog import items_for, make_versions  # the bank, loaded only when a quiz is written
    from .moodle import moodle_xml
    from .paper import key_text, print_version
    from .qti import qti_zip

    items = items_for(lessons)
    made = make_versions(items, seed, versions)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    if pdf:
        from ..teacher import find_chromium

        chromium = chromium or find_chromium()
        for version in made:
            written.extend(print_version(version, folder, chromium, html_too=html))
            if log:
                print(f"  version {version.number}: {written[-2].name}, {written[-1].name}", file=log, flush=True)
    keys = folder / "keys.csv"
    with keys.open("w", newline="", encoding="utf-8") as f:
        table = csv.writer(f)
        table.writerow(["version", "question", "item", "lesson", "goals", "part", "kind", "key"])
        for version in made:
            for i, q in enumerate(version.questions, 1):
                for j, part in enumerate(q.parts):
                    table.writerow([version.number, i, q.item.id, q.item.lesson, " ".join(map(str, q.item.goals)),
                                    "abcdefgh"[j] if len(q.parts) > 1 else "", part.kind, key_text(part)])
    moodle = folder / "quiz-bank-moodle.xml"
    moodle.write_text(moodle_xml(items, seed, versions, every=every), encoding="utf-8")
    qti = folder / "quiz-bank-canvas-qti.zip"
    qti.write_bytes(qti_zip(items, seed, versions, every=every))
    written += [keys, moodle, qti]
    return written


def add_command(commands) -> None:
    """The ``quiz`` command."""
    cmd = commands.add_parser(
        "quiz", help="write quiz versions (learner and key PDFs) and the bank for Moodle and Canvas",
        description="Write, for each version, a learner's PDF (questions only) and a key PDF, with numbers that "
                    "change from version to version and exact keys computed by the kit; keys.csv for grading; "
                    "and the whole bank of the chosen lessons as Moodle XML (quiz-bank-moodle.xml) and as a QTI "
                    "1.2 package Canvas imports (quiz-bank-canvas-qti.zip).",
        epilog="Example:\n  gofish-teach quiz quiz --versions 3 --seed 2026 --lessons 02,03",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    cmd.add_argument("folder", type=Path, metavar="DIR", help="where to write the quiz (created if missing)")
    cmd.add_argument("--versions", type=int, default=2, metavar="N", help="how many versions, 1 to 100 (default: 2)")
    cmd.add_argument("--seed", type=int, default=0, metavar="S",
                     help="the same seed makes the same versions (default: 0)")
    cmd.add_argument("--lessons", default=None, metavar="LL,LL",
                     help="only these lessons, e.g. 02,03 (default: all, 00 to 08)")
    cmd.add_argument("--all-versions", action="store_true",
                     help="the Moodle and Canvas banks carry every version of each item (a random question "
                          "from an item's category or group then draws from all of them), not only the N made")
    cmd.add_argument("--no-pdf", action="store_true", help="skip the PDFs (no Chromium needed)")
    cmd.add_argument("--html", action="store_true", help="also keep each PDF's HTML")
    cmd.add_argument("--chromium", metavar="PATH", default=None,
                     help="the Chromium to print with (default: /usr/bin/chromium, or one on the PATH)")
    cmd.set_defaults(run=run_quiz)


def run_quiz(args, out) -> None:
    print(f"Writing {args.versions} quiz version(s), seed {args.seed}, to {args.folder}/ ...", file=out, flush=True)
    written = write_quiz(args.folder, args.versions, args.seed, _lessons(args.lessons), pdf=not args.no_pdf,
                         html=args.html, chromium=args.chromium, log=out, every=args.all_versions)
    print(f"{len(written)} files in {args.folder}/: " + ", ".join(p.name for p in written[-3:])
          + (f" and {len(written) - 3} PDFs" if len(written) > 3 else ""), file=out)
