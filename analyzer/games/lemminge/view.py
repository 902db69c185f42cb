"""What a Lemminge user bot sees: the view spec, and from it the accessors a
bot file imports (``from analyzer.games.lemminge.view import *``).

The spec names the slots of ``layout.py`` a deciding player may read (the
public table, its own hand, the options, the map in the game array);
``analyzer/engine/userbots.py`` makes the accessors, the view's printout and
``docs/bots-lemminge.md`` from it. The map's hexes are read through the
functions below (one hex at a time: a field of 1,024 hexes would fill the
printout), which call the rules' own helpers where there is one."""
from numba.extending import register_jitable

from analyzer.engine import userbots
from analyzer.engine.userbots import INDEX, INDEX_OR_PASS, VALUE, Decision, Field, ViewSpec
from analyzer.games.lemminge import layout as L
from analyzer.games.lemminge import rules as _rules

_SEAT = "seat 0-4 (0-based; seats past the player count read 0)"
_LEMMING = "lemming 0-9: seat * 2 + 0 or 1 (lemmings past the player count read 0)"
_TERRAIN = "terrain 0-4 (" + ", ".join(L.TERRAINS) + ")"


@register_jitable
def _cell(view, cell, name):
    if cell < 0 or cell >= view.game[L.G_N_CELLS]:
        raise IndexError(name + ": cell outside 0 .. n_cells(view) - 1")


@register_jitable
def _card(view, card, name):
    if card < 0 or card >= L.N_TERRAINS * view.game[L.G_N_VALUES]:
        raise IndexError(name + ": card outside 0 .. 5 * n_values(view) - 1")


@register_jitable
def _step(view, i, name):
    if view.what != L.DECIDE_STEP or i < 0 or i >= view.n_options:
        raise IndexError(name + ": i outside 0 .. n_options(view) - 1 (step decision only)")
    return L.S_OPTIONS + i * L.OPT_WIDTH


@register_jitable
def terrain(view, cell):
    """the terrain of a hex now (its tile's, if it has one): 0-4 a card terrain, 5 meadow,
    6 start, 7 finish, 8 off the map. Cells are y * width(view) + x on the odd-r grid"""
    _cell(view, cell, "terrain(view, cell)")
    return int(view.state[L.PUB_TER + cell])


@register_jitable
def printed_terrain(view, cell):
    """the terrain printed on a hex (under any tile), coded as for terrain(view, cell)"""
    _cell(view, cell, "printed_terrain(view, cell)")
    return int(view.game[L.G_TERRAIN + cell])


@register_jitable
def tile(view, cell):
    """the kind of the bonus tile on a hex: 0-4 a card terrain, 5 meadow; -1 none"""
    _cell(view, cell, "tile(view, cell)")
    return int(view.state[L.PUB_TILE + cell])


@register_jitable
def occupant(view, cell):
    """the lemming (seat * 2 + k) standing on a hex, -1 if none"""
    _cell(view, cell, "occupant(view, cell)")
    return int(view.state[L.PUB_OCC + cell])


@register_jitable
def finish_distance(view, cell):
    """the hex's distance to the finish in steps over any hex on the map (0 on a finish
    hex; -1 for a hex off the map or from which the finish cannot be reached)"""
    _cell(view, cell, "finish_distance(view, cell)")
    return int(view.game[L.G_DIST + cell])


@register_jitable
def neighbour(view, cell, direction):
    """the hex next to a hex in a direction 0-5 (E, W, NE, NW, SE, SW); -1 past the map's edge"""
    _cell(view, cell, "neighbour(view, cell, direction)")
    if direction < 0 or direction >= L.N_DIRECTIONS:
        raise IndexError("neighbour(view, cell, direction): direction outside 0-5")
    return int(view.game[L.G_NB + cell * L.N_DIRECTIONS + direction])


@register_jitable
def can_enter(view, cell, terrain):
    """1 if a lemming moved by a card of a terrain 0-4 may enter a hex (meadow, the finish
    or that terrain now), else 0. Another lemming on it is pushed, at a cost (step_cost)"""
    _cell(view, cell, "can_enter(view, cell, terrain)")
    return 1 if _rules.enterable(view.state, cell, terrain) else 0


@register_jitable
def distance(view, lemming):
    """a lemming's finish distance: 0 once home, start_distance(view) in the start area"""
    if lemming < 0 or lemming >= L.MAX_LEMMINGS:
        raise IndexError("distance(view, lemming): lemming outside 0-9")
    return int(_rules.distance(view.game, view.state, lemming))


@register_jitable
def card_terrain(view, card):
    """the terrain 0-4 of a card id (the cards are terrain * n_values(view) + i)"""
    _card(view, card, "card_terrain(view, card)")
    return int(_rules.card_terrain(view.game, card))


@register_jitable
def card_value(view, card):
    """the value printed on a card id (values(view, i) for i = card % n_values(view))"""
    _card(view, card, "card_value(view, card)")
    return int(_rules.card_value(view.game, card))


@register_jitable
def movement(view, card):
    """the movement a card gives played now: its column's sum with it if the column's top
    card is at least its value, else its own value (it starts a new column)"""
    _card(view, card, "movement(view, card)")
    m, new = _rules.movement_of(view.game, view.state, card)
    return int(m)


@register_jitable
def new_column(view, card):
    """1 if a card played now starts a new column of its terrain (the old one is discarded
    and a bonus tile earned, while the supply lasts), else 0"""
    _card(view, card, "new_column(view, card)")
    m, new = _rules.movement_of(view.game, view.state, card)
    return int(new)


@register_jitable
def column_card(view, terrain, k):
    """the k-th card id of a terrain's column, bottom first (k < column_count(view, terrain))"""
    if terrain < 0 or terrain >= L.N_TERRAINS:
        raise IndexError("column_card(view, terrain, k): terrain outside 0-4")
    if k < 0 or k >= view.state[L.PUB_COL_N + terrain]:
        raise IndexError("column_card(view, terrain, k): k outside 0 .. column_count(view, terrain) - 1")
    return int(view.state[L.PUB_COL + terrain * L.MAX_VALUES + k])


@register_jitable
def step_cost(view, i):
    """the movement step option i costs: 1, plus push_cost(view) per lemming its push moves (step decision)"""
    return int(view.state[_step(view, i, "step_cost(view, i)") + L.OPT_COST])


@register_jitable
def step_pushes(view, i):
    """the lemmings step option i pushes one hex on, the line in front of it (0: none; step decision)"""
    return int(view.state[_step(view, i, "step_pushes(view, i)") + L.OPT_PUSHED])


@register_jitable
def step_direction(view, i):
    """the direction 0-5 (E, W, NE, NW, SE, SW) of step option i; a push follows it"""
    return int(view.state[_step(view, i, "step_direction(view, i)") + L.OPT_DIR])


@register_jitable
def step_distance(view, i):
    """the finish distance of step option i's target hex"""
    return int(view.state[_step(view, i, "step_distance(view, i)") + L.OPT_DIST])


@register_jitable
def step_from(view, i):
    """the hex step option i leaves (a start hex for a lemming in the start area)"""
    return int(view.state[_step(view, i, "step_from(view, i)") + L.OPT_FROM])


def _f(name, at, length, meaning, index=""):
    return Field(name, "state", at, length, meaning, index)


def _g(name, at, length, meaning, index=""):
    return Field(name, "game", at, length, meaning, index)


VIEW = ViewSpec(
    game="lemminge",
    title="Lemminge",
    fields=(
        _f("n_players", L.PUB_N_PLAYERS, 1, "players at the table"),
        _f("turn", L.PUB_TURN, 1, "turns of the game so far, refills and this one included"),
        _f("mover", L.PUB_MOVER, 1, "seat whose turn it is"),
        _f("position", L.PUB_POS, L.MAX_LEMMINGS,
           "where a lemming is: a hex, -1 in the start area, -2 home (finished)", _LEMMING),
        _f("hand_count", L.PUB_HAND_N, L.MAX_PLAYERS, "cards in a player's hand", _SEAT),
        _f("pile_count", L.PUB_PILE_N, 1, "cards in the draw pile"),
        _f("discard_count", L.PUB_DISCARD_N, 1, "cards in the discard pile"),
        _f("reshuffles", L.PUB_RESHUFFLES, 1, "new draw piles made from the discards so far"),
        _f("column_count", L.PUB_COL_N, L.N_TERRAINS,
           "cards in a terrain's column (the top one is the active card; read them with column_card)",
           _TERRAIN),
        _f("column_sum", L.PUB_COL_SUM, L.N_TERRAINS, "the sum of the values in a terrain's column", _TERRAIN),
        _f("supply", L.PUB_SUPPLY, L.N_TILE_KINDS, "bonus tiles left in the supply by kind",
           "tile kind 0-5 (" + ", ".join(L.TILE_KINDS) + ")"),
        _f("played_terrain", L.PUB_TERRAIN, 1,
           "the terrain of the card played this turn (tile, lemming and step decisions; "
           "before that, the last card played)"),
        _f("movement_left", L.PUB_MOVEMENT, 1,
           "the movement of the card played (tile, lemming decisions), what is left of it (step decision)"),
        _f("moving", L.PUB_LEMMING, 1, "the lemming walking (step decision)"),
        _f("tile_kind", L.PUB_TILE_KIND, 1, "the kind of the bonus tile to place (tile decision): "
                                            "0-4 a card terrain, 5 meadow"),
        _f("setback", L.PUB_SETBACK, 1,
           "finish distance the lemmings pushed this turn have lost so far, summed (step decision; "
           "negative: pushed on)"),
        _f("hand", L.S_VIEW + L.OWN_HAND, L.MAX_HAND,
           "the card ids in this player's hand (the first hand_size are used)", f"position 0-{L.MAX_HAND - 1}"),
        _f("hand_size", L.S_VIEW + L.OWN_HAND_N, 1, "cards in this player's hand"),
        _f("allows_step", L.S_ALLOWS, L.MAX_HAND,
           "action decision: 1 if option i's card lets one of its lemmings take a step (judged before "
           "any bonus tile), 0 if not (it may still be played: a move of 0 steps, e.g. for its bonus tile)",
           f"option i 0-{L.MAX_HAND - 1}"),
        _g("n_cells", L.G_N_CELLS, 1, "hexes of the map's grid (cells 0 .. n_cells-1, off-map ones included)"),
        _g("width", L.G_WIDTH, 1, "hexes per row of the grid (cell = y * width + x)"),
        _g("n_values", L.G_N_VALUES, 1, "cards per terrain"),
        _g("values", L.G_VALUES, L.MAX_VALUES,
           "the values of a terrain's cards in id order (the first n_values are used)", "i 0-15"),
        _g("start_distance", L.G_START_DIST, 1, "the finish distance of a lemming in the start area"),
        _g("n_start", L.G_N_START, 1, "start hexes"),
        _g("start_cell", L.G_START_CELLS, L.MAX_START, "the start hexes (the first n_start are used)",
           "k 0-63"),
        # the rules the run plays (--rule, --rules; docs/lemminge.md "Rules a designer can change")
        _g("hand_limit", L.G_HAND_LIMIT, 1, "rules: the cards a refill draws the hand up to (6 in the box)"),
        _g("start_hands", L.G_START_HANDS, L.MAX_PLAYERS,
           "rules: the cards a seat was dealt at the start (the box's 3, 4, 5, 6 at four players)", _SEAT),
        _g("push_cost", L.G_PUSH_COST, 1,
           "rules: movement a push costs per lemming pushed, on top of the step's own 1 (1 in the box)"),
        _g("backward_push", L.G_BACKWARD_PUSH, 1,
           "rules: 1 if a push may set a lemming farther from the finish, 0 if not (the box: 0); the steps "
           "offered follow it"),
        _g("double_zero", L.G_DOUBLE_ZERO, 1,
           "rules: 1 if a reshuffle cuts every column showing all of its terrain's 0 cards down to one 0 "
           "(the box: 1)"),
    ),
    decisions=(
        Decision(L.DECIDE_ACTION, "action", "at the start of every turn",
                 "every card in hand, in hand order (card ids): any card may be played, whether or not "
                 "a step follows; allows_step(view, i) says which let one of its lemmings step (judged "
                 "before any bonus tile)", INDEX_OR_PASS,
                 "an option index to play that card, or -1 to refill (the only answer when the hand is empty)"),
        Decision(L.DECIDE_DISCARD, "discard", "it answered -1 (refill) to action",
                 "the cards in hand in position order (card ids)", VALUE,
                 "a bit mask: bit i discards option i (hand position i); then it draws up to hand_limit(view) "
                 "cards. A bit past its hand_size ends the run", lo=0, hi=(1 << L.MAX_HAND) - 1),
        Decision(L.DECIDE_TILE, "tile", "its card started a new column and the supply has a tile "
                 "(its terrain's, else a meadow tile: tile_kind(view))",
                 "every hex a tile may go on (cells)", INDEX,
                 "an option index: the hex (a tile already there goes back to the supply)"),
        Decision(L.DECIDE_LEMMING, "lemming", "after the card and its tile, when at least one of its "
                 "lemmings can step", "its lemmings that can step (lemming ids)", INDEX, "an option index"),
        Decision(L.DECIDE_STEP, "step", "before each step of the walking lemming (moving(view)), while "
                 "it has movement and a legal step",
                 "the target hexes of its legal steps (cells; step_cost, step_pushes, step_direction, "
                 "step_distance, step_from tell the rest). A push that would set a lemming of the line farther "
                 "from the finish is not legal and not offered (unless backward_push(view)); a sideways push "
                 "is", INDEX_OR_PASS,
                 "an option index to take that step (pushing the line in front), or -1 to stop walking"),
    ),
    options_at=L.S_USER_OPTIONS,
    options_cap=L.MAX_CELLS,
    rng_at=L.S_VIEW + L.OWN_RNG,
    n_params=L.N_PARAMS,  # (the slots after it are the search bot's)
    memory=0,
    memory_text="",
    hides=(
        "other players' hands (only how many cards: hand_count)",
        "the order of the draw pile and the deck's random stream",
        "other players' random streams",
    ),
    functions=(terrain, printed_terrain, tile, occupant, finish_distance, neighbour, can_enter, distance,
               card_terrain, card_value, movement, new_column, column_card,
               step_cost, step_pushes, step_direction, step_distance, step_from),
    constants=(
        *((f"DECIDE_{d.upper()}", i, f"the {d} decision") for i, d in enumerate(L.DECISIONS)),
        *((t.upper(), i, f"terrain {t}") for i, t in enumerate(L.TERRAIN_NAMES)),
        ("AT_START", L.AT_START, "position of a lemming in the start area"),
        ("HOME", L.HOME, "position of a lemming that has finished"),
        ("LEMMINGS", L.LEMMINGS, "lemmings per player: seat s has lemmings 2s and 2s + 1"),
        ("MAX_HAND", L.MAX_HAND, "the most cards a hand holds under any rules (the slots of hand(view, i)); "
                     "hand_limit(view) is what a refill draws up to in this run"),
    ),
    notes=("Every lemming, card and hex is a number: lemming `seat * 2 + k`, card "
           "`terrain * n_values + i`, hex `y * width + x`. A player wins when both its lemmings are "
           "home. A bot keeps nothing between decisions: its parameter row is handed over as a copy "
           "each time."),
    example="sims/bots/lemminge-sprinter.py",
)

View = userbots.VIEWS.setdefault(VIEW.game, userbots.view_class(VIEW))
globals().update(userbots.accessors(VIEW))
__all__ = userbots.exported(VIEW) + ["View", "describe", "VIEW"]


def describe(view) -> str:
    """The view in words (what ``print(view)`` shows)."""
    return userbots.describe(VIEW, view)
