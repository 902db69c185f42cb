"""The Mafia bots a user can name, the roles each can play (``state``,
``family``), and bot TOML files (a built-in family with its own defaults).

Roles: until ``BotFamily`` carries a ``roles`` field of its own (the engine's
bot library), the roles of each built-in family are kept here by bot kind
(``ROLES``, which a bot TOML file inherits from the family it names);
``roles_of`` reads the engine's field first when it exists. The match refuses a
bot in a seat whose role it cannot play (``check_roles``), in one line."""
from analyzer.engine.bots import BotFamily, BotRegistry
from analyzer.errors import BotError
from analyzer.games.mafia.layout import PARAMS_WIDTH, RANDOM, ROLE_FAMILY, ROLE_STATE

ROLES: dict[int, tuple[str, ...]] = {  # bot kind -> roles it can play
    RANDOM: (ROLE_STATE, ROLE_FAMILY),
}

_FAMILIES = {
    "random": BotFamily(
        "random", RANDOM,
        "the reference random bot of the rules page (every role): every choice uniform among the legal "
        "ones, each optional action with probability 1/2, each held card whose window opens with "
        "probability 1/4"),
}

REGISTRY = BotRegistry(_FAMILIES, PARAMS_WIDTH)
BUILTIN = REGISTRY.builtin
resolve = REGISTRY.resolve


def roles_of(family: BotFamily) -> tuple[str, ...]:
    own = getattr(family, "roles", None)
    if own:
        return tuple(own)
    return ROLES.get(family.kind, ())


def check_roles(families: list[BotFamily], labels: list[str], roles: list[str]) -> None:
    for seat, (family, label, role) in enumerate(zip(families, labels, roles)):
        can = roles_of(family)
        if role not in can:
            raise BotError(f"bot {label!r} cannot play seat {seat + 1} (role {role}); it plays: "
                           f"{', '.join(can) or 'no role'}")
