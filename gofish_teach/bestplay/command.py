"""The ``solve`` command: the exact best response to a built-in on a small deck, for each seat.

>>> from gofish_teach.__main__ import main
>>> main(["solve", "--rules", "pond", "--ranks", "2", "--hand-size", "2", "--against", "memory"])
... # doctest: +ELLIPSIS
Best response to memory: pond rules, 2 players, 2 ranks, 2 cards each (exact, by backward induction)
seat           best response  memory itself  info states  time
moving first   0.5857         0.4857                 112  ... s
moving second  0.5143         0.5143                  79  ... s
mean           0.5500         0.5000
Win shares (a tie counts 1/2), each seat against memory; "memory itself" plays memory in that seat.
0
"""
from __future__ import annotations

import argparse

from ..rules import PRESETS, Rules
from .solve import MAX_OCEAN, MAX_OCEAN_5, MAX_RANKS, both_seats

AGAINST = ("random", "memory", "most_held")


def add_command(commands) -> None:
    """Add ``solve`` to the command line's subparsers."""
    cmd = commands.add_parser(
        "solve", help="the exact best response to a built-in on a small deck",
        description="Compute, by backward induction over a seat's information states, the strategy that "
                    "maximises the seat's expected win share against a built-in opponent on a small deck "
                    "(2 players), for the seat moving first and the seat moving second; and the share the "
                    "built-in itself gets in that seat against the same opponent.",
        epilog="Example:\n  gofish-teach solve --rules pond --players 2 --ranks 4 --hand-size 3 --against memory",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    cmd.add_argument("--rules", default="pond", choices=list(PRESETS), metavar="NAME",
                     help=f"rule set: {', '.join(PRESETS)} (default: pond)")
    cmd.add_argument("--players", type=int, default=2, metavar="N", help="players (only 2 for now)")
    cmd.add_argument("--ranks", type=int, default=4, metavar="N",
                     help=f"ranks in the deck, the first ones of A, 2, 3, ... (at most {MAX_RANKS}, leaving at most "
                          f"{MAX_OCEAN} cards in the ocean after the deal, {MAX_OCEAN_5} on {MAX_RANKS} ranks; default 4)")
    cmd.add_argument("--hand-size", type=int, default=3, metavar="N", help="cards dealt to each player (default 3)")
    cmd.add_argument("--against", default="memory", choices=AGAINST, metavar="NAME",
                     help=f"the opponent: {', '.join(AGAINST)} (default: memory)")
    cmd.add_argument("--exact", action="store_true", help="compute in fractions (slower; the default on 2-3 ranks)")
    cmd.set_defaults(run=run)


def run(args, out) -> None:
    rules = Rules.preset(args.rules).replace(n_ranks=args.ranks, hand_size=args.hand_size)
    rules.check_players(args.players)
    if args.players != 2:
        raise ValueError(f"--players: the exact solver takes 2 players, not {args.players}")
    exact = True if args.exact or args.ranks <= 3 else None
    results = both_seats(rules, args.against, exact=exact)  # side by side on two cores from 4 ranks
    name = args.against
    print(f"Best response to {name}: {args.rules} rules, 2 players, {args.ranks} ranks, {args.hand_size} cards each "
          f"(exact, by backward induction)", file=out)
    own = f"{name} itself"
    width = max(len(own), 13)
    print(f"{'seat':13}  best response  {own:{width}}  info states  time", file=out)
    for label, r in zip(("moving first", "moving second"), results):
        print(f"{label:13}  {float(r.value):<13.4f}  {float(r.builtin):<{width}.4f}  {r.states:>11,}  "
              f"{r.seconds:.1f} s", file=out)
    mean = sum(float(r.value) for r in results) / 2
    mean_own = sum(float(r.builtin) for r in results) / 2
    print(f"{'mean':13}  {mean:<13.4f}  {mean_own:.4f}", file=out)
    print(f'Win shares (a tie counts 1/2), each seat against {name}; "{own}" plays {name} in that seat.', file=out)
