"""Every designer answer names its scope (bots, board, player count) and its
method; structural answers on controlled tables say whether they hold across
the bots or depend on them; without controlled tables they say they are about
the bots present. On hand-made tables (no races played)."""
import numpy as np
import pytest

from analyzer.games.lemming_mafia.report import answers as lm_answers
from analyzer.games.lemming_mafia.stats import LemmingMafiaStats
from analyzer.games.sau_mau_mau.report import answers as smm_answers
from analyzer.games.sau_mau_mau.stats import SauMauMauStats
from analyzer.report.controlled import Controlled
from analyzer.report.text import Answer
from tests.games.lemming_mafia.test_lm_stats import hand_tables
from tests.games.sau_mau_mau.test_smm_stats import manifest_of, random_tables

LM_MANIFEST = {"game": "lemming-mafia", "unit": "races", "races": 3, "players": 3, "seed": 1,
               "bots": [{"seat": 1, "bot": "favourite"}, {"seat": 2, "bot": "random"}, {"seat": 3, "bot": "random"}],
               "data": [{"part": "board", "name": "hand-board", "assumed": True},
                        {"part": "deck", "name": "hand-deck", "assumed": False}]}

# question -> a word its method must name
LM_METHODS = {
    "When should I bet on the leader?": "hindsight only",  # no intervention on hand-made tables
    "Which contracts should I throw away?": "hindsight only: value of holding each card to the end",
    "Is the first seat favoured?": "Cochran's Q",
    "Do all the seats win alike?": "Cochran's Q",
    "How much does skill matter against luck?": "paired by unit",
    "Are the lemming colours balanced?": "chi-square",
    "How long is a race?": "t interval",
    "How often do contracts break a tie?": "Wilson",
    "How does the game flow: lead changes, decisiveness, comebacks?": "Wilson",
}
SMM_METHODS = {
    "Which queue position earned most? (hindsight: bets the bots laid)": "queue",
    "Which bets earned most: early or late, first or changed? (hindsight: bets the bots laid)": "hindsight",
    "How do races end?": "Wilson",
    "Does starting a race help?": "paired by race",
    "Is the first seat favoured over the whole game?": "Cochran's Q",
    "Do all the seats win alike over the whole game?": "Cochran's Q",
    "How much does skill matter against luck?": "paired by unit",
    "Are the pigs balanced?": "chi-square",
    "How does the game flow: lead changes, decisiveness, comebacks?": "Wilson",
}


@pytest.fixture(scope="module")
def lm_res():
    s = LemmingMafiaStats()
    s.add(hand_tables())
    return s.result()


@pytest.fixture(scope="module")
def smm():
    t = random_tables(200, 4, 5)
    s = SauMauMauStats()
    s.add(t)
    return s.result(), manifest_of(t)


def _unbalanced_colours(res, races=60_000):
    """A copy whose colours differ by 3 pp over ``races`` races."""
    out = dict(res)
    lm = res["lemmings"].copy()
    lm["wins"] = (np.array([0.2, 0.2, 0.2, 0.14, 0.13, 0.13]) * races).round().astype(int)
    out["lemmings"] = lm
    ov = res["overview"].copy()
    ov.loc[ov["metric"] == "races", "value"] = races
    out["overview"] = ov
    return out


def _balanced_colours(res, races=60_000):
    out = _unbalanced_colours(res, races)
    out["lemmings"] = out["lemmings"].assign(wins=races // 6)
    return out


def table_rows(answer) -> dict[str, dict[str, str]]:
    """A structural answer's table as {bot label: {column: cell}}: one row per
    controlled table (the run's own mixed table last, when shown)."""
    headers, rows = answer.table
    return {str(r[0]): dict(zip(headers[1:], map(str, r[1:]))) for r in rows}


def _check_scope_and_method(answers, methods, scope_words):
    assert [a.question for a in answers] == list(methods)
    for a in answers:
        assert isinstance(a, Answer) and a.text
        assert methods[a.question] in a.method, (a.question, a.method)
        for word in scope_words:
            assert word in a.scope, (a.question, a.scope)


def test_lm_answers_without_controlled_tables_say_they_are_about_the_bots(lm_res):
    answers = lm_answers(lm_res, LM_MANIFEST, Controlled({}, {}, "none played"))
    _check_scope_and_method(answers, LM_METHODS, ["favourite (seat 1)", "random (seat 2)", "board hand-board "
                                                  "(assumed reconstruction)", "deck hand-deck", "3 players"])
    structural = [a for a in answers if a.question in ("Is the first seat favoured?", "Are the lemming colours "
                                                       "balanced?", "How long is a race?")]
    assert all("About the bots at this table, not the game alone (none played)" in a.text for a in structural)
    # an answer that judges an effect leads with its answer in the question's words, then its evidence
    # (3 races: not enough); the seats run different bots here, so the seat answer judges nothing
    a = next(a for a in structural if a.question == "Are the lemming colours balanced?")
    assert a.text.startswith(f"{a.answer}. Not enough races: "), a.text  # 2 of 3 races: no joint test
    assert a.answer.startswith("COLOUR BALANCE NOT SETTLED: ") and a.key == "colour_balance"
    assert a.word == "not enough"
    assert next(a for a in structural if a.question == "Is the first seat favoured?").evidence is None
    bots = [a for a in answers if a.question in ("How much does skill matter against luck?",
                                                 "When should I bet on the leader?")]
    assert all("This describes the choices of the bots present" in a.text for a in bots)


def test_lm_answers_on_controlled_tables_hold_or_depend(lm_res):
    same = Controlled({"favourite": _balanced_colours(lm_res), "random": _balanced_colours(lm_res)},
                      {"favourite": 60_000, "random": 60_000})
    answers = {a.question: a for a in lm_answers(lm_res, LM_MANIFEST, same)}
    colours = answers["Are the lemming colours balanced?"]
    assert "controlled tables: each of favourite, random in every seat (60,000 races each" in colours.scope
    # equal shares over 60,000 races each: every colour's interval lies inside ±1 pp on each table
    assert colours.text.startswith("BALANCED within ±1.0 pp. Ruled out with each of the 2 bots in every seat, on "
                                   "the same deals.")
    assert colours.word == "ruled out" and set(colours.evidence) == {"favourite", "random"}
    # the run's own mixed table, the last row, labelled as describing its bots
    rows = table_rows(colours)
    assert list(rows)[:2] == ["favourite", "random"] and list(rows)[2].startswith("this run's own table (bots ")
    assert "last this run's own table of mixed bots: the table below" in colours.text
    assert colours.table[0] == ["bot (in every seat)", "answer", "evidence", "effect", "estimate (interval)",
                                "threshold", "measured on", "needed to settle it", "finding"]
    for label in ("favourite", "random"):
        v, row = colours.evidence[label], rows[label]
        assert (row["answer"], row["evidence"], row["estimate (interval)"], row["threshold"]) == (
            "BALANCED within ±1.0 pp", "ruled out", v.number, "±1.0 pp")
        assert "simultaneous 95% CI" in row["estimate (interval)"] and row["measured on"] == "60,000 races"
        assert "all 6 colours are within sampling error" in row["finding"]
    differ = Controlled({"contractor": _unbalanced_colours(lm_res), "random": _balanced_colours(lm_res)},
                        {"contractor": 60_000, "random": 60_000})
    colours = {a.question: a for a in lm_answers(lm_res, LM_MANIFEST, differ)}["Are the lemming colours balanced?"]
    # the tables decide it differently: the answer says so and names each table's answer, never "shown"
    assert colours.word == "depends on the bots" and colours.answer == "DEPENDS ON THE BOTS"
    assert colours.text.startswith("DEPENDS ON THE BOTS. The bots decide it differently (each in every seat, on the "
                                   "same deals): with contractor UNBALANCED: ")
    assert "(shown); with random BALANCED within ±1.0 pp (ruled out)" in colours.text
    # the findings are rows of the table, not sentences of the text
    assert "6 of 6 colours" not in colours.text
    rows = table_rows(colours)
    assert rows["contractor"]["evidence"] == "shown" and rows["contractor"]["effect"].startswith(
        "a colour off fair (largest: ")
    assert rows["contractor"]["answer"].startswith("UNBALANCED: ") and "against a fair share" in \
        rows["contractor"]["answer"]
    assert "6 of 6 colours differ" in rows["contractor"]["finding"]
    assert rows["random"]["evidence"] == "ruled out" and rows["random"]["effect"].startswith("a colour off fair")
    assert "all 6 colours are within sampling error" in rows["random"]["finding"]
    assert rows["contractor"]["needed to settle it"] == ""  # decided


def test_smm_answers_name_scope_and_method(smm):
    res, manifest = smm
    _check_scope_and_method(smm_answers(res, manifest, Controlled({}, {}, "none")), SMM_METHODS,
                            ["track synthetic-track (assumed reconstruction)", "4 players"])
    ctl = Controlled({"random": res, "smart": res}, {"random": 200, "smart": 200})
    answers = {a.question: a for a in smm_answers(res, manifest, ctl)}
    # a measure nobody judges gives its value over the tables, never "the same answer"
    queue = answers["Which queue position earned most? (hindsight: bets the bots laid)"]
    assert queue.text.startswith("BEST QUEUE PLACE: ") and "the same answer" not in queue.text
    # 200 games: too few to decide the pigs' 1 pp; the starter's edge is inside ±0.5 race points
    pigs = answers["Are the pigs balanced?"]
    assert pigs.word == "not enough" and pigs.text.startswith(f"{pigs.answer}. Not enough games with any of the 2 "
                                                                "bots in every seat, on the same deals (")
    assert answers["Does starting a race help?"].text.startswith(
        "STARTING MAKES NO DIFFERENCE within ±0.50 race points. Ruled out with each of the 2 bots in every seat")
    for q in ("Which queue position earned most? (hindsight: bets the bots laid)", "Are the pigs balanced?", "Does starting a race help?"):
        assert answers[q].scope.startswith("controlled tables: each of random, smart in every seat")
    # each table's verdict a row: the games it rests on (a game is four races) and, while open, the games that
    # would settle it, or that none can be promised
    for label, row in table_rows(pigs).items():
        v = pigs.evidence[label]
        assert row["evidence"] == "not enough games" and row["measured on"] == "200 games"
        assert row["needed to settle it"] == (f"about {v.needed:,} games" if v.needed else "may sit on the threshold")
    assert queue.table[0] == ["bot (in every seat)", "value (95% CI)", "games", "finding"] and len(queue.table[1]) == 2


def test_the_practical_threshold_is_an_option(lm_res):
    """A 3 pp gap is flagged at the default 1 pp and is 'no meaningful difference' at 5 pp."""
    ctl = Controlled({"contractor": _unbalanced_colours(lm_res)}, {"contractor": 60_000})
    def finding(manifest):
        a = {a.question: a for a in lm_answers(lm_res, manifest, ctl)}["Are the lemming colours balanced?"]
        return table_rows(a)["contractor"]["finding"]

    assert "6 of 6 colours differ from a fair 16.7% by more than 1 pp" in finding(LM_MANIFEST)
    text = finding({**LM_MANIFEST, "min_effect": 0.05})
    assert "every colour lies within 5 pp of 16.7%" in text and "no meaningful difference" in text
