"""What a Mafia user bot sees: the view spec, and from it the accessors a bot
file imports (``from analyzer.games.mafia.view import *``).

The kernel hands a user bot a copy of what the deciding side may see
(``core.ask_user``, layout ``V_*``): the pieces, markers and spaces, its own
hand, the counts of everyone's cards and of the decks, the dice, and the
options of the decision; the game array (map, player count) as it is. The spec
names those slots; ``analyzer/engine/userbots.py`` makes the accessors, the
view's printout and ``docs/bots-mafia.md`` from it."""
from numba.extending import register_jitable

from analyzer.engine import userbots
from analyzer.engine.userbots import INDEX, Decision, Field, ViewSpec
from analyzer.games.mafia import layout as L
from analyzer.games.mafia.bots import chance  # the built-in bots' own reading of a trigger

_SIDE = "side 0-4 (" + ", ".join(L.SIDE_NAMES) + ")"
_FAMILY = "family 0-3 (" + ", ".join(L.FAMILIES) + ")"
_SPACE = f"space id 0-{L.MAX_SPACES - 1} (spaces past n_spaces read 0)"
_PIECE = "piece 0-16 (family f: Boss 3f, Picciotti 3f+1 and 3f+2; Prefect 12, SISDE 13, CC 14-16)"
_YES_NO = "0 no, 1 yes"


@register_jitable
def markers(view, space, family):
    """markers of a family (0-3) on a space"""
    if space < 0 or space >= L.MAX_SPACES or family < 0 or family >= L.N_FAMILIES:
        raise IndexError("markers(view, space, family): space or family outside the map")
    return int(view.state[L.V_MARK + 4 * space + family])


@register_jitable
def controller(view, space):
    """the family whose markers are on a space (it controls it), -1 if none"""
    if space < 0 or space >= L.MAX_SPACES:
        raise IndexError("controller(view, space): space outside the map")
    for f in range(L.N_FAMILIES):
        if view.state[L.V_MARK + 4 * space + f] > 0:
            return f
    return -1


@register_jitable
def controls(view, family):
    """how many spaces a family (0-3) controls (it wins with win_spaces(view) at the start of its turn)"""
    if family < 0 or family >= L.N_FAMILIES:
        raise IndexError("controls(view, family): family outside 0-3")
    n = 0
    for x in range(view.game[L.G_N_SPACES]):
        if view.state[L.V_MARK + 4 * x + family] > 0:
            n += 1
    return n


@register_jitable
def purge_halves(view):
    """the State's purge points, doubled (they end the game at purge_halves_to_end(view)):
    purge_half_points(view, 0) per Boss in Prison, (view, 1) per Boss in the Barracks,
    (view, 2) per Picciotto in Prison (the box: 4, 2, 1)"""
    boss_prison = view.game[L.G_PURGE_WEIGHT + L.PW_BOSS_PRISON]
    boss_barracks = view.game[L.G_PURGE_WEIGHT + L.PW_BOSS_BARRACKS]
    picciotto_prison = view.game[L.G_PURGE_WEIGHT + L.PW_PICCIOTTO_PRISON]
    total = 0
    for p in range(12):
        loc = view.state[L.V_LOC + p]
        if p % 3 == 0:
            total += boss_prison if loc == L.PRISON else (boss_barracks if loc == L.BARRACKS else 0)
        elif loc == L.PRISON:
            total += picciotto_prison
    return int(total)


@register_jitable
def owner(piece):
    """the side (0-3 a family, 4 the State) a piece belongs to"""
    return piece // 3 if piece < 12 else L.STATE


@register_jitable
def is_boss(piece):
    """1 if a piece is a Boss, else 0"""
    return 1 if piece < 12 and piece % 3 == 0 else 0


@register_jitable
def trigger_chance(view, space):
    """the share of die faces that set a space off (0 for a space without trigger)"""
    if space < 0 or space >= L.MAX_SPACES:
        raise IndexError("trigger_chance(view, space): space outside the map")
    return chance(view.state[L.V_TRIGGER + space])


@register_jitable
def move_piece(view, i, k):
    """the piece moved by part k (0 or 1) of move option i; -1 for part 1 of a one-piece move"""
    if i < 0 or i >= view.n_options or k < 0 or k > 1:
        raise IndexError("move_piece(view, i, k): i outside 0 .. n_options(view) - 1 or k outside 0-1")
    if view.what != L.D_MOVE and view.what != L.D_STATE_MOVE:
        raise IndexError("move_piece(view, i, k): only move and state move decisions have moves")
    return int(view.state[L.V_MOVES + 4 * i + 2 * k])


@register_jitable
def move_to(view, i, k):
    """the space where part k (0 or 1) of move option i ends (-1: no such part); the two
    parts move before either resolves, part 0 resolves first"""
    if i < 0 or i >= view.n_options or k < 0 or k > 1:
        raise IndexError("move_to(view, i, k): i outside 0 .. n_options(view) - 1 or k outside 0-1")
    if view.what != L.D_MOVE and view.what != L.D_STATE_MOVE:
        raise IndexError("move_to(view, i, k): only move and state move decisions have moves")
    return int(view.state[L.V_MOVES + 4 * i + 2 * k + 1])


def _f(name, at, length, meaning, index=""):
    return Field(name, "state", at, length, meaning, index)


def _g(name, at, length, meaning, index=""):
    return Field(name, "game", at, length, meaning, index)


VIEW = ViewSpec(
    game="mafia",
    title="Mafia",
    fields=(
        _f("side", L.V_SIDE, 1, "the side this decision is for: 0-3 a family, 4 the State (with four "
           "players a family takes the State's decisions in its own turn)"),
        _f("turn_side", L.V_TURN_SIDE, 1, "the side whose turn it is"),
        _f("calendar_turn", L.V_PASS, 1, "calendar turns played before this one (0 in the first)"),
        _f("dice", L.V_DICE, 2, "this turn's roll (after a Heliborne operation, the changed dice)", "die 0-1"),
        _f("ask_piece", L.V_ASK_PIECE, 1, "the piece the decision is about, -1 if none (see the decisions)"),
        _f("ask_other", L.V_ASK_OTHER, 1, "the other piece of the decision (see the decisions)"),
        _f("ask_card", L.V_ASK_CARD, 1, "the card of a card decision (card id 0-23)"),
        _f("air_closed", L.V_NO_AIR, 1, "1 if the air link is closed this turn (Airport bomb, ATI strike)"),
        _f("state_piece_frozen", L.V_STATE_PIECE_FROZEN, 1,
           "four players: 1 if the next family turn moves no State piece (the commission froze the Prefect)"),
        _f("moved_state_piece", L.V_MOVED_STATE, 1,
           "four players: the State piece the family moved, while it resolves (-1: none)"),
        _f("location", L.V_LOC, L.N_PIECES, "where a piece is: a space id, or -1 Continent, -2 Prison, "
           "-3 Barracks, -4 out of the game (the SISDE with four players)", _PIECE),
        _f("base", L.V_BASE, L.N_FAMILIES, "a family's base city (space id; chosen at the setup)", _FAMILY),
        _f("supply", L.V_SUPPLY, L.N_FAMILIES, "markers left in a family's supply (markers_per_family in all)",
           _FAMILY),
        _f("frozen", L.V_FROZEN, L.N_SIDES, "1 if a side may not move on its next turn (the commission)", _SIDE),
        _f("hand", L.V_HAND, L.N_CARDS, "1 if the deciding side holds a card", "card id 0-23"),
        _f("hand_count", L.V_HAND_COUNT, L.N_SIDES, "cards a side holds", _SIDE),
        _f("deck_count", L.V_DECK_COUNT, 3, "cards left in a deck", "deck 0 USA, 1 ROME, 2 SISDE"),
        _f("space_type", L.V_TYPE, L.MAX_SPACES, "a space's type now (an Anti-mafia operation makes a "
           "roadblock): 0 city, 1 plain, 2 telephone, 3 roadblock, 4 ambush, 5 restaurant, 6 bomb, "
           "7 leak, 8 commission", _SPACE),
        _f("trigger", L.V_TRIGGER, L.MAX_SPACES, "the die faces that set a space off, as bits "
           "(bit f set: face f triggers; read it with trigger_chance)", _SPACE),
        _g("players", L.G_PLAYERS, 1, "players at the table (3-5)"),
        _g("n_spaces", L.G_N_SPACES, 1, "spaces on the map"),
        # the rules this game plays (``--rule``; the box's values in brackets)
        _g("win_spaces", L.G_WIN_SPACES, 1, "spaces a family must control at the start of its turn to win "
           "(rule spaces_to_win at this player count; 4, 5 with three players)"),
        _g("purge_halves_to_end", L.G_PURGE_END, 1, "the State's purge points, doubled, that end the game "
           "(rule purge_points_to_end times 2; 8): the State wins at the start of its turn, with four players "
           "everyone loses at the start of a family's turn"),
        _g("purge_half_points", L.G_PURGE_WEIGHT, 3, "what a piece in a box adds to purge_halves(view) "
           "(rule purge_half_points; 4, 2, 1)", "0 a Boss in Prison, 1 a Boss in the Barracks, "
           "2 a Picciotto in Prison"),
        _g("markers_per_family", L.G_MARKERS, 1, "control markers each family has (rule markers_per_family; 8)"),
        _g("safety_cap", L.G_SAFETY_CAP, 1, "calendar turns after which a game without a winner is a draw "
           "(rule safety_cap; 600)"),
        _g("shot_faces", L.G_SHOT_HITS, 1, "the die faces on which a shootout's die hits, as bits (bit f set: "
           "face f; rule shootout_hit_faces; 1 3 5)"),
        _g("weapons_faces", L.G_WEAPON_HITS, 1, "the same with Special weapons, as bits (rule "
           "weapons_hit_faces; 2-6)"),
        _g("picciotto_marker_faces", L.G_PICCIOTTO_MARKER, 1, "the die faces on which a Picciotto places a "
           "marker, as bits (rule picciotto_marker_faces; 2 4 6)"),
        _g("cc_removal_faces", L.G_CC_REMOVAL, 1, "the die faces on which a CC removes a marker, as bits "
           "(rule cc_removal_faces; 2 4 6)"),
        _g("airport", L.G_AIRPORT, L.MAX_SPACES, "1 on an airport (the Boss and the Prefect fly between "
           "airports)", _SPACE),
        _g("open_to", L.G_OPEN, L.MAX_SPACES, "the families that may pick a city as base, as bits "
           "(bit f: family f)", _SPACE),
        _g("seat_of", L.G_SEAT, L.N_SIDES, "the seat (0-based) playing a side, -1 if none", _SIDE),
    ),
    decisions=(
        Decision(L.D_BASE, "base", "at the setup, each family in calendar order",
                 "the cities open to the family (space ids)", INDEX, "an option index"),
        Decision(L.D_MOVE, "move", "(c): the side's roll can be used in more than one way",
                 "every use of the roll: the first moved piece; move_piece(view, i, k) and move_to(view, i, k) "
                 "give both parts (one piece by the sum, or two pieces a die each)", INDEX, "an option index"),
        Decision(L.D_STATE_MOVE, "state move", "four players: after its activities a family moves the "
                 "Prefect or a CC by one of its dice", "the State piece; move_to(view, i, 0) its end space",
                 INDEX, "an option index"),
        Decision(L.D_ARREST, "arrest", "a CC (ask_other) may arrest the Picciotto ask_piece (the State "
                 "decides; four players: the family whose turn it is)", _YES_NO, INDEX, "1 to arrest"),
        Decision(L.D_HOLD, "hold", "a CC (ask_other) may hold the Boss ask_piece", _YES_NO, INDEX, "1 to hold"),
        Decision(L.D_FORBID, "forbid", "the family's Boss ask_other may forbid the Picciotto ask_piece "
                 "every activity", _YES_NO, INDEX, "1 to forbid"),
        Decision(L.D_SHOOT, "shoot", "the family's piece ask_other may start a shootout with ask_piece",
                 _YES_NO, INDEX, "1 to shoot"),
        Decision(L.D_RESIST, "resist", "the family's Picciotto ask_piece may resist the CC ask_other by a "
                 "shootout", _YES_NO, INDEX, "1 to resist"),
        Decision(L.D_CARD, "card", "the window of the held card ask_card is open (ask_piece: the piece "
                 "it concerns, -1 if none; for the two SISDE clues, the first of the pair and the Boss; for "
                 "Special weapons and Anti-gang brigade, ask_other: the adversary in the shootout)",
                 _YES_NO, INDEX, "1 to play it"),
        Decision(L.D_GIVE_UP, "give up", "an information leak: the side gives up a card",
                 "the cards it may give up (card ids: a family's USA cards, the State's ROME and SISDE cards)",
                 INDEX, "an option index"),
        Decision(L.D_VISIT_SPACE, "visit space", "it played American boss visit",
                 "the spaces the family controls (space ids)", INDEX, "an option index"),
        Decision(L.D_ANTI_MAFIA_SPACE, "anti-mafia space", "it played Anti-mafia operation",
                 "the spaces that are not cities (space ids)", INDEX, "an option index"),
        Decision(L.D_HELI_DIE, "heliborne die", "it played Heliborne operation: die ask_other (0 or 1) "
                 "becomes any value within 2 of its roll", "the die values", INDEX, "an option index"),
    ),
    options_at=L.V_OPTIONS,
    options_cap=L.MAX_OPTIONS,
    rng_at=L.V_RNG,
    n_params=L.N_PARAMS,
    memory=L.USER_MEMORY,
    memory_text="one set per side it plays, cleared at the start of every game, seen by no other bot",
    roles=(L.ROLE_STATE, L.ROLE_FAMILY),
    hides=(
        "other sides' cards (only how many each holds: hand_count), the SISDE clues the State holds "
        "included; a played Spy at the prefecture shows nothing more",
        "the order of the decks (only how many cards are left: deck_count)",
        "the dice to come (the dice and decks' random stream is not in the view)",
        "other sides' random streams, their bots' parameters and memory",
    ),
    functions=(markers, controller, controls, purge_halves, owner, is_boss, trigger_chance, move_piece,
               move_to),
    constants=(
        *((f"DECIDE_{name.upper().replace(' ', '_').replace('-', '_')}", i, f"the {name} decision")
          for i, name in enumerate(L.DECISIONS)),
        *((name.upper(), i, f"side {name}") for i, name in enumerate(L.SIDE_NAMES)),
        ("PREFECT", L.PREFECT, "piece: the Prefect"),
        ("SISDE", L.SISDE, "piece: the SISDE agent"),
        ("CC1", L.CC1, "piece: the first CC (CC1 + 1, CC1 + 2 the others)"),
        ("CONTINENT", L.CONTINENT, "location: the Continent box (eliminated)"),
        ("PRISON", L.PRISON, "location: the Prison box (arrested)"),
        ("BARRACKS", L.BARRACKS, "location: the Barracks box (held)"),
        *((f"{name.upper()}_SPACE", i, f"space type {name}") for i, name in enumerate(L.SPACE_TYPES)),
        *((name.upper(), i, f"card {name}") for i, name in enumerate(L.CARD_NAMES)),
        ("FIRST_SISDE", L.FIRST_SISDE, "card: the first SISDE clue (FIRST_SISDE + 2f, + 2f + 1: family f's)"),
    ),
    notes=("A 3-player seat plays two families (red and orange, or black and green): its bot is asked "
           "for each with side(view) telling which, and keeps one memory per family. Every decision's "
           "answer is an option index; a yes/no decision has the options 0 (no) and 1 (yes). A "
           "decision with a single option is not asked (but a card or a yes/no decision always is)."),
    example="sims/bots/mafia-squatter.py",
)

View = userbots.VIEWS.setdefault(VIEW.game, userbots.view_class(VIEW))
globals().update(userbots.accessors(VIEW))
__all__ = userbots.exported(VIEW) + ["View", "describe", "VIEW"]


def describe(view) -> str:
    """The view in words (what ``print(view)`` shows)."""
    return userbots.describe(VIEW, view)
