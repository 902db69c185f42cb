"""A bot file's content is part of a run's identity: the manifest records the
sha256 of every bot file (a user .py, a bot .toml), the race set's setup digest
and merges compare it, and the Python API loads a file edited since it was
loaded again. Once, editing a bot file between two seed-1 runs left ``report``
saying they "hold the same races" (``--drop-duplicates`` dropped one in silence),
runs of two seeds merged both versions as one bot, and the API kept playing a
file's first version for the rest of the process. Runs of built-in bots keep
their setup digest."""
import hashlib
import json
import os

import analyzer
from tests.cli_support import assert_usage_error, run

GAMES = 40
BOT = '''
from analyzer.engine.bots import UserBot
from analyzer.games.sau_mau_mau.view import *


def decide(view):
    if decision(view) == 4:
        return {bet}
    if decision(view) == 1:
        return 0
    if decision(view) == 3:
        return -1
    return 0 if n_options(view) else -1


BOT = UserBot("mine", decide, game="sau-mau-mau")
'''
NEVER, ALWAYS = BOT.format(bet=-1), BOT.format(bet=0)  # never bets; always bets on pig 0


def sim(bot, out, seed=1, game="sau-mau-mau"):
    return ["simulate", game, "--games", GAMES, "--bots", f"{bot},random,random,random", "--seed", seed,
            "--threads", 1, "--no-progress", "--out", out]


def manifest(run_dir):
    return json.loads((run_dir / "manifest.json").read_text())


def test_the_manifest_records_each_bot_files_content(tmp_path):
    bot, toml = tmp_path / "mine.py", tmp_path / "tuned.toml"
    bot.write_text(NEVER)
    toml.write_text('family = "backer"\n[params]\n')
    assert run(["simulate", "sau-mau-mau", "--games", GAMES, "--bots", f"{bot},{toml},random,random",
                "--threads", 1, "--no-progress", "--out", tmp_path / "run"]) == 0
    seats = manifest(tmp_path / "run")["bots"]
    assert seats[0]["sha256"] == hashlib.sha256(bot.read_bytes()).hexdigest()
    assert seats[1]["sha256"] == hashlib.sha256(toml.read_bytes()).hexdigest()
    assert "sha256" not in seats[2]  # a built-in bot is its name


def test_a_run_of_built_in_bots_keeps_its_setup_digest(tmp_path):
    """The digest of before: old run directories keep their identity."""
    assert run(["simulate", "lemming-mafia", "--races", 20, "--bots", "random", "--threads", 1, "--no-progress",
                "--out", tmp_path / "run"]) == 0
    assert manifest(tmp_path / "run")["items"]["setup"] == "f7d9928f25227472"


def test_a_bot_file_edited_between_two_seed_1_runs_makes_two_bots(tmp_path, capsys):
    bot = tmp_path / "mine.py"
    bot.write_text(NEVER)
    assert run(sim(bot, tmp_path / "a")) == 0
    assert run(sim(bot, tmp_path / "same")) == 0  # the control: the same file, the same races
    bot.write_text(ALWAYS)
    assert run(sim(bot, tmp_path / "b")) == 0
    assert run(sim(bot, tmp_path / "c", seed=2)) == 0
    assert manifest(tmp_path / "a")["items"]["setup"] != manifest(tmp_path / "b")["items"]["setup"]
    assert_usage_error(capsys, ["report", tmp_path / "a", tmp_path / "same", "--report", tmp_path / "r.html"],
                       "hold the same games")
    for other, extra in (("b", []), ("b", ["--drop-duplicates"]), ("c", [])):
        line = assert_usage_error(capsys, ["report", tmp_path / "a", tmp_path / other, *extra,
                                           "--report", tmp_path / "r.html"], "the runs differ in bots")
        sha_a, sha_b = (manifest(tmp_path / d)["bots"][0]["sha256"][:12] for d in ("a", other))
        assert sha_a in line and sha_b in line and sha_a != sha_b
    assert not (tmp_path / "r.html").exists()


def test_the_api_loads_a_bot_file_edited_within_the_process_again(tmp_path):
    bot = tmp_path / "mine.py"
    bot.write_text(NEVER)
    first = analyzer.simulate("sau-mau-mau", games=GAMES, bots=[str(bot)] + ["random"] * 3, threads=1,
                              progress=False)
    bot.write_text(ALWAYS)
    os.utime(bot, (1, 1))  # an old time stamp: nothing may go by it
    second = analyzer.simulate("sau-mau-mau", games=GAMES, bots=[str(bot)] + ["random"] * 3, threads=1,
                               progress=False)
    never, always = (run_.tables["bets"] for run_ in (first, second))
    assert (never["seat"] == 1).sum() == 0 and (always["seat"] == 1).sum() > 0
    assert first.manifest["bots"][0]["sha256"] != second.manifest["bots"][0]["sha256"]
    bot.write_text(NEVER)  # back to the first content: the first bot again, as loaded then
    third = analyzer.simulate("sau-mau-mau", games=GAMES, bots=[str(bot)] + ["random"] * 3, threads=1,
                              progress=False)
    assert third.manifest["bots"] == first.manifest["bots"] and (third.tables["bets"]["seat"] == 1).sum() == 0
