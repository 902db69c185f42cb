"""Scripted situations for the rules of shared/rules/mafia.md: each space type,
the encounters of (d) 2 and 3, shootouts with and without their cards, the
marker rule, the cards in their windows, returns, the end conditions, the
commission freeze and the four-player State-piece move. Dice and decisions come
from a script (the scripted bot answers "no" / the first option once its
script is used up); every test checks the script was used to the end."""
import numpy as np
import pytest

from analyzer.games.mafia import kernel as K
from analyzer.games.mafia import layout as L
from tests.games.mafia.mafia_support import (
    AGRIGENTO, AUGUSTA, BAGHERIA, BLACK, CALTAVUTURO, CATANIA, CC1, CC2, CEFALU, ENNA, GREEN, MESSINA,
    ORANGE, PALERMO, PATTI, RED, SANT_AGATA, SIRACUSA, STATE, TAORMINA, TERMINI, Table, boss, picciotto,
)

P1 = picciotto(RED, 1)
P2 = picciotto(RED, 2)


def alone(*keep, players=5):
    """A table with every piece but ``keep`` out of the game (they neither act nor return)."""
    return Table(players).box_all(L.OUT, keep=keep)


# ---------------------------------------------------------------------- (d) 1: the space acts

def test_roadblock_holds_a_picciotto_on_its_trigger():
    t = alone(P1).put(P1, CEFALU).dice(2).resolve(P1)
    assert t.where(P1) == L.BARRACKS and t.counter("holds_roadblock") == 1 and t.counter("holds") == 1
    assert t.script_done()


def test_roadblock_lets_it_through_off_its_trigger_and_it_acts():
    t = alone(P1).put(P1, CEFALU).dice(3, 4).resolve(P1)  # 3: not a trigger; 4: even, a marker
    assert t.where(P1) == CEFALU and t.markers(CEFALU, RED) == 1 and t.script_done()


def test_roadblock_does_not_stop_state_pieces():
    t = alone(L.PREFECT).put(L.PREFECT, CEFALU).dice(1).resolve(L.PREFECT)
    assert t.where(L.PREFECT) == CEFALU and t.s[L.S_DIE_I] == 0  # no roll


def test_ambush_eliminates_any_piece_on_its_trigger():
    t = alone(CC1).put(CC1, PATTI).dice(1).resolve(CC1)
    assert t.where(CC1) == L.CONTINENT and t.side_counter(STATE, "pieces_lost") == 1
    t = alone(CC1).put(CC1, PATTI).dice(2).resolve(CC1)  # no marker there: the CC rolls nothing more
    assert t.where(CC1) == PATTI and t.script_done()


def test_restaurant_blows_up_every_piece_in_it():
    t = alone(boss(RED), picciotto(BLACK), CC2)
    t.put(boss(RED), TAORMINA).put(picciotto(BLACK), TAORMINA).put(CC2, TAORMINA).dice(2).resolve(boss(RED))
    assert [t.where(p) for p in (boss(RED), picciotto(BLACK), CC2)] == [L.CONTINENT] * 3
    assert t.counter("restaurant_explosions") == 1 and t.counter("eliminations") == 3 and t.script_done()


def test_bomb_attack_spares_picciotti_and_sends_a_boss_away_with_its_usa_cards():
    t = alone(P1).put(P1, AGRIGENTO).dice(4).resolve(P1)  # 4: the marker roll, no bomb roll
    assert t.where(P1) == AGRIGENTO and t.markers(AGRIGENTO, RED) == 1 and t.script_done()
    t = alone(boss(RED)).give(RED, L.SPY, L.LAS_VEGAS).put(boss(RED), AGRIGENTO).dice(1).resolve(boss(RED))
    assert t.where(boss(RED)) == L.CONTINENT and t.hand(RED) == [] and t.script_done()


def test_commission_freezes_the_boss_family_for_its_next_turn():
    t = Table().put(boss(RED), CALTAVUTURO).dice(3).resolve(boss(RED))
    assert t.s[L.S_FROZEN + RED] == 1 and t.counter("commission_freezes") == 1
    before = t.s[L.S_LOC:L.S_LOC + L.N_PIECES].copy()
    t.dice(6, 6).turn(RED)  # returns only: no roll, nothing moves
    assert (t.s[L.S_LOC:L.S_LOC + L.N_PIECES] == before).all() and t.s[L.S_DIE_I] == 0
    assert t.counter("side_turns_frozen") == 1 and t.s[L.S_FROZEN + RED] == 0


def test_commission_on_the_prefect_freezes_the_state_or_with_four_players_the_next_state_move():
    t = alone(L.PREFECT).put(L.PREFECT, CALTAVUTURO).dice(1).resolve(L.PREFECT)
    assert t.s[L.S_FROZEN + STATE] == 1
    t = Table(players=4).box_all(keep=(L.PREFECT,)).put(L.PREFECT, CALTAVUTURO).dice(1)
    t.resolve(L.PREFECT, side=RED)
    assert t.s[L.S_STATE_PIECE_FROZEN] == 1 and t.s[L.S_FROZEN + STATE] == 0


def test_leak_gives_up_a_card_of_the_owner_choice():
    t = alone(P1).give(RED, L.GOV_PROTECTION, L.SPY).put(P1, AUGUSTA).answers(1).dice(1).resolve(P1)
    assert t.hand(RED) == [L.GOV_PROTECTION] and t.counter("given_up") == 1 and t.script_done()
    t = alone(CC1).give(STATE, L.WIRETAP, L.FIRST_SISDE).put(CC1, AUGUSTA).answers(1).resolve(CC1)
    assert t.hand(STATE) == [L.WIRETAP] and t.script_done()


def test_city_never_holds_a_marker():
    t = alone(boss(RED)).put(boss(RED), ENNA).resolve(boss(RED))
    assert t.markers(ENNA, RED) == 0 and t.supply(RED) == 8


# ---------------------------------------------------------------------- telephones

def test_boss_telephones_the_usa_unless_the_state_plays_wiretap():
    t = alone(boss(RED)).put(boss(RED), MESSINA).resolve(boss(RED))
    assert len(t.hand(RED)) == 1 and t.markers(MESSINA, RED) == 1 and t.counter("drawn_usa") == 1
    t = alone(boss(RED)).give(STATE, L.WIRETAP).put(boss(RED), MESSINA).answers(1).resolve(boss(RED))
    assert t.hand(RED) == [] and t.holder(L.WIRETAP) == -1 and t.plays() == [(STATE, L.WIRETAP)]
    assert t.markers(MESSINA, RED) == 1 and t.script_done()


def test_prefect_telephones_rome():
    t = alone(L.PREFECT).put(L.PREFECT, SIRACUSA).resolve(L.PREFECT)
    hand = t.hand(STATE)
    assert len(hand) == 1 and L.DECK_SIZE <= hand[0] < 2 * L.DECK_SIZE


# ---------------------------------------------------------------------- (d) 2: encounters

def test_prefect_arrests_an_arriving_picciotto():
    t = alone(P1, L.PREFECT).put(L.PREFECT, BAGHERIA).put(P1, BAGHERIA).resolve(P1)
    assert t.where(P1) == L.PRISON and t.counter("arrests") == 1 and t.script_done()


def test_las_vegas_killer_lets_the_picciotto_shoot_the_prefect_first():
    t = alone(P1, L.PREFECT).give(RED, L.LAS_VEGAS).give(STATE, L.WIRETAP)
    t.put(L.PREFECT, BAGHERIA).put(P1, BAGHERIA).answers(1).dice(1, 2, 4).resolve(P1)
    # the Picciotto hits (1), the Prefect misses (2): no arrest, and the State's cards go back
    assert t.where(L.PREFECT) == L.CONTINENT and t.where(P1) == BAGHERIA and t.hand(STATE) == []
    assert t.markers(BAGHERIA, RED) == 1 and t.plays() == [(RED, L.LAS_VEGAS)] and t.script_done()


def test_a_cc_arrest_resisted_in_a_shootout_both_alive():
    t = alone(P1, CC1).put(CC1, BAGHERIA).put(P1, BAGHERIA).answers(1, 1).dice(2, 4).resolve(P1)
    assert t.where(P1) == L.PRISON and t.where(CC1) == BAGHERIA and t.counter("shootouts") == 1
    assert t.script_done()


def test_a_cc_arrest_resisted_and_the_cc_falls():
    t = alone(P1, CC1).put(CC1, BAGHERIA).put(P1, BAGHERIA).answers(1, 1).dice(3, 2, 6).resolve(P1)
    assert t.where(CC1) == L.CONTINENT and t.where(P1) == BAGHERIA and t.markers(BAGHERIA, RED) == 1
    assert t.script_done()


def test_a_boss_of_another_family_forbids_every_activity():
    t = alone(P1, boss(BLACK)).put(boss(BLACK), BAGHERIA).put(P1, BAGHERIA).answers(1).dice(2).resolve(P1)
    assert t.markers(BAGHERIA, RED) == 0 and t.s[L.S_DIE_I] == 0  # no marker roll


def test_a_picciotto_of_another_family_may_shoot_the_arriving_one():
    t = alone(P1, picciotto(BLACK)).put(picciotto(BLACK), BAGHERIA).put(P1, BAGHERIA)
    t.answers(1).dice(3, 5).resolve(P1)  # both hit
    assert t.where(P1) == L.CONTINENT and t.where(picciotto(BLACK)) == L.CONTINENT and t.script_done()


def test_prefect_holds_an_arriving_boss_or_with_the_sisde_pair_arrests_it():
    t = alone(boss(RED), L.PREFECT).put(L.PREFECT, BAGHERIA).put(boss(RED), BAGHERIA).resolve(boss(RED))
    assert t.where(boss(RED)) == L.BARRACKS and t.counter("holds") == 1
    t = alone(boss(RED), L.PREFECT).give(STATE, L.FIRST_SISDE, L.FIRST_SISDE + 1)
    t.put(L.PREFECT, BAGHERIA).put(boss(RED), BAGHERIA).answers(1).resolve(boss(RED))
    assert t.where(boss(RED)) == L.PRISON and t.counter("played_sisde") == 2
    assert t.plays() == [(STATE, L.PLAY_SISDE_PAIR)] and t.hand(STATE) == [] and t.script_done()


def test_a_boss_in_its_own_base_is_held_only_with_hideout_found():
    t = alone(boss(RED), L.PREFECT).put(L.PREFECT, PALERMO).put(boss(RED), PALERMO).resolve(boss(RED))
    assert t.where(boss(RED)) == PALERMO
    t = alone(boss(RED), L.PREFECT).give(STATE, L.HIDEOUT).put(L.PREFECT, PALERMO).put(boss(RED), PALERMO)
    t.answers(1).resolve(boss(RED))
    assert t.where(boss(RED)) == L.BARRACKS and t.script_done()
    # a CC: the State decides to hold, then plays the card
    t = alone(boss(RED), CC1).give(STATE, L.HIDEOUT).put(CC1, PALERMO).put(boss(RED), PALERMO)
    t.answers(1, 1).resolve(boss(RED))
    assert t.where(boss(RED)) == L.BARRACKS and t.script_done()


def test_a_boss_can_be_shot_by_another_boss():
    t = alone(boss(RED), boss(BLACK)).put(boss(BLACK), BAGHERIA).put(boss(RED), BAGHERIA)
    t.answers(1).dice(1, 4).resolve(boss(RED))  # black starts and hits; red misses
    assert t.where(boss(RED)) == L.CONTINENT and t.where(boss(BLACK)) == BAGHERIA and t.script_done()


def test_an_arriving_prefect_may_be_shot_with_las_vegas_killer():
    t = alone(L.PREFECT, P1).give(RED, L.LAS_VEGAS).put(P1, BAGHERIA).put(L.PREFECT, BAGHERIA)
    t.answers(1).dice(5, 1).resolve(L.PREFECT)  # both hit
    assert t.where(L.PREFECT) == L.CONTINENT and t.where(P1) == L.CONTINENT and t.script_done()


# ---------------------------------------------------------------------- (d) 3: the moved piece acts

def test_the_prefect_arrests_picciotti_holds_bosses_removes_one_marker():
    t = alone(L.PREFECT, P1, P2, boss(BLACK)).mark(BAGHERIA, RED, 2)
    for p in (P1, P2, boss(BLACK)):
        t.put(p, BAGHERIA)
    t.put(L.PREFECT, BAGHERIA).resolve(L.PREFECT)
    assert [t.where(p) for p in (P1, P2, boss(BLACK))] == [L.PRISON, L.PRISON, L.BARRACKS]
    assert t.markers(BAGHERIA, RED) == 1 and t.supply(RED) == 7 and t.counter("markers_removed") == 1


def test_a_cc_removes_a_marker_on_an_even_die():
    t = alone(CC1).mark(BAGHERIA, RED, 1).put(CC1, BAGHERIA).dice(3).resolve(CC1)
    assert t.markers(BAGHERIA, RED) == 1
    t = alone(CC1).mark(BAGHERIA, RED, 1).put(CC1, BAGHERIA).dice(6).resolve(CC1)
    assert t.markers(BAGHERIA, RED) == 0 and t.supply(RED) == 8 and t.script_done()


def test_the_sisde_draws_one_card_per_mafioso():
    t = alone(L.SISDE, P1, P2, boss(BLACK))
    for p in (P1, P2, boss(BLACK), L.SISDE):
        t.put(p, BAGHERIA)
    t.resolve(L.SISDE)
    assert len(t.hand(STATE)) == 3 and all(c >= L.FIRST_SISDE for c in t.hand(STATE))
    assert t.counter("drawn_sisde") == 3


def test_the_marker_rule_with_several_markers():
    t = alone(boss(RED)).mark(BAGHERIA, BLACK, 2).put(boss(RED), BAGHERIA).resolve(boss(RED))
    assert (t.markers(BAGHERIA, BLACK), t.markers(BAGHERIA, RED)) == (1, 0)  # one of theirs off, none placed
    t.resolve(boss(RED))
    assert (t.markers(BAGHERIA, BLACK), t.markers(BAGHERIA, RED)) == (0, 1)
    t.resolve(boss(RED))
    assert t.markers(BAGHERIA, RED) == 2 and t.supply(RED) == 6 and t.supply(BLACK) == 8


def test_a_picciotto_places_a_marker_on_an_even_die_only():
    t = alone(P1).put(P1, BAGHERIA).dice(5).resolve(P1)
    assert t.markers(BAGHERIA, RED) == 0
    t.dice(2).resolve(P1)
    assert t.markers(BAGHERIA, RED) == 1 and t.script_done()


# ---------------------------------------------------------------------- shootouts and their cards

def test_special_weapons_hit_on_two():
    t = alone(P1, picciotto(BLACK)).give(BLACK, L.SPECIAL_WEAPONS).put(picciotto(BLACK), BAGHERIA)
    t.put(P1, BAGHERIA).answers(1, 1).dice(2, 4).resolve(P1)  # black shoots with the card: 2 hits
    assert t.where(P1) == L.CONTINENT and t.where(picciotto(BLACK)) == BAGHERIA
    assert t.plays() == [(BLACK, L.SPECIAL_WEAPONS)] and t.script_done()


def test_with_special_weapons_a_one_misses():
    t = alone(P1, picciotto(BLACK)).give(BLACK, L.SPECIAL_WEAPONS).put(picciotto(BLACK), BAGHERIA)
    t.put(P1, BAGHERIA).answers(1, 1).dice(1, 4, 2).resolve(P1)  # black rolls 1: a miss with the card
    assert t.where(P1) == BAGHERIA and t.where(picciotto(BLACK)) == BAGHERIA and t.script_done()


def test_anti_gang_brigade_hits_without_rolling():
    t = alone(P1, CC1).give(STATE, L.ANTI_GANG).put(CC1, BAGHERIA).put(P1, BAGHERIA)
    t.answers(1, 1, 1).dice(2).resolve(P1)  # arrest, resist, the State plays the card; P1 rolls 2
    assert t.where(P1) == L.CONTINENT and t.where(CC1) == BAGHERIA and t.script_done()


# ---------------------------------------------------------------------- (a) returns and their cards

def test_returns_roll_continent_then_prison_then_barracks():
    t = Table().put(boss(RED), L.PRISON).put(P1, L.BARRACKS).put(P2, L.CONTINENT)
    # P2 5 (back), the Boss 6 (back), P1 3 (stays); then the roll 1-1, the Boss by 2 to Termini
    t.dice(5, 6, 3, 1, 1).answers(0).turn(RED)
    assert t.where(P2) == PALERMO and t.where(P1) == L.BARRACKS and t.where(boss(RED)) == TERMINI
    assert t.markers(TERMINI, RED) == 1 and t.script_done()


def test_protection_cards_free_without_a_roll_and_judiciary_support_keeps_a_piece_in():
    t = Table().give(RED, L.GOV_PROTECTION, L.NOTABLE_PROTECTION).put(boss(RED), L.PRISON).put(P1, L.BARRACKS)
    t.answers(1, 1).dice(1, 1).turn(RED)  # both cards; then the roll, a move of the Boss by 2
    assert t.where(P1) >= 0 and t.where(boss(RED)) >= 0 and t.hand(RED) == []
    t = Table().give(STATE, L.JUDICIARY).put(boss(RED), L.PRISON).answers(1).dice(6, 1, 1).turn(RED)
    assert t.where(boss(RED)) == L.PRISON and t.plays() == [(STATE, L.JUDICIARY)]


# ---------------------------------------------------------------------- cards at the turn's edges

def test_american_boss_visit_adds_a_marker_at_the_end_of_the_turn():
    t = Table().mark(BAGHERIA, RED, 1).mark(SANT_AGATA, RED, 1).give(RED, L.AMERICAN_BOSS)
    move = t.move_option(RED, 1, 1, (boss(RED), BAGHERIA, 1), (P1, BAGHERIA, 1))
    t.dice(1, 1, 1).answers(move, 1, 1).turn(RED)  # P1's marker roll 1: none; the visit on Sant'Agata
    assert t.markers(SANT_AGATA, RED) == 2 and t.markers(BAGHERIA, RED) == 2 and t.script_done()


def test_airport_bomb_closes_the_air_link_for_the_state():
    t = alone(L.PREFECT).give(RED, L.AIRPORT_BOMB).answers(1, 1).dice(1, 2, 5).turn(STATE)
    assert t.where(L.PREFECT) == CALTAVUTURO and t.counter("air_moves") == 0 and t.script_done()
    t = alone(L.PREFECT).answers(2).dice(1, 2).turn(STATE)  # open: the third path flies
    assert t.where(L.PREFECT) == SIRACUSA and t.counter("air_moves") == 1


def test_ati_strike_closes_the_air_link_for_a_family():
    t = alone(boss(RED)).give(STATE, L.ATI_STRIKE).answers(1).dice(1, 2)
    t.turn(RED)  # only two paths left: the first, to Cefalù (a roadblock roll from the stream)
    assert t.counter("air_moves") == 0 and t.plays() == [(STATE, L.ATI_STRIKE)]


def test_heliborne_operation_sets_each_die_within_two():
    t = alone(L.PREFECT).give(STATE, L.HELIBORNE).answers(1, 4, 0, 0).dice(3, 3).turn(STATE)
    assert (t.s[L.S_DICE], t.s[L.S_DICE + 1]) == (5, 1) and t.where(L.PREFECT) == 6  # Milazzo
    assert t.script_done()


def test_anti_mafia_operation_turns_a_space_into_a_roadblock():
    t = alone(L.PREFECT).give(STATE, L.ANTI_MAFIA).answers(1, 1, 0).dice(1, 2, 5).turn(STATE)
    assert t.s[L.S_TYPE + BAGHERIA] == L.ROADBLOCK and t.s[L.S_TRIGGER + BAGHERIA] == L.ANTI_MAFIA_TRIGGER
    assert t.script_done()


def test_spy_at_the_prefecture_opens_when_the_state_holds_a_card():
    t = alone(P1).give(RED, L.SPY).give(STATE, L.WIRETAP).put(P1, BAGHERIA).answers(1).dice(1, 1, 1)
    t.turn(RED)
    assert t.plays()[0] == (RED, L.SPY)


# ---------------------------------------------------------------------- the end

def play_on(t):
    K.calendar(t.game, t.s, t.paths, t.spaces, t.cards, t.trace)
    return L.OUTCOMES[t.s[L.S_GM + L.GM_OUTCOME]]


def test_a_family_with_four_spaces_wins_at_the_start_of_its_turn():
    t = Table()
    for x in (BAGHERIA, TERMINI, SANT_AGATA, PATTI):
        t.mark(x, RED, 1)
    assert play_on(t) == "red" and t.counter("winner_spaces") == 4 and t.counter("side_turns") == 0


def test_with_three_players_a_family_needs_five():
    t2 = Table(players=3)
    for x in (BAGHERIA, TERMINI, SANT_AGATA, PATTI, MESSINA):
        t2.mark(x, RED, 1)
    assert play_on(t2) == "red"
    t3 = Table(players=3)
    for x in (BAGHERIA, TERMINI, SANT_AGATA, PATTI):
        t3.mark(x, RED, 1)
    assert play_on(t3) != "red" or t3.counter("side_turns") > 0  # four are not enough: the game goes on
    assert t3.counter("side_turns") > 0


def test_the_state_wins_with_four_purge_points():
    t = Table().put(boss(ORANGE), L.PRISON).put(boss(GREEN), L.BARRACKS)
    t.put(picciotto(GREEN, 1), L.PRISON).put(picciotto(GREEN, 2), L.PRISON)  # 2 + 1 + 1/2 + 1/2
    assert play_on(t) == "state" and t.counter("side_turns") == 2  # red and black played first
    assert t.counter("purge_halves") >= 8


def test_with_four_players_four_purge_points_make_everyone_lose_after_the_family_check():
    t = Table(players=4).put(boss(ORANGE), L.PRISON).put(boss(GREEN), L.PRISON)
    assert play_on(t) == "all_lose" and t.counter("side_turns") == 0
    t = Table(players=4).put(boss(ORANGE), L.PRISON).put(boss(GREEN), L.PRISON)
    for x in (BAGHERIA, TERMINI, SANT_AGATA, PATTI):
        t.mark(x, RED, 1)
    assert play_on(t) == "red"


# ---------------------------------------------------------------------- four players: the State-piece move

def test_four_player_state_piece_move_draws_rome_and_sisde():
    t = Table(players=4).put(CC1, L.CONTINENT).put(CC2, L.CONTINENT).put(L.CC1 + 2, L.CONTINENT)
    t.put(boss(BLACK), SANT_AGATA).put(L.PREFECT, TERMINI).mark(SANT_AGATA, BLACK, 1)
    for c in range(L.FIRST_SISDE, L.N_CARDS):  # leave only black's clues in the SISDE deck
        if (c - L.FIRST_SISDE) // 2 != BLACK:
            t.give(STATE, c)
    move = t.move_option(RED, 1, 2, (boss(RED), BAGHERIA, 1), (P1, TERMINI, 2))
    # the three CCs fail to return (1, 1, 1); the roll 1-2; the Boss to Bagheria, P1 arrested at Termini;
    # then the Prefect by the 2 along the ring to Sant'Agata (the third option: two paths per die)
    t.dice(1, 1, 1, 1, 2).answers(move, 2).turn(RED)
    assert t.where(P1) == L.PRISON and t.where(L.PREFECT) == SANT_AGATA
    assert t.where(boss(BLACK)) == L.PRISON  # the hold became an arrest: the SISDE card was black's
    assert (RED, L.PLAY_SISDE_4P) in t.plays()
    assert t.counter("drawn_sisde") == 1 and t.counter("drawn_rome") == 2  # the hold and the marker
    assert t.markers(SANT_AGATA, BLACK) == 0
    assert [c for c in t.hand(RED) if c >= L.DECK_SIZE] == []  # the temporary cards went back
    assert t.script_done()


def test_four_players_a_frozen_state_move_is_skipped():
    t = Table(players=4)
    t.s[L.S_STATE_PIECE_FROZEN] = 1
    prefect = t.where(L.PREFECT)
    t.dice(1, 1).answers(0).turn(RED)
    assert t.where(L.PREFECT) == prefect and t.s[L.S_STATE_PIECE_FROZEN] == 0


@pytest.mark.parametrize("players", [3, 4, 5])
def test_seats_and_roles(players):
    assert L.seat_roles(players) == {5: ["family", "family", "state", "family", "family"],
                                     4: ["family"] * 4, 3: ["family", "family", "state"]}[players]
    assert np.array_equal(K.CALENDAR, [RED, BLACK, STATE, ORANGE, GREEN, STATE])
