"""Means over units that come in clusters, from exactly mergeable sums.

The moves of one game are not independent draws: they share the game's deal,
its map and its players' luck. A mean over moves with the plain t interval
(``sd / sqrt(moves)``) is then too narrow. The cluster-robust interval counts
the clusters (games), not the units; it needs, per cluster ``c``, the count
``n_c`` and the sum ``S_c`` of the units of each group, which a streamed report
cannot keep. What it needs of them are sums of their products over clusters,
``Σ n_c²``, ``Σ n_c S_c``, ``Σ S_c²``, and those add up chunk by chunk and merge
exactly (integers), like ``aggregate.Hist``.

Groups (a key such as a column's sum) and arms (0/1: e.g. "started a new
column" or not) split the units; a difference of two arms' means within a group
gets its interval from the same games, so a game holding moves of both arms
counts once (their covariance is in the sums).

For a linear combination ``θ = Σ_a w_a m_a`` of arm means ``m_a = S_a / n_a``,
each cluster's residual is ``r_c = Σ_a w_a (S_ac - m_a n_ac) / n_a`` and

    var(θ) = C / (C - 1) * Σ_c r_c²,   half = t(0.975, C - 1) * sqrt(var(θ))

with ``C`` the clusters that hold units of the group in the arms of θ (the
others have r_c = 0 and carry no information about θ: counting them, as an
earlier version did with every game seen, made a rare cell's interval too narrow
— a cell of 6 moves in 6 games got t(0.975, games - 1) and games/(games - 1)
instead of t(0.975, 5) and 6/5). ``intervals.clustered_mean_ci`` for one arm;
with one unit per cluster, the plain t interval up to C/(C-1) against n/(n-1).
To count them per group and set of arms, each (cluster, group) adds one to the
count of its pattern: the bit mask of the arms it holds units of.

Units of one cluster must arrive together or in consecutive calls of ``add``
(the tables are written in game order; a report reads them in batches that can
cut a game in two): the rows of a call's last cluster are held back until the
next call or the first result, and joined with that cluster's rows if they
come next. Accumulators that ``merge`` must hold different clusters (a run's
chunks are whole games).
"""
from __future__ import annotations

import numpy as np

from analyzer.stats.distributions import t_quantile


class ClusteredMeans:
    """Per group (integer key >= 0) and arm (0 .. arms - 1): units, their sum, and
    the per-cluster cross sums a cluster-robust interval needs."""

    def __init__(self, arms: int = 1):
        self.arms = arms
        width = 2 * arms  # u_c = (n_0 .. n_{A-1}, S_0 .. S_{A-1}) of a cluster in a group
        self._cross = np.zeros((0, width, width), np.int64)  # per group: Σ_c u_c u_cᵀ
        self._totals = np.zeros((0, width), np.int64)  # per group: Σ_c u_c
        self._patterns = np.zeros((0, 1 << arms), np.int64)  # per group: clusters by the arms they hold (bit mask)
        self._clusters = 0  # clusters seen (with at least one unit in any group)
        self._pending = None  # the last call's last cluster: (cluster, groups, arms, values)

    # ------------------------------------------------------------------ adding

    def add(self, clusters, groups, values, arms=None) -> None:
        clusters = np.asarray(clusters, np.int64)
        groups = np.asarray(groups, np.int64)
        values = np.asarray(values, np.int64)
        arms = np.zeros(len(clusters), np.int64) if arms is None else np.asarray(arms, np.int64)
        if len(groups) and groups.min() < 0:
            raise ValueError("group keys must be >= 0")
        if len(arms) and (arms.min() < 0 or arms.max() >= self.arms):
            raise ValueError(f"arms must be in 0..{self.arms - 1}")
        if not len(clusters):
            return  # an empty batch: the held cluster may go on in the next one
        if self._pending is not None:
            held, self._pending = self._pending, None
            if held[0] in clusters:
                pc, pg, pa, pv = held[1]
                clusters, groups, arms, values = (np.concatenate([p, x]) for p, x in
                                                  ((pc, clusters), (pg, groups), (pa, arms), (pv, values)))
            else:
                self._fold(*held[1])
        last = clusters.max()
        tail = clusters == last
        self._pending = (int(last), (clusters[tail], groups[tail], arms[tail], values[tail]))
        keep = ~tail
        self._fold(clusters[keep], groups[keep], arms[keep], values[keep])

    def _fold(self, clusters, groups, arms, values) -> None:
        """Rows holding whole clusters into the sums."""
        if not len(clusters):
            return
        width = 2 * self.arms
        cid, cluster_index = np.unique(clusters, return_inverse=True)
        self._clusters += len(cid)
        n_groups = int(groups.max()) + 1
        self._grow(n_groups)
        # u of every (cluster, group): counts then sums per arm
        cell = cluster_index * n_groups + groups
        u = np.zeros((len(cid) * n_groups, width), np.int64)
        np.add.at(u, (cell, arms), 1)
        np.add.at(u, (cell, self.arms + arms), values)
        u = u.reshape(len(cid), n_groups, width)
        pattern = ((u[:, :, :self.arms] > 0) << np.arange(self.arms)).sum(2)  # [cluster, group]
        np.add.at(self._patterns, (np.broadcast_to(np.arange(n_groups), pattern.shape), pattern), 1)
        self._totals[:n_groups] += u.sum(0)
        self._cross[:n_groups] += np.einsum("cgi,cgj->gij", u, u)

    def _grow(self, n_groups: int) -> None:
        have = len(self._totals)
        if n_groups > have:
            width = 2 * self.arms
            self._totals = np.concatenate([self._totals, np.zeros((n_groups - have, width), np.int64)])
            self._cross = np.concatenate([self._cross, np.zeros((n_groups - have, width, width), np.int64)])
            self._patterns = np.concatenate([self._patterns, np.zeros((n_groups - have, 1 << self.arms), np.int64)])

    def _flush(self) -> None:
        if self._pending is not None:
            held, self._pending = self._pending, None
            self._fold(*held[1])

    def merge(self, other: "ClusteredMeans") -> "ClusteredMeans":
        self._flush()
        other._flush()
        self._grow(len(other._totals))
        self._totals[:len(other._totals)] += other._totals
        self._cross[:len(other._cross)] += other._cross
        self._patterns[:len(other._patterns)] += other._patterns
        self._clusters += other._clusters
        return self

    def nbytes(self) -> int:
        return self._totals.nbytes + self._cross.nbytes + self._patterns.nbytes

    # ------------------------------------------------------------------ results

    @property
    def clusters(self) -> int:
        """Clusters seen (with at least one unit in any group)."""
        self._flush()
        return self._clusters

    def group_clusters(self, arms=None) -> np.ndarray:
        """Per group: the clusters holding at least one of its units in ``arms``
        (default: any arm), the C of its intervals."""
        self._flush()
        arms = range(self.arms) if arms is None else arms
        mask = sum(1 << a for a in arms)
        return self._patterns[:, (np.arange(1 << self.arms) & mask) > 0].sum(1)

    @property
    def totals(self) -> np.ndarray:
        """Per group: Σ_c u_c, u_c = (units per arm, then their sums per arm)."""
        self._flush()
        return self._totals

    @property
    def cross(self) -> np.ndarray:
        """Per group: Σ_c u_c u_cᵀ."""
        self._flush()
        return self._cross

    def groups(self) -> np.ndarray:
        """Group keys holding at least one unit."""
        self._flush()
        return np.flatnonzero(self._totals[:, :self.arms].sum(1) > 0)

    def mean(self, arm: int = 0) -> dict[str, np.ndarray]:
        """Per group (index = key): units ``n``, ``mean`` and its 95% cluster-robust
        interval ``low``/``high`` (nan where there are no units)."""
        weights = np.zeros(self.arms)
        weights[arm] = 1.0
        est, low, high = self._combination(weights)
        return {"n": self._totals[:, arm].astype(np.float64), "mean": est, "low": low, "high": high}

    def difference(self, a: int = 1, b: int = 0) -> dict[str, np.ndarray]:
        """Per group: ``mean(arm a) - mean(arm b)`` and its 95% cluster-robust
        interval (nan where either arm has no units)."""
        weights = np.zeros(self.arms)
        weights[a], weights[b] = 1.0, -1.0
        est, low, high = self._combination(weights)
        return {"difference": est, "low": low, "high": high}

    def _combination(self, weights: np.ndarray):
        self._flush()
        A = self.arms
        n = self._totals[:, :A].astype(np.float64)
        s = self._totals[:, A:].astype(np.float64)
        used = weights != 0
        with np.errstate(divide="ignore", invalid="ignore"):
            m = s / n
            ok = (n[:, used] > 0).all(1)
            est = np.where(ok, (m * weights).sum(1, where=used[None, :]), np.nan)
            # the residual's coefficients on (n_a, S_a) of a cluster
            g = np.concatenate([-weights * m / n, weights / n], axis=1)
        g = np.where(np.isfinite(g), g, 0.0)
        ss = np.einsum("gi,gij,gj->g", g, self._cross.astype(np.float64), g)
        C = self.group_clusters(np.flatnonzero(used)).astype(np.float64)
        ok &= C >= 2  # one cluster: no spread between clusters to measure
        with np.errstate(divide="ignore", invalid="ignore"):
            half = t_quantile(0.975, np.where(ok, C - 1, np.nan)) * np.sqrt(np.maximum(C / (C - 1) * ss, 0.0))
        return est, np.where(ok, est - half, np.nan), np.where(ok, est + half, np.nan)
