"""Sau Mau Mau's balance report sections (the interface every game's report
package offers ``analyzer/report/html.py``): ``FIGURES``, ``answers``,
``overview``, ``key_tables``, ``FOOTNOTE`` and ``TABLE_DOCS``."""
from __future__ import annotations

from analyzer.report.figures import COMMON_FIGURES, SCORE_FIGURE
from analyzer.report.answer_charts import SEAT_CHART, AnswerChart
from analyzer.report.flow import flow_figure, flow_table
from analyzer.report.html import seat_tables, table
from analyzer.games.sau_mau_mau.report import figures as F
from analyzer.games.sau_mau_mau.report import text as T
from analyzer.games.sau_mau_mau.report.text import QUESTIONS, answers, warnings
from analyzer.report.text import num, num_ci, ordinal, overview_value, pct, pct_ci, pp_ci
from analyzer.games.sau_mau_mau.stats import TABLE_DOCS

__all__ = ["FIGURES", "answers", "QUESTIONS", "warnings", "overview", "key_tables", "FOOTNOTE",
           "TABLE_DOCS", "ANSWER_CHARTS", "CONTROLLED_TABLES"]

FOOTNOTE = ("A simulated unit is a game of several races (four under the box rules; the rules line names a "
            "variant); win rates and scores are per game (shared wins count "
            "for every tied player), race points and bets per race. Intervals are 95%: Wilson for rates, "
            "Student t (mean ± t·sd/√n) for means; a bot's rates over several seats are clustered by game "
            "(the seats of one game are not independent); seat and bot comparisons are paired by game, the "
            "starting seat's edge by race; changed against first bets is unpaired (every bet card laid), each change "
            "against the bet it replaced is paired by change. Race stage is the share of "
            "the race's turns made before a bet was laid, measured against the race's final length.")

# the charts of what the structural answers cite, drawn from the controlled tables (report/answer_charts.py)
ANSWER_CHARTS = [
    SEAT_CHART,
    AnswerChart("queue_position", "queue_position", "queue_position", "mean_points", "points_low", "points_high",
                "points", "zero", "Value of each queue position", "place in the bet queue",
                "points per bet (95% CI)", rows=lambda df: df[(df["bot"] == "all") & (df["bets"] > 0)]),
    AnswerChart("first_player", "first_player", "race", "advantage", "advantage_low", "advantage_high", "points",
                "zero", "Starting a race", "race (all: the races together)",
                "the starter's race points minus\nthe other seats' mean (95% CI)"),
    AnswerChart("pigs", "pigs", "pig", "win_share", "win_low", "win_high", "share", "rows", "Wins per pig",
                "pig", "share of races won (95% CI)"),
    AnswerChart("race_ends", "ends_by_race", "race", "share", "low", "high", "share", "none",
                "Races ended by the crown", "race of the game", "share of races ended by the crown (95% CI)",
                rows=lambda df: df[df["end"] == "crown"]),
]
CONTROLLED_TABLES = ("overview", "pigs", "seat_advantage", "win_patterns", "queue_position", "first_player",
                     "ends_by_race")  # the controlled tables written as CSV

FIGURES = [
    # (key, title, draw, takeaway), after the common figures
    *COMMON_FIGURES,
    ("queue_position", "Value of each queue position", F.fig_queue_position, T.queue_position),
    ("bet_timing", "Bet timing and changed bets", F.fig_bet_timing, T.bet_timing),
    ("race_ends", "How races end", F.fig_race_ends, T.race_ends),
    ("first_player", "Starting a race", F.fig_first_player, T.first_player),
    ("pigs", "Wins per pig", F.fig_pigs, T.pigs),
    ("race_length", "Race length", F.fig_race_length, T.race_length),
    ("points", "Points breakdown", F.fig_points, T.points),
    SCORE_FIGURE,
    flow_figure(*T.FLOW[:2]),
]


def key_tables(res: dict) -> str:
    out = []
    bots = res["bots"]
    if len(bots):
        out.append("<h3>Bots</h3>")
        out.append(table(
            ["bot", "seats", "game win rate (95% CI)", "mean game total (95% CI)", "per race: points",
             "= bet points", "+ crown points", "+ hand points", "bet scored", "bets changed"],
            [[r["bot"], r["seats"], pct_ci(r["win_rate"], r["win_low"], r["win_high"]),
              num_ci(r["mean_score"], r["score_low"], r["score_high"]),
              num_ci(r["mean_race_points"], r["race_points_low"], r["race_points_high"]),
              num(r["mean_bet_points"]), num(r["mean_crown_points"]), num(r["mean_hand_points"]),
              pct(r["bet_scored"]), num(r["mean_bets_changed"])]
             for _, r in bots.iterrows()], left=2))
    out += seat_tables(res, "game win rate", "game",
                       extra=("races started per game", lambda r: num(r["races_started"], 1)))
    qp = res["queue_position"]
    qp = qp[(qp["bot"] == "all") & (qp["bets"] > 0)] if len(qp) else qp
    if len(qp):
        out.append("<h3>Bet queue</h3>")
        out.append(table(["queue place", "bets", "on a winning pig (95% CI)", "points per bet (95% CI)",
                          "points of a winning bet", "changed bets"],
                         [[ordinal(int(r["queue_position"])), f"{int(r['bets']):,}",
                           pct_ci(r["win_share"], r["win_low"], r["win_high"]),
                           num_ci(r["mean_points"], r["points_low"], r["points_high"]),
                           num(r["won_bet_points"]), pct(r["changed_share"])] for _, r in qp.iterrows()]))
    ch = res["bet_changes"]
    ch = ch[ch["first_bets"] + ch["changed_bets"] > 0] if len(ch) else ch
    if len(ch):
        out.append("<h3>First bets against changed bets (every bet card laid)</h3>")
        out.append(table(["bot", "first bets", "later changed away", "points (95% CI)", "changed bets",
                          "points (95% CI)", "changed minus first (95% CI)", "new pig won", "pig left won",
                          "difference (95% CI, paired by change)"],
                         [[r["bot"], f"{int(r['first_bets']):,}", pct(r["first_changed_away"], 0),
                           num_ci(r["first_points"], r["first_points_low"], r["first_points_high"]),
                           f"{int(r['changed_bets']):,}",
                           num_ci(r["changed_points"], r["changed_points_low"], r["changed_points_high"]),
                           num_ci(r["difference"], r["difference_low"], r["difference_high"], sign=True),
                           pct(r["new_pig_won"], 0), pct(r["left_pig_won"], 0),
                           pp_ci(r["switch_gain"], r["switch_low"], r["switch_high"])]
                          for _, r in ch.iterrows()]))
    fp = res["first_player"]
    if len(fp):
        out.append("<h3>The starting seat</h3>")
        out.append(table(["race", "races", "starter's race points", "others' mean",
                          "difference (95% CI, paired by race)", "races the starter ends (95% CI)"],
                         [[r["race"], f"{int(r['races']):,}", num(r["first_points"]), num(r["others_points"]),
                           num_ci(r["advantage"], r["advantage_low"], r["advantage_high"], sign=True),
                           pct_ci(r["ended_by_first"], r["ended_by_first_low"], r["ended_by_first_high"])]
                          for _, r in fp.iterrows()]))
    pg = res["pigs"]
    if len(pg) and pg["wins"].sum():
        out.append("<h3>Pigs</h3>")
        out.append(table(["pig", "among the winners (95% CI)", "sole winner", "reached the crown (95% CI)",
                          "mean final space"],
                         [[r["pig"], pct_ci(r["win_share"], r["win_low"], r["win_high"]), pct(r["sole_win_share"]),
                           pct_ci(r["crown_share"], r["crown_low"], r["crown_high"]), num(r["mean_space"], 1)]
                          for _, r in pg.iterrows()]))
    out.append(flow_table(res, *T.FLOW[:2]))
    return "".join(out)


def overview(res: dict) -> list[tuple[str, str]]:
    ov = overview_value

    def share(metric, digits=1):
        return pct_ci(ov(res, metric), ov(res, metric, "low"), ov(res, metric, "high"), digits)

    return [
        ("games", f"{int(ov(res, 'games')):,} ({int(ov(res, 'races')):,} races)"),
        ("race length", f"{num(ov(res, 'race_length_mean'), 1)} player turns"),
        ("race ends by the crown", share("crown_end_share")),
        ("race ends by a player playing out", share("hand_end_share")),
        ("both at once", share("both_end_share")),
        ("stopped at the safety cap", pct(ov(res, "cap_end_share"), 2)),
        ("more than one winning pig", share("shared_pig_win_share")),
        ("winning pig backed by no player", share("winner_backed_by_nobody_share")),
        ("bets in the queue at the end", num(ov(res, "queue_length_mean"))),
        ("draw pile reshuffles per race", num(ov(res, "reshuffles_mean"))),
        ("starting seat's edge", num_ci(ov(res, "first_player_points_advantage"),
                                        ov(res, "first_player_points_advantage", "low"),
                                        ov(res, "first_player_points_advantage", "high"), sign=True)
         + " race points"),
        ("shared game wins", share("shared_game_win_share")),
        ("game total", f"mean {num(ov(res, 'score_mean'))}, sd {num(ov(res, 'score_sd'))}"),
    ]
