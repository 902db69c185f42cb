"""Mafia's rules on the command line: ``--rule`` and ``--rules FILE`` play the same
variant, named in the summary, the manifest, the replay, a comparison and the
report; bad rules are refused in one line with exit 2 before any work."""
import json

import pandas as pd
import pytest

from tests.cli_support import assert_usage_error, run

GAMES = 400
VARIANT = ("--rule", "spaces_to_win=5=5", "--rule", "purge_points_to_end=5")
NAMED = "rules: spaces_to_win 3=5 4=4 5=5; purge_points_to_end 5 (box otherwise)"


def sim(*extra, games=GAMES):
    return ["simulate", "mafia", "--games", games, "--no-progress", "--threads", 1, "--seed", 3, *extra]


@pytest.fixture(scope="module")
def rules_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("mafia_rules") / "longer.toml"
    path.write_text("[rules]\nspaces_to_win = { 5 = 5 }\npurge_points_to_end = 5\n", encoding="utf-8")
    return path


def test_rule_and_rules_file_play_the_same_variant_and_name_it(tmp_path, rules_file, capsys):
    assert run(sim(*VARIANT, "--out", tmp_path / "pairs")) == 0
    assert NAMED in capsys.readouterr().out
    assert run(sim("--rules", rules_file, "--out", tmp_path / "file")) == 0
    assert f"{NAMED} from {rules_file}" in capsys.readouterr().out
    assert run(sim("--out", tmp_path / "box")) == 0
    assert "rules: box" in capsys.readouterr().out
    pairs, file, box = (pd.read_parquet(tmp_path / d / "games.parquet") for d in ("pairs", "file", "box"))
    pd.testing.assert_frame_equal(pairs, file)
    won = pairs.outcome.isin(["red", "black", "orange", "green"])
    assert won.any() and (pairs.winner_spaces[won] >= 5).all()
    assert (pairs.purge_points[pairs.outcome == "state"] >= 5).all()
    assert (box.winner_spaces[box.outcome.isin(["red", "black", "orange", "green"])] == 4).any()
    manifest = json.loads((tmp_path / "pairs" / "manifest.json").read_text())
    assert manifest["rules"]["changed"] == {"spaces_to_win": {"3": 5, "4": 4, "5": 5}, "purge_points_to_end": 5}


def test_a_replay_names_the_variant_and_its_goals(capsys):
    assert run(["replay", "mafia", "--seed", 1, *VARIANT]) == 0
    out = capsys.readouterr().out
    assert NAMED in out
    assert "(5 needed with 5 players)" in out or "(5 needed)" in out  # a family's win or the State's


def test_a_comparison_and_a_report_name_the_variant(tmp_path, capsys):
    assert run(["compare", "mafia", "--bot", "raider", "--vs", "expander", "--role", "family", "--games", 100,
                "--no-progress", "--rule", "safety_cap=5"]) == 0
    assert "rules: safety_cap 5 (box otherwise)" in capsys.readouterr().out
    report = tmp_path / "r.html"
    assert run(sim("--rule", "markers_per_family=6", "--report", report)) == 0
    assert "markers_per_family 6 (box otherwise)" in report.read_text(encoding="utf-8")


@pytest.mark.parametrize("args, needles", [
    (("--rule", "spaces=5"), ("unknown rule 'spaces'", "spaces_to_win")),
    (("--rule", "safety_cap=many"), ("safety_cap",)),
    (("--rule", "markers_per_family=true"), ("markers_per_family", "whole number")),
    (("--rule", "safety_cap=0"), ("safety_cap", "1 to 1000")),
    (("--rule", "purge_half_points=4,2"), ("purge_half_points", "must list 3 numbers")),
    (("--rule", "shootout_hit_faces=1,7"), ("shootout_hit_faces", "1 to 6")),
    (("--rule", "spaces_to_win=6=4"), ("spaces_to_win", "player counts are 3 to 5")),
    # ranges that depend on the map, the player count or other keys
    (("--rule", "spaces_to_win=5=9"), ("spaces_to_win 9 for 5 players", "at most 8 spaces", "1 to 8")),
    (("--players", 3, "--rule", "markers_per_family=4"), ("spaces_to_win 5 for 3 players", "1 to 4")),
    (("--rule", "purge_points_to_end=13"), ("purge_points_to_end 13", "1 to 12")),
    (("--rule", "cc_removal_faces=2,2"), ("cc_removal_faces 2,2", "listed twice")),
])
def test_bad_rules_are_one_line_and_write_nothing(args, needles, capsys, tmp_path):
    out = tmp_path / "run"
    assert_usage_error(capsys, sim(*args, "--out", out), *needles)
    assert not out.exists()


def test_a_bad_rules_file_is_one_line(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text("[rules]\nmarkers_per_family = 31\n", encoding="utf-8")
    assert_usage_error(capsys, sim("--rules", path), str(path), "markers_per_family", "1 to 30")
    path.write_text("[rules]\nsafety_cap = [1]\n", encoding="utf-8")
    assert_usage_error(capsys, sim("--rules", path), str(path), "safety_cap")
