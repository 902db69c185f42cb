"""A run directory's manifest (``manifest.json``), read back and checked: the
engine writes it (``engine.writer``) and reads it to check a run directory before
it is reported on (``writer.check_run_dir``); the report reads it through here
too (``report.rundir``).

A manifest is an input like any data file: a hand-edited or damaged one is
validated (``RunManifest``) before anything is built from it, and every problem
is one line naming the key. Besides each key's type, the keys must agree: the
unit is the game's, the player count one the game is played by, one bot per
seat numbered 1 to the player count, the seats' roles those of the game at that
count, the race set (``items``) the run's seed. Keys this version does not know
(a later version's) pass; the keys a report adds to a manifest in memory
(``REPORT_KEYS``) are refused in a file: they would change what the report
says about the run."""
from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path

from analyzer.engine.inputs import read_input
from analyzer.errors import AnalyzerError

MANIFEST = "manifest.json"
# what a report adds to a run's manifest in memory (merged runs, its options, what
# it played): never in a run directory's file
REPORT_KEYS = ("runs", "bots_text", "dropped", "min_effect", "strong", "interventions")


def read_manifest(run_dir: Path) -> dict:
    """The manifest of a complete run of a game the analyzer knows, validated
    (``RunManifest``): raises ``AnalyzerError`` of one line naming the key."""
    run_dir = Path(run_dir)
    if not run_dir.exists():
        raise AnalyzerError(f"run directory {run_dir} does not exist")
    if not run_dir.is_dir():
        raise AnalyzerError(f"{run_dir} is not a directory (expected a run directory from 'analyzer simulate --out')")
    path = run_dir / MANIFEST
    if not os.path.lexists(path):
        raise AnalyzerError(f"{run_dir} has no {MANIFEST}: not a run directory from 'analyzer simulate --out'")
    data = read_input(path, "run manifest")  # a regular file of bounded size, as every input
    try:
        manifest = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
        raise AnalyzerError(f"{path} cannot be read as JSON: {e}") from None
    if not isinstance(manifest, dict):
        raise AnalyzerError(f"{path} is not a run manifest (expected a JSON object)")
    if manifest.get("complete") is not True:
        raise AnalyzerError(f"{run_dir} holds an incomplete run ({MANIFEST} is not marked complete); "
                            "run the simulation again")
    from analyzer.games import names

    found = manifest.get("game")
    if not isinstance(found, str) or found not in names():
        raise AnalyzerError(f"{run_dir} is a run of {found!r}, a game this analyzer does not know "
                            f"(known: {', '.join(names())})")
    check_manifest(manifest, path)
    return manifest


def check_manifest(manifest: dict, path) -> None:
    """Validate a run's manifest (``RunManifest``); ``path`` names it in the error."""
    from analyzer.engine.datafile import validate

    validate(_model(), manifest, path, "run manifest")


def count_of(manifest: dict) -> int:
    """The races or games of a validated manifest."""
    return manifest[manifest["unit"]]


@cache
def _model():
    """The manifest's model, built at first use (pydantic loads only when a run
    directory is read)."""
    import re
    from typing import Annotated, Any, Literal

    from pydantic import AfterValidator, Field, StrictBool, StrictFloat, StrictInt, StrictStr, model_validator

    from analyzer.engine.datafile import FileModel, Name
    from analyzer.engine.limits import MAX_COUNT, MAX_PLAYERS, MAX_SEED
    from analyzer.games import game_info

    def hex_digest(value: str) -> str:
        if not re.fullmatch(r"[0-9a-f]{16,64}", value):
            raise ValueError(f"must be a sha256 digest in hex, got {value!r}")
        return value

    Digest = Annotated[StrictStr, AfterValidator(hex_digest)]
    Open = {**FileModel.model_config, "extra": "allow"}  # a later version's keys pass

    class Seat(FileModel):
        model_config = Open
        seat: StrictInt = Field(ge=1, le=MAX_PLAYERS)
        bot: Name
        family: StrictStr | None = None
        source: StrictStr | None = None
        params: dict[StrictStr, StrictFloat | StrictInt] | None = None
        sha256: Digest | None = None  # a bot file's content (a user .py or a bot .toml)

    class DataPart(FileModel):
        model_config = Open
        part: Name
        name: StrictStr
        source: StrictStr | None = None
        assumed: StrictBool
        sha256: StrictStr
        detail: StrictStr | None = None

    class Items(FileModel):
        seed: StrictInt = Field(ge=0, le=MAX_SEED)
        first: StrictInt = Field(ge=0, le=MAX_COUNT)
        count: StrictInt = Field(ge=0, le=MAX_COUNT)
        setup: StrictStr

    class RunManifest(FileModel):
        model_config = Open
        complete: Literal[True]
        game: StrictStr
        unit: StrictStr
        seed: StrictInt = Field(ge=0, le=MAX_SEED)
        players: StrictInt = Field(ge=1, le=MAX_PLAYERS)
        bots: list[Seat] = Field(min_length=1)
        data: list[DataPart] = Field(min_length=1)
        roles: list[StrictStr] | None = None
        variant: StrictStr | None = None
        title: StrictStr | None = None
        created: StrictStr | None = None
        versions: dict[StrictStr, StrictStr] | None = None
        items: Items | None = None
        threads: StrictInt | None = None
        chunk_size: StrictInt | None = None
        summary: dict[StrictStr, Any] | None = None
        cluster: dict[StrictStr, Any] | None = None

        @model_validator(mode="after")
        def _agree(self):
            extra = self.model_extra or {}
            for key in REPORT_KEYS:
                if key in extra:
                    raise ValueError(f"{key}: a report's own key, not a run's; a run directory's manifest "
                                     "does not hold it")
            info = game_info(self.game)
            if self.unit != info.unit:
                raise ValueError(f"unit: {info.title} counts {info.unit}, got {self.unit!r}")
            count = extra.get(self.unit)
            if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_COUNT:
                raise ValueError(f"{self.unit}: must be a whole number from 0 to {MAX_COUNT:,}, got {count!r}")
            fewest, most = info.player_counts
            if not fewest <= self.players <= most:
                raise ValueError(f"players: {info.title} is played by "
                                 f"{info.player_counts_text or f'{fewest}-{most}'} players, got {self.players}")
            if len(self.bots) != self.players:
                raise ValueError(f"bots: {len(self.bots)} seats for {self.players} players (one bot a seat)")
            seats = [b.seat for b in self.bots]
            if seats != list(range(1, self.players + 1)):
                raise ValueError(f"bots: the seats must be 1 to {self.players} in order, got "
                                 f"{', '.join(map(str, seats))}")
            if self.roles is not None:
                roles = [str(r) for r in info.load("match").seat_roles(self.players)]
                if list(self.roles) != roles:
                    raise ValueError(f"roles: {info.title} at {self.players} players seats "
                                     f"{', '.join(roles)}, got {', '.join(self.roles) or 'none'}")
            parts = [d.part for d in self.data]
            if len(set(parts)) != len(parts):
                raise ValueError(f"data: a part is listed twice ({', '.join(parts)})")
            for part in parts:  # the game's own description of a part (its board, map...) is a table
                if part in extra and not isinstance(extra[part], dict):
                    raise ValueError(f"{part}: must be a table, got {extra[part]!r}")
            if self.items is not None and self.items.seed != self.seed:
                raise ValueError(f"items: the race set's seed {self.items.seed} is not the run's seed {self.seed}")
            return self

    return RunManifest


def check_bot_file(manifest: dict, seat: dict) -> str:
    """Why a run's bot file (a seat's ``source``) cannot be played again as it
    was, or "": it must be there and hold what the run played (its ``sha256``)."""
    from analyzer.engine.botfamily import file_digest

    source = str(seat.get("source"))
    recorded = seat.get("sha256")
    if not recorded:
        return (f"the run does not record the content of its bot file {source} (a run of an older version), "
                "so it cannot be played again as it was")
    try:
        found = file_digest(source)
    except OSError:
        return f"the bot file {source} of the run is not there any more"
    if found != recorded:
        return f"the bot file {source} changed since the run"
    return ""


