"""Scenario files: TOML describing one or more simulations to run with
``analyzer run FILE``.

    game = "GAME"                       # a game's name, as on the command line
    players = 4
    bots = "BOT,BOT,BOT,random"
    races = 1000000                     # or games = ... (the game's unit; the same key)
    seed = 1
    report = "reports/default.html"     # optional
    out = "runs/default"                # optional Parquet tables
    board = "boards/variant.toml"       # optional, relative to this file

Several runs in one file: ``[[run]]`` tables, each with the keys above; keys at
the top level are defaults for every run (e.g. to compare two boards).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from analyzer.engine.datafile import read_toml
from analyzer.errors import InputFileError

_KEYS = {"title", "game", "board", "players", "bots", "races", "games", "seed", "threads", "report", "out"}


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


def load_scenarios(path: Path) -> list[Scenario]:
    path = Path(path)
    data = read_toml(path, "scenario file")
    runs = data.pop("run", None)
    defaults = data
    if runs is None:
        runs = [{}]
    if not isinstance(runs, list) or not all(isinstance(r, dict) for r in runs):
        raise InputFileError(f"{path}: [[run]] must be a list of tables")
    return [_scenario({**defaults, **run}, path, i) for i, run in enumerate(runs, 1)]


def _scenario(d: dict, path: Path, index: int) -> Scenario:
    unknown = set(d) - _KEYS
    if unknown:
        raise InputFileError(f"{path}: run {index}: unknown key(s) {', '.join(sorted(unknown))} "
                             f"(known: {', '.join(sorted(_KEYS))})")
    if "game" not in d:
        raise InputFileError(f"{path}: run {index}: no game given")

    def typed(key, kind, default=None):
        value = d.get(key, default)
        if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
            what = {int: "whole number", str: "string"}[kind]
            raise InputFileError(f"{path}: run {index}: {key} must be a {what}, got {value!r}")
        return value

    if "races" in d and "games" in d:
        raise InputFileError(f"{path}: run {index}: give races or games, not both")
    count = "games" if "games" in d else "races"

    def relative(key):
        value = typed(key, str)
        return None if value is None else (path.parent / value if key == "board" else Path(value))

    return Scenario(typed("title", str), typed("game", str), relative("board"), typed("players", int),
                    typed("bots", str), typed(count, int, 100_000), typed("seed", int, 1),
                    typed("threads", int), relative("report"), relative("out"))
