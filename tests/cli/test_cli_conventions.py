"""What a typer user expects: --version, -h, shell completion, the game named
among its choices, and old option names kept as hidden aliases."""
import analyzer
from analyzer.games import names
from tests.cli_support import assert_usage_error, run


def test_version(capsys):
    assert run(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"analyzer {analyzer.__version__}"


def test_short_help_and_the_game_choices(capsys):
    for argv in (["-h"], ["simulate", "-h"], ["compare", "-h"], ["tournament", "-h"], ["tune", "-h"],
                 ["report", "-h"], ["run", "-h"], ["bots", "-h"]):
        assert run(argv) == 0
        out = capsys.readouterr().out
        assert "Usage: analyzer" in out and "…" not in out  # nothing cut off
    assert run(["simulate", "-h"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in names())


def test_shell_completion_is_offered(capsys):
    assert run(["-h"]) == 0
    out = capsys.readouterr().out
    assert "--install-completion" in out and "--show-completion" in out


def test_unknown_game_names_the_known_ones(capsys):
    assert_usage_error(capsys, ["bots", "chess"], "unknown game 'chess'", *names())


def test_old_option_names_still_work_but_not_both(capsys, tmp_path):
    assert_usage_error(capsys, ["tune", "lemming-mafia", "--bot", "timer", "--field", "random",
                                "--against", "timer"], "--field and --against are the same option")
    assert_usage_error(capsys, ["tune", "lemming-mafia", "--bot", "timer", "--out", "x.txt"],
                       "--out must name a .toml file")
    assert_usage_error(capsys, ["tune", "lemming-mafia", "--bot", "timer", "--save", "x.txt"],
                       "--save must name a .toml file")
    assert_usage_error(capsys, ["report", tmp_path / "none", "--out", tmp_path / "r.html"], "does not exist")
    assert run(["tune", "-h"]) == 0
    help_text = capsys.readouterr().out
    assert "--field" in help_text and "--save" in help_text
    assert "--against" not in help_text and "--out " not in help_text
