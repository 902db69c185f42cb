"""Named integer constants of Lemming Mafia: colours, actions, contract kinds, the
layout of the flat state arrays the kernel and the bots share, and the decisions.

A race lives in three flat int64 arrays, so that jitted functions take few
arguments (each array argument costs a call several scalar arguments):
- ``game``: what is fixed for a run: header, bot kinds, board, deck (``G_*``);
- ``state``: what the deciding player may see: the public state (``PUB_*``), a
  copy of its own hidden row (``S_VIEW``), the options of the decision and the
  occupant of every field (``S_*``). A bot is given ``state`` and nothing else of
  the race, so it cannot look at other players' cards;
- ``hidden``: the kernel's private part: every player's own row (``OWN_*``),
  discard turns, simultaneous answers, the deck order and field counters
  (offsets in the ``game`` header, ``G_H_*``).
"""

COLORS = ("blue", "grey", "green", "purple", "pink", "red")
N_LEMMINGS = 6
# contract cards dealt to each player: the box deals 3 (rule ``contracts_dealt``, in
# the game header at G_CONTRACTS_DEALT); a player's row has room for MAX_CONTRACTS_EACH,
# the slots past the dealt count stay empty (never held). One 8-bit mask holds a
# player's contracts (random_race.py), as one holds a section's fields.
MAX_CONTRACTS_EACH = 8
MAX_BLOCKS_TO_ELIMINATE = 6  # rule ``blocks_to_eliminate``: the box's third block eliminates
MAX_SECTION_FIELDS = 8  # the box has 2 or 3; a section's fields are one 8-bit mask in state (S_OCCUPANT)
MIN_PLAYERS, MAX_PLAYERS = 3, 6
VARIANT_MIN_PLAYERS = 2  # two players: a variant the rules page allows if flagged

# field actions
EMPTY, CONCRETE, JACKHAMMER, GETAWAY, BOOKMAKER, BOSS = range(6)
ACTIONS = ("empty", "concrete", "jackhammer", "getaway", "bookmaker", "boss")

# contract kinds: (name, colours named on the card, printed points)
ELIMINATED, BEFORE, TOP3, AT_MOST_ONE_ELIMINATED, AT_LEAST_THREE_ELIMINATED, WINNER_CLEAN = range(6)
CONTRACT_KINDS = (
    "eliminated",
    "before",
    "top3",
    "at_most_one_eliminated",
    "at_least_three_eliminated",
    "winner_clean",
)
KIND_COLOR_COUNT = (2, 2, 1, 0, 0, 0)
KIND_POINTS = (1, 2, 3, 4, 4, 5)

# deck array columns ([cards, DECK_LEN] int64)
DECK_KIND, DECK_C1, DECK_C2, DECK_POINTS = range(4)
DECK_LEN = 4

# game header (offsets of the variable-length parts are stored in it)
G_N_FIELDS = 0
G_N_SECTIONS = 1
G_N_CARDS = 2
G_N_PLAYERS = 3
G_KINDS = 4  # 6 seats: bot id of each seat
G_ACTION_AT = 10  # fields: action of each field
G_SECTION_AT = 11  # fields: section of each field
G_START_AT = 12  # sections + 1: first field of each section
G_DECK_AT = 13  # cards x DECK_LEN
G_H_DISCARD_AT = 14  # hidden: players x MAX_CONTRACTS_EACH turn of each discard (0 = kept)
G_H_ANSWERS_AT = 15  # hidden: players, simultaneous answers
G_H_ORDER_AT = 16  # hidden: cards, the shuffled deck
G_H_COUNT_AT = 17  # hidden: fields x FIELD_LEN counters
G_H_LEN = 18
G_S_LEN = 19  # state: S_OCCUPANT + fields, the section masks, then the bots' work area
G_S_WORK_AT = 20  # where the work area starts (= the length of a race's state)
G_PROGRESS_AT = 21  # fields + 3: sections behind a lemming at position p, at p + 2
G_TRACE_AT = 22  # hidden: where a replay's event trace starts (0: no trace; engine/trace.py)
G_FORCE_AT = 23  # hidden: where an intervention's forcing region starts (0: none; F_* below)
G_FIELD_BIT_AT = 24  # fields + 3: a position's bit in its section's occupancy mask, at position + 2
# (0 in the start area, once eliminated and in the water)
G_SECTION_FULL_AT = 25  # sections + 1: the mask of every field of each section (the water: 0)
G_S_SECTIONS_AT = 26  # state: sections + 2 occupancy masks, after S_OCCUPANT's fields (see S_OCCUPANT)
G_S_FLOW_AT = 27  # state: the race's leader after each move (engine/flow.py), past the work area
# the rules a run plays (ruleset.py's keys, packed by board.pack_game): data, so that a
# variant compiles no kernel again
G_CONTRACTS_DEALT = 28  # contracts_dealt: contract cards dealt to each player (1 .. MAX_CONTRACTS_EACH)
G_UNFULFILLED = 29  # unfulfilled_contract: what a contract still held and not fulfilled scores
G_BLOCKS_OUT = 30  # blocks_to_eliminate: the block that eliminates a lemming (2 .. MAX_BLOCKS_TO_ELIMINATE)
G_GETAWAY_DIE = 31  # getaway_die: sides of the number die of a getaway car
G_BETS_PER_BOOKMAKER = 32  # bets_per_bookmaker: bet cards each player may place at one bookmaker
G_DISCARDS_PER_BOSS = 33  # discards_per_boss: contracts each player may throw away at one boss
G_JACKHAMMER_REMOVES = 34  # jackhammer_removes: blocks a jackhammer takes off (at most those carried)
G_BET_POINTS = 35  # N_LEMMINGS: bet_points: what the winner's card pays on each stack position
# (first placed first), the list padded with its last entry to the six a stack can hold
G_HEADER = G_BET_POINTS + 6
# the slot of each rule (ruleset.py's key names); bet_points takes N_LEMMINGS slots from its own
RULE_SLOTS = {"contracts_dealt": G_CONTRACTS_DEALT, "unfulfilled_contract": G_UNFULFILLED,
              "blocks_to_eliminate": G_BLOCKS_OUT, "bet_points": G_BET_POINTS, "getaway_die": G_GETAWAY_DIE,
              "bets_per_bookmaker": G_BETS_PER_BOOKMAKER, "discards_per_boss": G_DISCARDS_PER_BOSS,
              "jackhammer_removes": G_JACKHAMMER_REMOVES}

# lemming positions: a field index, or one of these
START = -1
ELIMINATED_POS = -2
# a lemming that reached the water stands at the field count (past the last field)

# pub layout
PUB_POS = 0  # 6: field index / START / ELIMINATED_POS / n_fields (water)
PUB_BLOCKS = 6  # 6: concrete blocks carried
PUB_OUT = 12  # 6: 0 while in the race, k for the k-th lemming eliminated
PUB_TURN = 18  # moves started so far (1 during the first move)
PUB_N_ELIM = 19
PUB_N_PLAYERS = 20
PUB_MOVER = 21  # seat whose move it is
PUB_MOVING = 22  # lemming being moved (field decision), else -1
PUB_HAND_COUNT = 23  # 6 seats: bet cards in hand
PUB_STACK_COUNT = 29  # 6 seats: bet cards on the stack
PUB_HELD_COUNT = 35  # 6 seats: contracts still held
PUB_N_FIELDS = 41
PUB_N_SECTIONS = 42
PUB_WATER_FROM = 43  # field the winner jumped into the water from (-1: start)
PUB_ERROR = 44  # a bot's invalid answer: ERROR_* * 8 + seat, 0 if none
PUB_ROUND_CARD = 45  # in a bookmaker or boss round, the card asked for: 0 the first, k the (k+1)-th where the
# rules let a player put down (throw away) more (kernel.decision_round); 0 outside rounds
PUB_RNG = 46  # the race's stream for dice, deal and getaway rolls (uint64 bits)
PUB_LEN = 47

# own layout (one row per seat); a deciding bot sees the first OWN_VIEW_LEN slots
# of its own row, the rest is the kernel's bookkeeping for the records
OWN_HAND = 0  # 6: 1 if the bet card of that colour is in hand
OWN_STACK = 6  # 6: colours in placing order
OWN_STACK_N = 12
OWN_CONTRACT = 13  # MAX_CONTRACTS_EACH: deck index of each dealt contract (the first G_CONTRACTS_DEALT)
OWN_HELD = OWN_CONTRACT + MAX_CONTRACTS_EACH  # MAX_CONTRACTS_EACH: 1 while held, 0 once discarded (or never dealt)
OWN_RNG = OWN_HELD + MAX_CONTRACTS_EACH  # the player's own random stream for its bot's choices (uint64 bits):
# private like its cards, so no bot can replay another's draws, and apart from the
# dice, so two bots compared in one seat see the same dice (common random numbers)
OWN_VIEW_LEN = OWN_RNG + 1
OWN_STACK_TURN = OWN_VIEW_LEN  # 6: turn each stack card was placed
OWN_STACK_PLACE = OWN_STACK_TURN + 6  # 6: track place of the bet colour when placed
OWN_DECISIONS = OWN_STACK_PLACE + 6  # decisions the player's bot was asked this race
OWN_LEN = OWN_DECISIONS + 1

# the rest of state
S_VIEW = PUB_LEN  # OWN_LEN: the deciding player's own row (a copy)
S_OPTIONS = S_VIEW + OWN_LEN  # OPTIONS_CAP: candidates / free fields of the decision
OPTIONS_CAP = 32
S_SCRATCH = S_OPTIONS + 16  # options beyond 16 are scratch space for bots
S_OCCUPANT = S_OPTIONS + OPTIONS_CAP  # fields: lemming on each field, -1 if none
# then, from game[G_S_SECTIONS_AT], the same as bit masks: slot 1 + s holds the
# occupied fields of section s (bit i: its i-th field), so the free fields of a
# section are one mask and their count a table lookup; slot 0 (start area,
# eliminated) and the last (the water) hold nothing. Slots are read at a
# position's progress (rules.sections_passed): the section it stands in + 1.
# then, from game[G_S_WORK_AT], a work area for the deciding bot (the look-ahead
# bot plays races out in it); a bot that uses it clears it before it answers
WORK_OPTIONS = 64  # options the look-ahead bot weighs at most
RACING_ROLLOUTS = 16  # rollouts of each option the look-ahead bot keeps for dropping options


# built-in bot ids (the kernel dispatches on them; registry.py names them). Here,
# not in bots.py, so the registry and a random table's match load without the
# heuristic and look-ahead bots' compiled code (a shorter start-up).
RANDOM, FAVOURITE, TIMER, CONTRACTOR, LOOKAHEAD = range(5)

# a bot's row of params: its parameters, then scratch it keeps between its own
# decisions (cleared every race; no other bot sees it); a user bot's whole row
# past its parameters is scratch
N_PARAMS = 10
# the heuristic bots' parameter slots (registry.py names them and sets defaults)
P_BLOCK_WEIGHT = 0  # sections of progress one concrete block is worth
P_SHARPNESS = 1  # how strongly the leader is expected to win
P_ELIM_COST = 2  # value lost by an eliminated lemming, in sections
P_LATE_BETS = 3  # bet cards held back for the end of the race
P_URGENCY = 4  # the held cards go down once the leader is this many sections out
P_BET_STAKE = 5  # weight of bet points in move choices (timer, contractor)
P_PUSH = 6  # favourite: stake in its favourite
P_HARM = 7  # favourite: how hard it hinders likely rival winners
P_LOYALTY = 8  # favourite: value bonus of a colour whose card is still to play
P_DISCARD_MARGIN = 9  # contractor: keep a contract down to this expected loss
# the look-ahead bot's parameter slots
P_ROLLOUTS = 0  # rollouts per option
P_SHARED = 1  # 1 shared playouts (lookahead.py), 0 one playout per option and rollout
P_DROP = 2  # drop a move option this many standard errors below the leader (0: never)
P_MOVE_ROLLOUTS = 3  # shared playouts: rollouts per move or field option (0: P_ROLLOUTS)
P_WIN_POINTS = 4  # what a win (over the best other score) is worth in an option's value, in points of margin
SC_CONTRACT_STAKE = N_PARAMS  # 6: what held contracts gain per unit of each lemming's value
SC_TOTAL = N_PARAMS + 6  # heuristic bots, per move: the sum of the win weights ...
SC_EXPECTED = N_PARAMS + 7  # ... the bet points they expect ...
SC_FAVOURITE = N_PARAMS + 8  # ... and the favourite bot's lemming
SC_WEIGHT = N_PARAMS + 9  # 6: win weight of each lemming (heuristic bots)
SC_GAIN = N_PARAMS + 15  # 6: bet points this player scores if each lemming wins
SC_SIZED_TURN = N_PARAMS + 21  # turn whose move decision filled the scratch
SC_PLAN_TURN = N_PARAMS + 22  # look-ahead bot: the turn of its planned move ...
SC_PLAN_FIELD = N_PARAMS + 23  # ... and the field it planned for it
SC_MOVE_FIELD = N_PARAMS + 24  # heuristic bots: the field their move decision chose
# heuristic bots, per decision (at most 8 options: 6 lemmings, 8 fields a section)
SC_OPTION_VALUE = N_PARAMS + 25  # 8: each option's value ...
SC_OPTION_FIELD = N_PARAMS + 33  # 8: ... the best field of each move option ...
SC_FIELD_VALUE = N_PARAMS + 41  # 8: ... and the value of each of that option's fields
SC_OPTION_COUNT = N_PARAMS + 49  # 8: ... and how many fields each move option had (0: the water)
SC_VALUE = N_PARAMS + 57  # 6: each lemming's value, where the caller keeps it current (table_race)
SC_FAV_SCORE = N_PARAMS + 63  # 6: the favourite bot's score of each lemming, where kept as SC_VALUE
SC_RANK = N_PARAMS + 69  # 6: the stack position (1-6) of each colour's card, were it placed next if in hand
# (0: neither), kept with SC_GAIN, which is what that position pays (the rule bet_points)
# then what a built-in bot derives from its parameters and the board alone: kept
# across races (it cannot depend on them), rebuilt in every block of races
DERIVED_AT = N_PARAMS + 75
TABLE_SECTIONS = DERIVED_AT  # the board's section count the tables below are for
WEIGHT_TABLE = DERIVED_AT + 1  # win weight by progress * WEIGHT_TABLE_BLOCKS + blocks (heuristic bots)
WEIGHT_TABLE_PROGRESS = 32  # progress values it covers: boards of up to 30 sections
WEIGHT_TABLE_BLOCKS = MAX_BLOCKS_TO_ELIMINATE  # blocks it covers: 0 .. the most a lemming still racing carries
PARAMS_WIDTH = WEIGHT_TABLE + WEIGHT_TABLE_BLOCKS * WEIGHT_TABLE_PROGRESS

# decisions a bot is asked for
DECIDE_MOVE = 0  # options: candidate lemmings; answer: index into options
DECIDE_FIELD = 1  # options: free fields of the target section; answer: index
DECIDE_BET = 2  # answer: colour to put on the stack, or -1 to pass
DECIDE_DISCARD = 3  # answer: contract slot to discard, or -1 to keep all
# With bets_per_bookmaker (discards_per_boss) above 1, a bookmaker (boss) round is played
# as that many sub-rounds: in each, every player whose last answer placed a card (threw
# one away) and who still holds one is asked again, hidden and at once; a pass ends a
# player's part of the round. A seat not asked answers NOT_ASKED.
NOT_ASKED = -2

# invalid bot answers (the kernel cannot raise; it stops and reports one of these)
ERROR_MOVE, ERROR_FIELD, ERROR_BET, ERROR_DISCARD = 1, 2, 3, 4
ERRORS = {
    ERROR_MOVE: "chose a lemming outside its candidates",
    ERROR_FIELD: "chose a field outside the free fields",
    ERROR_BET: "bet a card it does not hold",
    ERROR_DISCARD: "discarded a contract it does not hold",
}

# an intervention's forcing region in ``hidden`` (``intervene.py``): one seat's answer at
# the n-th round of one kind is forced; only an intervention allocates it (G_FORCE_AT)
F_WHAT = 0  # DECIDE_BET or DECIDE_DISCARD
F_SEAT = 1  # the seat whose answer is forced
F_ROUND = 2  # the round of that kind (1-based) where it is forced; 0: count the rounds only
F_MODE = 3  # FORCE_* below
F_SLOT = 4  # FORCE_DISCARD / FORCE_HOLD: the contract slot
F_COUNT = 5  # out: rounds of that kind so far
F_REACHED = 6  # out: 1 forced, 2 the round came but the forcing did not apply, 0 never came
F_BOT_ANSWER = 7  # out: what the seat's bot answered at that round (before forcing)
F_TURN = 8  # out: the move number of that round
F_LEADER = 9  # out: the leading lemming then
F_LEADER_STEP = 10  # out: sections the leader had crossed then
F_LEN = 11
FORCE_BET_LEADER = 1  # bet the leading lemming's card now (applies if the seat holds it)
FORCE_PASS = 2  # bet nothing now (applies under the same condition)
FORCE_DISCARD = 3  # discard the slot now (applies if it is held)
FORCE_HOLD = 4  # keep the slot to the end: never discarded from this round on (idem)
FORCE_KEEP_ALL = 5  # the seat discards nothing from this round on (always applies; F_SLOT unused)

# finish kinds
FINISH_WATER, FINISH_LAST_STANDING = 0, 1

# replay trace events (engine/trace.py): kind, seat, a, b, c, payload
EV_ROLL = 1  # a: move number, b: candidates, c: index chosen; payload: candidate lemmings
EV_FIELD = 2  # a: lemming, b: free fields, c: index chosen; payload: the free fields
EV_LAND = 3  # a: lemming, b: field, c: result; payload: PUB_POS, PUB_BLOCKS, PUB_OUT after it
EV_WATER = 4  # a: lemming (no free field ahead: it jumps into the water)
EV_ROUND = 5  # a: DECIDE_BET or DECIDE_DISCARD; payload: each seat's answer
EV_END = 6  # a: winning lemming, b: finish
FINISHES = ("water", "last_standing")

# per-race record columns ([races, RACE_LEN] int64)
RACE_WINNER = 0
RACE_TURNS = 1
RACE_N_ELIM = 2
RACE_FINISH = 3
RACE_WINNER_BLOCKS = 4
RACE_TIEBREAK = 5  # 1 if the top score was tied and contract points picked fewer winners
RACE_N_WINNERS = 6
RACE_WINNER_FIELD = 7  # field the winner jumped from (water) or stands on
RACE_PLACE = 8  # 6: final place of each colour
RACE_BLOCKS = 14  # 6: blocks each colour carries at the end
RACE_LEAD_CHANGES = 20  # the game-flow counters (engine/flow.py) of the lemmings' standing
RACE_DECIDED_AFTER = 21
RACE_COMEBACK = 22
RACE_LEN = 23

# per-player record columns ([races, players, PLAYER_LEN] int64)
PL_BET_POINTS = 0
PL_CONTRACT_POINTS = 1
PL_SCORE = 2
PL_BETS_PLACED = 3
PL_DISCARDED = 4
PL_WON = 5
PL_DECISIONS = 6  # decisions its bot was asked (forced moves are not asked)
PL_LEN = 7

# per-contract record columns ([races, players, contracts dealt, CT_LEN] int64)
CT_CARD = 0
CT_DISCARDED = 1
CT_FULFILLED = 2
CT_PAYOFF = 3
CT_DISCARD_TURN = 4  # turn of the discard, 0 if kept
CT_LEN = 5

# per-bet record columns ([races, players, 6, BET_LEN] int64); row k = k-th card
BET_COLOR = 0
BET_TURN = 1
BET_PLACE = 2  # track place of the colour when the card was placed
BET_PAID = 3
BET_LEN = 4

# per-field counters ([fields, FIELD_LEN] int64), summed over a block of races
FIELD_LANDINGS = 0  # a lemming arrived on the field (any way)
FIELD_TRIGGERS = 1  # its action did something (block given/removed, roll, round)
FIELD_LEN = 2
