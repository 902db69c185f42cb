"""Honest flags: when may a report say that one item (a colour, a pig, a seat)
"differs"?

Three gates, in order, so that a flag fires on a fair game no more often than
the stated error rate ``alpha`` whatever the number of items, and never for a
difference too small to matter:

1. a joint test of "all items are equal" (chi-square goodness of fit for
   shares of one winner among k items; Cochran's Q for seats, whose wins are
   paired within a race);
2. per-item tests against the fair value, their p-values Holm-adjusted for the
   k comparisons (Holm's step-down controls the family-wise error rate);
3. a practical-size threshold ``min_effect`` (default 1 percentage point):
   an item is flagged only if the whole of its simultaneous 95% interval
   (Bonferroni: each item's at level 1 - 0.05/k, so that all k hold together)
   of its difference from fair lies beyond that distance from fair, by the
   verdict rule of ``stats/evidence.decide`` (not just its point estimate: a
   gap measured at 1.2 pp whose interval reaches down to 0.4 pp is not shown to
   be 1 pp). Where every gap's interval lies inside it the answer is "no
   meaningful difference"; where some reach across it, "not settled".

"Fair" is the value every item would have were all alike: for shares of units
won it is the mean share, which is 1/k only when every unit has one winner
(shared wins count for every item among the winners, so the shares sum to
more than 1 and each item's fair share is their mean).

``Flags.evidence`` turns the same intervals into the evidence words of
``stats/evidence.py`` (shown, ruled out, not enough races).

Every result carries the method's name in words (``Flags.method``) for the
report's method line.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from analyzer.stats.distributions import chi2_sf, normal_quantile, normal_sf
from analyzer.stats.evidence import NOT_ENOUGH, RULED_OUT, SHOWN, Verdict, any_of, decide, verdict
from analyzer.stats.intervals import wilson

ALPHA = 0.05
MIN_EFFECT = 0.01  # 1 percentage point


def holm(pvalues) -> np.ndarray:
    """Holm-adjusted p-values (step-down, monotone, capped at 1)."""
    p = np.asarray(pvalues, np.float64)
    m = p.size
    if m == 0:
        return p
    order = np.argsort(p, kind="stable")
    adj = np.empty(m)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adj[i] = running
    return adj


@dataclass
class Flags:
    """The outcome of the three gates for k items."""
    method: str  # in words, for the report
    items: list[str]
    share: np.ndarray  # each item's observed value (a share, or a seat's win rate)
    fair: float  # the value every item has when all are equal
    joint_stat: float
    joint_df: int
    joint_p: float
    p: np.ndarray  # per-item two-sided p-values
    p_holm: np.ndarray
    alpha: float = ALPHA
    min_effect: float = MIN_EFFECT
    flagged: np.ndarray = field(default=None)  # bool per item
    gap_low: np.ndarray = field(default=None)  # simultaneous 95% interval of each item's share - fair
    gap_high: np.ndarray = field(default=None)

    def __post_init__(self):
        k = len(self.items)
        if self.gap_low is None:
            self.gap_low, self.gap_high = np.full(k, np.nan), np.full(k, np.nan)
        if self.flagged is None:
            t = self.min_effect if self.min_effect > 0 else 1e-12
            beyond = np.array([decide(lo, hi, t) == SHOWN for lo, hi in zip(self.gap_low, self.gap_high)], bool)
            self.flagged = (self.joint_p < self.alpha) & (self.p_holm < self.alpha) & beyond

    def item_evidence(self, i: int, what: str, n: int, unit: str = "races") -> Verdict:
        """Item ``i``'s gap from fair in evidence words (``stats/evidence.py``), on its
        simultaneous interval. It is *shown* only when it is flagged (the joint test
        too): an interval beyond the threshold that the joint test does not back is
        left open, the next few units deciding it."""
        t = self.min_effect if self.min_effect > 0 else 1e-12
        v = verdict(float(self.share[i] - self.fair), float(self.gap_low[i]), float(self.gap_high[i]), t, n,
                    what=what, unit=unit, level="simultaneous 95% CI", item=self.items[i],
                    z=simultaneous_z(len(self.items)))
        if v.word == SHOWN and not self.flagged[i]:
            v = replace(v, word=NOT_ENOUGH, needed=n + 1)
        return v

    def evidence(self, what: str, n: int, unit: str = "races") -> Verdict:
        """The evidence words for "is any item off fair by the threshold?": each
        item's ``item_evidence``, then ``any_of``."""
        return any_of([self.item_evidence(i, f"{self.items[i]} against fair", n, unit)
                       for i in range(len(self.items))], what)

    @property
    def joint_rejects(self) -> bool:
        return bool(self.joint_p < self.alpha)

    @property
    def any(self) -> bool:
        return bool(self.flagged.any())

    def verdict(self, noun: str = "item", plural: str | None = None) -> str:
        """One sentence: what differs, beyond chance and beyond the threshold."""
        plural = plural or noun + "s"
        k = len(self.items)
        joint = f"joint test p {_p(self.joint_p)}"
        fair = f"{100 * self.fair:.1f}%"
        if self.fair * k > 1 + 1e-9:  # shared wins: each item's fair share is the mean, more than 1/k
            fair += " (their mean share)"
        if not self.joint_rejects:
            return (f"all {k} {plural} are within sampling error of a fair {fair} ({joint})")
        if not self.any:
            big = np.abs(self.share - self.fair).max()
            inside = all(decide(lo, hi, self.min_effect) == RULED_OUT for lo, hi in zip(self.gap_low, self.gap_high))
            if inside:
                return (f"the {plural} differ beyond sampling error ({joint}), but every {noun} lies within "
                        f"{100 * self.min_effect:g} pp of {fair} (largest gap {100 * big:.2f} pp): no meaningful "
                        f"difference")
            return (f"the {plural} differ beyond sampling error ({joint}), but no {noun} is shown "
                    f"more than {100 * self.min_effect:g} pp from {fair} (largest gap {100 * big:.2f} pp, its "
                    f"interval reaching across the threshold): not settled")
        names = [f"{self.items[i]} {100 * self.share[i]:.1f}%" for i in np.flatnonzero(self.flagged)]
        return (f"{len(names)} of {k} {plural} {'differs' if len(names) == 1 else 'differ'} from a fair {fair} by "
                f"more than {100 * self.min_effect:g} pp beyond chance ({', '.join(names)}; {joint}, then "
                f"Holm-corrected per-{noun} tests)")


def simultaneous_z(k: int, level: float = 0.95) -> float:
    """The normal quantile of k two-sided intervals that hold together at ``level``
    (Bonferroni: each at 1 - (1 - level) / k)."""
    return normal_quantile(1 - (1 - level) / (2 * max(k, 1)))


def _p(p: float) -> str:
    """``= 0.12`` or ``< 0.0001``."""
    return f"= {p:.2g}" if p >= 1e-4 else "< 0.0001"


def share_balance(counts, n: int, items, alpha: float = ALPHA, min_effect: float = MIN_EFFECT) -> Flags:
    """Are k items' shares of ``n`` units equal? ``counts[i]``: units item i won.
    Fair is the mean share (``counts.sum() / (k n)``: 1/k with one winner a unit;
    shared wins make the counts sum to more than n and every fair share larger).
    Joint: chi-square goodness of fit against equal counts, k - 1 degrees of
    freedom (exact for one winner per unit; shared wins make the test treat them
    as more units). Per item: two-sided z test of its share against fair, binomial
    variance; its gap's interval is its Wilson interval minus fair."""
    counts = np.asarray(counts, np.float64)
    k = counts.size
    total = counts.sum()
    fair = total / (k * n) if n > 0 and total > 0 else 1.0 / k  # the mean share: 1/k with one winner a unit
    if n <= 0 or total <= 0:
        nan = np.full(k, np.nan)
        return Flags(f"chi-square test of equal shares, then Holm-corrected per-item tests "
                     f"(alpha {alpha:g}, at least {100 * min_effect:g} pp)", list(items), nan, fair,
                     np.nan, k - 1, 1.0, np.ones(k), np.ones(k), alpha, min_effect, np.zeros(k, bool))
    expected = total / k
    stat = float(((counts - expected) ** 2 / expected).sum())
    joint_p = chi2_sf(stat, k - 1)
    share = counts / n
    se = math.sqrt(fair * (1 - fair) / n)
    p = 2 * np.asarray(normal_sf(np.abs(share - fair) / se), np.float64).reshape(k)
    low, high = wilson(np.minimum(counts, n), n, simultaneous_z(k))
    return Flags(f"chi-square test of equal shares over {int(n):,} units ({k - 1} df), then two-sided "
                 f"per-item z tests, Holm-corrected; flagged at alpha {alpha:g} when the whole simultaneous 95% "
                 f"interval (Bonferroni) of the gap lies at least {100 * min_effect:g} pp from fair", list(items),
                 share, fair, stat,
                 k - 1, joint_p, p, holm(p), alpha, min_effect, None, np.asarray(low) - fair,
                 np.asarray(high) - fair)


def seat_balance(counts, masks, players: int, alpha: float = ALPHA, min_effect: float = MIN_EFFECT) -> Flags:
    """Do the seats of one bot win equally often? From per-unit win patterns
    (``counts`` of each bit ``mask`` of winning seats, every seat present).

    Joint: Cochran's Q (k seats, paired within a unit; chi-square with k - 1
    df). Per seat: its win rate minus the mean of all seats' in the same unit,
    paired by unit (a z test of the mean of ``w_s - mean(w)``), Holm-corrected.
    ``share`` holds the seats' win rates, ``fair`` their mean."""
    counts = np.asarray(counts, np.float64)
    masks = np.asarray(masks, np.int64)
    k = players
    bits = ((masks[:, None] >> np.arange(k)[None, :]) & 1).astype(np.float64)  # [pattern, seat]
    n = counts.sum()
    items = [f"seat {s + 1}" for s in range(k)]
    if n < 2:
        nan = np.full(k, np.nan)
        return Flags("Cochran's Q", items, nan, np.nan, np.nan, k - 1, 1.0, np.ones(k), np.ones(k), alpha,
                     min_effect, np.zeros(k, bool))
    col = (counts[:, None] * bits).sum(0)  # wins per seat
    row = bits.sum(1)  # winners per unit
    N = (counts * row).sum()
    denom = k * N - (counts * row * row).sum()
    q = float((k - 1) * (k * (col * col).sum() - N * N) / denom) if denom > 0 else 0.0
    joint_p = chi2_sf(q, k - 1) if denom > 0 else 1.0
    share = col / n
    fair = float(share.mean())
    d = bits - row[:, None] / k  # [pattern, seat]: w_s - mean(w) in the unit
    mean = (counts[:, None] * d).sum(0) / n
    var = ((counts[:, None] * d * d).sum(0) - n * mean * mean) / (n - 1)
    se = np.sqrt(np.maximum(var, 0) / n)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, np.abs(mean) / np.where(se > 0, se, 1), 0.0)
    p = 2 * np.asarray(normal_sf(z), np.float64).reshape(k)
    return Flags(f"Cochran's Q over {int(n):,} units ({k - 1} df; the seats of a unit are paired), then "
                 f"two-sided paired per-seat tests against the mean seat, Holm-corrected; flagged at alpha "
                 f"{alpha:g} when the whole simultaneous 95% interval (Bonferroni) of the gap lies at least "
                 f"{100 * min_effect:g} pp from the mean seat", items, share, fair, q, k - 1, joint_p, p, holm(p),
                 alpha, min_effect, None,
                 mean - simultaneous_z(k) * se, mean + simultaneous_z(k) * se)
