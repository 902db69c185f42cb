"""Tuning: the search space, and a search that climbs out of a deliberately bad
start and says so on fresh races."""
import math
from pathlib import Path

import numpy as np
import pytest

from analyzer.engine.botspec import parse_bot_list
from analyzer.engine.tune import (FRESH_OFFSET, Param, _Shifted, default_range, parse_ranges, plan, render,
                                  search_space, toml_text, tune)
from analyzer.errors import AnalyzerError
from analyzer.games.lemming_mafia.match import LemmingMafiaMatch
from analyzer.games.lemming_mafia.registry import BUILTIN, read_bot_toml
from tests.cli_support import run


MY_BOT = Path(__file__).resolve().parents[2] / "sims" / "my_bot.py"




def test_ranges_and_space():
    assert default_range(2.0) == (0.5, 6.0) and default_range(0.0) == (0.0, 2.0)
    assert default_range(-1.0) == (-3.0, -0.25)
    assert parse_ranges("late_bets=0:6, urgency") == {"late_bets": (0.0, 6.0), "urgency": None}
    for bad in ("late_bets=6:0", "late_bets=a:b", "=1:2", "x=1:2,x=1:3", "late_bets=1"):
        with pytest.raises(AnalyzerError):
            parse_ranges(bad)
    defaults = BUILTIN["timer"].defaults()
    space = search_space(defaults, {**defaults, "urgency": 20.0}, None)
    assert [p.name for p in space] == list(defaults)
    urgency = next(p for p in space if p.name == "urgency")
    assert (urgency.lo, urgency.hi) == (0.75, 20.0) and urgency.log  # widened to hold the start
    with pytest.raises(AnalyzerError, match="no parameter 'push'"):
        search_space(defaults, defaults, {"push": None})


@pytest.mark.parametrize("p", [Param("a", 0.5, 8.0, 1.0), Param("b", -3.0, 3.0, 0.0)])
def test_unit_maps_round_trip(p):
    for x in (p.lo, p.start, p.hi):
        assert p.from_unit(p.to_unit(x)) == pytest.approx(x, rel=1e-3)
    assert p.from_unit(-1) == p.lo and p.from_unit(2) == p.hi


def test_plan_fits_the_budget():
    k, gens, per, remeasure = plan(200_000, 4, 6)
    assert k * gens * per + 2 * remeasure <= 200_000 and per % 4 == 0 and gens >= 2
    with pytest.raises(AnalyzerError, match="too small"):
        plan(2_000, 4, 6)


@pytest.fixture(scope="module")
def make_match():
    def make(table):
        return LemmingMafiaMatch(None, len(table), table)
    make(parse_bot_list("random") * 4).warm_up()
    return make


@pytest.fixture(scope="module")
def tuned(make_match):
    """timer with bet_stake=-3 steers the race against its own bets: about 10 pp
    worse than the default against random players."""
    (start,) = parse_bot_list("timer:bet_stake=-3")
    defaults = BUILTIN["timer"].defaults()
    values = {**defaults, "bet_stake": -3.0}
    space = search_space(defaults, values, parse_ranges("bet_stake=-3:3"))
    return tune(make_match, "timer", start, values, space, parse_bot_list("random"), 4, 24_000, 1, threads=2)


def test_tune_improves_a_bad_start(tuned):
    r = tuned
    assert r.winner_params["bet_stake"] > -1.5
    fresh = r.remeasure
    assert fresh.races_per_arm == 1_500  # half the re-measure budget (24,000 / 8); the shortlist had the rest
    assert 1 <= len(r.shortlist) <= 4 and r.shortlist_races <= 3_000
    assert all(w.n == r.shortlist[0][2].n for _, _, w, _ in r.shortlist)
    lo, hi = fresh.win.interval()
    assert lo > 0, (fresh.win.diff, lo, hi)  # better on races the search never played
    assert fresh.score.interval()[0] > 0
    assert r.in_search.best_win.n == r.in_search.races
    assert r.search_races + r.shortlist_races + 2 * fresh.races_per_arm <= r.budget
    assert r.adopted and r.winner == r.candidate != r.start  # beyond chance: the tuned bot replaces the start
    text = render(r)
    assert "in search" in text and "re-measured" in text and "timer:bet_stake=" in text
    assert f"adopted the candidate: the candidate re-measured {fresh.win.diff * 100:+.2f} pp win rate" in text


def test_fresh_races_are_new(make_match, tuned):
    """The re-measure plays race indices from FRESH_OFFSET on, never the search's."""
    assert sum(g.races for g in tuned.generations) < FRESH_OFFSET
    match = make_match(parse_bot_list("timer,random,random,random"))
    shifted = _Shifted(match, FRESH_OFFSET)
    a, b, c = shifted.play(1, 5, 50), match.play(1, FRESH_OFFSET + 5, 50), match.play(1, 5, 50)
    assert (a.players[:50] == b.players[:50]).all() and not (a.players[:50] == c.players[:50]).all()


def test_toml_round_trip(tuned, tmp_path, make_match):
    path = tmp_path / "tuned-timer.toml"
    path.write_text(toml_text(tuned, "tuned-timer"))
    bot = read_bot_toml(str(path))
    assert bot.family == "timer" and bot.name == "tuned-timer"
    assert bot.params["bet_stake"] == tuned.winner_params["bet_stake"]
    match = make_match(parse_bot_list(f"{path},random,random,random"))
    assert match.describe()["bots"][0]["params"]["bet_stake"] == tuned.winner_params["bet_stake"]
    assert match.describe()["bots"][0]["family"] == "tuned-timer"


def test_cli(tmp_path, capsys):
    out = tmp_path / "bots" / "t.toml"
    code = run(["tune", "lemming-mafia", "--bot", "timer:bet_stake=-3", "--against", "random",
                "--params", "bet_stake=-3:3", "--budget", 24_000, "--threads", 2, "--out", out])
    text, err = capsys.readouterr()
    assert code == 0, err
    assert "re-measured" in text and out.is_file()
    assert "adopted the candidate" in text and f"tuned bot: {out}" in text
    assert math.isfinite(read_bot_toml(str(out)).params["bet_stake"])
    # and tune a tuned bot again: a .toml start
    code = run(["tune", "lemming-mafia", "--bot", out, "--params", "urgency", "--budget", 8_000, "--threads", 2,
                "--players", 3])
    text, err = capsys.readouterr()
    assert code == 0, err
    assert "urgency in [0.75, 9]" in text


@pytest.mark.parametrize("argv, needle", [
    (["--bot", "random"], "no parameters to tune"),
    (["--bot", MY_BOT, "--out", "x.toml"], "a user bot's tuned parameters are printed"),
    (["--bot", "timer", "--params", "push"], "no parameter 'push'"),
    (["--bot", "timer", "--out", "x.txt"], "--out must name a .toml file"),
    (["--bot", "timer", "--against", "random,random"], "--against gives 2 bots"),
    (["--bot", "timer", "--budget", 1000], "too small"),
    (["--bot", "timer", "--min-gain", -1], "--min-gain must be 0 or more"),
])
def test_cli_errors(capsys, argv, needle):
    code = run(["tune", "lemming-mafia", "--threads", 1, *argv])
    _, err = capsys.readouterr()
    assert code == 2, err
    assert err.count("\n") == 1 and needle in err, err


def test_step_parameters_take_whole_numbers():
    """late_bets is compared with a count of cards: the space rounds it everywhere,
    the family declares it, and the TOML file writes an integer."""
    assert "late_bets" in BUILTIN["timer"].integer and "urgency" not in BUILTIN["timer"].integer
    defaults = BUILTIN["timer"].defaults()
    (p,) = search_space(defaults, defaults, parse_ranges("late_bets=0:6"), BUILTIN["timer"].integer)
    assert p.integer and "whole numbers" in p.describe()
    values = {p.from_unit(u) for u in np.linspace(0, 1, 101)}
    assert values == {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0}
    (q,) = search_space(defaults, defaults, parse_ranges("urgency=1:5"), BUILTIN["timer"].integer)
    assert not q.integer and q.from_unit(0.3) == 1.621  # 5 ** 0.3 on the log scale, not rounded
    with pytest.raises(AnalyzerError, match="whole numbers"):
        search_space(defaults, {**defaults, "late_bets": 0.2}, parse_ranges("late_bets=0.2:0.8"),
                     BUILTIN["timer"].integer)
