"""The tables a balance search measures its candidates on, and a candidate's
games so far (``analyzer balance``; the search itself is ``analyzer/balance.py``).
Every candidate plays the seed's items on the same tables (common random
numbers wherever the variant keeps the deal); a candidate's tally is exact sums,
the same at any thread count, chunking or worker count, checkpointed by content."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import pickle
from dataclasses import dataclass, field
from pathlib import Path

from analyzer.errors import AnalyzerError
from analyzer.stats.racing import Measure
from analyzer.version import __version__

BLOCK = 50  # games a seat keeps the studied bot in the paired skill table before the next seat takes it


def jsonable(values: dict) -> dict:
    out = {}
    for k, v in values.items():
        if isinstance(v, tuple):
            v = list(v)
        elif isinstance(v, dict):
            v = {str(n): list(x) if isinstance(x, tuple) else x for n, x in v.items()}
        out[k] = v
    return out


# ------------------------------------------------------------------ the measuring tables

@dataclass(frozen=True)
class Tables:
    """What a candidate's games are played on, as data (a cluster worker gets it
    pickled): the game, the player counts, the bots' table (bot files by their
    path from the file's folder) when a target reads it, and the paired skill
    ladder (the studied bot against the base in the seats of ``role``, the field
    elsewhere) when ``skill_gradient`` is a target."""
    game: str
    players: tuple[int, ...]
    bots: tuple[str, ...]  # per player count: the bots' table's bot list
    table: bool
    skill: tuple[str, str, str, str | None] | None  # (hero, base, field, role)

    @property
    def per_game(self) -> int:
        """Games one game of a candidate costs: the bots' table and the two skill arms, at every count."""
        return len(self.players) * (int(self.table) + 2 * (self.skill is not None))

    def table_match(self, k: int, rules):
        from analyzer.engine.botspec import parse_bot_list, seat_bots
        from analyzer.games import match_class

        n = self.players[k]
        return match_class(self.game)(None, n, seat_bots(parse_bot_list(self.bots[k]), n), rules=rules)

    def skill_matches(self, k: int, rules) -> list[tuple[int, object, object]]:
        """Per seat of the role: (seat, the table with the hero there, the same with the base there)."""
        from analyzer.engine.botspec import parse_bot_list
        from analyzer.engine.seating import seat_tables
        from analyzer.games import match_class

        hero, base, field_, role = self.skill
        cls = match_class(self.game)
        n = self.players[k]
        roles = cls.seat_roles(n)
        role = role if role is not None else roles[0]
        (a,), (b,) = parse_bot_list(hero), parse_bot_list(base)
        fill = parse_bot_list(field_)
        return [(seat, cls(None, n, ta, rules=rules), cls(None, n, tb, rules=rules))
                for (seat, ta), (_, tb) in zip(seat_tables(a, fill, roles, role), seat_tables(b, fill, roles, role))]

    def with_bots(self, bots: str) -> "Tables":
        """The same tables with another bot list (a re-tuned bot) at every count."""
        return dataclasses.replace(self, bots=tuple(bots for _ in self.players))


def tables_of(plan, bots: str | None = None) -> Tables:
    from analyzer.engine.botspec import bot_list_text, parse_bot_list, relative_to
    from analyzer.games import game_info

    info = game_info(plan.game)
    designs = {t.design for t in plan.targets}

    def listed(n: int) -> str:
        text = bots or plan.bots or info.default_bot_list(n)
        return bot_list_text(relative_to(parse_bot_list(text), plan.path.parent))

    skill = None
    if "skill" in designs:
        best, _, _, role = ladder_bots(plan.game, plan.role)
        skill = (best, "random", "random", role)
    return Tables(plan.game, tuple(plan.players), tuple(listed(n) for n in plan.players), "table" in designs, skill)


def ladder_bots(game: str, role: str | None = None) -> tuple[str, str, str, str | None]:
    """The game's skill ladder: (its best heuristic, that bot's field in the game's
    ladder, its search bot, the role they play: ``role`` or the ladder's own)."""
    from analyzer.games import game_info

    info = game_info(game)
    if info.search is None:
        raise AnalyzerError(f"{info.title} declares no search bot and best heuristic: it has no skill ladder")
    compare = list(info.search.compare)
    if role is None and "--role" in compare:
        role = compare[compare.index("--role") + 1]
    return info.search.best, info.search.field, info.search.bot, role


# ------------------------------------------------------------------ measuring a candidate

@dataclass
class Tally:
    """A candidate's games so far: per player count the bots' table's aggregated
    statistics and the skill ladder's paired win rates (A: the hero in a seat of
    its role, B: the base there). Exact sums: the same at any thread count,
    chunking or worker count."""
    games: int = 0
    tables: dict = field(default_factory=dict)  # players -> the game's aggregator (``new_stats``)
    skill: dict = field(default_factory=dict)  # players -> engine.compare.PairedStat

    def merge(self, other: "Tally") -> "Tally":
        for n, agg in other.tables.items():
            if n in self.tables:
                self.tables[n].merge(agg)
            else:
                self.tables[n] = agg
        for n, stat in other.skill.items():
            if n not in self.skill:
                self.skill[n] = stat
                continue
            mine = self.skill[n]
            for f in dataclasses.fields(stat):
                setattr(mine, f.name, getattr(mine, f.name) + getattr(stat, f.name))
        self.games += other.games
        return self


def play_tally(tables: Tables, rules, seed: int, first: int, count: int) -> Tally:
    """Games ``first .. first+count-1`` of ``seed`` of every measuring table under
    ``rules``, on this thread."""
    from analyzer.engine.compare import PairedStat
    from analyzer.games import new_stats

    tally = Tally(games=count)
    for k, n in enumerate(tables.players):
        if tables.table:
            match = tables.table_match(k, rules)
            stats = new_stats(tables.game)
            _feed(match, stats, seed, first, count)
            tally.tables[n] = stats
        if tables.skill is not None:
            stat = PairedStat()
            arms = tables.skill_matches(k, rules)
            for _, a, b in arms:
                a.warm_up(False)
                b.warm_up(False)
            # blocks of BLOCK games take the studied seat in turn: the same seat for the same
            # game whatever the increments (a candidate's rounds, the re-measure's later games)
            for lo in range(first - first % BLOCK, first + count, BLOCK):
                start, stop = max(lo, first), min(lo + BLOCK, first + count)
                seat, match_a, match_b = arms[(lo // BLOCK) % len(arms)]
                ca = match_a.play(seed, start, stop - start, detail=False)
                cb = match_b.play(seed, start, stop - start, detail=False)
                (won_a, _), (won_b, _) = match_a.outcomes(ca), match_b.outcomes(cb)
                stat.add(won_a[:, seat], won_b[:, seat])
                match_a.release([ca])
                match_b.release([cb])
            tally.skill[n] = stat
    return tally


CHUNK = 4096  # games a table plays between two feeds of its statistics


def _feed(match, stats, seed: int, first: int, count: int) -> None:
    """``match``'s games ``first .. first+count-1`` fed to ``stats`` in game order,
    with the tables known only at the end, as ``simulate`` feeds a report."""
    summary = match.new_summary()
    match.warm_up(True)
    for start in range(first, first + count, CHUNK):
        chunk = match.play(seed, start, min(CHUNK, first + count - start), True)
        summary.add(chunk)
        stats.add({**match.tables_of(chunk), **match.chunk_extras(chunk)})
        match.release([chunk])
    final = match.final_tables(summary)
    if final:
        stats.add(dict(final))


def manifest_of(tables: Tables, k: int, rules, games: int) -> dict:
    """What a question reads of a run besides its tables (unit, players, bots, rules)."""
    match = tables.table_match(k, rules)
    return {"unit": match.unit, match.unit: games, "bots": match.bots_described(), "roles": list(match.roles),
            **match.describe()}


def measures(plan, tables: Tables, rules, tally: Tally) -> dict[str, list[Measure]]:
    """Each target measured on a tally: one ``Measure`` per player count (a
    question that cannot be measured there gives NaN: never met)."""
    out: dict[str, list[Measure]] = {}
    for t in plan.targets:
        parts = []
        for k, n in enumerate(tables.players):
            if t.design == "skill":
                stat = tally.skill[n]
                low, high = stat.interval() if stat.n > 1 else (math.nan, math.nan)
                parts.append(Measure(stat.diff if stat.n else math.nan, low, high, stat.n))
                continue
            e = t.question.estimate(tally.tables[n].result(), manifest_of(tables, k, rules, tally.games))
            parts.append(Measure(math.nan, math.nan, math.nan, tally.games) if e is None
                         else Measure(e.value, e.low, e.high, e.n))
        out[t.key] = parts
    return out


def _tally_task(tables: Tables, rules, seed: int, first: int, count: int, version: str) -> Tally:
    """A candidate's increment on a cluster worker."""
    from analyzer.engine.cluster import _check_version

    _check_version(version)
    return play_tally(tables, rules, seed, first, count)


# ------------------------------------------------------------------ checkpoints

def candidate_key(tables: Tables, rules, seed: int) -> str:
    """What a candidate's tally holds, by content: its tables (bot files by their
    sha256), the seed, the rules that differ from the box and the version."""
    from analyzer.engine.botspec import parse_bot_list
    from analyzer.engine.botfamily import file_digests

    specs = [s for text in tables.bots for s in parse_bot_list(text)]
    text = json.dumps([tables.game, tables.players, tables.bots, tables.table, tables.skill,
                       sorted(file_digests(specs).items()), seed, jsonable(rules.changed()),
                       __version__], default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class Checkpoints:
    """Candidates' tallies in ``OUT/candidates/<key>.pkl``, written as each is
    measured; a file that cannot be read back is played again (said once)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.damaged = 0

    def load(self, key: str) -> Tally | None:
        path = self.folder / f"{key}.pkl"
        if not path.is_file():
            return None
        try:
            tally = pickle.loads(path.read_bytes())
        except Exception:  # a damaged or foreign file: played again
            tally = None
        if not isinstance(tally, Tally):
            self.damaged += 1
            return None
        return tally

    def save(self, key: str, tally: Tally) -> None:
        from analyzer.engine.output import write_file

        write_file(self.folder / f"{key}.pkl", pickle.dumps(tally, protocol=pickle.HIGHEST_PROTOCOL),
                   "a balance checkpoint")
