"""Scenario files (`analyzer run FILE`): defaults, several runs, the count given
as races or games, and bad files refused in one line."""
from pathlib import Path

import pytest

from analyzer.errors import InputFileError
from analyzer.scenario import load_scenarios

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path, text):
    path = tmp_path / "s.toml"
    path.write_text(text)
    return path


def test_the_default_scenario_runs_both_games():
    runs = load_scenarios(ROOT / "sims" / "default.toml")
    assert [r.game for r in runs] == ["lemming-mafia", "lemming-mafia", "sau-mau-mau"]
    assert runs[2].races == 200_000 and runs[2].players == 4 and runs[2].seed == 1
    assert all(r.report is not None for r in runs)


def test_top_level_keys_are_defaults_and_board_is_relative_to_the_file(tmp_path):
    path = write(tmp_path, 'game = "lemming-mafia"\nraces = 5\n[[run]]\nboard = "b.toml"\n'
                           '[[run]]\ngame = "sau-mau-mau"\nraces = 7\n')
    a, b = load_scenarios(path)
    assert (a.game, a.races, a.board) == ("lemming-mafia", 5, tmp_path / "b.toml")
    assert (b.game, b.races) == ("sau-mau-mau", 7)


def test_games_is_the_count_of_a_game_run(tmp_path):
    (run,) = load_scenarios(write(tmp_path, 'game = "sau-mau-mau"\ngames = 300\n'))
    assert run.races == 300


@pytest.mark.parametrize("text, needle", [
    ('game = "sau-mau-mau"\ngames = 3\nraces = 4\n', "give races or games, not both"),
    ('races = 4\n', "no game given"),
    ('game = "sau-mau-mau"\ngames = "many"\n', "games must be a whole number, got 'many'"),
    ('game = "sau-mau-mau"\nrounds = 3\n', "unknown key(s) rounds"),
    ('run = 3\n', "[[run]] must be a list of tables"),
])
def test_bad_scenarios(tmp_path, text, needle):
    with pytest.raises(InputFileError, match=None) as info:
        load_scenarios(write(tmp_path, text))
    assert needle in str(info.value)
