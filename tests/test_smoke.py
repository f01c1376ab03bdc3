from gofish_teach import Game, Rules


def test_a_seeded_game_is_reproducible():
    a, b = Game(Rules.preset("pond"), 4, seed=3), Game(Rules.preset("pond"), 4, seed=3)
    assert a.deck == b.deck
    assert [a.hand(p) for p in range(4)] == [b.hand(p) for p in range(4)]
