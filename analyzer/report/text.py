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

from analyzer.stats.evidence import EXACT, NOT_ENOUGH, Verdict, across, verdict
from analyzer.stats.flags import ALPHA, MIN_EFFECT, Flags, seat_balance



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


# ---------------------------------------------------------------------- scope and method


@dataclass
class Answer:
    """A designer's question with its answer, the scope the answer holds for
    (bots, board, player count) and the method that measured it; ``figure`` is
    the key of the figure that shows it (the page links to it). ``evidence``:
    where the answer judges an effect against a practical threshold, its
    verdict per table (label -> ``Verdict``, ``stats/evidence.py``), which the
    text leads with and the scorecard shows; ``players`` the player count."""
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

    @property
    def tables(self) -> list[tuple[list[str], list[list]]]:
        """Every table the page shows under the answer's text, in order."""
        return ([self.table] if self.table else []) + list(self.extra_tables)
    # a structural answer's measure per controlled table: label -> (key, sentence, verdict or None)
    per_table: dict[str, tuple[str, str, Verdict | None]] | None = None

    @property
    def word(self) -> str | None:
        """The answer's evidence word over its tables: one table's, the common word
        when every table decides alike, "not enough races" when any table leaves it
        open, and "shown" when some show it and others rule it out (the scorecard
        names the tables it is shown for)."""
        if not self.evidence:
            return None
        words = {v.word for v in self.evidence.values()}
        if NOT_ENOUGH in words:
            return NOT_ENOUGH
        return words.pop() if len(words) == 1 else "shown"


def lead(word: str, text: str) -> str:
    """``text`` led by its evidence word: ``"Not enough races — text"``."""
    return f"{word[0].upper()}{word[1:]} — {text}"


def _measured(out: tuple) -> tuple[str, str, Verdict | None]:
    """A measure's ``(key, sentence)`` or ``(key, sentence, verdict)`` as the latter."""
    return (out[0], out[1], out[2]) if len(out) > 2 else (out[0], out[1], None)


def with_evidence(sentence: str, v: Verdict | None) -> str:
    """A table's sentence followed by its evidence, when it has one."""
    if v is None:
        return sentence
    tail = f"; {v.needed_text}" if v.word == NOT_ENOUGH and is_num(v.low) else ""
    return f"{v.word} ({v.what} {v.number}, threshold {v.bound}{tail}): {sentence}"


def min_effect(manifest: dict) -> float:
    """The practical-size threshold of the flags (a share; ``--min-effect`` in pp)."""
    v = manifest.get("min_effect")
    return float(v) if is_num(v) else MIN_EFFECT


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


def per_bot_table(rows: list[tuple[str, int, str, Verdict | None]], where: str, u: str) -> tuple[list[str], list[list]]:
    """The table of a structural answer: one row per controlled table (``(label,
    units, finding, verdict)``), its bot, and where the answer judges an effect its
    evidence word, what it measured, the estimate with its interval (named: 95% or
    simultaneous 95%), the threshold, the units it rests on and, when open, the
    units that would settle it if the spread stays as observed (in the verdict's own
    unit: a game of several races may judge races); then the finding."""
    judged = any(v is not None for _, _, _, v in rows)
    headers = [f"bot ({where})" if where else "bot"]
    if judged:
        headers += ["evidence", "effect", "estimate (interval)", "threshold", "measured on",
                    "needed to settle it (if the spread stays as observed)"]
    else:
        headers.append(u)
    body = []
    for label, n, finding, v in rows:
        if not judged:
            cells = [f"{n:,}"]
        elif v is None:
            cells = ["", "", "", "", f"{n:,} {u}", ""]
        else:
            cells = [v.word, v.what, v.number, v.bound, f"{v.n:,} {v.unit}", v.needed_cell]
        body.append([label] + cells + [finding])
    return headers + ["finding"], body


def _overall(n: int, keys: set, evidence: dict[str, Verdict] | None, where: str) -> str:
    """The one sentence a structural answer on ``n`` controlled tables leads with:
    whether it holds across these bots, depends on them, or is not settled."""
    if evidence:
        key, phrase = across(evidence)
        if key == "open":
            return lead(NOT_ENOUGH, f"{phrase} (each of the {n} bots {where}, on the same deals).")
        if key == "depends":
            return f"It depends on the bots (each {where}, on the same deals): {phrase}."
        return f"{key[0].upper()}{key[1:]} with each of the {n} bots {where} ({phrase}, on the same deals)."
    if len(keys) == 1:
        return f"The same answer with each of the {n} bots {where} (it holds across these bots)."
    return f"It depends on the bots (each {where}, on the same deals)."


def structural(question: str, figure: str | None, measure: Callable[[dict], tuple], method: str,
               res: dict, manifest: dict, controlled=None) -> Answer:
    """A question about the game (seats, balance, length, ...) answered on the
    controlled tables side by side when there are any: ``measure(tables)`` gives
    ``(key, sentence)``, equal keys meaning the same answer, or ``(key, sentence,
    verdict)`` where the answer judges an effect against a practical threshold.
    With verdicts the answer leads with its evidence word, and it "holds across
    these bots" only when every table decides it on its own and all alike
    (``stats/evidence.across``); otherwise it is "not settled" at the tables' size.
    The text is that one sentence; each table's verdict, numbers and finding are a
    row of the answer's table (``per_bot_table``; the measures themselves stay in ``per_table`` for the strength ladder), the run's own mixed table, when it is
    not one of them, a last row labelled as describing its bots.
    Without controlled tables the answer says plainly that it is about the bots present."""
    players = manifest.get("players")
    u = unit(manifest)
    if controlled:
        per = {label: _measured(measure(tables)) for label, tables in controlled.tables.items()}
        keys = {k for k, _, _ in per.values()}
        verdicts = {label: v for label, (_, _, v) in per.items() if v is not None}
        evidence = verdicts if len(verdicts) == len(per) else None
        where = controlled.where
        rows = [(label, int(controlled.units.get(label, 0)), sentence, v) for label, (_, sentence, v) in per.items()]
        if len(per) == 1:
            label, (_, _, v) = next(iter(per.items()))
            text = (f"With {label} {where} (one bot only: whether this holds with other bots is not measured "
                    "here).")
            if v is not None:
                text = lead(v.word, text)
        else:
            text = _overall(len(per), keys, evidence, where)
        if not single_bot(manifest) and not any(t is res for t in controlled.tables.values()):
            _, sentence, v = _measured(measure(res))
            rows.append((f"this run's own table ({bots_scope(manifest)}), describing those bots",
                         int(manifest.get(u, 0) or 0), sentence, v))
            text += " Per bot, and last this run's own table of mixed bots: the table below."
        else:
            text += " Per bot: the table below." if len(per) > 1 else " The table below."
        return Answer(question, text, method, controlled_scope(manifest, controlled), figure, evidence, players,
                      where, table=per_bot_table(rows, where, u), per_table=per)
    note = getattr(controlled, "note", "") or "no controlled table was played"
    prefix = "" if single_bot(manifest) else (
        f"About the bots at this table, not the game alone ({note}): ")
    _, sentence, v = _measured(measure(res))
    text = prefix + with_evidence(sentence, v)
    label = bots_scope(manifest)
    return Answer(question, lead(v.word, text) if v is not None else text, method, table_scope(manifest), figure,
                  {label: v} if v is not None else None, players)


def bots_answer(question: str, figure: str | None, text: str, method: str, manifest: dict,
                evidence: Verdict | None = None, table: tuple[list[str], list[list]] | None = None) -> Answer:
    """A question whose answer describes the choices of the bots present; with
    ``evidence`` it leads with its evidence word; ``table``: the values it lists,
    shown under the text (which says what the table holds)."""
    text = text + f" (This describes the choices of the bots present: {bots_scope(manifest)}.)"
    if evidence is not None:
        text = lead(evidence.word, f"{evidence.reason[0].upper()}{evidence.reason[1:]}. {text}")
    return Answer(question, text, method, table_scope(manifest), figure,
                  {bots_scope(manifest): evidence} if evidence is not None else None, manifest.get("players"),
                  table=table)


def flag_sentence(flags: Flags, noun: str, plural: str | None = None) -> tuple[str, str]:
    """(key, sentence) of a balance flag for ``structural``: the key names the
    flagged items and their side of fair, so two tables agree when they flag alike."""
    key = ",".join(f"{flags.items[i]}{'+' if flags.share[i] > flags.fair else '-'}"
                   for i in np.flatnonzero(flags.flagged)) or "none"
    return key, flags.verdict(noun, plural) + "."


def seat_flags(res: dict, manifest: dict) -> Flags | None:
    """Cochran's Q and Holm on the per-unit win patterns (tables of one bot in every seat)."""
    wp = res.get("win_patterns")
    players = int(overview_value(res, "players")) if is_num(overview_value(res, "players")) else 0
    if wp is None or not len(wp) or players < 2:
        return None
    return seat_balance(wp["units"].to_numpy(), wp["mask"].to_numpy(), players, ALPHA, min_effect(manifest))


def first_seat_measure(manifest: dict) -> Callable[[dict], tuple[str, str]]:
    def measure(res):
        sa = res["seat_advantage"]
        if not len(sa):
            return "none", "no results to compare seats."
        if confounded(res):
            s1 = sa[sa["seat"] == 1].iloc[0]
            return "mixed", (f"seat 1 ({s1['bot']}) wins {pct_ci(s1['win_rate'], s1['win_low'], s1['win_high'])}, "
                             "which mixes its bot's strength with moving first.")
        f = seat_flags(res, manifest)
        if f is None:
            return "none", "no results to compare seats."
        s1 = sa[sa["seat"] == 1].iloc[0]
        key, flags_text = flag_sentence(f, "seat")
        return key, (f"seat 1 wins {pct_ci(s1['win_rate'], s1['win_low'], s1['win_high'])}, "
                     f"{pp_ci(s1['advantage'], s1['advantage_low'], s1['advantage_high'])} against the average "
                     f"seat; {flags_text}"), first_seat_verdict(s1, manifest, f)
    return measure


def first_seat_verdict(s1, manifest: dict, flags: Flags) -> Verdict:
    """Seat 1's edge over the average seat against the practical threshold, in
    evidence words, on the seat flags' simultaneous interval (so that the word
    never contradicts the flags' sentence beside it)."""
    u = unit(manifest)
    n = int(s1[u]) if u in s1 else 0
    return flags.item_evidence(0, "seat 1 against the average seat", n, u)


def skill_verdict(res: dict, manifest: dict) -> Verdict | None:
    """Do the heuristic bots win more than random, by the practical threshold? The
    all-heuristic row of ``luck_skill`` (win rate per seat minus random's, paired)."""
    ls = res["luck_skill"]
    if not len(ls):
        return None
    row = ls.iloc[-1]
    sa, u = res["seat_advantage"], unit(manifest)
    n = int(sa[u].iloc[0]) if len(sa) and u in sa else 0
    who = "heuristic bots" if row["bot"] == "all heuristic bots" else str(row["bot"])
    return verdict(float(row["difference"]), float(row["difference_low"]), float(row["difference_high"]),
                   min_effect(manifest), n, what=f"{who} against random (win rate per seat)", unit=unit(manifest))


SEAT_METHOD = ("Cochran's Q on which seats won each unit (seats paired within a unit), then per-seat paired "
               "tests against the average seat with Holm correction, flagged only beyond the practical "
               "threshold; 95% intervals paired by unit")
