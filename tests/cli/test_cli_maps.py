"""Map files refused in one line when read, before
any game: a Mafia map with a list or a float where a space id belongs, a
Lemminge map with more start hexes than the game holds or with no hex a bonus
tile can go on (the bot was blamed for placing a tile "on no valid hex")."""
import re

import pytest

from analyzer.games.lemminge.board import default_map_path as lemminge_map
from analyzer.games.lemminge.layout import MAX_START
from analyzer.games.mafia.board import default_map_path as mafia_map
from tests.cli_support import assert_usage_error

LEMMINGE_TAIL = "[cards]\nvalues = [4, 3, 3, 2, 2, 2, 1, 1, 1, 0, 0]\n[tiles]\nper_terrain = 3\nmeadow = 6\n"


@pytest.mark.parametrize("key, value, needle", [
    ("ring", "[[0], 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]",
     "the ring names space [0], which is not on the map"),
    ("ring", "[0.0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]",
     "the ring names space 0.0, which is not on the map"),
    ("bar", "[2, [22], 23, 24, 25, 16]", "the bar names space [22]"),
    ("state_return", "[0]", "state_return is space [0]"),
    ("prefect_start", "0.0", "prefect_start is space 0.0"),
])
def test_a_mafia_map_refuses_what_is_no_space_id(tmp_path, capsys, key, value, needle):
    text = re.sub(rf"(?m)^{key} = .*$", f"{key} = {value}", mafia_map().read_text())
    board = tmp_path / "map.toml"
    board.write_text(text)
    assert_usage_error(capsys, ["simulate", "mafia", "--board", board, "--games", 5], str(board), needle)


def test_a_lemminge_map_with_too_many_start_hexes(tmp_path, capsys):
    board = tmp_path / "wide.toml"
    board.write_text(f'[map]\ngrid = """\n{"A" * (MAX_START + 1)}MZ\n"""\n' + LEMMINGE_TAIL)
    assert_usage_error(capsys, ["simulate", "lemminge", "--board", board, "--games", 5], str(board),
                       f"{MAX_START + 1} start hexes (A), at most {MAX_START}")


def test_a_lemminge_map_with_no_hex_for_a_tile(tmp_path, capsys):
    board = tmp_path / "bare.toml"
    board.write_text('[map]\ngrid = """\nAAZ\n"""\n' + LEMMINGE_TAIL)
    assert_usage_error(capsys, ["simulate", "lemminge", "--board", board, "--games", 5], str(board),
                       "no hex a bonus tile can go on")
