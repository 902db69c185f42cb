"""The tables a Lemming Mafia run writes (``--out``), each column declared once:
name, dtype, meaning, unit (``analyzer/engine/records.py``). ``match.tables_of``
builds them through these specs; the docs' tables of columns are rendered from
them."""
from analyzer.engine.records import Column as C
from analyzer.engine.records import TableSpec, expand, flow_columns
from analyzer.games.lemming_mafia.layout import COLORS

RACE = C("race", "int64", "race index of the run, 0-based")
SEAT = C("seat", "int8", "seat, 1-based; seat 1 moves first")

TABLES = {
    "races": TableSpec("races", "race", (
        RACE,
        C("winner", "category", "colour of the winning lemming"),
        C("turns", "int32", "moves of the race, the last included", "moves"),
        C("eliminated", "int8", "lemmings eliminated", "lemmings"),
        C("finish", "category", "how the race ended: water (a lemming reached it) or last_standing"),
        C("winner_concrete", "int8", "concrete blocks the winner carried at the end", "blocks"),
        C("winner_field", "int16", "field the winner jumped into the water from (-1: the start area)"),
        C("tiebreak", "bool", "the top score was tied and contract points decided"),
        C("winners", "int8", "players sharing the win", "players"),
        *flow_columns("the lemmings' order on the track (the race's own standing: players' bet stacks are "
                      "hidden until the end)", "lemming", "moves"),
        *expand([], COLORS, C("place_{}", "int8", "final place of the {} lemming (1 = winner)")),
        *expand([], COLORS, C("concrete_{}", "int8", "concrete blocks the {} lemming carried at the end",
                              "blocks")),
    )),
    "players": TableSpec("players", "race and seat", (
        RACE, SEAT,
        C("bot", "category", "the seat's bot, with its parameters"),
        C("bet_points", "int16", "points from the bet stack", "points"),
        C("contract_points", "int16", "points from contracts held to the end", "points"),
        C("score", "int16", "bet_points + contract_points", "points"),
        C("bets_placed", "int8", "bet cards put on the stack", "cards"),
        C("contracts_discarded", "int8", "contracts thrown away at the boss", "cards"),
        C("won", "bool", "top score (shared wins count)"),
        C("decisions", "int16", "decisions its bot was asked", "decisions"),
    )),
    "contracts": TableSpec("contracts", "contract dealt", (
        RACE, SEAT,
        C("kind", "category", "what the card asks for"),
        C("colors", "category", "the colours it names, comma-separated ('' for none)"),
        C("points", "int8", "printed points", "points"),
        C("discarded", "bool", "thrown away at the boss"),
        C("fulfilled", "bool", "its condition held at the end (for every card)"),
        C("payoff", "int8", "points it paid: printed points, unfulfilled_contract (the rule; -2 in the box) if "
          "held and unfulfilled, 0 if discarded", "points"),
        C("discard_turn", "int16", "move it was discarded at (0: kept)", "moves"),
        C("card", "int16", "index of the card in the deck"),
    )),
    "bets": TableSpec("bets", "bet card placed", (
        RACE, SEAT,
        C("order", "int8", "place on the stack, 1-6, in placing order"),
        C("color", "category", "colour bet on"),
        C("turn", "int16", "move it was placed at", "moves"),
        C("race_turns", "int16", "moves of the whole race", "moves"),
        C("track_place", "int8", "place of that colour on the track when it was bet"),
        C("paid", "int8", "points it paid: bet_points (the rule) of its order if the winner's card, else 0",
          "points"),
    )),
    "fields": TableSpec("fields", "board field", (
        C("field", "int16", "field index, 0-based from the start"),
        C("section", "int16", "section of the field, 0-based"),
        C("action", "category", "the field's action"),
        C("landings", "int64", "lemmings that landed on it", "landings"),
        C("triggers", "int64", "times its action took effect", "triggers"),
    ), summed=True),
}
