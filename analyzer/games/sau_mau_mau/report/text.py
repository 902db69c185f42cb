"""Sau Mau Mau's sentences: the takeaway under each of its figures and the
designer's questions with their answers, computed from its report tables
(``analyzer/games/sau_mau_mau/stats.py``). Nothing is canned: every number and every
yes / no comes from the data."""
from __future__ import annotations

import pandas as pd

from analyzer.report.flow import flow_answer, flow_questions
from analyzer.report.text import (
    Answer, answer_skill, bots_answer, first_seat_finding, flag_sentence, is_num, judged_answer, min_effect, num,
    num_ci, ordinal, overview_value, pct, pct_ci, pp, pp_ci, race_length_spread, seat_spread_finding, stage_label,
    structural,
)
from analyzer.games.sau_mau_mau.layout import EVENTS_CAP
from analyzer.stats import evidence as E
from analyzer.stats import questions as Q
from analyzer.stats.flags import ALPHA, share_balance

MIN_CELL = 30  # bets below which a stage or turn is too thin to quote
END_NAMES = {"crown": "a pig reaching the crown", "hand": "a player playing out their hand",
             "both": "both at once", "cap": "the safety stop"}

FLOW = ("race", "turns", "pig")  # one item, its steps, what leads its standing (docs/sau-mau-mau.md)


def _verdict(low, high, yes: str, no: str, unsure: str) -> str:
    """Which side of 0 an interval lies on."""
    if is_num(low) and low > 0:
        return yes
    if is_num(high) and high < 0:
        return no
    return unsure


def _all(df: pd.DataFrame, column: str = "bot") -> pd.DataFrame:
    return df[df[column].astype(str) == "all"] if len(df) else df


# ---------------------------------------------------------------------- takeaways


RISKLESS = 0.99  # bets on a winning pig at least this often in every queue place: betting almost never loses


def queue_position(res: dict) -> str:
    qp = _all(res["queue_position"])
    qp = qp[qp["bets"] > 0]
    if not len(qp):
        return "No bets in this run."
    best = qp.loc[qp["mean_points"].idxmax()]
    worst = qp.loc[qp["mean_points"].idxmin()]
    text = (f"The {ordinal(int(best['queue_position']))} place in the bet queue earns most, "
            f"{num_ci(best['mean_points'], best['points_low'], best['points_high'])} points per bet; the "
            f"{ordinal(int(worst['queue_position']))} least, "
            f"{num_ci(worst['mean_points'], worst['points_low'], worst['points_high'])}")
    if len(qp) > 1:
        hi, lo = qp.loc[qp["win_share"].idxmax()], qp.loc[qp["win_share"].idxmin()]
        digits = next((d for d in (0, 1) if pct(lo["win_share"], d) != pct(hi["win_share"], d)), None)
        if digits is None:  # "runs from 100% (1st) to 100% (4th)" says nothing: one share for every place
            text += (f"; {pct(lo['win_share'], 1)} of the bets in every place of the queue are on a winning pig"
                     + (" (betting almost never loses: only the place in the queue decides the points)"
                        if lo["win_share"] >= RISKLESS else ""))
        else:
            text += (f"; the share of bets on a winning pig runs from {pct(lo['win_share'], digits)} "
                     f"({ordinal(int(lo['queue_position']))}) to {pct(hi['win_share'], digits)} "
                     f"({ordinal(int(hi['queue_position']))})"
                     + ("; betting almost never loses: only the place in the queue decides the points"
                        if lo["win_share"] >= RISKLESS else ""))
    return text + "."


def bet_timing(res: dict) -> str:
    st = res["bet_stage"]
    first = st[(st["kind"] == "first") & (st["bets"] >= MIN_CELL)]
    if not len(first):
        return "Too few bets to show timing."
    a, z = first.iloc[0], first.iloc[-1]
    best = first.loc[first["mean_points"].idxmax()]
    text = (f"A first bet laid at {stage_label(a['stage_from'], a['stage_to'])} of the race earns "
            f"{num(a['mean_points'])} points, one laid at {stage_label(z['stage_from'], z['stage_to'])} "
            f"{num(z['mean_points'])} (best {stage_label(best['stage_from'], best['stage_to'])}, "
            f"{num(best['mean_points'])})")
    ch = _all(res["bet_changes"])
    if len(ch) and ch["changed_bets"].iloc[0] > 0:
        c = ch.iloc[0]
        text += (f"; a changed bet earns {num(c['changed_points'])} against {num(c['first_points'])} for a "
                 f"first bet ({num_ci(c['difference'], c['difference_low'], c['difference_high'], sign=True)})")
    return text + "."


def race_ends(res: dict) -> str:
    shares = {k: overview_value(res, f"{k}_end_share") for k in END_NAMES}
    if not is_num(shares["crown"]):
        return "No races."
    text = (f"{pct(shares['crown'])} of races end by the crown, {pct(shares['hand'])} by a player playing out, "
            f"{pct(shares['both'])} both at once")
    if shares["cap"] > 0:
        text += f", {pct(shares['cap'], 2)} at the safety stop"
    by = res["ends_by_race"]
    crown = by[by["end"] == "crown"]
    if len(crown) > 1:
        hi, lo = crown.loc[crown["share"].idxmax()], crown.loc[crown["share"].idxmin()]
        overlap = hi["low"] <= lo["high"]
        text += (f"; by race number the crown share runs from {pct(lo['share'])} (race {lo['race']}) to "
                 f"{pct(hi['share'])} (race {hi['race']})"
                 + (", within sampling error" if overlap else ", beyond sampling error"))
        if not overlap and _confounded_start(res):
            text += (" (seat r starts race r with its own bot, so the race numbers carry the seats' bots along: "
                     "see the controlled tables)")
    bp = res["ends_by_players"]
    crown = bp[bp["end"] == "crown"]
    if len(crown) > 1:
        text += "; " + ", ".join(f"{int(r['players'])} players: crown {pct(r['share'])}" for _, r in crown.iterrows())
    return text + "."


def _confounded_start(res: dict) -> bool:
    fp = res["first_player"]
    return bool(len(fp) and fp["confounded"].any())


def _by_seat(res: dict):
    """The per-seat rows and the 'all' row (or None) of first_player_by_seat."""
    bs = res["first_player_by_seat"]
    seats = bs[bs["seat"].astype(str) != "all"] if len(bs) else bs
    allrow = _all(bs, "seat")
    return seats, (allrow.iloc[0] if len(allrow) else None)


def _seat_list(seats: pd.DataFrame) -> str:
    return ", ".join(f"seat {r['seat']} ({r['bot']}) {num(r['difference'], sign=True)}" for _, r in seats.iterrows()
                     if is_num(r["difference"]))


def first_player(res: dict) -> str:
    fp = res["first_player"]
    allrow = _all(fp, "race")
    if not len(allrow):
        return "No race results to compare starting seats."
    seats, a = _by_seat(res)
    said = _start_words(res)
    if _confounded_start(res) and a is not None:
        verdict = {"yes": "more", "no": "fewer"}.get(said, "about as many")
        return (f"Each seat runs its own bot and the seat that starts race r is seat r, so the starter is compared "
                f"with itself: a seat scores {verdict} race points in the races it starts than in the others, "
                f"{num_ci(a['difference'], a['difference_low'], a['difference_high'], sign=True)} on average "
                f"({_seat_list(seats)}).")
    a = allrow.iloc[0]
    verdict = {"yes": "has an edge", "no": "is at a disadvantage", "none": "has no practical edge"}.get(
        said, "has no settled edge")
    text = (f"The player who starts a race {verdict}: "
            f"{num_ci(a['advantage'], a['advantage_low'], a['advantage_high'], sign=True)} race points against "
            f"the other seats' mean ({num(a['first_points'])} against {num(a['others_points'])} per race)")
    per = fp[fp["race"].astype(str) != "all"]
    if len(per) > 1:
        text += "; by race: " + ", ".join(f"{r['race']}: {num(r['advantage'], sign=True)}" for _, r in per.iterrows())
    return text + "."


def pig_flags(res: dict, manifest: dict | None = None):
    pg = res["pigs"]
    races = int(overview_value(res, "races"))
    return share_balance(pg["wins"].to_numpy(), races, list(pg["pig"]), ALPHA, min_effect(manifest or {}))


def pigs(res: dict, manifest: dict | None = None) -> str:
    pg = res["pigs"]
    if not len(pg) or pg["wins"].sum() == 0:
        return "No races."
    best, worst = pg.loc[pg["win_share"].idxmax()], pg.loc[pg["win_share"].idxmin()]
    verdict = pig_flags(res, manifest).verdict("pig")
    return (f"{best['pig'].capitalize()} is among the winners most often, "
            f"{pct_ci(best['win_share'], best['win_low'], best['win_high'])}, {worst['pig']} least, "
            f"{pct_ci(worst['win_share'], worst['win_low'], worst['win_high'])}; {verdict}; "
            f"{pct(overview_value(res, 'shared_pig_win_share'))} of races have more than one winning pig.")


def race_length(res: dict) -> str:
    q = race_length_spread(res)
    if q is None:
        return "No races."
    players = overview_value(res, "players")
    per = f" ({num(overview_value(res, 'race_length_mean') / players, 1)} turns each)" if players else ""
    return (f"A race lasts {num(overview_value(res, 'race_length_mean'), 1)} player turns on average{per}, "
            f"median {q['median']}; 90% of races take {q['p5']}–{q['p95']} turns, the shortest {q['shortest']}, "
            f"the longest {q['longest']}.")


def points(res: dict) -> str:
    pt = _all(res["points"])
    if not len(pt) or pt["player_races"].max() == 0:
        return "No race results."
    by = pt.set_index("source")
    parts = [f"{s} {num(by.loc[s, 'mean'])} ({pct(by.loc[s, 'share_of_race_points'], 0)})"
             for s in ("bet", "crown", "hand") if s in by.index]
    return (f"A player scores {num(by.loc['race', 'mean'])} points per race on average: " + ", ".join(parts)
            + f"; its bet scores in {pct(by.loc['bet', 'scoring_share'])} of races.")


# ---------------------------------------------------------------------- answers


QUEUE_METHOD = ("mean points per bet by its place in the queue at the end of the race, and the share of those "
                "bets on a winning pig, 95% t and Wilson intervals; the bets are the bots' own")
TIMING_METHOD = ("hindsight: every bet card the bots laid (first bets later changed away included, with the 0 "
                 "points they paid), by the race stage when laid (against the race's final length, unknown at "
                 "the table); changed bets against first bets, 95% t intervals (unpaired); each change against "
                 "the bet it replaced, paired by change (did the new pig win more often than the one left), 95% "
                 "t interval, the verdict judging it against the practical threshold; not an intervention")
PIG_METHOD = ("chi-square test that the four pigs are among the winners equally often, then per-pig z tests "
              "with Holm correction; a pig is flagged only if its gap is at least the practical threshold")
START_METHOD = ("per race, the starting seat's race points minus the mean of the other seats in the same race "
                "(paired by race), 95% t interval, judged against a practical threshold of 0.5 race points; "
                "with different bots per seat each seat is compared with itself (races it starts against those "
                "it does not)")


SAFE_BETS = 0.95  # a share of bets on a winning pig above which betting is nearly riskless


def warnings(res: dict, manifest: dict) -> list:
    """Degenerate results for the scorecard (``report/scorecard.py``): queued bets that
    almost never lose (the queue order alone then decides the bet points), a pig that
    wins nearly every race, and bots that never change a bet (the changed-bet answer
    then has nothing to compare)."""
    from analyzer.report.scorecard import ScoreWarning, dominant, replay_command

    out = never_starts(res, manifest)
    pigs = res.get("pigs")
    for _, r in (pigs.iterrows() if pigs is not None else ()):
        out += dominant(f"The {r['pig']} pig is among the winners", r["win_share"], overview_value(res, "races"),
                        manifest,
                        "a track or a rule that favours one pig (its start, its cards), or bots that push one pig "
                        "together", counted="races")
    qp = _all(res["queue_position"])
    bets = float(qp["bets"].sum()) if len(qp) else 0.0
    if bets <= 0:
        return out
    out += dominant("Queued bets are on a winning pig", float(qp["won_bets"].sum()) / bets, bets,
                    manifest,
                    "betting is nearly riskless and only the place in the queue matters: a rule (bets can "
                    "be changed late, or the leading pig is too easy to read) or bots that bet only on the "
                    "sure pig", threshold=SAFE_BETS, counted="queued bets")
    ch = _all(res.get("bet_changes", pd.DataFrame()))
    if len(ch) and ch["first_bets"].iloc[0] >= MIN_CELL and ch["changes"].iloc[0] == 0:
        out.append(ScoreWarning(
            f"The bots never change a bet (0 changes of {int(ch['first_bets'].iloc[0]):,} bets).",
            "nothing about changing bets: the bots' rule never changes one, so the answer on changed bets has "
            "nothing to compare (not a rule of the game)",
            f"{replay_command(manifest)} shows every bet laid; seat the switcher or random bot to see bets changed"))
    return out


PIG = Q.Direction("PIG BALANCE", "UNBALANCED", "UNBALANCED", "BALANCED within {bound}",
                  "a pig is among a race's winners more often than its fair share (the pigs' mean share: a shared "
                  "win counts for each winning pig)", "against a fair share")
START = Q.Direction("STARTING A RACE", "STARTING A RACE HELPS", "STARTING A RACE HURTS",
                    "STARTING MAKES NO DIFFERENCE within {bound}",
                    "the player who starts a race scores more race points than the other seats of that race",
                    "against the other seats")
SWITCH = Q.Direction("CHANGED BETS", "CHANGING PICKS WINNERS", "CHANGING PICKS LOSERS",
                     "CHANGING MAKES NO DIFFERENCE within {bound}",
                     "a changed bet's new pig wins more often than the pig it left", "over the pig left")
RACE_POINTS = E.points(" race points")


def _pig_measure(tables: dict, manifest: dict):
    pg = tables["pigs"]
    if not len(pg) or pg["wins"].sum() == 0:
        return None
    f = pig_flags(tables, manifest)
    games = overview_value(tables, "games")
    n = int(games) if is_num(games) else int(overview_value(tables, "races"))
    return Q.family(Q.flag_parts(f, n, "games", "a fair share"), "a pig off fair", f.method)


def _start_measure(tables: dict, manifest: dict):
    """The starter's edge in race points: the starter against the other seats of the same
    race, or, with a bot per seat, each seat against itself in the races it does not
    start; measured on the run's games (a game is four races)."""
    allrow = _all(tables["first_player"], "race")
    if not len(allrow):
        return None
    seats, b = _by_seat(tables)
    if _confounded_start(tables) and b is not None:
        est, low, high = b["difference"], b["difference_low"], b["difference_high"]
        what = "a seat in the races it starts against the others"
    else:
        a = allrow.iloc[0]
        est, low, high = a["advantage"], a["advantage_low"], a["advantage_high"]
        what = "the starter against the other seats of the race"
    games = overview_value(tables, "games")
    return Q.Estimate(float(est), float(low), float(high), int(games) if is_num(games) else 0, "games", RACE_POINTS,
                      what=what, baseline="the other seats")


def _switch_measure(tables: dict, manifest: dict):
    ch = _all(tables["bet_changes"])
    if not len(ch) or not ch["changes"].iloc[0] > 0:
        return None
    c = ch.iloc[0]
    games = overview_value(tables, "games")
    return Q.Estimate(float(c["switch_gain"]), float(c["switch_low"]), float(c["switch_high"]),
                      int(games) if is_num(games) else int(c["changes"]), "games",
                      what="a changed bet's new pig winning minus the pig it left (paired by change)",
                      baseline="the pig left")


def _queue_value(tables: dict, manifest: dict):
    qp = _all(tables["queue_position"])
    qp = qp[qp["bets"] > 0] if len(qp) else qp
    if not len(qp):
        return None
    best = qp.loc[qp["mean_points"].idxmax()]
    return Q.Estimate(float(best["mean_points"]), float(best["points_low"]), float(best["points_high"]),
                      int(best["bets"]), "bets", E.Scale(1.0, 2, " points a bet", signed=False),
                      what=f"points per bet in the best place ({ordinal(int(best['queue_position']))})",
                      item=ordinal(int(best["queue_position"])))


def _crown_share(tables: dict, manifest: dict):
    crown = overview_value(tables, "crown_end_share")
    if not is_num(crown):
        return None
    return Q.Estimate(crown, overview_value(tables, "crown_end_share", "low"),
                      overview_value(tables, "crown_end_share", "high"), int(overview_value(tables, "races")),
                      "races", E.PERCENT, what="races ended by a pig reaching the crown")


PIG_BALANCE = Q.Question("pig_balance", "Are the pigs balanced?", ("pigs", "overview"), _pig_measure, PIG,
                         Q.min_effect, "pigs", PIG_METHOD)
START_EDGE = Q.Question("start_edge", "Does starting a race help?", ("first_player", "first_player_by_seat"),
                        _start_measure, START, lambda manifest: START_THRESHOLD, "first_player", START_METHOD)
CHANGED_BETS = Q.Question("changed_bets",
                          "Which bets earned most: early or late, first or changed? (hindsight: bets the bots laid)",
                          ("bet_changes",), _switch_measure, SWITCH, Q.min_effect, "bet_timing", TIMING_METHOD)
QUEUE_VALUE = Q.Question("queue_value", "Which queue position earned most? (hindsight: bets the bots laid)",
                         ("queue_position",), _queue_value,
                         Q.Direction("BEST QUEUE PLACE", "", "", "", "a place in the queue pays more a bet"),
                         None, "queue_position", QUEUE_METHOD)
RACE_ENDS = Q.Question("race_ends", "How do races end?", ("overview",), _crown_share,
                       Q.Direction("CROWN ENDINGS", "", "", "", "more races end by a pig reaching the crown"),
                       None, "race_ends", "shares of races by how they end, 95% Wilson intervals; race numbers "
                       "compared by their intervals")
FIRST_SEAT = Q.first_seat_edge("Is the first seat favoured over the whole game?")
SEAT_SPREAD = Q.seat_spread("Do all the seats win alike over the whole game?")
SKILL = Q.skill_gradient()
LENGTH = Q.length("race_length_mean", "turns", "race", "How long is a race?", "race_length")
# every question the report measures, by key (a balance search targets these); the length has no answer of its
# own on the page (the race ends answer and the flow give it)
QUESTIONS = (QUEUE_VALUE, CHANGED_BETS, RACE_ENDS, START_EDGE, FIRST_SEAT, SEAT_SPREAD, SKILL, PIG_BALANCE, LENGTH,
             *flow_questions("race", "turns", 4))


def never_starts(res: dict, manifest: dict) -> list:
    """A seat that never starts a race at this player count (seat r starts race r of the
    four): a turn-order handicap a designer must see, with its game win rate against the
    average seat."""
    from analyzer.report.scorecard import MIN_UNITS, ScoreWarning, replay_command

    sa = res.get("seat_advantage")
    if sa is None or not len(sa) or "races_started" not in sa:
        return []
    u = Q.unit_of(manifest)
    games = int(sa[u].iloc[0]) if u in sa else 0
    if games < MIN_UNITS:
        return []
    idle = sa[sa["races_started"] <= 0]
    return [ScoreWarning(
        f"Seat {int(r['seat'])} never starts a race at {len(sa)} players (0 of the 4 races of each of {games:,} "
        f"{u}); its game win rate is {pp_ci(r['advantage'], r['advantage_low'], r['advantage_high'])} against "
        "the average seat.",
        "a turn order that leaves one seat out (the seat that starts race r is seat r, and a game has four races): "
        "a handicap of the rules at this player count, not of a bot",
        replay_command(manifest)) for _, r in idle.iterrows()]


def answers(res: dict, manifest: dict, controlled=None) -> list[Answer]:
    """The designer's questions, each with its scope and method (``Answer``)."""
    def pig_finding(tables):
        if not len(tables["pigs"]) or tables["pigs"]["wins"].sum() == 0:
            return "no races."
        return flag_sentence(pig_flags(tables, manifest), "pig")

    return [
        structural(QUEUE_VALUE, _queue_finding, res, manifest, controlled),
        judged_answer(CHANGED_BETS, _answer_timing(res, manifest), res, manifest, table=_changes_table(res)),
        structural(RACE_ENDS, race_ends, res, manifest, controlled),
        structural(START_EDGE, lambda t: _answer_start(t, manifest), res, manifest, controlled),
        structural(FIRST_SEAT, first_seat_finding(manifest), res, manifest, controlled),
        structural(SEAT_SPREAD, seat_spread_finding(manifest), res, manifest, controlled),
        judged_answer(SKILL, answer_skill(res), res, manifest),
        structural(PIG_BALANCE, pig_finding, res, manifest, controlled),
        flow_answer(res, manifest, *FLOW, contenders=len(res["pigs"])),
    ]


def switch_verdict(res: dict, manifest: dict):
    """Did a changed bet pick a winner more often than the bet it replaced? The new pig's
    share of races won minus the left pig's, paired by change (the ``bet_changes`` row of
    all bots), against the practical threshold; None when no bet was changed."""
    return CHANGED_BETS.verdict(res, manifest)


def _queue_finding(res: dict) -> str:
    qp = _all(res["queue_position"])
    qp = qp[qp["bets"] > 0]
    if not len(qp):
        return "no bets in this run."
    text = queue_position(res)
    return text[0].lower() + text[1:]


def _end_key(res: dict) -> str:
    crown = overview_value(res, "crown_end_share")
    return "crown" if is_num(crown) and crown > 0.5 else "hand"


START_THRESHOLD = 0.5  # race points: a tenth of what a race pays its players on average (about 5 each)


def start_verdict(res: dict, manifest: dict | None = None):
    """The starter's edge in race points against ``START_THRESHOLD``, in evidence words
    (``START_EDGE``)."""
    return START_EDGE.verdict(res, manifest or {})


def _start_words(res: dict, manifest: dict | None = None) -> str:
    """The start verdict as the sentence says it: "yes" (helps beyond the threshold),
    "no" (hurts beyond it), "none" (ruled out), "open"."""
    v = start_verdict(res, manifest)
    if v is None or not v.decided:
        return "open"
    if v.word == E.RULED_OUT:
        return "none"
    return "yes" if v.estimate > 0 else "no"


def _answer_queue(res: dict) -> str:
    qp = _all(res["queue_position"])
    qp = qp[qp["bets"] > 0].sort_values("queue_position")
    if not len(qp):
        return "No bets in this run."
    text = queue_position(res)
    if len(qp) > 1:
        last = qp.iloc[-1]
        text += (" A bet on a winning pig pays "
                 + ", ".join(f"{num(r['won_bet_points'])} in {ordinal(int(r['queue_position']))} place"
                             for _, r in qp.iterrows() if r["won_bets"] > 0)
                 + f" (earlier bets on winners rank first); {pct(last['changed_share'], 0)} of the bets in "
                 f"{ordinal(int(last['queue_position']))} place are changed bets, which go to the back of the queue.")
    return text


def _answer_timing(res: dict, manifest: dict | None = None) -> str:
    st = res["bet_stage"]
    first = st[(st["kind"] == "first") & (st["bets"] >= MIN_CELL)]
    if not len(first):
        return "Not enough bets in this run to tell."
    a, z = first.iloc[0], first.iloc[-1]
    text = (f"A first bet laid at {stage_label(a['stage_from'], a['stage_to'])} of the race earns "
            f"{num_ci(a['mean_points'], a['points_low'], a['points_high'])} points and is on a winning pig "
            f"{pct(a['win_share'], 0)} of the time; laid at {stage_label(z['stage_from'], z['stage_to'])} "
            f"it earns {num_ci(z['mean_points'], z['points_low'], z['points_high'])} "
            f"({pct(z['win_share'], 0)} on a winner)")
    if a["points_low"] > z["points_high"]:
        text += "; early bets earned more"
        if z["win_low"] > a["win_high"]:
            text += ": a late bet is on a winner more often but sits further back in the queue"
    elif z["points_low"] > a["points_high"]:
        text += "; late bets earned more"
    else:
        text += "; early and late bets earned about the same"
    text += "."
    ch = _all(res["bet_changes"])
    if len(ch) and ch["changed_bets"].iloc[0] > 0:
        c = ch.iloc[0]
        verdict = _verdict(c["difference_low"], c["difference_high"], "Changed bets earned more than first bets",
                           "Changed bets earned less than first bets",
                           "Changed bets and first bets earned about the same")
        text += (f" {verdict}: counting every bet card laid, a changed bet earned "
                 f"{num_ci(c['changed_points'], c['changed_points_low'], c['changed_points_high'])} points against "
                 f"{num_ci(c['first_points'], c['first_points_low'], c['first_points_high'])} for a first bet "
                 f"({pct(c['first_changed_away'], 0)} of first bets were later changed away and paid nothing; "
                 f"{num_ci(c['difference'], c['difference_low'], c['difference_high'], sign=True)}); it "
                 f"was on a winning pig {pct(c['changed_win_share'], 0)} of the time against "
                 f"{pct(c['first_win_share'], 0)} (and a changed bet goes to the back of the queue).")
        if c["changes"] > 1:
            v = E.verdict(float(c["switch_gain"]), float(c["switch_low"]), float(c["switch_high"]),
                          Q.min_effect(manifest), int(c["changes"]))
            switch = ("Changing picked a winner more often" if v.side == "+" else
                      "Changing picked a winner less often" if v.side == "-" else
                      "Changing made no practical difference to the pig" if v.word == E.RULED_OUT else
                      "Changing made no settled difference to the pig")
            text += (f" {switch}: of {int(c['changes']):,} changes, the new pig won {pct(c['new_pig_won'], 0)} "
                     f"of races and the pig left {pct(c['left_pig_won'], 0)} "
                     f"({pp_ci(c['switch_gain'], c['switch_low'], c['switch_high'])}, paired by change).")
        if _changes_table(res):
            text += " Changed minus first, per bot: the table below."
    lost = overview_value(res, "bet_cards_not_in_bet_events")
    if is_num(lost) and lost > 0:
        text += (f" {int(lost):,} bet cards laid in races with more than {EVENTS_CAP} are not in these counts "
                 "(a race records its first {EVENTS_CAP}).").replace("{EVENTS_CAP}", str(EVENTS_CAP))
    return text + (" (Race stage is measured in hindsight, against the race's final length; these are the "
                   "bots' bets, so they show what the bots' choices earned, in hindsight: the pig left might have "
                   "won less had the bet stayed, as the bots then play for it.)")


def _changes_table(res: dict) -> tuple[list[str], list[list]] | None:
    """Per bot (two or more that changed bets): a changed bet's points against a first bet's."""
    per = res["bet_changes"]
    per = per[(per["bot"] != "all") & (per["changed_bets"] > 0)]
    if len(per) < 2:
        return None
    return (["bot", "changed bets", "points a changed bet (95% CI)", "points a first bet (95% CI)",
             "changed minus first (95% CI)"],
            [[r["bot"], f"{int(r['changed_bets']):,}",
              num_ci(r["changed_points"], r["changed_points_low"], r["changed_points_high"]),
              num_ci(r["first_points"], r["first_points_low"], r["first_points_high"]),
              num_ci(r["difference"], r["difference_low"], r["difference_high"], sign=True)]
             for _, r in per.iterrows()])


START_SAID = {"yes": "Yes", "no": "No, it is a disadvantage",
              "none": f"No practical difference (within ±{START_THRESHOLD:.2f} race points)",
              "open": "Not settled against the threshold"}


def _answer_start(res: dict, manifest: dict | None = None) -> str:
    allrow = _all(res["first_player"], "race")
    if not len(allrow):
        return "No race results to compare starting seats."
    seats, b = _by_seat(res)
    said = START_SAID[_start_words(res, manifest)]
    if _confounded_start(res) and b is not None:
        verdict = said
        text = (f"{verdict}: a seat scores "
                f"{num_ci(b['difference'], b['difference_low'], b['difference_high'], sign=True)} race points more "
                f"in the races it starts than in the races it does not ({_seat_list(seats)}), and ends "
                f"{pct(b['ended_starting'])} of the races it starts against {pct(b['ended_other'])} of the others. "
                "Each seat runs its own bot here and seat r starts race r, so each seat is compared with itself; "
                "comparing the starter with the other seats of the same race would mix in the bots' strength.")
    else:
        a = allrow.iloc[0]
        verdict = said
        players = overview_value(res, "players")
        text = (f"{verdict}: the player who starts a race scores {num(a['first_points'])} race points on average, "
                f"{num_ci(a['advantage'], a['advantage_low'], a['advantage_high'], sign=True)} against the mean of "
                f"the other seats in the same race (paired over {int(a['races']):,} races)")
        if is_num(players) and players:
            text += (f", and ends {pct_ci(a['ended_by_first'], a['ended_by_first_low'], a['ended_by_first_high'])} "
                     f"of the races it starts (an equal share is {pct(1 / players)})")
        text += "."
    sa = res["seat_advantage"]
    if len(sa) and "races_started" in sa and sa["races_started"].nunique() > 1:
        most = sa[sa["races_started"] == sa["races_started"].max()]
        least = sa[sa["races_started"] == sa["races_started"].min()]

        def starts(df):
            n = df["races_started"].iloc[0]
            who = ", ".join(str(int(x)) for x in df["seat"])
            return (f"seat{'s' if len(df) > 1 else ''} {who} start{'' if len(df) > 1 else 's'} "
                    f"{num(n, 0)} race{'' if round(n) == 1 else 's'} per game")

        text += (f" Over a game's races {starts(most)}, {starts(least)}; their game win rates against the "
                 f"average seat: " + ", ".join(f"seat {int(r['seat'])} {pp(r['advantage'])}" for _, r in sa.iterrows())
                 + ".")
    return text
