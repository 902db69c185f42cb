"""A side's turn of Mafia, jitted (``shared/rules/mafia.md``, "A side's turn"): (a)
returns and (b, c) the roll and the move in ``movement.py``, (d) the activities
of a moved piece in ``activities.py``. Cut at the move (``turn_to_move``, the
move's answer, ``turn_from_move``): the calendar (``kernel.py``) lets a search
bot answer it by its search, whose playouts (``search.py``) play ``take_turn``."""
from analyzer.engine.jit import kernel
from analyzer.games.mafia.activities import sisde_pair
from analyzer.games.mafia.core import ask, controlled, die, offer, trace
from analyzer.games.mafia.layout import (
    AIRPORT_BOMB, ATI_STRIKE, BARRACKS, D_HELI_DIE, D_MOVE, DECK_SIZE, G_AIRPORT, G_PLAYERS, G_WIN_SPACES,
    GM_SIDE_TURNS, OUT_ALL_LOSE, OUT_DRAW, OUT_STATE,
    GM_SIDE_TURNS_FROZEN, HELIBORNE, N_CARDS, N_FAMILIES, N_PIECES, PREFECT, S_ASK_OTHER, S_ASK_PIECE, S_DICE,
    S_FROZEN, S_GM, S_HOLDER, S_LOC, S_NO_AIR, S_NO_STATE_MOVE, S_PASS, S_SD, S_SIDE, S_STATE_PIECE_FROZEN,
    SD_LEN, SD_SIDE_TURNS, SPY, STATE, T_AIR_CLOSED, T_DICE, T_FROZEN, T_HELI, T_TURN,
)
from analyzer.games.mafia.movement import (
    anti_mafia_window, boss_visit_window, own_move, own_moves, returns, state_piece_move,
)
from analyzer.games.mafia.purge import purge_end, purge_halves


@kernel
def take_turn(g, s, pt, sp, cr, tr, side):
    """A side's turn: (a) returns; (b) two dice; (c) move; (d) activities. A frozen
    side does (a) only. Its move is asked of its bot (a search bot's own search
    is the calendar's: ``kernel.play_turn``)."""
    total = turn_to_move(g, s, pt, sp, cr, tr, side)
    if total >= 0:
        turn_from_move(g, s, pt, sp, cr, tr, side, total, ask(g, s, tr, side, D_MOVE, total))


@kernel
def turn_to_move(g, s, pt, sp, cr, tr, side):
    """A side's turn up to its move: (a) returns, the windows after them, (b) the
    roll and its windows. Returns how many move options the roll gives (listed in
    ``S_OPT`` for a bot that reads them), -1 for a frozen side (its turn is over)."""
    s[S_SIDE] = side
    trace(tr, T_TURN, side, s[S_PASS], 0)
    four = g[G_PLAYERS] == 4
    s[S_GM + GM_SIDE_TURNS] += 1
    s[S_SD + side * SD_LEN + SD_SIDE_TURNS] += 1
    frozen = s[S_FROZEN + side] == 1
    s[S_FROZEN + side] = 0
    s[S_NO_STATE_MOVE] = 0
    if four:
        s[S_NO_STATE_MOVE] = s[S_STATE_PIECE_FROZEN]
        s[S_STATE_PIECE_FROZEN] = 0
    returns(g, s, cr, tr, side)
    if frozen:
        s[S_GM + GM_SIDE_TURNS_FROZEN] += 1
        trace(tr, T_FROZEN, side, 0, 0)
        return -1
    # windows that open once, right after (a)
    if side == STATE:
        for f in range(N_FAMILIES):
            if s[S_LOC + 3 * f] == BARRACKS:
                sisde_pair(g, s, sp, cr, tr, 3 * f)
    elif not four:
        hand = False
        for c in range(DECK_SIZE, N_CARDS):
            hand = hand or s[S_HOLDER + c] == STATE
        if hand:
            s[S_ASK_PIECE] = -1
            offer(g, s, cr, tr, side, SPY)
    # (b) the roll
    s[S_DICE] = die(s)
    s[S_DICE + 1] = die(s)
    trace(tr, T_DICE, side, s[S_DICE], s[S_DICE + 1])
    s[S_NO_AIR] = 0
    if side == STATE:
        on_map = False
        for p in range(PREFECT, N_PIECES):
            on_map = on_map or s[S_LOC + p] >= 0
        s[S_ASK_PIECE] = -1
        if on_map and offer(g, s, cr, tr, STATE, HELIBORNE):
            for i in range(2):
                d = s[S_DICE + i]
                low = max(1, d - 2)
                high = min(6, d + 2)
                s[S_ASK_PIECE] = low
                s[S_ASK_OTHER] = i
                s[S_DICE + i] = low + ask(g, s, tr, STATE, D_HELI_DIE, high - low + 1)
            trace(tr, T_HELI, side, s[S_DICE], s[S_DICE + 1])
        loc = s[S_LOC + PREFECT]
        if loc >= 0 and g[G_AIRPORT + loc] == 1:
            for f in range(N_FAMILIES):
                if s[S_HOLDER + AIRPORT_BOMB] == f:
                    s[S_ASK_PIECE] = PREFECT
                    if offer(g, s, cr, tr, f, AIRPORT_BOMB):
                        s[S_NO_AIR] = 1
                        trace(tr, T_AIR_CLOSED, f, 0, 0)
    elif not four:
        loc = s[S_LOC + 3 * side]
        if loc >= 0 and g[G_AIRPORT + loc] == 1:
            s[S_ASK_PIECE] = 3 * side
            if offer(g, s, cr, tr, STATE, ATI_STRIKE):
                s[S_NO_AIR] = 1
                trace(tr, T_AIR_CLOSED, STATE, 0, 0)
    return own_moves(g, s, pt, side)


@kernel
def turn_from_move(g, s, pt, sp, cr, tr, side, total, k):
    """The rest of the turn from its move: (c) option ``k`` of the ``total``, (d) the
    activities, the windows after them (with four players the State-piece move)."""
    four = g[G_PLAYERS] == 4
    own_move(g, s, pt, sp, cr, tr, side, total, k)
    s[S_NO_AIR] = 0
    if side == STATE:
        anti_mafia_window(g, s, cr, tr, STATE)
    else:
        boss_visit_window(g, s, sp, cr, tr, side)
        if four:
            if s[S_NO_STATE_MOVE] == 0:
                state_piece_move(g, s, pt, sp, cr, tr, side)
            for c in range(DECK_SIZE, N_CARDS):  # the temporary cards go back
                if s[S_HOLDER + c] == side:
                    s[S_HOLDER + c] = -1


@kernel
def turn_outcome(g, s, side):
    """The end checks at the start of ``side``'s turn: its win (a family's controlled
    spaces, the State's purge points: the rules' ``spaces_to_win`` and
    ``purge_points_to_end``), with four players everyone losing on the purge points
    that end the game; OUT_DRAW while the game goes on."""
    if side == STATE:
        return OUT_STATE if purge_halves(g, s) >= purge_end(g) else OUT_DRAW
    if controlled(g, s, side) >= g[G_WIN_SPACES]:
        return 1 + side
    if g[G_PLAYERS] == 4 and purge_halves(g, s) >= purge_end(g):
        return OUT_ALL_LOSE
    return OUT_DRAW
