"""The rule numbers a designer may change (``ruleset.py``; docs/lemminge.md, "Rules a
designer can change"): each key changes play as its words say, through the engine's
own turns and records with fixed seeds; the heuristic bots, the search bot's playouts
and a user bot's view read the variant; a variant compiles nothing again; a variant
the map or the hand limit cannot hold is refused in one line."""
import numpy as np
import pytest

from analyzer.errors import AnalyzerError
from analyzer.games.lemminge import bots as B
from analyzer.games.lemminge import kernel as K
from analyzer.games.lemminge import layout as L
from analyzer.games.lemminge import rules as R
from analyzer.games.lemminge import view as V
from analyzer.games.lemminge.board import load_map
from analyzer.games.lemminge.registry import BUILTIN
from analyzer.games.lemminge.ruleset import BOX_START_HANDS, RULES, deal
from analyzer.engine.botspec import BotSpec
from tests.games.lemminge.lmg_support import FOREST, SWAMP, WATER, Table, card, make_map

BY = L.SCRIPT_BY_VALUE
E, W = 0, 1
MAP = load_map()
CORRIDOR = make_map("""
............
AWWWWMMMMMMZ
............
""")
VALLEY = make_map("""
....Z....
AMMMMMMMM
""")  # row 1's finish distances: 4 3 2 1 1 2 3 4 from x = 1


def rules(**values):
    return RULES.rules(values)


def run(kinds, count, seed=11, board=MAP, params=None, **values):
    """Games of the engine under a variant (invariants checked after every turn)."""
    game = K.pack_game(board, kinds, check=True, rules=rules(**values))
    return K.run(game, board.n_cells, seed, 0, count, params)


# ---------------------------------------------------------------------- hand_limit

@pytest.mark.parametrize("limit", [4, 9])
def test_hand_limit_a_refill_draws_up_to_the_limit(limit):
    t = Table(CORRIDOR, rules={"hand_limit": limit})
    t.hand(0, [card(FOREST, 1)])
    t.script(-1, 0)  # refill, discarding nothing
    assert t.turn(0) == -1
    assert t.state[L.PUB_HAND_N] == limit and t.rows[0, L.PL_REFILLS] == 1
    assert t.ok()  # the invariants hold a hand to the limit


def test_hand_limit_in_games_the_hands_never_pass_it_and_refills_come_more_often():
    """Random bots with hands of 3: the box's deal follows (the last seat 3 cards, each
    before it one fewer), every turn's hand within 3 (the invariants, checked after
    every turn), and refilling more often than with the box's 6, the same games."""
    games, players, _, _ = run([L.RANDOM] * 4, 200, hand_limit=3)
    assert (players[:, :, L.PL_HAND_START] == [0, 1, 2, 3]).all()
    box = run([L.RANDOM] * 4, 200)[1]
    refill_share = players[:, :, L.PL_REFILLS].sum() / (players[:, :, L.PL_REFILLS] + players[:, :, L.PL_MOVES]).sum()
    box_share = box[:, :, L.PL_REFILLS].sum() / (box[:, :, L.PL_REFILLS] + box[:, :, L.PL_MOVES]).sum()
    assert refill_share > box_share + 0.05, (refill_share, box_share)


def test_hand_limit_a_heuristic_with_a_full_hand_plays_rather_than_refill():
    """A racer (refills for gains below 3) holding a water 0 (2 hexes) and three
    forest cards that allow no step: with a hand limit of 4 its hand is full, so it
    plays the water card (a refill would only swap cards); under the box's 6 it refills."""
    answers = {}
    for limit in (4, 6):
        t = Table(CORRIDOR, kinds=[BUILTIN["racer"].kind, L.SCRIPTED], rules={"hand_limit": limit})
        t.params[0] = BUILTIN["racer"].param_row(BotSpec("racer", ()))
        water0 = card(WATER, 0)
        t.hand(0, [water0, card(FOREST, 2, 1), card(FOREST, 1), card(FOREST, 1, 1)])
        t.turn(0)
        answers[limit] = (int(t.rows[0, L.PL_REFILLS]), int(t.rows[0, L.PL_MOVES]))
    assert answers == {4: (0, 1), 6: (1, 0)}


# ---------------------------------------------------------------------- start_hands

def test_start_hands_deals_each_seat_its_cards():
    t = Table(CORRIDOR, players=3, deal=True, rules={"start_hands": {3: [1, 0, 6]}})
    assert list(t.state[L.PUB_HAND_N:L.PUB_HAND_N + 3]) == [1, 0, 6]
    assert t.state[L.PUB_PILE_N] == 50 - 7 and t.ok()
    _, players, _, _ = run([L.RANDOM] * 3, 50, start_hands={3: [1, 0, 6]})
    assert (players[:, :, L.PL_HAND_START] == [1, 0, 6]).all()  # the records' hand_start
    # a seat dealt nothing refills on its first turn (the random bot: no card allows a step)
    _, players, moves, _ = run([L.RANDOM] * 3, 50, start_hands={3: [6, 0, 6]})
    first = [moves[(moves[:, L.MV_GAME] == g) & (moves[:, L.MV_SEAT] == 1), L.MV_TURN].min() for g in range(50)]
    assert min(first) > 2  # its first turn (turn 2) was a refill in every game


def test_start_hands_left_at_the_box_follow_the_hand_limit():
    for players, hands in BOX_START_HANDS.items():
        assert deal(None, players) == hands
        assert deal(rules(hand_limit=8), players) == tuple(h + 2 for h in hands)
        assert deal(rules(hand_limit=2), players) == tuple(max(0, h - 4) for h in hands)
    # an entry given keeps its numbers; the others follow the limit
    assert deal(rules(hand_limit=5, start_hands={3: [5, 5, 5]}), 3) == (5, 5, 5)
    assert deal(rules(hand_limit=5, start_hands={3: [5, 5, 5]}), 4) == (2, 3, 4, 5)


def test_start_hands_above_the_limit_or_the_pile_are_refused_in_one_line():
    with pytest.raises(AnalyzerError, match=r"^start_hands: for 4 players 3,4,5,7 deals seat 4 7 cards, above "
                                            r"hand_limit 6 \(allowed: each seat 0 to hand_limit\)$"):
        K.pack_game(MAP, [L.RANDOM] * 2, rules=rules(start_hands={4: [3, 4, 5, 7]}))  # any count's entry
    with pytest.raises(AnalyzerError, match="above hand_limit 5"):
        deal(rules(hand_limit=5, start_hands={2: [6, 6]}), 2)
    small = make_map("ZMMA", values=(2, 1, 1, 0, 0))  # 4 cards to draw per terrain: 20
    assert K.pack_game(small, [L.RANDOM] * 5) is not None  # the box deals 20 at five
    with pytest.raises(AnalyzerError, match=r"^start_hands: for 5 players 4,4,4,4,5 deals 21 cards, the map's draw "
                                            r"pile holds 20 \(allowed: together at most the draw pile\)$"):
        K.pack_game(small, [L.RANDOM] * 5, rules=rules(start_hands={5: [4, 4, 4, 4, 5]}))


# ---------------------------------------------------------------------- push_cost

@pytest.mark.parametrize("cost", [0, 1, 2, 3])
def test_push_cost_a_line_of_two_costs_one_plus_the_cost_per_lemming(cost):
    t = Table(CORRIDOR, rules={"push_cost": cost})
    t.place(2, 2, 1)
    t.place(3, 3, 1)
    t.place(0, 1, 1)
    need = 1 + 2 * cost
    assert ((2, 1), "E", need) in t.steps(0, WATER, need)
    assert all(target != (2, 1) for target, _, _ in t.steps(0, WATER, need - 1))  # movement must pay for it
    o = L.S_OPTIONS + t.step_index(0, WATER, need, (2, 1), "E") * L.OPT_WIDTH
    assert t.state[o + L.OPT_PUSHED] == 2
    R.take_step(t.game, t.state, 0, 0, o, t.rows, t.hexes, t.trace)
    assert (t.pos(0), t.pos(2), t.pos(3)) == ((2, 1), (3, 1), (4, 1)) and t.rows[0, L.PL_PUSHES_MADE] == 2


@pytest.mark.parametrize("cost", [0, 3])
def test_push_cost_in_games_each_move_pays_its_steps_and_pushes(cost):
    """Every move's steps and pushed lemmings fit its movement at that cost (the moves
    records); at 3 the pushes cost what they say (some move spends more than its
    steps and pushes at 1 would); at 0 pushing is free (some move pushes beyond what
    1 a lemming would allow)."""
    kinds = [BUILTIN[b].kind for b in ("racer", "convoy", "blocker", "random")]
    params = np.array([BUILTIN[b].param_row(BotSpec(b, ())) for b in ("racer", "convoy", "blocker", "random")])
    _, _, moves, _ = run(kinds, 60, params=params, push_cost=cost)
    steps, pushes, movement = (moves[:, c].astype(int) for c in (L.MV_STEPS, L.MV_PUSHES, L.MV_MOVEMENT))
    assert (steps + cost * pushes <= movement).all()
    assert pushes.sum() > 0
    if cost == 0:
        assert (steps + pushes > movement).any()
    else:
        assert (steps + pushes < steps + cost * pushes).any()


def test_push_cost_the_heuristics_weigh_the_lemmings_pushed_not_the_movement():
    """``push_value`` counts the pushed line's lemmings: the same whatever a push costs."""
    values = []
    for cost in (0, 1, 3):
        t = Table(CORRIDOR, rules={"push_cost": cost})
        t.place(2, 6, 1)
        t.place(3, 7, 1)
        t.place(0, 5, 1)
        o = L.S_OPTIONS + t.step_index(0, WATER, 7, (6, 1), "E") * L.OPT_WIDTH
        values.append(B.push_value(t.game, t.state, 0, o, BUILTIN["racer"].param_row(BotSpec("racer", ()))))
    assert values[0] == values[1] == values[2] != 0.0


# ---------------------------------------------------------------------- backward_push

def test_backward_push_lets_a_lemming_be_pushed_back():
    t = Table(VALLEY, rules={"backward_push": True})
    t.place(2, 4, 1)  # red at distance 1; pushed east it lands at distance 2
    t.place(0, 3, 1)
    assert ((4, 1), "E", 2) in t.steps(0, WATER, 5)
    o = L.S_OPTIONS + t.step_index(0, WATER, 5, (4, 1), "E") * L.OPT_WIDTH
    R.take_step(t.game, t.state, 0, 0, o, t.rows, t.hexes, t.trace)
    assert (t.pos(0), t.pos(2)) == ((4, 1), (5, 1)) and t.rows[1, L.PL_PUSHED_DIST] == 1  # set back one hex
    box = Table(VALLEY)
    box.place(2, 4, 1)
    box.place(0, 3, 1)
    assert all(target != (4, 1) for target, _, _ in box.steps(0, WATER, 5))


def test_backward_push_a_lemming_that_can_only_push_back_can_step():
    # the box's clarification 7 makes such a step no legal step; the variant makes it one
    for allowed in (False, True):
        t = Table(CORRIDOR, rules={"backward_push": allowed})
        t.place(0, 6, 1)
        t.place(2, 5, 1)  # red west of it
        R.place_tile(t.state, t.cell(7, 1), R.take_tile(t.state, SWAMP))  # east closed to a forest card
        assert R.can_step(t.game, t.state, 0, FOREST, 6) == allowed
        assert (((5, 1), "W", 2) in t.steps(0, FOREST, 6)) == allowed


def test_backward_push_in_games_lemmings_are_set_back():
    """The moves records: under the variant some pushes set lemmings back (pushed_setback
    above 0); under the box none does (the same games)."""
    for allowed in (False, True):
        _, _, moves, _ = run([L.RANDOM] * 4, 200, backward_push=allowed)
        assert (moves[:, L.MV_SETBACK] > 0).any() == allowed


# ---------------------------------------------------------------------- double_zero

def _reshuffle_with_two_zeros_showing(double_zero):
    t = Table(CORRIDOR, rules={"double_zero": double_zero})
    zeros = [card(SWAMP, 0, 0), card(SWAMP, 0, 1)]
    t.column(SWAMP, [card(SWAMP, 2), zeros[0], zeros[1]])
    s, h = t.state, t.hidden
    rest = list(h[L.H_DISCARD:L.H_DISCARD + s[L.PUB_DISCARD_N]]) + list(h[L.H_PILE:L.H_PILE + s[L.PUB_PILE_N]])
    h[L.H_DISCARD:L.H_DISCARD + len(rest)] = rest
    s[L.PUB_DISCARD_N] = len(rest)
    s[L.PUB_PILE_N] = 0
    assert t.ok()
    assert R.draw_card(t.game, s, h, t.trace) >= 0  # (the card drawn is in no hand: no invariants after)
    return int(s[L.PUB_COL_N + SWAMP]), int(s[L.PUB_PILE_N]) - (len(rest) - 1)


def test_double_zero_cuts_the_column_only_under_the_rule():
    assert _reshuffle_with_two_zeros_showing(True) == (1, 2)  # one 0 stays; the 2 and a 0 join the pile
    assert _reshuffle_with_two_zeros_showing(False) == (3, 0)  # the column stays whole


def test_double_zero_in_games_no_column_is_cut_without_it():
    """Replays of the same games: with the rule some reshuffle cuts a column ("double
    zero"), without it none does."""
    from analyzer.games.lemminge.match import LemmingeMatch

    said = {}
    for on in (True, False):
        match = LemmingeMatch(None, 4, [BotSpec("random", ())] * 4, rules=rules(double_zero=on))
        texts = [s.text for g in range(6) for s in match.replay(3, g).steps]
        said[on] = (sum("double zero" in t for t in texts), sum("shuffled into a new pile" in t for t in texts))
    assert said[True][0] > 0 and said[False][0] == 0 and said[False][1] > 0, said


# ---------------------------------------------------------------------- who reads the variant

def test_the_search_bots_playouts_refill_to_the_variants_limit():
    """A playout's refill option draws up to the variant's hand limit: the playouts play
    on a copy of the game array, rules included (search.py)."""
    from analyzer.games.lemminge import search
    from analyzer.games.lemminge.registry import resolve

    game = K.pack_game(MAP, [L.RANDOM] * 4, rules=rules(hand_limit=8))
    state = np.zeros(L.S_LEN, np.int64)
    hidden = np.zeros(L.H_LEN, np.int64)
    K.new_game(game, state, hidden, 2, 0, np.zeros(0, np.int64))
    seat = 3
    assert state[L.PUB_HAND_N + seat] == 8  # the box's deal followed the limit: 5, 6, 7, 8
    state[L.PUB_MOVER] = seat
    state[L.PUB_TURN] = 1
    row = resolve(BotSpec("lookahead", ())).param_row(BotSpec("lookahead", ()))
    sim = search.search_area.py_func(hidden)
    sim[0][:] = game
    work = sim[3]
    work[search.W_OPTIONS] = 0  # play the first card: the hand is down to 7
    work[search.W_LEMMINGS] = seat * 2
    search.world((game, state, hidden, row), sim, seat, 9, 0)
    search.apply_option((game, state, hidden, row), sim, seat, 0)
    assert sim[1][L.PUB_HAND_N + seat] == 7
    work[search.W_OPTIONS] = -1  # refill
    work[search.W_LEMMINGS] = -1
    search.world((game, state, hidden, row), sim, seat, 9, 0)
    search.apply_option((game, state, hidden, row), sim, seat, 0)
    assert sim[1][L.PUB_HAND_N + seat] == 8
    # its sampled world deals every other hand its own count of unseen cards
    search.world((game, state, hidden, row), sim, seat, 9, 1)
    assert list(sim[1][L.PUB_HAND_N:L.PUB_HAND_N + 4]) == [5, 6, 7, 8]
    assert [sim[2][s * L.OWN_LEN + L.OWN_HAND_N] for s in range(4)] == [5, 6, 7, 8]


def test_the_search_bot_plays_a_variant():
    """The search bot's games under a variant keep every invariant (hands within the
    variant's limit after each turn, its playouts on the variant's copy)."""
    from analyzer.games.lemminge.registry import resolve

    kinds = [L.LOOKAHEAD, L.RANDOM, L.RANDOM]
    spec = BotSpec("lookahead", (("rollouts", 2),))
    params = np.zeros((3, L.PARAMS_WIDTH))
    params[0] = resolve(spec).param_row(spec)
    games, players, _, _ = run(kinds, 3, params=params, hand_limit=4, push_cost=2)
    assert (games[:, L.GM_WINNER] >= 0).all() and (players[:, :, L.PL_HAND_START] == [2, 3, 4]).all()


def test_a_user_bot_sees_the_rules():
    t = Table(CORRIDOR, players=3, rules={"hand_limit": 7, "start_hands": {3: [1, 2, 7]}, "push_cost": 2,
                                          "backward_push": True, "double_zero": False})
    view = V.View(L.DECIDE_ACTION, 0, 0, t.game, t.state, t.params[0])
    assert V.hand_limit(view) == 7 and [V.start_hands(view, s) for s in range(3)] == [1, 2, 7]
    assert V.push_cost(view) == 2 and V.backward_push(view) == 1 and V.double_zero(view) == 0
    box = Table(CORRIDOR, players=3)
    view = V.View(L.DECIDE_ACTION, 0, 0, box.game, box.state, box.params[0])
    assert (V.hand_limit(view), V.push_cost(view), V.backward_push(view), V.double_zero(view)) == (6, 1, 0, 1)
    assert [V.start_hands(view, s) for s in range(3)] == [4, 5, 6]
    # a step's pushed lemmings and its cost, apart
    t.place(2, 2, 1)
    t.place(0, 1, 1)
    s = t.state
    n = R.list_steps(t.game, s, 0, WATER, 3, L.S_OPTIONS)
    view = V.View(L.DECIDE_STEP, 0, n, t.game, s, t.params[0])
    i = next(i for i in range(n) if s[L.S_OPTIONS + i * L.OPT_WIDTH + L.OPT_TARGET] == t.cell(2, 1))
    assert (V.step_cost(view, i), V.step_pushes(view, i)) == (3, 1)


def test_a_variant_compiles_no_kernel_again():
    """Two variants in one process play through the same compiled kernel: the
    dispatchers gain no signature (the rules are array contents, not types)."""
    from analyzer.games.lemminge import bots, rules as rules_module, search

    dispatchers = [K.play_games, K.one_turn, K.new_game, rules_module.refill, rules_module.reshuffle,
                   bots.decide_heuristic, search.lookahead_decide]
    run([L.RANDOM] * 4, 2)
    before = [tuple(d.signatures) for d in dispatchers]
    for values in ({"hand_limit": 4, "push_cost": 3}, {"backward_push": True, "double_zero": False,
                                                         "start_hands": {4: [6, 5, 4, 3]}}):
        run([L.RANDOM, BUILTIN["racer"].kind, L.RANDOM, L.RANDOM], 2, **values)
    assert [tuple(d.signatures) for d in dispatchers] == before


def test_a_replay_tells_a_push_and_its_cost_under_the_variant():
    from analyzer.games.lemminge.match import LemmingeMatch

    match = LemmingeMatch(None, 4, [BotSpec(b, ()) for b in ("racer", "convoy", "blocker", "random")],
                          rules=rules(push_cost=2))
    said = [o for g in range(4) for s in match.replay(5, g).steps for o in s.options if ", pushing" in o]
    assert said
    for option in said:
        pushed = int(option.split(", pushing ")[1].split(",")[0])
        assert option.endswith(f", cost {1 + 2 * pushed}"), option
    assert "rules: push_cost 2 (box otherwise)" in match.setup_lines()
