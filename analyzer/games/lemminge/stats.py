"""Balance statistics of Lemminge runs, aggregated chunk by chunk.

``LemmingeStats.add(tables)`` takes one chunk's tables (any of games / players /
moves / hexes, as ``LemmingeMatch.tables_of`` and ``chunk_extras`` build them or
read from a run's Parquet files), ``merge(other)`` adds another accumulator,
``result()`` returns the report tables (``TABLE_DOCS``). Only integer
histograms and sums are kept, so adding a table whole or in any chunks gives
the same result.

Definitions:
- A simulated unit is a game. Win = the game won (one winner; a capped game has
  none); score = lemmings brought home (0-2).
- A move's *progress* is the finish distance its lemming gained
  (``distance_before - distance_after``); its *movement* what the card gave.
- A push's *setback* is the finish distance the pushed lemmings lost
  (``pushed_setback``; negative when a push sends them on); its cost to the
  pusher is ``push_cost`` movement per lemming pushed (the rules; 1 in the box).
- The moves table has no bot column: its figures hold for the run's bots
  together, which the report says.
- Means over moves (column sums, new columns, pushes) get intervals clustered
  by game (``analyzer.stats.clustered``): a game's moves are not independent.
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from analyzer.games.lemminge.layout import TERRAIN_NAMES, TERRAINS
from analyzer.stats.aggregate import Hist, add_tables, bools, frame, hist_mean, ints, rate
from analyzer.stats.clustered import ClusteredMeans
from analyzer.stats.flow import FLOW_COLUMNS, FlowStats
from analyzer.stats.outcomes import SeatOutcomes

PLAYER_EXTRAS = (("refills", "refills", True), ("moves", "moves", True), ("steps", "steps", True),
                 ("pushes_made", "pushes_made", True), ("pushed", "pushed", True),
                 ("pushed_distance", "pushed_distance", True), ("new_columns", "new_columns", True),
                 ("tiles", "tiles_placed", True), ("hand", "hand_start", False))
MAX_SUM = 40  # column sums above this are counted with it (a cap for the histogram, far above play)

COLUMNS = {
    "games": ["game", "players", "turns", "winner_seat", "capped", "reshuffles", *FLOW_COLUMNS],
    "players": ["game", "seat", "bot", "won", "finished", "refills", "moves", "steps", "pushes_made", "pushed",
                "pushed_distance", "new_columns", "tiles_placed", "hand_start"],
    "moves": ["game", "terrain", "value", "column_sum_before", "new_column", "movement", "steps", "pushes", "lemming",
              "distance_before", "distance_after", "pushed_setback"],
    "hexes": ["x", "y", "terrain", "entered", "pushed_into", "tiles_placed"],
}
ID_COLUMNS = ("game",)

TABLE_DOCS = {
    "overview": "headline figures: metric, value, 95% interval, n",
    "bots": "per bot over its seats: win rate, lemmings home, refills, moves, steps, pushes, new columns, tiles",
    "seats": "the same per seat and bot",
    "seat_advantage": "per seat: win rate minus the average seat's (paired by game), starting hand size",
    "luck_skill": "each heuristic bot against the random bot, win rates per seat, paired by game",
    "score_distribution": "lemmings home per bot: mean, sd, quantiles",
    "column_value": "cards played on a column, by the column's sum before: movement and progress (hexes gained)",
    "new_column": "by card value: progress of a card that starts a new column against one played on its column",
    "pushes": "moves by lemmings pushed: moves, setback (the pushed lemmings' change of finish distance: 0 or "
              "less under the box's rules, where no push goes backwards), progress",
    "tiles": "per terrain: new columns started and tiles placed on hexes of that printed terrain",
    "hexes": "per hex: entered by moving lemmings, landed on by pushed ones, tiles placed",
    "game_length": "game length in turns (refills included): games, share, cumulative share",
    "flow": "game flow: lead changes per game, share of the game played before the winner led for "
            "good, comebacks (the winner not leading at the half), no single winner, length; the standing is "
            "defined in docs/lemminge.md",
}


def new_stats(**options) -> "LemmingeStats":
    return LemmingeStats(**options)


def expected_rows(manifest: dict) -> tuple[str, int]:
    """The table whose row count a complete run directory must match: a row per game."""
    return "games", int(manifest.get("games", -1))


def _codes(column, names) -> np.ndarray:
    s = column if isinstance(column, pd.Series) else pd.Series(column)
    labels = s.astype(str).to_numpy()
    lut = {n: i for i, n in enumerate(names)}
    try:
        return np.array([lut[x] for x in labels], np.int64)
    except KeyError as e:
        raise ValueError(f"unknown terrain {e.args[0]!r} (terrains: {', '.join(names)})") from None


class LemmingeStats:
    """Chunked balance statistics; see the module docstring."""

    def __init__(self):
        self.outcomes = SeatOutcomes("games", PLAYER_EXTRAS)
        self.flow = FlowStats()  # lead changes, decisiveness, comebacks
        self.n_games = 0
        self.n_capped = 0
        self.h_turns = Hist(("players", "turns"))
        self.h_winner = Hist(("players", "winner_seat"))
        self.h_reshuffles = Hist(("reshuffles",))
        self.h_column = Hist(("colsum", "movement", "progress"))  # cards on their column
        self.h_new = Hist(("new", "value", "progress"))  # every card with a lemming moved
        self.h_push = Hist(("pushes", "setback", "progress"))
        self.h_terrain = Hist(("terrain", "new"))
        self.hexes: dict[tuple[int, int, int], np.ndarray] = {}
        # the intervals of means over moves, clustered by game (a game's moves are not independent)
        self.c_column = ClusteredMeans()  # progress of cards on their column, by the column's sum
        self.c_new = ClusteredMeans(arms=2)  # progress by card value; arm 1: the card started a new column
        self.c_setback = ClusteredMeans()  # setback by lemmings pushed
        self.c_push_progress = ClusteredMeans()  # progress by lemmings pushed
        self.c_pushes = ClusteredMeans()  # lemmings pushed per move (one group)

    # ------------------------------------------------------------------ adding

    def add(self, tables: Mapping[str, pd.DataFrame]) -> None:
        add_tables(self, COLUMNS, tables)

    def _add_games(self, df: pd.DataFrame) -> None:
        self.n_games += len(df)
        players = ints(df, "players")
        self.n_capped += int(bools(df, "capped").sum())
        self.h_turns.add(players, ints(df, "turns"))
        self.flow.add(df)
        self.h_winner.add(players, ints(df, "winner_seat"))
        self.h_reshuffles.add(ints(df, "reshuffles"))

    def _add_players(self, df: pd.DataFrame) -> None:
        out = self.outcomes
        bot, seat = out.bot_codes(df["bot"]), ints(df, "seat")
        out.add(ints(df, "game"), seat, bot, ints(df, "finished"), bools(df, "won"))
        out.add_extras(bot, seat, {name: ints(df, label) for name, label, _ in PLAYER_EXTRAS})

    def _add_moves(self, df: pd.DataFrame) -> None:
        moved = ints(df, "lemming") >= 0
        progress = ints(df, "distance_before") - ints(df, "distance_after")
        new = bools(df, "new_column") > 0
        on = ~new & moved
        self.h_column.add(np.minimum(ints(df, "column_sum_before")[on], MAX_SUM), ints(df, "movement")[on],
                          progress[on])
        self.h_new.add(new[moved].astype(np.int64), ints(df, "value")[moved], progress[moved])
        self.h_push.add(ints(df, "pushes")[moved], ints(df, "pushed_setback")[moved], progress[moved])
        self.h_terrain.add(_codes(df["terrain"], TERRAINS), new.astype(np.int64))
        game = ints(df, "game")
        self.c_column.add(game[on], np.minimum(ints(df, "column_sum_before")[on], MAX_SUM), progress[on])
        self.c_new.add(game[moved], ints(df, "value")[moved], progress[moved], new[moved].astype(np.int64))
        pushes = ints(df, "pushes")[moved]
        self.c_setback.add(game[moved], pushes, ints(df, "pushed_setback")[moved])
        self.c_push_progress.add(game[moved], pushes, progress[moved])
        self.c_pushes.add(game[moved], np.zeros(len(pushes), np.int64), pushes)

    def _add_hexes(self, df: pd.DataFrame) -> None:
        keys = zip(ints(df, "x"), ints(df, "y"), _codes(df["terrain"], TERRAIN_NAMES))
        values = np.stack([ints(df, "entered"), ints(df, "pushed_into"), ints(df, "tiles_placed")], axis=1)
        for key, v in zip(keys, values):
            key = tuple(int(k) for k in key)
            self.hexes[key] = self.hexes[key] + v if key in self.hexes else v.copy()

    # ------------------------------------------------------------------ merging

    def merge(self, other: "LemmingeStats") -> "LemmingeStats":
        self.outcomes.merge(other.outcomes)
        self.flow.merge(other.flow)
        self.n_games += other.n_games
        self.n_capped += other.n_capped
        for name, h in vars(self).items():
            if isinstance(h, (Hist, ClusteredMeans)):
                h.merge(getattr(other, name))
        for key, v in other.hexes.items():
            self.hexes[key] = self.hexes[key] + v if key in self.hexes else v.copy()
        return self

    def nbytes(self) -> int:
        return (sum(h.nbytes() for h in vars(self).values() if isinstance(h, (Hist, ClusteredMeans)))
                + self.outcomes.nbytes() + self.flow.nbytes()
                + 40 * len(self.hexes))

    # ------------------------------------------------------------------ results

    @property
    def games(self) -> int:
        return self.n_games

    def result(self) -> dict[str, pd.DataFrame]:
        ctx = self.outcomes.context()
        out = {"overview": self._overview(ctx)}
        out.update(self.outcomes.tables(ctx, BOT_COLUMNS))
        out["seat_advantage"] = self._with_hands(out["seat_advantage"])
        out["column_value"] = self._column_value()
        out["new_column"] = self._new_column()
        out["pushes"] = self._pushes()
        out["tiles"] = self._tiles()
        out["hexes"] = self._hexes()
        out["game_length"] = self._game_length()
        out["flow"] = self.flow.result()
        return out

    def _overview(self, ctx) -> pd.DataFrame:
        rows = []

        def add(metric, value, low=np.nan, high=np.nan, n=np.nan):
            rows.append({"metric": metric, "value": float(value), "low": float(low), "high": float(high),
                         "n": float(n)})

        def add_mean(metric, counts, values):
            m = hist_mean(counts, values)
            add(metric, m["mean"], m["low"], m["high"], m["n"])

        add("games", self.n_games)
        add("players", ctx["players"] or (int(self.h_turns.values("players").max()) if self.h_turns.counts.size
                                          else 0))
        if self.h_turns.counts.size:
            add_mean("game_length_mean", self.h_turns.marginal("turns"), self.h_turns.values("turns"))
        r = rate(self.n_capped, self.n_games)
        add("capped_share", r["rate"], r["low"], r["high"], self.n_games)
        if self.h_reshuffles.counts.size:
            add_mean("reshuffles_mean", self.h_reshuffles.marginal("reshuffles"),
                     self.h_reshuffles.values("reshuffles"))
        if self.h_terrain.counts.size:
            new = self.h_terrain.marginal("new")
            nv = self.h_terrain.values("new")
            moves = int(new.sum())
            r = rate(int(new[nv == 1].sum()), moves)
            add("new_column_share", r["rate"], r["low"], r["high"], moves)
        if self.h_push.counts.size:
            m = self.c_pushes.mean()
            add("pushes_per_move", m["mean"][0], m["low"][0], m["high"][0], m["n"][0])
        for name, v, lo, hi, n in self.outcomes.overview_rows():
            add(name, v, lo, hi, n)
        return pd.DataFrame(rows, columns=["metric", "value", "low", "high", "n"])

    def _with_hands(self, sa: pd.DataFrame) -> pd.DataFrame:
        """The seat-advantage table with each seat's starting hand."""
        if not len(sa):
            return sa.assign(hand_start=pd.Series(dtype=float))
        h = self.outcomes.extras["hand"]
        counts = h.take(bot=np.arange(len(self.outcomes.bots)), seat=sa["seat"].to_numpy()).sum(0)
        m = hist_mean(counts, h.values("value"))
        return sa.assign(hand_start=m["mean"])

    def _column_value(self) -> pd.DataFrame:
        h = self.h_column
        if not h.counts.size:
            return frame({k: [] for k in ("column_sum_before", "moves", "movement", "progress", "progress_low",
                                          "progress_high", "progress_per_movement")})
        sums = h.values("colsum")
        mv = hist_mean(h.marginal("colsum", "movement"), h.values("movement"))
        pr = hist_mean(h.marginal("colsum", "progress"), h.values("progress"))
        keep = mv["n"] > 0
        with np.errstate(divide="ignore", invalid="ignore"):
            per = pr["mean"] / mv["mean"]
        cl = _by_key(self.c_column.mean(), sums)
        return frame({"column_sum_before": sums[keep], "moves": mv["n"][keep], "movement": mv["mean"][keep],
                      "progress": pr["mean"][keep], "progress_low": cl["low"][keep], "progress_high": cl["high"][keep],
                      "progress_per_movement": per[keep]})

    def _new_column(self) -> pd.DataFrame:
        h = self.h_new
        cols = ("value", "new_moves", "new_progress", "new_low", "new_high", "on_moves", "on_progress", "on_low",
                "on_high", "difference", "difference_low", "difference_high")
        if not h.counts.size:
            return frame({k: [] for k in cols})
        values = h.values("value")
        out = {k: [] for k in cols}
        arm = {new: _by_key(self.c_new.mean(new), values) for new in (1, 0)}
        diff = _by_key(self.c_new.difference(1, 0), values)
        for i, v in enumerate(values):
            res = {new: hist_mean(h.take(new=[new], value=[v])[0, 0], h.values("progress")) for new in (1, 0)}
            d = res[1]["mean"] - res[0]["mean"]
            row = dict(value=v, new_moves=res[1]["n"], new_progress=res[1]["mean"], new_low=arm[1]["low"][i],
                       new_high=arm[1]["high"][i], on_moves=res[0]["n"], on_progress=res[0]["mean"],
                       on_low=arm[0]["low"][i], on_high=arm[0]["high"][i], difference=d,
                       difference_low=diff["low"][i], difference_high=diff["high"][i])
            for k in cols:
                out[k].append(float(row[k]))
        return frame(out)

    def _pushes(self) -> pd.DataFrame:
        h = self.h_push
        cols = ("pushes", "moves", "share", "setback", "setback_low", "setback_high", "progress", "progress_low",
                "progress_high")
        if not h.counts.size:
            return frame({k: [] for k in cols})
        total = h.counts.sum()
        sb = hist_mean(h.marginal("pushes", "setback"), h.values("setback"))
        pr = hist_mean(h.marginal("pushes", "progress"), h.values("progress"))
        keep = sb["n"] > 0
        pushes = h.values("pushes")
        csb = _by_key(self.c_setback.mean(), pushes)
        cpr = _by_key(self.c_push_progress.mean(), pushes)
        return frame({"pushes": pushes[keep], "moves": sb["n"][keep], "share": sb["n"][keep] / total,
                      "setback": sb["mean"][keep], "setback_low": csb["low"][keep], "setback_high": csb["high"][keep],
                      "progress": pr["mean"][keep], "progress_low": cpr["low"][keep],
                      "progress_high": cpr["high"][keep]})

    def _tiles(self) -> pd.DataFrame:
        h = self.h_terrain
        new = np.zeros(len(TERRAINS), np.int64)
        played = np.zeros(len(TERRAINS), np.int64)
        if h.counts.size:
            c = h.take(terrain=np.arange(len(TERRAINS)), new=[0, 1])
            new, played = c[:, 1], c.sum(1)
        placed = np.zeros(len(TERRAIN_NAMES), np.int64)
        for (_, _, t), v in self.hexes.items():
            placed[t] += v[2]
        names = list(TERRAINS) + ["meadow"]
        return frame({"terrain": names, "cards_played": np.r_[played, 0], "new_columns": np.r_[new, 0],
                      "tiles_placed_on": placed[:len(names)],
                      "tiles_placed_share": placed[:len(names)] / max(placed.sum(), 1)})

    def _hexes(self) -> pd.DataFrame:
        keys = sorted(self.hexes, key=lambda k: (k[1], k[0]))
        v = np.array([self.hexes[k] for k in keys], np.int64).reshape(-1, 3)
        return pd.DataFrame({"x": [k[0] for k in keys], "y": [k[1] for k in keys],
                             "terrain": [TERRAIN_NAMES[k[2]] for k in keys], "entered": v[:, 0],
                             "pushed_into": v[:, 1], "tiles_placed": v[:, 2],
                             "entered_per_game": v[:, 0] / max(self.n_games, 1)})

    def _game_length(self) -> pd.DataFrame:
        h = self.h_turns
        if not h.counts.size:
            return frame({"turns": [], "games": [], "share": [], "cumulative_share": []})
        c = h.marginal("turns")
        t = h.values("turns")
        keep = c > 0
        share = c / max(c.sum(), 1)
        return frame({"turns": t[keep], "games": c[keep], "share": share[keep],
                      "cumulative_share": np.cumsum(share)[keep]})


def _by_key(result: dict, keys: np.ndarray) -> dict:
    """A ``ClusteredMeans`` result (indexed by group key) read at ``keys`` (nan
    where a key has no group)."""
    out = {}
    for name, a in result.items():
        a = np.asarray(a, np.float64)
        inside = (keys >= 0) & (keys < len(a))
        out[name] = np.where(inside, a[np.clip(keys, 0, max(len(a) - 1, 0))] if len(a) else np.nan, np.nan)
    return out


BOT_COLUMNS = SeatOutcomes("games", PLAYER_EXTRAS).bot_columns()
