"""The one way the project compiles its kernels.

- ``nogil``: worker threads run kernels side by side.
- ``error_model="numpy"``: integer division by zero does not raise; no kernel
  raises at all (bad bot answers come back as error codes), so the compiled code
  has no exception paths to carry.
- No reference counting in functions that allocate nothing (``_nrt=False``):
  numba otherwise counts references to every array argument of every call, two
  atomic operations per array, which cost several times what the small rule
  helpers do.
- The compile cache is keyed by the sources a kernel can come from (below).
"""
import hashlib
import os
from functools import lru_cache
from pathlib import Path

import numba
import numpy as np
from numba import njit

_ROOT = Path(__file__).resolve().parent.parent  # the analyzer package


@lru_cache(maxsize=None)
def _cache_dir(game: str | None) -> str | None:
    """A cache directory keyed by a hash of the engine's jitted modules and of the
    game's folder. numba's cache checks only the file of the cached function
    itself, not the helpers it inlines from other modules: keying the directory
    by all of them keeps a changed helper from running stale compiled code, and
    keying it per game keeps one game's edits from recompiling another. A
    ``NUMBA_CACHE_DIR`` the user sets is the base of these keyed directories."""
    sources = [_ROOT / "engine" / "jit.py", _ROOT / "engine" / "rng.py"]
    if game is not None:
        sources += (_ROOT / "games" / game).rglob("*.py")
    digest = hashlib.sha256()
    for path in sorted(sources):
        digest.update(str(path.relative_to(_ROOT)).encode())
        digest.update(path.read_bytes())
    base = (Path(os.environ["NUMBA_CACHE_DIR"]) if os.environ.get("NUMBA_CACHE_DIR")
            else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "analyzer" / "numba")
    target = base / f"{game or 'engine'}-{digest.hexdigest()[:16]}"
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None  # numba's default (next to the sources) still works
    return str(target)


def _game_of(module: str) -> str | None:
    parts = module.split(".")
    if len(parts) >= 3 and parts[:2] == ["analyzer", "games"]:
        return parts[2]
    return None


JIT_OPTIONS = dict(cache=True, nogil=True, error_model="numpy")

# ``a[ix(i)]``: an index that cannot be negative, made unsigned. numba then skips
# the wrap-around of negative indices, a compare and a select on the latency
# chain of every load, which costs hot loops over flat arrays 10-15%. Never
# for an index that can be negative: it would read far outside the array.
ix = np.uint64


def kernel(fn=None, *, cache=True, allocates=False, inline=False):
    """``njit`` with the project's options; ``cache=False`` for one-off variants.

    Functions that allocate no array (``allocates=False``) compile without
    reference counting: they only borrow the arrays they are given. Each array
    argument of a call is passed as seven or more machine words, so small
    functions on the hot path are inlined (``inline=True``); never inline into a
    function that allocates, which would count references again."""
    options = dict(JIT_OPTIONS, cache=cache)
    if not allocates:
        options["_nrt"] = False
    if inline:
        options["inline"] = "always"

    def compile_(f):
        if not cache:
            return njit(**options)(f)
        # numba picks the cache directory when the dispatcher is made
        directory = _cache_dir(_game_of(f.__module__))
        saved = numba.config.CACHE_DIR
        if directory is not None:
            numba.config.CACHE_DIR = directory
        try:
            return njit(**options)(f)
        finally:
            numba.config.CACHE_DIR = saved

    return compile_ if fn is None else compile_(fn)
