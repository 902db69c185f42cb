"""A kernel compiled for a calling kernel is kept as LLVM IR, never made machine code.

numba compiles a kernel's callees before the kernel itself, each on its own: each
callee's module, with its whole call tree linked in, is optimized (LLVM's O3)
and made machine code, and then linked as IR into its caller, whose module is
optimized again with everything in it. Only the outermost kernel, the one Python
calls, ever runs: the machine code of every kernel below it is never called,
and each level of the call tree re-optimizes the whole tree below it. That was
most of a cold compile (docs/performance.md, "Compile cost").

Here a kernel compiled while a calling kernel is being typed (``nested``) keeps
its IR (function-level optimized, as every module numba adds) and skips the
module optimization and the machine code; its caller links that IR in and
optimizes the whole tree once, inlining bottom-up as before. Its dispatcher
keeps the compile so that every caller of the process links the same IR, but
never offers it to Python (it has no machine code) and never writes it to the
cache (it has no object code): a Python call of such a kernel compiles it whole,
as before, and caches it. A compile of ``Python -> kernel`` is unchanged, and
so is a kernel declared ``kernel(whole=True)`` (where that was measured faster).

This works on numba's internals (its code library, its lowering pass and its
dispatcher's overloads), as of numba 0.68: on any other version it is off
(``ACTIVE``) and kernels compile as numba compiles them, only slower. The
records are the same either way (tests/games/test_record_hashes.py)."""
import threading

import numba
from numba.core import codegen, cpu, typed_passes
from numba.core.compiler_lock import global_compiler_lock

# the numba versions whose internals this was written against and tested on
ACTIVE = numba.__version__.startswith("0.68.")

_state = threading.local()


def _stack() -> list:
    """The Python functions of the kernels being compiled for a caller, innermost last."""
    stack = getattr(_state, "stack", None)
    if stack is None:
        stack = _state.stack = []
    return stack


def nested() -> bool:
    """Whether a kernel is being typed as a callee of a kernel (not for Python)."""
    return getattr(_state, "nested", False)


class typing_a_call:
    """``with typing_a_call():`` around the typing of a call from a kernel: a
    kernel that compiles in it compiles for its caller."""

    def __enter__(self):
        self.saved = nested()
        _state.nested = True

    def __exit__(self, *exc):
        _state.nested = self.saved


def is_ir_only(library) -> bool:
    return getattr(library, "_ir_only", False)


class _NoSave:
    """A dispatcher's cache that loads but never saves: an IR-only compile has no
    object code to write."""

    def __init__(self, cache):
        self.cache = cache

    def load_overload(self, sig, target_context):
        return self.cache.load_overload(sig, target_context)

    def save_overload(self, sig, cres):
        pass


def compile_(dispatcher, sig, compile_whole):
    """``dispatcher.compile(sig)`` of a kernel: ``compile_whole(sig)`` is numba's.

    For a caller: the process's compile of these arguments if there is one, else
    an IR-only one (or the cache's). For Python: an IR-only compile is replaced
    by a whole one."""
    if not ACTIVE:
        return compile_whole(sig)
    from numba.core import sigutils

    args, _ = sigutils.normalize_signature(sig)
    args = tuple(args)
    with global_compiler_lock:
        existing = dispatcher.overloads.get(args)
        if nested():
            if existing is not None:
                return existing.entry_point
            if getattr(dispatcher, "compiled_whole", False):
                return compile_whole(sig)  # kernel(whole=True): as numba compiles it
            saved = dispatcher._cache
            dispatcher._cache = _NoSave(saved)
            _stack().append(dispatcher.py_func)
            try:
                return compile_whole(sig)
            finally:
                _stack().pop()
                dispatcher._cache = saved
        if existing is not None and is_ir_only(existing.library):
            del dispatcher.overloads[args]
        return compile_whole(sig)


def add_overload(dispatcher, cres, add_whole) -> None:
    """Keep an IR-only compile where callers find it, out of the table Python
    calls through; ``add_whole(cres)`` (numba's) for any other."""
    if not is_ir_only(cres.library):
        add_whole(cres)
        return
    dispatcher.overloads[tuple(cres.signature.args)] = cres


# --------------------------------------------------------------- numba's internals
_run_pass = typed_passes.BaseNativeLowering.run_pass
_optimize_final_module = codegen.CPUCodeLibrary._optimize_final_module
_finalize_final_module = codegen.CPUCodeLibrary._finalize_final_module
_get_pointer_to_function = codegen.JITCodeLibrary.get_pointer_to_function
_get_executable = cpu.CPUContext.get_executable


def _lowering(self, state):
    """Lowering: the kernel compiling for a caller gets an IR-only library (numba
    makes one per function when none is given)."""
    stack = _stack()
    if state.library is None and stack and nested() and state.func_id.func is stack[-1]:
        library = state.targetctx.codegen().create_library(state.func_id.func_qualname)
        library.enable_object_caching()
        library._ir_only = True
        state.library = library
    return _run_pass(self, state)


def _optimize_final(self):
    if not is_ir_only(self):
        _optimize_final_module(self)


def _finalize_final(self):
    if not is_ir_only(self):
        return _finalize_final_module(self)
    # what numba checks of a finished module, without adding it to the JIT engine
    self._finalize_dynamic_globals()
    self._verify_declare_only_symbols()
    self._finalized = True


def _pointer(self, name):
    if is_ir_only(self):
        self._ensure_finalized()
        return 0
    return _get_pointer_to_function(self, name)


def _executable(self, library, fndesc, env):
    if not is_ir_only(library):
        return _get_executable(self, library, fndesc, env)
    from numba import _dynfunc

    # never called (no machine code): the object callers find this compile by
    return _dynfunc.make_function(fndesc.lookup_module(), fndesc.qualname.split(".")[-1],
                                  "ir only", 0, env, (library,))


if ACTIVE:
    typed_passes.BaseNativeLowering.run_pass = _lowering
    codegen.CPUCodeLibrary._optimize_final_module = _optimize_final
    codegen.CPUCodeLibrary._finalize_final_module = _finalize_final
    codegen.JITCodeLibrary.get_pointer_to_function = _pointer
    cpu.CPUContext.get_executable = _executable
