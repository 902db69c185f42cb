"""Mafia's game-flow counters (``engine/flow.py``): its standing if the game
ended now, noted after every side turn, and the counters written into the games
row at the end. The kernel calls these two at the points where a side turn ends
and the game's row is written."""
from analyzer.engine.flow import flow_counters, note_leader, sole_leader
from analyzer.engine.jit import kernel
from analyzer.games.mafia.layout import (
    G_PLAYERS, G_WIN_SPACES, GM_COMEBACK, GM_DECIDED_AFTER, GM_LEAD_CHANGES, GM_SIDE_TURNS, MAX_PASSES,
    N_SIDES, OUT_STATE, OUT_GREEN, S_CONTROLLED, S_FLOW, S_GM, S_STANDING, STATE,
)
from analyzer.games.mafia.purge import purge_end, purge_halves

# progress toward a win in 1/PROGRESS_UNIT steps: of the spaces a family needs, of the purge points (doubled)
# that end the game for the State
PROGRESS_UNIT = 40
FLOW_CAP = MAX_PASSES * 6  # side turns of the longest game (the safety cap is at most MAX_PASSES)


@kernel(inline=True)
def standing(g, s, side):
    """The side's way to its win if the game ended now, in 1/PROGRESS_UNIT steps: a
    family's controlled spaces of those it needs (``spaces_to_win``: 4, 5 with three
    players in the box), the State's purge points of those that end the game
    (``purge_points_to_end``: 4 in the box; -1 with four players: the State is no
    side, its purge points make everyone lose). A side at its goal has no further to
    go (its win is checked at the start of its own turn): sides at their goals tie."""
    if side == STATE:
        if g[G_PLAYERS] == 4:
            return -1
        return min(purge_halves(g, s) * PROGRESS_UNIT // purge_end(g), PROGRESS_UNIT)
    return min(s[S_CONTROLLED + side] * PROGRESS_UNIT // g[G_WIN_SPACES], PROGRESS_UNIT)


@kernel(inline=True)
def note_standing(g, s):
    """After a side turn: each side's ``standing``; the side furthest on leads (the
    search bot scores its playouts by the same standing, search.py)."""
    for side in range(N_SIDES):
        s[S_STANDING + side] = standing(g, s, side)
    note_leader(s, S_FLOW, FLOW_CAP, s[S_GM + GM_SIDE_TURNS], sole_leader(s, S_STANDING, N_SIDES))


@kernel(inline=True)
def record_flow(s, outcome):
    """The counters of the game that ended with ``outcome`` into its games row."""
    winner = STATE if outcome == OUT_STATE else (outcome - 1 if outcome <= OUT_GREEN else -1)
    changes, decided, comeback = flow_counters(s, S_FLOW, FLOW_CAP, s[S_GM + GM_SIDE_TURNS], winner)
    s[S_GM + GM_LEAD_CHANGES] = changes
    s[S_GM + GM_DECIDED_AFTER] = decided
    s[S_GM + GM_COMEBACK] = comeback
