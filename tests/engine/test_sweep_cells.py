"""A sweep's cells are keyed by what they play
(board and bot file content), its [grid.params] are resolved against the bot
lists before any cell runs, the number of cells is bounded before any is made,
an out directory holds one sweep, and bot files are found from the sweep's
(and a scenario's) own folder."""
import json
import shutil
import tracemalloc
from pathlib import Path

import pytest

from analyzer.errors import AnalyzerError
from analyzer.scenario import load_scenarios
from analyzer.sweep import CELLS, SWEEP_TABLE, load_sweep, run_sweep
from tests.cli_support import assert_usage_error

SIMS = Path(__file__).resolve().parents[2] / "sims"
BOT_TOML = 'family = "favourite"\n[params]\nsharpness = 2.0\n'


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_resume_plays_again_the_cells_of_an_edited_board(tmp_path):
    shutil.copy(SIMS / "boards" / "getaways-0.toml", tmp_path / "b.toml")
    path = write(tmp_path / "s.toml", 'game = "lemming-mafia"\nraces = 60\nbots = "random"\nout = "out"\n'
                                      '[grid]\nplayers = [3]\nboards = ["b.toml", "default"]\nseeds = [1, 2]\n')
    run_sweep(load_sweep(path), threads=1, progress=False)
    again = []
    run_sweep(load_sweep(path), resume=True, threads=1, progress=False,
              on_cell=lambda cell, row: again.append(cell.index))
    assert again == []  # nothing changed: every cell from its checkpoint
    shutil.copy(SIMS / "boards" / "getaways-8.toml", tmp_path / "b.toml")  # the same name, other content
    run_sweep(load_sweep(path), resume=True, threads=1, progress=False,
              on_cell=lambda cell, row: again.append(cell.index))
    assert again == [0, 1]  # the two cells on b.toml; the default board's two kept
    import pandas as pd

    table = pd.read_parquet(tmp_path / "out" / SWEEP_TABLE)
    assert table.loc[table.board == "b.toml", "board_sha256"].nunique() == 1  # one content, the new one


def test_a_bot_file_edit_changes_the_cell_key(tmp_path):
    bot = write(tmp_path / "bots" / "sharp.toml", BOT_TOML)
    path = write(tmp_path / "s.toml", 'game = "lemming-mafia"\nraces = 60\nbots = "bots/sharp.toml"\n'
                                      '[grid]\nseeds = [1]\n')
    before = load_sweep(path).cells[0].key
    bot.write_text(BOT_TOML.replace("2.0", "3.0"))
    assert load_sweep(path).cells[0].key != before


def test_grid_params_reach_a_bot_given_by_path(tmp_path):
    write(tmp_path / "bots" / "sharp.toml", BOT_TOML)
    path = write(tmp_path / "s.toml", 'game = "lemming-mafia"\nraces = 60\nbots = "bots/sharp.toml,random,random"\n'
                                      'players = 3\n[grid.params]\n"bots/sharp.toml.sharpness" = [1, 4]\n')
    sweep = load_sweep(path)
    bot = str(tmp_path / "bots" / "sharp.toml")
    assert [c.bots for c in sweep.cells] == [f"{bot}:sharpness=1,random,random", f"{bot}:sharpness=4,random,random"]
    assert [c.params for c in sweep.cells] == [(("bots/sharp.toml.sharpness", 1.0),),
                                               (("bots/sharp.toml.sharpness", 4.0),)]


@pytest.mark.parametrize("key, needles", [
    ("timer.late_bets", ["[grid.params] 'timer.late_bets'", "bot 'timer' is not in the bot list"]),
    ("favourite.sharpness", ["already sets sharpness"]),
])
def test_grid_params_of_a_bot_not_played_are_refused(tmp_path, capsys, key, needles):
    path = write(tmp_path / "s.toml", 'game = "lemming-mafia"\nraces = 60\nbots = "favourite:sharpness=1,random"\n'
                                      f'players = 2\n[grid.params]\n"{key}" = [1, 2]\n')
    assert_usage_error(capsys, ["sweep", path], str(path), "cell 1", *needles)
    assert not (tmp_path / "runs").exists()


def test_the_cell_limit_is_checked_before_any_cell_is_made(tmp_path, capsys):
    values = "[" + ", ".join(str(v) for v in range(1, 41)) + "]"
    path = write(tmp_path / "s.toml", 'game = "lemming-mafia"\n[grid.params]\n'
                 + "".join(f'"favourite.p{i}" = {values}\n' for i in range(4)))  # 40^4 = 2,560,000 cells
    tracemalloc.start()
    try:
        with pytest.raises(AnalyzerError, match="2,560,000 cells; at most 10,000"):
            load_sweep(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000  # the cells were never listed (that took about 400 MB)


def test_a_second_sweep_into_the_same_out_dir_is_refused(tmp_path, capsys):
    text = 'game = "lemming-mafia"\nraces = 60\nbots = "random"\nout = "shared"\n[grid]\nseeds = [{}]\n'
    first, second = write(tmp_path / "a.toml", text.format(1)), write(tmp_path / "b.toml", text.format(2))
    run_sweep(load_sweep(first), threads=1, progress=False)
    cells = sorted((tmp_path / "shared" / CELLS).iterdir())
    table = (tmp_path / "shared" / SWEEP_TABLE).read_bytes()
    for resume in ([], ["--resume"]):
        assert_usage_error(capsys, ["sweep", second, *resume], "holds the cells of another sweep", "a.toml")
    assert sorted((tmp_path / "shared" / CELLS).iterdir()) == cells
    assert (tmp_path / "shared" / SWEEP_TABLE).read_bytes() == table
    owner = json.loads((tmp_path / "shared" / "sweep.json").read_text())["sweep"]
    assert Path(owner) == first.resolve()
    run_sweep(load_sweep(first), resume=True, threads=1, progress=False)  # its own sweep: resumed


def test_bot_files_are_found_from_the_sweep_and_scenario_folder(tmp_path, monkeypatch):
    write(tmp_path / "sims" / "bots" / "sharp.toml", BOT_TOML)
    sweep = write(tmp_path / "sims" / "s.toml", 'game = "lemming-mafia"\nraces = 60\n'
                                                '[grid]\nbots = ["bots/sharp.toml", "random"]\n')
    scenario = write(tmp_path / "sims" / "run.toml", 'game = "lemming-mafia"\nraces = 60\n'
                                                     'bots = "bots/sharp.toml:sharpness=3,random"\nplayers = 2\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # neither file's folder: the paths are the files', not the cwd's
    bot = str(tmp_path / "sims" / "bots" / "sharp.toml")
    assert load_sweep(sweep).cells[0].bots == bot
    assert load_scenarios(scenario)[0].bots == f"{bot}:sharpness=3,random"
