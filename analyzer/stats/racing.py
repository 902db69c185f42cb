"""Racing candidates toward targets: which of many variants meet a designer's
bands, found with as few games as the noise allows. Knows no game: a candidate
is measured by a callback that returns, per target, an estimate with its
interval, and the search only decides whom to give more games.

A **target** is a band a measure must lie in (``Band``): ``within`` a threshold
(|value| <= t), ``at_most``/``at_least`` a bound, or ``between`` two. Its
**violation** is how far a value lies outside the band, in units of the band's
scale (its half-width, or the bound's size), 0 inside: violations of targets in
different units (pp, turns) then compare. An interval of the value gives an
interval of the violation (its best and worst case over the interval).

A target's **word** on an interval is the analyzer's one verdict rule
(``stats.evidence.decide``) read for a band: *met* when the whole interval lies
inside the band (the question's "ruled out" beyond its edges), *missed* when it
lies wholly outside (an effect beyond the band, "shown"), otherwise *not enough
games*.

**Racing** (successive halving with elimination, as in F-Race and the racing
step of noisy evolutionary search): every candidate gets a first batch of games;
after each round a candidate that another beats on every target for sure (the
other's worst case no worse than its best case everywhere, better somewhere) is
dropped, then, while more remain than the round's quota, the half with the
least hope leaves (``hopeful``: the best case its intervals allow, then its
point estimate), never one whose intervals still reach every band
(``may_meet``); the survivors share the next round's games. The targets are kept
apart: what survives is the set of candidates no other beats on every target
(``pareto``), ordered by the designer's weights only when given.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from analyzer.stats.evidence import NOT_ENOUGH, SHOWN, RULED_OUT, decide

MET, MISSED, OPEN = "met", "missed", "not enough games"
WITHIN, AT_MOST, AT_LEAST, BETWEEN = "within", "at_most", "at_least", "between"


@dataclass(frozen=True)
class Band:
    """The acceptable values of one target: ``lo`` to ``hi`` (either may be
    infinite), ``kind`` how the designer gave it (for the words)."""
    key: str
    kind: str
    lo: float
    hi: float

    @classmethod
    def within(cls, key: str, t: float) -> "Band":
        return cls(key, WITHIN, -abs(t), abs(t))

    @classmethod
    def at_most(cls, key: str, t: float) -> "Band":
        return cls(key, AT_MOST, -math.inf, t)

    @classmethod
    def at_least(cls, key: str, t: float) -> "Band":
        return cls(key, AT_LEAST, t, math.inf)

    @classmethod
    def between(cls, key: str, lo: float, hi: float) -> "Band":
        if not lo <= hi:
            raise ValueError(f"{key}: the band's low end {lo:g} is above its high end {hi:g}")
        return cls(key, BETWEEN, lo, hi)

    @property
    def scale(self) -> float:
        """The unit of a violation: the band's half-width, or the size of a one-sided
        bound (1 when that bound is 0)."""
        if math.isfinite(self.lo) and math.isfinite(self.hi):
            return (self.hi - self.lo) / 2 or 1.0
        bound = self.hi if math.isfinite(self.hi) else self.lo
        return abs(bound) or 1.0

    def violation(self, value: float) -> float:
        """How far ``value`` lies outside the band, in units of ``scale`` (0 inside)."""
        if not math.isfinite(value):
            return math.inf
        return max(self.lo - value, 0.0, value - self.hi) / self.scale

    def violation_bounds(self, low: float, high: float) -> tuple[float, float]:
        """The best and the worst violation of any value in ``low``-``high``."""
        if not (math.isfinite(low) and math.isfinite(high)):
            return 0.0, math.inf
        best = 0.0 if high >= self.lo and low <= self.hi else min(self.violation(low), self.violation(high))
        return best, max(self.violation(low), self.violation(high))

    def word(self, low: float, high: float) -> str:
        """*met*, *missed* or *not enough games*, by ``evidence.decide``: a two-sided
        band is the question's threshold around its centre (inside it: ruled out,
        met; beyond it: shown, missed); a one-sided bound is a threshold of 0 at
        the bound (the whole interval on the band's side: met; on the other: missed)."""
        if math.isfinite(self.lo) and math.isfinite(self.hi):
            centre, half = (self.lo + self.hi) / 2, (self.hi - self.lo) / 2
            w = decide(low - centre, high - centre, half)
            return {RULED_OUT: MET, SHOWN: MISSED}.get(w, OPEN)
        bound = self.hi if math.isfinite(self.hi) else self.lo
        side = 1.0 if math.isfinite(self.lo) else -1.0  # at_least: values above the bound are inside
        if decide(low - bound, high - bound, 0.0) != SHOWN:
            return OPEN
        return MET if side * ((low + high) / 2 - bound) > 0 else MISSED

    def text(self, show: Callable[[float], str] = lambda x: f"{x:g}") -> str:
        """The band in words: ``|value| <= 1.0 pp``, ``25 to 35``, ``at least +3.0 pp``."""
        if self.kind == WITHIN:
            return f"within ±{show(self.hi).lstrip('+')}"
        if self.kind == AT_MOST:
            return f"at most {show(self.hi)}"
        if self.kind == AT_LEAST:
            return f"at least {show(self.lo)}"
        return f"{show(self.lo)} to {show(self.hi)}"


@dataclass(frozen=True)
class Measure:
    """One target's estimate on one candidate: value and 95% interval (``low``,
    ``high``) on ``n`` games. ``words`` per part where the target holds at
    several player counts (each must be met)."""
    value: float
    low: float
    high: float
    n: int = 0


def combine(band: Band, parts: Sequence[Measure]) -> tuple[Measure, str]:
    """A target that must hold at every player count: the part furthest from the
    band stands for it (its measure), and the word is *met* only when every part
    is met, *missed* when any part is missed."""
    words = [band.word(p.low, p.high) for p in parts]
    worst = max(parts, key=lambda p: band.violation(p.value))
    if MISSED in words:
        return worst, MISSED
    return worst, MET if all(w == MET for w in words) else OPEN


@dataclass
class Standing:
    """A candidate's measures so far: per target key its parts (one per player
    count). ``unplayable``: why the candidate cannot be played (its rules do not
    fit the board or the table); it then loses to every playable one."""
    parts: dict[str, list[Measure]] = field(default_factory=dict)
    games: int = 0
    unplayable: str = ""


def violations(bands: Sequence[Band], standing: Standing) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per target: the point violation and its best and worst case (the worst part counts)."""
    if standing.unplayable:
        inf = np.full(len(bands), math.inf)
        return inf, inf, inf
    point, best, worst = [], [], []
    for band in bands:
        parts = standing.parts.get(band.key) or [Measure(math.nan, math.nan, math.nan)]
        point.append(max(band.violation(p.value) for p in parts))
        b = [band.violation_bounds(p.low, p.high) for p in parts]
        best.append(max(x for x, _ in b))
        worst.append(max(y for _, y in b))
    return np.array(point), np.array(best), np.array(worst)


def dominates(a: np.ndarray, b: np.ndarray) -> bool:
    """``a`` no worse than ``b`` on every target and better on one (lower is better)."""
    return bool(np.all(a <= b) and np.any(a < b))


def _dominated_by(rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """``[i, j]``: whether ``rows[j]`` dominates ``cols[i]`` (all at once, in blocks
    of rows: thousands of candidates are compared in a fraction of a second)."""
    out = np.zeros((len(cols), len(rows)), bool)
    for lo in range(0, len(cols), 256):
        c = cols[lo:lo + 256, None, :]
        out[lo:lo + 256] = np.all(rows[None] <= c, axis=2) & np.any(rows[None] < c, axis=2)
    return out


def pareto(points: Sequence[np.ndarray]) -> list[int]:
    """The indices of the points no other dominates, in their order."""
    if not len(points):
        return []
    p = np.asarray(points, float)
    return [int(i) for i in np.flatnonzero(~_dominated_by(p, p).any(axis=1))]


def pareto_ranks(points: Sequence[np.ndarray]) -> list[int]:
    """Each point's Pareto rank: 0 for the front, 1 for the front once it is removed, ..."""
    ranks = [-1] * len(points)
    left = list(range(len(points)))
    rank = 0
    while left:
        front = {left[i] for i in pareto([points[k] for k in left])}
        for k in front:
            ranks[k] = rank
        left = [k for k in left if k not in front]
        rank += 1
    return ranks


def surely_beaten(best: Sequence[np.ndarray], worst: Sequence[np.ndarray]) -> list[bool]:
    """Per candidate: whether another's worst case dominates its best case (it
    cannot be on the front, whatever more games show, but for the 5% chance of
    each bound)."""
    if not len(best):
        return []
    hit = _dominated_by(np.asarray(worst, float), np.asarray(best, float))
    np.fill_diagonal(hit, False)
    return [bool(x) for x in hit.any(axis=1)]


@dataclass
class RaceResult:
    standings: dict[int, Standing]  # every candidate measured, by index
    survivors: list[int]  # the candidates left at the end, best first
    front: list[int]  # the survivors no other survivor beats on every target (Pareto), best first
    rounds: list[dict]  # per round: games per candidate, candidates measured, dropped
    games: int  # games played in all


def order(bands: Sequence[Band], standings: dict[int, Standing], ids: Sequence[int],
          weights: dict[str, float] | None = None) -> list[int]:
    """Candidates best first: Pareto rank, then the weighted (or plain) sum of violations,
    then the index (stable)."""
    points = {i: violations(bands, standings[i])[0] for i in ids}
    ranks = dict(zip(ids, pareto_ranks([points[i] for i in ids])))
    w = np.array([(weights or {}).get(b.key, 1.0) for b in bands])

    def key(i):
        total = float(np.sum(w * np.minimum(points[i], 1e9)))
        return (ranks[i] if not weights else 0, total, ranks[i], i)

    return sorted(ids, key=key)


def may_meet(bands: Sequence[Band], standing: Standing) -> bool:
    """Whether every band is within the candidate's intervals' reach (its best case violates none)."""
    return bool(np.all(violations(bands, standing)[1] == 0))


def hopeful(bands: Sequence[Band], standings: dict[int, Standing], ids: Sequence[int],
            weights: dict[str, float] | None = None) -> list[int]:
    """Candidates in the order a halving keeps them: by the best case their
    intervals allow (the summed, or weighted, violation at its lower bound), then
    by the point estimate. With few games every interval is wide and every
    candidate that may still meet the bands ranks ahead: a measure whose noise
    is common to all candidates (the same games) shifts their point estimates
    together, and a ranking by those alone would drop the right one by chance."""
    w = np.array([(weights or {}).get(b.key, 1.0) for b in bands])

    def key(i):
        point, best, _ = violations(bands, standings[i])
        return (float(np.sum(w * np.minimum(best, 1e9))), float(np.sum(w * np.minimum(point, 1e9))), i)

    return sorted(ids, key=key)


def race(candidates: int, measure: Callable[[int, int, int], Standing], bands: Sequence[Band], budget: int,
         *, first_games: int, per_game: int = 1, keep: int = 8, weights: dict[str, float] | None = None,
         on_round: Callable[[dict], None] | None = None, start: dict[int, Standing] | None = None,
         measure_all: Callable[[list[tuple[int, int, int]]], list[Standing]] | None = None) -> RaceResult:
    """Race candidates ``0 .. candidates-1`` (in that order of preference when
    not all fit: pass a shuffled space for a random sample). ``measure(i,
    first, count)`` plays games ``first .. first+count-1`` of candidate ``i``
    (the same games for every candidate where the rules keep the deal: common
    random numbers) and returns its whole standing so far; each game of a
    candidate costs ``per_game`` games of ``budget`` (its tables, its player
    counts).

    Successive halving on a budget: as many rounds as halvings bring the field
    down to ``keep``, plus one, each spending an equal share of what is left.
    The first round gives every candidate at least ``first_games`` (fewer
    candidates, the first ones, when the share cannot: the sampling of a large
    space); each round drops the surely beaten, then, until the last round, the
    worse half above ``keep``. Stops early when at most ``keep`` are left with
    every target settled (met or missed). ``start``: standings of a resumed race
    (a candidate measured that far plays only the rest). ``measure_all``: a round's
    requests ``(i, first, count)`` measured at once (on threads or workers), in order;
    an unplayable candidate costs nothing."""
    standings: dict[int, Standing] = dict(start or {})
    alive = list(range(candidates))
    rounds_left = max(0, math.ceil(math.log2(max(len(alive), 1) / keep))) + 1
    spent, games_each, rounds = 0, 0, []
    while alive and rounds_left > 0:
        share = (budget - spent) // rounds_left
        step = share // (len(alive) * per_game)
        if games_each == 0 and step < first_games:  # a sample of the space: the first that fit
            alive = alive[:max(share // (first_games * per_game), 0)]
            step = first_games
        if not alive or step < 1:
            break
        target = games_each + step
        asks = [(i, standings[i].games if i in standings else 0) for i in alive]
        asks = [(i, done, target - done) for i, done in asks if done < target and not
                (i in standings and standings[i].unplayable)]
        got = measure_all(asks) if measure_all is not None else [measure(*ask) for ask in asks]
        for (i, done, count), standing in zip(asks, got):
            standings[i] = standing
            spent += 0 if standing.unplayable else count * per_game
        games_each = target
        best = [violations(bands, standings[i])[1] for i in alive]
        worst = [violations(bands, standings[i])[2] for i in alive]
        beaten = surely_beaten(best, worst)
        dropped = [i for i, b in zip(alive, beaten) if b]
        ranked = hopeful(bands, standings, [i for i, b in zip(alive, beaten) if not b], weights)
        rounds_left -= 1
        if rounds_left > 0 and len(ranked) > keep:
            # the worse half leaves, but never a candidate that may still meet every band
            cut = max(keep, -(-len(ranked) // 2), sum(1 for i in ranked if may_meet(bands, standings[i])))
            dropped += ranked[cut:]
            ranked = ranked[:cut]
        measured = len(alive)
        alive = ranked
        info = {"round": len(rounds) + 1, "games_each": games_each, "measured": measured,
                "dropped": len(dropped), "left": len(alive), "spent": spent, "best": alive[0] if alive else None}
        rounds.append(info)
        if on_round is not None:
            on_round(info)
        settled = all(combine(b, standings[i].parts[b.key])[1] != OPEN
                      for i in alive for b in bands if standings[i].parts.get(b.key))
        if len(alive) <= keep and settled:
            break
        if len(alive) <= keep:
            rounds_left = max(rounds_left, 1)  # the field is down to keep: the rest of the budget is theirs
    survivors = order(bands, standings, alive, weights)
    points = [violations(bands, standings[i])[0] for i in survivors]
    front = [survivors[k] for k in pareto(points)]
    return RaceResult(standings, survivors, front, rounds, spent)
