"""A user bot's fault is one line naming the bot file, exit 2.
A read past an array's end used to crash the process (exit 139, no message);
user bots now compile with bounds checking. A bot that raises gave a
traceback. (One bot file, one kernel compile, for both faults.)"""
import pytest

from tests.cli_support import run

pytestmark = pytest.mark.slow  # a user bot's kernel compile (about a minute); the fast tier leaves it out

BOT = """
from numba import njit
from analyzer.engine.bots import UserBot
from analyzer.games.lemming_mafia.layout import DECIDE_FIELD, DECIDE_MOVE

@njit
def decide(what, seat, kind, game, state, params, n_options):
    if what == DECIDE_MOVE and params[0] == 1:
        raise ValueError("my own bug")
    if what == DECIDE_MOVE and params[0] == 2:
        return state[state.shape[0] + 1000]  # past the end: another player's cards, or a crash
    return 0 if what <= DECIDE_FIELD else -1

BOT = UserBot("faulty", decide, params={"fault": (0.0, "0 plays, 1 raises, 2 reads out of bounds")})
"""


def test_a_user_bots_faults_are_one_line_naming_its_file(tmp_path, capsys):
    bot = tmp_path / "faulty.py"
    bot.write_text(BOT)

    def play(fault):
        code = run(["simulate", "lemming-mafia", "--bots", f"{bot}:fault={fault},random,random,random",
                    "--races", 50, "--threads", 1, "--no-progress"])
        out, err = capsys.readouterr()
        return code, out, err

    code, out, err = play(0)  # the control: the same bot without a fault plays
    assert code == 0 and "faulty:fault=0" in out, err
    for fault, needles in ((1, ("ValueError", "my own bug")), (2, ("IndexError",))):
        code, out, err = play(fault)
        assert code == 2, err
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in err, err
        # the file, the seat and decision, the exception
        assert lines[0].startswith(f"analyzer: error: user bot {bot} (seat 1, move decision)"), err
        assert all(needle in lines[0] for needle in needles), err
