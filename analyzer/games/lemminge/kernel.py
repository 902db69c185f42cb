"""The flow of a Lemminge game: turns, decisions and moves, jitted.

``play_games`` plays games ``first .. first+count-1`` of a seed, each seat's
bot given by its kind (``game``) and its parameter row (``params``, float64
[players, PARAMS_WIDTH]), into record arrays (layout.py columns):

- ``games``   [count, GM_LEN]
- ``players`` [count, players, PL_LEN]
- ``moves``   [capacity, MV_LEN] int32, one row per card played, flat over the
  chunk (``counts[0]`` rows used; ``counts[1]`` is set when the buffer was too
  small: the match grows it and plays the chunk again)
- ``hexes``   [cells, HX_LEN], summed over the chunk
- ``trace``   the replay trace (length 0 in runs; see layout ``EV_*``)

A game's results depend only on (seed, game index): the shuffles come from lane
0 of the game's stream, each player's own choices from lane 1 + seat (common
random numbers: two bots compared in one seat see the same deals).

User bots (kinds >= USER_KIND_BASE) are answered through
``engine/bot_table.call_bot`` (signature of ``bots.decide_heuristic``), by the
address of the bot's own compiled code, shown their options one word each in
``S_USER_OPTIONS`` (``user_options``; ``view.py`` says what a user bot sees):
the kernel is compiled once, for every bot, and cached (the pattern every
game's kernel follows, ``analyzer/games/protocol.py``).
"""
import importlib

import numpy as np

from analyzer.engine.bot_table import call_bot
from analyzer.engine.flow import flow_counters
from analyzer.engine.jit import USER_KIND_BASE, ix, kernel
from analyzer.engine.rng import seed_stream
from analyzer.engine.search import rebound
from analyzer.games.lemminge import search
from analyzer.games.lemminge.asking import ask_heuristic
from analyzer.games.lemminge.layout import (
    DECIDE_ACTION, DECIDE_DISCARD, DECIDE_LEMMING, DECIDE_STEP, DECIDE_TILE, ERROR_ACTION,
    ERROR_DISCARD, ERROR_INVARIANT, ERROR_LEMMING, ERROR_STEP, ERROR_TILE, EV_CAP, EV_DECISION,
    EV_NO_LEMMING, EV_NO_TILE, EV_OPTION, EV_PLAY, EV_REFILL, EV_STOP, EV_TILE, EV_TURN, EV_WIN,
    FIRST_HEURISTIC, G_CHECK, G_KINDS, G_LEN, G_N_PLAYERS, G_N_TILE_CELLS, G_TILE_CELLS, GM_CAPPED,
    GM_COMEBACK, GM_DECIDED_AFTER, GM_LEAD_CHANGES, GM_LEN, GM_RESHUFFLES, GM_TURNS, GM_WINNER, H_FLOW, H_LEN,
    H_RNG, H_SCRIPT, H_SCRIPT_I, H_SCRIPT_N,
    HOME, HX_LEN, HX_TILES, LAST_HEURISTIC, LEMMINGS, LOOKAHEAD, MAX_PLAYERS, MAX_TURNS, MIN_PLAYERS,
    MV_COLSUM, MV_DIST_AFTER, MV_DIST_BEFORE, MV_GAME, MV_LEMMING, MV_LEN, MV_MOVEMENT,
    MV_NEW_COLUMN, MV_PUSHES, MV_SEAT, MV_SETBACK, MV_STEPS, MV_TERRAIN, MV_TURN, MV_VALUE, OPT_COST,
    OPT_PUSHED, OPT_TARGET, OPT_WIDTH, OWN_HAND, OWN_HAND_N, OWN_LEN, OWN_RNG, PARAMS_WIDTH, PL_FINISHED,
    PL_HAND_START, PL_LEN, PL_MOVES, PL_NEW_COLUMNS, PL_PUSHES_MADE, PL_REFILLS, PL_STEPS, PL_TILES_PLACED,
    PL_WON, PUB_CUR_DIST, PUB_ERROR, PUB_HAND_N, PUB_LEMMING, PUB_MOVEMENT, PUB_MOVER,
    PUB_N_OPTIONS, PUB_N_PLAYERS, PUB_POS, PUB_RESHUFFLES, PUB_SETBACK, PUB_TERRAIN, PUB_TILE_KIND, PUB_TURN,
    PUB_WINNER, RANDOM, S_ALLOWS, S_LEN, SCRIPT_BY_VALUE, S_MINCOST, S_OPTIONS, S_USER_OPTIONS, S_VIEW,
    SCRIPTED,
)
from analyzer.games.lemminge.random_bot import decide_random, refills_anyway
from analyzer.games.lemminge.rules import (
    BOT_ERROR, can_step, card_terrain, card_value, check_invariants, cheapest_steps, distance,
    list_steps, movement_of, note_standing, own_at, place_tile, play_card, refill, setup_game, take_step,
    take_tile, trace_event,
)

BAD_ANSWER = -99  # what an unknown bot kind or an exhausted script answers
ROW_WIDTH = max(PARAMS_WIDTH, search.TABLE_LEN)  # a parameter row in play_games
TURN_ON = 0

@kernel
def user_options(game, state, what, n_options):
    """A user bot's options, one word each in S_USER_OPTIONS: the cards of the
    hand (action; the kernel lists hand positions, S_ALLOWS says which allow a
    step), the hand's cards
    (discard), the tile hexes (tile), the lemmings (lemming), the step targets
    (step). The built-in bots read the kernel's own lists, so this costs them nothing."""
    for i in range(n_options):
        if what == DECIDE_ACTION:
            v = state[ix(S_VIEW + OWN_HAND + state[ix(S_OPTIONS + i)])]
        elif what == DECIDE_DISCARD:
            v = state[ix(S_VIEW + OWN_HAND + i)]
        elif what == DECIDE_TILE:
            v = game[ix(G_TILE_CELLS + i)]
        elif what == DECIDE_STEP:
            v = state[ix(S_OPTIONS + i * OPT_WIDTH + OPT_TARGET)]
        else:
            v = state[ix(S_OPTIONS + i)]
        state[ix(S_USER_OPTIONS + i)] = v


@kernel
def scripted_option(game, state, hidden, seat, what, value, n_options):
    """The index of the option whose value is ``value`` (tests' scripts), or BAD_ANSWER."""
    if what == DECIDE_TILE:
        for i in range(game[G_N_TILE_CELLS]):
            if game[G_TILE_CELLS + i] == value:
                return i
        return BAD_ANSWER
    for i in range(n_options):
        if what == DECIDE_ACTION:
            v = hidden[own_at(seat) + OWN_HAND + state[S_OPTIONS + i]]
        elif what == DECIDE_STEP:
            v = state[S_OPTIONS + i * OPT_WIDTH] * 8 + state[S_OPTIONS + i * OPT_WIDTH + 1]
        else:
            v = state[S_OPTIONS + i]
        if v == value:
            return i
    return BAD_ANSWER


@kernel
def ask_bot(what, seat, kind, game, state, hidden, params, n_options):
    """A decision of any bot but the reference random one. It is shown ``state``
    with a copy of its own hand row in ``S_VIEW``, never the other hands, and its
    own parameter row; its stream is copied back after."""
    if FIRST_HEURISTIC <= kind <= LAST_HEURISTIC:
        return ask_heuristic(what, seat, kind, game, state, hidden, params[seat], n_options)
    at = own_at(seat)
    for i in range(OWN_LEN):
        state[S_VIEW + i] = hidden[at + i]
    answer = BAD_ANSWER
    if kind == LOOKAHEAD:
        # the search bot reads, beyond this view, only what is public in
        # ``hidden`` and the unseen cards as a pool it deals anew; it plays its
        # playouts on copies (in hidden's search area); the working row is its
        # scratch too
        answer = search.lookahead_decide(what, seat, game, state, hidden, params[seat], params[-1], n_options)
    elif kind == SCRIPTED:
        i = hidden[H_SCRIPT_I]
        if i < hidden[H_SCRIPT_N]:
            hidden[H_SCRIPT_I] = i + 1
            answer = hidden[H_SCRIPT + i]
            if answer >= SCRIPT_BY_VALUE:
                answer = scripted_option(game, state, hidden, seat, what, answer - SCRIPT_BY_VALUE, n_options)
    elif kind >= USER_KIND_BASE:
        user_options(game, state, what, n_options)
        # a user bot gets a copy of its parameter row (the last row, see
        # play_games): what it writes there is gone by its next decision, so
        # nothing carries over between games and chunks
        work = params.shape[0] - 1
        for i in range(PARAMS_WIDTH):
            params[work, i] = params[seat, i]
        answer = call_bot(what, seat, kind, game, state, params[work], n_options)
    hidden[at + OWN_RNG] = state[S_VIEW + OWN_RNG]
    return answer


@kernel(inline=True)
def ask(what, seat, game, state, hidden, params, n_options, trace):
    """One decision of one player; the options are in state[S_OPTIONS...]. The
    reference random bot is answered here directly from its own row (no copy:
    the hot path); other bots by ``ask_bot``."""
    kind = game[ix(G_KINDS + seat)]
    state[PUB_N_OPTIONS] = n_options
    if kind == RANDOM:
        answer = decide_random(what, hidden, own_at(seat), state, n_options)
    else:
        answer = ask_bot(what, seat, kind, game, state, hidden, params, n_options)
    trace_event(trace, EV_DECISION, seat, what, answer, n_options, 0)
    return answer


@kernel(inline=True)
def fail(state, error, seat):
    state[PUB_ERROR] = error * 8 + seat
    return BOT_ERROR


@kernel
def trace_options(game, state, hidden, seat, what, n, trace):
    """The options of a decision into the trace (replays only)."""
    for i in range(n):
        if what == DECIDE_ACTION:
            value = hidden[own_at(seat) + OWN_HAND + state[S_OPTIONS + i]]
            trace_event(trace, EV_OPTION, seat, what, value, state[S_ALLOWS + i], 0)
            continue
        elif what == DECIDE_STEP:
            o = S_OPTIONS + i * OPT_WIDTH
            value = state[o] * 8 + state[o + 1]  # target * 8 + direction
            trace_event(trace, EV_OPTION, seat, what, value, state[o + OPT_COST], state[o + OPT_PUSHED])
            continue
        else:
            value = state[S_OPTIONS + i]
        trace_event(trace, EV_OPTION, seat, what, value, 0, 0)


@kernel
def walk(game, state, hidden, params, seat, lemming, terrain, movement, player_rows, hexes, trace):
    """The lemming walks step by step until its bot stops, no step is left or
    the movement is spent. Returns (steps, pushes, winner or -1) or BOT_ERROR."""
    steps = 0
    pushes = 0
    winner = -1
    state[PUB_SETBACK] = 0
    state[PUB_LEMMING] = lemming
    state[PUB_TERRAIN] = terrain
    # the random bot takes only steps closer to the finish: it is offered only those
    # (the same options in the same order as its own filter would keep, so the same games)
    random = game[ix(G_KINDS + seat)] == RANDOM
    while movement > 0:
        closer_than = distance(game, state, lemming) if random else 1 << 30
        n = list_steps(game, state, lemming, terrain, movement, S_OPTIONS, closer_than)
        if n == 0:
            break
        state[PUB_MOVEMENT] = movement
        state[PUB_CUR_DIST] = distance(game, state, lemming)
        if trace.shape[0] > 0:
            trace_options(game, state, hidden, seat, DECIDE_STEP, n, trace)
        pick = ask(DECIDE_STEP, seat, game, state, hidden, params, n, trace)
        if pick == -1:
            break
        if pick < -1 or pick >= n:
            return 0, 0, BOT_ERROR
        o = S_OPTIONS + pick * OPT_WIDTH
        cost = state[o + OPT_COST]
        pushes += state[o + OPT_PUSHED]
        winner = take_step(game, state, seat, lemming, o, player_rows, hexes, trace)
        movement -= cost
        steps += 1
        if winner >= 0 or state[PUB_POS + lemming] == HOME:
            break
    trace_event(trace, EV_STOP, seat, lemming, movement, 0, 0)
    return steps, pushes, winner


@kernel
def choose_card(game, state, hidden, params, seat, trace):
    """Every card of the hand may be played, whether or not a step follows (the
    rulebook's "up to": rules page, clarification 8): they are the options, each
    flagged in S_ALLOWS when it allows a step (judged before any bonus tile). The
    reference random bot is offered only the cards that allow a step. The answer
    is an option or -1 to refill."""
    at = own_at(seat)
    cheapest_steps(game, state, seat, S_MINCOST)
    random = game[ix(G_KINDS + seat)] == RANDOM
    n = 0
    for i in range(hidden[at + OWN_HAND_N]):
        card = hidden[at + OWN_HAND + i]
        m, _ = movement_of(game, state, card)
        allows = m >= state[ix(S_MINCOST + card_terrain(game, card))]
        if allows or not random:
            state[ix(S_OPTIONS + n)] = i
            state[ix(S_ALLOWS + n)] = 1 if allows else 0
            n += 1
    if trace.shape[0] > 0:
        trace_options(game, state, hidden, seat, DECIDE_ACTION, n, trace)
    return ask(DECIDE_ACTION, seat, game, state, hidden, params, n, trace)


@kernel
def take_turn(game, state, hidden, params, seat, game_index, player_rows, moves, counts, hexes, trace):
    """One turn of ``seat``: refill, or play a card (with its bonus tile) and
    walk one lemming. Returns the winning seat, -1 (the game goes on) or BOT_ERROR."""
    at = own_at(seat)
    if game[ix(G_KINDS + seat)] == RANDOM and refills_anyway(hidden, at):
        pick = -1  # the random bot's 1/5 refill: no need to list the cards
        trace_event(trace, EV_DECISION, seat, DECIDE_ACTION, -1, -1, 0)
    else:
        pick = choose_card(game, state, hidden, params, seat, trace)
    if pick < -1 or pick >= state[PUB_N_OPTIONS]:
        return fail(state, ERROR_ACTION, seat)
    if pick == -1:
        held = hidden[at + OWN_HAND_N]
        mask = ask(DECIDE_DISCARD, seat, game, state, hidden, params, held, trace)
        if mask < 0 or mask >= (1 << held):
            return fail(state, ERROR_DISCARD, seat)
        dropped, drawn = refill(game, state, hidden, seat, mask, trace)
        player_rows[ix(seat), PL_REFILLS] += 1
        trace_event(trace, EV_REFILL, seat, dropped, drawn, 0, 0)
        return -1
    card, movement, new_column, before = play_card(game, state, hidden, seat, state[ix(S_OPTIONS + pick)])
    terrain = card_terrain(game, card)
    player_rows[ix(seat), PL_MOVES] += 1
    player_rows[ix(seat), PL_NEW_COLUMNS] += new_column
    trace_event(trace, EV_PLAY, seat, card, before, new_column, movement)
    state[PUB_TERRAIN] = terrain
    state[PUB_MOVEMENT] = movement
    if new_column:
        kind = take_tile(state, terrain)
        if kind >= 0:
            state[PUB_TILE_KIND] = kind
            n_cells = game[G_N_TILE_CELLS]
            cell_i = ask(DECIDE_TILE, seat, game, state, hidden, params, n_cells, trace)
            if cell_i < 0 or cell_i >= n_cells:
                return fail(state, ERROR_TILE, seat)
            cell = game[ix(G_TILE_CELLS + cell_i)]
            old = place_tile(state, cell, kind)
            player_rows[ix(seat), PL_TILES_PLACED] += 1
            hexes[ix(cell), HX_TILES] += 1
            trace_event(trace, EV_TILE, seat, kind, cell, old, 0)
        else:
            trace_event(trace, EV_NO_TILE, seat, terrain, 0, 0, 0)
    n = 0
    for k in range(LEMMINGS):
        if can_step(game, state, seat * LEMMINGS + k, terrain, movement):
            state[ix(S_OPTIONS + n)] = seat * LEMMINGS + k
            n += 1
    lemming = -1
    steps = 0
    pushes = 0
    winner = -1
    dist_before = 0
    if n > 0:
        if trace.shape[0] > 0:
            trace_options(game, state, hidden, seat, DECIDE_LEMMING, n, trace)
        pick = ask(DECIDE_LEMMING, seat, game, state, hidden, params, n, trace)
        if pick < 0 or pick >= n:
            return fail(state, ERROR_LEMMING, seat)
        lemming = state[ix(S_OPTIONS + pick)]
        dist_before = distance(game, state, lemming)
        steps, pushes, winner = walk(game, state, hidden, params, seat, lemming, terrain, movement,
                                     player_rows, hexes, trace)
        if winner == BOT_ERROR:
            return fail(state, ERROR_STEP, seat)
        player_rows[ix(seat), PL_STEPS] += steps
    else:
        trace_event(trace, EV_NO_LEMMING, seat, 0, 0, 0, 0)
    row = counts[0]
    if row < moves.shape[0]:
        r = ix(row)
        moves[r, MV_GAME] = game_index
        moves[r, MV_TURN] = state[PUB_TURN]
        moves[r, MV_SEAT] = seat
        moves[r, MV_TERRAIN] = terrain
        moves[r, MV_VALUE] = card_value(game, card)
        moves[r, MV_COLSUM] = before
        moves[r, MV_NEW_COLUMN] = new_column
        moves[r, MV_MOVEMENT] = movement
        moves[r, MV_STEPS] = steps
        moves[r, MV_PUSHES] = pushes
        moves[r, MV_LEMMING] = lemming
        moves[r, MV_DIST_BEFORE] = dist_before
        moves[r, MV_DIST_AFTER] = distance(game, state, lemming) if lemming >= 0 else 0
        moves[r, MV_SETBACK] = state[PUB_SETBACK] if lemming >= 0 else 0
        counts[0] = row + 1
    else:
        counts[1] = 1
    return winner


@kernel
def play_game(game, state, hidden, params, seed, index, game_index, game_row, player_rows, moves, counts,
              hexes, trace):
    """Game ``index`` of ``seed`` from the deal to the winner (or the turn cap).
    Returns 0 or the error code."""
    players = game[G_N_PLAYERS]
    seed_stream(hidden, H_RNG, seed, index, 0)
    for seat in range(players):
        seed_stream(hidden, own_at(seat) + OWN_RNG, seed, index, 1 + seat)
    setup_game(game, state, hidden, trace)
    for seat in range(players):
        player_rows[seat, PL_HAND_START] = state[PUB_HAND_N + seat]
    winner = -1
    seat = 0
    while state[PUB_TURN] < MAX_TURNS:
        state[PUB_MOVER] = seat
        state[PUB_TURN] += 1
        trace_event(trace, EV_TURN, seat, state[PUB_TURN], 0, 0, 0)
        winner = take_turn(game, state, hidden, params, seat, game_index, player_rows, moves, counts, hexes,
                           trace)
        if winner == BOT_ERROR:
            return state[PUB_ERROR]
        note_standing(game, state, hidden)
        if game[G_CHECK] != 0 and not check_invariants(game, state, hidden):
            state[PUB_ERROR] = ERROR_INVARIANT * 8 + seat
            return state[PUB_ERROR]
        if winner >= 0:
            break
        seat += 1
        if seat == players:
            seat = 0
    state[PUB_WINNER] = winner
    if winner >= 0:
        trace_event(trace, EV_WIN, winner, 0, 0, 0, 0)
    else:
        trace_event(trace, EV_CAP, -1, state[PUB_TURN], 0, 0, 0)
    game_row[GM_TURNS] = state[PUB_TURN]
    game_row[GM_WINNER] = winner
    game_row[GM_CAPPED] = winner < 0
    game_row[GM_RESHUFFLES] = state[PUB_RESHUFFLES]
    changes, decided, comeback = flow_counters(hidden, H_FLOW, MAX_TURNS, state[PUB_TURN], winner)
    game_row[GM_LEAD_CHANGES] = changes
    game_row[GM_DECIDED_AFTER] = decided
    game_row[GM_COMEBACK] = comeback
    for s in range(players):
        player_rows[s, PL_WON] = s == winner
        home = 0
        for k in range(LEMMINGS):
            home += state[PUB_POS + s * LEMMINGS + k] == HOME
        player_rows[s, PL_FINISHED] = home
    return 0


@kernel(allocates=True)
def play_games(game, params, seed, first, count, games, players, moves, counts, hexes, trace):
    """Play games ``first .. first+count-1`` of ``seed`` into rows 0.. of the
    outputs (``players`` rows zeroed here, ``hexes`` summed onto). Returns 0, or
    ``error * 2**32 + index`` for the first invalid bot answer (error =
    ERROR_* * 8 + seat). The game array and the parameters are copied first:
    threads running this side by side then share no array; the copy has a
    working row after the seats' for a user bot (see ask_bot), as wide as the
    search bot's table, which it holds while the search bot decides."""
    game = game.copy()
    rows = np.zeros((MAX_PLAYERS + 1, ROW_WIDTH), np.float64)
    for seat in range(min(params.shape[0], MAX_PLAYERS)):
        for i in range(min(params.shape[1], PARAMS_WIDTH)):
            rows[seat, i] = params[seat, i]
    state = np.zeros(S_LEN, np.int64)
    hidden = np.zeros(H_LEN, np.int64)
    counts[0] = 0
    counts[1] = 0
    for i in range(count):
        for s in range(players.shape[1]):
            for k in range(PL_LEN):
                players[i, s, k] = 0
        error = play_game(game, state, hidden, rows, seed, first + i, i, games[i], players[i], moves, counts,
                          hexes, trace)
        if error != 0:
            return error * (1 << 32) + first + i
    return 0


@kernel
def one_turn(game, state, hidden, params, seat, player_rows, moves, counts, hexes, trace):
    """``take_turn`` of ``seat`` with the turn counted, for tests that drive single turns."""
    state[PUB_MOVER] = seat
    state[PUB_TURN] += 1
    return take_turn(game, state, hidden, params, seat, 0, player_rows, moves, counts, hexes, trace)


@kernel
def new_game(game, state, hidden, seed, index, trace):
    """Deal game ``index`` of ``seed`` into ``state`` and ``hidden`` (tests)."""
    seed_stream(hidden, H_RNG, seed, index, 0)
    for seat in range(game[G_N_PLAYERS]):
        seed_stream(hidden, own_at(seat) + OWN_RNG, seed, index, 1 + seat)
    setup_game(game, state, hidden, trace)


# ------------------------------------------------------------------ Python side

def pack_game(board, kinds, check: bool = False, rules=None) -> np.ndarray:
    """The ``game`` array of a map (board.Map), the seats' bot kinds and the
    rules (``ruleset.RULES``' values, checked against the map and the player
    count: AnalyzerError; None: the box's)."""
    from analyzer.games.lemminge import layout as L

    # by name, not an import statement: the rule set is Python-side packing, no part of
    # the compiled kernels, so it stays out of the sources their cache is keyed by
    ruleset = importlib.import_module("analyzer.games.lemminge.ruleset")
    RULES, deal = ruleset.RULES, ruleset.deal

    players = len(kinds)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Lemminge takes {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}")
    rules = RULES.box() if rules is None else rules
    hands = deal(rules, players, L.N_TERRAINS * (len(board.values) - 1))
    g = np.zeros(G_LEN, np.int64)
    g[L.G_HAND_LIMIT] = rules["hand_limit"]
    g[L.G_PUSH_COST] = rules["push_cost"]
    g[L.G_BACKWARD_PUSH] = int(rules["backward_push"])
    g[L.G_DOUBLE_ZERO] = int(rules["double_zero"])
    g[L.G_START_HANDS:L.G_START_HANDS + players] = hands
    g[G_N_PLAYERS] = players
    g[G_CHECK] = int(check)
    g[G_KINDS:G_KINDS + players] = kinds
    n = board.n_cells
    g[L.G_N_CELLS] = n
    g[L.G_WIDTH] = board.width
    g[L.G_N_VALUES] = len(board.values)
    g[L.G_OPENER] = board.values.index(2)
    g[L.G_N_ZEROS] = board.values.count(0)
    g[L.G_TILES_TERRAIN] = board.tiles_per_terrain
    g[L.G_TILES_MEADOW] = board.meadow_tiles
    g[L.G_START_DIST] = board.start_distance()
    g[L.G_VALUES:L.G_VALUES + len(board.values)] = board.values
    starts = [c for c in range(n) if board.letter(c) == "A"]
    if len(starts) > L.MAX_START:
        raise ValueError(f"at most {L.MAX_START} start hexes")
    g[L.G_N_START] = len(starts)
    g[L.G_START_CELLS:L.G_START_CELLS + len(starts)] = starts
    g[L.G_TERRAIN:L.G_TERRAIN + n] = board.terrain()
    g[L.G_DIST:L.G_DIST + n] = board.distances()
    g[L.G_NB:L.G_NB + n * L.N_DIRECTIONS] = board.neighbours().ravel()
    tiles = board.tile_cells()
    g[G_N_TILE_CELLS] = len(tiles)
    g[G_TILE_CELLS:G_TILE_CELLS + len(tiles)] = tiles
    return g


def new_records(count: int, players: int, n_cells: int, moves_capacity: int | None = None):
    """Zeroed (games, players, moves, counts, hexes) record arrays for ``count`` games."""
    from analyzer.games.lemminge.layout import MOVES_PER_GAME

    cap = moves_capacity if moves_capacity is not None else max(count, 1) * MOVES_PER_GAME
    return (np.zeros((count, GM_LEN), np.int64),
            np.zeros((count, players, PL_LEN), np.int64),
            np.zeros((cap, MV_LEN), np.int32),
            np.zeros(2, np.int64),
            np.zeros((n_cells, HX_LEN), np.int64))


NO_TRACE = np.zeros(0, np.int64)


def new_params(players: int) -> np.ndarray:
    return np.zeros((players, PARAMS_WIDTH), np.float64)


def run(game: np.ndarray, n_cells: int, seed: int, first: int, count: int, params=None):
    """Play games into fresh records (grown until every move fits); raise on a
    bot error. Returns (games, players, moves[:used], hexes)."""
    players = int(game[G_N_PLAYERS])
    params = new_params(players) if params is None else np.asarray(params, np.float64)
    cap = None
    while True:
        games, pl, moves, counts, hexes = new_records(count, players, n_cells, cap)
        error = play_games(game, params, seed, first, count, games, pl, moves, counts, hexes, NO_TRACE)
        if error != 0:
            raise RuntimeError(f"bot error {error >> 32} in game {error & 0xFFFFFFFF}")
        if counts[1] == 0:
            return games, pl, moves[:counts[0]], hexes
        cap = moves.shape[0] * 2


# the search bot's playouts play this module's turn, compiled again with their
# decisions asked of its playout policy (search.py cannot import this module,
# which dispatches to it)
search.take_turn = rebound({name: globals()[name] for name in ("walk", "choose_card", "take_turn")},
                           ask=search.ask_playout)["take_turn"]
