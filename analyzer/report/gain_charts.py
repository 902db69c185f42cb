"""Charts of gains measured against a practical threshold (an intervention's
"what does this decision gain"), and of the hindsight figures shown beside them.

A game's causal answer cites rows of gains, each a mean with its 95% interval and
a verdict against the practical threshold ("shown: gain", "ruled out", ...). This
module draws them as a forest plot: one panel per group of rows (a bot's own
decisions, each card, each stage), the threshold as a shaded band around zero,
each row coloured by its evidence word (the colours of the page's badges). A
panel of hindsight figures is grey, titled as hindsight and placed after the
intervention panels (to the right in a row, or in a row below): it is what a
choice would have paid had the game gone the same, not what the choice gains.

The plotted rows are the chart's source data (``frame``), written beside the
report as ``<key>.csv`` so a reader (and a test) can match them to the answer's
tables.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer.report import figures as FIG
from analyzer.stats.evidence import NOT_ENOUGH, RULED_OUT, SHOWN, word_text

# the evidence words' colours, as on the page's badges (report/scorecard.py's CSS)
WORD_COLORS = {SHOWN: "#1f7a3f", RULED_OUT: "#2c5aa0", NOT_ENOUGH: "#a15c00"}
HINDSIGHT = "#8a8a8a"
UNJUDGED = "#34495e"  # a row no threshold judges (a win-chance change beside the points)
COLUMNS = ["panel", "hindsight", "unit", "label", "value", "low", "high", "verdict", "n"]
UNITS = {"points": "points", "pp": "percentage points", "share": "share"}


@dataclass(frozen=True)
class Panel:
    """One group of rows: ``rows`` has ``label``, ``value``, ``low``, ``high`` (the
    95% interval), ``verdict`` (its word against ``threshold``, "" when nothing
    judges it) and ``n`` (the samples it rests on). ``unit``: "points", "pp" (a
    difference of shares) or "share"; ``hindsight``: drawn grey and titled so."""
    title: str
    rows: pd.DataFrame
    unit: str = "points"
    threshold: float | None = None
    hindsight: bool = False
    xlabel: str = ""


def word(verdict: str) -> str:
    """The evidence word of a verdict ("shown: gain" -> "shown", "not enough races" -> "not
    enough"); "" for none."""
    if not isinstance(verdict, str):
        return ""
    head = verdict.split(":")[0].strip()
    return NOT_ENOUGH if head.startswith(NOT_ENOUGH) else head


def frame(grid: list[list[Panel]]) -> pd.DataFrame:
    """The rows every panel plots, in drawing order: the chart's source data."""
    parts = [p.rows.assign(panel=p.title, hindsight=p.hindsight, unit=p.unit)
             for row in grid for p in row if len(p.rows)]
    if not parts:
        return pd.DataFrame(columns=COLUMNS)
    out = pd.concat(parts, ignore_index=True)
    if "n" not in out:
        out["n"] = np.nan
    return out[COLUMNS]


def _limits(grid: list[list[Panel]]) -> dict[str, tuple[float, float]]:
    """One x range per unit, so panels in the same unit compare by eye."""
    out = {}
    for p in (p for row in grid for p in row if len(p.rows)):
        values = np.concatenate([p.rows[c].to_numpy(float) for c in ("value", "low", "high")])
        values = values[np.isfinite(values)]
        t = p.threshold or 0.0
        lo, hi = min([0.0, -t, *values]), max([0.0, t, *values])
        old = out.get(p.unit, (lo, hi))
        out[p.unit] = (min(lo, old[0]), max(hi, old[1]))
    return {u: (lo - 0.06 * (hi - lo or 1), hi + 0.06 * (hi - lo or 1)) for u, (lo, hi) in out.items()}


def _panel(ax, p: Panel, limits, labels: bool) -> None:
    from analyzer.report.answer_charts import exact

    d = p.rows.reset_index(drop=True)
    y = np.arange(len(d))[::-1]
    if p.threshold:
        ax.axvspan(-p.threshold, p.threshold, color="#e6e6e6", zorder=0)
    ax.axvline(0, color="black", linewidth=0.8, zorder=1)
    err = FIG._err(d["value"], d["low"], d["high"])
    err[:, exact(d["low"], d["high"])] = 0
    colors = np.array([HINDSIGHT if p.hindsight else WORD_COLORS.get(word(v), UNJUDGED) for v in d["verdict"]])
    for color in dict.fromkeys(colors):  # one call per colour: a chart of many rows draws fast
        at = colors == color
        ax.errorbar(d["value"].to_numpy(float)[at], y[at], xerr=err[:, at], fmt="D" if p.hindsight else "o",
                    color=color, markerfacecolor="white" if p.hindsight else color, capsize=3, markersize=5,
                    linestyle="none", zorder=2)
    ax.set_yticks(y, [str(v) for v in d["label"]] if labels else [])
    ax.set_ylim(-0.7, len(d) - 0.3)
    ax.set_xlim(*limits[p.unit])
    if p.unit == "share":
        FIG._pct_axis(ax, "x")
    elif p.unit == "pp":
        FIG._pp_axis(ax, "x")
    ax.set_xlabel(p.xlabel, fontsize=8.5)
    ax.grid(axis="x", alpha=0.3)
    title = textwrap.fill(p.title, 62)
    ax.set_title(("HINDSIGHT (had play not changed; not the effect):\n" if p.hindsight else "") + title,
                 fontsize=9, color="#555555" if p.hindsight else "black")


def draw(grid: list[list[Panel]], title: str):
    """The panels of ``grid`` (a list of rows; the panels of a row share their row
    labels when they have the same ones) and their source data; (None, None)
    without rows."""
    grid = [[p for p in row if len(p.rows)] for row in grid]
    grid = [row for row in grid if row]
    if not grid:
        return None, None
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    ncols = max(len(row) for row in grid)
    heights = [max(len(p.rows) for p in row) * 0.3 + 1.3 for row in grid]
    fig = Figure(figsize=(5.0 + 3.4 * ncols, sum(heights) + 0.9), layout="constrained")
    spec = fig.add_gridspec(len(grid), ncols, height_ratios=heights)
    limits = _limits(grid)
    for i, row in enumerate(grid):
        first_labels = list(row[0].rows["label"])
        span = ncols // len(row) if ncols % len(row) == 0 else 1
        for j, p in enumerate(row):
            ax = fig.add_subplot(spec[i, j * span:(j + 1) * span])
            _panel(ax, p, limits, labels=j == 0 or list(p.rows["label"]) != first_labels)
    handles = [Line2D([], [], marker="o", linestyle="", color=c, label=word_text(w, "races")) for w, c in
               WORD_COLORS.items()]
    if any(p.hindsight for row in grid for p in row):
        handles.append(Line2D([], [], marker="D", linestyle="", color=HINDSIGHT, markerfacecolor="white",
                              label="hindsight"))
    bands = {p.threshold: p.unit for row in grid for p in row if p.threshold}
    handles += [Patch(color="#e6e6e6", label=f"±{t:g} {UNITS.get(u, u)}: the practical threshold")
                for t, u in bands.items()]
    fig.legend(handles=handles, loc="outside lower center", ncols=min(len(handles), 5), frameon=False, fontsize=8.5)
    fig.suptitle(title, fontsize=11)
    return fig, frame(grid)
