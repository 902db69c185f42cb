"""Lemminge's search bot (``lookahead``, search.py on engine/search.py): it
plays far better than the random bot, the same games at any thread count and
chunking, and its worlds hide what its seat cannot see."""
import numpy as np
import pandas as pd

from analyzer import api
from analyzer.engine.botspec import BotSpec
from analyzer.games.lemminge import kernel as K
from analyzer.games.lemminge import layout as L
from analyzer.games.lemminge.board import load_map
from analyzer.games.lemminge.registry import resolve
from tests.search_support import assert_a_seed_fixes_the_games, worlds_of_rollouts

BUDGET = 4  # playouts per option: a weak, cheap search is still far above random
MAP = load_map()


def table(bots: list[BotSpec]):
    families = [resolve(b) for b in bots]
    # invariants checked after every turn: the search plays on copies only
    return (K.pack_game(MAP, [f.kind for f in families], check=True),
            np.array([f.param_row(b) for f, b in zip(families, bots)]))


def test_lookahead_beats_the_random_bot():
    """Seat 1 wins a 4-player game against three random bots about 1 time in 4
    when it plays at random too (the same deals, seed 3: measured below, sd
    6.8 pp over 40 games at 25%); the search bot wins far more often, and
    brings more lemmings home in the same games."""
    bots = [BotSpec("lookahead", (("rollouts", float(BUDGET)),))] + [BotSpec("random")] * 3
    game, params = table(bots)
    games, players, _, _ = K.run(game, MAP.n_cells, 3, 0, 40, params)
    random_game, random_params = table([BotSpec("random")] * 4)
    random_games, random_players, _, _ = K.run(random_game, MAP.n_cells, 3, 0, 40, random_params)
    assert (random_games[:, L.GM_WINNER] == 0).mean() <= 0.4
    assert (games[:, L.GM_WINNER] == 0).mean() >= 0.6  # 5 sd above the 25% of a random seat 1
    assert players[:, 0, L.PL_FINISHED].mean() > random_players[:, 0, L.PL_FINISHED].mean() + 0.3


def test_same_games_at_any_thread_count_and_chunking():
    assert_a_seed_fixes_the_games("lemminge", 16, f"lookahead:rollouts={BUDGET},convoy,blocker,random",
                                  ("games", "players"), chunk=3, differs="players")


def test_its_worlds_keep_the_public_counts_and_hide_the_rest():
    """A world of rollout r: the seat's hand, the board and the discards as they
    are; the other hands and the draw pile of the right sizes, holding exactly
    the cards the seat cannot see; the same world for every option."""
    from analyzer.games.lemminge import search
    from analyzer.games.lemminge.rules import own_at

    game = K.pack_game(MAP, [L.RANDOM] * 4)
    state = np.zeros(L.S_LEN, np.int64)
    hidden = np.zeros(L.H_LEN, np.int64)
    K.new_game(game, state, hidden, 1, 0, np.zeros(0, np.int64))
    row = np.zeros(L.PARAMS_WIDTH)
    sim = search.search_area.py_func(hidden)  # (views; the jitted one would box its parent array)
    sim[0][:] = game
    seat = 2
    w = worlds_of_rollouts(search.world, (game, state, hidden, row), sim, seat, lambda: sim[2])[2]
    assert np.array_equal(sim[1][:L.PUB_OCC], state[:L.PUB_OCC])
    for first in (L.PUB_OCC, L.PUB_TILE, L.PUB_TER):  # the board, on the map's cells
        assert np.array_equal(sim[1][first:first + MAP.n_cells], state[first:first + MAP.n_cells])

    def hand(h, p):
        at = own_at(p)
        return list(h[at + L.OWN_HAND:at + L.OWN_HAND + h[at + L.OWN_HAND_N]])

    mine = own_at(seat)
    assert np.array_equal(w[mine:mine + L.OWN_HAND_N + 1], hidden[mine:mine + L.OWN_HAND_N + 1])
    pile = state[L.PUB_PILE_N]
    unseen = sorted(sum((hand(hidden, p) for p in (0, 1, 3)), list(hidden[L.H_PILE:L.H_PILE + pile])))
    dealt = sorted(sum((hand(w, p) for p in (0, 1, 3)), list(w[L.H_PILE:L.H_PILE + pile])))
    assert dealt == unseen
    for p in (0, 1, 3):
        assert len(hand(w, p)) == state[L.PUB_HAND_N + p]
    assert hand(w, 3) != hand(hidden, 3)  # a fresh deal (6 of 47 cards)


def test_replay_plays_the_game_simulate_plays():
    """The replay (the kernel with a trace) plays the search bot's game as the run does."""
    bots = f"random,lookahead:rollouts={BUDGET},convoy"
    run = api.simulate("lemminge", games=3, bots=bots, players=3, seed=4, threads=1, progress=False)
    replay = api.replay("lemminge", 2, seed=4, bots=bots, players=3)
    for name in ("games", "players"):
        rows = run.tables[name]
        pd.testing.assert_frame_equal(rows[rows.game == 2].reset_index(drop=True),
                                      replay.tables[name].reset_index(drop=True))


def test_an_option_plays_its_card_and_moves_its_lemming():
    """In a playout, option (card, lemming) plays that card and walks that
    lemming, whichever lemming the heuristic model would have moved; the
    refill option refills."""
    from analyzer.games.lemminge import search
    from analyzer.games.lemminge.rules import own_at

    game = K.pack_game(MAP, [L.RANDOM] * 4)
    state = np.zeros(L.S_LEN, np.int64)
    hidden = np.zeros(L.H_LEN, np.int64)
    K.new_game(game, state, hidden, 2, 0, np.zeros(0, np.int64))
    seat = 3  # the last seat holds 6 cards: at least one allows a step out of the start
    state[L.PUB_MOVER] = seat
    state[L.PUB_TURN] = 1
    row = resolve(BotSpec("lookahead", ())).param_row(BotSpec("lookahead", ()))
    sim = search.search_area.py_func(hidden)
    sim[0][:] = game
    sim[0][L.G_KINDS:L.G_KINDS + 4] = L.RANDOM
    work = sim[3]
    at = own_at(seat)
    held = hidden[at + L.OWN_HAND_N]
    moved = set()
    for position in range(held):
        for lemming in (seat * 2, seat * 2 + 1):
            work[search.W_OPTIONS] = position
            work[search.W_LEMMINGS] = lemming
            search.world((game, state, hidden, row), sim, seat, 9, 0)
            search.apply_option((game, state, hidden, row), sim, seat, 0)
            w = sim[2]
            assert w[at + L.OWN_HAND_N] == held - 1  # the card was played
            pos = sim[1][L.PUB_POS:L.PUB_POS + 8]
            assert all(pos[p] == L.AT_START for p in range(8) if p != lemming)
            if pos[lemming] != L.AT_START:
                moved.add(lemming)
    assert moved == {seat * 2, seat * 2 + 1}  # each lemming walked when its option forced it
    work[search.W_OPTIONS] = -1
    work[search.W_LEMMINGS] = -1
    search.world((game, state, hidden, row), sim, seat, 9, 0)
    search.apply_option((game, state, hidden, row), sim, seat, 0)
    assert sim[1][L.PUB_POS:L.PUB_POS + 8].tolist() == [L.AT_START] * 8
    assert sim[1][L.PUB_HAND_N + seat] == game[L.G_HAND_LIMIT] == 6  # refilled
