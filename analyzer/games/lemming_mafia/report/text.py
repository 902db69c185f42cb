"""Lemming Mafia's sentences: the takeaway under each of its figures and the
designer's questions with their answers, computed from its report tables."""
from __future__ import annotations

import numpy as np
import pandas as pd

from analyzer.report.text import (
    answer_first_seat, answer_skill, num, num_ci, ordinal, overview_value, pct, pct_ci, race_length_spread,
    stage_label,
)

MIN_CELL = 30  # cards below which a heat-map cell is too thin to quote


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
    ct = res["contracts"]
    if not len(ct):
        return "No contracts in this run."
    bad = ct[ct["hold_value_high"] < 0].sort_values("hold_value")
    best = ct.loc[ct["hold_value"].idxmax()]
    parts = []
    if len(bad):
        names = ", ".join(bad["contract"])
        parts.append(f"holding {names} to the end loses "
                     f"{num(-bad['hold_value'].max())} to {num(-bad['hold_value'].min())} points on average")
    else:
        parts.append("no contract loses points on average when held to the end")
    parts.append(f"{best['contract']} is worth most, "
                 f"{num_ci(best['hold_value'], best['hold_value_low'], best['hold_value_high'], sign=True)}")
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."


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


def lemmings(res: dict) -> str:
    lm = res["lemmings"]
    if not len(lm) or lm["wins"].sum() == 0:
        return "No races."
    best = lm.loc[lm["win_rate"].idxmax()]
    worst = lm.loc[lm["win_rate"].idxmin()]
    fair = 1 / len(lm)
    off = lm[(lm["win_low"] > fair) | (lm["win_high"] < fair)]
    verdict = (f"{len(off)} of {len(lm)} colours {'differs' if len(off) == 1 else 'differ'} from a fair "
               f"{pct(fair)} beyond sampling error"
               if len(off) else f"all colours are within sampling error of a fair {pct(fair)}")
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





def answers(res: dict, manifest: dict) -> list[tuple[str, str]]:
    """(question, answer) pairs, each answer computed from the tables."""
    return [
        ("When should I bet on the leader?", _answer_leader(res)),
        ("Which contracts should I throw away?", _answer_contracts(res)),
        ("Is the first seat favoured?", answer_first_seat(res, manifest)),
        ("How much does skill matter against luck?", answer_skill(res)),
        ("Are the lemming colours balanced?", lemmings(res)),
        ("How often do contracts break a tie?", _answer_tiebreak(res)),
    ]


def _answer_leader(res: dict) -> str:
    h = _heat(res)
    lead = h[(h["track_place"] == 1) & h["chance"].notna()].sort_values("stage_bin")
    if not len(lead):
        return "Not enough bets in this run to tell."
    second = h[(h["track_place"] == 2) & h["chance"].notna()].set_index("stage_bin")
    coin = lead[lead["chance_low"] > 0.5]
    parts = []
    if len(coin):
        c = coin.iloc[0]
        parts.append(f"A card on the leader becomes better than a coin flip once about {100 * c['stage_from']:.0f}% "
                     f"of the race is run: placed then it is the winner's card "
                     f"{pct_ci(c['chance'], c['chance_low'], c['chance_high'], 0)} of the time")
    else:
        best = lead.loc[lead["chance"].idxmax()]
        parts.append(f"A card on the leader never becomes a safe bet: at best "
                     f"({stage_label(best['stage_from'], best['stage_to'])} of the race) it is the winner's card "
                     f"{pct_ci(best['chance'], best['chance_low'], best['chance_high'], 0)} of the time")
    first, last = lead.iloc[0], lead.iloc[-1]
    parts.append(f"placed at {stage_label(first['stage_from'], first['stage_to'])} of the race it is only "
                 f"{pct(first['chance'], 0)} (early on most lemmings still share 1st place in the start area), "
                 f"at {stage_label(last['stage_from'], last['stage_to'])} {pct(last['chance'], 0)}")
    by_stage = lead.set_index("stage_bin")
    both = [s for s in by_stage.index if s in second.index]
    ahead = [by_stage.loc[s, "chance"] > second.loc[s, "chance"] for s in both]
    if both:
        # the first stage from which the leader's card stays ahead of the runner-up's
        k = len(ahead)
        while k > 0 and ahead[k - 1]:
            k -= 1
        if k == 0:
            parts.append("a card on the leader beats one on the 2nd-placed lemming at every stage")
        elif k < len(ahead):
            parts.append(f"a card on the leader beats one on the 2nd-placed lemming from "
                         f"{100 * by_stage.loc[both[k], 'stage_from']:.0f}% of the race on")
        else:
            parts.append("a card on the 2nd-placed lemming does at least as well late in the race")
    parts.append(f"a card on the leader placed at {stage_label(last['stage_from'], last['stage_to'])} "
                 f"earns {num(last['mean_points'])} points on average against {num(first['mean_points'])} at "
                 f"{stage_label(first['stage_from'], first['stage_to'])} (later cards also sit higher on the stack)")
    text = "; ".join(parts) + "."
    if len(coin):
        text += (f" So hold the cards meant for the leader until about {100 * coin.iloc[0]['stage_from']:.0f}% "
                 "of the race.")
    return text + " (Race stage is measured in hindsight, against the race's final length.)"


def _answer_contracts(res: dict) -> str:
    ct = res["contracts"]
    if not len(ct):
        return "No contracts in this run."

    def names(df, col):
        return ", ".join(f"{r['contract']} ({num(r[col], sign=True)}, 95% CI {num(r[col + '_low'], sign=True)} "
                         f"to {num(r[col + '_high'], sign=True)})" for _, r in df.iterrows())

    throw = ct[ct["hold_value_high"] < 0].sort_values("hold_value")
    keep = ct[ct["hold_value_low"] > 0].sort_values("hold_value", ascending=False)
    unclear = ct[(ct["hold_value_high"] >= 0) & (ct["hold_value_low"] <= 0)]
    out = []
    if len(throw):
        out.append(f"Throw away {names(throw, 'hold_value')}: held to the end they pay less than the 0 of a "
                   f"discard (mean points per card)")
    else:
        out.append("No contract loses points on average when held to the end, so none should be thrown away "
                   "unconditionally")
    if len(keep):
        out.append(f"keep {', '.join(keep['contract'])} (held to the end they pay "
                   f"{num(keep['hold_value'].min(), sign=True)} to {num(keep['hold_value'].max(), sign=True)} "
                   "points on average, every interval above 0)")
    if len(unclear):
        out.append(f"no clear call for {', '.join(unclear['contract'])} (interval includes 0)")
    good = ct[(ct["discarded"] > 0) & (ct["discard_gain_low"] > 0)]
    badd = ct[(ct["discarded"] > 0) & (ct["discard_gain_high"] < 0)]
    tail = []
    if len(good):
        tail.append(f"the bots' discards gained points for {len(good)} of {len(ct)} contracts "
                    f"(discarded cards would have paid less than 0)")
    if len(badd):
        tail.append(f"they lost points discarding {', '.join(badd['contract'])}")
    text = "; ".join(out) + "."
    if tail:
        text += (" In play, " + "; ".join(tail) + " (these gains reflect which cards the bots chose to "
                 "discard, not the cards alone).")
    return text


def _answer_tiebreak(res: dict) -> str:
    tb = overview_value(res, "tiebreak_share")
    lo, hi = overview_value(res, "tiebreak_share", "low"), overview_value(res, "tiebreak_share", "high")
    sh = overview_value(res, "shared_win_share")
    return (f"The top score is tied and decided by contract points in {pct_ci(tb, lo, hi)} of races; "
            f"{pct(sh)} of races still end in a shared win.")
