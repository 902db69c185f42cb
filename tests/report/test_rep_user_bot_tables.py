"""A user bot is its file, not its name: the report's controlled tables play a
user's ``.py`` bot from its file, whatever name it declares. Once, a user bot
named like a built-in one (``backer``, which never bets here) got the built-in
backer's controlled table in its report (its bets, the run's none), and a bot of
any other name got "no controlled tables: unknown bot". A bot file that is gone
or changed since the run gets no tables and a line saying which and why."""
import csv

import pytest

from tests.cli_support import run

GAMES = 300
NEVER_BETS = '''
from analyzer.engine.bots import UserBot
from analyzer.games.sau_mau_mau.view import *


def decide(view):
    if decision(view) == 4:  # bet: never
        return -1
    if decision(view) == 1:  # colour after a Farmer
        return 0
    if decision(view) == 3:  # penalty steps: none
        return -1
    return 0 if n_options(view) else -1


BOT = UserBot("{name}", decide, game="sau-mau-mau")
'''


def overview(report, label) -> dict[str, float]:
    path = report.with_name(report.stem + "_files") / f"controlled_{label}_overview.csv"
    with open(path, newline="") as f:
        return {row["metric"]: float(row["value"] or "nan") for row in csv.DictReader(f)}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A run of a never-betting user bot named ``backer`` (a built-in bot's name)
    and one named ``tb``, each against random."""
    root = tmp_path_factory.mktemp("userbot_tables")
    for name in ("backer", "tb"):
        (root / f"{name}.py").write_text(NEVER_BETS.format(name=name))
        assert run(["simulate", "sau-mau-mau", "--games", GAMES, "--bots", f"{root / name}.py,random,random,random",
                    "--threads", 1, "--no-progress", "--out", root / f"run-{name}"]) == 0
    return root


@pytest.mark.parametrize("name", ["backer", "tb"])
def test_the_controlled_table_of_a_user_bot_plays_its_file(runs, tmp_path, name):
    report = tmp_path / "r.html"
    assert run(["report", runs / f"run-{name}", "--report", report]) == 0
    page = report.read_text(encoding="utf-8")
    assert "no controlled tables" not in page and "unknown bot" not in page
    own = overview(report, name)  # the user's bot in every seat: no bet at all
    assert own["games"] == GAMES and own["bet_cards_laid"] == 0 and own["queue_length_mean"] == 0
    assert overview(report, "random")["queue_length_mean"] > 1  # the control: random bets


def test_a_built_in_bot_of_that_name_would_have_bet(runs, tmp_path):
    """The control of the test above: the built-in backer, in every seat, bets."""
    out = tmp_path / "builtin"
    assert run(["simulate", "sau-mau-mau", "--games", GAMES, "--bots", "backer,random,random,random",
                "--threads", 1, "--no-progress", "--out", out]) == 0
    assert run(["report", out, "--report", tmp_path / "b.html"]) == 0
    assert overview(tmp_path / "b.html", "backer")["queue_length_mean"] > 1


@pytest.mark.parametrize("change, why", [
    (lambda bot: bot.write_text(bot.read_text() + "# edited\n"), "changed since the run"),
    (lambda bot: bot.unlink(), "is not there any more"),
])
def test_a_bot_file_changed_or_gone_since_the_run_gets_no_table_and_says_why(runs, tmp_path, change, why):
    import shutil

    shutil.copytree(runs, tmp_path / "copy")
    root = tmp_path / "copy"
    # the copied run names the original's file: point it at the copy's
    manifest = (root / "run-tb" / "manifest.json")
    manifest.write_text(manifest.read_text().replace(str(runs / "tb.py"), str(root / "tb.py")))
    change(root / "tb.py")
    report = tmp_path / "r.html"
    assert run(["report", root / "run-tb", "--report", report]) == 0
    page = report.read_text(encoding="utf-8")
    assert f"no controlled tables: the bot file {root / 'tb.py'} " in page and why in page
    assert not (tmp_path / "r_files" / "controlled_tb_overview.csv").exists()
