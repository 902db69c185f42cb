"""Lemming Mafia's balance report sections (the interface every game's report
package offers ``analyzer/report/html.py``): ``FIGURES``, ``answers``,
``overview``, ``key_tables``, ``FOOTNOTE`` and ``TABLE_DOCS``."""
from __future__ import annotations

from analyzer.report.figures import COMMON_FIGURES, SCORE_FIGURE
from analyzer.report.answer_charts import SEAT_CHART, AnswerChart, mean_chart
from analyzer.report.flow import flow_figure, flow_table
from analyzer.report.html import seat_tables, table
from analyzer.games.lemming_mafia.report import figures as F
from analyzer.games.lemming_mafia.report import causal
from analyzer.games.lemming_mafia.report import text as T
from analyzer.games.lemming_mafia.report.text import QUESTIONS, answers
from analyzer.report.text import num, num_ci, overview_value, pct, pct_ci
from analyzer.games.lemming_mafia.stats import TABLE_DOCS

__all__ = ["FIGURES", "answers", "QUESTIONS", "overview", "key_tables", "FOOTNOTE",
           "TABLE_DOCS", "interventions", "ANSWER_CHARTS"]


def warm_jobs(match) -> list:
    """The compiles a report of ``match``'s run needs besides its controlled
    tables (``engine/warm.py``): the interventions' kernel."""
    from analyzer.games.lemming_mafia.intervene import warm_job

    return [warm_job(match)]


def interventions(manifest: dict, max_races: int | None = None) -> tuple[dict, dict]:
    """The run's races replayed with one decision forced each way (``intervene.py``):
    the tables, and what was played (races, or why nothing was). ``max_races`` caps
    every experiment (default: ``INTERVENTION_MAX``, ``POLICY_MAX`` for the bots'
    own discards)."""
    from analyzer.games.lemming_mafia.intervene import INTERVENTION_MAX, POLICY_MAX, intervention_tables
    from analyzer.report.controlled import match_of, seat_specs

    run = int(manifest.get("races", 0) or 0)
    races = int(min(run, INTERVENTION_MAX if max_races is None else max_races))
    policy = int(min(run, POLICY_MAX if max_races is None else max_races))
    if races <= 0:
        return {}, {"races": 0, "note": "the run is empty"}
    match, why = match_of(manifest, seat_specs(manifest))  # the run's bots, a user bot from its file
    if match is None:
        return {}, {"races": 0, "note": why}
    return (intervention_tables(match, int(manifest.get("seed", 1)), races, policy),
            {"races": races, "policy_races": policy, "note": ""})

FOOTNOTE = ("Intervals are 95%: Wilson for rates, Student t (mean ± t·sd/√n) for means; a bot's rates "
            "over several seats and a contract's rates over its cards are clustered by race (not independent "
            "draws); flags need a joint test, Holm-corrected per-item tests and a gap of at least the "
            "practical threshold (1 pp unless set); "
            "seat and bot comparisons are paired by race. Win rates count shared wins for every tied "
            "player. Race stage is the share of the race's moves made before a card was placed, measured "
            "against the race's final length.")

# the charts of what the structural answers cite, drawn from the controlled tables (report/answer_charts.py)
ANSWER_CHARTS = [
    SEAT_CHART,
    AnswerChart("lemmings", "lemmings", "color", "win_rate", "win_low", "win_high", "share", "rows",
                "Lemming colours", "colour", "share of races won (95% CI)"),
    mean_chart("race_length", "race_length_mean", "mean race length", "Race length",
               "moves per race, all players together\n(mean, 95% CI)"),
]

FIGURES = [
    # (key, title, draw, takeaway), after the common figures
    # the charts of the two intervention answers first (what they cite), then the hindsight figures
    (f"answer_{causal.BET_FIGURE}", "When should I bet on the leader? (intervention, hindsight after)",
     F.fig_bet_leader, T.bet_leader_chart),
    (f"answer_{causal.DISCARDS_FIGURE}", "Which contracts should I throw away? (intervention, hindsight beside)",
     F.fig_discards, T.discards_chart),
    *COMMON_FIGURES,
    ("bet_heatmap", "Which bets won (hindsight): track place × race stage", F.fig_bet_heatmap, T.heatmap),
    ("bet_timing", "Bet timing", F.fig_bet_timing, T.bet_timing),
    ("stack_position", "Payoff by stack position", F.fig_stack_position, T.stack_position),
    ("contracts", "Contract payoffs (hindsight: had play not changed)", F.fig_contracts, T.contracts),
    ("race_length", "Race length", F.fig_race_length, T.race_length),
    ("eliminations", "Eliminations and concrete", F.fig_eliminations, T.eliminations),
    ("tiebreak", "Ties decided by contract points", F.fig_tiebreak, T.tiebreak),
    ("lemmings", "Lemming colours", F.fig_lemmings, T.lemmings),
    ("board", "The board", F.fig_board, T.board),
    SCORE_FIGURE,
    flow_figure(*T.FLOW[:2]),
]


def key_tables(res: dict) -> str:
    out = []
    bots = res["bots"]
    if len(bots):
        out.append("<h3>Bots</h3>")
        out.append(table(
            ["bot", "seats", "win rate (95% CI)", "mean score (95% CI)", "= bet points", "+ contract points",
             "score sd", "never backed the winner"],
            [[r["bot"], r["seats"], pct_ci(r["win_rate"], r["win_low"], r["win_high"]),
              num_ci(r["mean_score"], r["score_low"], r["score_high"]),
              num_ci(r["mean_bet_points"], r["bet_points_low"], r["bet_points_high"]),
              num_ci(r["mean_contract_points"], r["contract_points_low"], r["contract_points_high"]),
              num(r["score_sd"]), pct_ci(r["never_backed"], r["never_backed_low"], r["never_backed_high"])]
             for _, r in bots.iterrows()], left=2))
    out += seat_tables(res, "win rate", "race")
    ct = res["contracts"]
    if len(ct):
        out.append("<h3>Contracts</h3>")
        out.append(table(["contract", "points", "dealt", "fulfilled", "discarded", "payoff when kept",
                           "hindsight: value if held (95% CI)", "hindsight: gain of the bots' discards (95% CI)"],
                          [[r["contract"], r["points"], f"{int(r['dealt']):,}", pct(r["fulfil_rate"]),
                            pct(r["discard_rate"]), num(r["kept_payoff"], sign=True),
                            num_ci(r["hold_value"], r["hold_value_low"], r["hold_value_high"], sign=True),
                            num_ci(r["discard_gain"], r["discard_gain_low"], r["discard_gain_high"], sign=True)]
                           for _, r in ct.iterrows()]))
    out += causal.intervention_tables_html(res)
    lm = res["lemmings"]
    if len(lm) and lm["wins"].sum():
        out.append("<h3>Lemmings</h3>")
        out.append(table(["lemming", "win rate (95% CI)", "mean final place", "concrete at the end",
                           "concrete on the winner when it wins"],
                          [[r["color"], pct_ci(r["win_rate"], r["win_low"], r["win_high"]),
                            num(r["mean_place"]), num(r["mean_concrete_at_end"]),
                            num(r["winner_concrete_mean"])] for _, r in lm.iterrows()]))
    out.append(flow_table(res, *T.FLOW[:2]))
    return "".join(out)


def overview(res: dict) -> list[tuple[str, str]]:
    ov = overview_value
    items = [
        ("races", f"{int(ov(res, 'races')):,}"),
        ("race length", f"{num(ov(res, 'race_length_mean'), 1)} moves"),
        ("eliminated lemmings", f"{num(ov(res, 'eliminated_mean'))} per race"),
        ("last lemming standing", pct(ov(res, "last_standing_share"))),
        ("decided by contract tie-break", pct_ci(ov(res, "tiebreak_share"), ov(res, "tiebreak_share", "low"),
                                                   ov(res, "tiebreak_share", "high"))),
        ("shared wins", pct(ov(res, "shared_win_share"))),
        ("winner backed by no player", pct(ov(res, "winner_backed_by_nobody_share"))),
        ("a player never backed the winner", pct(ov(res, "player_never_backed_winner_share"))),
        ("score", f"mean {num(ov(res, 'score_mean'))}, sd {num(ov(res, 'score_sd'))}"),
    ]
    return items
