"""Sau Mau Mau's search bot (``lookahead``, search.py on engine/search.py): it
plays far better than the random bot, the same games at any thread count and
chunking, and its world hides what its seat cannot see."""
import numpy as np
import pandas as pd

from analyzer import api
from analyzer.engine.botspec import BotSpec
from analyzer.engine.search import T_ALIVE, T_PAIRED, T_SUM, drop_hopeless, new_table
from analyzer.games.sau_mau_mau import layout as L
from analyzer.games.sau_mau_mau.kernel import pack_game, run
from analyzer.games.sau_mau_mau.registry import resolve
from tests.search_support import assert_a_seed_fixes_the_games, worlds_of_rollouts

BUDGET = 4  # playouts per option: a weak, cheap search is still far above random


def table(bots: list[BotSpec]):
    families = [resolve(b) for b in bots]
    # invariants checked after every turn: the search plays on copies only
    return (pack_game(18, [f.kind for f in families], check=True),
            np.array([f.param_row(b) for f, b in zip(families, bots)]))


def test_lookahead_beats_the_random_bot():
    """Seat 1 wins a 4-player game against three random bots 1 time in 4 when it
    plays at random too (the same deals, seed 3: 25%, sd 6.8 pp over 40 games);
    the search bot wins far more often, and scores more in the same games."""
    bots = [BotSpec("lookahead", (("rollouts", float(BUDGET)),))] + [BotSpec("random")] * 3
    game, params = table(bots)
    _, players, _, games = run(game, 3, 0, 40, params)
    random_game, random_params = table([BotSpec("random")] * 4)
    _, _, _, random_games = run(random_game, 3, 0, 40, random_params)
    assert games[:, 0, L.GM_WON].mean() >= 0.6  # 5 sd above the 25% of a random seat 1
    assert games[:, 0, L.GM_TOTAL].mean() > random_games[:, 0, L.GM_TOTAL].mean() + 5
    assert players[:, :, 0, L.PL_DECISIONS].sum() > 0


def test_same_games_at_any_thread_count_and_chunking():
    assert_a_seed_fixes_the_games("sau-mau-mau", 24, f"lookahead:rollouts={BUDGET},backer,tempo,random",
                                  ("games", "races", "players", "bets"), chunk=5, differs="races")


def test_its_worlds_keep_the_public_counts_and_hide_the_rest():
    """A world of rollout r: the seat's hand and the discard pile as they are,
    the other hands and the pile of the right sizes holding exactly the cards
    the seat has not seen, and the same world for every option."""
    from analyzer.engine.rng import seed_stream
    from analyzer.games.sau_mau_mau import search
    from analyzer.games.sau_mau_mau.kernel import new_arrays
    from analyzer.games.sau_mau_mau.rules import own_at, setup_race

    game = pack_game(18, [L.RANDOM] * 4)
    state, hidden = new_arrays()
    seed_stream(hidden, L.H_RNG, 1, 0, 0)
    setup_race(game, state, hidden, 1)
    row = np.zeros(L.PARAMS_WIDTH)
    sim = tuple(np.zeros(n, np.int64) for n in (L.G_LEN, L.S_LEN, L.H_SEARCH, L.SEARCH_WORK, L.RACE_LEN))
    sim += (np.zeros((L.MAX_PLAYERS, L.PL_LEN), np.int64), np.zeros((L.MAX_PLAYERS, L.BET_LEN), np.int64))
    seat = 2
    w = worlds_of_rollouts(search.world, (game, state, hidden, row), sim, seat, lambda: sim[2])[2]
    mine = own_at(seat)
    assert np.array_equal(w[mine:mine + L.OWN_HAND_N + 1], hidden[mine:mine + L.OWN_HAND_N + 1])
    unseen = set(range(L.N_CARDS)) - set(hidden[mine + L.OWN_HAND:mine + L.OWN_HAND + 5]) - {state[L.PUB_TOP]}
    dealt = []
    for p in (0, 1, 3):
        at = own_at(p)
        dealt += list(w[at + L.OWN_HAND:at + L.OWN_HAND + state[L.PUB_HAND_N + p]])
    dealt += list(w[L.H_PILE:L.H_PILE + state[L.PUB_PILE_N]])
    assert sorted(dealt) == sorted(unseen)
    # the true other hands are not what the world deals (a 15-card shuffle)
    assert not np.array_equal(w[own_at(0) + L.OWN_HAND:own_at(0) + L.OWN_HAND + 5],
                              hidden[own_at(0) + L.OWN_HAND:own_at(0) + L.OWN_HAND + 5])


def test_drop_keeps_the_leader_and_drops_only_options_clearly_behind():
    done = 8
    t = new_table(3, done)
    t[:, T_ALIVE] = 1.0
    t[0, T_PAIRED:] = [5, 6, 5, 7, 6, 5, 6, 7]  # the leader
    t[1, T_PAIRED:] = t[0, T_PAIRED:] - [3, 2, 3, 4, 3, 2, 3, 4]  # clearly behind on the same luck
    t[2, T_PAIRED:] = t[0, T_PAIRED:] + [1, -1, 1, -1, -1, 1, -1, 0]  # as good, within the noise
    t[:, T_SUM] = t[:, T_PAIRED:].sum(axis=1)
    assert drop_hopeless(t, 3, done, 2.0) == 2
    assert list(t[:, T_ALIVE]) == [1.0, 0.0, 1.0]


def test_replay_plays_the_game_simulate_plays():
    """The replay's kernel call (its own parameter rows) gives the search bot and
    the heuristic bots the rows play_games gives them: the same game."""
    bots = f"random,lookahead:rollouts={BUDGET},tempo"
    run = api.simulate("sau-mau-mau", games=3, bots=bots, players=3, seed=4, threads=1, progress=False)
    replay = api.replay("sau-mau-mau", 2, seed=4, bots=bots, players=3)
    for name in ("races", "players", "games", "bets"):
        rows = run.tables[name]
        pd.testing.assert_frame_equal(rows[rows.game == 2].reset_index(drop=True),
                                      replay.tables[name].reset_index(drop=True))
