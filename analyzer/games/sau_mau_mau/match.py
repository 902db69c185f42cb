"""A Sau Mau Mau match: the track, the rules and seated bots, ready to play
chunks of games, turn them into tables and summarise them. The game-agnostic
engine drives it like any match (see ``analyzer/engine/match.py``); its unit is
the game, the rules' races (four in the box) with the first player passing left."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from analyzer.engine import userbots
from analyzer.engine.botspec import BotSpec
from analyzer.engine.match import PooledMatch
from analyzer.engine.records import flow_values
from analyzer.errors import AnalyzerError
from analyzer.games.sau_mau_mau import kernel
from analyzer.games.sau_mau_mau import layout as L
from analyzer.games.sau_mau_mau.board import load_track
from analyzer.games.sau_mau_mau.records import TABLES as SPECS
from analyzer.games.sau_mau_mau.registry import REGISTRY
from analyzer.games.sau_mau_mau.summary import Summary

if TYPE_CHECKING:  # pandas loads when tables are built, not for a plain run
    import pandas as pd

TABLES = tuple(SPECS)


@dataclass
class Chunk:
    """Records of games ``first .. first+count-1`` (rows beyond ``count`` unused)."""
    first: int
    count: int
    races: np.ndarray  # [n, MAX_RACES, RACE_LEN] (a game's first races_per_game rows played)
    players: np.ndarray  # [n, MAX_RACES, players, PL_LEN]
    bets: np.ndarray  # [n, MAX_RACES, players, BET_LEN]
    games: np.ndarray  # [n, players, GM_LEN]
    events: np.ndarray  # [n, MAX_RACES, EVENTS_CAP, BE_LEN]: bet cards laid, in order
    races_per_game: int = L.MAX_RACES  # the rows of a game's races that are played

    @property
    def capacity(self) -> int:
        return self.races.shape[0]

    def view(self) -> "Chunk":
        """The ``count`` games played, cut to the races they played."""
        n, r = self.count, self.races_per_game
        return Chunk(self.first, n, self.races[:n, :r], self.players[:n, :r], self.bets[:n, :r],
                     self.games[:n], self.events[:n, :r], r)


def _winning_pigs_names() -> list[str]:
    """Category names of every non-empty set of winning pigs, by bit mask (index = mask)."""
    return ["" if mask == 0 else ",".join(p for i, p in enumerate(L.PIGS) if mask >> i & 1)
            for mask in range(1 << L.N_PIGS)]


WINNING_PIGS = _winning_pigs_names()


def check_rules(rules, players: int) -> None:
    """The ranges of the rules that depend on the player count (the rule set
    checks the others): every hand dealt and one card turned up from the 39."""
    most = L.max_hand_size(players)
    if rules["hand_size"] > most:
        raise AnalyzerError(f"rule hand_size {rules['hand_size']} is too many for {players} players: "
                            f"1 to {most} (every hand dealt and one card turned up from the {L.N_CARDS})")


class SauMauMauMatch(PooledMatch):
    game = "sau-mau-mau"
    title = "Sau Mau Mau"
    unit = "games"
    tables = TABLES
    errors = L.ERRORS
    # cold compile seconds by kernel (make bench --only compile, 28 Nov 2026): the first run's estimate
    compile_seconds = {"analyzer.games.sau_mau_mau.kernel.play_games": 16}

    def __init__(self, board: str | None, players: int, bots: list[BotSpec], rules=None):
        if not L.MIN_PLAYERS <= players <= L.MAX_PLAYERS:
            raise AnalyzerError(f"--players must be {L.MIN_PLAYERS}-{L.MAX_PLAYERS} for Sau Mau Mau, got {players}")
        self.track = load_track(board)
        self.crown = self.track.crown_for(players)
        check_rules(self.rules_for(rules), players)  # before the bots load
        super().__init__(REGISTRY, players, bots, rules)
        self.races_per_game = int(self.rules["races_per_game"])
        self.game_array = kernel.pack_game(self.crown, [f.kind for f in self.families], rules=self.rules)
        self._play = kernel.play_games  # user bots too: by their code's address (engine/bot_table.py)

    variant = None

    # ------------------------------------------------------------------ playing

    def warm_up(self, detail: bool = True) -> None:
        """Compile (or load from cache) before timing or showing progress."""
        userbots.warm_up(self, detail)

    def _bot_failed(self, status: int, first: int = 0) -> None:
        userbots.raise_fault(self, status, first)  # a user bot's failure, in one line naming its file
        super()._bot_failed(status, first)

    def _new_chunk(self, capacity: int) -> Chunk:
        return Chunk(0, 0, *kernel.new_records(capacity, self.players), self.races_per_game)

    def _play_into(self, chunk: Chunk, seed: int, first: int, count: int) -> int:
        return self._play(self.game_array, self.params, seed, first, count,
                          chunk.races, chunk.players, chunk.bets, chunk.games, chunk.events)

    def outcomes(self, chunk: Chunk) -> tuple[np.ndarray, np.ndarray]:
        """Per game and seat: won (shared wins count) and total points."""
        c = chunk.view()
        return c.games[:, :, L.GM_WON] > 0, c.games[:, :, L.GM_TOTAL].astype(np.int64)

    # ------------------------------------------------------------------ describing

    def describe(self) -> dict:
        t = self.track
        return {
            "game": self.game,
            "title": self.title,
            "unit": self.unit,
            "players": self.players,
            "variant": None,
            "track": {"name": t.name, "source": t.source, "assumed": t.assumed, "sha256": t.digest(),
                      "crown": self.crown},
            "data": [{"part": "track", "name": t.name, "source": t.source, "assumed": t.assumed,
                      "sha256": t.digest(), "detail": f"crown on space {self.crown} for {self.players} players"}],
            "bots": self.bots_described(),
            "rules": self.rules.describe(),
        }

    def setup_lines(self) -> list[str]:
        t = self.track
        tag = "ASSUMED reconstruction" if t.assumed else "user-supplied"
        return [f"track: {t.name} ({tag}; crown on space {self.crown} for {self.players} players, "
                f"sha {t.digest()})", self.rules.line()]

    def replay(self, seed: int, index: int):
        """Game ``index`` of ``seed``, turn by turn (``analyzer replay``)."""
        from analyzer.games.sau_mau_mau.replay import replay

        return replay(self, seed, index)

    def new_summary(self) -> Summary:
        return Summary(self.players, self.labels, self.races_per_game)

    # ------------------------------------------------------------------ tables

    def tables_of(self, chunk: Chunk) -> dict[str, pd.DataFrame]:
        import pandas as pd

        c = chunk.view()
        n, p, R = c.count, self.players, self.races_per_game
        game_ids = np.arange(c.first, c.first + n, dtype=np.int64)
        race_no = np.tile(np.arange(1, R + 1, dtype=np.int8), n)
        r = c.races.reshape(n * R, L.RACE_LEN)
        pigs = list(L.PIGS)
        crown_pig = r[:, L.RACE_CROWN_PIG]
        races = {
            "game": np.repeat(game_ids, R),
            "race": race_no,
            "players": np.full(n * R, p, np.int8),
            "first_seat": (r[:, L.RACE_FIRST_SEAT] + 1),
            "turns": r[:, L.RACE_TURNS],
            "end": pd.Categorical.from_codes(r[:, L.RACE_END], list(L.ENDS)),
            "both_ends": r[:, L.RACE_BOTH],
            "winning_pigs": pd.Categorical.from_codes(r[:, L.RACE_WINNING], WINNING_PIGS),
            "queue_length": r[:, L.RACE_QUEUE_LEN],
            "ender_seat": (r[:, L.RACE_ENDER] + 1),
            "crown_pig": pd.Categorical.from_codes(crown_pig + 1, [""] + pigs),
            "reshuffles": r[:, L.RACE_RESHUFFLES],
            **flow_values(r[:, L.RACE_LEAD_CHANGES], r[:, L.RACE_DECIDED_AFTER], r[:, L.RACE_COMEBACK]),
        }
        for i, pig in enumerate(pigs):
            races[f"pos_{pig}"] = r[:, L.RACE_POS + i]
        races = SPECS["races"].frame(races)

        seat0 = np.tile(np.arange(p), n * R)
        pl = c.players.reshape(n * R * p, L.PL_LEN)
        first_seat = np.repeat(r[:, L.RACE_FIRST_SEAT], p)
        players = SPECS["players"].frame({
            "game": np.repeat(game_ids, R * p),
            "race": np.repeat(race_no, p),
            "seat": (seat0 + 1),
            "bot": self.seat_categorical(seat0),
            "race_points": pl[:, L.PL_RACE_POINTS],
            "bet_points": pl[:, L.PL_BET_POINTS],
            "crown_points": pl[:, L.PL_CROWN_POINTS],
            "hand_points": pl[:, L.PL_HAND_POINTS],
            "bets_placed": pl[:, L.PL_BETS_PLACED],
            "bets_changed": pl[:, L.PL_BETS_CHANGED],
            "cards_left": pl[:, L.PL_CARDS_LEFT],
            "cards_drawn": pl[:, L.PL_CARDS_DRAWN],
            "cards_played": pl[:, L.PL_CARDS_PLAYED],
            "decisions": pl[:, L.PL_DECISIONS],
            "first": seat0 == first_seat,
        })

        gseat0 = np.tile(np.arange(p), n)
        gm = c.games.reshape(n * p, L.GM_LEN)
        games = SPECS["games"].frame({
            "game": np.repeat(game_ids, p),
            "seat": (gseat0 + 1),
            "bot": self.seat_categorical(gseat0),
            "total": gm[:, L.GM_TOTAL],
            "won": gm[:, L.GM_WON],
        })

        b = c.bets.reshape(n * R * p, L.BET_LEN)
        placed = b[:, L.BET_PIG] >= 0
        mask = np.repeat(r[:, L.RACE_WINNING], p)[placed]
        pig = b[placed, L.BET_PIG]
        bets = SPECS["bets"].frame({
            "game": np.repeat(game_ids, R * p)[placed],
            "race": np.repeat(race_no, p)[placed],
            "seat": (seat0 + 1)[placed],
            "bot": self.seat_categorical(seat0[placed]),
            "pig": pd.Categorical.from_codes(pig, pigs),
            "queue_position": b[placed, L.BET_QUEUE_POS],
            "turn_placed": b[placed, L.BET_TURN],
            "race_turns": np.repeat(r[:, L.RACE_TURNS], p)[placed],
            "changed": b[placed, L.BET_CHANGED],
            "points": b[placed, L.BET_POINTS],
            "won": (mask >> pig & 1),
        })
        return {"races": races, "players": players, "games": games, "bets": bets,
                "bet_events": self._bet_events(c, game_ids, r, b)}

    def _bet_events(self, c: Chunk, game_ids: np.ndarray, r: np.ndarray, b: np.ndarray) -> pd.DataFrame:
        """Every bet card laid (the first EVENTS_CAP of a race), with what became of it."""
        import pandas as pd

        n, p, R, cap = c.count, self.players, self.races_per_game, L.EVENTS_CAP
        laid = np.minimum(r[:, L.RACE_BET_EVENTS], cap)
        kept = np.arange(cap)[None, :] < laid[:, None]  # [n * R, cap]
        ev = c.events.reshape(n * R, cap, L.BE_LEN)[kept].astype(np.int64)
        race_of = np.repeat(np.arange(n * R), laid)  # row of r each event belongs to
        seat0 = ev[:, L.BE_SEAT]
        pig = ev[:, L.BE_PIG]
        before = ev[:, L.BE_FROM]
        winning = r[race_of, L.RACE_WINNING]
        stays = ev[:, L.BE_TURN_AWAY] == 0
        final = b.reshape(n * R, p, L.BET_LEN)[race_of, seat0]  # the seat's bet in the final queue
        return SPECS["bet_events"].frame({
            "game": np.repeat(game_ids, R)[race_of],
            "race": np.tile(np.arange(1, R + 1, dtype=np.int8), n)[race_of],
            "seat": seat0 + 1,
            "bot": self.seat_categorical(seat0),
            "event": np.arange(len(ev)) - np.repeat(np.cumsum(laid) - laid, laid) + 1,
            "pig": pd.Categorical.from_codes(pig, list(L.PIGS)),
            "turn_placed": ev[:, L.BE_TURN],
            "race_turns": r[race_of, L.RACE_TURNS],
            "queue_position_placed": ev[:, L.BE_PLACE],
            "change": ev[:, L.BE_CHANGE],
            "changed_from": pd.Categorical.from_codes(before + 1, [""] + list(L.PIGS)),
            "changed_from_won": (before >= 0) & (winning >> np.maximum(before, 0) & 1 > 0),
            "turn_changed_away": ev[:, L.BE_TURN_AWAY],
            "in_final_queue": stays,
            "queue_position": np.where(stays, final[:, L.BET_QUEUE_POS], 0),
            "points": np.where(stays, final[:, L.BET_POINTS], 0),
            "won": winning >> pig & 1,
        })
