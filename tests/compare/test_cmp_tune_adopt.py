"""tune adopts a candidate only when its last, fresh re-measure shows it better than
the start beyond chance (and beyond --min-gain); otherwise it keeps the start and
says so in one line. On a synthetic game (no kernels): a bot "knob" whose seat wins
a race when a uniform draw falls below 0.25 + effect * x, x its parameter."""
import math

import numpy as np
import pytest

from analyzer.engine.botspec import BotSpec
from analyzer.engine.tune import decision, render, search_space, toml_text, tune

PLAYERS = 4


def _uniform(seed: int, idx: np.ndarray, seat: int, key: int) -> np.ndarray:
    """A counter-based uniform per (seed, race, seat, key): splitmix64 of the race index."""
    with np.errstate(over="ignore"):
        z = idx.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        z += np.uint64((seed * 1_000_003 + seat * 7919 + key * 104_729) % (1 << 63))
        z ^= z >> np.uint64(30)
        z *= np.uint64(0xBF58476D1CE4E5B9)
        z ^= z >> np.uint64(27)
        z *= np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
    return (z >> np.uint64(11)).astype(np.float64) / float(1 << 53)


class KnobMatch:
    """``effect``: how much x raises the knob's win chance. ``own_stream``: each x
    draws from its own stream (no common random numbers: values that play alike
    in distribution but not race by race, the null the issue describes)."""
    unit = "races"

    def __init__(self, table, effect: float, own_stream: bool):
        self.table, self.effect, self.own_stream = table, effect, own_stream

    def warm_up(self, detail=True):
        pass

    def reserve(self, count):
        pass

    def release(self, chunks):
        pass

    def play(self, seed, first, count, detail=True):
        return seed, np.arange(first, first + count, dtype=np.uint64)

    def outcomes(self, chunk):
        seed, idx = chunk
        won = np.zeros((len(idx), PLAYERS), dtype=np.int8)
        for seat, spec in enumerate(self.table):
            x = dict(spec.params).get("x", 0.0) if spec.name == "knob" else 0.0
            key = 1 + round(x * 10_000) if (self.own_stream and spec.name == "knob") else 0
            won[:, seat] = _uniform(seed, idx, seat, key) < 0.25 + self.effect * x
        return won, 3.0 * won


def _tune(effect, own_stream, seed, start_x, budget=8_000, min_gain=0.0):
    start = BotSpec("knob", (("x", start_x),))
    space = search_space({"x": 0.5}, {"x": start_x}, {"x": (0.0, 1.0)})
    return tune(lambda table: KnobMatch(table, effect, own_stream), "knob", start, {"x": start_x}, space,
                [BotSpec("other")], PLAYERS, budget, seed, threads=1, min_gain=min_gain)


def test_null_tune_keeps_the_start():
    """Every x plays alike in distribution: the search still finds a 'best' x on
    the noise of its races, but the fresh re-measure's interval spans 0, so the
    start is kept. One side of a 95% interval: about 2.5% of seeds adopt; the
    issue asks for the start kept in at least 95% of a fixed set of seeds."""
    seeds = range(1, 41)
    results = [_tune(0.0, True, seed, 0.5) for seed in seeds]
    kept = [r for r in results if not r.adopted]
    assert len(kept) >= 0.95 * len(results), [decision(r) for r in results if r.adopted]
    # the search does pick non-start candidates on noise; they are measured and refused
    refused = [r for r in kept if r.candidate != r.start]
    assert len(refused) >= len(results) // 2
    for r in kept:
        assert r.winner == r.start and r.winner_params == {"x": 0.5}
    r = refused[0]
    lo, hi = r.measured.interval()
    assert lo <= 0
    line = decision(r)
    assert line.startswith("kept the start: the candidate re-measured ") and "\n" not in line
    assert f"on {r.remeasure.races_per_arm:,} fresh races per arm" in line
    assert f"({lo * 100:+.2f} pp to {hi * 100:+.2f} pp, 95% paired)" in line
    assert "not shown beyond chance" in line
    text = render(r)
    assert line in text and "result: knob:x=0.5" in text
    toml = toml_text(r, "kept")
    assert "x = 0.5" in toml and "kept by tune" in toml


def test_a_clear_gain_is_adopted():
    """x = 1 wins 20 pp more often than x = 0 (on common races): adopted."""
    r = _tune(0.2, False, 3, 0.0)
    assert r.adopted and r.winner == r.candidate != r.start
    assert r.winner_params["x"] > 0.5
    lo, _ = r.measured.interval()
    assert lo > 0
    line = decision(r)
    assert line.startswith("adopted the candidate: the candidate re-measured +") and "above 0 beyond chance" in line
    assert f"result: {r.winner.label}" in render(r)
    assert "re-measured" in toml_text(r, "tuned") and "kept" not in toml_text(r, "tuned")


def test_min_gain_is_the_bar():
    """The same clear gain (a fresh interval well above 0) is kept when --min-gain
    asks for more than the whole range of x can give (30 pp against at most 20)."""
    r = _tune(0.2, False, 3, 0.0, min_gain=0.30)
    assert not r.adopted and r.winner == r.start and r.candidate != r.start
    assert r.measured.interval()[0] > 0  # beyond chance, not beyond the threshold
    assert "the --min-gain of 30.00 pp" in decision(r) and decision(r).startswith("kept the start")
    with pytest.raises(Exception, match="--min-gain"):
        _tune(0.2, False, 3, 0.0, min_gain=-0.01)
    assert math.isfinite(r.measured.diff)
