"""Mafia's rules, jitted: the pieces every phase uses. The trace of a replay,
the dice, asking a side's bot (``ask``: built-in bots inlined, user bots by the
address of their code through ``engine/bot_table.py``), control of a space, the
cards (draw, play, offer, return), the boxes (prison, hospital, out) and the
control markers. ``kernel.py`` is the game; ``activities.py`` and
``movement.py`` are the phases of a side's turn (``shared/rules/mafia.md``)."""
import numpy as np

from analyzer.engine.bot_table import call_bot
from analyzer.engine.jit import USER_KIND_BASE, kernel
from analyzer.engine.rng import below
from analyzer.games.mafia import layout as L
from analyzer.games.mafia.bots import decide_heuristic
from analyzer.games.mafia.layout import (
    BARRACKS, G_PARAMS, G_SEAT, PARAMS_WIDTH, CITY, CONTINENT, CR_CARD, CR_GAME, CR_PASS, CR_SIDE,
    D_ANTI_MAFIA_SPACE, D_ARREST, D_BASE, D_CARD, D_GIVE_UP, D_HELI_DIE, D_MOVE, D_RESIST, D_STATE_MOVE,
    D_VISIT_SPACE, DECK_SIZE, ERROR_ANSWER, ERROR_CARD_ROWS, FIRST_HEURISTIC, G_KINDS, G_N_SPACES, G_OPEN,
    G_PLAYERS, GM_ARRESTS, GM_CARD_ROWS, GM_DRAWN, GM_ELIMINATIONS, GM_HOLDS, GM_MARKERS_PLACED,
    GM_MARKERS_REMOVED, GM_PLAYED, N_CARDS, N_FAMILIES, N_PIECES, N_SIDES, PREFECT, PRISON, RANDOM,
    S_ASK_CARD, S_ASK_OTHER, S_ASK_PIECE, S_BASE, S_CARD_AT, S_GAME_I, S_DICE, S_DIE_I, S_DIE_N, S_DIE_SCRIPT,
    S_ERROR, S_FROZEN, S_GM, S_HOLDER, S_LOC, S_MARK, S_MOVED_STATE, S_NO_AIR, S_PASS, S_RNG, S_OPT, S_OPT_N,
    MAX_OPTIONS, S_RNG_SIDE, S_SCRIPT, S_SCRIPT_I, S_SCRIPT_N, S_SD, S_SIDE, S_STATE_PIECE_FROZEN, S_SUPPLY,
    S_TRIGGER, S_TYPE, SCRIPTED, SD_CARDS_DRAWN, SD_CARDS_PLAYED, SD_LEN, SD_PIECES_LOST, SP_ARRESTS,
    SP_ELIMINATIONS, SP_HOLDS, SP_MARKERS_PLACED, SP_MARKERS_REMOVED, STATE, T_ASK, T_BOX, T_CARD, T_DRAW,
    T_MARKER_OFF, T_MARKER_ON, USA, T_ABOUT, T_TRIGGER_ROLL, T_MARKER_ROLL,
)
from analyzer.games.mafia.random_bot import decide_random


CALENDAR = np.array([0, 1, STATE, 2, 3, STATE], np.int64)


# ====================================================================== small helpers

@kernel
def trace_put(tr, code, a, b, c):
    n = tr[0]
    at = 1 + 4 * n
    if at + 4 <= tr.shape[0]:
        tr[at] = code
        tr[at + 1] = a
        tr[at + 2] = b
        tr[at + 3] = c
        tr[0] = n + 1


@kernel(inline=True)
def trace(tr, code, a, b, c):
    """Append an event to the replay trace (a buffer of length 0 in normal runs:
    then this is one compare)."""
    if tr.shape[0] > 0:
        trace_put(tr, code, a, b, c)


@kernel(inline=True)
def owner(p):
    return p // 3 if p < 12 else STATE


@kernel(inline=True)
def is_boss(p):
    return p < 12 and p % 3 == 0


@kernel(inline=True)
def is_picciotto(p):
    return p < 12 and p % 3 != 0


@kernel(inline=True)
def die(s):
    """One die: from the test script while it lasts, else from the dice stream."""
    i = s[S_DIE_I]
    if i < s[S_DIE_N]:
        s[S_DIE_I] = i + 1
        return s[S_DIE_SCRIPT + i]
    return 1 + below(s, S_RNG, 6)


@kernel(inline=True)
def trigger_die(s, tr, p, x):
    """The die a space with a trigger rolls against piece ``p`` (traced for the replay)."""
    face = die(s)
    trace(tr, T_TRIGGER_ROLL, p, x, face)
    return face


@kernel(inline=True)
def marker_die(s, tr, p, x):
    """A Picciotto's marker die or a CC's marker-removal die (traced for the replay)."""
    face = die(s)
    trace(tr, T_MARKER_ROLL, p, x, face)
    return face


@kernel(inline=True)
def ask(g, s, tr, side, what, n):
    """One decision of the bot playing ``side``: an option 0 .. n-1 (for yes/no
    decisions and cards n = 2 and 1 means yes). A single option is taken
    without asking. The reference random bot is answered here (the hot path);
    every other bot, and every decision of a traced game, by ``ask_bot``."""
    if n <= 1 and what != D_CARD and not (D_ARREST <= what <= D_RESIST):
        return 0
    if g[G_KINDS + side] == RANDOM and tr.shape[0] == 0:
        return decide_random(what, n, s, S_RNG_SIDE + side)
    return ask_bot(g, s, tr, side, what, n)


@kernel
def ask_user(g, s, side, what, n, kind):
    """A user bot's decision for ``side``. It is handed a copy of what the side may
    see (layout ``V_*``, at ``S_VIEW``: the map, the pieces, the markers, its own
    hand and the counts of the others', the options of this decision) and a float64
    view of its row of ``S_USER`` (its parameters, then its memory, which stays for
    the game); its own random stream is copied back after."""
    v = L.S_VIEW
    s[v + L.V_SIDE] = side
    s[v + L.V_TURN_SIDE] = s[S_SIDE]
    s[v + L.V_PASS] = s[S_PASS]
    s[v + L.V_DICE] = s[S_DICE]
    s[v + L.V_DICE + 1] = s[S_DICE + 1]
    s[v + L.V_ASK_PIECE] = s[S_ASK_PIECE]
    s[v + L.V_ASK_OTHER] = s[S_ASK_OTHER]
    s[v + L.V_ASK_CARD] = s[S_ASK_CARD]
    s[v + L.V_NO_AIR] = s[S_NO_AIR]
    s[v + L.V_STATE_PIECE_FROZEN] = s[S_STATE_PIECE_FROZEN]
    s[v + L.V_MOVED_STATE] = s[S_MOVED_STATE]
    s[v + L.V_RNG] = s[S_RNG_SIDE + side]
    for p in range(N_PIECES):
        s[v + L.V_LOC + p] = s[S_LOC + p]
    for f in range(N_FAMILIES):
        s[v + L.V_BASE + f] = s[S_BASE + f]
        s[v + L.V_SUPPLY + f] = s[S_SUPPLY + f]
    for i in range(N_SIDES):
        s[v + L.V_FROZEN + i] = s[S_FROZEN + i]
        s[v + L.V_HAND_COUNT + i] = 0
    for d in range(3):
        s[v + L.V_DECK_COUNT + d] = 0
    for c in range(N_CARDS):
        h = s[S_HOLDER + c]
        s[v + L.V_HAND + c] = 1 if h == side else 0
        if h >= 0:
            s[v + L.V_HAND_COUNT + h] += 1
        else:
            s[v + L.V_DECK_COUNT + c // DECK_SIZE] += 1
    n_spaces = g[G_N_SPACES]
    for x in range(n_spaces):
        s[v + L.V_TYPE + x] = s[S_TYPE + x]
        s[v + L.V_TRIGGER + x] = s[S_TRIGGER + x]
        for f in range(N_FAMILIES):
            s[v + L.V_MARK + 4 * x + f] = s[S_MARK + 4 * x + f]
    # the options, in the order of the decision's option index (as the kernel counts them)
    o = v + L.V_OPTIONS
    m = min(n, MAX_OPTIONS)
    if what == D_MOVE or what == D_STATE_MOVE:
        m = min(m, s[S_OPT_N])  # a bot sees the listed moves only
        for i in range(m):
            s[o + i] = s[S_OPT + 4 * i]
            for k in range(4):
                s[v + L.V_MOVES + 4 * i + k] = s[S_OPT + 4 * i + k]
    elif what == D_BASE:
        k = 0
        for x in range(n_spaces):
            if (g[G_OPEN + x] >> side) & 1 and k < m:
                s[o + k] = x
                k += 1
    elif what == D_GIVE_UP:
        k = 0
        for c in range(DECK_SIZE if side == STATE else 0, N_CARDS if side == STATE else DECK_SIZE):
            if s[S_HOLDER + c] == side and k < m:
                s[o + k] = c
                k += 1
    elif what == D_VISIT_SPACE:
        k = 0
        for x in range(n_spaces):
            if s[S_MARK + 4 * x + side] > 0 and k < m:
                s[o + k] = x
                k += 1
    elif what == D_ANTI_MAFIA_SPACE:
        k = 0
        for x in range(n_spaces):
            if s[S_TYPE + x] != CITY and k < m:
                s[o + k] = x
                k += 1
    elif what == D_HELI_DIE:
        for i in range(m):
            s[o + i] = s[S_ASK_PIECE] + i
    else:  # yes/no decisions and cards: 0 no, 1 yes
        for i in range(m):
            s[o + i] = i
    at = L.S_USER + side * L.USER_WIDTH
    for k in range(L.N_PARAMS):  # the parameters as the match packed them (float64 bits)
        s[at + k] = g[G_PARAMS + side * PARAMS_WIDTH + k]
    answer = call_bot(what, g[G_SEAT + side], kind, g, s[v:v + L.V_LEN],
                      s[at:at + L.USER_WIDTH].view(np.float64), m)
    s[S_RNG_SIDE + side] = s[v + L.V_RNG]
    return answer


@kernel
def ask_bot(g, s, tr, side, what, n):
    """A decision of any bot. Bots see the state array (the kernel keeps nothing
    hidden from them but the order of the decks, which lives in the dice
    stream); the scripted test bot answers from the script, then takes the
    first option (no, for yes/no decisions and cards)."""
    kind = g[G_KINDS + side]
    rng = S_RNG_SIDE + side
    if kind == RANDOM:
        answer = decide_random(what, n, s, rng)
    elif kind == SCRIPTED:
        answer = 0
        if s[S_SCRIPT_I] < s[S_SCRIPT_N]:
            answer = s[S_SCRIPT + s[S_SCRIPT_I]]
            s[S_SCRIPT_I] += 1
    elif kind >= USER_KIND_BASE:
        answer = ask_user(g, s, side, what, n, kind)
    elif kind >= FIRST_HEURISTIC:
        answer = decide_heuristic(kind, what, n, side, g, s, rng)
    else:
        answer = -1
    if answer < 0 or answer >= n:
        if s[S_ERROR] == 0:
            s[S_ERROR] = ERROR_ANSWER * 8 + side
        answer = 0
    trace(tr, T_ABOUT, s[S_ASK_PIECE], s[S_ASK_OTHER], s[S_ASK_CARD])
    trace(tr, T_ASK, side, what * 10000 + n, answer)
    return answer


@kernel(inline=True)
def state_decider(g, s):
    """Who takes the State's decisions and holds its cards: the State, or with four
    players the family whose turn it is (its temporary ROME and SISDE cards)."""
    return s[S_SIDE] if g[G_PLAYERS] == 4 else STATE


@kernel(inline=True)
def controlled(g, s, f):
    """Spaces family ``f`` controls: kept by the marker functions (``add_marker``,
    ``remove_marker``, ``place_marker``) instead of a scan of every space before each
    family turn; ``check_invariants`` compares it with the scan."""
    return s[L.S_CONTROLLED + f]


@kernel
def controlled_scan(g, s, f):
    n = 0
    for x in range(g[G_N_SPACES]):
        n += s[S_MARK + 4 * x + f] > 0
    return n


# ====================================================================== cards

@kernel(inline=True)
def holds(s, side, card):
    return s[S_HOLDER + card] == side


@kernel
def draw(s, tr, side, deck):
    """Draw the top card of a deck for ``side``. Every return reshuffles the deck,
    so its top card is uniform among the cards in it. An empty deck gives nothing (-1)."""
    first = deck * DECK_SIZE
    n = 0
    for c in range(first, first + DECK_SIZE):
        n += s[S_HOLDER + c] == -1
    if n == 0:
        return -1
    k = below(s, S_RNG, n)
    for c in range(first, first + DECK_SIZE):
        if s[S_HOLDER + c] == -1:
            if k == 0:
                s[S_HOLDER + c] = side
                s[S_GM + GM_DRAWN + deck] += 1
                s[S_SD + side * SD_LEN + SD_CARDS_DRAWN] += 1
                trace(tr, T_DRAW, side, c, 0)
                return c
            k -= 1
    return -1


@kernel
def record_play(s, cr, side, code, deck, cards):
    """A card play for cards.parquet and the counters (``cards``: how many cards it
    counts: a SISDE pair 2)."""
    at = s[S_CARD_AT]
    if at < cr.shape[0]:
        cr[at, CR_GAME] = s[S_GAME_I]
        cr[at, CR_PASS] = s[S_PASS]
        cr[at, CR_SIDE] = side
        cr[at, CR_CARD] = code
    elif s[S_ERROR] == 0:
        s[S_ERROR] = ERROR_CARD_ROWS * 8 + side
    s[S_CARD_AT] = at + 1
    s[S_GM + GM_CARD_ROWS] += 1
    s[S_GM + GM_PLAYED + deck] += cards
    s[S_SD + side * SD_LEN + SD_CARDS_PLAYED] += cards


@kernel(inline=True)
def offer(g, s, cr, tr, side, card):
    """The window of ``card`` is open for ``side``: if it holds the card, its bot
    decides whether to play it. A played card goes back into its deck."""
    if s[S_HOLDER + card] != side:
        return False
    return offer_held(g, s, cr, tr, side, card)


@kernel
def offer_held(g, s, cr, tr, side, card):
    s[S_ASK_CARD] = card
    if ask(g, s, tr, side, D_CARD, 2) != 1:
        return False
    s[S_HOLDER + card] = -1
    record_play(s, cr, side, card, card // DECK_SIZE, 1)
    trace(tr, T_CARD, side, card, 0)
    return True


@kernel
def return_hand(s, side, deck):
    """Every card of ``deck`` that ``side`` holds goes back into the deck."""
    for c in range(deck * DECK_SIZE, deck * DECK_SIZE + DECK_SIZE):
        if s[S_HOLDER + c] == side:
            s[S_HOLDER + c] = -1


# ====================================================================== boxes and markers

@kernel
def send(g, s, sp, tr, p, box):
    """Piece ``p`` leaves the map for a box (or moves from the Barracks to Prison)."""
    x = s[S_LOC + p]
    s[S_LOC + p] = box
    side = owner(p)
    trace(tr, T_BOX, p, box, x)
    if box == CONTINENT:
        s[S_GM + GM_ELIMINATIONS] += 1
        s[S_SD + side * SD_LEN + SD_PIECES_LOST] += 1
        if x >= 0:
            sp[x, SP_ELIMINATIONS] += 1
        if is_boss(p):  # its family's USA cards go back
            return_hand(s, side, USA)
        elif p == PREFECT:  # the State's ROME and SISDE cards (with four players: the temporary ones)
            for c in range(DECK_SIZE, N_CARDS):
                s[S_HOLDER + c] = -1
    elif box == PRISON:
        s[S_GM + GM_ARRESTS] += 1
        if x >= 0:
            sp[x, SP_ARRESTS] += 1
    elif box == BARRACKS:
        s[S_GM + GM_HOLDS] += 1
        if x >= 0:
            sp[x, SP_HOLDS] += 1


@kernel
def remove_marker(s, sp, tr, x):
    """Remove one marker from space ``x`` (a space holds one family's markers at most).
    True if there was one."""
    for f in range(N_FAMILIES):
        if s[S_MARK + 4 * x + f] > 0:
            s[S_MARK + 4 * x + f] -= 1
            s[S_SUPPLY + f] += 1
            if s[S_MARK + 4 * x + f] == 0:
                s[L.S_CONTROLLED + f] -= 1
            s[S_GM + GM_MARKERS_REMOVED] += 1
            sp[x, SP_MARKERS_REMOVED] += 1
            trace(tr, T_MARKER_OFF, f, x, 0)
            return True
    return False


@kernel
def add_marker(s, sp, tr, f, x):
    if s[S_SUPPLY + f] > 0:
        s[S_SUPPLY + f] -= 1
        s[S_MARK + 4 * x + f] += 1
        if s[S_MARK + 4 * x + f] == 1:
            s[L.S_CONTROLLED + f] += 1
        s[S_GM + GM_MARKERS_PLACED] += 1
        sp[x, SP_MARKERS_PLACED] += 1
        trace(tr, T_MARKER_ON, f, x, 0)


@kernel
def place_marker(s, sp, tr, f, x):
    """The marker rule: never on a city; another family's markers lose one; if
    none of theirs is left, one of ``f``'s own comes from its supply."""
    if s[S_TYPE + x] == CITY:
        return
    other = False
    for h in range(N_FAMILIES):
        if h != f and s[S_MARK + 4 * x + h] > 0:
            s[S_MARK + 4 * x + h] -= 1
            s[S_SUPPLY + h] += 1
            s[S_GM + GM_MARKERS_REMOVED] += 1
            sp[x, SP_MARKERS_REMOVED] += 1
            trace(tr, T_MARKER_OFF, h, x, 0)
            other = s[S_MARK + 4 * x + h] > 0
            if not other:
                s[L.S_CONTROLLED + h] -= 1
    if not other:
        add_marker(s, sp, tr, f, x)


@kernel
def has_markers(s, x):
    for f in range(N_FAMILIES):
        if s[S_MARK + 4 * x + f] > 0:
            return True
    return False
