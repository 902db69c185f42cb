"""Races of a table of built-in bots: heuristic seats (favourite, timer,
contractor) and random ones, each asked directly, jitted.

``kernel.play_race`` asks every decision through ``ask``, which must serve any
bot: it dispatches on the seat's bot, copies the bot's row into its view and
hides the dice's stream, and the race checks every answer, a replay trace and an
intervention. Here the bots are known: the same races, draw for draw and record
for record (``tests/games/lemming_mafia/test_lm_table_race.py`` plays both and
compares every record), with
- the random seats played as in ``random_race`` (their cards as bit masks, a
  pick among one option drawing nothing, no answer checked);
- a heuristic seat's move decision taken as the move and its field at once:
  ``bots.choose_move`` already chose the field (``SC_MOVE_FIELD``), which the
  general kernel's field decision reads back (``bots.planned_field``); the
  field decision is still counted where the general kernel asks it;
- the rounds played seat by seat: an answer reads the public race and the
  seat's own row only, which no other seat's answer changes (so each is as if
  all answered first); the public card counts (``PUB_*_COUNT``), which no
  heuristic or random bot reads, are not kept; a seat's further cards of a
  round (the rules ``bets_per_bookmaker``, ``discards_per_boss`` above 1) are
  asked right after its first, as the general kernel's sub-rounds ask them;
- a heuristic seat's dice read as ``random_race`` reads them (``roll_options``:
  once a colour is out, masks instead of loops and branches on each lemming);
- each heuristic seat's win weights and lemming values kept current
  (``keep_weight``: a move changes the moved lemming's alone), and its bet
  gains (``keep_gains`` after each of its own bets, which alone change
  them), and a favourite seat's scores of the lemmings (both ways), which its
  decisions read instead of computing them again (``bots.size_up``'s,
  ``bots.value_of``'s and ``bots.favourite``'s ``kept``), so a heuristic
  seat's row is copied into its view only in part: a move, field or bet
  decision is shown its stack's count, its contracts and its stream
  (``show_kept_row``), a discard reads its contracts from the row itself;
- the move's free fields read from the move decision, which found them
  (``SC_OPTION_COUNT``);
- the decisions inlined into the race, not called (below);
- a summary variant (``detail`` false) that writes only the races and players
  rows, as ``random_race.play_race_summaries``.
The look-ahead bot and user bots play on the general kernel.
"""
import numpy as np

from analyzer.engine.jit import ix, kernel
from analyzer.games.lemming_mafia import bots
from analyzer.games.lemming_mafia.bots import (
    bet_gains_of, favourite_score, favourite_scores, kept_weight_and_value, lemming_value, progress_step,
    remaining_sections, timing_of, track_left, win_weights,
)
from analyzer.games.lemming_mafia.layout import (
    DERIVED_AT, FAVOURITE, G_BETS_PER_BOOKMAKER, G_DISCARDS_PER_BOSS, G_H_ANSWERS_AT, G_H_DISCARD_AT, G_N_PLAYERS,
    MAX_CONTRACTS_EACH, MAX_SECTION_FIELDS,
    N_LEMMINGS, N_PARAMS, OWN_DECISIONS, OWN_RNG, OWN_STACK_N, P_DISCARD_MARGIN, PUB_BLOCKS,
    PUB_MOVING, PUB_N_ELIM, PUB_OUT, PUB_TURN, RANDOM, S_OPTIONS, S_VIEW, SC_FAV_SCORE, SC_MOVE_FIELD,
    SC_OPTION_COUNT, SC_VALUE, SC_WEIGHT,
)
from analyzer.games.lemming_mafia.random_race import (
    candidate_masks, put_back_held, race_arrays, random_bet, random_discard, random_target,
)
from analyzer.games.lemming_mafia.rules import (
    NEEDS_BETS, NO_WINNER, POPCOUNT, SELECT, add_field_counts, bot_kind, contracts_dealt, discard, own_at,
    note_standing, place_bet, reach_water, record_race, resolve_landing, roll_faces, start_race_keyed,
    target_fields,
)


# The heuristic bots' decisions, inlined here: the same Python functions as
# bots.py's, which the general kernel calls as one compiled call each (it must
# stay small: it serves every bot). Inlined, a decision passes no arrays as
# arguments and saves no registers: ~5% of a race of the default table.
# (Compiling them into the race takes a few minutes once, then the cache.)
decide_move = kernel(inline=True)(bots.decide_move.py_func)
decide_field = kernel(inline=True)(bots.decide_field.py_func)
choose_bet = kernel(inline=True)(bots.choose_bet.py_func)
choose_discard = kernel(inline=True)(bots.choose_discard.py_func)


@kernel(inline=True)
def show_kept_row(state, hidden, at):
    """What a heuristic seat's move, field and bet decisions read of its row,
    slots ``OWN_STACK_N`` to ``OWN_RNG`` (layout.py): its stack's count (the
    favourite's loyalty, which cards are in hand), its contracts (a
    contractor's stakes, a win's worth) and its stream. Its hand and stack
    are read as the bet gains its parameters' scratch keeps (``kept``), so
    that part of its view is not copied."""
    for i in range(OWN_STACK_N, OWN_RNG + 1):
        state[S_VIEW + i] = hidden[ix(at + i)]


@kernel(inline=True)
def take_stream(state, hidden, at):
    """The bot's own stream, as its decision left it, back into its row."""
    hidden[ix(at + OWN_RNG)] = state[S_VIEW + OWN_RNG]


@kernel(inline=True)
def roll_options(state):
    """``rules.roll_candidates`` into the options (``S_OPTIONS``), the same draw and
    list: once a colour is out, its face's lemmings are read from the masks of
    ``random_race.candidate_masks`` (the first face's in colour order, then the
    second's not yet listed) instead of ``rules.dice_candidates``' loops and
    branches on each lemming."""
    first, second = roll_faces(state)
    if state[PUB_N_ELIM] == 0:
        state[S_OPTIONS] = first
        state[S_OPTIONS + 1] = second
        return 1 + (first != second)
    first_mask, second_mask = candidate_masks(state, first, second)
    n_first = POPCOUNT[ix(first_mask)]
    for k in range(n_first):
        state[ix(S_OPTIONS + k)] = SELECT[ix(first_mask * MAX_SECTION_FIELDS + k)]
    n_second = POPCOUNT[ix(second_mask)]
    for k in range(n_second):
        state[ix(S_OPTIONS + n_first + k)] = SELECT[ix(second_mask * MAX_SECTION_FIELDS + k)]
    return n_first + n_second


@kernel(inline=True)
def heuristic_target(game, state, hidden, params, seat, kind):
    """The move of the heuristic player in ``seat``: roll, its move decision
    (with the field it chose) or, with one candidate, its field decision.
    Returns the lemming and its field, or -1 for the water."""
    at = own_at(game, seat)
    n_cand = roll_options(state)
    row = params[seat]
    if n_cand > 1:
        hidden[ix(at + OWN_DECISIONS)] += 1
        show_kept_row(state, hidden, at)
        option = decide_move(kind, game, state, row, n_cand, True)
        lemming = state[ix(S_OPTIONS + option)]
        take_stream(state, hidden, at)
        # the move decision found the lemming's free fields (``rules.target_fields``)
        n_free = row[ix(SC_OPTION_COUNT + option)]
        if n_free == 0:
            return lemming, -1
        # the general kernel asks the field when there is a choice; the bot
        # answers it with the field its move decision chose
        hidden[ix(at + OWN_DECISIONS)] += n_free > 1
        return lemming, np.int64(row[SC_MOVE_FIELD])
    lemming = state[S_OPTIONS]
    n_free = target_fields(game, state, lemming, S_OPTIONS)
    if n_free == 0:
        return lemming, -1
    pick = 0
    if n_free > 1:
        state[PUB_MOVING] = lemming
        hidden[ix(at + OWN_DECISIONS)] += 1
        show_kept_row(state, hidden, at)
        pick = decide_field(kind, game, state, row, n_free, True)
        take_stream(state, hidden, at)
        state[PUB_MOVING] = -1
    return lemming, state[ix(S_OPTIONS + pick)]


@kernel(inline=True)
def table_round(game, state, hidden, params, hands, result, detail):
    """A bookmaker (``NEEDS_BETS``) or boss round: every seat answers and its
    answer is applied, seat by seat. The heuristic seats' cards are kept as
    masks in ``hands`` too (``random_race.put_back_held`` writes every seat's
    held flags from them at the end): a seat with none passes without its view
    of its row, and so does one whose bet timing says to wait. What the bots
    compute from the public race alone (``remaining_sections``, ``track_left``)
    is computed once a round. A seat that put a card down (threw one away) is
    asked again while it holds one, up to ``per`` cards (the rules
    ``bets_per_bookmaker``, ``discards_per_boss``), each ask a decision; a pass
    ends its part of the round."""
    turn = state[PUB_TURN]
    n_players = game[G_N_PLAYERS]
    discard_at = game[G_H_DISCARD_AT]
    answers = game[G_H_ANSWERS_AT]
    # what a bet timing or a contract chance reads of the race, once a round
    # (and only the one this round asks for)
    bets = result == NEEDS_BETS
    remaining = remaining_sections(game, state) if bets else 0.0
    left = 0.0 if bets else track_left(game, state)
    per = game[G_BETS_PER_BOOKMAKER] if bets else game[G_DISCARDS_PER_BOSS]
    # one ask an iteration: ``card`` of ``seat``'s part of the round (one loop and
    # one copy of each decision, however many cards the rules allow)
    seat = 0
    card = 0
    while seat < n_players:
        kind = bot_kind(game, seat)
        at = own_at(game, seat)
        hidden[ix(at + OWN_DECISIONS)] += 1
        more = False  # it put a card down (threw one away)
        if kind == RANDOM:
            if bets:
                more = random_bet(game, state, hidden, hands, seat, turn, detail)
            else:
                more = random_discard(hidden, hands, at, n_players + seat, discard_at + seat * MAX_CONTRACTS_EACH,
                                      answers + seat, turn, detail)
        elif bets:
            row = params[seat]
            hand = hands[ix(seat)]
            timing = 0 if hand == 0 else timing_of(POPCOUNT[ix(hand)], remaining, row)
            if timing != 0:  # else bet_timing: a pass
                show_kept_row(state, hidden, at)
                color = choose_bet(kind, game, state, row, timing == 2, True)
                take_stream(state, hidden, at)
                place_bet(game, state, hidden, seat, color)
                keep_gains(game, state, hidden, at, row, kind)  # only its own bets change them
                hand = hand & ~(np.int64(1) << color)  # a card in hand: timing_of was not 0
                hands[ix(seat)] = hand
                more = True
        else:
            row = params[seat]
            held = hands[ix(n_players + seat)]
            if held != 0:  # choose_discard keeps what it does not hold
                slot = choose_discard(game, state, hidden, at, row, row[P_DISCARD_MARGIN], left, True)
                discard(game, state, hidden, seat, slot)
                yes = np.int64(slot >= 0)
                held = held & ~(yes << max(slot, 0))
                hands[ix(n_players + seat)] = held
                more = yes == 1
        card += 1
        # asked for its next card if it holds one (the box: never)
        if card < per and more and hands[ix(seat if bets else n_players + seat)] != 0:
            continue
        seat += 1
        card = 0


@kernel(inline=True)
def keep_gains(game, state, hidden, at, row, kind):
    """A heuristic seat's bet gains anew in its ``SC_GAIN`` slots (its row in
    ``hidden`` at ``at``), and a favourite bot's scores of the lemmings, which
    read them and its stack's count (``SC_FAV_SCORE``): at the race's start
    and after each of its own bets, which alone change them."""
    bet_gains_of(game, hidden, at, row)
    if kind == FAVOURITE:
        favourite_scores(game, state, row, SC_FAV_SCORE, hidden[ix(at + OWN_STACK_N)], True)


@kernel(inline=True)
def keep_weight(game, state, hidden, params, lemming):
    """The win weight and value of the lemming just moved, anew in each
    heuristic seat's ``SC_WEIGHT`` and ``SC_VALUE`` slots (and a favourite
    bot's score of it, ``SC_FAV_SCORE``): a move changes the place, blocks and
    elimination of the lemming moved alone, so each seat's weights, values and
    scores stay those ``win_weights``, ``lemming_value`` and
    ``favourite_scores`` would compute, and its decisions read them
    (``kept``)."""
    # what both read of the race, once for all seats
    step = progress_step(game, state, lemming)
    blocks = state[ix(PUB_BLOCKS + lemming)]
    out = state[ix(PUB_OUT + lemming)]
    for seat in range(game[G_N_PLAYERS]):
        kind = bot_kind(game, seat)
        if kind != RANDOM:
            row = params[seat]
            weight, value = kept_weight_and_value(state, row, step, blocks, out)
            row[SC_WEIGHT + lemming] = weight
            row[SC_VALUE + lemming] = value
            if kind == FAVOURITE:
                stack_n = hidden[ix(own_at(game, seat) + OWN_STACK_N)]
                row[SC_FAV_SCORE + lemming] = favourite_score(state, row, lemming, value, stack_n)


@kernel(inline=True)
def table_race(game, state, hidden, params, hands, keys, index, races, players, contracts, bets,
               record, detail):
    """Race ``index`` of the seed whose lane keys are ``keys``, recorded in row
    ``record`` (``kernel.play_race``'s race). ``detail`` (a constant): whether
    the contracts and bets rows are written and the fields counted; the races
    and players rows are the same either way."""
    start_race_keyed(game, state, hidden, keys, index)
    n_players = game[G_N_PLAYERS]
    dealt_mask = (1 << contracts_dealt(game)) - 1
    for seat in range(n_players):
        hands[ix(seat)] = (1 << N_LEMMINGS) - 1
        hands[ix(n_players + seat)] = dealt_mask
        kind = bot_kind(game, seat)
        if kind != RANDOM:
            # a heuristic bot's scratch starts empty in every race (kernel.play_race)
            for i in range(N_PARAMS, DERIVED_AT):
                params[seat, i] = 0.0
            # kept from here on (keep_weight, keep_gains)
            win_weights(game, state, params[seat])
            for lemming in range(N_LEMMINGS):
                params[seat, SC_VALUE + lemming] = lemming_value(game, state, params[seat], lemming)
            keep_gains(game, state, hidden, own_at(game, seat), params[seat], kind)
    seat = 0
    while True:
        state[PUB_TURN] += 1
        kind = bot_kind(game, seat)
        if kind == RANDOM:
            lemming, field = random_target(game, state, hidden, own_at(game, seat))
        else:
            lemming, field = heuristic_target(game, state, hidden, params, seat, kind)
        if field < 0:
            result = reach_water(game, state, lemming)
        else:
            result = resolve_landing(game, state, hidden, lemming, field, detail)
            keep_weight(game, state, hidden, params, lemming)
            if result < NO_WINNER:
                table_round(game, state, hidden, params, hands, result, detail)
                result = NO_WINNER
        note_standing(game, state)
        if result >= 0:
            break
        seat += 1
        if seat == n_players:
            seat = 0
    put_back_held(game, hidden, hands)
    record_race(game, state, hidden, result, races[record], players[record], contracts[record],
                bets[record], detail)


@kernel
def play_table_race(game, state, hidden, params, hands, keys, index, races, players, contracts,
                    bets, record):
    """``table_race`` with every record written."""
    table_race(game, state, hidden, params, hands, keys, index, races, players, contracts, bets,
               record, True)


@kernel
def play_table_race_summary(game, state, hidden, params, hands, keys, index, races, players,
                            contracts, bets, record):
    """``table_race`` writing the races and players rows only."""
    table_race(game, state, hidden, params, hands, keys, index, races, players, contracts, bets,
               record, False)


@kernel(inline=True, allocates=True)
def table_races(game, params, seed, first, count, races, players, contracts, bets, field_count,
                detail):
    """Races ``first .. first+count-1`` of ``seed`` into rows 0.. (``detail``: as
    ``table_race``). The game and parameters are copied first: threads running
    this side by side then share no array."""
    game = game.copy()
    params = params.copy()
    state, hidden, hands, keys = race_arrays(game, seed)
    for i in range(count):
        if detail:
            play_table_race(game, state, hidden, params, hands, keys, first + i, races, players,
                            contracts, bets, i)
        else:
            play_table_race_summary(game, state, hidden, params, hands, keys, first + i, races,
                                    players, contracts, bets, i)
    if detail:
        add_field_counts(game, hidden, field_count)


@kernel(allocates=True)
def play_races(game, params, seed, first, count, races, players, contracts, bets, field_count):
    """``kernel.play_races`` for a table of heuristic and random bots: the same
    records. Returns 0 (a built-in bot's answer is never invalid)."""
    table_races(game, params, seed, first, count, races, players, contracts, bets, field_count, True)
    return 0


@kernel(allocates=True)
def play_race_summaries(game, params, seed, first, count, races, players, contracts, bets,
                        field_count):
    """``play_races`` writing only the races and players rows (as
    ``random_race.play_race_summaries``)."""
    table_races(game, params, seed, first, count, races, players, contracts, bets, field_count, False)
    return 0
