"""The tournament report: one self-contained HTML page (the balance report's
style, figures as embedded PNG) plus a folder beside it with the figures as PNG
and the tables as CSV."""
from __future__ import annotations

import dataclasses

from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd

from analyzer.version import __version__
from analyzer.engine.ruleset import rules_text
from analyzer.report import text as T
from analyzer.stats.distributions import chi2_sf, normal_sf
from analyzer.stats.evidence import NOT_ENOUGH, RULED_OUT, SHOWN, decide
from analyzer.stats.flags import ALPHA, MIN_EFFECT, holm
from analyzer.report.figures import NEUTRAL, _err, _figure, _pct_axis, bot_color, png
from analyzer.engine.output import utf8_text
from analyzer.report.html import CSS, _data_row, _e, assumed_note, figure_html, output_paths, save_report, table
from analyzer.stats.ratings import ELO


def tables(result) -> dict[str, pd.DataFrame]:
    """The report's tables: ratings per bot, head to head, seats (one seat: the
    win rates against the field only, ``one_seat_tables``)."""
    if result.one_seat:
        return one_seat_tables(result)
    r, f = result, result.ratings
    lo, hi = f.elo_interval
    wlo, whi = r.bots.win_interval()
    slo, shi = r.bots.score_interval()
    ratings = pd.DataFrame({
        "bot": r.labels, "elo": f.elo, "elo_low": lo, "elo_high": hi, "races": r.bots.n.astype(int),
        "win_rate": r.bots.win_rate, "win_low": wlo, "win_high": whi,
        "mean_score": r.bots.mean_score, "score_low": slo, "score_high": shi,
    }).sort_values("elo", ascending=False, ignore_index=True)
    share, games = r.counts.win_matrix()
    h2h = pd.DataFrame([{"bot": r.labels[a], "opponent": r.labels[b], "outscored_share": share[a, b],
                         "pairings": int(games[a, b])}
                        for a in range(len(r.labels)) for b in range(len(r.labels)) if a != b])
    mlo, mhi = f.seat_interval
    wl, wh = r.seats.win_interval()
    seats = pd.DataFrame({
        "seat": np.array(r.seat_numbers), "multiplier": f.seat_multiplier, "multiplier_low": mlo,
        "multiplier_high": mhi, "elo_equivalent": ELO * f.seat, "win_rate": r.seats.win_rate,
        "win_low": wl, "win_high": wh, "mean_score": r.seats.mean_score,
    })
    order = list(ratings["bot"])
    matrix = (h2h.pivot(index="bot", columns="opponent", values="outscored_share")
              .reindex(index=order, columns=order).rename_axis(index="bot", columns=None).reset_index())
    return {"ratings": ratings, "head_to_head": h2h, "win_matrix": matrix, "seats": seats}


def one_seat_tables(result) -> dict[str, pd.DataFrame]:
    """One rated seat: per bot, best first, its win rate against the field and
    its difference to the best bot paired on the deals; no Elo, no head to head
    (the bots never meet), no seat fit (one seat)."""
    r = result
    best, diff, dlo, dhi = r.versus_best()
    wlo, whi = r.bots.win_interval()
    slo, shi = r.bots.score_interval()
    ratings = pd.DataFrame({
        "bot": r.labels, "races": r.bots.n.astype(int), "win_rate": r.bots.win_rate, "win_low": wlo,
        "win_high": whi, "versus": r.labels[best], "win_difference": diff, "difference_low": dlo,
        "difference_high": dhi, "mean_score": r.bots.mean_score, "score_low": slo, "score_high": shi,
    }).sort_values("win_rate", ascending=False, kind="stable", ignore_index=True)
    return {"ratings": ratings}


# ---------------------------------------------------------------------- figures


def fig_ratings(res, result):
    d = res["ratings"].iloc[::-1]
    fig, ax = _figure(8, max(2.5, 0.45 * len(d) + 1.2))
    y = np.arange(len(d))
    err = _err(d["elo"], d["elo_low"], d["elo_high"])
    for k, bot in enumerate(d["bot"]):  # each bot in its colour, the same in every report
        ax.errorbar(d["elo"].iloc[k], y[k], xerr=err[:, k:k + 1], fmt="o", color=bot_color(bot), capsize=4)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(y, d["bot"])
    ax.set_xlabel("rating (Elo scale: 400·log10 strength, mean 0; 95% CI)")
    ax.grid(axis="x", alpha=0.3)
    ax.set_title("Ratings")
    return fig


def fig_win_rates(res, result):
    d = res["ratings"].iloc[::-1]
    fig, ax = _figure(8, max(2.5, 0.45 * len(d) + 1.2))
    y = np.arange(len(d))
    err = _err(100 * d["win_rate"], 100 * d["win_low"], 100 * d["win_high"])
    for k, bot in enumerate(d["bot"]):
        ax.errorbar(100 * d["win_rate"].iloc[k], y[k], xerr=err[:, k:k + 1], fmt="o", color=bot_color(bot),
                    capsize=4)
    ax.set_yticks(y, d["bot"])
    ax.set_xlabel(f"win rate in the {result.role} seat against the field (%, Wilson 95% CI)")
    ax.grid(axis="x", alpha=0.3)
    ax.set_title("Win rate against the field")
    return fig


def fig_head_to_head(res, result):
    order = list(res["ratings"]["bot"])
    grid = res["win_matrix"].set_index("bot")[order]
    from matplotlib import colormaps
    n = len(order)
    fig, ax = _figure(max(5, 0.9 * n + 2.5), max(4, 0.7 * n + 1.8))
    data = np.ma.masked_invalid(grid.to_numpy(float))
    im = ax.imshow(data, cmap=colormaps["RdBu"].with_extremes(bad="#e6e6e6"), vmin=0, vmax=1)
    for i in range(n):
        for j in range(n):
            v = grid.iat[i, j]
            ax.text(j, i, "–" if np.isnan(v) else f"{100 * v:.0f}", ha="center", va="center", fontsize=8,
                    color="white" if not np.isnan(v) and abs(v - 0.5) > 0.3 else "black")
    ax.set_xticks(range(n), order, rotation=35, ha="right", rotation_mode="anchor")
    ax.set_yticks(range(n), order)
    ax.set_xlabel("opponent (column)")
    ax.set_ylabel("bot (row)")
    ax.set_title(f"Share of {result.unit} the row bot outscored the column bot (%)")
    cb = fig.colorbar(im, ax=ax, fraction=0.04, pad=0.02)
    cb.set_label("row outscored column (ties half)")
    _pct_axis(cb.ax)  # the cells print percent: the scale too
    return fig


def fig_seats(res, result):
    s = res["seats"]
    fig, ax = _figure(max(5, 1.0 * len(s) + 2), 3.6)
    x = np.arange(len(s))
    ax.bar(x, s["multiplier"] - 1, bottom=1, color=NEUTRAL,
           yerr=_err(s["multiplier"], s["multiplier_low"], s["multiplier_high"]), capsize=4)
    ax.axhline(1, color="black", linewidth=0.8)
    ax.set_xticks(x, [f"seat {k}" for k in s["seat"]])
    ax.set_xlabel("seat (1 moves first)")
    ax.set_ylabel("strength multiplier\n(1 = average seat, 95% CI)")
    ax.set_title("Seat advantage, fitted with the ratings")
    return fig


def fig_scores(res, result):
    d = res["ratings"]
    fig, ax = _figure(max(5.5, 1.0 * len(d) + 2), 3.6)
    x = np.arange(len(d))
    ax.bar(x, d["mean_score"], color=[bot_color(b) for b in d["bot"]],
           yerr=_err(d["mean_score"], d["score_low"], d["score_high"]), capsize=4)
    ax.set_xticks(x, d["bot"], rotation=20, ha="right", rotation_mode="anchor")
    ax.set_ylabel(f"mean score per {result.unit[:-1]} (95% CI)")
    ax.set_title("Mean score per bot")
    return fig


def _takeaways(res, result) -> dict[str, str]:
    rt = res["ratings"]
    top, low = rt.iloc[0], rt.iloc[-1]
    sep = top["elo_low"] > rt.iloc[1]["elo_high"] if len(rt) > 1 else False
    s = res["seats"]
    best = s.loc[s["multiplier"].idxmax()]
    return {
        "ratings": f" {top['bot']} rates highest ({top['elo']:+.0f}), "
                   f"{'clearly' if sep else 'but not clearly'} ahead of the next bot; {low['bot']} is last "
                   f"({low['elo']:+.0f}).",
        "head_to_head": f" Each cell counts the {result.unit} in which both bots played; above 50 (blue) the row bot "
                        "usually outscored the column bot.",
        "seats": f" Seat {int(best['seat'])} has the largest multiplier (x{best['multiplier']:.3f}); "
                 + seat_verdict(result) + ".",
        "scores": f" Mean final score per {result.unit[:-1]}, all seats pooled.",
    }


def seat_test(result, alpha: float = ALPHA, min_effect: float = MIN_EFFECT):
    """``(joint p, flagged per seat, edge per seat, its 95% low, high)`` of the fitted
    seat strengths: a joint Wald test (the sandwich covariance, P - 1 df: the
    strengths sum to 0), per-seat z tests with Holm correction, and a practical
    size: the edge is the chance that an equal bot in the seat outscores one in an
    average seat, minus 1/2, and its 95% interval must lie beyond ``min_effect`` by
    the verdict rule (``stats/evidence.decide``, as the scorecard's seat line). None
    when it cannot be tested."""
    f = result.ratings
    B = len(f.strength)
    seat = np.asarray(f.seat, np.float64)
    cov = np.asarray(f.cov, np.float64)[B:, B:]
    P = seat.size
    if P < 2:
        return None
    v, c = seat[:-1], cov[:-1, :-1]
    try:
        wald = float(v @ np.linalg.solve(c, v))
    except np.linalg.LinAlgError:
        return None
    joint_p = chi2_sf(wald, P - 1)
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    with np.errstate(divide="ignore", invalid="ignore"):
        p = 2 * np.asarray(normal_sf(np.where(se > 0, np.abs(seat) / se, 0.0)), np.float64).reshape(P)
    from analyzer.stats.intervals import Z95

    edge, low, high = _edge(seat), _edge(seat - Z95 * se), _edge(seat + Z95 * se)
    t = min_effect if min_effect > 0 else 1e-12
    beyond = np.array([decide(lo, hi, t) == SHOWN for lo, hi in zip(low, high)], bool)
    flagged = (joint_p < alpha) & (holm(p) < alpha) & beyond
    return joint_p, flagged, edge, low, high


def seat_verdict(result, alpha: float = ALPHA, min_effect: float = MIN_EFFECT) -> str:
    """The seats sentence of the tournament report, from ``seat_test``."""
    t = seat_test(result, alpha, min_effect)
    if t is None:
        return "the seat strengths cannot be tested"
    joint_p, flagged, edge, low, high = t
    test = (f"joint Wald test p = {joint_p:.2g}, then Holm-corrected per-seat tests, the 95% interval beyond "
            f"{100 * min_effect:g} pp")
    if joint_p >= alpha:
        return f"no seat differs from the average beyond chance ({test})"
    if not flagged.any():
        if all(decide(lo, hi, min_effect) == RULED_OUT for lo, hi in zip(low, high)):
            return (f"the seats differ beyond chance but by less than {100 * min_effect:g} pp: no meaningful "
                    f"difference ({test})")
        return (f"the seats differ beyond chance, but no seat is shown more than {100 * min_effect:g} pp from the "
                f"average (an interval reaches across the threshold): not settled ({test})")
    names = ", ".join(f"seat {i + 1} ({100 * edge[i]:+.1f} pp)" for i in np.flatnonzero(flagged))
    return f"{names} {'differs' if flagged.sum() == 1 else 'differ'} from the average seat beyond chance ({test})"


def _edge(log_gap):
    """The chance to outscore at equal seats minus 1/2, from a log-strength gap."""
    return 1 / (1 + np.exp(-np.asarray(log_gap, np.float64))) - 0.5


def _outscore_verdict(log_gap: float, se: float, min_effect: float, n: int, what: str, unit: str):
    """A log-strength gap judged as the chance to outscore minus 1/2 (monotone in the
    gap, so its interval is the gap's transformed), against ``min_effect``."""
    from analyzer.stats.evidence import verdict
    from analyzer.stats.intervals import Z95

    if not (np.isfinite(se) and se > 0):  # no spread measured (bots that never met): no interval, no verdict
        se = np.nan
    return verdict(float(_edge(log_gap)), float(_edge(log_gap - Z95 * se)), float(_edge(log_gap + Z95 * se)),
                   min_effect, n, what=what, unit=unit)


def scorecard_of(res, result, min_effect: float = MIN_EFFECT):
    """The tournament's scorecard (``report/scorecard.py``): each bot against the next
    in the rating order, and seat 1 against the average seat, as the chance to
    outscore an equal opponent minus 1/2 (pp), judged against ``min_effect``;
    warnings for a bot that never wins."""
    from analyzer.report.scorecard import MAX_ITEMS, ScoreWarning, verdict_item
    from analyzer.stats.questions import FIRST_SEAT, Direction

    players = f"{result.players} players"
    items = []
    if result.one_seat:  # no Elo (the bots never meet): each bot's win rate against the best one's
        from analyzer.stats.evidence import verdict

        for _, r in res["ratings"].iloc[1:].iterrows():
            v = verdict(float(r["win_difference"]), float(r["difference_low"]), float(r["difference_high"]),
                        min_effect, int(r["races"]), what=f"{r['bot']} against {r['versus']}, win rate:",
                        unit=result.unit)
            items.append((v, "Win rate against the field", "ratings",
                          f"the {result.role} seat, paired on the deals",
                          Direction(f"{r['bot'].upper()} AGAINST {r['versus'].upper()}",
                                    f"{r['bot'].upper()} WINS MORE", f"{r['versus'].upper()} WINS MORE",
                                    f"{r['bot'].upper()} AND {r['versus'].upper()} EVEN within {{bound}}",
                                    f"{r['bot']} wins more often than {r['versus']}")))
        f = None
    else:
        f = result.ratings
        order = list(np.argsort(-np.asarray(f.strength), kind="stable"))
        B = len(f.strength)
    for a, b in ([] if f is None else zip(order, order[1:])):
        var = f.cov[a, a] + f.cov[b, b] - 2 * f.cov[a, b]
        v = _outscore_verdict(f.strength[a] - f.strength[b], float(np.sqrt(max(var, 0.0))), min_effect,
                              int(result.races), f"{result.labels[a]}'s chance to outscore {result.labels[b]}, above 50%:",
                              result.unit)
        first, second = result.labels[a].upper(), result.labels[b].upper()
        items.append((v, "Ratings", "ratings", f"{result.labels[a]} against {result.labels[b]}, seats rotated",
                      Direction(f"{first} AGAINST {second}", f"{first} STRONGER THAN {second}",
                                f"{second} STRONGER THAN {first}", f"{first} AND {second} EVEN within {{bound}}",
                                f"{result.labels[a]} outscores {result.labels[b]} more often than not")))
    if f is not None and len(f.seat) > 1:
        se = float(np.sqrt(max(f.cov[B, B], 0.0)))
        v = _outscore_verdict(f.seat[0], se, min_effect, int(result.races),
                              "an equal bot's chance to outscore from seat 1 rather than an average seat, above 50%:",
                              result.unit)
        gates = seat_test(result, ALPHA, min_effect)
        if v.word == SHOWN and not (gates is not None and gates[1][0]):  # the seats' sentence must agree
            v = dataclasses.replace(v, word=NOT_ENOUGH, needed=v.n + 1)
        items.append((v, "Seat advantage", "seats", "every bot, all seats", FIRST_SEAT))
    card = [verdict_item(v, title, anchor, f"{who}; {players}", direction, key=f"{anchor}-{i + 1}",
                         unit_word=result.unit)
            for i, (v, title, anchor, who, direction) in enumerate(items[:MAX_ITEMS])]
    rt = res["ratings"]
    warns = [ScoreWarning(f"{r['bot']} never wins (0 of {int(r['races']):,} seat-{result.unit}).",
                     "a bot too weak to matter, a rule that shuts its way of playing out, or a bot that cannot "
                     "finish (a bug in its moves)",
                     f"analyzer replay {result.setup.get('game', 'GAME')} --players {result.players} "
                     f"--bots {r['bot']} --seed {result.seed}")
             for _, r in rt.iterrows() if r["win_rate"] == 0 and r["races"] >= 100]
    return card, warns


FIGURES = [("ratings", "Ratings", fig_ratings), ("head_to_head", "Head to head", fig_head_to_head),
           ("seats", "Seat advantage", fig_seats), ("scores", "Mean score", fig_scores)]
ONE_SEAT_FIGURES = [("ratings", "Win rate against the field", fig_win_rates), ("scores", "Mean score", fig_scores)]


def _one_seat_takeaways(res, result) -> dict[str, str]:
    rt = res["ratings"]
    top = rt.iloc[0]
    second = rt.iloc[1] if len(rt) > 1 else None
    if second is None:
        gap = ""
    else:
        clear = second["difference_high"] < 0
        gap = (f", {'clearly' if clear else 'but not clearly'} ahead of {second['bot']} "
               f"({T.pp_ci(second['win_difference'], second['difference_low'], second['difference_high'])}, "
               "paired on the deals)")
    return {"ratings": f" {top['bot']} wins most often in the {result.role} seat ({T.pct(top['win_rate'])}){gap}.",
            "scores": f" Mean final score per {result.unit[:-1]} in the {result.role} seat."}


# ---------------------------------------------------------------------- page


def _setup_block(result) -> str:
    setup = result.setup
    data = setup.get("data", [])
    unit = result.unit
    fmt = (f"{result.mode}; each bot alone in the one {result.role} seat against the field "
           f"({', '.join(result.field_labels)}) on the same {result.deals:,} deals" if result.one_seat else
           f"{result.mode}; {len(result.tables)} tables × {result.rotations} seat rotations × "
           f"{result.deals:,} deals (each rotation of a table plays the same deals)")
    rows = [
        ("Game", _e(setup.get("title") or setup.get("game", "?"))),
        *(_data_row(d) for d in data),
        ("Players", _e(result.players) + (f" — variant: {_e(setup['variant'])}" if setup.get("variant") else "")),
        ("Rules", _e(rules_text(setup.get("rules")))),
        ("Format", _e(fmt)),
        (unit.capitalize(), f"{result.races:,}"),
        ("Seed", _e(result.seed)),
        ("Analyzer version", _e(__version__)),
        ("Date", datetime.now(timezone.utc).isoformat(timespec="seconds")),
    ]
    body = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    bots = table(["bot", "spec", "parameters"],
                 [[label, spec.label, ", ".join(f"{k}={v:g}" for k, v in (params or {}).items()) or "none"]
                  for label, spec, params in zip(result.labels, result.specs, result.bot_params)], left=3)
    return f'<div class="scroll"><table class="meta">{body}</table></div>{assumed_note(data)}<h3>Bots</h3>{bots}'


def _ratings_table(rt, result) -> str:
    if not result.one_seat:
        return table(["bot", "Elo (95% CI)", "seats played", "win rate (95% CI)", "mean score (95% CI)"],
                    [[r["bot"], T.num_ci(r["elo"], r["elo_low"], r["elo_high"], 0, sign=True), f"{r['races']:,}",
                      T.pct_ci(r["win_rate"], r["win_low"], r["win_high"]),
                      T.num_ci(r["mean_score"], r["score_low"], r["score_high"])] for _, r in rt.iterrows()])
    from analyzer.engine.tournament import field_sentence

    versus = rt["versus"].iloc[0]
    why = field_sentence(result)
    return (f"<p>{_e(why[0].upper() + why[1:])}.</p>" + table(
        ["bot", "win rate (95% CI)", f"vs {versus} (pp, paired on the deals; 95% CI)", "seats played",
         "mean score (95% CI)"],
        [[r["bot"], T.pct_ci(r["win_rate"], r["win_low"], r["win_high"]),
          "–" if r["bot"] == versus else T.pp_ci(r["win_difference"], r["difference_low"], r["difference_high"]),
          f"{r['races']:,}", T.num_ci(r["mean_score"], r["score_low"], r["score_high"])] for _, r in rt.iterrows()]))


def render_html(res: dict, result, figures: list[dict], folder: str, card=None) -> str:
    from analyzer.report import glossary, scorecard

    title = f"{result.setup.get('title') or result.setup.get('game', '')} tournament"
    rt = res["ratings"]
    card = scorecard_of(res, result) if card is None else card
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{_e(title)}</title><style>{CSS}{scorecard.CSS}{glossary.CSS}</style></head><body>",
             f"<h1>{_e(title)}</h1>", scorecard.render_html(*card), glossary.html_block(), _setup_block(result),
             '<h2 id="ratings-table">Ratings</h2>', _ratings_table(rt, result),
             "<h2>Figures</h2>"]
    parts += [figure_html(f) for f in figures]
    if result.one_seat:
        return _close(parts, res, folder, f'<p class="small">{_e(result.role.capitalize())} seat only: win rates '
                      "with Wilson 95% intervals (shared wins count for every tied player); the difference to the "
                      "best bot is the mean of its per-deal differences (every bot played the same deals) with a t "
                      "interval; mean scores with a normal interval. No Elo: the rated bots never share a "
                      f"{_e(result.unit[:-1])}, so a pairwise model has nothing to fit.</p>")
    s = res["seats"]
    parts.append('<h2 id="seats-table">Seats</h2>' + table(
        ["seat", "strength multiplier (95% CI)", "Elo equivalent", "win rate (95% CI)", "mean score"],
        [[int(r["seat"]), T.num_ci(r["multiplier"], r["multiplier_low"], r["multiplier_high"], 3),
          T.num(r["elo_equivalent"], 0, sign=True), T.pct_ci(r["win_rate"], r["win_low"], r["win_high"]),
          T.num(r["mean_score"])] for _, r in s.iterrows()]))
    f = result.ratings
    return _close(parts, res, folder,
        f'<p class="small">Ratings: a Bradley–Terry model on every pair of seats of every {result.unit[:-1]} (the higher '
        "score wins the pair, a tie counts half each way) with a strength multiplier per seat, fitted jointly "
        f"by Newton's method ({f.iterations} iterations). Elo = 400·log10(strength), mean 0 over the bots: "
        "a 100-point gap means outscoring about 64% of the time at equal seats. Intervals are 95%: for the "
        "ratings and seats a cluster-robust sandwich covariance (observed information corrected by the "
        f"scores of {f.clusters} clusters of whole deals, since the pairs of one {result.unit[:-1]} are not "
        "independent); "
        "Wilson for win rates, normal for mean scores. Win rates count shared wins for every tied player.</p>")


def _close(parts: list[str], res: dict, folder: str, method: str) -> str:
    """The list of CSV tables, the method note and the end of the page."""
    parts.append(f'<h3>Tables as CSV</h3><p class="small">In <code>{_e(folder)}/</code> beside this file '
                 "(with the figures as PNG):</p><ul>")
    for name in res:
        parts.append(f'<li><a href="{_e(folder)}/{_e(name)}.csv">{_e(name)}.csv</a></li>')
    parts.append("</ul>")
    parts.append(method)
    parts.append("</body></html>")
    return "\n".join(parts)


def write_tournament_report(result, out_path) -> Path:
    """Write ``out_path`` (an .html file; a directory gets ``tournament.html``) and
    ``<stem>_files/`` beside it; returns the HTML file's path."""
    out_path, folder = output_paths(out_path, "tournament.html")
    res = tables(result)
    notes = (_one_seat_takeaways if result.one_seat else _takeaways)(res, result)
    figures = [{"key": key, "title": title, "takeaway": notes[key], "png": png(draw(res, result))}
               for key, title, draw in (ONE_SEAT_FIGURES if result.one_seat else FIGURES)]
    from analyzer.report.html import SCORECARD_TEXT
    from analyzer.report.scorecard import render_text

    card = scorecard_of(res, result)
    page = render_html(res, result, figures, utf8_text(folder.name), card)  # its links: UTF-8 text
    return save_report(out_path, folder, figures, res, page, {SCORECARD_TEXT: render_text(*card)})
