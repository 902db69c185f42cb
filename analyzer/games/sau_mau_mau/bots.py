"""Sau Mau Mau heuristic bots, jitted.

Every heuristic decision goes through one function:

    decide_heuristic(what, seat, kind, game, state, params, n_options) -> int

- ``what``: DECIDE_PLAY / COLOR / FLAPI / STEP / BET (layout.py); ``seat``: the
  deciding player; ``kind``: its bot kind; ``game``: what is fixed for the run;
- ``state``: what this player may see: the public state (``PUB_*``), a copy of
  its own row at ``S_VIEW + OWN_*`` (hand, bet, random stream) and the options at
  ``S_OPTIONS + i`` for ``i < n_options``. Other hands are not in it, and of the
  bet queue only the seats: other players' bet cards lie face down;
- ``params``: this bot's own row of parameters (``P_*``), only read; in a
  game run it carries after them a cache of values they fix (``C_*`` below).

Answers as the kernel asks them (layout.py, DECIDE_*). Ties between equally
good options are broken with the player's own random stream, so that no pig or
card is favoured by its index.

The three families (registry.py) share one model of what a choice is worth, in
expected points of the race, and differ in their parameters' defaults:

- a pig's chance to win is a softmax of ``sharpness`` times its space plus
  ``hand_weight`` times the spaces this player's own number cards can still
  move it. With random players the position says little (a pig that leads
  early has spent its colour's cards), but a bot makes the pig ahead win: it
  bets on it, pushes it and steps the others back, so a sharp model plays
  better than a calibrated one (0.5 against 0.15 per space, in win rates);
- a bet is worth its pig's chance times the points of its place in the queue
  (the rule bet_payouts: 6, 4, 3, 2, 1 in the box) by the winning bets ahead of
  it, each bet ahead being on the same pig with probability ``crowding`` (the
  other pigs are face down);
- the hand is worth the points of going out (last_card_points, 5 in the box)
  less a share ``1 / out_reach`` of them per card in it (nothing from
  ``out_reach`` cards on);
- an option that ends the race is worth the points it scores at once: the
  crown's (crown_points, 3), the last card's, the bet if its pig wins.

Every rule number they weigh is the game's: read from the public state, where
each race copies the game's rules (``PUB_RULES``; a Flapi moves the last pig
``flapi_move`` spaces, a +2 penalty card gives ``steps_back_per_card`` steps, an
X blocks only if it skips someone, a +2 only if it sets a penalty).

Each decision takes the option worth the most: its bet's and hand's worth after
it, plus what the parameters add: ``steer`` (the colour left to the next
player), ``bet_rush`` (drawing for a first bet), ``keep_*`` (special cards held
back), ``block`` (an X or +2 on a player about to go out); a bet change must
gain ``switch_margin`` and its new pig lead the old by ``lag`` spaces.
"""
import math
from collections import namedtuple

import numpy as np

from analyzer.engine import rng
from analyzer.engine.jit import kernel
from analyzer.engine.rng import below
from analyzer.games.sau_mau_mau.layout import (
    DECIDE_BET, DECIDE_COLOR, DECIDE_FLAPI, DECIDE_PLAY, DECIDE_STEP, FARMER, FLAPI, G_CROWN, G_PAYOUTS,
    MAX_PLAYERS, N_CARDS, N_PIGS, NUMBER, OWN_BET_PIG, OWN_HAND, OWN_HAND_N, OWN_RNG,
    P_BET_RUSH, P_BLOCK, P_CROWDING, P_HAND_WEIGHT, P_KEEP_GREEN, P_KEEP_PLUS2, P_KEEP_SKIP,
    P_LAG, P_OUT_REACH, PARAMS_WIDTH, P_SHARPNESS, P_STEER, P_SWITCH_MARGIN, P_THREAT_CARDS, PLUS2,
    PUB_CROWN, PUB_CROWN_POINTS, PUB_DISCARD_N, PUB_FLAPI_MOVE, PUB_HAND_N, PUB_HAND_POINTS, PUB_N_PLAYERS,
    PUB_PAYOUTS, PUB_PENALTY, PUB_PILE_N, PUB_PLUS2_STEP, PUB_POS, PUB_QUEUE, PUB_QUEUE_N, PUB_STEPS_BACK, PUB_TURN,
    PUB_X_SKIPS, S_OPTIONS, S_VIEW, SKIP,
)
from analyzer.games.sau_mau_mau.rules import card_color, card_kind, card_number

_OWN = S_VIEW  # the deciding player's own row in state
_RNG = S_VIEW + OWN_RNG
NO_PIG = -1  # "no pig moves" for the evaluations below
MEAN_NUMBER = 3.5  # a number card moves its pig 3.5 spaces on average
WORST = -1e300
# Bots that all rather draw than move a rival pig can stall a race for good:
# once the pile is spent, one plays a Farmer, the next draws it back, and so
# on. After this many rounds (turns per player) a bot plays whenever it can,
# which ends the race as plain Mau Mau ends. Races of heuristic tables last 5
# to 13 rounds on average, and 99.9% of them end within 35 rounds.
STALL_ROUNDS = 40


@kernel(inline=True)
def prefer(value, best, ties, state):
    """``rng.prefer`` drawing from the deciding player's own stream."""
    return rng.prefer(value, best, ties, state, _RNG)


# ------------------------------------------------------------------ the model

# What every option of one decision is weighed against, read once per decision
# (``read_race``) and passed to the evaluations below: an option changes one
# pig's space at most, so only that pig's weight is computed again. Fields:
# ``pos``, ``hand`` (the spaces this player's own number cards can still move
# each pig) and ``weight`` per pig, as floats; ``total``: the sum of the
# weights; ``slot``: what a bet on the winning pig pays in this player's place
# in the queue (its bet's place, or the back of the queue without a bet);
# ``held``: the cards of each colour in hand that follow it (not a Flapi),
# 16 bits a colour.
Race = namedtuple("Race", ["pos", "hand", "weight", "total", "slot", "held"])

# What the decisions read of a card, one table each (a lookup rather than a
# card's kind, colour and number found by comparisons, whose branches the
# cards of a hand make unpredictable): its kind, its colour, its number (0 but
# for a number card), and for the hand's sums of read_race, its number and its
# count as a follower of its colour (neither a Flapi nor a Farmer), each
# shifted to its colour's 16 bits.
KIND = np.array([card_kind.py_func(c) for c in range(N_CARDS)], np.int64)
COLOR = np.array([card_color.py_func(c) for c in range(N_CARDS)], np.int64)
NUMBER_OF = np.array([card_number.py_func(c) for c in range(N_CARDS)], np.int64)
SPACES_PACKED = np.array([card_number.py_func(c) << (16 * card_color.py_func(c)) if card_number.py_func(c) else 0
                          for c in range(N_CARDS)], np.int64)
HELD_PACKED = np.array([1 << (16 * card_color.py_func(c))
                        if card_color.py_func(c) >= 0 and card_kind.py_func(c) != FLAPI else 0
                        for c in range(N_CARDS)], np.int64)


# The row of parameters a game run hands a heuristic bot carries, after its
# ``PARAMS_WIDTH`` parameters, a cache of what depends on them alone, filled
# once per run (``fill_cache``, called by kernel.play_games): every pig weight
# a decision can ask for and the worth of every queue place. A weight is
# ``exp`` of a distinct argument (~9 ns on this machine, some 10 a decision);
# read from the cache it is the same float, computed once by the same
# expression, so decisions are unchanged. A row without the cache (a test's)
# computes them each time. The queue places' worth depends on the rules'
# payouts too: the cache is filled for the game's (``fill_cache(row, game)``).
#   C_SLOTS    MAX_PLAYERS: slot_worth(params, state, ahead) for ahead 0 .. MAX_PLAYERS-1
#   C_X_N      half-spaces the weight table covers (0: no cache)
#   C_WEIGHTS  C_X_MAX x HAND_SPACES: pig_weight(params, x / 2, y) at x * HAND_SPACES + y
# A pig's space in a decision is a whole or half number (MEAN_NUMBER is 3.5)
# below the crown + MEAN_NUMBER; the spaces a hand can move one pig are 0 to
# 21 (its colour's number cards are 1 to 6).
HAND_SPACES = 22
C_X_MAX = 128  # half-spaces: tracks with a crown up to 60 are covered whole
C_SLOTS = PARAMS_WIDTH
C_X_N = C_SLOTS + MAX_PLAYERS
C_WEIGHTS = C_X_N + 1
CACHED_WIDTH = C_WEIGHTS + C_X_MAX * HAND_SPACES


@kernel(inline=True)
def pig_weight_of(params, pos, own):
    return math.exp(params[P_SHARPNESS] * pos + params[P_HAND_WEIGHT] * own)


@kernel(inline=True)
def pig_weight(params, pos, own):
    """Unnormalised chance that a pig on space ``pos`` wins, ``own`` of the spaces
    ahead being ones this player's hand can still move it (from the cache when
    the row has one and the arguments are on its grid)."""
    if params.shape[0] == CACHED_WIDTH:
        x = int(pos * 2.0)
        y = int(own)
        if 0 <= x < params[C_X_N] and 0 <= y < HAND_SPACES and x * 0.5 == pos and y == own:
            return params[C_WEIGHTS + x * HAND_SPACES + y]
    return pig_weight_of(params, pos, own)


@kernel(inline=True)
def grid_weight(params, x2, y, pos, own):
    """``pig_weight`` of a pig on space ``pos`` = x2 / 2, ``own`` = y (whole
    numbers, not negative): the cache needs no check of the grid."""
    if params.shape[0] == CACHED_WIDTH and x2 < params[C_X_N] and y < HAND_SPACES:
        return params[C_WEIGHTS + x2 * HAND_SPACES + y]
    return pig_weight_of(params, pos, own)


@kernel(inline=True)
def slot_worth(params, state, ahead):
    """Expected points of a bet on the winning pig with ``ahead`` bets before it
    (from the cache when the row has one; else from the payouts in ``state``)."""
    if params.shape[0] == CACHED_WIDTH and 0 <= ahead < MAX_PLAYERS:
        return params[C_SLOTS + ahead]
    return slot_worth_of(params, state, PUB_PAYOUTS, ahead)


@kernel
def fill_cache(params, game):
    """Fill the cache of a row of width CACHED_WIDTH for the game (its track's
    crown, its rules' bet payouts: see C_SLOTS above)."""
    for ahead in range(MAX_PLAYERS):
        params[C_SLOTS + ahead] = slot_worth_of(params, game, G_PAYOUTS, ahead)
    crown = game[G_CROWN]
    n = min(2 * crown + 8, C_X_MAX)  # spaces below crown + MEAN_NUMBER + 0.5
    for x in range(n):
        for y in range(HAND_SPACES):
            params[C_WEIGHTS + x * HAND_SPACES + y] = pig_weight_of(params, x * 0.5, float(y))
    params[C_X_N] = n


@kernel
def slot_worth_of(params, rules, payouts_at, ahead):
    """Expected points of a bet on the winning pig with ``ahead`` bets before it,
    each on the same pig with probability ``crowding``; the r-th winning bet
    pays ``rules[payouts_at + r]`` (the game array's payouts, or the state's)."""
    q = params[P_CROWDING]
    worth = 0.0
    ways = 1.0  # ways to pick r of the bets ahead: ahead choose r
    for r in range(ahead + 1):
        worth += ways * q ** r * (1.0 - q) ** (ahead - r) * rules[payouts_at + r]
        ways = ways * (ahead - r) / (r + 1)
    return worth


@kernel(inline=True)
def bets_ahead(state, seat):
    """Bets before this player's own in the queue; the whole queue if it has none."""
    n = state[PUB_QUEUE_N]
    for q in range(n):
        if state[PUB_QUEUE + q] == seat:
            return q
    return n


@kernel(inline=True)
def read_race(state, params, seat):
    """The ``Race`` this player sees now (one pass over its hand, four weights)."""
    # the spaces of each pig's number cards, 16 bits a pig, summed without a
    # branch on the card (which colour comes next in a hand is noise to the
    # branch predictor; a mispredicted branch costs more than this arithmetic)
    packed = 0
    held = 0
    for i in range(state[_OWN + OWN_HAND_N]):
        card = state[_OWN + OWN_HAND + i]
        packed += SPACES_PACKED[card]
        held += HELD_PACKED[card]
    h0 = packed & 0xFFFF
    h1 = (packed >> 16) & 0xFFFF
    h2 = (packed >> 32) & 0xFFFF
    h3 = (packed >> 48) & 0xFFFF
    p0, p1, p2, p3 = state[PUB_POS], state[PUB_POS + 1], state[PUB_POS + 2], state[PUB_POS + 3]
    pos = (float(p0), float(p1), float(p2), float(p3))
    hand = (float(h0), float(h1), float(h2), float(h3))
    weight = (grid_weight(params, 2 * p0, h0, pos[0], hand[0]), grid_weight(params, 2 * p1, h1, pos[1], hand[1]),
              grid_weight(params, 2 * p2, h2, pos[2], hand[2]), grid_weight(params, 2 * p3, h3, pos[3], hand[3]))
    total = 0.0
    for pig in range(N_PIGS):
        total += weight[pig]
    return Race(pos, hand, weight, total, slot_worth(params, state, bets_ahead(state, seat)), held)


@kernel(inline=True)
def weight_after(race, params, pig, moved, spaces, spent):
    """The weight of ``pig`` once pig ``moved`` has gone ``spaces`` on, ``spent``
    of them with a card from this player's hand."""
    if pig == moved:
        return pig_weight(params, race.pos[pig] + spaces, race.hand[pig] - spent)
    return race.weight[pig]


@kernel(inline=True)
def bet_worth(race, state, params, moved, spaces, spent):
    """Expected bet points once pig ``moved`` has gone ``spaces`` on: its bet's
    chance times the worth of its place; without a bet, the best bet it could
    lay now (it will, at its next draw)."""
    bet = state[_OWN + OWN_BET_PIG]
    if moved == NO_PIG:
        total = race.total
        mine = race.weight[bet] if bet >= 0 else 0.0
        best = 0.0
        if bet < 0:
            for pig in range(N_PIGS):
                best = max(best, race.weight[pig])
    else:
        total = 0.0
        mine = 0.0
        best = 0.0
        for pig in range(N_PIGS):
            w = weight_after(race, params, pig, moved, spaces, spent)
            total += w
            if pig == bet:
                mine = w
            best = max(best, w)
    if bet >= 0:
        return mine / total * race.slot
    return best / total * race.slot


@kernel(inline=True)
def hand_worth(params, state, cards):
    """The points of going out (the rules'), less a share per card still to
    play: nothing from ``out_reach`` cards on (it no longer counts on going out
    first)."""
    reach = params[P_OUT_REACH]
    if reach <= 0.0:
        return 0.0
    return state[PUB_HAND_POINTS] * max(0.0, 1.0 - cards / reach)


@kernel(inline=True)
def reaches_crown(state, moved, spaces):
    return moved >= 0 and state[PUB_POS + moved] + spaces >= state[PUB_CROWN]


@kernel
def ending_points(race, state, moved, spaces, last_card):
    """Points this player scores when the race ends with pig ``moved`` gone
    ``spaces`` on: the crown's (if it got there), the last card's, its bet if
    its pig is among the winners (the rules' points)."""
    points = 0.0
    winners = 0  # bit mask of the winning pigs
    if reaches_crown(state, moved, spaces):
        points += state[PUB_CROWN_POINTS]
        winners = 1 << moved
    else:
        high = WORST
        for pig in range(N_PIGS):
            pos = state[PUB_POS + pig] + (spaces if pig == moved else 0.0)
            if pos > high:
                high = pos
                winners = 1 << pig
            elif pos == high:
                winners |= 1 << pig
    if last_card:
        points += state[PUB_HAND_POINTS]
    bet = state[_OWN + OWN_BET_PIG]
    if bet >= 0 and (winners >> bet) & 1:
        points += race.slot
    return points


@kernel(inline=True)
def race_ends(state, moved, spaces, cards):
    return cards == 0 or reaches_crown(state, moved, spaces)


@kernel
def outcome(race, state, params, moved, spaces, spent, cards):
    """Expected points once pig ``moved`` has gone ``spaces`` on (``spent`` of
    them from the hand) and this player holds ``cards`` cards: what it scores at
    once if that ends the race, else the worth of its bet and its hand."""
    if race_ends(state, moved, spaces, cards):
        return ending_points(race, state, moved, spaces, cards == 0)
    return bet_worth(race, state, params, moved, spaces, spent) + hand_worth(params, state, cards)


@kernel(inline=True)
def steer_on(race, state, params, moved, spaces, spent, after):
    """What leaving the colour of pig ``moved`` to the next player is worth once
    that pig has gone ``spaces`` on (``after``: the bet's worth then): the next
    player must follow that colour, and a number card of it moves the pig (on
    average MEAN_NUMBER)."""
    if params[P_STEER] == 0.0:
        return 0.0
    return params[P_STEER] * (bet_worth(race, state, params, moved, spaces + MEAN_NUMBER, spent) - after)


@kernel
def steer_table(race, state, params):
    """What leaving each colour is worth when no pig of that colour moved (the
    steer of an X, a +2, a Farmer or a Flapi moving another pig): its pig goes
    MEAN_NUMBER on from where it stands. Once per decision, as a tuple of four."""
    if params[P_STEER] == 0.0:
        return (0.0, 0.0, 0.0, 0.0)
    now = bet_worth(race, state, params, NO_PIG, 0.0, 0.0)
    return (steer_on(race, state, params, 0, 0.0, 0.0, now), steer_on(race, state, params, 1, 0.0, 0.0, now),
            steer_on(race, state, params, 2, 0.0, 0.0, now), steer_on(race, state, params, 3, 0.0, 0.0, now))


@kernel(inline=True)
def next_may_go_out(state, params, seat):
    following = seat + 1
    if following == state[PUB_N_PLAYERS]:
        following = 0
    return state[PUB_HAND_N + following] <= params[P_THREAT_CARDS]


# ------------------------------------------------------------------ choices

@kernel
def name_color(race, state, steers):
    """The Farmer's colour: the one whose pig the next player best moves for
    this player; between equals, the colour it holds most of (to follow it when
    the colour comes back). Returns (colour, steer gain)."""
    best = WORST
    best_held = -1
    pick = 0
    ties = 0
    for color in range(N_PIGS):
        gain = steers[color]
        held = (race.held >> (16 * color)) & 0xFFFF
        if gain > best or (gain == best and held > best_held):
            best, best_held, pick, ties = gain, held, color, 1
        elif gain == best and held == best_held:
            ties += 1
            if below(state, _RNG, ties) == 0:
                pick = color
    return pick, best


@kernel
def best_last_pig(race, state, params, cards):
    """The pig a Flapi should move among those furthest behind, and the
    expected points after it (``cards``: the hand once the Flapi is played)."""
    low = state[PUB_POS]
    for pig in range(1, N_PIGS):
        low = min(low, state[PUB_POS + pig])
    best = WORST
    pick = 0
    ties = 0
    for pig in range(N_PIGS):
        if state[PUB_POS + pig] == low:
            value = outcome(race, state, params, pig, float(state[PUB_FLAPI_MOVE]), 0.0, cards)
            take, ties = prefer(value, best, ties, state)
            if take:
                best = value
                pick = pig
    return pick, best


@kernel
def bet_choice(race, state, params):
    """The pig to bet on now (-1: leave the queue as it is) and the expected
    points that gains. A first bet goes on the likeliest pig and gains
    ``bet_rush`` (laid now rather than at a later draw); a change goes to the
    back of the queue, so it must gain ``switch_margin`` over keeping the bet,
    and the new pig must lead the old one by ``lag`` spaces."""
    bet = state[_OWN + OWN_BET_PIG]
    if bet < 0:
        best = WORST
        pick = 0
        ties = 0
        for pig in range(N_PIGS):
            weight = race.weight[pig]
            take, ties = prefer(weight, best, ties, state)
            if take:
                best = weight
                pick = pig
        return pick, params[P_BET_RUSH]
    total = race.total
    keep = race.weight[bet] / total * race.slot
    back = slot_worth(params, state, state[PUB_QUEUE_N] - 1)
    best = WORST
    pick = -1
    ties = 0
    for pig in range(N_PIGS):
        if pig == bet or state[PUB_POS + pig] - state[PUB_POS + bet] < params[P_LAG]:
            continue
        value = race.weight[pig] / total * back
        take, ties = prefer(value, best, ties, state)
        if take:
            best = value
            pick = pig
    gain = best - keep - params[P_SWITCH_MARGIN]
    if pick < 0 or gain <= 0.0:
        return -1, 0.0
    return pick, gain


@kernel(inline=True)
def drawable(state):
    """Cards a player can draw now: the pile, then the discard pile but its top."""
    return state[PUB_PILE_N] + state[PUB_DISCARD_N] - 1


@kernel
def draw_value(race, state, params, cards, rush):
    """Expected points of drawing: one card, or the whole pending +2 penalty
    with its steps back (the rules' steps per card drawn, spent here on the pig
    whose retreat helps most);
    then the bet it may lay or change (a first bet gains ``bet_rush`` if
    ``rush``). WORST with no card left to draw: a pass, which bots that all
    rather pass than move a rival pig would repeat for good."""
    penalty = state[PUB_PENALTY]
    drawn = min(penalty if penalty > 0 else 1, drawable(state))
    if drawn == 0:
        return WORST
    worth = bet_worth(race, state, params, NO_PIG, 0.0, 0.0)
    if penalty > 0:
        steps = drawn * state[PUB_STEPS_BACK]
        for pig in range(N_PIGS):
            back = -float(min(steps, state[PUB_POS + pig]))
            worth = max(worth, bet_worth(race, state, params, pig, back, 0.0))
    _, gain = bet_choice(race, state, params)
    if state[_OWN + OWN_BET_PIG] < 0 and not rush:
        gain = 0.0
    return worth + gain + hand_worth(params, state, cards + drawn)


@kernel(inline=True)
def play_value(race, steers, state, params, seat, card, cards):
    """Expected points of playing ``card`` from a hand of ``cards``: the race
    after its move (or what it scores if it ends the race), the colour it
    leaves (``steers``: see steer_table), and for the special cards what they
    are worth kept or blocking. Returns (points, whether it ends the race)."""
    kind = KIND[card]
    left = cards - 1
    moved = NO_PIG
    spaces = 0.0
    spent = 0.0
    if kind == NUMBER:
        moved = COLOR[card]
        spaces = float(NUMBER_OF[card])
        spent = spaces
    elif kind == FLAPI:
        moved, _ = best_last_pig(race, state, params, left)
        spaces = float(state[PUB_FLAPI_MOVE])
    if race_ends(state, moved, spaces, left):
        return ending_points(race, state, moved, spaces, left == 0), True
    after = bet_worth(race, state, params, moved, spaces, spent)
    value = after + hand_worth(params, state, left)
    color = COLOR[card]
    if kind == FARMER:
        _, gain = name_color(race, state, steers)
        value += gain
    elif color == moved:
        value += steer_on(race, state, params, moved, spaces, spent, after)
    else:
        value += steers[color]
    if kind == FLAPI or kind == FARMER:
        value -= params[P_KEEP_GREEN]
    elif kind == PLUS2 or kind == SKIP:
        # a +2 answering a +2 is what it was kept for
        if kind == SKIP:
            value -= params[P_KEEP_SKIP]
        elif state[PUB_PENALTY] == 0:
            value -= params[P_KEEP_PLUS2]
        # it stops the next player if the rules make it (an X that skips, a +2 with a penalty)
        stops = state[PUB_X_SKIPS] > 0 if kind == SKIP else state[PUB_PLUS2_STEP] > 0
        if stops and next_may_go_out(state, params, seat):
            value += params[P_BLOCK]
    return value, False


@kernel
def choose_play(race, state, params, seat, n_options):
    """The card to play, or -1 to draw. The rush for a first bet is a taste for
    betting early, not points: it never outweighs a card that ends the race.
    A race that has stalled (see STALL_ROUNDS) gets no more draws by choice."""
    if n_options == 0:
        return -1
    cards = state[_OWN + OWN_HAND_N]
    steers = (0.0, 0.0, 0.0, 0.0)
    for i in range(n_options):
        if KIND[state[S_OPTIONS + i]] != NUMBER:
            steers = steer_table(race, state, params)
            break
    best = WORST
    pick = 0
    ties = 0
    can_end = False
    for i in range(n_options):
        value, ends = play_value(race, steers, state, params, seat, state[S_OPTIONS + i], cards)
        can_end = can_end or ends
        take, ties = prefer(value, best, ties, state)
        if take:
            best = value
            pick = i
    if state[PUB_TURN] >= STALL_ROUNDS * state[PUB_N_PLAYERS]:
        return pick
    if draw_value(race, state, params, cards, not can_end) > best:
        return -1
    return pick


@kernel
def choose_step(race, state, params, n_options):
    """One penalty step back: the pig whose retreat raises its bet's worth
    most; -1 once no retreat does."""
    now = bet_worth(race, state, params, NO_PIG, 0.0, 0.0)
    best = now
    pick = -1
    ties = 0
    for i in range(n_options):
        value = bet_worth(race, state, params, state[S_OPTIONS + i], -1.0, 0.0)
        if value > now:
            take, ties = prefer(value, best, ties, state)
            if take:
                best = value
                pick = i
    return pick


@kernel
def decide_heuristic(what, seat, kind, game, state, params, n_options):
    """The answer of a heuristic bot (the families differ only in ``params``).
    The race is read once (``read_race``), whatever the options."""
    race = read_race(state, params, seat)
    if what == DECIDE_PLAY:
        return choose_play(race, state, params, seat, n_options)
    if what == DECIDE_COLOR:
        color, _ = name_color(race, state, steer_table(race, state, params))
        return color
    if what == DECIDE_FLAPI:
        pig, _ = best_last_pig(race, state, params, state[_OWN + OWN_HAND_N])
        for i in range(n_options):
            if state[S_OPTIONS + i] == pig:
                return i
        return 0
    if what == DECIDE_STEP:
        return choose_step(race, state, params, n_options)
    if what == DECIDE_BET:
        pig, _ = bet_choice(race, state, params)
        return pig
    return -1
