"""A replayed race or game as text (the terminal) or as a timeline page (HTML,
self-contained). Knows no game: the game's ``match.replay`` supplies the steps
(``analyzer.games.protocol.Replay``) in its rulebook's words."""
from __future__ import annotations

import html
from pathlib import Path

from analyzer.engine.output import check_target, page_path, write_file

KIND_COLOURS = {  # the timeline colours steps by kind; unknown kinds are grey
    "deal": "#6b7280", "turn": "#374151", "move": "#1d4ed8", "dice": "#1d4ed8", "card": "#1d4ed8",
    "decision": "#7c3aed", "field": "#047857", "bet": "#b45309", "contract": "#be185d",
    "score": "#111827", "end": "#b91c1c",
}


def title_of(r) -> str:
    return f"{r.game}: {r.unit[:-1]} {r.index:,} of seed {r.seed}"


def points_outcome(rows, total: str, detail, after: str, tie_break: str = "") -> str:
    """Who wins a game decided by points, and why: ``rows`` has one row per seat with
    ``seat``, ``bot``, ``won`` and the ``total`` column; ``detail(row)`` says what
    the winner's total is made of; ``after`` names when it is counted; ``tie_break``
    what decides a tie on points (none: tied seats share the win)."""
    won = rows[rows["won"]]
    if not len(won):
        return ""
    names = " and ".join(f"seat {r.seat} ({r.bot})" for r in won.itertuples())
    best = won.iloc[0][total]
    rest = rows[~rows["won"]].sort_values(total, ascending=False)
    runner, tied = "", False
    if len(rest):
        nxt = rest.iloc[0]
        tied = bool(tie_break) and nxt[total] == best
        runner = f"; next: seat {nxt['seat']} ({nxt['bot']}) with {nxt[total]}" + (
            f", tied on points and behind on {tie_break}" if tied else "")
    verb, have = ("share the win", "they have") if len(won) > 1 else ("wins", "it has")
    most = "as many points as any seat" if tied else "the most points"
    return f"{names} {verb} because {have} {most} {after}, {best} ({detail(won.iloc[0])}){runner}."


def render_text(r) -> str:
    lines = [title_of(r)] + list(r.setup) + [""]
    for step in r.steps:
        lines.append(step.text)
    if r.outcome:
        lines += ["", r.outcome]
    lines += ["", f"the rows the run's tables hold for this {r.unit[:-1]}:"]
    for name, df in r.tables.items():
        if df is None or len(df) == 0:
            continue
        lines.append(f"[{name}]")
        lines.append(df.to_string(index=False))
    return "\n".join(lines)


# what a collapsed section's summary counts, in this order (the rest it leaves to the reader)
TALLIED = (("shootout", "shootout", "shootouts"), ("box", "piece to a box", "pieces to a box"),
           ("marker", "marker change", "marker changes"), ("card", "card", "cards"), ("bet", "bet", "bets"),
           ("contract", "contract", "contracts"), ("field", "field action", "field actions"))


def sections_of(r) -> tuple[list, list[tuple]]:
    """The steps before the first section, and the sections: ``(opening step, the
    steps after it)``; a section opens at each step whose kind is in ``r.sections``."""
    head, sections = [], []
    for step in r.steps:
        if step.kind in r.sections:
            sections.append((step, []))
        elif sections:
            sections[-1][1].append(step)
        else:
            head.append(step)
    return head, sections


def _summary(opening, steps) -> str:
    """A section's one line: its opening step, what it holds worth opening it for,
    and how it ended (its "end" step)."""
    counts = {kind: sum(s.kind == kind for s in steps) for kind, _, _ in TALLIED}
    tally = [f"{n} {one if n == 1 else many}" for kind, one, many in TALLIED if (n := counts[kind])]
    ends = [s.text for s in steps if s.kind == "end"]
    return (opening.summary or opening.text) + "".join(f" · {t}" for t in tally) + "".join(f" → {t}" for t in ends)


def render_html(r) -> str:
    """The timeline page: the outcome first, then one collapsible block per section
    (a turn, a race: ``Replay.sections``) so that a game fits a few screens, then the
    item's table rows (each wide table scrolls inside its box)."""
    e = html.escape

    def item(step, tag="li") -> str:
        colour = KIND_COLOURS.get(step.kind, "#6b7280")
        options = ""
        if step.options:
            options = "<ul class=opts>" + "".join(
                f"<li{' class=chosen' if i == step.chosen else ''}>{e(o)}</li>" for i, o in enumerate(step.options)
            ) + "</ul>"
        return (f"<{tag} style='border-color:{colour}'><span class=kind style='color:{colour}'>{e(step.kind)}"
                f"</span> {e(step.text)}{options}</{tag}>")

    head, sections = sections_of(r)
    blocks = [f"<ol class=timeline>{''.join(item(s) for s in head)}</ol>"] if head else []
    for opening, steps in sections:
        colour = KIND_COLOURS.get(opening.kind, "#6b7280")
        blocks.append(f"<details class=turn><summary style='border-color:{colour}'>{e(_summary(opening, steps))}</summary>"
                      f"<ol class=timeline>{''.join(item(s) for s in steps)}</ol></details>")
    tables = "".join(f"<details><summary>{e(name)} ({len(df):,} row{'s' if len(df) != 1 else ''})</summary>"
                     f"<div class=scroll>{df.to_html(index=False, border=0)}</div></details>"
                     for name, df in r.tables.items() if df is not None and len(df))
    setup = "".join(f"<li>{e(line)}</li>" for line in r.setup)
    outcome = f"<p class=outcome id=outcome>{e(r.outcome)}</p>" if r.outcome else ""
    return f"""<!doctype html>
<html lang=en><head><meta charset=utf-8><meta name=viewport content="width=device-width, initial-scale=1">
<title>{e(title_of(r))}</title>
<style>
body {{ font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; padding: 0 12px; max-width: 60em; color: #111; }}
p.outcome {{ font-size: 16px; font-weight: 600; background: #f3f4f6; border-left: 4px solid #b91c1c;
  padding: 0.4em 0.75em; }}
ol.timeline {{ list-style: none; padding: 0; margin: 0.2em 0 0.6em 1em; }}
ol.timeline > li, summary {{ border-left: 4px solid; padding: 0.25em 0.75em; margin: 0.2em 0; }}
summary {{ cursor: pointer; font-weight: 600; }}
div.tables summary {{ border: none; font-weight: 400; }}
.kind {{ font-weight: 600; text-transform: uppercase; font-size: 11px; margin-right: 0.5em; }}
ul.opts {{ margin: 0.2em 0 0.2em 1.5em; padding: 0; font-size: 12px; color: #555; }}
ul.opts li.chosen {{ font-weight: 700; color: #111; }}
div.scroll {{ overflow-x: auto; max-width: 100%; }}
@media (max-width: 600px) {{ body {{ font-size: 13px; margin: 1em auto; padding: 0 8px; }}
  ol.timeline > li, summary {{ padding: 0.15em 0.5em; }} ol.timeline {{ margin-left: 0.4em; }} }}
table {{ border-collapse: collapse; font-size: 12px; }} td, th {{ padding: 2px 6px; border-bottom: 1px solid #ddd; }}
</style></head><body>
<h1>{e(title_of(r))}</h1><ul>{setup}</ul>
{outcome}{"<p>Click a line below to open what happened in it.</p>" if sections else ""}
{''.join(blocks)}
<h2>The rows the run's tables hold for this {e(r.unit[:-1])}</h2><div class=tables>{tables}</div>
</body></html>
"""


def html_path(out: Path) -> Path:
    """The timeline page ``out`` names (a directory gets ``replay.html``), checked
    before the replay is played (engine/output.py)."""
    return check_target(page_path(out, "replay.html"), "the timeline")


def write_html(r, out: Path) -> Path:
    """Write the timeline page to ``out``, whole or not at all."""
    return write_file(html_path(out), render_html(r), "the timeline")
