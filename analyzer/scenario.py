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

from analyzer.engine.datafile import FileModel, Name, read_toml, validate
from analyzer.engine.simulate import MAX_COUNT, MAX_PLAYERS, MAX_SEED, MAX_THREADS
from analyzer.errors import AnalyzerError, InputFileError


def known_game(game):
    """A file's ``game``: one of the registry's (a pydantic validator's check, shared
    by scenario and balance files)."""
    from analyzer.games import names

    if game is None:
        raise ValueError("no game given")
    if game not in names():
        raise ValueError(f"unknown game {game!r} (known: {', '.join(names())})")
    return game


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
    title: Name | None = None  # printed as a heading line: one line
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
        return known_game(game)

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
        if runs is not None and not runs:
            raise ValueError("[[run]] is empty: the file would run nothing (leave run out for one run of the "
                             "top-level keys)")
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


@dataclass(frozen=True)
class _Output:
    """A path a run of the file writes: a file, or a folder with all below it."""
    run: int
    key: str  # "out" or "report"
    what: str  # in words
    shown: str  # as the file gives it
    real: str  # symbolic links resolved
    folder: bool

    def holds(self, other: "_Output") -> bool:
        return self.real == other.real or (self.folder and other.real.startswith(self.real.rstrip("/") + "/"))


def _outputs(i: int, s: Scenario) -> list[_Output]:
    """What run ``i`` writes: its table directory (with ``player_counts``, the
    folder of its players-N directories), its report and the report's folder of
    figures and tables (``NAME_files/`` beside it)."""
    import os

    from analyzer.engine.output import files_dir, page_path

    out = []
    if s.out is not None:
        out.append(_Output(i, "out", "out", str(s.out), os.path.realpath(s.out), True))
    if s.report is not None:
        page = page_path(s.report, "report.html")
        out.append(_Output(i, "report", "report", str(s.report), os.path.realpath(page), False))
        folder = files_dir(page)
        out.append(_Output(i, "report", "report's folder", f"{folder} (of {page.name})", os.path.realpath(folder),
                           True))
    return out


def _check_outputs_distinct(scenarios: list[Scenario], path: Path) -> None:
    """Two outputs of the file's runs on one path, or one inside the other (a
    report in a run's table directory, a table directory named like a report's
    folder, either through a symbolic link), would overwrite each other or
    leave a run directory the next run refuses: refused before any run."""
    outputs = [o for i, s in enumerate(scenarios, 1) for o in _outputs(i, s)]
    for k, a in enumerate(outputs):
        for b in outputs[k + 1:]:
            if a.run == b.run and a.key == b.key:
                continue  # a report and its own folder
            if not (a.holds(b) or b.holds(a)):
                continue
            if a.real == b.real and a.what == b.what:
                via = "" if a.shown == b.shown else f" ({a.shown} and {b.shown} are one path)"
                raise InputFileError(f"scenario file {path}: runs {a.run} and {b.run} both write {a.key} "
                                     f"{b.shown}{via}; give each run its own")
            how = "is the same path as" if a.real == b.real else "lies in" if b.holds(a) else "holds"
            whose = (lambda o: f"run {o.run}'s") if len(scenarios) > 1 else (lambda o: "its")
            raise InputFileError(f"scenario file {path}: {whose(a)} {a.what} {a.shown} {how} {whose(b)} "
                                 f"{b.what} {b.shown}: one would overwrite the other; give each its own path")


COUNT_FOLDER = "players-{}"  # a player_counts run's table directory of one count, in its out


def run_outputs(s: Scenario) -> list[tuple[Path | None, Path | None]]:
    """The (table directory, report) pairs a scenario run writes, to be checked
    before the first run plays: a ``player_counts`` run's out is the folder of
    its players-N run directories (checked here), each of which is checked as
    any run directory, so that the file runs again over its own last results."""
    if not s.player_counts or s.out is None:
        return [(s.out, s.report)]
    _check_counts_folder(s.out)
    return [(s.out / COUNT_FOLDER.format(n), None) for n in s.player_counts] + [(None, s.report)]


def _check_counts_folder(out: Path) -> None:
    import re

    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise AnalyzerError(f"{out} exists and is not a directory; a player_counts run writes its runs into "
                            "a directory (players-N in it)")
    if not out.is_dir():
        return
    pattern = re.compile(COUNT_FOLDER.format(r"[0-9]+"))
    other = sorted(e.name for e in out.iterdir()
                   if not (pattern.fullmatch(e.name) and e.is_dir() and not e.is_symlink()))
    if other:
        raise AnalyzerError(f"{out} holds {', '.join(other[:3])}{', ...' if len(other) > 3 else ''}: not a "
                            "player_counts run's players-N folders; choose an empty or new directory")
