"""Mafia (Marco Donadoni, International Team): the State against the Families
in Sicily, as ``shared/rules/mafia.md`` states it. The first game whose seats
have roles: ``state`` and ``family``.

The rules, jitted: ``kernel.py`` (the calendar, a side's turn, the activities
of a moved piece), the reference random bot (``random_bot.py``), the heuristic
bots (``bots.py``, named with their roles in ``registry.py``), the flat arrays
(``layout.py``), the map file with its validation and the table of every move
(``board.py``, the assumed default in ``data/``), and what the engine drives:
``match.py`` (chunks of games, their tables), ``summary.py``, ``stats.py``.

Where the rules page left something open, the decisions are listed in
``docs/mafia.md``.
"""
from analyzer.games import GameInfo

GAME = GameInfo(
    name="mafia",
    title="Mafia",
    match="analyzer.games.mafia.match:MafiaMatch",
    bots="analyzer.games.mafia.registry",
    stats="analyzer.games.mafia.stats",
    report="analyzer.games.mafia.report",
    default_players=5,
    default_bots=("random",),
    unit="games",
)
