"""The Sau Mau Mau replay tells each race's result (why it ended, the winning pig,
the bet queue with each bet's points, the race points) as its tables record it,
logs each draw once (with what the player could have played), and ends with who
wins the game and why."""
import html
import re

import pytest

from analyzer.engine.botspec import BotSpec
from analyzer.games.sau_mau_mau.match import SauMauMauMatch
from analyzer.report.replay import render_html, sections_of

BOTS = ["backer", "tempo", "switcher", "random"]


@pytest.fixture(scope="module")
def replays():
    match = SauMauMauMatch(None, 4, [BotSpec(b) for b in BOTS])
    return [match.replay(5, index) for index in (0, 3, 11)]


def test_each_race_ends_with_its_result_as_the_tables_hold_it(replays):
    for r in replays:
        ends = [s.text for s in r.steps if s.kind == "end"]
        races, bets, players = r.tables["races"], r.tables["bets"], r.tables["players"]
        assert len(ends) == len(races) == 4
        for text, race in zip(ends, races.itertuples()):
            assert text.startswith(f"race {race.race} ends: ")
            assert f"winning pig{'s' if ',' in race.winning_pigs else ''}: {race.winning_pigs};" in text
            if race.end == "crown":
                assert f"{race.crown_pig} reaches the crown" in text
            queue = bets[bets["race"] == race.race].sort_values("queue_position")
            told = re.findall(r"(\d+)\. seat (\d) \(\w+\) on (\w+): (\+\d+|returned)", text)
            assert [(int(q), int(s), p) for q, s, p, _ in told] == list(
                zip(queue["queue_position"], queue["seat"], queue["pig"]))
            assert [pts for *_, pts in told] == [f"+{b.points}" if b.won else "returned"
                                                 for b in queue.itertuples()]
            points = players[players["race"] == race.race]
            assert text.endswith("race points: " + ", ".join(f"seat {p.seat} {p.race_points}"
                                                             for p in points.itertuples()))


def test_each_draw_is_told_once_and_sums_to_the_cards_drawn(replays):
    for r in replays:
        drawn = {}
        race = 0
        for s in r.steps:
            if s.kind == "deal":
                race = int(s.text.split(":")[0].removeprefix("race "))
            assert not re.search(r" draws( \(|$)", s.text), s.text  # the old bare "draws" line is gone
            m = re.match(r"seat (\d) \(\w+\) draws (\d+) cards?", s.text)
            if m:
                key = (race, int(m.group(1)))
                drawn[key] = drawn.get(key, 0) + int(m.group(2))
        players = r.tables["players"]
        assert drawn == {(p.race, p.seat): p.cards_drawn for p in players.itertuples() if p.cards_drawn}


def test_the_game_ends_with_who_wins_and_why(replays):
    for r in replays:
        games = r.tables["games"]
        winners = games[games["won"]]
        for w in winners.itertuples():
            assert f"seat {w.seat} ({w.bot})" in r.outcome
        assert f"the most points after four races, {winners['total'].iloc[0]} (" in r.outcome
        page = render_html(r)
        assert page.index(html.escape(r.outcome)) < page.index("<details class=turn>")
        # one collapsible block per race, its summary line saying how the race ended
        head, sections = sections_of(r)
        assert len(sections) == 4 and page.count("<details class=turn>") == 4
        assert all(any(s.kind == "end" for s in steps) for _, steps in sections)
        assert page.count(" → race ") == 4
