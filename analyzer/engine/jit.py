"""The one way the project compiles its kernels.

``error_model="numpy"`` makes integer division by zero return garbage instead of
raising; no kernel function raises at all (bad bot answers are reported through
an error code). A function that cannot raise has no exception paths, and only
then can numba prune the reference counting of array arguments: with it, every
call of a helper with array arguments costs two atomic operations per array,
several times the cost of the helper itself.
"""
import hashlib
import os
from pathlib import Path

import numba
from numba import njit


def _source_digest() -> str:
    """Hash of every source file that jitted code can come from (the engine's
    jit and rng modules and the games). numba's cache checks only the file of the
    cached function itself, not the helpers it inlines from other modules: keying
    the cache directory by all of them keeps a changed helper from running stale
    compiled code."""
    root = Path(__file__).resolve().parent.parent
    sources = [root / "engine" / "jit.py", root / "engine" / "rng.py", *(root / "games").rglob("*.py")]
    digest = hashlib.sha256()
    for path in sorted(sources):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _use_keyed_cache_dir() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return  # the user chose a place
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "analyzer" / "numba"
    target = base / _source_digest()
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError:
        return  # numba's default (next to the sources) still works
    numba.config.CACHE_DIR = str(target)


_use_keyed_cache_dir()

JIT_OPTIONS = dict(cache=True, nogil=True, error_model="numpy")


def kernel(fn=None, *, cache=True, allocates=False, inline=False, fastmath=False):
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
    if fastmath:
        options["fastmath"] = True
    if fn is None:
        return njit(**options)
    return njit(**options)(fn)
