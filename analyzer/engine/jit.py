"""The one way the project compiles its kernels.

- ``nogil``: worker threads run kernels side by side.
- ``error_model="numpy"``: integer division by zero does not raise; no kernel
  raises at all (bad bot answers come back as error codes), so the compiled code
  has no exception paths to carry.
- No reference counting in functions that allocate nothing (``_nrt=False``):
  numba otherwise counts references to every array argument of every call, two
  atomic operations per array, which cost several times what the small rule
  helpers do.
- The compile cache is keyed by the sources a kernel can come from (below):
  its own module and the analyzer modules it imports, nothing else.
"""
import ast
import hashlib
import os
import re
from functools import lru_cache
from pathlib import Path

import numba
import numpy as np
from numba import njit, types
from numba.core.registry import CPUDispatcher
from numba.core import caching

from analyzer.engine import callee_ir


def _load_numba_arrays_without_scipy() -> None:
    """Load numba's array functions as on an install without scipy. When they
    load (at the first kernel of a process) they probe for BLAS by importing
    ``scipy.linalg``: 0.3-0.5 s of every start where scipy is installed (the
    test extra), for ``np.dot`` and ``np.linalg`` in jitted code, which no
    kernel here uses. The probe then finds no BLAS, as on a plain install;
    ``scipy.linalg`` stays importable for everything else. Nothing to do if it
    is already loaded (the probe is then free) or numba's array functions are."""
    import sys

    if "scipy.linalg" in sys.modules or "numba.np.arraymath" in sys.modules:
        return
    sys.modules["scipy.linalg"] = None  # an import of it raises ImportError
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        del sys.modules["scipy.linalg"]


_load_numba_arrays_without_scipy()

_ROOT = Path(__file__).resolve().parent.parent  # the analyzer package


def _module_path(module: str) -> Path | None:
    parts = module.split(".")
    if parts[0] != "analyzer":
        return None
    base = _ROOT.joinpath(*parts[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def analyzer_imports(text: str) -> frozenset[str]:
    """The analyzer modules a Python source text imports (``from a.b import c``
    may name a module ``a.b.c`` or a name in ``a.b``: both are tried). Raises
    SyntaxError for text that is not Python."""
    found = set()
    # imports are statements: walking the statements alone (into the bodies of
    # functions, classes, ifs, trys...) finds every one without visiting the
    # expressions, most of the tree (ast.walk made this a tenth of a second of
    # every start-up)
    todo = list(ast.parse(text).body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.module and node.level == 0:
                found.add(node.module)
                found |= {f"{node.module}.{a.name}" for a in node.names}
        else:
            for block in ("body", "orelse", "finalbody", "handlers", "cases"):
                todo.extend(getattr(node, block, None) or ())
    return frozenset(m for m in found if m.split(".")[0] == "analyzer" and _module_path(m) is not None)


# the first line of an import statement, at any indentation
_IMPORT_LINE = re.compile(r"[ \t]*(?:import|from)[ \t]")
_STATEMENT_LINES = 100


def import_statements(text: str) -> str:
    """The import statements of a Python source text, each dedented on its own
    lines (one continued over lines, in parentheses or after a backslash,
    whole): the text ``analyzer_imports`` finds the same imports in, found
    without parsing the whole module (every start-up keys the kernels' caches
    by their sources: parsing them took ~30 ms of it). A statement is taken
    line by line until it parses (at most ``_STATEMENT_LINES``); a line inside
    a string that reads as an import statement is taken too and at worst adds
    a source to a key, one that never parses is left out. Not for text that
    may not be Python (a user's bot file): that is ``analyzer_imports``' own
    check."""
    lines = text.split("\n")
    found = []
    for first, line in enumerate(lines):
        if not _IMPORT_LINE.match(line):
            continue
        for last in range(first, min(first + _STATEMENT_LINES, len(lines))):
            statement = "\n".join(lines[first:last + 1]).strip()
            try:
                ast.parse(statement)
            except SyntaxError:
                continue
            found.append(statement)
            break
    return "\n".join(found)


@lru_cache(maxsize=None)
def _analyzer_imports(path: Path) -> frozenset[str]:
    """``analyzer_imports`` of one of the package's source files, read once per
    process, from its import statements alone (``import_statements``)."""
    return analyzer_imports(import_statements(path.read_text(encoding="utf-8")))


def jit_sources(module: str) -> list[Path]:
    """The source files compiled code of ``module`` can come from: the module and
    every analyzer module it imports, transitively (helpers inlined, constants
    frozen in), without the packages' ``__init__`` files (declarations only).
    A game's match, summary tables, statistics or report are not among a kernel's
    sources, so editing them recompiles nothing of it."""
    seen: dict[str, Path] = {}
    todo = [module]
    while todo:
        m = todo.pop()
        path = _module_path(m)
        if m in seen or path is None or (path.name == "__init__.py" and m != module):
            continue
        seen[m] = path
        todo += _analyzer_imports(path)
    return sorted(set(seen.values()))


@lru_cache(maxsize=None)
def _cache_dir(module: str) -> str | None:
    """A cache directory keyed by a hash of the sources the module's kernels are
    compiled from (``jit_sources``). numba's cache checks only the file of the
    cached function itself, not the helpers it inlines from other modules or the
    constants it freezes in: keying the directory by all of them keeps a changed
    helper from running stale compiled code, and keying it by those alone keeps
    edits elsewhere (a report, a match, another game) from recompiling it. A
    ``NUMBA_CACHE_DIR`` the user sets is the base of these keyed directories."""
    digest = hashlib.sha256()
    for path in jit_sources(module):
        digest.update(str(path.relative_to(_ROOT)).encode())
        digest.update(path.read_bytes())
    base = (Path(os.environ["NUMBA_CACHE_DIR"]) if os.environ.get("NUMBA_CACHE_DIR")
            else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "analyzer" / "numba")
    target = base / f"{module.removeprefix('analyzer.').replace('.', '-')}-{digest.hexdigest()[:16]}"
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None  # numba's default (next to the sources) still works
    return str(target)


class _KeyedDirectoryLocator(caching.UserProvidedCacheLocator):
    """numba's locator for a user-set cache directory, without the sub-folder it
    adds there (named by a hash of the source file's absolute path): the keyed
    directory of ``_cache_dir`` already names the module and its sources'
    content, so a checkout in another place (a fresh clone, CI's) finds the
    code compiled for the same sources instead of compiling it again. numba's
    own check of the source file's content hash (the index's stamp) stays."""

    active = False  # set only while ``kernel`` makes a dispatcher in a keyed directory

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        self._cache_path = numba.config.CACHE_DIR

    _ensured: set = set()  # the directories checked in this process

    def ensure_cache_path(self):
        """numba's check (the directory made, a temporary file written in it),
        once a directory a process instead of once a kernel: a module's kernels
        share one keyed directory, and the check of each cost ~0.4 ms, ~40 ms
        of a start-up."""
        if self._cache_path not in self._ensured:
            super().ensure_cache_path()
            self._ensured.add(self._cache_path)

    @classmethod
    def from_function(cls, py_func, py_file):
        return super().from_function(py_func, py_file) if cls.active else None


caching.CacheImpl._locator_classes.insert(0, _KeyedDirectoryLocator)

JIT_OPTIONS = dict(cache=True, nogil=True, error_model="numpy")

# bot kinds from here on are user bots, in every game: a kernel answers them
# through the table of their compiled code's addresses (``bot_table.call_bot``)
USER_KIND_BASE = 100

# ``a[ix(i)]``: an index that cannot be negative, made unsigned. numba then skips
# the wrap-around of negative indices, a compare and a select on the latency
# chain of every load, which costs hot loops over flat arrays 10-15%. Never
# for an index that can be negative: it would read far outside the array.
ix = np.uint64


class _KernelDispatcher(CPUDispatcher):
    """A kernel's dispatcher: a call from compiled code compiles (or picks) the
    kernel for its arguments' plain types, never for a constant's literal type.
    numba's default types a constant argument as itself (``Literal[int](2)``),
    so ``ask(DECIDE_MOVE, ...)`` and ``ask(DECIDE_BET, ...)`` were two compiles
    of ``ask`` and of everything it calls with that argument (one game's
    ``ask`` compiled at least 14 times in one kernel, another's 24). A kernel
    inlined into its caller (``inline=True``) still sees the constant: LLVM
    folds it after inlining.

    A kernel compiled for a calling kernel is kept as IR for its caller to
    link, never made machine code of its own (``callee_ir``)."""

    def get_call_template(self, args, kws):
        with callee_ir.typing_a_call():
            return super().get_call_template(tuple(types.unliteral(a) for a in args),
                                             {k: types.unliteral(v) for k, v in kws.items()})

    def compile(self, sig):
        return callee_ir.compile_(self, sig, super().compile)

    def add_overload(self, cres):
        callee_ir.add_overload(self, cres, super().add_overload)


def _plain_types(dispatcher, whole: bool = False):
    """``dispatcher`` (numba's, just made) as a :class:`_KernelDispatcher`."""
    dispatcher.__class__ = _KernelDispatcher
    dispatcher.compiled_whole = whole
    return dispatcher


def kernel(fn=None, *, cache=True, allocates=False, inline=False, whole=False):
    """``njit`` with the project's options; ``cache=False`` for one-off code.

    Functions that allocate no array (``allocates=False``) compile without
    reference counting: they only borrow the arrays they are given. Each array
    argument of a call is passed as seven or more machine words, so functions
    on the hot path are inlined (``inline=True``) by LLVM, which is told to
    always inline them (numba's ``forceinline``). They are not inlined in
    numba's own IR (``inline="always"``): that copies a callee's whole IR into
    every call site before typing, so a large kernel became one enormous
    function for type inference and for LLVM (the largest compiled for 6-11
    minutes and ~10 GB). Inlined by LLVM, each function is typed once, its IR
    linked into its callers, and the kernel Python calls is optimized once with
    its whole call tree (``callee_ir``): the same speed (records identical), a
    fraction of the compile (docs/performance.md, "Compile cost"). Any other
    kernel is called, or inlined where LLVM's own heuristics find it cheap.

    A kernel is compiled for the plain types of its arguments, never for a
    constant's literal type (:class:`_KernelDispatcher`).

    ``whole=True``: compiled whole (optimized and made machine code on its own)
    even when a calling kernel compiles it, as numba does, instead of kept as IR
    for the caller (``callee_ir``): where that was measured faster (one game's
    heuristic bots: its heuristic table 4% slower than before, not 9-21%)."""
    options = dict(JIT_OPTIONS, cache=cache)
    if not allocates:
        options["_nrt"] = False
    # explicit either way: numba lets a kernel compiled while an inlined one is
    # being typed inherit ``forceinline``, so whether a callee was inlined
    # depended on which kernel happened to compile it first
    options["forceinline"] = bool(inline)

    def compile_(f):
        if not cache:
            return _plain_types(njit(**options)(f), whole)
        # numba picks the cache directory when the dispatcher is made
        directory = _cache_dir(f.__module__)
        saved = numba.config.CACHE_DIR
        if directory is not None:
            numba.config.CACHE_DIR = directory
            _KeyedDirectoryLocator.active = True
        try:
            return _plain_types(njit(**options)(f), whole)
        finally:
            numba.config.CACHE_DIR = saved
            _KeyedDirectoryLocator.active = False

    return compile_ if fn is None else compile_(fn)
