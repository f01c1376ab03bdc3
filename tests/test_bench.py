"""`make bench` sections run and report what the README quotes (no timing asserts: the
machine is shared, so only the shape of the report is checked)."""
import doctest
import re
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the bench lives outside the package, in benchmarks/
from benchmarks import bench  # noqa: E402


def test_the_probability_sections_report_medians_and_the_exact_share():
    lines = bench.bench_facts(quick=True) + bench.bench_probability(quick=True)
    assert sum("median" in line for line in lines) == 4
    shares = [re.search(r"exact at ([\d,]+) of ([\d,]+) points", line) for line in lines]
    shares = [(int(m[1].replace(",", "")), int(m[2].replace(",", ""))) for m in shares if m]
    assert len(shares) == 2 and all(0 < exact <= points for exact, points in shares)


def test_games_shared_among_processes_are_the_same_games():
    alone = bench.table_times("family", 2, 3, cold_every=7)
    shared = bench.table_times("family", 2, 3, cold_every=7, workers=2)
    assert [len(part) for part in shared[:2]] == [len(part) for part in alone[:2]] and shared[2] == alone[2] > 0
    assert shared[3] == alone[3] and len(alone[3]) == len(alone[0])


def test_the_engine_section_reports_games_per_second():
    lines = bench.bench_engine(quick=True)
    assert len([line for line in lines if re.search(r"\d+ games/s", line)]) == 2


def test_the_fast_sections_helper_plays_tournament_games():
    # bench_fast compiles from scratch in a fresh process (a minute), so only its helper runs
    # here: the decks and per-seat seeds of a tournament, memory in seat 0 against three random.
    wins = bench._fast_chunk(0, 400)
    assert 100 < wins <= 400  # memory wins far more than a quarter of the games
    assert bench._fast_chunk(0, 400) == wins and bench._fast_chunk(0, 200) + bench._fast_chunk(200, 400) == wins


def test_without_a_baseline_checkout_the_comparison_says_it_is_not_available(tmp_path, monkeypatch):
    monkeypatch.delenv(bench.BASELINE_ENV, raising=False)
    assert bench.find_baseline(None)[0] is None and "not available" in bench.find_baseline(None)[1]
    assert bench.find_baseline(str(tmp_path)) == (None, f"baseline 55d70c6: not available ({tmp_path} holds no "
                                                        "gofish_teach/simulate.py)")
    checkout, note = bench.find_baseline(bench.this_checkout())  # any checkout with the package will do
    assert checkout == bench.this_checkout() and "not available" not in note


def test_the_openspiel_section_reports_or_says_it_is_not_installed():
    lines = bench.bench_openspiel(quick=True)
    assert len(lines) == 1 and ("not installed" in lines[0] or "per core" in lines[0] or "did not load" in lines[0])


def test_the_cluster_section_reports_both_rates_and_their_ratio():
    # A real two-worker cluster, started with Dask's commands (as tests/test_dask_cluster.py does).
    lines = bench.bench_cluster(quick=True)
    assert len([line for line in lines if re.search(r"[\d,]+ games/s", line)]) == 2
    assert re.search(r"\(\d+\.\d\dx;", lines[-1])


def test_the_six_player_table_section_times_the_panels_count_on_its_own():
    lines = bench.bench_table_six(quick=True)
    assert "6 players" in lines[0]
    worst = [line for line in lines if re.search(r"worst kernel action [\d,]+ ms \(.+; goal: under 500 ms\)", line)]
    assert len(worst) == 2 and "before" in worst[0] and "now" in worst[1], lines
    assert re.search(r"longest job of the counting thread [\d,]+ ms \(the knowledge panel's count|a greedy", lines[-1])
    kinds = [line.split("median")[0].strip() for line in lines if "median" in line]
    assert "knowledge panel" in kinds and any(k.startswith("one bot ask (") for k in kinds), lines
    assert "counting thread: the knowledge panel's count" in kinds, lines


def test_the_exact_tables_section_states_each_goal_and_what_limits_the_unmet():
    lines = bench.bench_exact_tables(quick=True, games=1)
    cases = [line for line in lines if re.match(r"  \w+ \d players: median", line)]
    assert [line.split(":")[0].strip() for line in cases] == ["pond 5 players", "pond 6 players", "family 6 players",
                                                              "bicycle 5 players"]
    goals = [line for line in lines if line.startswith("    median and p99 under 50 and 500 ms: median ")]
    exact = [line for line in lines if re.match(r"    (exact at every one of [\d,]+ points: met|not exact at)", line)]
    assert len(goals) == len(exact) == 4, lines


def test_unmet_table_goals_name_what_their_counts_cost():
    ms, billion = 1e-3, 10 ** 9
    met = bench.table_goals([10 * ms, 20 * ms], [(None, True), (5, True)], billion)
    assert met == ["median and p99 under 50 and 500 ms: median met, p99 met", "exact at every one of 2 points: met"]
    from gofish_teach.probability.exact import Graded

    unmet = bench.table_goals([60 * ms, 700 * ms, 60 * ms, 60 * ms, 800 * ms],
                              [(None, False), (billion // 2, True), (3 * billion, False), (2 * billion, False),
                               (Graded(billion // 2), True)], billion)
    assert unmet == ["median and p99 under 50 and 500 ms: median not met, p99 not met",
                     "not exact at 3 of 5 points: 2 would cost 2.00-3.00 billion multiply-adds in the cheapest order "
                     "found, past LIMITS['work'] = 1.00 billion; 1 too wide to weigh",
                     "over 500 ms at 2 points: exact counts of 0.50 billion multiply-adds (1.50 ns each, median); "
                     "the work limit bounds the slowest; 1 counted graded (their multiply-adds as reckoned, "
                     "GRADED_COST x share x dense)"]


def test_a_speed_goal_missed_is_told_from_the_noise_by_the_rounds_ratios():
    assert bench.speed_verdict([100.0], [100.0], 1.0) == "goal met"
    assert bench.speed_verdict([100.0], [100.0], 1 / 1.3) == "goal met"
    assert "within this machine's noise" in bench.speed_verdict([99.0, 97.0], [100.0, 96.0], 1.0)
    assert "beyond this machine's noise" in bench.speed_verdict([80.0, 79.0], [100.0, 98.0], 1.0)


def test_the_bench_docstring_examples_hold():
    assert doctest.testmod(bench).failed == 0


def _copy_of_the_package(folder: Path, slower_asks: bool = False) -> Path:
    """A checkout holding a copy of this package; with ``slower_asks``, every ``Game.ask`` first
    spins for 0.5 ms of CPU time (a sleep would not count: the bench measures CPU time)."""
    shutil.copytree(ROOT / "gofish_teach", folder / "gofish_teach", ignore=shutil.ignore_patterns("__pycache__"))
    if slower_asks:
        game = folder / "gofish_teach" / "game.py"
        text = game.read_text()
        head = "    def ask(self, target"
        at = text.index(":\n", text.index(head)) + 2
        docstring_end = text.index('"""', text.index('"""', at) + 3) + 4
        spin = ("        import time as _t\n        _s = _t.process_time()\n"
                "        while _t.process_time() - _s < 0.0005:\n            pass\n")
        game.write_text(text[:docstring_end] + spin + text[docstring_end:])
    return folder


def test_the_process_timing_a_checkout_imports_that_checkouts_package(tmp_path):
    copy = _copy_of_the_package(tmp_path / "copy")
    rate, package = bench.measure(str(copy), ["random"] * 4, 20, fast=False, reps=1)
    assert package == str(copy / "gofish_teach" / "__init__.py") and rate > 0


def test_a_baseline_slower_by_a_known_amount_is_measured_slower(tmp_path):
    # Pytest runs from the repository's root, the very folder whose package the old bench's
    # "baseline" process imported instead of the baseline's: the copy must still be the one timed.
    slow = _copy_of_the_package(tmp_path / "slow", slower_asks=True)
    lineup, games = ["random"] * 4, 30
    here = bench.games_per_second(bench.this_checkout(), lineup, games, fast=False, reps=1)
    there = bench.games_per_second(str(slow), lineup, games, fast=False, reps=1)
    # About 50 asks per game at 0.5 ms each add 25 ms to a game of a few ms: far more than any noise.
    assert there < 0.5 * here, (here, there)


def test_a_process_that_imports_another_package_is_refused(tmp_path, monkeypatch):
    copy = _copy_of_the_package(tmp_path / "copy")
    # The old bug, on purpose: the measuring process finds this checkout's package first.
    monkeypatch.setattr(bench, "_MEASURE", bench._MEASURE.replace(
        "sys.path.insert(0, checkout)", f"sys.path.insert(0, {bench.this_checkout()!r})"))
    with pytest.raises(bench.WrongPackage, match="not that checkout's package"):
        bench.measure(str(copy), ["random"] * 4, 5, fast=False, reps=1)


def test_the_side_by_side_table_has_one_row_per_case_and_a_verdict(monkeypatch):
    rates = {bench.this_checkout(): 90.0, "/old": 100.0}
    monkeypatch.setattr(bench, "find_baseline", lambda path: ("/old", "baseline 55d70c6: /old"))
    monkeypatch.setattr(bench, "games_per_second", lambda checkout, lineup, games, fast: rates[checkout])
    lines = bench.bench_versus(quick=True)
    rows = [line for line in lines if line.startswith("| readable") or line.startswith("| fast path")]
    assert len(rows) == len(bench.versus_cases(True)) == 5
    assert all("0.90x" in row for row in rows)
    assert all("goal met" in row for row in rows if row.startswith("| readable"))
    assert all("not met" in row for row in rows if row.startswith("| fast path"))


def test_the_tournament_and_best_play_sections_report_their_goals():
    """The quick versions: a small sandboxed tournament (its line names the load and the processor time) and
    the 3-rank best response (its states); the full ones state each goal met or not."""
    tournament = bench.bench_tournament(quick=True)
    assert len(tournament) == 1 and "class tournament: 7 entrants" in tournament[0] and "load average" in tournament[0]
    assert "0 forfeits" in tournament[0]
    lines = bench.bench_bestplay(quick=True)
    assert [line.split(":")[0] for line in lines] == [
        f"best response, pond, 3 ranks, 2 cards each, seat {seat} vs memory" for seat in (0, 1)]
    assert all("states" in line for line in lines)


def test_the_class_section_reports_both_paces_with_their_goals():
    from benchmarks.bench_classroom import bench_classroom

    lines = bench_classroom(quick=True)
    assert len(lines) == 2 and "thinking 0.1 to 0.5 s" in lines[0] and "asking at once" in lines[1]
    for line in lines:
        assert re.search(r"p99 [\d.]+ ms", line) and re.search(r"peak \d+ MB", line) and line.count("goal") == 2
