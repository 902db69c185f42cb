"""The kernel of a table of built-in bots (``table_race.play_races``: heuristic
and random seats, asked directly) plays the same races as the general kernel
(``kernel.play_races``, which asks every bot through ``ask``): every record,
draw for draw, for tables of each heuristic bot with random seats, tuned
parameters (a bet timing that bets at once, a sharp or flat race model, a
contractor that discards readily), on boards with getaway chains, full
sections, early eliminations, and two to six players. Its summary variant
writes the same races and players rows and nothing else."""
import numpy as np
import pytest

import tests.games.lemming_mafia.lm_support as S
from analyzer.engine.botspec import parse_bot_list
from analyzer.games.lemming_mafia import kernel, table_race
from analyzer.games.lemming_mafia import layout as L
from analyzer.games.lemming_mafia.board import pack_game
from analyzer.games.lemming_mafia.match import Chunk, LemmingMafiaMatch
from tests.games.lemming_mafia.test_lm_random_race import BOARDS

TABLES = {
    "default": "favourite,timer,contractor,random",
    "heuristic": "favourite,timer,contractor,favourite,timer,contractor",
    "tuned": ("timer:late_bets=0:urgency=100,contractor:discard_margin=-1:sharpness=3,"
              "favourite:sharpness=0:block_weight=0:loyalty=5,random"),
    "two": "contractor,random",
    "three": "random,favourite,timer",
}


def play(play_races, game, params, seed, first, count):
    chunk = Chunk.empty(count, params.shape[0], game[L.G_N_FIELDS])
    chunk.contracts[:] = 77
    chunk.bets[:] = 77
    status = play_races(game, params, seed, first, count, chunk.races, chunk.players,
                        chunk.contracts, chunk.bets, chunk.fields)
    assert status == 0
    return chunk


@pytest.mark.parametrize("board_name", list(BOARDS))
@pytest.mark.parametrize("table_name", list(TABLES))
def test_the_table_kernel_plays_the_general_kernels_races(board_name, table_name):
    specs = parse_bot_list(TABLES[table_name])
    match = LemmingMafiaMatch(None, len(specs), specs)  # the seats' kinds and parameter rows
    assert match._play is table_race.play_races
    sections = BOARDS[board_name]
    board = S.DEFAULT_BOARD if sections is None else S.make_board(sections)
    kinds = [f.kind for f in match.families]
    game = pack_game(board, S.DEFAULT_DECK, kinds)
    for seed, first in ((7, 0), (2**40 + 3, 10**9)):
        general = play(kernel.play_races, game, match.params, seed, first, 400)
        fast = play(table_race.play_races, game, match.params, seed, first, 400)
        for part in ("races", "players", "contracts", "bets", "fields"):
            np.testing.assert_array_equal(getattr(fast, part), getattr(general, part), err_msg=part)
        summary = play(table_race.play_race_summaries, game, match.params, seed, first, 400)
        for part in ("races", "players"):
            np.testing.assert_array_equal(getattr(summary, part), getattr(general, part), err_msg=part)
        assert (summary.contracts == 77).all() and (summary.bets == 77).all() and (summary.fields == 0).all()
    # what the kernels do apart is reached: every seat bets and discards
    players = general.players
    assert (players[:, :, L.PL_BETS_PLACED] > 0).any(axis=0).all()
    assert (players[:, :, L.PL_DISCARDED] > 0).any(axis=0).all()
    if table_name != "heuristic":
        assert (general.races[:, L.RACE_N_ELIM] > 0).any()


def test_only_a_table_of_heuristic_and_random_bots_plays_on_the_table_kernel():
    table = parse_bot_list("favourite,random,random,random")
    assert LemmingMafiaMatch(None, 4, table)._play is table_race.play_races
    assert LemmingMafiaMatch(None, 4, parse_bot_list("lookahead,timer,random,random"))._play is kernel.play_races
