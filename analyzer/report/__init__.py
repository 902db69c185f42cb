"""The balance report of a run: ``build_report(run_dir)`` streams a run
directory's tables through the game's statistics and writes one self-contained
HTML file with its figures (PNG) and tables (CSV) in a folder beside it.

    from analyzer.report import build_report, write_report
    html = build_report(Path("runs/a"))                # -> runs/a-report.html
    write_report(stats.result(), manifest, out_path)   # from an in-memory aggregator
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from analyzer.engine.output import check_page
from analyzer.engine.raceset import plan_merge
from analyzer.engine.ruleset import rules_text
from analyzer.errors import AnalyzerError
from analyzer.report.html import files_dir, write_report

__all__ = ["build_report", "write_report", "default_report_path", "aggregate_run", "files_dir",
           "check_report_path"]


def check_report_path(out: Path, default_name: str = "report.html") -> None:
    """Refuse, before any race is played, a report path that cannot be written
    (engine/output.py: anything but a regular file there, a folder beside it
    that is not a report's)."""
    check_page(out, default_name, "the report")


def default_report_path(run_dir: Path) -> Path:
    """``<run_dir>-report.html`` beside the run directory: not inside it, so that a
    later ``simulate --out`` into the same directory still finds only its own files."""
    run_dir = Path(run_dir)
    if run_dir.name in ("", ".", ".."):  # "." or "..": name the folder it stands for, and go beside it
        run_dir = Path(os.path.abspath(run_dir))
    return run_dir.parent / f"{run_dir.name}-report.html"


def aggregate_run(run_dir: Path, batch_rows: int | None = None, stats=None, id_offset: int = 0):
    """Stream a run directory's tables through ``stats`` (default: a fresh
    aggregator of its game): ``(stats, manifest)``. A race's (or game's) rows
    are fed in one chunk, however the Parquet batches cut them, so statistics
    clustered by race see whole races. ``id_offset`` is added to the
    race or game index columns (the stats module's ``ID_COLUMNS``) so that several
    runs fed to one aggregator never share an index. Raises ``AnalyzerError`` for
    a bad run directory."""
    import pandas as pd

    from analyzer.games import game_info
    from analyzer.report import rundir

    run_dir = Path(run_dir)
    manifest = rundir.read_manifest(run_dir)
    info = game_info(str(manifest.get("game")))
    module = info.load("stats")
    columns = module.COLUMNS
    rundir.check_tables(run_dir, list(columns))
    stats = module.new_stats() if stats is None else stats
    table, expected = module.expected_rows(manifest)
    found = rundir.table_rows(run_dir, table)
    if found != expected:
        raise AnalyzerError(f"{run_dir}/{table}.parquet holds {found:,} rows but the manifest says "
                            f"{expected:,}; the run directory is damaged")
    kw = {"batch_rows": batch_rows} if batch_rows else {}
    def feed(name, df):
        try:
            stats.add({name: df})
        except ValueError as e:
            raise AnalyzerError(f"{run_dir}/{name}.parquet: {e}") from None

    for name, cols in columns.items():
        ids = [c for c in module.ID_COLUMNS if c in cols]
        carry = None  # the rows of the batch's last race (or game): it may go on in the next batch
        for df in rundir.stream_table(run_dir, name, list(cols), **kw):
            for col in ids:
                if id_offset:
                    df[col] = df[col] + id_offset
            if carry is not None:
                df = pd.concat([carry, df], ignore_index=True)
                carry = None
            if ids and len(df):
                key = df[ids[0]].to_numpy()
                tail = key == key[-1]
                carry, df = df[tail], df[~tail]
            if len(df):
                feed(name, df)
        if carry is not None and len(carry):
            feed(name, carry)
    return stats, manifest


def merge_manifests(manifests: list[dict], run_dirs: list[Path]) -> dict:
    """One manifest for a report over several runs of one game: counts added up,
    what differs between the runs listed per run, never silently taken from one."""
    if len(manifests) == 1:
        return manifests[0]
    games = {m.get("game") for m in manifests}
    if len(games) > 1:
        raise AnalyzerError(f"the runs are of different games ({', '.join(sorted(map(str, games)))}); "
                            "a report covers one game")
    first = manifests[0]
    unit = first.get("unit", "races")
    merged = {**first, unit: sum(int(m.get(unit, 0)) for m in manifests),
              "runs": [str(d) for d in run_dirs]}

    def per_run(key, show=str):
        values = [m.get(key) for m in manifests]
        if all(v == values[0] for v in values):
            return values[0]
        return "; ".join(f"{d.name}: {show(v)}" for d, v in zip(run_dirs, values))

    merged["players"] = per_run("players")
    merged["seed"] = per_run("seed")
    merged["created"] = per_run("created")
    shown = [_version(m) for m in manifests]  # each run's, never the first run's alone
    merged["versions"] = {**(first.get("versions") or {}), "analyzer": shown[0] if len(set(shown)) == 1 else
                          "; ".join(f"{d.name}: {v}" for d, v in zip(run_dirs, shown))}
    merged["bots_text"] = per_run("bots", lambda bots: ", ".join(str(b.get("bot")) for b in bots or []))
    data = {}
    for m in manifests:
        for d in m.get("data", []):
            data.setdefault((d.get("part"), d.get("sha256"), d.get("detail")), d)
    merged["data"] = list(data.values())
    return merged


BY = ("players", "board", "rules")


def _version(manifest: dict) -> str:
    versions = manifest.get("versions")
    return str(versions.get("analyzer", "?")) if isinstance(versions, dict) else "?"


def _bot_identity(b: dict) -> str:
    """A seat's bot as merges compare it: its label, and a bot file's content
    (the file is the bot: two runs of one bot name from different files, or
    from one file edited between them, are different bots)."""
    label = str(b.get("bot"))
    return f"{label} (file sha256 {str(b['sha256'])[:12]})" if b.get("sha256") else label


def run_identity(manifest: dict) -> dict[str, object]:
    """What two runs must share to be merged into one blended report: the
    board/deck/track (by digest), the player count, the bots seat by seat (bot
    files by content), the rules (the keys that differ from the box; a run
    written before runs named their rules played the box's) and the analyzer
    version (another version may play other races, or the same ones:
    CHANGES.md says which)."""
    rules = manifest.get("rules")
    return {
        "board": tuple((d.get("part"), d.get("name"), d.get("sha256")) for d in manifest.get("data", [])),
        "players": manifest.get("players"),
        "bots": tuple(_bot_identity(b) for b in manifest.get("bots") or []),
        "rules": (rules_text(rules), json.dumps(rules.get("changed") or {}, sort_keys=True)
                  if isinstance(rules, dict) else "{}"),
        "analyzer version": _version(manifest),
    }


def _describe(key: str, value) -> str:
    if key == "board":
        return " + ".join(f"{part} {name} ({str(sha)[:8]})" for part, name, sha in value)
    if key == "bots":
        return ",".join(value)
    if key == "rules":
        return f"rules {value[0]}"
    return str(value)


def check_mergeable(manifests: list[dict], run_dirs: list[Path], by: str | None) -> list[str]:
    """What differs between the runs (keys of ``run_identity``). Without ``by`` they
    must not differ; with ``by`` only that (and, for players, the bots, whose list
    follows the seats) may, and the analyzer version (side by side, each run
    shows its own). Raises one line saying what differs."""
    if by is not None and by not in BY:
        raise AnalyzerError(f"--by must be one of {', '.join(BY)}, got {by!r}")
    ids = [run_identity(m) for m in manifests]
    differ = [k for k in ids[0] if any(i[k] != ids[0][k] for i in ids[1:])]
    allowed = {None: set(), "board": {"board", "analyzer version"},
               "players": {"players", "bots", "analyzer version"}, "rules": {"rules", "analyzer version"}}[by]
    bad = [k for k in differ if k not in allowed]
    if bad:
        what = "; ".join(f"{k}: " + ", ".join(f"{d.name} {_describe(k, i[k])}" for d, i in zip(run_dirs, ids))
                         for k in bad)
        hint = ("report them one by one, or pass --by players, --by board or --by rules to show them side by side"
                if by is None else f"--by {by} lets only the {by} differ")
        raise AnalyzerError(f"the runs differ in {what}: {hint}")
    return differ


def build_report(run_dirs, out: Path | None = None, by: str | None = None,
                 min_effect: float | None = None, drop_duplicates: bool = False, strong: bool = False) -> Path:
    """Write the balance report of the run(s) in ``run_dirs`` to ``out`` (default
    ``<first run_dir>-report.html``) and return the HTML file's path.

    Several runs are merged into one report only when they share the board
    (deck, track), the player count and the bots (``check_mergeable``). With
    ``by`` ("players", "board" or "rules") the runs may differ in that, and the report
    shows every answer per run side by side instead of blending them.
    Merged runs must not share races (the same seed and setup, overlapping
    item ranges: ``engine.raceset``); with ``drop_duplicates`` a run whose
    races another run holds is left out, and the report says so.
    ``min_effect``: the flags' practical-size threshold (a share); ``strong``: the
    report under strong play (``write_report``)."""
    from analyzer.report import rundir

    run_dirs = [Path(run_dirs)] if isinstance(run_dirs, (str, Path)) else [Path(d) for d in run_dirs]
    manifests = [rundir.read_manifest(d) for d in run_dirs]
    merge_manifests(manifests, run_dirs)  # one game
    out = Path(out) if out is not None else default_report_path(run_dirs[0])
    if len(run_dirs) > 1:
        differ = check_mergeable(manifests, run_dirs, by)
        if by is not None:
            from analyzer.report.html import write_side_by_side

            runs = [(d, *aggregate_run(d)) for d in run_dirs]
            if min_effect is not None:
                runs = [(d, st, {**m, "min_effect": min_effect}) for d, st, m in runs]
            return write_side_by_side([(d, st.result(), m) for d, st, m in runs], by, differ, out)
    kept, dropped = plan_merge(manifests, run_dirs, drop_duplicates)
    run_dirs, manifests = [run_dirs[k] for k in kept], [manifests[k] for k in kept]
    stats, offset = None, 0
    for run_dir in run_dirs:
        stats, manifest = aggregate_run(run_dir, stats=stats, id_offset=offset)
        offset += int(manifest.get(manifest.get("unit", "races"), 0))
    manifest = merge_manifests(manifests, run_dirs)
    if dropped:
        manifest = {**manifest, "dropped": dropped}
    return write_report(stats.result(), manifest, out, min_effect=min_effect, strong=strong)
