"""Flat Monte Carlo search over the options of one decision, for any game's kernel.

A search bot weighs each option of a decision by playing the rest of the game
(or of the part of it that is scored, a race) many times from what its seat
can see, and answers the option whose playouts scored best for its seat. The
loop is the same in every game and is written here once (``flat_monte_carlo``);
a game supplies four jitted functions, from which ``flat_monte_carlo`` makes the
game's search kernel (compiled into the game's kernel, with the game's functions
as its constants):

``world(here, sim, seat, key, r)``
    the decision point copied from ``here`` (a tuple of the game's arrays as the
    kernel holds them at the decision) into ``sim`` (a tuple of scratch arrays
    of the same shapes), with everything the seat cannot see drawn anew,
    consistent with what is public (determinization), and every random stream
    of the playout seeded from ``(key, r)``: rollout ``r`` is the same world
    and the same luck for every option (common random numbers);
``apply_option(here, sim, seat, k)``
    the seat's answer is option ``k``: the game goes on from it up to the next
    point the playout policy takes over; returns True if that ended the game;
``play_out(here, sim, seat)``
    the rest of the game, every seat played by the game's playout policy (its
    random bot or one of its heuristic bots);
``outcome(here, sim, seat)``
    what the finished playout is worth to the seat (float64): its objective,
    the win, with its score margin as a tie-break (the game says how they mix).

Options compared on the same worlds and luck differ in their mean by the
option alone, so a paired difference tells early which options are hopeless:
every ``DROP_EVERY`` rollouts an option whose mean paired difference to the
leader is more than ``drop`` standard errors below 0 gets no more rollouts
(``drop`` 0: never). The option with the best mean over its rollouts wins;
a dropped option never does.

Cost: ``rollouts`` playouts per option still alive; the budget is the game's
bot parameter (``rollouts``), its price per decision is in the game's page.
"""
import types

import numpy as np

from analyzer.engine.jit import kernel

DROP_EVERY = 4  # rollouts between two looks for hopeless options
# columns of the ``table`` a game hands the search (float64 [options, PAIRED + rollouts kept])
T_SUM = 0  # the sum of the option's values
T_ALIVE = 1  # 1 while the option gets rollouts
T_PAIRED = 2  # the value of each of the first rollouts, for the paired differences


def flat_monte_carlo(world, apply_option, play_out, outcome):
    """The search over a game's four functions: a kernel ``search(here, sim,
    seat, n, rollouts, drop, key, table)`` returning the best of options
    0 .. n-1 of the seat's decision at ``here`` (``table``: float64
    [>= n, T_PAIRED + kept], scratch; the drop looks at the first ``kept``
    rollouts only). ``key``: drawn by the caller from the seat's own stream,
    so the search is as reproducible as the game.

    A game makes it once, at import. The functions are the kernel's
    constants (direct calls, inlined or linked), not arguments: a kernel
    taking functions as arguments calls them through pointers, which the
    kernel cache cannot store."""

    @kernel(cache=False)  # compiled for the game's kernel, into it (engine/callee_ir.py)
    def search(here, sim, seat, n, rollouts, drop, key, table):
        kept = table.shape[1] - T_PAIRED
        for k in range(n):
            table[k, T_SUM] = 0.0
            table[k, T_ALIVE] = 1.0
        left = n
        for r in range(rollouts):
            if left == 1:
                break  # one option left: it is the answer
            for k in range(n):
                if table[k, T_ALIVE] == 0.0:
                    continue
                world(here, sim, seat, key, r)
                if not apply_option(here, sim, seat, k):
                    play_out(here, sim, seat)
                value = outcome(here, sim, seat)
                table[k, T_SUM] += value
                if r < kept:
                    table[k, T_PAIRED + r] = value
            done = r + 1
            if drop > 0 and done % DROP_EVERY == 0 and done <= kept:
                left = drop_hopeless(table, n, done, drop)
        return best_alive(table, n)

    return search


@kernel
def drop_hopeless(table, n, done, drop):
    """Drop every option whose mean paired difference (on the same worlds and
    luck) to the leader is more than ``drop`` standard errors below 0, over the
    first ``done`` rollouts. Returns how many options are left."""
    leader = best_alive(table, n)
    left = 0
    for k in range(n):
        if table[k, T_ALIVE] == 0.0:
            continue
        left += 1
        if k == leader:
            continue
        mean = (table[k, T_SUM] - table[leader, T_SUM]) / done
        squares = 0.0
        for i in range(done):
            d = table[k, T_PAIRED + i] - table[leader, T_PAIRED + i] - mean
            squares += d * d
        # mean < -drop * sqrt(squares / (done - 1) / done), without the root
        if mean < 0 and mean * mean * done * (done - 1) > drop * drop * squares:
            table[k, T_ALIVE] = 0.0
            left -= 1
    return left


@kernel(inline=True)
def best_alive(table, n):
    """The option alive with the largest sum (all alive options have had the same
    rollouts), the first of equals."""
    best = -1
    for k in range(n):
        if table[k, T_ALIVE] != 0.0 and (best < 0 or table[k, T_SUM] > table[best, T_SUM]):
            best = k
    return best


def new_table(options: int, kept: int) -> np.ndarray:
    """A ``table`` for ``flat_monte_carlo`` (Python side: tests)."""
    return np.zeros((options, T_PAIRED + kept), np.float64)


def rebound(kernels: dict, **replacements) -> dict:
    """The kernels (name -> kernel, all of one module) compiled again from their
    own source, with the module's globals named in ``replacements`` replaced
    and each of ``kernels`` calling the others' new copies: a game's turn code
    played in its playouts with its decisions answered by the playout policy
    (``ask=...``) instead of the kernel's own dispatch, which reaches the
    search bot itself (numba compiles no such cycle). The source is written
    once; its compiled code is twice in a kernel with a search bot, once in
    the search's playouts (``docs/performance.md``: compile cost)."""
    first = next(iter(kernels.values())).py_func
    namespace = dict(first.__globals__, **replacements)
    copies = {}
    for name, original in kernels.items():
        f = original.py_func
        if f.__globals__ is not first.__globals__:
            raise ValueError(f"rebound: {name} is not in {first.__module__}")
        copy = types.FunctionType(f.__code__, namespace, f.__name__, f.__defaults__, f.__closure__)
        copy.__qualname__, copy.__module__, copy.__doc__ = f.__qualname__, f.__module__, f.__doc__
        copies[name] = namespace[name] = kernel(
            copy, cache=False, inline=bool(original.targetoptions.get("forceinline", False)))
    return copies
