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

from analyzer.engine import userbots
from analyzer.engine.botspec import BotSpec
from analyzer.engine.match import PooledMatch
from analyzer.engine.records import flow_values
from analyzer.errors import AnalyzerError
from analyzer.games.lemminge import kernel
from analyzer.games.lemminge import layout as L
from analyzer.games.lemminge.board import load_map
from analyzer.games.lemminge.records import TABLES as SPECS
from analyzer.games.lemminge.registry import REGISTRY
from analyzer.games.lemminge.ruleset import deal_line
from analyzer.games.lemminge.summary import Summary
from analyzer.games.protocol import Replay, ReplayStep

if TYPE_CHECKING:  # pandas loads when tables are built, not for a plain run
    import pandas as pd

TABLES = tuple(SPECS)
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
    # cold compile seconds by kernel (make bench --only compile, 28 Nov 2026): the first run's estimate
    compile_seconds = {"analyzer.games.lemminge.kernel.play_games": 19}
    variant = None

    def __init__(self, board: str | None, players: int, bots: list[BotSpec], check: bool = False,
                 rules=None):
        if not L.MIN_PLAYERS <= players <= L.MAX_PLAYERS:
            raise AnalyzerError(f"--players must be {L.MIN_PLAYERS}-{L.MAX_PLAYERS} for Lemminge, got {players}")
        self.map = load_map(board)
        super().__init__(REGISTRY, players, bots, rules)
        self.game_array = kernel.pack_game(self.map, [f.kind for f in self.families], check=check,
                                           rules=self.rules)
        self.n_cells = self.map.n_cells
        self._play = kernel.play_games  # user bots too: by their code's address (engine/bot_table.py)

    # ------------------------------------------------------------------ playing

    def warm_up(self, detail: bool = True) -> None:
        """Compile (or load from cache) before timing or showing progress."""
        userbots.warm_up(self, detail)

    def _bot_failed(self, status: int, first: int = 0) -> None:
        userbots.raise_fault(self, status, first)  # a user bot's failure, in one line naming its file
        super()._bot_failed(status, first)

    def _new_chunk(self, capacity: int) -> Chunk:
        games, players, _, counts, hexes = kernel.new_records(capacity, self.players, self.n_cells, 0)
        return Chunk(0, 0, games, players, counts, hexes)

    def _play_into(self, chunk: Chunk, seed: int, first: int, count: int) -> int:
        chunk.hexes[:] = 0
        chunk.seed = seed
        return self._play(self.game_array, self.params, seed, first, count, chunk.games,
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
                status = self._play(self.game_array, self.params, seed, start, n, games, players, moves,
                                           counts, hexes, kernel.NO_TRACE)
                if status != 0:
                    self._bot_failed(status, start)
                if counts[1] == 0:
                    break
                cap *= 2
            rows = moves[:counts[0]].copy()
            rows[:, L.MV_GAME] += start - first
            parts.append(rows)
        return np.concatenate(parts) if parts else NO_MOVES

    # ------------------------------------------------------------------ replay

    def replay(self, seed: int, index: int) -> Replay:
        """Game ``index`` of the run ``simulate`` plays with ``seed`` (the same
        streams), step by step, ending with its table rows."""
        size = 1 << 16
        while True:
            trace = np.zeros(size, np.int64)
            trace[0] = 1
            games, players, moves, counts, hexes = kernel.new_records(1, self.players, self.n_cells,
                                                                      4 * L.MAX_TURNS)
            status = self._play(self.game_array, self.params, seed, index, 1, games, players, moves, counts,
                                       hexes, trace)
            if status != 0:
                self._bot_failed(status, index)
            if trace[0] + L.TR_WIDTH <= size:
                break
            size *= 4
        events = trace[1:trace[0]].reshape(-1, L.TR_WIDTH)
        chunk = Chunk(index, 1, games, players, counts, hexes)
        chunk.seed = seed
        tables = self.tables_of(chunk)
        tables["hexes"] = self.hexes_table(hexes)
        steps = describe_events(events, self.map, self.labels)
        ends = [s.text for s in steps if s.kind == "end"]  # the rulebook's win: both lemmings home first
        outcome = ends[-1].replace(" has both lemmings home and wins",
                                   " wins because it is the first to get both lemmings home") if ends else ""
        return Replay(self.game, self.unit, index, seed, self.setup_lines() + self._bot_lines(), steps, tables,
                      outcome)

    def _bot_lines(self) -> list[str]:
        return [f"seat {i + 1}: {label}" for i, label in enumerate(self.labels)]

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
            "rules": self.rules.describe(),
        }

    def setup_lines(self) -> list[str]:
        m = self.map
        tag = "ASSUMED reconstruction" if m.assumed else "user-supplied"
        deal = deal_line(self.rules, self.players)  # a changed hand_limit moves the box's deal: said
        return [f"map: {m.name} ({tag}; {self.map_detail()}, sha {m.digest()})", self.rules.line(),
                *([deal] if deal else [])]

    def new_summary(self) -> Summary:
        return Summary(self.players, self.labels, self.n_cells)

    # ------------------------------------------------------------------ tables

    def tables_of(self, chunk: Chunk) -> dict[str, pd.DataFrame]:
        import pandas as pd

        c = chunk.view()
        n, p = c.count, self.players
        ids = np.arange(c.first, c.first + n, dtype=np.int64)
        g = c.games
        games = SPECS["games"].frame({
            "game": ids,
            "players": np.full(n, p, np.int8),
            "turns": g[:, L.GM_TURNS],
            "winner_seat": (g[:, L.GM_WINNER] + 1),
            "capped": g[:, L.GM_CAPPED],
            "reshuffles": g[:, L.GM_RESHUFFLES],
            **flow_values(g[:, L.GM_LEAD_CHANGES], g[:, L.GM_DECIDED_AFTER], g[:, L.GM_COMEBACK]),
        })
        seat0 = np.tile(np.arange(p), n)
        pl = c.players.reshape(n * p, L.PL_LEN)
        players = SPECS["players"].frame({
            "game": np.repeat(ids, p),
            "seat": (seat0 + 1),
            "bot": self.seat_categorical(seat0),
            "won": pl[:, L.PL_WON],
            "finished": pl[:, L.PL_FINISHED],
            "refills": pl[:, L.PL_REFILLS],
            "moves": pl[:, L.PL_MOVES],
            "steps": pl[:, L.PL_STEPS],
            "pushes_made": pl[:, L.PL_PUSHES_MADE],
            "pushed": pl[:, L.PL_PUSHED],
            "new_columns": pl[:, L.PL_NEW_COLUMNS],
            "tiles_placed": pl[:, L.PL_TILES_PLACED],
            "hand_start": pl[:, L.PL_HAND_START],
            "pushed_distance": pl[:, L.PL_PUSHED_DIST],
        })
        return {"games": games, "players": players, "moves": self.moves_table(self.moves_of(chunk.seed, c.first, n),
                                                                             c.first)}

    def moves_table(self, mv: np.ndarray, first: int) -> pd.DataFrame:
        import pandas as pd

        return SPECS["moves"].frame({
            "game": mv[:, L.MV_GAME].astype(np.int64) + first,  # int32 relative to first; games go past 2^31
            "turn": mv[:, L.MV_TURN],
            "seat": (mv[:, L.MV_SEAT] + 1),
            "terrain": pd.Categorical.from_codes(mv[:, L.MV_TERRAIN], list(L.TERRAINS)),
            "value": mv[:, L.MV_VALUE],
            "column_sum_before": mv[:, L.MV_COLSUM],
            "new_column": mv[:, L.MV_NEW_COLUMN],
            "movement": mv[:, L.MV_MOVEMENT],
            "steps": mv[:, L.MV_STEPS],
            "pushes": mv[:, L.MV_PUSHES],
            "lemming": mv[:, L.MV_LEMMING],
            "distance_before": mv[:, L.MV_DIST_BEFORE],
            "distance_after": mv[:, L.MV_DIST_AFTER],
            "pushed_setback": mv[:, L.MV_SETBACK],
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
        return SPECS["hexes"].frame({
            "x": (cells % m.width),
            "y": (cells // m.width),
            "terrain": pd.Categorical.from_codes(terrain, list(L.TERRAIN_NAMES)),
            "entered": counts[cells, L.HX_ENTERED],
            "pushed_into": counts[cells, L.HX_PUSHED_INTO],
            "tiles_placed": counts[cells, L.HX_TILES],
        })


# ---------------------------------------------------------------------- replay words

def card_name(board, card: int) -> str:
    n = len(board.values)
    return f"{L.TERRAINS[card // n]} {board.values[card % n]}"


def hex_name(board, cell: int, tiles: dict[int, int] | None = None) -> str:
    """A hex by its coordinates and the terrain a lemming stands on there: the
    printed terrain, or the bonus tile on it ("forest tile on (4, 9) mountain")."""
    if cell == L.HOME:
        return "home"
    if cell < 0:
        return "the start area"
    x, y = cell % board.width, cell // board.width
    printed = f"({x}, {y}) {L.TERRAIN_NAMES[L.TERRAIN_OF_LETTER[board.letter(cell)]]}"
    kind = (tiles or {}).get(cell, -1)
    return f"{L.TILE_KINDS[kind]} tile on {printed}" if kind >= 0 else printed


def lemming_name(lemming: int) -> str:
    return f"lemming {lemming % L.LEMMINGS + 1} of seat {lemming // L.LEMMINGS + 1}"


def describe_events(events: np.ndarray, board, labels) -> list[ReplayStep]:
    """The trace's events (layout ``EV_*``) in the rulebook's words. A hex is
    named by the terrain on it now: a bonus tile laid on it shows as that tile
    on the printed terrain, from the event that places it on."""
    steps: list[ReplayStep] = []
    tiles: dict[int, int] = {}  # cell -> kind of the tile on it
    options: list[str] = []
    deals: dict[int, list[str]] = {}
    drawn: list[str] = []
    dropped: list[str] = []
    what_names = {L.DECIDE_ACTION: "which card to play (or refill)", L.DECIDE_DISCARD: "which cards to discard",
                  L.DECIDE_TILE: "where to place the tile", L.DECIDE_LEMMING: "which lemming to move",
                  L.DECIDE_STEP: "which step to take (or stop)"}
    for kind, seat, a, b, c, d in (tuple(int(v) for v in e) for e in events):
        who = seat + 1
        if kind == L.EV_DEAL:
            deals.setdefault(seat, []).append(card_name(board, a))
            continue
        if deals:
            for s, cards in deals.items():
                steps.append(ReplayStep("card", f"seat {s + 1} ({labels[s]}) is dealt {len(cards)}: {', '.join(cards)}",
                                        s + 1))
            deals = {}
        if kind == L.EV_TURN:
            steps.append(ReplayStep("turn", f"turn {a}: seat {who} ({labels[seat]})", who))
        elif kind == L.EV_RESHUFFLE:
            cut = [L.TERRAINS[t] for t in range(L.N_TERRAINS) if b >> t & 1]
            steps.append(ReplayStep("card", f"the draw pile is empty: the discards are shuffled into a new pile of "
                                            f"{a} cards" + (f" (double zero: the {', '.join(cut)} column gives up "
                                                            "all its cards but one 0)" if cut else "")))
        elif kind == L.EV_DISCARD:
            dropped.append(card_name(board, a))
        elif kind == L.EV_DRAW:
            drawn.append(card_name(board, a))
        elif kind == L.EV_REFILL:
            steps.append(ReplayStep("card", f"seat {who} refills: discards {', '.join(dropped) or 'nothing'}, "
                                            f"draws {', '.join(drawn) or 'nothing'}", who))
            dropped, drawn = [], []
        elif kind == L.EV_OPTION:
            if a == L.DECIDE_ACTION:
                options.append(card_name(board, b) + ("" if c else " (no step)"))
            elif a == L.DECIDE_STEP:  # c: its cost, d: the lemmings it pushes
                text = f"to {hex_name(board, b // 8, tiles)} ({L.DIRECTIONS[b % 8]})"
                options.append(text + (f", pushing {d}" if d else "") + (f", cost {c}" if c != d + 1 else ""))
            elif a == L.DECIDE_LEMMING:
                options.append(lemming_name(b))
            else:
                options.append(str(b))
        elif kind == L.EV_DECISION:
            if a in (L.DECIDE_TILE, L.DECIDE_DISCARD) or (a == L.DECIDE_ACTION and c < 0):
                options = []
                continue  # told by the tile and refill lines
            chosen = b if b >= 0 else -1
            answer = options[b] if 0 <= b < len(options) else ("refill" if a == L.DECIDE_ACTION else "stop")
            steps.append(ReplayStep("decision", f"seat {who} chooses {what_names[a]}: {answer}", who,
                                    tuple(options), chosen))
            options = []
        elif kind == L.EV_PLAY:
            name = card_name(board, a)
            terrain = name.split()[0]
            if c:
                text = (f"seat {who} plays {name}: above the active card, the {terrain} column (sum {b}) is "
                        f"discarded and the card starts a new column: movement {d}")
            else:
                text = f"seat {who} plays {name} on the {terrain} column (sum {b}): movement {d}"
            steps.append(ReplayStep("card", text, who))
        elif kind == L.EV_TILE:
            old = f" (the {L.TILE_KINDS[c]} tile there goes back)" if c >= 0 else ""
            where = hex_name(board, b)  # the printed terrain: the old tile is named after
            steps.append(ReplayStep("field", f"seat {who} places a {L.TILE_KINDS[a]} tile on {where}{old}", who))
            tiles[b] = a
        elif kind == L.EV_NO_TILE:
            steps.append(ReplayStep("field", f"no {L.TERRAINS[a]} or meadow tile left: no bonus tile", who))
        elif kind == L.EV_STEP:
            push = f", pushing {d} lemming{'s' if d > 1 else ''}" if d else ""
            steps.append(ReplayStep("move", f"{lemming_name(a)} steps from {hex_name(board, b, tiles)} to "
                                            f"{hex_name(board, c, tiles)}{push}", who))
        elif kind == L.EV_PUSHED:
            steps.append(ReplayStep("move", f"{lemming_name(a)} is pushed from {hex_name(board, b, tiles)} to "
                                            f"{hex_name(board, c, tiles)}", who))
        elif kind == L.EV_HOME:
            steps.append(ReplayStep("score", f"{lemming_name(a)} crosses the finish line", who))
        elif kind == L.EV_STOP:
            steps.append(ReplayStep("move", f"{lemming_name(a)} stops ({b} movement unused)", who))
        elif kind == L.EV_NO_LEMMING:
            steps.append(ReplayStep("move", f"seat {who}: no lemming can step", who))
        elif kind == L.EV_WIN:
            steps.append(ReplayStep("end", f"seat {who} ({labels[seat]}) has both lemmings home and wins", who))
        elif kind == L.EV_CAP:
            steps.append(ReplayStep("end", f"the game stops at the {a}-turn safety cap without a winner"))
    return steps
