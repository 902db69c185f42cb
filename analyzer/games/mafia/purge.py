"""The State's purge count, read by the kernel (its end checks) and by the
heuristic families (with four players, the count that makes everyone lose).
What each piece in a box counts and the count that ends the game are rule
numbers (``ruleset.py``: ``purge_half_points``, ``purge_points_to_end``), in the
game array."""
from analyzer.engine.jit import kernel
from analyzer.games.mafia.layout import (
    BARRACKS, G_PURGE_END, G_PURGE_WEIGHT, PRISON, PW_BOSS_BARRACKS, PW_BOSS_PRISON, PW_PICCIOTTO_PRISON, S_LOC,
)


@kernel(inline=True)
def purge_end(g):
    """The purge points, doubled, that end the game (the State wins; with four
    players, everyone loses): four in the box."""
    return g[G_PURGE_END]


@kernel(inline=True)
def boss_hold_halves(g):
    """What a Boss in the Barracks adds to the purge points, doubled (1 point in the box)."""
    return g[G_PURGE_WEIGHT + PW_BOSS_BARRACKS]


@kernel(inline=True)
def boss_arrest_halves(g):
    """What a Boss in Prison adds to the purge points, doubled (2 points in the box)."""
    return g[G_PURGE_WEIGHT + PW_BOSS_PRISON]


@kernel(inline=True)
def picciotto_arrest_halves(g):
    """What a Picciotto in Prison adds to the purge points, doubled (1/2 point in the box)."""
    return g[G_PURGE_WEIGHT + PW_PICCIOTTO_PRISON]


@kernel
def purge_halves(g, s):
    """The State's purge points, doubled: per Boss in Prison, per Boss in the
    Barracks and per Picciotto in Prison what the rules count (the box: 2, 1 and
    1/2 points)."""
    boss_prison = boss_arrest_halves(g)
    boss_barracks = boss_hold_halves(g)
    picciotto_prison = picciotto_arrest_halves(g)
    total = 0
    for p in range(12):
        loc = s[S_LOC + p]
        if p % 3 == 0:
            total += boss_prison if loc == PRISON else (boss_barracks if loc == BARRACKS else 0)
        elif loc == PRISON:
            total += picciotto_prison
    return total
