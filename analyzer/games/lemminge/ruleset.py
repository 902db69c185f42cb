"""Lemminge's rule numbers a designer may change (``--rule``, ``--rules FILE``,
``[rules]``): each with its box value, range and meaning. The match packs them
into the kernel's ``game`` array (``kernel.pack_game``: the ``G_*`` rule slots
of ``layout.py``), so a variant plays at full speed with no kernel compiled
again; docs/lemminge.md's table of rules is generated from this declaration
(``python -m analyzer.docs``).

``deal`` is the one place the cards each seat is dealt come from: the
``start_hands`` entry of the player count, checked against ``hand_limit`` and
the map's draw pile (ranges that depend on another key and on the map, so the
match checks them, in one line naming the key, the value and what is allowed).
"""
from __future__ import annotations

from analyzer.engine.ruleset import RuleKey, RuleSet, Rules
from analyzer.errors import AnalyzerError
from analyzer.games.lemminge.layout import MAX_HAND, MAX_PLAYERS, MIN_PLAYERS

MAX_PUSH_COST = 10

RULES = RuleSet("lemminge", "Lemminge", (MIN_PLAYERS, MAX_PLAYERS), (
    RuleKey("hand_limit", 6, lo=1, hi=MAX_HAND, unit="cards",
            meaning="cards a refill draws the hand up to (the rulebook: « compléter sa main à 6 cartes »)"),
    RuleKey("start_hands", {2: (5, 6), 3: (4, 5, 6), 4: (3, 4, 5, 6), 5: (2, 3, 4, 5, 6)},
            per_players=True, seat_list=True, lo=0, hi=MAX_HAND, unit="cards",
            range_text=(f"a table by player count, each entry a list of one whole number per seat, each 0 to "
                        f"hand_limit (at most {MAX_HAND}), together at most the map's draw pile (50 cards on the "
                        "assumed map)"),
            meaning="cards each seat is dealt, first player first, by player count. An entry left at the box's "
                    "follows a changed hand_limit as the box's deal does: the last seat a full hand, each seat "
                    "before it one card fewer (never fewer than 0)"),
    RuleKey("push_cost", 1, lo=0, hi=MAX_PUSH_COST, unit="movement per lemming pushed",
            meaning="movement a push costs per lemming of the pushed line, on top of the mover's own step (1)"),
    RuleKey("backward_push", False,
            meaning="true: a push may set a lemming farther from the finish than the hex it leaves (the box "
                    "forbids it: « Il n'est pas permis de pousser un lemming vers l'arrière »)"),
    RuleKey("double_zero", True,
            meaning="when the discards become the draw pile, a column showing all of its terrain's 0 cards "
                    "gives up all its cards but one 0 (false: no column is ever cut)"),
))

BOX_HAND_LIMIT = RULES.key("hand_limit").box
BOX_START_HANDS = RULES.key("start_hands").box


def deal(rules: Rules | None, players: int, draw_pile: int | None = None) -> tuple[int, ...]:
    """The cards each seat is dealt at ``players``, first player first, under
    ``rules`` (None: the box's). An entry of ``start_hands`` left at the box's
    follows a changed ``hand_limit`` (the last seat a full hand, each before it
    one card fewer, at least 0). Raises AnalyzerError, one line, where a seat
    would start above ``hand_limit`` (any player count's entry: the variant is
    wrong whatever the table) or the deal needs more cards than the map's draw
    pile (``draw_pile``: the cards left after each terrain's opening card)."""
    rules = RULES.box() if rules is None else rules
    limit = rules["hand_limit"]
    table = dict(rules["start_hands"])
    for count, hands in table.items():
        if hands == BOX_START_HANDS[count]:
            table[count] = tuple(max(0, h - (BOX_HAND_LIMIT - limit)) for h in hands)
        for seat, h in enumerate(table[count]):
            if h > limit:
                raise AnalyzerError(
                    f"start_hands: for {count} players {','.join(map(str, hands))} deals seat {seat + 1} {h} "
                    f"cards, above hand_limit {limit} (allowed: each seat 0 to hand_limit)")
    hands = table[players]
    if draw_pile is not None and sum(hands) > draw_pile:
        raise AnalyzerError(
            f"start_hands: for {players} players {','.join(map(str, hands))} deals {sum(hands)} cards, the map's "
            f"draw pile holds {draw_pile} (allowed: together at most the draw pile)")
    return hands


def deal_line(rules: Rules, players: int) -> str | None:
    """The summary's line naming the deal where a changed ``hand_limit`` moved
    the box's (``start_hands`` left at the box's), else None: the rules line
    says "box otherwise", which the reader would take for the box's numbers."""
    hands = deal(rules, players)
    if rules["hand_limit"] == BOX_HAND_LIMIT or rules.at("start_hands", players) != BOX_START_HANDS[players]:
        return None
    return (f"deal: {','.join(map(str, hands))} cards by seat (the box's deal follows hand_limit "
            f"{rules['hand_limit']}: the last seat a full hand, each seat before it one card fewer)")
