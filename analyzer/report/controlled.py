"""Controlled tables for the report's structural questions.

Seat advantage, colour or pig balance, race length, the value of a queue place
and the first player are questions about the game; a table of different bots
answers them about those bots at that table (a seat's bot and its order are
confounded, and a bot that steers towards its contracts moves the colours). So
the report plays, for each bot present, a run with that bot in every seat (a
*controlled table*), on the same board, deck, player count and seed (so on the
same deals and dice), and answers the structural questions per bot side by
side, saying which answers hold across the bots and which depend on them.

In a game whose seats have roles (``GameInfo.roles``; the run's manifest lists
each seat's role), a bot may play only some roles, so "that bot in every seat"
may be no legal table. There a controlled table puts one bot in every seat of a
role and keeps the bots of the other roles as the run had them: a run with
roles ``a, a, b`` and bots ``x, y, z`` gets x in every seat of role a and y in
every seat of role a, the seat of role b kept as z (``designs``). Every role
whose seats ran several bots is varied (one table per combination); a role
with one bot keeps it.

Under strong play (``report --strong``: ``"strong"`` in the manifest) the tables
are a *strength ladder*, weakest first (``strength_designs``): the random bot in
every seat, the run's heuristic tables as above (the game's best heuristic,
``GameInfo.search.best``, when the run has none), and the game's search bot in
every seat, the latter on at most ``GameInfo.search.strong_units`` units (a
search bot costs a thousand times a heuristic's time). The answers then say, per
strength, whether they keep their answer (``report/ladder.py``). A game without
a search bot gets its random and heuristic rows and a note saying so.

``controlled_runs(manifest)`` plays them: ``min(the run's units, CONTROLLED_MAX)``
units each (a run that already has one bot in every seat is its own controlled
table and is not played again). A user's bot plays from its file, as the run
recorded it (its sha256), whatever name it declares (``spec_text``: a user bot
is its file, not its name). When the run's board or a bot file cannot be rebuilt
(a file that moved or changed since the run) it returns no tables and a note
saying so; the report then says plainly that its answers are about the bots present.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path

CONTROLLED_MAX = 200_000  # units per controlled table


@dataclass
class Controlled:
    """Per bot label: the result tables of that bot in every seat."""
    tables: dict[str, dict]  # bot label -> stats result
    units: dict[str, int]  # bot label -> units played
    note: str = ""  # why there are none, if there are none
    where: str = "in every seat"  # where a table's bot sits, in words ("in every family seat (state seat: hunter)")
    ladder: bool = False  # the tables are a strength ladder, weakest first (a report under strong play)
    ladder_note: str = ""  # under strong play: what the ladder lacks (a game without a search bot), in one line

    def __bool__(self) -> bool:
        return bool(self.tables)


def bots_of(manifest: dict) -> list[str]:
    """The distinct bot labels of a run, in seat order."""
    return list(dict.fromkeys(str(b.get("bot")) for b in manifest.get("bots") or []))


def _seats(manifest: dict) -> list[dict]:
    return sorted(manifest.get("bots") or [], key=lambda b: int(b.get("seat", 0)))


def seat_bots(manifest: dict) -> list[str]:
    """The run's bot label of each seat, in seat order."""
    return [str(b.get("bot")) for b in _seats(manifest)]


def _is_user_file(seat: dict) -> bool:
    from analyzer.engine.botspec import is_bot_file

    source = seat.get("source")
    return isinstance(source, str) and source != "built-in" and is_bot_file(source)


def spec_text(seat: dict) -> str:
    """What plays a seat's bot again: a built-in bot or a bot .toml by its label
    (a .toml's label is its path), a user .py bot by its file (its label is the
    name its file declares, which may be any name, a built-in bot's too) with
    the label's parameters. A user bot is its file, not its name."""
    label = str(seat.get("bot"))
    source, family = seat.get("source"), str(seat.get("family") or "")
    if _is_user_file(seat) and source.endswith(".py"):
        params = label[len(family):] if family and label.startswith(family) else ""
        return f"{source}{params}"
    return label


def seat_specs(manifest: dict) -> list[str]:
    """The run's bots again, one spec text (``spec_text``) a seat, in seat order."""
    return [spec_text(b) for b in _seats(manifest)]


def _spec_of(manifest: dict) -> dict[str, str]:
    """Each bot label of the run -> its spec text."""
    return {str(b.get("bot")): spec_text(b) for b in _seats(manifest)}


def designs(manifest: dict) -> tuple[list[tuple[str, list[str]]], str]:
    """The controlled tables of a run: ``[(label, one bot spec a seat)]`` (each
    seat's bot as ``spec_text`` plays it again) and, in words, where a table's
    bot sits (see the module docstring)."""
    tables, where = _label_designs(manifest)
    spec = _spec_of(manifest)
    return [(label, [spec.get(b, b) for b in seats]) for label, seats in tables], where


def _label_designs(manifest: dict) -> tuple[list[tuple[str, list[str]]], str]:
    seats = seat_bots(manifest)
    roles = [str(r) for r in manifest.get("roles") or []]
    if len(set(roles)) <= 1 or len(roles) != len(seats) or len(set(seats)) == 1:
        return [(b, [b] * len(seats)) for b in bots_of(manifest)], "in every seat"
    by_role = {r: list(dict.fromkeys(b for b, rr in zip(seats, roles) if rr == r)) for r in dict.fromkeys(roles)}
    varied = [r for r, labels in by_role.items() if len(labels) > 1]
    if not varied:  # one bot per role: the run is its own controlled table, named by its largest role
        varied = [max(by_role, key=roles.count)]
    fixed = [r for r in by_role if r not in varied]
    kept = ", ".join(f"{r} seat{'s' if roles.count(r) > 1 else ''}: {by_role[r][0]}" for r in fixed)
    where = (f"in every {varied[0]} seat" if len(varied) == 1 else "in every seat of its role") + (
        f" ({kept})" if kept else "")
    tables = []
    for combo in itertools.product(*(by_role[r] for r in varied)):
        bot_of = dict(zip(varied, combo))
        label = combo[0] if len(varied) == 1 else " + ".join(f"{b} as {r}" for r, b in bot_of.items())
        tables.append((label, [bot_of.get(r, by_role[r][0]) for r in roles]))
    return tables, where


def strength_designs(manifest: dict) -> tuple[list[tuple[str, list[str], int | None]], str, str]:
    """The controlled tables of a report under strong play, weakest first:
    ``[(label, one bot label per seat, units at most or None)]``, where a table's
    bot sits, and a note ("" unless the game has no search bot)."""
    from analyzer.games import game_info

    info = game_info(str(manifest.get("game")))
    search = info.search
    n = len(seat_bots(manifest))
    run_tables, where = designs(manifest)
    every = where == "in every seat"

    def own(bot: str) -> str:  # a table with the bot in every seat, named so beside per-role tables
        return bot if every else f"{bot} (every seat)"

    skip = {"random"} | ({search.bot} if search else set())
    heuristic = [(label, seats, None) for label, seats in run_tables if label.split(":")[0] not in skip]
    if not heuristic and search is not None:
        heuristic = [(own(search.best), [search.best] * n, None)]
    ladder = [(own("random"), ["random"] * n, None)] + heuristic
    note = ""
    if search is None:
        note = (f"{info.title} has no search bot yet: the strength ladder stops at its heuristic bots "
                "(random, then the run's bots)")
    else:
        ladder.append((own(search.bot), [search.bot] * n, search.strong_units))
    return ladder, where, note


def _board_path(manifest: dict):
    data = manifest.get("data") or []
    first = data[0] if data else {}
    if first.get("assumed", True):
        return None
    return str(first.get("source"))


def match_of(manifest: dict, seats: list[str]):
    """The run's game, board, deck and player count with the bots ``seats`` (one
    spec text a seat: ``seat_specs``, ``designs``, or a built-in bot's name), as
    ``(match, "")``, or ``(None, why not)`` when the run's data files or bot files
    cannot be rebuilt as they were (moved, changed) or the run merges several runs."""
    from analyzer.engine.botspec import parse_bot_list
    from analyzer.engine.manifest import check_bot_file
    from analyzer.errors import AnalyzerError
    from analyzer.games import game_info, rules_of

    if manifest.get("runs"):
        return None, "the report merges several runs"
    board = _board_path(manifest)
    if board is not None and not Path(board).is_file():
        return None, f"the board file {board} of the run is not there any more"
    files = {spec_text(b): b for b in _seats(manifest) if _is_user_file(b)}
    for text in dict.fromkeys(seats):
        if text in files:  # a bot file of the run: the same content, or no table
            why = check_bot_file(manifest, files[text])
            if why:
                return None, why
    try:
        game = str(manifest.get("game"))
        rules = rules_of(game).from_manifest(manifest.get("rules"))
        match = game_info(game).load("match")(
            board, manifest.get("players"), [spec for text in seats for spec in parse_bot_list(text)],
            rules=rules)
    except AnalyzerError as e:
        return None, str(e)
    played = {f.source: f.sha256 for f in match.families if f.sha256}
    for seat in files.values():  # read again as the match loaded it: edited in between, it is not the run's
        if played.get(seat.get("source"), seat.get("sha256")) != seat.get("sha256"):
            return None, f"the bot file {seat.get('source')} changed since the run"
    if [d.get("sha256") for d in match.describe()["data"]] != [d.get("sha256") for d in manifest.get("data", [])]:
        return None, "the board or deck file changed since the run"
    return match, ""


def controlled_runs(manifest: dict, main_result: dict | None = None, threads: int | None = None,
                    max_units: int = CONTROLLED_MAX) -> Controlled:
    """Play one controlled table per bot of the run (see the module docstring)."""
    from analyzer.engine.simulate import simulate
    from analyzer.games import new_stats

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
    if not manifest.get("roles"):  # a run written before manifests listed the seats' roles
        from analyzer.games import game_info
        manifest = {**manifest, "roles": list(game_info(game).load("match").seat_roles(players))}
    tables, played = {}, {}
    strong = bool(manifest.get("strong"))
    if strong:
        design, where, note = strength_designs(manifest)
    else:
        plain, where = designs(manifest)
        design, note = [(label, seats, None) for label, seats in plain], ""
    for label, seats, most in design:
        size = units if most is None else min(units, most)
        if seats == seat_specs(manifest) and main_result is not None and size == units:
            # the run is its own controlled table
            tables[label], played[label] = main_result, int(manifest.get(unit, 0))
            continue
        match, why = match_of(manifest, seats)
        if match is None and strong and label != design[0][0]:
            # a strength the game cannot seat everywhere (a bot of one role): the ladder goes without it
            note = "; ".join(filter(None, [note, f"no {label} table: {why}"]))
            continue
        if match is None:
            return Controlled({}, {}, f"no controlled tables: {why}")
        stats = new_stats(game)
        simulate(match, size, int(seed), threads=threads, progress=False, stats=stats)
        tables[label], played[label] = stats.result(), size
    return Controlled(tables, played, where=where, ladder=strong, ladder_note=note)


def warm_jobs(match, strong: bool = False) -> list:
    """The compile jobs (``engine/warm.py``) of the controlled tables a report of
    a run of ``match`` plays (``strong``: under strong play): one per table, each
    its match's first play."""
    from functools import partial

    from analyzer.engine.warm import Job, warm_match

    manifest = {"game": match.game, "players": match.players, "bots": match.bots_described(),
                "roles": list(match.roles), **match.describe()}
    design = [(label, seats) for label, seats, _ in strength_designs(manifest)[0]] if strong else \
        designs(manifest)[0]
    jobs = []
    for label, seats in design:
        table, _ = match_of(manifest, seats)
        if table is not None:
            jobs.append(Job(f"{match.title}: {label} in every seat", partial(warm_match, table, True),
                            table.kernels(True), table.compile_seconds))
    return jobs
