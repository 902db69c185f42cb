"""A Mafia match: the map and seated bots, ready to play chunks of games, turn
them into tables and summarise them. Seats are in the order of their first turn
in the calendar (5 players: red, black, State, orange, green; 4: red, black,
orange, green; 3: red+orange, black+green, State) and each has a role
(``roles``): ``state`` or ``family``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from analyzer.engine import userbots
from analyzer.engine.botspec import BotSpec
from analyzer.engine.fault_status import decode_fault
from analyzer.engine.match import PooledMatch
from analyzer.engine.records import flow_values
from analyzer.errors import AnalyzerError
from analyzer.games.mafia import kernel
from analyzer.games.mafia import layout as L
from analyzer.games.mafia.board import load_map, pack_game
from analyzer.games.mafia.records import TABLES as SPECS
from analyzer.games.mafia.registry import REGISTRY, playout_bot
from analyzer.games.mafia.summary import Summary

if TYPE_CHECKING:  # pandas loads when tables are built, not for a plain run
    import pandas as pd

TABLES = tuple(SPECS)


@dataclass
class Chunk:
    """Records of games ``first .. first+count-1`` (rows beyond ``count`` unused)."""
    first: int
    count: int
    games: np.ndarray  # [n, GM_LEN]
    sides: np.ndarray  # [n, N_SIDES, SD_LEN]
    cards: np.ndarray  # [rows, CR_LEN]: one row per card played (the first games[:, GM_CARD_ROWS].sum())
    spaces: np.ndarray  # [n_spaces, SP_LEN], summed over the chunk

    @property
    def capacity(self) -> int:
        return self.games.shape[0]

    def view(self) -> "Chunk":
        n = self.count
        rows = int(self.games[:n, L.GM_CARD_ROWS].sum())
        return Chunk(self.first, n, self.games[:n], self.sides[:n], self.cards[:rows], self.spaces)


class MafiaMatch(PooledMatch):
    game = "mafia"
    title = "Mafia"
    unit = "games"
    tables = TABLES
    errors = L.ERRORS
    # cold compile seconds by kernel (make bench --only compile, 28 Nov 2026): the first run's estimate
    compile_seconds = {"analyzer.games.mafia.kernel.play_games": 17}
    variant = None

    def __init__(self, board: str | None, players: int, bots: list[BotSpec], check: bool = False,
                 rules=None):
        if not L.MIN_PLAYERS <= players <= L.MAX_PLAYERS:
            raise AnalyzerError(f"--players must be {L.MIN_PLAYERS}-{L.MAX_PLAYERS} for Mafia, got {players}")
        self.map = load_map(board)
        super().__init__(REGISTRY, players, bots, rules)
        self.seat_sides = L.seat_sides(players)
        kinds = [0] * L.N_SIDES
        side_params = np.zeros((L.N_SIDES, L.PARAMS_WIDTH))
        playout = (np.zeros(L.N_SIDES, np.int64), np.zeros((L.N_SIDES, L.MODEL_WIDTH)))
        self.side_seat = [-1] * L.N_SIDES
        roles = L.seat_roles(players)
        for seat, sides in enumerate(self.seat_sides):
            family = self.families[seat]
            row = self.params[seat, :L.PARAMS_WIDTH].copy()
            kind, model = playout_bot(family, row, roles[seat])
            if family.kind == L.LOOKAHEAD:  # its model's parameters, then the search's
                row[:L.MODEL_WIDTH] = model
                row[L.P_POLICY] = kind
                if roles[seat] == L.ROLE_FAMILY and row[L.P_BASE] != L.BASE_MODEL:  # the model's base rule
                    row[L.P_ENNA] = 1.0 if row[L.P_BASE] == L.BASE_ENNA else 0.0
            for side in sides:
                kinds[side] = family.kind
                side_params[side] = row
                playout[0][side], playout[1][side] = kind, model
                self.side_seat[side] = seat
        self.sides_in_game = [side for side in range(L.N_SIDES) if self.side_seat[side] >= 0]
        self.game_array = pack_game(self.map, players, kinds, check=check, side_params=side_params,
                                    playout=playout, rules=self.rules)
        self.path_table = self.map.path_table()
        self._play = kernel.play_games  # user bots too: by their code's address (engine/bot_table.py)

    @classmethod
    def seat_roles(cls, players: int) -> list[str]:
        """The role of each seat (for the engine's role-aware seating, once it lands)."""
        return L.seat_roles(players)

    # ------------------------------------------------------------------ playing

    def warm_up(self, detail: bool = True) -> None:
        """Compile (or load from cache) before timing or showing progress."""
        userbots.warm_up(self, detail)

    def _bot_failed(self, status: int, first: int = 0) -> None:
        """The kernel names the side that failed; the engine's messages name the seat."""
        mask = (1 << 32) - 1
        # the kernel's order (layout.py): the index high (its low 32 bits: it wraps past 2^31), the code low
        code, index_bits = int(status) & mask, (int(status) >> 32) & mask
        error, side = divmod(code, 8)
        seat = max(self.side_seat[side] if side < L.N_SIDES else 0, 0)
        index = decode_fault(index_bits, first)[1]  # the whole index: its low bits in the chunk from first
        status = ((error * 8 + seat) << 32) + index  # the engine's order: code high, index low
        userbots.raise_fault(self, status, first)  # a user bot's failure, in one line naming its file
        super()._bot_failed(status, first)

    def _new_chunk(self, capacity: int) -> Chunk:
        return Chunk(0, 0, np.zeros((capacity, L.GM_LEN), np.int64),
                     np.zeros((capacity, L.N_SIDES, L.SD_LEN), np.int64),
                     np.zeros((capacity * L.CARD_ROWS_PER_GAME + 64, L.CR_LEN), np.int64),
                     np.zeros((self.map.n_spaces, L.SP_LEN), np.int64))

    def _play_into(self, chunk: Chunk, seed: int, first: int, count: int) -> int:
        while True:
            chunk.spaces[:] = 0
            status = self._play(self.game_array, self.path_table, seed, first, count,
                                       chunk.games, chunk.sides, chunk.cards, chunk.spaces)
            if (status & 0xFFFFFFFF) >> 3 != L.ERROR_CARD_ROWS:
                return status
            chunk.cards = np.zeros((2 * chunk.cards.shape[0], L.CR_LEN), np.int64)  # play it again

    def outcomes(self, chunk: Chunk) -> tuple[np.ndarray, np.ndarray]:
        """Per game and seat: won, and the seat's score: spaces its families control
        at the end (families), purge points doubled (the State)."""
        c = chunk.view()
        won = np.zeros((c.count, self.players), bool)
        score = np.zeros((c.count, self.players), np.int64)
        for seat, sides in enumerate(self.seat_sides):
            for side in sides:
                won[:, seat] |= c.sides[:, side, L.SD_WON] > 0
                if side == L.STATE:
                    score[:, seat] += c.games[:, L.GM_PURGE_HALVES]
                else:
                    score[:, seat] += c.sides[:, side, L.SD_SPACES_END]
        return won, score

    # ------------------------------------------------------------------ describing

    def describe(self) -> dict:
        m = self.map
        return {
            "game": self.game,
            "title": self.title,
            "unit": self.unit,
            "players": self.players,
            "variant": None,
            "roles": self.roles,
            "map": {"name": m.name, "source": m.source, "assumed": m.assumed, "sha256": m.digest(),
                    "spaces": m.n_spaces, "ring": list(m.ring), "bar": list(m.bar)},
            "data": [{"part": "map", "name": m.name, "source": m.source, "assumed": m.assumed,
                      "sha256": m.digest(), "detail": m.detail()},
                     {"part": "tables", "name": "returns table (RENTRÉES) and card windows",
                      "source": m.source, "assumed": m.assumed, "sha256": m.digest(),
                      "detail": "returns " + ", ".join(
                          f"{box} {'-'.join(map(str, (f[0], f[-1]))) if len(f) > 1 else f[0]}"
                          for box, f in zip(("Continent", "Prison", "Barracks"), m.returns))}],
            "bots": self.bots_described(),
            "rules": self.rules.describe(),
        }

    def setup_lines(self) -> list[str]:
        m = self.map
        tag = "ASSUMED reconstruction" if m.assumed else "user-supplied"
        return [f"map: {m.name} ({tag}; {m.detail()}, sha {m.digest()})",
                f"tables: returns (RENTRÉES) and encounters as the rules page reads them "
                f"({'ASSUMED' if m.assumed else 'from the map file'}; the published tables are not public)",
                self.rules.line()]

    def new_summary(self) -> Summary:
        return Summary(self.players, self.labels, self.roles, self.seat_sides, self.map)

    # ------------------------------------------------------------------ tables

    def space_categorical(self, ids: np.ndarray) -> pd.Categorical:
        import pandas as pd

        return pd.Categorical.from_codes(ids, [s.name for s in self.map.spaces])

    def tables_of(self, chunk: Chunk) -> dict[str, pd.DataFrame]:
        import pandas as pd

        c = chunk.view()
        n = c.count
        g = c.games
        game_ids = np.arange(c.first, c.first + n, dtype=np.int64)
        won = g[:, L.GM_OUTCOME] - L.OUT_RED
        family_won = (won >= 0) & (won < L.N_FAMILIES)
        games = {
            "game": game_ids,
            "players": np.full(n, self.players, np.int8),
            "calendar_turns": g[:, L.GM_CALENDAR_TURNS],
            "side_turns": g[:, L.GM_SIDE_TURNS],
            "outcome": pd.Categorical.from_codes(g[:, L.GM_OUTCOME], list(L.OUTCOMES)),
            "purge_points": g[:, L.GM_PURGE_HALVES] / 2.0,
            "markers_on_map": g[:, L.GM_MARKERS_ON_MAP],
            "winner_spaces": pd.array(np.where(family_won, g[:, L.GM_WINNER_SPACES], 0), dtype="Int64"),
        }
        games["winner_spaces"][~family_won] = pd.NA
        games.update(flow_values(g[:, L.GM_LEAD_CHANGES], g[:, L.GM_DECIDED_AFTER], g[:, L.GM_COMEBACK]))
        for name in ("shootouts", "arrests", "holds", "holds_roadblock", "eliminations", "commission_freezes",
                     "restaurant_explosions", "air_moves", "drawn_usa", "drawn_rome", "drawn_sisde",
                     "played_usa", "played_rome", "played_sisde", "given_up", "markers_placed",
                     "markers_removed", "side_turns_frozen"):
            games[name] = g[:, L.GM_COLUMNS.index(name)]
        games = SPECS["games"].frame(games)

        sides_in = np.array(self.sides_in_game)
        k = len(sides_in)
        sd = c.sides[:, sides_in, :].reshape(n * k, L.SD_LEN)
        side_col = np.tile(sides_in, n)
        seat0 = np.array(self.side_seat)[side_col]
        base = sd[:, L.SD_BASE]
        roles = np.array([self.roles[s] for s in seat0])
        sides = SPECS["sides"].frame({
            "game": np.repeat(game_ids, k),
            "side": pd.Categorical.from_codes(side_col, list(L.SIDE_NAMES)),
            "seat": (seat0 + 1),
            "bot": self.seat_categorical(seat0),
            "role": pd.Categorical(roles, categories=[L.ROLE_STATE, L.ROLE_FAMILY]),
            "base": pd.Categorical.from_codes(np.where(side_col == L.STATE, -1, base),
                                              [s.name for s in self.map.spaces]),
            "won": sd[:, L.SD_WON],
            "side_turns": sd[:, L.SD_SIDE_TURNS],
            "markers_end": sd[:, L.SD_MARKERS_END],
            "spaces_end": sd[:, L.SD_SPACES_END],
            "pieces_lost": sd[:, L.SD_PIECES_LOST],
            "cards_drawn": sd[:, L.SD_CARDS_DRAWN],
            "cards_played": sd[:, L.SD_CARDS_PLAYED],
        })
        cr = c.cards
        decks = np.where(cr[:, L.CR_CARD] >= L.PLAY_SISDE_PAIR, L.SISDE_DECK, cr[:, L.CR_CARD] // L.DECK_SIZE)
        card_codes = np.array([L.CARD_CATEGORIES.index(name) if name else -1 for name in L.PLAYED_NAMES])
        cards = SPECS["cards"].frame({
            "game": c.first + cr[:, L.CR_GAME],
            "calendar_turn": (cr[:, L.CR_PASS] + 1),
            "side": pd.Categorical.from_codes(cr[:, L.CR_SIDE], list(L.SIDE_NAMES)),
            "deck": pd.Categorical.from_codes(decks, list(L.DECKS)),
            "card": pd.Categorical.from_codes(card_codes[cr[:, L.CR_CARD]], list(L.CARD_CATEGORIES)),
        })
        return {"games": games, "sides": sides, "cards": cards}

    def chunk_extras(self, chunk: Chunk) -> dict[str, pd.DataFrame]:
        """The chunk's space counts, for the report's statistics (written once, summed)."""
        return {"spaces": self.spaces_table(chunk.spaces)}

    def final_tables(self, summary: Summary) -> dict[str, pd.DataFrame]:
        """The spaces table, summed over the whole run."""
        return {"spaces": self.spaces_table(summary.spaces)}

    def spaces_table(self, counts: np.ndarray) -> pd.DataFrame:
        import pandas as pd

        m = self.map
        columns = {
            "space": np.arange(m.n_spaces),
            "name": [s.name for s in m.spaces],
            "type": pd.Categorical.from_codes([s.type for s in m.spaces], list(L.SPACE_TYPES)),
        }
        for i, name in enumerate(L.SP_COLUMNS):
            columns[name] = counts[:, i]
        return SPECS["spaces"].frame(columns)

    # ------------------------------------------------------------------ replay

    def replay(self, seed: int, index: int):
        """Game ``index`` of a run with ``seed`` (the same streams), step by step in the
        rulebook's words, ending with its table rows."""
        from analyzer.games.protocol import Replay

        from analyzer.games.mafia.replay import describe_events

        events, chunk = self.trace(seed, index)
        steps, outcome = describe_events(self, events)
        return Replay(self.game, self.unit, index, seed, self.setup_lines(), steps, self.tables_of(chunk),
                      outcome)

    def trace(self, seed: int, index: int) -> tuple[np.ndarray, Chunk]:
        """Game ``index`` of a run with ``seed``: its trace events [n, 4] (``T_*``: code,
        a, b, c) and its records. A game whose events fill the buffer (a long variant:
        the safety cap allows 1,000 calendar turns) is played again with a larger one."""
        capacity = TRACE_EVENTS
        while True:
            tr = np.zeros(1 + 4 * capacity, np.int64)
            games = np.zeros((1, L.GM_LEN), np.int64)
            sides = np.zeros((1, L.N_SIDES, L.SD_LEN), np.int64)
            cards = np.zeros((4096, L.CR_LEN), np.int64)
            spaces = np.zeros((self.map.n_spaces, L.SP_LEN), np.int64)
            status = kernel.replay_game(self.game_array, self.path_table, seed, index, games, sides, cards, spaces,
                                        tr)
            if int(tr[0]) < capacity:  # every event kept
                break
            capacity *= 2
        if status != 0:
            self._bot_failed(status + (index << 32), index)
        events = tr[1:1 + 4 * int(tr[0])].reshape(-1, 4)
        return events, Chunk(index, 1, games, sides, cards, spaces)


TRACE_EVENTS = 200_000
