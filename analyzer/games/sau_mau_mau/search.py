"""Sau Mau Mau's search bot (``lookahead``, kind LOOKAHEAD): the shared flat
Monte Carlo search (``analyzer/engine/search.py``) over this game's pieces.

It searches its two decisions that shape a race, the play (each valid card, or
drawing) and the bet (pass, or a pig); it answers a Farmer's colour, a Flapi
tie and penalty steps as its playout policy does. Each rollout plays the rest
of the race from a world consistent with what the seat sees: its own hand, the
discard pile (every card played since the last reshuffle is public), the
public counts; the other hands and the draw pile are the remaining cards
dealt at random, the other bets in the queue on random pigs. Every seat then
plays the playout policy (``playout``: the random bot, or a heuristic family
with the model parameters of the bot's row). An option's value is the seat's
game score less the best other score after the race; in the last race a win
(shared or not) adds ``win_points``. The playouts play the game's rules: the
playout's game array is a copy of the game's (its rules block included) and its
state a copy of the seat's (the rules mirrored there, which the heuristic
playout policy reads).
"""
import numpy as np

from analyzer.engine.jit import kernel
from analyzer.engine.rng import below, next_u64, seed_stream, shuffle
from analyzer.engine.search import T_PAIRED, flat_monte_carlo
from analyzer.games.sau_mau_mau.asking import ask_heuristic
from analyzer.games.sau_mau_mau.bots import decide_heuristic
from analyzer.games.sau_mau_mau.layout import (
    BET_LEN, DECIDE_BET, DECIDE_PLAY, FIRST_HEURISTIC, G_CHECK, G_KINDS, G_LEN, G_N_PLAYERS, G_RACES, G_TRACE_AT,
    H_DISCARD, H_PILE, H_SEARCH, S_LEN, SEARCH_WORK,
    H_RNG, H_SCRIPT, H_SCRIPT_I, H_SCRIPT_N, MAX_PLAYERS, MAX_TURNS, N_CARDS, N_PIGS,
    OWN_BET_PIG, OWN_HAND, OWN_HAND_N, OWN_RNG, P_DROP, P_PLAYOUT, P_ROLLOUTS, P_WIN_POINTS, PL_LEN,
    PUB_DISCARD_N, PUB_HAND_N, PUB_MOVER, PUB_PILE_N, PUB_RACE, PUB_SCORE, PUB_TURN, RACE_LEN, RANDOM,
    S_VIEW,
)
from analyzer.games.sau_mau_mau.random_bot import decide_random
from analyzer.games.sau_mau_mau.rules import BOT_ERROR, RACE_ON, own_at, place_bet, score_race

KEPT = 32  # rollouts whose values the drop of hopeless options looks at
_WORLD_LANE = MAX_PLAYERS + 1  # the stream dealing the unseen cards (0: the deck, 1 + seat: the players)
# the work row of a search in hidden's search area (int64): the decision, the
# race's end, the world's stream, the unseen cards
W_WHAT, W_N_OPTIONS, W_ENDS, W_RNG, W_POOL = 0, 1, 2, 3, 4
W_LEN = W_POOL + N_CARDS
assert W_LEN <= SEARCH_WORK


@kernel
def lookahead_decide(what, seat, game, state, hidden, row, scratch, n_options):
    """The search bot's answer. ``state``: the decision as the kernel shows it
    to a bot (its whole own row in ``S_VIEW``); ``hidden``: read only for what
    is public (the discard pile), copied into its search area for the
    playouts; ``row``: its parameters, with the heuristic cache
    (``bots.fill_cache``); ``scratch``: a float64 row for the search's table."""
    if what == DECIDE_PLAY:
        n = n_options + 1  # each valid card, then drawing
    elif what == DECIDE_BET:
        n = N_PIGS + 1  # passing, then each pig
    else:
        return answer_by_policy(what, seat, game, state, row, n_options)
    key = next_u64(state, S_VIEW + OWN_RNG)  # drawn whatever the options: the bot's later draws stay put
    if n == 1:
        return -1  # no valid card: it draws
    at = H_SEARCH
    sim_game = hidden[at:at + G_LEN]
    at += G_LEN
    sim_state = hidden[at:at + S_LEN]
    at += S_LEN
    sim_hidden = hidden[at:at + H_SEARCH]
    at += H_SEARCH
    work = hidden[at:at + SEARCH_WORK]
    at += SEARCH_WORK
    race_row = hidden[at:at + RACE_LEN]
    at += RACE_LEN
    player_rows = hidden[at:at + MAX_PLAYERS * PL_LEN].reshape((MAX_PLAYERS, PL_LEN))
    at += MAX_PLAYERS * PL_LEN
    bet_rows = hidden[at:at + MAX_PLAYERS * BET_LEN].reshape((MAX_PLAYERS, BET_LEN))
    for i in range(G_LEN):
        sim_game[i] = game[i]
    for p in range(game[G_N_PLAYERS]):
        sim_game[G_KINDS + p] = playout_kind(row)
    sim_game[G_TRACE_AT] = 0
    sim_game[G_CHECK] = 0
    work[W_WHAT] = what
    work[W_N_OPTIONS] = n_options
    width = T_PAIRED + KEPT
    table = scratch[:n * width].reshape((n, width))
    best = _search((game, state, hidden, row), (sim_game, sim_state, sim_hidden, work, race_row,
                                                 player_rows, bet_rows),
                   seat, n, max(1, int(row[P_ROLLOUTS])), row[P_DROP], np.int64(key), table)
    if what == DECIDE_PLAY:
        return best if best < n_options else -1
    return best - 1


@kernel
def answer_by_policy(what, seat, game, state, row, n_options):
    """A decision the bot does not search, answered as its playout policy would."""
    policy = playout_kind(row)
    if policy == RANDOM:
        return decide_random(what, state, S_VIEW, state, n_options)
    return decide_heuristic(what, seat, policy, game, state, row, n_options)


@kernel(inline=True)
def playout_kind(row):
    """The bot kind of the playout policy (``playout``: 0 random, 1 the heuristic
    model, whose families differ only in their parameters)."""
    return RANDOM if row[P_PLAYOUT] == 0 else FIRST_HEURISTIC


@kernel(inline=True)
def ask_playout(what, seat, game, state, hidden, row, n_options):
    """A decision in a playout: the forced answer of ``apply_option`` first, then
    the playout policy (every seat's kind in the playout's game array)."""
    i = hidden[H_SCRIPT_I]
    if i < hidden[H_SCRIPT_N]:
        hidden[H_SCRIPT_I] = i + 1
        return hidden[H_SCRIPT + i]
    kind = game[G_KINDS + seat]
    if kind == RANDOM:
        return decide_random(what, hidden, own_at(seat), state, n_options)
    return ask_heuristic(what, seat, kind, game, state, hidden, row, n_options)


# the kernel's turn, compiled again with its decisions asked of ``ask_playout``:
# kernel.py sets it (``engine.search.rebound``), as this module cannot import
# the kernel that dispatches to it
play_turn = None


@kernel
def playout_turn(here, sim):
    """One turn of a playout (the kernel's ``play_turn``, decisions by ``ask_playout``)."""
    sim_game, sim_state, sim_hidden, work, _, _, _ = sim
    result = play_turn(sim_game, sim_state, sim_hidden, here[3])
    work[W_ENDS] = result
    return result


@kernel
def world(here, sim, seat, key, r):
    """Rollout ``r``'s world: the decision copied, the cards the seat has not
    seen (neither in its hand nor on the discard pile) shuffled into the other
    hands (their counts kept) and the draw pile, the other bets in the queue
    on random pigs, every stream seeded from (key, r)."""
    game, state, hidden, _ = here
    _, sim_state, sim_hidden, work, _, _, _ = sim
    for i in range(state.shape[0]):  # (array copies would need numba's allocator)
        sim_state[i] = state[i]
    for i in range(sim_hidden.shape[0]):  # (hidden up to its search area)
        sim_hidden[i] = hidden[i]
    seen = np.int64(0)  # bit mask over the cards
    mine = own_at(seat)
    for i in range(hidden[mine + OWN_HAND_N]):
        seen |= np.int64(1) << hidden[mine + OWN_HAND + i]
    for i in range(state[PUB_DISCARD_N]):
        seen |= np.int64(1) << hidden[H_DISCARD + i]
    n = 0
    for card in range(N_CARDS):
        if not (seen >> card) & 1:
            work[W_POOL + n] = card
            n += 1
    seed_stream(work, W_RNG, key, r, _WORLD_LANE)
    shuffle(work, W_POOL, n, work, W_RNG)
    dealt = 0
    n_players = game[G_N_PLAYERS]
    for p in range(n_players):
        at = own_at(p)
        seed_stream(sim_hidden, at + OWN_RNG, key, r, 1 + p)
        if p == seat:
            continue
        for i in range(state[PUB_HAND_N + p]):
            sim_hidden[at + OWN_HAND + i] = work[W_POOL + dealt]
            dealt += 1
        if sim_hidden[at + OWN_BET_PIG] >= 0:
            sim_hidden[at + OWN_BET_PIG] = below(work, W_RNG, N_PIGS)
    for i in range(state[PUB_PILE_N]):
        sim_hidden[H_PILE + i] = work[W_POOL + dealt]
        dealt += 1
    seed_stream(sim_hidden, H_RNG, key, r, 0)
    sim_hidden[H_SCRIPT_I] = 0
    sim_hidden[H_SCRIPT_N] = 0


@kernel
def apply_option(here, sim, seat, k):
    """Option ``k`` taken and its turn played to its end. A play: the turn again
    from its start, the seat's first answer forced to ``k`` (the kernel's own
    turn, every later decision of it by the playout policy). A bet: the bet laid,
    the turn passes. True if the race ended."""
    sim_game, sim_state, sim_hidden, work, _, _, _ = sim
    if work[W_WHAT] == DECIDE_PLAY:
        sim_state[PUB_TURN] -= 1  # play_turn counts the turn again
        sim_hidden[H_SCRIPT] = k if k < work[W_N_OPTIONS] else -1
        sim_hidden[H_SCRIPT_N] = 1
        return playout_turn(here, sim) != RACE_ON
    if k > 0:
        place_bet(sim_state, sim_hidden, seat, k - 1)
    # the end of the kernel's play_turn after a bet (traces and checks are off here)
    sim_state[PUB_MOVER] = (seat + 1) % sim_game[G_N_PLAYERS]
    work[W_ENDS] = RACE_ON
    return False


@kernel
def play_out(here, sim, seat):
    """The rest of the race, every seat by the playout policy."""
    sim_state = sim[1]
    result = RACE_ON
    while result == RACE_ON and sim_state[PUB_TURN] < MAX_TURNS:
        result = playout_turn(here, sim)


@kernel
def outcome(here, sim, seat):
    """The seat's game score less the best other after the race, plus
    ``win_points`` for a win in the last race."""
    sim_game, sim_state, sim_hidden, work, race_row, player_rows, bet_rows = sim
    ends = work[W_ENDS]
    score_race(sim_game, sim_state, sim_hidden, 0 if ends == BOT_ERROR else ends, race_row, player_rows, bet_rows)
    best_other = -(1 << 30)
    for p in range(sim_game[G_N_PLAYERS]):
        if p != seat:
            best_other = max(best_other, sim_state[PUB_SCORE + p])
    margin = sim_state[PUB_SCORE + seat] - best_other
    value = np.float64(margin)
    if sim_state[PUB_RACE] == sim_game[G_RACES] and margin >= 0:  # the game's last race
        value += here[3][P_WIN_POINTS]
    return value


_search = flat_monte_carlo(world, apply_option, play_out, outcome)
