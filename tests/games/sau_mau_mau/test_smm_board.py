"""The assumed track file and its validation (one-line InputFileError)."""
import pytest

from analyzer.errors import InputFileError
from analyzer.games.sau_mau_mau.board import default_track_path, load_track


def test_default_track():
    t = load_track()
    assert t.crown == {2: 12, 3: 15, 4: 18, 5: 21}
    assert t.assumed and t.name == "assumed-default"
    assert t.crown_for(5) == 21


def test_copy_of_default_is_assumed(tmp_path):
    p = tmp_path / "mine.toml"
    p.write_text(default_track_path().read_text().replace("assumed = true", "assumed = false"))
    assert load_track(p).assumed


def test_custom_track(tmp_path):
    p = tmp_path / "t.toml"
    p.write_text('[track]\nname = "real"\n[track.crown]\n2 = 10\n3 = 14\n4 = 18\n5 = 22\n')
    t = load_track(p)
    assert t.crown[5] == 22 and not t.assumed and t.name == "real"


BAD = {
    "missing count": ('[track.crown]\n2 = 10\n3 = 14\n4 = 18\n', "lacks player count(s) 5"),
    "zero crown": ('[track.crown]\n2 = 0\n3 = 14\n4 = 18\n5 = 22\n', "positive"),
    "negative crown": ('[track.crown]\n2 = -3\n3 = 14\n4 = 18\n5 = 22\n', "positive"),
    "float crown": ('[track.crown]\n2 = 1.5\n3 = 14\n4 = 18\n5 = 22\n', "positive"),
    "unknown key": ('[track]\ncrowns = 3\n[track.crown]\n2 = 1\n3 = 1\n4 = 1\n5 = 1\n', "unknown key"),
    "unknown count": ('[track.crown]\n2 = 1\n3 = 1\n4 = 1\n5 = 1\n6 = 1\n', "unknown player count"),
    "unknown table": ('[board]\nx = 1\n', "unknown table"),
    "no crown": ('[track]\nname = "x"\n', "no [track.crown]"),
    "bad toml": ('[track\n', "not valid TOML"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_files(tmp_path, name):
    text, message = BAD[name]
    p = tmp_path / "bad.toml"
    p.write_text(text)
    with pytest.raises(InputFileError) as e:
        load_track(p)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_missing_file(tmp_path):
    with pytest.raises(InputFileError, match="not found"):
        load_track(tmp_path / "nope.toml")


def test_unsupported_player_count():
    with pytest.raises(InputFileError, match="6 players"):
        load_track().crown_for(6)
