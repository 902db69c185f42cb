"""The command line: parses, calls, renders. Every user error ends as one line on
stderr and a non-zero exit (2 for usage errors), never a traceback."""
from __future__ import annotations

import gc
import math
import os
import sys
from pathlib import Path
from typing import Optional

import typer

try:  # typer >= 0.20 ships its own copy of click
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover - older typer on click
    from click import exceptions as click_errors

from analyzer.engine.output import check_target, write_file
from analyzer.errors import AnalyzerError

app = typer.Typer(
    add_completion=True,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 120},
    help="Monte Carlo strategy analyzer for race-and-bet board games.",
)


def _version(value: bool) -> None:
    if value:
        import analyzer

        typer.echo(f"analyzer {analyzer.__version__}")
        raise typer.Exit()


@app.callback()
def _commands(
    version: Optional[bool] = typer.Option(None, "--version", callback=_version, is_eager=True,
                                           help="print the version and exit"),
) -> None:
    """Monte Carlo strategy analyzer for race-and-bet board games."""


def _game_names() -> list[str]:
    from analyzer.games import names

    return names()


def _check_game(value: str) -> str:
    from analyzer.games import game_info

    game_info(value)  # an unknown game: one line naming the known ones
    return value


def _complete_game(incomplete: str) -> list[str]:
    return [name for name in _game_names() if name.startswith(incomplete)]


def _game_argument():
    names = _game_names()
    return typer.Argument(..., help=f"the game: {' or '.join(names)}", metavar="GAME",
                          callback=_check_game, autocompletion=_complete_game, show_default=False)


def _games_help() -> tuple[str, str]:
    """Help texts from the games' declarations (``GameInfo``): the CLI names no game."""
    from analyzer.games import infos

    games = infos()
    count = ("races or games, by the game's unit (" + "; ".join(f"{i.name}: {i.unit}" for i in games)
             + "); --games and --races are the same option")
    board = "; ".join(f"{i.name}: {i.board_help}" for i in games) + " (default: the assumed one)"
    return count, board


COUNT_HELP, BOARD_HELP = _games_help()
ROLE_HELP = ("the seats the compared (or rated, or tuned) bots play, for a game whose seats have roles "
             "(default: the one role they can all play)")
PROGRESS_HELP = "progress bar on stderr (default: when stderr is a terminal)"
THREADS_HELP = "worker threads, 1-256 (default: all cores)"


def _progress_option():
    return typer.Option(None, "--progress/--no-progress", help=PROGRESS_HELP)


CLUSTER_HELP = ("play on a Dask cluster: tcp://HOST:PORT of a running scheduler, or local:N for N worker "
                "processes on this machine (default: this process's threads); the same results")


def _cluster_option():
    return typer.Option(None, "--cluster", metavar="ADDRESS", help=CLUSTER_HELP)


def _either(new, old, name: str, old_name: str):
    """An option and its hidden old name: the value given, refusing both at once."""
    if new is not None and old is not None and new != old:
        raise AnalyzerError(f"{name} and {old_name} are the same option; give one")
    return new if new is not None else old


RULES_HELP = ("a rules file: TOML holding a [rules] table of the game's rule numbers to change (each game's "
              "page in docs/ lists its keys, ranges and box values; default: the box's rules)")
RULE_HELP = ("one rule as KEY=VALUE, repeatable, over --rules' values (a list as 6,4,3,2,1; a table by player "
             "count as 3=5,4=4)")


def _rules_file_option():
    return typer.Option(None, "--rules", metavar="FILE", help=RULES_HELP)


def _rule_option():
    return typer.Option(None, "--rule", metavar="KEY=VALUE", help=RULE_HELP)


def _rules(game: str, file, pairs):
    """The rules of ``--rules FILE`` and ``--rule KEY=VALUE``, checked before any work."""
    from analyzer.api import rules_for

    return rules_for(game, file, list(pairs or ()))


STRONG_HELP = ("the report under strong play: its controlled tables a strength ladder, the random bot, the "
               "heuristic bots and the game's search bot each in every seat, and whether each answer keeps "
               "from one to the next")


@app.command()
def simulate(
    game: str = _game_argument(),
    board: Optional[Path] = typer.Option(None, help=BOARD_HELP),
    players: Optional[int] = typer.Option(None, help="number of players (default 4)"),
    bots: Optional[str] = typer.Option(
        None, help="one bot for every seat, or a comma list with one per seat (e.g. "
                   "random,NAME:param=value for two players), or path/to/bot.py; "
                   "'analyzer bots GAME' lists them (default: the game's default table)"),
    races: int = typer.Option(100_000, "--races", "--games", help=COUNT_HELP + " (1 to 10 billion)"),
    seed: int = typer.Option(1, help="seed: fixes every result"),
    threads: Optional[int] = typer.Option(None, help=THREADS_HELP),
    out: Optional[Path] = typer.Option(None, help="write Parquet tables and manifest.json to this directory"),
    report: Optional[Path] = typer.Option(None, help="write the balance report (HTML, figures, CSV) to this path"),
    chunk: int = typer.Option(1 << 16, hidden=True, help="races per chunk"),
    progress: Optional[bool] = _progress_option(),
    cluster: Optional[str] = _cluster_option(),
    strong: bool = typer.Option(False, "--strong", help=STRONG_HELP),
    rules: Optional[Path] = _rules_file_option(),
    rule: Optional[list[str]] = _rule_option(),
):
    """Play many races (or games) between bots and print a summary."""
    from analyzer.api import cluster_session

    variant = _rules(game, rules, rule)
    with cluster_session(cluster) as session:
        run_simulation(game, board, players, bots, races, seed, threads, out, report, chunk, progress, session,
                       strong, variant)


def run_simulation(game, board, players, bots, races, seed, threads, out, report, chunk=1 << 16,
                   progress=None, cluster=None, strong=False, rules=None) -> None:
    from analyzer import api

    run = api.simulate(game, races, bots=bots, players=players, board=board, seed=seed, threads=threads,
                       out=out, report=report, tables=False, progress=progress, chunk=chunk, cluster=cluster,
                       strong=strong, rules=rules)
    typer.echo(run.text)


@app.command("report")
def report_command(
    run_dirs: list[Path] = typer.Argument(
        ..., help="one or more directories written by simulate --out; several runs of one game with the "
                  "same board, players and bots are merged into one report"),
    report: Optional[Path] = typer.Option(None, "--report", help="report path (default: RUN_DIR-report.html "
                                                                  "beside the first)"),
    out: Optional[Path] = typer.Option(None, "--out", hidden=True, help="old name of --report"),
    by: Optional[str] = typer.Option(
        None, "--by", help="players, board or rules: runs that differ in it, reported side by side (without it, "
                           "several runs must share board, players, bots and rules and are merged)"),
    min_effect: float = typer.Option(
        1.0, "--min-effect", help="percentage points: a colour, pig or seat is flagged only if it differs "
                                  "from fair by at least this much (and beyond chance)"),
    drop_duplicates: bool = typer.Option(
        False, "--drop-duplicates", help="runs holding the same races (same seed and setup, e.g. a copied "
                                         "run) are refused; with this, each race is counted once and the "
                                         "report says which run was left out"),
    strong: bool = typer.Option(False, "--strong", help=STRONG_HELP),
):
    """Write the balance report of a finished run (or of several runs of one game, merged)."""
    from analyzer import api
    from analyzer.engine.progress import Progress

    with Progress(len(run_dirs), "report (runs read)", enabled=None) as bar:
        with bar.phase("reading the tables and drawing the figures"):
            html = api.report_runs(run_dirs, _either(report, out, "--report", "--out"), by=by, min_effect=min_effect,
                                   drop_duplicates=drop_duplicates, strong=strong)
        bar.advance(len(run_dirs))
    card = api.scorecard_text(html)
    if card:
        typer.echo(card)
    typer.echo(f"report: {html}")


@app.command("run")
def run_scenario(scenario: Path = typer.Argument(..., help="a scenario file, e.g. sims/default.toml"),
                 progress: Optional[bool] = _progress_option(), cluster: Optional[str] = _cluster_option()):
    """Run a scenario file (TOML: game, board, players, bots, races or games, seed, report, out; paths relative to the file)."""
    from analyzer.api import cluster_session
    from analyzer.scenario import load_scenarios, run_outputs

    from analyzer.api import check_outputs, compile_ahead

    items = load_scenarios(scenario)
    check_outputs([pair for i in items for pair in run_outputs(i)])  # every run's, before the first run
    # every run's kernels that the cache lacks, compiled first on every core
    compile_ahead([dict(game=i.game, bots=i.bots, players=n, board=i.board, out=i.out, report=i.report,
                        strong=i.strong, rules=i.rules)
                   for i in items for n in (i.player_counts or (i.players,))], progress)
    with cluster_session(cluster) as session:  # one connection for every simulation of the file
        for item in items:
            if item.title:
                typer.echo(f"== {item.title}")
            if item.player_counts:
                run_player_counts(item, progress, session)
                continue
            run_simulation(item.game, item.board, item.players, item.bots, item.races, item.seed,
                           item.threads, item.out, item.report, progress=progress, cluster=session,
                           strong=item.strong, rules=item.rules)


def run_player_counts(item, progress, session) -> None:
    """A scenario run with ``player_counts``: one simulation per count, its tables
    in ``out/players-N`` (a temporary folder without ``out``), then one report of
    them side by side (``report --by players``)."""
    import tempfile

    from analyzer import api
    from analyzer.scenario import COUNT_FOLDER

    if item.report is not None:
        from analyzer.report import check_report_path

        check_report_path(item.report)  # before any game is played
    with tempfile.TemporaryDirectory(prefix="analyzer-counts-") as tmp:
        base = item.out if item.out is not None else Path(tmp)
        dirs = []
        for n in item.player_counts:
            dirs.append(base / COUNT_FOLDER.format(n))
            run_simulation(item.game, item.board, n, item.bots, item.races, item.seed, item.threads, dirs[-1],
                           None, progress=progress, cluster=session, rules=item.rules)
        if item.report is not None:
            typer.echo(f"report: {api.report_runs(dirs, item.report, by='players')}")


@app.command("sweep")
def sweep_command(sweep_file: Path = typer.Argument(..., help="a sweep file, e.g. sims/sweep-getaways.toml"),
                  resume: bool = typer.Option(False, "--resume", help="skip the cells already finished in the "
                                                                       "output directory"),
                  threads: Optional[int] = typer.Option(None, help=THREADS_HELP),
                  progress: Optional[bool] = _progress_option(), cluster: Optional[str] = _cluster_option()):
    """Run a grid of simulations of one game (players, bots, bot parameters, boards, seeds, rules): sweep.parquet,
    one row per cell, checkpointed cell by cell; and the sweep report."""
    from analyzer.sweep import SWEEP_TABLE, load_sweep, run_sweep

    sweep = load_sweep(sweep_file)

    def on_cell(cell, row):
        typer.echo(f"cell {cell.index + 1}/{len(sweep.cells)}: players {cell.players}, board {cell.board}, "
                   f"bots {cell.bots}, seed {cell.seed}" + "".join(f", {k} {v:g}" for k, v in cell.params)
                   + cell.rules_text())

    run_sweep(sweep, resume=resume, threads=threads, cluster=cluster, progress=progress, on_cell=on_cell)
    typer.echo(f"sweep: {sweep.out / SWEEP_TABLE} ({len(sweep.cells)} cells)")
    if sweep.report is not None:
        typer.echo(f"report: {sweep.report}")


@app.command("balance")
def balance_command(
    balance_file: Path = typer.Argument(..., help="a balance file, e.g. sims/balance-sau-mau-mau.toml"),
    out: Optional[Path] = typer.Option(None, "--out", help="the output directory (default: the file's out)"),
    resume: bool = typer.Option(False, "--resume", help="play only what the last run of this file left unplayed"),
    threads: Optional[int] = typer.Option(None, help=THREADS_HELP),
    progress: Optional[bool] = _progress_option(),
    cluster: Optional[str] = _cluster_option(),
):
    """Search rule variants toward a designer's targets (first-seat edge, skill, length...): the variants no
    other beats on every target, re-measured on fresh games; variants.parquet, variant-N.toml and a report."""
    from analyzer import api
    from analyzer.balance import VARIANTS_TABLE
    from analyzer.report.balance import scorecard_text

    def on_round(r):
        typer.echo(f"round {r['round']}: {r['measured']:,} variants measured on {r['games_each']:,} games each, "
                   f"{r['dropped']:,} dropped, {r['left']:,} left ({r['spent']:,} games so far)", err=True)

    result = api.balance(balance_file, out=out, resume=resume, threads=threads, progress=progress,
                         cluster=cluster, on_round=on_round)
    typer.echo(scorecard_text(result))
    for note in result.notes:
        typer.echo(f"note: {note}")
    typer.echo(f"variants: {result.plan.out / VARIANTS_TABLE} ({len(result.variants):,} measured of "
               f"{result.plan.size:,}; {result.games:,} games)")
    if result.reported:
        typer.echo(f"recommended: {result.plan.out / f'variant-{result.reported[0].number}.toml'}")
    typer.echo(f"report: {result.plan.report}")


@app.command()
def replay(
    game: str = _game_argument(),
    board: Optional[Path] = typer.Option(None, help=BOARD_HELP),
    players: Optional[int] = typer.Option(None, help="number of players (default 4)"),
    bots: Optional[str] = typer.Option(None, help="the run's bots, as for simulate"),
    seed: int = typer.Option(1, help="the run's seed"),
    index: int = typer.Option(0, "--race", "--game", help="which race (or game) of the run, 0-based"),
    html: Optional[Path] = typer.Option(None, "--html", help="also write it as a timeline page (HTML)"),
    rules: Optional[Path] = _rules_file_option(),
    rule: Optional[list[str]] = _rule_option(),
):
    """Replay one race (or game) of a run move by move: every roll or card, decision and
    its options, field action, bet and contract, and the scoring, ending with its table rows."""
    from analyzer import api
    from analyzer.report.replay import html_path, render_text, write_html

    if html is not None:
        html_path(html)  # before the replay
    result = api.replay(game, index, board=board, players=players, bots=bots, seed=seed,
                        rules=_rules(game, rules, rule))
    typer.echo(render_text(result))
    if html is not None:
        typer.echo(f"timeline: {write_html(result, html)}")


@app.command()
def compare(
    game: str = _game_argument(),
    bot: str = typer.Option(..., "--bot", help="bot A, e.g. NAME or NAME:param=value"),
    vs: str = typer.Option(..., "--vs", help="bot B"),
    field: str = typer.Option("random", help="the other seats: one bot, or one per other seat"),
    players: Optional[int] = typer.Option(None, help="number of players (default 4)"),
    board: Optional[Path] = typer.Option(None, help=BOARD_HELP),
    races: int = typer.Option(200_000, "--races", "--games",
                              help="races (or games) per arm (the most with --sprt)"),
    seed: int = typer.Option(1, help="seed"),
    threads: Optional[int] = typer.Option(None, help=THREADS_HELP),
    sprt: Optional[str] = typer.Option(
        None, help="D0,D1: stop when a sequential test decides between win-rate differences A - B "
                   "of D0 and D1 percentage points (e.g. 0,1), looking every 2,000 races"),
    alpha: float = typer.Option(0.05, help="SPRT: chance of accepting D1 when D0 holds"),
    beta: float = typer.Option(0.05, help="SPRT: chance of accepting D0 when D1 holds"),
    progress: Optional[bool] = _progress_option(),
    role: Optional[str] = typer.Option(None, help=ROLE_HELP),
    cluster: Optional[str] = _cluster_option(),
    rules: Optional[Path] = _rules_file_option(),
    rule: Optional[list[str]] = _rule_option(),
):
    """Paired comparison of bot A against bot B: same deals and dice, seats rotated."""
    from analyzer import api

    result = api.compare(game, bot, vs, field=field, players=players, board=board, races=races, seed=seed,
                         threads=threads, sprt=sprt, alpha=alpha, beta=beta, progress=progress,
                         role=role, cluster=cluster, rules=_rules(game, rules, rule))
    typer.echo(result.text)


@app.command()
def tournament(
    game: str = _game_argument(),
    bots: str = typer.Option(..., "--bots", help="the bots, at least 2: a comma list of bot names and bot files"),
    players: Optional[int] = typer.Option(None, help="number of players (default 4)"),
    board: Optional[Path] = typer.Option(None, help=BOARD_HELP),
    races: int = typer.Option(100_000, "--races", "--games",
                              help="races (or games) in all, spread evenly over tables and seat rotations"),
    seed: int = typer.Option(1, help="seed"),
    threads: Optional[int] = typer.Option(None, help=THREADS_HELP),
    gauntlet: Optional[str] = typer.Option(None, help="one bot at every table, against a field of the others"),
    report: Optional[Path] = typer.Option(None, help="write the tournament report (HTML, figures, CSV) to this path"),
    progress: Optional[bool] = _progress_option(),
    role: Optional[str] = typer.Option(None, help=ROLE_HELP),
    field: Optional[str] = typer.Option(
        None, help="games with roles: the bots of the seats of other roles (one, or one per such seat)"),
    cluster: Optional[str] = _cluster_option(),
    rules: Optional[Path] = _rules_file_option(),
    rule: Optional[list[str]] = _rule_option(),
):
    """Round robin (or gauntlet) between bots on every table and seat rotation: ratings with intervals."""
    from analyzer import api

    result = api.tournament(game, bots, players=players, board=board, races=races, seed=seed, threads=threads,
                            gauntlet=gauntlet, report=report, progress=progress, role=role,
                            field=field, cluster=cluster, rules=_rules(game, rules, rule))
    typer.echo(result.text)


@app.command()
def tune(
    game: str = _game_argument(),
    bot: str = typer.Option(..., "--bot", help="the bot to tune and its starting point: NAME, NAME:param=value, "
                                                  "a bot .toml file or a user bot .py file"),
    field: Optional[str] = typer.Option(None, "--field", help="the other seats: one bot, or one per other seat "
                                                              "(default: random)"),
    against: Optional[str] = typer.Option(None, "--against", hidden=True, help="old name of --field"),
    budget: int = typer.Option(200_000, help="races (or games) in all: the search and a fresh re-measure "
                                              "(a quarter)"),
    players: Optional[int] = typer.Option(None, help="number of players (default 4)"),
    board: Optional[Path] = typer.Option(None, help=BOARD_HELP),
    seed: int = typer.Option(1, help="seed"),
    threads: Optional[int] = typer.Option(None, help=THREADS_HELP),
    params: Optional[str] = typer.Option(
        None, help="tune only these: name=lo:hi (or a bare name for the default range, 0.25x to 3x the "
                   "default); default: every parameter"),
    objective: str = typer.Option("win", help="win (win rate) or score (mean score)"),
    min_gain: float = typer.Option(
        0.0, "--min-gain", help="the practical threshold: adopt the tuned bot only when the re-measure's 95% "
                                "interval lies above this gain (pp of win rate, or points of mean score); "
                                "otherwise keep the start"),
    save: Optional[Path] = typer.Option(None, "--save", help="write the tuned bot to this .toml file "
                                                             "(usable in --bots)"),
    out: Optional[Path] = typer.Option(None, "--out", hidden=True, help="old name of --save"),
    progress: Optional[bool] = _progress_option(),
    role: Optional[str] = typer.Option(None, help=ROLE_HELP),
    cluster: Optional[str] = _cluster_option(),
    rules: Optional[Path] = _rules_file_option(),
    rule: Optional[list[str]] = _rule_option(),
):
    """Tune a bot's parameters against a field (cross-entropy search on common races), then re-measure."""
    from analyzer import api
    from analyzer.api import check_bot, one_bot, seat_role, game_setup
    from analyzer.engine.botspec import parse_bot_list
    from analyzer.engine.seating import seat_tables
    from analyzer.engine.progress import Progress
    from analyzer.engine.simulate import check_run_options
    from analyzer.engine.tune import render, toml_text, tune as run, tune_space
    from analyzer.games import registry

    info, cls, players, threads = game_setup(game, players, threads)
    check_run_options(budget, seed, threads, 1, cls.unit)
    variant = _rules(game, rules, rule)
    if not (math.isfinite(min_gain) and min_gain >= 0):
        raise AnalyzerError(f"--min-gain must be 0 or more, got {min_gain:g}")
    start = one_bot(bot, "--bot")
    option = "--save" if save is not None else "--out"
    save = _either(save, out, "--save", "--out")
    if save is not None:
        if start.name.endswith(".py"):
            raise AnalyzerError(f"{option} writes a bot .toml of a built-in bot; a user bot's tuned parameters "
                                "are printed: give them as FILE.py:name=value")
        _check_writable_toml(save, option)  # before the search, not after it
    board_path = str(board) if board is not None else None
    field_specs = parse_bot_list(_either(field, against, "--field", "--against") or "random")
    roles, role = seat_role(game, players, [start], role)
    check_bot(game, start, role)
    field_option = "--against" if against is not None else "--field"
    cls(board_path, players, seat_tables(start, field_specs, roles, role, field_option)[0][1],
        rules=variant)  # bad bots fail first
    family, start_values, space = tune_space(game, start, params)
    with Progress(budget, f"{info.title} tune ({info.unit})", enabled=progress) as bar:
        def on_generation(g):
            typer.echo(f"generation {g.index}: best candidate {g.best_win.diff * 100:+.2f} pp win rate, "
                       f"{g.best_score.diff:+.3f} mean score against the start", err=True)
        with bar.phase("searching"), api.cluster_session(cluster) as session:
            result = run(lambda table: cls(board_path, players, table, rules=variant), family, start,
                         start_values, space, field_specs, players, budget, seed,
                         threads=threads, objective=objective, on_generation=on_generation,
                         roles=roles, role=role, cluster=session,
                         min_gain=min_gain / 100 if objective == "win" else min_gain)
        bar.advance(budget)
    typer.echo(api.with_rules(render(result), variant))
    if save is not None:
        write_file(save, toml_text(result, save.stem), "the tuned bot")
        if result.adopted:
            typer.echo(f"tuned bot: {save} (use it as --bots {save})")
        else:
            typer.echo(f"the start's parameters (kept): {save} (use it as --bots {save})")


def _check_writable_toml(path: Path, option: str) -> None:
    """Refuse a tuned-bot path that cannot be written, before the search runs."""
    if path.suffix != ".toml":
        raise AnalyzerError(f"{option} must name a .toml file, got {path}")
    if path.is_dir():
        raise AnalyzerError(f"{option} {path} is a directory; name a .toml file")
    check_target(path, "the tuned bot")


@app.command("bots")
def list_bots(game: str = _game_argument()):
    """List the built-in bots of a game with their parameters."""
    from analyzer.games import registry

    bots = registry(game)
    for family in bots.builtin.values():
        typer.echo(f"{family.name}: {family.description}")
        for name, (_, default, help_text) in family.params.items():
            typer.echo(f"    {name}={default:g}  {help_text} ({family.range_of(name).describe()})")
    typer.echo("\nA bot TOML file (a built-in bot with its own defaults, as 'analyzer tune --out' writes) "
               "is named by its path.")
    if bots.user_bots:
        typer.echo(f"A user bot: a path to a .py file defining BOT = UserBot(...); its API: docs/bots-{game}.md")


# Exit codes (documented in docs/commands.md): 0 done, 1 the output could not be
# written (full disk, closed stdout), 2 bad input, 128 + signal number when
# stopped by a signal (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP).
EXIT_OUTPUT = 1
EXIT_USAGE = 2
_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")


def _on_signal(signum, frame):
    """Ctrl-C, SIGTERM and SIGHUP raise a KeyboardInterrupt, so everything that
    cleans up after Ctrl-C (the hidden partial run directory, the thread pool)
    cleans up after them too. The signal is also recorded in ``engine.stop``:
    the exit line names it, and the run's loops check it between chunks in
    case the exception is lost."""
    from analyzer.engine import stop

    stop.request(signum)
    raise KeyboardInterrupt


def _install_signal_handlers() -> dict:
    """Our handler for each stopping signal, and an unraisable-exception hook
    that stays silent about the KeyboardInterrupt of a stop it already knows
    (raised inside a finaliser, which Python would report as "Exception
    ignored in ..." and drop: the run's loop stops at the next chunk instead).
    A SIGINT that is ignored (a background job) stays ignored."""
    import signal
    import threading

    from analyzer.engine import stop

    stop.clear()
    if threading.current_thread() is not threading.main_thread():
        return {}
    previous = {}
    for name in _SIGNALS:
        if hasattr(signal, name):
            number = getattr(signal, name)
            if number == signal.SIGINT and signal.getsignal(number) is not signal.default_int_handler:
                continue
            previous[number] = signal.signal(number, _on_signal)
    hook = sys.unraisablehook

    def unraisable(info):
        if not (issubclass(info.exc_type, KeyboardInterrupt) and stop.requested()):
            hook(info)

    sys.unraisablehook = unraisable
    previous["unraisablehook"] = hook
    return previous


def _restore_signal_handlers(previous: dict) -> None:
    """The handlers and hook from before the command; its stop request is spent."""
    import signal

    from analyzer.engine import stop

    stop.clear()
    if "unraisablehook" in previous:
        sys.unraisablehook = previous.pop("unraisablehook")
    for number, handler in previous.items():
        signal.signal(number, handler)


def _say(text) -> None:
    """A line on stderr; none when stderr is closed (``2>&-``: ``sys.stderr`` is
    None, and ``print`` would put the line on stdout instead)."""
    if sys.stderr is not None:
        print(text, file=sys.stderr)


def _fail(message: str, code: int) -> None:
    _say(f"analyzer: {message}")
    sys.exit(code)


def _interrupted() -> None:
    import signal

    from analyzer.engine import stop

    signum = stop.signum()
    if signum is None or signum == signal.SIGINT:
        _fail("interrupted", 128 + signal.SIGINT)
    _fail(f"stopped by {signal.Signals(signum).name}", 128 + signum)


def main(argv: list[str] | None = None) -> None:
    # Start-up (numba, its compiled kernels, pandas) makes hundreds of thousands of
    # objects that live to the end, and the collector would scan them over and
    # over: at most one young collection a 300,000 new objects leaves none
    # between here and a simulation's first chunk (at 50,000 there were three,
    # ~30 ms), and about a tenth of a second less a command than Python's 700.
    # Cycles are still collected.
    gc.set_threshold(300_000, 20, 20)
    if sys.stdout is None:  # started with stdout closed (`>&-`): what it prints could not be written
        _fail("error: cannot write the output: stdout is closed", EXIT_OUTPUT)
    previous = _install_signal_handlers()
    try:
        # typer turns Ctrl-C into a *returned* 130 when not standalone: the
        # return value is the exit code and must not be dropped
        code = app(args=argv, prog_name="analyzer", standalone_mode=False)
        if code == 130:
            _interrupted()
        if isinstance(code, int) and code != 0:
            sys.exit(code)
    except typer.Exit as e:
        sys.exit(getattr(e, "exit_code", 0))
    except (typer.Abort, KeyboardInterrupt):
        _interrupted()
    except click_errors.NoArgsIsHelpError as e:
        _say(e.format_message() if hasattr(e, "format_message") else e)
        sys.exit(EXIT_USAGE)
    except click_errors.ClickException as e:
        _fail(f"error: {e.format_message()}", EXIT_USAGE if isinstance(e, click_errors.UsageError)
              else e.exit_code)
    except AnalyzerError as e:
        _fail(f"error: {e}", e.exit_code)
    except BrokenPipeError:
        sys.exit(EXIT_OUTPUT)  # the reader went away (e.g. | head): nothing to tell it
    except OSError as e:  # a full disk, a closed or full stdout, a lost mount
        where = e.filename if e.filename else "the output"
        _fail(f"error: cannot write {where}: {e.strerror or e}", EXIT_OUTPUT)
    finally:
        _end_workers()
        _restore_signal_handlers(previous)


def _end_workers() -> None:
    """No process of a command outlives it: its compile-ahead workers are ended
    (engine/warm.py), whether it finished, failed or was stopped."""
    warm = sys.modules.get("analyzer.engine.warm")
    if warm is not None:
        warm.end_workers()


def console() -> None:
    """The ``analyzer`` command (and ``python -m analyzer``): ``main``, then an
    immediate exit. A finished command has closed every file it wrote; what
    is left is tearing down numba, LLVM and pandas at interpreter exit, which
    takes about 0.2 s and would change nothing. ``main`` alone, as the tests call
    it, returns or raises SystemExit as usual."""
    code = 0
    try:
        main()
    except SystemExit as e:
        if isinstance(e.code, int):
            code = e.code
        elif e.code is not None:
            _say(e.code)
            code = 1
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        code = code or EXIT_OUTPUT
    except OSError as e:
        _say(f"analyzer: error: cannot write the output: {e.strerror or e}")
        code = code or EXIT_OUTPUT
    try:
        if sys.stderr is not None:  # closed (2>&-): a successful run still exits 0
            sys.stderr.flush()
    except OSError:
        code = code or EXIT_OUTPUT
    os._exit(code)
