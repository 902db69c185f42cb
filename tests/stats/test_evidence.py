"""The evidence words (``stats/evidence.py``) on hand-computed cases: shown,
ruled out, and not enough races with the races that would settle it."""
import math

import pytest

from analyzer.stats.evidence import (
    NOT_ENOUGH, RULED_OUT, SHOWN, across, any_of, round_up, verdict,
)


def test_shown_when_the_whole_interval_is_beyond_the_threshold():
    v = verdict(0.02, 0.012, 0.028, 0.01, 5000, what="seat 1")
    assert v.word == SHOWN and v.needed is None
    assert v.sentence == "shown: seat 1 +2.0 pp (95% CI +1.2 to +2.8), the whole interval beyond ±1.0 pp"
    assert verdict(-0.02, -0.028, -0.012, 0.01, 5000).word == SHOWN  # on the negative side too
    assert verdict(0.02, 0.01, 0.03, 0.01, 5000).word == SHOWN  # a bound on the threshold counts


def test_ruled_out_when_the_whole_interval_is_inside():
    v = verdict(0.001, -0.004, 0.006, 0.01, 200_000)
    assert v.word == RULED_OUT
    assert "inside ±1.0 pp" in v.sentence
    assert verdict(0.0, -0.01, 0.005, 0.01, 10).word == NOT_ENOUGH  # touching -t is not inside


def test_not_enough_towards_ruled_out():
    # e = +0.2 pp, interval -1.4 to +1.8 pp at 3,000 races, threshold 1 pp:
    # the upper side (1.6 pp) must shrink to 0.8 pp: 3,000 * (1.6/0.8)^2 = 12,000;
    # the lower side (1.6 pp) to 1.2 pp: 3,000 * (1.6/1.2)^2 = 5,333; the larger decides
    v = verdict(0.002, -0.014, 0.018, 0.01, 3000, what="seat 1")
    assert v.word == NOT_ENOUGH and v.needed == 12_000
    assert v.sentence.endswith("reaches across ±1.0 pp at 3,000 races; about 12,000 races would settle it "
                               "if the spread stays as observed")


def test_not_enough_towards_shown():
    # e = +2 pp, interval +0.5 to +3.5 pp at 1,000: the lower side (1.5 pp) must shrink to
    # 1 pp: 1,000 * 1.5^2 = 2,250, rounded up to two figures
    v = verdict(0.02, 0.005, 0.035, 0.01, 1000)
    assert v.word == NOT_ENOUGH and v.needed == 2300
    v = verdict(-0.02, -0.035, -0.005, 0.01, 1000)  # the mirror image
    assert v.word == NOT_ENOUGH and v.needed == 2300


def test_from_a_standard_error_and_asymmetric_intervals():
    v = verdict(0.0, None, None, 0.01, 400, se=0.01)  # ±1.96 pp: 400 * 1.96^2 = 1,536.6
    assert v.word == NOT_ENOUGH and v.needed == 1600
    assert math.isclose(v.high, 0.0196, rel_tol=1e-3)
    # a Wilson-like interval, longer above: the upper side decides
    v = verdict(0.0, -0.005, 0.02, 0.01, 100)
    assert v.needed == 400


def test_on_the_threshold_or_without_an_interval_no_number_settles_it():
    v = verdict(0.01, 0.0, 0.02, 0.01, 1000)
    assert v.word == NOT_ENOUGH and v.needed is None
    assert "will not settle it" in v.sentence
    v = verdict(float("nan"), float("nan"), float("nan"), 0.01, 0)
    assert v.word == NOT_ENOUGH and v.needed is None
    assert v.needed_text == "no interval at 0 races: more races are needed to judge it"
    with pytest.raises(ValueError):
        verdict(0.0, -1, 1, 0.0, 10)


def test_the_races_needed_in_a_table_cell():
    """The short form under a structural answer: the same number as the sentence, no sentence."""
    assert verdict(0.002, -0.014, 0.018, 0.01, 3000).needed_cell == "about 12,000 races"
    assert verdict(0.02, 0.012, 0.028, 0.01, 5000).needed_cell == ""  # decided: nothing to settle
    assert verdict(0.01, 0.0, 0.02, 0.01, 1000).needed_cell == "none: the estimate sits on the threshold"
    assert verdict(float("nan"), float("nan"), float("nan"), 0.01, 0).needed_cell == "no interval yet"
    assert verdict(0.0, -0.5, 0.5, 1e-5, 10, unit="games").needed_cell == "more than 10,000,000,000 games"


def test_round_up():
    assert [round_up(x) for x in (7.2, 100, 101, 2250, 24_310, 1_000_000)] == [8, 100, 110, 2300, 25_000, 1_000_000]


def test_any_of_a_family():
    a = verdict(0.001, -0.004, 0.006, 0.01, 1000, what="red")
    b = verdict(0.003, -0.002, 0.008, 0.01, 1000, what="blue")
    c = verdict(0.02, 0.012, 0.028, 0.01, 1000, what="green")
    d = verdict(0.002, -0.014, 0.018, 0.01, 1000, what="pink")
    assert any_of([a, b], "a colour").word == RULED_OUT
    assert any_of([a, b], "a colour").what == "a colour (largest: blue)"
    assert any_of([a, c, d], "a colour").word == SHOWN
    e = any_of([a, d], "a colour")
    assert e.word == NOT_ENOUGH and e.needed == d.needed and "pink" in e.what


def test_across_the_bots():
    shown = verdict(0.02, 0.012, 0.028, 0.01, 3000)
    out = verdict(0.0, -0.005, 0.005, 0.01, 3000)
    open_ = verdict(0.002, -0.014, 0.018, 0.01, 3000)
    assert across({"a": shown, "b": shown}) == ("shown", "it holds across these bots")
    assert across({"a": shown, "b": out}) == ("depends", "the bots decide it differently: shown with a, ruled out "
                                                         "with b")
    key, text = across({"a": out, "b": open_})
    assert key == "open"
    assert text == ("not settled at 3,000 races a table: b does not decide it; about 12,000 races per table would "
                    "settle it if the spread stays as observed")
