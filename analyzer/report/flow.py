"""The game-flow section of every game's report: the answer "How does the game
flow?" and its table, from the ``flow`` table of ``analyzer/stats/flow.py``. A
game names what one item is (a race, a game), what its steps are (moves, turns)
and what leads its standing (a lemming, a player); its docs page defines the
standing."""
from __future__ import annotations

import numpy as np

from analyzer.report.html import table
from analyzer.report.text import Answer, bots_answer, is_num, num, num_ci, pct, pct_ci, table_scope
from analyzer.stats.evidence import Verdict
from analyzer.stats.questions import Question, decided_late, leader_at_half

FLOW_METHOD = ("the kernel notes after every step who leads the game's standing if it ended now (one side strictly "
               "ahead; a tie at the top leaves the lead where it was) and counts per item the lead changes, the "
               "steps before the eventual winner led for good and whether it led at the half; means with 95% t "
               "intervals over items, shares with 95% Wilson intervals; the share of the game before the lead was "
               "for good is averaged over items with a single winner, in whole percent of each item's steps")
HALF_METHOD = ("; the verdict: the share of items with a single winner whose winner led at the half (1 minus the "
               "comebacks, 95% Wilson interval) minus 1 in k, the share if the standing at the half said nothing "
               "about the winner (k: the sides that can lead), judged against the practical threshold")
QUESTION = "How does the game flow: lead changes, decisiveness, comebacks?"


def _rows(res: dict) -> dict:
    flow = res.get("flow")
    if flow is None or not len(flow):
        return {}
    return {r["metric"]: r for _, r in flow.iterrows()}


def flow_question(item: str, contenders: int | None) -> Question:
    """The flow answer's question: does the leader at the half win more than by chance
    (``stats/questions.leader_at_half``)?"""
    return leader_at_half(item, contenders, QUESTION)


def flow_questions(item: str, step: str, contenders: int | None) -> tuple[Question, ...]:
    """The questions a game's flow table answers: the leader at the half, and how late
    the winner takes the lead for good (``decided_late``, described)."""
    return flow_question(item, contenders), decided_late(item, step)


def half_time_verdict(res: dict, manifest: dict, item: str, contenders: int | None) -> Verdict | None:
    """Does the standing at the half tell the winner? (``flow_question``'s verdict.)"""
    return flow_question(item, contenders).verdict(res, manifest)


def flow_answer(res: dict, manifest: dict, item: str, step: str, who: str, contenders: int | None = None) -> Answer:
    """The answer, e.g. ``item="race", step="moves", who="lemming"``; with ``contenders``
    (the sides that can lead: players, pigs, lemmings) it judges whether the leader at
    the half wins more than by chance (``half_time_verdict``)."""
    q = flow_question(item, contenders)
    r = _rows(res)
    if not r or not r["lead_changes"]["n"]:
        return Answer(QUESTION, f"Cannot tell: no {item} was recorded with its flow counters.", FLOW_METHOD,
                      table_scope(manifest), key=q.key)
    ch, dec, med, cb = r["lead_changes"], r["decided_share"], r["decided_median"], r["comeback"]
    text = (f"The lead passes {num_ci(ch['value'], ch['low'], ch['high'])} times per {item} "
            f"(never in {pct(r['no_lead_change']['value'])} of {item}s). ")
    if dec["n"]:
        text += (f"The winning {who} takes the lead for good after {pct_ci(dec['value'], dec['low'], dec['high'], 0)} "
                 f"of the {item}'s {step} on average (median {pct(med['value'], 0)}): the lower, the earlier a "
                 f"{item} is decided. Comebacks: in {pct_ci(cb['value'], cb['low'], cb['high'])} of {item}s "
                 f"the winner was not leading at the half. ")
    text += (f"No single winner (shared, drawn or stopped): {pct(r['no_single_winner']['value'])} of {item}s. "
             f"Length: {num_ci(r['length']['value'], r['length']['low'], r['length']['high'], 1)} {step}.")
    v = q.verdict(res, manifest)
    return bots_answer(QUESTION, "flow", text, FLOW_METHOD + (HALF_METHOD if v is not None else ""), manifest, v,
                       key=q.key, direction=q.direction)


def flow_figure(item: str, step: str) -> tuple:
    """The section's entry of a game's ``FIGURES``: the shares the answer cites,
    with their 95% intervals."""
    def draw(res, manifest):
        from analyzer.report.figures import NEUTRAL, _err, _figure, _pct_axis

        r = _rows(res)
        if not r or not r["lead_changes"]["n"]:
            return None
        bars = [(f"{item}s without a lead change", r["no_lead_change"]),
                (f"share of the {item} played before\nthe winner led for good (mean)", r["decided_share"]),
                ("comebacks: the winner not\nleading at the half", r["comeback"]),
                (f"{item}s without a single winner", r["no_single_winner"])]
        fig, ax = _figure(7.5, 3.4)
        y = np.arange(len(bars))[::-1]
        mid = [b["value"] for _, b in bars]
        ax.barh(y, mid, color=NEUTRAL, xerr=_err(mid, [b["low"] for _, b in bars], [b["high"] for _, b in bars]),
                capsize=4)
        ax.set_yticks(y, [label for label, _ in bars])
        ax.set_xlim(0, 1)
        _pct_axis(ax, "x")
        ax.set_xlabel(f"percent of {item}s; of each {item}'s {step} for the mean share (95% CI)")
        ax.set_title(f"Game flow: {num(r['lead_changes']['value'])} lead changes per {item}, "
                     f"{num(r['length']['value'], 1)} {step} long", fontsize=10)
        return fig

    def takeaway(res):
        r = _rows(res)
        if not r or not r["lead_changes"]["n"]:
            return ""
        return (f" Per {item}: the lead passes {num(r['lead_changes']['value'])} times; the winner holds it for good "
                f"after {pct(r['decided_share']['value'], 0)} of the {step} on average; comebacks "
                f"{pct(r['comeback']['value'])}.")

    return ("flow", "Game flow", draw, takeaway)


def flow_table(res: dict, item: str, step: str) -> str:
    """The key table of the section."""
    r = _rows(res)
    if not r or not r["lead_changes"]["n"]:
        return ""
    label = {
        "lead_changes": f"lead changes per {item}",
        "no_lead_change": f"{item}s without a lead change",
        "decided_share": f"share of the {step} played before the winner led for good (mean)",
        "decided_median": "the same, median",
        "comeback": "comebacks: the winner not leading at the half",
        "no_single_winner": f"{item}s without a single winner",
        "length": f"length ({step})",
    }
    rows = []
    for metric, text in label.items():
        x = r[metric]
        shown = (num_ci(x["value"], x["low"], x["high"], 2 if metric == "lead_changes" else 1)
                 if metric in ("lead_changes", "length") else pct_ci(x["value"], x["low"], x["high"]))
        rows.append([text, shown, f"{int(x['n']):,}" if is_num(x["n"]) else ""])
    return "<h3>Game flow</h3>" + table(["measure", "value (95% CI)", item + "s"], rows)
