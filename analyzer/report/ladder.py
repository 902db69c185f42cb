"""The strength ladder of a report under strong play (``report --strong``).

A balance answer is only as good as the play behind it. Under strong play the
controlled tables are a ladder of strengths, weakest first (``controlled.
strength_designs``): the random bot in every seat, the heuristic bots, the
game's search bot. Every structural answer (``text.structural``) is measured on
each of them; this module lays those measures side by side, one row per
strength, and says per question whether the answer keeps from random to search
play: it *keeps* when every strength decides it alike, in word and direction
(``stats/evidence.across``, the rule of the scorecard's line), *changes with
strength* when they decide it differently, and is *not settled* while a
strength's table is too small to decide it (the others' common answer named).
An answer without a practical threshold (a game's length) gives the range of
its value from the weakest to the strongest, never "the same answer" for
different values. Game-agnostic: it reads only ``Answer.per_table``.
"""
from __future__ import annotations

import html
import re

from analyzer.report.text import GENERIC, Answer, estimate_range, group_answer
from analyzer.stats.evidence import DEPENDS, NOT_ENOUGH, across, word_text


def ladder_answers(answers: list[Answer], controlled) -> list[Answer]:
    """The answers measured on every table of the ladder."""
    labels = list(controlled.tables)
    return [a for a in answers if a.per_table and all(label in a.per_table for label in labels)]


def _short(sentence: str) -> str:
    """A measure's sentence without its parentheses (intervals, spreads), cut to its
    first clause, for a table cell."""
    while True:
        shorter = re.sub(r" ?\([^()]*\)", "", sentence)
        if shorter == sentence:
            break
        sentence = shorter
    sentence = sentence.split("; ")[0].rstrip(".")
    return sentence if len(sentence) <= 90 else sentence[:89] + "…"


def cell(measured: tuple, unit: str = "races") -> str:
    """One strength's measure of one answer: its evidence word and estimate, or
    (without a threshold) its value, else the first clause of its sentence."""
    e, sentence, v = measured
    if v is not None:
        return f"{word_text(v.word, unit)} ({v.value_text})"
    if e is not None:
        return e.scale.value(e.value)
    return _short(sentence)


def keeps(answer: Answer) -> str:
    """Whether the answer keeps from the weakest strength to the strongest, in words."""
    per = answer.per_table or {}
    verdicts = {label: v for label, (_, _, v) in per.items() if v is not None}
    direction = answer.direction or GENERIC
    if len(verdicts) == len(per) and verdicts:
        ac = across(verdicts, signed=not direction.symmetric)
        if ac.word == DEPENDS:
            return "changes with strength: " + "; ".join(
                f"{group_answer(direction, ac, labels)} with {', '.join(labels)}" for labels in ac.groups.values())
        if ac.open:
            unit = next(iter(ac.open.values())).unit
            tail = f"; {direction.over(ac, 'strengths')}" if ac.partial else ""
            return f"not settled (too few {unit} with {', '.join(ac.open)}){tail}"
        return f"keeps its answer: {direction.over(ac, 'strengths')} at every strength"
    rows = [(label, e) for label, (e, _, _) in per.items() if e is not None]
    if rows and len(rows) == len(per):
        return f"from weakest to strongest: {estimate_range(rows)}"
    return "not compared: no value at every strength"


def table(answers: list[Answer], controlled, unit: str) -> tuple[list[str], list[list]] | None:
    """(headers, rows): one row per strength, weakest first, a column per answer,
    and a last row saying whether each answer keeps."""
    chosen = ladder_answers(answers, controlled)
    if not controlled or not chosen:
        return None
    headers = ["strength (each in every seat)" if controlled.where == "in every seat" else
               f"strength ({controlled.where})", unit] + [a.question for a in chosen]
    rows = [[label, f"{controlled.units[label]:,}"] + [cell(a.per_table[label], unit) for a in chosen]
            for label in controlled.tables]
    rows.append(["from weakest to strongest", ""] + [keeps(a) for a in chosen])
    return headers, rows


def render_text(answers: list[Answer], controlled, unit: str) -> str:
    """The ladder as console lines: one line per question, its word per strength."""
    if not getattr(controlled, "ladder", False):
        return ""
    labels = list(controlled.tables)
    lines = [f"Strength ladder (weakest first, {controlled.where}: "
             + ", ".join(f"{label} {controlled.units[label]:,} {unit}" for label in labels) + ")"]
    if controlled.ladder_note:
        lines.append(f"  {controlled.ladder_note}")
    for a in ladder_answers(answers, controlled):
        lines.append(f"  {a.question} {keeps(a)}. "
                     + "; ".join(f"{label}: {cell(a.per_table[label], unit)}" for label in labels))
    return "\n".join(lines)


def render_html(answers: list[Answer], controlled, unit: str, html_table) -> str:
    """The ladder's section of the page (``html_table(headers, rows)`` draws the table)."""
    if not getattr(controlled, "ladder", False):
        return ""
    note = f'<p class="small">{html.escape(controlled.ladder_note)}</p>' if controlled.ladder_note else ""
    found = table(answers, controlled, unit)
    body = html_table(*found) if found else "<p>No answer was measured on every strength.</p>"
    return ('<h2 id="ladder">Under strong play: the strength ladder</h2>'
            "<p>Each question about the game measured with one bot in every seat, from the random bot through "
            "the heuristic bots to the search bot (weakest first), on the same seed: the same deals and dice. "
            "A cell gives the evidence word and estimate of that strength's table; the last row says whether "
            "the answer keeps from random to search play. The search bot's table is smaller (it costs far more "
            "a decision), so its words are the first to read \"not enough races\" (or games).</p>" + note + body)
