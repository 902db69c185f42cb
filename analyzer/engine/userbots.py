"""User bots for every game: a Python file defining ``BOT = UserBot(...)``,
whose ``decide(view) -> choice`` is plain Python (to try an idea) or the same
function with numba's ``@njit`` (to run it by the million). Knows no game.

A game declares what its bots see in a :class:`ViewSpec` (its ``view.py``): the
named fields of the flat arrays its kernel hands to ``decide``, the decision
kinds with their options and answers, and what stays hidden. From the spec:

- accessors (``position(view, color)``, ``options(view, i)``, ...): functions
  that run as plain Python when a plain bot calls them and are compiled into a
  fast bot (``numba.extending.register_jitable``), so both versions of a bot are
  the same code. Each checks its index against its field's length;
- ``describe(view)`` (also the view's ``repr``): the fields by name;
- the bot API page ``docs/bots-<game>.md`` (``engine/botpage.py``, written by
  ``python -m analyzer.docs``; a test checks it is current).

The game's kernel asks every decision through one ``decide(what, seat, kind,
game, state, params, n_options)``; bot kinds >= ``USER_KIND_BASE`` are answered
through ``engine/bot_table.py``: the kernel, compiled once for every bot and
cached, calls the address of the bot's own code. For each user bot the loader
builds an *adapter* with that signature, in the C form ``bot_table.C_DECIDE``
takes (each array as an address and a length), and registers its address under
the bot's kind:

- plain bot: a ctypes callback into Python, the view's arrays handed over
  without a copy (numpy views of the kernel's memory; a few microseconds a
  decision plus the bot's own Python). Nothing is compiled;
- fast bot: ``decide.py_func`` compiled again with ``boundscheck=True`` (an
  index out of bounds raises instead of reading another slot or crashing) and
  ``error_model="python"`` (a division by zero raises), called inside ``try``,
  the whole a C-callable function (numba's ``cfunc``): seconds to compile, the
  bot's code alone;
- both check the answer against the decision's declared answers.

A bot's kind is a function of its game, file name and text (``_kind_of``), so
the same bot has the same kind in every process, whatever else it loaded and
in whatever order; a cluster worker registers the bots it is sent under the
client's kinds. So that Python code the adapters call back (a plain bot, a
fault's report) is found by name, a bot's module and its adapter's are
registered under names fixed by the bot's text and kind.

A bot that raises, or answers outside its options, gets the answer ``FAULT``
(out of range for every decision of every game, so the kernel stops with its
error code) and a line saying what happened is recorded here; the match then
ends the run with that line (:func:`raise_fault`), naming the bot file.
"""
from __future__ import annotations

import collections
import ctypes
import importlib.util
import inspect
import sys
import threading
import traceback
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analyzer.engine import bot_table
from analyzer.engine.botfamily import BotFamily, UserBot
from analyzer.engine.jit import USER_KIND_BASE  # noqa: F401  (bot kinds from here on are user bots)
from analyzer.errors import BotError

# The kernels are nogil; a user bot's object mode (a plain bot's call, a fast
# bot's failure path) takes the GIL for its call, as it should: numba's warning
# about it says nothing to a user.
warnings.filterwarnings("ignore", message="Code running in object mode won't allow parallel")

FAULT = 1 << 30  # the answer of a bot that failed: out of every decision's range
VIEW_FIELDS = ("what", "seat", "n_options", "game", "state", "params")
DECIDE_ARGS = ("what", "seat", "kind", "game", "state", "params", "n_options")

# answers a decision takes (Decision.answer)
INDEX = "index"  # an option: 0 .. n_options - 1
INDEX_OR_PASS = "index_or_pass"  # an option, or -1
VALUE = "value"  # a number lo .. hi (Decision.lo, Decision.hi)


@dataclass(frozen=True)
class Field:
    """A named part of one of the arrays a bot receives.

    ``array``: "state" (int64, what the deciding player may see), "game"
    (int64, fixed for the run) or "params" (float64, the bot's own row);
    ``at``: its first slot; ``length``: 1 for a single number (accessor
    ``name(view)``), else the number of entries (accessor ``name(view, i)``,
    ``i`` checked against it); ``index``: what ``i`` counts."""
    name: str
    array: str
    at: int
    length: int
    meaning: str
    index: str = ""


@dataclass(frozen=True)
class Decision:
    """A decision kind: ``what`` (its number in the kernel), when it is asked,
    its options (``options(view, i)`` for ``i < n_options(view)``) and the
    answer it takes."""
    what: int
    name: str
    asked: str
    options: str
    answer: str  # INDEX, INDEX_OR_PASS or VALUE
    answer_text: str
    lo: int = 0  # VALUE answers: lo .. hi
    hi: int = 0


@dataclass(frozen=True)
class ViewSpec:
    """What a game's bots see, declared once in the game's ``view.py``."""
    game: str  # as on the command line
    title: str
    fields: tuple[Field, ...]
    decisions: tuple[Decision, ...]
    options_at: int  # state slot of option 0
    options_cap: int
    rng_at: int  # state slot of the deciding player's own random stream
    n_params: int  # parameter slots a bot may declare
    memory: int  # float64 slots after them a bot keeps between its decisions (0: none)
    memory_text: str  # when that memory is cleared
    hides: tuple[str, ...]  # what a bot does not see, in words
    roles: tuple[str, ...] = ("player",)
    functions: tuple = ()  # hand-written register_jitable helpers (documented by docstring)
    constants: tuple[tuple[str, int, str], ...] = ()  # (name, value, meaning) a bot file may import
    notes: str = ""  # game-specific remarks for the API page
    example: str = ""  # path of an example bot (plain version)

    def decision(self, what: int) -> Decision | None:
        return next((d for d in self.decisions if d.what == what), None)


# ------------------------------------------------------------------ accessors

def _compile_source(source: str, name: str, namespace: dict):
    exec(compile(source, f"<{name}>", "exec"), namespace)
    return namespace[name]


def _jitable(fn):
    from numba.extending import register_jitable

    return register_jitable(fn)


def accessors(spec: ViewSpec) -> dict[str, object]:
    """Every accessor of the spec by name, each callable from plain Python and
    from numba: the fields', then the generic ones."""
    out: dict[str, object] = {}
    for f in spec.fields:
        # int()/float(): a plain bot computes with Python numbers, whose
        # division by zero raises as it does in a fast bot (numpy's warns)
        cast = "float" if f.array == "params" else "int"
        if f.length == 1:
            src = (f"def {f.name}(view):\n"
                   f"    return {cast}(view.{f.array}[{f.at}])\n")
        else:
            src = (f"def {f.name}(view, i):\n"
                   f"    if i < 0 or i >= {f.length}:\n"
                   f"        raise IndexError('{f.name}(view, i): i outside 0-{f.length - 1}')\n"
                   f"    return {cast}(view.{f.array}[{f.at} + i])\n")
        fn = _compile_source(src, f.name, {"__name__": __name__})
        fn.__doc__ = f.meaning + (f" (i: {f.index})" if f.index else "")
        out[f.name] = _jitable(fn)
    generic = {
        "decision": ("def decision(view):\n    return view.what\n",
                     "the decision asked (its number: see the decisions below)"),
        "seat": ("def seat(view):\n    return view.seat\n", "the deciding player's seat (0-based)"),
        "n_options": ("def n_options(view):\n    return view.n_options\n",
                      "how many options this decision has (0 where its answer is a value)"),
        "options": ("def options(view, i):\n"
                    "    if i < 0 or i >= view.n_options:\n"
                    "        raise IndexError('options(view, i): i outside 0 .. n_options(view) - 1')\n"
                    f"    return int(view.state[{spec.options_at} + i])\n",
                    "option i of this decision (what it is: see the decision)"),
        "param": (f"def param(view, i):\n"
                  f"    if i < 0 or i >= {spec.n_params}:\n"
                  f"        raise IndexError('param(view, i): i outside 0-{spec.n_params - 1}')\n"
                  f"    return float(view.params[i])\n",
                  "the bot's i-th declared parameter (in the order of UserBot.params)"),
        "memory": (f"def memory(view, i):\n"
                   f"    if i < 0 or i >= {spec.memory}:\n"
                   f"        raise IndexError('memory(view, i): i outside the bot memory ({spec.memory} slots)')\n"
                   f"    return float(view.params[{spec.n_params} + i])\n",
                   f"slot i of the bot's own memory (float, {spec.memory} slots; {spec.memory_text})"),
        "remember": (f"def remember(view, i, value):\n"
                     f"    if i < 0 or i >= {spec.memory}:\n"
                     f"        raise IndexError('remember(view, i, value): i outside the bot memory "
                     f"({spec.memory} slots)')\n"
                     f"    view.params[{spec.n_params} + i] = value\n",
                     "store a number in slot i of the bot's memory"),
        "uniform": (f"def uniform(view):\n    return _rng.uniform(view.state, {spec.rng_at})\n",
                    "a uniform float in [0, 1) from the player's own random stream"),
        "draw": (f"def draw(view, n):\n"
                 f"    if n <= 0:\n"
                 f"        raise ValueError('draw(view, n): n must be positive')\n"
                 f"    return _rng.below(view.state, {spec.rng_at}, n)\n",
                 "a uniform integer 0 .. n-1 from the player's own random stream"),
    }
    from analyzer.engine import rng as _rng

    for name, (src, doc) in generic.items():
        if name in out:
            raise ValueError(f"view field {name!r} shadows a generic accessor")
        fn = _compile_source(src, name, {"__name__": __name__, "_rng": _rng})
        fn.__doc__ = doc
        out[name] = _jitable(fn)
    for fn in spec.functions:
        out[fn.__name__] = fn
    for name, value, _ in spec.constants:
        out[name] = value
    return out


def exported(spec: ViewSpec) -> list[str]:
    """The names a game's view module exports (``from ...view import *``)."""
    return ([f.name for f in spec.fields] + list(GENERIC_ACCESSORS) + [fn.__name__ for fn in spec.functions]
            + [name for name, _, _ in spec.constants])


GENERIC_ACCESSORS = ("decision", "seat", "n_options", "options", "param", "memory", "remember",
                     "uniform", "draw")


def _value_text(values) -> str:
    values = [int(v) if float(v).is_integer() else float(v) for v in np.asarray(values).ravel()]
    return str(values[0]) if len(values) == 1 else "[" + ", ".join(str(v) for v in values) + "]"


def describe(spec: ViewSpec, view) -> str:
    """The view in words: the decision, its options and every field by name."""
    d = spec.decision(int(view.what))
    lines = [f"{spec.title} view: decision {d.name if d else view.what} (seat {int(view.seat)}), "
             f"options {_value_text(view.state[spec.options_at:spec.options_at + int(view.n_options)]) if view.n_options else '-'}"]
    for f in spec.fields:
        arr = getattr(view, f.array)
        lines.append(f"  {f.name}: {_value_text(arr[f.at:f.at + f.length])}")
    return "\n".join(lines)


def view_class(spec: ViewSpec):
    """The view type of a game: a namedtuple of (what, seat, n_options, game,
    state, params), which numba passes as one value, printed by field name."""
    base = collections.namedtuple(f"{spec.title.replace(' ', '')}View", VIEW_FIELDS)

    def __repr__(self):
        return describe(spec, self)

    return type(base.__name__, (base,), {"__slots__": (), "__repr__": __repr__,
                                         "describe": __repr__})


# ------------------------------------------------------------------ faults

_faults: dict[int, str] = {}
_faults_lock = threading.Lock()
_families: dict[int, BotFamily] = {}
_specs: dict[int, ViewSpec] = {}


def _record(kind: int, seat: int, what: int, text: str) -> None:
    family = _families.get(kind)
    spec = _specs.get(kind)
    d = spec.decision(what) if spec else None
    line = (f"user bot {family.source if family else kind} (seat {seat + 1}, "
            f"{d.name if d else f'decision {what}'} decision): {text}")
    with _faults_lock:
        _faults.setdefault(kind, line)


def _record_illegal(kind: int, seat: int, what: int, answer: int, n_options: int) -> None:
    spec = _specs.get(kind)
    d = spec.decision(what) if spec else None
    _record(kind, seat, what, f"illegal choice {answer}: {_legal_text(d, n_options)}")


def _legal_text(d: Decision | None, n: int) -> str:
    if d is None:
        return "not an answer of this decision"
    if d.answer == INDEX:
        return f"the options are 0-{n - 1}"
    if d.answer == INDEX_OR_PASS:
        return f"the options are 0-{n - 1}, or -1 ({d.answer_text})" if n else "the only answer is -1"
    return f"the answer is {d.lo} to {d.hi} ({d.answer_text})"


def _legal(d: Decision | None, answer: int, n: int) -> bool:
    if d is None:
        return True
    if d.answer == INDEX:
        return 0 <= answer < n
    if d.answer == INDEX_OR_PASS:
        return -1 <= answer < n
    return d.lo <= answer <= d.hi


def _record_compiled_failure(kind: int, seat: int, what: int, g, ng, s, ns, p, np_, n_options):
    """A compiled bot raised: run its Python source on copies of the view to say
    what and where; if that does not raise (it drew from its stream first, say),
    say what the compiled code can raise."""
    game, state, params = _arrays(g, ng, s, ns, p, np_)
    family = _families[kind]
    user = family.decide.user_py
    text = ("raised an exception in compiled code (an index out of bounds, an accessor's index "
            "outside its field, or a division by zero)")
    try:
        view = family.decide.view_class(what, seat, n_options, game.copy(), state.copy(), params.copy())
        user(*_call_args(family.decide.raw, view))
    except Exception as e:  # the user's code: what it raised, in one line
        text = _exception_text(e, family.source)
    _record(kind, seat, what, text)


def _exception_text(e: BaseException, source: str) -> str:
    where = ""
    try:
        here = Path(source).resolve()
        frames = [f for f in traceback.extract_tb(e.__traceback__) if Path(f.filename).resolve() == here]
        if frames:
            where = f" at line {frames[-1].lineno}"
    except (OSError, ValueError):
        pass
    message = str(e).splitlines()[0] if str(e) else ""
    return f"raised {type(e).__name__}{where}" + (f": {message}" if message else "")


def _call_args(raw: bool, view):
    if raw:
        return (view.what, view.seat, 0, view.game, view.state, view.params, view.n_options)
    return (view,)


def take_fault(kind: int) -> str | None:
    with _faults_lock:
        return _faults.pop(kind, None)


def raise_fault(match, status: int, first: int = 0) -> None:
    """If a user bot of ``match`` failed (the kernel returned ``status`` after its
    FAULT answer, or after an answer the rules refuse), raise one line naming the
    bot file; clears the recorded faults of its bots. Games' matches call this
    first in ``_bot_failed``; a built-in bot's error is left to the match.
    ``first``: the chunk's first item (``engine.fault_status``)."""
    from analyzer.engine import stop
    from analyzer.engine.fault_status import decode_fault

    if stop.requested():  # a signal stopped a plain bot's call (its FAULT is not the bot's)
        for f in match.families:
            take_fault(f.kind)
        raise KeyboardInterrupt
    code, index = decode_fault(status, first)
    error, seat = divmod(code, 8)
    where = f"({match.unit.rstrip('s')} {index})"
    lines = [line for f in match.families if f.decide is not None and (line := take_fault(f.kind))]
    if lines:
        raise BotError(f"{lines[0]} {where}")
    if 0 <= seat < len(match.families) and match.families[seat].decide is not None:
        family = match.families[seat]
        raise BotError(f"user bot {family.source} (seat {seat + 1}) "
                       f"{match.errors.get(error, 'failed')} {where}")


# ------------------------------------------------------------------ adapters

# The kernels are nogil; a fast bot's failure path (object mode) takes the GIL
# for its call, as it should: numba's warning about it says nothing to a user.

_FAST = """
def adapter(what, seat, kind, game, state, params, n_options):
    failed = False
    answer = 0
    try:
        answer = user({args})
    except Exception:
        failed = True
    if failed:
        g, s, p = game.ctypes.data, state.ctypes.data, params.ctypes.data
        ng, ns, np_ = game.shape[0], state.shape[0], params.shape[0]
        with objmode():
            failure(kind, seat, what, g, ng, s, ns, p, np_, n_options)
        return FAULT
{checks}
    return answer


def entry(what, seat, kind, g, ng, s, ns, p, np_, n_options):
    return adapter(what, seat, kind, read_only(carray(g, (ng,))), carray(s, (ns,)), carray(p, (np_,)), n_options)
"""


def _read_only_intrinsic():
    """``read_only(a)`` in compiled code: the same array typed read-only, so a
    fast bot that writes into the kernel's own game array does not compile (one
    line naming its file) instead of corrupting the game. The same struct: no copy."""
    from numba.core.extending import intrinsic
    from numba.core.imputils import impl_ret_borrowed

    @intrinsic
    def read_only(typingctx, arr):
        result = arr.copy(readonly=True)

        def codegen(context, builder, signature, args):
            return impl_ret_borrowed(context, builder, result, args[0])

        return result(arr), codegen

    return read_only


def _check_source(spec: ViewSpec) -> str:
    """The fast adapter's answer checks, one branch per decision."""
    lines = []
    for d in spec.decisions:
        if d.answer == INDEX:
            bad = "answer < 0 or answer >= n_options"
        elif d.answer == INDEX_OR_PASS:
            bad = "answer < -1 or answer >= n_options"
        else:
            bad = f"answer < {d.lo} or answer > {d.hi}"
        lines.append(f"    if what == {d.what} and ({bad}):\n"
                     f"        with objmode():\n"
                     f"            illegal(kind, seat, what, answer, n_options)\n"
                     f"        return FAULT")
    return "\n".join(lines)


_views: dict[tuple[int, int, str], np.ndarray] = {}


def _view_of(address: int, length: int, dtype: str, read_only: bool = False) -> np.ndarray:
    """A numpy array over ``length`` items at ``address`` (kernel memory, alive
    during the call that hands it over); made once per buffer: a kernel keeps
    its arrays for a whole chunk of races. ``read_only``: a write raises."""
    key = (address, length, dtype, read_only)
    arr = _views.get(key)
    if arr is None:
        if len(_views) > 4096:
            _views.clear()
        c_type = ctypes.c_int64 if dtype == "i8" else ctypes.c_double
        arr = np.ctypeslib.as_array((c_type * length).from_address(address))
        arr.flags.writeable = not read_only
        _views[key] = arr
    return arr


def _arrays(g: int, ng: int, s: int, ns: int, p: int, np_: int):
    # the game array is the kernel's own (its board, the seats' bots): read-only,
    # so a plain bot that writes into it ends the run in one line instead of
    # corrupting the game; state and params are the kernel's copies for the bot
    return _view_of(g, ng, "i8", read_only=True), _view_of(s, ns, "i8"), _view_of(p, np_, "f8")


def _adapter_namespace(module_name: str, names: dict) -> dict:
    """The globals of a bot's adapter: a module registered in ``sys.modules``
    under a name fixed by the bot's text and kind (``<bot module>_adapter_<kind>``),
    where numba resolves the globals of its object-mode blocks (the calls back
    into Python)."""
    import types

    module = types.ModuleType(module_name)
    module.__dict__.update(names)
    sys.modules[module_name] = module
    return module.__dict__


def _plain_adapter(spec: ViewSpec, view_cls, fn, raw: bool, source: str):
    """A plain bot as a C function: a ctypes callback into ``call`` below, which
    takes the GIL for the call (the kernels run without it)."""
    def call(what, seat, kind, g, ng, s, ns, p, np_, n_options):
        try:
            game, state, params = _arrays(g, ng, s, ns, p, np_)
            view = view_cls(what, seat, n_options, game, state, params)
            answer = fn(*_call_args(raw, view))
        except KeyboardInterrupt as e:
            # Python raises a signal's KeyboardInterrupt in the main thread, and the
            # kernels play on other threads: here it is the bot's own ``raise``, a
            # fault like any (a ctypes callback cannot raise: it would print a
            # traceback and answer 0). Where a kernel plays on the main thread
            # (a replay), the CLI's stop request tells a signal's apart: the
            # FAULT ends the kernel and ``raise_fault`` stops the command.
            from analyzer.engine import stop

            if not stop.requested():
                _record(kind, seat, what, _exception_text(e, source))
            return FAULT
        except SystemExit:
            _record(kind, seat, what, "called sys.exit")
            return FAULT
        except BaseException as e:  # the user's code, its own BaseException subclasses too: one line
            _record(kind, seat, what, _exception_text(e, source))
            return FAULT
        if isinstance(answer, bool) or not isinstance(answer, (int, np.integer)):
            _record(kind, seat, what, f"returned {answer!r}, not an integer")
            return FAULT
        answer = int(answer)
        d = spec.decision(what)
        if not _legal(d, answer, n_options):
            _record_illegal(kind, seat, what, answer, n_options)
            return FAULT
        return answer

    from analyzer.engine.bot_table import C_DECIDE_CTYPES

    return C_DECIDE_CTYPES(call)


def _fast_adapter(spec: ViewSpec, view_cls, compiled, raw: bool, source: str, module_name: str):
    """A fast bot as a C function (numba's ``cfunc``, ``bot_table.C_DECIDE``)
    around its adapter (the checks above)."""
    from numba import carray, cfunc, njit, objmode

    from analyzer.engine.bot_table import C_DECIDE

    args = ("what, seat, kind, game, state, params, n_options" if raw
            else "View(what, seat, n_options, game, state, params)")
    namespace = _adapter_namespace(module_name, {
        "objmode": objmode, "user": compiled, "View": view_cls, "FAULT": FAULT, "carray": carray,
        "read_only": _read_only_intrinsic(),
        "failure": _record_compiled_failure, "illegal": _record_illegal})
    src = _FAST.format(args=args, checks=_check_source(spec))
    exec(compile(src, f"<adapter of {source}>", "exec"), namespace)
    namespace["adapter"] = njit(nogil=True)(namespace["adapter"])
    return cfunc(C_DECIDE, nogil=True)(namespace["entry"])


class Adapter:
    """A user bot's ``decide`` as the kernel calls it (``entry``: a C function
    at ``address``, ``bot_table.C_DECIDE``), and what made it."""

    def __init__(self, entry, address: int, user_py, view_cls, raw: bool, fast: bool):
        self.entry = entry
        self.address = address
        self.user_py = user_py
        self.view_class = view_cls
        self.raw = raw
        self.fast = fast

    def __call__(self, what, seat, kind, game, state, params, n_options) -> int:
        """The bot's answer, called from Python (tests): the kernel's call."""
        from analyzer.engine.bot_table import C_DECIDE_CTYPES

        arrays = [np.ascontiguousarray(a) for a in (game, state, params)]
        function = C_DECIDE_CTYPES(self.address)
        return int(function(what, seat, kind, *(x for a in arrays for x in (a.ctypes.data, a.shape[0])),
                            n_options))


# ------------------------------------------------------------------ loading

_loaded: dict[tuple[str, Path, str], BotFamily] = {}  # (game, file, sha256 of its bytes) -> family
_load_lock = threading.RLock()
_by_game: dict[str, list[BotFamily]] = {}
KIND_SPAN = 1 << 28  # user bot kinds: USER_KIND_BASE .. USER_KIND_BASE + KIND_SPAN - 1


def loaded(game: str) -> list[BotFamily]:
    """Every user bot of ``game`` loaded in this process, in load order."""
    return list(_by_game.get(game, ()))


def _kind_of(game: str, module_name: str) -> int:
    """A new bot's kind: a function of its game and its module's name (the
    file's name and a hash of its text, ``_import``), so that the same bot has
    the same kind in every process whatever was loaded before it (a cluster
    worker is sent the client's kinds anyway). Another bot of this process on
    that number (two files of one name and text in two folders, or a hash
    collision, about one in 10^8 for two bots) takes the next free one."""
    import hashlib

    digest = hashlib.sha256(f"{game}\0{module_name}".encode("utf-8")).hexdigest()
    kind = USER_KIND_BASE + int(digest, 16) % KIND_SPAN
    while kind in _families:
        kind = USER_KIND_BASE + (kind - USER_KIND_BASE + 1) % KIND_SPAN
    return kind


def _run_bot_code(run, name: str, path: str, source: str) -> None:
    """Run a bot file's module code: a failure (a BaseException subclass of its
    own too) is one line naming the file, and the half-made module goes; the
    user's Ctrl-C goes through."""
    try:
        run()
    except KeyboardInterrupt:
        sys.modules.pop(name, None)
        raise
    except SystemExit:
        sys.modules.pop(name, None)
        raise BotError(f"bot file {path} failed to load: it called sys.exit (SystemExit)") from None
    except BaseException as e:  # the user's code: one line
        sys.modules.pop(name, None)
        raise BotError(f"bot file {path} failed to load: {_exception_text(e, source)}") from None


def load(path: str, spec: ViewSpec, width: int) -> BotFamily:
    """The bot family of a user's bot file for the game of ``spec``, loaded and
    compiled once per process and content: the file is read (and digested) at
    every call, so a file edited since it was loaded is loaded again, a new bot
    (its own kind, its own digest in the manifest). ``width``: the game's
    parameter row length."""
    import hashlib

    from analyzer.engine.inputs import read_input

    p = Path(path)
    # a regular file of bounded size: a FIFO or a device is refused by name, never opened
    data = read_input(path, "bot file", error=BotError)  # named as the user gave it
    try:
        # as Python reads a source file: its encoding (UTF-8 unless declared), newlines as \n
        text = importlib.util.decode_source(data)
    except (UnicodeDecodeError, SyntaxError, LookupError) as e:
        raise BotError(f"bot file {path} cannot be read: {e}") from None
    content = hashlib.sha256(data).hexdigest()
    key = (spec.game, p.resolve(), content)
    with _load_lock:
        if key in _loaded:
            return _loaded[key]
        # run from the text just digested, not imported from the file again: the
        # code that plays is the content the manifest records (an import could
        # read a newer file, or a bytecode cache of an older one of the same size)
        module = _import_text(text, path, _digest(text))
        family = _family_of(module, path, spec, sha256=content)
        # what a cluster worker receives of it (``sent``): the source text, not the file
        _texts[family.kind] = (text, _digest(text))
        _loaded[key] = family
        _by_game.setdefault(spec.game, []).append(family)
        return family


def _family_of(module, path: str, spec: ViewSpec, kind: int | None = None, sha256: str = "") -> BotFamily:
    """The family of a loaded bot module; ``kind``: the number a cluster's
    client gave it (a new one when None); ``sha256``: its file's content."""
    bot = getattr(module, "BOT", None)
    if not isinstance(bot, UserBot):
        raise BotError(f"bot file {path} defines no BOT = UserBot(name, decide, game=..., ...)")
    from numba.core.dispatcher import Dispatcher

    fast = isinstance(bot.decide, Dispatcher)
    fn = bot.decide.py_func if fast else bot.decide
    if not callable(fn):
        raise BotError(f"bot file {path}: decide must be a function decide(view) -> choice")
    try:
        n_args = len(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        n_args = -1
    raw = n_args == len(DECIDE_ARGS)  # the older form: decide over the raw arrays
    if n_args != 1 and not raw:
        raise BotError(f"bot file {path}: decide must take one argument, the view (decide(view) -> choice)")
    if bot.game is None and not raw:
        raise BotError(f"bot file {path}: UserBot needs game=... (this is a {spec.game!r} run)")
    if bot.game is not None and bot.game != spec.game:
        raise BotError(f"bot file {path} is a bot for {bot.game!r}, not {spec.game!r}")
    roles = tuple(bot.roles) if bot.roles else spec.roles
    unknown = [r for r in roles if r not in spec.roles]
    if unknown:
        raise BotError(f"bot file {path}: {spec.game} has no role {unknown[0]!r} "
                       f"(its roles: {', '.join(spec.roles)})")
    if len(bot.params) > spec.n_params:
        raise BotError(f"bot file {path}: at most {spec.n_params} parameters for {spec.game}")
    params = {}
    for i, (name, value) in enumerate(bot.params.items()):
        default, help_text = value if isinstance(value, tuple) else (value, "")
        if isinstance(default, bool) or not isinstance(default, (int, float)) or not np.isfinite(default):
            raise BotError(f"bot file {path}: the default of parameter {name!r} must be a number, "
                           f"got {default!r}")
        params[name] = (i, float(default), str(help_text))

    kind = _kind_of(spec.game, module.__name__) if kind is None else kind
    view_cls = VIEWS.setdefault(spec.game, view_class(spec))
    source = str(Path(path))  # as the file was named before clusters: labels and messages unchanged
    if fast:
        entry = _compiled_entry(spec, view_cls, fn, raw, source, f"{module.__name__}_adapter_{kind}", path)
        address = entry.address
    else:  # nothing to compile: a ctypes callback
        entry = _plain_adapter(spec, view_cls, fn, raw, source)
        address = ctypes.cast(entry, ctypes.c_void_p).value
    adapter = Adapter(entry, address, fn, view_cls, raw, fast)
    kwargs = {}
    if "roles" in BotFamily.__dataclass_fields__:  # the Game protocol's roles, where the engine has them
        kwargs["roles"] = roles
    family = BotFamily(bot.name, kind, bot.description, params, adapter, source, sha256=sha256, **kwargs)
    _families[kind] = family
    _specs[kind] = spec
    bot_table.register(kind, address, adapter)  # from here on, every kernel of this process answers it
    return family


def _compiled_entry(spec: ViewSpec, view_cls, fn, raw: bool, source: str, module_name: str, path: str):
    """A fast bot's C entry (``_fast_adapter``), compiled now: a bot that does not
    compile, or returns something else than an integer, ends in one line."""
    from numba import njit, types
    from numba.core.errors import NumbaError, NumbaWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumbaWarning)
        try:
            compiled = njit(boundscheck=True, nogil=True, error_model="python")(fn)
            entry = _fast_adapter(spec, view_cls, compiled, raw, source, module_name)
        except NumbaError as e:
            reason = next((line.strip() for line in str(e).splitlines()
                           if line.strip() and not line.startswith("Failed in")), "numba error")
            if "setitem" in str(e) and "readonly array" in str(e):
                reason = "it writes into view.game, the game's own array (read-only to a bot)"
            raise BotError(f"user bot {path} does not compile: {reason} "
                           f"(fast bots: numbers and the view's accessors only; "
                           f"see docs/bots-{spec.game}.md)") from None
    returns = compiled.nopython_signatures[0].return_type
    if not isinstance(returns, types.Integer):
        raise BotError(f"bot file {path}: decide returns {returns}, not an integer "
                       "(every path must return an int)")
    return entry


VIEWS: dict[str, object] = {}


def loader(spec: ViewSpec, width: int):
    """A game registry's ``load_py``: path -> BotFamily."""
    def load_py(path: str) -> BotFamily:
        return load(path, spec, width)
    load_py.view = spec
    return load_py


# ------------------------------------------------------------------ clusters
# A match holding user bots travels to a cluster worker (``engine/cluster.py``)
# with each bot's source text, path (for its messages) and kind; the worker
# loads the bot from that text with the client's kind (compiling a fast bot
# once per process), so the kinds packed in the game's arrays are the client's
# and the worker's kernels find the bots in its own table (``bot_table``).

_texts: dict[int, tuple[str, str]] = {}  # kind -> (source text, its hash)
_received: dict[tuple, BotFamily] = {}  # on a worker: (game, kind, hash) -> family
_received_lock = threading.RLock()


def _digest(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class SentUserBot:
    """A user bot family as a cluster worker receives it: its fields (name,
    kind, parameters, path), its view spec and its source text."""

    def __init__(self, family: BotFamily):
        import dataclasses

        self.family = dataclasses.replace(family, decide=None)
        self.spec = _specs[family.kind]
        self.text, self.digest = _texts[family.kind]

    def resolve(self) -> BotFamily:
        import dataclasses

        f = self.family
        key = (self.spec.game, f.kind, self.digest)
        with _received_lock:
            family = _received.get(key)
            if family is None:
                module = _import_text(self.text, f.source, self.digest)
                here = _family_of(module, f.source, self.spec, f.kind)
                family = _received[key] = dataclasses.replace(f, decide=here.decide)
                _families[f.kind], _specs[f.kind] = family, self.spec  # its fault messages name its file
                _texts[f.kind] = (self.text, self.digest)
            return family


def sent(value):
    """What a worker receives for ``value`` (a seated family) if it is a user
    bot: it by its source; else None."""
    if isinstance(value, BotFamily):
        return SentUserBot(value) if value.decide is not None else None
    return None


def _import_text(text: str, path: str, digest: str):
    """A bot module from its source text (the text whose digest the manifest
    records; a cluster worker has no file), compiled under the file's path, so
    that tracebacks and a fault's line name that file."""
    import linecache
    import types

    name = f"analyzer_user_bot_{Path(path).stem.replace('-', '_')}_{digest[:16]}"
    module = types.ModuleType(name)
    module.__file__ = path
    linecache.cache[path] = (len(text), None, text.splitlines(keepends=True), path)  # inspect reads it
    sys.modules[name] = module  # numba resolves the bot's globals through its module
    _run_bot_code(lambda: exec(compile(text, path, "exec"), module.__dict__), name, path, path)
    return module


def warm_up(match, detail: bool = True) -> None:
    """A match's first (compiling, or loading from the cache) play, of the kernel
    ``play(..., detail)`` runs. User bots compiled when they were loaded."""
    match.release([match.play(0, 0, 1, detail)])
