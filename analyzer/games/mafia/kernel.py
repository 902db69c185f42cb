"""The rules of Mafia as ``shared/rules/mafia.md`` states them, jitted: a game
is the calendar (``play_game``), a side's turn (``take_turn``: (a) returns and
(b, c) the roll and the move in ``movement.py``, (d) the activities of a moved
piece in ``activities.py``: ``resolve``, 1. the space acts on it, 2. the pieces
already there act on it, 3. it acts), the end checks and the records (here);
what every phase uses (dice, ``ask``, cards, boxes, markers) is ``core.py``. The readings where the page was open are in ``docs/mafia.md``.

``play_games`` plays games ``first .. first+count-1`` of a seed into record
arrays (``layout.py`` columns):

- ``games``  [count, GM_LEN]
- ``sides``  [count, N_SIDES, SD_LEN]
- ``cards``  [rows, CR_LEN]: a row per card played, for the whole chunk (when it is
  full the status is ERROR_CARD_ROWS and the caller plays the chunk again with more rows)
- ``spaces`` [n_spaces, SP_LEN], summed over the chunk

A game's results depend only on (seed, game index): the dice and the decks
draw from lane 0 of stream ``index``, each side's own choices from lane
1 + side (common random numbers: two bots compared in one seat see the same
dice). Every decision of a bot goes through ``ask``.

User bots (kinds >= USER_KIND_BASE) are answered through
``engine/bot_table.call_bot`` (the signature of ``engine/userbots.py``), by the
address of the bot's own compiled code, handed a view of what their side may
see (``ask_user``, layout ``V_*``, named in ``view.py``): the kernel is
compiled once, for every bot, and cached (the pattern every game's kernel
follows, ``analyzer/games/protocol.py``).
"""
import numpy as np

from analyzer.engine.jit import USER_KIND_BASE, kernel
from analyzer.engine.rng import seed_stream
from analyzer.games.mafia import layout as L
from analyzer.games.mafia.core import CALENDAR, ask, controlled, controlled_scan, trace
from analyzer.games.mafia.flow import note_standing, record_flow
from analyzer.games.mafia.layout import (
    CC1, CITY, D_BASE, DECK_SIZE, ERROR_INVARIANT, G_CC_START, G_CHECK, G_KINDS, G_MARKERS, G_N_SPACES, G_OPEN,
    G_PLAYERS, G_SAFETY_CAP,
    G_PREFECT_START, G_SISDE_START, G_TRIGGER, G_TYPE, GM_CALENDAR_TURNS, GM_LEN, GM_MARKERS_ON_MAP,
    GM_OUTCOME, GM_PURGE_HALVES, GM_WINNER_SPACES, N_CARDS, N_CC, N_FAMILIES, N_PIECES, N_SIDES,
    OUT, OUT_ALL_LOSE, OUT_DRAW, OUT_STATE, PREFECT, S_ALL, S_BASE, S_ERROR, S_FROZEN, S_GAME_I, S_GM,
    S_HOLDER, S_LEN, S_LOC, S_MARK, S_MOVED_STATE, S_NO_AIR, S_PASS, S_RNG, S_RNG_SIDE, S_SD, S_SLOT,
    S_STATE_PIECE_FROZEN, S_SUPPLY, S_TRIGGER, S_TYPE, SD_BASE, SD_LEN, SD_MARKERS_END, SD_SPACES_END,
    SD_WON, SISDE, STATE, T_BASE, T_END,
)
from analyzer.games.mafia.purge import purge_halves
from analyzer.games.mafia.search import move_answer
from analyzer.games.mafia.turn import (  # noqa: F401 (take_turn: the tests play turns of it)
    take_turn, turn_from_move, turn_outcome, turn_to_move,
)


# ====================================================================== the game

@kernel
def play_turn(g, s, pt, sp, cr, tr, side):
    """A side's turn in the calendar: ``turn.take_turn``, its move answered by a
    search bot's search (``search.move_answer``; its playouts play ``take_turn``,
    which asks every move of the bots: no search inside a search)."""
    total = turn_to_move(g, s, pt, sp, cr, tr, side)
    if total >= 0:
        turn_from_move(g, s, pt, sp, cr, tr, side, total, move_answer(g, s, pt, tr, side, total))



@kernel
def check_invariants(g, s):
    """Pieces on the map or in a box; the rules' markers per family over map and supply, one
    family per space; every card in its deck or in a hand that may hold it."""
    n = g[G_N_SPACES]
    for p in range(N_PIECES):
        loc = s[S_LOC + p]
        if loc >= n or loc < OUT:
            return False
    for f in range(N_FAMILIES):
        total = s[S_SUPPLY + f]
        for x in range(n):
            total += s[S_MARK + 4 * x + f]
        if total != g[G_MARKERS] or s[S_SUPPLY + f] < 0:
            return False
        if controlled(g, s, f) != controlled_scan(g, s, f):
            return False
    for x in range(n):
        families = 0
        for f in range(N_FAMILIES):
            families += s[S_MARK + 4 * x + f] > 0
        if families > 1 or (families == 1 and s[S_TYPE + x] == CITY):
            return False
    for c in range(N_CARDS):
        h = s[S_HOLDER + c]
        if h < -1 or h >= N_SIDES:
            return False
        if h >= 0 and c < DECK_SIZE and h == STATE:
            return False
        if h >= 0 and c >= DECK_SIZE and h != STATE and g[G_PLAYERS] != 4:
            return False
    return True


@kernel
def setup(g, s, sp, tr):
    """Bases (each family in calendar order picks among the cities open to it),
    the State's pieces, decks, supplies."""
    n = g[G_N_SPACES]
    for x in range(n):
        s[S_TYPE + x] = g[G_TYPE + x]
        s[S_TRIGGER + x] = g[G_TRIGGER + x]
        for f in range(N_FAMILIES):
            s[S_MARK + 4 * x + f] = 0
    for c in range(N_CARDS):
        s[S_HOLDER + c] = -1
    for i in range(N_SIDES):
        s[S_FROZEN + i] = 0
    s[S_STATE_PIECE_FROZEN] = 0
    s[S_NO_AIR] = 0
    s[S_MOVED_STATE] = -1
    s[S_ERROR] = 0
    for f in range(N_FAMILIES):
        s[S_SUPPLY + f] = g[G_MARKERS]
        s[L.S_CONTROLLED + f] = 0
        k = 0
        for x in range(n):
            k += (g[G_OPEN + x] >> f) & 1
        pick = ask(g, s, tr, f, D_BASE, k)
        for x in range(n):
            if (g[G_OPEN + x] >> f) & 1:
                if pick == 0:
                    s[S_BASE + f] = x
                    break
                pick -= 1
        for q in range(3 * f, 3 * f + 3):
            s[S_LOC + q] = s[S_BASE + f]
        trace(tr, T_BASE, f, s[S_BASE + f], 0)
    s[S_LOC + PREFECT] = g[G_PREFECT_START]
    s[S_LOC + SISDE] = g[G_SISDE_START] if g[G_PLAYERS] != 4 else OUT
    for i in range(N_CC):
        s[S_LOC + CC1 + i] = g[G_CC_START + i]


@kernel
def play_game(g, s, pt, sp, cr, tr):
    """A game: the setup, then the calendar. Returns the error code (0: fine)."""
    setup(g, s, sp, tr)
    return calendar(g, s, pt, sp, cr, tr)


@kernel
def calendar(g, s, pt, sp, cr, tr):
    """The calendar until a side wins at the start of its turn, everyone loses
    (four players) or the rules' safety cap of passes ends (a draw). The outcome and
    counters are left in the state's games and sides rows. Returns the error code (0: fine)."""
    players = g[G_PLAYERS]
    outcome = OUT_DRAW
    cap = g[G_SAFETY_CAP]
    passes = cap
    for pas in range(cap):
        s[S_PASS] = pas
        for slot in range(6):
            side = CALENDAR[slot]
            if side == STATE and players == 4:
                continue
            outcome = turn_outcome(g, s, side)
            if outcome != OUT_DRAW:
                if outcome != OUT_STATE and outcome != OUT_ALL_LOSE:
                    s[S_GM + GM_WINNER_SPACES] = controlled(g, s, side)
                break
            s[S_SLOT] = slot
            play_turn(g, s, pt, sp, cr, tr, side)
            note_standing(g, s)
            if g[G_CHECK] == 1 and s[S_ERROR] == 0 and not check_invariants(g, s):
                s[S_ERROR] = ERROR_INVARIANT * 8 + side
            if s[S_ERROR] != 0:
                break
        if outcome != OUT_DRAW or s[S_ERROR] != 0:
            passes = pas + 1
            break
    s[S_GM + GM_CALENDAR_TURNS] = passes
    s[S_GM + GM_OUTCOME] = outcome
    record_flow(s, outcome)
    s[S_GM + GM_PURGE_HALVES] = purge_halves(g, s)
    on_map = 0
    for f in range(N_FAMILIES):
        on_map += g[G_MARKERS] - s[S_SUPPLY + f]
        at = S_SD + f * SD_LEN
        s[at + SD_BASE] = s[S_BASE + f]
        s[at + SD_MARKERS_END] = g[G_MARKERS] - s[S_SUPPLY + f]
        s[at + SD_SPACES_END] = controlled(g, s, f)
        s[at + SD_WON] = 1 if outcome == 1 + f else 0
    s[S_GM + GM_MARKERS_ON_MAP] = on_map
    s[S_SD + STATE * SD_LEN + SD_WON] = 1 if outcome == OUT_STATE else 0
    s[S_SD + STATE * SD_LEN + SD_BASE] = -1
    trace(tr, T_END, outcome, passes, 0)
    return s[S_ERROR]


@kernel
def start_game(g, s, seed, index):
    """Clear the state's counters and point its streams at game ``index``."""
    for i in range(S_GM, S_LEN):
        s[i] = 0
    for side in range(N_SIDES):
        if g[G_KINDS + side] >= USER_KIND_BASE:  # user bots' parameters and memory
            for i in range(L.S_USER, L.S_USER + N_SIDES * L.USER_WIDTH):
                s[i] = 0
            break
    seed_stream(s, S_RNG, seed, index, 0)
    for side in range(N_SIDES):
        seed_stream(s, S_RNG_SIDE + side, seed, index, 1 + side)


@kernel(allocates=True)
def play_games(g, pt, seed, first, count, games, sides, cards, spaces):
    """Games ``first .. first+count-1`` into the record arrays; the status (0: fine,
    else error * 8 + side + (game index << 32))."""
    s = np.zeros(S_ALL, np.int64)  # the game's state, then a search bot's room
    tr = np.zeros(0, np.int64)
    for i in range(count):
        index = first + i
        start_game(g, s, seed, index)
        s[S_GAME_I] = i
        status = play_game(g, s, pt, spaces, cards, tr)
        for k in range(GM_LEN):
            games[i, k] = s[S_GM + k]
        for side in range(N_SIDES):
            for k in range(SD_LEN):
                sides[i, side, k] = s[S_SD + side * SD_LEN + k]
        if status != 0:
            return status + (index << 32)
    return 0


@kernel(allocates=True)
def replay_game(g, pt, seed, index, games, sides, cards, spaces, tr):
    """Game ``index`` alone, its events appended to ``tr`` (the same streams as in a run)."""
    s = np.zeros(S_ALL, np.int64)  # the game's state, then a search bot's room
    start_game(g, s, seed, index)
    status = play_game(g, s, pt, spaces, cards, tr)
    for k in range(GM_LEN):
        games[0, k] = s[S_GM + k]
    for side in range(N_SIDES):
        for k in range(SD_LEN):
            sides[0, side, k] = s[S_SD + side * SD_LEN + k]
    return status
