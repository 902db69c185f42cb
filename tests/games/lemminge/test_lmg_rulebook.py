"""The rulebook's examples and the rules page's resolutions, each as a scripted
turn on a small map of the test's own (odd-r grid: row 1 is odd, so its
north-east and south-east neighbours are at x+1)."""
import numpy as np

from analyzer.games.lemminge import kernel as K
from analyzer.games.lemminge import layout as L
from analyzer.games.lemminge.ruleset import BOX_START_HANDS
from analyzer.games.lemminge import rules as R
from analyzer.games.lemminge import view as V
from tests.games.lemminge.lmg_support import (
    FOREST, MOUNTAIN, SWAMP, VALUES, WATER, Table, card, make_map,
)

BY = L.SCRIPT_BY_VALUE
E, W, NE, NW, SE, SW = range(6)

CORRIDOR = make_map("""
............
AWWWWMMMMMMZ
............
""")


def step(t, x, y, d):
    return BY + t.cell(x, y) * 8 + d


def test_water_1_on_a_column_showing_2_moves_3():
    # "Éric joue une carte Eau de valeur 1. La carte active de la colonne Eau indique 2,
    # donc Éric peut jouer sa carte au-dessus et déplace son lemming de 3 (1+2) cases."
    t = Table(CORRIDOR)
    water1 = card(WATER, 1)
    t.hand(0, [water1])
    t.script(BY + water1, BY + 0, step(t, 1, 1, E), step(t, 2, 1, E), step(t, 3, 1, E))
    assert t.turn(0) == -1
    m = t.last_move()
    assert (m["colsum"], m["movement"], m["new_column"], m["steps"]) == (2, 3, 0, 3)
    assert t.pos(0) == (3, 1)
    col = t.state[L.PUB_COL + WATER * L.MAX_VALUES:L.PUB_COL + WATER * L.MAX_VALUES + 2]
    assert list(col) == [card(WATER, 2), water1] and t.state[L.PUB_COL_SUM + WATER] == 3
    assert t.state[L.PUB_SUPPLY + WATER] == 3  # no tile: the card went on the column
    assert t.ok()


def test_water_4_on_a_1_starts_a_new_column_earns_a_water_tile_and_moves_4():
    # "Sonia joue une carte Eau de valeur 4. La carte active de la colonne Eau indique 1 :
    # [...] elle entame la nouvelle colonne avec une valeur de 4. De plus, Sonia reçoit une
    # tuile bonus de type Eau [...] Avec ses 4 mouvements, elle déplace son lemming jusqu'à
    # la tuile nouvellement posée."
    board = make_map("""
............
AMMMRMMMMMMZ
............
""")
    t = Table(board)
    water4 = card(WATER, 4)
    t.column(WATER, [card(WATER, 2), card(WATER, 1)])
    t.hand(0, [water4])
    discards = int(t.state[L.PUB_DISCARD_N])
    assert t.steps(0, WATER, 4)[0][0] == (1, 1)
    t.script(BY + water4, BY + t.cell(4, 1), BY + 0,
             step(t, 1, 1, E), step(t, 2, 1, E), step(t, 3, 1, E), step(t, 4, 1, E))
    assert t.turn(0) == -1
    m = t.last_move()
    assert (m["colsum"], m["movement"], m["new_column"], m["steps"]) == (3, 4, 1, 4)
    assert t.pos(0) == (4, 1)  # on the new water tile, a mountain hex before
    assert t.state[L.PUB_TILE + t.cell(4, 1)] == WATER and t.state[L.PUB_TER + t.cell(4, 1)] == WATER
    assert t.state[L.PUB_SUPPLY + WATER] == 2
    assert t.state[L.PUB_COL_N + WATER] == 1 and t.state[L.PUB_COL_SUM + WATER] == 4
    assert t.state[L.PUB_DISCARD_N] == discards + 2  # the old column went to the discards
    assert t.rows[0, L.PL_NEW_COLUMNS] == 1 and t.rows[0, L.PL_TILES_PLACED] == 1
    assert t.ok()


PUSH_MAP = make_map("""
..........
AMMMMRMMM.
.MMMMMMMMZ
""")


def test_the_push_example_costs_2_and_the_move_is_7_steps():
    # "Éric joue une carte Eau de valeur 3. La valeur de la carte de la colonne Eau est de 4 :
    # il pose sa carte et obtient 7 déplacements. Il déplace son lemming de 3 cases [...] Il
    # pousse alors ce dernier [...] Ceci lui coûte 2 mouvements. Avec ses 2 derniers
    # déplacements, il progresse vers la ligne d'arrivée."
    t = Table(PUSH_MAP)
    t.column(WATER, [card(WATER, 4)])
    water3 = card(WATER, 3)
    t.hand(0, [water3])
    red = 2  # seat 1's first lemming
    t.place(red, 4, 1)
    # the push into (4, 1) eastward costs 2: red lands on the mountain at (5, 1)
    t.place(0, 3, 1)
    assert ((4, 1), "E", 2) in t.steps(0, WATER, 7)
    t.place(0, 0, 1)
    t.state[L.PUB_POS + 0] = L.AT_START
    t.state[L.PUB_OCC + t.cell(0, 1)] = -1
    t.script(BY + water3, BY + 0, step(t, 1, 1, E), step(t, 2, 1, E), step(t, 3, 1, E), step(t, 4, 1, E),
             step(t, 5, 2, SE), step(t, 6, 2, E))
    assert t.turn(0) == -1
    m = t.last_move()
    assert (m["colsum"], m["movement"], m["steps"], m["pushes"]) == (4, 7, 6, 1)
    assert t.pos(0) == (6, 2) and t.pos(red) == (5, 1)  # red on the mountain: any terrain
    assert t.rows[0, L.PL_PUSHES_MADE] == 1 and t.rows[1, L.PL_PUSHED] == 1
    assert t.hexes[t.cell(5, 1), L.HX_PUSHED_INTO] == 1
    assert t.ok()


def test_a_line_is_pushed_together_and_costs_one_per_lemming():
    t = Table(CORRIDOR)
    t.place(2, 2, 1)
    t.place(3, 3, 1)
    t.place(0, 1, 1)
    assert ((2, 1), "E", 3) in t.steps(0, WATER, 3)
    assert all(target != (2, 1) for target, _, _ in t.steps(0, WATER, 2))  # movement must pay for the push
    o = L.S_OPTIONS + t.step_index(0, WATER, 3, (2, 1), "E") * L.OPT_WIDTH
    assert R.take_step(t.game, t.state, 0, 0, o, t.rows, t.hexes, t.trace) == -1
    assert (t.pos(0), t.pos(2), t.pos(3)) == ((2, 1), (3, 1), (4, 1))
    assert t.rows[0, L.PL_PUSHES_MADE] == 2 and t.rows[1, L.PL_PUSHED] == 2


def test_no_push_off_the_board_or_into_the_start_area():
    t = Table(CORRIDOR)
    t.place(2, 1, 1)  # red next to the start: pushing it west would put it in the start area
    t.place(0, 2, 1)
    assert all(d != "W" for _, d, _ in t.steps(0, WATER, 5))
    t.place(2, 4, 1)
    t.place(0, 3, 1)
    assert ((4, 1), "E", 2) in t.steps(0, WATER, 5)
    # off the board: row 0 is all '.', so no step north at all
    assert all(target[1] == 1 for target, _, _ in t.steps(0, WATER, 5))
    board = make_map("""
......
AMMMMZ
.M....
""")
    t = Table(board)
    t.place(2, 1, 2)
    t.place(0, 2, 1)  # (1, 2) is SW of (2, 1) on the odd row; beyond it, off the board
    assert (1, 2) not in [target for target, _, _ in t.steps(0, WATER, 5)]


def test_a_lemming_pushed_into_the_finish_finishes_for_its_owner_who_wins_at_once():
    # "la première [...] même quand une poussée d'un autre joueur a fait finir le second"
    t = Table(CORRIDOR)
    t.state[L.PUB_POS + 3] = L.HOME  # seat 1's other lemming is home
    t.place(2, 10, 1)
    t.place(0, 9, 1)
    o = L.S_OPTIONS + t.step_index(0, WATER, 2, (10, 1), "E") * L.OPT_WIDTH
    assert R.take_step(t.game, t.state, 0, 0, o, t.rows, t.hexes, t.trace) == 1
    assert t.state[L.PUB_POS + 2] == L.HOME and t.state[L.PUB_OCC + t.cell(11, 1)] == -1


def test_the_mover_wins_when_its_own_second_lemming_comes_home():
    t = Table(CORRIDOR)
    t.state[L.PUB_POS + 1] = L.HOME
    t.place(0, 10, 1)
    hand = [card(WATER, 1)]
    t.hand(0, hand)
    t.script(BY + hand[0], BY + 0, step(t, 11, 1, E))
    assert t.turn(0) == 0
    assert t.state[L.PUB_POS + 0] == L.HOME


def test_meadow_with_any_card_terrain_only_with_its_card():
    t = Table(CORRIDOR)
    t.place(0, 4, 1)
    assert [target for target, _, _ in t.steps(0, FOREST, 3)] == [(5, 1)]  # meadow ahead, water behind
    assert sorted(target for target, _, _ in t.steps(0, WATER, 3)) == [(3, 1), (5, 1)]


def test_the_start_area_steps_out_of_every_start_hex_and_is_never_entered():
    board = make_map("""
.......
AMMMMMZ
AMMMMMM
.......
""")
    t = Table(board)
    targets = sorted(target for target, _, _ in t.steps(0, WATER, 3))
    # (0,1) odd row: E (1,1), SE (1,2); (0,2) even row: E (1,2), NE (0,1) is start: refused
    assert targets == [(1, 1), (1, 2), (1, 2)]
    assert R.distance(t.game, t.state, 0) == 6


def test_a_tile_on_a_tile_sends_the_old_one_back_and_meadow_tiles_follow():
    t = Table(CORRIDOR)
    c = t.cell(6, 1)
    assert R.take_tile(t.state, SWAMP) == SWAMP
    assert R.place_tile(t.state, c, SWAMP) == -1
    assert t.state[L.PUB_TER + c] == SWAMP
    assert R.take_tile(t.state, FOREST) == FOREST
    assert R.place_tile(t.state, c, FOREST) == SWAMP
    assert t.state[L.PUB_SUPPLY + SWAMP] == 3 and t.state[L.PUB_SUPPLY + FOREST] == 2
    t.state[L.PUB_SUPPLY + MOUNTAIN] = 0
    assert R.take_tile(t.state, MOUNTAIN) == L.N_TILE_KINDS - 1  # a meadow tile instead
    assert R.place_tile(t.state, c, L.N_TILE_KINDS - 1) == FOREST
    assert t.state[L.PUB_TER + c] == L.MEADOW
    t.state[L.PUB_SUPPLY + L.N_TILE_KINDS - 1] = 0
    assert R.take_tile(t.state, MOUNTAIN) == -1  # nothing left
    t.state[L.PUB_SUPPLY + MOUNTAIN] = 3
    t.state[L.PUB_SUPPLY + L.N_TILE_KINDS - 1] = 5
    assert t.ok()


def test_reshuffle_with_the_double_zero_rule():
    t = Table(CORRIDOR)
    zeros = [card(SWAMP, 0, 0), card(SWAMP, 0, 1)]
    t.column(SWAMP, [card(SWAMP, 2), zeros[0], zeros[1]])
    t.column(FOREST, [card(FOREST, 2), card(FOREST, 0, 0)])  # one 0 only: stays
    s, h = t.state, t.hidden
    discards = list(h[L.H_DISCARD:L.H_DISCARD + s[L.PUB_DISCARD_N]]) + list(h[L.H_PILE:L.H_PILE + s[L.PUB_PILE_N]])
    h[L.H_DISCARD:L.H_DISCARD + len(discards)] = discards
    s[L.PUB_DISCARD_N] = len(discards)
    s[L.PUB_PILE_N] = 0
    assert t.ok()
    drawn = R.draw_card(t.game, s, h, t.trace)
    assert drawn >= 0 and s[L.PUB_RESHUFFLES] == 1 and s[L.PUB_DISCARD_N] == 0
    assert s[L.PUB_COL_N + SWAMP] == 1 and s[L.PUB_COL + SWAMP * L.MAX_VALUES] in zeros
    assert s[L.PUB_COL_SUM + SWAMP] == 0
    assert s[L.PUB_COL_N + FOREST] == 2
    assert s[L.PUB_PILE_N] == len(discards) + 2 - 1  # the swamp 2 and one 0 joined the new pile
    # pile and discards empty: no card is drawn, no reshuffle counted
    t2 = Table(CORRIDOR)
    t2.state[L.PUB_PILE_N] = 0
    t2.state[L.PUB_DISCARD_N] = 0
    assert R.draw_card(t2.game, t2.state, t2.hidden, t2.trace) == -1
    assert t2.state[L.PUB_RESHUFFLES] == 0


def test_refill_discards_first_then_draws_up_to_six():
    t = Table(CORRIDOR)
    at = L.H_OWN
    hand = [card(FOREST, 4), card(FOREST, 3), card(WATER, 1), card(SWAMP, 0), card(MOUNTAIN, 2, 1)]
    t.hand(0, hand)
    s, h = t.state, t.hidden
    rest = list(h[L.H_PILE:L.H_PILE + s[L.PUB_PILE_N]])
    h[L.H_DISCARD + s[L.PUB_DISCARD_N]:L.H_DISCARD + s[L.PUB_DISCARD_N] + len(rest) - 1] = rest[1:]
    s[L.PUB_DISCARD_N] += len(rest) - 1
    h[L.H_PILE] = rest[0]
    s[L.PUB_PILE_N] = 1
    assert t.ok()  # one card left: the discarded ones come back after it
    dropped, drawn = R.refill(t.game, t.state, t.hidden, 0, 0b00011, t.trace)
    assert (dropped, drawn) == (2, 3) and t.hidden[at + L.OWN_HAND_N] == 6
    assert list(t.hidden[at + L.OWN_HAND:at + L.OWN_HAND + 3]) == hand[2:]
    assert t.state[L.PUB_RESHUFFLES] == 1


def test_deal_by_seat():
    for players, hands in BOX_START_HANDS.items():
        t = Table(CORRIDOR, players=players, deal=True)
        assert tuple(t.state[L.PUB_HAND_N:L.PUB_HAND_N + players]) == hands
        assert t.state[L.PUB_PILE_N] == 50 - sum(hands)
        cols = [t.state[L.PUB_COL + k * L.MAX_VALUES] for k in range(5)]
        assert [VALUES[c % 11] for c in cols] == [2] * 5
        assert t.ok()


# ---------------------------------------------------------------------- no push backwards
# « Il n'est pas permis de pousser un lemming vers l'arrière. » Rules page, clarification 7:
# a push is backwards, and not allowed, if any lemming of the line lands on a hex of
# greater finish distance than the one it leaves; sideways (equal distance) is allowed.
# Finish next to row 1 at (4, 0): row 1's distances are 4 3 2 1 1 2 3 4 from x = 1.
VALLEY = make_map("""
....Z....
AMMMMMMMM
""")


def test_no_lemming_may_be_pushed_backwards():
    t = Table(VALLEY)
    t.place(2, 4, 1)  # red at distance 1; pushed east it would land at distance 2
    t.place(0, 3, 1)
    assert all(target != (4, 1) for target, _, _ in t.steps(0, WATER, 5))
    t.place(0, 5, 1)  # from the east: red pushed west lands on (3, 1), distance 1 too: sideways
    assert ((4, 1), "W", 2) in t.steps(0, WATER, 5)
    o = L.S_OPTIONS + t.step_index(0, WATER, 5, (4, 1), "W") * L.OPT_WIDTH
    R.take_step(t.game, t.state, 0, 0, o, t.rows, t.hexes, t.trace)
    assert (t.pos(0), t.pos(2)) == ((4, 1), (3, 1)) and t.rows[1, L.PL_PUSHED_DIST] == 0


def test_a_line_may_not_be_pushed_if_any_of_it_would_go_backwards():
    t = Table(VALLEY)
    t.place(2, 3, 1)  # red: (3, 1) -> (4, 1), distance 1 -> 1, sideways
    t.place(4, 4, 1)  # blue behind it: (4, 1) -> (5, 1), distance 1 -> 2, backwards
    t.place(0, 2, 1)
    assert all(target != (3, 1) for target, _, _ in t.steps(0, WATER, 5))
    t.place(4, 6, 1)  # blue away: red alone is pushed sideways
    assert ((3, 1), "E", 2) in t.steps(0, WATER, 5)
    t.place(0, 1, 1)  # a line pushed on: red (2, 1) -> (3, 1) nearer, blue (3, 1) -> (4, 1) sideways
    t.place(2, 2, 1)
    t.place(4, 3, 1)
    assert ((2, 1), "E", 3) in t.steps(0, WATER, 5)


def test_a_lemming_whose_only_step_pushes_backwards_cannot_step():
    # clarification 7: a step that can only be made by a backwards push is no legal step, for
    # "allows a step" (the cards) and "can now step" (the lemmings) alike
    t = Table(CORRIDOR)
    t.place(0, 6, 1)
    t.place(2, 5, 1)  # red west of it: pushed west it would go back
    R.place_tile(t.state, t.cell(7, 1), R.take_tile(t.state, SWAMP))  # east closed to a forest card
    assert t.steps(0, FOREST, 6) == []
    assert not R.can_step(t.game, t.state, 0, FOREST, 6)
    t.state[L.PUB_POS + 1] = L.HOME
    R.cheapest_steps(t.game, t.state, 0, L.S_MINCOST)
    assert t.state[L.S_MINCOST + FOREST] >= 1 << 30  # no forest card allows a step
    assert t.state[L.S_MINCOST + SWAMP] == 1  # a swamp card does: onto the swamp tile


def test_the_issue_game_pushes_no_lemming_back():
    """``replay lemminge --players 3 --bots blocker,convoy,random --seed 5 --game 3``:
    at turn 61 a lemming was pushed three hexes back (finish distance 13 -> 16). No
    push of that game, of any seat, sets a lemming back now."""
    from analyzer.engine.botspec import BotSpec
    from analyzer.games.lemminge.match import LemmingeMatch

    match = LemmingeMatch(None, 3, [BotSpec(b, ()) for b in ("blocker", "convoy", "random")])
    r = match.replay(5, 3)
    dist = match.map.distances()
    by_name = {f"({c % match.map.width}, {c // match.map.width})": int(dist[c]) for c in range(match.map.n_cells)}
    pushes = [s.text for s in r.steps if " is pushed from " in s.text]
    assert pushes  # the game has pushes
    for text in pushes:
        src, dst = text.split(" is pushed from ")[1].split(" to ")
        coords = [part[part.index("("):part.index(")") + 1] for part in (src, dst) if "(" in part]
        before, after = by_name[coords[0]], (0 if dst == "home" else by_name[coords[1]])
        assert after <= before, text
    assert (r.tables["moves"]["pushed_setback"] <= 0).all()
    assert (r.tables["players"]["pushed_distance"] <= 0).all()


# ---------------------------------------------------------------------- cards with no step

def test_a_card_with_no_step_may_be_played():
    # "up to" that many steps allows 0 (rules page, clarification 8): a bot other than the
    # reference random one may play any card; the turn is a move with no lemming moved
    t = Table(CORRIDOR)
    t.place(0, 6, 1)
    t.place(2, 5, 1)
    t.state[L.PUB_POS + 1] = L.HOME
    R.place_tile(t.state, t.cell(7, 1), R.take_tile(t.state, SWAMP))
    forest4 = card(FOREST, 4)
    swamp1 = card(SWAMP, 1)
    t.hand(0, [forest4, swamp1])
    # every card is an option, each flagged whether it allows a step: what a user bot sees
    t.script(BY + forest4)
    assert K.choose_card(t.game, t.state, t.hidden, t.params, 0, t.trace) == 0
    assert t.state[L.PUB_N_OPTIONS] == 2 and list(t.state[L.S_ALLOWS:L.S_ALLOWS + 2]) == [0, 1]
    K.user_options(t.game, t.state, L.DECIDE_ACTION, 2)
    view = V.View(L.DECIDE_ACTION, 0, 2, t.game, t.state, t.params[0])
    assert [V.options(view, i) for i in range(2)] == [forest4, swamp1]
    assert [V.allows_step(view, i) for i in range(2)] == [0, 1]
    assert "allows_step: [0, 1" in repr(view)
    t.script(BY + forest4, BY + t.cell(9, 1))  # forest 4 starts a new column: a tile, placed out of the way
    assert t.turn(0) == -1
    m = t.last_move()
    assert (m["terrain"], m["new_column"], m["steps"], m["lemming"]) == (FOREST, 1, 0, -1)
    assert t.rows[0, L.PL_MOVES] == 1 and t.rows[0, L.PL_TILES_PLACED] == 1 and t.pos(0) == (6, 1)
    assert t.ok()


def test_the_random_bot_plays_only_cards_that_allow_a_step():
    # rules page, the reference random bot: "whenever no card allows a single step" it refills
    t = Table(CORRIDOR, kinds=[L.RANDOM, L.RANDOM])
    t.place(0, 6, 1)
    t.place(2, 5, 1)
    t.state[L.PUB_POS + 1] = L.HOME
    R.place_tile(t.state, t.cell(7, 1), R.take_tile(t.state, SWAMP))
    t.hand(0, [card(FOREST, 4), card(FOREST, 1)])
    assert t.turn(0) == -1
    assert t.rows[0, L.PL_REFILLS] == 1 and t.rows[0, L.PL_MOVES] == 0


def test_a_heuristic_plays_a_card_with_no_step_when_its_tile_opens_the_way():
    # « to start a new column for its bonus tile [...] because the tile opens the only path »
    board = make_map("""
..........
AMRMMMMMMZ
..........
""")
    from analyzer.engine.botspec import BotSpec
    from analyzer.games.lemminge.registry import BUILTIN

    t = Table(board, kinds=[L.RACER, L.RANDOM])
    t.params[0] = BUILTIN["racer"].param_row(BotSpec("racer", ()))
    t.place(0, 1, 1)
    t.state[L.PUB_POS + 1] = L.HOME
    forest4 = card(FOREST, 4)
    t.hand(0, [forest4])  # above the forest column's 2: a new column and a forest tile
    assert t.steps(0, FOREST, 4) == []  # the mountain at (2, 1) bars the way: no step before the tile
    assert t.turn(0) == -1
    m = t.last_move()
    assert (m["terrain"], m["new_column"], m["lemming"]) == (FOREST, 1, 0)
    assert t.state[L.PUB_TILE + t.cell(2, 1)] == FOREST and m["steps"] == 4 and t.pos(0) == (5, 1)
