"""The tables a Sau Mau Mau run writes (``--out``), each column declared once:
name, dtype, meaning, unit (``analyzer/engine/records.py``). ``match.tables_of``
builds them through these specs; the docs' tables of columns are rendered from
them."""
from analyzer.engine.records import Column as C
from analyzer.engine.records import TableSpec, expand, flow_columns
from analyzer.games.sau_mau_mau.layout import PIGS

GAME = C("game", "int64", "game index of the run, 0-based")
RACE = C("race", "int8", "race of the game, 1 to races_per_game (4 in the box)")
SEAT = C("seat", "int8", "seat, 1-based; seat r starts race r (the first player passes left)")
BOT = C("bot", "category", "the seat's bot, with its parameters")

TABLES = {
    "races": TableSpec("races", "race", (
        GAME, RACE,
        C("players", "int8", "players at the table"),
        C("first_seat", "int8", "seat that played first"),
        C("turns", "int32", "player turns, skipped ones included", "turns"),
        C("end", "category", "how the race ended: crown, hand (a player played out) or cap (safety stop)"),
        C("both_ends", "bool", "the crown was reached by a player's last card"),
        C("winning_pigs", "category", "the winning pig(s), comma-separated"),
        C("queue_length", "int8", "bets in the queue at the end", "bets"),
        C("ender_seat", "int8", "seat whose card ended the race (0: none)"),
        C("crown_pig", "category", "pig on the crown ('' for none)"),
        C("reshuffles", "int16", "times the discard pile became the draw pile"),
        *flow_columns("the pigs' spaces on the track (the pig furthest on would win a race ended by a last "
                      "card)", "pig", "turns"),
        *expand([], PIGS, C("pos_{}", "int16", "final space of the {} pig", "spaces")),
    )),
    "players": TableSpec("players", "race and seat", (
        GAME, RACE, SEAT, BOT,
        C("race_points", "int16", "bet_points + crown_points + hand_points", "points"),
        C("bet_points", "int8", "points of its bet (bet_payouts by place among the winning bets: 6-4-3-2-1 in "
          "the box; 0 if its pig lost)", "points"),
        C("crown_points", "int8", "crown_points for moving a pig onto the crown (3 in the box)", "points"),
        C("hand_points", "int8", "last_card_points for playing out (5 in the box)", "points"),
        C("bets_placed", "int16", "bets laid, changes included", "bets"),
        C("bets_changed", "int16", "bets changed", "bets"),
        C("cards_left", "int16", "cards in hand at the end", "cards"),
        C("cards_drawn", "int16", "cards drawn", "cards"),
        C("cards_played", "int16", "cards played", "cards"),
        C("decisions", "int32", "decisions its bot was asked", "decisions"),
        C("first", "bool", "this seat played first in the race"),
    )),
    "games": TableSpec("games", "game and seat", (
        GAME, SEAT, BOT,
        C("total", "int16", "points over the game's races (four in the box)", "points"),
        C("won", "bool", "top total (shared wins count)"),
    )),
    "bets": TableSpec("bets", "bet card in the final queue (every card laid: bet_events)", (
        GAME, RACE, SEAT, BOT,
        C("pig", "category", "pig bet on"),
        C("queue_position", "int8", "place in the queue at the end, 1 = first"),
        C("turn_placed", "int32", "turn it was laid (its last change)", "turns"),
        C("race_turns", "int32", "turns of the whole race", "turns"),
        C("changed", "bool", "it was a changed bet"),
        C("points", "int8", "points it paid", "points"),
        C("won", "bool", "its pig won the race"),
    )),
    "bet_events": TableSpec("bet_events", "bet card laid (a first bet or a change)", (
        GAME, RACE, SEAT, BOT,
        C("event", "int16", "order of the card among the race's bet cards, 1 = the first laid"),
        C("pig", "category", "pig bet on"),
        C("turn_placed", "int32", "turn it was laid", "turns"),
        C("race_turns", "int32", "turns of the whole race", "turns"),
        C("queue_position_placed", "int8", "its place in the queue when laid (the back), 1 = first"),
        C("change", "bool", "it replaced an earlier bet of the player (changed to)"),
        C("changed_from", "category", "a change: the pig of the bet it replaced ('' for a first bet)"),
        C("changed_from_won", "bool", "a change: the pig it replaced won the race"),
        C("turn_changed_away", "int32", "turn the player changed it for another (changed from); 0: kept",
          "turns"),
        C("in_final_queue", "bool", "still in the queue at the end (the row of the bets table)"),
        C("queue_position", "int8", "place in the queue at the end, 1 = first; 0 if changed away"),
        C("points", "int8", "points it paid (0 if changed away)", "points"),
        C("won", "bool", "its pig won the race"),
    )),
}
