"""Named integer constants of Mafia: sides, pieces, boxes, space types, cards,
decisions, the slots of the flat int64 arrays the kernel works on, and the
record columns.

A game lives in flat int64 arrays:
- ``game`` (``G_*``): what is fixed for a run: players, the map's starting
  spaces, bases open to each family, space types and triggers, return faces,
  the bot kind of each side;
- ``paths`` [space, steps 0-12, air 0/1, 1 + 2 * max paths]: every move of a
  piece standing on a space, precomputed from the map (``board.py``): slot 0
  the number of paths, then (end space, 1 if the air link was used) per path;
- ``state`` (``S_*``): the game being played: where each piece is, the
  markers, who holds each card, freezes, the random streams, the counters of
  the record tables and a script for the scripted test bot and dice.

Sizes are fixed for the largest map (MAX_SPACES), so no offset is variable.
"""

# ------------------------------------------------------------------ sides
FAMILIES = ("red", "black", "orange", "green")
RED, BLACK, ORANGE, GREEN, STATE = range(5)
N_FAMILIES = 4
N_SIDES = 5
SIDE_NAMES = FAMILIES + ("state",)
# the calendar: red, black, State, orange, green, State (a pass of six slots)
CALENDAR = (RED, BLACK, STATE, ORANGE, GREEN, STATE)
MIN_PLAYERS, MAX_PLAYERS = 3, 5
ROLE_STATE, ROLE_FAMILY = "state", "family"
# the most calendar turns a game may last (the ``safety_cap`` rule's largest value: the
# game-flow history, S_FLOW, holds a side turn of each); the rule's value (G_SAFETY_CAP,
# the box's 600) is the cap a run plays
MAX_PASSES = 1000


def seat_sides(players: int) -> list[tuple[int, ...]]:
    """The sides each seat plays, seats in the order of their first turn."""
    if players == 5:
        return [(RED,), (BLACK,), (STATE,), (ORANGE,), (GREEN,)]
    if players == 4:
        return [(RED,), (BLACK,), (ORANGE,), (GREEN,)]
    if players == 3:
        return [(RED, ORANGE), (BLACK, GREEN), (STATE,)]
    raise ValueError(players)


def seat_roles(players: int) -> list[str]:
    return [ROLE_STATE if sides == (STATE,) else ROLE_FAMILY for sides in seat_sides(players)]


# ------------------------------------------------------------------ pieces
# family f: Boss 3f, Picciotti 3f+1, 3f+2; the State: Prefect 12, SISDE 13, CC 14-16
BOSS, PICCIOTTO = 0, 1  # piece % 3 == 0: a Boss (for pieces < 12)
PREFECT, SISDE, CC1 = 12, 13, 14
N_PIECES = 17
N_CC = 3
PIECE_NAMES = tuple(f"{f} {r}" for f in FAMILIES for r in ("Boss", "Picciotto 1", "Picciotto 2")) + (
    "Prefect", "SISDE", "CC 1", "CC 2", "CC 3")

# a piece's location: a space (>= 0) or a box
CONTINENT, PRISON, BARRACKS, OUT = -1, -2, -3, -4
BOX_NAMES = {CONTINENT: "Continent", PRISON: "Prison", BARRACKS: "Barracks", OUT: "out of the game"}

# ------------------------------------------------------------------ spaces
CITY, PLAIN, TELEPHONE, ROADBLOCK, AMBUSH, RESTAURANT, BOMB, LEAK, COMMISSION = range(9)
SPACE_TYPES = ("city", "plain", "telephone", "roadblock", "ambush", "restaurant", "bomb", "leak",
               "commission")
TRIGGERED = (ROADBLOCK, AMBUSH, RESTAURANT, BOMB, COMMISSION)  # types that roll against a trigger
MAX_SPACES = 64
MAX_STEPS = 12
ANTI_MAFIA_TRIGGER = 0b110  # faces 1-2 (bit f set: face f triggers)

# ------------------------------------------------------------------ cards
# USA 0-7, ROME 8-15, SISDE 16-23 (card 16 + 2c and 17 + 2c: the clues of family c)
USA, ROME, SISDE_DECK = 0, 1, 2
DECKS = ("usa", "rome", "sisde")
GOV_PROTECTION, NOTABLE_PROTECTION, AMERICAN_BOSS, LAS_VEGAS, SPECIAL_WEAPONS, SPY, AIRPORT_BOMB, \
    WIFE_CHEATS = range(8)
JUDICIARY, ANTI_GANG, HIDEOUT, WIRETAP, HELIBORNE, ANTI_MAFIA, ATI_STRIKE, GOVERNMENT_FALLS = range(8, 16)
FIRST_SISDE = 16
N_CARDS = 24
DECK_SIZE = 8
CARD_NAMES = ("government_protection", "notables_protection", "american_boss_visit", "las_vegas_killer",
              "special_weapons", "spy_at_prefecture", "airport_bomb", "your_wife_cheats",
              "judiciary_support", "anti_gang_brigade", "hideout_found", "wiretap",
              "heliborne_operation", "anti_mafia_operation", "ati_strike", "the_government_falls")
# the cards as the rules page names them (ids 0-15 as CARD_NAMES): what a reader sees
CARD_TITLES = ("Government protection", "Notable's protection", "American boss visit", "Las Vegas killer",
               "Special weapons", "Spy at the prefecture", "Airport bomb", "Your wife cheats",
               "Judiciary support", "Anti-gang brigade", "Hideout found", "Wiretap",
               "Heliborne operation", "Anti-mafia operation", "ATI strike", "The government falls")
# the ``card`` column of cards.parquet: what was played (codes 0-15 as CARD_NAMES; never the
# two cards without effect), a SISDE pair, a matching four-player SISDE draw
PLAY_SISDE_PAIR, PLAY_SISDE_4P = 16, 17
PLAYED_NAMES = ("government_protection", "notables_protection", "american_boss_visit", "las_vegas_killer",
                "special_weapons", "spy_at_prefecture", "airport_bomb", "", "judiciary_support",
                "anti_gang_brigade", "hideout_found", "wiretap", "heliborne_operation", "anti_mafia_operation",
                "ati_strike", "", "sisde_pair", "sisde_4p")
CARD_CATEGORIES = tuple(n for n in PLAYED_NAMES if n)
# a ``card`` value of cards.parquet as the rules page names it (the SISDE plays: the clues, not a card title)
PLAYED_TITLES = {**dict(zip(CARD_NAMES, CARD_TITLES)), "sisde_pair": "SISDE clue pair",
                 "sisde_4p": "SISDE clue drawn (4 players)"}
OUTCOME_TITLES = {"all_lose": "everyone loses", "draw": "draw (safety cap)"}  # the others are sides' names

# ------------------------------------------------------------------ outcomes
OUT_STATE, OUT_RED, OUT_BLACK, OUT_ORANGE, OUT_GREEN, OUT_ALL_LOSE, OUT_DRAW = range(7)
OUTCOMES = ("state", "red", "black", "orange", "green", "all_lose", "draw")

# ------------------------------------------------------------------ decisions
# Every decision goes through core.ask(what, side, n): the answer is an option
# index 0 .. n-1. For yes/no decisions n = 2 and 1 means yes. S_ASK_* slots say
# what the decision is about.
D_BASE = 0  # base city: option i = the i-th city open to the family (by space id)
D_MOVE = 1  # the roll: option index in movement.list_own_moves' flat order (the page's list)
D_STATE_MOVE = 2  # four players: (die, State piece, path) option of movement.list_state_moves
D_ARREST = 3  # yes/no: a CC arrests the Picciotto S_ASK_PIECE
D_HOLD = 4  # yes/no: a CC holds the Boss S_ASK_PIECE
D_FORBID = 5  # yes/no: the Boss S_ASK_OTHER forbids the Picciotto S_ASK_PIECE every activity
D_SHOOT = 6  # yes/no: S_ASK_OTHER starts a shootout with S_ASK_PIECE
D_RESIST = 7  # yes/no: the Picciotto S_ASK_PIECE resists the CC S_ASK_OTHER
D_CARD = 8  # yes/no: play card S_ASK_CARD now (its window is open)
D_GIVE_UP = 9  # leak: option i = the i-th card of the hand (by card id)
D_VISIT_SPACE = 10  # American boss visit: the i-th space the family controls (by id)
D_ANTI_MAFIA_SPACE = 11  # Anti-mafia operation: the i-th space that is not a city (by id)
D_HELI_DIE = 12  # Heliborne operation: option i = value low + i for die S_ASK_OTHER (S_ASK_PIECE: low)
DECISIONS = ("base", "move", "state move", "arrest", "hold", "forbid", "shoot", "resist", "card",
             "give up", "visit space", "anti-mafia space", "heliborne die")
YES_NO = (D_ARREST, D_HOLD, D_FORBID, D_SHOOT, D_RESIST)

# bot kinds
RANDOM = 0
HUNTER, WARDEN = 1, 2  # the State's heuristic bots
EXPANDER, RAIDER = 3, 4  # the families' heuristic bots
LAST_HEURISTIC = RAIDER
LOOKAHEAD = 5  # the search bot (search.py), either role: its other decisions are its model heuristic's
SCRIPTED = 99  # tests: answers from the script in S_SCRIPT
FIRST_HEURISTIC = 1

# heuristic bot parameters (slots of a side's row; see registry.py for their meaning)
P_GAIN, P_TAKE, P_LEADER, P_RISK, P_SHOOT, P_ENNA, P_STACK, P_PHONE = range(8)  # families
P_ARREST, P_HOLD, P_MARKER, P_S_LEADER, P_S_RISK, P_CLUE, P_GUARD, P_S_PHONE = range(8)  # the State
MODEL_WIDTH = 8  # a heuristic bot's parameters (the slots above)
# the search bot's row: its model's parameters (the heuristic ``P_POLICY`` names, with that
# bot's defaults: the match packs them), then the search's own
P_POLICY, P_ROLLOUTS, P_HORIZON, P_PLAYOUT, P_WIDTH, P_DROP, P_WIN_POINTS, P_BASE = range(MODEL_WIDTH, MODEL_WIDTH + 8)
BASE_MODEL, BASE_ENNA, BASE_RING = range(3)  # a search bot's base (P_BASE): its model's, Enna, its ring city

# ------------------------------------------------------------------ game array
G_PLAYERS = 0
G_N_SPACES = 1
G_WIN_SPACES = 2  # controlled spaces a family needs at the start of its turn
G_PREFECT_START = 3
G_SISDE_START = 4
G_STATE_RETURN = 5
G_CC_START = 6  # N_CC
G_RETURN = 9  # 3: faces (bit mask) of a successful return from Continent, Prison, Barracks
G_CHECK = 12  # 1: check the invariants after every turn (tests)
G_KINDS = 13  # N_SIDES: bot kind of the seat playing each side
G_SEAT = 18  # N_SIDES: seat of each side (-1: not in the game)
G_AIRPORT = 23  # MAX_SPACES: 1 on an airport
G_TYPE = G_AIRPORT + MAX_SPACES  # MAX_SPACES: the map's space types
G_TRIGGER = G_TYPE + MAX_SPACES  # MAX_SPACES: trigger faces (bit f: face f)
G_OPEN = G_TRIGGER + MAX_SPACES  # MAX_SPACES: bit f set: family f may choose this city as base
G_PARAMS = G_OPEN + MAX_SPACES  # N_SIDES * PARAMS_WIDTH: each side's bot parameters in millionths
PARAMS_WIDTH = 16
PARAM_UNIT = 1_000_000  # a parameter p is stored as round(p * PARAM_UNIT)
PARAM_MAX = ((1 << 63) - 1) // PARAM_UNIT  # the largest size those int64 millionths hold (about 9.2e12)
# how a search bot's playouts play each side (its heuristic policy): a heuristic's kind, and
# its parameters (MODEL_WIDTH, millionths) in G_PLAYOUT_PARAMS (the match packs them)
G_PLAYOUT_KIND = G_PARAMS + N_SIDES * PARAMS_WIDTH  # N_SIDES
G_PLAYOUT_PARAMS = G_PLAYOUT_KIND + N_SIDES  # N_SIDES * MODEL_WIDTH
# the rule numbers (``ruleset.py``) other than G_WIN_SPACES, packed by the match
G_PURGE_END = G_PLAYOUT_PARAMS + N_SIDES * MODEL_WIDTH  # purge points, doubled, that end the game
G_MARKERS = G_PURGE_END + 1  # control markers of each family
G_SAFETY_CAP = G_MARKERS + 1  # calendar turns before a game is a draw (at most MAX_PASSES)
# 3: purge points, doubled, of a piece in a box: a Boss in Prison, a Boss in the Barracks, a Picciotto in Prison
G_PURGE_WEIGHT = G_SAFETY_CAP + 1
PW_BOSS_PRISON, PW_BOSS_BARRACKS, PW_PICCIOTTO_PRISON = range(3)
G_SHOT_HITS = G_PURGE_WEIGHT + 3  # faces (bit f: face f) on which a shootout's die hits
G_WEAPON_HITS = G_SHOT_HITS + 1  # the same with Special weapons
G_PICCIOTTO_MARKER = G_WEAPON_HITS + 1  # faces on which a Picciotto places a marker
G_CC_REMOVAL = G_PICCIOTTO_MARKER + 1  # faces on which a CC removes a marker
G_LEN = G_CC_REMOVAL + 1

# ------------------------------------------------------------------ a user bot's view
MAX_OPTIONS = 1024  # move options listed for a bot (S_OPT below; a bot sees the first ones)
# The state array a user bot's decide receives (view.py names these slots): a copy
# of what the deciding side may see, made for each of its decisions. Offsets in
# that array; it lives in the state array at S_VIEW.
V_SIDE = 0  # the side deciding (0-3 a family, 4 the State)
V_TURN_SIDE = 1  # the side whose turn it is
V_PASS = 2  # calendar turn, 0-based
V_DICE = 3  # 2: this turn's roll
V_ASK_PIECE = 5  # what the decision is about (see the decisions)
V_ASK_OTHER = 6
V_ASK_CARD = 7
V_NO_AIR = 8  # 1: the air link is closed this turn
V_STATE_PIECE_FROZEN = 9  # four players: the next family turn moves no State piece
V_MOVED_STATE = 10  # four players: the State piece the family moved, resolving (-1: none)
V_RNG = 11  # the deciding side's own random stream (copied back after the decision)
V_LOC = 12  # N_PIECES: space or box of each piece
V_BASE = V_LOC + N_PIECES  # N_FAMILIES
V_SUPPLY = V_BASE + N_FAMILIES  # N_FAMILIES: markers left in each family's supply
V_FROZEN = V_SUPPLY + N_FAMILIES  # N_SIDES
V_HAND = V_FROZEN + N_SIDES  # N_CARDS: 1 if the deciding side holds the card
V_HAND_COUNT = V_HAND + N_CARDS  # N_SIDES: cards each side holds
V_DECK_COUNT = V_HAND_COUNT + N_SIDES  # 3: cards left in each deck
V_TYPE = V_DECK_COUNT + 3  # MAX_SPACES: current space types
V_TRIGGER = V_TYPE + MAX_SPACES  # MAX_SPACES: current trigger faces (bit f: face f)
V_MARK = V_TRIGGER + MAX_SPACES  # MAX_SPACES * 4: markers of family f on space x at V_MARK + 4x + f
V_OPTIONS = V_MARK + MAX_SPACES * N_FAMILIES  # MAX_OPTIONS: what option i is (see the decisions)
V_MOVES = V_OPTIONS + MAX_OPTIONS  # MAX_OPTIONS * 4: a move option's (piece, end, piece or -1, end or -1)
V_LEN = V_MOVES + MAX_OPTIONS * 4

# ------------------------------------------------------------------ state array
S_LOC = 0  # N_PIECES: space or box of each piece
S_BASE = S_LOC + N_PIECES  # N_FAMILIES: base city of each family
S_HOLDER = S_BASE + N_FAMILIES  # N_CARDS: side holding each card (-1: in its deck)
S_TYPE = S_HOLDER + N_CARDS  # MAX_SPACES: current type (Anti-mafia operation changes it)
S_TRIGGER = S_TYPE + MAX_SPACES  # MAX_SPACES: current trigger faces
S_MARK = S_TRIGGER + MAX_SPACES  # MAX_SPACES * 4: markers of family f on space x at S_MARK + 4x + f
S_FROZEN = S_MARK + MAX_SPACES * N_FAMILIES  # N_SIDES: 1: the side may not move its next turn
S_STATE_PIECE_FROZEN = S_FROZEN + N_SIDES  # four players: the next family turn moves no State piece
S_NO_AIR = S_STATE_PIECE_FROZEN + 1  # 1: the air link is closed this turn
S_SIDE = S_NO_AIR + 1  # side whose turn it is
S_PASS = S_SIDE + 1  # calendar turn (0-based pass of the calendar)
S_FORBIDDEN = S_PASS + 1  # N_PIECES: 1: forbidden every activity this resolution
S_SUPPLY = S_FORBIDDEN + N_PIECES  # N_FAMILIES: markers left in each family's supply
S_CONTROLLED = S_SUPPLY + N_FAMILIES  # N_FAMILIES: spaces each family controls (markers > 0), kept
# by the marker functions as markers come and go (the calendar reads it before every family turn)
S_MOVED_STATE = S_CONTROLLED + N_FAMILIES  # four players: the State piece the family moved, resolving (-1: none)
S_ERROR = S_MOVED_STATE + 1  # error * 8 + side (0: none)
S_RNG = S_ERROR + 1  # dice and decks (lane 0)
S_RNG_SIDE = S_RNG + 1  # N_SIDES: each side's own choices (lane 1 + side)
S_ASK_PIECE = S_RNG_SIDE + N_SIDES  # what a decision is about (see D_*)
S_ASK_OTHER = S_ASK_PIECE + 1
S_ASK_CARD = S_ASK_OTHER + 1
S_DICE = S_ASK_CARD + 1  # 2: the roll of this turn
S_SCRIPT_N = S_DICE + 2  # scripted answers (bot kind SCRIPTED) and dice (tests)
S_SCRIPT_I = S_SCRIPT_N + 1
S_DIE_N = S_SCRIPT_I + 1
S_DIE_I = S_DIE_N + 1
S_SCRIPT = S_DIE_I + 1  # SCRIPT_LEN answers
SCRIPT_LEN = 64
S_DIE_SCRIPT = S_SCRIPT + SCRIPT_LEN  # SCRIPT_LEN die faces; when used up, dice are random
# the options of a move decision, written only for bots that read them (not the random
# bot): per option (piece, end space, second piece or -1, its end space or -1), in the
# order of the decision's option index; at most MAX_OPTIONS (a bot sees the first ones)
S_OPT_N = S_DIE_SCRIPT + SCRIPT_LEN
S_OPT = S_OPT_N + 1  # MAX_OPTIONS * 4
S_SCORE = S_OPT + MAX_OPTIONS * 4  # MAX_OPTIONS: a bot's scratch (scores of the options)
# a heuristic bot's value of one piece ending on one space, computed once per move decision
# (a two-piece option adds two of them; the same piece and end recur in many options)
S_MEMO_N = S_SCORE + MAX_OPTIONS  # move decisions scored so far (the stamp of this one)
S_MEMO_AT = S_MEMO_N + 1  # N_PIECES * MAX_SPACES: stamp of the decision whose value is below
S_MEMO = S_MEMO_AT + N_PIECES * MAX_SPACES  # N_PIECES * MAX_SPACES: the value (float64 bits)
# user bots (view.py): per side, its parameters then its memory, as float64 bits (the
# kernel hands them over as a float64 view of these slots; cleared at every game start)
S_USER = S_MEMO + N_PIECES * MAX_SPACES  # N_SIDES * USER_WIDTH
N_PARAMS = MODEL_WIDTH  # parameters a user bot may declare
USER_MEMORY = 16  # float slots a user bot keeps between its decisions in a game
USER_WIDTH = N_PARAMS + USER_MEMORY
S_VIEW = S_USER + N_SIDES * USER_WIDTH  # V_LEN: the view a user bot is handed (V_* below)
S_CARD_AT = S_VIEW + V_LEN  # next free row of the chunk's cards buffer
S_GAME_I = S_CARD_AT + 1  # row of the game in the chunk
S_STANDING = S_GAME_I + 1  # N_SIDES: each side's standing now (flow.note_standing)
S_FLOW = S_STANDING + N_SIDES  # MAX_PASSES * 6: the leading side after each side turn (engine/flow.py)
S_GM = S_FLOW + MAX_PASSES * 6  # GM_LEN: the games row being filled (S_GM ..: cleared for every game)

# ------------------------------------------------------------------ records
# games.parquet columns (one row per game), slot = column
GM_COLUMNS = ("calendar_turns", "side_turns", "outcome", "purge_halves", "markers_on_map", "winner_spaces",
              "shootouts", "arrests", "holds", "holds_roadblock", "eliminations", "commission_freezes",
              "restaurant_explosions", "air_moves", "drawn_usa", "drawn_rome", "drawn_sisde", "played_usa",
              "played_rome", "played_sisde", "given_up", "markers_placed", "markers_removed",
              "side_turns_frozen", "card_rows", "lead_changes", "decided_after", "comeback")
(GM_CALENDAR_TURNS, GM_SIDE_TURNS, GM_OUTCOME, GM_PURGE_HALVES, GM_MARKERS_ON_MAP, GM_WINNER_SPACES,
 GM_SHOOTOUTS, GM_ARRESTS, GM_HOLDS, GM_HOLDS_ROADBLOCK, GM_ELIMINATIONS, GM_COMMISSION_FREEZES,
 GM_RESTAURANT_EXPLOSIONS, GM_AIR_MOVES, GM_DRAWN_USA, GM_DRAWN_ROME, GM_DRAWN_SISDE, GM_PLAYED_USA,
 GM_PLAYED_ROME, GM_PLAYED_SISDE, GM_GIVEN_UP, GM_MARKERS_PLACED, GM_MARKERS_REMOVED, GM_SIDE_TURNS_FROZEN,
 GM_CARD_ROWS, GM_LEAD_CHANGES, GM_DECIDED_AFTER, GM_COMEBACK) = range(len(GM_COLUMNS))
GM_LEN = len(GM_COLUMNS)
GM_DRAWN = GM_DRAWN_USA  # + deck
GM_PLAYED = GM_PLAYED_USA  # + deck

# sides.parquet columns (one row per game and side in the game)
SD_COLUMNS = ("base", "won", "side_turns", "markers_end", "spaces_end", "pieces_lost", "cards_drawn",
              "cards_played")
SD_BASE, SD_WON, SD_SIDE_TURNS, SD_MARKERS_END, SD_SPACES_END, SD_PIECES_LOST, SD_CARDS_DRAWN, \
    SD_CARDS_PLAYED = range(len(SD_COLUMNS))
SD_LEN = len(SD_COLUMNS)

# cards.parquet: one row per card played, in a buffer shared by the games of a chunk
# (CARD_ROWS_PER_GAME rows a game to start with; when it is full the kernel stops with
# ERROR_CARD_ROWS and the match plays the chunk again with a buffer twice as large)
CARD_ROWS_PER_GAME = 4
CR_GAME, CR_PASS, CR_SIDE, CR_CARD = range(4)
CR_LEN = 4

# spaces.parquet: per space, summed over a chunk
SP_COLUMNS = ("landings", "triggers", "markers_placed", "markers_removed", "arrests", "holds", "eliminations")
SP_LANDINGS, SP_TRIGGERS, SP_MARKERS_PLACED, SP_MARKERS_REMOVED, SP_ARRESTS, SP_HOLDS, SP_ELIMINATIONS = \
    range(len(SP_COLUMNS))
SP_LEN = len(SP_COLUMNS)

S_SD = S_GM + GM_LEN  # N_SIDES * SD_LEN: the sides rows being filled
S_SLOT = S_SD + N_SIDES * SD_LEN  # the calendar's slot of this turn (0-5 in CALENDAR)
S_NO_STATE_MOVE = S_SLOT + 1  # four players: this family turn moves no State piece
S_LEN = S_NO_STATE_MOVE + 1
# a search bot's room (search.py), after the game's state: S_LEN + SEARCH_LEN slots are
# allocated, the game's state (S_LEN) cleared for every game
SEARCH_LEN = G_LEN + S_LEN + MAX_SPACES * SP_LEN + 2048
S_ALL = S_LEN + SEARCH_LEN

# ------------------------------------------------------------------ errors
# the kernel's status: 0 fine; else (error * 8 + side) + (game index << 32)
ERROR_ANSWER = 1  # a bot answered outside its options
ERROR_INVARIANT = 2  # pieces, markers or cards not conserved (G_CHECK)
ERROR_CARD_ROWS = 3  # the chunk's cards buffer is full (the match grows it and plays again)
ERRORS = {ERROR_ANSWER: "answered outside its options", ERROR_INVARIANT: "broke an invariant"}

# ------------------------------------------------------------------ trace (replay)
# events appended to the trace buffer when it is not empty: (code, a, b, c)
T_TURN, T_FROZEN, T_RETURN, T_DICE, T_MOVE, T_BOX, T_MARKER_ON, T_MARKER_OFF, T_CARD, T_DRAW, \
    T_SHOOTOUT, T_FORBID, T_GIVE_UP, T_END, T_BASE, T_STATE_MOVE, T_TRIGGER, T_ASK, T_HELI, T_AIR_CLOSED, \
    T_PASS_MOVE, T_ABOUT, T_TRIGGER_ROLL, T_MARKER_ROLL, T_RETURN_ROLL, T_SHOOT_DICE = range(26)
# T_ABOUT (ask piece, ask other, ask card): what the T_ASK right after it is about
# T_TRIGGER_ROLL (piece, space, face): the die a space with a trigger rolls against a piece
# T_MARKER_ROLL (piece, space, face): a Picciotto's marker die or a CC's marker-removal die
# T_RETURN_ROLL (piece, box, face): a return roll (a = piece, b = its box)
# T_SHOOT_DICE (die of the starter, die of the other, flags): 0 for a die not rolled
#   (Anti-gang brigade); flags bit 0/1 the starter/other hits, bit 2/3 Special weapons, bit 4/5 Anti-gang
SHOT_HIT_A, SHOT_HIT_B, SHOT_WEAPONS_A, SHOT_WEAPONS_B, SHOT_SURE_A, SHOT_SURE_B = 1, 2, 4, 8, 16, 32
TRACE_WIDTH = 4
