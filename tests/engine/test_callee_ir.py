"""A kernel compiled for a calling kernel is kept as IR for its caller, never
made machine code (``engine/callee_ir.py``); a Python call of it compiles it
whole; and the installed numba is one it is written for (else every cold compile
is the slower one, which only ``make bench`` would show)."""
import numpy as np

from analyzer.engine import callee_ir
from analyzer.engine.jit import kernel


@kernel(cache=False)
def _leaf(x, k):
    return x * k + 1


@kernel(cache=False)
def _middle(a, k):
    total = 0
    for i in range(a.size):
        total += _leaf(a[i], k)
    return total


@kernel(cache=False)
def _outer(a):
    return _middle(a, 3) - _leaf(2, 5)


def _only(dispatcher):
    (cres,) = dispatcher.overloads.values()
    return cres


def test_the_installed_numba_is_one_it_is_written_for():
    assert callee_ir.ACTIVE


def test_callees_are_ir_linked_into_the_caller_and_whole_when_python_calls_them():
    a = np.arange(5, dtype=np.int64)
    assert _outer(a) == (3 * 10 + 5) - 11
    assert not callee_ir.is_ir_only(_only(_outer).library)  # what Python calls: machine code
    for callee in (_middle, _leaf):
        assert callee_ir.is_ir_only(_only(callee).library)  # linked into _outer only
    # a Python call compiles it whole, in place of the IR-only compile
    assert _middle(a, 2) == 2 * 10 + 5
    assert not callee_ir.is_ir_only(_only(_middle).library)
    assert _leaf(4, 2) == 9
    assert not callee_ir.is_ir_only(_only(_leaf).library)
    # and the caller compiled before is untouched
    assert _outer(a + 1) == (3 * 15 + 5) - 11


def test_a_caller_compiled_later_links_the_same_ir():
    @kernel(cache=False)
    def leaf(x):
        return x + 7

    @kernel(cache=False)
    def first(x):
        return leaf(x) * 2

    @kernel(cache=False)
    def second(x):
        return leaf(x) * 3

    assert first(1) == 16
    ir_only = _only(leaf)
    assert callee_ir.is_ir_only(ir_only.library)
    assert second(1) == 24
    assert _only(leaf) is ir_only  # compiled once, linked by both


def test_a_kernel_declared_whole_compiles_whole_for_its_caller():
    @kernel(cache=False, whole=True)
    def whole(x):
        return x - 1

    @kernel(cache=False)
    def caller(x):
        return whole(x) * 2

    assert caller(5) == 8
    assert not callee_ir.is_ir_only(_only(whole).library)
    assert whole(5) == 4  # callable from Python as it is: nothing compiled again
    assert len(whole.overloads) == 1
