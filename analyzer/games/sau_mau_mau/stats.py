"""Balance statistics of Sau Mau Mau runs, aggregated chunk by chunk.

``SauMauMauStats.add(tables)`` takes one chunk's tables (any subset of races /
players / games / bets, as ``SauMauMauMatch.tables_of`` builds them or read from a
run's Parquet files), ``merge(other)`` adds another accumulator, ``result()``
returns the report tables (``TABLE_DOCS``). Only integer histograms are kept, and
a few sums of races cut by a chunk edge, so adding a table whole or in any chunks
gives exactly the same result.

Notes on definitions:
- A simulated unit is a game of the rules' races (four in the box; the tables
  read the race numbers they hold, up to MAX_RACES). The per-seat outcome tables (bots,
  seats, seat_advantage, luck_skill, score_distribution) are about games: win =
  the game won (shared wins count for every tied player), score = the game total.
- How a race ends, as exclusive shares: ``crown`` (a pig reached the crown, the
  ender still had cards), ``hand`` (a player played out), ``both`` (crown and last
  card at once), ``cap`` (the safety stop).
- The queue tables (``queue_position``) count the bet cards standing in the queue at
  the end of a race. The timing and first-against-changed tables (``bet_stage``,
  ``bet_turn``, ``bet_changes``) count every bet card laid (the ``bet_events`` table):
  a first bet that was later changed away counts, with the 0 points it paid. A
  card's stage is the share of the race's turns made before it was laid,
  ``(turn_placed - 1) / race_turns`` in ``stage_bins`` equal bins: hindsight a
  player does not have at the table. A "changed" bet replaced an earlier bet of its
  player and went to the back of the queue, so changed and first bets differ in
  timing and queue place as well; each change is also compared with the bet it
  replaced (was the new pig among the winners more often than the one left?),
  paired by change.
- First-player advantage: per race, the race points of the seat that started it
  minus the mean race points of the other seats, averaged over races (paired by
  race, so the deal's luck cancels). Seat r starts race r, so when the seats run
  different bots this carries the bots' strength along; ``first_player_by_seat``
  then compares each seat with itself (races it starts against the others).
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from analyzer.games.sau_mau_mau.layout import ENDS, MAX_PLAYERS, MAX_RACES, PIGS
from analyzer.stats.aggregate import Hist, add_tables, bools, frame, hist_mean, ints, mean_sd_ci, rate
from analyzer.stats.flow import FLOW_COLUMNS, FlowStats
from analyzer.stats.intervals import Z95, clustered_rate, mean_ci
from analyzer.stats.outcomes import ALL, SCORE_COUNT, SeatOutcomes

STAGE_BINS = 10
END_KINDS = ("crown", "hand", "both", "cap")  # exclusive: how a race ended
BET_KINDS = ("all", "first", "changed")
SOURCES = ("race", "bet", "crown", "hand")  # race = bet + crown + hand
# per player and race (players table): (histogram, column label, with interval)
PLAYER_EXTRAS = (("race", "race_points", True), ("bet", "bet_points", True),
                 ("crown", "crown_points", True), ("hand", "hand_points", True),
                 ("placed", "bets_placed", False), ("changed", "bets_changed", False))

# columns each table must have (the statistics read only these)
COLUMNS = {
    "races": ["game", "race", "players", "first_seat", "turns", "end", "both_ends", "winning_pigs",
              "queue_length", "ender_seat", "crown_pig", "reshuffles", *FLOW_COLUMNS] + [f"pos_{p}" for p in PIGS],
    "players": ["game", "race", "seat", "bot", "race_points", "bet_points", "crown_points", "hand_points",
                "bets_placed", "bets_changed", "first"],
    "games": ["game", "seat", "bot", "total", "won"],
    "bets": ["game", "seat", "bot", "queue_position", "turn_placed", "race_turns", "changed", "points", "won"],
    "bet_events": ["bot", "turn_placed", "race_turns", "change", "in_final_queue", "points", "won",
                   "changed_from_won"],
}


# index columns: several runs fed to one aggregator get them offset (see report.aggregate_run)
ID_COLUMNS = ("game",)


def new_stats(**options) -> "SauMauMauStats":
    return SauMauMauStats(**options)


def expected_rows(manifest: dict) -> tuple[str, int]:
    """The table whose row count a complete run directory must match: a row per game and seat."""
    return "games", int(manifest.get("games", -1)) * int(manifest.get("players", 0))


def _label_codes(column, code_of) -> np.ndarray:
    """Codes of a label column (categorical or strings) through ``code_of(label)``."""
    s = column if isinstance(column, pd.Series) else pd.Series(column)
    if isinstance(s.dtype, pd.CategoricalDtype):
        local, labels = s.cat.codes.to_numpy(np.int64), s.cat.categories
    else:
        local, labels = pd.factorize(s, sort=False)
    if len(local) and np.min(local) < 0:
        raise ValueError("missing label in a label column")
    lut = np.array([code_of(str(x)) for x in labels], np.int64)
    return lut[np.asarray(local, np.int64)] if lut.size else np.zeros(0, np.int64)


def _pig(label: str) -> int:
    if label not in PIGS:
        raise ValueError(f"unknown pig {label!r} (pigs: {', '.join(PIGS)})")
    return PIGS.index(label)


def _pig_mask(label: str) -> int:
    """Bit mask of a set of pigs written "pink,black" ("" is no pig)."""
    return sum(1 << _pig(p.strip()) for p in label.split(",") if p.strip())


def _end(label: str) -> int:
    if label not in ENDS:
        raise ValueError(f"unknown race end {label!r} (ends: {', '.join(ENDS)})")
    return ENDS.index(label)


class GroupSums:
    """Per-group integer sums of a few columns, for statistics over the whole of
    a group (the seats of one race). A group's rows must be contiguous in the
    stream. As in ``aggregate.GroupBits``, the last group of every chunk is held
    back until the next chunk shows whether it goes on there, and the very first
    group until the end, so chunks may cut a group anywhere and accumulators fed
    consecutive stretches of one stream can be merged."""

    def __init__(self, width: int):
        self.width = width
        self.pending: dict[int, np.ndarray] = {}
        self.head: int | None = None

    def _empty(self):
        return np.zeros(0, np.int64), np.zeros((0, self.width), np.int64)

    def add(self, group: np.ndarray, values: np.ndarray):
        """Rows ``values`` [n, width] of groups ``group``; returns ``(ids, sums)``
        of the groups now known to be complete."""
        group = np.asarray(group, np.int64)
        if group.size == 0:
            return self._empty()
        values = np.asarray(values, np.int64).reshape(group.size, self.width)
        starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
        if np.unique(group[starts]).size != starts.size:  # a group's rows are not together
            order = np.argsort(group, kind="stable")
            group, values = group[order], values[order]
            starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
        ids = group[starts]
        sums = np.add.reduceat(values, starts, axis=0)
        for i in {0, len(ids) - 1}:  # held-back groups that go on in this chunk join it
            held = self.pending.pop(int(ids[i]), None)
            if held is not None:
                sums[i] += held
        done = {g: s for g, s in self.pending.items() if g != self.head}
        self.pending = {g: s for g, s in self.pending.items() if g == self.head}
        if self.head is None:
            self.head = int(ids[0])
        keep = {len(ids) - 1} | ({0} if int(ids[0]) == self.head else set())
        for i in keep:
            self.pending[int(ids[i])] = sums[i].copy()
        middle = np.ones(len(ids), bool)
        middle[list(keep)] = False
        done_ids = np.array(list(done), np.int64)
        done_sums = np.array(list(done.values()), np.int64).reshape(-1, self.width)
        return np.r_[done_ids, ids[middle]], np.vstack([done_sums, sums[middle]])

    def held(self):
        """``(ids, sums)`` of the held-back groups (complete once the stream is)."""
        if not self.pending:
            return self._empty()
        return np.array(list(self.pending), np.int64), np.stack(list(self.pending.values()))

    def merge(self, other: "GroupSums") -> None:
        for g, s in other.pending.items():
            self.pending[g] = self.pending[g] + s if g in self.pending else s.copy()
        if self.head is None:
            self.head = other.head

    def nbytes(self) -> int:
        return 8 * (self.width + 1) * len(self.pending)


# the sums kept per race from the players table
_MEMBERS, _POINTS, _FIRST_POINTS, _FIRSTS, _BACKERS = range(5)


class SauMauMauStats:
    """Chunked balance statistics; see the module docstring."""

    def __init__(self, stage_bins: int = STAGE_BINS):
        if stage_bins < 1:
            raise ValueError("stage_bins must be at least 1")
        self.stage_bins = stage_bins
        # games: per (bot, seat) outcomes of a game; per race (players table) the extras
        self.outcomes = SeatOutcomes("games", PLAYER_EXTRAS)
        self.flow = FlowStats()  # lead changes, decisiveness, comebacks of the pigs' races
        self.n_games = 0
        # races
        self.n_races = 0
        self.h_end = Hist(("players", "race", "end", "both"))
        self.h_turns = Hist(("players", "turns"))
        self.h_winners = Hist(("players", "mask"))
        self.h_crown = Hist(("pig",))  # -1: the race did not end by the crown
        self.h_pos = Hist(("pig", "space"))
        self.h_queue = Hist(("queue",))
        self.h_reshuffles = Hist(("reshuffles",))
        self.h_starts = Hist(("seat",))  # first seat of each race
        self.h_ender = Hist(("race", "after_first"))  # ender's place in turn order from the first; -1: none
        # players, per race: starting seat or not, and the race's sums
        self.h_first_points = Hist(("race", "first", "points"))
        self.h_seat_first = Hist(("seat", "first", "ended", "points"))  # ended: crown or hand points
        self.race_sums = GroupSums(5)
        self.h_first_diff = Hist(("players", "race", "diff"))  # players * first - all points
        self.h_backers = Hist(("players", "backers"))  # seats whose bet scored
        # bets in the final queue
        self.h_bets = Hist(("bot", "position", "stage", "changed", "won", "points"))
        # per queue place and game: bets on a winning pig y and bets n of each seat, summed over
        # the games per seat (QUEUE_SEAT_SUMS) and per pair of seats (QUEUE_PAIR_SUMS), so that
        # the share of any set of seats (a bot's, or all) gets its game-clustered interval
        self.queue_sums = GroupSums(2 * MAX_PLAYERS * MAX_PLAYERS)  # [place, seat, (y, n)] per game
        self.h_queue_games = Hist(("position",))  # games with a bet in that place
        self.h_queue_seats = Hist(("position", "sum", "seat"))
        self.h_queue_pairs = Hist(("position", "sum", "seat", "other"))
        # every bet card laid; away: changed away later; a change: its pig and the one it left won
        self.h_events = Hist(("bot", "stage", "changed", "away", "won", "points"))
        self.h_event_turn = Hist(("turn", "changed", "won", "points"))
        self.h_switch = Hist(("bot", "to_won", "from_won"))

    # ------------------------------------------------------------------ adding

    def add(self, tables: Mapping[str, pd.DataFrame]) -> None:
        """Add one chunk: any of the tables races, players, games, bets, bet_events."""
        add_tables(self, COLUMNS, tables)

    def _add_races(self, df: pd.DataFrame) -> None:
        n = len(df)
        self.n_races += n
        players, race = ints(df, "players"), ints(df, "race")
        self.h_end.add(players, race, _label_codes(df["end"], _end), bools(df, "both_ends"))
        self.h_turns.add(players, ints(df, "turns"))
        self.flow.add(df)
        self.h_winners.add(players, _label_codes(df["winning_pigs"], _pig_mask))
        self.h_crown.add(_label_codes(df["crown_pig"], lambda x: _pig(x) if x else -1))
        self.h_pos.add(np.repeat(np.arange(len(PIGS)), n), np.concatenate([ints(df, f"pos_{p}") for p in PIGS]))
        self.h_queue.add(ints(df, "queue_length"))
        self.h_reshuffles.add(ints(df, "reshuffles"))
        first, ender = ints(df, "first_seat"), ints(df, "ender_seat")
        self.h_starts.add(first)
        self.h_ender.add(race, np.where(ender > 0, (ender - first) % np.maximum(players, 1), -1))

    def _add_players(self, df: pd.DataFrame) -> None:
        out = self.outcomes
        bot, seat = out.bot_codes(df["bot"]), ints(df, "seat")
        race, points, bet = ints(df, "race"), ints(df, "race_points"), ints(df, "bet_points")
        first = bools(df, "first")
        out.add_extras(bot, seat, {"race": points, "bet": bet, "crown": ints(df, "crown_points"),
                                   "hand": ints(df, "hand_points"), "placed": ints(df, "bets_placed"),
                                   "changed": ints(df, "bets_changed")})
        self.h_first_points.add(race, first, points)
        ended = (ints(df, "crown_points") + ints(df, "hand_points")) > 0
        self.h_seat_first.add(seat, first, ended, points)
        values = np.stack([np.ones_like(points), points, points * first, first, (bet > 0).astype(np.int64)], axis=1)
        self._count_races(*self.race_sums.add(ints(df, "game") * MAX_RACES + race - 1, values),
                          self.h_first_diff, self.h_backers)

    @staticmethod
    def _count_races(ids: np.ndarray, sums: np.ndarray, diff: Hist, backers: Hist) -> None:
        """Count complete races (their seats' sums) into the paired histograms."""
        ok = sums[:, _FIRSTS] == 1  # exactly one starting seat
        ids, sums = ids[ok], sums[ok]
        if not len(ids):
            return
        p = sums[:, _MEMBERS]
        diff.add(p, ids % MAX_RACES + 1, p * sums[:, _FIRST_POINTS] - sums[:, _POINTS])
        backers.add(p, sums[:, _BACKERS])

    def _add_games(self, df: pd.DataFrame) -> None:
        out = self.outcomes
        seat = ints(df, "seat")
        self.n_games += int((seat == 1).sum())
        out.add(ints(df, "game"), seat, out.bot_codes(df["bot"]), ints(df, "total"), bools(df, "won"))

    def _add_bets(self, df: pd.DataFrame) -> None:
        turn = ints(df, "turn_placed")
        length = np.maximum(ints(df, "race_turns"), 1)
        stage = np.clip((turn - 1) * self.stage_bins // length, 0, self.stage_bins - 1)
        changed, won, points = bools(df, "changed"), bools(df, "won"), ints(df, "points")
        position = ints(df, "queue_position")
        self.h_bets.add(self.outcomes.bot_codes(df["bot"]), position, stage, changed, won, points)
        values = np.zeros((len(df), 2 * MAX_PLAYERS * MAX_PLAYERS), np.int64)
        at = ((position - 1) * MAX_PLAYERS + ints(df, "seat") - 1) * 2
        rows = np.arange(len(df))
        values[rows, at] = won
        values[rows, at + 1] = 1
        self._count_queue_games(self.queue_sums.add(ints(df, "game"), values)[1], self.h_queue_games,
                                self.h_queue_seats, self.h_queue_pairs)

    @staticmethod
    def _count_queue_games(sums: np.ndarray, games: Hist, seats: Hist, pairs: Hist) -> None:
        """Whole games' [place, seat, (y, n)] sums into the per-seat and per-pair sums."""
        if not len(sums):
            return
        x = sums.reshape(len(sums), MAX_PLAYERS, MAX_PLAYERS, 2)
        seat_ids = np.arange(1, MAX_PLAYERS + 1)
        for q in range(MAX_PLAYERS):
            y, n = x[:, q, :, 0], x[:, q, :, 1]
            played = int((n.sum(axis=1) > 0).sum())
            if not played:
                continue
            place = np.array([q + 1])
            games.add_counts(np.array([played]), [place])
            seats.add_counts(np.stack([y.sum(axis=0), n.sum(axis=0)])[None], [place, np.arange(2), seat_ids])
            pairs.add_counts(np.stack([y.T @ y, n.T @ n, y.T @ n])[None], [place, np.arange(3), seat_ids, seat_ids])

    def _add_bet_events(self, df: pd.DataFrame) -> None:
        turn = ints(df, "turn_placed")
        length = np.maximum(ints(df, "race_turns"), 1)
        stage = np.clip((turn - 1) * self.stage_bins // length, 0, self.stage_bins - 1)
        changed, won, points = bools(df, "change"), bools(df, "won"), ints(df, "points")
        bot = self.outcomes.bot_codes(df["bot"])
        self.h_events.add(bot, stage, changed, 1 - bools(df, "in_final_queue"), won, points)
        self.h_event_turn.add(turn, changed, won, points)
        c = changed.astype(bool)
        self.h_switch.add(bot[c], won[c], bools(df, "changed_from_won")[c])

    # ------------------------------------------------------------------ merging

    def merge(self, other: "SauMauMauStats") -> "SauMauMauStats":
        """Add another accumulator's counts to this one (returns self)."""
        if other.stage_bins != self.stage_bins:
            raise ValueError("cannot merge stats with different stage_bins")
        bots = {"bot": self.outcomes.merge(other.outcomes)}
        self.n_games += other.n_games
        self.n_races += other.n_races
        for name, h in vars(self).items():
            if isinstance(h, Hist):
                h.merge(getattr(other, name), bots if "bot" in h.names else None)
        self.race_sums.merge(other.race_sums)
        self.queue_sums.merge(other.queue_sums)
        self.flow.merge(other.flow)
        return self

    def nbytes(self) -> int:
        """Memory held by the counts (does not grow with the number of games)."""
        return (sum(h.nbytes() for h in vars(self).values() if isinstance(h, Hist)) + self.outcomes.nbytes()
                + self.race_sums.nbytes() + self.queue_sums.nbytes() + self.flow.nbytes())

    # ------------------------------------------------------------------ results

    @property
    def games(self) -> int:
        return self.n_games

    def result(self) -> dict[str, pd.DataFrame]:
        """The report tables (see ``TABLE_DOCS``)."""
        ctx = self.outcomes.context()
        if not ctx["players"] and self.h_end.counts.size:  # no games table: seats from the races
            ctx["players"] = int(self.h_end.values("players").max())
        diff, backers = self.h_first_diff.copy(), self.h_backers.copy()
        self._count_races(*self.race_sums.held(), diff, backers)
        out = {"overview": self._overview(ctx, diff, backers)}
        out.update(self.outcomes.tables(ctx, BOT_COLUMNS, _bot_more))
        out["seat_advantage"] = self._with_starts(out["seat_advantage"])
        out["queue_position"] = self._queue_position(ctx)
        out["bet_stage"] = self._bet_timing("stage")
        out["bet_turn"] = self._bet_timing("turn")
        out["bet_changes"] = self._bet_changes(ctx)
        out["ends_by_players"] = self._ends("players")
        out["ends_by_race"] = self._ends("race")
        out["first_player"] = self._first_player(diff)
        out["first_player_by_seat"] = self._first_player_by_seat(ctx)
        out["pigs"] = self._pigs()
        out["race_length"] = self._race_length()
        out["points"] = self._points(ctx)
        out["flow"] = self.flow.result()
        return out

    def _bot_order(self, ctx) -> list[int]:
        """Bots in seat order; bots seen only outside the games table after them."""
        rest = [b for b in range(len(self.outcomes.bots)) if b not in ctx["bots"]]
        return list(ctx["bots"]) + rest

    # overview -----------------------------------------------------------------

    def _end_counts(self, by: str | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Races per exclusive end kind (END_KINDS, last axis), by ``by``: (keys, counts)."""
        h = self.h_end
        c = h.take(end=np.arange(len(ENDS)), both=[0, 1])  # [players, race, end, both]
        if by is None:
            c, keys = c.sum(axis=(0, 1))[None], np.zeros(1, np.int64)
        else:
            c = c.sum(axis=1 if by == "players" else 0)
            keys = h.values(by)
        crown, hand, cap = ENDS.index("crown"), ENDS.index("hand"), ENDS.index("cap")
        kinds = np.stack([c[:, crown, 0], c[:, hand, 0], c[:, crown, 1] + c[:, hand, 1], c[:, cap].sum(-1)],
                         axis=-1)  # END_KINDS
        keep = kinds.sum(-1) > 0
        return keys[keep], kinds[keep]

    def _overview(self, ctx, diff: Hist, backers: Hist) -> pd.DataFrame:
        rows = []

        def add(metric, value, low=np.nan, high=np.nan, n=np.nan):
            rows.append({"metric": metric, "value": float(value), "low": float(low),
                         "high": float(high), "n": float(n)})

        def add_rate(metric, k, n):
            r = rate(int(k), int(n))
            add(metric, r["rate"], r["low"], r["high"], n)

        def add_mean(metric, counts, values, n=None):
            m = hist_mean(counts, values)
            add(metric, m["mean"], m["low"], m["high"], m["n"] if n is None else n)

        G, R = self.n_games, self.n_races
        add("games", G, n=G)
        add("races", R, n=R)
        add("players", ctx["players"])
        add_mean("race_length_mean", self.h_turns.marginal("turns"), self.h_turns.values("turns"))
        _, ends = self._end_counts()
        ends = ends[0] if len(ends) else np.zeros(len(END_KINDS), np.int64)
        for kind, k in zip(END_KINDS, ends):
            add_rate(f"{kind}_end_share", k, R)
        w = self.h_winners.values("mask")
        winners = np.array([bin(int(m)).count("1") for m in w], np.int64)
        add_rate("shared_pig_win_share", (self.h_winners.marginal("mask") * (winners > 1)).sum(), R)
        bk = backers.marginal("backers")
        add_rate("winner_backed_by_nobody_share", bk[backers.values("backers") == 0].sum(), bk.sum())
        add_mean("queue_length_mean", self.h_queue.counts, self.h_queue.values("queue"))
        add_mean("reshuffles_mean", self.h_reshuffles.counts, self.h_reshuffles.values("reshuffles"))
        st = _first_diff_stats(diff, None)
        add("first_player_points_advantage", st["mean"], st["low"], st["high"], st["n"])
        counts, masks = self.outcomes.patterns("won", ctx)
        shared = int(counts[np.array([bin(int(m)).count("1") for m in masks], np.int64) > 1].sum()) if counts.size else 0
        add_rate("shared_game_win_share", shared, counts.sum())
        placed = self.outcomes.extras["placed"]
        laid = int((placed.marginal("value") * placed.values("value")).sum()) if placed.counts.size else 0
        recorded = int(self.h_events.counts.sum())
        # a race records its first EVENTS_CAP bet cards (match.py); more are counted, never silently
        add("bet_cards_laid", laid, n=laid)
        add("bet_cards_not_in_bet_events", max(laid - recorded, 0) if recorded else 0, n=laid)
        for row in self.outcomes.overview_rows():
            add(*row)
        return pd.DataFrame(rows, columns=["metric", "value", "low", "high", "n"])

    def _with_starts(self, sa: pd.DataFrame) -> pd.DataFrame:
        """Seat advantage plus how many races per game each seat starts."""
        starts = self.h_starts.marginal("seat")
        seats = self.h_starts.values("seat")
        per = dict(zip(seats.tolist(), starts.tolist()))
        sa = sa.copy()
        sa["races_started"] = [per.get(int(s), 0) / self.n_games if self.n_games else np.nan for s in sa["seat"]]
        return sa

    # bets ---------------------------------------------------------------------

    @staticmethod
    def _bet_stats(counts: np.ndarray, points: np.ndarray) -> dict:
        """From histograms over (won, points) on the last two axes."""
        n = counts.sum(axis=(-2, -1))
        won = counts[..., 1, :].sum(-1)
        r = rate(won, n)
        m = hist_mean(counts.sum(-2), points)
        wm = hist_mean(counts[..., 1, :], points)
        return {"bets": n, "won_bets": won, "win_share": r["rate"], "win_low": r["low"], "win_high": r["high"],
                "mean_points": m["mean"], "points_low": m["low"], "points_high": m["high"],
                "won_bet_points": wm["mean"]}

    def _bet_grid(self, h=None, **take) -> tuple[np.ndarray, np.ndarray]:
        """``h`` (h_bets unless given) on the given keys, won as [0, 1], at least one points value."""
        h = self.h_bets if h is None else h
        points = h.values("points")
        counts = h.take(won=[0, 1], **take)
        if points.size == 0:
            shape = list(counts.shape)
            shape[-1] = 1
            counts, points = np.zeros(shape, np.int64), np.zeros(1, np.int64)
        return counts, points

    def _queue_position(self, ctx) -> pd.DataFrame:
        h = self.h_bets
        positions = h.values("position")
        positions = positions[positions > 0]
        bots = self._bot_order(ctx)
        counts, points = self._bet_grid(bot=bots, position=positions, changed=[0, 1])
        counts = counts.sum(axis=2)  # [bot, position, changed, won, points]
        groups = [(ALL, counts.sum(axis=0))]
        labels = self.outcomes.bots.labels
        present = [i for i, b in enumerate(bots) if counts[i].sum() > 0]
        if len(present) > 1:
            groups += [(labels[bots[i]], counts[i]) for i in present]
        # the held-back games are complete now: count them into copies (result() changes nothing)
        games, seat_sums, pair_sums = self.h_queue_games.copy(), self.h_queue_seats.copy(), self.h_queue_pairs.copy()
        self._count_queue_games(self.queue_sums.held()[1], games, seat_sums, pair_sums)
        all_seats = list(range(1, MAX_PLAYERS + 1))
        parts = []
        for label, c in groups:
            st = self._bet_stats(c.sum(axis=1), points)
            seats = all_seats if label == ALL else [s for s, b in ctx["seat_bot"].items() if b == label]
            if seats and len(positions):
                # the bets of one game are not independent draws (its races share the
                # players' streams and running scores): the share's interval is clustered by game
                lin = seat_sums.take(position=positions, sum=[0, 1], seat=seats).sum(axis=-1)
                pair = pair_sums.take(position=positions, sum=[0, 1, 2], seat=seats, other=seats).sum(axis=(-2, -1))
                _, low, high = clustered_rate(games.take(position=positions), lin[:, 0], lin[:, 1], pair[:, 0],
                                              pair[:, 1], pair[:, 2])
                st["win_low"], st["win_high"] = low, high
            changed = c[:, 1].sum(axis=(-2, -1))
            with np.errstate(divide="ignore", invalid="ignore"):
                share = np.where(st["bets"] > 0, changed / np.maximum(st["bets"], 1), np.nan)
            parts.append(frame({"bot": [label] * len(positions), "queue_position": positions, **st,
                                "changed_share": share}))
        return pd.concat(parts, ignore_index=True)

    def _bet_timing(self, by: str) -> pd.DataFrame:
        if by == "stage":
            stages = np.arange(self.stage_bins)
            counts, points = self._bet_grid(self.h_events, stage=stages, changed=[0, 1], away=[0, 1])
            counts = counts.sum(axis=(0, 3))  # [stage, changed, won, points]
            keys = {"stage_bin": stages, "stage_from": stages / self.stage_bins,
                    "stage_to": (stages + 1) / self.stage_bins}
        else:
            h = self.h_event_turn
            turns = h.values("turn")
            points = h.values("points")
            counts = h.take(changed=[0, 1], won=[0, 1])
            if turns.size:
                keep = counts.sum(axis=(1, 2, 3)) > 0
                counts, turns = counts[keep], turns[keep]
            else:
                counts, points = np.zeros((0, 2, 2, 1), np.int64), np.zeros(1, np.int64)
            keys = {"turn": turns}
        parts = []
        for kind in BET_KINDS:
            c = counts.sum(axis=1) if kind == "all" else counts[:, BET_KINDS.index(kind) - 1]
            n = len(next(iter(keys.values())))
            parts.append(frame({"kind": [kind] * n, **keys, **self._bet_stats(c, points)}))
        return pd.concat(parts, ignore_index=True)

    def _bet_changes(self, ctx) -> pd.DataFrame:
        bots = self._bot_order(ctx)
        counts, points = self._bet_grid(self.h_events, bot=bots, changed=[0, 1], away=[0, 1])
        away = counts.sum(axis=(1, 4, 5))  # [bot, changed, away]
        counts = counts.sum(axis=(1, 3))  # [bot, changed, won, points]
        switch = self.h_switch.take(bot=bots, to_won=[0, 1], from_won=[0, 1])  # [bot, to, from]
        labels = self.outcomes.bots.labels
        groups = [(ALL, counts.sum(axis=0), away.sum(axis=0), switch.sum(axis=0))]
        present = [i for i, b in enumerate(bots) if counts[i].sum() > 0]
        if len(present) > 1:
            groups += [(labels[bots[i]], counts[i], away[i], switch[i]) for i in present]
        rows = []
        for label, c, a, sw in groups:
            row = {"bot": label, "first_changed_away": a[0, 1] / a[0].sum() if a[0].sum() else np.nan,
                   **_switch_stats(sw)}
            means = {}
            for kind, k in (("first", 0), ("changed", 1)):
                st = self._bet_stats(c[k], points)
                m = hist_mean(c[k].sum(0), points)
                means[kind] = m
                row.update({f"{kind}_bets": st["bets"], f"{kind}_win_share": st["win_share"],
                            f"{kind}_win_low": st["win_low"], f"{kind}_win_high": st["win_high"],
                            f"{kind}_points": st["mean_points"], f"{kind}_points_low": st["points_low"],
                            f"{kind}_points_high": st["points_high"]})
            row.update(zip(("difference", "difference_low", "difference_high"),
                           _diff_ci(means["changed"], means["first"])))
            rows.append({k: np.asarray(v).item() if isinstance(v, (np.ndarray, np.generic)) else v
                         for k, v in row.items()})
        return pd.DataFrame(rows, columns=BET_CHANGE_COLUMNS)

    # races --------------------------------------------------------------------

    def _ends(self, by: str) -> pd.DataFrame:
        keys, kinds = self._end_counts(by)
        n = kinds.sum(-1, keepdims=True)
        r = rate(kinds, np.broadcast_to(n, kinds.shape))
        K, E = np.meshgrid(keys, np.arange(len(END_KINDS)), indexing="ij")
        return frame({by: K, "end": [END_KINDS[e] for e in E.ravel()], "races": kinds,
                      "share": r["rate"], "low": r["low"], "high": r["high"]})

    def _first_player(self, diff: Hist) -> pd.DataFrame:
        fp = self.h_first_points
        races = np.arange(1, MAX_RACES + 1)  # the races a game of the rules has: rows with none are left out
        pts = fp.values("points")
        c = fp.take(race=races, first=[0, 1])  # [race, first, points]
        if pts.size == 0:
            c, pts = np.zeros((MAX_RACES, 2, 1), np.int64), np.zeros(1, np.int64)
        ender = self.h_ender.take(race=races)  # [race, after_first]
        after = self.h_ender.values("after_first")
        rows = []
        for label, sel in [*((int(r), [i]) for i, r in enumerate(races)), (ALL, list(range(MAX_RACES)))]:
            first = hist_mean(c[sel, 1].sum(0), pts)
            others = hist_mean(c[sel, 0].sum(0), pts)
            st = _first_diff_stats(diff, [races[i] for i in sel])
            e = ender[sel].sum(0) if ender.size else np.zeros(0, np.int64)
            by_first = rate(int(e[after == 0].sum()) if e.size else 0, int(e.sum()) if e.size else 0)
            if not st["n"] and not first["n"]:
                continue
            rows.append({"race": label, "races": int(st["n"]), "first_points": float(first["mean"]),
                         "first_points_low": float(first["low"]), "first_points_high": float(first["high"]),
                         "others_points": float(others["mean"]), "advantage": float(st["mean"]),
                         "advantage_low": float(st["low"]), "advantage_high": float(st["high"]),
                         "ended_by_first": float(by_first["rate"]), "ended_by_first_low": float(by_first["low"]),
                         "ended_by_first_high": float(by_first["high"]), "confounded": self._several_bots()})
        return pd.DataFrame(rows, columns=FIRST_PLAYER_COLUMNS)

    def _several_bots(self) -> bool:
        """Whether the players table has more than one bot (then the seat that
        starts race r, seat r, brings its bot along)."""
        per_bot = self.outcomes.extras["race"].marginal("bot")
        return bool((per_bot > 0).sum() > 1)

    def _first_player_by_seat(self, ctx) -> pd.DataFrame:
        """Per seat: its race points in the races it starts minus its race points
        in the others (each seat against itself: free of bot strength), and how
        often it ends a race, starting or not; 'all': the seats' mean."""
        h = self.h_seat_first
        if h.counts.size == 0:
            return pd.DataFrame(columns=FIRST_BY_SEAT_COLUMNS)
        seats, pts = h.values("seat"), h.values("points")
        c = h.take(first=[0, 1], ended=[0, 1])  # [seat, first, ended, points]
        rows, diffs = [], []
        for i, seat in enumerate(seats):
            if c[i].sum() == 0:
                continue
            start, other = hist_mean(c[i, 1].sum(0), pts), hist_mean(c[i, 0].sum(0), pts)
            d = _diff_ci(start, other)
            if start["n"] and other["n"]:
                diffs.append((d[0], (d[2] - d[1]) / (2 * Z95)))
            e_start, e_other = rate(c[i, 1, 1].sum(), start["n"]), rate(c[i, 0, 1].sum(), other["n"])
            rows.append({"seat": int(seat), "bot": ctx["seat_bot"].get(int(seat), ""),
                         "races": int(start["n"] + other["n"]), "races_started": int(start["n"]),
                         "starting_points": start["mean"], "starting_low": start["low"], "starting_high": start["high"],
                         "other_points": other["mean"], "other_low": other["low"], "other_high": other["high"],
                         "difference": d[0], "difference_low": d[1], "difference_high": d[2],
                         "ended_starting": e_start["rate"], "ended_other": e_other["rate"]})
        if len(diffs) > 1:  # the mean of the seats' differences
            mean = float(np.mean([x for x, _ in diffs]))
            half = Z95 * float(np.sqrt(np.sum([se ** 2 for _, se in diffs]))) / len(diffs)
            started = c[:, 1].sum(axis=(1, 2)).sum()
            rows.append({"seat": ALL, "bot": "", "races": int(c.sum()), "races_started": int(started),
                         "difference": mean, "difference_low": mean - half, "difference_high": mean + half,
                         "ended_starting": rate(c[:, 1, 1].sum(), started)["rate"],
                         "ended_other": rate(c[:, 0, 1].sum(), c[:, 0].sum())["rate"]})
        rows = [{k: np.asarray(v).item() if isinstance(v, (np.ndarray, np.generic)) else v for k, v in r.items()}
                for r in rows]
        return pd.DataFrame(rows, columns=FIRST_BY_SEAT_COLUMNS)

    def _pigs(self) -> pd.DataFrame:
        R = self.n_races
        masks = self.h_winners.values("mask")
        per_mask = self.h_winners.marginal("mask")
        pigs = np.arange(len(PIGS))
        among = (masks[:, None] >> pigs[None, :]) & 1 if masks.size else np.zeros((0, len(PIGS)), np.int64)
        sole = among * (among.sum(axis=1, keepdims=True) == 1)
        wins = (per_mask[:, None] * among).sum(0) if masks.size else np.zeros(len(PIGS), np.int64)
        sole_wins = (per_mask[:, None] * sole).sum(0) if masks.size else np.zeros(len(PIGS), np.int64)
        crowns = self.h_crown.take(pig=pigs)
        r, rs, rc = rate(wins, R), rate(sole_wins, R), rate(crowns, R)
        pos = hist_mean(self.h_pos.take(pig=pigs), self.h_pos.values("space"))
        return frame({"pig": list(PIGS), "wins": wins, "win_share": r["rate"], "win_low": r["low"],
                      "win_high": r["high"], "sole_wins": sole_wins, "sole_win_share": rs["rate"],
                      "shared_wins": wins - sole_wins, "crowns": crowns, "crown_share": rc["rate"],
                      "crown_low": rc["low"], "crown_high": rc["high"], "mean_space": pos["mean"],
                      "space_low": pos["low"], "space_high": pos["high"]})

    def _race_length(self) -> pd.DataFrame:
        c, v = self.h_turns.marginal("turns"), self.h_turns.values("turns")
        R = max(self.n_races, 1)
        return frame({"turns": v, "races": c, "share": c / R, "cumulative_share": np.cumsum(c) / R})

    def _points(self, ctx) -> pd.DataFrame:
        """Race points by source, per bot and overall."""
        ex = self.outcomes.extras
        bots = self._bot_order(ctx)
        labels = self.outcomes.bots.labels
        per = {s: (ex[s].take(bot=bots).sum(axis=1), ex[s].values("value")) for s in SOURCES}  # [bot, value]
        present = [i for i in range(len(bots)) if per["race"][0][i].sum() > 0]
        groups = [(ALL, slice(None))] + ([(labels[bots[i]], [i]) for i in present] if len(present) > 1 else [])
        rows = []
        for label, sel in groups:
            total = hist_mean(np.atleast_2d(per["race"][0][sel]).sum(0), per["race"][1])
            for s in SOURCES:
                counts, vals = per[s]
                h = np.atleast_2d(counts[sel]).sum(0) if counts.size else np.zeros(0, np.int64)
                m = hist_mean(h, vals)
                scoring = rate(int(h[vals > 0].sum()) if h.size else 0, int(m["n"]))
                with np.errstate(divide="ignore", invalid="ignore"):
                    share = m["mean"] / total["mean"] if total["mean"] else np.nan
                rows.append({"bot": label, "source": s, "player_races": int(m["n"]), "mean": float(m["mean"]),
                             "low": float(m["low"]), "high": float(m["high"]),
                             "share_of_race_points": float(share), "scoring_share": float(scoring["rate"]),
                             "scoring_low": float(scoring["low"]), "scoring_high": float(scoring["high"])})
        return pd.DataFrame(rows, columns=POINTS_COLUMNS)


def _switch_stats(sw: np.ndarray) -> dict:
    """Changes ([to_won, from_won] counts): how often the new pig and the one left won,
    and the difference paired by change (mean of won(new) - won(left), 95% t interval)."""
    n = int(sw.sum())
    gain_, lose = int(sw[1, 0]), int(sw[0, 1])  # the new pig won and the old did not / the reverse
    to_won, from_won = int(sw[1].sum()), int(sw[:, 1].sum())
    d = (gain_ - lose) / n if n else np.nan
    low = high = np.nan
    if n > 1:
        sd = np.sqrt(max(gain_ + lose - n * d * d, 0.0) / (n - 1))
        low, high = mean_ci(d, sd, n)
    return {"changes": n, "new_pig_won": to_won / n if n else np.nan,
            "left_pig_won": from_won / n if n else np.nan, "switch_gain": d, "switch_low": float(low),
            "switch_high": float(high)}


def _diff_ci(a: dict, b: dict) -> tuple:
    """Difference of two independent means (``hist_mean`` results) with its 95%
    normal interval: ``(difference, low, high)``."""
    d = a["mean"] - b["mean"]
    with np.errstate(divide="ignore", invalid="ignore"):
        half = Z95 * np.sqrt(a["sd"] ** 2 / a["n"] + b["sd"] ** 2 / b["n"])
    return d, d - half, d + half


def _first_diff_stats(diff: Hist, races) -> dict:
    """Mean (95% interval) over races of the starting seat's race points minus
    the other seats' mean, from counts of ``players * first - all points``
    (= (players - 1) * difference) per player count and race number."""
    values = diff.values("diff")
    n = s1 = s2 = 0.0
    if values.size:
        c = diff.counts if races is None else diff.take(race=races)
        c = c.sum(axis=1)  # [players, diff]
        for p, row in zip(diff.values("players"), c):
            if p < 2 or not row.sum():
                continue
            n += row.sum()
            s1 += (row * values).sum() / (p - 1)
            s2 += (row * values * values).sum() / (p - 1) ** 2
    return {"n": int(n), **mean_sd_ci(n, s1, s2)}


def _bot_more(cells, pick) -> dict:
    """Sau Mau Mau's own columns of the bots and seats tables (per race)."""
    counts, vals = cells["bet"]
    h = pick(counts)
    n = h.sum(-1)
    r = rate((h * (vals > 0)).sum(-1), n)
    return {"races_played": n, "bet_scored": r["rate"], "bet_scored_low": r["low"], "bet_scored_high": r["high"]}


BOT_COLUMNS = SeatOutcomes("games", PLAYER_EXTRAS).bot_columns(
    ["races_played", "bet_scored", "bet_scored_low", "bet_scored_high"])
BET_CHANGE_COLUMNS = ["bot"] + [f"{k}_{c}" for k in ("first", "changed") for c in
                                ("bets", "win_share", "win_low", "win_high", "points", "points_low", "points_high")] \
    + ["difference", "difference_low", "difference_high", "first_changed_away", "changes", "new_pig_won",
       "left_pig_won", "switch_gain", "switch_low", "switch_high"]
FIRST_PLAYER_COLUMNS = ["race", "races", "first_points", "first_points_low", "first_points_high", "others_points",
                        "advantage", "advantage_low", "advantage_high", "ended_by_first", "ended_by_first_low",
                        "ended_by_first_high", "confounded"]
FIRST_BY_SEAT_COLUMNS = ["seat", "bot", "races", "races_started", "starting_points", "starting_low", "starting_high",
                         "other_points", "other_low", "other_high", "difference", "difference_low", "difference_high",
                         "ended_starting", "ended_other"]
POINTS_COLUMNS = ["bot", "source", "player_races", "mean", "low", "high", "share_of_race_points",
                  "scoring_share", "scoring_low", "scoring_high"]

TABLE_DOCS = {
    "flow": "game flow: lead changes per race, share of the race played before the winner led for "
            "good, comebacks (the winner not leading at the half), no single winner, length; the standing is "
            "defined in docs/sau-mau-mau.md",
    "overview": "headline numbers: games, races, race length, how races end, shared pig wins, races whose "
                "winning pig nobody backed, queue length, reshuffles, first-player advantage in race points, "
                "shared game wins, score (game total) mean and spread, share of score variance explained by the bot",
    "bots": "per bot (all its seats): game win rate (95% Wilson), mean game total (95% normal interval) and "
            "sd; per race: mean race points split into bet, crown and hand points, bets placed and changed, "
            "share of races its bet scored",
    "seats": "per (seat, bot): the same as bots; 'confounded' is true when seats run different bots",
    "seat_advantage": "per seat: game win rate minus the average seat's, paired by game (95% interval); "
                      "races_started: races per game the seat starts",
    "luck_skill": "each heuristic bot (and all pooled) against the random bot: difference of game win rates "
                  "per seat, paired by game (95% interval)",
    "win_patterns": "per set of winning seats (mask: bit s-1 for seat s): how many units ended so; "
                    "the seat tests (Cochran's Q) read it",
    "score_distribution": f"per bot and overall: mean, sd and quantiles of the game total ({SCORE_COUNT}: the "
                          "player-games counted; the column name is shared with the other games' tables)",
    "queue_position": "per bet-queue position, overall and per bot: bets, share on a winning pig (95% Wilson "
                      "interval clustered by game), mean points (95% interval), mean points of a winning bet, "
                      "share of changed bets",
    "bet_stage": "every bet card laid (a first bet later changed away included, with the 0 points it paid), by "
                 "the share of the race's turns made when laid (all / first bets / changed bets): "
                 "share on a winning pig and mean points",
    "bet_turn": "the same by the race turn the bet was laid",
    "bet_changes": "every first bet against every changed bet laid, overall and per bot: share on a winning pig, "
                   "mean points (95% intervals), the difference changed minus first (unpaired, 95% interval), the "
                   "share of first bets later changed away; and per change, how often the new pig and the pig "
                   "left won, with the difference paired by change (95% t interval)",
    "ends_by_players": "how races end (crown / hand / both at once / safety cap) per player count (95% Wilson)",
    "ends_by_race": "the same per race number of the game (1-4 in the box)",
    "first_player": "per race number and overall: race points of the seat that started the race, the other "
                    "seats' mean, the difference paired by race (95% interval), share of races the starter ended; "
                    "'confounded': seats run different bots, so the starter of race r (seat r) brings its bot along",
    "first_player_by_seat": "per seat: its race points in the races it starts against its own race points in the "
                            "others (unpaired, 95% interval; free of bot strength), share of races it ends starting "
                            "or not; 'all': the seats' mean difference",
    "pigs": "per pig: share of races it is among the winners (95% Wilson), sole and shared wins, share of "
            "races it reached the crown, mean final space",
    "race_length": "histogram of race length in player turns (skipped turns included)",
    "points": "race points by source (bet / crown / hand; race = all), overall and per bot: mean per race "
              "(95% interval), share of the race points, share of races scoring any",
}
