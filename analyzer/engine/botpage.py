"""The bot API page of a game (``docs/bots-<game>.md``), generated from its
view spec (:class:`analyzer.engine.userbots.ViewSpec`): every decision with its
options and answer, every field a bot may read, what stays hidden, and what a
fast bot may use. Knows no game: ``python -m analyzer.docs`` writes the pages of
every game that declares a view, and a test checks they are current."""
from __future__ import annotations

import inspect

from analyzer.engine.userbots import GENERIC_ACCESSORS, ViewSpec, accessors


_RESTRICTIONS = """\
A fast bot is the plain bot with `@njit` (from numba) on `decide`. The loader
compiles it again with `boundscheck=True` and `error_model="python"`, so an index
out of bounds or a division by zero ends the run with one line naming the bot
file, not with a crash. What compiles:

- numbers (int, float, bool), local variables, `if`/`for`/`while`, `range`,
  `min`/`max`/`abs`, the `math` module, and the accessors above;
- your own helper functions, each with `@njit` too;
- no lists, dicts, sets or strings, no `print`, no globals that change
  (module-level constants are frozen when the bot compiles), no classes; a new
  array (`np.zeros`) works but costs an allocation at every decision: keep what
  must last in the bot's memory instead;
- keep memory between decisions with `remember(view, i, x)` / `memory(view, i)`
  where the game has it; draw random numbers with `uniform(view)` and
  `draw(view, n)` only (they use the player's own stream, so the plain and the
  fast version of a bot draw the same numbers and give identical tables).
"""


def api_page(spec: ViewSpec) -> str:
    """The bot API page of a game, generated from its spec (``docs/bots-<game>.md``)."""
    acc = accessors(spec)
    module = f"analyzer.games.{spec.game.replace('-', '_')}.view"
    out = [f"# Your own {spec.title} bot: the bot API",
           "",
           f"<!-- generated from the view spec in {module.replace('.', '/')}.py by "
           "`python -m analyzer.docs`; do not edit -->",
           "",
           "A bot is a Python file defining `BOT = UserBot(...)` around a function",
           "`decide(view) -> int`, called for every decision of its player:",
           "",
           "```python",
           "from analyzer.engine.bots import UserBot",
           f"from {module} import *  # the accessors below",
           "",
           "def decide(view):",
           "    ...  # read the view with the accessors, return the answer",
           "",
           f'BOT = UserBot("my-bot", decide, game="{spec.game}", roles=({", ".join(repr(r) for r in spec.roles)},),',
           '              params={"boldness": (0.5, "what it means")}, description="...")',
           "```",
           "",
           f"Run it with `analyzer simulate {spec.game} --bots my_bot.py,random,...` (parameters",
           "as for built-in bots: `my_bot.py:boldness=0.8`); it works with `compare`,",
           "`tournament`, `tune` (its declared parameters) and scenario files too.",
           ""]
    if spec.example:
        out += [f"Example: `{spec.example}` (plain Python) and its fast twin "
                f"`{spec.example.replace('.py', '-fast.py')}`.", ""]
    out += ["`view` is one value: a named tuple of the arrays the kernel passes (`what`,",
            "`seat`, `n_options`, `game`, `state`, `params`); `print(view)` shows every field by",
            "name. Read it through the accessors, which check their index: the same",
            "calls work in a plain and in a fast bot.", "",
            "## Decisions", "",
            "| decision | number | asked | options | answer |",
            "|---|---|---|---|---|"]
    for d in spec.decisions:
        out.append(f"| {d.name} | {d.what} | {d.asked} | {d.options} | {d.answer_text} |")
    out += ["", "An answer outside these ends the run with one line naming the bot file, the",
            "decision and the answer.", "",
            "## What the view holds", "",
            "| accessor | meaning |", "|---|---|"]
    for f in spec.fields:
        call = f"{f.name}(view)" if f.length == 1 else f"{f.name}(view, i)"
        index = f" `i`: {f.index}." if f.index else ""
        out.append(f"| `{call}` | {f.meaning}.{index} |")
    for name in GENERIC_ACCESSORS:
        fn = acc[name]
        sig = ", ".join(inspect.signature(fn).parameters)
        if name in ("memory", "remember") and spec.memory == 0:
            continue
        out.append(f"| `{name}({sig})` | {fn.__doc__} |")
    for fn in spec.functions:
        sig = ", ".join(inspect.signature(fn).parameters)
        doc = " ".join((fn.__doc__ or "").split())
        out.append(f"| `{fn.__name__}({sig})` | {doc} |")
    if spec.constants:
        out += ["", "Names a bot file can import with the accessors:", "",
                "| name | value | meaning |", "|---|---|---|"]
        out += [f"| `{name}` | {value} | {text} |" for name, value, text in spec.constants]
    out += ["", f"Parameters: up to {spec.n_params}, declared in `UserBot.params` as",
            "`name: (default, help)`, read with `param(view, i)` in declaration order.",
            (f"Memory: {spec.memory} float slots, {spec.memory_text}." if spec.memory
             else "Memory: none; a bot keeps nothing between its decisions."), "",
            "## What the view hides", ""]
    out += [f"- {h}" for h in spec.hides]
    if spec.notes:
        out += ["", spec.notes]
    out += ["", "## Plain and fast", "",
            "A plain bot runs as Python, called back from the compiled core (a ctypes",
            "callback): the call costs a few microseconds a decision, and each",
            "accessor call about 0.6 (`uniform` and `draw` about 4); the example bots",
            "take about 10 microseconds a decision more than their fast twins, so a",
            "table with a plain bot plays some tens of times slower than with its fast",
            "twin (docs/bots.md has the figures). An exception in a plain bot ends the",
            "run with one line naming the bot file, the decision and the exception.", "",
            _RESTRICTIONS.rstrip(), "",
            "A plain bot is not compiled at all. A fast bot compiles on its own when it",
            "is loaded, in seconds: the game's kernel, compiled once for every bot and",
            "cached, calls it by the address of its compiled code, so no bot, plain or",
            "fast, compiles the game again."]
    return "\n".join(out) + "\n"
