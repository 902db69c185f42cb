"""Tune a bot's numeric parameters against a field, aware of the noise.

Search: the cross-entropy method in the unit cube of the parameter box (each
parameter mapped linearly, or logarithmically when its range is positive and
spans a factor of 4 or more). Each generation samples candidates around the
current mean (in the first generation: spread over the whole box), always
including the mean itself and the starting bot. Every candidate of a
generation plays the same races (same race indices, so the same deals and
dice: common random numbers), the tuned bot rotating through the seats against
the field, and is scored by its paired difference to the starting bot on those
races. The best few pull the mean and spread along.

The candidate is not the last generation's argmax (picked on the noise of the
races it was scored on): the ``SHORTLIST`` best candidates of the last
generation and the search distribution's final mean are re-measured against
the starting bot on fresh races (indices from ``FRESH_OFFSET``, which the
search never plays), and the best of them there is the candidate (the starting
bot if none beats it). Picking among a few on fresh races still flatters the pick a little,
so that candidate and the starting bot are measured once more with a paired
comparison (``analyzer.engine.compare.compare``) on races from
``2 * FRESH_OFFSET``: the number the output and the TOML file quote.

Adoption: the candidate replaces the start only when that last, independent
re-measure shows it better beyond chance: the lower end of the 95% paired
interval of the objective's difference (win rate, or mean score) lies above
``min_gain`` (0 by default; ``--min-gain``, in pp of win rate or points of
score). Otherwise the starting parameters are kept, and the output says so
with the measured difference, its interval and the races it rests on. A search
over parameters that make no difference thus keeps the start in about 97.5%
of seeds (one side of a 95% interval), whatever the search picked.

Step parameters (the bot family declares them ``integer``: cards held back,
rollouts) are searched on the real line and rounded to whole numbers wherever
a candidate is built, so no candidate is reported as ``late_bets=1.197``.

Budget: all races played, search and re-measures together; the re-measures get
a quarter (half for the shortlist, half for the final comparison's two arms).
"""
from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from analyzer.engine.bots import PLAYER
from analyzer.engine.botspec import BotSpec
from analyzer.engine.seating import role_seats, seat_tables
from analyzer.engine.compare import CompareResult, PairedStat, compare
from analyzer.engine.runner import run_chunks
from analyzer.errors import AnalyzerError
from analyzer.stats.evidence import span

FRESH_OFFSET = 10 ** 12  # race indices of the re-measures: far beyond any search
OBJECTIVES = ("win", "score")
SHORTLIST = 3  # best candidates of the last generation re-measured on fresh races (with the mean)


@dataclass(frozen=True)
class Param:
    name: str
    lo: float
    hi: float
    start: float
    integer: bool = False  # a step parameter: candidates take whole numbers

    @property
    def log(self) -> bool:
        return self.lo > 0 and self.hi / self.lo >= 4

    def to_unit(self, x: float) -> float:
        if self.hi == self.lo:
            return 0.5
        if self.log:
            return math.log(x / self.lo) / math.log(self.hi / self.lo)
        return (x - self.lo) / (self.hi - self.lo)

    def from_unit(self, u: float) -> float:
        u = min(max(u, 0.0), 1.0)
        x = self.lo * (self.hi / self.lo) ** u if self.log else self.lo + u * (self.hi - self.lo)
        if self.integer:  # a whole number inside the range
            return float(min(max(round(x), math.ceil(self.lo)), math.floor(self.hi)))
        return float(f"{x:.4g}")  # four significant digits: what the TOML file will hold

    def describe(self) -> str:
        scale = "log" if self.log else "linear"
        return f"{self.name} in [{self.lo:g}, {self.hi:g}] ({scale}{', whole numbers' if self.integer else ''})"


def default_range(default: float) -> tuple[float, float]:
    """[0.25x, 3x] of the family default; [0, 2] when it is 0."""
    if default > 0:
        return 0.25 * default, 3 * default
    if default < 0:
        return 3 * default, 0.25 * default
    return 0.0, 2.0


def parse_ranges(text: str | None) -> dict[str, tuple[float, float] | None] | None:
    """``name=lo:hi,name2,...`` -> {name: (lo, hi) or None for the default range}."""
    if text is None:
        return None
    out: dict[str, tuple[float, float] | None] = {}
    for entry in (e.strip() for e in text.split(",")):
        name, eq, rng = (s.strip() for s in entry.partition("="))
        if not name:
            raise AnalyzerError(f"--params: entry {entry!r} has no parameter name")
        if name in out:
            raise AnalyzerError(f"--params: {name!r} is given twice")
        if not eq:
            out[name] = None
            continue
        try:
            lo, hi = (float(x) for x in rng.split(":"))
            if not (math.isfinite(lo) and math.isfinite(hi)) or lo > hi:
                raise ValueError
        except ValueError:
            raise AnalyzerError(f"--params: {entry!r} needs the form name=lo:hi with lo <= hi") from None
        out[name] = (lo, hi)
    return out


def search_space(defaults: dict[str, float], start: dict[str, float],
                 ranges: dict[str, tuple[float, float] | None] | None, integer=()) -> list[Param]:
    """The parameters to tune: all of them with default ranges, or those named in
    ``ranges``. ``defaults``: the family's defaults; ``start``: the starting bot's
    values (ranges widen to include them); ``integer``: the step parameters."""
    if not defaults:
        raise AnalyzerError("this bot has no parameters to tune")
    names = list(defaults) if ranges is None else list(ranges)
    for name in names:
        if name not in defaults:
            raise AnalyzerError(f"--params: the bot has no parameter {name!r} (its parameters: {', '.join(defaults)})")
    space = []
    for name in names:
        lo, hi = (ranges or {}).get(name) or default_range(defaults[name])
        x = start[name]
        lo, hi = min(lo, x), max(hi, x)
        if name in integer and math.floor(hi) < math.ceil(lo):
            raise AnalyzerError(f"--params: {name} takes whole numbers, and [{lo:g}, {hi:g}] holds none")
        space.append(Param(name, lo, hi, x, name in integer))
    return space


def tune_space(game: str, spec: BotSpec, params: str | None = None) -> tuple[str, dict[str, float], list[Param]]:
    """What ``tune`` searches for the bot ``spec`` of ``game`` (a built-in bot, a
    bot .toml file or a user bot .py file): ``(its family, every parameter's
    start value, the parameters searched)``; ``params``: ``--params`` (default:
    every parameter, 0.25x to 3x its default cut to what the bot takes)."""
    from analyzer.games import registry

    family, base, defaults = _tunable(game, spec)
    tuned = registry(game).resolve(spec)  # the family with its parameter ranges (a user bot's own)
    ranges = parse_ranges(params)
    steps = tuned.integer | {n for n, r in tuned.ranges.items() if r.integer}
    start_values = {**base, **dict(spec.params)}
    space = search_space(defaults, start_values, ranges, steps)
    space = [p if (ranges or {}).get(p.name) else _within(p, tuned.range_of(p.name)) for p in space]
    for p in space:  # a range beyond what the bot takes would fail mid-search
        for end in (p.lo, p.hi):
            tuned.check_value(p.name, end, "--params")
    return family, start_values, space


def _within(param: Param, allowed) -> Param:
    """A default search range (0.25x to 3x the default) cut to what the bot takes."""
    lo, hi = max(param.lo, allowed.lo), min(param.hi, allowed.hi)
    return dataclasses.replace(param, lo=min(lo, param.start), hi=max(hi, param.start))


def _tunable(game: str, spec: BotSpec) -> tuple[str, dict[str, float], dict[str, float]]:
    """The family behind a --bot (a built-in one, or a user bot file), its parameter
    values before the spec's overrides and the family's defaults."""
    from analyzer.games import registry

    families = registry(game).builtin
    if spec.name.endswith(".py"):  # a user bot: its declared parameters
        defaults = registry(game).resolve(spec).defaults()
        if not defaults:
            raise AnalyzerError(f"--bot {spec.name} declares no parameters to tune")
        return spec.name, defaults, defaults
    if spec.name.endswith(".toml"):
        f = registry(game).read_bot_toml(spec.name)
        return f.family, {**families[f.family].defaults(), **f.params}, families[f.family].defaults()
    if spec.name not in families:
        raise AnalyzerError(f"--bot must be a built-in bot ({', '.join(families)}), a bot .toml file or a "
                            f"user bot .py file, got {spec.name!r}")
    return spec.name, families[spec.name].defaults(), families[spec.name].defaults()


@dataclass
class Generation:
    index: int
    first_race: int
    races: int  # per candidate
    mean: dict[str, float]
    best: dict[str, float]
    best_win: PairedStat
    best_score: PairedStat
    best_spec: BotSpec


@dataclass
class TuneResult:
    family: str  # the built-in family, as the TOML file names it
    start: BotSpec
    winner: BotSpec  # the bot tune settles on: the candidate when adopted, else the start
    winner_params: dict[str, float]  # every parameter of that bot
    space: list[Param]
    field: list[str]
    players: int
    seed: int
    objective: str
    budget: int
    candidates: int
    generations: list[Generation]
    remeasure: CompareResult
    search_races: int = 0
    # the shortlist on fresh races: (spec, tuned values, win, score) against the start
    shortlist: list[tuple[BotSpec, dict[str, float], PairedStat, PairedStat]] = None
    shortlist_races: int = 0
    candidate: BotSpec | None = None  # the shortlist's best: the bot re-measured against the start
    adopted: bool = False  # the re-measure showed the candidate better beyond chance (and min_gain)
    min_gain: float = 0.0  # the practical threshold (fraction of win rate, or points of score)

    @property
    def measured(self) -> PairedStat:
        """The re-measure's difference candidate - start in the objective."""
        return self.remeasure.win if self.objective == "win" else self.remeasure.score

    @property
    def in_search(self) -> Generation:
        return self.generations[-1]


class _Shifted:
    """A match whose race indices are shifted by ``offset``: fresh deals and dice."""

    def __init__(self, match, offset: int):
        self._m, self._offset = match, offset

    def play(self, seed, first, count, detail=True):
        return self._m.play(seed, first + self._offset, count, detail)

    def __getattr__(self, name):
        return getattr(self._m, name)

    def __reduce__(self):  # sent to cluster workers as the match and its offset
        return _Shifted, (self._m, self._offset)


def fill_field(field_specs: list[BotSpec], players: int) -> list[BotSpec]:
    if len(field_specs) == 1:
        return field_specs * (players - 1)
    if len(field_specs) != players - 1:
        raise AnalyzerError(f"--against gives {len(field_specs)} bots, {players} players need "
                            f"{players - 1} (or one)")
    return list(field_specs)


def _evaluate(make_match, specs: list[BotSpec], fill: list[BotSpec], roles: list[str], role: str,
              first: int, per_seat: int, seed: int, threads: int,
              cluster=None) -> list[tuple[np.ndarray, np.ndarray]]:
    """(won, score) of each candidate over the same races: ``per_seat`` races in
    each seat of ``role`` (the k-th of them: race indices ``first + k * per_seat + i``),
    the same for every candidate."""
    out = []
    for spec in specs:
        won, score = [], []
        for k, (seat, table) in enumerate(seat_tables(spec, fill, roles, role, "--against")):
            match = make_match(table)
            if cluster is not None:  # the workers load the kernels
                from analyzer.engine.cluster import stream_outcomes

                for _, w, s in stream_outcomes(cluster, match, seed, first + k * per_seat, per_seat, per_seat):
                    won.append(w[:, seat])
                    score.append(s[:, seat])
                continue
            match.warm_up(detail=False)  # outcomes only
            parts_all = []

            def play(start, count, match=match, base=first + k * per_seat):
                chunk = match.play(seed, base + start, count, detail=False)  # outcomes only
                w, s = match.outcomes(chunk)
                match.release([chunk])
                return w, s

            match.reserve(-(-per_seat // threads))
            run_chunks(play, per_seat, chunk_size=per_seat, threads=threads,
                       on_chunk=lambda f, c, parts: parts_all.extend(parts))
            won += [w[:, seat] for w, _ in parts_all]
            score += [s[:, seat] for _, s in parts_all]
        out.append((np.concatenate(won).astype(np.float64), np.concatenate(score).astype(np.float64)))
    return out


def plan(budget: int, places: int, dims: int, players: int | None = None) -> tuple[int, int, int, int]:
    """(candidates per generation, generations, races per candidate per generation,
    re-measure races per arm) for a budget; ``places``: the seats the tuned bot
    rotates over (its role's), of ``players`` (default: every seat)."""
    remeasure = max(places, budget // 8 // places * places)
    search = budget - 2 * remeasure
    k = min(12, 4 + 2 * dims)
    gens = min(10, max(2, search // (k * 250 * places)))
    per = search // (k * gens) // places * places
    if per < 25 * places:
        need = 70 * k * places
        players = places if players is None else players
        seats = f"{players} players" if places == players else f"{players} players ({places} seats of its role)"
        raise AnalyzerError(f"--budget {budget:,} is too small to tune {dims} parameter(s) with {seats}: "
                            f"give at least {need:,} races")
    return k, gens, per, remeasure


def tune(make_match: Callable[[list[BotSpec]], object], family: str, start: BotSpec, start_values: dict[str, float],
         space: list[Param], field_specs: list[BotSpec], players: int, budget: int, seed: int, *,
         threads: int, objective: str = "win", on_generation: Callable[[Generation], None] | None = None,
         roles: list[str] | None = None, role: str = PLAYER, cluster=None,
         min_gain: float = 0.0) -> TuneResult:
    """Tune ``space`` of the bot ``start`` (whose full parameter values are
    ``start_values``) against ``field_specs``, rotating it among the seats of
    ``role`` (``roles``: each seat's; default one role); see the module docstring.
    ``min_gain``: the practical threshold the re-measure's interval must clear
    (a fraction of win rate, or points of mean score, as ``objective``)."""
    roles = roles if roles is not None else [PLAYER] * players
    places = len(role_seats(roles, role))
    if objective not in OBJECTIVES:
        raise AnalyzerError(f"--objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    if not (math.isfinite(min_gain) and min_gain >= 0):
        raise AnalyzerError(f"--min-gain must be 0 or more, got {min_gain:g}")
    fill = fill_field(field_specs, players)
    if budget >= FRESH_OFFSET:  # the search's race indices stay below the re-measure's
        raise AnalyzerError(f"--budget must be below {FRESH_OFFSET:,}")
    k, gens, per, remeasure = plan(budget, places, len(space), players)
    rng = np.random.default_rng([seed, 0x7475_6E65])  # candidates: reproducible from the seed
    start_unit = np.array([p.to_unit(p.start) for p in space])
    mu = start_unit.copy()
    sigma = np.full(len(space), 0.3)
    n_elite, smooth = max(2, round(0.3 * k)), 0.7
    fixed = dict(start.params)

    def spec_of(u) -> tuple[BotSpec, dict[str, float]]:
        values = {p.name: p.from_unit(x) for p, x in zip(space, u)}
        return BotSpec(start.name, tuple(sorted({**fixed, **values}.items()))), values

    history: list[Generation] = []
    first = 0
    for g in range(gens):
        if g == 0:  # the first generation spreads over the whole box (Latin hypercube)
            strata = np.array([rng.permutation(k - 2) for _ in space]).T
            samples = (strata + rng.random(strata.shape)) / (k - 2)
        else:  # then around the mean, reflected at the box's walls
            samples = 1 - np.abs(1 - np.abs(mu + sigma * rng.standard_normal((k - 2, len(space)))))
        # candidate 0 is the start itself: the baseline of the pairing, and a candidate like the others
        units = [start_unit, mu.copy()] + list(np.clip(samples, 0, 1))
        cands = [(start, {p.name: p.start for p in space})] + [spec_of(u) for u in units[1:]]
        results = _evaluate(make_match, [c for c, _ in cands], fill, roles, role, first, per // places,
                            seed, threads, cluster)
        base_win, base_score = results[0]
        wins, scores = [], []
        for won, score in results:
            w, s = PairedStat(), PairedStat()
            w.add(won, base_win)
            s.add(score, base_score)
            wins.append(w)
            scores.append(s)
        key = np.array([(w if objective == "win" else s).diff for w, s in zip(wins, scores)])
        order = np.argsort(-key, kind="stable")  # ties go to the earlier candidate: the start first
        elite = np.array([units[i] for i in order[:n_elite]])
        best = int(order[0])
        history.append(Generation(g + 1, first, per, dict(zip((p.name for p in space),
                                                              (p.from_unit(x) for p, x in zip(space, mu)))),
                                  cands[best][1], wins[best], scores[best], cands[best][0]))
        if on_generation is not None:
            on_generation(history[-1])
        a = 1.0 if g == 0 else smooth
        mu = (1 - a) * mu + a * elite.mean(0)
        sigma = np.maximum((1 - a) * sigma + a * elite.std(0), 0.03)
        first += per
    search_races = first * k
    # the shortlist: the last generation's best few and the final mean, on fresh races
    short = [(cands[i][0], cands[i][1]) for i in order[:SHORTLIST + 1] if i != 0][:SHORTLIST]
    short.append(spec_of(mu))
    short = list({spec: (spec, values) for spec, values in short if spec != start}.values())
    per_short = max(places, remeasure // (len(short) + 1) // places * places)
    results = _evaluate(make_match, [start] + [c for c, _ in short], fill, roles, role, FRESH_OFFSET,
                        per_short // places, seed, threads, cluster)
    shortlist = []
    for (spec, values), (won, score) in zip(short, results[1:]):
        w, sc = PairedStat(), PairedStat()
        w.add(won, results[0][0])
        sc.add(score, results[0][1])
        shortlist.append((spec, values, w, sc))
    key = [(w if objective == "win" else sc).diff for _, _, w, sc in shortlist]
    best = int(np.argmax(key)) if shortlist else -1
    start_tuned = {p.name: p.start for p in space}
    if best >= 0 and key[best] > 0:
        candidate, candidate_values = shortlist[best][0], shortlist[best][1]
    else:
        candidate, candidate_values = start, start_tuned
    fresh = compare(lambda table: _Shifted(make_match(table), 2 * FRESH_OFFSET), candidate, start, fill, players,
                    max(places, remeasure // 2 // places * places), seed, threads=threads, roles=roles, role=role,
                    cluster=cluster)
    measured = fresh.win if objective == "win" else fresh.score
    adopted = candidate != start and measured.n > 1 and measured.interval()[0] > min_gain
    winner, winner_values = (candidate, candidate_values) if adopted else (start, start_tuned)
    return TuneResult(family, start, winner, {**start_values, **winner_values}, space, [s.label for s in fill],
                      players, seed, objective, budget, k, history, fresh, search_races, shortlist,
                      per_short * (len(short) + 1), candidate, adopted, min_gain)


# ---------------------------------------------------------------------- output


def _pp(stat: PairedStat) -> str:
    lo, hi = stat.interval()
    return f"{stat.diff * 100:+.2f} pp ({span(lo, hi, lambda x: f'{x * 100:+.2f}')})"


def _pts(stat: PairedStat) -> str:
    lo, hi = stat.interval()
    return f"{stat.diff:+.3f} ({span(lo, hi, lambda x: f'{x:+.3f}')})"


def _gain(r: TuneResult, value: float) -> str:
    return f"{value * 100:+.2f} pp" if r.objective == "win" else f"{value:+.3f} points"


def decision(r: TuneResult) -> str:
    """One line: adopted or kept, with what was measured, on how many races, and the interval."""
    fresh, unit = r.remeasure, r.remeasure.unit
    objective = "win rate" if r.objective == "win" else "mean score"
    if r.candidate is None or r.candidate == r.start:
        if not r.shortlist:
            return "kept the start: the search found no other candidate"
        key = [(w if r.objective == "win" else sc) for _, _, w, sc in r.shortlist]
        best = max(key, key=lambda st: st.diff)
        lo, hi = best.interval()
        return (f"kept the start: no candidate of the shortlist beat it on {best.n:,} fresh {unit} each "
                f"(the best {_gain(r, best.diff)} {objective}, {_gain(r, lo)} to {_gain(r, hi)}, 95% paired)")
    m = r.measured
    lo, hi = m.interval()
    bar = f"the --min-gain of {_gain(r, r.min_gain).lstrip('+')}" if r.min_gain > 0 else "0"
    measured = (f"the candidate re-measured {_gain(r, m.diff)} {objective} ({_gain(r, lo)} to {_gain(r, hi)}, "
                f"95% paired) over the start on {fresh.races_per_arm:,} fresh {unit} per arm")
    if r.adopted:
        return f"adopted the candidate: {measured}, above {bar} beyond chance"
    return (f"kept the start: {measured}; the interval does not lie above {bar}, so "
            f"{'a gain that large' if r.min_gain > 0 else 'the gain'} is not shown beyond chance")


def render(r: TuneResult) -> str:
    fresh = r.remeasure
    unit = fresh.unit  # races or games
    last = r.in_search
    objective = "win rate" if r.objective == "win" else "mean score"
    candidate = r.candidate or r.winner
    lines = [
        f"tune {r.start.label} against {','.join(r.field)}: {r.players} players, objective {objective}, seed {r.seed}",
        f"budget {r.budget:,} {unit}: search {r.search_races:,} ({len(r.generations)} generations x "
        f"{r.candidates} candidates (start, mean, {r.candidates - 2} samples) x {last.races:,} {unit} on common "
        f"deals); shortlist on fresh {unit} {r.shortlist_races:,}; final re-measure {2 * fresh.races_per_arm:,}",
        "searched: " + "; ".join(p.describe() for p in r.space),
        "",
        f"{'gen':<5}{'best vs start (win rate)':<34}{'(mean score)':<28}mean of the search distribution",
    ]
    for g in r.generations:
        mean = ", ".join(f"{k}={v:g}" for k, v in g.mean.items())
        lines.append(f"{g.index:<5}{_pp(g.best_win):<34}{_pts(g.best_score):<28}{mean}")
    if r.shortlist:
        lines += ["", f"shortlist (the last generation's best and the final mean) against the start on "
                      f"{r.shortlist[0][2].n:,} fresh {unit} each:"]
        for spec, _, w, sc in r.shortlist:
            lines.append(f"  {_pp(w):<34}{_pts(sc):<28}{spec.label}")
    lines += [
        "",
        f"start:     {r.start.label}",
        f"candidate: {candidate.label}{' (none beat the start)' if candidate == r.start else ''}",
        "",
        f"{'candidate - start':<52}{'win rate (95% CI, paired)':<34}mean score",
        f"{f'in search (gen {last.index}, {last.races:,} {unit}; picked on them)':<52}"
        f"{_pp(last.best_win):<34}{_pts(last.best_score)}",
        f"{f're-measured ({fresh.races_per_arm:,} new fresh {unit} per arm)':<52}"
        f"{_pp(fresh.win):<34}{_pts(fresh.score)}",
        f"candidate on fresh {unit}: win rate {fresh.win.mean_a:.2%}, mean score {fresh.score.mean_a:.3f} "
        f"(start: {fresh.win.mean_b:.2%}, {fresh.score.mean_b:.3f})",
        "",
        decision(r),
        f"result: {r.winner.label}",
    ]
    values = r.winner_params if r.adopted or r.candidate is None else {
        **r.winner_params, **dict(candidate.params)}
    edge = [p for p in r.space if p.hi > p.lo and p.name in values and not 0.02 < p.to_unit(values[p.name]) < 0.98]
    if edge and candidate != r.start:
        lines.append(f"{'' if r.adopted else 'the candidate is '}at the edge of its range (widen it with "
                     "--params name=lo:hi): "
                     + ", ".join(f"{p.name}={values[p.name]:g} in [{p.lo:g}, {p.hi:g}]" for p in edge))
    return "\n".join(lines)


def toml_text(r: TuneResult, name: str) -> str:
    fresh = r.remeasure
    lo, hi = fresh.win.interval()
    if r.adopted:
        description = (f"{r.family} tuned against {','.join(r.field)} ({r.players} players): re-measured "
                       f"{fresh.win.diff * 100:+.2f} pp win rate ({lo * 100:+.2f} to {hi * 100:+.2f}) over "
                       f"{r.start.label}")
    else:
        description = (f"{r.start.label} kept by tune against {','.join(r.field)} ({r.players} players): "
                       + decision(r).removeprefix("kept the start: "))
    lines = [
        f"# written by analyzer tune (seed {r.seed}, budget {r.budget:,} {fresh.unit}, objective {r.objective})",
        f"# use it as: --bots {name}.toml  (or path.toml:param=value to override)",
        f'family = "{r.family}"',
        f"name = {json.dumps(name)}",
        f"description = {json.dumps(description)}",
        "",
        "[params]",
    ]
    tuned = {p.name for p in r.space}
    whole = {p.name for p in r.space if p.integer}
    for key, value in r.winner_params.items():
        text = f"{int(value)}" if key in whole else f"{float(value)!r}"
        note = ("  # tuned" if r.adopted else "  # searched; the start's value kept") if key in tuned else ""
        lines.append(f"{key} = {text}{note}")
    return "\n".join(lines) + "\n"
