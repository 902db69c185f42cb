"""The report's figures, drawn with matplotlib's object API on the Agg canvas
(no pyplot, no global state; matplotlib is imported only when a figure is drawn).

Each ``fig_*`` takes the result tables and the manifest and returns a
``matplotlib.figure.Figure`` or ``None`` when the run has no data for it.
"""
from __future__ import annotations

import io

import numpy as np

from analyzer.report import text as T

# bots have a palette of their own, away from the colours of game pieces
BOT_COLORS = ["#34495e", "#d08c1f", "#2a9d8f", "#8d5a3b", "#6a6fd1", "#a3a33a", "#b5517a", "#3b7dbf",
              "#6b8e23", "#7f7f7f", "#c2703d", "#5e3c99"]
# the salt of bot_color's hash: chosen so that the built-in bots of each shipped game
# get distinct colours (a report shows one game; tests/report/test_rep_figures.py checks it)
COLOR_SALT = 113
NEUTRAL = "#4a4a4a"
GOOD, BAD, UNSURE = "#2a9d5c", "#c0392b", "#9e9e9e"
DPI = 110


def _figure(width: float, height: float, ncols: int = 1, **kw):
    from matplotlib.figure import Figure
    fig = Figure(figsize=(width, height), layout="constrained")
    axes = fig.subplots(1, ncols, **kw)
    return fig, axes


def png(fig) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    return buf.getvalue()


def _err(mid, low, high):
    mid, low, high = (np.asarray(x, float) for x in (mid, low, high))
    return np.vstack([np.nan_to_num(mid - low), np.nan_to_num(high - mid)])


def _pct_axis(ax, axis="y"):
    from matplotlib.ticker import FuncFormatter, PercentFormatter
    which = ax.yaxis if axis == "y" else ax.xaxis
    if which.get_scale() == "log":  # decades 100%, 10%, 1%, 0.1%, 0.01%: each with the digits it needs
        which.set_major_formatter(FuncFormatter(lambda v, _: f"{100 * v:.10g}%"))
        return
    # decimals=None: as many decimals as the tick spacing needs (0.5% steps are not all "0%" or "1%")
    which.set_major_formatter(PercentFormatter(1.0, decimals=None))


def _pp_axis(ax, axis="y"):
    """Tick labels in signed percentage points of a fraction axis, with as many
    decimals as the tick spacing needs (0.2 pp steps are not all "+0")."""
    import math

    from matplotlib.ticker import Formatter

    class PointsFormatter(Formatter):
        digits = 0

        def set_locs(self, locs):
            super().set_locs(locs)
            steps = [abs(b - a) for a, b in zip(locs[:-1], locs[1:]) if b != a]
            self.digits = max(0, -math.floor(math.log10(100 * min(steps)) + 1e-9)) if steps else 0
            # as many more as the ticks need to be printed exactly (2.5 pp steps are not "+2", "+5", "+8")
            while self.digits < 3 and any(abs(round(100 * v, self.digits) - 100 * v) > 1e-6 for v in locs):
                self.digits += 1

        def __call__(self, v, pos=None):
            text = f"{100 * v:+.{self.digits}f}"
            return "0" if float(text) == 0 else text

    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(PointsFormatter())


def bot_color(label: str) -> str:
    """One colour per bot label, the same in every report and figure (a hash of
    the label, not its position in a table)."""
    import zlib

    return BOT_COLORS[zlib.crc32(f"{COLOR_SALT}:{label}".encode()) % len(BOT_COLORS)]


def bot_colors(res) -> dict:
    bots = list(res["bots"]["bot"]) if len(res["bots"]) else []
    return {b: bot_color(b) for b in bots}


# ---------------------------------------------------------------------- figures


def fig_win_rates(res, manifest):
    seats = res["seats"]
    if not len(seats):
        return None
    colors = bot_colors(res)
    fig, ax = _figure(max(5.5, 1.2 * len(seats) + 2), 4)
    x = np.arange(len(seats))
    ax.bar(x, seats["win_rate"], color=[colors.get(b, NEUTRAL) for b in seats["bot"]],
           yerr=_err(seats["win_rate"], seats["win_low"], seats["win_high"]), capsize=4, ecolor="black")
    players = int(T.overview_value(res, "players") or 0)
    if players:
        ax.axhline(1 / players, color="black", linestyle="--", linewidth=1, label=f"equal share (1/{players})")
        ax.legend(loc="upper right", frameon=False)
    ax.set_xticks(x, [f"seat {s}\n{b}" for s, b in zip(seats["seat"], seats["bot"])])
    ax.set_ylabel(f"win rate (share of {T.unit(manifest)} won, 95% CI)")
    ax.set_xlabel("seat (1 moves first) and bot")
    _pct_axis(ax)
    ax.set_ylim(0, max(float(np.nanmax(seats["win_high"])) * 1.15, 0.05))
    ax.set_title("Win rate by seat and bot")
    return fig


def fig_seat_advantage(res, manifest):
    sa = res["seat_advantage"]
    if not len(sa):
        return None
    conf = T.confounded(res)
    colors = bot_colors(res)
    fig, ax = _figure(max(5.5, 1.1 * len(sa) + 2), 3.8)
    x = np.arange(len(sa))
    ax.bar(x, sa["advantage"], color=[colors.get(b, NEUTRAL) for b in sa["bot"]],
           yerr=_err(sa["advantage"], sa["advantage_low"], sa["advantage_high"]), capsize=4)
    ax.axhline(0, color="black", linewidth=0.8)
    labels = [f"seat {s}\n{b}" if conf else f"seat {s}" for s, b in zip(sa["seat"], sa["bot"])]
    ax.set_xticks(x, labels)
    ax.set_xlabel("seat (1 moves first)")
    ax.set_ylabel("win rate minus the average seat's\n(percentage points, 95% CI)")
    _pp_axis(ax)
    ax.set_title("Seat advantage" + (" (seat and bot confounded: one bot per seat)" if conf else ""),
                 fontsize=10 if conf else 12)
    return fig


def fig_scores(res, manifest):
    sd = res["score_distribution"]
    if not len(sd) or sd["player_races"].sum() == 0:
        return None
    colors = bot_colors(res)
    fig, ax = _figure(max(6, 1.2 * len(sd) + 2), 3.8)
    stats = [{"label": b, "med": r["q50"], "q1": r["q25"], "q3": r["q75"], "whislo": r["q05"],
              "whishi": r["q95"], "mean": r["mean"], "fliers": []} for b, (_, r) in zip(sd["bot"], sd.iterrows())]
    box = ax.bxp(stats, showmeans=True, patch_artist=True, widths=0.55,
                 meanprops={"marker": "D", "markerfacecolor": "white", "markeredgecolor": "black", "markersize": 5},
                 medianprops={"color": "black"})
    for patch, b in zip(box["boxes"], sd["bot"]):
        patch.set_facecolor(colors.get(b, "#cfcfcf"))
        patch.set_alpha(0.75)
    ax.set_ylabel("final score (points)")
    ax.set_xlabel("bot (box: 25–75%, whiskers: 5–95%, diamond: mean)")
    ax.grid(axis="y", alpha=0.3)
    ax.set_title("Score spread per bot")
    return fig


def bot_groups(df, column: str = "bot") -> list:
    """The per-bot groups of a table that also has an 'all' row set, or just 'all'."""
    bots = [b for b in df[column].unique() if b != "all"]
    return bots if bots else ["all"]


def bars_per_bot(res, df, key: str, panels) -> tuple[list, np.ndarray, list]:
    """Side-by-side bars per bot group at each value of ``key``, one axis per
    ``(ax, mean, low, high)`` in ``panels``: ``(groups, x, key values)``."""
    groups = bot_groups(df)
    colors = bot_colors(res)
    values = sorted(df[key].unique())
    width = 0.8 / len(groups)
    x = np.arange(len(values))
    for k, g in enumerate(groups):
        d = df[df["bot"] == g].set_index(key).reindex(values)
        color = colors.get(g, NEUTRAL) if g != "all" else NEUTRAL
        off = (k - (len(groups) - 1) / 2) * width
        for ax, mean, low, high in panels:
            ax.bar(x + off, d[mean], width, color=color, label=g, yerr=_err(d[mean], d[low], d[high]), capsize=2)
    return groups, x, values


def race_length_figure(res, what: str):
    """The histogram of the ``race_length`` table (``turns``, ``share``,
    ``cumulative_share``) with its mean and median; ``what`` names the unit of
    length on the x axis."""
    rl = res["race_length"]
    if not len(rl) or rl["races"].sum() == 0:
        return None
    fig, ax = _figure(8, 3.8)
    ax.bar(rl["turns"], rl["share"], width=0.9, color="#5b7fa6")
    mean = T.overview_value(res, "race_length_mean")
    median = T.race_length_spread(res)["median"]
    ax.axvline(mean, color="black", linestyle="--", linewidth=1, label=f"mean {mean:.1f}")
    ax.axvline(median, color="#d08c1f", linestyle=":", linewidth=1.5, label=f"median {median}")
    ax.set_xlabel(f"race length ({what})")
    ax.set_ylabel("share of races")
    _pct_axis(ax)
    ax.legend(frameon=False)
    ax.set_title("Race length")
    return fig


# the figures every game's report shows first: (key, title, draw, takeaway)
COMMON_FIGURES = [
    ("win_rates", "Win rates", fig_win_rates, T.win_rates),
    ("seat_advantage", "Seat advantage", fig_seat_advantage, T.seat_advantage),
]
SCORE_FIGURE = ("scores", "Luck and skill: score spread", fig_scores, T.luck_skill)


def render_all(figures, res: dict, manifest: dict) -> list[dict]:
    """Every figure of ``figures`` with data: ``{key, title, takeaway, png}``. A draw
    may return ``(figure, rows)``: the rows it plots become the figure's source
    data (``data``, written beside the report as ``<key>.csv``)."""
    out = []
    for key, title, draw, takeaway in figures:
        fig = draw(res, manifest)
        fig, data = fig if isinstance(fig, tuple) else (fig, None)
        if fig is None:
            continue
        out.append({"key": key, "title": title, "takeaway": takeaway(res), "png": png(fig),
                    **({"data": data} if data is not None else {})})
    return out
