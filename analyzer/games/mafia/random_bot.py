"""The reference random bot of the rules page, jitted. Every simulator of these
rules ships it exactly as written: the statistical cross-check relies on it."""
from analyzer.engine.jit import kernel
from analyzer.engine.rng import below
from analyzer.games.mafia.layout import D_ARREST, D_CARD, D_RESIST


@kernel(inline=True)
def decide_random(what, n, s, rng):
    """Every choice uniform among the legal ones (``n`` options; the kernel asks
    only when there are at least two); each optional activity or State action
    (arrest, hold, forbid, shootout, resisting: decisions D_ARREST .. D_RESIST)
    with probability 1/2; a held card whose window is open (D_CARD) with
    probability 1/4. The answer 1 is "yes" for the yes/no decisions."""
    if what == D_CARD:
        return 1 if below(s, rng, 4) == 0 else 0
    if D_ARREST <= what <= D_RESIST:
        return below(s, rng, 2)
    return below(s, rng, n)
