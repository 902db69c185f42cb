"""Sau Mau Mau's figures (matplotlib object API on the Agg canvas, like
``analyzer/report/figures.py``): each takes the result tables and the manifest
and returns a Figure, or None when the run has no data for it."""
from __future__ import annotations

import numpy as np

from analyzer.report.figures import (
    NEUTRAL, _err, _figure, _pct_axis, bars_per_bot, bot_colors, bot_groups, race_length_figure,
)
from analyzer.games.sau_mau_mau.report import text as T
from analyzer.report.text import ordinal, overview_value

PIG_COLORS = {"pink": "#f08cb4", "brown": "#8b5a2b", "black": "#262626", "beige": "#e3d3a8"}
END_COLORS = {"crown": "#d4a017", "hand": "#2a9d8f", "both": "#7b3fa0", "cap": "#9e9e9e"}
SOURCE_COLORS = {"bet": "#34495e", "crown": "#d4a017", "hand": "#2a9d8f"}
KIND_COLORS = {"all": NEUTRAL, "first": "#34495e", "changed": "#d08c1f"}


def fig_queue_position(res, manifest):
    qp = res["queue_position"]
    if not len(qp) or qp["bets"].sum() == 0:
        return None
    fig, (a1, a2) = _figure(10, 4, ncols=2)
    groups, x, positions = bars_per_bot(res, qp, "queue_position",
                                        [(a1, "mean_points", "points_low", "points_high"),
                                         (a2, "win_share", "win_low", "win_high")])
    for ax in (a1, a2):
        ax.set_xticks(x, [ordinal(int(p)) for p in positions])
        ax.set_xlabel("place in the bet queue at the end of the race")
        ax.grid(axis="y", alpha=0.3)
    a1.set_ylabel("points per bet (mean, 95% CI)")
    a2.set_ylabel("share of bets on a winning pig (95% CI)")
    _pct_axis(a2)
    a1.set_title("Points a bet earns by queue place")
    a2.set_title("Bets on a winning pig by queue place")
    if len(groups) > 1:
        a1.legend(loc="upper right", frameon=False, fontsize=8)
    return fig


def fig_bet_timing(res, manifest):
    st = res["bet_stage"]
    st = st[st["bets"] >= T.MIN_CELL]
    if not len(st):
        return None
    ch = res["bet_changes"]
    fig, (a1, a2) = _figure(11, 4, ncols=2, gridspec_kw={"width_ratios": [3, 2]})
    for kind in ("first", "changed"):
        d = st[st["kind"] == kind]
        if not len(d):
            continue
        x = (d["stage_from"] + d["stage_to"]) / 2 * 100 + (0.8 if kind == "changed" else -0.8)  # apart
        a1.errorbar(x, d["mean_points"], yerr=_err(d["mean_points"], d["points_low"], d["points_high"]),
                    color=KIND_COLORS[kind], marker="o" if kind == "first" else "s", markersize=3, capsize=2,
                    label=f"{kind} bets")
    a1.set_xlabel("share of the race's turns made when the bet was laid (%)")
    a1.set_ylabel("points per bet (mean, 95% CI)")
    a1.set_title("When the bet was laid")
    a1.grid(alpha=0.3)
    a1.legend(loc="upper right", frameon=False)
    ch = ch[(ch["first_bets"] > 0) | (ch["changed_bets"] > 0)] if len(ch) else ch
    if len(ch):
        y = np.arange(len(ch))[::-1]
        h = 0.38
        for off, kind in ((h / 2, "first"), (-h / 2, "changed")):
            a2.barh(y + off, ch[f"{kind}_points"], h, color=KIND_COLORS[kind], label=f"{kind} bets",
                    xerr=_err(ch[f"{kind}_points"], ch[f"{kind}_points_low"], ch[f"{kind}_points_high"]), capsize=2)
        a2.set_yticks(y, list(ch["bot"]))
        a2.set_xlim(0, float(np.nanmax(ch[["first_points_high", "changed_points_high"]].to_numpy(float))) * 1.45)
        a2.set_xlabel("points per bet (mean, 95% CI)")
        a2.set_title("First bets against changed bets")
        a2.grid(axis="x", alpha=0.3)
        a2.legend(loc="lower right", frameon=False, fontsize=8)
    else:
        a2.set_axis_off()
    fig.suptitle("What the bots' bets earned, by timing and by changing (hindsight)")
    return fig


def _stacked_ends(ax, df, key, label):
    keys = list(df[key].unique())
    x = np.arange(len(keys))
    bottom = np.zeros(len(keys))
    for end in T.END_NAMES:
        d = df[df["end"] == end].set_index(key).reindex(keys)
        share = d["share"].fillna(0).to_numpy(float)
        if not share.any():
            continue
        ax.bar(x, share, bottom=bottom, color=END_COLORS[end], label=end, width=0.6)
        for i, (s, b) in enumerate(zip(share, bottom)):
            if s >= 0.06:
                ax.text(i, b + s / 2, f"{100 * s:.0f}%", ha="center", va="center", fontsize=8,
                        color="white" if end != "crown" else "black")
        bottom += share
    ax.set_xticks(x, [str(k) for k in keys])
    ax.set_xlabel(label)
    ax.set_ylim(0, 1)
    _pct_axis(ax)


def fig_race_ends(res, manifest):
    bp, br = res["ends_by_players"], res["ends_by_race"]
    if not len(br) or br["races"].sum() == 0:
        return None
    ratios = [bp["players"].nunique() + 1 if len(bp) else 1, 5]
    fig, (a1, a2) = _figure(10, 4, ncols=2, sharey=True, gridspec_kw={"width_ratios": ratios})
    _stacked_ends(a1, bp, "players", "players")
    _stacked_ends(a2, br, "race", "race of the game")
    a1.set_ylabel("share of races")
    a1.set_title("By player count")
    a2.set_title("By race number")
    handles, labels = a2.get_legend_handles_labels()
    fig.legend(handles, [T.END_NAMES[x] for x in labels], loc="outside lower center", ncols=4, frameon=False,
               fontsize=8)
    fig.suptitle("How races end")
    return fig


def fig_first_player(res, manifest):
    fp = res["first_player"]
    if not len(fp) or fp["races"].sum() == 0:
        return None
    seats, _ = T._by_seat(res)
    if T._confounded_start(res) and len(seats):
        return _first_player_by_seat(res)
    labels = [str(r) for r in fp["race"]]
    x = np.arange(len(fp))
    fig, (a1, a2) = _figure(10, 3.8, ncols=2)
    colors = ["#5b7fa6" if lab != "all" else NEUTRAL for lab in labels]
    a1.bar(x, fp["advantage"], color=colors, yerr=_err(fp["advantage"], fp["advantage_low"], fp["advantage_high"]),
           capsize=4)
    a1.axhline(0, color="black", linewidth=0.8)
    a1.set_xticks(x, labels)
    a1.set_xlabel("race of the game")
    a1.set_ylabel("race points: starting seat minus\nthe others' mean (paired, 95% CI)")
    a1.set_title("Race points of the starting seat")
    a2.bar(x, fp["ended_by_first"], color=colors,
           yerr=_err(fp["ended_by_first"], fp["ended_by_first_low"], fp["ended_by_first_high"]), capsize=4)
    players = overview_value(res, "players")
    if players:
        a2.axhline(1 / players, color="black", linestyle="--", linewidth=1, label=f"equal share (1/{int(players)})")
        a2.legend(loc="upper right", frameon=False, fontsize=8)
    a2.set_xticks(x, labels)
    a2.set_xlabel("race of the game")
    a2.set_ylabel("share of races the starting seat ends (95% CI)")
    _pct_axis(a2)
    a2.set_title("Races ended by the starting seat")
    for ax in (a1, a2):
        ax.grid(axis="y", alpha=0.3)
    return fig


def _first_player_by_seat(res):
    """Seats with bots of their own: each seat in the races it starts against itself in the others."""
    bs = res["first_player_by_seat"]
    colors = bot_colors(res)
    labels = [f"seat {s}\n{b}" if str(s) != "all" else "all" for s, b in zip(bs["seat"], bs["bot"])]
    bar_colors = [colors.get(b, NEUTRAL) for b in bs["bot"]]
    x = np.arange(len(bs))
    fig, (a1, a2) = _figure(10, 3.8, ncols=2)
    a1.bar(x, bs["difference"], color=bar_colors,
           yerr=_err(bs["difference"], bs["difference_low"], bs["difference_high"]), capsize=4)
    a1.axhline(0, color="black", linewidth=0.8)
    a1.set_xticks(x, labels)
    a1.set_ylabel("race points: races it starts minus\nraces it does not (95% CI)")
    a1.set_title("A seat's race points when it starts")
    a2.bar(x - 0.2, bs["ended_starting"], 0.4, color=bar_colors, label="races it starts")
    a2.bar(x + 0.2, bs["ended_other"], 0.4, color=bar_colors, alpha=0.45, hatch="//", label="the other races")
    a2.set_xticks(x, labels)
    a2.set_ylabel("share of races the seat ends")
    _pct_axis(a2)
    a2.legend(loc="upper right", frameon=False, fontsize=8)
    a2.set_title("Races a seat ends")
    for ax in (a1, a2):
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle("Starting a race (each seat runs its own bot: each seat against itself)", fontsize=11)
    return fig


def fig_pigs(res, manifest):
    pg = res["pigs"]
    if not len(pg) or pg["wins"].sum() == 0:
        return None
    fig, ax = _figure(7, 3.8)
    x = np.arange(len(pg))
    colors = [PIG_COLORS.get(p, NEUTRAL) for p in pg["pig"]]
    ax.bar(x - 0.2, pg["win_share"], 0.4, color=colors, edgecolor="black", linewidth=0.6,
           yerr=_err(pg["win_share"], pg["win_low"], pg["win_high"]), capsize=3, label="among the winners")
    ax.bar(x + 0.2, pg["crown_share"], 0.4, color=colors, edgecolor="black", linewidth=0.6, hatch="//", alpha=0.6,
           yerr=_err(pg["crown_share"], pg["crown_low"], pg["crown_high"]), capsize=3, label="reached the crown")
    fair = pg["win_share"].mean()
    ax.axhline(fair, color="black", linestyle="--", linewidth=1, label=f"average pig ({100 * fair:.1f}%)")
    ax.set_xticks(x, pg["pig"])
    ax.set_xlabel("pig")
    ax.set_ylabel("share of races (95% CI)")
    _pct_axis(ax)
    ax.set_ylim(0, float(np.nanmax(pg["win_high"])) * 1.3)
    ax.legend(loc="upper right", frameon=False, fontsize=8, ncols=3)
    ax.set_title("Wins per pig")
    return fig


def fig_race_length(res, manifest):
    return race_length_figure(res, "player turns, skipped turns included")


def fig_points(res, manifest):
    pt = res["points"]
    if not len(pt) or pt["player_races"].max() == 0:
        return None
    groups = bot_groups(pt)
    fig, ax = _figure(max(5.5, 1.3 * len(groups) + 3), 3.8)
    x = np.arange(len(groups))
    bottom = np.zeros(len(groups))
    for source, color in SOURCE_COLORS.items():
        d = pt[pt["source"] == source].set_index("bot").reindex(groups)
        ax.bar(x, d["mean"], 0.6, bottom=bottom, color=color, label=f"{source} points")
        bottom += d["mean"].fillna(0).to_numpy(float)
    total = pt[pt["source"] == "race"].set_index("bot").reindex(groups)
    ax.errorbar(x, total["mean"], yerr=_err(total["mean"], total["low"], total["high"]), fmt="none",
                ecolor="black", capsize=4)
    ax.set_xticks(x, groups)
    ax.set_xlabel("bot")
    ax.set_ylabel("points per race (mean;\nerror bar: 95% CI of the total)")
    ax.legend(loc="upper left", frameon=False, fontsize=8, ncols=3)
    ax.set_ylim(0, float(np.nanmax(total["high"])) * 1.3 if total["high"].notna().any() else None)
    ax.grid(axis="y", alpha=0.3)
    ax.set_title("Where the points come from")
    return fig
