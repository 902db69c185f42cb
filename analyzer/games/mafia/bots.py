"""The heuristic bots of Mafia (one jitted ``decide_heuristic`` the kernel's
``ask`` calls for every built-in bot kind but the reference random one)."""
from analyzer.engine.jit import kernel
from analyzer.games.mafia.random_bot import decide_random


@kernel
def decide_heuristic(kind, what, n, side, g, s, rng):
    """No heuristic bot yet: every kind plays as the reference random bot."""
    return decide_random(what, n, s, rng)
