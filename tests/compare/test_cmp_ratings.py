"""Ratings on synthetic Plackett–Luce races (numpy only, no game): the fit
recovers known strengths, their spacing and the seat multipliers, and its
intervals cover the truth about as often as they claim."""
import numpy as np
import pytest

from analyzer.stats.ratings import ELO, PairCounts, fit_races

STRENGTH = np.linspace(-0.9, 0.9, 8)  # log strengths, mean 0: 0.26 apart = 45 Elo
SEAT = np.array([0.25, 0.05, -0.05, -0.25])  # log seat multipliers, mean 0


def pl_races(rng, n, strength, seat, bots=None):
    """``n`` races: random tables of len(seat) distinct bots; finishing order by
    Plackett–Luce with weights γ_bot·θ_seat (Gumbel-max trick); score = places beaten."""
    players = len(seat)
    if bots is None:
        bots = np.argsort(rng.random((n, len(strength))), axis=1)[:, :players]
    noisy = strength[bots] + seat + rng.gumbel(size=bots.shape)
    return bots, np.argsort(np.argsort(noisy, axis=1), axis=1)


def covered(fit_, truth_bots, truth_seats):
    half = 1.959963984540054 * fit_.se
    est = np.concatenate([fit_.strength, fit_.seat])
    truth = np.concatenate([truth_bots, truth_seats])
    return np.abs(est - truth) <= half


@pytest.fixture(scope="module")
def one_fit():
    rng = np.random.default_rng(11)
    bots, scores = pl_races(rng, 20_000, STRENGTH, SEAT)
    return fit_races(bots, scores, len(STRENGTH))


def test_recovers_order_and_spacing(one_fit):
    f, _ = one_fit
    assert f.converged
    assert list(np.argsort(f.strength)) == list(range(len(STRENGTH)))  # the true order
    inside = covered(f, STRENGTH, SEAT)[:len(STRENGTH)]
    assert inside.sum() >= 6, (f.strength, f.se)
    # spacing: neighbours 0.257 apart in log strength, each gap within 4 of its standard errors
    gaps = np.diff(f.strength)
    gap_se = np.sqrt(f.se[:-len(SEAT) - 1] ** 2 + f.se[1:len(STRENGTH)] ** 2)
    assert np.all(np.abs(gaps - np.diff(STRENGTH)) < 4 * gap_se)
    lo, hi = f.elo_interval
    assert np.all(lo < f.elo) and np.all(f.elo < hi)
    assert f.elo.mean() == pytest.approx(0, abs=1e-9)
    assert f.elo[-1] - f.elo[0] == pytest.approx(ELO * 1.8, rel=0.05)


def test_recovers_seat_advantage(one_fit):
    f, _ = one_fit
    assert list(np.argsort(-f.seat)) == [0, 1, 2, 3]
    z = (f.seat - SEAT) / f.se[len(STRENGTH):]
    assert np.all(np.abs(z) < 3) and np.sum(np.abs(z) < 1.96) >= 2, z  # sum-to-0: errors come in pairs
    low, high = f.seat_interval
    assert low[0] > 1 > high[3]  # seat 1 clearly above average, seat 4 clearly below
    assert f.seat_multiplier[0] == pytest.approx(np.exp(0.25), rel=0.05)


def test_seat_advantage_alone():
    """Equal bots, only the seats differ: the bots come out level, the seats do not."""
    rng = np.random.default_rng(5)
    bots, scores = pl_races(rng, 8_000, np.zeros(5), SEAT)
    f, _ = fit_races(bots, scores, 5)
    lo, hi = f.elo_interval
    assert np.sum((lo <= 0) & (0 <= hi)) >= 4
    assert covered(f, np.zeros(5), SEAT)[5:].sum() >= 3
    assert list(np.argsort(-f.seat)) == [0, 1, 2, 3]


def test_intervals_cover_at_about_95_percent():
    """Over replicate data sets the sandwich intervals cover the truth near their
    nominal rate; intervals from the pairwise information alone would be too narrow."""
    hits, n_model = [], []
    for rep in range(20):
        rng = np.random.default_rng(100 + rep)
        bots, scores = pl_races(rng, 2_500, STRENGTH, SEAT)
        f, _ = fit_races(bots, scores, len(STRENGTH))
        hits.append(covered(f, STRENGTH, SEAT))
        n_model.append(np.sqrt(np.diag(f.cov_model)) < f.se)
    rate = np.mean(hits)
    se = np.sqrt(0.95 * 0.05 / np.size(hits))
    assert rate > 0.95 - 4 * se - 0.02, rate  # ~0.89 at the least
    assert np.mean(n_model) > 0.9  # the pairs of a race are correlated: sandwich is wider


def test_repeated_bots_at_a_table():
    """Two bots, four seats: tables a,b,a,b in every rotation still rate both."""
    rng = np.random.default_rng(9)
    strength = np.array([-0.3, 0.3])
    table = np.array([[0, 1, 0, 1], [1, 0, 1, 0]])
    bots = table[rng.integers(0, 2, 6_000)]
    bots, scores = pl_races(rng, 6_000, strength, SEAT, bots)
    f, counts = fit_races(bots, scores, 2)
    lo, hi = f.elo_interval
    assert lo[1] <= ELO * 0.3 <= hi[1] and f.elo[1] > 0
    share, games = counts.win_matrix()
    assert np.isnan(share[0, 0]) and share[1, 0] > 0.5


def test_ties_and_win_matrix():
    """Ties count half each way; the matrix is complementary; a bot that never
    loses still gets a finite rating."""
    bots = np.array([[0, 1, 2], [2, 0, 1], [1, 2, 0], [0, 2, 1]])
    scores = np.array([[5, 5, 1], [0, 7, 7], [3, 3, 9], [4, 0, 2]])
    counts = PairCounts(3, 3, n_clusters=4)
    counts.add(bots, scores, np.arange(4))
    share, games = counts.win_matrix()
    # bot 0 against bot 1: ties in races 0 (5-5) and 1 (7-7), wins in races 2 (9-3) and 3 (4-2)
    assert games[0, 1] == 4 and share[0, 1] == pytest.approx((0.5 + 0.5 + 1 + 1) / 4)
    off = ~np.eye(3, dtype=bool)
    assert np.allclose((share + share.T)[off], 1)
    dominant = np.array([[9, 1, 0]] * 50)
    f, _ = fit_races(np.array([0, 1, 2]), dominant, 3)
    assert np.all(np.isfinite(f.strength)) and f.strength[0] > f.strength[1] > f.strength[2]
