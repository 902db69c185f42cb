"""The rulebook's examples and explanations, checked on the rule functions.

Every test builds a race state by hand (``lm_support.Race``) on the assumed
default board and deck and asks one rule function about it: the dice, the bet
stack count, each contract card's explanation, the tie-break, final places,
concrete blocks and the last lemming standing.
"""
import sys
from pathlib import Path

import numpy as np
import pytest

import tests.games.lemming_mafia.lm_support as S  # noqa: E402

from analyzer.games.lemming_mafia import layout as L  # noqa: E402
from analyzer.games.lemming_mafia import rules  # noqa: E402
from analyzer.games.lemming_mafia.ruleset import RULES  # noqa: E402

BLUE, GREY, GREEN, PURPLE, PINK, RED = range(6)


def race(seed=0, players=4):
    return S.Race(kinds=(0,) * players, seed=seed)


# ------------------------------------------------------------------ the dice

def test_colour_substitution_rulebook_example():
    """Rolled pink and blue; blue is out and grey is last: pink or grey. If pink
    were out as well, grey must move."""
    r = race()
    for lem, field in ((GREY, 2), (GREEN, 5), (PURPLE, 8), (PINK, 10), (RED, 12)):
        r.put(lem, field)
    r.put(BLUE, 0)
    r.eliminate(BLUE)
    assert sorted(r.candidates(PINK, BLUE)) == [GREY, PINK]
    assert sorted(r.candidates(BLUE, PINK)) == [GREY, PINK]
    r.eliminate(PINK)
    assert r.candidates(PINK, BLUE) == [GREY]
    assert r.candidates(BLUE, BLUE) == [GREY]
    assert sorted(r.candidates(RED, PINK)) == [GREY, RED]


def test_live_colours_stand_for_themselves():
    r = race()
    assert r.candidates(GREEN, GREEN) == [GREEN]  # doubles: no choice
    assert sorted(r.candidates(GREEN, RED)) == [GREEN, RED]
    r.put(RED, 7)
    assert sorted(r.candidates(RED, BLUE)) == [BLUE, RED]


def test_eliminated_face_adds_every_lemming_tied_last_in_start_area():
    r = race()
    r.put(BLUE, 0)
    r.eliminate(BLUE)
    r.put(GREEN, 4)
    r.put(PURPLE, 9)
    r.put(PINK, 11)
    # grey and red never left the start area: they tie for last place
    assert sorted(r.candidates(BLUE, BLUE)) == [GREY, RED]
    assert sorted(r.candidates(BLUE, GREEN)) == [GREY, GREEN, RED]
    assert sorted(r.candidates(GREY, BLUE)) == [GREY, RED]  # distinct lemmings only
    # one of them leaves the start area: the other is the only last one
    r.put(RED, 1)
    assert sorted(r.candidates(BLUE, PINK)) == [GREY, PINK]
    r.put(GREY, 6)
    assert sorted(r.candidates(BLUE, PINK)) == [PINK, RED]  # red on field 1 is last


def test_all_tied_in_start_area_after_an_elimination():
    r = race()
    r.put(BLUE, 3)
    r.eliminate(BLUE)
    assert sorted(r.candidates(BLUE, GREY)) == [GREY, GREEN, PURPLE, PINK, RED]


def test_roll_candidates_draws_two_fair_dice():
    """Over many rolls in the start area: one candidate exactly for doubles (1/6)."""
    r = race()
    n = 12000
    singles = 0
    seen = set()
    for i in range(n):
        k = int(rules.roll_candidates(r.state, L.S_OPTIONS))
        cands = tuple(int(x) for x in r.state[L.S_OPTIONS:L.S_OPTIONS + k])
        assert k in (1, 2) and len(set(cands)) == k
        singles += k == 1
        seen.update(cands)
    assert seen == set(range(6))
    p = 1 / 6
    z = (singles / n - p) / np.sqrt(p * (1 - p) / n)
    assert abs(z) < 4, z


# --------------------------------------------------------------- bet stacks

def stacked_race(winner):
    """Seat 0 placed purple first and grey fifth (the rulebook's picture)."""
    r = race()
    r.bet(0, PURPLE, BLUE, GREEN, RED, GREY)
    r.put(winner, 30)
    rules.reach_water(r.game, r.state, winner)
    for seat in range(4):
        r.discard_all(seat)
    return r


@pytest.mark.parametrize("winner, points", [(GREY, 5), (PURPLE, 1), (PINK, 0), (GREEN, 3)])
def test_bet_stack_rulebook_example(winner, points):
    r = stacked_race(winner)
    _, players, _, bet_rows = r.score(winner)
    assert players[0, L.PL_BET_POINTS] == points
    assert players[0, L.PL_SCORE] == points
    assert players[0, L.PL_BETS_PLACED] == 5
    assert list(bet_rows[0, :, L.BET_COLOR]) == [PURPLE, BLUE, GREEN, RED, GREY, -1]
    paid = [points if c == winner else 0 for c in (PURPLE, BLUE, GREEN, RED, GREY)] + [0]
    assert list(bet_rows[0, :, L.BET_PAID]) == paid
    # the other seats placed nothing: no bet points
    assert list(players[1:, L.PL_BET_POINTS]) == [0, 0, 0]


def test_winner_card_placed_last_of_six_pays_six():
    r = race()
    r.bet(1, BLUE, GREY, GREEN, PURPLE, PINK, RED)
    _, players, _, _ = r.score(RED)
    assert players[1, L.PL_BET_POINTS] == 6
    assert players[1, L.PL_BETS_PLACED] == 6
    _, players, _, _ = r.score(BLUE)
    assert players[1, L.PL_BET_POINTS] == 1


def test_place_bet_moves_the_card_and_records_turn_and_track_place():
    r = race()
    r.put(GREEN, 10)
    r.put(RED, 4)
    r.state[L.PUB_TURN] = 7
    r.bet(2, RED)
    own = r.own(2)
    assert own[L.OWN_HAND + RED] == 0 and own[L.OWN_HAND:L.OWN_HAND + 6].sum() == 5
    assert own[L.OWN_STACK_N] == 1 and own[L.OWN_STACK] == RED
    assert own[L.OWN_STACK_TURN] == 7
    assert own[L.OWN_STACK_PLACE] == 2  # green ahead of red, the rest in the start area
    assert r.state[L.PUB_HAND_COUNT + 2] == 5 and r.state[L.PUB_STACK_COUNT + 2] == 1


# ---------------------------------------------------------------- contracts

def payoff(r, card, winner):
    """Seat 0 holds only ``card`` (its other two slots discarded)."""
    other = [c for c in range(len(S.DEFAULT_DECK.cards)) if c != card][:2]
    r.set_contracts(0, [card] + other, held=(1, 0, 0))
    _, players, contracts, _ = r.score(winner)
    assert players[0, L.PL_CONTRACT_POINTS] == contracts[0, 0, L.CT_PAYOFF]
    assert list(contracts[0, 1:, L.CT_PAYOFF]) == [0, 0]
    return int(contracts[0, 0, L.CT_PAYOFF]), bool(contracts[0, 0, L.CT_FULFILLED])


def finished(on_track=None, eliminated=(), winner=None, winner_blocks=0, last_standing=False):
    """A race at its end: ``on_track`` {lemming: field}, the rest of the
    non-eliminated ones in the start area, ``eliminated`` in that order, the
    winner in the water (or the last standing)."""
    r = race()
    for lem, field in (on_track or {}).items():
        r.put(lem, field)
    last = rules.NO_WINNER
    for lem in eliminated:
        last = r.eliminate(lem)
    if last_standing:
        assert last == winner
        r.state[L.PUB_BLOCKS + winner] = winner_blocks
    else:
        if r.pos(winner) == L.START:
            r.put(winner, 32)
        r.state[L.PUB_BLOCKS + winner] = winner_blocks
        rules.reach_water(r.game, r.state, winner)
    return r


ELIM_GREY_PINK = S.card_index("eliminated", ("grey", "pink"))


@pytest.mark.parametrize("eliminated, expected", [
    ((), -2),
    ((GREY,), 1),
    ((PINK,), 1),
    ((GREY, PINK), 1),
    ((PINK, BLUE, GREY), 1),
    ((BLUE, RED, GREEN), -2),
])
def test_contract_eliminated_grey_or_pink(eliminated, expected):
    r = finished({GREEN: 5}, eliminated, winner=PURPLE)
    assert payoff(r, ELIM_GREY_PINK, PURPLE) == (expected, expected > 0)


BEFORE_GREEN_RED = S.card_index("before", ("green", "red"))


@pytest.mark.parametrize("name, on_track, eliminated, winner, expected", [
    ("green ahead on the track", {GREEN: 12, RED: 5}, (), BLUE, 2),
    ("red ahead on the track", {GREEN: 5, RED: 12}, (), BLUE, -2),
    ("red eliminated, green on the track", {GREEN: 5}, (RED,), BLUE, 2),
    ("red eliminated, green in the start area", {}, (RED,), BLUE, 2),
    ("both eliminated, red first", {}, (RED, GREEN), BLUE, 2),
    ("both eliminated, green first", {}, (GREEN, RED), BLUE, -2),
    ("green eliminated, red in the start area", {}, (GREEN,), BLUE, -2),
    ("both in the start area: a tie is not ahead", {BLUE: 3}, (), PINK, -2),
    ("green wins", {RED: 30}, (), GREEN, 2),
    ("red wins", {GREEN: 30}, (), RED, -2),
])
def test_contract_before_green_red(name, on_track, eliminated, winner, expected):
    r = finished(on_track, eliminated, winner=winner)
    assert payoff(r, BEFORE_GREEN_RED, winner) == (expected, expected > 0), name


TOP3_BLUE = S.card_index("top3", ("blue",))


@pytest.mark.parametrize("name, on_track, eliminated, winner, expected", [
    ("blue wins", {}, (), BLUE, 3),
    ("blue third", {GREY: 20, BLUE: 10, RED: 4}, (), GREEN, 3),
    ("blue fourth", {GREY: 20, PINK: 15, BLUE: 10, RED: 4}, (), GREEN, -2),
    # competition ranking: winner 1st, grey 2nd, four in the start area share 3rd
    ("blue in the start area, tie for third", {GREY: 20}, (), GREEN, 3),
    ("blue in the start area, tie for fourth", {GREY: 20, RED: 18}, (), GREEN, -2),
    # eliminated take the last places in reverse order: the 4th out is 3rd
    ("blue eliminated fourth of four", {GREY: 20}, (RED, PINK, PURPLE, BLUE), GREEN, 3),
    ("blue eliminated third of four", {GREY: 20}, (RED, PINK, BLUE, PURPLE), GREEN, -2),
])
def test_contract_top3_blue(name, on_track, eliminated, winner, expected):
    r = finished(on_track, eliminated, winner=winner)
    assert payoff(r, TOP3_BLUE, winner) == (expected, expected > 0), name


AT_MOST_ONE = S.card_index("at_most_one_eliminated")
AT_LEAST_THREE = S.card_index("at_least_three_eliminated")


@pytest.mark.parametrize("n_out, at_most_one, at_least_three", [
    (0, 4, -2), (1, 4, -2), (2, -2, -2), (3, -2, 4), (4, -2, 4),
])
def test_contracts_counting_eliminations(n_out, at_most_one, at_least_three):
    out = (BLUE, GREY, GREEN, PURPLE)[:n_out]
    r = finished({PINK: 10}, out, winner=RED)
    assert payoff(r, AT_MOST_ONE, RED)[0] == at_most_one
    assert payoff(r, AT_LEAST_THREE, RED)[0] == at_least_three


def test_at_least_three_with_last_lemming_standing():
    r = finished({RED: 10}, (BLUE, GREY, GREEN, PURPLE, PINK), winner=RED, last_standing=True)
    assert payoff(r, AT_LEAST_THREE, RED) == (4, True)
    assert payoff(r, AT_MOST_ONE, RED) == (-2, False)


WINNER_CLEAN = S.card_index("winner_clean")


@pytest.mark.parametrize("blocks, expected", [(0, 5), (1, -2), (2, -2)])
def test_contract_winner_clean_water(blocks, expected):
    r = finished({GREY: 10, BLUE: 3}, (), winner=PINK, winner_blocks=blocks)
    assert payoff(r, WINNER_CLEAN, PINK) == (expected, expected > 0)


@pytest.mark.parametrize("blocks, expected", [(0, 5), (1, -2), (2, -2)])
def test_contract_winner_clean_last_standing(blocks, expected):
    """The last lemming standing wins wherever it stands; its blocks count."""
    r = finished({PURPLE: 6}, (BLUE, GREY, GREEN, PINK, RED), winner=PURPLE,
                 winner_blocks=blocks, last_standing=True)
    assert payoff(r, WINNER_CLEAN, PURPLE) == (expected, expected > 0)


def test_every_kind_pays_its_printed_points_and_minus_two():
    r = finished({GREY: 10}, (PINK,), winner=BLUE)
    expected = {  # fulfilled in this race?
        "eliminated": {("grey", "pink"): True, ("blue", "red"): False, ("green", "purple"): False},
        "before": {("green", "red"): False, ("blue", "grey"): True, ("purple", "pink"): True},
        "top3": {("blue",): True, ("grey",): True, ("green",): True, ("purple",): True,
                 ("pink",): False, ("red",): True},  # three in the start area share 3rd
        "at_most_one_eliminated": {(): True},
        "at_least_three_eliminated": {(): False},
        "winner_clean": {(): True},
    }
    for card, (kind, colors, points) in enumerate(S.DEFAULT_DECK.cards):
        ok = expected[kind][tuple(colors)]
        assert payoff(r, card, BLUE) == ((points if ok else RULES.box()["unfulfilled_contract"]), ok), (kind, colors)
        assert points == L.KIND_POINTS[L.CONTRACT_KINDS.index(kind)]


def test_discarded_contracts_score_zero_whether_fulfilled_or_not():
    r = finished({GREY: 10}, (), winner=BLUE)
    good, bad = WINNER_CLEAN, S.card_index("at_least_three_eliminated")
    r.set_contracts(0, [good, bad, TOP3_BLUE], held=(0, 0, 1))
    r.state[L.PUB_HELD_COUNT] = 1
    _, players, contracts, _ = r.score(BLUE)
    assert list(contracts[0, :, L.CT_DISCARDED]) == [1, 1, 0]
    assert list(contracts[0, :, L.CT_FULFILLED]) == [1, 0, 1]
    assert list(contracts[0, :, L.CT_PAYOFF]) == [0, 0, 3]
    assert players[0, L.PL_CONTRACT_POINTS] == 3 and players[0, L.PL_DISCARDED] == 2
    # the same cards held: +5, -2, +3
    r.set_contracts(0, [good, bad, TOP3_BLUE], held=(1, 1, 1))
    _, players, contracts, _ = r.score(BLUE)
    assert list(contracts[0, :, L.CT_PAYOFF]) == [5, -2, 3]
    assert players[0, L.PL_CONTRACT_POINTS] == 6 and players[0, L.PL_DISCARDED] == 0


def test_discard_records_the_turn():
    r = race()
    r.state[L.PUB_TURN] = 13
    rules.discard(r.game, r.state, r.hidden, 1, 2)
    _, players, contracts, _ = r.score(BLUE)
    assert list(contracts[1, :, L.CT_DISCARD_TURN]) == [0, 0, 13]
    assert list(contracts[1, :, L.CT_DISCARDED]) == [0, 0, 1]
    assert players[1, L.PL_DISCARDED] == 1
    assert r.state[L.PUB_HELD_COUNT + 1] == 2


# ---------------------------------------------------------------- tie-break

def tie_race(seat1_stack, seat1_cards_held):
    """Grey wins with nobody eliminated. Seat 0: grey 5th on its stack, no
    contracts held (score 5, contract points 0)."""
    r = finished({BLUE: 10}, (), winner=GREY)
    r.bet(0, PURPLE, BLUE, GREEN, RED, GREY)
    for seat in range(4):
        r.discard_all(seat)
    r.bet(1, *seat1_stack)
    if seat1_cards_held:
        r.set_contracts(1, [AT_MOST_ONE, WINNER_CLEAN, TOP3_BLUE], held=seat1_cards_held)
    return r


def test_tie_broken_by_contract_points():
    # seat 1: grey first (1 point) and at_most_one_eliminated held (+4): 5 as well
    r = tie_race((GREY,), (1, 0, 0))
    race_row, players, _, _ = r.score(GREY)
    assert list(players[:, L.PL_SCORE]) == [5, 5, 0, 0]
    assert list(players[:, L.PL_CONTRACT_POINTS]) == [0, 4, 0, 0]
    assert list(players[:, L.PL_WON]) == [0, 1, 0, 0]
    assert race_row[L.RACE_TIEBREAK] == 1 and race_row[L.RACE_N_WINNERS] == 1


def test_remaining_tie_is_a_shared_win():
    r = tie_race((BLUE, GREEN, RED, PURPLE, GREY), None)
    race_row, players, _, _ = r.score(GREY)
    assert list(players[:, L.PL_SCORE]) == [5, 5, 0, 0]
    assert list(players[:, L.PL_WON]) == [1, 1, 0, 0]
    assert race_row[L.RACE_N_WINNERS] == 2


def test_higher_total_wins_before_contract_points():
    # seat 1: grey 2nd (2) + at_most_one (+4) = 6 beats seat 0's 5
    r = tie_race((BLUE, GREY), (1, 0, 0))
    race_row, players, _, _ = r.score(GREY)
    assert list(players[:, L.PL_SCORE]) == [5, 6, 0, 0]
    assert list(players[:, L.PL_WON]) == [0, 1, 0, 0]
    assert race_row[L.RACE_TIEBREAK] == 0 and race_row[L.RACE_N_WINNERS] == 1
    # seat 1 with more contract points but a lower total loses
    r = tie_race((GREY,), (0, 0, 1))  # grey 1st (1) + top3 blue (blue is 2nd: +3) = 4
    race_row, players, _, _ = r.score(GREY)
    assert list(players[:, L.PL_SCORE]) == [5, 4, 0, 0]
    assert list(players[:, L.PL_WON]) == [1, 0, 0, 0]


def test_negative_scores_still_have_a_winner():
    r = finished({BLUE: 10}, (), winner=GREY)
    for seat in range(4):
        r.set_contracts(seat, [AT_LEAST_THREE] * 3)  # -6 each, nobody bet
    r.set_contracts(3, [AT_LEAST_THREE, AT_LEAST_THREE, WINNER_CLEAN])  # -4 + 5 = 1
    race_row, players, _, _ = r.score(GREY)
    assert list(players[:, L.PL_SCORE]) == [-6, -6, -6, 1]
    assert list(players[:, L.PL_WON]) == [0, 0, 0, 1]


# ----------------------------------------------------------- final places

def test_final_places_competition_ranking_with_start_area_tie():
    r = finished({GREEN: 20, BLUE: 5}, (PINK,), winner=RED)
    race_row, _, _, _ = r.score(RED)
    places = dict(zip(L.COLORS, race_row[L.RACE_PLACE:L.RACE_PLACE + 6]))
    # red 1st, green 2nd, blue 3rd, grey and purple share 4th, pink (out) 6th
    assert places == {"red": 1, "green": 2, "blue": 3, "grey": 4, "purple": 4, "pink": 6}
    assert race_row[L.RACE_N_ELIM] == 1
    assert race_row[L.RACE_WINNER] == RED


def test_final_places_eliminated_in_reverse_order():
    r = finished({GREEN: 20, BLUE: 5, GREY: 9}, (PINK, PURPLE), winner=RED)
    race_row, _, _, _ = r.score(RED)
    places = dict(zip(L.COLORS, race_row[L.RACE_PLACE:L.RACE_PLACE + 6]))
    assert places == {"red": 1, "green": 2, "grey": 3, "blue": 4, "purple": 5, "pink": 6}
    assert list(race_row[L.RACE_BLOCKS:L.RACE_BLOCKS + 6]) == [0, 0, 0, 3, 3, 0]


def test_final_places_last_lemming_standing():
    r = finished({}, (GREY, RED, BLUE, PINK, GREEN), winner=PURPLE, last_standing=True,
                 winner_blocks=1)
    race_row, _, _, _ = r.score(PURPLE)
    places = dict(zip(L.COLORS, race_row[L.RACE_PLACE:L.RACE_PLACE + 6]))
    assert places == {"purple": 1, "green": 2, "pink": 3, "blue": 4, "red": 5, "grey": 6}
    assert race_row[L.RACE_WINNER_BLOCKS] == 1 and race_row[L.RACE_N_ELIM] == 5


def test_track_place_everyone_in_start_area_shares_first():
    r = race()
    assert r.places() == [1] * 6
    r.put(PINK, 0)
    assert r.places() == [2, 2, 2, 2, 1, 2]


# ----------------------------------------------------------- concrete blocks

def test_third_block_eliminates_and_frees_the_field():
    r = race()
    r.put(BLUE, 2)
    r.put(GREY, 5)
    assert rules.give_block(r.game, r.state, BLUE) == rules.NO_WINNER
    assert rules.give_block(r.game, r.state, BLUE) == rules.NO_WINNER
    assert (r.blocks(BLUE), r.pos(BLUE), r.occupant(2), r.out(BLUE)) == (2, 2, BLUE, 0)
    assert rules.give_block(r.game, r.state, BLUE) == rules.NO_WINNER
    assert r.out(BLUE) == 1 and r.pos(BLUE) == L.ELIMINATED_POS
    assert r.occupant(2) == -1 and r.n_elim() == 1 and r.blocks(BLUE) == 3
    assert r.occupant(5) == GREY
    # the next one out is the second
    r.eliminate(GREY)
    assert r.out(GREY) == 2 and r.occupant(5) == -1 and r.n_elim() == 2


def test_last_lemming_standing_wins():
    r = race()
    for lem, field in zip(range(6), (1, 4, 7, 10, 13, 16)):
        r.put(lem, field)
    for lem in (RED, BLUE, PINK, GREY):
        assert r.eliminate(lem) == rules.NO_WINNER
    rules.give_block(r.game, r.state, GREEN)
    rules.give_block(r.game, r.state, GREEN)
    assert rules.give_block(r.game, r.state, GREEN) == PURPLE
    assert r.n_elim() == 5 and r.out(PURPLE) == 0 and r.pos(PURPLE) == 10
