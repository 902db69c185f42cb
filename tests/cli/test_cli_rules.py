"""Rules variants through the command line, game-blind: Mafia's ``spaces_to_win``
stands for any key here (each game's own keys have their behaviour tests in
tests/games/). A variant is checked before any work, played, named in the
summary, manifest, report, replay and comparisons, kept apart from the box's
runs in merges and race sets, and reported side by side with ``--by rules``;
scenarios and sweeps take it too."""
import json
from pathlib import Path

import pandas as pd
import pytest

from tests.cli_support import assert_usage_error, run

GAMES = 1500
VARIANT = "spaces_to_win=5=3"  # a family at five players wins with 3 spaces, not 4


def sim(*extra, games=GAMES):
    return ["simulate", "mafia", "--games", games, "--no-progress", "--threads", 1, "--players", 5, *extra]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("rules")
    box, variant, other = base / "box", base / "variant", base / "other"
    assert run(sim("--out", box)) == 0
    assert run(sim("--out", variant, "--rule", VARIANT)) == 0
    assert run(sim("--out", other, "--rule", VARIANT, "--seed", 2)) == 0
    return base


@pytest.mark.parametrize("extra, needles", [
    (["--rule", "spaces_to_win=5=0"], ["spaces_to_win", "for 5 players", "1 to 20", "got 0"]),
    (["--rule", "spaces_to_win=7=3"], ["spaces_to_win", "player counts are 3 to 5"]),
    (["--rule", "spaces_to_win=x"], ["spaces_to_win", "'x'"]),
    (["--rule", "nope=1"], ["unknown rule 'nope'", "spaces_to_win"]),
    (["--rule", "spaces_to_win"], ["KEY=VALUE"]),
])
def test_a_bad_rule_is_one_line_and_writes_nothing(capsys, tmp_path, extra, needles):
    assert_usage_error(capsys, sim("--out", tmp_path / "out", *extra), *needles)
    assert not (tmp_path / "out").exists()


def test_a_bad_rules_file_is_one_line(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[rules\n")
    assert_usage_error(capsys, sim("--rules", bad), "rules file", "not valid TOML")
    assert_usage_error(capsys, sim("--rules", tmp_path), "rules file", "is a directory")
    bad.write_text("[rules]\nspaces_to_win = { 5 = 3, 4 = [1] }\n")
    assert_usage_error(capsys, sim("--rules", bad), "spaces_to_win", "for 4 players", "whole number")


def test_a_variant_is_played_and_named(runs, capsys):
    box = pd.read_parquet(runs / "box" / "games.parquet")
    variant = pd.read_parquet(runs / "variant" / "games.parquet")
    won = variant["outcome"] != "draw"
    # three spaces win: games end sooner, and a family's win never needs a fourth space
    assert variant["side_turns"].mean() < box["side_turns"].mean() - 5
    family_wins = variant[won & (variant["outcome"] != "state")]
    assert (family_wins["winner_spaces"] >= 3).all() and (family_wins["winner_spaces"] == 3).any()
    manifest = json.loads((runs / "variant" / "manifest.json").read_text())
    assert manifest["rules"]["changed"] == {"spaces_to_win": {"3": 5, "4": 4, "5": 3}}
    assert manifest["rules"]["text"] == "spaces_to_win 3=5 4=4 5=3 (box otherwise)"
    assert json.loads((runs / "box" / "manifest.json").read_text())["rules"]["text"] == "box"
    assert run(sim("--rule", VARIANT, games=50)) == 0
    assert "rules: spaces_to_win 3=5 4=4 5=3 (box otherwise)" in capsys.readouterr().out


def test_a_rules_file_plays_what_the_rule_pairs_play(runs, tmp_path):
    path = tmp_path / "three.toml"
    path.write_text("[rules]\nspaces_to_win = { 5 = 3 }\n")
    assert run(sim("--out", tmp_path / "file", "--rules", path)) == 0
    a = pd.read_parquet(runs / "variant" / "games.parquet")
    b = pd.read_parquet(tmp_path / "file" / "games.parquet")
    pd.testing.assert_frame_equal(a, b)
    manifest = json.loads((tmp_path / "file" / "manifest.json").read_text())
    assert manifest["rules"]["source"] == str(path) and str(path) in manifest["rules"]["text"]


def test_runs_under_different_rules_are_not_merged_but_set_side_by_side(runs, capsys, tmp_path):
    assert_usage_error(capsys, ["report", runs / "box", runs / "other", "--report", tmp_path / "m.html"],
                       "differ in rules", "--by rules")
    out = tmp_path / "by.html"
    assert run(["report", runs / "box", runs / "other", "--by", "rules", "--report", out]) == 0
    page = out.read_text()
    assert "rules box (box)" in page and "rules spaces_to_win 3=5 4=4 5=3 (box otherwise) (other)" in page


def test_the_same_seed_under_other_rules_holds_other_games(runs, tmp_path):
    """Race sets: the box's run and the variant's at seed 1 share no game, so a
    merge of two variant runs of seed 1 is refused as the same games, but the
    box's and the variant's are never taken for each other."""
    from analyzer.engine.raceset import race_set

    box = race_set(json.loads((runs / "box" / "manifest.json").read_text()))
    variant = race_set(json.loads((runs / "variant" / "manifest.json").read_text()))
    assert box.seed == variant.seed and not box.meets(variant)


def test_a_report_of_a_variant_names_it_and_plays_its_controlled_tables_under_it(runs, tmp_path):
    out = tmp_path / "v.html"
    assert run(["report", runs / "variant", "--report", out]) == 0
    page = out.read_text()
    assert "<th>Rules</th><td>spaces_to_win 3=5 4=4 5=3 (box otherwise)</td>" in page


def test_replay_and_compare_name_the_variant(capsys):
    assert run(["replay", "mafia", "--game", 3, "--players", 5, "--rule", VARIANT]) == 0
    assert "rules: spaces_to_win 3=5 4=4 5=3 (box otherwise)" in capsys.readouterr().out
    assert run(["compare", "mafia", "--players", 5, "--role", "family", "--bot", "random", "--vs", "random",
                "--games", 200, "--threads", 1, "--no-progress", "--rule", VARIANT]) == 0
    assert capsys.readouterr().out.startswith("rules: spaces_to_win 3=5 4=4 5=3 (box otherwise)\n")


def test_a_scenario_takes_a_rules_file_or_a_table(tmp_path, capsys):
    (tmp_path / "three.toml").write_text("[rules]\nspaces_to_win = { 5 = 3 }\n")
    (tmp_path / "s.toml").write_text(
        'game = "mafia"\nplayers = 5\ngames = 300\n'
        '[[run]]\ntitle = "file"\nrules = "three.toml"\nout = "a"\n'
        '[[run]]\ntitle = "table"\nout = "b"\n[run.rules]\nspaces_to_win = { 5 = 3 }\n')
    assert run(["run", tmp_path / "s.toml", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert out.count("rules: spaces_to_win 3=5 4=4 5=3 (box otherwise)") == 2
    a, b = (pd.read_parquet(tmp_path / d / "games.parquet") for d in "ab")
    pd.testing.assert_frame_equal(a, b)
    (tmp_path / "bad.toml").write_text('game = "mafia"\n[rules]\nspaces_to_win = { 5 = 0 }\n')
    assert_usage_error(capsys, ["run", tmp_path / "bad.toml"], "bad.toml", "spaces_to_win", "1 to 20")


SWEEP = """
game = "mafia"
players = 5
games = 300
out = "out"
[grid.rules]
spaces_to_win = [{{ 5 = 4 }}, {{ 5 = {second} }}]
"""


def test_a_sweep_over_rules_writes_a_row_per_value_and_resumes_only_changed_cells(tmp_path):
    from analyzer.sweep import SWEEP_TABLE, load_sweep, run_sweep

    path = tmp_path / "s.toml"
    path.write_text(SWEEP.format(second=3))
    played = []
    run_sweep(load_sweep(path), threads=1, progress=False, on_cell=lambda c, r: played.append(c.index))
    table = pd.read_parquet(tmp_path / "out" / SWEEP_TABLE)
    assert list(table["rule.spaces_to_win"]) == ["3=5 4=4 5=4", "3=5 4=4 5=3"]
    assert list(table["rules"]) == ["box", "spaces_to_win 3=5 4=4 5=3 (box otherwise)"]
    assert played == [0, 1]
    path.write_text(SWEEP.format(second=2))
    again = []
    run_sweep(load_sweep(path), resume=True, threads=1, progress=False, on_cell=lambda c, r: again.append(c.index))
    assert again == [1]  # the unchanged cell was not played again
    path.write_text(SWEEP.format(second=0))
    with pytest.raises(Exception, match="spaces_to_win.*1 to 20"):
        load_sweep(path)


def test_the_api_takes_a_table_a_file_or_rules(tmp_path):
    import analyzer
    from analyzer.api import rules_for
    from analyzer.errors import AnalyzerError

    by_table = analyzer.simulate("mafia", games=100, players=5, threads=1, rules={"spaces_to_win": {"5": 3}})
    path = tmp_path / "r.toml"
    path.write_text("[rules]\nspaces_to_win = { 5 = 3 }\n")
    by_file = analyzer.simulate("mafia", games=100, players=5, threads=1, rules=path)
    assert by_table.manifest["rules"]["changed"] == by_file.manifest["rules"]["changed"]
    pd.testing.assert_frame_equal(by_table.tables["games"], by_file.tables["games"])
    variant = rules_for("mafia", path, ["spaces_to_win=4=3"])
    assert variant.at("spaces_to_win", 4) == 3 and variant.at("spaces_to_win", 5) == 3
    for bad in ({"spaces_to_win": 3}, {"nope": 1}, 42):
        with pytest.raises(AnalyzerError):
            rules_for("mafia", bad)
    with pytest.raises(AnalyzerError, match="are Mafia.s, not Sau Mau Mau.s"):
        from analyzer.games import game_info, rules_of

        game_info("sau-mau-mau").load("match")(None, 4, [], rules=rules_of("mafia").box())
