"""Interventions with common random numbers (``intervene.py``): the same races
replayed with one seat's decision forced each way. On a board where no lemming
can be eliminated, "at most one eliminated" always pays and "at least three
eliminated" never does, so discarding the first must cost and the second gain;
the arm that agrees with the bot's own choice is the ordinary race itself; the
pairing narrows the interval; a bot's discards undone over a whole race measure
what a whole-policy ``compare`` against the same bot that never discards
measures; the answer names its scope and method."""
import numpy as np
import pandas as pd
import pytest

from analyzer.engine.botspec import BotSpec
from analyzer.games.lemming_mafia import intervene as I
from analyzer.games.lemming_mafia.match import LemmingMafiaMatch
from analyzer.games.lemming_mafia.report.causal import bet_answer, contract_answer
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
           "intervention_discard_policy": I.policy_table(I.policy_samples(match, SEED, 200)),
           "intervention_bets": I.bet_table(bets)}
    manifest = {"players": 4, "bots": [{"seat": i + 1, "bot": b} for i, b in enumerate(MIXED)],
                "data": [{"part": "board", "name": "assumed-default", "assumed": True}],
                "interventions": {"races": 200, "policy_races": 200, "note": ""}}
    contract = contract_answer(res, manifest, "HINDSIGHT.", "HOLD-METHOD")
    bet = bet_answer(res, manifest, "HINDSIGHT.", "HEAT-METHOD")
    for answer in (contract, bet):
        assert "common random numbers" in answer.method and "paired 95% t interval" in answer.method
        assert answer.scope.startswith("bots favourite (seat 1), timer (seat 2)")
        assert "board assumed-default (assumed reconstruction)" in answer.scope
        assert "4 players; 200 races of the run replayed" in answer.scope
        # the answer in the question's words leads, then the intervention, then hindsight, labelled, with the
        # rule which to trust
        assert answer.headline and answer.text.startswith(f"{answer.headline}. ")
        assert answer.text.index("By intervention") < answer.text.index("Hindsight")
        assert "hindsight:" in answer.method and "METHOD" in answer.method
    assert "narrower than two independent samples" in bet.text and "HINDSIGHT." in bet.text
    # each bot's own discards, gain a race: a table under the answer (after the per-card one, which answers it)
    bots = next(t for t in contract.tables if t[0][0] == "bot (seats)")
    assert bots[0][1].startswith("gain a race") and "contractor (seat 3)" in [r[0] for r in bots[1]]
    assert "the table of bots below" in contract.text
    missing = bet_answer({}, {**manifest, "interventions": {"races": 0, "note": "the run is empty"}}, "H.", "M")
    assert missing.text.startswith("Not measured by intervention here (the run is empty). Hindsight only")
    assert missing.method == "hindsight only: M"


# ------------------------------------------------- a bot's own discards, undone


@pytest.fixture(scope="module")
def policy(mixed):
    match = mixed[0]
    return match, I.policy_samples(match, SEED, 200)


def test_undoing_no_discard_changes_nothing_and_the_played_arm_is_the_race(policy):
    match, samples = policy
    calm = samples[samples["discards"] == 0]
    assert len(calm) > 20  # some seats keep every card
    assert (calm["score_played"] == calm["score_kept"]).all() and (calm["hindsight_gain"] == 0).all()
    busy = samples[samples["discards"] > 0]
    assert len(busy) > 200 and (busy["score_played"] != busy["score_kept"]).any()
    for r in busy.head(4).itertuples():
        tables = match.replay(SEED, int(r.race)).tables
        players, cards = tables["players"], tables["contracts"]
        assert players.loc[players["seat"] == r.seat, "score"].item() == r.score_played
        gone = cards[(cards["seat"] == r.seat) & cards["discarded"]]
        assert len(gone) == r.discards
        # hindsight: minus what the discarded cards would have paid, held
        assert r.hindsight_gain == -sum(p if f else -2 for p, f in zip(gone["points"], gone["fulfilled"]))


def test_undone_discards_match_a_whole_policy_compare_on_the_same_races():
    """The per-race gain of the contractor's own discards (each seat of a compare's
    tables, the compare's races) against ``compare --bot contractor --vs
    contractor:discard_margin=100`` (a contractor that never discards): both
    estimate what the discard policy is worth a race, so each lies within the
    other's 95% interval and they differ by less than the compare's standard error
    (measured on seed 3, 800 races: equal race by race, +0.78, +0.51 to +1.05)."""
    from analyzer.engine.botspec import parse_bot_list
    from analyzer.engine.compare import compare

    races, seed = 800, 3
    contractor, never = parse_bot_list("contractor,contractor:discard_margin=100")
    field = parse_bot_list("favourite,timer,random")
    whole = compare(lambda table: LemmingMafiaMatch(None, 4, table), contractor, never, field, 4, races, seed,
                    threads=1).score
    per_seat = races // 4
    parts = []
    for k in range(4):  # compare's seat k plays races k * per_seat ..
        match = LemmingMafiaMatch(None, 4, field[:k] + [contractor] + field[k:])
        s = I.policy_samples(match, seed, per_seat, first=k * per_seat)
        parts.append(s[s["seat"] == k + 1])
    undone = I.policy_table(pd.concat(parts)).iloc[0]
    low, high = whole.interval()
    assert undone["n"] == whole.n == races
    assert low < undone["gain"] < high and undone["low"] < whole.diff < undone["high"]
    assert abs(undone["gain"] - whole.diff) < whole.paired_se
    assert undone["gain"] > 0.2  # the policy pays: the test would notice a null arm
