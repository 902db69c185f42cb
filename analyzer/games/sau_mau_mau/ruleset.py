"""Sau Mau Mau's rule numbers a designer may change (``--rule``, ``--rules FILE``,
``[rules]``): each with its box value, range and meaning. The match packs them
into the kernel's ``game`` array (``kernel.pack_game``: the ``G_*`` rule slots of
layout.py), and each race copies them into the public state, where the bots read
them; docs/sau-mau-mau.md's table of rules is generated from this declaration
(``python -m analyzer.docs``). The crown's space per player count is track data
(``--board``), not a rule key."""
from analyzer.engine.ruleset import RuleKey, RuleSet
from analyzer.games.sau_mau_mau.layout import (
    MAX_HAND_SIZE, MAX_PLAYERS, MAX_POINTS, MAX_RACES, MAX_STEP, MIN_PLAYERS,
)

RULES = RuleSet("sau-mau-mau", "Sau Mau Mau", (MIN_PLAYERS, MAX_PLAYERS), (
    RuleKey("bet_payouts", (6, 4, 3, 2, 1), lo=0, hi=MAX_POINTS, length=(1, MAX_PLAYERS), unit="points",
            meaning="points of the winning bets in queue order, the first winning bet first; a winning bet past "
                    "the list scores 0; the queue holds one bet per player at most, so five at most"),
    RuleKey("hand_size", 5, lo=1, hi=MAX_HAND_SIZE, unit="cards",
            range_text=f"a whole number, 1 to {MAX_HAND_SIZE}, and at most 38 / players (every hand dealt and "
                       f"one card turned up from the 39: 7 at five players, 9 at four, {MAX_HAND_SIZE} otherwise)",
            meaning="cards dealt to each player at a race's start"),
    RuleKey("crown_points", 3, lo=0, hi=MAX_POINTS, unit="points",
            meaning="points for the player whose card moved a pig onto the crown: a number card of the pig's "
                    "colour, or a Flapi"),
    RuleKey("last_card_points", 5, lo=0, hi=MAX_POINTS, unit="points",
            meaning="points for going out, playing the last card of one's hand; with the crown at once, both"),
    RuleKey("races_per_game", 4, lo=1, hi=MAX_RACES, unit="races",
            meaning="races in a game; the first player passes left each race, scores carry over"),
    RuleKey("plus_two_step", 2, lo=0, hi=MAX_STEP, unit="cards",
            meaning="cards a +2 adds to the penalty; passed on, the penalty grows by as many; 0: a +2 sets no "
                    "penalty"),
    RuleKey("steps_back_per_card", 1, lo=0, hi=MAX_STEP, unit="steps",
            meaning="steps back per card drawn as a +2 penalty: each step moves any pig one space back (never "
                    "behind start), spread as the player likes"),
    RuleKey("flapi_move", 3, lo=0, hi=MAX_STEP, unit="spaces",
            meaning="spaces a Flapi moves the last pig, the one furthest behind"),
    RuleKey("x_skips", 1, lo=0, hi=MAX_PLAYERS - 1, unit="turns",
            meaning="turns an X skips: the next players', one each in turn order; 0: an X skips no one"),
))
