"""The Lemminge bots a user can name: kinds, parameters, descriptions, user
bots (Python files, loaded by engine/userbots.py from the view in view.py) and bot
TOML files (a built-in family with its own defaults). The heuristic families
share one model (bots.py) and every parameter of it; each family is its own
set of defaults."""
from analyzer.engine.bots import BotFamily, BotRegistry, ParamRange, search_family
from analyzer.games.lemminge.layout import (
    BLOCKER, CONVOY, LOOKAHEAD, P_BLOCK, P_DROP, P_HAND_RESERVE, P_HORIZON, P_KEEP, P_LEAD, P_OWN_PUSH,
    P_PLAYOUT, P_PUSH, P_REFILL_BELOW, P_ROLLOUTS, P_TILE_GAIN, P_WIN_POINTS, PARAMS_WIDTH, RACER, RANDOM,
)
from analyzer.games.lemminge.view import VIEW

_PARAMS = {  # name: (slot, help)
    "lead": (P_LEAD, "weight of moving its leading lemming (+) or its trailing one (-): a move's "
                     "hexes count 1 + lead for the leader, 1 - lead for the other"),
    "refill_below": (P_REFILL_BELOW, "refills when no card gains this many hexes"),
    "keep": (P_KEEP, "refilling, keeps the cards that would move at least this far now; discards the rest"),
    "push": (P_PUSH, "cost per hex a push brings a rival's lemming nearer the finish (no push may set "
                     "a lemming back: the rules forbid it)"),
    "own_push": (P_OWN_PUSH, "value per hex a push brings its own other lemming nearer the finish"),
    "block": (P_BLOCK, "value of a terrain tile on the meadow just ahead of the rival lemming nearest home"),
    "tile_gain": (P_TILE_GAIN, "value per hex of reach a bonus tile gives its own lemming"),
    "hand_reserve": (P_HAND_RESERVE, "with this many cards or fewer it refills rather than gain 1 hex or less"),
}

_COMMON = dict(lead=0.0, refill_below=2.0, keep=3.0, push=0.3, own_push=1.0, block=0.0, tile_gain=1.0,
               hand_reserve=1.0)


def _heuristic(name: str, kind: int, description: str, **defaults: float) -> BotFamily:
    values = {**_COMMON, **defaults}
    return BotFamily(name, kind, description,
                     {key: (slot, values[key], text) for key, (slot, text) in _PARAMS.items()})


_FAMILIES = {
    "random": BotFamily(
        "random", RANDOM,
        "the reference random bot of the rules page: refills 1 time in 5 (and when no card allows a "
        "step, discarding each card with probability 1/2), else plays a random card that allows a "
        "step, puts a tile on a random hex and walks a random lemming by random closer steps"),
    "racer": _heuristic(
        "racer", RACER,
        "rushes its leading lemming home on the biggest moves, refills for big cards, "
        "keeps only cards that move far",
        lead=0.8, refill_below=3.0, keep=4.0),
    "convoy": _heuristic(
        "convoy", CONVOY,
        "keeps both lemmings moving (the one behind first) and refills when its hand runs low",
        lead=-0.5, refill_below=2.0, keep=3.0, hand_reserve=2.0),
    "blocker": _heuristic(
        "blocker", BLOCKER,
        "blocks by its bonus tiles, laid across the meadow in front of the rival lemming nearest "
        "home, and avoids pushing rivals on (the rules allow no push that sets a lemming back; "
        "sideways pushes are neutral)",
        lead=0.3, push=1.5, block=2.0, tile_gain=0.5),
}

# convoy's (the best heuristic in the default table, docs/lemminge.md)
_MODEL = dict(lead=-0.5, refill_below=2.0, keep=3.0, hand_reserve=2.0)
_SEARCH_PARAMS = {  # name: (slot, default, help, range)
    "rollouts": (P_ROLLOUTS, 8.0, "playouts per option (a card with a lemming, or refilling) of the turn's "
                 "first decision (the budget)",
                 ParamRange(1.0, 100_000.0, integer=True)),
    "playout": (P_PLAYOUT, 0.0, "who plays every seat in the playouts after its own turn: 0 the random bot, "
                "1 the heuristic model with this bot's model parameters (convoy's unless set)",
                ParamRange(0.0, 1.0, integer=True)),
    "horizon": (P_HORIZON, 8.0, "turns a playout plays after the option's own turn before it scores the "
                "position", ParamRange(0.0, 1000.0, integer=True)),
    "drop": (P_DROP, 2.0, "an option this many standard errors below the best (paired) gets no more "
             "playouts (0: never)", ParamRange(0.0, 100.0)),
    "win_points": (P_WIN_POINTS, 30.0, "what a win in a playout is worth (a rival's costs as much), in hexes "
                   "of finish distance", ParamRange(0.0, 1000.0)),
}


_FAMILIES["lookahead"] = search_family(
    _heuristic("lookahead", LOOKAHEAD, "", **_MODEL),
    "searches: weighs each card it may play with the lemming it will move (or refilling) by playouts "
    "cut short after a few turns, from worlds consistent with what it sees, and scores the position by "
    "finish distances against the best rival (engine/search.py); the rest of its turn and its playout "
    "heuristic are its model (convoy's parameters unless set)",
    _SEARCH_PARAMS, frozenset({"rollouts", "playout", "horizon"}))

# user bots: what they see is declared in view.py; engine/userbots.py loads them
REGISTRY = BotRegistry(_FAMILIES, PARAMS_WIDTH, view=VIEW)
BUILTIN = REGISTRY.builtin
resolve = REGISTRY.resolve
