"""A Lemminge match: the map and seated bots, ready to play chunks of games,
turn them into tables, summarise them and replay one game step by step. The
game-agnostic engine drives it like any match (``analyzer/engine/match.py``);
its unit is the game.

The moves table has a row per card played (about 180 per four-player game of
random bots): a run does not record them. ``tables_of`` plays the chunk's games
again with the moves recorded (the same streams give the same games), in
sub-batches whose buffers stay small."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from analyzer.engine.botspec import BotSpec
from analyzer.engine.match import PooledMatch
from analyzer.errors import AnalyzerError
from analyzer.games.lemminge import kernel
from analyzer.games.lemminge import layout as L
from analyzer.games.lemminge.board import load_map
from analyzer.games.lemminge.registry import REGISTRY
from analyzer.games.lemminge.summary import Summary

if TYPE_CHECKING:  # pandas loads when tables are built, not for a plain run
    import pandas as pd

TABLES = ("games", "players", "moves", "hexes")
MOVES_BATCH = 2048  # games replayed at a time for the moves table


@dataclass
class Chunk:
    """Records of games ``first .. first+count-1`` (rows beyond ``count`` unused)."""
    first: int
    count: int
    games: np.ndarray  # [n, GM_LEN]
    players: np.ndarray  # [n, players, PL_LEN]
    counts: np.ndarray  # [2]: moves recorded, overflow
    hexes: np.ndarray  # [cells, HX_LEN], summed over the chunk

    @property
    def capacity(self) -> int:
        return self.games.shape[0]

    def view(self) -> "Chunk":
        n = self.count
        return Chunk(self.first, n, self.games[:n], self.players[:n], self.counts, self.hexes)


NO_MOVES = np.zeros((0, L.MV_LEN), np.int32)


class LemmingeMatch(PooledMatch):
    game = "lemminge"
    title = "Lemminge"
    unit = "games"
    tables = TABLES
    errors = L.ERRORS
    variant = None

    def __init__(self, board: str | None, players: int, bots: list[BotSpec], check: bool = False):
        if not L.MIN_PLAYERS <= players <= L.MAX_PLAYERS:
            raise AnalyzerError(f"--players must be {L.MIN_PLAYERS}-{L.MAX_PLAYERS} for Lemminge, got {players}")
        self.map = load_map(board)
        super().__init__(REGISTRY, players, bots)
        self.game_array = kernel.pack_game(self.map, [f.kind for f in self.families], check=check)
        self.n_cells = self.map.n_cells

    # ------------------------------------------------------------------ playing

    def warm_up(self) -> None:
        """Compile (or load from cache) before timing or showing progress."""
        self.release([self.play(0, 0, 1)])

    def _new_chunk(self, capacity: int) -> Chunk:
        games, players, _, counts, hexes = kernel.new_records(capacity, self.players, self.n_cells, 0)
        return Chunk(0, 0, games, players, counts, hexes)

    def _play_into(self, chunk: Chunk, seed: int, first: int, count: int) -> int:
        chunk.hexes[:] = 0
        chunk.seed = seed
        return kernel.play_games(self.game_array, self.params, seed, first, count, chunk.games,
                                 chunk.players, NO_MOVES, chunk.counts, chunk.hexes, kernel.NO_TRACE)

    def outcomes(self, chunk: Chunk) -> tuple[np.ndarray, np.ndarray]:
        """Per game and seat: won, and the lemmings brought home (0-2) as the score."""
        c = chunk.view()
        return c.players[:, :, L.PL_WON] > 0, c.players[:, :, L.PL_FINISHED].astype(np.int64)

    def moves_of(self, seed: int, first: int, count: int) -> np.ndarray:
        """The moves records of games ``first .. first+count-1`` (MV_GAME: 0-based from ``first``)."""
        parts = []
        for start in range(first, first + count, MOVES_BATCH):
            n = min(MOVES_BATCH, first + count - start)
            cap = n * L.MOVES_PER_GAME * 3
            while True:
                games, players, moves, counts, hexes = kernel.new_records(n, self.players, self.n_cells, cap)
                status = kernel.play_games(self.game_array, self.params, seed, start, n, games, players, moves,
                                           counts, hexes, kernel.NO_TRACE)
                if status != 0:
                    self._bot_failed(status)
                if counts[1] == 0:
                    break
                cap *= 2
            rows = moves[:counts[0]].copy()
            rows[:, L.MV_GAME] += start - first
            parts.append(rows)
        return np.concatenate(parts) if parts else NO_MOVES

    # ------------------------------------------------------------------ describing

    def map_detail(self) -> str:
        m = self.map
        terrain = sum(v for k, v in m.counts().items() if k not in "AZ")
        return (f"{terrain} terrain hexes, start {m.start_distance()} steps from the finish; "
                f"cards {','.join(map(str, m.values))} per terrain; tiles {m.tiles_per_terrain} per terrain "
                f"+ {m.meadow_tiles} meadow")

    def describe(self) -> dict:
        m = self.map
        return {
            "game": self.game,
            "title": self.title,
            "unit": self.unit,
            "players": self.players,
            "variant": None,
            "map": {"name": m.name, "source": m.source, "assumed": m.assumed, "sha256": m.digest()},
            "data": [{"part": "map", "name": m.name, "source": m.source, "assumed": m.assumed,
                      "sha256": m.digest(), "detail": self.map_detail()}],
            "bots": self.bots_described(),
        }

    def setup_lines(self) -> list[str]:
        m = self.map
        tag = "ASSUMED reconstruction" if m.assumed else "user-supplied"
        return [f"map: {m.name} ({tag}; {self.map_detail()}, sha {m.digest()})"]

    def new_summary(self) -> Summary:
        return Summary(self.players, self.labels, self.n_cells)

    # ------------------------------------------------------------------ tables

    def tables_of(self, chunk: Chunk) -> dict[str, pd.DataFrame]:
        import pandas as pd

        c = chunk.view()
        n, p = c.count, self.players
        ids = np.arange(c.first, c.first + n, dtype=np.int64)
        g = c.games
        games = pd.DataFrame({
            "game": ids,
            "players": np.full(n, p, np.int8),
            "turns": g[:, L.GM_TURNS].astype(np.int32),
            "winner_seat": (g[:, L.GM_WINNER] + 1).astype(np.int8),
            "capped": g[:, L.GM_CAPPED].astype(bool),
            "reshuffles": g[:, L.GM_RESHUFFLES].astype(np.int16),
        })
        seat0 = np.tile(np.arange(p), n)
        pl = c.players.reshape(n * p, L.PL_LEN)
        players = pd.DataFrame({
            "game": np.repeat(ids, p),
            "seat": (seat0 + 1).astype(np.int8),
            "bot": self.seat_categorical(seat0),
            "won": pl[:, L.PL_WON].astype(bool),
            "finished": pl[:, L.PL_FINISHED].astype(np.int8),
            "refills": pl[:, L.PL_REFILLS].astype(np.int16),
            "moves": pl[:, L.PL_MOVES].astype(np.int16),
            "steps": pl[:, L.PL_STEPS].astype(np.int16),
            "pushes_made": pl[:, L.PL_PUSHES_MADE].astype(np.int16),
            "pushed": pl[:, L.PL_PUSHED].astype(np.int16),
            "new_columns": pl[:, L.PL_NEW_COLUMNS].astype(np.int16),
            "tiles_placed": pl[:, L.PL_TILES_PLACED].astype(np.int16),
            "hand_start": pl[:, L.PL_HAND_START].astype(np.int8),
        })
        return {"games": games, "players": players, "moves": self.moves_table(self.moves_of(chunk.seed, c.first, n),
                                                                             c.first)}

    def moves_table(self, mv: np.ndarray, first: int) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame({
            "game": mv[:, L.MV_GAME].astype(np.int64) + first,
            "turn": mv[:, L.MV_TURN].astype(np.int16),
            "seat": (mv[:, L.MV_SEAT] + 1).astype(np.int8),
            "terrain": pd.Categorical.from_codes(mv[:, L.MV_TERRAIN], list(L.TERRAINS)),
            "value": mv[:, L.MV_VALUE].astype(np.int8),
            "column_sum_before": mv[:, L.MV_COLSUM].astype(np.int16),
            "new_column": mv[:, L.MV_NEW_COLUMN].astype(bool),
            "movement": mv[:, L.MV_MOVEMENT].astype(np.int16),
            "steps": mv[:, L.MV_STEPS].astype(np.int16),
            "pushes": mv[:, L.MV_PUSHES].astype(np.int8),
            "lemming": mv[:, L.MV_LEMMING].astype(np.int8),
            "distance_before": mv[:, L.MV_DIST_BEFORE].astype(np.int16),
            "distance_after": mv[:, L.MV_DIST_AFTER].astype(np.int16),
        })

    def chunk_extras(self, chunk: Chunk) -> dict[str, pd.DataFrame]:
        """The hex counts of the chunk, for the statistics (the run's table is written once)."""
        return {"hexes": self.hexes_table(chunk.hexes)}

    def final_tables(self, summary: Summary) -> dict[str, pd.DataFrame]:
        return {"hexes": self.hexes_table(summary.hexes)}

    def hexes_table(self, counts: np.ndarray) -> pd.DataFrame:
        import pandas as pd

        m = self.map
        cells = np.array([c for c in range(m.n_cells) if m.letter(c) != "."], np.int64)
        terrain = m.terrain()[cells]
        return pd.DataFrame({
            "x": (cells % m.width).astype(np.int16),
            "y": (cells // m.width).astype(np.int16),
            "terrain": pd.Categorical.from_codes(terrain, list(L.TERRAIN_NAMES)),
            "entered": counts[cells, L.HX_ENTERED],
            "pushed_into": counts[cells, L.HX_PUSHED_INTO],
            "tiles_placed": counts[cells, L.HX_TILES],
        })
