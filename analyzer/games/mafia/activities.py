"""Mafia's rules, jitted: (d) the activities of a moved piece
(``shared/rules/mafia.md``, "Activities"). ``resolve`` runs them in the page's
order: 1. the space acts on the piece (``space_acts``), 2. the pieces already
there act on it (``others_act_on_*``), 3. it acts (``prefect_acts``, ``cc_acts``,
``boss_acts``, ``picciotto_acts``); the State's actions they share (arrests,
holds, the SISDE pair, shootouts) come first."""
from analyzer.engine.jit import kernel
from analyzer.engine.rng import below
from analyzer.games.mafia.core import (
    ask, die, draw, has_markers, is_boss, is_picciotto, marker_die, offer, owner, place_marker, record_play,
    remove_marker, send, state_decider, trace, trigger_die,
)
from analyzer.games.mafia.layout import (
    AMBUSH, ANTI_GANG, BARRACKS, BOMB, CC1, COMMISSION, CONTINENT, D_ARREST, D_CARD, D_FORBID, D_GIVE_UP,
    D_HOLD, D_RESIST, D_SHOOT, DECK_SIZE, FIRST_SISDE, G_CC_REMOVAL, G_PICCIOTTO_MARKER, G_PLAYERS,
    G_SHOT_HITS, G_WEAPON_HITS, GM_COMMISSION_FREEZES, GM_GIVEN_UP,
    GM_HOLDS_ROADBLOCK, GM_RESTAURANT_EXPLOSIONS, GM_SHOOTOUTS, HIDEOUT, LAS_VEGAS, LEAK, N_CARDS, N_CC,
    N_FAMILIES, N_PIECES, PLAY_SISDE_4P, PLAY_SISDE_PAIR, PREFECT, PRISON, RESTAURANT, ROADBLOCK, ROME,
    S_ASK_CARD, S_ASK_OTHER, S_ASK_PIECE, S_BASE, S_FORBIDDEN, S_FROZEN, S_GM, S_HOLDER, S_LOC, S_MOVED_STATE,
    S_RNG_SIDE, S_SIDE, S_STATE_PIECE_FROZEN, S_TRIGGER, S_TYPE, SISDE, SISDE_DECK, SP_TRIGGERS,
    SPECIAL_WEAPONS, STATE, T_CARD, T_FORBID, T_GIVE_UP, T_SHOOTOUT, T_TRIGGER, TELEPHONE, USA, WIRETAP,
    T_SHOOT_DICE,
)


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
    starter first), then both roll; a die hits on the rules' faces (``shootout_hit_faces``:
    odd in the box; ``weapons_hit_faces`` with Special weapons: 2-6; a State piece with
    Anti-gang brigade hits without rolling). Both may fall."""
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
    hit_a = sure_a or ((g[G_WEAPON_HITS if weapons_a else G_SHOT_HITS] >> da) & 1) == 1
    hit_b = sure_b or ((g[G_WEAPON_HITS if weapons_b else G_SHOT_HITS] >> db) & 1) == 1
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
    """(d) 3 for a CC: may arrest each Picciotto and hold each Boss, then on the
    rules' faces (``cc_removal_faces``: an even die in the box) removes one marker."""
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
    if s[S_LOC + cc] == x and has_markers(s, x) and (g[G_CC_REMOVAL] >> marker_die(s, tr, cc, x)) & 1:
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
    """(d) 3 for a Picciotto: may shoot each Picciotto of another family, then on the
    rules' faces (``picciotto_marker_faces``: an even die in the box) places a marker."""
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
    if (g[G_PICCIOTTO_MARKER] >> marker_die(s, tr, p, x)) & 1:
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
