"""What a Lemming Mafia user bot sees: the view spec, and from it the accessors
a bot file imports (``from analyzer.games.lemming_mafia.view import *``).

The spec names the slots of ``layout.py`` a deciding player may read (the
public race, its own row, the options); ``analyzer/engine/userbots.py`` makes
the accessors, the view's printout and ``docs/bots-lemming-mafia.md`` from it.
The board and deck are read through the functions below (their offsets are in
the game header)."""
from numba.extending import register_jitable

from analyzer.engine import userbots
from analyzer.engine.userbots import INDEX, VALUE, Decision, Field, ViewSpec
from analyzer.games.lemming_mafia import layout as L
from analyzer.games.lemming_mafia import rules as _rules

_COLOR = "colour 0-5 (" + ", ".join(L.COLORS) + ")"
_SEAT = "seat 0-5 (0-based; seats past the player count read 0)"


@register_jitable
def action(view, field):
    """the action of a board field: 0 empty, 1 concrete, 2 jackhammer, 3 getaway,
    4 bookmaker, 5 boss (fields are numbered 0 .. n_fields(view) - 1)"""
    if field < 0 or field >= view.state[L.PUB_N_FIELDS]:
        raise IndexError("action(view, field): field outside the board")
    return _rules.field_action(view.game, field)


@register_jitable
def section_of(view, field):
    """the section (0-based) a board field belongs to"""
    if field < 0 or field >= view.state[L.PUB_N_FIELDS]:
        raise IndexError("section_of(view, field): field outside the board")
    return _rules.field_section(view.game, field)


@register_jitable
def first_field(view, section):
    """the first field of a section; first_field(view, s + 1) ends section s
    (section n_sections(view) is allowed: it gives n_fields(view))"""
    if section < 0 or section > view.state[L.PUB_N_SECTIONS]:
        raise IndexError("first_field(view, section): section outside the board")
    return _rules.section_first(view.game, section)


@register_jitable
def occupant(view, field):
    """the lemming (colour) standing on a field, -1 if none"""
    if field < 0 or field >= view.state[L.PUB_N_FIELDS]:
        raise IndexError("occupant(view, field): field outside the board")
    return int(view.state[L.S_OCCUPANT + field])


@register_jitable
def contract_kind(view, slot):
    """the kind of the player's contract in a slot 0 .. contracts_dealt(view) - 1: 0 eliminated,
    1 before, 2 top3, 3 at most one eliminated, 4 at least three eliminated, 5 winner clean"""
    if slot < 0 or slot >= view.game[L.G_CONTRACTS_DEALT]:
        raise IndexError("contract_kind(view, slot): slot outside 0 .. contracts_dealt(view) - 1")
    return _rules.card_entry(view.game, view.state[L.S_VIEW + L.OWN_CONTRACT + slot], L.DECK_KIND)


@register_jitable
def contract_color(view, slot, k):
    """the k-th colour (k 0-1) named on the contract in a slot (-1: none)"""
    if slot < 0 or slot >= view.game[L.G_CONTRACTS_DEALT] or k < 0 or k > 1:
        raise IndexError("contract_color(view, slot, k): slot outside 0 .. contracts_dealt(view) - 1 "
                         "or k outside 0-1")
    return _rules.card_entry(view.game, view.state[L.S_VIEW + L.OWN_CONTRACT + slot], L.DECK_C1 + k)


@register_jitable
def contract_points(view, slot):
    """the points printed on the contract in a slot (paid if fulfilled; unfulfilled_contract(view)
    if not: -2 in the box)"""
    if slot < 0 or slot >= view.game[L.G_CONTRACTS_DEALT]:
        raise IndexError("contract_points(view, slot): slot outside 0 .. contracts_dealt(view) - 1")
    return _rules.card_entry(view.game, view.state[L.S_VIEW + L.OWN_CONTRACT + slot], L.DECK_POINTS)


def _f(name, at, length, meaning, index=""):
    return Field(name, "state", at, length, meaning, index)


def _rules_of_the_run() -> tuple[Field, ...]:
    """The rules a run plays (``ruleset.py``), read from the game header (``layout.RULE_SLOTS``)."""
    from analyzer.games.lemming_mafia.ruleset import RULES

    fields = []
    for key in RULES.keys:
        many = isinstance(key.box, tuple)
        fields.append(Field(key.name, "game", L.RULE_SLOTS[key.name], L.N_LEMMINGS if many else 1,
                            f"the rule {key.name}: {key.meaning} (box {key.default_text()})",
                            "stack position 0-5, first placed first" if many else ""))
    return tuple(fields)


_SLOT = f"slot 0 .. contracts_dealt - 1 (the slots after it, up to {L.MAX_CONTRACTS_EACH - 1}, are never held)"


VIEW = ViewSpec(
    game="lemming-mafia",
    title="Lemming Mafia",
    fields=(
        _f("position", L.PUB_POS, L.N_LEMMINGS,
           "where a lemming stands: a field 0 .. n_fields-1, -1 in the start area, -2 eliminated, "
           "n_fields in the water", _COLOR),
        _f("blocks", L.PUB_BLOCKS, L.N_LEMMINGS, "concrete blocks a lemming carries", _COLOR),
        _f("out", L.PUB_OUT, L.N_LEMMINGS, "0 while a lemming races, k for the k-th eliminated", _COLOR),
        _f("turn", L.PUB_TURN, 1, "moves started so far (1 during the first)"),
        _f("n_eliminated", L.PUB_N_ELIM, 1, "lemmings eliminated so far"),
        _f("n_players", L.PUB_N_PLAYERS, 1, "players at the table"),
        _f("mover", L.PUB_MOVER, 1, "seat whose move it is"),
        _f("moving", L.PUB_MOVING, 1, "the lemming being moved (field decision), else -1"),
        _f("round_card", L.PUB_ROUND_CARD, 1, "in a bet or discard decision, the card of the round asked for: "
           "0 the first, k the (k+1)-th where bets_per_bookmaker / discards_per_boss allow more"),
        _f("hand_count", L.PUB_HAND_COUNT, L.MAX_PLAYERS, "bet cards a player still holds", _SEAT),
        _f("stack_count", L.PUB_STACK_COUNT, L.MAX_PLAYERS, "bet cards a player has on its stack", _SEAT),
        _f("held_count", L.PUB_HELD_COUNT, L.MAX_PLAYERS, "contracts a player still holds", _SEAT),
        _f("n_fields", L.PUB_N_FIELDS, 1, "fields on the board"),
        _f("n_sections", L.PUB_N_SECTIONS, 1, "sections on the board"),
        _f("hand", L.S_VIEW + L.OWN_HAND, L.N_LEMMINGS, "1 if this player holds the bet card of a colour",
           _COLOR),
        _f("stack", L.S_VIEW + L.OWN_STACK, L.N_LEMMINGS,
           "this player's bet stack, colours in placing order (the first stack_size are used)",
           "card 0-5, first placed first"),
        _f("stack_size", L.S_VIEW + L.OWN_STACK_N, 1, "bet cards on this player's stack"),
        _f("contract", L.S_VIEW + L.OWN_CONTRACT, L.MAX_CONTRACTS_EACH,
           "deck index of this player's contract in a slot (read it with contract_kind, contract_color, "
           "contract_points)", _SLOT),
        _f("held", L.S_VIEW + L.OWN_HELD, L.MAX_CONTRACTS_EACH, "1 while the contract in a slot is held, "
           "0 once discarded", _SLOT),
        *_rules_of_the_run(),
    ),
    decisions=(
        Decision(L.DECIDE_MOVE, "move", "the die shows more than one lemming that can move",
                 "the candidate lemmings (colours)", INDEX, "an option index"),
        Decision(L.DECIDE_FIELD, "field",
                 "the moving lemming (moving(view)) has more than one free field in its target section",
                 "the free fields", INDEX, "an option index"),
        Decision(L.DECIDE_BET, "bet", "a lemming landed on a bookmaker: every player, hidden and at once",
                 "none", VALUE, "a colour it holds (hand(view, c) == 1) to put on its stack, or -1 to pass",
                 lo=-1, hi=L.N_LEMMINGS - 1),
        Decision(L.DECIDE_DISCARD, "discard", "a lemming landed on a boss: every player, hidden and at once",
                 "none", VALUE, "a contract slot it holds (held(view, s) == 1) to throw away, or -1 to keep all",
                 lo=-1, hi=L.MAX_CONTRACTS_EACH - 1),
    ),
    options_at=L.S_OPTIONS,
    options_cap=L.OPTIONS_CAP,
    rng_at=L.S_VIEW + L.OWN_RNG,
    n_params=L.N_PARAMS,
    memory=L.PARAMS_WIDTH - L.N_PARAMS,
    memory_text="cleared at the start of every race, seen by no other bot",
    hides=(
        "other players' bet cards in hand and on their stacks (only how many: hand_count, stack_count)",
        "other players' contracts (only how many they still hold: held_count)",
        "the order of the contract deck, and the dice and getaway rolls to come (the race's own "
        "random stream is not in the view)",
        "other players' random streams and their bots' memory",
    ),
    functions=(action, section_of, first_field, occupant, contract_kind, contract_color, contract_points),
    notes=("A bet or discard decision is asked of every player at once, before any answer is "
           "applied: the view shows the table as it was when the lemming landed. Where the rules let "
           "a player put down (throw away) more than one card at a bookmaker (boss): "
           "bets_per_bookmaker(view), discards_per_boss(view) above 1, a player whose answer was a "
           "card and who still holds one is asked again (all such players at once, the cards of the "
           "answers before applied; round_card(view) counts them), up to that many cards; -1 ends its "
           "part of the round. "
           "The rules of the run (the fields starting with contracts_dealt) are read from the game."),
    constants=(
        *((f"DECIDE_{d}", getattr(L, f"DECIDE_{d}"), f"the {d.lower()} decision")
          for d in ("MOVE", "FIELD", "BET", "DISCARD")),
        *((a.upper(), i, f"field action {a}") for i, a in enumerate(L.ACTIONS)),
        *((c.upper(), i, f"lemming colour {c}") for i, c in enumerate(L.COLORS)),
        *((k.upper(), i, f"contract kind {k}") for i, k in enumerate(L.CONTRACT_KINDS)),
        ("START", L.START, "position of a lemming in the start area"),
        ("ELIMINATED_POS", L.ELIMINATED_POS, "position of an eliminated lemming"),
    ),
    example="sims/bots/lemming-mafia-underdog.py",
)

View = userbots.VIEWS.setdefault(VIEW.game, userbots.view_class(VIEW))
globals().update(userbots.accessors(VIEW))
__all__ = userbots.exported(VIEW) + ["View", "describe", "VIEW"]


def describe(view) -> str:
    """The view in words (what ``print(view)`` shows)."""
    return userbots.describe(VIEW, view)
