"""The Table played through its controls, without a browser (``Button.click()``, setting values).

Whole games for every preset, for teams and for the variants: after each action the state,
the log and which controls are enabled are checked against the game itself.
"""
import re

import numpy as np
import pytest

from gofish_teach import GameOver, Rules, probability
from gofish_teach.probability import Facts, posterior
from gofish_teach.strategies import greedy
from gofish_teach.widgets import Table, _knowledge
from gofish_teach.widgets._bench import HandLoop
from gofish_teach.widgets._knowledge import greedy_ranking, while_counting
from gofish_teach.widgets._words import say


def enabled(buttons):
    return {key for key, button in buttons.items() if not button.disabled}


def shown_cards(table):
    """Cards drawn in the hand area, as 'rank+suit' strings, from the rendered HTML."""
    return [title for group in table.hand_box.children
            for title in re.findall(r'class="gf-card[^"]*" title="([^"]+)"', group.children[0].value)]


def check(table):
    """Everything the table shows agrees with the game, and only legal choices are enabled."""
    match, me = table.match, table.me
    game = match.game
    view = table.play.shown_view()
    assert table.message.value == "", table.message.value
    assert table.log_lines == [say(e, game.names, me) for e in view.events]
    assert shown_cards(table) == [str(c) for c in view.hand]
    waiting = table.waiting_for_you
    assert table.ocean.disabled == (waiting != "draw")
    size = view.ocean_size
    assert table.ocean.description == (f"Draw from the ocean ({size} card{'s' * (size != 1)})" if waiting == "draw"
                                       else f"Ocean: {size} card{'s' * (size != 1)}" if size else "Ocean: empty")
    assert ("gf-empty" in table.ocean._dom_classes) == (size == 0)
    if waiting == "ask":
        legal = game.legal_asks()
        assert enabled(table.rank_buttons) == {a[1] for a in legal}
        rank = table._rank
        targets = {a[0] for a in legal if a[1] == rank} if rank else set()
        assert enabled(table.ask_buttons) == targets
    else:
        assert not enabled(table.rank_buttons) and not enabled(table.ask_buttons)
    if waiting != "draw":  # while the ocean waits, the table shows the moment before the draw
        assert view.events == game.view(me).events
    assert table.undo_button.disabled == (not match.can_undo)
    stepping = table.step_toggle.value
    bots_wait = waiting is None and match.bot_to_move is not None
    assert table.next_button.disabled == (not bots_wait) and table.play_button.disabled == (not bots_wait)
    assert (table.next_button.layout.display != "none") == stepping
    if not stepping and waiting != "draw":
        assert not bots_wait or table.bots_playing, "bots should have played on"
    assert not table.bots_playing or bots_wait, "the bots' next ask is scheduled with no bot to ask"
    assert ("The bots are playing" in table.status.value) == table.bots_playing
    if game.is_over and waiting is None:
        assert "Game over" in table.status.value and isinstance(game.events[-1], GameOver)
        assert all("gf-small" in html.value for html in table._seat_html.values())  # every hand revealed
        assert table.log_lines[-1].startswith("Game over")


def act(table, rng):
    """One learner action: draw, or pick a rank (and suit) and ask, or advance the bots in step mode."""
    waiting = table.waiting_for_you
    if waiting == "draw":
        table.ocean.click()
    elif waiting == "ask":
        ranks = sorted(enabled(table.rank_buttons))
        table.rank_buttons[ranks[int(rng.integers(len(ranks)))]].click()
        if table.match.rules.specific_card:
            options = table.suit_choice.options
            table.suit_choice.value = options[int(rng.integers(len(options)))]
        check(table)
        targets = sorted(enabled(table.ask_buttons))
        table.ask_buttons[targets[int(rng.integers(len(targets)))]].click()
    elif rng.random() < 0.8:
        table.next_button.click()
    else:
        table.play_button.click()


def play_through(table, seed=0, max_actions=3000):
    rng = np.random.default_rng(seed)
    check(table)
    for _ in range(max_actions):
        if table.match.game.is_over and table.waiting_for_you is None:
            return table
        act(table, rng)
        check(table)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("preset", ["family", "pond", "bicycle", "classic"])
@pytest.mark.parametrize("opponents", [["memory"], ["random", "most_held", "memory"]])
def test_whole_games_through_the_controls(preset, opponents):
    for seed in range(2):
        table = play_through(Table(preset, opponents=opponents, seed=seed), seed)
        assert table.match.game.is_over


@pytest.mark.parametrize("rules, opponents", [
    (Rules.preset("pond").replace(teams=True), ["random", "random", "random"]),
    (Rules.preset("family").replace(teams=True), ["random", "random", "random", "random", "random"]),
    (Rules.preset("classic").replace(teams=True, book_size=2), ["random", "random", "random"]),
])
def test_teams_through_the_controls(rules, opponents):
    table = play_through(Table(rules, opponents=opponents, seed=3), 3)
    partner = rules.partner(0, len(opponents) + 1)
    assert table.ask_buttons[partner].disabled and table.ask_buttons[partner].description.endswith("(partner)")
    assert "Teams" in table.score.value and "partner" in table._seat_html[partner].value


@pytest.mark.parametrize("changes", [dict(book_size=2), dict(bluff=True), dict(specific_card=True),
                                     dict(n_ranks=5, hand_size=3)])
def test_variants_through_the_controls(changes):
    rules = Rules.preset("pond").replace(**changes)
    for seed in range(2):
        play_through(Table(rules, opponents=["random", "memory"], seed=seed), seed)


def test_step_mode_lets_a_teacher_advance_one_bot_ask_at_a_time():
    table = Table("pond", opponents=["memory", "random", "most_held"], seed=5, step=True, seat=2)
    check(table)
    assert table.match.bot_to_move == 0 and table.match.game.n_asks == 0  # the bots wait for the teacher
    table.next_button.click()
    check(table)
    assert table.match.game.n_asks == 1
    table.play_button.click()
    check(table)
    assert table.waiting_for_you == "ask" or table.match.game.is_over
    table.step_toggle.value = False  # leaving step mode lets the bots play on by themselves
    play_through(table, 1)


def test_undo_takes_back_your_ask_and_the_bots_after_it():
    table = Table("pond", opponents=["memory", "random", "most_held"], seed=11)
    rng = np.random.default_rng(4)
    while table.match.game.n_asks < 12:
        act(table, rng)
    while table.waiting_for_you != "ask":
        act(table, rng)
    saved = (table.match.game.to_json(), list(table.log_lines))
    act(table, rng)
    while table.waiting_for_you != "ask" and not table.match.game.is_over:
        act(table, rng)
    table.undo_button.click()
    check(table)
    assert (table.match.game.to_json(), table.log_lines) == saved


def test_undo_while_the_ocean_waits():
    table = Table("pond", opponents=["random"], seed=7)
    table.rank_buttons["7"].click()
    table.ask_buttons[1].click()
    assert table.waiting_for_you == "draw"
    table.undo_button.click()
    check(table)
    assert table.match.game.n_asks == 0 and table.waiting_for_you == "ask"


def test_bots_are_named_as_bots_and_a_small_deck_says_its_size():
    """A strategy object is labelled by what it is ("search bot"), not by its class ("SearchBot bot");
    the header says the deck when it is not the full 52 (it said "pond rules · 2 players" alone)."""
    from gofish_teach.bestplay import BestResponse, EquilibriumPolicy, SearchBot

    tiny = Rules.preset("pond").replace(n_ranks=2, hand_size=2)
    table = Table(tiny, opponents=[EquilibriumPolicy(tiny, iterations=50)], seed=3)
    seats = " ".join(html.value for html in table._seat_html.values())
    assert "equilibrium bot" in seats and "EquilibriumPolicy" not in seats
    assert "pond rules · 2 players · a deck of 8 cards (A, 2)" in table.header.value
    small = Rules.preset("pond").replace(n_ranks=3, hand_size=2)
    table = Table(small, opponents=[BestResponse(small, "memory")], seed=3)
    seats = " ".join(html.value for html in table._seat_html.values())
    assert "best-response bot (against memory)" in seats and "BestResponse" not in seats
    assert "a deck of 12 cards (A, 2, 3)" in table.header.value
    table = Table("pond", opponents=[SearchBot(), "memory"], seed=3)
    seats = " ".join(html.value for html in table._seat_html.values())
    assert "search bot" in seats and "memory bot" in seats and "SearchBot" not in seats
    assert "pond rules · 3 players<" in table.header.value  # the full deck: no word about it


def test_new_game_and_replaying_a_seed():
    table = Table("family", opponents=["random", "memory"], seed=21)
    first_deal = table.match.game.deck
    table.new_button.click()
    check(table)
    assert table.seed_box.value == str(table.match.seed) and f"seed {table.match.seed}" in table.header.value
    table.seed_box.value = "21"
    table.deal_button.click()
    check(table)
    assert table.match.game.deck == first_deal and table.match.seed == 21


def test_a_bot_going_first_plays_before_you():
    table = Table("pond", opponents=["random", "memory"], seed=1, seat=1)
    check(table)
    assert table.match.game.n_asks >= 1 and table.log_lines[3].startswith("Player") is False


def test_the_lucky_draw_is_shown_and_you_go_again():
    table = Table("pond", opponents=["memory", "random", "greedy"], seed=7)
    table.rank_buttons["3"].click()
    table.ask_buttons[1].click()
    check(table)
    assert 'West says "Go Fish!"' in table.status.value and "gf-pulse" in table.ocean._dom_classes
    table.ocean.click()
    check(table)
    assert "Lucky draw: 3♦!" in table.status.value and table.waiting_for_you == "ask"
    fresh = [g.children[0].value for g in table.hand_box.children if "gf-fresh" in g.children[0].value]
    assert len(fresh) == 1 and 'title="3♦"' in fresh[0]


def test_mistakes_are_short_messages_and_change_nothing():
    table = Table("pond", opponents=["random", "memory"], seed=2)
    before = table.match.game.to_json()
    table.ask_buttons[1].click()  # no rank picked (a disabled button can still be clicked from code)
    assert "pick a rank" in table.message.value and table.match.game.to_json() == before
    table.ocean.click()
    assert "ocean is for drawing" in table.message.value and table.match.game.to_json() == before
    table.next_button.click()
    assert "no bot is to ask" in table.message.value
    held = set(table.match.game.view(0).counts)
    table._rank = next(r for r in table.match.game.ranks if r not in held)
    table.ask_buttons[1].click()
    assert "holds no" in table.message.value and table.match.game.to_json() == before
    assert "Traceback" not in table.message.value
    table.rank_buttons[sorted(held)[0]].click()  # the next good action clears the message
    assert table.message.value == ""


def test_a_broken_bot_is_named_in_the_table():
    def clumsy(view, rng):
        raise KeyError("no idea")

    table = Table("pond", opponents=[clumsy, "random"], seed=3)
    rng = np.random.default_rng(0)
    while table.match.person_to_move == 0 or table.waiting_for_you == "draw":
        act(table, rng)
    assert "seat 1 (West, strategy 'clumsy') raised KeyError" in table.message.value
    assert table.match.game.current_player == 1 and "Traceback" not in table.message.value
    table.undo_button.click()
    assert table.match.person_to_move == 0


def test_knowledge_panel_is_the_exact_posterior_from_your_view():
    table = Table("pond", opponents=["memory", "random", "greedy"], seed=7, knowledge=True)
    table.rank_buttons["7"].click()
    table.ask_buttons[1].click()
    assert table.waiting_for_you == "draw"
    # Before the draw: West said "Go Fish!" to 7s, so P(West holds a 7) is exactly 0 ...
    assert re.search(r'title="P\(West holds at least one 7\): 0[^"]*">0<', table.heatmap.value)
    # ... and the gold bar is the chance of a lucky draw, from the view just before it.
    belief = posterior(table.play.shown_view())
    assert f"{float(belief.p_top('7')):.1%} that the top card" in table.bars.value
    heat = table.heatmap.value
    table.ocean.click()
    assert table.heatmap.value != heat and "exact" in table.heatmap.value
    table.facts_toggle.value = True
    assert "From stated facts only" in table.heatmap.value
    table.knowledge_toggle.value = False
    assert table.knowledge_box.layout.display == "none"


def test_undo_shows_the_panel_shown_before_without_counting_again(monkeypatch):
    table = Table("pond", opponents=["memory", "random", "greedy"], seed=5, knowledge=True)
    rng = np.random.default_rng(1)
    while table.match.game.n_asks < 6 or table.waiting_for_you != "ask":
        act(table, rng)
    panel = (table.heatmap.value, table.bars.value)
    act(table, rng)
    while table.waiting_for_you != "ask" and not table.match.game.is_over:
        act(table, rng)
    counted = []
    monkeypatch.setattr(probability, "posterior", lambda view, **kw: counted.append(view))
    table.undo_button.click()
    check(table)
    assert (table.heatmap.value, table.bars.value) == panel and counted == []


def test_the_panel_is_the_count_for_the_state_shown_through_undo_and_replays():
    """The panel remembers answers by the state shown (the deal and every ask): whatever the learner
    does, it shows the count for what the table shows, never one remembered for another state."""
    table = Table("pond", opponents=["greedy", "random"], seed=3, knowledge=True, step=True)
    table.facts_toggle.value = True
    rng = np.random.default_rng(8)
    for _ in range(70):
        roll = rng.random()
        if roll < 0.15 and table.match.can_undo:
            table.undo_button.click()
        elif roll < 0.2:
            table.seed_box.value = str(int(rng.integers(2)) + 3)   # deal seed 3 again, or seed 4
            table.deal_button.click()
        elif table.match.game.is_over and table.waiting_for_you is None:
            table.new_button.click()
        else:
            act(table, rng)
        check(table)
        view = table.play.shown_view()
        asked = table.play.asked.rank if table.play.asked is not None else None
        belief = posterior(view)
        assert table.heatmap.value == _knowledge.heatmap(belief, view, table.match.game.names,
                                                         Facts.from_view(view), None)
        assert table.bars.value == _knowledge.top_bars(belief, view, asked)


def test_knowledge_panel_and_hints_through_a_whole_game():
    table = Table("pond", opponents=["memory", "random", "most_held"], seed=4, knowledge=True, hints=True)
    table.facts_toggle.value = True
    rng = np.random.default_rng(2)
    while not (table.match.game.is_over and table.waiting_for_you is None):
        if table.waiting_for_you == "ask":
            assert "memory</b> would ask" in table.hint.value and "greedy</b> would ask" in table.hint.value
            view = table.match.game.view(0)
            t, r = greedy(view, None)
            assert greedy_ranking(posterior(view), view)[0][:2] == (t, r)
            assert f"greedy</b> would ask <b>{table.match.game.names[t]} for" in table.hint.value
        assert "gf-heat" in table.heatmap.value and table.message.value == ""
        act(table, rng)
        check(table)


@pytest.mark.parametrize("rules, n_opponents", [(Rules.preset("pond").replace(specific_card=True), 2),
                                                (Rules.preset("family").replace(teams=True), 3),
                                                (Rules.preset("pond").replace(bluff=True, book_size=2), 2)])
def test_knowledge_panel_under_unusual_rules(rules, n_opponents):
    table = Table(rules, opponents=["random"] * n_opponents, seed=1, knowledge=True, hints=True)
    table.facts_toggle.value = True
    play_through(table, 1)
    if rules.specific_card:
        assert "about ranks" in table.heatmap.value


def test_who_is_who_panel_through_a_whole_mystery_game():
    """The panel is the opponent model's posterior from your view, row by row; a mystery table names no
    bot's strategy until the game is over, and then every one."""
    from gofish_teach.bestplay import OpponentModel

    table = Table("pond", opponents=["memory", "random", "most_held"], seed=4, who=True, mystery=True)
    model, rng, panels = OpponentModel(), np.random.default_rng(5), 0
    while not (table.match.game.is_over and table.waiting_for_you is None):
        html = table.who.view_html.value
        assert html.count('class="gf-who-row"') == 3 and table.who.box.layout.display == ""
        for seat, belief in model.posterior(table.play.shown_view()).items():
            best = max(belief, key=belief.get)
            row = html.split(f'<td class="gf-who-name">{table.match.game.names[seat]}</td>')[1].split("</tr>")[0]
            assert f'class="gf-who-best" title="P({table.match.game.names[seat]} plays' in row
            assert f"{belief[best]:.0%}</td>" in row
        assert not any(f"{s} bot" in table._seat_html[q].value or f"({s} bot)" in table.status.value
                       for q in (1, 2, 3) for s in ("memory", "random", "most_held"))
        panels += 1
        act(table, rng)
        check(table)
    assert panels > 5 and "last ask:" in table.who.view_html.value
    assert all(f"{s} bot" in table._seat_html[q].value for q, s in zip((1, 2, 3), ("memory", "random", "most_held"), strict=True))
    table.who.toggle.value = False
    assert table.who.box.layout.display == "none"


def test_who_is_who_panel_under_rules_it_cannot_read_is_a_note():
    table = Table(Rules.preset("pond").replace(specific_card=True), opponents=["random"] * 2, seed=1, who=True)
    play_through(table, 1)
    assert "cannot read this game" in table.who.view_html.value and "Traceback" not in table.who.view_html.value


def test_the_table_follows_moves_made_from_code():
    table = Table("pond", opponents=["random"], seed=9)
    target, rank = table.match.game.legal_asks()[0]
    table.match.ask(target, rank, player=0)
    assert table.log_lines == [say(e, table.match.game.names, 0) for e in table.match.game.view(0).events]
    table.match.new_game(seed=10)
    check(table)


@pytest.mark.parametrize("kwargs, message", [
    (dict(opponents="memory"), "opponents"),
    (dict(opponents=[]), "opponents"),
    (dict(opponents=["random"] * 6), "2 to 6 players"),
    (dict(opponents=["random", None]), "None is your own seat"),
    (dict(opponents=["smart"]), "strategy 'smart' is unknown"),
    (dict(seat=3, opponents=["random"]), "seat"),
    (dict(rules="poker"), "unknown preset"),
])
def test_bad_set_up_is_a_clear_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Table(**kwargs)


def test_repr_says_how_to_make_it_again():
    assert repr(Table("pond", opponents=["memory"], seed=3)) == "Table('pond', opponents=['memory'], seed=3)"
    teams = Table(Rules.preset("pond").replace(teams=True), opponents=["random"] * 3, seed=1)
    assert repr(teams) == "Table(Rules.preset('pond').replace(teams=True), opponents=['random', 'random', 'random'], seed=1)"


# ---------------------------------------------------------------------- the bots one ask per event
def chained(seed=7, opponents=("memory", "random", "greedy"), **kwargs):
    """A table whose bots play on a :class:`HandLoop` from the deal on (built in step mode, then left)."""
    table = Table("pond", opponents=list(opponents), seed=seed, step=True, **kwargs)
    table.loop = HandLoop()
    table.step_toggle.value = False
    return table


def ask_until_the_bots_play(table, rng):
    """Your asks (and draws) until the turn passes to the bots, whose chain is then scheduled."""
    while table.waiting_for_you is not None:
        act(table, rng)
        check(table)
    return table


def test_the_bots_play_one_ask_per_event_up_to_your_turn():
    table = ask_until_the_bots_play(chained(), np.random.default_rng(0))
    loop = table.loop
    assert table.bots_playing and len(loop.waiting) == 1 and loop.waiting[0].delay == table.bot_pause
    assert not enabled(table.ask_buttons) and not enabled(table.rank_buttons)
    assert "The bots are playing" in table.status.value
    asks, lines = table.match.game.n_asks, len(table.log_lines)
    while loop.run_one():
        check(table)
        assert table.match.game.n_asks == asks + 1 and len(table.log_lines) > lines  # one ask, drawn at once
        asks, lines = table.match.game.n_asks, len(table.log_lines)
        assert len(loop.waiting) == (1 if table.match.bot_to_move is not None else 0)
    assert not table.bots_playing
    assert table.waiting_for_you == "ask" or table.match.game.is_over
    assert "Your turn" in table.status.value or table.match.game.is_over


def test_whole_games_with_the_bots_one_ask_per_event():
    for seed in range(2):
        table = chained(seed=seed, opponents=("memory", "random", "greedy"), knowledge=True)
        rng = np.random.default_rng(seed)
        for _ in range(3000):
            if table.match.game.is_over and table.waiting_for_you is None and not table.loop.waiting:
                break  # the game over, and the panel's last count made
            if not table.loop.run_one():
                act(table, rng)
            check(table)
        assert table.match.game.is_over and not table.loop.waiting


def test_undo_stops_the_bots_chain():
    table = ask_until_the_bots_play(chained(seed=11), np.random.default_rng(4))
    table.loop.run_one()
    assert table.bots_playing
    before = table.match.game.n_asks
    table.undo_button.click()
    check(table)
    assert not table.bots_playing and not table.loop.waiting and table.waiting_for_you == "ask"
    assert table.match.game.n_asks < before
    game = table.match.game.to_json()
    assert not table.loop.run_one() and table.match.game.to_json() == game


def test_a_new_game_or_a_dealt_seed_stops_the_bots_chain_and_no_ask_lands_in_the_new_game():
    table = ask_until_the_bots_play(chained(seed=3), np.random.default_rng(1))
    old = table.loop.waiting[0]
    table.new_button.click()
    check(table)
    assert old.cancelled and table.match.game.n_asks == 0 and table.waiting_for_you == "ask"
    # At seat 2 the bots ask first in every deal: a dealt seed starts their chain again, in the new game only.
    table = chained(seed=3, seat=2)
    table.loop.run_one()
    assert table.bots_playing and table.match.game.n_asks == 1
    old = table.loop.waiting[0]
    table.seed_box.value = "8"
    table.deal_button.click()
    check(table)
    assert old.cancelled and table.match.seed == 8 and table.match.game.n_asks == 0 and table.bots_playing
    old.callback()  # an ask already on its way when the game changed does nothing
    assert table.match.game.n_asks == 0
    while table.loop.run_one():
        check(table)
    assert table.waiting_for_you == "ask" or table.match.game.is_over


def test_step_mode_stops_the_bots_chain_and_leaving_it_resumes_it():
    table = chained(seed=4, seat=2)  # nine bot asks before your first turn
    assert table.bots_playing and table.match.game.n_asks == 0
    table.step_toggle.value = True
    check(table)
    assert not table.bots_playing and not table.loop.waiting and "Step mode" in table.status.value
    table.next_button.click()
    assert table.match.game.n_asks == 1 and not table.bots_playing
    table.play_button.click()  # "Play to my turn": the bots play one ask per event too
    assert table.bots_playing and table.match.game.n_asks == 1
    table.loop.run_one()
    table.next_button.click()  # "Next" mid-chain: one ask, then the bots wait again
    check(table)
    assert not table.bots_playing and not table.loop.waiting and table.match.game.n_asks == 3
    table.step_toggle.value = False
    check(table)
    assert table.bots_playing or table.waiting_for_you == "ask"
    while table.loop.run_one():
        check(table)
    assert table.waiting_for_you == "ask" or table.match.game.is_over


def test_an_error_in_a_scheduled_bot_ask_is_a_message_and_ends_the_chain():
    def clumsy(view, rng):
        raise KeyError("no idea")

    table = chained(seed=3, opponents=(clumsy, "random"))
    rng = np.random.default_rng(0)
    while "clumsy" not in table.message.value:
        if not table.loop.run_one():
            act(table, rng)
    assert "seat 1 (West, strategy 'clumsy') raised KeyError" in table.message.value
    assert "Traceback" not in table.message.value and not table.bots_playing and not table.loop.waiting
    assert table.match.game.current_player == 1
    table.undo_button.click()
    assert table.match.person_to_move == 0 and table.message.value == ""


def test_bots_that_never_reach_your_turn_stop_with_a_message():
    table = chained(seed=5, seat=2)
    table.match.max_bot_asks = 1
    table.loop.run_one()
    table.loop.run_one()
    assert "the bots made 1 asks in a row" in table.message.value and not table.bots_playing


def test_a_cell_changing_the_match_mid_chain_restarts_the_bots_from_the_new_game():
    table = chained(seed=5, seat=2)
    table.loop.run_one()
    old = table.loop.waiting[0]
    table.match.new_game(seed=6)
    check(table)
    assert old.cancelled and table.bots_playing and table.match.game.n_asks == 0
    while table.loop.run_one():
        check(table)
    assert table.waiting_for_you == "ask" or table.match.game.is_over


def test_in_a_kernel_a_click_in_the_page_plays_the_bots_on_its_loop(monkeypatch):
    """The kernel's own asyncio loop: a click from the page (a comm message) schedules the bots; code
    clicking in a cell plays them at once."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from gofish_teach.widgets import _table_play as table_module

    table = Table("pond", opponents=["memory", "random", "greedy"], seed=7)
    table.bot_pause = 0.001
    table.rank_buttons["7"].click()
    table.ask_buttons[2].click()  # code, not the page: the bots have played
    assert table.waiting_for_you in ("ask", "draw") and not table.bots_playing

    async def a_turn_from_the_page():
        monkeypatch.setattr(table_module, "_clicked_in_the_page", lambda: True)
        rng = np.random.default_rng(2)
        while table.waiting_for_you is not None:
            act(table, rng)
        assert table.bots_playing
        seen = set()
        while table.bots_playing:
            seen.add(table.match.game.n_asks)
            await asyncio.sleep(0.001)
        return seen

    # a thread of its own: a loop may already run in this one (Playwright's, after the browser tests)
    with ThreadPoolExecutor(1) as thread:
        seen = thread.submit(asyncio.run, a_turn_from_the_page()).result(timeout=120)
    check(table)
    assert len(seen) >= 2  # the loop saw the table between the bots' asks
    assert table.waiting_for_you == "ask" or table.match.game.is_over


# ---------------------------------------------------------------------- the panel's count, an event of its own
def counting_posterior(monkeypatch, me=0, fail=None):
    """Record the views of ``me`` whose posterior is counted (the greedy bots count their own views too)."""
    real, counted = probability.posterior, []

    def counting(view, **kwargs):
        if view.player == me:
            counted.append(tuple(view.events))
            if fail is not None:
                raise fail
        return real(view, **kwargs)

    monkeypatch.setattr(probability, "posterior", counting)
    return counted


def full_panel(table):
    view = table.play.shown_view()
    asked = table.play.asked.rank if table.play.asked is not None else None
    belief = posterior(view)
    return (_knowledge.heatmap(belief, view, table.match.game.names), _knowledge.top_bars(belief, view, asked))


def a_learner_ask(table):
    """The learner asks (a page-like event: the table has a loop), drawing when told "Go Fish!"."""
    table.rank_buttons[sorted(enabled(table.rank_buttons))[0]].click()
    table.ask_buttons[sorted(enabled(table.ask_buttons))[0]].click()


def test_after_a_click_the_table_is_drawn_at_once_and_the_panel_counts_in_the_next_event(monkeypatch):
    table = chained(seed=7, knowledge=True, hints=True)
    while table.loop.run_one():
        pass
    counted = counting_posterior(monkeypatch)
    rng = np.random.default_rng(0)
    while not table.bots_playing:  # your asks and draws, each an event that changes the game
        before = (table.heatmap.value, table.bars.value)
        act(table, rng)
        check(table)
        assert counted == [] and table.panel_counting  # drawn without the count, the chances before it dimmed ...
        assert (table.heatmap.value, table.bars.value) == while_counting(*before) != before
        assert "Counting…" in table.heatmap.value and "Traceback" not in table.heatmap.value
        assert ("Counting…" in table.hint.value) == (table.waiting_for_you == "ask")  # the hint waits for it too
        assert table.loop.waiting[0] is table.play.count_handle  # ... which is the next event, before any bot ask
        table.loop.run_one()
        assert counted == [tuple(table.play.shown_view().events)] and not table.panel_counting
        assert (table.heatmap.value, table.bars.value) == full_panel(table)
        assert "Counting…" not in table.hint.value
        counted.clear()
    # the bots' next ask comes a pause after the panel filled in, time to read both
    assert len(table.loop.waiting) == 1 and table.loop.waiting[0].delay == table.bot_pause
    table.loop.run_one()  # one bot ask: drawn, and the panel's count scheduled again
    assert counted == [] and "Counting…" in table.heatmap.value and table.loop.waiting[0] is table.play.count_handle
    table.loop.run_one()
    assert len(counted) == 1 and (table.heatmap.value, table.bars.value) == full_panel(table)


def test_a_scheduled_count_counts_only_the_state_the_table_then_shows(monkeypatch):
    table = chained(seed=7, knowledge=True)
    while table.loop.run_one():
        pass
    counted = counting_posterior(monkeypatch)
    a_learner_ask(table)
    assert table.panel_counting
    table.new_button.click()  # the game moves on before the count runs
    assert "Counting…" in table.heatmap.value and counted == []
    assert [h for h in table.loop.waiting if h is table.play.count_handle] == [table.play.count_handle]  # one count waits
    while table.loop.waiting and table.loop.waiting[0] is table.play.count_handle:
        table.loop.run_one()
    assert counted == [tuple(table.play.shown_view().events)]  # the new deal's state only, not the ask before it
    assert (table.heatmap.value, table.bars.value) == full_panel(table)


def test_undo_to_a_remembered_state_shows_the_panel_at_once_and_the_waiting_count_counts_nothing(monkeypatch):
    table = chained(seed=7, knowledge=True)
    while table.loop.run_one():
        pass
    panel = (table.heatmap.value, table.bars.value)
    counted = counting_posterior(monkeypatch)
    a_learner_ask(table)
    assert "Counting…" in table.heatmap.value
    table.undo_button.click()
    check(table)
    assert (table.heatmap.value, table.bars.value) == panel and counted == []  # shown at once, from memory
    while table.loop.run_one():
        pass
    assert (table.heatmap.value, table.bars.value) == panel and counted == []


def test_an_error_in_the_scheduled_count_is_the_panels_note(monkeypatch):
    table = chained(seed=7, opponents=("memory", "random"), knowledge=True, hints=True)
    while table.loop.run_one():
        pass
    counting_posterior(monkeypatch, fail=RuntimeError("out of cards to count"))
    a_learner_ask(table)
    table.loop.run_one()
    note = "could not count this moment: RuntimeError: out of cards to count"
    assert note in table.heatmap.value and 'class="gf-note"' in table.heatmap.value and table.bars.value == ""
    assert "Traceback" not in table.heatmap.value + table.hint.value and table.message.value == ""
    rng = np.random.default_rng(1)
    for _ in range(6):  # the game goes on; each count fails the same way, in the panel only
        if not table.loop.run_one():
            act(table, rng)
        check(table)
        assert "Counting…" in table.heatmap.value or note in table.heatmap.value


def test_without_a_loop_the_panel_is_counted_within_the_click():
    table = Table("pond", opponents=["memory", "random", "greedy"], seed=7, knowledge=True, hints=True)
    rng = np.random.default_rng(3)
    for _ in range(12):
        act(table, rng)
        assert "Counting…" not in table.heatmap.value + table.hint.value and not table.panel_counting
        assert (table.heatmap.value, table.bars.value) == full_panel(table)


def test_in_a_kernel_each_bot_ask_leaves_the_panels_count_to_an_event_of_its_own(monkeypatch):
    """On the kernel's own loop: after a click in the page every bot ask of the chain draws the table and
    schedules the panel's count, even once the kernel has handled something else (a cell) since the click."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from gofish_teach.widgets import _table_play as table_module

    table = Table("pond", opponents=["memory", "random", "greedy"], seed=7, knowledge=True)
    table.bot_pause = 0.001
    in_the_page = [False]
    monkeypatch.setattr(table_module, "_clicked_in_the_page", lambda: in_the_page[0])
    counted_at, count = [], table.play._count
    monkeypatch.setattr(table.play, "_count", lambda loop=None: (counted_at.append(table.match.game.n_asks), count(loop)))

    async def a_turn_from_the_page():
        in_the_page[0] = True
        rng = np.random.default_rng(2)
        while table.waiting_for_you is not None:
            act(table, rng)
            await asyncio.sleep(0.001)
        in_the_page[0] = False  # a cell ran since: the kernel's last message is no longer the click
        asks = table.match.game.n_asks
        while table.bots_playing or table.panel_counting:
            await asyncio.sleep(0.001)
        return asks

    with ThreadPoolExecutor(1) as thread:
        asks = thread.submit(asyncio.run, a_turn_from_the_page()).result(timeout=120)
    check(table)
    assert table.match.game.n_asks > asks and set(range(asks, table.match.game.n_asks + 1)) <= set(counted_at)
    assert (table.heatmap.value, table.bars.value) == full_panel(table)


# ---------------------------------------------------------------------- the counting thread
def threaded(seed=7, opponents=("memory", "random", "greedy"), **kwargs):
    """Like :func:`chained`, with the loop standing for the counting thread too (each job an item of its own)."""
    table = Table("pond", opponents=list(opponents), seed=seed, step=True, **kwargs)
    table.loop = HandLoop(background=True)
    table.step_toggle.value = False
    return table


def exact_counts_made(monkeypatch):
    """Record each exact count made (its story's seats), wherever it is asked for."""
    from gofish_teach.probability import exact

    real, made = exact._world_counts, []

    def counting(story, *args):
        made.append(tuple(story.seats))
        return real(story, *args)

    monkeypatch.setattr(exact, "_world_counts", counting)
    exact.forget()
    return made


def test_with_a_counting_thread_no_event_of_the_loop_counts_and_the_game_is_the_same(monkeypatch):
    """The panel's count and each greedy bot's count run as jobs of the counting thread; the events on the
    kernel's loop (your clicks, each bot ask, the panel's filling in) make none, and the game played is the
    one played without the thread."""
    made = exact_counts_made(monkeypatch)
    games = {}
    for background in (False, True):
        table = (threaded if background else chained)(seed=3, opponents=("greedy", "random", "greedy"),
                                                      knowledge=True, hints=True)
        rng, jobs = np.random.default_rng(3), set()
        for _ in range(4000):
            if table.match.game.is_over and table.waiting_for_you is None and not table.loop.waiting:
                break
            waiting = table.loop.waiting
            made.clear()
            if waiting:
                job = waiting[0].what
                table.loop.run_one()
                if background and job is None:
                    assert made == [], "an event of the loop made an exact count"
                jobs.add(job)
            else:
                act(table, rng)
                assert made == [] or not background
            check(table)
            assert "could not count" not in table.heatmap.value
        assert table.match.game.is_over
        if background:
            assert jobs == {None, "the knowledge panel's count", "a greedy bot's count"}
            assert "Counting…" not in table.heatmap.value + table.hint.value
        games[background] = table.match.game.to_json()
    assert games[True] == games[False]


def test_the_game_moving_on_while_the_thread_counts_never_shows_the_old_count(monkeypatch):
    table = threaded(seed=7, knowledge=True)
    while table.loop.run_one():
        pass
    counted = counting_posterior(monkeypatch)
    a_learner_ask(table)
    table.loop.run_one()  # the panel's event: it sends the count to the thread ...
    assert table.panel_counting and table.loop.waiting[0].what == "the knowledge panel's count" and counted == []
    table.step_toggle.value = True  # (stop the bots, to look at one state)
    table.new_button.click()  # ... and the game moves on before the count is done
    assert "Counting…" in table.heatmap.value
    assert not [h for h in table.loop.waiting if h is table.play.count_handle]  # the running count looks again when done
    while table.loop.run_one():
        pass
    assert counted[-1] == tuple(table.play.shown_view().events) and len(counted) == 2
    assert (table.heatmap.value, table.bars.value) == full_panel(table) and not table.panel_counting


def test_a_failing_count_in_the_thread_is_a_note_in_the_panel(monkeypatch):
    table = threaded(seed=7, knowledge=True)
    while table.loop.run_one():
        pass
    counting_posterior(monkeypatch, fail=RuntimeError("no memory left"))
    a_learner_ask(table)
    while table.loop.run_one():
        if not table.panel_counting and table.bots_playing is False:
            break
    assert "could not count this moment: RuntimeError: no memory left" in table.heatmap.value
    assert "Traceback" not in table.heatmap.value + table.message.value


def test_in_a_kernel_the_counts_run_off_the_loop_which_stays_free_for_clicks(monkeypatch):
    """On a real asyncio loop every exact count runs in the counting thread; while one runs (held until the
    loop has handled a click), the loop handles the click."""
    import asyncio
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from gofish_teach.probability import exact
    from gofish_teach.widgets import _table_play as table_module

    real, threads, clicked = exact._world_counts, [], threading.Event()

    def counting(story, *args):
        threads.append(threading.current_thread().name)
        assert clicked.wait(timeout=60), "the loop never handled the click"
        return real(story, *args)

    table = Table("pond", opponents=["greedy", "random", "greedy"], seed=7, knowledge=True)  # counted in this thread
    monkeypatch.setattr(exact, "_world_counts", counting)
    exact.forget()
    table.bot_pause = 0.001
    in_the_page = [False]
    monkeypatch.setattr(table_module, "_clicked_in_the_page", lambda: in_the_page[0])

    async def a_turn_from_the_page():
        in_the_page[0] = True
        loop_thread = threading.current_thread().name
        rng = np.random.default_rng(2)
        while table.waiting_for_you is not None:
            act(table, rng)
            await asyncio.sleep(0.001)
        while not threads:  # a count has started in the thread ...
            await asyncio.sleep(0.001)
        table.hint_toggle.value = True  # ... and a click is handled while it runs
        clicked.set()
        while table.bots_playing or table.panel_counting:
            await asyncio.sleep(0.001)
        return loop_thread

    with ThreadPoolExecutor(1) as thread:
        loop_thread = thread.submit(asyncio.run, a_turn_from_the_page()).result(timeout=300)
    check(table)
    assert threads and loop_thread not in threads and set(threads) == {threads[0]}
    assert "Counting…" not in table.heatmap.value and "could not count" not in table.heatmap.value


# ---------------------------------------------------------------------- the play without widgets
class Recorder:
    """A :class:`~gofish_teach.widgets._table_play.Screen` that draws nothing and records what it is told."""

    def __init__(self):
        self.acts, self.fills = 0, 0

    def act(self, action):
        self.acts += 1
        action()

    def fill_panel(self):
        self.fills += 1

    def cannot_count(self, error):
        raise error

    def counts_needed(self):
        return True, False


def test_the_play_alone_plays_the_game_the_table_plays_without_any_widget(seed=3):
    """TablePlay (the turns, the bots' chain, the panel's counts) imports no widget library, and driven
    by hand on a loop, one bot ask per event, it plays the same game as the match played at once."""
    import ast
    import inspect

    from gofish_teach.match import Match
    from gofish_teach.widgets import _table_play

    tree = ast.parse(inspect.getsource(_table_play))
    imported = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert not [m for m in imported if "widget" in m.split(".")[0]], imported

    def played(one_by_one: bool):
        match = Match(Rules.preset("pond"), [None, "memory", "greedy"], seed=seed, names=["You", "West", "East"])
        screen = Recorder()
        play = _table_play.TablePlay(match, 0, screen)
        play.loop = HandLoop() if one_by_one else None
        play.bot_pause = 0.45 if one_by_one else None
        rng = np.random.default_rng(seed)
        play.start()
        for _ in range(500):
            if play.loop is not None and play.loop.waiting:
                play.loop.run_one()
            elif play.waiting_for_you == "draw":
                play.draw()
                play.after_you()
            elif play.waiting_for_you == "ask":
                legal = match.game.legal_asks()
                target, rank = legal[rng.integers(len(legal))][:2]
                if not play.ask(target, rank, None):
                    play.after_you()
                if play.loop is not None:
                    play.schedule_count(play.loop)  # the panel's count, an event of its own, before the bots
            else:
                break
        assert match.game.is_over
        return match.game.events, screen

    at_once, _ = played(False)
    events, screen = played(True)
    assert events == at_once
    assert screen.acts > 10 and screen.fills > 5  # a bot ask per event; the panel filled in its own
