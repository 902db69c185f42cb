"""Lemming Mafia's figures (matplotlib object API on the Agg canvas, like
``analyzer/report/figures.py``): each takes the result tables and the manifest
and returns a Figure, or None when the run has no data for it."""
from __future__ import annotations

import numpy as np

from analyzer.report.figures import (
    BAD, GOOD, NEUTRAL, UNSURE, _err, _figure, _pct_axis, bars_per_bot, race_length_figure,
)
from analyzer.games.lemming_mafia.report import text as T

LEMMING_COLORS = {
    "blue": "#1f5fbf",
    "grey": "#8c8c8c",
    "green": "#2e9e44",
    "purple": "#7b3fa0",
    "pink": "#f07ab8",
    "red": "#d62728",
}

def fig_bet_heatmap(res, manifest):
    h = T._heat(res)
    if not len(h) or h["cards"].sum() == 0:
        return None
    places = sorted(h["track_place"].unique())
    stages = sorted(h["stage_bin"].unique())
    grid = h.pivot(index="track_place", columns="stage_bin", values="chance").reindex(index=places, columns=stages)
    cards = h.pivot(index="track_place", columns="stage_bin", values="cards").reindex(index=places, columns=stages)
    fig, ax = _figure(9, 4.6)
    data = np.ma.masked_invalid(grid.to_numpy(float))
    from matplotlib import colormaps
    cmap = colormaps["viridis"].with_extremes(bad="#e6e6e6")
    im = ax.imshow(data, cmap=cmap, vmin=0, vmax=1, aspect="auto")
    for i in range(data.shape[0]):
        for j in range(data.shape[1]):
            v = grid.iat[i, j]
            if np.isnan(v):
                ax.text(j, i, "few" if cards.iat[i, j] > 0 else "–", ha="center", va="center", fontsize=7,
                        color="#666666")
            else:
                ax.text(j, i, f"{100 * v:.0f}", ha="center", va="center", fontsize=8,
                        color="white" if v < 0.55 else "black")
    lo = h.groupby("stage_bin")["stage_from"].first().reindex(stages)
    hi = h.groupby("stage_bin")["stage_to"].first().reindex(stages)
    ax.set_xticks(range(len(stages)), [f"{100 * a:.0f}–{100 * b:.0f}" for a, b in zip(lo, hi)],
                  rotation=45, ha="right", rotation_mode="anchor")
    ax.set_yticks(range(len(places)), [T.ordinal(int(p)) for p in places])
    ax.set_xlabel("share of the race's moves made when the card was placed (%)")
    ax.set_ylabel("track place of the backed lemming")
    ax.set_title("Chance a bet card is the winner's card (%)")
    cb = fig.colorbar(im, ax=ax, fraction=0.04, pad=0.02)
    cb.set_label("chance the card is the winner's")
    _pct_axis(cb.ax)
    return fig


def fig_bet_timing(res, manifest):
    st = res["bet_stage"]
    tu = res["bet_turn"]
    st = st[st["cards"] >= T.MIN_CELL]
    tu = tu[tu["cards"] >= T.MIN_CELL]
    if not len(st):
        return None
    fig, (a1, a2) = _figure(10, 4, ncols=2, sharey=True)
    for ax, df, x, xlabel in ((a1, tu, tu["turn"], "turn the card was placed (move number)"),
                              (a2, st, (st["stage_from"] + st["stage_to"]) / 2 * 100,
                               "share of the race's moves made when placed (%)")):
        ax.errorbar(x, df["winner_card_points"], yerr=_err(df["winner_card_points"], df["winner_card_points_low"],
                                                           df["winner_card_points_high"]),
                    color="#d08c1f", marker="o", markersize=3, capsize=2, label="winner's card")
        ax.errorbar(x, df["mean_points"], yerr=_err(df["mean_points"], df["points_low"], df["points_high"]),
                    color="#34495e", marker="s", markersize=3, capsize=2, label="any card (0 if not the winner's)")
        ax.set_xlabel(xlabel)
        ax.grid(alpha=0.3)
    a1.set_ylabel("points per card (mean, 95% CI)")
    a1.set_title("By turn")
    a2.set_title("By race stage")
    a2.legend(loc="upper left", frameon=False)
    fig.suptitle("Points a bet card earns by when it was placed")
    return fig


def fig_stack_position(res, manifest):
    sp = res["stack_position"]
    if not len(sp) or sp["cards"].sum() == 0:
        return None
    fig, (a1, a2) = _figure(10, 4, ncols=2)
    groups, x, orders = bars_per_bot(res, sp, "order", [(a1, "mean_points", "points_low", "points_high"),
                                                        (a2, "chance", "chance_low", "chance_high")])
    for ax in (a1, a2):
        ax.set_xticks(x, [T.ordinal(int(o)) for o in orders])
        first = T.rule_value(manifest, "bet_points")[0]
        ax.set_xlabel(f"stack position (placing order: 1st card placed pays {first} point{'' if first == 1 else 's'})")
    a1.set_ylabel("points per card placed (mean, 95% CI)")
    a2.set_ylabel("chance the card is the winner's (95% CI)")
    _pct_axis(a2)
    a1.set_title("Payoff by stack position")
    a2.set_title("Winner's card by stack position")
    if len(groups) > 1:
        a1.legend(loc="upper left", frameon=False, fontsize=8)
    return fig


def fig_contracts(res, manifest):
    ct = res["contracts"]
    if not len(ct):
        return None
    ct = ct.reset_index(drop=True)
    y = np.arange(len(ct))[::-1]
    fig, (a1, a2) = _figure(11, max(3.5, 0.36 * len(ct) + 1.5), ncols=2, sharey=True)

    def color(low, high):
        return [GOOD if lo > 0 else BAD if hi < 0 else UNSURE for lo, hi in zip(low, high)]

    a1.barh(y, ct["hold_value"], color=color(ct["hold_value_low"], ct["hold_value_high"]),
            xerr=_err(ct["hold_value"], ct["hold_value_low"], ct["hold_value_high"]), capsize=2)
    a1.set_yticks(y, [f"{c.replace('_', ' ')} ({p} pt)" for c, p in zip(ct["contract"], ct["points"])])
    a1.set_xlabel("points if held to the end\n(mean over all cards dealt, 95% CI)")
    a1.set_title("Value of keeping each contract\n(below 0: throwing it away gains)")
    d = ct[ct["discarded"] > 0]
    yd = y[ct["discarded"].to_numpy() > 0]
    a2.barh(yd, d["discard_gain"], color=color(d["discard_gain_low"], d["discard_gain_high"]),
            xerr=_err(d["discard_gain"], d["discard_gain_low"], d["discard_gain_high"]), capsize=2)
    a2.set_xlabel("gain of discarding (points)\n= minus what the discarded card would have paid")
    a2.set_title("Gain of the bots' actual discards\n(above 0: discarding was right)")
    for ax in (a1, a2):
        ax.axvline(0, color="black", linewidth=0.8)
        ax.grid(axis="x", alpha=0.3)
    return fig


def fig_race_length(res, manifest):
    return race_length_figure(res, "moves, all players together")


def fig_eliminations(res, manifest):
    el = res["eliminations"]
    if not len(el) or el["races"].sum() == 0:
        return None
    wc = res["winner_concrete"]
    wc = wc[wc["color"] == "all"]
    fig, (a1, a2) = _figure(10, 3.8, ncols=2)
    a1.bar(el["eliminated"], el["share"], color="#7f8c8d",
           yerr=_err(el["share"], el["low"], el["high"]), capsize=3)
    a1.set_xticks(el["eliminated"])
    a1.set_xlabel("lemmings eliminated in the race (3rd concrete block)")
    a1.set_ylabel("share of races (95% CI)")
    a1.set_title("Eliminations per race")
    _pct_axis(a1)
    a2.bar(wc["blocks"], wc["share"], color="#a0a0a0",
           yerr=_err(wc["share"], wc["low"], wc["high"]), capsize=3)
    a2.set_xticks(wc["blocks"])
    a2.set_xlabel("concrete blocks the winning lemming carries")
    a2.set_ylabel("share of races (95% CI)")
    a2.set_title("Concrete on the winner")
    _pct_axis(a2)
    return fig


def fig_lemmings(res, manifest):
    lm = res["lemmings"]
    if not len(lm) or lm["wins"].sum() == 0:
        return None
    fig, ax = _figure(7, 3.8)
    x = np.arange(len(lm))
    ax.bar(x, lm["win_rate"], color=[LEMMING_COLORS.get(c, NEUTRAL) for c in lm["color"]],
           yerr=_err(lm["win_rate"], lm["win_low"], lm["win_high"]), capsize=4, edgecolor="black", linewidth=0.5)
    ax.axhline(1 / len(lm), color="black", linestyle="--", linewidth=1, label=f"fair share (1/{len(lm)})")
    ax.set_xticks(x, lm["color"])
    ax.set_xlabel("lemming")
    ax.set_ylabel("share of races won (95% CI)")
    _pct_axis(ax)
    ax.set_ylim(0, float(np.nanmax(lm["win_high"])) * 1.2)
    ax.legend(loc="upper right", frameon=False)
    ax.set_title("Wins per lemming colour")
    return fig


def fig_board(res, manifest):
    f = res["fields"]
    if not len(f):
        return None
    from matplotlib import colormaps
    from matplotlib.colors import Normalize
    from matplotlib.patches import Rectangle
    sections = sorted(f["section"].unique())
    depth = int(f.groupby("section").size().max())
    fig, ax = _figure(max(8, 1.05 * len(sections) + 2), 1.0 * depth + 1.8)
    cmap = colormaps["YlOrRd"]
    rates = f["landing_rate"].to_numpy(float)
    norm = Normalize(vmin=0, vmax=max(float(np.nanmax(rates)), 1e-9))
    for col, s in enumerate(sections):
        fs = f[f["section"] == s].sort_values("field")
        for row, (_, r) in enumerate(fs.iterrows()):
            v = float(r["landing_rate"])
            ax.add_patch(Rectangle((col + 0.05, -row - 0.95), 0.9, 0.9, facecolor=cmap(norm(v)),
                                   edgecolor="black", linewidth=0.6))
            dark = norm(v) > 0.6
            ax.text(col + 0.5, -row - 0.42, str(r["action"]), ha="center", va="center", fontsize=7,
                    color="white" if dark else "black")
            ax.text(col + 0.5, -row - 0.72, f"#{int(r['field'])} · {v:.2f}", ha="center", va="center",
                    fontsize=6.5, color="white" if dark else "#333333")
    ax.set_xlim(-0.1, len(sections) + 0.1)
    ax.set_ylim(-depth - 0.1, 0.1)
    ax.set_xticks([i + 0.5 for i in range(len(sections))], [str(int(s) + 1) for s in sections])
    ax.set_yticks([])
    ax.set_xlabel("section (start area on the left, water beyond the last section)")
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)
    from matplotlib.cm import ScalarMappable
    cb = fig.colorbar(ScalarMappable(norm=norm, cmap=cmap), ax=ax, fraction=0.03, pad=0.01)
    cb.set_label("landings per race")
    ax.set_title("The board: each field's action, number and landings per race")
    return fig




# ---------------------------------------------------------------- the interventions' charts

def _gains(rows, label, value="gain", low="low", high="high", judged: bool = True):
    """Chart rows (``report/gain_charts.py``) of an intervention table's rows."""
    import pandas as pd

    from analyzer.games.lemming_mafia.report.causal import verdict

    return pd.DataFrame({"label": [label(r) for _, r in rows.iterrows()], "value": rows[value].to_numpy(float),
                         "low": rows[low].to_numpy(float), "high": rows[high].to_numpy(float),
                         "verdict": [verdict(r[low], r[high]) if judged else "" for _, r in rows.iterrows()],
                         "n": rows["n"].to_numpy(int)})


def fig_discards(res, manifest):
    """"Which contracts should I throw away?": each card and each stage by intervention
    (what the answer's headline reads), then the bots' own discards per bot, each beside
    its hindsight figure."""
    from analyzer.games.lemming_mafia.report import causal as C
    from analyzer.report.gain_charts import Panel, draw

    policy, cards = res.get("intervention_discard_policy"), res.get("intervention_contracts")
    if policy is None or not len(policy) or cards is None or not len(cards):
        return None
    t = C.PRACTICAL_POINTS
    hind = dict(value="hindsight_gain", low="hindsight_low", high="hindsight_high", judged=False)
    groups = [
        (C.card_rows(cards), lambda r: r["contract"], "One card discarded at a boss round drawn at random, "
         "rather than held to the end", "points a forced decision"),
        (C.stage_rows(cards, contract="all"), lambda r: r["stage"], "All cards, by stage of the track",
         "points a forced decision"),
        (C.policy_rows(policy), C._bot_seats, "The bots' own discards, a race: as played minus every discard undone",
         "points a race"),
    ]
    grid = [[Panel(title, _gains(rows, label), threshold=t, xlabel=f"{x} (mean, paired 95% CI)"),
             Panel(title, _gains(rows, label, **hind), hindsight=True, xlabel=f"{x} (mean, 95% CI)")]
            for rows, label, title, x in groups]
    return draw(grid, "Which contracts should I throw away? Gain of discarding, by intervention (same races, "
                      "forced each way)")


def fig_bet_leader(res, manifest):
    """"When should I bet on the leader?": the gain of betting the leader's card now
    rather than holding it, per stage by intervention, then the hindsight share of
    the bots' cards on the leader that were the winner's."""
    import pandas as pd

    from analyzer.games.lemming_mafia.report import causal as C
    from analyzer.report.gain_charts import Panel, draw

    bt = res.get("intervention_bets")
    if bt is None or not len(bt):
        return None
    rows = pd.concat([bt[(bt["bot"] == "all") & (bt["stage"] == "all")], C.stage_rows(bt)])
    grid = [[Panel("Betting the leader's card now rather than holding it", _gains(rows, C._stage_name),
                   threshold=C.PRACTICAL_POINTS, xlabel="points a forced decision (mean, paired 95% CI)"),
             Panel("The same decisions: change of win chance", _gains(rows, C._stage_name, "win_gain", "win_low",
                                                                       "win_high", judged=False),
                   unit="pp", xlabel="win chance (percentage points, paired 95% CI)")]]
    h = T._heat(res)
    lead = h[(h["track_place"] == 1) & h["chance"].notna()].sort_values("stage_bin")
    if len(lead):
        hind = pd.DataFrame({"label": [f"{T.stage_label(a, b)} of the race" for a, b in
                                       zip(lead["stage_from"], lead["stage_to"])],
                             "value": lead["chance"].to_numpy(float), "low": lead["chance_low"].to_numpy(float),
                             "high": lead["chance_high"].to_numpy(float), "verdict": "",
                             "n": lead["cards"].to_numpy(int)})
        grid.append([Panel("a card the bots placed on the leader was the winner's card, by the share of the "
                           "race's final length when placed", hind, unit="share", hindsight=True,
                           xlabel="share of such cards that won (95% Wilson)")])
    return draw(grid, "When should I bet on the leader? By intervention (same races, forced each way)")


def fig_tiebreak(res, manifest):
    """"How often do contracts break a tie?": the two shares the answer cites, with
    their 95% Wilson intervals (the overview's rows, the figure's source data)."""
    import pandas as pd

    ov = res["overview"].set_index("metric")
    if "tiebreak_share" not in ov.index or not (ov.loc["tiebreak_share", "value"] == ov.loc["tiebreak_share", "value"]):
        return None
    rows = [("tiebreak_share", "top score tied,\ndecided by contract points"),
            ("shared_win_share", "shared win\n(still tied after contracts)")]
    data = pd.DataFrame({"metric": [m for m, _ in rows], "share": [ov.loc[m, "value"] for m, _ in rows],
                         "low": [ov.loc[m, "low"] for m, _ in rows], "high": [ov.loc[m, "high"] for m, _ in rows]})
    fig, ax = _figure(6, 3.4)
    x = np.arange(len(data))
    ax.bar(x, data["share"], color=["#34495e", "#8c8c8c"], yerr=_err(data["share"], data["low"], data["high"]),
           capsize=4, ecolor="black")
    ax.set_xticks(x, [label for _, label in rows])
    ax.set_ylabel("share of races (95% Wilson)")
    _pct_axis(ax)
    ax.set_ylim(0, max(float(np.nanmax(data["high"])) * 1.25, 0.01))
    ax.set_title("How often contracts break a tie")
    return fig, data
