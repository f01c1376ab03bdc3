"""Issue 8, "Hardening" (the core's part): bad input gets a clear error naming the field, and changes nothing.

Saving never destroys an existing file, loading refuses anything that is not a complete save,
numpy integers are welcome as seats and counts, and a ``Rules`` cannot be changed by anyone.
"""
import json
import os
import pickle

import numpy as np
import pytest

import gofish_teach.game as game_module
from gofish_teach import PRESETS, Game, IllegalMove, Rules
from gofish_teach.game import MAX_SAVE_CHARS, MAX_SAVE_DEPTH
from scenarios import assert_illegal, new_game, snapshot

HANDS = ["7♣ 7♦ 2♣ 3♣ 4♣", "7♥ 8♦ 9♦ 10♦ J♦", "8♥ 9♥ 10♥ J♥ Q♥"]


@pytest.fixture
def game():
    """Pond, three players; seat 0 holds 7♣ 7♦ 2♣ 3♣ 4♣ and is to ask."""
    return new_game("pond", HANDS, ocean="K♣ K♦")


# ---------------------------------------------------------------- ending the game
def test_the_question_whether_the_game_is_over_changes_nothing(game):
    """Issue 8: "_check_end reads like a question but ends the game: name it for what it does"."""
    assert not hasattr(game, "_check_end")
    before = snapshot(game)
    assert game._over_reason() is None and snapshot(game) == before
    finished = new_game("pond", ["A♣ A♦ A♥ A♠", "2♣ 2♦ 2♥ 2♠"], n_ranks=2, hand_size=4)
    assert finished.is_over and finished._over_reason() == finished.events[-1].reason == "every book is made"


# ---------------------------------------------------------------- saving: never destroys the old file
def _saved_file(tmp_path, game):
    path = tmp_path / "position.json"
    game.save(path)
    return path, path.read_text(encoding="utf-8")


def _other_files(tmp_path) -> list:
    return sorted(p.name for p in tmp_path.iterdir() if p.name != "position.json")


def test_a_save_that_fails_before_writing_leaves_the_old_file(game, tmp_path, monkeypatch):
    path, old = _saved_file(tmp_path, game)
    game.ask(1, "7")

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(game_module.json, "dumps", broken)
    with pytest.raises(RuntimeError, match="disk full"):
        game.save(path)
    assert path.read_text(encoding="utf-8") == old and _other_files(tmp_path) == []


@pytest.mark.parametrize("step", ["fsync", "replace"])
def test_a_save_that_fails_midway_leaves_the_old_file_and_no_litter(game, tmp_path, monkeypatch, step):
    """The new text is written in full to a temporary file first; failing then still leaves the old save."""
    path, old = _saved_file(tmp_path, game)
    game.ask(1, "7")

    def broken(*args, **kwargs):
        raise OSError("the disk went away")

    monkeypatch.setattr(game_module.os, step, broken)
    with pytest.raises(OSError, match="the disk went away"):
        game.save(path)
    assert path.read_text(encoding="utf-8") == old and _other_files(tmp_path) == []
    assert Game.load(path).n_asks == 0


def test_a_save_replaces_the_old_file_whole_and_keeps_its_mode(game, tmp_path):
    path, _ = _saved_file(tmp_path, game)
    os.chmod(path, 0o640)
    game.ask(1, "7")
    game.save(str(path))
    assert Game.load(path).moves == ((1, "7"),) and (os.stat(path).st_mode & 0o777) == 0o640
    assert _other_files(tmp_path) == []


# ---------------------------------------------------------------- loading: only a complete, sane save
def _save_text(game, **changes) -> str:
    data = json.loads(game.to_json())
    data.update(changes)
    return json.dumps(data)


def test_a_partial_rules_object_is_an_error_not_defaults(game):
    """Issue 8: today ``{"name": "pond"}`` silently deals 7 cards instead of 5."""
    with pytest.raises(ValueError, match=r"saved game: field 'rules': rules: missing option\(s\) n_ranks, deal"):
        Game.from_json(_save_text(game, rules={"name": "pond"}))


def test_every_preset_saves_and_reads_back_its_rules():
    for rules in PRESETS.values():
        assert Rules.from_dict(rules.to_dict()) == rules
        assert Rules.from_dict({**rules.to_dict(), "source": "a note"}) == rules
    with pytest.raises(ValueError, match=r"rules: missing option\(s\) teams"):
        Rules.from_dict({k: v for k, v in PRESETS["pond"].to_dict().items() if k != "teams"})


@pytest.mark.parametrize("where", ["top", "rules"])
def test_a_key_given_twice_is_an_error(game, where):
    text = game.to_json()
    if where == "top":
        text = text[:-1] + ', "asks": []}'
    else:
        text = text.replace('"rules": {', '"rules": {"bluff": true, ', 1)
    with pytest.raises(ValueError, match=r"saved game: key '(asks|bluff)' appears twice"):
        Game.from_json(text)


def test_values_nested_too_deeply_are_an_error(game):
    deep = [1]
    for _ in range(MAX_SAVE_DEPTH):
        deep = [deep]
    with pytest.raises(ValueError, match=f"saved game: values nested more than {MAX_SAVE_DEPTH} deep"):
        Game.from_json(_save_text(game, asks=[deep]))
    with pytest.raises(ValueError, match="saved game: "):
        Game.from_json("[" * 200_000 + "]" * 200_000)  # deeper than the parser's own stack


@pytest.mark.parametrize("number", ["10" + "0" * 30, "9" * 5000, "-" + "1" * 12])
def test_a_huge_number_is_an_error(game, number):
    text = game.to_json().replace('"n_players": 3', f'"n_players": {number}')
    with pytest.raises(ValueError, match="saved game: a number of .* digits"):
        Game.from_json(text)


def test_an_oversized_save_is_refused_unread(game, tmp_path):
    text = _save_text(game, names=["x" * MAX_SAVE_CHARS, "b", "c"])
    with pytest.raises(ValueError, match="saved game: more than 10,000,000 characters"):
        Game.from_json(text)
    (tmp_path / "big.json").write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match="saved game: "):
        Game.load(tmp_path / "big.json")


def test_a_long_value_is_shortened_in_the_message(game):
    with pytest.raises(ValueError, match="is illegal") as error:
        Game.from_json(_save_text(game, asks=[[1, "7" * 100_000]]))
    assert len(str(error.value)) < 400


# ---------------------------------------------------------------- building a game
def test_a_preset_name_is_accepted_as_the_rules():
    """Issue 8: ``Game("pond", 3)`` accepts a preset name, as ``simulate`` does."""
    game = Game("pond", 3, seed=5)
    assert game.rules == Rules.preset("pond") and game.deck == Game(Rules.preset("pond"), 3, seed=5).deck


@pytest.mark.parametrize("rules, message", [
    ("nope", "rules: unknown preset 'nope'"),
    (None, "rules: expected a Rules or a preset name"),
    ({"name": "pond"}, "rules: expected a Rules or a preset name"),
])
def test_rules_that_are_neither_rules_nor_a_preset_are_an_error(rules, message):
    with pytest.raises(ValueError, match=message):
        Game(rules, 3)


@pytest.mark.parametrize("seed", [True, False, "abc", 1.5, -1, [1, 2], np.float64(2.0)])
def test_a_seed_that_is_not_a_whole_number_is_an_error(seed):
    with pytest.raises(ValueError, match="seed: expected None or a non-negative whole number"):
        Game("pond", 3, seed=seed)


def test_numpy_integers_are_seats_counts_and_seeds():
    """Issue 8: numpy integers are accepted as seats and counts, and printed as plain ints."""
    rules = Rules.preset("pond")
    game = Game(rules, np.int64(3), seed=np.uint32(4))
    assert type(game.n_players) is int and game.deck == Game(rules, 3, seed=4).deck
    rank = game.legal_asks()[0][1]
    events = game.ask(np.int64(1), rank, player=np.int8(0))
    assert all(type(value) is not np.int64 for event in events for value in event)
    assert type(game.view(np.int64(1)).player) is int and game.team_of(np.int16(2)) == (2,)
    assert game.count(np.int64(0), "A") == game.count(0, "A")


@pytest.mark.parametrize("call, message", [
    (lambda g: g.ask(np.int64(7), "7"), "target 7 is not a seat"),
    (lambda g: g.ask(1, "7", player=np.int64(2)), "it is player 0's turn, not player 2's"),
    (lambda g: g.ask(1, np.int64(13)), "rank 13 is not in this deck"),
    (lambda g: g.ask(1, "7", player=True), "player True is not a seat"),
])
def test_a_numpy_integer_prints_as_a_plain_int(game, call, message):
    before = snapshot(game)
    with pytest.raises(IllegalMove, match=message) as error:
        call(game)
    assert "np." not in str(error.value) and snapshot(game) == before


def test_a_numpy_player_count_out_of_range_prints_as_a_plain_int():
    with pytest.raises(ValueError, match="are for 2 to 6 players, not 9$"):
        Game("pond", np.int64(9))
    with pytest.raises(ValueError, match="not True"):
        Game("pond", True)


@pytest.mark.parametrize("call", [
    lambda g: g.count(-1, "7"), lambda g: g.count(3, "7"), lambda g: g.count(True, "7"),
    lambda g: g.view(True), lambda g: g.hand(True), lambda g: g.hand(-1),
    lambda g: g.team_of(9), lambda g: g.team_of(-1), lambda g: g.team_of(False),
])
def test_a_seat_that_is_not_a_seat_is_an_error(game, call):
    before = snapshot(game)
    with pytest.raises(ValueError, match="player .* is not a seat: seats are 0 to 2"):
        call(game)
    assert snapshot(game) == before


# ---------------------------------------------------------------- rules
@pytest.mark.parametrize("changes, message", [
    ({"teams": True, "max_players": 3}, "Rules.teams: teams of two need 4 or 6 players, but these rules are for 2 to 3"),
    ({"teams": True, "min_players": 8, "max_players": 8}, "Rules.teams: .* for 8 to 8 players"),
    ({"teams": True, "min_players": 5, "max_players": 5}, "Rules.teams"),
    ({"source": 5}, "Rules.source must be a string"),
])
def test_rules_with_no_way_to_play_are_rejected(changes, message):
    with pytest.raises(ValueError, match=message):
        Rules.preset("pond").replace(**changes)


def test_teams_of_eight_players_are_rejected():
    """README: "teams need 4 or 6 players"."""
    rules = Rules.preset("pond").replace(teams=True, max_players=8, n_ranks=13)
    with pytest.raises(ValueError, match="n_players: teams of two need 4 or 6 players, not 8"):
        Game(rules, 8, seed=0)
    assert Game(rules, 6, seed=0).n_players == 6


@pytest.mark.parametrize("rank, suit", [("A", "ce♥"), ("J", "ack♥"), ("A", "♥ "), ("A", "hearts")])
def test_a_suit_must_be_one_suit(rank, suit):
    """Issue 8: ``check_ask(..., suit="ce♥")`` is rejected (after "A" it used to read as "Ace♥")."""
    game = new_game("pond", ["A♣ J♣ 2♣ 3♣ 4♣", "A♦ J♦ 9♦ 10♦ 8♦"], specific_card=True)
    if suit.strip() == "♥":
        assert game.check_ask(1, rank, suit) == (1, 0, "♥")  # spaces around one suit are fine
        return
    with pytest.raises(IllegalMove, match=f"suit '{suit}' is not one of ♣ ♦ ♥ ♠"):
        game.check_ask(1, rank, suit)
    assert_illegal(game, 1, rank, suit, match="is not one of")


def test_a_strategy_cannot_change_the_rules_through_its_view(game):
    """Issue 8: "not by changing Rules (truly frozen)": not even ``object.__setattr__`` gets through."""
    view, other = game.view(0), game.view(1)
    for attempt in (lambda: object.__setattr__(view.rules, "bluff", True),
                    lambda: object.__setattr__(view.rules, "__class__", type("Loose", (), {})),
                    lambda: object.__delattr__(view.rules, "bluff"),
                    lambda: setattr(view.rules, "bluff", True)):
        with pytest.raises((AttributeError, TypeError)):
            attempt()
    assert not (view.rules.bluff or other.rules.bluff or game.rules.bluff or Rules.preset("pond").bluff)
    assert_illegal(game, 1, "K", match="player 0 holds no Kings")


def test_rules_back_doors_still_check_every_option():
    pond = Rules.preset("pond")
    with pytest.raises(ValueError, match="book_size"):
        pond._replace(book_size=3)
    with pytest.raises(ValueError, match="book_size"):
        Rules._make([*pond[:9], 3, *pond[10:]])


def test_rules_compare_hash_show_and_pickle_as_before():
    pond = Rules.preset("pond")
    assert pond == pond.replace(source="another text") and hash(pond) == hash(pond.replace(source="x"))
    assert pond != pond.replace(bluff=True) and pond != tuple(pond) and pond != Rules.preset("family")
    assert pickle.loads(pickle.dumps(pond)) == pond and pickle.loads(pickle.dumps(pond)).source == pond.source
    assert pond.__doc__ == pond.source and Rules.__doc__.startswith("Every choice that differs")
    assert repr(pond).startswith("Rules(name='pond', n_ranks=13, deal=((2, 5),)") and "source" not in repr(pond)
    assert Rules(name="x", n_ranks=np.int64(4), hand_size=np.int8(2)).to_dict()["n_ranks"] == 4
