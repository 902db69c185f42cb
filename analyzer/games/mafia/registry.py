"""The Mafia bots a user can name, the roles each can play (``state``,
``family``: ``BotFamily.roles``, which a bot TOML file inherits from the family
it names), user bots (Python files, loaded by engine/userbots.py from the view in
view.py; ``UserBot.roles`` says which roles a file plays) and bot TOML files (a
built-in family with its own defaults). The engine's match refuses a bot in a
seat whose role it cannot play, in one line."""
import numpy as np

from analyzer.engine.bots import BotFamily, BotRegistry, ParamRange, search_family
from analyzer.errors import BotError
from analyzer.games.mafia import layout as L
from analyzer.games.mafia.layout import (
    EXPANDER, FIRST_HEURISTIC, HUNTER, LAST_HEURISTIC, LOOKAHEAD, MODEL_WIDTH, PARAMS_WIDTH, RAIDER, RANDOM,
    ROLE_FAMILY, ROLE_STATE, WARDEN,
)
from analyzer.games.mafia.view import VIEW

ROLES: dict[int, tuple[str, ...]] = {  # bot kind -> roles it can play
    RANDOM: (ROLE_STATE, ROLE_FAMILY),
    HUNTER: (ROLE_STATE,),
    WARDEN: (ROLE_STATE,),
    EXPANDER: (ROLE_FAMILY,),
    RAIDER: (ROLE_FAMILY,),
    LOOKAHEAD: (ROLE_STATE, ROLE_FAMILY),
}

_FAMILY_PARAMS = {  # name: (slot, help)
    "gain": (L.P_GAIN, "value of a marker on a space no family controls"),
    "take": (L.P_TAKE, "value of taking a marker off another family's space"),
    "leader": (L.P_LEADER, "extra value when that family is the one controlling most spaces"),
    "risk": (L.P_RISK, "weight of what the piece may lose there (traps, Prefect, CCs, shootouts)"),
    "shoot": (L.P_SHOOT, "readiness to start a shootout (1 or more: it shoots; +0.5 against the leader, "
                         "+0.5 holding Special weapons)"),
    "enna": (L.P_ENNA, "1: Enna (the central city) as base, 0: the ring city open to its colour"),
    "stack": (L.P_STACK, "value of one more marker on a space it controls"),
    "phone": (L.P_PHONE, "value of a Boss's telephone (a USA card)"),
}
_STATE_PARAMS = {
    "arrest": (L.P_ARREST, "value of arresting a Picciotto (1/2 purge point in the box)"),
    "hold": (L.P_HOLD, "value of holding a Boss outside its city (1 purge point in the box)"),
    "marker": (L.P_MARKER, "value of taking a marker off"),
    "leader": (L.P_S_LEADER, "extra value when the marker is the leading family's"),
    "risk": (L.P_S_RISK, "weight of what the piece may lose there (ambush, bomb, restaurant, commission)"),
    "clue": (L.P_CLUE, "value per mafioso where the SISDE ends (one SISDE card each)"),
    "guard": (L.P_GUARD, "value of a CC standing on a space the leading family holds"),
    "phone": (L.P_S_PHONE, "value of the Prefect's telephone (a ROME card)"),
}


def _family(name, kind, description, params=None):
    return BotFamily(name, kind, description, params or {}, roles=ROLES[kind])


def _bot(name, kind, description, table, **defaults):
    return _family(name, kind, description,
                   {key: (slot, float(defaults[key]), text) for key, (slot, text) in table.items()})


_FAMILIES = {
    "random": _family(
        "random", RANDOM,
        "the reference random bot of the rules page (every role): every choice uniform among the legal "
        "ones, each optional action with probability 1/2, each held card whose window opens with "
        "probability 1/4"),
    "hunter": _bot(
        "hunter", HUNTER,
        "State: goes after Picciotti and Bosses outside their cities, sends the SISDE where the mafiosi "
        "are, plays its cards when they bite (never Heliborne)", _STATE_PARAMS,
        arrest=1.0, hold=3.0, marker=0.5, leader=0.5, risk=1.0, clue=0.4, guard=0.0, phone=0.3),
    "warden": _bot(
        "warden", WARDEN,
        "State: takes markers off the spaces of the family closest to winning and keeps its CCs there",
        _STATE_PARAMS,
        arrest=0.5, hold=1.5, marker=2.0, leader=2.0, risk=1.0, clue=0.2, guard=0.5, phone=0.3),
    "expander": _bot(
        "expander", EXPANDER,
        "family: spreads Boss and Picciotti over free spaces, away from the Prefect, the CCs, roadblocks "
        "and ambushes; never starts a shootout unless it is against the leader with Special weapons",
        _FAMILY_PARAMS,
        gain=2.0, take=1.0, leader=0.5, risk=1.0, shoot=0.0, enna=1.0, stack=0.3, phone=0.5),
    "raider": _bot(
        "raider", RAIDER,
        "family: takes the leading family's spaces, shoots its pieces (and anyone's with Special weapons), "
        "plays its cards as soon as they help", _FAMILY_PARAMS,
        gain=1.0, take=2.0, leader=2.0, risk=0.7, shoot=0.5, enna=0.0, stack=0.2, phone=0.5),
}

# the strongest heuristic of each role at five players, in the heuristic table
# (docs/mafia.md, "Search bot"): the search bot's model unless it names one, and
# how its playouts play a side whose bot is neither a heuristic nor the random bot
# (a user's bot; ``playout_bot``)
STRONGEST = {ROLE_STATE: "hunter", ROLE_FAMILY: "expander"}
_BY_KIND = {f.kind: f for f in _FAMILIES.values()}
_SEARCH_PARAMS = {  # name: (slot, default, help, range)
    "policy": (L.P_POLICY, 0.0, "its model, the heuristic that takes its other decisions, rates the moves it "
               "searches and plays it in the playouts, with that bot's defaults: 1 hunter, 2 warden (State), "
               "3 expander, 4 raider (family); 0 the strongest of the seat's role (hunter, expander)",
               ParamRange(0.0, float(LAST_HEURISTIC), integer=True)),
    "rollouts": (L.P_ROLLOUTS, 24.0, "playouts per candidate move (the budget)",
                 ParamRange(1.0, 100_000.0, integer=True)),
    "width": (L.P_WIDTH, 0.0, "candidate moves searched, its model's best ones by its own rating: 0 grows with "
              "the budget (4 at 24 playouts, 9 at 120: 4 x the square root of rollouts/24), 1-16 fixed",
              ParamRange(0.0, 16.0, integer=True)),
    "horizon": (L.P_HORIZON, 0.0, "side turns a playout plays after the move's own turn before it scores "
                "the position: 0 three, four with four players (a whole pass of the calendar, back to its own "
                "turn, where its win is checked)", ParamRange(0.0, 10_000.0, integer=True)),
    "playout": (L.P_PLAYOUT, 1.0, "who plays every side in the playouts: 0 the random bot, 1 each side's own "
                "bot if a heuristic or the random bot, else the strongest heuristic of its role (this bot: "
                "its model)",
                ParamRange(0.0, 1.0, integer=True)),
    "drop": (L.P_DROP, 2.0, "a candidate this many standard errors below the best (paired) gets no more "
             "playouts (0: never)", ParamRange(0.0, 100.0)),
    "win_points": (L.P_WIN_POINTS, 2.0, "what a win in a playout is worth (another side's, or everyone "
                   "losing, costs as much), in goals reached (the standing: 1 is a side's whole way to its win)",
                   ParamRange(0.0, 1000.0)),
    "base": (L.P_BASE, 2.0, "a family's base city (not searched; the ring city wins more, docs/mafia.md): 0 its "
             "model's, 1 Enna, 2 the ring city open to its colour (the State: none)",
             ParamRange(0.0, 2.0, integer=True)),
}
_FAMILIES["lookahead"] = search_family(
    _family("lookahead", LOOKAHEAD, ""),
    "searches (either role): weighs its model's best moves after the roll by playouts of a few side "
    "turns, from worlds consistent with what its seat sees, scored by the standing against the best "
    "rival (engine/search.py); its other decisions and its playouts are its model's (policy)",
    _SEARCH_PARAMS, frozenset({"policy", "rollouts", "width", "horizon", "playout", "base"}))


def model_kind(policy: int, role: str, name: str = "lookahead") -> int:
    """The heuristic a search bot's ``policy`` names for a seat of ``role`` (0: the
    strongest of the role); one line if it cannot play that role."""
    if policy == 0:
        return _FAMILIES[STRONGEST[role]].kind
    family = _BY_KIND[policy]
    if role not in family.roles:
        raise BotError(f"bot {name!r}: policy {policy} is {family.name}, which cannot play the {role} role")
    return policy


def model_params(kind: int) -> np.ndarray:
    """The defaults of heuristic ``kind``, a row of MODEL_WIDTH."""
    row = np.zeros(MODEL_WIDTH)
    for slot, default, _ in _BY_KIND[kind].params.values():
        row[slot] = default
    return row


def playout_bot(family: BotFamily, row: np.ndarray, role: str) -> tuple[int, np.ndarray]:
    """How a search bot's playouts play a seat (kind, parameters): its own bot if a
    heuristic or the random bot (its search then plays against the bots it meets:
    a random seat played as the strongest heuristic misled a wider search,
    docs/mafia.md), a search bot's model, else (a user's bot) the strongest
    heuristic of its role."""
    if FIRST_HEURISTIC <= family.kind <= LAST_HEURISTIC:
        return family.kind, np.asarray(row[:MODEL_WIDTH], np.float64)
    if family.kind == RANDOM:
        return RANDOM, np.zeros(MODEL_WIDTH)
    kind = (model_kind(int(row[L.P_POLICY]), role, family.name) if family.kind == LOOKAHEAD
            else _FAMILIES[STRONGEST[role]].kind)
    return kind, model_params(kind)


# parameters are stored as int64 millionths (layout.PARAM_UNIT): a larger one would wrap round
REGISTRY = BotRegistry(_FAMILIES, PARAMS_WIDTH, view=VIEW, store=ParamRange(-L.PARAM_MAX, L.PARAM_MAX))
BUILTIN = REGISTRY.builtin
resolve = REGISTRY.resolve
