"""What every game's match shares: seated bots resolved through the game's bot
registry, a pool of record buffers reused chunk after chunk (memory stays
bounded however many races or games are played), and the bot-label column of
the tables. A game's match subclasses ``PooledMatch`` and supplies ``_new_chunk``
and ``_play_into``."""
from __future__ import annotations

import queue
from typing import TYPE_CHECKING

import numpy as np

from analyzer.engine.bots import PLAYER, BotFamily
from analyzer.engine.botspec import BotSpec
from analyzer.errors import AnalyzerError, BotError

if TYPE_CHECKING:  # pandas loads when tables are built, not for a plain run
    import pandas as pd


class PooledMatch:
    unit = "races"
    errors: dict[int, str] = {}  # the kernel's error codes (error * 8 + seat)
    # about how long each of the game's kernels compiles on an empty cache, on
    # this project's 2-core reference machine (``make bench``'s compile rows), by
    # "module.function": the estimate a first run shows (``engine/warm.py``)
    compile_seconds: dict[str, float] = {}

    def __init__(self, registry, players: int, bots: list[BotSpec], rules=None):
        if len(bots) != players:  # the kernels size every seat's arrays by the player count
            raise BotError(f"{len(bots)} bots given for {players} players; give one bot a seat")
        self.rules = self.rules_for(rules)
        self.players = players
        self.specs = list(bots)
        self.families = [registry.resolve(spec) for spec in self.specs]
        self.roles = self.seat_roles(players)
        for seat, (spec, family, role) in enumerate(zip(self.specs, self.families, self.roles)):
            if role not in family.roles:
                raise BotError(f"bot {spec.label!r} cannot play seat {seat + 1}: that seat's role is {role}, "
                               f"the bot plays {', '.join(family.roles)}")
        self.labels = [self._label(spec, family) for spec, family in zip(self.specs, self.families)]
        self.params = np.stack([f.param_row(s) for s, f in zip(self.specs, self.families)])
        self._check_labels_unique()
        self._pool: queue.SimpleQueue = queue.SimpleQueue()
        self._capacity = 0

    # ------------------------------------------------------------------ pickling

    def __getstate__(self) -> dict:
        """What a cluster worker receives (``engine/cluster.py``): the board, deck
        and bot parameters as data; compiled kernels by their module and name,
        so a worker loads them from its numba cache rather than from pickled code;
        user Python bots, and the kernel compiled around them, by the bots'
        source text (``userbots.sent``); no buffers (each process has its own pool)."""
        from analyzer.engine import userbots

        state = dict(self.__dict__)
        state.pop("_pool", None)
        state["_capacity"] = 0
        state["families"] = [userbots.sent(f) or f for f in self.families]
        for key, value in state.items():
            if hasattr(value, "py_func"):  # a numba dispatcher
                state[key] = userbots.sent(value) or _KernelByName.of(value)
        return state

    def __setstate__(self, state: dict) -> None:
        def resolved(value):
            return value if isinstance(value, (BotFamily, np.ndarray)) or not hasattr(value, "resolve") \
                else value.resolve()

        state["families"] = [resolved(f) for f in state["families"]]
        self.__dict__.update({k: resolved(v) if k != "families" else v for k, v in state.items()})
        self._pool = queue.SimpleQueue()

    @classmethod
    def rules_for(cls, rules):
        """The rules a match of this game plays: ``rules`` (a ``Rules`` of this
        game, from ``analyzer.engine.ruleset``) or, for None, the box's. A game
        that packs rule values before this class's ``__init__`` runs calls it first."""
        from analyzer.games import rules_of

        try:
            ruleset = rules_of(cls.game)
        except AnalyzerError:  # a match outside the registry (a test's toy game) has no rule numbers
            from analyzer.engine.ruleset import RuleSet

            ruleset = RuleSet(cls.game, getattr(cls, "title", cls.game), (1, 8))
        if rules is None:
            return ruleset.box()
        if getattr(rules, "ruleset", None) != ruleset:  # by value: a cluster worker unpickles its own
            owner = getattr(getattr(rules, "ruleset", None), "title", None)
            raise AnalyzerError(f"the rules given are {owner}'s, not {cls.title}'s" if owner else
                                f"the rules given are not {cls.title}'s rules: {type(rules).__name__}")
        return rules

    @staticmethod
    def _label(spec: BotSpec, family) -> str:
        if family.decide is None:
            return spec.label
        return spec.label.replace(spec.name, family.name, 1)

    @classmethod
    def seat_roles(cls, players: int) -> list[str]:
        """The role of each seat (one role, ``player``, unless the game has sides)."""
        return [PLAYER] * players

    def _check_labels_unique(self) -> None:
        """One label, one bot: tables and reports group seats by label, so two
        different bots under one label (a user bot named like a built-in one,
        two bot files with one name) would be merged into one."""
        seen: dict[str, tuple] = {}
        for label, family, row in zip(self.labels, self.families, self.params):
            bot = (family.source, family.kind, family.sha256, tuple(row))
            other = seen.setdefault(label, bot)
            if other != bot:
                where = sorted({other[0], bot[0]})
                raise BotError(f"two different bots are both labelled {label!r} ({' and '.join(where)}); "
                               "give one of them another name")

    @property
    def user_sources(self) -> list[str]:
        """The files of the user Python bots seated (their code runs in the kernel)."""
        return list(dict.fromkeys(f.source for f in self.families if f.decide is not None))

    # ------------------------------------------------------------------ buffers

    def _new_chunk(self, capacity: int):
        raise NotImplementedError

    def _play_into(self, chunk, seed: int, first: int, count: int) -> int:
        """Fill ``chunk`` with ``count`` items from ``first``; the kernel's status (0: fine)."""
        raise NotImplementedError

    def _play_summary_into(self, chunk, seed: int, first: int, count: int) -> int:
        """``_play_into`` for a chunk that only a summary's ``add`` and ``outcomes``
        read (``play(detail=False)``); a game may write less. By default, all."""
        return self._play_into(chunk, seed, first, count)

    def play(self, seed: int, first: int, count: int, detail: bool = True):
        """Play items ``first .. first+count-1`` into a pooled chunk; thread-safe
        (nogil kernels, one buffer per call). ``detail=False``: the chunk will
        not go to ``tables_of`` (only to a summary and ``outcomes``), so the game
        may leave its other records unwritten (``_play_summary_into``)."""
        try:
            chunk = self._pool.get_nowait()
            if chunk.capacity < count:
                raise queue.Empty
        except queue.Empty:
            chunk = self._new_chunk(max(count, self._capacity))
        chunk.first, chunk.count = first, count
        try:
            play_into = self._play_into if detail else self._play_summary_into
            status = play_into(chunk, seed, first, count)
        except Exception as e:
            from numba.core.errors import NumbaError

            users = self.user_sources
            if not users or isinstance(e, NumbaError):
                raise  # the built-in kernel (a bug of ours, shown in full), or a compile error for warm_up
            # a user bot raised (or read past an array: bounds are checked for them)
            message = str(e).splitlines()[0] if str(e) else ""
            raise BotError(f"user bot {', '.join(users)} failed in {self.unit[:-1]}s "
                           f"{first}-{first + count - 1}: {type(e).__name__}: {message}") from None
        if status != 0:
            self._bot_failed(status, first)
        return chunk

    def kernels(self, detail: bool = True) -> tuple:
        """The compiled kernels ``play(..., detail)`` calls (numba dispatchers):
        what a first run compiles, or loads from the cache."""
        return (self._play,)

    def reserve(self, count: int) -> None:
        """Size of the sub-ranges to come: buffers are reused, never regrown."""
        self._capacity = max(self._capacity, count)

    def release(self, chunks) -> None:
        for chunk in chunks:
            self._pool.put(chunk)

    def _bot_failed(self, status: int, first: int = 0) -> None:
        """A kernel's fault status (``code << 32`` plus the item's index) of a
        chunk from item ``first``, in one line naming the bot, seat and item."""
        from analyzer.engine.fault_status import decode_fault

        code, index = decode_fault(status, first)
        error, seat = divmod(code, 8)
        raise BotError(f"bot {self.labels[seat]!r} in seat {seat + 1} {self.errors.get(error, 'failed')} "
                       f"({self.unit[:-1]} {index})")

    # ------------------------------------------------------------------ tables

    def seat_categorical(self, seats: np.ndarray) -> pd.Categorical:
        """Bot label per row from 0-based seat numbers (seats may share a label)."""
        import pandas as pd

        categories = list(dict.fromkeys(self.labels))
        codes = np.array([categories.index(label) for label in self.labels])
        return pd.Categorical.from_codes(codes[seats], categories)

    def bots_described(self) -> list[dict]:
        """Each seat's bot as the manifest records it; a bot file's (a user .py,
        a bot .toml) with the sha256 of its content: the file is the bot, not its
        name, and an edited file is another bot."""
        return [{"seat": i + 1, "bot": label, "family": f.name, "source": f.source,
                 "params": {k: float(self.params[i, slot]) for k, (slot, _, _) in f.params.items()},
                 **({"sha256": f.sha256} if f.sha256 else {})}
                for i, (label, f) in enumerate(zip(self.labels, self.families))]

    def chunk_extras(self, chunk) -> dict[str, pd.DataFrame]:
        """Tables summed over a chunk rather than a row per item (none by default)."""
        return {}

    def final_tables(self, summary) -> dict[str, pd.DataFrame]:
        """Tables written once at the end of a run (none by default)."""
        return {}


class _KernelByName:
    """A module-level compiled kernel, named rather than pickled."""

    def __init__(self, module: str, name: str):
        self.module, self.name = module, name

    @classmethod
    def of(cls, dispatcher) -> "_KernelByName":
        import importlib

        module, name = dispatcher.py_func.__module__, dispatcher.py_func.__name__
        if getattr(importlib.import_module(module), name, None) is not dispatcher:
            # a variant compiled here for other code than a user bot's: a bug of ours
            raise TypeError(f"kernel {module}.{name} is not the module's own and cannot be sent to a worker")
        return cls(module, name)

    def resolve(self):
        import importlib

        return getattr(importlib.import_module(self.module), self.name)
