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
*rules it out* (an equivalence test); otherwise there are *not enough races*:
the verdict rule of every report (``stats/evidence.decide``), here with the sign
said as a gain or a loss. Cards or stages in one group are listed with their
figures and no order is claimed between them (noise-level gaps such as -0.01
decide nothing).

Each answer's headline answers its own question: which cards to throw away and
when (from the per-card intervention), and when to bet on the leader (from the
per-stage one); the bots' whole discard policy against never discarding is in the
body, never the headline (it mostly measures the -2 of holding every card)."""
from __future__ import annotations

import pandas as pd

from analyzer.report.text import Answer, bots_answer, bots_scope, data_scope, is_num, num, num_ci, pct, pp_ci
from analyzer.stats import evidence as E
from analyzer.stats.evidence import points, verdict as judge
from analyzer.stats.questions import Direction, Estimate, Question, family

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


POINTS = points()


def verdict(low: float, high: float, threshold: float = PRACTICAL_POINTS) -> str:
    """A gain's interval by the verdict rule (``stats/evidence.decide``), its sign said:
    ``SHOWN_GAIN`` / ``SHOWN_LOSS``, ``RULED_OUT`` or ``NOT_ENOUGH``."""
    word = E.decide(low if is_num(low) else float("nan"), high if is_num(high) else float("nan"), threshold)
    if word == E.SHOWN:
        return SHOWN_GAIN if float(low) > threshold else SHOWN_LOSS
    return RULED_OUT if word == E.RULED_OUT else NOT_ENOUGH


def points_estimate(r, what: str, races: int, item: str = "") -> Estimate:
    """A gain row (gain, low, high) as an estimate in points, on the ``races`` replayed."""
    return Estimate(float(r["gain"]), float(r["low"]), float(r["high"]), races, "races", POINTS, what=what,
                    item=item)


def points_evidence(r, what: str, races: int, item: str = ""):
    """The verdict (``stats/evidence.py``) of a gain row against the practical threshold
    in points, on the ``races`` replayed (the units more of which would settle it)."""
    return points_estimate(r, what, races, item).judge(PRACTICAL_POINTS)


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

DISCARDS = Direction("DISCARDS", "THROW AWAY", "KEEP YOUR CONTRACTS", "NO CARD MATTERS within {bound} a card",
                     "discarding the card at a boss round gains points over holding it to the end", "a card")
BET = Direction("BETTING THE LEADER NOW", "BET ON THE LEADER NOW", "HOLD THE LEADER'S CARD",
                "NO DIFFERENCE within {bound} a decision",
                "putting the leading lemming's card down now gains points over holding it then", "a decision")


DISCARDING = "discarding a card at a boss round rather than holding it to the end, points a card"


def _card_estimates(cards: pd.DataFrame, races: int) -> list[Estimate]:
    return [points_estimate(r, f"discarding {r['contract']}", races, r["contract"])
            for _, r in card_rows(cards).iterrows()]


def _discards_measure(tables: dict, manifest: dict) -> Estimate | None:
    cards = tables.get("intervention_contracts")
    if cards is None or not len(cards):
        return None
    return family(_card_estimates(cards, _races(manifest)), DISCARDING)


def _bet_measure(tables: dict, manifest: dict) -> Estimate | None:
    bt = tables.get("intervention_bets")
    if bt is None or not len(bt):
        return None
    return points_estimate(bet_total(bt), "betting the leader now rather than holding it", _races(manifest))


DISCARDS_QUESTION = Question("discards", "Which contracts should I throw away?", ("intervention_contracts",),
                             _discards_measure, DISCARDS, lambda manifest: PRACTICAL_POINTS, "discards",
                             "per card, discard it at a boss round against hold it to the end, by intervention")
BET_QUESTION = Question("bet_leader", "When should I bet on the leader?", ("intervention_bets",), _bet_measure, BET,
                        lambda manifest: PRACTICAL_POINTS, "bet_leader",
                        "bet the leader's card now against hold it, by intervention")


def discard_advice(cards: pd.DataFrame, races: int) -> tuple[str, E.Verdict | None, E.Verdict | None]:
    """The answer to "which contracts should I throw away?" from the per-card
    intervention: ``(headline, the family's verdict, the verdict the headline quotes)``.
    The cards shown to gain when discarded, each with the stages of the track where
    that is shown ("when"); else that every card decided is worth keeping, with the
    stage where discarding costs most; never the bots' policy against never discarding."""
    estimates = _card_estimates(cards, races)
    if not estimates:
        return "", None, None
    verdicts = [e.judge(PRACTICAL_POINTS) for e in estimates]
    whole = E.any_of(verdicts, DISCARDING)
    t = f"{PRACTICAL_POINTS:.2f}"
    throw = [v for v in verdicts if v.word == E.SHOWN and v.estimate > 0]
    keep = [v for v in verdicts if v.word == E.SHOWN and v.estimate < 0]
    k = len(verdicts)
    if throw:
        named = []
        for v in throw:
            when = [str(r["stage"]) for _, r in stage_rows(cards, contract=v.item).iterrows()
                    if verdict(r["low"], r["high"]) == SHOWN_GAIN]
            named.append(v.item + (f" (in the {', '.join(when)})" if when else ""))
        lo, hi = min(v.estimate for v in throw), max(v.estimate for v in throw)
        gain = POINTS.value(hi) if POINTS.text(lo) == POINTS.text(hi) else f"{POINTS.text(lo)} to {POINTS.value(hi)}"
        head = f"THROW AWAY {'; '.join(named)}: {gain} a card"
        if keep:
            head += f"; keep {len(keep)} of the other {k - len(throw)} cards (discarding loses more than {t})"
        return head, whole, max(throw, key=lambda v: v.estimate)
    if keep:
        stages = stage_rows(cards, contract="all")
        losing = [(r["gain"], str(r["stage"])) for _, r in stages.iterrows()
                  if verdict(r["low"], r["high"]) == SHOWN_LOSS]
        worst = f", most in the {min(losing)[1]} ({POINTS.value(min(losing)[0])} a card)" if losing else ""
        return (f"KEEP YOUR CONTRACTS: discarding loses more than {t} points with {len(keep)} of {k} cards{worst}; "
                "no card is shown to pay when thrown away", whole, whole)
    if whole.word == E.RULED_OUT:
        return (f"NO CARD MATTERS: discarding any of the {k} cards is within ±{t} points of holding it", whole,
                whole)
    return f"DISCARDS NOT SETTLED: no card is shown to pay or to cost more than {t} points yet", whole, whole


def contract_answer(res: dict, manifest: dict, hindsight: str, hindsight_method: str) -> Answer:
    """"Which contracts should I throw away?": each card by intervention (the answer:
    which to throw away and when), the bots' own discards per race and hindsight beside
    them with its bias. ``hindsight``: the hold-value sentence (the whole answer when no
    intervention was played)."""
    q = DISCARDS_QUESTION.text
    policy, cards = res.get("intervention_discard_policy"), res.get("intervention_contracts")
    if policy is None or not len(policy) or cards is None or not len(cards):
        text = (f"Not measured by intervention here ({_not_measured(manifest)}). Hindsight only (what a card pays "
                f"when held to the end had play not changed; it misjudges cards the bots steer for): {hindsight}")
        return bots_answer(q, "contracts", text, f"hindsight only: {hindsight_method}", manifest,
                           key=DISCARDS_QUESTION.key)
    method = (f"{INTERVENTION_METHOD}; arms: {DISCARD_ARMS}; and {POLICY_ARMS}; beside them, labelled, hindsight: "
              f"{hindsight_method}")
    races = _races(manifest)
    headline, whole, quoted = discard_advice(cards, races)
    cards_text, cards_table = _cards_text(cards)
    text = cards_text
    text += " " + _policy_text(policy, _races(manifest, "policy_races") or races)
    text += " " + _hindsight_text(policy, cards)
    text += (" The other seats' bots respond to each forced choice, so this describes these bots: "
             f"{bots_scope(manifest)}.")
    tables = [t for t in (cards_table, _stage_table(cards), _policy_table(policy)) if t]
    a = Answer(q, text, method, intervention_scope(manifest), DISCARDS_FIGURE,
               evidence={"each card, the run's bots": whole} if whole is not None else None,
               table=tables[0] if tables else None, extra_tables=tables[1:], key=DISCARDS_QUESTION.key,
               direction=DISCARDS, headline=headline, quoted=quoted, unit="races")
    if whole is not None:
        a.text = f"{headline}. {E.word_text(whole.word).capitalize()}: {quoted.reason}. " + a.text
    return a


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

def bet_advice(stages: pd.DataFrame, total: E.Verdict) -> str:
    """The answer to "when should I bet on the leader?" from the per-stage intervention:
    "BET ON THE LEADER NOW from the middle third on: +0.61 to +1.69 points a decision"
    (the stages where holding pays named too); the pooled verdict's answer when no
    stage decides it."""
    words = [verdict(r["low"], r["high"]) for _, r in stages.iterrows()]
    names = [str(x) for x in stages["stage"]]
    gain = [(n, r) for n, (_, r), w in zip(names, stages.iterrows(), words) if w == SHOWN_GAIN]
    loss = [(n, r) for n, (_, r), w in zip(names, stages.iterrows(), words) if w == SHOWN_LOSS]
    if not gain and not loss:
        return BET.of(total)

    def spread(rows) -> str:
        lo, hi = min(r["gain"] for _, r in rows), max(r["gain"] for _, r in rows)
        return POINTS.value(hi) if POINTS.text(lo) == POINTS.text(hi) else f"{POINTS.text(lo)} to {POINTS.value(hi)}"

    parts = []
    if gain:
        first = names.index(gain[0][0])
        tail = [n for n, _ in gain] == names[first:]
        when = f"from the {gain[0][0]} on" if tail and first > 0 else (
            "at every stage" if tail else f"in the {', '.join(n for n, _ in gain)}")
        parts.append(f"BET ON THE LEADER NOW {when}: {spread(gain)} a decision")
    if loss:
        parts.append(f"HOLD THE LEADER'S CARD in the {', '.join(n for n, _ in loss)}: {spread(loss)} a decision")
    rest = [n for n, w in zip(names, words) if w not in (SHOWN_GAIN, SHOWN_LOSS)]
    if rest:
        parts.append(f"not shown beyond ±{PRACTICAL_POINTS:.2f} in the {', '.join(rest)}")
    return "; ".join(parts)


def bet_answer(res: dict, manifest: dict, hindsight: str, hindsight_method: str) -> Answer:
    """"When should I bet on the leader?": betting the leader's card now against
    holding it, per stage of the track, by intervention; the hindsight share of
    winning cards beside it, labelled as association. ``hindsight``: its sentence."""
    q = BET_QUESTION.text
    bt = res.get("intervention_bets")
    if bt is None or not len(bt):
        text = (f"Not measured by intervention here ({_not_measured(manifest)}). Hindsight only (which cards won, "
                f"an association, not what betting then gains): {hindsight}")
        return bots_answer(q, "bet_heatmap", text, f"hindsight only: {hindsight_method}", manifest,
                           key=BET_QUESTION.key)
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
    v = BET_QUESTION.verdict(res, manifest)
    headline = bet_advice(stages, v) if len(stages) else BET.of(v)
    rows = pd.concat([bt[(bt["bot"] == "all") & (bt["stage"] == "all")], stages])
    table = (["stage of the track", "forced decisions", "gain of betting now (points, paired 95% CI)", "verdict",
              "win chance"],
             [[_stage_name(r), f"{int(r['n']):,}", _gain(r), verdict(r["low"], r["high"]),
               pp_ci(r["win_gain"], r["win_low"], r["win_high"])] for _, r in rows.iterrows()])
    text = f"{headline}. {E.word_text(v.word).capitalize()}: {v.reason}. " + text
    return Answer(q, text, method, intervention_scope(manifest), BET_FIGURE, evidence={"the run's bots": v},
                  table=table, key=BET_QUESTION.key, direction=BET, headline=headline, unit="races")


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
