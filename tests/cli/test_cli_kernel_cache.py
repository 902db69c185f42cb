"""The kernel cache only ever saves time. A damaged entry (truncated to 0 bytes:
numba's EOFError, which click took for Ctrl-C, "interrupted", exit 130, run
after run) is compiled again; a cache on a full disk is skipped; the command's
output and exit code are the same as with a sound cache, with one warning line
for each."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.engine.test_jit_cache import FULL_DISK

ROOT = Path(__file__).resolve().parents[2]
ARGV = ["simulate", "lemming-mafia", "--bots", "random", "--races", "50", "--threads", "1", "--no-progress"]


def analyzer(cache: Path, full_disk: Path | None = None) -> subprocess.CompletedProcess:
    """``analyzer ARGV`` on the kernel cache ``cache`` (``full_disk``: through
    that script, the disk under the cache full)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(cache)}
    start = [str(full_disk)] if full_disk is not None else ["-m", "analyzer"]
    return subprocess.run([sys.executable, *start, *ARGV], env=env, capture_output=True, text=True, timeout=900)


def summary(proc: subprocess.CompletedProcess) -> list[str]:
    assert proc.returncode == 0, proc.stderr
    return [line for line in proc.stdout.splitlines() if not line.startswith("speed:")]


@pytest.mark.slow
def test_a_damaged_cache_on_a_full_disk_changes_nothing_but_a_warning(tmp_path):
    sound = tmp_path / "sound"
    first = analyzer(sound)
    assert first.stderr == ""
    expected = summary(first)
    damaged = tmp_path / "damaged"
    shutil.copytree(sound, damaged)
    entries = sorted(damaged.glob("games-lemming_mafia-random_race-*/*.nbc"))
    assert entries
    for entry in entries:
        entry.write_bytes(b"")  # what a crash or a full disk leaves
    wrapper = tmp_path / "full_disk.py"
    wrapper.write_text(FULL_DISK + "sys.argv[0] = 'analyzer'\nrunpy.run_module('analyzer', run_name='__main__')\n",
                       encoding="utf-8")
    proc = analyzer(damaged, wrapper)
    assert summary(proc) == expected  # exit 0, the same numbers
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 2, proc.stderr
    assert lines[0].startswith(f"analyzer: warning: the kernel cache in {entries[0].parent} held a damaged entry")
    assert lines[1].startswith(f"analyzer: warning: cannot write the kernel cache in {damaged}")
    assert "No space left on device" in lines[1]
