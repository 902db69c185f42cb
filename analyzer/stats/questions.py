"""A report's questions as objects: what each asks, what it reads, how it measures
and judges its answer, and what its answer means in its own words.

A ``Question`` (in the spirit of Ludii's ``Metric`` and TAG's ``AbstractMetric``)
has a stable ``key`` (``first_seat_edge``, ``colour_balance``), the question in
words, the result tables it reads, ``measure(tables, manifest) -> Estimate``
(value, interval, unit, how it prints, method, baseline), its practical
threshold (None: a measure to describe, not to judge, such as a length), its
``Direction`` (what a positive value means, and the answer in the question's
own words for each verdict) and its chart. ``measure`` works on any aggregated
result tables (a run's, a controlled table's), without the page: the report,
its scorecard and its CSV, and a balance search that targets the keys all read
the same numbers. The key, never the sentence, names an answer everywhere.

The questions every game shares are written here once (the first seat's edge,
the spread of all seats, skill against luck, length, how late a game is decided,
the leader at the half, how often nobody wins); a game registers its own in its
report package (``QUESTIONS``). The verdict itself is ``stats/evidence.py``'s.

Use (a balance search, a notebook; a game's questions by key are the registry's
lookup, ``analyzer.games.questions_for``: this library knows no game)::

    qs = questions_for(GAME)          # key -> Question: the shared ones as the game
                                      # words them, and the game's own
    run = analyzer.api.simulate(GAME, 20_000, bots=BOT)   # one bot in every seat
    tables = run.results              # the aggregated result tables (of a run folder:
                                      # analyzer.report.aggregate_run(dir)[0].result())
    e = qs["first_seat_edge"].estimate(tables, run.manifest)  # Estimate, or None
    v = qs["first_seat_edge"].verdict(tables, run.manifest)   # evidence.Verdict, or None
    v.word, v.estimate, v.low, v.high    # SHOWN / RULED_OUT / NOT_ENOUGH, value, interval
    qs["first_seat_edge"].direction.of(v)  # the answer in words: "SEAT 1 FAVOURED: +7.4 pp ..."

``estimate`` returns None where the tables cannot answer the question: a seat
question on a table of mixed bots (seats and bots confounded: give it a table
with one bot in every seat), an intervention the run did not replay
(``intervention_*`` tables come from the report's replays, not from a run). The
manifest supplies the unit (``"unit"``: races or games, which column counts
them), the practical threshold (``"min_effect"``, a share; default 1 pp) and the
player count where a question needs it: pass the run's own.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from analyzer.stats.evidence import (
    DEPENDS, NOT_ENOUGH, PERCENT, PP, RULED_OUT, SHOWN, Across, Scale, Verdict, any_of, verdict,
)
from analyzer.stats.flags import ALPHA, MIN_EFFECT, Flags, seat_balance, simultaneous_z
from analyzer.stats.intervals import Z95, wilson


# ---------------------------------------------------------------------- what an answer means


@dataclass(frozen=True)
class Direction:
    """What a question's value means, and its answer in the question's own words.

    ``positive`` / ``negative``: the answer when an effect above / below zero is
    shown ("SEAT 1 FAVOURED"; the same words both ways for a question of
    balance, "UNBALANCED"); ``within``: the answer when any effect is ruled out,
    a template with ``{bound}`` (``±1.0 pp``) and ``{t}`` (``1.0 pp``);
    ``subject``: what is open while neither ("SEAT 1 EDGE NOT SETTLED");
    ``versus``: the baseline after a shown number ("against the average seat");
    ``meaning``: what a positive value means, in a sentence."""
    subject: str
    positive: str
    negative: str
    within: str
    meaning: str
    versus: str = ""

    @property
    def symmetric(self) -> bool:
        """The same answer either way ("unbalanced"): the sign does not split tables."""
        return self.positive == self.negative

    def _shown(self, label: str, body: str) -> str:
        return f"{label}: {body}" + (f" {self.versus}" if self.versus else "")

    def of(self, v: Verdict) -> str:
        """One table's answer: "SEAT 1 FAVOURED: +7.4 pp against the average seat",
        "BALANCED within ±1.0 pp", "SEAT 1 EDGE NOT SETTLED: +1.0 pp"."""
        if v.word == SHOWN:
            label = self.positive if v.estimate > 0 else self.negative
            if v.degenerate:
                return f"{label}: {v.degenerate}"
            return self._shown(label, f"{v.item} {v.value_text}".strip())
        if v.word == RULED_OUT:
            return self.within.format(bound=v.bound, t=v.bound.lstrip("±"))
        if not (math.isfinite(v.low) and math.isfinite(v.high)) or v.n <= 0:
            return f"{self.subject} NOT MEASURED"
        return f"{self.subject} NOT SETTLED: {v.item} {v.value_text}".replace(":  ", ": ")

    def over(self, ac: Across, noun: str = "bots") -> str:
        """The answer over several tables (``evidence.across``): the common answer with
        the range of its estimates ("SEAT 1 FAVOURED: +6.9 to +8.0 pp"), "with 3 of 4
        bots" while the others are open, "DEPENDS ON THE BOTS" when tables decide it
        differently in word or direction, never the slowest table's number alone."""
        verdicts = ac.verdicts
        if len(verdicts) == 1:
            return self.of(next(iter(verdicts.values())))
        if ac.word == DEPENDS:
            return DEPENDS.upper()
        if ac.word == NOT_ENOUGH:
            rows = [(label, v) for label, v in verdicts.items() if v.finite]
            if not rows:
                return f"{self.subject} NOT MEASURED"
            return f"{self.subject} NOT SETTLED: {range_text(rows, named=False)}"
        labels = next(iter(ac.groups.values()))
        rows = [(label, verdicts[label]) for label in labels]
        first = rows[0][1]
        if ac.word == SHOWN:
            label = self.positive if first.estimate > 0 else self.negative
            degenerate = next((v.degenerate for _, v in rows if v.degenerate), "")
            text = f"{label}: {degenerate}" if degenerate else self._shown(label, range_text(rows))
        else:
            text = self.of(first)
        return text + (f" with {len(rows)} of {len(verdicts)} {noun}" if ac.open else "")


def range_text(rows: Sequence[tuple[str, Verdict]], named: bool = True) -> str:
    """Estimates of several tables: "+6.9 to +8.0 pp" (one item named once: "grey
    -4.5 to -4.7 pp"), or each item with its range and tables when they quote
    different items ("seat 1 +8.3 to +9.2 pp (racer, convoy), seat 4 -9.5 pp
    (random)"; without ``named``, the range of the quoted gaps: "largest gaps -0.5
    to +1.2 pp")."""
    items = list(dict.fromkeys(v.item for _, v in rows))
    if len(items) > 1 and named:
        return ", ".join(f"{_span([v for _, v in rows if v.item == item])} ({', '.join(label for label, v in rows if v.item == item)})"
                         for item in items)
    body = _span([v for _, v in rows], with_item=False)
    if len(items) > 1:
        return f"largest gaps {body}"
    return f"{items[0]} {body}" if items[0] else body


def _span(verdicts: Sequence[Verdict], with_item: bool = True) -> str:
    """The range of some verdicts' estimates at the digits their intervals need: "+6.9 to +8.0 pp"."""
    first = verdicts[0]
    d = max(v.digits for v in verdicts)
    values = [v.estimate for v in verdicts]
    lo, hi = first.scale.text(min(values), d), first.scale.text(max(values), d)
    body = f"{lo}{first.scale.suffix}" if lo == hi else f"{lo} to {hi}{first.scale.suffix}"
    return f"{first.item} {body}" if with_item and first.item else body


# ---------------------------------------------------------------------- estimates and questions


@dataclass(frozen=True)
class Estimate:
    """What a question measured on one table: ``value`` with its interval
    ``low``-``high`` (``level``; ``z`` its normal quantile), on ``n`` units of
    ``unit``; ``scale`` how it prints; ``what`` it is in words and ``baseline``
    what zero means; ``item`` the item quoted (a family's). A family ("is any
    colour off fair?") holds one estimate per item in ``parts``, its value the
    largest gap's. ``backed``: False where a joint test does not back a gap
    beyond the threshold (it is then left open, never shown). ``degenerate``:
    the comparison in words where its number says nothing ("random never wins")."""
    value: float
    low: float
    high: float
    n: int
    unit: str
    scale: Scale = PP
    level: str = "95% CI"
    what: str = ""
    baseline: str = ""
    item: str = ""
    z: float = Z95
    method: str = ""
    degenerate: str = ""
    parts: tuple["Estimate", ...] = ()
    backed: bool = True

    def __post_init__(self):  # numbers as plain floats and ints, whatever table cell they came from
        for name in ("value", "low", "high", "z"):
            object.__setattr__(self, name, float(getattr(self, name)))
        object.__setattr__(self, "n", int(self.n))

    def judge(self, threshold: float) -> Verdict:
        """The verdict against ``threshold`` (``evidence.verdict``; ``any_of`` over a family)."""
        if self.parts:
            return any_of([p.judge(threshold) for p in self.parts], self.what)
        v = verdict(self.value, self.low, self.high, threshold, self.n, what=self.what, unit=self.unit,
                    scale=self.scale, level=self.level, item=self.item, z=self.z, degenerate=self.degenerate)
        if v.word == SHOWN and not self.backed:
            v = replace(v, word=NOT_ENOUGH, needed=v.n + 1)
        return v

    @property
    def text(self) -> str:
        """The value with its interval, for a measure nobody judges: "33.0 moves (95% CI 32.9 to 33.1)"."""
        return describe(self)


def describe(e: Estimate) -> str:
    """``33.0 moves (95% CI 32.9 to 33.1)``: bounds with a digit more where they would print alike."""
    if not math.isfinite(e.value):
        return "n/a"
    s = e.scale
    if not (math.isfinite(e.low) and math.isfinite(e.high)):
        return s.value(e.value)
    if e.low == e.high:
        return f"{s.value(e.value)} (exact)"
    d = next((d for d in range(s.digits, s.digits + 3) if s.text(e.low, d) != s.text(e.high, d)), s.digits + 2)
    return f"{s.value(e.value, d)} ({e.level} {s.text(e.low, d)} to {s.text(e.high, d)})"


@dataclass(frozen=True)
class Question:
    """A question a report answers (see the module docstring). ``threshold(manifest)``
    gives its practical threshold (None: described, not judged); ``chart``: the key
    of the figure that shows it."""
    key: str
    text: str
    tables: tuple[str, ...]
    measure: Callable[[dict, dict], Estimate | None]
    direction: Direction
    threshold: Callable[[dict], float] | None = None
    chart: str | None = None
    method: str = ""
    scale: Scale = PP  # how its value prints (a sweep's column of it, a target's band)

    @property
    def judged(self) -> bool:
        return self.threshold is not None

    def estimate(self, tables: dict, manifest: dict | None = None) -> Estimate | None:
        """The question measured on one table's results; None where it cannot be."""
        if any(t not in tables for t in self.tables):
            return None
        return self.measure(tables, manifest or {})

    def verdict(self, tables: dict, manifest: dict | None = None) -> Verdict | None:
        """Its verdict on one table's results (None: not judged, or not measurable there)."""
        e = self.estimate(tables, manifest)
        if e is None or self.threshold is None:
            return None
        return e.judge(self.threshold(manifest or {}))

    def with_text(self, text: str, key: str | None = None) -> "Question":
        """The same question worded for a game ("Do the starting hands balance the seats?")."""
        return replace(self, text=text, key=key or self.key)


def min_effect(manifest: dict | None) -> float:
    """The practical threshold of shares (``--min-effect``, stored as a share)."""
    v = (manifest or {}).get("min_effect")
    try:
        v = float(v)
    except (TypeError, ValueError):
        return MIN_EFFECT
    return v if math.isfinite(v) and v > 0 else MIN_EFFECT


def overview_value(res: dict, metric: str, column: str = "value") -> float:
    ov = res.get("overview")
    if ov is None or not len(ov):
        return float("nan")
    row = ov[ov["metric"] == metric]
    return float(row[column].iloc[0]) if len(row) else float("nan")


def unit_of(manifest: dict | None) -> str:
    return str((manifest or {}).get("unit", "races"))


def flag_parts(flags: Flags, n: int, unit: str, baseline: str) -> tuple[Estimate, ...]:
    """One estimate per item of a balance flag (each item's gap from ``flags.fair`` on
    its simultaneous interval), a gap beyond the threshold backed only when flagged."""
    z = simultaneous_z(len(flags.items))
    return tuple(Estimate(float(flags.share[i] - flags.fair), float(flags.gap_low[i]), float(flags.gap_high[i]), n,
                          unit, PP, "simultaneous 95% CI", f"{flags.items[i]} against {baseline}", baseline,
                          flags.items[i], z, flags.method, backed=bool(flags.flagged[i]))
                 for i in range(len(flags.items)))


def family(parts: Sequence[Estimate], what: str, method: str = "") -> Estimate | None:
    """A family of estimates as one: its value the largest gap's (``any_of`` judges it)."""
    parts = tuple(p for p in parts if math.isfinite(p.value))
    if not parts:
        return None
    top = max(parts, key=lambda p: abs(p.value))
    return replace(top, what=what, method=method or top.method, parts=parts)


# ---------------------------------------------------------------------- the seats


def confounded(res: dict) -> bool:
    seats = res.get("seats")
    return bool(seats is not None and len(seats) and seats["confounded"].any())


def seat_flags(res: dict, manifest: dict | None) -> Flags | None:
    """Cochran's Q and Holm on the per-unit win patterns (tables of one bot in every seat)."""
    wp = res.get("win_patterns")
    players = overview_value(res, "players")
    players = int(players) if math.isfinite(players) else 0
    if wp is None or not len(wp) or players < 2:
        return None
    return seat_balance(wp["units"].to_numpy(), wp["mask"].to_numpy(), players, ALPHA, min_effect(manifest))


def seat_gradient(res: dict) -> str:
    """"falling" or "rising" where the seats' win rates (one bot in every seat, three
    seats or more) run one way in seat order: at least two steps that way beyond the
    noise (the two seats' 95% intervals against the average apart), none the other way
    beyond it, and the first and last seats apart; "" otherwise (seat 1 alone ahead is
    not a gradient)."""
    sa = res.get("seat_advantage")
    if sa is None or len(sa) < 3 or confounded(res):
        return ""
    sa = sa.sort_values("seat")
    rates = sa["win_rate"].to_numpy(float)
    low, high = sa["advantage_low"].to_numpy(float), sa["advantage_high"].to_numpy(float)

    def apart(i: int, j: int) -> bool:
        return bool(low[i] > high[j] or low[j] > high[i])

    for sign, way in ((-1, "falling"), (1, "rising")):
        steps = [(sign * (rates[i + 1] - rates[i]), apart(i, i + 1)) for i in range(len(rates) - 1)]
        against = any(step < 0 and clear for step, clear in steps)
        along = sum(step > 0 and clear for step, clear in steps)
        if not against and along >= 2 and apart(0, len(rates) - 1):
            return way
    return ""


def _seat_units(res: dict, manifest: dict) -> int:
    sa, u = res["seat_advantage"], unit_of(manifest)
    return int(sa[u].iloc[0]) if len(sa) and u in sa else 0


SEAT_METHOD = ("Cochran's Q on which seats won each unit (seats paired within a unit), then per-seat paired "
               "tests against the average seat with Holm correction, flagged only beyond the practical "
               "threshold; 95% intervals paired by unit")

FIRST_SEAT = Direction("SEAT 1 EDGE", "SEAT 1 FAVOURED", "SEAT 1 HANDICAPPED", "NO SEAT 1 EDGE within {bound}",
                       "seat 1 wins more often than the average seat (its win rate minus the mean of all seats')",
                       "against the average seat")
SEAT_SPREAD = Direction("SEAT BALANCE", "SEATS UNEVEN", "SEATS UNEVEN", "SEATS EVEN within {bound}",
                        "a seat wins more often than the average seat (the seat furthest from it is quoted)",
                        "against the average seat")


def _seat_parts(tables: dict, manifest: dict) -> tuple[Estimate, ...] | None:
    sa = tables["seat_advantage"]
    if not len(sa) or confounded(tables):
        return None
    f = seat_flags(tables, manifest)
    if f is None or not np.isfinite(f.share).all():
        return None
    return flag_parts(f, _seat_units(tables, manifest), unit_of(manifest), "the average seat")


def first_seat_edge(text: str = "Is the first seat favoured?") -> Question:
    """Seat 1 against the average seat, with one bot in every seat (the seat flags'
    simultaneous interval and gates, so the word never contradicts the flags)."""
    def measure(tables, manifest):
        parts = _seat_parts(tables, manifest)
        return None if parts is None else replace(parts[0], what="seat 1 against the average seat", item="")
    return Question("first_seat_edge", text, ("seat_advantage", "win_patterns", "seats", "overview"), measure,
                    FIRST_SEAT, min_effect, "seat_advantage", SEAT_METHOD)


def seat_spread(text: str = "Do all the seats win alike?") -> Question:
    """Every seat against the average seat (any seat off it by the threshold)."""
    def measure(tables, manifest):
        parts = _seat_parts(tables, manifest)
        return None if parts is None else family(parts, "a seat off the average")
    return Question("seat_spread", text, ("seat_advantage", "win_patterns", "seats", "overview"), measure,
                    SEAT_SPREAD, min_effect, "seat_advantage", SEAT_METHOD)


# ---------------------------------------------------------------------- skill against luck


SKILL = Direction("SKILL", "SKILL MATTERS", "RANDOM PLAYS BETTER", "SKILL MAKES NO DIFFERENCE within {bound}",
                  "the heuristic bots win more often per seat than the random bot", "over random")


def skill_gradient(text: str = "How much does skill matter against luck?") -> Question:
    """The heuristic bots' win rate per seat minus random's (the all-heuristic row of
    ``luck_skill``, paired); where random never wins (or nothing else does) the
    difference is a matter of arithmetic, and the answer says so in words."""
    def measure(tables, manifest):
        ls = tables["luck_skill"]
        if not len(ls):
            return None
        row = ls.iloc[-1]
        u = unit_of(manifest)
        sa = tables.get("seat_advantage")
        n = int(sa[u].iloc[0]) if sa is not None and len(sa) and u in sa else 0
        who = "heuristic bots" if row["bot"] == "all heuristic bots" else str(row["bot"])
        degenerate = ""
        if float(row["random_win_rate"]) == 0.0:
            degenerate = (f"random never wins in {n:,} {u}: the {100 * float(row['difference']):+.1f} pp gap per "
                          "seat is arithmetic, not a measure of skill")
        elif float(row["bot_win_rate"]) == 0.0:
            degenerate = f"the {who} never win ({n:,} {u}): every win is random's"
        return Estimate(float(row["difference"]), float(row["difference_low"]), float(row["difference_high"]), n,
                        u, PP, what=f"{who} against random (win rate per seat)", baseline="random's win rate",
                        degenerate=degenerate)
    return Question("skill_gradient", text, ("luck_skill",), measure, SKILL, min_effect, "scores",
                    "each heuristic bot's win rate per seat minus random's, paired by unit, 95% t interval")


# ---------------------------------------------------------------------- length and flow


def length(metric: str, step: str, item: str, text: str, chart: str,
           mean: Callable[[dict], tuple[float, float, float, int]] | None = None) -> Question:
    """How long an item lasts (described, not judged): the overview's ``metric`` mean with
    its 95% interval, in ``step``s (or ``mean(tables)`` -> (mean, low, high, n))."""
    def measure(tables, manifest):
        if mean is not None:
            m, lo, hi, n = mean(tables)
        else:
            m, lo, hi = (overview_value(tables, metric, c) for c in ("value", "low", "high"))
            n = overview_value(tables, unit_of(manifest))
            n = int(n) if math.isfinite(n) else 0
        if not math.isfinite(m):
            return None
        return Estimate(m, lo, hi, n, unit_of(manifest), Scale(1.0, 1, f" {step}", signed=False),
                        what=f"mean {item} length", baseline="")
    return Question("length", text, ("overview",) if mean is None else (), measure,
                    Direction("LENGTH", "", "", "", f"a longer {item} (mean {step} per {item})"), None, chart,
                    f"mean {step} per {item} with a 95% t interval", Scale(1.0, 1, f" {step}", signed=False))


def _flow(tables: dict) -> dict:
    flow = tables.get("flow")
    if flow is None or not len(flow):
        return {}
    return {r["metric"]: r for _, r in flow.iterrows()}


def decided_late(item: str, step: str) -> Question:
    """How late the winner takes the lead for good (described): the mean share of an
    item's steps played before the eventual winner led for good (items with a single
    winner); the higher, the later a game is decided."""
    def measure(tables, manifest):
        r = _flow(tables).get("decided_share")
        if r is None or not r["n"]:
            return None
        return Estimate(float(r["value"]), float(r["low"]), float(r["high"]), int(r["n"]), f"{item}s",
                        Scale(100.0, 0, f"% of the {item}'s {step}", signed=False),
                        what=f"share of the {item} played before the winner led for good (mean)")
    return Question("decided_late", f"How late is a {item} decided?", ("flow",), measure,
                    Direction("DECIDED AFTER", "", "", "", f"the winner takes the lead for good later in the {item}"),
                    None, "flow", "per item, the steps before the eventual winner led for good over its length",
                    Scale(100.0, 0, f"% of the {item}'s {step}", signed=False))


LEADER_AT_HALF = Direction("HALF-TIME LEAD", "HALF-TIME LEADER FAVOURED", "HALF-TIME LEADER HANDICAPPED",
                           "HALF-TIME LEAD TELLS NOTHING within {bound}",
                           "the side leading at the half goes on to win more often than 1 in k by chance",
                           "over chance")


def leader_at_half(item: str, sides: int | Callable[[dict], int | None] | None, question: str) -> Question:
    """Does the standing at the half tell the winner? The share of ``item``s with a
    single winner that the leader at the half went on to win, minus ``1 / sides``
    (what a standing that said nothing would give; ``sides(tables)`` where the
    number of sides that can lead depends on the table), against the practical
    threshold; counted on all ``item``s (the needed units are items of the run)."""
    def measure(tables, manifest):
        contenders = sides(tables) if callable(sides) else sides
        r = _flow(tables)
        cb = r.get("comeback")
        if cb is None or not contenders or contenders < 2 or not cb["n"] or not math.isfinite(float(cb["low"])):
            return None
        chance = 1 / contenders
        total = int(r["lead_changes"]["n"]) if "lead_changes" in r else int(cb["n"])
        return Estimate(1 - float(cb["value"]) - chance, 1 - float(cb["high"]) - chance,
                        1 - float(cb["low"]) - chance, max(total, int(cb["n"])), f"{item}s", PP,
                        what=f"the leader at the half winning the {item}, against 1 in {contenders} by chance",
                        baseline=f"1 in {contenders}")
    return Question("leader_at_half", question, ("flow",), measure, LEADER_AT_HALF, min_effect, "flow",
                    "the share of items with a single winner whose winner led at the half, minus 1 in k")


# ---------------------------------------------------------------------- nobody wins


NOBODY_THRESHOLD = 0.10  # a share of games without a winner that a designer would want to know is there
NOBODY = Direction("NOBODY-WINS SHARE", "NOBODY WINS OFTEN", "NOBODY WINS OFTEN",
                   "NOBODY WINS RARELY: under {t} of games",
                   "a larger share of games ends with no winner", "of games")


def nobody_wins(counts: Callable[[dict], list[tuple[str, int, int]]], text: str,
                threshold: float = NOBODY_THRESHOLD) -> Question:
    """How often does nobody win? ``counts(tables)``: ``(label, games nobody won,
    games)`` per group (player count); each share with its Wilson interval, judged
    against ``threshold`` (shown: at least that share; ruled out: surely fewer)."""
    def measure(tables, manifest):
        parts = []
        for label, k, n in counts(tables):
            if n <= 0:
                continue
            low, high = wilson(k, n)
            parts.append(Estimate(k / n, float(low), float(high), n, "games", PERCENT,
                                  what=f"games nobody wins {label}", baseline="no games", item=""))
        return family(parts, "games nobody wins")
    return Question("nobody_wins", text, (), measure, NOBODY, lambda manifest: threshold, "outcomes",
                    "the share of games with no winner, 95% Wilson interval", PERCENT)

