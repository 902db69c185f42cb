"""Dependencies point one way: cli -> games registry -> a game -> {engine, report -> stats}.
Nothing outside a game's folder imports from it or names it (the registry's list
excepted), and the libraries import no game."""
import ast
import re
from pathlib import Path

import pytest

import analyzer
from analyzer.games import PACKAGES, infos

ROOT = Path(analyzer.__file__).resolve().parent
LIBRARIES = ("engine", "stats", "report")


def modules():
    for path in sorted(ROOT.rglob("*.py")):
        yield path, path.relative_to(ROOT.parent).with_suffix("").as_posix().replace("/", ".")


def game_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 3 and parts[:2] == ["analyzer", "games"] else None


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def names_of(info) -> list[str]:
    folder = info_folder(info)
    return [folder, info.name, info.title]


def info_folder(info) -> str:
    return next(p for p in PACKAGES if __import__(p, fromlist=["GAME"]).GAME is info).rsplit(".", 1)[1]


@pytest.mark.parametrize("info", infos(), ids=lambda i: i.name)
def test_nothing_outside_a_game_imports_or_names_it(info):
    folder = info_folder(info)
    offenders = []
    for path, module in modules():
        if game_of(module) == folder or module == f"analyzer.games.{folder}":
            continue
        text = path.read_text(encoding="utf-8")
        if module == "analyzer.games.__init__":  # the registry's one list of games
            text = text.replace(f'"analyzer.games.{folder}"', "")
        for imported in imports(path):
            if imported.startswith(f"analyzer.games.{folder}"):
                offenders.append(f"{module} imports {imported}")
        for other in infos():  # a name inside another game's name ("Mafia" in "Lemming Mafia") is not it
            if other is not info:
                for name in sorted(names_of(other), key=len, reverse=True):
                    if any(mine in name and mine != name for mine in names_of(info)):
                        text = text.replace(name, "")
        for name in names_of(info):
            if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text):
                offenders.append(f"{module} names {name!r}")
    assert not offenders, offenders


def test_libraries_import_no_game_and_no_cli():
    """The libraries find a game only by name, through the registry's lookups
    (``analyzer.games.game_info``), at run time: never a game's own module, never
    the CLI, and the registry never at import time (it imports the games)."""
    offenders = []
    for path, module in modules():
        if module.split(".")[1] not in LIBRARIES:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:  # module level
            if isinstance(node, ast.ImportFrom) and node.module in ("analyzer.games", "analyzer.cli"):
                offenders.append(f"{module} imports {node.module} at import time")
        for imported in imports(path):
            if imported.startswith("analyzer.games.") or imported in ("analyzer.cli", "analyzer.api"):
                offenders.append(f"{module} imports {imported}")
    assert not offenders, offenders


@pytest.mark.parametrize("info", infos(), ids=lambda i: i.name)
def test_kernels_are_cached_by_their_own_sources_only(info):
    """Editing a game's match, summary, statistics, report or declaration, or
    another game, does not recompile its kernels: they are not among the sources
    the kernel's cache directory is keyed by (``engine.jit.jit_sources``)."""
    from analyzer.engine.jit import jit_sources

    folder = info_folder(info)
    sources = {p.relative_to(ROOT).as_posix() for p in jit_sources(f"analyzer.games.{folder}.kernel")}
    assert f"games/{folder}/kernel.py" in sources and f"games/{folder}/layout.py" in sources
    assert "engine/rng.py" in sources
    for path in sources:
        assert path.startswith((f"games/{folder}/", "engine/")), path
        assert not path.endswith(("match.py", "summary.py", "stats.py", "__init__.py")), path
        assert "/report/" not in path, path


# The intended layering: face (cli, api) -> apps (sweep, compare,
# tune, ...) -> games -> report/engine -> stats -> registry. Each rule below is
# one arrow that ran the wrong way once; each fails if it comes back.
FACE = ("analyzer", "analyzer.__init__", "analyzer.__main__", "analyzer.cli", "analyzer.api")


def _top_level_names() -> set[str]:
    """The names ``from analyzer import ...`` brings in that are not modules."""
    return {p.stem for p in ROOT.glob("*.py")} | {p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file()}


def test_rule_the_version_comes_from_a_leaf_module():
    """Below the face nothing imports the ``analyzer`` package itself (whose
    ``__init__`` imports ``api.py``, the whole face): the version is read from
    ``analyzer.version``, which imports nothing."""
    offenders = []
    submodules = _top_level_names()
    for path, module in modules():
        if module in FACE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import) and any(a.name == "analyzer" for a in node.names):
                offenders.append(f"{module} imports analyzer")
            elif isinstance(node, ast.ImportFrom) and node.module == "analyzer":
                offenders += [f"{module} imports analyzer.{a.name}" for a in node.names if a.name not in submodules]
    assert not offenders, offenders
    assert "import" not in (ROOT / "version.py").read_text(encoding="utf-8").split('"""')[-1]


def _package(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 else None


def test_rule_the_engine_imports_no_report():
    """The engine reads its own manifest beside its writer (``engine.manifest``),
    not through the report library (``report.rundir.read_manifest`` once): no
    engine module imports from ``analyzer.report``, at import or at run time."""
    offenders = [f"{module} imports {imported}" for path, module in modules() if _package(module) == "engine"
                 for imported in imports(path) if imported.startswith("analyzer.report")]
    assert not offenders, offenders


def _stats_imports(prefix: str) -> list[str]:
    return [f"{module} imports {imported}" for path, module in modules() if _package(module) == "stats"
            for imported in imports(path) if imported == prefix or imported.startswith(prefix + ".")]


def test_rule_stats_imports_no_engine():
    """Statistics sit below the engine: ``stats.distributions`` compiles its
    continued fraction with numba's ``njit`` itself, not with the engine's
    ``kernel`` decorator (``engine.jit``) as it once did."""
    assert not _stats_imports("analyzer.engine"), _stats_imports("analyzer.engine")


def test_rule_stats_imports_no_registry():
    """Statistics know no game: a game's aggregator by its name is the
    registry's lookup (``analyzer.games.new_stats``), not ``analyzer.stats``'s
    (which imported ``game_info`` once)."""
    assert not _stats_imports("analyzer.games"), _stats_imports("analyzer.games")


def _import_graph() -> dict[str, set[str]]:
    """Each analyzer module (a package by its own name) -> the analyzer modules
    it imports, at import or at run time; ``from pkg import sub`` of a module
    ``sub`` is an import of ``pkg.sub`` only."""
    names = {}
    for path, module in modules():
        names[module.removesuffix(".__init__")] = path
    graph = {}
    for module, path in names.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                subs = {f"{node.module}.{a.name}" for a in node.names} & names.keys()
                found |= subs if len(subs) == len(node.names) else subs | {node.module}
        graph[module] = {m for m in found if m in names and m != module}
    return graph


def test_rule_no_import_circle():
    """No two analyzer modules import each other, directly or around a circle
    (``engine.bots`` and ``engine.userbots`` once did: the bot families they
    share are declared in ``engine.botfamily``)."""
    graph = _import_graph()
    assert "analyzer.engine.bots" not in graph["analyzer.engine.userbots"]
    circles, done = [], set()

    def walk(module, path):
        if module in path:
            circles.append(path[path.index(module):] + [module])
            return
        if module in done:
            return
        for imported in sorted(graph[module]):
            walk(imported, path + [module])
        done.add(module)

    for module in sorted(graph):
        walk(module, [])
    assert not circles, [" -> ".join(c) for c in circles]


def _private_api_uses(path: Path) -> list[str]:
    """The underscore names of ``analyzer.api`` a module imports or reads
    (``from analyzer.api import _x``, ``api._x``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module == "analyzer.api":
            found += [a.name for a in node.names if a.name.startswith("_")]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "api" \
                and node.attr.startswith("_") and not node.attr.startswith("__"):
            found.append(f"api.{node.attr}")
    return found


def test_rule_only_the_api_uses_its_private_names():
    """The CLI, the bench and the apps use the API's public, documented names: a
    private helper of api.py is free to change."""
    offenders = [f"{module} uses {name}" for path, module in modules() if module != "analyzer.api"
                 for name in _private_api_uses(path)]
    assert not offenders, offenders


def test_the_private_api_rule_catches_a_use(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("from analyzer.api import _secret\nfrom analyzer import api\napi._other()\n", encoding="utf-8")
    assert _private_api_uses(probe) == ["_secret", "api._other"]


def test_rule_the_front_door_and_the_cost_models_stay_short():
    """README.md is the front door (what it is, the two commands, one example per
    command, where the docs are): at most 300 lines; docs/performance.md holds
    each game's current cost model and the method, not a diary: at most 400."""
    root = Path(__file__).resolve().parents[2]
    for name, limit in (("README.md", 300), ("docs/performance.md", 400)):
        lines = (root / name).read_text(encoding="utf-8").count("\n")
        assert lines <= limit, f"{name} has {lines} lines (at most {limit}): move reference detail to docs/"


def test_rule_no_module_over_900_lines():
    """A module a reader can hold in mind: none of the package's modules grows past
    900 lines (Mafia's kernel is split by the rulebook's phases: ``core``,
    ``movement``, ``activities``, ``kernel``)."""
    package = Path(analyzer.__file__).resolve().parent
    long = {str(p.relative_to(package)): n for p in package.rglob("*.py")
            if (n := p.read_text(encoding="utf-8").count("\n")) > 900}
    assert not long, f"modules over 900 lines (split them by what they do): {long}"
