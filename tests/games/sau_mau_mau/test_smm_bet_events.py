"""The bet_events table holds every bet card laid, as the kernel saw it: one row per
card counted in players.bets_placed, the changes are players.bets_changed, the cards
still in the queue at the end are exactly the bets table, and each change names the
pig of the card it took out of the queue at that very turn."""
import pandas as pd
import pytest

from analyzer.engine.botspec import BotSpec
from analyzer.engine.simulate import simulate
from analyzer.games.sau_mau_mau.match import SauMauMauMatch
from tests.games.test_record_hashes import Collect

KEY = ["game", "race", "seat"]


@pytest.fixture(scope="module")
def tables():
    match = SauMauMauMatch(None, 4, [BotSpec(b) for b in ("backer", "tempo", "switcher", "random")])
    sink = Collect()
    simulate(match, 300, 11, threads=2, chunk_size=70, progress=False, stats=sink)
    return {name: pd.concat(parts, ignore_index=True) for name, parts in sink.tables.items()}


def test_every_card_laid_is_a_row(tables):
    ev, pl = tables["bet_events"], tables["players"]
    counts = ev.groupby(KEY).agg(placed=("event", "size"), changed=("change", "sum"))
    expect = pl[pl["bets_placed"] > 0].set_index(KEY)[["bets_placed", "bets_changed"]]
    assert counts["placed"].sum() == pl["bets_placed"].sum() > 1000
    assert (counts["placed"] == expect["bets_placed"]).all() and (counts["changed"] == expect["bets_changed"]).all()
    # events of a race are numbered in laying order
    assert (ev.groupby(["game", "race"])["event"].diff().dropna() == 1).all()
    assert (ev.groupby(["game", "race"])["turn_placed"].diff().dropna() >= 0).all()


def test_the_cards_left_in_the_queue_are_the_bets_table(tables):
    ev, bets = tables["bet_events"], tables["bets"]
    final = ev[ev["in_final_queue"]].sort_values(KEY).reset_index(drop=True)
    b = bets.sort_values(KEY).reset_index(drop=True)
    cols = ["game", "race", "seat", "pig", "queue_position", "turn_placed", "points", "won"]
    pd.testing.assert_frame_equal(final[cols], b[cols], check_dtype=False, check_categorical=False)
    assert (final["change"] == b["changed"]).all()
    away = ev[~ev["in_final_queue"]]
    assert len(away) > 0 and (away["points"] == 0).all() and (away["queue_position"] == 0).all()


def test_each_change_replaces_the_players_card_before_it(tables):
    ev = tables["bet_events"].sort_values(KEY + ["event"])
    before = ev.groupby(KEY).shift(1)
    changes = ev[ev["change"]]
    prev = before.loc[changes.index]
    assert len(changes) > 100
    assert (changes["changed_from"].astype(str) == prev["pig"].astype(str)).all()
    assert (prev["turn_changed_away"] == changes["turn_placed"]).all()
    assert (changes["queue_position_placed"] <= 4).all()
    firsts = ev[~ev["change"]]
    assert (firsts["changed_from"].astype(str) == "").all() and not firsts["changed_from_won"].any()
    # a player's card is changed away only by its next card
    last = ev.groupby(KEY).tail(1)
    assert last["in_final_queue"].all()
