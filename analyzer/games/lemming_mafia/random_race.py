"""A race of a table where every seat plays the reference random bot, jitted.

The same race as ``kernel.play_race`` with ``random`` in every seat, draw for
draw and record for record (``tests/games/lemming_mafia/test_lm_random_race.py``
plays both and compares every record): the general kernel stays the rules'
reference, this is its fast path for the table every cross-check, every
``--bots random`` run and the look-ahead's playouts use. What it leaves out is
what a random table never needs: the bot dispatch and the copy of a player's
row for its view, replay traces, interventions and invalid answers.
"""
import numpy as np

from analyzer.engine.jit import ix, kernel
from analyzer.engine.rng import _GAMMA, _LOW32, _S32, below, mix64, seed_stream
from analyzer.games.lemming_mafia.layout import (
    BOOKMAKER, BOSS, CONCRETE, ELIMINATED_POS, FIELD_LANDINGS, FIELD_LEN, FIELD_TRIGGERS,
    FINISH_LAST_STANDING, FINISH_WATER, G_H_ANSWERS_AT, G_H_COUNT_AT, G_H_DISCARD_AT, G_H_LEN, G_N_FIELDS,
    G_N_PLAYERS, G_N_SECTIONS, G_PROGRESS_AT, G_S_LEN, G_START_AT, GETAWAY, JACKHAMMER,
    N_CONTRACTS_EACH, N_LEMMINGS, OWN_DECISIONS, OWN_HELD, OWN_RNG, OWN_STACK, OWN_STACK_N,
    OWN_STACK_PLACE, OWN_STACK_TURN, PUB_BLOCKS, PUB_N_ELIM, PUB_N_FIELDS, PUB_OUT, PUB_POS, PUB_RNG,
    PUB_TURN, PUB_WATER_FROM, RACE_FINISH, RACE_TURNS, RACE_WINNER_FIELD, S_OPTIONS,
)
from analyzer.games.lemming_mafia.rules import (
    NEEDS_BETS, NEEDS_DISCARDS, NO_WINNER, deal, dice_candidates, draw, field_action, own_at,
    score_race, track_place,
)

# ------------------------------------------------------- section occupancy
# The race keeps, per section, a bit mask of its occupied fields (a section has
# at most MAX_SECTION_FIELDS = 8), so the free fields of a section are a mask,
# their count a table lookup and the k-th of them another: no loop over the
# section's fields, whose varying length a branch predictor gets wrong. Masks
# are indexed by a position's progress (``rules.sections_passed``): slot 0
# (start area, eliminated) is never read, section ``s`` is slot ``s + 1``.

POPCOUNT = np.array([bin(m).count("1") for m in range(256)], np.int64)
# SELECT[m * 8 + k]: offset of the k-th (from 0) set bit of m, in ascending order
SELECT = np.zeros(256 * 8, np.int64)
for _m in range(256):
    for _k, _bit in enumerate(b for b in range(8) if _m >> b & 1):
        SELECT[_m * 8 + _k] = _bit


@kernel(inline=True)
def random_bets(game, state, hidden, hands):
    """A bookmaker round of random bots: each seat, holding the bet cards of
    the mask ``hands[seat]``, passes or puts one of them on its stack
    (``random_bot._answer``: one draw below twice the cards held). Placed seat
    by seat: a random answer depends on nothing another seat places. The
    stack's slot above its height is written whether or not the seat bets: the
    records read a stack up to its height only."""
    turn = state[PUB_TURN]
    for seat in range(game[G_N_PLAYERS]):
        at = own_at(game, seat)
        hand = hands[ix(seat)]
        n_hand = POPCOUNT[ix(hand)]
        if n_hand == 0:
            continue
        k = below(hidden, at + OWN_RNG, 2 * n_hand)
        yes = k < n_hand
        color = SELECT[ix(hand * 8 + min(k, 7))]
        hands[ix(seat)] = hand & ~(np.int64(yes) << color)
        n_stack = hidden[ix(at + OWN_STACK_N)]  # below 6: a card is in hand
        hidden[ix(at + OWN_STACK + n_stack)] = color
        hidden[ix(at + OWN_STACK_TURN + n_stack)] = turn
        hidden[ix(at + OWN_STACK_PLACE + n_stack)] = track_place(state, color)
        hidden[ix(at + OWN_STACK_N)] = n_stack + yes


@kernel(inline=True)
def random_discards(game, state, hidden, hands):
    """A boss round of random bots: each seat keeps its contracts or discards
    one of those it holds (mask ``hands[players + seat]``), as ``random_bets``.
    A seat that keeps them all writes the turn into its answer slot instead,
    which this path does not use."""
    turn = state[PUB_TURN]
    n_players = game[G_N_PLAYERS]
    for seat in range(n_players):
        at = own_at(game, seat)
        held = hands[ix(n_players + seat)]
        n_held = POPCOUNT[ix(held)]
        if n_held == 0:
            continue
        k = below(hidden, at + OWN_RNG, 2 * n_held)
        yes = k < n_held
        slot = SELECT[ix(held * 8 + min(k, 7))]
        hands[ix(n_players + seat)] = held & ~(np.int64(yes) << slot)
        turn_at = game[G_H_DISCARD_AT] + seat * N_CONTRACTS_EACH + slot
        hidden[ix(turn_at if yes else game[G_H_ANSWERS_AT] + seat)] = turn


@kernel(inline=True)
def random_pick(hidden, at, n):
    """The random bot's pick among ``n`` options: ``below`` from its stream when
    ``n > 1``, counted as a decision; 0 for one option, nothing drawn or counted.
    Without a branch on ``n``: whether a move has one candidate or one free
    field is noise to a branch predictor."""
    take = n > 1
    slot = ix(at + OWN_RNG)
    old = np.uint64(hidden[slot])
    counter = old + _GAMMA
    hidden[slot] = np.int64(old + _GAMMA * np.uint64(take))
    hidden[ix(at + OWN_DECISIONS)] += take
    bound = np.uint64(n)
    product = (mix64(counter) >> _S32) * bound
    if take & ((product & _LOW32) < bound):
        # Lemire's rare rejection (below's slow path): redo the draw exactly as below does
        hidden[slot] = np.int64(old)
        return below(hidden, at + OWN_RNG, n)
    return np.int64(product >> _S32)


@kernel(inline=True)
def land(game, state, hidden, occ, bits, lemming, field):
    """``rules.land`` with the masks: leave the old field, take ``field``."""
    progress = game[G_PROGRESS_AT] + 2
    old = state[ix(PUB_POS + lemming)] + 2  # START (-1) clears the never-read slot 0
    occ[ix(game[ix(progress + old - 2)])] &= ~bits[ix(old)]
    occ[ix(game[ix(progress + field)])] |= bits[ix(field + 2)]
    state[ix(PUB_POS + lemming)] = field
    hidden[ix(game[G_H_COUNT_AT] + field * FIELD_LEN + FIELD_LANDINGS)] += 1


@kernel(inline=True)
def leave(game, state, occ, bits, lemming):
    """Clear the lemming's field (it is eliminated or jumps into the water)."""
    old = state[ix(PUB_POS + lemming)] + 2
    occ[ix(game[ix(game[G_PROGRESS_AT] + old)])] &= ~bits[ix(old)]


@kernel(inline=True)
def eliminate(game, state, occ, bits, lemming):
    """``rules.eliminate`` with the masks."""
    leave(game, state, occ, bits, lemming)
    state[ix(PUB_POS + lemming)] = ELIMINATED_POS
    n_elim = state[PUB_N_ELIM] + 1
    state[PUB_N_ELIM] = n_elim
    state[ix(PUB_OUT + lemming)] = n_elim
    if n_elim < N_LEMMINGS - 1:
        return NO_WINNER
    for lem in range(N_LEMMINGS):
        if state[ix(PUB_OUT + lem)] == 0:
            return lem
    return NO_WINNER


@kernel(inline=True)
def reach_water(game, state, occ, bits, lemming):
    """``rules.reach_water`` with the masks."""
    leave(game, state, occ, bits, lemming)
    state[PUB_WATER_FROM] = state[ix(PUB_POS + lemming)]
    state[ix(PUB_POS + lemming)] = state[PUB_N_FIELDS]
    return lemming * 2 + FINISH_WATER


@kernel(inline=True)
def resolve_landing(game, state, hidden, occ, bits, lemming, field):
    """``rules.resolve_landing`` with the masks (same draws, same results)."""
    land(game, state, hidden, occ, bits, lemming, field)
    counters = game[G_H_COUNT_AT]
    while True:
        action = field_action(game, field)
        trigger = counters + field * FIELD_LEN + FIELD_TRIGGERS
        if action == GETAWAY:
            hidden[ix(trigger)] += 1
            target = field + draw(state, 6) + 1
            if target >= game[G_N_FIELDS]:
                return reach_water(game, state, occ, bits, lemming)
            if occ[ix(game[ix(game[G_PROGRESS_AT] + 2 + target)])] & bits[ix(target + 2)] == 0:
                land(game, state, hidden, occ, bits, lemming, target)
                field = target
                continue
            blocks = state[ix(PUB_BLOCKS + lemming)] + 1
            state[ix(PUB_BLOCKS + lemming)] = blocks
            if blocks >= 3:
                last = eliminate(game, state, occ, bits, lemming)
                if last >= 0:
                    return last * 2 + FINISH_LAST_STANDING
            return NO_WINNER
        blocks = state[ix(PUB_BLOCKS + lemming)]
        concrete = action == CONCRETE
        drill = (action == JACKHAMMER) & (blocks > 0)
        rounds = action >= BOOKMAKER
        hidden[ix(trigger)] += concrete | drill | rounds
        blocks += concrete
        blocks -= drill
        state[ix(PUB_BLOCKS + lemming)] = blocks
        if blocks >= 3:
            last = eliminate(game, state, occ, bits, lemming)
            if last >= 0:
                return last * 2 + FINISH_LAST_STANDING
        return NO_WINNER - 2 * rounds - (action == BOSS)


@kernel
def play_random_race(game, state, hidden, occ, bits, full, hands, seed, index, races, players, contracts,
                     bets, record):
    """Race ``index`` of ``seed``, every seat random, recorded in row ``record``."""
    seed_stream(state, PUB_RNG, seed, index, 0)
    deal(game, state, hidden)
    occ[:] = 0
    n_players = game[G_N_PLAYERS]
    for seat in range(n_players):
        hands[ix(seat)] = (1 << N_LEMMINGS) - 1
        hands[ix(n_players + seat)] = (1 << N_CONTRACTS_EACH) - 1
    for seat in range(n_players):
        seed_stream(hidden, own_at(game, seat) + OWN_RNG, seed, index, 1 + seat)
    n_sections = game[G_N_SECTIONS]
    starts = game[G_START_AT]
    progress = game[G_PROGRESS_AT] + 2
    seat = 0
    result = NO_WINNER
    n_rounds = 0  # every seat is asked in every round
    while True:
        state[PUB_TURN] += 1
        at = own_at(game, seat)
        pair = draw(state, N_LEMMINGS * N_LEMMINGS)
        first = pair // N_LEMMINGS
        second = pair - first * N_LEMMINGS
        if state[PUB_N_ELIM] == 0:
            # no colour out: the faces' lemmings, one or two, without a branch
            lemming = second if random_pick(hidden, at, 1 + (first != second)) == 1 else first
        else:
            n_cand = dice_candidates(state, first, second, S_OPTIONS)
            lemming = state[ix(S_OPTIONS + random_pick(hidden, at, n_cand))]
        section = game[ix(progress + state[ix(PUB_POS + lemming)])]
        free = full[ix(section)] & ~occ[ix(section + 1)]
        while free == 0 and section < n_sections:
            section += 1
            free = full[ix(section)] & ~occ[ix(section + 1)]
        if free == 0:
            result = reach_water(game, state, occ, bits, lemming)
            break
        k = random_pick(hidden, at, POPCOUNT[ix(free)])
        field = game[ix(starts + section)] + SELECT[ix(free * 8 + k)]
        result = resolve_landing(game, state, hidden, occ, bits, lemming, field)
        if result == NEEDS_BETS:
            random_bets(game, state, hidden, hands)
            n_rounds += 1
        elif result == NEEDS_DISCARDS:
            random_discards(game, state, hidden, hands)
            n_rounds += 1
        elif result != NO_WINNER:
            break
        seat += 1
        if seat == n_players:
            seat = 0
    for seat in range(n_players):
        at = own_at(game, seat)
        hidden[ix(at + OWN_DECISIONS)] += n_rounds
        held = hands[ix(n_players + seat)]
        for slot in range(N_CONTRACTS_EACH):
            hidden[ix(at + OWN_HELD + slot)] = (held >> slot) & 1
    winner = result >> 1
    finish = result & 1
    race_row = races[record]
    race_row[RACE_TURNS] = state[PUB_TURN]
    race_row[RACE_FINISH] = finish
    race_row[RACE_WINNER_FIELD] = (state[PUB_WATER_FROM] if finish == FINISH_WATER
                                   else state[ix(PUB_POS + winner)])
    score_race(game, state, hidden, winner, race_row, players[record], contracts[record],
               bets[record])


@kernel(allocates=True)
def play_races(game, params, seed, first, count, races, players, contracts, bets, field_count):
    """``kernel.play_races`` for a table of random bots (``params`` unused). Returns 0."""
    game = game.copy()
    state = np.zeros(game[G_S_LEN], np.int64)
    hidden = np.zeros(game[G_H_LEN], np.int64)
    n_fields = game[G_N_FIELDS]
    n_sections = game[G_N_SECTIONS]
    occ = np.zeros(n_sections + 2, np.int64)
    hands = np.zeros(2 * game[G_N_PLAYERS], np.int64)  # bet cards, then contracts, as masks
    # a position's bit in its section's mask, by position + 2 (0 off the board)
    bits = np.zeros(n_fields + 3, np.int64)
    # every field of a section, by section; the water (n_sections) has none
    full = np.zeros(n_sections + 1, np.int64)
    for section in range(n_sections):
        first_field = game[game[G_START_AT] + section]
        size = game[game[G_START_AT] + section + 1] - first_field
        full[section] = (1 << size) - 1
        for i in range(size):
            bits[first_field + i + 2] = 1 << i
    for i in range(count):
        play_random_race(game, state, hidden, occ, bits, full, hands, seed, first + i, races, players,
                         contracts, bets, i)
    counters = game[G_H_COUNT_AT]
    for field in range(n_fields):
        for column in range(FIELD_LEN):
            field_count[field, column] += hidden[counters + field * FIELD_LEN + column]
    return 0
