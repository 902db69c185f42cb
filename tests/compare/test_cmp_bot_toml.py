"""Bot TOML files: a built-in family with its own defaults, overridable on the
command line; broken files give one clear line."""
import pytest

from analyzer.engine.botspec import parse_bot_list
from analyzer.errors import BotError
from analyzer.games.lemming_mafia.match import LemmingMafiaMatch
from analyzer.games.lemming_mafia.registry import BUILTIN, load_bot_toml, resolve
from tests.cli_support import run

GOOD = '''# a tuned timer
family = "timer"
name = "tuned-timer"
description = "bets late"

[params]
late_bets = 0
urgency = 2.5
'''




@pytest.fixture
def good(tmp_path):
    path = tmp_path / "tuned.toml"
    path.write_text(GOOD)
    return path


def test_loads_as_its_family_with_new_defaults(good):
    fam = resolve(parse_bot_list(str(good))[0])
    base = BUILTIN["timer"]
    assert fam.name == "tuned-timer" and fam.description == "bets late" and fam.kind == base.kind
    assert fam.defaults() == {**base.defaults(), "late_bets": 0.0, "urgency": 2.5}
    assert fam.source == str(good)
    bare = good.with_name("bare.toml")
    bare.write_text('family = "favourite"\n')
    fam = load_bot_toml(str(bare))
    assert fam.name == "bare" and fam.defaults() == BUILTIN["favourite"].defaults()


def test_overrides_and_plays(good):
    specs = parse_bot_list(f"{good}:urgency=4,timer:late_bets=0:urgency=4,random")
    match = LemmingMafiaMatch(None, 3, specs)
    bots = match.describe()["bots"]
    assert bots[0]["params"] == bots[1]["params"]  # file defaults + override == the same bot spelled out
    assert bots[0]["family"] == "tuned-timer"
    match.warm_up()
    a, b = match.outcomes(match.play(5, 0, 300))
    # the same bot in seats 1 and 2: same parameters, same kernel, sensible scores
    assert b.shape == (300, 3) and b[:, :2].mean() > b[:, 2].mean()


@pytest.mark.parametrize("text, needle", [
    ('family = "timer"\n[params\n', "is not valid TOML"),
    ('name = "x"\n', "'family' must name a built-in bot"),
    ('family = "alphazero"\n', "'family' must name a built-in bot"),
    ('family = "timer.toml"\n', "'family' must name a built-in bot"),
    ('family = "timer"\n[params]\npush = 1\n', "has no parameter 'push'"),
    ('family = "timer"\n[params]\nlate_bets = "two"\n', "'late_bets' must be a number"),
    ('family = "timer"\n[params]\nlate_bets = true\n', "'late_bets' must be a number"),
    ('family = "timer"\n[params]\nlate_bets = nan\n', "'late_bets' must be a number"),
    ('family = "timer"\nparams = 3\n', "'params' must be a table"),
    ('family = "timer"\nname = 3\n', "'name' must be a string"),
    ('family = "timer"\nfamilly = "x"\n', "unknown key 'familly'"),
    (b'family = "timer"\xff\n', "is not valid TOML"),
])
def test_bad_files(tmp_path, capsys, text, needle):
    path = tmp_path / "bad.toml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(BotError, match=None) as info:
        resolve(parse_bot_list(str(path))[0])
    message = str(info.value)
    assert needle in message and "\n" not in message and str(path) in message
    code = run(["simulate", "lemming-mafia", "--bots", f"{path},random,random,random", "--races", 10,
                "--threads", 1, "--no-progress"])
    _, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1 and err.startswith("analyzer: error: ") and needle in err


def test_missing_file_and_bad_override(tmp_path, good):
    with pytest.raises(BotError, match="bot file not found"):
        resolve(parse_bot_list(str(tmp_path / "nope.toml"))[0])
    with pytest.raises(BotError, match="has no parameter 'push'"):
        LemmingMafiaMatch(None, 3, parse_bot_list(f"{good}:push=1,random,random"))


def test_bots_command_unchanged(capsys):
    assert run(["bots", "lemming-mafia"]) == 0
    out, _ = capsys.readouterr()
    for name in BUILTIN:
        assert f"\n{name}: " in "\n" + out
