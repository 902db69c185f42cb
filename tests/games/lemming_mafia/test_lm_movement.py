"""Moves and field actions through ``kernel.move_lemming`` on small scripted boards.

Most boards have one field per section, so that no field decision is asked and
the only draws of the race's stream are the getaway car's rolls; those are
scripted by searching a seed whose next draws are the wanted rolls
(``script_rolls``), then checked against the rules.
"""
import sys
from pathlib import Path

import numpy as np
import pytest

import tests.games.lemming_mafia.lm_support as S  # noqa: E402

from analyzer.games.lemming_mafia import layout as L  # noqa: E402
from analyzer.games.lemming_mafia import rules  # noqa: E402

BLUE, GREY, GREEN, PURPLE, PINK, RED = range(6)
NO_WINNER = rules.NO_WINNER


def water(lem):
    return lem * 2 + L.FINISH_WATER


def last_standing(lem):
    return lem * 2 + L.FINISH_LAST_STANDING


def script_rolls(r, *rolls):
    """Seed ``r``'s stream so that its next die rolls (1-6) are ``rolls``."""
    for seed in range(100000):
        r.reseed(seed, 12345)
        if [d + 1 for d in S.peek_draws(r.state, *([6] * len(rolls)))] == list(rolls):
            return
    raise AssertionError("no seed found")


def counters(r, field):
    at = r.game[L.G_H_COUNT_AT] + field * L.FIELD_LEN
    return int(r.hidden[at + L.FIELD_LANDINGS]), int(r.hidden[at + L.FIELD_TRIGGERS])


def single(*actions):
    """One field per section."""
    return [[a] for a in actions]


# ------------------------------------------------------------------ sections

SKIP_BOARD = [["empty"], ["empty", "empty"], ["concrete"], ["empty"], ["empty"]]  # fields 0 | 1 2 | 3 | 4 | 5


def test_from_start_area_to_first_section():
    r = S.Race(single("empty", "empty", "empty"))
    assert r.move(GREEN) == NO_WINNER
    assert r.pos(GREEN) == 0 and r.occupant(0) == GREEN
    assert r.move(GREEN) == NO_WINNER
    assert r.pos(GREEN) == 1 and r.occupant(0) == -1 and r.occupant(1) == GREEN
    assert r.move(RED) == NO_WINNER
    assert r.pos(RED) == 0
    # the first two sections are full: from the start area purple goes to the third
    assert r.move(PURPLE) == NO_WINNER
    assert r.pos(PURPLE) == 2


def test_full_section_is_skipped():
    r = S.Race(SKIP_BOARD)
    r.put(BLUE, 0)
    r.put(GREY, 1)
    r.put(GREEN, 2)
    n = rules.target_fields(r.game, r.state, BLUE, L.S_OPTIONS)
    assert n == 1 and r.state[L.S_OPTIONS] == 3
    assert r.move(BLUE) == NO_WINNER
    assert r.pos(BLUE) == 3 and r.occupant(0) == -1 and r.occupant(3) == BLUE
    assert r.blocks(BLUE) == 1  # the action of the field it lands on happens


def test_two_full_sections_are_skipped():
    r = S.Race(SKIP_BOARD)
    r.put(BLUE, 0)
    r.put(GREY, 1)
    r.put(GREEN, 2)
    r.put(PURPLE, 3)
    assert r.move(BLUE) == NO_WINNER
    assert r.pos(BLUE) == 4 and r.blocks(BLUE) == 0


def test_every_section_ahead_full_reaches_the_water():
    r = S.Race(SKIP_BOARD)
    r.put(BLUE, 0)
    r.put(GREY, 1)
    r.put(GREEN, 2)
    r.put(PURPLE, 3)
    r.put(PINK, 4)
    r.put(RED, 5)
    assert rules.target_fields(r.game, r.state, BLUE, L.S_OPTIONS) == 0
    assert r.move(BLUE) == water(BLUE)
    assert r.pos(BLUE) == r.n_fields and r.occupant(0) == -1
    assert r.state[L.PUB_WATER_FROM] == 0


def test_partly_taken_section_offers_the_free_fields_only():
    r = S.Race([["empty"], ["empty", "bookmaker", "concrete"], ["empty"]])
    r.put(GREY, 2)
    r.put(BLUE, 0)
    n = rules.target_fields(r.game, r.state, BLUE, L.S_OPTIONS)
    assert n == 2 and sorted(r.state[L.S_OPTIONS:L.S_OPTIONS + 2]) == [1, 3]
    landed = []
    for seed in range(400):
        r = S.Race([["empty"], ["empty", "bookmaker", "concrete"], ["empty"]], seed=seed)
        r.put(GREY, 2)
        r.put(BLUE, 0)
        assert r.move(BLUE, mover=seed % 4) == NO_WINNER  # a random bot picks the field
        landed.append(r.pos(BLUE))
        r.check_consistent()
    assert set(landed) == {1, 3}
    share = landed.count(1) / len(landed)
    assert abs(share - 0.5) < 4 * np.sqrt(0.25 / len(landed))


def test_moving_past_the_last_section_reaches_the_water():
    r = S.Race([["empty"], ["empty", "concrete"]])
    r.put(PINK, 2)
    assert r.move(PINK) == water(PINK)
    assert r.pos(PINK) == r.n_fields == 3
    assert r.occupant(2) == -1
    assert r.state[L.PUB_WATER_FROM] == 2
    assert r.blocks(PINK) == 0


# ------------------------------------------------------------------ actions

def test_concrete_adds_a_block_and_the_third_eliminates():
    r = S.Race(single("concrete", "concrete", "concrete", "empty"))
    r.put(RED, 1, blocks=1)
    assert r.move(RED) == NO_WINNER
    assert r.pos(RED) == 2 and r.blocks(RED) == 2
    assert counters(r, 2) == (1, 1)
    r.put(RED, 1)
    assert r.move(RED) == NO_WINNER
    assert r.out(RED) == 1 and r.pos(RED) == L.ELIMINATED_POS and r.blocks(RED) == 3
    assert r.occupant(1) == -1 and r.occupant(2) == -1  # it left the track at once
    r.check_consistent()


def test_fifth_elimination_by_concrete_ends_the_race():
    r = S.Race(single("empty", "concrete", "empty", "empty"))
    for lem in (BLUE, GREY, GREEN, PURPLE):
        r.eliminate(lem)
    r.put(RED, 3)
    r.put(PINK, 0, blocks=2)
    assert r.move(PINK) == last_standing(RED)
    assert r.n_elim() == 5 and r.out(PINK) == 5


@pytest.mark.parametrize("before, after, triggered", [(0, 0, 0), (1, 0, 1), (2, 1, 1)])
def test_jackhammer_removes_one_block_if_any(before, after, triggered):
    r = S.Race(single("empty", "jackhammer", "empty"))
    r.put(GREEN, 0, blocks=before)
    assert r.move(GREEN) == NO_WINNER
    assert r.pos(GREEN) == 1 and r.blocks(GREEN) == after
    assert counters(r, 1) == (1, triggered)


def test_bookmaker_round_of_random_bots():
    placed = 0
    n = 300
    for seed in range(n):
        r = S.Race(single("bookmaker", "empty"), seed=seed)
        r.bet(2, BLUE, GREY, GREEN, PURPLE, PINK, RED)  # an empty hand: seat 2 cannot bet
        assert r.move(BLUE) == NO_WINNER
        r.check_consistent()
        stacks = [int(r.own(s)[L.OWN_STACK_N]) for s in range(4)]
        assert stacks[2] == 6
        assert all(k in (0, 1) for k in stacks[:2] + stacks[3:])
        placed += sum(stacks[:2] + stacks[3:])
        assert counters(r, 0) == (1, 1)
    share = placed / (3 * n)
    assert abs(share - 0.5) < 4 * np.sqrt(0.25 / (3 * n))


def test_boss_round_of_random_bots():
    dropped = 0
    n = 300
    for seed in range(n):
        r = S.Race(single("boss", "empty"), seed=seed)
        r.discard_all(1)  # nothing held: seat 1 cannot discard
        assert r.move(PINK) == NO_WINNER
        r.check_consistent()
        held = [int(r.state[L.PUB_HELD_COUNT + s]) for s in range(4)]
        assert held[1] == 0
        assert all(k in (2, 3) for k in held[:1] + held[2:])
        dropped += sum(3 - k for k in held[:1] + held[2:])
    share = dropped / (3 * n)
    assert abs(share - 0.5) < 4 * np.sqrt(0.25 / (3 * n))


def test_empty_field_does_nothing():
    r = S.Race(single("empty", "empty"))
    r.put(BLUE, 0, blocks=1)
    before = r.state.copy(), r.hidden.copy()
    assert r.move(BLUE) == NO_WINNER
    assert r.pos(BLUE) == 1 and r.blocks(BLUE) == 1
    assert counters(r, 1) == (1, 0)
    assert (r.hidden[:r.players * L.OWN_LEN] == before[1][:r.players * L.OWN_LEN]).all()


# ------------------------------------------------------------------ getaway car

# fields: 0 empty, 1 getaway, 2 empty, 3 concrete, 4 jackhammer, 5 empty
GETAWAY_BOARD = single("empty", "getaway", "empty", "concrete", "jackhammer", "empty")


@pytest.mark.parametrize("roll", [5, 6])
def test_getaway_past_the_last_field_reaches_the_water(roll):
    r = S.Race(GETAWAY_BOARD)
    r.put(GREY, 0)
    script_rolls(r, roll)
    assert r.move(GREY) == water(GREY)
    assert r.pos(GREY) == r.n_fields and r.state[L.PUB_WATER_FROM] == 1
    assert r.occupant(0) == -1 and r.occupant(1) == -1
    assert counters(r, 1) == (1, 1)


@pytest.mark.parametrize("roll, field, blocks", [(1, 2, 1), (2, 3, 2), (3, 4, 0), (4, 5, 1)])
def test_getaway_moves_field_index_plus_roll_and_acts_there(roll, field, blocks):
    r = S.Race(GETAWAY_BOARD)
    r.put(GREY, 0, blocks=1)
    script_rolls(r, roll)
    assert r.move(GREY) == NO_WINNER
    assert r.pos(GREY) == field and r.blocks(GREY) == blocks
    assert r.occupant(1) == -1 and r.occupant(field) == GREY
    assert counters(r, 1) == (1, 1) and counters(r, field)[0] == 1
    r.check_consistent()


def test_getaway_into_a_taken_field_gives_a_block_instead():
    r = S.Race(GETAWAY_BOARD)
    r.put(GREY, 0)
    r.put(PINK, 4)
    script_rolls(r, 3)
    assert r.move(GREY) == NO_WINNER
    assert r.pos(GREY) == 1 and r.blocks(GREY) == 1  # stays on the getaway field
    assert r.occupant(1) == GREY and r.occupant(4) == PINK
    assert r.blocks(PINK) == 0
    assert counters(r, 4) == (0, 0)


def test_getaway_block_can_eliminate():
    r = S.Race(GETAWAY_BOARD)
    r.put(GREY, 0, blocks=2)
    r.put(PINK, 3)
    script_rolls(r, 2)
    assert r.move(GREY) == NO_WINNER
    assert r.out(GREY) == 1 and r.occupant(1) == -1 and r.occupant(3) == PINK
    r.check_consistent()


def test_getaway_block_can_leave_the_last_lemming_standing():
    r = S.Race(GETAWAY_BOARD)
    for lem in (BLUE, GREEN, PURPLE, RED):
        r.eliminate(lem)
    r.put(GREY, 0, blocks=2)
    r.put(PINK, 5)
    script_rolls(r, 4)
    assert r.move(GREY) == last_standing(PINK)


def test_chained_getaway():
    # fields: 0 empty, 1 getaway, 2 getaway, 3 empty, 4 concrete, 5..8 empty
    r = S.Race(single("empty", "getaway", "getaway", "empty", "concrete",
                      "empty", "empty", "empty", "empty"))
    r.put(BLUE, 0)
    script_rolls(r, 1, 2)  # 1 -> 2 (getaway again) -> 4 (concrete)
    assert r.move(BLUE) == NO_WINNER
    assert r.pos(BLUE) == 4 and r.blocks(BLUE) == 1
    assert [counters(r, f) for f in range(5)] == [(0, 0), (1, 1), (1, 1), (0, 0), (1, 1)]
    assert r.occupant(1) == -1 and r.occupant(2) == -1 and r.occupant(4) == BLUE


def test_chained_getaway_into_the_water():
    r = S.Race(single("empty", "getaway", "empty", "getaway", "empty"))
    r.put(RED, 0)
    script_rolls(r, 2, 2)  # 1 -> 3 -> 5 = past the last field (4)
    assert r.move(RED) == water(RED)
    assert r.state[L.PUB_WATER_FROM] == 3


def test_getaway_rolls_are_uniform_one_to_six():
    """Field index + roll over many seeds: each of the six targets about equally."""
    board = single(*(["empty", "getaway"] + ["empty"] * 8))
    counts = np.zeros(7, int)
    n = 3000
    r = S.Race(board)
    for i in range(n):
        r.put(GREEN, 0, blocks=0)
        r.reseed(99, i)
        assert r.move(GREEN) == NO_WINNER
        counts[r.pos(GREEN) - 1] += 1
    assert counts[0] == 0
    p = 1 / 6
    z = (counts[1:] / n - p) / np.sqrt(p * (1 - p) / n)
    assert np.all(np.abs(z) < 4), counts
