"""Moves and rounds of the reference random bot, without asking it, jitted.

A table where every seat plays ``random`` runs here (``play_races``), and so do
the look-ahead bot's playouts (``random_playout``): the same races as
``kernel.play_race`` with ``random`` in those seats, draw for draw and record
for record (``tests/games/lemming_mafia/test_lm_random_race.py`` plays both
and compares every record). The general kernel stays the rules' reference; the
rules themselves (landing, blocks, the water, scores) are ``rules.py``'s own.
What is left out is what random seats never need: the bot dispatch and the
copy of a player's row for its view, replay traces, interventions, and checks
of answers that cannot be invalid. What is done otherwise is done for branch
predictors, which get every data-dependent branch of a random race wrong about
as often as right:
- the k-th free field is read from the section's mask (``rules.SELECT``), not
  from the options ``rules.target_fields`` writes;
- a pick among one option (one candidate, one free field) draws nothing, as
  the bot does, but without a branch (``rng.below_if_choice``);
- the cards of each seat are bit masks (``hands``), so a bet or a discard is a
  draw and a lookup; the hidden rows get what the records read: the stacks as
  they grow and, at the end, which contracts are held (``put_back_held``);
- a round is played seat by seat, each seat's further cards of it (the rules
  ``bets_per_bookmaker``, ``discards_per_boss`` above 1) right after its first:
  a random answer depends on nothing another seat places, so this is the
  general kernel's sub-rounds, each seat's draws in the same order.
A run that reads no tables (``match.play(detail=False)``: a summary, compare,
tournament, tune) plays on ``play_race_summaries``: the same races and the same
races and players rows, without the contracts and bets rows and field counts.
"""
import numpy as np

from analyzer.engine.jit import ix, kernel
from analyzer.engine.rng import below, below_if_choice
from analyzer.games.lemming_mafia.layout import (
    DECIDE_BET, DECIDE_DISCARD, G_BETS_PER_BOOKMAKER, G_DISCARDS_PER_BOSS, G_H_ANSWERS_AT, G_H_DISCARD_AT,
    G_H_LEN, G_N_PLAYERS, G_S_LEN, MAX_CONTRACTS_EACH, MAX_SECTION_FIELDS, N_LEMMINGS, OWN_DECISIONS,
    ELIMINATED_POS, OWN_HAND, OWN_HELD, OWN_RNG, OWN_STACK, OWN_STACK_N, OWN_STACK_PLACE, OWN_STACK_TURN,
    PUB_N_ELIM, PUB_OUT, PUB_POS, PUB_TURN, START,
)
from analyzer.games.lemming_mafia.rules import (
    NEEDS_BETS, NEEDS_DISCARDS, NO_WINNER, POPCOUNT, SELECT, add_field_counts, contracts_dealt, lane_keys,
    next_free_section, note_standing, own_at, pick, reach_water, record_race, resolve_landing, roll_faces, section_first,
    start_race_keyed, track_place,
)


@kernel(inline=True)
def random_pick(hidden, at, n):
    """The random bot's pick among ``n`` options (``random_bot._answer``), counted
    as a decision when there is a choice; nothing drawn or counted for one."""
    hidden[ix(at + OWN_DECISIONS)] += n > 1
    return below_if_choice(hidden, at + OWN_RNG, n)


# ------------------------------------------------------------------ the cards

@kernel(inline=True)
def card_masks(hidden, at, dealt):
    """The bet cards in hand and the ``dealt`` contracts held of the hidden row
    at ``at``, as masks (bit c: colour c; bit s: slot s) from its flags."""
    hand = 0
    for color in range(N_LEMMINGS):
        hand |= hidden[ix(at + OWN_HAND + color)] << color
    held = 0
    for slot in range(dealt):
        held |= hidden[ix(at + OWN_HELD + slot)] << slot
    return hand, held


@kernel(inline=True)
def put_held(hidden, at, held, dealt):
    """The held-contract flags of the hidden row at ``at`` (its ``dealt`` slots), from the mask."""
    for slot in range(dealt):
        hidden[ix(at + OWN_HELD + slot)] = (held >> slot) & 1


@kernel(inline=True)
def init_hands(game, hidden, hands):
    """Each seat's bet cards (``hands[seat]``) and held contracts (``hands[players
    + seat]``) as masks, from the flags of its hidden row."""
    n_players = game[G_N_PLAYERS]
    dealt = contracts_dealt(game)
    for seat in range(n_players):
        hand, held = card_masks(hidden, own_at(game, seat), dealt)
        hands[ix(seat)] = hand
        hands[ix(n_players + seat)] = held


@kernel(inline=True)
def put_back_held(game, hidden, hands):
    """The held-contract flags of every seat, from the masks (what the scores
    read; the hand flags are left as dealt)."""
    n_players = game[G_N_PLAYERS]
    dealt = contracts_dealt(game)
    for seat in range(n_players):
        put_held(hidden, own_at(game, seat), hands[ix(n_players + seat)], dealt)


@kernel(inline=True)
def random_card(hidden, at, mask):
    """The random bot's bet or discard among the cards of ``mask`` (not empty),
    as ``random_bot._answer``: one draw below twice their count; below the
    count, the k-th card. Returns (whether it plays one, which; meaningless
    when it passes)."""
    n = POPCOUNT[ix(mask)]
    k = below(hidden, at + OWN_RNG, 2 * n)
    return k < n, SELECT[ix(mask * MAX_SECTION_FIELDS + min(k, MAX_SECTION_FIELDS - 1))]


@kernel(inline=True)
def random_bet(game, state, hidden, hands, seat, turn, detail):
    """The bookmaker-round answer of the random player in ``seat``, placed: if it
    holds bet cards, it passes or puts one on its stack (``random_bot._answer``:
    one draw below twice the cards held; below their count, the k-th card). The
    stack's slot above its height is written whether or not the seat bets: the
    records read a stack up to its height only. Without ``detail`` (a constant:
    no bets table is read) a bet's turn and track place are not kept. Returns
    whether it put a card down."""
    at = own_at(game, seat)
    hand = hands[ix(seat)]
    if hand == 0:
        return False
    yes, color = random_card(hidden, at, hand)
    hands[ix(seat)] = hand & ~(np.int64(yes) << color)
    n_stack = hidden[ix(at + OWN_STACK_N)]  # below 6: a card is in hand
    hidden[ix(at + OWN_STACK + n_stack)] = color
    if detail:
        hidden[ix(at + OWN_STACK_TURN + n_stack)] = turn
        hidden[ix(at + OWN_STACK_PLACE + n_stack)] = track_place(state, color)
    hidden[ix(at + OWN_STACK_N)] = n_stack + yes
    return yes


@kernel(inline=True)
def random_bets(game, state, hidden, hands, detail):
    """A bookmaker round of random bots (``random_bet`` for every seat). Placed
    seat by seat, not all answers first: a random answer depends on nothing
    another seat places."""
    turn = state[PUB_TURN]
    per = game[G_BETS_PER_BOOKMAKER]
    n_players = game[G_N_PLAYERS]
    # one answer an iteration, ``card`` of ``seat``'s part of the round: a seat that put
    # a card down and holds another is asked again, up to ``per`` (the box: never)
    seat = 0
    card = 1
    while seat < n_players:
        yes = random_bet(game, state, hidden, hands, seat, turn, detail)
        if card < per and yes and hands[ix(seat)] != 0:
            hidden[ix(own_at(game, seat) + OWN_DECISIONS)] += 1  # each further ask is a decision
            card += 1
            continue
        seat += 1
        card = 1


@kernel(inline=True)
def random_discard(hidden, hands, at, held_at, discard_at, answer_at, turn, detail):
    """The boss-round answer of a random player (its row at ``at``, its held
    contracts' mask at ``hands[held_at]``), applied: if it holds contracts, it
    keeps them or discards one, as ``random_bet``. The turn of a discard is kept
    at ``discard_at`` + slot; a seat that keeps them all writes it into its
    answer slot (``answer_at``) instead, which nothing here reads. Without
    ``detail`` (a constant: no contracts table is read) the turn is not kept.
    The slots come from the caller: read from ``game`` once a round, not
    again after each store (for all the compiler knows the arrays overlap).
    Returns whether it threw one away."""
    held = hands[ix(held_at)]
    if held == 0:
        return False
    yes, slot = random_card(hidden, at, held)
    hands[ix(held_at)] = held & ~(np.int64(yes) << slot)
    if detail:
        # which slot, without a branch on the coin flip (a select was compiled to one)
        hidden[ix(pick(yes, discard_at + slot, answer_at))] = turn
    return yes


@kernel(inline=True)
def random_discards(game, state, hidden, hands, detail):
    """A boss round of random bots (``random_discard`` for every seat)."""
    turn = state[PUB_TURN]
    n_players = game[G_N_PLAYERS]
    discard_at = game[G_H_DISCARD_AT]
    answers = game[G_H_ANSWERS_AT]
    per = game[G_DISCARDS_PER_BOSS]
    seat = 0
    card = 1
    while seat < n_players:  # as random_bets
        at = own_at(game, seat)
        yes = random_discard(hidden, hands, at, n_players + seat, discard_at + seat * MAX_CONTRACTS_EACH,
                             answers + seat, turn, detail)
        if card < per and yes and hands[ix(n_players + seat)] != 0:
            hidden[ix(at + OWN_DECISIONS)] += 1
            card += 1
            continue
        seat += 1
        card = 1


# ------------------------------------------------------------------ the moves

@kernel(inline=True)
def random_landing(game, state, hidden, hands, lemming, field, bot, log, detail):
    """Land the lemming on ``field`` (``rules.resolve_landing``) and play the
    round it asks for. Returns the race's result: ``winner * 2 + finish``,
    NO_WINNER, or NEEDS_BETS / NEEDS_DISCARDS for a round. With ``bot >= 0``
    (the look-ahead's shared playouts) the round is not played: its kind is
    appended to ``log`` (``log[0]``: rounds so far), and every seat answers the
    logged rounds after the race (``lookahead.random_points``). ``detail`` (a
    constant): false, the field counters are not kept (``resolve_landing``'s
    ``count``), nor what ``random_bets`` and ``random_discards`` leave out."""
    result = resolve_landing(game, state, hidden, lemming, field, detail)
    if bot < 0:
        if result == NEEDS_BETS:
            random_bets(game, state, hidden, hands, detail)
        elif result == NEEDS_DISCARDS:
            random_discards(game, state, hidden, hands, detail)
    elif result < NO_WINNER:
        n = log[0] + 1
        log[ix(n)] = DECIDE_BET if result == NEEDS_BETS else DECIDE_DISCARD
        log[0] = n
    return result


BEHIND_ALL = np.int64(2**63 - 1)  # candidate_masks' rank of an eliminated lemming
if START != -1 or ELIMINATED_POS >= START:
    raise ImportError("random_race.py: candidate_masks ranks positions from START = -1, eliminated behind")


@kernel(inline=True)
def candidate_masks(state, first, second):
    """The lemmings two dice faces stand for (``rules.dice_candidates``) as two
    masks (bit l: lemming l): the first face's, then the second's not among the
    first's. A face of an eliminated colour stands for the last-placed lemmings
    still running (all of them if several tie)."""
    # ranked by position + 1 with the sign bit cleared: running lemmings (START
    # = -1 and up) keep their order from 0, an eliminated one (ELIMINATED_POS)
    # ranks past all of them; so no look at PUB_OUT
    last = BEHIND_ALL
    for lem in range(N_LEMMINGS):
        last = min(last, (state[ix(PUB_POS + lem)] + 1) & BEHIND_ALL)
    tied = 0
    for lem in range(N_LEMMINGS):
        tied |= np.int64(((state[ix(PUB_POS + lem)] + 1) & BEHIND_ALL) == last) << lem
    first_mask = tied if state[ix(PUB_OUT + first)] > 0 else np.int64(1) << first
    second_mask = (tied if state[ix(PUB_OUT + second)] > 0 else np.int64(1) << second) & ~first_mask
    return first_mask, second_mask


@kernel(inline=True)
def random_target(game, state, hidden, at):
    """The move of the random player whose row is at ``at``: roll, pick a
    candidate, pick a free field of the next section with one. Returns the
    lemming and its field, or -1 for the water (no free field ahead)."""
    first, second = roll_faces(state)  # rules.roll_candidates' draw
    if state[PUB_N_ELIM] == 0:
        # no colour is out: the faces' lemmings, one or two, without a branch
        lemming = second if random_pick(hidden, at, 1 + (first != second)) == 1 else first
    else:
        # rules.dice_candidates' list as two masks, without its branches: the
        # first face's lemmings in colour order, then the second's not yet listed
        first_mask, second_mask = candidate_masks(state, first, second)
        n_first = POPCOUNT[ix(first_mask)]
        k = random_pick(hidden, at, n_first + POPCOUNT[ix(second_mask)])
        from_first = SELECT[ix(first_mask * MAX_SECTION_FIELDS + min(k, MAX_SECTION_FIELDS - 1))]
        from_second = SELECT[ix(second_mask * MAX_SECTION_FIELDS + max(k - n_first, 0))]
        lemming = from_first if k < n_first else from_second
    # rules.target_fields, its k-th field read from the mask
    section, free = next_free_section(game, state, lemming)
    if free == 0:
        return lemming, -1
    k = random_pick(hidden, at, POPCOUNT[ix(free)])
    return lemming, section_first(game, section) + SELECT[ix(free * MAX_SECTION_FIELDS + k)]


@kernel(inline=True)
def random_move(game, state, hidden, hands, seat, bot, log, detail):
    """The move of the random player in ``seat`` (``random_target``), landed.
    Returns ``random_landing``'s result, or the race's at the water."""
    state[PUB_TURN] += 1
    lemming, field = random_target(game, state, hidden, own_at(game, seat))
    if field < 0:
        return reach_water(game, state, lemming)
    return random_landing(game, state, hidden, hands, lemming, field, bot, log, detail)


@kernel
def random_playout(game, state, hidden, hands, seat, bot, log):
    """Play the race on from ``seat``'s move, random bots in every seat (with
    ``bot >= 0`` the rounds are only logged, as in ``random_landing``; ``bot =
    -1``: they are played). Returns ``winner * 2 + finish``."""
    n_players = game[G_N_PLAYERS]
    while True:
        result = random_move(game, state, hidden, hands, seat, bot, log, True)
        if result >= 0:
            return result
        seat += 1
        if seat == n_players:
            seat = 0


# ------------------------------------------------------------ a random table

@kernel(inline=True)
def random_table_race(game, state, hidden, hands, keys, index, races, players, contracts, bets,
                      record, detail):
    """Race ``index`` of the seed whose lane keys are ``keys`` (``rules.lane_keys``),
    every seat random, recorded in row ``record`` (``kernel.play_race``'s race).
    ``detail`` (a constant): whether the contracts and bets rows are written and
    the fields counted; the races and players rows are the same either way."""
    start_race_keyed(game, state, hidden, keys, index)
    n_players = game[G_N_PLAYERS]
    dealt_mask = (1 << contracts_dealt(game)) - 1
    for seat in range(n_players):  # init_hands of a dealt race: every card in hand, every contract held
        hands[ix(seat)] = (1 << N_LEMMINGS) - 1
        hands[ix(n_players + seat)] = dealt_mask
    seat = 0
    n_rounds = 0  # every seat is asked in every round
    while True:
        result = random_move(game, state, hidden, hands, seat, -1, hands, detail)  # bot -1: no log
        note_standing(game, state)
        if result >= 0:
            break
        n_rounds += result < NO_WINNER
        seat += 1
        if seat == n_players:
            seat = 0
    put_back_held(game, hidden, hands)
    for seat in range(n_players):
        hidden[ix(own_at(game, seat) + OWN_DECISIONS)] += n_rounds
    record_race(game, state, hidden, result, races[record], players[record], contracts[record],
                bets[record], detail)


@kernel
def play_random_race(game, state, hidden, hands, keys, index, races, players, contracts, bets,
                     record):
    """``random_table_race`` with every record written."""
    random_table_race(game, state, hidden, hands, keys, index, races, players, contracts, bets,
                      record, True)


@kernel
def play_random_race_summary(game, state, hidden, hands, keys, index, races, players, contracts,
                             bets, record):
    """``random_table_race`` writing the races and players rows only."""
    random_table_race(game, state, hidden, hands, keys, index, races, players, contracts, bets,
                      record, False)


@kernel(inline=True, allocates=True)
def race_arrays(game, seed):
    """The working arrays of a block of races of ``seed``: the public state, the
    hidden rows, each seat's cards as masks (``hands``) and the lanes' keys
    (``rules.lane_keys``)."""
    state = np.zeros(game[G_S_LEN], np.int64)
    hidden = np.zeros(game[G_H_LEN], np.int64)
    hands = np.zeros(2 * game[G_N_PLAYERS], np.int64)
    keys = np.zeros(1 + game[G_N_PLAYERS], np.uint64)
    lane_keys(game, seed, keys)
    return state, hidden, hands, keys


@kernel(inline=True, allocates=True)
def random_races(game, seed, first, count, races, players, contracts, bets, field_count, detail):
    """Races ``first .. first+count-1`` of ``seed`` into rows 0.. (``detail``: as
    ``random_table_race``); with ``detail``, each field's landings and triggers
    added to ``field_count``. Inlined into the two entry points below, which
    allocate anyway; the race itself is a call (see ``play_random_race``)."""
    game = game.copy()
    state, hidden, hands, keys = race_arrays(game, seed)
    for i in range(count):
        if detail:
            play_random_race(game, state, hidden, hands, keys, first + i, races, players, contracts,
                             bets, i)
        else:
            play_random_race_summary(game, state, hidden, hands, keys, first + i, races, players,
                                     contracts, bets, i)
    if detail:
        add_field_counts(game, hidden, field_count)


@kernel(allocates=True)
def play_races(game, params, seed, first, count, races, players, contracts, bets, field_count):
    """``kernel.play_races`` for a table of random bots (``params`` unused): the
    same records. Returns 0 (a random bot's answer is never invalid)."""
    random_races(game, seed, first, count, races, players, contracts, bets, field_count, True)
    return 0


@kernel(allocates=True)
def play_race_summaries(game, params, seed, first, count, races, players, contracts, bets,
                        field_count):
    """``play_races`` writing only what a summary's figures and ``match.outcomes``
    read: the races and players rows (the same as ``play_races``'); the
    contracts and bets rows and ``field_count`` are left as they were."""
    random_races(game, seed, first, count, races, players, contracts, bets, field_count, False)
    return 0
