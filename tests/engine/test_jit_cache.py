"""The compile cache follows the sources' content, not the checkout's place: a
copy of the package elsewhere (a fresh clone, CI's) loads the code compiled by
the first copy instead of compiling it again (``engine/jit.py``)."""
import shutil
import subprocess
import sys
from pathlib import Path

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
