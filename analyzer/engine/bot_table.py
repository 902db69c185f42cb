"""User bots called by address: a compiled kernel answers a user bot's decision
without being compiled around it. Knows no game.

A kernel is compiled once, for the built-in bots, and cached. A user bot is
compiled on its own, in seconds (a fast bot as a C-callable function, numba's
``cfunc``; a plain bot is no compile at all: a ctypes callback into Python), and
its address is written into one process-wide table of ``(kind, address)``
pairs. A kernel meeting a user bot's kind calls :func:`call_bot`, which finds
the kind in the table and calls the address with the decision's arguments in
C form (:data:`C_DECIDE`). Before, each set of user bots compiled the whole
game kernel again around them: minutes, gigabytes, and a cache entry a bot.

The table is found by compiled code through a symbol, :data:`SYMBOL`, given to
LLVM's symbol table when this module is imported (before any kernel that reads
it is loaded or compiled): a kernel's cached machine code refers to the table
by that name, and each process resolves it to its own table. Kinds are
functions of a bot's game and text (``userbots._kind_of``), so the same bot has
the same kind in every process; a cluster worker registers the bots it receives.

Only the Python side writes the table, under a lock and before the kernels that
need the new entry run: an entry's kind and address are written before the
count that makes it visible.
"""
from __future__ import annotations

import ctypes
import threading

from llvmlite import binding as llvm_binding
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from analyzer.engine.jit import kernel

SYMBOL = "analyzer_user_bot_table"
CAPACITY = 4096  # bots a process can hold at once (a tournament's or a sweep's, with room to spare)

# The C form of a decision (the kernels' ``decide(what, seat, kind, game, state,
# params, n_options)`` with each array as its first element's address and its
# length): what a user bot's compiled entry takes.
C_DECIDE = types.int64(types.int64, types.int64, types.int64,
                       types.CPointer(types.int64), types.int64,
                       types.CPointer(types.int64), types.int64,
                       types.CPointer(types.float64), types.int64,
                       types.int64)
C_DECIDE_CTYPES = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64,
                                   ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64,
                                   ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)

NO_BOT = -(1 << 40)  # the answer when no user bot of that kind is in the table: out of every range

# word 0: the number of entries; entry i: kind at 1 + 2i, address at 2 + 2i
_table = (ctypes.c_int64 * (1 + 2 * CAPACITY))()
_keep: dict[int, object] = {}  # kind -> what keeps its code alive (a cfunc, a ctypes callback)
_lock = threading.Lock()
llvm_binding.add_symbol(SYMBOL, ctypes.addressof(_table))


def register(kind: int, address: int, owner: object) -> None:
    """Answer ``kind``'s decisions with the C function at ``address`` (``C_DECIDE``
    form); ``owner`` is kept alive as long as the entry (the function's code).
    A kind already in the table gets the new address."""
    if not address:
        raise ValueError(f"bot kind {kind}: no code at address 0")
    with _lock:
        n = _table[0]
        for i in range(n):
            if _table[1 + 2 * i] == kind:
                _table[2 + 2 * i] = address
                _keep[kind] = owner
                return
        if n >= CAPACITY:
            raise RuntimeError(f"more than {CAPACITY} user bots loaded in one process")
        _table[1 + 2 * n] = kind
        _table[2 + 2 * n] = address
        _keep[kind] = owner
        _table[0] = n + 1  # last: the entry is whole before a kernel can see it


def registered(kind: int) -> bool:
    with _lock:
        return any(_table[1 + 2 * i] == kind for i in range(_table[0]))


@intrinsic
def _table_word(typingctx, i):
    """Word ``i`` of the table, read through its symbol."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        word = ir.IntType(64)
        table = builder.module.globals.get(SYMBOL)
        if table is None:
            table = ir.GlobalVariable(builder.module, ir.ArrayType(word, 1 + 2 * CAPACITY), name=SYMBOL)
            table.linkage = "external"
        return builder.load(builder.gep(table, [ir.Constant(word, 0), args[0]]))

    return sig, codegen


@intrinsic
def _call_address(typingctx, address, what, seat, kind, game, state, params, n_options):
    """Call the ``C_DECIDE`` function at ``address``: each array as the address
    of its first element and its length (contiguous arrays: every array a
    kernel hands a bot is a whole row or a slice of one)."""
    sig = types.int64(address, what, seat, kind, game, state, params, n_options)

    def codegen(context, builder, signature, args):
        word = ir.IntType(64)

        def data_and_length(array_type, value, element):
            array = context.make_array(array_type)(context, builder, value)
            return builder.bitcast(array.data, element.as_pointer()), builder.extract_value(array.shape, 0)

        g, ng = data_and_length(signature.args[4], args[4], word)
        s, ns = data_and_length(signature.args[5], args[5], word)
        p, np_ = data_and_length(signature.args[6], args[6], ir.DoubleType())
        c_type = ir.FunctionType(word, [word, word, word, word.as_pointer(), word, word.as_pointer(), word,
                                        ir.DoubleType().as_pointer(), word, word])
        function = builder.inttoptr(args[0], c_type.as_pointer())
        return builder.call(function, [args[1], args[2], args[3], g, ng, s, ns, p, np_, args[7]])

    return sig, codegen


@kernel
def call_bot(what, seat, kind, game, state, params, n_options):
    """The answer of the user bot of ``kind`` to a decision (``NO_BOT`` if none
    of that kind is registered in this process)."""
    for i in range(_table_word(0)):
        if _table_word(1 + 2 * i) == kind:
            return _call_address(_table_word(2 + 2 * i), what, seat, kind, game, state, params, n_options)
    return NO_BOT
