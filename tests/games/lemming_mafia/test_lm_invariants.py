"""Invariants of whole races, over many random races played by the kernel, and
move by move over a few hundred races stepped from Python.

The records are checked against each other: bet points against the stacks,
contract payoffs against the places and blocks, the places against a
competition ranking, eliminations against blocks, cards against the deck, and
the field counters against the field actions; under the box's rules and under
variants (``--rule``), each check reading the rules the match plays.
"""
import sys
from pathlib import Path

import numpy as np
import pytest

import tests.games.lemming_mafia.lm_support as S  # noqa: E402

from analyzer.engine.botspec import BotSpec  # noqa: E402
from analyzer.games.lemming_mafia import kernel, rules  # noqa: E402
from analyzer.games.lemming_mafia import layout as L  # noqa: E402
from analyzer.games.lemming_mafia.match import Chunk, LemmingMafiaMatch  # noqa: E402
from analyzer.games.lemming_mafia.ruleset import RULES  # noqa: E402

ODD_SECTIONS = [  # 1 to 4 fields per section
    ["concrete"], ["bookmaker", "getaway"], ["empty", "concrete", "jackhammer", "boss"],
    ["getaway"], ["concrete", "bookmaker", "empty"], ["boss", "concrete", "getaway", "jackhammer"],
    ["bookmaker"], ["concrete", "empty"], ["getaway", "concrete", "bookmaker", "empty"],
    ["jackhammer", "concrete", "boss"], ["bookmaker", "getaway"], ["concrete"],
]

SOFT = {"blocks_to_eliminate": 4, "getaway_die": 9, "jackhammer_removes": 2, "bet_points": [3, 1, 4],
        "contracts_dealt": 5, "discards_per_boss": 2, "bets_per_bookmaker": 3, "unfulfilled_contract": -3}
HARSH = {"blocks_to_eliminate": 2, "getaway_die": 2, "jackhammer_removes": 0, "bet_points": [0, 0, 0, 6, 6, 9],
         "contracts_dealt": 1, "unfulfilled_contract": 4}

CONFIGS = {
    # name: (board sections or None, bots, races, rules or None for the box's)
    "random4-default": (None, ["random"] * 4, 20000, None),
    "random6-odd": (ODD_SECTIONS, ["random"] * 6, 10000, None),
    "mixed5-default": (None, ["favourite", "timer", "contractor", "random", "timer"], 10000, None),
    "random3-odd": (ODD_SECTIONS, ["random"] * 3, 10000, None),
    "soft3-default": (None, ["random", "contractor", "timer"], 10000, SOFT),
    "harsh4-odd": (ODD_SECTIONS, ["favourite", "random", "contractor", "random"], 10000, HARSH),
}


def make_match(tmp_dir, sections, bots, rules=None):
    path = None
    if sections is not None:
        path = tmp_dir / "board.toml"
        path.write_text(S.board_toml(sections, name="odd"))
    return LemmingMafiaMatch(str(path) if path else None, len(bots), [BotSpec(b) for b in bots],
                             rules=RULES.rules(rules))


def rule(match, key):
    return match.rules[key]


def stack_points(match) -> np.ndarray:
    """What the winner's card pays on each stack position (a short list's last entry on)."""
    table = list(match.rules["bet_points"])
    return np.array(table + [table[-1]] * (6 - len(table)))


@pytest.fixture(scope="module", params=list(CONFIGS))
def played(request, tmp_path_factory):
    sections, bots, n, rules = CONFIGS[request.param]
    match = make_match(tmp_path_factory.mktemp(request.param), sections, bots, rules)
    c = match.play(2024, 0, n).view()
    # records in int64 whatever the kernel stores them in (sums, negative fills)
    wide = Chunk(c.first, c.count, *(np.asarray(a, np.int64).copy()
                                     for a in (c.races, c.players, c.contracts, c.bets, c.fields)))
    assert wide.races.shape == (n, L.RACE_LEN)
    return match, wide


# ------------------------------------------------------------------ records

def test_bet_points_follow_the_stacks(played):
    match, c = played
    r, p, b = c.races, c.players, c.bets
    winner = r[:, L.RACE_WINNER]
    bet = p[:, :, L.PL_BET_POINTS]
    assert bet.min() >= 0 and bet.max() <= stack_points(match).max()
    n_placed = p[:, :, L.PL_BETS_PLACED]
    assert n_placed.min() >= 0 and n_placed.max() <= 6
    color = b[:, :, :, L.BET_COLOR]
    k = np.arange(6)
    placed = k[None, None, :] < n_placed[:, :, None]
    assert np.all((color >= 0) == placed)
    assert np.all(color < 6)
    # distinct colours per stack
    for j in range(6):
        for i in range(j):
            same = (color[:, :, i] == color[:, :, j]) & placed[:, :, j]
            assert not same.any()
    expected_paid = np.where(color == winner[:, None, None], stack_points(match)[k], 0)
    assert np.array_equal(b[:, :, :, L.BET_PAID], expected_paid)
    assert np.array_equal(bet, expected_paid.sum(axis=2))
    assert np.array_equal(p[:, :, L.PL_SCORE], bet + p[:, :, L.PL_CONTRACT_POINTS])


def test_bet_turns_and_places(played):
    match, c = played
    r, b = c.races, c.bets
    placed = b[:, :, :, L.BET_COLOR] >= 0
    turn = b[:, :, :, L.BET_TURN]
    turns = r[:, L.RACE_TURNS][:, None, None]
    assert np.all(~placed | ((turn >= 1) & (turn <= turns)))
    # bets_per_bookmaker cards a round at most, and at most one round per move: in order,
    # strictly later under the box's one card a round
    per = rule(match, "bets_per_bookmaker")
    later = turn[:, :, 1:] > turn[:, :, :-1] if per == 1 else turn[:, :, 1:] >= turn[:, :, :-1]
    assert np.all(~placed[:, :, 1:] | later)
    if per > 1:
        same = (turn[:, :, per:] == turn[:, :, :-per]) & placed[:, :, per:]
        assert not same.any()
        assert ((turn[:, :, 1:] == turn[:, :, :-1]) & placed[:, :, 1:]).any()
    place = b[:, :, :, L.BET_PLACE]
    assert np.all(~placed | ((place >= 1) & (place <= 6)))
    assert np.all(placed | ((turn == 0) & (place == 0) & (b[:, :, :, L.BET_PAID] == 0)))


def test_places_are_a_competition_ranking(played):
    match, c = played
    r = c.races
    places = r[:, L.RACE_PLACE:L.RACE_PLACE + 6]
    winner = r[:, L.RACE_WINNER]
    n = len(r)
    assert np.all(places[np.arange(n), winner] == 1)
    assert np.all((places == 1).sum(axis=1) == 1)
    better = (places[:, None, :] < places[:, :, None]).sum(axis=2)
    assert np.array_equal(places, better + 1)


def test_eliminations_match_blocks_and_last_places(played):
    match, c = played
    r = c.races
    places = r[:, L.RACE_PLACE:L.RACE_PLACE + 6]
    blocks = r[:, L.RACE_BLOCKS:L.RACE_BLOCKS + 6]
    n_elim = r[:, L.RACE_N_ELIM]
    most = rule(match, "blocks_to_eliminate")
    out = blocks == most
    assert blocks.min() >= 0 and blocks.max() <= most
    assert np.array_equal(out.sum(axis=1), n_elim)
    assert n_elim.max() <= 5
    # the eliminated hold the last places, one each; the others the places before
    first_out_place = 7 - n_elim[:, None]
    assert np.all(~out | (places >= first_out_place))
    assert np.all(out | (places < first_out_place))
    out_places = np.sort(np.where(out, places, 0), axis=1)
    for k in range(1, 6):
        rows = n_elim == k
        assert np.array_equal(out_places[rows, 6 - k:], np.tile(np.arange(7 - k, 7), (rows.sum(), 1)))
    if most <= 3:
        assert set(np.unique(n_elim)) == set(range(6)), "every elimination count should occur"


def test_winner_and_finish(played):
    match, c = played
    r = c.races
    n = len(r)
    winner = r[:, L.RACE_WINNER]
    blocks = r[:, L.RACE_BLOCKS:L.RACE_BLOCKS + 6]
    wb = r[:, L.RACE_WINNER_BLOCKS]
    assert wb.min() >= 0 and wb.max() <= rule(match, "blocks_to_eliminate") - 1
    assert np.array_equal(wb, blocks[np.arange(n), winner])
    finish = r[:, L.RACE_FINISH]
    assert set(np.unique(finish)) == {L.FINISH_WATER, L.FINISH_LAST_STANDING} or rule(match, "blocks_to_eliminate") > 3
    assert np.array_equal(finish == L.FINISH_LAST_STANDING, r[:, L.RACE_N_ELIM] == 5)
    n_fields = match.board.n_fields
    wf = r[:, L.RACE_WINNER_FIELD]
    assert wf.min() >= -1 and wf.max() < n_fields
    turns = r[:, L.RACE_TURNS]
    assert turns.min() >= 1
    # every lemming moves on at least one section per move it makes
    assert turns.max() <= 6 * len(match.board.sections) + 1


def test_contracts_are_dealt_once_and_scored_by_the_rules(played):
    match, c = played
    r, p, ct = c.races, c.players, c.contracts
    n, players, dealt = ct.shape[:3]
    assert dealt == rule(match, "contracts_dealt")
    deck = match.deck.array
    cards = ct[:, :, :, L.CT_CARD].reshape(n, players * dealt)
    assert cards.min() >= 0 and cards.max() < len(deck)
    srt = np.sort(cards, axis=1)
    assert np.all(srt[:, 1:] != srt[:, :-1]), "a card was dealt twice in a race"

    discarded = ct[:, :, :, L.CT_DISCARDED]
    assert np.array_equal(discarded.sum(axis=2), p[:, :, L.PL_DISCARDED])
    dturn = ct[:, :, :, L.CT_DISCARD_TURN]
    assert np.all((dturn > 0) == (discarded == 1))
    assert np.all(dturn <= r[:, L.RACE_TURNS][:, None, None])
    # discards_per_boss contracts a boss round at most, at most one round per move
    same_round = np.zeros(dturn.shape, np.int64)
    for i in range(dealt):
        for j in range(dealt):
            same_round[:, :, i] += (discarded[:, :, j] == 1) & (dturn[:, :, j] == dturn[:, :, i])
    assert (same_round[discarded == 1] <= rule(match, "discards_per_boss")).all()

    # recompute fulfilment from places, blocks and winner
    kind = deck[cards, L.DECK_KIND].reshape(n, players, dealt)
    c1 = deck[cards, L.DECK_C1].reshape(n, players, dealt)
    c2 = deck[cards, L.DECK_C2].reshape(n, players, dealt)
    points = deck[cards, L.DECK_POINTS].reshape(n, players, dealt)
    places = r[:, L.RACE_PLACE:L.RACE_PLACE + 6]
    out = r[:, L.RACE_BLOCKS:L.RACE_BLOCKS + 6] == rule(match, "blocks_to_eliminate")
    n_elim = r[:, L.RACE_N_ELIM][:, None, None]
    rows = np.arange(n)[:, None, None]
    p1, p2 = places[rows, c1], places[rows, c2]
    o1, o2 = out[rows, c1], out[rows, c2]
    ok = np.select(
        [kind == L.ELIMINATED, kind == L.BEFORE, kind == L.TOP3,
         kind == L.AT_MOST_ONE_ELIMINATED, kind == L.AT_LEAST_THREE_ELIMINATED,
         kind == L.WINNER_CLEAN],
        [o1 | o2, p1 < p2, p1 <= 3, n_elim <= 1, n_elim >= 3,
         np.broadcast_to((r[:, L.RACE_WINNER_BLOCKS] == 0)[:, None, None], kind.shape)],
        default=False)
    assert np.array_equal(ct[:, :, :, L.CT_FULFILLED], ok.astype(np.int64))
    payoff = np.where(discarded == 1, 0, np.where(ok, points, rule(match, "unfulfilled_contract")))
    assert np.array_equal(ct[:, :, :, L.CT_PAYOFF], payoff)
    assert np.array_equal(p[:, :, L.PL_CONTRACT_POINTS], payoff.sum(axis=2))


def test_game_winners(played):
    match, c = played
    r, p = c.races, c.players
    score = p[:, :, L.PL_SCORE]
    contract = p[:, :, L.PL_CONTRACT_POINTS]
    top = score == score.max(axis=1, keepdims=True)
    best_contract = np.where(top, contract, -10**9).max(axis=1, keepdims=True)
    won = top & (contract == best_contract)
    assert np.array_equal(p[:, :, L.PL_WON], won.astype(np.int64))
    assert np.array_equal(r[:, L.RACE_N_WINNERS], won.sum(axis=1))
    # the tie-break flag: set when contract points decided a tied top score, never
    # without a tie (a tie that stays shared is left open: see the report)
    n_top = top.sum(axis=1)
    decided = (n_top > 1) & (won.sum(axis=1) < n_top)
    assert np.all(r[decided, L.RACE_TIEBREAK] == 1)
    assert np.all(r[n_top == 1, L.RACE_TIEBREAK] == 0)
    assert decided.any() and (n_top == 1).any()
    assert won.any(axis=1).all()


def test_field_counters_follow_the_actions(played):
    match, c = played
    r = c.races
    actions = match.board.field_action
    land, trig = c.fields[:, L.FIELD_LANDINGS], c.fields[:, L.FIELD_TRIGGERS]
    assert np.all(land >= 0) and np.all(trig >= 0)
    always = np.isin(actions, [L.CONCRETE, L.GETAWAY, L.BOOKMAKER, L.BOSS])
    assert np.array_equal(trig[always], land[always])
    assert np.all(trig[actions == L.EMPTY] == 0)
    jack = actions == L.JACKHAMMER
    assert np.all(trig[jack] <= land[jack])
    removes = rule(match, "jackhammer_removes")
    assert (trig[jack].sum() > 0) == (removes > 0)
    # every move but a race's last lands somewhere
    assert land.sum() >= r[:, L.RACE_TURNS].sum() - len(r)
    # blocks at the end: given by concrete (and blocked getaways), less jackhammers
    # (each one that triggers takes off 1 to jackhammer_removes)
    final = r[:, L.RACE_BLOCKS:L.RACE_BLOCKS + 6].sum()
    given = trig[actions == L.CONCRETE].sum()
    removed = trig[jack].sum()
    assert given - removes * removed <= final <= given + trig[actions == L.GETAWAY].sum() - removed


def test_tables_mirror_the_records(played):
    match, c = played
    t = match.tables_of(c)
    n, players = c.players.shape[:2]
    races, pl, ct, bets = t["races"], t["players"], t["contracts"], t["bets"]
    assert len(races) == n and len(pl) == n * players and len(ct) == n * players * rule(match, "contracts_dealt")
    assert len(bets) == int(c.players[:, :, L.PL_BETS_PLACED].sum())
    assert list(races["race"]) == list(range(n))
    assert list(races["winner"].cat.codes) == list(c.races[:, L.RACE_WINNER])
    assert list(races["eliminated"]) == list(c.races[:, L.RACE_N_ELIM])
    assert (races["finish"] == "last_standing").sum() == (c.races[:, L.RACE_FINISH] == 1).sum()
    for i, color in enumerate(L.COLORS):
        assert np.array_equal(races[f"place_{color}"], c.races[:, L.RACE_PLACE + i])
        assert np.array_equal(races[f"concrete_{color}"], c.races[:, L.RACE_BLOCKS + i])
    assert np.array_equal(pl["score"].to_numpy().reshape(n, players), c.players[:, :, L.PL_SCORE])
    assert np.array_equal(pl["seat"].to_numpy().reshape(n, players),
                          np.tile(np.arange(1, players + 1), (n, 1)))
    assert list(pl["bot"].iloc[:players]) == match.labels
    # contract rows name the cards of the deck
    kinds = ct["kind"].astype(str).to_numpy()
    assert np.array_equal(kinds, np.array([match.deck.cards[k][0] for k in ct["card"]]))
    assert np.array_equal(ct["payoff"].to_numpy(), c.contracts[:, :, :, L.CT_PAYOFF].ravel())
    # bets: the k-th card of a stack has order k, paid = what order k pays if it is the winner's
    winner_of_race = races["winner"].astype(str).to_numpy()[bets["race"].to_numpy()]
    hit = bets["color"].astype(str).to_numpy() == winner_of_race
    assert np.array_equal(bets["paid"].to_numpy(), np.where(hit, stack_points(match)[bets["order"] - 1], 0))
    paid = bets.groupby(["race", "seat"])["paid"].sum()
    merged = pl.set_index(["race", "seat"])["bet_points"]
    assert np.array_equal(paid.reindex(merged.index, fill_value=0).to_numpy(), merged.to_numpy())
    assert (bets["turn"] <= bets["race_turns"]).all()
    f = match.fields_table(c.fields)
    assert len(f) == match.board.n_fields
    assert list(f["action"].astype(str)) == [a for s in match.board.sections for a in s]


def test_summary_agrees_with_records(played):
    match, c = played
    s = match.new_summary()
    s.add(c)
    d = s.as_dict()
    n = len(c.races)
    assert d["races"] == n
    assert d["turns"]["mean"] == pytest.approx(c.races[:, L.RACE_TURNS].mean())
    for i, color in enumerate(L.COLORS):
        assert d["winner_share"][color] == pytest.approx((c.races[:, L.RACE_WINNER] == i).mean())
    for seat, row in enumerate(d["seats"]):
        assert row["win_rate"] == pytest.approx(c.players[:, seat, L.PL_WON].mean())
        assert row["bet_points"] == pytest.approx(c.players[:, seat, L.PL_BET_POINTS].mean())


# ------------------------------------------------------------------ stepping

STEP_CONFIGS = {
    "mixed-default": (None, (1, 2, 3, 0), 150),
    "random-odd": (ODD_SECTIONS, (0, 0, 0, 0, 0), 150),
    "heuristic-odd": (ODD_SECTIONS, (3, 1, 2), 100),
}


@pytest.mark.parametrize("name", list(STEP_CONFIGS))
def test_stepped_races_never_share_a_field_and_match_the_kernel(name):
    """Races stepped from Python with the kernel's own pieces: after every move
    the state is consistent (two lemmings never share a field, blocks, cards)
    and each race ends as ``kernel.play_races`` plays it for the same seed."""
    from analyzer.games.lemming_mafia.registry import BUILTIN
    sections, kinds, n = STEP_CONFIGS[name]
    names = {0: "random", 1: "favourite", 2: "timer", 3: "contractor"}
    params = np.stack([BUILTIN[names[k]].param_row(BotSpec(names[k])) for k in kinds])
    r = S.Race(sections, kinds=kinds, params=params.copy())
    seed = 77
    nf = r.n_fields
    chunk = Chunk.empty(n, len(kinds), nf)
    status = kernel.play_races(r.game, params, seed, 0, n, chunk.races, chunk.players,
                               chunk.contracts, chunk.bets, chunk.fields)
    assert status == 0
    moves = 0
    for i in range(n):
        r.start(seed, i)
        r.check_consistent()
        seat, result = 0, rules.NO_WINNER
        while result == rules.NO_WINNER:
            result = r.step(seat)
            moves += 1
            assert r.state[L.PUB_ERROR] == 0
            if result == rules.NO_WINNER:
                r.check_consistent()
                assert sum(r.out(lem) == 0 for lem in range(6)) >= 2
            seat = (seat + 1) % len(kinds)
        winner, finish = result >> 1, result & 1
        row = chunk.races[i]
        assert (winner, finish) == (row[L.RACE_WINNER], row[L.RACE_FINISH])
        assert r.state[L.PUB_TURN] == row[L.RACE_TURNS]
        if finish == L.FINISH_WATER:
            assert r.pos(winner) == nf
        else:
            assert r.n_elim() == 5 and r.out(winner) == 0
        race_row, players, contracts, bets = r.score(winner)
        # places and blocks (the flow counters after them are the kernel's own notes: tests/games/test_flow_counters.py)
        scored = slice(L.RACE_PLACE, L.RACE_BLOCKS + L.N_LEMMINGS)
        assert np.array_equal(race_row[scored], row[scored])
        assert np.array_equal(players, chunk.players[i])
        assert np.array_equal(contracts, chunk.contracts[i])
        assert np.array_equal(bets, chunk.bets[i])
    assert moves == chunk.races[:n, L.RACE_TURNS].sum()
