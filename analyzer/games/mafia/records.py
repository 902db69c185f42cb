"""The tables a Mafia run writes (``--out``), each column declared once: name,
dtype, meaning, unit (``analyzer/engine/records.py``). ``match.tables_of``
builds them through these specs; the docs' tables of columns are rendered from
them."""
from analyzer.engine.records import Column as C
from analyzer.engine.records import TableSpec, flow_columns

GAME = C("game", "int64", "game index of the run, 0-based")


def _count(name: str, meaning: str) -> C:
    return C(name, "int32", meaning)


TABLES = {
    "games": TableSpec("games", "game", (
        GAME,
        C("players", "int8", "players at the table"),
        C("calendar_turns", "int16", "passes of the six-slot calendar, skipped slots included", "passes"),
        C("side_turns", "int32", "turns actually played", "turns"),
        C("outcome", "category", "state, red, black, orange, green, all_lose or draw (the rules' safety cap "
                                 "of calendar turns reached)"),
        C("purge_points", "float64", "the State's purge points at the end", "points"),
        C("markers_on_map", "int8", "control markers on the map at the end", "markers"),
        C("winner_spaces", "Int8", "spaces the winning family controlled at the start of its winning turn "
                                   "(null if no family won)", "spaces"),
        _count("shootouts", "shootouts"),
        _count("arrests", "entries into Prison"),
        _count("holds", "entries into the Barracks, roadblocks included"),
        _count("holds_roadblock", "entries into the Barracks at a roadblock"),
        _count("eliminations", "entries into the Continent"),
        _count("commission_freezes", "families frozen by the commission"),
        _count("restaurant_explosions", "restaurant explosions"),
        _count("air_moves", "moves whose path used the air link"),
        _count("drawn_usa", "USA cards drawn"),
        _count("drawn_rome", "ROME cards drawn"),
        _count("drawn_sisde", "SISDE cards drawn"),
        _count("played_usa", "USA cards played"),
        _count("played_rome", "ROME cards played"),
        _count("played_sisde", "SISDE cards played (a pair counts 2, a matching 4-player draw 1)"),
        _count("given_up", "cards given up at the leak"),
        _count("markers_placed", "control markers placed"),
        _count("markers_removed", "control markers removed"),
        _count("side_turns_frozen", "side turns lost to a freeze"),
        *flow_columns("each side's way to its win: a family's controlled spaces of those it needs (rule "
                      "spaces_to_win: 4, 5 with three players, in the box), the State's purge points of those "
                      "that end the game (rule purge_points_to_end: 4 in the box; with four players the State "
                      "is no side)", "side", "side turns"),
    )),
    "sides": TableSpec("sides", "game and side", (
        GAME,
        C("side", "category", "state or a family colour"),
        C("seat", "int8", "seat playing the side, 1-based, in calendar order of first turns"),
        C("bot", "category", "the seat's bot, with its parameters"),
        C("role", "category", "state or family"),
        C("base", "category", "the family's base city (empty for the State)"),
        C("won", "bool", "the side won"),
        C("side_turns", "int32", "turns it played", "turns"),
        C("markers_end", "int8", "its control markers on the map at the end", "markers"),
        C("spaces_end", "int8", "spaces it controlled at the end", "spaces"),
        C("pieces_lost", "int16", "its pieces sent to the Continent", "pieces"),
        C("cards_drawn", "int16", "cards it drew", "cards"),
        C("cards_played", "int16", "cards it played", "cards"),
    )),
    "cards": TableSpec("cards", "card played", (
        GAME,
        C("calendar_turn", "int16", "pass of the calendar, 1-based"),
        C("side", "category", "side that played it"),
        C("deck", "category", "usa, rome or sisde"),
        C("card", "category", "the card (sisde_pair: a pair; sisde_4p: a matching 4-player SISDE draw)"),
    )),
    "spaces": TableSpec("spaces", "space of the map", (
        C("space", "int16", "space index of the map file"),
        C("name", "object", "its name"),
        C("type", "category", "its type"),
        C("landings", "int64", "pieces that ended a move on it", "landings"),
        C("triggers", "int64", "times its action took effect", "triggers"),
        C("markers_placed", "int64", "control markers placed on it", "markers"),
        C("markers_removed", "int64", "control markers removed from it", "markers"),
        C("arrests", "int64", "arrests made on it", "pieces"),
        C("holds", "int64", "holds made on it", "pieces"),
        C("eliminations", "int64", "eliminations made on it", "pieces"),
    ), summed=True),
}
