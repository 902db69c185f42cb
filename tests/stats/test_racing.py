"""Racing toward target bands (stats/racing.py) on a synthetic space whose
answer is known in closed form: one key does nothing, another moves the measure
by a known step. The race keeps exactly the variants inside the band, never
tells the no-op key's values apart, and spends no more than its budget."""
import math

import numpy as np
import pytest

from analyzer.stats.racing import (
    MET, MISSED, OPEN, Band, Measure, Standing, combine, pareto, pareto_ranks, race, surely_beaten,
)

NOOP = (0, 1, 2)  # a rule key that changes nothing
STEP = tuple(range(10))  # a rule key whose effect is known: value = 0.03 - 0.01 * step
SPACE = [(noop, step) for noop in NOOP for step in STEP]
SD = 0.25  # the per-game spread of the measure


def closed_form(step: int) -> float:
    return 0.03 - 0.01 * step


def length_form(step: int) -> float:
    return 20.0 + 2.0 * step  # a second target: a length that grows with the step


class Synthetic:
    """Per game j the same noise for every candidate (common random numbers)."""

    def __init__(self, seed: int = 5, most: int = 1 << 18):
        rng = np.random.default_rng(seed)
        self.noise = rng.normal(0.0, SD, most)
        self.length_noise = rng.normal(0.0, 4.0, most)
        self.sums: dict[int, list[float]] = {}
        self.played = 0

    def measure(self, i: int, first: int, count: int) -> Standing:
        noop, step = SPACE[i]
        x = closed_form(step) + self.noise[first:first + count]
        y = length_form(step) + self.length_noise[first:first + count]
        s = self.sums.setdefault(i, [0, 0.0, 0.0, 0.0, 0.0])
        s[0] += count
        s[1] += x.sum()
        s[2] += (x * x).sum()
        s[3] += y.sum()
        s[4] += (y * y).sum()
        self.played += count
        n = s[0]
        parts = {}
        for key, total, squares in (("edge", s[1], s[2]), ("length", s[3], s[4])):
            mean = total / n
            se = math.sqrt(max(squares / n - mean * mean, 0.0) / n)
            parts[key] = [Measure(mean, mean - 1.96 * se, mean + 1.96 * se, n)]
        return Standing(parts, n)


def test_a_band_reads_the_one_verdict_rule():
    within = Band.within("edge", 0.01)
    assert within.word(-0.005, 0.005) == MET
    assert within.word(0.011, 0.02) == MISSED and within.word(-0.03, -0.011) == MISSED
    assert within.word(0.0, 0.01) == OPEN  # a bound on the threshold decides nothing
    assert within.violation(0.02) == pytest.approx(1.0) and within.violation(0.005) == 0.0
    assert within.violation_bounds(0.005, 0.02) == (0.0, pytest.approx(1.0))
    least = Band.at_least("skill", 0.03)
    assert least.word(0.031, 0.05) == MET and least.word(0.0, 0.029) == MISSED and least.word(0.02, 0.04) == OPEN
    assert least.violation(0.0) == pytest.approx(1.0)
    between = Band.between("length", 25, 35)
    assert between.word(26, 34) == MET and between.word(36, 40) == MISSED and between.word(30, 36) == OPEN
    assert between.violation(40) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        Band.between("length", 35, 25)


def test_a_target_holding_at_every_count_is_met_only_when_every_count_meets_it():
    band = Band.within("edge", 0.01)
    met, missed, open_ = Measure(0.0, -0.005, 0.005), Measure(0.03, 0.02, 0.04), Measure(0.0, -0.02, 0.02)
    assert combine(band, [met, met])[1] == MET
    assert combine(band, [met, open_])[1] == OPEN
    assert combine(band, [met, missed, open_]) == (missed, MISSED)


def test_pareto_sets_and_ranks():
    points = [np.array(p, float) for p in ([0, 1], [1, 0], [1, 1], [0.5, 0.5], [2, 2])]
    assert pareto(points) == [0, 1, 3]
    assert pareto_ranks(points) == [0, 0, 1, 0, 2]
    best = [np.array([0.0, 0.0]), np.array([1.0, 1.0])]
    worst = [np.array([0.5, 0.5]), np.array([2.0, 2.0])]
    assert surely_beaten(best, worst) == [False, True]


def test_the_race_finds_the_variants_in_the_band_and_never_tells_the_no_op_key_apart():
    bands = [Band.within("edge", 0.005), Band.between("length", 24, 28)]  # only step 3 meets both
    synthetic = Synthetic()
    rounds = []
    result = race(len(SPACE), synthetic.measure, bands, budget=400_000, first_games=500, keep=3,
                  on_round=rounds.append)
    assert sorted(SPACE[i] for i in result.front) == [(noop, 3) for noop in NOOP]
    # the no-op key's variants played the same games: the same numbers to the last digit
    assert len({repr(result.standings[i].parts) for i in result.front}) == 1
    for i in result.front:
        assert [combine(b, result.standings[i].parts[b.key])[1] for b in bands] == [MET, MET]
    assert result.games == synthetic.played <= 400_000
    assert rounds[0]["measured"] == len(SPACE) and rounds[0]["games_each"] >= 500
    assert all(a["games_each"] < b["games_each"] for a, b in zip(rounds, rounds[1:]))
    assert rounds[-1]["left"] <= 3


def test_weights_order_the_front_without_changing_it():
    bands = [Band.within("edge", 0.005), Band.between("length", 20, 22)]  # step 0-1 for length, 3 for edge
    plain = race(len(SPACE), Synthetic().measure, bands, budget=300_000, first_games=500, keep=30)
    weighted = race(len(SPACE), Synthetic().measure, bands, budget=300_000, first_games=500, keep=30,
                    weights={"length": 10.0, "edge": 1.0})
    assert set(plain.front) == set(weighted.front)
    assert SPACE[weighted.survivors[0]][1] in (0, 1)  # the length target weighs ten times


def test_a_budget_too_small_for_every_candidate_measures_as_many_as_fit():
    synthetic = Synthetic()
    result = race(len(SPACE), synthetic.measure, [Band.within("edge", 0.005)], budget=10_000, first_games=500)
    assert len(result.standings) == result.rounds[0]["measured"] == 6  # a third of the budget, 500 games each
    assert result.games == synthetic.played <= 10_000
