"""A user bot compiles nothing of the game (``engine/bot_table.py``): the game's
kernel, compiled once for every bot and cached, calls the bot by the address of
its own compiled code. A process running a fast bot no process has seen loads
the kernel from the numba cache (no compile of it), and an edited bot plays its
new decisions, never stale code. The runs use the machine's numba cache (the
first may fill it); the bots' texts carry a token of this test run, so no cache
has seen them."""
import subprocess
import sys
import uuid
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
from analyzer.games.sau_mau_mau import kernel
try:
    main(sys.argv[1:])
except SystemExit as e:
    assert not e.code, e.code
play = kernel.play_games
print("stats", sum(play.stats.cache_hits.values()), sum(play.stats.cache_misses.values()))
"""


def _simulate(bot: Path) -> tuple[list[str], tuple[int, int]]:
    """The summary lines of a run of ``bot`` in a new process, and the game
    kernel's (cache hits, cache misses) in it."""
    out = subprocess.run([sys.executable, "-c", PROBE, "simulate", "sau-mau-mau", "--bots",
                          f"{bot},random,backer", "--players", "3", "--games", "40", "--seed", "3", "--no-progress"],
                         cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    stats = [line.split()[1:] for line in lines if line.startswith("stats ")]
    assert len(stats) == 1, out.stdout
    summary = [line for line in lines if not line.startswith(("stats ", "speed:"))]
    return summary, (int(stats[0][0]), int(stats[0][1]))


def test_a_new_bot_loads_the_game_kernel_and_an_edited_bot_plays_its_new_decisions(tmp_path):
    token = f"# this test run: {uuid.uuid4().hex}\n"  # a text no cache has seen
    bot = tmp_path / "first.py"
    bot.write_text(token + FIRST + "BOT = UserBot('first', decide, game='sau-mau-mau')\n", encoding="utf-8")
    first, (hits, misses) = _simulate(bot)
    assert hits + misses == 1  # loaded, or compiled once if no run has yet
    again, (hits, misses) = _simulate(bot)
    assert (hits, misses) == (1, 0) and again == first
    # the same file edited to answer otherwise: the kernel still loads, the new decisions are played
    bot.write_text(token + LAST + "BOT = UserBot('first', decide, game='sau-mau-mau')\n", encoding="utf-8")
    edited, (hits, misses) = _simulate(bot)
    assert (hits, misses) == (1, 0) and edited != first
