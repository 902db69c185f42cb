"""The heuristic bots of Lemminge, jitted: one model, three families of
defaults (``registry.py``). Every option is scored by the hexes it gains,
planned over the map:

- ``plan`` finds the smallest finish distance a lemming can reach with a
  movement over a terrain (meadow always), pushes costing as the rules say;
- every card of the hand may be played (rules page, clarification 8); a card
  is worth the best gain it gives one of its lemmings, weighted towards the
  leading (``lead`` > 0, the racer) or the trailing lemming (``lead`` < 0, the
  convoy); a card that allows no step gains only if it starts a new column
  whose bonus tile, laid next to the lemming, opens the way; it refills when no
  card gains ``refill_below`` hexes, or when the hand is down to
  ``hand_reserve`` cards and the best gain is small;
- a step is chosen by where the rest of the movement can then reach, minus
  ``push`` per hex a push brings a rival on and plus ``own_push`` per hex it
  brings its own other lemming on (the box's rules forbid a push that sets a
  lemming back, and the steps offered then leave such pushes out; under the
  rule ``backward_push`` the same weights count a hex a rival is set back as
  gained, its own as lost; a sideways push is worth nothing either way);
- a bonus tile goes where it gives its own lemming the most reach
  (``tile_gain``), or, for a blocker (``block``), onto the meadow in front of
  the rival lemming nearest to the finish; with neither, onto a hex it does
  not change.
"""

from analyzer.engine.jit import ix, kernel
from analyzer.engine.rng import below
from analyzer.games.lemminge.layout import (
    AT_START, DECIDE_ACTION, DECIDE_DISCARD, DECIDE_LEMMING, DECIDE_STEP, DECIDE_TILE, FINISH,
    G_DIST, G_HAND_LIMIT, G_N_CELLS, G_N_PLAYERS, G_N_START, G_N_TILE_CELLS, G_NB, G_START_CELLS,
    G_START_DIST, G_TERRAIN, G_TILE_CELLS, G_WIDTH, HOME, LEMMINGS, MAX_CARD_VALUE, MAX_CELLS, MAX_LEMMINGS,
    MAX_VALUES, MEADOW, N_DIRECTIONS, N_TERRAINS, OPT_COST, OPT_DIR, OPT_PUSHED, OPT_TARGET, OPT_WIDTH, OWN_HAND, OWN_HAND_N,
    OWN_RNG, P_BLOCK, P_HAND_RESERVE, P_KEEP, P_LEAD,
    P_OWN_PUSH, P_PUSH, P_REFILL_BELOW, P_TILE_GAIN, PUB_LEMMING, PUB_MOVEMENT, PUB_MOVER, PUB_OCC,
    PUB_POS, PUB_SUPPLY, PUB_TER, PUB_TERRAIN, PUB_TILE_KIND, S_ALLOWS, S_OPTIONS, S_SCRATCH, S_VIEW,
    S_PLANS, START,
)
from analyzer.games.lemminge.rules import (
    distance, enterable, movement_of, card_terrain, step_cost, TILE_MEADOW,
)

INF = 1 << 30
LOOKAHEAD = 4  # movement a plan adds for the turns to come: a detour round a jam is seen to lead on
DETOUR_WEIGHT = 0.25  # weight of that longer reach beside the hexes gained now
# search's queue: a ring of buckets, one per key (finish distance + movement
# spent). A step costs at most the movement searched (top) and changes the
# distance by at most 1, so every key queued lies within top + 1 of the key
# taken, and a movement is at most a column of one terrain's cards with the
# look-ahead: RING buckets hold every key queued, whatever a push costs
RING = 256
assert MAX_VALUES * MAX_CARD_VALUE + LOOKAHEAD + 2 <= RING
CARD_OPTIONS = S_OPTIONS - S_ALLOWS  # the most options of an action decision (the room the layout gives them)
MAX_BUDGETS = 2 * CARD_OPTIONS  # movements one search answers: each card's, with and without LOOKAHEAD
# the bots' scratch (S_SCRATCH, 4 * MAX_CELLS), what a decision leaves behind
# of no use to the next: a search's words are stamped with its own number
# (base = stamp * STAMPED, above any movement and any hex), so what an earlier
# search left reads as nothing and no search clears anything
STAMPED = 1 << 16
MARKS = S_SCRATCH  # MAX_CELLS: hexes choose_tile's plans could enter (a bit per lemming)
FROM = S_SCRATCH  # MAX_CELLS, the same words (a search keeps either): hex * 8 + direction each hex was entered from
COST = S_SCRATCH + MAX_CELLS  # MAX_CELLS: base + movement spent to reach each hex
NEXT = S_SCRATCH + 2 * MAX_CELLS  # MAX_CELLS: base + 1 + the next hex in the bucket (base: none)
HEAD = S_SCRATCH + 3 * MAX_CELLS  # RING: base + 1 + the first hex of each bucket (base: none)
STAMP = HEAD + RING  # the last search's stamp (the scratch starts at 0: the first stamp is 1)
BUDGETS = STAMP + 1  # MAX_BUDGETS: the movements a search answers
BESTS = BUDGETS + MAX_BUDGETS  # MAX_BUDGETS: its answers
LOWS = BESTS + MAX_BUDGETS  # MAX_BUDGETS: lower bounds of its answers, known beforehand (a search may stop at them)
WHERE = LOWS + MAX_BUDGETS  # MAX_BUDGETS: the hex each answer was found at (-1: the source's own)
WITNESS = WHERE + MAX_BUDGETS  # MAX_BUDGETS: the first step (hex * 8 + direction) of a walk to it, -1 none
NOW = WITNESS + MAX_BUDGETS  # LEMMINGS * CARD_OPTIONS: choose_action's plan per lemming and option, the card's movement
LATER = NOW + LEMMINGS * CARD_OPTIONS  # the same with LOOKAHEAD more
assert LATER + LEMMINGS * CARD_OPTIONS <= S_SCRATCH + 4 * MAX_CELLS
# S_PLANS (2 * MAX_CELLS): plans kept between decisions (a lemming's next
# decision mostly asks what its last one planned), made on the board the copy
# of the terrain (PLANNED_TER) and of the lemmings' hexes (K_POS) describe,
# kept while the board stays so (``sync_plans``). An entry per (lemming,
# source, terrain) in a table of N_KEPT (a newer plan takes an older's place)
PLANNED_TER = S_PLANS  # MAX_CELLS
K_MAP = S_PLANS + MAX_CELLS  # the map's cells * 4096 + width + 1 of the copy (0: none)
K_POS = K_MAP + 1  # MAX_LEMMINGS: where the lemmings stood
KEPT = K_POS + MAX_LEMMINGS  # N_KEPT entries of K_WIDTH words
N_KEPT = 32
K_BUDGETS = 8  # movements an entry keeps
K_LEMMING, K_SOURCE, K_TERRAIN, K_N, K_BUDGET = 0, 1, 2, 3, 4  # 1 + lemming (0: empty), source, terrain, movements
K_ANSWER = K_BUDGET + K_BUDGETS  # the answers
K_WITNESS = K_ANSWER + K_BUDGETS  # and their witnesses (WITNESS)
K_WIDTH = K_WITNESS + K_BUDGETS
assert KEPT + N_KEPT * K_WIDTH <= S_PLANS + 2 * MAX_CELLS
MISS = -INF  # no plan kept


@kernel(inline=True)
def push_hex(state, base, bucket, cell):
    """``cell`` first in ``bucket`` (a stale head reads as an empty bucket)."""
    h = HEAD + bucket
    state[ix(NEXT + cell)] = max(state[h], base)
    state[h] = base + 1 + cell


@kernel
def search(game, state, lemming, source, terrain, n_budgets, mark, bounded, witness):
    """Smallest finish distance ``lemming`` can reach from ``source`` (a cell,
    or AT_START: every start hex) over ``terrain``, the board as it stands (a
    push costs its line; where the pushed land is ignored), for each movement
    ``state[BUDGETS + j]``, j < ``n_budgets``, into ``state[BESTS + j]``.

    Hexes are taken in the order of their key, finish distance + movement
    spent: a step changes the distance by at most 1 and costs at least 1, so
    keys never fall along a path, and what a hex leads to with movement ``b``
    is never closer than key - b. The search stops once no key left can beat
    an answer (most plans follow a straight path and look at little else); a
    hex's movement is final when it is taken (the keys are an A* order), and
    a hex's distance counts for every movement from what it cost. Among equal
    keys the hex queued last goes first: the search dives along a path.

    With ``mark`` (a bit), every hex next to a hex it could still step out of
    gets that bit in ``state[MARKS + hex]``: only those hexes could be
    entered, so a change of terrain elsewhere leaves the answers as they are.
    With ``bounded``, ``state[LOWS + j]`` bounds answer j from below; the
    search stops as soon as every answer is down to its bound. With
    ``witness`` (never with ``mark``), ``state[WITNESS + j]`` is the first step
    of a walk that reaches answer j with its movement (-1: none)."""
    if source == HOME:
        for j in range(n_budgets):
            state[ix(BESTS + j)] = 0
            state[ix(WITNESS + j)] = -1
        return
    stamp = state[STAMP] + 1
    state[STAMP] = stamp
    base = stamp * STAMPED
    top = 0  # the largest movement: no hex costing more is queued
    for j in range(n_budgets):
        top = max(top, state[ix(BUDGETS + j)])
    if source == AT_START:  # every start hex is a source; the start area's distance is the lemming's
        first, count, best = G_START_CELLS, game[G_N_START], game[G_START_DIST]
    else:
        first, count, best = source, 1, game[ix(G_DIST + source)]
    key = INF  # the key taken now: the sources' smallest
    last = -INF  # the sources' largest: they enter the queue as the key reaches theirs
    for s in range(count):
        c = game[ix(first + s)] if source == AT_START else source
        key = min(key, game[ix(G_DIST + c)])
        last = max(last, game[ix(G_DIST + c)])
    for j in range(n_budgets):
        state[ix(BESTS + j)] = best
        state[ix(WHERE + j)] = -1
    stop = best + top  # a key from here on beats no answer: max of answer + movement
    queued = 0
    entering = True  # sources may enter at this key
    while key < stop:
        bucket = key & (RING - 1)
        if entering and key <= last:
            entering = False
            for s in range(count):
                c = game[ix(first + s)] if source == AT_START else source
                if game[ix(G_DIST + c)] == key:
                    state[ix(COST + c)] = base
                    if witness:
                        state[ix(FROM + c)] = -1
                    push_hex(state, base, bucket, c)
                    queued += 1
        c = state[HEAD + bucket] - base - 1
        if c < 0:
            if queued == 0 and key >= last:
                break
            key += 1
            entering = True
            continue
        state[HEAD + bucket] = state[ix(NEXT + c)]
        queued -= 1
        level = state[ix(COST + c)] - base
        if level >= top or game[ix(G_TERRAIN + c)] == FINISH:
            continue
        if mark != 0:
            for d in range(N_DIRECTIONS):
                t = game[ix(G_NB + c * N_DIRECTIONS + d)]
                if t >= 0:
                    state[ix(MARKS + t)] |= mark
        for d in range(N_DIRECTIONS):
            t = game[ix(G_NB + c * N_DIRECTIONS + d)]
            if t < 0:
                continue
            old = state[ix(COST + t)] - base  # < 0: not reached yet
            if 0 <= old <= level + 1:  # reached as cheaply as any step from here could
                continue
            if game[ix(G_TERRAIN + t)] == START or not enterable(state, t, terrain):
                continue
            if state[ix(PUB_OCC + t)] == lemming:
                k = 1
            else:
                k = step_cost(game, state, t, d)
                if k == 0:
                    continue
            nc = level + k
            if nc > top or (old >= 0 and nc >= old):
                continue
            dist = game[ix(G_DIST + t)]
            if old >= 0:  # queued at a larger key: out of that bucket first
                h = HEAD + ((dist + old) & (RING - 1))
                if state[h] == base + 1 + t:
                    state[h] = state[ix(NEXT + t)]
                else:
                    p = state[h] - base - 1
                    while state[ix(NEXT + p)] != base + 1 + t:
                        p = state[ix(NEXT + p)] - base - 1
                    state[ix(NEXT + p)] = state[ix(NEXT + t)]
                queued -= 1
            state[ix(COST + t)] = base + nc
            if witness:
                state[ix(FROM + t)] = c * 8 + d
            push_hex(state, base, (dist + nc) & (RING - 1), t)
            queued += 1
            changed = False
            for j in range(n_budgets):
                if nc <= state[ix(BUDGETS + j)] and dist < state[ix(BESTS + j)]:
                    state[ix(BESTS + j)] = dist
                    state[ix(WHERE + j)] = t
                    changed = True
            if changed:
                stop = -INF
                low = bounded
                for j in range(n_budgets):
                    stop = max(stop, state[ix(BESTS + j)] + state[ix(BUDGETS + j)])
                    low &= state[ix(BESTS + j)] <= state[ix(LOWS + j)]
                if low:  # every answer at its bound: none can fall further
                    stop = -INF
                    break
    if witness:
        for j in range(n_budgets):
            state[ix(WITNESS + j)] = first_step(state, state[ix(WHERE + j)])


@kernel(inline=True)
def first_step(state, cell):
    """The first step (hex * 8 + direction) of the walk the last search (with
    ``witness``) found to ``cell``: the hexes it was entered from, back to a
    source; -1 for no cell."""
    if cell < 0:
        return -1
    step = state[ix(FROM + cell)]
    while state[ix(FROM + (step >> 3))] >= 0:
        cell = step >> 3
        step = state[ix(FROM + cell)]
    return cell * 8 + (step & 7)


@kernel
def plan(game, state, lemming, source, terrain, movement, mark):
    """The smallest finish distance ``lemming`` can reach (``search``)."""
    state[BUDGETS] = movement
    search(game, state, lemming, source, terrain, 1, mark, False, False)
    return state[BESTS]


@kernel
def sync_plans(game, state):
    """Drop the kept plans the board as it stands may answer otherwise. A plan
    reads the terrain and where the lemmings stand, nothing else: all are
    dropped when a terrain changed (a tile) or several lemmings moved (a push,
    other players' turns), or the map is not the copy's; when one lemming alone
    moved (a step without a push) with no other lemming next to the hex it left
    or the one it entered, its own plans stay. They read its hexes only as the
    hex stepped into (empty or its own, the same cost) or within a pushed line,
    and a line through either hex needs a lemming next to it. Then the copy is
    brought up to the board."""
    n = game[G_N_CELLS]
    lemmings = game[G_N_PLAYERS] * LEMMINGS
    same = state[K_MAP] == n * 4096 + game[G_WIDTH] + 1
    if same:
        diff = 0
        for c in range(n):
            diff |= state[ix(PUB_TER + c)] ^ state[ix(PLANNED_TER + c)]
        same = diff == 0
    keep = -1  # the lemming whose plans stay while others' go
    if same:
        moved = 0
        for lem in range(lemmings):
            if state[ix(PUB_POS + lem)] != state[ix(K_POS + lem)]:
                moved += 1
                keep = lem
        if moved == 0:
            return
        if moved > 1:
            keep = -1
        else:
            for cell in (state[ix(K_POS + keep)], state[ix(PUB_POS + keep)]):
                if cell >= 0:
                    for d in range(N_DIRECTIONS):
                        t = game[ix(G_NB + cell * N_DIRECTIONS + d)]
                        if t >= 0 and state[ix(PUB_OCC + t)] >= 0 and state[ix(PUB_OCC + t)] != keep:
                            keep = -1
                            break
                if keep < 0:
                    break
    else:
        for c in range(n):
            state[ix(PLANNED_TER + c)] = state[ix(PUB_TER + c)]
        state[K_MAP] = n * 4096 + game[G_WIDTH] + 1
    for e in range(N_KEPT):
        if state[KEPT + e * K_WIDTH + K_LEMMING] != keep + 1:
            state[KEPT + e * K_WIDTH + K_LEMMING] = 0
    for lem in range(lemmings):
        state[ix(K_POS + lem)] = state[ix(PUB_POS + lem)]


@kernel(inline=True)
def kept_entry(lemming, source, terrain):
    """Where the plans of (lemming, source, terrain) are kept."""
    return KEPT + ((source * 7 + terrain * 3 + lemming * 5) & (N_KEPT - 1)) * K_WIDTH


@kernel
def kept_plan(state, lemming, source, terrain, movement):
    """(answer, witness) of a kept plan; (MISS, -1) if none."""
    at = kept_entry(lemming, source, terrain)
    if (state[at + K_LEMMING] == lemming + 1 and state[at + K_SOURCE] == source
            and state[at + K_TERRAIN] == terrain):
        for j in range(state[at + K_N]):
            if state[ix(at + K_BUDGET + j)] == movement:
                return state[ix(at + K_ANSWER + j)], state[ix(at + K_WITNESS + j)]
    return MISS, -1


@kernel
def keep_plan(state, lemming, source, terrain, n_budgets, witness):
    """Keep the answers of the search just made (its first K_BUDGETS), with
    their witnesses if it kept them."""
    at = kept_entry(lemming, source, terrain)
    n = min(n_budgets, K_BUDGETS)
    state[at + K_LEMMING] = lemming + 1
    state[at + K_SOURCE] = source
    state[at + K_TERRAIN] = terrain
    state[at + K_N] = n
    for j in range(n):
        state[ix(at + K_BUDGET + j)] = state[ix(BUDGETS + j)]
        state[ix(at + K_ANSWER + j)] = state[ix(BESTS + j)]
        state[ix(at + K_WITNESS + j)] = state[ix(WITNESS + j)] if witness else -1


@kernel
def keep_pair(state, lemming, source, terrain, near, now, far, later):
    """Keep two answers known without a search (no witnesses)."""
    at = kept_entry(lemming, source, terrain)
    state[at + K_LEMMING] = lemming + 1
    state[at + K_SOURCE] = source
    state[at + K_TERRAIN] = terrain
    state[at + K_N] = 2
    state[at + K_BUDGET] = near
    state[at + K_ANSWER] = now
    state[at + K_WITNESS] = -1
    state[at + K_BUDGET + 1] = far
    state[at + K_ANSWER + 1] = later
    state[at + K_WITNESS + 1] = -1


@kernel
def planned(game, state, lemming, source, terrain, near, far, low_near, low_far):
    """(plan with movement ``near``, plan with ``far``, and their witnesses)
    from the kept plans, or searched (stopping at the lower bounds given), kept."""
    now, w_now = kept_plan(state, lemming, source, terrain, near)
    later, w_later = kept_plan(state, lemming, source, terrain, far)
    if now != MISS and later != MISS:
        return now, later, w_now, w_later
    state[BUDGETS] = near
    state[BUDGETS + 1] = far
    state[LOWS] = low_near
    state[LOWS + 1] = low_far
    search(game, state, lemming, source, terrain, 2, 0, True, True)
    keep_plan(state, lemming, source, terrain, 2, True)
    return state[BESTS], state[BESTS + 1], state[WITNESS], state[WITNESS + 1]


@kernel(inline=True)
def lead_weight(game, state, seat, lemming, params):
    """1 + lead for its leading lemming, 1 - lead for its trailing one."""
    other = seat * LEMMINGS + (1 - lemming % LEMMINGS)
    if state[ix(PUB_POS + other)] == HOME:
        return 1.0
    mine = distance(game, state, lemming)
    theirs = distance(game, state, other)
    if mine < theirs:
        return 1.0 + params[P_LEAD]
    if mine > theirs:
        return 1.0 - params[P_LEAD]
    return 1.0


@kernel
def move_gain(game, state, seat, lemming, terrain, movement, params):
    """(hexes a move can gain now, weighted by lemming; the same with LOOKAHEAD more movement)."""
    if state[ix(PUB_POS + lemming)] == HOME:
        return -1.0, -1.0
    here = distance(game, state, lemming)
    pos = state[ix(PUB_POS + lemming)]
    w = lead_weight(game, state, seat, lemming, params)
    now, later, _, _ = planned(game, state, lemming, pos, terrain, movement, movement + LOOKAHEAD, -INF, -INF)
    gain = here - now
    further = here - later
    return gain * w, further * w


@kernel
def move_value(game, state, seat, lemming, terrain, movement, params):
    gain, further = move_gain(game, state, seat, lemming, terrain, movement, params)
    return gain + DETOUR_WEIGHT * further


@kernel
def tile_opening(game, state, lemming, terrain, movement):
    """Hexes ``lemming`` could gain with a card of ``terrain`` that allows it no
    step on the board as it stands but starts a new column: its bonus tile (the
    terrain's, else a meadow tile), laid on a closed hex next to the lemming and
    closer to the finish, may open the way (0: no tile left or no such hex)."""
    if state[ix(PUB_SUPPLY + terrain)] > 0:
        ground = terrain
    elif state[PUB_SUPPLY + TILE_MEADOW] > 0:
        ground = MEADOW
    else:
        return 0
    pos = state[ix(PUB_POS + lemming)]
    here = distance(game, state, lemming)
    if pos == AT_START:
        first, count = G_START_CELLS, game[G_N_START]
    else:
        first, count = pos, 1
    best = here
    for j in range(count):
        src = game[ix(first + j)] if pos == AT_START else pos
        for d in range(N_DIRECTIONS):
            c = game[ix(G_NB + src * N_DIRECTIONS + d)]
            if c < 0 or game[ix(G_TERRAIN + c)] >= START or enterable(state, c, terrain):
                continue
            if game[ix(G_DIST + c)] >= here:
                continue
            ter = state[ix(PUB_TER + c)]
            state[ix(PUB_TER + c)] = ground
            best = min(best, plan(game, state, lemming, pos, terrain, movement, 0))
            state[ix(PUB_TER + c)] = ter
    return here - best


@kernel
def choose_action(game, state, seat, params, n_options):
    # Every card of the hand is an option; S_ALLOWS says which allow a step.
    # A card that allows one is worth the hexes it gains (move_gain, with the
    # look-ahead); one that allows none gains nothing this turn, unless it
    # starts a new column whose bonus tile opens the way (tile_opening).
    # move_gain for every card that allows a step and lemming, from one search
    # per (lemming, card terrain) answering every movement of that terrain's
    # cards, with and without the look-ahead: NOW and LATER per lemming and option
    for k in range(LEMMINGS):
        lemming = seat * LEMMINGS + k
        if state[ix(PUB_POS + lemming)] == HOME:
            continue
        for t in range(N_TERRAINS):
            n = 0
            for i in range(n_options):
                card = state[S_VIEW + OWN_HAND + state[S_OPTIONS + i]]
                if card_terrain(game, card) == t and state[ix(S_ALLOWS + i)] != 0:
                    m, _ = movement_of(game, state, card)
                    state[ix(BUDGETS + n)] = m
                    state[ix(BUDGETS + n + 1)] = m + LOOKAHEAD
                    n += 2
            if n == 0:
                continue
            search(game, state, lemming, state[ix(PUB_POS + lemming)], t, n, 0, False, True)
            keep_plan(state, lemming, state[ix(PUB_POS + lemming)], t, n, True)
            n = 0
            for i in range(n_options):
                card = state[S_VIEW + OWN_HAND + state[S_OPTIONS + i]]
                if card_terrain(game, card) == t and state[ix(S_ALLOWS + i)] != 0:
                    state[ix(NOW + k * CARD_OPTIONS + i)] = state[ix(BESTS + n)]
                    state[ix(LATER + k * CARD_OPTIONS + i)] = state[ix(BESTS + n + 1)]
                    n += 2
    best = 0.0
    best_gain = 0.0
    pick = -1
    for i in range(n_options):
        card = state[S_VIEW + OWN_HAND + state[S_OPTIONS + i]]
        m, new = movement_of(game, state, card)
        t = card_terrain(game, card)
        allows = state[ix(S_ALLOWS + i)] != 0
        for k in range(LEMMINGS):
            lemming = seat * LEMMINGS + k
            pos = state[ix(PUB_POS + lemming)]
            if pos == HOME:
                gain = -1.0
                further = -1.0
            elif not allows:  # no step now: only a bonus tile that opens the way gains
                gain = 0.0
                if new:
                    gain = tile_opening(game, state, lemming, t, m) * lead_weight(game, state, seat, lemming,
                                                                                  params)
                further = gain
            else:
                here = distance(game, state, lemming)
                w = lead_weight(game, state, seat, lemming, params)
                gain = (here - state[ix(NOW + k * CARD_OPTIONS + i)]) * w
                further = (here - state[ix(LATER + k * CARD_OPTIONS + i)]) * w
            v = gain + DETOUR_WEIGHT * further
            if v > best:
                best = v
                pick = i
            best_gain = max(best_gain, gain)
    full = state[S_VIEW + OWN_HAND_N] >= game[G_HAND_LIMIT]  # refilling a full hand only swaps cards
    if best_gain < params[P_REFILL_BELOW] and not full:
        return -1
    if state[S_VIEW + OWN_HAND_N] <= params[P_HAND_RESERVE] and best_gain <= 1.0:
        return -1
    return pick


@kernel
def choose_discard(game, state, params):
    mask = 0
    for i in range(state[S_VIEW + OWN_HAND_N]):
        m, _ = movement_of(game, state, state[S_VIEW + OWN_HAND + i])
        if m < params[P_KEEP]:
            mask |= 1 << i
    return mask


@kernel
def choose_lemming(game, state, seat, params, n_options):
    best = -1.0
    pick = 0
    t = state[PUB_TERRAIN]
    m = state[PUB_MOVEMENT]
    for i in range(n_options):
        v = move_value(game, state, seat, state[S_OPTIONS + i], t, m, params)
        if v > best:
            best = v
            pick = i
    return pick


@kernel
def push_value(game, state, seat, option, params):
    """What the pushes of a step are worth, per lemming of the line by the
    change of its finish distance: a rival pushed on costs ``push`` per hex,
    its own lemming pushed on gains ``own_push`` per hex. Under the box's rules
    no push sets a lemming back (the options leave those out), so ``change`` is
    0 (sideways) or negative (pushed on); under ``backward_push`` a positive
    change counts the other way round."""
    pushed = state[option + OPT_PUSHED]
    if pushed == 0:
        return 0.0
    d = state[option + OPT_DIR]
    c = state[option + OPT_TARGET]
    value = 0.0
    for i in range(pushed):
        other = state[ix(PUB_OCC + c)]
        nxt = game[ix(G_NB + c * N_DIRECTIONS + d)]
        change = game[ix(G_DIST + nxt)] - game[ix(G_DIST + c)]  # > 0 only under backward_push
        if other // LEMMINGS == seat:
            value -= params[P_OWN_PUSH] * change
        else:
            value += params[P_PUSH] * change
        c = nxt
    return value


@kernel(inline=True)
def step_value(here, now, later, pushes, cost):
    """A step's worth from the plans out of its target (``now`` with the movement
    left, ``later`` with LOOKAHEAD more): one expression, so that a bound computed
    from lower bounds of ``now`` and ``later`` is >= the value, rounding included."""
    return here - later + 0.5 * (here - now) + pushes - 0.01 * cost


@kernel
def choose_step(game, state, seat, params, n_options):
    """The step whose target plans best, or -1 (stop) unless a step beats stopping.

    An option's plans are bounded from below twice: a plan from its target
    reaches no closer than the target's finish distance less the movement left
    (a step costs at least 1 and changes the distance by at most 1), nor closer
    than the plan from where the lemming stands with the whole movement (the
    step is the start of one of its walks). ``step_value`` of those bounds is
    an upper bound of the option's value: the option of the highest bound is
    planned first, and every other option whose bound cannot beat the best so
    far is not planned at all; a plan stops as soon as it reaches the bounds.
    The plan from where the lemming stands is mostly kept from the decision
    before (the plan of the step it took, or of its lemming's move). The answer
    is the one the plain loop gives: the first option of the highest value, if
    above the value of stopping."""
    lemming = state[PUB_LEMMING]
    t = state[PUB_TERRAIN]
    m = state[PUB_MOVEMENT]
    here = distance(game, state, lemming)
    pos = state[PUB_POS + lemming]
    low_now, w_now = kept_plan(state, lemming, pos, t, m)
    low_later, w_later = kept_plan(state, lemming, pos, t, m + LOOKAHEAD)
    if low_now == MISS or low_later == MISS:
        state[BUDGETS] = m
        state[BUDGETS + 1] = m + LOOKAHEAD
        state[BUDGETS + 2] = LOOKAHEAD  # stopping's plan
        search(game, state, lemming, pos, t, 3, 0, False, True)
        keep_plan(state, lemming, pos, t, 3, True)
        low_now, low_later = state[BESTS], state[BESTS + 1]
        w_now, w_later = state[WITNESS], state[WITNESS + 1]
    # the option both witnesses start with: its plans are the bounds themselves
    # (its walk reaches them, and it can reach no closer)
    known = w_now if w_now == w_later else -1
    if low_later < 0:  # a hex no finish can be reached from is in reach: the bounds
        low_now = -INF  # of distances (>= 0) do not hold there; planned as before them
        low_later = -INF
        known = -1
    first = -1
    top = 0.0
    for i in range(n_options):  # the option of the highest bound (the first on a tie)
        o = S_OPTIONS + i * OPT_WIDTH
        left = m - state[o + OPT_COST]
        reach = game[ix(G_DIST + state[o + OPT_TARGET])]
        bound = step_value(here, max(0, reach - left, low_now), max(0, reach - left - LOOKAHEAD, low_later),
                           push_value(game, state, seat, o, params), state[o + OPT_COST])
        if first < 0 or bound > top:
            first = i
            top = bound
    best = 0.0
    pick = -1
    for j in range(-1, n_options):
        i = first if j < 0 else j
        if i < 0 or (j >= 0 and i == first):
            continue
        o = S_OPTIONS + i * OPT_WIDTH
        left = m - state[o + OPT_COST]
        target = state[o + OPT_TARGET]
        pushes = push_value(game, state, seat, o, params)
        if pick >= 0:
            reach = game[ix(G_DIST + target)]
            bound = step_value(here, max(0, reach - left, low_now), max(0, reach - left - LOOKAHEAD, low_later),
                               pushes, state[o + OPT_COST])
            if bound < best or (bound == best and pick < i):
                continue  # cannot beat the best so far (nor come first among equals)
        if target * 8 + state[o + OPT_DIR] == known:
            now, later = low_now, low_later
            keep_pair(state, lemming, target, t, left, now, left + LOOKAHEAD, later)
        else:
            now, later, _, _ = planned(game, state, lemming, target, t, left, left + LOOKAHEAD, low_now, low_later)
        v = step_value(here, now, later, pushes, state[o + OPT_COST])
        if pick < 0 or v > best or (v == best and i < pick):
            best = v
            pick = i
    # stopping keeps what the lemming can reach from here later; it wins ties. Its
    # value is at most min(here, LOOKAHEAD): planned only when that could win.
    stop_bound = here - max(0, here - LOOKAHEAD) + 0.5 * (here - here)
    if pick >= 0 and best > stop_bound:
        return pick
    now = here  # a plan with no movement stays where it is
    later, _ = kept_plan(state, lemming, pos, t, LOOKAHEAD)
    if later == MISS:
        _, later, _, _ = planned(game, state, lemming, pos, t, 0, LOOKAHEAD, -INF, -INF)
    stop = here - later + 0.5 * (here - now)
    if pick >= 0 and best > stop:
        return pick
    return -1


@kernel
def choose_tile(game, state, seat, params, n_options):
    """Index into the map's tile hexes."""
    kind = state[PUB_TILE_KIND]
    terrain = MEADOW if kind == TILE_MEADOW else kind
    t = state[PUB_TERRAIN]
    m = state[PUB_MOVEMENT]
    best = 0.0
    pick = -1
    neutral = -1
    n = game[G_N_TILE_CELLS]
    # the rival lemming nearest to the finish (for the blocker)
    rival = -1
    for lem in range(game[G_N_PLAYERS] * LEMMINGS):
        if lem // LEMMINGS != seat and state[PUB_POS + lem] >= 0:
            if rival < 0 or distance(game, state, lem) < distance(game, state, rival):
                rival = lem
    # the plans without a tile; each marks the hexes it could enter (bit k): a
    # tile elsewhere cannot change that lemming's plan, which is then not made again
    for c in range(game[G_N_CELLS]):
        state[MARKS + c] = 0
    base = 0.0
    plain0 = 0.0
    plain1 = 0.0
    for k in range(LEMMINGS):
        lem = seat * LEMMINGS + k
        if state[PUB_POS + lem] != HOME:
            plain = float(distance(game, state, lem)
                          - plan(game, state, lem, state[PUB_POS + lem], t, m, 1 << k))
            if k == 0:
                plain0 = plain
            else:
                plain1 = plain
            base = max(base, plain)
    for i in range(n):
        c = game[G_TILE_CELLS + i]
        ter = state[PUB_TER + c]
        if ter == terrain:
            if neutral < 0:
                neutral = i
            continue
        near = False
        for k in range(LEMMINGS):
            lem = seat * LEMMINGS + k
            pos = state[PUB_POS + lem]
            if pos == HOME:
                continue
            dc = game[G_DIST + c]
            dl = distance(game, state, lem)
            if dc < dl and dc >= dl - m:
                near = True
        v = 0.0
        if near and params[P_TILE_GAIN] > 0:
            state[PUB_TER + c] = terrain
            gain = 0.0
            for k in range(LEMMINGS):
                lem = seat * LEMMINGS + k
                if state[PUB_POS + lem] != HOME:
                    if state[ix(MARKS + c)] >> k & 1:
                        gain = max(gain, float(distance(game, state, lem)
                                               - plan(game, state, lem, state[PUB_POS + lem], t, m, 0)))
                    else:  # the same plan as without the tile
                        gain = max(gain, plain0 if k == 0 else plain1)
            state[PUB_TER + c] = ter
            v = params[P_TILE_GAIN] * (gain - base)
        if rival >= 0 and params[P_BLOCK] > 0 and terrain != MEADOW and (ter == MEADOW):
            rp = state[PUB_POS + rival]
            for d in range(N_DIRECTIONS):
                if game[G_NB + rp * N_DIRECTIONS + d] == c and game[G_DIST + c] < game[G_DIST + rp]:
                    v += params[P_BLOCK]
        if v > best:
            best = v
            pick = i
    if pick >= 0:
        return pick
    if neutral >= 0:
        return neutral
    return below(state, S_VIEW + OWN_RNG, n)


@kernel
def decide_heuristic(what, seat, kind, game, state, params, n_options):
    """A heuristic bot's answer (all families: they differ in ``params``)."""
    if what != DECIDE_DISCARD and what != DECIDE_TILE:
        sync_plans(game, state)
    if what == DECIDE_ACTION:
        return choose_action(game, state, seat, params, n_options)
    if what == DECIDE_DISCARD:
        return choose_discard(game, state, params)
    if what == DECIDE_TILE:
        return choose_tile(game, state, seat, params, n_options)
    if what == DECIDE_LEMMING:
        return choose_lemming(game, state, seat, params, n_options)
    if what == DECIDE_STEP:
        return choose_step(game, state, seat, params, n_options)
    return -1
