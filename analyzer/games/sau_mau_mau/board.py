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
from typing import Any

from pydantic import Field, field_validator

from analyzer.engine.datafile import FileModel, Name, content_digest, counts_as_assumed, read_toml, validate
from analyzer.errors import InputFileError
from analyzer.games.sau_mau_mau.layout import MAX_PLAYERS, MIN_PLAYERS

MAX_CROWN = 1000  # far beyond any printed board; keeps races finite


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


class _TrackTable(FileModel):
    name: Name | None = None
    note: str | None = None
    assumed: bool = False
    crown: Any = Field(default=None, validate_default=True)

    @field_validator("crown")
    @classmethod
    def _crown(cls, crown):
        if not isinstance(crown, dict):
            raise ValueError("no [track.crown] table (crown space per player count)")
        out = {}
        for key, value in crown.items():
            # ASCII digits only: "²" is a digit to str.isdigit but no number
            if not (key.isascii() and key.isdecimal() and MIN_PLAYERS <= int(key) <= MAX_PLAYERS):
                raise ValueError(f"unknown player count {key!r} in [track.crown] "
                                 f"(known: {MIN_PLAYERS}-{MAX_PLAYERS})")
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"crown for {key} players must be a positive whole number, not {value!r}")
            if value > MAX_CROWN:
                raise ValueError(f"crown for {key} players is {value}, at most {MAX_CROWN} is supported")
            out[int(key)] = value
        missing = [n for n in range(MIN_PLAYERS, MAX_PLAYERS + 1) if n not in out]
        if missing:
            raise ValueError(f"[track.crown] lacks player count(s) {', '.join(map(str, missing))}")
        return dict(sorted(out.items()))


class _TrackFile(FileModel):
    track: Any = Field(default=None, validate_default=True)

    @field_validator("track")
    @classmethod
    def _track(cls, track):
        if not isinstance(track, dict):
            raise ValueError("no [track] table")
        return _TrackTable.model_validate(track)


def parse_track(data: dict, where: str) -> Track:
    table = validate(_TrackFile, data, where, "track file").track
    return Track(name=table.name or Path(where).stem, crown=table.crown, assumed=table.assumed, source=where)


def load_track(path: str | Path | None = None) -> Track:
    """The track of a file, or the shipped assumed default. A file equal to the
    default is still the assumed default, whatever its name."""
    default_path = default_track_path()
    default = parse_track(_read_toml(default_path), str(default_path))
    if path is None:
        return default
    path = Path(path)
    track = parse_track(_read_toml(path), str(path))
    return Track(track.name, track.crown, counts_as_assumed(track.assumed, track.crown, default.crown),
                 track.source)
