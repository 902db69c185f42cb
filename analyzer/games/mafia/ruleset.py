"""Mafia's rule numbers a designer may change (``--rule``, ``--rules FILE``,
``[rules]``): each with its box value, range and meaning. The match packs them
into the kernel's ``game`` array (``board.pack_game``); docs/mafia.md's table of
rules is generated from this declaration (``python -m analyzer.docs``)."""
from analyzer.engine.ruleset import RuleKey, RuleSet
from analyzer.games.mafia.layout import MAX_PLAYERS, MIN_PLAYERS

RULES = RuleSet("mafia", "Mafia", (MIN_PLAYERS, MAX_PLAYERS), (
    RuleKey("spaces_to_win", {3: 5, 4: 4, 5: 4}, per_players=True, lo=1, hi=20, unit="spaces",
            meaning="spaces a family must control at the start of its turn to win, by player count"),
))
