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
from analyzer.stats.distributions import t_quantile
from analyzer.stats.evidence import span
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

    def add_sums(self, n: int, d: float, d2: float) -> None:
        """Races summed elsewhere: only the difference's sums (what the SPRT reads)."""
        self.n += int(n)
        self.d += float(d)
        self.d2 += float(d2)

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
        """95% interval of the mean paired difference (Student t, n - 1 degrees of freedom)."""
        q = float(t_quantile(0.975, self.n - 1)) if self.n > 1 else float("nan")
        return self.diff - q * self.paired_se, self.diff + q * self.paired_se

    @property
    def shrink(self) -> float:
        """How many times narrower the paired interval is than an unpaired one."""
        return self.unpaired_se / self.paired_se if self.paired_se > 0 else float("inf")


SAME = "same"  # the verdict when every paired race so far gave both bots the same result
LOOK = 2000  # races per arm between two looks of the SPRT


@dataclass
class Sprt:
    """Wald's SPRT on the mean paired win-rate difference, normal approximation
    (a generalised SPRT as used by chess engine testers): H0 diff = d0 against H1
    diff = d1 (fractions: 0.01 is 1 pp), error rates alpha (accepting H1 when H0
    holds) and beta. It looks at the paired results every ``look`` races per arm.

    Its decision reads only the running sums of the paired differences (``n``,
    ``Σd``, ``Σd²`` of ``PairedStat``) at each look, so a stream of simulated
    sums (``simulate``) is the same test as one fed by real races.

    Identical bots: when every paired race so far gave A and B the same result
    (all differences 0), the LLR is undefined (no spread). A true difference of
    g shows as a non-zero pair in at least a share g of races (|d| <= 1), so
    once ``(1 - (d1 - d0))^n <= min(alpha, beta)`` the verdict is ``SAME``:
    the two bots played identically, and a difference as large as the gap
    would have shown by now."""
    d0: float
    d1: float
    alpha: float = 0.05
    beta: float = 0.05
    look: int = LOOK

    def __post_init__(self):
        if not (-1 < self.d0 < 1 and -1 < self.d1 < 1):
            raise AnalyzerError(f"--sprt: win-rate differences are between -100 and 100 pp, got "
                                f"{self.d0 * 100:g},{self.d1 * 100:g}")
        if not self.d1 > self.d0:
            raise AnalyzerError(f"--sprt needs D0 < D1, got {self.d0 * 100:g},{self.d1 * 100:g} pp")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise AnalyzerError("--alpha and --beta must be between 0 and 0.5")
        if self.look < 1:
            raise AnalyzerError(f"the SPRT must look at least every race, got {self.look}")

    @classmethod
    def from_pp(cls, d0_pp: float, d1_pp: float, **kw) -> "Sprt":
        """From percentage points, as ``--sprt D0,D1`` gives them (``-5,5`` is -5 pp vs +5 pp)."""
        for v in (d0_pp, d1_pp):
            if not (math.isfinite(v) and -100 < v < 100):
                raise AnalyzerError(f"--sprt takes win-rate differences in percentage points between -100 "
                                    f"and 100 (e.g. 0,1), got {d0_pp:g},{d1_pp:g}")
        return cls(d0_pp / 100, d1_pp / 100, **kw)

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

    def identical_after(self) -> int:
        """Paired races without a single difference after which the verdict is ``SAME``."""
        gap = min(self.d1 - self.d0, 1.0 - 1e-12)
        return math.ceil(math.log(min(self.alpha, self.beta)) / math.log1p(-gap))

    def decide(self, stat: PairedStat) -> str | None:
        if stat.n > 0 and stat.d2 == 0:
            return SAME if stat.n >= self.identical_after() else None
        low, high = self.bounds
        llr = self.llr(stat)
        if llr >= high:
            return "H1"
        if llr <= low:
            return "H0"
        return None

    def simulate(self, p_plus: float, p_minus: float, reps: int, max_races: int, seed: int):
        """``reps`` runs of this test on simulated paired results: each race's
        difference is +1 with chance ``p_plus``, -1 with ``p_minus``, else 0;
        the sums of each look's ``look`` races are drawn at once (multinomial)
        and fed to ``PairedStat`` and ``decide`` as ``compare`` feeds them.
        Returns ``(verdicts, races)``: per run the verdict (None: undecided
        within ``max_races``) and the races per arm it took."""
        rng = np.random.default_rng(seed)
        verdicts, races = [], []
        probs = [p_plus, p_minus, 1 - p_plus - p_minus]
        for _ in range(reps):
            stat, verdict = PairedStat(), None
            while stat.n < max_races and verdict is None:
                k = min(self.look, max_races - stat.n)
                up, down, _ = rng.multinomial(k, probs)
                stat.add_sums(k, up - down, up + down)
                verdict = self.decide(stat)
            verdicts.append(verdict)
            races.append(stat.n)
        return verdicts, np.array(races)


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
            roles: list[str] | None = None, role: str = PLAYER, cluster=None) -> CompareResult:
    """Play ``races`` races per arm (split evenly over the seats of ``role``) or
    until the SPRT decides; returns the paired statistics. ``roles``: each seat's
    role (default: one role, every seat). ``cluster``: a ``cluster.Session``
    whose workers play the races (the same numbers)."""
    roles = roles if roles is not None else [PLAYER] * players
    tables = seatings(a, b, fill, roles, role)
    seats = [seat for seat, _, _ in tables]
    arms = [(make_match(ta), make_match(tb)) for _, ta, tb in tables]
    for match_a, match_b in arms:
        if cluster is None:  # on a cluster the workers load the kernels
            match_a.warm_up(detail=False)  # outcomes only
            match_b.warm_up(detail=False)
    per_seat = -(-races // len(seats))
    if sprt is not None:  # look every sprt.look races per arm, as the test's error rates assume
        chunk_size = max(1, sprt.look // len(seats))
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
                ca = ma.play(seed, start, count, detail=False)  # outcomes only
                cb = mb.play(seed, start, count, detail=False)
                out = (ma.outcomes(ca), mb.outcomes(cb))
                ma.release([ca])
                mb.release([cb])
                return out

            def on_chunk(start, count, parts, seat=seat, k=k):
                for (won_a, score_a), (won_b, score_b) in parts:
                    win.add(won_a[:, seat], won_b[:, seat])
                    score.add(score_a[:, seat], score_b[:, seat])
                    seat_stats[k].add(won_a[:, seat], won_b[:, seat])

            if cluster is not None:
                from analyzer.engine.cluster import stream_outcomes

                arm_a, arm_b = ([(w, sc) for _, w, sc in stream_outcomes(cluster, m, seed, first, step, step)]
                                for m in (match_a, match_b))
                on_chunk(0, step, [(a_out, b_out) for a_out, b_out in zip(arm_a, arm_b)])
                continue
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


def sprt_h1_text(t: Sprt) -> str:
    """What accepting H1 shows, and only that: the difference is above D0 (wrong at
    most alpha of the time when it is D0 or less); not that it reaches D1."""
    better = " (A is better than B)" if t.d0 == 0 else ""
    return (f"H1 accepted: A - B is above {t.d0 * 100:+g} pp{better}, evidence for the {t.d1 * 100:+g} pp "
            f"alternative over {t.d0 * 100:+g} pp at alpha {t.alpha:g}, beta {t.beta:g} (a difference of "
            f"{t.d0 * 100:+g} pp or less passes this test at most {t.alpha * 100:g}% of the time; the difference "
            f"may still be below {t.d1 * 100:+g} pp)")


def sprt_h0_text(t: Sprt) -> str:
    """What accepting H0 shows: the difference is below D1 (wrong at most beta of
    the time when it is D1 or more); not that it is D0 or less."""
    return (f"H0 accepted: A - B is below {t.d1 * 100:+g} pp, evidence for {t.d0 * 100:+g} pp over the "
            f"{t.d1 * 100:+g} pp alternative at alpha {t.alpha:g}, beta {t.beta:g} (a difference of "
            f"{t.d1 * 100:+g} pp or more passes this test at most {t.beta * 100:g}% of the time; the difference "
            f"may still be above {t.d0 * 100:+g} pp)")


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
        f"{w.diff * 100:+.2f} pp ({span(wl, wh, lambda x: f'{x * 100:+.2f}')})",
        f"{'mean score':<12}{s.mean_a:>10.3f}{s.mean_b:>10.3f}   {s.diff:+.3f} ({span(sl, sh, lambda x: f'{x:+.3f}')})",
        "",
        (f"pairing made the intervals {w.shrink:.1f}x (win rate) and {s.shrink:.1f}x (score) narrower "
         f"than unpaired {result.unit} would ({w.unpaired_se * Z95 * 100:.2f} pp and {s.unpaired_se * Z95:.3f} half-widths)"
         if w.paired_se > 0 and s.paired_se > 0 else
         f"every paired {result.unit[:-1]} gave A and B the same "
         f"{'result' if w.paired_se == 0 and s.paired_se == 0 else ('win' if w.paired_se == 0 else 'score')}: "
         "pairing removed all the luck from that difference"),
        "per seat (A - B win rate): " + ", ".join(
            f"seat {seat + 1} {st.diff * 100:+.2f} pp"
            for seat, st in zip(result.seats or range(len(result.per_seat)), result.per_seat)),
    ]
    if result.sprt is not None:
        t = result.sprt
        low, high = t.bounds
        if result.verdict == SAME:
            lines.append(f"SPRT (win-rate difference, H0 {t.d0 * 100:+g} pp vs H1 {t.d1 * 100:+g} pp): "
                         f"the two bots played identically: every one of {result.races_per_arm:,} paired "
                         f"{result.unit} gave A and B the same result, so the difference is 0 (a difference of "
                         f"{(t.d1 - t.d0) * 100:g} pp would have shown by now with chance at least "
                         f"{1 - min(t.alpha, t.beta):.0%})")
        else:
            verdict = {"H1": sprt_h1_text(t), "H0": sprt_h0_text(t),
                       None: f"no decision within the budget of {result.unit}"}[result.verdict]
            lines.append(f"SPRT (win-rate difference A - B, H0 {t.d0 * 100:+g} pp vs H1 {t.d1 * 100:+g} pp, "
                         f"alpha {t.alpha:g}, beta {t.beta:g}, a look every {t.look:,} {result.unit}): "
                         f"LLR {result.llr:.2f} in [{low:.2f}, {high:.2f}] -> {verdict}")
    return "\n".join(lines)
