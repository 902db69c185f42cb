"""Event traces for ``analyzer replay``: what a kernel did in one race or game,
step by step, recorded by the very code that plays every run.

A trace is a region of the kernel's private int64 array (``hidden``) that only
a replay allocates: ``hidden[at]`` counts the events written, ``hidden[at + 1]``
is how many fit, and event ``i`` is the ``EVENT_WIDTH`` slots from
``at + 2 + i * EVENT_WIDTH``: its kind, the seat it concerns (-1: none), three
numbers ``a, b, c`` and a payload (``PAYLOAD`` slots: options, positions...).
What each kind's numbers mean is the game's (its ``replay.py`` decodes them).

In a normal run the game array's trace offset is 0 (no trace): every event
point is then one load and a branch that is always taken the same way, which
costs nothing measurable, and the results are the same with or without a trace
(the trace only writes into its own region)."""
from __future__ import annotations

import numpy as np

from analyzer.engine.jit import ix, kernel

EVENT_WIDTH = 32
HEAD = 5  # kind, seat, a, b, c
PAYLOAD = EVENT_WIDTH - HEAD
DEFAULT_EVENTS = 4096  # room of a replay's trace: more than any race or game has


@kernel(inline=True)
def emit(hidden, at, kind, seat, a, b, c):
    """Append an event to the trace at ``at`` (0: none). Returns the slot of its
    payload, or -1 when there is no trace or it is full."""
    if at == 0:
        return -1
    i = hidden[ix(at)]
    if i >= hidden[ix(at + 1)]:
        return -1
    hidden[ix(at)] = i + 1
    slot = at + 2 + i * EVENT_WIDTH
    hidden[ix(slot)] = kind
    hidden[ix(slot + 1)] = seat
    hidden[ix(slot + 2)] = a
    hidden[ix(slot + 3)] = b
    hidden[ix(slot + 4)] = c
    return slot + HEAD


@kernel(inline=True)
def payload(hidden, slot, source, source_at, n):
    """Copy ``n`` values of ``source`` from ``source_at`` into an event's payload
    (``slot`` from ``emit``; nothing when it is -1)."""
    if slot < 0:
        return
    for i in range(min(n, PAYLOAD)):
        hidden[ix(slot + i)] = source[ix(source_at + i)]


def region_size(events: int = DEFAULT_EVENTS) -> int:
    """Slots a trace of ``events`` events takes (its two header slots included)."""
    return 2 + events * EVENT_WIDTH


def open_trace(hidden: np.ndarray, at: int, events: int = DEFAULT_EVENTS) -> None:
    hidden[at] = 0
    hidden[at + 1] = events


def read_trace(hidden: np.ndarray, at: int) -> np.ndarray:
    """The events written, [n, EVENT_WIDTH] (kind, seat, a, b, c, payload...).
    Raises if the trace filled up: a replay must never be cut short silently."""
    n = int(hidden[at])
    if n >= int(hidden[at + 1]):
        raise RuntimeError(f"the replay trace filled up at {n} events")
    return hidden[at + 2:at + 2 + n * EVENT_WIDTH].reshape(n, EVENT_WIDTH).copy()
