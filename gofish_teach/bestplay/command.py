"""The ``solve`` command: the exact best response to a built-in on a small deck, for each seat, or
(``--equilibrium``) an equilibrium of the game and its value.

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

An equilibrium: the value lies between what the two exact best responses against it leave the seat
moving first, so the interval printed holds the game's value for certain (up to rounding).

>>> main(["solve", "--rules", "pond", "--ranks", "2", "--hand-size", "2", "--equilibrium"])
... # doctest: +ELLIPSIS
Equilibrium: pond rules, 2 players, 2 ranks, 2 cards each (discounted CFR over the whole game tree)
value            0.5857 for the seat moving first (the game's value is between 0.585708 and 0.585715)
exploitability   3.1e-06 (exact best responses gain 6.1e-06 moving first, 0.0e+00 moving second)
game tree        596 nodes, 341 information sets
time             50 iterations, ... s of processor time (... s in all; the tree built in ... s)
peak memory      ... GiB (the process's resident set)
0
"""
from __future__ import annotations

import argparse
import resource

from ..rules import PRESETS, Rules
from .cfr import METHODS
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
        epilog="Examples:\n  gofish-teach solve --rules pond --players 2 --ranks 4 --hand-size 3 --against memory\n"
               "  gofish-teach solve --rules pond --players 2 --ranks 3 --hand-size 2 --equilibrium",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    cmd.add_argument("--rules", default="pond", choices=list(PRESETS), metavar="NAME",
                     help=f"rule set: {', '.join(PRESETS)} (default: pond)")
    cmd.add_argument("--players", type=int, default=2, metavar="N", help="players (only 2 for now)")
    cmd.add_argument("--ranks", type=int, default=4, metavar="N",
                     help=f"ranks in the deck, the first ones of A, 2, 3, ... (at most {MAX_RANKS}, leaving at most "
                          f"{MAX_OCEAN} cards in the ocean after the deal, {MAX_OCEAN_5} on {MAX_RANKS} ranks; default 4)")
    cmd.add_argument("--hand-size", type=int, default=3, metavar="N", help="cards dealt to each player (default 3)")
    cmd.add_argument("--against", default=None, choices=AGAINST, metavar="NAME",
                     help=f"the opponent: {', '.join(AGAINST)} (default: memory)")
    cmd.add_argument("--exact", action="store_true",
                     help="compute in fractions (slower; the default on 2-3 ranks); with --equilibrium, the value's "
                          "interval in fractions, from exact best responses to the equilibrium rounded to fractions "
                          "(a single value when they meet, as the linear program's do: minutes on 3 ranks)")
    cmd.add_argument("--equilibrium", action="store_true",
                     help="instead of a best response, an equilibrium of the game (both seats playing best against "
                          "each other) by CFR over the whole game tree, its value and exploitability; small decks only "
                          "(3 ranks and 2 cards each: 3.3 million nodes, about a minute)")
    cmd.add_argument("--target", type=float, default=1e-5, metavar="X",
                     help="--equilibrium: stop once the exploitability is below X (default 1e-5)")
    cmd.add_argument("--iterations", type=int, default=5000, metavar="N",
                     help="--equilibrium: at most N iterations (default 5000)")
    cmd.add_argument("--method", default="dcfr", choices=list(METHODS),
                     help="--equilibrium: discounted CFR (dcfr, the default), CFR+ (cfr+), or the sequence-form "
                          "linear program (lp: exact, about 4.5 times CFR's memory)")
    cmd.set_defaults(run=run)


def run(args, out) -> None:
    rules = Rules.preset(args.rules).replace(n_ranks=args.ranks, hand_size=args.hand_size)
    rules.check_players(args.players)
    if args.players != 2:
        raise ValueError(f"--players: the exact solver takes 2 players, not {args.players}")
    if args.equilibrium:
        if args.against is not None:
            raise ValueError("--equilibrium: the equilibrium plays both seats; --against is for a best response")
        return run_equilibrium(rules, args, out)
    args.against = args.against or "memory"
    exact = True if args.exact or args.ranks <= 3 else None
    results = both_seats(rules, args.against, exact=exact)  # side by side on two cores from 4 ranks
    name = args.against
    print(f"Best response to {name}: {args.rules} rules, 2 players, {args.ranks} ranks, {args.hand_size} cards each "
          f"(exact, by backward induction)", file=out)
    own = f"{name} itself"
    width = max(len(own), 13)
    print(f"{'seat':13}  best response  {own:{width}}  info states  time", file=out)
    for label, r in zip(("moving first", "moving second"), results, strict=True):
        print(f"{label:13}  {float(r.value):<13.4f}  {float(r.builtin):<{width}.4f}  {r.states:>11,}  "
              f"{r.seconds:.1f} s", file=out)
    mean = sum(float(r.value) for r in results) / 2
    mean_own = sum(float(r.builtin) for r in results) / 2
    print(f"{'mean':13}  {mean:<13.4f}  {mean_own:.4f}", file=out)
    print(f'Win shares (a tie counts 1/2), each seat against {name}; "{own}" plays {name} in that seat.', file=out)


def run_equilibrium(rules, args, out) -> None:
    import time
    from math import ceil, floor

    from .tree import Tree

    if not 0 < args.target < 1 or args.iterations < 1:
        raise ValueError("--target must be between 0 and 1 and --iterations at least 1")
    start = time.perf_counter()
    tree = Tree(rules)
    built = time.perf_counter() - start
    eq = tree.solve(iterations=args.iterations, target=args.target, method=args.method)
    gains = [max(g, 0.0) for g in eq.gains]  # never below 0 but by rounding (about 1e-16)
    # the game's value is at most seat 0's best response to seat 1's strategy, and at least 1 minus seat 1's:
    # printed rounded outwards, so that the interval still holds it
    low, high = floor((eq.value - gains[1]) * 1e6) / 1e6, ceil((eq.value + gains[0]) * 1e6) / 1e6
    method = {"dcfr": "discounted CFR", "cfr+": "CFR+", "lp": "the sequence-form linear program"}[args.method]
    cards = f"{args.hand_size} card{'s' if args.hand_size != 1 else ''} each"
    print(f"Equilibrium: {args.rules} rules, 2 players, {args.ranks} ranks, {cards} ({method} over the whole game tree)",
          file=out)
    print(f"value            {eq.value:.4f} for the seat moving first (the game's value is between {low:.6f} and "
          f"{high:.6f})", file=out)
    print(f"exploitability   {sum(gains) / 2:.1e} (exact best responses gain {gains[0]:.1e} moving first, "
          f"{gains[1]:.1e} moving second)", file=out)
    print(f"game tree        {eq.nodes:,} nodes, {eq.infosets:,} information sets", file=out)
    steps = "the linear program" if args.method == "lp" else f"{eq.iterations:,} iterations"
    print(f"time             {steps}, {eq.cpu:.1f} s of processor time ({eq.seconds:.1f} s in all; "
          f"the tree built in {built:.1f} s)", file=out)
    if args.exact:
        from . import exact

        cpu = time.process_time()
        low, high = exact.bounds(tree, exact.rational(tree, eq.sigma))
        said = f"exactly {_fraction(low)}" if low == high else f"between {_fraction(low)} and {_fraction(high)}"
        print(f"in fractions     the game's value is {said} (the two best responses, in Fractions, to the "
              f"equilibrium rounded to fractions: {time.process_time() - cpu:.1f} s)", file=out)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # kilobytes on Linux
    print(f"peak memory      {peak / 2**30:.2f} GiB (the process's resident set)", file=out)
    if eq.exploitability >= args.target and args.method != "lp":
        print(f"Not yet below the target {args.target:g} after {eq.iterations:,} iterations: more --iterations.",
              file=out)


def _fraction(x) -> str:
    """A Fraction as itself when short (with its decimals), else its decimals only."""
    return f"{x} = {float(x):.10f}" if x.denominator < 10**12 else f"{float(x):.10f}"
