"""Interventions with common random numbers (``intervene.py``): the same races
replayed with one seat's decision forced each way. On a board where no lemming
can be eliminated, "at most one eliminated" always pays and "at least three
eliminated" never does, so discarding the first must cost and the second gain;
the arm that agrees with the bot's own choice is the ordinary race itself; the
pairing narrows the interval; the answer names its scope and method."""
import numpy as np
import pytest

from analyzer.engine.botspec import BotSpec
from analyzer.games.lemming_mafia import intervene as I
from analyzer.games.lemming_mafia.match import LemmingMafiaMatch
from analyzer.games.lemming_mafia.report.text import _bet_intervention_answer, _discard_intervention_answer
from analyzer.games.lemming_mafia.stats import _contract_name
from tests.games.lemming_mafia.lm_support import board_toml

# no concrete and no getaway car (whose crash gives a block): nobody is ever eliminated
NO_BLOCKS = [["empty", "boss", "bookmaker"], ["jackhammer", "empty"], ["boss", "empty", "bookmaker"],
             ["empty", "jackhammer"], ["bookmaker", "boss"], ["empty", "empty", "boss"]]
MIXED = ["favourite", "timer", "contractor", "random"]
SEED = 5


def names(match):
    return {i: _contract_name(k, ",".join(c)) for i, (k, c, _) in enumerate(match.deck.cards)}.__getitem__


def test_discarding_a_sure_card_costs_and_a_hopeless_one_gains(tmp_path):
    deck = "".join(f'[[contracts]]\nkind = "{k}"\ncolors = []\npoints = 4\n\n'
                   for k in ["at_most_one_eliminated", "at_least_three_eliminated"] * 6)
    path = tmp_path / "no-blocks.toml"
    path.write_text(board_toml(NO_BLOCKS, "no-blocks", with_deck=False) + "\n" + deck)
    match = LemmingMafiaMatch(str(path), 4, [BotSpec(b) for b in MIXED])
    samples = I.discard_samples(match, SEED, 150)
    table = I.contract_table(samples, names(match)).set_index(["bot", "contract", "stage"])
    sure = table.loc[("all", "at most one eliminated", "all")]
    hopeless = table.loc[("all", "at least three eliminated", "all")]
    # the card's own swing is -4 and +2; what play changes around it moves the gain
    # by tenths of a point (measured: -4.00 (-4.11 to -3.88) and +2.25 (+1.84 to +2.66))
    assert sure["n"] >= 50 and hopeless["n"] >= 50
    assert sure["high"] < 0 < hopeless["low"]
    # hindsight is exact here: the card is fulfilled or not whatever happens
    assert set(samples["hindsight_gain"]) == {-4, 2}


@pytest.fixture(scope="module")
def mixed():
    match = LemmingMafiaMatch(None, 4, [BotSpec(b) for b in MIXED])
    return match, I.discard_samples(match, SEED, 200), I.bet_samples(match, SEED, 200)


def test_the_arm_the_bot_chose_is_the_ordinary_race(mixed):
    match, discards, _ = mixed
    own = discards[discards["bot_discarded"]].head(5)
    assert len(own) == 5
    for r in own.itertuples():
        players = match.replay(SEED, int(r.race)).tables["players"]
        assert players.loc[players["seat"] == r.seat, "score"].item() == r.score_discard


def test_paired_intervals_are_narrower_than_unpaired(mixed):
    match, discards, bets = mixed
    for t in (I.contract_table(discards, names(match)), I.bet_table(bets)):
        pooled = t.iloc[0]
        assert pooled["n"] > 100
        assert (pooled["high"] - pooled["low"]) < 0.8 * (pooled["unpaired_high"] - pooled["unpaired_low"])


def test_the_answers_name_scope_method_and_hindsight(mixed):
    match, discards, bets = mixed
    res = {"intervention_contracts": I.contract_table(discards, names(match)),
           "intervention_own_discards": I.own_discard_table(discards), "intervention_bets": I.bet_table(bets)}
    manifest = {"players": 4, "bots": [{"seat": i + 1, "bot": b} for i, b in enumerate(MIXED)],
                "data": [{"part": "board", "name": "assumed-default", "assumed": True}],
                "interventions": {"races": 200, "note": ""}}
    for answer in (_discard_intervention_answer(res, manifest), _bet_intervention_answer(res, manifest)):
        assert "common random numbers" in answer.method and "paired 95% t interval" in answer.method
        assert answer.scope.startswith("bots favourite (seat 1), timer (seat 2)")
        assert "board assumed-default (assumed reconstruction)" in answer.scope
        assert "4 players; 200 races of the run replayed" in answer.scope
        assert "narrower than two independent samples" in answer.text
    assert "where hindsight (what the card would have paid had play not changed) says" in \
        _discard_intervention_answer(res, manifest).text
    missing = _bet_intervention_answer({}, {**manifest, "interventions": {"races": 0, "note": "the run is empty"}})
    assert missing.text == "Not measured here (the run is empty)."
