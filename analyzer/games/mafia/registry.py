"""The Mafia bots a user can name, the roles each can play (``state``,
``family``: ``BotFamily.roles``, which a bot TOML file inherits from the family
it names), user bots (Python files, loaded by engine/userbots.py from the view in
view.py; ``UserBot.roles`` says which roles a file plays) and bot TOML files (a
built-in family with its own defaults). The engine's match refuses a bot in a
seat whose role it cannot play, in one line."""
from analyzer.engine.bots import BotFamily, BotRegistry, ParamRange
from analyzer.games.mafia import layout as L
from analyzer.games.mafia.layout import (
    EXPANDER, HUNTER, PARAMS_WIDTH, RAIDER, RANDOM, ROLE_FAMILY, ROLE_STATE, WARDEN,
)
from analyzer.games.mafia.view import VIEW

ROLES: dict[int, tuple[str, ...]] = {  # bot kind -> roles it can play
    RANDOM: (ROLE_STATE, ROLE_FAMILY),
    HUNTER: (ROLE_STATE,),
    WARDEN: (ROLE_STATE,),
    EXPANDER: (ROLE_FAMILY,),
    RAIDER: (ROLE_FAMILY,),
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
    "arrest": (L.P_ARREST, "value of arresting a Picciotto (1/2 purge point)"),
    "hold": (L.P_HOLD, "value of holding a Boss outside its city (1 purge point)"),
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

# parameters are stored as int64 millionths (layout.PARAM_UNIT): a larger one would wrap round
REGISTRY = BotRegistry(_FAMILIES, PARAMS_WIDTH, view=VIEW, store=ParamRange(-L.PARAM_MAX, L.PARAM_MAX))
BUILTIN = REGISTRY.builtin
resolve = REGISTRY.resolve
