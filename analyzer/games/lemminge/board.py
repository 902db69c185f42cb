"""Loading and validating a Lemminge map file (TOML): the hex map, the card
values per terrain and the bonus-tile supply.

Format (see ``data/assumed-default.toml``)::

    [map]
    name = "assumed-default"      # optional, default: the file's stem
    assumed = true                # optional, default false
    grid = \"\"\"
    ..ZMM...
    .AAMWW..
    \"\"\"                         # one line per row; letters below
    [cards]
    values = [4, 3, 3, 2, 2, 2, 1, 1, 1, 0, 0]   # one terrain's cards; one 2 starts its column
    [tiles]
    per_terrain = 3
    meadow = 6

The grid is "odd-r" offset: row ``y`` from the top, column ``x`` from the left,
odd rows half a hex to the right. Every problem is refused with one line naming
the file (and the row and column, 1-based, for the grid).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Annotated
from importlib import resources
from pathlib import Path

import numpy as np
from pydantic import Field

from analyzer.engine.datafile import FileModel, Name, content_digest, read_toml, validate
from analyzer.errors import InputFileError
from analyzer.games.lemminge.layout import (
    HEX_LETTERS, MAX_CARD_VALUE, MAX_CELLS, MAX_PLAYERS, MAX_START, MAX_TILES, MAX_VALUES, MIN_PLAYERS,
    N_DIRECTIONS, N_TERRAINS, OFF, START, FINISH, TERRAIN_OF_LETTER,
)
from analyzer.games.lemminge.ruleset import BOX_START_HANDS

def default_map_path() -> Path:
    return Path(str(resources.files("analyzer.games.lemminge") / "data" / "assumed-default.toml"))


def neighbour(x: int, y: int, d: int) -> tuple[int, int]:
    """The hex next to (x, y) in direction ``d`` (layout.DIRECTIONS: E, W, NE,
    NW, SE, SW) on the odd-r grid. A direction keeps its meaning from hex to
    hex, so a line of lemmings pushed "in the same direction" follows ``d``."""
    odd = y & 1
    if d == 0:
        return x + 1, y
    if d == 1:
        return x - 1, y
    dy = -1 if d in (2, 3) else 1
    east = d in (2, 4)
    # even rows: the rows above and below at x-1 (west) and x (east); odd rows at x and x+1
    return (x + odd if east else x - 1 + odd), y + dy


@dataclass(frozen=True)
class Map:
    name: str
    assumed: bool
    source: str
    rows: tuple[str, ...]  # the grid, one string per row (all the same length)
    values: tuple[int, ...]  # one terrain's card values
    tiles_per_terrain: int
    meadow_tiles: int

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def n_cells(self) -> int:
        return self.width * self.height

    def digest(self) -> str:
        return content_digest({"grid": list(self.rows), "values": list(self.values),
                               "tiles": [self.tiles_per_terrain, self.meadow_tiles]})

    def letter(self, cell: int) -> str:
        return self.rows[cell // self.width][cell % self.width]

    def terrain(self) -> np.ndarray:
        """Terrain code per cell (layout: forest..swamp 0-4, MEADOW, START, FINISH, OFF)."""
        return np.array([TERRAIN_OF_LETTER[ch] for row in self.rows for ch in row], np.int64)

    def neighbours(self) -> np.ndarray:
        """[n_cells, 6] cell of the neighbour in each direction, -1 off the board."""
        w, h = self.width, self.height
        out = np.full((w * h, N_DIRECTIONS), -1, np.int64)
        for y in range(h):
            for x in range(w):
                if self.rows[y][x] == ".":
                    continue
                for d in range(N_DIRECTIONS):
                    nx, ny = neighbour(x, y, d)
                    if 0 <= nx < w and 0 <= ny < h and self.rows[ny][nx] != ".":
                        out[y * w + x, d] = ny * w + nx
        return out

    def distances(self) -> np.ndarray:
        """Steps to the nearest finish hex over any hex but ``.`` (terrain and
        lemmings ignored), per cell; -1 where the finish cannot be reached."""
        nb = self.neighbours()
        dist = np.full(self.n_cells, -1, np.int64)
        queue = deque()
        for c in range(self.n_cells):
            if self.letter(c) == "Z":
                dist[c] = 0
                queue.append(c)
        while queue:
            c = queue.popleft()
            for n in nb[c]:
                if n >= 0 and dist[n] < 0:
                    dist[n] = dist[c] + 1
                    queue.append(n)
        return dist

    def start_distance(self) -> int:
        dist = self.distances()
        return int(min(dist[c] for c in range(self.n_cells) if self.letter(c) == "A" and dist[c] >= 0))

    def tile_cells(self) -> np.ndarray:
        """Cells a bonus tile may go on: every terrain hex (not ``.``, ``A``, ``Z``)."""
        return np.array([c for c in range(self.n_cells) if self.letter(c) not in ".AZ"], np.int64)

    def counts(self) -> dict[str, int]:
        from collections import Counter

        return dict(Counter(ch for row in self.rows for ch in row if ch != "."))


def _fail(where: str, text: str):
    raise InputFileError(f"map file {where}: {text}")


# ------------------------------------------------------------------ file models
# The map file validated (analyzer.engine.datafile): unknown tables and keys,
# wrong types and out-of-range numbers are one line naming the file and the key;
# what needs the whole map (letters, row lengths, a reachable finish) follows.

class _MapTable(FileModel):
    name: Name | None = None
    note: str | None = None
    assumed: bool = False
    grid: str


class _CardsTable(FileModel):
    values: list[Annotated[int, Field(ge=0, le=MAX_CARD_VALUE)]] = Field(min_length=2, max_length=MAX_VALUES)


class _TilesTable(FileModel):
    per_terrain: int = Field(ge=0, le=MAX_TILES)
    meadow: int = Field(ge=0, le=MAX_TILES)


class _MapFile(FileModel):
    map: _MapTable
    cards: _CardsTable
    tiles: _TilesTable


def parse_map(data: dict, where: str) -> Map:
    f = validate(_MapFile, data, where, "map file")
    name = f.map.name if f.map.name is not None else Path(where).stem
    rows = [line.strip() for line in f.map.grid.strip("\n").split("\n")]
    while rows and not rows[-1]:
        rows.pop()
    if not rows or not rows[0]:
        _fail(where, "map.grid: the grid is empty")
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch not in HEX_LETTERS:
                _fail(where, f"map.grid: row {y + 1}, column {x + 1}: unknown letter {ch!r} "
                             f"(letters: {' '.join(HEX_LETTERS)})")
        if len(row) != len(rows[0]):
            _fail(where, f"map.grid: row {y + 1} has {len(row)} hexes, row 1 has {len(rows[0])}: rows must "
                         "have the same length")
    if len(rows) * len(rows[0]) > MAX_CELLS:
        _fail(where, f"map.grid: the grid has {len(rows)} x {len(rows[0])} hexes, at most {MAX_CELLS} are "
                     "supported")
    text = "".join(rows)
    if "A" not in text:
        _fail(where, "map.grid: the grid has no start hex (A)")
    if "Z" not in text:
        _fail(where, "map.grid: the grid has no finish hex (Z)")
    values = f.cards.values
    if 2 not in values:
        _fail(where, "cards.values: no 2: one 2 of each terrain starts its column")
    if max(values) == 0:
        _fail(where, "cards.values: all 0: no card could move a lemming")
    deal = sum(BOX_START_HANDS[MAX_PLAYERS])  # the box's deal (a variant's is checked by the match)
    if N_TERRAINS * (len(values) - 1) < deal:
        _fail(where, f"cards.values: {len(values)} cards per terrain leave {N_TERRAINS * (len(values) - 1)} to "
                     f"draw, fewer than the {deal} dealt to {MAX_PLAYERS} players")
    starts = text.count("A")
    if starts > MAX_START:  # the game array holds this many start hexes
        _fail(where, f"map.grid: the grid has {starts} start hexes (A), at most {MAX_START} are supported")
    board = Map(name, f.map.assumed, where, tuple(rows), tuple(values), f.tiles.per_terrain, f.tiles.meadow)
    if f.tiles.per_terrain + f.tiles.meadow > 0 and not len(board.tile_cells()):
        _fail(where, "map.grid: no hex a bonus tile can go on (every hex is A, Z or off the board), "
                     "yet [tiles] has tiles: add terrain hexes, or set the tiles to 0")
    dist = board.distances()
    starts = [c for c in range(board.n_cells) if board.letter(c) == "A"]
    if all(dist[c] < 0 for c in starts):
        c = starts[0]
        _fail(where, f"map.grid: row {c // board.width + 1}, column {c % board.width + 1}: no finish hex (Z) "
                     "can be reached from the start (A)")
    return board


def load_map(path: str | Path | None = None) -> Map:
    """The map of a file, or the shipped assumed default. A file whose content
    equals the default is the assumed default, whatever it says."""
    default_path = default_map_path()
    default = parse_map(read_toml(default_path, "map file"), str(default_path))
    if path is None:
        return default
    path = Path(path)
    board = parse_map(read_toml(path, "map file"), str(path))
    if board.digest() == default.digest() and not board.assumed:
        board = Map(board.name, True, board.source, board.rows, board.values, board.tiles_per_terrain,
                    board.meadow_tiles)
    return board
