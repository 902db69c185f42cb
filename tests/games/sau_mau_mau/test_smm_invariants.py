"""Invariants over many random four-race games: the kernel checks after every
turn that all 39 cards are in exactly one place (across reshuffles), that no pig
is behind start and that the bet queue holds one card per bettor; the records
are checked here."""
import numpy as np
import pytest

from analyzer.games.sau_mau_mau import layout as L
from analyzer.games.sau_mau_mau.board import load_track
from analyzer.games.sau_mau_mau.kernel import pack_game, run

GAMES = 3000


@pytest.fixture(scope="module", params=[2, 3, 4, 5])
def records(request):
    n = request.param
    game = pack_game(load_track().crown_for(n), [L.RANDOM] * n, check=True)
    return n, run(game, 20261126 + n, 0, GAMES)  # raises on any broken invariant


def test_reshuffles_happen(records):
    _, (races, _, _, _) = records
    assert races[:, :, L.RACE_RESHUFFLES].sum() > 0


def test_races(records):
    n, (races, _, _, _) = records
    crown = load_track().crown_for(n)
    assert (races[:, :, L.RACE_FIRST_SEAT] == np.arange(4) % n).all()
    assert (races[:, :, L.RACE_TURNS] >= 1).all()
    assert (races[:, :, L.RACE_END] != L.END_CAP).all()
    pos = races[:, :, L.RACE_POS:L.RACE_POS + 4]
    assert (pos >= 0).all()
    crown_end = races[:, :, L.RACE_END] == L.END_CROWN
    assert (pos.max(axis=2)[crown_end] >= crown).all()
    assert (pos.max(axis=2)[~crown_end] < crown).all()
    # the winners are the pigs furthest ahead in either end
    best = pos == pos.max(axis=2, keepdims=True)
    mask = (best * (1 << np.arange(4))).sum(axis=2)
    assert (races[:, :, L.RACE_WINNING] == mask).all()
    assert (races[:, :, L.RACE_QUEUE_LEN] <= n).all()
    assert set(np.unique(races[:, :, L.RACE_BOTH][crown_end])) <= {0, 1}
    assert (races[:, :, L.RACE_BOTH][~crown_end] == 0).all()


def test_points(records):
    n, (races, players, bets, games) = records
    end_points = players[..., L.PL_CROWN_POINTS] + players[..., L.PL_HAND_POINTS]
    assert (players[..., L.PL_RACE_POINTS] == end_points + players[..., L.PL_BET_POINTS]).all()
    # exactly the ender scores end points: 3, 5 or 8
    per_race = end_points.sum(axis=2)
    expected = np.where(races[:, :, L.RACE_END] == L.END_HAND, 5,
                        np.where(races[:, :, L.RACE_BOTH] == 1, 8, 3))
    assert (per_race == expected).all()
    ender = races[:, :, L.RACE_ENDER]
    assert (np.take_along_axis(end_points, ender[..., None], axis=2)[..., 0] == expected).all()
    assert (games[:, :, L.GM_TOTAL] == players[..., L.PL_RACE_POINTS].sum(axis=1)).all()
    won = games[:, :, L.GM_TOTAL] == games[:, :, L.GM_TOTAL].max(axis=1, keepdims=True)
    assert (games[:, :, L.GM_WON] == won).all()
    assert (bets[..., L.BET_POINTS] == players[..., L.PL_BET_POINTS]).all()


def test_bet_queue(records):
    n, (races, players, bets, _) = records
    has = bets[..., L.BET_PIG] >= 0
    assert (has.sum(axis=2) == races[:, :, L.RACE_QUEUE_LEN]).all()
    assert (players[..., L.PL_BETS_PLACED] - players[..., L.PL_BETS_CHANGED] == has).all()
    for g in range(200):
        for r in range(4):
            q = sorted(bets[g, r, has[g, r], L.BET_QUEUE_POS])
            assert q == list(range(1, len(q) + 1))
            # winning bets score 6, 4, 3, 2, 1 in queue order; others 0
            order = np.argsort(bets[g, r, :, L.BET_QUEUE_POS])
            won = [bets[g, r, s, L.BET_POINTS] for s in order
                   if has[g, r, s] and (races[g, r, L.RACE_WINNING] >> bets[g, r, s, L.BET_PIG]) & 1]
            assert won == [6, 4, 3, 2, 1][:len(won)]
            lost = [bets[g, r, s, L.BET_POINTS] for s in range(n)
                    if not (has[g, r, s] and (races[g, r, L.RACE_WINNING] >> bets[g, r, s, L.BET_PIG]) & 1)]
            assert not any(lost)
    changed = bets[..., L.BET_CHANGED] == 1
    assert changed.any() and (players[..., L.PL_BETS_CHANGED][changed] >= 1).all()


def test_cards(records):
    n, (_, players, _, _) = records
    left = players[..., L.PL_CARDS_LEFT]
    drawn = players[..., L.PL_CARDS_DRAWN]
    played = players[..., L.PL_CARDS_PLAYED]
    assert (left == 5 + drawn - played).all()
    assert (left.sum(axis=2) + 1 <= 39).all()
