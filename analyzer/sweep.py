"""Sweeps: a grid of runs over one game (``analyzer sweep FILE.toml``). Knows no game.

    game = "GAME"
    races = 20000                 # per cell (or games = ...)
    seed = 1                      # when the grid has no seeds
    bots = "BOT"                  # when the grid has no bots: one bot for every seat, or one per seat
    out = "../runs/my-sweep"      # checkpoints and sweep.parquet (default: runs/<file stem> beside the file)
    report = "../reports/my-sweep.html"   # optional: the sweep report

    [grid]                        # every combination is a cell; each list needs at least one value
    players = [3, 4, 5]
    boards = ["default", "boards/variant.toml"]   # "default": the game's own
    bots = ["BOT", "OTHER"]
    seeds = [1, 2]
    [grid.params]                 # a bot parameter, set on every seat running that bot
    "BOT.param" = [0.5, 1.0]
    [grid.rules]                  # a rule number of the game (its docs page lists them)
    "KEY" = [6, 7]                # e.g. hand_size; a list rule's values are lists: [[6, 4, 3], [5, 3, 2]]

Each cell is a run (``simulate``) under the file's ``rules`` (a rules file or a
``[rules]`` table; the box's without) with the cell's ``[grid.rules]`` values
over them; its row in ``sweep.parquet``: the cell's settings (a rule's value in
``rule.KEY``, a list as ``5,3,2,1``, and the variant in words in ``rules``), every number of the run's summary (win rate per seat with its
interval, mean scores, length, the game's headline balance numbers), and win
rate per bot (seats pooled) with its interval. A finished cell is
checkpointed in ``OUT/cells/`` at once, keyed by what it plays: its settings,
its rules, the content of its board (and deck) and bot files, the version; ``--resume``
skips the cells found there with the same key, so an interrupted sweep loses
no finished cell and an edited board or bot file is played again. An out
directory holds one sweep file's cells: another sweep's is refused. Paths
(boards, bot files in bots and in ``[grid.params]`` keys, out, report) are
relative to the sweep file. A ``[grid.params]`` key names a bot of every
bot list (``"BOT.param"``, or ``"bots/mine.py.param"``: split at the last dot).
The whole file is checked, the number of cells bounded before any is made,
and every cell's board and bots built, before any cell runs.
"""
from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from pydantic import Field, StrictFloat, StrictInt, StrictStr, field_validator, model_validator

from analyzer.version import __version__
from analyzer.engine.datafile import FileModel, read_toml, validate
from analyzer.engine.inputs import read_input
from analyzer.engine.output import check_page, check_parent, check_target, write_file
from analyzer.engine.ruleset import show_value
from analyzer.engine.simulate import MAX_PLAYERS, MAX_SEED
from analyzer.errors import AnalyzerError, InputFileError
from analyzer.scenario import RunSettings

DEFAULT_BOARD = "default"
SWEEP_TABLE = "sweep.parquet"
SWEEP_MANIFEST = "sweep.json"
CELLS = "cells"
MAX_CELLS = 10_000


class _Grid(FileModel):
    players: list[StrictInt] | None = Field(default=None, min_length=1)
    boards: list[StrictStr] | None = Field(default=None, min_length=1)
    bots: list[StrictStr] | None = Field(default=None, min_length=1)
    seeds: list[StrictInt] | None = Field(default=None, min_length=1)
    params: dict[StrictStr, list[StrictInt | StrictFloat]] | None = None
    rules: dict[StrictStr, list] | None = None  # each value checked with the game's rule keys

    @field_validator("players")
    @classmethod
    def _players(cls, v):
        if v is not None and not all(1 <= p <= MAX_PLAYERS for p in v):
            raise ValueError(f"player counts are 1 to {MAX_PLAYERS}")
        return v

    @field_validator("seeds")
    @classmethod
    def _seeds(cls, v):
        if v is not None and not all(0 <= s <= MAX_SEED for s in v):
            raise ValueError(f"seeds are 0 to {MAX_SEED}")
        return v

    @field_validator("params")
    @classmethod
    def _params(cls, v):
        for key, values in (v or {}).items():
            bot, name = _param_key(key)
            if not bot or not name:
                raise ValueError(f"a parameter is named BOT.PARAM, got {key!r}")
            if not values:
                raise ValueError(f"{key}: the list of values is empty")
        return v

    @field_validator("rules")
    @classmethod
    def _rules(cls, v):
        for key, values in (v or {}).items():
            if not values:
                raise ValueError(f"{key}: the list of values is empty")
        return v

    @model_validator(mode="after")
    def _not_empty(self):
        if not any(getattr(self, k) for k in ("players", "boards", "bots", "seeds", "params", "rules")):
            raise ValueError("the grid is empty: give at least one of players, boards, bots, seeds, params, rules")
        return self


class _SweepFile(RunSettings):
    """The run settings every cell starts from, and the grid that varies them."""
    grid: _Grid


@dataclass(frozen=True)
class Cell:
    index: int
    players: int
    board: str  # as written in the file ("default" for the game's own)
    bots: str  # the bot list with the grid's parameters applied (bot files from the sweep's folder)
    seed: int
    params: tuple[tuple[str, float], ...]  # the grid's parameter values of this cell
    key: str = ""  # what the cell plays, by content: a checkpoint with another key is played again
    rules: tuple[tuple[str, object], ...] = ()  # the grid's rule values of this cell
    variant: object = None  # the rules it plays (``engine.ruleset.Rules``): the file's, then the grid's

    def rules_text(self) -> str:
        return "".join(f", {k} {show_value(self.variant[k])}" for k, _ in self.rules)


def cell_key(game: str, count: int, cell: Cell, data: list[dict], bot_files: dict[str, str]) -> str:
    """The cell's settings (its row shows them) and the content of what it
    reads: the board's (and deck's) hashes as the match reads them, and each
    bot file's hash. An edit of a board or bot file changes the key, so
    ``--resume`` plays that cell again."""
    text = json.dumps([game, count, cell.players, cell.board, cell.bots, cell.seed, list(cell.params),
                       sorted((d["part"], d["sha256"]) for d in data), sorted(bot_files.items()), __version__]
                      + ([cell.variant.describe()["changed"]] if cell.variant is not None
                         and not cell.variant.is_box else []))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass
class Sweep:
    path: Path
    title: str
    game: str
    count: int
    cells: list[Cell]
    out: Path
    report: Path | None
    param_names: list[str]
    rule_names: list[str] = dataclasses.field(default_factory=list)

    def board_path(self, cell: Cell) -> Path | None:
        return None if cell.board == DEFAULT_BOARD else self.path.parent / cell.board


def _with_params(specs: list, params: dict[str, float]) -> list:
    """``specs`` with each ``BOT.param`` of ``params`` set on every entry running
    BOT; a parameter whose bot is not in the list (nothing would play it) or
    that the entry already sets is refused."""
    from analyzer.engine.botspec import BotSpec

    specs = list(specs)
    for key, value in params.items():
        bot, name = _param_key(key)
        hits = [i for i, spec in enumerate(specs) if spec.name == bot]
        if not hits:
            raise InputFileError(f"[grid.params] {key!r}: bot {bot!r} is not in the bot list "
                                 f"{','.join(s.label for s in specs)}, so nothing would play the values")
        for i in hits:
            given = dict(specs[i].params)
            if name in given:
                raise InputFileError(f"[grid.params] {key!r}: the bot list already sets {name} "
                                     f"({specs[i].label}); give it in one place")
            specs[i] = BotSpec(bot, tuple(sorted({**given, name: value}.items())))
    return specs


def _param_key(key: str) -> tuple[str, str]:
    """``BOT.param`` split at its last dot (a bot file's path has dots; a parameter name none)."""
    bot, _, name = key.rpartition(".")
    return bot, name


def _bot_digests(specs, path: Path) -> dict[str, str]:
    """sha256 of each bot file in ``specs`` (the match built from them has read them),
    as the run's manifest records it."""
    from analyzer.engine.botfamily import file_digests

    try:
        return file_digests(specs)
    except InputFileError as e:
        raise InputFileError(f"sweep file {path}: {e}") from None


def load_sweep(path) -> Sweep:
    """The sweep file, validated, with every cell's board and bots built once
    (so a bad cell is refused before any cell runs); the number of cells is
    bounded before any is built."""
    import math

    from analyzer.engine.botspec import BotSpec, bot_list_text, parse_bot_list, relative_to, seat_bots
    from analyzer.games import game_info, rules_of
    from analyzer.scenario import rules_relative_to

    path = Path(path)
    f = validate(_SweepFile, read_toml(path, "sweep file"), path, "sweep file")
    info = game_info(f.game)
    ruleset = rules_of(f.game)
    base = rules_relative_to(f.game, f.rules, path) or ruleset.box()
    rule_axes = {}
    for key, values in (f.grid.rules or {}).items():  # each value checked alone: an error names it
        for value in values:
            ruleset.rules({key: value}, where=f"sweep file {path}: [grid.rules]")
        rule_axes[key] = values
    g = f.grid
    players = g.players or [f.players or info.default_players]
    boards = g.boards or [f.board or DEFAULT_BOARD]
    seeds = g.seeds or [f.seed]
    bot_lists = g.bots or [f.bots]
    params = {}
    for key, values in (g.params or {}).items():  # bot files from the sweep's folder, as in the bot lists
        bot, name = _param_key(key)
        params[f"{relative_to([BotSpec(bot)], path.parent)[0].name}.{name}"] = values
    names = list(g.params or {})
    total = math.prod(len(axis) for axis in (players, boards, bot_lists, seeds, *params.values(),
                                             *rule_axes.values()))
    if total > MAX_CELLS:  # before any cell is made
        raise InputFileError(f"sweep file {path}: {total:,} cells; at most {MAX_CELLS:,}")
    combos = itertools.product(players, boards, bot_lists, seeds,
                               itertools.product(*params.values()) if params else [()],
                               itertools.product(*rule_axes.values()) if rule_axes else [()])
    count = f.games if f.games is not None else f.races if f.races is not None else 10_000

    def relative(value: str) -> Path:
        return Path(os.path.normpath(path.parent / value))

    out = relative(f.out) if f.out else relative(f"runs/{path.stem}")
    sweep = Sweep(path, f.title or path.stem, f.game, count, [], out,
                  relative(f.report) if f.report else None, names, list(rule_axes))
    cls = info.load("match")
    for i, (n, board, bots, seed, values, rule_values) in enumerate(combos):  # every cell built before any runs
        cell_rules = tuple(zip(rule_axes, rule_values))
        variant = ruleset.rules({**base.changed(), **dict(cell_rules)}, base.source) if cell_rules else base
        shown = bots if bots is not None else f"{info.default_bot_list(n)} (the default table)"
        where = (f"sweep file {path}, cell {i + 1} (players {n}, board {board}, bots {shown}, seed {seed}"
                 + "".join(f", {k} {show_value(v)}" for k, v in variant.changed().items()) + ")")
        cell_params = tuple(zip(names, (float(v) for v in values)))
        try:
            specs = relative_to(parse_bot_list(bots if bots is not None else info.default_bot_list(n)),
                                path.parent)
            specs = _with_params(specs, dict(zip(params, (float(v) for v in values))))
            cell = Cell(i, n, board, bot_list_text(specs), seed, cell_params, rules=cell_rules, variant=variant)
            board_path = sweep.board_path(cell)
            match = cls(str(board_path) if board_path is not None else None, n, seat_bots(specs, n),
                        rules=variant)
        except AnalyzerError as e:
            raise type(e)(f"{where}: {e}") from None
        key = cell_key(f.game, count, cell, match.describe().get("data", []), _bot_digests(specs, path))
        sweep.cells.append(dataclasses.replace(cell, key=key))
    return sweep


# ------------------------------------------------------------------ running

def _flatten(prefix: str, value, row: dict) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(f"{prefix}.{k}" if prefix else str(k), v, row)
    elif isinstance(value, bool):
        row[prefix] = bool(value)
    elif isinstance(value, (int, float)) or hasattr(value, "dtype"):
        row[prefix] = float(value) if not isinstance(value, int) else value


def cell_row(sweep: Sweep, cell: Cell, run) -> dict:
    """The cell's settings and every number of its run's summary."""
    from analyzer.stats.intervals import wilson
    import numpy as np

    m = run.manifest
    data = {d["part"]: d for d in m.get("data", [])}
    row: dict = {"cell": cell.index, "game": sweep.game, "unit": m["unit"], "count": m[m["unit"]],
                 "players": cell.players, "board": cell.board, "bots": cell.bots, "seed": cell.seed}
    for part, d in data.items():
        row[f"{part}_name"] = d["name"]
        row[f"{part}_assumed"] = bool(d["assumed"])
        row[f"{part}_sha256"] = d["sha256"]
    for name, value in cell.params:
        row[f"param.{name}"] = value
    for name, _ in cell.rules:  # a list's or a table's values as text: one category of the axis
        value = cell.variant[name]
        row[f"rule.{name}"] = value if isinstance(value, int) else show_value(value)
    row["rules"] = cell.variant.text() if cell.variant is not None else "box"
    summary = run.summary.as_dict()
    seats = summary.pop("seats", [])
    n = m[m["unit"]]
    for seat in seats:
        for k, v in seat.items():
            if k not in ("seat", "bot") and isinstance(v, (int, float)) and not isinstance(v, bool):
                row[f"seat{seat['seat']}.{k}"] = float(v)
        row[f"seat{seat['seat']}.bot"] = seat["bot"]
    wins: dict[str, list[int]] = {}
    for seat in seats:  # per bot, its seats pooled: wins over seat-games
        w = wins.setdefault(seat["bot"], [0, 0])
        w[0] += int(round(seat["win_rate"] * n))
        w[1] += n
    for bot, (k, trials) in wins.items():
        low, high = wilson(np.array([k]), trials)
        row[f"bot.{bot}.win_rate"] = k / trials
        row[f"bot.{bot}.win_low"] = float(low[0])
        row[f"bot.{bot}.win_high"] = float(high[0])
    _flatten("", summary, row)
    return row


def _check_out(sweep: Sweep) -> None:
    """One sweep per out directory: a directory that holds another sweep file's
    checkpoints and table is refused (its cells would be deleted or mixed in),
    as is one with files no sweep wrote. The same sweep file (``--resume`` or
    afresh) may use its own."""
    out = sweep.out
    if out.exists() and not out.is_dir():
        raise AnalyzerError(f"the sweep's out {out} exists and is not a directory")
    check_parent(out, "the sweep")
    if not out.exists() or not any(out.iterdir()):
        return
    manifest = out / SWEEP_MANIFEST
    if not manifest.is_file():
        raise AnalyzerError(f"{out} is a directory with other files in it and no sweep manifest; "
                            "choose an empty or new directory")
    try:
        owner = json.loads(read_input(manifest, "sweep manifest")).get("sweep")
    except (AnalyzerError, ValueError, AttributeError):
        owner = None
    if not isinstance(owner, str) or os.path.realpath(owner) != os.path.realpath(sweep.path):
        raise AnalyzerError(f"{out} holds the cells of another sweep ({owner if isinstance(owner, str) else 'unknown'}"
                            f"), not of {sweep.path}; give this sweep its own out directory")


def write_table(out: Path, rows: list[dict]) -> Path:
    import pandas as pd

    df = pd.DataFrame(sorted(rows, key=lambda r: r["cell"]))
    return write_file(out / SWEEP_TABLE, df.to_parquet(index=False), "the sweep table")


def checkpoint_name(cell: Cell) -> str:
    return f"cell-{cell.index:05d}.json"


def read_checkpoint(path: Path, sweep: Sweep, cell: Cell) -> tuple[dict | None, bool]:
    """A cell's checkpoint: ``(row, True)`` when it holds this cell's row under its
    key; ``(None, True)`` when there is none or it is of another key (an edited
    board or bot file: the cell is played again, as it should); ``(None, False)``
    when it is damaged (not JSON, not a key and a row of numbers and text, or a
    row of another cell's settings)."""
    from pydantic import ValidationError

    if not path.exists():
        return None, True
    try:
        saved = _checkpoint_model().model_validate(json.loads(read_input(path, "sweep checkpoint").decode("utf-8")))
    except (AnalyzerError, ValueError, RecursionError, ValidationError):  # ValueError: not JSON or not UTF-8
        return None, False
    if saved.key != cell.key:
        return None, True
    row = saved.row
    settings = {"cell": cell.index, "game": sweep.game, "players": cell.players, "board": cell.board,
                "bots": cell.bots, "seed": cell.seed, "count": sweep.count}
    if any(type(row.get(k)) is not type(v) or row.get(k) != v for k, v in settings.items()):
        return None, False
    return row, True


def _checkpoint_model():
    from pydantic import StrictBool

    class Checkpoint(FileModel):
        key: StrictStr
        row: dict[StrictStr, StrictBool | StrictInt | StrictFloat | StrictStr | None]

    return Checkpoint


def _stderr(text: str) -> None:
    import sys

    if sys.stderr is not None:
        print(f"analyzer: {text}", file=sys.stderr)


def run_sweep(sweep: Sweep, *, resume: bool = False, threads: int | None = None, cluster=None,
              progress: bool | None = None, on_cell=None, on_note=None) -> list[dict]:
    """Run every cell not yet checkpointed; returns the rows, in cell order.
    ``on_cell(cell, row)`` follows each finished cell. With ``resume``, a
    checkpoint that does not validate (``read_checkpoint``) is played again and
    ``on_note(line)`` says so once, for all of them (default: a line on stderr)."""
    from analyzer import api

    out = sweep.out
    _check_out(sweep)
    check_target(out / SWEEP_TABLE, "the sweep table")
    if sweep.report is not None:  # before the cells: not a FIFO found only at the end
        check_page(sweep.report, "sweep.html", "the sweep report")
    cells_dir = out / CELLS
    try:
        if not resume:  # afresh: the last run's cells and table go, so none is mistaken for this one's
            if cells_dir.exists():
                shutil.rmtree(cells_dir)
            (out / SWEEP_TABLE).unlink(missing_ok=True)
        cells_dir.mkdir(parents=True, exist_ok=True)
        write_file(out / SWEEP_MANIFEST, json.dumps(
            {"written_by": "analyzer", "sweep": os.path.realpath(sweep.path), "game": sweep.game,
             "cells": len(sweep.cells), "version": __version__}, indent=2) + "\n", "the sweep manifest")
    except OSError as e:
        raise AnalyzerError(f"cannot write to {out}: {e.strerror or e}") from None
    finished: dict[int, dict] = {}
    if resume:
        damaged = []
        for cell in sweep.cells:
            row, ok = read_checkpoint(cells_dir / checkpoint_name(cell), sweep, cell)
            if row is not None:
                finished[cell.index] = row
            elif not ok:
                damaged.append(checkpoint_name(cell))
        if damaged:  # once, before the cells run
            say = on_note if on_note is not None else _stderr
            say(f"{len(damaged)} checkpoint{'s' if len(damaged) > 1 else ''} in {cells_dir} "
                f"{'do' if len(damaged) > 1 else 'does'} not validate ({', '.join(damaged[:3])}"
                f"{', ...' if len(damaged) > 3 else ''}): {'their cells are' if len(damaged) > 1 else 'its cell is'} "
                "played again")
    rows = []
    with api.cluster_session(cluster) as session:
        for cell in sweep.cells:
            checkpoint = cells_dir / checkpoint_name(cell)
            key = cell.key
            if cell.index in finished:
                rows.append(finished[cell.index])
                continue
            board = sweep.board_path(cell)
            run = api.simulate(sweep.game, sweep.count, bots=cell.bots, players=cell.players, board=board,
                               seed=cell.seed, threads=threads, tables=False, progress=progress, cluster=session,
                               rules=cell.variant)
            row = json.loads(json.dumps(cell_row(sweep, cell, run)))  # as a resumed sweep reads it back
            write_file(checkpoint, json.dumps({"key": key, "row": row}) + "\n", "a sweep checkpoint")
            rows.append(row)
            if on_cell is not None:
                on_cell(cell, row)
    write_table(out, rows)
    if sweep.report is not None:
        import pandas as pd

        from analyzer.report.sweep import write_sweep_report

        write_sweep_report(pd.DataFrame(rows), sweep.title, sweep.report)
    return rows
