"""Reports under strong play (``--strong``): the controlled tables become a strength
ladder, random to the game's search bot (report/controlled.strength_designs), and
the report says per question whether its answer keeps from one strength to the
next (report/ladder.py). The generic logic on made-up answers; one small game end
to end; a game without a search bot gets its one line."""
import dataclasses

import pytest

import analyzer.games as games
from analyzer import api
from analyzer.engine.botspec import parse_bot_list
from analyzer.errors import AnalyzerError
from analyzer.report import ladder
from analyzer.report.controlled import Controlled, controlled_runs, strength_designs
from analyzer.report.text import Answer
from analyzer.stats.evidence import Scale, verdict
from analyzer.stats.questions import FIRST_SEAT, Direction, Estimate
from tests.cli_support import assert_usage_error

LABELS = ["random", "heuristic", "search"]


def _v(estimate, low, high, n=1000):
    return verdict(estimate, low, high, 0.01, n, what="seat 1 against the average seat", unit="games")


def _e(value):
    return Estimate(value, value - 1, value + 1, 1000, "games", Scale(1.0, 1, " turns", signed=False))


def _ladder_of(per: dict, direction=FIRST_SEAT) -> Answer:
    return Answer("Q?", "text", "method", "scope", evidence={k: m[2] for k, m in per.items() if m[2]} or None,
                  per_table=per, direction=direction, key="q", unit="games")


CONTROLLED = Controlled({label: {} for label in LABELS}, {"random": 1000, "heuristic": 1000, "search": 100},
                        ladder=True)


def test_the_ladder_says_whether_an_answer_keeps_from_random_to_search():
    """By the scorecard's rule: alike in word and direction keeps, otherwise changes with
    strength (each strength's answer named); an open strength leaves it not settled, the
    others' common answer named; a length gives its range, never "the same answer"."""
    keeps = _ladder_of({k: (None, "s", _v(0.0, -0.005, 0.005)) for k in LABELS})
    changes = _ladder_of({"random": (None, "s", _v(0.0, -0.005, 0.005)),
                          "heuristic": (None, "s", _v(0.05, 0.03, 0.07)),
                          "search": (None, "s", _v(0.06, 0.03, 0.09))})
    open_ = _ladder_of({"random": (None, "s", _v(0.0, -0.005, 0.005)),
                        "heuristic": (None, "s", _v(0.0, -0.005, 0.005)),
                        "search": (None, "s", _v(0.0, -0.04, 0.04, 100))})
    length = _ladder_of({"random": (_e(212.8), "A game lasts 212.8 (211.0–214.1) turns on average (sd 40); more.",
                                    None),
                         "heuristic": (_e(61.2), "A game lasts 61.2 turns on average (sd 8)", None),
                         "search": (_e(61.4), "A game lasts 61.4 turns on average (sd 8)", None)},
                        Direction("LENGTH", "", "", "", "longer"))
    assert ladder.keeps(keeps) == "keeps its answer: NO SEAT 1 EDGE within ±1.0 pp at every strength"
    assert ladder.keeps(changes) == ("changes with strength: NO SEAT 1 EDGE within ±1.0 pp with random; SEAT 1 "
                                     "FAVOURED: +5.0 to +6.0 pp against the average seat with heuristic, search")
    flips = _ladder_of({"random": (None, "s", _v(0.05, 0.03, 0.07)), "heuristic": (None, "s", _v(-0.05, -0.07, -0.03)),
                        "search": (None, "s", _v(0.05, 0.03, 0.07))})
    assert ladder.keeps(flips) == ("changes with strength: SEAT 1 FAVOURED: +5.0 pp against the average seat with "
                                   "random, search; SEAT 1 HANDICAPPED: -5.0 pp against the average seat with heuristic")
    assert ladder.keeps(open_) == ("not settled (too few games with search); NO SEAT 1 EDGE within ±1.0 pp with 2 of "
                                   "3 strengths")
    assert ladder.keeps(length) == "from weakest to strongest: 61.2 to 212.8 turns (heuristic 61.2, random 212.8)"
    # a question not measured on every strength (a bots' answer) has no column
    bots_only = Answer("About the bots?", "t", "m", "s")
    headers, rows = ladder.table([keeps, changes, bots_only, length], CONTROLLED, "games")
    assert headers == ["strength (each in every seat)", "games", "Q?", "Q?", "Q?"]
    assert [r[0] for r in rows] == LABELS + ["from weakest to strongest"]
    assert rows[2][:3] == ["search", "100", "ruled out (+0.0 pp)"]
    assert rows[1][3] == "shown (+5.0 pp)" and rows[0][4] == "212.8 turns"
    text = ladder.render_text([keeps, open_], CONTROLLED, "games")
    assert text.splitlines()[0] == ("Strength ladder (weakest first, in every seat: random 1,000 games, "
                                    "heuristic 1,000 games, search 100 games)")
    assert text.splitlines()[2].startswith("  Q? not settled (too few games with search); NO SEAT 1 EDGE")
    assert "random: ruled out (+0.0 pp)" in text.splitlines()[2]
    # without --strong: nothing
    assert ladder.render_text([keeps], Controlled(CONTROLLED.tables, CONTROLLED.units), "games") == ""


def _manifest(game: str, bots: list[str], units: int = 8) -> dict:
    info = games.game_info(game)
    data = info.load("match")(None, len(bots), parse_bot_list(",".join(bots))).describe()["data"]
    return {"data": data, "game": game, "players": len(bots), "bots": [{"seat": i + 1, "bot": b} for i, b in enumerate(bots)],
            "roles": ["player"] * len(bots), info.unit: units, "unit": info.unit, "seed": 1, "strong": True}


def test_strength_designs_run_from_random_through_the_heuristics_to_the_search_bot():
    info = games.game_info("lemminge")
    design, where, note = strength_designs(_manifest("lemminge", ["racer", "convoy", "blocker", "random"]))
    assert [label for label, _, _ in design] == ["random", "racer", "convoy", "blocker", info.search.bot]
    assert design[-1] == (info.search.bot, [info.search.bot] * 4, info.search.strong_units)
    assert where == "in every seat" and note == ""
    # a run of random bots only: the game's best heuristic stands for the heuristics
    design, _, _ = strength_designs(_manifest("lemminge", ["random"] * 4))
    assert [label for label, _, _ in design] == ["random", info.search.best, info.search.bot]


@pytest.fixture
def no_search_bot(monkeypatch):
    """Lemminge as if it had no search bot (a game whose search bot is still to come)."""
    real = games.game_info

    def info(game):
        found = real(game)
        return dataclasses.replace(found, search=None) if game == "lemminge" else found

    monkeypatch.setattr(games, "game_info", info)


def test_a_game_without_a_search_bot_says_so_in_one_line(no_search_bot):
    manifest = _manifest("lemminge", ["convoy", "random", "convoy", "random"], units=6)
    design, _, note = strength_designs(manifest)
    assert [label for label, _, _ in design] == ["random", "convoy"]
    assert note == ("Lemminge has no search bot yet: the strength ladder stops at its heuristic bots (random, "
                    "then the run's bots)")
    ctl = controlled_runs(manifest, threads=1)
    assert list(ctl.tables) == ["random", "convoy"] and ctl.ladder and ctl.units == {"random": 6, "convoy": 6}
    assert ladder.render_text([], ctl, "games").splitlines()[1] == f"  {note}"


def test_a_strength_the_game_cannot_seat_everywhere_is_left_out_with_a_line(monkeypatch):
    """A search bot that cannot take every seat (say, one role's bot): the ladder keeps
    its other strengths and says why that one is missing."""
    real = games.game_info

    def info(game):
        found = real(game)
        return dataclasses.replace(found, search=dataclasses.replace(found.search, bot="nosuchbot"))

    monkeypatch.setattr(games, "game_info", info)
    ctl = controlled_runs(_manifest("lemminge", ["convoy", "random", "convoy", "random"], units=6), threads=1)
    assert list(ctl.tables) == ["random", "convoy"]
    assert ctl.ladder_note.startswith("no nosuchbot table: unknown bot 'nosuchbot'")


def test_strong_report_end_to_end(tmp_path):
    """A tiny Lemminge report under strong play: the ladder in the scorecard text
    and on the page, a row per strength, the search bot's table capped."""
    run = api.simulate("lemminge", games=12, bots="convoy,random,convoy,random", seed=2, threads=1,
                       report=tmp_path / "r.html", progress=False, tables=False, strong=True)
    text = run.text
    assert "Strength ladder (weakest first, in every seat: random 12 games, convoy 12 games, lookahead 12 games)" \
        in text
    assert "  Is the first seat favoured? " in text and "lookahead: not enough games" in text
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert 'id="ladder"' in page and "<td class=\"l\">from weakest to strongest</td>" in page
    # the title says so, and the ladder is on the first screen: right under the scorecard
    assert "<h1>Lemminge balance report under strong play</h1>" in page
    assert page.index('id="ladder"') < page.index('id="glossary"')
    assert page.index("</section>", page.index('id="scorecard"')) < page.index('id="ladder"') < page.index(
        '<table class="meta">')
    for label in ("random", "convoy", "lookahead"):
        assert f"<td class=\"l\">{label}</td><td class=\"l\">12</td>" in page
    # the same report without --strong has no ladder
    plain = api.simulate("lemminge", games=12, bots="convoy,random,convoy,random", seed=2, threads=1,
                         report=tmp_path / "p.html", progress=False, tables=False)
    assert "Strength ladder" not in plain.text and 'id="ladder"' not in (tmp_path / "p.html").read_text()
    assert "under strong play" not in (tmp_path / "p.html").read_text()


def test_strong_needs_a_report_and_no_side_by_side(tmp_path, capsys):
    """On the command line: one line, exit 2, before any game is played."""
    assert_usage_error(capsys, ["simulate", "lemminge", "--games", "2", "--strong", "--no-progress"],
                       "give --report too")
    assert_usage_error(capsys, ["report", str(tmp_path), "--by", "players", "--strong"],
                       "--strong does not go with --by")
    with pytest.raises(AnalyzerError, match="give --report too"):
        api.simulate("lemminge", games=2, strong=True, progress=False)
    with pytest.raises(AnalyzerError, match="--strong does not go with --by"):
        api.report_runs([tmp_path], tmp_path / "r.html", by="players", strong=True)
