"""Mafia's rule numbers as data (``ruleset.py``, ``--rule``): each key changes play as
its words say, in a scripted situation (the kernel's own end checks, counters and
boxes) and in whole runs of the reference random bot with fixed seeds (the
engine's own records), against the box; the heuristic bots, the search bot's
playouts and the user-bot view read the variant; a variant compiles no kernel
again; ranges that depend on the map or other keys are refused in one line."""
import math

import numpy as np
import pytest

from analyzer.engine.botspec import parse_bot_list
from analyzer.errors import AnalyzerError
from analyzer.games.mafia import bots, flow, search
from analyzer.games.mafia import kernel as K
from analyzer.games.mafia import layout as L
from analyzer.games.mafia import view as V
from analyzer.games.mafia.match import MafiaMatch
from analyzer.games.mafia.ruleset import RULES
from analyzer.games.mafia.view import View
from tests.games.mafia.mafia_support import (
    BAGHERIA, BLACK, GREEN, MESSINA, ORANGE, PATTI, RED, SANT_AGATA, STATE, TERMINI, Table, boss, picciotto,
)

P1 = picciotto(RED, 1)
GAMES = 3000


def match(players, rules=None, bots=None, check=False):
    return MafiaMatch(None, players, parse_bot_list(bots or ",".join(["random"] * players)), check=check,
                      rules=RULES.rules(rules or {}))


def play(players, rules=None, games=GAMES, seed=7, bots=None):
    """A run's records (the kernel's games and sides rows)."""
    return match(players, rules, bots).play(seed, 0, games).view()


def column(chunk, name):
    return chunk.games[:, L.GM_COLUMNS.index(name)]


def z(a, b) -> float:
    """Two-sample z of a difference of means (pooled variance)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    var = np.concatenate([a, b]).var(ddof=1)
    return (a.mean() - b.mean()) / math.sqrt(var * (1 / len(a) + 1 / len(b)))


def alone(*keep, players=5, rules=None):
    """A table under ``rules`` with every piece but ``keep`` out of the game."""
    return Table(players, rules=rules).box_all(L.OUT, keep=keep)


def outcome(t, side):
    return L.OUTCOMES[K.turn_outcome(t.game, t.s, side)]


@pytest.fixture(scope="module")
def box5():
    return play(5)


# ---------------------------------------------------------------------- spaces_to_win

def test_spaces_to_win_is_what_a_family_needs_at_the_start_of_its_turn():
    for rules, four, five in ((None, "red", "red"), ({"spaces_to_win": {5: 5}}, "draw", "red")):
        t = Table(rules=rules)
        for x in (BAGHERIA, TERMINI, SANT_AGATA, PATTI):
            t.mark(x, RED, 1)
        assert outcome(t, RED) == four  # "draw": the game goes on
        t.mark(MESSINA, RED, 1)
        assert outcome(t, RED) == five
    # a table given in part keeps the box's other counts
    assert Table(3, rules={"spaces_to_win": {3: 4}}).game[L.G_WIN_SPACES] == 4
    assert Table(5, rules={"spaces_to_win": {3: 4}}).game[L.G_WIN_SPACES] == 4
    assert Table(3, rules={"spaces_to_win": {5: 6}}).game[L.G_WIN_SPACES] == 5


def test_with_five_spaces_to_win_every_family_wins_with_five_and_games_last_longer(box5):
    variant = play(5, {"spaces_to_win": {5: 5}})
    won = variant.games[:, L.GM_OUTCOME] >= L.OUT_RED
    box_won = box5.games[:, L.GM_OUTCOME] >= L.OUT_RED
    assert won.sum() > GAMES / 2 and (column(variant, "winner_spaces")[won] >= 5).all()
    assert (column(box5, "winner_spaces")[box_won] == 4).any()
    assert z(column(variant, "calendar_turns"), column(box5, "calendar_turns")) > 4


# ---------------------------------------------------------------------- purge_points_to_end

def test_purge_points_to_end_is_the_states_goal_and_with_four_players_everyone_loses_there():
    def purged(players, rules):  # 4 points: a Boss in Prison, two in the Barracks
        return Table(players, rules=rules).put(boss(ORANGE), L.PRISON).put(boss(GREEN), L.BARRACKS).put(
            boss(BLACK), L.BARRACKS)

    assert outcome(purged(5, None), STATE) == "state"
    assert outcome(purged(5, {"purge_points_to_end": 5}), STATE) == "draw"
    assert outcome(purged(5, {"purge_points_to_end": 5}).put(picciotto(RED), L.PRISON).put(
        picciotto(RED, 2), L.PRISON), STATE) == "state"  # 5 points
    three = Table(rules={"purge_points_to_end": 3}).put(boss(ORANGE), L.PRISON).put(boss(GREEN), L.BARRACKS)
    assert outcome(three, STATE) == "state" and outcome(Table().put(boss(ORANGE), L.PRISON).put(
        boss(GREEN), L.BARRACKS), STATE) == "draw"  # 3 points
    assert outcome(purged(4, None), RED) == "all_lose"
    assert outcome(purged(4, {"purge_points_to_end": 5}), RED) == "draw"


def test_with_two_purge_points_to_end_the_state_wins_most_games_with_two_or_more(box5):
    variant = play(5, {"purge_points_to_end": 2})
    state = variant.games[:, L.GM_OUTCOME] == L.OUT_STATE
    box_state = box5.games[:, L.GM_OUTCOME] == L.OUT_STATE
    assert z(state, box_state) > 4 and state.mean() > 0.5
    assert (column(variant, "purge_halves")[state] >= 4).all()
    assert (column(box5, "purge_halves")[box_state] >= 8).all()


# ---------------------------------------------------------------------- markers_per_family

def test_markers_per_family_is_each_familys_supply():
    t = Table(rules={"markers_per_family": 4})
    assert [t.supply(f) for f in range(L.N_FAMILIES)] == [4] * 4
    t = alone(boss(RED), rules={"markers_per_family": 4})
    for x in (TERMINI, SANT_AGATA, PATTI, MESSINA):
        t.mark(x, RED, 1)
    t.put(boss(RED), BAGHERIA).resolve(boss(RED))  # its supply is empty: no marker (the invariant holds)
    assert t.markers(BAGHERIA, RED) == 0 and t.supply(RED) == 0
    t = alone(boss(RED)).put(boss(RED), BAGHERIA).resolve(boss(RED))
    assert t.markers(BAGHERIA, RED) == 1 and t.supply(RED) == 7


def test_with_four_markers_no_family_ever_has_more_on_the_map(box5):
    variant = play(5, {"markers_per_family": 4})
    ends = variant.sides[:, :L.N_FAMILIES, L.SD_MARKERS_END]
    assert ends.max() == 4 and column(variant, "markers_on_map").max() <= 16
    assert box5.sides[:, :L.N_FAMILIES, L.SD_MARKERS_END].max() > 4


# ---------------------------------------------------------------------- safety_cap

def test_safety_cap_ends_a_game_without_winner_as_a_draw_there(box5):
    variant = play(5, {"safety_cap": 3})
    turns = column(variant, "calendar_turns")
    draws = variant.games[:, L.GM_OUTCOME] == L.OUT_DRAW
    assert turns.max() == 3 and draws.sum() > GAMES / 10 and (turns[draws] == 3).all()
    assert (column(variant, "decided_after")[draws] == -1).all()  # no single winner
    assert column(box5, "calendar_turns").max() > 3 and not (box5.games[:, L.GM_OUTCOME] == L.OUT_DRAW).any()
    # the game's own records (the tables a run writes) name the draws
    tables = match(5, {"safety_cap": 3}).tables_of(match(5, {"safety_cap": 3}).play(7, 0, 200))
    games = tables["games"]
    assert set(games.loc[games.outcome == "draw", "calendar_turns"]) == {3}


# ---------------------------------------------------------------------- purge_half_points

def test_purge_half_points_are_what_each_piece_in_a_box_counts():
    def four_picciotti(rules):
        t = Table(rules=rules)
        for p in (picciotto(ORANGE), picciotto(ORANGE, 2), picciotto(GREEN), picciotto(GREEN, 2)):
            t.put(p, L.PRISON)
        return t

    assert outcome(four_picciotti(None), STATE) == "draw"  # 2 points
    t = four_picciotti({"purge_half_points": [4, 2, 2]})  # 4 points
    assert outcome(t, STATE) == "state"
    t = Table(rules={"purge_half_points": [0, 8, 1]}).put(boss(RED), L.PRISON)
    assert outcome(t, STATE) == "draw"  # a Boss in Prison counts nothing
    assert outcome(t.put(boss(RED), L.BARRACKS), STATE) == "state"  # in the Barracks 4 points


def test_with_only_picciotti_counting_every_purge_count_is_whole(box5):
    """Bosses count nothing, a Picciotto in Prison a whole point: every count is whole,
    a State win needs four Picciotti in Prison, and the State wins more often (the
    Prefect arrests every Picciotto it meets; it only holds Bosses)."""
    variant = play(5, {"purge_half_points": [0, 0, 2]})
    halves, box_halves = column(variant, "purge_halves"), column(box5, "purge_halves")
    state = variant.games[:, L.GM_OUTCOME] == L.OUT_STATE
    assert (halves % 2 == 0).all() and (box_halves % 2 == 1).any()
    assert state.any() and (halves[state] >= 8).all()
    assert z(state, box5.games[:, L.GM_OUTCOME] == L.OUT_STATE) > 4


# ---------------------------------------------------------------------- the dice

def shootout(rules, dice, weapons=False):
    """P1 arrives where a black Picciotto stands, which shoots (with Special weapons if
    ``weapons``): the black die first, then P1's. Where both end."""
    t = alone(P1, picciotto(BLACK), rules=rules).put(picciotto(BLACK), BAGHERIA).put(P1, BAGHERIA)
    if weapons:
        t.give(BLACK, L.SPECIAL_WEAPONS).answers(1, 1)
    else:
        t.answers(1)
    t.dice(*dice).resolve(P1)
    assert t.script_done()
    return t.where(picciotto(BLACK)) == L.CONTINENT, t.where(P1) == L.CONTINENT


def test_shootout_hit_faces_are_the_faces_that_hit():
    assert shootout(None, (2, 4)) == (False, False)  # even: both miss
    assert shootout({"shootout_hit_faces": [2, 4]}, (2, 4)) == (True, True)
    assert shootout({"shootout_hit_faces": [4]}, (2, 4)) == (True, False)  # only P1's 4 hits the black one


def test_weapons_hit_faces_are_the_faces_that_hit_with_special_weapons():
    assert shootout(None, (2, 1), weapons=True) == (True, True)  # black hits on 2 with the card; P1 on its 1
    assert shootout({"weapons_hit_faces": [6]}, (2, 1), weapons=True) == (True, False)  # black's 2 misses now
    assert shootout({"weapons_hit_faces": [6]}, (6, 2), weapons=True) == (False, True)


def test_when_every_face_hits_every_shootout_takes_both_pieces(box5):
    every = [1, 2, 3, 4, 5, 6]
    variant = play(5, {"shootout_hit_faces": every, "weapons_hit_faces": every})
    shots, gone = column(variant, "shootouts"), column(variant, "eliminations")
    assert shots.sum() > GAMES and (gone >= 2 * shots).all()
    assert (column(box5, "eliminations") < 2 * column(box5, "shootouts")).any()


def test_picciotto_marker_faces_are_the_faces_that_place_a_marker():
    for rules, face, placed in ((None, 5, 0), (None, 2, 1), ({"picciotto_marker_faces": [5]}, 5, 1),
                                ({"picciotto_marker_faces": [5]}, 2, 0)):
        t = alone(P1, rules=rules).put(P1, BAGHERIA).dice(face).resolve(P1)
        assert t.markers(BAGHERIA, RED) == placed and t.script_done(), (rules, face)


def test_cc_removal_faces_are_the_faces_that_remove_a_marker():
    for rules, face, left in ((None, 3, 1), (None, 6, 0), ({"cc_removal_faces": [1, 3]}, 3, 0),
                              ({"cc_removal_faces": [1, 3]}, 6, 1)):
        t = alone(L.CC1, rules=rules).mark(BAGHERIA, RED, 1).put(L.CC1, BAGHERIA).dice(face).resolve(L.CC1)
        assert t.markers(BAGHERIA, RED) == left and t.script_done(), (rules, face)


def test_marker_dice_on_every_face_place_and_remove_more_markers(box5):
    every = [1, 2, 3, 4, 5, 6]
    placed = play(5, {"picciotto_marker_faces": every})
    assert z(column(placed, "markers_placed"), column(box5, "markers_placed")) > 4
    removed = play(4, {"cc_removal_faces": every})
    assert z(column(removed, "markers_removed"), column(play(4), "markers_removed")) > 4


# ---------------------------------------------------------------------- who reads the variant

def test_the_heuristic_families_value_a_picciotto_marker_by_its_faces():
    def value(rules):
        t = alone(P1, rules=rules)
        t.game[L.G_PARAMS + RED * L.PARAMS_WIDTH + L.P_GAIN] = 2 * L.PARAM_UNIT
        return bots.family_value(t.game, t.s, RED, P1, BAGHERIA, -1, 0)

    assert value(None) == pytest.approx(1.0)  # a free space worth 2, its marker on an even die
    assert value({"picciotto_marker_faces": [1, 2, 3, 4, 5, 6]}) == pytest.approx(2.0)
    assert value({"picciotto_marker_faces": [6]}) == pytest.approx(2 / 6)


def test_the_heuristic_state_values_a_cc_removal_by_its_faces():
    def value(rules):
        t = alone(L.CC1, rules=rules).mark(BAGHERIA, RED, 1)
        t.game[L.G_PARAMS + STATE * L.PARAMS_WIDTH + L.P_MARKER] = L.PARAM_UNIT
        return bots.state_value(t.game, t.s, STATE, L.CC1, BAGHERIA, -1)

    assert value(None) == pytest.approx(0.5)
    assert value({"cc_removal_faces": [1, 2, 3, 4, 5, 6]}) == pytest.approx(1.0)


def test_a_heuristic_family_taking_the_states_decisions_keeps_below_the_variants_purge_end():
    """Four players: a family arrests a rival's Picciotto only while the purge points stay
    a Boss's hold short of those that end the game (everyone loses)."""
    def arrests(rules):
        t = Table(4, rules=rules).put(picciotto(GREEN), L.PRISON).put(picciotto(GREEN, 2), L.PRISON)
        t.put(boss(ORANGE), L.BARRACKS)  # 2 purge points; the arrest makes 2 1/2
        t.s[L.S_SIDE] = RED
        t.s[L.S_ASK_PIECE] = picciotto(BLACK)
        return bots.decide_heuristic(L.EXPANDER, L.D_ARREST, 2, RED, t.game, t.s, L.S_RNG_SIDE + RED)

    assert arrests(None) == 1  # 4 points end it: 2 1/2 and a hold (1) leave it short
    assert arrests({"purge_points_to_end": 3}) == 0  # 2 1/2 and a hold would end it
    assert arrests({"purge_points_to_end": 3, "purge_half_points": [4, 0, 1]}) == 1  # a hold counts nothing


def test_the_standing_the_search_scores_is_of_the_variants_goals():
    t = Table(rules={"purge_points_to_end": 2, "spaces_to_win": {5: 8}}).put(boss(ORANGE), L.BARRACKS)
    for x in (BAGHERIA, TERMINI):
        t.mark(x, RED, 1)
    assert flow.standing(t.game, t.s, STATE) == flow.PROGRESS_UNIT // 2  # 1 point of 2
    assert flow.standing(t.game, t.s, RED) == flow.PROGRESS_UNIT // 4  # 2 spaces of 8
    box = Table().put(boss(ORANGE), L.BARRACKS)
    assert flow.standing(box.game, box.s, STATE) == flow.PROGRESS_UNIT // 4  # 1 point of 4


def playout_turns(rules):
    """Side turns a search playout plays from red's turn at the end of the first pass."""
    t = Table(rules=rules)
    t.s[L.S_SLOT] = 5  # the second State turn of the pass: the next is red's, in the next pass
    s = np.zeros(L.S_ALL, np.int64)
    s[:L.S_LEN] = t.s
    sim = search.search_area.py_func(s)
    sim[0][:] = t.game
    here = (t.game, s)
    pool = (sim[0], sim[1], t.paths, sim[2], sim[3], sim[4], sim[5])
    search.world(here, pool, RED, 77, 0)
    search.play_out(here, pool, RED)
    return int(sim[1][L.S_GM + L.GM_SIDE_TURNS]), int(sim[5][search.W_OUTCOME])


def test_the_search_playouts_stop_at_the_variants_safety_cap():
    assert playout_turns(None) == (3, L.OUT_DRAW)  # three side turns (its default horizon), the game on
    assert playout_turns({"safety_cap": 1}) == (0, L.OUT_DRAW)  # the pass was the last: a draw there


def test_a_search_bot_plays_whole_games_of_a_variant():
    small = "lookahead:rollouts=4:horizon=2"
    m = match(5, {"spaces_to_win": {5: 5}, "purge_points_to_end": 5}, f"{small},raider,{small},expander,random",
              check=True)
    c = m.play(3, 0, 24).view()
    won = c.games[:, L.GM_OUTCOME] >= L.OUT_RED
    assert won.any() and (c.games[won, L.GM_WINNER_SPACES] >= 5).all()
    assert (c.games[c.games[:, L.GM_OUTCOME] == L.OUT_STATE, L.GM_PURGE_HALVES] >= 10).all()


def test_the_user_bot_view_shows_the_rules():
    rules = {"spaces_to_win": {5: 6}, "purge_points_to_end": 3, "markers_per_family": 7, "safety_cap": 40,
             "purge_half_points": [3, 2, 1], "shootout_hit_faces": [6], "weapons_hit_faces": [5, 6],
             "picciotto_marker_faces": [1], "cc_removal_faces": [2, 3]}
    g = match(5, rules).game_array
    view = View(L.D_MOVE, 0, 0, g, np.zeros(L.V_LEN, np.int64), np.zeros(L.USER_WIDTH))
    assert (V.win_spaces(view), V.purge_halves_to_end(view), V.markers_per_family(view), V.safety_cap(view)) == \
        (6, 6, 7, 40)
    assert [V.purge_half_points(view, i) for i in range(3)] == [3, 2, 1]
    assert (V.shot_faces(view), V.weapons_faces(view), V.picciotto_marker_faces(view), V.cc_removal_faces(view)) == \
        (1 << 6, (1 << 5) + (1 << 6), 1 << 1, (1 << 2) + (1 << 3))
    view.state[L.V_LOC:L.V_LOC + 12] = L.OUT
    view.state[L.V_LOC + boss(RED)] = L.PRISON
    view.state[L.V_LOC + picciotto(RED)] = L.PRISON
    assert V.purge_halves(view) == 4  # 3 + 1 under these rules (4 + 1 in the box)


# ---------------------------------------------------------------------- as data

def test_a_variant_compiles_no_kernel_again():
    play(5, None, games=20)
    kernels = (K.play_games, K.replay_game)
    m = match(5)
    m.trace(1, 0)
    before = [len(k.signatures) for k in kernels]
    play(5, {"spaces_to_win": {5: 6}, "safety_cap": 30, "shootout_hit_faces": [6]}, games=20)
    play(3, {"purge_points_to_end": 6, "markers_per_family": 12, "purge_half_points": [2, 2, 2]}, games=20)
    match(4, {"cc_removal_faces": [1]}).trace(1, 0)
    assert [len(k.signatures) for k in kernels] == before


def test_the_box_is_the_box():
    """No rules given plays the box: the same game array as the box's own rules."""
    assert np.array_equal(match(5).game_array, MafiaMatch(None, 5, parse_bot_list("random,random,random,random,"
                                                                                     "random"),
                                                          rules=RULES.box()).game_array)
    g = match(5).game_array
    assert (g[L.G_WIN_SPACES], g[L.G_PURGE_END], g[L.G_MARKERS], g[L.G_SAFETY_CAP]) == (4, 8, 8, 600)
    assert list(g[L.G_PURGE_WEIGHT:L.G_PURGE_WEIGHT + 3]) == [4, 2, 1]


@pytest.mark.parametrize("rules, players, needles", [
    ({"spaces_to_win": {5: 9}}, 5, ("spaces_to_win 9 for 5 players", "at most 8 spaces", "1 to 8")),
    ({"spaces_to_win": {4: 6}, "markers_per_family": 5}, 4, ("spaces_to_win 6 for 4 players", "1 to 5")),
    ({"purge_points_to_end": 13}, 5, ("purge_points_to_end 13", "at most 12 purge points", "1 to 12")),
    ({"purge_points_to_end": 5, "purge_half_points": [1, 1, 0]}, 3, ("purge_points_to_end 5", "1 to 2")),
    ({"weapons_hit_faces": [2, 2]}, 5, ("weapons_hit_faces 2,2", "listed twice")),
])
def test_a_range_that_depends_on_the_map_or_other_keys_is_refused_in_one_line(rules, players, needles):
    with pytest.raises(AnalyzerError) as e:
        match(players, rules)
    text = str(e.value)
    assert "\n" not in text and all(n in text for n in needles), text


def test_a_replay_keeps_every_event_of_a_game_longer_than_its_buffer(monkeypatch):
    """A long variant's game (the safety cap allows 1,000 calendar turns) is traced
    whole: a full buffer plays the game again with a larger one."""
    from analyzer.games.mafia import match as mafia_match

    m = match(5, {"spaces_to_win": {5: 6}})
    whole, _ = m.trace(1, 0)
    monkeypatch.setattr(mafia_match, "TRACE_EVENTS", 16)
    events, chunk = m.trace(1, 0)
    assert np.array_equal(events, whole) and events[-1][0] == L.T_END
    assert chunk.games[0, L.GM_CALENDAR_TURNS] == events[-1][2]
