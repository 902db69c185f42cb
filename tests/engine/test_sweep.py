"""Sweeps. A sweep interrupted after some cells and resumed gives the
sweep.parquet of an uninterrupted one; a bad sweep file is refused, in one
line, before any cell runs."""
import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from analyzer.sweep import SWEEP_TABLE, load_sweep, run_sweep
from tests.cli_support import assert_usage_error

SIMS = Path(__file__).resolve().parents[2] / "sims"

SWEEP = """
game = "lemming-mafia"
races = 300
seed = 3
out = "{out}"
[grid]
players = [3, 4]
boards = ["boards/getaways-0.toml", "default"]
{extra}
"""


def sweep_file(tmp_path: Path, out: str = "out", extra: str = "", name: str = "s.toml") -> Path:
    if not (tmp_path / "boards").exists():
        shutil.copytree(SIMS / "boards", tmp_path / "boards")
    path = tmp_path / name
    path.write_text(SWEEP.format(out=out, extra=extra))
    return path


class Stop(Exception):
    pass


def test_an_interrupted_sweep_resumed_gives_the_uninterrupted_table(tmp_path):
    whole = load_sweep(sweep_file(tmp_path, "whole", name="whole.toml"))
    run_sweep(whole, threads=2, progress=False)
    cut = load_sweep(sweep_file(tmp_path, "cut", name="cut.toml"))
    done = []

    def stop_after_two(cell, row):
        done.append(cell.index)
        if len(done) == 2:
            raise Stop

    with pytest.raises(Stop):
        run_sweep(cut, threads=2, progress=False, on_cell=stop_after_two)
    assert not (tmp_path / "cut" / SWEEP_TABLE).exists()
    assert len(list((tmp_path / "cut" / "cells").glob("cell-*.json"))) == 2
    again = []
    run_sweep(cut, resume=True, threads=2, progress=False, on_cell=lambda cell, row: again.append(cell.index))
    assert again == [2, 3]  # the two finished cells were not run again
    a, b = pd.read_parquet(tmp_path / "whole" / SWEEP_TABLE), pd.read_parquet(tmp_path / "cut" / SWEEP_TABLE)
    pd.testing.assert_frame_equal(a, b, check_exact=True)
    assert list(a["players"]) == [3, 3, 4, 4]
    assert list(a["board_name"]) == ["getaways-0", "assumed-default"] * 2
    assert list(a["board_assumed"]) == [False, True] * 2
    for column in ("seat1.win_rate", "seat1.win_low", "seat1.win_high", "bot.favourite.win_rate",
                   "bot.favourite.win_low", "turns.mean"):
        assert a[column].notna().all(), column


@pytest.mark.parametrize("extra, needles", [
    ("colour = [1]", ["grid", "colour"]),
    ("bots = []", ["grid.bots"]),
    ("bots = ['favourite:sharpness=-5']", ["cell 1", "sharpness"]),
    ("[grid.params]\n'favourite.sharpness' = [1, 50]", ["cell 2", "sharpness"]),
    ("bots = ['nosuchbot']", ["cell 1", "nosuchbot"]),
])
def test_a_bad_sweep_file_is_refused_before_any_cell(tmp_path, capsys, extra, needles):
    path = sweep_file(tmp_path, extra=extra)
    assert_usage_error(capsys, ["sweep", path], str(path), *needles)
    assert not (tmp_path / "out").exists()


def test_an_empty_grid_is_refused(tmp_path, capsys):
    path = tmp_path / "empty.toml"
    path.write_text('game = "lemming-mafia"\n[grid]\n')
    assert_usage_error(capsys, ["sweep", path], "grid is empty")


def test_the_shipped_sweep_file_loads():
    sweep = load_sweep(SIMS / "sweep-getaways.toml")
    assert len(sweep.cells) == 20
    assert {c.players for c in sweep.cells} == {3, 4, 5, 6}


def test_the_default_table_of_a_cell_is_named_in_its_error(tmp_path, capsys):
    """A cell without a bot list plays the game's default table: its error names
    that table (it said "bots None")."""
    path = tmp_path / "s.toml"
    path.write_text('game = "lemming-mafia"\n[grid]\nplayers = [4, 7]\n')
    line = assert_usage_error(capsys, ["sweep", path], "cell 2", "players 7")
    assert "bots None" not in line and "(the default table)" in line


SMALL = """
game = "sau-mau-mau"
games = 40
out = "out"
[grid]
seeds = [1, 2, 3, 4, 5, 6]
"""


def test_a_damaged_checkpoint_is_played_again_and_said_once(tmp_path, capsys):
    """``--resume`` over checkpoints that do not validate: each of their cells is
    played again (the table is an uninterrupted sweep's), one line says so, no
    traceback. They were an AttributeError, a KeyError or a TypeError."""
    from tests.cli_support import run

    path = tmp_path / "s.toml"
    path.write_text(SMALL)
    assert run(["sweep", path, "--threads", 1, "--no-progress"]) == 0
    whole = pd.read_parquet(tmp_path / "out" / SWEEP_TABLE)
    cells = tmp_path / "out" / "cells"
    key = [json.loads((cells / f"cell-{i:05d}.json").read_text())["key"] for i in range(6)]
    damage = {0: "[1, 2]", 1: json.dumps({"key": key[1]}), 2: json.dumps({"key": key[2], "row": {}}),
              3: json.dumps({"key": key[3], "row": "x"}), 4: "{not json"}
    for index, text in damage.items():
        (cells / f"cell-{index:05d}.json").write_text(text)
    capsys.readouterr()
    assert run(["sweep", path, "--resume", "--threads", 1, "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "5 checkpoints" in lines[0] and "played again" in lines[0], err
    assert "cell-00000.json" in lines[0]
    played = [line for line in out.splitlines() if line.startswith("cell ")]
    assert [line.split(":")[0] for line in played] == [f"cell {i + 1}/6" for i in damage]  # cell 6 was kept
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "out" / SWEEP_TABLE), whole, check_exact=True)


def test_a_checkpoint_of_another_cells_row_is_played_again(tmp_path, capsys):
    """A row that is not its cell's (a checkpoint copied over another) is damage too."""
    from tests.cli_support import run

    path = tmp_path / "s.toml"
    path.write_text(SMALL)
    assert run(["sweep", path, "--threads", 1, "--no-progress"]) == 0
    cells = tmp_path / "out" / "cells"
    second = json.loads((cells / "cell-00001.json").read_text())
    first = json.loads((cells / "cell-00000.json").read_text())
    (cells / "cell-00000.json").write_text(json.dumps({"key": first["key"], "row": second["row"]}))
    capsys.readouterr()
    assert run(["sweep", path, "--resume", "--threads", 1, "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert "1 checkpoint" in err and "does not validate" in err
    assert pd.read_parquet(tmp_path / "out" / SWEEP_TABLE)["seed"].tolist() == [1, 2, 3, 4, 5, 6]
