"""Lemminge's and Mafia's designer answers name their scope (bots, map, player
count) and their method; the questions about the game are answered per bot on
controlled tables (holding across the bots or depending on them), and without
them say they are about the bots present. Mafia's controlled tables keep the
State seat's bot and put each family bot in every family seat. On small
simulated tables (a few hundred games)."""
import numpy as np
import pandas as pd
import pytest

from analyzer.engine.botspec import BotSpec, parse_bot_list
from analyzer.games.lemminge.match import LemmingeMatch
from analyzer.games.lemminge.report import answers as lmg_answers
from analyzer.games.lemminge.stats import LemmingeStats
from analyzer.games.mafia.match import MafiaMatch
from analyzer.games.mafia.report import answers as mafia_answers
from analyzer.games.mafia.stats import new_stats as mafia_stats
from analyzer.report.controlled import Controlled, controlled_runs, designs
from analyzer.report.text import Answer
from tests.report.test_rep_answers import table_rows

GAMES = 300

# question -> a word its method must name
LMG_METHODS = {
    "Do the starting hands of 2-6 cards balance the seats?": "Cochran's Q",
    "Is the first seat favoured?": "Cochran's Q",
    "What did a card on a column of each sum gain? (association: cards the bots played)": "clustered by game",
    "Did cards that started a new column gain more than cards added to one? (association)": "clustered by game",
    "What do pushes do to the pushed lemmings? (association: pushes the bots made)": "observational",
    "Where do tiles go, and which hexes are busiest? (counts)": "counts",
    "How long is a game?": "t interval",
    "How much does skill matter?": "eta squared",
    "How does the game flow: lead changes, decisiveness, comebacks?": "Wilson",
}
LMG_STRUCTURAL = ("Do the starting hands of 2-6 cards balance the seats?", "Is the first seat favoured?",
                  "How long is a game?")
MAFIA_METHODS = {
    "Is the State strong enough at 3 and 5 players?": "Wilson",
    "Does the family that moves first win more?": "Cochran's Q",
    "Do the four families win alike?": "Cochran's Q",
    "How often does nobody win (everyone loses, or a draw at the safety cap)?": "Wilson",
    "How did families fare with each base city? (association: the bots chose the base)": "observational",
    "Which cards go with winning? (association: win rates with and without a card)": "observational",
    "Where do markers go? (counts)": "counts",
    "How long are games?": "t interval",
    "How does the game flow: lead changes, decisiveness, comebacks?": "Wilson",
}
MAFIA_STRUCTURAL = ("Is the State strong enough at 3 and 5 players?", "Does the family that moves first win more?",
                    "How long are games?", "How often does nobody win (everyone loses, or a draw at the safety cap)?")
MAFIA_TABLE = "expander,raider,hunter,expander,raider"


def _manifest(match, bots: str, seed: int) -> dict:
    labels = [s.label for s in parse_bot_list(bots)]
    labels = labels * match.players if len(labels) == 1 else labels
    return {**match.describe(), "bots": [{"seat": i + 1, "bot": b} for i, b in enumerate(labels)], "seed": seed,
            match.unit: GAMES}


@pytest.fixture(scope="module")
def lmg():
    match = LemmingeMatch(None, 4, [BotSpec("random", ())] * 4)
    chunk = match.play(3, 0, GAMES)
    s = LemmingeStats()
    s.add({**match.tables_of(chunk), **match.chunk_extras(chunk)})
    return s.result(), _manifest(match, "random", 3)


def _mafia_run(bots: str, seed: int = 5):
    match = MafiaMatch(None, 5, parse_bot_list(bots))
    s = mafia_stats()
    s.add(match.tables_of(match.play(seed, 0, GAMES)))
    return s.result(), _manifest(match, bots, seed)


@pytest.fixture(scope="module")
def mafia():
    return _mafia_run(MAFIA_TABLE)


def _check_scope_and_method(answers, methods, scope_words):
    assert [a.question for a in answers] == list(methods)
    for a in answers:
        assert isinstance(a, Answer) and a.text and a.figure
        assert methods[a.question] in a.method, (a.question, a.method)
        for word in scope_words:
            assert word in a.scope, (a.question, a.scope)


def _balanced_seats(res, games=4_000):
    """A copy whose seats win equally often: each seat alone wins ``games`` / 4 games
    (the win patterns the seat flags read), advantages all spanning 0."""
    out = dict(res)
    out["seat_advantage"] = res["seat_advantage"].assign(advantage=0.0, advantage_low=-0.05, advantage_high=0.05)
    out["win_patterns"] = pd.DataFrame({"mask": [1, 2, 4, 8], "units": [games // 4] * 4})
    return out


def test_lmg_answers_name_scope_and_method(lmg):
    res, manifest = lmg
    answers = lmg_answers(res, manifest, Controlled({}, {}, "none played"))
    _check_scope_and_method(answers, LMG_METHODS, ["random in every seat", "(assumed reconstruction)",
                                                   "4 players"])
    for a in answers:
        if a.question not in LMG_STRUCTURAL:
            assert "This describes the choices of the bots present: random in every seat" in a.text, a.question
    mixed = {**manifest, "bots": [{"seat": 1, "bot": "greedy"}] + manifest["bots"][1:]}
    answers = {a.question: a for a in lmg_answers(res, mixed, Controlled({}, {}, "none played"))}
    assert "greedy (seat 1), random (seat 2)" in answers["Is the first seat favoured?"].scope
    for q in LMG_STRUCTURAL:  # after the evidence word, if any
        assert "About the bots at this table, not the game alone (none played)" in answers[q].text, q


def test_lmg_structural_answers_on_controlled_tables_hold_or_depend(lmg):
    res, manifest = lmg
    same = {a.question: a for a in lmg_answers(res, manifest, Controlled({"random": res, "greedy": res},
                                                                         {"random": GAMES, "greedy": GAMES}))}
    # a length nobody judges: its value over the tables (equal here), never "the same answer"
    length = same["How long is a game?"]
    assert length.text.startswith("LENGTH: ") and " turns with each. Measured with each of the 2 bots" in length.text
    # two seats of the random table are shown apart beyond 1 pp: on both (equal) tables alike
    hands = same[LMG_STRUCTURAL[0]]
    assert hands.answer.startswith("SEATS UNEVEN: seat ") and hands.key == "seat_spread"
    assert hands.text.startswith(f"{hands.answer}. Shown with each of the 2 bots in every seat, on the same "
                                 "deals."), hands.text
    for q in LMG_STRUCTURAL:
        assert same[q].scope.startswith("controlled tables: each of random, greedy in every seat (300 games each")
    # the random table's seats are flagged apart (1 of 4 since flags need the whole simultaneous interval beyond 1 pp);
    # a table whose seats win equally often is balanced: the hands answer depends on the bots
    random = table_rows(same[LMG_STRUCTURAL[0]])["random"]  # each table's verdict and finding: a row
    assert random["evidence"] == "shown" and random["effect"].startswith("a seat off the average (largest: ")
    assert random["finding"].startswith("No: 1 of 4 seats differs")  # seat 4 -6.3 pp reaches -1 pp jointly
    # a table whose seats win equally often over 300 games does not rule a 1 pp gap out (
    # item 4: absence of evidence is not agreement): the answer is not settled, with the games needed
    differ = Controlled({"random": res, "greedy": _balanced_seats(res)}, {"random": GAMES, "greedy": GAMES})
    hands = lmg_answers(res, manifest, differ)[0]
    # the random table shows a gap, greedy's decides nothing: the answer is random's, "with 1 of 2 bots", greedy named
    assert hands.word == "shown" and hands.answer.endswith("with 1 of 2 bots"), hands.answer
    assert "; not settled with greedy (greedy: " in hands.text, hands.text
    greedy = table_rows(hands)["greedy"]
    v = hands.evidence["greedy"]
    assert greedy["evidence"] == "not enough games" and greedy["needed to settle it"] == (
        f"about {v.needed:,} games" if v.needed else "may sit on the threshold")
    # answered as the evidence decides: not "Yes" (balanced) while a 1 pp gap is not ruled out
    assert "Yes:" not in hands.text + greedy["finding"]
    assert greedy["finding"].startswith("Cannot tell yet: all 4 seats are within sampling error of a fair 25.0%")
    assert [t[0][:2] for t in hands.tables] == [["bot (in every seat)", "answer"], ["seat", "starting hand"]]


def test_mafia_answers_without_controlled_tables_say_why(mafia):
    res, manifest = mafia
    note = "no controlled tables: the board file x.toml of the run is not there any more"
    answers = mafia_answers(res, manifest, Controlled({}, {}, note))
    _check_scope_and_method(answers, MAFIA_METHODS, ["expander (seat 1)", "hunter (seat 3)",
                                                     "(assumed reconstruction)", "5 players"])
    by_q = {a.question: a for a in answers}
    for q in MAFIA_STRUCTURAL:
        assert f"About the bots at this table, not the game alone ({note}): " in by_q[q].text, q
    # the State wins 85% of 5-player games against an equal seat's 20%: shown, and said first, in its own words
    state = by_q[MAFIA_STRUCTURAL[0]]
    assert state.answer.startswith("STATE TOO STRONG: +") and state.answer.endswith(" pp against an equal seat")
    assert state.text.startswith(f"{state.answer}. Shown: the State at 5 players against an equal seat +")
    # the families run different bots here: the first mover is not tested, and the answer says why
    assert "the families run different bots (red: expander, black: raider" in by_q[MAFIA_STRUCTURAL[1]].text
    assert "observational" in by_q["Which cards go with winning? (association: win rates with and without a card)"].text


def test_mafia_controlled_tables_keep_the_state_seat(mafia):
    res, manifest = mafia
    ctl = controlled_runs(manifest, res, threads=1, max_units=GAMES)
    assert list(ctl.tables) == ["expander", "raider"] and not ctl.note
    assert ctl.where == "in every family seat (state seat: hunter)"
    for label, t in ctl.tables.items():
        fam = t["roles"][t["roles"].role == "family"]
        assert set(fam["bot"]) == {label} and list(t["roles"][t["roles"].role == "state"]["bot"]) == ["hunter"]
    answers = {a.question: a for a in mafia_answers(res, manifest, ctl)}
    for q in MAFIA_STRUCTURAL:
        a = answers[q]
        assert a.scope.startswith("controlled tables: each of expander, raider in every family seat (state seat: "
                                  "hunter) (300 games each"), q
        assert a.answer and a.text.startswith(f"{a.answer}. "), q
        assert any(x in a.text for x in ("with each of the 2 bots in every family seat",
                                         "with any of the 2 bots in every family seat",
                                         "The bots decide it differently (each in every family seat",
                                         "; not settled with ")), (q, a.text)
        rows = table_rows(a)  # a row per controlled table, the run's own mixed table last
        assert list(rows)[:2] == ["expander", "raider"] and list(rows)[2].startswith("this run's own table (bots "), q
        assert "last this run's own table of mixed bots" in a.text, q
    first = table_rows(answers[MAFIA_STRUCTURAL[1]])
    controlled_part = first["expander"]["finding"] + first["raider"]["finding"]
    own = next(row for label, row in first.items() if label.startswith("this run's own table"))["finding"]
    assert "different bots" not in controlled_part and "joint test p" in controlled_part
    assert "the families run different bots" in own
    # a run written before manifests listed the seats' roles: the roles come from the game's match
    older = controlled_runs({k: v for k, v in manifest.items() if k != "roles"}, res, threads=1, max_units=20)
    assert list(older.tables) == ["expander", "raider"] and older.where == ctl.where


def test_controlled_designs_for_roles():
    roles5 = ["family", "family", "state", "family", "family"]

    def manifest(bots, roles):
        return {"bots": [{"seat": i + 1, "bot": b} for i, b in enumerate(bots)], "roles": roles}

    assert designs(manifest(["random"] * 5, roles5)) == ([("random", ["random"] * 5)], "in every seat")
    # one bot per role: the run is its own controlled table
    assert designs(manifest(["random", "random", "hunter", "random", "random"], roles5)) == (
        [("random", ["random", "random", "hunter", "random", "random"])], "in every family seat (state seat: hunter)")
    tables, where = designs(manifest(["expander", "random", "warden"], ["family", "family", "state"]))
    assert tables == [("expander", ["expander", "expander", "warden"]), ("random", ["random", "random", "warden"])]
    assert where == "in every family seat (state seat: warden)"
    # seats of one role (Mafia at 4 players, or any game without roles): each bot in every seat
    assert designs(manifest(["expander", "raider", "raider", "expander"], ["family"] * 4)) == (
        [("expander", ["expander"] * 4), ("raider", ["raider"] * 4)], "in every seat")
    tables, where = designs(manifest(["a", "b", "c", "d"], ["x", "x", "y", "y"]))
    assert [t for _, t in tables] == [["a", "a", "c", "c"], ["a", "a", "d", "d"], ["b", "b", "c", "c"],
                                      ["b", "b", "d", "d"]]
    assert tables[0][0] == "a as x + c as y" and where == "in every seat of its role"


def _family_wins(res, shares, games=60_000, bot="expander"):
    """A copy of a 5-player result whose families (all ``bot``) win ``shares`` of ``games``
    (red, black, orange, green) and the State the rest."""
    out = dict(res)
    wins = dict(zip(("red", "black", "orange", "green"), (np.array(shares) * games).round().astype(int)))
    wins["state"] = games - sum(wins.values())
    o = res["outcomes"].copy()
    o["games"] = [wins.get(x, 0) for x in o["outcome"]]
    out["outcomes"] = o
    r = res["roles"].copy()
    r.loc[r.role == "family", "bot"] = bot
    out["roles"] = r
    return out


def test_mafia_first_mover_depends_on_the_family_bots(mafia):
    """Red 30% against 20% for the others over 60,000 games is flagged; equal families are not."""
    res, manifest = mafia
    ctl = Controlled({"expander": _family_wins(res, [0.3, 0.2, 0.2, 0.2]),
                      "raider": _family_wins(res, [0.2, 0.2, 0.2, 0.2], bot="raider")},
                     {"expander": 60_000, "raider": 60_000}, where="in every family seat (state seat: hunter)")
    answer = mafia_answers(res, manifest, ctl)[1]
    text, rows = answer.text, table_rows(answer)
    assert text.startswith("DEPENDS ON THE BOTS. The bots decide it differently (each in every family seat (state "
                           "seat: hunter), on the same deals): with expander FIRST FAMILY FAVOURED: +7.5 pp against "
                           "the average family (shown); with raider NO FIRST-MOVER EDGE within ±1.0 pp (ruled out)")
    assert answer.table[0][0] == "bot (in every family seat (state seat: hunter))"
    expander, raider = rows["expander"], rows["raider"]
    assert expander["evidence"] == "shown" and raider["evidence"] == "ruled out"
    assert expander["effect"].startswith("red (first to move) at 5 players against the average family")
    assert expander["estimate (interval)"].startswith("+7.5 pp") and raider["estimate (interval)"].startswith("+0.0 pp")
    assert "at 5 players red, moving first, wins more than the average family" in expander["finding"]
    assert "at 5 players red, moving first, has no edge beyond chance" in raider["finding"]
