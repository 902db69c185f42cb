"""Whole-process benchmark of the ``analyzer`` console script (``make bench``).

Every figure comes from running the installed console script as a subprocess and
timing it from outside: start-up, imports, numba cache loading and the summary
are all included. Before each timed run the same command is run once untimed
with a small race count, which loads (or fills) the numba cache; compiled code
does not depend on the race count. The numba cache is keyed by a hash of the
sources each kernel is compiled from, so an edit to one of them between the
warm-up and the timed run can force a recompile inside the timed run.
That shows as a large time outside the simulation loop (wall time minus the
seconds on the tool's ``speed:`` line); when the sources changed and that time
is over COMPILE_SUSPECT, the pair is repeated (up to 3 times) and a row still
affected is marked. Peak memory is the child's own max RSS, from
os.wait4. It is a report, not a test: the exit code is 0 even on a MISS (1 only
if a command itself failed).

    python -m analyzer.bench            # full run, a few minutes on 2 cores
    python -m analyzer.bench --quick    # small race counts, a sanity check
    python -m analyzer.bench --only compile  # first contact: cold compiles, a fresh `make run`
    python -m analyzer.bench --only ladder   # each search bot's strength against its budget
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from analyzer.games import BenchStrength

ROOT = Path(__file__).resolve().parent.parent  # the checkout: sims/ and the example bots
WARM_RACES = 1_000
# race counts of the flagship's measures: full run, --quick (each game's throughput
# rows and their counts and targets are the game's own: ``GameInfo.bench``)
RACES = {
    "memory": (10_000_000, 1_000_000),
    "out": (1_000_000, 100_000),
    "report": (1_000_000, 100_000),
    "report_memory": (10_000_000, 500_000),
    "compare": (1_000_000, 100_000),
    "lookahead": (2_000, 300),
    "lookahead_strength": (10_000, 1_000),
    "cluster": (5_000_000, 500_000),
}
TARGET_REPORT = 60.0         # seconds for simulate + report of 1M races, less than
TARGET_CLUSTER = 0.85        # share of the in-process races/s a local:2 cluster reaches, at least
TARGET_COMPARE = 30.0        # seconds for a 1M-race paired comparison, less than
TARGET_STARTUP = 3.0         # seconds, less than
TARGET_COLD_RUN = 180.0      # seconds of a fresh machine's `make run` (empty kernel cache), at most
TARGET_COLD_RUN_MEMORY = 2.5e9  # bytes of its peak resident memory (the largest process), at most
TARGET_USER_BOT_START = 30.0  # seconds from a plain user bot's first `simulate` to its first game, at most
TARGET_BALANCE = 600.0       # seconds of a shipped balance search (sims/balance-<game>.toml), at most
TARGET_MEMORY = 1.5e9        # bytes of max RSS, less than
COMPILE_SUSPECT = 5.0       # seconds outside the simulation loop that hint at a recompile
SPEED = re.compile(r"^speed: ([\d,]+) (?:races|games)/s \(([\d.]+) s", re.M)
SIDE_TURNS = re.compile(r"([\d.,]+) side turns")  # side turns per item, from a summary that prints them


@dataclass
class Run:
    """One finished subprocess, measured from outside."""
    argv: list[str]
    seconds: float        # wall time of the whole process
    max_rss: int          # bytes
    cpu_seconds: float    # user + system, all threads
    returncode: int
    stdout: str
    stderr: str
    sources_changed: bool = False  # package edited between warm-up and the end of this run

    @property
    def tool_rate(self) -> float | None:
        """The races/s the tool prints on its ``speed:`` line (simulation loop only)."""
        m = SPEED.search(self.stdout)
        return float(m.group(1).replace(",", "")) if m else None

    @property
    def outside_loop(self) -> float:
        """Wall time not spent in the simulation loop: start-up, imports, numba
        cache loading (or compiling), summary. All of it for a run without a loop."""
        m = SPEED.search(self.stdout)
        return self.seconds - float(m.group(2)) if m else self.seconds

    @property
    def recompiled(self) -> bool:
        return self.sources_changed and self.outside_loop > COMPILE_SUSPECT

    @property
    def cores(self) -> float:
        """Average number of busy cores; below nproc for a threaded run hints at
        other work competing for the machine."""
        return self.cpu_seconds / self.seconds if self.seconds else 0.0


@dataclass
class Row:
    name: str
    figure: str
    target: str = ""
    ok: bool | None = None  # None: informative, no target
    detail: str = ""
    error: bool = False

    @property
    def result(self) -> str:
        return "ERROR" if self.error else "info" if self.ok is None else "PASS" if self.ok else "MISS"


class CommandFailed(Exception):
    pass


def console_script() -> str:
    script = Path(sys.executable).with_name("analyzer")
    found = str(script) if script.exists() else shutil.which("analyzer")
    if not found:
        raise SystemExit("bench: the analyzer console script is not installed (run `make install`)")
    return found


def run(args: list[str]) -> Run:
    """Run ``analyzer *args`` to the end; wall time, max RSS and CPU time of that child alone."""
    argv = [console_script(), *args]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        out.seek(0)
        err.seek(0)
        result = Run(argv, seconds, usage.ru_maxrss * 1024, usage.ru_utime + usage.ru_stime,
                     proc.returncode, out.read().decode(errors="replace"), err.read().decode(errors="replace"))
    if result.returncode != 0:
        tail = "\n".join(result.stderr.strip().splitlines()[-5:])
        raise CommandFailed(f"`{' '.join(['analyzer', *args])}` exited with {result.returncode}: {tail}")
    return result


def flagship() -> str:
    """The game the run-wide measures (memory, --out, report, compare) use: the first listed."""
    from analyzer.games import names

    return names()[0]


def simulate_args(bots: str | None, races: int, *extra: str, game: str | None = None) -> list[str]:
    game = game or flagship()
    args = ["simulate", game, "--races", str(races)]
    if bots is not None:
        args += ["--bots", bots]
    return args + list(extra)


def sources_stamp() -> list[tuple[str, int]]:
    """Names and mtimes of the package's sources: what the numba cache key depends on."""
    stamp = []
    for path in sorted(Path(__file__).resolve().parent.rglob("*.py")):
        try:
            stamp.append((str(path), path.stat().st_mtime_ns))
        except OSError:  # deleted meanwhile
            pass
    return stamp


def warm_then_time(warm_args: list[str], args: list[str], attempts: int = 3) -> Run:
    """Run ``warm_args`` untimed (fills/loads the numba cache), then time ``args``;
    repeat the pair if the package sources changed meanwhile (new numba cache key)
    and the timed run looks like it compiled."""
    for _ in range(attempts):
        before = sources_stamp()
        run(warm_args)
        r = run(args)
        r.sources_changed = sources_stamp() != before
        if not r.recompiled:
            break
    return r


def timed_simulation(bots: str | None, races: int, *extra: str, game: str | None = None,
                     warm: int = WARM_RACES) -> Run:
    """Warm with a small run of the same command (``warm`` races), then time the real one."""
    return warm_then_time(simulate_args(bots, warm, *extra, game=game),
                          simulate_args(bots, races, *extra, game=game))


def note(r: Run) -> str:
    if r.recompiled:
        return "; SOURCES CHANGED during the run, numba probably recompiled: figure not valid"
    return "; sources changed during the run (no recompile seen)" if r.sources_changed else ""


def rate_row(name: str, r: Run, races: int, target: float | None, unit: str = "races",
             model: float | None = None) -> Row:
    rate = races / r.seconds
    tool = r.tool_rate
    detail = f"{races:,} {unit} in {r.seconds:.2f} s ({r.outside_loop:.2f} s outside the loop)"
    if tool:
        detail += f"; tool's speed: line {tool:,.0f}/s; {r.cores:.1f} cores busy"
    if model:
        detail += f"; cost model {model:,.0f}/s (docs/performance.md)"
    return Row(name, f"{rate:,.0f} {unit}/s", f">= {target:,.0f}" if target else "",
               rate >= target if target else None, detail + note(r))


def measure_throughput(quick: bool, only_game: str | None = None) -> list[Row]:
    """Every game's declared tables (``GameInfo.bench``), no --out: races or games
    per second of whole-process wall time, against the game's own targets."""
    from analyzer.games import infos

    rows = []
    for info in infos():
        if only_game is not None and info.name != only_game:
            continue
        measured = {}
        for table in info.bench:
            count = table.counts[quick]
            extra = ("--players", str(table.players)) if table.players else ()
            r = timed_simulation(table.bots, count, *extra, game=info.name)
            rows.append(rate_row(f"{info.name} {table.label}", r, count, table.target, info.unit,
                                 table.model))
            measured[table.label] = (r, count)
        for table in info.bench:
            if table.versus in measured and table.label in measured:
                rows.append(versus_row(info.name, table, measured[table.label], measured[table.versus], info.unit))
    return rows


def side_turns(r: Run) -> float | None:
    """Side turns per item from the summary a run printed (None: it prints none)."""
    m = SIDE_TURNS.search(r.stdout)
    return float(m.group(1).replace(",", "")) if m else None


def versus_row(game: str, table, mine: tuple[Run, int], other: tuple[Run, int], unit: str) -> Row:
    """A table against another of its game measured in the same run (``BenchTable.versus``):
    its items/s as a share of the other's, and its wall time per side turn (both on the
    same threads) as a multiple of the other's, side turns per item read from each run's
    summary. Passes if either target is met."""
    (r, count), (r0, count0) = mine, other
    rate, rate0 = count / r.seconds, count0 / r0.seconds
    share = rate / rate0
    turns, turns0 = side_turns(r), side_turns(r0)
    name = f"{game} {table.label} vs {table.versus}"
    targets = [f">= {table.share_target:.0%} per {unit[:-1]}" if table.share_target else "",
               f"<= {table.turn_target:.1f}x per side turn" if table.turn_target and turns else ""]
    ok = table.share_target is not None and share >= table.share_target
    if turns and turns0:
        per_turn, per_turn0 = 1e6 / (rate * turns), 1e6 / (rate0 * turns0)
        multiple = per_turn / per_turn0
        ok = ok or (table.turn_target is not None and multiple <= table.turn_target)
        figure = f"{share:.1%} per {unit[:-1]}, {multiple:.2f}x per side turn"
        detail = (f"{rate:,.0f} against {rate0:,.0f} {unit}/s; {turns:.1f} against {turns0:.1f} side turns a "
                  f"{unit[:-1]} ({turns / turns0:.1f}x longer): {per_turn:.2f} against {per_turn0:.2f} us of wall "
                  f"per side turn")
    else:
        figure = f"{share:.1%} per {unit[:-1]}"
        detail = f"{rate:,.0f} against {rate0:,.0f} {unit}/s"
    target = " or ".join(x for x in targets if x)
    return Row(name, figure, target, ok if target else None, detail + note(r) + note(r0))


def cold_run(args: list[str], env: dict | None = None) -> Run:
    """``analyzer *args`` on an empty kernel cache (a new ``NUMBA_CACHE_DIR``,
    removed after): what a fresh install pays, compiles included."""
    with tempfile.TemporaryDirectory(prefix="analyzer-bench-cache-") as cache:
        saved = os.environ.get("NUMBA_CACHE_DIR")
        os.environ["NUMBA_CACHE_DIR"] = cache
        try:
            return run(args)
        finally:
            if saved is None:
                del os.environ["NUMBA_CACHE_DIR"]
            else:
                os.environ["NUMBA_CACHE_DIR"] = saved


def compile_jobs(game: str) -> list:
    """The compile jobs of a ``simulate --report`` of the game's default table
    (``api.compile_jobs``): each kernel a ``make run`` of it compiles, once
    (several controlled tables share a kernel)."""
    from analyzer import api
    from analyzer.games import game_info

    info = game_info(game)
    match = api.match_for(info, info.load("match"), info.default_players, None, None)
    jobs, seen = [], set()
    for job in api.compile_jobs(match, True, True):
        if job.key() not in seen:
            seen.add(job.key())
            jobs.append(job)
    return jobs


def _compile_job(game: str, index: int) -> None:
    """``python -m analyzer.bench --compile-job GAME INDEX``: job INDEX of
    ``compile_jobs(GAME)``, in this process (the bench measures it from outside)."""
    compile_jobs(game)[index].call()


def measure_compile(quick: bool) -> list[Row]:
    """First contact, on an empty kernel cache each: every kernel a ``make run``
    of each game compiles (time and peak memory, one process each), a plain
    user bot's first ``simulate`` (time to its first game), each game's first
    ``replay``, and the whole of ``make run`` (its scenario, reports written to
    a temporary folder)."""
    from analyzer.games import infos, registry

    rows = []
    for info in infos():
        for index, job in enumerate(compile_jobs(info.name)):
            r = cold_run_python(["-m", "analyzer.bench", "--compile-job", info.name, str(index)])
            rows.append(Row(f"cold compile: {job.label}", f"{r.seconds:.0f} s",
                            detail=f"peak {r.max_rss / 1e9:.2f} GB; kernels "
                                   + ", ".join(k.py_func.__qualname__ for k in job.kernels)))
    for info in infos():
        example = getattr(getattr(registry(info.name), "view", None), "example", "")
        if not example:
            continue
        bots = ",".join([str(ROOT / example)] + ["random"] * (info.default_players - 1))
        r = cold_run(simulate_args(bots, 1_000, "--no-progress", game=info.name))
        start = r.outside_loop
        rows.append(Row(f"cold start, plain user bot: {info.name}", f"{start:.1f} s",
                        f"<= {TARGET_USER_BOT_START:.0f} s", start <= TARGET_USER_BOT_START,
                        f"{Path(example).name} and random bots, 1,000 {info.unit}: {r.seconds:.1f} s in all, "
                        f"peak {r.max_rss / 1e9:.2f} GB"))
    for info in infos():
        # a replay's first call: the game's traced kernel, cold
        r = cold_run(["replay", info.name, "--players", str(info.default_players), "--seed", "1"])
        rows.append(Row(f"cold replay: {info.name}", f"{r.seconds:.1f} s", detail=f"its default table's first "
                        f"{info.unit[:-1]}, {len(r.stdout.splitlines()):,} lines; peak {r.max_rss / 1e9:.2f} GB"))
    if not quick:
        with tempfile.TemporaryDirectory(prefix="analyzer-bench-") as tmp:
            scenario = Path(tmp) / "default.toml"
            text = (ROOT / "sims" / "default.toml").read_text(encoding="utf-8")
            scenario.write_text(text.replace('report = "../reports/', f'report = "{tmp}/'), encoding="utf-8")
            r = cold_run(["run", str(scenario), "--no-progress"])
        ok = r.seconds <= TARGET_COLD_RUN and r.max_rss <= TARGET_COLD_RUN_MEMORY
        rows.append(Row("cold `make run` (analyzer run sims/default.toml, empty kernel cache)", f"{r.seconds:.0f} s",
                        f"<= {TARGET_COLD_RUN:.0f} s, <= {TARGET_COLD_RUN_MEMORY / 1e9:.1f} GB", ok,
                        f"peak {r.max_rss / 1e9:.2f} GB (the largest process); {r.cores:.1f} cores busy"))
    return rows


def cold_run_python(args: list[str]) -> Run:
    """``python *args`` (this interpreter) on an empty kernel cache, measured as ``run``."""
    with tempfile.TemporaryDirectory(prefix="analyzer-bench-cache-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            start = time.perf_counter()
            proc = subprocess.Popen([sys.executable, *args], stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                    env=env)
            _, status, usage = os.wait4(proc.pid, 0)
            seconds = time.perf_counter() - start
            proc.returncode = os.waitstatus_to_exitcode(status)
            err.seek(0)
            result = Run([sys.executable, *args], seconds, usage.ru_maxrss * 1024,
                         usage.ru_utime + usage.ru_stime, proc.returncode, "", err.read().decode(errors="replace"))
    if result.returncode != 0:
        tail = "\n".join(result.stderr.strip().splitlines()[-5:])
        raise CommandFailed(f"`python {' '.join(args)}` exited with {result.returncode}: {tail}")
    return result


def measure_startup() -> list[Row]:
    """Wall time of the second invocation of a tiny command."""
    rows = []
    for args in (simulate_args(None, 1_000), ["--help"]):
        r = warm_then_time(args, args)
        rows.append(Row("startup: analyzer " + " ".join(args), f"{r.seconds:.2f} s",
                        f"< {TARGET_STARTUP:.0f} s", r.seconds < TARGET_STARTUP,
                        f"max RSS {r.max_rss / 1e6:,.0f} MB" + note(r)))
    return rows


def measure_memory(races: int) -> list[Row]:
    """Peak memory (max RSS of the child) of a large random-bot run, and its wall time."""
    r = timed_simulation("random", races)
    return [Row(f"peak memory, {races:,} races", f"{r.max_rss / 1e9:.2f} GB",
                f"< {TARGET_MEMORY / 1e9:.1f} GB", r.max_rss < TARGET_MEMORY,
                f"wall {r.seconds:.2f} s ({races / r.seconds:,.0f} races/s)" + note(r))]


def measure_out(races: int) -> list[Row]:
    """Default bot table writing Parquet tables (--out): informative, no target."""
    with tempfile.TemporaryDirectory(prefix="analyzer-bench-") as tmp:
        r = warm_then_time(simulate_args(None, WARM_RACES, "--out", f"{tmp}/warm"),
                           simulate_args(None, races, "--out", f"{tmp}/run"))
    row = rate_row("with --out (Parquet), default table", r, races, None)
    row.detail += f"; max RSS {r.max_rss / 1e9:.2f} GB"
    return [row]


def measure_report(races: int) -> list[Row]:
    """simulate --report for the default table: wall time (target for 1M races)."""
    with tempfile.TemporaryDirectory(prefix="analyzer-bench-") as tmp:
        r = warm_then_time(simulate_args(None, WARM_RACES, "--report", f"{tmp}/warm.html"),
                           simulate_args(None, races, "--report", f"{tmp}/report.html"))
    target = TARGET_REPORT * races / 1_000_000
    return [Row(f"report, {races:,} races (simulate --report)", f"{r.seconds:.1f} s",
                f"< {target:.0f} s", r.seconds < target,
                f"max RSS {r.max_rss / 1e9:.2f} GB" + note(r))]


def measure_report_memory(races: int) -> list[Row]:
    """Peak memory of simulate --report over many races: aggregation stays bounded."""
    with tempfile.TemporaryDirectory(prefix="analyzer-bench-") as tmp:
        r = warm_then_time(simulate_args("random", WARM_RACES, "--report", f"{tmp}/warm.html"),
                           simulate_args("random", races, "--report", f"{tmp}/report.html"))
    return [Row(f"report peak memory, {races:,} races", f"{r.max_rss / 1e9:.2f} GB",
                f"< {TARGET_MEMORY / 1e9:.1f} GB", r.max_rss < TARGET_MEMORY,
                f"wall {r.seconds:.1f} s" + note(r))]


def measure_compare(races: int) -> list[Row]:
    """Paired comparison of two heuristic bots, both arms, seats rotated."""
    args = ["compare", flagship(), "--bot", "favourite", "--vs", "timer", "--races"]
    r = warm_then_time(args + [str(WARM_RACES)], args + [str(races)])
    target = TARGET_COMPARE * races / 1_000_000
    return [Row(f"compare favourite vs timer, {races:,} races per arm", f"{r.seconds:.1f} s",
                f"< {target:.0f} s", r.seconds < target, f"{2 * races / r.seconds:,.0f} races/s" + note(r))]


def measure_cluster(races: int) -> list[Row]:
    """The default table in-process, then on a LocalCluster of 2 worker processes
    (--cluster local:2): the races/s of the tool's speed line (the simulation
    loop: the cluster's start-up and the workers' kernel loading are outside it)."""
    here = timed_simulation(None, races)
    there = timed_simulation(None, races, "--cluster", "local:2")
    if not here.tool_rate or not there.tool_rate:
        return [Row(f"--cluster local:2, {races:,} races", "failed", "", False,
                    (there.stderr or here.stderr).strip()[-200:])]
    share = there.tool_rate / here.tool_rate
    return [Row(f"--cluster local:2 vs in-process, {races:,} races", f"{share:.0%}",
                f">= {TARGET_CLUSTER:.0%}", share >= TARGET_CLUSTER,
                f"{there.tool_rate:,.0f} against {here.tool_rate:,.0f} races/s; cluster wall {there.seconds:.1f} s "
                f"(start-up included), in-process {here.seconds:.1f} s" + note(here) + note(there))]


def measure_lookahead(races: int) -> list[Row]:
    """CPU time per decision of each game's slow bot (``GameInfo.bench_cost_bot``,
    default parameters) against random bots."""
    from analyzer.games import infos

    rows = []
    for info in infos():
        if info.bench_cost_bot:
            rows += measure_decision_cost(info.name, info.bench_cost_bot, info.default_players, races,
                                          info.bench_cost_target)
    return rows


WIN_RATE = re.compile(r"^win rate .*?([+-][\d.]+) pp \(([+-][\d.]+) to ([+-][\d.]+)\)", re.M)


def parse_win_difference(stdout: str) -> tuple[float, float, float] | None:
    """The paired win-rate difference A - B and its 95% interval (pp) of ``compare``'s output."""
    m = WIN_RATE.search(stdout)
    return (float(m.group(1)), float(m.group(2)), float(m.group(3))) if m else None


def strength_row(measured: tuple[float, float, float], races: int, game: str, bot: str,
                 strength: BenchStrength) -> Row:
    """PASS when the measured difference is not significantly below the reference:
    measured - reference >= -1.96 * sqrt(se_measured^2 + se_reference^2), the
    standard errors read from the 95% half-widths (a stronger bot passes too)."""
    diff, lo, hi = measured
    ref, ref_lo, ref_hi = strength.reference
    se = ((hi - lo) / 3.92) ** 2 + ((ref_hi - ref_lo) / 3.92) ** 2
    margin = 1.96 * se ** 0.5
    inside = ref_lo <= diff <= ref_hi
    return Row(f"{game} {bot} strength, {races:,} races per arm",
               f"{diff:+.2f} pp ({lo:+.2f} to {hi:+.2f})",
               f">= {ref:+.2f} - {margin:.2f} pp", diff - ref >= -margin,
               f"{strength.what}; reference {ref:+.2f} pp ({ref_lo:+.2f} to {ref_hi:+.2f}), measured "
               f"{'inside' if inside else 'outside'} its interval")


def measure_lookahead_strength(races: int) -> list[Row]:
    """Each game's slow bot against its recorded strength (``GameInfo.bench_strength``)."""
    from analyzer.games import infos

    rows = []
    for info in infos():
        strength = info.bench_strength
        if strength is None:
            continue
        r = warm_then_time(["compare", info.name, *strength.compare, "--races", "200", "--no-progress"],
                           ["compare", info.name, *strength.compare, "--races", str(races), "--no-progress"])
        measured = parse_win_difference(r.stdout)
        if r.returncode != 0 or measured is None:
            rows.append(Row(f"{info.name} {info.bench_cost_bot} strength", "failed", "", False,
                            r.stderr.strip()[-200:], error=True))
            continue
        row = strength_row(measured, races, info.name, str(info.bench_cost_bot), strength)
        row.detail += f"; {r.seconds:.0f} s" + note(r)
        rows.append(row)
    return rows


LADDER = (0.5, 1, 2, 5)  # the strength ladder's budgets, as multiples of the search bot's default


def ladder_budgets(default: int) -> list[int]:
    """The budgets of a search bot's ladder: half, once, twice and five times its default."""
    return list(dict.fromkeys(max(1, round(default * m)) for m in LADDER))


def measure_ladder(quick: bool) -> list[Row]:
    """Each game's search bot (``GameInfo.search``) at the ladder's budgets against
    the game's best heuristic in its default table: paired win-rate difference
    (``compare``, seats rotated, the same seed for every budget) and time per
    decision (against random bots, one thread, a tenth of the games: wall time of
    the loop, so a loaded machine inflates it). Informative: it shows where more
    search stops buying strength."""
    from analyzer.games import infos, search_budget

    rows = []
    for info in infos():
        search = info.search
        if search is None:
            rows.append(Row(f"{info.name} ladder", "-", detail="no search bot declared (GameInfo.search)"))
            continue
        default, count = search_budget(info), search.counts[quick]
        for budget in ladder_budgets(default):
            bot = f"{search.bot}:{search.budget}={budget}"
            args = ["compare", info.name, "--bot", bot, "--vs", search.best, "--field", search.field,
                    *search.compare, "--seed", "1", "--no-progress", "--races"]
            r = warm_then_time(args + ["20"], args + [str(count)])
            measured = parse_win_difference(r.stdout)
            name = f"{info.name} ladder {bot}{' (default)' if budget == default else ''}"
            if measured is None:
                rows.append(Row(name, "failed", detail=r.stderr.strip()[-200:], error=True))
                continue
            # warmed by 20 items: a search bot's cost is in its games, not its start
            cost = measure_decision_cost(info.name, bot, info.default_players, max(count // 10, 20), warm=20)[0]
            diff, lo, hi = measured
            rows.append(Row(name, f"{diff:+.2f} pp ({lo:+.2f} to {hi:+.2f})", detail=(
                f"win rate A - {search.best}, paired 95% CI, field {search.field}, {count:,} {info.unit} per arm, "
                f"seed 1 ({r.seconds:.0f} s); {cost.figure} a decision ({cost.detail})" + note(r))))
    return rows


def measure_decision_cost(game: str, bot: str, players: int, races: int,
                          target: float | None = None, warm: int = WARM_RACES) -> list[Row]:
    import pandas as pd

    from analyzer.games import game_info

    bots = ",".join([bot] + ["random"] * (players - 1))
    with tempfile.TemporaryDirectory(prefix="analyzer-bench-") as tmp:
        r = timed_simulation(bots, races, "--out", f"{tmp}/run", "--threads", "1", game=game, warm=warm)
        run = Path(tmp) / "run"
        seats = pd.read_parquet(run / ("players.parquet" if (run / "players.parquet").exists() else "sides.parquet"))
    mine = seats[seats.bot == bot]
    if "decisions" in seats:
        decisions, what = int(mine.decisions.sum()), "decisions"
    elif "side_turns" in seats:  # a game of sides (sides.parquet): its search bot searches a turn's move
        decisions, what = int(mine.side_turns.sum()), "turns (one searched move at most each)"
    else:  # a game that counts no decisions: its search bot searches one decision a turn
        decisions, what = int((mine.moves + mine.refills).sum()), "turns (one searched decision each)"
    loop = r.seconds - r.outside_loop
    cost = loop / decisions * 1e6
    return [Row(f"{game} {bot} bot, cost per decision", f"{cost:,.0f} us",
                f"<= {target:.0f} us" if target else "", cost <= target if target else None,
                f"{decisions:,} {what} in {races:,} {game_info(game).unit}, one thread, {loop:.1f} s" + note(r))]


def measure_sprt(reps: int) -> list[Row]:
    """The SPRT of compare --sprt 0,1 on simulated paired results (its decision reads
    only the sums at each look, so this is the same test): error rates and races."""
    import numpy as np

    from analyzer.engine.compare import Sprt

    test = Sprt.from_pp(0, 1)
    rows = []
    for name, (up, down), nominal, wrong in (("H0 true (0 pp)", (0.15, 0.15), test.alpha, "H1"),
                                             ("H1 true (+1 pp)", (0.155, 0.145), test.beta, "H0")):
        verdicts, races = test.simulate(up, down, reps, 2_000_000, seed=1)
        err = verdicts.count(wrong) / reps
        rows.append(Row(f"SPRT --sprt 0,1, {name}", f"{err:.1%} wrong", f"<= {nominal + 0.01:.0%}",
                        err <= nominal + 0.01,
                        f"{reps} simulated tests, a look every {test.look:,} races, 30% of races decide the "
                        f"pair: expected {races.mean():,.0f} races per arm (median {np.median(races):,.0f})"))
    return rows


BALANCE_LINE = re.compile(r"^variants: .*\(([\d,]+) measured of ([\d,]+); ([\d,]+) games\)", re.M)
BALANCE_SPACE = 1_000  # the shipped balance searches of at least this many variants are benched


def measure_balance(quick: bool) -> list[Row]:
    """Each shipped balance search of a large space run whole (kernels warm: the
    same file at 10,000 games first): its wall time against the 10-minute
    target, the variants it measured a minute and its cost per candidate (games
    and seconds). ``--quick`` runs the same file at a tenth of its budget."""
    import tempfile
    import tomllib

    from analyzer.balance import load_balance

    rows = []
    for path in sorted((ROOT / "sims").glob("balance-*.toml")):
        if load_balance(path).size < BALANCE_SPACE:
            continue
        game = path.stem.removeprefix("balance-")
        with tempfile.TemporaryDirectory() as tmp:
            text = path.read_text()
            budget = tomllib.loads(text)["budget"]

            def with_budget(n: int, name: str) -> Path:
                copy = Path(tmp) / name
                copy.write_text(re.sub(r"(?m)^budget = .*$", f"budget = {n}", text))
                return copy

            warm = with_budget(10_000, "warm.toml")  # the same kernels, a few games
            spec = with_budget(max(10_000, budget // 10), path.name) if quick else path
            try:
                run(["balance", str(warm), "--out", str(Path(tmp) / "warm")])  # every kernel it plays, compiled
                r = run(["balance", str(spec), "--out", str(Path(tmp) / "out"), "--no-progress"])
            except CommandFailed as e:
                rows.append(Row(f"balance {game}", "failed", "", False, str(e)[-200:], error=True))
                continue
            m = BALANCE_LINE.search(r.stdout)
            if m is None:
                rows.append(Row(f"balance {game}", "failed", "", False, r.stdout.strip()[-200:], error=True))
                continue
            measured, size, games = (int(g.replace(",", "")) for g in m.groups())
            per_minute = measured / (r.seconds / 60)
            rows.append(Row(f"balance {path.name}{' (a tenth of its budget)' if quick else ''}",
                            f"{per_minute:,.0f} variants/min", f"whole search <= {TARGET_BALANCE:.0f} s",
                            r.seconds <= TARGET_BALANCE,
                            f"{measured:,} of {size:,} variants measured, {games:,} games in {r.seconds:.0f} s; "
                            f"a candidate {games / measured:,.0f} games, {r.seconds / measured:.2f} s"))
    return rows


MEASURES = {
    "compile": measure_compile,
    "throughput": lambda quick: measure_throughput(quick),
    "startup": lambda quick: measure_startup(),
    "memory": lambda quick: measure_memory(RACES["memory"][quick]),
    "out": lambda quick: measure_out(RACES["out"][quick]),
    "report": lambda quick: measure_report(RACES["report"][quick]),
    "report_memory": lambda quick: measure_report_memory(RACES["report_memory"][quick]),
    "compare": lambda quick: measure_compare(RACES["compare"][quick]),
    "lookahead": lambda quick: (measure_lookahead(RACES["lookahead"][quick])
                                + measure_lookahead_strength(RACES["lookahead_strength"][quick])),
    "ladder": measure_ladder,
    "sprt": lambda quick: measure_sprt(200 if quick else 1000),
    "cluster": lambda quick: measure_cluster(RACES["cluster"][quick]),
    "balance": measure_balance,
}


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def render(rows: list[Row]) -> str:
    head = ("measure", "figure", "target", "result", "detail")
    cells = [head] + [(r.name, r.figure, r.target, r.result, r.detail) for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(4)]
    lines = ["  ".join(c[i].ljust(widths[i]) if i != 1 else c[i].rjust(widths[i]) for i in range(4)) + "  " + c[4]
             for c in cells]
    lines.insert(1, "-" * max(len(line) for line in lines))
    return "\n".join(line.rstrip() for line in lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analyzer.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small race counts: a fast sanity run")
    parser.add_argument("--only", choices=list(MEASURES), action="append",
                        help="run only this measure (repeatable)")
    parser.add_argument("--compile-job", nargs=2, metavar=("GAME", "INDEX"), help=argparse.SUPPRESS)
    opts = parser.parse_args(argv)
    if opts.compile_job:
        _compile_job(opts.compile_job[0], int(opts.compile_job[1]))
        return 0

    nproc = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    from analyzer.games import names

    print(f"analyzer bench: {', '.join(names())}, whole process via {console_script()}"
          f"{' (--quick: small race counts)' if opts.quick else ''}")
    print(f"date: {datetime.datetime.now().astimezone().isoformat(timespec='seconds')}")
    print(f"machine: nproc {nproc}, CPU {cpu_model()}, Python {platform.python_version()}")
    print(f"load average at start: {load()}", flush=True)

    rows: list[Row] = []
    for name in opts.only or list(MEASURES):
        print(f"  running {name} ...", file=sys.stderr, flush=True)
        try:
            rows += MEASURES[name](opts.quick)
        except CommandFailed as e:
            rows.append(Row(name, "-", detail=str(e), error=True))
    print(f"load average at end:   {load()}")
    print()
    print(render(rows))
    print()
    print("'cores busy' is CPU time / wall time of the child; well under nproc, or a high load "
          "average at start, means other work shared the machine and the figures are noisy.")
    return 1 if any(r.error for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
