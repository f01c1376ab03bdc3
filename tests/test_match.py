"""Match: people and bots around one Game; undo, step, advance, observers, and bots that misbehave."""
import numpy as np
import pytest

from gofish_teach import GameOver, IllegalMove, Rules
from gofish_teach.match import BotError, Match, Rebuilt
from gofish_teach.strategies import GameTooLong


def rng_states(match):
    return {p: rng.bit_generator.state for p, rng in match._rngs.items()}


def person_plays(match, rng, seat=0):
    """The person at ``seat`` makes one random legal ask."""
    asks = match.game.legal_asks()
    return match.ask(*asks[int(rng.integers(len(asks)))], player=seat)


def test_same_seed_same_match():
    a = Match("pond", ["memory", "random", "greedy"], seed=3)
    b = Match("pond", ["memory", "random", "greedy"], seed=3)
    a.advance(), b.advance()
    assert a.game.is_over and a.game.to_json() == b.game.to_json()
    c = Match("pond", ["memory", "random", "greedy"], seed=4)
    assert c.game.deck != a.game.deck


def test_a_fresh_seed_is_drawn_and_shown():
    match = Match("pond", [None, "random"])
    assert isinstance(match.seed, int) and 0 <= match.seed < 1_000_000
    again = Match("pond", [None, "random"], seed=match.seed)
    assert again.game.deck == match.game.deck


def test_undo_restores_exactly_and_replays_identically():
    match = Match("pond", [None, "memory", "random", "most_held"], seed=11)
    rng = np.random.default_rng(0)
    for _ in range(3):
        person_plays(match, rng)
        match.advance()
    saved = (match.game.to_json(), match.game.events, rng_states(match), match.game.view(0).events)
    move = match.game.legal_asks()[0]
    first = match.ask(*move, player=0) + match.advance()
    after_first = match.game.to_json()
    match.undo()
    assert (match.game.to_json(), match.game.events, rng_states(match), match.game.view(0).events) == saved
    assert match.person_to_move == 0
    second = match.ask(*move, player=0) + match.advance()
    assert second == first and match.game.to_json() == after_first


def test_undo_back_to_the_deal_and_no_further():
    match = Match("family", [None, "random", "random"], seed=5)
    dealt = match.game.to_json()
    rng = np.random.default_rng(1)
    for _ in range(4):
        person_plays(match, rng)
        match.advance()
        if match.game.is_over:
            break
    while match.can_undo:
        match.undo()
    assert match.game.to_json() == dealt
    with pytest.raises(IllegalMove, match="nothing to undo"):
        match.undo()


def test_undo_after_game_over():
    match = Match("pond", [None, "random"], seed=2)
    rng = np.random.default_rng(2)
    while not match.game.is_over:
        if match.person_to_move is not None:
            before = match.game.to_json()
            person_plays(match, rng)
        match.advance()
    match.undo()
    assert not match.game.is_over and match.game.to_json() == before and match.person_to_move == 0


def test_observers_hear_every_event_and_rebuilds():
    match = Match("pond", [None, "memory", "random"], seed=8)
    heard, dealt = [], len(match.game.events)
    match.observe(heard.append)
    rng = np.random.default_rng(3)
    person_plays(match, rng)
    match.advance()
    assert heard == list(match.game.events[dealt:])
    n = len(match.game.events)
    match.undo()
    assert heard[-1] == Rebuilt("undo", len(match.game.events)) and len(match.game.events) < n
    match.new_game(seed=9)
    assert heard[-1] == Rebuilt("new game", len(match.game.events)) and match.seed == 9
    assert match.game.deck == Match("pond", [None, "memory", "random"], seed=9).game.deck
    match.unobserve(heard.append)
    count = len(heard)
    person_plays(match, rng)
    assert len(heard) == count


def test_observer_events_are_the_public_log():
    match = Match("bicycle", ["random", "memory", "most_held"], seed=1)
    heard = []
    match.observe(heard.append)
    match.advance()
    dealt = len(match.game.events) - len(heard)
    assert heard == list(match.game.events[dealt:]) and isinstance(heard[-1], GameOver)


def test_step_is_exactly_one_bot_ask():
    match = Match("pond", [None, "memory", "random", "greedy"], seed=4)
    with pytest.raises(IllegalMove, match="no bot is to ask"):
        match.step()
    person_plays(match, np.random.default_rng(0))
    while match.bot_to_move is not None:
        n, seat = match.game.n_asks, match.bot_to_move
        events = match.step()
        assert match.game.n_asks == n + 1 and events[0].player == seat
    assert match.person_to_move == 0 or match.game.is_over


def test_advance_stops_for_a_person_and_plays_bots_to_the_end():
    match = Match("classic", ["random", None, "memory"], seed=6)
    match.advance()
    assert match.person_to_move == 1 and match.waiting_for(1) and not match.waiting_for(0)
    assert match.advance() == []  # nothing to do while a person must ask
    bots = Match("classic", ["random", "greedy", "memory"], seed=6)
    bots.advance()
    assert bots.game.is_over and bots.person_to_move is None and bots.bot_to_move is None


def test_a_person_cannot_ask_out_of_turn_or_for_a_bot():
    match = Match("pond", [None, "memory", None, "random"], seed=12, names=["A", "B", "C", "D"])
    before = match.game.to_json()
    with pytest.raises(IllegalMove, match="it is player 0's turn, not player 2's"):
        match.ask(1, match.game.legal_asks()[0][1], player=2)
    with pytest.raises(IllegalMove, match="seat 1 is a bot"):
        match.ask(0, "A", player=1)
    with pytest.raises(IllegalMove, match="not a person's seat"):
        match.ask(1, "A", player=7)
    with pytest.raises(IllegalMove, match="holds no"):
        held = set(match.game.view(0).counts)
        match.ask(1, next(r for r in match.game.ranks if r not in held), player=0)
    assert match.game.to_json() == before and not match.can_undo


def test_a_bot_that_raises_is_named_and_changes_nothing():
    calls = []

    def clumsy(view, rng):
        calls.append(rng.random())  # consumes randomness, then fails
        raise ZeroDivisionError("oops")

    match = Match("pond", [None, clumsy, "random"], seed=1, names=["You", "West", "East"])
    person_plays(match, np.random.default_rng(5))
    while match.person_to_move == 0:
        person_plays(match, np.random.default_rng(5))
    before, states = match.game.to_json(), rng_states(match)
    with pytest.raises(BotError, match=r"seat 1 \(West, strategy 'clumsy'\) raised ZeroDivisionError: oops") as info:
        match.advance()
    assert info.value.seat == 1 and info.value.strategy == "clumsy"
    assert match.game.to_json() == before and rng_states(match) == states


class Cheater:
    def choose(self, view, rng):
        return (view.player, "A")


@pytest.mark.parametrize("bot, message", [
    (Cheater(), r"seat 1 \(Player 1, strategy 'Cheater'\) asked \(1, 'A'\): player 1 cannot ask themself"),
    (lambda view, rng: "7", r"strategy '<lambda>'\) asked '7': a strategy must return \(target, rank\)"),
    (lambda view, rng: (0, "nonsense"), r"asked \(0, 'nonsense'\): rank 'nonsense' is not in this deck"),
])
def test_a_bot_that_asks_illegally_is_named_and_changes_nothing(bot, message):
    match = Match("pond", ["random", bot], seed=3)
    match.step()
    while match.game.current_player == 0:
        match.step()
    before, states = match.game.to_json(), rng_states(match)
    with pytest.raises(BotError, match=message):
        match.step()
    assert match.game.to_json() == before and rng_states(match) == states


def test_bots_that_never_finish_stop_with_a_clear_error():
    match = Match("pond", ["random", "random"], seed=3, max_bot_asks=5)
    heard = []
    match.observe(heard.append)
    with pytest.raises(GameTooLong, match="5 asks in a row"):
        match.advance()
    assert match.game.n_asks == 5 and heard == list(match.game.events[-len(heard):])


def test_specific_card_and_teams():
    rules = Rules.preset("pond").replace(specific_card=True)
    match = Match(rules, [None, "random", "random"], seed=2)
    target, rank, suit = match.game.legal_asks()[0]
    assert match.ask(target, rank, suit, player=0)[0].suit == suit
    teams = Match(Rules.preset("family").replace(teams=True), [None, "random", "greedy", "random"], seed=2)
    with pytest.raises(IllegalMove, match="partner"):
        teams.ask(2, teams.game.legal_asks()[0][1], player=0)


@pytest.mark.parametrize("kwargs, message", [
    (dict(rules="poker", lineup=[None, "random"]), "unknown preset 'poker'"),
    (dict(rules="pond", lineup=[None]), "n_players"),
    (dict(rules="pond", lineup="random"), "lineup"),
    (dict(rules="pond", lineup=[None, "smart"]), "strategy 'smart' is unknown"),
    (dict(rules="pond", lineup=[None, "random"], seed=-1), "seed"),
    (dict(rules="pond", lineup=[None, "random"], seed=True), "seed"),
    (dict(rules="pond", lineup=[None, "random"], seed="7"), "seed"),
    (dict(rules=3, lineup=[None, "random"]), "rules"),
])
def test_bad_set_up_is_a_clear_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Match(**kwargs)


def test_each_bot_has_its_own_generator_and_cannot_read_the_seed_from_it():
    from gofish_teach import strategies
    from gofish_teach.match import seat_seeds

    seen = []

    def peek(view, rng):
        seen.append((id(rng), rng.bit_generator.seed_seq.entropy))
        return strategies.random(view, rng)

    match = Match("pond", [peek, peek, "random"], seed=123456)
    match.step()
    while match.game.current_player == 0:
        match.step()
    match.step()
    assert len({rng_id for rng_id, _ in seen}) == 2  # one generator per seat
    if not hasattr(strategies, "seat_rng"):
        pytest.skip("strategies.seat_rng is not in yet: bots use numpy.random.default_rng(seat seed)")
    assert all(entropy not in (123456, *seat_seeds(123456, 3)) for _, entropy in seen)
