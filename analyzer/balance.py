"""Balance searches: which rule variants meet a designer's targets
(``analyzer balance FILE.toml``). Knows no game: it finds a game's rules, bots
and questions through the registry.

    game = "..."                  # a registered game (examples: sims/balance-<game>.toml)
    players = [4]                 # every target must hold at each count
    bots = "..."                  # the table the seat, length and flow targets are measured on
    budget = 2000000              # games in all, re-measure included
    seed = 1
    out = "../runs/balance"       # default: runs/<file stem> beside the file
    [vary]                        # rule keys and their candidate values
    bet_payouts = [[6, 4, 3, 2, 1], [5, 4, 3, 2, 1]]
    hand_size = "4:7"             # whole numbers 4 to 7
    [targets]                     # a question's key: a number is its band, a pair [lo, hi] a range
    first_seat_edge = 1.0         # pp: |seat 1 - the average seat| <= 1.0
    length = [25, 35]             # the game's own length measure
    skill_gradient = 3.0          # pp: the best heuristic beats random by at least this
    [weights]                     # optional: orders the Pareto set (never changes it)
    first_seat_edge = 2.0

What it does, in order (docs/balance.md):

1. The space: every combination of the ``[vary]`` values over the file's
   ``rules`` (the box's without), the start first; a space too large for the
   budget is sampled (in an order fixed by the seed).
2. The race (``stats.racing``): every candidate plays the same games (items of
   the seed: common random numbers wherever a variant keeps the deal) on the
   measuring tables (``bots`` in every seat at each player count; for
   ``skill_gradient`` the game's best heuristic against random, paired, seats
   rotated); the first round shows how far each target can move (its feasible
   range over the space) and which keys move it; rounds of successive halving
   follow, more games only for the contenders. The targets are kept apart: the
   result is the Pareto set, ordered by the weights only when given.
3. Honest selection: the reported variants are measured again on games no
   candidate played (later items of the seed), each target given its word
   (*met*, *missed*, *not enough games*) with its interval; the heuristic is
   re-tuned on the recommended variant (``tune``) and its targets measured with
   the re-tuned bot; the search bot's rung of the ladder (it against the best
   heuristic) is measured on the recommended variant at the end.
4. Outputs in ``OUT``: ``variants.parquet`` (a row per variant measured),
   ``variant-<n>.toml`` per reported variant (``variant-1.toml`` the
   recommended one; ``--rules`` takes it as it is), ``balance.json`` and the
   report (``report``, default ``OUT/balance.html``). Candidates are
   checkpointed by content in ``OUT/candidates/``: ``--resume`` plays only what
   is missing.
"""
from __future__ import annotations

import dataclasses
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
from pydantic import Field, StrictBool, StrictFloat, StrictInt, StrictStr, field_validator

from analyzer.engine.datafile import FileModel, read_toml, validate
from analyzer.engine.simulate import MAX_COUNT, MAX_PLAYERS, MAX_SEED
from analyzer.errors import AnalyzerError, InputFileError
from analyzer.stats.racing import (
    AT_LEAST, AT_MOST, MET, MISSED, OPEN, WITHIN, Band, Measure, Standing, combine,
)
from analyzer.version import __version__
from analyzer.balance_tables import (
    BLOCK, Checkpoints, Tables, Tally, candidate_key, jsonable, ladder_bots, measures, play_tally, tables_of,
    _tally_task,
)

MAX_VARIANTS = 100_000  # a space is enumerated: bounded before it is
VARIANTS_TABLE = "variants.parquet"
BALANCE_MANIFEST = "balance.json"
CANDIDATES = "candidates"
FIRST_GAMES = 400  # the fewest games a candidate's first round gives it (the sampling of a large space)
# the budget's shares: the race, the re-measure of the reported variants, the re-tune (and the targets
# measured again with the re-tuned bot); the rest plays the search bot's rung (at most LADDER_GAMES a arm)
SEARCH_SHARE, REMEASURE_SHARE, RETUNE_SHARE = 0.6, 0.15, 0.15


# ------------------------------------------------------------------ the file

class _BalanceFile(FileModel):
    title: StrictStr | None = None
    game: Any = Field(default=None, validate_default=True)
    players: StrictInt | list[StrictInt] | None = None
    bots: StrictStr | None = None
    budget: StrictInt = Field(ge=10_000, le=MAX_COUNT)
    seed: StrictInt = Field(default=1, ge=0, le=MAX_SEED)
    out: StrictStr | None = None
    report: StrictStr | None = None
    rules: StrictStr | dict | None = None
    vary: dict[StrictStr, list | StrictStr] = Field(min_length=1)
    targets: dict[StrictStr, StrictInt | StrictFloat | list[StrictInt | StrictFloat]] = Field(min_length=1)
    weights: dict[StrictStr, StrictInt | StrictFloat] | None = None
    keep: StrictInt = Field(default=5, ge=1, le=20)
    retune: StrictBool = True
    role: StrictStr | None = None

    @field_validator("game")
    @classmethod
    def _game(cls, game):
        from analyzer.scenario import known_game

        return known_game(game)

    @field_validator("players")
    @classmethod
    def _players(cls, v):
        counts = [v] if isinstance(v, int) else v
        if counts is not None and (not counts or len(set(counts)) != len(counts)
                                   or not all(1 <= n <= MAX_PLAYERS for n in counts)):
            raise ValueError(f"players must be a player count or a list of distinct counts (1 to {MAX_PLAYERS})")
        return v


@dataclass(frozen=True)
class Target:
    """One target: a question's key, its band (in the question's own numbers: a
    share for pp), how it prints, and the design whose tables measure it."""
    key: str
    band: Band
    design: str  # "table" (the bots' table) or "skill" (the paired ladder)
    question: Any = None  # the report library's question object (a "table" target)
    scale: Any = None  # how its numbers print (``stats.evidence.Scale``)
    given: str = ""  # the band as the file gave it

    def show(self, x: float) -> str:
        return self.scale.value(x) if self.scale is not None else f"{x:g}"


@dataclass
class Plan:
    """A balance file read and checked: everything a search needs, nothing played."""
    path: Path
    title: str
    game: str
    players: list[int]
    bots: str | None
    budget: int
    seed: int
    out: Path
    report: Path
    start: Any  # the start's Rules (the file's ``rules``, or the box's)
    keys: list[str]  # the varied keys, in the file's order
    values: list[list]  # each key's candidate values (normalised)
    targets: list[Target]
    weights: dict[str, float] | None
    keep: int
    retune: bool
    role: str | None
    size: int  # variants in the space

    def variant(self, index: int):
        """The rules of variant ``index`` of the space (the start's over the box's, then the key values)."""
        from analyzer.games import rules_of

        picks = _unrank(index, [len(v) for v in self.values])
        changes = {**self.start.changed(), **{k: self.values[j][p] for j, (k, p) in enumerate(zip(self.keys, picks))}}
        return rules_of(self.game).rules(jsonable(changes))

    def start_index(self) -> int | None:
        """The start's index in the space, None when its values are not all among the candidates."""
        picks = []
        for key, values in zip(self.keys, self.values):
            if self.start[key] not in values:
                return None
            picks.append(values.index(self.start[key]))
        return _rank(picks, [len(v) for v in self.values])


def _unrank(index: int, sizes: list[int]) -> list[int]:
    picks = []
    for size in reversed(sizes):
        index, p = divmod(index, size)
        picks.append(p)
    return picks[::-1]


def _rank(picks: list[int], sizes: list[int]) -> int:
    index = 0
    for p, size in zip(picks, sizes):
        index = index * size + p
    return index


def _values_of(ruleset, key: str, given, where: str) -> list:
    """A ``[vary]`` key's candidate values, each checked as a value of the rule:
    a list of values, or ``"lo:hi"`` (whole numbers lo to hi) for a number."""
    rule = ruleset.key(key)
    if isinstance(given, str):
        lo, sep, hi = given.partition(":")
        try:
            lo, hi = int(lo), int(hi)
        except ValueError:
            lo = hi = None
        if not sep or lo is None or rule.kind != "int" or lo > hi:
            raise InputFileError(f"{where}: vary.{key}: a range is \"LO:HI\" of whole numbers, LO <= HI, "
                                 f"for a number rule; got {given!r}")
        given = list(range(lo, hi + 1))
    if not given:
        raise InputFileError(f"{where}: vary.{key}: the list of values is empty")
    out = []
    for value in given:
        checked = ruleset.rules({key: value}, where=f"{where}: vary")[key]
        if checked in out:
            raise InputFileError(f"{where}: vary.{key}: the value {value!r} is given twice")
        out.append(checked)
    return out


# what a bare number means for a target that is not a band around zero: the
# most a share may reach (games nobody wins; how much more than chance the
# leader at the half wins)
AT_MOST_KEYS = frozenset({"nobody_wins", "decided_late"})
SKILL_SCALE_KEY = "skill_gradient"


def _targets(game: str, given: dict, where: str, measurable: set[str]) -> list[Target]:
    """Each ``[targets]`` entry as a band on its question (``stats.questions``:
    the game's questions by key). ``measurable``: the tables one candidate's
    games give (a question read from other tables, an intervention's, cannot be
    a target)."""
    from analyzer.games import questions_for

    questions = {k: q for k, q in questions_for(game).items()
                 if k != SKILL_SCALE_KEY and set(q.tables) <= measurable}
    targets = []
    for key, band in given.items():
        question = questions.get(key)
        if question is None and key != SKILL_SCALE_KEY:
            known = ", ".join(sorted({*questions, SKILL_SCALE_KEY}))
            why = ("not measured on the bots' table (it needs tables of its own)"
                   if key in questions_for(game) else "not a question of this game")
            raise InputFileError(f"{where}: targets.{key}: {why} (its targets: {known})")
        scale = _scale(question)
        factor = scale.factor
        if isinstance(band, list):
            if len(band) != 2:
                raise InputFileError(f"{where}: targets.{key}: a range is a pair [low, high], got {band!r}")
            lo, hi = (float(x) for x in band)
            if not lo <= hi:
                raise InputFileError(f"{where}: targets.{key}: the low end {lo:g} is above the high end {hi:g}")
            b = Band.between(key, lo / factor, hi / factor)
        else:
            t = float(band)
            goal = _goal(key, question)
            if goal is None:
                raise InputFileError(f"{where}: targets.{key}: give a range [low, high] ({question.text} has no "
                                     f"zero to keep a band around)")
            if goal == WITHIN and t < 0:
                raise InputFileError(f"{where}: targets.{key}: a band is a number of 0 or more, got {t:g}")
            b = {WITHIN: Band.within, AT_MOST: Band.at_most, AT_LEAST: Band.at_least}[goal](key, t / factor)
        targets.append(Target(key, b, "skill" if key == SKILL_SCALE_KEY else "table", question, scale,
                              json.dumps(band)))
    return targets


def _scale(question):
    """How a target's numbers print and are written in the file (the question's scale;
    the skill ladder's: a win-rate difference in pp)."""
    from analyzer.stats.evidence import PP

    return PP if question is None else question.scale


def _goal(key: str, question) -> str | None:
    """What a bare number means for a target: a band around zero (``within``: a
    signed difference such as the first seat's edge), or a bound: at least (the
    skill gradient: the better rung beats the one below by at least it), at most
    (a share such as games nobody wins). None: only a range makes sense (a
    length)."""
    if key == SKILL_SCALE_KEY:
        return AT_LEAST
    if key in AT_MOST_KEYS:
        return AT_MOST
    return WITHIN if question.scale.signed else None


def load_balance(path, out: Path | None = None) -> Plan:
    """The balance file, validated, the space bounded and every candidate value
    checked before anything is played."""
    from analyzer.games import game_info, rules_of
    from analyzer.scenario import rules_relative_to

    path = Path(path)
    where = f"balance file {path}"
    f = validate(_BalanceFile, read_toml(path, "balance file"), path, "balance file")
    info = game_info(f.game)
    ruleset = rules_of(f.game)
    start = rules_relative_to(f.game, f.rules, path) or ruleset.box()
    keys, values = [], []
    for key, given in f.vary.items():
        if key not in {k.name for k in ruleset.keys}:
            raise InputFileError(f"{where}: vary.{key}: unknown rule for {info.title} ({ruleset.known()})")
        keys.append(key)
        values.append(_values_of(ruleset, key, given, where))
    size = math.prod(len(v) for v in values)
    if size > MAX_VARIANTS:
        raise InputFileError(f"{where}: the space holds {size:,} variants; at most {MAX_VARIANTS:,}")
    from analyzer.games import new_stats

    targets = _targets(f.game, f.targets, where, set(new_stats(f.game).result()))  # the tables a game of it gives
    for key in f.weights or {}:
        if key not in f.targets:
            raise InputFileError(f"{where}: weights.{key}: not one of the targets ({', '.join(f.targets)})")
    players = [f.players] if isinstance(f.players, int) else f.players or [info.default_players]
    fewest, most = info.player_counts
    for n in players:
        if not fewest <= n <= most:
            raise InputFileError(f"{where}: players: {info.title} takes {fewest} to {most}, got {n}")

    def relative(value: str) -> Path:
        return Path(os.path.normpath(path.parent / value))

    out = Path(out) if out is not None else relative(f.out) if f.out else relative(f"runs/{path.stem}")
    report = relative(f.report) if f.report else out / "balance.html"
    plan = Plan(path, f.title or path.stem, f.game, players, f.bots, f.budget, f.seed, out, report, start,
                keys, values, targets, {k: float(v) for k, v in f.weights.items()} if f.weights else None,
                f.keep, f.retune, f.role, size)
    _check_tables(plan)
    return plan


def _check_tables(plan: Plan) -> None:
    """The measuring tables under the start's rules, built once (a bad bot, a bad
    role: one line, before anything plays)."""
    tables = tables_of(plan)
    for k in range(len(tables.players)):
        try:
            if tables.table:
                tables.table_match(k, plan.start)
            if tables.skill is not None:
                tables.skill_matches(k, plan.start)
        except AnalyzerError as e:
            raise type(e)(f"balance file {plan.path}: at {tables.players[k]} players: {e}") from None


# ------------------------------------------------------------------ the search

@dataclass
class Variant:
    """A variant the search measured: its index in the space, rules and standing."""
    index: int
    rules: Any
    standing: Standing
    number: int = 0  # its row's ``variant`` (1: the recommended one)
    remeasure: dict[str, list[Measure]] | None = None  # on fresh games
    remeasure_games: int = 0
    pareto: bool = False

    def words(self, plan: Plan) -> dict[str, str]:
        parts = self.remeasure if self.remeasure is not None else self.standing.parts
        return {t.key: combine(t.band, parts[t.key])[1] if parts.get(t.key) else OPEN for t in plan.targets}


@dataclass
class BalanceResult:
    plan: Plan
    variants: list[Variant]  # every variant measured; the reported ones first, best first
    reported: list[Variant]
    feasible: dict[str, tuple[Variant, Variant]]  # per target: the variants of its lowest and highest value
    effects: dict[str, dict[str, float | None]]  # key -> target -> largest change between its values (None: none shown)
    rounds: list[dict]
    games: int
    retuned: dict | None = None  # the re-tuned bot and the targets measured with it
    ladder: dict | None = None  # the search bot's rung on the recommended variant
    notes: list[str] = field(default_factory=list)
    rungs: tuple[str, str] = ("", "")  # the game's ladder: its best heuristic, its search bot


class _Space:
    """The candidates in racing order: the start first, then the rest of the space
    in an order drawn from the seed (a sample of a large space is random)."""

    def __init__(self, plan: Plan):
        self.plan = plan
        start = plan.start_index()
        rest = np.random.default_rng([plan.seed, 0x62616C]).permutation(plan.size)
        self.order = ([start] if start is not None else [-1]) + [int(i) for i in rest if i != start]
        self._rules: dict[int, Any] = {}

    def __len__(self) -> int:
        return len(self.order)

    def rules(self, i: int):
        index = self.order[i]
        if index not in self._rules:
            self._rules[index] = self.plan.start if index < 0 else self.plan.variant(index)
        return self._rules[index]


def run_balance(plan: Plan, *, resume: bool = False, threads: int | None = None, cluster=None,
                progress: bool | None = None, on_round: Callable[[dict], None] | None = None) -> BalanceResult:
    """The search, the re-measure, the re-tune and the search bot's rung, with every
    output written to ``plan.out`` and the report to ``plan.report``."""
    from analyzer.engine.progress import Progress
    from analyzer.engine.simulate import default_threads
    from analyzer.stats.racing import race

    threads = default_threads() if threads is None else threads
    _prepare_out(plan, resume)
    tables = tables_of(plan)
    space = _Space(plan)
    checkpoints = Checkpoints(plan.out / CANDIDATES)
    tallies: dict[int, Tally] = {}
    search_budget = int(plan.budget * SEARCH_SHARE)
    with Progress(plan.budget, f"{plan.title} balance (games)", enabled=progress) as bar:

        def measure_all(asks):
            return _measure_round(plan, tables, space, asks, tallies, checkpoints, threads, cluster, bar)

        def round_done(info):
            if on_round is not None:
                on_round(info)

        result = race(len(space), lambda i, f, c: measure_all([(i, f, c)])[0], [t.band for t in plan.targets],
                      search_budget, first_games=FIRST_GAMES, per_game=tables.per_game, keep=plan.keep,
                      weights=plan.weights, on_round=round_done, measure_all=measure_all)
        variants = {i: Variant(space.order[i], space.rules(i), s) for i, s in result.standings.items()}
        reported = [variants[i] for i in result.front[:plan.keep]]
        for v in reported:
            v.pareto = True
        spent = result.games
        notes = []
        if checkpoints.damaged:
            notes.append(f"{checkpoints.damaged} damaged checkpoint(s) in {checkpoints.folder} were played again")
        # honest selection: fresh games, never played by any candidate
        fresh_first = max((s.games for s in result.standings.values()), default=0)
        share = int(plan.budget * REMEASURE_SHARE) // max(len(reported), 1) // max(tables.per_game, 1)
        with bar.phase("re-measuring the reported variants on fresh games"):
            for v in reported:
                if share < 1:
                    break
                tally = _tally(tables, v.rules, plan.seed, fresh_first, share, threads, cluster)
                v.remeasure, v.remeasure_games = measures(plan, tables, v.rules, tally), share
                spent += share * tables.per_game
                bar.advance(share * tables.per_game)
        reported = _rank_reported(plan, reported)
        retuned = ladder = None
        if reported:
            best = reported[0]
            if plan.retune:
                with bar.phase("re-tuning the heuristic on the recommended variant"):
                    retuned, used = _retune(plan, tables, best, fresh_first + share,
                                            min(int(plan.budget * RETUNE_SHARE), plan.budget - spent), threads, notes)
                    spent += used
                    bar.advance(used)
            if tables.skill is not None:
                with bar.phase("the search bot's rung on the recommended variant"):
                    ladder, used = _search_rung(plan, best, plan.budget - spent, threads, notes)
                    spent += used
                    bar.advance(used)
    numbered = reported + [v for i, v in sorted(variants.items()) if v not in reported]
    for n, v in enumerate(numbered, 1):
        v.number = n
    hero, _, search, _ = ladder_bots(plan.game, plan.role)
    out = BalanceResult(plan, numbered, reported, _feasible(plan, list(variants.values())),
                        _effects(plan, space, variants), result.rounds, spent, retuned, ladder, notes, (hero, search))
    write_outputs(out)
    return out


def _measure_round(plan, tables, space, asks, tallies, checkpoints, threads, cluster, bar) -> list[Standing]:
    """One round's requests: each candidate's tally extended by its new games
    (from a checkpoint where one holds them), measured."""
    from concurrent.futures import ThreadPoolExecutor

    todo = []
    for i, first, count in asks:
        rules = space.rules(i)
        key = candidate_key(tables, rules, plan.seed)
        have = tallies.get(i) or checkpoints.load(key) or Tally()
        tallies[i] = have
        if have.games < first + count:
            todo.append((i, key, rules, have.games, first + count - have.games))

    def one(job):
        i, key, rules, start, n = job
        try:
            return play_tally(tables, rules, plan.seed, start, n)
        except AnalyzerError as e:  # rules the board or the table cannot take
            return str(e)

    if cluster is not None:
        futures = [cluster.client.submit(_tally_task, tables, rules, plan.seed, start, n, __version__, pure=False)
                   for _, _, rules, start, n in todo]
        got = []
        for f in futures:
            try:
                got.append(f.result())
            except AnalyzerError as e:
                got.append(str(e))
    else:
        with ThreadPoolExecutor(max(1, threads)) as pool:
            got = list(pool.map(one, todo))
    for (i, key, rules, start, n), tally in zip(todo, got):
        if isinstance(tally, str):
            tallies[i] = Tally(games=-1)
            tallies[i].why = tally
            continue
        tallies[i] = tallies[i].merge(tally)
        checkpoints.save(key, tallies[i])
        bar.advance(n * tables.per_game)
    out = []
    for i, first, count in asks:
        tally = tallies[i]
        why = getattr(tally, "why", "")
        if why:
            out.append(Standing({}, 0, unplayable=why))
            continue
        out.append(Standing(measures(plan, tables, space.rules(i), tally), tally.games))
    return out


def _tally(tables: Tables, rules, seed: int, first: int, count: int, threads: int, cluster) -> Tally:
    """``count`` games from ``first`` of one variant, split over threads (or workers) in blocks, merged in order."""
    from concurrent.futures import ThreadPoolExecutor

    parts = max(1, min(threads, count // (4 * BLOCK)))
    size = -(-count // parts)
    size += -size % BLOCK  # whole skill blocks per part
    jobs = [(first + k, min(size, first + count - (first + k))) for k in range(0, count, size)]
    if cluster is not None:
        got = [f.result() for f in [cluster.client.submit(_tally_task, tables, rules, seed, a, n, __version__,
                                                          pure=False) for a, n in jobs]]
    else:
        with ThreadPoolExecutor(len(jobs)) as pool:
            got = list(pool.map(lambda job: play_tally(tables, rules, seed, *job), jobs))
    total = got[0]
    for t in got[1:]:
        total.merge(t)
    return total


def _rank_reported(plan: Plan, reported: list[Variant]) -> list[Variant]:
    """The reported variants best first on their re-measure: most targets met,
    fewest missed, then the (weighted) summed violation."""
    from analyzer.stats.racing import violations

    w = np.array([(plan.weights or {}).get(t.key, 1.0) for t in plan.targets])
    bands = [t.band for t in plan.targets]

    def key(v: Variant):
        words = v.words(plan)
        parts = Standing(v.remeasure if v.remeasure is not None else v.standing.parts, v.standing.games)
        changes = sum(v.rules[k] != plan.start[k] for k in plan.keys)  # alike otherwise: the fewest changes
        return (-sum(x == MET for x in words.values()), sum(x == MISSED for x in words.values()),
                float(np.sum(w * np.minimum(violations(bands, parts)[0], 1e9))), changes, v.index)

    return sorted(reported, key=key)


def _retune(plan: Plan, tables: Tables, best: Variant, first: int, budget: int, threads: int,
            notes: list[str]) -> tuple[dict | None, int]:
    """The heuristic re-tuned on the recommended variant (``tune``): the bots'
    table's bot when one built-in heuristic sits in every seat, else the skill
    ladder's heuristic (in its role, against the ladder's base); then every target
    measured again with the re-tuned bot, on fresh games. ``(what was found, games spent)``."""
    from analyzer.engine.botspec import parse_bot_list
    from analyzer.engine.tune import decision, tune, tune_space
    from analyzer.games import match_class, registry

    n = plan.players[0]
    cls = match_class(plan.game)
    roles = cls.seat_roles(n)
    specs = {s for text in tables.bots for s in parse_bot_list(text)} if tables.table else set()
    reg = registry(plan.game)
    if len(specs) == 1 and len(set(roles)) == 1:
        start, field_specs, role = next(iter(specs)), None, roles[0]
    elif tables.skill is not None:
        hero, base, field_, role = tables.skill
        (start,) = parse_bot_list(hero)
        field_specs = parse_bot_list(field_)
        role = role if role is not None else roles[0]
    else:
        notes.append("no re-tune: the bots' table seats several bots and no skill ladder is measured")
        return None, 0
    if start.name not in reg.builtin or not reg.builtin[start.name].params:
        notes.append(f"no re-tune: {start.label} is not a built-in bot with parameters")
        return None, 0
    tune_budget = int(budget * 0.6)
    if tune_budget < 20_000:
        notes.append(f"no re-tune: the budget left ({budget:,} games) is too small")
        return None, 0
    family, start_values, space = tune_space(plan.game, start)
    result = tune(lambda table: cls(None, n, table, rules=best.rules), family, start, start_values, space,
                  field_specs or [start], n, tune_budget, plan.seed, threads=threads, roles=roles, role=role)
    found = {"bot": start.label, "tuned": result.winner.label, "adopted": result.adopted,
             "decision": decision(result), "budget": tune_budget}
    spent = tune_budget
    if result.adopted:
        retuned = tables
        if tables.table and specs == {start}:
            retuned = retuned.with_bots(",".join([result.winner.label] * n))
        if retuned.skill is not None and parse_bot_list(retuned.skill[0]) == [start]:
            retuned = dataclasses.replace(retuned, skill=(result.winner.label, *retuned.skill[1:]))
        count = (budget - tune_budget) // max(retuned.per_game, 1)
        if count >= BLOCK:
            tally = _tally(retuned, best.rules, plan.seed, first, count, threads, None)
            found["measures"] = measures(plan, retuned, best.rules, tally)
            found["games"] = count
            spent += count * retuned.per_game
    return found, spent


LADDER_GAMES = 2000  # games per arm of the search bot's rung, at most


def _search_rung(plan: Plan, best: Variant, budget: int, threads: int, notes: list[str]) -> tuple[dict | None, int]:
    """The ladder's top rung on the recommended variant: the search bot against
    the best heuristic (paired, seats of the role rotated, the ladder's field)."""
    from analyzer.engine.botspec import parse_bot_list
    from analyzer.engine.compare import compare
    from analyzer.games import match_class

    hero, field_, search, role = ladder_bots(plan.game, plan.role)
    n = plan.players[0]
    cls = match_class(plan.game)
    roles = cls.seat_roles(n)
    role = role if role is not None else roles[0]
    places = roles.count(role)
    count = min(LADDER_GAMES, budget // 2) // places * places
    if count < places * 50:
        notes.append(f"no search-bot rung: the budget left ({budget:,} games) is too small")
        return None, 0
    (a,), (b,) = parse_bot_list(search), parse_bot_list(hero)
    fill = parse_bot_list(field_)
    try:
        result = compare(lambda table: cls(None, n, table, rules=best.rules), a, b, fill, n, count, plan.seed,
                         threads=threads, roles=roles, role=role)
    except AnalyzerError as e:
        notes.append(f"no search-bot rung: {e}")
        return None, 0
    low, high = result.win.interval()
    return {"search": search, "heuristic": hero, "field": field_, "role": role, "players": n,
            "measure": Measure(result.win.diff, low, high, result.win.n), "games": result.win.n}, 2 * result.win.n


def _feasible(plan: Plan, variants: list[Variant]) -> dict[str, tuple[Variant, Variant]]:
    """Per target: the measured variants of its lowest and its highest value
    (the part furthest from the band where it holds at several counts)."""
    out = {}
    for t in plan.targets:
        rows = [(combine(t.band, v.standing.parts[t.key])[0].value, v) for v in variants
                if not v.standing.unplayable and v.standing.parts.get(t.key)]
        rows = [(x, v) for x, v in rows if math.isfinite(x)]
        if rows:
            out[t.key] = (min(rows, key=lambda r: (r[0], r[1].index))[1], max(rows, key=lambda r: (r[0], -r[1].index))[1])
    return out


def _effects(plan: Plan, space: _Space, variants: dict[int, Variant]) -> dict[str, dict[str, tuple[float, bool]]]:
    """Which keys move which targets: over every pair of measured variants that
    differ in that key alone, the largest change of the target's value, and
    whether any such pair's 95% intervals are apart (the change shown beyond
    noise). A key that changes nothing plays the very same games in both
    variants (common random numbers): its change is exactly 0."""
    sizes = [len(v) for v in plan.values]
    picks = {i: _unrank(v.index, sizes) for i, v in variants.items() if v.index >= 0 and not v.standing.unplayable}
    out: dict[str, dict[str, tuple[float, bool]]] = {}
    for j, key in enumerate(plan.keys):
        groups: dict[tuple, list[int]] = {}
        for i, p in picks.items():
            groups.setdefault(tuple(p[:j] + p[j + 1:]), []).append(i)
        per_target = {}
        for t in plan.targets:
            largest, shown = 0.0, False
            for members in groups.values():
                ms = [combine(t.band, variants[i].standing.parts[t.key])[0] for i in members]
                for x in ms:
                    for y in ms:
                        if math.isfinite(x.value) and math.isfinite(y.value):
                            largest = max(largest, abs(x.value - y.value))
                            shown = shown or x.low > y.high
            per_target[t.key] = (largest, shown)
        out[key] = per_target
    return out


# ------------------------------------------------------------------ outputs

def _prepare_out(plan: Plan, resume: bool) -> None:
    """One balance file per out directory (as sweeps): another's is refused; without
    ``--resume`` the last run's checkpoints go."""
    import shutil

    from analyzer.engine.output import check_parent, write_file

    out = plan.out
    if out.exists() and not out.is_dir():
        raise AnalyzerError(f"the balance's out {out} exists and is not a directory")
    check_parent(out, "the balance search")
    if out.exists() and any(out.iterdir()):
        manifest = out / BALANCE_MANIFEST
        try:
            owner = json.loads(manifest.read_text(encoding="utf-8")).get("balance")
        except (OSError, ValueError, AttributeError):
            owner = None
        if not isinstance(owner, str) or os.path.realpath(owner) != os.path.realpath(plan.path):
            raise AnalyzerError(f"{out} holds other files than this balance search's ({plan.path}); give it its "
                                "own out directory")
    try:
        out.mkdir(parents=True, exist_ok=True)
        if not resume and (out / CANDIDATES).exists():
            shutil.rmtree(out / CANDIDATES)
        (out / CANDIDATES).mkdir(exist_ok=True)
        write_file(out / BALANCE_MANIFEST, json.dumps({"written_by": "analyzer", "balance": os.path.realpath(plan.path),
                                                       "game": plan.game, "complete": False,
                                                       "version": __version__}, indent=2) + "\n",
                   "the balance manifest")
    except OSError as e:
        raise AnalyzerError(f"cannot write to {out}: {e.strerror or e}") from None


def value_text(value) -> str | int:
    from analyzer.engine.ruleset import show_value

    return value if isinstance(value, int) and not isinstance(value, bool) else show_value(value)


def variants_frame(result: BalanceResult):
    """``variants.parquet``: a row per variant measured (see the module docstring)."""
    import pandas as pd

    plan = result.plan
    rows = []
    for v in result.variants:
        row: dict = {"variant": v.number}
        for key in plan.keys:
            row[key] = value_text(v.rules[key])
        parts = v.remeasure if v.remeasure is not None else v.standing.parts
        words = v.words(plan)
        for t in plan.targets:
            m = combine(t.band, parts[t.key])[0] if parts.get(t.key) else Measure(math.nan, math.nan, math.nan)
            # in the units the file's band is written in (pp for a win-rate difference, % for a share)
            f = t.scale.factor
            row[t.key], row[f"{t.key}_low"], row[f"{t.key}_high"] = f * m.value, f * m.low, f * m.high
            row[f"{t.key}_word"] = words[t.key] if not v.standing.unplayable else "unplayable"
        row["games"] = v.standing.games + v.remeasure_games
        row["remeasured"] = v.remeasure is not None
        row["pareto"] = v.pareto
        row["rules"] = v.rules.text()
        rows.append(row)
    return pd.DataFrame(rows)


def write_outputs(result: BalanceResult) -> None:
    from analyzer.engine.output import write_file

    plan = result.plan
    frame = variants_frame(result)
    write_file(plan.out / VARIANTS_TABLE, frame.to_parquet(index=False), "the variants table")
    for v in result.reported:
        words = ", ".join(f"{k} {w}" for k, w in v.words(plan).items())
        write_file(plan.out / f"variant-{v.number}.toml",
                   v.rules.toml(f"variant {v.number} of {plan.path.name} ({plan.game}), written by analyzer balance: "
                                f"{words}\nplay it with --rules variant-{v.number}.toml"), "a variant's rules file")
    from analyzer.report.balance import write_balance_report

    write_balance_report(result, plan.report, frame)
    write_file(plan.out / BALANCE_MANIFEST, json.dumps({
        "written_by": "analyzer", "balance": os.path.realpath(plan.path), "game": plan.game, "complete": True,
        "version": __version__, "seed": plan.seed, "budget": plan.budget, "games": result.games,
        "variants": len(result.variants), "space": plan.size,
        "reported": [{"variant": v.number, "rules": v.rules.text(), "words": v.words(plan)} for v in result.reported],
        "notes": result.notes}, indent=2) + "\n", "the balance manifest")
