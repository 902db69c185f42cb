"""Mafia's rules, jitted: (a) returns from the boxes, (b, c) the roll and the
move (the options in the page's order: one piece by one die, or two pieces one
die each; the State's pieces at four players), and the card windows of the move
(``shared/rules/mafia.md``, "A side's turn")."""
from analyzer.engine.jit import kernel
from analyzer.games.mafia.activities import resolve
from analyzer.games.mafia.core import add_marker, ask, controlled, die, is_boss, offer, owner, trace
from analyzer.games.mafia.layout import (
    AMERICAN_BOSS, ANTI_MAFIA, ANTI_MAFIA_TRIGGER, BARRACKS, CITY, CONTINENT, D_ANTI_MAFIA_SPACE,
    D_STATE_MOVE, D_VISIT_SPACE, G_KINDS, G_N_SPACES, G_PLAYERS, G_RETURN, G_STATE_RETURN, GM_AIR_MOVES,
    GOV_PROTECTION, JUDICIARY, N_PIECES, NOTABLE_PROTECTION, PREFECT, PRISON, RANDOM, ROADBLOCK, S_ASK_PIECE,
    S_BASE, S_DICE, S_GM, S_HOLDER, S_LOC, S_MARK, S_MOVED_STATE, S_NO_AIR, S_OPT, S_OPT_N, MAX_OPTIONS,
    S_SUPPLY, S_TRIGGER, S_TYPE, SISDE, SP_LANDINGS, STATE, T_MOVE, T_PASS_MOVE, T_RETURN, T_STATE_MOVE,
    T_TRIGGER, T_RETURN_ROLL,
)


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
def own_moves(g, s, pt, side):
    """(c): how many options the roll gives ``side`` (0: it cannot move), in the flat
    order of the page (piece, sum, path), then (first piece, its die, path, second
    piece, other die, path); listed in ``S_OPT`` for a bot that reads them."""
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
    if total > 0 and g[G_KINDS + side] != RANDOM:
        list_own_moves(s, pt, side, d1, d2)
    return total


@kernel
def own_move(g, s, pt, sp, cr, tr, side, total, k):
    """(c) and (d): option ``k`` of the ``total`` the roll gives (``own_moves``; none:
    the side passes), then the activities of the moved pieces in order (both move
    before either resolves)."""
    if total == 0:
        trace(tr, T_PASS_MOVE, side, 0, 0)
        return
    d1 = s[S_DICE]
    d2 = s[S_DICE + 1]
    first = 3 * side if side != STATE else PREFECT
    last = first + 3 if side != STATE else N_PIECES
    for p in range(first, last):  # one piece by the sum
        if s[S_LOC + p] >= 0:
            n = n_paths(s, pt, p, d1 + d2)
            if k < n:
                move_piece(s, pt, sp, tr, p, d1 + d2, k)
                resolve(g, s, sp, cr, tr, p)
                return
            k -= n
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
