"""Lemming Mafia bots, jitted.

Every decision goes through one function with this signature (user bots too):

    decide(what, seat, kind, game, state, params, n_options) -> int

- ``what``: DECIDE_MOVE / DECIDE_FIELD / DECIDE_BET / DECIDE_DISCARD (layout.py);
- ``seat``: the deciding player; ``kind``: its bot id;
- ``game``: board and deck (read with ``rules.field_action``, ``field_section``,
  ``section_first``, ``card_entry``);
- ``state``: what this player can see: the public state at ``PUB_*``, its own
  hidden row (hand, stack, contracts, random stream: ``OWN_*`` below
  ``OWN_VIEW_LEN``) at ``S_VIEW + OWN_*``, the
  field occupants at ``S_OCCUPANT + field`` and the options at ``S_OPTIONS + i``
  for ``i < n_options``: candidate lemmings (MOVE) or free fields (FIELD). Other
  players' hidden rows are not in it. ``rules.bot_draw(state, n)`` and
  ``rules.bot_uniform(state)`` draw from the player's own random stream, never
  the dice's;
- ``params``: this bot's row only: its float64 parameters at ``[:N_PARAMS]``
  (``registry.py`` names them), then scratch space ``[N_PARAMS:]`` that persists
  between this player's decisions and that no other bot sees.

Answer: an index into the options for MOVE and FIELD; a colour in hand or -1 for
BET; a held contract slot (0-2) or -1 for DISCARD.

The heuristic bots share one model of the race. A lemming's *value* is its
progress in sections less ``block_weight`` per concrete block; the chance that it
wins is a softmax of ``sharpness`` times its value. A bot differs from another in
its *stakes*: how much it gains per unit of value each lemming gains. A move is
scored as the sum over lemmings of stake times value change, so the same code
pushes a favourite, buries a rival in concrete or steers a contract.

The bots play the rules of the run (``layout.py``'s ``G_*`` rule slots of
``game``): the block that eliminates, the getaway die, what a jackhammer takes
off, what each stack position pays, the contracts dealt and what an unfulfilled
one costs.
"""
import numpy as np

from analyzer.engine import rng
from analyzer.engine.floats import bits_of_float, exp, float_of_bits
from analyzer.engine.jit import ix, kernel
from analyzer.games.lemming_mafia.layout import (
    AT_LEAST_THREE_ELIMINATED, AT_MOST_ONE_ELIMINATED, BEFORE, BOOKMAKER, BOSS,
    CONCRETE, DECIDE_BET, DECIDE_DISCARD, DECIDE_FIELD, DECIDE_MOVE, DECK_C1, DECK_C2, DECK_KIND,
    DECK_POINTS, ELIMINATED, G_GETAWAY_DIE, G_JACKHAMMER_REMOVES, G_UNFULFILLED, GETAWAY, JACKHAMMER, N_LEMMINGS,
    OWN_CONTRACT, OWN_HAND, OWN_HELD, OWN_RNG, OWN_STACK, OWN_STACK_N, PUB_BLOCKS, PUB_MOVING,
    PUB_N_ELIM, PUB_N_FIELDS, PUB_N_SECTIONS, PUB_OUT, PUB_POS, PUB_TURN, S_OCCUPANT, S_OPTIONS,
    S_SCRATCH, S_VIEW, TOP3, WINNER_CLEAN,
)
from analyzer.games.lemming_mafia.layout import (  # noqa: F401  (re-exported)
    CONTRACTOR, FAVOURITE, LOOKAHEAD, P_BET_STAKE, P_BLOCK_WEIGHT, P_DISCARD_MARGIN, P_ELIM_COST,
    P_HARM, P_LATE_BETS, P_LOYALTY, P_PUSH, P_SHARPNESS, P_URGENCY, RANDOM, TIMER,
    N_PARAMS, PARAMS_WIDTH, SC_CONTRACT_STAKE, SC_EXPECTED, SC_FAV_SCORE, SC_FAVOURITE, SC_FIELD_VALUE,
    SC_GAIN, SC_MOVE_FIELD, SC_OPTION_COUNT, SC_OPTION_FIELD, SC_OPTION_VALUE, SC_RANK, SC_SIZED_TURN, SC_TOTAL,
    SC_VALUE, SC_WEIGHT, TABLE_SECTIONS, WEIGHT_TABLE, WEIGHT_TABLE_BLOCKS, WEIGHT_TABLE_PROGRESS,
)
from analyzer.games.lemming_mafia.lookahead import lookahead_decide
from analyzer.games.lemming_mafia.random_bot import decide_random
from analyzer.games.lemming_mafia.rules import (
    blocks_to_eliminate, card_entry, contracts_dealt, field_action, field_section, sections_passed, stack_points,
    target_fields,
)
from analyzer.games.lemming_mafia.rules import pick as pick_int

# the bot ids (RANDOM ... LOOKAHEAD), the parameter slots P_*, N_PARAMS,
# PARAMS_WIDTH and the scratch slots SC_* are in layout.py

_WIN = 1000.0  # value gained by a lemming that reaches the water
_ROUND_BONUS = 0.05  # what a round of bets or discards is worth to a planner
_OWN = S_VIEW  # the deciding player's own row in state


# ---------------------------------------------------------- the shared race model

@kernel(inline=True)
def pick(params, first, n, state):
    """``rng.pick_best`` of the values at ``params[first:first+n]``, drawing from
    the deciding player's own stream."""
    return rng.pick_best(params, first, n, state, _OWN + OWN_RNG)


@kernel(inline=True)
def progress_step(game, state, lemming):
    """``rules.sections_passed`` by the lemming."""
    return sections_passed(game, state[ix(PUB_POS + lemming)])


@kernel(inline=True)
def progress(game, state, lemming):
    return float(progress_step(game, state, lemming))


@kernel(inline=True)
def lemming_value(game, state, params, lemming):
    return value_at(params, progress_step(game, state, lemming), state[ix(PUB_BLOCKS + lemming)],
                    state[ix(PUB_OUT + lemming)])


@kernel(inline=True)
def value_at(params, step, blocks, out):
    """``lemming_value`` of a lemming ``step`` sections on (``progress_step``)
    carrying ``blocks`` blocks, ``out`` once eliminated: the race's slots, read
    by the caller (``table_race.keep_weight`` reads them once for every seat)."""
    value = float(step) - params[P_BLOCK_WEIGHT] * blocks
    return value if out == 0 else -params[P_ELIM_COST]


@kernel(inline=True)
def value_of(game, state, params, lemming, kept):
    """``lemming_value``; ``kept`` (a constant of the caller): read from
    ``params[SC_VALUE:]``, which the caller keeps current (``table_race``
    updates a lemming's after each of its moves, as its win weight)."""
    if kept:
        return params[ix(SC_VALUE + lemming)]
    return lemming_value(game, state, params, lemming)


@kernel(inline=True)
def weight_of(params, progress, blocks):
    return exp(params[P_SHARPNESS] * (progress - params[P_BLOCK_WEIGHT] * blocks))


@kernel
def build_weight_table(params, n_sections):
    """``weight_of`` every progress (0 .. sections + 1) and block count (0 ..
    ``WEIGHT_TABLE_BLOCKS`` - 1: what a lemming still racing may carry)."""
    for step in range(n_sections + 2):
        for blocks in range(WEIGHT_TABLE_BLOCKS):
            params[ix(WEIGHT_TABLE + WEIGHT_TABLE_BLOCKS * step + blocks)] = weight_of(params, float(step), blocks)
    params[TABLE_SECTIONS] = n_sections


@kernel(inline=True)
def win_weight(game, state, params, lemming):
    """Unnormalised chance that the lemming wins (0 once eliminated): the exp of
    ``sharpness`` times its value, from a table built once per board (an exp
    costs as much as a whole decision's arithmetic)."""
    n_sections = state[PUB_N_SECTIONS]
    if n_sections + 2 > WEIGHT_TABLE_PROGRESS:
        return weight_computed(game, state, params, lemming)
    if params[TABLE_SECTIONS] != n_sections:
        build_weight_table(params, n_sections)
    return weight_from_table(game, state, params, lemming)


@kernel(inline=True)
def kept_weight_and_value(state, params, step, blocks, out):
    """``win_weight`` and ``lemming_value`` from the race's slots (as
    ``value_at``), where the weight table is built for this board already
    (``win_weights`` builds it): for a caller that keeps both for every
    heuristic seat (``table_race.keep_weight``)."""
    if state[PUB_N_SECTIONS] + 2 > WEIGHT_TABLE_PROGRESS:
        weight = computed_weight(params, step, blocks, out)
    else:
        weight = table_weight(params, step, blocks, out)
    return weight, value_at(params, step, blocks, out)


@kernel(inline=True)
def weight_from_table(game, state, params, lemming):
    """``win_weight`` read from the table, which is built for this board."""
    return table_weight(params, progress_step(game, state, lemming), state[ix(PUB_BLOCKS + lemming)],
                        state[ix(PUB_OUT + lemming)])


@kernel(inline=True)
def table_weight(params, step, blocks, out):
    """``weight_from_table`` from the race's slots (as ``value_at``)."""
    # (an eliminated lemming may carry more blocks than the table covers: weight 0)
    weight = params[ix(WEIGHT_TABLE + WEIGHT_TABLE_BLOCKS * step + min(blocks, WEIGHT_TABLE_BLOCKS - 1))]
    return weight if out == 0 else 0.0


@kernel(inline=True)
def weight_computed(game, state, params, lemming):
    """``win_weight`` on a board too long for the table."""
    return computed_weight(params, progress_step(game, state, lemming), state[ix(PUB_BLOCKS + lemming)],
                           state[ix(PUB_OUT + lemming)])


@kernel(inline=True)
def computed_weight(params, step, blocks, out):
    """``weight_computed`` from the race's slots (as ``value_at``)."""
    weight = weight_of(params, float(step), min(blocks, WEIGHT_TABLE_BLOCKS - 1))
    return weight if out == 0 else 0.0


@kernel(inline=True)
def remaining_sections(game, state):
    """Sections the leading lemming still has to cross to reach the water."""
    best = 0.0
    for lem in range(N_LEMMINGS):  # an eliminated lemming's progress is 0
        best = max(best, progress(game, state, lem))
    return state[PUB_N_SECTIONS] + 1 - best


@kernel(inline=True)
def landing_gain(game, state, params, lemming, field):
    """Expected value change of the lemming if it lands on ``field`` (or the water
    when ``field`` is the field count), the field's action included."""
    if field >= state[PUB_N_FIELDS]:
        return _WIN
    return gain_from(game, state, params, lemming, field, lemming_value(game, state, params, lemming),
                     progress(game, state, lemming), state[ix(PUB_BLOCKS + lemming)])


@kernel(inline=True)
def gain_from(game, state, params, lemming, field, before, lemming_progress, blocks):
    """``landing_gain`` on a board field, from the lemming's value, progress and
    blocks read once for all the fields of an option."""
    n_fields = state[PUB_N_FIELDS]
    block = params[P_BLOCK_WEIGHT]
    elim = params[P_ELIM_COST]
    moved = float(field_section(game, field) + 1) - lemming_progress
    action = field_action(game, field)
    last = blocks_to_eliminate(game) - 1  # the blocks a lemming carries when one more eliminates it
    # selects, not branches: which field an option lands on is a coin flip to the
    # branch predictor
    if action == GETAWAY:
        # average over the rolls of the getaway car's die, one step deep
        die = game[G_GETAWAY_DIE]
        drilled = min(blocks, game[G_JACKHAMMER_REMOVES])
        crash = (-elim - before - moved) if blocks >= last else -block
        concrete = -block if blocks < last else -elim
        jackhammer = block * drilled if drilled > 0 else 0.0
        extra = 0.0
        for roll in range(1, die + 1):
            target = field + roll
            if target >= n_fields:
                extra += _WIN
                continue
            occupant = state[ix(S_OCCUPANT + target)]
            blocked = (occupant >= 0) & (occupant != lemming)
            then = field_action(game, target)
            step = float(field_section(game, target) - field_section(game, field))
            there = concrete if then == CONCRETE else (jackhammer if then == JACKHAMMER else 0.0)
            extra += crash if blocked else step
            extra += 0.0 if blocked else there
        return moved + extra / float(die)
    on_concrete, on_jackhammer = block_gains(game, params, moved, before, blocks)
    gain = on_concrete if action == CONCRETE else moved
    return on_jackhammer if action == JACKHAMMER else gain


@kernel(inline=True)
def block_gains(game, params, moved, before, blocks):
    """``gain_from`` on a concrete and on a jackhammer field ``moved`` sections
    on: a block more (the ``blocks_to_eliminate``-th eliminates), or the
    jackhammer's fewer."""
    block = params[P_BLOCK_WEIGHT]
    on_concrete = (-params[P_ELIM_COST] - before) if blocks >= blocks_to_eliminate(game) - 1 else moved - block
    drilled = min(blocks, game[G_JACKHAMMER_REMOVES])
    on_jackhammer = moved + block * drilled if drilled > 0 else moved
    return on_concrete, on_jackhammer


@kernel(inline=True)
def bet_gain(game, state, lemming):
    """Bet points this player scores if ``lemming`` wins, counting a card still in
    hand as if it were placed next (``rules.stack_points``)."""
    n = state[ix(_OWN + OWN_STACK_N)]
    for k in range(n):
        if state[ix(_OWN + OWN_STACK + k)] == lemming:
            return float(stack_points(game, k))
    if state[ix(_OWN + OWN_HAND + lemming)] == 1:
        return float(stack_points(game, n))
    return 0.0


@kernel(inline=True)
def bet_gains(game, state, params):
    """``bet_gain`` of every lemming at once, into ``params[SC_GAIN:]`` (and
    their stack positions into ``SC_RANK``)."""
    bet_gains_of(game, state, _OWN, params)


@kernel(inline=True)
def bet_gains_of(game, row, at, params):
    """``bet_gains`` of the player whose row is ``row[at:]`` (its view, or its
    hidden row itself: ``table_race`` keeps the gains as its bets change them):
    each colour's stack position (``SC_RANK``: placed, or next if in hand, 0
    neither) and what the winner's card pays there (``SC_GAIN``)."""
    n = row[ix(at + OWN_STACK_N)]
    next_points = float(stack_points(game, min(n, N_LEMMINGS - 1)))  # n is 6 only with no card in hand
    for lem in range(N_LEMMINGS):
        in_hand = row[ix(at + OWN_HAND + lem)]
        params[ix(SC_RANK + lem)] = (n + 1.0) * in_hand
        params[ix(SC_GAIN + lem)] = next_points * in_hand
    for k in range(n):
        color = row[ix(at + OWN_STACK + k)]
        params[ix(SC_RANK + color)] = k + 1.0
        params[ix(SC_GAIN + color)] = float(stack_points(game, k))


# how likely a lemming is to be eliminated, by the blocks it can still take
# before the one that eliminates it (0, 1, 2, ...; the box's lemming carrying 2,
# 1, 0 blocks), before the share of the race left (``_elim_chance``); read from
# a table, as a branch on the blocks of a lemming is mispredicted often
_ELIM_BY_BLOCKS_LEFT = np.array([0.5, 0.25, 0.1, 0.04, 0.016, 0.0064])


@kernel(inline=True)
def _elim_chance(game, state, lemming, left):
    spare = blocks_to_eliminate(game) - 1 - state[ix(PUB_BLOCKS + lemming)]
    return _ELIM_BY_BLOCKS_LEFT[ix(min(max(spare, 0), 5))] * (0.3 + left)


@kernel(inline=True)
def _sigmoid(x):
    return 1.0 / (1.0 + exp(-x))


@kernel(inline=True)
def contract_chance(game, state, params, card, left, kept):
    """Rough chance that a contract will be fulfilled, from the public race;
    ``left``: the share of the track the leader still has to cross (see
    ``choose_discard``)."""
    kind = card_entry(game, card, DECK_KIND)
    c1 = card_entry(game, card, DECK_C1)
    c2 = card_entry(game, card, DECK_C2)
    n_elim = state[PUB_N_ELIM]
    spread = 1.0 + 4.0 * left  # early in the race values say little
    if kind == ELIMINATED:
        if state[ix(PUB_OUT + c1)] > 0 or state[ix(PUB_OUT + c2)] > 0:
            return 1.0
        q1 = _elim_chance(game, state, c1, left)
        q2 = _elim_chance(game, state, c2, left)
        return 1.0 - (1.0 - q1) * (1.0 - q2)
    if kind == BEFORE:
        d = (value_of(game, state, params, c1, kept)
             - value_of(game, state, params, c2, kept))
        return _sigmoid(d / spread)
    if kind == TOP3:
        if state[ix(PUB_OUT + c1)] > 0:
            return 0.0
        mine = value_of(game, state, params, c1, kept)
        ahead = 0.0
        # values are few (sections less blocks): lemmings of one value share
        # their sigmoid, an exp each saved (the same term, so the same sum)
        last_x = 0.0
        last_term = 0.5  # _sigmoid(0.0), a lemming level with c1
        for lem in range(N_LEMMINGS):
            if lem != c1 and state[ix(PUB_OUT + lem)] == 0:
                x = (value_of(game, state, params, lem, kept) - mine) / spread
                if x != last_x:
                    last_x = x
                    last_term = _sigmoid(x)
                ahead += last_term
        return _sigmoid(2.0 * (2.5 - ahead))
    expected_more = 0.0
    for lem in range(N_LEMMINGS):
        if state[ix(PUB_OUT + lem)] == 0:
            expected_more += _elim_chance(game, state, lem, left)
    if kind == AT_MOST_ONE_ELIMINATED:
        if n_elim >= 2:
            return 0.0
        return exp(-expected_more) * (1.0 + expected_more * (1 - n_elim))
    if kind == AT_LEAST_THREE_ELIMINATED:
        if n_elim >= 3:
            return 1.0
        return _sigmoid(2.0 * (expected_more - (3 - n_elim)))
    if kind == WINNER_CLEAN:
        total = 0.0
        clean = 0.0
        for lem in range(N_LEMMINGS):
            w = win_weight(game, state, params, lem)
            total += w
            if state[ix(PUB_BLOCKS + lem)] == 0:
                clean += w
        return (clean / total) * (1.0 - 0.5 * left) + 0.3 * left
    return 0.5


@kernel(inline=True)
def held_contract(game, state, slot):
    """This player's contract in ``slot``: its kind, its swing (printed points
    less what an unfulfilled one scores) and its colours; kind -1 once discarded."""
    if state[ix(_OWN + OWN_HELD + slot)] == 0:
        return -1, 0, 0, 0
    card = state[ix(_OWN + OWN_CONTRACT + slot)]
    return (card_entry(game, card, DECK_KIND),
            card_entry(game, card, DECK_POINTS) - game[G_UNFULFILLED],
            card_entry(game, card, DECK_C1), card_entry(game, card, DECK_C2))


@kernel(inline=True)
def contract_stake(game, state, lemming):
    """How much this player's held contracts gain per unit of value of a lemming."""
    stake = 0.0
    for slot in range(contracts_dealt(game)):
        kind, swing, c1, c2 = held_contract(game, state, slot)
        if kind < 0:
            continue
        if kind == ELIMINATED and (lemming == c1 or lemming == c2):
            stake -= 0.3 * swing
        elif kind == BEFORE:
            if lemming == c1:
                stake += 0.3 * swing
            elif lemming == c2:
                stake -= 0.3 * swing
        elif kind == TOP3 and lemming == c1:
            stake += 0.3 * swing
        elif kind == AT_MOST_ONE_ELIMINATED and state[ix(PUB_BLOCKS + lemming)] >= 1:
            stake += 0.15 * swing
        elif kind == AT_LEAST_THREE_ELIMINATED:
            stake -= 0.15 * swing
        elif kind == WINNER_CLEAN and state[ix(PUB_BLOCKS + lemming)] == 0:
            stake += 0.1 * swing
    return stake


@kernel(inline=True)
def contract_stakes(game, state, params):
    """``contract_stake`` of every lemming at once, into
    ``params[SC_CONTRACT_STAKE:]``:
    one pass over the held contracts instead of one per lemming (the same sums,
    added in the same order)."""
    for lem in range(N_LEMMINGS):
        params[ix(SC_CONTRACT_STAKE + lem)] = 0.0
    for slot in range(contracts_dealt(game)):
        kind, swing, c1, c2 = held_contract(game, state, slot)
        if kind < 0:
            continue
        if kind == ELIMINATED:
            params[ix(SC_CONTRACT_STAKE + c1)] -= 0.3 * swing
            params[ix(SC_CONTRACT_STAKE + c2)] -= 0.3 * swing
        elif kind == BEFORE:
            params[ix(SC_CONTRACT_STAKE + c1)] += 0.3 * swing
            params[ix(SC_CONTRACT_STAKE + c2)] -= 0.3 * swing
        elif kind == TOP3:
            params[ix(SC_CONTRACT_STAKE + c1)] += 0.3 * swing
        else:
            for lem in range(N_LEMMINGS):
                blocks = state[ix(PUB_BLOCKS + lem)]
                add = 0.0
                add = 0.15 * swing if (kind == AT_MOST_ONE_ELIMINATED) & (blocks >= 1) else add
                add = -(0.15 * swing) if kind == AT_LEAST_THREE_ELIMINATED else add
                add = 0.1 * swing if (kind == WINNER_CLEAN) & (blocks == 0) else add
                params[ix(SC_CONTRACT_STAKE + lem)] += add


@kernel(inline=True)
def favourite(game, state, params, kept):
    """The lemming the favourite bot backs: the most promising one whose card it
    has not thrown away early. ``kept`` (a constant of the caller): its scores
    at ``params[SC_FAV_SCORE:]`` are current (``favourite_scores``; the caller
    keeps them as the values), so only picked from."""
    if kept:
        best, _ = pick(params, SC_FAV_SCORE, N_LEMMINGS, state)
        return best
    favourite_scores(game, state, params, SC_OPTION_VALUE, state[ix(_OWN + OWN_STACK_N)], kept)
    best, _ = pick(params, SC_OPTION_VALUE, N_LEMMINGS, state)
    return best


@kernel(inline=True)
def favourite_scores(game, state, params, at, stack_n, kept):
    """The favourite bot's score of every lemming into ``params[at:]`` (its
    value and a bonus while its card is still to bet; out of the running once
    eliminated), for a player whose stack holds ``stack_n`` cards; ``kept``:
    as ``value_of``'s."""
    for lem in range(N_LEMMINGS):
        params[ix(at + lem)] = favourite_score(state, params, lem, value_of(game, state, params, lem, kept),
                                               stack_n)


@kernel(inline=True)
def favourite_score(state, params, lemming, value, stack_n):
    """``favourite_scores``' score of one lemming worth ``value``."""
    # the bonus selected as bit patterns (``rules.pick``; +0.0 without it):
    # LLVM turns the float select into a branch, and whether a colour's card is
    # still to bet is a coin flip to the branch predictor
    loyal = params[ix(SC_RANK + lemming)] >= stack_n
    score = value + float_of_bits(pick_int(loyal, bits_of_float(params[P_LOYALTY]), 0))
    return score if state[ix(PUB_OUT + lemming)] == 0 else -1e300


@kernel(inline=True)
def win_weights(game, state, params):
    """``win_weight`` of every lemming into ``params[SC_WEIGHT:]``; returns their
    sum. The table is checked once for all six (``win_weight`` checks it per
    lemming), the same weights."""
    n_sections = state[PUB_N_SECTIONS]
    total = 0.0
    if n_sections + 2 > WEIGHT_TABLE_PROGRESS:
        for lem in range(N_LEMMINGS):
            w = weight_computed(game, state, params, lem)
            params[ix(SC_WEIGHT + lem)] = w
            total += w
        return total
    if params[TABLE_SECTIONS] != n_sections:
        build_weight_table(params, n_sections)
    for lem in range(N_LEMMINGS):
        w = weight_from_table(game, state, params, lem)
        params[ix(SC_WEIGHT + lem)] = w
        total += w
    return total


@kernel(inline=True)
def kept_weights(params):
    """The sum of the win weights a caller keeps current at ``params[SC_WEIGHT:]``
    (``win_weights``' sum: added in the same order)."""
    total = 0.0
    for lem in range(N_LEMMINGS):
        total += params[ix(SC_WEIGHT + lem)]
    return total


@kernel(inline=True)
def weights_total(game, state, params, kept):
    """The win weights at ``params[SC_WEIGHT:]`` and their sum; ``kept`` (a
    constant of the caller): they are current already (``table_race`` updates a
    lemming's after each of its moves), so only summed."""
    if kept:
        return kept_weights(params)
    return win_weights(game, state, params)


@kernel(inline=True)
def size_up(kind, game, state, params, kept):
    """Derive once per move what every option is judged by (see ``stake``): each
    lemming's win weight and their sum, this player's bet gains and what it
    expects from them, its favourite or its contracts' stakes. ``kept`` (a
    constant of the caller): the weights at ``params[SC_WEIGHT:]``, the values
    at ``SC_VALUE`` and the bet gains at ``SC_GAIN`` are current already
    (``table_race`` updates a lemming's weight and value after each of its
    moves, the gains after each of this player's bets)."""
    total = weights_total(game, state, params, kept)
    params[SC_TOTAL] = total
    if not kept:
        bet_gains(game, state, params)
    if kind == FAVOURITE:
        params[SC_FAVOURITE] = favourite(game, state, params, kept)
        return
    expected = 0.0
    for lem in range(N_LEMMINGS):
        chance = params[ix(SC_WEIGHT + lem)] / total
        expected += chance * params[ix(SC_GAIN + lem)]
    params[SC_EXPECTED] = expected
    if kind == CONTRACTOR:
        contract_stakes(game, state, params)


@kernel(inline=True)
def stake(kind, params, lemming):
    """What this player gains per unit of value the (living) lemming gains, from
    what ``size_up`` derived; only the options' lemmings are ever asked for."""
    if kind == FAVOURITE:
        chance = params[ix(SC_WEIGHT + lemming)] / params[SC_TOTAL]
        harm = -params[P_HARM] * chance * N_LEMMINGS / 2.0
        return params[P_PUSH] if lemming == params[SC_FAVOURITE] else harm
    # bets: what the lemming's win is worth against the expected bet points
    bets = (params[ix(SC_GAIN + lemming)] - params[SC_EXPECTED]) * params[P_BET_STAKE]
    return bets + (params[ix(SC_CONTRACT_STAKE + lemming)] if kind == CONTRACTOR else 0.0)


@kernel(inline=True)
def move_utility(game, state, params, lemming, field, lemming_stake, kept):
    """What moving the lemming (this player's ``stake`` in it given) to ``field``
    is worth to this player."""
    return utility_of(game, state, params, lemming, field,
                      landing_gain(game, state, params, lemming, field), lemming_stake, kept)


@kernel(inline=True)
def utility_of(game, state, params, lemming, field, gain, lemming_stake, kept):
    """``move_utility`` from the landing's ``gain``."""
    if gain >= _WIN:
        return win_utility(game, state, params, lemming, kept)
    u = lemming_stake * gain
    action = field_action(game, field)
    return u + _ROUND_BONUS if (action == BOOKMAKER) | (action == BOSS) else u


@kernel(inline=True)
def win_utility(game, state, params, lemming, kept):
    """A win ends the race: it is worth what it pays this player. ``kept``: the
    bet gains are kept current (``size_up``)."""
    gain = params[ix(SC_GAIN + lemming)] if kept else bet_gain(game, state, lemming)
    return _WIN * (gain + contract_stake(game, state, lemming))


@kernel(inline=True)
def best_field(kind, game, state, params, lemming, options_at, n_options, kept):
    """Utility and index of the best of the fields at ``state[options_at:]``."""
    lemming_stake = stake(kind, params, lemming)
    # what every field's landing starts from, read once (the same values
    # ``landing_gain`` reads per field)
    before = value_of(game, state, params, lemming, kept)
    lemming_progress = progress(game, state, lemming)
    blocks = state[ix(PUB_BLOCKS + lemming)]
    # the options are the free fields of one section (``target_fields``): the
    # lemming moves as far to each, so a field's gain depends on its action
    # alone, but for a getaway (the fields after it). The utility of each other
    # kind of field is taken once for the option (``gain_from``'s gains and
    # ``utility_of``'s utilities, from their own helpers) and each field selects
    # its own: no branch a field on its action or the lemming's blocks, which
    # are as good as random to the branch predictor.
    moved = float(field_section(game, state[ix(options_at)]) + 1) - lemming_progress
    on_concrete, on_jackhammer = block_gains(game, params, moved, before, blocks)
    u_plain = lemming_stake * moved
    u_round = u_plain + _ROUND_BONUS
    u_concrete = lemming_stake * on_concrete
    u_jackhammer = lemming_stake * on_jackhammer
    if (moved >= _WIN) | (on_concrete >= _WIN) | (on_jackhammer >= _WIN):
        # a win ends the race: scored by what it pays (``utility_of``); only
        # with extreme parameters
        won = win_utility(game, state, params, lemming, kept)
        u_plain = won if moved >= _WIN else u_plain
        u_round = won if moved >= _WIN else u_round
        u_concrete = won if on_concrete >= _WIN else u_concrete
        u_jackhammer = won if on_jackhammer >= _WIN else u_jackhammer
    plain_bits = bits_of_float(u_plain)
    round_bits = bits_of_float(u_round)
    concrete_bits = bits_of_float(u_concrete)
    jackhammer_bits = bits_of_float(u_jackhammer)
    for i in range(n_options):
        field = state[ix(options_at + i)]
        action = field_action(game, field)
        if action == GETAWAY:
            gain = gain_from(game, state, params, lemming, field, before, lemming_progress, blocks)
            u = utility_of(game, state, params, lemming, field, gain, lemming_stake, kept)
        else:
            # selected as bit patterns with ``rules.pick``: LLVM turns float
            # selects on the action back into a chain of branches
            u_bits = pick_int(action == CONCRETE, concrete_bits, plain_bits)
            u_bits = pick_int(action == JACKHAMMER, jackhammer_bits, u_bits)
            u = float_of_bits(pick_int(action >= BOOKMAKER, round_bits, u_bits))
        params[ix(SC_FIELD_VALUE + i)] = u
    i, best = pick(params, SC_FIELD_VALUE, n_options, state)
    return best, i


@kernel(inline=True)
def choose_move(kind, game, state, params, n_options, kept):
    for i in range(n_options):
        lemming = state[ix(S_OPTIONS + i)]
        n = target_fields(game, state, lemming, S_SCRATCH)
        field = -1
        if n == 0:
            u = move_utility(game, state, params, lemming, state[PUB_N_FIELDS], 0.0, kept)
        else:
            u, j = best_field(kind, game, state, params, lemming, S_SCRATCH, n, kept)
            field = state[ix(S_SCRATCH + j)]
        params[ix(SC_OPTION_VALUE + i)] = u
        params[ix(SC_OPTION_FIELD + i)] = field
        params[ix(SC_OPTION_COUNT + i)] = n  # the race reads it for the chosen one
    best_i, _ = pick(params, SC_OPTION_VALUE, n_options, state)
    # the field decision of this move, if it comes, takes this field
    params[SC_MOVE_FIELD] = params[ix(SC_OPTION_FIELD + best_i)]
    return best_i


@kernel(inline=True)
def bet_timing(game, state, params):
    """Whether to bet now (see ``choose_bet``): 0 pass (no card, or only the
    cards held back while the leader is far), 1 throw away, 2 urgent. Inlined in
    ``decide_builtin``: a pass, a good share of the bet decisions, then costs no
    call."""
    n_hand = 0
    for color in range(N_LEMMINGS):
        n_hand += state[ix(_OWN + OWN_HAND + color)]
    if n_hand == 0:
        return 0
    return timing_of(n_hand, remaining_sections(game, state), params)


@kernel(inline=True)
def timing_of(n_hand, remaining, params):
    """``bet_timing`` of a player holding ``n_hand`` cards (not none) while the
    leader has ``remaining`` sections to go (``remaining_sections``)."""
    urgent = remaining <= params[P_URGENCY]
    if not urgent and n_hand <= params[P_LATE_BETS]:
        return 0
    return 2 if urgent else 1


@kernel(inline=True)
def in_hand(state, params, color, kept):
    """Whether this player holds the bet card of ``color``; ``kept``: read from
    its kept stack positions (``bet_gains_of``), which are the stack's count + 1
    for a card in hand and at most that count otherwise, not from its row."""
    if kept:
        return params[ix(SC_RANK + color)] > state[ix(_OWN + OWN_STACK_N)]
    return state[ix(_OWN + OWN_HAND + color)] == 1


@kernel
def choose_bet(kind, game, state, params, urgent, kept):
    """Throw away unlikely colours first; place the likely winner late.

    ``late_bets`` cards are held back for the end; they go down, likeliest first,
    once the leader is within ``urgency`` sections of the water (``urgent``, when
    ``bet_timing`` says to bet). The favourite bot counts its favourite as the
    likeliest whatever the race says. ``kept``: as ``size_up``'s."""
    fav = -1
    total = 0.0
    if kind == FAVOURITE:
        # each weight once, into SC_WEIGHT, and their sum
        all_weights = weights_total(game, state, params, kept)
        if not kept:
            bet_gains(game, state, params)
        fav = favourite(game, state, params, kept)
        if fav >= 0 and in_hand(state, params, fav, kept):
            total = all_weights
    elif not kept:
        win_weights(game, state, params)  # each weight once, into SC_WEIGHT
    for color in range(N_LEMMINGS):
        # a lemming's chance to win is its weight over the sum of all weights, so
        # weights rank colours as chances do; the favourite counts as chance + 1
        likely = params[ix(SC_WEIGHT + color)]
        likely += total if color == fav else 0.0
        # urgent: the likeliest winner; otherwise throw away the least likely
        value = likely if urgent else -likely
        holds = in_hand(state, params, color, kept)
        # a held card's value stays above the "not in hand" mark even when the
        # win weights overflow (exp of a large sharpness on a long board gives
        # inf, and -inf or nan would rank a card it does not hold first)
        value = value if value > -1e299 else -1e299
        params[ix(SC_OPTION_VALUE + color)] = value if holds else -1e300
    color, _ = pick(params, SC_OPTION_VALUE, N_LEMMINGS, state)
    return color


@kernel
def choose_discard(game, state, own, at, params, margin, left, kept):
    """Discard the held contract with the worst expected payoff if it is below
    ``-margin`` points; ``left``: the share of the track the leader still has
    to cross (``track_left``); ``kept``: as ``value_of``'s. The player's row is
    ``own[at:]``: its view (``state``, ``S_VIEW``), or its hidden row itself
    (``table_race``: the row is not copied for a decision that reads no more
    of it than its contracts)."""
    worst = -1
    worst_value = -margin
    unfulfilled = game[G_UNFULFILLED]
    for slot in range(contracts_dealt(game)):
        if own[ix(at + OWN_HELD + slot)] == 0:
            continue
        card = own[ix(at + OWN_CONTRACT + slot)]
        p = contract_chance(game, state, params, card, left, kept)
        value = p * card_entry(game, card, DECK_POINTS) + (1.0 - p) * unfulfilled
        if value < worst_value:
            worst_value = value
            worst = slot
    return worst


@kernel(inline=True)
def track_left(game, state):
    """The share of the track the leading lemming still has to cross (what the
    contract chances of ``choose_discard`` read): the same for every player."""
    return remaining_sections(game, state) / (state[PUB_N_SECTIONS] + 1.0)


@kernel
def decide_move(kind, game, state, params, n_options, kept):
    size_up(kind, game, state, params, kept)
    # the field decision of this move sees the same race: it reuses the scratch
    params[SC_SIZED_TURN] = state[PUB_TURN]
    return choose_move(kind, game, state, params, n_options, kept)


@kernel(inline=True)
def planned_field(state, params, n_options):
    """The option index of the field this heuristic bot's move decision of this
    turn chose (``choose_move``), or -1: no move decision this turn (one
    candidate: a forced move). It reads neither the bot's view nor its stream,
    so the kernel asks it before copying the view (``kernel.ask``)."""
    if params[SC_SIZED_TURN] == state[PUB_TURN]:
        for i in range(n_options):
            if state[ix(S_OPTIONS + i)] == params[SC_MOVE_FIELD]:
                return i
    return -1


@kernel
def decide_field(kind, game, state, params, n_options, kept):
    planned = planned_field(state, params, n_options)
    if planned >= 0:
        return planned
    size_up(kind, game, state, params, kept)
    _, i = best_field(kind, game, state, params, state[PUB_MOVING], S_OPTIONS, n_options, kept)
    return i


@kernel(inline=True)
def decide_builtin(what, seat, kind, game, state, params, n_options):
    if kind == RANDOM:  # the kernel answers for it; kept for direct callers
        return decide_random(what, state, _OWN, state, n_options)
    if kind == LOOKAHEAD:
        return lookahead_decide(what, seat, game, state, params, n_options)
    if what == DECIDE_DISCARD:
        return choose_discard(game, state, state, _OWN, params, params[P_DISCARD_MARGIN],
                              track_left(game, state), False)
    # each decision is one compiled call (``decide_*``, ``choose_*``) with its
    # helpers inlined: a call passes each array as seven words and saves and
    # restores registers, which cost as much as a small helper's work
    if what == DECIDE_MOVE:
        return decide_move(kind, game, state, params, n_options, False)
    if what == DECIDE_FIELD:
        return decide_field(kind, game, state, params, n_options, False)
    timing = bet_timing(game, state, params)
    if timing == 0:
        return -1
    return choose_bet(kind, game, state, params, timing == 2, False)
