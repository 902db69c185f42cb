"""Lemminge's balance report sections (the interface every game's report
package offers ``analyzer/report/html.py``): ``FIGURES``, ``answers``,
``overview``, ``key_tables``, ``FOOTNOTE`` and ``TABLE_DOCS``."""
from __future__ import annotations

from analyzer.games.lemminge.report import figures as F
from analyzer.games.lemminge.report import text as T
from analyzer.games.lemminge.report.text import QUESTIONS, answers, warnings
from analyzer.games.lemminge.stats import TABLE_DOCS
from analyzer.report.figures import COMMON_FIGURES, SCORE_FIGURE
from analyzer.report.answer_charts import SEAT_CHART, mean_chart
from analyzer.report.flow import flow_figure, flow_table
from analyzer.report.html import seat_tables, table
from analyzer.report.text import num, num_ci, overview_value, pct, pct_ci

__all__ = ["FIGURES", "answers", "QUESTIONS", "warnings", "overview", "key_tables", "FOOTNOTE",
           "TABLE_DOCS", "CONTROLLED_TABLES", "ANSWER_CHARTS"]

CONTROLLED_TABLES = ("overview", "seat_advantage", "win_patterns", "game_length")  # what the structural answers read

FOOTNOTE = ("A simulated unit is a game; win rates are per game (one winner), the score is the lemmings brought "
            "home (0-2). Intervals are 95%: Wilson for rates, Student t (mean ± t·sd/√n) for means over games; "
            "seat and bot comparisons are paired by game; means over moves (column sums, new columns, pushes) "
            "have t intervals clustered by game, since the moves of one game are not independent. Progress is "
            "the finish distance a move gained; under the box's rules pushed lemmings never lose distance (no push "
            "goes backwards; the rule backward_push allows it), so the pushes table's setback is 0 or negative and "
            "the report shows its opposite, the distance gained. "
            "Figures from the moves table (columns, new columns, pushes) hold for the run's bots together.")

def _gained(setback: float) -> float:
    """A setback (0 or less under the box's rules: no push goes backwards) as the distance gained, never "-0.00"."""
    return 0.0 - setback + 0.0


# what the seat and length answers cite, from the controlled tables (report/answer_charts.py)
ANSWER_CHARTS = [SEAT_CHART, mean_chart("game_length", "game_length_mean", "mean game length", "Game length",
                                        "turns per game, refills included\n(mean, 95% CI)")]

FIGURES = [
    *COMMON_FIGURES,
    ("column_value", "Column sums and the movement they give", F.fig_column_value, T.column_value),
    ("new_column", "New columns against cards added to one (association)", F.fig_new_column, T.new_column),
    ("pushes", "Pushes", F.fig_pushes, T.pushes),
    ("tiles", "Bonus tiles", F.fig_tiles, T.tiles),
    ("hexes", "The map: where lemmings go", F.fig_hexes, T.hexes),
    ("game_length", "Game length", F.fig_game_length, T.game_length),
    SCORE_FIGURE,
    flow_figure(*T.FLOW[:2]),
]


def key_tables(res: dict) -> str:
    out = []
    bots = res["bots"]
    if len(bots):
        out.append("<h3>Bots</h3>")
        out.append(table(
            ["bot", "seats", "win rate (95% CI)", "lemmings home", "moves", "refills", "steps", "pushes made",
             "pushed", "distance lost to pushes", "new columns", "tiles"],
            [[r["bot"], r["seats"], pct_ci(r["win_rate"], r["win_low"], r["win_high"]), num(r["mean_score"]),
              num(r["mean_moves"], 1), num(r["mean_refills"], 1), num(r["mean_steps"], 1),
              num(r["mean_pushes_made"]), num(r["mean_pushed"]), num(r["mean_pushed_distance"]),
              num(r["mean_new_columns"]), num(r["mean_tiles_placed"])] for _, r in bots.iterrows()], left=2))
    out += seat_tables(res, "win rate", "game", extra=("starting hand", lambda r: num(r["hand_start"], 0)))
    nc = res["new_column"]
    if len(nc):
        out.append("<h3>New column or join the column, by card value</h3>")
        out.append(table(["value", "new columns", "progress (95% CI)", "joined", "progress (95% CI)",
                          "new minus joined (95% CI)"],
                         [[int(r["value"]), f"{int(r['new_moves']):,}",
                           num_ci(r["new_progress"], r["new_low"], r["new_high"]), f"{int(r['on_moves']):,}",
                           num_ci(r["on_progress"], r["on_low"], r["on_high"]),
                           num_ci(r["difference"], r["difference_low"], r["difference_high"], sign=True)]
                          for _, r in nc.iterrows()]))
    pu = res["pushes"]
    if len(pu):
        out.append("<h3>Pushes</h3>")
        out.append(table(["lemmings pushed", "moves", "share", "distance the pushed gained (95% CI)",
                          "mover's progress (95% CI)"],
                         [[int(r["pushes"]), f"{int(r['moves']):,}", pct(r["share"], 2),
                           num_ci(_gained(r["setback"]), _gained(r["setback_high"]), _gained(r["setback_low"])),
                           num_ci(r["progress"], r["progress_low"], r["progress_high"])] for _, r in pu.iterrows()]))
    t = res["tiles"]
    if len(t):
        out.append("<h3>Tiles by terrain</h3>")
        out.append(table(["terrain", "cards played", "new columns", "tiles placed on it", "share"],
                         [[r["terrain"], f"{int(r['cards_played']):,}", f"{int(r['new_columns']):,}",
                           f"{int(r['tiles_placed_on']):,}", pct(r["tiles_placed_share"])] for _, r in t.iterrows()]))
    out.append(flow_table(res, *T.FLOW[:2]))
    return "".join(out)


def overview(res: dict) -> list[tuple[str, str]]:
    ov = overview_value

    def share(metric, digits=1):
        return pct_ci(ov(res, metric), ov(res, metric, "low"), ov(res, metric, "high"), digits)

    return [
        ("games", f"{int(ov(res, 'games')):,}"),
        ("players", f"{int(ov(res, 'players'))}"),
        ("game length", f"{num(ov(res, 'game_length_mean'), 1)} turns (refills included)"),
        ("stopped at the safety cap", share("capped_share", 2)),
        ("draw pile reshuffles per game", num(ov(res, "reshuffles_mean"))),
        ("cards that start a new column", share("new_column_share")),
        ("lemmings pushed per move", num(ov(res, "pushes_per_move"), 3)),
        ("lemmings home per player", f"mean {num(ov(res, 'score_mean'))}, sd {num(ov(res, 'score_sd'))}"),
    ]
