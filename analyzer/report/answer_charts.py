"""A chart for each structural answer, of the data that answer reads.

A structural answer (``report/text.structural``) is measured on the controlled
tables: each bot of the run in every seat, on the same deals and dice
(``report/controlled.py``). The run's own figures show the run's table, where a
seat's bot and its order are mixed. So a game declares, per answer figure key,
the controlled table and columns its answer cites (``ANSWER_CHARTS``, a list of
``AnswerChart``); this module draws them as small multiples, one panel per
controlled table with its 95% intervals, and keeps the plotted rows as the
figure's source data (written beside the report as ``answer_<key>.csv``). The
answers then link to these charts, and the run's own figure of the same key is
titled "mixed table (seat and bot confounded)" and placed after them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd

from analyzer.report import figures as FIG
from analyzer.report import text as T

MIXED = "mixed table (seat and bot confounded)"
PANELS_PER_ROW = 4


@dataclass(frozen=True)
class AnswerChart:
    """What an answer with figure key ``figure`` cites: rows of the controlled
    result table ``table`` (``rows`` filters them), ``value`` with its interval
    ``low``-``high`` at each ``x``. ``scale``: "share" (percent axis), "pp" (a
    difference of shares, percentage points) or "points"; ``reference``: the line
    a fair game sits on: "zero", "players" (1 / players), "rows" (1 / the rows) or
    "none"."""
    figure: str
    table: str
    x: str
    value: str
    low: str
    high: str
    scale: str
    reference: str
    title: str
    xlabel: str
    ylabel: str
    rows: Callable[[pd.DataFrame], pd.DataFrame] | None = None
    # instead of ``table`` and ``rows``: the rows computed from a controlled table's results
    # (a mean and its interval the answer quotes, e.g. ``overview_mean``)
    frame: Callable[[dict], pd.DataFrame] | None = None

    @property
    def key(self) -> str:
        return f"answer_{self.figure}"

    def data(self, label: str, res: dict) -> pd.DataFrame:
        """The rows this chart plots from one controlled table, as its CSV holds them."""
        df = self.frame(res) if self.frame is not None else res.get(self.table)
        if df is None or not len(df):
            return pd.DataFrame(columns=["table", self.x, self.value, self.low, self.high])
        if self.rows is not None:
            df = self.rows(df)
        out = df[[self.x, self.value, self.low, self.high]].reset_index(drop=True)
        out.insert(0, "table", label)
        return out


def exact(low, high) -> np.ndarray:
    """Where an interval has no width (every unit alike): no error bar, the value is exact."""
    return np.isclose(np.asarray(low, float), np.asarray(high, float), rtol=0, atol=1e-12)


def _reference(chart: AnswerChart, d: pd.DataFrame, res: dict, manifest: dict) -> float | None:
    if chart.reference == "none":
        return None
    if chart.reference == "zero":
        return 0.0
    if chart.reference == "rows":
        return 1.0 / len(d) if len(d) else None
    players = T.overview_value(res, "players") if "overview" in res else None
    players = players if T.is_num(players) else manifest.get("players")
    return 1.0 / float(players) if T.is_num(players) and float(players) > 0 else None


def draw(chart: AnswerChart, controlled, manifest: dict):
    """The small multiples of ``chart`` (one panel per controlled table) and their data."""
    panels = [(label, chart.data(label, res), res) for label, res in controlled.tables.items()]
    panels = [p for p in panels if len(p[1])]
    if not panels:
        return None, None
    if all(len(d) == 1 for _, d, _ in panels):  # one number per table (a mean): one panel, a bar per bot
        return _one_panel(chart, panels, controlled), pd.concat([d for _, d, _ in panels], ignore_index=True)
    n = len(panels)
    ncols = min(n, PANELS_PER_ROW)
    nrows = -(-n // ncols)
    from matplotlib.figure import Figure

    width = max(5.5, min(12, 2.2 + 0.55 * max(len(d) for _, d, _ in panels) * ncols))
    fig = Figure(figsize=(width, 3.2 * nrows + 0.4), layout="constrained")
    axes = np.atleast_1d(fig.subplots(nrows, ncols, sharey=True, squeeze=False)).ravel()
    for ax, (label, d, res) in zip(axes, panels):
        x = np.arange(len(d))
        value = d[chart.value].to_numpy(float)
        err = FIG._err(value, d[chart.low], d[chart.high])
        err[:, exact(d[chart.low], d[chart.high])] = 0
        color = FIG.bot_color(label.split(" ")[0])
        ax.bar(x, value, color=color, yerr=err, capsize=3, ecolor="black")
        ref = _reference(chart, d, res, manifest)
        if ref is not None:
            ax.axhline(ref, color="black", linestyle="--" if ref else "-", linewidth=0.8)
        ax.set_xticks(x, [str(v) for v in d[chart.x]])
        ax.set_title(f"{label} {controlled.where}", fontsize=9)
        ax.set_xlabel(chart.xlabel)
        if chart.scale == "share":
            FIG._pct_axis(ax)
        elif chart.scale == "pp":
            FIG._pp_axis(ax)
        ax.grid(axis="y", alpha=0.3)
    for ax in axes[n:]:
        ax.set_visible(False)
    for ax in axes[::ncols]:
        ax.set_ylabel(chart.ylabel)
    fig.suptitle(f"{chart.title}: each bot {controlled.where} (controlled tables)", fontsize=11)
    return fig, pd.concat([d for _, d, _ in panels], ignore_index=True)


def _one_panel(chart: AnswerChart, panels, controlled):
    """The bots side by side on one axis, each bar its table's one value with its interval."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(max(5.5, 1.3 * len(panels) + 2.5), 3.6), layout="constrained")
    ax = fig.subplots()
    d = pd.concat([p[1] for p in panels], ignore_index=True)
    x = np.arange(len(d))
    err = FIG._err(d[chart.value], d[chart.low], d[chart.high])
    err[:, exact(d[chart.low], d[chart.high])] = 0
    ax.bar(x, d[chart.value], color=[FIG.bot_color(label.split(" ")[0]) for label, _, _ in panels], yerr=err,
           capsize=4, ecolor="black")
    ax.set_xticks(x, [label for label, _, _ in panels])
    ax.set_xlabel(f"bot {controlled.where}")
    ax.set_ylabel(chart.ylabel)
    ax.grid(axis="y", alpha=0.3)
    ax.set_title(f"{chart.title}: each bot {controlled.where} (controlled tables)", fontsize=11)
    return fig


def render(charts: list[AnswerChart], controlled, manifest: dict) -> list[dict]:
    """The answer charts with data: ``{key, title, takeaway, png, data}`` (``data``:
    the plotted rows, the figure's source CSV)."""
    if not controlled or not charts:
        return []
    units = sorted(set(controlled.units.values()))
    each = f"{units[0]:,} {T.unit(manifest)} each" if len(units) == 1 else "per table as its CSV says"
    out = []
    for chart in charts:
        fig, data = draw(chart, controlled, manifest)
        if fig is None:
            continue
        takeaway = (f"What the answer cites: the controlled tables ({each}, the same seed: the same deals and "
                    f"dice), one panel or bar per bot; the error bars are 95% intervals, a value without one is exact "
                    f"(every {T.unit(manifest)[:-1]} alike). Source data: {chart.key}.csv.")
        out.append({"key": chart.key, "title": f"{chart.title} (controlled tables)", "takeaway": takeaway,
                    "png": FIG.png(fig), "data": data})
    return out


def with_answer_charts(charts: list[AnswerChart], controlled, manifest: dict, figures: list[dict]) -> list[dict]:
    """The answer charts first, then the run's figures; a run figure that an answer
    chart replaces is titled as the mixed table it is (when the run mixes bots)."""
    drawn = render(charts, controlled, manifest)
    replaced = {c.figure for c in charts if c.key in {f["key"] for f in drawn}}
    mixed = not T.single_bot(manifest)
    rest = [{**f, "title": f"{f['title']} — {MIXED}"} if f["key"] in replaced and mixed else f for f in figures]
    return drawn + rest


def link(figure: str | None, drawn: set) -> str | None:
    """The figure an answer links to: its answer chart when one was drawn."""
    if figure and f"answer_{figure}" in drawn:
        return f"answer_{figure}"
    return figure if figure in drawn else None


# the seat answers of every game: each seat's win rate against the average seat's
SEAT_CHART = AnswerChart("seat_advantage", "seat_advantage", "seat", "advantage", "advantage_low", "advantage_high",
                         "pp", "zero", "Seat advantage", "seat (1 moves first)",
                         "win rate minus the average seat's\n(percentage points, 95% CI)")


def overview_mean(metric: str, what: str) -> Callable[[dict], pd.DataFrame]:
    """The rows of a mean the overview table holds with its 95% interval (a length
    answer quotes it): one row, ``what`` naming it on the x axis."""
    def frame(res: dict) -> pd.DataFrame:
        mean = T.overview_value(res, metric)
        if not T.is_num(mean) or mean != mean:
            return pd.DataFrame()
        return pd.DataFrame({"measure": [what], "mean": [mean], "low": [T.overview_value(res, metric, "low")],
                             "high": [T.overview_value(res, metric, "high")]})
    return frame


def mean_chart(figure: str, metric: str, what: str, title: str, ylabel: str) -> AnswerChart:
    """The chart of a length answer: the mean the overview holds, with its interval, per bot."""
    return AnswerChart(figure, "overview", "measure", "mean", "low", "high", "points", "none", title, "",
                       ylabel, frame=overview_mean(metric, what))
