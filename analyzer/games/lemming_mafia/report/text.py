"""Lemming Mafia's sentences: the takeaway under each of its figures and the
designer's questions with their answers, computed from its report tables."""
from __future__ import annotations

import numpy as np
import pandas as pd

from analyzer.report.flow import flow_answer, flow_questions
from analyzer.report.text import (
    Answer, answer_skill, bots_answer, first_seat_finding, flag_sentence, judged_answer, min_effect, num, num_ci,
    ordinal, overview_value, pct, pct_ci, race_length_spread, seat_spread_finding, stage_label, structural,
)
from analyzer.games.lemming_mafia.report import causal
from analyzer.stats import questions as Q
from analyzer.stats.flags import ALPHA, share_balance

MIN_CELL = 30  # cards below which a heat-map cell is too thin to quote

FLOW = ("race", "moves", "lemming")  # one item, its steps, what leads its standing (docs/lemming-mafia.md)


def _heat(res: dict) -> pd.DataFrame:
    h = res["bet_heatmap"].copy()
    h.loc[h["cards"] < MIN_CELL, ["chance", "chance_low", "chance_high", "mean_points"]] = np.nan
    return h


def heatmap(res: dict) -> str:
    h = _heat(res)
    lead = h[(h["track_place"] == 1) & h["chance"].notna()].sort_values("stage_bin")
    if not len(lead):
        return "Too few bets to map."
    first, last = lead.iloc[0], lead.iloc[-1]
    rest = h[(h["track_place"] >= 3) & h["chance"].notna()]
    tail = ""
    if len(rest):
        top = rest.loc[rest["chance"].idxmax()]
        tail = (f"; a card on a lemming in 3rd place or worse is the winner's at most "
                f"{pct(top['chance'], 0)} ({ordinal(int(top['track_place']))} place, "
                f"{stage_label(top['stage_from'], top['stage_to'])} of the race)")
    return (f"A card on the leading lemming is the winner's card {pct(first['chance'], 0)} of the time when "
            f"placed at {stage_label(first['stage_from'], first['stage_to'])} of the race and "
            f"{pct(last['chance'], 0)} at {stage_label(last['stage_from'], last['stage_to'])}{tail}.")


def bet_timing(res: dict) -> str:
    st = res["bet_stage"]
    st = st[st["cards"] >= MIN_CELL]
    if not len(st):
        return "Too few bets to show timing."
    first, last = st.iloc[0], st.iloc[-1]
    best = st.loc[st["mean_points"].idxmax()]
    return (f"A card placed at {stage_label(first['stage_from'], first['stage_to'])} of the race earns "
            f"{num(first['mean_points'])} points on average, one placed at "
            f"{stage_label(last['stage_from'], last['stage_to'])} {num(last['mean_points'])} "
            f"(best: {stage_label(best['stage_from'], best['stage_to'])}, {num(best['mean_points'])}); "
            f"a winner's card placed that late pays {num(last['winner_card_points'])} points.")


def stack_position(res: dict) -> str:
    sp = res["stack_position"]
    allrows = sp[(sp["bot"] == "all") & (sp["cards"] > 0)]
    if not len(allrows):
        return "No bets placed."
    best = allrows.loc[allrows["mean_points"].idxmax()]
    worst = allrows.loc[allrows["mean_points"].idxmin()]
    return (f"The card placed {ordinal(int(best['order']))} pays most, "
            f"{num_ci(best['mean_points'], best['points_low'], best['points_high'])} points on average "
            f"(winner's card {pct(best['chance'])} of the time); the {ordinal(int(worst['order']))} pays "
            f"least, {num(worst['mean_points'])}.")


def contracts(res: dict) -> str:
    if not len(res["contracts"]):
        return "No contracts in this run."
    return ("In hindsight (what a card pays when held to the end, had play not changed; the contract answer "
            "gives the intervention): " + _contract_hindsight(res))


CHART_KEY = ("Each point is a mean gain with its 95% interval (paired: the same races played both ways), "
             "coloured by its evidence word against the ±{t} points threshold (the grey band): green shown, blue "
             "ruled out, amber not enough races. {hind} Source data: answer_{key}.csv.")


def discards_chart(res: dict) -> str:
    return ("The bots' own discards per bot (per race), each card and each stage of the track (per forced "
            "decision), by intervention; beside each, grey and labelled, the hindsight figure of the same "
            "discards. " + CHART_KEY.format(
                t=causal.PRACTICAL_POINTS, key=causal.DISCARDS_FIGURE,
                hind="Hindsight assumes the race would have gone the same; where the two differ, the intervention "
                     "counts."))


def bet_leader_chart(res: dict) -> str:
    return ("The gain of betting the leader's card now rather than holding it, over all stages and per stage of "
            "the track, by intervention, with the same decisions' change of win chance (dark: no threshold "
            "judges it); below, grey and labelled, the hindsight share of the bots' cards on the leader that won. "
            + CHART_KEY.format(t=causal.PRACTICAL_POINTS, key=causal.BET_FIGURE,
                               hind="Hindsight measures stages against the race's final length, which no player "
                                    "knows at the table."))


def race_length(res: dict) -> str:
    q = race_length_spread(res)
    if q is None:
        return "No races."
    mean = overview_value(res, "race_length_mean")
    return (f"A race lasts {num(mean, 1)} moves on average (median {q['median']}); 90% of races take "
            f"{q['p5']}–{q['p95']} moves, the shortest {q['shortest']} and the longest {q['longest']}.")


def eliminations(res: dict) -> str:
    el = res["eliminations"]
    if not len(el) or el["races"].sum() == 0:
        return "No races."
    top = el.loc[el["races"].idxmax()]
    ls = overview_value(res, "last_standing_share")
    wc = res["winner_concrete"]
    clean = wc[(wc["color"] == "all") & (wc["blocks"] == 0)]
    clean_s = f"; {pct(clean['share'].iloc[0], 0)} of winners carry no concrete" if len(clean) else ""
    return (f"{int(top['eliminated'])} eliminated lemming{'s' if top['eliminated'] != 1 else ''} is the most "
            f"common outcome ({pct(top['share'])}), {num(overview_value(res, 'eliminated_mean'))} on average; "
            f"{pct(ls)} of races end with the last lemming standing{clean_s}.")


def colour_flags(res: dict, manifest: dict | None = None):
    lm = res["lemmings"]
    races = int(overview_value(res, "races"))
    return share_balance(lm["wins"].to_numpy(), races, list(lm["color"]), ALPHA,
                         min_effect(manifest or {}))


def lemmings(res: dict, manifest: dict | None = None) -> str:
    lm = res["lemmings"]
    if not len(lm) or lm["wins"].sum() == 0:
        return "No races."
    best = lm.loc[lm["win_rate"].idxmax()]
    worst = lm.loc[lm["win_rate"].idxmin()]
    verdict = colour_flags(res, manifest).verdict("colour")
    return (f"{best['color'].capitalize()} wins most often, {pct_ci(best['win_rate'], best['win_low'], best['win_high'])}, "
            f"{worst['color']} least, {pct_ci(worst['win_rate'], worst['win_low'], worst['win_high'])}; {verdict}.")


def board(res: dict) -> str:
    f = res["fields"]
    if not len(f):
        return "No field counts in this run."
    busy = f.loc[f["landing_rate"].idxmax()]
    quiet = f.loc[f["landing_rate"].idxmin()]
    return (f"Busiest field: #{int(busy['field'])} ({busy['action']}, section {int(busy['section']) + 1}) with "
            f"{num(busy['landing_rate'])} landings per race; quietest: #{int(quiet['field'])} "
            f"({quiet['action']}, section {int(quiet['section']) + 1}) with {num(quiet['landing_rate'])}.")





COLOUR_METHOD = ("chi-square test that the six colours win equally often, then per-colour z tests against "
                 "1/6 with Holm correction; a colour is flagged only if its gap is at least the practical "
                 "threshold")
LEADER_METHOD = ("every card the bots placed, by the race stage when placed (its share of the "
                 "race's final length, which no player knows at the table) and its colour's track place; the "
                 "share of them that were the winner's card, 95% Wilson intervals")
def rule_value(manifest: dict, key: str):
    """A rule's value in the run (the manifest's ``rules``; the box's for a run
    written before runs named their rules)."""
    from analyzer.games.lemming_mafia.ruleset import RULES

    return RULES.from_manifest(manifest.get("rules")).at(key, int(manifest.get("players") or 4))


def contract_method(manifest: dict) -> str:
    return (f"value of holding each card to the end: per card dealt, its points if fulfilled and "
            f"{rule_value(manifest, 'unfulfilled_contract')} if not (what it pays when never discarded, had play "
            "not changed), mean with a 95% t interval")


COLOUR = Q.Direction("COLOUR BALANCE", "UNBALANCED", "UNBALANCED", "BALANCED within {bound}",
                     "a lemming colour wins more races than its fair share", "against a fair share")


def _colour_measure(tables: dict, manifest: dict):
    lm = tables["lemmings"]
    if not len(lm) or lm["wins"].sum() == 0:
        return None
    f = colour_flags(tables, manifest)
    return Q.family(Q.flag_parts(f, int(overview_value(tables, "races")), Q.unit_of(manifest), "a fair share"),
                    "a colour off fair", f.method)


COLOUR_BALANCE = Q.Question("colour_balance", "Are the lemming colours balanced?", ("lemmings", "overview"),
                            _colour_measure, COLOUR, Q.min_effect, "lemmings", COLOUR_METHOD)
FIRST_SEAT = Q.first_seat_edge()
SEAT_SPREAD = Q.seat_spread()
SKILL = Q.skill_gradient()
LENGTH = Q.length("race_length_mean", "moves", "race", "How long is a race?", "race_length")
# every question the report answers, by key (a balance search targets these)
QUESTIONS = (causal.BET_QUESTION, causal.DISCARDS_QUESTION, FIRST_SEAT, SEAT_SPREAD, SKILL, COLOUR_BALANCE, LENGTH,
             *flow_questions("race", "moves", 6))


def answers(res: dict, manifest: dict, controlled=None) -> list[Answer]:
    """The designer's questions, each with its scope and method (``Answer``)."""
    return [
        causal.bet_answer(res, manifest, _answer_leader(res), LEADER_METHOD),
        causal.contract_answer(res, manifest, _contract_hindsight(res), contract_method(manifest)),
        structural(FIRST_SEAT, first_seat_finding(manifest), res, manifest, controlled),
        structural(SEAT_SPREAD, seat_spread_finding(manifest), res, manifest, controlled),
        judged_answer(SKILL, answer_skill(res), res, manifest),
        _colour_answer(res, manifest, controlled),
        structural(LENGTH, _length_finding, res, manifest, controlled,
                   method="histogram of race lengths in moves; mean with a 95% t interval"),
        bots_answer("How often do contracts break a tie?", "tiebreak", _answer_tiebreak(res),
                    "share of races whose top score was tied and decided by contract points, 95% Wilson",
                    manifest, key="tiebreak"),
        flow_answer(res, manifest, *FLOW, contenders=len(res["lemmings"]) or None),
    ]


def _length_finding(res: dict) -> str:
    lo, hi = overview_value(res, "race_length_mean", "low"), overview_value(res, "race_length_mean", "high")
    text = race_length(res)
    return f"{text[0].lower()}{text[1:]} (mean 95% CI {num(lo, 1)}–{num(hi, 1)})"


def _contract_hindsight(res: dict) -> str:
    """Per card, what it pays when held to the end, had play not changed (the
    hindsight beside the intervention): cards beyond the practical threshold."""
    ct = res["contracts"]
    if not len(ct):
        return "no contracts in this run."
    t = causal.PRACTICAL_POINTS
    said = ct.apply(lambda r: causal.verdict(r["hold_value_low"], r["hold_value_high"], t), axis=1)
    throw = ct[said == causal.SHOWN_LOSS].sort_values("hold_value")
    keep = ct[said == causal.SHOWN_GAIN].sort_values("hold_value", ascending=False)

    def names(df):
        return ", ".join(f"{r['contract']} ({num(r['hold_value'], sign=True)})" for _, r in df.iterrows())

    parts = [f"held to the end, {names(throw)} lose more than {t:.2f} points a card" if len(throw) else
             f"no contract loses more than {t:.2f} points a card when held to the end"]
    if len(keep):
        parts.append(f"{names(keep)} pay more than {t:.2f}")
    return "; ".join(parts) + "."


def _colour_answer(res: dict, manifest: dict, controlled) -> Answer:
    def finding(tables):
        if not len(tables["lemmings"]) or tables["lemmings"]["wins"].sum() == 0:
            return "no races."
        return flag_sentence(colour_flags(tables, manifest), "colour")
    answer = structural(COLOUR_BALANCE, finding, res, manifest, controlled)
    why = _colour_cause(res, manifest, controlled)
    if why:
        answer.text += " " + why
    return answer


def _colour_cause(res: dict, manifest: dict, controlled) -> str:
    """Where the deck explains a colour gap: colours named first on "X before Y" cards
    gain when bots steer towards their contracts (and random bots, which do not
    steer, show no gap)."""
    ct = res["contracts"]
    before = ct[ct["kind"] == "before"] if len(ct) else ct
    if not len(before):
        return ""
    first, second = {}, {}
    for _, r in before.iterrows():
        a, b = str(r["colors"]).split(",")[:2]
        first[a] = first.get(a, 0) + int(r["cards"])
        second[b] = second.get(b, 0) + int(r["cards"])
    tables = controlled.tables if controlled else {"this table": res}
    steered = [label for label, t in tables.items()
               if len(t["lemmings"]) and colour_flags(t, manifest).any]
    if not steered:
        return ""
    f = colour_flags(tables[steered[0]], manifest)
    high = [f.items[i] for i in range(len(f.items)) if f.flagged[i] and f.share[i] > f.fair]
    low = [f.items[i] for i in range(len(f.items)) if f.flagged[i] and f.share[i] < f.fair]
    ahead = [c for c in high if first.get(c, 0) > second.get(c, 0)]
    behind = [c for c in low if second.get(c, 0) > first.get(c, 0)]
    if not ahead and not behind:
        return ""
    calm = [label for label in tables if label not in steered]
    named = [f"{_and(ahead)} {'is' if len(ahead) == 1 else 'are'} named first more often than second"] if ahead \
        else []
    named += [f"{_and(behind)} second more often than first"] if behind else []
    return ("A cause the data show: on the deck's \"X before Y\" cards (the contracts table counts them) "
            + " and ".join(named)
            + f"; the colours that win more are the ones these cards favour, with {', '.join(steered)} "
            + (f"but not with {', '.join(calm)}" if calm else "")
            + " — bots steering towards their contracts move the colours, which is about the deck and the "
              "bots, not the board.")


def _and(names: list) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _answer_leader(res: dict) -> str:
    """Which cards on the leader won, by race stage: hindsight, an association."""
    h = _heat(res)
    lead = h[(h["track_place"] == 1) & h["chance"].notna()].sort_values("stage_bin")
    if not len(lead):
        return "Not enough bets in this run to tell."
    coin = lead[lead["chance_low"] > 0.5]
    first, last = lead.iloc[0], lead.iloc[-1]
    parts = [f"A card the bots placed on the leader at {stage_label(first['stage_from'], first['stage_to'])} of "
             f"the race was the winner's card {pct(first['chance'], 0)} of the time (early on most lemmings still "
             f"share 1st place in the start area) and one placed at "
             f"{stage_label(last['stage_from'], last['stage_to'])} {pct(last['chance'], 0)}."]
    if len(coin):
        c = coin.iloc[0]
        parts.append(f"It was the winner's more often than not from about {100 * c['stage_from']:.0f}% of the race "
                     f"({pct_ci(c['chance'], c['chance_low'], c['chance_high'], 0)} then).")
    parts.append(f"Such a card earned {num(first['mean_points'])} points on average early and "
                 f"{num(last['mean_points'])} late (later cards also sit higher on the stack).")
    return " ".join(parts)


def tiebreak(res: dict) -> str:
    return _answer_tiebreak(res) + " Source data: tiebreak.csv."


def _answer_tiebreak(res: dict) -> str:
    tb = overview_value(res, "tiebreak_share")
    lo, hi = overview_value(res, "tiebreak_share", "low"), overview_value(res, "tiebreak_share", "high")
    sh = overview_value(res, "shared_win_share")
    return (f"The top score is tied and decided by contract points in {pct_ci(tb, lo, hi)} of races; "
            f"{pct(sh)} of races still end in a shared win.")
