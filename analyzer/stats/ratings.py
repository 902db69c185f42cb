"""Ratings of bots from multiplayer results: Bradley–Terry on pairwise finishing
order with a seat advantage, fitted by Newton's method in numpy.

Model. Every race is broken into its pairs of seats. Bot ``a`` in seat ``i``
outscores bot ``b`` in seat ``j`` with chance

    p = γ_a θ_i / (γ_a θ_i + γ_b θ_j),   logit p = (β_a + s_i) - (β_b + s_j)

with ``β = log γ`` the bots' strengths and ``s = log θ`` the seats' strength
multipliers, both fitted jointly and centred (mean 0). A tie counts half a win
each way. When finishing orders come from a Plackett–Luce model (finish in
order of Exp(γθ) race times), these pairwise chances are exactly PL's pairwise
marginals, so the fit is consistent for PL data too.

Intervals. The pairs of one race are not independent (and with common random
numbers neither are the races played on the same deal), so the log-likelihood
summed over pairs is a composite likelihood: its observed Fisher information
alone would overstate precision. The covariance is the cluster-robust sandwich
``H⁺ (Σ_c g_c g_cᵀ) H⁺`` with ``H`` the observed information, ``g_c`` the score
(gradient) summed over a cluster of races, clusters formed from whole deals.
``H⁺`` (the pseudo-inverse) gives the covariance under the mean-0 constraints.

Elo scale: ``400·log10 γ``; a 100-point gap means the stronger bot outscores
the weaker one at equal seats ``1 / (1 + 10^(-100/400))`` ≈ 64% of the time.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analyzer.stats.intervals import Z95

ELO = 400 / math.log(10)  # Elo points per unit of natural-log strength
N_CLUSTERS = 256


class PairCounts:
    """Running pairwise tallies, ``wins`` and ``games`` per cluster and cell, a cell
    being (bot a, seat i, bot b, seat j) for seats i < j; ``wins`` counts a's wins
    over b (ties half)."""

    def __init__(self, n_bots: int, players: int, n_clusters: int = N_CLUSTERS):
        self.n_bots, self.players, self.n_clusters = n_bots, players, n_clusters
        self.cells = n_bots * players * n_bots * players
        self.wins = np.zeros((n_clusters, self.cells))
        self.games = np.zeros((n_clusters, self.cells))
        self.races = 0

    def cell(self, a, i, b, j):
        B, P = self.n_bots, self.players
        return ((a * P + i) * B + b) * P + j

    def add(self, bots: np.ndarray, scores: np.ndarray, cluster: np.ndarray) -> None:
        """``bots``: [n, P] or [P] bot index per seat; ``scores``: [n, P]; ``cluster``:
        [n] integer id of the deal (any non-negative ints; folded modulo n_clusters)."""
        scores = np.asarray(scores)
        n = scores.shape[0]
        bots = np.broadcast_to(np.asarray(bots), scores.shape)
        cluster = np.asarray(cluster, np.int64) % self.n_clusters
        for i in range(self.players):
            for j in range(i + 1, self.players):
                y = (scores[:, i] > scores[:, j]) + 0.5 * (scores[:, i] == scores[:, j])
                cell = self.cell(bots[:, i], i, bots[:, j], j)
                np.add.at(self.wins, (cluster, cell), y)
                np.add.at(self.games, (cluster, cell), 1.0)
        self.races += n

    def design(self) -> np.ndarray:
        """[cells, B + P] rows ``e_a - e_b + e_(B+i) - e_(B+j)``."""
        B, P = self.n_bots, self.players
        a, i, b, j = np.unravel_index(np.arange(self.cells), (B, P, B, P))
        X = np.zeros((self.cells, B + P))
        rows = np.arange(self.cells)
        np.add.at(X, (rows, a), 1.0)
        np.add.at(X, (rows, b), -1.0)
        np.add.at(X, (rows, B + i), 1.0)
        np.add.at(X, (rows, B + j), -1.0)
        return X

    def win_matrix(self) -> tuple[np.ndarray, np.ndarray]:
        """``(share, games)``, [B, B]: the share of head-to-head pairings in which the
        row bot outscored the column bot (ties half), and how many there were.
        The diagonal (a bot against its own copy) is NaN."""
        B, P = self.n_bots, self.players
        w = self.wins.sum(0).reshape(B, P, B, P).sum((1, 3))
        g = self.games.sum(0).reshape(B, P, B, P).sum((1, 3))
        wins = w + (g - w).T
        games = g + g.T
        with np.errstate(invalid="ignore", divide="ignore"):
            share = wins / games
        np.fill_diagonal(share, np.nan)
        return share, games


@dataclass
class RatingFit:
    strength: np.ndarray  # [B] log strengths, mean 0
    seat: np.ndarray  # [P] log seat multipliers, mean 0
    cov: np.ndarray  # [B+P, B+P] sandwich covariance
    cov_model: np.ndarray  # [B+P, B+P] inverse observed information (pairs as if independent)
    iterations: int
    converged: bool
    clusters: int

    @property
    def se(self) -> np.ndarray:
        return np.sqrt(np.clip(np.diag(self.cov), 0, None))

    @property
    def elo(self) -> np.ndarray:
        return ELO * self.strength

    @property
    def elo_interval(self) -> tuple[np.ndarray, np.ndarray]:
        half = Z95 * ELO * self.se[:len(self.strength)]
        return self.elo - half, self.elo + half

    @property
    def seat_multiplier(self) -> np.ndarray:
        return np.exp(self.seat)

    @property
    def seat_interval(self) -> tuple[np.ndarray, np.ndarray]:
        half = Z95 * self.se[len(self.strength):]
        return np.exp(self.seat - half), np.exp(self.seat + half)

    def beat_chance(self, a: int, b: int) -> float:
        """Modelled chance that bot a outscores bot b in the same seat."""
        return 1 / (1 + math.exp(self.strength[b] - self.strength[a]))


def fit(counts: PairCounts, ridge: float = 1e-6, tol: float = 1e-10, max_iter: int = 100) -> RatingFit:
    """Maximise the pairwise log-likelihood by Newton's method. ``ridge`` (a tiny
    Gaussian prior on the log strengths) keeps a bot that never lost finite."""
    X = counts.design()
    W, N = counts.wins.sum(0), counts.games.sum(0)
    used = N > 0
    X, W, N = X[used], W[used], N[used]
    k = X.shape[1]
    beta = np.zeros(k)

    def loglik(b):
        eta = X @ b
        return float(W @ -np.logaddexp(0, -eta) + (N - W) @ -np.logaddexp(0, eta) - ridge * b @ b / 2)

    current, converged, it = loglik(beta), False, 0
    for it in range(1, max_iter + 1):
        p = 1 / (1 + np.exp(-(X @ beta)))
        grad = X.T @ (W - N * p) - ridge * beta
        H = (X * (N * p * (1 - p))[:, None]).T @ X + ridge * np.eye(k)
        step = np.linalg.lstsq(H, grad, rcond=1e-9)[0]
        t = 1.0
        while t > 1e-6:  # step halving: Newton on a concave function rarely needs it
            trial = loglik(beta + t * step)
            if trial >= current - 1e-12:
                break
            t /= 2
        beta, current = beta + t * step, trial
        if np.max(np.abs(t * step)) < tol:
            converged = True
            break
    B = counts.n_bots
    beta[:B] -= beta[:B].mean()
    beta[B:] -= beta[B:].mean()

    # sandwich covariance: bread = observed information, meat = cluster score products
    X_all = counts.design()
    p_all = 1 / (1 + np.exp(-(X_all @ beta)))
    p = p_all[used]
    info = (X * (N * p * (1 - p))[:, None]).T @ X
    bread = np.linalg.pinv(info, rcond=1e-10, hermitian=True)
    scores = (counts.wins - counts.games * p_all) @ X_all  # [clusters, k]
    live = counts.games.sum(1) > 0
    c = int(live.sum())
    meat = scores[live].T @ scores[live] * (c / max(c - 1, 1))
    cov = bread @ meat @ bread
    return RatingFit(beta[:B].copy(), beta[B:].copy(), cov, bread, it, converged, c)


def fit_races(bots: np.ndarray, scores: np.ndarray, n_bots: int, cluster: np.ndarray | None = None,
              n_clusters: int = N_CLUSTERS) -> tuple[RatingFit, PairCounts]:
    """Fit from per-race arrays: ``bots`` [n, P] and ``scores`` [n, P]; races are their
    own clusters unless ``cluster`` groups them."""
    scores = np.asarray(scores)
    counts = PairCounts(n_bots, scores.shape[1], n_clusters)
    counts.add(bots, scores, np.arange(len(scores)) if cluster is None else cluster)
    return fit(counts), counts
