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


def _games_help() -> tuple[str, str, str]:
    """Help texts from the games' declarations (``GameInfo``): the CLI names no game."""
    from analyzer.games import infos

    games = infos()
    game = "game: " + ", ".join(i.name for i in games)
    count = ("races or games to play, by the game's unit (" +
             "; ".join(f"{i.name}: {i.unit}" for i in games) + "); --games and --races are the same option")
    board = ("; ".join(f"{i.name}: {i.board_help}" for i in games) + " (default: the assumed one)")
    return game, count, board


GAME_HELP, COUNT_HELP, BOARD_HELP = _games_help()
ROLE_HELP = ("the seats the compared (or rated, or tuned) bots play, for a game whose seats have roles "
             "(default: the one role they can all play)")


@app.command()
def simulate(
    game: str = typer.Argument(..., help=GAME_HELP),
    board: Optional[Path] = typer.Option(None, help=BOARD_HELP),
    players: Optional[int] = typer.Option(None, help="number of players (default 4)"),
    bots: Optional[str] = typer.Option(
        None, help="one bot for every seat, or a comma list with one per seat, e.g. "
                   "BOT,BOT:param=value,... or path/to/bot.py; "
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
        ..., help="one or more directories written by simulate --out; several runs of one game with the "
                  "same board, players and bots are merged into one report"),
    out: Optional[Path] = typer.Option(None, help="report path (default: RUN_DIR-report.html beside the first)"),
    by: Optional[str] = typer.Option(
        None, "--by", help="players or board: runs that differ in it, reported side by side (without it, "
                           "several runs must share board, players and bots and are merged)"),
    min_effect: float = typer.Option(
        1.0, "--min-effect", help="percentage points: a colour, pig or seat is flagged only if it differs "
                                  "from fair by at least this much (and beyond chance)"),
):
    """Write the balance report of a finished run (or of several runs of one game, merged)."""
    from analyzer.report import build_report

    if not 0 <= min_effect < 100:
        raise AnalyzerError(f"--min-effect is in percentage points between 0 and 100, got {min_effect:g}")
    typer.echo(f"report: {build_report(run_dirs, out, by, min_effect / 100)}")


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
def replay(
    game: str = typer.Argument(..., help=GAME_HELP),
    board: Optional[Path] = typer.Option(None, help=BOARD_HELP),
    players: Optional[int] = typer.Option(None, help="number of players (default 4)"),
    bots: Optional[str] = typer.Option(None, help="the run's bots, as for simulate"),
    seed: int = typer.Option(1, help="the run's seed"),
    index: int = typer.Option(0, "--race", "--game", help="which race (or game) of the run, 0-based"),
    html: Optional[Path] = typer.Option(None, "--html", help="also write it as a timeline page (HTML)"),
):
    """Replay one race (or game) of a run move by move: every roll or card, decision and
    its options, field action, bet and contract, and the scoring, ending with its table rows."""
    from analyzer.engine.botspec import parse_bot_list, seat_bots
    from analyzer.engine.simulate import MAX_SEED
    from analyzer.games import game_info
    from analyzer.report.replay import render_text, write_html

    info = game_info(game)
    players = players if players is not None else info.default_players
    specs = seat_bots(parse_bot_list(bots if bots is not None else info.default_bot_list(players)), players)
    if not 0 <= seed <= MAX_SEED:
        raise AnalyzerError(f"--seed must be 0 to {MAX_SEED}, got {seed}")
    if not 0 <= index < 1 << 62:
        raise AnalyzerError(f"--{info.unit[:-1]} must be 0 or more, got {index}")
    match = info.load("match")(str(board) if board is not None else None, players, specs)
    result = match.replay(seed, index)
    typer.echo(render_text(result))
    if html is not None:
        typer.echo(f"timeline: {write_html(result, html)}")


@app.command()
def compare(
    game: str = typer.Argument(..., help=GAME_HELP),
    bot: str = typer.Option(..., "--bot", help="bot A, e.g. NAME or NAME:param=value"),
    vs: str = typer.Option(..., "--vs", help="bot B"),
    field: str = typer.Option("random", help="the other seats: one bot, or one per other seat"),
    players: Optional[int] = typer.Option(None, help="number of players (default 4)"),
    board: Optional[Path] = typer.Option(None, help=BOARD_HELP),
    races: int = typer.Option(200_000, "--races", "--games",
                              help="races (or games) per arm (the most with --sprt)"),
    seed: int = typer.Option(1, help="seed"),
    threads: Optional[int] = typer.Option(None, help="worker threads (default: all cores)"),
    sprt: Optional[str] = typer.Option(
        None, help="D0,D1: stop when a sequential test decides between win-rate differences A - B "
                   "of D0 and D1 percentage points (e.g. 0,1), looking every 2,000 races"),
    alpha: float = typer.Option(0.05, help="SPRT: chance of accepting D1 when D0 holds"),
    beta: float = typer.Option(0.05, help="SPRT: chance of accepting D0 when D1 holds"),
    role: Optional[str] = typer.Option(None, help=ROLE_HELP),
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
        test = Sprt.from_pp(*_two_floats(sprt, "--sprt"), alpha=alpha, beta=beta)
    board_path = str(board) if board is not None else None
    roles, role = _seat_role(game, players, [a, b], role)
    result = run(lambda table: cls(board_path, players, table), a, b, parse_bot_list(field),
                 players, races, seed, threads=threads, sprt=test, roles=roles, role=role)
    typer.echo(render(result))


@app.command()
def tournament(
    game: str = typer.Argument(..., help=GAME_HELP),
    bots: str = typer.Option(..., "--bots", help="the bots, at least 2: NAME,NAME,tuned.toml"),
    players: Optional[int] = typer.Option(None, help="number of players (default 4)"),
    board: Optional[Path] = typer.Option(None, help=BOARD_HELP),
    races: int = typer.Option(100_000, "--races", "--games",
                              help="races (or games) in all, spread evenly over tables and seat rotations"),
    seed: int = typer.Option(1, help="seed"),
    threads: Optional[int] = typer.Option(None, help="worker threads (default: all cores)"),
    gauntlet: Optional[str] = typer.Option(None, help="one bot at every table, against a field of the others"),
    role: Optional[str] = typer.Option(None, help=ROLE_HELP),
    field: Optional[str] = typer.Option(
        None, help="games with roles: the bots of the seats of other roles (one, or one per such seat)"),
    report: Optional[Path] = typer.Option(None, help="write the tournament report (HTML, figures, CSV) to this path"),
    progress: Optional[bool] = typer.Option(None, "--progress/--no-progress", help="progress bar (default: on a terminal)"),
):
    """Round robin (or gauntlet) between bots on every table and seat rotation: ratings with intervals."""
    from analyzer.engine.botspec import parse_bot_list
    from analyzer.engine.progress import Progress
    from analyzer.engine.simulate import check_run_options, default_threads
    from analyzer.engine.tournament import other_roles_field, planned_races, render, tournament as run
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
    roles, role = _seat_role(game, players, specs, role)
    places = roles.count(role)
    field_specs = parse_bot_list(field) if field is not None else None
    others = [s for s in range(players) if roles[s] != role]
    fill = dict(zip(others, other_roles_field(field_specs, len(others))))
    for spec in dict.fromkeys(specs):  # every bad bot fails before any race
        _check_bot(game, spec, role)
        cls(board_path, players, [fill.get(s, spec) for s in range(players)])
    with Progress(planned_races(len(specs), places, races, hero), cls.unit, enabled=progress) as bar:
        result = run(lambda table: cls(board_path, players, table), specs, players, races, seed,
                     threads=threads, gauntlet=hero, progress=bar, roles=roles, role=role,
                     field=field_specs)
    typer.echo(render(result))
    if report is not None:
        from analyzer.report.tournament import write_tournament_report

        typer.echo(f"report: {write_tournament_report(result, Path(report))}")


@app.command()
def tune(
    game: str = typer.Argument(..., help=GAME_HELP),
    bot: str = typer.Option(..., "--bot", help="the bot to tune and its starting point: NAME, NAME:param=value "
                                                  "or a bot .toml file"),
    against: str = typer.Option("random", "--against", help="the other seats: one bot, or one per other seat"),
    budget: int = typer.Option(200_000, help="races (or games) in all: the search and a fresh re-measure "
                                              "(a quarter)"),
    players: Optional[int] = typer.Option(None, help="number of players (default 4)"),
    board: Optional[Path] = typer.Option(None, help=BOARD_HELP),
    seed: int = typer.Option(1, help="seed"),
    threads: Optional[int] = typer.Option(None, help="worker threads (default: all cores)"),
    params: Optional[str] = typer.Option(
        None, help="tune only these: name=lo:hi (or a bare name for the default range, 0.25x to 3x the "
                   "default); default: every parameter"),
    objective: str = typer.Option("win", help="win (win rate) or score (mean score)"),
    out: Optional[Path] = typer.Option(None, help="write the tuned bot to this .toml file (usable in --bots)"),
    role: Optional[str] = typer.Option(None, help=ROLE_HELP),
):
    """Tune a bot's parameters against a field (cross-entropy search on common races), then re-measure."""
    from analyzer.engine.botspec import parse_bot_list
    from analyzer.engine.simulate import check_run_options, default_threads
    from analyzer.engine.seating import seat_tables
    from analyzer.engine.tune import parse_ranges, render, search_space, toml_text, tune as run
    from analyzer.games import bot_families, default_players, match_class

    cls = match_class(game)
    players = players if players is not None else default_players(game)
    threads = default_threads() if threads is None else threads
    check_run_options(budget, seed, threads, 1, cls.unit)
    (start,) = _one_bot(bot, "--bot")
    if out is not None and out.suffix != ".toml":
        raise AnalyzerError(f"--out must name a .toml file, got {out}")
    board_path = str(board) if board is not None else None
    field = parse_bot_list(against)
    roles, role = _seat_role(game, players, [start], role)
    _check_bot(game, start, role)
    cls(board_path, players, seat_tables(start, field, roles, role, "--against")[0][1])  # bad bots fail first
    family, base = _tunable(game, start)
    space = search_space(bot_families(game)[family].defaults(), {**base, **dict(start.params)},
                         parse_ranges(params), bot_families(game)[family].integer)
    result = run(lambda table: cls(board_path, players, table), family, start, {**base, **dict(start.params)},
                 space, field, players, budget, seed, threads=threads, objective=objective,
                 roles=roles, role=role,
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


def _seat_role(game: str, players: int, specs, role: str | None) -> tuple[list[str], str]:
    """Each seat's role, and the role the studied bots play: ``--role``, else the
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
    if len(playable) != 1:
        raise AnalyzerError(f"say which seats the bots play with --role ({', '.join(present)})")
    return roles, playable[0]


def _check_bot(game: str, spec, role: str) -> None:
    """A bot that cannot play ``role`` is refused in one line, before any race."""
    from analyzer.engine.bots import BotError
    from analyzer.games import registry

    family = registry(game).resolve(spec)
    if role not in family.roles:
        raise BotError(f"bot {spec.label!r} cannot play the {role} seats; it plays {', '.join(family.roles)}")


def _tunable(game: str, spec) -> tuple[str, dict[str, float]]:
    """The built-in family behind a --bot and its parameter values before the spec's overrides."""
    from analyzer.games import registry

    families = registry(game).builtin
    if spec.name.endswith(".toml"):
        f = registry(game).read_bot_toml(spec.name)
        return f.family, {**families[f.family].defaults(), **f.params}
    if spec.name not in families:
        raise AnalyzerError(f"--bot must be a built-in bot ({', '.join(families)}) or a bot .toml file, "
                            f"got {spec.name!r}")
    return spec.name, families[spec.name].defaults()


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
def list_bots(game: str = typer.Argument(..., help=GAME_HELP)):
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
        typer.echo("A user bot: a path to a .py file defining BOT = UserBot(...), e.g. sims/my_bot.py")


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
