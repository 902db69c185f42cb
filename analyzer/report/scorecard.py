"""The scorecard: the first thing a report shows.

One line per answer that judges an effect against a practical threshold
(``Answer.evidence``, ``stats/evidence.py``), in page order, at most
``MAX_ITEMS``: the answer in the question's own words with its direction and
numbers ("SEAT 1 FAVOURED: +6.9 to +8.0 pp against the average seat",
"DEPENDS ON THE BOTS"), the question (a link to its answer), the evidence
(shown / ruled out / not enough races or games, per table where the tables are
several: the tables that decide it differently each with its answer, every open
table named with what would settle it) and the interval, and the player count.
Then automatic warnings for results a designer must see, each saying what was
seen, what it may mean (a rule, a bot, the data) and how to look (a ``replay``
command):

* a bot or a seat that never wins (``seats`` and ``bots``, every game);
* a bot that wins ``DOMINANT`` (85%) or more from fewer than all the seats, or a
  seat that does so with one bot in every seat (``seats`` and ``bots``, every game);
* seats whose win rates fall (or rise) seat by seat: a turn-order gradient, not
  seat 1 alone (``seat_advantage``, one bot in every seat);
* answers the controlled tables leave open (each open table with its units needed,
  or why no number of units can be promised);
* whatever a game adds in its report package's ``warnings(res, manifest)``
  (a side or outcome of 85% or more, a seat that never starts, bets that almost
  never lose, ...), built with ``dominant`` and ``ScoreWarning``.

The same scorecard renders as HTML (``render_html``: an element with
``id="scorecard"``, placed before the table of contents), as text
(``render_text``: the top of what ``report`` prints) and as a table keyed by the
questions' keys (``frame``: ``scorecard.csv`` beside the report).
"""
from __future__ import annotations

import html
import math
from dataclasses import dataclass

import pandas as pd

from analyzer.report.text import GENERIC, Answer, is_num, open_text, pct, unit
from analyzer.stats.evidence import DEPENDS, NOT_ENOUGH, RULED_OUT, SHOWN, Verdict, across, word_text
from analyzer.stats.questions import FIRST_SEAT, Direction, seat_gradient

MAX_ITEMS = 8
DOMINANT = 0.85  # an outcome this common (a seat, a side, a pig) is worth a warning
MIN_UNITS = 100  # below this many units "never wins" says little

CSS = """
#scorecard{border:1px solid #d6d6d6;border-radius:4px;padding:8px 14px;margin:.8em 0 1em;background:#fcfcfd}
#scorecard h2{margin:.1em 0 .4em;font-size:1.15em;border:0;padding:0}
#scorecard ul{margin:.2em 0;padding-left:0;list-style:none}#scorecard li{margin:.3em 0;font-size:.92em}
#scorecard li b.answer{margin-right:.5em}#scorecard li .why{color:#555;font-size:.86em;line-height:1.3}
#scorecard li.warn{font-size:.86em}
.ev{display:inline-block;min-width:8.5em;text-align:center;border-radius:3px;padding:0 6px;font-weight:600;
font-size:.85em;color:#fff;margin-right:6px}.ev-shown{background:#1f7a3f}.ev-ruled-out{background:#2c5aa0}
.ev-not-enough{background:#a15c00}.ev-depends{background:#7b3f99}.warn{color:#7a3b00}#scorecard .warn b{color:#7a3b00}
#scorecard details summary{cursor:pointer;color:#7a3b00;font-weight:600;font-size:.92em}
"""


@dataclass
class Item:
    """One line of the scorecard."""
    key: str  # the question's key
    answer: str  # the answer in the question's words, with its direction and numbers
    word: str  # SHOWN, RULED_OUT, NOT_ENOUGH or DEPENDS (over the tables)
    question: str
    anchor: str  # the answer's id on the page
    evidence: str  # how the tables decide it, in words; the open tables and what would settle them
    number: str  # what was measured, with its interval(s) and threshold
    holds_for: str  # bots and player count
    unit: str = "races"  # what the game counts
    partial: str = ""  # "3 of 4" when some tables leave it open

    @property
    def badge(self) -> str:
        """The evidence word on the line's badge: "shown", "not enough games", "depends on the bots"."""
        text = word_text(self.word, self.unit)
        return f"{text}, {self.partial}" if self.partial else text

    @property
    def css(self) -> str:
        return {SHOWN: "shown", RULED_OUT: "ruled-out", NOT_ENOUGH: "not-enough", DEPENDS: "depends"}.get(
            self.word, "not-enough")


@dataclass
class ScoreWarning:
    """A degenerate result: what was seen, what it may mean, how to look."""
    seen: str
    meaning: str
    check: str

    @property
    def text(self) -> str:
        return f"{self.seen} It may mean {self.meaning}. To look: {self.check}"


def intervals(verdicts: list[Verdict]) -> str:
    """What the verdicts measured with their interval(s) and threshold: one table's
    ``v.number``; several tables' range of intervals."""
    v = verdicts[0]
    if all(x.degenerate for x in verdicts):  # said in words by the answer itself
        return f"{v.what}, threshold {v.bound}"
    if len(verdicts) == 1:
        return f"{v.what} {v.number}, threshold {v.bound}"
    finite = [x for x in verdicts if math.isfinite(x.low) and math.isfinite(x.high)]
    if not finite:
        return f"{v.what}, no interval yet, threshold {v.bound}"
    d = max(x.digits for x in finite)
    lo, hi = min(x.low for x in finite), max(x.high for x in finite)
    what = v.what.split(" (largest: ")[0] if len({x.what for x in verdicts}) > 1 else v.what
    return (f"{what} ({v.level}s of the {len(verdicts)} tables from {v.scale.text(lo, d)} to "
            f"{v.scale.text(hi, d)}{v.suffix}), threshold {v.bound}")


def item(a: Answer, manifest: dict) -> Item | None:
    """An answer's scorecard line (None: it judges nothing)."""
    ac = a.across
    if ac is None:
        return None
    players = a.players or manifest.get("players", "?")
    labels = list(ac.verdicts)
    where = f" {a.where}" if a.where else ""
    if len(labels) > 1:
        holds = f"each bot{where}; {players} players"
    elif a.where:  # one controlled table
        holds = f"{labels[0]}{where}; {players} players"
    else:  # the run's own table (its bots are the page's setup)
        holds = f"the run's bots; {players} players"
    if a.quoted is not None:
        number = intervals([a.quoted])
    elif ac.word in (SHOWN, RULED_OUT):
        group = next(iter(ac.groups.values()))
        number = intervals([ac.verdicts[label] for label in group])
    else:
        number = intervals(list(ac.verdicts.values()))
    if len(labels) > 1:
        evidence = a.evidence_text(short=True)
    else:
        v = ac.verdicts[labels[0]]
        evidence = word_text(v.word, a.unit) + ("" if v.decided else f"; {v.needed_text}")
    partial = f"{len(next(iter(ac.groups.values())))} of {len(labels)}" if ac.partial else ""
    return Item(a.key, a.answer, ac.word, a.question, a.anchor, evidence, number, holds, a.unit, partial)


def items(answers: list[Answer], manifest: dict) -> list[Item]:
    """The scorecard's lines: the answers with evidence, in page order, at most ``MAX_ITEMS``."""
    out = []
    for a in answers:
        it = item(a, manifest)
        if it is not None:
            out.append(it)
        if len(out) == MAX_ITEMS:
            break
    return out


def verdict_item(v: Verdict, question: str, anchor: str, holds_for: str, direction: Direction | None = None,
                 key: str = "", unit_word: str | None = None) -> Item:
    """One verdict as a scorecard line (a tournament's, a sweep's): its answer in the
    question's words (``direction``), what it measured with its number and
    threshold, and what would settle it when it is open."""
    u = unit_word or v.unit
    evidence = word_text(v.word, u) + (f"; {v.needed_text}" if v.word == NOT_ENOUGH else "")
    return Item(key or anchor, (direction or GENERIC).of(v), v.word, question, anchor, evidence,
                f"{v.what} {v.number}, threshold {v.bound}", holds_for, u)


def frame(answers: list[Answer], manifest: dict) -> pd.DataFrame:
    """The scorecard as a table keyed by the questions' keys (``scorecard.csv``): per
    answer that measures something, one row per table it was measured on (its answer,
    evidence word, estimate, interval, threshold, units) and a row ``table="all"``
    with the answer over them."""
    rows = []
    u = unit(manifest)
    for a in answers:
        per = a.per_table or {}
        if a.evidence:
            for label, v in a.evidence.items():
                e = per.get(label, (None, "", None))[0]
                rows.append(_row(a, label, v, e, u))
        else:
            for label, (e, _, _) in per.items():
                if e is not None:
                    rows.append(_row(a, label, None, e, u))
        if a.evidence or any(e is not None for e, _, _ in per.values()):
            rows.append({"key": a.key, "question": a.question, "table": "all", "answer": a.answer,
                         "word": a.word or "", "estimate": float("nan"), "low": float("nan"),
                         "high": float("nan"), "interval": "", "threshold": float("nan"), "scale": "", "n": 0,
                         "unit": "", "needed": "", "what": ""})
    columns = ["key", "question", "table", "answer", "word", "estimate", "low", "high", "interval", "threshold",
               "scale", "n", "unit", "needed", "what"]
    return pd.DataFrame(rows, columns=columns)


def _row(a: Answer, label: str, v: Verdict | None, e, u: str) -> dict:
    if v is not None:
        return {"key": a.key, "question": a.question, "table": label,
                "answer": (a.direction or GENERIC).of(v) if not a.headline else a.headline,
                "word": v.word, "estimate": v.estimate, "low": v.low, "high": v.high, "interval": v.level,
                "threshold": v.threshold, "scale": v.suffix.strip(), "n": v.n, "unit": v.unit,
                "needed": "" if v.decided else v.needed_cell, "what": v.what}
    return {"key": a.key, "question": a.question, "table": label, "answer": e.text, "word": "",
            "estimate": e.value, "low": e.low, "high": e.high, "interval": e.level, "threshold": float("nan"),
            "scale": e.scale.suffix.strip(), "n": e.n, "unit": e.unit, "needed": "", "what": e.what}


def replay_command(manifest: dict, seats: list[str] | None = None) -> str:
    """The ``analyzer replay`` command of race (or game) 0 of the run, or of the
    run's setup with ``seats`` (one bot label per seat); a user bot by its file."""
    from analyzer.report.controlled import seat_bots, seat_specs

    spec = dict(zip(seat_bots(manifest), seat_specs(manifest)))
    bots = [spec.get(b, b) for b in seats] if seats is not None else seat_specs(manifest)
    flag = "--game" if unit(manifest) == "games" else "--race"
    board = next((d.get("source") for d in manifest.get("data") or [] if not d.get("assumed", True)), None)
    return (f"analyzer replay {manifest.get('game', 'GAME')} --players {manifest.get('players', '?')} "
            f"--bots {','.join(bots) or '?'} --seed {manifest.get('seed', 1)} {flag} 0"
            + (f" --board {board}" if board else "") + f" (then {flag} 1, 2, ...)")


def dominant(what: str, share, n, manifest: dict, meaning: str, seats: list[str] | None = None,
             threshold: float = DOMINANT, counted: str | None = None) -> list[ScoreWarning]:
    """A warning when ``what`` happens in ``share`` (≥ ``threshold``) of ``n`` units
    (or of ``n`` ``counted``: "queued bets")."""
    if not (is_num(share) and float(share) >= threshold and is_num(n) and int(n) >= MIN_UNITS):
        return []
    return [ScoreWarning(f"{what} in {pct(share)} of {int(n):,} {counted or unit(manifest)}.", meaning,
                    replay_command(manifest, seats))]


def never_wins(res: dict, manifest: dict) -> list[ScoreWarning]:
    """Bots and seats (of one bot in every seat) that won nothing over at least ``MIN_UNITS``."""
    out = []
    u = unit(manifest)
    bots = res.get("bots")
    if bots is not None and len(bots):
        for _, r in bots.iterrows():
            n = int(r.get(f"player_{u}", 0) or 0)
            if int(r["wins"]) == 0 and n >= MIN_UNITS:
                out.append(ScoreWarning(
                    f"{r['bot']} never wins (0 of {n:,} seat-{u}).",
                    "a bot too weak to matter, a rule that shuts its way of playing out, or a bot that cannot "
                    "finish (a bug in its moves)", replay_command(manifest)))
    seats = res.get("seats")
    if seats is not None and len(seats) and bots is not None and len(bots) == 1:
        for _, r in seats.iterrows():
            n = int(r.get(f"player_{u}", 0) or 0)
            if int(r["wins"]) == 0 and n >= MIN_UNITS:
                out.append(ScoreWarning(f"Seat {r['seat']} never wins (0 of {n:,} {u}).",
                                   "a rule that decides the game by turn order, or a bot that plays badly from "
                                   "that seat", replay_command(manifest)))
    return out


def wins_almost_all(res: dict, manifest: dict) -> list[ScoreWarning]:
    """A bot that wins ``DOMINANT`` or more of the units from fewer than all the seats, and
    a seat that does so with one bot in every seat (``bots`` and ``seats`` tables)."""
    out = []
    u = unit(manifest)
    bots = res.get("bots")
    players = int(manifest.get("players") or 0)
    if bots is not None and len(bots) > 1:
        for _, r in bots.iterrows():
            seats = len(str(r.get("seats", "")).split(","))  # the seats it sits in: "2,3"
            units = int(r.get(f"player_{u}", 0) or 0) // max(seats, 1)
            if seats < players:  # a bot in every seat wins every unit: that says nothing
                out += dominant(f"{r['bot']} ({seats} of {players} seats) wins", int(r["wins"]) / max(units, 1),
                                units, manifest, "a bot far stronger than the rest (its rivals play too weakly "
                                "for the table to say anything about the game), or a rule its way of playing "
                                "exploits")
    seats = res.get("seats")
    if seats is not None and len(seats) and bots is not None and len(bots) == 1:
        for _, r in seats.iterrows():
            out += dominant(f"Seat {int(r['seat'])} wins", r["win_rate"], r.get(f"player_{u}", 0), manifest,
                            "a rule that decides the game by turn order, or a bot that cannot play from the "
                            "other seats")
    return out


def too_small(answers: list[Answer], manifest: dict, controlled) -> list[ScoreWarning]:
    """One warning when controlled tables leave answers open: every open table of each
    such answer, named, with the units that would settle it (or why none can be
    promised: an estimate within one standard error of its threshold)."""
    if not controlled:
        return []
    open_ = [a for a in answers if a.evidence and a.where and a.across.open  # judged per controlled table
             and any(k in controlled.tables for k in a.evidence)]
    if not open_:
        return []
    units = sorted(set(controlled.units.values()))
    u = unit(manifest)
    size = f"{units[0]:,}" if len(units) == 1 else f"{units[0]:,}-{units[-1]:,}"
    listed = "; ".join(f"{a.question} ({', '.join(a.across.open)})" for a in open_)
    settle = [v.needed for a in open_ for v in a.across.open.values() if v.needed is not None]
    sits = any(v.on_threshold for a in open_ for v in a.across.open.values())
    meaning = "nothing about the game yet: the data are too few"
    if settle:
        meaning += f"; about {max(settle):,} {u} a table would settle every one that more {u} can settle"
    if sits:
        meaning += (f"; where an estimate lies within one standard error of its threshold the effect may be about "
                    f"as large as the threshold itself, and more {u} may not settle it soon")
    return [ScoreWarning(
        f"The controlled tables ({size} {u} each) leave {len(open_)} of the answers open with some bots: {listed}.",
        meaning,
        f"rerun with more {u} (analyzer simulate {manifest.get('game', 'GAME')} --{u} N --out DIR, then "
        f"analyzer report DIR)")]


def gradient(res: dict, manifest: dict) -> list[ScoreWarning]:
    """Seats whose win rates fall (or rise) seat by seat with one bot in every seat
    (``stats/questions.seat_gradient``): a turn-order gradient, not seat 1 alone."""
    way = seat_gradient(res)
    if not way:
        return []
    sa = res["seat_advantage"].sort_values("seat")
    rates = ", ".join(pct(r) for r in sa["win_rate"])
    return [ScoreWarning(
        f"The seats' win rates are {way} in seat order: {rates} (seats 1 to {len(sa)}; two steps or more beyond "
        "the noise, none back).",
        "a turn order that favours the " + ("earlier" if way == "falling" else "later") + " seats step by step "
        "(a rule: who moves, draws or scores first), not seat 1 alone; the all-seats answer judges each seat",
        replay_command(manifest))]


def warnings(res: dict, manifest: dict, answers: list[Answer], controlled=None,
             sections=None) -> list[ScoreWarning]:
    """The automatic warnings: never-winning bots and seats, a dominant bot or seat, a
    seat gradient, answers left open by small controlled tables, and the game's own
    (``sections.warnings(res, manifest)``)."""
    def seen(table, one_bot: bool) -> list[ScoreWarning]:
        out = never_wins(table, manifest) + wins_almost_all(table, manifest)
        if one_bot and "seat_advantage" in table:
            out += gradient(table, manifest)
        if sections is not None and hasattr(sections, "warnings"):
            out += sections.warnings(table, manifest)
        return out

    from analyzer.report.text import single_bot

    out = seen(res, single_bot(manifest))
    for label, table in (controlled.tables.items() if controlled else []):
        if table is not res:
            seats = [label] * int(manifest.get("players") or 0) if controlled.where == "in every seat" else None
            for w in seen(table, controlled.where == "in every seat"):
                out.append(ScoreWarning(f"With {label} {controlled.where}: {w.seen[0].lower()}{w.seen[1:]}",
                                        w.meaning, replay_command(manifest, seats) if seats else w.check))
    out += too_small(answers, manifest, controlled)
    return out


def _line_html(it: Item, name: str = "") -> str:
    """A line: its evidence badge, the answer in the question's words and the question (a
    link to its answer); under them, small, the evidence per table, the interval and the
    players."""
    e = html.escape
    who = f"<b>{e(name)}:</b> " if name else ""
    return (f'<span class="ev ev-{it.css}">{e(it.badge)}</span>{who}<b class="answer">{e(it.answer)}</b>'
            f'<a href="#{e(it.anchor)}">{e(it.question)}</a><br><span class="why">{e(it.evidence)}: '
            f"{e(it.number)}; <i>{e(it.holds_for)}</i></span>")


def render_html(card: list[Item], warns: list[ScoreWarning]) -> str:
    """The scorecard as an HTML block with ``id="scorecard"``."""
    e = html.escape
    parts = ['<section id="scorecard"><h2>Scorecard</h2>']
    if card:
        parts.append("<ul>")
        parts += [f'<li class="q q-{e(it.key)}">{_line_html(it)}</li>' for it in card]
        parts.append("</ul>")
    else:
        parts.append('<p class="small">No answer of this report judges an effect against a practical '
                     "threshold.</p>")
    if warns:
        parts.append(f"<details open><summary>{len(warns)} warning{'s' if len(warns) > 1 else ''}</summary><ul>")
        parts += [f'<li class="warn"><b>{e(w.seen)}</b> It may mean {e(w.meaning)}. To look: '
                  f"<code>{e(w.check)}</code></li>" for w in warns]
        parts.append("</ul></details>")
    parts.append("</section>")
    return "".join(parts)


def render_side_by_side(runs: list[tuple[str, list[Item], list[ScoreWarning]]]) -> str:
    """The scorecard of runs shown side by side (``report --by``): per question key, each
    run's line (``(run name, items, warnings)``, the items' anchors shared), then each
    run's warnings, named by run."""
    e = html.escape
    keys = list(dict.fromkeys(it.key for _, card, _ in runs for it in card))
    parts = ['<section id="scorecard"><h2>Scorecard</h2><ul>']
    for key in keys:
        first = next(it for _, card, _ in runs for it in card if it.key == key)
        cells = [f"<br>{_line_html(it, name)}" for name, card, _ in runs for it in card if it.key == key]
        parts.append(f'<li class="q q-{e(key)}"><a href="#{e(first.anchor)}">{e(first.question)}</a>'
                     f'{"".join(cells)}</li>')
    parts.append("</ul>")
    warns = [(name, w) for name, _, ws in runs for w in ws]
    if warns:
        parts.append(f"<details open><summary>{len(warns)} warning{'s' if len(warns) > 1 else ''}</summary><ul>")
        parts += [f'<li class="warn"><b>{e(name)}: {e(w.seen)}</b> It may mean {e(w.meaning)}. To look: '
                  f"<code>{e(w.check)}</code></li>" for name, w in warns]
        parts.append("</ul></details>")
    parts.append("</section>")
    return "".join(parts)


def render_text(card: list[Item], warns: list[ScoreWarning]) -> str:
    """The scorecard as plain text lines (for the console): per line the answer, then
    the question, its evidence, the interval and the player count."""
    lines = ["Scorecard"]
    for it in card:
        lines.append(f"  {it.answer} — {it.question} {it.evidence}: {it.number}; {it.holds_for}")
    if not card:
        lines.append("  (no answer judges an effect against a practical threshold)")
    for w in warns:
        lines.append(f"  WARNING  {w.text}")
    return "\n".join(lines)


__all__ = ["Item", "ScoreWarning", "items", "warnings", "render_html", "render_text", "dominant", "replay_command",
           "frame", "SHOWN", "RULED_OUT", "NOT_ENOUGH", "DEPENDS"]
