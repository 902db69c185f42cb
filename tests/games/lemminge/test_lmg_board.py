"""The map file: the shipped default is the rules page's map (counts, shortest
route, odd-r neighbours) and is named assumed; files are validated in one line."""
import pytest

from analyzer.errors import InputFileError
from analyzer.games.lemminge.board import default_map_path, load_map, neighbour


def test_the_default_is_the_rules_pages_map():
    m = load_map()
    assert m.name == "assumed-default" and m.assumed
    assert (m.width, m.height) == (17, 14)
    counts = m.counts()
    assert {k: counts[k] for k in "MWSFDR"} == {"M": 88, "W": 16, "S": 12, "F": 12, "D": 10, "R": 9}
    assert sum(v for k, v in counts.items() if k not in "AZ") == 147
    assert m.start_distance() == 24
    assert m.values == (4, 3, 3, 2, 2, 2, 1, 1, 1, 0, 0)
    assert (m.tiles_per_terrain, m.meadow_tiles) == (3, 6)
    assert len(m.tile_cells()) == 147


def test_odd_r_neighbours():
    # even y: the rows above and below at x-1 and x; odd y: at x and x+1
    assert [neighbour(5, 4, d) for d in range(6)] == [(6, 4), (4, 4), (5, 3), (4, 3), (5, 5), (4, 5)]
    assert [neighbour(5, 3, d) for d in range(6)] == [(6, 3), (4, 3), (6, 2), (5, 2), (6, 4), (5, 4)]
    # a direction keeps its meaning: NE twice from an even row goes one column right in two rows
    assert neighbour(*neighbour(5, 4, 2), 2) == (6, 2)


def test_a_copy_of_the_default_is_assumed(tmp_path):
    text = default_map_path().read_text().replace("assumed = true", "assumed = false").replace(
        'name = "assumed-default"', 'name = "mine"')
    p = tmp_path / "mine.toml"
    p.write_text(text)
    m = load_map(p)
    assert m.assumed and m.name == "mine"
    p.write_text(text.replace("values = [4, 3, 3, 2, 2, 2, 1, 1, 1, 0, 0]", "values = [4, 3, 3, 2, 2, 2, 1, 1, 1, 1, 0]"))
    assert not load_map(p).assumed


@pytest.mark.parametrize("change, needle", [
    (("[tiles]", "[tile]"), "unknown table 'tile'"),
    (("meadow = 6", "meadow = 6\nextra = 1"), "tiles: unknown key 'extra'"),
    (("per_terrain = 3", "per_terrain = 99"), "tiles.per_terrain: input should be less than or equal to 50, got 99"),
    (("per_terrain = 3", "per_terrain = 3.0"), "tiles.per_terrain: input should be a valid integer, got 3.0"),
    (("values = [4, 3, 3, 2, 2, 2, 1, 1, 1, 0, 0]", "values = [4, 3, 3, 2, 2, 2, 1, 1, 1, 0, 10]"),
     "cards.value 11: input should be less than or equal to 9, got 10"),
    (("values = [4, 3, 3, 2, 2, 2, 1, 1, 1, 0, 0]", "values = [2]"),
     "cards.values: list should have at least 2 items"),
    (("assumed = true", 'assumed = "yes"'), "map.assumed: input should be a valid boolean, got 'yes'"),
    ((".AA..", ".BB.."), "map.grid: row 5, column 2: unknown letter 'B'"),
    ((".AA..", "....."), "map.grid: the grid has no start hex (A)"),
])
def test_bad_files_are_refused_in_one_line(tmp_path, change, needle):
    p = tmp_path / "m.toml"
    p.write_text(default_map_path().read_text().replace(*change))
    with pytest.raises(InputFileError) as e:
        load_map(p)
    assert needle in str(e.value) and str(p) in str(e.value) and "\n" not in str(e.value)
