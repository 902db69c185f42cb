"""The one way the project compiles its kernels.

``error_model="numpy"`` makes integer division by zero return garbage instead of
raising; no kernel function raises at all (bad bot answers are reported through
an error code). A function that cannot raise has no exception paths, and only
then can numba prune the reference counting of array arguments: with it, every
call of a helper with array arguments costs two atomic operations per array,
several times the cost of the helper itself.
"""
from numba import njit

JIT_OPTIONS = dict(cache=True, nogil=True, error_model="numpy")


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
    if fn is None:
        return njit(**options)
    return njit(**options)(fn)
