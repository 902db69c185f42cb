"""Lemminge's sentences: the takeaway under each of its figures and the
designer's questions with their answers, computed from its report tables
(``analyzer/games/lemminge/stats.py``). Every number and every yes / no comes
from the data; figures from the moves table hold for the run's bots together."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from analyzer.stats.evidence import RULED_OUT, SHOWN, points
from analyzer.report.flow import flow_answer, flow_questions
from analyzer.stats import questions as Q
from analyzer.stats.flags import simultaneous_z
from analyzer.stats.intervals import Z95
from analyzer.report.text import (
    Answer, answer_skill, bots_answer, confounded, first_seat_finding, flag_sentence, is_num, judged_answer, num,
    num_ci, overview_value, pct, pp_ci, seat_flags, structural,
)

MIN_MOVES = 200  # moves below which a cell is too thin to quote
# hexes of progress: about a sixth of what a card played on a column gains (2-4 hexes), the smallest gap
# (between a card that starts a column and one that joins it, or given to a pushed rival) that would change
# how a player plays
HEX_THRESHOLD = 0.5

FLOW = ("game", "turns", "player")  # one item, its steps, what leads its standing (docs/lemminge.md)


# ---------------------------------------------------------------------- takeaways


def column_value(res: dict) -> str:
    cv = res["column_value"]
    cv = cv[cv["moves"] >= MIN_MOVES]
    if not len(cv):
        return "Too few cards played on columns to show."
    lo, hi = cv.iloc[0], cv.iloc[-1]
    best = cv.loc[cv["progress_per_movement"].idxmax()]
    return (f"A card on a column showing a sum of {int(lo['column_sum_before'])} gives {num(lo['movement'], 1)} "
            f"movement and gains {num_ci(lo['progress'], lo['progress_low'], lo['progress_high'])} hexes; on a sum "
            f"of {int(hi['column_sum_before'])}, {num(hi['movement'], 1)} movement and "
            f"{num_ci(hi['progress'], hi['progress_low'], hi['progress_high'])} hexes. Movement is used best "
            f"({pct(best['progress_per_movement'], 0)} of it turned into progress) at a sum of "
            f"{int(best['column_sum_before'])}.")


def _quoted_values(res: dict) -> pd.DataFrame:
    """The card values of the new-column table with enough moves on both sides to quote."""
    nc = res["new_column"]
    return nc[(nc["new_moves"] >= MIN_MOVES) & (nc["on_moves"] >= MIN_MOVES)]


def new_column_table(res: dict) -> tuple[list[str], list[list]] | None:
    """Per quoted card value, the difference the new-column answer reads, and the moves behind it."""
    nc = _quoted_values(res)
    if not len(nc):
        return None
    return (["card value", "new column minus added to a column (hexes, 95% CI clustered by game)",
             "moves starting a column", "moves added to a column"],
            [[int(r["value"]), num_ci(r["difference"], r["difference_low"], r["difference_high"], sign=True),
              f"{int(r['new_moves']):,}", f"{int(r['on_moves']):,}"] for _, r in nc.iterrows()])


def new_column(res: dict, table_below: bool = False) -> str:
    """The new-column finding; its values per card value listed (a figure's takeaway)
    or, under an answer, left to ``new_column_table`` (``table_below``)."""
    nc = _quoted_values(res)
    if not len(nc):
        return "Too few cards of one value both starting and joining columns to compare."
    parts = []
    for _, r in nc.iterrows():
        ci = num_ci(r["difference"], r["difference_low"], r["difference_high"], sign=True)
        parts.append(f"a {int(r['value'])}: {ci} hexes")
    values = "per card value: the table below" if table_below else "; ".join(parts)
    pays = nc[nc["difference_low"] > 0]
    verdict = (f"A card that started a new column gained more than one of the same value added to a column with "
               f"a {', a '.join(str(int(v)) for v in pays['value'])}" if len(pays) else
               "A card that started a new column never gained more than one of the same value added to a column")
    return (f"{verdict} (progress of a card that starts a new column minus one of the same value played on its "
            f"column, {values}); an association, not the effect of starting a column: the bots "
            "chose when to start one.")


HEXES = points(" hexes")
NEW_COLUMN = Q.Direction("NEW COLUMNS", "NEW COLUMNS GAIN MORE", "NEW COLUMNS GAIN LESS",
                         "NO PRACTICAL DIFFERENCE within {bound}",
                         "a card that starts a new column goes with more progress than one of the same value added "
                         "to a column (association)", "against a card added to a column")
PUSHES = Q.Direction("PUSHES", "PUSHES CARRY THE PUSHED ON", "PUSHES SET THE PUSHED BACK",
                     "PUSHES HARDLY MOVE THE PUSHED: within {bound}",
                     "a pushed lemming gains finish distance from the push (association)", "per lemming pushed")


def _hexes_estimate(rows: list[tuple[str, float, float, float]], what: str, res: dict, items: list[str]):
    """A family of effects in hexes, ``(label, estimate, low, high)`` with 95% intervals
    clustered by game, each widened to a simultaneous 95% (Bonferroni over the rows),
    against ``HEX_THRESHOLD``; None without rows."""
    if not rows:
        return None
    z = simultaneous_z(len(rows))
    widen = z / Z95
    games = int(overview_value(res, "games")) if is_num(overview_value(res, "games")) else 0
    return Q.family([Q.Estimate(e, e - widen * (e - low), e + widen * (high - e), games, "games", HEXES,
                                "simultaneous 95% CI", label, item=item, z=z)
                     for (label, e, low, high), item in zip(rows, items)], what)


def _new_column_measure(res: dict, manifest: dict):
    nc = _quoted_values(res)
    return _hexes_estimate([(f"a {int(r['value'])} starting a column minus one added", float(r["difference"]),
                             float(r["difference_low"]), float(r["difference_high"])) for _, r in nc.iterrows()],
                           "a card starting a new column minus one added to a column", res,
                           [f"a {int(r['value'])}" for _, r in nc.iterrows()])


def _push_measure(res: dict, manifest: dict):
    pu = res["pushes"]
    pu = pu[(pu["pushes"] > 0) & (pu["moves"] >= MIN_MOVES)]
    return _hexes_estimate([(f"a lemming pushed in a move that pushes {int(r['pushes'])}",
                             -float(r["setback"]) / r["pushes"], -float(r["setback_high"]) / r["pushes"],
                             -float(r["setback_low"]) / r["pushes"]) for _, r in pu.iterrows()],
                           "the distance a pushed lemming gains", res,
                           [f"pushing {int(r['pushes'])}" for _, r in pu.iterrows()])


NEW_COLUMN_GAIN = Q.Question("new_column_gain",
                             "Did cards that started a new column gain more than cards added to one? (association)",
                             ("new_column", "overview"), _new_column_measure, NEW_COLUMN,
                             lambda manifest: HEX_THRESHOLD, "new_column")
PUSH_GAIN = Q.Question("push_gain", "What do pushes do to the pushed lemmings? (association: pushes the bots made)",
                       ("pushes", "overview"), _push_measure, PUSHES, lambda manifest: HEX_THRESHOLD, "pushes")


def new_column_verdict(res: dict, manifest: dict | None = None):
    """Does starting a new column go with more (or less) progress than adding the same
    card value to a column? Each quoted value's difference on a simultaneous interval
    (``NEW_COLUMN_GAIN``); None when no value is quoted."""
    return NEW_COLUMN_GAIN.verdict(res, manifest)


def push_verdict(res: dict, manifest: dict | None = None):
    """Do pushes carry the pushed lemmings on? Per number of lemmings pushed (groups of
    at least ``MIN_MOVES`` moves), the finish distance they gain per lemming pushed
    (the opposite of the setback, divided by the lemmings pushed) (``PUSH_GAIN``);
    None without pushes."""
    return PUSH_GAIN.verdict(res, manifest)


def warnings(res: dict, manifest: dict) -> list:
    """Degenerate results for the scorecard (``report/scorecard.py``): a choice the bots
    never vary, starting a new column (never, or with every card), which leaves the
    new-column answer nothing to compare."""
    from analyzer.report.scorecard import MIN_UNITS, ScoreWarning, replay_command

    nc = res.get("new_column")
    if nc is None:
        return []
    new, on = int(nc["new_moves"].sum()), int(nc["on_moves"].sum())
    if new + on < MIN_UNITS or (new and on):
        return []
    seen = ("never start a new column" if not new else "start a new column with every card")
    return [ScoreWarning(
        f"The bots {seen} ({new:,} of {new + on:,} cards played started one).",
        "nothing about columns: the bots' rule never varies this choice, so the new-column answer has nothing "
        "to compare (not a rule of the game)",
        f"{replay_command(manifest)} shows every card played; seat the random bot to see both choices")]


def pushes(res: dict) -> str:
    pu = res["pushes"]
    if not len(pu):
        return "No moves in this run."
    with_push = pu[pu["pushes"] > 0]
    share = with_push["share"].sum()
    if not len(with_push):
        return "No lemming was pushed."
    n = with_push["moves"].to_numpy(float)
    # the tables keep the change of finish distance (0 or less: no push goes backwards); read as a gain
    gained = -float((with_push["setback"] * n).sum() / n.sum())
    per_lemming = -float((with_push["setback"] * n).sum() / (with_push["pushes"] * n).sum())
    verdict = ("so a push helps the pushed player, and costs the pusher a movement" if gained > 0 else
               "so a push neither helps nor hurts the pushed player")
    return (f"Pushes never set lemmings back (a push that would is not allowed). {pct(share)} of the moves push "
            f"at least one lemming; a pushing move brings the pushed lemmings {num(gained)} hexes closer to the "
            f"finish in all ({num(per_lemming)} per lemming pushed, each push costing the pusher one movement): "
            f"{verdict}.")


def tiles(res: dict) -> str:
    t = res["tiles"]
    if not len(t) or t["tiles_placed_on"].sum() == 0:
        return "No bonus tile was placed."
    top = t.loc[t["tiles_placed_on"].idxmax()]
    cols = t[t["terrain"] != "meadow"]
    most = cols.loc[cols["new_columns"].idxmax()]
    games = overview_value(res, "games")
    count = (f"{most['new_columns'] / games:.2f} a game" if is_num(games) and games > 0
             else f"{int(most['new_columns']):,} in the run")
    return (f"{pct(top['tiles_placed_share'], 0)} of the tiles land on {top['terrain']} hexes; "
            f"{most['terrain']} starts the most new columns ({count}).")


def hexes(res: dict) -> str:
    hx = res["hexes"]
    if not len(hx) or hx["entered"].sum() == 0:
        return "No hex was entered."
    busy = hx.loc[hx["entered_per_game"].idxmax()]
    pushed = hx.loc[hx["pushed_into"].idxmax()]
    return (f"The busiest hex is ({int(busy['x'])}, {int(busy['y'])}), {busy['terrain']}, entered "
            f"{num(busy['entered_per_game'], 2)} times a game; pushed lemmings land most on "
            f"({int(pushed['x'])}, {int(pushed['y'])}).")


def game_length(res: dict) -> str:
    gl = res["game_length"]
    if not len(gl):
        return "No games."
    v, cum = gl["turns"].to_numpy(), gl["cumulative_share"].to_numpy()
    med = v[np.searchsorted(cum, 0.5)]
    p5, p95 = v[np.searchsorted(cum, 0.05)], v[min(np.searchsorted(cum, 0.95), len(v) - 1)]
    mean = overview_value(res, "game_length_mean")
    return (f"A game lasts {num(mean, 1)} turns on average (refills included), median {med}; 90% of games take "
            f"{p5}-{p95} turns.")


# ---------------------------------------------------------------------- designer answers


def hands_finding(manifest: dict):
    """The sentence of "do the starting hands balance the seats?" (the box's 2-6 cards,
    the smallest in the first seat; a variant's, ``hands_question``) on one table,
    answered as the evidence decides it: yes only when a gap is ruled out, not for want
    of games."""
    question = HANDS

    def finding(res: dict) -> str:
        sa = res["seat_advantage"]
        if not len(sa):
            return "No results to compare seats."
        if confounded(res):
            return ("Cannot tell from these seats: they run different bots, so a seat's win rate mixes its "
                    "bot's strength with its starting hand and its place in the turn order. Rerun with one "
                    f"bot in every seat (e.g. 'analyzer simulate lemminge --bots random --players {len(sa)}').")
        flags = seat_flags(res, manifest)
        if flags is None:
            return "No results to compare seats."
        sentence = flag_sentence(flags, "seat")
        v = question.verdict(res, manifest)
        answer = {RULED_OUT: "Yes", SHOWN: "No"}.get(v.word if v is not None else "", "Cannot tell yet")
        return (f"{answer}: {sentence[0].lower() + sentence[1:-1]} (each seat's win rate against the average "
                "seat: the table of seats below).")
    return finding


HANDS = Q.seat_spread("Do the starting hands of 2-6 cards balance the seats?")
FIRST_SEAT = Q.first_seat_edge()
SKILL = Q.skill_gradient("How much does skill matter?")
LENGTH = Q.length("game_length_mean", "turns", "game", "How long is a game?", "game_length")


def hands_question(manifest: dict) -> str:
    """The question of the starting hands, naming the box's 2-6 cards only where the
    run played the box's deal (a variant's hands are in the table of seats beside it)."""
    changed = (manifest.get("rules") or {}).get("changed") or {}
    if {"hand_limit", "start_hands"} & set(changed):
        return "Do the starting hands of these rules balance the seats?"
    return "Do the starting hands of 2-6 cards balance the seats?"


def _with_seats(answer: Answer, seats) -> Answer:
    """The hands answer with its table of seats after the table of its controlled tables (if any)."""
    return replace(answer, extra_tables=[seats]) if seats else answer


def hands_table(res: dict, controlled) -> tuple[list[str], list[list]] | None:
    """Each seat's starting hand and win rate against the average seat, one column
    per table the hands answer reads (the controlled tables, else the run's own
    when one bot plays every seat)."""
    tables = dict(controlled.tables) if controlled else {"this run": res}
    per = {label: t["seat_advantage"].set_index("seat") for label, t in tables.items()
           if len(t["seat_advantage"]) and not confounded(t)}
    if not per:
        return None
    seats = next(iter(per.values()))
    return (["seat", "starting hand"] + [f"{label}: against the average seat (95% CI)" for label in per],
            [[int(seat), f"{num(r['hand_start'], 0)} cards"]
             + [pp_ci(sa.loc[seat, "advantage"], sa.loc[seat, "advantage_low"], sa.loc[seat, "advantage_high"])
                for sa in per.values()] for seat, r in seats.iterrows()])


def _length_finding(res: dict) -> str:
    lo, hi = overview_value(res, "game_length_mean", "low"), overview_value(res, "game_length_mean", "high")
    text = game_length(res)
    if not len(res["game_length"]):
        return text
    return f"{text[:-1]} (mean 95% CI {num(lo, 1)}–{num(hi, 1)})."


HANDS_METHOD = ("Cochran's Q on which seats won each game (seats paired within a game), then per-seat paired "
                "tests against the average seat with Holm correction, flagged only beyond the practical threshold; "
                "each seat's win rate minus the mean of all seats' in the same game with a 95% t interval, beside "
                "its mean starting hand")
COLUMN_METHOD = ("cards played on an existing column, grouped by the column's sum before the card: mean movement "
                 "and mean progress (finish distance the moved lemming gained) per card, 95% t interval of the "
                 "mean clustered by game (the moves of one game are not independent: the interval counts games, "
                 "from each game's sums); progress per movement is the ratio of the two means; sums with fewer than "
                 f"{MIN_MOVES} moves are not quoted; observational: which card goes on which column is the bots' "
                 "choice")
NEW_COLUMN_METHOD = ("per card value, the mean progress of cards that started a new column minus that of cards of "
                     "the same value played on their column: difference of means with a 95% t interval "
                     "clustered by game (a game's moves of both kinds count once, with their covariance); values with fewer than "
                     f"{MIN_MOVES} moves on either side are not quoted; the verdict: any value's difference on its "
                     "interval widened to a simultaneous 95% (Bonferroni over the values) against a practical "
                     f"threshold of {HEX_THRESHOLD} hexes; observational, not the effect of starting "
                     "a column: the bots chose when to start one")
PUSH_METHOD = ("moves grouped by the number of lemmings they pushed: the share of moves that push, the finish "
               "distance the pushed lemmings gained per pushing move and per lemming pushed, pooled over "
               "the groups by their move counts; no interval is quoted for the pooled figures (the pushes table has "
               "95% t intervals per group, clustered by game); the verdict: per group of at least "
               f"{MIN_MOVES} moves, the distance gained per lemming pushed on its interval widened to a "
               f"simultaneous 95% (Bonferroni over the groups), against a practical threshold of {HEX_THRESHOLD} "
               "hexes; observational: the pushes are the bots' own choices")
TILES_METHOD = ("counts over the run: tiles placed per printed terrain of the hex (share of all tiles), new columns "
                "started per card terrain, and per hex the entries of moving lemmings per game and the landings "
                "of pushed ones; no intervals; where tiles go is the bots' choice")
# the question a reader asks of these counts, answered as far as the tables allow
TERRAIN_UNTOLD = ("Which terrain decides games cannot be told from these counts, because they say where tiles "
                  "and columns go, not which terrain the winners moved on or whether a tile changed who won: "
                  "that would need a replay of the same games with the tile placed elsewhere (not measured).")
LENGTH_METHOD = ("histogram of game lengths in turns (refills included); mean with a 95% t interval over games, "
                 "median and the 5% and 95% points read from the histogram")
SKILL_METHOD = ("score (lemmings home) variance explained by the bot (eta squared); each heuristic bot's game win "
                "rate per seat minus random's, paired by game, 95% t interval; random's win rate with a 95% "
                "Wilson interval")


def _players(res: dict) -> int | None:
    players = overview_value(res, "players")
    return int(players) if is_num(players) else None


# every question the report answers, by key (a balance search targets these); the flow's contenders
# are the players, read from the tables
QUESTIONS = (HANDS, FIRST_SEAT, NEW_COLUMN_GAIN, PUSH_GAIN, LENGTH, SKILL, *flow_questions("game", "turns", _players))


def answers(res: dict, manifest: dict, controlled=None) -> list[Answer]:
    """The designer's questions, each with its scope and method (``Answer``): the
    questions about the game on the controlled tables (``structural``), those about
    the bots' choices as such (``bots_answer``)."""
    return [
        _with_seats(structural(HANDS.with_text(hands_question(manifest)), hands_finding(manifest), res, manifest,
                               controlled, method=HANDS_METHOD),
                    hands_table(res, controlled)),
        structural(FIRST_SEAT, first_seat_finding(manifest), res, manifest, controlled),
        bots_answer("What did a card on a column of each sum gain? (association: cards the bots played)",
                    "column_value", column_value(res), COLUMN_METHOD, manifest, key="column_value"),
        judged_answer(NEW_COLUMN_GAIN, new_column(res, table_below=True), res, manifest, table=new_column_table(res),
                      method=NEW_COLUMN_METHOD),
        judged_answer(PUSH_GAIN, pushes(res), res, manifest, method=PUSH_METHOD),
        bots_answer("Where do tiles go, and which hexes are busiest? (counts)", "tiles",
                    f"{tiles(res)} {hexes(res)} {TERRAIN_UNTOLD}", TILES_METHOD, manifest, key="tiles"),
        structural(LENGTH, _length_finding, res, manifest, controlled, method=LENGTH_METHOD),
        judged_answer(SKILL, answer_skill(res), res, manifest, method=SKILL_METHOD),
        flow_answer(res, manifest, *FLOW, contenders=_players(res)),
    ]
