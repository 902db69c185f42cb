"""Rule numbers as data (engine/ruleset.py): a game's declaration checks every
way a designer can give a variant (a rules file, ``--rule KEY=VALUE``, a table),
names it in words, digests it by its differences from the box, and reads back
what it writes. A toy declaration here, with one key of every kind."""
import pickle

import pytest

from analyzer.engine.raceset import setup_digest
from analyzer.engine.ruleset import RuleKey, RuleSet, rules_text
from analyzer.errors import AnalyzerError, InputFileError

TOY = RuleSet("toy", "Toy", (2, 4), (
    RuleKey("hand", 5, "cards dealt", lo=1, hi=10),
    RuleKey("payouts", (6, 4, 3), "points of the winning bets in order", lo=0, hi=20, length=(1, 5)),
    RuleKey("backward", False, "pushes may go backwards"),
    RuleKey("to_win", {2: 5, 3: 4, 4: 4}, "spaces to win", per_players=True, lo=1, hi=9),
    RuleKey("start", {2: (5, 6), 3: (4, 5, 6), 4: (3, 4, 5, 6)}, "cards each seat starts with",
            per_players=True, seat_list=True, lo=0, hi=10),
))


def test_the_box_is_every_key_at_its_box_value():
    box = TOY.box()
    assert box.is_box and box.changed() == {}
    assert box.text() == "box" and box.line() == "rules: box"
    assert box["payouts"] == (6, 4, 3) and box.at("to_win", 3) == 4 and box.at("start", 2) == (5, 6)
    assert TOY.read() == box


@pytest.mark.parametrize("pair, key, value", [
    ("hand=7", "hand", 7),
    ("payouts=5,3,2,1", "payouts", (5, 3, 2, 1)),
    ("payouts=[5, 3]", "payouts", (5, 3)),
    ("payouts=1", "payouts", (1,)),
    ("backward=true", "backward", True),
    ("to_win=3=6", "to_win", {2: 5, 3: 6, 4: 4}),  # a table given in part keeps the box's other entries
    ("to_win={2 = 3, 4 = 2}", "to_win", {2: 3, 3: 4, 4: 2}),
    ("start=2=[6,6]", "start", {2: (6, 6), 3: (4, 5, 6), 4: (3, 4, 5, 6)}),
])
def test_each_kind_of_value_is_read_from_a_rule_pair(pair, key, value):
    rules = TOY.read(None, [pair])
    assert rules[key] == value
    assert list(rules.changed()) == [key]
    assert rules.text().endswith("(box otherwise)")


@pytest.mark.parametrize("pair, needles", [
    ("hand=11", ["hand", "must be 1 to 10", "got 11"]),
    ("hand=0", ["hand", "1 to 10", "got 0"]),
    ("hand=five", ["hand", "five"]),
    ("hand=5.0", ["hand", "whole number", "5.0"]),
    ("hand=true", ["hand", "whole number", "True"]),
    ("payouts=1,2,3,4,5,6", ["payouts", "1 to 5 numbers", "got 6"]),
    ("payouts=1,-1", ["payouts", "item 2", "0 to 20", "got -1"]),
    ("backward=1", ["backward", "true or false", "got 1"]),
    ("to_win=5=3", ["to_win", "player counts are 2 to 4", "'5'"]),
    ("to_win=3=0", ["to_win", "for 3 players", "1 to 9", "got 0"]),
    ("start=3=[4,5]", ["start", "for 3 players", "3 numbers (one per seat)", "got 2"]),
    ("size=3", ["unknown rule 'size'", "hand, payouts"]),
    ("hand", ["KEY=VALUE"]),
    ("hand=", ["no value"]),
])
def test_a_bad_pair_is_one_line_naming_the_key_the_value_and_what_is_allowed(pair, needles):
    with pytest.raises(AnalyzerError) as e:
        TOY.read(None, [pair])
    message = str(e.value)
    assert "\n" not in message
    for needle in needles:
        assert needle in message, (needle, message)


def test_a_key_given_twice_is_refused_and_a_pair_wins_over_the_file(tmp_path):
    with pytest.raises(AnalyzerError, match="given twice"):
        TOY.read(None, ["hand=6", "hand=7"])
    path = tmp_path / "r.toml"
    path.write_text("[rules]\nhand = 6\npayouts = [9, 1]\n")
    rules = TOY.read(path, ["hand=8"])
    assert rules["hand"] == 8 and rules["payouts"] == (9, 1)
    assert rules.source == str(path) and rules.text().endswith(f"from {path}")


@pytest.mark.parametrize("content, needles", [
    ("[rules\nhand = 6", ["not valid TOML"]),
    ("hand = 6\n", ["no [rules] table"]),
    ("[rules]\nhand = 6\n[other]\n", ["unknown key 'other'"]),
    ("[rules]\nhnad = 6\n", ["unknown rule 'hnad'", "its rules: hand"]),
    ("[rules]\nhand = 60\n", ["hand", "1 to 10", "got 60"]),
    ("[rules]\npayouts = [1, 2, 3, 4, 5, 6, 7]\n", ["payouts", "1 to 5 numbers", "got 7"]),
    ("[rules]\nhand = \"6\"\n", ["hand", "whole number", "'6'"]),
    (b"[rules]\nhand = \xff\n", ["not valid TOML"]),
])
def test_a_bad_rules_file_is_one_line_naming_the_file(tmp_path, content, needles):
    path = tmp_path / "r.toml"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(InputFileError) as e:
        TOY.read(path)
    message = str(e.value)
    assert "\n" not in message and str(path) in message
    for needle in needles:
        assert needle in message, (needle, message)


def test_a_directory_or_a_missing_file_is_refused(tmp_path):
    with pytest.raises(InputFileError, match="is a directory"):
        TOY.read(tmp_path)
    with pytest.raises(InputFileError, match="not found"):
        TOY.read(tmp_path / "none.toml")


def test_what_a_variant_writes_reads_back_the_same(tmp_path):
    rules = TOY.read(None, ["payouts=5,3,2,1", "backward=true", "to_win=3=6", "start=4=[2,2,2,2]"])
    path = tmp_path / "variant.toml"
    path.write_text(rules.toml("found by a test"))
    again = TOY.read(path)
    assert again.as_dict() == rules.as_dict() and again.digest() == rules.digest()
    described = rules.describe()
    assert TOY.from_manifest(described).as_dict() == rules.as_dict()
    assert rules_text(described) == rules.text() and rules_text(None) == "box"
    assert pickle.loads(pickle.dumps(rules)) == rules


def test_the_digest_is_the_differences_from_the_box():
    a = TOY.read(None, ["hand=6"])
    assert a.digest() == TOY.read(None, ["hand=6", "backward=false"]).digest()  # a box value given: the same
    assert a.digest() != TOY.read(None, ["hand=7"]).digest()
    assert TOY.box().digest() == TOY.read(None, ["hand=5"]).digest()


def test_a_runs_setup_digest_counts_the_rules_only_where_they_differ_from_the_box():
    manifest = {"game": "toy", "unit": "games", "players": 2, "data": [], "bots": []}
    plain = setup_digest(manifest)
    assert setup_digest({**manifest, "rules": TOY.box().describe()}) == plain  # older runs keep their identity
    variant = setup_digest({**manifest, "rules": TOY.read(None, ["hand=6"]).describe()})
    assert variant != plain
    assert variant != setup_digest({**manifest, "rules": TOY.read(None, ["hand=7"]).describe()})


def test_the_docs_table_lists_every_key_with_its_box_value_and_range():
    table = TOY.markdown()
    for key in TOY.keys:
        assert f"`{key.name}`" in table
    assert "`[6, 4, 3]`" in table and "a list of 1 to 5 whole numbers, each 0 to 20" in table
    assert "one per seat" in table and "true or false" in table
    assert "no rule numbers" in RuleSet("none", "None", (2, 4)).markdown()


def test_a_game_without_rules_refuses_every_key():
    empty = RuleSet("none", "None", (2, 4))
    assert empty.box().is_box
    with pytest.raises(AnalyzerError, match="it has no rules to change"):
        empty.read(None, ["hand=5"])
