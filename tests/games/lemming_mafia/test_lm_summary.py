"""The end-of-run summary agrees with the records it summarises, on the default
board and on a board long enough for races of more than 512 moves."""
import sys
from pathlib import Path

import numpy as np
import pytest

import tests.games.lemming_mafia.lm_support as S  # noqa: E402

from analyzer.engine.botspec import BotSpec  # noqa: E402
from analyzer.games.lemming_mafia import layout as L  # noqa: E402
from analyzer.games.lemming_mafia.match import LemmingMafiaMatch  # noqa: E402


def summarise(match, seed, races, pieces=3):
    """Summary over ``pieces`` chunks, and the records (int64) it was made from."""
    s = match.new_summary()
    rows = []
    bounds = np.linspace(0, races, pieces + 1).astype(int)
    for first, last in zip(bounds[:-1], bounds[1:]):
        c = match.play(seed, int(first), int(last - first))
        s.add(c)
        rows.append(np.asarray(c.view().races, np.int64).copy())
    return s, np.concatenate(rows)


def check_turns(stats, turns):
    assert stats["mean"] == pytest.approx(turns.mean())
    assert stats["sd"] == pytest.approx(turns.std(), rel=1e-6)
    assert stats["min"] == turns.min() and stats["max"] == turns.max()
    assert stats["min"] <= stats["p5"] <= stats["p50"] <= stats["p95"] <= stats["max"]
    assert abs(stats["p50"] - np.median(turns)) <= 1


def test_summary_matches_records_default_board():
    match = LemmingMafiaMatch(None, 4, [BotSpec("random")] * 4)
    s, r = summarise(match, 3, 9000)
    d = s.as_dict()
    assert d["races"] == len(r)
    check_turns(d["turns"], r[:, L.RACE_TURNS])
    n_elim = r[:, L.RACE_N_ELIM]
    assert d["eliminated_mean"] == pytest.approx(n_elim.mean())
    for k in range(6):
        assert d["eliminated_share"][str(k)] == pytest.approx((n_elim == k).mean())
    assert d["finish_share"]["last_standing"] == pytest.approx((n_elim == 5).mean())
    assert sum(d["finish_share"].values()) == pytest.approx(1)
    assert d["shared_win_share"] == pytest.approx((r[:, L.RACE_N_WINNERS] > 1).mean())
    text = s.render()
    assert f"race length: {r[:, L.RACE_TURNS].mean():.1f} moves" in text


LONG_BOARD = [["empty", "empty"]] * 150  # random races last about 790 moves here


def test_ENGINE_BUG_summary_of_races_longer_than_512_moves(tmp_path):
    """ENGINE BUG (analyzer/games/lemming_mafia/summary.py, Summary.add /
    turn_stats): race lengths are kept in a fixed histogram of MAX_TURNS = 512
    bins and ``np.bincount(...)[:MAX_TURNS]`` silently drops every longer race,
    so on a long board the summary's race length (mean, sd, percentiles, max) is
    wrong, and when every race is longer (as here: about 790 moves) turn_stats()
    raises IndexError on ``np.flatnonzero(self.turns)[-1]``. A race can last up
    to 6 * sections + 1 moves, so the histogram has to be sized from the board
    (or grown), not fixed."""
    path = tmp_path / "long.toml"
    path.write_text(S.board_toml(LONG_BOARD, name="long", with_deck=False))
    match = LemmingMafiaMatch(str(path), 4, [BotSpec("random")] * 4)
    s, r = summarise(match, 8, 300)
    turns = r[:, L.RACE_TURNS]
    assert turns.min() > 512  # the premise: every race here is longer than 512 moves
    assert turns.max() <= 6 * len(LONG_BOARD) + 1
    check_turns(s.as_dict()["turns"], turns)


def test_ENGINE_BUG_cli_on_a_long_board(tmp_path, capsys):
    """ENGINE BUG (same as above, seen by a user): ``analyzer simulate`` on a
    board of 150 sections ends in an IndexError traceback from
    Summary.turn_stats() after playing, instead of printing the summary."""
    from analyzer.cli import main
    path = tmp_path / "long.toml"
    path.write_text(S.board_toml(LONG_BOARD, name="long", with_deck=False))
    try:
        main(["simulate", "lemming-mafia", "--board", str(path), "--races", "50", "--no-progress",
              "--threads", "1", "--bots", "random"])
    except SystemExit as e:  # pragma: no cover - only on failure
        pytest.fail(f"exit {e.code}: {capsys.readouterr().err}")
    out = capsys.readouterr().out
    assert "race length:" in out
    length = float(out.split("race length:")[1].split("moves")[0])
    assert length > 512
