"""Mafia's search bot (``lookahead``, search.py on engine/search.py): it plays whole
games in either role at every player count, far better than the random bot in its
seat, the same games at any thread count and chunking, and its worlds hide what
its seat cannot see."""
import math

import numpy as np
import pandas as pd
import pytest

from analyzer import api
from analyzer.engine.botspec import parse_bot_list
from analyzer.errors import BotError
from analyzer.games.mafia import layout as L
from analyzer.games.mafia import search
from analyzer.games.mafia.match import MafiaMatch
from tests.games.mafia.mafia_support import BLACK, GREEN, ORANGE, RED, STATE, Table
from tests.search_support import assert_a_seed_fixes_the_games, worlds_of_rollouts

SMALL = "lookahead:rollouts=4:horizon=2"  # a weak, cheap search: still far above random


def match(players, bots, check=False):
    return MafiaMatch(None, players, parse_bot_list(bots), check=check)


@pytest.mark.parametrize("players, bots", [
    (5, f"{SMALL},raider,{SMALL},expander,random"),
    (4, f"{SMALL},raider,random,{SMALL}:playout=0"),
    (3, f"{SMALL},random,{SMALL}"),
])
def test_it_plays_whole_games_in_both_roles(players, bots):
    """Invariants checked after every turn (the search plays on copies only); every
    game ends with an outcome and no bot fault."""
    m = match(players, bots, check=True)
    chunk = m.play(3, 0, 24).view()
    assert chunk.count == 24
    outcomes = chunk.games[:, L.GM_OUTCOME]
    assert ((outcomes >= L.OUT_STATE) & (outcomes <= L.OUT_DRAW)).all()
    assert (chunk.games[:, L.GM_SIDE_TURNS] > 0).all()


def win_rate(players, bots, seat, games, seed=11):
    m = match(players, bots)
    won, _ = m.outcomes(m.play(seed, 0, games))
    return won[:, seat].mean()


@pytest.mark.parametrize("seat, games", [(0, 240), (2, 80)])
def test_it_beats_the_random_bot_in_its_seat(seat, games):
    """Red (a family) wins about 26% of five-player games against random sides when
    it plays at random, the State about 10% (docs/mafia.md); the search bot in the
    same seat, on the same dice, far more: the win-rate difference is more than 4
    standard errors (two-proportion test, unpaired) above 0."""
    field = ["random"] * 5
    with_bot = list(field)
    with_bot[seat] = SMALL
    a = win_rate(5, ",".join(with_bot), seat, games)
    b = win_rate(5, ",".join(field), seat, games)
    p = (a + b) / 2
    z = (a - b) / math.sqrt(p * (1 - p) * 2 / games)
    assert z > 4, (a, b, z)


def test_same_games_at_any_thread_count_and_chunking():
    assert_a_seed_fixes_the_games("mafia", 12, f"{SMALL},raider,{SMALL},expander,raider", ("games", "sides"),
                                  chunk=5, differs="sides")


def test_replay_plays_the_game_simulate_plays():
    bots = f"expander,{SMALL},hunter,raider,expander"
    run = api.simulate("mafia", games=3, bots=bots, seed=4, threads=1, progress=False)
    replay = api.replay("mafia", 2, seed=4, bots=bots)
    for name in ("games", "sides"):
        rows = run.tables[name]
        pd.testing.assert_frame_equal(rows[rows.game == 2].reset_index(drop=True),
                                      replay.tables[name].reset_index(drop=True))


def test_its_worlds_keep_what_is_public_and_deal_the_rest_anew():
    """A world of rollout r for red: the pieces, markers and red's own hand as they
    are; every other side holds as many cards of each deck as it does, the cards
    red cannot see (theirs and the decks') dealt among them; the same world for
    every option of rollout r, another for another r."""
    t = Table(5)
    holders = {0: RED, 3: RED, 1: BLACK, 2: BLACK, 5: ORANGE, 8: STATE, 9: STATE, 12: STATE, 17: STATE}
    for card, side in holders.items():
        t.s[L.S_HOLDER + card] = side
    t.s[L.S_MARK + 4 * 5 + BLACK] = 2
    s = np.zeros(L.S_ALL, np.int64)
    s[:L.S_LEN] = t.s
    sim = search.search_area.py_func(s)  # views (the jitted one would box its parent array)
    here = (t.game, s)
    pool = (sim[0], sim[1], t.paths, sim[2], sim[3], sim[4], sim[5])
    worlds = worlds_of_rollouts(search.world, here, pool, RED, lambda: sim[1][:L.S_SCRIPT_N])
    w = worlds[2]
    for first, n in ((L.S_LOC, L.N_PIECES), (L.S_MARK, 4 * L.MAX_SPACES), (L.S_SUPPLY, L.N_FAMILIES)):
        assert np.array_equal(w[first:first + n], s[first:first + n])
    held = w[L.S_HOLDER:L.S_HOLDER + L.N_CARDS]
    before = s[L.S_HOLDER:L.S_HOLDER + L.N_CARDS]
    assert list(np.flatnonzero(held == RED)) == [0, 3]  # its own hand, as it is
    for side in (BLACK, ORANGE, GREEN, STATE):
        for deck in range(3):
            cards = slice(deck * L.DECK_SIZE, (deck + 1) * L.DECK_SIZE)
            assert (held[cards] == side).sum() == (before[cards] == side).sum(), (side, deck)
    dealt = [not np.array_equal(wd[L.S_HOLDER:L.S_HOLDER + L.N_CARDS], before) for wd in worlds]
    assert any(dealt)  # a fresh deal (6 of 14 unseen USA cards, 4 of 13 ROME and SISDE)


def test_a_policy_of_the_other_role_is_refused():
    with pytest.raises(BotError, match="policy 1 is hunter, which cannot play the family role"):
        match(5, "lookahead:policy=1,random,random,random,random")
    with pytest.raises(BotError, match="policy 3 is expander, which cannot play the state role"):
        match(5, "random,random,lookahead:policy=3,random,random")


@pytest.mark.parametrize("base, expected", [
    ("", {"red": "Palermo", "black": "Catania"}),  # the default: the ring city open to its colour
    (":base=0", {"red": "Enna", "black": "Enna"}),  # its model's (expander: Enna)
    (":base=1", {"red": "Enna", "black": "Enna"}),
    (":base=2", {"red": "Palermo", "black": "Catania"}),
])
def test_its_base_is_the_one_its_base_parameter_names(base, expected):
    """A family's base is not searched: ``base`` names it (the State has none);
    the other families keep their bots' bases."""
    bot = f"{SMALL}{base}"
    run = api.simulate("mafia", games=2, bots=f"{bot},{bot},{bot},raider,expander",
                       seed=3, threads=1, progress=False)
    sides = run.tables["sides"]
    for side, city in {**expected, "orange": "Palermo", "green": "Enna"}.items():
        assert set(sides[sides.side == side].base.astype(str)) == {city}, side
    assert sides[sides.side == "state"].base.isna().all()


@pytest.mark.parametrize("width, rollouts, expected", [
    (0, 24, 4),  # the default budget: its model's four best moves
    (0, 120, 9),  # five times the playouts: a wider search, not only a finer one
    (0, 48, 6), (0, 12, 3), (0, 4, 2), (0, 1, 1),
    (0, 100_000, search.MAX_WIDTH),
    (5, 120, 5), (1, 24, 1), (16, 1, 16),  # a width the bot sets is kept
])
def test_its_width_grows_with_the_budget_unless_it_sets_one(width, rollouts, expected):
    assert search.budget_width(width, rollouts) == expected
    assert search.budget_width.py_func(width, rollouts) == expected


@pytest.mark.parametrize("horizon, four, expected", [
    (0, False, 3),  # the default at three and five players
    (0, True, 4),  # four players: a whole pass of the calendar, back to the seat's own win check
    (6, False, 6), (6, True, 6), (1, True, 1),  # a horizon the bot sets is kept
])
def test_its_horizon_is_a_whole_pass_with_four_players_unless_it_sets_one(horizon, four, expected):
    assert search.budget_horizon(horizon, four) == expected
    assert search.budget_horizon.py_func(horizon, four) == expected


def test_its_playouts_play_each_side_by_its_own_bot_if_a_heuristic_or_random():
    """The random bot's seats are played as the random bot in the playouts (its search
    answers the bots it meets); a search bot's side by its model; a user bot's (not
    a built-in policy) would be the strongest heuristic of its role."""
    m = match(5, "lookahead,random,lookahead:policy=2,raider,expander")
    kinds = m.game_array[L.G_PLAYOUT_KIND:L.G_PLAYOUT_KIND + L.N_SIDES]
    assert list(kinds[[RED, BLACK, STATE, ORANGE, GREEN]]) == [L.EXPANDER, L.RANDOM, L.WARDEN, L.RAIDER, L.EXPANDER]
