"""The shared search driver (engine/search.py) on a toy game: option k is worth
``means[k]`` plus luck drawn per rollout, the same luck for every option (common
random numbers). Games' own search bots are tested with the games."""
import numpy as np

from analyzer.engine.jit import kernel
from analyzer.engine.rng import seed_stream, uniform
from analyzer.engine.search import T_ALIVE, flat_monte_carlo, new_table, rebound

# sim: (floats: [luck, value], ints: [stream, playouts played])


@kernel(cache=False)
def toy_world(here, sim, seat, key, r):
    seed_stream(sim[1], 0, key, r, 0)
    sim[0][0] = uniform(sim[1], 0) * 10.0  # the luck dwarfs the differences between options


@kernel(cache=False)
def toy_apply(here, sim, seat, k):
    sim[0][1] = here[0][k] + sim[0][0]
    sim[1][1] += 1
    return True  # the option ends the toy game


@kernel(cache=False)
def toy_play_out(here, sim, seat):
    pass


@kernel(cache=False)
def toy_outcome(here, sim, seat):
    return sim[0][1]


toy_search = flat_monte_carlo(toy_world, toy_apply, toy_play_out, toy_outcome)


def search(means, rollouts, drop):
    here = (np.array(means, np.float64),)
    sim = (np.zeros(2), np.zeros(2, np.int64))
    table = new_table(len(means), 16)
    best = toy_search(here, sim, 0, len(means), rollouts, drop, 12345, table)
    return best, int(sim[1][1]), table


def test_the_best_option_wins_on_equal_luck():
    best, played, table = search([0.0, 1.0, 0.5, 0.9], 8, 0.0)
    assert best == 1
    assert played == 4 * 8  # no drop: every option every rollout
    assert (table[:4, T_ALIVE] == 1).all()


def test_hopeless_options_are_dropped_and_the_search_stops_with_one_left():
    # with the same luck for all, the paired differences have no noise: the first
    # look (after 4 rollouts) drops every option behind the leader
    best, played, table = search([0.0, 1.0, 0.5, 0.9], 64, 2.0)
    assert best == 1
    assert played == 4 * 4
    assert list(table[:4, T_ALIVE]) == [0.0, 1.0, 0.0, 0.0]


def test_a_single_option_costs_no_playout():
    best, played, _ = search([3.0], 8, 2.0)
    assert (best, played) == (0, 0)


# rebound: a module's kernels compiled again with a global replaced

@kernel(cache=False)
def answer():
    return 1


@kernel(cache=False)
def other_answer():
    return 2


@kernel(cache=False)
def inner():
    return answer() * 10


@kernel(cache=False)
def outer():
    return inner() + 1


def test_rebound_replaces_a_global_in_every_copy_and_leaves_the_originals():
    copies = rebound({"inner": inner, "outer": outer}, answer=other_answer)
    assert copies["outer"]() == 21  # outer's copy calls inner's copy
    assert outer() == 11
