"""The rules of Mafia as ``shared/rules/mafia.md`` states them, jitted: a game
is the calendar (``play_game``), a side's turn (``take_turn``: (a) returns,
(b, c) the roll and the move, (d) activities), and the activities of a moved
piece (``resolve``: 1. the space acts on it, 2. the pieces already there act on
it, 3. it acts). The readings where the page was open are in ``docs/mafia.md``.

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

from analyzer.engine.bot_table import call_bot
from analyzer.engine.jit import USER_KIND_BASE, kernel
from analyzer.engine.rng import below, seed_stream
from analyzer.games.mafia.bots import decide_heuristic
from analyzer.games.mafia.layout import (
    AIRPORT_BOMB, AMBUSH, AMERICAN_BOSS, ANTI_GANG, ANTI_MAFIA, ANTI_MAFIA_TRIGGER, ATI_STRIKE, BARRACKS, BOMB,
    G_PARAMS, G_SEAT, PARAMS_WIDTH,
    CC1, CITY, COMMISSION, CONTINENT, CR_CARD, CR_GAME, CR_PASS, CR_SIDE, D_ANTI_MAFIA_SPACE, D_ARREST,
    D_BASE, D_CARD, D_FORBID, D_GIVE_UP, D_HELI_DIE, D_HOLD, D_MOVE, D_RESIST, D_SHOOT, D_STATE_MOVE,
    D_VISIT_SPACE, DECK_SIZE, ERROR_ANSWER, ERROR_CARD_ROWS, ERROR_INVARIANT, FIRST_HEURISTIC, FIRST_SISDE,
    G_AIRPORT, G_CC_START, G_CHECK, G_KINDS, G_N_SPACES, G_OPEN, G_PLAYERS, G_PREFECT_START, G_RETURN,
    G_SISDE_START, G_STATE_RETURN, G_TRIGGER, G_TYPE, G_WIN_SPACES, GM_AIR_MOVES, GM_ARRESTS,
    GM_CALENDAR_TURNS, GM_CARD_ROWS, GM_COMMISSION_FREEZES, GM_DRAWN, GM_ELIMINATIONS, GM_GIVEN_UP,
    GM_HOLDS, GM_HOLDS_ROADBLOCK, GM_LEN, GM_MARKERS_ON_MAP, GM_MARKERS_PLACED, GM_MARKERS_REMOVED,
    GM_OUTCOME, GM_PLAYED, GM_PURGE_HALVES, GM_RESTAURANT_EXPLOSIONS, GM_SHOOTOUTS, GM_SIDE_TURNS,
    GM_SIDE_TURNS_FROZEN, GM_WINNER_SPACES, GOV_PROTECTION, HELIBORNE, HIDEOUT, JUDICIARY, LAS_VEGAS, LEAK,
    MAX_PASSES, N_CARDS, N_CC, N_FAMILIES, N_PIECES, N_SIDES, NOTABLE_PROTECTION, OUT, OUT_ALL_LOSE,
    OUT_DRAW, OUT_STATE, PLAY_SISDE_4P, PLAY_SISDE_PAIR, PREFECT, PRISON, RANDOM, RESTAURANT, ROADBLOCK,
    ROME, S_ASK_CARD, S_ASK_OTHER, S_ASK_PIECE, S_BASE, S_CARD_AT, S_GAME_I, S_DICE, S_DIE_I, S_DIE_N, S_DIE_SCRIPT, S_ERROR,
    S_FORBIDDEN, S_FROZEN, S_GM, S_HOLDER, S_LEN, S_LOC, S_MARK, S_MOVED_STATE, S_NO_AIR, S_PASS, S_RNG,
    S_OPT, S_OPT_N, MAX_OPTIONS, S_RNG_SIDE, S_SCRIPT, S_SCRIPT_I, S_SCRIPT_N, S_SD, S_SIDE, S_STATE_PIECE_FROZEN, S_SUPPLY, S_TRIGGER,
    S_TYPE, SCRIPTED, SD_BASE, SD_CARDS_DRAWN, SD_CARDS_PLAYED, SD_LEN, SD_MARKERS_END, SD_PIECES_LOST,
    SD_SIDE_TURNS, SD_SPACES_END, SD_WON, SISDE, SISDE_DECK, SP_ARRESTS, SP_ELIMINATIONS, SP_HOLDS,
    SP_LANDINGS, SP_MARKERS_PLACED, SP_MARKERS_REMOVED, SP_TRIGGERS, SPECIAL_WEAPONS, SPY, STATE,
    T_AIR_CLOSED, T_ASK, T_BASE, T_BOX, T_CARD, T_DICE, T_DRAW, T_END, T_FORBID, T_FROZEN, T_GIVE_UP,
    T_HELI, T_MARKER_OFF, T_MARKER_ON, T_MOVE, T_PASS_MOVE, T_RETURN, T_SHOOTOUT, T_STATE_MOVE, T_TRIGGER,
    T_TURN, TELEPHONE, USA, WIRETAP, T_ABOUT, T_TRIGGER_ROLL, T_MARKER_ROLL, T_RETURN_ROLL, T_SHOOT_DICE,
)
from analyzer.games.mafia import layout as L
from analyzer.games.mafia.flow import note_standing, record_flow
from analyzer.games.mafia.purge import PURGE_END, purge_halves
from analyzer.games.mafia.random_bot import decide_random


CALENDAR = np.array([0, 1, STATE, 2, 3, STATE], np.int64)
MARKERS = 8


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


# ====================================================================== State actions

@kernel
def state_event(g, s, tr, p):
    """Four players: the State piece a family moved did something in (d) 2 or 3:
    the family draws a ROME card it may play this turn."""
    if g[G_PLAYERS] == 4 and p >= 0 and p == s[S_MOVED_STATE]:
        draw(s, tr, s[S_SIDE], ROME)


@kernel
def arrest(g, s, sp, tr, q, by):
    send(g, s, sp, tr, q, PRISON)
    state_event(g, s, tr, by)


@kernel
def hold_boss(g, s, sp, cr, tr, b, by):
    """``by`` (the Prefect, a CC, or -1 for a roadblock) holds Boss ``b``: the Barracks,
    which the State may turn into an arrest with the two SISDE clues of its colour;
    with four players the Prefect's hold draws a SISDE card that does so if it matches."""
    send(g, s, sp, tr, b, BARRACKS)
    f = owner(b)
    if g[G_PLAYERS] == 4:
        if by == PREFECT and by == s[S_MOVED_STATE]:
            side = s[S_SIDE]
            c = draw(s, tr, side, SISDE_DECK)
            if c >= 0 and (c - FIRST_SISDE) // 2 == f:
                s[S_HOLDER + c] = -1
                record_play(s, cr, side, PLAY_SISDE_4P, SISDE_DECK, 1)
                trace(tr, T_CARD, side, PLAY_SISDE_4P, b)
                send(g, s, sp, tr, b, PRISON)
        state_event(g, s, tr, by)
    else:
        sisde_pair(g, s, sp, cr, tr, b)


@kernel
def sisde_pair(g, s, sp, cr, tr, b):
    """The window of the two clues of Boss ``b``'s colour (it is in the Barracks)."""
    c = FIRST_SISDE + 2 * owner(b)
    if s[S_HOLDER + c] == STATE and s[S_HOLDER + c + 1] == STATE:
        s[S_ASK_CARD] = c
        s[S_ASK_PIECE] = b
        if ask(g, s, tr, STATE, D_CARD, 2) == 1:
            s[S_HOLDER + c] = -1
            s[S_HOLDER + c + 1] = -1
            record_play(s, cr, STATE, PLAY_SISDE_PAIR, SISDE_DECK, 2)
            trace(tr, T_CARD, STATE, PLAY_SISDE_PAIR, b)
            send(g, s, sp, tr, b, PRISON)


@kernel
def shootout(g, s, sp, cr, tr, a, b):
    """``a`` starts a shootout with ``b``: each side may first play its card (the
    starter first), then both roll; an odd die hits (2-6 with Special weapons; a
    State piece with Anti-gang brigade hits without rolling). Both may fall."""
    s[S_GM + GM_SHOOTOUTS] += 1
    trace(tr, T_SHOOTOUT, a, b, 0)
    sure_a = False
    sure_b = False
    weapons_a = False
    weapons_b = False
    for k in range(2):
        p = a if k == 0 else b
        side = owner(p)
        s[S_ASK_OTHER] = b if k == 0 else a  # its adversary
        if side == STATE:
            decider = state_decider(g, s)
            s[S_ASK_PIECE] = p
            played = offer(g, s, cr, tr, decider, ANTI_GANG)
            if k == 0:
                sure_a = played
            else:
                sure_b = played
        else:
            s[S_ASK_PIECE] = p
            played = offer(g, s, cr, tr, side, SPECIAL_WEAPONS)
            if k == 0:
                weapons_a = played
            else:
                weapons_b = played
    da = 0 if sure_a else die(s)
    db = 0 if sure_b else die(s)
    hit_a = sure_a or ((da >= 2) if weapons_a else (da % 2 == 1))  # with the card only a 1 misses
    hit_b = sure_b or ((db >= 2) if weapons_b else (db % 2 == 1))
    trace(tr, T_SHOOT_DICE, da, db, (1 if hit_a else 0) + (2 if hit_b else 0) + (4 if weapons_a else 0)
          + (8 if weapons_b else 0) + (16 if sure_a else 0) + (32 if sure_b else 0))
    if hit_a:
        send(g, s, sp, tr, b, CONTINENT)
    if hit_b:
        send(g, s, sp, tr, a, CONTINENT)


@kernel
def cc_arrests(g, s, sp, cr, tr, cc, q):
    """A CC may arrest Picciotto ``q`` (the State decides); ``q`` may resist by a
    shootout, after which it is arrested if both live."""
    x = s[S_LOC + cc]
    s[S_ASK_PIECE] = q
    s[S_ASK_OTHER] = cc
    if ask(g, s, tr, state_decider(g, s), D_ARREST, 2) != 1:
        return
    s[S_ASK_PIECE] = q
    s[S_ASK_OTHER] = cc
    if ask(g, s, tr, owner(q), D_RESIST, 2) == 1:
        shootout(g, s, sp, cr, tr, q, cc)
        if s[S_LOC + q] != x or s[S_LOC + cc] != x:
            return
    arrest(g, s, sp, tr, q, cc)


@kernel
def state_holds_boss(g, s, sp, cr, tr, by, b):
    """The Prefect (always) or a CC (if the State decides) holds Boss ``b`` in its
    space; in ``b``'s own base city only with Hideout found (a CC: the State first
    decides to hold, then whether to play the card)."""
    x = s[S_LOC + b]
    in_base = x == s[S_BASE + owner(b)]
    decider = state_decider(g, s)
    if by != PREFECT:
        if in_base and s[S_HOLDER + HIDEOUT] != decider:
            return
        s[S_ASK_PIECE] = b
        s[S_ASK_OTHER] = by
        if ask(g, s, tr, decider, D_HOLD, 2) != 1:
            return
    if in_base:
        s[S_ASK_PIECE] = b
        if not offer(g, s, cr, tr, decider, HIDEOUT):
            return
    hold_boss(g, s, sp, cr, tr, b, by)


# ====================================================================== (d) activities

@kernel
def space_acts(g, s, sp, cr, tr, p, x):
    """(d) 1: the space acts on the moved piece (its owner rolls where a trigger is named)."""
    t = s[S_TYPE + x]
    trig = s[S_TRIGGER + x]
    if t == ROADBLOCK:
        if p < 12 and (trig >> trigger_die(s, tr, p, x)) & 1:
            sp[x, SP_TRIGGERS] += 1
            trace(tr, T_TRIGGER, p, x, t)
            if is_boss(p):
                hold_boss(g, s, sp, cr, tr, p, -1)
            else:
                send(g, s, sp, tr, p, BARRACKS)
            s[S_GM + GM_HOLDS_ROADBLOCK] += 1
    elif t == AMBUSH:
        if (trig >> trigger_die(s, tr, p, x)) & 1:
            sp[x, SP_TRIGGERS] += 1
            trace(tr, T_TRIGGER, p, x, t)
            send(g, s, sp, tr, p, CONTINENT)
    elif t == RESTAURANT:
        if (trig >> trigger_die(s, tr, p, x)) & 1:
            sp[x, SP_TRIGGERS] += 1
            s[S_GM + GM_RESTAURANT_EXPLOSIONS] += 1
            trace(tr, T_TRIGGER, p, x, t)
            for q in range(N_PIECES):
                if s[S_LOC + q] == x:
                    send(g, s, sp, tr, q, CONTINENT)
    elif t == BOMB:
        if (is_boss(p) or p == PREFECT) and (trig >> trigger_die(s, tr, p, x)) & 1:
            sp[x, SP_TRIGGERS] += 1
            trace(tr, T_TRIGGER, p, x, t)
            send(g, s, sp, tr, p, CONTINENT)
    elif t == COMMISSION:
        if (is_boss(p) or p == PREFECT) and (trig >> trigger_die(s, tr, p, x)) & 1:
            sp[x, SP_TRIGGERS] += 1
            s[S_GM + GM_COMMISSION_FREEZES] += 1
            trace(tr, T_TRIGGER, p, x, t)
            if g[G_PLAYERS] == 4 and p == PREFECT:
                s[S_STATE_PIECE_FROZEN] = 1
            else:
                s[S_FROZEN + owner(p)] = 1
    elif t == LEAK:
        side = owner(p)
        if side == STATE and g[G_PLAYERS] == 4:
            return  # no State player: no hand to give up from
        first = DECK_SIZE if side == STATE else 0
        last = N_CARDS if side == STATE else DECK_SIZE
        n = 0
        for c in range(first, last):
            n += s[S_HOLDER + c] == side
        if n > 0:
            k = ask(g, s, tr, side, D_GIVE_UP, n)
            for c in range(first, last):
                if s[S_HOLDER + c] == side:
                    if k == 0:
                        s[S_HOLDER + c] = -1
                        s[S_GM + GM_GIVEN_UP] += 1
                        sp[x, SP_TRIGGERS] += 1
                        trace(tr, T_GIVE_UP, side, c, x)
                        break
                    k -= 1


@kernel
def others_act_on_picciotto(g, s, sp, cr, tr, p, x):
    """(d) 2 for a moved Picciotto: Las Vegas killer, the Prefect's arrest, each CC,
    each Boss of another family (forbid), each Picciotto of another family (shootout)."""
    f = owner(p)
    if s[S_LOC + PREFECT] == x:
        s[S_ASK_PIECE] = p
        s[S_ASK_OTHER] = PREFECT
        if offer(g, s, cr, tr, f, LAS_VEGAS):
            shootout(g, s, sp, cr, tr, p, PREFECT)
            if s[S_LOC + p] != x:
                return
        if s[S_LOC + PREFECT] == x:
            arrest(g, s, sp, tr, p, -1)
            return
    for cc in range(CC1, CC1 + N_CC):
        if s[S_LOC + p] != x:
            return
        if s[S_LOC + cc] == x:
            cc_arrests(g, s, sp, cr, tr, cc, p)
    for h in range(N_FAMILIES):
        if h != f and s[S_LOC + 3 * h] == x and s[S_FORBIDDEN + p] == 0:
            s[S_ASK_PIECE] = p
            s[S_ASK_OTHER] = 3 * h
            if ask(g, s, tr, h, D_FORBID, 2) == 1:
                s[S_FORBIDDEN + p] = 1
                trace(tr, T_FORBID, 3 * h, p, 0)
    for h in range(N_FAMILIES):
        if h == f:
            continue
        for q in range(3 * h + 1, 3 * h + 3):
            if s[S_LOC + p] != x:
                return
            if s[S_LOC + q] == x:
                s[S_ASK_PIECE] = p
                s[S_ASK_OTHER] = q
                if ask(g, s, tr, h, D_SHOOT, 2) == 1:
                    shootout(g, s, sp, cr, tr, q, p)


@kernel
def others_act_on_boss(g, s, sp, cr, tr, p, x):
    """(d) 2 for a moved Boss: the Prefect holds it, each CC may (in its own base
    city only with Hideout found), then each Boss of another family may shoot."""
    if s[S_LOC + PREFECT] == x:
        state_holds_boss(g, s, sp, cr, tr, PREFECT, p)
    for cc in range(CC1, CC1 + N_CC):
        if s[S_LOC + p] != x:
            return
        if s[S_LOC + cc] == x:
            state_holds_boss(g, s, sp, cr, tr, cc, p)
    f = owner(p)
    for h in range(N_FAMILIES):
        if s[S_LOC + p] != x:
            return
        if h != f and s[S_LOC + 3 * h] == x:
            s[S_ASK_PIECE] = p
            s[S_ASK_OTHER] = 3 * h
            if ask(g, s, tr, h, D_SHOOT, 2) == 1:
                shootout(g, s, sp, cr, tr, 3 * h, p)


@kernel
def others_act_on_prefect(g, s, sp, cr, tr, x):
    """(d) 2 for an arriving Prefect: a family with a Picciotto in X may play
    Las Vegas killer; the shooter is uniform among its Picciotti there."""
    for h in range(N_FAMILIES):
        n = (s[S_LOC + 3 * h + 1] == x) + (s[S_LOC + 3 * h + 2] == x)
        if n == 0:
            continue
        s[S_ASK_PIECE] = PREFECT
        s[S_ASK_OTHER] = -1
        if offer(g, s, cr, tr, h, LAS_VEGAS):
            q = 3 * h + 1
            if n == 2:
                q += below(s, S_RNG_SIDE + h, 2)
            elif s[S_LOC + q] != x:
                q += 1
            shootout(g, s, sp, cr, tr, q, PREFECT)
            return


@kernel
def prefect_acts(g, s, sp, cr, tr, x):
    """(d) 3 for the Prefect: arrests every Picciotto (each may first play Las Vegas
    killer), holds every Boss, removes one marker, telephones ROME."""
    for h in range(N_FAMILIES):
        for q in range(3 * h + 1, 3 * h + 3):
            if s[S_LOC + PREFECT] != x:
                return
            if s[S_LOC + q] == x:
                s[S_ASK_PIECE] = q
                s[S_ASK_OTHER] = PREFECT
                if offer(g, s, cr, tr, h, LAS_VEGAS):
                    shootout(g, s, sp, cr, tr, q, PREFECT)
                    if s[S_LOC + PREFECT] != x:
                        return
                if s[S_LOC + q] == x:
                    arrest(g, s, sp, tr, q, PREFECT)
    for h in range(N_FAMILIES):
        if s[S_LOC + 3 * h] == x:
            state_holds_boss(g, s, sp, cr, tr, PREFECT, 3 * h)
    if remove_marker(s, sp, tr, x):
        state_event(g, s, tr, PREFECT)
    if s[S_TYPE + x] == TELEPHONE:
        if g[G_PLAYERS] == 4:
            state_event(g, s, tr, PREFECT)  # the telephone's ROME card is the event's card
        else:
            draw(s, tr, STATE, ROME)


@kernel
def cc_acts(g, s, sp, cr, tr, cc, x):
    """(d) 3 for a CC: may arrest each Picciotto and hold each Boss, then on an
    even die removes one marker."""
    for h in range(N_FAMILIES):
        for q in range(3 * h + 1, 3 * h + 3):
            if s[S_LOC + cc] != x:
                return
            if s[S_LOC + q] == x:
                cc_arrests(g, s, sp, cr, tr, cc, q)
    for h in range(N_FAMILIES):
        if s[S_LOC + cc] != x:
            return
        if s[S_LOC + 3 * h] == x:
            state_holds_boss(g, s, sp, cr, tr, cc, 3 * h)
    if s[S_LOC + cc] == x and has_markers(s, x) and marker_die(s, tr, cc, x) % 2 == 0:
        remove_marker(s, sp, tr, x)
        state_event(g, s, tr, cc)


@kernel
def boss_acts(g, s, sp, cr, tr, p, x):
    """(d) 3 for a Boss: may shoot each Boss of another family, telephones the USA
    (unless the State plays Wiretap), then places a marker."""
    f = owner(p)
    for h in range(N_FAMILIES):
        if h != f and s[S_LOC + 3 * h] == x:
            s[S_ASK_PIECE] = 3 * h
            s[S_ASK_OTHER] = p
            if ask(g, s, tr, f, D_SHOOT, 2) == 1:
                shootout(g, s, sp, cr, tr, p, 3 * h)
                if s[S_LOC + p] != x:
                    return
    if s[S_TYPE + x] == TELEPHONE:
        empty = True
        for c in range(DECK_SIZE):
            if s[S_HOLDER + c] == -1:
                empty = False
        if not empty:
            s[S_ASK_PIECE] = p
            if not (g[G_PLAYERS] != 4 and offer(g, s, cr, tr, STATE, WIRETAP)):
                draw(s, tr, f, USA)
    place_marker(s, sp, tr, f, x)


@kernel
def picciotto_acts(g, s, sp, cr, tr, p, x):
    """(d) 3 for a Picciotto: may shoot each Picciotto of another family, then on an
    even die places a marker."""
    f = owner(p)
    for h in range(N_FAMILIES):
        if h == f:
            continue
        for q in range(3 * h + 1, 3 * h + 3):
            if s[S_LOC + q] == x:
                s[S_ASK_PIECE] = q
                s[S_ASK_OTHER] = p
                if ask(g, s, tr, f, D_SHOOT, 2) == 1:
                    shootout(g, s, sp, cr, tr, p, q)
                    if s[S_LOC + p] != x:
                        return
    if marker_die(s, tr, p, x) % 2 == 0:
        place_marker(s, sp, tr, f, x)


@kernel
def resolve(g, s, sp, cr, tr, p):
    """(d) for the moved piece ``p`` in its end space, if it is still on the map."""
    x = s[S_LOC + p]
    if x < 0:
        return
    s[S_FORBIDDEN + p] = 0
    space_acts(g, s, sp, cr, tr, p, x)
    if s[S_LOC + p] != x:
        return
    if is_picciotto(p):
        others_act_on_picciotto(g, s, sp, cr, tr, p, x)
    elif is_boss(p):
        others_act_on_boss(g, s, sp, cr, tr, p, x)
    elif p == PREFECT:
        others_act_on_prefect(g, s, sp, cr, tr, x)
    if s[S_LOC + p] != x or s[S_FORBIDDEN + p] == 1:
        return
    if p == PREFECT:
        prefect_acts(g, s, sp, cr, tr, x)
    elif p >= CC1:
        cc_acts(g, s, sp, cr, tr, p, x)
    elif p == SISDE:
        mafiosi = 0
        for q in range(12):
            mafiosi += s[S_LOC + q] == x
        for _ in range(mafiosi):
            if draw(s, tr, STATE, SISDE_DECK) < 0:
                break
    elif is_boss(p):
        boss_acts(g, s, sp, cr, tr, p, x)
    else:
        picciotto_acts(g, s, sp, cr, tr, p, x)


# ====================================================================== (a) returns

@kernel
def home_of(g, s, p):
    return s[S_BASE + owner(p)] if p < 12 else g[G_STATE_RETURN]


@kernel
def try_return(g, s, cr, tr, p, box):
    """One piece in a box tries to come back: a protection card frees it without a
    roll, else one die against the RENTRÉES table; after a successful Prison roll
    the State may keep it there with Judiciary support."""
    side = owner(p)
    free = False
    s[S_ASK_PIECE] = p
    if box == PRISON and side != STATE:
        free = offer(g, s, cr, tr, side, GOV_PROTECTION)
    elif box == BARRACKS and side != STATE:
        free = offer(g, s, cr, tr, side, NOTABLE_PROTECTION)
    if not free:
        k = 0 if box == CONTINENT else (1 if box == PRISON else 2)
        face = die(s)
        trace(tr, T_RETURN_ROLL, p, box, face)
        free = (g[G_RETURN + k] >> face) & 1 == 1
        if free and box == PRISON and g[G_PLAYERS] != 4:
            s[S_ASK_PIECE] = p
            if offer(g, s, cr, tr, STATE, JUDICIARY):
                free = False
    if free:
        s[S_LOC + p] = home_of(g, s, p)
        trace(tr, T_RETURN, p, box, s[S_LOC + p])


@kernel
def returns(g, s, cr, tr, side):
    """(a) Continent first, then Prison, then the Barracks; pieces in their fixed
    order. With four players a family's turn also brings back State pieces."""
    first = 3 * side if side != STATE else PREFECT
    last = first + 3 if side != STATE else N_PIECES
    for box in (CONTINENT, PRISON, BARRACKS):
        for p in range(first, last):
            if s[S_LOC + p] == box:
                try_return(g, s, cr, tr, p, box)
    if g[G_PLAYERS] == 4:
        for p in range(PREFECT, N_PIECES):
            if s[S_LOC + p] == CONTINENT:
                try_return(g, s, cr, tr, p, CONTINENT)


# ====================================================================== (b, c) movement

@kernel(inline=True)
def n_paths(s, pt, p, steps):
    air = 1 if (is_boss(p) or p == PREFECT) and s[S_NO_AIR] == 0 else 0
    return pt[s[S_LOC + p], steps, air, 0]


@kernel
def move_piece(s, pt, sp, tr, p, steps, k):
    """Move ``p`` along its ``k``-th path of ``steps`` steps."""
    air = 1 if (is_boss(p) or p == PREFECT) and s[S_NO_AIR] == 0 else 0
    x = s[S_LOC + p]
    end = pt[x, steps, air, 1 + 2 * k]
    flew = pt[x, steps, air, 2 + 2 * k]
    s[S_LOC + p] = end
    sp[end, SP_LANDINGS] += 1
    s[S_GM + GM_AIR_MOVES] += flew
    trace(tr, T_MOVE, p, end, steps + 100 * flew)


@kernel(inline=True)
def path_end(s, pt, p, steps, k):
    air = 1 if (is_boss(p) or p == PREFECT) and s[S_NO_AIR] == 0 else 0
    return pt[s[S_LOC + p], steps, air, 1 + 2 * k]


@kernel(inline=True)
def put_option(s, a, xa, b, xb):
    n = s[S_OPT_N]
    if n < MAX_OPTIONS:
        at = S_OPT + 4 * n
        s[at] = a
        s[at + 1] = xa
        s[at + 2] = b
        s[at + 3] = xb
        s[S_OPT_N] = n + 1


@kernel
def list_own_moves(s, pt, side, d1, d2):
    """The options of a move, in the order of its option index, for a bot that reads
    them (S_OPT: piece, end, second piece or -1, its end or -1)."""
    first = 3 * side if side != STATE else PREFECT
    last = first + 3 if side != STATE else N_PIECES
    s[S_OPT_N] = 0
    on_map = 0
    for p in range(first, last):
        if s[S_LOC + p] >= 0:
            on_map += 1
            for k in range(n_paths(s, pt, p, d1 + d2)):
                put_option(s, p, path_end(s, pt, p, d1 + d2, k), -1, -1)
    if on_map < 2:
        return
    for a in range(first, last):
        if s[S_LOC + a] < 0:
            continue
        for b in range(first, last):
            if b == a or s[S_LOC + b] < 0:
                continue
            for swap in range(2 if d1 != d2 else 1):
                x = d1 if swap == 0 else d2
                y = d2 if swap == 0 else d1
                for ka in range(n_paths(s, pt, a, x)):
                    for kb in range(n_paths(s, pt, b, y)):
                        put_option(s, a, path_end(s, pt, a, x, ka), b, path_end(s, pt, b, y, kb))


@kernel
def list_state_moves(s, pt, d1, d2):
    s[S_OPT_N] = 0
    for v in range(2 if d1 != d2 else 1):
        steps = d1 if v == 0 else d2
        for p in range(PREFECT, N_PIECES):
            if p != SISDE and s[S_LOC + p] >= 0:
                for k in range(n_paths(s, pt, p, steps)):
                    put_option(s, p, path_end(s, pt, p, steps, k), -1, -1)


@kernel
def own_move(g, s, pt, sp, cr, tr, side):
    """(c) and (d): one uniform-able option of the flat list (piece, sum, path) and
    (first piece, its die, path, second piece, other die, path), then the
    activities of the moved pieces in order (both move before either resolves)."""
    d1 = s[S_DICE]
    d2 = s[S_DICE + 1]
    first = 3 * side if side != STATE else PREFECT
    last = first + 3 if side != STATE else N_PIECES
    # the count in one pass over the pieces: the two-piece options of ordered pairs
    # a != b number sum_a n1(a) * sum_b n2(b) - sum_a n1(a) n2(a) (each order of the dice
    # if they differ), where n1, n2 count the paths of each die (was a loop over the pairs)
    singles = 0
    sum1 = 0
    sum2 = 0
    same = 0
    for p in range(first, last):
        if s[S_LOC + p] >= 0:
            singles += n_paths(s, pt, p, d1 + d2)
            n1 = n_paths(s, pt, p, d1)
            n2 = n_paths(s, pt, p, d2) if d1 != d2 else n1
            sum1 += n1
            sum2 += n2
            same += n1 * n2
    total = singles + (sum1 * sum2 - same) * (2 if d1 != d2 else 1)
    if total == 0:
        trace(tr, T_PASS_MOVE, side, 0, 0)
        return
    if g[G_KINDS + side] != RANDOM:
        list_own_moves(s, pt, side, d1, d2)
    k = ask(g, s, tr, side, D_MOVE, total)
    if k < singles:
        for p in range(first, last):
            if s[S_LOC + p] >= 0:
                n = n_paths(s, pt, p, d1 + d2)
                if k < n:
                    move_piece(s, pt, sp, tr, p, d1 + d2, k)
                    resolve(g, s, sp, cr, tr, p)
                    return
                k -= n
    k -= singles
    for a in range(first, last):
        if s[S_LOC + a] < 0:
            continue
        for b in range(first, last):
            if b == a or s[S_LOC + b] < 0:
                continue
            for swap in range(2 if d1 != d2 else 1):
                x = d1 if swap == 0 else d2
                y = d2 if swap == 0 else d1
                na = n_paths(s, pt, a, x)
                nb = n_paths(s, pt, b, y)
                if k < na * nb:
                    move_piece(s, pt, sp, tr, a, x, k // nb)
                    move_piece(s, pt, sp, tr, b, y, k % nb)
                    resolve(g, s, sp, cr, tr, a)
                    resolve(g, s, sp, cr, tr, b)
                    return
                k -= na * nb


@kernel
def state_piece_move(g, s, pt, sp, cr, tr, side):
    """Four players: after its activities the family moves the Prefect or a CC by
    one of its dice (doubles: one value) and takes every State decision of its
    resolution; Anti-mafia operation may follow; temporary cards go back at the end."""
    d1 = s[S_DICE]
    d2 = s[S_DICE + 1]
    total = 0
    for v in range(2 if d1 != d2 else 1):
        steps = d1 if v == 0 else d2
        for p in range(PREFECT, N_PIECES):
            if p != SISDE and s[S_LOC + p] >= 0:
                total += n_paths(s, pt, p, steps)
    if total == 0:
        return
    if g[G_KINDS + side] != RANDOM:
        list_state_moves(s, pt, d1, d2)
    k = ask(g, s, tr, side, D_STATE_MOVE, total)
    for v in range(2 if d1 != d2 else 1):
        steps = d1 if v == 0 else d2
        for p in range(PREFECT, N_PIECES):
            if p != SISDE and s[S_LOC + p] >= 0:
                n = n_paths(s, pt, p, steps)
                if k < n:
                    trace(tr, T_STATE_MOVE, side, p, steps)
                    move_piece(s, pt, sp, tr, p, steps, k)
                    s[S_MOVED_STATE] = p
                    resolve(g, s, sp, cr, tr, p)
                    s[S_MOVED_STATE] = -1
                    anti_mafia_window(g, s, cr, tr, side)
                    return
                k -= n


@kernel
def anti_mafia_window(g, s, cr, tr, side):
    """Anti-mafia operation: a space that is not a city becomes a roadblock (1-2)."""
    if s[S_HOLDER + ANTI_MAFIA] != side:
        return
    s[S_ASK_PIECE] = -1
    if not offer(g, s, cr, tr, side, ANTI_MAFIA):
        return
    n = 0
    for x in range(g[G_N_SPACES]):
        n += s[S_TYPE + x] != CITY
    k = ask(g, s, tr, side, D_ANTI_MAFIA_SPACE, n)
    for x in range(g[G_N_SPACES]):
        if s[S_TYPE + x] != CITY:
            if k == 0:
                s[S_TYPE + x] = ROADBLOCK
                s[S_TRIGGER + x] = ANTI_MAFIA_TRIGGER
                trace(tr, T_TRIGGER, -1, x, ROADBLOCK)
                return
            k -= 1


@kernel
def boss_visit_window(g, s, sp, cr, tr, f):
    """American boss visit: one more marker on a space the family controls."""
    if s[S_HOLDER + AMERICAN_BOSS] != f or s[S_SUPPLY + f] == 0:
        return
    n = controlled(g, s, f)
    if n == 0:
        return
    s[S_ASK_PIECE] = -1
    if not offer(g, s, cr, tr, f, AMERICAN_BOSS):
        return
    k = ask(g, s, tr, f, D_VISIT_SPACE, n)
    for x in range(g[G_N_SPACES]):
        if s[S_MARK + 4 * x + f] > 0:
            if k == 0:
                add_marker(s, sp, tr, f, x)
                return
            k -= 1


# ====================================================================== a side's turn

@kernel
def take_turn(g, s, pt, sp, cr, tr, side):
    """A side's turn: (a) returns; (b) two dice; (c) move; (d) activities. A frozen
    side does (a) only."""
    s[S_SIDE] = side
    trace(tr, T_TURN, side, s[S_PASS], 0)
    four = g[G_PLAYERS] == 4
    s[S_GM + GM_SIDE_TURNS] += 1
    s[S_SD + side * SD_LEN + SD_SIDE_TURNS] += 1
    frozen = s[S_FROZEN + side] == 1
    s[S_FROZEN + side] = 0
    no_state_move = False
    if four:
        no_state_move = s[S_STATE_PIECE_FROZEN] == 1
        s[S_STATE_PIECE_FROZEN] = 0
    returns(g, s, cr, tr, side)
    if frozen:
        s[S_GM + GM_SIDE_TURNS_FROZEN] += 1
        trace(tr, T_FROZEN, side, 0, 0)
        return
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
    # (c) the move, (d) the activities
    own_move(g, s, pt, sp, cr, tr, side)
    s[S_NO_AIR] = 0
    if side == STATE:
        anti_mafia_window(g, s, cr, tr, STATE)
    else:
        boss_visit_window(g, s, sp, cr, tr, side)
        if four:
            if not no_state_move:
                state_piece_move(g, s, pt, sp, cr, tr, side)
            for c in range(DECK_SIZE, N_CARDS):  # the temporary cards go back
                if s[S_HOLDER + c] == side:
                    s[S_HOLDER + c] = -1


# ====================================================================== the game

@kernel
def check_invariants(g, s):
    """Pieces on the map or in a box; 8 markers per family over map and supply, one
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
        if total != MARKERS or s[S_SUPPLY + f] < 0:
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
        s[S_SUPPLY + f] = MARKERS
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
    (four players) or MAX_PASSES passes end (a draw). The outcome and counters
    are left in the state's games and sides rows. Returns the error code (0: fine)."""
    players = g[G_PLAYERS]
    outcome = OUT_DRAW
    passes = MAX_PASSES
    for pas in range(MAX_PASSES):
        s[S_PASS] = pas
        for slot in range(6):
            side = CALENDAR[slot]
            if side == STATE:
                if players == 4:
                    continue
                if purge_halves(s) >= PURGE_END:
                    outcome = OUT_STATE
            else:
                won = controlled(g, s, side)
                if won >= g[G_WIN_SPACES]:
                    outcome = 1 + side
                    s[S_GM + GM_WINNER_SPACES] = won
                elif players == 4 and purge_halves(s) >= PURGE_END:
                    outcome = OUT_ALL_LOSE
            if outcome != OUT_DRAW:
                break
            take_turn(g, s, pt, sp, cr, tr, side)
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
    s[S_GM + GM_PURGE_HALVES] = purge_halves(s)
    on_map = 0
    for f in range(N_FAMILIES):
        on_map += MARKERS - s[S_SUPPLY + f]
        at = S_SD + f * SD_LEN
        s[at + SD_BASE] = s[S_BASE + f]
        s[at + SD_MARKERS_END] = MARKERS - s[S_SUPPLY + f]
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
    s = np.zeros(S_LEN, np.int64)
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
    s = np.zeros(S_LEN, np.int64)
    start_game(g, s, seed, index)
    status = play_game(g, s, pt, spaces, cards, tr)
    for k in range(GM_LEN):
        games[0, k] = s[S_GM + k]
    for side in range(N_SIDES):
        for k in range(SD_LEN):
            sides[0, side, k] = s[S_SD + side * SD_LEN + k]
    return status
