"""Mafia's balance report sections (the interface every game's report package
offers ``analyzer/report/html.py``): ``FIGURES``, ``answers``, ``overview``,
``key_tables``, ``FOOTNOTE`` and ``TABLE_DOCS``. Every answer says under which
bots it holds and that the map and tables are the assumed ones."""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pandas as pd

from analyzer.games.mafia import layout as L
from analyzer.games.mafia.stats import MAX_LENGTH, TABLE_DOCS
from analyzer.report.answer_charts import AnswerChart
from analyzer.report.figures import _pct_axis, _pp_axis
from analyzer.report.flow import flow_answer, flow_figure, flow_questions, flow_table
from analyzer.report.html import table
from analyzer.report.text import (
    Answer, bots_answer, flag_sentence, judged_answer, min_effect, num, num_ci, pct, pct_ci, structural,
)
from analyzer.stats import questions as Q
from analyzer.stats.aggregate import hist_mean
from analyzer.stats.evidence import PP
from analyzer.stats.flags import ALPHA, seat_balance, simultaneous_z
from analyzer.stats.intervals import rate_difference, wilson

__all__ = ["FIGURES", "answers", "warnings", "overview", "key_tables", "FOOTNOTE", "TABLE_DOCS", "CONTROLLED_TABLES",
           "ANSWER_CHARTS", "QUESTIONS"]

CONTROLLED_TABLES = ("outcomes", "roles", "length")  # what the structural answers read
FLOW = ("game", "side turns", "side")
NOBODY_THRESHOLD = Q.NOBODY_THRESHOLD  # a share of games without a winner a designer would want to know is there  # one item, its steps, what leads its standing (docs/mafia.md)

FOOTNOTE = ("A simulated unit is a game. Intervals are 95%: Wilson for shares and win rates, Student t for the "
            "mean length. The card values are observational "
            "(win rate of the side in the games where it played the card against those where it did not): a "
            "card is played when its window opens, which depends on how the game is going, so they are not "
            "effects of the card. The map, the returns table and the encounters are the rules page's ASSUMED "
            "reconstruction unless the run names another map.")

FAMILY_COLORS = {"red": "#c0392b", "black": "#262626", "orange": "#e67e22", "green": "#2e8b57", "state": "#2c5aa0"}


# ---------------------------------------------------------------------- answers

STATE = Q.Direction("STATE'S SHARE", "STATE TOO STRONG", "STATE TOO WEAK", "STATE EVEN WITH AN EQUAL SEAT within {bound}",
                    "the State wins more games than an equal seat's share (1 / players)", "against an equal seat")
FIRST_FAMILY = Q.Direction("FIRST FAMILY'S EDGE", "FIRST FAMILY FAVOURED", "FIRST FAMILY HANDICAPPED",
                           "NO FIRST-MOVER EDGE within {bound}",
                           "the family that moves first (red) wins more often than the average family",
                           "against the average family")
FAMILIES = Q.Direction("FAMILY BALANCE", "FAMILIES UNEVEN", "FAMILIES UNEVEN", "FAMILIES EVEN within {bound}",
                       "a family wins more often than the average family (the one furthest from it is quoted)",
                       "against the average family")


def _state_parts(res) -> list[Q.Estimate]:
    """The State's share of games against an equal seat's (1 / players), per player count
    where it plays (Wilson intervals)."""
    o = res["outcomes"]
    parts = []
    for n in sorted(o["players"].unique()):
        sub = o[o.players == n].set_index("outcome")
        if n == 4 or "state" not in sub.index:
            continue
        r = sub.loc["state"]
        fair = 1 / n
        parts.append(Q.Estimate(float(r.share - fair), float(r.low - fair), float(r.high - fair),
                                int(sub["games"].sum()), "games", PP,
                                what=f"the State at {n} players against an equal seat", baseline="an equal seat"))
    return parts


def _state_estimate(res, manifest) -> Q.Estimate | None:
    return Q.family(_state_parts(res), "the State against an equal seat")


def _state_finding(res) -> str:
    """The State's share per player count in words, against an equal seat's share."""
    o = res["outcomes"]
    parts = []
    for n in sorted(o["players"].unique()):
        sub = o[o.players == n].set_index("outcome")
        if n == 4:
            if "all_lose" in sub.index:
                r = sub.loc["all_lose"]
                parts.append(f"at 4 players (no State player) everyone loses in {pct_ci(r.share, r.low, r.high)}")
            continue
        if "state" not in sub.index:
            continue
        r = sub.loc["state"]
        fair = 1 / n
        side = "above" if r.low > fair else "below" if r.high < fair else "about"
        fam = float(sub.loc[[f for f in L.FAMILIES if f in sub.index], "share"].sum())
        draws = float(sub.loc["draw", "share"]) if "draw" in sub.index else 0.0
        word = {"above": "more than", "below": "less than", "about": "about"}[side]
        parts.append(f"at {n} players the State wins {pct_ci(r.share, r.low, r.high)} of games, {word} an equal "
                     f"seat's share ({pct(fair)}), the families together {pct(fam)}"
                     + (f", {pct(draws)} draws at the safety cap" if draws > 0 else ""))
    return "; ".join(parts) + "." if parts else "No games in this run."


def _state_answer(res) -> str:
    return _state_finding(res)


def _nobody_counts(res) -> list[tuple[str, int, int]]:
    """Per player count: games nobody won (everyone loses, or a draw at the safety cap) and games."""
    o = res["outcomes"]
    out = []
    for n in sorted(o["players"].unique()):
        sub = o[o.players == n].set_index("outcome")["games"]
        out.append((f"at {n} players", int(sub.get("all_lose", 0)) + int(sub.get("draw", 0)), int(sub.sum())))
    return out


def _nobody_finding(res) -> str:
    o = res["outcomes"]
    parts = []
    for n in sorted(o["players"].unique()):
        sub = o[o.players == n].set_index("outcome")["games"]
        games = int(sub.sum())
        if not games:
            continue
        lost, draws = int(sub.get("all_lose", 0)), int(sub.get("draw", 0))
        low, high = wilson(lost + draws, games)
        parts.append(f"at {n} players nobody wins {pct_ci((lost + draws) / games, low, high)} of games (everyone "
                     f"loses in {pct(lost / games)}, a draw at the safety cap in {pct(draws / games)})")
    return "; ".join(parts) + "." if parts else "No games in this run."


def _nobody_measure(res) -> tuple:
    """(sentence, verdict) of how often nobody wins, on one table (``NOBODY_WINS``)."""
    return _nobody_finding(res), NOBODY_WINS.verdict(res, {})


def _family_confounded(res, n) -> bool:
    """Do the families at ``n`` players run different bots (so order and bot mix)?"""
    r = res["roles"]
    return r[(r.players == n) & (r.role == L.ROLE_FAMILY)]["bot"].nunique() > 1


def _family_flags(res, n, manifest):
    """Cochran's Q and Holm over the four families' wins at ``n`` players (at most one
    winner a game, so the families of a game are paired), items named by family."""
    counts = res["outcomes"][res["outcomes"].players == n].set_index("outcome")["games"]
    wins = np.array([int(counts.get(f, 0)) for f in L.FAMILIES], np.int64)
    games = int(counts.sum())
    patterns = np.r_[wins, games - wins.sum()]
    masks = np.r_[1 << np.arange(len(L.FAMILIES)), 0]
    f = seat_balance(patterns, masks, len(L.FAMILIES), ALPHA, min_effect(manifest))
    f.items = list(L.FAMILIES)
    return f


def _family_parts(res, manifest) -> list[Q.Estimate] | None:
    """Each family's gap from the average family (the flags' simultaneous intervals and
    gates), at the run's player count; None where the families run different bots."""
    r = res["roles"]
    fam = r[r.role == L.ROLE_FAMILY]
    counts = sorted(fam["players"].unique())
    if len(counts) != 1 or _family_confounded(res, counts[0]):
        return None
    n = counts[0]
    flags = _family_flags(res, n, manifest)
    games = int(res["outcomes"].loc[res["outcomes"].players == n, "games"].sum())
    return [replace(p, what=f"{p.item} at {n} players against the average family")
            for p in Q.flag_parts(flags, games, "games", "the average family")]


def _first_family(res, manifest) -> Q.Estimate | None:
    parts = _family_parts(res, manifest)
    if not parts:
        return None
    first = parts[0]
    return replace(first, what=f"{first.item} (first to move) at {first.what.split(' at ')[1]}", item="")


def _family_spread(res, manifest) -> Q.Estimate | None:
    parts = _family_parts(res, manifest)
    return Q.family(parts, "a family off the average") if parts else None


def _first_mover_finding(manifest: dict):
    def finding(res) -> str:
        r = res["roles"]
        fam = r[r.role == L.ROLE_FAMILY]
        parts = []
        for n in sorted(fam["players"].unique()):
            sub = fam[fam.players == n].groupby("side")[["n", "wins"]].sum()
            order = [f for f in L.FAMILIES if f in sub.index]
            rates = ", ".join(f"{f} {pct(sub.loc[f, 'wins'] / sub.loc[f, 'n'])}" for f in order)
            if _family_confounded(res, n):
                bots = fam[fam.players == n].groupby("side")["bot"].first()
                parts.append(f"at {n} players, in calendar order: {rates}; the families run different bots "
                             f"({', '.join(f'{f}: {bots[f]}' for f in order)}), so this mixes a bot's strength "
                             "with the order of moving")
                continue
            flags = _family_flags(res, n, manifest)
            first = L.FAMILIES[0]
            lead = (f"{first}, moving first, has no edge beyond chance and the practical threshold"
                    if not flags.flagged[0] else
                    f"{first}, moving first, wins {'more' if flags.share[0] > flags.fair else 'less'} than the "
                    "average family")
            parts.append(f"at {n} players {lead} (in calendar order: {rates}); {flag_sentence(flags, 'family', 'families')[:-1]}")
        if not parts:
            return "No family seats in this run."
        return "; ".join(parts) + " (red moves first, then black; orange and green after the State)."
    return finding


def _first_mover(res) -> str:
    return _first_mover_finding({})(res)


def _bases(res) -> str:
    """Each family's win rate with each base city, led by the largest gap (every
    value in ``_bases_table``); a family whose bot always took the same base gives
    no comparison, and the answer says so instead of a lone number."""
    b = res["bases"]
    if not len(b):
        return "No family seats in this run."
    gaps, fixed = [], []
    for (n, side), g in b.groupby(["players", "side"], sort=False):
        g = g[g["share"] > 0]
        if len(g) == 1:
            fixed.append(f"{side} always took {g['base'].iloc[0]} at {n} players")
            continue
        best = g.sort_values("win_rate", ascending=False)
        hi, lo = best.iloc[0], best.iloc[-1]
        gaps.append((hi.win_rate - lo.win_rate, f"{side} at {n} players, {hi.base} {pct(hi.win_rate)} "
                                                f"({pct(hi.share, 0)} of games) against {lo.base} "
                                                f"{pct(lo.win_rate)} ({pct(lo.share, 0)} of games)"))
    if fixed and not gaps:
        return ("Cannot tell: the bots always pick the same base (" + "; ".join(fixed) + "), so no family "
                "played another base to compare with. Seat the random bot to see every base played.")
    text = "Win rate with each base the bots chose: the largest gap is " + max(gaps)[1] + "."
    if fixed:
        text += " No comparison for " + "; ".join(fixed) + " (its bot never chose another base)."
    return text


def _bases_table(res) -> tuple[list[str], list[list]] | None:
    """Every family's bases with two or more chosen: win rate (95% Wilson) and share of games."""
    b = res["bases"]
    b = b[b["share"] > 0] if len(b) else b
    rows = [[side, n, r.base, pct_ci(r.win_rate, r.low, r.high), pct(r.share, 0)]
            for (n, side), g in b.groupby(["players", "side"], sort=False) if len(g) > 1
            for _, r in g.sort_values("win_rate", ascending=False).iterrows()]
    return (["family", "players", "base", "win rate (95% CI)", "share of its games"], rows) if rows else None


def _largest_card_gaps(res):
    c = res["cards"]
    c = c[c["games_without"] > 0]
    return c.assign(absdiff=c["difference"].abs()).sort_values("absdiff", ascending=False).head(4)


def _cards(res) -> str:
    c = _largest_card_gaps(res)
    if not len(c):
        return "No cards were played in this run."
    r = c.iloc[0]
    return ("Largest differences in the playing side's win rate, with the card against without "
            f"(observational): {card_title(r.card)} at {r.players} players ({r.side_role}) {pct(r.win_with)} with "
            f"against {pct(r.win_without)} without, in {int(r.games_with):,} games with it.")


def _cards_table(res) -> tuple[list[str], list[list]] | None:
    c = _largest_card_gaps(res)
    if not len(c):
        return None
    return (["card", "players", "side", "games with it", "win rate with (95% CI)", "without (95% CI)"],
            [[card_title(r.card), r.players, r.side_role, f"{int(r.games_with):,}",
              pct_ci(r.win_with, r.with_low, r.with_high), pct_ci(r.win_without, r.without_low, r.without_high)]
             for _, r in c.iterrows()])


def _differences(pairs: list[tuple], what: str) -> Q.Estimate | None:
    """A family of win-rate differences of independent groups of games: ``pairs`` of
    ``(label, item, wins_a, games_a, wins_b, games_b, games)``, each on Newcombe's interval
    at a simultaneous 95% (Bonferroni over the pairs), resting on the ``games`` played at
    its player count (a family's seat-games with and without a card add up to four times
    the games: the games are what more of would settle it)."""
    if not pairs:
        return None
    z = simultaneous_z(len(pairs))
    out = []
    for label, item, ka, na, kb, nb, games in pairs:
        d, low, high = rate_difference(ka, na, kb, nb, z)
        out.append(Q.Estimate(float(d), float(low), float(high), int(games), "games", PP, "simultaneous 95% CI",
                              label, item=item, z=z))
    return Q.family(out, what)


def _games_at(res) -> dict[int, int]:
    """Games played at each player count (the outcomes table)."""
    o = res.get("outcomes")
    if o is None or not len(o):
        return {}
    return {int(k): int(v) for k, v in o.groupby("players")["games"].sum().items()}


def _bases_measure(res, manifest) -> Q.Estimate | None:
    b = res["bases"]
    games = _games_at(res)
    pairs = []
    for (n, side), g in b[b["n"] > 0].groupby(["players", "side"], sort=False):
        rows = g.sort_values("win_rate", ascending=False).to_dict("records")
        pairs += [(f"{side} at {n} players, {x['base']} minus {y['base']}", f"{side} {x['base']} over {y['base']}",
                   x["wins"], x["n"], y["wins"], y["n"], games.get(int(n), x["n"] + y["n"]))
                  for i, x in enumerate(rows) for y in rows[i + 1:]]
    return _differences(pairs, "a family's win rate with one base minus another")


def _cards_measure(res, manifest) -> Q.Estimate | None:
    c = res["cards"]
    c = c[(c["games_with"] > 0) & (c["games_without"] > 0)]
    games = _games_at(res)
    pairs = [(f"{card_title(r.card)} at {r.players} players ({r.side_role})", card_title(r.card),
              round(r.win_with * r.games_with), r.games_with, round(r.win_without * r.games_without), r.games_without,
              games.get(int(r.players), r.games_with + r.games_without))
             for r in c.itertuples()]
    return _differences(pairs, "a card's win rate with minus without")


def bases_verdict(res, manifest: dict):
    """Does a family's base city go with winning more? Per family and player count
    whose bot played more than one base, every two bases' win rates compared
    (association: the bots chose the base); None when no family varied its base."""
    return BASE_CHOICE.verdict(res, manifest)


def cards_verdict(res, manifest: dict):
    """Do the games where a side played a card go with winning more (or less) than its
    games without it? Every card, player count and role with games both ways
    (association, not the card's effect); None when no card can be compared."""
    return CARD_ASSOCIATION.verdict(res, manifest)


def card_title(name: str) -> str:
    """A ``card`` value of the cards table by its name on the rules page."""
    return L.PLAYED_TITLES.get(str(name), str(name).replace("_", " "))


def outcome_title(name: str) -> str:
    """An ``outcome`` value in words (a side's name, "everyone loses", "draw (safety cap)")."""
    return L.OUTCOME_TITLES.get(str(name), str(name))


def _games(res) -> int:
    return int(res["outcomes"]["games"].sum()) if len(res["outcomes"]) else 0


def _spaces(res) -> str:
    """Where markers go, per game (the spaces table counts the whole run)."""
    s = res["spaces"]
    games = _games(res)
    if not len(s) or not games:
        return "No space counts in this run."
    top = s.loc[s["markers_placed"].idxmax()]
    removed = s.loc[s["markers_removed"].idxmax()]
    return (f"Per game, most markers are placed on {top['name']} ({top.markers_placed / games:.2f}) and most "
            f"are taken off on {removed['name']} ({removed.markers_removed / games:.2f}), out of "
            f"{num(s.markers_placed.sum() / games)} placed and {num(s.markers_removed.sum() / games)} taken off "
            f"a game over {games:,} games.")


def _spaces_table(res) -> tuple[list[str], list[list]] | None:
    """The three spaces with most markers placed and the three with most taken off, per game."""
    s = res["spaces"]
    games = _games(res)
    if not len(s) or not games:
        return None
    busy = pd.concat([s.sort_values("markers_placed", ascending=False).head(3),
                      s.sort_values("markers_removed", ascending=False).head(3)]).drop_duplicates("space")
    return (["space", "markers placed a game", "markers taken off a game"],
            [[r["name"], f"{r.markers_placed / games:.2f}", f"{r.markers_removed / games:.2f}"]
             for _, r in busy.iterrows()])


def _length_finding(res) -> str:
    """The mean length per player count, with its interval."""
    parts = [f"{num_ci(m['mean'], m['low'], m['high'], 1)} calendar turns at {m['players']} players"
             for m in _mean_length(res).to_dict("records")]
    return "Games last " + ", ".join(parts) + "." if parts else "No games."


def _length_mean(res) -> tuple[float, float, float, int]:
    """The mean length with its interval and games, at the run's one player count (NaN with several)."""
    m = _mean_length(res)
    if len(m) != 1:
        return float("nan"), float("nan"), float("nan"), 0
    return float(m["mean"].iloc[0]), float(m["low"].iloc[0]), float(m["high"].iloc[0]), _games(res)


def _length(res) -> str:
    return _length_finding(res)


STATE_METHOD = ("per player count, the share of games the State wins with its 95% Wilson interval, read against "
                "an equal seat's share (1 / players: more, less or about); the families' share is the sum of the "
                "four families' outcomes")
FIRST_METHOD = ("per player count, each family's share of games won, then Cochran's Q over the four families "
                "(at most one winner a game, so the families of a game are paired) and per-family paired tests "
                "against the average family with Holm correction, flagged only beyond the practical threshold; "
                "when the families run different bots the comparison mixes bot and order and is not tested")
DIFFERENCE_METHOD = ("; the verdict: each difference of two win rates on Newcombe's interval (from the two Wilson "
                     "intervals) at a simultaneous 95% (Bonferroni over the differences), against the practical "
                     "threshold: shown when any is beyond it")
BASE_METHOD = ("per family and player count, the share of its games with each base city and its win rate with "
               "that base (95% Wilson intervals in the bases table and figure); observational: the bots choose the base, and a bot that always "
               "picks one base gives no comparison" + DIFFERENCE_METHOD)
CARD_METHOD = ("observational: among the games a side played, its win rate in the games where it played the card "
               "against those where it did not, each with a 95% Wilson interval, the four largest differences "
               "in a table; a card is played when its window opens, which depends "
               "on how the game goes, so this is not the card's effect (no intervention)" + DIFFERENCE_METHOD)
NOBODY_METHOD = ("per player count, the share of games that end without a winner (everyone loses, or a draw at the "
                 "safety cap) with its 95% Wilson interval, judged against a practical threshold of "
                 f"{100 * NOBODY_THRESHOLD:.0f}% of games: shown when the whole interval lies above it, ruled "
                 "out when the whole interval lies below it")
SPACE_METHOD = ("counts over the run of the markers placed on and taken off each space, divided by its games "
                "(per game); no intervals; where markers go follows the bots' choices")
LENGTH_METHOD = ("per player count, the histogram of game lengths in calendar turns (passes of the six-slot "
                 f"calendar; games longer than {MAX_LENGTH} counted as {MAX_LENGTH}); mean with a 95% t interval "
                 "over games")


def warnings(res: dict, manifest: dict) -> list:
    """Degenerate outcomes for the scorecard: a way of ending that takes 90% or more
    of the games at a player count, a side (the State, a family) that never wins
    in at least ``MIN_UNITS`` games, and a choice the bots never vary (a family's
    base city) (``report/scorecard.py``)."""
    from analyzer.report.scorecard import MIN_UNITS, ScoreWarning, dominant, replay_command

    o = res["outcomes"]
    out = []
    for n in sorted(o["players"].unique()):
        sub = o[o.players == n]
        games = int(sub["games"].sum())
        for _, r in sub.iterrows():
            seen = ("everyone loses" if r.outcome == "all_lose" else "the game ends in a draw at the safety cap"
                    if r.outcome == "draw" else f"{r.outcome} wins")
            out += dominant(f"At {n} players {seen}", r.share, games, manifest,
                            "a rule that decides the game (the State too strong or too weak, a goal out of "
                            "reach), bots that cannot reach their goal, or the assumed map")
        won = dict(zip(sub["outcome"], sub["games"]))
        roles = res.get("roles")
        sides = list(dict.fromkeys(roles[roles.players == n]["side"])) if roles is not None else []
        if games >= MIN_UNITS:
            out += [ScoreWarning(f"At {n} players {side} never wins (0 of {games:,} games).",
                                 "a side whose goal is out of reach under these rules, a bot that does not play "
                                 "for it, or the assumed map", replay_command(manifest))
                    for side in sides if int(won.get(side, 0)) == 0]
    b = res.get("bases")
    if b is not None and len(b):  # a choice the bots never vary: its answer cannot compare the options
        fixed = [f"{side} always took {g['base'].iloc[0]} at {n} players"
                 for (n, side), g in ((k, g[g["share"] > 0]) for k, g in b.groupby(["players", "side"], sort=False))
                 if len(g) == 1]
        if fixed:
            out.append(ScoreWarning(
                f"The bots never vary their base city ({'; '.join(fixed)}).",
                "nothing about the bases: the bots' rule picks one base, so the base answer has nothing to "
                "compare (not a rule of the game)",
                "seat the random bot in a family seat to see every base played (analyzer simulate mafia --bots ...)"))
    return out


def _asked_counts(answer: Answer, res: dict, asked: tuple[int, ...]) -> Answer:
    """An answer to a question asked at player counts ``asked`` that says which of
    them this run did not play: "cannot tell" when it played none of them."""
    played = sorted(int(n) for n in res["outcomes"]["players"].unique())
    missing = [n for n in asked if n not in played]
    if not missing:
        return answer
    counts = " or ".join(str(n) for n in missing)
    how = (f"this run played {' and '.join(map(str, played)) or 'no'} players only; run "
           f"'analyzer simulate mafia --players {missing[0]}' (or several runs and 'analyzer report --by players') "
           f"to measure it")
    if len(missing) == len(asked):
        answer.text = f"Cannot tell at {counts} players, because {how}. What this run shows: {answer.text}"
    else:
        answer.text += f" Not measured at {counts} players: {how}."
    return answer


def _with_table(text: str, table, what: str) -> str:
    """An answer's sentence and where its values are, when it has a table of them."""
    return f"{text} {what[0].upper()}{what[1:]}: the table below." if table else text


STATE_SHARE = Q.Question("state_share", "Is the State strong enough at 3 and 5 players?", ("outcomes",),
                         _state_estimate, STATE, Q.min_effect, "outcomes", STATE_METHOD)
FIRST_SEAT = Q.Question("first_seat_edge", "Does the family that moves first win more?", ("outcomes", "roles"),
                        lambda t, m: _first_family(t, m), FIRST_FAMILY, Q.min_effect, "outcomes", FIRST_METHOD)
SEAT_SPREAD = Q.Question("seat_spread", "Do the four families win alike?", ("outcomes", "roles"),
                         lambda t, m: _family_spread(t, m), FAMILIES, Q.min_effect, "outcomes", FIRST_METHOD)
NOBODY_WINS = Q.nobody_wins(_nobody_counts, "How often does nobody win (everyone loses, or a draw at the safety cap)?")
BASE_CHOICE = Q.Question("base_choice", "How did families fare with each base city? (association: the bots chose the "
                         "base)", ("bases", "outcomes"), _bases_measure,
                         Q.Direction("BASE CHOICE", "A BASE GOES WITH WINNING", "A BASE GOES WITH WINNING",
                                     "BASES ALIKE within {bound}",
                                     "a family wins more often with one base than another (association)"),
                         Q.min_effect, "bases", BASE_METHOD)
CARD_ASSOCIATION = Q.Question("card_association", "Which cards go with winning? (association: win rates with and "
                              "without a card)", ("cards", "outcomes"), _cards_measure,
                              Q.Direction("CARDS", "A CARD GOES WITH WINNING", "A CARD GOES WITH LOSING",
                                          "NO CARD GOES WITH WINNING within {bound}",
                                          "a side wins more often in the games where it played the card "
                                          "(association)", "with it than without"),
                              Q.min_effect, "cards", CARD_METHOD)
LENGTH = Q.length("", "calendar turns", "game", "How long are games?", "length", mean=_length_mean)
# every question the report answers, by key (a balance search targets these)
QUESTIONS = (STATE_SHARE, FIRST_SEAT, SEAT_SPREAD, NOBODY_WINS, BASE_CHOICE, CARD_ASSOCIATION, LENGTH,
             *flow_questions(FLOW[0], FLOW[1], lambda t: _sides(t)))


def answers(res: dict, manifest: dict, controlled=None) -> list[Answer]:
    """The designer's questions, each with its scope and method (``Answer``): the
    State's strength, the first mover and the length on the controlled tables
    (``structural``), bases, cards and spaces as the bots' choices."""
    return [
        _asked_counts(structural(STATE_SHARE, _state_finding, res, manifest, controlled), res, (3, 5)),
        structural(FIRST_SEAT, _first_mover_finding(manifest), res, manifest, controlled),
        structural(SEAT_SPREAD, _first_mover_finding(manifest), res, manifest, controlled),
        structural(NOBODY_WINS, _nobody_finding, res, manifest, controlled, method=NOBODY_METHOD),
        judged_answer(BASE_CHOICE, _with_table(_bases(res), _bases_table(res), "every base each family chose"), res,
                      manifest, table=_bases_table(res)),
        judged_answer(CARD_ASSOCIATION, _with_table(_cards(res), _cards_table(res), "the four largest differences"),
                      res, manifest, table=_cards_table(res)),
        bots_answer("Where do markers go? (counts)", "spaces",
                    _with_table(_spaces(res), _spaces_table(res), "the busiest spaces"), SPACE_METHOD, manifest,
                    table=_spaces_table(res), key="spaces"),
        structural(LENGTH, _length_finding, res, manifest, controlled, method=LENGTH_METHOD),
        flow_answer(res, manifest, *FLOW, contenders=_sides(res)),
    ]


def _sides(res) -> int | None:
    """The sides that can lead a game's standing: the four families, and the State where
    it plays (3 and 5 players); None when the run mixes player counts."""
    counts = res["outcomes"]["players"].unique()
    return None if len(counts) != 1 else L.N_FAMILIES + (int(counts[0]) != 4)


def overview(res: dict) -> list[tuple[str, str]]:
    ov = res["overview"]
    out = []
    for n, g in ov.groupby("players"):
        v = dict(zip(g.metric, g.value))
        out.append((f"{n} players: games", f"{int(v['games']):,}"))
        out.append((f"{n} players: length", f"{num(v['calendar_turns_mean'], 1)} calendar turns"))
        out.append((f"{n} players: per game", f"{num(v['shootouts_per_game'])} shootouts, "
                                               f"{num(v['arrests_per_game'])} arrests, "
                                               f"{num(v['holds_per_game'])} holds, "
                                               f"{num(v['markers_placed_per_game'])} markers placed"))
    return out


def key_tables(res: dict) -> str:
    out = ["<h3>Outcomes</h3>", table(["players", "outcome", "games", "share (95% CI)"],
                                      [[r.players, outcome_title(r.outcome), f"{r.games:,}", pct_ci(r.share, r.low, r.high)]
                                       for _, r in res["outcomes"].iterrows()], left=2)]
    out += ["<h3>Sides</h3>", table(["players", "side", "role", "bot", "games", "win rate (95% CI)"],
                                    [[r.players, r.side, r.role, r.bot, f"{r.n:,}",
                                      pct_ci(r.win_rate, r.low, r.high)] for _, r in res["roles"].iterrows()],
                                    left=4)]
    out += ["<h3>Bases</h3>", table(["players", "family", "base", "share", "win rate (95% CI)"],
                                    [[r.players, r.side, r.base, pct(r.share), pct_ci(r.win_rate, r.low, r.high)]
                                     for _, r in res["bases"].iterrows()], left=3)]
    c = res["cards"]
    out += ["<h3>Cards (observational)</h3>", table(
        ["players", "card", "played by", "plays", "win rate with (95% CI)", "without (95% CI)"],
        [[r.players, card_title(r.card), r.side_role, f"{r.plays:,}", pct_ci(r.win_with, r.with_low, r.with_high),
          pct_ci(r.win_without, r.without_low, r.without_high)] for _, r in c.iterrows()], left=3)]
    out.append(flow_table(res, *FLOW[:2]))
    return "".join(out)


# ---------------------------------------------------------------------- figures

def _figure(w, h, ncols=1):
    from analyzer.report.figures import _figure as make
    return make(w, h, ncols)


def fig_outcomes(res, manifest):
    o = res["outcomes"]
    if not len(o):
        return None
    fig, ax = _figure(8, 4)
    ns = sorted(o.players.unique())
    names = [x for x in L.OUTCOMES if x in set(o.outcome)]
    width = 0.8 / max(len(names), 1)
    for i, name in enumerate(names):
        sub = o[o.outcome == name].set_index("players").reindex(ns)
        x = np.arange(len(ns)) + i * width
        ax.bar(x, sub.share, width, yerr=[np.nan_to_num(sub.share - sub.low), np.nan_to_num(sub.high - sub.share)],
               color=FAMILY_COLORS.get(name, "#9e9e9e"), label=outcome_title(name))
    ax.set_xticks(np.arange(len(ns)) + 0.4 - width / 2, [f"{n} players" for n in ns])
    ax.set_ylabel("share of games (95% CI)")
    _pct_axis(ax)
    ax.legend(frameon=False, fontsize=8, ncols=4)
    ax.set_title("Who wins: the State, each family, nobody")
    return fig


def fig_bases(res, manifest):
    b = res["bases"]
    if not len(b):
        return None
    fig, ax = _figure(8, 4)
    labels = [f"{r.side} {r.base} ({r.players}p)" for _, r in b.iterrows()]
    y = np.arange(len(b))
    ax.barh(y, b.win_rate, xerr=[np.nan_to_num(b.win_rate - b.low), np.nan_to_num(b.high - b.win_rate)],
            color=[FAMILY_COLORS.get(s, "#777") for s in b.side])
    ax.set_yticks(y, labels, fontsize=7)
    ax.set_xlabel("win rate (95% CI)")
    _pct_axis(ax, "x")
    ax.set_title("Base city and win rate")
    return fig


def fig_cards(res, manifest):
    c = res["cards"]
    c = c[c.games_without > 0]
    if not len(c):
        return None
    fig, ax = _figure(8, max(3, 0.25 * len(c) + 1))
    y = np.arange(len(c))
    ax.barh(y, c["difference"], color=["#2a9d5c" if d > 0 else "#c0392b" for d in c["difference"]])
    ax.set_yticks(y, [f"{card_title(r.card)} ({r.players}p, {r.side_role})" for _, r in c.iterrows()], fontsize=7)
    ax.axvline(0, color="#444", lw=0.8)
    ax.set_xlabel("win rate with the card minus without (percentage points, observational)")
    _pp_axis(ax, "x")
    ax.set_title("Cards and the games they come with")
    return fig


def fig_spaces(res, manifest):
    """Sicily's spaces as the ring (a circle, clockwise) and the bar across it,
    coloured by markers placed (left) and removed (right)."""
    s = res["spaces"]
    if not len(s):
        return None
    ring, bar = _ring_and_bar(manifest, len(s))
    pos = {}
    for i, x in enumerate(ring):
        a = math.pi / 2 - 2 * math.pi * i / len(ring)
        pos[x] = (math.cos(a), math.sin(a))
    if bar:
        (x0, y0), (x1, y1) = pos.get(bar[0], (0, 1)), pos.get(bar[-1], (0, -1))
        for k, x in enumerate(bar[1:-1], 1):
            t = k / (len(bar) - 1)
            pos[x] = (x0 + t * (x1 - x0), y0 + t * (y1 - y0))
    fig, axes = _figure(11, 5.5, ncols=2)
    for ax, col, cmap in ((axes[0], "markers_placed", "Reds"), (axes[1], "markers_removed", "Blues")):
        values = s.set_index("space")[col].astype(float)
        vmax = max(values.max(), 1.0)
        import matplotlib
        cm = matplotlib.colormaps[cmap]
        path = list(ring) + [ring[0]]
        ax.plot([pos[x][0] for x in path], [pos[x][1] for x in path], color="#bbb", lw=1, zorder=1)
        if bar:
            ax.plot([pos[x][0] for x in bar], [pos[x][1] for x in bar], color="#bbb", lw=1, zorder=1)
        for _, r in s.iterrows():
            if r.space not in pos:
                continue
            px, py = pos[r.space]
            ax.scatter([px], [py], s=260, color=cm(0.15 + 0.85 * values[r.space] / vmax), edgecolor="#555",
                       zorder=2, marker="s" if r.type == "city" else "o")
            ax.annotate(str(r["name"]), (px, py), fontsize=6, ha="center", va="bottom",
                        xytext=(0, 9), textcoords="offset points")
        ax.set_aspect("equal")
        ax.axis("off")
        ax.set_title(col.replace("_", " ") + " (darker: more)")
    return fig


def _ring_and_bar(manifest, n):
    m = manifest.get("map") or {}
    ring = m.get("ring") or list(range(min(n, 22)))
    bar = m.get("bar") or ([2, 22, 23, 24, 25, 16] if n == 26 else [])
    return ring, bar


def fig_length(res, manifest):
    ln = res["length"]
    if not len(ln):
        return None
    fig, ax = _figure(8, 3.5)
    for n, g in ln.groupby("players"):
        ax.plot(g.calendar_turns, g.games / g.games.sum(), marker="o", ms=3, label=f"{n} players")
    ax.set_xlabel("calendar turns (passes of the six-slot calendar)")
    ax.set_ylabel("share of games")
    _pct_axis(ax)
    ax.legend(frameon=False)
    ax.set_title("Game length")
    return fig


def _take(text_fn):
    return lambda res: text_fn(res)


def _sides_in_order(df):
    """The roles table's rows in the sides' order (red, black, orange, green, state)."""
    return df.assign(order=df["side"].map({n: i for i, n in enumerate(L.SIDE_NAMES)})).sort_values(
        ["players", "order"]).drop(columns="order")


# what the State and first-mover answers cite: each side's share of games won, from the
# controlled tables (report/answer_charts.py)
def _mean_length(res):
    """The mean game length per player count with its interval, as the length answer quotes it."""
    rows = []
    for n, g in res["length"].groupby("players"):
        m = hist_mean(g.games.to_numpy(np.int64), g.calendar_turns.to_numpy(np.int64))
        rows.append({"players": n, "mean": float(m["mean"]), "low": float(m["low"]), "high": float(m["high"])})
    return pd.DataFrame(rows)


ANSWER_CHARTS = [
    AnswerChart("outcomes", "roles", "side", "win_rate", "low", "high", "share", "players",
                "Games won per side", "side (families in calendar order)", "share of games won (95% CI)",
                rows=_sides_in_order),
    AnswerChart("length", "length", "players", "mean", "low", "high", "points", "none", "Game length",
                "players", "calendar turns per game (mean, 95% CI)", frame=_mean_length),
]

FIGURES = [
    ("outcomes", "Outcomes by player count", fig_outcomes, _take(_state_answer)),
    ("bases", "Base city choice", fig_bases, _take(_bases)),
    ("cards", "Cards and winning (association)", fig_cards, _take(_cards)),
    ("spaces", "Where markers go (counts)", fig_spaces, _take(_spaces)),
    ("length", "Game length", fig_length, _take(_length)),
    flow_figure(*FLOW[:2]),
]
