"""The contract between a game and everything that drives it.

A game is one folder, ``analyzer/games/<game>/``. Its ``__init__.py`` declares
``GAME = GameInfo(...)`` (``analyzer/games/__init__.py``), which names the
modules below; the engine, the CLI, the statistics and report libraries and the
bench find everything game-specific through that declaration and call only what
this module writes down. Nothing outside the game's folder imports from it.

Roles. Every seat has a role. A game whose seats are alike has one role,
``"player"``; a game of sides has one per side (e.g. ``"state"`` and ``"family"``). A bot family
declares the roles it can play (``BotFamily.roles``); ``compare``,
``tournament`` and ``tune`` rotate bots only among seats of the same role and
refuse a bot in a role it cannot play, with one line.

Units. A game counts ``races`` or ``games`` (e.g. a game of several races). ``--races`` and
``--games`` are the same option; an item's index (0-based) with the seed keys
its random streams, so item ``i`` is the same whatever the chunking or threads.

The pieces a game supplies (``GameInfo`` fields name the modules):

``match``: ``module:Class`` implementing :class:`Match` below. Its constructor
    is ``Class(board: str | None, players: int, bots: list[BotSpec])`` and raises
    ``AnalyzerError`` (one line) for a bad board, player count or bot.
``bots``: module with ``REGISTRY`` (``analyzer.engine.bots.BotRegistry``).
``stats``: module with ``new_stats(**options)`` (an aggregator with ``add(tables)``,
    ``merge(other)``, ``result()``), ``COLUMNS`` (table -> columns it reads),
    ``TABLE_DOCS``, ``ID_COLUMNS`` and ``expected_rows(manifest)``.
``report``: package with the report's sections (see ``analyzer/report/html.py``:
    ``header``, ``overview``, ``answers``, ``FIGURES``, ``key_tables``...; ``QUESTIONS``:
    the questions its answers measure (``analyzer/stats/questions.Question``, each with
    a stable key, a measure over result tables, a threshold and a direction); optionally
    ``interventions(manifest) -> (tables, played)``: result tables of causal
    experiments replaying the run's items, merged into the report's tables, and a
    dict saying what was played, put in the manifest as ``interventions``;
    ``CONTROLLED_TABLES``: the result tables its structural answers read, written as
    CSV per controlled table).

User bots (``analyzer/engine/userbots.py``). A game gets ``.py`` bots, plain Python and numba, by:
- ``view.py``: ``VIEW = ViewSpec(...)`` naming the slots a deciding player may
  read, its decisions with their options and answers, what stays hidden; then
  ``globals().update(userbots.accessors(VIEW))`` and ``__all__ =
  userbots.exported(VIEW) + [...]``; its ``REGISTRY`` is built with ``view=VIEW``
  (``docs/bots-<game>.md`` is generated from it: ``python -m analyzer.engine.userbots``);
- the kernel: every decision through one ``decide(what, seat, kind, game,
  state, params, n_options)``; kinds >= ``USER_KIND_BASE`` answered by
  ``engine/bot_table.call_bot`` (the address of the bot's own compiled code:
  the kernel is compiled once, for every bot), with a copy of the bot's
  parameter row; every answer range-checked (``userbots.FAULT``, a failed
  bot's answer, and ``bot_table.NO_BOT`` are out of every range);
- the match: its own kernel whatever the bots, ``warm_up`` through
  ``userbots.warm_up(self, detail)`` and ``_bot_failed`` calling
  ``userbots.raise_fault(self, status, first)`` first.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

PLAYER = "player"  # the one role of a game whose seats are alike


@dataclass(frozen=True)
class ReplayStep:
    """One line of a replayed race or game, in the order it happened.

    ``kind``: what happened, one word the HTML timeline colours by (``turn``,
    ``dice``, ``card``, ``decision``, ``move``, ``field``, ``bet``, ``contract``,
    ``score``, ``end``...); ``seat``: 1-based seat it concerns, 0 for none;
    ``text``: the line as printed, in the rulebook's words; ``options``: for a
    decision, the options it had (in words), and ``chosen`` the index taken;
    ``summary``: see below."""
    kind: str
    text: str
    seat: int = 0
    options: tuple[str, ...] = ()
    chosen: int = -1
    # for a step that opens a section of the timeline page (``Replay.sections``): the
    # line its collapsed block shows, when it can say more than ``text`` (the turn's moves)
    summary: str = ""


@dataclass
class Replay:
    """Item ``index`` of a run, move by move: ``steps``, then ``tables`` (the rows
    the run's tables hold for that item, exactly as ``simulate --out`` writes them)."""
    game: str
    unit: str  # "races" or "games"
    index: int
    seed: int
    setup: list[str]  # the match's setup lines (board, deck, bots)
    steps: list[ReplayStep] = field(default_factory=list)
    tables: dict[str, "pd.DataFrame"] = field(default_factory=dict)
    # who won and why, in one sentence ("orange wins because ..."): printed after the
    # steps and at the top of the timeline page; "" when the game gives none
    outcome: str = ""
    # the step kinds that open a new section of the timeline page (one collapsible
    # block each: a turn, a race); steps before the first are shown open
    sections: tuple[str, ...] = ("turn",)


@runtime_checkable
class Summary(Protocol):
    """The end-of-run summary, accumulated chunk by chunk in bounded memory."""

    def add(self, chunk) -> None: ...
    def render(self) -> str: ...
    def as_dict(self) -> dict: ...


@runtime_checkable
class Match(Protocol):
    """A game with its board and seated bots, ready to play chunks of items.

    Subclass ``analyzer.engine.match.PooledMatch`` (buffer pool, bot labels,
    error codes), which supplies ``play``, ``reserve``, ``release``,
    ``seat_categorical``, ``bots_described``, ``chunk_extras``, ``final_tables``
    and ``roles``; a game writes ``_new_chunk``, ``_play_into`` and the rest."""

    game: str  # the name on the command line
    title: str
    unit: str  # "races" or "games"
    tables: tuple[str, ...]  # the tables ``--out`` writes, in order
    players: int
    labels: list[str]  # bot label per seat
    roles: list[str]  # role per seat

    def warm_up(self, detail: bool = True) -> None:
        """Compile (or load from the cache) before timing or showing progress the
        kernel ``play(..., detail)`` will run."""

    def play(self, seed: int, first: int, count: int, detail: bool = True):
        """Play items ``first .. first+count-1`` into a chunk; thread-safe (nogil
        kernels, one pooled buffer per call). Item ``i`` depends only on (seed, i).
        ``detail=False``: the chunk goes only to a summary's ``add`` and to
        ``outcomes``, never to ``tables_of``, so a game may leave the rest unwritten."""

    def reserve(self, count: int) -> None:
        """Largest chunk to come: buffers are made once and reused."""

    def release(self, chunks) -> None:
        """Give chunks' buffers back to the pool once their tables are built."""

    def outcomes(self, chunk) -> tuple[np.ndarray, np.ndarray]:
        """Per item and seat: ``won`` (bool; shared wins count) and ``score``
        (int64, the game's points). Drives compare, tournament and tune."""

    def tables_of(self, chunk) -> dict[str, "pd.DataFrame"]:
        """The chunk's rows of every table in ``tables`` (``chunk_extras`` may add
        tables summed over the chunk; ``final_tables(summary)`` tables written once)."""

    def describe(self) -> dict:
        """The manifest's part of the match: game, title, unit, players, variant,
        ``data`` (each board/deck/map part with name, source, assumed, sha256,
        detail) and ``bots`` (``bots_described()``)."""

    def setup_lines(self) -> list[str]:
        """Lines naming the board and deck and whether they are assumed."""

    def new_summary(self) -> Summary: ...

    def replay(self, seed: int, index: int) -> Replay:
        """Item ``index`` of the run ``simulate`` with this seed plays (the same
        streams), step by step, ending with its table rows."""
