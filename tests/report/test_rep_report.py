"""The HTML report from a real small run, streaming a run directory, and the
errors a bad run directory gives."""
import html
import json
import re
import shutil

import numpy as np
import pandas as pd
import pytest

from analyzer import api
from analyzer.cli import main
from analyzer.errors import AnalyzerError
from analyzer.report import aggregate_run, build_report, default_report_path, write_report
from analyzer.games.lemming_mafia.report import ANSWER_CHARTS, FIGURES
from analyzer.games.lemming_mafia.stats import LemmingMafiaStats

TABLES = ("races", "players", "contracts", "bets", "fields")


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("rep") / "run"
    try:
        main(["simulate", "lemming-mafia", "--races", "3000", "--out", str(out), "--no-progress"])
    except SystemExit as e:
        assert e.code in (0, None)
    assert (out / "manifest.json").is_file()
    return out


@pytest.fixture(scope="module")
def tables(run_dir):
    return {name: pd.read_parquet(run_dir / f"{name}.parquet") for name in TABLES}


@pytest.fixture(scope="module")
def report(run_dir, tmp_path_factory):
    out = tmp_path_factory.mktemp("out") / "report.html"
    path = build_report(run_dir, out)
    return path, path.read_text(encoding="utf-8")


def copy_run(run_dir, tmp_path):
    dst = tmp_path / "copy"
    shutil.copytree(run_dir, dst)
    return dst


# ---------------------------------------------------------------------- the report


def test_report_embeds_every_figure(report):
    path, page = report
    images = page.count('<img src="data:image/png;base64,')
    assert images == len(FIGURES) + len(ANSWER_CHARTS)  # a run of several bots: the answers' charts too
    pngs = sorted((path.parent / "report_files").glob("*.png"))
    assert len(pngs) == len(FIGURES) + len(ANSWER_CHARTS)
    for p in pngs:
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # self-contained: nothing is fetched (links to the CSV folder are the only hrefs)
    assert "<script" not in page and "http://" not in page and "https://" not in page
    assert not re.search(r'<img src="(?!data:)', page)


def test_report_names_the_setup(report, run_dir):
    _, page = report
    manifest = json.loads((run_dir / "manifest.json").read_text())
    for name in (manifest["board"]["name"], manifest["deck"]["name"], manifest["board"]["sha256"],
                 manifest["deck"]["sha256"]):
        assert name in page
    assert "ASSUMED reconstruction" in page
    for bot in manifest["bots"]:
        assert f"seat {bot['seat']}: {bot['bot']}" in page
    assert re.search(rf"<th>Seed</th><td>{manifest['seed']}</td>", page)
    assert "3,000" in page and manifest["versions"]["analyzer"] in page


def test_report_writes_tables_and_answers(report):
    path, page = report
    folder = path.parent / "report_files"
    for name in ("bots", "seats", "contracts", "bet_heatmap", "fields", "race_length", "luck_skill"):
        df = pd.read_csv(folder / f"{name}.csv")
        assert len(df), name
    for q in ("When should I bet on the leader?", "Which contracts should I throw away?",
              "Is the first seat favoured?"):
        assert q in page
    # each figure has its one-line takeaway with numbers from the data
    captions = re.findall(r"<figcaption><b>[^<]*</b>([^<]*)</figcaption>", page)
    assert len(captions) == len(FIGURES) + len(ANSWER_CHARTS)
    assert all(re.search(r"\d", c) for c in captions)


def test_default_report_path_is_beside_the_run(run_dir, tmp_path):
    assert default_report_path(run_dir) == run_dir.parent / f"{run_dir.name}-report.html"
    run = copy_run(run_dir, tmp_path)
    path = build_report(run)
    assert path == tmp_path / "copy-report.html" and path.is_file()
    assert (tmp_path / "copy-report_files" / "bots.csv").is_file()
    assert sorted(p.name for p in run.iterdir()) == sorted([*(f"{t}.parquet" for t in TABLES), "manifest.json"])


# ---------------------------------------------------------------------- statistics of a real run


def test_streamed_run_equals_whole_tables(run_dir, tables):
    whole = LemmingMafiaStats()
    whole.add(tables)
    streamed, manifest = aggregate_run(run_dir, batch_rows=997)  # batches cut races anywhere
    a, b = whole.result(), streamed.result()
    for name in a:
        pd.testing.assert_frame_equal(a[name], b[name], check_exact=True, obj=name)
    assert manifest["races"] == 3000


def test_uneven_chunks_equal_whole_tables(tables):
    whole = LemmingMafiaStats()
    whole.add(tables)
    rng = np.random.default_rng(11)
    chunked = LemmingMafiaStats()
    parts = {}
    for name, df in tables.items():
        cuts = np.sort(rng.choice(np.arange(1, len(df)), size=min(6, len(df) - 1), replace=False))
        edges = [0, *cuts, len(df)]
        parts[name] = [df.iloc[a:b] for a, b in zip(edges[:-1], edges[1:])]
    # interleave the tables' chunks as a stream would
    for k in range(max(len(p) for p in parts.values())):
        chunked.add({name: p[k] for name, p in parts.items() if k < len(p)})
    a, b = whole.result(), chunked.result()
    for name in a:
        pd.testing.assert_frame_equal(a[name], b[name], check_exact=True, obj=name)


def test_never_backed_equals_the_join_on_the_winner(tables):
    races, players, bets = tables["races"], tables["players"], tables["bets"]
    winner = races.set_index("race")["winner"].astype(str)
    b = bets.assign(win=bets["color"].astype(str).to_numpy() == winner.loc[bets["race"]].to_numpy())
    backed = b[b["win"]].groupby(["race", "seat"]).size()
    keys = pd.MultiIndex.from_arrays([players["race"], players["seat"].astype(bets["seat"].dtype)])
    never_join = ~keys.isin(backed.index)
    assert (never_join == (players["bet_points"] == 0).to_numpy()).all()
    s = LemmingMafiaStats()
    s.add(tables)
    bots = s.result()["bots"].set_index("bot")
    by_bot = pd.Series(never_join).groupby(players["bot"].astype(str).to_numpy()).mean()
    for bot, share in by_bot.items():
        assert bots.loc[bot, "never_backed"] == pytest.approx(share)


def test_stats_match_the_run_summary(run_dir):
    stats, manifest = aggregate_run(run_dir)
    res = stats.result()
    seats = res["seats"].set_index("seat")
    for row in manifest["summary"]["seats"]:
        s = seats.loc[row["seat"]]
        assert s["win_rate"] == pytest.approx(row["win_rate"])
        assert s["mean_score"] == pytest.approx(row["mean_score"])
        assert s["mean_bet_points"] == pytest.approx(row["bet_points"])
    ov = res["overview"].set_index("metric")["value"]
    assert ov["tiebreak_share"] == pytest.approx(manifest["summary"]["tiebreak_share"])
    assert ov["race_length_mean"] == pytest.approx(manifest["summary"]["turns"]["mean"])


def test_write_report_from_an_in_memory_aggregator(tables, run_dir, tmp_path):
    s = LemmingMafiaStats()
    s.add(tables)
    manifest = json.loads((run_dir / "manifest.json").read_text())
    out = write_report(s.result(), manifest, tmp_path)  # a directory: report.html inside
    assert out == tmp_path / "report.html" and out.is_file()


# ---------------------------------------------------------------------- bad run directories


def one_line_error(run, match):
    with pytest.raises(AnalyzerError, match=match) as info:
        build_report(run)
    assert "\n" not in str(info.value)


def test_missing_dir(tmp_path):
    one_line_error(tmp_path / "nope", "does not exist")


def test_not_a_dir(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    one_line_error(f, "not a directory")


def test_missing_manifest(run_dir, tmp_path):
    run = copy_run(run_dir, tmp_path)
    (run / "manifest.json").unlink()
    one_line_error(run, "no manifest.json")


def test_broken_manifest(run_dir, tmp_path):
    run = copy_run(run_dir, tmp_path)
    (run / "manifest.json").write_text("{not json")
    one_line_error(run, "cannot be read as JSON")


@pytest.mark.parametrize("complete", [None, False, "yes"])
def test_incomplete_run(run_dir, tmp_path, complete):
    run = copy_run(run_dir, tmp_path)
    m = json.loads((run / "manifest.json").read_text())
    if complete is None:
        del m["complete"]
    else:
        m["complete"] = complete
    (run / "manifest.json").write_text(json.dumps(m))
    one_line_error(run, "incomplete run")


def test_wrong_game(run_dir, tmp_path):
    run = copy_run(run_dir, tmp_path)
    m = json.loads((run / "manifest.json").read_text())
    m["game"] = "camel-up"
    (run / "manifest.json").write_text(json.dumps(m))
    one_line_error(run, "run of 'camel-up', a game this analyzer does not know")


@pytest.mark.parametrize("table", TABLES)
def test_missing_table(run_dir, tmp_path, table):
    run = copy_run(run_dir, tmp_path)
    (run / f"{table}.parquet").unlink()
    one_line_error(run, f"lacks the table {table}.parquet")


def test_corrupt_table(run_dir, tmp_path):
    run = copy_run(run_dir, tmp_path)
    (run / "bets.parquet").write_bytes(b"not parquet at all")
    one_line_error(run, "cannot read .*bets.parquet")


def test_table_without_a_column(run_dir, tmp_path):
    run = copy_run(run_dir, tmp_path)
    df = pd.read_parquet(run / "players.parquet").drop(columns=["won"])
    df.to_parquet(run / "players.parquet")
    one_line_error(run, "players.parquet lacks the columns won")


def test_races_count_mismatch(run_dir, tmp_path):
    run = copy_run(run_dir, tmp_path)
    m = json.loads((run / "manifest.json").read_text())
    m["races"] = 5
    (run / "manifest.json").write_text(json.dumps(m))
    one_line_error(run, "holds 3,000 rows but the manifest says 5")


def test_a_3000_race_report_leads_with_its_scorecard(report):
    """On the default table at 3,000 races a table: the scorecard comes before the table
    of contents, and its seat line leads with the answer in the question's words, then
    the evidence per table (every open table named with the races that would settle
    it, or why none can be promised), the interval and threshold, the players; it links
    to the answer by the question's key; its text is saved beside the page for the
    console and its numbers, per table and key, as scorecard.csv."""
    path, page = report
    start = page.index('<section id="scorecard">')
    assert start < page.index('<nav class="toc">') < page.index('<h2 id="answers">')
    card = page[start:page.index("</section>", start)]
    seat = re.search(r'<li class="q q-first_seat_edge"><span class="ev ev-([a-z-]+)">[^<]*</span>'
                     r'<b class="answer">([^<]*)</b><a href="#answer-first_seat_edge">Is the first seat '
                     r'favoured\?</a><br><span class="why">([^<]*)<i>([^<]*)</i></span></li>', card)
    assert seat, card
    word, answer, evidence, holds = seat.groups()
    assert word in ("shown", "ruled-out", "not-enough", "depends")
    assert answer.startswith(("SEAT 1 FAVOURED", "SEAT 1 HANDICAPPED", "NO SEAT 1 EDGE", "SEAT 1 EDGE NOT SETTLED",
                              "DEPENDS ON THE BOTS")), answer
    assert "seat 1 against the average seat" in evidence and "threshold ±1.0 pp" in evidence
    assert holds == "each bot in every seat; 4 players"
    frame = pd.read_csv(path.parent / "report_files" / "scorecard.csv")
    rows = frame[frame["key"] == "first_seat_edge"].set_index("table")
    assert list(rows.index) == ["favourite", "timer", "contractor", "random", "all"]
    assert rows.loc["all", "answer"] == html.unescape(answer)
    for label, r in rows.drop(index="all").iterrows():
        assert r["n"] == 3000 and r["unit"] == "races" and r["threshold"] == 0.01
        if r["word"] == "not enough":  # each open table named, with what would settle it
            assert f"{label}: " in html.unescape(evidence) or f"{label}, " in html.unescape(evidence)
            assert r["needed"].startswith("about ") or r["needed"] == "may sit on the threshold"
    dt = re.search(r'<dt id="answer-first_seat_edge" class="q q-first_seat_edge">.*?</dt><dd>(.*?)</dd>', page,
                   re.S).group(1)
    assert html.unescape(dt).startswith(html.unescape(answer) + ". ")
    text = (path.parent / "report_files" / "scorecard.txt").read_text(encoding="utf-8")
    assert text.startswith("Scorecard\n") and f"  {html.unescape(answer)} — Is the first seat favoured? " in text
    assert api.scorecard_text(path) == text.rstrip("\n")  # what `report` prints before the path
