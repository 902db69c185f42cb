"""The sweep report: lines and heat maps of a sweep's headline numbers against
its swept settings (one HTML page, PNG figures and the table as CSV beside it).
Knows no game: it reads the columns of ``sweep.parquet``."""
from __future__ import annotations

import html
from pathlib import Path

import numpy as np

from analyzer.report.figures import _figure, png
from analyzer.engine.output import check_page, files_dir, utf8_text, write_page
from analyzer.stats.flags import MIN_EFFECT

SETTINGS = ("players", "board", "bots", "seed")


def swept(df) -> list[str]:
    """The settings that take more than one value in the sweep."""
    names = list(SETTINGS) + [c for c in df.columns if c.startswith(("param.", "rule."))]
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


def _bounds(df, metric: str) -> tuple[str, str] | None:
    """The columns of a metric's interval (``bot.X.win_low`` / ``win_high``), None without."""
    if not metric.endswith("win_rate"):
        return None
    low, high = metric[:-len("win_rate")] + "win_low", metric[:-len("win_rate")] + "win_high"
    return (low, high) if low in df.columns and high in df.columns else None


def metric_scale(df, metric: str):
    """How a headline column prints, from the question it measures: a win rate as a
    share, the length in the game's own steps (its ``length`` question's scale), else
    None (three significant figures)."""
    from analyzer.stats.evidence import PERCENT

    if metric.endswith("win_rate") or metric.endswith("_share"):
        return PERCENT
    if "turns" in metric and "mean" in metric:
        from analyzer.errors import AnalyzerError
        from analyzer.games import questions_for

        try:
            q = questions_for(str(df["game"].iloc[0])).get("length")
        except (AnalyzerError, KeyError):
            q = None
        return q.scale if q is not None else None
    return None


def metric_text(df, metric: str, row) -> str:
    """A cell's value of a headline column in its unit ("26.8% (25.1–28.6%)", "45.4 turns")."""
    from analyzer.report.text import pct_ci

    bounds = _bounds(df, metric)
    if bounds is not None:
        return pct_ci(row[metric], row[bounds[0]], row[bounds[1]])
    scale = metric_scale(df, metric)
    return scale.value(float(row[metric])) if scale is not None else f"{row[metric]:.3g}"


def _line_figure(df, metric: str, x: str, group: list[str]):
    fig, ax = _figure(6.0, 3.4)
    keys = df[group].drop_duplicates().itertuples(index=False) if group else [()]
    for key in keys:
        mask = np.ones(len(df), bool)
        for g, v in zip(group, key):
            mask &= (df[g] == v).to_numpy()
        part = df[mask].sort_values(x)
        bounds = _bounds(df, metric)
        label = ", ".join(f"{g} {v}" for g, v in zip(group, key)) or metric
        line, = ax.plot(part[x], part[metric], marker="o", label=label)
        if bounds is not None:
            ax.fill_between(part[x], part[bounds[0]], part[bounds[1]], color=line.get_color(), alpha=0.2)
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


# ---------------------------------------------------------------------- scorecard


def _seat_bots(row) -> list[str]:
    """The bot of each seat of a cell, from its ``seat<k>.bot`` columns."""
    seats = sorted((int(c[4:-4]), c) for c in row.index if c.startswith("seat") and c.endswith(".bot")
                   and isinstance(row[c], str))
    return [row[c] for _, c in seats]


def _cell_name(row, axes: list[str]) -> str:
    return "cell " + str(row["cell"]) + (f" ({', '.join(f'{a} {row[a]}' for a in axes)})" if axes else "")


def _cell_manifest(row) -> dict:
    """A cell as a run's manifest, enough for ``scorecard.replay_command``."""
    board = row.get("board")
    # "default" is the sweep file's word for the game's own board (sweep.DEFAULT_BOARD); any other board is a
    # path as the sweep file names it, from its folder
    board = None if board == "default" else board
    return {"game": row["game"], "unit": row["unit"], "players": int(row["players"]), "seed": row["seed"],
            row["unit"]: int(row["count"]), "bots": [{"seat": i + 1, "bot": b} for i, b in enumerate(_seat_bots(row))],
            "data": [{"source": board, "assumed": False}] if isinstance(board, str) and board else []}


def _bot_wins(row, bot: str) -> tuple[int, int]:
    """(wins, seat-units) of ``bot`` in a cell, its seats pooled."""
    trials = int(row["count"]) * _seat_bots(row).count(bot)
    return int(round(float(row[f"bot.{bot}.win_rate"]) * trials)), trials


def scorecard_of(df, min_effect: float = MIN_EFFECT):
    """The sweep's scorecard (``report/scorecard.py``): per bot, whether the swept settings
    change its win rate against an equal share (1 / players), every two cells compared on
    Newcombe's interval at a simultaneous 95% (Bonferroni over the pairs, the cells played
    apart) against ``min_effect``; with one bot in every seat of each cell, whether seat 1
    wins more than an equal share in any cell (Wilson, simultaneous over the cells). Warnings:
    per cell, a bot that never wins or wins nearly all (``scorecard.never_wins``,
    ``scorecard.wins_almost_all``), with the cell's replay command."""
    import pandas as pd

    from analyzer.report.scorecard import MAX_ITEMS, ScoreWarning, never_wins, verdict_item, wins_almost_all
    from analyzer.stats.evidence import any_of, verdict
    from dataclasses import replace

    from analyzer.stats.flags import simultaneous_z
    from analyzer.stats.intervals import rate_difference, wilson
    from analyzer.stats.questions import FIRST_SEAT, Direction

    axes = swept(df)
    rows = [r for _, r in df.iterrows()]
    unit = str(df["unit"].iloc[0])
    players = sorted({int(p) for p in df["players"]})
    holds = f"{', '.join(map(str, players))} players; {len(rows)} cells of {int(df['count'].iloc[0]):,} {unit}"
    setting = f"the sweep ({', '.join(axes)})" if axes else "the sweep"
    items = []
    for col in (c for c in df.columns if c.startswith("bot.") and c.endswith(".win_rate")):
        bot = col[4:-9]
        cells = [(r, *_bot_wins(r, bot)) for r in rows if pd.notna(r[col]) and _bot_wins(r, bot)[1] > 0]
        pairs = [(a, b) for i, a in enumerate(cells) for b in cells[i + 1:]]
        if not pairs:
            continue
        z = simultaneous_z(len(pairs))
        verdicts = []
        for (ra, ka, na), (rb, kb, nb) in pairs:
            if ka / na - 1 / ra["players"] < kb / nb - 1 / rb["players"]:
                (ra, ka, na), (rb, kb, nb) = (rb, kb, nb), (ra, ka, na)
            d, low, high = rate_difference(ka, na, kb, nb, z)
            shift = 1 / ra["players"] - 1 / rb["players"]  # compared as edges over an equal share
            verdicts.append(verdict(float(d - shift), float(low - shift), float(high - shift), min_effect,
                                    int(ra["count"]), what=f"{bot}'s win rate over an equal share (1 / players), "
                                         f"{_cell_name(ra, axes)} minus {_cell_name(rb, axes)}",
                                    unit=unit, level="simultaneous 95% CI"))
        v = any_of(verdicts, "one cell against another")
        moved = Direction(f"{bot.upper()}'S WIN RATE", f"THE SWEEP MOVES {bot.upper()}'S WIN RATE",
                          f"THE SWEEP MOVES {bot.upper()}'S WIN RATE", f"{bot.upper()}'S WIN RATE STEADY within {{bound}}",
                          f"{bot} wins more often, over an equal share, in one cell than in another")
        items.append((v, f"Does {setting} change how often {bot} wins?", f"metric-{_slug(col)}",
                      f"{bot}, wherever it sits", moved))
    one_bot = all(len(set(_seat_bots(r))) == 1 for r in rows)
    if one_bot and "seat1.win_rate" in df.columns:
        z = simultaneous_z(len(rows))
        verdicts = []
        for r in rows:
            k, n = int(round(float(r["seat1.win_rate"]) * int(r["count"]))), int(r["count"])
            low, high = wilson(k, n, z)
            fair = 1 / r["players"]
            verdicts.append(verdict(k / n - fair, float(low) - fair, float(high) - fair, min_effect, n,
                                    what=f"{_cell_name(r, axes)}: seat 1 against 1 in {int(r['players'])}", unit=unit,
                                    level="simultaneous 95% CI"))
        items.append((any_of(verdicts, "seat 1's win rate over an equal share"), "Is seat 1 favoured in any cell?",
                      "metric-seat1-win_rate", "one bot in every seat of each cell",
                      replace(FIRST_SEAT, versus="over an equal share")))
    card = [verdict_item(v, q, anchor, f"{who}; {holds}", direction, unit_word=unit)
            for v, q, anchor, who, direction in items[:MAX_ITEMS]]
    warns = []
    for r in rows:
        m = _cell_manifest(r)
        seats = _seat_bots(r)
        bots = pd.DataFrame([{"bot": b, "seats": ",".join(str(i + 1) for i, x in enumerate(seats) if x == b),
                              f"player_{unit}": _bot_wins(r, b)[1], "wins": _bot_wins(r, b)[0]}
                             for b in dict.fromkeys(seats) if f"bot.{b}.win_rate" in r])
        where = " (from the sweep file's folder)" if m["data"] else ""
        for w in never_wins({"bots": bots}, m) + wins_almost_all({"bots": bots}, m):
            warns.append(ScoreWarning(f"{_cell_name(r, axes).capitalize()}: {w.seen}", w.meaning, w.check + where))
    return card, warns


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() or c == "_" else "-" for c in name)


def write_sweep_report(df, title: str, out: Path) -> Path:
    """The report of a sweep table at ``out`` (HTML, figures embedded, the scorecard
    first); the figures as PNG and the table as CSV in ``out``'s ``_files`` folder,
    written as every report is (engine/output.py)."""
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
    from analyzer.report import scorecard
    from analyzer.report.html import CSS, figure_html, table

    parts.insert(2, scorecard.render_html(*scorecard_of(df)))
    files = {}
    metrics = headline(df)
    for metric in metrics:  # a section per headline number: its value per cell, then its figures
        parts.append(f'<h2 id="metric-{_slug(metric)}">{html.escape(metric)}</h2>')
        parts.append(table(["cell"] + axes + [metric], [[r["cell"]] + [r[a] for a in axes] + [metric_text(df, metric, r)]
                                                         for _, r in df.iterrows() if r.notna()[metric]]))
        figures = []
        if numeric:
            x = numeric[0]
            figures.append(("line", f"{metric} against {x}", _line_figure(df, metric, x, [a for a in axes if a != x])))
        if len(axes) >= 2:
            figures.append(("heat", f"{metric} by {axes[1]} and {axes[0]}", _heat_figure(df, metric, axes[1], axes[0])))
        for kind, title, fig in figures:  # embedded, as every report's figures: the page opens offline
            name = f"{kind}-{len(files)}"
            files[f"{name}.png"] = png(fig)
            parts.append(figure_html({"key": name, "title": title, "takeaway": "", "png": files[f"{name}.png"]}))
    files["sweep.csv"] = df.to_csv(index=False)
    link = html.escape(utf8_text(folder.name))  # the page is UTF-8: its link too
    parts.append(f'<p>Every cell and column: <a href="{link}/sweep.csv">sweep.csv</a></p>')
    page = ("<!doctype html><html lang=en><head><meta charset=utf-8>"
            '<meta name="viewport" content="width=device-width, initial-scale=1"><title>'
            + html.escape(title) + f"</title><style>{CSS}{scorecard.CSS}</style></head><body>\n" + "\n".join(parts)
            + "\n</body></html>\n")
    return write_page(out, "sweep.html", files, page, "the sweep report")
