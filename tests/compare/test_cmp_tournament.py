"""Tournaments: the seatings are balanced, real bots are ranked sensibly, the
report and the command line work."""
import re
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from analyzer.engine.botspec import parse_bot_list
from analyzer.engine.tournament import planned_races, render, rotations, tables, tournament
from analyzer.errors import AnalyzerError
from analyzer.games.lemming_mafia.match import LemmingMafiaMatch
from analyzer.report.tournament import write_tournament_report
from tests.cli_support import run




def seat_counts(table_list, n_bots, players):
    counts = np.zeros((n_bots, players), int)
    for table in table_list:
        for seating in rotations(table):
            for seat, b in enumerate(seating):
                counts[b, seat] += 1
    return counts


@pytest.mark.parametrize("n_bots, players, n_tables", [(5, 4, 5), (6, 3, 20), (4, 4, 1), (2, 4, 2), (3, 5, 3)])
def test_round_robin_is_balanced(n_bots, players, n_tables):
    tl = tables(n_bots, players)
    assert len(tl) == n_tables
    if n_bots >= players:
        assert all(len(set(t)) == players for t in tl)  # distinct bots at a table
    counts = seat_counts(tl, n_bots, players)
    assert np.all(counts == counts[0, 0])  # every bot in every seat equally often


@pytest.mark.parametrize("n_bots, players", [(5, 4), (3, 4), (2, 3)])
def test_gauntlet(n_bots, players):
    tl = tables(n_bots, players, gauntlet=0)
    assert all(t[0] == 0 for t in tl)
    field = Counter(b for t in tl for b in t[1:])
    assert set(field) == set(range(1, n_bots)) and len(set(field.values())) == 1
    counts = seat_counts(tl, n_bots, players)
    assert len(set(counts[0])) == 1  # the gauntlet bot sits in every seat equally


def test_rotations():
    assert rotations((0, 1, 2)) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert planned_races(5, 4, 1000) == 5 * 4 * 50


@pytest.fixture(scope="module")
def make_match():
    def make(table):
        return LemmingMafiaMatch(None, len(table), table)
    make(parse_bot_list("random") * 3).warm_up()
    return make


@pytest.fixture(scope="module")
def small(make_match):
    specs = parse_bot_list("timer,random,favourite,contractor")
    return tournament(make_match, specs, 3, 4_800, 3, threads=2)


def test_tournament_ranks_random_last(small):
    r = small
    assert r.races == 4 * 3 * 400 and r.deals == 400
    elo = dict(zip(r.labels, r.ratings.elo))
    assert min(elo, key=elo.get) == "random"
    lo, hi = r.ratings.elo_interval
    rnd = r.labels.index("random")
    assert hi[rnd] < np.delete(lo, rnd).min()  # clearly last
    share, games = r.counts.win_matrix()
    assert np.all(np.delete(share[rnd], rnd) < 0.5)
    assert np.all(r.bots.n == 3 * 400 * 3)  # 3 tables, each with 3 rotations of 400 deals
    assert np.all(r.seats.n == r.races)
    assert r.setup["board"]["assumed"] is True
    text = render(r)
    assert "Elo" in text and "random" in text and "seat 3" in text


def test_tournament_is_reproducible_across_threads(make_match, small):
    again = tournament(make_match, small.specs, 3, 4_800, 3, threads=1)
    assert np.allclose(again.ratings.elo, small.ratings.elo)
    assert np.array_equal(again.bots.score, small.bots.score)


def test_duplicate_bot_is_refused(make_match):
    with pytest.raises(AnalyzerError, match="listed twice"):
        tournament(make_match, parse_bot_list("timer,random,timer"), 3, 100, 1, threads=1)


def test_report(small, tmp_path):
    page = write_tournament_report(small, tmp_path / "t.html")
    html = page.read_text()
    assert html.count("data:image/png;base64,") == 4
    assert "ASSUMED reconstruction" in html and "Elo" in html and "sandwich" in html
    for name in ("ratings.csv", "win_matrix.csv", "head_to_head.csv", "seats.csv", "ratings.png"):
        assert (tmp_path / "t_files" / name).is_file()
    # the scorecard first: each bot against the next in the rating order, then seat 1, in evidence words
    card = html[html.index('<section id="scorecard">'):html.index("</section>")]
    assert html.index('<section id="scorecard">') < html.index('<table class="meta">')
    assert card.count('<span class="ev ev-') == 4
    order = list(pd.read_csv(tmp_path / "t_files" / "ratings.csv")["bot"])
    assert f"{order[-2]}&#x27;s chance to outscore random, above 50%: +" in card and order[-1] == "random"
    # random is clearly last (the test above): the gap to it is far beyond 1 pp, said in words
    last = re.search(r'<span class="ev ev-([a-z-]+)">[^<]*</span><b class="answer">([^<]*)</b>'
                     r'<a href="#ratings">Ratings</a><br><span class="why">shown: '
                     rf"{order[-2]}&#x27;s chance to outscore random", card)
    assert last and last.group(1) == "shown"
    assert last.group(2).startswith(f"{order[-2].upper()} STRONGER THAN RANDOM: +")
    assert "an equal bot&#x27;s chance to outscore from seat 1 rather than an average seat" in card
    assert (tmp_path / "t_files" / "scorecard.txt").read_text().startswith("Scorecard\n")


def test_cli(tmp_path, capsys):
    toml = tmp_path / "late.toml"
    toml.write_text('family = "timer"\nname = "late-timer"\n[params]\nlate_bets = 0\n')
    report = tmp_path / "out" / "tour.html"
    code = run(["tournament", "lemming-mafia", "--bots", f"random,{toml}", "--gauntlet", "timer",
                "--players", 3, "--races", 600, "--threads", 2, "--no-progress", "--report", report])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "gauntlet: timer" in out and "late-timer" in out and report.is_file()


def test_cli_errors(capsys):
    code = run(["tournament", "lemming-mafia", "--bots", "random,nosuchbot", "--races", 100])
    _, err = capsys.readouterr()
    assert code == 2 and err.strip().count("\n") == 0 and "unknown bot 'nosuchbot'" in err
    code = run(["tournament", "lemming-mafia", "--bots", "random", "--races", 100])
    _, err = capsys.readouterr()
    assert code == 2 and "at least 2 bots" in err
