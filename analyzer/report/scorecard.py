"""The scorecard: the first thing a report shows.

Up to ``MAX_ITEMS`` verdicts, one per answer that judges an effect against a
practical threshold (``Answer.evidence``, ``stats/evidence.py``): its evidence
word (shown, ruled out, not enough races), its number with the interval, the
bots and player count it holds for, and a link to its answer. Then automatic
warnings for degenerate results, each saying what was seen, what it may mean
(a rule, a bot, the data) and how to look (a ``replay`` command):

* a bot or a seat that never wins (``seats`` and ``bots``, every game);
* a bot that wins 90% or more from fewer than all the seats, or a seat that does
  so with one bot in every seat (``seats`` and ``bots``, every game);
* answers the controlled tables are too small to settle (their races needed);
* whatever a game adds in its report package's ``warnings(res, manifest)``
  (an outcome of 90% or more, bets that almost never lose, ...), built with
  ``dominant`` and ``ScoreWarning``.

The same scorecard renders as HTML (``render_html``: an element with
``id="scorecard"``, placed before the table of contents) and as text
(``render_text``: the top of what ``report`` prints).
"""
from __future__ import annotations

import html
from dataclasses import dataclass

from analyzer.report.text import Answer, is_num, pct, unit
from analyzer.stats.evidence import NOT_ENOUGH, RULED_OUT, SHOWN, Verdict

MAX_ITEMS = 8
DOMINANT = 0.9  # an outcome this common is worth a warning
MIN_UNITS = 100  # below this many units "never wins" says little

CSS = """
#scorecard{border:1px solid #d6d6d6;border-radius:4px;padding:8px 14px;margin:.8em 0 1em;background:#fcfcfd}
#scorecard h2{margin:.1em 0 .4em;font-size:1.15em;border:0;padding:0}
#scorecard ul{margin:.2em 0;padding-left:0;list-style:none}#scorecard li{margin:.25em 0;font-size:.92em}
.ev{display:inline-block;min-width:8.5em;text-align:center;border-radius:3px;padding:0 6px;font-weight:600;
font-size:.85em;color:#fff;margin-right:6px}.ev-shown{background:#1f7a3f}.ev-ruled-out{background:#2c5aa0}
.ev-not-enough-races{background:#a15c00}.warn{color:#7a3b00}#scorecard .warn b{color:#7a3b00}
#scorecard details summary{cursor:pointer;color:#7a3b00;font-weight:600;font-size:.92em}
"""


@dataclass
class Item:
    """One verdict of the scorecard."""
    word: str
    question: str
    anchor: str  # the answer's id on the page
    number: str  # what was measured, with its interval
    holds_for: str  # bots and player count
    note: str = ""  # races needed, or how the bots split


@dataclass
class ScoreWarning:
    """A degenerate result: what was seen, what it may mean, how to look."""
    seen: str
    meaning: str
    check: str

    @property
    def text(self) -> str:
        return f"{self.seen} It may mean {self.meaning}. To look: {self.check}"


def _pick(evidence: dict[str, Verdict], word: str) -> tuple[str, Verdict]:
    """The table whose verdict the scorecard quotes for ``word``: the one needing the
    most races when open, the largest effect when shown, the widest interval when ruled out."""
    rows = [(k, v) for k, v in evidence.items() if v.word == word] or list(evidence.items())
    if word == NOT_ENOUGH:
        return max(rows, key=lambda kv: float("inf") if kv[1].needed is None else kv[1].needed)
    if word == SHOWN:
        return max(rows, key=lambda kv: abs(kv[1].estimate))
    return max(rows, key=lambda kv: max(abs(kv[1].low), abs(kv[1].high)))


def items(answers: list[Answer], manifest: dict) -> list[Item]:
    """The scorecard's verdicts: the answers with evidence, in page order, at most ``MAX_ITEMS``."""
    out = []
    players = manifest.get("players", "?")
    for i, a in enumerate(answers):
        if not a.evidence or a.word is None:
            continue
        word = a.word
        label, v = _pick(a.evidence, word)
        labels = list(a.evidence)
        who = label if len(labels) == 1 else f"each of {', '.join(labels)}"
        where = f" {a.where}" if a.where else ""
        others = ", ".join(f"{x.word} with {k}" for k, x in a.evidence.items() if x.word != word)
        note = ""
        if word == NOT_ENOUGH:
            table = "'s table" if a.where else ""  # per controlled table, or per bot of the run
            note = v.needed_text if len(labels) == 1 else f"{label}{table}: {v.needed_text}"
            note += f"; {others}" if others else ""
        elif others:
            same = ", ".join(k for k, x in a.evidence.items() if x.word == word)
            note = f"the bots decide it differently: {word} with {same}, {others}"
        out.append(Item(word, a.question, f"answer-{i + 1}", f"{v.what} {v.number}, threshold {v.bound}",
                        f"{who}{where}; {a.players or players} players", note))
        if len(out) == MAX_ITEMS:
            break
    return out


def verdict_item(v: Verdict, question: str, anchor: str, holds_for: str) -> Item:
    """One verdict as a scorecard line: its word, what it measured with its number and
    threshold, and the races that would settle it when it is open."""
    return Item(v.word, question, anchor, f"{v.what} {v.number}, threshold {v.bound}", holds_for,
                v.needed_text if v.word == NOT_ENOUGH else "")


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
    """One warning when controlled tables leave answers open: how many, and the races that would settle them."""
    if not controlled:
        return []
    open_ = [a for a in answers if a.evidence and a.word == NOT_ENOUGH and a.where  # judged per controlled table
             and any(k in controlled.tables for k in a.evidence)]
    if not open_:
        return []
    needs = [v.needed for a in open_ for v in a.evidence.values() if v.word == NOT_ENOUGH]
    most = max((x for x in needs if x is not None), default=None)
    units = sorted(set(controlled.units.values()))
    u = unit(manifest)
    size = f"{units[0]:,}" if len(units) == 1 else f"{units[0]:,}-{units[-1]:,}"
    need = f" about {most:,} {u} a table would settle {'it' if len(open_) == 1 else 'them'}" if most else ""
    return [ScoreWarning(
        f"The controlled tables ({size} {u} each) are too small to settle {len(open_)} of the answers "
        f"({'; '.join(a.question for a in open_)}).",
        f"nothing about the game yet: the data are too few;{need}",
        f"rerun with more {u} (analyzer simulate {manifest.get('game', 'GAME')} --{u} N --out DIR, then "
        f"analyzer report DIR)")]


def warnings(res: dict, manifest: dict, answers: list[Answer], controlled=None,
             sections=None) -> list[ScoreWarning]:
    """The automatic warnings: never-winning bots and seats, answers left open by small
    controlled tables, and the game's own (``sections.warnings(res, manifest)``)."""
    def seen(table) -> list[ScoreWarning]:
        out = never_wins(table, manifest) + wins_almost_all(table, manifest)
        if sections is not None and hasattr(sections, "warnings"):
            out += sections.warnings(table, manifest)
        return out

    out = seen(res)
    for label, table in (controlled.tables.items() if controlled else []):
        if table is not res:
            seats = [label] * int(manifest.get("players") or 0) if controlled.where == "in every seat" else None
            for w in seen(table):
                out.append(ScoreWarning(f"With {label} {controlled.where}: {w.seen[0].lower()}{w.seen[1:]}",
                                        w.meaning, replay_command(manifest, seats) if seats else w.check))
    out += too_small(answers, manifest, controlled)
    return out


def _slug(word: str) -> str:
    return word.replace(" ", "-")


def render_html(card: list[Item], warns: list[ScoreWarning]) -> str:
    """The scorecard as an HTML block with ``id="scorecard"``."""
    e = html.escape
    parts = ['<section id="scorecard"><h2>Scorecard</h2>']
    if card:
        parts.append("<ul>")
        for it in card:
            note = f" — {e(it.note)}" if it.note else ""
            parts.append(f'<li><span class="ev ev-{_slug(it.word)}">{e(it.word)}</span>'
                         f'<a href="#{e(it.anchor)}">{e(it.question)}</a> {e(it.number)}; '
                         f"<i>{e(it.holds_for)}</i>{note}</li>")
        parts.append("</ul>")
    else:
        parts.append('<p class="small">No answer of this report judges an effect against a practical '
                     "threshold.</p>")
    if warns:
        parts.append(f"<details open><summary>{len(warns)} warning{'s' if len(warns) > 1 else ''}</summary><ul>")
        parts += [f'<li class="warn"><b>{e(w.seen)}</b> It may mean {e(w.meaning)}. To look: '
                  f"<code>{e(w.check)}</code></li>" for w in warns]
        parts.append("</ul></details>")
    parts.append('<p class="small"><b>shown</b>: the whole interval lies beyond the practical threshold; '
                 "<b>ruled out</b>: the whole interval lies inside it; <b>not enough races</b>: neither yet.</p>")
    parts.append("</section>")
    return "".join(parts)


def render_side_by_side(runs: list[tuple[str, list[Item], list[ScoreWarning]]]) -> str:
    """The scorecard of runs shown side by side (``report --by``): per question, each
    run's verdict (``(run name, items, warnings)``, the items' anchors shared), then
    each run's warnings, named by run."""
    e = html.escape
    questions = list(dict.fromkeys(it.question for _, card, _ in runs for it in card))
    parts = ['<section id="scorecard"><h2>Scorecard</h2><ul>']
    for q in questions:
        anchor = next(it.anchor for _, card, _ in runs for it in card if it.question == q)
        cells = []
        for name, card, _ in runs:
            it = next((x for x in card if x.question == q), None)
            if it is not None:
                note = f" — {e(it.note)}" if it.note else ""
                cells.append(f'<br><span class="ev ev-{_slug(it.word)}">{e(it.word)}</span><b>{e(name)}:</b> '
                             f"{e(it.number)}; <i>{e(it.holds_for)}</i>{note}")
        parts.append(f'<li><a href="#{e(anchor)}">{e(q)}</a>{"".join(cells)}</li>')
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
    """The scorecard as plain text lines (for the console)."""
    lines = ["Scorecard"]
    width = max((len(it.word) for it in card), default=0)
    for it in card:
        lines.append(f"  {it.word.upper():<{width}}  {it.question} {it.number}; {it.holds_for}"
                     + (f" ({it.note})" if it.note else ""))
    if not card:
        lines.append("  (no answer judges an effect against a practical threshold)")
    for w in warns:
        lines.append(f"  WARNING  {w.text}")
    return "\n".join(lines)


__all__ = ["Item", "ScoreWarning", "items", "warnings", "render_html", "render_text", "dominant", "replay_command",
           "SHOWN", "RULED_OUT", "NOT_ENOUGH"]
