"""Lemming Mafia's sentences: the takeaway under each of its figures and the
designer's questions with their answers, computed from its report tables."""
from __future__ import annotations

import numpy as np
import pandas as pd

from analyzer.report.flow import flow_answer
from analyzer.report.text import (
    SEAT_METHOD, Answer, answer_skill, bots_answer, bots_scope, data_scope, first_seat_measure, flag_sentence, min_effect, num, num_ci,
    ordinal, overview_value, pct, pct_ci, pp_ci, race_length_spread, stage_label, structural,
)
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
LEADER_METHOD = ("hindsight: every card the bots placed, by the race stage when placed (its share of the "
                 "race's final length, which no player knows at the table) and its colour's track place; the "
                 "share of them that were the winner's card, 95% Wilson intervals")
CONTRACT_METHOD = ("value of holding each card to the end: per card dealt, its points if fulfilled and -2 if "
                   "not (what it pays when never discarded), mean with a 95% t interval; the gain of the "
                   "bots' own discards is hindsight (what the discarded card would have paid had play not "
                   "changed), not an intervention")


def answers(res: dict, manifest: dict, controlled=None) -> list[Answer]:
    """The designer's questions, each with its scope and method (``Answer``)."""
    return [
        _leader_answer(res, manifest, controlled),
        _bet_intervention_answer(res, manifest),
        _contract_answer(res, manifest, controlled),
        _discard_intervention_answer(res, manifest),
        structural("Is the first seat favoured?", "seat_advantage", first_seat_measure(manifest), SEAT_METHOD,
                   res, manifest, controlled),
        bots_answer("How much does skill matter against luck?", "scores", answer_skill(res),
                    "score variance explained by the bot (eta squared); each heuristic bot's win rate per seat "
                    "minus random's, paired by race, 95% t interval", manifest),
        _colour_answer(res, manifest, controlled),
        structural("How long is a race?", "race_length", _length_measure,
                   "histogram of race lengths in moves; mean with a 95% t interval", res, manifest, controlled),
        bots_answer("How often do contracts break a tie?", None, _answer_tiebreak(res),
                    "share of races whose top score was tied and decided by contract points, 95% Wilson",
                    manifest),
        flow_answer(res, manifest, *FLOW),
    ]


def _length_measure(res: dict) -> tuple[str, str]:
    mean = overview_value(res, "race_length_mean")
    lo, hi = overview_value(res, "race_length_mean", "low"), overview_value(res, "race_length_mean", "high")
    text = race_length(res)
    return (f"{mean:.0f}" if mean == mean else "none"), f"{text[0].lower()}{text[1:]} (mean 95% CI {num(lo, 1)}–{num(hi, 1)})"


def _leader_stage(res: dict):
    h = _heat(res)
    lead = h[(h["track_place"] == 1) & h["chance"].notna()].sort_values("stage_bin")
    coin = lead[lead["chance_low"] > 0.5]
    return None if not len(coin) else float(coin.iloc[0]["stage_from"])


def _leader_answer(res: dict, manifest: dict, controlled) -> Answer:
    text = _answer_leader(res)
    if controlled and len(controlled.tables) > 1:
        stages = {label: _leader_stage(t) for label, t in controlled.tables.items()}
        text += (" With each bot in every seat, a card on the leader becomes better than a coin flip at: "
                 + ", ".join(f"{label} {'never' if st is None else f'about {100 * st:.0f}%'}"
                             for label, st in stages.items())
                 + (" of the race: the same for these bots." if len(set(stages.values())) == 1 else
                    " of the race: the timing depends on how the bots play, so it is not a property of the "
                    "game alone."))
    return bots_answer("When should I bet on the leader?", "bet_heatmap", text, LEADER_METHOD, manifest)


def _contract_answer(res: dict, manifest: dict, controlled) -> Answer:
    answer = structural("Which contracts should I throw away?", "contracts", _contract_measure, CONTRACT_METHOD,
                        res, manifest, controlled)
    answer.text += _discard_hindsight(res) + (" Which cards pay depends on how the bots steer the race, so this "
                                               "describes the bots named, not the cards alone.")
    return answer


def _contract_measure(res: dict) -> tuple[str, str]:
    ct = res["contracts"]
    if not len(ct):
        return "none", "no contracts in this run."
    throw = ct[ct["hold_value_high"] < 0].sort_values("hold_value")
    keep = ct[ct["hold_value_low"] > 0].sort_values("hold_value", ascending=False)

    def names(df):
        return ", ".join(f"{r['contract']} ({num(r['hold_value'], sign=True)})" for _, r in df.iterrows())

    parts = []
    parts.append(f"throw away {names(throw)}" if len(throw) else "no contract loses points when held")
    if len(keep):
        parts.append(f"keep {names(keep)}")
    key = "throw:" + ",".join(sorted(throw["contract"])) + "|keep:" + ",".join(sorted(keep["contract"]))
    return key, "; ".join(parts) + " (points per card held to the end)."


def _colour_answer(res: dict, manifest: dict, controlled) -> Answer:
    def measure(tables):
        if not len(tables["lemmings"]) or tables["lemmings"]["wins"].sum() == 0:
            return "none", "no races."
        f = colour_flags(tables, manifest)
        key, sentence = flag_sentence(f, "colour")
        return key, sentence
    answer = structural("Are the lemming colours balanced?", "lemmings", measure, COLOUR_METHOD, res, manifest,
                        controlled)
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
    return ("A cause the data show: on the deck's \"X before Y\" cards "
            + ", ".join(f"{c} is named first {first.get(c, 0)}x and second {second.get(c, 0)}x"
                        for c in ahead + behind)
            + f"; the colours that win more are the ones these cards favour, with {', '.join(steered)} "
            + (f"but not with {', '.join(calm)}" if calm else "")
            + " — bots steering towards their contracts move the colours, which is about the deck and the "
              "bots, not the board.")


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


def _discard_hindsight(res: dict) -> str:
    """The bots' own discards, in hindsight (what the card would have paid had play not changed)."""
    ct = res["contracts"]
    good = ct[(ct["discarded"] > 0) & (ct["discard_gain_low"] > 0)]
    bad = ct[(ct["discarded"] > 0) & (ct["discard_gain_high"] < 0)]
    tail = []
    if len(good):
        tail.append(f"the bots' discards gained points for {len(good)} of {len(ct)} contracts")
    if len(bad):
        tail.append(f"they lost points discarding {', '.join(bad['contract'])}")
    if not tail:
        return ""
    return (" In hindsight (what a discarded card would have paid had play not changed, not an "
            "intervention), " + "; ".join(tail) + ".")


def _answer_tiebreak(res: dict) -> str:
    tb = overview_value(res, "tiebreak_share")
    lo, hi = overview_value(res, "tiebreak_share", "low"), overview_value(res, "tiebreak_share", "high")
    sh = overview_value(res, "shared_win_share")
    return (f"The top score is tied and decided by contract points in {pct_ci(tb, lo, hi)} of races; "
            f"{pct(sh)} of races still end in a shared win.")


# ------------------------------------------------------------ interventions

INTERVENTION_METHOD = (
    "intervention with common random numbers: races of the run replayed (same seed and race index, so the "
    "same deal and dice) with one seat's decision at one round forced each way, every other decision left to "
    "the bots; race i forces seat i mod players at a round drawn uniformly from the race's rounds of that "
    "kind; gain = that seat's score in the first arm minus in the second, mean with a paired 95% t interval "
    "over the races (clustered by race where a race gives several cards); race stage = the share of the track the leading lemming had crossed at that round")
DISCARD_ARMS = ("discard the card at a boss round against hold it to the end (never discarded from that round "
                "on), for each card the seat still held there")
BET_ARMS = ("put the leading lemming's card down at a bookmaker round against hold it then (pass; the bot "
            "decides freely afterwards), when the seat still held that card")


def _intervention_scope(manifest: dict) -> str:
    played = manifest.get("interventions") or {}
    races = int(played.get("races", 0) or 0)
    tail = f"{races:,} races of the run replayed" if races else "no races replayed"
    return f"{bots_scope(manifest)}; {data_scope(manifest)}; {tail}"


def _not_measured(manifest: dict) -> str:
    note = (manifest.get("interventions") or {}).get("note") or "the report played no interventions"
    return f"Not measured here ({note})."


def _narrower(t: pd.DataFrame) -> str:
    """How much the pairing narrows the interval (the pooled row)."""
    r = t.iloc[0]
    paired, unpaired = r["high"] - r["low"], r["unpaired_high"] - r["unpaired_low"]
    if not (paired > 0 and unpaired > 0):
        return ""
    return (f" Pairing the arms on the same races makes the interval {unpaired / paired:.1f}x narrower than two "
            f"independent samples would ({num(r['unpaired_low'], sign=True)} to {num(r['unpaired_high'], sign=True)} "
            "for the pooled gain).")


def _gain(r) -> str:
    return num_ci(r["gain"], r["low"], r["high"], sign=True)


def _discard_intervention_answer(res: dict, manifest: dict) -> Answer:
    q = "Does discarding a contract pay? (intervention)"
    method = f"{INTERVENTION_METHOD}; arms: {DISCARD_ARMS}"
    ct = res.get("intervention_contracts")
    scope = _intervention_scope(manifest)
    if ct is None or not len(ct):
        return Answer(q, _not_measured(manifest), method, scope, "contracts")
    pooled = ct[(ct["bot"] == "all") & (ct["stage"] == "all")]
    cards = pooled[pooled["contract"] != "all"]
    pays = cards[cards["low"] > 0].sort_values("gain", ascending=False)
    costs = cards[cards["high"] < 0].sort_values("gain")
    unclear = cards[(cards["low"] <= 0) & (cards["high"] >= 0)]

    def names(df):
        return ", ".join(f"{r['contract']} ({_gain(r)})" for _, r in df.iterrows())

    parts = [f"Replaying the same races with a card discarded at a boss round against held to the end "
             f"({int(pooled.iloc[0]['n']):,} forced decisions), discarding gains points per card for "
             + (names(pays) if len(pays) else "no card")]
    if len(costs):
        parts.append(f"it costs points for {names(costs)} (keep these)")
    if len(unclear):
        parts.append(f"no difference beyond sampling error for {', '.join(unclear['contract'])}")
    stages = ct[(ct["bot"] == "all") & (ct["contract"] == "all") & (ct["stage"] != "all") & (ct["n"] > 1)]
    if len(stages):
        parts.append("over all cards, discarding gains " + ", ".join(
            f"{_gain(r)} in the {r['stage']} of the track" for _, r in stages.iterrows()))
    text = "; ".join(parts) + "."
    own = res.get("intervention_own_discards")
    if own is not None and len(own) and own.iloc[0]["n"] > 1:
        o = own.iloc[0]
        text += (f" The discards the bots chose themselves gained {_gain(o)} points a card by intervention, where "
                 f"hindsight (what the card would have paid had play not changed) says "
                 f"{num_ci(o['hindsight_gain'], o['hindsight_low'], o['hindsight_high'], sign=True)}")
        per = own.iloc[1:]
        per = per[per["n"] > 1]
        text += (" (" + "; ".join(f"{r['bot']} {_gain(r)} against {num(r['hindsight_gain'], sign=True)}"
                                  for _, r in per.iterrows()) + ")." if len(per) else ".")
    text += _narrower(pooled)
    text += (" The other seats' bots respond to the forced choice, so this describes these bots: "
             f"{bots_scope(manifest)}.")
    return Answer(q, text, method, scope, "contracts")


def _bet_intervention_answer(res: dict, manifest: dict) -> Answer:
    q = "Does betting on the leader now pay, or holding the card? (intervention)"
    method = f"{INTERVENTION_METHOD}; arms: {BET_ARMS}"
    bt = res.get("intervention_bets")
    scope = _intervention_scope(manifest)
    if bt is None or not len(bt):
        return Answer(q, _not_measured(manifest), method, scope, "bet_heatmap")
    pooled = bt[bt["bot"] == "all"]
    total = pooled[pooled["stage"] == "all"]
    stages = pooled[(pooled["stage"] != "all") & (pooled["n"] > 1)]
    r0 = total.iloc[0]
    parts = [f"Replaying the same races with the leader's card put down at a bookmaker round against held then "
             f"({int(r0['n']):,} forced decisions), betting now gains {_gain(r0)} points"]
    if len(stages):
        parts.append(", ".join(f"{_gain(r)} in the {r['stage']} of the track (win chance "
                               f"{pp_ci(r['win_gain'], r['win_low'], r['win_high'])})" for _, r in stages.iterrows()))
        good = stages[stages["low"] > 0]
        bad = stages[stages["high"] < 0]
        if len(good):
            suffix = list(good.index) == list(stages.index[len(stages) - len(good):])
            parts.append(f"betting now pays from the {good.iloc[0]['stage']} of the track on" if suffix else
                         f"betting now pays in the {', '.join(good['stage'])}")
        if len(bad):
            parts.append(f"holding pays in the {', '.join(bad['stage'])}")
    parts.append(f"the bots themselves bet the leader there {pct(r0['bot_bet_leader'], 0)} of the time")
    text = "; ".join(parts) + "." + _narrower(total)
    text += f" The other bots respond to the bet, so this describes these bots: {bots_scope(manifest)}."
    return Answer(q, text, method, scope, "bet_heatmap")


def intervention_tables_html(res: dict) -> list[str]:
    from analyzer.report.html import table

    out = []
    ct = res.get("intervention_contracts")
    if ct is not None and len(ct):
        rows = ct[ct["bot"] == "all"]
        out.append("<h3>Discarding a contract, by intervention (same races, forced each way)</h3>")
        out.append(table(["contract", "stage of the track", "forced decisions", "gain of discarding (paired 95% CI)",
                          "unpaired 95% CI", "hindsight gain (95% CI)"],
                         [[r["contract"], r["stage"], f"{int(r['n']):,}", _gain(r),
                           f"{num(r['unpaired_low'], sign=True)} to {num(r['unpaired_high'], sign=True)}",
                           num_ci(r["hindsight_gain"], r["hindsight_low"], r["hindsight_high"], sign=True)]
                          for _, r in rows.iterrows()], left=2))
    bt = res.get("intervention_bets")
    if bt is not None and len(bt):
        out.append("<h3>Betting on the leader now or holding, by intervention (same races, forced each way)</h3>")
        out.append(table(["bot", "stage of the track", "forced decisions", "gain of betting now (paired 95% CI)",
                          "unpaired 95% CI", "win chance", "bot bet the leader itself"],
                         [[r["bot"], r["stage"], f"{int(r['n']):,}", _gain(r),
                           f"{num(r['unpaired_low'], sign=True)} to {num(r['unpaired_high'], sign=True)}",
                           pp_ci(r["win_gain"], r["win_low"], r["win_high"]), pct(r["bot_bet_leader"], 0)]
                          for _, r in bt.iterrows()], left=2))
    return out
