"""Invariants over many random games (the kernel checks after every turn that
every piece is on the map or in a box, that each family's 8 markers are on the
map or in its supply with one family per space and none on a city, and that
every card is in its deck or a hand that may hold it; a broken one stops the run
with an error) and over the records; reproducibility at any chunking."""
import numpy as np
import pytest

from analyzer.engine.botspec import BotSpec
from analyzer.engine.simulate import simulate
from analyzer.games.mafia import layout as L
from analyzer.games.mafia.match import MafiaMatch

GAMES = 3000


@pytest.fixture(scope="module", params=[3, 4, 5])
def played(request):
    players = request.param
    match = MafiaMatch(None, players, [BotSpec("random")] * players, check=True)
    return players, match, match.play(31, 0, GAMES).view()  # raises on any broken invariant


def test_markers_are_conserved(played):
    players, match, c = played
    g = c.games
    assert (g[:, L.GM_MARKERS_PLACED] - g[:, L.GM_MARKERS_REMOVED] == g[:, L.GM_MARKERS_ON_MAP]).all()
    families = [s for s in range(L.N_FAMILIES)]
    assert (c.sides[:, families, L.SD_MARKERS_END].sum(1) == g[:, L.GM_MARKERS_ON_MAP]).all()
    assert (c.sides[:, families, L.SD_SPACES_END] <= c.sides[:, families, L.SD_MARKERS_END]).all()
    assert (c.sides[:, families, L.SD_MARKERS_END] <= 8).all()


def test_outcomes_agree_with_the_records(played):
    players, match, c = played
    g = c.games
    outcome = g[:, L.GM_OUTCOME]
    won = c.sides[:, :, L.SD_WON]
    assert (won.sum(1) == np.isin(outcome, [L.OUT_STATE, L.OUT_RED, L.OUT_BLACK, L.OUT_ORANGE, L.OUT_GREEN])).all()
    family = (outcome >= L.OUT_RED) & (outcome <= L.OUT_GREEN)
    assert (g[family, L.GM_WINNER_SPACES] >= (5 if players == 3 else 4)).all()
    assert (g[outcome == L.OUT_STATE, L.GM_PURGE_HALVES] >= 8).all()
    assert ((outcome == L.OUT_ALL_LOSE).any()) == (players == 4)
    assert not (outcome == L.OUT_STATE).any() if players == 4 else (outcome == L.OUT_STATE).any()
    assert (g[:, L.GM_SIDE_TURNS] == c.sides[:, :, L.SD_SIDE_TURNS].sum(1)).all()
    assert (g[:, L.GM_HOLDS_ROADBLOCK] <= g[:, L.GM_HOLDS]).all()


def test_cards_played_are_counted_once(played):
    players, match, c = played
    g = c.games
    plays = g[:, L.GM_PLAYED_USA] + g[:, L.GM_PLAYED_ROME] + g[:, L.GM_PLAYED_SISDE]
    assert plays.sum() == c.sides[:, :, L.SD_CARDS_PLAYED].sum()
    pairs = (c.cards[:, L.CR_CARD] == L.PLAY_SISDE_PAIR).sum()
    assert len(c.cards) == g[:, L.GM_CARD_ROWS].sum() == plays.sum() - pairs
    drawn = g[:, L.GM_DRAWN_USA] + g[:, L.GM_DRAWN_ROME] + g[:, L.GM_DRAWN_SISDE]
    assert drawn.sum() == c.sides[:, :, L.SD_CARDS_DRAWN].sum()


def test_a_game_depends_only_on_the_seed_and_its_index():
    match = MafiaMatch(None, 5, [BotSpec("random")] * 5)
    whole = match.play(5, 0, 300).view()
    a, b = match.play(5, 0, 123).view(), match.play(5, 123, 177).view()
    assert np.array_equal(whole.games, np.concatenate([a.games, b.games]))
    assert np.array_equal(whole.sides, np.concatenate([a.sides, b.sides]))
    joined = np.concatenate([a.cards, b.cards + [[123, 0, 0, 0]]])
    assert np.array_equal(whole.cards, joined)


def test_threads_and_chunks_give_the_same_tables(tmp_path):
    match = MafiaMatch(None, 3, [BotSpec("random")] * 3)
    one = simulate(match, 2000, 9, threads=1, chunk_size=2000, out_dir=tmp_path / "one", progress=False)
    two = simulate(match, 2000, 9, threads=2, chunk_size=333, out_dir=tmp_path / "two", progress=False)
    import pandas as pd

    for table in ("games", "sides", "cards", "spaces"):
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "one" / f"{table}.parquet"),
                                      pd.read_parquet(tmp_path / "two" / f"{table}.parquet"))
    assert one.manifest["summary"] == two.manifest["summary"]


def test_a_full_card_buffer_is_played_again_with_more_room():
    match = MafiaMatch(None, 5, [BotSpec("random")] * 5)
    big = match.play(3, 0, 500).view()
    small = match._new_chunk(500)
    small.cards = small.cards[:3]  # room for three plays only
    small.first, small.count = 0, 500
    assert match._play_into(small, 3, 0, 500) == 0
    assert np.array_equal(small.view().cards, big.cards) and len(big.cards) > 3
