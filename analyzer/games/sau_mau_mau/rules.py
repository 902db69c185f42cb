"""The Sau Mau Mau rules that need no decision, jitted: cards, valid plays, the
draw pile, the deal, pig moves, the bet queue and the scores, as
``shared/rules/sau-mau-mau.md`` states them.

All functions work on the flat ``game`` / ``state`` / ``hidden`` arrays of
``layout.py``. None allocates: they compile without reference counting.
"""
import numpy as np

from analyzer.engine.jit import kernel
from analyzer.engine.rng import shuffle as shuffle_with
from analyzer.games.sau_mau_mau.layout import (
    BE_CHANGE, BE_FROM, BE_LEN, BE_PIG, BE_PLACE, BE_SEAT, BE_TURN, BE_TURN_AWAY, EVENTS_CAP, H_EVENTS,
    H_EVENTS_N, H_SEAT_EVENT, RACE_BET_EVENTS, BET_CHANGED, BET_PIG, BET_POINTS, BET_QUEUE_POS, BET_TURN, END_CAP,
    END_CROWN, END_HAND, FACE_PLUS2, FACE_X, FARMER, FIRST_FARMER, FIRST_FLAPI,
    FIRST_PLUS2, FIRST_X, FLAPI, G_CROWN, G_CROWN_POINTS, G_DEAL, G_HAND_POINTS, G_N_PLAYERS, G_PAYOUTS, G_RULES,
    H_DISCARD, H_PILE, H_RNG, MAX_PLAYERS, N_CARDS, N_PIGS, NUMBER, OWN_BET_CHANGED, OWN_BET_PIG,
    OWN_BET_TURN, OWN_DECISIONS, OWN_DRAWN, OWN_HAND, OWN_HAND_N, OWN_LEN,
    OWN_N_CHANGED, OWN_N_PLACED, OWN_PLAYED, PL_BET_POINTS, PL_BETS_CHANGED,
    PL_BETS_PLACED, PL_CARDS_DRAWN, PL_CARDS_LEFT, PL_CARDS_PLAYED, PL_CROWN_POINTS,
    PL_DECISIONS, PL_HAND_POINTS, PL_RACE_POINTS, PLUS2, PUB_CROWN, PUB_CROWN_PIG,
    PUB_DISCARD_N, PUB_DRAWN, PUB_ENDER, PUB_FIRST, PUB_HAND_N, PUB_MOVER, PUB_N_PLAYERS,
    PUB_NEED, PUB_PENALTY, PUB_PILE_N, PUB_POS, PUB_QUEUE, PUB_QUEUE_N, PUB_RACE,
    PUB_FACE, PUB_RESHUFFLES, PUB_RULES, PUB_SCORE, PUB_SKIP, PUB_STEPS, PUB_TOP, PUB_TURN, RACE_BOTH,
    RACE_CROWN_PIG, RACE_END, RACE_ENDER, RACE_FIRST_SEAT, RACE_POS, RACE_QUEUE_LEN,
    RACE_RESHUFFLES, RACE_TURNS, RACE_WINNING, RULES_LEN, SKIP,
)

# what a turn did to the race (bits), or a bot error
RACE_ON = 0
ENDS_CROWN = 1  # a pig reached the crown
ENDS_HAND = 2  # the mover played its last card
BOT_ERROR = -1  # see PUB_ERROR


# ------------------------------------------------------------------ cards

@kernel(inline=True)
def card_kind(card):
    if card < FIRST_X:
        return NUMBER
    if card < FIRST_PLUS2:
        return SKIP
    if card < FIRST_FLAPI:
        return PLUS2
    if card < FIRST_FARMER:
        return FLAPI
    return FARMER


@kernel(inline=True)
def card_color(card):
    """Colour of a card (a Flapi: its printed colour); -1 for a Farmer."""
    if card < FIRST_X:
        return card // 6
    if card < FIRST_FARMER:
        return (card - FIRST_X) % 4
    return -1


@kernel(inline=True)
def card_number(card):
    return card % 6 + 1 if card < FIRST_X else 0


@kernel(inline=True)
def card_face(card):
    """What besides the colour a card can match: its number 1-6, X, +2; 0 for green."""
    if card < FIRST_X:
        return card % 6 + 1
    if card < FIRST_PLUS2:
        return FACE_X
    if card < FIRST_FLAPI:
        return FACE_PLUS2
    return 0


def _cards(test) -> int:
    """The set of card ids for which ``test`` holds, as a bit mask (bit c: card c)."""
    return sum(1 << c for c in range(N_CARDS) if test(c))


# The card sets the rule of a valid play is made of, as bit masks: a turn's
# valid cards are one mask (``valid_cards``) and its options are read off it
# without a branch on each card of the hand.
ALL_CARDS = _cards(lambda c: True)
PLUS2_CARDS = _cards(lambda c: FIRST_PLUS2 <= c < FIRST_FLAPI)
GREEN_CARDS = _cards(lambda c: c >= FIRST_FLAPI)
COLOR_CARDS = np.array([_cards(lambda c: card_color.py_func(c) == color) for color in range(N_PIGS)], np.int64)
FACE_CARDS = np.array([_cards(lambda c: card_face.py_func(c) == face) for face in range(FACE_PLUS2 + 1)], np.int64)


@kernel(inline=True)
def valid_cards(state):
    """The cards that may be played now, as a bit mask. Under a pending +2
    penalty only a +2; else a green special always; else the required colour
    (PUB_NEED; -1: any) or the same number / symbol as the top card (PUB_FACE:
    none for a first X or +2, whose colour alone counts)."""
    if state[PUB_PENALTY] > 0:
        return PLUS2_CARDS
    need = state[PUB_NEED]
    if need < 0:
        return ALL_CARDS
    return GREEN_CARDS | COLOR_CARDS[need] | FACE_CARDS[state[PUB_FACE]]


@kernel(inline=True)
def is_valid(state, card):
    """May ``card`` be played now? (see valid_cards)"""
    return (valid_cards(state) >> card) & 1 != 0


@kernel(inline=True)
def own_at(seat):
    """Offset of a player's own row in ``hidden``."""
    return seat * OWN_LEN


@kernel(inline=True)
def valid_options(state, hidden, seat, options_at):
    """Write the valid cards of the seat's hand at ``state[options_at:]`` (in hand
    order); return how many."""
    at = own_at(seat)
    valid = valid_cards(state)
    n = 0
    for i in range(hidden[at + OWN_HAND_N]):
        # written at the next place whether valid or not (no branch on the
        # card); a card that is not stays beyond the options' count
        card = hidden[at + OWN_HAND + i]
        state[options_at + n] = card
        n += (valid >> card) & 1
    return n


# ------------------------------------------------------------------ piles

@kernel(inline=True)
def shuffle(hidden, start, n):
    """Fisher-Yates on hidden[start:start+n] with the game's deck stream."""
    shuffle_with(hidden, start, n, hidden, H_RNG)


@kernel(inline=True)
def reshuffle(state, hidden):
    """The discard pile but its top card becomes the new, shuffled draw pile."""
    m = state[PUB_DISCARD_N] - 1
    if m <= 0:
        return
    for i in range(m):
        hidden[H_PILE + i] = hidden[H_DISCARD + i]
    hidden[H_DISCARD] = hidden[H_DISCARD + m]
    state[PUB_DISCARD_N] = 1
    shuffle(hidden, H_PILE, m)
    state[PUB_PILE_N] = m
    state[PUB_RESHUFFLES] += 1


@kernel(inline=True)
def draw_cards(state, hidden, seat, n):
    """The seat draws up to ``n`` cards (rebuilding the draw pile when it runs
    out); returns how many it got (fewer only if every other card is in hands)."""
    at = own_at(seat)
    got = 0
    for _ in range(n):
        if state[PUB_PILE_N] == 0:
            reshuffle(state, hidden)
            if state[PUB_PILE_N] == 0:
                break
        k = state[PUB_PILE_N] - 1
        state[PUB_PILE_N] = k
        h = hidden[at + OWN_HAND_N]
        hidden[at + OWN_HAND + h] = hidden[H_PILE + k]
        hidden[at + OWN_HAND_N] = h + 1
        got += 1
    state[PUB_HAND_N + seat] += got
    hidden[at + OWN_DRAWN] += got
    state[PUB_DRAWN] += got
    return got


@kernel(inline=True)
def discard_from_hand(state, hidden, seat, card):
    """Move ``card`` from the seat's hand onto the discard pile (the last card of
    the hand takes its place)."""
    at = own_at(seat)
    h = hidden[at + OWN_HAND_N] - 1
    for i in range(h + 1):
        if hidden[at + OWN_HAND + i] == card:
            hidden[at + OWN_HAND + i] = hidden[at + OWN_HAND + h]
            break
    hidden[at + OWN_HAND + h] = 0
    hidden[at + OWN_HAND_N] = h
    hidden[at + OWN_PLAYED] += 1
    state[PUB_HAND_N + seat] = h
    d = state[PUB_DISCARD_N]
    hidden[H_DISCARD + d] = card
    state[PUB_DISCARD_N] = d + 1
    state[PUB_TOP] = card
    state[PUB_FACE] = card_face(card)


# ------------------------------------------------------------------ a race

@kernel
def setup_race(game, state, hidden, race):
    """Race ``race`` (1, 2, ...) of the game: pigs to start, the bet queue emptied,
    all 39 cards shuffled, the rule's hand (5 in the box) dealt to each player
    one card at a time from the first player on, the next card turned up (no
    action; an X or +2 there counts by its colour alone). The rules of the game
    are copied into the public state (PUB_RULES), where the bots read them. The
    deck stream (``H_RNG``) is seeded by the caller."""
    n_players = game[G_N_PLAYERS]
    first = (race - 1) % n_players
    for p in range(N_PIGS):
        state[PUB_POS + p] = 0
    state[PUB_N_PLAYERS] = n_players
    state[PUB_CROWN] = game[G_CROWN]
    for i in range(RULES_LEN):
        state[PUB_RULES + i] = game[G_RULES + i]
    state[PUB_RACE] = race
    state[PUB_FIRST] = first
    state[PUB_MOVER] = first
    state[PUB_TURN] = 0
    state[PUB_PENALTY] = 0
    state[PUB_SKIP] = 0
    state[PUB_QUEUE_N] = 0
    state[PUB_DRAWN] = 0
    state[PUB_ENDER] = -1
    state[PUB_CROWN_PIG] = -1
    state[PUB_RESHUFFLES] = 0
    state[PUB_STEPS] = 0
    hidden[H_EVENTS_N] = 0
    for seat in range(n_players):
        hidden[H_SEAT_EVENT + seat] = -1
    for seat in range(n_players):
        at = own_at(seat)
        for i in range(N_CARDS):
            hidden[at + OWN_HAND + i] = 0
        hidden[at + OWN_HAND_N] = 0
        hidden[at + OWN_BET_PIG] = -1
        hidden[at + OWN_BET_TURN] = 0
        hidden[at + OWN_BET_CHANGED] = 0
        hidden[at + OWN_N_PLACED] = 0
        hidden[at + OWN_N_CHANGED] = 0
        hidden[at + OWN_DECISIONS] = 0
        hidden[at + OWN_DRAWN] = 0
        hidden[at + OWN_PLAYED] = 0
        state[PUB_HAND_N + seat] = 0
    for i in range(N_CARDS):
        hidden[H_PILE + i] = i
        hidden[H_DISCARD + i] = 0
    shuffle(hidden, H_PILE, N_CARDS)
    k = N_CARDS
    for _ in range(game[G_DEAL]):
        for j in range(n_players):
            seat = (first + j) % n_players
            at = own_at(seat)
            k -= 1
            h = hidden[at + OWN_HAND_N]
            hidden[at + OWN_HAND + h] = hidden[H_PILE + k]
            hidden[at + OWN_HAND_N] = h + 1
            state[PUB_HAND_N + seat] = h + 1
    k -= 1
    top = hidden[H_PILE + k]
    hidden[H_DISCARD] = top
    state[PUB_DISCARD_N] = 1
    state[PUB_PILE_N] = k
    state[PUB_TOP] = top
    state[PUB_NEED] = card_color(top)  # a Flapi: its colour; a Farmer: -1, any card
    # a first X or +2 counts by its colour alone, as a first Flapi does (no
    # symbol matches it); a first number card matches its number
    state[PUB_FACE] = card_number(top)


@kernel(inline=True)
def move_pig(state, pig, spaces):
    """Move a pig forward; returns ENDS_CROWN if it reached the crown."""
    pos = state[PUB_POS + pig] + spaces
    state[PUB_POS + pig] = pos
    if pos >= state[PUB_CROWN]:
        state[PUB_CROWN_PIG] = pig
        return ENDS_CROWN
    return RACE_ON


@kernel(inline=True)
def last_pigs(state, options_at):
    """The pigs furthest behind, written at ``state[options_at:]``; returns how many."""
    low = state[PUB_POS]
    for p in range(1, N_PIGS):
        if state[PUB_POS + p] < low:
            low = state[PUB_POS + p]
    n = 0
    for p in range(N_PIGS):
        if state[PUB_POS + p] == low:
            state[options_at + n] = p
            n += 1
    return n


@kernel(inline=True)
def pigs_off_start(state, options_at):
    """The pigs a penalty step may move back, at ``state[options_at:]``."""
    n = 0
    for p in range(N_PIGS):
        if state[PUB_POS + p] > 0:
            state[options_at + n] = p
            n += 1
    return n


@kernel(inline=True)
def place_bet(state, hidden, seat, pig):
    """Lay a bet card on ``pig`` at the end of the queue; an earlier bet of the
    seat is taken back first and the cards behind it close the gap."""
    at = own_at(seat)
    n = state[PUB_QUEUE_N]
    changed = 0
    replaced = hidden[at + OWN_BET_PIG]
    if hidden[at + OWN_BET_PIG] >= 0:
        changed = 1
        j = 0
        for i in range(n):
            if state[PUB_QUEUE + i] != seat:
                state[PUB_QUEUE + j] = state[PUB_QUEUE + i]
                j += 1
        n = j
    state[PUB_QUEUE + n] = seat
    state[PUB_QUEUE_N] = n + 1
    hidden[at + OWN_BET_PIG] = pig
    hidden[at + OWN_BET_TURN] = state[PUB_TURN]
    hidden[at + OWN_BET_CHANGED] = changed
    hidden[at + OWN_N_PLACED] += 1
    hidden[at + OWN_N_CHANGED] += changed
    # the bet events of the race (records only; no rule reads them)
    n_events = hidden[H_EVENTS_N]
    before = hidden[H_SEAT_EVENT + seat]
    if changed and before >= 0:
        hidden[H_EVENTS + before * BE_LEN + BE_TURN_AWAY] = state[PUB_TURN]
    hidden[H_SEAT_EVENT + seat] = n_events if n_events < EVENTS_CAP else -1
    if n_events < EVENTS_CAP:
        e = H_EVENTS + n_events * BE_LEN
        hidden[e + BE_SEAT] = seat
        hidden[e + BE_PIG] = pig
        hidden[e + BE_TURN] = state[PUB_TURN]
        hidden[e + BE_PLACE] = n + 1
        hidden[e + BE_CHANGE] = changed
        hidden[e + BE_TURN_AWAY] = 0
        hidden[e + BE_FROM] = replaced
    hidden[H_EVENTS_N] = n_events + 1


@kernel
def record_bet_events(state, hidden, race_row, event_rows):
    """The race's bet events (the first EVENTS_CAP; RACE_BET_EVENTS counts them all)
    into its record rows."""
    n_events = hidden[H_EVENTS_N]
    race_row[RACE_BET_EVENTS] = n_events
    for i in range(min(n_events, EVENTS_CAP)):
        for k in range(BE_LEN):
            event_rows[i, k] = hidden[H_EVENTS + i * BE_LEN + k]


@kernel
def winning_mask(state, ends):
    """Bit mask of the winning pigs: the crown pig, or (last card, or a stopped
    race) every pig furthest ahead."""
    if ends & ENDS_CROWN:
        return 1 << state[PUB_CROWN_PIG]
    high = state[PUB_POS]
    for p in range(1, N_PIGS):
        if state[PUB_POS + p] > high:
            high = state[PUB_POS + p]
    mask = 0
    for p in range(N_PIGS):
        if state[PUB_POS + p] == high:
            mask |= 1 << p
    return mask


@kernel
def bet_points(game, rank):
    """Points of the rank-th (0-based) winning bet in queue order (the rule
    bet_payouts: 6, 4, 3, 2, 1 in the box; 0 past its list)."""
    if rank < MAX_PLAYERS:
        return game[G_PAYOUTS + rank]
    return 0


@kernel
def score_race(game, state, hidden, ends, race_row, player_rows, bet_rows):
    """Score a finished race into its records and the running game scores.
    ``ends``: ENDS_CROWN / ENDS_HAND bits, 0 for a race stopped at MAX_TURNS."""
    n_players = game[G_N_PLAYERS]
    mask = winning_mask(state, ends)
    race_row[RACE_FIRST_SEAT] = state[PUB_FIRST]
    race_row[RACE_TURNS] = state[PUB_TURN]
    if ends & ENDS_CROWN:
        race_row[RACE_END] = END_CROWN
    elif ends & ENDS_HAND:
        race_row[RACE_END] = END_HAND
    else:
        race_row[RACE_END] = END_CAP
    race_row[RACE_BOTH] = 1 if ends == ENDS_CROWN | ENDS_HAND else 0
    race_row[RACE_WINNING] = mask
    race_row[RACE_QUEUE_LEN] = state[PUB_QUEUE_N]
    race_row[RACE_ENDER] = state[PUB_ENDER] if ends != 0 else -1
    race_row[RACE_CROWN_PIG] = state[PUB_CROWN_PIG] if ends & ENDS_CROWN else -1
    race_row[RACE_RESHUFFLES] = state[PUB_RESHUFFLES]
    for p in range(N_PIGS):
        race_row[RACE_POS + p] = state[PUB_POS + p]
    for seat in range(n_players):
        at = own_at(seat)
        row = player_rows[seat]
        row[PL_BET_POINTS] = 0
        row[PL_CROWN_POINTS] = 0
        row[PL_HAND_POINTS] = 0
        row[PL_BETS_PLACED] = hidden[at + OWN_N_PLACED]
        row[PL_BETS_CHANGED] = hidden[at + OWN_N_CHANGED]
        row[PL_CARDS_LEFT] = hidden[at + OWN_HAND_N]
        row[PL_CARDS_DRAWN] = hidden[at + OWN_DRAWN]
        row[PL_CARDS_PLAYED] = hidden[at + OWN_PLAYED]
        row[PL_DECISIONS] = hidden[at + OWN_DECISIONS]
        bet = bet_rows[seat]
        bet[BET_PIG] = -1
        bet[BET_QUEUE_POS] = 0
        bet[BET_TURN] = 0
        bet[BET_CHANGED] = 0
        bet[BET_POINTS] = 0
    ender = state[PUB_ENDER]
    if ends & ENDS_CROWN:
        player_rows[ender, PL_CROWN_POINTS] = game[G_CROWN_POINTS]
    if ends & ENDS_HAND:
        player_rows[ender, PL_HAND_POINTS] = game[G_HAND_POINTS]
    rank = 0
    for q in range(state[PUB_QUEUE_N]):
        seat = state[PUB_QUEUE + q]
        at = own_at(seat)
        pig = hidden[at + OWN_BET_PIG]
        bet = bet_rows[seat]
        bet[BET_PIG] = pig
        bet[BET_QUEUE_POS] = q + 1
        bet[BET_TURN] = hidden[at + OWN_BET_TURN]
        bet[BET_CHANGED] = hidden[at + OWN_BET_CHANGED]
        if (mask >> pig) & 1:
            points = bet_points(game, rank)
            rank += 1
            bet[BET_POINTS] = points
            player_rows[seat, PL_BET_POINTS] = points
    for seat in range(n_players):
        row = player_rows[seat]
        total = row[PL_BET_POINTS] + row[PL_CROWN_POINTS] + row[PL_HAND_POINTS]
        row[PL_RACE_POINTS] = total
        state[PUB_SCORE + seat] += total


@kernel
def check_invariants(game, state, hidden):
    """True if every card is exactly once in a hand, the draw pile or the
    discard pile (39 in all), the counts agree, no pig is behind start and the
    bet queue holds exactly one card per player with a bet."""
    n_players = game[G_N_PLAYERS]
    seen = 0  # bit mask over the 39 cards
    total = 0
    for seat in range(n_players):
        at = own_at(seat)
        h = hidden[at + OWN_HAND_N]
        if h != state[PUB_HAND_N + seat]:
            return False
        for i in range(h):
            bit = np.int64(1) << hidden[at + OWN_HAND + i]
            if seen & bit:
                return False
            seen |= bit
        total += h
    for i in range(state[PUB_PILE_N]):
        bit = np.int64(1) << hidden[H_PILE + i]
        if seen & bit:
            return False
        seen |= bit
    for i in range(state[PUB_DISCARD_N]):
        bit = np.int64(1) << hidden[H_DISCARD + i]
        if seen & bit:
            return False
        seen |= bit
    total += state[PUB_PILE_N] + state[PUB_DISCARD_N]
    if total != N_CARDS or seen != (np.int64(1) << N_CARDS) - 1:
        return False
    if state[PUB_DISCARD_N] < 1 or hidden[H_DISCARD + state[PUB_DISCARD_N] - 1] != state[PUB_TOP]:
        return False
    for p in range(N_PIGS):
        if state[PUB_POS + p] < 0:
            return False
    n_bets = 0
    for seat in range(n_players):
        at = own_at(seat)
        in_queue = 0
        for q in range(state[PUB_QUEUE_N]):
            if state[PUB_QUEUE + q] == seat:
                in_queue += 1
        has = 1 if hidden[at + OWN_BET_PIG] >= 0 else 0
        if in_queue != has:
            return False
        n_bets += has
    return n_bets == state[PUB_QUEUE_N]
