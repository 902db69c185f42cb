"""Plain-language sentences computed from the report tables, shared by every
game's report: number formats, and the takeaways and answers about the tables
every game's statistics have (seats, bots, scores). Nothing here is canned:
every number and every yes/no comes from the data. A game's own sentences live
in its report package (``analyzer/games/<game>/report/``)."""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analyzer.stats import questions as Q
from analyzer.stats.evidence import DEPENDS, EXACT, NOT_ENOUGH, Across, Verdict, across, word_text
from analyzer.stats.flags import Flags
from analyzer.stats.questions import Direction, Estimate, Question



def label_width(labels, least: int) -> int:
    """The width of a text column of labels (bot labels in a summary's seat
    table): ``least`` (the header's), or wider for a long label and a space
    after it; a label is never cut (``gain=1e12`` reads whole)."""
    return max([least] + [len(label) + 1 for label in labels])


def is_num(x) -> bool:
    try:
        return x is not None and not math.isnan(float(x))
    except (TypeError, ValueError):
        return False


def pct(x, digits: int = 1) -> str:
    return f"{100 * float(x):.{digits}f}%" if is_num(x) else "n/a"


def pp(x, digits: int = 1) -> str:
    """Percentage points with sign."""
    return f"{100 * float(x):+.{digits}f} pp" if is_num(x) else "n/a"


def num(x, digits: int = 2, sign: bool = False) -> str:
    if not is_num(x):
        return "n/a"
    return f"{float(x):+.{digits}f}" if sign else f"{float(x):.{digits}f}"


def _bounds(low, high, show: Callable[[float, int], str], digits: int, sep: str) -> str:
    """An interval's bounds as ``show(x, digits)`` gives them: ``exact`` when it has
    no width, and one or two more digits when its bounds would print alike
    (``26.8–26.8`` reads as no uncertainty where there is some)."""
    if float(low) == float(high):
        return EXACT
    for d in (digits, digits + 1, digits + 2):
        lo, hi = show(low, d), show(high, d)
        if lo != hi:
            break
    return f"{lo}{sep}{hi}"


def pct_ci(value, low, high, digits: int = 1) -> str:
    """``26.8% (25.1–28.6%)``; ``100.0% (exact)`` for an interval without width."""
    if not is_num(low):
        return pct(value, digits)
    return f"{pct(value, digits)} ({_bounds(low, high, pct, digits, '–')})"


def pp_ci(value, low, high) -> str:
    """``+1.2 pp (95% CI +0.4 to +2.0)``; ``+0.0 pp (exact)`` for an interval without width."""
    if not is_num(low):
        return pp(value)
    bounds = _bounds(low, high, lambda x, d: f"{100 * float(x):+.{d}f}", 1, " to ")
    return f"{pp(value)} ({bounds if bounds == EXACT else '95% CI ' + bounds})"


def num_ci(value, low, high, digits: int = 2, sign: bool = False) -> str:
    """``3.10 (2.95 to 3.25)``; ``3.00 (exact)`` for an interval without width."""
    if not is_num(low):
        return num(value, digits, sign)
    return f"{num(value, digits, sign)} ({_bounds(low, high, lambda x, d: num(x, d, sign), digits, ' to ')})"


def overview_value(res: dict, metric: str, column: str = "value"):
    ov = res["overview"]
    row = ov[ov["metric"] == metric]
    return float(row[column].iloc[0]) if len(row) else float("nan")


def stage_label(lo: float, hi: float) -> str:
    return f"{100 * lo:.0f}–{100 * hi:.0f}%"


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def unit(manifest: dict) -> str:
    """What one simulated item is in this run: races or games."""
    return str(manifest.get("unit", "races"))


def confounded(res: dict) -> bool:
    seats = res["seats"]
    return bool(len(seats) and seats["confounded"].any())


# ---------------------------------------------------------------------- takeaways


def win_rates(res: dict) -> str:
    seats = res["seats"]
    if not len(seats):
        return "No player results in this run."
    best = seats.loc[seats["win_rate"].idxmax()]
    worst = seats.loc[seats["win_rate"].idxmin()]
    players = int(overview_value(res, "players"))
    fair = f"; an equal share would be {pct(1 / players)}" if players else ""
    if not confounded(res):
        return (f"All seats run {best['bot']}: seat {best['seat']} wins most, "
                f"{pct_ci(best['win_rate'], best['win_low'], best['win_high'])}, seat {worst['seat']} least, "
                f"{pct_ci(worst['win_rate'], worst['win_low'], worst['win_high'])}{fair}.")
    return (f"{best['bot']} (seat {best['seat']}) wins most often, "
            f"{pct_ci(best['win_rate'], best['win_low'], best['win_high'])}; {worst['bot']} (seat {worst['seat']}) "
            f"least, {pct_ci(worst['win_rate'], worst['win_low'], worst['win_high'])}{fair}.")


def seat_advantage(res: dict) -> str:
    sa = res["seat_advantage"]
    if not len(sa):
        return "No results to compare seats."
    best = sa.loc[sa["advantage"].idxmax()]
    worst = sa.loc[sa["advantage"].idxmin()]
    if confounded(res):
        return (f"Seat {best['seat']} ({best['bot']}) wins {pp(best['advantage'])} against the average seat, "
                f"seat {worst['seat']} ({worst['bot']}) {pp(worst['advantage'])}; each seat runs its own bot "
                "here, so this mixes bot strength with seat order: run one bot in every seat to measure "
                "the seat advantage.")
    return (f"Seat {best['seat']} does best, {pp_ci(best['advantage'], best['advantage_low'], best['advantage_high'])} "
            f"against the average seat; seat {worst['seat']} worst, "
            f"{pp_ci(worst['advantage'], worst['advantage_low'], worst['advantage_high'])}.")


def luck_skill(res: dict) -> str:
    sd = overview_value(res, "score_sd")
    share = overview_value(res, "skill_share_of_score_variance")
    ls = res["luck_skill"]
    spread = f"Scores spread widely (sd {num(sd, 1)} points)"
    if is_num(share):
        spread += f"; which bot played explains {pct(share, 0)} of the score variance"
    if len(ls):
        row = ls.iloc[-1]
        who = "heuristic bots" if row["bot"] == "all heuristic bots" else row["bot"]
        if float(row["random_win_rate"]) == 0.0:  # the gap is then arithmetic, not a measure of skill
            return (f"{spread}. The random bot never wins here: every win goes to the {who}, so how "
                    f"much skill matters beyond that cannot be measured at this table.")
        return (f"{spread}. The {who} win {pp_ci(row['difference'], row['difference_low'], row['difference_high'])} "
                f"more often per seat than the random bot.")
    return spread + ". No heuristic-versus-random comparison (both kinds of bot must play)."



def race_length_spread(res: dict) -> dict | None:
    """Median, 5% and 95% points, shortest and longest of the ``race_length``
    histogram; None without races."""
    rl = res["race_length"]
    if not len(rl) or rl["races"].sum() == 0:
        return None
    v = rl["turns"].to_numpy()
    cum = rl["cumulative_share"].to_numpy()
    return {"median": v[np.searchsorted(cum, 0.5)], "p5": v[np.searchsorted(cum, 0.05)],
            "p95": v[min(np.searchsorted(cum, 0.95), len(v) - 1)], "shortest": v[0], "longest": v[-1]}


# ---------------------------------------------------------------------- designer answers


def answer_first_seat(res: dict, manifest: dict) -> str:
    """Is seat 1 favoured? From the seat-advantage table."""
    sa = res["seat_advantage"]
    if not len(sa):
        return "No results to compare seats."
    s1 = sa[sa["seat"] == 1].iloc[0]
    players = len(sa)
    if confounded(res):
        bots = res["seats"].groupby("seat")["bot"].first()
        return (f"Cannot tell from this run: each seat runs its own bot ({', '.join(f'seat {s}: {b}' for s, b in bots.items())}), "
                f"so seat 1's {pct_ci(s1['win_rate'], s1['win_low'], s1['win_high'])} win rate mixes the bot's "
                f"strength with moving first. Rerun with one bot in every seat (e.g. "
                f"'analyzer simulate {manifest.get('game', 'GAME')} --bots random --players {players}') to measure it.")
    ci = pp_ci(s1["advantage"], s1["advantage_low"], s1["advantage_high"])
    if s1["advantage_low"] > 0:
        verdict = "Yes"
    elif s1["advantage_high"] < 0:
        verdict = "No, it is at a disadvantage"
    else:
        verdict = "No detectable advantage"
    return (f"{verdict}: with {s1['bot']} in every seat, seat 1 wins "
            f"{pct_ci(s1['win_rate'], s1['win_low'], s1['win_high'])} of {int(s1[unit(manifest)]):,} {unit(manifest)}, "
            f"{ci} against the average seat.")


def answer_skill(res: dict) -> str:
    """How much does skill matter? Score spread and heuristic bots against random."""
    ls = res["luck_skill"]
    text = luck_skill(res)
    bots = res["bots"]
    rnd = bots[bots["random"]]
    if len(rnd):
        r = rnd.iloc[0]
        players = int(overview_value(res, "players"))
        text += (f" The random bot still wins {pct_ci(r['win_rate'], r['win_low'], r['win_high'])} "
                 f"(an equal share is {pct(1 / players) if players else 'n/a'}).")
    if len(ls) > 1:
        rows = ls[ls["bot"] != "all heuristic bots"]
        best = rows.loc[rows["difference"].idxmax()]
        text += (f" The strongest, {best['bot']}, wins "
                 f"{pp_ci(best['difference'], best['difference_low'], best['difference_high'])} more than random.")
    return text


# ---------------------------------------------------------------------- answers


@dataclass
class Answer:
    """A designer's question with its answer, the scope the answer holds for
    (bots, board, player count) and the method that measured it; ``figure`` is
    the key of the figure that shows it (the page links to it), ``key`` the
    question's stable key (``stats/questions.py``): the page's anchor, its CSS
    class, the scorecard's line, the CSV rows and side-by-side matching all go by
    it. ``evidence``: where the answer judges an effect against a practical
    threshold, its verdict per table (label -> ``Verdict``); ``direction`` what
    the verdicts mean in the question's words (``answer``); ``headline`` an
    answer in words where it is not the evidence's own (an intervention's
    advice: the cards to throw away), ``quoted`` the verdict the scorecard then
    quotes; ``players`` the player count; ``unit`` what the game counts."""
    question: str
    text: str
    method: str
    scope: str
    figure: str | None = None
    evidence: dict[str, Verdict] | None = None
    players: object = None
    where: str = ""  # where each controlled table's bot sits ("in every seat"), when the evidence is per table
    table: tuple[list[str], list[list]] | None = None  # (headers, rows) the page shows under the text: many values
    extra_tables: list = field(default_factory=list)  # more (headers, rows) tables, shown after ``table``
    # a structural answer's measure per controlled table: label -> (estimate, sentence, verdict or None)
    per_table: dict[str, tuple[Estimate | None, str, Verdict | None]] | None = None
    key: str = ""
    direction: Direction | None = None
    headline: str = ""
    quoted: Verdict | None = None
    unit: str = "races"

    @property
    def tables(self) -> list[tuple[list[str], list[list]]]:
        """Every table the page shows under the answer's text, in order."""
        return ([self.table] if self.table else []) + list(self.extra_tables)

    @property
    def anchor(self) -> str:
        return f"answer-{self.key}"

    @property
    def across(self) -> Across | None:
        """Its verdicts over its tables (``evidence.across``): alike in word and direction, or not."""
        if not self.evidence:
            return None
        return across(self.evidence, signed=not (self.direction and self.direction.symmetric))

    @property
    def word(self) -> str | None:
        """The answer's evidence over its tables: the common word of the tables that decide
        it, "depends on the bots" when they decide it differently (in word or direction),
        "not enough" when none does."""
        ac = self.across
        return ac.word if ac is not None else None

    @property
    def answer(self) -> str:
        """The answer in the question's own words, with its direction and numbers
        ("SEAT 1 FAVOURED: +6.9 to +8.0 pp against the average seat", "DEPENDS ON THE
        BOTS"); for a measure nobody judges, its value over the tables ("LENGTH: 30.1
        to 35.2 moves"); "" without either."""
        if self.headline:
            return self.headline
        direction = self.direction or GENERIC
        ac = self.across
        if ac is not None:
            return direction.over(ac)
        rows = [(label, e) for label, (e, _, _) in (self.per_table or {}).items() if e is not None]
        return f"{direction.subject}: {estimate_range(rows)}" if rows and self.direction else ""

    def evidence_text(self, deals: bool = False, short: bool = False) -> str:
        """How each table decides it, in words: "shown with each of the 4 bots in every
        seat"; "the bots decide it differently: ..."; the open tables named, each with the
        units that would settle it or why none can be promised (``deals``: the tables
        played the same deals, and the text says so; ``short``: in a few words, for the
        scorecard)."""
        ac = self.across
        if ac is None:
            return ""
        where = (f" {self.where}" if self.where else "") + (", on the same deals" if deals else "")
        u = self.unit
        labels = list(ac.verdicts)
        if len(labels) == 1:
            return word_text(ac.word, u)
        parts = []
        if ac.word == DEPENDS:
            direction = self.direction or GENERIC
            parts.append(f"the bots decide it differently (each{where}): " + "; ".join(
                f"with {', '.join(group)} {group_answer(direction, ac, group)} ({word_text(w, u)})"
                for (w, _), group in ac.groups.items()))
        elif ac.holds:
            parts.append(f"{ac.word} with each of the {len(labels)} bots{where}")
        elif ac.partial:
            group = next(iter(ac.groups.values()))
            parts.append(f"{ac.word} with {', '.join(group)}{where}")
        if ac.open:
            head = (f"not enough {u} with any of the {len(labels)} bots{where}" if ac.word == NOT_ENOUGH
                    else f"not settled with {', '.join(ac.open)}")
            parts.append(f"{head} ({open_text(ac.open, u, short)})")
        return "; ".join(parts)


def open_text(opened: dict[str, Verdict], u: str, short: bool = False) -> str:
    """What would settle each open table: "tempo: about 83,000 games would settle it; switcher,
    random: the effect may sit on the threshold, more games may not settle it soon" (``short``:
    "tempo: about 83,000 games; switcher, random: may sit on the threshold")."""
    groups: dict[str, list[str]] = {}
    for label, v in opened.items():
        if not v.finite:
            said = "no interval yet"
        elif v.needed is None:
            said = "may sit on the threshold" if short else (
                f"the effect may sit on the threshold, more {u} may not settle it soon")
        else:
            said = v.needed_cell if short else f"{v.needed_cell} would settle it"
        groups.setdefault(said, []).append(label)
    return "; ".join(f"{', '.join(labels)}: {said}" for said, labels in groups.items())


def group_answer(direction: Direction, ac: Across, group: list[str]) -> str:
    """The answer of a group of tables that decide alike: its range over them."""
    return direction.over(across({label: ac.verdicts[label] for label in group}, ac.signed))


GENERIC = Direction("THE EFFECT", "POSITIVE", "NEGATIVE", "NONE within {bound}", "a positive effect")


def estimate_range(rows: list[tuple[str, Estimate]]) -> str:
    """A measure nobody judges over several tables: "33.0 moves", "30.1 to 35.2 moves
    (favourite 30.1, random 35.2)"; never "the same answer" for different values."""
    if not rows:
        return ""
    scale = rows[0][1].scale
    values = [e.value for _, e in rows]
    lo, hi = min(values), max(values)
    if len(rows) == 1 or scale.text(lo) == scale.text(hi):
        return scale.value(values[0]) if len(rows) == 1 else f"{scale.value(lo)} with each"
    low = next(label for label, e in rows if e.value == lo)
    high = next(label for label, e in rows if e.value == hi)
    return f"{scale.text(lo)} to {scale.value(hi)} ({low} {scale.text(lo)}, {high} {scale.text(hi)})"


def min_effect(manifest: dict) -> float:
    """The practical-size threshold of the flags (a share; ``--min-effect`` in pp)."""
    return Q.min_effect(manifest)


def data_scope(manifest: dict) -> str:
    """The board/deck/track and player count, as the scope line names them."""
    parts = [f"{d.get('part', 'data')} {d.get('name', '?')}" + (" (assumed reconstruction)" if d.get("assumed") else "")
             for d in manifest.get("data", [])]
    return ", ".join(parts + [f"{manifest.get('players', '?')} players"])


def bots_scope(manifest: dict) -> str:
    bots = [str(b.get("bot")) for b in manifest.get("bots") or []]
    if isinstance(manifest.get("bots_text"), str):
        return f"bots {manifest['bots_text']}"
    if bots and len(set(bots)) == 1:
        return f"{bots[0]} in every seat"
    return "bots " + ", ".join(f"{b} (seat {i + 1})" for i, b in enumerate(bots)) if bots else "bots ?"


def table_scope(manifest: dict) -> str:
    return f"{bots_scope(manifest)}; {data_scope(manifest)}"


def controlled_scope(manifest: dict, controlled) -> str:
    labels = list(controlled.tables)
    units = {controlled.units[b] for b in labels}
    n = f"{units.pop():,} {unit(manifest)} each" if len(units) == 1 else "; ".join(
        f"{b}: {controlled.units[b]:,}" for b in labels)
    who = (f"{labels[0]} {controlled.where}" if len(labels) == 1
           else f"each of {', '.join(labels)} {controlled.where}")
    return (f"controlled table{'s' if len(labels) > 1 else ''}: {who} ({n}, the same seed: the same deals "
            f"and dice); {data_scope(manifest)}")


def single_bot(manifest: dict) -> bool:
    bots = [str(b.get("bot")) for b in manifest.get("bots") or []]
    return bool(bots) and len(set(bots)) == 1 and not isinstance(manifest.get("bots_text"), str)


def per_bot_table(rows: list[tuple[str, int, str, Verdict | None, Estimate | None]], where: str, u: str,
                  direction: Direction | None) -> tuple[list[str], list[list]]:
    """The table of a structural answer: one row per controlled table (``(label,
    units, finding, verdict, estimate)``), its bot and, where the answer judges an
    effect, its answer in the question's words, its evidence word, what it
    measured, the estimate with its interval (named: 95% or simultaneous 95%), the
    threshold, the units it rests on and, when open, the units that would settle
    it (or why none can be promised); a measure nobody judges gives its value with
    its interval; then the finding."""
    judged = any(v is not None for _, _, _, v, _ in rows)
    valued = not judged and any(e is not None for *_, e in rows)
    headers = [f"bot ({where})" if where else "bot"]
    if judged:
        headers += ["answer", "evidence", "effect", "estimate (interval)", "threshold", "measured on",
                    "needed to settle it"]
    elif valued:
        headers += ["value (95% CI)", u]
    else:
        headers.append(u)
    body = []
    for label, n, finding, v, e in rows:
        if judged and v is None:
            cells = ["", "", "", "", "", f"{n:,} {u}", ""]
        elif judged:
            cells = [(direction or GENERIC).of(v), word_text(v.word, u), v.what, v.number, v.bound,
                     f"{v.n:,} {v.unit}", v.needed_cell]
        elif valued:
            cells = [e.text if e is not None else "", f"{n:,}"]
        else:
            cells = [f"{n:,}"]
        body.append([label] + cells + [finding])
    return headers + ["finding"], body


def lead(answer: str, evidence: str, text: str = "") -> str:
    """An answer's text: its answer in the question's words, its evidence, then ``text``:
    "SEAT 1 FAVOURED: +7.4 pp against the average seat. Shown with each of ... ."."""
    evidence = evidence[:1].upper() + evidence[1:]
    head = f"{answer}. {evidence}" if answer else evidence
    return f"{head}. {text}".rstrip() if text else f"{head}."


def structural(q: Question, finding: Callable[[dict], str], res: dict, manifest: dict, controlled=None,
               figure: str | None = None, method: str | None = None) -> Answer:
    """A question about the game (seats, balance, length, ...) answered on the
    controlled tables side by side when there are any: ``q.estimate`` and
    ``q.verdict`` on each (``stats/questions.py``), ``finding(tables)`` its sentence
    there. With verdicts the answer leads with its answer in the question's words
    over the tables (``Direction.over``: the common answer with the range of its
    estimates, "with 3 of 4 bots" while others are open, "DEPENDS ON THE BOTS" when
    tables decide it differently in word or direction) and its evidence; a measure
    nobody judges leads with its range over the tables. Each table's answer,
    evidence, numbers and finding are a row of the answer's table (``per_bot_table``;
    the measures themselves stay in ``per_table`` for the strength ladder), the run's
    own mixed table, when it is not one of them, a last row labelled as describing
    its bots. Without controlled tables the answer says plainly that it is about
    the bots present."""
    players = manifest.get("players")
    u = unit(manifest)
    figure = figure if figure is not None else q.chart
    method = method if method is not None else q.method
    common = dict(key=q.key, direction=q.direction, unit=u)
    if controlled:
        per = {label: (q.estimate(t, manifest), finding(t), q.verdict(t, manifest))
               for label, t in controlled.tables.items()}
        verdicts = {label: v for label, (_, _, v) in per.items() if v is not None}
        evidence = verdicts if verdicts and len(verdicts) == len(per) else None
        where = controlled.where
        rows = [(label, int(controlled.units.get(label, 0)), sentence, v, e)
                for label, (e, sentence, v) in per.items()]
        answer = Answer(q.text, "", method, controlled_scope(manifest, controlled), figure, evidence, players, where,
                        per_table=per, **common)
        if len(per) == 1:
            label = next(iter(per))
            ev = answer.evidence_text()
            text = lead(answer.answer, f"{ev} with {label} {where}" if ev else f"with {label} {where}",
                        "(One bot only: whether this holds with other bots is not measured here.)")
        elif evidence:
            text = lead(answer.answer, answer.evidence_text(deals=True))
        else:
            text = lead(answer.answer, f"measured with each of the {len(per)} bots {where}, on the same deals")
        if not single_bot(manifest) and not any(t is res for t in controlled.tables.values()):
            rows.append((f"this run's own table ({bots_scope(manifest)}), describing those bots",
                         int(manifest.get(u, 0) or 0), finding(res), q.verdict(res, manifest),
                         q.estimate(res, manifest)))
            text += " Per bot, and last this run's own table of mixed bots: the table below."
        else:
            text += " Per bot: the table below." if len(per) > 1 else " The table below."
        answer.text = text
        answer.table = per_bot_table(rows, where, u, q.direction)
        return answer
    note = getattr(controlled, "note", "") or "no controlled table was played"
    about = "" if single_bot(manifest) else f"About the bots at this table, not the game alone ({note}): "
    v, e, sentence = q.verdict(res, manifest), q.estimate(res, manifest), finding(res)
    label = bots_scope(manifest)
    answer = Answer(q.text, "", method, table_scope(manifest), figure, {label: v} if v is not None else None, players,
                    per_table={label: (e, sentence, v)}, **common)
    if v is not None:
        answer.text = lead(answer.answer, f"{word_text(v.word, u)}: {v.reason}", f"{about}{sentence}")
    else:
        answer.text = (f"{answer.answer}. " if answer.answer else "") + about + sentence
    return answer


def bots_answer(question: str, figure: str | None, text: str, method: str, manifest: dict,
                evidence: Verdict | None = None, table: tuple[list[str], list[list]] | None = None, key: str = "",
                direction: Direction | None = None, headline: str = "", quoted: Verdict | None = None) -> Answer:
    """A question whose answer describes the choices of the bots present; with
    ``evidence`` it leads with its answer in the question's words (``direction``,
    or ``headline``) and its evidence; ``table``: the values it lists, shown under
    the text (which says what the table holds)."""
    text = text + f" (This describes the choices of the bots present: {bots_scope(manifest)}.)"
    a = Answer(question, text, method, table_scope(manifest), figure,
               {bots_scope(manifest): evidence} if evidence is not None else None, manifest.get("players"),
               table=table, key=key, direction=direction, headline=headline, quoted=quoted, unit=unit(manifest))
    if evidence is not None:
        v = quoted or evidence
        a.text = lead(a.answer, f"{word_text(evidence.word, a.unit)}: {v.reason}", text)
    return a


def judged_answer(q: Question, text: str, res: dict, manifest: dict, table=None, figure: str | None = None,
                  method: str | None = None) -> Answer:
    """A question (``stats/questions.py``) about the bots present, judged on the run's own table."""
    return bots_answer(q.text, figure if figure is not None else q.chart, text, method or q.method, manifest,
                       q.verdict(res, manifest), table, key=q.key, direction=q.direction)


def flag_sentence(flags: Flags, noun: str, plural: str | None = None) -> str:
    """The sentence of a balance flag: what differs, beyond chance and the threshold."""
    return flags.verdict(noun, plural) + "."


def seat_flags(res: dict, manifest: dict) -> Flags | None:
    return Q.seat_flags(res, manifest)


def first_seat_finding(manifest: dict) -> Callable[[dict], str]:
    """The first-seat answer's sentence on one table: seat 1's win rate, its edge over
    the average seat and the seat flags' sentence."""
    def finding(res):
        sa = res["seat_advantage"]
        if not len(sa):
            return "no results to compare seats."
        s1 = sa[sa["seat"] == 1].iloc[0]
        if confounded(res):
            return (f"seat 1 ({s1['bot']}) wins {pct_ci(s1['win_rate'], s1['win_low'], s1['win_high'])}, "
                    "which mixes its bot's strength with moving first.")
        f = seat_flags(res, manifest)
        if f is None:
            return "no results to compare seats."
        return (f"seat 1 wins {pct_ci(s1['win_rate'], s1['win_low'], s1['win_high'])}, "
                f"{pp_ci(s1['advantage'], s1['advantage_low'], s1['advantage_high'])} against the average "
                f"seat; {flag_sentence(f, 'seat')}")
    return finding


def seat_spread_finding(manifest: dict) -> Callable[[dict], str]:
    """The all-seats answer's sentence on one table: every seat's win rate in seat
    order, a gradient named where the rates fall (or rise) seat by seat, and the
    seat flags' sentence."""
    def finding(res):
        sa = res["seat_advantage"]
        if not len(sa):
            return "no results to compare seats."
        if confounded(res):
            return "the seats run different bots, so a seat's win rate mixes its bot's strength with its place."
        f = seat_flags(res, manifest)
        if f is None:
            return "no results to compare seats."
        rates = ", ".join(pct(r) for r in sa.sort_values("seat")["win_rate"])
        gradient = Q.seat_gradient(res)
        slope = f" ({gradient} in seat order: a turn-order gradient, not seat 1 alone)" if gradient else ""
        return f"seats 1-{len(sa)} win {rates}{slope}; {flag_sentence(f, 'seat')}"
    return finding


SEAT_METHOD = Q.SEAT_METHOD
