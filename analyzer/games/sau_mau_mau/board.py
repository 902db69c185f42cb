"""Loading and validating a Sau Mau Mau track (the crown position per player
count) from TOML.

Format (see ``data/assumed-default.toml``): a ``[track]`` table with optional
``name``, ``note`` and ``assumed``, and a ``[track.crown]`` table mapping every
player count 2-5 to the space of the laurel crown (a positive whole number).
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from analyzer.engine.datafile import content_digest, read_toml
from analyzer.errors import InputFileError
from analyzer.games.sau_mau_mau.layout import MAX_PLAYERS, MIN_PLAYERS

MAX_CROWN = 1000  # far beyond any printed board; keeps races finite
TRACK_KEYS = {"name", "note", "assumed", "crown"}


def default_track_path() -> Path:
    return Path(str(resources.files("analyzer.games.sau_mau_mau") / "data" / "assumed-default.toml"))


@dataclass(frozen=True)
class Track:
    name: str
    crown: dict[int, int]  # player count -> crown space
    assumed: bool
    source: str

    def digest(self) -> str:
        return content_digest({"crown": {str(k): v for k, v in self.crown.items()}})

    def crown_for(self, players: int) -> int:
        if players not in self.crown:
            raise InputFileError(
                f"{self.source}: no crown position for {players} players "
                f"(Sau Mau Mau is played by {MIN_PLAYERS}-{MAX_PLAYERS})")
        return self.crown[players]


def _read_toml(path: Path) -> dict:
    return read_toml(path, "track file")


def parse_track(data: dict, where: str) -> Track:
    unknown = set(data) - {"track"}
    if unknown:
        raise InputFileError(f"{where}: unknown table(s) {', '.join(sorted(unknown))} (expected [track])")
    table = data.get("track")
    if not isinstance(table, dict):
        raise InputFileError(f"{where}: no [track] table")
    unknown = set(table) - TRACK_KEYS
    if unknown:
        raise InputFileError(
            f"{where}: unknown key(s) in [track]: {', '.join(sorted(unknown))} "
            f"(known: {', '.join(sorted(TRACK_KEYS))})")
    crown = table.get("crown")
    if not isinstance(crown, dict):
        raise InputFileError(f"{where}: no [track.crown] table (crown space per player count)")
    out = {}
    for key, value in crown.items():
        if not (key.isdigit() and MIN_PLAYERS <= int(key) <= MAX_PLAYERS):
            raise InputFileError(
                f"{where}: unknown player count {key!r} in [track.crown] (known: {MIN_PLAYERS}-{MAX_PLAYERS})")
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise InputFileError(f"{where}: crown for {key} players must be a positive whole number, not {value!r}")
        if value > MAX_CROWN:
            raise InputFileError(f"{where}: crown for {key} players is {value}, at most {MAX_CROWN} is supported")
        out[int(key)] = value
    missing = [n for n in range(MIN_PLAYERS, MAX_PLAYERS + 1) if n not in out]
    if missing:
        raise InputFileError(
            f"{where}: [track.crown] lacks player count(s) {', '.join(map(str, missing))}")
    assumed = table.get("assumed", False)
    if not isinstance(assumed, bool):
        raise InputFileError(f"{where}: assumed must be true or false")
    name = table.get("name", Path(where).stem)
    if not isinstance(name, str):
        raise InputFileError(f"{where}: name must be a string")
    return Track(name=name, crown=dict(sorted(out.items())), assumed=assumed, source=where)


def load_track(path: str | Path | None = None) -> Track:
    """The track of a file, or the shipped assumed default. A file equal to the
    default is still the assumed default, whatever its name."""
    default_path = default_track_path()
    default = parse_track(_read_toml(default_path), str(default_path))
    if path is None:
        return default
    path = Path(path)
    track = parse_track(_read_toml(path), str(path))
    if track.crown == default.crown and not track.assumed:
        track = Track(track.name, track.crown, True, track.source)
    return track
