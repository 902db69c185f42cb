"""Paired comparison of two bots on common random numbers, seats rotated, with an
optional sequential probability ratio test. Knows no game: a ``make_match``
callback builds a match for a seating, and the match reports per-race outcomes.

Pairing: race ``r`` of both arms uses the same seed and index, so the same deal and
the same dice (the games draw bots' choices from per-seat streams apart from the
dice). Bot A and bot B sit in seat ``s`` for an equal share of the races, the
field fills the other seats.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from analyzer.engine.bots import PLAYER
from analyzer.engine.botspec import BotSpec
from analyzer.engine.runner import run_chunks
from analyzer.engine.seating import seat_tables
from analyzer.errors import AnalyzerError
from analyzer.stats.intervals import Z95


@dataclass
class PairedStat:
    """Running sums of A, B and A - B per race, for means and paired intervals."""
    n: int = 0
    a: float = 0.0
    b: float = 0.0
    a2: float = 0.0
    b2: float = 0.0
    d: float = 0.0
    d2: float = 0.0

    def add(self, a: np.ndarray, b: np.ndarray) -> None:
        a = a.astype(np.float64)
        b = b.astype(np.float64)
        diff = a - b
        self.n += len(a)
        self.a += a.sum()
        self.b += b.sum()
        self.a2 += (a * a).sum()
        self.b2 += (b * b).sum()
        self.d += diff.sum()
        self.d2 += (diff * diff).sum()

    def _var(self, s: float, s2: float) -> float:
        n = self.n
        return max(s2 / n - (s / n) ** 2, 0.0) * n / max(n - 1, 1)

    @property
    def mean_a(self) -> float:
        return self.a / self.n

    @property
    def mean_b(self) -> float:
        return self.b / self.n

    @property
    def diff(self) -> float:
        return self.d / self.n

    @property
    def paired_se(self) -> float:
        return math.sqrt(self._var(self.d, self.d2) / self.n)

    @property
    def unpaired_se(self) -> float:
        return math.sqrt((self._var(self.a, self.a2) + self._var(self.b, self.b2)) / self.n)

    def interval(self) -> tuple[float, float]:
        return self.diff - Z95 * self.paired_se, self.diff + Z95 * self.paired_se

    @property
    def shrink(self) -> float:
        """How many times narrower the paired interval is than an unpaired one."""
        return self.unpaired_se / self.paired_se if self.paired_se > 0 else float("inf")


@dataclass
class Sprt:
    """Wald's SPRT on the mean paired win-rate difference, normal approximation
    (a generalised SPRT as used by chess engine testers): H0 diff = d0 against H1
    diff = d1, error rates alpha (accepting H1 when H0 holds) and beta."""
    d0: float
    d1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self):
        if not self.d1 > self.d0:
            raise AnalyzerError(f"--sprt needs D0 < D1, got {self.d0},{self.d1}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise AnalyzerError("--alpha and --beta must be between 0 and 0.5")

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, stat: PairedStat) -> float:
        if stat.n < 2:
            return 0.0
        var = stat._var(stat.d, stat.d2)
        if var <= 0:
            return 0.0
        return (self.d1 - self.d0) / var * (stat.d - stat.n * (self.d0 + self.d1) / 2)

    def decide(self, stat: PairedStat) -> str | None:
        low, high = self.bounds
        llr = self.llr(stat)
        if llr >= high:
            return "H1"
        if llr <= low:
            return "H0"
        return None


@dataclass
class CompareResult:
    a: str
    b: str
    field: list[str]
    players: int
    races_per_arm: int
    win: PairedStat
    score: PairedStat
    sprt: Sprt | None = None
    verdict: str | None = None
    llr: float = 0.0
    per_seat: list[PairedStat] = field(default_factory=list)
    unit: str = "races"  # what the match plays: races or games
    seats: list[int] = field(default_factory=list)  # 0-based seats A and B sat in (their role's)
    role: str = PLAYER


def seatings(a: BotSpec, b: BotSpec, fill: list[BotSpec], roles: list[str],
             role: str) -> list[tuple[int, list, list]]:
    """For each seat s of ``role``: (s, the table with A in s, the one with B in s)."""
    with_a = seat_tables(a, fill, roles, role)
    with_b = seat_tables(b, fill, roles, role)
    return [(seat, ta, tb) for (seat, ta), (_, tb) in zip(with_a, with_b)]


def compare(make_match: Callable[[list[BotSpec]], object], a: BotSpec, b: BotSpec,
            fill: list[BotSpec], players: int, races: int, seed: int, *, threads: int,
            chunk_size: int = 1 << 14, sprt: Sprt | None = None, progress=None,
            roles: list[str] | None = None, role: str = PLAYER) -> CompareResult:
    """Play ``races`` races per arm (split evenly over the seats of ``role``) or
    until the SPRT decides; returns the paired statistics. ``roles``: each seat's
    role (default: one role, every seat)."""
    roles = roles if roles is not None else [PLAYER] * players
    tables = seatings(a, b, fill, roles, role)
    seats = [seat for seat, _, _ in tables]
    arms = [(make_match(ta), make_match(tb)) for _, ta, tb in tables]
    for match_a, match_b in arms:
        match_a.warm_up()
        match_b.warm_up()
    per_seat = -(-races // len(seats))
    win, score = PairedStat(), PairedStat()
    seat_stats = [PairedStat() for _ in seats]
    result = CompareResult(a.label, b.label, [s.label for s in fill], players, 0, win, score, sprt,
                           per_seat=seat_stats, unit=arms[0][0].unit, seats=seats, role=role)
    done = 0
    while done < per_seat:
        step = min(chunk_size, per_seat - done)
        for k, (seat, (match_a, match_b)) in enumerate(zip(seats, arms)):
            first = k * per_seat + done  # disjoint race indices per seat, same in both arms

            def play(start, count, ma=match_a, mb=match_b):
                ca = ma.play(seed, start, count)
                cb = mb.play(seed, start, count)
                out = (ma.outcomes(ca), mb.outcomes(cb))
                ma.release([ca])
                mb.release([cb])
                return out

            def on_chunk(start, count, parts, seat=seat, k=k):
                for (won_a, score_a), (won_b, score_b) in parts:
                    win.add(won_a[:, seat], won_b[:, seat])
                    score.add(score_a[:, seat], score_b[:, seat])
                    seat_stats[k].add(won_a[:, seat], won_b[:, seat])

            for ma in (match_a, match_b):
                ma.reserve(-(-step // threads))
            run_chunks(lambda s, c: play(first + s, c), step, chunk_size=step, threads=threads,
                       on_chunk=on_chunk)
        done += step
        if progress is not None:
            progress.advance(step * len(seats))
        if sprt is not None:
            result.llr = sprt.llr(win)
            result.verdict = sprt.decide(win)
            if result.verdict is not None:
                break
    result.races_per_arm = win.n
    return result


def render(result: CompareResult) -> str:
    w, s = result.win, result.score
    wl, wh = w.interval()
    sl, sh = s.interval()
    field = ",".join(result.field)
    lines = [
        f"{result.a} (A) against {result.b} (B); field: {field}; {result.players} players, "
        f"{result.races_per_arm:,} {result.unit} per arm, seats rotated"
        f"{'' if result.role == PLAYER else ' among the ' + result.role + ' seats'}, "
        f"common random numbers (same deals and draws)",
        "",
        f"{'':<12}{'A':>10}{'B':>10}   {'A - B (95% CI, paired)':<34}",
        f"{'win rate':<12}{w.mean_a:>10.2%}{w.mean_b:>10.2%}   "
        f"{w.diff * 100:+.2f} pp ({wl * 100:+.2f} to {wh * 100:+.2f})",
        f"{'mean score':<12}{s.mean_a:>10.3f}{s.mean_b:>10.3f}   {s.diff:+.3f} ({sl:+.3f} to {sh:+.3f})",
        "",
        f"pairing made the intervals {w.shrink:.1f}x (win rate) and {s.shrink:.1f}x (score) narrower "
        f"than unpaired {result.unit} would ({w.unpaired_se * Z95 * 100:.2f} pp and {s.unpaired_se * Z95:.3f} half-widths)",
        "per seat (A - B win rate): " + ", ".join(
            f"seat {seat + 1} {st.diff * 100:+.2f} pp"
            for seat, st in zip(result.seats or range(len(result.per_seat)), result.per_seat)),
    ]
    if result.sprt is not None:
        t = result.sprt
        low, high = t.bounds
        verdict = {"H1": f"H1 accepted: A is better by about {t.d1 * 100:g} pp or more",
                   "H0": f"H0 accepted: A is not better by {t.d1 * 100:g} pp (difference about {t.d0 * 100:g} pp or less)",
                   None: f"no decision within the budget of {result.unit}"}[result.verdict]
        lines.append(f"SPRT (win-rate difference, H0 {t.d0 * 100:g} pp vs H1 {t.d1 * 100:g} pp, "
                     f"alpha {t.alpha:g}, beta {t.beta:g}): LLR {result.llr:.2f} in [{low:.2f}, {high:.2f}] -> {verdict}")
    return "\n".join(lines)
