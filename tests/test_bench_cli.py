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
