"""Rule numbers as data: what a designer may change in a game's rules, and the
variant a run plays. Knows no game.

A game declares its rule numbers once, in its ``ruleset.py``: ``RULES =
RuleSet(game, player_counts, keys)``, each ``RuleKey`` with its box value (the
rulebook's), its range and its meaning. The docs page's table of rules, the
validation of ``--rule``/``--rules``/``[rules]`` and the names a run gives its
variant all come from that declaration.

A run plays one ``Rules``: every key's value, the box's where none was given.
The match packs the values into its kernel's arrays (rule values travel as data:
a variant never compiles a kernel again). The box plays bit for bit as before;
a run's identity (race sets, merges) includes the keys that differ from the box.

Values are whole numbers, booleans, lists of whole numbers, or tables by
player count (``{3 = 5, 4 = 4, 5 = 4}``, each entry a number or a list); a
table given in part keeps the box's entries for the other counts.

On the command line: ``--rules FILE`` (a TOML file holding a ``[rules]``
table) and ``--rule KEY=VALUE`` (repeatable, after the file's): VALUE is a
TOML value (``6``, ``true``, ``[5, 3, 2, 1]``, ``{3 = 5}``) or, shorter, a
comma list (``5,3,2,1``) or ``COUNT=VALUE`` pairs (``3=5,4=4``).
"""
from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from analyzer.errors import AnalyzerError, InputFileError

RULES_TABLE = "rules"  # the table of a rules file (and of a scenario run)


def _is_whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def show_value(value) -> str:
    """A rule value as the summaries and reports print it: ``6``, ``true``,
    ``5,3,2,1``, ``3=5 4=4``, ``2=[5,6] 3=[4,5,6]``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    if isinstance(value, dict):
        return " ".join(f"{n}={'[' + show_value(v) + ']' if isinstance(v, tuple) else show_value(v)}"
                        for n, v in sorted(value.items()))
    return str(value)


def _toml(value) -> str:
    """A rule value as TOML (a rules file ``--rules`` reads back)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "[" + ", ".join(map(str, value)) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{n} = {_toml(v)}" for n, v in sorted(value.items())) + " }"
    return str(value)


def _jsonable(value):
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, dict):
        return {str(n): _jsonable(v) for n, v in sorted(value.items())}
    return value


@dataclass(frozen=True)
class RuleKey:
    """One rule number a designer may change.

    ``box``: its value in the rulebook: an int, a bool, a tuple of ints (a
    list), or, with ``per_players``, a dict from player count to an int or a
    tuple. ``lo``/``hi``: the range of the number (of each item of a list);
    ``length``: a list's fewest and most items (``None``: any length within
    ``MAX_LIST``; with ``seat_list``, one item per seat). ``range_text``: the
    range in words where the match checks more than the numbers above (a bound
    that depends on the deck or the player count), for the docs and errors."""
    name: str
    box: Any
    meaning: str
    lo: int | None = None
    hi: int | None = None
    length: tuple[int, int] | None = None
    per_players: bool = False
    seat_list: bool = False  # per player count: a list of one item per seat
    unit: str = ""
    range_text: str = ""

    MAX_LIST = 64  # no rule list is longer (input is bounded)

    @property
    def kind(self) -> str:
        """``bool``, ``int``, ``list`` or ``table`` (by player count)."""
        if self.per_players:
            return "table"
        if isinstance(self.box, bool):
            return "bool"
        if isinstance(self.box, tuple):
            return "list"
        return "int"

    @property
    def item_kind(self) -> str:
        """For a table: what each entry is (``int`` or ``list``)."""
        if not self.per_players:
            return self.kind
        return "list" if isinstance(next(iter(self.box.values())), tuple) else "int"

    def number_range(self) -> str:
        lo, hi = self.lo, self.hi
        if lo is not None and hi is not None:
            return f"{lo} to {hi}"
        if lo is not None:
            return f"at least {lo}"
        if hi is not None:
            return f"at most {hi}"
        return "any whole number"

    def allowed(self) -> str:
        """The allowed values in words, for docs and errors."""
        if self.range_text:
            return self.range_text
        kind = self.item_kind
        if kind == "bool":
            return "true or false"
        if kind == "int":
            text = f"a whole number, {self.number_range()}"
        else:
            if self.seat_list:
                count = "one per seat"
            elif self.length is None:
                count = f"1 to {self.MAX_LIST}"
            elif self.length[0] == self.length[1]:
                count = f"{self.length[0]}"
            else:
                count = f"{self.length[0]} to {self.length[1]}"
            text = f"a list of {count} whole numbers, each {self.number_range()}"
        if self.per_players:
            return f"a table by player count, each entry {text}"
        return text

    # ------------------------------------------------------------ checking

    def _number(self, value, where: str) -> int:
        if not _is_whole(value):
            raise ValueError(f"{where}must be a whole number, got {value!r}")
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise ValueError(f"{where}must be {self.number_range()}, got {value}")
        return value

    def _item(self, value, kind: str, players: int | None = None, where: str = ""):
        if kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"{where}must be true or false, got {value!r}")
            return value
        if kind == "int":
            return self._number(value, where)
        if not isinstance(value, (list, tuple)):
            raise ValueError(f"{where}must be a list of whole numbers, got {value!r}")
        fewest, most = (players, players) if self.seat_list and players is not None else \
            self.length or (1, self.MAX_LIST)
        if not fewest <= len(value) <= most:
            count = f"{fewest}" if fewest == most else f"{fewest} to {most}"
            per = " (one per seat)" if self.seat_list else ""
            raise ValueError(f"{where}must list {count} numbers{per}, got {len(value)}")
        return tuple(self._number(v, f"{where}item {i + 1} ") for i, v in enumerate(value))

    def check(self, value, player_counts: tuple[int, int]):
        """The value normalised (lists as tuples, tables with int keys and the
        box's entries filled in), or ValueError naming what is wrong."""
        if not self.per_players:
            return self._item(value, self.kind)
        if not isinstance(value, dict):
            raise ValueError(f"must be a table by player count (e.g. {{ {_toml(self.box)[2:-2]} }}), got {value!r}")
        fewest, most = player_counts
        table = dict(self.box)
        for count, entry in value.items():
            try:
                n = int(count)
            except (TypeError, ValueError):
                n = None
            if n is None or str(count).strip() != str(n) or not fewest <= n <= most:
                raise ValueError(f"the player counts are {fewest} to {most}, got {count!r}")
            table[n] = self._item(entry, self.item_kind, n, f"for {n} players: ")
        return table

    def default_text(self) -> str:
        return show_value(self.box)


@dataclass(frozen=True)
class Rules:
    """The rules a run plays: every key's value (the box's where none was
    given), and the file they came from (``None``: ``--rule`` alone or the box)."""
    ruleset: "RuleSet"
    values: tuple[tuple[str, Any], ...]  # (key, value) in declaration order
    source: str | None = None

    def __getitem__(self, key: str):
        for name, value in self.values:
            if name == key:
                return value
        raise KeyError(f"{self.ruleset.game} has no rule {key!r}")

    def at(self, key: str, players: int):
        """A key's value for ``players`` (a table's entry; other keys as they are)."""
        value = self[key]
        return value[players] if isinstance(value, dict) else value

    def as_dict(self) -> dict[str, Any]:
        return dict(self.values)

    def changed(self) -> dict[str, Any]:
        """The keys whose value differs from the box's, in declaration order."""
        return {name: value for (name, value), key in zip(self.values, self.ruleset.keys) if value != key.box}

    @property
    def is_box(self) -> bool:
        return not self.changed()

    def digest(self) -> str:
        """What the variant plays, by content: the keys that differ from the box
        (so the box's digest stays the same when a game declares a new key)."""
        text = json.dumps(_jsonable(self.changed()), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def text(self) -> str:
        """The variant in words: ``box`` or ``bet_payouts 5,3,2,1,1; hand_size 6
        (box otherwise)``, with the file it came from."""
        changed = self.changed()
        where = f" from {self.source}" if self.source else ""
        if not changed:
            return f"box{where}"
        return "; ".join(f"{k} {show_value(v)}" for k, v in changed.items()) + f" (box otherwise){where}"

    def line(self) -> str:
        """The summary's and the report's line naming the rules."""
        return f"rules: {self.text()}"

    def describe(self) -> dict:
        """The manifest's ``rules``: the variant in words, the file, the keys changed,
        every value, the digest."""
        return {"text": self.text(), "source": self.source, "changed": _jsonable(self.changed()),
                "values": _jsonable(self.as_dict()), "sha256": self.digest()}

    def toml(self, comment: str = "") -> str:
        """A rules file ``--rules`` reads back: the ``[rules]`` table of the keys
        that differ from the box."""
        lines = [f"# {line}" for line in comment.splitlines()] if comment else []
        lines.append(f"[{RULES_TABLE}]")
        lines += [f"{k} = {_toml(v)}" for k, v in self.changed().items()]
        return "\n".join(lines) + "\n"



def rules_text(entry) -> str:
    """The rules a manifest's ``rules`` entry names, in words (a run written
    before runs named their rules played the box's)."""
    if isinstance(entry, dict) and isinstance(entry.get("text"), str):
        return entry["text"]
    return "box"


@dataclass(frozen=True)
class RuleSet:
    """A game's rule numbers: the keys a ``[rules]`` table may hold."""
    game: str
    title: str
    player_counts: tuple[int, int]
    keys: tuple[RuleKey, ...] = ()
    _by_name: dict = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "_by_name", {k.name: k for k in self.keys})

    def key(self, name: str) -> RuleKey:
        if name not in self._by_name:
            raise AnalyzerError(f"unknown rule {name!r} for {self.title} ({self.known()})")
        return self._by_name[name]

    def known(self) -> str:
        return f"its rules: {', '.join(self._by_name)}" if self.keys else "it has no rules to change"

    def box(self) -> Rules:
        return Rules(self, tuple((k.name, k.box) for k in self.keys))

    def rules(self, values: dict | None = None, source: str | None = None, where: str = "") -> Rules:
        """``values`` checked (``where`` leads an error's line), the box's for
        the keys left out. Raises ``InputFileError``: one line naming the key,
        the value and what is allowed."""
        values = values or {}
        if not isinstance(values, dict):
            raise InputFileError(f"{where}the rules must be a table of KEY = VALUE, got {values!r}")
        lead = f"{where}: " if where else ""
        for name in values:
            if name not in self._by_name:
                raise InputFileError(f"{lead}unknown rule {name!r} for {self.title} ({self.known()})")
        model = _model(self)
        from pydantic import ValidationError

        try:
            checked = model.model_validate(values)
        except ValidationError as e:
            first = e.errors(include_url=False)[0]
            name = str(first.get("loc", ("?",))[0])
            key = self._by_name.get(name)
            message = str(first.get("msg", "is not valid")).removeprefix("Value error, ")
            allowed = f" (allowed: {key.allowed()}; box {key.default_text()})" if key is not None else ""
            raise InputFileError(f"{lead}{name}: {message}{allowed}") from None
        found = {name: getattr(checked, name) for name in values}
        return Rules(self, tuple((k.name, found.get(k.name, k.box)) for k in self.keys), source)

    # ------------------------------------------------------------ reading

    def parse_pair(self, text: str) -> tuple[str, Any]:
        """``KEY=VALUE`` of ``--rule`` as (key, raw value)."""
        if not isinstance(text, str) or "=" not in text:
            raise AnalyzerError(f"--rule takes KEY=VALUE (e.g. a rule of {self.title}: "
                                f"{self.keys[0].name}={self.keys[0].default_text().replace(' ', ',') if self.keys else '...'}), "
                                f"got {text!r}")
        name, _, raw = text.partition("=")
        name, raw = name.strip(), raw.strip()
        key = self.key(name)
        if not raw:
            raise AnalyzerError(f"--rule {text}: no value given for {name}")
        if len(raw) > 4096:
            raise AnalyzerError(f"--rule {name}: the value is too long ({len(raw):,} characters)")
        return name, _value_of(key, raw, text)

    def read(self, file: str | Path | None = None, pairs: Iterable[str] = (), base: dict | None = None) -> Rules:
        """The rules of ``--rules FILE`` then ``--rule KEY=VALUE`` (a pair wins
        over the file's value, a table's entries over the file's entries; a key
        given twice with ``--rule`` is refused).
        ``base``: values before both (a scenario's ``[rules]`` table, checked by
        its reader). Each source is checked on its own, so an error names it."""
        values: dict[str, Any] = dict(base or {})
        source = None
        if file is not None:
            values.update(self.read_file(Path(file)))
            source = str(file)
        seen: set[str] = set()
        for text in pairs or ():
            name, raw = self.parse_pair(text)
            if name in seen:
                raise AnalyzerError(f"--rule {name} is given twice; give it once")
            seen.add(name)
            self.rules({name: raw}, where=f"--rule {text}")
            if self._by_name[name].per_players and isinstance(values.get(name), dict):
                raw = {**{str(k): v for k, v in values[name].items()}, **raw}  # a table adds to the file's
            values[name] = raw
        return self.rules(values, source)

    def read_file(self, path: Path) -> dict:
        """The ``[rules]`` table of a rules file, its keys known (values checked by ``rules``)."""
        from analyzer.engine.datafile import read_toml

        data = read_toml(Path(path), "rules file")
        if set(data) != {RULES_TABLE} or not isinstance(data[RULES_TABLE], dict):
            extra = sorted(set(data) - {RULES_TABLE})
            stray = [k for k in extra if k not in self._by_name]  # a rule's name outside the table is not stray
            why = (f"unknown key {stray[0]!r}" if stray else f"no [{RULES_TABLE}] table" if RULES_TABLE not in data
                   else f"{RULES_TABLE} must be a table")
            raise InputFileError(f"rules file {path}: {why} (a rules file holds one [{RULES_TABLE}] table of "
                                 f"{self.title}'s rules)")
        table = data[RULES_TABLE]
        for name in table:
            if name not in self._by_name:
                raise InputFileError(f"rules file {path}: unknown rule {name!r} for {self.title} ({self.known()})")
        try:
            self.rules(table, str(path))
        except InputFileError as e:
            raise InputFileError(f"rules file {path}: {e}") from None
        return table

    def from_manifest(self, entry) -> Rules:
        """The rules a run played, from its manifest's ``rules`` (none: the box)."""
        if entry is None:
            return self.box()
        if not isinstance(entry, dict) or not isinstance(entry.get("values", {}), dict):
            raise AnalyzerError(f"the run manifest's rules are not a table of values: {entry!r}")
        source = entry.get("source")
        return self.rules(entry.get("values") or {}, source if isinstance(source, str) else None,
                          where="the run manifest's rules")

    # ------------------------------------------------------------ docs

    def markdown(self) -> str:
        """The docs page's table of the rules (``python -m analyzer.docs``)."""
        if not self.keys:
            return f"{self.title} has no rule numbers to change yet.\n"
        rows = ["| key | box | allowed | meaning |", "|---|---|---|---|"]
        for k in self.keys:
            unit = f" ({k.unit})" if k.unit else ""
            rows.append(f"| `{k.name}` | `{_toml(k.box)}` | {k.allowed()} | {k.meaning}{unit} |")
        return "\n".join(rows) + "\n"


def _value_of(key: RuleKey, raw: str, text: str):
    """A ``--rule`` value: TOML, or a comma list, or ``COUNT=VALUE`` pairs."""
    candidates = [raw]
    if key.kind == "list" and not raw.startswith("["):
        candidates.insert(0, f"[{raw}]")  # a comma list, or one number: a list of one
    if key.per_players and not raw.startswith("{"):
        candidates.insert(0, "{" + raw + "}")
    for candidate in candidates:
        try:
            return tomllib.loads(f"v = {candidate}")["v"]
        except tomllib.TOMLDecodeError:
            continue
    raise AnalyzerError(f"--rule {text}: {key.name} must be {key.allowed()}, got {raw!r}")


_MODELS: dict[str, Any] = {}


def _model(ruleset: RuleSet):
    """The pydantic model of a game's ``[rules]`` table: each key optional,
    checked by its ``RuleKey`` (unknown keys refused, values taken as typed)."""
    model = _MODELS.get(ruleset.game)
    if model is not None and model.__rule_keys__ == ruleset.keys:
        return model
    from typing import Annotated

    from pydantic import AfterValidator, ConfigDict, create_model

    def checker(key: RuleKey):
        return lambda value: key.check(value, ruleset.player_counts)

    fields = {k.name: (Annotated[Any, AfterValidator(checker(k))], None) for k in ruleset.keys}
    model = create_model(f"Rules_{ruleset.game.replace('-', '_')}",
                         __config__=ConfigDict(extra="forbid", frozen=True), **fields)
    model.__rule_keys__ = ruleset.keys
    _MODELS[ruleset.game] = model
    return model

