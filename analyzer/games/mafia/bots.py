"""The heuristic bots of Mafia: one jitted ``decide_heuristic`` the kernel's
``ask`` calls for every built-in bot kind but the reference random one.

Every move option (the kernel lists them in ``S_OPT``) is scored by what a
player weighs when a piece ends on a space: what the space may do to it (the
trigger's chance times what the piece would cost), what the pieces there do to
it, and what it does there (markers for a family; arrests, holds, marker
removals, clues for the State); a move of two pieces scores the sum. The best
option is taken, exact ties drawn uniformly (``rng.pick_best``). The parameters
(``registry.py``) say how much each matters; the families of bots differ in
their defaults:

- State ``hunter``: goes after Picciotti and Bosses outside their cities, sends
  the SISDE where the mafiosi are (clues), plays its cards when they bite;
- State ``warden``: takes markers off the spaces of the family closest to winning;
- family ``expander``: spreads markers over free spaces, keeps away from the
  Prefect, the CCs, roadblocks and ambushes, never starts a shootout;
- family ``raider``: takes the leading family's spaces, shoots its pieces when
  the odds favour it (with Special weapons), times its cards.
"""
import numpy as np

from analyzer.engine.jit import kernel
from analyzer.engine.rng import pick_best
from analyzer.games.mafia.layout import (
    AIRPORT_BOMB, AMERICAN_BOSS, AMBUSH, ANTI_GANG, ANTI_MAFIA, ATI_STRIKE, BARRACKS, BOMB, CC1, CITY,
    COMMISSION, D_ANTI_MAFIA_SPACE, D_ARREST, D_BASE, D_CARD, D_FORBID, D_GIVE_UP, D_HELI_DIE, D_HOLD,
    D_MOVE, D_RESIST, D_SHOOT, D_STATE_MOVE, D_VISIT_SPACE, DECK_SIZE, EXPANDER, G_CC_REMOVAL, G_N_SPACES,
    G_OPEN, G_PICCIOTTO_MARKER, G_PLAYERS, LOOKAHEAD, P_POLICY, PRISON, S_MOVED_STATE,
    G_PARAMS, GOV_PROTECTION, GOVERNMENT_FALLS, HELIBORNE, HIDEOUT, HUNTER, JUDICIARY, LAS_VEGAS,
    MAX_OPTIONS, MAX_SPACES, N_CARDS, N_PIECES, N_FAMILIES, NOTABLE_PROTECTION, P_CLUE, P_ENNA, P_GAIN, P_GUARD, P_HOLD,
    P_LEADER, P_MARKER, P_PHONE, P_RISK, P_S_LEADER, P_S_PHONE, P_S_RISK, P_SHOOT, P_STACK, P_TAKE,
    P_ARREST, PARAM_UNIT, PARAMS_WIDTH, PREFECT, RAIDER, RESTAURANT, ROADBLOCK, S_ASK_CARD, S_ASK_OTHER,
    S_ASK_PIECE, S_BASE, S_CONTROLLED, S_HOLDER, S_LOC, S_MARK, S_MEMO, S_MEMO_AT, S_MEMO_N, S_OPT, S_OPT_N, S_SCORE, S_SIDE, S_TRIGGER, S_TYPE,
    SISDE, SPECIAL_WEAPONS, SPY, STATE, TELEPHONE, WARDEN, WIFE_CHEATS, WIRETAP,
)
from analyzer.games.mafia.purge import (
    boss_arrest_halves, boss_hold_halves, picciotto_arrest_halves, purge_end, purge_halves,
)

SCALE = 1000.0  # scores are compared as whole thousandths


@kernel(whole=True, inline=True)
def param(g, side, k):
    return g[G_PARAMS + side * PARAMS_WIDTH + k] / PARAM_UNIT


@kernel(whole=True, inline=True)
def chance(trigger):
    """Share of die faces that set a space off."""
    n = 0
    for f in range(1, 7):
        n += (trigger >> f) & 1
    return n / 6.0


@kernel(whole=True, inline=True)
def controls(g, s, f):
    """Spaces family ``f`` controls (the kernel keeps the count as markers come and go)."""
    return s[S_CONTROLLED + f]


@kernel(whole=True, inline=True)
def partner(g, f):
    """Three players: the other family of family ``f``'s player (red+orange,
    black+green: the seat wins when either does); -1 otherwise."""
    if g[G_PLAYERS] == 3 and 0 <= f < N_FAMILIES:
        return (f + 2) % N_FAMILIES
    return -1


@kernel(whole=True, inline=True)
def friendly(g, f, h):
    """Family ``h`` is family ``f`` or, with three players, its partner."""
    return h == f or h == partner(g, f)


@kernel(whole=True, inline=True)
def family_purge_limit(g):
    """The most purge points (doubled) a family taking the State's decisions lets its
    own arrest or hold reach: one more Boss held at a roadblock must not end the game
    (5 in the box: 8 end it, a hold adds 2)."""
    return purge_end(g) - boss_hold_halves(g) - 1


ALL_LOSE = 10000.0  # what an option costs that makes everyone lose (a family: as bad as losing, for sure)
OWN_ARREST = 100.0  # a family's State piece arresting or holding one of its own pieces


@kernel(whole=True)
def leader(g, s, f):
    """The family other than ``f`` (and, with three players, its partner) controlling
    most spaces (-1: none controls any)."""
    best = -1
    most = 0
    pal = partner(g, f)
    for h in range(N_FAMILIES):
        if h != f and h != pal:
            n = controls(g, s, h)
            if n > most:
                most = n
                best = h
    return best


@kernel(whole=True)
def owner_of(s, x):
    for h in range(N_FAMILIES):
        if s[S_MARK + 4 * x + h] > 0:
            return h
    return -1


@kernel(whole=True)
def family_value(g, s, side, p, x, lead, purge):
    """What family ``side`` expects from its piece ``p`` ending on ``x`` (``lead``:
    ``leader(g, s, side)``, the same for every option, so computed once per decision;
    ``purge``: the purge points doubled, four players only).

    Three players: its partner family (the same player's) neither threatens it nor is
    a space to take. Four players: the CCs do not threaten it on its own turn (it takes
    their decisions, and never arrests or holds its own pieces); a piece the Prefect
    would arrest or hold, or a Boss a roadblock may hold, counts what it adds to the
    purge points: reaching those that end the game makes everyone lose."""
    four = g[G_PLAYERS] == 4
    pal = partner(g, side)
    boss = p % 3 == 0
    worth = 3.0 if boss else 1.5  # what losing the piece costs (a Boss is also 1-2 purge points)
    t = s[S_TYPE + x]
    c = chance(s[S_TRIGGER + x])
    risk = 0.0
    doom = 0.0  # chance the move makes everyone lose (four players)
    if t == ROADBLOCK or t == AMBUSH or t == RESTAURANT:
        risk += c * worth
        if four and boss and t == ROADBLOCK and purge + boss_hold_halves(g) >= purge_end(g):
            doom += c
    elif boss and t == BOMB:
        risk += c * worth
    elif boss and t == COMMISSION:
        risk += c * 1.0
    in_base = x == s[S_BASE + side]
    if s[S_LOC + PREFECT] == x and not (boss and in_base):
        risk += worth
        if four and purge + (boss_hold_halves(g) if boss else picciotto_arrest_halves(g)) >= purge_end(g):
            doom = 1.0
    if not four:
        for cc in range(CC1, CC1 + 3):
            if s[S_LOC + cc] == x and not (boss and in_base):
                risk += 0.5 * worth
    for h in range(N_FAMILIES):
        if h != side and h != pal:
            if boss and s[S_LOC + 3 * h] == x:
                risk += 0.25 * worth
            if not boss and (s[S_LOC + 3 * h + 1] == x or s[S_LOC + 3 * h + 2] == x):
                risk += 0.25 * worth
    gain = 0.0
    if t != CITY:
        h = owner_of(s, x)
        if h == -1:
            gain = param(g, side, P_GAIN)
        elif h == side:
            gain = param(g, side, P_STACK)
        elif h == pal:
            # its marker would take one of its partner's off (the space, if it was the last)
            gain = -(param(g, side, P_GAIN) if s[S_MARK + 4 * x + h] == 1 else param(g, side, P_STACK))
        else:
            gain = param(g, side, P_TAKE) + (param(g, side, P_LEADER) if h == lead else 0.0)
            if s[S_MARK + 4 * x + h] == 1:
                gain += param(g, side, P_GAIN)
        if not boss:  # a Picciotto places its marker on the rules' faces only (an even die)
            gain *= chance(g[G_PICCIOTTO_MARKER])
    if boss and t == TELEPHONE:
        gain += param(g, side, P_PHONE)
    value = gain - param(g, side, P_RISK) * risk
    if four:
        value -= ALL_LOSE * min(doom, 1.0)
    return value


@kernel(whole=True, inline=True)
def trap_risk(s, q, x):
    """What State piece ``q`` (the Prefect, worth 3 pieces, or a CC) risks on space
    ``x``, weighted by the chance the space goes off: an ambush or a restaurant
    (a bomb too for the Prefect), and the Commission for the Prefect."""
    t = s[S_TYPE + x]
    c = chance(s[S_TRIGGER + x])
    worth = 3.0 if q == PREFECT else 1.0
    risk = 0.0
    if t == AMBUSH or t == RESTAURANT or (q == PREFECT and t == BOMB):
        risk += c * worth
    if q == PREFECT and t == COMMISSION:
        risk += c * 1.0
    return risk


@kernel(whole=True)
def state_value(g, s, side, q, x, lead):
    """What the State expects from State piece ``q`` ending on ``x`` (``lead``:
    ``leader(g, s, -1)``, computed once per decision)."""
    t = s[S_TYPE + x]
    risk = trap_risk(s, q, x)
    value = 0.0
    if q == SISDE:
        n = 0
        for p in range(12):
            n += s[S_LOC + p] == x
        value += param(g, side, P_CLUE) * n
    else:
        share = 1.0 if q == PREFECT else 0.6
        for h in range(N_FAMILIES):
            for p in range(3 * h + 1, 3 * h + 3):
                if s[S_LOC + p] == x:
                    value += share * param(g, side, P_ARREST)
            if s[S_LOC + 3 * h] == x and x != s[S_BASE + h]:
                value += share * param(g, side, P_HOLD)
        h = owner_of(s, x)
        if h >= 0:
            # the Prefect removes a marker for sure, a CC on the rules' faces (an even die)
            value += (1.0 if q == PREFECT else chance(g[G_CC_REMOVAL])) * (
                param(g, side, P_MARKER) + (param(g, side, P_S_LEADER) if h == lead else 0.0))
        if q == PREFECT and t == TELEPHONE:
            value += param(g, side, P_S_PHONE)
        if q != PREFECT:
            # a CC guarding a space a family needs: next to the leader's markers
            if lead >= 0 and s[S_MARK + 4 * x + lead] > 0:
                value += param(g, side, P_GUARD)
    return value - param(g, side, P_S_RISK) * risk


# a family moving a State piece (four players): arrest, hold, marker, leader, risk, -, -, phone
FAMILY_STATE_WEIGHTS = np.array([1.0, 2.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.3])
SISDE_MATCH = 0.25  # the chance the Prefect's SISDE draw is the held Boss's colour (2 clues of 8)


@kernel(whole=True)
def family_state_value(g, s, side, q, x, lead, purge):
    """Four players: what family ``side`` expects from moving State piece ``q`` (the
    Prefect or a CC) to ``x``, taking its decisions there (``lead``: ``leader(g, s,
    side)``; ``purge``: the purge points doubled). The Prefect arrests and holds
    everyone there (its own pieces too: a heavy cost; a rival's counts only within
    ``family_purge_limit``); a CC arrests and holds only rivals, and only while the purge
    points stay within that limit. An
    option that brings the purge points to those that end the game (everyone loses)
    costs ``ALL_LOSE``, in proportion to its chance (the Prefect's SISDE draw)."""
    w = FAMILY_STATE_WEIGHTS
    t = s[S_TYPE + x]
    risk = trap_risk(s, q, x)
    limit = family_purge_limit(g)
    arrest = picciotto_arrest_halves(g)
    hold = boss_hold_halves(g)
    value = 0.0
    added = 0
    bosses = 0  # Bosses the Prefect holds (each may become an arrest by the SISDE draw)
    for h in range(N_FAMILIES):
        own = h == side
        for p in range(3 * h + 1, 3 * h + 3):
            if s[S_LOC + p] == x:
                if q == PREFECT:  # it must: beyond the purge limit a rival's arrest is worth nothing
                    added += arrest
                    if own:
                        value -= OWN_ARREST
                    elif purge + added <= limit:
                        value += w[P_ARREST]
                elif not own and purge + added + arrest <= limit:
                    added += arrest
                    value += 0.6 * w[P_ARREST]
        if s[S_LOC + 3 * h] == x and x != s[S_BASE + h]:
            if q == PREFECT:
                added += hold
                bosses += 1
                if own:
                    value -= OWN_ARREST
                elif purge + added <= limit:
                    value += w[P_HOLD]
            elif not own and purge + added + hold <= limit:
                added += hold
                value += 0.6 * w[P_HOLD]
    h = owner_of(s, x)
    if h >= 0:
        sign = -1.0 if h == side else 1.0
        value += sign * (1.0 if q == PREFECT else chance(g[G_CC_REMOVAL])) * (
            w[P_MARKER] + (w[P_S_LEADER] if h == lead else 0.0))
    if q == PREFECT and t == TELEPHONE:
        value += w[P_S_PHONE]
    doom = 0.0
    end = purge_end(g)
    if purge + added >= end:
        doom = 1.0
    elif bosses > 0 and purge + added + boss_arrest_halves(g) - hold >= end:  # a hold the SISDE draw makes an arrest
        doom = 1.0 - (1.0 - SISDE_MATCH) ** bosses
    return value - w[P_S_RISK] * risk - ALL_LOSE * doom


@kernel(whole=True)
def best_move(g, s, side, n, rng, state_piece):
    """Index of the best of the ``n`` listed move options."""
    m = min(n, MAX_OPTIONS, s[S_OPT_N])
    if m <= 0:
        return 0
    # the leading family does not depend on the option: once per decision, not per
    # option (it scans every space for every family; a decision has up to hundreds of options)
    lead = leader(g, s, -1 if side == STATE and not state_piece else side)
    purge = purge_halves(g, s) if g[G_PLAYERS] == 4 else 0
    # a piece's value on a space does not depend on the option either (scoring changes
    # no state): each (piece, end) is valued once per decision, marked with the
    # decision's stamp, and a two-piece option adds two stored values (the same floats
    # in the same order as before: the same scores)
    stamp = s[S_MEMO_N] + 1
    s[S_MEMO_N] = stamp
    memo = s[S_MEMO:S_MEMO + N_PIECES * MAX_SPACES].view(np.float64)
    for i in range(m):
        at = S_OPT + 4 * i
        v = 0.0
        for k in range(2):
            p = s[at + 2 * k]
            if p < 0:
                continue
            x = s[at + 2 * k + 1]
            j = p * MAX_SPACES + x
            if s[S_MEMO_AT + j] == stamp:
                v += memo[j]
                continue
            if state_piece:
                value = family_state_value(g, s, side, p, x, lead, purge)
            elif side == STATE:
                value = state_value(g, s, side, p, x, lead)
            else:
                value = family_value(g, s, side, p, x, lead, purge)
            memo[j] = value
            s[S_MEMO_AT + j] = stamp
            v += value
        s[S_SCORE + i] = np.int64(v * SCALE)
    k, _ = pick_best(s, S_SCORE, m, s, rng)
    return k


@kernel(whole=True)
def family_card(g, s, side, kind, card):
    """Whether a family plays a held card whose window is open. With four players it
    also holds the State's ROME cards for a turn: *Hideout found* only against a
    rival's Boss and within the purge limit, *Anti-gang brigade* only against a
    rival's piece, never *Anti-mafia operation* (a roadblock for good: a trap for its
    own pieces too, and every Boss it holds is a purge point toward everyone losing)."""
    if card == SPY or card == WIFE_CHEATS:
        return 0
    if card == HIDEOUT:
        b = s[S_ASK_PIECE]
        if b < 0 or b >= 12 or friendly(g, side, b // 3):
            return 0
        added = boss_hold_halves(g)
        if s[S_MOVED_STATE] == PREFECT:  # the Prefect's hold draws a SISDE card: it may become an arrest
            added = max(added, boss_arrest_halves(g))
        return 1 if purge_halves(g, s) + added <= family_purge_limit(g) else 0
    if card == ANTI_GANG:
        other = s[S_ASK_OTHER]  # the State piece's adversary in the shootout
        return 0 if 0 <= other < 12 and friendly(g, side, other // 3) else 1
    if card == ANTI_MAFIA:
        return 0
    return 1


@kernel(whole=True)
def state_card(g, s, card):
    if card == HELIBORNE or card == GOVERNMENT_FALLS:
        return 0
    return 1


@kernel(whole=True)
def decide_heuristic(kind, what, n, side, g, s, rng):
    """The answer of heuristic bot ``kind`` playing ``side`` (options 0 .. n-1); a
    search bot's (LOOKAHEAD) is its model's, the heuristic its row names."""
    if kind == LOOKAHEAD:
        kind = int(param(g, side, P_POLICY))
    family = kind == EXPANDER or kind == RAIDER
    if what == D_MOVE:
        return best_move(g, s, side, n, rng, False)
    if what == D_STATE_MOVE:
        return best_move(g, s, side, n, rng, True)
    if what == D_BASE:
        # Enna (the central city open to all) or the ring city open to the colour
        want_enna = param(g, side, P_ENNA) > 0.5
        k = 0
        pick = 0
        for x in range(g[G_N_SPACES]):
            if (g[G_OPEN + x] >> side) & 1:
                all_open = g[G_OPEN + x] == 0b1111
                if all_open == want_enna:
                    pick = k
                k += 1
        return pick
    if what == D_CARD:
        card = s[S_ASK_CARD]
        if family:
            return family_card(g, s, side, kind, card)
        return state_card(g, s, card)
    if what == D_SHOOT:
        if not family:
            return 0
        target = s[S_ASK_PIECE]  # (S_ASK_OTHER: its own piece that would shoot)
        if 0 <= target < 12 and friendly(g, side, target // 3):
            return 0  # three players: never at its partner family
        lead = leader(g, s, side)
        weapons = s[S_HOLDER + SPECIAL_WEAPONS] == side
        want = param(g, side, P_SHOOT)
        if target >= 0 and target < 12 and target // 3 == lead:
            want += 0.5
        if weapons:
            want += 0.5
        return 1 if want >= 1.0 else 0
    if what == D_FORBID:
        # forbidding costs nothing, but not its partner family's Picciotto (three players)
        return 0 if friendly(g, side, s[S_ASK_PIECE] // 3) else 1
    if what == D_RESIST:
        return 1  # resisting beats Prison (the Continent returns on 5-6)
    if what == D_ARREST or what == D_HOLD:
        if not family:
            return 1
        # four players: the family taking the State's decisions never arrests or holds its
        # own pieces, nor a rival's beyond the purge limit (the purge points that end the game:
        # everyone loses)
        q = s[S_ASK_PIECE]
        if friendly(g, side, q // 3):
            return 0
        added = picciotto_arrest_halves(g) if what == D_ARREST else boss_hold_halves(g)
        return 1 if purge_halves(g, s) + added <= family_purge_limit(g) else 0
    if what == D_GIVE_UP:
        # the least useful card of the hand: the ones without effect, Spy, then the lowest id
        k = 0
        pick = 0
        best = 99
        for c in range(N_CARDS):
            if s[S_HOLDER + c] == side:
                rank = 0 if (c == WIFE_CHEATS or c == GOVERNMENT_FALLS) else (1 if c == SPY else 2)
                if rank < best:
                    best = rank
                    pick = k
                k += 1
        return pick
    if what == D_VISIT_SPACE:
        # the controlled space with the fewest markers (the easiest to lose)
        k = 0
        pick = 0
        fewest = 99
        for x in range(g[G_N_SPACES]):
            m = s[S_MARK + 4 * x + side]
            if m > 0:
                if m < fewest:
                    fewest = m
                    pick = k
                k += 1
        return pick
    if what == D_ANTI_MAFIA_SPACE:
        # the non-city space holding the most markers of the leading family
        lead = leader(g, s, side if family else -1)
        k = 0
        pick = 0
        most = -1
        for x in range(g[G_N_SPACES]):
            if s[S_TYPE + x] != CITY:
                m = s[S_MARK + 4 * x + lead] if lead >= 0 else 0
                if m > most:
                    most = m
                    pick = k
                k += 1
        return pick
    return 0
