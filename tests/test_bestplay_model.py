"""The compact model of gofish_teach.bestplay follows the engine: every position, every
observation and every built-in's choice, over random games under every preset."""
import pytest

from gofish_teach import Game, Rules
from gofish_teach.bestplay.model import Model, observe, world_of
from gofish_teach.strategies import STRATEGIES, seat_rng

CASES = [(preset, n_ranks, hand, book) for preset in ("family", "pond", "bicycle", "classic")
         for n_ranks, hand, book in ((3, 2, 4), (4, 3, 4), (3, 1, 4), (3, 2, 2), (4, 2, 2))]


@pytest.mark.parametrize("preset,n_ranks,hand,book", CASES)
def test_model_follows_engine(preset, n_ranks, hand, book):
    rules = Rules.preset(preset).replace(n_ranks=n_ranks, hand_size=hand, book_size=book)
    model = Model(rules)
    names = ["random", "memory", "most_held"]
    for seed in range(12):
        game = Game(rules, 2, seed=seed)
        strategies = [names[seed % 3], names[(seed + 1) % 3]]
        rngs = [seat_rng(seed), seat_rng(seed + 100)]
        views = [observe(game.view(s).events, rules) for s in (0, 1)]
        start = [(p, w) for p, w, o in model.deals() if w == world_of(game) and
                 all(o[s] == views[s][0] for s in (0, 1))]
        assert len(start) == 1
        while not game.is_over:
            world = world_of(game)
            p = game.current_player
            name = strategies[p]
            target, rank = STRATEGIES[name](game.view(p), rngs[p])
            r = rules.ranks.index(rank)
            support = dict(model.policy(name, world))
            assert r in support and (name == "random" or support[r] == 1)
            before = [len(observe(game.view(s).events, rules)) for s in (0, 1)]
            game.ask(target, rank)
            after = world_of(game)
            chunks = [observe(game.view(s).events, rules)[before[s]] for s in (0, 1)]
            hits = [prob for prob, w, o in model.step(world, r) if w == after and list(o) == chunks]
            assert len(hits) == 1 and hits[0] > 0, (world, rank, after)


def test_unmodelled_rules_are_refused():
    with pytest.raises(ValueError, match="bluff"):
        Model(Rules.preset("pond").replace(n_ranks=3, hand_size=2, bluff=True))


def test_the_model_is_the_game_contract():
    """Model implements GameModel, and a view's information key is the observations the model
    gave that seat, deal and steps (so the policies find the solver's beliefs and the tree's sets)."""
    from gofish_teach.bestplay import GameModel

    rules = Rules.preset("bicycle").replace(n_ranks=4, hand_size=3)
    model = Model(rules)
    assert isinstance(model, GameModel)
    for seed in range(6):
        game, rngs = Game(rules, 2, seed=seed), [seat_rng(seed), seat_rng(seed + 50)]
        dealt = [obs for p, w, obs in model.deals() if w == world_of(game) and
                 all(obs[s] == observe(game.view(s).events, rules)[0] for s in (0, 1))]
        seen = [[dealt[0][s]] for s in (0, 1)]
        while not game.is_over:
            p = game.current_player
            for s in (0, 1):
                assert model.information_key(game.view(s)) == (s, tuple(seen[s]))
            world, (target, rank) = world_of(game), STRATEGIES["memory"](game.view(p), rngs[p])
            game.ask(target, rank)
            (obs,) = [o for q, w, o in model.step(world, rules.ranks.index(rank)) if w == world_of(game) and
                      all(o[s] == observe(game.view(s).events, rules)[-1] for s in (0, 1))]
            for s in (0, 1):
                seen[s].append(obs[s])


def test_the_algorithms_use_the_model_only_through_the_contract():
    """Every attribute the solver, the tree, CFR, the linear program and the policies read off a
    model (``model.X``, ``self.model.X``, ``tree.model.X``) is a member of GameModel."""
    import ast
    from pathlib import Path

    import gofish_teach.bestplay as bestplay
    from gofish_teach.bestplay.contract import GameModel

    members = {name for name in vars(GameModel) if not name.startswith("_")} | set(GameModel.__annotations__)
    folder = Path(bestplay.__file__).parent
    read = {}
    for name in ("solve", "tree", "cfr", "lp", "exact", "policy"):
        for node in ast.walk(ast.parse((folder / f"{name}.py").read_text())):
            base = node.value if isinstance(node, ast.Attribute) else None
            if (isinstance(base, ast.Name) and base.id == "model") or (
                    isinstance(base, ast.Attribute) and base.attr == "model"):
                read.setdefault(node.attr, set()).add(name)
    assert {"deals", "asks", "step", "policy", "information_key"} <= set(read), read  # so it cannot pass reading nothing
    assert set(read) <= members, {k: v for k, v in read.items() if k not in members}
