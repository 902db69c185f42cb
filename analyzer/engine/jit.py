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
def _cache_dir(module: str) -> str:
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
        pass  # a cache that cannot be made is read (nothing) and not written, with a warning
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
        """This locator for a kernel made by ``kernel``, whether or not its
        directory can be written: numba's own would fall back to a folder
        next to the sources, keyed by their file alone (the stale helpers
        ``_cache_dir`` keys against). A directory that cannot be written is
        found out when the first compiled kernel is saved (``_save_or_warn``)."""
        if not cls.active or not os.path.exists(py_file):
            return None
        return cls(py_func, py_file)


caching.CacheImpl._locator_classes.insert(0, _KeyedDirectoryLocator)


# ------------------------------------------------------------- a cache that fails
# The kernel cache only ever saves time: a damaged entry (a file truncated by a
# full disk or a crash, random bytes) is dropped and the kernel compiled again,
# and a cache that cannot be written (a full disk, a read-only folder) is left
# alone for the rest of the process; either says so in one warning line on
# stderr, once a process. numba's own cache raises for both (an EOFError, which
# click took for Ctrl-C; an UnpicklingError; the OSError of a full disk, taken
# for the command's output failing).

CACHE_WARNINGS = True  # off in the compile-ahead workers: the command itself says it (``engine/warm.py``)
_warned: set = set()  # the kinds of warning given in this process
_saving = True  # False after a save failed: the rest of the process compiles without saving


def _warn(kind: str, text: str) -> None:
    if not CACHE_WARNINGS or kind in _warned:
        return
    _warned.add(kind)
    import sys

    if sys.stderr is not None:
        try:
            print(f"analyzer: warning: {text}", file=sys.stderr, flush=True)
        except (OSError, ValueError):
            pass  # stderr gone: the warning is all that is lost


def _reason(e: BaseException) -> str:
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    text = str(e).strip()
    return f"{type(e).__name__}: {text.splitlines()[0]}" if text else type(e).__name__


def _damaged(path: str, e: BaseException) -> None:
    """``path`` (an index or data file of the cache) cannot be read back: it goes."""
    try:
        os.unlink(path)
    except OSError:
        pass  # not ours to remove (a read-only cache): the save that follows fails and says so
    _warn("damaged", f"the kernel cache in {os.path.dirname(path)} held a damaged entry "
                     f"({os.path.basename(path)}: {_reason(e)}); it was dropped and the kernel compiled again")


_numba_load_index = caching.IndexDataCacheFile._load_index


def _load_index(self):
    """numba's index of a cached function, or none (``{}``) for a damaged one."""
    try:
        return _numba_load_index(self)
    except OSError:
        return {}  # a cache that cannot be read is not a damaged one: the save after the compile says why
    except Exception as e:
        _damaged(self._index_path, e)
        return {}


def _load(self, key):
    """numba's ``IndexDataCacheFile.load``: a data file that does not read back
    is dropped (the compile that follows writes it again under its index entry)."""
    name = self._load_index().get(key)
    if name is None:
        return None
    try:
        return self._load_data(name)
    except OSError:
        return None  # removed while the index still names it, or unreadable: compiled again
    except Exception as e:
        _damaged(self._data_path(name), e)
        return None


_numba_load_overload = caching.Cache.load_overload
_numba_save_overload = caching.Cache.save_overload


def _load_or_compile(self, sig, target_context):
    """A cached kernel whose data reads but cannot be rebuilt is compiled again,
    its function's entries dropped (an empty index: numba's ``flush``)."""
    try:
        return _numba_load_overload(self, sig, target_context)
    except Exception as e:
        try:
            self.flush()
        except OSError:
            pass  # a cache that cannot be written: the save that follows says so
        _warn("damaged", f"the kernel cache in {self._cache_path} held a damaged entry "
                         f"({_reason(e)}); it was dropped and the kernel compiled again")
        return None


def _save_or_warn(self, sig, data):
    """numba's save. One that cannot write (an OSError) leaves the cache alone
    for the rest of the process; any other failure skips this kernel's save."""
    global _saving
    if not _saving:
        return
    try:
        _numba_save_overload(self, sig, data)
    except OSError as e:
        _saving = False
        _warn("unwritable", f"cannot write the kernel cache in {self._cache_path} ({_reason(e)}); "
                            "kernels compiled by this command are not saved")
    except Exception as e:
        _warn("unsaved", f"a compiled kernel could not be saved in the kernel cache in {self._cache_path} "
                         f"({_reason(e)}); it is compiled again next time")


caching.IndexDataCacheFile._load_index = _load_index
caching.IndexDataCacheFile.load = _load
caching.Cache.load_overload = _load_or_compile
caching.Cache.save_overload = _save_or_warn

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
        saved = numba.config.CACHE_DIR
        numba.config.CACHE_DIR = _cache_dir(f.__module__)
        _KeyedDirectoryLocator.active = True
        try:
            return _plain_types(njit(**options)(f), whole)
        finally:
            numba.config.CACHE_DIR = saved
            _KeyedDirectoryLocator.active = False

    return compile_ if fn is None else compile_(fn)
