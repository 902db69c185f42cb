"""The HTML balance report: one self-contained file (inline CSS, figures as
base64 PNG, opens offline) plus a folder beside it with the figures as PNG and
every table as CSV."""
from __future__ import annotations

import base64
import html
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd

from analyzer.engine.output import check_page, files_dir, utf8_text, write_page
from analyzer.version import __version__
from analyzer.engine.ruleset import rules_text
from analyzer.report import answer_charts, glossary, ladder
from analyzer.report import text as T

CSS = """
body{font-family:-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#222;max-width:1120px;
margin:0 auto;padding:24px 28px 60px;line-height:1.45;background:#fff}
h1{font-size:1.7em;margin:0 0 4px}h2{font-size:1.3em;margin-top:2.2em;border-bottom:1px solid #ddd;
padding-bottom:4px}h3{font-size:1.05em;margin:1.4em 0 .3em}
table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:.88em}
th,td{border:1px solid #d6d6d6;padding:4px 8px;text-align:right;vertical-align:top}
th{background:#f3f4f6;text-align:center}td.l,th.l{text-align:left}
table.meta td{text-align:left}table.meta th{text-align:left;background:#f7f7f7;width:11em}
.assumed{display:inline-block;background:#fff3cd;border:1px solid #e0b84a;color:#6b4e00;border-radius:3px;
padding:0 6px;font-size:.85em;font-weight:600}
.note{background:#fff8e1;border-left:4px solid #e0b84a;padding:8px 12px;margin:1em 0}
figure{margin:1.4em 0 2em}figure img{max-width:100%;height:auto;border:1px solid #eee}
figcaption{margin-top:.4em}figcaption b{display:block;font-size:1.02em}
dl.qa dt{font-weight:600;margin-top:1em}dl.qa dd{margin:.25em 0 0 1.2em}
dl.qa dd p.how{color:#555;font-size:.85em;margin:.3em 0 0}nav.toc{font-size:.92em}nav.toc ul{margin:.3em 0}
code{background:#f3f3f3;padding:0 3px;border-radius:2px}.small{color:#666;font-size:.85em}
div.scroll{overflow-x:auto;max-width:100%}div.scroll>table{margin-top:0}
figure img{cursor:zoom-in}figure.zoom .figbox{overflow-x:auto}figure.zoom img{max-width:none;cursor:zoom-out}
@media (max-width:700px){body{padding:12px 10px 40px}figure{margin:1em -10px}
figure img{width:100%;box-sizing:border-box}figure.zoom img{width:auto}
table{font-size:.8em}th,td{padding:3px 5px}}
"""
# a figure opens at its full size when tapped (and scrolls sideways in its box), and closes again
ZOOM = "this.closest('figure').classList.toggle('zoom')"


def _e(x) -> str:
    return html.escape(str(x))


def table(headers: list[str], rows: list[list], left: int = 1) -> str:
    """An HTML table of already formatted cells; the first ``left`` columns left-aligned."""
    head = "".join(f'<th class="l">{_e(h)}</th>' if i < left else f"<th>{_e(h)}</th>"
                   for i, h in enumerate(headers))
    body = "".join("<tr>" + "".join(f'<td class="l">{_e(c)}</td>' if i < left else f"<td>{_e(c)}</td>"
                                    for i, c in enumerate(r)) + "</tr>" for r in rows)
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def answer_table(a: T.Answer) -> str:
    """The values an answer lists, as tables under its text (none: "")."""
    return "".join(table(*t) for t in a.tables)


def figure_html(f: dict, key: str | None = None) -> str:
    """A figure ``{key, title, takeaway, png}`` as an embedded PNG with its caption; on
    a narrow screen it spans the width and a tap shows it at full size."""
    data = base64.b64encode(f["png"]).decode("ascii")
    return (f'<figure id="{_e(key or f["key"])}"><div class="figbox"><img src="data:image/png;base64,{data}" '
            f'alt="{_e(f["title"])}" onclick="{ZOOM}"></div><figcaption><b>{_e(f["title"])}</b>'
            f'{_e(f["takeaway"])}</figcaption></figure>')


def seat_tables(res: dict, win: str, unit: str, extra=None) -> list[str]:
    """The "Seats" and "Heuristic bots against random" tables of the per-seat
    outcome tables every game shares (``stats/outcomes.py``). ``win`` heads the
    win-rate column ("win rate", "game win rate"), ``unit`` names what the
    comparison is paired by; ``extra`` = (header, row -> cell) adds a seat column
    after the bot."""
    out = []
    sa = res["seat_advantage"]
    if len(sa):
        out.append("<h3>Seats</h3>")
        if T.confounded(res):
            out.append('<p class="small">Seats run different bots: seat and bot are confounded.</p>')
        headers = ["seat", "bot"] + ([extra[0]] if extra else []) + [
            f"{win} (95% CI)", "vs average seat (95% CI)"]
        out.append(table(headers,
                         [[r["seat"], r["bot"]] + ([extra[1](r)] if extra else [])
                          + [T.pct_ci(r["win_rate"], r["win_low"], r["win_high"]),
                             T.pp_ci(r["advantage"], r["advantage_low"], r["advantage_high"])]
                          for _, r in sa.iterrows()], left=2))
    ls = res["luck_skill"]
    if len(ls):
        out.append("<h3>Heuristic bots against random</h3>")
        out.append(table(["bot", f"{win} per seat", "random's", f"difference (95% CI, paired by {unit})"],
                         [[r["bot"], T.pct(r["bot_win_rate"]), T.pct(r["random_win_rate"]),
                           T.pp_ci(r["difference"], r["difference_low"], r["difference_high"])]
                          for _, r in ls.iterrows()]))
    return out


def _data_row(d: dict) -> tuple[str, str]:
    """A board, deck or track of the run: name, whether it is the assumed reconstruction, digest."""
    tag = ('<span class="assumed">ASSUMED reconstruction</span>' if d.get("assumed") else "user-supplied")
    text = (f"{_e(d.get('name', '?'))} — {tag}; {_e(d.get('detail', ''))}; sha256 <code>{_e(d.get('sha256', '?'))}</code>"
            + (f"; from {_e(d['source'])}" if d.get("source") and d.get("source") != d.get("name") else ""))
    return _e(str(d.get("part", "data")).capitalize()), text


def assumed_note(data: list[dict]) -> str:
    """A warning box naming the parts of the run that are assumed reconstructions."""
    assumed = list(dict.fromkeys(str(d.get("part", "data")) for d in data if d.get("assumed")))
    if not assumed:
        return ""
    return (f'<div class="note">The {" and ".join(assumed)} used here '
            f'{"are" if len(assumed) > 1 else "is"} an ASSUMED reconstruction, not the published game: '
            "results describe this layout. Rerun with <code>--board FILE</code> for the real one.</div>")


def _setup_block(manifest: dict) -> str:
    data = manifest.get("data", [])
    bots = manifest.get("bots", [])
    bot_text = (manifest.get("bots_text") if isinstance(manifest.get("bots_text"), str)
                else "; ".join(f"seat {b.get('seat')}: {b.get('bot')}" for b in bots) or "?")
    versions = manifest.get("versions", {})
    unit = T.unit(manifest)
    runs = manifest.get("runs")
    rows = [
        ("Game", _e(manifest.get("title", manifest.get("game", "?")))),
        *([("Runs", _e(f"{len(runs)} merged: {', '.join(runs)}"))] if runs else []),
        *([("Duplicates dropped", _e("; ".join(manifest["dropped"]) + " (--drop-duplicates: each "
                                      f"{unit[:-1]} counted once)"))] if manifest.get("dropped") else []),
        *(_data_row(d) for d in data),
        ("Players", _e(manifest.get("players", "?")) + (f" — variant: {_e(manifest['variant'])}"
                                                          if manifest.get("variant") else "")),
        ("Rules", _e(rules_text(manifest.get("rules")))),
        ("Bots", _e(bot_text)),
        (unit.capitalize(), f"{int(manifest.get(unit, 0)):,}"),
        ("Seed", _e(manifest.get("seed", "?"))),
        ("Analyzer version", f"{_e(versions.get('analyzer', '?'))} (run); {_e(__version__)} (report)"),
        ("Date", f"run {_e(manifest.get('created', '?'))}; report "
                 f"{datetime.now(timezone.utc).isoformat(timespec='seconds')}"),
    ]
    body = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    note = assumed_note(data)
    return f'<div class="scroll"><table class="meta">{body}</table></div>{note}'


def _answers(sections, res: dict, manifest: dict, controlled) -> list[T.Answer]:
    """The game's answers as ``Answer``s (a game may still give (question, text) pairs),
    each with a key (its question's; a plain answer numbered by its place)."""
    import inspect

    takes_controlled = len(inspect.signature(sections.answers).parameters) > 2
    items = sections.answers(res, manifest, controlled) if takes_controlled else sections.answers(res, manifest)
    out = []
    for i, a in enumerate(items):
        if not isinstance(a, T.Answer):
            q, text = a
            a = T.Answer(q, text, "not stated", T.table_scope(manifest))
        if not a.key:
            a.key = f"q{i + 1}"
        out.append(a)
    return out


def answer_dt(a: T.Answer) -> str:
    """An answer's heading on the page: its evidence badge, its question and its answer in the
    question's words; id and class by its key."""
    from analyzer.report.scorecard import item

    it = item(a, {})
    badge = f'<span class="ev ev-{it.css}">{_e(it.badge)}</span>' if it is not None else ""
    answer = f'<br><b class="answer">{_e(a.answer)}</b>' if a.answer else ""
    return f'<dt id="{_e(a.anchor)}" class="q q-{_e(a.key)}">{badge}{_e(a.question)}{answer}</dt>'


SCORECARD_TEXT = "scorecard.txt"  # the scorecard as text, in the report's folder (what ``report`` prints)
SCORECARD_CSV = "scorecard.csv"  # every measured question by key, per table: answer, word, estimate, interval


def scorecard_of(res: dict, manifest: dict, sections, controlled, answers=None):
    """The report's scorecard: ``(items, warnings)`` (``report/scorecard.py``)."""
    from analyzer.report import scorecard

    answers = _answers(sections, res, manifest, controlled) if answers is None else answers
    return scorecard.items(answers, manifest), scorecard.warnings(res, manifest, answers, controlled, sections)


def scorecard_text(html_path: Path) -> str:
    """The scorecard a report at ``html_path`` wrote beside it as text ("" if none)."""
    path = files_dir(Path(html_path)) / SCORECARD_TEXT
    return path.read_text(encoding="utf-8").rstrip("\n") if path.is_file() else ""


def render_text(items, warns) -> str:
    from analyzer.report import scorecard

    return scorecard.render_text(items, warns)


def scorecard_frame(answers, manifest):
    from analyzer.report import scorecard

    return scorecard.frame(answers, manifest)


def render_html(res: dict, manifest: dict, sections, figures: list[dict], folder_name: str,
                controlled=None, answers: list[T.Answer] | None = None) -> str:
    """The page: setup, a table of contents, the game's answers (each with its scope,
    its method and a link to its figure), overview, figures, key tables, CSV list.
    ``sections`` is the game's report package (see ``analyzer/games/protocol.py``)."""
    from analyzer.report import scorecard

    title = str(manifest.get("title", manifest.get("game", "")))
    answers = _answers(sections, res, manifest, controlled) if answers is None else answers
    card = scorecard_of(res, manifest, sections, controlled, answers)
    drawn = {f["key"] for f in figures}
    figure_of = [answer_charts.link(a.figure, drawn) for a in answers]  # an answer's chart, if drawn
    toc = ['<nav class="toc"><h2>Contents</h2><ul>', '<li><a href="#answers">Answers for the designer</a><ul>']
    for i, a in enumerate(answers):
        link = (f' — <a href="#{_e(figure_of[i])}">figure</a>' if figure_of[i] else "")
        toc.append(f'<li><a href="#{_e(a.anchor)}">{_e(a.question)}</a>{link}</li>')
    strong = ladder.render_html(answers, controlled, T.unit(manifest), lambda h, r: table(h, r, left=len(h)))
    toc.append('</ul></li><li><a href="#overview">Overview</a></li><li><a href="#figures">Figures</a><ul>')
    toc += [f'<li><a href="#{_e(f["key"])}">{_e(f["title"])}</a></li>' for f in figures]
    toc.append('</ul></li><li><a href="#tables">Tables</a></li></ul></nav>')
    heading = f"{title} balance report" + (" under strong play" if getattr(controlled, "ladder", False) else "")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(heading)}</title><style>{CSS}{scorecard.CSS}{glossary.CSS}</style></head><body>",
        f"<h1>{_e(heading)}</h1>",
        scorecard.render_html(*card),
        strong,  # under strong play the ladder is on the first screen, right under the scorecard
        glossary.html_block(),
        _setup_block(manifest),
        "".join(toc),
        '<h2 id="answers">Answers for the designer</h2><dl class="qa">',
    ]
    for i, a in enumerate(answers):
        link = f' <a href="#{_e(figure_of[i])}">(figure)</a>' if figure_of[i] else ""
        parts.append(f'{answer_dt(a)}<dd>{_e(a.text)}{link}'
                     f'{answer_table(a)}<p class="how">Scope: {_e(a.scope)}.<br>Method: {_e(a.method)}.</p></dd>')
    parts.append("</dl>")
    parts.append('<h2 id="overview">Overview</h2>' + table(["", "value"], [[k, v] for k, v in sections.overview(res)]))
    parts.append('<h2 id="figures">Figures</h2>')
    parts += [figure_html(f) for f in figures]
    parts.append('<h2 id="tables">Tables</h2>' + sections.key_tables(res))
    parts.append(f"<h3>All tables as CSV</h3><p class=\"small\">In <code>{_e(folder_name)}/</code> beside this "
                 "file (with the figures as PNG).</p><ul>")
    for name in res:
        parts.append(f'<li><a href="{_e(folder_name)}/{_e(name)}.csv">{_e(name)}.csv</a> — '
                     f"{_e(sections.TABLE_DOCS.get(name, ''))}</li>")
    parts.append("</ul>")
    parts.append(f'<p class="small">{_e(sections.FOOTNOTE)}</p>')
    parts.append("</body></html>")
    return "\n".join(parts)


def output_paths(out_path, default_name: str) -> tuple[Path, Path]:
    """The HTML file (``default_name`` inside ``out_path`` if that is a directory)
    and the ``<stem>_files/`` folder beside it, checked (engine/output.py) but
    not yet made: ``save_report`` writes both at once."""
    page = check_page(out_path, default_name, "the report")
    return page, files_dir(page)


def save_report(out_path: Path, folder: Path, figures: list[dict], tables: dict[str, pd.DataFrame],
                page: str, texts: dict[str, str] | None = None) -> Path:
    """Figures as PNG (with their source data as CSV, answer charts), tables as CSV and
    ``texts`` (file name -> text) into ``folder``, and the page: whole or not at all
    (engine/output.py)."""
    files: dict[str, object] = {name: text + "\n" for name, text in (texts or {}).items()}
    for f in figures:
        files[f"{f['key']}.png"] = f["png"]
        if f.get("data") is not None:  # the figure's source data (answer charts)
            files[f"{f['key']}.csv"] = f["data"].to_csv(index=False)
    files.update({f"{name}.csv": df.to_csv(index=False) for name, df in tables.items()})
    return write_page(out_path, out_path.name, files, page, "the report")


def write_report(stats_result: dict[str, pd.DataFrame], manifest: dict, out_path, controlled="auto",
                 min_effect: float | None = None, strong: bool = False) -> Path:
    """Write ``out_path`` (an .html file; a directory gets ``report.html`` inside)
    and ``<stem>_files/`` beside it with every figure (PNG) and table (CSV).
    ``controlled``: the controlled tables of the structural answers
    (``analyzer.report.controlled``); "auto" plays them, None leaves them out
    (the answers then say they are about the bots present). ``min_effect``: the
    flags' practical-size threshold (a share; default 1 pp). ``strong``: the
    controlled tables are a strength ladder, random to the game's search bot
    (``report/ladder.py``). Returns the path of the HTML file."""
    from analyzer.games import game_info
    from analyzer.report.controlled import Controlled, controlled_runs
    from analyzer.report.figures import render_all

    sections = game_info(str(manifest.get("game"))).load("report")
    out_path, folder = output_paths(out_path, "report.html")
    if min_effect is not None:
        manifest = {**manifest, "min_effect": float(min_effect)}
    if strong:
        manifest = {**manifest, "strong": True}
    res = stats_result
    if isinstance(controlled, str) and controlled == "auto":
        controlled = controlled_runs(manifest, stats_result)
        if hasattr(sections, "interventions"):
            # a game's causal answers: its races replayed with one decision forced each way;
            # their tables join the result tables and what was played joins the manifest
            extra, played = sections.interventions(manifest)
            res, manifest = {**stats_result, **extra}, {**manifest, "interventions": played}
    elif controlled is None:
        controlled = Controlled({}, {}, "no controlled tables were asked for")
    figures = render_all(sections.FIGURES, res, manifest)
    if controlled and not all(t is stats_result for t in controlled.tables.values()):
        # (a run that is its own controlled table, one bot in every seat of a role, has its figures show it)
        figures = answer_charts.with_answer_charts(getattr(sections, "ANSWER_CHARTS", []), controlled, manifest,
                                                   figures)
    answers = _answers(sections, res, manifest, controlled)
    page = render_html(res, manifest, sections, figures, utf8_text(folder.name), controlled, answers)
    card = scorecard_of(res, manifest, sections, controlled, answers)
    card_text = "\n".join(filter(None, [render_text(*card), ladder.render_text(answers, controlled, T.unit(manifest))]))
    tables = dict(res)
    texts = {SCORECARD_TEXT: card_text,
             SCORECARD_CSV: scorecard_frame(answers, manifest).to_csv(index=False).rstrip("\n")}
    for label, res in controlled.tables.items():
        if res is not stats_result:  # each controlled table's answers' inputs, as CSV too
            for name in getattr(sections, "CONTROLLED_TABLES", (
                    "overview", "lemmings", "pigs", "seat_advantage", "win_patterns", "contracts",
                    "queue_position")):
                if name in res:
                    tables[f"controlled_{_slug(label)}_{name}"] = res[name]
    return save_report(out_path, folder, figures, tables, page, texts)


def _slug(label: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in label).strip("-")


def write_side_by_side(runs: list[tuple[Path, dict, dict]], by: str, differ: list[str], out_path) -> Path:
    """One page for runs that differ in ``by`` (players or board): every answer
    per run side by side, then each run's figures; tables as CSV per run."""
    from analyzer.games import game_info
    from analyzer.report.controlled import Controlled
    from analyzer.report.figures import render_all

    first = runs[0][2]
    sections = game_info(str(first.get("game"))).load("report")
    out_path, folder = output_paths(out_path, "report.html")
    title = str(first.get("title", first.get("game", "")))

    def label(d: Path, m: dict) -> str:
        if by == "players":
            return f"{m.get('players')} players ({d.name})"
        if by == "rules":
            return f"rules {rules_text(m.get('rules'))} ({d.name})"
        return f"{T.data_scope(m)} ({d.name})"

    from analyzer.report import scorecard

    none = Controlled({}, {}, "a side-by-side report plays no controlled tables")
    per_run = [(label(d, m), res, m, _answers(sections, res, m, none)) for d, res, m in runs]
    # the page lists the answers by their question keys, in the order the runs first give them
    keys = list(dict.fromkeys(a.key for _, _, _, answers in per_run for a in answers))
    cards = [(name, scorecard.items(answers, m), scorecard.warnings(res, m, answers, none, sections))
             for name, res, m, answers in per_run]
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{_e(title)} balance report by {_e(by)}</title><style>{CSS}{scorecard.CSS}{glossary.CSS}</style>"
             "</head><body>",
             f"<h1>{_e(title)} balance report, {len(runs)} runs side by side by {_e(by)}</h1>",
             scorecard.render_side_by_side(cards), glossary.html_block(),
             f'<p class="small">The runs differ in {_e(", ".join(differ))}; every answer is given per run, '
             "never blended.</p>"]
    for name, _, m, _ in per_run:
        parts.append(f"<h3>{_e(name)}</h3>" + _setup_block(m))
    parts.append('<h2 id="answers">Answers for the designer</h2><dl class="qa">')
    for key in keys:
        first = next(a for _, _, _, answers in per_run for a in answers if a.key == key)
        parts.append(f'<dt id="{_e(first.anchor)}" class="q q-{_e(key)}">{_e(first.question)}</dt>')
        for name, _, _, answers in per_run:
            a = next((x for x in answers if x.key == key), None)
            if a is not None:
                parts.append(f'<dd class="q q-{_e(key)}"><b>{_e(name)}:</b> {_e(a.text)}{answer_table(a)}'
                             f'<p class="how">Scope: {_e(a.scope)}.<br>'
                             f"Method: {_e(a.method)}.</p></dd>")
    parts.append("</dl>")
    figures_all, tables = [], {}
    for k, (name, res, m, _) in enumerate(per_run):
        figs = render_all(sections.FIGURES, res, m)
        parts.append(f'<h2 id="run-{k + 1}">Figures: {_e(name)}</h2>')
        for f in figs:
            key = f"run{k + 1}_{f['key']}"
            parts.append(figure_html(f, key))
            figures_all.append({**f, "key": key})
        tables.update({f"run{k + 1}_{t}": df for t, df in res.items()})
    parts.append(f'<p class="small">{_e(sections.FOOTNOTE)}</p></body></html>')
    text = "\n".join(f"{name}:\n" + scorecard.render_text(items, warns) for name, items, warns in cards)
    frame = pd.concat([scorecard.frame(answers, m).assign(run=name) for name, _, m, answers in per_run],
                      ignore_index=True)
    return save_report(out_path, folder, figures_all, tables, "\n".join(parts),
                       {SCORECARD_TEXT: text, SCORECARD_CSV: frame.to_csv(index=False).rstrip("\n")})
