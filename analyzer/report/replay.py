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


def render_text(r) -> str:
    lines = [title_of(r)] + list(r.setup) + [""]
    for step in r.steps:
        lines.append(step.text)
    lines += ["", f"the rows the run's tables hold for this {r.unit[:-1]}:"]
    for name, df in r.tables.items():
        if df is None or len(df) == 0:
            continue
        lines.append(f"[{name}]")
        lines.append(df.to_string(index=False))
    return "\n".join(lines)


def render_html(r) -> str:
    e = html.escape
    items = []
    for step in r.steps:
        colour = KIND_COLOURS.get(step.kind, "#6b7280")
        options = ""
        if step.options:
            options = "<ul class=opts>" + "".join(
                f"<li{' class=chosen' if i == step.chosen else ''}>{e(o)}</li>" for i, o in enumerate(step.options)
            ) + "</ul>"
        items.append(f"<li style='border-color:{colour}'><span class=kind style='color:{colour}'>{e(step.kind)}"
                     f"</span> {e(step.text)}{options}</li>")
    tables = "".join(f"<h3>{e(name)}</h3>{df.to_html(index=False, border=0)}"
                     for name, df in r.tables.items() if df is not None and len(df))
    setup = "".join(f"<li>{e(line)}</li>" for line in r.setup)
    return f"""<!doctype html>
<html lang=en><head><meta charset=utf-8><title>{e(title_of(r))}</title>
<style>
body {{ font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #111; }}
ol.timeline {{ list-style: none; padding: 0; }}
ol.timeline > li {{ border-left: 4px solid; padding: 0.25em 0.75em; margin: 0.2em 0; }}
.kind {{ font-weight: 600; text-transform: uppercase; font-size: 11px; margin-right: 0.5em; }}
ul.opts {{ margin: 0.2em 0 0.2em 1.5em; padding: 0; font-size: 12px; color: #555; }}
ul.opts li.chosen {{ font-weight: 700; color: #111; }}
table {{ border-collapse: collapse; font-size: 12px; }} td, th {{ padding: 2px 6px; border-bottom: 1px solid #ddd; }}
</style></head><body>
<h1>{e(title_of(r))}</h1><ul>{setup}</ul>
<ol class=timeline>{''.join(items)}</ol>
<h2>The rows the run's tables hold for this {e(r.unit[:-1])}</h2>{tables}
</body></html>
"""


def html_path(out: Path) -> Path:
    """The timeline page ``out`` names (a directory gets ``replay.html``), checked
    before the replay is played (engine/output.py)."""
    return check_target(page_path(out, "replay.html"), "the timeline")


def write_html(r, out: Path) -> Path:
    """Write the timeline page to ``out``, whole or not at all."""
    return write_file(html_path(out), render_html(r), "the timeline")
