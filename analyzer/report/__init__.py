"""The balance report of a run: ``build_report(run_dir)`` streams a run
directory's tables through the game's statistics and writes one self-contained
HTML file with its figures (PNG) and tables (CSV) in a folder beside it.

    from analyzer.report import build_report, write_report
    html = build_report(Path("runs/a"))                # -> runs/a-report.html
    write_report(stats.result(), manifest, out_path)   # from an in-memory aggregator
"""
from __future__ import annotations

from pathlib import Path

from analyzer.errors import AnalyzerError
from analyzer.report.html import files_dir, write_report

__all__ = ["build_report", "write_report", "default_report_path", "aggregate_run", "files_dir",
           "check_report_path"]


def check_report_path(out: Path) -> None:
    """Refuse, before any race is played, a report path that cannot be written."""
    out = Path(out)
    target = out / "report.html" if out.is_dir() else out
    parent = target.parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise AnalyzerError(f"cannot write the report to {out}: {parent} is not a directory")
    if target.exists() and not target.is_file():
        raise AnalyzerError(f"cannot write the report to {out}: it exists and is not a file")
    import os
    if not os.access(parent, os.W_OK):
        raise AnalyzerError(f"cannot write the report to {out}: {parent} is not writable")


def default_report_path(run_dir: Path) -> Path:
    """``<run_dir>-report.html`` beside the run directory: not inside it, so that a
    later ``simulate --out`` into the same directory still finds only its own files."""
    run_dir = Path(run_dir)
    return run_dir.parent / f"{run_dir.name}-report.html"


def aggregate_run(run_dir: Path, batch_rows: int | None = None):
    """Stream a run directory's tables through a fresh aggregator of its game:
    ``(stats, manifest)``. Raises ``AnalyzerError`` for a bad run directory."""
    from analyzer.games import game_info
    from analyzer.report import rundir

    run_dir = Path(run_dir)
    manifest = rundir.read_manifest(run_dir)
    info = game_info(str(manifest.get("game")))
    module = info.load("stats")
    columns = module.COLUMNS
    rundir.check_tables(run_dir, list(columns))
    stats = module.new_stats()
    table, expected = module.expected_rows(manifest)
    found = rundir.table_rows(run_dir, table)
    if found != expected:
        raise AnalyzerError(f"{run_dir}/{table}.parquet holds {found:,} rows but the manifest says "
                            f"{expected:,}; the run directory is damaged")
    kw = {"batch_rows": batch_rows} if batch_rows else {}
    for name, cols in columns.items():
        for df in rundir.stream_table(run_dir, name, list(cols), **kw):
            try:
                stats.add({name: df})
            except ValueError as e:
                raise AnalyzerError(f"{run_dir}/{name}.parquet: {e}") from None
    return stats, manifest


def build_report(run_dir: Path, out: Path | None = None) -> Path:
    """Write the balance report of the run in ``run_dir`` to ``out`` (default
    ``<run_dir>-report.html``) and return the HTML file's path."""
    stats, manifest = aggregate_run(run_dir)
    out = Path(out) if out is not None else default_report_path(Path(run_dir))
    return write_report(stats.result(), manifest, out)
