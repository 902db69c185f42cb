"""A tournament between bots: every table of distinct bots, each played in every
rotation of its seats, rated by a Bradley–Terry fit with a seat advantage (see
``analyzer.stats.ratings``). Knows no game: ``make_match(table)`` builds a match.

Tables. Round robin: every combination of ``players`` bots from the list; with
fewer bots than seats, the list is repeated (``len(bots)`` tables, the list
cycled from each start) so every bot fills the same number of seats. Gauntlet:
one bot at every table, the others drawn the same way for the remaining seats.

Deals. A table's races use race indices of its own; all rotations of a table
play the same indices, so every bot meets the same deals and dice in every seat
(a duplicate format). The races on one deal form a cluster for the intervals.

One seat. When the rated role has a single seat, no two rated bots
ever share a race, so there are no pairs to fit: each bot plays the seat alone
against the field, every bot on the same deals, and is rated against the field
by its win rate (Wilson interval) and its difference to the best bot, paired on
the deals (``one_seat``; no Elo is shown).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from analyzer.engine.botspec import BotSpec
from analyzer.engine.runner import run_chunks
from analyzer.engine.bots import PLAYER
from analyzer.engine.seating import role_seats
from analyzer.errors import AnalyzerError
from analyzer.stats.evidence import span
from analyzer.stats.intervals import mean_ci, paired_diff_ci, wilson
from analyzer.stats.ratings import PairCounts, RatingFit, fit


def _draw(pool: list[int], k: int) -> list[tuple[int, ...]]:
    """Every k-combination of ``pool``, or (if the pool is smaller than k) the pool
    cycled from each of its members, so each member fills the same number of places."""
    if len(pool) >= k:
        return list(itertools.combinations(pool, k))
    return [tuple(pool[(start + i) % len(pool)] for i in range(k)) for start in range(len(pool))]


def tables(n_bots: int, players: int, gauntlet: int | None = None) -> list[tuple[int, ...]]:
    """The tables (bot indices, before rotation)."""
    if gauntlet is None or players == 1:  # one seat: every bot plays it alone against the field
        return _draw(list(range(n_bots)), players)
    field = [b for b in range(n_bots) if b != gauntlet]
    return [(gauntlet, *rest) for rest in _draw(field, players - 1)]


def rotations(table: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The table in every rotation: seat s holds ``table[(s + r) % P]``."""
    p = len(table)
    return [tuple(table[(s + r) % p] for s in range(p)) for r in range(p)]


@dataclass
class BotTotals:
    """Per bot (or per seat): races, wins (shared wins count), score sums."""
    n: np.ndarray
    wins: np.ndarray
    score: np.ndarray
    score2: np.ndarray

    @classmethod
    def zeros(cls, k: int) -> "BotTotals":
        return cls(*(np.zeros(k) for _ in range(4)))

    def add(self, who: int, won: np.ndarray, score: np.ndarray) -> None:
        self.n[who] += len(won)
        self.wins[who] += won.sum()
        self.score[who] += score.sum()
        self.score2[who] += (score.astype(np.float64) ** 2).sum()

    @property
    def win_rate(self) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return self.wins / self.n

    @property
    def mean_score(self) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return self.score / self.n

    def score_interval(self):
        with np.errstate(invalid="ignore", divide="ignore"):
            var = (self.score2 - self.n * self.mean_score ** 2) / (self.n - 1)
        return mean_ci(self.mean_score, np.sqrt(np.clip(var, 0, None)), self.n)

    def win_interval(self):
        return wilson(self.wins, self.n)


@dataclass
class TournamentResult:
    labels: list[str]
    specs: list[BotSpec]
    players: int
    seed: int
    mode: str  # "round robin" or "gauntlet: <bot>"
    tables: list[tuple[int, ...]]
    deals: int  # races per table rotation
    races: int
    ratings: RatingFit
    counts: PairCounts
    bots: BotTotals
    seats: BotTotals
    setup: dict = field(default_factory=dict)  # match.describe() of the first table
    bot_params: list[dict] = field(default_factory=list)  # full parameters of each bot
    places: list[int] = field(default_factory=list)  # 0-based seats the rated bots rotate among
    role: str = PLAYER
    field_labels: list[str] = field(default_factory=list)  # the bots of the other roles' seats
    deal_wins: np.ndarray | None = None  # one seat: [bot, deal] 1 if the bot won that deal

    @property
    def one_seat(self) -> bool:
        """The rated bots never share a race: rated against the field, not by Elo."""
        return len(self.places) == 1 or self.players == 1

    def versus_best(self) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
        """One seat: ``(best bot, difference, low, high)``, each bot's win rate minus
        the best's, paired on the deals every bot played (t interval)."""
        best = int(np.argmax(self.bots.win_rate))
        diffs = self.deal_wins.astype(np.float64) - self.deal_wins[best].astype(np.float64)
        diff, low, high = paired_diff_ci(diffs, axis=1)
        return best, diff, low, high

    @property
    def rotations(self) -> int:
        return len(self.places) or self.players

    @property
    def seat_numbers(self) -> list[int]:
        """1-based seats of ``seats`` (the rated role's)."""
        return [s + 1 for s in self.places] or list(range(1, self.players + 1))

    @property
    def unit(self) -> str:
        """What the game's match plays: races or games."""
        return str(self.setup.get("unit", "races"))


def labels_of(specs: list[BotSpec], families: list[str]) -> list[str]:
    """Display names: the family's own name (a .toml or .py bot's ``name``) with the
    spec's overrides; repeated names get ``#2``, ``#3``."""
    out: list[str] = []
    for spec, fam in zip(specs, families):
        label = fam + spec.label[len(spec.name):]
        base, k = label, 2
        while label in out:
            label, k = f"{base}#{k}", k + 1
        out.append(label)
    return out


def tournament(make_match: Callable[[list[BotSpec]], object], specs: list[BotSpec], players: int,
               races: int, seed: int, *, threads: int, gauntlet: int | None = None,
               chunk_size: int = 1 << 14, progress=None, roles: list[str] | None = None,
               role: str = PLAYER, field: list[BotSpec] | None = None, cluster=None) -> TournamentResult:
    """Play about ``races`` races spread evenly over every table and rotation.

    The bots play the seats of ``role`` (every seat when the game has one role)
    and rotate among them; ``field`` fills the seats of other roles (one bot, or
    one per such seat in seat order). ``cluster``: a ``cluster.Session``
    whose workers play the races (the same numbers)."""
    if len(specs) < 2:
        raise AnalyzerError(f"a tournament needs at least 2 bots, got {len(specs)}")
    if len(set(specs)) != len(specs):
        twice = next(s for s in specs if specs.count(s) > 1)
        raise AnalyzerError(f"bot {twice.label!r} is listed twice")
    roles = roles if roles is not None else [PLAYER] * players
    places = role_seats(roles, role)
    others = [s for s in range(players) if roles[s] != role]
    fill = other_roles_field(field, len(others))
    k = len(places)
    table_list = tables(len(specs), k, gauntlet)
    deals = max(1, -(-races // (len(table_list) * k)))
    one_seat = k == 1
    deal_wins = np.zeros((len(specs), deals), np.uint8) if one_seat else None
    counts = PairCounts(len(specs), k)
    bots, seats = BotTotals.zeros(len(specs)), BotTotals.zeros(k)
    setup, params, families = {}, [None] * len(specs), [None] * len(specs)
    for t, table in enumerate(table_list):
        for seating in rotations(table):
            full = [None] * players
            for s, b in zip(places, seating):
                full[s] = specs[b]
            for s, bot in zip(others, fill):
                full[s] = bot
            match = make_match(full)
            if cluster is None:  # on a cluster the workers load the kernels
                match.warm_up(detail=False)  # compiles once (outcomes only); a table with a user bot may need its own kernel
            setup = setup or {**match.describe(), "title": getattr(match, "title", "")}
            for seat, b in zip(places, seating):
                if params[b] is None:
                    d = match.describe()["bots"][seat]
                    params[b], families[b] = d["params"], d["family"]
            row = np.array(seating)

            base_deal = 0 if one_seat else t * deals  # one seat: every bot on the same deals

            def play(first, count, match=match, base=base_deal):
                chunk = match.play(seed, base + first, count, detail=False)  # outcomes only
                out = match.outcomes(chunk)
                match.release([chunk])
                return first, out

            def on_chunk(first, count, parts, row=row, base=base_deal):
                for start, (won, score) in parts:
                    won, score = won[:, places], score[:, places]
                    if deal_wins is not None:
                        deal_wins[row[0], start:start + len(won)] = won[:, 0]
                    counts.add(row, score, base + start + np.arange(len(score)))
                    for seat, b in enumerate(row):
                        bots.add(b, won[:, seat], score[:, seat])
                        seats.add(seat, won[:, seat], score[:, seat])

            if cluster is not None:
                from analyzer.engine.cluster import stream_outcomes

                for start, won, score in stream_outcomes(cluster, match, seed, base_deal, deals, chunk_size):
                    on_chunk(start, len(won), [(start, (won, score))])
            else:
                match.reserve(-(-min(chunk_size, deals) // threads))
                run_chunks(play, deals, chunk_size=chunk_size, threads=threads, on_chunk=on_chunk)
            if progress is not None:
                progress.advance(deals)
    mode = "round robin" if gauntlet is None else f"gauntlet: {labels_of(specs, families)[gauntlet]}"
    return TournamentResult(labels_of(specs, families), list(specs), players, seed, mode, table_list, deals,
                            deals * k * len(table_list), fit(counts), counts, bots, seats, setup, params,
                            places, role, [spec.label for spec in fill], deal_wins)


def other_roles_field(field: list[BotSpec] | None, n: int) -> list[BotSpec]:
    """The bots of the seats of other roles: none needed, one for all, or one each."""
    if n == 0:
        return []
    if not field:
        raise AnalyzerError(f"{n} seats have another role: --field must name their bots (one, or {n})")
    if len(field) == 1:
        return field * n
    if len(field) != n:
        raise AnalyzerError(f"--field gives {len(field)} bots for the {n} seats of other roles (give 1 or {n})")
    return list(field)


def planned_races(n_bots: int, players: int, races: int, gauntlet: int | None = None) -> int:
    """``players``: the seats the rated bots rotate among (their role's)."""
    n = len(tables(n_bots, players, gauntlet)) * players
    return max(1, -(-races // n)) * n


def field_sentence(r: TournamentResult) -> str:
    """Why a one-seat tournament shows no Elo, and what it shows instead."""
    field = ", ".join(r.field_labels) or "none"
    return (f"the {r.role} role has one seat, so no two of these bots ever share a {r.unit[:-1]}: no Elo "
            f"(a rating needs rated bots meeting); each is rated against the field ({field}) by its win "
            f"rate, every bot on the same {r.deals:,} deals")


def render_one_seat(r: TournamentResult) -> str:
    best, diff, dlo, dhi = r.versus_best()
    wlo, whi = r.bots.win_interval()
    slo, shi = r.bots.score_interval()
    width = max(12, *(len(label) for label in r.labels)) + 2
    vs = f"vs {r.labels[best]} (95% CI)"
    lines = [
        f"tournament ({r.mode}): {len(r.labels)} bots, {r.players} players, one {r.role} seat x {r.deals:,} "
        f"deals each = {r.races:,} {r.unit}, seed {r.seed}",
        field_sentence(r),
        "",
        f"{'bot':<{width}}{'win rate (95% CI)':>26}{vs:>{max(30, len(vs) + 2)}}{'mean score (95% CI)':>26}",
    ]
    for b in np.argsort(-r.bots.win_rate, kind="stable"):
        gap = "-" if b == best else f"{100 * diff[b]:+.1f} pp ({span(dlo[b], dhi[b], lambda x: f'{100 * x:+.1f}')})"
        lines.append(f"{r.labels[b]:<{width}}"
                     f"{f'{r.bots.win_rate[b]:.1%} ({wlo[b]:.1%} to {whi[b]:.1%})':>26}"
                     f"{gap:>{max(30, len(vs) + 2)}}"
                     f"{r.bots.mean_score[b]:>11.2f} ({slo[b]:.2f} to {shi[b]:.2f})")
    lines += ["", f"intervals: Wilson for win rates; the difference to {r.labels[best]} paired on the deals "
                  f"(t interval over {r.deals:,} deals); normal for mean scores"]
    return "\n".join(lines)


def render(result: TournamentResult) -> str:
    if result.one_seat:
        return render_one_seat(result)
    r, fitted = result, result.ratings
    lo, hi = fitted.elo_interval
    share, games = r.counts.win_matrix()
    order = np.argsort(-fitted.elo)
    width = max(12, *(len(label) for label in r.labels)) + 2
    lines = [
        f"tournament ({r.mode}): {len(r.labels)} bots, {r.players} players, {len(r.tables)} tables x "
        f"{r.rotations} seat rotations x {r.deals:,} deals = {r.races:,} {r.unit}, seed {r.seed}"
        + ("" if r.role == PLAYER else f"; bots rated in the {r.role} seats"),
        "",
        f"{'bot':<{width}}{'Elo (95% CI)':>25}{'win rate':>10}{'mean score (95% CI)':>26}",
    ]
    slo, shi = r.bots.score_interval()
    for b in order:
        lines.append(f"{r.labels[b]:<{width}}{fitted.elo[b]:>+8.0f} ({lo[b]:+5.0f} to {hi[b]:+5.0f})"
                     f"{r.bots.win_rate[b]:>10.1%}"
                     f"{r.bots.mean_score[b]:>11.2f} ({slo[b]:.2f} to {shi[b]:.2f})")
    lines += ["", f"head to head: share of {r.unit} the row bot outscored the column bot (ties half)"]
    short = [f"{i + 1}" for i in range(len(r.labels))]
    lines.append(f"{'':<{width + 4}}" + "".join(f"{s:>8}" for s in short))
    for k, b in enumerate(order):
        cells = "".join("       -" if a == b or games[b, a] == 0 else f"{share[b, a]:>8.1%}" for a in order)
        lines.append(f"{k + 1:>3} {r.labels[b]:<{width}}{cells}")
    mlo, mhi = fitted.seat_interval
    lines += ["", "seat strength multiplier (1 = average seat; 95% CI), win rate, mean score:"]
    for s, number in enumerate(r.seat_numbers):
        lines.append(f"  seat {number}: x{fitted.seat_multiplier[s]:.3f} ({mlo[s]:.3f} to {mhi[s]:.3f}), "
                     f"{r.seats.win_rate[s]:.1%}, {r.seats.mean_score[s]:.2f}")
    lines += ["", f"ratings: Bradley-Terry on every pair of seats of every {r.unit[:-1]} (ties half) with a seat "
                  f"multiplier, Newton fit ({fitted.iterations} iterations); Elo = 400*log10(strength), "
                  f"mean 0; intervals: cluster-robust sandwich over {fitted.clusters} clusters of deals"]
    return "\n".join(lines)
