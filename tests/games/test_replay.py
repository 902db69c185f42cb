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
    # every step is on the page once: a line, or the summary line of the section it opens
    assert "<ol class=timeline>" in page and page.count("<li style=") + page.count("<summary") == len(replayed.steps)


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
