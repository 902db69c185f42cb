"""The flow of a Lemming Mafia race: turns, decisions and field actions, jitted.

A built-in bot's decision is ``bots.decide_builtin``; a user bot's (kinds >=
``USER_KIND_BASE``) is answered through ``engine/bot_table.call_bot``, by the
address of the bot's own compiled code: the kernel is compiled once, for every
bot, and cached.
"""
import numpy as np

from analyzer.engine.bot_table import call_bot
from analyzer.engine.jit import ix, kernel
from analyzer.engine.trace import emit, payload
from analyzer.games.lemming_mafia.bots import LOOKAHEAD, RANDOM, decide_builtin, planned_field
from analyzer.games.lemming_mafia.random_bot import decide_random_seated
from analyzer.games.lemming_mafia.layout import (
    DECIDE_BET, DECIDE_DISCARD, DECIDE_FIELD, DECIDE_MOVE, DERIVED_AT, ERROR_BET,
    ERROR_DISCARD, ERROR_FIELD, ERROR_MOVE, EV_END, EV_FIELD, EV_LAND, EV_ROLL, EV_ROUND,
    EV_WATER, F_BOT_ANSWER, F_COUNT, F_LEADER, F_LEADER_STEP, F_MODE, F_REACHED, F_ROUND, F_SEAT,
    F_SLOT, F_TURN, F_WHAT, FORCE_BET_LEADER, FORCE_DISCARD, FORCE_HOLD, FORCE_KEEP_ALL,
    G_BETS_PER_BOOKMAKER, G_DISCARDS_PER_BOSS, G_FORCE_AT, G_H_ANSWERS_AT, G_TRACE_AT,
    G_H_LEN, G_N_PLAYERS, G_S_LEN, N_LEMMINGS, N_PARAMS, NOT_ASKED, OWN_DECISIONS, OWN_RNG,
    OWN_HAND, OWN_HELD, OWN_VIEW_LEN, PUB_ERROR, PUB_HAND_COUNT, PUB_HELD_COUNT, PUB_MOVER, PUB_OUT, PUB_MOVING,
    PUB_POS, PUB_RNG, PUB_ROUND_CARD, PUB_TURN, S_OPTIONS, S_VIEW,
)
from analyzer.games.lemming_mafia.rules import (
    NEEDS_BETS, NEEDS_DISCARDS, NO_WINNER, add_field_counts, note_standing, apply_bets, apply_discards, bot_kind,
    own_at, reach_water, record_race, resolve_landing, roll_candidates, sections_passed, start_race,
    target_fields,
)

BOT_ERROR = -2  # a move ended by an invalid bot answer (see PUB_ERROR)

@kernel(inline=True)
def ask(what, seat, game, state, hidden, params, n_options):
    """One decision of one player. The bot is shown ``state`` with a copy of what
    it knows of its own hidden row (cards, contracts, its own random stream: the
    first ``OWN_VIEW_LEN`` slots) in ``S_VIEW``, never the other rows, and without
    the race's own stream: from it the dice to come could be computed. The
    reference random bot is answered here directly: it needs no copy and is the
    hot path of every cross-check."""
    kind = bot_kind(game, seat)
    at = own_at(game, seat)
    hidden[ix(at + OWN_DECISIONS)] += 1
    if kind == RANDOM:
        return decide_random_seated(what, hidden, at, state, n_options, seat)
    if what == DECIDE_FIELD and kind < LOOKAHEAD:
        # a heuristic bot's field after its own move decision: the field that
        # decision chose, found without the view copy or a call (most of their
        # field decisions)
        planned = planned_field(state, params[seat], n_options)
        if planned >= 0:
            return planned
    for i in range(OWN_VIEW_LEN):
        state[S_VIEW + i] = hidden[ix(at + i)]
    dice = state[PUB_RNG]
    state[PUB_RNG] = 0
    if kind <= LOOKAHEAD:
        # a built-in bot stays within its own row: it gets that row itself, with
        # no copies in and out of the working row
        answer = decide_builtin(what, seat, kind, game, state, params[seat], n_options)
        hidden[ix(at + OWN_RNG)] = state[S_VIEW + OWN_RNG]
        state[PUB_RNG] = dice
        return answer
    # the bot gets one row: its parameters and its own scratch, which persists
    # between its decisions and which no other bot sees (a user bot gets a copy:
    # reading past its row finds no other player's)
    work = params.shape[0] - 1
    for i in range(params.shape[1]):
        params[work, i] = params[seat, i]
    answer = call_bot(what, seat, kind, game, state, params[work], n_options)
    for i in range(params.shape[1]):
        params[seat, i] = params[work, i]
    hidden[ix(at + OWN_RNG)] = state[S_VIEW + OWN_RNG]
    state[PUB_RNG] = dice
    return answer


@kernel(inline=True)
def decision_round(what, game, state, hidden, params):
    """A bookmaker (DECIDE_BET) or boss (DECIDE_DISCARD) round: every player may
    answer; hidden and simultaneous, so every answer is taken before any is
    applied. Returns False if a bot answered outside its options.

    Where a player may put down (throw away) more than one card (the rules
    ``bets_per_bookmaker``, ``discards_per_boss``: ``per``), the round goes on
    in sub-rounds: every player whose last answer put a card down (threw one
    away) and who still holds one is asked again, hidden and at once; the
    others answer ``NOT_ASKED``. A pass ends a player's part of the round."""
    answers = game[G_H_ANSWERS_AT]
    per = game[G_BETS_PER_BOOKMAKER] if what == DECIDE_BET else game[G_DISCARDS_PER_BOSS]
    counts = PUB_HAND_COUNT if what == DECIDE_BET else PUB_HELD_COUNT
    for sub in range(per):
        state[PUB_ROUND_CARD] = sub
        asked = 0
        for seat in range(game[G_N_PLAYERS]):
            if sub == 0 or (hidden[ix(answers + seat)] >= 0 and state[ix(counts + seat)] > 0):
                hidden[ix(answers + seat)] = ask(what, seat, game, state, hidden, params, 0)
                asked += 1
            else:
                hidden[ix(answers + seat)] = NOT_ASKED
        if asked == 0:
            break
        if not settle_round(what, sub, game, state, hidden):
            return False
    state[PUB_ROUND_CARD] = 0
    return True


@kernel(inline=True)
def settle_round(what, sub, game, state, hidden):
    """Sub-round ``sub`` of a round, every answer taken: forced (an intervention),
    traced (a replay) and applied. Returns False if a bot answered outside its
    options."""
    answers = game[G_H_ANSWERS_AT]
    if game[G_FORCE_AT] != 0:
        force_round(what, sub, game, state, hidden)
    if game[G_TRACE_AT] != 0:
        payload(hidden, emit(hidden, game[G_TRACE_AT], EV_ROUND, -1, what, sub, 0), hidden, answers,
                game[G_N_PLAYERS])
    if what == DECIDE_BET:
        bad = apply_bets(game, state, hidden)
        error = ERROR_BET
    else:
        bad = apply_discards(game, state, hidden)
        error = ERROR_DISCARD
    if bad >= 0:
        state[PUB_ERROR] = error * 8 + bad
        return False
    return True


@kernel
def force_round(what, sub, game, state, hidden):
    """An intervention (``intervene.py``): at the chosen round of kind ``what``,
    replace the chosen seat's answer, after every bot was asked (so each bot's own
    stream advances as in the unforced race: the two arms of an intervention stay
    on common random numbers), and note what the bot had answered and where the
    race stood. ``sub``: the sub-round (``decision_round``): rounds are counted and
    forced at their first; a card held stays held and discards stay undone in
    the later ones too. Not called in ordinary runs (no forcing region)."""
    at = game[G_FORCE_AT]
    if hidden[ix(at + F_WHAT)] != what:
        return
    count = hidden[ix(at + F_COUNT)] + (sub == 0)
    hidden[ix(at + F_COUNT)] = count
    target = hidden[ix(at + F_ROUND)]
    mode = hidden[ix(at + F_MODE)]
    seat = hidden[ix(at + F_SEAT)]
    answer = game[G_H_ANSWERS_AT] + seat
    if target == 0 or count < target:
        return
    if mode == FORCE_KEEP_ALL:  # the seat's discards undone, this round and every later one
        hidden[ix(at + F_REACHED)] = 1
        hidden[ix(answer)] = min(hidden[ix(answer)], -1)  # a pass (or not asked)
        return
    if count > target or sub > 0:  # a held card stays held to the end
        if (mode == FORCE_HOLD) & (hidden[ix(at + F_REACHED)] == 1) & (hidden[ix(answer)] == hidden[ix(at + F_SLOT)]):
            hidden[ix(answer)] = -1
        return
    bot = hidden[ix(answer)]
    leader = 0
    for lem in range(1, N_LEMMINGS):
        if state[ix(PUB_OUT + lem)] == 0 and (state[ix(PUB_OUT + leader)] != 0
                                              or state[ix(PUB_POS + lem)] > state[ix(PUB_POS + leader)]):
            leader = lem
    hidden[ix(at + F_BOT_ANSWER)] = bot
    hidden[ix(at + F_TURN)] = state[PUB_TURN]
    hidden[ix(at + F_LEADER)] = leader
    hidden[ix(at + F_LEADER_STEP)] = sections_passed(game, state[ix(PUB_POS + leader)])
    own = own_at(game, seat)
    if what == DECIDE_BET:
        applies = hidden[ix(own + OWN_HAND + leader)] == 1
        forced = leader if mode == FORCE_BET_LEADER else -1
    else:
        slot = hidden[ix(at + F_SLOT)]
        applies = hidden[ix(own + OWN_HELD + slot)] == 1
        forced = slot if mode == FORCE_DISCARD else (-1 if bot == slot else bot)
    hidden[ix(at + F_REACHED)] = 1 if applies else 2
    if applies:
        hidden[ix(answer)] = forced


@kernel(inline=True)
def move_lemming(game, state, hidden, params, lemming):
    """Move one lemming a section on and resolve what follows. Returns the winner
    and the finish kind as ``winner * 2 + finish``, NO_WINNER or BOT_ERROR."""
    n_free = target_fields(game, state, lemming, S_OPTIONS)
    seat = state[PUB_MOVER]
    if n_free == 0:
        if game[G_TRACE_AT] != 0:
            emit(hidden, game[G_TRACE_AT], EV_WATER, seat, lemming, 0, 0)
        return reach_water(game, state, lemming)
    pick = 0
    if n_free > 1:
        state[PUB_MOVING] = lemming
        pick = ask(DECIDE_FIELD, seat, game, state, hidden, params, n_free)
        state[PUB_MOVING] = -1
        if pick < 0 or pick >= n_free:
            state[PUB_ERROR] = ERROR_FIELD * 8 + seat
            return BOT_ERROR
    field = state[ix(S_OPTIONS + pick)]
    if game[G_TRACE_AT] != 0:
        payload(hidden, emit(hidden, game[G_TRACE_AT], EV_FIELD, seat, lemming, n_free, pick), state,
                S_OPTIONS, n_free)
    result = resolve_landing(game, state, hidden, lemming, field, True)
    if game[G_TRACE_AT] != 0:
        payload(hidden, emit(hidden, game[G_TRACE_AT], EV_LAND, seat, lemming, field, result), state,
                PUB_POS, 3 * N_LEMMINGS)
    if result == NEEDS_BETS or result == NEEDS_DISCARDS:
        what = DECIDE_BET if result == NEEDS_BETS else DECIDE_DISCARD
        if not decision_round(what, game, state, hidden, params):
            return BOT_ERROR
        return NO_WINNER
    return result


@kernel
def play_race(game, state, hidden, params, seed, index, races, players, contracts,
              bets, record):
    """Race ``index`` of ``seed`` from the deal to the scores, recorded in row
    ``record`` of the record arrays. Returns 0 or the bot error code."""
    start_race(game, state, hidden, seed, index)
    n_players = game[G_N_PLAYERS]
    # bots' scratch starts empty in every race: nothing may carry over from the
    # race before, or results would depend on how races are chunked (the
    # reference random bot keeps none; a built-in bot's tables from DERIVED_AT on
    # depend on its parameters and the board alone; the working row after the
    # seats' rows is overwritten by a copy before each use)
    for row in range(n_players):
        kind = bot_kind(game, row)
        if kind == RANDOM:
            continue
        end = DERIVED_AT if kind <= LOOKAHEAD else params.shape[1]
        for i in range(N_PARAMS, end):
            params[row, i] = 0.0
    seat = 0
    result = NO_WINNER
    while result == NO_WINNER:
        state[PUB_TURN] += 1
        state[PUB_MOVER] = seat
        n_cand = roll_candidates(state, S_OPTIONS)
        pick = 0
        if n_cand > 1:
            pick = ask(DECIDE_MOVE, seat, game, state, hidden, params, n_cand)
            if pick < 0 or pick >= n_cand:
                state[PUB_ERROR] = ERROR_MOVE * 8 + seat
                return state[PUB_ERROR]
        if game[G_TRACE_AT] != 0:
            payload(hidden, emit(hidden, game[G_TRACE_AT], EV_ROLL, seat, state[PUB_TURN], n_cand, pick),
                    state, S_OPTIONS, n_cand)
        result = move_lemming(game, state, hidden, params, state[ix(S_OPTIONS + pick)])
        if result == BOT_ERROR:
            return state[PUB_ERROR]
        note_standing(game, state)
        seat += 1
        if seat == n_players:
            seat = 0
    winner = result >> 1
    finish = result & 1
    if game[G_TRACE_AT] != 0:
        emit(hidden, game[G_TRACE_AT], EV_END, -1, winner, finish, 0)
    # the record rows are taken here: in play_races, which allocates, every
    # view would cost two atomic reference-count updates a race
    record_race(game, state, hidden, result, races[record], players[record], contracts[record],
                bets[record], True)
    return 0


@kernel(allocates=True)
def play_races(game, params, seed, first, count, races, players, contracts, bets,
               field_count):
    """Play races ``first .. first+count-1`` of ``seed`` into rows 0.. of the
    outputs; add each field's landings and triggers to ``field_count``.

    Returns 0, or ``(ERROR_* * 8 + seat) * 2**32 + race`` for the first invalid
    bot answer. The game and parameters are copied first: threads running this
    side by side then share no array, and so no reference count."""
    game = game.copy()
    # one row per seat and a working row for the deciding bot (see ask)
    rows = params
    params = np.zeros((rows.shape[0] + 1, rows.shape[1]), np.float64)
    params[:rows.shape[0]] = rows
    state = np.zeros(game[G_S_LEN], np.int64)
    hidden = np.zeros(game[G_H_LEN], np.int64)  # rules.new_arrays, in jitted code
    for i in range(count):
        error = play_race(game, state, hidden, params, seed, first + i, races, players,
                          contracts, bets, i)
        if error != 0:
            return error * (1 << 32) + first + i
    add_field_counts(game, hidden, field_count)
    return 0
