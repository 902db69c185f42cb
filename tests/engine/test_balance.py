"""Balance searches (analyzer/balance.py): a bad balance file is one line before
anything plays; a search writes its variants table, a rules file per reported
variant and its report; the same seed gives the same table at any thread
count; a resumed search plays only what is missing."""
from pathlib import Path

import pandas as pd
import pytest

from analyzer.balance import VARIANTS_TABLE, load_balance, run_balance
from analyzer.errors import InputFileError
from tests.cli_support import assert_usage_error, run

FILE = """
game = "mafia"
players = 5
bots = "random"
budget = {budget}
seed = 3
out = "out"
retune = false
[vary]
spaces_to_win = [{{ 5 = 3 }}, {{ 5 = 4 }}, {{ 5 = 6 }}]
[targets]
skill_gradient = 3.0
"""


def balance_file(tmp_path: Path, budget: int = 30_000, text: str = FILE, name: str = "b.toml") -> Path:
    path = tmp_path / name
    path.write_text(text.format(budget=budget))
    return path


@pytest.mark.parametrize("edit, needles", [
    (("spaces_to_win = [", "nope = ["), ["vary.nope", "unknown rule", "spaces_to_win"]),
    (("{{ 5 = 6 }}", "{{ 5 = 0 }}"), ["spaces_to_win", "1 to 20", "got 0"]),
    (("{{ 5 = 6 }}", "{{ 5 = 4 }}"), ["spaces_to_win", "given twice"]),
    (("skill_gradient = 3.0", "colour_balance = 1.0"), ["targets.colour_balance", "not a question"]),
    (("skill_gradient = 3.0", "skill_gradient = [3.0]"), ["skill_gradient", "pair"]),
    (("skill_gradient = 3.0", "length = 30"), ["targets.length", "give a range [low, high]"]),
    (("skill_gradient = 3.0", "first_seat_edge = -1"), ["targets.first_seat_edge", "0 or more", "got -1"]),
    (("players = 5", "players = 9"), ["players", "3 to 5", "got 9"]),
    (("budget = {budget}", "budget = 10"), ["budget", "10000"]),
    (("retune = false", "retune = false\n[weights]\nlength = 2"), ["weights.length", "not one of the targets"]),
    (("spaces_to_win = [{{ 5 = 3 }}, {{ 5 = 4 }}, {{ 5 = 6 }}]", 'spaces_to_win = "3:4"'), ["vary.spaces_to_win",
                                                                                             "LO:HI", "number rule"]),
])
def test_a_bad_balance_file_is_one_line_and_plays_nothing(capsys, tmp_path, edit, needles):
    path = balance_file(tmp_path, text=FILE.replace(*edit))
    assert_usage_error(capsys, ["balance", path], *needles)
    assert not (tmp_path / "out").exists()


def test_a_search_writes_its_table_rules_files_and_report_the_same_at_any_thread_count(tmp_path):
    one = run_balance(load_balance(balance_file(tmp_path, name="one.toml"), tmp_path / "one"), threads=1,
                      progress=False)
    two = run_balance(load_balance(balance_file(tmp_path, name="two.toml"), tmp_path / "two"), threads=2,
                      progress=False)
    a = pd.read_parquet(tmp_path / "one" / VARIANTS_TABLE)
    b = pd.read_parquet(tmp_path / "two" / VARIANTS_TABLE)
    pd.testing.assert_frame_equal(a, b, check_exact=True)
    assert list(a.columns) == ["variant", "spaces_to_win", "skill_gradient", "skill_gradient_low",
                               "skill_gradient_high", "skill_gradient_word", "games", "remeasured", "pareto", "rules"]
    assert sorted(a["variant"]) == [1, 2, 3]
    assert set(a["skill_gradient_word"]) == {"met"}  # the State's best heuristic beats random by far
    assert a["remeasured"].all() and a["pareto"].all()
    # every reported variant's rules file plays as --rules takes it
    from analyzer.api import rules_for

    for v in one.reported:
        rules = rules_for("mafia", tmp_path / "one" / f"variant-{v.number}.toml")
        assert rules.as_dict() == v.rules.as_dict()
    assert (tmp_path / "one" / "balance.html").is_file()
    assert "RECOMMENDED variant 1" in (tmp_path / "one" / "balance.html").read_text()
    # all three meet the target: the start (the box) is recommended, the fewest changes
    assert one.reported[0].rules.is_box and two.reported[0].rules.is_box


def test_a_resumed_search_plays_only_what_is_missing(tmp_path, monkeypatch):
    import analyzer.balance as balance

    path = balance_file(tmp_path)
    first = run_balance(load_balance(path), threads=1, progress=False)
    played = []
    real = balance.play_tally
    monkeypatch.setattr(balance, "play_tally", lambda *a, **k: played.append(a[3:5]) or real(*a, **k))
    again = run_balance(load_balance(path), resume=True, threads=1, progress=False)
    searched = max(v.standing.games for v in first.variants)
    assert all(start >= searched for start, _ in played)  # only the re-measure and the rung play again
    a = pd.read_parquet(tmp_path / "out" / VARIANTS_TABLE)
    assert [v.rules.text() for v in again.reported] == [v.rules.text() for v in first.reported]
    assert set(a["skill_gradient_word"]) == {"met"}


def test_another_files_out_directory_is_refused(capsys, tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "mine.txt").write_text("x")
    assert_usage_error(capsys, ["balance", balance_file(tmp_path)], "out", "own out directory")
    assert (tmp_path / "out" / "mine.txt").read_text() == "x"


def test_the_command_prints_the_scorecard_and_where_things_are(capsys, tmp_path):
    assert run(["balance", balance_file(tmp_path), "--threads", 1, "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "Balance scorecard" in out and "RECOMMENDED variant 1: rules box" in out
    assert f"variants: {tmp_path / 'out' / VARIANTS_TABLE}" in out
    assert f"recommended: {tmp_path / 'out' / 'variant-1.toml'}" in out


def test_a_question_of_the_game_is_a_target_measured_on_the_bots_table(tmp_path):
    """The first seat's edge and the length, the report's own questions by key:
    every variant's row carries each target's estimate, interval and word, and a
    word follows the interval against the band (met inside, missed outside)."""
    text = FILE.replace("skill_gradient = 3.0", "first_seat_edge = 5.0\nlength = [1, 1000]\nnobody_wins = 50")
    result = run_balance(load_balance(balance_file(tmp_path, text=text)), threads=1, progress=False)
    a = pd.read_parquet(tmp_path / "out" / VARIANTS_TABLE)
    for key in ("first_seat_edge", "length", "nobody_wins"):
        assert {key, f"{key}_low", f"{key}_high", f"{key}_word"} <= set(a.columns)
    fresh = a[a["remeasured"]]
    assert len(fresh) == len(result.reported) > 0
    for _, row in fresh.iterrows():
        assert row["length_low"] <= row["length"] <= row["length_high"]
        inside = 1 <= row["length_low"] and row["length_high"] <= 1000
        assert (row["length_word"] == "met") == inside
        # a share of games nobody wins of at most 50%: random families rarely end a game that way
        assert row["nobody_wins_word"] == "met" and row["nobody_wins_high"] <= 50


def test_a_question_read_from_tables_of_its_own_is_not_a_target(capsys, tmp_path):
    text = FILE.replace('game = "mafia"', 'game = "lemming-mafia"').replace("players = 5", "players = 4").replace(
        "spaces_to_win = [{{ 5 = 3 }}, {{ 5 = 4 }}, {{ 5 = 6 }}]", "contracts_dealt = [2, 3]").replace(
        "skill_gradient = 3.0", "discards = 0.5")
    assert_usage_error(capsys, ["balance", balance_file(tmp_path, text=text)], "targets.discards",
                       "not measured on the bots' table")
