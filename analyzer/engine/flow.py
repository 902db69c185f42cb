"""Game-flow counters, kept by every game's kernel (Ludii-style metrics).

A game defines its *standing if the game ended now* (docs/<game>.md) and, after
each step (a move, a turn), notes who leads it: the one side (lemming, pig,
player, side) strictly ahead of all others, or ``NO_LEADER`` when the top is
tied. A tie at the top leaves the lead with the side that held it: the *lead
holder* after a step is the last side that led alone (none before any did). The notes go into a history region of one of the kernel's int64 arrays
(``at``: its first slot; one slot per step, ``cap`` slots). At the end
``flow_counters`` reads the history against the eventual winner:

- ``lead_changes``: times the lead passed from one holder to another (a lead
  lost to a tie and taken back is no change).
- ``decided_after``: steps played before the winner held the lead for good (it
  held it after every later step): 0 when it led alone from the first step on,
  ``steps`` when it did not hold the lead even after the last step. -1 without
  a single winner (a shared win, a draw, a capped game).
- ``comeback``: the winner did not hold the lead after step ``steps // 2`` (the
  half). False without a single winner or when the game was one step long.

Steps beyond ``cap`` are not noted: each game's cap is its own longest game,
so none is lost.
"""
from analyzer.engine.jit import ix, kernel

NO_LEADER = -1  # the top of the standing is tied


@kernel(inline=True)
def sole_leader(values, at, n):
    """Index (0..n-1) of the strictly highest of ``values[at:at+n]``, or
    NO_LEADER when the highest is shared."""
    best = values[ix(at)]
    leader = 0
    for i in range(1, n):
        v = values[ix(at + i)]
        if v > best:
            best = v
            leader = i
        elif v == best:
            leader = NO_LEADER
    return leader


@kernel(inline=True)
def note_leader(history, at, cap, step, leader):
    """Who leads after step ``step`` (1-based)."""
    if 0 < step <= cap:
        history[ix(at + step - 1)] = leader


@kernel(inline=True)
def flow_counters(history, at, cap, steps, winner):
    """(lead_changes, decided_after, comeback) of a game of ``steps`` steps
    whose single winner is ``winner`` (-1: none); see the module docstring."""
    n = min(steps, cap)
    half = steps // 2
    changes = 0
    held = NO_LEADER  # who holds the lead: the last side to lead alone
    decided = 0
    at_half = NO_LEADER
    for t in range(n):
        leader = history[ix(at + t)]
        if leader != NO_LEADER:
            if held != NO_LEADER and leader != held:
                changes += 1
            held = leader
        if held != winner:
            decided = t + 1
        if t + 1 == half:
            at_half = held
    if winner < 0:
        return changes, -1, False
    return changes, decided, half > 0 and at_half != winner


@kernel(inline=True)
def one_bit(mask):
    """The index of the lowest set bit of ``mask`` (a bit mask of winners)."""
    i = 0
    while mask > 1 and mask & 1 == 0:
        mask >>= 1
        i += 1
    return i
