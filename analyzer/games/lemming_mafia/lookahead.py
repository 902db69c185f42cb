"""The look-ahead bot: decides by Monte Carlo rollouts inside the jitted core.

For every option of a decision it plays the rest of the race many times from
what it can see, sampling what it cannot (the other players' hands, stacks and
contracts, consistent with the public counts), everyone playing the reference
random bot after the decision. Rollout ``r`` uses the same sampled world and the
same dice for every option (common random numbers), so options are compared on
equal luck. An option's value is the bot's final score less the best other score
(``worth``: plus ``win_points`` for a win, if set). The budget, ``rollouts``, buys
strength up to the 2 ms a decision the search bots may spend and beyond (docs/lemming-mafia.md,
the ladder).

Three things make it cheaper at the same strength (docs/performance.md, "The
look-ahead bot"): one playout a rollout serves every option of a bet or discard
decision (``shared``, below), move options well behind the leader get no more
rollouts (``drop``), and the world of rollout ``r`` is sampled once. Its cost
grows with ``rollouts``; ``make bench`` prints the time per decision.
"""
import numpy as np

from analyzer.engine.jit import kernel
from analyzer.engine.rng import below, heads, next_u64, seed_stream
from analyzer.games.lemming_mafia.layout import (
    DECIDE_BET, DECIDE_DISCARD, DECIDE_FIELD, DECIDE_MOVE, G_BETS_PER_BOOKMAKER, G_DISCARDS_PER_BOSS,
    G_H_ANSWERS_AT, G_H_LEN, G_S_FLOW_AT, G_S_WORK_AT, RACING_ROLLOUTS,
    G_N_CARDS, G_N_PLAYERS, MAX_CONTRACTS_EACH, MAX_SECTION_FIELDS, N_LEMMINGS, NOT_ASKED, OWN_CONTRACT, OWN_HAND,
    OWN_LEN, OWN_HELD, OWN_RNG, OWN_STACK, OWN_STACK_N, OWN_VIEW_LEN, P_DROP, P_MOVE_ROLLOUTS, P_ROLLOUTS,
    P_SHARED, P_WIN_POINTS, PL_LEN, PL_SCORE, PUB_HAND_COUNT,
    PUB_HELD_COUNT, PUB_MOVER, PUB_MOVING, PUB_N_FIELDS, PUB_RNG, PUB_ROUND_CARD, PUB_STACK_COUNT,
    PUB_TURN, RACE_LEN, BET_LEN, CT_LEN, S_OPTIONS, S_SCRATCH, S_VIEW, SC_PLAN_FIELD,
    SC_PLAN_TURN, WORK_OPTIONS,
)
from analyzer.games.lemming_mafia.random_bot import decide_random
from analyzer.games.lemming_mafia.random_race import (
    card_masks, init_hands, put_back_held, random_landing, random_playout,
)
from analyzer.games.lemming_mafia.rules import (
    POPCOUNT, SELECT, apply_bets, apply_discards, bet_paid, contract_worth, contracts_dealt, own_at, reach_water,
    score_race, target_fields, track_place,
)

_DROPPED = -(1 << 40)  # the value of a dropped option
_WORLD_LANE = 7  # stream lane for sampling hidden cards (dice use lane 0, players 1-6)
_OWN_BETS_LANE = 8  # shared playouts: the bot's own later bets and discards


# ------------------------------------------------------------- random playouts
# The playouts are random_race.py's: random bots in every seat, rules.py's rules.

@kernel(inline=True)
def start_rollout(game, state, sim, simh, base, r):
    """The race as the bot sees it copied into ``sim``, with the streams of
    rollout ``r``: the dice (lane 0) and each player's (lanes 1-6), the same for
    every option of the rollout (common random numbers)."""
    copy_race(state, sim, 0)
    seed_stream(sim, PUB_RNG, base, r, 0)
    seed_players(game, simh, base, r)


@kernel(inline=True)
def seed_players(game, simh, base, r):
    """Each player's own stream in rollout ``r`` (lanes 1-6), in its hidden row."""
    for p in range(game[G_N_PLAYERS]):
        seed_stream(simh, own_at(game, p) + OWN_RNG, base, r, 1 + p)


@kernel(inline=True)
def copy_race(state, sim, dice):
    """The race as the bot sees it copied into ``sim``, the dice's stream at
    ``dice`` (``start_rollout`` with the players' streams already in the rows)."""
    for i in range(sim.shape[0]):  # (array copies need numba's allocator)
        sim[i] = state[i]
    sim[PUB_RNG] = dice
    sim[PUB_MOVING] = -1


# ------------------------------------------------- shared playouts (P_SHARED)
# The race itself (dice, moves, fields, blocks) never depends on a bet or a
# discard, and nothing in a random playout reads a hand. So the bets and
# discards are taken out of the playout: it only logs the kinds of its rounds,
# and every seat answers them after the race. The deciding bot's later bets
# and discards are drawn from a stream of their own (``_OWN_BETS_LANE``), once
# per option, starting from that option's cards: one playout then serves every
# option of a bet or discard decision, which differ only in the bot's cards.
# The other seats' answers continue their own streams. Every player still
# plays the reference random bot, whose answers depend on nothing of the race
# (``random_points``): the same law as answering at each round, in a playout
# per option.

@kernel(inline=True)
def cards_put_down(row, at, rounds, per, lead):
    """How many cards the reference random bot whose row is ``row[at:]`` would
    put down (throw away) in ``rounds`` rounds of at most ``per`` cards each (the
    rules ``bets_per_bookmaker``, ``discards_per_boss``), after a part of a
    round of at most ``lead`` more (0: none), had it cards enough: in each, the
    heads of its coins before the first tail (a pass ends its part of a round),
    at most ``per``. With one card a round and no lead: the heads of ``rounds``
    coins (``rng.heads``, the box's draws)."""
    if per == 1 and lead == 0:
        return heads(row, at + OWN_RNG, rounds)
    return runs_of_heads(row, at, rounds, per, lead)


@kernel
def runs_of_heads(row, at, rounds, per, lead):
    """``cards_put_down`` under a rule of more than one card a round."""
    n = 0
    for r in range(rounds + (lead > 0)):
        most = lead if (r == 0) & (lead > 0) else per
        for _ in range(most):
            if below(row, at + OWN_RNG, 2) == 0:
                break
            n += 1
    return n


@kernel(inline=True)
def random_points(game, sim, row, at, bets, boss, places, winner, lead_bets, lead_boss):
    """The bet and contract points, at the end of the race ``sim`` (``places``,
    ``winner``), of the seat whose hidden row is ``row[at:]`` when it answers
    ``bets`` bookmaker and ``boss`` boss rounds more as the reference random bot
    does, from its own stream (continued), after ``lead_bets`` (``lead_boss``)
    more cards it may still put down (throw away) in the round it is in (the
    rules ``bets_per_bookmaker``, ``discards_per_boss``: 0 under the box's).

    In a round the random bot holding cards bets on a fair coin (its draw below
    twice the cards held falls below their count), then a uniform card among
    them (``random_race.random_card``). So over ``bets`` rounds it places
    min(cards, heads of ``bets`` coins) of them, and the cards come out in a
    uniformly random order: the winner's card, if in hand, stands at a uniform
    place of that order and is bet, onto the stack's next slots, if its place
    comes before that count. Likewise it discards min(contracts, heads of
    ``boss`` coins) of its contracts, a uniformly random set of them. Neither
    depends on the order of the rounds or on anything of the race: two coin
    counts and two or three uniform draws give the law of every answer in
    turn (test: ``test_lm_lookahead.py``), and only what the scores read is
    drawn (``score_race``'s bet and contract points). More than one card a
    round (the rules above) keeps that law: a pass ends the bot's part of a
    round, so it puts down the heads before its first tail in each, at most
    the rule's count (``cards_put_down``), the cards still uniform in order."""
    dealt = contracts_dealt(game)
    hand, held = card_masks(row, at, dealt)
    n_stack = row[at + OWN_STACK_N]
    points = 0
    for k in range(N_LEMMINGS):
        points += bet_paid(game, k, row[at + OWN_STACK + k], winner) * (k < n_stack)
    # the coins and the winner's place are drawn whatever the cards: the options
    # of a decision, which differ only in the bot's cards, then share them
    # (common random numbers: a bet option's contracts are those of a pass)
    if bets > 0 or lead_bets > 0:
        n_hand = POPCOUNT[hand]
        placed = min(n_hand, cards_put_down(row, at, bets, game[G_BETS_PER_BOOKMAKER], lead_bets))
        order = below(row, at + OWN_RNG, max(n_hand, 1))
        points += bet_paid(game, min(n_stack + order, N_LEMMINGS - 1), winner, winner) * (
            (order < placed) & (((hand >> winner) & 1) == 1))
    if boss > 0 or lead_boss > 0:
        n_held = POPCOUNT[held]
        for _ in range(min(n_held, cards_put_down(row, at, boss, game[G_DISCARDS_PER_BOSS], lead_boss))):
            held &= ~(np.int64(1) << SELECT[held * MAX_SECTION_FIELDS + below(row, at + OWN_RNG, n_held)])
            n_held -= 1
    for slot in range(dealt):
        card = row[at + OWN_CONTRACT + slot]
        points += ((held >> slot) & 1) * contract_worth(game, sim, card, places, winner)[1]
    return points


@kernel(inline=True)
def answer_own(what, answer, row):
    """The bot's own cards (``row``: a copy of its hidden row) after its
    ``answer`` to a ``what`` round (-1: nothing, or no such round)."""
    if answer >= 0:
        if what == DECIDE_BET:
            n_stack = row[OWN_STACK_N]
            row[OWN_HAND + answer] = 0
            row[OWN_STACK + n_stack] = answer
            row[OWN_STACK_N] = n_stack + 1
        elif what == DECIDE_DISCARD:
            row[OWN_HELD + answer] = 0


@kernel(inline=True)
def logged_rounds(log):
    """How many bookmaker and boss rounds a playout logged."""
    bets = 0
    boss = 0
    for i in range(1, log[0] + 1):
        bets += log[i] == DECIDE_BET
        boss += log[i] == DECIDE_DISCARD
    return bets, boss


# ------------------------------------------------------------- the objective

@kernel(inline=True)
def worth(mine, best_other, win_half_points):
    """What a playout's end is worth to the bot, in half points: twice its score
    less the best other score, plus ``win_half_points`` (twice ``win_points``)
    if it scores above every other player, half that on a tie (a tie is broken
    by contract points, which this leaves out). Half points keep it an integer."""
    margin = mine - best_other
    return 2 * margin + win_half_points * (2 * (margin > 0) + (margin == 0)) // 2


# ----------------------------------------------------------- sampling a world

@kernel
def sample_world(game, state, seat, simh, buf):
    """Hidden rows for every player: this player's own as it knows it, the others'
    drawn at random among the hands, stacks and contracts consistent with what is
    public (cards in hand, on the stack, contracts held; each was dealt
    ``contracts_dealt``). ``buf[0]`` is the stream."""
    n_players = game[G_N_PLAYERS]
    n_cards = game[G_N_CARDS]
    dealt = contracts_dealt(game)
    simh[:] = 0
    mine = own_at(game, seat)
    for i in range(OWN_VIEW_LEN):  # the bookkeeping after it stays 0
        simh[mine + i] = state[S_VIEW + i]
    # contracts the others may hold: every card but this player's own
    pool = simh[game[G_H_ANSWERS_AT]:]  # scratch beyond the rows: answers, order, counters
    n_pool = 0
    for card in range(n_cards):
        own_card = False
        for slot in range(dealt):
            if state[S_VIEW + OWN_CONTRACT + slot] == card:
                own_card = True
        if not own_card:
            pool[n_pool] = card
            n_pool += 1
    for other in range(n_players):
        if other == seat:
            continue
        at = own_at(game, other)
        # a random order of the six colours: the first hand-count stay in hand,
        # the rest are the stack in placing order
        colors = simh[at + OWN_STACK:at + OWN_STACK + N_LEMMINGS]
        for c in range(N_LEMMINGS):
            colors[c] = c
        for c in range(N_LEMMINGS - 1, 0, -1):
            j = below(buf, 0, c + 1)
            colors[c], colors[j] = colors[j], colors[c]
        n_hand = state[PUB_HAND_COUNT + other]
        for k in range(n_hand):
            simh[at + OWN_HAND + colors[k]] = 1
        n_stack = state[PUB_STACK_COUNT + other]
        for k in range(n_stack):
            colors[k] = colors[n_hand + k]
        for k in range(n_stack, N_LEMMINGS):
            colors[k] = 0
        simh[at + OWN_STACK_N] = n_stack
        held = state[PUB_HELD_COUNT + other]
        for slot in range(dealt):
            j = below(buf, 0, n_pool)
            simh[at + OWN_CONTRACT + slot] = pool[j]
            n_pool -= 1
            pool[j] = pool[n_pool]
            simh[at + OWN_HELD + slot] = 1 if slot < held else 0


# ------------------------------------------------------------------ deciding

@kernel
def lookahead_decide(what, seat, game, state, params, n_options):
    n_players = game[G_N_PLAYERS]
    rollouts = max(1, int(params[P_ROLLOUTS]))
    win = np.int64(round(2 * params[P_WIN_POINTS]))
    if what == DECIDE_FIELD and params[SC_PLAN_TURN] == state[PUB_TURN]:
        for i in range(n_options):  # the field chosen with the move
            if state[S_OPTIONS + i] == params[SC_PLAN_FIELD]:
                return i
    # the work area of state (layout.py): a race copy, hidden rows, the world's
    # stream, score records, the options and their values, the round log
    at = game[G_S_WORK_AT]
    race_len = at
    sim = state[at:at + race_len]
    at += race_len
    simh = state[at:at + game[G_H_LEN]]
    at += game[G_H_LEN]
    world = state[at:at + 1]
    at += 1
    records_at = at
    race_row = state[at:at + RACE_LEN]
    at += RACE_LEN
    player_rows = state[at:at + n_players * PL_LEN].reshape((n_players, PL_LEN))
    at += n_players * PL_LEN
    contract_rows = state[at:at + n_players * MAX_CONTRACTS_EACH * CT_LEN].reshape(
        (n_players, MAX_CONTRACTS_EACH, CT_LEN))
    at += n_players * MAX_CONTRACTS_EACH * CT_LEN
    bet_rows = state[at:at + n_players * N_LEMMINGS * BET_LEN].reshape((n_players, N_LEMMINGS, BET_LEN))
    at += n_players * N_LEMMINGS * BET_LEN
    lemmings = state[at:at + WORK_OPTIONS]
    fields = state[at + WORK_OPTIONS:at + 2 * WORK_OPTIONS]
    values = state[at + 2 * WORK_OPTIONS:at + 3 * WORK_OPTIONS]
    at += 3 * WORK_OPTIONS
    per_rollout = state[at:at + WORK_OPTIONS * RACING_ROLLOUTS].reshape((WORK_OPTIONS, RACING_ROLLOUTS))
    at += WORK_OPTIONS * RACING_ROLLOUTS
    world_rows = state[at:at + n_players * OWN_LEN]
    at += n_players * OWN_LEN
    hands = state[at:at + 2 * n_players]  # random_race.py's masks of the seats' cards
    log = state[at + 2 * n_players:game[G_S_FLOW_AT]]
    n = _options(what, game, state, n_options, lemmings, fields)
    if n == 1:  # nothing to weigh
        best = 0
        if what == DECIDE_MOVE:
            # a move's single option was weighed until 0.2.0, drawing the rollouts'
            # key: drawn still, so that the bot's later draws are the same
            next_u64(state, S_VIEW + OWN_RNG)
    elif params[P_SHARED] != 0:
        if (what == DECIDE_MOVE or what == DECIDE_FIELD) and params[P_MOVE_ROLLOUTS] >= 1:
            rollouts = int(params[P_MOVE_ROLLOUTS])
        # the records' room is scratch here: shared playouts keep no records
        scratch = state[records_at:records_at + N_LEMMINGS + OWN_VIEW_LEN + WORK_OPTIONS + 2]
        _weigh_shared(what, seat, game, state, n, rollouts, params[P_DROP], win, sim, simh, world, scratch,
                      lemmings, fields, values, per_rollout, world_rows, hands, log)
        best = _best(values, n)
    else:
        _weigh(what, seat, game, state, n, rollouts, win, sim, simh, world, race_row, player_rows,
               contract_rows, bet_rows, lemmings, fields, values, hands)
        best = _best(values, n)
    answer = _answer(what, state, params, n_options, lemmings, fields, best)
    # the work area held this player's cards: no later bot may read them
    state[game[G_S_WORK_AT]:game[G_S_FLOW_AT]] = 0
    return answer


@kernel(inline=True)
def _best(values, n):
    best = 0
    for k in range(1, n):
        if values[k] > values[best]:
            best = k
    return best


@kernel
def _options(what, game, state, n_options, lemmings, fields):
    """The options weighed: every (lemming, field) a move or field decision can
    lead to, else -1 (pass, keep all) and each card or contract held."""
    n = 0
    if what == DECIDE_MOVE or what == DECIDE_FIELD:
        for i in range(n_options):
            lemming = state[PUB_MOVING] if what == DECIDE_FIELD else state[S_OPTIONS + i]
            if what == DECIDE_FIELD:
                lemmings[n] = lemming
                fields[n] = state[S_OPTIONS + i]
                n += 1
                continue
            m = target_fields(game, state, lemming, S_SCRATCH)
            if m == 0:
                lemmings[n] = lemming
                fields[n] = state[PUB_N_FIELDS]  # the water
                n += 1
            for j in range(m):
                lemmings[n] = lemming
                fields[n] = state[S_SCRATCH + j]
                n += 1
    elif what == DECIDE_BET:
        lemmings[n] = -1
        n += 1
        for color in range(N_LEMMINGS):
            if state[S_VIEW + OWN_HAND + color] == 1:
                lemmings[n] = color
                n += 1
    else:
        lemmings[n] = -1
        n += 1
        for slot in range(contracts_dealt(game)):
            if state[S_VIEW + OWN_HELD + slot] == 1:
                lemmings[n] = slot
                n += 1
    return n


@kernel(inline=True)
def _answer(what, state, params, n_options, lemmings, fields, best):
    if what == DECIDE_MOVE:
        params[SC_PLAN_TURN] = state[PUB_TURN]
        params[SC_PLAN_FIELD] = fields[best]
        for i in range(n_options):
            if state[S_OPTIONS + i] == lemmings[best]:
                return i
        return 0
    if what == DECIDE_FIELD:
        return best
    return lemmings[best]


@kernel
def _weigh_shared(what, seat, game, state, n, rollouts, drop, win, sim, simh, world, scratch, lemmings,
                  fields, values, per_rollout, world_rows, hands, log):
    """Shared playouts (see above): a bet or discard decision plays one playout a
    rollout for all its options, a move or field decision one per option, and
    drops an option whose paired difference to the leader is ``drop`` standard
    errors below 0 (every 4 rollouts, among the first ``RACING_ROLLOUTS``)."""
    n_players = game[G_N_PLAYERS]
    shared = what == DECIDE_BET or what == DECIDE_DISCARD
    n_playouts = 1 if shared else n
    places = scratch[:N_LEMMINGS]
    row = scratch[N_LEMMINGS:N_LEMMINGS + OWN_VIEW_LEN]
    alive = scratch[N_LEMMINGS + OWN_VIEW_LEN:N_LEMMINGS + OWN_VIEW_LEN + WORK_OPTIONS]
    seeds = scratch[N_LEMMINGS + OWN_VIEW_LEN + WORK_OPTIONS:]  # rollout r's dice and own bets streams
    alive[:n] = 1
    racing = drop > 0 and not shared
    mine = own_at(game, seat)
    per_bets = game[G_BETS_PER_BOOKMAKER]
    per_boss = game[G_DISCARDS_PER_BOSS]
    round_card = state[PUB_ROUND_CARD]  # the cards of this round the bot was asked for before this one
    values[:n] = 0
    base = np.int64(next_u64(state, S_VIEW + OWN_RNG))
    mover = state[PUB_MOVER]
    n_rows = world_rows.shape[0]
    for r in range(rollouts):
        # the same world and dice for every option of rollout r: the world is
        # sampled once and its rows copied back for each further option (the
        # rest of the hidden array is written before it is read)
        seed_stream(world, 0, base, r, _WORLD_LANE)
        sample_world(game, state, seat, simh, world)
        # the streams of rollout r (start_rollout's), seeded once: the players'
        # in the rows kept for the further options, the dice's and the bot's own
        # later bets' (the same for every option) apart
        seed_players(game, simh, base, r)
        seed_stream(seeds, 0, base, r, 0)
        seed_stream(seeds, 1, base, r, _OWN_BETS_LANE)
        for i in range(n_rows):
            world_rows[i] = simh[i]
        first_playout = True
        for k in range(n_playouts):
            if alive[k] == 0:
                continue
            if not first_playout:
                for i in range(n_rows):
                    simh[i] = world_rows[i]
            first_playout = False
            copy_race(state, sim, seeds[0])
            log[0] = 0  # the rounds of the playout: every seat answers them after it
            if shared:  # this round: the bot's answer is the option, the others' come after the race
                result = -1
            elif fields[k] >= state[PUB_N_FIELDS]:
                result = reach_water(game, sim, lemmings[k])
            else:
                result = random_landing(game, sim, simh, hands, lemmings[k], fields[k], seat, log, True)
            if result < 0:
                result = random_playout(game, sim, simh, hands, (mover + 1) % n_players, seat, log)
            winner = result >> 1
            for lem in range(N_LEMMINGS):
                places[lem] = track_place(sim, lem)
            bets, boss = logged_rounds(log)
            # the other seats answer this round too (a shared decision's), the bot its option
            others_bets = bets + (shared and what == DECIDE_BET)
            others_boss = boss + (shared and what == DECIDE_DISCARD)
            best_other = -1000
            for p in range(n_players):
                if p != seat:
                    best_other = max(best_other, random_points(game, sim, simh, own_at(game, p), others_bets,
                                                               others_boss, places, winner, 0, 0))
            first = 0 if shared else k
            for j in range(first, first + (n if shared else 1)):
                for i in range(OWN_VIEW_LEN):
                    row[i] = simh[mine + i]
                row[OWN_RNG] = seeds[1]
                option = lemmings[j] if shared else -1
                answer_own(what, option, row)
                # a card put down (thrown away) now, where the rules allow more this round: the
                # bot goes on in it as the random bot does (asked again while it holds one)
                lead_bets = (per_bets - 1 - round_card) * ((what == DECIDE_BET) & (option >= 0))
                lead_boss = (per_boss - 1 - round_card) * ((what == DECIDE_DISCARD) & (option >= 0))
                value = worth(random_points(game, sim, row, 0, bets, boss, places, winner, lead_bets, lead_boss),
                              best_other, win)
                values[j] += value
                if r < RACING_ROLLOUTS:
                    per_rollout[j, r] = value
        done = r + 1
        if racing and done % 4 == 0 and done < rollouts and done <= RACING_ROLLOUTS:
            if _drop_behind(n, done, drop, alive, values, per_rollout) == 1:
                break  # one option left: it is the answer
    for k in range(n):
        if alive[k] == 0:
            values[k] = _DROPPED


@kernel
def _drop_behind(n, done, drop, alive, values, per_rollout):
    """Drop every option whose mean paired difference (on the same worlds and
    dice) to the leader is more than ``drop`` standard errors below 0. Returns
    how many options are left."""
    leader = -1
    for k in range(n):
        if alive[k] == 1 and (leader < 0 or values[k] > values[leader]):
            leader = k
    for k in range(n):
        if alive[k] == 0 or k == leader:
            continue
        mean = (values[k] - values[leader]) / done
        squares = 0.0
        for i in range(done):
            d = per_rollout[k, i] - per_rollout[leader, i] - mean
            squares += d * d
        # mean < -drop * sqrt(squares / (done - 1) / done), without the root
        if mean < 0 and mean * mean * done * (done - 1) > drop * drop * squares:
            alive[k] = 0
    left = 0
    for k in range(n):
        left += alive[k]
    return left


@kernel
def rest_of_round(what, game, sim, simh):
    """The sub-rounds of a round after its first (``kernel.decision_round``),
    every seat the random bot: where the rules let a player put down (throw
    away) more than one card, each whose last answer did and who still holds
    one is asked again. Nothing under the box's rules."""
    per = game[G_BETS_PER_BOOKMAKER] if what == DECIDE_BET else game[G_DISCARDS_PER_BOSS]
    counts = PUB_HAND_COUNT if what == DECIDE_BET else PUB_HELD_COUNT
    answers = game[G_H_ANSWERS_AT]
    for _ in range(sim[PUB_ROUND_CARD] + 1, per):  # the sub-rounds after the one of the decision
        asked = 0
        for p in range(game[G_N_PLAYERS]):
            if simh[answers + p] >= 0 and sim[counts + p] > 0:
                simh[answers + p] = decide_random(what, simh, own_at(game, p), sim, 0)
                asked += 1
            else:
                simh[answers + p] = NOT_ASKED
        if asked == 0:
            return
        if what == DECIDE_BET:
            apply_bets(game, sim, simh)
        else:
            apply_discards(game, sim, simh)


@kernel
def _weigh(what, seat, game, state, n, rollouts, win, sim, simh, world, race_row,
           player_rows, contract_rows, bet_rows, lemmings, fields, values, hands):
    """One playout per option and rollout (``shared=0``: the bot before 0.2.0)."""
    n_players = game[G_N_PLAYERS]
    values[:n] = 0
    base = np.int64(next_u64(state, S_VIEW + OWN_RNG))
    mover = state[PUB_MOVER]
    for r in range(rollouts):
        for k in range(n):
            # the same world and dice for every option of rollout r
            seed_stream(world, 0, base, r, _WORLD_LANE)
            sample_world(game, state, seat, simh, world)
            start_rollout(game, state, sim, simh, base, r)
            if what == DECIDE_MOVE or what == DECIDE_FIELD:
                init_hands(game, simh, hands)
                if fields[k] >= state[PUB_N_FIELDS]:
                    result = reach_water(game, sim, lemmings[k])
                else:
                    # bot -1: every seat plays its round, nothing is logged (``lemmings`` stands in
                    # for the log, never read or written)
                    result = random_landing(game, sim, simh, hands, lemmings[k], fields[k], -1, lemmings, True)
            else:
                answers = game[G_H_ANSWERS_AT]
                for p in range(n_players):
                    simh[answers + p] = decide_random(what, simh, own_at(game, p), sim, 0)
                simh[answers + seat] = lemmings[k]
                if what == DECIDE_BET:
                    apply_bets(game, sim, simh)
                else:
                    apply_discards(game, sim, simh)
                rest_of_round(what, game, sim, simh)
                init_hands(game, simh, hands)
                result = -1
            if result < 0:
                result = random_playout(game, sim, simh, hands, (mover + 1) % n_players, -1, lemmings)
            put_back_held(game, simh, hands)
            score_race(game, sim, simh, result >> 1, race_row, player_rows, contract_rows,
                       bet_rows, True)
            best_other = -1000
            for p in range(n_players):
                if p != seat:
                    best_other = max(best_other, player_rows[p, PL_SCORE])
            values[k] += worth(player_rows[seat, PL_SCORE], best_other, win)
