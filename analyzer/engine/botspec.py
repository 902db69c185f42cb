"""Bot lists as given on the command line.

    --bots greedy,cautious:risk=0.2,./my_bot.py:depth=3

A list is comma-separated entries; an entry is a bot name (or a path to a
user's ``.py`` file) followed by ``:key=value`` parameters with numeric values.
This module only parses: which names exist is for the game to decide.
"""
import math
from dataclasses import dataclass

from analyzer.errors import BotError


def _number(value: float) -> str:
    # shortest text that reads back as the same float, and 3 rather than 3.0
    if value.is_integer() and abs(value) < 1e16:
        return str(int(value))
    return repr(value)


@dataclass(frozen=True)
class BotSpec:
    """A bot and its parameters, sorted by key so equal specs compare equal."""

    name: str
    params: tuple[tuple[str, float], ...] = ()

    @property
    def label(self) -> str:
        """Canonical text, e.g. ``cautious:risk=0.2``, parsed back to an equal spec."""
        return self.name + "".join(f":{k}={_number(v)}" for k, v in sorted(self.params))

    def __str__(self) -> str:
        return self.label


def _parse_entry(entry: str) -> BotSpec:
    name, *pairs = (part.strip() for part in entry.split(":"))
    if not name:
        raise BotError(f"bot entry {entry!r} has no bot name")
    params: dict[str, float] = {}
    for pair in pairs:
        key, eq, text = (part.strip() for part in pair.partition("="))
        if not eq:
            raise BotError(f"bot entry {entry!r}: parameter {pair!r} needs the form key=value")
        if not key:
            raise BotError(f"bot entry {entry!r}: parameter {pair!r} has no name")
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise BotError(f"bot entry {entry!r}: value of {key!r} must be a number, got {text!r}")
        if key in params:
            raise BotError(f"bot entry {entry!r}: parameter {key!r} is given twice")
        params[key] = value
    return BotSpec(name, tuple(sorted(params.items())))


def parse_bot_list(text: str) -> list[BotSpec]:
    """Parse ``name[:key=value...]`` entries separated by commas."""
    if not text.strip():
        raise BotError("the bot list is empty")
    entries = [entry.strip() for entry in text.split(",")]
    for i, entry in enumerate(entries, 1):
        if not entry:
            raise BotError(f"bot list {text!r}: entry {i} is empty")
    return [_parse_entry(entry) for entry in entries]


def seat_bots(specs: list[BotSpec], players: int) -> list[BotSpec]:
    """One bot per seat: a single spec fills every seat, otherwise one per player."""
    if len(specs) == 1:
        return list(specs) * players
    if len(specs) != players:
        raise BotError(f"{len(specs)} bots given for {players} players; "
                       "give one bot for all seats or one per seat")
    return list(specs)


BOT_FILE_SUFFIXES = (".py", ".toml")  # a bot named by its file (engine/bots.py: BotRegistry.resolve)


def is_bot_file(name: str) -> bool:
    return name.endswith(BOT_FILE_SUFFIXES)


def relative_to(specs: list[BotSpec], folder) -> list[BotSpec]:
    """``specs`` with each relative bot file path taken from ``folder`` (a
    scenario's or sweep's own folder, as every other path in those files);
    built-in names and absolute paths as they are."""
    import os

    return [BotSpec(os.path.normpath(os.path.join(folder, s.name)), s.params)
            if is_bot_file(s.name) and not os.path.isabs(s.name) else s for s in specs]


def bot_list_text(specs: list[BotSpec]) -> str:
    """A bot list as text that ``parse_bot_list`` reads back to ``specs``."""
    return ",".join(s.label for s in specs)
