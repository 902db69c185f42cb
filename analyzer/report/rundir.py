"""Reading a run directory (``manifest.json`` + Parquet tables) for the report:
checks that it is a complete run of a game we can report on and streams its
tables in record batches, so memory stays bounded whatever the run's size."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pandas as pd

from analyzer.engine.manifest import read_manifest  # noqa: F401  (read beside its writer, in the engine)
from analyzer.errors import AnalyzerError

BATCH_ROWS = 1 << 19


def check_tables(run_dir: Path, tables) -> None:
    """Every table is there, a regular file (a FIFO would wait for a writer when opened)."""
    from analyzer.engine.inputs import check_input

    for table in tables:
        path = Path(run_dir) / f"{table}.parquet"
        if not (path.exists() or path.is_symlink()):
            raise AnalyzerError(f"{run_dir} lacks the table {table}.parquet; the run is incomplete")
        check_input(path, "run table", limit=None)


def stream_table(run_dir: Path, table: str, columns: list[str],
                 batch_rows: int = BATCH_ROWS) -> Iterator[pd.DataFrame]:
    """``table``'s rows in DataFrames of at most ``batch_rows`` rows (only ``columns``)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from analyzer.engine.output import utf8_text

    path = Path(run_dir) / f"{table}.parquet"
    try:
        pf = pq.ParquetFile(utf8_text(path))
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

    from analyzer.engine.output import utf8_text

    path = Path(run_dir) / f"{table}.parquet"
    try:
        return pq.ParquetFile(utf8_text(path)).metadata.num_rows
    except (OSError, pa.ArrowException) as e:
        raise AnalyzerError(f"cannot read {path}: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
