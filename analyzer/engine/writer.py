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
import threading
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from analyzer.engine.inputs import check_input, read_input
from analyzer.engine.manifest import MANIFEST  # the manifest's reader beside its writer
from analyzer.engine.output import check_parent, make_parents, remove_made, short_name, temp_path, utf8_text
from analyzer.errors import AnalyzerError, OutputError


def file_sha256(path) -> str:
    """First 16 hex digits of the SHA-256 of a file: enough to tell inputs apart."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


WRITTEN_BY = "analyzer"  # the manifest's mark that the directory is a run of ours


def is_run_manifest(manifest) -> bool:
    """True for the manifest of a complete run this program wrote (runs of
    earlier versions carry ``versions.analyzer`` rather than ``written_by``)."""
    if not isinstance(manifest, dict) or manifest.get("complete") is not True:
        return False
    versions = manifest.get("versions")
    return manifest.get("written_by") == WRITTEN_BY or (isinstance(versions, dict) and "analyzer" in versions)


def _is_previous_run(directory: Path) -> bool:
    """True if ``directory`` is empty, or is a run of ours: a manifest that says
    so and nothing but Parquet tables beside it. Parquet files alone may be the
    user's own: they are never taken for a run."""
    entries = list(directory.iterdir())
    if not entries:
        return True
    return _has_run_manifest(directory) and all(map(_is_run_file, entries))


def _is_run_file(entry: Path) -> bool:
    return entry.is_file() and (entry.suffix == ".parquet" or entry.name == MANIFEST)


def _has_run_manifest(directory: Path) -> bool:
    try:
        return is_run_manifest(json.loads(read_input(directory / MANIFEST, "run manifest")))
    except (AnalyzerError, ValueError):  # (a FIFO or a device is not opened: not a run of ours)
        return False


def check_out_dir(out_dir) -> None:
    """Refuse a run directory that cannot be written, before any race."""
    out_dir = Path(os.path.abspath(out_dir))
    utf8_text(out_dir, "--out")  # pyarrow writes the tables under UTF-8 names
    cwd = Path.cwd()
    if out_dir == cwd or out_dir in cwd.parents:
        raise AnalyzerError(f"--out {out_dir} is the current directory or holds it; "
                            "name a new directory for the run's tables")
    if out_dir.is_symlink():  # moving the run in would replace the link with a directory
        raise AnalyzerError(f"{out_dir} exists and is not a directory (a symbolic link); "
                            "name the directory itself or a new one")
    if out_dir.is_dir():
        if not _is_previous_run(out_dir):
            if _has_run_manifest(out_dir):
                extra = sorted(e.name for e in out_dir.iterdir() if not _is_run_file(e))
                raise AnalyzerError(f"{out_dir} is an analyzer run with other files put in it "
                                    f"({', '.join(extra[:3])}{', ...' if len(extra) > 3 else ''}); "
                                    "move them, or choose an empty or new directory")
            raise AnalyzerError(f"{out_dir} is a directory with other files in it and no analyzer "
                                "run manifest; choose an empty or new directory")
    elif out_dir.exists() or out_dir.is_symlink():
        raise AnalyzerError(f"{out_dir} exists and is not a directory")
    check_parent(out_dir, "the run's tables")


def _write_error(where, e: OSError) -> OutputError:
    """A failed write (full disk, lost permission) as one line; exit code 1:
    the input was fine, the machine could not take the output."""
    return OutputError(f"cannot write to {where}: {e.strerror or e}")


# The partial directories this process is writing now (their names: unique in
# the process, ``output.temp_path``), and the lock under which a writer makes
# its own and looks for another writer of its run directory.
_writing: set[str] = set()
_claim = threading.Lock()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, but another user's
    return True


def _arrow(df: pd.DataFrame) -> pa.Table:
    return pa.Table.from_pandas(df, preserve_index=False)


class RunWriter:
    """``with RunWriter(out_dir, ["games", "seats"]) as w: w.write(...); w.finish(manifest)``."""

    def __init__(self, out_dir: Path, tables: list[str]):
        # absolute, so that "." and ".." name the directory they stand for
        self.out_dir = Path(os.path.abspath(out_dir))
        self.tables = list(tables)
        # of this writer alone (pid and a count): two writers never share it
        self.partial_dir = temp_path(self.out_dir, "partial")
        self._writers: dict[str, pq.ParquetWriter] = {}
        self._declared: dict[str, pa.Schema] = {}
        self._schemas: dict[str, pa.Schema] = {}  # of the tables being written
        self.rows = {table: 0 for table in self.tables}
        self._finished = False
        self._made: list[Path] = []
        check_out_dir(self.out_dir)  # fail before any game is played

    def __enter__(self) -> "RunWriter":
        try:
            self._made = make_parents(self.out_dir)  # removed again if the run fails
            with _claim:
                self.partial_dir.mkdir()
                _writing.add(self.partial_dir.name)
                other = self._other_writer()
        except OSError as e:
            self._discard()
            raise _write_error(self.out_dir, e) from None
        if other is not None:
            self._discard()
            entry, pid = other
            who = "another thread of this process" if pid == os.getpid() else f"process {pid}"
            raise AnalyzerError(f"{self.out_dir} is being written by another run now ({who}, into {entry.name}); "
                                "wait for it to finish or choose another directory (remove that folder if "
                                "no such run is going on)")
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if not self._finished:
            self._discard()

    def _other_writer(self) -> tuple[Path, int] | None:
        """Another writer of this run directory, live now: its partial directory
        and process id. Two writers of one directory would both report a run
        where only the last one's tables are: the later one is refused (two
        processes starting at the very same moment may refuse each other).
        Partial directories of runs killed outright (SIGKILL, a power cut: no
        handler could clean up) are removed: their process is gone, or it is
        this one and no writer of it holds them; so is a previous run moved
        aside by a run killed before it removed it, once the new one is in
        place (killed between the two moves, it is the only copy: it stays)."""
        partial = f".{short_name(self.out_dir.name)}.partial-"
        old = f".{short_name(self.out_dir.name)}.old-"
        for entry in self.out_dir.parent.iterdir():
            prefix = next((p for p in (partial, old) if entry.name.startswith(p)), None)
            if entry.name == self.partial_dir.name or prefix is None:
                continue
            pid = entry.name[len(prefix):].split("-", 1)[0]  # PID-N (PID alone: an earlier version's)
            if not pid.isdecimal() or not entry.is_dir() or entry.is_symlink():
                continue
            if prefix == old:
                if self.out_dir.is_dir() and int(pid) != os.getpid() and not _alive(int(pid)):
                    shutil.rmtree(entry, ignore_errors=True)
                continue
            if entry.name in _writing if int(pid) == os.getpid() else _alive(int(pid)):
                return entry, int(pid)
            shutil.rmtree(entry, ignore_errors=True)
        return None

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
        try:
            self._write(table, _arrow(df))
        except OSError as e:
            raise _write_error(self.out_dir, e) from None
        self.rows[table] += len(df)

    def append_part(self, table: str, path: Path) -> None:
        """Append the rows of a Parquet part (written by a cluster worker into
        ``part_dir``) to ``table``, then delete the part: parts are appended in
        chunk order, so the table is the one a local run writes."""
        self._check_table(table)
        try:
            data = pq.read_table(utf8_text(path))
            if data.num_rows:
                self._write(table, data)
            else:
                self._declared.setdefault(table, data.schema)
            os.unlink(path)
        except OSError as e:
            raise _write_error(self.out_dir, e) from None
        self.rows[table] += data.num_rows

    @property
    def part_dir(self) -> Path:
        """Where cluster workers put their parts: inside the hidden partial
        directory, so an interrupted run removes them with it."""
        return self.partial_dir / ".parts"

    def _write(self, table: str, data: pa.Table) -> None:
        writer = self._writers.get(table)
        if writer is None:
            writer = pq.ParquetWriter(utf8_text(self.partial_dir / f"{table}.parquet"), data.schema)
            self._writers[table] = writer
            self._schemas[table] = data.schema
        else:
            schema = self._schemas[table]
            if set(data.column_names) != set(schema.names):
                raise ValueError(f"table {table!r}: columns {data.column_names} "
                                 f"do not match {schema.names}")
            data = data.select(schema.names).cast(schema)
        writer.write_table(data)

    def finish(self, manifest: dict) -> None:
        """Seal the run: write the manifest and move the run into ``out_dir``."""
        if self._finished:
            raise RuntimeError("RunWriter.finish() called twice")
        try:
            if self.part_dir.exists():
                shutil.rmtree(self.part_dir)  # every part has been appended
            self._close_writers()
            for table in self.tables:
                if self.rows[table] == 0 and table in self._declared:
                    pq.write_table(self._declared[table].empty_table(),
                                   utf8_text(self.partial_dir / f"{table}.parquet"))
            text = json.dumps(dict(manifest, complete=True, written_by=WRITTEN_BY), indent=2,
                              sort_keys=True)
            (self.partial_dir / MANIFEST).write_text(text + "\n")
        except OSError as e:
            raise _write_error(self.out_dir, e) from None
        self._swap_in()
        self._finished = True
        _writing.discard(self.partial_dir.name)

    def _swap_in(self) -> None:
        # Check again: a directory that appeared or filled up during the run is
        # not ours to delete.
        check_out_dir(self.out_dir)
        old = None
        if self.out_dir.exists():
            # Move the old run aside rather than deleting it first, so it can be
            # put back if the new one cannot be moved in.
            old = temp_path(self.out_dir, "old")  # of this writer alone
            os.rename(self.out_dir, old)
        try:
            os.rename(self.partial_dir, self.out_dir)
        except OSError as e:
            if old is not None:
                os.rename(old, self.out_dir)
            raise _write_error(self.out_dir, e) from None
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
        _writing.discard(self.partial_dir.name)
        remove_made(self._made)


def check_run_dir(run_dir) -> dict:
    """The manifest of a run directory to report on, checked: an analyzer run,
    complete, its manifest validated (``engine.manifest``: every key typed, and
    the unit, players, seats and roles agreeing), its tables agreeing with it
    (their rows with its count, their seats and bots with its seats) and its
    main table without duplicated rows. Raises ``AnalyzerError``; nothing is
    built from a run directory that does not pass."""
    from analyzer.engine.manifest import read_manifest

    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)  # exists, JSON, complete, a known game, validated
    _check_tables_agree(run_dir, manifest)
    _check_unique_rows(run_dir, manifest)
    _check_items(run_dir, manifest)
    return manifest


def _check_items(run_dir: Path, manifest: dict) -> None:
    """The race set (``engine.raceset``) is the run's: its count is the tables'."""
    from analyzer.engine.manifest import MANIFEST as NAME, count_of

    items, count = manifest.get("items"), count_of(manifest)
    if isinstance(items, dict) and items.get("count") != count:
        raise AnalyzerError(f"run manifest {run_dir / NAME}: items: the race set's count {items.get('count'):,} "
                            f"is not the run's {count:,} {manifest['unit']}")


def _parquet(path: Path, run_dir: Path) -> pq.ParquetFile:
    if not path.is_file():
        raise AnalyzerError(f"{run_dir} lacks the table {path.name}; the run is incomplete")
    try:
        return pq.ParquetFile(utf8_text(path))
    except (OSError, pa.ArrowException) as e:
        raise AnalyzerError(f"cannot read {path}: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None


def _seat_range(pf: pq.ParquetFile, path: Path) -> tuple[int, int] | None:
    """The smallest and largest seat of a table (from the Parquet statistics,
    else read), None when it has no rows."""
    column = pf.schema_arrow.get_field_index("seat")
    lows, highs = [], []
    for i in range(pf.metadata.num_row_groups):
        group = pf.metadata.row_group(i)
        if group.num_rows == 0:
            continue
        stats = group.column(column).statistics
        if stats is None or not stats.has_min_max:
            lows, highs = [], []
            break
        lows.append(int(stats.min))
        highs.append(int(stats.max))
    if not lows and pf.metadata.num_rows:
        import pyarrow.compute as pc

        lows, highs = [], []
        for batch in pf.iter_batches(columns=["seat"]):
            if batch.num_rows:
                lo_hi = pc.min_max(batch.column(0))
                lows.append(int(lo_hi["min"].as_py()))
                highs.append(int(lo_hi["max"].as_py()))
    return (min(lows), max(highs)) if lows else None


def _check_tables_agree(run_dir: Path, manifest: dict) -> None:
    """The tables hold what the manifest says: its count of races or games (the
    main table's rows), its seats (1 to the player count, every one) and each
    seat's bot and role. A manifest edited after the run (another player count,
    a bot list of another length or order) would otherwise be played or read
    against tables it does not describe."""
    from analyzer.engine.manifest import MANIFEST as NAME, count_of
    from analyzer.games import game_info

    stats = game_info(manifest["game"]).load("stats")
    where = f"run manifest {run_dir / NAME}"
    table, expected = stats.expected_rows(manifest)
    path = run_dir / f"{table}.parquet"
    found = _parquet(path, run_dir).metadata.num_rows
    if found != expected:
        raise AnalyzerError(f"{path} holds {found:,} rows but the manifest says {expected:,}; "
                            "the run directory is damaged")
    count = count_of(manifest)
    players = manifest["players"]
    seats = {b["seat"]: str(b["bot"]) for b in manifest["bots"]}
    roles = dict(enumerate(manifest.get("roles") or [], 1))
    most = 0
    for name, columns in stats.COLUMNS.items():
        path = run_dir / f"{name}.parquet"
        pf = _parquet(path, run_dir)
        names = pf.schema_arrow.names
        if "seat" not in names:
            continue
        try:
            span = _seat_range(pf, path)
        except (OSError, pa.ArrowException) as e:
            raise AnalyzerError(f"cannot read {path}: {str(e).splitlines()[0] if str(e) else type(e).__name__}") \
                from None
        if span is None:
            continue
        if span[0] < 1 or span[1] > players:
            raise AnalyzerError(f"{where}: players: {path.name} holds seats {span[0]} to {span[1]}, "
                                f"the manifest {players} players; the run directory is damaged")
        most = max(most, span[1])
        wanted = [c for c in ("seat", "bot", "role") if c in names]
        if len(wanted) == 1:
            continue
        # the first rows hold whole races (or games): every seat's bot and role
        try:
            first = next(pf.iter_batches(batch_size=4096, columns=wanted), None)
        except (OSError, pa.ArrowException) as e:
            raise AnalyzerError(f"cannot read {path}: {str(e).splitlines()[0] if str(e) else type(e).__name__}") \
                from None
        if first is None:
            continue
        rows = first.to_pandas().astype(str).drop_duplicates()
        for row in rows.itertuples(index=False):
            seat = int(row.seat)
            if "bot" in wanted and row.bot != seats.get(seat):
                raise AnalyzerError(f"{where}: bots: {path.name} has {row.bot!r} in seat {seat}, the manifest "
                                    f"{seats.get(seat)!r}; the run directory is damaged")
            if "role" in wanted and roles and row.role != roles.get(seat):
                raise AnalyzerError(f"{where}: roles: {path.name} has seat {seat} as {row.role}, the manifest "
                                    f"as {roles.get(seat)}; the run directory is damaged")
    if count and most and most != players:
        raise AnalyzerError(f"{where}: players: the tables hold seats 1 to {most}, the manifest {players} "
                            "players; the run directory is damaged")


KEY_COLUMNS = ("game", "race", "seat")  # what identifies a row in a game's main table


def _check_unique_rows(run_dir: Path, manifest: dict) -> None:
    """Duplicated rows (a table appended to itself, two runs pasted together)
    would count races twice: the main table's key columns must be unique."""
    from analyzer.games import game_info

    table, _ = game_info(manifest["game"]).load("stats").expected_rows(manifest)
    path = run_dir / f"{table}.parquet"
    check_input(path, "run table", limit=None)  # not a FIFO opened (it would wait for a writer)
    try:
        names = pq.ParquetFile(utf8_text(path)).schema_arrow.names
        keys = [c for c in KEY_COLUMNS if c in names]
        if not keys:
            return
        data = pq.read_table(utf8_text(path), columns=keys)
    except (OSError, pa.ArrowException) as e:
        raise AnalyzerError(f"cannot read {path}: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
    distinct = data.group_by(keys).aggregate([]).num_rows
    if distinct != data.num_rows:
        raise AnalyzerError(f"{path} holds {data.num_rows - distinct:,} duplicated rows "
                            f"(the same {', '.join(keys)} more than once); the run directory is damaged")
