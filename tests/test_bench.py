"""`make bench` sections run and report what the README quotes (no timing asserts: the
machine is shared, so only the shape of the report is checked)."""
import re

from gofish_teach import bench


def test_the_probability_sections_report_medians_and_the_exact_share():
    lines = bench.bench_facts(quick=True) + bench.bench_probability(quick=True)
    assert sum("median" in line for line in lines) == 4
    shares = [re.search(r"exact at ([\d,]+) of ([\d,]+) points", line) for line in lines]
    shares = [(int(m[1].replace(",", "")), int(m[2].replace(",", ""))) for m in shares if m]
    assert len(shares) == 2 and all(0 < exact <= points for exact, points in shares)


def test_the_engine_section_reports_games_per_second():
    lines = bench.bench_engine(quick=True)
    assert len([line for line in lines if re.search(r"\d+ games/s", line)]) == 2
