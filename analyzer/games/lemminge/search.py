"""Lemminge's search bot (``lookahead``, kind LOOKAHEAD): the shared flat Monte
Carlo search (``analyzer/engine/search.py``) over this game's pieces.

It searches the decision that opens a turn: which card to play, or to refill
(cards equal in terrain and value are one option). The rest of its turn (the
bonus tile, the lemming, its steps, what a refill discards) is answered by its
heuristic model, with the model parameters of the bot's row, in the playouts
and in the game alike. Each rollout plays from a world consistent with what the
seat sees: its own hand, the board, the columns and the discard pile (all face
up), the public counts; the other hands and the draw pile are the cards it
cannot see dealt at random (their counts kept). After the option's turn the
playout plays ``horizon`` more turns, every seat (its own too) played by the
playout policy (``playout``: the random bot, or the heuristic model), and
scores the position: the best rival's finish distance (both lemmings summed)
less the seat's own, plus ``win_points`` if the seat won in the playout,
less it if a rival did. A playout cut short keeps each decision cheap (a
whole game is about 100 turns).
"""
import numpy as np

from analyzer.engine.jit import kernel
from analyzer.engine.rng import next_u64, seed_stream, shuffle
from analyzer.engine.search import T_PAIRED, flat_monte_carlo
from analyzer.games.lemminge.asking import ask_heuristic
from analyzer.games.lemminge.bots import decide_heuristic
from analyzer.games.lemminge.layout import (
    DECIDE_ACTION, DECIDE_LEMMING, FIRST_HEURISTIC, G_CHECK, G_KINDS, G_LEN, G_N_CELLS, G_N_PLAYERS,
    H_PILE, H_RNG, H_SCRIPT, H_SEARCH, HOME, HX_LEN, LEMMINGS, MAX_CELLS, MAX_HAND, MAX_PLAYERS,
    MAX_TURNS, MV_LEN, N_DECISIONS, OWN_HAND, OWN_HAND_N, OWN_RNG, P_DROP, P_HORIZON, P_PLAYOUT,
    P_ROLLOUTS, P_WIN_POINTS, PL_LEN, PUB_HAND_N, PUB_MOVER, PUB_N_OPTIONS, PUB_OCC, PUB_PILE_N, PUB_POS,
    PUB_TER, PUB_TILE, PUB_TURN, RANDOM, S_LEN, S_OPTIONS, S_VIEW, SEARCH_WORK,
)
from analyzer.games.lemminge.random_bot import decide_random
from analyzer.games.lemminge.rules import card_terrain, card_value, distance, own_at

KEPT = 32  # rollouts whose values the drop of hopeless options looks at
MAX_SEARCHED = MAX_HAND * LEMMINGS + 1  # options of a search: (card, lemming) pairs, refilling
TABLE_LEN = MAX_SEARCHED * (T_PAIRED + KEPT)  # the search's table, in the kernel's working parameter row
_WORLD_LANE = MAX_PLAYERS + 1  # the stream dealing the unseen cards (0: the deck, 1 + seat: the players)
# the work row of a search in hidden's search area (int64)
W_WINNER = 0  # the playout's winner, -1 while none (or BOT_ERROR)
W_RNG = 1  # the world's stream
W_CHOSEN = 2  # the lemming the search chose for this turn's move (-1: none)
W_CARDS = 3  # MAX_HAND: the distinct cards' action answers
W_OPTIONS = W_CARDS + MAX_HAND  # MAX_SEARCHED: each searched option's action answer (-1: refill)
W_LEMMINGS = W_OPTIONS + MAX_SEARCHED  # MAX_SEARCHED: each option's lemming (-1: refill)
assert W_LEMMINGS + MAX_SEARCHED <= SEARCH_WORK
# in a playout's hidden array (the script's room, which playouts do not use): per
# decision kind, the answer forced on the next decision of that kind
FORCED = H_SCRIPT
NOT_FORCED = -99
assert FORCED + N_DECISIONS <= H_SEARCH


@kernel(inline=True)
def search_area(hidden):
    """The playouts' arrays, views into hidden's search area: the game, the
    state, the hidden array up to H_SEARCH, the work row, and the records
    take_turn writes (players' rows, moves (none kept), the moves counter,
    hexes, the trace (none))."""
    at = H_SEARCH
    sim_game = hidden[at:at + G_LEN]
    at += G_LEN
    sim_state = hidden[at:at + S_LEN]
    at += S_LEN
    sim_hidden = hidden[at:at + H_SEARCH]
    at += H_SEARCH
    work = hidden[at:at + SEARCH_WORK]
    at += SEARCH_WORK
    player_rows = hidden[at:at + MAX_PLAYERS * PL_LEN].reshape((MAX_PLAYERS, PL_LEN))
    at += MAX_PLAYERS * PL_LEN
    hexes = hidden[at:at + MAX_CELLS * HX_LEN].reshape((MAX_CELLS, HX_LEN))
    at += MAX_CELLS * HX_LEN
    counts = hidden[at:at + 2]
    moves = hidden[0:0].reshape((0, MV_LEN))
    trace = hidden[0:0]
    return sim_game, sim_state, sim_hidden, work, player_rows, moves, counts, hexes, trace


@kernel
def lookahead_decide(what, seat, game, state, hidden, row, scratch, n_options):
    """The search bot's answer. ``state``: the decision as the kernel shows it
    to a bot (its own hand row in ``S_VIEW``); ``hidden``: read only for what
    is public (the discard pile, the counts) and the pooled unseen cards,
    copied into its search area for the playouts; ``row``: its parameters;
    ``scratch``: a float64 row for the search's table."""
    if what == DECIDE_LEMMING:
        work = search_area(hidden)[3]
        chosen = lemming_option(state, work[W_CHOSEN], n_options)
        work[W_CHOSEN] = -1
        if chosen >= 0:
            return chosen
    if what != DECIDE_ACTION:
        return decide_by_model(what, seat, game, state, row, n_options)
    key = next_u64(state, S_VIEW + OWN_RNG)  # drawn whatever the options: the bot's later draws stay put
    sim = search_area(hidden)
    sim_game, work = sim[0], sim[3]
    # the options: each card unlike the ones before it (terrain and value), with
    # each of its lemmings not yet home, then refilling
    n = 0
    cards = 0
    for i in range(n_options):
        card = state[S_VIEW + OWN_HAND + state[S_OPTIONS + i]]
        same = False
        for j in range(cards):
            other = state[S_VIEW + OWN_HAND + state[S_OPTIONS + work[W_CARDS + j]]]
            if card_terrain(game, other) == card_terrain(game, card) and card_value(game, other) == card_value(
                    game, card):
                same = True
                break
        if same:
            continue
        work[W_CARDS + cards] = i
        cards += 1
        for k in range(LEMMINGS):
            lemming = seat * LEMMINGS + k
            if state[PUB_POS + lemming] != HOME:
                work[W_OPTIONS + n] = i
                work[W_LEMMINGS + n] = lemming
                n += 1
    work[W_OPTIONS + n] = -1
    work[W_LEMMINGS + n] = -1
    n += 1
    work[W_CHOSEN] = -1
    if n == 1:
        return -1
    for i in range(G_LEN):
        sim_game[i] = game[i]
    for p in range(game[G_N_PLAYERS]):
        sim_game[G_KINDS + p] = playout_kind(row)
    sim_game[G_CHECK] = 0
    width = T_PAIRED + KEPT
    table = scratch[:n * width].reshape((n, width))
    best = _search((game, state, hidden, row), sim, seat, n, max(1, int(row[P_ROLLOUTS])), row[P_DROP],
                   np.int64(key), table)
    work[W_CHOSEN] = work[W_LEMMINGS + best]  # the lemming decision of this turn takes it
    state[PUB_N_OPTIONS] = n_options  # (the kernel checks the answer against it)
    return work[W_OPTIONS + best]


@kernel(inline=True)
def lemming_option(state, lemming, n_options):
    """The option of a lemming decision that moves ``lemming``, -1 if none does
    (the tile laid after the search may have blocked it)."""
    for i in range(n_options):
        if state[S_OPTIONS + i] == lemming:
            return i
    return -1


@kernel(inline=True)
def decide_by_model(what, seat, game, state, row, n_options):
    """A decision the bot does not search, answered by its heuristic model (its
    view is in ``state`` already)."""
    return decide_heuristic(what, seat, FIRST_HEURISTIC, game, state, row, n_options)


@kernel(inline=True)
def playout_kind(row):
    """The bot kind of the playout policy (``playout``: 0 random, 1 the heuristic
    model, whose families differ only in their parameters)."""
    return RANDOM if row[P_PLAYOUT] == 0 else FIRST_HEURISTIC


@kernel(inline=True)
def ask_playout(what, seat, game, state, hidden, params, n_options, trace):
    """A decision in a playout (the kernel's ``ask``): the answer ``apply_option``
    forces on it first (a lemming by its id), then the seat's kind in the playout's game array,
    its parameters the search bot's row (``params``)."""
    state[PUB_N_OPTIONS] = n_options
    forced = hidden[FORCED + what]
    if forced != NOT_FORCED:
        hidden[FORCED + what] = NOT_FORCED
        if what != DECIDE_LEMMING:
            return forced
        pick = lemming_option(state, forced, n_options)
        if pick >= 0:
            return pick
    kind = game[G_KINDS + seat]
    if kind == RANDOM:
        return decide_random(what, hidden, own_at(seat), state, n_options)
    return ask_heuristic(what, seat, kind, game, state, hidden, params, n_options)


# the kernel's turn, compiled again with its decisions asked of ``ask_playout``:
# kernel.py sets it (``engine.search.rebound``), as this module cannot import
# the kernel that dispatches to it
take_turn = None


@kernel
def playout_turn(here, sim):
    """The turn of ``PUB_MOVER`` (already counted), then the next one counted.
    True if it ended the game (a winner, or a bot error: scored as it stands)."""
    sim_game, sim_state, sim_hidden, work, player_rows, moves, counts, hexes, trace = sim
    seat = sim_state[PUB_MOVER]
    winner = take_turn(sim_game, sim_state, sim_hidden, here[3], seat, 0, player_rows, moves, counts, hexes,
                       trace)
    if winner != -1:
        work[W_WINNER] = winner
        return True
    seat += 1
    if seat == sim_game[G_N_PLAYERS]:
        seat = 0
    sim_state[PUB_MOVER] = seat
    sim_state[PUB_TURN] += 1
    return False


@kernel
def world(here, sim, seat, key, r):
    """Rollout ``r``'s world: the decision copied, the cards the seat cannot see
    (the other hands and the draw pile) shuffled and dealt back into them, their
    counts kept, every stream seeded from (key, r)."""
    _, state, hidden, _ = here
    sim_state, sim_hidden, work = sim[1], sim[2], sim[3]
    # the public state (the rest of state is the bots' scratch), of its cell
    # arrays the map's cells only: the copies are most of a rollout's overhead
    for i in range(PUB_OCC):
        sim_state[i] = state[i]
    n_cells = sim[0][G_N_CELLS]
    for first in (PUB_OCC, PUB_TILE, PUB_TER):
        for i in range(first, first + n_cells):
            sim_state[i] = state[i]
    for i in range(H_SCRIPT):  # (array copies would need numba's allocator)
        sim_hidden[i] = hidden[i]
    n_players = sim[0][G_N_PLAYERS]
    seed_stream(work, W_RNG, key, r, _WORLD_LANE)
    # the unseen cards in a row: the pile, then the other hands (the pile's room,
    # MAX_CARDS, holds every card)
    n = state[PUB_PILE_N]
    for p in range(n_players):
        if p != seat:
            at = own_at(p)
            for i in range(hidden[at + OWN_HAND_N]):
                sim_hidden[H_PILE + n] = hidden[at + OWN_HAND + i]
                n += 1
    shuffle(sim_hidden, H_PILE, n, work, W_RNG)
    dealt = state[PUB_PILE_N]  # the pile keeps the first ones
    for p in range(n_players):
        at = own_at(p)
        seed_stream(sim_hidden, at + OWN_RNG, key, r, 1 + p)
        if p == seat:
            continue
        for i in range(state[PUB_HAND_N + p]):
            sim_hidden[at + OWN_HAND + i] = sim_hidden[H_PILE + dealt]
            dealt += 1
    seed_stream(sim_hidden, H_RNG, key, r, 0)
    for what in range(N_DECISIONS):
        sim_hidden[FORCED + what] = NOT_FORCED
    work[W_WINNER] = -1


@kernel
def apply_option(here, sim, seat, k):
    """Option ``k`` taken: the seat's turn played again from its start, its
    card (or refill) and its lemming forced, the rest of the turn by its
    heuristic model. True if the game ended."""
    sim_game, sim_hidden, work = sim[0], sim[2], sim[3]
    sim_hidden[FORCED + DECIDE_ACTION] = work[W_OPTIONS + k]
    sim_hidden[FORCED + DECIDE_LEMMING] = work[W_LEMMINGS + k]
    sim_game[G_KINDS + seat] = FIRST_HEURISTIC
    ended = playout_turn(here, sim)
    sim_game[G_KINDS + seat] = playout_kind(here[3])
    return ended


@kernel
def play_out(here, sim, seat):
    """``horizon`` more turns (fewer if the game ends), every seat by the playout policy."""
    sim_state = sim[1]
    for _ in range(int(here[3][P_HORIZON])):
        if sim_state[PUB_TURN] >= MAX_TURNS or playout_turn(here, sim):
            break


@kernel
def outcome(here, sim, seat):
    """The best rival's finish distance less the seat's own (both lemmings
    summed), plus ``win_points`` if the seat won, less it if a rival did."""
    game, sim_state, work = sim[0], sim[1], sim[3]
    own = 0
    best_other = 1 << 30
    for p in range(game[G_N_PLAYERS]):
        d = 0
        for k in range(LEMMINGS):
            d += distance(game, sim_state, p * LEMMINGS + k)
        if p == seat:
            own = d
        else:
            best_other = min(best_other, d)
    value = np.float64(best_other - own)
    winner = work[W_WINNER]
    if winner == seat:
        value += here[3][P_WIN_POINTS]
    elif winner >= 0:
        value -= here[3][P_WIN_POINTS]
    return value


_search = flat_monte_carlo(world, apply_option, play_out, outcome)
