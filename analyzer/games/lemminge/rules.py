"""The rules of Lemminge as ``shared/rules/lemminge.md`` states them, jitted
helpers over the flat arrays of ``layout.py``: the deal, drawing with the
reshuffle and its double-zero rule, refills, playing a card against its
column, bonus tiles, the legal steps of a lemming (pushes of whole lines with
their cost) and taking one step. The turn that strings them together is
``kernel.take_turn``."""
import numpy as np

from analyzer.engine.flow import note_leader, sole_leader
from analyzer.engine.jit import ix, kernel
from analyzer.engine.rng import shuffle as shuffle_with
from analyzer.games.lemminge.layout import (
    AT_START, EV_DEAL, EV_DISCARD, EV_DRAW, EV_HOME, EV_PUSHED, EV_RESHUFFLE, EV_STEP, EV_TILE,
    FINISH, G_BACKWARD_PUSH, G_DIST, G_DOUBLE_ZERO, G_HAND_LIMIT, G_N_CELLS, G_N_PLAYERS, G_N_START,
    G_N_VALUES, G_N_ZEROS, G_NB, G_OPENER, G_PUSH_COST, G_START_CELLS, G_START_DIST, G_START_HANDS, G_TERRAIN,
    G_TILES_MEADOW, G_TILES_TERRAIN, G_VALUES, H_DISCARD,
    H_FLOW, H_OWN, H_PILE, H_RNG, H_STANDING, MAX_TURNS, HOME, HX_ENTERED, HX_PUSHED_INTO, LEMMINGS, MAX_CELLS,
    MAX_VALUES, MEADOW, N_DIRECTIONS, N_TERRAINS, N_TILE_KINDS, OPT_COST, OPT_DIR, OPT_DIST,
    OPT_FROM, OPT_PUSHED, OPT_TARGET, OPT_WIDTH, OWN_HAND, OWN_HAND_N, OWN_LEN, PL_PUSHED, PL_PUSHED_DIST,
    PL_PUSHES_MADE, PUB_SETBACK,
    PUB_COL, PUB_COL_N, PUB_COL_SUM, PUB_DISCARD_N, PUB_ERROR, PUB_HAND_N, PUB_MOVER, PUB_N_PLAYERS, PUB_OCC,
    PUB_PILE_N, PUB_POS, PUB_RESHUFFLES, PUB_SUPPLY, PUB_TER, PUB_TILE, PUB_TURN, PUB_WINNER,
    S_SCRATCH, START, TR_WIDTH,
)

BOT_ERROR = -2  # take_turn's result when a bot answered nonsense
TILE_MEADOW = N_TILE_KINDS - 1  # the meadow tile's kind


# ------------------------------------------------------------------ small accessors

@kernel(inline=True)
def own_at(seat):
    return H_OWN + seat * OWN_LEN


@kernel(inline=True)
def card_terrain(game, card):
    return card // game[G_N_VALUES]


@kernel(inline=True)
def card_value(game, card):
    return game[ix(G_VALUES + card % game[G_N_VALUES])]


@kernel(inline=True)
def column_sum(game, state, t):
    """The sum of column ``t`` (kept in PUB_COL_SUM as cards come and go)."""
    return state[ix(PUB_COL_SUM + t)]


@kernel(inline=True)
def active_value(game, state, t):
    """The value of the column's top card (the active card)."""
    n = state[ix(PUB_COL_N + t)]
    return card_value(game, state[ix(PUB_COL + t * MAX_VALUES + n - 1)])


@kernel(inline=True)
def movement_of(game, state, card):
    """(movement, new column) the card gives: on a column showing at least its
    value, the column's sum with it; above the active card, its own value."""
    t = card_terrain(game, card)
    v = card_value(game, card)
    if v <= active_value(game, state, t):
        return column_sum(game, state, t) + v, 0
    return v, 1


@kernel(inline=True)
def distance(game, state, lemming):
    """Finish distance of a lemming: 0 home, the start area's from the start."""
    pos = state[ix(PUB_POS + lemming)]
    if pos == HOME:
        return 0
    if pos == AT_START:
        return game[G_START_DIST]
    return game[ix(G_DIST + pos)]


@kernel(inline=True)
def note_standing(game, state, hidden):
    """After a turn: the game's standing if it ended now is each seat's finish
    distance, its two lemmings' together (0: both home, the win); the seat
    nearest the finish leads."""
    players = game[G_N_PLAYERS]
    for seat in range(players):
        hidden[ix(H_STANDING + seat)] = -(distance(game, state, seat * LEMMINGS)
                                          + distance(game, state, seat * LEMMINGS + 1))
    note_leader(hidden, H_FLOW, MAX_TURNS, state[PUB_TURN], sole_leader(hidden, H_STANDING, players))


@kernel(inline=True)
def both_home(state, seat):
    return (state[ix(PUB_POS + seat * LEMMINGS)] == HOME) & (state[ix(PUB_POS + seat * LEMMINGS + 1)] == HOME)


@kernel(inline=True)
def trace_event(trace, kind, seat, a, b, c, d):
    """Append an event to the replay trace (a no-op on the empty trace of a run)."""
    if trace.shape[0] > 0:
        at = trace[0]
        if at + TR_WIDTH <= trace.shape[0]:
            trace[at] = kind
            trace[at + 1] = seat
            trace[at + 2] = a
            trace[at + 3] = b
            trace[at + 4] = c
            trace[at + 5] = d
            trace[0] = at + TR_WIDTH


# ------------------------------------------------------------------ cards

@kernel(inline=True)
def shuffle(hidden, first, n):
    """Fisher-Yates over hidden[first:first+n] with the deck's stream."""
    shuffle_with(hidden, first, n, hidden, H_RNG)


@kernel
def reshuffle(game, state, hidden, trace):
    """The draw pile is empty and a card must be drawn: the discards become the
    new pile, with every column showing all of its terrain's 0 cards (at least
    two) giving up all its cards but one 0, which starts the new column (the
    rule ``double_zero``; without it no column is cut)."""
    n = 0
    for i in range(state[PUB_DISCARD_N]):
        hidden[ix(H_PILE + n)] = hidden[ix(H_DISCARD + i)]
        n += 1
    state[PUB_DISCARD_N] = 0
    n_zeros = game[G_N_ZEROS]
    mask = 0
    if n_zeros >= 2 and game[G_DOUBLE_ZERO] != 0:
        for t in range(N_TERRAINS):
            col = PUB_COL + t * MAX_VALUES
            size = state[PUB_COL_N + t]
            zeros = 0
            for i in range(size):
                zeros += card_value(game, state[col + i]) == 0
            if zeros == n_zeros:
                mask |= 1 << t
                kept = -1
                for i in range(size):
                    card = state[col + i]
                    if kept < 0 and card_value(game, card) == 0:
                        kept = card
                    else:
                        hidden[ix(H_PILE + n)] = card
                        n += 1
                state[col] = kept
                state[PUB_COL_N + t] = 1
                state[PUB_COL_SUM + t] = 0
    state[PUB_PILE_N] = n
    if n > 0:
        shuffle(hidden, H_PILE, n)
        state[PUB_RESHUFFLES] += 1
        trace_event(trace, EV_RESHUFFLE, -1, n, mask, 0, 0)


@kernel(inline=True)
def draw_card(game, state, hidden, trace):
    """The top card of the draw pile (reshuffling first if it is empty), -1 if
    the pile and the discards are both empty."""
    if state[PUB_PILE_N] == 0:
        reshuffle(game, state, hidden, trace)
        if state[PUB_PILE_N] == 0:
            return -1
    n = state[PUB_PILE_N] - 1
    state[PUB_PILE_N] = n
    return hidden[ix(H_PILE + n)]


@kernel(inline=True)
def discard(state, hidden, card):
    hidden[ix(H_DISCARD + state[PUB_DISCARD_N])] = card
    state[PUB_DISCARD_N] += 1


@kernel
def refill(game, state, hidden, seat, mask, trace):
    """Discard the hand's cards in ``mask`` (bit i: position i), then draw up to
    the hand limit (the rule ``hand_limit``). Returns (cards discarded, cards drawn)."""
    at = own_at(seat)
    n = hidden[at + OWN_HAND_N]
    kept = 0
    dropped = 0
    for i in range(n):
        card = hidden[at + OWN_HAND + i]
        if mask >> i & 1:
            discard(state, hidden, card)
            trace_event(trace, EV_DISCARD, seat, card, 0, 0, 0)
            dropped += 1
        else:
            hidden[at + OWN_HAND + kept] = card
            kept += 1
    drawn = 0
    limit = game[G_HAND_LIMIT]
    while kept < limit:
        card = draw_card(game, state, hidden, trace)
        if card < 0:
            break
        trace_event(trace, EV_DRAW, seat, card, 0, 0, 0)
        hidden[at + OWN_HAND + kept] = card
        kept += 1
        drawn += 1
    hidden[at + OWN_HAND_N] = kept
    state[PUB_HAND_N + seat] = kept
    return dropped, drawn


@kernel
def play_card(game, state, hidden, seat, position):
    """Play the card at hand ``position`` on its column. Returns (card, movement,
    new column 0/1, the column's sum before)."""
    at = own_at(seat)
    n = hidden[at + OWN_HAND_N]
    card = hidden[at + OWN_HAND + position]
    for i in range(position, n - 1):
        hidden[at + OWN_HAND + i] = hidden[at + OWN_HAND + i + 1]
    hidden[at + OWN_HAND_N] = n - 1
    state[PUB_HAND_N + seat] = n - 1
    t = card_terrain(game, card)
    col = PUB_COL + t * MAX_VALUES
    size = state[PUB_COL_N + t]
    before = column_sum(game, state, t)
    v = card_value(game, card)
    if v <= card_value(game, state[col + size - 1]):
        state[col + size] = card
        state[PUB_COL_N + t] = size + 1
        state[PUB_COL_SUM + t] = before + v
        return card, before + v, 0, before
    for i in range(size):  # the whole column goes to the discards
        discard(state, hidden, state[col + i])
    state[col] = card
    state[PUB_COL_N + t] = 1
    state[PUB_COL_SUM + t] = v
    return card, v, 1, before


# ------------------------------------------------------------------ tiles

@kernel(inline=True)
def take_tile(state, terrain):
    """The bonus tile a new column of ``terrain`` earns: one of that terrain,
    else a meadow tile, else none (-1)."""
    if state[ix(PUB_SUPPLY + terrain)] > 0:
        state[ix(PUB_SUPPLY + terrain)] -= 1
        return terrain
    if state[PUB_SUPPLY + TILE_MEADOW] > 0:
        state[PUB_SUPPLY + TILE_MEADOW] -= 1
        return TILE_MEADOW
    return -1


@kernel(inline=True)
def place_tile(state, cell, kind):
    """Put a tile on ``cell``; a tile already there goes back to the supply.
    Returns the old tile's kind (-1: none)."""
    old = state[ix(PUB_TILE + cell)]
    if old >= 0:
        state[ix(PUB_SUPPLY + old)] += 1
    state[ix(PUB_TILE + cell)] = kind
    state[ix(PUB_TER + cell)] = MEADOW if kind == TILE_MEADOW else kind
    return old


# ------------------------------------------------------------------ steps

@kernel(inline=True)
def enterable(state, cell, terrain):
    """A moving lemming may enter meadow (the finish counts as meadow) or the
    played card's terrain."""
    ter = state[ix(PUB_TER + cell)]
    return (ter == terrain) | (ter == MEADOW) | (ter == FINISH)


@kernel(inline=True)
def push_line(game, state, target, d):
    """The lemmings of the line a step into ``target`` in direction ``d``
    pushes one hex on (0: the hex is free), or -1 if the push is not allowed:
    the last lemming would leave the board or land in the start area, or, unless
    the rule ``backward_push`` allows it, one of the line would land farther
    from the finish than the hex it leaves (« Il n'est pas permis de pousser un
    lemming vers l'arrière », rules page clarification 7: finish distances as
    the walk measures them; sideways is allowed)."""
    n = 0
    c = target
    while state[ix(PUB_OCC + c)] >= 0:
        nxt = game[ix(G_NB + c * N_DIRECTIONS + d)]
        if nxt < 0 or game[ix(G_TERRAIN + nxt)] == START or (
                game[ix(G_DIST + nxt)] > game[ix(G_DIST + c)] and game[G_BACKWARD_PUSH] == 0):
            return -1
        n += 1
        c = nxt
    return n


@kernel(inline=True)
def push_cost(game, pushed):
    """Movement a step costs that pushes ``pushed`` lemmings (``push_line``):
    1, plus the rule ``push_cost`` per lemming pushed; 0 if the push is not
    allowed (``pushed`` -1)."""
    if pushed <= 0:
        return pushed + 1
    return 1 + game[G_PUSH_COST] * pushed


@kernel(inline=True)
def step_cost(game, state, target, d):
    """Movement a step into ``target`` in direction ``d`` costs (``push_cost``
    of its ``push_line``); 0 if the step's push is not allowed."""
    return push_cost(game, push_line(game, state, target, d))


@kernel(inline=True)
def source_cells(game, state, lemming):
    """(first, count, on_board): the hexes a lemming steps out of: its own, or
    every start hex for a lemming in the start area (game[G_START_CELLS...])."""
    pos = state[ix(PUB_POS + lemming)]
    if pos == AT_START:
        return G_START_CELLS, game[G_N_START], False
    return pos, 1, True


@kernel(inline=True)
def source_at(game, first, k, on_board):
    return first if on_board else game[ix(first + k)]


@kernel(inline=True)
def list_steps(game, state, lemming, terrain, movement, out, closer_than=1 << 30):
    """The legal steps of ``lemming`` with ``movement`` left over ``terrain``
    whose target is closer to the finish than ``closer_than`` (default: all),
    written from ``state[out]`` (OPT_WIDTH words each). Returns their number."""
    first, count, on_board = source_cells(game, state, lemming)
    n = 0
    for k in range(count):
        src = source_at(game, first, k, on_board)
        for d in range(N_DIRECTIONS):
            target = game[ix(G_NB + src * N_DIRECTIONS + d)]
            if target < 0 or game[ix(G_TERRAIN + target)] == START or not enterable(state, target, terrain):
                continue
            if game[ix(G_DIST + target)] >= closer_than:
                continue
            pushed = push_line(game, state, target, d)
            cost = push_cost(game, pushed)
            if cost == 0 or cost > movement:
                continue
            o = ix(out + n * OPT_WIDTH)
            state[o + OPT_TARGET] = target
            state[o + OPT_DIR] = d
            state[o + OPT_COST] = cost
            state[o + OPT_DIST] = game[ix(G_DIST + target)]
            state[o + OPT_FROM] = src
            state[o + OPT_PUSHED] = pushed
            n += 1
    return n


@kernel(inline=True)
def can_step(game, state, lemming, terrain, movement):
    """Whether ``lemming`` has any legal step (pushes included when ``movement`` pays)."""
    if state[ix(PUB_POS + lemming)] == HOME:
        return False
    first, count, on_board = source_cells(game, state, lemming)
    for k in range(count):
        src = source_at(game, first, k, on_board)
        for d in range(N_DIRECTIONS):
            target = game[ix(G_NB + src * N_DIRECTIONS + d)]
            if target < 0 or game[ix(G_TERRAIN + target)] == START or not enterable(state, target, terrain):
                continue
            cost = step_cost(game, state, target, d)
            if cost != 0 and cost <= movement:
                return True
    return False


@kernel(inline=True)
def cheapest_steps(game, state, seat, out):
    """For each card terrain, the cheapest legal step of any of the seat's
    lemmings (movement it costs; a large number if none), into state[out:out+5]:
    a card of terrain T allows a step iff its movement reaches out[T]."""
    none = 1 << 30
    for t in range(N_TERRAINS):
        state[out + t] = none
    meadow = none  # the cheapest step onto meadow counts for every terrain: kept apart, folded in at the end
    for k in range(LEMMINGS):
        lemming = seat * LEMMINGS + k
        if state[PUB_POS + lemming] == HOME:
            continue
        if k > 0 and state[PUB_POS + lemming] == AT_START and state[PUB_POS + lemming - 1] == AT_START:
            continue  # both in the start area: the same steps
        first, count, on_board = source_cells(game, state, lemming)
        for j in range(count):
            src = source_at(game, first, j, on_board)
            for d in range(N_DIRECTIONS):
                target = game[ix(G_NB + src * N_DIRECTIONS + d)]
                if target < 0 or game[ix(G_TERRAIN + target)] == START:
                    continue
                cost = step_cost(game, state, target, d)
                if cost == 0:
                    continue
                ter = state[ix(PUB_TER + target)]
                if ter == MEADOW or ter == FINISH:
                    meadow = min(meadow, cost)
                elif ter < N_TERRAINS:
                    state[ix(out + ter)] = min(state[ix(out + ter)], cost)
    for t in range(N_TERRAINS):
        state[out + t] = min(state[out + t], meadow)


@kernel(inline=True)
def take_step(game, state, seat, lemming, option, player_rows, hexes, trace):
    """The mover's lemming takes the step at ``state[option]``: the line of
    lemmings in the target hex (if any) is pushed one hex on in the same
    direction, the last one into the finish if it lands there. Returns the
    winning seat, or -1: the first player with both lemmings home wins at once,
    the mover first. The finish distance the pushed lemmings lose is added to
    their owners' PL_PUSHED_DIST and kept in state[PUB_SETBACK] for the move."""
    target = state[option + OPT_TARGET]
    d = state[option + OPT_DIR]
    pushed = state[option + OPT_PUSHED]
    back = d ^ 1  # the opposite direction: E/W, NE/SW, NW/SE are 0/1, 2/5, 3/4
    if d >= 2:
        back = 7 - d
    pushed_home = -1
    if pushed > 0:
        last = target
        for i in range(pushed - 1):
            last = game[ix(G_NB + last * N_DIRECTIONS + d)]
        dest = game[ix(G_NB + last * N_DIRECTIONS + d)]
        c = last
        for i in range(pushed):  # from the far end of the line back to the target
            other = state[ix(PUB_OCC + c)]
            owner = other // LEMMINGS
            lost = -game[ix(G_DIST + c)]
            if game[ix(G_TERRAIN + dest)] != FINISH:
                lost += game[ix(G_DIST + dest)]
            player_rows[ix(owner), PL_PUSHED_DIST] += lost
            state[PUB_SETBACK] += lost
            if game[ix(G_TERRAIN + dest)] == FINISH:
                state[ix(PUB_POS + other)] = HOME
                pushed_home = other
                trace_event(trace, EV_PUSHED, owner, other, c, HOME, 0)
                trace_event(trace, EV_HOME, owner, other, 0, 0, 0)
            else:
                state[ix(PUB_POS + other)] = dest
                state[ix(PUB_OCC + dest)] = other
                hexes[ix(dest), HX_PUSHED_INTO] += 1
                trace_event(trace, EV_PUSHED, owner, other, c, dest, 0)
            state[ix(PUB_OCC + c)] = -1
            player_rows[ix(owner), PL_PUSHED] += 1
            dest = c
            c = game[ix(G_NB + c * N_DIRECTIONS + back)]
        player_rows[ix(seat), PL_PUSHES_MADE] += pushed
    pos = state[ix(PUB_POS + lemming)]
    if pos >= 0:
        state[ix(PUB_OCC + pos)] = -1
    hexes[ix(target), HX_ENTERED] += 1
    trace_event(trace, EV_STEP, seat, lemming, pos, target, pushed)
    if game[ix(G_TERRAIN + target)] == FINISH:
        state[ix(PUB_POS + lemming)] = HOME
        trace_event(trace, EV_HOME, seat, lemming, 0, 0, 0)
    else:
        state[ix(PUB_POS + lemming)] = target
        state[ix(PUB_OCC + target)] = lemming
    if both_home(state, seat):
        return seat
    if pushed_home >= 0 and both_home(state, pushed_home // LEMMINGS):
        return pushed_home // LEMMINGS
    return -1


# ------------------------------------------------------------------ set-up

@kernel
def setup_game(game, state, hidden, trace):
    """The columns of one 2 each, the tiles in the supply, the lemmings in the
    start area, the other cards shuffled and dealt: game[G_START_HANDS + seat]
    cards by seat (the rule ``start_hands``: the box's 2-6, the first player
    fewest)."""
    players = game[G_N_PLAYERS]
    state[PUB_N_PLAYERS] = players
    state[PUB_TURN] = 0
    state[PUB_MOVER] = 0
    state[PUB_ERROR] = 0
    state[PUB_WINNER] = -1
    state[PUB_RESHUFFLES] = 0
    for lemming in range(players * LEMMINGS):
        state[PUB_POS + lemming] = AT_START
    for c in range(game[G_N_CELLS]):
        state[PUB_OCC + c] = -1
        state[PUB_TILE + c] = -1
        state[PUB_TER + c] = game[G_TERRAIN + c]
    for t in range(N_TERRAINS):
        state[PUB_SUPPLY + t] = game[G_TILES_TERRAIN]
    state[PUB_SUPPLY + TILE_MEADOW] = game[G_TILES_MEADOW]
    nv = game[G_N_VALUES]
    opener = game[G_OPENER]
    n = 0
    for t in range(N_TERRAINS):
        state[PUB_COL + t * MAX_VALUES] = t * nv + opener
        state[PUB_COL_N + t] = 1
        state[PUB_COL_SUM + t] = game[G_VALUES + opener]
        for i in range(nv):
            if i != opener:
                hidden[H_PILE + n] = t * nv + i
                n += 1
    shuffle(hidden, H_PILE, n)
    state[PUB_DISCARD_N] = 0
    for seat in range(players):
        at = own_at(seat)
        size = game[G_START_HANDS + seat]
        for i in range(size):
            n -= 1
            hidden[at + OWN_HAND + i] = hidden[H_PILE + n]
            trace_event(trace, EV_DEAL, seat, hidden[H_PILE + n], 0, 0, 0)
        hidden[at + OWN_HAND_N] = size
        state[PUB_HAND_N + seat] = size
    state[PUB_PILE_N] = n


# ------------------------------------------------------------------ invariants (tests)

@kernel
def check_invariants(game, state, hidden):
    """Every card exactly once in hands, columns, draw pile and discards; every
    tile in the supply or on the board; one lemming per hex and the occupancy
    agreeing with the positions."""
    n_cards = N_TERRAINS * game[G_N_VALUES]
    seen = S_SCRATCH
    for c in range(n_cards):
        state[seen + c] = 0
    players = game[G_N_PLAYERS]
    for seat in range(players):
        at = own_at(seat)
        if hidden[at + OWN_HAND_N] != state[PUB_HAND_N + seat] or hidden[at + OWN_HAND_N] > game[G_HAND_LIMIT]:
            return False
        for i in range(hidden[at + OWN_HAND_N]):
            state[seen + hidden[at + OWN_HAND + i]] += 1
    for t in range(N_TERRAINS):
        if state[PUB_COL_N + t] < 1:
            return False
        total = 0
        for i in range(state[PUB_COL_N + t]):
            total += card_value(game, state[PUB_COL + t * MAX_VALUES + i])
        if total != state[PUB_COL_SUM + t]:
            return False
        for i in range(state[PUB_COL_N + t]):
            card = state[PUB_COL + t * MAX_VALUES + i]
            if card_terrain(game, card) != t:
                return False
            state[seen + card] += 1
    for i in range(state[PUB_PILE_N]):
        state[seen + hidden[H_PILE + i]] += 1
    for i in range(state[PUB_DISCARD_N]):
        state[seen + hidden[H_DISCARD + i]] += 1
    for c in range(n_cards):  # every card of the deck exactly once
        if state[seen + c] != 1:
            return False
    for kind in range(N_TILE_KINDS):
        state[seen + kind] = state[PUB_SUPPLY + kind]
    for c in range(game[G_N_CELLS]):
        kind = state[PUB_TILE + c]
        if kind >= 0:
            state[seen + kind] += 1
            if game[G_TERRAIN + c] >= START:  # only on terrain hexes
                return False
        elif state[PUB_TER + c] != game[G_TERRAIN + c]:
            return False
    for kind in range(N_TERRAINS):
        if state[seen + kind] != game[G_TILES_TERRAIN]:
            return False
    if state[seen + TILE_MEADOW] != game[G_TILES_MEADOW]:
        return False
    on_board = 0
    for c in range(game[G_N_CELLS]):
        lemming = state[PUB_OCC + c]
        if lemming >= 0:
            on_board += 1
            if state[PUB_POS + lemming] != c or game[G_TERRAIN + c] >= START:
                return False
    for lemming in range(players * LEMMINGS):
        pos = state[PUB_POS + lemming]
        if pos >= 0:
            on_board -= 1
            if state[PUB_OCC + pos] != lemming:
                return False
    return on_board == 0
