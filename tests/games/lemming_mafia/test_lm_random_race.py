"""The fast path of a table of random bots (``random_race.play_races``) plays
the same races as the general kernel (``kernel.play_races``) with ``random``
in every seat: every record, draw for draw, on boards with getaway chains,
sections of one to eight fields, early eliminations, and two to six players.
The general kernel is the one the rulebook tests and the replay step through;
the cross-check reaches the fast path (a random table's match plays on it)."""
import numpy as np
import pytest

import tests.games.lemming_mafia.lm_support as S
from analyzer.engine.botspec import BotSpec
from analyzer.games.lemming_mafia import kernel, random_race
from analyzer.games.lemming_mafia import layout as L
from analyzer.games.lemming_mafia.board import pack_game
from analyzer.games.lemming_mafia.bots import PARAMS_WIDTH, RANDOM
from analyzer.games.lemming_mafia.match import Chunk, LemmingMafiaMatch
from tests.games.lemming_mafia.test_lm_crosscheck import CONCRETE_START_BOARD, GETAWAY_BOARD, ODD_BOARD

# Sections of 8 fields (every bit of a section's mask) and of one, full often.
WIDE_BOARD = [
    ["empty"] * 3 + ["getaway"] + ["bookmaker"] * 2 + ["concrete", "boss"],
    ["concrete"], ["getaway", "jackhammer"],
    ["bookmaker", "empty", "boss", "concrete", "getaway", "empty", "jackhammer", "bookmaker"],
    ["boss"], ["getaway"], ["concrete", "empty", "getaway", "bookmaker", "empty"],
]

BOARDS = {"default": None, "getaways": GETAWAY_BOARD, "odd": ODD_BOARD,
          "concrete-start": CONCRETE_START_BOARD, "wide": WIDE_BOARD}


def play(play_races, game, players, seed, first, count):
    chunk = Chunk.empty(count, players, game[L.G_N_FIELDS])
    params = np.zeros((players, PARAMS_WIDTH))
    status = play_races(game, params, seed, first, count, chunk.races, chunk.players,
                        chunk.contracts, chunk.bets, chunk.fields)
    assert status == 0
    return chunk


@pytest.mark.parametrize("name", list(BOARDS))
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_fast_path_plays_the_kernels_races(name, players):
    sections = BOARDS[name]
    board = S.DEFAULT_BOARD if sections is None else S.make_board(sections)
    game = pack_game(board, S.DEFAULT_DECK, [RANDOM] * players)
    for seed, first in ((7, 0), (2**40 + 3, 10**9)):
        general = play(kernel.play_races, game, players, seed, first, 1500)
        fast = play(random_race.play_races, game, players, seed, first, 1500)
        for part in ("races", "players", "contracts", "bets", "fields"):
            np.testing.assert_array_equal(getattr(fast, part), getattr(general, part), err_msg=part)
    # the boards reach what the fast path does apart: a lemming out, a full
    # section ahead (several sections crossed at once), a getaway chain, the water
    assert (general.races[:, L.RACE_N_ELIM] > 0).any()
    assert (general.races[:, L.RACE_FINISH] == L.FINISH_WATER).any()


def test_a_random_table_plays_on_the_fast_path():
    table = [BotSpec("random")] * 4
    assert LemmingMafiaMatch(None, 4, table)._play is random_race.play_races
    mixed = [BotSpec("favourite")] + table[1:]
    assert LemmingMafiaMatch(None, 4, mixed)._play is kernel.play_races
