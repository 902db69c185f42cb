"""Lemming Mafia's contract and bet answers lead with the intervention and
carry hindsight beside it, labelled, with its bias (``report/causal.py``): on
hand-made intervention tables (no races played). A gain counts only beyond the
practical threshold, an interval inside it rules the gain out, and cards whose
gaps are noise are not put in an order; one answer per question."""
import pandas as pd
import pytest

from analyzer.games.lemming_mafia.report import answers
from analyzer.games.lemming_mafia.report.causal import (
    NOT_ENOUGH, PRACTICAL_POINTS, RULED_OUT, SHOWN_GAIN, SHOWN_LOSS, bet_answer, contract_answer, verdict,
)
from analyzer.games.lemming_mafia.stats import LemmingMafiaStats
from tests.games.lemming_mafia.test_lm_stats import hand_tables

MANIFEST = {"players": 4, "bots": [{"seat": i + 1, "bot": b} for i, b in
                                   enumerate(["favourite", "timer", "contractor", "random"])],
            "data": [{"part": "board", "name": "assumed-default", "assumed": True}],
            "interventions": {"races": 10_000, "policy_races": 40_000, "note": ""}}


def policy_row(bot, gain, low, high, hindsight, bias_low, bias_high, seats="3"):
    return {"bot": bot, "seats": seats, "n": 40_000, "gain": gain, "low": low, "high": high, "unpaired_low": low - 0.1,
            "unpaired_high": high + 0.1, "win_gain": 0.01, "win_low": 0.0, "win_high": 0.02, "discards": 1.5,
            "races_with_discard": 0.9, "hindsight_gain": hindsight, "hindsight_low": hindsight - 0.03,
            "hindsight_high": hindsight + 0.03, "bias": hindsight - gain, "bias_low": bias_low,
            "bias_high": bias_high}


def card_row(contract, gain, low, high, hindsight, stage="all"):
    return {"bot": "all", "contract": contract, "stage": stage, "stage_from": 0.0, "stage_to": 1.0, "n": 2_000,
            "gain": gain, "low": low, "high": high, "unpaired_low": low - 0.2, "unpaired_high": high + 0.2,
            "hindsight_gain": hindsight, "hindsight_low": hindsight - 0.1, "hindsight_high": hindsight + 0.1}


@pytest.fixture
def res():
    policy = pd.DataFrame([policy_row("all", 0.8, 0.78, 0.82, 0.87, 0.05, 0.08),
                           policy_row("contractor", 0.72, 0.68, 0.76, 0.97, 0.22, 0.29),
                           policy_row("favourite", 1.46, 1.43, 1.49, 1.46, -0.01, 0.01)])
    cards = pd.DataFrame([card_row("all", -0.4, -0.45, -0.35, -0.3),
                          card_row("green before red", 0.6, 0.45, 0.75, 0.7),
                          card_row("red in the top 3", -0.9, -1.05, -0.75, -1.0),
                          card_row("blue in the top 3", -0.91, -1.06, -0.76, -1.0),
                          card_row("green in the top 3", -0.01, -0.1, 0.08, 0.5),  # hindsight: throw it
                          card_row("pink in the top 3", 0.02, -0.3, 0.34, 0.0),
                          card_row("all", -0.25, -0.34, -0.17, -0.2, stage="first third")])
    return {"intervention_discard_policy": policy, "intervention_contracts": cards}


def test_verdicts_need_the_interval_beyond_the_threshold():
    t = PRACTICAL_POINTS
    assert verdict(t + 0.01, 1.0) == SHOWN_GAIN and verdict(-1.0, -t - 0.01) == SHOWN_LOSS
    assert verdict(-t + 0.01, t - 0.01) == RULED_OUT
    assert verdict(0.01, 0.6) == NOT_ENOUGH  # beyond 0, not beyond the threshold
    assert verdict(float("nan"), float("nan")) == NOT_ENOUGH


def test_contract_answer_leads_with_the_cards_to_throw_away_and_sizes_the_hindsight_bias(res):
    """The headline answers "which contracts should I throw away?" from the per-card
    intervention (the card shown to gain when discarded, and the others kept); the bots'
    whole discard policy against never discarding is in the body only."""
    answer = contract_answer(res, MANIFEST, "H.", "HOLD")
    text = answer.text
    assert answer.headline == ("THROW AWAY green before red: +0.60 points a card; keep 2 of the other 4 cards "
                               "(discarding loses more than 0.25)")
    assert answer.key == "discards" and answer.quoted.item == "green before red"
    assert text.startswith(f"{answer.headline}. Shown: discarding green before red +0.60 points (95% CI +0.45 to "
                           "+0.75)")
    # the bots by verdict in words, each bot's figures in the table of bots, not in the prose
    assert "gained: for contractor, favourite, they pay (each bot's gain a race" in text
    assert "+0.72" not in text[:text.index("Hindsight (")]
    cards, stages, bots = answer.tables
    assert bots[0][:3] == ["bot (seats)", "gain a race by its own discards (points, paired 95% CI)", "verdict"]
    assert bots[1][0] == ["contractor (seat 3)", "+0.72 (+0.68 to +0.76)", SHOWN_GAIN,
                          "+1.0 pp (95% CI +0.0 to +2.0)", "1.5"]
    # the cards by verdict in words, their values in the table under the answer, not in the prose
    assert ("throw away green before red (discarding gains more than 0.25 a card); keep red in the top 3, blue in "
            "the top 3 (discarding loses more than 0.25 a card); 1 card makes no practical difference (within "
            "±0.25); 1 card needs more races to tell.") in text
    headers, rows = cards
    assert headers[0] == "contract" and [r[0] for r in rows] == [
        "green before red", "pink in the top 3", "green in the top 3", "red in the top 3", "blue in the top 3"]
    assert rows[0][1:] == ["+0.60 (+0.45 to +0.75)", SHOWN_GAIN] and rows[-1][2] == SHOWN_LOSS
    assert "by stage of the track: not shown beyond ±0.25 in the first third (the table of stages below)" in text
    assert stages[1] == [["first third", "-0.25 (-0.34 to -0.17)", NOT_ENOUGH]]
    hindsight = text[text.index("Hindsight ("):]
    assert "for contractor it says +0.97 a race, overstating the intervention by +0.25 (+0.22 to +0.29)" in hindsight
    assert "for favourite it agrees with the intervention within ±0.25" in hindsight
    # the card hindsight would throw away and the intervention calls a wash, named, and which to trust
    assert "hindsight would sort 1 of 5 cards otherwise (green in the top 3: hindsight +0.50, intervention -0.01)" \
        in hindsight
    assert "Trust the intervention" in hindsight


def test_noise_level_gaps_are_not_an_order(res):
    """Two keep cards 0.01 apart are in one group: no "before", no ranking words."""
    text = contract_answer(res, MANIFEST, "H.", "HOLD").text
    assert "keep red in the top 3, blue in the top 3 (" in text
    assert " before blue" not in text and "worse than" not in text and "rather than red" not in text


def test_bet_answer_gives_one_advice_and_says_which_to_trust():
    rows = [("all", 0.69, 0.63, 0.76), ("first third", 0.15, 0.04, 0.26), ("middle third", 0.61, 0.50, 0.73),
            ("last third", 1.69, 1.58, 1.80)]
    bt = pd.DataFrame([{"bot": "all", "stage": s, "stage_from": 0.0, "stage_to": 1.0, "n": 7_000, "gain": g,
                        "low": lo, "high": hi, "unpaired_low": lo - 0.1, "unpaired_high": hi + 0.1,
                        "win_gain": 0.04, "win_low": 0.03, "win_high": 0.05, "bot_bet_leader": 0.2}
                       for s, g, lo, hi in rows])
    answer = bet_answer({"intervention_bets": bt}, MANIFEST, "HINDSIGHT SHARE.", "HEAT")
    text = answer.text
    assert answer.headline == ("BET ON THE LEADER NOW from the middle third on: +0.61 to +1.69 points a decision; not "
                               "shown beyond ±0.25 in the first third")
    assert text.startswith(f"{answer.headline}. Shown: betting the leader now rather than holding it +0.69 points")
    assert "betting now gains +0.69 (+0.63 to +0.76) points over all stages" in text
    assert "+1.69" not in text[len(answer.headline):]  # past the headline the stages' figures are in the table
    headers, rows = answer.table
    assert headers[2] == "gain of betting now (points, paired 95% CI)"
    assert [r[0] for r in rows] == ["all stages", "first third", "middle third", "last third"]
    assert rows[3][2:] == ["+1.69 (+1.58 to +1.80)", SHOWN_GAIN, "+4.0 pp (95% CI +3.0 to +5.0)"]
    assert "Bet on the leader as soon as you can from the middle third of the track on; in the first third the " \
           "gain is not shown beyond ±0.25." in text
    assert text.index("Bet on the leader") < text.index("HINDSIGHT SHARE.") < text.index("trust the intervention")
    assert "hold the cards meant for the leader" not in text


def test_one_answer_per_question_and_hindsight_labelled_without_interventions():
    s = LemmingMafiaStats()
    s.add(hand_tables())
    got = answers(s.result(), {**MANIFEST, "interventions": {"races": 0, "note": "the run is empty"}})
    questions = [a.question for a in got]
    assert len(questions) == len(set(questions))
    assert not any("(intervention)" in q for q in questions)
    by_q = {a.question: a for a in got}
    for q in ("When should I bet on the leader?", "Which contracts should I throw away?"):
        assert by_q[q].text.startswith("Not measured by intervention here (the run is empty). Hindsight only")
        assert by_q[q].method.startswith("hindsight only: ")
    assert "hold the cards meant for the leader" not in by_q["When should I bet on the leader?"].text


def test_one_bot_in_every_seat_is_named_by_its_seats(res):
    one = {**res, "intervention_discard_policy": res["intervention_discard_policy"].head(1).assign(seats="1,2,3,4")}
    text = contract_answer(one, MANIFEST, "H.", "HOLD").text
    assert "gained: the bot (seats 1,2,3,4) +0.80 (+0.78 to +0.82) points a race (they pay)" in text
    assert "for the bot it agrees with the intervention within ±0.25" in text  # bias +0.05 to +0.08
