"""A run directory's manifest (``manifest.json``), read back and checked: the
engine writes it (``engine.writer``) and reads it to check a run directory before
it is reported on (``writer.check_run_dir``); the report reads it through here
too (``report.rundir``)."""
from __future__ import annotations

import json
import os
from pathlib import Path

from analyzer.engine.inputs import read_input
from analyzer.errors import AnalyzerError

MANIFEST = "manifest.json"


def read_manifest(run_dir: Path) -> dict:
    """The manifest of a complete run of a game the analyzer knows."""
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
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise AnalyzerError(f"{path} cannot be read as JSON: {e}") from None
    if not isinstance(manifest, dict):
        raise AnalyzerError(f"{path} is not a run manifest (expected a JSON object)")
    if manifest.get("complete") is not True:
        raise AnalyzerError(f"{run_dir} holds an incomplete run ({MANIFEST} is not marked complete); "
                            "run the simulation again")
    from analyzer.games import names

    found = manifest.get("game")
    if found not in names():
        raise AnalyzerError(f"{run_dir} is a run of {found!r}, a game this analyzer does not know "
                            f"(known: {', '.join(names())})")
    return manifest
