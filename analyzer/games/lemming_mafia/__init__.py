"""Lemming Mafia, the flagship: a race with hidden bets and contracts
(``shared/rules/lemming-mafia.md``; decisions in ``docs/lemming-mafia.md``)."""
from analyzer.games import GameInfo

GAME = GameInfo(
    name="lemming-mafia",
    title="Lemming Mafia",
    match="analyzer.games.lemming_mafia.match:LemmingMafiaMatch",
    bots="analyzer.games.lemming_mafia.registry",
    stats="analyzer.games.lemming_mafia.stats",
    report="analyzer.games.lemming_mafia.report",
    default_players=4,
    default_bots=("favourite", "timer", "contractor", "random", "random", "random"),
    unit="races",
)
