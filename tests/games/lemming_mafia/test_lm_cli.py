"""User errors of the command line: one line on stderr starting
``analyzer: error:``, exit code 2, no traceback, nothing played or written."""
import subprocess
import sys
from pathlib import Path

import pytest

import tests.games.lemming_mafia.lm_support as S  # noqa: E402

from analyzer.cli import main  # noqa: E402
from tests.cli_support import assert_usage_error, run

GOOD_SECTIONS = [["empty", "concrete"], ["bookmaker", "getaway"], ["boss", "jackhammer"]]




def sim(*extra, races=10):
    return ["simulate", "lemming-mafia", "--races", races, "--no-progress", "--threads", 1, *extra]


def write(tmp_path, text, name="board.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def deck_with(card_toml, copies=1):
    """The default deck plus ``card_toml`` (a [[contracts]] table)."""
    return S.deck_toml() + "\n" + (card_toml + "\n") * copies


# ------------------------------------------------------------------ board files

@pytest.mark.parametrize("name, text, needles", [
    ("unknown action", S.board_toml([["empty", "teleport"]]), ["unknown action 'teleport'", "section 1"]),
    ("empty board", '[board]\nsections = []\n', ["no sections"]),
    ("no sections key", '[board]\nname = "x"\n', ["no sections"]),
    ("empty section", S.board_toml([["empty"], []]), ["section 2 is empty"]),
    ("section not a list", '[board]\nsections = [["empty"], "concrete"]\n', ["section 2"]),
    ("too many fields", S.board_toml([["empty"] * 9]), ["section 1 has 9 fields"]),
    ("board not a table", 'board = 3\n', ["board: must be a table"]),
    ("unknown table", '[borad]\nsections = [["empty"]]\n', ["unknown table 'borad'"]),
    ("nothing to load", '[deck]\nname = "x"\n', ["nothing to load"]),
])
def test_bad_board(tmp_path, capsys, name, text, needles):
    path = write(tmp_path, text)
    assert_usage_error(capsys, sim("--board", path), str(path), *needles)


@pytest.mark.parametrize("name, card, needles", [
    ("unknown colour", '[[contracts]]\nkind = "before"\ncolors = ["orange", "red"]\npoints = 2',
     ["unknown colour 'orange'", "contract 19"]),
    ("unknown kind", '[[contracts]]\nkind = "assassinate"\ncolors = []\npoints = 2',
     ["unknown kind 'assassinate'"]),
    ("no kind", '[[contracts]]\ncolors = ["red"]\npoints = 2', ["unknown kind None"]),
    ("before with one colour", '[[contracts]]\nkind = "before"\ncolors = ["green"]\npoints = 2',
     ["(before) names 1 colours, needs 2"]),
    ("eliminated with three colours",
     '[[contracts]]\nkind = "eliminated"\ncolors = ["green", "red", "blue"]\npoints = 1',
     ["(eliminated) names 3 colours, needs 2"]),
    ("top3 with two colours", '[[contracts]]\nkind = "top3"\ncolors = ["green", "red"]\npoints = 3',
     ["(top3) names 2 colours, needs 1"]),
    ("top3 without colour", '[[contracts]]\nkind = "top3"\npoints = 3', ["(top3) names 0 colours, needs 1"]),
    ("winner_clean with a colour", '[[contracts]]\nkind = "winner_clean"\ncolors = ["red"]\npoints = 5',
     ["(winner_clean) names 1 colours, needs 0"]),
    ("same colour twice", '[[contracts]]\nkind = "before"\ncolors = ["red", "red"]\npoints = 2',
     ["same colour twice"]),
    ("negative points", '[[contracts]]\nkind = "top3"\ncolors = ["red"]\npoints = -3', ["points"]),
    ("boolean points", '[[contracts]]\nkind = "top3"\ncolors = ["red"]\npoints = true', ["points"]),
    ("colors not a list", '[[contracts]]\nkind = "top3"\ncolors = "red"\npoints = 3', ["must be a list"]),
])
def test_bad_contract(tmp_path, capsys, name, card, needles):
    path = write(tmp_path, S.board_toml(GOOD_SECTIONS, with_deck=False) + "\n" + deck_with(card))
    assert_usage_error(capsys, sim("--board", path), *needles)


def test_empty_deck(tmp_path, capsys):
    path = write(tmp_path, "contracts = []\n")
    assert_usage_error(capsys, sim("--board", path), "deck is empty")


@pytest.mark.parametrize("players, cards", [(4, 11), (3, 8), (6, 17)])
def test_deck_too_small_for_the_players(tmp_path, capsys, players, cards):
    card = '[[contracts]]\nkind = "winner_clean"\npoints = 5'
    path = write(tmp_path, "\n".join([card] * cards) + "\n")
    assert_usage_error(capsys, sim("--board", path, "--players", players),
                       f"{cards} cards, {players} players need {3 * players}")


def test_deck_just_large_enough_plays(tmp_path, capsys):
    card = '[[contracts]]\nkind = "winner_clean"\npoints = 5'
    path = write(tmp_path, S.board_toml(GOOD_SECTIONS, with_deck=False) + "\n" + "\n".join([card] * 9))
    assert run(sim("--board", path, "--players", 3, "--bots", "random")) == 0
    out, err = capsys.readouterr()
    assert "user-supplied" in out and "3 sections, 6 fields" in out and "9 contract cards" in out


def test_missing_board_file(tmp_path, capsys):
    path = tmp_path / "nope.toml"
    assert_usage_error(capsys, sim("--board", path), "board file not found", str(path))


def test_board_file_is_a_directory(tmp_path, capsys):
    assert_usage_error(capsys, sim("--board", tmp_path), "is a directory")


def test_invalid_toml(tmp_path, capsys):
    path = write(tmp_path, '[board]\nsections = [["empty", "concrete"\n')
    assert_usage_error(capsys, sim("--board", path), "is not valid TOML", str(path))


def test_not_utf8(tmp_path, capsys):
    path = tmp_path / "board.toml"
    path.write_bytes(b'[board]\nname = "\xff\xfe"\nsections = [["empty"]]\n')
    assert_usage_error(capsys, sim("--board", path))


# ------------------------------------------------------------------ options

@pytest.mark.parametrize("players", [0, 1, 7, -3])
def test_bad_player_count(capsys, players):
    assert_usage_error(capsys, sim("--players", players, "--bots", "random"), "--players must be 3-6")


def test_two_players_is_a_flagged_variant(capsys):
    assert run(sim("--players", 2, "--bots", "random")) == 0
    out, _ = capsys.readouterr()
    assert "variant" in out


@pytest.mark.parametrize("bots, players, needles", [
    ("random,random", 4, ["2 bots given for 4 players"]),
    ("random,random,random,random,random", 4, ["5 bots given for 4 players"]),
    ("random,timer", 3, ["2 bots given for 3 players"]),
])
def test_bot_count_mismatch(capsys, bots, players, needles):
    assert_usage_error(capsys, sim("--bots", bots, "--players", players), *needles)


@pytest.mark.parametrize("bots, needles", [
    ("alphazero", ["unknown bot 'alphazero'", "favourite"]),
    ("random,timer,Favourite,random", ["unknown bot 'Favourite'"]),
    ("favourite:foo=1", ["has no parameter 'foo'", "push"]),
    ("random:push=1", ["bot 'random' has no parameter 'push'"]),
    ("timer:push=1", ["bot 'timer' has no parameter 'push'"]),
    ("favourite:push", ["needs the form key=value"]),
    ("favourite:push=abc", ["must be a number"]),
    ("favourite:push=nan", ["must be a number"]),
    ("favourite:push=inf", ["must be a number"]),
    ("favourite:=1", ["has no name"]),
    (":push=1", ["no bot name"]),
    ("favourite:push=1:push=2", ["given twice"]),
    ("random,,random,random", ["entry 2 is empty"]),
    ("", ["bot list is empty"]),
    ("   ", ["bot list is empty"]),
    ("./no_such_bot.py", ["bot file not found"]),
])
def test_bad_bot_spec(capsys, bots, needles):
    assert_usage_error(capsys, sim("--bots", bots), *needles)


@pytest.mark.parametrize("flag", ["--races=0", "--races=-5"])
def test_bad_race_count(capsys, flag):
    assert_usage_error(capsys, ["simulate", "lemming-mafia", flag, "--no-progress"],
                       "--races must be at least 1")


@pytest.mark.parametrize("argv, needles", [
    (["--threads", -2], ["--threads must be at least 1"]),
    (["--seed", -1], ["--seed must be"]),
    (["--races", "many"], ["--races"]),
    (["--players", "four"], ["--players"]),
    (["--no-such-option"], ["no-such-option"]),
])
def test_other_bad_options(capsys, argv, needles):
    assert_usage_error(capsys, ["simulate", "lemming-mafia", "--no-progress", *argv], *needles)


def test_threads_zero_is_rejected(capsys):
    """An explicit --threads 0 is an error, not "all cores" (regression: it was
    once folded into the default by ``threads or default_threads()``)."""
    assert_usage_error(capsys, sim("--threads", 0), "--threads must be at least 1")


def test_unknown_game(capsys):
    assert_usage_error(capsys, ["simulate", "lemming-maffia", "--races", 5], "unknown game 'lemming-maffia'")


def test_out_dir_is_a_file(tmp_path, capsys):
    target = tmp_path / "results.parquet"
    target.write_text("not a directory")
    assert_usage_error(capsys, sim("--out", target), "exists and is not a directory")
    assert target.read_text() == "not a directory"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.parquet"]


def test_out_dir_with_foreign_files(tmp_path, capsys):
    out = tmp_path / "run"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    assert_usage_error(capsys, sim("--out", out), "other files in it")
    assert (out / "notes.txt").read_text() == "mine"


def test_a_good_run_writes_tables(tmp_path, capsys):
    """Control for the error tests: the same command line without the error."""
    out = tmp_path / "run"
    assert run(sim("--out", out, "--bots", "favourite,random,timer,contractor", races=300)) == 0
    stdout, err = capsys.readouterr()
    assert err == ""
    assert "ASSUMED" in stdout and "300 races" in stdout
    names = sorted(p.name for p in out.iterdir())
    assert names == ["bets.parquet", "contracts.parquet", "fields.parquet", "manifest.json",
                     "players.parquet", "races.parquet"]


def test_console_script_exit_code_and_one_line(tmp_path):
    exe = Path(sys.executable).with_name("analyzer")
    if not exe.exists():
        pytest.skip("console script not installed")
    missing = tmp_path / "missing.toml"
    proc = subprocess.run([str(exe), "simulate", "lemming-mafia", "--board", str(missing),
                           "--races", "5", "--no-progress"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("analyzer: error: board file not found"), proc.stderr
    assert proc.stdout == ""


def test_console_exits_fast_with_everything_written(tmp_path):
    """``python -m analyzer`` ends with os._exit (no interpreter teardown): the
    summary still reaches a pipe, the exit code is 0, and every table is
    complete on disk."""
    import json

    import pandas as pd

    out = tmp_path / "run"
    proc = subprocess.run([sys.executable, "-m", "analyzer", "simulate", "lemming-mafia",
                           "--races", "500", "--no-progress", "--threads", "2", "--out", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "500 races" in proc.stdout
    assert proc.stdout.rstrip().splitlines()[-1].startswith("tables: ")  # the last line arrived
    assert json.loads((out / "manifest.json").read_text())["races"] == 500
    assert len(pd.read_parquet(out / "races.parquet")) == 500
    assert len(pd.read_parquet(out / "players.parquet")) == 500 * 4


# ------------------------------------------------------------------ rules (--rule, --rules)

@pytest.mark.parametrize("rule, needles", [
    ("bet_pionts=1,2", ["unknown rule 'bet_pionts'", "bet_points"]),
    ("getaway_die=six", ["getaway_die", "must be", "2 to 12"]),
    ("getaway_die=true", ["getaway_die", "must be a whole number", "2 to 12"]),
    ("blocks_to_eliminate=1", ["blocks_to_eliminate", "must be 2 to 6, got 1"]),
    ("bets_per_bookmaker=7", ["bets_per_bookmaker", "must be 1 to 6, got 7"]),
    ("bet_points=1,2,3,4,5,6,7", ["bet_points", "must list 1 to 6 numbers, got 7"]),
    ("bet_points=1,-2", ["bet_points", "item 2", "0 to 100"]),
    ("contracts_dealt=9", ["contracts_dealt", "1 to 8, got 9", "deck size / players"]),
    ("unfulfilled_contract=", ["no value given for unfulfilled_contract"]),
])
def test_a_bad_rule_is_one_line(capsys, rule, needles):
    assert_usage_error(capsys, sim("--rule", rule), *needles)


@pytest.mark.parametrize("players, dealt, most", [(3, 7, 6), (4, 5, 4), (6, 4, 3)])
def test_contracts_dealt_beyond_the_deck_is_one_line(capsys, players, dealt, most):
    assert_usage_error(capsys, sim("--players", players, "--rule", f"contracts_dealt={dealt}"),
                       f"contracts_dealt {dealt}", f"{players} players need {players * dealt}",
                       f"here 1 to {most}")


@pytest.mark.parametrize("text, needles", [
    ("[rules]\nbet_pionts = [1, 2]\n", ["unknown rule 'bet_pionts'"]),
    ("[rules]\ngetaway_die = \"6\"\n", ["getaway_die", "must be a whole number"]),
    ("[rules]\ngetaway_die = 13\n", ["getaway_die", "2 to 12, got 13"]),
    ("[rules]\nbet_points = []\n", ["bet_points", "must list 1 to 6 numbers, got 0"]),
    ("[rules]\nbet_points = 5\n", ["bet_points", "must be a list"]),
    ("[rule]\ngetaway_die = 6\n", ["unknown key 'rule'", "one [rules] table"]),
    ("title = 'x'\n", ["unknown key 'title'"]),
    ("[rules\n", ["rules.toml"]),
])
def test_a_bad_rules_file_is_one_line(tmp_path, capsys, text, needles):
    path = write(tmp_path, text, "rules.toml")
    assert_usage_error(capsys, sim("--rules", path, "--out", tmp_path / "out"), *needles)
    assert not (tmp_path / "out").exists()  # nothing written


def test_a_rules_file_that_is_a_directory_is_one_line(tmp_path, capsys):
    assert_usage_error(capsys, sim("--rules", tmp_path), str(tmp_path))


def test_a_variant_is_named_by_every_command(tmp_path, capsys):
    """simulate, replay, compare, tournament and tune under --rule name the variant;
    --rules FILE plays the same races as the same keys given one by one."""
    named = "rules: contracts_dealt 2; bet_points 5,3,2 (box otherwise)"
    rules = ["--rule", "bet_points=5,3,2", "--rule", "contracts_dealt=2"]
    assert run(sim(*rules, "--bots", "random", races=2000)) == 0
    by_keys = capsys.readouterr().out
    assert named in by_keys
    path = write(tmp_path, "[rules]\nbet_points = [5, 3, 2]\ncontracts_dealt = 2\n", "variant.toml")
    assert run(sim("--rules", path, "--bots", "random", races=2000)) == 0
    by_file = capsys.readouterr().out
    assert f"{named} from {path}" in by_file
    figures = lambda text: [line for line in text.splitlines() if line.startswith(("1 ", "2 ", "race length"))]  # noqa: E731
    assert figures(by_file) == figures(by_keys)
    assert run(["replay", "lemming-mafia", "--race", 3, *rules]) == 0
    assert named in capsys.readouterr().out
    assert run(["compare", "lemming-mafia", "--bot", "timer", "--vs", "contractor", "--races", 200,
                "--no-progress", *rules]) == 0
    assert named in capsys.readouterr().out
    assert run(["tournament", "lemming-mafia", "--bots", "timer,contractor", "--races", 100, "--no-progress",
                *rules]) == 0
    assert named in capsys.readouterr().out
    assert run(["tune", "lemming-mafia", "--bot", "timer", "--params", "late_bets", "--budget", 1680,
                "--no-progress", *rules]) == 0
    assert named in capsys.readouterr().out
