"""A run directory's manifest is an input like any data file: a hand-edited or
damaged one is refused by ``report`` in one line naming the key, exit 2, before
anything is built from it. Once, a player count or bot list that did not fit the
tables crashed the process in a kernel (``double free or corruption``, exit 134;
``free(): invalid size``), other edits gave tracebacks, and ``"unit": "seed"``
was taken for a count of seeds."""
import json
import shutil
import subprocess
import sys

import pytest

from analyzer.engine.botspec import BotSpec
from analyzer.errors import BotError
from analyzer.games import match_class
from tests.cli_support import assert_usage_error, run

RACES = 40


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("manifests")
    for game, extra in (("lemming-mafia", []), ("sau-mau-mau", []), ("mafia", [])):
        assert run(["simulate", game, "--races", RACES, "--threads", 1, "--no-progress",
                    "--out", root / game, *extra]) == 0
    return root


def edited(runs, tmp_path, game, edit):
    """A copy of ``game``'s run with its manifest passed through ``edit``."""
    copy = tmp_path / f"{game}-edited"
    shutil.copytree(runs / game, copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    edit(manifest)
    (copy / "manifest.json").write_text(json.dumps(manifest))
    return copy


def add_seat(m):
    m["bots"].append({**m["bots"][0], "seat": len(m["bots"]) + 1})


def drop_seat(m):
    m["bots"].pop()


@pytest.mark.parametrize("game, edit, needles", [
    # these crashed the process in a kernel: run apart, so that a crash fails one test
    ("lemming-mafia", lambda m: m.update(players=3), ["bots", "4 seats for 3 players"]),
    ("lemming-mafia", add_seat, ["bots", "5 seats for 4 players"]),
    ("sau-mau-mau", add_seat, ["bots", "5 seats for 4 players"]),
])
def test_an_edited_player_count_or_bot_list_never_reaches_a_kernel(runs, tmp_path, game, edit, needles):
    copy = edited(runs, tmp_path, game, edit)
    done = subprocess.run([sys.executable, "-m", "analyzer", "report", str(copy), "--report",
                           str(tmp_path / "r.html")], capture_output=True, text=True, timeout=600)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr[-2000:]
    assert len(lines) == 1 and lines[0].startswith("analyzer: error: run manifest "), done.stderr
    assert all(needle in lines[0] for needle in needles), lines
    assert not (tmp_path / "r.html").exists()


def replace(key, value):
    return lambda m: m.update({key: value})


@pytest.mark.parametrize("game, edit, needles", [
    ("lemming-mafia", replace("players", 5), ["bots: 4 seats for 5 players"]),
    ("lemming-mafia", drop_seat, ["bots: 3 seats for 4 players"]),
    ("lemming-mafia", replace("data", [1]), ["data 1: must be a table, got 1"]),
    ("lemming-mafia", replace("data", 5), ["data:", "list"]),
    ("lemming-mafia", replace("bots", []), ["bots:", "at least 1"]),
    ("lemming-mafia", replace("unit", "seed"), ["unit: Lemming Mafia counts races, got 'seed'"]),
    ("lemming-mafia", replace("players", 7), ["players"]),
    ("lemming-mafia", replace("players", "4"), ["players:", "integer"]),
    ("lemming-mafia", replace("races", "40"), ["races: must be a whole number"]),
    ("lemming-mafia", replace("seed", -1), ["seed:"]),
    ("lemming-mafia", replace("runs", ["a", "b"]), ["runs: a report's own key"]),
    ("lemming-mafia", replace("strong", True), ["strong: a report's own key"]),
    ("lemming-mafia", replace("board", 5), ["board: must be a table"]),
    ("lemming-mafia", lambda m: m["bots"][1].update(seat=7), ["bots: the seats must be 1 to 4 in order"]),
    ("lemming-mafia", lambda m: m["bots"][0].update(bot="a\nb"), ["bot 1.bot", "one line"]),
    ("lemming-mafia", lambda m: m["items"].update(seed=2), ["items:", "seed 2"]),
    ("lemming-mafia", lambda m: m["items"].update(count=7), ["items:", "count 7"]),
    # the tables must agree with the manifest: another count, seat, bot or role is another run
    ("lemming-mafia", lambda m: (m.update(players=3), drop_seat(m)), ["players: players.parquet holds seats 1 to 4"]),
    ("lemming-mafia", lambda m: (m.update(players=5), add_seat(m)), ["players: the tables hold seats 1 to 4"]),
    ("lemming-mafia", lambda m: m["bots"][0].update(bot="timer"), ["bots:", "'favourite' in seat 1"]),
    ("sau-mau-mau", lambda m: (m.update(players=3), drop_seat(m)), ["games.parquet holds 160 rows but the manifest says 120"]),
    ("mafia", replace("roles", ["state", "family", "family", "family", "family"]), ["roles: Mafia at 5 players"]),
    ("mafia", lambda m: m["bots"][2].update(bot="hunter"), ["bots:", "seat 3"]),
])
def test_a_damaged_manifest_is_one_line_naming_its_key(runs, tmp_path, capsys, game, edit, needles):
    copy = edited(runs, tmp_path, game, edit)
    where = [] if "rows but" in needles[0] else ["manifest.json"]  # a table's rows: the line names the table
    assert_usage_error(capsys, ["report", copy, "--report", tmp_path / "r.html"], *where, *needles)
    assert not (tmp_path / "r.html").exists()


def test_keys_of_a_later_version_pass(runs, tmp_path, capsys):
    """Another version may add keys (a ``rules`` table, say): they do not make the run unreadable."""
    copy = edited(runs, tmp_path, "lemming-mafia",
                  replace("rules", {"source": "x.toml", "changed": [], "values": {}, "sha256": "ab" * 32}))
    assert run(["report", copy, "--report", tmp_path / "r.html"]) == 0
    assert (tmp_path / "r.html").is_file()


def test_a_match_takes_one_bot_a_seat():
    """The kernels size every seat's arrays by the player count: a bot list of
    another length is refused where a match is built, whoever builds it."""
    with pytest.raises(BotError, match="5 bots given for 4 players"):
        match_class("lemming-mafia")(None, 4, [BotSpec("random")] * 5)
