"""The Lemming Mafia rules that need no decision, jitted: dice, moves, blocks,
the deal and the scores, as ``shared/rules/lemming-mafia.md`` states them.

All functions work on the flat ``game`` / ``state`` / ``hidden`` arrays of
``layout.py``; the small accessors below keep the offsets in one place.
"""
import numpy as np

from analyzer.engine.flow import flow_counters, note_leader, sole_leader
from analyzer.engine.jit import ix, kernel
from analyzer.engine.rng import below, index_key, lane_key, seed_keyed, seed_stream, uniform
from analyzer.games.lemming_mafia.layout import (
    AT_LEAST_THREE_ELIMINATED, AT_MOST_ONE_ELIMINATED, BEFORE, BET_COLOR, BET_PAID,
    BET_PLACE, BET_TURN, BOOKMAKER, BOSS, CONCRETE, CT_CARD, CT_DISCARD_TURN,
    CT_DISCARDED, CT_FULFILLED, CT_PAYOFF, DECK_C1, DECK_C2, DECK_KIND, DECK_LEN,
    DECK_POINTS, ELIMINATED, ELIMINATED_POS, FIELD_LANDINGS, FIELD_LEN, FIELD_TRIGGERS,
    FINISH_LAST_STANDING, FINISH_WATER, G_ACTION_AT, G_BET_POINTS, G_BLOCKS_OUT, G_CONTRACTS_DEALT, G_DECK_AT,
    G_GETAWAY_DIE, G_H_ANSWERS_AT, G_JACKHAMMER_REMOVES, G_UNFULFILLED,
    G_FIELD_BIT_AT, G_H_COUNT_AT, G_H_DISCARD_AT, G_H_ORDER_AT, G_KINDS, G_N_CARDS, G_N_FIELDS,
    G_N_PLAYERS, G_N_SECTIONS, G_PROGRESS_AT, G_S_SECTIONS_AT, G_SECTION_AT, G_SECTION_FULL_AT,
    G_S_FLOW_AT, G_START_AT, GETAWAY, JACKHAMMER, MAX_SECTION_FIELDS,
    MAX_CONTRACTS_EACH, N_LEMMINGS, OWN_CONTRACT, OWN_DECISIONS, OWN_HAND, OWN_HELD, OWN_LEN, OWN_RNG,
    OWN_STACK, OWN_STACK_N, OWN_STACK_PLACE, OWN_STACK_TURN, PL_BET_POINTS,
    PL_BETS_PLACED, PL_CONTRACT_POINTS, PL_DECISIONS, PL_DISCARDED, PL_SCORE, PL_WON, PUB_BLOCKS,
    PUB_HAND_COUNT, PUB_HELD_COUNT, PUB_MOVING, PUB_N_ELIM, PUB_N_FIELDS,
    PUB_N_PLAYERS, PUB_N_SECTIONS, PUB_OUT, PUB_POS, PUB_RNG, PUB_STACK_COUNT, PUB_TURN,
    PUB_WATER_FROM, RACE_BLOCKS, RACE_COMEBACK, RACE_DECIDED_AFTER, RACE_LEAD_CHANGES, RACE_N_ELIM, RACE_N_WINNERS, RACE_PLACE, RACE_TIEBREAK,
    RACE_FINISH, RACE_TURNS, RACE_WINNER, RACE_WINNER_BLOCKS, RACE_WINNER_FIELD, S_OCCUPANT, S_VIEW,
    START, TOP3, WINNER_CLEAN,
)

NO_WINNER = -1
NEEDS_BETS = -3  # the landing asks for a bookmaker round (the caller holds it)
NEEDS_DISCARDS = -4  # the landing asks for a boss round
# resolve_landing computes these from the action code (no branch): keep them in step
if (NEEDS_BETS, NEEDS_DISCARDS, BOSS) != (NO_WINNER - 2, NO_WINNER - 3, BOOKMAKER + 1) or BOOKMAKER <= max(
        CONCRETE, JACKHAMMER, GETAWAY):
    raise ImportError("rules.py: resolve_landing's arithmetic on action codes no longer matches the codes")
# track_place and random_race.candidate_masks tell the running lemmings by position alone
if not ELIMINATED_POS < START < 0:
    raise ImportError("rules.py: an eliminated lemming's position must lie behind the start area")


# A flag as a mask (0 or all ones) read from memory, for ``pick``: LLVM compiles
# a select whose condition comes late (a draw, a chain of loads) and whose
# values are ready early to a branch, which on a coin flip is mispredicted half
# the time; an and with a mask it reads from memory stays arithmetic.
ALL_OR_NONE = np.array([0, -1], np.int64)


@kernel(inline=True)
def pick(flag, if_true, if_false):
    """``if_true if flag else if_false`` without a branch (``ALL_OR_NONE``)."""
    return if_false ^ ((if_false ^ if_true) & ALL_OR_NONE[ix(flag)])


# ----------------------------------------------------------------- accessors

@kernel(inline=True)
def field_action(game, field):
    return game[ix(game[G_ACTION_AT] + field)]


@kernel(inline=True)
def field_section(game, field):
    return game[ix(game[G_SECTION_AT] + field)]


@kernel(inline=True)
def sections_passed(game, pos):
    """Sections behind a lemming at position ``pos``: 0 in the start area (and
    once eliminated), the section count + 1 in the water (a table: no branch on
    where it stands)."""
    return game[ix(game[G_PROGRESS_AT] + 2 + pos)]


@kernel(inline=True)
def section_first(game, section):
    """First field of a section; ``section_first(game, s + 1)`` ends it."""
    return game[ix(game[G_START_AT] + section)]


@kernel(inline=True)
def card_entry(game, card, column):
    return game[ix(game[G_DECK_AT] + card * DECK_LEN + column)]


@kernel(inline=True)
def contracts_dealt(game):
    """Contract cards each player was dealt (the rule ``contracts_dealt``)."""
    return game[G_CONTRACTS_DEALT]


@kernel(inline=True)
def blocks_to_eliminate(game):
    """The concrete block that eliminates a lemming (the rule ``blocks_to_eliminate``)."""
    return game[G_BLOCKS_OUT]


@kernel(inline=True)
def bot_kind(game, seat):
    return game[G_KINDS + seat]


@kernel(inline=True)
def own_at(game, seat):
    """Offset of a player's own row in ``hidden``."""
    return seat * OWN_LEN


@kernel(inline=True)
def occupant(state, field):
    return state[ix(S_OCCUPANT + field)]


@kernel(inline=True)
def draw(state, n):
    """Uniform integer in [0, n) from the race's stream (dice, deal, getaway)."""
    return below(state, PUB_RNG, n)


@kernel(inline=True)
def bot_draw(state, n):
    """For bots: uniform integer in [0, n) from the deciding player's own stream
    (in its view of its own row), never the dice's."""
    return below(state, S_VIEW + OWN_RNG, n)


@kernel(inline=True)
def bot_uniform(state):
    """For bots: uniform float in [0, 1) from the deciding player's own stream."""
    return uniform(state, S_VIEW + OWN_RNG)


# ------------------------------------------------------------------- the race

@kernel(inline=True)
def track_place(state, lemming):
    """Place the lemming holds now (competition ranking; eliminated by order out)."""
    out = state[ix(PUB_OUT + lemming)]
    pos = state[ix(PUB_POS + lemming)]
    ahead = 0
    for other in range(N_LEMMINGS):
        # the running lemmings ahead: an eliminated one stands at ELIMINATED_POS,
        # behind every running one (START and up), so no check of PUB_OUT
        ahead += state[ix(PUB_POS + other)] > pos
    # both computed: whether a bet's colour is out is as good as random
    return pick(out > 0, N_LEMMINGS + 1 - out, ahead + 1)


@kernel(inline=True)
def roll_faces(state):
    """Roll both lemming dice: the colours their faces show."""
    # one draw for the pair: 36 equally likely faces, one random number fewer a move
    pair = draw(state, N_LEMMINGS * N_LEMMINGS)
    first = pair // N_LEMMINGS
    return first, pair - first * N_LEMMINGS


@kernel(inline=True)
def roll_candidates(state, options_at):
    """Roll both lemming dice; write the distinct lemmings they stand for at
    ``state[options_at:]``; return how many."""
    first, second = roll_faces(state)
    return dice_candidates(state, first, second, options_at)


@kernel(inline=True)
def dice_candidates(state, first, second, options_at):
    """The distinct lemmings two dice faces stand for, written at
    ``state[options_at:]``; returns how many. A face of an eliminated colour
    stands for the last-placed lemming, each of them if several tie."""
    if state[ix(PUB_OUT + first)] + state[ix(PUB_OUT + second)] == 0:
        # both colours still run (every move until the first elimination): no
        # branch on whether the faces match
        state[ix(options_at)] = first
        state[ix(options_at + 1)] = second
        return 1 + (first != second)
    n = 0
    for face in (first, second):
        if state[ix(PUB_OUT + face)] == 0:
            n = _add_candidate(state, options_at, n, face)
            continue
        last = 1 << 30
        for lem in range(N_LEMMINGS):
            if state[ix(PUB_OUT + lem)] == 0 and state[ix(PUB_POS + lem)] < last:
                last = state[ix(PUB_POS + lem)]
        for lem in range(N_LEMMINGS):
            if state[ix(PUB_OUT + lem)] == 0 and state[ix(PUB_POS + lem)] == last:
                n = _add_candidate(state, options_at, n, lem)
    return n


@kernel(inline=True)
def _add_candidate(state, options_at, n, lemming):
    for i in range(n):
        if state[ix(options_at + i)] == lemming:
            return n
    state[ix(options_at + n)] = lemming
    return n + 1


@kernel(inline=True)
def section_mask_at(game, pos):
    """Where in ``state`` the occupancy mask of the section holding ``pos`` is
    (a never-read slot for the start area and once eliminated)."""
    return game[G_S_SECTIONS_AT] + sections_passed(game, pos)


@kernel(inline=True)
def field_bit(game, pos):
    """The bit of position ``pos`` in its section's mask (0 off the board)."""
    return game[ix(game[G_FIELD_BIT_AT] + 2 + pos)]


@kernel(inline=True)
def free_fields(game, state, section):
    """The free fields of ``section`` as a mask (bit i: its i-th field); 0 for
    ``section`` = the section count (the water)."""
    return game[ix(game[G_SECTION_FULL_AT] + section)] & ~state[ix(game[G_S_SECTIONS_AT] + 1 + section)]


# Section masks (layout.py, after S_OCCUPANT): POPCOUNT[m] is how many fields a
# mask holds, SELECT[m * 8 + k] which of them is the k-th (from 0, in field order)
POPCOUNT = np.array([bin(m).count("1") for m in range(1 << MAX_SECTION_FIELDS)], np.int64)
SELECT = np.zeros((1 << MAX_SECTION_FIELDS) * MAX_SECTION_FIELDS, np.int64)
for _mask in range(1 << MAX_SECTION_FIELDS):
    for _k, _bit in enumerate(b for b in range(MAX_SECTION_FIELDS) if _mask >> b & 1):
        SELECT[_mask * MAX_SECTION_FIELDS + _k] = _bit


@kernel(inline=True)
def next_free_section(game, state, lemming):
    """The section the lemming moves to, the next with a free field, and its
    free fields as a mask; (the section count, 0) if every section ahead is full."""
    section = sections_passed(game, state[ix(PUB_POS + lemming)])
    free = free_fields(game, state, section)
    n_sections = game[G_N_SECTIONS]
    # one step without a branch (whether the section ahead is full is as good
    # as random); the loop is left for two full sections in a row
    after = min(section + 1, n_sections)
    full = free == 0
    section = pick(full, after, section)
    free = pick(full, free_fields(game, state, after), free)
    while free == 0 and section < n_sections:
        section += 1
        free = free_fields(game, state, section)
    return section, free


@kernel(inline=True)
def target_fields(game, state, lemming, options_at):
    """The free fields the lemming moves to choose from, written at
    ``state[options_at:]``: those of the next section with a free field. Returns
    their count, or 0 if every section ahead is full (the lemming reaches the
    water). Always writes ``MAX_SECTION_FIELDS`` slots (those past the count
    are meaningless): a loop over the free fields only would end at a count
    that is noise to a branch predictor."""
    section, free = next_free_section(game, state, lemming)
    first = section_first(game, section)
    select = free * MAX_SECTION_FIELDS
    for k in range(MAX_SECTION_FIELDS):
        state[ix(options_at + k)] = first + SELECT[ix(select + k)]
    return POPCOUNT[ix(free)]


@kernel(inline=True)
def leave_field(game, state, lemming):
    """The lemming's field is free again (in the start area: nothing)."""
    pos = state[ix(PUB_POS + lemming)]
    if pos >= 0:
        state[ix(S_OCCUPANT + pos)] = -1
    state[ix(section_mask_at(game, pos))] &= ~field_bit(game, pos)


@kernel(inline=True)
def land(game, state, hidden, lemming, field, count):
    # everything read from ``game`` before the first store: for all the compiler
    # knows the arrays may overlap, so a read after a store is made again
    pos = state[ix(PUB_POS + lemming)]
    from_mask = section_mask_at(game, pos)
    from_bit = field_bit(game, pos)
    to_mask = section_mask_at(game, field)
    to_bit = field_bit(game, field)
    landings = game[G_H_COUNT_AT] + field * FIELD_LEN + FIELD_LANDINGS
    # leave_field without its branch on the start area (a lemming's first move,
    # as good as random to a branch predictor): from there the slot freed is the
    # field landed on, which is written just after
    state[ix(S_OCCUPANT + (pos if pos >= 0 else field))] = -1
    state[ix(from_mask)] &= ~from_bit
    state[ix(S_OCCUPANT + field)] = lemming
    state[ix(to_mask)] |= to_bit
    state[ix(PUB_POS + lemming)] = field
    if count:  # a constant of the caller: whether the field counters are kept
        hidden[ix(landings)] += 1


@kernel(inline=True)
def give_block(game, state, lemming):
    """One concrete block; the ``blocks_to_eliminate``-th (the box: the third)
    eliminates. Returns the last lemming standing, if this elimination leaves
    only one, else NO_WINNER."""
    blocks = state[ix(PUB_BLOCKS + lemming)] + 1
    state[ix(PUB_BLOCKS + lemming)] = blocks
    if blocks < blocks_to_eliminate(game):
        return NO_WINNER
    return eliminate(game, state, lemming)


@kernel(inline=True)
def eliminate(game, state, lemming):
    """Take the lemming off the board: its last block. Returns the last lemming
    standing, if this elimination (the fifth) leaves only one, else NO_WINNER."""
    leave_field(game, state, lemming)
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
def reach_water(game, state, lemming):
    leave_field(game, state, lemming)
    state[PUB_WATER_FROM] = state[ix(PUB_POS + lemming)]
    state[ix(PUB_POS + lemming)] = state[PUB_N_FIELDS]
    return lemming * 2 + FINISH_WATER


@kernel(inline=True)
def resolve_landing(game, state, hidden, lemming, field, count):
    """Put the lemming on ``field`` and resolve the field's action, getaway chains
    included. Returns ``winner * 2 + finish`` if the race ends, NEEDS_BETS or
    NEEDS_DISCARDS when a round of decisions is due, else NO_WINNER.

    Only the getaway (a roll and maybe a further landing) and an elimination
    take a branch; the other actions are resolved as arithmetic on the action
    code. The action of the field landed on is as good as random to a branch
    predictor: a switch over it (a jump table) was mispredicted on most landings.
    ``count`` (a constant): whether each field's landings and triggers are
    counted (the fields table); a summary-only run does without."""
    # the board and the rules read before land's stores (see land)
    counters = game[G_H_COUNT_AT]
    action = field_action(game, field)
    die = game[G_GETAWAY_DIE]
    out_at = blocks_to_eliminate(game)
    removes = game[G_JACKHAMMER_REMOVES]
    land(game, state, hidden, lemming, field, count)
    while True:
        trigger = counters + field * FIELD_LEN + FIELD_TRIGGERS
        if action == GETAWAY:
            if count:
                hidden[ix(trigger)] += 1
            target = field + draw(state, die) + 1
            if target >= game[G_N_FIELDS]:
                return reach_water(game, state, lemming)
            if state[ix(S_OCCUPANT + target)] < 0:
                action = field_action(game, target)
                land(game, state, hidden, lemming, target, count)
                field = target
                continue
            last = give_block(game, state, lemming)
            if last >= 0:
                return last * 2 + FINISH_LAST_STANDING
            return NO_WINNER
        # empty, concrete, jackhammer, bookmaker or boss
        blocks = state[ix(PUB_BLOCKS + lemming)]
        concrete = action == CONCRETE
        drilled = min(blocks, removes) * (action == JACKHAMMER)  # the blocks a jackhammer takes off
        rounds = action >= BOOKMAKER  # BOOKMAKER or BOSS
        if count:
            hidden[ix(trigger)] += concrete | (drilled > 0) | rounds
        blocks += concrete
        blocks -= drilled
        state[ix(PUB_BLOCKS + lemming)] = blocks
        if blocks >= out_at:  # only just after a concrete block: the last one eliminates
            last = eliminate(game, state, lemming)
            if last >= 0:
                return last * 2 + FINISH_LAST_STANDING
        # NO_WINNER, NEEDS_BETS (bookmaker) or NEEDS_DISCARDS (boss)
        return NO_WINNER - 2 * rounds - (action == BOSS)


@kernel(inline=True)
def apply_bets(game, state, hidden):
    """Place the bets answered at ``G_H_ANSWERS_AT`` (a colour, or -1 a pass, or
    NOT_ASKED, per seat). Returns the first seat whose answer is not a card it
    holds, else -1."""
    answers = game[G_H_ANSWERS_AT]
    for seat in range(game[G_N_PLAYERS]):
        color = hidden[ix(answers + seat)]
        held = hidden[ix(own_at(game, seat) + OWN_HAND + min(max(color, 0), N_LEMMINGS - 1))]
        if (color >= N_LEMMINGS) | ((color >= 0) & (held == 0)):
            return seat
        place_bet(game, state, hidden, seat, color)
    return -1


@kernel(inline=True)
def apply_discards(game, state, hidden):
    """Discard the contracts answered at ``G_H_ANSWERS_AT`` (a slot, or -1 keep
    all, or NOT_ASKED, per seat). Returns the first seat whose answer is not a
    contract it holds, else -1."""
    answers = game[G_H_ANSWERS_AT]
    dealt = contracts_dealt(game)
    for seat in range(game[G_N_PLAYERS]):
        slot = hidden[ix(answers + seat)]
        held = hidden[ix(own_at(game, seat) + OWN_HELD + min(max(slot, 0), MAX_CONTRACTS_EACH - 1))]
        if (slot >= dealt) | ((slot >= 0) & (held == 0)):
            return seat
        discard(game, state, hidden, seat, slot)
    return -1


# place_bet and discard take -1 for "none" and are written without branches on
# it: whether a player bets is a coin flip for the random bot, which a branch
# predictor gets wrong half the time, and these rounds are a third of a race.

@kernel(inline=True)
def place_bet(game, state, hidden, seat, color):
    """Put the card ``color`` from the hand on the stack; nothing if ``color`` is negative."""
    at = own_at(game, seat)
    yes = color >= 0
    card = max(color, 0)
    k = hidden[ix(at + OWN_STACK_N)]
    slot = min(k, N_LEMMINGS - 1)  # k is 6 only when the hand is empty and yes is False
    hidden[ix(at + OWN_HAND + card)] = 0 if yes else hidden[ix(at + OWN_HAND + card)]
    hidden[ix(at + OWN_STACK + slot)] = color if yes else hidden[ix(at + OWN_STACK + slot)]
    hidden[ix(at + OWN_STACK_TURN + slot)] = state[PUB_TURN] if yes else hidden[ix(at + OWN_STACK_TURN + slot)]
    place = track_place(state, card)
    hidden[ix(at + OWN_STACK_PLACE + slot)] = place if yes else hidden[ix(at + OWN_STACK_PLACE + slot)]
    hidden[ix(at + OWN_STACK_N)] = k + yes
    state[ix(PUB_HAND_COUNT + seat)] -= yes
    state[ix(PUB_STACK_COUNT + seat)] += yes


@kernel(inline=True)
def discard(game, state, hidden, seat, slot):
    """Discard the contract in ``slot``; nothing if ``slot`` is negative."""
    yes = slot >= 0
    s = max(slot, 0)
    held = own_at(game, seat) + OWN_HELD + s
    hidden[held] = 0 if yes else hidden[held]
    turn = game[G_H_DISCARD_AT] + seat * MAX_CONTRACTS_EACH + s
    hidden[turn] = state[PUB_TURN] if yes else hidden[turn]
    state[ix(PUB_HELD_COUNT + seat)] -= yes


@kernel(inline=True)
def start_race(game, state, hidden, seed, index):
    """Race ``index`` of ``seed`` dealt, with its streams: the dice's (lane 0,
    which also deals) and each player's own (lanes 1..), seeded after the deal."""
    seed_stream(state, PUB_RNG, seed, index, 0)
    deal(game, state, hidden)
    for seat in range(game[G_N_PLAYERS]):
        seed_stream(hidden, own_at(game, seat) + OWN_RNG, seed, index, 1 + seat)


@kernel(inline=True)
def lane_keys(game, seed, keys):
    """``keys[lane]``: the part of ``start_race``'s stream starts that depends on
    the seed and the lane only (``rng.lane_key``), for ``start_race_keyed``."""
    for lane in range(1 + game[G_N_PLAYERS]):
        keys[ix(lane)] = lane_key(seed, lane)


@kernel(inline=True)
def start_race_keyed(game, state, hidden, keys, index):
    """``start_race`` with the lanes' keys computed once for a block of races
    (``lane_keys``): the same streams, one mix64 each instead of four."""
    race = index_key(index)
    seed_keyed(state, PUB_RNG, keys[0], race)
    deal(game, state, hidden)
    for seat in range(game[G_N_PLAYERS]):
        seed_keyed(hidden, own_at(game, seat) + OWN_RNG, keys[ix(1 + seat)], race)


@kernel(inline=True)
def add_field_counts(game, hidden, field_count):
    """Add each field's landings and triggers, counted in ``hidden``, to
    ``field_count`` ([fields, FIELD_LEN])."""
    counters = game[G_H_COUNT_AT]
    for field in range(game[G_N_FIELDS]):
        for column in range(FIELD_LEN):
            field_count[field, column] += hidden[ix(counters + field * FIELD_LEN + column)]


@kernel(inline=True)
def deal(game, state, hidden):
    """Set up a race (the dice stream at ``PUB_RNG`` already seeded; the players'
    own streams are seeded after this): lemmings at the start, six bet cards and
    ``contracts_dealt`` contracts each (the slots after them stay empty). Field
    counters are kept."""
    state[:PUB_RNG] = 0
    n_fields = game[G_N_FIELDS]
    state[S_OCCUPANT:S_OCCUPANT + n_fields] = -1
    masks = game[G_S_SECTIONS_AT]
    state[masks:masks + game[G_N_SECTIONS] + 2] = 0
    for lem in range(N_LEMMINGS):
        state[ix(PUB_POS + lem)] = START
    n_players = game[G_N_PLAYERS]
    state[PUB_N_PLAYERS] = n_players
    state[PUB_MOVING] = -1
    state[PUB_N_FIELDS] = n_fields
    state[PUB_N_SECTIONS] = game[G_N_SECTIONS]
    hidden[:game[G_H_ANSWERS_AT]] = 0  # own rows and discard turns
    order = game[G_H_ORDER_AT]
    n_cards = game[G_N_CARDS]
    for i in range(n_cards):
        hidden[ix(order + i)] = i
    dealt = contracts_dealt(game)
    for i in range(n_players * dealt):  # the first steps of a Fisher-Yates shuffle
        j = i + draw(state, n_cards - i)
        card = hidden[ix(order + j)]
        hidden[ix(order + j)] = hidden[ix(order + i)]
        hidden[ix(order + i)] = card
    for seat in range(n_players):
        at = own_at(game, seat)
        for color in range(N_LEMMINGS):
            hidden[ix(at + OWN_HAND + color)] = 1
        for slot in range(dealt):
            hidden[ix(at + OWN_CONTRACT + slot)] = hidden[ix(order + seat * dealt + slot)]
            hidden[ix(at + OWN_HELD + slot)] = 1
        state[ix(PUB_HAND_COUNT + seat)] = N_LEMMINGS
        state[ix(PUB_HELD_COUNT + seat)] = dealt


@kernel(inline=True)
def contract_fulfilled(game, state, card, places, winner):
    """Whether the contract ``card`` is fulfilled at the end of the race. Every
    kind's condition is evaluated and the card's kind picks one: the kinds of
    the dealt cards are random, and a branch on them is mispredicted most times
    (a card naming fewer than two colours has colour 0 in the unused slots)."""
    kind = card_entry(game, card, DECK_KIND)
    c1 = card_entry(game, card, DECK_C1)
    c2 = card_entry(game, card, DECK_C2)
    n_elim = state[PUB_N_ELIM]
    return ((kind == ELIMINATED) & ((state[ix(PUB_OUT + c1)] > 0) | (state[ix(PUB_OUT + c2)] > 0))
            | (kind == BEFORE) & (places[ix(c1)] < places[ix(c2)])
            | (kind == TOP3) & (places[ix(c1)] <= 3)
            | (kind == AT_MOST_ONE_ELIMINATED) & (n_elim <= 1)
            | (kind == AT_LEAST_THREE_ELIMINATED) & (n_elim >= 3)
            | (kind == WINNER_CLEAN) & (state[ix(PUB_BLOCKS + winner)] == 0))


@kernel(inline=True)
def contract_worth(game, state, card, places, winner):
    """Whether the contract ``card`` is fulfilled at the end of the race, and
    what it is worth to a player still holding it: its points if fulfilled,
    else the rule ``unfulfilled_contract`` (the box: -2; a discarded contract is
    worth nothing)."""
    fulfilled = contract_fulfilled(game, state, card, places, winner)
    return fulfilled, pick(fulfilled, card_entry(game, card, DECK_POINTS), game[G_UNFULFILLED])


@kernel(inline=True)
def stack_points(game, slot):
    """What the winner's card pays on stack position ``slot`` (0: the first
    placed), the rule ``bet_points`` (the box: slot + 1, the later the more)."""
    return game[ix(G_BET_POINTS + slot)]


@kernel(inline=True)
def bet_paid(game, slot, color, winner):
    """The points of the bet card on ``slot`` (0: the first placed) of a stack:
    ``stack_points`` if it is the winner's card, else 0."""
    return stack_points(game, slot) * (color == winner)


@kernel(inline=True)
def flow_cap(game):
    """The slots of the standing's history: the longest race, every move taking
    a lemming a section on or into the water (board.pack_game sizes it)."""
    return N_LEMMINGS * (game[G_N_SECTIONS] + 1)


@kernel(inline=True)
def note_standing(game, state):
    """After a move: the race's standing if it ended now is the lemmings' order
    on the track; the lemming furthest on leads (one in the water is past every
    field, an eliminated one behind the start area; in the start area they tie)."""
    note_leader(state, game[G_S_FLOW_AT], flow_cap(game), state[PUB_TURN], sole_leader(state, PUB_POS, N_LEMMINGS))


@kernel(inline=True)
def record_race(game, state, hidden, result, race_row, player_rows, contract_rows, bet_rows,
                detail):
    """The race ended with ``result`` (``winner * 2 + finish``): its row of the
    races record, and the scores (``score_race``; ``detail``: as there)."""
    winner = result >> 1
    finish = result & 1
    race_row[RACE_TURNS] = state[PUB_TURN]
    changes, decided, comeback = flow_counters(state, game[G_S_FLOW_AT], flow_cap(game), state[PUB_TURN], winner)
    race_row[RACE_LEAD_CHANGES] = changes
    race_row[RACE_DECIDED_AFTER] = decided
    race_row[RACE_COMEBACK] = comeback
    race_row[RACE_FINISH] = finish
    race_row[RACE_WINNER_FIELD] = (state[PUB_WATER_FROM] if finish == FINISH_WATER
                                   else state[ix(PUB_POS + winner)])
    score_race(game, state, hidden, winner, race_row, player_rows, contract_rows, bet_rows, detail)


@kernel(inline=True)
def score_race(game, state, hidden, winner, race_row, player_rows, contract_rows,
               bet_rows, detail):
    """Final places, bet and contract points, winners; written into the records.
    With ``detail`` false (a constant of the caller: only the race and player
    rows are read) the contract and bet rows are left as they were."""
    n_players = game[G_N_PLAYERS]
    places = race_row[RACE_PLACE:RACE_PLACE + N_LEMMINGS]
    for lem in range(N_LEMMINGS):
        places[lem] = track_place(state, lem)
        race_row[RACE_BLOCKS + lem] = state[ix(PUB_BLOCKS + lem)]
    best_score = -1 << 30
    for seat in range(n_players):
        at = own_at(game, seat)
        n_stack = hidden[ix(at + OWN_STACK_N)]
        bet_points = 0
        # rows past the stack's height are written as empty, without branching
        for k in range(N_LEMMINGS):
            placed = k < n_stack
            color = pick(placed, hidden[ix(at + OWN_STACK + k)], -1)
            paid = bet_paid(game, k, color, winner)
            bet_points += paid
            if detail:
                bet_rows[seat, k, BET_COLOR] = color
                bet_rows[seat, k, BET_TURN] = hidden[ix(at + OWN_STACK_TURN + k)] * placed
                bet_rows[seat, k, BET_PLACE] = hidden[ix(at + OWN_STACK_PLACE + k)] * placed
                bet_rows[seat, k, BET_PAID] = paid
        contract_points = 0
        n_discarded = 0
        for slot in range(contracts_dealt(game)):
            card = hidden[ix(at + OWN_CONTRACT + slot)]
            fulfilled, points = contract_worth(game, state, card, places, winner)
            held = hidden[ix(at + OWN_HELD + slot)]
            payoff = points * held
            n_discarded += 1 - held
            contract_points += payoff
            if detail:
                contract_rows[seat, slot, CT_CARD] = card
                contract_rows[seat, slot, CT_DISCARDED] = 1 - held
                contract_rows[seat, slot, CT_FULFILLED] = fulfilled
                contract_rows[seat, slot, CT_PAYOFF] = payoff
                contract_rows[seat, slot, CT_DISCARD_TURN] = hidden[
                    game[G_H_DISCARD_AT] + seat * MAX_CONTRACTS_EACH + slot]
        score = bet_points + contract_points
        player_rows[seat, PL_BET_POINTS] = bet_points
        player_rows[seat, PL_CONTRACT_POINTS] = contract_points
        player_rows[seat, PL_SCORE] = score
        player_rows[seat, PL_BETS_PLACED] = n_stack
        player_rows[seat, PL_DISCARDED] = n_discarded
        player_rows[seat, PL_DECISIONS] = hidden[ix(at + OWN_DECISIONS)]
        best_score = max(best_score, score)
    # the highest total wins; a tie goes to contract points, then is shared
    n_top = 0
    best_contract = -1 << 30
    for seat in range(n_players):
        if player_rows[seat, PL_SCORE] == best_score:
            n_top += 1
            best_contract = max(best_contract, player_rows[seat, PL_CONTRACT_POINTS])
    n_winners = 0
    for seat in range(n_players):
        won = (player_rows[seat, PL_SCORE] == best_score
               and player_rows[seat, PL_CONTRACT_POINTS] == best_contract)
        player_rows[seat, PL_WON] = 1 if won else 0
        n_winners += 1 if won else 0
    race_row[RACE_WINNER] = winner
    race_row[RACE_N_ELIM] = state[PUB_N_ELIM]
    race_row[RACE_WINNER_BLOCKS] = state[ix(PUB_BLOCKS + winner)]
    race_row[RACE_TIEBREAK] = 1 if n_winners < n_top else 0
    race_row[RACE_N_WINNERS] = n_winners


def new_arrays(game: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Zeroed ``state`` and ``hidden`` arrays sized for a packed ``game``."""
    from analyzer.games.lemming_mafia.layout import G_H_LEN, G_S_LEN

    return np.zeros(game[G_S_LEN], np.int64), np.zeros(game[G_H_LEN], np.int64)
