"""The tables a Lemminge run writes (``--out``), each column declared once:
name, dtype, meaning, unit (``analyzer/engine/records.py``). ``match.tables_of``
builds them through these specs; the docs' tables of columns are rendered from
them."""
from analyzer.engine.records import Column as C
from analyzer.engine.records import TableSpec, flow_columns

GAME = C("game", "int64", "game index of the run, 0-based")
SEAT = C("seat", "int8", "seat, 1-based; seat 1 plays first")

TABLES = {
    "games": TableSpec("games", "game", (
        GAME,
        C("players", "int8", "players at the table"),
        C("turns", "int32", "player turns, refills included", "turns"),
        C("winner_seat", "int8", "seat that brought both lemmings home first (0: none, capped)"),
        C("capped", "bool", "stopped at the safety cap of turns without a winner"),
        C("reshuffles", "int16", "times the discards became the draw pile"),
        *flow_columns("each player's finish distance, its two lemmings' together (0: both home, the win)",
                      "player", "turns"),
    )),
    "players": TableSpec("players", "game and seat", (
        GAME, SEAT,
        C("bot", "category", "the seat's bot, with its parameters"),
        C("won", "bool", "won the game"),
        C("finished", "int8", "its lemmings home at the end, 0-2", "lemmings"),
        C("refills", "int16", "turns spent refilling the hand", "turns"),
        C("moves", "int16", "cards played to move", "cards"),
        C("steps", "int16", "hexes its lemmings entered on its moves (pushes not counted)", "hexes"),
        C("pushes_made", "int16", "lemmings pushed one hex by its moves, each once per push", "pushes"),
        C("pushed", "int16", "times its lemmings were pushed", "pushes"),
        C("new_columns", "int16", "cards it played that started a new column", "cards"),
        C("tiles_placed", "int16", "bonus tiles it placed", "tiles"),
        C("hand_start", "int8", "cards in its starting hand", "cards"),
        C("pushed_distance", "int16", "change of its lemmings' finish distance by pushes: 0 or less under the box's "
          "rules, where a push never takes a lemming farther away (-3: pushed 3 hexes closer; the rule "
          "backward_push lets a push set one back)",
          "hexes"),
    )),
    "moves": TableSpec("moves", "card played", (
        GAME,
        C("turn", "int16", "turn of the game", "turns"),
        SEAT,
        C("terrain", "category", "terrain of the card"),
        C("value", "int8", "value of the card"),
        C("column_sum_before", "int16", "sum of its terrain's column before the card"),
        C("new_column", "bool", "the card started a new column (its value above the active card's)"),
        C("movement", "int16", "hexes of movement the card gave", "hexes"),
        C("steps", "int16", "hexes the lemming entered", "hexes"),
        C("pushes", "int8", "lemmings pushed one hex (each costs push_cost movement, 1 in the box)", "pushes"),
        C("lemming", "int8", "the lemming moved, 0-9 (seat * 2 + its own 0/1); -1 if none could step"),
        C("distance_before", "int16", "the lemming's distance to the finish before the move", "hexes"),
        C("distance_after", "int16", "its distance after the move", "hexes"),
        C("pushed_setback", "int16", "change of the pushed lemmings' finish distance: 0 or less under the box's "
          "rules, where a push never takes a lemming farther away (-2: 2 hexes closer; the rule backward_push "
          "lets a push set one back)", "hexes"),
    )),
    "hexes": TableSpec("hexes", "hex of the map", (
        C("x", "int16", "column of the hex (odd-r offset coordinates)"),
        C("y", "int16", "row of the hex, 0 at the top"),
        C("terrain", "category", "terrain of the hex"),
        C("entered", "int64", "lemmings that stepped onto it", "entries"),
        C("pushed_into", "int64", "lemmings pushed onto it", "entries"),
        C("tiles_placed", "int64", "bonus tiles placed on it", "tiles"),
    ), summed=True),
}
