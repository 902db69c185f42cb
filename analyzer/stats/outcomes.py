"""The per-seat outcome tables every game's report shows, aggregated chunk by chunk.

A game's statistics keep one ``SeatOutcomes`` for the unit its players win or
lose (one item of the game's unit: a race, or a game of several races) and feed it a row
per unit and seat: the group (race or game number), seat, bot, score and whether
the seat won. ``SeatOutcomes`` then gives the tables the generic figures and
sentences (``analyzer/report/figures.py``, ``analyzer/report/text.py``) read:

- ``bots``: per bot over all its seats: win rate, mean score and spread, plus
  the means of any per-player ``extras`` the game counts (points by source,
  cards placed, ...) and columns of its own (``more``);
- ``seats``: the same per (seat, bot);
- ``seat_advantage``: per seat, win rate minus the average seat's, paired by unit;
- ``luck_skill``: each heuristic bot (and all pooled) against the random bot,
  difference of win rates per seat, paired by unit;
- ``score_distribution``: mean, sd and quantiles of the score per bot and overall;
- overview rows: mean and sd of the score, share of score variance explained by
  which bot played.

Only integer histograms are kept (``analyzer.stats.aggregate``), so the result is
the same however the rows are chunked or accumulators merged. Wins count shared
wins (every tied player is a winner).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from analyzer.stats.aggregate import GroupBits, Hist, Labels, hist_mean, hist_quantiles, mean_sd_ci, moments, rate
from analyzer.stats.intervals import clustered_rate

QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
ALL = "all"
HEURISTIC = "all heuristic bots"
# the count column of score_distribution: the generic score figure
# (analyzer/report/figures.py: fig_scores) reads it under this name in every game
SCORE_COUNT = "player_races"


def is_random_bot(label: str) -> bool:
    """The reference random bot (label ``random``, possibly with parameters)."""
    return str(label).split(":", 1)[0].strip() == "random"


def _item(v):
    return np.asarray(v).item() if isinstance(v, (np.ndarray, np.generic)) else v


class SeatOutcomes:
    """Outcome histograms per (bot, seat) of one unit; see the module docstring.

    ``unit``: what a group is ("races" or "games"); it names the count columns
    (``player_<unit>`` in bots and seats, ``<unit>`` in seat_advantage and
    luck_skill). ``extras``: ``(name, label, with_interval)`` of per-player
    integer quantities whose means the bot and seat tables show as
    ``mean_<label>`` (and ``<label>_low`` / ``<label>_high``). ``flags``: more
    per-player booleans whose per-group patterns are kept besides ``won``
    (``patterns(flag, ctx)``).
    """

    def __init__(self, unit: str = "races", extras: Sequence[tuple[str, str, bool]] = (),
                 flags: Sequence[str] = ()):
        self.unit = unit
        self.bots = Labels()
        self.h_score = Hist(("bot", "seat", "score"))
        self.h_won = Hist(("bot", "seat", "won"))
        self.extra_spec = {name: (label, ci) for name, label, ci in extras}
        self.extras = {name: Hist(("bot", "seat", "value")) for name in self.extra_spec}
        self.bits = GroupBits(("won", *flags))

    # ------------------------------------------------------------------ adding

    def add(self, group: np.ndarray, seat: np.ndarray, bot: np.ndarray, score: np.ndarray,
            won: np.ndarray, flags: Mapping[str, np.ndarray] | None = None) -> None:
        """A row per unit and seat: ``bot`` are codes of ``self.bots`` (see
        ``bot_codes``), seats 1-based; a unit's rows must be contiguous."""
        if len(seat) == 0:
            return
        won = np.asarray(won, bool).astype(np.int64)
        self.h_score.add(bot, seat, score)
        self.h_won.add(bot, seat, won)
        self.bits.add(group, np.asarray(seat, np.int64) - 1, {"won": won, **(flags or {})})

    def add_extras(self, bot: np.ndarray, seat: np.ndarray, values: Mapping[str, np.ndarray]) -> None:
        """Rows of the per-player extras (from any table with bot and seat)."""
        if len(seat) == 0:
            return
        for name, v in values.items():
            self.extras[name].add(bot, seat, v)

    def bot_codes(self, column) -> np.ndarray:
        return self.bots.codes(column)

    def merge(self, other: "SeatOutcomes") -> np.ndarray:
        """Add another accumulator's counts; returns the map of ``other``'s bot
        codes to ours, for the caller's own histograms over bots."""
        if other.unit != self.unit or other.extra_spec != self.extra_spec or other.bits.flags != self.bits.flags:
            raise ValueError("cannot merge outcomes of another kind")
        remap = self.bots.remap(other.bots)
        bots = {"bot": remap}
        self.h_score.merge(other.h_score, bots)
        self.h_won.merge(other.h_won, bots)
        for name, h in self.extras.items():
            h.merge(other.extras[name], bots)
        self.bits.merge(other.bits)
        return remap

    def nbytes(self) -> int:
        return (self.h_score.nbytes() + self.h_won.nbytes() + sum(h.nbytes() for h in self.extras.values())
                + self.bits.nbytes())

    # ------------------------------------------------------------------ layout

    def context(self) -> dict:
        """Bots (ordered by their first seat), seats and which bot sits where."""
        nb = len(self.bots)
        seats = self.h_won.values("seat")
        grid = self.h_won.take(bot=np.arange(nb), seat=seats).sum(axis=2) if seats.size else np.zeros((nb, 0), np.int64)
        used = grid > 0
        seat_rows = used.any(axis=0)
        seats, grid, used = seats[seat_rows], grid[:, seat_rows], used[:, seat_rows]
        bot_used = used.any(axis=1)
        first_seat = np.where(used, seats[None, :], np.iinfo(np.int64).max).min(axis=1) if seats.size else np.zeros(nb)
        bot_order = [b for b in sorted(range(nb), key=lambda b: (first_seat[b], b)) if bot_used[b]]
        seat_bot = {}
        for j, s in enumerate(seats):
            who = np.flatnonzero(used[:, j])
            seat_bot[int(s)] = self.bots.labels[who[0]] if len(who) == 1 else "mixed"
        return {
            "bots": bot_order, "labels": self.bots.labels, "seats": seats, "grid": grid,
            "seat_bot": seat_bot, "single_bot": len(bot_order) == 1,
            "players": int(seats.max()) if seats.size else 0,
        }

    def cells(self, ctx) -> dict:
        """Per (bot, seat) counts of every histogram on one common grid:
        ``name -> (counts [bot, seat, value], values)``."""
        bots, seats = np.arange(len(self.bots)), ctx["seats"]
        hists = {"score": self.h_score, "won": self.h_won, **self.extras}
        return {key: (h.take(bot=bots, seat=seats), h.values(h.names[2])) for key, h in hists.items()}

    # ------------------------------------------------------------------ tables

    def player_stats(self, cells, pick: Callable, more: Callable | None = None) -> dict:
        """Stats of the players selected by ``pick(counts)`` -> histogram over values;
        ``more(cells, pick)`` adds a game's own columns."""
        res = {}
        won, wv = cells["won"]
        wins_hist = pick(won)
        n = wins_hist.sum(-1)
        wins = (wins_hist * wv).sum(-1)
        r = rate(wins, n)
        res.update({f"player_{self.unit}": n, "wins": wins, "win_rate": r["rate"], "win_low": r["low"],
                    "win_high": r["high"]})
        counts, vals = cells["score"]
        m = hist_mean(pick(counts), vals)
        res.update(mean_score=m["mean"], score_low=m["low"], score_high=m["high"], score_sd=m["sd"])
        for name, (label, ci) in self.extra_spec.items():
            counts, vals = cells[name]
            m = hist_mean(pick(counts), vals)
            res[f"mean_{label}"] = m["mean"]
            if ci:
                res[f"{label}_low"] = m["low"]
                res[f"{label}_high"] = m["high"]
        if more is not None:
            res.update(more(cells, pick))
        return res

    def bot_columns(self, more: Sequence[str] = ()) -> list[str]:
        """Columns of the bots table: the common ones, the extras', then ``more``."""
        cols = ["bot", "seats", "random", f"player_{self.unit}", "wins", "win_rate", "win_low", "win_high",
                "mean_score", "score_low", "score_high", "score_sd"]
        for label, ci in self.extra_spec.values():
            cols += [f"mean_{label}"] + ([f"{label}_low", f"{label}_high"] if ci else [])
        return cols + list(more)

    def clustered_share(self, flag: str, seats: Sequence[int], ctx, invert: bool = False) -> dict:
        """Share of the player-units in ``seats`` (1-based) with ``flag`` set (or
        not set, ``invert``), its interval clustered by unit: the seats of one
        race share its dice and one seat's win is another's loss, so they are not
        independent draws (``analyzer.stats.intervals.clustered_rate``). From the
        complete units' patterns."""
        counts, masks = self.patterns(flag, ctx)
        sel = 0
        for s in seats:
            sel |= 1 << (int(s) - 1)
        m = len(seats)
        if not counts.size or m == 0:
            return {"rate": np.nan, "low": np.nan, "high": np.nan}
        bits = (masks[:, None] >> np.arange(ctx["players"])[None, :]) & 1
        y = bits[:, [s - 1 for s in seats]].sum(axis=1)
        if invert:
            y = m - y
        C = int(counts.sum())
        r, low, high = clustered_rate(C, (counts * y).sum(), C * m, (counts * y * y).sum(), C * m * m,
                                      (counts * y * m).sum())
        return {"rate": float(r), "low": float(low), "high": float(high)}

    def bots_table(self, ctx, columns: Sequence[str], more: Callable | None = None,
                   clustered: Sequence[tuple[str, str, bool]] = ()) -> pd.DataFrame:
        """Per bot over all its seats. Win rates (and the shares named in
        ``clustered``: ``(column prefix, flag, invert)``) of a bot in several seats
        get race-clustered intervals (``clustered_share``)."""
        cells = self.cells(ctx)
        rows = []
        for b in ctx["bots"]:
            seats = [int(s) for j, s in enumerate(ctx["seats"]) if ctx["grid"][b, j] > 0]
            st = self.player_stats(cells, lambda c, b=b: c[b].sum(axis=0), more)
            if len(seats) > 1 and ctx["seat_bot"] and "mixed" not in ctx["seat_bot"].values():
                for prefix, flag, invert in (("win", "won", False), *clustered):
                    cl = self.clustered_share(flag, seats, ctx, invert)
                    st[f"{prefix}_low"], st[f"{prefix}_high"] = cl["low"], cl["high"]
            rows.append({"bot": ctx["labels"][b], "seats": ",".join(map(str, seats)),
                         "random": is_random_bot(ctx["labels"][b]), **{k: _item(v) for k, v in st.items()}})
        return pd.DataFrame(rows, columns=list(columns))

    def seats_table(self, ctx, columns: Sequence[str], more: Callable | None = None) -> pd.DataFrame:
        """Per (seat, bot); ``columns`` as for the bots table ("seats" and
        "random" are left out, "seat" and "confounded" put first)."""
        cells = self.cells(ctx)
        rows = []
        for j, s in enumerate(ctx["seats"]):
            for b in ctx["bots"]:
                if ctx["grid"][b, j] == 0:
                    continue
                st = self.player_stats(cells, lambda c, b=b, j=j: c[b, j], more)
                rows.append({"seat": int(s), "bot": ctx["labels"][b], "confounded": not ctx["single_bot"],
                             **{k: _item(v) for k, v in st.items()}})
        cols = ["seat", "bot", "confounded"] + [c for c in columns if c not in ("bot", "seats", "random")]
        return pd.DataFrame(rows, columns=cols)

    def patterns(self, flag: str, ctx):
        """Complete units' patterns of ``flag``: (counts, masks), all seats present."""
        h = self.bits.final()[flag]
        p = ctx["players"]
        if p == 0 or h.counts.size == 0:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        full = (1 << p) - 1
        counts = h.take(present=[full])[0]
        masks = h.values("mask")
        keep = counts > 0
        return counts[keep], masks[keep]

    def seat_advantage(self, ctx) -> pd.DataFrame:
        """Per seat: its win rate minus the average seat's, paired by unit."""
        counts, masks = self.patterns("won", ctx)
        p = ctx["players"]
        rows = []
        if counts.size:
            bits = (masks[:, None] >> np.arange(p)[None, :]) & 1  # [pattern, seat]
            total = bits.sum(axis=1)
            n = counts.sum()
            for s in range(p):
                d = p * bits[:, s] - total  # p * (w_s - mean w)
                st = mean_sd_ci(n, (counts * d).sum(), (counts * d * d).sum())
                st["low"], st["high"] = np.clip(st["low"], -p, p), np.clip(st["high"], -p, p)
                w = rate((counts * bits[:, s]).sum(), n)
                rows.append({"seat": s + 1, "bot": ctx["seat_bot"].get(s + 1, ""),
                             self.unit: int(n), "win_rate": float(w["rate"]),
                             "win_low": float(w["low"]), "win_high": float(w["high"]),
                             "advantage": float(st["mean"]) / p, "advantage_low": float(st["low"]) / p,
                             "advantage_high": float(st["high"]) / p,
                             "confounded": not ctx["single_bot"]})
        return pd.DataFrame(rows, columns=["seat", "bot", self.unit, "win_rate", "win_low", "win_high",
                                           "advantage", "advantage_low", "advantage_high", "confounded"])

    def luck_skill(self, ctx) -> pd.DataFrame:
        """Each heuristic bot (and all of them pooled) against the random bot:
        difference of win rates per seat, paired by unit."""
        cols = ["bot", "versus", self.unit, "bot_seats", "random_seats", "bot_win_rate",
                "random_win_rate", "difference", "difference_low", "difference_high"]
        counts, masks = self.patterns("won", ctx)
        seat_bot = ctx["seat_bot"]
        p = ctx["players"]
        if not counts.size or "mixed" in seat_bot.values():
            return pd.DataFrame(columns=cols)
        rand = [s - 1 for s, b in seat_bot.items() if is_random_bot(b)]
        heur = [s - 1 for s, b in seat_bot.items() if not is_random_bot(b)]
        if not rand or not heur:
            return pd.DataFrame(columns=cols)
        bits = (masks[:, None] >> np.arange(p)[None, :]) & 1
        n = int(counts.sum())
        groups = [(ctx["labels"][b], [s - 1 for s, lab in seat_bot.items() if lab == ctx["labels"][b]])
                  for b in ctx["bots"] if not is_random_bot(ctx["labels"][b])]
        if len(groups) > 1:
            groups.append((HEURISTIC, heur))
        w_r = bits[:, rand].sum(axis=1)
        rows = []
        for label, seats in groups:
            w_b = bits[:, seats].sum(axis=1)
            nb, nr = len(seats), len(rand)
            d = nr * w_b - nb * w_r  # nb * nr * (mean win of the bot - mean win of random)
            st = mean_sd_ci(n, (counts * d).sum(), (counts * d * d).sum())
            scale = nb * nr
            st["low"], st["high"] = np.clip(st["low"], -scale, scale), np.clip(st["high"], -scale, scale)
            rows.append({"bot": label, "versus": "random", self.unit: n, "bot_seats": nb, "random_seats": nr,
                         "bot_win_rate": (counts * w_b).sum() / (n * nb),
                         "random_win_rate": (counts * w_r).sum() / (n * nr),
                         "difference": float(st["mean"]) / scale,
                         "difference_low": float(st["low"]) / scale,
                         "difference_high": float(st["high"]) / scale})
        return pd.DataFrame(rows, columns=cols)

    def score_distribution(self, ctx) -> pd.DataFrame:
        counts, vals = self.h_score.take(bot=np.arange(len(self.bots))), self.h_score.values("score")
        rows = []
        per_bot = counts.sum(axis=1)  # [bot, score]
        groups = [(ctx["labels"][b], per_bot[b]) for b in ctx["bots"]]
        if groups:
            groups.append((ALL, per_bot.sum(axis=0)))
        qcols = [f"q{int(round(x * 100)):02d}" for x in QUANTILES]
        for label, hist in groups:
            m = hist_mean(hist, vals)
            q = hist_quantiles(hist, vals, QUANTILES)
            nz = np.flatnonzero(hist)
            rows.append({"bot": label, SCORE_COUNT: int(m["n"]), "mean": float(m["mean"]), "sd": float(m["sd"]),
                         **dict(zip(qcols, q)),
                         "min": float(vals[nz[0]]) if nz.size else np.nan,
                         "max": float(vals[nz[-1]]) if nz.size else np.nan})
        return pd.DataFrame(rows, columns=["bot", SCORE_COUNT, "mean", "sd"] + qcols + ["min", "max"])

    def skill_share(self) -> float:
        """Share of the variance of scores explained by which bot played (eta squared)."""
        counts = self.h_score.take(bot=np.arange(len(self.bots))).sum(axis=1)
        vals = self.h_score.values("score")
        n, s1, s2 = moments(counts, vals)
        N, S1, S2 = n.sum(), s1.sum(), s2.sum()
        if N < 2 or (n > 0).sum() < 2:  # one bot: nothing to explain
            return float("nan")
        total = S2 - S1 * S1 / N
        with np.errstate(divide="ignore", invalid="ignore"):
            between = np.nansum(np.where(n > 0, s1 * s1 / np.where(n > 0, n, 1), 0.0)) - S1 * S1 / N
        return float(between / total) if total > 0 else float("nan")

    def overview_rows(self) -> list[tuple]:
        """``(metric, value, low, high, n)`` of the score: mean, sd, skill share."""
        m = hist_mean(self.h_score.marginal("score"), self.h_score.values("score"))
        return [("score_mean", m["mean"], m["low"], m["high"], m["n"]),
                ("score_sd", m["sd"], np.nan, np.nan, m["n"]),
                ("skill_share_of_score_variance", self.skill_share(), np.nan, np.nan, m["n"])]

    def win_patterns(self, ctx) -> pd.DataFrame:
        """How many complete units each set of winning seats had (``mask``: bit s-1
        for seat s): what Cochran's Q and the paired seat tests read."""
        counts, masks = self.patterns("won", ctx)
        return pd.DataFrame({"mask": masks.astype(np.int64), "units": counts.astype(np.int64)})

    def tables(self, ctx, columns: Sequence[str], more: Callable | None = None,
               clustered: Sequence[tuple[str, str, bool]] = ()) -> dict[str, pd.DataFrame]:
        """bots, seats, seat_advantage, luck_skill, win_patterns and score_distribution."""
        return {"bots": self.bots_table(ctx, columns, more, clustered), "win_patterns": self.win_patterns(ctx), "seats": self.seats_table(ctx, columns, more),
                "seat_advantage": self.seat_advantage(ctx), "luck_skill": self.luck_skill(ctx),
                "score_distribution": self.score_distribution(ctx)}
