"""Balance statistics of Lemming Mafia runs, aggregated chunk by chunk.

``LemmingMafiaStats.add(tables)`` takes one chunk's tables (any subset of
races / players / contracts / bets / fields, as built by
``LemmingMafiaMatch.tables_of`` and ``fields_table`` or read from a run's Parquet
files), ``merge(other)`` adds another accumulator, ``result()`` returns the report
tables. Only integer histograms are kept (their size depends on the board, the
deck and the number of seats, never on the number of races), so adding a table
whole or in any chunks gives exactly the same result.

Notes on definitions:
- A player's wins count shared wins (each tied player is a winner), so win rates
  of all seats may add up to a little more than 1.
- "Never backed": the player has no card of the winning colour on the stack,
  i.e. ``bet_points == 0`` (a placed winner's card pays its stack position,
  1-6, under the box's rules), which is the same as joining ``races.winner`` on
  the race. Under a rule ``bet_points`` with a 0 entry, a winner's card placed
  there counts as not backed (it scored nothing).
- Race stage of a bet: the share of the race's moves made before the card went
  down, ``(turn - 1) / race_turns``, in ``stage_bins`` equal bins. It uses the
  race's final length, so it is hindsight a player does not have at the table.
- A contract's counterfactual payoff is what it pays when held to the end:
  its points if fulfilled, else what an unfulfilled card scores (-2 under the
  box's rules, the rule ``unfulfilled_contract``: read from the rows, the
  payoff of the cards held and not fulfilled; ``fulfilled`` is known for every
  card). The gain of discarding a card is minus that.
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from analyzer.games.lemming_mafia.layout import COLORS
from analyzer.stats.aggregate import (
    GroupRows, Hist, Labels, add_tables, bools, frame, hist_mean, ints, rate,
)
from analyzer.stats.flow import FLOW_COLUMNS, FlowStats
from analyzer.stats.intervals import clustered_rate, clustered_ratio_ci
from analyzer.stats.outcomes import ALL, SeatOutcomes

STAGE_BINS = 10
# per-player quantities besides score and win: (histogram, column label, with interval)
PLAYER_EXTRAS = (("bet", "bet_points", True), ("contract", "contract_points", True),
                 ("placed", "bets_placed", False), ("discarded", "contracts_discarded", False))

# columns each table must have (the report reads only these)
COLUMNS = {
    "races": ["winner", "turns", "eliminated", "finish", "winner_concrete", "tiebreak", "winners", *FLOW_COLUMNS]
             + [f"place_{c}" for c in COLORS] + [f"concrete_{c}" for c in COLORS],
    "players": ["race", "seat", "bot", "bet_points", "contract_points", "score", "bets_placed",
                "contracts_discarded", "won"],
    "contracts": ["race", "seat", "card", "kind", "colors", "points", "discarded", "fulfilled", "payoff"],
    "bets": ["seat", "order", "turn", "race_turns", "track_place", "paid"],
    "fields": ["field", "section", "action", "landings", "triggers"],
}


# index columns: several runs fed to one aggregator get them offset (see report.aggregate_run)
ID_COLUMNS = ("race",)


def new_stats(**options) -> "LemmingMafiaStats":
    return LemmingMafiaStats(**options)


def expected_rows(manifest: dict) -> tuple[str, int]:
    """The table whose row count a complete run directory must match: a row per race."""
    return "races", int(manifest.get("races", -1))


class LemmingMafiaStats:
    """Chunked balance statistics; see the module docstring."""

    def __init__(self, stage_bins: int = STAGE_BINS):
        if stage_bins < 1:
            raise ValueError("stage_bins must be at least 1")
        self.stage_bins = stage_bins
        self.colors = Labels(COLORS)
        self.finishes = Labels(("water", "last_standing"))
        # races
        self.n_races = 0
        self.h_turns = Hist(("turns",))
        self.h_elim = Hist(("eliminated",))
        self.h_finish = Hist(("finish",))
        self.h_winner = Hist(("color", "concrete"))
        self.h_tiebreak = Hist(("tiebreak",))
        self.h_winners = Hist(("winners",))
        self.h_place = Hist(("color", "place"))
        self.h_concrete = Hist(("color", "concrete"))
        # players: per (bot, seat) outcomes of a race, and per race who won / backed the winner
        self.outcomes = SeatOutcomes("races", PLAYER_EXTRAS, flags=("backed",))
        self.flow = FlowStats()  # lead changes, decisiveness, comebacks of the lemmings' race
        # contracts: card -> (kind, colors, points), from the rows
        self.cards: dict[int, tuple[str, str, int]] = {}
        self.h_contracts = Hist(("seat", "card", "discarded", "fulfilled", "payoff"))
        # per contract (kind, colours, points), for race-clustered intervals of the per-card
        # shares and payoff means (a race deals one contract's cards twice or more): the races
        # holding its cards, by which seats held them (PATTERNS: per subset of the cards, a
        # race counts under the bit mask of those seats), so that any set of seats (a bot's)
        # finds its races; per seat the sums of its per-race counts (SEAT_SUMS), and per pair
        # of seats the sums over races of their products (PAIR_SUMS): a set of seats' per-race
        # total squared is the sum over its pairs
        self.contract_labels = Labels()
        self.h_contract_patterns = Hist(("contract", "subset", "pattern"))
        self.h_contract_seats = Hist(("contract", "sum", "seat"))
        self.h_contract_pairs = Hist(("contract", "sum", "seat", "other"))
        self.contract_rows = GroupRows("race")  # rows of races a chunk edge may have cut
        # bets
        self.h_bets = Hist(("seat", "order", "place", "stage", "paid"))
        self.h_bet_turn = Hist(("seat", "turn", "paid"))
        # fields: field -> (section, action); landings / triggers summed
        self.field_info: dict[int, tuple[int, str]] = {}
        self.field_counts = Hist(("field", "what"))  # what: 0 landings, 1 triggers (weighted)

    # ------------------------------------------------------------------ adding

    def add(self, tables: Mapping[str, pd.DataFrame]) -> None:
        """Add one chunk: any of the tables races, players, contracts, bets, fields."""
        add_tables(self, COLUMNS, tables)

    def _add_races(self, df: pd.DataFrame) -> None:
        n = len(df)
        self.n_races += n
        self.h_turns.add(ints(df, "turns"))
        self.flow.add(df)
        self.h_elim.add(ints(df, "eliminated"))
        self.h_finish.add(self.finishes.codes(df["finish"]))
        self.h_winner.add(self.colors.codes(df["winner"]), ints(df, "winner_concrete"))
        self.h_tiebreak.add(bools(df, "tiebreak"))
        self.h_winners.add(ints(df, "winners"))
        colors = np.repeat(np.arange(len(COLORS), dtype=np.int64), n)
        self.h_place.add(colors, np.concatenate([ints(df, f"place_{c}") for c in COLORS]))
        self.h_concrete.add(colors, np.concatenate([ints(df, f"concrete_{c}") for c in COLORS]))

    def _add_players(self, df: pd.DataFrame) -> None:
        out = self.outcomes
        bot = out.bot_codes(df["bot"])
        seat = ints(df, "seat")
        bet = ints(df, "bet_points")
        out.add(ints(df, "race"), seat, bot, ints(df, "score"), bools(df, "won"), {"backed": bet > 0})
        out.add_extras(bot, seat, {"bet": bet, "contract": ints(df, "contract_points"),
                                   "placed": ints(df, "bets_placed"),
                                   "discarded": ints(df, "contracts_discarded")})

    def _add_contracts(self, df: pd.DataFrame) -> None:
        card = ints(df, "card")
        present = np.flatnonzero(np.bincount(card - card.min()) > 0) + card.min()
        new = [int(c) for c in present if int(c) not in self.cards]
        if new:
            first = pd.Series(np.arange(len(card))).groupby(card).first()
            for c in new:
                row = df.iloc[int(first[c])]
                self.cards[c] = (str(row["kind"]), str(row["colors"]), int(row["points"]))
        self.h_contracts.add(ints(df, "seat"), card, bools(df, "discarded"),
                             bools(df, "fulfilled"), ints(df, "payoff"))
        self._count_contract_races(self.contract_rows.add(
            pd.DataFrame({"race": ints(df, "race"), "seat": ints(df, "seat"), "card": card,
                          "f": bools(df, "fulfilled"), "d": bools(df, "discarded")})),
            self.h_contract_patterns, self.h_contract_seats, self.h_contract_pairs)

    def _count_contract_races(self, rows: pd.DataFrame, patterns: Hist, seats: Hist, pairs: Hist) -> None:
        """Per contract and race (whole races only): which seats held cards of each subset
        (PATTERNS) into ``patterns``; the per-race counts of cards (SEAT_SUMS: dealt n,
        fulfilled f, discarded d, discarded and fulfilled g, kept m, kept and fulfilled k)
        per seat into ``seats`` and their products per pair of seats into ``pairs`` (PAIR_SUMS).

        Counted over rows and pairs of rows, not per group: with the rows ordered by
        contract and race, a group (one contract in one race) is a run of rows, and
        ``sum_g n_gs n_gt`` is the number of ordered pairs of rows (i, j) of one group
        with seats (s, t), a row with itself included (``f_gs n_gt``: those with i
        fulfilled, ...). The pairs i != j are found offset by offset (a contract has a
        few cards: a group a few rows). The cluster sums are the pair sums over all seats
        (``sum_g n_g^2``, ...). All integers: the same counts as one pass per group."""
        if rows is None or not len(rows):
            return
        label = self._label_codes(rows["card"].to_numpy(np.int64))
        race = rows["race"].to_numpy(np.int64)
        seat = rows["seat"].to_numpy(np.int64)
        f, d = rows["f"].to_numpy(bool), rows["d"].to_numpy(bool)
        order = np.argsort(race, kind="stable") if (race[1:] < race[:-1]).any() else None
        if order is not None:  # not in race order (rows of merged accumulators): sort them first
            label, race, seat, f, d = label[order], race[order], seat[order], f[order], d[order]
        order = np.argsort(label.astype(np.int16), kind="stable")  # by contract, races in order
        label, race, seat, f, d = label[order], race[order], seat[order], f[order], d[order]
        width, n_labels = int(seat.max()) + 1, int(label.max()) + 1
        cells = n_labels * width * width
        at = label * (width * width)
        # ordered pairs (i, j) of one group: first each row with itself, then i != j both ways
        pair_i, pair_j = [np.arange(len(label))], [np.arange(len(label))]
        for offset in range(1, len(label)):
            same = np.flatnonzero((label[offset:] == label[:-offset]) & (race[offset:] == race[:-offset]))
            if not same.size:
                break  # groups are runs: no pair this far apart, none further
            i, j = same, same + offset
            pair_i += [i, j]
            pair_j += [j, i]
        i, j = np.concatenate(pair_i), np.concatenate(pair_j)
        cell = at[i] + seat[i] * width + seat[j]

        def count(mask=None):
            return np.bincount(cell if mask is None else cell[mask], minlength=cells).reshape(
                n_labels, width, width)

        unit = {"n": np.ones(len(label), bool), "f": f, "d": d, "g": f & d, "m": ~d, "k": f & ~d}
        pair = np.stack([count(unit[a][i] & unit[b][j]) for a, b in PAIR_SUMS],
                        axis=1)  # [contract, PAIR_SUMS, seat, seat]
        by_seat = label * width + seat
        seat_sums = np.stack([np.bincount(by_seat[unit[x]], minlength=n_labels * width).reshape(n_labels, width)
                              for x in SEAT_SUMS], axis=1)  # [contract, SEAT_SUMS, seat]
        starts = np.flatnonzero(np.r_[True, (label[1:] != label[:-1]) | (race[1:] != race[:-1])])  # groups
        bits = np.left_shift(1, seat)
        held = np.stack([np.bitwise_or.reduceat(bits * unit[x], starts) for _, x in PATTERNS])  # [subset, group]
        for k in range(len(PATTERNS)):
            some = held[k] > 0
            patterns.add(label[starts][some], np.full(int(some.sum()), k), held[k][some])
        ids = np.flatnonzero(np.bincount(label, minlength=n_labels))  # the contracts in these rows
        seat_ids = np.arange(width)
        seats.add_counts(seat_sums[ids], [ids, np.arange(len(SEAT_SUMS)), seat_ids])
        pairs.add_counts(pair[ids], [ids, np.arange(len(PAIR_SUMS)), seat_ids, seat_ids])

    def _label_codes(self, card: np.ndarray) -> np.ndarray:
        """The contract (``contract_labels`` code) of each card; a new contract is
        registered in the order its first card comes in the rows."""
        present = np.flatnonzero(np.bincount(card - card.min())) + card.min()
        names = {int(c): _contract_name(*self.cards[int(c)][:2]) for c in present}
        if any(name not in self.contract_labels._code for name in names.values()):
            _, first = np.unique(card, return_index=True)
            for c in card[np.sort(first)]:  # first-seen order
                self.contract_labels.code_of(names[int(c)])
        lut = np.zeros(int(present[-1] - present[0]) + 1, np.int64)
        for c, name in names.items():
            lut[c - present[0]] = self.contract_labels.code_of(name)
        return lut[card - present[0]]

    def _add_bets(self, df: pd.DataFrame) -> None:
        turn = ints(df, "turn")
        length = np.maximum(ints(df, "race_turns"), 1)
        stage = np.clip((turn - 1) * self.stage_bins // length, 0, self.stage_bins - 1)
        seat, paid = ints(df, "seat"), ints(df, "paid")
        self.h_bets.add(seat, ints(df, "order"), ints(df, "track_place"), stage, paid)
        self.h_bet_turn.add(seat, turn, paid)

    def _add_fields(self, df: pd.DataFrame) -> None:
        field = ints(df, "field")
        for f, s, a in zip(field, ints(df, "section"), df["action"].astype(str)):
            self.field_info.setdefault(int(f), (int(s), a))
        # weighted sums as counts: add the per-field totals as one block
        order = np.argsort(field, kind="stable")
        ids, starts = np.unique(field[order], return_index=True)
        sums = np.stack([np.add.reduceat(ints(df, col)[order], starts)
                         for col in ("landings", "triggers")], axis=1)
        self.field_counts.add_counts(sums, [ids, np.arange(2)])

    # ------------------------------------------------------------------ merging

    def merge(self, other: "LemmingMafiaStats") -> "LemmingMafiaStats":
        """Add another accumulator's counts to this one (returns self)."""
        if other.stage_bins != self.stage_bins:
            raise ValueError("cannot merge stats with different stage_bins")
        colors = {"color": self.colors.remap(other.colors)}
        finishes = {"finish": self.finishes.remap(other.finishes)}
        self.n_races += other.n_races
        for name in ("h_turns", "h_elim", "h_tiebreak", "h_winners", "h_contracts", "h_bets",
                     "h_bet_turn", "field_counts"):
            getattr(self, name).merge(getattr(other, name))
        contract = {"contract": self.contract_labels.remap(other.contract_labels)}
        self.h_contract_patterns.merge(other.h_contract_patterns, contract)
        self.h_contract_seats.merge(other.h_contract_seats, contract)
        self.h_contract_pairs.merge(other.h_contract_pairs, contract)
        self.contract_rows.merge(other.contract_rows)
        self.h_finish.merge(other.h_finish, finishes)
        for name in ("h_winner", "h_place", "h_concrete"):
            getattr(self, name).merge(getattr(other, name), colors)
        self.outcomes.merge(other.outcomes)
        self.flow.merge(other.flow)
        for c, info in other.cards.items():
            self.cards.setdefault(c, info)
        for f, info in other.field_info.items():
            self.field_info.setdefault(f, info)
        return self

    def nbytes(self) -> int:
        """Memory held by the counts (does not grow with the number of races)."""
        return (sum(h.nbytes() for h in vars(self).values() if isinstance(h, Hist)) + self.outcomes.nbytes()
                + self.contract_rows.nbytes() + self.flow.nbytes())

    # ------------------------------------------------------------------ results

    @property
    def races(self) -> int:
        return self.n_races

    def result(self) -> dict[str, pd.DataFrame]:
        """The report tables (see ``TABLE_DOCS``)."""
        ctx = self.outcomes.context()
        out = {}
        out["overview"] = self._overview(ctx)
        out.update(self.outcomes.tables(ctx, _BOT_COLUMNS, _never_backed,
                                        clustered=(("never_backed", "backed", True),)))
        out["bet_stage"] = self._bet_timing("stage", ctx)
        out["bet_turn"] = self._bet_timing("turn", ctx)
        out["bet_heatmap"] = self._bet_heatmap()
        out["stack_position"] = self._stack_position(ctx)
        out["contracts"], out["contracts_by_bot"] = self._contracts(ctx)
        out["race_length"] = self._race_length()
        out["eliminations"] = self._eliminations()
        out["finish"] = self._finish()
        out["lemmings"] = self._lemmings()
        out["winner_concrete"] = self._winner_concrete()
        out["fields"] = self._fields()
        out["flow"] = self.flow.result()
        return out

    def _overview(self, ctx) -> pd.DataFrame:
        rows = []

        def add(metric, value, low=np.nan, high=np.nan, n=np.nan):
            rows.append({"metric": metric, "value": float(value), "low": float(low),
                         "high": float(high), "n": float(n)})

        R = self.n_races
        add("races", R, n=R)
        add("players", ctx["players"])
        tb = self.h_tiebreak.take(tiebreak=[1])
        r = rate(int(tb.sum()), R)
        add("tiebreak_share", r["rate"], r["low"], r["high"], R)
        w = self.h_winners.values("winners")
        shared = int((self.h_winners.counts * (w > 1)).sum()) if w.size else 0
        r = rate(shared, R)
        add("shared_win_share", r["rate"], r["low"], r["high"], R)
        m = hist_mean(self.h_turns.counts, self.h_turns.values("turns"))
        add("race_length_mean", m["mean"], m["low"], m["high"], R)
        m = hist_mean(self.h_elim.counts, self.h_elim.values("eliminated"))
        add("eliminated_mean", m["mean"], m["low"], m["high"], R)
        ls = self.h_finish.take(finish=[self.finishes.code_of("last_standing")])
        r = rate(int(ls.sum()), R)
        add("last_standing_share", r["rate"], r["low"], r["high"], R)
        wc = self.h_winner.marginal("concrete")
        m = hist_mean(wc, self.h_winner.values("concrete"))
        add("winner_concrete_mean", m["mean"], m["low"], m["high"], R)
        counts, masks = self.outcomes.patterns("backed", ctx)
        nobody = int(counts[masks == 0].sum()) if counts.size else 0
        r = rate(nobody, int(counts.sum()))
        add("winner_backed_by_nobody_share", r["rate"], r["low"], r["high"], counts.sum())
        h_bet = self.outcomes.extras["bet"]
        bet = h_bet.marginal("value")
        bv = h_bet.values("value")
        r = rate(int(bet[bv == 0].sum()) if bv.size else 0, int(bet.sum()))
        # the seats of one race are not independent: the interval is clustered by race
        cl = self.outcomes.clustered_share("backed", [int(x) for x in ctx["seats"]], ctx, invert=True)
        if np.isfinite(cl["low"]):
            r["low"], r["high"] = cl["low"], cl["high"]
        add("player_never_backed_winner_share", r["rate"], r["low"], r["high"], bet.sum())
        for row in self.outcomes.overview_rows():
            add(*row)
        return pd.DataFrame(rows, columns=["metric", "value", "low", "high", "n"])

    # bets -------------------------------------------------------------------

    @staticmethod
    def _paid_stats(counts: np.ndarray, paid: np.ndarray) -> dict:
        """From histograms over paid (last axis): cards, winner's cards and points."""
        n = counts.sum(-1)
        winner = (counts * (paid > 0)).sum(-1)
        r = rate(winner, n)
        m = hist_mean(counts, paid)
        wm = hist_mean(counts * (paid > 0), paid)
        return {"cards": n, "winner_cards": winner, "chance": r["rate"], "chance_low": r["low"],
                "chance_high": r["high"], "mean_points": m["mean"], "points_low": m["low"],
                "points_high": m["high"], "winner_card_points": wm["mean"],
                "winner_card_points_low": wm["low"], "winner_card_points_high": wm["high"]}

    def _bet_timing(self, by: str, ctx) -> pd.DataFrame:
        if by == "stage":
            h = self.h_bets
            stages = np.arange(self.stage_bins)
            counts = h.take(stage=stages).sum(axis=(0, 1, 2))  # [stage, paid]
            key = {"stage_bin": stages, "stage_from": stages / self.stage_bins,
                   "stage_to": (stages + 1) / self.stage_bins}
        else:
            h = self.h_bet_turn
            turns = h.values("turn")
            counts = h.counts.sum(axis=0) if h.counts.size else np.zeros((0, 0), np.int64)
            keep = counts.sum(-1) > 0 if counts.size else np.zeros(0, bool)
            counts, turns = counts[keep], turns[keep]
            key = {"turn": turns}
        paid = h.values("paid")
        if counts.size == 0:
            counts = np.zeros((len(next(iter(key.values()))), 1), np.int64)
            paid = np.zeros(1, np.int64)
        return frame({**key, **self._paid_stats(counts, paid)})

    def _bet_heatmap(self) -> pd.DataFrame:
        h = self.h_bets
        places = np.arange(1, len(COLORS) + 1)
        stages = np.arange(self.stage_bins)
        counts = h.take(place=places, stage=stages).sum(axis=(0, 1))  # [place, stage, paid]
        paid = h.values("paid")
        if counts.size == 0 or paid.size == 0:
            counts = np.zeros((len(places), len(stages), 1), np.int64)
            paid = np.zeros(1, np.int64)
        st = self._paid_stats(counts, paid)
        P, S = np.meshgrid(places, stages, indexing="ij")
        return frame({"track_place": P, "stage_bin": S, "stage_from": S / self.stage_bins,
                      "stage_to": (S + 1) / self.stage_bins, **st})

    def _stack_position(self, ctx) -> pd.DataFrame:
        h = self.h_bets
        orders = np.arange(1, len(COLORS) + 1)
        counts = h.take(order=orders).sum(axis=(2, 3))  # [seat, order, paid]
        paid = h.values("paid")
        if paid.size == 0:
            counts, paid = np.zeros((0, len(orders), 1), np.int64), np.zeros(1, np.int64)
        seat_vals = h.values("seat") if h.counts.size else np.zeros(0, np.int64)
        groups = [(ALL, counts.sum(axis=0) if counts.shape[0] else np.zeros((len(orders), paid.size), np.int64))]
        by_bot: dict[str, np.ndarray] = {}
        for i, s in enumerate(seat_vals):
            label = ctx["seat_bot"].get(int(s))
            if label is None:
                continue
            by_bot[label] = by_bot.get(label, 0) + counts[i]
        if len(by_bot) > 1:
            groups += [(ctx["labels"][b], by_bot[ctx["labels"][b]]) for b in ctx["bots"]
                       if ctx["labels"][b] in by_bot]
        parts = []
        for label, c in groups:
            parts.append(frame({"bot": [label] * len(orders), "order": orders, **self._paid_stats(c, paid)}))
        return pd.concat(parts, ignore_index=True)

    # contracts --------------------------------------------------------------

    def _contracts(self, ctx):
        h = self.h_contracts
        # the held-back races are complete now: count them into a copy (result() changes nothing)
        self._patterns = self.h_contract_patterns.copy()
        self._seat_sums, self._pair_sums = self.h_contract_seats.copy(), self.h_contract_pairs.copy()
        self._count_contract_races(self.contract_rows.held(), self._patterns, self._seat_sums,
                                   self._pair_sums)
        cols = ["contract", "kind", "colors", "points", "cards", "dealt", "fulfil_rate", "fulfil_low",
                "fulfil_high", "kept", "kept_payoff", "kept_payoff_low", "kept_payoff_high",
                "discarded", "discard_rate", "discard_low", "discard_high", "discarded_would_pay",
                "discarded_would_pay_low", "discarded_would_pay_high", "discard_gain",
                "discard_gain_low", "discard_gain_high", "hold_value", "hold_value_low",
                "hold_value_high"]
        if not self.cards or h.counts.size == 0:
            return pd.DataFrame(columns=cols), pd.DataFrame(columns=["bot"] + cols)
        cards = np.array(sorted(self.cards), np.int64)
        # [seat, card, discarded, fulfilled, payoff]
        counts = h.take(card=cards, discarded=[0, 1], fulfilled=[0, 1])
        labels = {}
        for i, c in enumerate(cards):
            kind, colors, pts = self.cards[int(c)]
            labels.setdefault((kind, colors, pts), []).append(i)

        def rows_for(block, seats):  # block: [card, discarded, fulfilled, payoff]; seats: whose cards
            out = []
            for (kind, colors, pts), idx in labels.items():
                b = block[idx].sum(axis=0)  # [discarded, fulfilled, payoff]
                dealt = int(b.sum())
                cell = b.sum(axis=2)  # [discarded, fulfilled]
                fulfilled = int(cell[:, 1].sum())
                kept = int(cell[0].sum())
                discarded = int(cell[1].sum())
                name = _contract_name(kind, colors)
                # the cards of one contract dealt in one race are not independent: every
                # interval is clustered by race (the rates Wilson-like, the payoff means t)
                sums = self._race_sums(name, seats)
                fr = self._clustered_share(rate(fulfilled, dealt), sums, "f", "n")
                dr = self._clustered_share(rate(discarded, dealt), sums, "d", "n")
                # a kept card pays its points, or what an unfulfilled one scores
                kp = self._payoff_mean(sums, "k", "m", pts, self._unfulfilled)
                dw = self._payoff_mean(sums, "g", "d", pts, self._unfulfilled)
                hv = self._payoff_mean(sums, "f", "n", pts, self._unfulfilled)
                out.append({
                    "contract": name, "kind": kind, "colors": colors, "points": pts, "cards": len(idx),
                    "dealt": dealt, "fulfil_rate": fr["rate"], "fulfil_low": fr["low"],
                    "fulfil_high": fr["high"], "kept": kept, "kept_payoff": kp["mean"],
                    "kept_payoff_low": kp["low"], "kept_payoff_high": kp["high"],
                    "discarded": discarded, "discard_rate": dr["rate"], "discard_low": dr["low"],
                    "discard_high": dr["high"], "discarded_would_pay": dw["mean"],
                    "discarded_would_pay_low": dw["low"], "discarded_would_pay_high": dw["high"],
                    "discard_gain": -dw["mean"], "discard_gain_low": -dw["high"],
                    "discard_gain_high": -dw["low"], "hold_value": hv["mean"],
                    "hold_value_low": hv["low"], "hold_value_high": hv["high"]})
            return [{k: (np.asarray(v).item() if isinstance(v, np.ndarray) else v) for k, v in r.items()}
                    for r in out]

        self._unfulfilled = self.unfulfilled_payoff()
        seat_vals = h.values("seat")
        overall = pd.DataFrame(rows_for(counts.sum(axis=0), [int(s) for s in seat_vals]), columns=cols)
        by_bot = []
        for b in ctx["bots"]:
            label = ctx["labels"][b]
            sel = [i for i, s in enumerate(seat_vals) if ctx["seat_bot"].get(int(s)) == label]
            if sel:
                by_bot += [{"bot": label, **r} for r in rows_for(counts[sel].sum(axis=0),
                                                                 [int(seat_vals[i]) for i in sel])]
        return overall, pd.DataFrame(by_bot, columns=["bot"] + cols)

    def _race_sums(self, name: str, seats: list[int]) -> dict | None:
        """The per-race sums of a contract's cards dealt to ``seats`` (a race's total over
        those seats, squared, is the sum over its pairs of seats): ``SEAT_SUMS`` and
        ``PAIR_SUMS`` by name, and ``races[subset]``: the races where those seats held
        cards of the subset (PATTERNS), the clusters of its intervals. None if unknown."""
        code = self.contract_labels._code.get(name)
        if code is None:
            return None
        lin = dict(zip(SEAT_SUMS, self._seat_sums.take(contract=[code], sum=np.arange(len(SEAT_SUMS)),
                                                        seat=seats)[0].sum(axis=-1)))
        pair = dict(zip(PAIR_SUMS, self._pair_sums.take(contract=[code], sum=np.arange(len(PAIR_SUMS)), seat=seats,
                                                        other=seats)[0].sum(axis=(-2, -1))))
        mask = int(sum(1 << s for s in seats))
        values = self._patterns.values("pattern")
        held = self._patterns.take(contract=[code], subset=np.arange(len(PATTERNS)))[0]  # [subset, pattern]
        races = {unit: int(held[k][(values & mask) > 0].sum()) for k, (_, unit) in enumerate(PATTERNS)}
        return {**lin, **{"".join(k): v for k, v in pair.items()}, "races": races}

    @staticmethod
    def _clustered_share(plain: dict, sums: dict | None, y: str, n: str) -> dict:
        """``plain`` (a ``rate``: ``y`` of the ``n`` cards) with its interval clustered by race."""
        if sums is None:
            return plain
        _, low, high = clustered_rate(sums["races"][n], sums[y], sums[n], sums[y + y], sums[n + n], sums[y + n])
        return {"rate": plain["rate"], "low": low, "high": high}

    def unfulfilled_payoff(self) -> float:
        """What a contract held to the end and not fulfilled scored in these races
        (the rule ``unfulfilled_contract``), read from the rows: one value, as
        runs under different rules are never merged; NaN if no such card was seen."""
        h = self.h_contracts
        if h.counts.size == 0:
            return np.nan
        cells = h.take(discarded=[0], fulfilled=[0]).sum(axis=(0, 1, 2, 3))  # by payoff
        seen = h.values("payoff")[cells > 0]
        if len(seen) > 1:
            raise ValueError(f"the contracts rows hold unfulfilled cards scoring {sorted(set(seen.tolist()))}: "
                             "runs under different rules cannot be added up")
        return float(seen[0]) if len(seen) else np.nan

    @staticmethod
    def _payoff_mean(sums: dict | None, y: str, n: str, points: int, unfulfilled: float) -> dict:
        """The mean payoff of the ``n`` cards were they held to the end (``points`` if
        fulfilled: the ``y`` of them, else ``unfulfilled``), with its race-clustered t
        interval."""
        nan = {"mean": np.nan, "low": np.nan, "high": np.nan}
        if sums is None or not sums[n]:
            return nan
        p, low, high = clustered_ratio_ci(sums["races"][n], sums[y], sums[n], sums[y + y], sums[n + n], sums[y + n])
        if np.isnan(unfulfilled):  # no card held and not fulfilled anywhere: known only if every card was
            return {"mean": float(points), "low": float(points), "high": float(points)} if p == 1.0 else nan
        a, b = unfulfilled, points - unfulfilled
        ends = sorted((a + b * low, a + b * high))
        return {"mean": a + b * p, "low": ends[0], "high": ends[1]}

    # race -------------------------------------------------------------------

    def _race_length(self) -> pd.DataFrame:
        c, v = self.h_turns.counts, self.h_turns.values("turns")
        R = max(self.n_races, 1)
        return frame({"turns": v, "races": c, "share": c / R, "cumulative_share": np.cumsum(c) / R})

    def _eliminations(self) -> pd.DataFrame:
        v = np.arange(0, max(len(COLORS), int(self.h_elim.values("eliminated").max(initial=0)) + 1))
        c = self.h_elim.take(eliminated=v)
        r = rate(c, self.n_races)
        return frame({"eliminated": v, "races": c, "share": r["rate"], "low": r["low"], "high": r["high"]})

    def _finish(self) -> pd.DataFrame:
        codes = np.arange(len(self.finishes))
        c = self.h_finish.take(finish=codes)
        r = rate(c, self.n_races)
        return frame({"finish": list(self.finishes.labels), "races": c, "share": r["rate"],
                      "low": r["low"], "high": r["high"]})

    def _lemmings(self) -> pd.DataFrame:
        codes = np.arange(len(self.colors))
        wins_hist = self.h_winner.take(color=codes)  # [color, concrete]
        wins = wins_hist.sum(axis=1)
        r = rate(wins, self.n_races)
        wc = hist_mean(wins_hist, self.h_winner.values("concrete"))
        place = hist_mean(self.h_place.take(color=codes), self.h_place.values("place"))
        conc = hist_mean(self.h_concrete.take(color=codes), self.h_concrete.values("concrete"))
        return frame({"color": list(self.colors.labels), "wins": wins, "win_rate": r["rate"],
                      "win_low": r["low"], "win_high": r["high"], "mean_place": place["mean"],
                      "mean_place_low": place["low"], "mean_place_high": place["high"],
                      "mean_concrete_at_end": conc["mean"], "winner_concrete_mean": wc["mean"]})

    def _winner_concrete(self) -> pd.DataFrame:
        codes = np.arange(len(self.colors))
        blocks = np.arange(0, max(3, int(self.h_winner.values("concrete").max(initial=0)) + 1))
        c = self.h_winner.take(color=codes, concrete=blocks)  # [color, blocks]
        parts = []
        for label, row in [(ALL, c.sum(axis=0))] + list(zip(self.colors.labels, c)):
            r = rate(row, row.sum())
            parts.append(frame({"color": [label] * len(blocks), "blocks": blocks, "races": row,
                                "share": r["rate"], "low": r["low"], "high": r["high"]}))
        return pd.concat(parts, ignore_index=True)

    def _fields(self) -> pd.DataFrame:
        cols = ["field", "section", "action", "landings", "triggers", "landing_rate", "trigger_rate",
                "trigger_share"]
        if not self.field_info:
            return pd.DataFrame(columns=cols)
        fields = np.array(sorted(self.field_info), np.int64)
        c = self.field_counts.take(field=fields, what=[0, 1])
        R = self.n_races
        with np.errstate(divide="ignore", invalid="ignore"):
            return frame({"field": fields, "section": [self.field_info[int(f)][0] for f in fields],
                          "action": [self.field_info[int(f)][1] for f in fields],
                          "landings": c[:, 0], "triggers": c[:, 1],
                          "landing_rate": c[:, 0] / R if R else np.full(len(fields), np.nan),
                          "trigger_rate": c[:, 1] / R if R else np.full(len(fields), np.nan),
                          "trigger_share": np.where(c[:, 0] > 0, c[:, 1] / np.maximum(c[:, 0], 1), np.nan)})


# a contract's cards per race: dealt n, fulfilled f, discarded d, discarded and fulfilled g,
# kept m, kept and fulfilled k; the products of two seats' counts (pairs of those letters)
SEAT_SUMS = ("n", "f", "d", "g", "m", "k")
PAIR_SUMS = (("n", "n"), ("f", "f"), ("f", "n"), ("d", "d"), ("d", "n"), ("g", "g"), ("g", "d"),
             ("k", "k"), ("k", "m"), ("m", "m"))
PATTERNS = (("dealt", "n"), ("discarded", "d"), ("kept", "m"))  # the subsets whose races are counted


CONTRACT_WORDS = {  # kind -> its condition in words (rules page), {0} and {1} its colours
    "eliminated": "{0} or {1} eliminated", "before": "{0} before {1}", "top3": "{0} in the top 3",
    "at_most_one_eliminated": "at most one eliminated", "at_least_three_eliminated": "at least three eliminated",
    "winner_clean": "winner without concrete",
}


def _contract_name(kind: str, colors: str) -> str:
    """The contract table's name of a card: its condition in words ("green before red")."""
    cols = [c for c in str(colors).split(",") if c]
    words = CONTRACT_WORDS.get(kind)
    if words is None:
        return kind + (f" {colors}" if colors else "")
    return words.format(*cols, "", "")


def _never_backed(cells, pick) -> dict:
    """Share of a bot's races in which it had no card on the winner (bet points 0)."""
    n = pick(cells["won"][0]).sum(-1)
    bet_counts, bv = cells["bet"]
    r = rate((pick(bet_counts) * (bv == 0)).sum(-1), n)
    return {"never_backed": r["rate"], "never_backed_low": r["low"], "never_backed_high": r["high"]}


_BOT_COLUMNS = ["bot", "seats", "random", "player_races", "wins", "win_rate", "win_low", "win_high",
                "mean_score", "score_low", "score_high", "score_sd", "mean_bet_points",
                "bet_points_low", "bet_points_high", "mean_contract_points", "contract_points_low",
                "contract_points_high", "never_backed", "never_backed_low", "never_backed_high",
                "mean_bets_placed", "mean_contracts_discarded"]

TABLE_DOCS = {
    "overview": "headline numbers: races, tie-break share, shared wins, race length, eliminations, "
                "winners nobody backed, score spread, share of score variance explained by the bot",
    "bots": "per bot (all its seats): win rate (95% Wilson), mean score split into bet and contract "
            "points (95% normal intervals), score sd, share of races it never backed the winner",
    "seats": "per (seat, bot): the same as bots; 'confounded' is true when seats run different bots",
    "seat_advantage": "per seat: win rate minus the average seat's, paired by race (95% interval)",
    "luck_skill": "each heuristic bot (and all pooled) against the random bot: difference of win rates "
                  "per seat, paired by race (95% interval)",
    "win_patterns": "per set of winning seats (mask: bit s-1 for seat s): how many units ended so; "
                    "the seat tests (Cochran's Q) read it",
    "score_distribution": "per bot and overall: mean, sd and quantiles of the final score",
    "bet_stage": "bets by the share of the race run when placed: chance the card is the winner's, "
                 "mean points per card, mean points of a winner's card",
    "bet_turn": "the same by the turn the card was placed",
    "bet_heatmap": "track place of the backed colour x race stage: chance the card is the winner's",
    "stack_position": "per stack position 1-6 (placing order): chance and mean points, overall and per bot",
    "contracts": "per contract: fulfilment, discard rate, mean payoff when kept, what discarded cards "
                 "would have paid and the gain of discarding (minus that), value of holding to the end",
    "contracts_by_bot": "the contract table per bot",
    "intervention_contracts": "intervention: per bot, contract and race stage (the leader's share of the track "
                              "at the boss round), the gain in the seat's score of discarding the card there "
                              "rather than holding it to the end, on the same races (paired 95% t interval; "
                              "the unpaired one beside it), and the hindsight gain of the same discards",
    "intervention_discard_policy": "intervention: per bot (all seats pooled first), what its own discards gained "
                                   "per race: each race as played against the same race with every discard of "
                                   "the seat undone (paired, clustered by race), in points and win rate, beside "
                                   "the hindsight figure of the same discards and its bias (hindsight minus "
                                   "intervention)",
    "intervention_bets": "intervention: per bot and race stage, the gain in score and win rate of betting the "
                         "leader's card at a bookmaker round rather than holding it then, on the same races",
    "flow": "game flow: lead changes per race, share of the race played before the winner led for "
            "good, comebacks (the winner not leading at the half), no single winner, length; the standing is "
            "defined in docs/lemming-mafia.md",
    "race_length": "histogram of race length in moves",
    "eliminations": "histogram of eliminated lemmings per race",
    "finish": "how races end: a lemming in the water or the last one standing",
    "lemmings": "per colour: win rate, mean final place, concrete at the end, concrete on the winner",
    "winner_concrete": "concrete blocks the winner carries, overall and per colour",
    "fields": "per board field: landings and triggered actions, in total and per race",
}
