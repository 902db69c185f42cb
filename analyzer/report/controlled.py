"""Controlled tables for the report's structural questions.

Seat advantage, colour or pig balance, race length, the value of a queue place
and the first player are questions about the game; a table of different bots
answers them about those bots at that table (a seat's bot and its order are
confounded, and a bot that steers towards its contracts moves the colours). So
the report plays, for each bot present, a run with that bot in every seat (a
*controlled table*), on the same board, deck, player count and seed (so on the
same deals and dice), and answers the structural questions per bot side by
side, saying which answers hold across the bots and which depend on them.

``controlled_runs(manifest)`` plays them: ``min(the run's units, CONTROLLED_MAX)``
units each (a run that already has one bot in every seat is its own controlled
table and is not played again). When the run's board cannot be rebuilt (a file
that moved or changed since the run) it returns no tables and a note saying so;
the report then says plainly that its answers are about the bots present.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

CONTROLLED_MAX = 200_000  # units per controlled table


@dataclass
class Controlled:
    """Per bot label: the result tables of that bot in every seat."""
    tables: dict[str, dict]  # bot label -> stats result
    units: dict[str, int]  # bot label -> units played
    note: str = ""  # why there are none, if there are none

    def __bool__(self) -> bool:
        return bool(self.tables)


def bots_of(manifest: dict) -> list[str]:
    """The distinct bot labels of a run, in seat order."""
    return list(dict.fromkeys(str(b.get("bot")) for b in manifest.get("bots") or []))


def _board_path(manifest: dict):
    data = manifest.get("data") or []
    first = data[0] if data else {}
    if first.get("assumed", True):
        return None
    return str(first.get("source"))


def match_of(manifest: dict, labels: list[str]):
    """The run's game, board, deck and player count with the bots ``labels`` (one a
    seat), as ``(match, "")``, or ``(None, why not)`` when the run's data files cannot
    be rebuilt as they were (moved, changed) or the run merges several runs."""
    from analyzer.engine.botspec import parse_bot_list
    from analyzer.errors import AnalyzerError
    from analyzer.games import game_info

    if manifest.get("runs"):
        return None, "the report merges several runs"
    board = _board_path(manifest)
    if board is not None and not Path(board).is_file():
        return None, f"the board file {board} of the run is not there any more"
    try:
        match = game_info(str(manifest.get("game"))).load("match")(
            board, manifest.get("players"), [spec for label in labels for spec in parse_bot_list(label)])
    except AnalyzerError as e:
        return None, str(e)
    if [d.get("sha256") for d in match.describe()["data"]] != [d.get("sha256") for d in manifest.get("data", [])]:
        return None, "the board or deck file changed since the run"
    return match, ""


def controlled_runs(manifest: dict, main_result: dict | None = None, threads: int | None = None,
                    max_units: int = CONTROLLED_MAX) -> Controlled:
    """Play one controlled table per bot of the run (see the module docstring)."""
    from analyzer.engine.simulate import simulate
    from analyzer.stats import new_stats

    game, unit = str(manifest.get("game")), str(manifest.get("unit", "races"))
    bots = bots_of(manifest)
    players = manifest.get("players")
    if not bots or not isinstance(players, int) or manifest.get("runs"):
        return Controlled({}, {}, "no controlled tables for a report merging several runs")
    units = int(min(int(manifest.get(unit, 0)), max_units))
    if units <= 0:
        return Controlled({}, {}, "no controlled tables: the run is empty")
    seed = manifest.get("seed", 1)
    board = _board_path(manifest)
    if board is not None and not Path(board).is_file():
        return Controlled({}, {}, f"no controlled tables: the board file {board} of the run is not there any more")
    tables, played = {}, {}
    for label in bots:
        if len(bots) == 1 and main_result is not None:  # the run is its own controlled table
            tables[label], played[label] = main_result, int(manifest.get(unit, 0))
            continue
        match, why = match_of(manifest, [label] * players)
        if match is None:
            return Controlled({}, {}, f"no controlled tables: {why}")
        stats = new_stats(game)
        simulate(match, units, int(seed), threads=threads, progress=False, stats=stats)
        tables[label], played[label] = stats.result(), units
    return Controlled(tables, played)
