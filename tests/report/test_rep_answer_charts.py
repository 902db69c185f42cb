"""Each structural answer links to a chart of the data it cites: the controlled
tables (each bot in every seat), one panel per bot. For every game, on a small
run of two bots: the answer's link goes to its chart, the chart's source CSV holds
exactly the rows of the controlled tables' CSVs the answer reads, the numbers the
answer quotes are in it, and the run's own figure of the same question comes after,
titled as the mixed table it is."""
import html
import re

import numpy as np
import pandas as pd
import pytest

import analyzer
from analyzer.games import game_info
from analyzer.report import text as T
from analyzer.report.answer_charts import MIXED, exact
from analyzer.report.html import _slug

UNITS = 200
CASES = {  # game: (bots, {question: figure key its answer cites})
    "lemming-mafia": ("favourite,random,favourite,random", {
        "Is the first seat favoured?": "seat_advantage", "Are the lemming colours balanced?": "lemmings",
        "How long is a race?": "race_length"}),
    "sau-mau-mau": ("tempo,random,tempo,random", {
        "Is the first seat favoured over the whole game?": "seat_advantage",
        "Does starting a race help?": "first_player", "Are the pigs balanced?": "pigs",
        "Which queue position earned most? (hindsight: bets the bots laid)": "queue_position", "How do races end?": "race_ends"}),
    "lemminge": ("racer,random,racer,random", {"Is the first seat favoured?": "seat_advantage",
                                                "How long is a game?": "game_length"}),
    "mafia": ("raider,expander,hunter,raider,expander", {
        "Is the State strong enough at 3 and 5 players?": "outcomes",
        "Does the family that moves first win more?": "outcomes", "How long are games?": "length"}),
}


@pytest.fixture(scope="module", params=list(CASES))
def report(request, tmp_path_factory):
    game = request.param
    bots, _ = CASES[game]
    out = tmp_path_factory.mktemp(game) / "report.html"
    players = len(bots.split(","))
    analyzer.simulate(game, UNITS, seed=4, threads=1, tables=False, report=out, progress=False, bots=bots,
                      players=players)
    return game, out, out.read_text(encoding="utf-8"), out.with_name("report_files")


BADGE = r'(?:<span class="ev [^"]*">[^<]*</span>)?'  # the answer's evidence word, when it has one
ANSWER = r'(?:<br><b class="answer">[^<]*</b>)?'  # its answer in the question's words, when it has one
DT = r'<dt id="answer-[\w-]+" class="q q-[\w-]+">'  # an answer's heading, by its question's key


def linked(page: str, question: str) -> str:
    m = re.search(rf'{DT}{BADGE}{re.escape(html.escape(question))}{ANSWER}</dt><dd>(.*?)'
                  r'<a href="#([^"]+)">\(figure\)</a>', page, re.S)
    assert m, f"no figure linked from {question!r}"
    return m.group(2)


def answer_text(page: str, question: str) -> str:
    """An answer's sentence and its table (each controlled table's numbers are a row of it)."""
    m = re.search(rf'{DT}{BADGE}{re.escape(html.escape(question))}{ANSWER}</dt><dd>(.*?)<p class="how">',
                  page, re.S)
    return html.unescape(re.sub("<[^>]+>", " ", m.group(1)))


def test_each_answer_links_to_a_chart_of_the_controlled_tables_it_cites(report):
    game, _, page, folder = report
    sections = game_info(game).load("report")
    charts = {c.figure: c for c in sections.ANSWER_CHARTS}
    for question, key in CASES[game][1].items():
        chart = charts[key]
        assert linked(page, question) == chart.key
        source = pd.read_csv(folder / f"{chart.key}.csv")
        labels = list(dict.fromkeys(source["table"]))
        assert len(labels) == 2  # one panel per bot of the run
        text = answer_text(page, question)
        for label in labels:
            got = source[source["table"] == label].drop(columns="table").reset_index(drop=True)
            if chart.frame is not None:  # a mean and its interval: the numbers the answer quotes
                for r in got.itertuples():
                    assert f"{T.num(r.low, 1)}–{T.num(r.high, 1)}" in text or \
                        T.num_ci(r.mean, r.low, r.high, 1) in text, (label, r, text)
                if chart.table == "overview":  # and the controlled table's overview row it comes from
                    ov = pd.read_csv(folder / f"controlled_{_slug(label)}_overview.csv").set_index("metric")
                    metric = ov.loc[[m for m in ov.index if m.endswith("_length_mean")][0]]
                    assert [got["mean"][0], got["low"][0], got["high"][0]] == pytest.approx(
                        [metric["value"], metric["low"], metric["high"]])
                continue
            table = pd.read_csv(folder / f"controlled_{_slug(label)}_{chart.table}.csv")
            if chart.rows is not None:
                table = chart.rows(table)
            expected = table[[chart.x, chart.value, chart.low, chart.high]].reset_index(drop=True)
            pd.testing.assert_frame_equal(got.astype(str), expected.astype(str), obj=f"{game} {key} {label}")
        if key == "seat_advantage":  # the seat-1 number each bot's sentence quotes
            for label in labels:
                s1 = source[(source["table"] == label) & (source["seat"] == 1)].iloc[0]
                assert T.pp_ci(s1["advantage"], s1["advantage_low"], s1["advantage_high"]) in text, text
        if key == "first_player":  # the starter's edge over the four races
            for label in labels:
                a = source[(source["table"] == label) & (source["race"].astype(str) == "all")].iloc[0]
                assert T.num_ci(a["advantage"], a["advantage_low"], a["advantage_high"], sign=True) in text, text
        if key == "outcomes":  # the State's share, or the families' in calendar order, per family bot's table
            for label in labels:
                rows = source[source["table"] == label].set_index("side")["win_rate"]
                if question.startswith("Is the State"):
                    assert T.pct(rows["state"]) in text, text
                else:
                    assert ", ".join(f"{f} {T.pct(rows[f])}" for f in ("red", "black", "orange", "green")) in text


def test_the_mixed_figure_comes_after_the_charts_and_says_so(report):
    game, _, page, _ = report
    sections = game_info(game).load("report")
    keys = re.findall(r'<figure id="([^"]+)">', page)
    charts = [k for k in keys if k.startswith("answer_")]
    assert charts and keys[:len(charts)] == charts  # the answer charts first
    for chart in sections.ANSWER_CHARTS:
        if chart.figure in keys:  # the run's own figure of that question: after, and titled as mixed
            mixed = page[page.index(f'<figure id="{chart.figure}">'):]
            assert f" — {MIXED}</b>" in mixed[:mixed.index("</figcaption>")]


def test_an_interval_without_width_is_drawn_as_exact():
    assert list(exact([0.2, 0.1, 1.0], [0.2, 0.3, 1.0])) == [True, False, True]


def test_a_run_that_is_its_own_controlled_table_gets_no_charts_and_no_mixed_label(tmp_path):
    """One bot in every family seat against a hunter State: the run is the controlled
    table, its figures show what the answers cite, and none is called mixed."""
    out = tmp_path / "report.html"
    analyzer.simulate("mafia", 100, seed=4, threads=1, tables=False, report=out, progress=False,
                      bots="random,random,hunter,random,random", players=5)
    page = out.read_text(encoding="utf-8")
    assert "answer_" not in page and MIXED not in page
    assert linked(page, "How long are games?") == "length"


# ---------------------------------------------------------------- Lemming Mafia's interventions

def answer_tables(page: str, question: str) -> list[pd.DataFrame]:
    """The tables the page shows under an answer, cells as printed."""
    m = re.search(rf'{DT}{BADGE}{re.escape(html.escape(question))}{ANSWER}</dt><dd>(.*?)</dd>', page, re.S)
    out = []
    for t in re.findall(r"<table>(.*?)</table>", m.group(1), re.S):
        cells = [[html.unescape(c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)]
                 for row in re.findall(r"<tr>(.*?)</tr>", t)]
        out.append(pd.DataFrame(cells[1:], columns=cells[0]))
    return out


INTERVENTIONS = {  # question: (chart, the intervention tables its rows come from)
    "When should I bet on the leader?": ("answer_bet_leader", ["intervention_bets"]),
    "Which contracts should I throw away?": ("answer_discards", ["intervention_discard_policy",
                                                                 "intervention_contracts"]),
}


@pytest.mark.parametrize("report", ["lemming-mafia"], indirect=True)
def test_each_intervention_answer_links_to_a_chart_of_the_rows_its_tables_print(report):
    """Every judged panel of the chart is one of the answer's tables, row for row
    (label, gain with its interval, verdict), its values are the intervention
    tables' rows, and each hindsight panel comes after, labelled, with the same
    decisions' hindsight figures."""
    from analyzer.report.text import num_ci

    _, _, page, folder = report
    for question, (key, sources) in INTERVENTIONS.items():
        assert linked(page, question) == key
        chart = pd.read_csv(folder / f"{key}.csv", keep_default_na=False, na_values=[""])
        judged = chart[chart["verdict"].notna()]
        tables = answer_tables(page, question)
        assert len(tables) == judged["panel"].nunique() and len(tables) >= 1
        for (panel, rows), table in zip(judged.groupby("panel", sort=False), tables):
            assert list(table.iloc[:, 0]) == list(rows["label"]), panel
            gain = next(c for c in table.columns if c.startswith("gain"))
            assert list(table[gain]) == [num_ci(r.value, r.low, r.high, sign=True) for r in rows.itertuples()]
            assert list(table["verdict"]) == list(rows["verdict"])
        source = pd.concat([pd.read_csv(folder / f"{s}.csv") for s in sources], ignore_index=True)
        for r in judged.itertuples():  # each plotted gain is a row of the intervention tables
            hit = source[np.isclose(source["gain"], r.value, rtol=0, atol=1e-12) & (source["n"] == r.n)]
            assert len(hit) and hit["low"].iloc[0] == pytest.approx(r.low) and \
                hit["high"].iloc[0] == pytest.approx(r.high), r
        hindsight = chart[chart["hindsight"]]
        assert len(hindsight)
        first = chart["panel"].tolist()
        for panel in hindsight["panel"].unique():  # after the intervention rows it stands beside
            if panel in set(judged["panel"]):
                assert first.index(panel) < hindsight.index[hindsight["panel"] == panel][0]
    title = re.search(r'<figure id="answer_discards">.*?<b>(.*?)</b>', page, re.S).group(1)
    assert "intervention" in title and "hindsight" in title
    policy = pd.read_csv(folder / "intervention_discard_policy.csv")
    chart = pd.read_csv(folder / "answer_discards.csv", keep_default_na=False, na_values=[""])
    hind = chart[chart["hindsight"] & chart["panel"].str.startswith("The bots' own")]
    bots = policy[policy["bot"] != "all"]
    assert list(hind["value"]) == pytest.approx(list(bots["hindsight_gain"]))
    assert list(hind["low"]) == pytest.approx(list(bots["hindsight_low"]))


def test_plain_words_with_controlled_tables_and_interventions(report):
    """With controlled tables (and Lemming Mafia's interventions) the answers are
    longest: still no list of numbers in a sentence (their tables hold them), each
    links to its chart, no interval without width, no word the glossary lacks."""
    from analyzer.report import glossary
    from tests.report.test_rep_plain import JARGON, WITHOUT_WIDTH, answer_prose, number_lists, unlinked_answers

    game, _, page, _ = report
    lists = [(q, found) for q, text in answer_prose(page) for found in number_lists(text)]
    assert not lists, lists
    assert not unlinked_answers(page)  # and each answer links to a chart drawn on the page
    text = html.unescape(re.sub("<[^>]+>", " ", page[page.index("</details>"):]))
    assert not WITHOUT_WIDTH.findall(text)  # no interval printed without width
    terms = {t for t, _ in glossary.TERMS}  # and the glossary explains the statistical words used
    assert not [word for word in JARGON if word in text and JARGON[word] not in terms]


def test_a_gain_chart_colours_each_row_by_its_evidence_word_and_keeps_hindsight_grey():
    from matplotlib.colors import to_hex

    from analyzer.report.gain_charts import HINDSIGHT, WORD_COLORS, Panel, draw

    rows = pd.DataFrame({"label": ["a", "b", "c"], "value": [0.6, 0.0, -0.2], "low": [0.4, -0.1, -0.6],
                         "high": [0.8, 0.1, 0.2], "verdict": ["shown: gain", "ruled out", "not enough races"],
                         "n": [100, 100, 100]})
    fig, data = draw([[Panel("gain", rows, threshold=0.25),
                       Panel("gain", rows.assign(verdict=""), hindsight=True)]], "title")
    assert list(data["hindsight"]) == [False] * 3 + [True] * 3 and list(data["label"]) == ["a", "b", "c"] * 2
    assert list(data["verdict"][:3]) == list(rows["verdict"])
    judged, hindsight = fig.axes[:2]
    colours = {tuple(line.get_ydata()): to_hex(line.get_color()) for line in judged.lines if len(line.get_xdata()) == 1}
    assert colours == {(2,): WORD_COLORS["shown"], (1,): WORD_COLORS["ruled out"], (0,): WORD_COLORS["not enough"]}
    assert {to_hex(line.get_color()) for line in hindsight.lines if line.get_marker() == "D"} == {HINDSIGHT}
    assert "HINDSIGHT" in hindsight.get_title() and "HINDSIGHT" not in judged.get_title()
    band = judged.patches[0]  # the practical threshold, as a band around zero; none on the hindsight panel
    assert (band.get_x(), band.get_width()) == pytest.approx((-0.25, 0.5)) and not hindsight.patches
