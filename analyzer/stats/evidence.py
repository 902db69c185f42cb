"""Evidence words: how sure an answer is, in three words a designer reads first.

An effect (a seat's edge, a colour's gap from fair, a bot's lead over random)
is measured with a 95% interval and judged against a *practical threshold*
``t`` (the smallest effect that matters, e.g. 1 percentage point):

* **shown**: the whole interval lies beyond ``t`` on one side (``low >= t`` or
  ``high <= -t``): the effect is there and at least that large;
* **ruled out**: the whole interval lies inside ``(-t, t)``: any effect is
  smaller than the threshold (an equivalence test, two one-sided tests at 2.5%
  each, read off the same 95% interval);
* **not enough races**: neither. Then ``needed`` says how many units would
  settle it if the estimate and the spread per unit stay as observed: the
  half-width of an interval shrinks as ``1/sqrt(n)``, so the side of the interval
  that must clear the threshold, ``h`` wide now at ``n`` units, is
  ``h * sqrt(n / n')`` wide at ``n'`` units, and the answer is decided once it
  no longer reaches across the threshold:

      |e| > t (towards shown):     n' = n * (h / (|e| - t))²
      |e| < t (towards ruled out): n' = n * max over both sides (h_side / (t ∓ e))²

  An estimate exactly at the threshold can never be decided that way
  (``needed`` is None: "more races will not settle it at this estimate").

``verdict`` judges one effect, ``any_of`` a family of them ("is any colour off
by the threshold?": shown if one is, ruled out if all are). The report's
sentences and scorecard read ``Verdict.word``, ``Verdict.sentence``.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from analyzer.stats.intervals import Z95

SHOWN = "shown"
RULED_OUT = "ruled out"
NOT_ENOUGH = "not enough races"
WORDS = (SHOWN, RULED_OUT, NOT_ENOUGH)
NEEDED_CAP = 10_000_000_000  # beyond this "needed" is not worth a number: the analyzer plays at most 10 billion


EXACT = "exact"  # an interval without width: every unit gave the same answer, no sampling error to show


def span(low: float, high: float, fmt: Callable[[float], str], sep: str = " to ") -> str:
    """An interval in words: ``+0.4 to +2.0``, or ``exact`` when it has no width
    (``low == high``), never a degenerate ``+0.0 to +0.0``."""
    return EXACT if low == high else f"{fmt(low)}{sep}{fmt(high)}"


def pp_text(x: float) -> str:
    """A share difference in percentage points, signed, without the unit: ``+1.2``."""
    return f"{100 * x:+.1f}"


@dataclass(frozen=True)
class Verdict:
    """One effect judged against a practical threshold (see the module docstring)."""
    word: str  # SHOWN, RULED_OUT or NOT_ENOUGH
    estimate: float
    low: float
    high: float
    threshold: float
    n: int  # units (races, games) the interval rests on
    needed: int | None = None  # for NOT_ENOUGH: units that would settle it; None: no number of units would
    what: str = "the effect"  # what was measured, in words ("seat 1 against the average seat")
    unit: str = "races"
    fmt: Callable[[float], str] = pp_text  # a value as a signed number
    suffix: str = " pp"  # the unit of ``fmt``'s numbers
    level: str = "95% CI"  # what the interval is

    @property
    def decided(self) -> bool:
        return self.word != NOT_ENOUGH

    @property
    def number(self) -> str:
        """The estimate with its interval: ``+1.2 pp (95% CI +0.4 to +2.0)``."""
        if not (math.isfinite(self.low) and math.isfinite(self.high)):
            return self.fmt(self.estimate) + self.suffix
        if self.low == self.high:
            return f"{self.fmt(self.estimate)}{self.suffix} ({EXACT})"
        return f"{self.fmt(self.estimate)}{self.suffix} ({self.level} {span(self.low, self.high, self.fmt)})"

    @property
    def bound(self) -> str:
        """The threshold in words: ``±1.0 pp``."""
        return "±" + self.fmt(self.threshold).lstrip("+") + self.suffix

    @property
    def needed_text(self) -> str:
        return self._needed(short=False)

    @property
    def needed_cell(self) -> str:
        """``needed_text`` in a few words, for a table cell ("about 83,000 races"); "" when decided."""
        return "" if self.decided else self._needed(short=True)

    def _needed(self, short: bool) -> str:
        if self.n <= 0 or not (math.isfinite(self.low) and math.isfinite(self.high)):
            return "no interval yet" if short else (
                f"no interval at {self.n:,} {self.unit}: more {self.unit} are needed to judge it")
        if self.needed is None:
            return "none: the estimate sits on the threshold" if short else (
                f"more {self.unit} will not settle it while the estimate sits on the threshold")
        if self.needed >= NEEDED_CAP:
            return f"more than {NEEDED_CAP:,} {self.unit}" + ("" if short else " would be needed to settle it")
        tail = "" if short else " would settle it if the spread stays as observed"
        return f"about {self.needed:,} {self.unit}{tail}"

    @property
    def reason(self) -> str:
        """The number and why (or what would settle it), without the word."""
        head = f"{self.what} {self.number}"
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
        return f"{self.word}: {self.reason}"


def round_up(n: float) -> int:
    """Round a count of units up to two significant figures (24,310 -> 25,000)."""
    if n <= 100:
        return int(math.ceil(n))
    step = 10 ** (int(math.floor(math.log10(n))) - 1)
    return int(math.ceil(n / step - 1e-9) * step)


def _scale(n: int, half: float, room: float) -> float:
    """Units at which a half-width ``half`` at ``n`` units shrinks to ``room``."""
    if room <= 0:
        return math.inf
    return n * (half / room) ** 2


def verdict(estimate: float, low: float | None, high: float | None, threshold: float, n: int,
            se: float | None = None, what: str = "the effect", unit: str = "races",
            fmt: Callable[[float], str] = pp_text, suffix: str = " pp", level: str = "95% CI") -> Verdict:
    """Judge ``estimate`` with its 95% interval (``low``, ``high``; or, without
    them, ``estimate ± 1.96 se``) at ``n`` units against the practical threshold
    ``threshold`` (> 0). NaN bounds give NOT_ENOUGH with no number needed."""
    if threshold <= 0:
        raise ValueError("the practical threshold must be positive")
    e, t, n = float(estimate), float(threshold), int(n)
    if low is None or high is None:
        half = Z95 * float(se) if se is not None else math.nan
        low, high = e - half, e + half
    low, high = float(low), float(high)
    kw = dict(estimate=e, low=low, high=high, threshold=t, n=n, what=what, unit=unit, fmt=fmt, suffix=suffix,
              level=level)
    if not (math.isfinite(e) and math.isfinite(low) and math.isfinite(high)) or n <= 0:
        return Verdict(NOT_ENOUGH, needed=None, **kw)
    if low >= t or high <= -t:
        return Verdict(SHOWN, **kw)
    if -t < low and high < t:
        return Verdict(RULED_OUT, **kw)
    lower, upper = max(e - low, 0.0), max(high - e, 0.0)
    if abs(e) > t:  # towards shown: the side facing zero must clear the threshold
        need = _scale(n, lower if e > 0 else upper, abs(e) - t)
    elif abs(e) < t:  # towards ruled out: both sides must stay inside
        need = max(_scale(n, upper, t - e), _scale(n, lower, t + e))
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
                   f"{what} (largest: {pick.what})" if len(verdicts) > 1 else pick.what, pick.unit, pick.fmt,
                   pick.suffix, pick.level)


def across(verdicts: dict[str, Verdict]) -> tuple[str, str]:
    """The same effect judged on several controlled tables (one per bot):
    ``(key, phrase)``. It *holds across these bots* (key: the common word) only
    when every table decides it on its own and all alike; tables that decide
    differently *depend on the bots* (key "depends"); any undecided table leaves
    it *not settled at N units* (key "open"), naming the units the slowest table
    would need."""
    words = {v.word for v in verdicts.values()}
    units = {v.n for v in verdicts.values()}
    unit = next(iter(verdicts.values())).unit
    at = f"{units.pop():,} {unit}" if len(units) == 1 else f"{min(units):,}-{max(units):,} {unit}"
    if NOT_ENOUGH in words:
        open_ = {k: v for k, v in verdicts.items() if v.word == NOT_ENOUGH}
        needs = [v.needed for v in open_.values()]
        most = None if any(x is None for x in needs) else max(needs)
        tail = ("; more races will not settle it at the estimates observed" if most is None else
                f"; about {most:,} {unit} per table would settle it if the spread stays as observed")
        return "open", (f"not settled at {at} a table: {', '.join(open_)} "
                        f"{'does' if len(open_) == 1 else 'do'} not decide it{tail}")
    if len(words) == 1:
        return words.pop(), "it holds across these bots"
    return "depends", "the bots decide it differently: " + ", ".join(
        f"{w} with {', '.join(k for k, v in verdicts.items() if v.word == w)}" for w in (SHOWN, RULED_OUT))


def decide(low: float, high: float, threshold: float) -> str:
    """The verdict rule: SHOWN when the interval ``low``-``high`` lies wholly beyond
    ``±threshold``, RULED_OUT when wholly inside it, else NOT_ENOUGH (a NaN bound
    included)."""
    low, high, t = float(low), float(high), float(threshold)
    if not (math.isfinite(low) and math.isfinite(high)):
        return NOT_ENOUGH
    if low > t or high < -t:
        return SHOWN
    if -t < low and high < t:
        return RULED_OUT
    return NOT_ENOUGH
