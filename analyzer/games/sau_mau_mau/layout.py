"""Named integer constants of Sau Mau Mau: pigs, cards, decisions, the layout of
the flat int64 arrays the kernel and the bots share, and the record columns.

A game lives in three flat int64 arrays (few array arguments per call):
- ``game``: what is fixed for a run: player count, crown, bot kinds (``G_*``);
- ``state``: what the deciding player may see: the public state (``PUB_*``), a
  copy of its own hidden row (``S_VIEW``) and the options of the decision
  (``S_OPTIONS``). A bot is given ``state`` and nothing else of the game;
- ``hidden``: the kernel's private part: every player's own row (``OWN_*``: hand,
  bet card, random stream), the draw pile, the discard pile, the deck's random
  stream and a script for the scripted test bot (``H_*``).

Sizes are fixed for the largest table (5 players), so no offset is variable.
"""

PIGS = ("pink", "brown", "black", "beige")
N_PIGS = 4
MIN_PLAYERS, MAX_PLAYERS = 2, 5
MAX_TURNS = 100_000  # safety stop of a race no one can end (see END_CAP)
# bounds of the rule numbers (ruleset.py: the box's values are there, the
# kernel reads the variant's from the game array, G_RULES below)
MAX_RACES = 8  # races in a game: the records' per-race bound (a game fills G_RACES of them)
MAX_HAND_SIZE = 10  # cards dealt to each player (and at most 38 / players: see max_hand_size)
MAX_POINTS = 99  # points of a bet, the crown or the last card (the records' int8 columns hold them)
MAX_STEP = 10  # cards a +2 adds, steps back per penalty card, spaces a Flapi moves, turns an X skips

# ------------------------------------------------------------------ the cards
# card id c (0-38):
#   0-23  numbered: colour c // 6, number c % 6 + 1
#   24-27 X of colour c - 24
#   28-31 +2 of colour c - 28
#   32-35 Flapi showing colour c - 32
#   36-38 Farmer (no colour)
N_CARDS = 39
NUMBER, SKIP, PLUS2, FLAPI, FARMER = range(5)
CARD_KINDS = ("number", "X", "+2", "Flapi", "Farmer")
FIRST_X, FIRST_PLUS2, FIRST_FLAPI, FIRST_FARMER = 24, 28, 32, 36
FACE_X, FACE_PLUS2 = 7, 8  # faces 1-6 are the numbers; 0: green (matches no face)
# (a first X or +2, turned up to start the race, leaves face 0 too: only its colour counts)


def card_id(kind: str, color: str | None = None, number: int = 0) -> int:
    """Card id from names, for tests and files: ``card_id("number", "brown", 5)``."""
    k = CARD_KINDS.index(kind)
    if k == FARMER:
        return FIRST_FARMER
    c = PIGS.index(color)
    if k == NUMBER:
        return c * 6 + number - 1
    return (FIRST_X, FIRST_PLUS2, FIRST_FLAPI)[k - 1] + c


def max_hand_size(players: int) -> int:
    """The most cards a rule may deal to each of ``players`` (every hand dealt
    and one card turned up from the deck, MAX_HAND_SIZE at most)."""
    return min(MAX_HAND_SIZE, (N_CARDS - 1) // players)


def card_name(card: int) -> str:
    if card < FIRST_X:
        return f"{card % 6 + 1} {PIGS[card // 6]}"
    if card < FIRST_FARMER:
        return f"{CARD_KINDS[1 + (card - FIRST_X) // 4]} {PIGS[(card - FIRST_X) % 4]}"
    return "Farmer"


# ------------------------------------------------------------------ game array
G_N_PLAYERS = 0
G_CROWN = 1
G_CHECK = 2  # 1: check the card and bet invariants after every turn (tests)
G_KINDS = 3  # MAX_PLAYERS: bot kind of each seat
G_TRACE_AT = G_KINDS + MAX_PLAYERS  # hidden: where a replay's event trace starts (0: none; engine/trace.py)
# the rules the game is played by (ruleset.py; the match packs them, each race
# copies them into the public state at PUB_RULES, where the bots read them):
# offsets R_* in a block of RULES_LEN, at G_RULES in game and PUB_RULES in state
R_DEAL = 0  # cards dealt to each player at a race's start (hand_size)
R_RACES = 1  # races in a game (races_per_game)
R_PLUS2_STEP = 2  # cards a +2 adds to the penalty (plus_two_step)
R_STEPS_BACK = 3  # steps back per card drawn as a penalty (steps_back_per_card)
R_FLAPI_MOVE = 4  # spaces a Flapi moves the last pig (flapi_move)
R_CROWN_POINTS = 5  # points for moving a pig onto the crown (crown_points)
R_HAND_POINTS = 6  # points for playing the last card (last_card_points)
R_X_SKIPS = 7  # turns an X skips, the next players' in turn order (x_skips)
R_PAYOUTS = 8  # MAX_PLAYERS: points of the winning bets in queue order, 0 past the rule's list (bet_payouts)
RULES_LEN = R_PAYOUTS + MAX_PLAYERS
G_RULES = G_TRACE_AT + 1
(G_DEAL, G_RACES, G_PLUS2_STEP, G_STEPS_BACK, G_FLAPI_MOVE, G_CROWN_POINTS, G_HAND_POINTS, G_X_SKIPS,
 G_PAYOUTS) = (G_RULES + r for r in (R_DEAL, R_RACES, R_PLUS2_STEP, R_STEPS_BACK, R_FLAPI_MOVE, R_CROWN_POINTS,
                                     R_HAND_POINTS, R_X_SKIPS, R_PAYOUTS))
G_LEN = G_RULES + RULES_LEN

# ------------------------------------------------------------------ public state
PUB_POS = 0  # N_PIGS: space of each pig (0 = start)
PUB_TOP = 4  # card on top of the discard pile
PUB_NEED = 5  # colour the next card must have (-1: any, after a Farmer turned up)
PUB_PENALTY = 6  # cards the mover must draw unless it plays a +2 (0: none)
PUB_SKIP = 7  # turns still to skip, the mover's first (an X was played: the rule x_skips, 1 in the box)
PUB_TURN = 8  # player turns of the race so far, skipped ones included
PUB_MOVER = 9  # seat whose turn it is
PUB_FIRST = 10  # first player of the race
PUB_N_PLAYERS = 11
PUB_CROWN = 12
PUB_HAND_N = 13  # MAX_PLAYERS: cards in each hand
PUB_PILE_N = 18  # cards in the draw pile
PUB_DISCARD_N = 19  # cards in the discard pile
PUB_QUEUE_N = 20  # bets in the queue
PUB_QUEUE = 21  # MAX_PLAYERS: seat of each bet in queue order (the pig is face down)
PUB_DRAWN = 26  # cards the mover drew this turn (penalty included)
PUB_SCORE = 27  # MAX_PLAYERS: points so far in the game, before this race
PUB_RACE = 32  # 1 to the game's races (PUB_RACES)
PUB_ERROR = 33  # an invalid bot answer: ERROR_* * 8 + seat; or an invariant broken
PUB_ENDER = 34  # seat whose card ended the race
PUB_CROWN_PIG = 35  # pig that reached the crown, -1
PUB_RESHUFFLES = 36  # draw piles rebuilt this race
PUB_STEPS = 37  # penalty steps back left to take (during a DECIDE_STEP)
PUB_FACE = 38  # what besides the colour the next card may match (FACE_*: a number 1-6, X, +2; 0: nothing)
PUB_RULES = 39  # RULES_LEN: the rules of the game (the R_* block of G_RULES, copied at each race's start)
(PUB_DEAL, PUB_RACES, PUB_PLUS2_STEP, PUB_STEPS_BACK, PUB_FLAPI_MOVE, PUB_CROWN_POINTS, PUB_HAND_POINTS,
 PUB_X_SKIPS, PUB_PAYOUTS) = (PUB_RULES + r for r in (R_DEAL, R_RACES, R_PLUS2_STEP, R_STEPS_BACK, R_FLAPI_MOVE,
                                                      R_CROWN_POINTS, R_HAND_POINTS, R_X_SKIPS, R_PAYOUTS))
PUB_LEN = PUB_RULES + RULES_LEN

# own row, one per seat, in hidden
OWN_HAND = 0  # N_CARDS: card ids, the first OWN_HAND_N used
OWN_HAND_N = N_CARDS
OWN_BET_PIG = OWN_HAND_N + 1  # pig of its bet in the queue, -1 if none
OWN_BET_TURN = OWN_BET_PIG + 1  # turn that card was laid
OWN_BET_CHANGED = OWN_BET_TURN + 1  # 1 if that card replaced an earlier bet
OWN_N_PLACED = OWN_BET_CHANGED + 1  # bet cards laid this race (changes included)
OWN_N_CHANGED = OWN_N_PLACED + 1  # of which changes
OWN_RNG = OWN_N_CHANGED + 1  # the player's own stream for its bot (uint64 bits)
OWN_DECISIONS = OWN_RNG + 1  # decisions its bot was asked this race
OWN_DRAWN = OWN_DECISIONS + 1  # cards drawn this race (penalties included)
OWN_PLAYED = OWN_DRAWN + 1  # cards played this race
OWN_LEN = OWN_PLAYED + 1

# rest of state
S_VIEW = PUB_LEN  # OWN_LEN: the deciding player's own row (a copy)
S_OPTIONS = S_VIEW + OWN_LEN  # N_CARDS: options of the decision
S_LEN = S_OPTIONS + N_CARDS

# hidden
H_PILE = MAX_PLAYERS * OWN_LEN  # N_CARDS: draw pile, drawn from the end
H_DISCARD = H_PILE + N_CARDS  # N_CARDS: discard pile, top at the end
H_RNG = H_DISCARD + N_CARDS  # the game's stream for shuffles and the deal
H_SCRIPT_I = H_RNG + 1  # next answer of the scripted bot
H_SCRIPT_N = H_SCRIPT_I + 1
H_SCRIPT = H_SCRIPT_N + 1
SCRIPT_CAP = 256
H_EVENTS_N = H_SCRIPT + SCRIPT_CAP  # bet cards laid this race (the bet events, BE_* below)
H_SEAT_EVENT = H_EVENTS_N + 1  # MAX_PLAYERS: each seat's event of its bet in the queue, -1 if none recorded
H_EVENTS = H_SEAT_EVENT + MAX_PLAYERS  # EVENTS_CAP x BE_LEN: this race's bet events, in laying order
H_SEARCH = H_EVENTS + 24 * 7  # (EVENTS_CAP * BE_LEN, below) the search bot's work area (SEARCH_LEN, below)

# ------------------------------------------------------------------ decisions
# replay trace events (engine/trace.py): kind, seat, a, b, c, payload
EV_RACE = 1  # a race is dealt: a: race 1.., b: first seat; payload: the public state PUB_POS .. PUB_DRAWN
EV_PLAY = 2  # a: card played or -1 (draws), b: valid cards, c: penalty waiting; payload: the valid cards
EV_DRAW = 3  # a: cards drawn, b: 1 if a +2 penalty
EV_STEP = 4  # a: pig stepped one space back for a penalty card
EV_BET = 5  # a: pig bet on (a change if it had a bet), or -1: passes
EV_FLAPI = 6  # a: the last pig the Flapi moves
EV_FARMER = 7  # a: the colour the Farmer names
EV_TURN = 8  # a turn is over: a: race-end bits, b: 1 if it was skipped; payload: PUB_POS .. PUB_DRAWN
EV_RACE_END = 9  # a: race-end bits (0: stopped at MAX_TURNS)

DECIDE_PLAY = 0  # options: valid card ids in hand; answer: index, or -1 to draw
DECIDE_COLOR = 1  # Farmer played: answer a colour 0-3
DECIDE_FLAPI = 2  # options: the tied last pigs; answer: index
DECIDE_STEP = 3  # one penalty step back (PUB_STEPS left); options: pigs off start;
# answer: index, or -1 to take no more steps
DECIDE_BET = 4  # answer: a pig to bet on (changing an existing bet), or -1 to pass

# bot kinds (the kernel dispatches on them; registry.py names them)
RANDOM = 0
SCRIPTED = 1  # tests: answers from hidden[H_SCRIPT:], in order
BACKER = 2  # backs a pig from its hand: bets it early and pushes it
TEMPO = 3  # plays to go out: hoards +2, X and green cards, blocks a player about to go out
SWITCHER = 4  # watches the race: bets, then moves its bet to a pig pulling ahead
FIRST_HEURISTIC, LAST_HEURISTIC = BACKER, SWITCHER  # answered by bots.decide_heuristic
LOOKAHEAD = 5  # the search bot (search.py): weighs its play and bet options by playouts

# parameter row of a heuristic bot (float64, one row per seat; registry.py
# names the slots and sets each family's defaults; bots.py says how they are
# used). 0 switches off what a slot adds (steer, rush, keeping, blocking).
P_SHARPNESS = 0  # how strongly the pig ahead is expected to win, per space
P_HAND_WEIGHT = 1  # win-chance weight of a space its own hand can still move a pig
P_CROWDING = 2  # chance that a bet ahead in the queue is on the same pig
P_OUT_REACH = 3  # cards in hand from which it no longer counts on going out
P_STEER = 4  # weight of the colour a card leaves for the next player to follow
P_SWITCH_MARGIN = 5  # expected points a bet change must gain
P_LAG = 6  # spaces its pig must trail the new pig before the bet is changed
P_BET_RUSH = 7  # points it gives for putting a first bet down now
P_KEEP_GREEN = 8  # points a Flapi or Farmer is worth kept in hand (a sure last card)
P_KEEP_PLUS2 = 9  # points a +2 is worth kept in hand (an answer to a +2)
P_KEEP_SKIP = 10  # points an X is worth kept in hand
P_BLOCK = 11  # points of stopping the next player when it may go out
P_THREAT_CARDS = 12  # the next player may go out with this many cards or fewer
N_PARAMS = 13
# the search bot's row: the model above (its heuristic playout policy's and its
# own answers to a Farmer, a Flapi tie and penalty steps), then these
P_ROLLOUTS = N_PARAMS  # playouts per option (the budget)
P_PLAYOUT = N_PARAMS + 1  # who plays every seat in the playouts: RANDOM or a heuristic kind
P_DROP = N_PARAMS + 2  # standard errors below the leader that drop an option (0: never)
P_WIN_POINTS = N_PARAMS + 3  # in the last race, what winning the game is worth in points of margin
PARAMS_WIDTH = N_PARAMS + 4

# invalid bot answers / broken invariants (the kernel cannot raise)
ERROR_PLAY, ERROR_COLOR, ERROR_FLAPI, ERROR_STEP, ERROR_BET, ERROR_KIND, ERROR_INVARIANT = range(1, 8)
ERRORS = {
    ERROR_PLAY: "chose a card outside its valid cards",
    ERROR_COLOR: "named no colour",
    ERROR_FLAPI: "chose a pig that is not last",
    ERROR_STEP: "stepped back a pig outside its options",
    ERROR_BET: "bet on no pig",
    ERROR_KIND: "has an unknown bot kind",
    ERROR_INVARIANT: "broke an invariant (cards or bet queue)",
}

# ------------------------------------------------------------------ records
END_CROWN, END_HAND, END_CAP = 0, 1, 2  # END_CROWN also when both ends happen
ENDS = ("crown", "hand", "cap")

# per race ([MAX_RACES, RACE_LEN] per game; the first G_RACES rows are played)
RACE_FIRST_SEAT = 0
RACE_TURNS = 1
RACE_END = 2
RACE_BOTH = 3  # 1 if crown and last card at once
RACE_WINNING = 4  # bit mask of winning pigs (bit p = pig p)
RACE_QUEUE_LEN = 5
RACE_ENDER = 6  # seat that ended the race (-1 at END_CAP)
RACE_CROWN_PIG = 7  # -1 unless END_CROWN
RACE_RESHUFFLES = 8
RACE_POS = 9  # N_PIGS: final spaces
RACE_BET_EVENTS = 13  # bet cards laid in the race, changes included (its rows of bet events: the first EVENTS_CAP)
RACE_LEAD_CHANGES = 14  # the game-flow counters (engine/flow.py) of the pigs' standing
RACE_DECIDED_AFTER = 15
RACE_COMEBACK = 16
RACE_LEN = 17

# per race and player ([MAX_RACES, players, PL_LEN] per game)
PL_RACE_POINTS = 0  # all points of the race: bet + crown + hand
PL_BET_POINTS = 1
PL_CROWN_POINTS = 2
PL_HAND_POINTS = 3
PL_BETS_PLACED = 4  # bet cards laid in the queue, changes included
PL_BETS_CHANGED = 5
PL_CARDS_LEFT = 6
PL_CARDS_DRAWN = 7
PL_CARDS_PLAYED = 8
PL_DECISIONS = 9
PL_LEN = 10

# per race and player: its bet in the queue at the end ([MAX_RACES, players, BET_LEN])
BET_PIG = 0  # -1: no bet (then the other columns are 0)
BET_QUEUE_POS = 1  # 1-based
BET_TURN = 2  # turn it was laid
BET_CHANGED = 3  # 1 if it replaced an earlier bet of the player
BET_POINTS = 4
BET_LEN = 5

# per race: every bet card laid, in laying order ([MAX_RACES, EVENTS_CAP, BE_LEN] int32 per game)
EVENTS_CAP = 24  # bet cards a race records (the built-in bots laid at most 18 in 80,000 races of five switchers)
BE_SEAT = 0
BE_PIG = 1
BE_TURN = 2  # turn it was laid
BE_PLACE = 3  # its place in the queue when laid (the queue's length then)
BE_CHANGE = 4  # 1 if it replaced an earlier bet of the player (a change: "changed to")
BE_TURN_AWAY = 5  # turn a change of the player took it out of the queue ("changed from"); 0: still there at the end
BE_FROM = 6  # a change: the pig of the bet it replaced; -1 for a first bet
BE_LEN = 7

# per game and player ([players, GM_LEN] per game)
GM_TOTAL = 0
GM_WON = 1  # ties share the win
GM_LEN = 2

assert H_SEARCH == H_EVENTS + EVENTS_CAP * BE_LEN

# the search bot's work area at H_SEARCH in hidden (search.py): its playouts'
# copies of the game, the state and the hidden array up to here, a work row
# and the race's records
SEARCH_WORK = 48
SEARCH_LEN = G_LEN + S_LEN + H_SEARCH + SEARCH_WORK + RACE_LEN + MAX_PLAYERS * (PL_LEN + BET_LEN)
# MAX_TURNS: the race's leading pig after each turn (game-flow counters, engine/flow.py),
# after the search's area: a playout copies the hidden array only up to H_SEARCH
H_FLOW = H_SEARCH + SEARCH_LEN
H_LEN = H_FLOW + MAX_TURNS
