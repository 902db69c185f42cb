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
    G_DIST, G_HAND_LIMIT, G_N_CELLS, G_N_PLAYERS, G_N_START, G_N_TILE_CELLS, G_NB, G_START_CELLS, G_START_DIST,
    G_TERRAIN, G_TILE_CELLS, HOME, LEMMINGS, MAX_CELLS, MEADOW, N_DIRECTIONS, N_TERRAINS, OPT_COST, OPT_DIR,
    OPT_PUSHED, OPT_TARGET, OPT_WIDTH, OWN_HAND, OWN_HAND_N, OWN_RNG, P_BLOCK, P_HAND_RESERVE, P_KEEP, P_LEAD,
    P_OWN_PUSH, P_PUSH, P_REFILL_BELOW, P_TILE_GAIN, PUB_LEMMING, PUB_MOVEMENT, PUB_MOVER, PUB_OCC,
    PUB_POS, PUB_SUPPLY, PUB_TER, PUB_TERRAIN, PUB_TILE_KIND, S_ALLOWS, S_OPTIONS, S_SCRATCH, S_VIEW,
    START,
)
from analyzer.games.lemminge.rules import (
    distance, enterable, movement_of, card_terrain, step_cost, TILE_MEADOW,
)

INF = 1 << 30
LOOKAHEAD = 4  # movement a plan adds for the turns to come: a detour round a jam is seen to lead on
DETOUR_WEIGHT = 0.25  # weight of that longer reach beside the hexes gained now
LEVELS = S_SCRATCH  # scratch: a search's best finish distance per movement 0, 1, 2, ...
COST = S_SCRATCH + MAX_CELLS  # scratch: planned cost per cell
QUEUE = S_SCRATCH + 2 * MAX_CELLS  # scratch: cells reached, in order
MARKS = LEVELS  # scratch of choose_tile (its plans keep no levels): hexes its plans could enter
SLOT = MAX_CELLS // (LEMMINGS * N_TERRAINS)  # levels kept per (lemming, card terrain) in choose_action


@kernel
def search(game, state, lemming, source, terrain, movement, out, keep, mark=0):
    """Smallest finish distance ``lemming`` can reach from ``source`` (a cell,
    or AT_START: every start hex) with ``movement`` over ``terrain``, the board
    as it stands (a push costs its line; where the pushed land is ignored).
    The same search answers every smaller movement too (a cell's cost does not
    depend on the bound): the answer for movement L < ``keep`` is written to
    ``state[out + L]``, so one search serves a move and its look-ahead. With
    ``mark`` (a bit), every hex next to a hex it could still step out of gets
    that bit in ``state[MARKS + hex]``: only those hexes could be entered, so a
    change of terrain elsewhere leaves the search's answer as it is."""
    if source == HOME:
        for level in range(min(keep, movement + 1)):
            state[ix(out + level)] = 0
        return 0
    n = 0  # COST is INF everywhere on entry (clear_costs) and left so on return
    if source == AT_START:
        best = game[G_START_DIST]
        for k in range(game[G_N_START]):
            c = game[G_START_CELLS + k]
            state[COST + c] = 0
            state[QUEUE + n] = c
            n += 1
    else:
        best = game[ix(G_DIST + source)]
        state[ix(COST + source)] = 0
        state[QUEUE] = source
        n = 1
    top = 0  # the largest cost queued: beyond it no level finds a cell
    start = 0  # cells before it in the queue are done (cost below the level)
    for level in range(movement + 1):
        if level > top:  # nothing left to find: the answer stays
            for rest in range(level, min(keep, movement + 1)):
                state[ix(out + rest)] = best
            break
        while start < n and state[ix(COST + state[ix(QUEUE + start)])] < level:
            start += 1  # costs only fall: a cell below this level is never seen again
        i = start
        while i < n:
            c = state[ix(QUEUE + i)]
            i += 1
            if state[ix(COST + c)] != level:
                continue
            if game[ix(G_TERRAIN + c)] != START:
                best = min(best, game[ix(G_DIST + c)])
            if game[ix(G_TERRAIN + c)] == FINISH:
                continue
            for d in range(N_DIRECTIONS):
                t = game[ix(G_NB + c * N_DIRECTIONS + d)]
                if t < 0 or game[ix(G_TERRAIN + t)] == START or not enterable(state, t, terrain):
                    continue
                if state[ix(PUB_OCC + t)] == lemming:
                    k = 1
                else:
                    k = step_cost(game, state, t, d)
                    if k == 0:
                        continue
                nc = level + k
                if nc <= movement and nc < state[ix(COST + t)]:
                    state[ix(COST + t)] = nc
                    state[ix(QUEUE + n)] = t
                    n += 1
                    top = max(top, nc)
        if level < keep:
            state[ix(out + level)] = best
    for j in range(n):
        c = state[ix(QUEUE + j)]
        if mark != 0 and state[ix(COST + c)] < movement and game[ix(G_TERRAIN + c)] != FINISH:
            for d in range(N_DIRECTIONS):
                t = game[ix(G_NB + c * N_DIRECTIONS + d)]
                if t >= 0:
                    state[ix(MARKS + t)] |= mark
        state[ix(COST + c)] = INF
    return best


@kernel
def clear_costs(game, state):
    """COST to INF on every cell, once per decision: each search then resets
    only the cells it reached (far fewer than the map's)."""
    for c in range(game[G_N_CELLS]):
        state[COST + c] = INF


@kernel
def plan(game, state, lemming, source, terrain, movement):
    """The smallest finish distance ``lemming`` can reach (``search``)."""
    return search(game, state, lemming, source, terrain, movement, LEVELS, 0)


@kernel
def plan_pair(game, state, lemming, source, terrain, near, far):
    """(plan with movement ``near``, plan with ``far`` >= near), one search."""
    if near < MAX_CELLS:
        best = search(game, state, lemming, source, terrain, far, LEVELS, near + 1)
        return state[ix(LEVELS + near)], best
    return (plan(game, state, lemming, source, terrain, near),
            plan(game, state, lemming, source, terrain, far))


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
    now, later = plan_pair(game, state, lemming, pos, terrain, movement, movement + LOOKAHEAD)
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
            best = min(best, plan(game, state, lemming, pos, terrain, movement))
            state[ix(PUB_TER + c)] = ter
    return here - best


@kernel
def choose_action(game, state, seat, params, n_options):
    # Every card of the hand is an option; S_ALLOWS says which allow a step.
    # A card that allows one is worth the hexes it gains (move_gain, with the
    # look-ahead); one that allows none gains nothing this turn, unless it
    # starts a new column whose bonus tile opens the way (tile_opening).
    # move_gain for every card that allows a step and lemming, from one search
    # per (lemming, card terrain) with the largest movement among that
    # terrain's cards: the search keeps every smaller movement's answer (slot
    # of SLOT levels in LEVELS)
    for k in range(LEMMINGS):
        lemming = seat * LEMMINGS + k
        if state[ix(PUB_POS + lemming)] == HOME:
            continue
        for t in range(N_TERRAINS):
            reach = -1
            for i in range(n_options):
                card = state[S_VIEW + OWN_HAND + state[S_OPTIONS + i]]
                if card_terrain(game, card) == t and state[ix(S_ALLOWS + i)] != 0:
                    m, _ = movement_of(game, state, card)
                    reach = max(reach, m + LOOKAHEAD)
            if reach >= 0:
                reach = min(reach, SLOT - 1)
                search(game, state, lemming, state[ix(PUB_POS + lemming)], t, reach,
                       LEVELS + (k * N_TERRAINS + t) * SLOT, reach + 1)
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
                if m + LOOKAHEAD < SLOT:
                    slot = LEVELS + (k * N_TERRAINS + t) * SLOT
                    gain = (here - state[ix(slot + m)]) * w
                    further = (here - state[ix(slot + m + LOOKAHEAD)]) * w
                else:  # a movement beyond the slots: searched on its own
                    gain = (here - plan(game, state, lemming, pos, t, m)) * w
                    further = (here - plan(game, state, lemming, pos, t, m + LOOKAHEAD)) * w
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

    A plan from a target can reach no closer than its finish distance minus the
    movement (a step costs at least 1 and changes the distance by at most 1), so
    ``step_value`` of those bounds is an upper bound of the option's value: the
    option of the highest bound is planned first, and every other option whose
    bound cannot beat the best so far is not planned at all (most of them once a
    straight path is found). The answer is the one the plain loop gives: the
    first option of the highest value, if above the value of stopping."""
    lemming = state[PUB_LEMMING]
    t = state[PUB_TERRAIN]
    m = state[PUB_MOVEMENT]
    here = distance(game, state, lemming)
    pos = state[PUB_POS + lemming]
    first = -1
    top = 0.0
    for i in range(n_options):  # the option of the highest bound (the first on a tie)
        o = S_OPTIONS + i * OPT_WIDTH
        left = m - state[o + OPT_COST]
        reach = game[ix(G_DIST + state[o + OPT_TARGET])]
        bound = step_value(here, max(0, reach - left), max(0, reach - left - LOOKAHEAD),
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
            bound = step_value(here, max(0, reach - left), max(0, reach - left - LOOKAHEAD),
                               pushes, state[o + OPT_COST])
            if bound < best or (bound == best and pick < i):
                continue  # cannot beat the best so far (nor come first among equals)
        now, later = plan_pair(game, state, lemming, target, t, left, left + LOOKAHEAD)
        v = step_value(here, now, later, pushes, state[o + OPT_COST])
        if pick < 0 or v > best or (v == best and i < pick):
            best = v
            pick = i
    # stopping keeps what the lemming can reach from here later; it wins ties. Its
    # value is at most min(here, LOOKAHEAD): planned only when that could win.
    stop_bound = here - max(0, here - LOOKAHEAD) + 0.5 * (here - here)
    if pick >= 0 and best > stop_bound:
        return pick
    now, later = plan_pair(game, state, lemming, pos, t, 0, LOOKAHEAD)
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
                          - search(game, state, lem, state[PUB_POS + lem], t, m, LEVELS, 0, 1 << k))
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
                                               - plan(game, state, lem, state[PUB_POS + lem], t, m)))
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
    if what != DECIDE_DISCARD:
        clear_costs(game, state)
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
