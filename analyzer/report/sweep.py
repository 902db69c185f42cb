"""The sweep report: lines and heat maps of a sweep's headline numbers against
its swept settings (one HTML page, PNG figures and the table as CSV beside it).
Knows no game: it reads the columns of ``sweep.parquet``."""
from __future__ import annotations

import html
from pathlib import Path

import numpy as np

from analyzer.report.figures import _figure, png
from analyzer.engine.output import check_page, files_dir, write_page

SETTINGS = ("players", "board", "bots", "seed")


def swept(df) -> list[str]:
    """The settings that take more than one value in the sweep."""
    names = list(SETTINGS) + [c for c in df.columns if c.startswith("param.")]
    axes = [c for c in names if c in df.columns and df[c].nunique() > 1]
    if "bots" in axes and "players" in axes and df.groupby("players")["bots"].nunique().max() == 1:
        axes.remove("bots")  # the bots follow the player count (a default table per count): not an axis
    return axes


def headline(df) -> list[str]:
    """Win rate per bot (seats pooled), then per seat, then the length."""
    bots = [c for c in df.columns if c.startswith("bot.") and c.endswith(".win_rate")]
    seats = [c for c in df.columns if c.startswith("seat") and c.endswith(".win_rate")]
    length = [c for c in df.columns if "turns" in c and "mean" in c and "sd" not in c][:1]
    return bots + seats + length


def _line_figure(df, metric: str, x: str, group: list[str]):
    fig, ax = _figure(6.0, 3.4)
    keys = df[group].drop_duplicates().itertuples(index=False) if group else [()]
    for key in keys:
        mask = np.ones(len(df), bool)
        for g, v in zip(group, key):
            mask &= (df[g] == v).to_numpy()
        part = df[mask].sort_values(x)
        low, high = metric.replace("win_rate", "win_low"), metric.replace("win_rate", "win_high")
        label = ", ".join(f"{g} {v}" for g, v in zip(group, key)) or metric
        line, = ax.plot(part[x], part[metric], marker="o", label=label)
        if metric.endswith("win_rate") and low in df.columns and high in df.columns:
            ax.fill_between(part[x], part[low], part[high], color=line.get_color(), alpha=0.2)
    ax.set_xlabel(x)
    if df[x].dtype.kind in "iu":
        ax.set_xticks(sorted(df[x].unique()))
    ax.set_ylabel(metric)
    ax.set_title(f"{metric} against {x}")
    ax.legend(fontsize=7)
    return fig


def _heat_figure(df, metric: str, rows: str, cols: str):
    import pandas as pd

    table = df.pivot_table(index=rows, columns=cols, values=metric, aggfunc="mean")
    table = table.reindex(index=pd.unique(df[rows]), columns=pd.unique(df[cols]))  # the file's order
    fig, ax = _figure(6.0, 0.5 + 0.45 * len(table.index) + 1.5)
    im = ax.imshow(table.to_numpy(dtype=float), aspect="auto", cmap="viridis")
    ax.set_xticks(range(len(table.columns)), [str(c) for c in table.columns], fontsize=7)
    ax.set_yticks(range(len(table.index)), [str(i) for i in table.index], fontsize=7)
    ax.set_xlabel(cols)
    ax.set_ylabel(rows)
    for (i, j), v in np.ndenumerate(table.to_numpy(dtype=float)):
        ax.text(j, i, f"{v:.3g}", ha="center", va="center", fontsize=7, color="white")
    fig.colorbar(im, ax=ax)
    ax.set_title(metric)
    return fig


def write_sweep_report(df, title: str, out: Path) -> Path:
    """The report of a sweep table at ``out`` (HTML); figures in ``out``'s ``_files``
    folder, written as every report is (engine/output.py)."""
    folder = files_dir(check_page(out, "sweep.html", "the sweep report"))
    axes = swept(df)
    from pandas.api.types import is_numeric_dtype

    numeric = [a for a in axes if is_numeric_dtype(df[a])]
    parts = [f"<h1>{html.escape(title)}</h1>",
             f"<p>{len(df)} cells of {html.escape(str(df['game'].iloc[0]))}, {int(df['count'].iloc[0]):,} "
             f"{html.escape(str(df['unit'].iloc[0]))} each; swept: {html.escape(', '.join(axes) or 'nothing')}.</p>"]
    data = [c for c in df.columns if c.endswith("_name") or c.endswith("_assumed")]
    for c in (c for c in data if c.endswith("_name")):
        part = c[:-5]
        used = df[[c, f"{part}_assumed"]].drop_duplicates() if f"{part}_assumed" in df.columns else df[[c]]
        names = "; ".join(f"{r[0]} ({'ASSUMED reconstruction' if len(r) > 1 and r[1] else 'user-supplied'})"
                          for r in used.itertuples(index=False))
        parts.append(f"<p>{html.escape(part)}: {html.escape(names)}</p>")
    figures = []
    metrics = headline(df)
    if numeric:
        x = numeric[0]
        group = [a for a in axes if a != x]
        for metric in metrics:
            figures.append((f"line-{len(figures)}.png", _line_figure(df, metric, x, group)))
    if len(axes) >= 2:
        for metric in metrics:
            figures.append((f"heat-{len(figures)}.png", _heat_figure(df, metric, axes[1], axes[0])))
    files = {}
    for name, fig in figures:
        files[name] = png(fig)
        parts.append(f'<img src="{html.escape(folder.name)}/{name}" style="max-width:100%">')
    files["sweep.csv"] = df.to_csv(index=False)
    parts.append(f'<p>Every cell and column: <a href="{html.escape(folder.name)}/sweep.csv">sweep.csv</a></p>')
    page = ("<!doctype html><meta charset=utf-8>"
            '<meta name="viewport" content="width=device-width, initial-scale=1"><title>'
            + html.escape(title) + "</title>\n" + "\n".join(parts) + "\n")
    return write_page(out, "sweep.html", files, page, "the sweep report")
