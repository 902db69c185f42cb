"""Mafia's search bot (``lookahead``, kind LOOKAHEAD, either role): the shared flat
Monte Carlo search (``analyzer/engine/search.py``) over this game's pieces.

It searches the decision that shapes a turn most, the move after the roll
(``D_MOVE``: which piece or pieces end where). Its candidates are the ``width``
best moves by its model's own evaluation (the heuristic ``policy`` names, with
that bot's defaults: ``bots.best_move``'s scores), the model's own pick first,
a move with the same pieces ending on the same spaces counted once. The width
grows with the budget unless the bot fixes it (``budget_width``): more playouts
buy a wider search, not only a finer one, as the strength ladder measured
(docs/mafia.md: five times the playouts on the default four candidates bought
the State nothing, on nine +2 pp). Every other
decision (cards, resisting, forbidding, arrests, with four players the
State-piece move) is its model's, in the game and in the playouts alike: it is
at least the model everywhere else. A family's base is its model's rule with the
city its ``base`` parameter names (``match.py`` sets the model's ``enna``): the
ring city by default, which wins more (docs/mafia.md); it is not searched.

Each rollout plays from a world consistent with what its seat sees: the map,
the pieces, the markers, its own hands and every side's count of the cards of
each deck are as they are; the cards held by the other sides are dealt anew
from those and the decks' (the decks' order is the dice stream's, drawn anew
too); every stream is seeded from (key, rollout), so each option meets the
same world and luck (common random numbers). After the option's move the
rest of its turn is played by its model, then ``horizon`` side turns of the
calendar (``budget_horizon``: 3, 4 with four players), every side played by the
playout policy (``playout``: the random bot, or each side by its own bot if that
is a heuristic or the random bot, else the strongest heuristic of its role,
packed by the match as ``G_PLAYOUT_*``). The position is scored for the
seat by the game's standing (``flow.standing``: a family's controlled spaces of
those it needs, the State's purge points of those that end the game, as the rules
the match plays say): its best side's less the best
rival's, plus ``win_points`` if the seat won in the playout, less it if another
side did or (four players) everyone lost.

The search runs where the calendar plays a turn (``kernel.play_turn``), not from
``ask``: its playouts play ``turn.take_turn``, which asks every decision of the
bots, so the kernel has no call cycle and its turn code is compiled once.
"""
import numpy as np

from analyzer.engine.jit import kernel
from analyzer.engine.rng import next_u64, seed_stream, shuffle
from analyzer.engine.search import T_PAIRED, flat_monte_carlo
from analyzer.games.mafia.bots import decide_heuristic, param
from analyzer.games.mafia.core import CALENDAR, ask, trace
from analyzer.games.mafia.flow import PROGRESS_UNIT, standing
from analyzer.games.mafia.layout import (
    CR_LEN, D_MOVE, DECK_SIZE, G_CHECK, G_KINDS, G_LEN, G_PARAMS, G_PLAYERS, G_PLAYOUT_KIND,
    G_PLAYOUT_PARAMS, G_SAFETY_CAP, G_SEAT, LOOKAHEAD, MAX_OPTIONS, MAX_SPACES, MODEL_WIDTH, N_SIDES,
    OUT_ALL_LOSE, OUT_DRAW, OUT_STATE, P_DROP, P_HORIZON, P_PLAYOUT, P_ROLLOUTS, P_WIDTH, P_WIN_POINTS,
    PARAMS_WIDTH, RANDOM, S_ASK_CARD, S_ASK_OTHER, S_ASK_PIECE, S_DIE_I, S_DIE_N, S_ERROR, S_HOLDER, S_LEN,
    S_LOC, S_NO_STATE_MOVE, S_OPT, S_OPT_N, S_PASS, S_RNG, S_RNG_SIDE, S_SCORE, S_SCRIPT_I, S_SCRIPT_N,
    S_SLOT, SEARCH_LEN, SP_LEN, STATE, T_ABOUT, T_ASK,
)
from analyzer.games.mafia.turn import take_turn, turn_from_move, turn_outcome

KEPT = 32  # rollouts whose values the drop of hopeless options looks at
MAX_WIDTH = 16  # candidates of a search at most (the ``width`` parameter's range)
# the candidates of a budget-grown width (``width`` 0): BASE_WIDTH at BASE_ROLLOUTS playouts, as the square root of
# the playouts beyond (progressive widening's k = C n^1/2): 2 at 6, 3 at 12, 6 at 48, 9 at 120, 16 from 384
BASE_WIDTH = 4
BASE_ROLLOUTS = 24
# the side turns of a playout unless the bot sets them (``horizon`` 0): three keep a decision cheap; with four
# players a whole pass of the calendar (the State is skipped) ends where the seat's win is checked, and four
# won +3.06 and +4.19 pp over three there (docs/mafia.md)
DEFAULT_HORIZON = 3
FOUR_HORIZON = 4
_WORLD_LANE = N_SIDES + 1  # the stream dealing the unseen cards (0: the dice, 1 + side: the sides)
# the work row of a search (int64), in the state's search room
W_OUTCOME = 0  # the playout's outcome (OUT_*), OUT_DRAW while it goes on
W_RNG = 1  # the world's stream
W_TOTAL = 2  # the move's options (the decision's n)
W_POOL = 3  # DECK_SIZE: the unseen cards of a deck, dealt anew
W_OPTIONS = W_POOL + DECK_SIZE  # MAX_WIDTH: each candidate's option index
W_LEN = W_OPTIONS + MAX_WIDTH
TABLE_LEN = MAX_WIDTH * (T_PAIRED + KEPT)  # the search's table (float64 in int64 slots)
assert G_LEN + S_LEN + MAX_SPACES * SP_LEN + W_LEN + TABLE_LEN <= SEARCH_LEN


@kernel(inline=True)
def search_area(s):
    """The playouts' arrays, views into the state's search room after ``S_LEN``: the
    game (its bots the playout policy's), the state, the spaces' counters, no card
    rows and no trace (a playout records nothing), the work row, the table."""
    at = S_LEN
    sim_g = s[at:at + G_LEN]
    at += G_LEN
    sim_s = s[at:at + S_LEN]
    at += S_LEN
    sim_sp = s[at:at + MAX_SPACES * SP_LEN].reshape((MAX_SPACES, SP_LEN))
    at += MAX_SPACES * SP_LEN
    work = s[at:at + W_LEN]
    at += W_LEN
    table = s[at:at + TABLE_LEN].view(np.float64)
    return sim_g, sim_s, sim_sp, s[0:0].reshape((0, CR_LEN)), s[0:0], work, table


@kernel
def move_answer(g, s, pt, tr, side, total):
    """The answer to ``side``'s move (``total`` options): a search bot's search,
    any other bot's ``ask``. A search bot's answer is traced as ``ask`` traces one."""
    if g[G_KINDS + side] != LOOKAHEAD or total <= 1:
        return ask(g, s, tr, side, D_MOVE, total)
    rng = S_RNG_SIDE + side
    key = next_u64(s, rng)  # drawn whatever the candidates: the bot's later draws stay put
    sim_g, sim_s, sim_sp, sim_cr, sim_tr, work, table_row = search_area(s)
    first = decide_heuristic(LOOKAHEAD, D_MOVE, total, side, g, s, rng)  # its model's pick and scores
    rollouts = max(1, int(param(g, side, P_ROLLOUTS)))
    n = candidates(s, total, first, budget_width(int(param(g, side, P_WIDTH)), rollouts), work)
    answer = work[W_OPTIONS]
    if n > 1:
        playout = param(g, side, P_PLAYOUT) > 0.5
        for i in range(G_LEN):
            sim_g[i] = g[i]
        for h in range(N_SIDES):
            sim_g[G_KINDS + h] = g[G_PLAYOUT_KIND + h] if playout else RANDOM
            for k in range(MODEL_WIDTH):
                sim_g[G_PARAMS + h * PARAMS_WIDTH + k] = g[G_PLAYOUT_PARAMS + h * MODEL_WIDTH + k]
        sim_g[G_CHECK] = 0
        work[W_TOTAL] = total
        width = T_PAIRED + KEPT
        best = _search((g, s), (sim_g, sim_s, pt, sim_sp, sim_cr, sim_tr, work), side, n,
                       rollouts, param(g, side, P_DROP), np.int64(key),
                       table_row[:n * width].reshape((n, width)))
        answer = work[W_OPTIONS + best]
    trace(tr, T_ABOUT, s[S_ASK_PIECE], s[S_ASK_OTHER], s[S_ASK_CARD])
    trace(tr, T_ASK, side, D_MOVE * 10000 + total, answer)
    return answer


@kernel(inline=True)
def budget_width(width, rollouts):
    """The candidates searched: ``width`` if the bot sets one (1-16), else (0) grown
    with the budget, BASE_WIDTH at BASE_ROLLOUTS playouts times the square root of
    rollouts / BASE_ROLLOUTS, rounded, 1 to MAX_WIDTH."""
    if width <= 0:
        width = int(np.floor(BASE_WIDTH * np.sqrt(rollouts / BASE_ROLLOUTS) + 0.5))
    return max(1, min(width, MAX_WIDTH))


@kernel(inline=True)
def budget_horizon(horizon, four):
    """The side turns a playout plays after the move's own turn: ``horizon`` if the
    bot sets one, else (0) DEFAULT_HORIZON, or a whole pass of the calendar with
    four players (FOUR_HORIZON), which brings the playout back to the seat's own
    turn, where its win is checked."""
    if horizon > 0:
        return horizon
    return FOUR_HORIZON if four else DEFAULT_HORIZON


@kernel
def candidates(s, total, first, width, work):
    """The options searched, into the work row: the model's pick ``first``, then the
    listed moves in the order of the model's scores (``S_SCORE``, the first of
    equals), a move that ends the same pieces on the same spaces as one taken
    left out, ``width`` at most. Returns how many."""
    m = min(total, MAX_OPTIONS, s[S_OPT_N])
    work[W_OPTIONS] = first
    n = 1
    while n < width:
        best = -1
        for i in range(m):
            if best >= 0 and s[S_SCORE + i] <= s[S_SCORE + best]:
                continue
            taken = False
            for j in range(n):
                taken = taken or same_move(s, i, work[W_OPTIONS + j])
            if not taken:
                best = i
        if best < 0:
            break
        work[W_OPTIONS + n] = best
        n += 1
    return n


@kernel(inline=True)
def same_move(s, i, j):
    """Listed options ``i`` and ``j`` end the same pieces on the same spaces."""
    a = S_OPT + 4 * i
    b = S_OPT + 4 * j
    if s[a] == s[b] and s[a + 1] == s[b + 1] and s[a + 2] == s[b + 2] and s[a + 3] == s[b + 3]:
        return True
    return s[a] == s[b + 2] and s[a + 1] == s[b + 3] and s[a + 2] == s[b] and s[a + 3] == s[b + 1]


@kernel
def world(here, sim, seat, key, r):
    """Rollout ``r``'s world: the position copied (pieces, markers, cards, freezes,
    the roll), the cards of other sides' hands dealt anew from those and the
    deck's (each side keeps its count of each deck), every stream seeded from
    (key, r)."""
    g, s = here
    sim_s, work = sim[1], sim[6]
    for i in range(S_LOC, S_SCRIPT_N):  # the rules' state, up to the tests' scripts
        sim_s[i] = s[i]
    sim_s[S_SLOT] = s[S_SLOT]
    sim_s[S_NO_STATE_MOVE] = s[S_NO_STATE_MOVE]
    sim_s[S_ERROR] = 0
    sim_s[S_SCRIPT_N] = 0
    sim_s[S_SCRIPT_I] = 0
    sim_s[S_DIE_N] = 0
    sim_s[S_DIE_I] = 0
    seed_stream(work, W_RNG, key, r, _WORLD_LANE)
    mine = g[G_SEAT + seat]
    for deck in range(3):
        first = deck * DECK_SIZE
        n = 0
        for c in range(first, first + DECK_SIZE):
            h = s[S_HOLDER + c]
            if h < 0 or g[G_SEAT + h] != mine:
                work[W_POOL + n] = c
                n += 1
        shuffle(work, W_POOL, n, work, W_RNG)
        n = 0
        for c in range(first, first + DECK_SIZE):  # each unseen place (a hand, the deck) takes one
            h = s[S_HOLDER + c]
            if h < 0 or g[G_SEAT + h] != mine:
                sim_s[S_HOLDER + work[W_POOL + n]] = h
                n += 1
    seed_stream(sim_s, S_RNG, key, r, 0)
    for side in range(N_SIDES):
        seed_stream(sim_s, S_RNG_SIDE + side, key, r, 1 + side)
    work[W_OUTCOME] = OUT_DRAW


@kernel
def apply_option(here, sim, seat, k):
    """Candidate ``k`` moved, the rest of the seat's turn played by its model.
    (The game never ends within a turn: False.)"""
    sim_g, sim_s, pt, sim_sp, sim_cr, sim_tr, work = sim
    kind = sim_g[G_KINDS + seat]
    sim_g[G_KINDS + seat] = here[0][G_PLAYOUT_KIND + seat]
    turn_from_move(sim_g, sim_s, pt, sim_sp, sim_cr, sim_tr, seat, work[W_TOTAL], work[W_OPTIONS + k])
    sim_g[G_KINDS + seat] = kind
    return False


@kernel
def play_out(here, sim, seat):
    """``horizon`` more side turns of the calendar (fewer if the game ends: its
    outcome in the work row; at the rules' safety cap, a draw), every side by the
    playout policy."""
    sim_g, sim_s, pt, sim_sp, sim_cr, sim_tr, work = sim
    four = sim_g[G_PLAYERS] == 4
    turns = budget_horizon(int(param(here[0], seat, P_HORIZON)), four)
    slot = sim_s[S_SLOT]
    while turns > 0:
        slot += 1
        if slot == 6:
            slot = 0
            sim_s[S_PASS] += 1
            if sim_s[S_PASS] >= sim_g[G_SAFETY_CAP]:  # the game would be a draw there
                return
        side = CALENDAR[slot]
        if side == STATE and four:
            continue
        outcome = turn_outcome(sim_g, sim_s, side)
        if outcome != OUT_DRAW:
            work[W_OUTCOME] = outcome
            return
        sim_s[S_SLOT] = slot
        take_turn(sim_g, sim_s, pt, sim_sp, sim_cr, sim_tr, side)
        turns -= 1


@kernel
def outcome(here, sim, seat):
    """The standing of the seat's best side less the best rival's (shares of their
    goals, 0 to 1), plus ``win_points`` if the seat won, less it if another side
    won or everyone lost."""
    g = here[0]
    sim_s, work = sim[1], sim[6]
    mine = g[G_SEAT + seat]
    own = 0
    rival = 0
    for side in range(N_SIDES):
        if g[G_SEAT + side] < 0:  # not in the game (with four players: the State)
            continue
        v = standing(g, sim_s, side)
        if g[G_SEAT + side] == mine:
            own = max(own, v)
        else:
            rival = max(rival, v)
    value = (own - rival) / PROGRESS_UNIT
    result = work[W_OUTCOME]
    if result != OUT_DRAW:
        win = param(g, seat, P_WIN_POINTS)
        if result == OUT_ALL_LOSE:
            value -= win
        else:
            winner = STATE if result == OUT_STATE else result - 1
            value += win if g[G_SEAT + winner] == mine else -win
    return value


_search = flat_monte_carlo(world, apply_option, play_out, outcome)
