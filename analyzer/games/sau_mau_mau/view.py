"""What a Sau Mau Mau user bot sees: the view spec, and from it the accessors
a bot file imports (``from analyzer.games.sau_mau_mau.view import *``).

The spec names the slots of ``layout.py`` a deciding player may read (the
public race, its own row, the options); ``analyzer/engine/userbots.py`` makes
the accessors, the view's printout and ``docs/bots-sau-mau-mau.md`` from it."""
from numba.extending import register_jitable

from analyzer.engine import userbots
from analyzer.engine.userbots import INDEX, INDEX_OR_PASS, VALUE, Decision, Field, ViewSpec
from analyzer.games.sau_mau_mau import layout as L
from analyzer.games.sau_mau_mau import rules as _rules

_PIG = "pig 0-3 (" + ", ".join(L.PIGS) + ")"
_SEAT = "seat 0-4 (0-based; seats past the player count read 0)"


@register_jitable
def card_kind(card):
    """the kind of a card id: 0 number, 1 X (skip), 2 +2, 3 Flapi, 4 Farmer"""
    return _rules.card_kind(card)


@register_jitable
def card_color(card):
    """the colour (pig 0-3) of a card id; a Flapi's printed colour; -1 for a Farmer"""
    return _rules.card_color(card)


@register_jitable
def card_number(card):
    """the number 1-6 of a number card, 0 for any other card"""
    return _rules.card_number(card)


@register_jitable
def bet_value(view, rank):
    """points of the rank-th (0-based) winning bet in queue order under the game's rules (bet_payouts:
    6, 4, 3, 2, 1 in the box), 0 past them"""
    if rank < 0 or rank >= L.MAX_PLAYERS:
        return 0
    return int(view.state[L.PUB_PAYOUTS + rank])


def _f(name, at, length, meaning, index=""):
    return Field(name, "state", at, length, meaning, index)


VIEW = ViewSpec(
    game="sau-mau-mau",
    title="Sau Mau Mau",
    fields=(
        _f("position", L.PUB_POS, L.N_PIGS, "the space a pig stands on (0: start)", _PIG),
        _f("top", L.PUB_TOP, 1, "the card id on top of the discard pile"),
        _f("need", L.PUB_NEED, 1, "the colour the next card must have (-1: any, after a Farmer turned up)"),
        _f("face", L.PUB_FACE, 1, "what besides the colour the next card may match: a number 1-6, 7 an X, 8 a +2; "
           "0 nothing (a green card on top, or an X or +2 turned up to start the race: its colour alone counts)"),
        _f("penalty", L.PUB_PENALTY, 1, "cards the player must draw unless it plays a +2 (0: none)"),
        _f("turn", L.PUB_TURN, 1, "player turns of the race so far, skipped ones included"),
        _f("mover", L.PUB_MOVER, 1, "seat whose turn it is"),
        _f("first", L.PUB_FIRST, 1, "seat that started this race"),
        _f("n_players", L.PUB_N_PLAYERS, 1, "players at the table"),
        _f("crown", L.PUB_CROWN, 1, "the space of the crown (a pig on it ends the race)"),
        _f("hand_count", L.PUB_HAND_N, L.MAX_PLAYERS, "cards in a player's hand", _SEAT),
        _f("pile_count", L.PUB_PILE_N, 1, "cards in the draw pile"),
        _f("discard_count", L.PUB_DISCARD_N, 1, "cards in the discard pile"),
        _f("queue_length", L.PUB_QUEUE_N, 1, "bets in the queue"),
        _f("queue", L.PUB_QUEUE, L.MAX_PLAYERS,
           "the seat of each bet in queue order (the first queue_length are used; the pigs lie face down)",
           "queue place 0-4"),
        _f("drawn", L.PUB_DRAWN, 1, "cards the mover drew this turn (a penalty included)"),
        _f("score", L.PUB_SCORE, L.MAX_PLAYERS, "a player's points in this game before this race", _SEAT),
        _f("race", L.PUB_RACE, 1, "the race of the game, 1 to races_per_game(view)"),
        _f("steps", L.PUB_STEPS, 1, "penalty steps back left to take (step decision)"),
        # the game's rules (ruleset.py; docs/sau-mau-mau.md, "Rules a designer can change")
        _f("deal_size", L.PUB_DEAL, 1, "cards dealt to each player at a race's start (rule hand_size; 5 in the box)"),
        _f("races_per_game", L.PUB_RACES, 1, "races in the game (rule races_per_game; 4 in the box)"),
        _f("plus_two_step", L.PUB_PLUS2_STEP, 1, "cards a +2 adds to the penalty (rule plus_two_step; 2 in the box)"),
        _f("steps_back_per_card", L.PUB_STEPS_BACK, 1,
           "steps back per card drawn as a +2 penalty (rule steps_back_per_card; 1 in the box)"),
        _f("flapi_move", L.PUB_FLAPI_MOVE, 1, "spaces a Flapi moves the last pig (rule flapi_move; 3 in the box)"),
        _f("crown_points", L.PUB_CROWN_POINTS, 1,
           "points for moving a pig onto the crown (rule crown_points; 3 in the box)"),
        _f("last_card_points", L.PUB_HAND_POINTS, 1,
           "points for playing the last card (rule last_card_points; 5 in the box)"),
        _f("x_skips", L.PUB_X_SKIPS, 1,
           "turns an X skips, the next players' in turn order (rule x_skips; 1 in the box)"),
        _f("bet_payouts", L.PUB_PAYOUTS, L.MAX_PLAYERS,
           "points of the winning bets in queue order (rule bet_payouts; 6, 4, 3, 2, 1 in the box; 0 past the "
           "rule's list)", "rank 0-4 among the winning bets"),
        _f("hand", L.S_VIEW + L.OWN_HAND, L.N_CARDS,
           "the card ids in this player's hand (the first hand_size are used)", "card 0-38"),
        _f("hand_size", L.S_VIEW + L.OWN_HAND_N, 1, "cards in this player's hand"),
        _f("bet_pig", L.S_VIEW + L.OWN_BET_PIG, 1, "the pig of this player's bet in the queue, -1 if none"),
        _f("bet_turn", L.S_VIEW + L.OWN_BET_TURN, 1, "the turn this player's bet card was laid"),
    ),
    decisions=(
        Decision(L.DECIDE_PLAY, "play", "at the start of every turn not skipped",
                 "the valid cards in hand (card ids)", INDEX_OR_PASS,
                 "an option index to play that card, or -1 to draw (the penalty, under a +2)"),
        Decision(L.DECIDE_COLOR, "color", "it played a Farmer", "none", VALUE,
                 "the colour 0-3 the next player must follow", lo=0, hi=L.N_PIGS - 1),
        Decision(L.DECIDE_FLAPI, "flapi", "it played a Flapi and several pigs are tied last",
                 "the tied last pigs", INDEX, "an option index: the pig that moves flapi_move(view) spaces"),
        Decision(L.DECIDE_STEP, "step", "for each card drawn as a +2 penalty (steps(view) left)",
                 "the pigs off the start space", INDEX_OR_PASS,
                 "an option index to move that pig one space back, or -1 to take no more steps"),
        Decision(L.DECIDE_BET, "bet", "after a turn in which it drew", "none", VALUE,
                 "a pig 0-3 to bet on (a change if it has a bet: to the back of the queue), or -1 to pass",
                 lo=-1, hi=L.N_PIGS - 1),
    ),
    options_at=L.S_OPTIONS,
    options_cap=L.N_CARDS,
    rng_at=L.S_VIEW + L.OWN_RNG,
    n_params=L.N_PARAMS,
    memory=0,  # (the slots after N_PARAMS are the search bot's, not a user bot's memory)
    memory_text="",
    hides=(
        "other players' hands (only how many cards: hand_count)",
        "the pigs of other players' bets (face down: only the seats in queue order)",
        "the order of the draw pile and the deck's random stream",
        "other players' random streams",
    ),
    functions=(card_kind, card_color, card_number, bet_value),
    constants=(
        *((f"DECIDE_{d}", getattr(L, f"DECIDE_{d}"), f"the {d.lower()} decision")
          for d in ("PLAY", "COLOR", "FLAPI", "STEP", "BET")),
        *((p.upper(), i, f"pig {p}") for i, p in enumerate(L.PIGS)),
        ("NUMBER", L.NUMBER, "card kind: a number card"),
        ("SKIP", L.SKIP, "card kind: X (the next player skips; x_skips(view) players in all)"),
        ("PLUS2", L.PLUS2, "card kind: +2"),
        ("FLAPI", L.FLAPI, "card kind: Flapi (the last pig moves flapi_move(view) spaces)"),
        ("FARMER", L.FARMER, "card kind: Farmer (names a colour)"),
    ),
    notes=("A game is races_per_game(view) races (four in the box); the view is the current race. The game's "
           "rules are in the view (deal_size .. bet_payouts). A bot keeps nothing between "
           "decisions: its parameter row is handed over as a copy each time."),
    example="sims/bots/sau-mau-mau-greedy.py",
)

View = userbots.VIEWS.setdefault(VIEW.game, userbots.view_class(VIEW))
globals().update(userbots.accessors(VIEW))
__all__ = userbots.exported(VIEW) + ["View", "describe", "VIEW"]


def describe(view) -> str:
    """The view in words (what ``print(view)`` shows)."""
    return userbots.describe(VIEW, view)
