"""Balance statistics of Mafia runs, aggregated chunk by chunk.

``MafiaStats.add(tables)`` takes one chunk's tables (any subset of games / sides /
cards / spaces, as ``MafiaMatch.tables_of`` builds them or read from a run's
Parquet files), ``merge(other)`` adds another accumulator, ``result()`` returns the
report tables (``TABLE_DOCS``). Counts are kept per player count, so runs at 3, 4
and 5 players merge into one report. Memory: counts, plus one byte per game (its
outcome, to tell whether the side that played a card won) and the card plays.

Notes on definitions:
- Outcome shares are per game; a family's win rate is per game it played.
- First mover: the families' win rates in calendar order (red moves first).
- Card value: among the games a side played, its win rate in the games where it
  played the card against those where it did not. Observational: a side plays a
  card when its window opens, which depends on how the game goes (it is not an
  intervention with common random numbers).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from analyzer.games.mafia import layout as L
from analyzer.stats.flow import FLOW_COLUMNS, FlowStats
from analyzer.stats.intervals import wilson

COLUMNS = {
    "games": ["game", "players", "calendar_turns", "outcome", "shootouts", "arrests", "holds", "eliminations",
              "markers_placed", "markers_removed", "side_turns", *FLOW_COLUMNS],
    "sides": ["game", "side", "role", "bot", "base", "won"],
    "cards": ["game", "side", "card"],
    "spaces": ["space", "name", "type", "landings", "triggers", "markers_placed", "markers_removed", "arrests",
               "holds", "eliminations"],
}
ID_COLUMNS = ["game"]
MAX_LENGTH = 64  # calendar turns histogram: longer games share the last bin
TABLE_DOCS = {
    "outcomes": "games ending each way, by player count, with 95% Wilson intervals",
    "roles": "win rate of each side by player count, role and bot, with 95% intervals",
    "bases": "base city chosen by each family and its win rate, by player count",
    "cards": "card plays and the playing side's win rate in games with and without playing it "
             "(observational), by player count",
    "spaces": "per space of the map, summed over the run: landings, triggers, markers placed and "
              "removed, arrests, holds, eliminations",
    "length": "games by length in calendar turns (passes of the six-slot calendar), by player count",
    "overview": "the run in a few numbers",
    "flow": "game flow: lead changes per game, share of the side turns played before the winner led "
            "for good, comebacks (the winner not leading at the half), no single winner (all lose, draws), "
            "length in side turns; the standing is defined in docs/mafia.md",
}


def expected_rows(manifest: dict) -> tuple[str, int]:
    return "games", int(manifest.get("games", 0))


def _codes(series: pd.Series, names) -> np.ndarray:
    """Category codes of a column (categorical or strings) in the order of ``names``."""
    index = {n: i for i, n in enumerate(names)}
    return np.array([index.get(str(v), -1) for v in series.astype(str)], np.int64)


class MafiaStats:
    def __init__(self):
        self.outcomes: dict[int, np.ndarray] = {}  # players -> counts per outcome
        self.length: dict[int, np.ndarray] = {}  # players -> histogram of calendar turns
        self.sums: dict[int, np.ndarray] = {}  # players -> [games, shootouts, arrests, holds, ...]
        self.roles: dict[tuple, list[int]] = {}  # (players, side, role, bot) -> [n, wins]
        self.bases: dict[tuple, list[int]] = {}  # (players, side, base) -> [n, wins]
        self.game_outcome = np.full(0, -1, np.int8)  # per game index
        self.game_players = np.zeros(0, np.int8)
        self.card_rows: list[np.ndarray] = []  # (game, side, card code)
        self.spaces: pd.DataFrame | None = None
        self.flow = FlowStats()  # lead changes, decisiveness, comebacks (a run has one player count)

    # ------------------------------------------------------------------ adding
    def _grow(self, top: int) -> None:
        if top >= len(self.game_outcome):
            size = max(top + 1, 2 * len(self.game_outcome))
            self.game_outcome = np.concatenate([self.game_outcome,
                                                np.full(size - len(self.game_outcome), -1, np.int8)])
            self.game_players = np.concatenate([self.game_players,
                                                np.zeros(size - len(self.game_players), np.int8)])

    def add(self, tables: dict) -> None:
        for name, df in tables.items():
            if name not in COLUMNS or df is None:
                continue
            missing = [c for c in COLUMNS[name] if c not in df.columns]
            if missing:
                raise ValueError(f"table {name} lacks column(s) {', '.join(missing)}")
            getattr(self, f"_add_{name}")(df)

    def _add_games(self, df: pd.DataFrame) -> None:
        if not len(df):
            return
        game = df["game"].to_numpy(np.int64)
        players = df["players"].to_numpy(np.int64)
        outcome = _codes(df["outcome"], L.OUTCOMES)
        self.flow.add(df, "side_turns")
        self._grow(int(game.max()))
        self.game_outcome[game] = outcome
        self.game_players[game] = players
        turns = np.minimum(df["calendar_turns"].to_numpy(np.int64), MAX_LENGTH)
        keys = ("shootouts", "arrests", "holds", "eliminations", "markers_placed", "markers_removed")
        for n in np.unique(players):
            pick = players == n
            self.outcomes.setdefault(int(n), np.zeros(len(L.OUTCOMES), np.int64))
            self.outcomes[int(n)] += np.bincount(outcome[pick], minlength=len(L.OUTCOMES))
            self.length.setdefault(int(n), np.zeros(MAX_LENGTH + 1, np.int64))
            self.length[int(n)] += np.bincount(turns[pick], minlength=MAX_LENGTH + 1)
            s = self.sums.setdefault(int(n), np.zeros(1 + len(keys) + 1))
            s[0] += pick.sum()
            for i, k in enumerate(keys):
                s[1 + i] += df[k].to_numpy(np.float64)[pick].sum()
            s[-1] += df["calendar_turns"].to_numpy(np.float64)[pick].sum()

    def _add_sides(self, df: pd.DataFrame) -> None:
        if not len(df):
            return
        game = df["game"].to_numpy(np.int64)
        self._grow(int(game.max()))
        players = self.game_players[game].astype(np.int64)
        if (players == 0).any():
            raise ValueError("rows of games not in games.parquet")
        frame = pd.DataFrame({"players": players, "side": df["side"].astype(str).to_numpy(),
                              "role": df["role"].astype(str).to_numpy(), "bot": df["bot"].astype(str).to_numpy(),
                              "base": df["base"].astype(str).where(df["base"].notna(), "").to_numpy(),
                              "won": df["won"].to_numpy(bool)})
        for key, g in frame.groupby(["players", "side", "role", "bot"]):
            r = self.roles.setdefault(tuple(key), [0, 0])
            r[0] += len(g)
            r[1] += int(g["won"].sum())
        fam = frame[frame["role"] == L.ROLE_FAMILY]
        for key, g in fam.groupby(["players", "side", "base"]):
            r = self.bases.setdefault(tuple(key), [0, 0])
            r[0] += len(g)
            r[1] += int(g["won"].sum())

    def _add_cards(self, df: pd.DataFrame) -> None:
        if not len(df):
            return
        rows = np.stack([df["game"].to_numpy(np.int64), _codes(df["side"], L.SIDE_NAMES),
                         _codes(df["card"], L.CARD_CATEGORIES)], axis=1)
        self.card_rows.append(rows)

    def _add_spaces(self, df: pd.DataFrame) -> None:
        counts = df[["space", "name", "type"] + list(L.SP_COLUMNS)].copy()
        counts["type"] = counts["type"].astype(str)
        if self.spaces is None:
            self.spaces = counts.reset_index(drop=True)
        else:
            for c in L.SP_COLUMNS:
                self.spaces[c] = self.spaces[c].to_numpy() + counts[c].to_numpy()

    def merge(self, other: "MafiaStats") -> None:
        for n, v in other.outcomes.items():
            self.outcomes[n] = self.outcomes.get(n, 0) + v
        for n, v in other.length.items():
            self.length[n] = self.length.get(n, 0) + v
        for n, v in other.sums.items():
            self.sums[n] = self.sums.get(n, 0) + v
        for d, o in ((self.roles, other.roles), (self.bases, other.bases)):
            for k, v in o.items():
                r = d.setdefault(k, [0, 0])
                r[0] += v[0]
                r[1] += v[1]
        offset = len(self.game_outcome)
        self.game_outcome = np.concatenate([self.game_outcome, other.game_outcome])
        self.game_players = np.concatenate([self.game_players, other.game_players])
        self.card_rows += [r + [offset, 0, 0] for r in other.card_rows]
        if other.spaces is not None:
            self._add_spaces(other.spaces)
        self.flow.merge(other.flow)

    # ------------------------------------------------------------------ results
    def result(self) -> dict[str, pd.DataFrame]:
        rows = []
        for n, counts in sorted(self.outcomes.items()):
            total = counts.sum()
            low, high = wilson(counts, total)
            for i, name in enumerate(L.OUTCOMES):
                if n == 4 and name == "state" or n != 4 and name == "all_lose":
                    continue
                rows.append({"players": n, "outcome": name, "games": int(counts[i]), "share": counts[i] / total,
                             "low": float(low[i]), "high": float(high[i])})
        outcomes = pd.DataFrame(rows, columns=["players", "outcome", "games", "share", "low", "high"])

        def rate_rows(d, names):
            out = []
            for key, (n, w) in sorted(d.items()):
                low, high = wilson(np.array([w]), n)
                out.append({**dict(zip(names, key)), "n": n, "wins": w, "win_rate": w / n if n else np.nan,
                            "low": float(low[0]), "high": float(high[0])})
            return pd.DataFrame(out, columns=list(names) + ["n", "wins", "win_rate", "low", "high"])

        roles = rate_rows(self.roles, ["players", "side", "role", "bot"])
        bases = rate_rows(self.bases, ["players", "side", "base"])
        if len(bases):
            totals = bases.groupby(["players", "side"])["n"].transform("sum")
            bases.insert(4, "share", bases["n"] / totals)
        cards = self._card_table()
        length = pd.DataFrame([{"players": n, "calendar_turns": t, "games": int(c)}
                               for n, h in sorted(self.length.items()) for t, c in enumerate(h) if c],
                              columns=["players", "calendar_turns", "games"])
        over = []
        for n, s in sorted(self.sums.items()):
            g = max(s[0], 1)
            over += [{"players": n, "metric": "games", "value": s[0]},
                     {"players": n, "metric": "calendar_turns_mean", "value": s[-1] / g}]
            for i, k in enumerate(("shootouts", "arrests", "holds", "eliminations", "markers_placed",
                                   "markers_removed")):
                over.append({"players": n, "metric": f"{k}_per_game", "value": s[1 + i] / g})
        overview = pd.DataFrame(over, columns=["players", "metric", "value"])
        spaces = self.spaces if self.spaces is not None else pd.DataFrame(
            columns=["space", "name", "type"] + list(L.SP_COLUMNS))
        return {"outcomes": outcomes, "roles": roles, "bases": bases, "cards": cards, "spaces": spaces,
                "length": length, "overview": overview, "flow": self.flow.result()}

    def _card_table(self) -> pd.DataFrame:
        cols = ["players", "card", "side_role", "plays", "games_with", "win_with", "with_low", "with_high",
                "games_without", "win_without", "without_low", "without_high", "difference"]
        if not self.card_rows:
            return pd.DataFrame(columns=cols)
        rows = np.concatenate(self.card_rows)
        game, side, card = rows[:, 0], rows[:, 1], rows[:, 2]
        players = self.game_players[game].astype(np.int64)
        won = self.game_outcome[game] == np.where(side == L.STATE, L.OUT_STATE, side + L.OUT_RED)
        out = []
        role = np.where(side == L.STATE, L.ROLE_STATE, L.ROLE_FAMILY)
        df = pd.DataFrame({"players": players, "game": game, "side": side, "card": card, "won": won, "role": role})
        plays = df.groupby(["players", "card", "role"]).size()
        once = df.drop_duplicates(["game", "side", "card"])
        for (n, c, r), g in once.groupby(["players", "card", "role"]):
            totals = [v for k, v in self.roles.items() if k[0] == n and k[2] == r]
            total_n, total_w = sum(v[0] for v in totals), sum(v[1] for v in totals)
            n_with, w_with = len(g), int(g["won"].sum())
            n_without, w_without = total_n - n_with, total_w - w_with
            lw, hw = wilson(np.array([w_with]), n_with)
            lo, ho = wilson(np.array([w_without]), max(n_without, 0))
            rw = w_with / n_with if n_with else np.nan
            ro = w_without / n_without if n_without > 0 else np.nan
            out.append({"players": int(n), "card": L.CARD_CATEGORIES[c], "side_role": r,
                        "plays": int(plays[(n, c, r)]), "games_with": n_with, "win_with": rw,
                        "with_low": float(lw[0]), "with_high": float(hw[0]), "games_without": n_without,
                        "win_without": ro, "without_low": float(lo[0]), "without_high": float(ho[0]),
                        "difference": rw - ro})
        return pd.DataFrame(out, columns=cols)


def new_stats(**options) -> MafiaStats:
    return MafiaStats()
