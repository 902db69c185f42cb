"""The game-flow summary of a run (Ludii-style): from the flow columns
every game's per-race or per-game table carries (``engine/records.flow_columns``,
counted by ``engine/flow.py`` in the kernels), chunk by chunk in integer
histograms, so adding a table whole or in chunks gives the same result.

``result()`` is the ``flow`` table, one row per metric (``value`` with its 95%
interval ``low``-``high`` where one applies, over ``n`` items):

- ``lead_changes``: lead changes per item (mean, t interval);
- ``no_lead_change``: share of items whose lead never passed (Wilson);
- ``decided_share``: how much of the item was played before the eventual winner
  took the lead for good, in percent of its steps (mean over items with a single
  winner; t interval); ``decided_median`` its median;
- ``comeback``: share of items with a single winner whose winner did not lead at
  the half (Wilson);
- ``no_single_winner``: share of items with a shared win, a draw or no winner
  (drawishness; Wilson);
- ``length``: steps per item (mean, t interval).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from analyzer.stats.aggregate import Hist, bools, hist_mean, hist_quantiles, ints, rate

FLOW_COLUMNS = ["lead_changes", "decided_after", "comeback"]
METRICS = ("lead_changes", "no_lead_change", "decided_share", "decided_median", "comeback", "no_single_winner",
           "length")


class FlowStats:
    def __init__(self):
        self.h_changes = Hist(("lead_changes",))
        self.h_decided = Hist(("percent",))  # items with a single winner: decided_after / length, in percent
        self.h_comeback = Hist(("comeback",))  # items with a single winner
        self.h_length = Hist(("length",))

    def add(self, df: pd.DataFrame, length: str = "turns") -> None:
        """The rows of a per-race or per-game table; ``length``: its column of steps."""
        self.h_changes.add(ints(df, "lead_changes"))
        steps = ints(df, length)
        self.h_length.add(steps)
        decided = df["decided_after"]
        single = decided.notna().to_numpy()
        if single.any():
            d = decided.to_numpy(np.int64, na_value=0)[single]
            self.h_decided.add(np.rint(100.0 * d / np.maximum(steps[single], 1)).astype(np.int64))
            self.h_comeback.add(bools(df, "comeback")[single])

    def merge(self, other: "FlowStats") -> "FlowStats":
        for name, h in vars(self).items():
            h.merge(getattr(other, name))
        return self

    def nbytes(self) -> int:
        return sum(h.nbytes() for h in vars(self).values())

    def result(self) -> pd.DataFrame:
        def row(metric, value, low=np.nan, high=np.nan, n=0):
            return {"metric": metric, "value": float(value), "low": float(low), "high": float(high), "n": int(n)}

        changes = hist_mean(self.h_changes.counts, self.h_changes.values("lead_changes"))
        n = int(changes["n"])
        none = self.h_changes.take(lead_changes=[0]).sum() if n else 0
        no_change = rate(none, n)
        decided = hist_mean(self.h_decided.counts, self.h_decided.values("percent"))
        single = int(decided["n"])
        median = hist_quantiles(self.h_decided.counts, self.h_decided.values("percent"), [0.5])[0]
        comebacks = self.h_comeback.take(comeback=[1]).sum() if single else 0
        comeback = rate(comebacks, single)
        shared = rate(n - single, n)
        length = hist_mean(self.h_length.counts, self.h_length.values("length"))
        return pd.DataFrame([
            row("lead_changes", changes["mean"], changes["low"], changes["high"], n),
            row("no_lead_change", no_change["rate"], no_change["low"], no_change["high"], n),
            row("decided_share", decided["mean"] / 100, decided["low"] / 100, decided["high"] / 100, single),
            row("decided_median", median / 100, n=single),
            row("comeback", comeback["rate"], comeback["low"], comeback["high"], single),
            row("no_single_winner", shared["rate"], shared["low"], shared["high"], n),
            row("length", length["mean"], length["low"], length["high"], n),
        ])
