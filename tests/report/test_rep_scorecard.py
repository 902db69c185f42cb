"""The scorecard (``report/scorecard.py``) and the evidence of the seat answer on
hand-made tables: 3,000 races leave the seat question open with the races that
would settle it, a million races decide it (issue 34's done-when, at the level of
the answer function); degenerate results raise warnings with a replay command."""
import numpy as np
import pandas as pd
import pytest

from analyzer.games.lemming_mafia.report import answers as lm_answers
from analyzer.games.lemming_mafia.stats import LemmingMafiaStats
from analyzer.games.mafia.report import warnings as mafia_warnings
from analyzer.games.sau_mau_mau.report import warnings as smm_warnings
from analyzer.report import scorecard
from analyzer.report.controlled import Controlled
from tests.games.lemming_mafia.test_lm_stats import hand_tables

SEAT = "Is the first seat favoured?"
MANIFEST = {"game": "lemming-mafia", "unit": "races", "races": 3000, "players": 4, "seed": 7,
            "bots": [{"seat": s + 1, "bot": b} for s, b in enumerate(["favourite", "timer", "contractor", "random"])],
            "data": [{"part": "board", "name": "assumed-default", "assumed": True}]}


@pytest.fixture(scope="module")
def base():
    s = LemmingMafiaStats()
    s.add(hand_tables())
    return s.result()


def _one_bot_table(base, bot, races, seat1, half):
    """A copy of ``base`` as ``bot`` in all 4 seats over ``races`` races, seat 1 at
    ``seat1`` (a share) against the average seat (its seat table with a 95% interval ±``half``;
    the win patterns, one winner a race, give the seat flags and the verdict)."""
    out = dict(base)
    adv = np.array([seat1, -seat1 / 3, -seat1 / 3, -seat1 / 3])
    out["seat_advantage"] = pd.DataFrame({
        "seat": [1, 2, 3, 4], "bot": [bot] * 4, "races": [races] * 4, "win_rate": 0.25 + adv,
        "win_low": 0.25 + adv - half, "win_high": 0.25 + adv + half, "advantage": adv,
        "advantage_low": adv - half, "advantage_high": adv + half, "confounded": [False] * 4})
    win = (np.array([0.25 + seat1] + [0.25 - seat1 / 3] * 3) * races).round().astype(int)
    out["win_patterns"] = pd.DataFrame({"mask": [1, 2, 4, 8], "units": win})
    out["seats"] = out["seat_advantage"].assign(confounded=False)
    ov = base["overview"].copy()
    ov.loc[ov["metric"] == "players", "value"] = 4
    ov.loc[ov["metric"] == "races", "value"] = races
    out["overview"] = ov
    return out


def _seat_answer(base, races, seat1, half):
    bots = ("favourite", "timer", "contractor", "random")
    ctl = Controlled({b: _one_bot_table(base, b, races, seat1, half) for b in bots}, {b: races for b in bots})
    answers = lm_answers(base, {**MANIFEST, "races": races}, ctl)
    return answers, next(a for a in answers if a.question == SEAT)


def test_the_seat_question_at_3000_and_a_million_races(base):
    # 3,000 races, one winner a race, seat 1 winning 25.3%: seat 1 - the mean seat is +0.3 pp with
    # se sqrt(0.253 × 0.747 / 3,000) = 0.794 pp; the simultaneous interval of 4 seats (z = 2.498)
    # is ± 1.98 pp; its upper side must shrink to 0.7 pp: 3,000 × (1.98 / 0.7)² = 24,050 -> 25,000
    _, a = _seat_answer(base, 3000, 0.003, 0.016)
    assert a.word == "not enough races"
    assert a.text.startswith("Not enough races — not settled at 3,000 races a table: favourite, timer, "
                             "contractor, random do not decide it; about 25,000 races per table would settle it")
    # a million races: ± 2.498 × sqrt(0.253 × 0.747 / 1,000,000) = ± 0.109 pp
    half = 0.016 * (3000 / 1e6) ** 0.5
    _, a = _seat_answer(base, 1_000_000, 0.003, half)
    assert a.word == "ruled out"
    assert a.text.startswith("Ruled out with each of the 4 bots in every seat (it holds across these bots")
    _, a = _seat_answer(base, 1_000_000, 0.013, half)
    assert a.word == "shown" and a.text.startswith("Shown with each of the 4 bots in every seat")


def test_scorecard_items_link_and_name_the_bots(base):
    answers, a = _seat_answer(base, 3000, 0.003, 0.016)
    card = scorecard.items(answers, MANIFEST)
    seat = next(it for it in card if it.question == SEAT)
    assert seat.word == "not enough races"
    assert seat.anchor == f"answer-{answers.index(a) + 1}"
    assert seat.number == ("seat 1 against the average seat +0.3 pp (simultaneous 95% CI -1.7 to +2.3), "
                           "threshold ±1.0 pp")
    assert seat.holds_for == "each of favourite, timer, contractor, random in every seat; 4 players"
    assert seat.note == "favourite's table: about 25,000 races would settle it if the spread stays as observed"
    assert 1 <= len(card) <= scorecard.MAX_ITEMS
    page = scorecard.render_html(card, [])
    assert page.startswith('<section id="scorecard">')
    assert f'<span class="ev ev-not-enough-races">not enough races</span><a href="#{seat.anchor}">' in page
    text = scorecard.render_text(card, [])
    assert f"NOT ENOUGH RACES  {SEAT} seat 1 against the average seat +0.3 pp (simultaneous" in text


def test_a_bot_that_never_wins_is_a_warning(base):
    res = dict(base)
    bots = base["bots"].copy()
    bots.loc[bots.index[-1], ["wins", "player_races"]] = [0, 3000]
    res["bots"] = bots
    warns = scorecard.warnings(res, MANIFEST, [], None, None)
    assert len(warns) == 1
    w = warns[0]
    assert w.seen == f"{bots.iloc[-1]['bot']} never wins (0 of 3,000 seat-races)."
    assert "a bot too weak to matter" in w.meaning
    assert w.check == ("analyzer replay lemming-mafia --players 4 --bots favourite,timer,contractor,random "
                       "--seed 7 --race 0 (then --race 1, 2, ...)")
    assert "never wins" in scorecard.render_html([], warns) and "WARNING" in scorecard.render_text([], warns)
    # below 100 units nothing is said
    bots.loc[bots.index[-1], "player_races"] = 99
    assert scorecard.warnings({**res, "bots": bots}, MANIFEST, [], None, None) == []


def test_small_controlled_tables_are_a_warning(base):
    answers, _ = _seat_answer(base, 3000, 0.003, 0.016)
    ctl = Controlled({"favourite": base}, {"favourite": 3000})
    warns = scorecard.too_small(answers, MANIFEST, ctl)
    assert len(warns) == 1 and warns[0].seen.startswith("The controlled tables (3,000 races each) are too small")
    assert "Is the first seat favoured?" in warns[0].seen and "about 25,000 races" in warns[0].meaning


def test_game_warnings_for_degenerate_outcomes():
    mafia = {"outcomes": pd.DataFrame({"players": [4, 4, 5, 5], "outcome": ["all_lose", "red", "state", "red"],
                                       "games": [985, 15, 600, 400], "share": [0.985, 0.015, 0.6, 0.4]})}
    manifest = {"game": "mafia", "unit": "games", "players": 4, "seed": 1,
                "bots": [{"seat": s + 1, "bot": "random"} for s in range(4)]}
    warns = mafia_warnings(mafia, manifest)
    assert [w.seen for w in warns] == ["At 4 players everyone loses in 98.5% of 1,000 games."]
    assert "--game 0" in warns[0].check
    # a side that never wins (from the roles table: who played at that count)
    mafia["roles"] = pd.DataFrame({"players": [4, 4, 5, 5, 5], "side": ["red", "black", "red", "state", "black"]})
    warns = mafia_warnings(mafia, manifest)
    assert [w.seen for w in warns][1:] == ["At 4 players black never wins (0 of 1,000 games).",
                                           "At 5 players black never wins (0 of 1,000 games)."]
    # a choice the bots never vary: red's bot always takes one base, black's plays two
    mafia["bases"] = pd.DataFrame({"players": [5, 5, 5, 5], "side": ["red", "red", "black", "black"],
                                   "base": ["Palermo", "Catania", "Palermo", "Catania"],
                                   "share": [1.0, 0.0, 0.4, 0.6], "win_rate": [0.3, 0.0, 0.2, 0.25]})
    warns = mafia_warnings(mafia, manifest)
    assert warns[-1].seen == "The bots never vary their base city (red always took Palermo at 5 players)."
    assert "random bot" in warns[-1].check
    qp = pd.DataFrame({"bot": ["all", "all", "x"], "queue_position": [1, 2, 1], "bets": [600, 400, 5],
                       "won_bets": [598, 399, 0]})
    smm = {"queue_position": qp}
    warns = smm_warnings(smm, {**manifest, "game": "sau-mau-mau"})
    assert len(warns) == 1 and warns[0].seen == "Queued bets are on a winning pig in 99.7% of 1,000 queued bets."
    assert "only the place in the queue matters" in warns[0].meaning
    assert smm_warnings({"queue_position": qp.assign(won_bets=[500, 300, 0])}, manifest) == []


def test_a_split_verdict_names_how_each_bot_decides(base):
    """One table open and one decided: the scorecard says "not enough races", quotes the
    open table's races needed and names the other's word."""
    ctl = Controlled({"favourite": _one_bot_table(base, "favourite", 3000, 0.003, 0.016),
                      "timer": _one_bot_table(base, "timer", 3000, 0.05, 0.016)},
                     {"favourite": 3000, "timer": 3000})
    answers = lm_answers(base, MANIFEST, ctl)
    seat = next(it for it in scorecard.items(answers, MANIFEST) if it.question == SEAT)
    assert seat.word == "not enough races"
    assert seat.holds_for == "each of favourite, timer in every seat; 4 players"
    assert seat.note == ("favourite's table: about 25,000 races would settle it if the spread stays as observed; "
                         "shown with timer")


def test_every_judged_answer_leads_with_its_word_once(base):
    answers, _ = _seat_answer(base, 3000, 0.003, 0.016)
    judged = [a for a in answers if a.evidence]
    assert {a.question for a in judged} >= {SEAT, "How much does skill matter against luck?",
                                            "Are the lemming colours balanced?"}
    for a in judged:
        head = a.text.split(" — ", 1)[0] if " — " in a.text[:30] else a.text.split(" with each", 1)[0]
        assert head.lower() == a.word, (a.question, a.text[:80])
        assert not a.text.lower().startswith(f"{a.word} — {a.word}"), a.text[:80]


def test_tournament_gaps_are_judged_as_chances_to_outscore():
    """A log-strength gap of 0.2 (se 0.05) is a chance to outscore of 54.98%: +4.98 pp, its
    interval the gap's ±1.96 se transformed (+2.55 to +7.40 pp): shown beyond 1 pp; a gap
    with no measured spread (bots that never met) has no interval and no verdict."""
    from analyzer.report.tournament import _outscore_verdict

    v = _outscore_verdict(0.2, 0.05, 0.01, 1000, "a's chance to outscore b, above 50%:", "races")
    assert v.word == "shown"
    assert (round(100 * v.estimate, 2), round(100 * v.low, 2), round(100 * v.high, 2)) == (4.98, 2.55, 7.4)
    v = _outscore_verdict(0.0, 0.0, 0.01, 1000, "x", "races")
    assert v.word == "not enough races" and v.needed is None and "no interval" in v.needed_text
