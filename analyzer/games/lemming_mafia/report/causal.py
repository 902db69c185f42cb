"""Lemming Mafia's two "does it pay" answers, led by the interventions
(``intervene.py``: the run's races replayed with one decision forced each way,
common random numbers) with the hindsight figures beside them, labelled, and the
size of their bias.

One answer per question. Hindsight (what a discarded card would have paid had
play not changed; how often a card placed at some stage was the winner's) and
intervention can disagree because the bots steer the race by the cards they
hold: keeping a contract changes the race, and so does putting a bet card down.
The intervention plays the race again with the decision changed, so where the two
disagree the text says to trust it, and why.

Practical threshold: a gain is called one (``shown``) only when its 95% interval
lies beyond ``PRACTICAL_POINTS``; an interval inside ±``PRACTICAL_POINTS``
*rules it out* (an equivalence test); otherwise there are *not enough races*.
Cards or stages in one group are listed with their figures and no order is
claimed between them (noise-level gaps such as -0.01 decide nothing)."""
from __future__ import annotations

import pandas as pd

from analyzer.report.text import Answer, bots_answer, bots_scope, data_scope, is_num, num, num_ci, pct, pp_ci
from analyzer.stats.evidence import verdict as judge

# points per decision (or per race, for a bot's whole discard policy) below which a
# gain makes no practical difference: an eighth of the -2 an unfulfilled card costs,
# a quarter of the 1 point a bet card gains per place on the stack (the box's rules;
# kept under a variant's, which the report names)
PRACTICAL_POINTS = 0.25

SHOWN_GAIN, SHOWN_LOSS, RULED_OUT, NOT_ENOUGH = "shown: gain", "shown: loss", "ruled out", "not enough races"

INTERVENTION_METHOD = (
    "intervention with common random numbers: races of the run replayed (same seed and race index, so the "
    "same deal and dice) with one seat's decision forced each way, every other decision left to the bots; "
    "gain = that seat's score in the first arm minus in the second, mean with a paired 95% t interval "
    "(clustered by race where a race gives several samples); race stage = the share of the track the "
    "leading lemming had crossed at that round (what a player sees at the table); a gain counts only beyond "
    f"±{PRACTICAL_POINTS} points (the practical threshold), an interval inside ±{PRACTICAL_POINTS} rules it out")
POLICY_ARMS = ("a bot's own discards: each race as played against the same race with every discard of one seat "
               "undone (it keeps all its contracts, its bot still asked), for every seat, per race")
DISCARD_ARMS = ("one card: at a boss round drawn uniformly from the race's (race i forces seat i mod players), "
                "discard the card against hold it to the end, for each card the seat still held there")
BET_ARMS = ("at a bookmaker round drawn uniformly from the race's (race i forces seat i mod players), put the "
            "leading lemming's card down against hold it then (pass; the bot decides freely afterwards), when "
            "the seat still held that card")
TRUST = ("Trust the intervention: it plays each race again with the decision changed, so it counts what the "
         "decision changes in the rest of the race (the bots steer towards the contracts they hold and react to "
         "the bets); hindsight assumes the race would have gone the same.")


def verdict(low: float, high: float, threshold: float = PRACTICAL_POINTS) -> str:
    """``SHOWN_GAIN`` / ``SHOWN_LOSS``: the 95% interval lies beyond +/- the
    threshold; ``RULED_OUT``: inside +/- the threshold; else ``NOT_ENOUGH``."""
    if not (is_num(low) and is_num(high)):
        return NOT_ENOUGH
    if low > threshold:
        return SHOWN_GAIN
    if high < -threshold:
        return SHOWN_LOSS
    if -threshold < low and high < threshold:
        return RULED_OUT
    return NOT_ENOUGH


def points_evidence(r, what: str, races: int):
    """The scorecard's verdict (``stats/evidence.py``) of a gain row (gain, low, high)
    against the practical threshold in points."""
    return judge(float(r["gain"]), float(r["low"]), float(r["high"]), PRACTICAL_POINTS, races, what=what,
                 fmt=lambda x: f"{x:+.2f}", suffix=" points")


def _gain(r, low="low", high="high", value="gain") -> str:
    return num_ci(r[value], r[low], r[high], sign=True)


def _races(manifest: dict, key: str = "races") -> int:
    return int((manifest.get("interventions") or {}).get(key, 0) or 0)


def intervention_scope(manifest: dict) -> str:
    races, policy = _races(manifest), _races(manifest, "policy_races")
    tail = f"{races:,} races of the run replayed" if races else "no races replayed"
    if policy and policy != races:
        tail += f" ({policy:,} for the bots' own discards)"
    return f"{bots_scope(manifest)}; {data_scope(manifest)}; {tail}"


def _not_measured(manifest: dict) -> str:
    return (manifest.get("interventions") or {}).get("note") or "the report played no interventions"


def _narrower(r) -> str:
    """How much pairing the arms narrows the interval of row ``r``."""
    paired, unpaired = r["high"] - r["low"], r["unpaired_high"] - r["unpaired_low"]
    if not (paired > 0 and unpaired > 0):
        return ""
    return (f" Pairing the arms on the same races makes the interval {unpaired / paired:.1f}x narrower than two "
            f"independent samples would ({num(r['unpaired_low'], sign=True)} to "
            f"{num(r['unpaired_high'], sign=True)}).")


# ---------------------------------------------------------------- contracts

def contract_answer(res: dict, manifest: dict, hindsight: str, hindsight_method: str) -> Answer:
    """"Which contracts should I throw away?": the bots' own discards per race and
    each card by intervention, hindsight beside them with its bias. ``hindsight``:
    the hold-value sentence (the whole answer when no intervention was played)."""
    q = "Which contracts should I throw away?"
    policy, cards = res.get("intervention_discard_policy"), res.get("intervention_contracts")
    if policy is None or not len(policy) or cards is None or not len(cards):
        text = (f"Not measured by intervention here ({_not_measured(manifest)}). Hindsight only (what a card pays "
                f"when held to the end had play not changed; it misjudges cards the bots steer for): {hindsight}")
        return bots_answer(q, "contracts", text, f"hindsight only: {hindsight_method}", manifest)
    method = (f"{INTERVENTION_METHOD}; arms: {POLICY_ARMS}; and {DISCARD_ARMS}; beside them, labelled, hindsight: "
              f"{hindsight_method}")
    text = _policy_text(policy, _races(manifest, "policy_races") or _races(manifest))
    cards_text, cards_table = _cards_text(cards)
    text += " " + cards_text
    text += " " + _hindsight_text(policy, cards)
    text += (" The other seats' bots respond to each forced choice, so this describes these bots: "
             f"{bots_scope(manifest)}.")
    races = _races(manifest, "policy_races") or _races(manifest)
    what = "the bot's own discards, by intervention, points a race:"
    evidence = {_bot(r): points_evidence(r, what, races) for _, r in policy_rows(policy).iterrows()}
    tables = [t for t in (_policy_table(policy), cards_table, _stage_table(cards)) if t]
    return Answer(q, text, method, intervention_scope(manifest), DISCARDS_FIGURE, evidence=evidence or None,
                  table=tables[0] if tables else None, extra_tables=tables[1:])


def _bot(r) -> str:
    """A policy row's bot (one bot in every seat has the pooled row only)."""
    return r["bot"] if r["bot"] != "all" else "the bot"


def _bot_seats(r) -> str:
    """A policy row's bot with the seats it played: ``contractor (seat 3)``."""
    seats = str(r.get("seats", ""))
    return f"{_bot(r)} (seat{'s' if ',' in seats else ''} {seats})" if seats else _bot(r)


# the figure keys of the two answers when measured by intervention: their charts
# (``figures.fig_discards``, ``figures.fig_bet_leader``) are keyed "answer_<key>"
DISCARDS_FIGURE, BET_FIGURE = "discards", "bet_leader"


def policy_rows(policy: pd.DataFrame) -> pd.DataFrame:
    """The rows of the bots' own discards the answer reads: one per bot (the pooled
    row when one bot plays every seat), each with samples to judge."""
    per = policy[policy["bot"] != "all"] if len(policy) > 1 else policy
    return per[per["n"] > 1]


def card_rows(cards: pd.DataFrame) -> pd.DataFrame:
    """Each card's forced discards, all bots and stages pooled, best gain first."""
    pooled = cards[(cards["bot"] == "all") & (cards["stage"] == "all")]
    return pooled[(pooled["contract"] != "all") & (pooled["n"] > 1)].sort_values("gain", ascending=False)


def stage_rows(table: pd.DataFrame, **match) -> pd.DataFrame:
    """The pooled rows of an intervention table by stage of the track (``match``:
    further columns to fix, e.g. ``contract="all"``)."""
    rows = table[(table["bot"] == "all") & (table["stage"] != "all") & (table["n"] > 1)]
    for column, value in match.items():
        rows = rows[rows[column] == value]
    return rows


POLICY_WORDS = {SHOWN_GAIN: "they pay", SHOWN_LOSS: "they cost points", RULED_OUT: "no practical difference",
                NOT_ENOUGH: "not enough races to tell"}


def _policy_text(policy: pd.DataFrame, races: int) -> str:
    per = policy_rows(policy)
    if not len(per):
        return "No seat discarded a contract in the replayed races."
    words = [verdict(r["low"], r["high"]) for _, r in per.iterrows()]
    groups = {w: [_bot(r) for (_, r), x in zip(per.iterrows(), words) if x == w] for w in dict.fromkeys(words)}
    if len(per) == 1:
        r = per.iloc[0]
        said = f"{_bot_seats(r)} {_gain(r)} points a race ({POLICY_WORDS[words[0]]})"
    else:
        said = "; ".join(f"for {', '.join(bots)}, {POLICY_WORDS[w]}" for w, bots in groups.items())
        said += " (each bot's gain a race, its change of win chance and its discards a race: the table of bots below)"
    return (f"By intervention ({races:,} races of the run replayed with each seat's discards undone, same deal "
            f"and dice), the discards the bots chose gained: {said}.")


def _policy_table(policy: pd.DataFrame) -> tuple[list[str], list[list]] | None:
    per = policy_rows(policy)
    if not len(per):
        return None
    return (["bot (seats)", "gain a race by its own discards (points, paired 95% CI)", "verdict",
             "win chance", "discards a race"],
            [[_bot_seats(r), _gain(r), verdict(r["low"], r["high"]),
              pp_ci(r["win_gain"], r["win_low"], r["win_high"]), num(r["discards"], 1)] for _, r in per.iterrows()])


def _stage_table(cards: pd.DataFrame) -> tuple[list[str], list[list]] | None:
    stages = stage_rows(cards, contract="all")
    if not len(stages):
        return None
    return (["stage of the track (all cards)", "gain of discarding a card (points, paired 95% CI)", "verdict"],
            [[r["stage"], _gain(r), verdict(r["low"], r["high"])] for _, r in stages.iterrows()])


def _cards(names: list) -> str:
    return f"{len(names)} card{'s' if len(names) != 1 else ''}"


def _verb(names: list, one: str, many: str) -> str:
    return one if len(names) == 1 else many


def _cards_text(cards: pd.DataFrame) -> tuple[str, tuple[list[str], list[list]] | None]:
    """The per-card discard values: a sentence that counts them by verdict and names
    the decided ones, and the table of all of them that the page shows under it."""
    pooled = cards[(cards["bot"] == "all") & (cards["stage"] == "all")]
    rows = card_rows(cards)
    if not len(rows):
        return "", None
    words = [verdict(r["low"], r["high"]) for _, r in rows.iterrows()]
    names = {v: [c for c, w in zip(rows["contract"], words) if w == v] for v in set(words)}
    t = f"{PRACTICAL_POINTS:.2f}"
    parts = []
    if SHOWN_GAIN in names:
        parts.append(f"throw away {', '.join(names[SHOWN_GAIN])} (discarding gains more than {t} a card)")
    if SHOWN_LOSS in names:
        parts.append(f"keep {', '.join(names[SHOWN_LOSS])} (discarding loses more than {t} a card)")
    if RULED_OUT in names:
        parts.append(f"{_cards(names[RULED_OUT])} {_verb(names[RULED_OUT], 'makes', 'make')} no practical "
                     f"difference (within ±{t})")
    if NOT_ENOUGH in names:
        parts.append(f"{_cards(names[NOT_ENOUGH])} {_verb(names[NOT_ENOUGH], 'needs', 'need')} more races to tell")
    text = (f"Per card, discarding it at a boss round drawn at random (not one a bot chose) rather than holding "
            f"it to the end ({int(pooled.iloc[0]['n']):,} forced decisions; every card in the table of cards below): "
            + "; ".join(parts) + ".")
    table = (["contract", "gain of discarding it (points, paired 95% CI)", "verdict"],
             [[r["contract"], _gain(r), w] for (_, r), w in zip(rows.iterrows(), words)])
    stages = stage_rows(cards, contract="all")
    if len(stages):
        text += " Over all cards, by stage of the track: " + _stage_advice(stages, "discarding") + \
            " (the table of stages below)."
    return text, table


def _hindsight_text(policy: pd.DataFrame, cards: pd.DataFrame) -> str:
    """Hindsight beside the intervention: its bias per bot, the cards it would sort
    otherwise, and which to trust."""
    per = policy_rows(policy)
    parts, agree, off = [], [], False
    for _, r in per.iterrows():
        if verdict(r["bias_low"], r["bias_high"]) == RULED_OUT:
            agree.append(_bot(r))
            continue
        bias = _gain(r, "bias_low", "bias_high", "bias")
        if r["bias_low"] > 0 or r["bias_high"] < 0:  # beyond sampling error, whatever its size
            off = True
            parts.append(f"for {_bot(r)} it says {num(r['hindsight_gain'], sign=True)} a race, "
                         f"{'overstating' if r['bias'] > 0 else 'understating'} the intervention by {bias} points")
        else:
            parts.append(f"for {_bot(r)} there are not enough races to size its bias ({bias})")
    if agree:
        parts.append(f"for {', '.join(agree)} it agrees with the intervention within ±{PRACTICAL_POINTS:.2f} "
                     "(keeping a card hardly changes how their races go)")
    pooled = cards[(cards["bot"] == "all") & (cards["stage"] == "all") & (cards["contract"] != "all")
                   & (cards["n"] > 1)]
    flipped = []
    for _, r in pooled.iterrows():
        h, v = verdict(r["hindsight_low"], r["hindsight_high"]), verdict(r["low"], r["high"])
        if NOT_ENOUGH not in (h, v) and h != v:  # both figures decide the card, differently
            flipped.append(r)
    text = ("Hindsight (what the discarded cards would have paid had play not changed, the \"hindsight\" columns "
            "of the tables): " + "; ".join(parts) + ".")
    if flipped:
        text += (f" Per card, hindsight would sort {len(flipped)} of {len(pooled)} cards otherwise ("
                 + ", ".join(f"{r['contract']}: hindsight {num(r['hindsight_gain'], sign=True)}, intervention "
                             f"{num(r['gain'], sign=True)}" for r in flipped) + ").")
    if off or flipped:
        text += " " + TRUST
    return text


# ---------------------------------------------------------------- bets

def bet_answer(res: dict, manifest: dict, hindsight: str, hindsight_method: str) -> Answer:
    """"When should I bet on the leader?": betting the leader's card now against
    holding it, per stage of the track, by intervention; the hindsight share of
    winning cards beside it, labelled as association. ``hindsight``: its sentence."""
    q = "When should I bet on the leader?"
    bt = res.get("intervention_bets")
    if bt is None or not len(bt):
        text = (f"Not measured by intervention here ({_not_measured(manifest)}). Hindsight only (which cards won, "
                f"an association, not what betting then gains): {hindsight}")
        return bots_answer(q, "bet_heatmap", text, f"hindsight only: {hindsight_method}", manifest)
    method = f"{INTERVENTION_METHOD}; arms: {BET_ARMS}; beside it, labelled, hindsight: {hindsight_method}"
    total = bet_total(bt)
    stages = stage_rows(bt)
    text = (f"By intervention (the same races replayed with the leader's card put down at a bookmaker round "
            f"against held then, {int(total['n']):,} forced decisions): betting now gains {_gain(total)} points "
            f"over all stages of the track")
    if len(stages):
        text += " (each stage's gain and change of win chance: the table below). " + _bet_advice(stages)
    else:
        text += "."
    text += (f" The bots themselves bet the leader there {pct(total['bot_bet_leader'], 0)} of the time."
             + _narrower(total))
    text += (" Hindsight, beside it (race stage measured against the race's final length, which no player "
             f"knows at the table): {hindsight} The two answer different questions: hindsight, how often the cards "
             "the bots chose to place won; the intervention, what placing the card now rather than holding it "
             f"gains (a card held is bet later or never, and the others play on). Where they point different "
             f"ways, {TRUST[0].lower()}{TRUST[1:]}")
    text += f" The other bots respond to the bet, so this describes these bots: {bots_scope(manifest)}."
    evidence = {"the run's bots": points_evidence(total, "betting the leader now rather than holding it, points:",
                                                  int(total["n"]))}
    rows = pd.concat([bt[(bt["bot"] == "all") & (bt["stage"] == "all")], stages])
    table = (["stage of the track", "forced decisions", "gain of betting now (points, paired 95% CI)", "verdict",
              "win chance"],
             [[_stage_name(r), f"{int(r['n']):,}", _gain(r), verdict(r["low"], r["high"]),
               pp_ci(r["win_gain"], r["win_low"], r["win_high"])] for _, r in rows.iterrows()])
    return Answer(q, text, method, intervention_scope(manifest), BET_FIGURE, evidence=evidence, table=table)


def bet_total(bt: pd.DataFrame):
    """The pooled row of the bet intervention over every stage."""
    return bt[(bt["bot"] == "all") & (bt["stage"] == "all")].iloc[0]


def _stage_name(r) -> str:
    return "all stages" if r["stage"] == "all" else str(r["stage"])


def _stage_advice(stages: pd.DataFrame, doing: str) -> str:
    """The stages grouped by verdict: ``discarding loses more than 0.25 in the middle
    third, last third; not shown beyond ±0.25 in the first third``."""
    t = f"{PRACTICAL_POINTS:.2f}"
    v = [verdict(r["low"], r["high"]) for _, r in stages.iterrows()]
    said = {SHOWN_GAIN: f"{doing} gains more than {t}", SHOWN_LOSS: f"{doing} loses more than {t}",
            RULED_OUT: f"no practical difference (within ±{t})", NOT_ENOUGH: f"not shown beyond ±{t}"}
    return "; ".join(f"{said[w]} in the {', '.join(n for n, x in zip(stages['stage'], v) if x == w)}"
                     for w in dict.fromkeys(v))


def _bet_advice(stages: pd.DataFrame) -> str:
    """One sentence of advice from the stages' verdicts."""
    v = [verdict(r["low"], r["high"]) for _, r in stages.iterrows()]
    names = list(stages["stage"])
    t = f"{PRACTICAL_POINTS:.2f}"
    gain = [n for n, x in zip(names, v) if x == SHOWN_GAIN]
    loss = [n for n, x in zip(names, v) if x == SHOWN_LOSS]
    rest = [n for n, x in zip(names, v) if x not in (SHOWN_GAIN, SHOWN_LOSS)]
    parts = []
    if gain:
        k = names.index(gain[0])
        parts.append(f"bet on the leader as soon as you can from the {gain[0]} of the track on" if
                     gain == names[k:] else f"betting now pays (by more than {t}) in the {', '.join(gain)}")
    if loss:
        parts.append(f"holding pays (by more than {t}) in the {', '.join(loss)}")
    if rest:
        parts.append(f"in the {', '.join(rest)} the gain is not shown beyond ±{t}")
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."


# ---------------------------------------------------------------- tables

def intervention_tables_html(res: dict) -> list[str]:
    from analyzer.report.html import table

    out = []
    policy = res.get("intervention_discard_policy")
    if policy is not None and len(policy):
        out.append("<h3>The bots' own discards, by intervention (each race as played against with the seat's "
                   "discards undone)</h3>")
        out.append(table(["bot", "seats", "seat-races", "discards a race", "gain a race (paired 95% CI)", "verdict",
                          "win chance", "hindsight: gain a race (95% CI)", "hindsight bias (95% CI)"],
                         [[r["bot"], r["seats"], f"{int(r['n']):,}", num(r["discards"], 2), _gain(r),
                           verdict(r["low"], r["high"]), pp_ci(r["win_gain"], r["win_low"], r["win_high"]),
                           _gain(r, "hindsight_low", "hindsight_high", "hindsight_gain"),
                           _gain(r, "bias_low", "bias_high", "bias")] for _, r in policy.iterrows()], left=2))
    ct = res.get("intervention_contracts")
    if ct is not None and len(ct):
        rows = ct[ct["bot"] == "all"]
        out.append("<h3>Discarding a contract, by intervention (same races, forced each way)</h3>")
        out.append(table(["contract", "stage of the track", "forced decisions", "gain of discarding (paired 95% CI)",
                          "verdict", "unpaired 95% CI", "hindsight: gain (95% CI)"],
                         [[r["contract"], r["stage"], f"{int(r['n']):,}", _gain(r), verdict(r["low"], r["high"]),
                           f"{num(r['unpaired_low'], sign=True)} to {num(r['unpaired_high'], sign=True)}",
                           _gain(r, "hindsight_low", "hindsight_high", "hindsight_gain")]
                          for _, r in rows.iterrows()], left=2))
    bt = res.get("intervention_bets")
    if bt is not None and len(bt):
        out.append("<h3>Betting on the leader now or holding, by intervention (same races, forced each way)</h3>")
        out.append(table(["bot", "stage of the track", "forced decisions", "gain of betting now (paired 95% CI)",
                          "verdict", "unpaired 95% CI", "win chance", "bot bet the leader itself"],
                         [[r["bot"], r["stage"], f"{int(r['n']):,}", _gain(r), verdict(r["low"], r["high"]),
                           f"{num(r['unpaired_low'], sign=True)} to {num(r['unpaired_high'], sign=True)}",
                           pp_ci(r["win_gain"], r["win_low"], r["win_high"]), pct(r["bot_bet_leader"], 0)]
                          for _, r in bt.iterrows()], left=2))
    return out
