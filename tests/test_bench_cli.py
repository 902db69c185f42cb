"""The bench command starts and exposes its measurements; no timing is asserted."""
import subprocess
import sys

import analyzer.bench as bench
from analyzer.games import infos


def test_help_works():
    done = subprocess.run([sys.executable, "-m", "analyzer.bench", "--help"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert "--quick" in done.stdout and "--only" in done.stdout


def test_exposes_measurements():
    names = {"throughput", "startup", "memory", "out", "report", "report_memory", "compare", "lookahead", "sprt", "cluster"}
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
