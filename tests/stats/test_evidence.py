"""The evidence words (``stats/evidence.py``) on hand-computed cases: shown, ruled
out, and not enough races with the races that would settle it, by one rule
(``decide``) whatever the caller; the same effect across tables, in word and sign."""
import math

import pytest

from analyzer.stats.evidence import (
    DEPENDS, NOT_ENOUGH, RULED_OUT, SHOWN, Scale, across, any_of, decide, points, round_up, verdict, word_text,
)

Z, ZP = 1.959963984540054, 0.8416212335729143


def test_shown_when_the_whole_interval_is_beyond_the_threshold():
    v = verdict(0.02, 0.012, 0.028, 0.01, 5000, what="seat 1")
    assert v.word == SHOWN and v.needed is None and v.side == "+"
    assert v.sentence == "shown: seat 1 +2.0 pp (95% CI +1.2 to +2.8), the whole interval beyond ±1.0 pp"
    assert verdict(-0.02, -0.028, -0.012, 0.01, 5000).side == "-"  # on the negative side too


def test_a_bound_exactly_on_the_threshold_decides_nothing():
    """One rule, strict on both sides: a bound on the threshold neither clears it nor
    stays inside it (the two copies of the rule used to disagree exactly here)."""
    assert decide(0.01, 0.03, 0.01) == NOT_ENOUGH
    assert decide(-0.03, -0.01, 0.01) == NOT_ENOUGH
    assert decide(-0.005, 0.01, 0.01) == NOT_ENOUGH
    assert decide(0.0100001, 0.03, 0.01) == SHOWN and decide(-0.0099999, 0.0099999, 0.01) == RULED_OUT
    assert decide(float("nan"), 0.03, 0.01) == NOT_ENOUGH
    assert verdict(0.02, 0.01, 0.03, 0.01, 5000).word == NOT_ENOUGH


def test_ruled_out_when_the_whole_interval_is_inside():
    v = verdict(0.001, -0.004, 0.006, 0.01, 200_000)
    assert v.word == RULED_OUT and v.side == ""
    assert "inside ±1.0 pp" in v.sentence
    assert verdict(0.0, -0.01, 0.005, 0.01, 10).word == NOT_ENOUGH  # touching -t is not inside


def test_printed_bounds_never_equal_the_threshold():
    """A ruled-out bound at 0.996 pp would print "+1.0" beside "±1.0 pp": it gets digits until
    it does not; so does a shown bound just above the threshold."""
    v = verdict(0.002, -0.004, 0.00996, 0.01, 200_000)
    assert v.word == RULED_OUT and v.number == "+0.200 pp (95% CI -0.400 to +0.996)"
    v = verdict(0.02, 0.01004, 0.03, 0.01, 5000)
    assert v.word == SHOWN and v.number == "+2.000 pp (95% CI +1.004 to +3.000)"
    assert v.bound == "±1.0 pp"


def test_not_enough_towards_ruled_out():
    # e = 0, interval -1.2 to +1.2 pp at 3,000 races, threshold 1 pp: each side (1.2 pp, se 0.612 pp)
    # must clear a gap of 1 pp with a chance of 4 in 5: 3,000 * ((1.2 + 0.8416 * 0.612) / 1)² = 8,827 -> 8,900
    v = verdict(0.0, -0.012, 0.012, 0.01, 3000, what="seat 1")
    assert v.word == NOT_ENOUGH and v.needed == round_up(3000 * ((0.012 + ZP * 0.012 / Z) / 0.01) ** 2) == 8900
    assert v.sentence.endswith("reaches across ±1.0 pp at 3,000 races; about 8,900 races would settle it "
                               "(4 times in 5, if the effect and its spread stay as observed)")


def test_not_enough_towards_shown():
    # e = +2 pp, interval +0.5 to +3.5 pp at 1,000: the lower side (1.5 pp, se 0.765 pp) must clear a gap of
    # 1 pp: 1,000 * ((1.5 + 0.8416 * 0.765) / 1)² = 4,597 -> 4,600
    v = verdict(0.02, 0.005, 0.035, 0.01, 1000)
    assert v.word == NOT_ENOUGH and v.needed == 4600
    v = verdict(-0.02, -0.035, -0.005, 0.01, 1000)  # the mirror image
    assert v.word == NOT_ENOUGH and v.needed == 4600


def test_an_effect_within_one_standard_error_of_the_threshold_gets_no_number():
    """The issue's seat 1 at +1.037 pp against 1.0 pp (interval +0.8 to +1.3 pp): the gap of
    0.037 pp is a fraction of the standard error (0.13 pp), so no run size can be promised: the
    line says the effect may sit on the threshold (it used to promise 9,000,000 races)."""
    v = verdict(0.01037, 0.0078, 0.0128, 0.01, 1_000_000, z=2.498)
    assert v.word == NOT_ENOUGH and v.needed is None and v.on_threshold
    assert v.needed_text == ("the effect may sit on the threshold (the estimate is within one standard error of it): "
                             "more races may not settle it soon")
    assert v.needed_cell == "may sit on the threshold"
    # towards ruled out: +0.2 pp with a side of 1.6 pp (se 0.82 pp) to clear a gap of 0.8 pp
    assert verdict(0.002, -0.014, 0.018, 0.01, 3000).needed is None


def test_from_a_standard_error_and_asymmetric_intervals():
    v = verdict(0.0, None, None, 0.01, 400, se=0.008)  # ±1.57 pp: 400 * ((1.568 + 0.8416 * 0.8) / 1)² = 2,007
    assert v.word == NOT_ENOUGH and v.needed == 2100
    assert math.isclose(v.high, 0.01568, rel_tol=1e-3)
    # a Wilson-like interval, longer above: the upper side decides (the lower one alone would need 52)
    v = verdict(0.0, -0.005, 0.015, 0.01, 100)
    assert v.needed == round_up(100 * ((0.015 + ZP * 0.015 / Z) / 0.01) ** 2)


def test_on_the_threshold_or_without_an_interval_no_number_settles_it():
    v = verdict(0.01, 0.0, 0.02, 0.01, 1000)
    assert v.word == NOT_ENOUGH and v.needed is None
    assert "may not settle it" in v.sentence
    v = verdict(float("nan"), float("nan"), float("nan"), 0.01, 0)
    assert v.word == NOT_ENOUGH and v.needed is None and not v.on_threshold
    assert v.needed_text == "no interval at 0 races: more races are needed to judge it"
    with pytest.raises(ValueError):
        verdict(0.0, -1, 1, 0.0, 10)


def test_the_races_needed_in_a_table_cell():
    """The short form under a structural answer: the same number as the sentence, no sentence."""
    assert verdict(0.0, -0.012, 0.012, 0.01, 3000).needed_cell == "about 8,900 races"
    assert verdict(0.02, 0.012, 0.028, 0.01, 5000).needed_cell == ""  # decided: nothing to settle
    assert verdict(0.01, 0.0, 0.02, 0.01, 1000).needed_cell == "may sit on the threshold"
    assert verdict(float("nan"), float("nan"), float("nan"), 0.01, 0).needed_cell == "no interval yet"
    assert verdict(0.0, -0.012, 0.012, 0.01, 4_000_000_000, unit="games").needed_cell == (
        "more than 10,000,000,000 games")


def test_the_word_takes_the_games_unit():
    assert word_text(NOT_ENOUGH, "games") == "not enough games" and word_text(SHOWN, "games") == "shown"
    assert verdict(0.0, -0.012, 0.012, 0.01, 3000, unit="games").sentence.startswith("not enough games: ")


def test_scales_print_their_unit():
    assert verdict(0.69, 0.63, 0.76, 0.25, 1000, scale=points()).number == "+0.69 points (95% CI +0.63 to +0.76)"
    share = Scale(100.0, 1, "%", signed=False)
    assert verdict(0.985, 0.975, 0.991, 0.10, 1000, scale=share).number == "98.5% (95% CI 97.5 to 99.1)"


def test_round_up():
    assert [round_up(x) for x in (7.2, 100, 101, 2250, 24_310, 1_000_000)] == [8, 100, 110, 2300, 25_000, 1_000_000]


def test_any_of_a_family():
    a = verdict(0.001, -0.004, 0.006, 0.01, 1000, what="red", item="red")
    b = verdict(0.003, -0.002, 0.008, 0.01, 1000, what="blue", item="blue")
    c = verdict(0.02, 0.012, 0.028, 0.01, 1000, what="green", item="green")
    d = verdict(0.0, -0.012, 0.012, 0.01, 1000, what="pink", item="pink")
    assert any_of([a, b], "a colour").word == RULED_OUT
    assert any_of([a, b], "a colour").what == "a colour (largest: blue)"
    shown = any_of([a, c, d], "a colour")
    assert shown.word == SHOWN and shown.item == "green"
    e = any_of([a, d], "a colour")
    assert e.word == NOT_ENOUGH and e.needed == d.needed and e.item == "pink"


def test_across_the_bots_in_word_and_sign():
    up = verdict(0.02, 0.012, 0.028, 0.01, 3000)
    down = verdict(-0.02, -0.028, -0.012, 0.01, 3000)
    out = verdict(0.0, -0.005, 0.005, 0.01, 3000)
    open_ = verdict(0.0, -0.012, 0.012, 0.01, 3000)
    ac = across({"a": up, "b": up})
    assert ac.word == SHOWN and ac.holds and not ac.partial
    assert across({"a": up, "b": out}).word == DEPENDS
    # the same word with opposite signs decides it differently: the starter helped with one bot, hurt with another
    ac = across({"a": up, "b": down})
    assert ac.word == DEPENDS and list(ac.groups) == [(SHOWN, "+"), (SHOWN, "-")]
    # unless the question's answer is the same either way ("unbalanced")
    assert across({"a": up, "b": down}, signed=False).word == SHOWN
    # an open table does not decide: the others' word stands, partial, the open table named
    ac = across({"a": out, "b": open_})
    assert ac.word == RULED_OUT and ac.partial and list(ac.open) == ["b"]
    assert across({"a": open_, "b": open_}).word == NOT_ENOUGH
