"""Plain words in the reports: no degenerate interval is
printed ("exact" instead), every report page carries the glossary, Mafia's
cards read as on the rules page, Lemminge's pushes read as gains, and a
question the run cannot answer says why."""
import html
import re

import numpy as np
import pandas as pd
import pytest

from analyzer.cli import main
from analyzer.report import glossary, write_report
from analyzer.report.text import num_ci, pct_ci, pp_ci
from analyzer.stats.evidence import EXACT, span, verdict


# ---------------------------------------------------------------------- formatters


def test_an_interval_without_width_reads_exact():
    assert pct_ci(0.268, 0.268, 0.268) == "26.8% (exact)"
    assert pp_ci(0.0, 0.0, 0.0) == "+0.0 pp (exact)"
    assert pp_ci(1 / 3, 1 / 3, 1 / 3) == "+33.3 pp (exact)"
    assert num_ci(3.0, 3.0, 3.0) == "3.00 (exact)"
    assert num_ci(0.0, 0.0, 0.0, sign=True) == "+0.00 (exact)"
    assert span(0.5, 0.5, str) == EXACT
    assert verdict(0.0, 0.0, 0.0, 0.01, 100).number == "+0.0 pp (exact)"


def test_an_interval_with_width_keeps_its_bounds():
    assert pct_ci(0.268, 0.251, 0.286) == "26.8% (25.1%–28.6%)"
    assert pp_ci(0.012, 0.004, 0.020) == "+1.2 pp (95% CI +0.4 to +2.0)"
    assert num_ci(3.1, 2.95, 3.25) == "3.10 (2.95 to 3.25)"
    assert verdict(0.02, 0.012, 0.028, 0.01, 100).number == "+2.0 pp (95% CI +1.2 to +2.8)"


def test_narrow_bounds_that_would_print_alike_get_more_digits():
    """26.8-26.8 would read as no uncertainty where there is some."""
    assert pct_ci(0.2680, 0.26795, 0.26815) == "26.8% (26.80%–26.82%)"
    assert pp_ci(0.5, 0.49996, 0.50004) == "+50.0 pp (95% CI +49.996 to +50.004)"
    text = num_ci(2.0, 1.9999, 2.0001)
    low, high = re.search(r"\((\S+) to (\S+)\)", text).groups()
    assert low != high


# ---------------------------------------------------------------------- the glossary


def test_the_glossary_names_the_terms_the_answers_use():
    block = glossary.html_block()
    assert block.startswith('<details class="glossary"') and block.endswith("</details>")
    for term in ("controlled table", "intervention", "hindsight", "Cochran's Q", "Holm", "eta squared", "Wilson",
                 "clustered interval", "shown", "ruled out", "not enough races", "exact"):
        assert term in html.unescape(block), term


GAMES = {"lemming-mafia": 60, "sau-mau-mau": 20, "lemminge": 40, "mafia": 40}


@pytest.fixture(scope="module")
def results():
    """Each game's result tables and manifest of a small run of its default table."""
    from analyzer import api
    from analyzer.games import new_stats

    out = {}
    for game, n in GAMES.items():
        run = api.simulate(game, n, threads=1, progress=False)
        stats = new_stats(game)
        for tables in run._chunks:  # what Run.report feeds, without its controlled tables
            stats.add(tables)
        out[game] = (stats.result(), run.manifest)
    return out


@pytest.fixture(scope="module")
def pages(results, tmp_path_factory):
    """Each game's balance report of a small run (no controlled tables: cheap)."""
    out = {}
    for game, (res, manifest) in results.items():
        path = write_report(res, manifest, tmp_path_factory.mktemp(game) / "r.html", controlled=None)
        out[game] = path.read_text(encoding="utf-8")
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_report_page_carries_the_glossary_once(pages, game):
    page = pages[game]
    assert page.count('id="glossary"') == 1 and glossary.html_block() in page
    assert page.index('id="scorecard"') < page.index('id="glossary"')  # the scorecard stays first


def test_the_tournament_page_carries_the_glossary(tmp_path):
    target = tmp_path / "t.html"
    try:
        main(["tournament", "lemming-mafia", "--bots", "random,timer", "--players", "3", "--races", "60",
              "--threads", "1", "--no-progress", "--report", str(target)])
    except SystemExit as e:
        assert e.code in (0, None)
    assert glossary.html_block() in target.read_text(encoding="utf-8")


# ---------------------------------------------------------------------- games' words


def test_mafia_cards_and_outcomes_read_as_on_the_rules_page(pages):
    from analyzer.games.mafia import layout as L
    from analyzer.games.mafia.report import card_title, outcome_title

    assert card_title("ati_strike") == "ATI strike" and card_title("sisde_pair") == "SISDE clue pair"
    assert all(card_title(n) != n for n in L.CARD_CATEGORIES)  # every played card has a title
    assert outcome_title("all_lose") == "everyone loses"
    page = pages["mafia"]
    for code in L.CARD_CATEGORIES:  # never a code name on the page (the CSV file keeps them)
        assert f">{code}<" not in page and f" {code} " not in page, code


def test_mafia_answers_say_which_player_counts_were_not_played(pages):
    page = pages["mafia"]  # a 5-player run
    assert "Not measured at 3 players: this run played 5 players only" in page
    assert "markers are placed on" in page and "Per game" in page


def test_mafia_bases_say_cannot_tell_when_the_bots_always_pick_one():
    from analyzer.games.mafia.report import _bases, _bases_table

    fixed = {"bases": pd.DataFrame({"players": [5, 5], "side": ["red", "black"], "base": ["Palermo", "Enna"],
                                    "share": [1.0, 1.0], "win_rate": [0.3, 0.2]})}
    assert _bases(fixed).startswith("Cannot tell: the bots always pick the same base (red always took Palermo")
    mixed = {"bases": pd.DataFrame({"players": [5, 5, 5], "side": ["red", "red", "black"],
                                    "base": ["Palermo", "Enna", "Enna"], "share": [0.4, 0.6, 1.0],
                                    "win_rate": [0.3, 0.2, 0.25], "low": [0.25, 0.15, 0.2],
                                    "high": [0.35, 0.25, 0.3]})}
    text = _bases(mixed)
    assert "the largest gap is red at 5 players, Palermo 30.0% (40% of games) against Enna 20.0% (60% of games)" \
        in text and "No comparison for black always took Enna" in text
    headers, rows = _bases_table(mixed)  # every value in a table under the answer
    assert headers[:3] == ["family", "players", "base"]
    assert rows == [["red", 5, "Palermo", "30.0% (25.0%–35.0%)", "40%"], ["red", 5, "Enna", "20.0% (15.0%–25.0%)", "60%"]]


def test_lemminge_pushes_read_as_distance_gained(pages):
    from analyzer.games.lemminge.report.text import pushes

    res = {"pushes": pd.DataFrame({"pushes": [0, 1, 2], "moves": [80, 15, 5], "share": [0.8, 0.15, 0.05],
                                   "setback": [0.0, -0.6, -1.4]})}
    text = pushes(res)
    assert "closer to the finish" in text and "-" not in re.sub(r"\d-\d|[a-z]-[a-z]", "", text)
    page = pages["lemminge"]
    assert "-0.00" not in page  # a move that pushes nobody gains 0.00, not "-0.00"
    assert "distance the pushed gained" in page and "setback of the pushed" not in page
    assert "Which terrain decides games cannot be told" in page


@pytest.mark.parametrize("game,table,column,per_game", [("mafia", "spaces", "markers_placed", "markers_placed"),
                                                        ("lemminge", "hexes", "tiles_placed", "tiles_placed")])
def test_a_report_counts_a_summed_table_once(game, table, column, per_game):
    """A table summed per chunk and again at the end of the run (Mafia's spaces,
    Lemminge's hexes) reaches the report once: its counts add up to the games'."""
    from analyzer import api
    from analyzer.games import new_stats

    run = api.simulate(game, 300, threads=2, chunk=100, progress=False)
    stats = new_stats(game)
    for tables in run._chunks:  # what Run.report and simulate --report feed the report
        stats.add(tables)
    played = int(run.tables["games" if game == "mafia" else "players"][per_game].sum())
    assert played > 0 and int(stats.result()[table][column].sum()) == played


def test_sau_mau_mau_queue_shares_alike_in_every_place_are_not_a_range():
    """"runs from 100% (1st) to 100% (4th)" says nothing: one share, and what it means."""
    from analyzer.games.sau_mau_mau.report.text import queue_position

    def res(shares):
        return {"queue_position": pd.DataFrame({
            "bot": "all", "queue_position": [1, 2, 3, 4], "bets": 100, "mean_points": [6.0, 4.0, 3.0, 2.0],
            "points_low": [5.9, 3.9, 2.9, 1.9], "points_high": [6.1, 4.1, 3.1, 2.1], "win_share": shares})}

    text = queue_position(res([0.9991, 0.9985, 0.9993, 0.9990]))
    assert "runs from" not in text and "99.9% of the bets in every place of the queue are on a winning pig" in text
    assert "betting almost never loses" in text
    assert "runs from 88% (2nd) to 95% (4th)" in queue_position(res([0.90, 0.88, 0.91, 0.95]))
    text = queue_position(res([0.997, 0.995, 0.996, 0.9955]))
    assert "runs from 99.5% (2nd) to 99.7% (1st); betting almost never loses" in text
    assert "never loses" not in queue_position(res([0.90, 0.88, 0.91, 0.95]))


def test_lemminge_hands_answer_puts_the_seats_in_a_table():
    """The per-seat values of the starting-hands answer are a table, not a list in the sentence."""
    from analyzer import api
    from analyzer.games import new_stats
    from analyzer.games.lemminge.report import answers
    from analyzer.report.controlled import Controlled

    run = api.simulate("lemminge", 200, bots="random", threads=1, progress=False)
    stats = new_stats("lemminge")
    for tables in run._chunks:
        stats.add(tables)
    res = stats.result()
    a = answers(res, run.manifest, Controlled({}, {}, "none asked for"))[0]
    assert a.question.startswith("Do the starting hands") and "the table of seats below" in a.text
    assert "(3 cards)" not in a.text
    assert len(a.tables) == 1  # no controlled table: the seats' table only
    headers, rows = a.tables[-1]
    assert headers[:2] == ["seat", "starting hand"] and [r[:2] for r in rows][0] == [1, "3 cards"]
    assert len(rows) == 4 and all(" pp (" in r[2] for r in rows)


# ---------------------------------------------------------------------- every answer of every game


NUMBER = re.compile(r"(?<![\w.])[+\-−]?\d[\d,]*(?:\.\d+)?(?:%|x)?(?!\w)")  # 1st, 2nd are ordinals, not numbers


def answer_prose(page: str):
    """(question, text) of every answer on a page, its tables, scope and method left out."""
    for m in re.finditer(r'<dt id="answer-[\w-]+" class="q q-[\w-]+">(.*?)</dt><dd>(.*?)</dd>', page, re.S):
        body = re.split(r'<a href=|<div class="scroll">|<p class="how">', m.group(2))[0]
        yield html.unescape(re.sub("<[^>]+>", "", m.group(1))), html.unescape(re.sub("<[^>]+>", " ", body))


def _top_level(sentence: str) -> list[str]:
    """A sentence cut at its commas and semicolons outside parentheses."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(sentence):
        depth += (c == "(") - (c == ")")
        if depth == 0 and c in ",;" and sentence[i + 1:i + 2] == " ":
            parts.append(sentence[start:i].strip())
            start = i + 1
    return parts + [sentence[start:].strip()]


LABEL = re.compile(r"\((?:seats?|race) [\d,]+\)")  # "(seat 3)", "(race 1)": names, not numbers


def number_lists(text: str, items: int = 4, numbers: int = 5) -> list[str]:
    """Lists of numbers in prose: ``items`` or more consecutive parts of a sentence
    (cut at its commas and semicolons) that each name something and give its number,
    more than ``numbers`` numbers in all ("backer -0.36 (-0.53 to -0.19), tempo
    +0.40 (+0.24 to +0.56), ..."), and per-item findings one after another
    (``labelled_lists``: "favourite: not enough races (... +0.6 pp ...). random: ...").
    A table belongs there."""
    found = []
    for sentence in re.split(r"(?<=\.)\s+", LABEL.sub("", text)):
        run = []
        for part in _top_level(sentence) + [""]:
            if part[:1].isalpha() and NUMBER.search(part):
                run.append(part)
                continue
            if len(run) >= items and sum(len(NUMBER.findall(p)) for p in run) > numbers:
                found.append(", ".join(run))
            run = []
    return found + labelled_lists(text)


# a label and a colon at the start of a text, a sentence or a clause: "favourite: ", "a 1: ", "raider: "
LABELLED = re.compile(r"(?:^|(?<=[.:;)] ))([A-Za-z][\w'+=.-]*(?: [\w'+=.-]+){0,5}): ")


def _shape(body: str, words: int = 6) -> set[str]:
    """The first ``words`` words of a labelled part, numbers left out: what two parts
    that say the same thing of two items share."""
    return set(re.findall(r"[a-z]+", NUMBER.sub(" ", body.lower()))[:words])


def labelled_lists(text: str, numbers: int = 2) -> list[str]:
    """Per-item findings in prose: two or more parts led by different labels ("bot:
    ...") that each give ``numbers`` or more numbers and read alike (half the first
    words of the shorter shared): the same finding told item by item, as the
    structural answers once told each controlled table's verdict ("favourite: not
    enough races (seat 1 ... +0.6 pp (...)) ... random: not enough races (...)").
    Parts that read differently are one finding's parts ("Comebacks: in 29.5% ...
    Length: 33.5 ..."), not a list."""
    text = LABEL.sub("", text)
    starts = list(LABELLED.finditer(text))
    parts = [(m.group(1), text[m.end():nxt.start() if nxt else len(text)])
             for m, nxt in zip(starts, starts[1:] + [None])]
    parts = [(label, body) for label, body in parts if len(NUMBER.findall(body)) >= numbers]
    found = []
    for i, (label, body) in enumerate(parts):
        for other, body2 in parts[i + 1:]:
            a, b = _shape(body), _shape(body2)
            if other != label and a and b and len(a & b) >= min(len(a), len(b)) / 2:
                found.append(f"{label}: {body.strip()} / {other}: {body2.strip()}")
    return found


def test_a_list_of_numbers_in_prose_is_found():
    """The lists the reports used to print, and sentences that are not lists."""
    for text in ("Changed minus first, per bot: backer -0.36 (-0.53 to -0.19), tempo +0.40 (+0.24 to +0.56), "
                 "switcher +0.28 (+0.13 to +0.44), random -0.01 (-0.17 to +0.16).",
                 "Win rate with each base: black at 5 players: Catania 25.7% (47% of games), Enna 23.0% (53% of "
                 "games); green at 5 players: Enna 23.2% (46% of games), Catania 21.4% (54% of games).",
                 "cards blue is named first 1x and second 0x, purple is named first 1x and second 0x, grey is "
                 "named first 0x and second 1x, pink is named first 0x and second 1x."):
        assert number_lists(text), text
    # the structural answers' per-bot verdicts, as they were told before their table
    for text in ("Not enough races — not settled at 200 races a table: favourite, random do not decide it; about "
                 "83,000 races per table would settle it if the spread stays as observed (each of the 2 bots in every "
                 "seat, on the same deals): favourite: not enough races (seat 1 against the average seat +0.6 pp "
                 "(simultaneous 95% CI -7.0 to +8.3), threshold ±1.0 pp; about 83,000 races would settle it if the "
                 "spread stays as observed): seat 1 wins 30.5% (24.5%–37.2%), +0.6 pp (95% CI -5.4 to +6.7) against "
                 "the average seat; all 4 seats are within sampling error of a fair 29.9% (joint test p = 0.93). "
                 "random: not enough races (seat 1 against the average seat -2.3 pp (simultaneous 95% CI -9.6 to "
                 "+5.1), threshold ±1.0 pp; about 7,000 races would settle it if the spread stays as observed): seat "
                 "1 wins 24.5% (19.1%–30.9%), -2.2 pp (95% CI -8.1 to +3.6) against the average seat; all 4 seats are "
                 "within sampling error of a fair 26.8% (joint test p = 0.15).",
                 "It depends on the bots (each in every seat, on the same deals): the bots decide it differently: "
                 "shown with tempo, ruled out with random. tempo: shown (the starter against the other seats of the "
                 "race -0.73 race points (95% CI -0.94 to -0.53), threshold ±0.50 race points): No, it is a "
                 "disadvantage: the player who starts a race scores 4.04 race points on average. random: ruled out "
                 "(the starter against the other seats of the race +0.09 race points (95% CI -0.14 to +0.32), "
                 "threshold ±0.50 race points): No detectable advantage: the player who starts a race scores 2.08.",
                 "It depends on the bots (each in every seat, on the same deals): favourite: a race lasts 26.8 moves "
                 "on average (median 28); 90% of races take 14–38 moves. (mean 95% CI 25.9–27.8) random: a race "
                 "lasts 42.8 moves on average (median 43); 90% of races take 28–54 moves. (mean 95% CI 41.7–43.9)",
                 "The same answer with each of the 2 bots in every family seat (state seat: hunter): raider: Games "
                 "last 6.3 (5.8 to 6.8) calendar turns at 5 players. expander: Games last 4.0 (3.6 to 4.4) calendar "
                 "turns at 5 players.",
                 "never gained more (progress per card value: a 1: -2.07 (-2.16 to -1.99) hexes; a 2: -1.88 (-1.98 "
                 "to -1.77) hexes; a 3: -1.59 (-1.79 to -1.40) hexes); an association."):
        assert labelled_lists(text) and number_lists(text), text
    for text in ("Comebacks: in 29.5% (23.6%–36.2%) of races the winner was not leading at the half. No single "
                 "winner: 0.0% of races. Length: 33.5 (32.4 to 34.7) moves.",
                 "No: 1 of 4 seats differs from a fair 25.0% by 1 pp or more beyond chance (seat 4 18.7%).",
                 "Not enough races — not settled at 200 races a table: favourite, random do not decide it; about "
                 "83,000 races per table would settle it if the spread stays as observed (each of the 2 bots in "
                 "every seat, on the same deals). Per bot, and last this run's own table of mixed bots: the table "
                 "below."):
        assert not number_lists(text), text
    for text in ("seat 1 wins 28.4% (26.5%–30.4%), -0.6 pp (95% CI -2.6 to +1.3) against the average seat; all 4 "
                 "seats are within sampling error of a fair 29.0% (joint test p = 0.2).",
                 "5 of 6 colours differ from a fair 16.7% (blue 20.8%, grey 13.0%, purple 21.9%, pink 12.2%).",
                 "backer: 94.8% of races end by the crown, 4.8% by a player playing out, 0.4% both at once.",
                 "in calendar order: red 2.5%, black 4.5%, orange 4.5%, green 6.0%.",
                 "this describes these bots: favourite (seat 1), random (seat 2), favourite (seat 3), random (seat 4)."):
        assert not number_lists(text), text


@pytest.mark.parametrize("game", GAMES)
def test_no_answer_lists_numbers_in_prose(pages, game):
    lists = [(q, found) for q, text in answer_prose(pages[game]) for found in number_lists(text)]
    assert not lists, lists


WITHOUT_WIDTH = re.compile(r"\((?:(?:simultaneous )?95% CI )?([+\-]?\d[\d.,]*%?)(?:–| to )\1\)")


@pytest.mark.parametrize("game", GAMES)
def test_no_interval_without_width_is_printed(pages, game):
    """"(26.8%–26.8%)" reads as certainty where there may be none: "exact" or more digits."""
    text = html.unescape(re.sub("<[^>]+>", " ", pages[game]))
    assert not WITHOUT_WIDTH.findall(text)
    assert WITHOUT_WIDTH.search("wins 26.8% (26.8%–26.8%) of races") and WITHOUT_WIDTH.search("(+0.00 to +0.00)")


# the statistical words the answers may use, each with the glossary term that explains it
JARGON = {"Cochran's Q": "Cochran's Q", "Holm": "Holm correction", "eta squared": "eta squared",
          "Wilson": "Wilson interval", "clustered": "clustered interval", "simultaneous": "simultaneous interval",
          "paired": "paired", "hindsight": "hindsight", "intervention": "intervention",
          "observational": "observational (association)", "common random numbers": "common random numbers",
          "equivalence test": "equivalence test", "t interval": "t interval", "Student t": "t interval",
          "chi-square": "chi-square test, z test", "z test": "chi-square test, z test",
          "joint test": "joint test, p", "sd ": "sd (standard deviation)", "controlled table": "controlled table",
          "mixed table": "mixed table", "practical threshold": "practical threshold", " pp": "pp (percentage points)"}


@pytest.mark.parametrize("game", GAMES)
def test_the_glossary_explains_the_statistical_words_on_the_page(pages, game):
    page = pages[game]
    text = html.unescape(re.sub("<[^>]+>", " ", page[page.index("</details>"):]))  # after the glossary itself
    terms = {t for t, _ in glossary.TERMS}
    used = [word for word in JARGON if word in text]
    assert used and all(JARGON[word] in terms for word in used), [w for w in used if JARGON[w] not in terms]


SHARE_LABEL = re.compile(r"\bshare\b|\brate\b|chance|%|percent", re.I)


@pytest.mark.parametrize("game", GAMES)
def test_share_axes_are_in_percent(results, game):
    """An axis of shares (its label says share, rate, chance or %) prints percent,
    never fractions (0.2 under a percent title)."""
    from analyzer.games import game_info

    res, manifest = results[game]
    checked = 0
    for key, _, draw, _ in game_info(game).load("report").FIGURES:
        fig = draw(res, manifest)
        fig = fig[0] if isinstance(fig, tuple) else fig
        if fig is None:
            continue
        for ax in fig.axes:
            for axis, label in ((ax.xaxis, ax.get_xlabel()), (ax.yaxis, ax.get_ylabel())):
                if not SHARE_LABEL.search(label) or "percentage points" in label or axis.get_scale() != "linear":
                    continue
                locs = [v for v in axis.get_majorticklocs() if np.isfinite(v)]
                ticks = axis.get_major_formatter().format_ticks(locs)
                if type(axis.get_major_formatter()).__name__ == "FixedFormatter" or not locs:
                    continue  # categories, not a scale
                checked += 1
                fractions = max(abs(v) for v in locs) <= 1.5 and not any("%" in t for t in ticks)
                assert not fractions, (key, label, ticks)
    assert checked


def unlinked_answers(page: str) -> list[str]:
    """The answers of a page without a link to a figure drawn on it."""
    figures = set(re.findall(r'<figure id="([^"]+)">', page))
    out = []
    for m in re.finditer(r'<dt id="answer-[\w-]+" class="q q-[\w-]+">(.*?)</dt><dd>(.*?)</dd>', page, re.S):
        link = re.search(r'<a href="#([^"]+)">\(figure\)</a>', m.group(2))
        if not link or link.group(1) not in figures:
            out.append(html.unescape(re.sub("<[^>]+>", "", m.group(1))))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_answer_links_to_a_chart_on_the_page(pages, game):
    assert not unlinked_answers(pages[game])
