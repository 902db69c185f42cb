"""Reading a run directory (``manifest.json`` + Parquet tables) for the report:
checks that it is a complete run of a game we can report on and streams its
tables in record batches, so memory stays bounded whatever the run's size."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pandas as pd

from analyzer.errors import AnalyzerError

MANIFEST = "manifest.json"
BATCH_ROWS = 1 << 19


def read_manifest(run_dir: Path) -> dict:
    """The manifest of a complete run of a game the analyzer knows."""
    run_dir = Path(run_dir)
    if not run_dir.exists():
        raise AnalyzerError(f"run directory {run_dir} does not exist")
    if not run_dir.is_dir():
        raise AnalyzerError(f"{run_dir} is not a directory (expected a run directory from 'analyzer simulate --out')")
    path = run_dir / MANIFEST
    if not path.is_file():
        raise AnalyzerError(f"{run_dir} has no {MANIFEST}: not a run directory from 'analyzer simulate --out'")
    try:
        manifest = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
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


def check_tables(run_dir: Path, tables) -> None:
    for table in tables:
        if not (Path(run_dir) / f"{table}.parquet").is_file():
            raise AnalyzerError(f"{run_dir} lacks the table {table}.parquet; the run is incomplete")


def stream_table(run_dir: Path, table: str, columns: list[str],
                 batch_rows: int = BATCH_ROWS) -> Iterator[pd.DataFrame]:
    """``table``'s rows in DataFrames of at most ``batch_rows`` rows (only ``columns``)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = Path(run_dir) / f"{table}.parquet"
    try:
        pf = pq.ParquetFile(path)
        missing = [c for c in columns if c not in pf.schema_arrow.names]
        if missing:
            raise AnalyzerError(f"{path} lacks the columns {', '.join(missing)}; "
                                "was it written by another version of analyzer?")
        for batch in pf.iter_batches(batch_size=batch_rows, columns=columns):
            yield batch.to_pandas()
    except (OSError, pa.ArrowException) as e:
        raise AnalyzerError(f"cannot read {path}: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None


def table_rows(run_dir: Path, table: str) -> int:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = Path(run_dir) / f"{table}.parquet"
    try:
        return pq.ParquetFile(path).metadata.num_rows
    except (OSError, pa.ArrowException) as e:
        raise AnalyzerError(f"cannot read {path}: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
