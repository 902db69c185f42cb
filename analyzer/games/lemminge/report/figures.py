"""Lemminge's figures (matplotlib object API on the Agg canvas, like
``analyzer/report/figures.py``): each takes the result tables and the manifest
and returns a Figure, or None when the run has no data for it. The heat map
draws the map as hexes (odd-r: odd rows half a hex to the right)."""
from __future__ import annotations

import numpy as np

from analyzer.report.figures import NEUTRAL, _err, _figure, _pct_axis
from analyzer.report.text import overview_value

TERRAIN_COLORS = {"forest": "#2e7d32", "desert": "#e0b84a", "mountain": "#8d8d8d", "water": "#3a7bd5",
                  "swamp": "#6d5a3b", "meadow": "#b9e08a", "start": "#ffffff", "finish": "#ffffff"}
MIN_MOVES = 200


def fig_column_value(res, manifest):
    cv = res["column_value"]
    cv = cv[cv["moves"] >= MIN_MOVES] if len(cv) else cv
    if not len(cv):
        return None
    fig, ax = _figure(8, 4)
    x = cv["column_sum_before"]
    ax.plot(x, cv["movement"], "o-", color=NEUTRAL, label="movement the card gives")
    ax.errorbar(x, cv["progress"], yerr=_err(cv["progress"], cv["progress_low"], cv["progress_high"]),
                fmt="s-", color="#2a9d8f", capsize=2, label="hexes gained (95% CI)")
    ax.set_xlabel("column sum before the card")
    ax.set_ylabel("hexes")
    ax.grid(alpha=0.3)
    ax.legend(frameon=False)
    ax.set_title("A card on its column: movement and progress by the column's sum")
    return fig


def fig_new_column(res, manifest):
    nc = res["new_column"]
    if not len(nc):
        return None
    fig, ax = _figure(7, 4)
    x = np.arange(len(nc))
    w = 0.38
    ax.bar(x - w / 2, nc["new_progress"], w, yerr=_err(nc["new_progress"], nc["new_low"], nc["new_high"]),
           color="#d08c1f", capsize=2, label="starts a new column")
    ax.bar(x + w / 2, nc["on_progress"], w, yerr=_err(nc["on_progress"], nc["on_low"], nc["on_high"]),
           color="#34495e", capsize=2, label="joins its column")
    ax.set_xticks(x, [str(int(v)) for v in nc["value"]])
    ax.set_xlabel("card value")
    ax.set_ylabel("hexes gained (mean, 95% CI)")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(frameon=False)
    ax.set_title("Starting a new column or joining one")
    return fig


def fig_pushes(res, manifest):
    pu = res["pushes"]
    if not len(pu):
        return None
    fig, (a1, a2) = _figure(10, 4, ncols=2)
    x = pu["pushes"].astype(int)
    a1.bar(x, pu["share"], color="#5b7fa6")
    a1.set_yscale("log")
    a1.set_xlabel("lemmings pushed by the move")
    a1.set_ylabel("share of moves (log scale)")
    _pct_axis(a1)
    a1.set_title("How often moves push")
    gained = -pu["setback"]  # 0 or more: no push goes backwards
    a2.errorbar(x, gained, yerr=_err(gained, -pu["setback_high"], -pu["setback_low"]), fmt="o-",
                color="#c0392b", capsize=2, label="distance the pushed gained")
    a2.errorbar(x, pu["progress"], yerr=_err(pu["progress"], pu["progress_low"], pu["progress_high"]), fmt="s-",
                color="#2a9d8f", capsize=2, label="progress of the mover")
    a2.set_xlabel("lemmings pushed by the move")
    a2.set_ylabel("finish distance gained (hexes, 95% CI)")
    a2.grid(alpha=0.3)
    a2.legend(frameon=False)
    a2.set_title("What a push does to the pushed and the mover")
    return fig


def fig_tiles(res, manifest):
    t = res["tiles"]
    if not len(t) or t["tiles_placed_on"].sum() == 0:
        return None
    fig, (a1, a2) = _figure(10, 3.8, ncols=2)
    colors = [TERRAIN_COLORS.get(n, NEUTRAL) for n in t["terrain"]]
    a1.bar(t["terrain"], t["tiles_placed_share"], color=colors, edgecolor="black", linewidth=0.5)
    _pct_axis(a1)
    a1.set_ylabel("share of tiles")
    a1.set_title("Printed terrain under the tiles placed")
    cols = t[t["terrain"] != "meadow"]
    share = cols["new_columns"] / cols["cards_played"].clip(lower=1)
    a2.bar(cols["terrain"], share, color=[TERRAIN_COLORS[n] for n in cols["terrain"]], edgecolor="black",
           linewidth=0.5)
    _pct_axis(a2)
    a2.set_ylabel("cards that start a new column")
    a2.set_title("New columns (and tiles earned) by terrain")
    return fig


def fig_hexes(res, manifest):
    hx = res["hexes"]
    if not len(hx) or hx["entered"].sum() == 0:
        return None
    from matplotlib import cm, colormaps
    from matplotlib.colors import Normalize
    from matplotlib.patches import RegularPolygon

    fig, (a1, a2) = _figure(12, 5.2, ncols=2)
    r = 1 / np.sqrt(3)
    for ax, column, title in ((a1, "entered_per_game", "Hexes entered per game"),
                              (a2, "tiles_placed", "Tiles placed (whole run)")):
        values = hx[column].to_numpy(float)
        norm = Normalize(0, max(values.max(), 1e-9))
        cmap = colormaps["magma_r"]
        for (_, h), v in zip(hx.iterrows(), values):
            cx = h["x"] + (0.5 if int(h["y"]) % 2 else 0.0)
            cy = -h["y"] * 1.5 * r
            special = h["terrain"] in ("start", "finish")
            face = "#ffffff" if special else cmap(norm(v))
            edge = "#9e9e9e" if special else TERRAIN_COLORS.get(h["terrain"], NEUTRAL)
            ax.add_patch(RegularPolygon((cx, cy), 6, radius=r, orientation=0, facecolor=face, edgecolor=edge,
                                        linewidth=1.6))
            if special:
                ax.text(cx, cy, "A" if h["terrain"] == "start" else "Z", ha="center", va="center", fontsize=7)
        ax.set_xlim(hx["x"].min() - 1, hx["x"].max() + 1.5)
        ax.set_ylim(-(hx["y"].max() + 1) * 1.5 * r, 1.5 * r)
        ax.set_aspect("equal")
        ax.axis("off")
        ax.set_title(title + " (outline: printed terrain)")
        fig.colorbar(cm.ScalarMappable(norm=norm, cmap=cmap), ax=ax, shrink=0.7)
    return fig


def fig_game_length(res, manifest):
    gl = res["game_length"]
    if not len(gl):
        return None
    fig, ax = _figure(8, 3.8)
    ax.bar(gl["turns"], gl["share"], width=1.0, color="#5b7fa6")
    mean = overview_value(res, "game_length_mean")
    ax.axvline(mean, color="black", linestyle="--", linewidth=1, label=f"mean {mean:.1f}")
    ax.set_xlabel("game length (turns, refills included)")
    ax.set_ylabel("share of games")
    _pct_axis(ax)
    ax.legend(frameon=False)
    ax.set_title("Game length")
    return fig
