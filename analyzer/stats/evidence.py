"""Evidence words: how sure an answer is, in three words a designer reads, and the
one rule that gives them.

An effect (a seat's edge, a colour's gap from fair, a bot's lead over random)
is measured with a 95% interval (or a simultaneous one, for a family of items)
and judged against a *practical threshold* ``t`` (the smallest effect that
matters, e.g. 1 percentage point). ``decide`` is the only place the words are
decided, for every report, table, chart, ladder, sweep and tournament:

* **shown**: the whole interval lies beyond ``t`` on one side (``low > t`` or
  ``high < -t``): the effect is there and larger than the threshold;
* **ruled out**: the whole interval lies inside ``(-t, t)``: any effect is
  smaller than the threshold (an equivalence test, two one-sided tests at 2.5%
  each, read off the same 95% interval);
* **not enough races** (games, in a game counted in games): neither. A bound
  exactly on the threshold decides nothing.

``needed`` then says how many units would settle it. The half-width of an
interval shrinks as ``1/sqrt(n)``: the side ``h`` wide at ``n`` units (``h =
z·se``, ``z`` the interval's quantile) that must clear the threshold clears it,
with a chance of 4 in 5 if the effect is as estimated, once the gap ``g`` from
the estimate to the threshold is ``(z + 0.84)`` standard errors:

      n' = n · ((h + 0.84·se) / g)²          (both sides, towards ruled out)

It is printed only where the gap is itself clear of the noise, at least one
standard error: an estimate within one standard error of the threshold may sit
on it, and no number of units can be promised (``needed`` is None: "the effect
may sit on the threshold: more races may not settle it soon").

``verdict`` judges one effect, ``any_of`` a family of them ("is any colour off
by the threshold?": shown if one is, ruled out if all are); ``across`` the same
effect on several tables (one per bot): tables that decide differently, in word
or in direction, *depend on the bots*.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from analyzer.stats.intervals import Z95

SHOWN = "shown"
RULED_OUT = "ruled out"
NOT_ENOUGH = "not enough"  # printed with the game's unit: "not enough races", "not enough games"
DEPENDS = "depends on the bots"  # several tables deciding differently (``across``)
WORDS = (SHOWN, RULED_OUT, NOT_ENOUGH)
NEEDED_CAP = 10_000_000_000  # beyond this "needed" is not worth a number: the analyzer plays at most 10 billion
Z_POWER = 0.8416212335729143  # the 80% quantile of the standard normal: "needed" settles it 4 times in 5

EXACT = "exact"  # an interval without width: every unit gave the same answer, no sampling error to show


def word_text(word: str, unit: str = "races") -> str:
    """An evidence word as printed: "not enough" takes the unit the game counts
    ("not enough games" in a game of games)."""
    return f"not enough {unit}" if word == NOT_ENOUGH else word


def decide(low: float, high: float, threshold: float) -> str:
    """The verdict rule: SHOWN when the interval ``low``-``high`` lies wholly beyond
    ``±threshold``, RULED_OUT when wholly inside it, else NOT_ENOUGH (a NaN bound
    included). Every verdict of the analyzer comes from here."""
    low, high, t = float(low), float(high), float(threshold)
    if not (math.isfinite(low) and math.isfinite(high)):
        return NOT_ENOUGH
    if low > t or high < -t:
        return SHOWN
    if -t < low and high < t:
        return RULED_OUT
    return NOT_ENOUGH


@dataclass(frozen=True)
class Scale:
    """How an effect's numbers print: ``factor`` times the value with ``digits``
    decimals and ``suffix`` ("+1.2 pp": a share difference as percentage points),
    ``signed``: with its sign."""
    factor: float = 100.0
    digits: int = 1
    suffix: str = " pp"
    signed: bool = True

    def text(self, x: float, digits: int | None = None) -> str:
        """The number without its suffix: ``+1.2``."""
        d = self.digits if digits is None else digits
        v = self.factor * float(x)
        return f"{v:+.{d}f}" if self.signed else f"{v:.{d}f}"

    def value(self, x: float, digits: int | None = None) -> str:
        """The number with its suffix: ``+1.2 pp``."""
        return self.text(x, digits) + self.suffix


PP = Scale()  # a difference of shares, in percentage points
PERCENT = Scale(100.0, 1, "%", signed=False)  # a share


def points(suffix: str = " points", digits: int = 2) -> Scale:
    """A difference in a game's own points (race points, hexes): ``+0.69 points``."""
    return Scale(1.0, digits, suffix)


def span(low: float, high: float, fmt, sep: str = " to ") -> str:
    """An interval in words: ``+0.4 to +2.0``, or ``exact`` when it has no width
    (``low == high``), never a degenerate ``+0.0 to +0.0``."""
    return EXACT if low == high else f"{fmt(low)}{sep}{fmt(high)}"


def pp_text(x: float) -> str:
    """A share difference in percentage points, signed, without the unit: ``+1.2``."""
    return PP.text(x)


@dataclass(frozen=True)
class Verdict:
    """One effect judged against a practical threshold (see the module docstring)."""
    word: str  # SHOWN, RULED_OUT or NOT_ENOUGH
    estimate: float
    low: float
    high: float
    threshold: float
    n: int  # units (races, games) the interval rests on
    needed: int | None = None  # for NOT_ENOUGH: units that would settle it; None: no number of units can be promised
    what: str = "the effect"  # what was measured, in words ("seat 1 against the average seat")
    unit: str = "races"
    scale: Scale = PP  # how its numbers print
    level: str = "95% CI"  # what the interval is
    item: str = ""  # the item quoted, for a family ("grey")
    z: float = Z95  # the interval's normal quantile (a simultaneous interval's is larger)
    degenerate: str = ""  # the comparison in words where its number says nothing ("random never wins")

    @property
    def decided(self) -> bool:
        return self.word != NOT_ENOUGH

    @property
    def side(self) -> str:
        """The direction a shown effect points: "+" or "-"; "" unless shown."""
        if self.word != SHOWN:
            return ""
        return "+" if self.estimate > 0 else "-"

    @property
    def finite(self) -> bool:
        return math.isfinite(self.low) and math.isfinite(self.high) and self.n > 0

    def fmt(self, x: float) -> str:
        return self.scale.text(x, self.digits)

    @property
    def suffix(self) -> str:
        return self.scale.suffix

    @property
    def digits(self) -> int:
        """The decimals at which the interval's bounds print apart from each other and
        from the threshold (a bound said to clear, or stay inside, ``±1.0`` never
        prints as ``1.0``)."""
        s = self.scale
        if not self.finite:
            return s.digits
        marks = (self.threshold, -self.threshold)
        for d in range(s.digits, s.digits + 4):
            lo, hi = s.text(self.low, d), s.text(self.high, d)
            ts = {s.text(m, d) for m in marks}
            if (lo != hi or self.low == self.high) and lo not in ts and hi not in ts:
                return d
        return s.digits + 3

    @property
    def value_text(self) -> str:
        """The estimate with its unit: ``+1.2 pp``."""
        return self.scale.value(self.estimate, self.digits)

    @property
    def interval_text(self) -> str:
        """The interval: ``+0.4 to +2.0``, ``exact`` without width, "" without bounds."""
        if not (math.isfinite(self.low) and math.isfinite(self.high)):
            return ""
        return span(self.low, self.high, self.fmt)

    @property
    def number(self) -> str:
        """The estimate with its interval: ``+1.2 pp (95% CI +0.4 to +2.0)``; a
        degenerate comparison in words."""
        if self.degenerate:
            return self.degenerate
        if not (math.isfinite(self.low) and math.isfinite(self.high)):
            return self.value_text
        if self.low == self.high:
            return f"{self.value_text} ({EXACT})"
        return f"{self.value_text} ({self.level} {self.interval_text})"

    @property
    def bound(self) -> str:
        """The threshold in words: ``±1.0 pp`` (a share judged against a level: ``10.0%``)."""
        return ("±" if self.scale.signed else "") + self.scale.text(self.threshold).lstrip("+") + self.scale.suffix

    @property
    def on_threshold(self) -> bool:
        """Open, with an interval, but too close to the threshold for a number of units
        to settle it soon."""
        return self.word == NOT_ENOUGH and self.finite and self.needed is None

    @property
    def needed_text(self) -> str:
        return self._needed(short=False)

    @property
    def needed_cell(self) -> str:
        """``needed_text`` in a few words, for a table cell ("about 83,000 races"); "" when decided."""
        return "" if self.decided else self._needed(short=True)

    def _needed(self, short: bool) -> str:
        if not self.finite:
            return "no interval yet" if short else (
                f"no interval at {self.n:,} {self.unit}: more {self.unit} are needed to judge it")
        if self.needed is None:
            return "may sit on the threshold" if short else (
                f"the effect may sit on the threshold (the estimate is within one standard error of it): more "
                f"{self.unit} may not settle it soon")
        if self.needed >= NEEDED_CAP:
            return f"more than {NEEDED_CAP:,} {self.unit}" + ("" if short else " would be needed to settle it")
        tail = "" if short else " would settle it (4 times in 5, if the effect and its spread stay as observed)"
        return f"about {self.needed:,} {self.unit}{tail}"

    @property
    def reason(self) -> str:
        """The number and why (or what would settle it), without the word."""
        head = f"{self.what} {self.number}"
        if self.degenerate:
            return head
        if self.word == SHOWN:
            return f"{head}, the whole interval beyond {self.bound}"
        if self.word == RULED_OUT:
            return f"{head}, the whole interval inside {self.bound}: smaller than the threshold if there at all"
        if not (math.isfinite(self.low) and math.isfinite(self.high)):
            return f"{self.what} has no interval at {self.n:,} {self.unit}"
        return f"{head} reaches across {self.bound} at {self.n:,} {self.unit}; {self.needed_text}"

    @property
    def sentence(self) -> str:
        """One line: the word, the number, and why (or what would settle it)."""
        return f"{word_text(self.word, self.unit)}: {self.reason}"


def round_up(n: float) -> int:
    """Round a count of units up to two significant figures (24,310 -> 25,000)."""
    if n <= 100:
        return int(math.ceil(n))
    step = 10 ** (int(math.floor(math.log10(n))) - 1)
    return int(math.ceil(n / step - 1e-9) * step)


def _scale(n: int, half: float, gap: float, z: float) -> float:
    """Units at which a side ``half`` wide at ``n`` units clears a threshold ``gap``
    away 4 times in 5 (``Z_POWER``); infinite when the gap is within one standard
    error (``half / z``) of nothing: an estimate sitting on the threshold."""
    se = half / z
    if gap <= 0 or gap < se:
        return math.inf
    return n * ((half + Z_POWER * se) / gap) ** 2


def verdict(estimate: float, low: float | None, high: float | None, threshold: float, n: int,
            se: float | None = None, what: str = "the effect", unit: str = "races", scale: Scale = PP,
            level: str = "95% CI", item: str = "", z: float = Z95, degenerate: str = "") -> Verdict:
    """Judge ``estimate`` with its interval (``low``, ``high``; or, without them,
    ``estimate ± z·se``) at ``n`` units against the practical threshold
    ``threshold`` (> 0) by ``decide``. NaN bounds give NOT_ENOUGH with no number needed."""
    if threshold <= 0:
        raise ValueError("the practical threshold must be positive")
    e, t, n = float(estimate), float(threshold), int(n)
    if low is None or high is None:
        half = z * float(se) if se is not None else math.nan
        low, high = e - half, e + half
    low, high = float(low), float(high)
    kw = dict(estimate=e, low=low, high=high, threshold=t, n=n, what=what, unit=unit, scale=scale, level=level,
              item=item, z=z, degenerate=degenerate)
    if not (math.isfinite(e) and math.isfinite(low) and math.isfinite(high)) or n <= 0:
        return Verdict(NOT_ENOUGH, needed=None, **kw)
    word = decide(low, high, t)
    if word != NOT_ENOUGH:
        return Verdict(word, **kw)
    lower, upper = max(e - low, 0.0), max(high - e, 0.0)
    if abs(e) > t:  # towards shown: the side facing zero must clear the threshold
        need = _scale(n, lower if e > 0 else upper, abs(e) - t, z)
    elif abs(e) < t:  # towards ruled out: both sides must stay inside
        need = max(_scale(n, upper, t - e, z), _scale(n, lower, t + e, z))
    else:
        need = math.inf
    needed = None if not math.isfinite(need) else min(max(round_up(need), n + 1), NEEDED_CAP)
    return Verdict(NOT_ENOUGH, needed=needed, **kw)


def any_of(verdicts: Sequence[Verdict], what: str) -> Verdict:
    """A family of effects (one per colour, pig, seat): SHOWN if any one is shown
    (the largest of those is quoted), RULED_OUT if every one is ruled out (the one
    nearest the threshold is quoted), else NOT_ENOUGH, quoting the undecided
    effect that would take the most units to settle (the fewest, when some
    point beyond the threshold: one shown effect settles the family)."""
    if not verdicts:
        raise ValueError("any_of needs at least one verdict")
    shown = [v for v in verdicts if v.word == SHOWN]
    if shown:
        pick = max(shown, key=lambda v: abs(v.estimate))
    elif all(v.word == RULED_OUT for v in verdicts):
        pick = max(verdicts, key=lambda v: max(abs(v.low), abs(v.high)))
    else:
        open_ = [v for v in verdicts if v.word == NOT_ENOUGH]
        beyond = [v for v in open_ if abs(v.estimate) > v.threshold and v.needed is not None]
        if beyond:
            pick = min(beyond, key=lambda v: v.needed)
        else:
            pick = max(open_, key=lambda v: math.inf if v.needed is None else v.needed)
    return Verdict(pick.word, pick.estimate, pick.low, pick.high, pick.threshold, pick.n, pick.needed,
                   f"{what} (largest: {pick.what})" if len(verdicts) > 1 else pick.what, pick.unit, pick.scale,
                   pick.level, pick.item, pick.z, pick.degenerate)


@dataclass(frozen=True)
class Across:
    """The same effect judged on several tables (one per bot, or per strength):
    ``word`` is the common word when the tables that decide it decide it alike, in
    word and direction (``signed``: a shown effect's sign counts; not for a family
    whose answer is the same either way, "unbalanced"), DEPENDS when they decide it
    differently, NOT_ENOUGH when no table decides it. Tables that decide nothing
    are ``open``; with some decided they leave the answer ``partial``."""
    word: str
    verdicts: dict[str, Verdict]
    signed: bool = True

    def key(self, v: Verdict) -> tuple[str, str]:
        return v.word, (v.side if self.signed else "")

    @property
    def groups(self) -> dict[tuple[str, str], list[str]]:
        """The deciding tables by their answer (word, direction), in table order."""
        out: dict[tuple[str, str], list[str]] = {}
        for label, v in self.verdicts.items():
            if v.decided:
                out.setdefault(self.key(v), []).append(label)
        return out

    @property
    def open(self) -> dict[str, Verdict]:
        return {label: v for label, v in self.verdicts.items() if not v.decided}

    @property
    def partial(self) -> bool:
        return bool(self.open) and self.word in (SHOWN, RULED_OUT)

    @property
    def holds(self) -> bool:
        """Every table decides it, all alike."""
        return not self.open and self.word in (SHOWN, RULED_OUT)


def across(verdicts: dict[str, Verdict], signed: bool = True) -> Across:
    """The same effect judged on several tables (see ``Across``)."""
    probe = Across(NOT_ENOUGH, dict(verdicts), signed)
    groups = probe.groups
    if len(groups) > 1:
        return Across(DEPENDS, dict(verdicts), signed)
    if groups:
        return Across(next(iter(groups))[0], dict(verdicts), signed)
    return probe
