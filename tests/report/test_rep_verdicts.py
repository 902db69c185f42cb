"""Every verdict says what it means: each defect a designer found reading the reports,
reproduced on hand-made tables, and the one verdict rule at the exact threshold on
every surface (the scorecard, an answer's table, the causal column, the sweep)."""
import dataclasses
import math

import numpy as np
import pandas as pd
import pytest

from analyzer.report import scorecard
from analyzer.report.controlled import Controlled
from analyzer.report.text import Answer, bots_answer, per_bot_table, structural
from analyzer.stats import questions as Q
from analyzer.stats.evidence import DEPENDS, NOT_ENOUGH, RULED_OUT, SHOWN, decide, points, verdict
from analyzer.stats.flags import Flags

MANIFEST = {"game": "lemming-mafia", "unit": "races", "races": 1_000_000, "players": 4, "seed": 1,
            "bots": [{"seat": s + 1, "bot": b} for s, b in enumerate(["favourite", "timer", "contractor", "random"])],
            "data": [{"part": "board", "name": "assumed-default", "assumed": True}]}
BOTS = ("favourite", "timer", "contractor", "random")


def _fixed(q: Q.Question, estimates: dict) -> tuple[Q.Question, Controlled]:
    """``q`` measuring, on each controlled table, the estimate given for its label."""
    tables = {label: {"label": label} for label in estimates}
    fixed = dataclasses.replace(q, tables=(), measure=lambda t, m: estimates[t["label"]])
    return fixed, Controlled(tables, {label: e.n for label, e in estimates.items()})


def _answer(q, estimates, manifest=MANIFEST, controlled_where="in every seat") -> Answer:
    fixed, ctl = _fixed(q, estimates)
    ctl.where = controlled_where
    return structural(fixed, lambda t: "finding.", {"label": "run"}, {**manifest, "bots": [
        {"seat": s + 1, "bot": "favourite"} for s in range(4)]}, ctl)


def _pp(value, low, high, n=1_000_000, item="", unit="races", z=2.498):
    return Q.Estimate(value, low, high, n, unit, level="simultaneous 95% CI", item=item, z=z)


# ---------------------------------------------------------------------- the word hides neither sign nor split


def test_colours_shown_with_one_bot_and_ruled_out_with_the_others_depend_on_the_bots():
    """Grey 4.7 pp short with contractor in every seat, every colour within 1 pp with the
    others: "DEPENDS ON THE BOTS", each table's answer listed; never "SHOWN"."""
    colour = next(q for q in __import__("analyzer.games.lemming_mafia.report", fromlist=["QUESTIONS"]).QUESTIONS
                  if q.key == "colour_balance")
    estimates = {b: Q.family([_pp(0.002, -0.001, 0.005, item="blue"), _pp(-0.002, -0.005, 0.001, item="grey")],
                             "a colour off fair") for b in ("favourite", "timer", "random")}
    estimates["contractor"] = Q.family([_pp(0.01, 0.007, 0.013, item="blue"), _pp(-0.047, -0.049, -0.045, item="grey")],
                                       "a colour off fair")
    a = _answer(colour, estimates)
    assert a.word == DEPENDS and a.answer == "DEPENDS ON THE BOTS"
    it = scorecard.items([a], MANIFEST)[0]
    assert it.word == DEPENDS and it.badge == "depends on the bots"
    assert it.evidence == ("the bots decide it differently (each in every seat): with favourite, timer, random "
                           "BALANCED within ±1.0 pp (ruled out); with contractor UNBALANCED: grey -4.7 pp against a "
                           "fair share (shown)")
    assert "SHOWN" not in scorecard.render_text([it], []).split(" — ")[0]


def test_a_start_that_helps_with_some_bots_and_hurts_with_another_depends_on_the_bots():
    """Sau Mau Mau: starting helps by +1.24 race points with three bots and hurts by -0.57
    with tempo: the same word, opposite signs: "DEPENDS ON THE BOTS", never "SHOWN +1.24"."""
    from analyzer.games.sau_mau_mau.report.text import START_EDGE

    rp = points(" race points")
    est = {b: Q.Estimate(1.24, 1.2, 1.28, 20_000, "games", rp) for b in ("backer", "switcher", "random")}
    est["tempo"] = Q.Estimate(-0.57, -0.61, -0.53, 20_000, "games", rp)
    a = _answer(START_EDGE, est, {**MANIFEST, "game": "sau-mau-mau", "unit": "games"})
    assert a.word == DEPENDS
    assert ("with backer, switcher, random STARTING A RACE HELPS: +1.24 race points against the other seats (shown); "
            "with tempo STARTING A RACE HURTS: -0.57 race points against the other seats (shown)") in a.text


def test_the_state_is_too_strong_or_too_weak_and_strengths_that_disagree_depend_on_the_bots():
    """"SHOWN Is the State strong enough?" stood for +75 pp and for -13.6 pp; the strong
    report said "holds across these bots" over random -10.3 pp and expander +68.9 pp
    while its ladder row said "changes with strength"."""
    from analyzer.games.mafia.report import QUESTIONS
    from analyzer.report import ladder

    state = next(q for q in QUESTIONS if q.key == "state_share")
    strong = _answer(state, {"expander": Q.Estimate(0.75, 0.73, 0.77, 2000, "games")})
    weak = _answer(state, {"expander": Q.Estimate(-0.136, -0.16, -0.11, 2000, "games")})
    assert strong.answer == "STATE TOO STRONG: +75.0 pp against an equal seat"
    assert weak.answer == "STATE TOO WEAK: -13.6 pp against an equal seat"
    both = _answer(state, {"random": Q.Estimate(-0.103, -0.13, -0.08, 2000, "games"),
                           "expander": Q.Estimate(0.689, 0.67, 0.71, 2000, "games")})
    assert both.word == DEPENDS and "holds" not in both.text
    assert ladder.keeps(both).startswith("changes with strength: STATE TOO WEAK: -10.3 pp against an equal seat with "
                                         "random; STATE TOO STRONG: +68.9 pp against an equal seat with expander")


def test_the_words_answer_the_question_as_asked():
    """"RULED OUT Are the colours balanced?" meant balanced; "SHOWN Did new columns gain
    more?" at -2.63 hexes meant they gained less."""
    from analyzer.games.lemminge.report.text import NEW_COLUMN_GAIN
    from analyzer.games.lemming_mafia.report.text import COLOUR

    v = verdict(0.0, -0.004, 0.004, 0.01, 1_000_000)
    assert COLOUR.of(v) == "BALANCED within ±1.0 pp"
    hexes = verdict(-2.63, -2.7, -2.56, 0.5, 4000, scale=points(" hexes"), item="a 1")
    assert NEW_COLUMN_GAIN.direction.of(hexes) == "NEW COLUMNS GAIN LESS: a 1 -2.63 hexes against a card added to a column"


# ---------------------------------------------------------------------- one line per question, its range


def test_the_seat_headline_is_the_range_over_the_tables_not_the_slowest_table():
    """Lemminge at 4,000 games: seat 1 +6.9 to +8.0 pp with three bots, blocker's table open
    at +2.1 pp. One line: the range, "with 3 of 4 bots", blocker named as not settled; not
    "NOT ENOUGH ... +2.1 pp"."""
    est = {"racer": _pp(0.069, 0.051, 0.087, 4000, unit="games"), "convoy": _pp(0.075, 0.057, 0.093, 4000,
                                                                                  unit="games"),
           "random": _pp(0.080, 0.062, 0.098, 4000, unit="games"), "blocker": _pp(0.021, 0.003, 0.039, 4000,
                                                                                 unit="games")}
    a = _answer(Q.first_seat_edge(), est, {**MANIFEST, "game": "lemminge", "unit": "games"})
    assert a.answer == "SEAT 1 FAVOURED: +6.9 to +8.0 pp against the average seat with 3 of 4 bots"
    it = scorecard.items([a], MANIFEST)[0]
    assert it.evidence.startswith("shown with racer, convoy, random in every seat; not settled with blocker (blocker: "
                                  "about ")
    assert "+2.1" not in it.answer and it.badge == "shown, 3 of 4"


def test_a_measure_nobody_judges_gives_its_range_never_the_same_answer():
    """Crown endings of 75.4% to 98.4% over four bots were "the same answer with each bot"."""
    from analyzer.games.sau_mau_mau.report.text import RACE_ENDS
    from analyzer.stats.evidence import PERCENT

    est = {b: Q.Estimate(s, s - 0.01, s + 0.01, 80_000, "races", PERCENT) for b, s in
           (("backer", 0.912), ("tempo", 0.984), ("switcher", 0.93), ("random", 0.754))}
    a = _answer(RACE_ENDS, est, {**MANIFEST, "game": "sau-mau-mau", "unit": "games"})
    assert a.text.startswith("CROWN ENDINGS: 75.4 to 98.4% (random 75.4, tempo 98.4). Measured with each of the 4 "
                             "bots in every seat")
    assert "same answer" not in a.text and a.word is None


# ---------------------------------------------------------------------- sentences agree with their verdicts


def test_the_starting_answer_says_yes_only_when_the_evidence_shows_it():
    """"ruled out ... Yes: the player who starts...": an edge of +0.3 race points inside
    ±0.5 is no practical difference, whatever side of zero its interval lies on."""
    from analyzer.games.sau_mau_mau.report.text import _answer_start

    fp = pd.DataFrame([{"race": "all", "races": 8000, "first_points": 5.3, "others_points": 5.0, "advantage": 0.3,
                        "advantage_low": 0.2, "advantage_high": 0.4, "ended_by_first": 0.3, "ended_by_first_low": 0.29,
                        "ended_by_first_high": 0.31, "confounded": False}])
    res = {"first_player": fp, "first_player_by_seat": pd.DataFrame({"seat": []}),
           "seat_advantage": pd.DataFrame({"seat": [], "races_started": []}),
           "overview": pd.DataFrame({"metric": ["players", "games"], "value": [4, 2000]})}
    text = _answer_start(res)
    assert text.startswith("No practical difference (within ±0.50 race points): the player who starts")
    fp.loc[0, ["advantage", "advantage_low", "advantage_high"]] = [0.6, 0.45, 0.75]
    assert _answer_start(res).startswith("Not settled against the threshold: ")
    fp.loc[0, ["advantage", "advantage_low", "advantage_high"]] = [0.9, 0.8, 1.0]
    assert _answer_start(res).startswith("Yes: ")


# ---------------------------------------------------------------------- baselines and formats


def test_pig_shares_are_judged_against_their_mean_share():
    """Pig shares summing to 103% (shared wins): beige's +0.8 pp against 25% is +0.05 pp
    against the pigs' mean, 25.75%."""
    from analyzer.games.sau_mau_mau.report.text import PIG_BALANCE

    races = 400_000
    pigs = pd.DataFrame({"pig": ["pink", "brown", "black", "beige"],
                         "wins": (np.array([0.262, 0.256, 0.254, 0.258]) * races).round().astype(int)})
    tables = {"pigs": pigs, "overview": pd.DataFrame({"metric": ["races", "games"], "value": [races, races // 4]})}
    e = PIG_BALANCE.estimate(tables, {"unit": "games"})
    beige = next(p for p in e.parts if p.item == "beige")
    assert math.isclose(beige.value, 0.258 - 0.2575, abs_tol=1e-9) and beige.baseline == "a fair share"
    assert PIG_BALANCE.verdict(tables, {"unit": "games"}).word == RULED_OUT
    assert e.n == races // 4 and e.unit == "games"  # measured in the games the run counts


def test_a_sweeps_mean_length_prints_in_its_unit_not_as_a_share():
    """The sweep printed a mean race length of 45.4 turns as "4544.2% (exact)"."""
    from analyzer.report.sweep import metric_text

    df = pd.DataFrame([{"cell": 0, "game": "sau-mau-mau", "turns_mean": 45.442, "bot.random.win_rate": 0.25,
                        "bot.random.win_low": 0.24, "bot.random.win_high": 0.26}])
    row = df.iloc[0]
    assert metric_text(df, "turns_mean", row) == "45.4 turns"
    assert metric_text(df, "bot.random.win_rate", row) == "25.0% (24.0%–26.0%)"


def test_a_side_that_never_wins_is_said_in_words_not_as_an_exact_gap():
    """Lemminge's "skill +33.3 pp (exact)" came from random never winning."""
    ls = pd.DataFrame([{"bot": "all heuristic bots", "bot_win_rate": 1 / 3, "random_win_rate": 0.0,
                        "difference": 1 / 3, "difference_low": 1 / 3, "difference_high": 1 / 3}])
    sa = pd.DataFrame({"games": [600]})
    q = Q.skill_gradient()
    v = q.verdict({"luck_skill": ls, "seat_advantage": sa}, {"unit": "games"})
    assert v.word == SHOWN and "(exact)" not in v.number
    assert v.number == "random never wins in 600 games: the +33.3 pp gap per seat is arithmetic, not a measure of skill"
    assert q.direction.of(v).startswith("SKILL MATTERS: random never wins in 600 games")


# ---------------------------------------------------------------------- an intervention headline answers its question


def test_the_discards_headline_names_the_cards_to_throw_away_not_the_policy_figure():
    """"SHOWN Which contracts should I throw away? +1.47 points" was the timer's whole
    policy against never discarding (the largest |estimate| over the bots); the
    headline now names the cards the per-card intervention shows worth discarding, and
    when, and quotes that card."""
    from analyzer.games.lemming_mafia.report.causal import contract_answer
    from tests.games.lemming_mafia.test_lm_causal_answers import MANIFEST as LM, card_row, policy_row

    policy = pd.DataFrame([policy_row("all", 0.82, 0.80, 0.84, 0.9, 0.05, 0.08, "1,2,3,4"),
                           policy_row("timer", 1.47, 1.44, 1.49, 1.5, 0.0, 0.05, "2"),
                           policy_row("contractor", 0.715, 0.66, 0.77, 0.97, 0.22, 0.29, "3"),
                           policy_row("random", -0.37, -0.41, -0.33, -0.3, 0.05, 0.09, "4")])
    cards = pd.DataFrame([card_row("all", -0.56, -0.6, -0.52, -0.3),
                          card_row("blue or red eliminated", 0.47, 0.33, 0.61, 0.4),
                          card_row("blue or red eliminated", 0.7, 0.4, 1.0, 0.5, stage="first third"),
                          card_row("blue or red eliminated", 0.2, -0.1, 0.5, 0.3, stage="last third"),
                          card_row("blue in the top 3", -1.07, -1.23, -0.91, -1.0),
                          card_row("all", -0.98, -1.04, -0.91, -0.9, stage="last third")])
    a = contract_answer({"intervention_discard_policy": policy, "intervention_contracts": cards}, LM, "H.", "HOLD")
    it = scorecard.items([a], LM)[0]
    assert it.answer == ("THROW AWAY blue or red eliminated (in the first third): +0.47 points a card; keep 1 of the "
                         "other 1 cards (discarding loses more than 0.25)")
    assert it.number.startswith("discarding blue or red eliminated +0.47 points (95% CI +0.33 to +0.61)")
    assert "1.47" not in it.answer + it.number


# ---------------------------------------------------------------------- races needed only when the gap is clear


def test_an_effect_on_the_threshold_promises_no_number_of_races():
    """Seat 1 at +1.037 against a 1.0 pp threshold: the README promised about 9,000,000
    races, and 9 million did not settle it; the line now says it may sit on the threshold."""
    a = _answer(Q.first_seat_edge(), {"contractor": _pp(0.01037, 0.0078, 0.0128)})
    it = scorecard.items([a], MANIFEST)[0]
    assert it.evidence == ("not enough races; the effect may sit on the threshold (the estimate is within one standard "
                           "error of it): more races may not settle it soon")
    assert "9,000,000" not in it.evidence and "about" not in it.evidence


def test_the_starter_edge_of_a_game_of_races_is_measured_in_games():
    """The "tables too small" warning labelled Sau Mau Mau's races as games (4 times too
    many): the starter's edge (paired by race) counts the run's games."""
    from analyzer.games.sau_mau_mau.report.text import START_EDGE

    fp = pd.DataFrame([{"race": "all", "advantage": 0.7, "advantage_low": 0.45, "advantage_high": 0.95,
                        "confounded": False, "races": 80_000}])
    tables = {"first_player": fp, "first_player_by_seat": pd.DataFrame({"seat": []}),
              "overview": pd.DataFrame({"metric": ["games", "races"], "value": [20_000, 80_000]})}
    v = START_EDGE.verdict(tables, {"unit": "games"})
    assert v.n == 20_000 and v.unit == "games" and v.needed_cell.endswith(" games")


def test_mafias_first_mover_is_judged_on_the_flags_interval_and_gates():
    """Mafia's first-mover line judged a Bonferroni interval labelled "95% CI" and skipped
    the joint-test gate: it now carries the flags' simultaneous interval under its name,
    and a gap the flags do not back is never shown."""
    from analyzer.games.mafia.report import _family_flags, _first_family
    from analyzer.stats.flags import simultaneous_z

    games = 60_000
    wins = (np.array([0.23, 0.2, 0.2, 0.2]) * games).round().astype(int)
    outcomes = pd.DataFrame({"players": [5] * 5, "outcome": ["red", "black", "orange", "green", "state"],
                             "games": list(wins) + [games - wins.sum()]})
    roles = pd.DataFrame({"players": [5] * 5, "side": ["red", "black", "state", "orange", "green"],
                          "role": ["family", "family", "state", "family", "family"], "bot": ["expander"] * 5})
    res = {"outcomes": outcomes, "roles": roles}
    e = _first_family(res, {})
    assert e.level == "simultaneous 95% CI" and e.z == pytest.approx(simultaneous_z(4))
    v = e.judge(0.01)
    assert v.word == SHOWN and v.level == "simultaneous 95% CI" and bool(_family_flags(res, 5, {}).flagged[0])
    assert dataclasses.replace(e, backed=False).judge(0.01).word == NOT_ENOUGH  # the gate


# ---------------------------------------------------------------------- warnings a designer must see


def test_a_side_at_85_percent_is_a_warning():
    """The State winning 89% of the default Mafia table's games went unwarned (the
    warning fired at 90%)."""
    from analyzer.games.mafia.report import warnings as mafia_warnings

    o = pd.DataFrame({"players": [5, 5], "outcome": ["state", "red"], "games": [890, 110], "share": [0.89, 0.11]})
    warns = mafia_warnings({"outcomes": o}, {"game": "mafia", "unit": "games", "players": 5, "seed": 1,
                                            "bots": [{"seat": s + 1, "bot": "random"} for s in range(5)]})
    assert [w.seen for w in warns] == ["At 5 players state wins in 89.0% of 1,000 games."]


def test_a_seat_that_never_starts_a_race_is_a_warning():
    """Sau Mau Mau at 5 players: seat 5 never starts one of the four races."""
    from analyzer.games.sau_mau_mau.report.text import never_starts

    sa = pd.DataFrame({"seat": [1, 2, 3, 4, 5], "games": [2000] * 5, "races_started": [1, 1, 1, 1, 0.0],
                       "advantage": [0.01, 0.01, 0.02, 0.017, -0.051], "advantage_low": [0, 0, 0.01, 0.007, -0.06],
                       "advantage_high": [0.02, 0.02, 0.03, 0.027, -0.042]})
    warns = never_starts({"seat_advantage": sa}, {"game": "sau-mau-mau", "unit": "games", "players": 5, "seed": 1,
                                                  "bots": [{"seat": s + 1, "bot": "backer"} for s in range(5)]})
    assert len(warns) == 1
    assert warns[0].seen == ("Seat 5 never starts a race at 5 players (0 of the 4 races of each of 2,000 games); its "
                             "game win rate is -5.1 pp (95% CI -6.0 to -4.2) against the average seat.")


def test_a_monotone_seat_gradient_is_named():
    """30.0, 29.2, 28.3, 28.3% with contractor in every seat: every seat tested, the
    gradient named, not seat 1 alone."""
    rates = np.array([0.300, 0.292, 0.283, 0.283])
    sa = pd.DataFrame({"seat": [1, 2, 3, 4], "win_rate": rates, "advantage": rates - rates.mean(),
                       "advantage_low": rates - rates.mean() - 0.002, "advantage_high": rates - rates.mean() + 0.002})
    res = {"seat_advantage": sa, "seats": pd.DataFrame({"confounded": [False] * 4})}
    assert Q.seat_gradient(res) == "falling"
    warns = scorecard.gradient(res, MANIFEST)
    assert warns[0].seen.startswith("The seats' win rates are falling in seat order: 30.0%, 29.2%, 28.3%, 28.3% "
                                    "(seats 1 to 4")
    # a last step back up within the noise (28.3, then 28.4%, as with contractor at 200,000 races) keeps it
    noisy = sa.assign(win_rate=[0.300, 0.290, 0.283, 0.284])
    noisy = noisy.assign(advantage=noisy["win_rate"] - noisy["win_rate"].mean())
    noisy = noisy.assign(advantage_low=noisy["advantage"] - 0.002, advantage_high=noisy["advantage"] + 0.002)
    assert Q.seat_gradient({**res, "seat_advantage": noisy}) == "falling"
    # a step back beyond the noise, or seat 1 alone ahead, is no gradient
    back = noisy.assign(win_rate=[0.300, 0.280, 0.290, 0.283])
    back = back.assign(advantage=back["win_rate"] - back["win_rate"].mean())
    back = back.assign(advantage_low=back["advantage"] - 0.002, advantage_high=back["advantage"] + 0.002)
    assert Q.seat_gradient({**res, "seat_advantage": back}) == ""
    alone = back.assign(win_rate=[0.31, 0.28, 0.28, 0.28])
    alone = alone.assign(advantage=alone["win_rate"] - alone["win_rate"].mean())
    alone = alone.assign(advantage_low=alone["advantage"] - 0.002, advantage_high=alone["advantage"] + 0.002)
    assert Q.seat_gradient({**res, "seat_advantage": alone}) == ""


# ---------------------------------------------------------------------- the rule at the exact threshold


SHARED = [Q.first_seat_edge(), Q.seat_spread(), Q.skill_gradient(),
          Q.leader_at_half("race", 4, "How does the game flow?"),
          Q.nobody_wins(lambda t: [], "How often does nobody win?")]


@pytest.mark.parametrize("q", SHARED, ids=[q.key for q in SHARED])
def test_a_bound_on_the_threshold_is_the_same_word_everywhere(q, monkeypatch):
    """A lower bound exactly on the threshold decides nothing: the scorecard, the answer's
    table, the causal column (Lemming Mafia's interventions) and the sweep (seat 1 in a
    cell) all say "not enough", by the one rule; a bound a hair beyond it is shown on
    every surface alike."""
    from analyzer.games.lemming_mafia.report import causal
    from analyzer.report import sweep

    t = q.threshold(MANIFEST)
    for low, word in ((t, NOT_ENOUGH), (t + 1e-9, SHOWN)):
        e = Q.Estimate(t + 0.02, low, t + 0.04, 1_000_000, "races", q.scale if q.key == "nobody_wins" else Q.PP)
        a = _answer(q, {"favourite": e, "timer": e})
        it = scorecard.items([a], MANIFEST)[0]
        assert it.word == word, (q.key, low)
        headers, rows = a.table
        assert rows[0][headers.index("evidence")] == ("not enough races" if word == NOT_ENOUGH else word)
        causal_word = causal.verdict(low, t + 0.04, t)
        assert causal_word == (causal.NOT_ENOUGH if word == NOT_ENOUGH else causal.SHOWN_GAIN)
        if q.key == "first_seat_edge":  # the sweep's seat 1 in a cell, through the same rule
            # (a threshold of 0.25 against a fair 0.25, so that the bound minus fair is the threshold exactly)
            bound = 0.5 if word == NOT_ENOUGH else 0.5 + 1e-9
            monkeypatch.setattr("analyzer.stats.intervals.wilson", lambda k, n, z=1.96: (bound, 0.6))
            df = pd.DataFrame([{"cell": 0, "game": "sau-mau-mau", "unit": "games", "count": 1000, "players": 4,
                                "board": None, "bots": "random", "seed": 1, "bot.random.win_rate": 0.25,
                                **{f"seat{s}.bot": "random" for s in range(1, 5)},
                                "seat1.win_rate": 0.55, **{f"seat{s}.win_rate": 0.15 for s in range(2, 5)}}])
            card, _ = sweep.scorecard_of(df, min_effect=0.25)
            seat = next(x for x in card if x.question == "Is seat 1 favoured in any cell?")
            assert seat.word == word, (low, seat)
    # and the flags' gate agrees: a gap whose interval starts on the threshold is not flagged
    flags = Flags("m", ["a", "b"], np.array([0.3, 0.2]), 0.25, 9.0, 1, 0.001, np.array([1e-6, 1e-6]),
                  np.array([1e-6, 1e-6]), gap_low=np.array([0.01, -0.07]), gap_high=np.array([0.09, -0.03]))
    assert flags.flagged.tolist() == [False, True]
