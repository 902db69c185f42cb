"""The balance search's report: which rule variants meet the designer's targets
and how sure each claim is (one HTML page, its figures embedded; the figures as
PNG and the variants table as CSV in its ``_files`` folder). Reads a balance
result (``analyzer/balance.py``) as data; knows no game.

The page: the scorecard (each reported variant: its rule differences from the
box, each target's word and interval on fresh games; the re-tuned heuristic;
the search bot's rung), the space and the budget, how far each target can move
(its feasible range) and which keys move it, the Pareto set as a table and a
figure per pair of targets, the rounds of the race, and how to play the
recommended variant (a rules file, a replay, the side-by-side balance report)."""
from __future__ import annotations

import html
import math
from pathlib import Path

import numpy as np

from analyzer.engine.output import check_page, files_dir, write_page
from analyzer.report.figures import _figure, png

WORD_CLASS = {"met": "shown", "missed": "warn", "not enough games": "open", "unplayable": "warn"}


def _e(x) -> str:
    return html.escape(str(x))


def _interval(t, m) -> str:
    """A target's value with its 95% interval in its own units."""
    if not math.isfinite(m.value):
        return "not measured"
    if not (math.isfinite(m.low) and math.isfinite(m.high)):
        return t.show(m.value)
    return f"{t.show(m.value)} ({t.show(m.low)} to {t.show(m.high)})"


def band_text(t) -> str:
    return t.band.text(lambda x: t.show(x) if math.isfinite(x) else str(x))


def _measure(t, parts):
    from analyzer.stats.racing import combine

    return combine(t.band, parts[t.key])


def scorecard_lines(result) -> list[tuple[str, str]]:
    """The scorecard as (word class, line), best variant first; also printed by the CLI."""
    plan = result.plan
    lines = []
    if not result.reported:
        lines.append(("warn", "No variant could be measured: " + "; ".join(result.notes or ["the budget is too small"])))
    for v in result.reported:
        parts = v.remeasure if v.remeasure is not None else v.standing.parts
        words = v.words(plan)
        met = sum(w == "met" for w in words.values())
        head = "RECOMMENDED " if v is result.reported[0] else ""
        fresh = (f"re-measured on {v.remeasure_games:,} fresh games" if v.remeasure is not None
                 else "measured in the search only")
        text = "; ".join(f"{t.key} {words[t.key].upper()} {_interval(t, _measure(t, parts)[0])} "
                         f"(target {band_text(t)})" for t in plan.targets)
        cls = "shown" if met == len(plan.targets) else "warn" if "missed" in words.values() else "open"
        lines.append((cls, f"{head}variant {v.number}: rules {v.rules.text()}: {met} of {len(plan.targets)} targets "
                           f"met; {text}; {fresh}"))
    if result.retuned:
        r = result.retuned
        if r.get("measures"):
            best = result.reported[0]
            words = {t.key: _measure(t, r["measures"])[1] for t in plan.targets}
            text = "; ".join(f"{t.key} {words[t.key].upper()} {_interval(t, _measure(t, r['measures'])[0])}"
                             for t in plan.targets)
            lines.append(("shown" if all(w == "met" for w in words.values()) else "open",
                          f"with the heuristic re-tuned on variant {best.number} ({r['tuned']}): {text} "
                          f"({r['games']:,} fresh games)"))
        else:
            lines.append(("open", f"re-tune on the recommended variant: {r['decision']}"))
    if result.ladder:
        lad = result.ladder
        skill = next((t for t in plan.targets if t.key == "skill_gradient"), None)
        m = lad["measure"]
        word = skill.band.word(m.low, m.high) if skill is not None else ""
        shown = (f"{100 * m.value:+.1f} pp ({100 * m.low:+.1f} to {100 * m.high:+.1f})" if math.isfinite(m.low)
                 else "not measured")
        lines.append(("shown" if word == "met" else "open",
                      f"the search bot's rung on variant {result.reported[0].number}: {lad['search']} against "
                      f"{lad['heuristic']} {shown}, {word.upper() or 'measured'} (target {band_text(skill) if skill else '-'}"
                      f"; {lad['games']:,} games per arm, {lad['players']} players"
                      + (f", the {lad['role']} seats" if lad.get("role") else "") + ")"))
    return lines


SKILL_THRESHOLD = 0.01  # a rung that wins 1 pp more than the one below is skill a player would notice


def skill_depth(result) -> list[tuple[str, str, str, str]]:
    """"Does skill pay, and how deep?" on the recommended variant: each rung of the
    ladder measured against the one below (paired, seats of the role rotated):
    (rung, against, the difference with its interval, its word by the one verdict
    rule against the skill target's band, or 1 pp without one). A rung not
    measured says why."""
    from analyzer.stats.evidence import SHOWN, RULED_OUT, decide

    plan = result.plan
    if not result.reported:
        return []
    best = result.reported[0]
    skill = next((t for t in plan.targets if t.key == "skill_gradient"), None)
    threshold = skill.band.lo if skill is not None and math.isfinite(skill.band.lo) else SKILL_THRESHOLD
    words = {SHOWN: "pays (shown)", RULED_OUT: "no more than chance (ruled out)"}

    def row(rung, below, m):
        if m is None or not math.isfinite(m.low):
            return (rung, below, "not measured", "")
        text = f"{100 * m.value:+.1f} pp ({100 * m.low:+.1f} to {100 * m.high:+.1f}; {m.n:,} games an arm)"
        return (rung, below, text, words.get(decide(m.low, m.high, threshold), "not enough games"))

    hero, search = result.rungs
    rows = []
    if skill is not None:
        parts = best.remeasure if best.remeasure is not None else best.standing.parts
        rows.append(row(hero, "random", _measure(skill, parts)[0]))
    else:
        rows.append((hero, "random", "not measured (no skill_gradient target)", ""))
    lad = result.ladder
    rows.append(row(search, hero, lad["measure"] if lad else None) if lad else
                (search, hero, "not measured (the budget left was too small)", ""))
    return rows


def scorecard_text(result) -> str:
    return "\n".join(["Balance scorecard"] + [f"  {line}" for _, line in scorecard_lines(result)])


def _pareto_figures(result) -> list[tuple[str, bytes]]:
    """A scatter per pair of targets: every variant measured (grey), the Pareto set
    (dark), the recommended one (ringed), the bands shaded."""
    from analyzer.stats.racing import combine

    plan = result.plan
    out = []
    targets = plan.targets
    for i in range(len(targets)):
        for j in range(i + 1, len(targets)):
            a, b = targets[i], targets[j]
            fig, ax = _figure(5.2, 3.8)
            pts = []
            for v in result.variants:
                if v.standing.unplayable or not v.standing.parts.get(a.key) or not v.standing.parts.get(b.key):
                    continue
                parts = v.remeasure if v.remeasure is not None else v.standing.parts
                x, y = combine(a.band, parts[a.key])[0].value, combine(b.band, parts[b.key])[0].value
                if math.isfinite(x) and math.isfinite(y):
                    pts.append((x * a.scale.factor, y * b.scale.factor, v))
            if not pts:
                continue
            xs = np.array([p[0] for p in pts])
            ys = np.array([p[1] for p in pts])
            front = np.array([p[2].pareto for p in pts])
            ax.scatter(xs[~front], ys[~front], s=10, color="#b0b0b0", label="measured")
            ax.scatter(xs[front], ys[front], s=22, color="#1f4e79", label="reported (Pareto set)")
            best = next((p for p in pts if result.reported and p[2] is result.reported[0]), None)
            if best is not None:
                ax.scatter([best[0]], [best[1]], s=120, facecolors="none", edgecolors="#c0392b", linewidths=2,
                           label="recommended")
            for band, axis in ((a.band, "x"), (b.band, "y")):
                f = (a if axis == "x" else b).scale.factor
                lo, hi = band.lo * f, band.hi * f
                lo = lo if math.isfinite(lo) else None
                hi = hi if math.isfinite(hi) else None
                span = ax.axvspan if axis == "x" else ax.axhspan
                limits = ax.get_xlim() if axis == "x" else ax.get_ylim()
                span(lo if lo is not None else limits[0], hi if hi is not None else limits[1], color="#2e8b57",
                     alpha=0.08)
            ax.set_xlabel(f"{a.key} ({a.scale.suffix.strip() or 'value'})")
            ax.set_ylabel(f"{b.key} ({b.scale.suffix.strip() or 'value'})")
            ax.set_title(f"{a.key} and {b.key}: the targets' bands shaded")
            ax.legend(fontsize=7)
            out.append((f"pareto-{a.key}-{b.key}", png(fig)))
    return out


def write_balance_report(result, out: Path, variants) -> Path:
    """The report of a balance search at ``out`` (``variants``: the variants table as
    a DataFrame); returns the HTML file's path."""
    from analyzer.report.html import CSS, figure_html, table

    plan = result.plan
    folder_name = files_dir(check_page(out, "balance.html", "the balance report")).name
    parts = [f"<h1>{_e(plan.title)}: which rules balance {_e(plan.game)}?</h1>"]
    parts.append('<h2 id="scorecard">Scorecard</h2><ul class="card">' + "".join(
        f'<li class="{cls}">{_e(line)}</li>' for cls, line in scorecard_lines(result)) + "</ul>")
    depth = skill_depth(result)
    if depth:
        parts.append('<h2 id="skill-depth">Does skill pay, and how deep?</h2>'
                     f"<p>On variant {result.reported[0].number} (the recommended one), each rung of the game's "
                     "ladder against the one below: paired tables, the seats of the role rotated, the same games "
                     "for both arms; the word by the one verdict rule against the skill target's band (1 pp "
                     "without one).</p>" + table(["rung", "against", "win rate difference (95% CI)", "answer"],
                                                 [list(r) for r in depth]))
    parts.append(
        f"<p>Targets: " + "; ".join(f"<b>{_e(t.key)}</b> {_e(band_text(t))}" for t in plan.targets)
        + f". Measured on {_e(plan.bots or 'the default table')} at {_e(', '.join(map(str, plan.players)))} players"
        + ("; skill on the game's ladder (its best heuristic against random, paired)"
           if any(t.design == 'skill' for t in plan.targets) else "")
        + f". Start: rules {_e(plan.start.text())}.</p>")
    parts.append(f"<p>The space: {plan.size:,} variants ("
                 + "; ".join(f"{_e(k)}: {len(v)} values" for k, v in zip(plan.keys, plan.values))
                 + f"); {len(result.variants):,} measured; {result.games:,} games played of a budget of "
                   f"{plan.budget:,}, seed {plan.seed}.</p>")
    # how far each target can move, and which keys move it
    rows = []
    for t in plan.targets:
        if t.key not in result.feasible:
            continue
        low, high = result.feasible[t.key]
        lo, hi = (_measure(t, v.standing.parts)[0] for v in (low, high))
        rows.append([t.key, band_text(t), f"{_interval(t, lo)}: {low.rules.text()}",
                     f"{_interval(t, hi)}: {high.rules.text()}"])
    parts.append('<h2 id="feasible">How far each target can move</h2>'
                 "<p>Over every variant measured (the first round measures the whole space, or a sample of it, "
                 "before any is dropped): the lowest and the highest value found.</p>"
                 + table(["target", "band", "lowest", "highest"], rows, left=4))
    rows = []
    for key in plan.keys:
        cells = [key]
        for t in plan.targets:
            largest, shown = result.effects.get(key, {}).get(t.key, (0.0, False))
            scaled = t.scale.value(largest).lstrip("+") if t.scale is not None else f"{largest:g}"
            cells.append(f"moves it, up to {scaled}" if shown else
                         ("no effect: the same games" if largest == 0 else f"no effect shown (up to {scaled})"))
        rows.append(cells)
    parts.append('<h2 id="keys">Which keys move which targets</h2>'
                 "<p>Between variants that differ in one key alone: the largest change of each target, and whether "
                 "any such change lies beyond the 95% intervals of both.</p>"
                 + table(["key"] + [t.key for t in plan.targets], rows, left=len(plan.targets) + 1))
    # the Pareto set
    rows = []
    for v in result.reported:
        pv = v.remeasure if v.remeasure is not None else v.standing.parts
        words = v.words(plan)
        rows.append([v.number, v.rules.text()] + [f"{words[t.key]}: {_interval(t, _measure(t, pv)[0])}"
                                                   for t in plan.targets]
                    + [f"{v.standing.games + v.remeasure_games:,}"])
    parts.append('<h2 id="pareto">The reported variants (no other beats them on every target)</h2>'
                 + table(["variant", "rules"] + [t.key for t in plan.targets] + ["games"], rows,
                         left=len(plan.targets) + 3))
    files = {}
    for key, data in _pareto_figures(result):
        files[f"{key}.png"] = data
        parts.append(figure_html({"key": key, "title": key.replace("-", " "), "takeaway": "", "png": data}))
    parts.append('<h2 id="race">The race</h2>' + table(
        ["round", "games each", "measured", "dropped", "left", "games so far"],
        [[r["round"], f"{r['games_each']:,}", r["measured"], r["dropped"], r["left"], f"{r['spent']:,}"]
         for r in result.rounds], left=0))
    if result.reported:
        best = result.reported[0]
        players = plan.players[0]
        bots = f" --bots {plan.bots}" if plan.bots else ""
        parts.append(
            '<h2 id="play">Playing the recommended variant</h2>'
            f"<p>Its rules file: <code>{_e(plan.out / f'variant-{best.number}.toml')}</code>. A game of it, move by "
            f"move: <code>analyzer replay {_e(plan.game)} --players {players}{_e(bots)} --rules "
            f"{_e(plan.out / f'variant-{best.number}.toml')} --game 0</code>. Its whole balance report beside the "
            f"box's: <code>analyzer simulate {_e(plan.game)} --players {players}{_e(bots)} --rules "
            f"{_e(plan.out / f'variant-{best.number}.toml')} --out runs/variant</code>, the same without "
            f"<code>--rules</code> to <code>runs/box</code>, then <code>analyzer report runs/box runs/variant --by "
            f"rules</code>.</p>")
    if result.notes:
        parts.append("<h2>Notes</h2><ul>" + "".join(f"<li>{_e(n)}</li>" for n in result.notes) + "</ul>")
    parts.append(
        '<h2 id="method">Method</h2><p class="small">Every candidate plays the same games (the seed\'s items in '
        "order: common random numbers wherever a variant keeps the deal). The first round gives the whole space "
        "(or a sample drawn from the seed) the same games; each round drops a variant another beats on every target "
        "for sure (its worst case against the other's best case, 95% intervals) and, above the number kept, the "
        "half with the least hope, never one whose intervals still reach every band; the rest share the next "
        "round's games. The reported variants are measured again on games no candidate played (later items of the "
        "seed): a target is <i>met</i> when that interval lies inside its band, <i>missed</i> when outside, "
        "otherwise <i>not enough games</i> (the analyzer's one verdict rule). A target must hold at every player "
        "count: the count furthest from the band stands for it.</p>")
    files["variants.csv"] = variants.to_csv(index=False)
    parts.append(f'<p>Every variant measured: <a href="{_e(folder_name)}/variants.csv">variants.csv</a> '
                 f"(also {_e(plan.out / 'variants.parquet')}).</p>")
    page = ("<!doctype html><html lang=en><head><meta charset=utf-8>"
            '<meta name="viewport" content="width=device-width, initial-scale=1"><title>'
            + _e(plan.title) + f"</title><style>{CSS}</style></head><body>\n" + "\n".join(parts)
            + "\n</body></html>\n")
    return write_page(out, "balance.html", files, page, "the balance report")
