"""Loading and validating a Lemming Mafia board and contract deck from TOML.

The format is the one of ``shared/rules/lemming-mafia.md``: a ``[board]`` table
with ``sections`` (lists of action names) and ``[[contracts]]`` tables with
``kind``, ``colors`` and ``points``. A file may hold either part or both; a part it
lacks is taken from the shipped assumed default, and the setup says so.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import Field, field_validator, model_validator

from analyzer.engine.datafile import FileModel, Name, content_digest, counts_as_assumed, read_toml, validate
from analyzer.errors import InputFileError
from analyzer.games.lemming_mafia.layout import (
    ACTIONS, COLORS, CONTRACT_KINDS, DECK_LEN, KIND_COLOR_COUNT, KIND_POINTS, MAX_CONTRACTS_EACH,
    MAX_SECTION_FIELDS,
)
from analyzer.games.lemming_mafia.ruleset import MAX_POINTS

# The records are 16-bit (match.RECORD): a race has at most 6 x sections moves,
# and each player at most moves + 6 x fields decisions; with these bounds every
# recorded number (turns, decisions, field and card indices, points) stays far
# below 32,767. The box has 13 sections and 18 cards.
MAX_SECTIONS = 500
MAX_CARDS = 1000


def default_board_path() -> Path:
    return Path(str(resources.files("analyzer.games.lemming_mafia") / "data" / "assumed-default.toml"))


@dataclass(frozen=True)
class Board:
    name: str
    sections: tuple[tuple[str, ...], ...]
    assumed: bool
    source: str  # the file it came from

    @property
    def field_action(self) -> np.ndarray:
        return np.array([ACTIONS.index(a) for s in self.sections for a in s], np.int64)

    @property
    def field_section(self) -> np.ndarray:
        return np.array([i for i, s in enumerate(self.sections) for _ in s], np.int64)

    @property
    def section_start(self) -> np.ndarray:
        return np.cumsum([0] + [len(s) for s in self.sections]).astype(np.int64)

    @property
    def n_fields(self) -> int:
        return sum(len(s) for s in self.sections)

    def digest(self) -> str:
        return content_digest({"sections": self.sections})


@dataclass(frozen=True)
class Deck:
    name: str
    cards: tuple[tuple[str, tuple[str, ...], int], ...]  # (kind, colours, points)
    assumed: bool
    source: str

    @property
    def array(self) -> np.ndarray:
        out = np.zeros((len(self.cards), DECK_LEN), np.int64)
        for i, (kind, colors, points) in enumerate(self.cards):
            idx = [COLORS.index(c) for c in colors] + [0, 0]
            out[i] = (CONTRACT_KINDS.index(kind), idx[0], idx[1], points)
        return out

    def digest(self) -> str:
        return content_digest({"cards": self.cards})


def _read_toml(path: Path) -> dict:
    return read_toml(path, "board file")


# ------------------------------------------------------------------ file models
# The board file validated (analyzer.engine.datafile): unknown keys, wrong types
# and impossible values are one line naming the file and the key.

class _BoardTable(FileModel):
    name: Name | None = None
    note: str | None = None
    assumed: bool = False
    sections: Any = Field(default=None, validate_default=True)

    @field_validator("sections")
    @classmethod
    def _sections(cls, sections):
        if not isinstance(sections, list) or not sections:
            raise ValueError("the board has no sections")
        if len(sections) > MAX_SECTIONS:
            raise ValueError(f"the board has {len(sections)} sections, at most {MAX_SECTIONS} are supported")
        out = []
        for i, section in enumerate(sections, 1):
            if not isinstance(section, list) or not section:
                raise ValueError(f"section {i} is empty" if section == [] else
                                 f"section {i} must be a list of action names, got {section!r}")
            if len(section) > MAX_SECTION_FIELDS:
                raise ValueError(f"section {i} has {len(section)} fields, at most {MAX_SECTION_FIELDS} "
                                 "are supported")
            for action in section:
                if action not in ACTIONS:
                    raise ValueError(f"section {i} has unknown action {action!r} (known: {', '.join(ACTIONS)})")
            out.append(tuple(section))
        return tuple(out)


class _DeckTable(FileModel):
    name: Name | None = None
    note: str | None = None
    assumed: bool = False


class _Contract(FileModel):
    kind: Any = Field(default=None, validate_default=True)
    colors: Any = ()
    points: int | None = Field(default=None, ge=0, le=MAX_POINTS)

    @field_validator("kind")
    @classmethod
    def _kind(cls, kind):
        if kind not in CONTRACT_KINDS:
            raise ValueError(f"unknown kind {kind!r} (known: {', '.join(CONTRACT_KINDS)})")
        return kind

    @field_validator("colors")
    @classmethod
    def _colors(cls, colors):
        if not isinstance(colors, list):
            raise ValueError(f"colors must be a list, got {colors!r}")
        for c in colors:
            if c not in COLORS:
                raise ValueError(f"unknown colour {c!r} (known: {', '.join(COLORS)})")
        return tuple(colors)

    @model_validator(mode="after")
    def _colour_count(self):
        need = KIND_COLOR_COUNT[CONTRACT_KINDS.index(self.kind)]
        if len(self.colors) != need:
            raise ValueError(f"({self.kind}) names {len(self.colors)} colours, needs {need}")
        if len(set(self.colors)) != len(self.colors):
            raise ValueError(f"({self.kind}) names the same colour twice")
        return self

    def card(self) -> tuple[str, tuple[str, ...], int]:
        points = KIND_POINTS[CONTRACT_KINDS.index(self.kind)] if self.points is None else self.points
        return self.kind, self.colors, points


class _BoardFile(FileModel):
    board: _BoardTable | None = None
    deck: _DeckTable | None = None
    contracts: list[_Contract] | None = Field(default=None, max_length=MAX_CARDS)

    @field_validator("contracts", mode="before")
    @classmethod
    def _deck_not_empty(cls, cards):
        if cards is not None and (not isinstance(cards, list) or not cards):
            raise ValueError("the contract deck is empty" if cards == [] else
                             "must be [[contracts]] tables")
        return cards

    @model_validator(mode="after")
    def _something(self):
        if self.board is None and self.contracts is None:
            raise ValueError("no [board] and no [[contracts]]: nothing to load")
        return self


def parse_file(data: dict, where: str) -> tuple[Board | None, Deck | None]:
    """The board and deck a file holds (None for a part it lacks)."""
    f = validate(_BoardFile, data, where, "board file")
    stem = Path(where).stem
    board = deck = None
    if f.board is not None:
        board = Board(name=f.board.name or stem, sections=f.board.sections, assumed=f.board.assumed,
                      source=where)
    if f.contracts is not None:
        meta = f.deck or _DeckTable()
        deck = Deck(name=meta.name or stem, cards=tuple(c.card() for c in f.contracts),
                    assumed=meta.assumed, source=where)
    return board, deck


def load_setup(path: str | Path | None = None) -> tuple[Board, Deck]:
    """Board and deck from a file (parts it lacks from the assumed default)."""
    default_board, default_deck = parse_file(_read_toml(default_board_path()), "assumed-default")
    if path is None:
        return default_board, default_deck
    path = Path(path)
    board, deck = parse_file(_read_toml(path), str(path))
    board = board or default_board
    deck = deck or default_deck
    board = dataclasses.replace(board, assumed=counts_as_assumed(board.assumed, board.sections,
                                                                  default_board.sections))
    deck = dataclasses.replace(deck, assumed=counts_as_assumed(deck.assumed, deck.cards, default_deck.cards))
    return board, deck


def _box_rules():
    from analyzer.games.lemming_mafia.ruleset import RULES

    return RULES.box()


def check_players(deck: Deck, players: int, rules=None) -> None:
    """The deck deals ``contracts_dealt`` cards to each of ``players``: one line
    naming the rule where a variant asks for more than the deck holds."""
    rules = rules or _box_rules()
    dealt = rules["contracts_dealt"]
    need = players * dealt
    if len(deck.cards) >= need:
        return
    most = min(len(deck.cards) // players, MAX_CONTRACTS_EACH)
    if rules.changed().get("contracts_dealt") is not None:
        raise InputFileError(
            f"rule contracts_dealt {dealt}: contract deck {deck.name!r} has {len(deck.cards)} cards, "
            f"{players} players need {need} (allowed: 1 to the deck size / players, here "
            + (f"1 to {most})" if most >= 1 else "none: the deck is too small for this many players)"))
    raise InputFileError(
        f"contract deck {deck.name!r} has {len(deck.cards)} cards, {players} players need {need}")


def rule_values(rules) -> dict[int, int]:
    """The game header's rule slots (``layout.RULE_SLOTS``) from ``rules``
    (``ruleset.RULES``' values): slot -> value."""
    from analyzer.games.lemming_mafia import layout as L

    slots = {}
    for name, slot in L.RULE_SLOTS.items():
        value = rules[name]
        if isinstance(value, tuple):  # bet_points
            # a stack holds one card per colour: a shorter list pays its last entry on the later positions
            value = list(value) + [value[-1]] * (L.N_LEMMINGS - len(value))
            slots.update({slot + k: v for k, v in enumerate(value)})
        else:
            slots[slot] = value
    return slots


def pack_game(board: Board, deck: Deck, kinds: list[int], rules=None) -> np.ndarray:
    """The ``game`` array of layout.py: header, bot kinds, the rules (``rules``:
    ``ruleset.RULES``' values; None: the box's), board and deck, with the sizes of
    the ``state`` and ``hidden`` arrays the kernel allocates."""
    from analyzer.games.lemming_mafia import layout as L

    rules = rules or _box_rules()
    players = len(kinds)
    n_fields, n_sections, n_cards = board.n_fields, len(board.sections), len(deck.cards)
    # progress by position + 2: eliminated and start area 0, a field its section + 1,
    # the water n_sections + 1 (read by rules.sections_passed)
    progress = np.concatenate([[0, 0], np.asarray(board.field_section) + 1, [n_sections + 1]])
    # for the section masks of state (layout.py, S_OCCUPANT): each field's bit
    # in its section, by position + 2 like progress, and each section's full mask
    starts = np.asarray(board.section_start)
    field_bit = np.concatenate([[0, 0], 1 << (np.arange(n_fields) - starts[np.asarray(board.field_section)]),
                                [0]])
    section_full = np.append((1 << np.diff(starts)) - 1, 0)
    parts = [board.field_action, board.field_section, board.section_start, deck.array.ravel(),
             progress, field_bit, section_full]
    header = np.zeros(L.G_HEADER, np.int64)
    header[L.G_N_FIELDS] = n_fields
    header[L.G_N_SECTIONS] = n_sections
    header[L.G_N_CARDS] = n_cards
    header[L.G_N_PLAYERS] = players
    header[L.G_KINDS:L.G_KINDS + players] = kinds
    for slot, value in rule_values(rules).items():
        header[slot] = value
    at = L.G_HEADER
    slots = (L.G_ACTION_AT, L.G_SECTION_AT, L.G_START_AT, L.G_DECK_AT, L.G_PROGRESS_AT,
             L.G_FIELD_BIT_AT, L.G_SECTION_FULL_AT)
    for slot, part in zip(slots, parts):
        header[slot] = at
        at += len(part)
    hidden_at = players * L.OWN_LEN
    for slot, size in ((L.G_H_DISCARD_AT, players * L.MAX_CONTRACTS_EACH),
                       (L.G_H_ANSWERS_AT, players), (L.G_H_ORDER_AT, n_cards),
                       (L.G_H_COUNT_AT, n_fields * L.FIELD_LEN)):
        header[slot] = hidden_at
        hidden_at += size
    header[L.G_H_LEN] = hidden_at
    header[L.G_S_SECTIONS_AT] = L.S_OCCUPANT + n_fields
    race_len = L.S_OCCUPANT + n_fields + n_sections + 2
    records = (L.RACE_LEN + players * L.PL_LEN + players * L.MAX_CONTRACTS_EACH * L.CT_LEN
               + players * L.N_LEMMINGS * L.BET_LEN)
    # the look-ahead bot's shared playouts log the bet and discard rounds of one
    # playout: at most one a move, and a race has at most 6 x (sections + 1) moves
    round_log = 1 + L.N_LEMMINGS * (n_sections + 1)
    # and its playouts keep random_race.py's masks of each seat's cards
    masks = 2 * players
    work = (race_len + hidden_at + 1 + records + 3 * L.WORK_OPTIONS + L.WORK_OPTIONS * L.RACING_ROLLOUTS
            + players * L.OWN_LEN + masks + round_log)
    header[L.G_S_WORK_AT] = race_len
    header[L.G_S_FLOW_AT] = race_len + work
    # the standing's history (rules.flow_cap): a move per slot, as many as a race can last
    header[L.G_S_LEN] = race_len + work + L.N_LEMMINGS * (n_sections + 1)
    return np.concatenate([header] + [np.asarray(p, np.int64) for p in parts])

