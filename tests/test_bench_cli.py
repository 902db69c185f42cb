"""The bench command starts and exposes its measurements; no timing is asserted."""
import subprocess
import sys

import analyzer.bench as bench
from analyzer.games import game_info, infos


def test_help_works():
    done = subprocess.run([sys.executable, "-m", "analyzer.bench", "--help"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert "--quick" in done.stdout and "--only" in done.stdout


def test_exposes_measurements():
    names = {"throughput", "startup", "memory", "out", "report", "report_memory", "compare", "lookahead", "sprt", "cluster", "compile"}
    for name in names:
        assert callable(getattr(bench, f"measure_{name}"))
    assert set(bench.MEASURES) == names


def test_every_game_declares_a_timed_random_table():
    """Throughput rows come from the games' declarations: every game has at least
    its random table with a target."""
    for info in infos():
        assert any(t.bots == "random" and t.target for t in info.bench), info.name


def test_a_throughput_row_shows_the_cost_model_estimate():
    """A game's table that declares the cost model's estimate gets it beside its figure."""
    run = bench.Run(["analyzer"], 2.0, 0, 4.0, 0, "speed: 1,000 games/s (1.00 s on 2 threads)\n", "")
    assert "cost model 40,000/s" in bench.rate_row("t", run, 1000, None, "games", model=40_000).detail
    assert "cost model" not in bench.rate_row("t", run, 1000, None, "games").detail


COMPARE_OUT = """lookahead (A) against contractor (B); field: favourite,timer,random; 4 players
                     A         B   A - B (95% CI, paired)
win rate        56.28%    41.23%   +15.05 pp (+13.73 to +16.37)
mean score       7.655     6.501   +1.154 (+1.058 to +1.250)
"""


def test_the_strength_row_reads_compare_and_fails_a_weaker_bot():
    """The look-ahead strength row reads compare's paired win-rate difference and
    passes unless it is significantly below the recorded reference."""
    assert bench.parse_win_difference(COMPARE_OUT) == (15.05, 13.73, 16.37)
    assert bench.parse_win_difference("no table") is None
    strength = game_info("lemming-mafia").bench_strength
    assert strength.reference == (15.05, 13.73, 16.37)

    def row(measured):
        return bench.strength_row(measured, 10_000, "lemming-mafia", "lookahead", strength)

    assert row((15.05, 13.73, 16.37)).ok
    assert row((17.0, 15.7, 18.3)).ok  # stronger passes
    # 32 rollouts measured +7.67 pp (+6.35 to +8.99): that far below fails
    assert not row((7.67, 6.35, 8.99)).ok
    assert row((15.05, 13.73, 16.37)).name == "lemming-mafia lookahead strength, 10,000 races per arm"
