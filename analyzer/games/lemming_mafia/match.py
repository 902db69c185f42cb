"""A Lemming Mafia match: board, deck and seated bots, ready to play chunks of
races, turn them into tables and summarise them. This is what the game-agnostic
engine drives (see ``analyzer/engine/simulate.py``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from analyzer.engine import userbots
from analyzer.engine.botspec import BotSpec
from analyzer.engine.match import PooledMatch
from analyzer.engine.records import flow_values
from analyzer.errors import AnalyzerError
from analyzer.games.lemming_mafia import random_race
from analyzer.games.lemming_mafia import layout as L
from analyzer.games.lemming_mafia.board import check_players, load_setup, pack_game
from analyzer.games.lemming_mafia.layout import LOOKAHEAD, RANDOM
from analyzer.games.lemming_mafia.records import TABLES as SPECS
from analyzer.games.lemming_mafia.registry import REGISTRY
from analyzer.games.lemming_mafia.summary import Summary

if TYPE_CHECKING:  # pandas loads when tables are built, not for a plain run
    import pandas as pd

TABLES = tuple(SPECS)
# every recorded number (turns, points, card and field indices) fits 16 bits; at
# hundreds of thousands of races a second, record bandwidth matters
RECORD = np.int16


@dataclass
class Chunk:
    """Records of races ``first .. first+count-1`` (rows beyond ``count`` unused)."""
    first: int
    count: int
    races: np.ndarray  # [n, RACE_LEN]
    players: np.ndarray  # [n, players, PL_LEN]
    contracts: np.ndarray  # [n, players, contracts dealt, CT_LEN]
    bets: np.ndarray  # [n, players, 6, BET_LEN]
    fields: np.ndarray  # [fields, FIELD_LEN], summed over the chunk
    # False: played for a summary's figures and outcomes only (match.play(detail=False)):
    # the races and players rows are written, the contracts, bets and field counts may not be
    detail: bool = True

    @classmethod
    def empty(cls, capacity: int, players: int, n_fields: int, contracts: int | None = None) -> "Chunk":
        """Room for ``capacity`` races of ``players`` dealt ``contracts`` contracts
        each (None: as many as the box deals)."""
        if contracts is None:
            from analyzer.games.lemming_mafia.ruleset import RULES

            contracts = RULES.box()["contracts_dealt"]
        return cls(0, 0,
                   np.zeros((capacity, L.RACE_LEN), RECORD),
                   np.zeros((capacity, players, L.PL_LEN), RECORD),
                   np.zeros((capacity, players, contracts, L.CT_LEN), RECORD),
                   np.zeros((capacity, players, L.N_LEMMINGS, L.BET_LEN), RECORD),
                   np.zeros((n_fields, L.FIELD_LEN), np.int64))

    @property
    def capacity(self) -> int:
        return self.races.shape[0]

    def view(self) -> "Chunk":
        n = self.count
        return Chunk(self.first, n, self.races[:n], self.players[:n], self.contracts[:n],
                     self.bets[:n], self.fields, self.detail)


class LemmingMafiaMatch(PooledMatch):
    game = "lemming-mafia"
    title = "Lemming Mafia"
    unit = "races"
    tables = TABLES
    errors = L.ERRORS
    # cold compile seconds by kernel (make bench --only compile, 28 Nov 2026): the first run's estimate
    compile_seconds = {
        "analyzer.games.lemming_mafia.table_race.play_races": 18,
        "analyzer.games.lemming_mafia.random_race.play_races": 10,
        "analyzer.games.lemming_mafia.kernel.play_races": 26,
        "analyzer.games.lemming_mafia.kernel.play_race": 26,
    }

    def __init__(self, board: str | None, players: int, bots: list[BotSpec], rules=None):
        if not L.VARIANT_MIN_PLAYERS <= players <= L.MAX_PLAYERS:
            raise AnalyzerError(
                f"--players must be {L.MIN_PLAYERS}-{L.MAX_PLAYERS} "
                f"({L.VARIANT_MIN_PLAYERS} as a variant), got {players}")
        self.board, self.deck = load_setup(board)
        check_players(self.deck, players, self.rules_for(rules))
        super().__init__(REGISTRY, players, bots, rules)
        kinds = [f.kind for f in self.families]
        self.game_array = pack_game(self.board, self.deck, kinds, self.rules)
        user = any(f.decide is not None for f in self.families)
        self._play_summaries = None  # a kernel writing only the races and players rows, if any
        if not user and all(kind == RANDOM for kind in kinds):
            self._play = random_race.play_races  # the same races, on the fast path
            self._play_summaries = random_race.play_race_summaries
            return
        if not user and all(kind < LOOKAHEAD for kind in kinds):
            # heuristic and random seats, asked directly: the same races
            from analyzer.games.lemming_mafia import table_race

            self._play = table_race.play_races
            self._play_summaries = table_race.play_race_summaries
            return
        # the general kernel, imported only for a table that needs it (a look-ahead
        # seat, a user bot: by its code's address, engine/bot_table.py): a
        # random or heuristic table starts without it
        from analyzer.games.lemming_mafia import kernel

        self._play = kernel.play_races

    @property
    def variant(self) -> str | None:
        if self.players < L.MIN_PLAYERS:
            return f"{self.players} players: a variant, the box is for {L.MIN_PLAYERS}-{L.MAX_PLAYERS}"
        return None

    # ------------------------------------------------------------------ playing

    def warm_up(self, detail: bool = True) -> None:
        """Compile (or load from cache) before timing or showing progress."""
        userbots.warm_up(self, detail)

    def kernels(self, detail: bool = True) -> tuple:
        return (self._play if detail or self._play_summaries is None else self._play_summaries,)

    def _bot_failed(self, status: int, first: int = 0) -> None:
        userbots.raise_fault(self, status, first)  # a user bot's failure, in one line naming its file
        super()._bot_failed(status, first)

    def _new_chunk(self, capacity: int) -> Chunk:
        return Chunk.empty(capacity, self.players, self.board.n_fields, self.rules["contracts_dealt"])

    def _play_into(self, chunk: Chunk, seed: int, first: int, count: int) -> int:
        return self._fill(self._play, True, chunk, seed, first, count)

    def _play_summary_into(self, chunk: Chunk, seed: int, first: int, count: int) -> int:
        """The races and players rows only (what ``Summary.add`` and ``outcomes``
        read): on the fast path, the contracts and bets rows are left as they were
        and the fields are not counted (``chunk.detail`` False)."""
        if self._play_summaries is None:
            return self._play_into(chunk, seed, first, count)
        return self._fill(self._play_summaries, False, chunk, seed, first, count)

    def _fill(self, play, detail: bool, chunk: Chunk, seed: int, first: int, count: int) -> int:
        """``chunk`` played by the kernel ``play``, marked as written with or without detail."""
        chunk.fields[:] = 0
        chunk.detail = detail
        return play(self.game_array, self.params, seed, first, count, chunk.races, chunk.players,
                    chunk.contracts, chunk.bets, chunk.fields)

    def outcomes(self, chunk: Chunk) -> tuple[np.ndarray, np.ndarray]:
        """Per race and seat: won (shared wins count) and score."""
        c = chunk.view()
        return c.players[:, :, L.PL_WON] > 0, c.players[:, :, L.PL_SCORE].astype(np.int64)

    # ------------------------------------------------------------------ describing

    def describe(self) -> dict:
        board, deck = self.board, self.deck
        return {
            "game": self.game,
            "title": self.title,
            "unit": self.unit,
            "players": self.players,
            "variant": self.variant,
            "board": {"name": self.board.name, "source": self.board.source,
                      "assumed": self.board.assumed, "sha256": self.board.digest(),
                      "sections": len(self.board.sections), "fields": self.board.n_fields},
            "deck": {"name": self.deck.name, "source": self.deck.source,
                     "assumed": self.deck.assumed, "sha256": self.deck.digest(),
                     "cards": len(self.deck.cards)},
            # what every report shows of the data files, whatever the game
            "data": [{"part": "board", "name": board.name, "source": board.source, "assumed": board.assumed,
                      "sha256": board.digest(),
                      "detail": f"{len(board.sections)} sections, {board.n_fields} fields"},
                     {"part": "deck", "name": deck.name, "source": deck.source, "assumed": deck.assumed,
                      "sha256": deck.digest(), "detail": f"{len(deck.cards)} contract cards"}],
            "bots": self.bots_described(),
            "rules": self.rules.describe(),
        }

    def setup_lines(self) -> list[str]:
        def what(part, name, assumed, extra):
            tag = "ASSUMED reconstruction" if assumed else "user-supplied"
            return f"{part}: {name} ({tag}; {extra})"
        lines = [what("board", self.board.name, self.board.assumed,
                      f"{len(self.board.sections)} sections, {self.board.n_fields} fields, sha {self.board.digest()}"),
                 what("deck", self.deck.name, self.deck.assumed,
                      f"{len(self.deck.cards)} contract cards, sha {self.deck.digest()}")]
        if self.variant:
            lines.append(f"variant: {self.variant}")
        return lines + [self.rules.line()]

    def replay(self, seed: int, index: int):
        """Race ``index`` of ``seed``, move by move (``analyzer replay``)."""
        from analyzer.games.lemming_mafia.replay import replay

        return replay(self, seed, index)

    def new_summary(self) -> Summary:
        return Summary(self.players, self.labels, len(self.board.sections))

    # ------------------------------------------------------------------ tables

    def tables_of(self, chunk: Chunk) -> dict[str, pd.DataFrame]:
        import pandas as pd

        if not chunk.detail:
            raise ValueError("a chunk played with detail=False has no tables")  # a bug of ours
        c = chunk.view()
        n, p = c.count, self.players
        race_ids = np.arange(c.first, c.first + n, dtype=np.int64)
        colors = list(L.COLORS)
        r = c.races
        races = {
            "race": race_ids,
            "winner": pd.Categorical.from_codes(r[:, L.RACE_WINNER], colors),
            "turns": r[:, L.RACE_TURNS],
            "eliminated": r[:, L.RACE_N_ELIM],
            "finish": pd.Categorical.from_codes(r[:, L.RACE_FINISH], list(L.FINISHES)),
            "winner_concrete": r[:, L.RACE_WINNER_BLOCKS],
            "winner_field": r[:, L.RACE_WINNER_FIELD],
            "tiebreak": r[:, L.RACE_TIEBREAK],
            "winners": r[:, L.RACE_N_WINNERS],
            **flow_values(r[:, L.RACE_LEAD_CHANGES], r[:, L.RACE_DECIDED_AFTER], r[:, L.RACE_COMEBACK]),
        }
        for i, color in enumerate(colors):
            races[f"place_{color}"] = r[:, L.RACE_PLACE + i]
        for i, color in enumerate(colors):
            races[f"concrete_{color}"] = r[:, L.RACE_BLOCKS + i]

        seat = np.tile(np.arange(1, p + 1, dtype=np.int8), n)
        race_of_seat = np.repeat(race_ids, p)
        pl = c.players.reshape(n * p, L.PL_LEN)
        players = SPECS["players"].frame({
            "race": race_of_seat,
            "seat": seat,
            "bot": self.seat_categorical(np.tile(np.arange(p), n)),
            "bet_points": pl[:, L.PL_BET_POINTS],
            "contract_points": pl[:, L.PL_CONTRACT_POINTS],
            "score": pl[:, L.PL_SCORE],
            "bets_placed": pl[:, L.PL_BETS_PLACED],
            "contracts_discarded": pl[:, L.PL_DISCARDED],
            "won": pl[:, L.PL_WON],
            "decisions": pl[:, L.PL_DECISIONS],
        })

        k = self.rules["contracts_dealt"]
        ct = c.contracts.reshape(n * p * k, L.CT_LEN)
        cards = ct[:, L.CT_CARD]
        deck = self.deck.array
        contracts = SPECS["contracts"].frame({
            "race": np.repeat(race_ids, p * k),
            "seat": np.repeat(seat, k),
            "kind": pd.Categorical.from_codes(deck[cards, L.DECK_KIND], list(L.CONTRACT_KINDS)),
            "colors": self._colors_categorical(cards),
            "points": deck[cards, L.DECK_POINTS],
            "discarded": ct[:, L.CT_DISCARDED],
            "fulfilled": ct[:, L.CT_FULFILLED],
            "payoff": ct[:, L.CT_PAYOFF],
            "discard_turn": ct[:, L.CT_DISCARD_TURN],
            "card": cards,
        })

        b = c.bets.reshape(n * p * L.N_LEMMINGS, L.BET_LEN)
        placed = b[:, L.BET_COLOR] >= 0
        order = np.tile(np.arange(1, L.N_LEMMINGS + 1, dtype=np.int8), n * p)
        race_turns = np.repeat(r[:, L.RACE_TURNS], p * L.N_LEMMINGS)
        bets = SPECS["bets"].frame({
            "race": np.repeat(race_ids, p * L.N_LEMMINGS)[placed],
            "seat": np.repeat(seat, L.N_LEMMINGS)[placed],
            "order": order[placed],
            "color": pd.Categorical.from_codes(b[placed, L.BET_COLOR], colors),
            "turn": b[placed, L.BET_TURN],
            "race_turns": race_turns[placed],
            "track_place": b[placed, L.BET_PLACE],
            "paid": b[placed, L.BET_PAID],
        })
        return {"races": SPECS["races"].frame(races), "players": players, "contracts": contracts, "bets": bets}

    def final_tables(self, summary: Summary) -> dict[str, pd.DataFrame]:
        """Tables written once at the end of a run: the field counts of all races."""
        return {"fields": self.fields_table(summary.fields)}

    def fields_table(self, counts: np.ndarray) -> pd.DataFrame:
        import pandas as pd

        board = self.board
        return SPECS["fields"].frame({
            "field": np.arange(board.n_fields, dtype=np.int16),
            "section": board.field_section,
            "action": pd.Categorical.from_codes(board.field_action, list(L.ACTIONS)),
            "landings": counts[:, L.FIELD_LANDINGS],
            "triggers": counts[:, L.FIELD_TRIGGERS],
        })

    def _colors_categorical(self, cards: np.ndarray) -> pd.Categorical:
        """The colours a contract names ("green,red", "" for none) per row."""
        import pandas as pd

        names = [",".join(colors) for _, colors, _ in self.deck.cards]
        categories = list(dict.fromkeys(names))
        codes = np.array([categories.index(name) for name in names])
        return pd.Categorical.from_codes(codes[cards], categories)
