"""The State's purge count, read by the kernel (its end checks) and by the
heuristic families (with four players, the count that makes everyone lose)."""
from analyzer.engine.jit import kernel
from analyzer.games.mafia.layout import BARRACKS, PRISON, S_LOC

# the purge points, doubled, that end the game: four (the State wins; with four
# players, everyone loses)
PURGE_END = 8


@kernel
def purge_halves(s):
    """The State's purge points, doubled: 2 per Boss in Prison, 1 per Boss in the
    Barracks, 1/2 per Picciotto in Prison."""
    total = 0
    for p in range(12):
        loc = s[S_LOC + p]
        if p % 3 == 0:
            total += 4 if loc == PRISON else (2 if loc == BARRACKS else 0)
        elif loc == PRISON:
            total += 1
    return total
