"""Named integer constants of Lemminge: terrains, cards, decisions, the layout
of the flat int64 arrays the kernel and the bots share, and the record columns.

A game lives in three flat int64 arrays (few array arguments per call):
- ``game``: what is fixed for a run: player count, bot kinds, the map (terrain,
  neighbours and finish distance of every cell), the card values, the tile
  supply (``G_*``);
- ``state``: what every player sees: lemmings, columns, bonus tiles, hand
  sizes (``PUB_*``), a copy of the deciding player's own hand (``S_VIEW``),
  the options of the decision (``S_OPTIONS``) and a scratch area for bots
  (``S_SCRATCH``). A bot is given ``state`` and nothing else of the game;
- ``hidden``: the kernel's private part: every player's own row (``OWN_*``:
  hand, random stream), the draw pile, the discards, the deck's random stream
  and a script for the scripted test bot (``H_*``).

Sizes are fixed for the largest table (5 players), map (``MAX_CELLS``) and hand
(``MAX_HAND``), so no offset is variable. The rule numbers a run plays
(``ruleset.py``) travel in ``game`` too (``G_HAND_LIMIT`` ..): a variant is data,
never a kernel compiled again. Cells are numbered ``y * width + x`` on the odd-r grid.
"""

MIN_PLAYERS, MAX_PLAYERS = 2, 5
LEMMINGS = 2  # per player; lemming id = seat * 2 + k
MAX_LEMMINGS = MAX_PLAYERS * LEMMINGS
MAX_HAND = 10  # the most cards a hand holds under any rules (the rule hand_limit, 6 in the box, is at most this)
MAX_TURNS = 3000  # safety stop of a game no one can end (games.capped)

# ------------------------------------------------------------------ terrains
TERRAINS = ("forest", "desert", "mountain", "water", "swamp")  # the card terrains, 0-4
N_TERRAINS = 5
MEADOW, START, FINISH, OFF = 5, 6, 7, 8  # hex terrains without cards
TERRAIN_NAMES = TERRAINS + ("meadow", "start", "finish", "off")
TERRAIN_OF_LETTER = {"F": 0, "D": 1, "R": 2, "W": 3, "S": 4, "M": MEADOW, "A": START, "Z": FINISH, ".": OFF}
HEX_LETTERS = tuple(TERRAIN_OF_LETTER)
LETTER_OF_TERRAIN = {v: k for k, v in TERRAIN_OF_LETTER.items()}
TILE_KINDS = TERRAINS + ("meadow",)  # a tile's kind 0-5 (5: meadow)
N_TILE_KINDS = 6

# the six directions on the odd-r grid; a push follows the mover's direction
DIRECTIONS = ("E", "W", "NE", "NW", "SE", "SW")
N_DIRECTIONS = 6

# ------------------------------------------------------------------ limits of a map file
MAX_CELLS = 1024  # width * height
MAX_VALUES = 16  # cards per terrain
MAX_CARD_VALUE = 9
MAX_CARDS = N_TERRAINS * MAX_VALUES
MAX_TILES = 50  # of each kind
MAX_START = 64  # start hexes

# a card is c = terrain * n_values + i, its value G_VALUES[i]; card i == G_OPENER
# (the first 2 of the values) of each terrain starts that terrain's column

# lemming positions (PUB_POS): a cell, or
AT_START = -1  # in the start area
HOME = -2  # finished: off the board

# ------------------------------------------------------------------ game array
G_N_PLAYERS = 0
G_CHECK = 1  # 1: check the card, tile and lemming invariants after every turn (tests)
G_KINDS = 2  # MAX_PLAYERS: bot kind of each seat
G_N_CELLS = 7
G_WIDTH = 8
G_N_VALUES = 9
G_OPENER = 10  # index of the 2 that starts each column
G_N_ZEROS = 11  # 0 cards per terrain (the double-zero rule needs all of them showing)
G_TILES_TERRAIN = 12
G_TILES_MEADOW = 13
G_START_DIST = 14  # finish distance of a lemming in the start area
G_N_START = 15
G_N_TILE_CELLS = 16
# the rules (ruleset.py; the box's values in brackets)
G_HAND_LIMIT = 17  # hand_limit: cards a refill draws up to [6]
G_PUSH_COST = 18  # push_cost: movement a push costs per lemming pushed, on top of the step's 1 [1]
G_BACKWARD_PUSH = 19  # backward_push: 1 if a push may set a lemming farther from the finish [0]
G_DOUBLE_ZERO = 20  # double_zero: 1 if a reshuffle cuts the columns showing all their 0 cards [1]
G_START_HANDS = 21  # MAX_PLAYERS: start_hands at the player count: cards dealt to each seat [3, 4, 5, 6 at 4]
G_VALUES = G_START_HANDS + MAX_PLAYERS  # MAX_VALUES
G_START_CELLS = G_VALUES + MAX_VALUES  # MAX_START
G_TERRAIN = G_START_CELLS + MAX_START  # MAX_CELLS: printed terrain per cell
G_DIST = G_TERRAIN + MAX_CELLS  # MAX_CELLS: finish distance (-1: none)
G_NB = G_DIST + MAX_CELLS  # MAX_CELLS * 6: neighbour per direction (-1: none)
G_TILE_CELLS = G_NB + MAX_CELLS * N_DIRECTIONS  # MAX_CELLS: the cells a tile may go on
G_LEN = G_TILE_CELLS + MAX_CELLS

# ------------------------------------------------------------------ bot kinds
RANDOM = 0
RACER = 1
CONVOY = 2
BLOCKER = 3
FIRST_HEURISTIC, LAST_HEURISTIC = RACER, BLOCKER
LOOKAHEAD = 4  # the search bot (search.py): weighs its card-or-refill options by playouts
SCRIPTED = 99  # tests: answers from the script in ``hidden`` (H_SCRIPT)
# a scripted answer of SCRIPT_BY_VALUE + v picks the option whose value is v: the
# card (action), the cell (tile), the lemming (lemming), target * 8 + direction (step)
SCRIPT_BY_VALUE = 1 << 20

# ------------------------------------------------------------------ bot parameters
# one row of float64 per seat (PARAMS_WIDTH); the heuristic families share them
P_LEAD = 0  # weight of moving its leading lemming (+) or its trailing one (-)
P_REFILL_BELOW = 1  # refills when the best move gains fewer hexes than this
P_KEEP = 2  # refilling, keeps the cards whose movement now is at least this
P_PUSH = 3  # cost per hex a push brings a rival's lemming on (no push sets one back)
P_OWN_PUSH = 4  # value per hex a push brings its own other lemming on
P_BLOCK = 5  # value of a tile that turns meadow in front of a rival's lemming
P_TILE_GAIN = 6  # value per hex of reach a tile gives its own lemming
P_HAND_RESERVE = 7  # with this many cards or fewer, it refills rather than make a move gaining <= 1
N_PARAMS = 8
# the search bot's row: the model above (its heuristic playout policy's, and its
# own answers to the decisions it does not search), then these
P_ROLLOUTS = N_PARAMS  # playouts per option (the budget)
P_PLAYOUT = N_PARAMS + 1  # who plays every seat in the playouts: 0 the random bot, 1 the heuristic model
P_DROP = N_PARAMS + 2  # standard errors below the leader that drop an option (0: never)
P_HORIZON = N_PARAMS + 3  # turns a playout plays after the option's own turn, then the position is scored
P_WIN_POINTS = N_PARAMS + 4  # what a win (or a rival's) in a playout is worth, in hexes of finish distance
PARAMS_WIDTH = N_PARAMS + 5

# ------------------------------------------------------------------ decisions
# what the kernel asks (state[S_OPTIONS ...] holds the options; answers below)
DECIDE_ACTION = 0  # options: hand positions of the cards it may play, PUB_N_OPTIONS of them:
#                    every card of the hand (rules page, clarification 8), S_ALLOWS[i] = 1 where
#                    the card allows a step (judged before any bonus tile); the reference random
#                    bot is offered only those. Answer: option index, or -1 to refill
DECIDE_DISCARD = 1  # refilling: answer a bit mask over the own hand's positions (S_VIEW):
#                     the cards to discard before drawing up to game[G_HAND_LIMIT]
DECIDE_TILE = 2  # a bonus tile of kind PUB_TILE_KIND to place: answer an index into the
#                  map's tile cells (game[G_TILE_CELLS ...], G_N_TILE_CELLS of them)
DECIDE_LEMMING = 3  # options: own lemming ids that can step with PUB_MOVEMENT over
#                     PUB_TERRAIN; answer: option index
DECIDE_STEP = 4  # options: the legal steps of lemming PUB_LEMMING, OPT_WIDTH words each;
#                  answer: option index, or -1 to stop walking
DECISIONS = ("action", "discard", "tile", "lemming", "step")
N_DECISIONS = len(DECISIONS)

# a step option (OPT_WIDTH words)
OPT_TARGET = 0  # the hex the mover enters
OPT_DIR = 1  # direction
OPT_COST = 2  # movement it costs: 1 + push_cost (game[G_PUSH_COST]) per lemming pushed
OPT_DIST = 3  # the target's finish distance
OPT_FROM = 4  # the hex it leaves (a start hex for a lemming in the start area)
OPT_PUSHED = 5  # lemmings of the line it pushes (0: none)
OPT_WIDTH = 6
MAX_OPTIONS = MAX_START * N_DIRECTIONS

# error codes (state[PUB_ERROR] = error * 8 + seat)
ERROR_ACTION, ERROR_DISCARD, ERROR_TILE, ERROR_LEMMING, ERROR_STEP, ERROR_INVARIANT = 1, 2, 3, 4, 5, 6
ERRORS = {ERROR_ACTION: "chose no valid card", ERROR_DISCARD: "discarded cards it does not hold",
          ERROR_TILE: "placed a tile on no valid hex", ERROR_LEMMING: "moved no valid lemming",
          ERROR_STEP: "took no valid step", ERROR_INVARIANT: "broke an invariant (engine bug)"}

# ------------------------------------------------------------------ a player's own row
# in hidden (H_OWN + seat * OWN_LEN), copied to S_VIEW in state for its decisions
OWN_HAND = 0  # MAX_HAND cards (positions 0 .. OWN_HAND_N-1)
OWN_HAND_N = MAX_HAND
OWN_RNG = MAX_HAND + 1  # the player's own random stream (its choices)
OWN_LEN = MAX_HAND + 2

# ------------------------------------------------------------------ state array (public)
PUB_N_PLAYERS = 0
PUB_TURN = 1  # turns taken, refills and the current one included
PUB_MOVER = 2  # seat whose turn it is
PUB_ERROR = 3
PUB_WINNER = 4  # seat, -1 while the game runs
PUB_PILE_N = 5  # cards in the draw pile
PUB_DISCARD_N = 6
PUB_MOVEMENT = 7  # movement left in the current move
PUB_TERRAIN = 8  # terrain of the card played this move
PUB_LEMMING = 9  # the moving lemming
PUB_CUR_DIST = 10  # finish distance of the moving lemming (the start distance in the start area)
PUB_TILE_KIND = 11  # the bonus tile to place
PUB_N_OPTIONS = 12
PUB_RESHUFFLES = 13
PUB_SETBACK = 14  # finish distance lost by the lemmings pushed in the current move
PUB_HAND_N = 15  # MAX_PLAYERS: cards held per seat
PUB_POS = PUB_HAND_N + MAX_PLAYERS  # MAX_LEMMINGS: cell, AT_START or HOME
PUB_SUPPLY = PUB_POS + MAX_LEMMINGS  # N_TILE_KINDS: tiles left per kind
PUB_COL_N = PUB_SUPPLY + N_TILE_KINDS  # N_TERRAINS: cards in each column
PUB_COL_SUM = PUB_COL_N + N_TERRAINS  # N_TERRAINS: the sum of each column's cards
PUB_COL = PUB_COL_SUM + N_TERRAINS  # N_TERRAINS * MAX_VALUES: column cards, bottom first
PUB_OCC = PUB_COL + N_TERRAINS * MAX_VALUES  # MAX_CELLS: lemming on the cell, -1 none
PUB_TILE = PUB_OCC + MAX_CELLS  # MAX_CELLS: tile kind on the cell, -1 none
PUB_TER = PUB_TILE + MAX_CELLS  # MAX_CELLS: terrain now (printed, or the tile's)
PUB_LEN = PUB_TER + MAX_CELLS
S_VIEW = PUB_LEN  # OWN_LEN: the deciding player's hand (OWN_HAND, OWN_HAND_N, OWN_RNG)
S_MINCOST = S_VIEW + OWN_LEN  # N_TERRAINS: cheapest step of the mover's lemmings per card terrain
S_ALLOWS = S_MINCOST + N_TERRAINS  # MAX_HAND: action decision, 1 where option i's card allows a step, else 0
S_OPTIONS = S_ALLOWS + MAX_HAND  # MAX_OPTIONS * OPT_WIDTH
S_SCRATCH = S_OPTIONS + MAX_OPTIONS * OPT_WIDTH  # 4 * MAX_CELLS: bots' scratch
# MAX_CELLS: a user bot's options, one word each (view.py): the cards (action,
# discard), the tile hexes (tile), the lemmings (lemming), the target hexes
# (step; the rest of each step stays in S_OPTIONS). Written for user bots only.
S_USER_OPTIONS = S_SCRATCH + 4 * MAX_CELLS
S_LEN = S_USER_OPTIONS + MAX_CELLS

# ------------------------------------------------------------------ hidden array
H_OWN = 0  # MAX_PLAYERS * OWN_LEN
H_RNG = MAX_PLAYERS * OWN_LEN  # the deck's random stream (shuffles)
H_PILE = H_RNG + 1  # MAX_CARDS: draw pile, top last
H_DISCARD = H_PILE + MAX_CARDS  # MAX_CARDS
H_SCRIPT_I = H_DISCARD + MAX_CARDS
H_SCRIPT_N = H_SCRIPT_I + 1
H_SCRIPT = H_SCRIPT_N + 1  # MAX_SCRIPT answers of the scripted test bot
MAX_SCRIPT = 512
H_SEARCH = H_SCRIPT + MAX_SCRIPT  # the search bot's work area (search.py), then H_LEN

# ------------------------------------------------------------------ records
# games: one row per game
GM_TURNS = 0
GM_WINNER = 1  # seat 0-based, -1 when capped
GM_CAPPED = 2
GM_RESHUFFLES = 3
GM_LEAD_CHANGES = 4  # the game-flow counters (engine/flow.py) of the seats' standing
GM_DECIDED_AFTER = 5
GM_COMEBACK = 6
GM_LEN = 7
# players: one row per game and seat
PL_WON = 0
PL_FINISHED = 1  # lemmings home, 0-2
PL_REFILLS = 2
PL_MOVES = 3  # cards played
PL_STEPS = 4  # hexes its moving lemming entered (a push step counts 1)
PL_PUSHES_MADE = 5  # lemmings displaced by its steps
PL_PUSHED = 6  # times its lemmings were displaced
PL_NEW_COLUMNS = 7
PL_TILES_PLACED = 8
PL_HAND_START = 9
PL_PUSHED_DIST = 10  # finish distance its lemmings lost by pushes: 0 or negative (pushed on; never back)
PL_LEN = 11
# moves: one row per card played (int32, flat over the chunk; MV_GAME: game's row in the chunk)
MV_GAME = 0
MV_TURN = 1
MV_SEAT = 2
MV_TERRAIN = 3
MV_VALUE = 4
MV_COLSUM = 5  # the column's sum before the card
MV_NEW_COLUMN = 6
MV_MOVEMENT = 7
MV_STEPS = 8
MV_PUSHES = 9
MV_LEMMING = 10  # the lemming moved (seat * 2 + k), -1 if none could step
MV_DIST_BEFORE = 11
MV_DIST_AFTER = 12
MV_SETBACK = 13  # finish distance the lemmings it pushed lost, summed: 0 or negative (pushed on; never back)
MV_LEN = 14
MOVES_PER_GAME = 96  # initial room in a chunk's moves buffer (it grows when a chunk needs more)
# hexes: per cell, summed over a chunk
HX_ENTERED = 0  # a moving lemming entered it
HX_PUSHED_INTO = 1  # a pushed lemming landed on it
HX_TILES = 2  # tiles placed on it
HX_LEN = 3

# ------------------------------------------------------------------ trace (replay)
# trace[0]: words used (1 + TR_WIDTH * events); an event is TR_WIDTH words:
# kind, seat (or -1), then four arguments
TR_WIDTH = 6
EV_TURN = 1  # seat, turn
EV_DEAL = 2  # seat, card (one per card dealt)
EV_RESHUFFLE = 3  # -, cards in the new pile, terrain mask of double-zero columns
EV_REFILL = 4  # seat, cards discarded, cards drawn
EV_DRAW = 5  # seat, card
EV_DISCARD = 6  # seat, card
EV_OPTION = 7  # seat, decision, option value (before its EV_DECISION); action: then 1 if the card
#               allows a step; step: then its cost and the lemmings it pushes
EV_DECISION = 8  # seat, decision, answer
EV_PLAY = 9  # seat, card, column sum before, new column (0/1), movement
EV_TILE = 10  # seat, tile kind, cell, old tile kind (-1 none)
EV_NO_TILE = 11  # seat, terrain (the supply had none)
EV_STEP = 12  # seat, lemming, from cell (-1 start), to cell, lemmings pushed
EV_PUSHED = 13  # seat of the owner, lemming, from cell, to cell (-2 home)
EV_HOME = 14  # seat, lemming
EV_WIN = 15  # seat
EV_CAP = 16
EV_STOP = 17  # seat, lemming, movement left (the walk ends)
EV_NO_LEMMING = 18  # seat: no lemming can step after the tile

# ------------------------------------------------------------------ the search bot's work area
# at H_SEARCH in hidden (search.py): its playouts' copies of the game array, the
# state and the hidden array up to H_SEARCH, a work row, and records its
# playouts write and nobody reads (players' rows, hexes, the moves counter)
SEARCH_WORK = 56
SEARCH_LEN = G_LEN + S_LEN + H_SEARCH + SEARCH_WORK + MAX_PLAYERS * PL_LEN + MAX_CELLS * HX_LEN + 2
# after the search's area (a playout copies the hidden array only up to H_SEARCH):
H_STANDING = H_SEARCH + SEARCH_LEN  # MAX_PLAYERS: each seat's standing now (rules.note_standing)
H_FLOW = H_STANDING + MAX_PLAYERS  # MAX_TURNS: the leading seat after each turn (engine/flow.py)
H_LEN = H_FLOW + MAX_TURNS
