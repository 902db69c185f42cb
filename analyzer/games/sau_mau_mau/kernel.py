"""The flow of a Sau Mau Mau game: turns, decisions and card actions, jitted.

``play_games`` plays whole games ``first .. first+count-1`` of a seed (the
rules' races each, four in the box), each seat's bot given by its kind
(``game``) and its parameter row (``params``, float64 [players, PARAMS_WIDTH]),
into record arrays (layout.py columns; a game fills the first ``races`` of its
MAX_RACES rows):

- ``races``   [count, MAX_RACES, RACE_LEN]
- ``players`` [count, MAX_RACES, players, PL_LEN]
- ``bets``    [count, MAX_RACES, players, BET_LEN] (each player's bet in the final queue)
- ``games``   [count, players, GM_LEN]
- ``events``  [count, MAX_RACES, EVENTS_CAP, BE_LEN] int32 (every bet card laid, in order)

The rules are numbers in the ``game`` array (``G_RULES``, packed by ``pack_game``):
a variant plays the same compiled kernel. A game's results depend only on (seed,
game index): the shuffles of race r (0, 1, ...) come from lane 0 of stream
``index * races + r``, each player's own choices
from lane 1 + seat of stream ``index`` (common random numbers: two bots compared
in one seat see the same deals in every race).

User bots (kinds >= USER_KIND_BASE) are answered through
``engine/bot_table.call_bot`` (signature of ``bots.decide_heuristic``), by the
address of the bot's own compiled code: the kernel is compiled once, for every
bot, and cached (the pattern every game's kernel follows,
``analyzer/games/protocol.py``).
"""
import importlib

import numpy as np

from analyzer.engine.bot_table import call_bot
from analyzer.engine.flow import flow_counters, note_leader, one_bit, sole_leader
from analyzer.engine.jit import kernel
from analyzer.engine.rng import seed_stream
from analyzer.engine.search import rebound
from analyzer.engine.trace import emit, payload
from analyzer.engine.jit import USER_KIND_BASE
from analyzer.games.sau_mau_mau import search
from analyzer.games.sau_mau_mau.asking import ask_heuristic
from analyzer.games.sau_mau_mau.bots import CACHED_WIDTH, fill_cache
from analyzer.games.sau_mau_mau.layout import (
    BE_LEN, BET_LEN, DECIDE_BET, EVENTS_CAP, DECIDE_COLOR, DECIDE_FLAPI, DECIDE_PLAY, DECIDE_STEP, ERROR_BET,
    EV_BET, EV_DRAW, EV_FARMER, EV_FLAPI, EV_PLAY, EV_RACE, EV_RACE_END, EV_STEP, EV_TURN, G_TRACE_AT, PUB_FIRST,
    ERROR_COLOR, ERROR_FLAPI, ERROR_INVARIANT, ERROR_PLAY, ERROR_STEP, FIRST_HEURISTIC, FLAPI,
    G_CHECK, G_CROWN, G_DEAL, G_FLAPI_MOVE, G_KINDS, G_LEN, G_N_PLAYERS, G_PLUS2_STEP, G_RACES, G_RULES,
    G_STEPS_BACK, G_X_SKIPS, GM_LEN, GM_TOTAL, GM_WON, H_FLOW, H_LEN, H_RNG,
    H_SCRIPT, H_SCRIPT_I, H_SCRIPT_N, LAST_HEURISTIC, LOOKAHEAD, MAX_PLAYERS, MAX_RACES, MAX_TURNS, MIN_PLAYERS,
    N_PIGS, NUMBER, OWN_DECISIONS, OWN_HAND_N, OWN_LEN, OWN_RNG, PARAMS_WIDTH, PL_LEN,
    R_CROWN_POINTS, R_DEAL, R_FLAPI_MOVE, R_HAND_POINTS, R_PAYOUTS, R_PLUS2_STEP, R_RACES, R_STEPS_BACK, R_X_SKIPS,
    PLUS2, PUB_DRAWN, PUB_ENDER, PUB_ERROR, PUB_MOVER, PUB_N_PLAYERS, PUB_NEED, PUB_PENALTY,
    PUB_POS, PUB_SCORE, PUB_SKIP, PUB_STEPS, PUB_TURN, RACE_COMEBACK, RACE_DECIDED_AFTER, RACE_LEAD_CHANGES,
    RACE_LEN, RACE_WINNING, RANDOM, RULES_LEN, S_LEN, S_OPTIONS,
    S_VIEW, SCRIPTED, SKIP, max_hand_size,
)
from analyzer.games.sau_mau_mau.random_bot import decide_random
from analyzer.games.sau_mau_mau.rules import (
    BOT_ERROR, ENDS_HAND, RACE_ON, card_color, card_kind, card_number, check_invariants,
    discard_from_hand, draw_cards, last_pigs, move_pig, own_at, pigs_off_start,
    place_bet, record_bet_events, score_race, setup_race, valid_options,
)

BAD_ANSWER = -99  # what an unknown bot kind or an exhausted script answers

@kernel
def ask_bot(what, seat, kind, game, state, hidden, params, n_options):
    """A decision of any bot but the reference random one. It is shown ``state``
    with a copy of its own hidden row in ``S_VIEW`` (of a built-in heuristic
    bot's, what it reads), never the other rows, and its own parameter row; its
    stream is copied back after. Compiled on its own, not inlined: the turn
    code around the random bot's hot path stays small."""
    at = own_at(seat)
    answer = BAD_ANSWER
    if FIRST_HEURISTIC <= kind <= LAST_HEURISTIC:
        return ask_heuristic(what, seat, kind, game, state, hidden, params[seat], n_options)
    for i in range(OWN_LEN):
        state[S_VIEW + i] = hidden[at + i]
    if kind == SCRIPTED:
        i = hidden[H_SCRIPT_I]
        if i < hidden[H_SCRIPT_N]:
            hidden[H_SCRIPT_I] = i + 1
            answer = hidden[H_SCRIPT + i]
    elif kind == LOOKAHEAD:
        # the search bot reads, beyond this view, only what is public in
        # ``hidden`` (the discard pile) and plays its playouts on copies (in
        # hidden's search area); the working row is its scratch too
        answer = search.lookahead_decide(what, seat, game, state, hidden, params[seat], params[-1], n_options)
    elif kind >= USER_KIND_BASE:
        # a user bot gets a copy of its parameter row (the last row, see
        # play_games): what it writes there is gone by its next decision, so
        # nothing carries over between games and chunks
        work = params.shape[0] - 1
        for i in range(min(params.shape[1], PARAMS_WIDTH)):
            params[work, i] = params[seat, i]
        answer = call_bot(what, seat, kind, game, state, params[work], n_options)
    hidden[at + OWN_RNG] = state[S_VIEW + OWN_RNG]
    return answer


@kernel(inline=True)
def ask(what, seat, game, state, hidden, params, n_options):
    """One decision of one player. The reference random bot is answered here
    directly from its own row (no copy: the hot path); other bots by ``ask_bot``."""
    kind = game[G_KINDS + seat]
    at = own_at(seat)
    hidden[at + OWN_DECISIONS] += 1
    if kind == RANDOM:
        return decide_random(what, hidden, at, state, n_options)
    return ask_bot(what, seat, kind, game, state, hidden, params, n_options)


@kernel(inline=True)
def fail(state, error, seat):
    state[PUB_ERROR] = error * 8 + seat
    return BOT_ERROR


@kernel(inline=True)
def take_penalty_steps(game, state, hidden, params, seat, steps):
    """``steps`` steps back (the rule's steps per card drawn as a +2 penalty:
    one in the box), each moving any pig one space back (never behind start);
    the player may stop early (answer -1). False on a bad answer."""
    for k in range(steps):
        n = pigs_off_start(state, S_OPTIONS)
        if n == 0:
            break
        state[PUB_STEPS] = steps - k
        pick = ask(DECIDE_STEP, seat, game, state, hidden, params, n)
        if pick == -1:
            break
        if pick < -1 or pick >= n:
            state[PUB_STEPS] = 0
            return False
        state[PUB_POS + state[S_OPTIONS + pick]] -= 1
        if game[G_TRACE_AT] != 0:
            emit(hidden, game[G_TRACE_AT], EV_STEP, seat, state[S_OPTIONS + pick], 0, 0)
    state[PUB_STEPS] = 0
    return True


@kernel(inline=True)
def offer_bet(game, state, hidden, params, seat):
    """After a turn with at least one card drawn: bet, change the bet or pass."""
    pig = ask(DECIDE_BET, seat, game, state, hidden, params, 0)
    if game[G_TRACE_AT] != 0:
        emit(hidden, game[G_TRACE_AT], EV_BET, seat, pig, 0, 0)
    if pig == -1:
        return True
    if pig < -1 or pig >= N_PIGS:
        return False
    place_bet(state, hidden, seat, pig)
    return True


@kernel(inline=True)
def take_turn(game, state, hidden, params, seat):
    """One turn that is not skipped: play a valid card or draw (the penalty
    under a +2), then the card's action or the penalty steps and the bet.
    Returns the race-end bits (ENDS_CROWN | ENDS_HAND), RACE_ON or BOT_ERROR."""
    n = valid_options(state, hidden, seat, S_OPTIONS)
    pick = ask(DECIDE_PLAY, seat, game, state, hidden, params, n)
    if pick < -1 or pick >= n:
        return fail(state, ERROR_PLAY, seat)
    if game[G_TRACE_AT] != 0:
        payload(hidden, emit(hidden, game[G_TRACE_AT], EV_PLAY, seat, -1 if pick == -1 else state[S_OPTIONS + pick],
                             n, state[PUB_PENALTY]), state, S_OPTIONS, n)
    if pick == -1:
        penalty = state[PUB_PENALTY]
        if penalty > 0:
            state[PUB_PENALTY] = 0
            got = draw_cards(state, hidden, seat, penalty)
            if game[G_TRACE_AT] != 0:
                emit(hidden, game[G_TRACE_AT], EV_DRAW, seat, got, 1, 0)
            if not take_penalty_steps(game, state, hidden, params, seat, got * game[G_STEPS_BACK]):
                return fail(state, ERROR_STEP, seat)
        else:
            got = draw_cards(state, hidden, seat, 1)
            if game[G_TRACE_AT] != 0:
                emit(hidden, game[G_TRACE_AT], EV_DRAW, seat, got, 0, 0)
        if got > 0 and not offer_bet(game, state, hidden, params, seat):
            return fail(state, ERROR_BET, seat)
        return RACE_ON
    card = state[S_OPTIONS + pick]
    discard_from_hand(state, hidden, seat, card)
    kind = card_kind(card)
    ends = RACE_ON
    if kind == NUMBER:
        state[PUB_NEED] = card_color(card)
        ends = move_pig(state, card_color(card), card_number(card))
    elif kind == SKIP:
        state[PUB_NEED] = card_color(card)
        state[PUB_SKIP] = game[G_X_SKIPS]
    elif kind == PLUS2:
        state[PUB_NEED] = card_color(card)
        state[PUB_PENALTY] += game[G_PLUS2_STEP]
    elif kind == FLAPI:
        state[PUB_NEED] = card_color(card)
        n_last = last_pigs(state, S_OPTIONS)
        pick = 0
        if n_last > 1:
            pick = ask(DECIDE_FLAPI, seat, game, state, hidden, params, n_last)
            if pick < 0 or pick >= n_last:
                return fail(state, ERROR_FLAPI, seat)
        if game[G_TRACE_AT] != 0:
            emit(hidden, game[G_TRACE_AT], EV_FLAPI, seat, state[S_OPTIONS + pick], n_last, 0)
        ends = move_pig(state, state[S_OPTIONS + pick], game[G_FLAPI_MOVE])
    else:  # FARMER
        color = ask(DECIDE_COLOR, seat, game, state, hidden, params, 0)
        if color < 0 or color >= N_PIGS:
            return fail(state, ERROR_COLOR, seat)
        if game[G_TRACE_AT] != 0:
            emit(hidden, game[G_TRACE_AT], EV_FARMER, seat, color, 0, 0)
        state[PUB_NEED] = color
    if hidden[own_at(seat) + OWN_HAND_N] == 0:
        ends |= ENDS_HAND
    if ends != RACE_ON:
        state[PUB_ENDER] = seat
    return ends


@kernel(inline=True)
def play_turn(game, state, hidden, params):
    """The turn of ``PUB_MOVER`` (counted even if skipped); the mover passes left.
    (The search bot's playouts play it compiled again, their decisions answered
    by its playout policy instead of ``ask``: search.py.)"""
    seat = state[PUB_MOVER]
    state[PUB_TURN] += 1
    state[PUB_DRAWN] = 0
    result = RACE_ON
    skipped = state[PUB_SKIP] != 0
    if skipped:
        state[PUB_SKIP] -= 1
    else:
        result = take_turn(game, state, hidden, params, seat)
    if game[G_TRACE_AT] != 0 and result != BOT_ERROR:
        payload(hidden, emit(hidden, game[G_TRACE_AT], EV_TURN, seat, result, skipped, 0), state, PUB_POS,
                PUB_SCORE - PUB_POS)
    seat += 1
    if seat == state[PUB_N_PLAYERS]:
        seat = 0
    state[PUB_MOVER] = seat
    if game[G_CHECK] != 0 and result != BOT_ERROR and not check_invariants(game, state, hidden):
        return fail(state, ERROR_INVARIANT, state[PUB_ENDER] if state[PUB_ENDER] >= 0 else 0)
    return result


@kernel
def one_turn(game, state, hidden, params):
    """``play_turn`` compiled on its own, for tests that drive single turns. Games
    do not call it: ``play_race`` inlines the turn, which saves passing four
    arrays per turn (about 10% of the random bots' games/s), and numba compiles
    this only when something calls it."""
    return play_turn(game, state, hidden, params)


@kernel
def play_race(game, state, hidden, params, race, race_row, player_rows, bet_rows, event_rows):
    """Race ``race`` (1, 2, ...) from the deal to the scores. Returns 0 or the error code."""
    setup_race(game, state, hidden, race)
    if game[G_TRACE_AT] != 0:
        payload(hidden, emit(hidden, game[G_TRACE_AT], EV_RACE, -1, race, state[PUB_FIRST], 0), state, PUB_POS,
                PUB_SCORE - PUB_POS)
    result = RACE_ON
    while result == RACE_ON and state[PUB_TURN] < MAX_TURNS:
        result = play_turn(game, state, hidden, params)
        # the standing if the race ended now: the pigs' spaces, the pig furthest on leads
        note_leader(hidden, H_FLOW, MAX_TURNS, state[PUB_TURN], sole_leader(state, PUB_POS, N_PIGS))
    if result == BOT_ERROR:
        return state[PUB_ERROR]
    if game[G_TRACE_AT] != 0:
        emit(hidden, game[G_TRACE_AT], EV_RACE_END, -1, result, 0, 0)
    score_race(game, state, hidden, result, race_row, player_rows, bet_rows)
    record_bet_events(state, hidden, race_row, event_rows)
    winning = race_row[RACE_WINNING]
    single = winning != 0 and winning & (winning - 1) == 0  # one pig won, not several
    changes, decided, comeback = flow_counters(hidden, H_FLOW, MAX_TURNS, state[PUB_TURN],
                                               one_bit(winning) if single else -1)
    race_row[RACE_LEAD_CHANGES] = changes
    race_row[RACE_DECIDED_AFTER] = decided
    race_row[RACE_COMEBACK] = comeback
    return 0


@kernel
def play_game(game, state, hidden, params, seed, index, race_rows, player_rows, bet_rows,
              game_rows, event_rows):
    """Game ``index`` of ``seed``: the rules' races (four in the box), scores
    carried over. Returns 0 or the error code."""
    n_players = game[G_N_PLAYERS]
    races = game[G_RACES]
    for seat in range(n_players):
        seed_stream(hidden, own_at(seat) + OWN_RNG, seed, index, 1 + seat)
        state[PUB_SCORE + seat] = 0
    state[PUB_ERROR] = 0
    for r in range(races):
        # each race's shuffles from a stream of its own: its deal does not depend
        # on how the races before went (common random numbers across bots)
        seed_stream(hidden, H_RNG, seed, index * races + r, 0)
        error = play_race(game, state, hidden, params, r + 1, race_rows[r], player_rows[r],
                          bet_rows[r], event_rows[r])
        if error != 0:
            return error
    best = state[PUB_SCORE]
    for seat in range(1, n_players):
        best = max(best, state[PUB_SCORE + seat])
    for seat in range(n_players):
        game_rows[seat, GM_TOTAL] = state[PUB_SCORE + seat]
        game_rows[seat, GM_WON] = 1 if state[PUB_SCORE + seat] == best else 0
    return 0


@kernel(allocates=True)
def working_rows(game, params):
    """The parameter rows a game is played with (``play_game``'s ``params``): each
    seat's row of ``params`` (a short one read as zeros beyond it), as wide as a
    heuristic bot's cache, which a heuristic seat's row carries (``bots.fill_cache``;
    the search bot's too, for its playouts' model), and a working row after the
    seats' (a user bot's copy, the search bot's table: see ask_bot)."""
    rows = np.zeros((MAX_PLAYERS + 1, CACHED_WIDTH), np.float64)
    for seat in range(min(params.shape[0], MAX_PLAYERS)):
        for i in range(min(params.shape[1], PARAMS_WIDTH)):
            rows[seat, i] = params[seat, i]
        if FIRST_HEURISTIC <= game[G_KINDS + seat] <= LAST_HEURISTIC or game[G_KINDS + seat] == LOOKAHEAD:
            fill_cache(rows[seat], game)
    return rows


@kernel(allocates=True)
def play_games(game, params, seed, first, count, races, players, bets, games, events):
    """Play games ``first .. first+count-1`` of ``seed`` into rows 0.. of the
    outputs; ``params``: float64 [players, PARAMS_WIDTH], each seat's bot
    parameters. Returns 0, or ``error * 2**32 + index`` for the first invalid
    bot answer (error = ERROR_* * 8 + seat). The game array and the parameters
    are copied first: threads running this side by side then share no array.
    The copy has room for every seat and slot, so that a short ``params``
    (which ``run`` refuses) reads zeros rather than memory beyond it, and a
    working row after the seats' for a user bot (see ask_bot); a heuristic
    bot's row carries the cache of what depends on its parameters alone
    (``bots.fill_cache``), filled here once per call."""
    game = game.copy()
    rows = working_rows(game, params)
    state = np.zeros(S_LEN, np.int64)
    hidden = np.zeros(H_LEN, np.int64)
    for i in range(count):
        error = play_game(game, state, hidden, rows, seed, first + i, races[i], players[i],
                          bets[i], games[i], events[i])
        if error != 0:
            return error * (1 << 32) + first + i
    return 0


# ------------------------------------------------------------------ Python side

def pack_rules(rules=None) -> np.ndarray:
    """The rules block of the ``game`` array (``G_RULES``: the R_* slots of
    layout.py) from a ``Rules`` of ``ruleset.RULES`` (None: the box's). The
    values are checked by the rule set; a range that depends on the players
    by the match (``match.check_rules``)."""
    if rules is None:
        # by name, not an import statement: the rule set is Python-side packing, no part
        # of the compiled kernels, so it stays out of the sources their cache is keyed by
        rules = importlib.import_module("analyzer.games.sau_mau_mau.ruleset").RULES.box()
    block = np.zeros(RULES_LEN, np.int64)
    block[R_DEAL] = rules["hand_size"]
    block[R_RACES] = rules["races_per_game"]
    block[R_PLUS2_STEP] = rules["plus_two_step"]
    block[R_STEPS_BACK] = rules["steps_back_per_card"]
    block[R_FLAPI_MOVE] = rules["flapi_move"]
    block[R_CROWN_POINTS] = rules["crown_points"]
    block[R_HAND_POINTS] = rules["last_card_points"]
    block[R_X_SKIPS] = rules["x_skips"]
    payouts = rules["bet_payouts"][:MAX_PLAYERS]  # the queue holds one bet per player at most
    block[R_PAYOUTS:R_PAYOUTS + len(payouts)] = payouts
    return block


def pack_game(crown: int, kinds, check: bool = False, rules=None) -> np.ndarray:
    """The ``game`` array: player count, crown, invariant checks, bot kinds and
    the rules (``pack_rules``; None: the box's)."""
    players = len(kinds)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Sau Mau Mau takes {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}")
    if crown <= 0:
        raise ValueError("the crown must be on a positive space")
    game = np.zeros(G_LEN, np.int64)
    game[G_N_PLAYERS] = players
    game[G_CROWN] = crown
    game[G_CHECK] = int(check)
    game[G_KINDS:G_KINDS + players] = kinds
    game[G_RULES:G_RULES + RULES_LEN] = pack_rules(rules)
    # the kernel's arrays hold no more (the rule set and the match say so to a user first)
    if not 1 <= game[G_RACES] <= MAX_RACES:
        raise ValueError(f"a game has 1 to {MAX_RACES} races, not {game[G_RACES]}")
    if not 1 <= game[G_DEAL] <= max_hand_size(players):
        raise ValueError(f"{players} players are dealt 1 to {max_hand_size(players)} cards each, not {game[G_DEAL]}")
    return game


def new_records(count: int, players: int):
    """Zeroed (races, players, bets, games, bet events) record arrays for ``count``
    games of up to MAX_RACES races (a game fills the first G_RACES)."""
    return (np.zeros((count, MAX_RACES, RACE_LEN), np.int64),
            np.zeros((count, MAX_RACES, players, PL_LEN), np.int64),
            np.zeros((count, MAX_RACES, players, BET_LEN), np.int64),
            np.zeros((count, players, GM_LEN), np.int64),
            np.zeros((count, MAX_RACES, EVENTS_CAP, BE_LEN), np.int32))


def new_arrays():
    """Zeroed ``state`` and ``hidden`` arrays (for tests that drive single turns)."""
    return np.zeros(S_LEN, np.int64), np.zeros(H_LEN, np.int64)


def new_params(players: int) -> np.ndarray:
    """Zeroed parameter rows, one per seat (what the random bot needs)."""
    return np.zeros((players, PARAMS_WIDTH), np.float64)


def run(game: np.ndarray, seed: int, first: int, count: int, params=None):
    """Play games into fresh records; raise on a bot error. Returns the records
    (races, players, bets, games; the bet events only through a match's chunks),
    the per-race ones cut to the game's races. ``params``: [players,
    PARAMS_WIDTH] bot parameters (None: zeros)."""
    players = int(game[G_N_PLAYERS])
    params = new_params(players) if params is None else np.asarray(params, np.float64)
    if params.shape != (players, PARAMS_WIDTH):
        raise ValueError(f"params must have shape ({players}, {PARAMS_WIDTH}), not {params.shape}")
    records = new_records(count, players)
    error = play_games(game, params, seed, first, count, *records)
    if error != 0:
        raise RuntimeError(f"bot error {error >> 32} in game {error & 0xFFFFFFFF}")
    races = int(game[G_RACES])
    return records[0][:, :races], records[1][:, :races], records[2][:, :races], records[3]


# the search bot's playouts play this module's turn, compiled again with their
# decisions asked of its playout policy (search.py cannot import this module,
# which dispatches to it)
search.play_turn = rebound({name: globals()[name] for name in
                            ("take_penalty_steps", "offer_bet", "take_turn", "play_turn")},
                           ask=search.ask_playout)["play_turn"]
