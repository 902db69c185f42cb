"""A user kernel is compiled once, then loaded from the numba cache
(``engine/jit.py: recompiled``, ``engine/userbots.py: _variant_key``): a second
process running the same bot file loads the kernel compiled by the first, and
an edited bot compiles again and plays its new decisions, never stale code.
Sau Mau Mau's kernel is the quickest of the games' to compile. The runs use the
machine's numba cache (the built-in kernels load from it, as in any run); the
bot's text carries a token of this test run, so its kernel is in no cache yet,
and the directories its variants were cached in are removed at the end."""
import shutil
import subprocess
import uuid
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HEADER = ("from numba import njit\n"
          "from analyzer.engine.bots import UserBot\n"
          "from analyzer.games.sau_mau_mau.view import *\n\n"
          "@njit\n"
          "def decide(view):\n"
          "    if decision(view) == DECIDE_COLOR:\n")
FIRST = HEADER + ("        return 0\n"
                  "    return 0 if n_options(view) > 0 else -1\n")
LAST = HEADER + ("        return 3\n"
                 "    return n_options(view) - 1\n")
PROBE = """
import sys
from analyzer.cli import main
from analyzer.engine import userbots
try:
    main(sys.argv[1:])
except SystemExit as e:
    assert not e.code, e.code
for play in userbots._kernels.values():
    print("stats", sum(play.stats.cache_hits.values()), sum(play.stats.cache_misses.values()))
    print("cached in", play._cache._cache_path)
"""


def _simulate(bot: Path, cached_in: set) -> tuple[list[str], tuple[int, int]]:
    """The summary lines of a run of ``bot`` in a new process, and the user
    kernel's (cache hits, cache misses); its cache directory goes to ``cached_in``."""
    out = subprocess.run([sys.executable, "-c", PROBE, "simulate", "sau-mau-mau", "--bots",
                          f"{bot},random,backer", "--players", "3", "--games", "40", "--seed", "3", "--no-progress"],
                         cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    cached_in.update(line.removeprefix("cached in ") for line in lines if line.startswith("cached in "))
    stats = [line.split()[1:] for line in lines if line.startswith("stats ")]
    assert len(stats) == 1, out.stdout  # one user kernel
    summary = [line for line in lines if not line.startswith(("stats ", "speed:", "cached in "))]
    return summary, (int(stats[0][0]), int(stats[0][1]))


def test_a_second_run_loads_the_user_kernel_and_an_edited_bot_compiles_again(tmp_path):
    token = f"# this test run: {uuid.uuid4().hex}\n"  # a text no cache has seen
    bot = tmp_path / "first.py"
    cached_in: set[str] = set()
    try:
        bot.write_text(token + FIRST + "BOT = UserBot('first', decide, game='sau-mau-mau')\n", encoding="utf-8")
        compiled, (hits, misses) = _simulate(bot, cached_in)
        assert (hits, misses) == (0, 1)
        loaded, (hits, misses) = _simulate(bot, cached_in)
        assert (hits, misses) == (1, 0) and loaded == compiled  # the same code, not compiled again
        # the same file edited to answer otherwise: a new key, compiled again, its new decisions played
        bot.write_text(token + LAST + "BOT = UserBot('first', decide, game='sau-mau-mau')\n", encoding="utf-8")
        edited, (hits, misses) = _simulate(bot, cached_in)
        assert (hits, misses) == (0, 1) and edited != compiled
        assert len(cached_in) == 2  # the first text's directory, then the edited one's
    finally:
        for directory in cached_in:
            assert Path(directory).name.startswith("variant-")  # never a built-in kernel's
            shutil.rmtree(directory, ignore_errors=True)
