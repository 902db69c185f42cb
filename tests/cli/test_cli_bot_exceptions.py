"""A plain user bot raising its own ``BaseException`` subclass
(not an ``Exception``) ends the run in one line naming the bot file, exit 2,
as any exception does; at load time too. A plain bot needs no compile of its own."""
from tests.cli_support import assert_usage_error

HEADER = ("from analyzer.engine.bots import UserBot\n"
          "from analyzer.games.mafia.view import *\n"
          "class Boom(BaseException):\n"
          "    pass\n")


def test_a_plain_bot_raising_a_base_exception_is_one_line(tmp_path, capsys):
    bot = tmp_path / "boom.py"
    bot.write_text(HEADER + "def decide(view):\n"
                            "    if decision(view) == DECIDE_MOVE:\n"
                            "        raise Boom('my own signal')\n"
                            "    return 0\n"
                            "BOT = UserBot('boom', decide, game='mafia', roles=('family',))\n")
    assert_usage_error(capsys, ["simulate", "mafia", "--players", 3, "--bots", f"random,{bot},random",
                                "--games", 5, "--threads", 1, "--no-progress"],
                       "user bot", str(bot), "(seat 2", "raised Boom", "my own signal")


def test_a_bot_file_raising_a_base_exception_as_it_loads_is_one_line(tmp_path, capsys):
    bot = tmp_path / "boom_load.py"
    bot.write_text(HEADER + "raise Boom('at import')\n")
    assert_usage_error(capsys, ["simulate", "mafia", "--players", 3, "--bots", f"random,{bot},random",
                                "--games", 5, "--no-progress"],
                       str(bot), "failed to load", "raised Boom", "at import")
