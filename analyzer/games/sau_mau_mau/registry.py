"""The Sau Mau Mau bots a user can name: kinds, parameters, descriptions, user
bots (Python files, loaded by engine/userbots.py from the view in view.py) and
bot TOML files (a built-in family with its own defaults). The heuristic
families share one model (bots.py) and every parameter of it; each family is
its own set of defaults."""
from analyzer.engine.bots import BotFamily, BotRegistry, ParamRange, search_family
from analyzer.games.sau_mau_mau.layout import (
    BACKER, LOOKAHEAD, P_BET_RUSH, P_BLOCK, P_CROWDING, P_DROP, P_HAND_WEIGHT, P_KEEP_GREEN, P_KEEP_PLUS2,
    P_KEEP_SKIP, P_LAG, P_OUT_REACH, P_PLAYOUT, P_ROLLOUTS, P_SHARPNESS, P_STEER, P_SWITCH_MARGIN,
    P_THREAT_CARDS, P_WIN_POINTS, PARAMS_WIDTH, RANDOM, SWITCHER, TEMPO,
)
from analyzer.games.sau_mau_mau.view import VIEW

_PARAMS = {  # name: (slot, help)
    "sharpness": (P_SHARPNESS, "how strongly the pig ahead is expected to win, per space of lead"),
    "hand_weight": (P_HAND_WEIGHT,
                    "win-chance weight of each space its own number cards can still move a pig"),
    "crowding": (P_CROWDING, "chance that a bet ahead of its own in the queue is on the same pig"),
    "out_reach": (P_OUT_REACH, "cards in hand from which it no longer counts on going out (last_card_points, "
                  "5 in the box); each card less brings a share 1 / out_reach of them nearer"),
    "steer": (P_STEER, "weight of the colour a card leaves the next player to follow (and so move)"),
    "bet_rush": (P_BET_RUSH, "points it gives for laying its first bet now: it draws for it"),
    "switch_margin": (P_SWITCH_MARGIN,
                      "expected points a bet change must gain (it goes to the back of the queue)"),
    "lag": (P_LAG, "spaces its pig must trail the new pig before it changes its bet"),
    "keep_green": (P_KEEP_GREEN, "points a Flapi or Farmer is worth kept in hand (a sure last card)"),
    "keep_plus2": (P_KEEP_PLUS2, "points a +2 is worth kept in hand (an answer to a +2)"),
    "keep_skip": (P_KEEP_SKIP, "points an X is worth kept in hand"),
    "block": (P_BLOCK, "points of stopping the next player with an X or +2 when it may go out"),
    "threat_cards": (P_THREAT_CARDS, "the next player may go out with this many cards or fewer"),
}

# What each parameter takes: points and weights of any sign, far beyond any
# sensible value; a chance is 0-1; counts of cards and spaces are not negative.
_POINTS = ParamRange(-1000.0, 1000.0)
RANGES = {
    "sharpness": ParamRange(0.0, 10.0),
    "hand_weight": _POINTS,
    "crowding": ParamRange(0.0, 1.0),
    "out_reach": ParamRange(0.0, 1000.0),
    "steer": _POINTS,
    "bet_rush": _POINTS,
    "switch_margin": _POINTS,
    "lag": ParamRange(-1000.0, 1000.0),
    "keep_green": _POINTS,
    "keep_plus2": _POINTS,
    "keep_skip": _POINTS,
    "block": _POINTS,
    "threat_cards": ParamRange(0.0, 1000.0),
}

# what the families share (tuned against the random bot and each other: drawing
# at once for a first bet pays most); each overrides what makes it what it is
_COMMON = dict(sharpness=0.5, hand_weight=0.0, crowding=0.25, out_reach=3.0, steer=0.6,
               bet_rush=5.0, switch_margin=0.5, lag=1.0, keep_green=0.0, keep_plus2=0.0,
               keep_skip=0.0, block=0.0, threat_cards=1.0)


def _heuristic(name: str, kind: int, description: str, **defaults: float) -> BotFamily:
    values = {**_COMMON, **defaults}
    return BotFamily(name, kind, description,
                     {key: (slot, values[key], text) for key, (slot, text) in _PARAMS.items()},
                     ranges=dict(RANGES),
                     integer=frozenset({"threat_cards", "lag"}))  # compared with counts of cards and spaces


_FAMILIES = {
    "random": BotFamily(
        "random", RANDOM,
        "the reference random bot of the rules page: plays a valid card 3 times in 4, "
        "bets half the times it may, changes its bet one time in 10"),
    "backer": _heuristic(
        "backer", BACKER,
        "backs the pig its hand can push: draws at once to bet it, plays its colour, "
        "names it with the Farmer, steps rivals back; changes only when its pig is "
        "left far behind",
        hand_weight=0.2, switch_margin=1.5, lag=3.0),
    "tempo": _heuristic(
        "tempo", TEMPO,
        "plays to go out for the last card's points: keeps +2, X and green cards for its last "
        "cards, answers a +2 with a +2, stops a player about to go out with them",
        out_reach=6.0, keep_green=1.0, keep_plus2=0.8, keep_skip=0.5, block=2.0),
    "switcher": _heuristic(
        "switcher", SWITCHER,
        "watches the race: bets at once on the pig ahead, and changes to a pig pulling "
        "ahead as soon as that gains more than the lost place in the queue (bet_payouts: 6-4-3-2-1 in the box) "
        "costs",
        switch_margin=0.2, lag=0.0),
}

_BACKER_MODEL = dict(hand_weight=0.2, switch_margin=1.5, lag=3.0)
_SEARCH_PARAMS = {  # name: (slot, default, help, range)
    "rollouts": (P_ROLLOUTS, 24.0, "playouts per option of a play or bet decision (the budget)",
                 ParamRange(1.0, 100_000.0, integer=True)),
    "playout": (P_PLAYOUT, 1.0, "who plays every seat in the playouts: 0 the random bot, 1 the heuristic "
                "model with this bot's model parameters (backer's unless set)", ParamRange(0.0, 1.0, integer=True)),
    "drop": (P_DROP, 2.0, "an option this many standard errors below the best (paired) gets no more "
             "playouts (0: never)", ParamRange(0.0, 100.0)),
    "win_points": (P_WIN_POINTS, 10.0, "in the game's last race, what winning the game is worth, in points of "
                   "margin",
                   ParamRange(0.0, 1000.0)),
}


_FAMILIES["lookahead"] = search_family(
    _heuristic("lookahead", LOOKAHEAD, "", **_BACKER_MODEL),
    "searches: weighs each card it may play (or drawing) and each bet by playouts of the rest of the "
    "race from worlds consistent with what it sees, every seat played by its playout policy "
    "(engine/search.py); its model parameters (backer's) are its playout heuristic's",
    _SEARCH_PARAMS, frozenset({"rollouts", "playout"}))

# user bots: what they see is declared in view.py; engine/userbots.py loads them
REGISTRY = BotRegistry(_FAMILIES, PARAMS_WIDTH, view=VIEW)
BUILTIN = REGISTRY.builtin
resolve = REGISTRY.resolve
read_bot_toml = REGISTRY.read_bot_toml
load_bot_toml = REGISTRY.load_bot_toml
