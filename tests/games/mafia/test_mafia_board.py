"""The map file: the assumed default, the move table, and validation (one line
naming the file and the space)."""
import pytest

from analyzer.errors import InputFileError
from analyzer.games.mafia import layout as L
from analyzer.games.mafia.board import default_map_path, load_map

DEFAULT = default_map_path().read_text(encoding="utf-8")


def test_the_assumed_default_map():
    m = load_map()
    assert m.assumed and m.n_spaces == 26 and len(m.ring) == 22 and m.bar == (2, 22, 23, 24, 25, 16)
    counts = {t: sum(s.type == L.SPACE_TYPES.index(t) for s in m.spaces) for t in L.SPACE_TYPES}
    assert counts == {"city": 3, "telephone": 4, "roadblock": 3, "ambush": 3, "restaurant": 1, "bomb": 1,
                      "leak": 1, "commission": 1, "plain": 9}  # as the rulebook lists
    assert [m.bases_of(f) for f in range(4)] == [[0, 23], [10, 23], [0, 23], [10, 23]]
    assert m.roadblocks == [3, 15, 21] and m.returns == ((5, 6), (6,), (4, 5, 6))


def test_paths_follow_the_ring_the_bar_and_the_air_link():
    m = load_map()
    ends = lambda x, k, air=False: [seq for seq, _ in m.paths_from(x, k, air)]  # noqa: E731
    assert ends(0, 3, True) == [(1, 2, 3), (1, 2, 22), (10, 11, 12)]  # flight: first step only
    assert ends(1, 2) == [(2, 3), (2, 22)]  # reaching the junction with steps left
    assert ends(23, 2) == [(24, 25), (22, 2)]  # a central start: either way
    assert ends(24, 4) == [(25, 16, 17, 18), (23, 22, 2, 3)]  # leaving the bar: clockwise on
    assert ends(16, 1) == [(17,), (25,)]  # standing on a junction
    assert ends(9, 3, True) == [(10, 11, 12)]  # not on an airport: no flight
    assert ends(10, 7, True)[-2:] == [(0, 1, 2, 3, 4, 5, 6), (0, 1, 2, 22, 23, 24, 25)]  # fly, then turn in


def test_a_copy_of_the_default_is_still_assumed(tmp_path):
    p = tmp_path / "mine.toml"
    p.write_text(DEFAULT.replace("assumed = true", "assumed = false"), encoding="utf-8")
    assert load_map(p).assumed


def edit(old, new):
    assert old in DEFAULT
    return DEFAULT.replace(old, new, 1)


BAD = {
    "unknown type": (edit('type = "leak"', 'type = "casino"'), "space 11 (Augusta): unknown type 'casino'"),
    "ring not a cycle": (edit("ring = [0, 1, 2,", "ring = [0, 1, 1,"), "the ring is not a cycle: space 1"),
    "bar off the ring": (edit("bar = [2, 22, 23, 24, 25, 16]", "bar = [2, 22, 23, 24, 16, 25]"),
                         "the bar does not join the ring: its end space 25 (Canicattì)"),
    "no airport": (edit('name = "Catania"\ntype = "city"\nairport = true', 'name = "Catania"\ntype = "city"'),
                   "two airports"),
    "no city for black": (edit('open_to = ["black", "green"]', 'open_to = ["green"]').replace(
        'open_to = ["red", "black", "orange", "green"]', 'open_to = ["red", "orange", "green"]'),
        "no city is open to the black family"),
    "base nobody may choose": (edit('open_to = ["black", "green"]', "open_to = []"),
                               "space 10 (Catania): a city needs open_to"),
    "trigger face 7": (edit("trigger = [1, 2, 3]", "trigger = [1, 7]"), "space 21 (Trapani): trigger has a die face"),
    "trigger on a plain": (edit('name = "Bagheria"\ntype = "plain"', 'name = "Bagheria"\ntype = "plain"\ntrigger = [1]'),
                           "space 1 (Bagheria): a plain has no trigger"),
    "roadblock without trigger": (edit('type = "roadblock"\ntrigger = [1, 2]\n', 'type = "roadblock"\n'),
                                  "space 3 (Cefalù): a roadblock needs a trigger"),
    "unknown colour": (edit('open_to = ["black", "green"]', 'open_to = ["black", "blue"]'), "'blue', not a family"),
    "returns face 0": (edit("prison = [6]", "prison = [0]"), "[returns] prison has a die face outside 1-6"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_maps_fail_in_one_line_naming_the_file(tmp_path, case):
    text, message = BAD[case]
    p = tmp_path / "bad.toml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(InputFileError) as e:
        load_map(p)
    assert message in str(e.value) and str(p) in str(e.value) and "\n" not in str(e.value)


def test_a_missing_or_broken_file(tmp_path):
    with pytest.raises(InputFileError, match="not found"):
        load_map(tmp_path / "none.toml")
    p = tmp_path / "broken.toml"
    p.write_text("[map\n", encoding="utf-8")
    with pytest.raises(InputFileError, match="not valid TOML"):
        load_map(p)
