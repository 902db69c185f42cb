"""``analyzer replay`` plays exactly item I of the run ``simulate`` plays with the
same options: its table rows are the rows ``simulate --out`` wrote for I, for
every game and several tables of bots; the text walks through the item and the
timeline page is written."""
from pathlib import Path

import pandas as pd
import pytest

from analyzer.engine.botspec import parse_bot_list, seat_bots
from analyzer.games import game_info
from tests.cli_support import run

ROOT = Path(__file__).resolve().parents[2]
CASES = [  # game, bots, index (runs of index + 40 items)
    ("lemming-mafia", "random", 123),
    ("lemming-mafia", "favourite,timer,contractor,random", 77),
    ("sau-mau-mau", "random", 31),
    ("sau-mau-mau", "backer,tempo,switcher,random", 18),
    ("lemminge", "random", 25),
    ("lemminge", "racer,convoy,blocker,random", 9),
    ("mafia", "random", 40),
    # a user bot's kernel variant replays too (its single-game player, not the built-in one)
    ("sau-mau-mau", f"{ROOT}/sims/bots/sau-mau-mau-greedy.py,random,random,random", 4),
]


@pytest.mark.parametrize("game,bots,index", CASES, ids=[f"{g}-{Path(b.split(',')[0]).stem}" for g, b, _ in CASES])
def test_replay_ends_with_the_rows_simulate_writes(tmp_path, capsys, game, bots, index):
    info = game_info(game)
    out = tmp_path / "run"
    assert run(["simulate", game, "--bots", bots, "--races", index + 40, "--seed", 7, "--out", out,
                "--threads", 2, "--no-progress"]) == 0
    capsys.readouterr()
    players = info.default_players
    match = info.load("match")(None, players, seat_bots(parse_bot_list(bots), players))
    replayed = match.replay(7, index)
    id_column = "race" if info.unit == "races" else "game"
    assert replayed.steps, "a replay walks through the item"
    for name, rows in replayed.tables.items():
        written = pd.read_parquet(out / f"{name}.parquet")
        if id_column not in written.columns:
            continue  # tables summed over the run (e.g. fields)
        expected = written[written[id_column] == index].reset_index(drop=True)
        pd.testing.assert_frame_equal(rows.reset_index(drop=True), expected, check_categorical=False,
                                      obj=f"{game} {name}")
    html = tmp_path / "replay.html"
    assert run(["replay", game, "--bots", bots, "--seed", 7, "--race", index, "--html", html]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"{game}: {info.unit[:-1]} {index} of seed 7")
    assert "ASSUMED" in text
    page = html.read_text()
    # the end says who wins and why, in the text and first on the page
    assert " because " in replayed.outcome and replayed.outcome in text
    assert page.index("id=outcome") < page.index("<ol class=timeline>")
    # every step is on the page once: a line, or the summary line of the section it opens
    assert "<ol class=timeline>" in page and page.count("<li style=") + page.count("<summary style=") == len(replayed.steps)


@pytest.mark.parametrize("kind", ["fifo", "symlink"])
def test_replay_html_refuses_what_is_not_a_file(tmp_path, capsys, kind):
    """``--html`` onto a FIFO or a link is refused in one line and leaves it as it was
    (written by rename, it would have become a regular file)."""
    import os

    from tests.cli_support import assert_usage_error

    target = tmp_path / "page.html"
    if kind == "fifo":
        os.mkfifo(target)
    else:
        (tmp_path / "elsewhere.html").write_text("the user's", encoding="utf-8")
        target.symlink_to(tmp_path / "elsewhere.html")
    assert_usage_error(capsys, ["replay", "sau-mau-mau", "--seed", 3, "--html", target],
                       "cannot write the timeline to", "it exists and is not a file")
    if kind == "fifo":
        assert target.is_fifo()
    else:
        assert target.is_symlink() and (tmp_path / "elsewhere.html").read_text(encoding="utf-8") == "the user's"
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_points_game_names_its_winner_and_a_tie_break():
    """``points_outcome``: the winner with its total and what it is made of, the next
    seat; a tie on points decided by the tie-break says so; tied winners share."""
    from analyzer.report.replay import points_outcome

    rows = pd.DataFrame({"seat": [1, 2, 3], "bot": ["a", "b", "c"], "score": [9, 9, 4],
                         "won": [True, False, False], "extra": [5, 3, 1]})
    text = points_outcome(rows, "score", lambda w: f"contracts {w['extra']}", "at the end", "contract points")
    assert text == ("seat 1 (a) wins because it has as many points as any seat at the end, 9 (contracts 5); "
                    "next: seat 2 (b) with 9, tied on points and behind on contract points.")
    rows["won"] = [True, True, False]
    text = points_outcome(rows, "score", lambda w: "x", "at the end")
    assert text == "seat 1 (a) and seat 2 (b) share the win because they have the most points at the end, 9 (x); " \
                   "next: seat 3 (c) with 4."
    assert points_outcome(rows.assign(won=False), "score", lambda w: "x", "at the end") == ""
