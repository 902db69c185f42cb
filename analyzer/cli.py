"""The command line: parses, calls, renders. Every user error ends as one line on
stderr and a non-zero exit (2 for usage errors), never a traceback."""
from __future__ import annotations

import gc
import os
import sys
from pathlib import Path
from typing import Optional

import typer

try:  # typer >= 0.20 ships its own copy of click
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover - older typer on click
    from click import exceptions as click_errors

from analyzer.errors import AnalyzerError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Monte Carlo strategy analyzer for race-and-bet board games.",
)

@app.callback()
def _commands() -> None:
    """Monte Carlo strategy analyzer for race-and-bet board games."""


GAME_HELP = "game: lemming-mafia or sau-mau-mau"
COUNT_HELP = "races (Lemming Mafia) or four-race games (Sau Mau Mau) to play; --games is the same option"


@app.command()
def simulate(
    game: str = typer.Argument(..., help=GAME_HELP),
    board: Optional[Path] = typer.Option(
        None, help="board/deck (Lemming Mafia) or track (Sau Mau Mau) TOML file (default: the assumed one)"),
    players: Optional[int] = typer.Option(None, help="number of players (default 4)"),
    bots: Optional[str] = typer.Option(
        None, help="one bot for every seat, or a comma list with one per seat, e.g. "
                   "favourite,random,timer:late_bets=3,random or path/to/bot.py; "
                   "'analyzer bots GAME' lists them (default: the game's default table)"),
    races: int = typer.Option(100_000, "--races", "--games", help=COUNT_HELP),
    seed: int = typer.Option(1, help="seed: fixes every result"),
    threads: Optional[int] = typer.Option(None, help="worker threads (default: all cores)"),
    out: Optional[Path] = typer.Option(None, help="write Parquet tables and manifest.json to this directory"),
    report: Optional[Path] = typer.Option(None, help="write the balance report (HTML, figures, CSV) to this path"),
    chunk: int = typer.Option(1 << 16, hidden=True, help="races per chunk"),
    progress: Optional[bool] = typer.Option(None, "--progress/--no-progress", help="progress bar (default: on a terminal)"),
):
    """Play many races (or games) between bots and print a summary."""
    run_simulation(game, board, players, bots, races, seed, threads, out, report, chunk, progress)


def run_simulation(game, board, players, bots, races, seed, threads, out, report, chunk=1 << 16,
                   progress=None) -> None:
    from analyzer.engine.botspec import parse_bot_list, seat_bots
    from analyzer.engine.simulate import simulate as run
    from analyzer.games import game_info

    info = game_info(game)
    cls = info.load("match")
    players = players if players is not None else info.default_players
    specs = seat_bots(parse_bot_list(bots if bots is not None else info.default_bot_list(players)), players)
    match = cls(str(board) if board is not None else None, players, specs)
    stats = None
    if report is not None:
        from analyzer.report import check_report_path
        from analyzer.stats import new_stats

        check_report_path(Path(report))
        stats = new_stats(match.game)
    result = run(match, races, seed, threads=threads, chunk_size=chunk, out_dir=out,
                 progress=progress, stats=stats)
    typer.echo(render_header(match, result))
    typer.echo(result.summary.render())
    typer.echo(f"speed: {result.rate:,.0f} {match.unit}/s ({result.seconds:.2f} s on "
               f"{result.manifest['threads']} threads)")
    if out is not None:
        typer.echo(f"tables: {out}/ ({', '.join(match.tables)}.parquet, manifest.json)")
    if report is not None:
        from analyzer.report import write_report

        typer.echo(f"report: {write_report(stats.result(), result.manifest, Path(report))}")


@app.command("report")
def report_command(
    run_dirs: list[Path] = typer.Argument(
        ..., help="one or more directories written by simulate --out; several runs of one game (e.g. "
                  "each player count) are merged into one report"),
    out: Optional[Path] = typer.Option(None, help="report path (default: RUN_DIR-report.html beside the first)"),
):
    """Write the balance report of a finished run (or of several runs of one game, merged)."""
    from analyzer.report import build_report

    typer.echo(f"report: {build_report(run_dirs, out)}")


@app.command("run")
def run_scenario(scenario: Path = typer.Argument(..., help="a scenario file, e.g. sims/default.toml")):
    """Run a scenario file (TOML: game, board, players, bots, races or games, seed, report)."""
    from analyzer.scenario import load_scenarios

    for item in load_scenarios(scenario):
        if item.title:
            typer.echo(f"== {item.title}")
        run_simulation(item.game, item.board, item.players, item.bots, item.races, item.seed,
                       item.threads, item.out, item.report)


@app.command()
def compare(
    game: str = typer.Argument(..., help=GAME_HELP),
    bot: str = typer.Option(..., "--bot", help="bot A, e.g. favourite:harm=1.2"),
    vs: str = typer.Option(..., "--vs", help="bot B"),
    field: str = typer.Option("random", help="the other seats: one bot, or one per other seat"),
    players: Optional[int] = typer.Option(None, help="number of players (default 4)"),
    board: Optional[Path] = typer.Option(None, help="board/deck TOML file"),
    races: int = typer.Option(200_000, "--races", "--games",
                              help="races (or games) per arm (the most with --sprt)"),
    seed: int = typer.Option(1, help="seed"),
    threads: Optional[int] = typer.Option(None, help="worker threads (default: all cores)"),
    sprt: Optional[str] = typer.Option(
        None, help="D0,D1: stop when a sequential test decides between win-rate differences "
                   "D0 and D1 (fractions, e.g. 0,0.01)"),
    alpha: float = typer.Option(0.05, help="SPRT: chance of accepting D1 when D0 holds"),
    beta: float = typer.Option(0.05, help="SPRT: chance of accepting D0 when D1 holds"),
):
    """Paired comparison of bot A against bot B: same deals and dice, seats rotated."""
    from analyzer.engine.botspec import parse_bot_list
    from analyzer.engine.compare import Sprt, compare as run, render
    from analyzer.engine.simulate import check_run_options, default_threads
    from analyzer.games import default_players, match_class

    cls = match_class(game)
    players = players if players is not None else default_players(game)
    threads = default_threads() if threads is None else threads
    check_run_options(races, seed, threads, 1, cls.unit)
    (a,), (b,) = _one_bot(bot, "--bot"), _one_bot(vs, "--vs")
    test = None
    if sprt is not None:
        test = Sprt(*_two_floats(sprt, "--sprt"), alpha=alpha, beta=beta)
    board_path = str(board) if board is not None else None
    result = run(lambda table: cls(board_path, players, table), a, b, parse_bot_list(field),
                 players, races, seed, threads=threads, sprt=test)
    typer.echo(render(result))


@app.command()
def tournament(
    game: str = typer.Argument(..., help=GAME_HELP),
    bots: str = typer.Option(..., "--bots", help="the bots, at least 2: favourite,timer,random,tuned.toml"),
    players: Optional[int] = typer.Option(None, help="number of players (default 4)"),
    board: Optional[Path] = typer.Option(None, help="board/deck TOML file"),
    races: int = typer.Option(100_000, "--races", "--games",
                              help="races (or games) in all, spread evenly over tables and seat rotations"),
    seed: int = typer.Option(1, help="seed"),
    threads: Optional[int] = typer.Option(None, help="worker threads (default: all cores)"),
    gauntlet: Optional[str] = typer.Option(None, help="one bot at every table, against a field of the others"),
    report: Optional[Path] = typer.Option(None, help="write the tournament report (HTML, figures, CSV) to this path"),
    progress: Optional[bool] = typer.Option(None, "--progress/--no-progress", help="progress bar (default: on a terminal)"),
):
    """Round robin (or gauntlet) between bots on every table and seat rotation: ratings with intervals."""
    from analyzer.engine.botspec import parse_bot_list
    from analyzer.engine.progress import Progress
    from analyzer.engine.simulate import check_run_options, default_threads
    from analyzer.engine.tournament import planned_races, render, tournament as run
    from analyzer.games import default_players, match_class

    cls = match_class(game)
    players = players if players is not None else default_players(game)
    threads = default_threads() if threads is None else threads
    check_run_options(races, seed, threads, 1, cls.unit)
    specs = parse_bot_list(bots)
    hero = None
    if gauntlet is not None:
        (g,) = _one_bot(gauntlet, "--gauntlet")
        specs, hero = [g] + [s for s in specs if s != g], 0
    if report is not None:
        from analyzer.report import check_report_path

        check_report_path(Path(report))
    board_path = str(board) if board is not None else None
    for spec in dict.fromkeys(specs):  # every bad bot fails before any race
        cls(board_path, players, [spec] * players)
    with Progress(planned_races(len(specs), players, races, hero), cls.unit, enabled=progress) as bar:
        result = run(lambda table: cls(board_path, players, table), specs, players, races, seed,
                     threads=threads, gauntlet=hero, progress=bar)
    typer.echo(render(result))
    if report is not None:
        from analyzer.report.tournament import write_tournament_report

        typer.echo(f"report: {write_tournament_report(result, Path(report))}")


@app.command()
def tune(
    game: str = typer.Argument(..., help=GAME_HELP),
    bot: str = typer.Option(..., "--bot", help="the bot to tune and its starting point: timer, timer:late_bets=0, "
                                                  "a bot .toml file or a user bot .py file"),
    against: str = typer.Option("random", "--against", help="the other seats: one bot, or one per other seat"),
    budget: int = typer.Option(200_000, help="races (or games) in all: the search and a fresh re-measure "
                                              "(a quarter)"),
    players: Optional[int] = typer.Option(None, help="number of players (default 4)"),
    board: Optional[Path] = typer.Option(None, help="board/deck TOML file"),
    seed: int = typer.Option(1, help="seed"),
    threads: Optional[int] = typer.Option(None, help="worker threads (default: all cores)"),
    params: Optional[str] = typer.Option(
        None, help="tune only these: name=lo:hi (or a bare name for the default range, 0.25x to 3x the "
                   "default); default: every parameter"),
    objective: str = typer.Option("win", help="win (win rate) or score (mean score)"),
    out: Optional[Path] = typer.Option(None, help="write the tuned bot to this .toml file (usable in --bots)"),
):
    """Tune a bot's parameters against a field (cross-entropy search on common races), then re-measure."""
    from analyzer.engine.botspec import parse_bot_list
    from analyzer.engine.simulate import check_run_options, default_threads
    from analyzer.engine.tune import parse_ranges, render, search_space, toml_text, tune as run
    from analyzer.games import bot_families, default_players, match_class

    cls = match_class(game)
    players = players if players is not None else default_players(game)
    threads = default_threads() if threads is None else threads
    check_run_options(budget, seed, threads, 1, cls.unit)
    (start,) = _one_bot(bot, "--bot")
    if out is not None and out.suffix != ".toml":
        raise AnalyzerError(f"--out must name a .toml file, got {out}")
    if out is not None and start.name.endswith(".py"):
        raise AnalyzerError("--out writes a bot .toml of a built-in bot; a user bot's tuned parameters are "
                            "printed: give them as FILE.py:name=value")
    board_path = str(board) if board is not None else None
    field = parse_bot_list(against)
    for spec in dict.fromkeys([start, *field]):  # every bad bot fails before any race
        cls(board_path, players, [spec] * players)
    family, base, defaults = _tunable(game, start)
    space = search_space(defaults, {**base, **dict(start.params)}, parse_ranges(params))
    result = run(lambda table: cls(board_path, players, table), family, start, {**base, **dict(start.params)},
                 space, field, players, budget, seed, threads=threads, objective=objective,
                 on_generation=lambda g: typer.echo(
                     f"generation {g.index}: best candidate {g.best_win.diff * 100:+.2f} pp win rate, "
                     f"{g.best_score.diff:+.3f} mean score against the start", err=True))
    typer.echo(render(result))
    if out is not None:
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(toml_text(result, out.stem), encoding="utf-8")
        except OSError as e:
            raise AnalyzerError(f"cannot write {out}: {e.strerror or e}") from None
        typer.echo(f"tuned bot: {out} (use it as --bots {out})")


def _tunable(game: str, spec) -> tuple[str, dict[str, float], dict[str, float]]:
    """The family behind a --bot (a built-in one, or a user bot file), its parameter
    values before the spec's overrides and the family's defaults."""
    from analyzer.games import registry

    families = registry(game).builtin
    if spec.name.endswith(".py"):  # a user bot: its declared parameters
        defaults = registry(game).resolve(spec).defaults()
        if not defaults:
            raise AnalyzerError(f"--bot {spec.name} declares no parameters to tune")
        return spec.name, defaults, defaults
    if spec.name.endswith(".toml"):
        f = registry(game).read_bot_toml(spec.name)
        return f.family, {**families[f.family].defaults(), **f.params}, families[f.family].defaults()
    if spec.name not in families:
        raise AnalyzerError(f"--bot must be a built-in bot ({', '.join(families)}), a bot .toml file or a "
                            f"user bot .py file, got {spec.name!r}")
    return spec.name, families[spec.name].defaults(), families[spec.name].defaults()


def _one_bot(text: str, option: str):
    from analyzer.engine.botspec import parse_bot_list

    specs = parse_bot_list(text)
    if len(specs) != 1:
        raise AnalyzerError(f"{option} takes one bot, got {len(specs)}")
    return specs


def _two_floats(text: str, option: str) -> tuple[float, float]:
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        return float(parts[0]), float(parts[1])
    except ValueError:
        raise AnalyzerError(f"{option} takes two numbers D0,D1, got {text!r}") from None


@app.command("bots")
def list_bots(game: str = typer.Argument(..., help="game: lemming-mafia")):
    """List the built-in bots of a game with their parameters."""
    from analyzer.games import registry

    bots = registry(game)
    for family in bots.builtin.values():
        typer.echo(f"{family.name}: {family.description}")
        for name, (_, default, help_text) in family.params.items():
            typer.echo(f"    {name}={default:g}  {help_text}")
    typer.echo("\nA bot TOML file (a built-in bot with its own defaults, as 'analyzer tune --out' writes) "
               "is named by its path.")
    if bots.user_bots:
        typer.echo(f"A user bot: a path to a .py file defining BOT = UserBot(...); its API: docs/bots-{game}.md")


def render_header(match, result) -> str:
    m = result.manifest
    lines = [f"{match.title}: {m[match.unit]:,} {match.unit}, {match.players} players, seed {m['seed']}"]
    lines += match.setup_lines()
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    # Start-up (numba, its compiled kernels, pandas) makes hundreds of thousands of
    # objects that live to the end, and the collector would scan them over and
    # over: a rarer collection saves about a tenth of a second a command. Cycles
    # are still collected.
    gc.set_threshold(50_000, 20, 20)
    try:
        app(args=argv, prog_name="analyzer", standalone_mode=False)
    except typer.Exit as e:
        sys.exit(getattr(e, "exit_code", 0))
    except typer.Abort:
        print("analyzer: interrupted", file=sys.stderr)
        sys.exit(130)
    except click_errors.NoArgsIsHelpError as e:
        print(e.format_message() if hasattr(e, "format_message") else e, file=sys.stderr)
        sys.exit(2)
    except click_errors.ClickException as e:
        print(f"analyzer: error: {e.format_message()}", file=sys.stderr)
        sys.exit(2 if isinstance(e, click_errors.UsageError) else e.exit_code)
    except AnalyzerError as e:
        print(f"analyzer: error: {e}", file=sys.stderr)
        sys.exit(e.exit_code)
    except KeyboardInterrupt:
        print("analyzer: interrupted", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(1)


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
            print(e.code, file=sys.stderr)
            code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (BrokenPipeError, OSError):
            code = code or 1
    os._exit(code)
