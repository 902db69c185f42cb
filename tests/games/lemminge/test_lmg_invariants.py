"""Invariants over whole games, checked by the kernel after every turn
(``check=True``: every card exactly once in hands, columns, pile and discards;
every tile in the supply or on the board; one lemming per hex), and the record
tables agreeing with each other."""
import numpy as np
import pytest

from analyzer.games.lemminge import kernel as K
from analyzer.games.lemminge import layout as L
from analyzer.games.lemminge.ruleset import BOX_START_HANDS
from analyzer.games.lemminge.board import load_map

MAP = load_map()


@pytest.mark.parametrize("kinds", [[L.RANDOM] * 2, [L.RANDOM] * 3, [L.RACER, L.CONVOY, L.BLOCKER, L.RANDOM],
                                   [L.RANDOM, L.BLOCKER, L.RANDOM, L.BLOCKER, L.RANDOM]])
def test_whole_games_keep_the_invariants_and_the_records_agree(kinds):
    from analyzer.games.lemminge.registry import BUILTIN
    from analyzer.engine.botspec import BotSpec

    names = {f.kind: name for name, f in BUILTIN.items()}
    params = np.stack([BUILTIN[names[k]].param_row(BotSpec(names[k], ())) for k in kinds])
    n = 60
    games, players, moves, hexes = K.run(K.pack_game(MAP, kinds, check=True), MAP.n_cells, 3, 0, n, params)
    p = len(kinds)
    assert not games[:, L.GM_CAPPED].any()
    winner = games[:, L.GM_WINNER]
    assert ((winner >= 0) & (winner < p)).all()
    assert (players[np.arange(n), winner, L.PL_FINISHED] == 2).all()
    assert (players[:, :, L.PL_WON].sum(1) == 1).all()
    assert (players[:, :, L.PL_FINISHED] <= 2).all()
    # turns: every turn is a move or a refill
    assert (players[:, :, L.PL_MOVES].sum(1) + players[:, :, L.PL_REFILLS].sum(1) == games[:, L.GM_TURNS]).all()
    # the moves table adds up to the players table
    assert len(moves) == players[:, :, L.PL_MOVES].sum()
    g, s = moves[:, L.MV_GAME], moves[:, L.MV_SEAT]
    for col_mv, col_pl in ((L.MV_STEPS, L.PL_STEPS), (L.MV_PUSHES, L.PL_PUSHES_MADE),
                           (L.MV_NEW_COLUMN, L.PL_NEW_COLUMNS)):
        per = np.zeros((n, p), np.int64)
        np.add.at(per, (g, s), moves[:, col_mv])
        assert np.array_equal(per, players[:, :, col_pl])
    assert players[:, :, L.PL_PUSHES_MADE].sum() == players[:, :, L.PL_PUSHED].sum()
    assert players[:, :, L.PL_PUSHED_DIST].sum() == moves[:, L.MV_SETBACK].sum()
    assert hexes[:, L.HX_ENTERED].sum() == players[:, :, L.PL_STEPS].sum()
    assert hexes[:, L.HX_TILES].sum() == players[:, :, L.PL_TILES_PLACED].sum()
    assert hexes[:, L.HX_PUSHED_INTO].sum() <= players[:, :, L.PL_PUSHED].sum()  # the rest were pushed home
    assert (players[:, :, L.PL_TILES_PLACED] <= players[:, :, L.PL_NEW_COLUMNS]).all()
    # a move never takes a lemming further from the finish by its own steps for the random bot
    rnd = np.array([kinds[k] == L.RANDOM for k in s])
    moved = moves[:, L.MV_LEMMING] >= 0
    assert (moves[rnd & moved, L.MV_DIST_AFTER] <= moves[rnd & moved, L.MV_DIST_BEFORE]).all()
    assert (moves[:, L.MV_STEPS] + moves[:, L.MV_PUSHES] <= moves[:, L.MV_MOVEMENT]).all()
    assert (moves[~moved, L.MV_STEPS] == 0).all()
    hand = players[0, :, L.PL_HAND_START]
    assert tuple(hand) == BOX_START_HANDS[p]
