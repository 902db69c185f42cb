"""Player counts, indices and whole numbers bounded before any work,
in one line (CLI: exit 2) or one ``AnalyzerError`` (API), never a traceback."""
import numpy as np
import pytest

import analyzer
from analyzer.errors import BotError
from tests.cli_support import assert_usage_error


@pytest.mark.parametrize("command", [
    ["compare", "mafia", "--bot", "random", "--vs", "random"],
    ["tournament", "mafia", "--bots", "random,expander"],
    ["tune", "mafia", "--bot", "expander"],
    ["simulate", "mafia"],
    ["replay", "mafia"],
])
def test_mafias_player_count_is_checked_first_in_every_command(capsys, command):
    assert_usage_error(capsys, command + ["--players", "6"], "--players must be 3-5 for Mafia, got 6")


def test_players_zero_names_the_player_count_not_the_bot_list(capsys):
    assert_usage_error(capsys, ["simulate", "lemminge", "--players", "0"], "--players must be 2-5", "got 0")


@pytest.mark.parametrize("call", [
    lambda: analyzer.compare("mafia", "random", "random", players=6, games=10),
    lambda: analyzer.tournament("mafia", "random,expander", players=6, games=10),
    lambda: analyzer.replay("mafia", 0, players=6),
])
def test_api_refuses_mafias_player_count_as_analyzer_error(call):
    with pytest.raises(analyzer.AnalyzerError, match="--players must be 3-5 for Mafia"):
        call()


def test_replay_index_beyond_any_run_is_refused_naming_the_bound(capsys):
    line = assert_usage_error(capsys, ["replay", "mafia", "--game", str(2 ** 63 - 1)], "--game must be 0 to")
    assert "0 or more" not in line
    with pytest.raises(analyzer.AnalyzerError, match="--game must be 0 to"):
        analyzer.replay("lemminge", 10 ** 10)


def test_lemminge_moves_of_games_past_2_31_keep_their_index():
    """The moves buffer holds a game's offset in the chunk as int32: the run's
    index is added in int64 (it overflowed for game 2^31)."""
    from analyzer.engine.botspec import parse_bot_list
    from analyzer.games import match_class

    match = match_class("lemminge")(None, 2, parse_bot_list("random,random"))
    from analyzer.games.lemminge import layout as L

    mv = np.zeros((3, L.MV_LEN), np.int32)
    mv[:, L.MV_GAME] = [0, 1, 1]
    df = match.moves_table(mv, 2 ** 31)
    assert list(df["game"]) == [2 ** 31, 2 ** 31 + 1, 2 ** 31 + 1]


def test_a_mafia_fault_names_its_game_and_seat():
    """Mafia's kernel puts the game index high and the code low; the engine's
    message read them swapped (game 2 was reported as game 3)."""
    from analyzer.engine.botspec import parse_bot_list
    from analyzer.games import match_class
    from analyzer.games.mafia import layout as L

    match = match_class("mafia")(None, 5, parse_bot_list("random,random,random,random,random"))
    side = L.STATE  # the State plays from seat 3 at five players
    seat = match.side_seat[side]
    with pytest.raises(BotError) as info:
        match._bot_failed((2 << 32) + 1 * 8 + side)
    assert info.value.args[0].endswith("(game 2)") and f"in seat {seat + 1} " in str(info.value)
    far = 9_000_000_007  # past 2^33: the kernel's int64 status wraps round, its low bits still say
    wrapped = ((far << 32) + 1 * 8 + side) % 2 ** 64
    wrapped -= 2 ** 64 if wrapped >= 2 ** 63 else 0  # as the kernel's int64 holds it
    with pytest.raises(BotError) as info:
        match._bot_failed(wrapped, far - 5)  # the chunk from game far - 5
    assert info.value.args[0].endswith(f"(game {far})") and f"in seat {seat + 1} " in str(info.value)


def test_a_fault_past_2_32_items_names_its_item_and_seat():
    """The engine's status is the code times 2^32 plus the item's index: past
    2^32 items (a run goes to 10 billion) the plain split misread both."""
    from analyzer.engine.fault_status import decode_fault

    for first, index, code in ((0, 7, 19), (2 ** 32 - 3, 2 ** 32 + 1, 9), (9_999_000_000, 9_999_000_123, 2)):
        assert decode_fault(code * 2 ** 32 + index, first) == (code, index)


def test_api_whole_numbers_one_rule():
    """Integral numbers of any numeric type are taken; anything else refused."""
    from analyzer.api import _whole

    for value in (100, 100.0, np.int64(100), np.float64(100.0), np.int32(100)):
        assert _whole(value, "--races") == 100 and type(_whole(value, "--races")) is int
    for value in (2.5, True, np.bool_(True), "100", float("inf"), float("nan"), [100]):
        with pytest.raises(analyzer.AnalyzerError, match="--races must be a whole number"):
            _whole(value, "--races")
    with pytest.raises(analyzer.AnalyzerError, match="--seed must be a whole number, got None"):
        _whole(None, "--seed", required=True)


@pytest.mark.parametrize("call, needle", [
    (lambda: analyzer.simulate("mafia", 10, seed=None), "--seed must be a whole number"),
    (lambda: analyzer.simulate("mafia", 10, bots=5), "bots must be a comma list"),
    (lambda: analyzer.simulate("mafia", 10, cluster=5), "--cluster must be"),
    (lambda: analyzer.simulate("mafia", 10, players=4.5), "--players must be a whole number"),
    (lambda: analyzer.tournament("mafia", None, games=10), "--bots must be a comma list"),
    (lambda: analyzer.report_runs(None), "run director"),
    (lambda: analyzer.report_runs([5]), "run director"),
    (lambda: analyzer.replay("mafia", None), "--game must be a whole number"),
    (lambda: analyzer.replay("lemminge", 2.5), "--game must be a whole number"),
])
def test_api_bad_arguments_raise_analyzer_error(call, needle):
    with pytest.raises(analyzer.AnalyzerError) as info:
        call()
    assert needle in str(info.value) and "\n" not in str(info.value)


# ------------------------------------------------------------ item 5: what a store holds

def test_a_mafia_parameter_beyond_its_int64_millionths_is_refused(capsys, tmp_path):
    """Mafia stores parameters as int64 millionths: 1e13 wrapped round to a
    huge negative gain (0.0% wins) while the manifest said 1e13."""
    from analyzer.games.mafia.layout import PARAM_MAX

    assert_usage_error(capsys, ["simulate", "mafia", "--players", 4, "--bots", "expander:gain=1e13,random,random,random",
                                "--games", 5], "bot 'expander'", "parameter gain must be a number from",
                       "got 1e+13")
    bot = tmp_path / "huge.toml"
    bot.write_text('family = "expander"\n[params]\ngain = 1e13\n')
    assert_usage_error(capsys, ["simulate", "mafia", "--bots", bot, "--games", 5], "parameter gain must be")
    with pytest.raises(BotError, match="parameter gain must be"):
        analyzer.simulate("mafia", games=5, players=4, bots=["expander:gain=-1e13"] + ["random"] * 3)
    assert PARAM_MAX * 1_000_000 <= 2 ** 63 - 1 < (PARAM_MAX + 1) * 1_000_000


def test_a_user_bots_default_beyond_the_store_is_refused(tmp_path, capsys):
    bot = tmp_path / "huge_default.py"
    bot.write_text("from analyzer.engine.bots import UserBot\n"
                   "def decide(view):\n    return 0\n"
                   "BOT = UserBot('huge', decide, game='mafia', roles=('family',), "
                   "params={'gain': (1e13, 'too big to store')})\n")
    assert_usage_error(capsys, ["simulate", "mafia", "--players", 3, "--bots", f"random,{bot},random", "--games", 5],
                       str(bot), "its default", "parameter gain must be")


def test_a_long_bot_label_is_shown_whole(capsys):
    from tests.cli_support import run

    assert run(["simulate", "mafia", "--players", 4, "--bots", "expander:gain=1e12,random,random,random",
                "--games", 5, "--threads", 1, "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "expander:gain=1000000000000 " in out


def test_dasks_own_log_lines_stay_quiet():
    """A dying scheduler's "Failed to reconnect" came from distributed.client,
    which Dask's config gives its own level: every Dask logger is quieted."""
    import logging

    import distributed  # noqa: F401  (its config sets the child loggers' levels)
    from analyzer.engine.cluster import _quiet

    _quiet()
    for name in ("distributed", "distributed.client", "distributed.gc", "distributed.core", "tornado.application"):
        assert not logging.getLogger(name).isEnabledFor(logging.ERROR), name


def test_a_tls_cluster_address_is_one_line(capsys):
    assert_usage_error(capsys, ["simulate", "mafia", "--games", 5, "--cluster", "tls://localhost:8786"],
                       "--cluster tls://localhost:8786", "TLS is not supported")


def test_a_closed_stdout_is_exit_1_in_one_line():
    """`analyzer bots mafia >&-`: the output cannot be written (it was a
    traceback about None having no flush)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "analyzer", "bots", "mafia"], cwd=root, stderr=subprocess.PIPE,
                          text=True, preexec_fn=lambda: os.close(1), env={**os.environ, "PYTHONPATH": str(root)},
                          timeout=120)
    assert done.returncode == 1, done.stderr
    assert done.stderr == "analyzer: error: cannot write the output: stdout is closed\n"


def test_api_replays_a_lemminge_game_past_2_31():
    """``replay("lemminge", 2**31)`` overflowed the moves' int32 game offset."""
    step = analyzer.replay("lemminge", 2 ** 31, players=2)
    assert step.index == 2 ** 31 and set(step.tables["moves"]["game"]) == {2 ** 31}


def test_every_games_index_column_holds_the_largest_run():
    """Runs go to MAX_COUNT items: each game's item-index columns (race, game)
    are declared wide enough, in its record specs."""
    from analyzer.engine.simulate import MAX_COUNT
    from analyzer.games import game_info, names

    for game in names():
        info = game_info(game)
        index = info.unit[:-1]
        specs = info.load("records").TABLES
        columns = [c for spec in specs.values() for c in spec.columns if c.name == index]
        assert columns, game
        for column in columns:
            assert np.iinfo(np.dtype(column.dtype.lower())).max >= MAX_COUNT - 1, (game, column)
