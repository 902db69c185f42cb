"""Stream a run's tables to Parquet files in a run directory, all or nothing.

Everything is written into a hidden sibling directory and moved into place only
when the run finishes, so a run directory either holds a complete run (with a
``manifest.json`` saying so) or is left as it was: an interrupted run never
leaves half a result that looks like a whole one, and never destroys the
previous run it was meant to replace.
"""
import hashlib
import json
import os
import shutil
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from analyzer.errors import AnalyzerError

MANIFEST = "manifest.json"


def file_sha256(path) -> str:
    """First 16 hex digits of the SHA-256 of a file: enough to tell inputs apart."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


def _is_previous_run(directory: Path) -> bool:
    """True if ``directory`` holds nothing but what a run of ours writes."""
    return all(entry.is_file() and (entry.suffix == ".parquet" or entry.name == MANIFEST)
               for entry in directory.iterdir())


def _check_out_dir(out_dir: Path) -> None:
    if out_dir.is_dir():
        if not _is_previous_run(out_dir):
            raise AnalyzerError(f"{out_dir} is a directory with other files in it; "
                                "choose an empty or new directory")
    elif out_dir.exists() or out_dir.is_symlink():
        raise AnalyzerError(f"{out_dir} exists and is not a directory")


def _arrow(df: pd.DataFrame) -> pa.Table:
    return pa.Table.from_pandas(df, preserve_index=False)


class RunWriter:
    """``with RunWriter(out_dir, ["games", "seats"]) as w: w.write(...); w.finish(manifest)``."""

    def __init__(self, out_dir: Path, tables: list[str]):
        self.out_dir = Path(out_dir)
        self.tables = list(tables)
        # the pid keeps two runs aimed at the same directory out of each other's way
        self.partial_dir = self.out_dir.parent / f".{self.out_dir.name}.partial-{os.getpid()}"
        self._writers: dict[str, pq.ParquetWriter] = {}
        self._declared: dict[str, pa.Schema] = {}
        self._schemas: dict[str, pa.Schema] = {}  # of the tables being written
        self.rows = {table: 0 for table in self.tables}
        self._finished = False
        _check_out_dir(self.out_dir)  # fail before any game is played

    def __enter__(self) -> "RunWriter":
        try:
            self.out_dir.parent.mkdir(parents=True, exist_ok=True)
            if self.partial_dir.exists():  # left over by a killed run with our pid
                shutil.rmtree(self.partial_dir)
            self.partial_dir.mkdir()
        except OSError as e:
            raise AnalyzerError(f"cannot write to {self.out_dir}: {e.strerror or e}") from None
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if not self._finished:
            self._discard()

    def declare(self, table: str, empty: pd.DataFrame) -> None:
        """Give the schema to write ``table`` with if it gets no rows at all."""
        self._check_table(table)
        self._declared[table] = _arrow(empty.iloc[:0]).schema

    def write(self, table: str, df: pd.DataFrame) -> None:
        """Append the rows of ``df`` to ``table``; the first rows fix its schema."""
        self._check_table(table)
        if self._finished:
            raise RuntimeError("RunWriter.write() after finish()")
        if len(df) == 0:
            # rows-less chunks add nothing, but can stand in for a declaration
            self._declared.setdefault(table, _arrow(df).schema)
            return
        data = _arrow(df)
        writer = self._writers.get(table)
        if writer is None:
            writer = pq.ParquetWriter(self.partial_dir / f"{table}.parquet", data.schema)
            self._writers[table] = writer
            self._schemas[table] = data.schema
        else:
            schema = self._schemas[table]
            if set(data.column_names) != set(schema.names):
                raise ValueError(f"table {table!r}: columns {data.column_names} "
                                 f"do not match {schema.names}")
            data = data.select(schema.names).cast(schema)
        writer.write_table(data)
        self.rows[table] += len(df)

    def finish(self, manifest: dict) -> None:
        """Seal the run: write the manifest and move the run into ``out_dir``."""
        if self._finished:
            raise RuntimeError("RunWriter.finish() called twice")
        self._close_writers()
        for table in self.tables:
            if self.rows[table] == 0 and table in self._declared:
                pq.write_table(self._declared[table].empty_table(),
                               self.partial_dir / f"{table}.parquet")
        text = json.dumps(dict(manifest, complete=True), indent=2, sort_keys=True)
        (self.partial_dir / MANIFEST).write_text(text + "\n")
        self._swap_in()
        self._finished = True

    def _swap_in(self) -> None:
        # Check again: a directory that appeared or filled up during the run is
        # not ours to delete.
        _check_out_dir(self.out_dir)
        old = None
        if self.out_dir.exists():
            # Move the old run aside rather than deleting it first, so it can be
            # put back if the new one cannot be moved in.
            old = self.out_dir.parent / f".{self.out_dir.name}.old-{os.getpid()}"
            if old.exists():
                shutil.rmtree(old)
            os.rename(self.out_dir, old)
        try:
            os.rename(self.partial_dir, self.out_dir)
        except OSError as e:
            if old is not None:
                os.rename(old, self.out_dir)
            raise AnalyzerError(f"cannot write to {self.out_dir}: {e.strerror or e}") from None
        if old is not None:
            if old.is_symlink():  # out_dir was a link: drop the link, not its target
                old.unlink()
            else:
                shutil.rmtree(old, ignore_errors=True)

    def _check_table(self, table: str) -> None:
        if table not in self.rows:
            raise ValueError(f"unknown table {table!r}; this run has {self.tables}")

    def _close_writers(self) -> None:
        writers, self._writers = self._writers, {}
        for writer in writers.values():
            writer.close()

    def _discard(self) -> None:
        for writer in self._writers.values():
            try:
                writer.close()
            except Exception:
                pass  # the file is about to be deleted anyway
        self._writers = {}
        shutil.rmtree(self.partial_dir, ignore_errors=True)
