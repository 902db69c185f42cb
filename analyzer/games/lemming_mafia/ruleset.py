"""Lemming Mafia's rule numbers a designer may change (``--rule``, ``--rules FILE``,
``[rules]``): each with its box value, range and meaning. The match packs them
into the kernel's ``game`` array (``board.pack_game``, the ``G_*`` rule slots of
``layout.py``); docs/lemming-mafia.md's table of rules is generated from this
declaration (``python -m analyzer.docs``).

``contracts_dealt`` has a bound that depends on the deck and the player count
(the match checks it: ``board.check_players``). A ``bet_points`` list shorter
than a stack (six cards, one per colour) pays its last entry for every later
position (docs/lemming-mafia.md says why)."""
from analyzer.engine.ruleset import RuleKey, RuleSet
from analyzer.games.lemming_mafia.layout import (
    MAX_BLOCKS_TO_ELIMINATE, MAX_CONTRACTS_EACH, MAX_PLAYERS, N_LEMMINGS, VARIANT_MIN_PLAYERS,
)

MAX_POINTS = 100  # bet and contract points (board.MAX_POINTS: the records are 16-bit)
BOX_BET_POINTS = tuple(range(1, N_LEMMINGS + 1))

RULES = RuleSet("lemming-mafia", "Lemming Mafia", (VARIANT_MIN_PLAYERS, MAX_PLAYERS), (
    RuleKey("contracts_dealt", 3, lo=1, hi=MAX_CONTRACTS_EACH, unit="cards",
            range_text=f"a whole number, 1 to the deck size / players (at most {MAX_CONTRACTS_EACH})",
            meaning="contract cards dealt to each player at the start (the rest of the deck is unused)"),
    RuleKey("unfulfilled_contract", -2, lo=-MAX_POINTS, hi=MAX_POINTS, unit="points",
            meaning="what each contract still held at the end scores if it is not fulfilled (a fulfilled "
                    "one scores its printed points, a discarded one nothing)"),
    RuleKey("blocks_to_eliminate", 3, lo=2, hi=MAX_BLOCKS_TO_ELIMINATE, unit="blocks",
            meaning="the concrete block that eliminates a lemming (one that carries a block fewer and gets "
                    "another is out)"),
    RuleKey("bet_points", BOX_BET_POINTS, lo=0, hi=MAX_POINTS, length=(1, N_LEMMINGS), unit="points",
            meaning="what the winner's bet card pays by its position in the stack's placing order, first "
                    "placed first (a card past the list pays the list's last entry; a card of another "
                    "colour or never placed pays 0)"),
    RuleKey("getaway_die", 6, lo=2, hi=12, unit="sides",
            meaning="sides of the number die a getaway car rolls (fields moved: 1 to this)"),
    RuleKey("bets_per_bookmaker", 1, lo=1, hi=N_LEMMINGS, unit="cards",
            meaning="bet cards each player may put on its stack when a lemming lands on a bookmaker"),
    RuleKey("discards_per_boss", 1, lo=1, hi=MAX_CONTRACTS_EACH, unit="cards",
            meaning="contract cards each player may throw away when a lemming lands on a boss field"),
    RuleKey("jackhammer_removes", 1, lo=0, hi=MAX_BLOCKS_TO_ELIMINATE - 1, unit="blocks",
            meaning="concrete blocks a jackhammer takes off the lemming landing on it (at most those it "
                    "carries; 0: jackhammers do nothing)"),
))
