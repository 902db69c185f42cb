"""Scenario files: TOML describing one or more simulations to run with
``analyzer run FILE``.

    game = "GAME"                       # a game's name, as on the command line
    players = 4
    bots = "BOT,BOT,BOT,random"
    races = 1000000                     # or games = ... (the game's unit; the same key)
    seed = 1
    report = "../reports/default.html"  # optional
    out = "../runs/default"             # optional Parquet tables
    board = "boards/variant.toml"       # optional
    rules = "rules/payouts.toml"        # optional: a rules file (its [rules] table), or the table here:
    [rules]                             #   (in a [[run]]: [run.rules])
    bet_payouts = [5, 3, 2, 1, 1]
    player_counts = [3, 4, 5]           # overrides players: one run per count, in one report
                                        # side by side (``report --by players``); bots one name or none
    strong = true                       # the report's controlled tables as a strength ladder,
                                        # random to the game's search bot (``report --strong``)

A run with ``player_counts`` plays the same count of races or games at each player
count (bots: one name seated everywhere, or each count's default table), writes
each count's tables to ``out/players-N`` (a temporary folder without ``out``) and
its ``report`` shows every answer per count side by side.

Paths (board, rules, report, out, and bot files in bots) are relative to the
scenario file, wherever it is run from; no two runs may write the same report or table directory.

Several runs in one file: ``[[run]]`` tables, each with the keys above; keys at
the top level are defaults for every run (e.g. to compare two boards).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import Field, StrictBool, StrictInt, StrictStr, field_validator, model_validator

from analyzer.engine.datafile import FileModel, read_toml, validate
from analyzer.engine.simulate import MAX_COUNT, MAX_PLAYERS, MAX_SEED, MAX_THREADS
from analyzer.errors import AnalyzerError, InputFileError


@dataclass(frozen=True)
class Scenario:
    title: str | None
    game: str
    board: Path | None
    players: int | None
    bots: str | None
    races: int  # races or games: what the game simulates
    seed: int
    threads: int | None
    report: Path | None
    out: Path | None
    player_counts: tuple[int, ...] = ()  # one run per count, reported side by side (``report --by players``)
    strong: bool = False  # its report under strong play (a strength ladder of controlled tables)
    rules: Any = None  # the rules variant (``engine.ruleset.Rules``); None: the box's


class RunSettings(FileModel):
    """The settings of one run, as a file gives them: a scenario's runs and a
    sweep's defaults share these keys and their checks."""
    title: StrictStr | None = None
    game: Any = Field(default=None, validate_default=True)
    board: StrictStr | None = None
    players: StrictInt | None = Field(default=None, ge=1, le=MAX_PLAYERS)
    bots: StrictStr | None = None
    races: StrictInt | None = Field(default=None, ge=1, le=MAX_COUNT)
    games: StrictInt | None = Field(default=None, ge=1, le=MAX_COUNT)
    seed: StrictInt = Field(default=1, ge=0, le=MAX_SEED)
    report: StrictStr | None = None
    out: StrictStr | None = None
    rules: StrictStr | dict | None = None  # a rules file, or a [rules] table (checked with the game's keys)

    @field_validator("game")
    @classmethod
    def _game(cls, game):
        from analyzer.games import names

        if game is None:
            raise ValueError("no game given")
        if game not in names():
            raise ValueError(f"unknown game {game!r} (known: {', '.join(names())})")
        return game

    @model_validator(mode="after")
    def _one_count(self):
        if self.races is not None and self.games is not None:
            raise ValueError("give races or games, not both")
        return self


class _Run(RunSettings):
    """One run: the file's top-level keys merged with its ``[[run]]`` table."""
    threads: StrictInt | None = Field(default=None, ge=1, le=MAX_THREADS)
    player_counts: list[StrictInt] | None = None
    strong: StrictBool = False

    @model_validator(mode="after")
    def _strong(self):
        if self.strong and self.report is None:
            raise ValueError("strong asks for a report under strong play: give report too")
        return self

    @model_validator(mode="after")
    def _counts(self):
        if self.player_counts is None:
            return self
        if self.strong:
            raise ValueError("strong does not go with player_counts (a side-by-side report plays no "
                             "controlled tables)")
        if not self.player_counts or len(set(self.player_counts)) != len(self.player_counts):
            raise ValueError("player_counts must list distinct player counts")
        if any(not 1 <= n <= MAX_PLAYERS for n in self.player_counts):
            raise ValueError(f"player_counts must lie in 1..{MAX_PLAYERS}")
        if self.bots is not None and "," in self.bots:
            raise ValueError("with player_counts, bots is one bot seated everywhere (or none: each count's "
                             "default table)")
        return self


class _ScenarioFile(FileModel):
    run: Any = None  # checked below: a list of run tables

    model_config = {**FileModel.model_config, "extra": "allow"}  # the defaults of every run

    @field_validator("run")
    @classmethod
    def _runs(cls, runs):
        if runs is not None and (not isinstance(runs, list) or not all(isinstance(r, dict) for r in runs)):
            raise ValueError("[[run]] must be a list of tables")
        return runs


def load_scenarios(path: Path) -> list[Scenario]:
    """Every run of a scenario file, validated; paths in it (board, out,
    report) are relative to the file, and no two runs may write the same
    output."""
    path = Path(path)
    data = read_toml(path, "scenario file")
    runs = validate(_ScenarioFile, data, path, "scenario file").run
    defaults = {k: v for k, v in data.items() if k != "run"}
    merged = [{**defaults, **run} for run in (runs if runs is not None else [{}])]
    scenarios = [_scenario(validate(_Run, run, path if len(merged) == 1 else f"{path}, run {i}",
                                    "scenario file"), path)
                 for i, run in enumerate(merged, 1)]
    _check_outputs_distinct(scenarios, path)
    return scenarios


def _scenario(r: _Run, path: Path) -> Scenario:
    def relative(value):
        return None if value is None else path.parent / value

    count = r.games if r.games is not None else r.races if r.races is not None else 100_000
    return Scenario(r.title, r.game, relative(r.board), r.players, bots_relative_to(r.bots, path), count, r.seed,
                    r.threads, relative(r.report), relative(r.out), tuple(r.player_counts or ()), r.strong,
                    rules_relative_to(r.game, r.rules, path))


def rules_relative_to(game: str, rules, path: Path):
    """A file's ``rules``: a rules file (relative to the file's folder) or a
    ``[rules]`` table, checked with the game's keys (None: the box's)."""
    from analyzer.games import rules_of

    if rules is None:
        return None
    ruleset = rules_of(game)
    if isinstance(rules, str):
        return ruleset.read(path.parent / rules)
    try:
        return ruleset.rules(rules)
    except InputFileError as e:
        raise InputFileError(f"{path}: rules: {e}") from None


def bots_relative_to(bots: str | None, path: Path) -> str | None:
    """A file's bot list with its bot file paths taken from the file's folder."""
    from analyzer.engine.botspec import bot_list_text, parse_bot_list, relative_to

    if bots is None:
        return None
    try:
        return bot_list_text(relative_to(parse_bot_list(bots), path.parent))
    except AnalyzerError as e:
        raise InputFileError(f"{path}: bots: {e}") from None


def _check_outputs_distinct(scenarios: list[Scenario], path: Path) -> None:
    """Two runs writing one report or one table directory would overwrite each other."""
    import os

    seen: dict[tuple[str, str], int] = {}
    for i, s in enumerate(scenarios, 1):
        for what, target in (("report", s.report), ("out", s.out)):
            if target is None:
                continue
            key = (what, os.path.abspath(target))
            if key in seen:
                raise InputFileError(f"scenario file {path}: runs {seen[key]} and {i} both write {what} "
                                     f"{target}; give each run its own")
            seen[key] = i
