"""The bench command starts and exposes its measurements; no timing is asserted."""
import subprocess
import sys

import analyzer.bench as bench


def test_help_works():
    done = subprocess.run([sys.executable, "-m", "analyzer.bench", "--help"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert "--quick" in done.stdout and "--only" in done.stdout


def test_exposes_measurements():
    names = {"random", "heuristic", "startup", "memory", "out", "report", "report_memory", "compare",
             "lookahead", "smm_random", "smm_heuristic", "sprt"}
    for name in names:
        assert callable(getattr(bench, f"measure_{name}"))
    assert set(bench.MEASURES) == names
