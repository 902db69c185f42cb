"""The Python API, for notebooks and scripts; the command line is a thin layer
over it (``analyzer/cli.py``).

    import analyzer
    analyzer.games()             # the games' names (docs/games.md shows each game's bots)
    run = analyzer.simulate(GAME, races=20_000, bots=["BOT", "random"] * 2, seed=7)
    run.summary                  # the game's summary object; print(run) shows it as the CLI does
    run.tables["players"]        # every table of `--out`, as pandas DataFrames
    run.manifest                 # seed, board and deck (with hashes, assumed or not), bots, versions
    run.report("reports/x.html") # the balance report

    duel = analyzer.compare(GAME, "BOT_A", "BOT_B", games=20_000)
    duel.table                   # win rate and mean score of A and B, A - B with 95% intervals
    cup = analyzer.tournament(GAME, ["random", "BOT_A", "BOT_B"], races=12_000)
    cup.ratings                  # Elo with intervals, win rate, mean score per bot
    step = analyzer.replay(GAME, 12, seed=7)  # race (or game) 12 of that run, move by move

Bad input raises ``analyzer.errors.AnalyzerError`` (a ``BotError`` for bots,
an ``InputFileError`` for data files) with a one-line message, before any race
is played.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from analyzer.errors import AnalyzerError

if TYPE_CHECKING:
    import pandas as pd

BotList = str | Sequence[str]

__all__ = ["simulate", "compare", "tournament", "report_runs", "scorecard_text", "replay", "balance", "Run",
           "Comparison", "Tournament", "games"]


def games() -> list[str]:
    """The games the analyzer plays, as named on the command line."""
    from analyzer.games import names

    return names()


# ------------------------------------------------------------------ options

def _bot_text(bots: BotList | None, option: str) -> str | None:
    if bots is None or isinstance(bots, str):
        return bots
    if not isinstance(bots, (list, tuple)) or not all(isinstance(b, str) for b in bots):
        raise AnalyzerError(f"{option} must be a comma list or a list of bot names, got {bots!r}")
    return ",".join(bots)


def _bot_list(bots: BotList | None, option: str) -> str:
    """A bot list that must be given (a tournament's bots)."""
    text = _bot_text(bots, option)
    if text is None:
        raise AnalyzerError(f"{option} must be a comma list or a list of bot names, got None")
    return text


def _count(races: int | None, games_: int | None, default: int, unit_option: str = "--races") -> int:
    races, games_ = _whole(races, unit_option), _whole(games_, unit_option)
    if races is not None and games_ is not None and races != games_:
        raise AnalyzerError("give races or games, not both")
    return races if races is not None else games_ if games_ is not None else default


def _whole(value, option: str, required: bool = False):
    """One rule for every whole-number argument: an integral number of any
    numeric type (``100``, ``100.0``, ``np.int64(100)``) is taken as an int;
    anything else (a fraction, a bool, a string; None where a value is
    required) is refused in one line."""
    import numbers

    if value is None and not required:
        return None
    if not isinstance(value, bool) and isinstance(value, numbers.Integral):
        return int(value)
    if (not isinstance(value, bool) and isinstance(value, numbers.Real) and math.isfinite(value)
            and float(value).is_integer()):
        return int(value)
    raise AnalyzerError(f"{option} must be a whole number, got {value!r}")


def _real(value, option: str) -> float:
    """A finite number of any numeric type (not a bool, not a string): one line
    naming the option otherwise."""
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise AnalyzerError(f"{option} must be a number, got {value!r}")
    return float(value)


def game_setup(game: str, players: int | None, threads: int | None):
    """The game's match class, the player count and threads, bounded before any list is built."""
    from analyzer.engine.simulate import check_players, default_threads
    from analyzer.games import game_info

    info = game_info(game)
    players = _whole(players, "--players")
    players = info.default_players if players is None else players
    check_players(players)
    fewest, most = info.player_counts
    if not fewest <= players <= most:  # before any seat list is built (a game of roles has seats for these only)
        raise AnalyzerError(f"--players must be {info.player_counts_text or f'{fewest}-{most}'} for {info.title}, "
                            f"got {players}")
    threads = _whole(threads, "--threads")
    threads = default_threads() if threads is None else threads  # bounded by check_run_options
    return info, info.load("match"), players, threads


def _path(value, option: str, required: bool = False) -> Path | None:
    if value is None and not required:
        return None
    if not isinstance(value, (str, os.PathLike)):
        raise AnalyzerError(f"{option} must be a path, got {value!r}")
    return Path(value)


def rules_for(game: str, rules=None, rule: Sequence[str] = ()):
    """The rules a run of ``game`` plays (``analyzer.engine.ruleset.Rules``):
    ``rules`` a rules file (a path to a TOML file holding a ``[rules]``
    table), a dict of ``KEY: VALUE``, or a ``Rules`` of the game; ``rule``:
    ``"KEY=VALUE"`` texts after it (``--rule``). None and none: the box's.
    Bad rules raise ``AnalyzerError`` (one line naming the key, the value and
    what is allowed) before any game is played."""
    from analyzer.engine.ruleset import Rules
    from analyzer.games import game_info, rules_of

    ruleset = rules_of(game_info(game).name)
    if isinstance(rule, str):
        rule = [rule]
    if not isinstance(rule, (list, tuple)) or not all(isinstance(r, str) for r in rule):
        raise AnalyzerError(f"rule must be a list of KEY=VALUE texts, got {rule!r}")
    if isinstance(rules, Rules):
        if rules.ruleset != ruleset:
            raise AnalyzerError(f"the rules given are {rules.ruleset.title}'s, not {ruleset.title}'s")
        return ruleset.read(None, rule, base=rules.changed()) if rule else rules
    if isinstance(rules, dict):
        ruleset.rules(rules, where="rules")  # a bad key or value named as the API's argument
        return ruleset.read(None, rule, base=rules)
    if rules is None or isinstance(rules, (str, os.PathLike)):
        return ruleset.read(rules, rule)
    raise AnalyzerError(f"rules must be a rules file's path, a dict of KEY: VALUE or a Rules, got {rules!r}")


def cluster_session(cluster):
    """A context giving the cluster session for ``cluster``: None (play in this
    process), an open session (kept open), or an address to connect to (and
    disconnect from on leaving)."""
    import contextlib

    if cluster is None:
        return contextlib.nullcontext(None)
    from analyzer.engine.cluster import Session, check_address, connect

    if isinstance(cluster, Session):
        return contextlib.nullcontext(cluster)
    address = check_address(cluster)
    return _local_session(address) if address.startswith("local:") else connect(address)


def _local_session(address: str):
    """``connect`` to a local cluster, quietly: its scheduler serves HTTP on
    Dask's default port and, when another program holds that port, takes
    another one after a four-line warning that tells the user nothing; and its
    processes' multiprocessing objects (semaphores) are collected once it is
    closed, before the command exits without finalisers (``cli.console``),
    so that multiprocessing's resource tracker has no leaked ones to report
    (two lines on stderr, after the end or a SIGTERM)."""
    import contextlib
    import gc
    import warnings

    from analyzer.engine.cluster import connect

    warnings.filterwarnings("ignore", message=r"Port \d+ is already in use", category=UserWarning)

    @contextlib.contextmanager
    def session():
        try:
            with connect(address) as s:
                yield s
        except (KeyboardInterrupt, AnalyzerError) as e:
            # a stop or a one-line error: its traceback would keep the closed
            # cluster's objects alive past the collection (neither is shown)
            e.with_traceback(None)
            gc.collect()
            raise
        gc.collect()

    return session()


# ------------------------------------------------------------------ reports

def check_outputs(runs) -> None:
    """Refuse, before any of them is played, the outputs of several runs
    (``(out, report)`` pairs, either None) that cannot be written."""
    from analyzer.engine.writer import check_out_dir
    from analyzer.report import check_report_path

    for out, report in runs:
        if out is not None:
            check_out_dir(out)
        if report is not None:
            check_report_path(report)


def scorecard_text(html) -> str:
    """The scorecard of the report at ``html`` as text, as the command line prints it
    before the report's path ("" for a page without one)."""
    from analyzer.report.html import scorecard_text as read

    return read(Path(html))


def report_runs(run_dirs, out=None, *, by: str | None = None, min_effect: float | None = None,
                drop_duplicates: bool = False, strong: bool = False) -> Path:
    """The balance report of one or more run directories (``simulate(out=...)``)
    of one game, merged when they share board, players and bots; ``by``
    ("players" or "board") shows runs that differ in it side by side;
    ``min_effect``: the flags' practical-size threshold in percentage points
    (default 1). Runs holding the same races (same seed and setup) are refused
    (``AnalyzerError``) unless ``drop_duplicates``, which keeps each race once
    and says so in the report. ``strong``: the report under strong play, its
    controlled tables a strength ladder from random to the game's search bot
    (not with ``by``). Returns the HTML file's path."""
    from analyzer.engine.writer import check_run_dir
    from analyzer.report import BY, build_report, check_report_path, default_report_path

    if isinstance(run_dirs, (str, os.PathLike)):
        run_dirs = [run_dirs]
    if not isinstance(run_dirs, (list, tuple)) or not all(isinstance(d, (str, os.PathLike)) for d in run_dirs):
        raise AnalyzerError(f"the run directories must be a path or a list of paths, got {run_dirs!r}")
    dirs = [Path(d) for d in run_dirs]
    if not dirs:
        raise AnalyzerError("no run directory given")
    if by is not None and by not in BY:  # the report's own list: players, board, rules
        raise AnalyzerError(f"--by must be one of {', '.join(BY)}, got {by!r}")
    if strong and by is not None:
        raise AnalyzerError("--strong does not go with --by (a side-by-side report plays no controlled tables)")
    if min_effect is not None:
        min_effect = _real(min_effect, "--min-effect")
    seen: dict[str, Path] = {}
    for d in dirs:
        key = os.path.realpath(d)
        if key in seen:
            raise AnalyzerError(f"run directory {d} is given twice (as {seen[key]}); each run counts once")
        seen[key] = d
    for d in dirs:
        check_run_dir(d)
    out = _path(out, "--report") or default_report_path(dirs[0])
    check_report_path(out)
    if min_effect is not None and not 0 <= float(min_effect) < 100:
        raise AnalyzerError(f"--min-effect is in percentage points between 0 and 100, got {min_effect:g}")
    share = None if min_effect is None else float(min_effect) / 100
    return build_report(dirs, out, by, share, drop_duplicates, strong=bool(strong))


# ------------------------------------------------------------------ simulate

class _Collector:
    """Stands in for a report aggregator in the simulate loop: keeps each
    chunk's tables (and forwards them to the aggregator, if any)."""

    def __init__(self, stats=None):
        self.chunks: list[dict] = []
        self.stats = stats

    def add(self, tables: dict) -> None:
        self.chunks.append(tables)
        if self.stats is not None:
            self.stats.add(tables)


@dataclass
class Run:
    """A finished simulation: its summary, manifest, tables and report."""
    game: str
    summary: object
    manifest: dict
    seconds: float
    out: Path | None = None
    text: str = ""  # what the command line prints
    _chunks: list | None = field(default=None, repr=False)
    _final: dict | None = field(default=None, repr=False)
    _stats: object = field(default=None, repr=False)
    _tables: dict | None = field(default=None, repr=False)

    @property
    def count(self) -> int:
        """Races or games played."""
        return int(self.manifest[self.manifest["unit"]])

    @property
    def tables(self) -> dict[str, pd.DataFrame]:
        """Every table (as ``--out`` writes them) as DataFrames, by name."""
        if self._tables is None:
            import pandas as pd

            if self._chunks is not None:
                names = list(dict.fromkeys(n for c in self._chunks for n in c))
                tables = {n: pd.concat([c[n] for c in self._chunks if n in c], ignore_index=True)
                          for n in names}
                self._tables = {**tables, **(self._final or {})}
            elif self.out is not None:
                from analyzer.engine.output import utf8_text

                self._tables = {p.stem: pd.read_parquet(utf8_text(p)) for p in sorted(self.out.glob("*.parquet"))}
            else:
                raise AnalyzerError("this run kept no tables (simulate(..., tables=False) without out=)")
        return self._tables

    def _aggregate(self):
        """The run's report aggregator (built from the kept chunks once); None without them."""
        from analyzer.games import new_stats

        if self._stats is None and self._chunks is not None:
            stats = new_stats(self.game)
            for tables in self._chunks:
                stats.add(tables)
            self._stats = stats
        return self._stats

    @property
    def results(self) -> dict[str, pd.DataFrame]:
        """The aggregated result tables the report reads, by name: what each of the game's
        questions measures (``analyzer.games.questions_for(game)[key].estimate(
        run.results, run.manifest)``)."""
        stats = self._aggregate()
        if stats is None:
            if self.out is None:
                raise AnalyzerError("this run kept no tables; run it with tables=True or out=")
            from analyzer.report import aggregate_run

            stats, _ = aggregate_run(self.out)
            self._stats = stats
        return stats.result()

    def report(self, path, strong: bool = False) -> Path:
        """Write the balance report (HTML, figures, CSV) to ``path`` (``strong``: under
        strong play, see ``report_runs``); returns the HTML file."""
        from analyzer.report import check_report_path, write_report

        path = _path(path, "the report path", required=True)
        check_report_path(path)
        stats = self._aggregate()
        if stats is None:
            if self.out is None:
                raise AnalyzerError("this run kept no tables to report on; run it with tables=True or out=")
            return report_runs([self.out], path, strong=strong)
        return write_report(stats.result(), self.manifest, path, strong=strong)

    def __str__(self) -> str:
        return self.text

    def _repr_pretty_(self, printer, cycle):  # IPython shows the summary
        printer.text(self.text)


def simulate(game: str, races: int | None = None, *, games: int | None = None, bots: BotList | None = None,
             players: int | None = None, board=None, seed: int = 1, threads: int | None = None,
             out=None, report=None, tables: bool = True, progress: bool | None = None,
             chunk: int | None = None, cluster=None, strong: bool = False, rules=None) -> Run:
    """Play ``races`` races or ``games`` games (the game's unit; either name
    works) between ``bots`` (one for every seat, or one per
    seat: a comma string or a list) and return the ``Run``. ``out``: also write
    the Parquet tables and manifest there; ``report``: write the balance report;
    ``tables``: keep the tables in memory (``run.tables``; for long runs write
    them with ``out`` instead); ``cluster``: play on a Dask cluster,
    ``"tcp://HOST:PORT"`` or ``"local:N"`` (or a session of ``cluster_session``),
    with the same results; ``strong``: the report under strong play (``report_runs``);
    ``rules``: the rules variant (``rules_for``: a rules file, a dict, a ``Rules``; None: the box)."""
    from analyzer.engine.simulate import DEFAULT_CHUNK, simulate as run_simulation

    info, cls, players, threads = game_setup(game, players, threads)
    count = _count(races, games, 100_000, f"--{info.unit}")
    seed = _whole(seed, "--seed", required=True)
    chunk = DEFAULT_CHUNK if chunk is None else _whole(chunk, "chunk")
    from analyzer.engine.simulate import check_run_options

    check_run_options(count, seed, threads, chunk, info.unit)
    match = match_for(info, cls, players, bots, board, rules)
    out, report_path = _path(out, "--out"), _path(report, "--report")
    stats = None
    if report_path is not None:
        from analyzer.report import check_report_path
        from analyzer.games import new_stats

        check_report_path(report_path)
        stats = new_stats(match.game)
    # the kernels the cache lacks start compiling on every core; the run waits
    # for its own, its report for the report's (engine/warm.py)
    from analyzer.engine.warm import compile_ahead as compile_

    if strong and report_path is None:
        raise AnalyzerError("--strong asks for a report under strong play: give --report too")
    jobs = compile_jobs(match, out is not None or report_path is not None, report_path is not None, strong)
    compile_(jobs, progress, wait=False)
    compile_(jobs[:1], progress)
    collector = _Collector(stats) if tables else stats
    with cluster_session(cluster) as session:
        result = run_simulation(match, count, seed, threads=threads, chunk_size=chunk, out_dir=out,
                                progress=progress, stats=collector, cluster=session)
    where = (f"{result.manifest['threads']} threads" if "cluster" not in result.manifest else
             "{workers} cluster workers, {threads} threads at {address}".format(**result.manifest["cluster"]))
    lines = [render_header(match, result), result.summary.render(),
             f"speed: {result.rate:,.0f} {match.unit}/s ({result.seconds:.2f} s on {where})"]
    if out is not None:
        lines.append(f"tables: {out}/ ({', '.join(match.tables)}.parquet, manifest.json)")
    run = Run(match.game, result.summary, result.manifest, result.seconds, out, "\n".join(lines),
              collector.chunks if tables else None,
              match.final_tables(result.summary) if tables else None, stats)
    if report_path is not None:
        compile_(jobs[1:], progress)
        html = run.report(report_path, strong=strong)
        card = scorecard_text(html)
        run.text += (f"\n{card}" if card else "") + f"\nreport: {html}"
    return run


def match_for(info, cls, players: int, bots, board, rules=None):
    """The match a simulation of these bots on this board plays, under these rules."""
    from analyzer.engine.botspec import parse_bot_list, seat_bots

    bot_text = _bot_text(bots, "bots")
    specs = seat_bots(parse_bot_list(bot_text if bot_text is not None else info.default_bot_list(players)),
                      players)
    board = _path(board, "--board")
    return cls(str(board) if board is not None else None, players, specs, rules=rules_for(info.name, rules))


def compile_jobs(match, detail: bool, report: bool, strong: bool = False) -> list:
    """The independent compiles a run of ``match`` needs (``engine/warm.py``):
    its own kernel, and with a report the kernels of the report's controlled
    tables (``strong``: its strength ladder) and of the game's experiments (its
    report's ``warm_jobs``)."""
    from functools import partial

    from analyzer.engine.warm import Job, warm_match
    from analyzer.games import game_info

    jobs = [Job(match.title, partial(warm_match, match, detail), match.kernels(detail), match.compile_seconds)]
    if report:
        from analyzer.report.controlled import warm_jobs

        jobs += warm_jobs(match, strong)
        extra = getattr(game_info(match.game).load("report"), "warm_jobs", None)
        if extra is not None:
            jobs += extra(match)
    return jobs


def compile_ahead(runs: list[dict], progress: bool | None = None, wait: bool = False) -> int:
    """Start compiling, in worker processes on every core, the kernels a list of
    simulations needs that the numba cache lacks (a scenario's runs: ``analyzer
    run``), in the order of the runs; each ``simulate`` then waits only for its
    own (``wait=True``: wait for all here). Each run a dict of ``simulate``'s
    arguments (``game``, ``bots``, ``players``, ``board``, ``rules``, ``out``, ``report``).
    Returns how many compile jobs are cold (0 when every kernel is cached)."""
    matches = []
    for run in runs:
        info, cls, players, _ = game_setup(run["game"], run.get("players"), None)
        match = match_for(info, cls, players, run.get("bots"), run.get("board"), run.get("rules"))
        report = run.get("report") is not None
        matches.append((match, report or run.get("out") is not None, report, bool(run.get("strong"))))
    from analyzer.engine.warm import compile_ahead as compile_

    return compile_([job for run in matches for job in compile_jobs(*run)], progress, wait)


def render_header(match, result) -> str:
    m = result.manifest
    lines = [f"{match.title}: {m[match.unit]:,} {match.unit}, {match.players} players, seed {m['seed']}"]
    lines += match.setup_lines()
    return "\n".join(lines) + "\n"


def with_rules(text: str, rules) -> str:
    """A result's text with its rules named when they are not the box's (a
    run's summary names them always, among its setup lines)."""
    return text if rules.is_box else f"{rules.line()}\n{text}"


# ------------------------------------------------------------------ compare

def one_bot(text: str, option: str):
    """The one bot an option names (``--bot``, ``--vs``): refused in one line if
    the text names none or several."""
    from analyzer.engine.botspec import parse_bot_list

    if not isinstance(text, str):
        raise AnalyzerError(f"{option} takes one bot name, got {text!r}")
    specs = parse_bot_list(text)
    if len(specs) != 1:
        raise AnalyzerError(f"{option} takes one bot, got {len(specs)}")
    return specs[0]


@dataclass
class Comparison:
    """A paired comparison of bot A against bot B."""
    result: object  # analyzer.engine.compare.CompareResult
    text: str

    @property
    def table(self) -> pd.DataFrame:
        """Win rate and mean score: A, B, A - B and its 95% interval (paired)."""
        import pandas as pd

        rows = []
        for name, stat in (("win rate", self.result.win), ("mean score", self.result.score)):
            lo, hi = stat.interval()
            rows.append({"measure": name, "A": stat.mean_a, "B": stat.mean_b, "A - B": stat.diff,
                         "low": lo, "high": hi})
        return pd.DataFrame(rows).set_index("measure")

    def __str__(self) -> str:
        return self.text

    def _repr_pretty_(self, printer, cycle):
        printer.text(self.text)


def seat_role(game: str, players: int, specs, role: str | None) -> tuple[list[str], str]:
    """Each seat's role, and the role the studied bots play: ``role``, else the
    game's only role, else the one role all of them can play."""
    from analyzer.games import match_class, registry

    roles = match_class(game).seat_roles(players)
    present = list(dict.fromkeys(roles))
    if role is not None:
        if role not in present:
            raise AnalyzerError(f"--role must be one of {', '.join(present)} at {players} players, got {role!r}")
        return roles, role
    if len(present) == 1:
        return roles, present[0]
    families = [registry(game).resolve(spec) for spec in specs]
    playable = [r for r in present if all(r in f.roles for f in families)]
    if not playable:  # no role all of them play: --role would not help
        raise AnalyzerError("the bots share no role: " + "; ".join(
            f"{spec.label} plays {', '.join(f.roles)}" for spec, f in zip(specs, families)))
    if len(playable) != 1:
        raise AnalyzerError(f"say which seats the bots play with --role ({', '.join(present)})")
    return roles, playable[0]


def check_bot(game: str, spec, role: str) -> None:
    """A bot that cannot play ``role`` is refused in one line, before any race."""
    from analyzer.errors import BotError
    from analyzer.games import registry

    family = registry(game).resolve(spec)
    if role not in family.roles:
        raise BotError(f"bot {spec.label!r} cannot play the {role} seats; it plays {', '.join(family.roles)}")


def compare(game: str, bot: str, vs: str, *, field: BotList = "random", players: int | None = None,
            board=None, races: int | None = None, games: int | None = None, seed: int = 1,
            threads: int | None = None, sprt: tuple[float, float] | str | None = None, alpha: float = 0.05,
            beta: float = 0.05, progress: bool | None = None, role: str | None = None,
            cluster=None, rules=None) -> Comparison:
    """Bot A (``bot``) against bot B (``vs``) on the same deals and dice, seats
    rotated (among the seats of ``role``, in a game of roles), the other seats
    taken by ``field``; ``sprt=(d0, d1)`` (or ``"D0,D1"``) stops as soon as a sequential test
    decides between those win-rate differences A - B, in percentage points; ``rules``: the
    rules variant both arms play (``rules_for``)."""
    from analyzer.engine.botspec import parse_bot_list
    from analyzer.engine.compare import Sprt, compare as run, render
    from analyzer.engine.seating import seat_tables
    from analyzer.engine.progress import Progress
    from analyzer.engine.simulate import check_run_options

    info, cls, players, threads = game_setup(game, players, threads)
    count = _count(races, games, 200_000, f"--{info.unit}")
    check_run_options(count, _whole(seed, "--seed", required=True), threads, 1, info.unit)
    a, b = one_bot(bot, "--bot"), one_bot(vs, "--vs")
    fill = parse_bot_list(_bot_list(field, "--field"))
    alpha, beta = _real(alpha, "--alpha"), _real(beta, "--beta")
    test = None
    if sprt is not None:
        try:
            d0, d1 = (float(x) for x in (sprt.split(",") if isinstance(sprt, str) else sprt))
        except (TypeError, ValueError):
            raise AnalyzerError(f"--sprt takes two numbers D0,D1, got {sprt!r}") from None
        test = Sprt.from_pp(d0, d1, alpha=alpha, beta=beta)
    board_path = str(_path(board, "--board")) if board is not None else None
    rules = rules_for(info.name, rules)
    roles, role = seat_role(game, players, [a, b], role)
    for spec in dict.fromkeys([a, b]):  # every bad bot fails before any race
        check_bot(game, spec, role)
        cls(board_path, players, seat_tables(spec, fill, roles, role)[0][1], rules=rules)
    places = roles.count(role)
    total = -(-count // places) * places * 2
    with Progress(total, f"{info.title} compare ({info.unit} per arm x 2)", enabled=progress) as bar:
        counter = _ArmCounter(bar)
        with cluster_session(cluster) as session:
            result = run(lambda table: cls(board_path, players, table, rules=rules), a, b, fill, players, count,
                         seed, threads=threads, sprt=test, progress=counter, roles=roles, role=role,
                         cluster=session)
    return Comparison(result, with_rules(render(result), rules))


class _ArmCounter:
    """compare advances by races per arm; the bar counts both arms."""

    def __init__(self, bar):
        self.bar = bar

    def advance(self, n: int) -> None:
        self.bar.advance(2 * n)


# ------------------------------------------------------------------ tournament

@dataclass
class Tournament:
    result: object  # analyzer.engine.tournament.TournamentResult
    text: str

    @property
    def tables(self) -> dict[str, pd.DataFrame]:
        """The tournament page's tables: ratings, head_to_head, win_matrix, seats (a
        role with one seat: ratings only, by win rate against the field)."""
        from analyzer.report.tournament import tables

        return tables(self.result)

    @property
    def ratings(self) -> pd.DataFrame:
        """Per bot, best first: Elo with its 95% interval, win rate and mean score with theirs
        (a role with one seat: no Elo; the win rate's difference to the best bot instead)."""
        return self.tables["ratings"]

    def report(self, path) -> Path:
        """Write the tournament page (HTML, figures, CSV); returns the HTML file."""
        from analyzer.report import check_report_path
        from analyzer.report.tournament import write_tournament_report

        path = _path(path, "the report path", required=True)
        check_report_path(path, "tournament.html")
        return write_tournament_report(self.result, path)

    def __str__(self) -> str:
        return self.text

    def _repr_pretty_(self, printer, cycle):
        printer.text(self.text)


def tournament(game: str, bots: BotList, *, players: int | None = None, board=None, races: int | None = None,
               games: int | None = None, seed: int = 1, threads: int | None = None,
               gauntlet: str | None = None, report=None, progress: bool | None = None,
               role: str | None = None, field: BotList | None = None, cluster=None, rules=None) -> Tournament:
    """Every table of distinct bots from ``bots``, each in every seat rotation on
    the same deals; Bradley-Terry ratings with intervals. ``gauntlet``: one bot
    at every table against a field of the others. In a game of roles the bots
    play the seats of ``role`` and ``field`` fills the others. ``rules``: the rules
    variant every table plays (``rules_for``)."""
    from analyzer.engine.botspec import parse_bot_list
    from analyzer.engine.progress import Progress
    from analyzer.engine.simulate import check_run_options
    from analyzer.engine.tournament import other_roles_field, planned_races, render, tournament as run

    info, cls, players, threads = game_setup(game, players, threads)
    count = _count(races, games, 100_000, f"--{info.unit}")
    check_run_options(count, _whole(seed, "--seed", required=True), threads, 1, info.unit)
    specs = parse_bot_list(_bot_list(bots, "--bots"))
    hero = None
    if gauntlet is not None:
        g = one_bot(gauntlet, "--gauntlet")
        specs, hero = [g] + [s for s in specs if s != g], 0
    report_path = _path(report, "--report")
    if report_path is not None:
        from analyzer.report import check_report_path

        check_report_path(report_path, "tournament.html")
    board_path = str(_path(board, "--board")) if board is not None else None
    rules = rules_for(info.name, rules)
    roles, role = seat_role(game, players, specs, role)
    field_specs = parse_bot_list(_bot_text(field, "--field")) if field is not None else None
    others = [s for s in range(players) if roles[s] != role]
    fill = dict(zip(others, other_roles_field(field_specs, len(others))))
    for spec in dict.fromkeys(specs):  # every bad bot fails before any race
        check_bot(game, spec, role)
        cls(board_path, players, [fill.get(s, spec) for s in range(players)], rules=rules)
    with Progress(planned_races(len(specs), roles.count(role), count, hero),
                  f"{info.title} tournament ({info.unit})", enabled=progress) as bar:
        with cluster_session(cluster) as session:
            result = run(lambda table: cls(board_path, players, table, rules=rules), specs, players, count, seed,
                         threads=threads, gauntlet=hero, progress=bar, roles=roles, role=role, field=field_specs,
                         cluster=session)
    cup = Tournament(result, with_rules(render(result), rules))
    if report_path is not None:
        cup.text += f"\nreport: {cup.report(report_path)}"
    return cup


# ------------------------------------------------------------------ replay

def replay(game: str, index: int, *, board=None, players: int | None = None, bots: BotList | None = None,
           seed: int = 1, rules=None):
    """Item ``index`` (race or game) of the run ``simulate`` plays with these
    options (``rules``: its rules variant, ``rules_for``), step by step (``analyzer.games.protocol.Replay``: ``steps`` in the
    rulebook's words, ``tables``: its rows, as ``simulate --out`` writes them)."""
    from analyzer.engine.botspec import parse_bot_list, seat_bots
    from analyzer.engine.simulate import MAX_COUNT, MAX_SEED

    info, cls, players, _ = game_setup(game, players, None)
    seed, index = _whole(seed, "--seed", required=True), _whole(index, f"--{info.unit[:-1]}", required=True)
    if not 0 <= seed <= MAX_SEED:
        raise AnalyzerError(f"--seed must be 0 to {MAX_SEED}, got {seed}")
    if not 0 <= index < MAX_COUNT:  # no run plays more; its tables' and faults' indices hold these
        raise AnalyzerError(f"--{info.unit[:-1]} must be 0 to {MAX_COUNT - 1:,} (a run plays at most "
                            f"{MAX_COUNT:,} {info.unit}), got {index:,}")
    bot_text = _bot_text(bots, "--bots")
    specs = seat_bots(parse_bot_list(bot_text if bot_text is not None else info.default_bot_list(players)),
                      players)
    board_path = str(_path(board, "--board")) if board is not None else None
    return cls(board_path, players, specs, rules=rules_for(info.name, rules)).replay(seed, index)


# ------------------------------------------------------------------ balance

def balance(path, *, out=None, resume: bool = False, threads: int | None = None, progress: bool | None = None,
            cluster=None, on_round=None):
    """A balance search (``analyzer balance FILE``): the rule variants of the file's
    space that meet its targets, re-measured on fresh games, with ``variants.parquet``,
    ``variant-<n>.toml`` and the report written to ``out`` (default: the file's
    ``out``). ``resume``: play only what the last run of this file left unplayed.
    Returns the ``analyzer.balance.BalanceResult``."""
    from analyzer.balance import load_balance, run_balance
    from analyzer.engine.simulate import check_run_options, default_threads

    plan = load_balance(_path(path, "the balance file"), _path(out, "--out"))
    threads = _whole(threads, "--threads")
    check_run_options(1, plan.seed, default_threads() if threads is None else threads, 1)
    with cluster_session(cluster) as session:
        return run_balance(plan, resume=bool(resume), threads=threads, cluster=session, progress=progress,
                           on_round=on_round)
