"""Scenario files (`analyzer run FILE`): defaults, several runs, the count given
as races or games, and bad files refused in one line."""
import re
from pathlib import Path

import pytest

from analyzer.errors import InputFileError
from analyzer.scenario import load_scenarios

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path, text):
    path = tmp_path / "s.toml"
    path.write_text(text)
    return path


def test_the_default_scenario_runs_every_game():
    runs = load_scenarios(ROOT / "sims" / "default.toml")
    assert [r.game for r in runs] == ["lemming-mafia", "lemming-mafia", "sau-mau-mau", "lemminge", "mafia"]
    assert runs[2].races == 200_000 and runs[2].players == 4 and runs[2].seed == 1
    assert all(r.report is not None and not r.player_counts for r in runs)


def test_the_players_scenario_covers_every_player_count_in_the_box():
    """Every player count in the box, each game once (the rules pages: 3-6,
    2-5, 2-5, 3-5), kept out of make run's first-contact budget."""
    runs = load_scenarios(ROOT / "sims" / "players.toml")
    assert {r.game: r.player_counts for r in runs} == {
        "lemming-mafia": (3, 4, 5, 6), "sau-mau-mau": (2, 3, 4, 5), "lemminge": (2, 3, 4, 5), "mafia": (3, 4, 5)}
    assert all(r.report is not None for r in runs)


def test_the_strong_scenario_runs_every_game_at_its_default_player_count():
    """Every game's report under strong play, at its default player count."""
    from analyzer.games import game_info, names

    runs = load_scenarios(ROOT / "sims" / "strong.toml")
    assert [r.game for r in runs] == names()
    assert all(r.strong and r.report is not None and r.players == game_info(r.game).default_players for r in runs)
    assert not any(r.strong for r in load_scenarios(ROOT / "sims" / "default.toml"))


def test_strong_needs_a_report_and_no_player_counts(tmp_path):
    for text, needle in (('strong = true', "give report too"),
                         ('strong = true\nreport = "r.html"\nplayer_counts = [3, 4]', "player_counts"),
                         ('strong = "yes"\nreport = "r.html"', "strong")):
        with pytest.raises(InputFileError, match=needle):
            load_scenarios(write(tmp_path, f'game = "mafia"\n{text}\n'))


def test_player_counts_are_checked(tmp_path):
    for text, needle in (('player_counts = [3, 3]', "distinct"), ('player_counts = [0, 3]', "player_counts"),
                         ('player_counts = [3, 4]\nbots = "expander,random,hunter"', "one bot")):
        with pytest.raises(InputFileError, match=needle):
            load_scenarios(write(tmp_path, f'game = "mafia"\n{text}\n'))


def test_a_run_over_player_counts_reports_them_side_by_side(tmp_path, capsys):
    from tests.cli_support import run

    path = write(tmp_path, 'game = "mafia"\ngames = 60\nplayer_counts = [3, 4]\nout = "runs"\n'
                           'report = "counts.html"\n')
    assert run(["run", path, "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "Mafia: 60 games, 3 players" in out and "Mafia: 60 games, 4 players" in out
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == ["players-3", "players-4"]
    page = (tmp_path / "counts.html").read_text(encoding="utf-8")
    assert "side by side by players" in page
    for n in (3, 4):  # each count's flow answer (after its evidence word, if it has one), once
        each = re.findall(rf"<b>{n} players \(players-{n}\):</b>((?:(?!<b>).)*?)The lead passes", page, re.S)
        assert len(each) == 1 and len(each[0]) < 400


def test_top_level_keys_are_defaults_and_board_is_relative_to_the_file(tmp_path):
    path = write(tmp_path, 'game = "lemming-mafia"\nraces = 5\n[[run]]\nboard = "b.toml"\n'
                           '[[run]]\ngame = "sau-mau-mau"\nraces = 7\n')
    a, b = load_scenarios(path)
    assert (a.game, a.races, a.board) == ("lemming-mafia", 5, tmp_path / "b.toml")
    assert (b.game, b.races) == ("sau-mau-mau", 7)


def test_paths_are_relative_to_the_scenario_file(tmp_path):
    """Board, out and report all resolve against the file's folder."""
    (tmp_path / "sims").mkdir()
    path = tmp_path / "sims" / "s.toml"
    path.write_text('game = "lemming-mafia"\nboard = "b.toml"\nout = "../runs/x"\nreport = "r.html"\n')
    (run,) = load_scenarios(path)
    assert run.board == path.parent / "b.toml"
    assert run.out == path.parent / "../runs/x" and run.report == path.parent / "r.html"


@pytest.mark.parametrize("key", ["out", "report"])
def test_two_runs_writing_one_output_are_refused(tmp_path, key):
    """Runs sharing out or report would overwrite each other."""
    path = write(tmp_path, f'game = "lemming-mafia"\n{key} = "x"\n[[run]]\nseed = 1\n[[run]]\nseed = 2\n')
    with pytest.raises(InputFileError, match=f"runs 1 and 2 both write {key}"):
        load_scenarios(path)


def test_games_is_the_count_of_a_game_run(tmp_path):
    (run,) = load_scenarios(write(tmp_path, 'game = "sau-mau-mau"\ngames = 300\n'))
    assert run.races == 300


@pytest.mark.parametrize("text, needle", [
    ('game = "sau-mau-mau"\ngames = 3\nraces = 4\n', "give races or games, not both"),
    ('races = 4\n', "no game given"),
    ('game = "sau-mau-mau"\ngames = "many"\n', "games: input should be a valid integer, got 'many'"),
    ('game = "sau-mau-mau"\nrounds = 3\n', "unknown key 'rounds'"),
    ('game = "chess"\n', "game: unknown game 'chess'"),
    ('game = "sau-mau-mau"\ngames = 0\n', "games: input should be greater than or equal to 1"),
    ('game = "sau-mau-mau"\nplayers = 1e30\n', "players: input should be a valid integer"),
    ('game = "sau-mau-mau"\n[[run]]\nseed = -1\n', "s.toml: seed: input should be greater than or equal to 0"),
    ('game = "sau-mau-mau"\n[[run]]\n[[run]]\nthreads = 1000\n', "run 2: threads: input should be less"),
    ('run = 3\n', "[[run]] must be a list of tables"),
])
def test_bad_scenarios(tmp_path, text, needle):
    with pytest.raises(InputFileError, match=None) as info:
        load_scenarios(write(tmp_path, text))
    assert needle in str(info.value)


def test_a_player_counts_run_with_out_runs_again(tmp_path, capsys):
    """The second ``analyzer run`` of the file writes its players-N folders again
    (it refused them, exit 2); a folder with anything else in it is refused."""
    from tests.cli_support import assert_usage_error, run

    path = write(tmp_path, 'game = "sau-mau-mau"\ngames = 30\nplayer_counts = [2, 3]\nout = "runs"\n'
                           'report = "counts.html"\n')
    for _ in range(2):
        assert run(["run", path, "--no-progress"]) == 0, capsys.readouterr().err
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == ["players-2", "players-3"]
    (tmp_path / "runs" / "notes.txt").write_text("mine")
    assert_usage_error(capsys, ["run", path, "--no-progress"], "notes.txt", "players-N")
    assert (tmp_path / "runs" / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize("runs, needles", [
    # one folder through a symbolic link
    ('[[run]]\nout = "real/x"\n[[run]]\nout = "link/x"\n', ["runs 1 and 2 both write out", "are one path"]),
    # an out on another run's report
    ('[[run]]\nout = "r1"\n[[run]]\nreport = "r1"\n', ["run 1's out", "run 2's report"]),
    # a run's tables in another's report folder, or in its own
    ('[[run]]\nout = "y_files"\n[[run]]\nreport = "y.html"\n', ["run 1's out", "run 2's report's folder"]),
    ('out = "y_files"\nreport = "y.html"\n', ["its out", "its report's folder"]),
    # a report inside another run's table directory
    ('[[run]]\nout = "o"\n[[run]]\nreport = "o/r.html"\n', ["run 1's out", "holds run 2's report"]),
])
def test_outputs_that_collide_are_refused_before_the_first_run(tmp_path, runs, needles):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    path = write(tmp_path, f'game = "sau-mau-mau"\ngames = 30\n{runs}')
    with pytest.raises(InputFileError) as info:
        load_scenarios(path)
    line = str(info.value)
    assert "\n" not in line and all(needle in line for needle in needles), line


def test_an_empty_list_of_runs_is_refused(tmp_path, capsys):
    from tests.cli_support import assert_usage_error

    path = write(tmp_path, 'game = "sau-mau-mau"\nrun = []\n')
    assert_usage_error(capsys, ["run", path], "[[run]] is empty")


def test_a_title_is_one_line(tmp_path, capsys):
    from tests.cli_support import assert_usage_error

    path = write(tmp_path, 'game = "sau-mau-mau"\ntitle = "first\\nsecond"\n')
    assert_usage_error(capsys, ["run", path], "title", "one line")
