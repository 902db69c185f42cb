"""A game's questions by key (the registry's ``questions_for``), measured on a run's own result tables:
the API a balance search targets."""
import math
from types import SimpleNamespace

import pytest

from analyzer import api
from analyzer.errors import AnalyzerError
from analyzer.games import game_info, infos, questions_for
from analyzer.stats import questions as Q
from analyzer.stats.evidence import NOT_ENOUGH, SHOWN, decide

SHARED = {"first_seat_edge", "seat_spread", "length", "leader_at_half", "decided_late"}
# one bot in every seat (seat questions need it: seats and bots are not confounded)
ONE_BOT = {"lemming-mafia": "favourite", "sau-mau-mau": "backer", "lemminge": "racer", "mafia": "random"}
# questions a plain run cannot answer: the report's causal replays give their tables
REPLAYED = {"bet_leader", "discards"}
MIXED = {"skill_gradient"}  # heuristic bots against random: a table with both


@pytest.fixture(scope="module")
def runs():
    return {info.name: api.simulate(info.name, 400, bots=ONE_BOT[info.name], seed=5, threads=1, progress=False)
            for info in infos()}


@pytest.mark.parametrize("info", infos(), ids=lambda i: i.name)
def test_a_games_questions_by_key(info):
    qs = questions_for(info.name)
    assert qs == questions_for(info)  # by name or by its GameInfo, the same questions
    assert [q.key for q in info.load("report").QUESTIONS] == list(qs)  # the report's order
    assert SHARED <= set(qs)
    for key, q in qs.items():
        assert q.key == key and "?" in q.text  # a question, in words
        assert q.direction.meaning  # what a positive value means, in words
        if q.judged:
            assert q.threshold({}) > 0 and q.direction.within and q.direction.positive


def test_a_key_registered_twice_is_an_error():
    twice = (Q.first_seat_edge(), Q.first_seat_edge("Is the first seat favoured over the whole game?"))
    fake = SimpleNamespace(name="coins", load=lambda what: SimpleNamespace(QUESTIONS=twice))
    with pytest.raises(ValueError, match="coins registers two questions with the key 'first_seat_edge'"):
        questions_for(fake)
    with pytest.raises(AnalyzerError, match="unknown game"):
        questions_for("no-such-game")


@pytest.mark.parametrize("game", sorted(ONE_BOT))
def test_every_question_measures_a_runs_own_tables(runs, game):
    """Each question measures the run's aggregated tables (``Run.results``) in the game's
    unit, and its verdict is the one rule's word on that interval."""
    run = runs[game]
    tables, manifest = run.results, run.manifest
    unit = game_info(game).unit
    for key, q in questions_for(game).items():
        e = q.estimate(tables, manifest)
        if key in REPLAYED | MIXED:
            assert e is None, key  # no intervention tables in a plain run; no random at this table
            continue
        assert e is not None, key
        assert math.isfinite(e.value) and isinstance(e.value, float) and isinstance(e.n, int), key
        if key in ("first_seat_edge", "seat_spread"):
            assert (e.unit, e.n) == (unit, 400), key  # counted in the game's unit, on the run's units
        v = q.verdict(tables, manifest)
        if not q.judged:
            assert v is None
            continue
        word = decide(v.low, v.high, v.threshold)
        assert v.word == word or (word == SHOWN and v.word == NOT_ENOUGH), key  # a gate may hold a shown back


@pytest.mark.parametrize("game", ["lemming-mafia", "sau-mau-mau", "lemminge"])
def test_skill_is_measured_on_a_table_of_heuristics_and_random(game):
    run = api.simulate(game, 300, seed=5, threads=1, progress=False)  # the default bots: random among them
    e = questions_for(game)["skill_gradient"].estimate(run.results, run.manifest)
    ls = run.results["luck_skill"].iloc[-1]
    assert e.value == pytest.approx(ls["bot_win_rate"] - ls["random_win_rate"], abs=1e-12)
    assert (e.unit, e.n) == (game_info(game).unit, 300)


def test_the_first_seat_edge_is_seat_1_against_the_average_seat(runs):
    run = runs["lemminge"]
    tables = run.results
    e = questions_for("lemminge")["first_seat_edge"].estimate(tables, run.manifest)
    sa = tables["seat_advantage"].sort_values("seat")
    assert e.value == pytest.approx(sa["win_rate"].iloc[0] - sa["win_rate"].mean(), abs=1e-12)
    assert e.low < e.value < e.high


def test_mafias_card_and_base_gaps_rest_on_games_not_seat_games(runs):
    """A family's games with and without a card add up to four times the games: the
    units that would settle a gap are games at its player count."""
    run = runs["mafia"]
    qs = questions_for("mafia")
    for key in ("card_association", "base_choice"):
        e = qs[key].estimate(run.results, run.manifest)
        assert e is not None and {p.n for p in e.parts} == {400} and e.unit == "games", key


def test_a_run_without_tables_has_no_results():
    run = api.simulate("mafia", 20, seed=1, threads=1, progress=False, tables=False)
    with pytest.raises(AnalyzerError, match="kept no tables"):
        run.results
