"""Float helpers for jitted code: a float's bits as an integer and back, a fused
multiply-add, and ``exp`` inlined.

``exp`` is the algorithm of glibc's ``exp`` (glibc 2.28 and later, from Arm's
optimized-routines, the variant built for CPUs with FMA, which x86-64 glibc
selects on such CPUs): the same table, the same constants, the same operations
in the same order, so it returns the same double bit for bit
(``tests/engine/test_floats.py`` compares it with ``math.exp`` on millions of
inputs). numba's ``math.exp`` calls the C library, through a compatibility
wrapper: a call, in a large jitted function, also costs the registers it must
save around it. Inlined, the bots' sigmoids cost about half. Results no longer
depend on the C library either: a platform whose ``exp`` rounds differently
still plays the same decisions.
"""
import math
import struct

import numpy as np
from llvmlite import ir as llvm_ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from analyzer.engine.jit import ix, kernel


@intrinsic
def bits_of_float(typingctx, value):
    """The 64 bits of a float64 as an int64 (no conversion), for a select
    without a branch or for bit arithmetic on a float."""
    if not isinstance(value, types.Float):
        return None

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], llvm_ir.IntType(64))
    return types.int64(types.float64), codegen


@intrinsic
def float_of_bits(typingctx, bits):
    """The float64 whose 64 bits ``bits_of_float`` gave."""
    if not isinstance(bits, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], llvm_ir.DoubleType())
    return types.float64(types.int64), codegen


@intrinsic
def fma(typingctx, a, b, c):
    """``a * b + c`` rounded once (IEEE fused multiply-add; a library call on a
    CPU without the instruction, the same result)."""
    if not all(isinstance(t, types.Float) for t in (a, b, c)):
        return None

    def codegen(context, builder, signature, args):
        double = llvm_ir.DoubleType()
        fn = cgutils.get_or_insert_function(
            builder.module, llvm_ir.FunctionType(double, [double, double, double]), "llvm.fma.f64")
        return builder.call(fn, [context.cast(builder, value, kind, types.float64)
                                 for value, kind in zip(args, signature.args)])
    return types.float64(a, b, c), codegen


# glibc's exp: exp(x) = 2^(k/N) * exp(r), N = 128, x = k ln2/N + r with
# |r| <= ln2/2N; exp(r) - 1 by a polynomial of degree 5 (its constant term 1
# and linear term r exact). The constants as glibc's e_exp_data.c writes them.
_N = 128
_INV_LN2_N = float.fromhex("0x1.71547652b82fep0") * _N
_NEG_LN2_HI_N = float.fromhex("-0x1.62e42fefa0000p-8")
_NEG_LN2_LO_N = float.fromhex("-0x1.cf79abc9e3b3ap-47")
_SHIFT = float.fromhex("0x1.8p52")  # adding it rounds to an integer, left in the low bits
_C2 = float.fromhex("0x1.ffffffffffdbdp-2")
_C3 = float.fromhex("0x1.555555555543cp-3")
_C4 = float.fromhex("0x1.55555cf172b91p-5")
_C5 = float.fromhex("0x1.1111167a4d017p-7")
# x outside [2^-54, 512) in magnitude (tiny, huge, inf, nan) takes the C
# library's call, which handles it: by the top 12 bits of |x|
_TOP_TINY = 0x3C9
_TOP_LARGE = 0x408


def _exp_table() -> np.ndarray:
    """glibc's table of 2^(k/N), k < N, two words each: the relative error of
    the nearest double, as a double's bits, then that double's bits less
    k << 45 (the exponent bits the caller adds back). Computed in integers
    with 128 fractional bits: 2^(1/N) by N = 2^7 nested integer square roots
    (each exact to the floor), its powers by truncating products (off by
    less than k units in the last of those 128 bits, far below what a
    double's rounding can see); Python's int division rounds correctly."""
    bits = 128
    one = 1 << bits
    root = 1 << (1 + _N * bits)  # 2, with bits * N fractional bits
    for _ in range(7):
        root = math.isqrt(root)  # 2^(1/N), with 128 fractional bits
    table = np.empty(2 * _N, np.int64)
    power = one
    for k in range(_N):
        nearest = power / one
        numerator, denominator = nearest.as_integer_ratio()
        exact_nearest = numerator * one // denominator  # exact: the denominator is a power of two
        tail = (power - exact_nearest) / exact_nearest
        table[2 * k] = struct.unpack("<q", struct.pack("<d", tail))[0]
        table[2 * k + 1] = struct.unpack("<q", struct.pack("<d", nearest))[0] - (k << 45)
        power = power * root >> bits
    return table


_EXP_TABLE = _exp_table()


@kernel(inline=True)
def exp(x):
    """``math.exp(x)``, bit for bit as glibc computes it (see the module)."""
    top = (bits_of_float(x) >> 52) & 0x7FF
    if (top < _TOP_TINY) | (top >= _TOP_LARGE):
        return math.exp(x)
    shifted = fma(x, _INV_LN2_N, _SHIFT)
    k_bits = bits_of_float(shifted)
    k = shifted - _SHIFT
    r = fma(k, _NEG_LN2_HI_N, x)
    r = fma(k, _NEG_LN2_LO_N, r)
    at = 2 * (k_bits & (_N - 1))
    tail = float_of_bits(_EXP_TABLE[ix(at)])
    scale = float_of_bits(_EXP_TABLE[ix(at + 1)] + (k_bits << 45))
    r2 = r * r
    # scale * (1 + tail + exp(r) - 1), in glibc's order of operations
    tmp = fma(fma(r, _C3, _C2), r2, tail + r)
    tmp = fma(r2 * r2, fma(r, _C5, _C4), tmp)
    return fma(scale, tmp, scale)
