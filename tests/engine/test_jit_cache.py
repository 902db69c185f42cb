"""The compile cache follows the sources' content, not the checkout's place: a
copy of the package elsewhere (a fresh clone, CI's) loads the code compiled by
the first copy instead of compiling it again (``engine/jit.py``)."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import analyzer

PROBE = """
import numpy as np
from analyzer.engine import rng
buf = np.zeros(4, np.uint64)
rng.seed_stream(buf, 0, 7, 3)
s = rng.seed_stream.stats
print(sum(s.cache_hits.values()), sum(s.cache_misses.values()), int(buf[0]))
"""


def _probe(root: Path, cache: Path) -> tuple[int, int, int]:
    env = {"PYTHONPATH": str(root), "NUMBA_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=root, capture_output=True, text=True,
                         check=True).stdout.split()
    return int(out[0]), int(out[1]), int(out[2])


def test_a_copy_elsewhere_loads_what_the_first_copy_compiled(tmp_path):
    package = Path(analyzer.__file__).parent
    ignore = shutil.ignore_patterns("__pycache__")
    for name in ("a", "b"):
        shutil.copytree(package, tmp_path / name / "analyzer", ignore=ignore)
    cache = tmp_path / "cache"
    hits, misses, first = _probe(tmp_path / "a", cache)
    assert (hits, misses) == (0, 1)  # compiled and saved
    hits, misses, again = _probe(tmp_path / "b", cache)
    assert (hits, misses) == (1, 0) and again == first  # loaded, same code
    # an edit of a source it is compiled from is a new key: compiled again, not loaded stale
    rng = tmp_path / "b" / "analyzer" / "engine" / "rng.py"
    rng.write_text(rng.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert _probe(tmp_path / "b", cache)[:2] == (0, 1)


STARTUP_PROBE = """
import sys
import numpy as np
from analyzer.engine import rng
buf = np.zeros(4, np.uint64)
rng.seed_stream(buf, 0, 7, 3)  # a kernel runs: numba's array functions are loaded
from numba.np import arraymath
loaded_at_start = "scipy.linalg" in sys.modules
import scipy.linalg
print(loaded_at_start, arraymath._HAVE_BLAS, scipy.linalg.cython_blas.__name__)
"""


def test_a_kernel_starts_without_loading_scipy_linalg():
    """numba's BLAS probe would import scipy.linalg (0.3-0.5 s of every start
    where scipy is installed); jit.py answers it as an install without scipy
    would, and scipy.linalg stays importable afterwards."""
    out = subprocess.run([sys.executable, "-c", STARTUP_PROBE], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "False", "scipy.linalg.cython_blas"]


TRICKY = '''"""A docstring.

    from analyzer.engine import rng
from the water on, nothing
"""
import numpy as np
from analyzer.engine.jit import (  # noqa: F401  (a comment (with parentheses))
    ix,
    kernel,
)
from analyzer.engine.rng import below, \\
    next_u64


def f():
    if True:
        from analyzer.engine import floats
    import analyzer.games.lemming_mafia.layout as L
    return L
'''


def test_the_import_scan_finds_the_imports_a_parse_finds():
    """``jit.import_statements`` (what the start-up reads to key the kernels'
    caches) finds every analyzer import the whole module's parse finds: in
    parentheses with comments, continued by a backslash, nested in functions.
    A line of a docstring that reads as an import may add a module (a source
    more in a key, never one fewer); one that does not parse is left out."""
    from analyzer.engine.jit import analyzer_imports, import_statements

    assert analyzer_imports(import_statements(TRICKY)) == analyzer_imports(TRICKY) | {"analyzer.engine.rng"}
    assert analyzer_imports(TRICKY) == {
        "analyzer.engine", "analyzer.engine.jit", "analyzer.engine.rng", "analyzer.engine.floats",
        "analyzer.games.lemming_mafia.layout"}
    package = Path(analyzer.__file__).parent
    for path in sorted(package.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert analyzer_imports(import_statements(text)) >= analyzer_imports(text), path


# ------------------------------------------------------------ a cache that fails

# the start of a script run in place of another: the disk under the kernel
# cache is full, nothing can be written there
FULL_DISK = """
import builtins, errno, os, runpy, sys
cache = os.environ["NUMBA_CACHE_DIR"]
real_open = builtins.open


def open_on_a_full_disk(file, mode="r", *args, **kwargs):
    if any(c in mode for c in "wax+") and os.path.abspath(str(file)).startswith(cache):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(file))
    return real_open(file, mode, *args, **kwargs)


builtins.open = open_on_a_full_disk
"""


def _probe_run(cache: Path, *argv: str) -> subprocess.CompletedProcess:
    """``python ARGV`` (the probe by default) on the kernel cache ``cache``."""
    root = Path(analyzer.__file__).parent.parent
    env = {"PYTHONPATH": str(root), "NUMBA_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, *(argv or ("-c", PROBE))], env=env, cwd=root, capture_output=True,
                          text=True, timeout=300)


def _numbers(proc: subprocess.CompletedProcess) -> tuple[int, int, int]:
    assert proc.returncode == 0, proc.stderr
    hits, misses, value = proc.stdout.split()
    return int(hits), int(misses), int(value)


def _damage(entry: Path, how: str) -> None:
    data = entry.read_bytes()
    entry.write_bytes({"empty": b"", "half": data[:len(data) // 2],
                       "random": bytes(range(7, 256, 3)) * 3}[how])


@pytest.fixture(scope="module")
def filled_cache(tmp_path_factory) -> tuple[Path, int]:
    """A kernel cache holding one small kernel (the seed stream), and its answer."""
    cache = tmp_path_factory.mktemp("cache") / "numba"
    hits, misses, value = _numbers(_probe_run(cache))
    assert (hits, misses) == (0, 1)
    return cache, value


@pytest.mark.parametrize("suffix, how", [(".nbc", "empty"), (".nbc", "random"), (".nbi", "empty"),
                                         (".nbi", "half"), (".nbi", "random")])
def test_a_damaged_cache_entry_is_compiled_again_with_one_warning(filled_cache, tmp_path, suffix, how):
    """A truncated or garbled index or data file (a crash or a full disk while
    numba wrote it, a bad sector) is dropped and the kernel compiled again,
    with one line naming the cache folder: not an EOFError (which click took
    for Ctrl-C: "interrupted", exit 130), an UnpicklingError or a ValueError,
    and not again on the next run."""
    cache = tmp_path / "numba"
    shutil.copytree(filled_cache[0], cache)
    entries = sorted(cache.rglob(f"*{suffix}"))
    assert entries
    for entry in entries:
        _damage(entry, how)
    proc = _probe_run(cache)
    assert _numbers(proc)[1:] == (1, filled_cache[1])  # compiled again, the same code
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("analyzer: warning: the kernel cache in "), proc.stderr
    assert str(entries[0].parent) in lines[0] and "compiled again" in lines[0]
    again = _probe_run(cache)
    assert _numbers(again) == (1, 0, filled_cache[1]) and again.stderr == ""  # saved whole this time


def test_a_cache_that_cannot_be_written_is_skipped_with_one_warning(tmp_path):
    """A full disk under the cache: the kernel is compiled and runs, one warning
    line names the cache, and the command goes on (it was "cannot write the
    output", exit 1, though the output was fine)."""
    cache = tmp_path / "numba"
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE, encoding="utf-8")
    wrapper = tmp_path / "full_disk.py"
    wrapper.write_text(FULL_DISK + "sys.argv = sys.argv[1:]\nrunpy.run_path(sys.argv[0], run_name='__main__')\n",
                       encoding="utf-8")
    proc = _probe_run(cache, str(wrapper), str(probe))
    assert _numbers(proc)[:2] == (0, 1)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"analyzer: warning: cannot write the kernel cache in {cache}")
    assert "No space left on device" in lines[0]
    assert not list(cache.rglob("*.nb[ic]"))  # nothing half-written left behind
    # with room again, the next run fills it
    assert _numbers(_probe_run(cache))[:2] == (0, 1)
    assert _numbers(_probe_run(cache))[:2] == (1, 0)
