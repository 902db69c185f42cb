"""Loading and validating a Lemming Mafia board and contract deck from TOML.

The format is the one of ``shared/rules/lemming-mafia.md``: a ``[board]`` table
with ``sections`` (lists of action names) and ``[[contracts]]`` tables with
``kind``, ``colors`` and ``points``. A file may hold either part or both; a part it
lacks is taken from the shipped assumed default, and the setup says so.
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from analyzer.engine.datafile import content_digest, read_toml
from analyzer.errors import InputFileError
from analyzer.games.lemming_mafia.layout import (
    ACTIONS, COLORS, CONTRACT_KINDS, DECK_LEN, KIND_COLOR_COUNT, KIND_POINTS,
    N_CONTRACTS_EACH,
)

MAX_SECTION_FIELDS = 8  # the box has 2 or 3; more than 8 would not fit the kernel buffers


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


def parse_board(data: dict, where: str) -> Board:
    table = data["board"]
    if not isinstance(table, dict):
        raise InputFileError(f"{where}: [board] must be a table")
    sections = table.get("sections")
    if not isinstance(sections, list) or not sections:
        raise InputFileError(f"{where}: the board has no sections")
    out = []
    for i, section in enumerate(sections, 1):
        if not isinstance(section, list) or not section:
            raise InputFileError(f"{where}: section {i} is empty")
        if len(section) > MAX_SECTION_FIELDS:
            raise InputFileError(
                f"{where}: section {i} has {len(section)} fields, at most {MAX_SECTION_FIELDS} are supported")
        for action in section:
            if action not in ACTIONS:
                raise InputFileError(
                    f"{where}: section {i} has unknown action {action!r} (known: {', '.join(ACTIONS)})")
        out.append(tuple(section))
    name = str(table.get("name", Path(where).stem))
    return Board(name=name, sections=tuple(out), assumed=bool(table.get("assumed", False)), source=where)


def parse_deck(data: dict, where: str) -> Deck:
    cards = data["contracts"]
    if not isinstance(cards, list) or not cards:
        raise InputFileError(f"{where}: the contract deck is empty")
    out = []
    for i, card in enumerate(cards, 1):
        if not isinstance(card, dict):
            raise InputFileError(f"{where}: contract {i} must be a table")
        kind = card.get("kind")
        if kind not in CONTRACT_KINDS:
            raise InputFileError(
                f"{where}: contract {i} has unknown kind {kind!r} (known: {', '.join(CONTRACT_KINDS)})")
        colors = card.get("colors", [])
        if not isinstance(colors, list):
            raise InputFileError(f"{where}: contract {i} colors must be a list")
        for c in colors:
            if c not in COLORS:
                raise InputFileError(
                    f"{where}: contract {i} has unknown colour {c!r} (known: {', '.join(COLORS)})")
        need = KIND_COLOR_COUNT[CONTRACT_KINDS.index(kind)]
        if len(colors) != need:
            raise InputFileError(
                f"{where}: contract {i} ({kind}) names {len(colors)} colours, needs {need}")
        if len(set(colors)) != len(colors):
            raise InputFileError(f"{where}: contract {i} ({kind}) names the same colour twice")
        points = card.get("points", KIND_POINTS[CONTRACT_KINDS.index(kind)])
        if not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= 100:
            raise InputFileError(f"{where}: contract {i} points must be a whole number 0-100")
        out.append((kind, tuple(colors), points))
    meta = data.get("deck", {}) if isinstance(data.get("deck", {}), dict) else {}
    name = str(meta.get("name", Path(where).stem))
    return Deck(name=name, cards=tuple(out), assumed=bool(meta.get("assumed", False)), source=where)


def load_setup(path: str | Path | None = None) -> tuple[Board, Deck]:
    """Board and deck from a file (parts it lacks from the assumed default)."""
    default_path = default_board_path()
    default = _read_toml(default_path)
    default_board = parse_board(default, "assumed-default")
    default_deck = parse_deck(default, "assumed-default")
    if path is None:
        return default_board, default_deck
    path = Path(path)
    data = _read_toml(path)
    unknown = set(data) - {"board", "contracts", "deck"}
    if unknown:
        raise InputFileError(f"{path}: unknown table(s) {', '.join(sorted(unknown))} (expected [board], [[contracts]])")
    if "board" not in data and "contracts" not in data:
        raise InputFileError(f"{path}: no [board] and no [[contracts]]: nothing to load")
    board = parse_board(data, str(path)) if "board" in data else default_board
    deck = parse_deck(data, str(path)) if "contracts" in data else default_deck
    # a copy of the reconstruction is still the reconstruction, whatever its name
    if board.sections == default_board.sections:
        board = Board(board.name, board.sections, True, board.source)
    if deck.cards == default_deck.cards:
        deck = Deck(deck.name, deck.cards, True, deck.source)
    return board, deck


def check_players(deck: Deck, players: int) -> None:
    need = players * N_CONTRACTS_EACH
    if len(deck.cards) < need:
        raise InputFileError(
            f"contract deck {deck.name!r} has {len(deck.cards)} cards, {players} players need {need}")


def pack_game(board: Board, deck: Deck, kinds: list[int]) -> np.ndarray:
    """The ``game`` array of layout.py: header, bot kinds, board and deck, with the
    sizes of the ``state`` and ``hidden`` arrays the kernel allocates."""
    from analyzer.games.lemming_mafia import layout as L

    players = len(kinds)
    n_fields, n_sections, n_cards = board.n_fields, len(board.sections), len(deck.cards)
    # progress by position + 2: eliminated and start area 0, a field its section + 1,
    # the water n_sections + 1 (read by rules.sections_passed)
    progress = np.concatenate([[0, 0], np.asarray(board.field_section) + 1, [n_sections + 1]])
    parts = [board.field_action, board.field_section, board.section_start, deck.array.ravel(),
             progress]
    header = np.zeros(L.G_HEADER, np.int64)
    header[L.G_N_FIELDS] = n_fields
    header[L.G_N_SECTIONS] = n_sections
    header[L.G_N_CARDS] = n_cards
    header[L.G_N_PLAYERS] = players
    header[L.G_KINDS:L.G_KINDS + players] = kinds
    at = L.G_HEADER
    slots = (L.G_ACTION_AT, L.G_SECTION_AT, L.G_START_AT, L.G_DECK_AT, L.G_PROGRESS_AT)
    for slot, part in zip(slots, parts):
        header[slot] = at
        at += len(part)
    hidden_at = players * L.OWN_LEN
    for slot, size in ((L.G_H_DISCARD_AT, players * L.N_CONTRACTS_EACH),
                       (L.G_H_ANSWERS_AT, players), (L.G_H_ORDER_AT, n_cards),
                       (L.G_H_COUNT_AT, n_fields * L.FIELD_LEN)):
        header[slot] = hidden_at
        hidden_at += size
    header[L.G_H_LEN] = hidden_at
    race_len = L.S_OCCUPANT + n_fields
    records = (L.RACE_LEN + players * L.PL_LEN + players * L.N_CONTRACTS_EACH * L.CT_LEN
               + players * L.N_LEMMINGS * L.BET_LEN)
    work = race_len + hidden_at + 1 + records + 3 * L.WORK_OPTIONS
    header[L.G_S_WORK_AT] = race_len
    header[L.G_S_LEN] = race_len + work
    return np.concatenate([header] + [np.asarray(p, np.int64) for p in parts])
